// Envelope encryption for credentials. Each workspace has a 32-byte data key, stored wrapped (AES-256-GCM)
// by the master key; secrets are sealed with AES-256-GCM under the workspace's data key, with additional
// authenticated data that binds a ciphertext to its workspace and record, so a sealed value copied to
// another row or workspace does not open. Unwrapped data keys live only in this process's memory.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/index.ts";
import { workspaceDataKeys } from "../../db/schema.ts";

const IV_BYTES = 12;
const TAG_BYTES = 16;

function seal(key: Buffer, plaintext: Buffer, aad: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

function open(key: Buffer, sealed: string, aad: string): Buffer {
  const raw = Buffer.from(sealed, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}

/**
 * The master key: SVC_MASTER_KEY, else (embedded database only) a key generated once in the data directory
 * (mode 0600), else, for a throw-away in-memory database, a key that lives as long as the process.
 */
export function resolveMasterKey(config: Config, log: FastifyBaseLogger): Buffer {
  if (config.masterKey) return config.masterKey;
  if (config.dataDir === ":memory:") {
    log.warn("no SVC_MASTER_KEY: credentials are encrypted under a key that lives only as long as this in-memory database");
    return randomBytes(32);
  }
  const file = path.resolve(config.dataDir, "master.key");
  if (fs.existsSync(file)) {
    const key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return key;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  fs.writeFileSync(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  log.warn({ file }, "generated a master key for credentials (SVC_MASTER_KEY unset); back it up: without it stored credentials cannot be decrypted");
  return key;
}

export interface Vault {
  seal(workspaceId: string, recordId: string, plaintext: Buffer): Promise<string>;
  open(workspaceId: string, recordId: string, sealed: string): Promise<Buffer>;
}

export function createVault(deps: { db: Db; masterKey: Buffer }): Vault {
  const { db, masterKey } = deps;
  const masterKeyId = createHash("sha256").update(masterKey).digest("hex").slice(0, 16);
  const dataKeys = new Map<string, Buffer>();

  async function dataKey(workspaceId: string): Promise<Buffer> {
    const cached = dataKeys.get(workspaceId);
    if (cached) return cached;
    const fresh = randomBytes(32);
    // Whoever inserts first wins; everyone then reads the stored key.
    await db
      .insert(workspaceDataKeys)
      .values({ workspaceId, wrappedKey: seal(masterKey, fresh, `dek:${workspaceId}`), masterKeyId })
      .onConflictDoNothing();
    const [row] = await db.select().from(workspaceDataKeys).where(eq(workspaceDataKeys.workspaceId, workspaceId));
    if (!row) throw new Error("workspace data key missing after insert");
    const key = open(masterKey, row.wrappedKey, `dek:${workspaceId}`);
    dataKeys.set(workspaceId, key);
    return key;
  }

  return {
    seal: async (workspaceId, recordId, plaintext) => seal(await dataKey(workspaceId), plaintext, `${workspaceId}:${recordId}`),
    open: async (workspaceId, recordId, sealed) => open(await dataKey(workspaceId), sealed, `${workspaceId}:${recordId}`),
  };
}
