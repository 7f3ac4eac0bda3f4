// Rate limits per API key, per workspace, and (stricter) per client address for failed authentications.
// One process: counters in memory. Several processes: counters in Redis (SVC_REDIS_URL) or else in
// PostgreSQL (DATABASE_URL), so a limit holds across every node; an in-memory insurance limiter takes over
// while the shared store is unreachable, so an outage of the counter store never opens the gates entirely.
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import { Redis } from "ioredis";
import type pg from "pg";
import type { Config } from "../config.ts";
import type { Database } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";

export interface RateLimits {
  readonly store: "memory" | "postgres" | "redis";
  /**
   * Counts one request for the credential and, for a workspace key, its workspace; throws 429
   * `rate_limited` when either is spent. The operator has its own budget and never spends a tenant's.
   */
  consume(credentialId: string, workspaceId: string | undefined, done: (error?: Error) => void): void;
  /** Seconds the address must wait because of earlier failed authentications, or 0. */
  authBlockedFor(address: string): Promise<number>;
  recordAuthFailure(address: string): Promise<void>;
  close(): Promise<void>;
}

const WINDOW_SECONDS = 60;
// Key prefixes of the counters (rate-limiter-flexible stores "prefix:id"); the one-statement path uses them too.
const KEY_PREFIX = "rl_key";
const WORKSPACE_PREFIX = "rl_wsp";

function retryAfterSeconds(res: RateLimiterRes): number {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

export async function createRateLimits(config: Config, database: Database): Promise<RateLimits> {
  let redis: Redis | undefined;
  let store: RateLimits["store"] = "memory";
  /** The limiter of the store in use, and the in-memory one that takes over while that store is unreachable. */
  const make = (keyPrefix: string, points: number): { shared: RateLimiterAbstract; insurance: RateLimiterMemory } => {
    const base = { keyPrefix, points, duration: WINDOW_SECONDS };
    const insurance = new RateLimiterMemory(base);
    if (redis) return { shared: new RateLimiterRedis({ ...base, storeClient: redis, insuranceLimiter: insurance }), insurance };
    if (database.pool) {
      const shared = new RateLimiterPostgres({ ...base, storeClient: database.pool, storeType: "pool", tableName: "rate_limits", tableCreated: true, insuranceLimiter: insurance });
      return { shared, insurance };
    }
    return { shared: insurance, insurance };
  };

  if (config.redisUrl) {
    redis = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    redis.on("error", () => {
      // Reported through the insurance limiter taking over; ioredis reconnects by itself.
    });
    await redis.connect();
    store = "redis";
  } else if (database.pool) {
    store = "postgres";
  }

  const perKey = make(KEY_PREFIX, config.rateLimitPerKey);
  const perWorkspace = make(WORKSPACE_PREFIX, config.rateLimitPerWorkspace);
  const authFailures = make("rl_authfail", config.authFailureLimit).shared;

  /** A limiter's rejection (a RateLimiterRes) becomes 429 `rate_limited`; store errors pass through. */
  function refusal(rejection: unknown): Error {
    if (!(rejection instanceof RateLimiterRes)) return rejection as Error;
    const seconds = retryAfterSeconds(rejection);
    return new AppError("rate_limited", { retryAfter: seconds, message: `Too many requests; retry in ${seconds} s.` });
  }

  /** In memory, or in the shared store one call after the other (the workspace's only if the key's passed). */
  const inTurn = (limiters: { key: RateLimiterAbstract; workspace: RateLimiterAbstract }, credentialId: string, workspaceId: string | undefined) => {
    const key = limiters.key.consume(credentialId);
    return workspaceId === undefined ? key : key.then(() => limiters.workspace.consume(workspaceId));
  };
  const pool = store === "postgres" ? database.pool : undefined;
  const fallback = { key: perKey.insurance, workspace: perWorkspace.insurance };
  const shared = { key: perKey.shared, workspace: perWorkspace.shared };

  return {
    store,
    // A callback and a plain promise chain rather than async functions: this runs on every authenticated
    // request, and each promise saved there is throughput.
    consume: (credentialId, workspaceId, done) => {
      const both =
        pool && workspaceId !== undefined
          ? consumeBothOnPostgres(pool, credentialId, workspaceId, config).catch((error: unknown) =>
              // The store failed (not a refusal): the in-memory limiters decide, as the library's would.
              error instanceof RateLimiterRes ? Promise.reject(error) : inTurn(fallback, credentialId, workspaceId),
            )
          : inTurn(shared, credentialId, workspaceId);
      both.then(
        () => done(),
        (rejection: unknown) => done(refusal(rejection)),
      );
    },
    authBlockedFor: async (address) => {
      const res = await authFailures.get(address);
      return res && res.consumedPoints >= config.authFailureLimit ? retryAfterSeconds(res) : 0;
    },
    recordAuthFailure: async (address) => {
      await authFailures.penalty(address, 1);
    },
    close: async () => {
      redis?.disconnect();
    },
  };
}

// Both counters of a workspace key in one round trip on PostgreSQL, where the library's limiter takes one
// round trip each (about 0.15 ms apiece on a local server, on every authenticated request). The same table,
// keys ("prefix:id"), fixed windows and upsert as RateLimiterPostgres, so the two agree on every counter;
// the workspace's counter is only spent when the key is within its limit, as the two calls in turn would.
const CONSUME_BOTH = {
  name: "svc-rate-limit-key-and-workspace",
  text: `
    WITH k AS (
      INSERT INTO rate_limits VALUES ($1, 1, $3)
      ON CONFLICT (key) DO UPDATE SET
        points = CASE WHEN rate_limits.expire <= $4 THEN 1 ELSE rate_limits.points + 1 END,
        expire = CASE WHEN rate_limits.expire <= $4 THEN $3 ELSE rate_limits.expire END
      RETURNING points, expire
    ), w AS (
      INSERT INTO rate_limits SELECT $2, 1, $3 FROM k WHERE k.points <= $5
      ON CONFLICT (key) DO UPDATE SET
        points = CASE WHEN rate_limits.expire <= $4 THEN 1 ELSE rate_limits.points + 1 END,
        expire = CASE WHEN rate_limits.expire <= $4 THEN $3 ELSE rate_limits.expire END
      RETURNING points, expire
    )
    SELECT k.points AS key_points, k.expire AS key_expire, w.points AS workspace_points, w.expire AS workspace_expire
    FROM k LEFT JOIN w ON true`,
};

async function consumeBothOnPostgres(pool: pg.Pool, credentialId: string, workspaceId: string, config: Config): Promise<void> {
  const now = Date.now();
  const result = await pool.query<{ key_points: number; key_expire: string; workspace_points: number | null; workspace_expire: string | null }>({
    ...CONSUME_BOTH,
    values: [`${KEY_PREFIX}:${credentialId}`, `${WORKSPACE_PREFIX}:${workspaceId}`, now + WINDOW_SECONDS * 1000, now, config.rateLimitPerKey],
  });
  const row = result.rows[0]!;
  if (row.key_points > config.rateLimitPerKey) throw new RateLimiterRes(0, Number(row.key_expire) - now, row.key_points);
  if (row.workspace_points !== null && row.workspace_points > config.rateLimitPerWorkspace) {
    throw new RateLimiterRes(0, Number(row.workspace_expire) - now, row.workspace_points);
  }
}
