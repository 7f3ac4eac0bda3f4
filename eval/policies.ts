// `npm run eval:policies`: the policy development sample (../shared/eval/policies-sample.jsonl, 50 rules
// written outside the team). Starts the real service in this process on a throw-away embedded database; for
// each rule makes a fresh workspace and key, creates the policy {name: id, rule, domain?}, confirms it and
// sends each probe to POST /policies/evaluate. Prints rules compiled/refused, probes right per rule, the
// overall probe accuracy against the issue's measure (>= 95%), then every wrong probe with the policy's
// restatement; writes the same as JSON to eval/last-policies-run.json.
//
//   POLICIES_FILE=path     another file of the same format
//   POLICIES_AGGREGATE_ONLY=1   only the aggregate lines (for a held-out file)
//   POLICIES_ONLY=p01,p29  only these rules
//
// A refused rule leaves its workspace without a policy: its probes are still sent and scored (a probe that
// expects `approved` then passes), so "probes right" and "rules compiled" are both reported.
// Exit code 0 whatever the scores; 1 only when the harness itself fails.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseRuleLine, pct, runRule, showProbe, tally, type RuleLine, type RuleResult } from "./policy-probes.ts";
import { startEvalServer } from "./server.ts";
import { HarnessError } from "./sets.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const REPORT_FILE = path.join(here, "last-policies-run.json");
const TARGET = 0.95;

export function loadRuleLines(file: string): RuleLine[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new HarnessError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const lines: RuleLine[] = [];
  for (const [i, raw] of text.split("\n").entries()) {
    if (!raw.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      throw new HarnessError(`${path.basename(file)} line ${i + 1}: not JSON (${(error as Error).message})`);
    }
    lines.push(parseRuleLine(parsed, `${path.basename(file)} line ${i + 1}`));
  }
  const ids = new Set<string>();
  for (const l of lines) {
    if (ids.has(l.id)) throw new HarnessError(`${path.basename(file)}: duplicate id ${l.id}`);
    ids.add(l.id);
  }
  return lines;
}

async function main(): Promise<void> {
  const file = path.resolve(process.env.POLICIES_FILE ?? path.join(here, "../../shared/eval/policies-sample.jsonl"));
  const only = process.env.POLICIES_ONLY?.split(",").map((s) => s.trim()).filter(Boolean);
  let lines = loadRuleLines(file);
  if (only && only.length > 0) {
    const unknown = only.filter((id) => !lines.some((l) => l.id === id));
    if (unknown.length > 0) throw new HarnessError(`POLICIES_ONLY names rules not in the file: ${unknown.join(", ")}`);
    lines = lines.filter((l) => only.includes(l.id));
  }

  const startedAt = new Date();
  console.log(`# Policy sample ${startedAt.toISOString()}: ${path.relative(process.cwd(), file)} (${lines.length} rules)`);
  const server = await startEvalServer();
  const results: RuleResult[] = [];
  try {
    for (const line of lines) results.push(await runRule(server, line));
  } finally {
    await server.close();
  }

  // A held-out file is read as its aggregate lines only: its sentences and wrong probes are not printed.
  const aggregateOnly = ["1", "true", "yes"].includes((process.env.POLICIES_AGGREGATE_ONLY ?? "").toLowerCase());
  if (!aggregateOnly) console.log("\nrule  compiled  probes right  rule text / refusal");
  for (const r of aggregateOnly ? [] : results) {
    const right = r.probes.filter((p) => p.right).length;
    const mark = r.outcome.compiled ? "yes" : "REFUSED";
    console.log(`${r.id.padEnd(5)} ${mark.padEnd(9)} ${`${right}/${r.probes.length}`.padEnd(13)} ${r.rule}`);
    if (!r.outcome.compiled) console.log(`${" ".repeat(30)}refused: ${r.outcome.refusal}`);
  }

  const t = tally(results);
  const compiledResults = results.filter((r) => r.outcome.compiled);
  const c = tally(compiledResults);
  const wrong = results.flatMap((r) => r.probes.filter((p) => !p.right).map((p) => ({ rule: r, probe: p })));
  console.log(`\nrules compiled: ${t.compiled}/${t.rules} (${pct(t.compiled, t.rules)}); refused: ${t.rules - t.compiled}`);
  console.log(`probes right on compiled rules: ${c.right}/${c.probes} (${pct(c.right, c.probes)})`);
  console.log(`probes right: ${t.right}/${t.probes} (${pct(t.right, t.probes)})  [measure: >= ${TARGET * 100}% of probes right: ${t.probes > 0 && t.right / t.probes >= TARGET ? "MET" : "NOT MET"}]`);

  // A compiled rule that should have fired on some probe and gave none of them its effect: it never fires.
  const neverFire = compiledResults.filter((r) => r.probes.some((p) => (p.probe.expect ?? "approved") !== "approved" || (p.probe.expect_last ?? "approved") !== "approved") && r.probes.every((p) => p.got.every((g) => g === "approved")));
  console.log(`compiled rules that never fire on their probes: ${neverFire.length}`);
  // Which way the wrong probes went, an aggregate that says whether rules miss (a forbidden action let
  // through) or over-reach (an allowed one stopped), without naming a rule.
  const ways = new Map<string, number>();
  for (const { rule, probe } of wrong) {
    const way = `${probe.probe.expect_last ?? probe.probe.expect} → ${probe.got.at(-1) ?? "-"}${rule.outcome.compiled ? "" : " (refused)"}`;
    ways.set(way, (ways.get(way) ?? 0) + 1);
  }
  console.log(`wrong probes by way: ${[...ways].sort((a, b) => b[1] - a[1]).map(([w, n]) => `${w} ${n}`).join(", ") || "none"}`);

  if (!aggregateOnly) console.log(wrong.length === 0 ? "\nwrong probes: none" : `\nwrong probes (${wrong.length}):`);
  for (const { rule, probe } of aggregateOnly ? [] : wrong) {
    const expected = probe.probe.repeat ? `${probe.probe.expect ?? "any"} x${probe.probe.repeat - 1}, then ${probe.probe.expect_last ?? probe.probe.expect}` : probe.probe.expect;
    console.log(`  ${rule.id} "${rule.rule}"`);
    console.log(`      ${showProbe(probe.probe)}: expected ${expected}, got ${probe.got.join(", ")}`);
    console.log(`      ${rule.outcome.compiled ? `restatement: ${rule.outcome.restatement ?? "-"}` : `refused: ${rule.outcome.refusal}`}`);
  }

  const finishedAt = new Date();
  writeFileSync(
    REPORT_FILE,
    `${JSON.stringify(
      {
        started_at: startedAt.toISOString(),
        finished_at: finishedAt.toISOString(),
        duration_ms: finishedAt.getTime() - startedAt.getTime(),
        file: path.relative(process.cwd(), file),
        summary: { ...t, compiled_probes: c.probes, compiled_probes_right: c.right, accuracy: t.probes ? t.right / t.probes : null, target: TARGET },
        rules: results,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nresults: ${path.relative(process.cwd(), REPORT_FILE)} (${((finishedAt.getTime() - startedAt.getTime()) / 1000).toFixed(1)} s)`);
}

// Run only as a script (the scoring test imports loadRuleLines).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof HarnessError) console.error(`eval:policies: ${error.message}`);
      else console.error("eval:policies: the harness failed:", error);
      process.exit(1);
    },
  );
}
