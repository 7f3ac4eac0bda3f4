// The embedded database in a worker thread (src/db/pglite-worker.mjs), seen from the service's thread as the
// part of PGlite's interface that drizzle and openDb use: query, exec, transaction (interactive, with
// drizzle's savepoints inside), listen, close. Why: PGlite runs each statement synchronously on the thread
// that owns it, and on the event loop that CPU delayed the requests being handled (docs/benchmarks.md, chat
// completions). Each call is one message each way (tens of microseconds); the statement's work happens on
// the other core.
import { Worker } from "node:worker_threads";

type Row = Record<string, unknown> | unknown[];

export interface QueryResult {
  rows: Row[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

export interface QueryOptions {
  rowMode?: "array" | "object";
  /** drizzle's: types left as text (identity functions); only their type ids cross the channel. */
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

interface Queryable {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult>;
  exec(sql: string): Promise<QueryResult[]>;
}

export interface ThreadTransaction extends Queryable {
  rollback(): Promise<void>;
  readonly closed: boolean;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** A database error as the worker sent it: the message, and code, detail, constraint... as fields. */
function errorFrom(data: Record<string, unknown>): Error {
  const error = new Error(String(data.message ?? "database error"));
  Object.assign(error, data);
  return error;
}

// drizzle passes the same options object with every run of a prepared query: translated once.
const wired = new WeakMap<QueryOptions, { rowMode?: "array" | "object"; rawTypes?: number[] }>();

function wireOptions(options: QueryOptions | undefined) {
  if (!options) return undefined;
  const hit = wired.get(options);
  if (hit) return hit;
  const rawTypes = options.parsers ? Object.keys(options.parsers).map(Number) : undefined;
  // Only parsers that leave the value as it is can run on the other side (drizzle's are all such).
  for (const [oid, parse] of Object.entries(options.parsers ?? {})) {
    if (parse("2026-01-01", Number(oid)) !== "2026-01-01") throw new Error(`type parser for ${oid} is not supported across the database thread`);
  }
  const wire = { ...(options.rowMode ? { rowMode: options.rowMode } : {}), ...(rawTypes ? { rawTypes } : {}) };
  wired.set(options, wire);
  return wire;
}

export class PgliteThread implements Queryable {
  private readonly pending = new Map<number, Pending>();
  private readonly channels = new Map<string, Set<(payload: string) => void>>();
  private next = 1;
  private failure: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on("message", (m: { id?: number; ok?: boolean; value?: unknown; error?: Record<string, unknown>; notify?: string; payload?: string }) => {
      if (m.notify !== undefined) {
        for (const handler of this.channels.get(m.notify) ?? []) handler(m.payload ?? "");
        return;
      }
      const waiting = this.pending.get(m.id!);
      if (!waiting) return;
      this.pending.delete(m.id!);
      if (m.ok) waiting.resolve(m.value);
      else waiting.reject(errorFrom(m.error ?? {}));
    });
    // The thread died (out of memory, a crash in WebAssembly): every call fails from now on, loudly.
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the embedded database thread exited (code ${code})`)));
  }

  /** Starts the thread and opens the database (`dataDir` undefined: in memory). */
  static async create(dataDir: string | undefined): Promise<PgliteThread> {
    const worker = new Worker(new URL("./pglite-worker.mjs", import.meta.url));
    const thread = new PgliteThread(worker);
    try {
      await thread.call("open", { dataDir });
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return thread;
  }

  /** Calls sent to the thread and not answered yet. */
  get queued(): number {
    return this.pending.size;
  }

  private call<T>(op: string, message: Record<string, unknown> = {}): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...message, op, id });
    });
  }

  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult> {
    return this.call("query", { sql, params: params ?? [], options: wireOptions(options) });
  }

  exec(sql: string): Promise<QueryResult[]> {
    return this.call("exec", { sql });
  }

  /** Commits when `fn` resolves, rolls back when it throws (or called `rollback`). */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const txId = await this.call<number>("begin");
    let closed = false;
    let rolledBack = false;
    const tx: ThreadTransaction = {
      query: (sql, params, options) => (closed ? Promise.reject(new Error("transaction is closed")) : this.call("query", { tx: txId, sql, params: params ?? [], options: wireOptions(options) })),
      exec: (sql) => (closed ? Promise.reject(new Error("transaction is closed")) : this.call("exec", { tx: txId, sql })),
      rollback: async () => {
        rolledBack = true;
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (error) {
      closed = true;
      await this.call("end", { tx: txId, how: "rollback" }).catch(() => undefined);
      throw error;
    }
    closed = true;
    await this.call("end", { tx: txId, how: rolledBack ? "rollback" : "commit" });
    return result;
  }

  /** LISTEN: `handler` gets every notification's payload; the returned function unsubscribes. */
  async listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.channels.get(channel);
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
      // One subscription in the thread per channel, however many handlers here.
      await this.call("listen", { channel });
    }
    set.add(handler);
    return async () => {
      set.delete(handler);
      if (set.size === 0 && this.channels.get(channel) === set) {
        this.channels.delete(channel);
        await this.call("unlisten", { channel }).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    if (!this.failure) await this.call("close").catch(() => undefined);
    await this.worker.terminate();
  }
}
