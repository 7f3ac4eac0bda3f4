// The webhook delivery worker. Deliveries are rows written by the outbox (src/events/outbox.ts) in the
// transaction of the change; this worker sends what is due, on every process that runs it:
// - claim: one UPDATE over `FOR UPDATE SKIP LOCKED` rows marks a batch `delivering` with a lease (a token and
//   an expiry, kept in next_attempt_at). Processes sharing a PostgreSQL never claim the same row; a row whose
//   holder died is claimed again once the lease has passed.
// - send: POST through the SSRF-guarded outbound client, HTTPS only, redirects not followed to another origin.
// - record: the result is written only while the lease token still matches.
// A receiver that answered 2xx is never sent the event again, with one window: a process that dies after the
// answer and before recording it leaves a lease that expires, and the event is sent again with the same
// `webhook-id` (receivers dedupe on it). The lease outlasts an attempt (config check), and an attempt starts
// only while the lease has an attempt's time limit and a margin left (a claim that waited behind a busy
// event loop is handed back instead), so no second worker sends while the first still waits for an answer.
// Claiming scans every workspace (it is the system's queue); everything else filters by the row's workspace.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/index.ts";
import type { Outbound } from "../http/outbound.ts";
import { OutboundError } from "../http/outbound.ts";
import type { Vault } from "../modules/credentials/vault.ts";
import { signDelivery } from "./webhook-signer.ts";
import { WEBHOOK_CHANNEL } from "./outbox.ts";

export interface DeliveryPolicy {
  /** Time limit of one attempt (the outbound client's). */
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryCapMs: number;
  leaseMs: number;
  pollMs: number;
}

export interface DeliveryWorker {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Look for due deliveries now (after a commit in this process, or a redelivery). */
  wake(): void;
  /** Claims one delivery and attempts it at once (the test ping); false when another worker holds it. */
  deliverNow(workspaceId: string, deliveryId: string): Promise<boolean>;
}

interface Claimed {
  id: string;
  workspace_id: string;
  webhook_id: string;
  event_id: string;
  attempts: number;
  lease_token: string;
  /** When the lease ends, in ms (this process's clock, as the claim set it). */
  leaseUntilMs: number;
  url: string;
  secret: string;
  type: string;
  data: Record<string, unknown>;
  event_created_at: string | Date;
}

/** Outcome of one attempt, as the delivery log shows it. */
interface Outcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  retryAfterMs: number | null;
}

const CONCURRENCY = 16;
const USER_AGENT = "svc-webhooks/1";

/** Retry-After as seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/** Exponential backoff with jitter: base·2^(n-1), capped, then drawn from its upper half. */
export function backoffMs(attempt: number, policy: Pick<DeliveryPolicy, "retryBaseMs" | "retryCapMs">, random: () => number): number {
  const full = Math.min(policy.retryCapMs, policy.retryBaseMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(full / 2 + (random() * full) / 2);
}

export function createDeliveryWorker(deps: {
  database: Database;
  clock: Clock;
  vault: Vault;
  outbound: Outbound;
  policy: DeliveryPolicy;
  log: FastifyBaseLogger;
  random?: () => number;
  /** Told of every recorded attempt (metrics): the event type and whether it was delivered, failed for good or will be retried. */
  onAttempt?: (eventType: string, outcome: "delivered" | "failed" | "retrying") => void;
}): DeliveryWorker {
  const { database, clock, vault, outbound, policy, log } = deps;
  const db = database.db;
  const random = deps.random ?? Math.random;
  const inflight = new Set<Promise<void>>();
  let running = false;
  let pumping = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let unlisten: (() => Promise<void>) | undefined;

  async function claim(limit: number, only?: { workspaceId: string; id: string }): Promise<Claimed[]> {
    const now = clock.now();
    const until = new Date(now.getTime() + policy.leaseMs);
    const token = randomUUID();
    // One named delivery is taken whenever it is pending (the test ping holds its row back from the pump).
    const due = only
      ? sql`status = 'pending' and workspace_id = ${only.workspaceId} and id = ${only.id}`
      : sql`status in ('pending', 'delivering') and next_attempt_at <= ${now.toISOString()}::timestamptz`;
    const result = (await db.execute(sql`
      update webhook_deliveries d
      set status = 'delivering', attempts = d.attempts + 1, lease_token = ${token}, lease_until = ${until.toISOString()}::timestamptz,
          next_attempt_at = ${until.toISOString()}::timestamptz, last_attempt_at = ${now.toISOString()}::timestamptz
      from (
        select id from webhook_deliveries
        where ${due}
        order by next_attempt_at
        limit ${limit}
        for update skip locked
      ) due, webhooks w, webhook_events e
      where d.id = due.id and w.id = d.webhook_id and w.workspace_id = d.workspace_id and e.id = d.event_id and e.workspace_id = d.workspace_id
      returning d.id, d.workspace_id, d.webhook_id, d.event_id, d.attempts, d.lease_token, w.url, w.secret, e.type, e.data, e.created_at as event_created_at`)) as unknown as { rows: Claimed[] };
    return result.rows.map((row) => ({ ...row, leaseUntilMs: until.getTime() }));
  }

  /** Gives a claimed delivery back untried (its attempt not counted), for any worker to take at once. */
  async function release(row: Claimed): Promise<void> {
    await db.execute(sql`
      update webhook_deliveries
      set status = 'pending', attempts = attempts - 1, lease_token = null, lease_until = null, next_attempt_at = ${clock.now().toISOString()}::timestamptz
      where workspace_id = ${row.workspace_id} and id = ${row.id} and lease_token = ${row.lease_token}`);
  }

  async function send(row: Claimed): Promise<Outcome | "released"> {
    const createdAt = new Date(row.event_created_at).toISOString();
    const body = JSON.stringify({ id: row.event_id, type: row.type, created_at: createdAt, data: row.data });
    let secret: string;
    try {
      secret = (await vault.open(row.workspace_id, row.webhook_id, row.secret)).toString("utf8");
    } catch {
      return { ok: false, statusCode: null, error: "The subscription secret could not be opened (was the master key changed?).", retryAfterMs: null };
    }
    const headers = { "content-type": "application/json", "user-agent": USER_AGENT, ...signDelivery(secret, row.event_id, clock.now(), body) };
    // Too little of the lease left to finish within it (and record the result): another worker could take the
    // delivery over mid-request and send it a second time.
    if (clock.nowMs() + policy.timeoutMs + (policy.leaseMs - policy.timeoutMs) / 2 > row.leaseUntilMs) {
      await release(row);
      return "released";
    }
    try {
      const response = await outbound.request(new URL(row.url), { method: "POST", headers, body, httpsOnly: true, redirects: "same-origin" });
      if (response.status >= 200 && response.status < 300) return { ok: true, statusCode: response.status, error: null, retryAfterMs: null };
      const error =
        response.status >= 300 && response.status < 400
          ? `The receiver redirected (HTTP ${response.status}); redirects to another origin are not followed.`
          : `The receiver answered HTTP ${response.status}.`;
      return { ok: false, statusCode: response.status, error, retryAfterMs: parseRetryAfter(response.headers["retry-after"], clock.nowMs()) };
    } catch (error) {
      const message = error instanceof OutboundError ? error.message : "The request failed.";
      return { ok: false, statusCode: null, error: message, retryAfterMs: null };
    }
  }

  async function attempt(row: Claimed): Promise<void> {
    const outcome = await send(row);
    if (outcome === "released") {
      schedule(clock.nowMs());
      return;
    }
    const now = clock.now();
    let status: "delivered" | "pending" | "failed";
    let next = now;
    if (outcome.ok) status = "delivered";
    else if (row.attempts >= policy.maxAttempts) status = "failed";
    else {
      status = "pending";
      const wait = outcome.retryAfterMs !== null ? Math.min(outcome.retryAfterMs, policy.retryCapMs) : backoffMs(row.attempts, policy, random);
      next = new Date(now.getTime() + wait);
    }
    const recorded = (await db.execute(sql`
      update webhook_deliveries
      set status = ${status}, lease_token = null, lease_until = null, next_attempt_at = ${next.toISOString()}::timestamptz,
          last_status_code = ${outcome.statusCode}, last_error = ${outcome.error},
          delivered_at = ${outcome.ok ? now.toISOString() : null}::timestamptz
      where workspace_id = ${row.workspace_id} and id = ${row.id} and lease_token = ${row.lease_token}
      returning id`)) as unknown as { rows: unknown[] };
    if (recorded.rows.length === 0) log.warn({ delivery_id: row.id }, "webhook delivery lease lost before its result was recorded");
    deps.onAttempt?.(row.type, status === "pending" ? "retrying" : status);
    if (status === "pending") schedule(next.getTime());
  }

  function track(row: Claimed): void {
    const task = attempt(row)
      .catch((error: unknown) => log.warn({ err: error, delivery_id: row.id }, "webhook delivery attempt could not be recorded"))
      .finally(() => {
        inflight.delete(task);
        wake();
      });
    inflight.add(task);
  }

  async function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        while (running && inflight.size < CONCURRENCY) {
          const want = CONCURRENCY - inflight.size;
          const rows = await claim(want);
          for (const row of rows) track(row);
          if (rows.length < want) break;
        }
      } while (again && running);
    } catch (error) {
      log.warn({ err: error }, "webhook deliveries could not be claimed; retrying at the next poll");
    } finally {
      pumping = false;
    }
    if (running) schedule(clock.nowMs() + policy.pollMs);
  }

  /** Wakes the pump at `atMs` unless it is already due to wake earlier. */
  function schedule(atMs: number): void {
    if (!running || (timer && atMs >= timerAt)) return;
    clearTimeout(timer);
    timerAt = atMs;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerAt = Infinity;
        void pump();
      },
      Math.max(0, atMs - clock.nowMs()),
    );
    timer.unref();
  }

  function wake(): void {
    if (running) void pump();
  }

  return {
    start: async () => {
      running = true;
      // A null payload means notifications may have been missed: looking again is the remedy either way.
      unlisten = await database.listen(WEBHOOK_CHANNEL, () => wake());
      wake();
    },
    stop: async () => {
      running = false;
      clearTimeout(timer);
      timer = undefined;
      await unlisten?.().catch(() => {});
      // A claim under way still hands its rows to attempts; wait for those too (each ends within its time limit).
      while (pumping) await sleep(5);
      await Promise.allSettled([...inflight]);
    },
    wake,
    deliverNow: async (workspaceId, deliveryId) => {
      const [row] = await claim(1, { workspaceId, id: deliveryId });
      if (!row) return false;
      await attempt(row);
      return true;
    },
  };
}
