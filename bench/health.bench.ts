// Authenticated GET /api/v1/svc/health against the bare /infra/livez of the same server, same run.
// Target: the authenticated route reaches at least 70% of the bare route's throughput.
import { compare, table } from "./http.ts";
import { startBenchServer } from "./server.ts";

export async function healthBench(duration: number, rounds: number): Promise<string> {
  const server = await startBenchServer();
  try {
    const auth = { authorization: `Bearer ${server.key}` };
    const [bare, health] = await compare(
      [
        // The same request bytes (Authorization included) to both: only the server's work differs.
        { label: "GET /infra/livez (bare baseline)", options: { url: `${server.url}/infra/livez`, headers: auth } },
        { label: "GET /api/v1/svc/health (Bearer key)", options: { url: `${server.url}/api/v1/svc/health`, headers: auth } },
      ],
      rounds,
      duration,
      server.pid,
    );
    const ratio = health!.rps / bare!.rps;
    return [
      `### Authenticated health vs bare route (autocannon, 50 connections, median of ${rounds} alternating rounds of ${duration} s)`,
      "",
      table([bare!, health!]),
      "",
      `Throughput ratio health/bare: **${(ratio * 100).toFixed(1)}%** (target >= 70%: ${ratio >= 0.7 ? "met" : "MISSED"}).`,
      bare!.cpuUs && health!.cpuUs
        ? `Server CPU per request, bare/health: ${((bare!.cpuUs / health!.cpuUs) * 100).toFixed(1)}% (the throughput ratio a CPU-bound server would reach; steadier than req/s on a shared machine).`
        : "",
    ].join("\n");
  } finally {
    await server.stop();
  }
}
