// OpenAPI schemas (3.0 and 3.1) turned into self-contained JSON Schema for tool parameters: local `$ref`s
// are inlined (a reference already being expanded on the current path is cut, so cycles end), OpenAPI-only
// keywords are dropped or translated (`nullable`, boolean `exclusiveMinimum`), read-only properties leave
// request schemas, and a size budget per tool keeps a huge document from producing huge tools (past the
// budget, deeper schemas become `{}`: accepted as-is, the API itself still validates).

import type { JsonSchema } from "./tool.ts";

/** A document problem that makes tool generation impossible (→ openapi_generation_failed). */
export class GenerationError extends Error {
  constructor(
    message: string,
    readonly where: string,
  ) {
    super(message);
    this.name = "GenerationError";
  }
}

export interface Budget {
  /** Schema nodes that may still be written for this tool. */
  left: number;
}

const SUBSCHEMA = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "additionalItems", "unevaluatedItems", "unevaluatedProperties"];
const SUBSCHEMA_MAPS = ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
// OpenAPI annotations with no JSON Schema meaning (or that would clash: `$id`, `$schema` across tools).
const DROPPED = new Set(["discriminator", "xml", "externalDocs", "example", "nullable", "$schema", "$id", "id", "$comment"]);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The node a local reference (`#/components/schemas/Pet`) points to, or undefined. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
    if (node === undefined) return undefined;
  }
  return node;
}

/** Follows `$ref` chains of non-schema objects (parameters, request bodies, path items). */
export function deref(document: unknown, node: unknown, where: string): Record<string, unknown> {
  const seen = new Set<string>();
  let current = node;
  while (isObject(current) && typeof current.$ref === "string") {
    const ref = current.$ref;
    if (seen.has(ref)) throw new GenerationError(`the reference ${ref} refers to itself`, where);
    seen.add(ref);
    const target = resolvePointer(document, ref);
    if (target === undefined) throw new GenerationError(`the reference ${ref} does not resolve inside the document`, where);
    current = target;
  }
  if (!isObject(current)) throw new GenerationError("expected an object", where);
  return current;
}

function translateNullable(out: Record<string, unknown>, source: Record<string, unknown>): void {
  if (source.nullable !== true) return;
  if (typeof out.type === "string") out.type = [out.type, "null"];
  else if (Array.isArray(out.type) && !out.type.includes("null")) out.type = [...out.type, "null"];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
}

// OpenAPI 3.0 (draft 4) wrote exclusive bounds as booleans beside minimum/maximum.
function translateExclusive(out: Record<string, unknown>, bound: "Minimum" | "Maximum"): void {
  const flag = `exclusive${bound}`;
  const plain = bound.toLowerCase();
  if (typeof out[flag] !== "boolean") return;
  if (out[flag] === true && typeof out[plain] === "number") {
    out[flag] = out[plain];
    delete out[plain];
  } else {
    delete out[flag];
  }
}

function convert(document: unknown, node: unknown, stack: string[], budget: Budget, where: string): unknown {
  if (typeof node === "boolean") return node;
  if (!isObject(node)) return {};
  if (--budget.left < 0) return {};
  if (typeof node.$ref === "string") {
    const ref = node.$ref;
    const { $ref: _ref, ...siblings } = node;
    let target: unknown;
    if (!ref.startsWith("#")) {
      target = { description: `(not expanded: external reference ${ref.slice(0, 200)})` };
    } else if (stack.includes(ref)) {
      target = { description: `(recursive: ${ref.slice(0, 200)} is not expanded again)` };
    } else {
      const resolved = resolvePointer(document, ref);
      if (resolved === undefined) throw new GenerationError(`the reference ${ref} does not resolve inside the document`, where);
      target = convert(document, resolved, [...stack, ref], budget, where);
    }
    const extra = convert(document, siblings, stack, budget, where) as Record<string, unknown>;
    const keys = Object.keys(extra);
    if (keys.length === 0) return target;
    // Annotations beside a reference (3.1) decorate it; anything else must hold as well.
    if (keys.every((key) => key === "description" || key === "title") && isObject(target)) return { ...target, ...extra };
    return { allOf: [target, extra] };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key) || key.startsWith("x-")) continue;
    if (SUBSCHEMA.includes(key)) {
      out[key] = key === "items" && Array.isArray(value) ? value.map((item) => convert(document, item, stack, budget, where)) : convert(document, value, stack, budget, where);
    } else if (SUBSCHEMA_MAPS.includes(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, convert(document, schema, stack, budget, where)]));
    } else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value)) {
      out[key] = value.map((item) => convert(document, item, stack, budget, where));
    } else {
      out[key] = value;
    }
  }
  // Loose documents (often converted from Swagger 2) carry these; they would fail schema compilation.
  if ("required" in out && !Array.isArray(out.required)) delete out.required;
  if (out.type === "file") out.type = "string";
  translateNullable(out, node);
  translateExclusive(out, "Minimum");
  translateExclusive(out, "Maximum");
  // Read-only properties are what the API returns, never what a request sends.
  if (isObject(out.properties)) {
    const readOnly = Object.entries(out.properties).filter(([, schema]) => isObject(schema) && schema.readOnly === true).map(([name]) => name);
    if (readOnly.length > 0) {
      out.properties = Object.fromEntries(Object.entries(out.properties).filter(([name]) => !readOnly.includes(name)));
      if (Array.isArray(out.required)) out.required = out.required.filter((name) => !readOnly.includes(name as string));
    }
  }
  return out;
}

/** An OpenAPI schema as a self-contained JSON Schema. `where` names the operation in error messages. */
export function toJsonSchema(document: unknown, schema: unknown, budget: Budget, where: string): JsonSchema {
  const converted = convert(document, schema, [], budget, where);
  return isObject(converted) ? converted : converted === false ? { not: {} } : {};
}
