import { Offset } from "../../http/wire.ts";
import { Type, type Static } from "typebox";
import type { WorkspaceRow } from "./store.ts";

export const Workspace = Type.Object({
  id: Type.String(),
  name: Type.String(),
  created_at: Type.String({ format: "date-time" }),
});
export type Workspace = Static<typeof Workspace>;

export const CreateWorkspaceBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
});

export const WorkspaceParams = Type.Object({ workspace_id: Type.String({ minLength: 1, maxLength: 64 }) });

export const Pagination = Type.Object({
  limit: Type.Integer(),
  offset: Type.Integer(),
  has_more: Type.Boolean(),
});

export const PageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 500 })),
  offset: Type.Optional(Offset),
});

export const WorkspaceList = Type.Object({
  workspaces: Type.Array(Workspace),
  count: Type.Integer(),
  total: Type.Integer(),
  pagination: Pagination,
});

export function toWire(row: WorkspaceRow): Workspace {
  return { id: row.id, name: row.name, created_at: row.createdAt.toISOString() };
}
