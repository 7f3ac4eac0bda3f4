// Authentication and rate limiting at the edge, before any body is read. A workspace key resolves to its
// workspace from an in-memory cache (no database read on the hot path); the operator token is compared in
// constant time. Failed authentications count against the client address, and an address over its limit
// is refused before any key lookup, so guessing keys is slow.
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest, onRequestHookHandler } from "fastify";
import { AppError } from "../errors/app-error.ts";
import type { ErrorCode } from "../errors/catalog.ts";
import { KEY_PREFIX } from "../modules/api-keys/key-format.ts";
import type { ApiKeyService, VerifiedKey } from "../modules/api-keys/service.ts";
import type { WorkspaceService } from "../modules/workspaces/service.ts";
import type { RateLimits } from "./rate-limit.ts";
import type { App, AuthMode, Principal } from "./types.ts";

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

  // The operator token may not look like a key (config refuses it), so keys skip the operator comparison.
  const isOperatorToken = (token: string): boolean =>
    adminDigest !== undefined && !token.startsWith(KEY_PREFIX) && timingSafeEqual(sha256(token), adminDigest);

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

  async function operatorFor(request: FastifyRequest, mode: AuthMode): Promise<Principal> {
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

  /** A key may act only within its own workspace, and never on operator-only routes. */
  function keyPrincipal(request: FastifyRequest, mode: AuthMode, verified: VerifiedKey): Principal {
    if (mode === "operator") throw new AppError("auth_forbidden", { message: "Only the operator token may use this route." });
    if (mode === "workspace_admin") {
      const target = (request.params as { workspace_id?: string }).workspace_id;
      if (target !== verified.workspaceId) throw new AppError("auth_forbidden", { message: "This key belongs to another workspace." });
    }
    return verified;
  }

  // Plain string checks instead of a regular expression: measurably cheaper on every authenticated request.
  function bearer(request: FastifyRequest): string | undefined {
    const header = request.headers.authorization;
    if (header === undefined || header.length < 8) return undefined;
    const scheme = header.slice(0, 7);
    if (scheme !== "Bearer " && scheme.toLowerCase() !== "bearer ") return undefined;
    const token = header.slice(7).trim();
    return token === "" || /\s/.test(token) ? undefined : token;
  }

  async function authenticate(request: FastifyRequest, mode: AuthMode): Promise<Principal> {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === "") {
      await guardAddress(request);
      return refuse(request, "auth_missing");
    }
    const token = bearer(request);
    if (!token) {
      await guardAddress(request);
      return refuse(request, "auth_invalid");
    }
    if (isOperatorToken(token)) return operatorFor(request, mode);
    let verified: VerifiedKey;
    try {
      verified = await apiKeys.verify(token, () => guardAddress(request));
    } catch (error) {
      if (error instanceof AppError && error.status === 401) {
        await guardAddress(request);
        return refuse(request, error.code);
      }
      throw error;
    }
    return keyPrincipal(request, mode, verified);
  }

  const consume = (principal: Principal, done: (error?: Error) => void): void =>
    principal.kind === "key" ? limits.consume(principal.keyId, principal.workspaceId, done) : limits.consume("operator", undefined, done);

  // Bound to each route when it is registered, with the route's mode: no per-request lookup of the mode,
  // and a route cannot exist without its authentication decided (public routes say so explicitly).
  // Callback style on purpose: a key whose verification is cached is resolved without awaiting anything,
  // and every await saved on this path is throughput on every authenticated route.
  function authHook(mode: Exclude<AuthMode, "public">): onRequestHookHandler {
    return (request, _reply, done) => {
      let principal: Principal | undefined;
      try {
        const token = bearer(request);
        const cached = token && !isOperatorToken(token) ? apiKeys.verifyCached(token) : undefined;
        if (cached) principal = keyPrincipal(request, mode, cached);
      } catch (error) {
        return done(error as Error);
      }
      if (principal) {
        request.principal = principal;
        return consume(principal, done);
      }
      authenticate(request, mode).then((p) => {
        request.principal = p;
        consume(p, done);
      }, done);
    };
  }

  app.addHook("onRoute", (route) => {
    const mode = route.config?.auth ?? "runtime";
    if (mode === "public") return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [authHook(mode), ...existing];
  });
}
