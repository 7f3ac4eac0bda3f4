// The OpenAPI 3.1 document is generated from the routes' own schemas. This hook also gives every route its
// error responses: the canonical error body under each status the route can answer, listing the codes.
import swagger from "@fastify/swagger";
import { Type } from "typebox";
import { CATALOG, type ErrorCode } from "../errors/catalog.ts";
import type { App, AuthMode } from "./types.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Catalog codes the route's own logic can answer with (the edge's codes are added automatically). */
    errors?: ErrorCode[];
  }
}

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      type: Type.String(),
      code: Type.String(),
      message: Type.String(),
      hint: Type.String(),
      doc_url: Type.String(),
      next_action: Type.Object({ type: Type.String(), label: Type.String() }),
      details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
      retry_after: Type.Optional(Type.Integer()),
    }),
    message: Type.String(),
    hint: Type.String(),
    trace_id: Type.String(),
  },
  { $id: "ErrorResponse", description: "Canonical error body" },
);

function edgeCodes(auth: AuthMode, method: string, hasBody: boolean): ErrorCode[] {
  const codes: ErrorCode[] = ["internal_error", "store_unavailable"];
  if (auth !== "public") codes.push("auth_missing", "auth_invalid", "auth_revoked", "auth_rotating", "rate_limited");
  if (auth === "operator" || auth === "workspace_admin") codes.push("auth_forbidden");
  if (auth === "runtime") codes.push("tenant_required");
  if (hasBody) codes.push("invalid_request", "payload_too_large", "unsupported_media_type");
  if (["POST", "PUT", "PATCH"].includes(method) && auth !== "public") {
    codes.push("idempotency_key_reused", "idempotency_key_in_use", "invalid_request");
  }
  return codes;
}

export async function registerOpenApi(app: App, info: { version: string; publicUrl: string }): Promise<void> {
  app.addSchema(ErrorResponse);
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Governed intent service",
        version: info.version,
        description: "Runtime API under /api/v1/svc, workspace administration under /api/v1/maas. Errors: /infra/docs/errors.",
      },
      servers: [{ url: info.publicUrl }],
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "An API key (sk_svc_…) or the operator token" } },
      },
      security: [{ bearer: [] }],
    },
    // Documentation only: the operator's workspace header is read by the auth hook, not validated per route.
    transform: ({ schema, url, route }) => {
      if ((route.config?.auth ?? "runtime") !== "runtime" || url.startsWith("/infra")) return { schema, url };
      const headers = (schema as { headers?: { properties?: object } } | undefined)?.headers;
      return {
        schema: {
          ...schema,
          headers: {
            type: "object",
            properties: {
              ...(headers?.properties ?? {}),
              "x-svc-workspace-id": { type: "string", description: "Operator only: the workspace to act on" },
            },
          },
        },
        url,
      };
    },
  });

  app.addHook("onRoute", (route) => {
    if (route.method === "HEAD" || route.url === "*" || route.url.startsWith("/documentation")) return;
    const auth = route.config?.auth ?? "runtime";
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    if (auth === "public") schema.security = [];
    const codes = new Set<ErrorCode>([...edgeCodes(auth, methods[0]!, Boolean(schema.body) || Boolean(schema.querystring)), ...(route.config?.errors ?? [])]);
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of codes) {
      const status = CATALOG[code].status;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    const response = (schema.response ??= {}) as Record<string, unknown>;
    for (const [status, list] of byStatus) {
      response[String(status)] ??= {
        description: `Error: ${list.sort().join(", ")}`,
        content: { "application/json": { schema: { $ref: "ErrorResponse#" } } },
      };
    }
  });
}
