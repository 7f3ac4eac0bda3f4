// A small real HTTPS service for OpenAPI import tests: it serves its own OpenAPI document (JSON and YAML)
// and implements the operations, checking the credentials each operation's security scheme asks for, and
// records every request so tests can see what the service under test really sent.
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { stringify } from "yaml";
import type { TestCertificate } from "./tls.ts";

export const SHOP_API_KEY = "shop-key-5f1c0a9e7d3b";
export const SHOP_TOKEN = "shop-bearer-8a2e6c4f0b1d";
export const SHOP_USER = { username: "clerk", password: "shop-pass-3c9e1a7f" };

export const SHOP_SPEC = {
  openapi: "3.0.3",
  info: { title: "Shop", version: "1.0" },
  servers: [{ url: "/api" }],
  security: [{ apiKey: [] }],
  components: {
    securitySchemes: {
      apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
      bearer: { type: "http", scheme: "bearer" },
      basic: { type: "http", scheme: "basic" },
      queryKey: { type: "apiKey", in: "query", name: "api_key" },
    },
    parameters: {
      OrderId: { name: "order_id", in: "path", required: true, description: "The order's id", schema: { type: "string", minLength: 1 } },
    },
    schemas: {
      Refund: {
        type: "object",
        required: ["order_id", "amount"],
        properties: {
          id: { type: "string", readOnly: true },
          order_id: { type: "string" },
          amount: { type: "number", minimum: 0, exclusiveMinimum: true },
          reason: { type: "string", nullable: true },
        },
        additionalProperties: false,
      },
      Category: {
        type: "object",
        properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Category" } } },
      },
    },
  },
  paths: {
    "/orders/{order_id}": {
      parameters: [{ $ref: "#/components/parameters/OrderId" }],
      get: {
        operationId: "get_order",
        summary: "Look up an order",
        parameters: [{ name: "expand", in: "query", schema: { type: "boolean" } }],
      },
    },
    "/refunds": {
      post: {
        operationId: "refund_order",
        summary: "Refund an order",
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Refund" } } } },
      },
    },
    "/categories": {
      post: { summary: "Create a category", requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Category" } } } } },
    },
    "/whoami/bearer": { get: { operationId: "whoami_bearer", summary: "Who the bearer token is", security: [{ bearer: [] }] } },
    "/whoami/basic": { get: { operationId: "whoami_basic", summary: "Who the basic credentials are", security: [{ basic: [] }] } },
    "/whoami/query": { get: { operationId: "whoami_query", summary: "Who the query key is", security: [{ queryKey: [] }] } },
    "/status": { get: { operationId: "shop_status", summary: "Health of the shop (fails while broken)", security: [] } },
    "/upload": {
      post: { operationId: "upload_file", requestBody: { required: true, content: { "multipart/form-data": { schema: { type: "object" } } } } },
    },
  },
};

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface ShopApi {
  /** https://127.0.0.1:port and https://127.0.0.2:port (two listeners, the same service). */
  url: string;
  url2: string;
  requests: RecordedRequest[];
  /** While true, /api/status answers 503. */
  broken: boolean;
  /** The next this many calls of /api/status answer 503 (then `broken` decides again). */
  failuresLeft: number;
}

function json(res: import("node:http").ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export function useShopApi(tls: TestCertificate): () => ShopApi {
  const state: ShopApi = { url: "", url2: "", requests: [], broken: true, failuresLeft: 0 };
  const servers: Server[] = [];
  const handler = (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "https://shop.local");
      const body = Buffer.concat(chunks).toString("utf8");
      if (url.pathname.startsWith("/api/")) {
        state.requests.push({ method: req.method ?? "", path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body });
      }
      const path = url.pathname;
      if (path === "/openapi.json") return json(res, 200, SHOP_SPEC);
      if (path === "/openapi.yaml") {
        res.writeHead(200, { "content-type": "application/yaml" });
        return res.end(stringify(SHOP_SPEC));
      }
      if (path === "/redirect") {
        res.writeHead(302, { location: url.searchParams.get("to") ?? "/openapi.json" });
        return res.end();
      }
      if (path === "/missing") return json(res, 404, { error: "no such document" });
      if (path === "/not-a-document") {
        res.writeHead(200, { "content-type": "text/yaml" });
        return res.end("openapi: [3.0\n  info: {");
      }
      if (path === "/html") {
        res.writeHead(200, { "content-type": "text/html" });
        return res.end("<html><body>Not here</body></html>");
      }
      if (path === "/no-paths") return json(res, 200, { openapi: "3.0.0", info: { title: "x", version: "1" } });
      if (path === "/swagger") return json(res, 200, { swagger: "2.0", info: { title: "x", version: "1" }, paths: {} });
      if (path === "/huge") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(`{"openapi":"3.0.0","info":{"title":"x","version":"1"},"paths":{},"pad":"${"x".repeat(3 * 1024 * 1024)}"}`);
      }
      if (path === "/slow") {
        setTimeout(() => json(res, 200, SHOP_SPEC), 3_000).unref();
        return;
      }
      if (path.startsWith("/api/orders/") && req.method === "GET") {
        if (req.headers["x-api-key"] !== SHOP_API_KEY) return json(res, 401, { error: "bad api key" });
        const id = decodeURIComponent(path.slice("/api/orders/".length));
        return json(res, 200, { id, status: "shipped", total: 42.5, ...(url.searchParams.get("expand") === "true" ? { items: [{ sku: "A-1", qty: 2 }] } : {}) });
      }
      if (path === "/api/refunds" && req.method === "POST") {
        if (req.headers["x-api-key"] !== SHOP_API_KEY) return json(res, 401, { error: "bad api key" });
        return json(res, 201, { refund_id: "rf_1", ...JSON.parse(body || "{}") });
      }
      if (path === "/api/categories" && req.method === "POST") return json(res, 201, JSON.parse(body || "{}"));
      if (path === "/api/whoami/bearer") return json(res, req.headers.authorization === `Bearer ${SHOP_TOKEN}` ? 200 : 401, { ok: req.headers.authorization === `Bearer ${SHOP_TOKEN}` });
      if (path === "/api/whoami/basic") {
        const expected = `Basic ${Buffer.from(`${SHOP_USER.username}:${SHOP_USER.password}`).toString("base64")}`;
        return json(res, req.headers.authorization === expected ? 200 : 401, { user: req.headers.authorization === expected ? SHOP_USER.username : null });
      }
      if (path === "/api/whoami/query") return json(res, url.searchParams.get("api_key") === SHOP_API_KEY ? 200 : 401, { ok: url.searchParams.get("api_key") === SHOP_API_KEY });
      if (path === "/api/status" && state.failuresLeft > 0) {
        state.failuresLeft--;
        return json(res, 503, { error: "maintenance" });
      }
      if (path === "/api/status") return state.broken ? json(res, 503, { error: "maintenance" }) : json(res, 200, { status: "ok" });
      json(res, 404, { error: "not found" });
    });
  };
  beforeAll(async () => {
    for (const host of ["127.0.0.1", "127.0.0.2"]) {
      const server = createServer({ cert: tls.cert, key: tls.key }, handler);
      await new Promise<void>((resolve) => server.listen(0, host, resolve));
      servers.push(server);
    }
    state.url = `https://127.0.0.1:${(servers[0]!.address() as AddressInfo).port}`;
    state.url2 = `https://127.0.0.2:${(servers[1]!.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  return () => state;
}
