// The intent endpoint on the embedded database with 50 tools, 1,000 memory items, 20 active policies and 5
// credentials (10 secret values every record is masked against):
// server-side time per decision (the trace's process.duration_ms, and the client's round trip beside it),
// then throughput under load next to the authenticated health route of the same server, same run.
// Target: p50 <= 3 ms and p99 <= 15 ms server-side.
import { compare, table } from "./http.ts";
import { startBenchServer } from "./server.ts";

const NOUNS = ["invoice", "refund", "shipment", "ticket", "order", "customer", "subscription", "coupon", "payout", "report", "backup", "deployment", "user", "team", "project", "document", "contract", "campaign", "device", "license", "webhook", "dataset", "alert", "booking", "account"];
const VERBS = ["create", "cancel"];

function spec(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const noun of NOUNS) {
    for (const verb of VERBS) {
      paths[`/${noun}s/${verb}`] = {
        post: {
          operationId: `${verb}_${noun}`,
          summary: `${verb === "create" ? "Create" : "Cancel"} a ${noun}`,
          description: `${verb === "create" ? "Creates" : "Cancels"} one ${noun} for a customer account.`,
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: [`${noun}_ref`, "amount"],
                  properties: {
                    [`${noun}_ref`]: { type: "string", pattern: `^${noun.slice(0, 3).toUpperCase()}-[0-9]{4,6}$` },
                    amount: { type: "number", minimum: 0 },
                    environment: { type: "string", enum: ["staging", "production"] },
                    note: { type: "string" },
                  },
                },
              },
            },
          },
        },
      };
    }
  }
  return { openapi: "3.0.3", info: { title: "Bench", version: "1" }, servers: [{ url: "https://bench.example.test" }], paths };
}

const QUESTIONS = ["What is the refund window for customers?", "Who owns the invoice process?", "When do payouts go out?", "How are backups rotated?"];

function messages(i: number): string {
  const noun = NOUNS[i % NOUNS.length]!;
  const code = `${noun.slice(0, 3).toUpperCase()}-${10000 + (i % 9000)}`;
  switch (i % 5) {
    case 0:
      return QUESTIONS[i % QUESTIONS.length]!;
    case 1:
      return `Create a ${noun} ${code} for $${(i % 40) * 10 + 5}`;
    case 2:
      return `Cancel ${noun} ${code} for $2,500 in production`;
    case 3:
      return `Please create a ${noun}`;
    default:
      return `Cancel the ${noun} ${code} for $20 in staging`;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function intentBench(duration: number, rounds: number): Promise<string> {
  const server = await startBenchServer();
  const auth = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, { method: "POST", headers: auth, body: JSON.stringify(body) });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, any>;
  };
  try {
    await post("/api/v1/svc/connections/openapi", { name: "bench", spec_content: spec() });
    for (let i = 0; i < 1000; i++) {
      const noun = NOUNS[i % NOUNS.length]!;
      await post("/api/v1/svc/memory", { type: "reference", content: { text: `Note ${i}: every ${noun} above ${i * 3} EUR is reviewed by the ${NOUNS[(i * 7) % NOUNS.length]} desk on ${["Monday", "Tuesday", "Friday"][i % 3]}.` }, tags: [noun] });
    }
    // Stored secrets, so that masking records by value (credentials/known-secrets.ts) is in the figures.
    for (let i = 0; i < 5; i++) await post("/api/v1/svc/credentials", { provider: `bench${i}`, name: `c${i}`, key_data: { api_key: `bench-secret-${i}-0123456789abcdef`, password: `pw-${i}-Zq8rT5pL2vB9` } });
    for (let i = 0; i < 20; i++) {
      const noun = NOUNS[i]!;
      const rule = i % 2 === 0 ? `Block ${noun}s over $1,000 in production` : `Require approval for cancelling ${noun}s above $2,000`;
      const created = await post("/api/v1/svc/policies", { name: `p${i}`, rule });
      await post(`/api/v1/svc/policies/${created.id}/confirm`, { version: 1 });
    }

    // Server-side time per decision, one request at a time.
    const server_ms: number[] = [];
    const client_ms: number[] = [];
    // Server-side times by decision type: an escalation opened, or an answer from memory, costs differently.
    const kinds = new Map<string, number[]>();
    for (let i = 0; i < 60; i++) await post("/api/v1/svc/intent", { messages: [{ role: "user", content: messages(i) }] });
    for (let i = 0; i < 1000; i++) {
      const t0 = performance.now();
      const body = await post("/api/v1/svc/intent", { messages: [{ role: "user", content: messages(i) }] });
      client_ms.push(performance.now() - t0);
      server_ms.push(body.intelligence.process.duration_ms);
      const ofKind = kinds.get(body.type) ?? [];
      ofKind.push(body.intelligence.process.duration_ms);
      kinds.set(body.type, ofKind);
    }
    server_ms.sort((a, b) => a - b);
    client_ms.sort((a, b) => a - b);
    const p50 = percentile(server_ms, 50);
    const p99 = percentile(server_ms, 99);

    const intentBody = JSON.stringify({ messages: [{ role: "user", content: "Create a refund REF-20417 for $40" }] });
    const [health, intent] = await compare(
      [
        { label: "GET /api/v1/svc/health (baseline)", options: { url: `${server.url}/api/v1/svc/health`, headers: auth } },
        { label: "POST /api/v1/svc/intent (execution planned)", options: { url: `${server.url}/api/v1/svc/intent`, method: "POST", headers: auth, body: intentBody } },
      ],
      rounds,
      duration,
      server.pid,
    );
    return [
      `### Intent endpoint: 50 tools, 1,000 memory items, 20 active policies (embedded database)`,
      "",
      `Server-side time per decision (intelligence.process.duration_ms, 1,000 sequential requests, mixed: ${[...kinds].map(([k, times]) => `${times.length} ${k}`).join(", ")}): **p50 ${p50} ms, p99 ${p99} ms** (target p50 <= 3 ms, p99 <= 15 ms: ${p50 <= 3 && p99 <= 15 ? "met" : "MISSED"}). Round trip seen by the client, same requests: p50 ${percentile(client_ms, 50).toFixed(2)} ms, p99 ${percentile(client_ms, 99).toFixed(2)} ms (adds what is written behind the decision: the verdict's audit entry, the intelligence record, the conversation and the execution).`,
      "",
      `By decision type, server-side: ${[...kinds].map(([k, times]) => { const sorted = [...times].sort((a, b) => a - b); return `${k} p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms`; }).join("; ")}.`,
      "",
      `Throughput (autocannon, 50 connections, median of ${rounds} alternating rounds of ${duration} s):`,
      "",
      table([health!, intent!]),
    ].join("\n");
  } finally {
    await server.stop();
  }
}
