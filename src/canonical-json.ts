import { MAX_WALK_DEPTH } from "./safe-json.ts";

/**
 * JSON with object keys sorted at every level, so equal values always serialise to the same text (request
 * fingerprints, audit hash chains). PostgreSQL's jsonb does not keep key order, so anything hashed after a
 * round trip through it must be canonical. Bounded: a value nested deeper than MAX_WALK_DEPTH throws a
 * RangeError instead of overflowing the stack (request bodies are bounded far lower at the edge).
 */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_WALK_DEPTH) throw new RangeError(`canonicalJson: value nested deeper than ${MAX_WALK_DEPTH} levels`);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(",")}]`;
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, depth + 1)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
