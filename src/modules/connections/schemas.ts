import { Type } from "typebox";
import type { CatalogIntegration } from "./catalog.ts";
import type { Connection } from "./service.ts";

const Integration = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  category: Type.String(),
  capabilities: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  provider: Type.String(),
  status: Type.String({ description: "available or installed" }),
  auth_type: Type.String(),
  install_time: Type.String(),
  popularity: Type.Integer(),
  featured: Type.Boolean(),
});

export const CatalogResponse = Type.Object({
  categories: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), integrations: Type.Array(Integration) })),
  installed: Type.Array(Type.String()),
  total_available: Type.Integer(),
});

export const InstallBody = Type.Object({ integration_id: Type.String({ minLength: 1, maxLength: 100 }) });

const ConnectionItem = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  integration_id: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  provider: Type.String(),
  status: Type.String({ description: "connected; pending_auth until a credential for the provider exists; degraded while an imported connection's calls fail" }),
  health: Type.String(),
  auth_type: Type.Union([Type.String(), Type.Null()]),
  capabilities: Type.Array(Type.String({ description: "Catalog capabilities, or the tool names of an imported connection" })),
  transport: Type.Optional(Type.String({ description: "MCP: http or sse" })),
  url: Type.Optional(Type.String({ description: "MCP: the server's URL" })),
  spec_url: Type.Optional(Type.String({ description: "OpenAPI: where the document was fetched" })),
  created_at: Type.String({ format: "date-time" }),
});

export const InstallResponse = Type.Object({
  ...ConnectionItem.properties,
  auth_url: Type.Optional(Type.String({ description: "Where to add the credential while pending_auth" })),
  estimated_time: Type.String(),
});

export const ConnectionList = Type.Object({
  connections: Type.Array(
    Type.Object({
      capability: Type.String(),
      status: Type.String(),
      pathways: Type.Array(
        Type.Object({ id: Type.String(), capability: Type.String(), connector: Type.String(), transport: Type.String(), health: Type.String(), tool_id: Type.String() }),
      ),
    }),
  ),
  items: Type.Array(ConnectionItem),
  total_capabilities: Type.Integer(),
  count: Type.Integer(),
});

export const Capabilities = Type.Object({
  available: Type.Array(
    Type.Object({
      name: Type.String(),
      human_name: Type.String(),
      description: Type.String(),
      health: Type.String(),
      source: Type.String(),
      status: Type.String(),
      category: Type.String(),
      functions: Type.Optional(Type.Array(Type.String())),
    }),
  ),
  gaps: Type.Array(
    Type.Object({ capability: Type.String(), reason: Type.String(), description: Type.String(), blocking: Type.Boolean(), severity: Type.String(), source: Type.String() }),
  ),
  count: Type.Integer(),
});

export const ConnectBody = Type.Object({ capability: Type.String({ minLength: 1, maxLength: 200 }) });
export const ConnectResponse = Type.Object({
  type: Type.String(),
  capability: Type.String(),
  detail: Type.Object({}, { additionalProperties: true }),
});

export const ConnectionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** A connection's health in the wire reference's HealthStatus terms. */
export const healthOf = (connection: Connection) =>
  connection.status === "connected" ? "healthy" : connection.status === "degraded" ? "degraded" : "latent";

/** The transport of a connection's pathway: an MCP server's, else plain HTTP. */
export const transportOf = (connection: Connection) => {
  const transport = (connection.row.config as { transport?: unknown }).transport;
  return connection.row.kind === "mcp" && typeof transport === "string" ? transport : "http";
};

export function integrationToWire(entry: CatalogIntegration, installed: Set<string>) {
  return { ...entry, status: installed.has(entry.id) ? "installed" : "available" };
}

export function connectionToWire(connection: Connection) {
  const { row, integration } = connection;
  return {
    id: row.id,
    kind: row.kind,
    integration_id: row.integrationId,
    name: row.name,
    provider: row.provider,
    status: connection.status,
    health: healthOf(connection),
    auth_type: integration?.auth_type ?? null,
    capabilities: connection.capabilities,
    ...(row.kind === "mcp" ? { transport: transportOf(connection), url: String((row.config as { url?: unknown }).url ?? "") } : {}),
    ...(row.kind === "openapi" && typeof (row.config as { spec_url?: unknown }).spec_url === "string" ? { spec_url: (row.config as { spec_url: string }).spec_url } : {}),
    created_at: row.createdAt.toISOString(),
  };
}
