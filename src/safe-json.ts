// What text and JSON values the service accepts before they can reach PostgreSQL or recursive code.
// PostgreSQL refuses U+0000 in text and jsonb, and a lone UTF-16 surrogate (`"\ud800"` in JSON) cannot be
// encoded as UTF-8, so either one in a value fails the write deep inside a store. Deeply nested values
// overflow the stack of any recursive walk (canonical JSON, secret scans, JSON.stringify). Requests are
// refused at the edge with the field named (src/http/body.ts); documents fetched from elsewhere (an OpenAPI
// spec, an MCP tool list) are repaired with storableValue.

/** Deepest nesting of a JSON request body (objects and arrays); documented in docs/api-decisions.md. */
export const MAX_JSON_DEPTH = 64;
/** Deepest nesting any recursive helper walks; a value from elsewhere deeper than this is refused. */
export const MAX_WALK_DEPTH = 512;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Why this text cannot be stored, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return "must not contain the NUL character (U+0000)";
  if (LONE_SURROGATE.test(text)) return "must not contain a lone UTF-16 surrogate (not valid Unicode)";
  return undefined;
}

/** The text with NUL and lone surrogates replaced by U+FFFD (the replacement character). */
export function storableText(text: string): string {
  UNSTORABLE.lastIndex = 0;
  return UNSTORABLE.test(text) ? text.replace(UNSTORABLE, "\ufffd") : text;
}

/** True when the JSON text nests objects/arrays deeper than `max`: a scan of the text, before any parse. */
export function jsonTextDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export interface TextIssue {
  field: string;
  message: string;
}

const fieldName = (parent: string, key: string | number): string =>
  typeof key === "number" ? `${parent}[${key}]` : parent === "" ? key : `${parent}.${key}`;

/**
 * The first string (value or object key) inside `value` that cannot be stored, named like the edge's
 * validation details (`messages[0].content`); iterative, so any depth is safe to walk.
 */
export function findTextIssue(value: unknown, root: string): TextIssue | undefined {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [item, field] = stack.pop()!;
    if (typeof item === "string") {
      const message = textProblem(item);
      if (message) return { field: field || "body", message };
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], fieldName(field, i)]);
    } else if (item && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        const message = textProblem(key);
        if (message) return { field: fieldName(field, key), message: `has a key that ${message}` };
        stack.push([child, fieldName(field, key)]);
      }
    }
  }
  return undefined;
}

/**
 * A copy of a JSON value from elsewhere with every string and key made storable (storableText). Throws a
 * RangeError when it nests deeper than MAX_WALK_DEPTH, for the caller to turn into its own error code.
 */
export function storableValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return storableText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_WALK_DEPTH) throw new RangeError(`nested deeper than ${MAX_WALK_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((item) => storableValue(item, depth + 1));
  // fromEntries defines own properties, so a "__proto__" key stays data and never becomes the prototype.
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [storableText(key), storableValue(child, depth + 1)]));
}

/** A value as a short text for an error message: never walks into objects (no recursion, no huge output). */
export function shortText(value: unknown, max = 50): string {
  if (typeof value === "string") return JSON.stringify(storableText(value.slice(0, max)));
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : typeof value;
}
