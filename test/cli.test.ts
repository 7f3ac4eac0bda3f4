// The `svc` command as a user runs it: first start, the data directory lock, init and keys, bad config.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, expectError } from "./helpers/server.ts";
import { runCli, spawnServe } from "./helpers/process.ts";

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-cli-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const embedded = (dir: string) => ({ SVC_DATA_DIR: dir, DATABASE_URL: "" });
// Every command is a fresh process that boots the embedded database (seconds each on a busy machine).
const SLOW = { timeout: 180_000 };

describe("svc serve on the embedded database", () => {
  it("first start creates a workspace, prints one key and a curl line that works; a second process is refused", SLOW, async () => {
    const dir = dataDir();
    const first = await spawnServe(embedded(dir));
    try {
      await new Promise((r) => setTimeout(r, 300));
      const out = first.output();
      const key = /API key \(shown once, store it now\): (sk_svc_[0-9A-Za-z]+)/.exec(out)?.[1];
      expect(key).toBeDefined();
      expect(out).toMatch(/curl -H "Authorization: Bearer sk_svc_[0-9A-Za-z]+" http:\/\/127\.0\.0\.1:\d+\/api\/v1\/svc\/health/);
      const health = await call(first, "GET", "/api/v1/svc/health", { key });
      expect(health.status).toBe(200);
      expect(health.body.workspace).toBe("default");
      // The key appears once, in the banner, not in any log line.
      expect(out.split(key!).length - 1).toBe(2);
      for (const line of out.split("\n").filter((l) => l.startsWith("{"))) expect(line).not.toContain(key!);

      const second = await runCli(["serve"], embedded(dir));
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`is in use by another process (pid ${first.child.pid})`);
      expect((await call(first, "GET", "/api/v1/svc/health", { key })).status).toBe(200);
    } finally {
      expect(await first.stop("SIGTERM")).toBe(0);
    }
    expect(existsSync(path.join(dir, "svc.lock"))).toBe(false);

    // A restart on the same data keeps the workspace and prints no new key.
    const again = await spawnServe(embedded(dir));
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(again.output()).not.toContain("API key (shown once");
    } finally {
      expect(await again.stop("SIGINT")).toBe(0);
    }
  });
});

describe("svc init and svc keys", () => {
  it("administers workspaces and keys on an existing database", SLOW, async () => {
    const dir = dataDir();
    const init = await runCli(["init", "--name", "acme"], embedded(dir));
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("Workspace acme (wsp_");
    const firstKey = /API key \(shown once, store it now\): (sk_svc_\w+)/.exec(init.stdout)![1]!;

    const created = await runCli(["keys", "create", "--name", "deploy"], embedded(dir));
    expect(created.code).toBe(0);
    const [keyId, plaintext] = created.stdout.split("\n")[0]!.split(/\s+/);
    expect(keyId).toMatch(/^key_/);
    expect(plaintext).toMatch(/^sk_svc_/);

    const listed = await runCli(["keys", "list"], embedded(dir));
    expect(listed.stdout).toContain(keyId);
    expect(listed.stdout).toContain("deploy");
    expect(listed.stdout).not.toContain("sk_svc_");

    const rotated = await runCli(["keys", "rotate", keyId!], embedded(dir));
    expect(rotated.code).toBe(0);
    const newKey = /(sk_svc_\w+)/.exec(rotated.stdout)![1]!;
    // The rotated-out key can still be revoked outright; a second revocation finds nothing.
    const revoked = await runCli(["keys", "revoke", keyId!], embedded(dir));
    expect(revoked.code).toBe(0);
    const again = await runCli(["keys", "revoke", keyId!], embedded(dir));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("api_key_not_found");

    const server = await spawnServe(embedded(dir));
    try {
      expect((await call(server, "GET", "/api/v1/svc/health", { key: firstKey })).status).toBe(200);
      expect((await call(server, "GET", "/api/v1/svc/health", { key: newKey })).status).toBe(200);
      expectError(await call(server, "GET", "/api/v1/svc/health", { key: plaintext }), 401, "auth_revoked");
    } finally {
      await server.stop();
    }

    await runCli(["init", "--name", "second"], embedded(dir));
    const ambiguous = await runCli(["keys", "list"], embedded(dir));
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain("--workspace");
  });
});

describe("configuration", () => {
  it("a bad value stops the start with a message naming the variable", SLOW, async () => {
    const bad = await runCli(["serve"], { SVC_PORT: "eighty", SVC_DATA_DIR: ":memory:" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("SVC_PORT");
    const badUrl = await runCli(["serve"], { DATABASE_URL: "mysql://x", SVC_DATA_DIR: ":memory:" });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain("DATABASE_URL");
  });
});
