// /api/v1/svc/tools (the workspace's tools as OpenAI functions; a governed invoke) and the imports that make
// tools: POST /api/v1/svc/connections/openapi and /api/v1/svc/connections/mcp (the rest of /connections is
// in src/modules/connections/routes.ts).
import { AppError } from "../../errors/app-error.ts";
import { actorOf, workspaceIdOf, type App } from "../../http/types.ts";
import type { Govern } from "../../engine/governance/action.ts";
import { InvokeBody, InvokeResponse, McpBody, McpRegistered, OpenApiBody, OpenApiRegistered, ToolList, ToolParams } from "./schemas.ts";
import type { ToolService } from "./service.ts";

import { GATE_HEADER } from "../../http/gate.ts";

/** Arguments as an object, or as the JSON text OpenAI tool calls carry. */
function argumentsOf(raw: unknown): Record<string, unknown> {
  if (raw === undefined) return {};
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new AppError("tool_arguments_invalid", { message: "The arguments are not valid JSON.", details: [{ field: "arguments", message: "is not valid JSON" }] });
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError("tool_arguments_invalid", { message: "The arguments must be a JSON object.", details: [{ field: "arguments", message: "must be an object" }] });
  }
  return value as Record<string, unknown>;
}

export function registerToolRoutes(app: App, deps: { tools: ToolService; govern: Govern }): void {
  const { tools, govern } = deps;

  app.post(
    "/api/v1/svc/connections/openapi",
    {
      config: { errors: ["openapi_invalid_url", "openapi_fetch_failed", "openapi_read_failed", "openapi_invalid_spec", "openapi_generation_failed", "credential_not_found", "connection_forbidden"] },
      schema: {
        tags: ["connections"],
        summary: "Import an OpenAPI document: each operation becomes a tool that calls the API",
        body: OpenApiBody,
        response: { 201: OpenApiRegistered },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const specUrl = body.spec_url ?? body.specUrl;
      const specContent = body.spec_content ?? body.specContent;
      const credentialId = body.credential_id ?? body.credentialId;
      const registered = await tools.registerOpenApi(actorOf(request), {
        name: body.name,
        ...(specUrl !== undefined ? { specUrl } : {}),
        ...(specContent !== undefined ? { specContent } : {}),
        ...(credentialId !== undefined ? { credentialId } : {}),
      });
      const row = registered.connection.row;
      return reply.code(201).send({
        id: row.id,
        name: row.name,
        type: "openapi" as const,
        status: registered.connection.status,
        tools_generated: registered.toolsGenerated,
        tools_registered: registered.functions.length,
        functions: registered.functions,
        ...(registered.specUrl ? { spec_url: registered.specUrl } : {}),
        skipped: registered.skipped,
        created_at: row.createdAt.toISOString(),
      });
    },
  );

  app.post(
    "/api/v1/svc/connections/mcp",
    {
      config: { errors: ["mcp_registration_failed"] },
      schema: {
        tags: ["connections"],
        summary: "Register an MCP server (Streamable HTTP or SSE): its tools become the workspace's",
        body: McpBody,
        response: { 201: McpRegistered },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const registered = await tools.registerMcp(actorOf(request), {
        name: body.name,
        url: body.url,
        transport: body.transport ?? "http",
        ...(body.headers ? { headers: body.headers } : {}),
      });
      const row = registered.connection.row;
      return reply.code(201).send({
        id: row.id,
        name: row.name,
        type: "mcp" as const,
        status: registered.connection.status,
        transport: registered.transport,
        url: registered.url,
        tools_registered: registered.functions.length,
        functions: registered.functions,
        created_at: row.createdAt.toISOString(),
      });
    },
  );

  app.get(
    "/api/v1/svc/tools",
    { schema: { tags: ["tools"], summary: "The workspace's tools as OpenAI function definitions", response: { 200: ToolList } } },
    async (request) => {
      const list = await tools.list(workspaceIdOf(request.principal));
      return {
        object: "list" as const,
        data: list.map((tool) => ({ type: "function" as const, function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
      };
    },
  );

  app.post(
    "/api/v1/svc/tools/:name/invoke",
    {
      config: { errors: ["tool_not_found", "tool_arguments_invalid", "blocked_by_policy", "conditional_approval_required", "governance_unavailable", "connection_forbidden"] },
      schema: {
        tags: ["tools"],
        summary: "Call a tool: arguments are validated, governance decides, then the tool runs (X-Svc-Gate tells which)",
        params: ToolParams,
        body: InvokeBody,
        response: { 200: InvokeResponse },
      },
    },
    async (request, reply) => {
      const outcome = await tools.invoke(
        actorOf(request),
        { name: request.params.name, arguments: argumentsOf(request.body?.arguments), ...(request.body?.domain !== undefined ? { domain: request.body.domain } : {}) },
        govern,
      );
      const { verdict } = outcome;
      if (outcome.decision === "blocked") {
        reply.header(GATE_HEADER, "blocked");
        const policy = verdict.policy;
        throw new AppError("blocked_by_policy", {
          message: policy ? `Blocked by policy "${policy.name}": ${verdict.reason}` : `Blocked: ${verdict.reason}`,
          details: [policy ? { field: "policy", message: `${policy.name} (${policy.id}, version ${policy.version}): ${policy.clause}` } : { field: "governance", message: verdict.reason }],
          extra: {
            reason: verdict.reason,
            ...(policy ? { policy_id: policy.id, policy_name: policy.name, policy_version: policy.version } : {}),
          },
        });
      }
      if (outcome.decision === "conditional") {
        reply.header(GATE_HEADER, "escalate");
        const escalationId = verdict.escalationId ?? "";
        throw new AppError("conditional_approval_required", {
          message: `Human approval is needed before ${outcome.tool.name} runs: ${verdict.reason}`,
          details: [{ field: "escalation_id", message: escalationId }],
          extra: {
            escalation_id: escalationId,
            approve_url: `/api/v1/svc/escalations/${escalationId}/resolve`,
            reason: verdict.reason,
            ...(verdict.policy ? { policy_id: verdict.policy.id, policy_name: verdict.policy.name } : {}),
          },
        });
      }
      reply.header(GATE_HEADER, "ok");
      return { tool: outcome.tool.name, status: outcome.status, result: outcome.result, duration_ms: outcome.durationMs };
    },
  );
}
