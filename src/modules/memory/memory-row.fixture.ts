// Memory rows for this module's unit tests: ids and times in the order they are made, everything else a
// plain reference item of one workspace, so a test states only what it is about.
import type { MemoryRow } from "./store.ts";

let counter = 0;

export function memoryRow(body: string, extra: Partial<MemoryRow> = {}): MemoryRow {
  counter++;
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, counter));
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, "0")}`,
    workspaceId: "wsp_test",
    type: "reference",
    domain: "general",
    scope: "tenant",
    authority: 5,
    tags: [],
    content: { text: body },
    body,
    version: 1,
    createdAt: at,
    updatedAt: at,
    search: "",
    ...extra,
  };
}
