// OpenAPI import: a document (fetched or given) becomes tools, one per operation, each with ONE JSON Schema
// of its arguments (path, query and header parameters by name, an object request body's fields beside them,
// any other body under `body`). Calling such
// a tool makes the real request to the document's server through the guarded outbound client, with the
// connection's credential applied as the operation's security scheme says.
import { shortText, storableText, storableValue } from "../safe-json.ts";
import { parse as parseYaml } from "yaml";
import { AppError } from "../errors/app-error.ts";
import { outboundFailureOf, type Outbound } from "../http/outbound.ts";
import { deref, GenerationError, toJsonSchema } from "./openapi-schema.ts";
import { toFunctionName, uniqueName, type JsonSchema, type Tool, type ToolResult } from "./tool.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
// Headers the transport owns (OpenAPI says such parameter definitions are ignored).
const RESERVED_HEADERS = new Set(["accept", "content-type", "authorization", "host", "content-length", "cookie"]);
// Per tool: past this many schema nodes, deeper schemas are left open (see openapi-schema.ts).
const SCHEMA_BUDGET = 5_000;
const MAX_DESCRIPTION = 1_000;
/** Largest stored tool set of one document (the config column), as JSON. */
const MAX_TOOLS_BYTES = 8 * 1024 * 1024;

export type SecurityScheme =
  | { type: "apiKey"; in: "header" | "query" | "cookie"; name: string }
  | { type: "bearer" }
  | { type: "basic" };

interface ArgumentPlace {
  /** The property in the arguments object. */
  key: string;
  /** The parameter's name on the wire. */
  name: string;
  in: "path" | "query" | "header";
  style?: string;
  explode?: boolean;
}

/** One operation as stored in the connection's config. */
export interface OpenApiOperation {
  name: string;
  description: string;
  parameters: JsonSchema;
  method: string;
  path: string;
  places: ArgumentPlace[];
  /**
   * The request body. With `fields`, an object body's properties sit beside the parameters in the
   * arguments (flat, as a model or a person names them: `{order_id, amount}`); without, it is `body`.
   */
  body?: { contentType: "application/json" | "application/x-www-form-urlencoded"; required: boolean; fields?: string[] };
  /** Alternatives (any one suffices); each lists schemes applied together. An empty alternative: no auth. */
  security: SecurityScheme[][];
}

/** What an OpenAPI connection keeps in `connections.config`. */
export interface OpenApiConfig {
  [key: string]: unknown;
  source: "openapi";
  title: string;
  version: string;
  spec_url?: string;
  server_url: string;
  credential_id?: string;
  tools: OpenApiOperation[];
  skipped: { operation: string; reason: string }[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Text (JSON or YAML) or an already parsed object → the document object. A document fetched from elsewhere
 * may hold NUL or lone surrogates (which PostgreSQL cannot store, e.g. in `info.version`): they are
 * replaced by U+FFFD rather than refused, since the caller cannot fix a document they do not own. A
 * document nested deeper than MAX_WALK_DEPTH is refused.
 */
export function readDocument(content: unknown): Record<string, unknown> {
  let parsed: unknown = content;
  if (!isObject(content)) {
    if (typeof content !== "string" || content.trim() === "") {
      throw new AppError("openapi_read_failed", { message: "The OpenAPI document is empty." });
    }
    const text = content.trim();
    try {
      // JSON is YAML too, but JSON.parse is faster and its errors are clearer for JSON input.
      parsed = text.startsWith("{") ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100, uniqueKeys: false });
    } catch (error) {
      throw new AppError("openapi_read_failed", { message: `The OpenAPI document could not be parsed as JSON or YAML: ${storableText((error as Error).message.split("\n")[0]!.slice(0, 300))}` });
    }
  }
  if (!isObject(parsed)) {
    throw new AppError("openapi_read_failed", { message: "The OpenAPI document is not a JSON or YAML object (was an HTML page or plain text served?)." });
  }
  try {
    return storableValue(parsed) as Record<string, unknown>;
  } catch (error) {
    throw new AppError("openapi_read_failed", { message: `The OpenAPI document is ${(error as Error).message}.` });
  }
}

/** The fields tool generation needs; OpenAPI 3.x only. */
export function checkDocument(document: Record<string, unknown>): void {
  if (typeof document.swagger === "string") {
    throw new AppError("openapi_invalid_spec", {
      message: `This is a Swagger ${document.swagger.slice(0, 10)} document; OpenAPI 3.0 or 3.1 is needed.`,
      hint: "Convert it to OpenAPI 3 (for example with swagger2openapi) and import the result.",
    });
  }
  const missing = [!isObject(document.info) && "info", !isObject(document.paths) && "paths"].filter((field): field is string => Boolean(field));
  if (missing.length > 0) {
    throw new AppError("openapi_invalid_spec", {
      message: `The OpenAPI document lacks ${missing.map((f) => `\`${f}\``).join(" and ")}.`,
      details: missing.map((field) => ({ field, message: "is required (an object)" })),
    });
  }
  if (document.openapi !== undefined && !(typeof document.openapi === "string" && document.openapi.startsWith("3."))) {
    throw new AppError("openapi_invalid_spec", { message: `OpenAPI version ${shortText(document.openapi, 20)} is not supported; 3.0 or 3.1 is needed.` });
  }
}

/** servers[0] (its variables at their defaults), absolute; relative ones are resolved against the spec URL. */
export function serverUrlOf(document: Record<string, unknown>, specUrl: URL | undefined): URL {
  const server = Array.isArray(document.servers) && isObject(document.servers[0]) ? document.servers[0] : undefined;
  let raw = typeof server?.url === "string" ? server.url : "/";
  if (isObject(server?.variables)) {
    for (const [name, variable] of Object.entries(server.variables)) {
      if (isObject(variable) && variable.default !== undefined) raw = raw.split(`{${name}}`).join(String(variable.default));
    }
  }
  let url: URL;
  try {
    url = specUrl ? new URL(raw, specUrl) : new URL(raw);
  } catch {
    throw new AppError("openapi_generation_failed", {
      message: specUrl ? `servers[0].url "${raw.slice(0, 200)}" is not a valid URL.` : `servers[0].url "${raw.slice(0, 200)}" is relative and there is no spec_url to resolve it against.`,
      hint: "Give the document an absolute servers[0].url (https://…), or import it by spec_url.",
    });
  }
  if (url.protocol !== "https:") {
    throw new AppError("openapi_generation_failed", {
      message: `The API's server ${url.origin} is not HTTPS; tools only call HTTPS servers (credentials travel with the calls).`,
      hint: "Serve the API over HTTPS and set servers[0].url to it.",
    });
  }
  url.search = "";
  url.hash = "";
  return url;
}

function securityOf(document: Record<string, unknown>, requirements: unknown): SecurityScheme[][] {
  if (!Array.isArray(requirements)) return [];
  const schemes = isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {};
  const alternatives: SecurityScheme[][] = [];
  for (const requirement of requirements) {
    if (!isObject(requirement)) continue;
    const applied: SecurityScheme[] = [];
    let supported = true;
    for (const name of Object.keys(requirement)) {
      let scheme: Record<string, unknown>;
      try {
        scheme = deref(document, schemes[name], `components.securitySchemes.${name}`);
      } catch {
        supported = false;
        break;
      }
      const httpScheme = typeof scheme.scheme === "string" ? scheme.scheme.toLowerCase() : "";
      if (scheme.type === "apiKey" && typeof scheme.name === "string" && (scheme.in === "header" || scheme.in === "query" || scheme.in === "cookie")) {
        applied.push({ type: "apiKey", in: scheme.in, name: scheme.name });
      } else if (scheme.type === "http" && httpScheme === "bearer") {
        applied.push({ type: "bearer" });
      } else if (scheme.type === "http" && httpScheme === "basic") {
        applied.push({ type: "basic" });
      } else if (scheme.type === "oauth2" || scheme.type === "openIdConnect") {
        // The flows are not run here; an access token stored as the credential is sent as a bearer token.
        applied.push({ type: "bearer" });
      } else {
        supported = false;
      }
    }
    if (supported) alternatives.push(applied);
  }
  return alternatives;
}

function describeOperation(operation: Record<string, unknown>, method: string, path: string): string {
  const parts = [operation.summary, operation.description].filter((text): text is string => typeof text === "string" && text.trim() !== "").map((text) => text.trim());
  const unique = parts.filter((text, i) => i === 0 || text !== parts[0]);
  const text = unique.length > 0 ? unique.join(" — ") : `${method.toUpperCase()} ${path}`;
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

export interface Generated {
  tools: OpenApiOperation[];
  /** Operations found, including skipped ones. */
  operations: number;
  skipped: { operation: string; reason: string }[];
}

/** One tool per operation. `taken`: names already used in the workspace (de-duplicated against). */
export function generateTools(document: Record<string, unknown>, taken: Set<string>): Generated {
  const tools: OpenApiOperation[] = [];
  const skipped: { operation: string; reason: string }[] = [];
  const names = new Set(taken);
  let operations = 0;
  for (const [path, rawItem] of Object.entries(document.paths as Record<string, unknown>)) {
    const item = deref(document, rawItem, `paths.${path}`);
    for (const method of METHODS) {
      if (!isObject(item[method])) continue;
      operations++;
      const where = `${method.toUpperCase()} ${path}`;
      const operation = item[method] as Record<string, unknown>;
      const budget = { left: SCHEMA_BUDGET };

      // Path-level parameters apply unless the operation redefines the same name and place.
      const byPlace = new Map<string, Record<string, unknown>>();
      for (const raw of [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(operation.parameters) ? operation.parameters : [])]) {
        const parameter = deref(document, raw, where);
        if (typeof parameter.name !== "string" || typeof parameter.in !== "string") throw new GenerationError("a parameter lacks `name` or `in`", where);
        byPlace.set(`${parameter.in}:${parameter.name}`, parameter);
      }

      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      const places: ArgumentPlace[] = [];
      let skip: string | undefined;
      for (const parameter of byPlace.values()) {
        const place = parameter.in as string;
        const name = parameter.name as string;
        if (place === "cookie" || (place === "header" && RESERVED_HEADERS.has(name.toLowerCase()))) {
          if (parameter.required === true && place === "cookie") skip = `the required cookie parameter ${name} is not supported`;
          continue;
        }
        if (place !== "path" && place !== "query" && place !== "header") continue;
        const key = properties[name] === undefined ? name : `${place}_${name}`;
        let schema: unknown = parameter.schema;
        if (schema === undefined && isObject(parameter.content)) schema = Object.values(parameter.content).find(isObject)?.schema;
        const converted = toJsonSchema(document, schema ?? { type: "string" }, budget, where);
        if (typeof parameter.description === "string" && converted.description === undefined) converted.description = parameter.description.slice(0, MAX_DESCRIPTION);
        properties[key] = converted;
        if (place === "path" || parameter.required === true) required.push(key);
        places.push({
          key,
          name,
          in: place,
          ...(typeof parameter.style === "string" ? { style: parameter.style } : {}),
          ...(typeof parameter.explode === "boolean" ? { explode: parameter.explode } : {}),
        });
      }

      let body: OpenApiOperation["body"];
      if (operation.requestBody !== undefined) {
        const requestBody = deref(document, operation.requestBody, where);
        const content = isObject(requestBody.content) ? requestBody.content : {};
        const json = Object.keys(content).find((type) => /^application\/([\w.+-]+\+)?json\b/i.test(type) || type === "*/*");
        const form = Object.keys(content).find((type) => /^application\/x-www-form-urlencoded\b/i.test(type));
        const chosen = json ?? form;
        if (chosen) {
          const media = isObject(content[chosen]) ? (content[chosen] as Record<string, unknown>) : {};
          const converted = toJsonSchema(document, media.schema ?? {}, budget, where);
          if (typeof requestBody.description === "string" && converted.description === undefined) converted.description = requestBody.description.slice(0, MAX_DESCRIPTION);
          body = { contentType: json ? "application/json" : "application/x-www-form-urlencoded", required: requestBody.required === true };
          const fields = flatFields(converted, properties);
          if (fields) {
            // An object body of plain properties: its fields join the parameters (none of them clash).
            const own = converted.properties as Record<string, unknown>;
            for (const field of fields) properties[field] = own[field];
            const requiredFields = Array.isArray(converted.required) ? (converted.required as string[]).filter((f) => fields.includes(f)) : [];
            if (body.required) required.push(...requiredFields);
            body.fields = fields;
          } else {
            properties.body = converted;
            if (body.required) required.push("body");
            if (places.some((p) => p.key === "body")) throw new GenerationError("a parameter named `body` collides with the request body", where);
          }
        } else if (requestBody.required === true) {
          skip = `its request body (${Object.keys(content).join(", ").slice(0, 100) || "no media type"}) is neither JSON nor form-encoded`;
        }
      }
      if (skip) {
        skipped.push({ operation: where, reason: skip });
        continue;
      }

      const base = toFunctionName(typeof operation.operationId === "string" && operation.operationId.trim() !== "" ? operation.operationId : `${method}_${path}`, `${method}_operation`);
      const name = uniqueName(base, names);
      names.add(name);
      tools.push({
        name,
        description: describeOperation(operation, method, path),
        parameters: { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false },
        method: method.toUpperCase(),
        path,
        places,
        ...(body ? { body } : {}),
        security: securityOf(document, operation.security ?? document.security),
      });
    }
  }
  if (JSON.stringify(tools).length > MAX_TOOLS_BYTES) {
    throw new GenerationError(`the tools would take more than ${MAX_TOOLS_BYTES / 1024 / 1024} MiB`, "document");
  }
  return { tools, operations, skipped };
}

/**
 * The body's property names when they can sit beside the parameters: an object schema with properties,
 * no combinators, and no name a parameter already has. Undefined otherwise (the body stays under `body`).
 */
function flatFields(schema: JsonSchema, parameters: Record<string, unknown>): string[] | undefined {
  if (!isObject(schema.properties) || (schema.type !== undefined && schema.type !== "object")) return undefined;
  if (["allOf", "anyOf", "oneOf", "not", "if", "patternProperties"].some((k) => schema[k] !== undefined)) return undefined;
  const fields = Object.keys(schema.properties);
  if (fields.length === 0 || fields.some((f) => parameters[f] !== undefined)) return undefined;
  return fields;
}

// ---------------------------------------------------------------------------------------------------------
// Calling an operation

function scalar(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

function pathValue(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => encodeURIComponent(scalar(v))).join(",");
  if (typeof value === "object" && value !== null) return Object.entries(value).map(([k, v]) => `${encodeURIComponent(k)},${encodeURIComponent(scalar(v))}`).join(",");
  return encodeURIComponent(scalar(value));
}

function addQuery(search: URLSearchParams, place: ArgumentPlace, value: unknown): void {
  const explode = place.explode ?? (place.style === undefined || place.style === "form");
  if (Array.isArray(value)) {
    if (explode) for (const item of value) search.append(place.name, scalar(item));
    else search.append(place.name, value.map(scalar).join(place.style === "pipeDelimited" ? "|" : place.style === "spaceDelimited" ? " " : ","));
  } else if (typeof value === "object" && value !== null) {
    if (place.style === "deepObject") for (const [k, v] of Object.entries(value)) search.append(`${place.name}[${k}]`, scalar(v));
    else if (explode) for (const [k, v] of Object.entries(value)) search.append(k, scalar(v));
    else search.append(place.name, Object.entries(value).flatMap(([k, v]) => [k, scalar(v)]).join(","));
  } else {
    search.append(place.name, scalar(value));
  }
}

type Secret = Record<string, unknown>;

function field(secret: Secret, names: string[]): string | undefined {
  for (const name of names) {
    const value = secret[name];
    if (typeof value === "string" && value !== "") return value;
    if (typeof value === "number") return String(value);
  }
  return undefined;
}

/** Applies the first security alternative the credential can satisfy; false when none could be. */
function applySecurity(alternatives: SecurityScheme[][], secret: Secret, headers: Record<string, string>, url: URL): boolean {
  // A document that declares no security: the connection's credential is still sent (the caller attached it).
  const options = alternatives.length === 0 ? [[field(secret, ["username", "user"]) ? ({ type: "basic" } as const) : ({ type: "bearer" } as const)]] : alternatives;
  for (const alternative of options) {
    const steps: (() => void)[] = [];
    for (const scheme of alternative) {
      if (scheme.type === "basic") {
        const user = field(secret, ["username", "user", "login"]);
        const password = field(secret, ["password", "pass", "secret"]);
        if (user === undefined || password === undefined) break;
        steps.push(() => (headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`));
      } else if (scheme.type === "bearer") {
        const token = field(secret, ["token", "access_token", "bearer", "api_key", "apiKey", "key", "value"]);
        if (token === undefined) break;
        steps.push(() => (headers.authorization = `Bearer ${token}`));
      } else {
        const key = field(secret, [scheme.name, "api_key", "apiKey", "key", "token", "value", "access_token"]);
        if (key === undefined) break;
        if (scheme.in === "header") steps.push(() => (headers[scheme.name.toLowerCase()] = key));
        else if (scheme.in === "query") steps.push(() => url.searchParams.set(scheme.name, key));
        else steps.push(() => (headers.cookie = `${headers.cookie ? `${headers.cookie}; ` : ""}${scheme.name}=${key}`));
      }
    }
    if (steps.length === alternative.length) {
      for (const step of steps) step();
      return true;
    }
  }
  return false;
}

/** The headers an operation's security schemes may put a credential in (beyond authorization and cookie). */
function credentialHeadersOf(alternatives: SecurityScheme[][]): string[] {
  return alternatives.flat().flatMap((scheme) => (scheme.type === "apiKey" && scheme.in === "header" ? [scheme.name.toLowerCase()] : []));
}

function decodeBody(body: Buffer, contentType: string | undefined): unknown {
  if (body.length === 0) return null;
  const type = (contentType ?? "").toLowerCase();
  const text = body.toString("utf8");
  if (/json/.test(type)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (type === "" || /^text\/|xml|javascript|x-www-form-urlencoded|yaml/.test(type)) return text;
  return { content_type: type, base64: body.toString("base64") };
}

/** Retry-After as milliseconds: delay-seconds or an HTTP date (RFC 9110); undefined when absent or unreadable. */
export function retryAfterOf(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface OpenApiToolDeps {
  outbound: Outbound;
  workspaceId: string;
  connectionId: string;
  config: OpenApiConfig;
  /**
   * The connection's credential, decrypted for a call to `url` (undefined when the connection has none);
   * rejects with 403 connection_forbidden when `url`'s host is not one the credential may be sent to.
   */
  credential: (url: URL) => Promise<Secret | undefined>;
  health: () => "healthy" | "degraded";
}

export function openApiTool(operation: OpenApiOperation, deps: OpenApiToolDeps): Tool {
  const server = deps.config.server_url.replace(/\/+$/, "");
  return {
    name: operation.name,
    description: operation.description,
    parameters: operation.parameters,
    source: "openapi",
    connectionId: deps.connectionId,
    health: deps.health,
    // The body's fields beside the parameters (which win on a clash), so "refunds over $500" sees `amount`.
    attributes: (args) => (!operation.body?.fields && isObject(args.body) ? { ...args.body, ...args } : args),
    invoke: async (args, context): Promise<ToolResult> => {
      let path = operation.path;
      const headers: Record<string, string> = { accept: "application/json, */*;q=0.5" };
      for (const place of operation.places) {
        if (place.in !== "path") continue;
        const value = pathValue(args[place.key]);
        // URLs resolve dot segments (also encoded ones): a value must not climb out of the operation's path.
        if (/^(\.|%2e){1,2}$/i.test(value)) {
          const message = `the path parameter ${place.key} may not be "." or ".."`;
          return { status: "failed", result: { error: message }, unhealthy: false, error: message };
        }
        path = path.split(`{${place.name}}`).join(value);
      }
      const url = new URL(`${server}${path.startsWith("/") ? path : `/${path}`}`);
      for (const place of operation.places) {
        const value = args[place.key];
        if (value === undefined || value === null || place.in === "path") continue;
        if (place.in === "query") addQuery(url.searchParams, place, value);
        else headers[place.name.toLowerCase()] = Array.isArray(value) ? value.map(scalar).join(",") : scalar(value);
      }
      let body: string | undefined;
      const fields = operation.body?.fields;
      const payload = fields ? Object.fromEntries(fields.filter((f) => args[f] !== undefined).map((f) => [f, args[f]])) : args.body;
      const sendBody = fields ? Object.keys(payload as object).length > 0 || operation.body!.required : payload !== undefined;
      if (operation.body && sendBody) {
        headers["content-type"] = operation.body.contentType;
        body =
          operation.body.contentType === "application/json"
            ? JSON.stringify(payload)
            : new URLSearchParams(Object.entries((payload ?? {}) as Record<string, unknown>).map(([k, v]) => [k, scalar(v)])).toString();
      }
      let secret: Secret | undefined;
      try {
        secret = await deps.credential(url);
      } catch (error) {
        // Nothing is sent: the credential is not for this host (the server URL or the credential changed).
        if (error instanceof AppError && error.code === "connection_forbidden") {
          return { status: "failed", result: { error: error.message }, unhealthy: false, error: error.message, refused: error };
        }
        const message = error instanceof AppError && error.code === "credential_not_found" ? `the connection's credential ${deps.config.credential_id} no longer exists` : "the connection's credential could not be read";
        return { status: "failed", result: { error: message }, unhealthy: true, error: message };
      }
      if (secret) applySecurity(operation.security, secret, headers, url);
      try {
        // Same origin only: the credential must not follow a redirect to another host (the 3xx is the answer).
        const response = await deps.outbound.request(url, {
          method: operation.method,
          headers,
          body,
          redirects: "same-origin",
          credentialHeaders: credentialHeadersOf(operation.security),
          httpsOnly: true,
          signal: context.signal,
        });
        const ok = response.status >= 200 && response.status < 300;
        const contentType = response.headers["content-type"];
        const retryAfterMs = response.status === 429 || response.status === 503 ? retryAfterOf(response.headers["retry-after"]) : undefined;
        return {
          status: ok ? "succeeded" : "failed",
          result: { status_code: response.status, body: decodeBody(response.body, typeof contentType === "string" ? contentType : undefined) },
          unhealthy: response.status >= 500,
          ...(ok ? {} : { error: `HTTP ${response.status}` }),
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        };
      } catch (error) {
        const message = outboundFailureOf(error)?.message ?? `${url.origin} could not be called`;
        return { status: "failed", result: { error: message }, unhealthy: true, error: message };
      }
    },
  };
}
