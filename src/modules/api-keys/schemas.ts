import { Type, type Static } from "typebox";
import { KEY_PREFIX } from "./key-format.ts";
import type { ApiKeyRow } from "./store.ts";

const Timestamp = Type.String({ format: "date-time" });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  key_prefix: Type.String({ description: "Always sk_svc_" }),
  status: Type.Union([Type.Literal("active"), Type.Literal("rotating"), Type.Literal("revoked")]),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
  rotated_from: Nullable(Type.String()),
});
export type ApiKey = Static<typeof ApiKey>;

export const IssuedApiKey = Type.Object({
  ...ApiKey.properties,
  plaintext: Type.String({ description: "The full key; shown only in this response" }),
});

export const ApiKeyList = Type.Object({ keys: Type.Array(ApiKey), count: Type.Integer() });

export const CreateApiKeyBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });

export const KeyParams = Type.Object({
  workspace_id: Type.String({ minLength: 1, maxLength: 64 }),
  key_id: Type.String({ minLength: 1, maxLength: 64 }),
});

export const ListKeysQuery = Type.Object({
  include_revoked: Type.Optional(Type.Boolean({ description: "Also list revoked keys" })),
});

export function toWire(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    key_prefix: KEY_PREFIX,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    rotated_from: row.rotatedFrom,
  };
}
