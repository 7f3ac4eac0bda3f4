// The OpenAI chat request as this service reads it. Lenient by design: every OpenAI field (and any future
// one) is accepted, unknown ones ignored; only what the service reads is typed.
import { Type } from "typebox";

const Part = Type.Object({ type: Type.String({ maxLength: 64 }) }, { additionalProperties: true });

const ChatMessage = Type.Object(
  {
    role: Type.Union([Type.Literal("system"), Type.Literal("developer"), Type.Literal("user"), Type.Literal("assistant"), Type.Literal("tool")]),
    content: Type.Optional(Type.Union([Type.String({ maxLength: 100_000 }), Type.Array(Part, { maxItems: 100 }), Type.Null()])),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    tool_call_id: Type.Optional(Type.String({ maxLength: 200 })),
    tool_calls: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.Optional(Type.String({ maxLength: 200 })),
            type: Type.Optional(Type.String({ maxLength: 32 })),
            function: Type.Optional(Type.Object({ name: Type.Optional(Type.String({ maxLength: 64 })), arguments: Type.Optional(Type.String({ maxLength: 100_000 })) }, { additionalProperties: true })),
          },
          { additionalProperties: true },
        ),
        { maxItems: 64 },
      ),
    ),
  },
  { additionalProperties: true },
);

const ChatTool = Type.Object(
  {
    type: Type.Optional(Type.String({ maxLength: 32 })),
    function: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 64, pattern: "^[a-zA-Z0-9_-]+$" }),
        description: Type.Optional(Type.Union([Type.String({ maxLength: 5_000 }), Type.Null()])),
        parameters: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);

export const ChatBody = Type.Object(
  {
    model: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    messages: Type.Array(ChatMessage, { minItems: 1, maxItems: 500 }),
    tools: Type.Optional(Type.Union([Type.Array(ChatTool, { maxItems: 128 }), Type.Null()])),
    tool_choice: Type.Optional(
      Type.Union([
        Type.Literal("none"),
        Type.Literal("auto"),
        Type.Literal("required"),
        Type.Object({ type: Type.Optional(Type.String()), function: Type.Object({ name: Type.String({ maxLength: 64 }) }, { additionalProperties: true }) }, { additionalProperties: true }),
        Type.Null(),
      ]),
    ),
    conversation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9_.:-]+$" })),
    memory: Type.Optional(Type.Boolean()),
    context: Type.Optional(Type.Object({ memory: Type.Optional(Type.Boolean()), domain: Type.Optional(Type.String({ maxLength: 100 })) }, { additionalProperties: true })),
    temperature: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    max_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    max_completion_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    stream: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    stream_options: Type.Optional(Type.Union([Type.Object({ include_usage: Type.Optional(Type.Boolean()) }, { additionalProperties: true }), Type.Null()])),
    user: Type.Optional(Type.String({ maxLength: 200 })),
    user_id: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: true },
);

/** The answer for the OpenAPI document: OpenAI's `chat.completion` plus the service's fields. */
export const ChatResponse = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal("chat.completion"),
    created: Type.Integer(),
    model: Type.String(),
    choices: Type.Array(Type.Object({}, { additionalProperties: true })),
    usage: Type.Object({ prompt_tokens: Type.Integer(), completion_tokens: Type.Integer(), total_tokens: Type.Integer() }),
    conversation_id: Type.String(),
    trace_id: Type.String(),
    pending_actions: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
    // Absent under `Accept: application/json; profile=lean` (trace_id stays): required, it made every lean answer a 500.
    intelligence: Type.Optional(Type.Object({}, { additionalProperties: true, description: "The reasoning trace; absent with profile=lean" })),
  },
  { additionalProperties: true },
);
