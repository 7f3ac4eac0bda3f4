// /api/v1/maas/workspaces/{workspace_id}/api-keys: the operator, or a key of that workspace, manages its keys.
import type { FastifyRequest } from "fastify";
import type { App } from "../../http/types.ts";
import { WorkspaceParams } from "../workspaces/schemas.ts";
import type { WorkspaceService } from "../workspaces/service.ts";
import { ApiKeyList, CreateApiKeyBody, IssuedApiKey, KeyParams, ListKeysQuery, toWire } from "./schemas.ts";
import type { ApiKeyService } from "./service.ts";

const tags = ["api-keys"];

export function registerApiKeyRoutes(app: App, deps: { apiKeys: ApiKeyService; workspaces: WorkspaceService }): void {
  const { apiKeys, workspaces } = deps;

  /** A key proves its workspace exists; the operator may name one that does not. */
  async function existingWorkspace(request: FastifyRequest, workspaceId: string): Promise<string> {
    if (request.principal?.kind === "operator") await workspaces.get(workspaceId);
    return workspaceId;
  }

  app.post(
    "/api/v1/maas/workspaces/:workspace_id/api-keys",
    {
      config: { auth: "workspace_admin", errors: ["workspace_not_found"] },
      schema: { tags, summary: "Create an API key", params: WorkspaceParams, body: CreateApiKeyBody, response: { 201: IssuedApiKey } },
    },
    async (request, reply) => {
      const workspaceId = await existingWorkspace(request, request.params.workspace_id);
      const { row, plaintext } = await apiKeys.create(workspaceId, request.body.name);
      return reply.code(201).send({ ...toWire(row), plaintext });
    },
  );

  app.get(
    "/api/v1/maas/workspaces/:workspace_id/api-keys",
    {
      config: { auth: "workspace_admin", errors: ["workspace_not_found"] },
      schema: { tags, summary: "List API keys (never their plaintext)", params: WorkspaceParams, querystring: ListKeysQuery, response: { 200: ApiKeyList } },
    },
    async (request) => {
      const workspaceId = await existingWorkspace(request, request.params.workspace_id);
      const rows = await apiKeys.list(workspaceId, request.query.include_revoked ?? false);
      return { keys: rows.map(toWire), count: rows.length };
    },
  );

  app.post(
    "/api/v1/maas/workspaces/:workspace_id/api-keys/:key_id/rotate",
    {
      config: { auth: "workspace_admin", errors: ["workspace_not_found", "api_key_not_found", "api_key_not_active"] },
      schema: { tags, summary: "Rotate an API key: a new active key; the old one fails with auth_rotating", params: KeyParams, response: { 200: IssuedApiKey } },
    },
    async (request) => {
      const workspaceId = await existingWorkspace(request, request.params.workspace_id);
      const { row, plaintext } = await apiKeys.rotate(workspaceId, request.params.key_id);
      return { ...toWire(row), plaintext };
    },
  );

  app.delete(
    "/api/v1/maas/workspaces/:workspace_id/api-keys/:key_id",
    {
      config: { auth: "workspace_admin", errors: ["workspace_not_found", "api_key_not_found"] },
      schema: { tags, summary: "Revoke an API key (204, empty body)", params: KeyParams, response: { 204: { type: "null", description: "Revoked" } } },
    },
    async (request, reply) => {
      const workspaceId = await existingWorkspace(request, request.params.workspace_id);
      await apiKeys.revoke(workspaceId, request.params.key_id);
      return reply.code(204).send(null);
    },
  );
}
