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
  status: Type.String({ description: "connected, or pending_auth until a credential for the provider exists" }),
  health: Type.String(),
  auth_type: Type.Union([Type.String(), Type.Null()]),
  capabilities: Type.Array(Type.String()),
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
    Type.Object({ name: Type.String(), human_name: Type.String(), description: Type.String(), health: Type.String(), source: Type.String(), status: Type.String(), category: Type.String() }),
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
export const healthOf = (connection: Connection) => (connection.status === "connected" ? "healthy" : "latent");

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
    created_at: row.createdAt.toISOString(),
  };
}
