// /api/v1/svc/setup (one-shot installation: apply connections, credentials, memory and policies, answer
// the checklist), /api/v1/svc/setup/sessions (the same, assembled over several requests and applied once)
// and /api/v1/svc/assess (how far the workspace can do a task). Setup and assess answer 200: they are
// actions, not creations (the published CLI rejects 201 there); creating a session answers 201.
import { actorOf, workspaceIdOf, type App } from "../../http/types.ts";
import {
  AssessBody,
  AssessResponse,
  SessionAddBody,
  SessionApplyBody,
  SessionApplyResult,
  SessionCreateBody,
  SessionListQuery,
  SessionParams,
  SetupBody,
  SetupResult,
  SetupSession,
  SetupSessionList,
} from "./schemas.ts";
import type { SetupService } from "./service.ts";
import type { SetupSessionService } from "./sessions.ts";

export function registerSetupRoutes(app: App, deps: { setup: SetupService; sessions: SetupSessionService }): void {
  const { setup, sessions } = deps;
  app.post(
    "/api/v1/svc/setup",
    {
      config: { errors: ["missing_fields"] },
      schema: {
        tags: ["setup"],
        summary: "Apply connections, credentials, memory and policies in one request; answers per item and the installation checklist",
        body: SetupBody,
        response: { 200: SetupResult },
      },
    },
    async (request) => setup.apply(actorOf(request), request.body ?? {}),
  );

  app.post(
    "/api/v1/svc/assess",
    {
      // A reading of the workspace now: a retry recomputes it rather than replaying an old answer.
      config: { errors: ["assessment_missing_task"], idempotent: false },
      schema: {
        tags: ["assessment"],
        summary: "Assess whether the workspace can do a task: matching tools, gaps, governance outlook, recommended policies",
        body: AssessBody,
        response: { 200: AssessResponse },
      },
    },
    async (request) => {
      const assessment = await setup.assess(actorOf(request), request.body ?? {});
      return { ...assessment, assessment };
    },
  );

  const SESSIONS = "/api/v1/svc/setup/sessions";

  app.post(
    SESSIONS,
    {
      config: { errors: ["invalid_request"] },
      schema: {
        tags: ["setup"],
        summary: "Start a setup session (a draft): purpose, constraints, and optionally the first resources",
        body: SessionCreateBody,
        response: { 201: SetupSession },
      },
    },
    async (request, reply) => reply.code(201).send(await sessions.create(actorOf(request), request.body ?? {})),
  );

  app.get(
    SESSIONS,
    {
      schema: { tags: ["setup"], summary: "The workspace's setup sessions, newest first", querystring: SessionListQuery, response: { 200: SetupSessionList } },
    },
    async (request) => {
      const limit = request.query.limit ?? 50;
      const offset = request.query.offset ?? 0;
      const { sessions: list, total } = await sessions.list(workspaceIdOf(request.principal), { status: request.query.status, limit, offset });
      return { sessions: list, count: list.length, total, pagination: { limit, offset, has_more: offset + list.length < total } };
    },
  );

  app.get(
    `${SESSIONS}/:id`,
    {
      config: { errors: ["setup_session_not_found"] },
      schema: { tags: ["setup"], summary: "A setup session: its resources (secrets never shown), status and, once applied, the result", params: SessionParams, response: { 200: SetupSession } },
    },
    async (request) => sessions.get(workspaceIdOf(request.principal), request.params.id),
  );

  app.post(
    `${SESSIONS}/:id`,
    {
      config: { errors: ["missing_fields", "setup_session_not_found", "setup_session_not_draft"] },
      schema: {
        tags: ["setup"],
        summary: "Add resources (connections, credentials, memory, policies: the items of POST /setup) to a draft session",
        params: SessionParams,
        body: SessionAddBody,
        response: { 200: SetupSession },
      },
    },
    async (request) => sessions.add(actorOf(request), request.params.id, request.body ?? {}),
  );

  app.post(
    `${SESSIONS}/:id/apply`,
    {
      config: { errors: ["missing_fields", "setup_session_not_found", "setup_session_applying"] },
      schema: {
        tags: ["setup"],
        summary: "Apply a draft session through POST /setup; once applied, applying again answers the stored result",
        params: SessionParams,
        body: SessionApplyBody,
        response: { 200: SessionApplyResult },
      },
    },
    async (request) => sessions.apply(actorOf(request), request.params.id, request.body ?? {}),
  );
}
