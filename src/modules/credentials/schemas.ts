import { Type, type Static } from "typebox";
import type { CredentialHosts } from "./hosts.ts";
import type { CredentialRow } from "./store.ts";

/** Metadata only: the secret never leaves the vault. */
export const CredentialMetadata = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  name: Type.String(),
  credential_name: Type.String({ description: "Same as name (older clients read this key)" }),
  type: Type.String(),
  is_active: Type.Boolean(),
  has_credential_data: Type.Boolean(),
  allowed_hosts: Type.Array(Type.String(), {
    description: "The only hosts the secret is ever sent to (`*.example.com`: any subdomain); empty until an unbound credential's first use",
  }),
  hosts_source: Type.Union([Type.Literal("declared"), Type.Literal("catalog"), Type.Literal("first_use"), Type.Literal("unbound")], {
    description: "declared: allowed_hosts named at creation; catalog: the provider's API hosts; first_use: bound to the first connection's host; unbound: not used yet",
  }),
  bound_host: Type.Optional(Type.String({ description: "The host of the first connection that used it (hosts_source first_use)" })),
  created_at: Type.String({ format: "date-time" }),
});
export type CredentialMetadata = Static<typeof CredentialMetadata>;

/**
 * Deliberately loose: the contract answers missing fields with 500 `credential_creation_failed`, which the
 * service raises, not a 400 from schema validation.
 */
export const CreateCredentialBody = Type.Object({
  provider: Type.Optional(Type.Unknown()),
  name: Type.Optional(Type.Unknown()),
  credential_name: Type.Optional(Type.Unknown()),
  key_data: Type.Optional(Type.Unknown()),
  type: Type.Optional(Type.Unknown()),
  allowed_hosts: Type.Optional(
    Type.Unknown({ description: "Host names (or `*.example.com`) the secret may be sent to; without it, a catalog provider's API hosts, else the first connection's host" }),
  ),
});

export const CredentialList = Type.Object({ credentials: Type.Array(CredentialMetadata), count: Type.Integer() });

export const CredentialParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export function toWire(row: CredentialRow, hosts: CredentialHosts): CredentialMetadata {
  return {
    id: row.id,
    provider: row.provider,
    name: row.name,
    credential_name: row.name,
    type: row.type,
    is_active: row.deletedAt === null,
    has_credential_data: row.secret !== "",
    allowed_hosts: hosts.hosts,
    hosts_source: hosts.source,
    ...(row.boundHost && hosts.source === "first_use" ? { bound_host: row.boundHost } : {}),
    created_at: row.createdAt.toISOString(),
  };
}
