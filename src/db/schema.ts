// The one Drizzle schema, shared by the embedded database and PostgreSQL. Migrations under ./migrations are
// generated from it (`npm run db:generate`) and committed; they are applied at start.
import { sql } from "drizzle-orm";
import { bigint, boolean, customType, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uniqueIndex, uuid, varchar } from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const workspaces = pgTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the full key, hex. The plaintext is never stored. */
    keyHash: text("key_hash").notNull().unique(),
    status: text("status", { enum: ["active", "rotating", "revoked"] }).notNull(),
    rotatedFrom: text("rotated_from"),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    rotatedAt: timestamp("rotated_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("api_keys_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    /** The workspace the request acts on, or "operator" for operator-only routes. */
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["in_progress", "completed"] }).notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    contentType: text("content_type"),
    traceId: text("trace_id").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);

/** Counters of rate-limiter-flexible's PostgreSQL store (its own layout), used when DATABASE_URL is set. */
export const rateLimits = pgTable("rate_limits", {
  key: varchar("key", { length: 255 }).primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * Append-only audit log. Entries of a workspace form a hash chain (each `hash` covers the entry and the
 * previous `hash`), so a rewritten or deleted entry is detectable.
 */
export const auditEntries = pgTable(
  "audit_entries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    actorType: text("actor_type", { enum: ["key", "operator", "system"] }).notNull(),
    actorId: text("actor_id"),
    action: text("action").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceId: text("resource_id"),
    traceId: text("trace_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    uniqueIndex("audit_entries_workspace_seq_idx").on(t.workspaceId, t.seq),
    // For the read API's filters (GET /audit, /audit/timeline); each ends in seq or a time so a filtered
    // page is read in order from the index.
    index("audit_entries_trace_idx").on(t.workspaceId, t.traceId),
    index("audit_entries_resource_idx").on(t.workspaceId, t.resourceType, t.resourceId, t.seq),
    index("audit_entries_action_idx").on(t.workspaceId, t.action, t.seq),
    index("audit_entries_actor_idx").on(t.workspaceId, t.actorId, t.seq),
    index("audit_entries_created_idx").on(t.workspaceId, t.createdAt),
  ],
);

/**
 * The end of each workspace's audit chain: the last entry's seq and hash (and the hash before it). An entry
 * is appended by one statement that moves this row and inserts the entry it returns; the row's lock is what
 * keeps a workspace's chain linear under concurrent writers (src/events/audit.ts).
 */
export const auditHeads = pgTable("audit_heads", {
  workspaceId: text("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  seq: integer("seq").notNull(),
  hash: text("hash").notNull(),
  prevHash: text("prev_hash").notNull(),
});

/** Per-workspace data key for credentials, wrapped (AES-256-GCM) by the master key. */
export const workspaceDataKeys = pgTable("workspace_data_keys", {
  workspaceId: text("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  /** base64(iv ‖ tag ‖ ciphertext) of the 32-byte data key. */
  wrappedKey: text("wrapped_key").notNull(),
  /** Identifies the master key that wrapped it (first bytes of its SHA-256), for rotation. */
  masterKeyId: text("master_key_id").notNull(),
  createdAt: createdAt(),
});

export const credentials = pgTable(
  "credentials",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    name: text("name").notNull(),
    type: text("type", { enum: ["api_key", "bearer", "basic", "oauth2", "session"] }).notNull(),
    /** base64(iv ‖ tag ‖ ciphertext) of the JSON key_data, under the workspace's data key. */
    secret: text("secret").notNull(),
    /** Host patterns named at creation (credentials/hosts.ts); null when none were named. */
    allowedHosts: jsonb("allowed_hosts").$type<string[]>(),
    /** Without named or catalog hosts: the host of the first connection that used it, fixed from then on. */
    boundHost: text("bound_host"),
    createdAt: createdAt(),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("credentials_workspace_idx").on(t.workspaceId, t.provider)],
);

export const memoryItems = pgTable(
  "memory_items",
  {
    id: uuid("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    domain: text("domain").notNull(),
    scope: text("scope").notNull(),
    authority: integer("authority").notNull(),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    content: jsonb("content").$type<Record<string, unknown>>().notNull(),
    /** content.text, kept as a column for search. */
    body: text("body").notNull(),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    search: tsvector("search")
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('english', body)`),
  },
  (t) => [
    index("memory_items_workspace_idx").on(t.workspaceId, t.domain, t.createdAt),
    // fastupdate off: with GIN's pending list, every search scans the entries not yet merged (milliseconds
    // after a bulk load); memory is read far more often than written.
    index("memory_items_search_idx").using("gin", t.search).with({ fastupdate: false }),
    index("memory_items_tags_idx").using("gin", t.tags).with({ fastupdate: false }),
  ],
);

/** Earlier versions of memory items: an update keeps what was there. */
export const memoryItemVersions = pgTable(
  "memory_item_versions",
  {
    itemId: uuid("item_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    version: integer("version").notNull(),
    type: text("type").notNull(),
    domain: text("domain").notNull(),
    scope: text("scope").notNull(),
    authority: integer("authority").notNull(),
    tags: text("tags").array().notNull(),
    content: jsonb("content").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.version] }), index("memory_item_versions_ws_idx").on(t.workspaceId)],
);

/**
 * The words that occur in a workspace's memory, for correcting typos in search queries by trigram
 * similarity against a small table instead of every item's text.
 */
export const memoryTerms = pgTable(
  "memory_terms",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    term: text("term").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.term] }),
    index("memory_terms_trgm_idx").using("gin", t.term.op("gin_trgm_ops")).with({ fastupdate: false }),
  ],
);

/**
 * A workspace's connections: installed catalog integrations (and, to come, imported OpenAPI services and
 * MCP servers). A catalog integration is installed at most once per workspace.
 */
export const connections = pgTable(
  "connections",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["catalog", "openapi", "mcp"] }).notNull(),
    integrationId: text("integration_id"),
    name: text("name").notNull(),
    provider: text("provider").notNull(),
    config: jsonb("config").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index("connections_workspace_idx").on(t.workspaceId, t.createdAt),
    uniqueIndex("connections_catalog_once_idx").on(t.workspaceId, t.integrationId).where(sql`kind = 'catalog'`),
  ],
);

const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

// A policy is a named bundle of rule sentences. Its versions are immutable; `activeVersion` is the one in
// force (null until the first confirmation), `latestVersion` the newest written.
export const policies = pgTable(
  "policies",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    status: text("status", { enum: ["pending_confirmation", "active", "disabled"] }).notNull(),
    activeVersion: integer("active_version"),
    latestVersion: integer("latest_version").notNull(),
    createdAt: createdAt(),
    updatedAt: at("updated_at").notNull().defaultNow(),
    deletedAt: at("deleted_at"),
  },
  (t) => [
    uniqueIndex("policies_name_idx").on(t.workspaceId, t.name).where(sql`deleted_at is null`),
    index("policies_workspace_idx").on(t.workspaceId, t.createdAt),
  ],
);

export const policyVersions = pgTable(
  "policy_versions",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    policyId: text("policy_id")
      .notNull()
      .references(() => policies.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    /** The sentences as written, one clause each. */
    rules: jsonb("rules").$type<string[]>().notNull(),
    /** The compiled clauses (CompiledRule[]), evaluated without reparsing. */
    compiled: jsonb("compiled").$type<unknown[]>().notNull(),
    domain: text("domain"),
    priority: integer("priority").notNull().default(0),
    severity: text("severity", { enum: ["low", "medium", "high", "critical"] }).notNull(),
    createdAt: createdAt(),
    createdBy: text("created_by"),
    confirmedAt: at("confirmed_at"),
    confirmedBy: text("confirmed_by"),
  },
  (t) => [primaryKey({ columns: [t.policyId, t.version] }), index("policy_versions_workspace_idx").on(t.workspaceId, t.policyId)],
);

// Escalations: an action a human must decide on. `action` holds the governed action (tool, arguments,
// domain) so it can be resumed after an `auto` decision.
export const escalations = pgTable(
  "escalations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["pending", "resolved", "rejected"] }).notNull(),
    category: text("category").notNull(),
    severity: text("severity").notNull(),
    toolName: text("tool_name"),
    action: jsonb("action").$type<Record<string, unknown>>().notNull().default({}),
    policyId: text("policy_id"),
    policyVersion: integer("policy_version"),
    clause: text("clause"),
    reason: text("reason").notNull(),
    humanPrompt: text("human_prompt").notNull(),
    executionId: text("execution_id"),
    intent: text("intent"),
    createdAt: createdAt(),
    createdBy: text("created_by"),
    decision: text("decision"),
    note: text("note"),
    resolvedAt: at("resolved_at"),
    resolvedBy: text("resolved_by"),
  },
  (t) => [index("escalations_workspace_idx").on(t.workspaceId, t.status, t.createdAt)],
);

// Approved governed actions, for rate rules ("at most 5 exports a day"). Kept for the longest window
// any rule uses; older rows are pruned.
export const governedActions = pgTable(
  "governed_actions",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    tool: text("tool").notNull(),
    /** The action's short scalar arguments, for rates counted per party ("2 password resets per user"). */
    args: jsonb("args").$type<Record<string, string | number | boolean>>(),
    createdAt: createdAt(),
  },
  (t) => [index("governed_actions_workspace_idx").on(t.workspaceId, t.createdAt)],
);

// Intelligence records: one per intent request, written in the request so GET /intelligence/{id} reads it at
// once. `response` is the whole answer (trace included); `request` keeps what replay needs.
export const intents = pgTable(
  "intents",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    traceId: text("trace_id").notNull(),
    conversationId: text("conversation_id"),
    type: text("type").notNull(),
    status: text("status").notNull(),
    domain: text("domain"),
    /** approved, blocked, conditional, or none when no action was governed. */
    decision: text("decision").notNull(),
    confidence: real("confidence").notNull(),
    gaps: integer("gaps").notNull(),
    durationMs: integer("duration_ms").notNull(),
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    response: jsonb("response").$type<Record<string, unknown>>().notNull(),
    executionId: text("execution_id"),
    createdAt: createdAt(),
  },
  (t) => [index("intents_workspace_idx").on(t.workspaceId, t.createdAt), index("intents_trace_idx").on(t.workspaceId, t.traceId)],
);

// What a conversation is waiting for (a clarification's answer, a confirmation), so the next turn resumes it.
// `state` is the transcript as its endpoint keeps it; `pending` is the tool a clarification asked about,
// with the fields asked for and the arguments already known (owned by src/modules/conversations).
export const conversations = pgTable(
  "conversations",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    state: jsonb("state").$type<Record<string, unknown>>().notNull(),
    pending: jsonb("pending").$type<{ tool: string; fields: string[]; arguments: Record<string, unknown> }>(),
    createdAt: createdAt(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.id] })],
);

// Executions: the planned steps of an approved action, run through the Tool interface.
export const executions = pgTable(
  "executions",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    intentId: text("intent_id"),
    status: text("status", { enum: ["awaiting_approval", "ready", "running", "completed", "failed", "cancelled"] }).notNull(),
    domain: text("domain"),
    steps: jsonb("steps").$type<Record<string, unknown>[]>().notNull(),
    result: jsonb("result").$type<unknown>(),
    error: text("error"),
    diagnosis: jsonb("diagnosis").$type<Record<string, unknown>>(),
    escalationId: text("escalation_id"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    startedAt: at("started_at"),
    finishedAt: at("finished_at"),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [index("executions_workspace_idx").on(t.workspaceId, t.createdAt), index("executions_escalation_idx").on(t.workspaceId, t.escalationId)],
);

// Setup sessions: a setup assembled over several requests, then applied once through the same code as
// POST /setup. Items are kept as sent, except credentials' key data, sealed with the workspace's vault
// key (`sealed`) so that no secret sits in the clear in a draft. `result` is the SetupResult of the apply,
// answered again to a repeated apply.
export const setupSessions = pgTable(
  "setup_sessions",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["draft", "applying", "applied", "failed"] }).notNull(),
    purpose: text("purpose"),
    constraints: jsonb("constraints").$type<string[]>().notNull().default([]),
    items: jsonb("items").$type<Record<string, unknown[]>>().notNull().default({}),
    appliedCount: integer("applied_count").notNull().default(0),
    failedCount: integer("failed_count").notNull().default(0),
    result: jsonb("result").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: at("updated_at").notNull().defaultNow(),
    appliedAt: at("applied_at"),
  },
  (t) => [index("setup_sessions_workspace_idx").on(t.workspaceId, t.createdAt)],
);

// Healing precedents: a failure and what became of it. Written by the execution runner when a step failed
// and then succeeded on retry (success), when an execution ends failed (success false until a later run
// of the same tool completes: then marked recovered with what worked), and by promoting a record. One row
// per source (`source_key`: the execution step, or the promoted record), so writing again changes nothing.
export const healingPrecedents = pgTable(
  "healing_precedents",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    sourceKey: text("source_key").notNull(),
    source: text("source", { enum: ["execution", "promoted"] }).notNull(),
    executionId: text("execution_id"),
    traceId: text("trace_id"),
    toolName: text("tool_name"),
    errorCategory: text("error_category").notNull(),
    errorType: text("error_type").notNull(),
    rootCause: text("root_cause").notNull(),
    recoveryStrategy: text("recovery_strategy").notNull(),
    whatFailed: text("what_failed").notNull(),
    whatWorked: text("what_worked"),
    success: boolean("success").notNull(),
    attempts: integer("attempts").notNull(),
    durationMs: integer("duration_ms"),
    confidence: real("confidence").notNull(),
    domain: text("domain"),
    recoveredBy: text("recovered_by"),
    createdAt: createdAt(),
    recoveredAt: at("recovered_at"),
  },
  (t) => [
    uniqueIndex("healing_precedents_source_idx").on(t.workspaceId, t.sourceKey),
    index("healing_precedents_match_idx").on(t.workspaceId, t.toolName, t.errorCategory),
    index("healing_precedents_workspace_idx").on(t.workspaceId, t.createdAt),
  ],
);

// What an intelligence record was promoted to (POST /intelligence/{id}/promote), once per record and kind.
export const promotions = pgTable(
  "promotions",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    intentId: text("intent_id").notNull(),
    kind: text("kind", { enum: ["memory", "healing", "procedure"] }).notNull(),
    targetId: text("target_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.intentId, t.kind] })],
);

// Webhook subscriptions (src/modules/webhooks). `events` holds event names or "*"; `secret` is sealed by the
// credential vault like a credential's key_data (base64(iv ‖ tag ‖ ciphertext)).
export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: jsonb("events").$type<string[]>().notNull(),
    secret: text("secret").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index("webhooks_workspace_idx").on(t.workspaceId, t.createdAt)],
);

// The outbox: an event is written in the transaction of the change that causes it, together with one
// delivery per matching subscription (src/events/outbox.ts); the delivery worker sends them after commit.
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_events_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    status: text("status", { enum: ["pending", "delivering", "delivered", "failed"] }).notNull(),
    /** Attempts made since the delivery was created or last redelivered. */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: at("next_attempt_at").notNull().defaultNow(),
    /** Set while a worker holds the delivery; another worker may take it over once the lease has passed. */
    leaseToken: text("lease_token"),
    leaseUntil: at("lease_until"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastAttemptAt: at("last_attempt_at"),
    deliveredAt: at("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_idx").on(t.webhookId, t.eventId),
    index("webhook_deliveries_list_idx").on(t.workspaceId, t.webhookId, t.createdAt),
    // The worker's scan: only unfinished deliveries, by when they are due.
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`status in ('pending', 'delivering')`),
  ],
);
