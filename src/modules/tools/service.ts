// The workspace's tools: imported from OpenAPI documents and MCP servers (stored as connections), compiled
// into runtime tools and kept in memory per workspace (loaded on first use, dropped when a connection of the
// workspace is created or deleted, in every process through NOTIFY). Invoking one always goes through
// governance: `invoke` takes the chokepoint as an argument and runs the tool only on `approved`.
import { governedAction } from "../../engine/governance/action.ts";
import type { ValidateFunction } from "ajv";
import { argumentsValidator } from "../../tools/arguments-validator.ts";
import type { Clock } from "../../clock.ts";
import type { Database } from "../../db/index.ts";
import { AppError, type ErrorDetail } from "../../errors/app-error.ts";
import type { Actor, AuditLog } from "../../events/audit.ts";
import { validationDetails } from "../../http/errors.ts";
import { outboundFailureOf, type Outbound } from "../../http/outbound.ts";
import type { Ids } from "../../ids.ts";
import type { Connection, ConnectionService } from "../connections/service.ts";
import type { CredentialService } from "../credentials/service.ts";
import type { Vault } from "../credentials/vault.ts";
import type { Govern, GovernanceVerdict } from "../../engine/governance/action.ts";
import { createMcpSessions, listMcpTools, mcpFailureMessage, mcpTool, type McpConfig, type McpEndpoint, type McpSessions, type McpTransport } from "../../tools/mcp.ts";
import { checkDocument, generateTools, openApiTool, readDocument, serverUrlOf, type OpenApiConfig } from "../../tools/openapi.ts";
import { GenerationError } from "../../tools/openapi-schema.ts";
import type { JsonSchema, Tool, ToolResult } from "../../tools/tool.ts";


const TOOLS_CHANNEL = "svc_tools";
// Workspaces whose compiled tools are kept; the least recently loaded go first beyond this.
const MAX_CACHED_WORKSPACES = 1_000;
const MAX_HEADERS = 32;
// Headers the MCP transport sets itself.
const TRANSPORT_HEADERS = new Set(["host", "content-length", "content-type", "accept", "connection", "transfer-encoding", "mcp-session-id", "mcp-protocol-version", "last-event-id"]);

export interface OpenApiInput {
  name: string;
  specUrl?: string;
  specContent?: unknown;
  credentialId?: string;
}

export interface McpInput {
  name: string;
  url: string;
  transport: McpTransport;
  headers?: Record<string, unknown>;
}

export interface OpenApiRegistration {
  connection: Connection;
  toolsGenerated: number;
  functions: string[];
  specUrl: string | undefined;
  skipped: { operation: string; reason: string }[];
}

export interface McpRegistration {
  connection: Connection;
  transport: McpTransport;
  url: string;
  functions: string[];
}

export interface InvokeRequest {
  name: string;
  arguments: Record<string, unknown>;
  domain?: string;
}

export type InvokeOutcome =
  | { decision: "blocked"; verdict: GovernanceVerdict; tool: Tool }
  | { decision: "conditional"; verdict: GovernanceVerdict; tool: Tool }
  | { decision: "approved"; verdict: GovernanceVerdict; tool: Tool; status: ToolResult["status"]; result: unknown; durationMs: number };

export interface RunOptions {
  /** Facts for the audit entry besides the tool, connection, argument names, status and duration. */
  details?: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface ToolRun {
  status: ToolResult["status"];
  result: unknown;
  durationMs: number;
  /** The runtime is unwell (transport error, timeout, HTTP 5xx, MCP isError) rather than the request wrong. */
  unhealthy: boolean;
  error?: string;
  /** The service asked to wait this long before another call (Retry-After). */
  retryAfterMs?: number;
  /** Refused before anything was sent (403 connection_forbidden: a credential not meant for the host). */
  refused?: AppError;
}

export interface ToolService {
  registerOpenApi(actor: Actor, input: OpenApiInput): Promise<OpenApiRegistration>;
  registerMcp(actor: Actor, input: McpInput): Promise<McpRegistration>;
  /** The workspace's tools, in connection order. */
  list(workspaceId: string): Promise<Tool[]>;
  find(workspaceId: string, name: string): Promise<Tool | undefined>;
  /** Problems of `args` against the tool's parameters (compiled once per tool), or undefined when valid. */
  validate(tool: Tool, args: unknown): ErrorDetail[] | undefined;
  /** Validates, asks `govern`, and only on `approved` runs the tool (through `run`). */
  invoke(actor: Actor, request: InvokeRequest, govern: Govern): Promise<InvokeOutcome>;
  /**
   * Calls a tool whose arguments were validated and whose action governance allowed: the call, the
   * connection's call health and the `tool.invoke` audit entry. No governance here: callers (invoke, the
   * execution runner) ask the chokepoint first; this is the one path from a verdict to a call.
   */
  run(actor: Actor, tool: Tool, args: Record<string, unknown>, options?: RunOptions): Promise<ToolRun>;
  /** Drops a deleted connection's tools and closes its MCP session (this process, then the others). */
  forget(workspaceId: string, connectionId: string): void;
  /** Connection ids with an open MCP session in this process. */
  openSessions(): string[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** What every `tool.invoke` audit entry says about the call: argument names, never their values (personal data). */
function callFacts(tool: Tool, args: Record<string, unknown>): Record<string, unknown> {
  return { tool: tool.name, connection_id: tool.connectionId ?? null, argument_names: Object.keys(args).sort() };
}

interface Registry {
  tools: Tool[];
  byName: Map<string, Tool>;
}

export function createToolService(deps: {
  database: Database;
  ids: Ids;
  clock: Clock;
  audit: AuditLog;
  connections: ConnectionService;
  credentials: CredentialService;
  vault: Vault;
  outbound: Outbound;
  timeoutMs: number;
  mcpIdleMs: number;
  log: { warn(object: object, message: string): void };
}): ToolService {
  const { database, ids, audit, connections, credentials, vault, outbound, timeoutMs, log } = deps;
  const db = database.db;
  const sessions: McpSessions = createMcpSessions({ outbound, idleMs: deps.mcpIdleMs, timeoutMs });
  const registries = new Map<string, Promise<Registry>>();
  const validators = new WeakMap<Tool, ValidateFunction>();
  const ajv = argumentsValidator();
  let unlisten: (() => Promise<void>) | undefined;

  function compile(schema: JsonSchema): ValidateFunction {
    try {
      return ajv.compile(schema);
    } finally {
      // The compiled function is kept by its tool; Ajv's own cache would only grow with every reload.
      ajv.removeSchema(schema);
    }
  }

  const headerSecretId = (connectionId: string) => `${connectionId}:headers`;

  async function headersOf(workspaceId: string, connectionId: string, config: McpConfig): Promise<Record<string, string>> {
    if (!config.sealed_headers) return {};
    const opened = await vault.open(workspaceId, headerSecretId(connectionId), config.sealed_headers);
    return JSON.parse(opened.toString("utf8")) as Record<string, string>;
  }

  function toolsOfConnection(workspaceId: string, connection: Connection): Tool[] {
    const row = connection.row;
    const health = () => connections.health(workspaceId, row.id).status;
    if (row.kind === "openapi") {
      const config = row.config as OpenApiConfig;
      const credentialId = config.credential_id;
      return config.tools.map((operation) =>
        openApiTool(operation, {
          outbound,
          workspaceId,
          connectionId: row.id,
          config,
          credential: async (url) => (credentialId ? credentials.reveal(workspaceId, credentialId, { connectionId: row.id, url }) : undefined),
          health,
        }),
      );
    }
    if (row.kind === "mcp") {
      const config = row.config as McpConfig;
      const endpoint = async (): Promise<McpEndpoint> => ({ url: config.url, transport: config.transport, headers: await headersOf(workspaceId, row.id, config) });
      return config.tools.map((definition) => mcpTool(definition, { sessions, connectionId: row.id, endpoint, health }));
    }
    return [];
  }

  async function build(workspaceId: string): Promise<Registry> {
    const list = await connections.list(workspaceId);
    const byName = new Map<string, Tool>();
    const tools: Tool[] = [];
    for (const connection of list) {
      for (const tool of toolsOfConnection(workspaceId, connection)) {
        // Names are made unique at registration; two registrations racing could still collide: the older wins.
        if (byName.has(tool.name)) {
          log.warn({ workspace_id: workspaceId, tool: tool.name, connection_id: connection.row.id }, "duplicate tool name skipped");
          continue;
        }
        byName.set(tool.name, tool);
        tools.push(tool);
      }
    }
    return { tools, byName };
  }

  function registry(workspaceId: string): Promise<Registry> {
    let entry = registries.get(workspaceId);
    if (!entry) {
      entry = build(workspaceId);
      registries.set(workspaceId, entry);
      entry.catch(() => registries.delete(workspaceId));
      if (registries.size > MAX_CACHED_WORKSPACES) registries.delete(registries.keys().next().value!);
    }
    return entry;
  }

  function invalidate(workspaceId: string, deletedConnectionId?: string): void {
    registries.delete(workspaceId);
    void database.notify(TOOLS_CHANNEL, deletedConnectionId ? `${workspaceId} ${deletedConnectionId}` : workspaceId).catch((error) => log.warn({ err: error }, "tools notify failed"));
  }

  async function takenNames(workspaceId: string): Promise<Set<string>> {
    return new Set((await registry(workspaceId)).byName.keys());
  }

  function cleanName(name: string): string {
    const trimmed = name.trim();
    if (trimmed === "") throw new AppError("invalid_request", { message: "Invalid request: name must not be empty.", details: [{ field: "name", message: "must not be empty" }] });
    return trimmed;
  }

  async function fetchSpec(url: URL): Promise<string> {
    let response;
    try {
      response = await outbound.request(url, { httpsOnly: true, headers: { accept: "application/json, application/yaml, text/yaml, */*;q=0.5" } });
    } catch (error) {
      const failure = outboundFailureOf(error);
      throw new AppError("openapi_fetch_failed", { message: `The OpenAPI document could not be fetched: ${failure?.message ?? "the request failed."}`, cause: error });
    }
    if (response.status < 200 || response.status >= 300) {
      throw new AppError("openapi_fetch_failed", { message: `The OpenAPI document could not be fetched: ${url.origin} answered HTTP ${response.status}.` });
    }
    return response.body.toString("utf8");
  }

  function checkSchemas(tools: { name: string; parameters: JsonSchema }[], code: "openapi_generation_failed"): void {
    for (const tool of tools) {
      try {
        compile(tool.parameters);
      } catch (error) {
        throw new AppError(code, {
          message: `The parameters of tool ${tool.name} are not a valid JSON Schema: ${(error as Error).message.slice(0, 300)}`,
          details: [{ field: tool.name, message: (error as Error).message.slice(0, 300) }],
        });
      }
    }
  }

  const service: ToolService = {
    registerOpenApi: async (actor, input) => {
      const workspaceId = actor.workspaceId;
      const name = cleanName(input.name);
      let specUrl: URL | undefined;
      if (input.specUrl !== undefined) {
        try {
          specUrl = new URL(input.specUrl);
        } catch {
          throw new AppError("openapi_invalid_url", { message: "spec_url is not a valid URL.", details: [{ field: "spec_url", message: "must be an https:// URL" }] });
        }
        if (specUrl.protocol !== "https:") {
          throw new AppError("openapi_invalid_url", { message: `spec_url must use HTTPS, not ${specUrl.protocol.replace(":", "")}.`, details: [{ field: "spec_url", message: "must be an https:// URL" }] });
        }
      }
      if (specUrl === undefined && (input.specContent === undefined || input.specContent === null)) {
        throw new AppError("invalid_request", {
          message: "Invalid request: give spec_url (an https:// URL of the document) or spec_content (the document).",
          details: [{ field: "spec_url", message: "spec_url or spec_content is required" }],
        });
      }
      // Checked before any fetch: an unknown credential is the caller's mistake, whatever the document holds.
      if (input.credentialId !== undefined) {
        const known = (await credentials.list(workspaceId)).some((c) => c.id === input.credentialId);
        if (!known) throw new AppError("credential_not_found", { message: `No credential ${input.credentialId.slice(0, 100)} in this workspace.`, details: [{ field: "credential_id", message: "is not a credential of this workspace" }] });
      }
      const content = input.specContent ?? (await fetchSpec(specUrl!));
      const document = readDocument(content);
      checkDocument(document);
      const serverUrl = serverUrlOf(document, specUrl);
      let generated;
      try {
        generated = generateTools(document, await takenNames(workspaceId));
      } catch (error) {
        if (!(error instanceof GenerationError)) throw error;
        throw new AppError("openapi_generation_failed", { message: `Tools could not be generated from ${error.where}: ${error.message}.`, details: [{ field: error.where, message: error.message }] });
      }
      if (generated.tools.length === 0) {
        throw new AppError("openapi_generation_failed", {
          message: generated.operations === 0 ? "The OpenAPI document has no operations to turn into tools." : "None of the document's operations could be turned into a tool.",
          details: generated.skipped.map((s) => ({ field: s.operation, message: s.reason })),
        });
      }
      checkSchemas(generated.tools, "openapi_generation_failed");
      const id = ids.make("con");
      // The credential goes to the document's server only if that host is one of the credential's (binding
      // a credential that has none yet to it): refused before anything is stored or sent.
      if (input.credentialId !== undefined) await credentials.attach(actor, input.credentialId, { connectionId: id, url: serverUrl });
      const info = document.info as Record<string, unknown>;
      const config: OpenApiConfig = {
        source: "openapi",
        title: typeof info.title === "string" ? info.title.slice(0, 200) : name,
        version: typeof info.version === "string" ? info.version.slice(0, 50) : "",
        ...(specUrl ? { spec_url: specUrl.href } : {}),
        server_url: serverUrl.href,
        ...(input.credentialId ? { credential_id: input.credentialId } : {}),
        tools: generated.tools,
        skipped: generated.skipped,
      };
      const connection = await connections.register(actor, {
        id,
        kind: "openapi",
        name,
        provider: `openapi:${name.toLowerCase().slice(0, 100)}`,
        config,
        details: {
          name,
          ...(specUrl ? { spec_url: specUrl.href } : {}),
          server_url: serverUrl.href,
          tools: generated.tools.length,
          ...(input.credentialId ? { credential_id: input.credentialId } : {}),
        },
      });
      invalidate(workspaceId);
      return { connection, toolsGenerated: generated.operations, functions: generated.tools.map((t) => t.name), specUrl: specUrl?.href, skipped: generated.skipped };
    },

    registerMcp: async (actor, input) => {
      const workspaceId = actor.workspaceId;
      const name = cleanName(input.name);
      let url: URL;
      try {
        url = new URL(input.url);
      } catch {
        throw new AppError("invalid_request", { message: "Invalid request: url is not a valid URL.", details: [{ field: "url", message: "must be an https:// URL" }] });
      }
      // Plain HTTP only to hosts the operator allowed (local servers): headers often carry tokens.
      if (url.protocol !== "https:" && !(url.protocol === "http:" && outbound.allowListed(url.hostname))) {
        throw new AppError("invalid_request", {
          message: `Invalid request: url must use HTTPS (plain HTTP only for hosts on SVC_OUTBOUND_ALLOW_HOSTS), not ${url.protocol.replace(":", "")}.`,
          details: [{ field: "url", message: "must be an https:// URL" }],
        });
      }
      const headers: Record<string, string> = {};
      const problems: ErrorDetail[] = [];
      const entries = Object.entries(input.headers ?? {});
      if (entries.length > MAX_HEADERS) problems.push({ field: "headers", message: `at most ${MAX_HEADERS} headers` });
      for (const [header, value] of entries) {
        const lower = header.toLowerCase();
        if (!/^[!#$%&'*+.^_`|~0-9a-z-]{1,100}$/.test(lower)) problems.push({ field: `headers.${header.slice(0, 100)}`, message: "is not a valid header name" });
        else if (TRANSPORT_HEADERS.has(lower)) problems.push({ field: `headers.${header}`, message: "is set by the MCP transport" });
        else if (typeof value !== "string" || /[\r\n\0]/.test(value) || value.length > 8_192) problems.push({ field: `headers.${header}`, message: "must be a string of at most 8192 characters without line breaks" });
        else headers[lower] = value;
      }
      if (problems.length > 0) throw new AppError("invalid_request", { message: `Invalid request: ${problems[0]!.field} ${problems[0]!.message}.`, details: problems });

      const endpoint: McpEndpoint = { url: url.href, transport: input.transport, headers };
      const secrets = Object.values(headers);
      let client;
      let definitions;
      try {
        client = await sessions.open(endpoint);
        definitions = await listMcpTools(client, await takenNames(workspaceId), timeoutMs);
      } catch (error) {
        if (client) await client.close().catch(() => {});
        throw new AppError("mcp_registration_failed", { message: `The MCP server could not be registered: ${mcpFailureMessage(error, secrets)}`, cause: error });
      }
      // A tool whose schema cannot be compiled is kept with open parameters: the server still validates.
      for (const definition of definitions) {
        try {
          compile(definition.parameters);
        } catch {
          definition.parameters = { type: "object", additionalProperties: true };
        }
      }
      const id = ids.make("con");
      try {
        const config: McpConfig = {
          source: "mcp",
          url: url.href,
          transport: input.transport,
          header_names: Object.keys(headers).sort(),
          ...(entries.length > 0 ? { sealed_headers: await vault.seal(workspaceId, headerSecretId(id), Buffer.from(JSON.stringify(headers))) } : {}),
          tools: definitions,
        };
        const connection = await connections.register(actor, {
          id,
          kind: "mcp",
          name,
          provider: "mcp",
          config,
          // Header names only: their values are secrets.
          details: { name, url: url.href, transport: input.transport, tools: definitions.length, header_names: config.header_names },
        });
        sessions.adopt(id, client);
        invalidate(workspaceId);
        return { connection, transport: input.transport, url: url.href, functions: definitions.map((d) => d.name) };
      } catch (error) {
        await client.close().catch(() => {});
        throw error;
      }
    },

    list: async (workspaceId) => (await registry(workspaceId)).tools,

    find: async (workspaceId, name) => (await registry(workspaceId)).byName.get(name),

    validate: (tool, args) => {
      let validate = validators.get(tool);
      if (!validate) {
        validate = compile(tool.parameters);
        validators.set(tool, validate);
      }
      if (validate(args)) return undefined;
      return validationDetails(validate.errors ?? [], "arguments");
    },

    invoke: async (actor, request, govern) => {
      const workspaceId = actor.workspaceId;
      const tool = await service.find(workspaceId, request.name);
      if (!tool) {
        throw new AppError("tool_not_found", { message: `No tool "${request.name.slice(0, 64)}" in this workspace.` });
      }
      const problems = service.validate(tool, request.arguments);
      if (problems) {
        throw new AppError("tool_arguments_invalid", { message: `The arguments of ${tool.name} are not valid: ${problems[0]!.field} ${problems[0]!.message}.`, details: problems });
      }
      let verdict: GovernanceVerdict;
      try {
        verdict = await govern(governedAction(tool, request.arguments, { caller: actor, domain: request.domain }));
      } catch (error) {
        // Fail closed: without a verdict nothing runs.
        throw new AppError("governance_unavailable", { message: "Governance could not evaluate the action; it was not run.", cause: error });
      }
      const facts = {
        decision: verdict.decision,
        ...(request.domain !== undefined ? { domain: request.domain } : {}),
        ...(verdict.policy ? { policy_id: verdict.policy.id } : {}),
        ...(verdict.escalationId ? { escalation_id: verdict.escalationId } : {}),
      };
      if (verdict.decision !== "approved") {
        await audit.record(db, actor, { action: "tool.invoke", resourceType: "tool", resourceId: tool.name, details: { ...callFacts(tool, request.arguments), ...facts } });
        return verdict.decision === "blocked" ? { decision: "blocked", verdict, tool } : { decision: "conditional", verdict, tool };
      }
      const run = await service.run(actor, tool, request.arguments, { details: facts });
      if (run.refused) throw run.refused;
      return { decision: "approved", verdict, tool, status: run.status, result: run.result, durationMs: run.durationMs };
    },

    run: async (actor, tool, args, options = {}) => {
      const workspaceId = actor.workspaceId;
      const started = performance.now();
      let outcome: ToolResult;
      try {
        outcome = await tool.invoke(args, { workspaceId, traceId: actor.traceId, ...(options.signal ? { signal: options.signal } : {}) });
      } catch (error) {
        // Runtimes answer failures as results; anything thrown is a defect, reported as a failed call.
        log.warn({ err: error, tool: tool.name }, "tool runtime threw");
        outcome = { status: "failed", result: { error: "the tool failed unexpectedly" }, unhealthy: true, error: "the tool failed unexpectedly" };
      }
      const durationMs = Math.round(performance.now() - started);
      if (tool.connectionId) connections.recordCall(workspaceId, tool.connectionId, { ok: !outcome.unhealthy, error: outcome.error });
      if (outcome.status === "failed") log.warn({ tool: tool.name, connection_id: tool.connectionId, error: outcome.error }, "tool call failed");
      await db.transaction((tx) =>
        audit.record(tx, actor, {
          action: "tool.invoke",
          resourceType: "tool",
          resourceId: tool.name,
          details: { ...callFacts(tool, args), ...options.details, status: outcome.status, duration_ms: durationMs },
        }),
      );
      return {
        status: outcome.status,
        result: outcome.result,
        durationMs,
        unhealthy: outcome.unhealthy,
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
        ...(outcome.retryAfterMs !== undefined ? { retryAfterMs: outcome.retryAfterMs } : {}),
        ...(outcome.refused ? { refused: outcome.refused } : {}),
      };
    },

    forget: (workspaceId, connectionId) => {
      void sessions.close(connectionId);
      invalidate(workspaceId, connectionId);
    },

    openSessions: () => sessions.openIds(),

    start: async () => {
      unlisten = await database.listen(TOOLS_CHANNEL, (payload) => {
        if (payload === null) {
          registries.clear();
          return;
        }
        const [workspaceId, deletedConnectionId] = payload.split(" ");
        if (workspaceId) registries.delete(workspaceId);
        if (deletedConnectionId) void sessions.close(deletedConnectionId);
      });
    },

    stop: async () => {
      await unlisten?.();
      await sessions.closeAll();
    },
  };
  return service;
}
