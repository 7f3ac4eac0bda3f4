// Learning and healing on the embedded database, through the services (the code behind GET /learning/* and
// POST /healing/diagnose), over one workspace holding 5,000 intelligence records of the last 30 days
// (unanswered questions in 20 groups of three near-identical wordings, missing integrations, policy blocks,
// answered questions), 2,000 finished executions and 4,000 tool.invoke audit entries.
// Baselines of the same run: one page of GET /intelligence (listIntents, 50 newest records: the cheapest
// read of the same table) for learning, and the runner's pure `diagnose` for healing's diagnose (which adds
// reading the message and matching precedents in the database).
// Target: suggestions p50 <= 50 ms over 5,000 records; diagnose p50 <= 2 ms.
import { sql } from "drizzle-orm";
import { systemClock } from "../src/clock.ts";
import { openDb } from "../src/db/index.ts";
import { auditEntries, executions, healingPrecedents, intents, policies } from "../src/db/schema.ts";
import { randomIds } from "../src/ids.ts";
import { diagnose, failureOfReport } from "../src/modules/executions/diagnosis.ts";
import { createHealingService } from "../src/modules/healing/service.ts";
import { listIntents } from "../src/modules/intent/store.ts";
import { createLearningService } from "../src/modules/learning/service.ts";
import { createWorkspaceService } from "../src/modules/workspaces/service.ts";

const RECORDS = 5_000;
const EXECUTIONS = 2_000;
const AUDITS = 4_000;
const SUBJECTS = ["interchange fee", "warehouse address", "payroll cutoff", "vendor contract", "SLA credit", "VAT rate", "holiday schedule", "escalation matrix", "backup window", "onboarding laptop"];
const PLACES = ["Amex", "Berlin", "the EU", "enterprise accounts", "Q3"];
const WORDINGS = [(s: string, p: string) => `What is the ${s} for ${p}?`, (s: string, p: string) => `what's our ${s} for ${p}`, (s: string, p: string) => `Tell me the ${s} for ${p} please`];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function time(samples: number, run: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 5; i++) await run(i);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

const ms = (n: number) => n.toFixed(2);
const trace = (i: number) => i.toString(16).padStart(32, "0");

export async function learningBench(duration: number, rounds: number): Promise<string> {
  const database = await openDb({ databaseUrl: undefined, dataDir: ":memory:" });
  const samples = Math.max(20, Math.round(duration * 20 * rounds));
  try {
    const db = database.db;
    const workspace = await createWorkspaceService({ database, ids: randomIds, clock: systemClock }).create("bench");
    const ws = workspace.id;
    const now = Date.now();
    const at = (i: number) => new Date(now - (i % (29 * 24)) * 3_600_000);
    await db.insert(policies).values({ id: "pol_bench", workspaceId: ws, name: "no big refunds", status: "active", activeVersion: 1, latestVersion: 1 });
    const rows: (typeof intents.$inferInsert)[] = [];
    for (let i = 0; i < RECORDS; i++) {
      const kind = i % 10;
      const question = WORDINGS[i % 3]!(SUBJECTS[i % 10]!, PLACES[Math.floor(i / 10) % 5]!);
      const gaps =
        kind < 4
          ? [{ kind: "no_knowledge", reason: "No memory item answers the question.", blocking: false, severity: "medium" }]
          : kind === 4
            ? [{ kind: "missing_capability", capability: ["slack", "jira", "github"][i % 3], reason: "needs it", blocking: true, severity: "blocking" }]
            : [];
      rows.push({
        id: `int_${i}`,
        workspaceId: ws,
        traceId: trace(i),
        type: kind === 4 ? "connect_required" : kind === 5 ? "blocked" : "direct",
        status: "answered",
        decision: kind === 5 ? "blocked" : "none",
        confidence: 1,
        gaps: gaps.length,
        durationMs: 1,
        request: { messages: [{ role: "user", content: question }] },
        response: { ...(kind === 5 ? { policy_id: "pol_bench" } : {}), message: { content: "…" }, intelligence: { humility: { gaps_detected: gaps.length, gaps } } },
        createdAt: at(i),
      });
    }
    for (let i = 0; i < rows.length; i += 500) await db.insert(intents).values(rows.slice(i, i + 500));
    const runs: (typeof executions.$inferInsert)[] = [];
    for (let i = 0; i < EXECUTIONS; i++) {
      const ok = i % 7 !== 0;
      runs.push({
        id: `exe_${i}`,
        workspaceId: ws,
        intentId: `int_${i}`,
        status: ok ? "completed" : "failed",
        steps: [{ tool: ["refund_order", "get_order", "shop_status"][i % 3], arguments: { order_id: `A-${i % 40}` }, status: ok ? "succeeded" : "failed", attempts: 1 }],
        error: ok ? null : "shop_status failed after 3 attempts: HTTP 503",
        diagnosis: ok ? null : { error_category: "external" },
        createdAt: at(i),
        startedAt: at(i),
        finishedAt: at(i),
      });
    }
    for (let i = 0; i < runs.length; i += 500) await db.insert(executions).values(runs.slice(i, i + 500));
    // Audit rows written directly (their hash chain is not what is measured).
    const audits: (typeof auditEntries.$inferInsert)[] = [];
    for (let i = 0; i < AUDITS; i++) {
      const blocked = i % 20 === 0;
      audits.push({
        id: `aud_${i}`,
        workspaceId: ws,
        seq: i + 1,
        actorType: "key",
        action: "tool.invoke",
        resourceType: "tool",
        resourceId: ["refund_order", "get_order", "shop_status"][i % 3]!,
        traceId: trace(100_000 + i),
        details: blocked ? { decision: "blocked", policy_id: "pol_bench", argument_names: ["order_id"] } : { decision: "approved", status: i % 9 === 0 ? "failed" : "succeeded", argument_names: ["order_id"] },
        createdAt: at(i),
        prevHash: "0",
        hash: "0",
      });
    }
    for (let i = 0; i < audits.length; i += 500) await db.insert(auditEntries).values(audits.slice(i, i + 500));
    for (let i = 0; i < 200; i++) {
      await db.insert(healingPrecedents).values({
        id: `hp_${i}`,
        workspaceId: ws,
        sourceKey: `bench:${i}`,
        source: "execution",
        toolName: ["refund_order", "get_order", "shop_status"][i % 3],
        errorCategory: ["external", "timeout", "rate_limit", "auth"][i % 4]!,
        errorType: "upstream_error",
        rootCause: "…",
        recoveryStrategy: i % 2 ? "retry" : "reconfigure",
        whatFailed: "HTTP 503",
        success: i % 3 !== 0,
        attempts: 2,
        confidence: 0.9,
      });
    }
    await db.execute(sql`analyze`);

    const learning = createLearningService({ db, clock: systemClock });
    const healing = createHealingService({ db, ids: randomIds, clock: systemClock, baseDelayMs: 200 });
    const page = { limit: 50, offset: 0 };
    const suggested = await learning.suggestions(ws, page);
    const baseline = await time(samples, () => listIntents(db, ws, { limit: 50, offset: 0 }));
    const suggestions = await time(samples, () => learning.suggestions(ws, page));
    const patterns = await time(samples, () => learning.patterns(ws, page));
    const episodes = await time(samples, () => learning.episodes(ws, page));
    const messages = ["HTTP 503 Service Unavailable", "The call timed out after 30000 ms", "HTTP 429 Too Many Requests", "HTTP 401 Unauthorized", "The arguments of refund_order are not valid: amount must be number."];
    const pure = await time(samples * 10, async (i) => diagnose(failureOfReport({ errorMessage: messages[i % 5]! }), { tool: "shop_status", step: 0, attempts: 1, baseDelayMs: 200 }));
    const diagnosed = await time(samples * 5, (i) => healing.diagnose(ws, { error_message: messages[i % 5], tool_name: "shop_status" }));
    const counts = suggested.items.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s.type]: (acc[s.type] ?? 0) + 1 }), {});
    return [
      `## learning (embedded database; ${RECORDS} records, ${EXECUTIONS} executions, ${AUDITS} audit entries, 200 precedents in one workspace; ${samples} samples)`,
      `suggestions found: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(", ")}`,
      `| what | p50 ms | p99 ms |`,
      `|---|---|---|`,
      `| baseline: GET /intelligence page (50 newest records) | ${ms(baseline.p50)} | ${ms(baseline.p99)} |`,
      `| GET /learning/suggestions | ${ms(suggestions.p50)} | ${ms(suggestions.p99)} |`,
      `| GET /learning/patterns | ${ms(patterns.p50)} | ${ms(patterns.p99)} |`,
      `| GET /learning/episodes (page of 50) | ${ms(episodes.p50)} | ${ms(episodes.p99)} |`,
      `| baseline: the runner's diagnose (pure) | ${ms(pure.p50)} | ${ms(pure.p99)} |`,
      `| POST /healing/diagnose (with precedent matching) | ${ms(diagnosed.p50)} | ${ms(diagnosed.p99)} |`,
    ].join("\n");
  } finally {
    await database.close();
  }
}
