import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Actor, AuditLog } from "../../events/audit.ts";
import type { Ids } from "../../ids.ts";
import { deleteCredential, findCredential, insertCredential, listCredentials, liveProviders, type CredentialRow } from "./store.ts";
import type { Vault } from "./vault.ts";

export const CREDENTIAL_TYPES = ["api_key", "bearer", "basic", "oauth2", "session"] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

export interface NewCredential {
  provider?: unknown;
  name?: unknown;
  credential_name?: unknown;
  key_data?: unknown;
  type?: unknown;
}

export interface CredentialService {
  create(actor: Actor, input: NewCredential): Promise<CredentialRow>;
  list(workspaceId: string): Promise<CredentialRow[]>;
  delete(actor: Actor, id: string): Promise<void>;
  /** The decrypted key_data, for tool runtimes inside the service; never sent over HTTP. */
  reveal(workspaceId: string, id: string): Promise<Record<string, unknown>>;
  /** Providers that have at least one credential (connections use it to leave pending_auth). */
  providers(workspaceId: string): Promise<Set<string>>;
}

/** The kind of secret, from the fields present when the caller does not say. */
function inferType(data: Record<string, unknown>): CredentialType {
  if ("access_token" in data || "refresh_token" in data) return "oauth2";
  if ("username" in data && "password" in data) return "basic";
  if ("token" in data || "bearer" in data) return "bearer";
  if ("session" in data || "cookie" in data) return "session";
  return "api_key";
}

const MAX_PROVIDER_LENGTH = 100;
const MAX_NAME_LENGTH = 200;

function nonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/** The credential's fields, checked as create checks them (setup's dry run uses it); throws like create. */
export function checkCredential(input: NewCredential): { provider: string; name: string; type: CredentialType; data: Record<string, unknown> } {
  const name = input.name ?? input.credential_name;
  const problems = [];
  if (!nonEmptyString(input.provider)) problems.push({ field: "provider", message: "is required (a non-empty string)" });
  if (!nonEmptyString(name)) problems.push({ field: "name", message: "is required (a non-empty string)" });
  // Both are indexed (an index entry holds at most about 2.7 KB): bounded here, in the contract's error.
  if (typeof input.provider === "string" && input.provider.length > MAX_PROVIDER_LENGTH) problems.push({ field: "provider", message: `must be at most ${MAX_PROVIDER_LENGTH} characters` });
  if (typeof name === "string" && name.length > MAX_NAME_LENGTH) problems.push({ field: "name", message: `must be at most ${MAX_NAME_LENGTH} characters` });
  const keyData = typeof input.key_data === "string" && input.key_data !== "" ? { value: input.key_data } : input.key_data;
  const validData = keyData !== null && typeof keyData === "object" && !Array.isArray(keyData) && Object.keys(keyData).length > 0;
  if (!validData) problems.push({ field: "key_data", message: "is required (a non-empty object, or a string)" });
  if (input.type !== undefined && !CREDENTIAL_TYPES.includes(input.type as CredentialType)) {
    problems.push({ field: "type", message: `must be one of ${CREDENTIAL_TYPES.join(", ")}` });
  }
  if (problems.length > 0) {
    throw new AppError("credential_creation_failed", { message: `The credential could not be created: ${problems[0]!.field} ${problems[0]!.message}.`, details: problems });
  }
  const data = keyData as Record<string, unknown>;
  return { provider: (input.provider as string).trim().toLowerCase(), name: (name as string).trim(), type: (input.type as CredentialType | undefined) ?? inferType(data), data };
}

export function createCredentialService(deps: {
  db: Db;
  ids: Ids;
  clock: Clock;
  vault: Vault;
  audit: AuditLog;
  /** Called after a workspace's credentials changed (connections recompute which are authorised). */
  onChange?: (workspaceId: string) => void;
}): CredentialService {
  const { db, ids, clock, vault, audit, onChange } = deps;
  return {
    create: async (actor, input) => {
      const { provider, name, type, data } = checkCredential(input);
      const id = ids.make("cred");
      const secret = await vault.seal(actor.workspaceId, id, Buffer.from(JSON.stringify(data)));
      const created = await db.transaction(async (tx) => {
        const row = await insertCredential(tx, actor.workspaceId, {
          id,
          provider,
          name,
          type,
          secret,
          createdAt: clock.now(),
        });
        // Field names only: which parts the secret has, never their values.
        await audit.record(tx, actor, {
          action: "credential.create",
          resourceType: "credential",
          resourceId: row.id,
          details: { provider: row.provider, name: row.name, type: row.type, fields: Object.keys(data).sort() },
        });
        return row;
      });
      onChange?.(actor.workspaceId);
      return created;
    },

    list: (workspaceId) => listCredentials(db, workspaceId),

    delete: async (actor, id) => {
      await db.transaction(async (tx) => {
        if (!(await deleteCredential(tx, actor.workspaceId, id, clock.now()))) {
          throw new AppError("credential_not_found", { message: `No credential ${id} in this workspace.` });
        }
        await audit.record(tx, actor, { action: "credential.delete", resourceType: "credential", resourceId: id });
      });
      onChange?.(actor.workspaceId);
    },

    reveal: async (workspaceId, id) => {
      const row = await findCredential(db, workspaceId, id);
      if (!row) throw new AppError("credential_not_found");
      return JSON.parse((await vault.open(workspaceId, id, row.secret)).toString("utf8")) as Record<string, unknown>;
    },

    providers: async (workspaceId) => new Set(await liveProviders(db, workspaceId)),
  };
}
