// /api/v1/svc/credentials: secrets for integrations, sealed at rest; only metadata ever goes out.
import { actorOf, workspaceIdOf, type App } from "../../http/types.ts";
import { Deleted } from "../../http/wire.ts";
import { CreateCredentialBody, CredentialList, CredentialMetadata, CredentialParams, toWire } from "./schemas.ts";
import type { CredentialService } from "./service.ts";

const tags = ["credentials"];

export function registerCredentialRoutes(app: App, credentials: CredentialService): void {
  app.get(
    "/api/v1/svc/credentials",
    { schema: { tags, summary: "List credentials (metadata only)", response: { 200: CredentialList } } },
    async (request) => {
      const rows = await credentials.list(workspaceIdOf(request.principal));
      return { credentials: rows.map((row) => toWire(row, credentials.hostsOf(row))), count: rows.length };
    },
  );

  app.post(
    "/api/v1/svc/credentials",
    {
      config: { errors: ["invalid_request", "credential_creation_failed"] },
      schema: { tags, summary: "Store a credential (key_data is encrypted and never returned)", body: CreateCredentialBody, response: { 201: CredentialMetadata } },
    },
    async (request, reply) => {
      const row = await credentials.create(actorOf(request), request.body ?? {});
      return reply.code(201).send(toWire(row, credentials.hostsOf(row)));
    },
  );

  app.delete(
    "/api/v1/svc/credentials/:id",
    {
      config: { errors: ["credential_not_found"] },
      schema: { tags, summary: "Delete a credential (its sealed secret is destroyed)", params: CredentialParams, response: { 200: Deleted } },
    },
    async (request) => {
      await credentials.delete(actorOf(request), request.params.id);
      return { id: request.params.id, status: "deleted" as const };
    },
  );
}
