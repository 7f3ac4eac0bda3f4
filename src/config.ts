// Environment → typed, validated configuration. Every variable the service reads is declared here, once,
// with its default and its check; the README's configuration table is this list in prose.
import { readFileSync } from "node:fs";
import { isIP } from "node:net";

export interface Config {
  port: number;
  host: string;
  /** Directory of the embedded database, or ":memory:" for a throw-away one. */
  dataDir: string;
  /** A PostgreSQL URL; when set the embedded database is not used. */
  databaseUrl: string | undefined;
  /**
   * Wraps every workspace's credential data key (32 bytes). Required with DATABASE_URL (every process must
   * share it); on the embedded database one is generated in the data directory when unset.
   */
  masterKey: Buffer | undefined;
  /** Operator credential (Bearer) for workspace administration; unset means no operator. */
  adminToken: string | undefined;
  /** Base of every absolute URL the service prints (doc_url, curl lines). */
  publicUrl: string;
  /** False when publicUrl was derived from host and port (it then follows the port actually bound). */
  publicUrlFromEnv: boolean;
  rateLimitPerKey: number;
  rateLimitPerWorkspace: number;
  /** Failed authentications allowed per client address per minute before 429. */
  authFailureLimit: number;
  /** When set, rate limits live in Redis (shared by every process). */
  redisUrl: string | undefined;
  bodyLimitBytes: number;
  /** Honour X-Forwarded-For when the service runs behind a proxy or load balancer. */
  trustProxy: boolean;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /**
   * Hosts (names, IP addresses, CIDR ranges) that outbound requests (OpenAPI specs and tools, MCP servers)
   * may reach although they are loopback or private. Empty by default: such addresses are refused.
   */
  outboundAllowHosts: string[];
  /** A PEM file of extra certificate authorities trusted by outbound TLS (besides the system's). */
  outboundCaFile: string | undefined;
  /** Time limit of one outbound request, connection and body included. */
  outboundTimeoutMs: number;
  /** Largest outbound response body read (a spec, a tool's answer). */
  outboundMaxBytes: number;
  /** An MCP session unused this long is closed (it reopens on the next call). */
  mcpIdleMs: number;
  /** Retries of a step's tool call after a transient failure (timeout, 429, 5xx, transport error). */
  executionRetries: number;
  /** First retry delay; it doubles on each further retry. */
  executionRetryBaseMs: number;
  /** Longest wait a Retry-After header may impose before a retry. */
  executionRetryAfterCapMs: number;
  /** Interval of `: ping` comments on event streams (at most 15 s: clients give up after 30 s of silence). */
  ssePingMs: number;
  /**
   * An OpenAI-compatible model provider (`…/v1`); unset: the embedded deterministic planner decides alone.
   * Operator configuration: called directly, not through the outbound SSRF guard.
   */
  modelBaseUrl: string | undefined;
  /** Sent as `Authorization: Bearer …` to the provider. A secret: never logged, never answered. */
  modelApiKey: string | undefined;
  modelName: string;
  /** Time limit of one call to the provider. */
  modelTimeoutMs: number;
  /** When the provider cannot be reached: `none` answers 503 routing_unavailable, `embedded` decides without it. */
  modelFallback: "none" | "embedded";
  /** Off: no request is counted or timed and /infra/metrics does not exist (SVC_METRICS=false). */
  metricsEnabled: boolean;
  /** When set, GET /infra/metrics needs `Authorization: Bearer <this>`; unset, the scrape is open. */
  metricsToken: string | undefined;
  /** OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT); traces are exported only when this or the next is set. */
  otelEndpoint: string | undefined;
  /** The full OTLP/HTTP traces URL (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); wins over otelEndpoint. */
  otelTracesEndpoint: string | undefined;
  /** The `service.name` of the spans (OTEL_SERVICE_NAME). */
  otelServiceName: string;
  /** Time limit of one webhook delivery attempt (connection, request and answer). */
  webhookTimeoutMs: number;
  /** Attempts of one delivery before it is marked `failed` (a redelivery starts a new count). */
  webhookMaxAttempts: number;
  /** Delay before the second attempt; it doubles on each further attempt, with jitter, up to the cap. */
  webhookRetryBaseMs: number;
  /** Longest delay between attempts, Retry-After included. */
  webhookRetryCapMs: number;
  /** How long a worker holds a delivery it claimed; must exceed the timeout (another worker takes it over after). */
  webhookLeaseMs: number;
  /** How often the delivery worker looks for due deliveries when no notification woke it. */
  webhookPollMs: number;
  /** Whether this process runs the delivery worker (`false`: another process sends). */
  webhookWorker: boolean;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, "is not a valid URL");
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.map((p) => `${p}//`).join(" or ")}`);
  }
  return raw;
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** Comma-separated host names, IP addresses and CIDR ranges; each checked, returned lower case. */
function hostList(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  return raw
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== "")
    .map((entry) => {
      const bare = entry.replace(/^\[(.*)\]$/, "$1");
      const [address, prefix, extra] = bare.split("/");
      if (extra === undefined && prefix !== undefined) {
        const family = isIP(address!);
        const max = family === 4 ? 32 : 128;
        if (family !== 0 && /^\d{1,3}$/.test(prefix) && Number(prefix) <= max) return `${address}/${Number(prefix)}`;
        throw new ConfigError(name, `"${entry}" is not a valid CIDR range (address/prefix)`);
      }
      if (isIP(bare) !== 0 || HOSTNAME.test(bare.replace(/\.$/, ""))) return bare.replace(/\.$/, "");
      throw new ConfigError(name, `"${entry}" is neither a host name, an IP address nor a CIDR range`);
    });
}

function pemFile(env: Env, name: string): string | undefined {
  const file = read(env, name);
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(name, `cannot read ${file}: ${(error as Error).message}`);
  }
  if (!text.includes("-----BEGIN CERTIFICATE-----")) throw new ConfigError(name, `${file} holds no PEM certificate`);
  return file;
}

function masterKey(env: Env, databaseUrl: string | undefined): Buffer | undefined {
  const raw = read(env, "SVC_MASTER_KEY");
  if (raw === undefined) {
    if (databaseUrl) {
      throw new ConfigError(
        "SVC_MASTER_KEY",
        "is required with DATABASE_URL (every process must share it): 32 random bytes as base64 or hex, e.g. `openssl rand -base64 32`",
      );
    }
    return undefined;
  }
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return Buffer.from(raw, "hex");
  if (/^[A-Za-z0-9+/]{43}=?$/.test(raw)) return Buffer.from(raw, "base64");
  throw new ConfigError("SVC_MASTER_KEY", "must be 32 bytes, as 64 hex characters or base64 (44 characters)");
}

function modelBaseUrl(env: Env): string | undefined {
  const value = url(env, "SVC_MODEL_BASE_URL", ["http:", "https:"]);
  if (value === undefined) return undefined;
  const parsed = new URL(value);
  if (parsed.username || parsed.password) throw new ConfigError("SVC_MODEL_BASE_URL", "must not hold credentials (set SVC_MODEL_API_KEY instead)");
  if (parsed.search || parsed.hash) throw new ConfigError("SVC_MODEL_BASE_URL", "must not have a query or fragment (e.g. https://api.openai.com/v1)");
  return value.replace(/\/+$/, "");
}

function metricsToken(env: Env): string | undefined {
  const token = read(env, "SVC_METRICS_TOKEN");
  if (token !== undefined && token.length < 16) throw new ConfigError("SVC_METRICS_TOKEN", "must be at least 16 characters long");
  return token;
}

const MODEL_FALLBACKS = ["none", "embedded"] as const;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, "SVC_PORT", 8787, 0, 65535);
  const host = read(env, "SVC_HOST") ?? "127.0.0.1";
  const adminToken = read(env, "SVC_ADMIN_TOKEN");
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError("SVC_ADMIN_TOKEN", "must be at least 16 characters long");
  }
  if (adminToken?.startsWith("sk_svc_")) {
    throw new ConfigError("SVC_ADMIN_TOKEN", "must not look like an API key (sk_svc_…)");
  }
  const publicUrl = url(env, "SVC_PUBLIC_URL", ["http:", "https:"]);
  const logLevel = read(env, "SVC_LOG_LEVEL") ?? "info";
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError("SVC_LOG_LEVEL", `must be one of ${LOG_LEVELS.join(", ")}`);
  }
  const displayHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  const databaseUrl = url(env, "DATABASE_URL", ["postgres:", "postgresql:"]);
  const modelFallback = read(env, "SVC_MODEL_FALLBACK") ?? "none";
  if (!(MODEL_FALLBACKS as readonly string[]).includes(modelFallback)) {
    throw new ConfigError("SVC_MODEL_FALLBACK", `must be one of ${MODEL_FALLBACKS.join(", ")}`);
  }
  const modelName = read(env, "SVC_MODEL_NAME") ?? "gpt-4o-mini";
  if (modelName.length > 200) throw new ConfigError("SVC_MODEL_NAME", "must be at most 200 characters");
  return {
    port,
    host,
    dataDir: read(env, "SVC_DATA_DIR") ?? "./.svc-data",
    databaseUrl,
    masterKey: masterKey(env, databaseUrl),
    adminToken,
    publicUrl: (publicUrl ?? `http://${displayHost}:${port}`).replace(/\/+$/, ""),
    publicUrlFromEnv: publicUrl !== undefined,
    rateLimitPerKey: integer(env, "SVC_RATE_LIMIT_PER_KEY", 600, 1, 10_000_000),
    rateLimitPerWorkspace: integer(env, "SVC_RATE_LIMIT_PER_WORKSPACE", 3000, 1, 100_000_000),
    authFailureLimit: integer(env, "SVC_AUTH_FAILURE_LIMIT", 30, 1, 10_000_000),
    redisUrl: url(env, "SVC_REDIS_URL", ["redis:", "rediss:"]),
    bodyLimitBytes: integer(env, "SVC_BODY_LIMIT_BYTES", 1024 * 1024, 1024, 100 * 1024 * 1024),
    trustProxy: boolean(env, "SVC_TRUST_PROXY", false),
    logLevel: logLevel as Config["logLevel"],
    outboundAllowHosts: hostList(env, "SVC_OUTBOUND_ALLOW_HOSTS"),
    outboundCaFile: pemFile(env, "SVC_OUTBOUND_CA_FILE"),
    outboundTimeoutMs: integer(env, "SVC_OUTBOUND_TIMEOUT_MS", 10_000, 100, 300_000),
    outboundMaxBytes: integer(env, "SVC_OUTBOUND_MAX_BYTES", 2 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    mcpIdleMs: integer(env, "SVC_MCP_IDLE_MS", 5 * 60_000, 100, 24 * 60 * 60_000),
    executionRetries: integer(env, "SVC_EXECUTION_RETRIES", 3, 0, 10),
    executionRetryBaseMs: integer(env, "SVC_EXECUTION_RETRY_BASE_MS", 200, 1, 60_000),
    executionRetryAfterCapMs: integer(env, "SVC_EXECUTION_RETRY_AFTER_CAP_MS", 10_000, 0, 300_000),
    ssePingMs: integer(env, "SVC_SSE_PING_MS", 15_000, 10, 15_000),
    modelBaseUrl: modelBaseUrl(env),
    modelApiKey: read(env, "SVC_MODEL_API_KEY"),
    modelName,
    modelTimeoutMs: integer(env, "SVC_MODEL_TIMEOUT_MS", 15_000, 100, 600_000),
    modelFallback: modelFallback as Config["modelFallback"],
    metricsEnabled: boolean(env, "SVC_METRICS", true),
    metricsToken: metricsToken(env),
    otelEndpoint: url(env, "OTEL_EXPORTER_OTLP_ENDPOINT", ["http:", "https:"]),
    otelTracesEndpoint: url(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", ["http:", "https:"]),
    otelServiceName: read(env, "OTEL_SERVICE_NAME") ?? "svc",
    ...webhookConfig(env),
  };
}

function webhookConfig(env: Env): Pick<Config, "webhookTimeoutMs" | "webhookMaxAttempts" | "webhookRetryBaseMs" | "webhookRetryCapMs" | "webhookLeaseMs" | "webhookPollMs" | "webhookWorker"> {
  const webhookTimeoutMs = integer(env, "SVC_WEBHOOK_TIMEOUT_MS", 10_000, 100, 120_000);
  const webhookLeaseMs = integer(env, "SVC_WEBHOOK_LEASE_MS", 60_000, 1_000, 3_600_000);
  // A lease shorter than an attempt would let a second worker send while the first still waits for an answer.
  if (webhookLeaseMs <= webhookTimeoutMs) throw new ConfigError("SVC_WEBHOOK_LEASE_MS", "must be longer than SVC_WEBHOOK_TIMEOUT_MS");
  return {
    webhookTimeoutMs,
    webhookMaxAttempts: integer(env, "SVC_WEBHOOK_MAX_ATTEMPTS", 8, 1, 50),
    webhookRetryBaseMs: integer(env, "SVC_WEBHOOK_RETRY_BASE_MS", 30_000, 1, 3_600_000),
    webhookRetryCapMs: integer(env, "SVC_WEBHOOK_RETRY_CAP_MS", 3_600_000, 1, 86_400_000),
    webhookLeaseMs,
    webhookPollMs: integer(env, "SVC_WEBHOOK_POLL_MS", 5_000, 10, 600_000),
    webhookWorker: boolean(env, "SVC_WEBHOOK_WORKER", true),
  };
}
