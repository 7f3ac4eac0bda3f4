// Argument filling: the values a conversation gives for a tool's parameters, read from the user's turns
// with the tool's JSON Schema as the guide (enums, patterns, formats, types and the parameters' names).
// Later turns win over earlier ones for the same parameter; a bare answer ("4 pls") goes to the parameter
// the assistant just asked about. Nothing is guessed: a parameter no words give stays missing.
import { stem, words } from "../text/stem.ts";
import { currencyOfWord } from "../language/tokens.ts";

export type JsonSchema = Record<string, unknown>;

interface Property {
  key: string;
  schema: JsonSchema;
  type: string | undefined;
  /** Stems of the key's words: `customer_email` → custom, email. */
  stems: string[];
  /** The key's noun for ids and keys: `ticket_id` → ticket, `flag_key` → flag. */
  noun: string | undefined;
}

const NUMBER_WORDS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, hundred: 100,
};
// Values written the way people say them, for enum values the schema spells out.
const ENUM_SYNONYMS: Record<string, string[]> = {
  production: ["prod", "prd", "live"],
  staging: ["stage", "stg"],
  development: ["dev"],
  blue_green: ["blue-green", "bluegreen", "blue green"],
  not_received: ["never arrived", "never received", "didn't arrive", "did not arrive", "not arrived", "lost"],
  requested_by_customer: ["customer asked", "customer request", "customer requested"],
  fraudulent: ["fraud"],
  duplicate: ["charged twice", "double charge", "duplicate"],
  urgent: ["asap", "critical", "emergency"],
};
const ID_SUFFIXES = ["id", "key", "code", "number", "no", "ref", "reference", "name", "slug", "handle"];
const AMOUNT_WORDS = new Set(["amount", "price", "total", "cost", "fee", "valu", "budget", "salary", "credit", "sum", "balanc", "pay", "payment", "spend", "limit"].map((w) => stem(w)));
const PERCENT_WORDS = new Set(["percent", "pct", "percentag", "rate", "off", "discount", "rollout", "share"].map((w) => stem(w)));
const DURATION_UNITS: Record<string, number> = { second: 1 / 60, sec: 1 / 60, minute: 1, min: 1, hour: 60, hr: 60, h: 60, day: 1440, week: 10080 };
const FREE_TEXT_KEYS: Record<string, RegExp[]> = {
  subject: [
    /\bsubject(?: line)?(?: of| as|:)?\s+["'“‘]([^"'”’]+)["'”’]/i,
    /\bsubject(?: line)?:\s*([^.;\n]+)/i,
    /\btitled\s+["'“‘]([^"'”’]+)["'”’]/i,
    // "File a bug: the login page hangs": what follows the colon of a request for a record.
    /^(?:please\s+)?(?:open|create|file|raise|log|add)\b[^:]{0,80}\bticket\b[^:]{0,60}:\s*(.{5,200}?)[.!]?$/i,
  ],
  title: [/\btitle(?:d)?(?: of| as|:)?\s+["'“‘]([^"'”’]+)["'”’]/i, /\bcalled\s+["'“‘]([^"'”’]+)["'”’]/i],
  body: [
    /\b(?:tell|telling|let)\s+(?:them|him|her|the customer|the team|everyone)\s+(?:know\s+)?(?:that\s+)?(.+?)[.!]?$/i,
    /\bsaying\s+(?:that\s+)?(.+?)[.!]?$/i,
    /\bmessage:\s*(.+)$/i,
    // "Email x@y.test that ticket 77 needs a look, subject '…'": what follows "that" after the recipient.
    /^(?:please\s+)?(?:e-?mail|write to|message|notify)\s+\S+@\S+\s+that\s+(.+?)(?=,?\s+(?:with\s+)?subject\b|[.!]?$)/i,
  ],
  message: [/\b(?:tell|telling|let)\s+(?:them|him|her|the customer|the team|everyone)\s+(?:know\s+)?(?:that\s+)?(.+?)[.!]?$/i, /\bsaying\s+(?:that\s+)?(.+?)[.!]?$/i, /\bmessage:\s*(.+)$/i],
  note: [/\bnote:\s*(.+)$/i, /\bwith (?:the )?note\s+["'“‘]([^"'”’]+)["'”’]/i],
  memo: [/\bmemo:\s*(.+)$/i, /\bmemo\s+["'“‘]([^"'”’]+)["'”’]/i, /\bfor\s+(last week's [^.]+|this week's [^.]+)/i],
  description: [/\bdescription:\s*(.+)$/i],
  reason: [/\breason:\s*(.+)$/i, /\bbecause\s+(.+?)[.!]?$/i],
  full_name: [/\b(?:for|to|named|called|hire|hiring|welcome)\s+((?:[A-Z][a-z'-]+)(?:\s+[A-Z][a-z'-]+)+)/],
  candidate_name: [/\b(?:for|to|named|called|candidate)\s+((?:[A-Z][a-z'-]+)(?:\s+[A-Z][a-z'-]+)+)/],
  employee_name: [/\b(?:for|to|named|called)\s+((?:[A-Z][a-z'-]+)(?:\s+[A-Z][a-z'-]+)+)/],
  name: [/\b(?:named|called)\s+["'“‘]?([^"'”’,.]+)/i],
  position: [/\b(?:for|as)(?:\s+an?|\s+the)?\s+((?:[A-Z][\w/&-]*)(?:\s+[A-Z][\w/&-]*){0,4})(?=[,.;]|\s+(?:role|position|at|in|on|with|starting|from)\b|$)/],
  job_title: [/\b(?:as)(?:\s+an?|\s+the)?\s+((?:[A-Z][\w/&-]*)(?:\s+[A-Z][\w/&-]*){0,4})(?=[,.;]|\s|$)/],
};

// Country names people write, for ISO 3166 alpha-2 parameters (`^[A-Z]{2}$`, `destination_country`).
const COUNTRIES: Record<string, string> = {
  germany: "DE", france: "FR", spain: "ES", italy: "IT", netherlands: "NL", holland: "NL", belgium: "BE", austria: "AT", switzerland: "CH", poland: "PL",
  portugal: "PT", ireland: "IE", denmark: "DK", sweden: "SE", norway: "NO", finland: "FI", czechia: "CZ", "czech republic": "CZ", hungary: "HU", greece: "GR",
  romania: "RO", bulgaria: "BG", croatia: "HR", slovakia: "SK", slovenia: "SI", luxembourg: "LU", estonia: "EE", latvia: "LV", lithuania: "LT",
  "united kingdom": "GB", uk: "GB", britain: "GB", "great britain": "GB", england: "GB", "united states": "US", usa: "US", america: "US", canada: "CA", mexico: "MX",
  brazil: "BR", argentina: "AR", chile: "CL", colombia: "CO", peru: "PE", japan: "JP", china: "CN", india: "IN", "south korea": "KR", korea: "KR", "north korea": "KP",
  russia: "RU", belarus: "BY", ukraine: "UA", turkey: "TR", türkiye: "TR", israel: "IL", iran: "IR", syria: "SY", cuba: "CU", egypt: "EG", "south africa": "ZA",
  nigeria: "NG", kenya: "KE", morocco: "MA", australia: "AU", "new zealand": "NZ", singapore: "SG", indonesia: "ID", vietnam: "VN", thailand: "TH", philippines: "PH",
  malaysia: "MY", "saudi arabia": "SA", uae: "AE", "united arab emirates": "AE", qatar: "QA",
};
// Words before a value that say which of two parameters it is ("from RTM1 to MAD1", "starting 2027-03-01").
const CUES: Record<string, string[]> = {
  from: ["from", "out of", "source"],
  source: ["from", "out of"],
  origin: ["from"],
  to: ["to", "into", "towards"],
  destination: ["to", "into"],
  target: ["to", "into"],
  start: ["from", "starting", "start", "starts", "beginning", "begins", "effective", "on"],
  end: ["to", "until", "till", "through", "thru", "ending", "ends"],
  new: ["to", "for", "at"],
};
// Verbs that make a stock or balance change negative.
const DECREASE = /\b(write[- ]?off|writing off|written off|remove|removing|lost|lose|subtract|decrease|reduce|deduct|minus|damaged|shrink|scrap|discard)\b/i;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
const MONEY = /(?:([$€£])\s?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)\s?([kKmM](?![a-zA-Z]))?)|(?:\b((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)\s?([kK])?\s?(USD|EUR|GBP|usd|eur|gbp|dollars?|euros?|pounds?)\b)/g;
const PERCENT = /\b(\d+(?:\.\d+)?)\s?(?:%|percent\b)/g;
const DURATION = /\b(\d+(?:\.\d+)?)[\s-]?(seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?|weeks?)\b/gi;
const DATETIME = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g;
const VERSION = /(?<![\w.$€£])v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?(?![\w.])|(?<![\w.$€£])v\d+(?:\.\d+)?(?![\w.])/g;
const SLUG = /(?<![\w@.#/-])[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+(?![\w@-])/g;
const QUOTED = /["“]([^"”]+)["”]|(?<![A-Za-z])'([^']+)'(?![A-Za-z])/g;
// Digits with grouping separators are one number ("1,820", "250,000"), never their first group.
const NUMBER = /(?<![\w.$€£#,-])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w%.-]|,\d)/g;

function properties(schema: JsonSchema): Property[] {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(props).map(([key, s]) => {
    const keyWords = words(key);
    const last = keyWords.at(-1) ?? "";
    const noun = ID_SUFFIXES.includes(last) && keyWords.length > 1 ? keyWords.at(-2) : undefined;
    const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== "null") : (s.type as string | undefined);
    return { key, schema: s, type, stems: keyWords.map(stem), noun };
  });
}

const norm = (text: string) => text.toLowerCase().replace(/[_-]+/g, " ").replace(/\s+/g, " ").trim();

/** Does the text mention the value as words ("password reset" for `password_reset`, "prod" for production)? */
function enumScore(textNorm: string, textWords: Set<string>, value: string): number {
  const v = norm(value);
  if (v === "") return 0;
  if (new RegExp(`(?<![a-z0-9])${v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![a-z0-9])`).test(textNorm)) return 3;
  for (const synonym of ENUM_SYNONYMS[value.toLowerCase()] ?? []) {
    if (new RegExp(`(?<![a-z0-9])${norm(synonym)}(?![a-z0-9])`).test(textNorm)) return 2;
  }
  // "fraud" for `fraud_suspected`: the value's first word, when distinctive.
  const parts = v.split(" ");
  if (parts.length > 1 && parts[0]!.length >= 4 && textWords.has(parts[0]!)) return 1;
  return 0;
}

function parseMoney(match: RegExpMatchArray): number {
  const raw = (match[2] ?? match[4] ?? "").replace(/,/g, "");
  const suffix = (match[3] ?? match[5] ?? "").toLowerCase();
  const value = Number(raw) * (suffix === "k" ? 1000 : suffix === "m" ? 1_000_000 : 1);
  return Math.round(value * 100) / 100;
}

function currencyOf(match: RegExpMatchArray): string | undefined {
  const symbol = match[1];
  if (symbol) return { $: "USD", "€": "EUR", "£": "GBP" }[symbol];
  const word = (match[6] ?? "").toLowerCase();
  if (word.startsWith("usd") || word.startsWith("dollar")) return "USD";
  if (word.startsWith("eur")) return "EUR";
  if (word.startsWith("gbp") || word.startsWith("pound")) return "GBP";
  return undefined;
}

/** Words right before a position, lower case, for cues ("cc", "to", "assign to"). */
function before(text: string, index: number, chars = 24): string {
  return text.slice(Math.max(0, index - chars), index).toLowerCase();
}

interface Span {
  start: number;
  end: number;
}

class TurnReader {
  readonly lower: string;
  readonly textNorm: string;
  readonly textWords: Set<string>;
  readonly stems: string[];
  /** Character ranges already given to a parameter, so one value fills one parameter. */
  private readonly used: Span[] = [];

  constructor(readonly text: string) {
    this.lower = text.toLowerCase();
    this.textNorm = norm(text);
    this.textWords = new Set(words(text));
    this.stems = words(text).map(stem);
  }

  free(start: number, end: number): boolean {
    return !this.used.some((u) => start < u.end && end > u.start);
  }
  take(start: number, end: number): void {
    this.used.push({ start, end });
  }

  /** Position of the first occurrence of one of the stems as a word, or -1. */
  wordIndex(stems: string[]): number {
    for (const m of this.text.matchAll(/[A-Za-z]+/g)) if (stems.includes(stem(m[0].toLowerCase()))) return m.index!;
    return -1;
  }
}

export interface ExtractOptions {
  /** Parameters the assistant's last question asked for: a bare value in the answer goes to them. */
  asked?: string[];
}

/** Arguments for a tool from the user's turns (oldest first). */
export function extractArguments(schema: JsonSchema, turns: string[], options: ExtractOptions = {}): Record<string, unknown> {
  const props = properties(schema);
  const args: Record<string, unknown> = {};
  turns.forEach((turn, index) => {
    const asked = index === turns.length - 1 ? (options.asked ?? []) : [];
    const found = readTurn(props, turn, asked);
    for (const [key, value] of Object.entries(found)) {
      // A later turn corrects a value only with a precise one (a pattern, an enum, an amount…) or when
      // it answers a question about it; a loose name ("on-call" in "I'm the on-call lead") does not.
      const p = props.find((x) => x.key === key)!;
      if (args[key] === undefined || asked.includes(key) || rank(p) <= 6) args[key] = value;
    }
  });
  return args;
}

function readTurn(props: Property[], text: string, asked: string[]): Record<string, unknown> {
  const r = new TurnReader(text);
  const out: Record<string, unknown> = {};
  // Most specific first: patterns and formats claim their values before loose numbers and words.
  // Within a rank, parameters with an example go first: their values are the best recognised.
  const order = [...props].sort((a, b) => rank(a) - rank(b) || Number(exampleOf(b.schema) !== undefined) - Number(exampleOf(a.schema) !== undefined));
  for (const p of order) {
    const value = readProperty(p, r, props, asked);
    if (value !== undefined) out[p.key] = value;
  }
  return out;
}

function rank(p: Property): number {
  const s = p.schema;
  if (typeof s.pattern === "string") return 0;
  if (s.format === "email" || (p.type === "array" && (s.items as JsonSchema | undefined)?.format === "email")) return 1;
  if (s.format === "date-time" || s.format === "date") return 2;
  if (Array.isArray(s.enum)) return 3;
  if (p.type === "boolean") return 4;
  if (p.type === "number" || p.type === "integer") return 5;
  if (p.noun) return 6;
  return 7;
}

function readProperty(p: Property, r: TurnReader, all: Property[], asked: string[]): unknown {
  const s = p.schema;
  if (typeof s.pattern === "string") return byPattern(p, r, all, asked);
  if (s.format === "email") return byEmail(p, r, all);
  if (p.type === "array" && (s.items as JsonSchema | undefined)?.format === "email") {
    const emails = emailsAfter(r, /\b(cc|copy|copying|bcc)\b[^@]*$/);
    return emails.length > 0 ? emails : undefined;
  }
  if (s.format === "date-time" || s.format === "date") return byDate(p, r, s.format);
  if (Array.isArray(s.enum)) return byEnum(p, r, asked);
  if (p.type === "boolean") return byBoolean(p, r);
  if (p.type === "number" || p.type === "integer") return byNumber(p, r, asked);
  if (p.type === "string" || p.type === undefined) return byString(p, r, all, asked);
  return undefined;
}

// Hyphenated words of ordinary English, which are not names of things.
const COMMON_HYPHENATED = new Set(["on-call", "follow-up", "e-mail", "check-in", "opt-in", "opt-out", "sign-off", "sign-up", "real-time", "high-priority", "first-response", "full-time", "part-time", "long-term", "short-term", "built-in", "add-on", "one-off", "re-run", "set-up", "log-in"]);
const looksLikeName = (token: string) => (/\d/.test(token) || /[-_]/.test(token) || /[a-z]\.[a-z]/i.test(token) || /[A-Z].*\d|\d.*[A-Z]/.test(token)) && !COMMON_HYPHENATED.has(token.toLowerCase());

/** The schema's example of a value (`example`, or "e.g. j.alvarez" in the description). */
function exampleOf(schema: JsonSchema): string | undefined {
  if (typeof schema.example === "string") return schema.example;
  const m = typeof schema.description === "string" ? /\be\.g\.,?\s+([^\s,;]+?)[.,;]?(?:\s|$)/.exec(schema.description) : null;
  return m?.[1];
}

/** Punctuation a value has ("j.alvarez" → "."): a candidate with the example's punctuation is the likelier. */
const punctuation = (value: string) => [...new Set(value.replace(/[A-Za-z0-9]/g, ""))].sort().join("");

/** The cue words of a parameter's name ("from_warehouse" → from, out of, source). */
function cuesOf(p: Property): string[] {
  return words(p.key).flatMap((w) => CUES[w] ?? []);
}

/** Does one of the cue words stand right before the position ("from RTM1")? */
function cued(r: TurnReader, index: number, cues: string[]): boolean {
  const lead = before(r.text, index, 16).replace(/[^a-z ]/g, " ").trim();
  return cues.some((c) => lead.endsWith(` ${c}`) || lead === c);
}

/**
 * A value the parameter's pattern accepts. Patterns such as `^[a-z][a-z0-9-]{2,40}$` also accept plain
 * words ("the", "deploy"); such a loose pattern needs the match to look like a name, and then the one
 * shaped like the schema's example, or cued by the parameter's name ("from RTM1"), wins.
 */
function byPattern(p: Property, r: TurnReader, all: Property[], asked: string[]): unknown {
  const source = String(p.schema.pattern).replace(/^\^/, "").replace(/\$$/, "");
  let re: RegExp;
  let whole: RegExp;
  try {
    re = new RegExp(`(?<![A-Za-z0-9_.-])(?:${source})(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`, "g");
    whole = new RegExp(`^(?:${source})$`);
  } catch {
    return undefined;
  }
  const strict = !["the", "order", "deploy", "a1"].some((w) => whole.test(w));
  const found = [...r.text.matchAll(re)].filter((m) => r.free(m.index!, m.index! + m[0].length) && (strict || looksLikeName(m[0])));
  if (/[A-Z]/.test(source) && found.length === 0) {
    // Codes written in lower case ("ord-77310" for ^ORD-[0-9]+$).
    for (const m of r.text.matchAll(new RegExp(re.source, "gi"))) {
      if (r.free(m.index!, m.index! + m[0].length) && whole.test(m[0].toUpperCase()) && looksLikeName(m[0])) {
        r.take(m.index!, m.index! + m[0].length);
        return coerce(p, m[0].toUpperCase());
      }
    }
  }
  const cues = cuesOf(p);
  const example = exampleOf(p.schema);
  let pick = found.find((m) => cues.length > 0 && cued(r, m.index!, cues));
  if (!pick && cues.length > 0 && found.length > 1) return undefined;
  pick ??= (example ? found.find((m) => punctuation(trimEnd(m[0], whole)) === punctuation(example)) : undefined) ?? found[0];
  if (pick) {
    r.take(pick.index!, pick.index! + pick[0].length);
    return coerce(p, trimEnd(pick[0], whole));
  }
  if (strict && /country|nation/.test(p.key) || source === "[A-Z]{2}") {
    const country = byCountry(r);
    if (country && whole.test(country)) return country;
  }
  const loose = p.noun ? byIdentifier(p, r, asked) : byString({ ...p, schema: { ...p.schema, pattern: undefined } }, r, all, asked);
  return typeof loose === "string" && whole.test(loose) ? loose : undefined;
}

/** "c.mendes." at the end of a sentence: the full stop is not part of the name when the pattern allows it. */
function trimEnd(value: string, whole: RegExp): string {
  const trimmed = value.replace(/[.-]+$/, "");
  return trimmed !== value && trimmed.length > 0 && whole.test(trimmed) ? trimmed : value;
}

function byCountry(r: TurnReader): string | undefined {
  const lower = r.lower;
  let best: { code: string; at: number } | undefined;
  for (const [name, code] of Object.entries(COUNTRIES)) {
    const m = new RegExp(`(?<![a-z])${name}(?![a-z])`).exec(lower);
    if (m && (!best || m.index < best.at)) best = { code, at: m.index };
  }
  return best?.code;
}

function emailsAfter(r: TurnReader, cue: RegExp): string[] {
  const out: string[] = [];
  for (const m of r.text.matchAll(EMAIL)) {
    if (!r.free(m.index!, m.index! + m[0].length)) continue;
    if (cue.test(before(r.text, m.index!))) {
      out.push(m[0]);
      r.take(m.index!, m.index! + m[0].length);
    }
  }
  return out;
}

function byEmail(p: Property, r: TurnReader, all: Property[]): unknown {
  const emails = [...r.text.matchAll(EMAIL)].filter((m) => r.free(m.index!, m.index! + m[0].length));
  if (emails.length === 0) return undefined;
  const emailProps = all.filter((q) => q.schema.format === "email");
  let chosen = emails[0];
  if (emailProps.length > 1 || emails.length > 1) {
    // The cue before the address names the parameter: "assign to x@", "cc x@", "customer x@".
    const cue = emails.find((m) => p.stems.some((s) => s.length > 2 && stem(before(r.text, m.index!).split(/[^a-z]+/).filter(Boolean).at(-1) ?? "") === s));
    chosen = cue ?? emails.find((m) => !/\b(cc|bcc|copy)\b/.test(before(r.text, m.index!, 8))) ?? emails[0];
  }
  r.take(chosen!.index!, chosen!.index! + chosen![0].length);
  return chosen![0];
}

function byDate(p: Property, r: TurnReader, format: unknown): unknown {
  const dates = [...r.text.matchAll(DATETIME)].filter((m) => r.free(m.index!, m.index! + m[0].length));
  if (dates.length === 0) return undefined;
  // With several dates: the one after a cue of the parameter ("starting", "until", "expires on"); else
  // a start takes the earliest and an end the latest.
  const cues = cuesOf(p);
  const named = dates.find((m) => p.stems.some((s) => before(r.text, m.index!, 30).split(/[^a-z]+/).map(stem).includes(s)));
  const byCue = cues.length > 0 ? dates.find((m) => cued(r, m.index!, cues)) : undefined;
  const sorted = [...dates].sort((a, b) => a[0].localeCompare(b[0]));
  const byOrder = dates.length > 1 && /(^|_)start|begin|from/.test(p.key) ? sorted[0] : dates.length > 1 && /(^|_)end|until|to_|finish/.test(p.key) ? sorted.at(-1) : undefined;
  // A date cued for another kind ("starting 2027-03-08" for an end date) is not this parameter's.
  const otherCues = Object.entries(CUES).filter(([k]) => !words(p.key).includes(k) && (k === "start" || k === "end")).flatMap(([, c]) => c);
  const uncued = dates.find((d) => !cued(r, d.index!, otherCues.filter((c) => !cues.includes(c))));
  const m = byCue ?? named ?? byOrder ?? uncued;
  if (!m) return undefined;
  r.take(m.index!, m.index! + m[0].length);
  const value = m[0];
  if (format === "date") return value.slice(0, 10);
  return value.length === 10 ? `${value}T00:00:00Z` : value.replace(" ", "T");
}

function byEnum(p: Property, r: TurnReader, asked: string[]): unknown {
  const all = p.schema.enum as unknown[];
  if (all.every((v) => typeof v === "number")) {
    const n = byNumber({ ...p, schema: { ...p.schema, enum: undefined } }, r, asked);
    return typeof n === "number" && all.includes(n) ? n : undefined;
  }
  const values = all.filter((v): v is string => typeof v === "string");
  const cues = cuesOf(p);
  let best: string | undefined;
  let bestScore = 0;
  let tie = false;
  for (const v of values) {
    let score = enumScore(r.textNorm, r.textWords, v);
    if (score === 0 && !/[_ -]/.test(v) && v.length >= 5 && r.stems.includes(stem(v.toLowerCase()))) score = 2; // "reimburse" → reimbursement
    if (score > 0 && cues.length > 0) {
      // "from RTM1 to MAD1": a parameter named from_/to_ takes only the value its cue word stands before.
      const at = new RegExp(`(?<![A-Za-z0-9])${v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![A-Za-z0-9])`, "i").exec(r.text);
      if (!at || !cued(r, at.index, cues)) score = 0;
    }
    if (score > bestScore) {
      best = v;
      bestScore = score;
      tie = false;
    } else if (score === bestScore && score > 0) tie = true;
  }
  return best && !tie ? best : undefined;
}

const ON = /\b(turn(?:ing)? on|switch(?:ing)? on|enabl(?:e|ing)|activat(?:e|ing)|roll(?:ing)? out|flip(?:ping)? on)\b/i;
const OFF = /\b(turn(?:ing)? off|switch(?:ing)? off|disabl(?:e|ing)|deactivat(?:e|ing)|kill|flip(?:ping)? off)\b/i;

function byBoolean(p: Property, r: TurnReader): unknown {
  if (p.key === "enabled" || p.key === "enable" || p.key === "active" || p.key === "on") {
    if (OFF.test(r.text)) return false;
    if (ON.test(r.text)) return true;
    return undefined;
  }
  // "notify the customer" → notify_customer: true; "don't restock" → restock: false.
  const verb = p.stems[0];
  if (!verb || verb.length < 3) return undefined;
  const at = r.wordIndex([verb]);
  if (at < 0) return undefined;
  return !/\b(don't|do not|dont|without|no|not|never|skip)\b[^.]*$/i.test(before(r.text, at, 20));
}

function byNumber(p: Property, r: TurnReader, asked: string[]): unknown {
  // Money by its name's words, or by a currency its name states (`fare_usd`, `price_eur`, `amount_cents`).
  const isAmount = p.stems.some((s) => AMOUNT_WORDS.has(s)) || p.key.split(/[^a-zA-Z]+/).some((w) => currencyOfWord(w) !== undefined && w.length === 3);
  const isPercent = p.stems.some((s) => PERCENT_WORDS.has(s));
  const unit = p.stems.map((s) => Object.entries(DURATION_UNITS).find(([u]) => stem(u) === s || stem(`${u}s`) === s)).find(Boolean);
  const isDuration = Boolean(unit) || p.stems.includes(stem("duration"));
  if (isPercent) {
    for (const m of r.text.matchAll(PERCENT)) {
      if (!r.free(m.index!, m.index! + m[0].length)) continue;
      r.take(m.index!, m.index! + m[0].length);
      return coerce(p, Number(m[1]));
    }
  }
  if (isDuration) {
    const perMinute = unit ? unit[1] : 1;
    for (const m of r.text.matchAll(DURATION)) {
      if (!r.free(m.index!, m.index! + m[0].length)) continue;
      const u = m[2]!.toLowerCase().replace(/s$/, "");
      const minutes = Number(m[1]) * (DURATION_UNITS[u] ?? DURATION_UNITS[u.slice(0, 3)] ?? 1);
      r.take(m.index!, m.index! + m[0].length);
      return coerce(p, minutes / perMinute);
    }
  }
  if (isAmount) {
    for (const m of r.text.matchAll(MONEY)) {
      if (!r.free(m.index!, m.index! + m[0].length)) continue;
      r.take(m.index!, m.index! + m[0].length);
      return coerce(p, parseMoney(m));
    }
    // "a 2.5k bonus", "at 3.2k": thousands without a currency.
    for (const m of r.text.matchAll(/(?<![\w.$€£-])(\d+(?:\.\d+)?)\s?[kK](?![A-Za-z])/g)) {
      if (!r.free(m.index!, m.index! + m[0].length)) continue;
      r.take(m.index!, m.index! + m[0].length);
      return coerce(p, Math.round(Number(m[1]) * 1000 * 100) / 100);
    }
  }
  const isDelta = /delta|change|adjust|diff/.test(p.key);
  const quantityLike = /quantit|qty|units|count|parcels|pieces|items|seats|delta/.test(p.key);
  if (quantityLike) {
    // "120 units", "by -12", "30 pcs": counts of things, negative when the words take stock away.
    const unitRe = /(?<![\w.$€£#])(-?\d+)\s*(?:units?|pcs|pieces?|items?|boxes|box|pallets?|cartons?|parcels?|packages?|x\b)|\bby\s+([-+]?\d+)\b/gi;
    for (const m of r.text.matchAll(unitRe)) {
      if (!r.free(m.index!, m.index! + m[0].length)) continue;
      let n = Number(m[1] ?? m[2]);
      if (isDelta && n > 0 && DECREASE.test(r.text) && !/^\+/.test(m[2] ?? "")) n = -n;
      r.take(m.index!, m.index! + m[0].length);
      return coerce(p, n);
    }
  }
  // A count next to the parameter's noun: "0 replicas", "replicas to 4", "max 100 redemptions".
  const nouns = p.stems.filter((s) => s.length > 2 && !["max", "min", "num", "number", "count", "total"].includes(s));
  const tokens = [...r.text.matchAll(/[A-Za-z]+|\d+(?:\.\d+)?/g)];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const value = /^\d/.test(t[0]) ? Number(t[0]) : NUMBER_WORDS[t[0].toLowerCase()];
    if (value === undefined || !r.free(t.index!, t.index! + t[0].length)) continue;
    const near = [tokens[i + 1], tokens[i + 2], tokens[i - 1], tokens[i - 2]].filter(Boolean).map((x) => stem(x![0].toLowerCase()));
    if (nouns.length > 0 && near.slice(0, 4).some((w) => nouns.includes(w))) {
      r.take(t.index!, t.index! + t[0].length);
      return coerce(p, value);
    }
  }
  // The answer to "how many replicas?": the only number in a short reply.
  if (asked.includes(p.key)) {
    const numbers = [...r.text.matchAll(NUMBER)].filter((m) => r.free(m.index!, m.index! + m[0].length));
    const money = [...r.text.matchAll(MONEY)].filter((m) => r.free(m.index!, m.index! + m[0].length));
    if (isAmount && money.length === 1) return coerce(p, parseMoney(money[0]!));
    if (numbers.length === 1) {
      r.take(numbers[0]!.index!, numbers[0]!.index! + numbers[0]![0].length);
      return coerce(p, Number(numbers[0]![0].replace(/,/g, "")));
    }
    const spelled = r.text.toLowerCase().match(/\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty)\b/);
    if (spelled) return coerce(p, NUMBER_WORDS[spelled[1]!]);
  }
  return undefined;
}

const FILE_PATH = /(?<![\w/])(?:~|\.{1,2})?\/[^\s'"`,;]+|(?<!\w)[A-Za-z]:\\[^\s'"`,;]+|(?<![\w/.-])[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,5}(?![\w/])/g;

function byString(p: Property, r: TurnReader, all: Property[], asked: string[]): unknown {
  const key = p.key.toLowerCase();
  // Free text: only where the words say which part is meant ("subject 'x'", "tell them …").
  for (const [name, patterns] of Object.entries(FREE_TEXT_KEYS)) {
    if (key !== name && !key.endsWith(`_${name}`)) continue;
    for (const re of patterns) {
      const m = r.text.match(re);
      if (m?.[1] && m[1].trim().length > 0) return m[1].trim();
    }
    return undefined;
  }
  if (/(^|_)version$/.test(key)) {
    for (const m of r.text.matchAll(VERSION)) {
      if (!r.free(m.index!, m.index! + m[0].length)) continue;
      r.take(m.index!, m.index! + m[0].length);
      return m[0];
    }
    return undefined;
  }
  // A file or folder: the token shaped like a path ("/tmp/report.txt", "./build", "~/notes", "C:\\logs\\a.txt",
  // or a bare file name with an extension).
  if (/(^|_)(path|file|filename|filepath|dir|directory|folder)$/.test(key)) {
    for (const m of r.text.matchAll(FILE_PATH)) {
      const value = m[0].replace(/[.,;:!?)]+$/, "");
      if (!r.free(m.index!, m.index! + value.length)) continue;
      r.take(m.index!, m.index! + value.length);
      return value;
    }
  }
  if (p.noun) return byIdentifier(p, r, asked);
  // A named thing (service, app, repository, team): a slug the other parameters did not take.
  const noun = p.stems.at(-1);
  for (const m of r.text.matchAll(SLUG)) {
    if (!r.free(m.index!, m.index! + m[0].length) || COMMON_HYPHENATED.has(m[0])) continue;
    if (all.some((q) => Array.isArray(q.schema.enum) && (q.schema.enum as unknown[]).includes(m[0]))) continue;
    r.take(m.index!, m.index! + m[0].length);
    return m[0];
  }
  if (noun) {
    const quoted = [...r.text.matchAll(QUOTED)].find((m) => r.free(m.index!, m.index! + m[0].length) && p.stems.some((s) => before(r.text, m.index!, 30).includes(s)));
    if (quoted) return (quoted[1] ?? quoted[2])!.trim();
  }
  return undefined;
}

/** `ticket_id`: "#4471", "ticket 4471"; `customer_id`: "customer cus_88213"; `flag_key`: "the new-checkout flag". */
function byIdentifier(p: Property, r: TurnReader, asked: string[]): unknown {
  const noun = stem(p.noun!);
  const tokens = [...r.text.matchAll(/#?[A-Za-z0-9][A-Za-z0-9_.:-]*[A-Za-z0-9]|#?[A-Za-z0-9]/g)];
  const idLike = (t: string) => /\d/.test(t) || /[-_]/.test(t) || t.startsWith("#") || /^[A-Z0-9]{4,}$/.test(t);
  const clean = (t: string) => t.replace(/^#/, "").replace(/[.:]+$/, "");
  for (let i = 0; i < tokens.length; i++) {
    if (stem(tokens[i]![0].toLowerCase()) !== noun) continue;
    // After the noun ("ticket #4471", "customer cus_88213", "order number 12"), skipping id words.
    for (let j = i + 1; j < Math.min(tokens.length, i + 4); j++) {
      const t = tokens[j]!;
      if (/^(id|number|no|#|key|code|named|called)$/i.test(t[0])) continue;
      if (idLike(t[0]) && r.free(t.index!, t.index! + t[0].length)) {
        r.take(t.index!, t.index! + t[0].length);
        return coerce(p, clean(t[0]));
      }
      break;
    }
    // Before the noun ("the new-checkout flag", "the shared-staging environment").
    const prev = tokens[i - 1];
    if (prev && idLike(prev[0]) && r.free(prev.index!, prev.index! + prev[0].length)) {
      r.take(prev.index!, prev.index! + prev[0].length);
      return coerce(p, clean(prev[0]));
    }
  }
  // "#4471" with no noun, when it is the only tag-like id.
  const tags = [...r.text.matchAll(/#(\w[\w-]*)/g)].filter((m) => /\d/.test(m[1]!) && r.free(m.index!, m.index! + m[0].length));
  if (tags.length === 1) {
    r.take(tags[0]!.index!, tags[0]!.index! + tags[0]![0].length);
    return coerce(p, tags[0]![1]!);
  }
  // A bare answer to "which ticket?".
  if (asked.includes(p.key)) {
    const ids = tokens.filter((t) => idLike(t[0]) && r.free(t.index!, t.index! + t[0].length));
    if (ids.length === 1) return coerce(p, clean(ids[0]![0]));
  }
  return undefined;
}

function coerce(p: Property, value: unknown): unknown {
  if (p.type === "string") return String(value);
  if (p.type === "integer") {
    const n = typeof value === "number" ? value : Number(value);
    return Number.isFinite(n) ? Math.round(n) : undefined;
  }
  if (p.type === "number") {
    const n = typeof value === "number" ? value : Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return value;
}

/** Parameters a question asks about: "How many replicas …?" → replicas; "how much …?" → the amount. */
export function askedParameters(schema: JsonSchema, question: string | undefined): string[] {
  if (!question) return [];
  const q = question.toLowerCase();
  const qStems = new Set(words(q).map(stem));
  const asked: string[] = [];
  for (const p of properties(schema)) {
    const named = p.stems.filter((s) => s.length > 2 && !["id", "key"].includes(s)).some((s) => qStems.has(s));
    const money = /\bhow much\b/.test(q) && p.stems.some((s) => AMOUNT_WORDS.has(s));
    if (named || money) asked.push(p.key);
  }
  return asked;
}

/** Free-text parameters the request writes out ("tell them …" → body, message; "subject '…'" → subject). */
export function freeTextCues(text: string): Set<string> {
  const keys = new Set<string>();
  for (const [name, patterns] of Object.entries(FREE_TEXT_KEYS)) if (patterns.some((re) => re.test(text))) keys.add(name);
  return keys;
}

/** A parameter pattern that only accepts codes (`^ORD-[0-9]+$`, `^[A-Z]{2}$`), not ordinary words. */
export function strictPattern(schema: JsonSchema): RegExp | undefined {
  if (typeof schema.pattern !== "string") return undefined;
  try {
    const source = schema.pattern.replace(/^\^/, "").replace(/\$$/, "");
    const whole = new RegExp(`^(?:${source})$`);
    if (["the", "order", "deploy", "a1", "ok"].some((w) => whole.test(w))) return undefined;
    // Codes of two capital letters ("US", "IT") are words too often to pick a tool by.
    if (["US", "IT", "OK"].some((w) => whole.test(w))) return undefined;
    return new RegExp(`(?<![A-Za-z0-9_.-])(?:${source})(?![A-Za-z0-9_-])`);
  } catch {
    return undefined;
  }
}

export { MONEY, currencyOf };
