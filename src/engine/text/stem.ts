// Word normalisation for matching rule words to tool names and descriptions: "refunds" and `refund_payment`,
// "deletion" and `delete_record`, "deployments" and `deploy`. A light suffix stripper rather than a full
// Porter stemmer: it only has to map the forms of one word to the same key, and every key is produced by
// this same function on both sides, so over-stripping ("transfer" → "transf") is harmless.

// Irregular forms and close synonyms a compliance author uses for the same operation.
const SYNONYMS: Record<string, string> = {
  sent: "send",
  sending: "send",
  mail: "email",
  mails: "email",
  "e-mail": "email",
  "e-mails": "email",
  remove: "delete",
  removal: "delete",
  removes: "delete",
  removing: "delete",
  erase: "delete",
  destroy: "delete",
  purge: "delete",
  drop: "delete",
  wipe: "delete",
  reimburse: "refund",
  reimbursement: "refund",
  reimbursements: "refund",
  release: "deploy",
  releases: "deploy",
  rollout: "deploy",
  rollouts: "deploy",
  drive: "move",
  driving: "move",
  navigate: "move",
  navigation: "move",
  motion: "move",
  modify: "update",
  modification: "update",
  edit: "update",
  change: "update",
  changes: "update",
  write: "update",
  fetch: "get",
  read: "get",
  retrieve: "get",
  lookup: "get",
  list: "get",
  view: "get",
  insert: "create",
  add: "create",
  new: "create",
};

const cache = new Map<string, string>();

function strip(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  for (const suffix of ["ations", "ation", "ments", "ment", "ions", "ion", "ing", "ers", "er", "ed"]) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  // "stopped" → "stopp" → "stop"; "running" → "runn" → "run".
  if (w.length > 3 && w.at(-1) === w.at(-2) && !/[aeiouls]/.test(w.at(-1)!)) w = w.slice(0, -1);
  return w;
}

/** The matching key of one lower-case word. */
export function stem(word: string): string {
  const hit = cache.get(word);
  if (hit !== undefined) return hit;
  const base = SYNONYMS[word] ?? word;
  const result = strip(base);
  if (cache.size < 50_000) cache.set(word, result);
  return result;
}

/** Words of a tool name or a text: `refund_payment`, `refundPayment`, "Refund a payment." → refund, payment. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Stems of every word of a text, as a set. */
export function stemSet(text: string): Set<string> {
  const set = new Set<string>();
  for (const w of words(text)) set.add(stem(w));
  return set;
}
