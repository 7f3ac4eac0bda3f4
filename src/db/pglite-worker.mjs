// The embedded database's own thread. PGlite is PostgreSQL compiled to WebAssembly: every statement runs
// synchronously on the thread that owns it. On the service's event loop that CPU (0.5 to 1 ms for an insert
// with a jsonb trace) delayed whatever request was being handled; here it runs beside it, on another core.
// The main thread talks to it through src/db/pglite-thread.ts, which gives drizzle and the service the
// PGlite methods they use (query, exec, transaction, listen, close).
// Plain JavaScript on purpose: a worker thread does not get the TypeScript loader of its parent (tsx in
// production, Vite in the tests), and this file needs nothing of ours.
import { parentPort } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/** @type {PGlite | undefined} */
let pg;
/** Open transactions by id: their PGlite handle, how to end them, and the promise that ends with them. */
const transactions = new Map();
/** LISTEN subscriptions by channel: their unsubscribe function. */
const subscriptions = new Map();

class Rollback extends Error {}

const identity = (value) => value;

/** Query options across the channel: parsers are functions, so only the types to leave as text travel. */
function optionsOf(wire) {
  if (!wire) return undefined;
  const options = {};
  if (wire.rowMode) options.rowMode = wire.rowMode;
  if (wire.rawTypes) options.parsers = Object.fromEntries(wire.rawTypes.map((oid) => [oid, identity]));
  return options;
}

/** An error as plain data: its message, name and every scalar field (code, detail, constraint, ...). */
function errorOf(error) {
  const out = { name: error?.name ?? "Error", message: error?.message ?? String(error) };
  for (const key of Object.keys(error ?? {})) {
    const value = error[key];
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) out[key] = value;
  }
  return out;
}

const resultOf = (r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows });

function target(txId) {
  if (txId === undefined) return pg;
  const open = transactions.get(txId);
  if (!open) throw new Error(`transaction ${txId} is not open`);
  return open.tx;
}

async function handle(m) {
  switch (m.op) {
    case "open":
      pg = await PGlite.create(m.dataDir, { extensions: { pg_trgm } });
      return undefined;
    case "query":
      return resultOf(await target(m.tx).query(m.sql, m.params, optionsOf(m.options)));
    case "exec":
      return (await target(m.tx).exec(m.sql)).map(resultOf);
    case "begin": {
      // PGlite commits when the callback returns and rolls back when it throws: the callback waits here
      // until the main thread says which.
      let ready;
      const started = new Promise((resolve) => (ready = resolve));
      let end;
      const ended = new Promise((resolve) => (end = resolve));
      const done = pg.transaction(async (tx) => {
        transactions.set(m.id, { tx, end, done: undefined });
        ready();
        if ((await ended) === "rollback") throw new Rollback();
      });
      // The transaction may fail to start (BEGIN refused): report that instead of waiting.
      await Promise.race([started, done]);
      if (!transactions.has(m.id)) await done;
      transactions.get(m.id).done = done;
      return m.id;
    }
    case "end": {
      const open = transactions.get(m.tx);
      if (!open) throw new Error(`transaction ${m.tx} is not open`);
      open.end(m.how);
      try {
        await open.done;
      } catch (error) {
        if (!(error instanceof Rollback)) throw error;
      } finally {
        transactions.delete(m.tx);
      }
      return undefined;
    }
    case "listen": {
      if (subscriptions.has(m.channel)) return undefined;
      subscriptions.set(m.channel, await pg.listen(m.channel, (payload) => parentPort.postMessage({ notify: m.channel, payload })));
      return undefined;
    }
    case "unlisten": {
      const unsubscribe = subscriptions.get(m.channel);
      subscriptions.delete(m.channel);
      await unsubscribe?.();
      return undefined;
    }
    case "close":
      await pg?.close();
      return undefined;
    default:
      throw new Error(`unknown operation ${m.op}`);
  }
}

// Messages are handled as they come, not one after another: a transaction's statements must reach PGlite
// while other statements wait for the transaction to end (PGlite queues those itself).
parentPort.on("message", (m) => {
  handle(m).then(
    (value) => parentPort.postMessage({ id: m.id, ok: true, value }),
    (error) => parentPort.postMessage({ id: m.id, ok: false, error: errorOf(error) }),
  );
});
