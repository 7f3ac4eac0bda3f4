import { Offset } from "../../http/wire.ts";
import { Type, type Static, type TSchema } from "typebox";
import { OPTIONAL_BODY } from "../../http/body.ts";
import { Pagination } from "../workspaces/schemas.ts";

/** Items a setup list may hold: the work is bounded, and each item is applied through its own service. */
export const MAX_SETUP_ITEMS = 100;

// Item fields are loose on purpose: each item is checked by the service that applies it, and a bad item
// fails alone (status "failed" with the service's own error code) instead of failing the whole request.
const loose = () => Type.Optional(Type.Unknown());
const list = <T extends TSchema>(item: T) => Type.Optional(Type.Union([Type.Array(item, { maxItems: MAX_SETUP_ITEMS }), Type.Null()]));
const texts = () => Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 50 }), Type.Null()]));

export const SetupBody = Type.Object(
  {
    workspace_id: Type.Optional(Type.Unknown({ description: "Accepted and ignored: the workspace is the key's" })),
    purpose: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    examples: texts(),
    constraints: texts(),
    connections: list(Type.Object({ capability: loose() })),
    credentials: list(Type.Object({ provider: loose(), name: loose(), key_data: loose(), type: loose(), allowed_hosts: loose() })),
    memory: list(Type.Object({ type: loose(), content: loose(), domain: loose(), tags: loose(), authority: loose(), scope: loose() })),
    policies: list(
      Type.Object({ name: loose(), description: loose(), rule: loose(), rules: loose(), severity: loose(), domain: loose(), priority: loose() }),
    ),
    confirm: Type.Optional(Type.Union([Type.Boolean({ description: "Also confirm the policies created here (they govern at once)" }), Type.Null()])),
    dry_run: Type.Optional(Type.Union([Type.Boolean({ description: "Check everything, write nothing" }), Type.Null()])),
  },
  { [OPTIONAL_BODY]: true },
);
export type SetupBody = Static<typeof SetupBody>;

// What failed, on every kind of item: `error` is the message (a string, as the clients read it) and
// `error_code` the catalog code to branch on.
const failure = {
  error: Type.Optional(Type.String()),
  error_code: Type.Optional(Type.String()),
  details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
};

const ConnectionResult = Type.Object({
  capability: Type.String(),
  status: Type.String({ description: "connected, schema_required, manual, unknown or failed" }),
  detail: Type.Optional(Type.Object({}, { additionalProperties: true })),
  ...failure,
});

const CredentialResult = Type.Object({
  provider: Type.String(),
  name: Type.String(),
  id: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
  status: Type.String({ description: "created, would_create or failed" }),
  ...failure,
});

const MemoryResult = Type.Object({
  id: Type.String({ description: "Empty in a dry run and when the item failed" }),
  type: Type.String(),
  kind: Type.String(),
  classified: Type.Boolean(),
  domain: Type.Optional(Type.String()),
  status: Type.String({ description: "created, would_create or failed" }),
  ...failure,
});

const PolicyResult = Type.Object({
  name: Type.String(),
  id: Type.Optional(Type.String()),
  status: Type.String({ description: "created, would_create or failed" }),
  version: Type.Optional(Type.Integer()),
  policy_status: Type.Optional(Type.String({ description: "pending_confirmation, or active when confirm was true" })),
  confirmed: Type.Boolean(),
  approve_url: Type.Optional(Type.String()),
  restatement: Type.Optional(Type.String()),
  suggestion: Type.Optional(Type.String({ description: "A phrasing the policy language accepts, when the rule could not be placed" })),
  ...failure,
});

const ConnectionToRegister = Type.Object({
  capability: Type.Union([Type.String(), Type.Null()]),
  integration_id: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  provider: Type.Optional(Type.String()),
  integrations: Type.Optional(Type.Array(Type.String({ description: "Catalog integrations that offer the capability" }))),
  status: Type.String({ description: "pending_auth (installed, no credential), not_installed, no_tools (connected, nothing callable) or unknown (nothing offers it)" }),
  reason: Type.String(),
  action: Type.String({ description: "add_credential, install or import_tools" }),
  endpoint: Type.String(),
  required: Type.Boolean(),
});

export const Checklist = Type.Object({
  connections_to_register: Type.Array(ConnectionToRegister),
  memory_to_upload: Type.Array(Type.Object({ type: Type.String(), reason: Type.String(), endpoint: Type.String(), required: Type.Boolean() })),
  policies_to_confirm: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      version: Type.Integer({ description: "The version waiting for confirmation" }),
      active_version: Type.Union([Type.Integer(), Type.Null()]),
      approve_url: Type.String(),
      restatement: Type.String(),
      required: Type.Boolean(),
    }),
  ),
  webhooks_to_configure: Type.Array(
    Type.Object({ status: Type.String(), reason: Type.String(), endpoint: Type.String(), events: Type.Array(Type.String()), required: Type.Boolean() }),
  ),
  complete: Type.Boolean({ description: "No required entry is left" }),
  summary: Type.Object({
    connections: Type.Object({ total: Type.Integer(), connected: Type.Integer(), pending_auth: Type.Integer(), degraded: Type.Integer() }),
    tools: Type.Integer(),
    credentials: Type.Integer(),
    memory_items: Type.Integer(),
    memory_by_type: Type.Record(Type.String(), Type.Integer()),
    policies: Type.Object({ active: Type.Integer(), pending_confirmation: Type.Integer(), disabled: Type.Integer() }),
  }),
});
export type Checklist = Static<typeof Checklist>;

export const SetupResult = Type.Object({
  connections: Type.Array(ConnectionResult),
  credentials: Type.Array(CredentialResult),
  memory: Type.Array(MemoryResult),
  policies: Type.Array(PolicyResult),
  applied: Type.Integer({ description: "Items that took effect (0 in a dry run)" }),
  failed: Type.Integer({ description: "Items that failed (or would fail, in a dry run)" }),
  would_apply: Type.Optional(Type.Integer({ description: "Dry run: items that would take effect" })),
  dry_run: Type.Boolean(),
  notice: Type.Optional(Type.String()),
  checklist: Checklist,
});
export type SetupResult = Static<typeof SetupResult>;
export type ConnectionResult = Static<typeof ConnectionResult>;
export type CredentialResult = Static<typeof CredentialResult>;
export type MemoryResult = Static<typeof MemoryResult>;
export type PolicyResult = Static<typeof PolicyResult>;
export type ConnectionToRegister = Static<typeof ConnectionToRegister>;

// Assessment (wire reference 4.16).

export const AssessBody = Type.Object(
  {
    task: Type.Optional(Type.Unknown({ description: "The task, in words (required; checked by the service: 400 assessment_missing_task)" })),
    domain: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  },
  { [OPTIONAL_BODY]: true },
);
export type AssessBody = Static<typeof AssessBody>;

const CapabilityMatch = Type.Object({
  name: Type.String(),
  human_name: Type.String(),
  description: Type.String(),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  matched_on: Type.Array(Type.String()),
  health: Type.String({ description: "healthy, degraded, latent or unknown" }),
  source: Type.String({ description: "openapi, mcp (the workspace's tools) or builtin (a catalog integration)" }),
  status: Type.String({ description: "ready, degraded (tools); connected, pending_auth, available (catalog integrations)" }),
  category: Type.String(),
  functions: Type.Array(Type.String()),
});

const Gap = Type.Object({
  capability: Type.String(),
  reason: Type.String(),
  description: Type.String(),
  blocking: Type.Boolean(),
  severity: Type.String({ description: "blocking, high, medium, low or optional" }),
  source: Type.String(),
});

export const Assessment = Type.Object({
  task: Type.String(),
  domain: Type.Union([Type.String(), Type.Null()]),
  can_do: Type.Number({ minimum: 0, maximum: 1 }),
  assessment_quality: Type.String({ description: "insufficient_data, partial or complete" }),
  ready_capabilities: Type.Integer(),
  total_capabilities: Type.Integer(),
  gap_count: Type.Integer(),
  blocking_gaps: Type.Integer(),
  ready_for_deployment: Type.Boolean(),
  capabilities: Type.Array(CapabilityMatch),
  gaps: Type.Array(Gap),
  gap_filling_tasks: Type.Array(Type.Object({ capability: Type.String(), action: Type.String(), endpoint: Type.String(), description: Type.String() })),
  policies_recommended: Type.Array(
    Type.Object({
      policy: Type.String({ description: "A sentence in the policy language (it parses)" }),
      reason: Type.String(),
      action: Type.String({ description: "The policy's effect: require_approval" }),
      blocking: Type.Boolean(),
      tool: Type.String(),
      name: Type.String({ description: "A name to create it with" }),
      endpoint: Type.String(),
    }),
  ),
  needs_clarification: Type.Array(Type.String({ description: "Required parameters of the best tool the task does not give (or `tool` when two tools fit equally)" })),
  clarification_questions: Type.Array(Type.Object({ field: Type.String(), question: Type.String() })),
  governance_decision: Type.Optional(
    Type.Object({
      type: Type.String({ description: "auto, escalate or abstain" }),
      confidence: Type.Number(),
      reason: Type.String(),
      tool: Type.String(),
      policy_id: Type.Optional(Type.String()),
      policy_name: Type.Optional(Type.String()),
    }),
  ),
  outcomes: Type.Array(
    Type.Object({ title: Type.String(), description: Type.String(), confidence: Type.Number(), ready: Type.Boolean(), blocked_by: Type.Optional(Type.String()) }),
  ),
});
export type Assessment = Static<typeof Assessment>;

/** The wire reference's safe answer: the assessment at the top level and under `assessment` (clients disagree). */
export const AssessResponse = Type.Object({ ...Assessment.properties, assessment: Assessment });

// Setup sessions (wire reference 4.15, S1–S5).

/** The item lists a session holds, as POST /setup takes them. */
const SessionItems = {
  connections: SetupBody.properties.connections,
  credentials: SetupBody.properties.credentials,
  memory: SetupBody.properties.memory,
  policies: SetupBody.properties.policies,
};

export const SessionCreateBody = Type.Object(
  {
    workspace_id: SetupBody.properties.workspace_id,
    purpose: SetupBody.properties.purpose,
    constraints: SetupBody.properties.constraints,
    ...SessionItems,
  },
  { [OPTIONAL_BODY]: true },
);
export type SessionCreateBody = Static<typeof SessionCreateBody>;

export const SessionAddBody = Type.Object({ workspace_id: SetupBody.properties.workspace_id, ...SessionItems }, { [OPTIONAL_BODY]: true });
export type SessionAddBody = Static<typeof SessionAddBody>;

export const SessionApplyBody = Type.Object(
  {
    confirm: SetupBody.properties.confirm,
    dry_run: Type.Optional(Type.Union([Type.Boolean({ description: "Check the session's items as POST /setup's dry run does; the session stays a draft" }), Type.Null()])),
  },
  { [OPTIONAL_BODY]: true },
);
export type SessionApplyBody = Static<typeof SessionApplyBody>;

export const SessionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const SessionListQuery = Type.Object({
  status: Type.Optional(Type.Union(["draft", "applying", "applied", "failed"].map((s) => Type.Literal(s)))),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  offset: Type.Optional(Offset),
});

const Item = Type.Object({}, { additionalProperties: true });

export const SetupSession = Type.Object({
  id: Type.String(),
  status: Type.String({ description: "draft, applying, applied or failed" }),
  purpose: Type.Union([Type.String(), Type.Null()]),
  constraints: Type.Array(Type.String()),
  connections: Type.Array(Item),
  credentials: Type.Array(
    Type.Object(
      {
        provider: Type.Unknown(),
        name: Type.Unknown(),
        key_data: Type.Optional(Type.Record(Type.String(), Type.String(), { description: "The key data's field names, each value `[sealed]`: the secrets are never answered" })),
      },
      { additionalProperties: true },
    ),
  ),
  memory: Type.Array(Item),
  policies: Type.Array(Item),
  proposals: Type.Array(Type.Object({ type: Type.String(), description: Type.String(), detail: Type.Object({}, { additionalProperties: true }) })),
  applied_count: Type.Integer(),
  failed_count: Type.Integer(),
  created_at: Type.String({ format: "date-time" }),
  updated_at: Type.String({ format: "date-time" }),
  applied_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  result: Type.Optional(SetupResult),
});
export type SetupSession = Static<typeof SetupSession>;

export const SetupSessionList = Type.Object({
  sessions: Type.Array(SetupSession),
  count: Type.Integer(),
  total: Type.Integer(),
  pagination: Pagination,
});

export const SessionApplyResult = Type.Object({
  session_id: Type.String(),
  status: Type.String({ description: "applied, failed, or draft after a dry run" }),
  applied: Type.Integer(),
  failed: Type.Integer(),
  dry_run: Type.Boolean(),
  replayed: Type.Boolean({ description: "True when the session had been applied before: the stored result, nothing applied again" }),
  result: SetupResult,
});
export type SessionApplyResult = Static<typeof SessionApplyResult>;
