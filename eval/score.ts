// Scoring one intent answer against one case's expectation. Each expectation field is its own check, so a
// report can say what was wrong (the type, the tool, one argument, the policy) and not just "failed".
import type { Case, DecisionType } from "./sets.ts";
import type { Reply } from "./server.ts";

export interface CheckResult {
  field: string;
  ok: boolean;
  expected: unknown;
  got: unknown;
  /** For args: the keys that differ. */
  diff?: { key: string; expected: unknown; got: unknown }[];
}

/** What the answer said, in the fields the expectations name. */
export interface Observed {
  http_status: number;
  /** Why there is no intent answer to read (HTTP error, no JSON), when there is none. */
  error?: string;
  type?: string;
  status?: string;
  tool?: string;
  args?: Record<string, unknown>;
  policy_id?: string;
  policy?: string;
  reason_code?: string;
  integration?: string;
  question_fields?: string[];
  answer?: string;
  gaps_detected?: number;
}

export interface CaseResult {
  id: string;
  set: string;
  fixture: string;
  expected_type: DecisionType;
  passed: boolean;
  checks: CheckResult[];
  observed: Observed;
  duration_ms: number;
  /** The whole answer body (for the JSON report and EVAL_VERBOSE). */
  response: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const get = (value: unknown, ...keys: (string | number)[]): unknown => {
  let v = value;
  for (const k of keys) {
    if (typeof k === "number") v = Array.isArray(v) ? v[k] : undefined;
    else v = isObject(v) ? v[k] : undefined;
  }
  return v;
};
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** JSON equality: same types, same values, objects compared key by key whatever their order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

export function observe(reply: Reply, policyNames: Map<string, string>): Observed {
  if (reply.networkError) return { http_status: 0, error: `no answer: ${reply.networkError}` };
  const body = reply.body;
  if (reply.status !== 200) {
    const code = str(get(body, "error", "code"));
    return { http_status: reply.status, error: `HTTP ${reply.status}${code ? ` ${code}` : ""}` };
  }
  if (!isObject(body)) return { http_status: reply.status, error: "HTTP 200 without a JSON object body" };
  // The planned action: `action` when the answer has one, else the first execution step or the tool the
  // clarification is about.
  const action = get(body, "action");
  const step = get(body, "execution", "steps", 0);
  const tool = str(get(action, "tool")) ?? str(get(step, "tool")) ?? str(get(body, "clarification", "tool"));
  const argsSource = isObject(action) ? get(action, "arguments") : get(step, "arguments");
  const questions = get(body, "clarification", "questions");
  const policyId = str(get(body, "policy_id"));
  const gaps = get(body, "intelligence", "humility", "gaps_detected");
  return {
    http_status: reply.status,
    type: str(body.type),
    status: str(body.status),
    ...(tool !== undefined ? { tool } : {}),
    ...(isObject(argsSource) ? { args: argsSource } : {}),
    ...(policyId !== undefined ? { policy_id: policyId, policy: policyNames.get(policyId) ?? `(unknown id ${policyId})` } : {}),
    ...(str(body.reason_code) !== undefined ? { reason_code: str(body.reason_code) } : {}),
    ...(str(get(body, "integration", "id")) !== undefined ? { integration: str(get(body, "integration", "id")) } : {}),
    ...(Array.isArray(questions) ? { question_fields: questions.map((q) => str(get(q, "field"))).filter((f): f is string => f !== undefined) } : {}),
    ...(str(get(body, "message", "content")) !== undefined ? { answer: str(get(body, "message", "content")) } : {}),
    ...(typeof gaps === "number" ? { gaps_detected: gaps } : {}),
  };
}

export function score(c: Case, observed: Observed, policyIds: Map<string, string>): CheckResult[] {
  const e = c.expect;
  const o = observed;
  const checks: CheckResult[] = [];
  const add = (field: string, ok: boolean, expected: unknown, got: unknown) => checks.push({ field, ok, expected, got });
  add("type", o.type === e.type, e.type, o.type ?? o.error);
  add("status", o.status === e.status, e.status, o.status ?? o.error);
  if (e.tool !== undefined) add("tool", o.tool === e.tool, e.tool, o.tool);
  if (e.args !== undefined) {
    const diff = Object.entries(e.args)
      .filter(([key, value]) => !jsonEqual(value, o.args?.[key]))
      .map(([key, value]) => ({ key, expected: value, got: o.args?.[key] }));
    checks.push({ field: "args", ok: diff.length === 0, expected: e.args, got: o.args, diff });
  }
  if (e.policy !== undefined) add("policy", o.policy_id !== undefined && o.policy_id === policyIds.get(e.policy), e.policy, o.policy ?? o.policy_id);
  if (e.reason_code !== undefined) add("reason_code", o.reason_code === e.reason_code, e.reason_code, o.reason_code);
  if (e.integration !== undefined) add("integration", o.integration === e.integration, e.integration, o.integration);
  if (e.missing !== undefined) {
    const asked = new Set(o.question_fields ?? []);
    add("missing", e.missing.every((m) => asked.has(m)), e.missing, o.question_fields);
  }
  if (e.answer_contains !== undefined) {
    const text = (o.answer ?? "").toLowerCase();
    const absent = e.answer_contains.filter((s) => !text.includes(s));
    add("answer_contains", o.answer !== undefined && absent.length === 0, e.answer_contains, o.answer === undefined ? undefined : absent.length ? `missing ${JSON.stringify(absent)}` : "all present");
  }
  if (e.expect_low_confidence) add("low_confidence", (o.gaps_detected ?? 0) >= 1, "gaps_detected >= 1", o.gaps_detected);
  return checks;
}
