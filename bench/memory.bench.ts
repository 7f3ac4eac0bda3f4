// Memory search over 10,000 items in one workspace on the embedded database, through the service (the
// code behind GET /memory/search). Baselines of the same run: reading one item by id (the floor of any
// query) and the same words as an unindexed ILIKE scan (what search would cost without its indexes).
// Target: search p50 <= 5 ms and p99 <= 20 ms.
import { sql } from "drizzle-orm";
import { systemClock } from "../src/clock.ts";
import { openDb } from "../src/db/index.ts";
import { memoryItems } from "../src/db/schema.ts";
import { createAuditLog } from "../src/events/audit.ts";
import { randomIds } from "../src/ids.ts";
import { createMemoryService } from "../src/modules/memory/service.ts";
import { addTerms } from "../src/modules/memory/store.ts";
import { createWorkspaceService } from "../src/modules/workspaces/service.ts";

const ITEMS = 10_000;
const SUBJECTS = ["refund", "invoice", "deployment", "incident", "customer", "warehouse", "payroll", "contract", "ticket", "release", "backup", "meeting", "shipment", "subscription", "laptop", "vendor", "budget", "onboarding", "password reset", "database"];
const VERBS = ["needs approval from", "is handled by", "must be logged in", "is reviewed every week by", "escalates to", "is paid through", "is scheduled with", "is archived by", "is blocked without", "is owned by"];
const OWNERS = ["the finance team", "the on-call engineer", "customer success", "the legal department", "the EU region", "the platform group", "Dana from operations", "the security office", "the APAC desk", "procurement"];
const QUALIFIERS = ["above 500 EUR", "on weekdays only", "for enterprise accounts", "within 30 days", "in production", "before the quarter closes", "for new hires", "outside business hours", "for orders over 1,000 units", "when the SLA is breached"];
const pick = <T>(list: T[], i: number, salt: number): T => list[(i * 7919 + salt * 104729) % list.length]!;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function time(samples: number, run: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number; mean: number }> {
  for (let i = 0; i < 20; i++) await run(i);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), mean: times.reduce((a, b) => a + b, 0) / times.length };
}

const ms = (n: number) => n.toFixed(2);

export async function memoryBench(): Promise<string> {
  const database = await openDb({ databaseUrl: undefined, dataDir: ":memory:" });
  try {
    const deps = { db: database.db, ids: randomIds, clock: systemClock };
    const memory = createMemoryService({ ...deps, audit: createAuditLog(deps) });
    const workspace = await createWorkspaceService({ database, ...deps }).create("bench");
    for (let start = 0; start < ITEMS; start += 500) {
      const rows = [];
      for (let i = start; i < start + 500; i++) {
        const text = `The ${pick(SUBJECTS, i, 1)} process ${pick(VERBS, i, 2)} ${pick(OWNERS, i, 3)} ${pick(QUALIFIERS, i, 4)} (item ${i}).`;
        rows.push({ id: randomIds.uuid(), workspaceId: workspace.id, type: "reference", domain: i % 4 === 0 ? "finance" : "general", scope: "tenant", authority: 1 + (i % 10), tags: [pick(SUBJECTS, i, 1)], content: { text }, body: text });
      }
      await database.db.insert(memoryItems).values(rows);
      await addTerms(database.db, workspace.id, rows.map((r) => r.body));
    }
    await database.db.execute(sql`analyze memory_items`);
    const one = (await memory.search(workspace.id, "refund", {})).hits[0]!;

    const queries = [
      ...SUBJECTS.map((s) => s),
      ...SUBJECTS.map((s, i) => `who approves a ${s} ${pick(QUALIFIERS, i, 5)}`),
      "refnd aproval",
      "deploymnt",
      "warehuse shipmnt",
      "payrol",
    ];
    const search = await time(400, (i) => memory.search(workspace.id, queries[i % queries.length]!, {}));
    const words = await time(200, (i) => memory.search(workspace.id, SUBJECTS[i % SUBJECTS.length]!, {}));
    const questions = await time(200, (i) => memory.search(workspace.id, `who approves a ${SUBJECTS[i % SUBJECTS.length]} ${pick(QUALIFIERS, i, 5)}`, {}));
    const typos = await time(100, (i) => memory.search(workspace.id, ["refnd aproval", "deploymnt", "warehuse shipmnt", "payrol"][i % 4]!, {}));
    const byId = await time(400, () => memory.get(workspace.id, one.id));
    const scan = await time(100, (i) =>
      database.db.execute(sql`select id from memory_items where workspace_id = ${workspace.id} and body ilike ${`%${SUBJECTS[i % SUBJECTS.length]}%`} limit 10`),
    );
    const verdict = search.p50 <= 5 && search.p99 <= 20 ? "met" : "MISSED";
    return [
      `### Memory search, ${ITEMS.toLocaleString("en")} items in one workspace (embedded database, in process)`,
      "",
      "| measurement | p50 ms | p99 ms | mean ms |",
      "|---|---:|---:|---:|",
      `| search, mixed queries (words, questions, typos) | ${ms(search.p50)} | ${ms(search.p99)} | ${ms(search.mean)} |`,
      `| search, single words (all words match) | ${ms(words.p50)} | ${ms(words.p99)} | ${ms(words.mean)} |`,
      `| search, questions (relaxed to any word) | ${ms(questions.p50)} | ${ms(questions.p99)} | ${ms(questions.mean)} |`,
      `| search, typos (trigram fallback) | ${ms(typos.p50)} | ${ms(typos.p99)} | ${ms(typos.mean)} |`,
      `| baseline: one item by id | ${ms(byId.p50)} | ${ms(byId.p99)} | ${ms(byId.mean)} |`,
      `| baseline: unindexed ILIKE scan, limit 10 | ${ms(scan.p50)} | ${ms(scan.p99)} | ${ms(scan.mean)} |`,
      "",
      `Target search p50 <= 5 ms and p99 <= 20 ms (mixed queries): ${verdict}.`,
    ].join("\n");
  } finally {
    await database.close();
  }
}
