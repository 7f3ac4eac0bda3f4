import { Type, type Static } from "typebox";
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
});

export const CredentialList = Type.Object({ credentials: Type.Array(CredentialMetadata), count: Type.Integer() });

export const CredentialParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export function toWire(row: CredentialRow): CredentialMetadata {
  return {
    id: row.id,
    provider: row.provider,
    name: row.name,
    credential_name: row.name,
    type: row.type,
    is_active: row.deletedAt === null,
    has_credential_data: row.secret !== "",
    created_at: row.createdAt.toISOString(),
  };
}
