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

/** A verified key is itself the request's principal (see http/types.ts), built once per cache entry. */
export interface VerifiedKey {
  readonly kind: "key";
  readonly keyId: string;
  readonly workspaceId: string;
  readonly workspaceName: string;
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
  /** The hot path: an active key found in the cache, synchronously; undefined when verify() must decide. */
  verifyCached(token: string): VerifiedKey | undefined;
  start(): Promise<void>;
  stop(): Promise<void>;
}

interface CacheEntry {
  lookup: KeyLookup | undefined;
  verified: VerifiedKey | undefined;
  expiresAt: number;
  /** Last successful use (ms), written to last_used_at by the periodic flush. */
  usedAt: number;
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
  let flushedAt = 0;
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

  function entryFor(lookup: KeyLookup | undefined): CacheEntry {
    return {
      lookup,
      verified: lookup && { kind: "key", keyId: lookup.id, workspaceId: lookup.workspaceId, workspaceName: lookup.workspaceName },
      expiresAt: Date.now() + (lookup ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS),
      usedAt: 0,
    };
  }

  function remember(digest: string, entry: CacheEntry): void {
    if (cache.size >= CACHE_MAX) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(digest, entry);
    if (entry.lookup) digestByKeyId.set(entry.lookup.id, digest);
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

  // Nothing is allocated per request: the entry remembers its last use, the flush collects them.
  function used(entry: CacheEntry, now: number): VerifiedKey {
    entry.usedAt = now;
    return entry.verified!;
  }

  async function flushLastUsed(): Promise<void> {
    const since = flushedAt;
    flushedAt = clock.nowMs();
    const entries = [];
    for (const entry of cache.values()) {
      if (entry.lookup && entry.usedAt > since) {
        entries.push({ workspaceId: entry.lookup.workspaceId, keyId: entry.lookup.id, at: new Date(entry.usedAt) });
      }
    }
    if (entries.length > 0) await touchLastUsed(db, entries);
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
        entry = entryFor(await lookupByDigest(db, digest));
        if (startedAt === epoch) remember(digest, entry);
      }
      const found = entry.lookup;
      if (!found || !digestsEqual(found.keyHash, digest)) throw new AppError("auth_invalid");
      if (found.status === "revoked") throw new AppError("auth_revoked");
      if (found.status === "rotating") throw new AppError("auth_rotating");
      return used(entry, clock.nowMs());
    },

    // No format check here: only digests of real keys ever have a positive entry.
    verifyCached: (token) => {
      const digest = digestKey(token);
      const entry = cache.get(digest);
      const found = entry?.lookup;
      const now = clock.nowMs();
      if (!found || found.status !== "active" || entry.expiresAt <= now || !digestsEqual(found.keyHash, digest)) {
        return undefined;
      }
      return used(entry, now);
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
