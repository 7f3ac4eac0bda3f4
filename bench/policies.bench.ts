// Policy evaluation: one action against 100 active policies, per decision, as the chokepoint runs it
// (prepare the action: words stemmed, arguments flattened; then decide). Baseline of the same run: the same
// 100 rules hand-written as plain JavaScript predicates over the action. Target: p99 <= 50 µs and within
// 5× of the hand-written predicates.
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

// Each template: the sentence and its hand-written twin (missing values count as a match, as in the engine).
const TEMPLATES: ((noun: string, i: number) => [string, Effect, Predicate])[] = [
  (noun, i) => [`Block ${noun}s over $${100 * (i + 1)}`, "block", (a) => a.tool.includes(noun) && (typeof a.args.amount !== "number" || a.args.amount > 100 * (i + 1))],
  (noun) => [`Require approval for ${noun}s in production`, "require_approval", (a) => a.tool.includes(noun) && (a.args.environment === undefined || a.args.environment === "production")],
  (noun) => [`Block ${noun}s to recipients outside acme.com`, "block", (a) => a.tool.includes(noun) && (typeof a.args.to !== "string" || !a.args.to.endsWith("@acme.com"))],
  (noun) => [
    `Only allow ${noun}s on weekdays between 09:00 and 17:00`,
    "block",
    (a) => {
      if (!a.tool.includes(noun)) return false;
      const day = a.now.getUTCDay();
      const minutes = a.now.getUTCHours() * 60 + a.now.getUTCMinutes();
      return !(day >= 1 && day <= 5 && minutes >= 540 && minutes < 1020);
    },
  ],
  (noun) => [`Block ${noun}s when battery is below 20%`, "block", (a) => a.tool.includes(noun) && (typeof a.args.battery !== "number" || a.args.battery < 20)],
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
  for (let i = 0; i < 100; i++) {
    const noun = NOUNS[(i * 7) % NOUNS.length]!;
    const [sentence, effect, test] = TEMPLATES[i % TEMPLATES.length]!(noun, i);
    const parsed = parseRule(sentence);
    if (!parsed.ok) throw new Error(`bench rule does not parse: ${sentence}: ${parsed.error.message}`);
    if (parsed.rule.effect !== effect) throw new Error(`bench rule effect differs: ${sentence}`);
    refs.push({ policyId: `pol_${i}`, policyName: sentence, version: 1, priority: 0, index: 0, rule: parsed.rule });
    hand.push({ effect, test, id: `pol_${i}` });
  }
  const set = new RuleSet(refs);
  // The hand-written twin: the same precedence (block before approval), first match decides.
  const ordered = [...hand.filter((h) => h.effect === "block"), ...hand.filter((h) => h.effect === "require_approval")];
  const handDecide = (a: Action) => {
    for (const h of ordered) if (h.test(a)) return h.effect === "block" ? "blocked" : "conditional";
    return "approved";
  };
  const engineDecide = (a: Action) => set.decide(prepareAction({ tool: a.tool, args: a.args, now: a.now })).decision;

  const actions: Action[] = [];
  for (let i = 0; i < 500; i++) {
    const noun = i % 5 === 0 ? "weather" : NOUNS[(i * 11) % NOUNS.length]!;
    const args: Record<string, unknown> = { amount: (i * 37) % 3000, environment: i % 3 === 0 ? "production" : "staging", to: i % 4 === 0 ? "ops@acme.com" : "x@example.org", battery: (i * 13) % 100, note: "routine" };
    actions.push({ tool: `${VERBS[i % VERBS.length]}_${noun}`, args, now: new Date(Date.UTC(2026, 10, 16 + (i % 7), i % 24, 30)) });
  }
  // Both must agree on every action, or the comparison means nothing.
  let disagreements = 0;
  for (const a of actions) if (engineDecide(a) !== handDecide(a)) disagreements++;
  if (disagreements > 0) throw new Error(`engine and hand-written predicates disagree on ${disagreements} of ${actions.length} actions`);

  const samples = Math.max(50_000, Math.round(duration * 40_000));
  const engine: { p50: number; p99: number; mean: number }[] = [];
  const baseline: { p50: number; p99: number; mean: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    baseline.push(measure(samples, actions, handDecide));
    engine.push(measure(samples, actions, engineDecide));
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const e = { p50: median(engine.map((x) => x.p50)), p99: median(engine.map((x) => x.p99)), mean: median(engine.map((x) => x.mean)) };
  const b = { p50: median(baseline.map((x) => x.p50)), p99: median(baseline.map((x) => x.p99)), mean: median(baseline.map((x) => x.mean)) };
  const us = (n: number) => `${n.toFixed(2)} µs`;
  const ratio = e.p99 / b.p99;
  const met = e.p99 <= 50 && ratio <= 5;
  return [
    `## policies: one action against 100 active policies (${samples} decisions × ${rounds} rounds, median of rounds; ${actions.length} actions, engine and predicates agree on all)`,
    `| path | p50 | p99 | mean |`,
    `|---|---|---|---|`,
    `| baseline: hand-written JS predicates | ${us(b.p50)} | ${us(b.p99)} | ${us(b.mean)} |`,
    `| policy engine (prepare + decide) | ${us(e.p50)} | ${us(e.p99)} | ${us(e.mean)} |`,
    `p99 ratio engine/baseline: ${ratio.toFixed(2)}×. Target p99 <= 50 µs and <= 5× baseline: ${met ? "met" : "NOT met"}.`,
  ].join("\n");
}
