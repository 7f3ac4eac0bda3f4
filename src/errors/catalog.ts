// The one catalog of error codes. Status, type, message and hint live here and nowhere else; the edge turns
// an AppError into the canonical body, and the docs page at /infra/docs/errors is generated from this list.
// Statuses follow the contract's catalog exactly, including the 500s it gives to some input problems.

export type ErrorType =
  | "invalid_request"
  | "authentication_error"
  | "permission_error"
  | "not_found"
  | "conflict"
  | "validation_error"
  | "rate_limit"
  | "internal_error"
  | "service_unavailable";

/** What the caller should do next; `type` values beyond the contract's are documented in docs/errors.md. */
export type ErrorNextActionType = "fix_request" | "check_auth" | "retry" | "connect_tool" | "contact_operator" | "none";

export interface CatalogEntry {
  status: number;
  message: string;
  hint: string;
  /** Set for codes this service adds to the contract's catalog. */
  added?: true;
  next?: ErrorNextActionType;
}

export const ERROR_TYPE_BY_STATUS: Record<number, ErrorType> = {
  400: "invalid_request",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found",
  405: "invalid_request",
  408: "invalid_request",
  409: "conflict",
  413: "invalid_request",
  415: "invalid_request",
  431: "invalid_request",
  422: "validation_error",
  429: "rate_limit",
  500: "internal_error",
  502: "service_unavailable",
  503: "service_unavailable",
  504: "service_unavailable",
};

const retry = "Retry with exponential backoff (1 s, 2 s, 4 s …); if it persists, contact the operator with the trace_id.";
const unavailable = (what: string): CatalogEntry => ({
  status: 503,
  message: `${what} is not available right now.`,
  hint: retry,
  next: "retry",
});

export const CATALOG = {
  // Authentication (contract: Authentication)
  auth_missing: { status: 401, message: "No Authorization header was sent.", hint: "Send `Authorization: Bearer sk_svc_…` with an API key of your workspace.", next: "check_auth" },
  auth_invalid: { status: 401, message: "The API key is not valid.", hint: "Check that the whole key was copied (it starts with `sk_svc_`); create a new one if it was lost.", next: "check_auth" },
  auth_revoked: { status: 401, message: "This API key was revoked.", hint: "Use another active key of the workspace, or create a new one.", next: "check_auth" },
  auth_rotating: { status: 401, message: "This API key was rotated and no longer works.", hint: "Use the new key returned by the rotation.", next: "check_auth" },
  auth_forbidden: { status: 403, message: "This credential has no access to the requested workspace resource.", hint: "Use a key of the workspace that owns the resource, or the operator token.", next: "check_auth" },
  rate_limited: { status: 429, message: "Too many requests.", hint: "Wait for the number of seconds in the Retry-After header, then retry.", next: "retry" },

  // Contract: error catalog
  invalid_request: { status: 400, message: "The request is not valid.", hint: "Fix the fields listed in `error.details` and send the request again.", next: "fix_request" },
  missing_fields: { status: 400, message: "None of connections, credentials, memory or policies was given.", hint: "Send at least one of `connections`, `credentials`, `memory`, `policies`.", next: "fix_request" },
  invalid_memory_type: { status: 400, message: "The memory type is not one of the memory types.", hint: "Use one of reference, preference, episode, precedent, note, project.", next: "fix_request" },
  invalid_memory_id: { status: 400, message: "The memory ID is not a well-formed UUID.", hint: "Pass the `id` returned when the memory item was created.", next: "fix_request" },
  memory_query_required: { status: 400, message: "The `query` parameter is missing.", hint: "Pass a non-empty `query` to search memory.", next: "fix_request" },
  openapi_invalid_url: { status: 400, message: "The spec URL is not a valid HTTPS URL.", hint: "Serve the OpenAPI document over HTTPS, or send it inline as `spec_content`.", next: "fix_request" },
  assessment_missing_task: { status: 400, message: "The `task` field is missing.", hint: "Describe the task to assess in `task`.", next: "fix_request" },
  policy_missing_name: { status: 400, message: "The policy `name` is missing.", hint: "Give the policy a unique `name`.", next: "fix_request" },
  escalation_missing_decision: { status: 400, message: "The `decision` is missing or not an allowed value.", hint: "Use one of auto, auto_complete, handoff, escalate, clarify_requester, abstain.", next: "fix_request" },
  a2a_ssrf_blocked: { status: 400, message: "The URL is blocked (localhost, private address or scheme not permitted).", hint: "Use a public HTTPS URL for the external agent.", next: "fix_request" },
  federation_self_federation_blocked: { status: 400, message: "A workspace cannot federate with itself.", hint: "Name another workspace as the target.", next: "fix_request" },
  unauthorized: { status: 401, message: "The API key is missing or not valid.", hint: "Send `Authorization: Bearer sk_svc_…` with an active key.", next: "check_auth" },
  forbidden: { status: 403, message: "The key lacks permission for this resource.", hint: "Use a credential with access to the resource.", next: "check_auth" },
  connection_forbidden: { status: 403, message: "The connection belongs to another workspace or needs elevated permission.", hint: "Use a key of the workspace that owns the connection.", next: "check_auth" },
  blocked_by_policy: { status: 403, message: "The action was blocked by a policy.", hint: "Read the policy named in the response; change the request or ask an administrator to change the policy.", next: "none" },
  conditional_approval_required: { status: 403, message: "Human approval is needed for this action.", hint: "Resolve the escalation at the approve URL in the response, then retry.", next: "none" },
  a2a_external_agents_disabled: { status: 403, message: "External agents are not enabled in this workspace.", hint: "Enable external agents in the workspace settings.", next: "contact_operator" },
  a2a_governance_blocked: { status: 403, message: "A policy blocked the interaction with the external agent.", hint: "Read the policy named in the response.", next: "none" },
  federation_approval_denied: { status: 403, message: "No permission to approve this federation link.", hint: "The target workspace must approve the link.", next: "check_auth" },
  not_found: { status: 404, message: "The resource or endpoint was not found.", hint: "Check the method and path against the API reference at /infra/docs.", next: "fix_request" },
  memory_not_found: { status: 404, message: "The memory item was not found.", hint: "Check the ID; the item may have been deleted.", next: "fix_request" },
  connection_not_found: { status: 404, message: "The connection or capability was not found.", hint: "List the catalog with GET /api/v1/svc/connections/catalog for valid ids.", next: "fix_request" },
  policy_not_found: { status: 404, message: "The policy was not found.", hint: "List policies with GET /api/v1/svc/policies.", next: "fix_request" },
  escalation_not_found: { status: 404, message: "The escalation was not found.", hint: "List escalations with GET /api/v1/svc/escalations.", next: "fix_request" },
  credential_not_found: { status: 404, message: "The credential was not found.", hint: "List credentials with GET /api/v1/svc/credentials.", next: "fix_request" },
  intelligence_not_found: { status: 404, message: "The request record was not found.", hint: "Use the intent `id` or the `trace_id` of a request of this workspace.", next: "fix_request" },
  webhook_not_found: { status: 404, message: "The webhook subscription was not found.", hint: "List subscriptions with GET /api/v1/svc/webhooks.", next: "fix_request" },
  webhook_delivery_not_found: { status: 404, added: true, message: "The webhook delivery was not found.", hint: "List a subscription's deliveries with GET /api/v1/svc/webhooks/{id}/deliveries.", next: "fix_request" },
  webhook_delivery_in_progress: { status: 409, added: true, message: "The webhook delivery is being sent right now.", hint: "Read the delivery again in a moment; redeliver it once it is delivered, pending or failed.", next: "retry" },
  federation_target_not_found: { status: 404, message: "The target workspace was not found.", hint: "Check the target workspace ID.", next: "fix_request" },
  a2a_connection_already_exists: { status: 409, message: "A connection to this agent URL exists.", hint: "Use the existing connection, or delete it first.", next: "none" },
  federation_already_exists: { status: 409, message: "A link to this workspace exists.", hint: "Use the existing link.", next: "none" },
  tenant_required: { status: 422, message: "A valid workspace ID header is needed.", hint: "As operator, name the workspace in the `X-Svc-Workspace-ID` header.", next: "fix_request" },
  missing_capability: { status: 422, message: "A required tool is not connected.", hint: "Install the integration named in the response.", next: "connect_tool" },
  degraded_capability: { status: 422, message: "A connected tool is not working.", hint: "Check the connection's health and credentials.", next: "connect_tool" },
  rate_limit: { status: 429, message: "Too many requests.", hint: "Wait for the number of seconds in the Retry-After header, then retry.", next: "retry" },
  internal_error: { status: 500, message: "The service failed to process the request.", hint: retry, next: "retry" },
  memory_creation_failed: { status: 500, message: "The memory item could not be created.", hint: "Send a non-empty `content.text` and a valid `type`.", next: "fix_request" },
  memory_search_failed: { status: 500, message: "The knowledge query failed.", hint: retry, next: "retry" },
  policy_query_failed: { status: 500, message: "The policy query failed.", hint: retry, next: "retry" },
  policy_creation_failed: { status: 500, message: "The policy could not be created (duplicate name or a rule that cannot be understood).", hint: "Read `error.details`: it names the words that could not be placed and suggests a phrasing.", next: "fix_request" },
  policy_confirm_failed: { status: 500, message: "The policy ID or version is wrong.", hint: "Confirm with the `id` and `version` returned when the policy was created or updated.", next: "fix_request" },
  policy_evaluation_failed: { status: 500, message: "The policy rule could not be evaluated.", hint: "Rewrite the rule; the action was not approved.", next: "fix_request" },
  audit_query_failed: { status: 500, message: "The audit query failed.", hint: retry, next: "retry" },
  audit_stats_failed: { status: 500, message: "The audit statistics could not be computed.", hint: retry, next: "retry" },
  audit_timeline_failed: { status: 500, message: "The execution timeline query failed.", hint: retry, next: "retry" },
  credential_creation_failed: { status: 500, message: "The credential could not be created.", hint: "Send `provider`, `name` and `key_data`.", next: "fix_request" },
  credential_list_failed: { status: 500, message: "The credentials could not be listed.", hint: retry, next: "retry" },
  credential_delete_failed: { status: 500, message: "The credential could not be deleted.", hint: retry, next: "retry" },
  diagnosis_failed: { status: 500, message: "The failure could not be diagnosed.", hint: "Send the failure's text in `error_message`.", next: "fix_request" },
  webhook_creation_failed: { status: 500, message: "The webhook subscription could not be created.", hint: "Send an HTTPS `url`, at least one `event` and a `secret`.", next: "fix_request" },
  webhook_list_failed: { status: 500, message: "The webhook subscriptions could not be listed.", hint: retry, next: "retry" },
  webhook_delete_failed: { status: 500, message: "The webhook subscription could not be deleted.", hint: retry, next: "retry" },
  connection_unregister_failed: { status: 500, message: "The connection could not be deleted.", hint: retry, next: "retry" },
  escalation_resolve_failed: { status: 500, message: "The escalation could not be resolved.", hint: "Check the decision and that the escalation is still pending.", next: "fix_request" },
  escalation_list_failed: { status: 500, message: "The escalations could not be listed.", hint: retry, next: "retry" },
  intelligence_query_failed: { status: 500, message: "The intelligence query failed.", hint: retry, next: "retry" },
  intelligence_stats_failed: { status: 500, message: "The intelligence statistics could not be computed.", hint: retry, next: "retry" },
  install_failed: { status: 500, message: "The integration could not be installed.", hint: retry, next: "retry" },
  openapi_fetch_failed: { status: 500, message: "The OpenAPI document could not be fetched from the URL.", hint: "Check that the URL is reachable over HTTPS and public, or send the document as `spec_content`.", next: "fix_request" },
  openapi_read_failed: { status: 500, message: "The OpenAPI document could not be parsed (JSON or YAML expected).", hint: "Validate the document's syntax.", next: "fix_request" },
  openapi_invalid_spec: { status: 500, message: "The OpenAPI document lacks required fields such as `info` or `paths`.", hint: "Send an OpenAPI 3 document with `info` and `paths`.", next: "fix_request" },
  openapi_generation_failed: { status: 500, message: "Tools could not be generated from the OpenAPI document.", hint: "Check the operations' parameters and schemas.", next: "fix_request" },
  mcp_registration_failed: { status: 500, message: "The MCP server could not be registered.", hint: "Check the URL, the transport and the headers; the server must answer initialize and tools/list.", next: "fix_request" },
  learning_detection_failed: { status: 500, message: "Pattern detection failed.", hint: retry, next: "retry" },
  learning_query_failed: { status: 500, message: "The learning query failed.", hint: retry, next: "retry" },
  learning_suggestion_failed: { status: 500, message: "The knowledge suggestion failed.", hint: retry, next: "retry" },
  preconditions_check_failed: { status: 500, message: "The precondition check failed.", hint: retry, next: "retry" },
  federation_link_creation_failed: { status: 500, message: "The federation link could not be created.", hint: retry, next: "retry" },
  federation_suspension_failed: { status: 500, message: "The federation link could not be suspended.", hint: retry, next: "retry" },
  a2a_agent_card_fetch_failed: { status: 502, message: "The agent card could not be fetched from the URL.", hint: "Check that the agent serves /.well-known/agent-card.json over HTTPS.", next: "retry" },
  store_unavailable: unavailable("The database"),
  service_unavailable: unavailable("A backend dependency"),
  routing_unavailable: { status: 503, message: "Request routing is not available: the configured model provider cannot be reached.", hint: retry, next: "retry" },
  governance_unavailable: unavailable("The rules engine"),
  capabilities_unavailable: { status: 503, message: "No tools are configured for the workspace.", hint: "Register a connection first.", next: "connect_tool" },
  audit_unavailable: unavailable("The audit log"),
  learning_unavailable: unavailable("The learning system"),
  escalations_unavailable: unavailable("The escalation system"),
  credentials_unavailable: unavailable("The credential store"),
  intelligence_unavailable: unavailable("Request tracking"),
  webhook_unavailable: unavailable("The webhook system"),
  provider_unavailable: unavailable("The integration provider"),
  openapi_unavailable: unavailable("The OpenAPI integration"),
  mcp_unavailable: unavailable("The MCP gateway"),
  diagnosis_unavailable: unavailable("Healing diagnostics"),
  preconditions_unavailable: unavailable("Precondition checking"),
  a2a_task_timeout: { status: 504, message: "The external agent did not respond within the timeout window.", hint: retry, next: "retry" },

  // Added by this service (not in the contract's catalog)
  payload_too_large: { status: 413, added: true, message: "The request body is larger than the limit.", hint: "Send a smaller body; the limit is set by SVC_BODY_LIMIT_BYTES (1 MiB by default).", next: "fix_request" },
  request_header_too_large: { status: 431, added: true, message: "The request's headers are larger than the limit (16 KiB in all).", hint: "Send fewer or shorter headers.", next: "fix_request" },
  request_timeout: { status: 408, added: true, message: "The request was not received in time.", hint: "Send the whole request promptly, then retry.", next: "retry" },
  unsupported_media_type: { status: 415, added: true, message: "The request body's Content-Type is not supported.", hint: "Send JSON with `Content-Type: application/json`.", next: "fix_request" },
  idempotency_key_reused: { status: 422, added: true, message: "This Idempotency-Key was already used with a different request.", hint: "Use a new Idempotency-Key for a different request; reuse a key only to retry the very same request.", next: "fix_request" },
  idempotency_key_in_use: { status: 409, added: true, message: "A request with this Idempotency-Key is still being processed.", hint: "Retry after the number of seconds in Retry-After; the first request's answer will be replayed.", next: "retry" },
  workspace_not_found: { status: 404, added: true, message: "The workspace was not found.", hint: "List workspaces with GET /api/v1/maas/workspaces (operator token).", next: "fix_request" },
  api_key_not_found: { status: 404, added: true, message: "The API key was not found in this workspace (or it was revoked).", hint: "List the workspace's keys with GET /api/v1/maas/workspaces/{workspace_id}/api-keys.", next: "fix_request" },
  memory_contains_secret: { status: 400, added: true, message: "The memory content looks like it holds a secret.", hint: "Store secrets with POST /api/v1/svc/credentials and refer to them by id; memory items are searchable and shared.", next: "fix_request" },
  api_key_not_active: { status: 409, added: true, message: "Only an active API key can be rotated.", hint: "Rotate the key that replaced it (see `rotated_from` on the newer key).", next: "fix_request" },
  tool_not_found: { status: 404, added: true, message: "No tool of that name in this workspace.", hint: "List the workspace's tools with GET /api/v1/svc/tools; tools come from OpenAPI and MCP connections.", next: "fix_request" },
  tool_arguments_invalid: { status: 400, added: true, message: "The arguments do not match the tool's parameters.", hint: "Fix the arguments listed in `error.details`; the tool's JSON Schema is in GET /api/v1/svc/tools.", next: "fix_request" },
  escalation_already_resolved: { status: 409, added: true, message: "The escalation was already resolved.", hint: "Read it with GET /api/v1/svc/escalations/{id}; a decision is final.", next: "none" },
  execution_not_found: { status: 404, added: true, message: "The execution was not found.", hint: "Use the execution id from the intent's answer; executions of other workspaces are not visible.", next: "fix_request" },
  execution_not_ready: { status: 409, added: true, message: "Only a ready execution can be confirmed.", hint: "Read it with GET /api/v1/svc/executions/{id}: it already runs or ended, or it waits for its escalation to be resolved.", next: "none" },
  execution_finished: { status: 409, added: true, message: "The execution already ended.", hint: "Read its outcome with GET /api/v1/svc/executions/{id}; an ended execution cannot be cancelled.", next: "none" },
  setup_session_not_found: { status: 404, added: true, message: "The setup session was not found.", hint: "List the workspace's sessions with GET /api/v1/svc/setup/sessions; sessions of other workspaces are not visible.", next: "fix_request" },
  setup_session_not_draft: { status: 409, added: true, message: "The setup session was already applied; resources can be added only to a draft.", hint: "Read it with GET /api/v1/svc/setup/sessions/{id}; start a new session for more resources.", next: "none" },
  setup_session_applying: { status: 409, added: true, message: "The setup session is being applied.", hint: "Wait a moment, then read the outcome with GET /api/v1/svc/setup/sessions/{id}.", next: "retry" },
} as const satisfies Record<string, CatalogEntry>;

export type ErrorCode = keyof typeof CATALOG;

export function catalogEntry(code: ErrorCode): CatalogEntry {
  return CATALOG[code];
}

export function errorTypeOf(status: number): ErrorType {
  return ERROR_TYPE_BY_STATUS[status] ?? (status >= 500 ? "internal_error" : "invalid_request");
}
