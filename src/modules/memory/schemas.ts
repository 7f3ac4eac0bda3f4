import { Type, type Static } from "typebox";
import type { MemoryRow, SearchHit } from "./store.ts";

const AtomFields = {
  id: Type.String({ format: "uuid" }),
  type: Type.String(),
  kind: Type.String({ description: "Same as type" }),
  domain: Type.String(),
  scope: Type.String(),
  classified: Type.Boolean(),
  content: Type.Object({}, { additionalProperties: true, description: "Has a non-empty `text`; other keys are kept" }),
  authority: Type.Integer(),
  version: Type.Integer(),
  tags: Type.Array(Type.String()),
  classifications: Type.Object({}, { additionalProperties: true }),
  created_at: Type.String({ format: "date-time" }),
  updated_at: Type.String({ format: "date-time" }),
};

export const Atom = Type.Object(AtomFields);
export type Atom = Static<typeof Atom>;

export const CreatedAtom = Type.Object({ ...AtomFields, indexed: Type.Boolean() });

export const SearchResults = Type.Object({
  results: Type.Array(Type.Object({ ...AtomFields, score: Type.Number() })),
  count: Type.Integer(),
  query: Type.String(),
  match: Type.String({ description: "all_words, any_word, similar (near-miss words corrected) or none" }),
  corrected: Type.Optional(Type.Record(Type.String(), Type.String(), { description: "query word → the memory word it was read as" })),
});

/** Loose on purpose: the service answers with the contract's own codes (invalid_memory_type …). */
export const MemoryBody = Type.Object({
  type: Type.Optional(Type.Unknown()),
  content: Type.Optional(Type.Unknown()),
  domain: Type.Optional(Type.Unknown()),
  scope: Type.Optional(Type.Unknown()),
  authority: Type.Optional(Type.Unknown()),
  tags: Type.Optional(Type.Unknown()),
});

export const SearchQuery = Type.Object({
  query: Type.Optional(Type.String()),
  domain: Type.Optional(Type.String()),
  tag: Type.Optional(Type.String()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
});

export const MemoryParams = Type.Object({ id: Type.String({ maxLength: 200 }) });

export const MemoryTypes = Type.Object({
  type_values: Type.Array(Type.String()),
  kind_values: Type.Array(Type.String()),
  scope_values: Type.Array(Type.String()),
  description: Type.String(),
});

export function toWire(row: MemoryRow): Atom {
  return {
    id: row.id,
    type: row.type,
    kind: row.type,
    domain: row.domain,
    scope: row.scope,
    classified: false,
    content: row.content,
    authority: row.authority,
    version: row.version,
    tags: row.tags,
    classifications: {},
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function hitToWire(hit: SearchHit): Atom & { score: number } {
  return { ...toWire(hit), score: Math.round(hit.score * 10_000) / 10_000 };
}
