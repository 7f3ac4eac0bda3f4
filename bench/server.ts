// Starts `svc serve` in its own process (as users run it) on a throw-away embedded database, so the load
// generator and the server do not share an event loop.
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface BenchServer {
  pid: number;
  url: string;
  key: string;
  adminToken: string;
  stop(): Promise<void>;
}

/**
 * `seeded`: a data directory prepared beforehand (the bench owns and removes it) and a key of its workspace:
 * the server does not bootstrap a key on a database that already has a workspace. `logToFile`: the
 * server's log goes to a file (docs/operations.md).
 */
export async function startBenchServer(env: Record<string, string> = {}, options: { logToFile?: boolean; seeded?: { dataDir: string; key: string } } = {}): Promise<BenchServer> {
  const seeded = options.seeded;
  const dir = seeded?.dataDir ?? mkdtempSync(path.join(tmpdir(), "svc-bench-"));
  const adminToken = "bench-operator-token-0123456789";
  // Logs to a file, as a deployment does: read from a pipe, the load generator's own process would pay for them.
  const logFile = options.logToFile ? path.join(dir, "stdout.log") : undefined;
  const fd = logFile ? openSync(logFile, "w") : undefined;
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server under the bench.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path.resolve("bin/svc.js"), "serve"], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SVC_DATA_DIR: dir,
      SVC_PORT: "0",
      SVC_LOG_LEVEL: "warn",
      SVC_ADMIN_TOKEN: adminToken,
      SVC_RATE_LIMIT_PER_KEY: "10000000",
      SVC_RATE_LIMIT_PER_WORKSPACE: "10000000",
      ...env,
    },
    stdio: ["ignore", fd ?? "pipe", "inherit"],
  });
  if (fd !== undefined) closeSync(fd);
  let output = "";
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const ready = await new Promise<{ url: string; key: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const look = () => {
      const url = /svc listening on (http:\/\/\S+)/.exec(output)?.[1];
      const key = seeded?.key ?? /API key \(shown once, store it now\): (sk_svc_\w+)/.exec(output)?.[1];
      if (url && key) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve({ url, key });
      }
    };
    const poll = setInterval(() => {
      if (!logFile) return;
      output = readFileSync(logFile, "utf8");
      look();
    }, 100);
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      look();
    });
    child.on("exit", (code) => {
      clearInterval(poll);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    ...ready,
    pid: child.pid!,
    adminToken,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      if (!seeded) rmSync(dir, { recursive: true, force: true });
    },
  };
}
