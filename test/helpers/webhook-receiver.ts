// A real HTTPS webhook receiver for tests: each path is a receiver whose behaviour a test sets (answer,
// delay, headers, or hang), and every request it gets is kept (headers and the exact raw body).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestCertificate } from "./tls.ts";

/**
 * One certificate for every webhook test file. Files run in parallel on one PostgreSQL, and any file's
 * delivery worker may claim any file's deliveries (as processes of one deployment do), so every worker must
 * trust every receiver. Made once (atomically: the first file to rename its directory into place wins).
 */
export function sharedWebhookCertificate(): TestCertificate {
  const dir = path.join(tmpdir(), "svc-webhook-tests-tls-v2");
  const fresh = existsSync(path.join(dir, "cert.pem")) && Date.now() - statSync(path.join(dir, "cert.pem")).mtimeMs < 24 * 3600_000;
  if (!fresh) {
    const work = mkdtempSync(path.join(tmpdir(), "svc-webhook-tls-"));
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", path.join(work, "key.pem"), "-out", path.join(work, "cert.pem"), "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,DNS:tools.test,IP:127.0.0.1,IP:127.0.0.2,IP:::1"],
      { stdio: "ignore" },
    );
    rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(work, dir);
    } catch {
      rmSync(work, { recursive: true, force: true }); // another file won the race: use its certificate
    }
  }
  return { certFile: path.join(dir, "cert.pem"), cert: readFileSync(path.join(dir, "cert.pem"), "utf8"), key: readFileSync(path.join(dir, "key.pem"), "utf8") };
}

/** The delivery settings of every in-process test server (the same in every file, since workers share deliveries). */
export function webhookTestEnv(certFile: string): Record<string, string> {
  return {
    SVC_OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
    SVC_OUTBOUND_CA_FILE: certFile,
    SVC_WEBHOOK_WORKER: "true",
    // Generous for a loaded machine (the whole suite runs files in parallel on two cores).
    SVC_WEBHOOK_TIMEOUT_MS: "2500",
    SVC_WEBHOOK_LEASE_MS: "8000",
    SVC_WEBHOOK_RETRY_BASE_MS: "100",
    SVC_WEBHOOK_RETRY_CAP_MS: "3000",
    SVC_WEBHOOK_POLL_MS: "250",
    SVC_WEBHOOK_MAX_ATTEMPTS: "4",
  };
}

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** What the receiver does with its n-th request (0-based); default 200. */
export type Behaviour = (n: number) => { status?: number; headers?: Record<string, string>; delayMs?: number; hang?: boolean };

export interface Receiver {
  /** The receiver's base, e.g. https://127.0.0.1:PORT */
  origin: string;
  url(name: string): string;
  behave(name: string, behaviour: Behaviour): void;
  received(name: string): Received[];
  /** Resolves once `name` has received `count` requests (fails after `withinMs`). */
  waitFor(name: string, count: number, withinMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(tls: TestCertificate): Promise<Receiver> {
  const behaviours = new Map<string, Behaviour>();
  const seen = new Map<string, Received[]>();
  const server: Server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const name = (req.url ?? "/").replace(/^\/r\//, "").split("?")[0]!;
      const list = seen.get(name) ?? [];
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(req.headers)) if (typeof value === "string") headers[key] = value;
      list.push({ headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      seen.set(name, list);
      const behaviour: Behaviour = behaviours.get(name) ?? (() => ({}));
      const plan = behaviour(list.length - 1);
      if (plan.hang) return;
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(plan.status ?? 200, { "content-type": "application/json", ...plan.headers }).end('{"ok":true}');
      };
      if (plan.delayMs) setTimeout(answer, plan.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (name) => `${origin}/r/${name}`,
    behave: (name, behaviour) => void behaviours.set(name, behaviour),
    received: (name) => seen.get(name) ?? [],
    waitFor: async (name, count, withinMs = 30_000) => {
      const started = Date.now();
      while ((seen.get(name)?.length ?? 0) < count) {
        if (Date.now() - started > withinMs) throw new Error(`receiver ${name} got ${seen.get(name)?.length ?? 0} of ${count} requests within ${withinMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return seen.get(name)!;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
