import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Actor, AuditLog } from "../../events/audit.ts";
import type { Ids } from "../../ids.ts";
import { hostAllowed, parseAllowedHosts, type CredentialHosts } from "./hosts.ts";
import { createKnownSecrets, secretValuesOf, type KnownSecrets } from "./known-secrets.ts";
import { bindCredentialHost, deleteCredential, findCredential, insertCredential, listCredentials, liveProviders, type CredentialRow } from "./store.ts";
import type { Vault } from "./vault.ts";

/**
 * How long a workspace's secret fingerprints are reused. Changes made in this process drop them at once;
 * another process (several nodes on one PostgreSQL) sees a new credential's value masked within this time.
 */
export const KNOWN_SECRETS_TTL_MS = 30_000;
const MAX_KNOWN_SECRETS_WORKSPACES = 1_000;

export const CREDENTIAL_TYPES = ["api_key", "bearer", "basic", "oauth2", "session"] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

export interface NewCredential {
  provider?: unknown;
  name?: unknown;
  credential_name?: unknown;
  key_data?: unknown;
  type?: unknown;
  allowed_hosts?: unknown;
}

/** Where a credential is about to be sent: the connection and the URL of the call or of its server. */
export interface CredentialUse {
  connectionId?: string;
  url: URL;
}

export interface CredentialService {
  create(actor: Actor, input: NewCredential): Promise<CredentialRow>;
  list(workspaceId: string): Promise<CredentialRow[]>;
  delete(actor: Actor, id: string): Promise<void>;
  /** The hosts a credential may be sent to, and where that list comes from. */
  hostsOf(row: CredentialRow): CredentialHosts;
  /**
   * Attaching a credential to a connection whose server is `use.url`: refused (403 connection_forbidden) when
   * the host is not one of the credential's; a credential with no hosts yet is bound to this one.
   */
  attach(actor: Actor, id: string, use: CredentialUse): Promise<void>;
  /**
   * The decrypted key_data for a request to `use.url`, for tool runtimes inside the service; never sent over
   * HTTP. Checked again here, before anything is decrypted: 403 connection_forbidden for another host.
   */
  reveal(workspaceId: string, id: string, use: CredentialUse): Promise<Record<string, unknown>>;
  /** Providers that have at least one credential (connections use it to leave pending_auth). */
  providers(workspaceId: string): Promise<Set<string>>;
  /** The workspace's secret values as fingerprints, to mask them in stored records (known-secrets.ts). */
  knownSecrets(workspaceId: string): Promise<KnownSecrets>;
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
export function checkCredential(input: NewCredential): { provider: string; name: string; type: CredentialType; data: Record<string, unknown>; allowedHosts: string[] | null } {
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
  let allowedHosts: string[] | null = null;
  if (input.allowed_hosts !== undefined && input.allowed_hosts !== null) {
    const parsed = parseAllowedHosts(input.allowed_hosts);
    if ("problems" in parsed) {
      throw new AppError("invalid_request", { message: `Invalid request: ${parsed.problems[0]!.field} ${parsed.problems[0]!.message}.`, details: parsed.problems });
    }
    allowedHosts = parsed.hosts;
  }
  const data = keyData as Record<string, unknown>;
  return { provider: (input.provider as string).trim().toLowerCase(), name: (name as string).trim(), type: (input.type as CredentialType | undefined) ?? inferType(data), data, allowedHosts };
}

export function createCredentialService(deps: {
  db: Db;
  ids: Ids;
  clock: Clock;
  vault: Vault;
  audit: AuditLog;
  /** The catalog's API hosts of a provider (undefined for a provider the catalog does not know). */
  providerHosts: (provider: string) => string[] | undefined;
  /** Called after a workspace's credentials changed (connections recompute which are authorised). */
  onChange?: (workspaceId: string) => void;
}): CredentialService {
  const { db, ids, clock, vault, audit, providerHosts, onChange } = deps;

  function hostsOf(row: CredentialRow): CredentialHosts {
    if (row.allowedHosts && row.allowedHosts.length > 0) return { hosts: row.allowedHosts, source: "declared" };
    const known = providerHosts(row.provider);
    if (known) return { hosts: known, source: "catalog" };
    return row.boundHost ? { hosts: [row.boundHost], source: "first_use" } : { hosts: [], source: "unbound" };
  }

  function forbidden(row: CredentialRow, hosts: CredentialHosts, use: CredentialUse): AppError {
    const host = use.url.hostname;
    const where = hosts.source === "catalog" ? `the ${row.provider} API hosts` : hosts.source === "declared" ? "its allowed_hosts" : "the host it was first used with";
    return new AppError("connection_forbidden", {
      message: `Credential ${row.id} (${row.provider}) may only be sent to ${where} (${hosts.hosts.join(", ")}), not to ${host}; nothing was sent.`,
      hint:
        hosts.source === "catalog" || hosts.source === "declared"
          ? "Point the connection at one of the credential's hosts, or create a credential for this host with allowed_hosts naming it."
          : "Create a credential for this host (allowed_hosts names where it may go).",
      details: [
        { field: "credential_id", message: `may be sent to ${hosts.hosts.join(", ")} only (${hosts.source})` },
        { field: "host", message: `${host} is not one of the credential's hosts` },
      ],
      extra: { credential_id: row.id, host, allowed_hosts: hosts.hosts, ...(use.connectionId ? { connection_id: use.connectionId } : {}) },
    });
  }

  /** The credential's hosts, binding an unbound one to `use`'s host first (once; a concurrent binding wins). */
  async function checkedUse(actor: Actor | undefined, workspaceId: string, id: string, use: CredentialUse): Promise<CredentialRow> {
    let row = await findCredential(db, workspaceId, id);
    if (!row) throw new AppError("credential_not_found", { message: `No credential ${id.slice(0, 100)} in this workspace.`, details: [{ field: "credential_id", message: "is not a credential of this workspace" }] });
    if (hostsOf(row).source === "unbound") {
      const host = use.url.hostname;
      const bound = await db.transaction(async (tx) => {
        const updated = await bindCredentialHost(tx, workspaceId, id, host);
        if (updated && actor) {
          await audit.record(tx, actor, {
            action: "credential.bind",
            resourceType: "credential",
            resourceId: id,
            details: { host, ...(use.connectionId ? { connection_id: use.connectionId } : {}) },
          });
        }
        return updated;
      });
      row = bound ?? (await findCredential(db, workspaceId, id));
      if (!row) throw new AppError("credential_not_found");
    }
    const hosts = hostsOf(row);
    if (!hostAllowed(hosts.hosts, use.url.hostname)) throw forbidden(row, hosts, use);
    return row;
  }

  // Per workspace: fingerprints, never the values; rebuilt after KNOWN_SECRETS_TTL_MS or a change here.
  const known = new Map<string, { at: number; secrets: Promise<KnownSecrets> }>();
  const forgetSecrets = (workspaceId: string) => known.delete(workspaceId);

  async function buildKnownSecrets(workspaceId: string): Promise<KnownSecrets> {
    const values: string[] = [];
    for (const row of await listCredentials(db, workspaceId)) {
      const data = JSON.parse((await vault.open(workspaceId, row.id, row.secret)).toString("utf8")) as Record<string, unknown>;
      values.push(...secretValuesOf(data));
    }
    return createKnownSecrets(values);
  }

  return {
    hostsOf,

    knownSecrets: (workspaceId) => {
      const now = clock.now().getTime();
      const cached = known.get(workspaceId);
      if (cached && now - cached.at < KNOWN_SECRETS_TTL_MS) return cached.secrets;
      // Expired entries go on any rebuild, so idle workspaces' fingerprints are not kept either.
      for (const [id, entry] of known) if (now - entry.at >= KNOWN_SECRETS_TTL_MS || known.size >= MAX_KNOWN_SECRETS_WORKSPACES) known.delete(id);
      const secrets = buildKnownSecrets(workspaceId);
      known.set(workspaceId, { at: now, secrets });
      secrets.catch(() => known.delete(workspaceId));
      return secrets;
    },

    attach: async (actor, id, use) => {
      await checkedUse(actor, actor.workspaceId, id, use);
    },

    create: async (actor, input) => {
      const { provider, name, type, data, allowedHosts } = checkCredential(input);
      const id = ids.make("cred");
      const secret = await vault.seal(actor.workspaceId, id, Buffer.from(JSON.stringify(data)));
      const created = await db.transaction(async (tx) => {
        const row = await insertCredential(tx, actor.workspaceId, {
          id,
          provider,
          name,
          type,
          secret,
          allowedHosts,
          createdAt: clock.now(),
        });
        // Field names only: which parts the secret has, never their values.
        await audit.record(tx, actor, {
          action: "credential.create",
          resourceType: "credential",
          resourceId: row.id,
          details: { provider: row.provider, name: row.name, type: row.type, fields: Object.keys(data).sort(), ...(allowedHosts ? { allowed_hosts: allowedHosts } : {}) },
        });
        return row;
      });
      forgetSecrets(actor.workspaceId);
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
      forgetSecrets(actor.workspaceId);
      onChange?.(actor.workspaceId);
    },

    reveal: async (workspaceId, id, use) => {
      const row = await checkedUse(undefined, workspaceId, id, use);
      return JSON.parse((await vault.open(workspaceId, id, row.secret)).toString("utf8")) as Record<string, unknown>;
    },

    providers: async (workspaceId) => new Set(await liveProviders(db, workspaceId)),
  };
}
