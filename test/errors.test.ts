import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOG } from "../src/errors/catalog.ts";
import { call, expectError, newWorkspace, useServer } from "./helpers/server.ts";

const server = useServer({ SVC_BODY_LIMIT_BYTES: String(1024 * 1024) });

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith(".ts") ? [full] : [];
  });
}

describe("error catalog", () => {
  it("holds every code of the contract's catalog and authentication table", () => {
    // The contract beside the repository when it is there; else the copy of its catalog kept with the tests
    // (a clone elsewhere still checks every code).
    const live = new URL("../../shared/spec/interface-specification.md", import.meta.url);
    const spec = readFileSync(existsSync(live) ? live : new URL("./fixtures/contract-error-catalog.md", import.meta.url), "utf8");
    const contractCodes = [...spec.matchAll(/^\| (\d{3}) \| ([a-z0-9_]+) \|/gm)].map((m) => [m[2]!, Number(m[1])] as const);
    expect(contractCodes.length).toBeGreaterThan(90);
    for (const [code, status] of contractCodes) {
      expect(CATALOG, `missing ${code}`).toHaveProperty(code);
      expect(CATALOG[code as keyof typeof CATALOG].status, code).toBe(status);
    }
  });

  it("knows every code the source uses", () => {
    const used = new Set<string>();
    for (const file of sourceFiles(path.resolve("src"))) {
      for (const match of readFileSync(file, "utf8").matchAll(/new AppError\("([a-z0-9_]+)"/g)) used.add(match[1]!);
      for (const match of readFileSync(file, "utf8").matchAll(/errors: \[([^\]]*)\]/g)) {
        for (const code of match[1]!.matchAll(/"([a-z0-9_]+)"/g)) used.add(code[1]!);
      }
    }
    expect(used.size).toBeGreaterThan(5);
    for (const code of used) expect(CATALOG, `code ${code} is used but not in the catalog`).toHaveProperty(code);
  });

  it("serves a docs page with an element err-<code> for every code, saying what it means and how to fix it", async () => {
    const page = await call(server(), "GET", "/infra/docs/errors");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    for (const [code, entry] of Object.entries(CATALOG)) {
      const section = new RegExp(`<section class="code" id="err-${code}">([\\s\\S]*?)</section>`).exec(page.text);
      expect(section, code).not.toBeNull();
      expect(section![1]).toContain(`HTTP ${entry.status}`);
      expect(section![1]).toContain("What it means");
      expect(section![1]).toContain("How to fix it");
    }
  });
});

describe("error answers", () => {
  it("unknown routes: 404 not_found with the canonical body and trace header", async () => {
    const body = expectError(await call(server(), "GET", "/api/v1/svc/nope"), 404, "not_found");
    expect(body.error.type).toBe("not_found");
    expectError(await call(server(), "POST", "/nothing/here", { body: {} }), 404, "not_found");
  });

  it("invalid JSON: 400 invalid_request with details", async () => {
    const ws = await newWorkspace(server());
    const reply = await call(server(), "POST", `/api/v1/maas/workspaces/${ws.id}/api-keys`, { key: ws.key, rawBody: '{"name": ' });
    const body = expectError(reply, 400, "invalid_request");
    expect(body.error.type).toBe("invalid_request");
    expect(body.error.details[0].field).toBe("body");
  });

  it("an empty JSON body is accepted as no body (then validated)", async () => {
    const ws = await newWorkspace(server());
    const reply = await call(server(), "POST", `/api/v1/maas/workspaces/${ws.id}/api-keys/${ws.keyId}/rotate`, {
      key: ws.key,
      rawBody: "",
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(200);
    const missing = await call(server(), "POST", `/api/v1/maas/workspaces/${ws.id}/api-keys`, {
      key: reply.body.plaintext,
      rawBody: "",
      headers: { "content-type": "application/json" },
    });
    expectError(missing, 400, "invalid_request");
  });

  it("bodies over the limit: 413 payload_too_large", async () => {
    const ws = await newWorkspace(server());
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) });
    const body = expectError(await call(server(), "POST", `/api/v1/maas/workspaces/${ws.id}/api-keys`, { key: ws.key, rawBody: big }), 413, "payload_too_large");
    expect(body.error.type).toBe("invalid_request");
  });

  it("an unsupported content type: 415", async () => {
    const ws = await newWorkspace(server());
    const reply = await call(server(), "POST", `/api/v1/maas/workspaces/${ws.id}/api-keys`, {
      key: ws.key,
      rawBody: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectError(reply, 415, "unsupported_media_type");
  });

  it("an incoming W3C traceparent supplies the trace id", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const reply = await call(server(), "GET", "/api/v1/svc/health", { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(reply.headers.get("x-svc-trace-id")).toBe(traceId);
    expect(reply.body.trace_id).toBe(traceId);
    const invalid = await call(server(), "GET", "/infra/livez", { headers: { traceparent: "00-00000000000000000000000000000000-00f067aa0ba902b7-01" } });
    expect(invalid.headers.get("x-svc-trace-id")).toMatch(/^[0-9a-f]{32}$/);
    expect(invalid.headers.get("x-svc-trace-id")).not.toBe("0".repeat(32));
  });

  it("every answer carries a fresh trace id", async () => {
    const a = await call(server(), "GET", "/infra/livez");
    const b = await call(server(), "GET", "/infra/livez");
    expect(a.headers.get("x-svc-trace-id")).toMatch(/^[0-9a-f]{32}$/);
    expect(a.headers.get("x-svc-trace-id")).not.toBe(b.headers.get("x-svc-trace-id"));
  });
});
