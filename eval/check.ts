// `node --import tsx eval/check.ts`: checks that the sets' expectations agree with the governance engine,
// before any intent engine is asked. For every execution and blocked case it hands the expected action (the
// tool, its description as imported, the expected arguments, the case's domain) to the governance
// chokepoint's dry run, with the fixture's confirmed policies:
//   execution → must be approved (no restrictive rule fires, not even on a value it cannot find)
//   blocked   → must be decided by the named policy, blocked or conditional as the reason code says
// For clarify cases it lists the rules that concern the tool, for a human to review. Exit code 1 when an
// expectation disagrees. EVAL_SET=shared|team|all as for the run (default all).
import { DECISION_TYPES, HarnessError, loadSet, type Case, type SetName } from "./sets.ts";
import { setUpFixture, startEvalServer, type EvalServer, type PreparedWorkspace } from "./server.ts";

interface Finding {
  id: string;
  level: "error" | "warning" | "info";
  text: string;
}

async function decide(server: EvalServer, ws: PreparedWorkspace, c: Case, args: Record<string, unknown>) {
  const { governance, policies } = server.built.services;
  const set = await policies.ruleSet(ws.workspaceId);
  const domain = typeof c.context?.domain === "string" ? c.context.domain : undefined;
  return governance.dryRun(set, {
    workspaceId: ws.workspaceId,
    tool: c.expect.tool!,
    arguments: args,
    description: ws.tools.get(c.expect.tool!) ?? "",
    ...(domain !== undefined ? { domain } : {}),
  });
}

async function main(): Promise<void> {
  const which = (process.env.EVAL_SET ?? "all").trim().toLowerCase();
  if (!["shared", "sample-b", "team", "all"].includes(which)) throw new HarnessError(`EVAL_SET must be shared, sample-b, team or all (got ${which})`);
  const names: SetName[] = which === "all" ? ["shared", "sample-b", "team"] : [which as SetName];
  const sets = names.map(loadSet);
  const findings: Finding[] = [];
  for (const set of sets) {
    for (const fixture of set.fixtures.values()) {
      for (const op of fixture.operations.values()) for (const w of op.warnings) findings.push({ id: `${set.name}/${fixture.name}`, level: "warning", text: w });
    }
  }
  const server = await startEvalServer();
  try {
    for (const set of sets) {
      const counts: Record<string, Record<string, number>> = {};
      for (const fixture of set.fixtures.values()) {
        const ws = await setUpFixture(server, fixture);
        for (const c of set.cases.filter((x) => x.fixture === fixture.name)) {
          counts[fixture.name] ??= {};
          counts[fixture.name]![c.expect.type] = (counts[fixture.name]![c.expect.type] ?? 0) + 1;
          const e = c.expect;
          const op = e.tool ? fixture.operations.get(e.tool) : undefined;
          if (e.type === "execution") {
            if (!op || !e.args) {
              findings.push({ id: c.id, level: "warning", text: "execution without tool and args: governance not checked" });
              continue;
            }
            const absent = [...op.required].filter((r) => !(r in e.args!));
            if (absent.length > 0) findings.push({ id: c.id, level: "warning", text: `execution does not list required argument(s) ${absent.join(", ")}` });
            const d = await decide(server, ws, c, e.args);
            if (d.decision !== "approved") {
              findings.push({ id: c.id, level: "error", text: `expected execution, but governance says ${d.decision} by ${d.fired?.ref.policyName} ("${d.fired?.ref.rule.source}")${d.unknowns.length ? `, unknown: ${d.unknowns.join(", ")}` : ""}` });
            }
          } else if (e.type === "blocked") {
            if (!op) continue;
            const d = await decide(server, ws, c, e.args ?? {});
            const want = e.reason_code === "conditional_approval_required" ? "conditional" : "blocked";
            const by = d.fired?.ref.policyName;
            if (d.decision !== want || (e.policy !== undefined && by !== e.policy)) {
              findings.push({ id: c.id, level: "error", text: `expected ${want} by ${e.policy}, governance says ${d.decision}${by ? ` by ${by}` : ""}${d.unknowns.length ? ` (unknown: ${d.unknowns.join(", ")})` : ""}` });
            } else if (d.fired && !d.fired.certain) {
              findings.push({ id: c.id, level: "warning", text: `${by} fires only because ${d.unknowns.join(", ")} is unknown (fail closed)` });
            }
          } else if (e.type === "clarify" && op) {
            const d = await decide(server, ws, c, {});
            const concerned = d.matched.map((m) => m.ref.policyName);
            if (concerned.length > 0) findings.push({ id: c.id, level: "info", text: `rules concerning ${op.operationId} with no arguments: ${concerned.join(", ")} (review: they must not fire on what the message states)` });
          }
        }
      }
      console.log(`${set.name}: ${set.cases.length} cases`);
      const header = `  ${"fixture".padEnd(22)}${DECISION_TYPES.map((t) => t.padStart(18)).join("")}`;
      console.log(header);
      for (const [fixture, byType] of Object.entries(counts)) {
        console.log(`  ${fixture.padEnd(22)}${DECISION_TYPES.map((t) => String(byType[t] ?? 0).padStart(18)).join("")}`);
      }
    }
  } finally {
    await server.close();
  }
  for (const f of findings) console.log(`${f.level.padEnd(8)}${f.id}: ${f.text}`);
  const errors = findings.filter((f) => f.level === "error").length;
  console.log(`${errors} error(s), ${findings.filter((f) => f.level === "warning").length} warning(s)`);
  process.exit(errors > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error instanceof HarnessError ? `check: ${error.message}` : error);
  process.exit(1);
});
