// openDb: the embedded PGlite (default) or PostgreSQL (DATABASE_URL), behind one Drizzle handle. Stores use
// `database.db` and never know which one runs; the same SQL migrations are applied to both at start.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { PgliteThread } from "./pglite-thread.ts";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "./schema.ts";
import { lockDataDir } from "./lock.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Called with a payload, or with null when notifications may have been missed (reconnect): resync then. */
export type NotificationHandler = (payload: string | null) => void;

export interface Database {
  readonly kind: "pglite" | "postgres";
  readonly db: Db;
  /** The pg pool, for libraries that need a raw client (rate limits); absent on the embedded database. */
  readonly pool: pg.Pool | undefined;
  /** Statements sent to the embedded database's thread and not answered yet (metrics); absent on PostgreSQL. */
  readonly queued?: () => number;
  /** The embedded database's directory (absolute); absent in memory and on PostgreSQL. */
  readonly dataDir?: string;
  notify(channel: string, payload: string): Promise<void>;
  listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));
// Serialises migrations when several processes start on one PostgreSQL at once.
const MIGRATION_LOCK_ID = 72_430_001;

export interface OpenDbOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  onListenError?: (error: Error) => void;
}

export async function openDb(options: OpenDbOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.onListenError) : openPglite(options.dataDir);
}

async function openPglite(dataDir: string): Promise<Database> {
  const inMemory = dataDir === ":memory:";
  const dir = inMemory ? undefined : path.resolve(dataDir);
  const unlock = dir ? lockDataDir(dir) : () => {};
  // In a thread of its own (src/db/pglite-thread.ts): its statements' CPU off the event loop.
  let client: PgliteThread;
  try {
    client = await PgliteThread.create(dir ? path.join(dir, "pg") : undefined);
  } catch (error) {
    unlock();
    throw error;
  }
  // Everything is in memory: random access costs what sequential access does, and the planner should know
  // (without this it prefers scanning a workspace's rows to using the full-text and trigram indexes).
  await client.exec("SET random_page_cost = 1.1");
  const db = drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Db;
  try {
    await migratePglite(drizzlePglite({ client: client as unknown as PGlite }), { migrationsFolder: MIGRATIONS });
  } catch (error) {
    await client.close();
    unlock();
    throw error;
  }
  let closed = false;
  return {
    kind: "pglite",
    db,
    pool: undefined,
    queued: () => client.queued,
    dataDir: dir,
    notify: async (channel, payload) => {
      await client.query("select pg_notify($1, $2)", [channel, payload]);
    },
    listen: async (channel, handler) => {
      const stop = await client.listen(channel, (payload) => handler(payload));
      return stop;
    },
    ping: async () => {
      await client.query("select 1");
    },
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
  };
}

async function openPostgres(url: string, onListenError?: (error: Error) => void): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client that loses its server must not crash the process; the next query reports the failure.
  pool.on("error", (error) => onListenError?.(error));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  try {
    const lockClient = await pool.connect();
    try {
      await lockClient.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
      await migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS });
    } finally {
      await lockClient.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
      lockClient.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }

  const listener = new PgListener(url, onListenError);
  let closed = false;
  return {
    kind: "postgres",
    db,
    pool,
    notify: async (channel, payload) => {
      await db.execute(sql`select pg_notify(${channel}, ${payload})`);
    },
    listen: (channel, handler) => listener.listen(channel, handler),
    ping: async () => {
      await pool.query("select 1");
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await listener.close();
      await pool.end();
    },
  };
}

/**
 * One dedicated connection per process for LISTEN. When it drops, it reconnects with backoff and tells every
 * handler to resync (payload null), because notifications sent meanwhile are lost.
 */
class PgListener {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private closed = false;
  private retryDelay = 100;

  constructor(
    private readonly url: string,
    private readonly onError?: (error: Error) => void,
  ) {}

  async listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    const client = await this.connect();
    if (first) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    return async () => {
      set.delete(handler);
    };
  }

  private connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url });
      client.on("notification", (message) => {
        for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? "");
      });
      client.on("error", (error) => this.lost(client, error));
      client.on("end", () => this.lost(client, new Error("LISTEN connection ended")));
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      this.client = client;
      this.retryDelay = 100;
      return client;
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    this.onError?.(error);
    const reconnect = (): void => {
      if (this.closed) return;
      this.connect().then(
        () => {
          for (const set of this.handlers.values()) for (const handler of set) handler(null);
        },
        (err: Error) => {
          this.onError?.(err);
          this.retryDelay = Math.min(this.retryDelay * 2, 5000);
          setTimeout(reconnect, this.retryDelay).unref();
        },
      );
    };
    setTimeout(reconnect, this.retryDelay).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
