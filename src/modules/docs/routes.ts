// Documentation served by the service itself: the OpenAPI document, the error reference, an index.
import { renderErrorsPage } from "../../errors/docs-page.ts";
import type { App } from "../../http/types.ts";

export function registerDocsRoutes(app: App): void {
  const errorsPage = renderErrorsPage();

  app.get(
    "/api/v1/svc/docs/openapi.json",
    { config: { auth: "public" }, schema: { tags: ["docs"], summary: "This API as an OpenAPI 3.1 document" } },
    async (_request, reply) => reply.type("application/json; charset=utf-8").send(app.swagger()),
  );

  app.get(
    "/infra/docs/errors",
    { config: { auth: "public" }, schema: { tags: ["docs"], summary: "Error reference (HTML), one anchor err-<code> per code" } },
    async (_request, reply) => reply.type("text/html; charset=utf-8").send(errorsPage),
  );

  app.get(
    "/infra/docs",
    { config: { auth: "public" }, schema: { tags: ["docs"], summary: "Documentation index (HTML)" } },
    async (_request, reply) =>
      reply.type("text/html; charset=utf-8").send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Governed intent service</title></head>
<body style="font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto">
<h1>Governed intent service</h1>
<ul>
<li><a href="/api/v1/svc/docs/openapi.json">OpenAPI 3.1 document</a>: every route, its schemas and its error responses</li>
<li><a href="/infra/docs/errors">Error reference</a>: every error code, what it means and how to fix it</li>
<li><a href="/infra/livez">/infra/livez</a> and <a href="/infra/readyz">/infra/readyz</a>: probes</li>
</ul>
<p>Authenticate with <code>Authorization: Bearer sk_svc_…</code>. Runtime routes live under <code>/api/v1/svc/</code>,
workspace administration under <code>/api/v1/maas/</code>.</p>
</body></html>
`),
  );
}
