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

function retryAfterSeconds(res: RateLimiterRes): number {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

export async function createRateLimits(config: Config, database: Database): Promise<RateLimits> {
  let redis: Redis | undefined;
  let store: RateLimits["store"] = "memory";
  const make = (keyPrefix: string, points: number): RateLimiterAbstract => {
    const base = { keyPrefix, points, duration: WINDOW_SECONDS };
    const insuranceLimiter = new RateLimiterMemory(base);
    if (redis) return new RateLimiterRedis({ ...base, storeClient: redis, insuranceLimiter });
    if (database.pool) {
      return new RateLimiterPostgres({
        ...base,
        storeClient: database.pool,
        storeType: "pool",
        tableName: "rate_limits",
        tableCreated: true,
        insuranceLimiter,
      });
    }
    return insuranceLimiter;
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

  const perKey = make("rl_key", config.rateLimitPerKey);
  const perWorkspace = make("rl_wsp", config.rateLimitPerWorkspace);
  const authFailures = make("rl_authfail", config.authFailureLimit);

  /** A limiter's rejection (a RateLimiterRes) becomes 429 `rate_limited`; store errors pass through. */
  function refusal(rejection: unknown): Error {
    if (!(rejection instanceof RateLimiterRes)) return rejection as Error;
    const seconds = retryAfterSeconds(rejection);
    return new AppError("rate_limited", { retryAfter: seconds, message: `Too many requests; retry in ${seconds} s.` });
  }

  return {
    store,
    // A callback and a plain promise chain rather than async functions: this runs on every authenticated
    // request, and each promise saved there is throughput.
    consume: (credentialId, workspaceId, done) => {
      const key = perKey.consume(credentialId);
      const both = workspaceId === undefined ? key : key.then(() => perWorkspace.consume(workspaceId));
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
