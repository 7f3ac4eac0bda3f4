// /api/v1/svc/connections and /api/v1/svc/capabilities: what a workspace can do. Literal paths (catalog,
// install) are matched before {id}. The imports that make tools (POST /connections/openapi and
// /connections/mcp) are in src/modules/tools/routes.ts, beside the tools they create.
import { actorOf, workspaceIdOf, type App } from "../../http/types.ts";
import { Deleted } from "../../http/wire.ts";
import { CATEGORIES } from "./catalog.ts";
import {
  Capabilities,
  CatalogResponse,
  ConnectBody,
  ConnectResponse,
  ConnectionList,
  ConnectionParams,
  InstallBody,
  InstallResponse,
  connectionToWire,
  healthOf,
  integrationToWire,
  transportOf,
} from "./schemas.ts";
import type { ConnectionService } from "./service.ts";

const tags = ["connections"];

export function registerConnectionRoutes(app: App, connections: ConnectionService): void {
  app.get(
    "/api/v1/svc/connections/catalog",
    { schema: { tags, summary: "The catalog of integrations, by category", response: { 200: CatalogResponse } } },
    async (request) => {
      const { integrations, installed } = await connections.catalog(workspaceIdOf(request.principal));
      const installedSet = new Set(installed);
      return {
        categories: Object.entries(CATEGORIES).map(([name, description]) => ({
          name,
          description,
          integrations: integrations.filter((entry) => entry.category === name).map((entry) => integrationToWire(entry, installedSet)),
        })),
        installed,
        total_available: integrations.length,
      };
    },
  );

  app.post(
    "/api/v1/svc/connections/install",
    {
      config: { errors: ["connection_not_found"] },
      schema: { tags, summary: "Install a catalog integration (pending_auth until its provider has a credential)", body: InstallBody, response: { 200: InstallResponse, 201: InstallResponse } },
    },
    async (request, reply) => {
      const { connection, created } = await connections.install(actorOf(request), request.body.integration_id);
      const wire = connectionToWire(connection);
      return reply.code(created ? 201 : 200).send({
        ...wire,
        ...(connection.status === "pending_auth" ? { auth_url: "/api/v1/svc/credentials" } : {}),
        estimated_time: connection.integration?.install_time ?? "30s",
      });
    },
  );

  app.get(
    "/api/v1/svc/connections",
    { schema: { tags, summary: "Connections, grouped by capability, with health", response: { 200: ConnectionList } } },
    async (request) => {
      const list = await connections.list(workspaceIdOf(request.principal));
      const groups = new Map<string, { capability: string; status: string; pathways: { id: string; capability: string; connector: string; transport: string; health: string; tool_id: string }[] }>();
      // A group is as well as its best pathway: healthy, else degraded, else latent.
      const rank: Record<string, number> = { latent: 0, degraded: 1, healthy: 2 };
      for (const connection of list) {
        const health = healthOf(connection);
        for (const capability of connection.capabilities) {
          const group = groups.get(capability) ?? { capability, status: "latent", pathways: [] };
          group.pathways.push({
            id: connection.row.id,
            capability,
            connector: connection.row.kind === "catalog" ? "builtin" : connection.row.kind,
            transport: transportOf(connection),
            health,
            tool_id: connection.row.id,
          });
          if ((rank[health] ?? 0) > (rank[group.status] ?? 0)) group.status = health;
          groups.set(capability, group);
        }
      }
      return { connections: [...groups.values()], items: list.map(connectionToWire), total_capabilities: groups.size, count: list.length };
    },
  );

  app.post(
    "/api/v1/svc/connections",
    { config: { errors: ["connection_not_found"] }, schema: { tags, summary: "Resolve a capability to the best way to get it", body: ConnectBody, response: { 200: ConnectResponse } } },
    async (request) => connections.connect(workspaceIdOf(request.principal), request.body.capability),
  );

  app.delete(
    "/api/v1/svc/connections/:id",
    { config: { errors: ["connection_not_found"] }, schema: { tags, summary: "Delete a connection", params: ConnectionParams, response: { 200: Deleted } } },
    async (request) => {
      await connections.delete(actorOf(request), request.params.id);
      return { id: request.params.id, status: "deleted" as const };
    },
  );

  app.get(
    "/api/v1/svc/capabilities",
    { schema: { tags: ["capabilities"], summary: "What the workspace can do now, and what is installed but not authorised", response: { 200: Capabilities } } },
    async (request) => {
      const list = await connections.list(workspaceIdOf(request.principal));
      const available = list
        .filter((c) => c.status !== "pending_auth")
        .flatMap((c) =>
          c.row.kind === "catalog"
            ? c.capabilities.map((name) => ({
                name,
                human_name: `${name} (${c.row.name})`,
                description: c.integration?.description ?? c.row.name,
                health: healthOf(c),
                source: "builtin",
                status: c.status,
                category: c.integration?.category ?? "other",
              }))
            : c.tools.map((tool) => ({
                name: tool.name,
                human_name: `${tool.name} (${c.row.name})`,
                description: tool.description || c.row.name,
                health: healthOf(c),
                source: c.row.kind,
                status: c.status,
                category: c.row.kind,
                functions: [tool.name],
              })),
        );
      const gaps = list
        .filter((c) => c.status === "pending_auth")
        .flatMap((c) =>
          c.capabilities.map((capability) => ({
            capability,
            reason: "pending_auth",
            description: `${c.row.name} is installed but has no credential for provider "${c.row.provider}": POST /api/v1/svc/credentials.`,
            blocking: true,
            severity: "blocking",
            source: "builtin",
          })),
        );
      return { available, gaps, count: available.length };
    },
  );
}
