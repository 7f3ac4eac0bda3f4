import { CATALOG, errorTypeOf, type CatalogEntry } from "./catalog.ts";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Inline code spans (`x`) of the catalog's prose become <code> elements. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

/** The error reference, generated from the catalog: one element `id="err-<code>"` per code. */
export function renderErrorsPage(): string {
  const entries = Object.entries(CATALOG) as [string, CatalogEntry][];
  entries.sort((a, b) => a[1].status - b[1].status || a[0].localeCompare(b[0]));
  const rows = entries
    .map(
      ([code, e]) => `<section class="code" id="err-${code}">
  <h2><a href="#err-${code}">${code}</a> <small>HTTP ${e.status} · ${errorTypeOf(e.status)}${e.added ? " · added by this service" : ""}</small></h2>
  <p><strong>What it means:</strong> ${prose(e.message)}</p>
  <p><strong>How to fix it:</strong> ${prose(e.hint)}</p>
  <p><strong>next_action.type:</strong> <code>${e.next ?? "none"}</code></p>
</section>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Error reference</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.45}
section.code{border-top:1px solid #ddd;padding:.4rem 0}h2{font-size:1.05rem;margin:.6rem 0 .2rem}small{color:#666;font-weight:normal}
code{background:#f4f4f4;padding:0 .2rem}</style></head>
<body><h1>Error reference</h1>
<p>Every error answer has the body <code>{"error": {"type", "code", "message", "hint", "doc_url", "next_action"}, "trace_id"}</code>
and the header <code>X-Svc-Trace-ID</code>. Branch on <code>error.code</code>, never on the message. ${entries.length} codes.</p>
${rows}
</body></html>
`;
}
