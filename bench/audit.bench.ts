// The audit read API over 10,000 entries of one workspace on the embedded database: a filtered query (one
// execution's entries), a filtered query matching 1,000 entries (one action), the unfiltered first page (its
// total counts all 10,000), and the chain verification (recomputes 10,000 hashes, in pages of 1,000); beside
// the authenticated health route of the same server, same run. The entries are written beforehand, chained
// with the audit log's own hash (chainHash) and inserted in bulk (appending one by one through record() costs
// about 4-6 ms an entry on the embedded database, a minute for the seed).
// Targets, one request at a time: a filtered query p50 <= 5 ms; verify of 10,000 entries p50 <= 1 s.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { systemClock } from "../src/clock.ts";
import { openDb } from "../src/db/index.ts";
import { auditEntries } from "../src/db/schema.ts";
import { chainHash, GENESIS, type AuditEntry } from "../src/events/audit.ts";
import { randomIds } from "../src/ids.ts";
import { createApiKeyService } from "../src/modules/api-keys/service.ts";
import { createWorkspaceService } from "../src/modules/workspaces/service.ts";
import { compare, table } from "./http.ts";
import { startBenchServer } from "./server.ts";

const ENTRIES = 10_000;
const BATCH = 500;

/** A workspace with ENTRIES audit entries shaped like real traffic; its key. */
async function seed(dataDir: string): Promise<{ key: string; executionId: string }> {
  const database = await openDb({ databaseUrl: undefined, dataDir });
  try {
    const deps = { database, ids: randomIds, clock: systemClock };
    const workspace = await createWorkspaceService(deps).create("bench");
    const { plaintext, row } = await createApiKeyService(deps).create(workspace.id, "bench");
    // Each "request" writes entries about one execution (create, start, a tool call, complete) in its
    // trace, and every tenth entry updates a policy: 1,000 policy.update entries in all.
    let prevHash = GENESIS;
    const started = Date.now() - ENTRIES * 10;
    for (let start = 0; start < ENTRIES; start += BATCH) {
      const batch: AuditEntry[] = [];
      for (let i = start; i < start + BATCH; i++) {
        const request = Math.floor(i / 5);
        const executionId = `exe_bench${request}`;
        const record =
          i % 10 === 9
            ? { action: "policy.update", resourceType: "policy", resourceId: `pol_bench${request % 20}`, details: { version: request } }
            : [
                { action: "execution.create", resourceType: "execution", resourceId: executionId, details: { steps: 1, tools: ["refund_order"] } },
                { action: "execution.start", resourceType: "execution", resourceId: executionId, details: { via: "confirm" } },
                { action: "tool.invoke", resourceType: "tool", resourceId: "refund_order", details: { status: 200, duration_ms: 12 } },
                { action: "execution.complete", resourceType: "execution", resourceId: executionId, details: { steps: 1 } },
                { action: "memory.create", resourceType: "memory", resourceId: `mem_${i}`, details: { type: "reference", domain: "general" } },
              ][i % 5]!;
        const system = i % 7 === 0;
        const entry = {
          id: randomIds.make("aud"),
          workspaceId: workspace.id,
          seq: i + 1,
          actorType: system ? ("system" as const) : ("key" as const),
          actorId: system ? null : row.id,
          ...record,
          traceId: `trace_${request}`,
          createdAt: new Date(started + i * 10),
        };
        const hash = chainHash(prevHash, entry);
        batch.push({ ...entry, prevHash, hash });
        prevHash = hash;
      }
      await database.db.insert(auditEntries).values(batch);
    }
    return { key: plaintext, executionId: `exe_bench${Math.floor(ENTRIES / 10)}` };
  } finally {
    await database.close();
  }
}

async function sequential(url: string, key: string, samples: number): Promise<{ p50: number; p99: number; body: string }> {
  const times: number[] = [];
  let body = "";
  for (let i = 0; i < samples + 20; i++) {
    const started = performance.now();
    const reply = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    body = await reply.text();
    if (reply.status !== 200) throw new Error(`${url}: ${reply.status} ${body}`);
    if (i >= 20) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)]!, p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!, body };
}

export async function auditBench(duration: number, rounds: number): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "svc-bench-audit-"));
  try {
    const seededAt = performance.now();
    const { key, executionId } = await seed(dataDir);
    const seedMs = performance.now() - seededAt;
    const server = await startBenchServer({}, { seeded: { dataDir, key } });
    try {
      const base = `${server.url}/api/v1/svc`;
      const verify = await sequential(`${base}/audit/verify`, key, 20);
      const verified = JSON.parse(verify.body) as { valid: boolean; entries_checked: number };
      if (!verified.valid || verified.entries_checked !== ENTRIES) throw new Error(`unexpected verify answer: ${verify.body}`);
      const one = await sequential(`${base}/audit?resource_type=execution&resource_id=${executionId}`, key, 50);
      const auth = { authorization: `Bearer ${key}` };
      const connections = 10;
      const rows = await compare(
        [
          { label: "GET /health (Bearer key, baseline)", options: { url: `${base}/health`, headers: auth, connections } },
          { label: "GET /audit?resource_type=execution&resource_id=… (4 of 10,000)", options: { url: `${base}/audit?resource_type=execution&resource_id=${executionId}`, headers: auth, connections } },
          { label: "GET /audit?action=policy.update&limit=50 (1,000 of 10,000)", options: { url: `${base}/audit?action=policy.update&limit=50`, headers: auth, connections } },
          { label: "GET /audit?limit=50 (unfiltered, total of 10,000)", options: { url: `${base}/audit?limit=50`, headers: auth, connections } },
        ],
        rounds,
        duration,
        server.pid,
      );
      const [health, filtered] = rows;
      return [
        `### Audit read API over ${ENTRIES.toLocaleString("en")} entries (embedded database; autocannon, ${connections} connections, median of ${rounds} alternating rounds of ${duration} s)`,
        "",
        table(rows),
        "",
        `Sequential (one request at a time): verify of ${ENTRIES.toLocaleString("en")} entries p50 **${verify.p50.toFixed(1)} ms**, p99 ${verify.p99.toFixed(1)} ms (target <= 1 s: ${verify.p50 <= 1000 ? "met" : "MISSED"}); one execution's entries p50 **${one.p50.toFixed(2)} ms**, p99 ${one.p99.toFixed(2)} ms (target <= 5 ms: ${one.p50 <= 5 ? "met" : "MISSED"}).`,
        `Under load the filtered query serves ${((filtered!.rps / health!.rps) * 100).toFixed(1)}% of the health route's throughput: every query waits its turn on the embedded database's one connection.`,
        `Seeding ${ENTRIES.toLocaleString("en")} chained entries (bulk insert) took ${(seedMs / 1000).toFixed(1)} s.`,
      ].join("\n");
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
