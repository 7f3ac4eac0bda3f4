// The cost of metrics and the per-request log line: authenticated GET /api/v1/svc/health on three servers of
// the same build: both off (SVC_METRICS=false, SVC_LOG_LEVEL=warn), metrics only, and as shipped (metrics
// on, one `info` line per request), stdout to a file in each, measured in alternating rounds of one run.
import { load, table, type LoadResult } from "./http.ts";
import { startBenchServer, type BenchServer } from "./server.ts";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function observabilityBench(duration: number, rounds: number): Promise<string> {
  const servers: { label: string; server: BenchServer }[] = [];
  try {
    servers.push({ label: "health, metrics and request log off (baseline)", server: await startBenchServer({ SVC_METRICS: "false", SVC_LOG_LEVEL: "warn" }, { logToFile: true }) });
    servers.push({ label: "health, metrics on, request log off", server: await startBenchServer({ SVC_LOG_LEVEL: "warn" }, { logToFile: true }) });
    servers.push({ label: "health, metrics on + info request log (to a file)", server: await startBenchServer({ SVC_LOG_LEVEL: "info" }, { logToFile: true }) });
    const options = (s: BenchServer) => ({ url: `${s.url}/api/v1/svc/health`, headers: { authorization: `Bearer ${s.key}` } });
    for (const { label, server } of servers) await load(`warm-up ${label}`, { ...options(server), duration: 3 });
    const runs = new Map<string, LoadResult[]>(servers.map((s) => [s.label, []]));
    for (let round = 0; round < rounds; round++) {
      for (const { label, server } of servers) runs.get(label)!.push(await load(label, { ...options(server), duration }, server.pid));
    }
    const rows = servers.map(({ label }) => {
      const list = runs.get(label)!;
      return {
        label,
        rps: Math.round(median(list.map((r) => r.rps))),
        cpuUs: list.every((r) => r.cpuUs !== undefined) ? median(list.map((r) => r.cpuUs!)) : undefined,
        p50: median(list.map((r) => r.p50)),
        p99: median(list.map((r) => r.p99)),
        errors: list.reduce((a, r) => a + r.errors, 0),
        non2xx: list.reduce((a, r) => a + r.non2xx, 0),
      };
    });
    const [off, metricsOnly, on] = rows;
    return [
      `### Metrics and request log overhead on authenticated health (autocannon, 50 connections, median of ${rounds} alternating rounds of ${duration} s)`,
      "",
      table(rows),
      "",
      `Throughput / baseline: metrics **${((metricsOnly!.rps / off!.rps) * 100).toFixed(1)}%**, metrics and log **${((on!.rps / off!.rps) * 100).toFixed(1)}%**.`,
      off!.cpuUs && metricsOnly!.cpuUs && on!.cpuUs
        ? `Server CPU per request: ${off!.cpuUs.toFixed(1)} µs baseline, ${metricsOnly!.cpuUs.toFixed(1)} µs with metrics (+${(metricsOnly!.cpuUs - off!.cpuUs).toFixed(1)}), ${on!.cpuUs.toFixed(1)} µs with metrics and log (+${(on!.cpuUs - off!.cpuUs).toFixed(1)}).`
        : "",
    ].join("\n");
  } finally {
    for (const { server } of servers) await server.stop();
  }
}
