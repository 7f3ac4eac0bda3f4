// `npm run eval`: the intent-decision evaluation. Starts the real service in this process on a throw-away
// embedded database, sets up one workspace per fixture over HTTP, sends every case to POST /api/v1/svc/intent
// and scores the one decision that comes back. Prints accuracy per decision type for each set (for the
// team's and the generated set, separately for their tune and holdout parts), then every failed case
// outside the holdout parts, then the SAFETY line; writes the same as JSON to eval/last-run.json.
//
//   EVAL_SET=shared|sample-b|team|generated|fresh|fresh2|fresh3|fresh4|fresh5|fresh6|fresh7|fresh8|fresh9|fresh10|fresh11|fresh12|fresh13|fresh14|all   which sets (default all: shared, sample-b, team)
//            team-tune|team-holdout|generated-tune|generated-holdout   one part of a split set
//   EVAL_ONLY=dev-003,team-017 only these cases
//   EVAL_VERBOSE=1             print each answer
//   EVAL_SHOW_HOLDOUT=1        also list holdout failures and keep holdout answers in the JSON (a final
//                              audit only: holdout parts are read as aggregate numbers, docs/eval.md)
//
// Exit code 0 whatever the scores; 1 only when the harness itself fails (a bad fixture or case, a setup
// request that does not succeed).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DECISION_TYPES, HarnessError, loadSet, type Case, type EvalSet, type SetName, type Split } from "./sets.ts";
import { request, setUpFixture, startEvalServer, type EvalServer, type PreparedWorkspace } from "./server.ts";
import { observe, score, type CaseResult } from "./score.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const REPORT_FILE = path.join(here, "last-run.json");
const INTENT_PATH = "/api/v1/svc/intent";

interface Options {
  sets: SetName[];
  /** Only this part of the split sets. */
  split: Split | undefined;
  only: Set<string> | undefined;
  verbose: boolean;
  showHoldout: boolean;
}

const SET_CHOICES = ["shared", "sample-b", "team", "generated", "all", "team-tune", "team-holdout", "generated-tune", "generated-holdout", "fresh", "fresh-tune", "fresh-holdout", "fresh2", "fresh2-tune", "fresh2-holdout", "fresh3", "fresh3-tune", "fresh3-holdout", "fresh4", "fresh4-tune", "fresh4-holdout", "fresh5", "fresh5-tune", "fresh5-holdout", "fresh6", "fresh6-tune", "fresh6-holdout", "fresh7", "fresh7-tune", "fresh7-holdout", "fresh8", "fresh8-tune", "fresh8-holdout", "fresh9", "fresh9-tune", "fresh9-holdout", "fresh10", "fresh10-tune", "fresh10-holdout", "fresh11", "fresh11-tune", "fresh11-holdout", "fresh12", "fresh12-tune", "fresh12-holdout", "fresh13", "fresh13-tune", "fresh13-holdout", "fresh14", "fresh14-tune", "fresh14-holdout"];

function options(): Options {
  const which = (process.env.EVAL_SET ?? "all").trim().toLowerCase();
  if (!SET_CHOICES.includes(which)) throw new HarnessError(`EVAL_SET must be one of ${SET_CHOICES.join(", ")} (got ${which})`);
  const only = process.env.EVAL_ONLY?.split(",").map((s) => s.trim()).filter(Boolean);
  const [name, split] = which.split(/-(?=tune$|holdout$)/) as [string, Split | undefined];
  const flag = (v: string | undefined) => ["1", "true", "yes"].includes((v ?? "").toLowerCase());
  return {
    sets: name === "all" ? ["shared", "sample-b", "team"] : [name as SetName],
    split,
    only: only && only.length > 0 ? new Set(only) : undefined,
    verbose: flag(process.env.EVAL_VERBOSE),
    showHoldout: flag(process.env.EVAL_SHOW_HOLDOUT),
  };
}

const pct = (n: number, d: number) => (d === 0 ? "     -" : `${((100 * n) / d).toFixed(1).padStart(5)}%`);
const show = (v: unknown) => (v === undefined ? "-" : typeof v === "string" ? v : JSON.stringify(v));

interface Row {
  label: string;
  total: number;
  passed: number;
}

interface SetSummary {
  set: SetName;
  split?: Split;
  cases: number;
  passed: number;
  by_type: Record<string, { total: number; passed: number }>;
  tool_choice: { total: number; passed: number };
  arguments: { total: number; passed: number };
  safety_violations: string[];
}

function summarise(set: SetName, split: Split | undefined, results: CaseResult[]): SetSummary {
  const by_type: SetSummary["by_type"] = {};
  for (const type of DECISION_TYPES) {
    const of = results.filter((r) => r.expected_type === type);
    by_type[type] = { total: of.length, passed: of.filter((r) => r.passed).length };
  }
  const withCheck = (field: string) => results.map((r) => r.checks.find((c) => c.field === field)).filter((c) => c !== undefined);
  const tools = withCheck("tool");
  const args = withCheck("args");
  return {
    set,
    ...(split !== undefined ? { split } : {}),
    cases: results.length,
    passed: results.filter((r) => r.passed).length,
    by_type,
    tool_choice: { total: tools.length, passed: tools.filter((c) => c.ok).length },
    arguments: { total: args.length, passed: args.filter((c) => c.ok).length },
    safety_violations: results.filter((r) => r.expected_type === "blocked" && r.observed.type === "execution").map((r) => r.id),
  };
}

function table(title: string, s: SetSummary): string {
  const rows: Row[] = [
    ...DECISION_TYPES.map((t) => ({ label: t, total: s.by_type[t]!.total, passed: s.by_type[t]!.passed })),
    { label: "overall", total: s.cases, passed: s.passed },
    { label: "tool choice", total: s.tool_choice.total, passed: s.tool_choice.passed },
    { label: "arguments", total: s.arguments.total, passed: s.arguments.passed },
  ];
  const lines = [title, `  ${"".padEnd(18)}${"cases".padStart(6)}${"passed".padStart(8)}${"accuracy".padStart(10)}`];
  for (const [i, r] of rows.entries()) {
    if (i === DECISION_TYPES.length || i === DECISION_TYPES.length + 1) lines.push(`  ${"-".repeat(42)}`);
    lines.push(`  ${r.label.padEnd(18)}${String(r.total).padStart(6)}${String(r.passed).padStart(8)}${pct(r.passed, r.total).padStart(10)}`);
  }
  return lines.join("\n");
}

/**
 * Generated cases name their meaning and surface form in the note (`[generated <meaning id>, <form>]`):
 * accuracy per form and per kind of meaning says which class of writing fails, without reading a case.
 */
function generatedBreakdown(cases: Case[], results: CaseResult[]): string | undefined {
  const tagOf = (c: Case) => /\[generated [^/\]]+\/[^/\]]+\/([a-z]+)-\d+, ([a-z]+)(, typo)?\]/.exec(c.note);
  const byCase = new Map(cases.map((c) => [c.id, c]));
  const rows = new Map<string, Row>();
  const add = (label: string, passed: boolean) => {
    const row = rows.get(label) ?? { label, total: 0, passed: 0 };
    row.total += 1;
    if (passed) row.passed += 1;
    rows.set(label, row);
  };
  for (const r of results) {
    const tag = tagOf(byCase.get(r.id)!);
    if (!tag) continue;
    add(`meaning ${tag[1]}`, r.passed);
    add(`fixture ${r.fixture}`, r.passed);
    add(`form ${tag[2]}`, r.passed);
    if (tag[3]) add("with a typo", r.passed);
  }
  if (rows.size === 0) return undefined;
  const sorted = [...rows.values()].sort((a, b) => a.label.localeCompare(b.label));
  return sorted.map((r) => `  ${r.label.padEnd(30)}${String(r.total).padStart(6)}${String(r.passed).padStart(8)}${pct(r.passed, r.total).padStart(10)}`).join("\n");
}

/** One line: what was expected, what came back, and what differed. */
function failureLine(c: Case, r: CaseResult): string {
  const e = c.expect;
  const o = r.observed;
  const expected = [`${e.type}/${e.status}`, e.tool && `tool=${e.tool}`, e.policy && `policy=${e.policy}`, e.reason_code && `reason=${e.reason_code}`, e.integration && `integration=${e.integration}`]
    .filter(Boolean)
    .join(" ");
  let got: string;
  if (o.error) got = o.error;
  else {
    got = [`${o.type ?? "?"}/${o.status ?? "?"}`, o.tool && `tool=${o.tool}`, o.policy && `policy=${o.policy}`, o.reason_code && `reason=${o.reason_code}`, o.integration && `integration=${o.integration}`]
      .filter(Boolean)
      .join(" ");
  }
  const problems: string[] = [];
  if (!o.error) {
    for (const check of r.checks) {
      if (check.ok || check.field === "type" || check.field === "status") continue;
      if (check.field === "args") problems.push(`args: ${(check.diff ?? []).map((d) => `${d.key} expected ${show(d.expected)} got ${show(d.got)}`).join(", ")}`);
      else problems.push(`${check.field}: expected ${show(check.expected)} got ${show(check.got)}`);
    }
  }
  return `  ${c.id.padEnd(9)} [${c.fixture}] expected ${expected} | got ${got}${problems.length ? ` | ${problems.join("; ")}` : ""}`;
}

async function runCase(server: EvalServer, ws: PreparedWorkspace, c: Case): Promise<CaseResult> {
  const started = performance.now();
  const body = { messages: c.messages, ...(c.context !== undefined ? { context: c.context } : {}) };
  const reply = await request(server.url, "POST", INTENT_PATH, ws.key, body);
  const observed = observe(reply, ws.policyNames);
  const checks = score(c, observed, ws.policyIds);
  return {
    id: c.id,
    set: c.set,
    fixture: c.fixture,
    expected_type: c.expect.type,
    passed: checks.every((x) => x.ok),
    checks,
    observed,
    duration_ms: Math.round(performance.now() - started),
    response: reply.body ?? (reply.text || null),
  };
}

async function main(): Promise<void> {
  const opts = options();
  const sets: EvalSet[] = opts.sets.map(loadSet);
  const selected = new Map<SetName, Case[]>();
  const known = new Map<string, Case>();
  for (const set of sets) {
    for (const c of set.cases) known.set(c.id, c);
    const inSplit = set.cases.filter((c) => opts.split === undefined || c.split === opts.split);
    if (opts.split !== undefined && inSplit.length === 0) throw new HarnessError(`the ${set.name} set is not split`);
    selected.set(set.name, opts.only ? inSplit.filter((c) => opts.only!.has(c.id)) : inSplit);
  }
  if (opts.only) {
    const unknown = [...opts.only].filter((id) => !known.has(id));
    if (unknown.length > 0) throw new HarnessError(`EVAL_ONLY names cases not in the selected sets: ${unknown.join(", ")}`);
    const held = [...opts.only].filter((id) => known.get(id)!.split === "holdout");
    if (held.length > 0 && !opts.showHoldout) throw new HarnessError(`EVAL_ONLY names holdout cases (${held.length}); holdout is measured as a whole, never case by case (EVAL_SHOW_HOLDOUT=1 for a final audit)`);
  }
  const hidden = (c: Case) => c.split === "holdout" && !opts.showHoldout;

  const startedAt = new Date();
  console.log(`# Intent evaluation ${startedAt.toISOString()}`);
  const server = await startEvalServer();
  const results = new Map<SetName, CaseResult[]>();
  try {
    // Only the fixtures some selected case needs; each set's fixtures are its own (same names may differ).
    const workspaces = new Map<string, PreparedWorkspace>();
    for (const set of sets) {
      const needed = new Set(selected.get(set.name)!.map((c) => c.fixture));
      for (const fixture of set.fixtures.values()) {
        if (!needed.has(fixture.name)) continue;
        workspaces.set(`${set.name}/${fixture.name}`, await setUpFixture(server, fixture));
      }
    }
    const fixtureCount = workspaces.size;
    const policyCount = [...workspaces.values()].reduce((n, w) => n + w.policyIds.size, 0);
    console.log(`set up ${fixtureCount} fixture workspace(s) with ${policyCount} confirmed policies on ${server.url}\n`);
    const refused = [...workspaces.entries()].flatMap(([name, w]) => w.refusedPolicies.map((r) => `${name} ${r}`));
    if (refused.length > 0) console.log(`policies the service refused (${refused.length}; the workspaces run without them):\n${refused.map((r) => `  ${r}`).join("\n")}\n`);
    // Fixture-level, so shown for every set: a rule that covers none of its workspace's tools never fires.
    const warned = [...workspaces.entries()].flatMap(([name, w]) => w.policyWarnings.map((r) => `${name} ${r}`));
    if (warned.length > 0) console.log(`policy warnings (${warned.length}):\n${warned.map((r) => `  ${r.slice(0, 300)}`).join("\n")}\n`);

    for (const set of sets) {
      const list: CaseResult[] = [];
      for (const c of selected.get(set.name)!) {
        const result = await runCase(server, workspaces.get(`${set.name}/${c.fixture}`)!, c);
        list.push(result);
        if (opts.verbose && !hidden(c)) {
          console.log(`--- ${c.id} [${c.fixture}] ${result.passed ? "PASS" : "FAIL"} (${result.duration_ms} ms)`);
          console.log(typeof result.response === "string" ? result.response : JSON.stringify(result.response, null, 2));
        }
      }
      results.set(set.name, list);
    }
  } finally {
    await server.close();
  }

  const byId = known;
  const summaries: SetSummary[] = [];
  const titles: Record<SetName, string> = {
    shared: "shared sample (../shared/eval)",
    "sample-b": "sample B (../shared/eval/sample-b)",
    team: "team set (eval/cases.jsonl)",
    generated: "generated set (eval/generated)",
    fresh: "fresh set (eval/fresh, written without reading the engine)",
    fresh2: "second fresh set (eval/fresh2, written without reading the engine)",
    fresh3: "third fresh set (eval/fresh3, written without reading the engine)",
    fresh4: "fourth fresh set (eval/fresh4, written without reading the engine)",
    fresh5: "fifth fresh set (eval/fresh5, written without reading the engine)",
    fresh6: "sixth fresh set (eval/fresh6, written without reading the engine)",
    fresh7: "seventh fresh set (eval/fresh7, written without reading the engine)",
    fresh8: "eighth fresh set (eval/fresh8, written without reading the engine)",
    fresh9: "ninth fresh set (eval/fresh9, written without reading the engine)",
    fresh10: "tenth fresh set (eval/fresh10, written without reading the engine)",
    fresh11: "eleventh fresh set (eval/fresh11, written without reading the engine)",
    fresh12: "twelfth fresh set (eval/fresh12, written without reading the engine)",
    fresh13: "thirteenth fresh set (eval/fresh13, written without reading the engine)",
    fresh14: "fourteenth fresh set (eval/fresh14, written without reading the engine)",
  };
  const headlines: string[] = [];
  for (const set of sets) {
    const list = results.get(set.name)!;
    if (list.length === 0) continue;
    const splits = [...new Set(list.map((r) => byId.get(r.id)!.split))];
    for (const split of splits) {
      const part = list.filter((r) => byId.get(r.id)!.split === split);
      const summary = summarise(set.name, split, part);
      summaries.push(summary);
      const title = split === undefined ? titles[set.name] : `${titles[set.name]}, ${split}${split === "holdout" ? " (aggregate only)" : ""}`;
      console.log(`${table(`${title}: ${part.length} cases`, summary)}\n`);
      const breakdown = generatedBreakdown(selected.get(set.name)!, part);
      if (breakdown) console.log(`${title}, by kind of meaning and surface form:\n${breakdown}\n`);
      const name = split === undefined ? set.name : `${set.name}-${split}`;
      headlines.push(`${name.padEnd(18)} ${String(summary.passed).padStart(4)}/${String(summary.cases).padEnd(4)} ${pct(summary.passed, summary.cases)}   tool ${pct(summary.tool_choice.passed, summary.tool_choice.total)}   args ${pct(summary.arguments.passed, summary.arguments.total)}   safety ${summary.safety_violations.length}`);
    }
  }
  if (headlines.length > 1) console.log(`summary\n${headlines.map((h) => `  ${h}`).join("\n")}\n`);

  const all = [...results.values()].flat();
  const failed = all.filter((r) => !r.passed);
  const shown = failed.filter((r) => !hidden(byId.get(r.id)!));
  // When every request got the same HTTP error, say it once, plainly: the endpoint is not there (yet).
  const errors = new Set(all.map((r) => r.observed.error));
  if (all.length > 0 && errors.size === 1 && !errors.has(undefined)) {
    const only = [...errors][0]!;
    const hint = only.startsWith("HTTP 404") ? ` (POST ${INTENT_PATH} is not served yet)` : "";
    console.log(`every intent request failed the same way: ${only}${hint}\n`);
  }
  console.log(failed.length === 0 ? "failed cases: none" : `failed cases (${failed.length}${shown.length < failed.length ? `; ${failed.length - shown.length} in holdout parts, not listed` : ""}):`);
  for (const r of shown) console.log(failureLine(byId.get(r.id)!, r));
  const violations = summaries.flatMap((s) => s.safety_violations);
  const listed = violations.filter((id) => !hidden(byId.get(id)!));
  console.log(
    `\nSAFETY: ${violations.length} policy-forbidden actions came out as executions${listed.length ? ` (${listed.join(", ")}${listed.length < violations.length ? `, and ${violations.length - listed.length} in holdout` : ""})` : violations.length ? " (all in holdout)" : ""}`,
  );

  const finishedAt = new Date();
  const report = {
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    duration_ms: finishedAt.getTime() - startedAt.getTime(),
    options: { sets: opts.sets, split: opts.split ?? null, only: opts.only ? [...opts.only] : null, show_holdout: opts.showHoldout },
    summaries: summaries.map((s) => ({ ...s, safety_violations: s.split === "holdout" && !opts.showHoldout ? s.safety_violations.length : s.safety_violations })),
    safety: { violations: violations.length, cases: listed },
    // Holdout answers stay out of the file unless asked for: they are not for reading one by one.
    cases: all.filter((r) => !hidden(byId.get(r.id)!)).map((r) => ({ ...r, split: byId.get(r.id)!.split ?? null, note: byId.get(r.id)!.note, expect: byId.get(r.id)!.expect })),
  };
  writeFileSync(REPORT_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`results: ${path.relative(process.cwd(), REPORT_FILE)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof HarnessError) console.error(`eval: ${error.message}`);
    else console.error("eval: the harness failed:", error);
    process.exit(1);
  },
);
