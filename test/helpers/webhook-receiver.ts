// A real HTTPS webhook receiver for tests: each path is a receiver whose behaviour a test sets (answer,
// delay, headers, or hang), and every request it gets is kept (headers and the exact raw body).
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { TestCertificate } from "./tls.ts";

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
