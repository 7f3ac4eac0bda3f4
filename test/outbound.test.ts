// The guarded outbound client on its own, against a local HTTPS server: every DNS answer checked, the socket
// pinned to the checked address (TLS still verified against the name), limits, redirects.
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbound, OutboundError, type LookupAll } from "../src/http/outbound.ts";
import { makeCertificate } from "./helpers/tls.ts";

const tls = makeCertificate();
let server: Server;
let port = 0;
const seen: { host?: string; servername?: string; method?: string; path?: string; headers?: import("node:http").IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    seen.push({ host: req.headers.host, servername: (req.socket as import("node:tls").TLSSocket).servername || undefined, method: req.method, path: req.url, headers: req.headers });
    const url = new URL(req.url ?? "/", "https://x");
    if (url.pathname === "/big") return res.end("x".repeat(2_000));
    if (url.pathname === "/loop") return res.writeHead(302, { location: "/loop" }).end();
    if (url.pathname === "/elsewhere") return res.writeHead(302, { location: "https://example.com/" }).end();
    if (url.pathname === "/to-name") return res.writeHead(307, { location: `https://tools.test:${port}/landed` }).end();
    if (url.pathname === "/see-other") return res.writeHead(303, { location: "/done" }).end();
    if (url.pathname === "/slow") return void setTimeout(() => res.end("late"), 1_000).unref();
    res.end(`ok ${req.method} ${url.pathname}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const lookup: LookupAll = async (hostname) => {
  if (hostname === "tools.test") return [{ address: "127.0.0.1", family: 4 }];
  if (hostname === "mixed.test") return [{ address: "93.184.216.34", family: 4 }, { address: "10.0.0.5", family: 4 }];
  throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
};

const client = (options: Partial<Parameters<typeof createOutbound>[0]> = {}) =>
  createOutbound({ allowHosts: ["127.0.0.1"], caFile: tls.certFile, timeoutMs: 500, maxBytes: 1_024, lookup, ...options });

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe("guarded outbound client", () => {
  it("connects to the checked address and verifies TLS against the host name (SNI), not the IP", async () => {
    const outbound = client();
    const reply = await outbound.request(new URL(`https://tools.test:${port}/hello?x=1`));
    expect(reply.status).toBe(200);
    expect(reply.body.toString()).toBe("ok GET /hello");
    expect(seen.at(-1)).toMatchObject({ host: `tools.test:${port}`, servername: "tools.test" });
    await outbound.close();
  });

  it("checks every DNS answer: one private address among public ones is refused", async () => {
    const outbound = client({ allowHosts: [] });
    const error = await failure(outbound.request(new URL("https://mixed.test/")));
    expect(error.reason).toBe("address_not_allowed");
    expect(error.message).toContain("10.0.0.5 (of mixed.test) is not allowed (private)");
    expect((await failure(outbound.request(new URL("https://nowhere.test/")))).message).toContain("could not be resolved");
    // fetch (used by the MCP SDK) goes through the same check.
    const fetched = await outbound.fetch(`https://127.0.0.1:${port}/`).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(String((fetched?.cause as Error | undefined)?.message)).toContain("is not allowed (loopback)");
    await outbound.close();
  });

  it("without the extra CA the self-signed certificate is refused", async () => {
    const outbound = client({ caFile: undefined });
    expect((await failure(outbound.request(new URL(`https://127.0.0.1:${port}/`)))).message).toContain("TLS certificate was not accepted");
    await outbound.close();
  });

  it("limits size, time and redirects; same-origin mode hands back a redirect elsewhere; 303 continues as GET", async () => {
    const outbound = client();
    const base = `https://127.0.0.1:${port}`;
    expect((await failure(outbound.request(new URL(`${base}/big`)))).reason).toBe("too_large");
    expect((await failure(outbound.request(new URL(`${base}/slow`)))).reason).toBe("timeout");
    expect((await failure(outbound.request(new URL(`${base}/loop`)))).message).toContain("more than 5 redirects");
    const elsewhere = await outbound.request(new URL(`${base}/elsewhere`), { redirects: "same-origin" });
    expect(elsewhere.status).toBe(302);
    const posted = await outbound.request(new URL(`${base}/see-other`), { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(posted.body.toString()).toBe("ok GET /done");
    expect((await failure(outbound.request(new URL(`http://127.0.0.1:${port}/`), { httpsOnly: true }))).reason).toBe("scheme_not_allowed");
    await outbound.close();
  });

  it("a followed redirect to another origin carries no credential header", async () => {
    const outbound = client({ allowHosts: ["127.0.0.1", "tools.test"] });
    const headers = { authorization: "Bearer secret-1", cookie: "sid=secret-2", "X-Api-Key": "secret-3", "x-trace": "kept" };
    const reply = await outbound.request(new URL(`https://127.0.0.1:${port}/to-name`), { headers, credentialHeaders: ["x-api-key"] });
    expect(reply.body.toString()).toBe("ok GET /landed");
    const [first, second] = seen.slice(-2);
    expect(first).toMatchObject({ path: "/to-name", headers: { authorization: "Bearer secret-1", cookie: "sid=secret-2", "x-api-key": "secret-3" } });
    expect(second).toMatchObject({ host: `tools.test:${port}`, path: "/landed", headers: { "x-trace": "kept" } });
    expect(second!.headers).not.toHaveProperty("authorization");
    expect(second!.headers).not.toHaveProperty("cookie");
    expect(second!.headers).not.toHaveProperty("x-api-key");
    await outbound.close();
  });

  it("fetch (the MCP transport) follows redirects within its origin only: its headers never reach another", async () => {
    const outbound = client({ allowHosts: ["127.0.0.1", "tools.test"] });
    const headers = { "x-api-key": "mcp-secret-1", "content-type": "application/json" };
    const before = seen.length;
    const away = await outbound.fetch(`https://127.0.0.1:${port}/to-name`, { method: "POST", headers, body: "{}" });
    expect(away.status).toBe(307);
    expect(seen.slice(before).map((s) => s.path)).toEqual(["/to-name"]);
    const within = await outbound.fetch(`https://127.0.0.1:${port}/see-other`, { method: "POST", headers, body: "{}" });
    expect(await within.text()).toBe("ok GET /done");
    expect(seen.at(-1)).toMatchObject({ path: "/done", headers: { "x-api-key": "mcp-secret-1" } });
    await outbound.close();
  });

  it("refuses every IPv6 form of a denied IPv4 address, and nothing is sent", async () => {
    const outbound = client({ allowHosts: [] });
    const before = seen.length;
    for (const literal of ["::ffff:0:7f00:1", "::ffff:0:127.0.0.1", "::ffff:7f00:1", "::7f00:1", "64:ff9b::7f00:1", "2002:7f00:1::1", "2001:0:4136:e378:8000:63bf:80ff:fffe", "2001:db9::5efe:7f00:1"]) {
      const error = await failure(outbound.request(new URL(`https://[${literal}]:${port}/`)));
      expect(error.reason, literal).toBe("address_not_allowed");
    }
    expect(seen.length).toBe(before);
    await outbound.close();
  });
});
