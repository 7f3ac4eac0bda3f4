// /api/v1/svc/memory: what a workspace knows. Literal paths (search, types) are matched before {id}.
import { actorOf, workspaceIdOf, type App } from "../../http/types.ts";
import { Deleted } from "../../http/wire.ts";
import { Atom, CreatedAtom, MemoryBody, MemoryParams, MemoryTypes, SearchQuery, SearchResults, hitToWire, toWire } from "./schemas.ts";
import { MEMORY_SCOPES, MEMORY_TYPES, type MemoryService } from "./service.ts";

const tags = ["memory"];
const itemErrors = ["invalid_memory_id", "memory_not_found"] as const;
const writeErrors = ["invalid_memory_type", "memory_creation_failed", "memory_contains_secret", "invalid_request"] as const;

export function registerMemoryRoutes(app: App, memory: MemoryService): void {
  app.post(
    "/api/v1/svc/memory",
    {
      config: { errors: [...writeErrors] },
      schema: { tags, summary: "Store a memory item", body: MemoryBody, response: { 201: CreatedAtom } },
    },
    async (request, reply) => reply.code(201).send({ ...toWire(await memory.create(actorOf(request), request.body ?? {})), indexed: true }),
  );

  app.get(
    "/api/v1/svc/memory/search",
    {
      config: { errors: ["memory_query_required", "memory_search_failed"] },
      schema: { tags, summary: "Search memory (full text, then near-misses)", querystring: SearchQuery, response: { 200: SearchResults } },
    },
    async (request) => {
      const { query, domain, tag, limit } = request.query;
      const result = await memory.search(workspaceIdOf(request.principal), query, { domain, tag, limit });
      return { results: result.hits.map(hitToWire), count: result.hits.length, query: query!.trim(), match: result.match, corrected: result.corrected };
    },
  );

  app.get(
    "/api/v1/svc/memory/types",
    { schema: { tags, summary: "Memory types and scopes", response: { 200: MemoryTypes } } },
    async () => ({
      type_values: [...MEMORY_TYPES],
      kind_values: [...MEMORY_TYPES],
      scope_values: [...MEMORY_SCOPES],
      description:
        "reference: facts and documents; preference: how someone likes things done; episode: something that happened; precedent: a past decision to follow; note: free notes; project: facts about an ongoing project.",
    }),
  );

  app.get(
    "/api/v1/svc/memory/:id",
    { config: { errors: [...itemErrors] }, schema: { tags, summary: "Get a memory item", params: MemoryParams, response: { 200: Atom } } },
    async (request) => toWire(await memory.get(workspaceIdOf(request.principal), request.params.id)),
  );

  for (const method of ["PUT", "PATCH"] as const) {
    app.route({
      method,
      url: "/api/v1/svc/memory/:id",
      config: { errors: [...itemErrors, ...writeErrors] },
      schema: { tags, summary: "Update a memory item (a new version; the previous one is kept)", params: MemoryParams, body: MemoryBody, response: { 200: Atom } },
      handler: async (request) => toWire(await memory.update(actorOf(request), request.params.id, request.body ?? {})),
    });
  }

  app.delete(
    "/api/v1/svc/memory/:id",
    { config: { errors: [...itemErrors] }, schema: { tags, summary: "Delete a memory item and its versions", params: MemoryParams, response: { 200: Deleted } } },
    async (request) => {
      await memory.delete(actorOf(request), request.params.id);
      return { id: request.params.id, status: "deleted" as const };
    },
  );
}
