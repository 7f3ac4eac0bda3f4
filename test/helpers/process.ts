// Runs `svc` as a real child process (bin/svc.js), as a user would.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ADMIN_TOKEN, BASE_ENV } from "./server.ts";

export const BIN = path.resolve("bin/svc.js");

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  return { ...base, SVC_ADMIN_TOKEN: ADMIN_TOKEN, SVC_MASTER_KEY: BASE_ENV.SVC_MASTER_KEY, SVC_LOG_LEVEL: "warn", SVC_PORT: "0", SVC_WEBHOOK_WORKER: "false", ...env };
}

export function spawnServe(env: Record<string, string>, timeoutMs = 30_000): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, "serve"], { env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), timeoutMs);
    const onData = (): void => {
      const match = /svc listening on (http:\/\/[^\s]+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      resolve({
        url: match[1]!,
        child,
        output: () => output,
        stop: async (signal = "SIGTERM") => {
          if (child.exitCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout!.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
}

export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}
