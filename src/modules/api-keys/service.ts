import type { Clock } from "../../clock.ts";
import type { Database, Db } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Ids } from "../../ids.ts";
import { digestKey, digestsEqual, generateKey, isWellFormedKey } from "./key-format.ts";
import {
  insertKey,
  listKeys,
  lockKey,
  lookupByDigest,
  setKeyStatus,
  touchLastUsed,
  type ApiKeyRow,
  type KeyLookup,
} from "./store.ts";

/** Cross-process channel: a key id published here is dropped from every process's verification cache. */
export const KEY_CHANNEL = "svc_api_keys";

export interface VerifiedKey {
  keyId: string;
  workspaceId: string;
  workspaceName: string;
}

export interface ApiKeyService {
  create(workspaceId: string, name: string): Promise<{ row: ApiKeyRow; plaintext: string }>;
  list(workspaceId: string, includeRevoked: boolean): Promise<ApiKeyRow[]>;
  rotate(workspaceId: string, keyId: string): Promise<{ row: ApiKeyRow; plaintext: string }>;
  revoke(workspaceId: string, keyId: string): Promise<void>;
  /**
   * Resolves a bearer key to its workspace, or throws `auth_invalid` / `auth_revoked` / `auth_rotating`.
   * `beforeLookup` runs only when the cache cannot answer, right before the database is read.
   */
  verify(token: string, beforeLookup?: () => Promise<void>): Promise<VerifiedKey>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

interface CacheEntry {
  lookup: KeyLookup | undefined;
  expiresAt: number;
}

// A positive entry is re-read after a minute even if a notification was lost; an unknown digest is
// remembered briefly so a flood of well-formed fakes costs one read each per few seconds at most.
const POSITIVE_TTL_MS = 60_000;
const NEGATIVE_TTL_MS = 5_000;
const CACHE_MAX = 50_000;
const LAST_USED_FLUSH_MS = 10_000;

export function createApiKeyService(deps: { database: Database; ids: Ids; clock: Clock }): ApiKeyService {
  const { database, ids, clock } = deps;
  const db = database.db;
  const cache = new Map<string, CacheEntry>();
  const digestByKeyId = new Map<string, string>();
  // Bumped on every invalidation: a lookup that started before one must not cache what it read.
  let epoch = 0;
  const lastUsed = new Map<string, { workspaceId: string; keyId: string; at: Date }>();
  let flushTimer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;

  function forget(keyId: string): void {
    epoch++;
    const digest = digestByKeyId.get(keyId);
    if (digest) cache.delete(digest);
    digestByKeyId.delete(keyId);
  }

  function forgetAll(): void {
    epoch++;
    cache.clear();
    digestByKeyId.clear();
  }

  function remember(digest: string, lookup: KeyLookup | undefined): void {
    if (cache.size >= CACHE_MAX) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(digest, { lookup, expiresAt: Date.now() + (lookup ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS) });
    if (lookup) digestByKeyId.set(lookup.id, digest);
  }

  async function changed(keyId: string): Promise<void> {
    forget(keyId);
    await database.notify(KEY_CHANNEL, keyId);
  }

  async function issue(tx: Db, workspaceId: string, name: string, rotatedFrom: string | null) {
    const plaintext = generateKey();
    const row = await insertKey(tx, workspaceId, {
      id: ids.make("key"),
      name,
      keyHash: digestKey(plaintext),
      status: "active",
      rotatedFrom,
      createdAt: clock.now(),
    });
    return { row, plaintext };
  }

  async function flushLastUsed(): Promise<void> {
    if (lastUsed.size === 0) return;
    const entries = [...lastUsed.values()];
    lastUsed.clear();
    await touchLastUsed(db, entries);
  }

  return {
    create: (workspaceId, name) => issue(db, workspaceId, name, null),

    list: (workspaceId, includeRevoked) => listKeys(db, workspaceId, includeRevoked),

    rotate: async (workspaceId, keyId) => {
      const result = await db.transaction(async (tx) => {
        const old = await lockKey(tx, workspaceId, keyId);
        if (!old || old.status === "revoked") throw new AppError("api_key_not_found");
        if (old.status !== "active") throw new AppError("api_key_not_active");
        await setKeyStatus(tx, workspaceId, keyId, { status: "rotating", rotatedAt: clock.now() });
        return issue(tx, workspaceId, old.name, old.id);
      });
      await changed(keyId);
      return result;
    },

    revoke: async (workspaceId, keyId) => {
      await db.transaction(async (tx) => {
        const key = await lockKey(tx, workspaceId, keyId);
        if (!key || key.status === "revoked") throw new AppError("api_key_not_found");
        await setKeyStatus(tx, workspaceId, keyId, { status: "revoked", revokedAt: clock.now() });
      });
      await changed(keyId);
    },

    verify: async (token, beforeLookup) => {
      if (!isWellFormedKey(token)) throw new AppError("auth_invalid");
      const digest = digestKey(token);
      let entry = cache.get(digest);
      if (!entry || entry.expiresAt <= Date.now()) {
        await beforeLookup?.();
        const startedAt = epoch;
        const lookup = await lookupByDigest(db, digest);
        entry = { lookup, expiresAt: 0 };
        if (startedAt === epoch) remember(digest, lookup);
      }
      const found = entry.lookup;
      if (!found || !digestsEqual(found.keyHash, digest)) throw new AppError("auth_invalid");
      if (found.status === "revoked") throw new AppError("auth_revoked");
      if (found.status === "rotating") throw new AppError("auth_rotating");
      lastUsed.set(found.id, { workspaceId: found.workspaceId, keyId: found.id, at: clock.now() });
      return { keyId: found.id, workspaceId: found.workspaceId, workspaceName: found.workspaceName };
    },

    start: async () => {
      unlisten = await database.listen(KEY_CHANNEL, (payload) => (payload === null ? forgetAll() : forget(payload)));
      flushTimer = setInterval(() => void flushLastUsed().catch(() => {}), LAST_USED_FLUSH_MS);
      flushTimer.unref();
    },

    stop: async () => {
      clearInterval(flushTimer);
      await unlisten?.();
      await flushLastUsed().catch(() => {});
    },
  };
}
