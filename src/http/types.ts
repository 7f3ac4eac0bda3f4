import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { Actor } from "../events/audit.ts";
import type { VerifiedKey } from "../modules/api-keys/service.ts";

/**
 * Who is calling. A workspace key acts for its own workspace; the operator (SVC_ADMIN_TOKEN) acts for the
 * workspace it names (X-Svc-Workspace-ID on runtime routes, the path on administration routes), or for
 * none on operator-only routes.
 */
export type Principal = VerifiedKey | { kind: "operator"; workspaceId: string | undefined; workspaceName: string | undefined };

/**
 * How a route authenticates: `public` (no credential), `runtime` (a key, or the operator naming a
 * workspace in X-Svc-Workspace-ID), `operator` (the operator token only), `workspace_admin` (the operator,
 * or a key of the workspace in the path's `workspace_id`).
 */
export type AuthMode = "public" | "runtime" | "operator" | "workspace_admin";

declare module "fastify" {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** Set false on a POST that must never be replayed from the idempotency store. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | undefined;
    idempotency: { scope: string; key: string } | undefined;
  }
}

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** The workspace a runtime route acts on; the auth hook guarantees it is set there. */
export function workspaceIdOf(principal: Principal | undefined): string {
  if (!principal?.workspaceId) throw new Error("route reached without a workspace principal");
  return principal.workspaceId;
}

/** The actor of a mutation, for the audit log: who (key or operator), for which workspace, in which request. */
export function actorOf(request: { principal: Principal | undefined; id: string }): Actor {
  const principal = request.principal;
  const workspaceId = workspaceIdOf(principal);
  return principal!.kind === "key"
    ? { workspaceId, type: "key", id: principal!.keyId, traceId: request.id }
    : { workspaceId, type: "operator", traceId: request.id };
}
