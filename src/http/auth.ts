// Authentication and rate limiting at the edge, before any body is read. A workspace key resolves to its
// workspace from an in-memory cache (no database read on the hot path); the operator token is compared in
// constant time. Failed authentications count against the client address, and an address over its limit
// is refused before any key lookup, so guessing keys is slow.
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { AppError } from "../errors/app-error.ts";
import type { ErrorCode } from "../errors/catalog.ts";
import type { ApiKeyService } from "../modules/api-keys/service.ts";
import type { WorkspaceService } from "../modules/workspaces/service.ts";
import type { RateLimits } from "./rate-limit.ts";
import type { App, Principal } from "./types.ts";

export const WORKSPACE_HEADER = "x-svc-workspace-id";

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

export interface AuthDeps {
  adminToken: string | undefined;
  apiKeys: ApiKeyService;
  workspaces: WorkspaceService;
  limits: RateLimits;
}

export function registerAuth(app: App, deps: AuthDeps): void {
  const { apiKeys, workspaces, limits } = deps;
  const adminDigest = deps.adminToken ? sha256(deps.adminToken) : undefined;
  app.decorateRequest("principal", undefined);

  const isOperatorToken = (token: string): boolean => adminDigest !== undefined && timingSafeEqual(sha256(token), adminDigest);

  async function refuse(request: FastifyRequest, code: ErrorCode): Promise<never> {
    await limits.recordAuthFailure(request.ip);
    throw new AppError(code);
  }

  async function guardAddress(request: FastifyRequest): Promise<void> {
    const wait = await limits.authBlockedFor(request.ip);
    if (wait > 0) {
      throw new AppError("rate_limited", {
        retryAfter: wait,
        message: `Too many failed authentications from this address; retry in ${wait} s.`,
      });
    }
  }

  async function operatorFor(request: FastifyRequest): Promise<Principal> {
    const mode = request.routeOptions.config?.auth;
    if (mode === "workspace_admin") {
      const workspaceId = (request.params as { workspace_id?: string }).workspace_id;
      return { kind: "operator", workspaceId, workspaceName: undefined };
    }
    if (mode === "operator") return { kind: "operator", workspaceId: undefined, workspaceName: undefined };
    const named = request.headers[WORKSPACE_HEADER];
    const workspace = typeof named === "string" && named !== "" ? await workspaces.find(named) : undefined;
    if (!workspace) {
      throw new AppError("tenant_required", {
        message:
          typeof named === "string" && named !== ""
            ? `No workspace with id ${named}; the operator must name an existing workspace in X-Svc-Workspace-ID.`
            : "The operator must name the workspace in the X-Svc-Workspace-ID header on runtime routes.",
      });
    }
    return { kind: "operator", workspaceId: workspace.id, workspaceName: workspace.name };
  }

  app.addHook("onRequest", async (request) => {
    if (request.is404) return;
    const mode = request.routeOptions.config?.auth ?? "runtime";
    if (mode === "public") return;

    const header = request.headers.authorization;
    if (header === undefined || header.trim() === "") {
      await guardAddress(request);
      return refuse(request, "auth_missing");
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      await guardAddress(request);
      return refuse(request, "auth_invalid");
    }
    const token = match[1]!;

    let principal: Principal;
    if (isOperatorToken(token)) {
      principal = await operatorFor(request);
    } else {
      let verified;
      try {
        verified = await apiKeys.verify(token, () => guardAddress(request));
      } catch (error) {
        if (error instanceof AppError && error.status === 401) {
          await guardAddress(request);
          return refuse(request, error.code);
        }
        throw error;
      }
      principal = { kind: "key", ...verified };
      if (mode === "operator") throw new AppError("auth_forbidden", { message: "Only the operator token may use this route." });
      if (mode === "workspace_admin") {
        const target = (request.params as { workspace_id?: string }).workspace_id;
        if (target !== verified.workspaceId) {
          throw new AppError("auth_forbidden", { message: "This key belongs to another workspace." });
        }
      }
    }
    request.principal = principal;
    if (principal.kind === "key") await limits.consume(principal.keyId, principal.workspaceId);
    else await limits.consume("operator", undefined);
  });
}
