import type { Clock } from "../../clock.ts";
import type { Database } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Ids } from "../../ids.ts";
import { countAllWorkspaces, findWorkspace, insertWorkspace, listAllWorkspaces, type WorkspaceRow } from "./store.ts";

export interface WorkspaceService {
  create(name: string): Promise<WorkspaceRow>;
  list(limit: number, offset: number): Promise<{ rows: WorkspaceRow[]; total: number }>;
  /** The workspace, or 404 `workspace_not_found`. */
  get(workspaceId: string): Promise<WorkspaceRow>;
  find(workspaceId: string): Promise<WorkspaceRow | undefined>;
  isEmpty(): Promise<boolean>;
}

export function createWorkspaceService(deps: { database: Database; ids: Ids; clock: Clock }): WorkspaceService {
  const { db } = deps.database;
  return {
    create: (name) => insertWorkspace(db, { id: deps.ids.make("wsp"), name, createdAt: deps.clock.now() }),
    list: async (limit, offset) => {
      const [rows, total] = await Promise.all([listAllWorkspaces(db, limit, offset), countAllWorkspaces(db)]);
      return { rows, total };
    },
    get: async (workspaceId) => {
      const row = await findWorkspace(db, workspaceId);
      if (!row) throw new AppError("workspace_not_found", { message: `No workspace with id ${workspaceId}.` });
      return row;
    },
    find: (workspaceId) => findWorkspace(db, workspaceId),
    isEmpty: async () => (await countAllWorkspaces(db)) === 0,
  };
}
