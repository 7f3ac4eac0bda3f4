// The embedded data directory's lock file (src/db/lock.ts): its owner is known by more than a pid, because
// the system gives a dead owner's pid to other processes (in a container, pid 1 is always taken).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir, processIdentity } from "../src/db/lock.ts";
import { spawnServe } from "./helpers/process.ts";
import { call } from "./helpers/server.ts";

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-lock-"));
  dirs.push(dir);
  return dir;
}

/** A live process that is not ours and not a service: what a recycled pid points at. */
async function bystander(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  children.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child.pid!;
}

const bootId = () => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
const lockFile = (dir: string) => path.join(dir, "svc.lock");

describe.skipIf(process.platform !== "linux")("the data directory lock", () => {
  it("records the owner's pid, start time and boot, and removes the file when released", () => {
    const dir = dataDir();
    const unlock = lockDataDir(dir);
    const self = processIdentity(process.pid)!;
    expect(readFileSync(lockFile(dir), "utf8")).toBe(`${process.pid} ${self.start} ${self.boot}\n`);
    unlock();
    expect(() => readFileSync(lockFile(dir))).toThrow();
  });

  it("a lock naming a live process whose start time differs (the pid was reused) is taken over", async () => {
    const dir = dataDir();
    const pid = await bystander();
    const real = processIdentity(pid)!;
    writeFileSync(lockFile(dir), `${pid} ${Number(real.start) + 12345} ${real.boot}\n`);
    const unlock = lockDataDir(dir);
    expect(readFileSync(lockFile(dir), "utf8").startsWith(`${process.pid} `)).toBe(true);
    unlock();
  });

  it("a lock from an earlier boot is taken over, even if its pid is alive", async () => {
    const dir = dataDir();
    const pid = await bystander();
    writeFileSync(lockFile(dir), `${pid} ${processIdentity(pid)!.start} 00000000-0000-0000-0000-000000000000\n`);
    lockDataDir(dir)();
  });

  it("a lock of an earlier version (pid only) naming a process started after it was written is taken over", async () => {
    const dir = dataDir();
    const pid = await bystander();
    writeFileSync(lockFile(dir), `${pid}\n`);
    const past = new Date(Date.now() - 60_000);
    utimesSync(lockFile(dir), past, past);
    lockDataDir(dir)();
  });

  it("a lock whose owner is alive with the same start time is refused, naming its pid", async () => {
    const dir = dataDir();
    const pid = await bystander();
    const owner = processIdentity(pid)!;
    writeFileSync(lockFile(dir), `${pid} ${owner.start} ${owner.boot}\n`);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`in use by another process (pid ${pid})`);
    // And so is an earlier version's lock (pid only) that its live owner wrote after it started.
    writeFileSync(lockFile(dir), `${pid}\n`);
    expect(() => lockDataDir(dir)).toThrow(`in use by another process (pid ${pid})`);
  });

  it("the service starts over a stale lock naming pid 1, and a second one is refused while it runs", { timeout: 180_000 }, async () => {
    const dir = dataDir();
    writeFileSync(lockFile(dir), `1 999999999999 ${bootId()}\n`);
    const server = await spawnServe({ SVC_DATA_DIR: dir, DATABASE_URL: "" }, 120_000);
    try {
      expect((await call(server, "GET", "/api/v1/svc/health")).status).toBeLessThan(500);
      expect(readFileSync(lockFile(dir), "utf8").startsWith(`${server.child.pid} `)).toBe(true);
      expect(() => lockDataDir(dir)).toThrow(`in use by another process (pid ${server.child.pid})`);
    } finally {
      expect(await server.stop("SIGTERM")).toBe(0);
    }
  });
});
