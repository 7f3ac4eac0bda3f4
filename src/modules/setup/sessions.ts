// Setup sessions: a setup assembled over several requests (create a draft, add resources), then applied
// once through the very function POST /setup runs (`SetupService.apply`), so an item gets the same checks,
// encryption, audit entry and per-item result either way. Credentials' key data is sealed with the
// workspace's vault key as soon as it reaches a draft, opened only to apply, erased once applied, and never
// answered (the session shows its field names). An applied session is final: applying it again answers the
// stored result and applies nothing twice.
import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Actor, AuditLog } from "../../events/audit.ts";
import type { Ids } from "../../ids.ts";
import type { Vault } from "../credentials/vault.ts";
import { MAX_SETUP_ITEMS, type SessionAddBody, type SessionApplyBody, type SessionApplyResult, type SessionCreateBody, type SetupBody, type SetupResult, type SetupSession } from "./schemas.ts";
import type { SetupService } from "./service.ts";
import { getSession, insertSession, listSessions, lockSession, updateSession, type SessionRow, type SessionStatus } from "./store.ts";

const KINDS = ["connections", "credentials", "memory", "policies"] as const;
type Kind = (typeof KINDS)[number];
type Items = Partial<Record<Kind, Record<string, unknown>[]>>;

/** A credential as a draft keeps it: its key data sealed (`sealed`, opened with `ref`), and the field names. */
interface StoredCredential {
  provider: unknown;
  name: unknown;
  type?: unknown;
  ref: string;
  sealed?: string;
  fields: string[];
}

export interface SetupSessionService {
  create(actor: Actor, body: SessionCreateBody): Promise<SetupSession>;
  list(workspaceId: string, filter: { status?: SessionStatus; limit: number; offset: number }): Promise<{ sessions: SetupSession[]; total: number }>;
  get(workspaceId: string, id: string): Promise<SetupSession>;
  add(actor: Actor, id: string, body: SessionAddBody): Promise<SetupSession>;
  apply(actor: Actor, id: string, body: SessionApplyBody): Promise<SessionApplyResult>;
}

const SEALED = "[sealed]";

function toWire(row: SessionRow): SetupSession {
  const items = row.items as Items;
  const credentials = ((items.credentials ?? []) as unknown as StoredCredential[]).map((c) => ({
    provider: c.provider,
    name: c.name ?? null,
    ...(c.type !== undefined ? { type: c.type } : {}),
    // Field names only, and only while the sealed copy is held (a draft); once applied it is erased.
    ...(c.sealed && c.fields.length > 0 ? { key_data: Object.fromEntries(c.fields.map((f) => [f, SEALED])) } : {}),
  }));
  return {
    id: row.id,
    status: row.status,
    purpose: row.purpose,
    constraints: row.constraints,
    connections: items.connections ?? [],
    credentials,
    memory: items.memory ?? [],
    policies: items.policies ?? [],
    proposals: [],
    applied_count: row.appliedCount,
    failed_count: row.failedCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    applied_at: row.appliedAt?.toISOString() ?? null,
    ...(row.result ? { result: row.result as SetupResult } : {}),
  };
}

const countsOf = (items: Items) => Object.fromEntries(KINDS.map((k) => [k, items[k]?.length ?? 0]));

export function createSetupSessionService(deps: { db: Db; ids: Ids; clock: Clock; vault: Vault; audit: AuditLog; setup: SetupService }): SetupSessionService {
  const { db, ids, clock, vault, audit, setup } = deps;

  /** The items of a request, credentials sealed; nothing is written yet. */
  async function prepare(workspaceId: string, sessionId: string, body: SessionAddBody): Promise<Items> {
    const items: Items = {};
    for (const kind of KINDS) {
      const given = (body[kind] ?? []) as Record<string, unknown>[];
      if (given.length === 0) continue;
      if (kind !== "credentials") {
        items[kind] = given;
        continue;
      }
      const sealed: StoredCredential[] = [];
      for (const item of given) {
        const ref = ids.uuid();
        // Stored as POST /setup would take it; a string key is the `value` field, as credentials read it.
        const data = typeof item.key_data === "string" && item.key_data !== "" ? { value: item.key_data } : item.key_data;
        const hasData = data !== null && typeof data === "object" && !Array.isArray(data);
        sealed.push({
          provider: item.provider,
          name: item.name ?? null,
          ...(item.type !== undefined && item.type !== null ? { type: item.type } : {}),
          ref,
          ...(hasData ? { sealed: await vault.seal(workspaceId, `${sessionId}:${ref}`, Buffer.from(JSON.stringify(data))) } : {}),
          fields: hasData ? Object.keys(data).sort() : [],
        });
      }
      items.credentials = sealed as unknown as Record<string, unknown>[];
    }
    return items;
  }

  function merged(current: Items, added: Items): Items {
    const out: Items = { ...current };
    for (const kind of KINDS) {
      if (!added[kind]) continue;
      const all = [...(current[kind] ?? []), ...added[kind]];
      if (all.length > MAX_SETUP_ITEMS) {
        throw new AppError("invalid_request", {
          message: `Invalid request: a setup session holds at most ${MAX_SETUP_ITEMS} ${kind}; this one would hold ${all.length}.`,
          details: [{ field: kind, message: `at most ${MAX_SETUP_ITEMS} per session` }],
        });
      }
      out[kind] = all;
    }
    return out;
  }

  /** The draft as POST /setup's request, credentials' key data opened. */
  async function requestOf(row: SessionRow, options: { confirm: boolean; dryRun: boolean }): Promise<SetupBody> {
    const items = row.items as Items;
    const credentials = [];
    for (const c of (items.credentials ?? []) as unknown as StoredCredential[]) {
      const keyData = c.sealed ? (JSON.parse((await vault.open(row.workspaceId, `${row.id}:${c.ref}`, c.sealed)).toString("utf8")) as unknown) : undefined;
      credentials.push({ provider: c.provider, name: c.name, key_data: keyData, ...(c.type !== undefined ? { type: c.type } : {}) });
    }
    return {
      purpose: row.purpose,
      constraints: row.constraints,
      connections: items.connections as SetupBody["connections"],
      credentials,
      memory: items.memory as SetupBody["memory"],
      policies: items.policies as SetupBody["policies"],
      confirm: options.confirm,
      dry_run: options.dryRun,
    };
  }

  const answer = (row: SessionRow, replayed: boolean): SessionApplyResult => ({
    session_id: row.id,
    status: row.status,
    applied: row.appliedCount,
    failed: row.failedCount,
    dry_run: false,
    replayed,
    result: row.result as SetupResult,
  });

  return {
    create: async (actor, body) => {
      const id = ids.make("setup");
      const items = merged({}, await prepare(actor.workspaceId, id, body));
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const created = await insertSession(tx, actor.workspaceId, {
          id,
          status: "draft",
          purpose: body.purpose?.trim() || null,
          constraints: body.constraints ?? [],
          items,
          createdAt: now,
          updatedAt: now,
        });
        await audit.record(tx, actor, { action: "setup_session.create", resourceType: "setup_session", resourceId: id, details: { items: countsOf(items) } });
        return created;
      });
      return toWire(row);
    },

    list: async (workspaceId, filter) => {
      const { rows, total } = await listSessions(db, workspaceId, filter);
      return { sessions: rows.map(toWire), total };
    },

    get: async (workspaceId, id) => {
      const row = await getSession(db, workspaceId, id);
      if (!row) throw new AppError("setup_session_not_found", { message: `Setup session ${id.slice(0, 100)} was not found.` });
      return toWire(row);
    },

    add: async (actor, id, body) => {
      if (KINDS.every((k) => (body[k] ?? []).length === 0)) throw new AppError("missing_fields");
      const workspaceId = actor.workspaceId;
      // Sealed before the transaction: the vault reads the workspace's data key on its own connection.
      const added = await prepare(workspaceId, id, body);
      const row = await db.transaction(async (tx) => {
        const current = await lockSession(tx, workspaceId, id);
        if (!current) throw new AppError("setup_session_not_found", { message: `Setup session ${id.slice(0, 100)} was not found.` });
        if (current.status !== "draft") throw new AppError("setup_session_not_draft", { message: `Setup session ${id} is ${current.status}; resources can be added only to a draft.`, extra: { status: current.status } });
        const items = merged(current.items as Items, added);
        const updated = await updateSession(tx, workspaceId, id, { items, updatedAt: clock.now() });
        await audit.record(tx, actor, { action: "setup_session.update", resourceType: "setup_session", resourceId: id, details: { added: countsOf(added), items: countsOf(items) } });
        return updated!;
      });
      return toWire(row);
    },

    apply: async (actor, id, body) => {
      const workspaceId = actor.workspaceId;
      const confirm = body.confirm === true;
      const notFound = () => new AppError("setup_session_not_found", { message: `Setup session ${id.slice(0, 100)} was not found.` });

      if (body.dry_run === true) {
        const row = await getSession(db, workspaceId, id);
        if (!row) throw notFound();
        if (row.status === "applied" || row.status === "failed") return answer(row, true);
        if (row.status === "applying") throw new AppError("setup_session_applying");
        const result = await setup.apply(actor, await requestOf(row, { confirm, dryRun: true }));
        return { session_id: id, status: row.status, applied: 0, failed: result.failed, dry_run: true, replayed: false, result };
      }

      // Claimed in one transaction: of two applies at once, one applies and the other is told so.
      const claimed = await db.transaction(async (tx): Promise<{ replay: boolean; row: SessionRow }> => {
        const row = await lockSession(tx, workspaceId, id);
        if (!row) throw notFound();
        if (row.status === "applied" || row.status === "failed") return { replay: true, row };
        if (row.status === "applying") throw new AppError("setup_session_applying", { message: `Setup session ${id} is being applied.` });
        // POST /setup's own rule, checked before the claim so an empty draft stays a draft.
        if (KINDS.every((k) => ((row.items as Items)[k] ?? []).length === 0)) throw new AppError("missing_fields");
        const moved = await updateSession(tx, workspaceId, id, { status: "applying", updatedAt: clock.now() });
        await audit.record(tx, actor, { action: "setup_session.apply", resourceType: "setup_session", resourceId: id, details: { items: countsOf(row.items as Items), confirm } });
        return { replay: false, row: moved! };
      });
      if (claimed.replay) return answer(claimed.row, true);

      let result: SetupResult;
      try {
        result = await setup.apply(actor, await requestOf(claimed.row, { confirm, dryRun: false }));
      } catch (error) {
        // Some items may have taken effect: the session is not applied again, and says it failed.
        await updateSession(db, workspaceId, id, { status: "failed", items: withoutSecrets(claimed.row.items as Items), updatedAt: clock.now(), appliedAt: clock.now() });
        throw error;
      }
      // Failed when nothing took effect and something failed; applied otherwise (the per-item results say which).
      const status = result.applied === 0 && result.failed > 0 ? "failed" : "applied";
      const now = clock.now();
      const row = await updateSession(db, workspaceId, id, {
        status,
        items: withoutSecrets(claimed.row.items as Items),
        appliedCount: result.applied,
        failedCount: result.failed,
        result: result as unknown as Record<string, unknown>,
        updatedAt: now,
        appliedAt: now,
      });
      return answer(row!, false);
    },
  };
}

/** Once applied, the sealed copies are of no use: the credentials live in the credential store (or failed). */
function withoutSecrets(items: Items): Items {
  if (!items.credentials) return items;
  return { ...items, credentials: (items.credentials as unknown as StoredCredential[]).map(({ sealed: _sealed, ...rest }) => rest) as unknown as Record<string, unknown>[] };
}
