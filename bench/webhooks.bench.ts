// Webhook delivery: latency from an event's commit to its receipt by a real HTTPS receiver (p50, p99), and
// throughput, beside a direct POST to the same receiver from this process in the same run. The service runs
// as `svc serve` (embedded database, delivery worker on); the events are `intent.decided`, one per
// POST /api/v1/svc/intent. Latency is receipt time minus the event's `created_at` (set in the transaction,
// just before the commit; same machine clock). Throughput is the worker draining a backlog: events are
// produced while the receiver answers 503 with Retry-After, then it recovers and every delivery is due at
// once.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Agent, fetch } from "undici";
import { startBenchServer } from "./server.ts";

function certificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  return { cert, key };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), n: sorted.length };
};

export async function webhooksBench(duration: number): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-bench-webhooks-"));
  const files = certificate(dir);
  let failing = false;
  /** Commit → receipt in ms, by the event's trace id. */
  const receipts = new Map<string, number>();
  const delivered: number[] = [];
  const receiver = createServer({ cert: readFileSync(files.cert), key: readFileSync(files.key) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      if (failing) return void res.writeHead(503, { "retry-after": "2" }).end();
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      if (req.url !== "/hook") return;
      delivered.push(at);
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { created_at: string; data: { trace_id?: string } };
      receipts.set(event.data.trace_id ?? "", at - Date.parse(event.created_at));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const server = await startBenchServer({ SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1", SVC_OUTBOUND_CA_FILE: files.cert, SVC_WEBHOOK_POLL_MS: "1000" });
  const agent = new Agent({ connect: { ca: readFileSync(files.cert, "utf8") } });
  try {
    const auth = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
    const created = await fetch(`${server.url}/api/v1/svc/webhooks`, { method: "POST", headers: auth, body: JSON.stringify({ url: `${receiverUrl}/hook`, events: ["intent.decided"], secret: "bench-secret-0123456789abcdef" }) });
    if (created.status !== 201) throw new Error(`subscription failed: ${created.status} ${await created.text()}`);
    const intent = async (): Promise<string> => {
      const reply = await fetch(`${server.url}/api/v1/svc/intent`, { method: "POST", headers: auth, body: JSON.stringify({ messages: [{ role: "user", content: "hello there" }] }) });
      const body = (await reply.json()) as { trace_id: string };
      return body.trace_id;
    };

    // 1. Latency, one event at a time: commit → receipt.
    for (let i = 0; i < 20; i++) await intent(); // warm-up (JIT, TLS session, connection)
    await new Promise((r) => setTimeout(r, 500));
    const latencies: number[] = [];
    const until = Date.now() + duration * 1000;
    while (Date.now() < until) {
      // The delivery may land before the intent's answer: the receipt is looked up by trace id afterwards.
      const id = await intent();
      while (!receipts.has(id)) await new Promise((r) => setTimeout(r, 1));
      latencies.push(receipts.get(id)!);
    }
    const latency = stats(latencies);

    // The same receiver, POSTed directly from here: one at a time (latency), then 16 at once (throughput).
    const body = JSON.stringify({ id: "evt_direct", type: "intent.decided", created_at: new Date().toISOString(), data: { trace_id: "direct" } });
    const post = async () => {
      const reply = await fetch(`${receiverUrl}/direct`, { method: "POST", headers: { "content-type": "application/json" }, body, dispatcher: agent });
      await reply.arrayBuffer();
    };
    for (let i = 0; i < 20; i++) await post();
    const direct: number[] = [];
    const directUntil = Date.now() + duration * 1000;
    while (Date.now() < directUntil) {
      const started = performance.now();
      await post();
      direct.push(performance.now() - started);
    }
    const directLatency = stats(direct);
    let directCount = 0;
    const burstUntil = Date.now() + duration * 1000;
    const burstStart = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (Date.now() < burstUntil) {
          await post();
          directCount++;
        }
      }),
    );
    const directRps = directCount / ((performance.now() - burstStart) / 1000);

    // 2. Throughput: a backlog of events (the receiver refuses them with Retry-After), then drained.
    const backlog = 400;
    failing = true;
    delivered.length = 0;
    for (let i = 0; i < backlog; i += 20) await Promise.all(Array.from({ length: 20 }, () => intent()));
    failing = false;
    const drainStart = Date.now();
    while (delivered.length < backlog && Date.now() - drainStart < 120_000) await new Promise((r) => setTimeout(r, 20));
    const drained = delivered.length;
    const drainMs = (delivered.at(-1) ?? Date.now()) - (delivered[0] ?? drainStart);
    const workerRps = drained / Math.max(drainMs / 1000, 0.001);

    return [
      `### Webhook delivery vs a direct POST to the same HTTPS receiver (same run)`,
      "",
      "| measurement | p50 | p99 | throughput |",
      "|---|---|---|---|",
      `| direct POST from the bench process (1 at a time; 16 concurrent for throughput) | ${directLatency.p50.toFixed(2)} ms | ${directLatency.p99.toFixed(2)} ms | ${directRps.toFixed(0)} req/s |`,
      `| webhook: commit → receipt (${latency.n} events, 1 at a time) | ${latency.p50.toFixed(0)} ms | ${latency.p99.toFixed(0)} ms | — |`,
      `| webhook: backlog of ${backlog} drained by the worker (16 in flight) | — | — | ${workerRps.toFixed(0)} deliveries/s (${drained}/${backlog} in ${drainMs} ms) |`,
      "",
      `Delivery adds **${(latency.p50 - directLatency.p50).toFixed(1)} ms** at the median over a direct POST (the NOTIFY after commit, the claim, opening the sealed secret, signing twice, recording the result); ` +
        `the worker drains at **${((workerRps / directRps) * 100).toFixed(1)}%** of the direct POST throughput.`,
    ].join("\n");
  } finally {
    await server.stop();
    await agent.close();
    receiver.closeAllConnections();
    receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
