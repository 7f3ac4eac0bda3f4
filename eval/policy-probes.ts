// Black-box policy measurement shared by the sample harness (eval/policies.ts), the corpus runner
// (eval/policy-corpus/run.ts) and the corpus test: a rule is created and confirmed over HTTP in a fresh
// workspace, each probe is decided by POST /policies/evaluate, and scoring reads nothing of the answer but
// `decision` (and, for reports, `restatement` and the refusal message). It knows nothing of the parser.
import { request } from "./server.ts";
import { HarnessError } from "./sets.ts";

export const DECISIONS = ["approved", "blocked", "conditional"] as const;
export type Decision = (typeof DECISIONS)[number];

export interface Probe {
  action: string;
  domain?: string;
  context: Record<string, unknown>;
  /** Absent only on a repeated probe with `expect_last`: then the answers before the last are not checked. */
  expect?: Decision;
  /** Sent this many times; `expect` holds for every answer but the last, `expect_last` for the last. */
  repeat?: number;
  expect_last?: Decision;
}

export interface RuleLine {
  id: string;
  rule: string;
  domain?: string;
  probes: Probe[];
}

const field = (value: unknown, key: string): unknown => (typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined);

const isDecision = (v: unknown): v is Decision => typeof v === "string" && (DECISIONS as readonly string[]).includes(v);

/** Checks one line of a rule set; a malformed line is a harness failure, not a wrong probe. */
export function parseRuleLine(raw: unknown, where: string): RuleLine {
  const id = field(raw, "id");
  const rule = field(raw, "rule");
  const domain = field(raw, "domain");
  const probes = field(raw, "probes");
  if (typeof id !== "string" || typeof rule !== "string" || !Array.isArray(probes)) throw new HarnessError(`${where}: needs id, rule and probes`);
  if (domain !== undefined && typeof domain !== "string") throw new HarnessError(`${where}: domain must be a string`);
  return {
    id,
    rule,
    ...(domain !== undefined ? { domain } : {}),
    probes: probes.map((p: unknown, i) => {
      const action = field(p, "action");
      const context = field(p, "context") ?? {};
      const expect = field(p, "expect");
      const repeat = field(p, "repeat");
      const expectLast = field(p, "expect_last");
      const probeDomain = field(p, "domain");
      const at = `${where} probe ${i + 1}`;
      if (typeof action !== "string") throw new HarnessError(`${at}: action must be a string`);
      if (typeof context !== "object" || context === null || Array.isArray(context)) throw new HarnessError(`${at}: context must be an object`);
      if (!(isDecision(expect) || (expect === undefined && isDecision(expectLast)))) throw new HarnessError(`${at}: expect must be one of ${DECISIONS.join(", ")}`);
      if (repeat !== undefined && (typeof repeat !== "number" || !Number.isInteger(repeat) || repeat < 1)) throw new HarnessError(`${at}: repeat must be a positive integer`);
      if (expectLast !== undefined && !isDecision(expectLast)) throw new HarnessError(`${at}: expect_last must be one of ${DECISIONS.join(", ")}`);
      if (probeDomain !== undefined && typeof probeDomain !== "string") throw new HarnessError(`${at}: domain must be a string`);
      return {
        action,
        context: context as Record<string, unknown>,
        ...(expect !== undefined ? { expect } : {}),
        ...(probeDomain !== undefined ? { domain: probeDomain } : {}),
        ...(repeat !== undefined ? { repeat } : {}),
        ...(expectLast !== undefined ? { expect_last: expectLast } : {}),
      };
    }),
  };
}

/** The decisions a probe must get, one per request sent: `repeat` times, the last one `expect_last`
 * (undefined where the line leaves an answer unchecked). */
export function expectedSequence(probe: Probe): (Decision | undefined)[] {
  const n = probe.repeat ?? 1;
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? (probe.expect_last ?? probe.expect) : probe.expect));
}

/** A probe is right when every answer is the decision expected for it (an HTTP error never is). */
export function probeRight(probe: Probe, got: string[]): boolean {
  const want = expectedSequence(probe);
  return got.length === want.length && want.every((d, i) => d === undefined || got[i] === d);
}

export interface ServerLike {
  url: string;
  adminToken: string;
}

/** A fresh workspace and an API key for it, made with the operator token. */
export async function freshWorkspace(server: ServerLike, name: string): Promise<string> {
  const ws = await request(server.url, "POST", "/api/v1/maas/workspaces", server.adminToken, { name });
  const id = field(ws.body, "id");
  if (ws.status !== 201 || typeof id !== "string") throw new HarnessError(`create workspace ${name}: ${ws.networkError ?? `HTTP ${ws.status} ${ws.text.slice(0, 300)}`}`);
  const issued = await request(server.url, "POST", `/api/v1/maas/workspaces/${id}/api-keys`, server.adminToken, { name: "policy-eval" });
  const key = field(issued.body, "plaintext");
  if (issued.status !== 201 || typeof key !== "string") throw new HarnessError(`create API key for ${name}: ${issued.networkError ?? `HTTP ${issued.status} ${issued.text.slice(0, 300)}`}`);
  return key;
}

export interface RuleOutcome {
  compiled: boolean;
  id?: string;
  version?: number;
  restatement?: string;
  /** Why the service refused the rule: its error code and message (with the unplaced words when given). */
  refusal?: string;
}

function refusalOf(status: number, body: unknown, text: string, networkError?: string): string {
  if (networkError) return `no answer: ${networkError}`;
  const error = field(body, "error");
  const code = field(error, "code");
  if (typeof code !== "string") return `HTTP ${status} ${text.slice(0, 200)}`;
  const parts = [`${code}: ${String(field(error, "message") ?? "")}`];
  const unplaced = field(error, "unplaced");
  if (unplaced !== undefined) parts.push(`unplaced ${JSON.stringify(unplaced)}`);
  const suggestion = field(error, "suggestion");
  if (typeof suggestion === "string" && suggestion) parts.push(`suggestion "${suggestion}"`);
  return parts.join("; ");
}

/** Creates the rule as a policy and confirms it. A refusal is an outcome; a failed confirm stops the run. */
export async function createConfirmed(url: string, key: string, name: string, rule: string, domain?: string): Promise<RuleOutcome> {
  const reply = await request(url, "POST", "/api/v1/svc/policies", key, { name, rule, ...(domain !== undefined ? { domain } : {}) });
  if (reply.status !== 201) return { compiled: false, refusal: refusalOf(reply.status, reply.body, reply.text, reply.networkError) };
  const id = field(reply.body, "id");
  const version = field(reply.body, "version");
  const restatement = field(reply.body, "restatement");
  if (typeof id !== "string" || typeof version !== "number") throw new HarnessError(`policy ${name}: the answer has no id or version`);
  const confirmed = await request(url, "POST", `/api/v1/svc/policies/${id}/confirm`, key, { version });
  if (confirmed.status !== 200) throw new HarnessError(`policy ${name}: confirm failed: ${confirmed.networkError ?? `HTTP ${confirmed.status} ${confirmed.text.slice(0, 300)}`}`);
  return { compiled: true, id, version, ...(typeof restatement === "string" ? { restatement } : {}) };
}

/** Sends the probe (repeat times) and returns each decision, or `error:<code>` for an answer without one. */
export async function decide(url: string, key: string, probe: Probe): Promise<string[]> {
  const body = { action: probe.action, ...(probe.domain !== undefined ? { domain: probe.domain } : {}), context: probe.context };
  const got: string[] = [];
  for (let i = 0; i < (probe.repeat ?? 1); i++) {
    const reply = await request(url, "POST", "/api/v1/svc/policies/evaluate", key, body);
    const decision = field(reply.body, "decision");
    if (reply.status === 200 && typeof decision === "string") got.push(decision);
    else got.push(`error:${reply.networkError ? "network" : String(field(field(reply.body, "error"), "code") ?? `HTTP ${reply.status}`)}`);
  }
  return got;
}

export interface ProbeResult {
  probe: Probe;
  got: string[];
  right: boolean;
}

export interface RuleResult {
  id: string;
  rule: string;
  outcome: RuleOutcome;
  probes: ProbeResult[];
}

/** One rule end to end: fresh workspace, create + confirm, every probe. */
export async function runRule(server: ServerLike, line: RuleLine, label = line.id): Promise<RuleResult> {
  const key = await freshWorkspace(server, `policy-eval-${label}`);
  const outcome = await createConfirmed(server.url, key, line.id, line.rule, line.domain);
  const probes: ProbeResult[] = [];
  for (const probe of line.probes) {
    const got = await decide(server.url, key, probe);
    probes.push({ probe, got, right: probeRight(probe, got) });
  }
  return { id: line.id, rule: line.rule, outcome, probes };
}

export interface Tally {
  rules: number;
  compiled: number;
  probes: number;
  right: number;
}

export function tally(results: RuleResult[]): Tally {
  return {
    rules: results.length,
    compiled: results.filter((r) => r.outcome.compiled).length,
    probes: results.reduce((n, r) => n + r.probes.length, 0),
    right: results.reduce((n, r) => n + r.probes.filter((p) => p.right).length, 0),
  };
}

export const pct = (n: number, d: number): string => (d === 0 ? "-" : `${((100 * n) / d).toFixed(1)}%`);

export const showProbe = (p: Probe): string =>
  `${p.action}${p.domain !== undefined ? ` [domain ${p.domain}]` : ""} ${JSON.stringify(p.context)}${p.repeat !== undefined ? ` x${p.repeat}` : ""}`;
