// Invoke overhead of an OpenAPI tool: POST /api/v1/svc/tools/{name}/invoke (key check, argument
// validation, governance, the guarded HTTPS call, the audit entry) against the same request sent straight to
// the upstream HTTPS service, in the same run. The upstream runs in its own process (this file, forked), so
// neither the load generator nor the service shares its event loop.
import { execFileSync, fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compare, table } from "./http.ts";
import { startBenchServer } from "./server.ts";

const UPSTREAM_FLAG = "SVC_BENCH_UPSTREAM";

// In the forked child: serve the upstream and report its port.
if (process.env[UPSTREAM_FLAG] && process.send) {
  const server = createServer({ cert: readFileSync(process.env.CERT!), key: readFileSync(process.env.KEY!) }, (req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"status":"ok","orders":3}');
  });
  server.listen(0, "127.0.0.1", () => process.send!({ port: (server.address() as AddressInfo).port }));
}

function certificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  return { cert, key };
}

export async function toolsBench(duration: number, rounds: number): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-bench-tls-"));
  const files = certificate(dir);
  const upstream = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, [UPSTREAM_FLAG]: "1", CERT: files.cert, KEY: files.key }, stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const port = await new Promise<number>((resolve, reject) => {
    upstream.once("message", (message: { port: number }) => resolve(message.port));
    upstream.once("exit", (code) => reject(new Error(`upstream exited with ${code}`)));
  });
  const server = await startBenchServer({ SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1", SVC_OUTBOUND_CA_FILE: files.cert });
  try {
    const auth = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
    const spec = {
      openapi: "3.0.3",
      info: { title: "Bench shop", version: "1" },
      servers: [{ url: `https://127.0.0.1:${port}/api` }],
      paths: { "/status": { get: { operationId: "shop_status", summary: "Shop status", parameters: [{ name: "verbose", in: "query", schema: { type: "boolean" } }] } } },
    };
    const imported = await fetch(`${server.url}/api/v1/svc/connections/openapi`, { method: "POST", headers: auth, body: JSON.stringify({ name: "bench", spec_content: spec }) });
    if (imported.status !== 201) throw new Error(`import failed: ${imported.status} ${await imported.text()}`);
    const [direct, invoke] = await compare(
      [
        { label: "GET upstream /api/status (direct HTTPS baseline)", options: { url: `https://127.0.0.1:${port}/api/status?verbose=true` } },
        {
          label: "POST /api/v1/svc/tools/shop_status/invoke",
          options: { url: `${server.url}/api/v1/svc/tools/shop_status/invoke`, method: "POST", headers: auth, body: JSON.stringify({ arguments: { verbose: true } }) },
        },
      ],
      rounds,
      duration,
      server.pid,
    );
    return [
      `### OpenAPI tool invoke vs the same request sent straight to the upstream (autocannon, 50 connections, median of ${rounds} alternating rounds of ${duration} s)`,
      "",
      table([direct!, invoke!]),
      "",
      `Throughput ratio invoke/direct: **${((invoke!.rps / direct!.rps) * 100).toFixed(1)}%**; added median latency: **${(invoke!.p50 - direct!.p50).toFixed(1)} ms** (each invoke also validates, asks governance and writes an audit entry).`,
    ].join("\n");
  } finally {
    await server.stop();
    upstream.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
