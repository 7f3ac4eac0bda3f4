// The `svc` command: serve the API, or administer workspaces and keys directly on the database.
import { parseArgs } from "node:util";
import pino from "pino";
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig, type Config } from "./config.ts";
import { openDb, type Database } from "./db/index.ts";
import { DataDirLockedError } from "./db/lock.ts";
import { toWire as keyToWire } from "./modules/api-keys/schemas.ts";
import { createApiKeyService } from "./modules/api-keys/service.ts";
import { createWorkspaceService, type WorkspaceService } from "./modules/workspaces/service.ts";
import { randomIds } from "./ids.ts";
import { systemClock } from "./clock.ts";
import { errSerializer } from "./db/log.ts";

const USAGE = `Usage: svc <command>

  serve                                   serve the API (first start on an empty database prints a key)
  init [--name NAME]                      create a workspace and print its first API key
  keys create [--workspace ID] [--name NAME]
  keys list   [--workspace ID] [--all]    --all includes revoked keys
  keys rotate [--workspace ID] KEY_ID
  keys revoke [--workspace ID] KEY_ID

--workspace may be left out when the database holds exactly one workspace.
Configuration comes from the environment (see README): SVC_PORT, SVC_HOST, SVC_DATA_DIR, DATABASE_URL, …`;

class UsageError extends Error {}

function out(line = ""): void {
  process.stdout.write(`${line}\n`);
}

function describeDb(config: Config): string {
  return config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : config.dataDir === ":memory:" ? "embedded, in memory" : `embedded at ${config.dataDir}`;
}

function printKey(config: Config, workspace: { id: string; name: string }, plaintext: string): void {
  out("");
  out(`  Workspace ${workspace.name} (${workspace.id})`);
  out(`  API key (shown once, store it now): ${plaintext}`);
  out("");
  out(`  Try it:`);
  out(`    curl -H "Authorization: Bearer ${plaintext}" ${config.publicUrl}/api/v1/svc/health`);
  out("");
}

async function serve(config: Config): Promise<void> {
  const logger = pino({ level: config.logLevel, redact: ["req.headers.authorization", "*.plaintext", "*.key_data"], serializers: { err: errSerializer } });
  const database = await openDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onListenError: (error) => logger.warn({ err: error }, "database notification connection lost; reconnecting"),
  });
  const { app, services } = await buildApp({ config, database, logger });

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    try {
      await app.close();
    } finally {
      await database.close();
    }
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info({ database: describeDb(config), port }, "ready");
  out(`svc listening on http://${config.host}:${port} (database: ${describeDb(config)})`);

  if (await services.workspaces.isEmpty()) {
    const workspace = await services.workspaces.create("default");
    const { plaintext } = await services.apiKeys.create(workspace.id, "bootstrap");
    out("  First start on an empty database: created a workspace and its first API key.");
    printKey(config, workspace, plaintext);
  }
}

async function resolveWorkspace(workspaces: WorkspaceService, given: string | undefined): Promise<string> {
  if (given) return (await workspaces.get(given)).id;
  const { rows, total } = await workspaces.list(2, 0);
  if (total === 1) return rows[0]!.id;
  throw new UsageError(total === 0 ? "No workspace yet: run `svc init` first." : "Several workspaces exist: pass --workspace ID.");
}

async function admin(config: Config, command: string, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { name: { type: "string" }, workspace: { type: "string" }, all: { type: "boolean" } },
  });
  let database: Database | undefined;
  try {
    database = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    const deps = { database, ids: randomIds, clock: systemClock };
    const workspaces = createWorkspaceService(deps);
    const apiKeys = createApiKeyService(deps);
    if (command === "init") {
      const workspace = await workspaces.create(values.name ?? "default");
      const { plaintext } = await apiKeys.create(workspace.id, "initial");
      printKey(config, workspace, plaintext);
      return;
    }
    const sub = positionals[0];
    const workspaceId = await resolveWorkspace(workspaces, values.workspace);
    if (sub === "create") {
      const { row, plaintext } = await apiKeys.create(workspaceId, values.name ?? "cli");
      out(`${row.id}  ${plaintext}`);
      out("The key is shown once; store it now.");
    } else if (sub === "list") {
      for (const row of await apiKeys.list(workspaceId, values.all ?? false)) {
        const key = keyToWire(row);
        out(`${key.id}  ${key.status.padEnd(8)}  ${key.created_at}  ${key.name}`);
      }
    } else if (sub === "rotate" || sub === "revoke") {
      const keyId = positionals[1];
      if (!keyId) throw new UsageError(`svc keys ${sub} needs a KEY_ID.`);
      if (sub === "rotate") {
        const { row, plaintext } = await apiKeys.rotate(workspaceId, keyId);
        out(`${row.id}  ${plaintext}  (rotated from ${keyId}; the old key now fails with auth_rotating)`);
      } else {
        await apiKeys.revoke(workspaceId, keyId);
        out(`${keyId} revoked`);
      }
    } else {
      throw new UsageError(`Unknown keys command: ${sub ?? "(none)"}`);
    }
  } finally {
    await database?.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help" || command === "-h") {
    out(USAGE);
    return command ? 0 : 2;
  }
  try {
    const config = loadConfig();
    if (command === "serve") {
      await serve(config);
      return -1;
    }
    if (command === "init") await admin(config, "init", rest);
    else if (command === "keys") await admin(config, "keys", rest);
    else throw new UsageError(`Unknown command: ${command}`);
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      return 2;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof DataDirLockedError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    const message = (error as { code?: string; message?: string }).code
      ? `${(error as { code: string }).code}: ${(error as Error).message}`
      : (error as Error).message;
    process.stderr.write(`svc: ${message}\n`);
    return 1;
  }
}
