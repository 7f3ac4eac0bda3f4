// The intelligence records of chat completions, written behind the answer. A chat completion is on the hot
// path of an agent's every model call, and one insert on the embedded database costs about 0.7 ms of the
// event loop, more than the whole latency budget of the gateway. So the record is queued when the answer is
// decided and written with the others of the last few milliseconds in one statement per workspace.
// What this trades, and how it is bounded:
// - Readers in this process never miss a record: the intelligence routes flush the queue before reading.
//   Another process sees it at most FLUSH_AFTER_MS (plus the insert) later.
// - A crash loses at most the records of the last FLUSH_AFTER_MS. What a chat turn did is also kept where it
//   matters for proof: every server tool run and every approval is written (with its audit entry) before it
//   happens, synchronously; only the record of the words and tool calls handed back is behind.
// - A failed write is retried (the rows stay queued); after MAX_ATTEMPTS the rows are dropped with an
//   error log that names their ids, so the queue cannot grow without bound while the database is down.
// - Backpressure: past MAX_QUEUED rows, `add` waits for a flush, so memory stays bounded under any load.
// - Shutdown flushes (app onClose), before the database closes.
// - A record may be queued as a function that makes the row: it runs at the flush, so masking the request's
//   secrets and shaping the row happen after the answer went out, not before.
// Intent records stay synchronous: an execution updates its intent's record, which must exist by then.
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/index.ts";
import { insertIntents, type NewIntentRow } from "./store.ts";

/** How long a record may wait before it is written. */
export const FLUSH_AFTER_MS = 10;
const MAX_BATCH = 200;
const MAX_QUEUED = 5_000;
const MAX_ATTEMPTS = 3;

export interface RecordWriter {
  /** Queues a record (or what makes it, run at the flush); resolves at once unless the queue is full (then once it has room). */
  add(workspaceId: string, row: NewIntentRow | (() => NewIntentRow)): Promise<void>;
  /** Writes everything queued so far (readers call it first, to see their own process's records). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

interface Queued {
  workspaceId: string;
  row: NewIntentRow | (() => NewIntentRow);
  attempts: number;
}

export function createRecordWriter(db: Db, log: FastifyBaseLogger): RecordWriter {
  let queue: Queued[] = [];
  let timer: NodeJS.Timeout | undefined;
  // One write at a time, in order; `flush` waits for the one running and then writes what is left.
  let writing: Promise<void> = Promise.resolve();

  const writeBatch = async (batch: Queued[]) => {
    const byWorkspace = new Map<string, Queued[]>();
    for (const q of batch) {
      if (typeof q.row === "function") {
        try {
          q.row = q.row();
        } catch (error) {
          // A bug in making the row: nothing to retry; the other records still go.
          log.error({ err: error, workspace_id: q.workspaceId }, "a chat record could not be made and was dropped");
          continue;
        }
      }
      const items = byWorkspace.get(q.workspaceId);
      if (items) items.push(q);
      else byWorkspace.set(q.workspaceId, [q]);
    }
    for (const [workspaceId, items] of byWorkspace) {
      try {
        await insertIntents(
          db,
          workspaceId,
          items.map((q) => q.row as NewIntentRow),
        );
      } catch (error) {
        const retry = items.filter((q) => ++q.attempts < MAX_ATTEMPTS);
        const dropped = items.filter((q) => q.attempts >= MAX_ATTEMPTS);
        if (dropped.length > 0) log.error({ err: error, workspace_id: workspaceId, records: dropped.map((q) => (q.row as NewIntentRow).id) }, "chat records could not be written and were dropped");
        else log.warn({ err: error, workspace_id: workspaceId, records: retry.length }, "chat records not written yet; retrying");
        queue = [...retry, ...queue];
        schedule();
      }
    }
  };

  const drain = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    writing = writing.then(async () => {
      while (queue.length > 0) {
        const batch = queue.slice(0, MAX_BATCH);
        queue = queue.slice(MAX_BATCH);
        const before = queue.length;
        await writeBatch(batch);
        // A failed batch went back to the queue: leave it to the timer (no hot retry loop).
        if (queue.length > before) break;
      }
    });
    return writing;
  };

  function schedule(): void {
    timer ??= setTimeout(() => void drain(), FLUSH_AFTER_MS);
    timer.unref?.();
  }

  return {
    add: async (workspaceId, row) => {
      queue.push({ workspaceId, row, attempts: 0 });
      if (queue.length >= MAX_QUEUED) await drain();
      else schedule();
    },
    flush: () => drain(),
    close: () => drain(),
  };
}
