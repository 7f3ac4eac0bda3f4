// Policy evaluation: one action against 100 active policies, per decision, as the chokepoint runs it
// (prepare the action: words as concepts, arguments flattened; then decide). Measured in the same run
// beside the same 100 rules written twice more: as Cedar policies (@cedar-policy/cedar-wasm, the policy set
// preparsed once, one `statefulIsAuthorized` per decision, the request built from the action inside the
// timed call as ours prepares its action) and as hand-written JavaScript predicates (the floor). The three
// must agree on every action of the set, or the comparison is not of equivalent rules.
// Target (issue 13): p99 <= 20 µs for our engine.
import * as cedar from "@cedar-policy/cedar-wasm/nodejs";
import { RuleSet, prepareAction, type RuleRef } from "../src/engine/governance/evaluate.ts";
import { parseRule } from "../src/engine/governance/parse.ts";

const NOUNS = ["refund", "invoice", "email", "deploy", "ticket", "order", "device", "report", "backup", "export", "import", "upload", "message", "contract", "subscription", "coupon", "shipment", "account", "webhook", "secret", "cluster", "dataset", "campaign", "payroll", "license"];
const VERBS = ["create", "send", "delete", "update", "issue", "run"];

interface Action {
  tool: string;
  args: Record<string, unknown>;
  now: Date;
}
type Predicate = (a: Action) => boolean;
type Effect = "block" | "require_approval";

// Each template: the sentence, its hand-written twin and its Cedar twin. Missing values count as a match, as
// in the engine (restrictive rules fail closed): in Cedar that is `!(context has x) || …`, since a Cedar
// policy whose condition errors is skipped. The tool is matched by its name containing the noun (`like`).
// Cedar has no clock: the request carries the action's UTC weekday and minute of day.
//
// The parser reads a plural that is also a verb of a verb class as that operation ("emails", "messages" →
// send), so such a rule governs every tool whose operation is in the class (`send_invoice`), not only tools
// named after the noun. The twins say the same, for the benchmark's verbs (create, send, delete, update,
// issue, run): only the send class meets a noun here.
const READ_AS_OPERATION: Record<string, string> = { email: "send", message: "send" };
const covers = (noun: string, tool: string) => tool.includes(noun) || (READ_AS_OPERATION[noun] !== undefined && tool.startsWith(`${READ_AS_OPERATION[noun]}_`));
const cedarCovers = (noun: string) => (READ_AS_OPERATION[noun] ? `(context.tool like "*${noun}*" || context.tool like "${READ_AS_OPERATION[noun]}_*")` : `context.tool like "*${noun}*"`);

const TEMPLATES: ((noun: string, i: number) => [string, Effect, Predicate, string])[] = [
  (noun, i) => [
    `Block ${noun}s over $${100 * (i + 1)}`,
    "block",
    (a) => covers(noun, a.tool) && (typeof a.args.amount !== "number" || a.args.amount > 100 * (i + 1)),
    `${cedarCovers(noun)} && (!(context has amount) || context.amount > ${100 * (i + 1)})`,
  ],
  (noun) => [
    `Require approval for ${noun}s in production`,
    "require_approval",
    (a) => covers(noun, a.tool) && (a.args.environment === undefined || a.args.environment === "production"),
    `${cedarCovers(noun)} && (!(context has environment) || context.environment == "production")`,
  ],
  (noun) => [
    `Block ${noun}s to recipients outside acme.com`,
    "block",
    (a) => covers(noun, a.tool) && (typeof a.args.to !== "string" || !a.args.to.endsWith("@acme.com")),
    `${cedarCovers(noun)} && (!(context has to) || !(context.to like "*@acme.com"))`,
  ],
  (noun) => [
    `Only allow ${noun}s on weekdays between 09:00 and 17:00`,
    "block",
    (a) => {
      if (!covers(noun, a.tool)) return false;
      const day = a.now.getUTCDay();
      const minutes = a.now.getUTCHours() * 60 + a.now.getUTCMinutes();
      return !(day >= 1 && day <= 5 && minutes >= 540 && minutes < 1020);
    },
    `${cedarCovers(noun)} && !(context.weekday >= 1 && context.weekday <= 5 && context.minute >= 540 && context.minute < 1020)`,
  ],
  (noun) => [
    `Block ${noun}s when battery is below 20%`,
    "block",
    (a) => covers(noun, a.tool) && (typeof a.args.battery !== "number" || a.args.battery < 20),
    `${cedarCovers(noun)} && (!(context has battery) || context.battery < 20)`,
  ],
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function measure(samples: number, actions: Action[], decide: (a: Action) => unknown): { p50: number; p99: number; mean: number } {
  for (let i = 0; i < 20_000; i++) decide(actions[i % actions.length]!);
  const times = new Float64Array(samples);
  let sink = 0;
  for (let i = 0; i < samples; i++) {
    const a = actions[i % actions.length]!;
    const t0 = process.hrtime.bigint();
    const r = decide(a);
    times[i] = Number(process.hrtime.bigint() - t0) / 1000;
    if (r) sink++;
  }
  if (sink < 0) console.log(sink);
  const sorted = Array.from(times).sort((x, y) => x - y);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean: sorted.reduce((x, y) => x + y, 0) / sorted.length };
}

export async function policiesBench(duration: number, rounds: number): Promise<string> {
  const refs: RuleRef[] = [];
  const hand: { effect: Effect; test: Predicate; id: string }[] = [];
  const cedarPolicies: Record<string, string> = {};
  const cedarEffect = new Map<string, Effect>();
  for (let i = 0; i < 100; i++) {
    // 100 distinct rules: each noun under four of the five templates.
    const noun = NOUNS[i % NOUNS.length]!;
    const [sentence, effect, test, when] = TEMPLATES[(i + Math.floor(i / NOUNS.length)) % TEMPLATES.length]!(noun, i);
    cedarPolicies[`pol_${i}`] = `forbid (principal, action, resource) when { ${when} };`;
    cedarEffect.set(`pol_${i}`, effect);
    const parsed = parseRule(sentence);
    if (!parsed.ok) throw new Error(`bench rule does not parse: ${sentence}: ${parsed.error.message}`);
    if (parsed.rule.effect !== effect) throw new Error(`bench rule effect differs: ${sentence}`);
    refs.push({ policyId: `pol_${i}`, policyName: sentence, version: 1, priority: 0, index: 0, rule: parsed.rule });
    hand.push({ effect, test, id: `pol_${i}` });
  }
  const set = new RuleSet(refs);
  // The hand-written twin: the same precedence (block before approval), first match decides.
  const ordered = [...hand.filter((h) => h.effect === "block"), ...hand.filter((h) => h.effect === "require_approval")];
  const handDecide = (a: Action): "approved" | "conditional" | "blocked" => {
    for (const h of ordered) if (h.test(a)) return h.effect === "block" ? "blocked" : "conditional";
    return "approved";
  };
  const engineDecide = (a: Action) => set.decide(prepareAction({ tool: a.tool, args: a.args, now: a.now })).decision;

  // Cedar: forbid policies under one permit-all; the forbids that fired are the decision's reasons, and
  // block outranks approval as in our precedence. The set is parsed once, as RuleSet compiles once.
  cedarPolicies.permit_all = "permit (principal, action, resource);";
  const loaded = cedar.preparsePolicySet("bench_policies", { staticPolicies: cedarPolicies });
  if (loaded.type !== "success") throw new Error(`Cedar policies do not parse: ${JSON.stringify(loaded.errors)}`);
  let cedarErrors = 0;
  const cedarDecide = (a: Action) => {
    const answer = cedar.statefulIsAuthorized({
      principal: { type: "Agent", id: "bench" },
      action: { type: "Action", id: "call_tool" },
      resource: { type: "Tool", id: a.tool },
      context: { tool: a.tool, ...(a.args as Record<string, string | number>), weekday: a.now.getUTCDay(), minute: a.now.getUTCHours() * 60 + a.now.getUTCMinutes() },
      preparsedPolicySetId: "bench_policies",
      entities: [],
    });
    if (answer.type !== "success") throw new Error(`Cedar failed: ${JSON.stringify(answer.errors)}`);
    cedarErrors += answer.response.diagnostics.errors.length;
    let decision: "approved" | "conditional" | "blocked" = "approved";
    for (const id of answer.response.diagnostics.reason) {
      const effect = cedarEffect.get(id);
      if (effect === "block") return "blocked";
      if (effect === "require_approval") decision = "conditional";
    }
    return decision;
  };

  // Every attribute drawn independently (a seeded generator), so that each verb meets each environment,
  // recipient, amount and hour: strides of one counter would pair them and leave readings untested.
  let seed = 13;
  const pick = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const actions: Action[] = [];
  for (let i = 0; i < 500; i++) {
    const noun = pick(5) === 0 ? "weather" : NOUNS[pick(NOUNS.length)]!;
    const args: Record<string, unknown> = { amount: pick(3000), environment: pick(3) === 0 ? "production" : "staging", to: pick(4) === 0 ? "ops@acme.com" : "x@example.org", battery: pick(100), note: "routine" };
    actions.push({ tool: `${VERBS[pick(VERBS.length)]}_${noun}`, args, now: new Date(Date.UTC(2026, 10, 16 + pick(7), pick(24), 30)) });
  }
  // All three must agree on every action, or the comparison means nothing.
  const disagreements: string[] = [];
  const tally = { approved: 0, conditional: 0, blocked: 0 };
  for (const a of actions) {
    const [ours, js, ced] = [engineDecide(a), handDecide(a), cedarDecide(a)];
    tally[js]++;
    if (ours !== js || ced !== js) disagreements.push(`${a.tool} ${JSON.stringify(a.args)} ${a.now.toISOString()}: ours ${ours}, js ${js}, cedar ${ced}`);
  }
  if (cedarErrors > 0) throw new Error(`Cedar policies errored ${cedarErrors} times on the action set`);
  if (disagreements.length > 0) throw new Error(`engines disagree on ${disagreements.length} of ${actions.length} actions:\n${disagreements.slice(0, 40).join("\n")}`);

  const samples = Math.max(50_000, Math.round(duration * 40_000));
  const engine: { p50: number; p99: number; mean: number }[] = [];
  const baseline: { p50: number; p99: number; mean: number }[] = [];
  const cedarRuns: { p50: number; p99: number; mean: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    baseline.push(measure(samples, actions, handDecide));
    engine.push(measure(samples, actions, engineDecide));
    cedarRuns.push(measure(samples, actions, cedarDecide));
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const e = { p50: median(engine.map((x) => x.p50)), p99: median(engine.map((x) => x.p99)), mean: median(engine.map((x) => x.mean)) };
  const b = { p50: median(baseline.map((x) => x.p50)), p99: median(baseline.map((x) => x.p99)), mean: median(baseline.map((x) => x.mean)) };
  const c = { p50: median(cedarRuns.map((x) => x.p50)), p99: median(cedarRuns.map((x) => x.p99)), mean: median(cedarRuns.map((x) => x.mean)) };
  const us = (n: number) => `${n.toFixed(2)} µs`;
  return [
    `## policies: one action against 100 active policies (${samples} decisions × ${rounds} rounds, median of rounds; ${actions.length} actions: ${tally.approved} approved, ${tally.conditional} conditional, ${tally.blocked} blocked; ours, Cedar and JS agree on all ${actions.length})`,
    `| path | p50 | p99 | mean |`,
    `|---|---|---|---|`,
    `| policy engine (prepare + decide) | ${us(e.p50)} | ${us(e.p99)} | ${us(e.mean)} |`,
    `| Cedar ${cedar.getCedarVersion()} (cedar-wasm, preparsed set, statefulIsAuthorized) | ${us(c.p50)} | ${us(c.p99)} | ${us(c.mean)} |`,
    `| floor: hand-written JS predicates | ${us(b.p50)} | ${us(b.p99)} | ${us(b.mean)} |`,
    `p99 ours/Cedar: ${(e.p99 / c.p99).toFixed(2)}×, ours/JS: ${(e.p99 / b.p99).toFixed(2)}×. Target p99 <= 20 µs (issue 13): ${e.p99 <= 20 ? "met" : "NOT met"}.`,
  ].join("\n");
}
