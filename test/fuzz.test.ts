// Hostile requests for every operation of the service's own OpenAPI document (generated from the route
// schemas, so a new route is fuzzed as soon as it exists). Each request is built from the operation's
// declared parameters and body schema, then spoiled: wrong types, NUL bytes, lone surrogates, deep nesting,
// very long strings, huge numbers, path traversal, prototype keys, bad percent-encodings, long headers,
// bad JSON, wrong content types. Every answer must be: no 5xx but the 5xx codes the operation declares
// (never internal_error), the canonical error body on every error, the X-Svc-Trace-ID header, and a server
// that still answers afterwards.
//
// A fixed seed (SVC_FUZZ_SEED to change it) and a few thousand requests in the suite; SVC_FUZZ_RUNS=50000
// for a long run (its counts are printed, and recorded in docs/security.md).
import fc from "fast-check";
import { Client } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, call, newWorkspace, startServer, type TestServer, type TestWorkspace } from "./helpers/server.ts";

const RUNS = Number(process.env.SVC_FUZZ_RUNS ?? 2500);
const SEED = Number(process.env.SVC_FUZZ_SEED ?? 20261124);
const LONG_RUN = RUNS > 2500;

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  body?: JsonSchema;
  auth: "public" | "operator" | "runtime";
  /** 5xx codes the operation declares (internal_error is never acceptable from bad input). */
  declared5xx: Set<string>;
}

type JsonSchema = Record<string, any>;

let server: TestServer;
let client: Client;
let ws: TestWorkspace;
let victim: TestWorkspace;
let ops: Operation[];

beforeAll(async () => {
  // Outbound calls (spec_url, MCP url) are refused or time out quickly: the fuzz tests the edge, not the network.
  server = await startServer({ SVC_OUTBOUND_TIMEOUT_MS: "1500", SVC_MODEL_FALLBACK: "embedded" });
  client = new Client(server.url, { pipelining: 0, headersTimeout: 20_000, bodyTimeout: 20_000 });
  ws = await newWorkspace(server);
  victim = await newWorkspace(server);
  const doc = await call(server, "GET", "/api/v1/svc/docs/openapi.json");
  ops = operationsOf(doc.body);
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

function operationsOf(doc: any): Operation[] {
  const list: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const params: any[] = op.parameters ?? [];
      const declared5xx = new Set<string>();
      for (const [status, response] of Object.entries(op.responses ?? {}) as [string, any][]) {
        if (!status.startsWith("5")) continue;
        const codes = /^Error: (.*)$/.exec(String(response.description ?? ""))?.[1]?.split(", ") ?? [];
        for (const code of codes) if (code !== "internal_error") declared5xx.add(code);
      }
      list.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        query: Object.fromEntries(params.filter((p) => p.in === "query").map((p) => [p.name, p.schema ?? {}])),
        body: op.requestBody?.content?.["application/json"]?.schema,
        auth: Array.isArray(op.security) && op.security.length === 0 ? "public" : path.startsWith("/api/v1/maas") ? "operator" : "runtime",
        declared5xx,
      });
    }
  }
  return list;
}

// ---- hostile values ----

const DEEP = 5000;
const nasty = fc.constantFrom(
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "../../../etc/passwd",
  "..%2f..%2f",
  "%2e%2e%2f",
  "__proto__",
  "constructor",
  "prototype",
  "%zz",
  "%",
  "%E0%A4%A",
  "%ED%A0%80",
  "9223372036854775807",
  "-9223372036854775808",
  "1e308",
  "-0",
  "Infinity",
  "-Infinity",
  "NaN",
  "-1",
  "0",
  "",
  " ",
  "null",
  "true",
  "'; drop table workspaces; --",
  "<script>alert(1)</script>",
  "${jndi:ldap://x}",
  "{{7*7}}",
  "ws_",
  "00000000-0000-0000-0000-000000000000",
  "https://127.0.0.1/",
  "http://[::ffff:7f00:1]/",
  "file:///etc/passwd",
);
const longString = fc.constantFrom(101, 300, 3000, 20_000).map((n) => "a".repeat(n));
const hostileString = fc.oneof(
  { weight: 5, arbitrary: nasty },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  { weight: 1, arbitrary: longString },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 5 }), nasty, fc.string({ maxLength: 5 })).map(([a, b, c]) => a + b + c) },
);
/** Null most of the time: fc.option's freq is the inverse (null once in `freq`), so rare extras use this. */
const sometimes = <T,>(arbitrary: fc.Arbitrary<T>, weight: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 10 - weight, arbitrary: fc.constant(null) }, { weight, arbitrary });

const hostileNumber = fc.constantFrom(1e308, -1e308, -0, 2 ** 63, -(2 ** 63), 2 ** 53 + 1, -1, 0.5, 1e-320, 4294967296);

/** A JSON text fragment: emitted as text, so -0, deep nesting and duplicate/prototype keys survive. */
const hostileJson: fc.Arbitrary<string> = fc.oneof(
  hostileString.map((s) => JSON.stringify(s)),
  hostileNumber.map((n) => (Object.is(n, -0) ? "-0" : String(n))),
  fc.constantFrom("1e400", "-1e400", "9223372036854775807", "-9223372036854775808", "123456789012345678901234567890", "true", "false", "null", "[]", "{}", '"\\ud800"', '"\\u0000"', '"a\\udc00"'),
  fc.constantFrom("[", "{").map((open) => (open === "[" ? "[".repeat(DEEP) + "]".repeat(DEEP) : '{"a":'.repeat(DEEP) + "1" + "}".repeat(DEEP))),
  fc.constantFrom("__proto__", "constructor", "prototype").map((k) => `{"${k}":{"polluted":true,"toString":1}}`),
  fc.constantFrom('{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}'),
);

/** A JSON text for a value of the schema: mostly well-formed, with hostile values in places. */
function valueFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<string> {
  if (!schema || depth > 4) return hostileJson;
  const plausible = plausibleFor(schema, depth);
  return fc.oneof({ weight: 5, arbitrary: plausible }, { weight: 1, arbitrary: hostileJson });
}

function plausibleFor(schema: JsonSchema, depth: number): fc.Arbitrary<string> {
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...schema.enum).map((v) => JSON.stringify(v));
  if ("const" in schema) return fc.constant(JSON.stringify(schema.const));
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && variants.length) return fc.oneof(...variants.map((v: JsonSchema) => valueFor(v, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 20 }) }, { weight: 2, arbitrary: hostileString }).map((s) => JSON.stringify(s));
    case "integer":
    case "number":
      return fc.oneof(fc.integer({ min: -5, max: 1000 }), hostileNumber).map((n) => (Object.is(n, -0) ? "-0" : String(n)));
    case "boolean":
      return fc.boolean().map(String);
    case "array":
      return fc.array(valueFor(schema.items, depth + 1), { maxLength: 3 }).map((items) => `[${items.join(",")}]`);
    case "object": {
      const props = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
      const required = new Set<string>(schema.required ?? []);
      const fields = props.map(([name, sub]) =>
        fc.tuple(fc.constant(name), valueFor(sub, depth + 1), fc.boolean()).map(([n, v, include]) => (include || required.has(n) ? `${JSON.stringify(n)}:${v}` : "")),
      );
      const extra = sometimes(fc.tuple(hostileString, hostileJson).map(([k, v]) => `${JSON.stringify(k)}:${v}`), 2);
      return fc.tuple(fc.tuple(...fields), extra).map(([parts, more]) => `{${[...parts, more ?? ""].filter(Boolean).join(",")}}`);
    }
    default:
      return hostileJson;
  }
}

/** A well-formed JSON text for the schema (no hostile value), so a single spoiled field reaches deep code. */
function cleanFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<string> {
  if (!schema || depth > 4) return fc.constantFrom('"text"', '{"text":"hello world"}', "1");
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...schema.enum).map((v) => JSON.stringify(v));
  if ("const" in schema) return fc.constant(JSON.stringify(schema.const));
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && variants.length) return fc.oneof(...variants.map((v: JsonSchema) => cleanFor(v, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      if (schema.format === "date-time") return fc.constant(JSON.stringify(new Date(Date.UTC(2026, 0, 1)).toISOString()));
      if (schema.format === "uuid") return fc.uuid().map((u) => JSON.stringify(u));
      return fc.string({ unit: "grapheme-ascii", minLength: Math.max(1, schema.minLength ?? 1), maxLength: Math.min(20, schema.maxLength ?? 20) }).map((v) => JSON.stringify(v));
    case "integer":
    case "number":
      return fc.integer({ min: Math.max(schema.minimum ?? 0, 0), max: Math.min(schema.maximum ?? 100, 100) }).map(String);
    case "boolean":
      return fc.boolean().map(String);
    case "array":
      return fc.array(cleanFor(schema.items, depth + 1), { minLength: Math.min(schema.minItems ?? 1, 3), maxLength: 3 }).map((items) => `[${items.join(",")}]`);
    case "object": {
      const props = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
      const required = new Set<string>(schema.required ?? []);
      const fields = props.map(([name, sub]) =>
        fc.tuple(cleanFor(sub, depth + 1), fc.boolean()).map(([v, include]) => (include || required.has(name) ? `${JSON.stringify(name)}:${v}` : "")),
      );
      return fc.tuple(...fields).map((parts) => `{${parts.filter(Boolean).join(",")}}`);
    }
    default:
      return fc.constantFrom('"text"', '{"text":"hello world"}');
  }
}

/** A clean body with exactly one top-level field spoiled (NUL, surrogate, depth, size …). */
function oneSpoiled(schema: JsonSchema): fc.Arbitrary<string> {
  const props = Object.keys((schema.properties ?? {}) as Record<string, JsonSchema>);
  if (schema.type !== "object" || props.length === 0) return cleanFor(schema);
  return fc.tuple(cleanFor(schema), fc.constantFrom(...props), fc.oneof(hostileJson, hostileString.map((v) => JSON.stringify(v)))).map(([clean, name, bad]) => {
    // Replace (or add) the field in the clean text: parse, set, re-serialise, then splice the raw hostile text in.
    const value = JSON.parse(clean) as Record<string, unknown>;
    value[name] = "\u0001SPOIL\u0001";
    return JSON.stringify(value).replace('"\\u0001SPOIL\\u0001"', () => bad);
  });
}

const badJson = fc.constantFrom("{", '{"a":}', "[1,2", "nul", "\u0000", '{"a":"\u0000"}', "\ufeff{}", '{"a":1}{"b":2}', "'single'", "{\"a\":\"\\x41\"}", "1e999999");

// ---- requests ----

interface HostileRequest {
  op: Operation;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A path parameter as sent: mostly percent-encoded, sometimes raw (traversal, bad encodings). */
const pathValue = fc.oneof(
  { weight: 4, arbitrary: hostileString.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "\ufffd")) || "x") },
  { weight: 2, arbitrary: fc.constantFrom("%zz", "%", "%00", "%ED%A0%80", "%C0%AE%C0%AE", "..", "..%2f..%2fetc", "%2e%2e%2f", "a".repeat(101), "a".repeat(5000), "x") },
  { weight: 1, arbitrary: fc.constantFrom("valid") },
);

const queryValue = fc.oneof(
  { weight: 3, arbitrary: hostileString.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "\ufffd"))) },
  { weight: 2, arbitrary: fc.constantFrom("%zz", "%00", "%ED%A0%80", "9223372036854775807", "Infinity", "-1", "1e308", "0x10", "1.5", "%2e%2e%2f", "a[b]=c", "") },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 100 }).map(String) },
);

function requestFor(op: Operation): fc.Arbitrary<HostileRequest> {
  const params = fc.tuple(...op.pathParams.map(() => pathValue));
  const queryEntries = Object.keys(op.query);
  const query = fc.tuple(...queryEntries.map(() => fc.option(queryValue, { freq: 2 })), sometimes(fc.tuple(hostileString, queryValue), 3));
  const body = op.body
    ? fc.oneof(
        { weight: 4, arbitrary: valueFor(op.body).map((text) => ({ text, type: "application/json" })) },
        { weight: 4, arbitrary: oneSpoiled(op.body).map((text) => ({ text, type: "application/json" })) },
        { weight: 1, arbitrary: cleanFor(op.body).map((text) => ({ text, type: "application/json" })) },
        { weight: 1, arbitrary: badJson.map((text) => ({ text, type: "application/json" })) },
        { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin1", "application/jsonx").map((type) => ({ text: "a=1", type })) },
      )
    : sometimes(hostileJson.map((text) => ({ text, type: "application/json" })), 2);
  const credential = fc.constantFrom("key", "key", "key", "key", "key", "key", "operator", "operator", "none", "garbage");
  const extraHeader = sometimes(
    fc.oneof(
      { weight: 1, arbitrary: fc.constantFrom(9_000, 17_000).map((n): [string, string] => ["x-long", "a".repeat(n)]) },
      {
        weight: 3,
        arbitrary: fc.constantFrom("idempotency-key", "x-svc-workspace-id", "traceparent", "accept").chain((name) =>
          fc
            .oneof(
              nasty.filter((s) => /^[\t\x20-\x7e]*$/.test(s)),
              fc.constantFrom("a".repeat(300), "application/json; profile=lean", "application/json; profile=audit", "text/event-stream"),
            )
            .map((v): [string, string] => [name, v]),
        ),
      },
    ),
    3,
  );
  return fc.tuple(params, query, body, credential, extraHeader).map(([values, q, b, cred, extra]) => {
    let path = op.path;
    op.pathParams.forEach((name, i) => {
      let value = values[i]!;
      if (value === "valid") value = name === "workspace_id" ? victim.id : name === "key_id" ? "key_" + "0".repeat(22) : "x";
      path = path.replace(`{${name}}`, value);
    });
    const pairs: string[] = [];
    queryEntries.forEach((name, i) => {
      const v = q[i];
      if (v !== null && v !== undefined) pairs.push(`${encodeURIComponent(name)}=${v}`);
    });
    const more = q[queryEntries.length] as [string, string] | null;
    if (more) pairs.push(`${encodeURIComponent(more[0].replace(/[\ud800-\udfff]/g, "\ufffd"))}=${more[1]}`);
    if (pairs.length) path += `?${pairs.join("&")}`;
    const headers: Record<string, string> = {};
    if (op.auth !== "public" || cred !== "key") {
      if (cred === "key") headers.authorization = `Bearer ${op.auth === "operator" ? ADMIN_TOKEN : ws.key}`;
      else if (cred === "operator") {
        headers.authorization = `Bearer ${ADMIN_TOKEN}`;
        if (op.auth === "runtime") headers["x-svc-workspace-id"] = ws.id;
      } else if (cred === "garbage") headers.authorization = "Bearer sk_svc_\u00ff\u00fe";
    }
    if (extra) headers[extra[0]] = extra[1];
    if (b) headers["content-type"] = b.type;
    return { op, path, headers, body: b?.text };
  });
}

const counts = { requests: 0, byStatus: new Map<number, number>(), byCode: new Map<string, number>() };

async function send(req: HostileRequest): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const response = await client.request({
    method: req.op.method as "GET",
    path: req.path,
    headers: req.headers,
    body: req.body === undefined ? undefined : Buffer.from(req.body, "utf8"),
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text };
}

function check(req: HostileRequest, reply: { status: number; headers: Record<string, string | string[] | undefined>; text: string }): void {
  const where = `${req.op.method} ${req.path.slice(0, 300)} (${req.op.path}) body=${String(req.body).slice(0, 300)} → ${reply.status} ${reply.text.slice(0, 600)}`;
  counts.requests += 1;
  counts.byStatus.set(reply.status, (counts.byStatus.get(reply.status) ?? 0) + 1);
  const trace = reply.headers["x-svc-trace-id"];
  if (typeof trace !== "string" || !/^[0-9a-f]{32}$/.test(trace)) throw new Error(`no X-Svc-Trace-ID: ${where}`);
  if (reply.status < 400) return;
  let body: any;
  try {
    body = JSON.parse(reply.text);
  } catch {
    throw new Error(`error body is not JSON: ${where}`);
  }
  const error = body?.error;
  for (const field of ["type", "code", "message", "hint", "doc_url"]) {
    if (typeof error?.[field] !== "string" || error[field] === "") throw new Error(`error.${field} missing: ${where}`);
  }
  if (body.trace_id !== trace) throw new Error(`trace_id differs from the header: ${where}`);
  counts.byCode.set(error.code, (counts.byCode.get(error.code) ?? 0) + 1);
  if (reply.status >= 500 && !req.op.declared5xx.has(error.code)) throw new Error(`undeclared ${reply.status} ${error.code}: ${where}`);
}

describe("fuzz: hostile requests for every operation of the OpenAPI document", () => {
  it(
    `${RUNS} requests (seed ${SEED}): canonical answers, no undeclared 5xx, the server stays up`,
    async () => {
      expect(ops.length).toBeGreaterThan(30);
      const arbitrary = fc.constantFrom(...ops).chain(requestFor);
      try {
        await fc.assert(
          fc.asyncProperty(arbitrary, async (req) => {
            check(req, await send(req));
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
      } catch (error) {
        const cause = (error as Error).cause as Error | undefined;
        throw new Error(`fuzz failed with seed ${SEED} (SVC_FUZZ_SEED=${SEED} to replay): ${cause?.message ?? ""}\n${(error as Error).message.slice(0, 2000)}`);
      } finally {
        const line = `fuzz: ${counts.requests} requests; by status ${JSON.stringify(Object.fromEntries([...counts.byStatus].sort((a, b) => a[0] - b[0])))}`;
        if (LONG_RUN) console.log(`${line}\nby code ${JSON.stringify(Object.fromEntries([...counts.byCode].sort((a, b) => b[1] - a[1])))}`);
      }
      const health = await call(server, "GET", "/api/v1/svc/health", { key: ws.key });
      expect(health.status).toBe(200);
    },
    LONG_RUN ? 3_600_000 : 120_000,
  );
});
