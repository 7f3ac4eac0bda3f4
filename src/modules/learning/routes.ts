// /api/v1/svc/learning: patterns, episodes and suggestions drawn from the workspace's own history.
import type { Static } from "typebox";
import { workspaceIdOf, type App } from "../../http/types.ts";
import { EpisodeList, LearningQuery, PatternList, SuggestionList } from "./schemas.ts";
import { DEFAULT_WINDOW_DAYS, type LearningQuery as Query, type LearningService } from "./service.ts";

const tags = ["learning"];
const DEFAULT_LIMIT = 50;

function queryOf(q: Static<typeof LearningQuery>): Query {
  return { ...(q.days ? { days: q.days } : {}), limit: q.limit ?? DEFAULT_LIMIT, offset: q.offset ?? 0 };
}

function listed(query: Query, total: number, shown: number) {
  return { count: shown, total, window_days: query.days ?? DEFAULT_WINDOW_DAYS, pagination: { limit: query.limit, offset: query.offset, has_more: query.offset + shown < total } };
}

export function registerLearningRoutes(app: App, learning: LearningService): void {
  app.get(
    "/api/v1/svc/learning/patterns",
    {
      config: { errors: ["invalid_request", "learning_detection_failed", "learning_unavailable"] },
      schema: { tags, summary: "Frequent tool-and-argument combinations, with their evidence", querystring: LearningQuery, response: { 200: PatternList } },
    },
    async (request) => {
      const query = queryOf(request.query);
      const { items, total } = await learning.patterns(workspaceIdOf(request.principal), query);
      return { patterns: items, ...listed(query, total, items.length) };
    },
  );

  app.get(
    "/api/v1/svc/learning/episodes",
    {
      config: { errors: ["invalid_request", "learning_query_failed", "learning_unavailable"] },
      schema: { tags, summary: "Finished executions, newest first", querystring: LearningQuery, response: { 200: EpisodeList } },
    },
    async (request) => {
      const query = queryOf(request.query);
      const { items, total } = await learning.episodes(workspaceIdOf(request.principal), query);
      return { episodes: items, ...listed(query, total, items.length) };
    },
  );

  app.get(
    "/api/v1/svc/learning/suggestions",
    {
      config: { errors: ["invalid_request", "learning_suggestion_failed", "learning_unavailable"] },
      schema: { tags, summary: "Knowledge to add, integrations to install, policies to review, with their evidence", querystring: LearningQuery, response: { 200: SuggestionList } },
    },
    async (request) => {
      const query = queryOf(request.query);
      const { items, total } = await learning.suggestions(workspaceIdOf(request.principal), query);
      return { suggestions: items, ...listed(query, total, items.length) };
    },
  );
}
