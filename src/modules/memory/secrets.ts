// Recognises text that carries a secret, so it is refused from memory (searchable, shareable) and sent to
// credentials instead (the contract's caller rule 4). Patterns of well-known key formats plus assignments
// of a long value to a secret-sounding name.

const PATTERNS: { kind: string; pattern: RegExp }[] = [
  { kind: "private key", pattern: /-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: "API key of this service", pattern: /\bsk_svc_[0-9A-Za-z]{16,}/ },
  { kind: "Stripe key", pattern: /\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}/ },
  { kind: "OpenAI-style key", pattern: /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/ },
  { kind: "AWS access key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { kind: "GitHub token", pattern: /\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}/ },
  { kind: "GitLab token", pattern: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { kind: "Slack token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { kind: "Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: "Twilio key", pattern: /\bSK[0-9a-f]{32}\b/ },
  { kind: "JSON Web Token", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  { kind: "bearer token", pattern: /\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*/ },
  { kind: "URL with a password", pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:[^\s@/]{3,}@/i },
  {
    kind: "secret assignment",
    pattern: /\b(?:api[_-]?key|secret(?:[_-]?key)?|client[_-]?secret|password|passwd|pwd|access[_-]?token|auth[_-]?token|private[_-]?key)\b\s*(?:is|[:=])\s*["']?[^\s"']{8,}/i,
  },
];

/** The kind of secret found in the text, or undefined. */
export function findSecret(text: string): string | undefined {
  for (const { kind, pattern } of PATTERNS) if (pattern.test(text)) return kind;
  return undefined;
}

/** What masks a workspace's stored secret values (credentials/known-secrets.ts). */
export interface SecretValues {
  /** How many values it knows (0: nothing to look for). */
  readonly size: number;
  mask(text: string): string;
}

/**
 * The text with every secret-looking part, and every value equal to one of the workspace's stored secrets
 * (`known`), replaced by "[redacted]": the one masking for records that keep what was said (intent and
 * chat records, conversations).
 */
export function maskSecrets(text: string, known?: SecretValues): string {
  let out = known && known.size > 0 ? known.mask(text) : text;
  for (const mask of MASKS) out = out.replace(mask, "[redacted]");
  return out;
}

// The patterns as global ones, made once: a record masks every string it keeps (a global pattern is safe to
// share, as replace starts it at 0 and leaves it there).
const MASKS = PATTERNS.map(({ pattern }) => new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`));

/** A value as a record keeps it: every string in it masked as maskSecrets does. */
export function maskStrings(value: unknown, known?: SecretValues): unknown {
  if (typeof value === "string") return maskSecrets(value, known);
  if (Array.isArray(value)) return value.map((item) => maskStrings(item, known));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskStrings(v, known)]));
  return value;
}

/** Every string inside a value (content objects are searched whole, not only `text`); iterative, so any depth is safe. */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") out.push(item);
    else if (Array.isArray(item)) for (let i = item.length - 1; i >= 0; i--) stack.push(item[i]);
    else if (item && typeof item === "object") {
      const values = Object.values(item);
      for (let i = values.length - 1; i >= 0; i--) stack.push(values[i]);
    }
  }
  return out;
}
