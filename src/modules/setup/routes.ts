// /api/v1/svc/setup (one-shot installation: apply connections, credentials, memory and policies, answer
// the checklist) and /api/v1/svc/assess (how far the workspace can do a task). Both answer 200: they are
// actions, not creations (the published CLI rejects 201 there).
import { actorOf, type App } from "../../http/types.ts";
import { AssessBody, AssessResponse, SetupBody, SetupResult } from "./schemas.ts";
import type { SetupService } from "./service.ts";

export function registerSetupRoutes(app: App, setup: SetupService): void {
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
}
