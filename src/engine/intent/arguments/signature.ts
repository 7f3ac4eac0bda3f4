// A parameter's signature: what kind of value it takes and the words that name it, read once from its JSON
// Schema (type, format, pattern, enum, bounds) and from its key and description (a unit or currency such as
// `load_kg`, `price_eur`, "in metres per second", "in percent"). Values found in a turn are matched to
// signatures (assign.ts); nothing here knows any particular tool.
import { conceptsOf, wordsOf } from "../../language/lemmas.ts";
import { currencyOfWord, escapeRegExp } from "../../language/tokens.ts";
import { quantity, unitOfName, type Quantity } from "../../language/units.ts";

export type JsonSchema = Record<string, unknown>;

export type SlotKind =
  | "code"
  | "email"
  | "emails"
  | "date"
  | "datetime"
  | "enum"
  | "boolean"
  | "money"
  | "percent"
  | "fraction"
  | "quantity"
  | "count"
  | "number"
  | "version"
  | "path"
  | "uri"
  | "name"
  | "text"
  | "identifier";

/** Where a value of a pair of parameters goes ("from DK2 to NO1", "starting … until …"). */
export type Role = "source" | "target" | "start" | "end";

export interface EnumForm {
  value: string | number;
  /** The value's words as concept sets, in order ("premium_economy" → premium, economy). */
  words: string[];
  /** Other names the description gives it ("OSL1 Oslo, BGO2 Bergen" → oslo for OSL1). */
  aliases: string[][];
  /**
   * What the description says of the value, by the words no other value's clause shares ("card_refund
   * sends it back to the card that paid; cheque is mailed" → send, back, card, paid).
   */
  gloss: string[];
  /** Two-word phrases of that clause no other value's clause has ("by post", "next day"). */
  phrases: string[][];
}

// Words that say nothing of which value is meant.
const GLOSS_STOP = new Set(["it", "its", "is", "are", "be", "the", "a", "an", "to", "of", "or", "and", "on", "in", "at", "by", "for", "from", "with", "that", "this", "which", "as", "use", "used", "when", "if", "their", "they", "them", "one", "any", "all"]);

/**
 * Whether the mention of `value` at `at` lies inside another value's definition ("dart = remote injection by
 * dart": "injection" there is part of what dart is, neither a clause nor a name of its own).
 */
function insideDefinition(values: (string | number)[], description: string, value: string | number, at: number): boolean {
  for (const other of values) {
    if (other === value) continue;
    const defined = new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(String(other))}\\s*=([^;.]*)`, "g");
    for (const m of description.matchAll(defined)) if (at > m.index && at <= m.index + m[0].length) return true;
  }
  return false;
}


/** Each value's clause of the description (from its name to the next separator or value), as distinctive words. */
function glossesOf(values: (string | number)[], description: string): Map<string | number, { gloss: string[]; phrases: string[][] }> {
  const out = new Map<string | number, { gloss: string[]; phrases: string[][] }>();
  if (!description || values.length < 2) return out;
  // Where each value is first named: its clause starts after the name and ends where another value is named.
  const at = new Map<string | number, number>();
  const named = new Map<string | number, number>();
  for (const value of values) {
    const m = new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(String(value))}(?![A-Za-z0-9_])`).exec(description);
    if (m && !insideDefinition(values, description, value, m.index + m[0].length)) {
      at.set(value, m.index + m[0].length);
      named.set(value, m.index);
    }
  }
  const sentenceEnd = (start: number) => {
    const end = description.slice(start).search(/[;.]\s|[;.]$/);
    return end < 0 ? description.length : start + end;
  };
  const clauses = new Map<string | number, string[]>();
  const all = new Map<string | number, string[]>();
  for (const [value, start] of at) {
    let end = sentenceEnd(start);
    for (const other of named.values()) if (other >= start && other < end) end = other;
    all.set(value, wordsOf(description.slice(start, end)));
    // The clause's first word is its verb ("pays", "sends"), which says what every value does; a clause
    // after "=" ("tid = three times a day") is a definition, all of it gloss.
    const words = all.get(value)!;
    const defined = /^\s*=/.test(description.slice(start, end));
    clauses.set(value, (defined ? words : words.slice(1)).filter((w) => w.length > 2 && !GLOSS_STOP.has(w)));
  }
  // Articles aside: "in a group" and "in group" are one phrase.
  const bigrams = (all: string[]) => {
    const words = all.filter((w) => !ARTICLES.has(w));
    return words.slice(1).map((w, i) => [words[i]!, w]);
  };
  // A word is a value's own when no other value's clause has it in any form ("sail" and "sails").
  const formsOf = (w: string) => [...conceptsOf(w)].filter((c) => !c.startsWith(":"));
  for (const [value, words] of clauses) {
    const others = new Set([...all].filter(([v]) => v !== value).flatMap(([, w]) => w.flatMap(formsOf)));
    const own = [...new Set(words.filter((w) => !formsOf(w).some((f) => others.has(f))))];
    // A phrase names the value when it holds a word of its own and no other clause has it: "sent by
    // post" is read from "send it by post", where one word alone would not be enough.
    const otherPairs = new Set([...all].filter(([v]) => v !== value).flatMap(([, w]) => bigrams(w).map((p) => p.join(" "))));
    const phrases = bigrams(all.get(value)!).filter((p) => p.some((w) => own.includes(w)) && !otherPairs.has(p.join(" ")));
    if (own.length >= 2 || phrases.length > 0) out.set(value, { gloss: own.length >= 2 ? own : [], phrases });
  }
  return out;
}

export const ARTICLES: ReadonlySet<string> = new Set(["a", "an", "the"]);

/**
 * Names a description gives enum values: the words after each value up to the next value or separator
 * ("Depot: OSL1 Oslo, BGO2 Bergen", "B (Band B)", "fr = French").
 */
function aliasesOf(values: (string | number)[], description: string): Map<string | number, string[][]> {
  const out = codeNames(values);
  if (!description) return out;
  for (const value of values) {
    const v = String(value);
    if (v.length === 0) continue;
    const at = new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(v)}(?![A-Za-z0-9_])\\s*(?:[=:(–—-]\\s*)?([A-Za-z][A-Za-z .'-]{1,40}?)\\)?\\s*(?:[,;.)]|$|\\s(?:and|or)\\s)`).exec(description);
    const alias = at?.[1]?.trim();
    if (!alias || values.some((o) => String(o).toLowerCase() === alias.toLowerCase()) || insideDefinition(values, description, value, at!.index + 1)) continue;
    const words = wordsOf(alias);
    if (words.length > 0 && words.length <= 4) out.set(value, [...(out.get(value) ?? []), words]);
  }
  // "calcium_hydroxide = slaked lime / hydrated lime": a definition that gives names one after another,
  // each a name of the value.
  for (const value of values) {
    const defined = new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(String(value))}\\s*=\\s*([^;.]*)`).exec(description);
    const parts = defined?.[1]?.split(/\s*\/\s*|\s+or\s+/) ?? [];
    if (parts.length < 2) continue;
    for (const part of parts) {
      const words = wordsOf(part);
      const known = (out.get(value) ?? []).some((a) => a.join(" ") === words.join(" "));
      if (words.length > 0 && words.length <= 3 && !known && !values.some((o) => String(o).toLowerCase() === part.trim().toLowerCase())) out.set(value, [...(out.get(value) ?? []), words]);
    }
  }
  return out;
}

/**
 * A list of two-letter codes (`[us, uk, de, fr]`, `[RU, BY, KP]`) is a list of countries or languages: each
 * code is also named by its country and its language in English, as ICU (Intl.DisplayNames) writes them
 * ("French" → fr, "North Korea" → KP). A name two codes of the list share is left out.
 */
function codeNames(values: (string | number)[]): Map<string | number, string[][]> {
  const out = new Map<string | number, string[][]>();
  if (values.length === 0 || !values.every((v) => typeof v === "string" && /^[A-Za-z]{2}$/.test(v))) return out;
  const regions = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  const languages = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
  const named = (read: () => string | undefined) => {
    try {
      return read();
    } catch {
      return undefined;
    }
  };
  const names = new Map<string, (string | number)[]>();
  for (const value of values) {
    const code = String(value);
    for (const name of [named(() => regions.of(code.toUpperCase())), named(() => languages.of(code.toLowerCase()))]) {
      if (!name || name.toLowerCase() === code.toLowerCase() || /[^A-Za-z .'-]/.test(name)) continue;
      names.set(name, [...new Set([...(names.get(name) ?? []), value])]);
    }
  }
  for (const [name, codes] of names) if (codes.length === 1) out.set(codes[0]!, [...(out.get(codes[0]!) ?? []), wordsOf(name)]);
  return out;
}

export interface Signature {
  key: string;
  required: boolean;
  kind: SlotKind;
  type: string | undefined;
  /** For codes: the pattern anywhere in a text, and the whole-value test. */
  pattern?: { find: RegExp; whole: RegExp; upperCase: boolean; strict: boolean };
  /** The schema's own pattern, as written (`^ST-[0-9]{2}$`). */
  patternSource?: string;
  enumForms?: EnumForm[];
  /** Currency codes when the enum is one of currencies (`currency: [USD, EUR, GBP]`). */
  currencyEnum?: boolean;
  /** The schema's default, when it is one of the enum's values: what the API takes when the call leaves it out. */
  enumDefault?: string | number;
  min?: number;
  max?: number;
  /** The schema's unit for quantities (js-quantities name) and its dimension. */
  unit?: Quantity;
  /** ISO currency the amount is in, when the key or description says (`price_eur`, "in EUR"). */
  currency?: string;
  /** Amounts in minor units (`amount_cents`). */
  minor?: boolean;
  /** Concepts of the words that name the parameter: its key's words and its description's content words. */
  label: Set<string>;
  /** The label's concepts no other parameter of the tool has ("first" for start_date, not "day"). */
  distinct: Set<string>;
  /** Its key's words (lower case). */
  keyWords: string[];
  roles: Role[];
  example?: string;
  /** Every example the schema gives (`example` is the first). */
  examples?: string[];
  maxLength?: number;
  itemKind?: SlotKind;
  /** For a list of codes: the pattern each item matches (`^BLK-[0-9]{2}$`). */
  itemPattern?: RegExp;
  /** Decimal places a converted quantity keeps: the schema's multipleOf, or its description ("rounded to one decimal place"). */
  decimals?: number;
}

const PLACES: Record<string, number> = { one: 1, two: 2, three: 3, "1": 1, "2": 2, "3": 3 };

/** The precision a numeric parameter asks for, when its schema or description states one. */
function decimalsOf(s: JsonSchema, description: string): number | undefined {
  if (typeof s.multipleOf === "number" && s.multipleOf > 0 && s.multipleOf <= 1) return Math.max(0, Math.round(-Math.log10(s.multipleOf)));
  const places = /\b(?:rounded|round|to)\s+(?:to\s+)?(one|two|three|[123])\s+decimal(?:\s+places?)?/i.exec(description);
  if (places) return PLACES[places[1]!.toLowerCase()];
  if (/\b(?:nearest whole|whole (?:number|kilograms?|kg|units?|days?|hours?|minutes?)|rounded to (?:the nearest )?(?:integer|whole))/i.test(description)) return 0;
  return undefined;
}

// Nouns whose numbers are sums of money. A parameter named so is an amount even with no currency stated.
const MONEY_NOUNS = new Set(["amount", "price", "cost", "fee", "fare", "salary", "wage", "pay", "payment", "bonus", "budget", "balance", "total", "refund", "credit", "revenue", "spend", "sum", "compensation", "deposit", "payout", "tip", "rate", "value", "charge", "premium", "income", "limit"]);
// Names of minor currency units in keys (`amount_cents`, `fine_pence`): the amount is in hundredths, and
// for pence the currency is the pound's.
const MINOR_UNITS: Record<string, string | null> = { minor: null, cents: null, cent: null, pence: "GBP", pennies: "GBP", penny: "GBP", centimes: null, paise: "INR", kopecks: "RUB" };

// Head nouns of proper names: people, organisations, places, venues.
const NAME_NOUNS = new Set(["name", "company", "organisation", "organization", "employer", "city", "town", "location", "merchant", "vendor", "supplier", "hotel", "venue", "place", "country", "region", "site", "account"]);
// Head nouns of free text written in sentences.
const TEXT_NOUNS = new Set(["summary", "body", "reason", "description", "note", "notes", "message", "subject", "comment", "comments", "details", "text", "content", "memo", "title", "instructions", "notice", "caption", "justification", "explanation", "headline", "question", "answer", "feedback", "purpose"]);
const ID_NOUNS = new Set(["id", "key", "code", "number", "no", "ref", "reference", "slug", "handle", "sku", "uuid"]);
// Words that say which of two parameters a value goes to.
const ROLE_WORDS: Record<string, Role> = { from: "source", source: "source", origin: "source", to: "target", destination: "target", target: "target", dest: "target", start: "start", begin: "start", starts: "start", earliest: "start", end: "end", until: "end", finish: "end", ends: "end", latest: "end", last: "end", first: "start", check: "start" };
// Description words that carry no meaning of their own.
const FILLER = new Set(["a", "an", "the", "of", "in", "on", "for", "to", "or", "and", "by", "with", "as", "is", "e", "g", "eg", "e.g", "iso", "yyyy", "mm", "dd", "if", "omitted", "default", "this", "that", "its", "be", "will", "it", "at", "from", "which", "one", "none"]);

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== "null") : (schema.type as string | undefined);
}

/** The pattern as a finder and a whole-value test, or undefined when it does not compile. */
export function compilePattern(source: string): Signature["pattern"] | undefined {
  const body = source.replace(/^\^/, "").replace(/\$$/, "");
  try {
    const whole = new RegExp(`^(?:${body})$`);
    return {
      // A pattern that also accepts ordinary words ("the", "deploy") is loose: only code-shaped tokens count.
      strict: !["the", "order", "deploy", "a1", "ok"].some((w) => whole.test(w)),
      find: new RegExp(`(?<![A-Za-z0-9_.-])(?:${body})(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`, "g"),
      whole,
      upperCase: /[A-Z]/.test(body) && !/[a-z]/.test(body.replace(/\\[a-z]/g, "")),
    };
  } catch {
    return undefined;
  }
}

/**
 * A schema without a pattern whose examples are all codes ("e.g. HL-0042", "e.g. JB-2026-00417"): the
 * codes of their shape, which is how the API's own documentation says its values look. Runs of letters
 * and digits may vary in length (a part number "TR-77" for an example "KB-410"); a value with the
 * example's own prefix scores higher where codes are read. Examples that are words ("e.g. oak, ash")
 * give none.
 */
function patternOfExamples(examples: string[]): Signature["pattern"] | undefined {
  const codes = examples.filter((e) => /^[A-Za-z0-9][A-Za-z0-9./-]*[A-Za-z0-9]$/.test(e) && /\d/.test(e) && /[A-Za-z]/.test(e));
  if (codes.length === 0 || codes.length !== examples.length) return undefined;
  const shapes = codes.map((code) =>
    code.replace(/[A-Za-z]+|\d+|[./-]/g, (run) => {
      if (/\d/.test(run)) return `\\d{${Math.max(1, run.length - 2)},${run.length + 2}}`;
      if (/[./-]/.test(run)) return `\\${run}`;
      return `[A-Z]{${Math.max(1, run.length - 1)},${run.length + 1}}`;
    }),
  );
  return compilePattern([...new Set(shapes)].join("|"));
}

/** "Maximum speed in metres per second" → m/s; "Load in kilograms" → kg; "in percent" is not a unit. */
function unitOfDescription(description: string): Quantity | undefined {
  const m = /\bin\s+([a-z°/]+(?:\s+(?:per|an|a)\s+[a-z]+)?)\b/i.exec(description);
  if (!m) return undefined;
  const phrase = m[1]!.toLowerCase();
  const per = /^(\S+)\s+(?:per|an|a)\s+(\S+)$/.exec(phrase);
  if (per) {
    const top = quantity(1, per[1]!);
    const bottom = quantity(1, per[2]!.replace(/s$/, ""));
    return top && bottom ? quantity(1, `${top.unit}/${bottom.unit}`) : undefined;
  }
  const q = quantity(1, phrase);
  return q && q.kind !== "unitless" ? q : undefined;
}

function currencyOfDescription(description: string): string | undefined {
  for (const m of description.matchAll(/\b(?:in|of)\s+([A-Za-z]{3})\b/g)) {
    const code = m[1]!;
    if (code === code.toUpperCase()) {
      const c = currencyOfWord(code);
      if (c) return c;
    }
  }
  return undefined;
}

function labelOf(key: string, description: string): Set<string> {
  const out = new Set<string>();
  const words = [...wordsOf(key), ...wordsOf(description.split(/\be\.g\./i)[0] ?? "")];
  for (const w of words) {
    if (w.length < 2 || FILLER.has(w) || /^\d+$/.test(w)) continue;
    for (const c of conceptsOf(w)) if (!c.startsWith(":")) out.add(c);
  }
  // A place is what "where" asks for: "where: Level 3 slab" in a form.
  if (wordsOf(key).some((w) => PLACE_WORDS.has(w))) out.add("where");
  return out;
}

export const PLACE_WORDS = new Set(["location", "place", "site", "address", "venue", "area", "locale", "position"]);

/** The schema's examples: its `example`, its `examples`, and the values after "e.g." in its description ("e.g. BA2490 or U28147"). */
export function examplesOf(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (typeof schema.example === "string") out.push(schema.example);
  if (Array.isArray(schema.examples)) for (const e of schema.examples) if (typeof e === "string") out.push(e);
  const m = typeof schema.description === "string" ? /\be\.g\.,?\s+([^\s,;]+?)[.,;]?(?:\s|$)((?:(?:or|,)\s*[^\s,;]+?[.,;]?(?:\s|$))*)/.exec(schema.description) : null;
  if (m) out.push(m[1]!, ...(m[2] ?? "").split(/\s*(?:\bor\b|,)\s*/).map((x) => x.replace(/[.,;]+$/, "").trim()).filter(Boolean));
  return out;
}

function numericKind(keyWords: string[], description: string, schema: JsonSchema, unit: Quantity | undefined, currency: string | undefined): SlotKind {
  const words = [...keyWords, ...wordsOf(description)];
  const max = typeof schema.maximum === "number" ? schema.maximum : undefined;
  // The key's own word first: `insured_value_eur` is money even when its description mentions "plus 10%".
  const keyMoney = currency !== undefined && keyWords.some((w) => currencyOfWord(w) !== undefined);
  if (!keyMoney && (keyWords.some((w) => w === "percent" || w === "pct" || w === "percentage") || (!unit && (words.some((w) => w === "percent" || w === "percentage") || description.includes("%"))))) return max !== undefined && max <= 1 ? "fraction" : "percent";
  if (unit) return "quantity";
  if (currency || keyWords.some((w) => MINOR_UNITS[w] !== undefined) || /\bmajor units\b|\bcurrency\b/i.test(description)) return "money";
  if (keyWords.some((w) => MONEY_NOUNS.has(w)) && !keyWords.some((w) => ["count", "number", "num", "qty", "quantity"].includes(w))) return "money";
  if (max !== undefined && max <= 1 && (schema.minimum === 0 || schema.minimum === undefined) && typeOf(schema) === "number") return "fraction";
  return typeOf(schema) === "integer" ? "count" : "number";
}

function kindOf(keyWords: string[], schema: JsonSchema, description: string, unit: Quantity | undefined, currency: string | undefined): SlotKind {
  const type = typeOf(schema);
  const head = keyWords.at(-1) ?? "";
  if (typeof schema.pattern === "string") return "code";
  if (schema.format === "email") return "email";
  if (type === "array") return "emails";
  if (schema.format === "date") return "date";
  if (schema.format === "date-time") return "datetime";
  if (Array.isArray(schema.enum)) return "enum";
  if (type === "boolean") return "boolean";
  if (type === "number" || type === "integer") return numericKind(keyWords, description, schema, unit, currency);
  if (schema.format === "uri" || schema.format === "url" || head === "url" || head === "uri") return "uri";
  if (head === "version") return "version";
  if (["path", "file", "filename", "filepath", "dir", "directory", "folder"].includes(head)) return "path";
  if (ID_NOUNS.has(head) && keyWords.length > 1) return "identifier";
  // `keeper_tag`, "Tag number of the keeper on shift": the description's first phrase says what the
  // value is, an identifier.
  const described = wordsOf(description.split(/[,;:(]|\s(?:of|for|from|that|which|used|e\.g\.)\s/i)[0] ?? "").at(-1);
  if (type === "string" && described !== undefined && ID_NOUNS.has(described) && !NAME_NOUNS.has(head)) return "identifier";
  if (keyWords.some((w) => NAME_NOUNS.has(w)) && !keyWords.some((w) => TEXT_NOUNS.has(w))) return "name";
  // A job title, a position, a role: a short name of a thing, not a sentence.
  if (["title", "position", "role"].includes(head) && !(typeof schema.maxLength === "number" && schema.maxLength >= 200)) return "name";
  if (TEXT_NOUNS.has(head) || (typeof schema.maxLength === "number" && schema.maxLength >= 200)) return "text";
  return keyWords.length === 1 && ID_NOUNS.has(head) ? "identifier" : "name";
}

const cache = new WeakMap<JsonSchema, Signature[]>();

/** The signatures of a tool's parameters (cached per schema object: a workspace's tools change rarely). */
export function signaturesOf(schema: JsonSchema): Signature[] {
  const hit = cache.get(schema);
  if (hit) return hit;
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out = Object.entries(props).map(([key, s]) => signatureOf(key, s, required.has(key)));
  for (const sig of out) for (const c of sig.label) if (!out.some((o) => o !== sig && o.label.has(c))) sig.distinct.add(c);
  cache.set(schema, out);
  return out;
}

function signatureOf(key: string, s: JsonSchema, required: boolean): Signature {
  const keyWords = wordsOf(key);
  const description = typeof s.description === "string" ? s.description : "";
  const keyCurrency = keyWords.length > 1 ? keyWords.map((w) => (w.length === 3 ? currencyOfWord(w) : undefined)).find(Boolean) : undefined;
  // (`amount_minor`, or "in minor units of the currency" said by its description: hundredths too.)
  const minorWord = keyWords.find((w) => MINOR_UNITS[w] !== undefined) ?? (keyWords.some((w) => MONEY_NOUNS.has(w)) && (keyWords.includes("minor") || /\bminor\s+(?:currency\s+)?units?\b/i.test(description)) ? "minor" : undefined);
  const currency = keyCurrency ?? (minorWord ? (MINOR_UNITS[minorWord] ?? undefined) : undefined) ?? currencyOfDescription(description);
  // (Where the key's abbreviation and the description's words name units of different kinds, `wind_ms` and
  // "in metres per second", the words say which: "ms" is also milliseconds.)
  const keyUnit = minorWord || currency ? undefined : unitOfName(keyWords);
  const describedUnit = minorWord || currency ? undefined : unitOfDescription(description);
  // (Only a rate spelt out in words, "in metres per second", over a key's abbreviation of two letters:
  // "kwh" of "in kilowatt-hours" and the "c" of "in degrees Celsius" say the same as their words.)
  const spelledRate = describedUnit !== undefined && describedUnit.unit.includes("/") && (keyWords.at(-1) ?? "").length <= 2;
  const unit = keyUnit && spelledRate && keyUnit.kind !== describedUnit.kind ? describedUnit : (keyUnit ?? describedUnit);
  const unitWord = keyWords.at(-1) ?? "";
  const usableUnit = unit && unit.kind !== "unitless" && !(keyWords.length === 1 && unit.kind === "length" && unitWord.length === 1) ? unit : undefined;
  const kind = kindOf(keyWords, s, description, usableUnit, currency);
  const examples = examplesOf(s);
  const sig: Signature = {
    key,
    required,
    kind,
    type: typeOf(s),
    label: labelOf(key, description),
    distinct: new Set(),
    keyWords,
    roles: [...new Set(keyWords.map((w) => ROLE_WORDS[w]).filter((r): r is Role => r !== undefined))],
  };
  if (typeof s.pattern === "string") {
    sig.pattern = compilePattern(s.pattern);
    sig.patternSource = s.pattern;
  }
  else if ((kind === "identifier" || kind === "name") && examples.length > 0) sig.pattern = patternOfExamples(examples);
  if (Array.isArray(s.enum)) {
    const values = (s.enum as unknown[]).filter((v): v is string | number => typeof v === "string" || typeof v === "number");
    const aliases = aliasesOf(values, description);
    const glosses = glossesOf(values, description);
    sig.enumForms = values.map((value) => ({ value, words: wordsOf(String(value)), aliases: aliases.get(value) ?? [], gloss: glosses.get(value)?.gloss ?? [], phrases: glosses.get(value)?.phrases ?? [] }));
    sig.currencyEnum = values.length > 0 && values.every((v) => typeof v === "string" && v.length === 3 && currencyOfWord(v) === v);
    if ((typeof s.default === "string" || typeof s.default === "number") && values.includes(s.default)) sig.enumDefault = s.default;
  }
  if (typeof s.minimum === "number") sig.min = s.minimum;
  if (typeof s.exclusiveMinimum === "number") sig.min = s.exclusiveMinimum;
  if (typeof s.maximum === "number") sig.max = s.maximum;
  if (typeof s.exclusiveMaximum === "number") sig.max = s.exclusiveMaximum;
  if ((kind === "quantity" || kind === "enum") && usableUnit) sig.unit = usableUnit;
  const decimals = decimalsOf(s, description);
  if (decimals !== undefined) sig.decimals = decimals;
  if (kind === "money") {
    if (currency) sig.currency = currency;
    if (minorWord) sig.minor = true;
  }
  if (examples.length > 0) {
    sig.example = examples[0];
    sig.examples = examples;
  }
  if (typeof s.maxLength === "number") sig.maxLength = s.maxLength;
  if (kind === "emails") {
    const items = (s.items ?? {}) as JsonSchema;
    sig.itemKind = items.format === "email" ? "email" : typeof items.pattern === "string" ? "code" : "name";
    if (typeof items.pattern === "string") {
      try {
        sig.itemPattern = new RegExp(items.pattern);
      } catch {
        // A pattern JavaScript cannot read: the list is then filled only by what is said of it.
      }
    }
  }
  return sig;
}

const TRANSPARENT = new Set(["is", "are", "was", "were", "be", "will", "the", "a", "an", "should", "would"]);

/**
 * How strongly the words around a value name the parameter: 1 for a word of its own label next to it (0.5
 * for a label word other parameters share), half that anywhere in its clause, else 0.
 */
/** The value is named after it: "X is the start date", "X as the role", "X for the type". */
const namedAfter = (right: string[]) => ["is", "as", "for", "are", "was"].includes(right[0] ?? "") && right[1] === "the";

export function cueScore(sig: Signature, left: string[], right: string[], near?: { left: number; right: number }): number {
  const weight = (w: string) => {
    let best = 0;
    for (const c of conceptsOf(w)) {
      if (sig.distinct.has(c)) return 1;
      if (sig.label.has(c)) best = 0.5;
    }
    return best;
  };
  // A value named after it ("2027-09-06 is the start date", "editor as the role") takes its label from
  // the right: the words on its left are the label of the item before it in the list.
  // A copula or an article between a label and its value ("last working day is 2027-06-30") is no distance.
  // Past a comma the words label the list's next item ("rent £950, deposit £1,200"): they count as far.
  const within = (words: string[], limit: number, commaAt = Infinity) => words.map((w, i) => ({ w, near: i < commaAt })).filter((x) => !TRANSPARENT.has(x.w)).map((x, i) => ({ w: x.w, near: x.near && i < limit }));
  const l = namedAfter(right) ? [] : within(left, 3, near?.left);
  const r = within(right, 2, near?.right);
  let best = 0;
  for (const { w, near: close } of [...l, ...r]) best = Math.max(best, close ? weight(w) : weight(w) / 2);
  return best;
}

// Words right before a value that give it a role.
const ROLE_CUES: Record<Role, string[]> = {
  source: ["from", "out", "leaving", "departing", "origin"],
  target: ["to", "into", "towards", "toward", "destination", "for"],
  start: ["from", "starting", "start", "starts", "beginning", "begins", "effective", "on", "since", "as"],
  end: ["to", "until", "till", "through", "thru", "ending", "ends", "by", "before"],
};
export const OPPOSITE: Record<Role, Role> = { source: "target", target: "source", start: "end", end: "start" };

/**
 * +1 when the value's role fits the parameter's (a range's own end, else the word before the value: "from
 * OSL"), −1 when it is the opposite one. Only roles the tool has in pairs count (`paired`).
 */
export function roleScore(sig: Signature, paired: Set<Role>, left: string[], implied?: Role, right: string[] = []): number {
  let score = 0;
  for (const role of sig.roles) {
    if (!paired.has(OPPOSITE[role])) {
      // A start with no end beside it ("start_time" and "7 till 10 pm"): the range's start, not its end.
      if (implied !== undefined && (role === "start" || role === "end")) score += implied === role ? 0.5 : implied === OPPOSITE[role] ? -0.5 : 0;
      continue;
    }
    const lead = left[0] === "the" || left[0] === "a" ? left[1] : left[0];
    // A noun of the role in a label before or after the value ("destination warehouse: LEJ2", "RTM1 —
    // source warehouse"), when no preposition right before it says the role.
    const near = namedAfter(right) ? right.slice(0, 3) : [...left.slice(0, 3), ...right.slice(0, 3)];
    const noun = lead && !namedAfter(right) && (ROLE_CUES[role].includes(lead) || ROLE_CUES[OPPOSITE[role]].includes(lead)) ? undefined : near.find((w) => ROLE_NOUNS[role].includes(w) || ROLE_NOUNS[OPPOSITE[role]].includes(w));
    if (implied !== undefined) score += implied === role ? 1 : implied === OPPOSITE[role] ? -1 : 0;
    else if (noun && namedAfter(right)) score += ROLE_NOUNS[role].includes(noun) ? 1 : -1;
    else if (lead && ROLE_CUES[role].includes(lead)) score += 1;
    else if (lead && ROLE_CUES[OPPOSITE[role]].includes(lead)) score -= 1;
    else if (noun) score += ROLE_NOUNS[role].includes(noun) ? 1 : -1;
  }
  return score;
}

// Nouns that name a role in a label, wherever the label stands.
const ROLE_NOUNS: Record<Role, string[]> = { source: ["source", "origin"], target: ["destination", "target"], start: ["start"], end: ["end"] };
