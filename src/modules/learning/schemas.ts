// Wire shapes of /api/v1/svc/learning (wire reference §4.13), each finding with its evidence.
import { Offset } from "../../http/wire.ts";
import { Type, type Static } from "typebox";
import { Pagination } from "../workspaces/schemas.ts";

const Evidence = Type.Object(
  {
    count: Type.Integer(),
    first_seen: Type.String(),
    last_seen: Type.String(),
    example_trace_ids: Type.Array(Type.String(), { description: "Up to 5; GET /api/v1/svc/intelligence/{trace_id} reads each" }),
    succeeded: Type.Optional(Type.Integer()),
    failed: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

export const Pattern = Type.Object({
  id: Type.String(),
  pattern: Type.String(),
  type: Type.Union([Type.Literal("tool_arguments"), Type.Literal("tool_usage")]),
  description: Type.String(),
  confidence: Type.Number({ description: "Share of the occurrences that succeeded" }),
  occurrences: Type.Integer(),
  domain: Type.Union([Type.String(), Type.Null()]),
  tags: Type.Array(Type.String()),
  tool_name: Type.String(),
  arguments: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  argument_names: Type.Optional(Type.Array(Type.String())),
  created_at: Type.String({ description: "First seen in the window" }),
  evidence: Evidence,
});
export type Pattern = Static<typeof Pattern>;

export const Episode = Type.Object({
  id: Type.String({ description: "The execution's id" }),
  description: Type.String(),
  outcome: Type.Union([Type.Literal("success"), Type.Literal("failure"), Type.Literal("cancelled")]),
  status: Type.String(),
  trace_id: Type.Union([Type.String(), Type.Null()]),
  domain: Type.Union([Type.String(), Type.Null()]),
  execution_id: Type.String(),
  tool_names: Type.Array(Type.String()),
  steps: Type.Integer(),
  attempts: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  error_category: Type.Union([Type.String(), Type.Null()]),
  duration_ms: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.String(),
  finished_at: Type.Union([Type.String(), Type.Null()]),
});
export type Episode = Static<typeof Episode>;

export const Suggestion = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal("add_knowledge"), Type.Literal("install_integration"), Type.Literal("review_policy")]),
  description: Type.String(),
  impact: Type.Union([Type.Literal("high"), Type.Literal("medium"), Type.Literal("low")]),
  domain: Type.Union([Type.String(), Type.Null()]),
  target: Type.Record(Type.String(), Type.Unknown(), { description: "What to act on: the question, the integration or the policy" }),
  next_action: Type.Object({ type: Type.String(), label: Type.String(), endpoint: Type.String() }),
  evidence: Evidence,
});
export type Suggestion = Static<typeof Suggestion>;

export const LearningQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, description: "The window, in days (30 by default)" })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  offset: Type.Optional(Offset),
});

const list = <T extends ReturnType<typeof Type.Object>>(name: string, item: T) =>
  Type.Object({ [name]: Type.Array(item), count: Type.Integer(), total: Type.Integer(), window_days: Type.Integer(), pagination: Pagination });

export const PatternList = list("patterns", Pattern);
export const EpisodeList = list("episodes", Episode);
export const SuggestionList = list("suggestions", Suggestion);
