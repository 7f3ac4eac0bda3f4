import { Type } from "typebox";
import { OPTIONAL_BODY } from "../../http/body.ts";

const SpecContent = Type.Union([Type.String({ minLength: 1 }), Type.Object({}, { additionalProperties: true })], {
  description: "The OpenAPI document: JSON or YAML text, or the object itself",
});

/** Snake case as the contract writes it; the camel-case spellings some clients send are accepted too. */
export const OpenApiBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  spec_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: "HTTPS URL of the document" })),
  specUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: "Same as spec_url" })),
  spec_content: Type.Optional(SpecContent),
  specContent: Type.Optional(SpecContent),
  credential_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Credential applied to every call as the document's security scheme says" })),
  credentialId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Same as credential_id" })),
});

export const OpenApiRegistered = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.Literal("openapi"),
  status: Type.String({ description: "connected" }),
  tools_generated: Type.Integer({ description: "Operations found in the document" }),
  tools_registered: Type.Integer({ description: "Tools made from them" }),
  functions: Type.Array(Type.String()),
  spec_url: Type.Optional(Type.String()),
  skipped: Type.Array(Type.Object({ operation: Type.String(), reason: Type.String() }), { description: "Operations that could not become tools, and why" }),
  created_at: Type.String({ format: "date-time" }),
});

export const McpBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  url: Type.String({ minLength: 1, maxLength: 2048, description: "HTTPS URL of the MCP endpoint (plain HTTP only for hosts on SVC_OUTBOUND_ALLOW_HOSTS)" }),
  transport: Type.Optional(Type.Union([Type.Literal("http"), Type.Literal("sse")], { description: "http (Streamable HTTP, default) or sse" })),
  headers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: "Sent with every request to the server; stored sealed, never returned" })),
});

export const McpRegistered = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.Literal("mcp"),
  status: Type.String({ description: "connected" }),
  transport: Type.String(),
  url: Type.String(),
  tools_registered: Type.Integer(),
  functions: Type.Array(Type.String()),
  created_at: Type.String({ format: "date-time" }),
});

/** OpenAI function definitions, as published clients read them from GET /tools. */
export const ToolList = Type.Object({
  object: Type.Literal("list"),
  data: Type.Array(
    Type.Object({
      type: Type.Literal("function"),
      function: Type.Object({
        name: Type.String(),
        description: Type.String(),
        parameters: Type.Object({}, { additionalProperties: true, description: "JSON Schema of the arguments" }),
      }),
    }),
  ),
});

export const ToolParams = Type.Object({ name: Type.String({ pattern: "^[a-zA-Z0-9_-]{1,64}$" }) });

export const InvokeBody = Type.Object(
  {
    arguments: Type.Optional(
      Type.Union([Type.Object({}, { additionalProperties: true }), Type.String()], {
        description: "The tool's arguments (an object, or its JSON text as in OpenAI tool calls); {} when left out",
      }),
    ),
    domain: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Scopes governance (policies of a domain)" })),
  },
  // A tool without arguments may be called with no body at all.
  { [OPTIONAL_BODY]: true },
);

export const InvokeResponse = Type.Object({
  tool: Type.String(),
  status: Type.Union([Type.Literal("succeeded"), Type.Literal("failed")]),
  result: Type.Unknown({ description: "What the tool answered: {status_code, body} for OpenAPI tools, {content, structured_content?, is_error} for MCP tools, {error} when it could not be reached" }),
  duration_ms: Type.Integer(),
});
