// Argument filling: the values a conversation gives for a tool's parameters. Each user turn is read once
// into typed values (arguments/values.ts), each parameter has a signature from its schema
// (arguments/signature.ts), and values go to parameters by one global matching (arguments/assign.ts).
// Later turns win over earlier ones for the same parameter when they give a typed value or answer a
// question about it; a bare answer goes to the parameter the assistant just asked about. Nothing is
// guessed: a parameter no words give, or two values fit equally, stays missing and is asked for.
import { escapeRegExp } from "../language/tokens.ts";
import { conceptsOf, wordsOf } from "../language/lemmas.ts";
import { assignTurn } from "./arguments/assign.ts";
import { compilePattern, examplesOf, signaturesOf, type JsonSchema, type Signature } from "./arguments/signature.ts";
import { readTurn } from "./arguments/values.ts";
import { dateOrderOfCurrencies, dateOrderShown, type DateOrder } from "../language/dates.ts";

export type { JsonSchema };

export interface ExtractOptions {
  /** Parameters the assistant's last question asked for: a bare value in the answer goes to them. */
  asked?: string[];
  /** The clock dates without a year or relative to today are read against. */
  now?: Date;
  /** The last turn corrects the request ("actually, make it Thursday"): its values replace earlier ones. */
  correction?: boolean;
  /** How the workspace writes numeric dates, when its tools show it (dates.ts). */
  dateOrder?: DateOrder;
}

// Kinds whose values a later turn may replace only when it answers a question about them (and codes of a
// pattern that also accepts words): a loose name ("I'm the duty manager") must not overwrite the request's.
const LOOSE = new Set(["name", "text"]);
// A value that fits this well (a typed value of the parameter's kind) may correct any earlier one.
const FIRM = 2;

const orders = new WeakMap<readonly JsonSchema[], DateOrder | "unknown">();

/**
 * How a workspace writes numeric dates, from the money its tools deal in (a `fare_gbp`, a price "in
 * euros"): cached per list of schemas.
 */
export function dateOrderOf(schemas: readonly JsonSchema[]): DateOrder | undefined {
  let order = orders.get(schemas);
  if (order === undefined) {
    const currencies = schemas.flatMap((schema) => signaturesOf(schema).map((s) => s.currency).filter((c): c is string => c !== undefined));
    order = dateOrderOfCurrencies(currencies) ?? "unknown";
    orders.set(schemas, order);
  }
  return order === "unknown" ? undefined : order;
}

/** Arguments for a tool from the user's turns (oldest first). */
export function extractArguments(schema: JsonSchema, turns: string[], options: ExtractOptions = {}): Record<string, unknown> {
  const sigs = signaturesOf(schema);
  const now = options.now ?? new Date();
  const args: Record<string, unknown> = {};
  const scores = new Map<string, number>();
  let lastFound = 0;
  // The conversation's own unambiguous numeric dates show its order best; the workspace's comes next.
  const order = dateOrderShown(turns.join("\n")) ?? options.dateOrder;
  // A turn that amends itself ("£650 to Maya. Actually, make it £450") is read as the request and then its
  // correction, as if the correction were a turn of its own.
  const pieces = turns.flatMap((text, index) => amendedWithin(text).map((piece, at, all) => ({ text: piece, index, amends: at > 0, lastOfTurn: at === all.length - 1 })));
  pieces.forEach(({ text, index, amends, lastOfTurn }) => {
    const last = index === turns.length - 1 && lastOfTurn;
    const asked = new Set(last ? (options.asked ?? []) : []);
    const found = assignTurn(sigs, readTurn(text, now, order), asked);
    if (last) lastFound = found.size;
    for (const [key, { value, score }] of found) {
      const sig = sigs.find((s) => s.key === key)!;
      // A date of birth lies in the past: "today" or next week (the day of a visit, a start) is not one.
      if (bornOn(sig) && typeof value === "string" && value.slice(0, 10) >= now.toISOString().slice(0, 10)) continue;
      const loose = LOOSE.has(sig.kind) || (sig.pattern !== undefined && !sig.pattern.strict);
      // A later value replaces an earlier one when asked for, or when it fits at least as well ("make it
      // Thursday" for a date); a bare number ("ticket 12") does not replace an amount given in dollars.
      const firm = !loose && score >= Math.min(FIRM, scores.get(key) ?? 0);
      if (args[key] === undefined || asked.has(key) || firm || amends || (last && options.correction)) {
        args[key] = value;
        scores.set(key, score);
      }
    }
  });
  if (options.correction && turns.length > 1) correctWords(sigs, args, turns.at(-1)!, lastFound);
  return args;
}

// Where a turn turns to amend what it just said: a sentence (or a clause after a comma) opening with
// "actually", "make it", "scratch that", "on second thought", "no wait", "sorry, I meant".
const AMENDMENT = /(?:[.!?;]\s+|\n\s*|,\s+(?=actually\b)|\s+[-–—]\s+)(?=(?:actually|make (?:it|that)|scratch that|on second thoughts?|no,? wait|wait,? no|sorry,? (?:i meant|make it)|correction:)\b)/i;

/** A turn split where it amends itself; one piece when it does not. */
function amendedWithin(text: string): string[] {
  const at = text.search(AMENDMENT);
  if (at <= 0) return [text];
  return [text.slice(0, at), text.slice(at).replace(/^[\s,.!?;]+/, "")];
}

// Words a correction opens or closes with that are not the new value.
const CORRECTION_FRAME = /^(?:(?:actually|sorry|oops|no|wait|oh|hmm|um|ok|okay|i meant|i mean|make (?:it|that)|change (?:it|that) to|it'?s|it is|it should be|should be|that should be|scratch that)[\s,—–:-]*)+|(?:[\s,.!]*(?:instead|please|pls|thanks|sorry|my bad|my mistake))*[\s.!]*$/gi;

/**
 * A correction of a word-valued argument (a name, a title, a place, a note) that does not say which one:
 * "Amina, not Amira" replaces the argument whose value it names; a bare "actually make it Principal
 * Engineer" replaces the one word-valued argument the request gave, when it gave exactly one and the turn
 * held no typed value. Anything less clear is left as it was.
 */
function correctWords(sigs: Signature[], args: Record<string, unknown>, text: string, typedInTurn: number): void {
  const against = /^(.*?)(?:,\s*|\s+)(?:not|instead of|rather than)\s+(.+?)[.!]*$/i.exec(text.trim());
  if (against) {
    const [value, old] = [against[1]!.replace(CORRECTION_FRAME, "").trim(), against[2]!.replace(CORRECTION_FRAME, "").trim().toLowerCase()];
    const key = Object.keys(args).find((k) => typeof args[k] === "string" && (args[k] as string).toLowerCase() === old);
    if (key && value) {
      // Part of a name set against the same part ("Amina, not Amira") changes that part only.
      args[key] = (args[key] as string).replace(new RegExp(escapeRegExp(old), "i"), value);
      return;
    }
    const part = Object.keys(args).find((k) => LOOSE.has(sigs.find((s) => s.key === k)?.kind ?? "") && typeof args[k] === "string" && new RegExp(`\\b${escapeRegExp(old)}\\b`, "i").test(args[k] as string));
    if (part && value && value.split(/\s+/).length <= 3) {
      args[part] = (args[part] as string).replace(new RegExp(`\\b${escapeRegExp(old)}\\b`, "i"), value);
      return;
    }
  }
  if (typedInTurn > 0) return;
  const loose = Object.keys(args).filter((k) => LOOSE.has(sigs.find((s) => s.key === k)?.kind ?? ""));
  const value = text.trim().replace(CORRECTION_FRAME, "").trim();
  // "the other one", "that one", "same as before" point back; they are not the new value.
  if (loose.length === 1 && value && value.split(/\s+/).length <= 6 && !/[?]/.test(text) && !/\b(?:one|it|that|this|same|other|them|those|these)\b/i.test(value)) args[loose[0]!] = value;
}

const bornOn = (sig: Signature) => (sig.kind === "date" || sig.kind === "datetime") && ["birth", "born", "dob", "birthday", "birthdate"].some((w) => sig.keyWords.includes(w) || sig.label.has(w));

const QUESTION_KINDS: Record<string, Signature["kind"][]> = {
  much: ["money", "quantity", "number"],
  many: ["count", "number", "quantity"],
  long: ["quantity", "count"],
  when: ["date", "datetime"],
  date: ["date", "datetime"],
  day: ["date", "datetime"],
  time: ["datetime"],
};
const ID_WORDS = new Set(["id", "key", "code", "number", "no", "ref"]);

/**
 * Parameters the assistant's question asks about, read from its words when the conversation keeps no
 * record of what it asked: "How many replicas …?" → replicas; "how much …?" → the amount; "which date …?"
 * → the date parameter.
 */
export function askedParameters(schema: JsonSchema, question: string | undefined): string[] {
  // Only a question or a statement of need asks ("Which date?", "I only want the balance."); a refusal or a
  // report that names a parameter ("policy X forbids deleting a mailbox") does not.
  if (!question) return [];
  const asking = question.split(/(?<=[.!?])\s+/).filter((s) => s.includes("?") || /\b(?:need|needs|provide|missing|tell me|let me know)\b/i.test(s));
  if (asking.length === 0) return [];
  const words = wordsOf(asking.join(" "));
  const concepts = new Set(words.flatMap((w) => [...conceptsOf(w)]));
  const asked: string[] = [];
  for (const sig of signaturesOf(schema)) {
    const named = sig.keyWords.filter((w) => w.length > 2 && !ID_WORDS.has(w)).some((w) => concepts.has(w));
    const byKind = words.some((w, i) => (QUESTION_KINDS[w] ?? []).includes(sig.kind) && (w !== "much" && w !== "many" && w !== "long" ? true : words[i - 1] === "how"));
    if (named || (byKind && sig.required)) asked.push(sig.key);
  }
  return asked;
}

const SPEECH = /\b(?:saying|tell(?:ing)?\s+(?:them|him|her|everyone|the\s+\w+)|let\s+\w+\s+know|message:|that says)\b/i;

/** Free-text parameters the request writes out ("tell them …" → body, message; "subject: …" → subject). */
export function freeTextCues(text: string): Set<string> {
  const keys = new Set<string>();
  if (SPEECH.test(text)) for (const k of ["body", "message", "text", "content"]) keys.add(k);
  for (const m of text.matchAll(/\b([a-z]+)(?: line)?\s*:/gi)) keys.add(m[1]!.toLowerCase());
  return keys;
}

/**
 * Codes with the letters a parameter's examples start with ("HL-0107" for an example "HL-0042", "JB-9"
 * for "JB-118"): the kind of record the API documents the parameter as, though its schema has no pattern.
 * Undefined unless every example is such a code, with two letters or more before its digits.
 */
export function examplePrefixPattern(schema: JsonSchema): RegExp | undefined {
  if (typeof schema.pattern === "string" || Array.isArray(schema.enum)) return undefined;
  const examples = examplesOf(schema);
  const prefixes = examples.map((e) => /^([A-Za-z]{2,})([-/.]?)\d[A-Za-z0-9./-]*$/.exec(e));
  if (prefixes.length === 0 || prefixes.some((p) => !p)) return undefined;
  const alternatives = [...new Set(prefixes.map((p) => `${p![1]!.toUpperCase()}${p![2] ? `\\${p![2]}` : ""}`))];
  return new RegExp(`(?<![A-Za-z0-9])(?:${alternatives.join("|")})\\d[A-Za-z0-9./-]*(?![A-Za-z0-9])`, "i");
}

/** A parameter pattern that only accepts codes (`^ORD-[0-9]+$`, `^[A-Z]{2}$`), not ordinary words. */
export function strictPattern(schema: JsonSchema): RegExp | undefined {
  if (typeof schema.pattern !== "string") return undefined;
  const pattern = compilePattern(schema.pattern);
  if (!pattern?.strict) return undefined;
  // Codes of two capital letters ("US", "IT") are words too often to pick a tool by.
  if (["US", "IT", "OK"].some((w) => pattern.whole.test(w))) return undefined;
  return new RegExp(pattern.find.source);
}
