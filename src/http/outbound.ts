// The one way the service makes HTTP requests to addresses that callers chose (OpenAPI specs and the APIs
// they describe, MCP servers; later webhooks and agents). The address check sits in the connector, at the
// moment a socket is opened: literal IPs, every DNS answer and every redirect hop pass through it, and the
// socket goes to the very address that was checked (no second lookup an attacker's DNS could answer
// differently). Checking URLs before a request instead would miss redirects and DNS rebinding.
import { promises as dns } from "node:dns";
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { rootCertificates } from "node:tls";
import { Agent, buildConnector, fetch as undiciFetch, type Dispatcher } from "undici";
import { createAddressPolicy, type AddressPolicy } from "./address-policy.ts";

export type OutboundFailure = "address_not_allowed" | "scheme_not_allowed" | "timeout" | "too_large" | "redirect" | "network";

/** A failure of an outbound request; the message is safe to show (it names the origin, never a path or query). */
export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string,
  ) {
    super(message);
    this.name = "OutboundError";
  }
}

export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface OutboundOptions {
  allowHosts: string[];
  /** PEM file of extra trusted certificate authorities. */
  caFile?: string;
  timeoutMs: number;
  maxBytes: number;
  /** DNS resolution (tests point names at local servers); getaddrinfo, all answers, by default. */
  lookup?: LookupAll;
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * `follow` (default): up to five hops to any origin. `same-origin`: a redirect to another origin is
   * returned as the answer, so credentials sent to one origin never travel to another.
   */
  redirects?: "follow" | "same-origin";
  /**
   * Headers that carry a credential besides authorization, cookie and proxy-authorization (always treated
   * so): when a followed redirect leaves the first origin, they are dropped, never sent to the new origin.
   */
  credentialHeaders?: string[];
  /** Refuse http: for the request and every redirect. */
  httpsOnly?: boolean;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Where the answer came from, after redirects. */
  url: URL;
}

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface Outbound {
  /** One request: redirects followed (each hop re-checked), body read up to the size limit, all within the time limit. */
  request(url: URL, init?: OutboundRequest): Promise<OutboundResponse>;
  /**
   * fetch over the same guarded connections, for libraries that speak fetch (the MCP SDK); no overall
   * deadline (streams). Redirects within the first origin are followed; one to another origin is the answer.
   */
  fetch: FetchLike;
  /** Whether a host is on SVC_OUTBOUND_ALLOW_HOSTS. */
  allowListed(hostname: string): boolean;
  close(): Promise<void>;
}

const MAX_REDIRECTS = 5;

const defaultLookup: LookupAll = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** The OutboundError somewhere in an error's cause chain (libraries wrap what the connector threw). */
export function outboundFailureOf(error: unknown): OutboundError | undefined {
  for (let current = error, depth = 0; current && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof OutboundError) return current;
  }
  return undefined;
}

/** A message for any failure of a request to `origin`, without paths, queries or headers. */
function classify(error: unknown, origin: string, deadline: AbortSignal, timeoutMs: number): OutboundError {
  const known = outboundFailureOf(error);
  if (known) return known;
  if (deadline.aborted) return new OutboundError("timeout", `${origin} did not answer within ${timeoutMs} ms.`);
  const codes: string[] = [];
  for (let current = error, depth = 0; current && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
  }
  if (codes.some((c) => /TIMEOUT/.test(c))) return new OutboundError("timeout", `${origin} did not answer within ${timeoutMs} ms.`);
  if (codes.includes("ECONNREFUSED")) return new OutboundError("network", `${origin} refused the connection.`);
  if (codes.includes("ENOTFOUND") || codes.includes("EAI_AGAIN")) return new OutboundError("network", `${origin}: the host name could not be resolved.`);
  const tls = codes.find((c) => /CERT|SELF_SIGNED|ALTNAME|TLS|SSL/.test(c));
  if (tls) return new OutboundError("network", `${origin}: the TLS certificate was not accepted (${tls}).`);
  return new OutboundError("network", `${origin} could not be reached${codes[0] ? ` (${codes[0]})` : ""}.`);
}

async function readLimited(body: Dispatcher.ResponseData["body"], declared: string | string[] | undefined, maxBytes: number, origin: string): Promise<Buffer> {
  const tooLarge = () => {
    // Destroying the stream makes it emit an abort error nobody else listens for.
    body.on("error", () => {});
    body.destroy();
    return new OutboundError("too_large", `${origin} answered with more than ${maxBytes} bytes.`);
  };
  if (typeof declared === "string" && Number(declared) > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function createOutbound(options: OutboundOptions): Outbound {
  const { timeoutMs, maxBytes } = options;
  const policy: AddressPolicy = createAddressPolicy(options.allowHosts);
  const lookup = options.lookup ?? defaultLookup;

  /** Resolves a host and checks every answer; the address returned is the one the socket will use. */
  async function checkedAddress(hostname: string): Promise<string> {
    const literal = isIP(hostname) !== 0;
    let answers: string[];
    if (literal) {
      answers = [hostname];
    } else {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new OutboundError("timeout", `${hostname} could not be resolved within ${timeoutMs} ms.`)), timeoutMs);
      });
      try {
        answers = (await Promise.race([lookup(hostname), timeout])).map((a) => a.address);
      } catch (error) {
        if (error instanceof OutboundError) throw error;
        throw new OutboundError("network", `${hostname}: the host name could not be resolved.`);
      } finally {
        clearTimeout(timer);
      }
      if (answers.length === 0) throw new OutboundError("network", `${hostname}: the host name has no address.`);
    }
    // All answers, not just the first: a name that resolves to one public and one private address is refused.
    for (const address of answers) {
      const reason = policy.refuse(hostname, address);
      if (reason !== undefined) {
        throw new OutboundError(
          "address_not_allowed",
          `The address ${address}${literal ? "" : ` (of ${hostname})`} is not allowed (${reason}): outbound requests may not reach loopback, private, link-local or metadata addresses unless the host is on SVC_OUTBOUND_ALLOW_HOSTS.`,
        );
      }
    }
    return answers[0]!;
  }

  const ca = options.caFile ? [...rootCertificates, readFileSync(options.caFile, "utf8")] : undefined;
  const connectTo = buildConnector({ timeout: timeoutMs, ...(ca ? { ca } : {}) });
  // `host` stays the URL's host, so TLS still verifies the certificate against (and sends SNI for) the name.
  const connect: buildConnector.connector = (connectOptions, callback) => {
    checkedAddress(connectOptions.hostname).then(
      (address) => connectTo({ ...connectOptions, hostname: address }, callback),
      (error: Error) => callback(error, null),
    );
  };
  const agent = new Agent({ connect, keepAliveTimeout: 4_000, connections: 32 });

  function checkScheme(url: URL, httpsOnly: boolean | undefined): void {
    if (url.protocol === "https:" || (url.protocol === "http:" && !httpsOnly)) return;
    throw new OutboundError("scheme_not_allowed", `${url.protocol}//${url.host}: only ${httpsOnly ? "https" : "http and https"} URLs may be requested.`);
  }

  return {
    request: async (url, init = {}) => {
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
      let current = url;
      let method = (init.method ?? "GET").toUpperCase();
      let body = init.body;
      const headers: Record<string, string> = { "user-agent": "svc-outbound" };
      for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
      const credentialHeaders = new Set(["authorization", "cookie", "proxy-authorization", ...(init.credentialHeaders ?? []).map((h) => h.toLowerCase())]);
      for (let hop = 0; ; hop++) {
        checkScheme(current, init.httpsOnly);
        let response: Dispatcher.ResponseData;
        try {
          response = await agent.request({
            origin: current.origin,
            path: `${current.pathname}${current.search}`,
            method: method as Dispatcher.HttpMethod,
            headers,
            body,
            signal,
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
          });
        } catch (error) {
          throw classify(error, current.origin, deadline, timeoutMs);
        }
        const location = response.headers.location;
        if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === "string") {
          let next: URL;
          try {
            next = new URL(location, current);
          } catch {
            await response.body.dump();
            throw new OutboundError("redirect", `${current.origin} redirected to an invalid URL.`);
          }
          if (init.redirects !== "same-origin" || next.origin === current.origin) {
            await response.body.dump();
            if (hop >= MAX_REDIRECTS) throw new OutboundError("redirect", `${url.origin}: more than ${MAX_REDIRECTS} redirects.`);
            // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
            if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === "POST")) {
              method = "GET";
              body = undefined;
              delete headers["content-type"];
            }
            // A credential is for the origin it was given to: it does not travel on to another.
            if (next.origin !== url.origin) for (const name of credentialHeaders) delete headers[name];
            current = next;
            continue;
          }
        }
        try {
          const buffer = await readLimited(response.body, response.headers["content-length"], maxBytes, current.origin);
          return { status: response.statusCode, headers: response.headers, body: buffer, url: current };
        } catch (error) {
          throw classify(error, current.origin, deadline, timeoutMs);
        }
      }
    },

    // Redirects are followed here, within the first origin only: the caller's headers (an MCP server's sealed
    // ones carry its tokens) never go to another origin; a redirect elsewhere is handed back as the answer.
    fetch: (async (url: string | URL, init?: RequestInit) => {
      const first = new URL(String(url));
      let current = first;
      let method = (init?.method ?? "GET").toUpperCase();
      let body = init?.body;
      for (let hop = 0; ; hop++) {
        const response = (await undiciFetch(current, { ...(init as object), method, body, redirect: "manual", dispatcher: agent } as Parameters<typeof undiciFetch>[1])) as unknown as Response;
        const location = response.headers.get("location");
        if (response.status < 300 || response.status >= 400 || location === null || hop >= MAX_REDIRECTS) return response;
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          return response;
        }
        if (next.origin !== first.origin) return response;
        await response.body?.cancel().catch(() => {});
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
        }
        current = next;
      }
    }) as FetchLike,

    allowListed: (hostname) => policy.allowListed(hostname),

    close: () => agent.close(),
  };
}
