import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Actor, AuditLog } from "../../events/audit.ts";
import type { Outbox } from "../../events/outbox.ts";
import type { Ids } from "../../ids.ts";
import type { CredentialService } from "../credentials/service.ts";
import type { HealthContributor } from "../health/service.ts";
import { createCallHealth, type ConnectionHealth } from "./call-health.ts";
import { CATALOG, CATALOG_BY_ID, type CatalogIntegration } from "./catalog.ts";
import { connectionCounts, deleteConnection, installCatalogConnection, insertConnection, listConnections, type ConnectionRow } from "./store.ts";

/** `degraded`: an imported connection whose recent tool calls fail (see call-health.ts). */
export type ConnectionStatus = "connected" | "pending_auth" | "degraded";

export interface ConnectionTool {
  name: string;
  description: string;
}

export interface Connection {
  row: ConnectionRow;
  integration: CatalogIntegration | undefined;
  status: ConnectionStatus;
  /** Catalog capabilities ("refund payment"), or the tool names of an imported connection. */
  capabilities: string[];
  /** The tools of an imported (OpenAPI, MCP) connection; empty for catalog ones. */
  tools: ConnectionTool[];
}

/** An imported connection to store: the tools module builds the config (tool definitions, server details). */
export interface NewToolConnection {
  id: string;
  kind: "openapi" | "mcp";
  name: string;
  provider: string;
  config: Record<string, unknown> & { tools: ConnectionTool[] };
  /** Non-secret facts for the audit entry. */
  details: Record<string, unknown>;
}

/** The tools listed in an imported connection's config (written by the tools module). */
export function toolsOf(row: ConnectionRow): ConnectionTool[] {
  const tools = (row.config as { tools?: unknown }).tools;
  if (row.kind === "catalog" || !Array.isArray(tools)) return [];
  return tools.flatMap((tool: { name?: unknown; description?: unknown }) =>
    typeof tool?.name === "string" ? [{ name: tool.name, description: typeof tool.description === "string" ? tool.description : "" }] : [],
  );
}

export type ConnectResult =
  | { type: "prebuilt"; capability: string; detail: Record<string, unknown> }
  | { type: "schema_required"; capability: string; detail: Record<string, unknown> }
  | { type: "manual"; capability: string; detail: Record<string, unknown> };

export interface ConnectionService extends HealthContributor {
  catalog(workspaceId: string): Promise<{ integrations: CatalogIntegration[]; installed: string[] }>;
  install(actor: Actor, integrationId: string): Promise<{ connection: Connection; created: boolean }>;
  list(workspaceId: string): Promise<Connection[]>;
  delete(actor: Actor, id: string): Promise<void>;
  /** Stores an imported connection (OpenAPI service, MCP server) with its audit entry. */
  register(actor: Actor, connection: NewToolConnection): Promise<Connection>;
  /** Called after a connection was deleted in this process (its tools go, its sessions close). */
  onDeleted(listener: (workspaceId: string, row: ConnectionRow) => void): void;
  /** Records the outcome of a tool call on a connection (failures can make it degraded). */
  recordCall(workspaceId: string, connectionId: string, outcome: { ok: boolean; error?: string }): void;
  /** Whether a connection's tools work, from its recent calls (the intent engine refuses degraded ones). */
  health(workspaceId: string, connectionId: string): ConnectionHealth;
  /** Resolves a capability to the best way to get it in this workspace. */
  connect(workspaceId: string, capability: string): Promise<ConnectResult>;
  /** Recomputes the in-memory health summary of a workspace (after its connections or credentials change). */
  refresh(workspaceId: string): Promise<void>;
  /**
   * The workspace's connections as the intent engine and chat read them on every decision: installed
   * catalog ids, the connected ones' names, counts. Cached: dropped on every change in this process
   * (refresh), read again after a few seconds for changes made by other processes.
   */
  summary(workspaceId: string): Promise<ConnectionSummary>;
  start(): Promise<void>;
  stop(): void;
}

export interface ConnectionSummary {
  installed: Set<string>;
  active: string[];
  total: number;
  healthy: number;
}

const SUMMARY_TTL_MS = 5_000;

const normalise = (text: string) => text.trim().toLowerCase().replace(/[_-]+/g, " ").replace(/\s+/g, " ");
// Health summaries of every workspace are recomputed this often, so changes made by other processes show.
const REFRESH_EVERY_MS = 30_000;

export function createConnectionService(deps: {
  db: Db;
  ids: Ids;
  clock: Clock;
  audit: AuditLog;
  credentials: CredentialService;
  outbox?: Outbox;
  /** Where a failure to record a connection.degraded event is reported. */
  log?: { warn(object: object, message: string): void };
}): ConnectionService {
  const { db, ids, clock, audit, credentials } = deps;
  const counts = new Map<string, { total: number; healthy: number }>();
  const calls = createCallHealth(clock);
  const deletedListeners: ((workspaceId: string, row: ConnectionRow) => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const summaries = new Map<string, { at: number; value: Promise<ConnectionSummary> }>();

  async function withStatus(workspaceId: string, rows: ConnectionRow[]): Promise<Connection[]> {
    const providers = rows.some((row) => row.kind === "catalog") ? await credentials.providers(workspaceId) : new Set<string>();
    return rows.map((row) => {
      if (row.kind !== "catalog") {
        const tools = toolsOf(row);
        return {
          row,
          integration: undefined,
          status: calls.of(workspaceId, row.id).status === "degraded" ? "degraded" : "connected",
          capabilities: tools.map((tool) => tool.name),
          tools,
        };
      }
      const integration = row.integrationId ? CATALOG_BY_ID.get(row.integrationId) : undefined;
      return {
        row,
        integration,
        status: providers.has(row.provider) ? "connected" : "pending_auth",
        capabilities: integration?.capabilities ?? [],
        tools: [],
      };
    });
  }

  async function loadAll(): Promise<void> {
    const fresh = await connectionCounts(db);
    counts.clear();
    for (const c of fresh) counts.set(c.workspaceId, { total: c.total, healthy: c.authorised });
  }

  const service: ConnectionService = {
    catalog: async (workspaceId) => {
      const installed = (await listConnections(db, workspaceId)).flatMap((row) => (row.integrationId ? [row.integrationId] : []));
      return { integrations: CATALOG, installed };
    },

    install: async (actor, integrationId) => {
      const integration = CATALOG_BY_ID.get(integrationId);
      if (!integration) {
        throw new AppError("connection_not_found", {
          message: `No integration "${integrationId.slice(0, 100)}" in the catalog.`,
          hint: "List the catalog with GET /api/v1/svc/connections/catalog and install one of its ids.",
        });
      }
      const result = await db.transaction(async (tx) => {
        const installed = await installCatalogConnection(tx, actor.workspaceId, {
          id: ids.make("con"),
          integrationId,
          name: integration.name,
          provider: integration.provider,
          createdAt: clock.now(),
        });
        if (installed.created) {
          await audit.record(tx, actor, { action: "connection.install", resourceType: "connection", resourceId: installed.row.id, details: { integration_id: integrationId } });
        }
        return installed;
      });
      await service.refresh(actor.workspaceId);
      const [connection] = await withStatus(actor.workspaceId, [result.row]);
      return { connection: connection!, created: result.created };
    },

    list: async (workspaceId) => withStatus(workspaceId, await listConnections(db, workspaceId)),

    delete: async (actor, id) => {
      const deleted = await db.transaction(async (tx) => {
        const row = await deleteConnection(tx, actor.workspaceId, id);
        if (!row) throw new AppError("connection_not_found", { message: `No connection ${id.slice(0, 100)} in this workspace.` });
        await audit.record(tx, actor, {
          action: "connection.delete",
          resourceType: "connection",
          resourceId: id,
          details: row.kind === "catalog" ? { integration_id: row.integrationId } : { type: row.kind, name: row.name },
        });
        return row;
      });
      calls.forget(actor.workspaceId, id);
      for (const listener of deletedListeners) listener(actor.workspaceId, deleted);
      await service.refresh(actor.workspaceId);
    },

    register: async (actor, input) => {
      const row = await db.transaction(async (tx) => {
        const inserted = await insertConnection(tx, actor.workspaceId, {
          id: input.id,
          kind: input.kind,
          name: input.name,
          provider: input.provider,
          config: input.config,
          createdAt: clock.now(),
        });
        await audit.record(tx, actor, { action: "connection.register", resourceType: "connection", resourceId: inserted.id, details: { type: input.kind, ...input.details } });
        return inserted;
      });
      await service.refresh(actor.workspaceId);
      const [connection] = await withStatus(actor.workspaceId, [row]);
      return connection!;
    },

    onDeleted: (listener) => void deletedListeners.push(listener),

    recordCall: (workspaceId, connectionId, outcome) => {
      const before = calls.of(workspaceId, connectionId).status;
      calls.record(workspaceId, connectionId, outcome);
      const after = calls.of(workspaceId, connectionId);
      // Degraded is judged in memory from this process's calls (call-health.ts): no row changes, so the event
      // is the transaction's only write. Sent on the transition, not on every failing call.
      if (before !== "degraded" && after.status === "degraded" && deps.outbox) {
        const data = { connection_id: connectionId, recent_calls: after.recentCalls, recent_failures: after.recentFailures, last_error: after.lastError ?? null };
        void db
          .transaction((tx) => deps.outbox!.emit(tx, workspaceId, "connection.degraded", data))
          .catch((error: unknown) => deps.log?.warn({ err: error, connection_id: connectionId }, "connection.degraded event could not be recorded"));
      }
    },

    health: (workspaceId, connectionId) => calls.of(workspaceId, connectionId),

    connect: async (workspaceId, capability) => {
      const wanted = normalise(capability);
      const offers = (entry: CatalogIntegration) => entry.capabilities.some((c) => normalise(c) === wanted) || entry.id === wanted.replace(/ /g, "_");
      const all = await service.list(workspaceId);
      // An imported tool of that name is the most direct way.
      const imported = all.filter((c) => c.tools.some((tool) => normalise(tool.name) === wanted));
      const direct = imported.find((c) => c.status === "connected") ?? imported[0];
      if (direct) {
        const tool = direct.tools.find((t) => normalise(t.name) === wanted)!;
        return {
          type: "prebuilt",
          capability,
          detail: {
            tool_id: direct.row.id,
            tool_name: tool.name,
            service_id: direct.row.id,
            service_name: direct.row.name,
            auth_type: "configured",
            connector: direct.row.kind,
            source: direct.row.kind,
            health: direct.status === "degraded" ? "degraded" : "healthy",
          },
        };
      }
      const installed = all.filter((c) => c.integration && offers(c.integration));
      const ready = installed.find((c) => c.status === "connected") ?? installed[0];
      if (ready) {
        const integration = ready.integration!;
        const detail = {
          tool_id: ready.row.id,
          tool_name: integration.name,
          service_id: integration.id,
          service_name: integration.name,
          auth_type: integration.auth_type,
          connector: "builtin",
          source: "builtin",
        };
        return ready.status === "connected"
          ? { type: "prebuilt", capability, detail }
          : { type: "schema_required", capability, detail: { ...detail, auth_url: "/api/v1/svc/credentials", provider: integration.provider } };
      }
      const candidates = CATALOG.filter(offers);
      if (candidates.length === 0) {
        const near = CATALOG.flatMap((entry) => entry.capabilities).filter((c) => wanted.split(" ").some((word) => word.length > 2 && normalise(c).includes(word)));
        throw new AppError("connection_not_found", {
          message: `No connection or catalog integration offers "${capability.slice(0, 100)}".`,
          hint: near.length > 0 ? `Capabilities with similar words: ${[...new Set(near)].slice(0, 8).join(", ")}.` : "List the catalog with GET /api/v1/svc/connections/catalog.",
        });
      }
      return {
        type: "manual",
        capability,
        detail: {
          capability,
          available: false,
          health: "unknown",
          integrations: candidates.map((entry) => ({ id: entry.id, name: entry.name, install_endpoint: "/api/v1/svc/connections/install" })),
          pathways: [],
        },
      };
    },

    summary: (workspaceId) => {
      const hit = summaries.get(workspaceId);
      if (hit && Date.now() - hit.at < SUMMARY_TTL_MS) return hit.value;
      const value = service.list(workspaceId).then((list) => ({
        installed: new Set(list.flatMap((c) => (c.row.integrationId ? [c.row.integrationId] : []))),
        active: list.filter((c) => c.status === "connected").map((c) => c.row.name),
        total: list.length,
        healthy: list.filter((c) => c.status === "connected").length,
      }));
      if (summaries.size > 10_000) summaries.clear();
      summaries.set(workspaceId, { at: Date.now(), value });
      value.catch(() => summaries.delete(workspaceId));
      return value;
    },

    refresh: async (workspaceId) => {
      summaries.delete(workspaceId);
      const list = await service.list(workspaceId);
      // Authorised ones; degraded ones are taken off when read (their state changes with every call).
      counts.set(workspaceId, { total: list.length, healthy: list.filter((c) => c.status !== "pending_auth").length });
    },

    // Degraded connections (known from this process's calls) are not healthy.
    connections: (workspaceId) => {
      const count = counts.get(workspaceId) ?? { total: 0, healthy: 0 };
      const degraded = calls.degradedCount(workspaceId);
      return degraded === 0 ? count : { total: count.total, healthy: Math.max(0, count.healthy - degraded) };
    },

    start: async () => {
      await loadAll();
      timer = setInterval(() => void loadAll().catch(() => {}), REFRESH_EVERY_MS);
      timer.unref();
    },

    stop: () => clearInterval(timer),
  };
  return service;
}

