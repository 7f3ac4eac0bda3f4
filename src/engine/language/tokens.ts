// The language layer's tokenizer: a sentence (a rule, a request) as words and typed values. It never
// throws: a character no lexeme reads is skipped as punctuation. Values are recognised once, here, for
// every reader (the policy parser, the intent engine): money with its ISO currency, percentages, counts,
// quantities with units, clock times and ranges, weekdays, e-mail addresses, domains, #channels, @users,
// quoted text.
import { tag } from "./nlp.ts";
import { readNumberWords } from "./numbers.ts";
import { quantity, type Quantity } from "./units.ts";

export type Comparator = "gt" | "gte" | "lt" | "lte" | "eq" | "neq";

export type Token =
  | { kind: "word"; text: string; norm: string }
  | { kind: "number"; text: string; value: number }
  /** `anyCurrency`: only a minor unit was named ("18 cents"), which many currencies share. */
  | { kind: "money"; text: string; value: number; currency: string; anyCurrency?: boolean }
  | { kind: "percent"; text: string; value: number }
  | { kind: "quantity"; text: string; quantity: Quantity }
  /** Minutes after midnight. */
  | { kind: "time"; text: string; minutes: number }
  | { kind: "time_range"; text: string; from: number; to: number }
  | { kind: "email"; text: string; address: string; domain: string }
  | { kind: "domain"; text: string; domain: string }
  /** `#general`, `@alice`: kept with their sign, as people write them in arguments. */
  | { kind: "tag"; text: string; value: string }
  | { kind: "quoted"; text: string; value: string }
  | { kind: "op"; text: string; op: Comparator }
  | { kind: "punct"; text: string };

export type ValueToken = Exclude<Token, { kind: "word" } | { kind: "punct" } | { kind: "op" }>;

/** Where a token stands in the text it was read from: [start, end) in UTF-16 units. */
export interface Span {
  start: number;
  end: number;
}

// Symbols in front of (or after) an amount. "$" alone is the US dollar, as people mean it.
const WRITTEN_SYMBOLS: Record<string, string> = { $: "USD", "us$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB", "₺": "TRY", "₪": "ILS", "₫": "VND", "₱": "PHP", "฿": "THB", "r$": "BRL", "a$": "AUD", "c$": "CAD", "hk$": "HKD", "s$": "SGD", "nz$": "NZD", chf: "CHF" };
/**
 * Currency signs, as people write them and as CLDR (through Intl) writes them in English: "CA$", "MX$",
 * "NT$", "CN¥" beside "$", "€" and the shorter forms above. Only signs that end in a symbol (letters alone,
 * "FCFA", are names of their own).
 */
const SYMBOLS: Record<string, string> = (() => {
  const out: Record<string, string> = { ...WRITTEN_SYMBOLS };
  for (const code of Intl.supportedValuesOf("currency")) {
    const sign = new Intl.NumberFormat("en", { style: "currency", currency: code }).formatToParts(1).find((p) => p.type === "currency")?.value.toLowerCase();
    if (sign && sign !== code.toLowerCase() && /^[a-z]{0,3}[^a-z\s\d.]$/.test(sign) && out[sign] === undefined) out[sign] = code;
  }
  return out;
})();
// The signs, longest first, for the money pattern.
const SIGN_PATTERN = Object.keys(SYMBOLS).filter((k) => !/^[a-z]+$/.test(k)).sort((a, b) => b.length - a.length).map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
const SIGN_AT_START = new RegExp(`^(${SIGN_PATTERN})\\s?`, "i");

// Currency names from the runtime's own CLDR data (Intl.DisplayNames): the last word of each name ("US
// Dollar" → dollar) names the most used currency that ends so; codes are every ISO 4217 code it knows.
const PREFERRED = ["USD", "EUR", "GBP", "JPY", "INR", "CHF", "CNY", "KRW", "BRL", "MXN", "RUB", "SEK", "ZAR", "TRY"];
let currencyNames: Map<string, string> | undefined;
let currencyCodes: Set<string> | undefined;

function currencyTables(): { names: Map<string, string>; codes: Set<string> } {
  if (currencyNames && currencyCodes) return { names: currencyNames, codes: currencyCodes };
  const names = new Map<string, string>();
  const codes = new Set<string>(Intl.supportedValuesOf("currency"));
  const display = new Intl.DisplayNames("en", { type: "currency" });
  const ordered = [...PREFERRED, ...[...codes].filter((c) => !PREFERRED.includes(c))];
  for (const code of ordered) {
    const name = display.of(code)?.toLowerCase();
    if (!name || name === code.toLowerCase()) continue;
    // The full name too ("us dollar", "australian dollar", "british pound"), read before its last word.
    if (!names.has(name)) names.set(name, code);
    if (!names.has(`${name}s`)) names.set(`${name}s`, code);
    const last = name.split(/\s+/).at(-1)!.replace(/[^a-z]/g, "");
    if (last.length < 3) continue;
    for (const form of [last, `${last}s`, last.endsWith("o") ? `${last}s` : last]) if (!names.has(form)) names.set(form, code);
  }
  // Spoken names the CLDR display names do not end with.
  // ("kr": the Nordic crowns' sign, read as the first of them; a schema's own crown wins, see currencyFamily.)
  for (const [w, c] of [["kr", "SEK"], ["bucks", "USD"], ["quid", "GBP"], ["renminbi", "CNY"], ["kronor", "SEK"], ["kroner", "NOK"], ["reais", "BRL"], ["cents", "USD"], ["pence", "GBP"], ["sterling", "GBP"], ["pounds sterling", "GBP"], ["pound sterling", "GBP"], ["us dollars", "USD"], ["u.s. dollars", "USD"]] as const) names.set(w, c);
  currencyNames = names;
  currencyCodes = codes;
  return { names, codes };
}

/**
 * Currencies of one family: those whose English name ends in the same word, less accents and a final
 * vowel ("Swedish Krona", "Danish Krone" → kron; "US Dollar", "Canadian Dollar" → dollar). "kr 500" or "$40"
 * in a workspace that takes only one of them means that one.
 */
export function currencyFamily(code: string): string[] {
  const key = familyKey(code);
  if (!key) return [code];
  const { codes } = currencyTables();
  return [...codes].filter((c) => familyKey(c) === key);
}
const familyKeys = new Map<string, string | undefined>();
function familyKey(code: string): string | undefined {
  if (familyKeys.has(code)) return familyKeys.get(code);
  let key: string | undefined;
  try {
    const name = new Intl.DisplayNames("en", { type: "currency" }).of(code);
    const last = name && name !== code ? name.split(/\s+/).at(-1)!.normalize("NFD").replace(/[^a-zA-Z]/g, "").toLowerCase() : "";
    key = last.length >= 4 ? last.replace(/[aeiou]$/, "") : undefined;
  } catch {
    key = undefined;
  }
  familyKeys.set(code, key);
  return key;
}

/** The ISO code a word names (a code such as "eur" or a name such as "euros"), or undefined. */
export function currencyOfWord(word: string): string | undefined {
  const { names, codes } = currencyTables();
  if (word.length === 3 && codes.has(word.toUpperCase()) && /^[a-z]{3}$/i.test(word)) return word.toUpperCase();
  return names.get(word.toLowerCase());
}

/**
 * A word that spells a currency code but reads as another part of speech after an amount ("40 all", "3
 * top"): a word, not money. Nouns ("100 usd", "100 eur") stay codes.
 */
function wordNotCode(w: { norm: string }): boolean {
  if (w.norm.length !== 3 || !currencyTables().codes.has(w.norm.toUpperCase())) return false;
  return !["NOUN", "PROPN"].includes(tag(["paid", "100", w.norm])[2]?.pos ?? "NOUN");
}

const GLUED = new Set(["usd", "eur", "gbp", "chf", "jpy", "inr", "sek", "nok", "dkk", "pln"]);

// Words that may follow "N grand" when it is money ("over 25 grand is blocked", "30 grand or more").
const GRAND_AFTER = new Set(["is", "are", "was", "or", "and", "in", "of", "for", "to", "on", "a", "an", "per", "each", "needs", "need", "must", "has", "have", "will", "would", "should", "then", "plus", "total", "max", "maximum", "limit", "cap"]);
const MULTIPLIERS: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, mm: 1e6, mn: 1e6, million: 1e6, b: 1e9, bn: 1e9, billion: 1e9 };

const LEXEME = new RegExp(
  [
    String.raw`(?<quoted>"[^"]{0,200}"|“[^”]{0,200}”|'[^']{0,200}'(?![a-z])|‘[^’]{0,200}’|\x60[^\x60]{0,200}\x60)`,
    String.raw`(?<email>[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})`,
    String.raw`(?<tag>[#@][a-z0-9][\w.-]*)`,
    // An IPv4 address or CIDR block ("10.20.30.40", "172.16.0.0/12") is one name, not numbers.
    String.raw`(?<ip>(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?(?![\d.]))`,
    // A meridiem is "am"/"pm" as a word of its own: "4:00 America/New_York" is a clock and a zone.
    String.raw`(?<range>(?:(?:[01]?\d|2[0-3])(?::[0-5]\d)?\s?(?:[ap]\.?m\.?(?![a-z]))?)\s?(?:-|–|—|to)\s?(?:(?:[01]?\d|2[0-3])(?::[0-5]\d)?\s?(?:[ap]\.?m\.?(?![a-z]))?)(?![\d:]|\.\d))`,
    String.raw`(?<time>(?:[01]?\d|2[0-3]):[0-5]\d(?:\s?[ap]\.?m\.?(?![a-z]))?(?![\d:])|(?:1[0-2]|0?[1-9])\s?[ap]\.?m\.?(?![a-z]))`,
    // Separators only between digits ("$2,000," keeps its comma), and a k/m/bn scale only attached ("2m"):
    // "120 m" is metres.
    String.raw`(?<money>(?:${SIGN_PATTERN})\s?\d(?:\d|[,.  ](?=\d{3}(?!\d))|[.,](?=\d))*(?:(?:k|m|mm|mn|bn|b)(?![a-z]))?)`,
    // "80p": pence, written attached (one or two digits: "1080p" is a screen, and pounds are written as pounds).
    String.raw`(?<pence>(?<!\d)\d{1,2}p(?![a-z0-9]))`,
    // "4ab10", "7kqd215": digits, letters, digits is a code (a plate, a part), not a number and a word; one
    // letter between ("1h30", "3x4") is left to the readers of durations and sizes. A short prefix, a hyphen
    // and three digits or more ("LOT-4410", "APP-2027-00312") is a reference too, not a word and a negative
    // number ("covid-19", "tier-2" stay words and numbers). Initials joined by "&" ("A&E", "R&D", "P&L") are one name.
    String.raw`(?<code>(?<![a-z0-9])(?:\d+[a-z]{2,}\d[a-z0-9]*|[a-z]{1,6}-\d{3,}(?:-[a-z0-9]+)*|[a-z]{1,2}&[a-z]{1,2})(?![a-z0-9]))`,
    // ("water activity .58": a fraction written without its leading zero.)
    String.raw`(?<number>[-+]?(?:\d|(?<![\w.])\.(?=\d))(?:\d|[,.](?=\d))*(?:(?:k|m|mm|mn|bn|b)(?![a-z/]))?(?:\s?%)?)`,
    String.raw`(?<op>>=|<=|!=|==|=>|=|>|<|≥|≤|≠)`,
    String.raw`(?<path>[a-z][a-z0-9_]*(?:/[a-z][a-z0-9_+-]*)+)`,
    String.raw`(?<domain>(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?![a-z0-9-]))`,
    // "usd2750", "gbp8.99": a currency code glued to its amount (read as a word when it is no currency).
    String.raw`(?<glued>[a-z]{3}\d(?:\d|[,.](?=\d))*(?![a-z0-9_]))`,
    String.raw`(?<word>[a-z_\u00c0-\u024f][a-z0-9_\u00c0-\u024f]*(?:-[a-z][a-z0-9_]*)*(?:(?<=-[a-z][a-z0-9_]*)-\d+[a-z0-9]*)?(?:['’](?:s|t|re|ve|ll|d|m)\b)?)`,
    String.raw`(?<punct>[,;:()\[\]/°º℃℉\-–—.!?&+*$€£¥₹₩₽₺₪₫₱฿]|\s+)`,
  ].join("|"),
  "gy",
);

/** "1,200.50", "1.200,50", "2 500", "12k" → a number; undefined when the digits cannot be a number. */
export function readNumeral(raw: string): number | undefined {
  let text = raw.toLowerCase().replace(/[\s  ]/g, "");
  let multiplier = 1;
  const suffix = /(k|mm|mn|m|bn|b)$/.exec(text)?.[1];
  if (suffix) {
    multiplier = MULTIPLIERS[suffix]!;
    text = text.slice(0, -suffix.length);
  }
  text = text.replace(/[.,]$/, "");
  const commas = (text.match(/,/g) ?? []).length;
  const dots = (text.match(/\./g) ?? []).length;
  // Which mark is the decimal one: the last of two kinds; a lone comma with three digits after is grouping.
  if (commas > 0 && dots > 0) text = text.lastIndexOf(",") > text.lastIndexOf(".") ? text.replace(/\./g, "").replace(",", ".") : text.replace(/,/g, "");
  else if (commas > 0) text = commas === 1 && !/,\d{3}$/.test(text) ? text.replace(",", ".") : text.replace(/,/g, "");
  else if (dots > 1) text = text.replace(/\./g, "");
  const value = Number(text);
  return Number.isFinite(value) ? value * multiplier : undefined;
}

/**
 * An amount of money as written: "1.299" and "165.000" group thousands with dots, as much of Europe writes
 * them (money has no third decimal); anything else as readNumeral reads it.
 */
function moneyAmount(text: string, value: number): number {
  const digits = text.trim().replace(SIGN_AT_START, "");
  return /^\d{1,3}(?:\.\d{3})+$/.test(digits) ? Number(digits.replace(/\./g, "")) : value;
}

function clockMinutes(raw: string, meridiemHint?: "a" | "p"): number | undefined {
  const text = raw.replace(/[\s.]/g, "").toLowerCase();
  const meridiem = (/([ap])m$/.exec(text)?.[1] as "a" | "p" | undefined) ?? meridiemHint;
  const [h, m] = text.replace(/[ap]m$/, "").split(":");
  let hours = Number(h);
  const minutes = Number(m ?? 0);
  if (!Number.isInteger(hours) || hours > 24 || minutes > 59) return undefined;
  if (meridiem === "p" && hours < 12) hours += 12;
  if (meridiem === "a" && hours === 12) hours = 0;
  return (hours % 24) * 60 + minutes;
}

function readRange(raw: string): { from: number; to: number } | undefined {
  const [a, b] = raw.split(/\s?(?:-|–|—|to)\s?/);
  if (!a || !b) return undefined;
  // "9-6pm": the first takes the second's meridiem when it has none and would otherwise come after it.
  const toMeridiem = /([ap])\.?m\.?$/i.exec(b.trim())?.[1]?.toLowerCase() as "a" | "p" | undefined;
  const hasClock = /[:ap]/i.test(a) || /[:ap]/i.test(b);
  if (!hasClock) return undefined;
  const to = clockMinutes(b);
  let from = clockMinutes(a);
  if (from !== undefined && to !== undefined && !/[ap]/i.test(a) && toMeridiem && !a.includes(":")) {
    const withHint = clockMinutes(a, toMeridiem);
    if (withHint !== undefined && withHint < to) from = withHint;
  }
  return from === undefined || to === undefined ? undefined : { from, to };
}

function lex(text: string, spans?: Span[]): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const from = tokens.length;
    const start = at;
    LEXEME.lastIndex = at;
    const match = LEXEME.exec(text);
    if (!match || match.index !== at) {
      at++; // a character nothing reads (an emoji, a symbol): skipped, never an error
      continue;
    }
    at = LEXEME.lastIndex;
    const g = match.groups!;
    const raw = match[0];
    if (g.quoted !== undefined) tokens.push({ kind: "quoted", text: raw, value: raw.slice(1, -1) });
    else if (g.email !== undefined) tokens.push({ kind: "email", text: raw, address: raw, domain: raw.slice(raw.indexOf("@") + 1) });
    else if (g.tag !== undefined) tokens.push({ kind: "tag", text: raw, value: raw });
    else if (g.range !== undefined) {
      const range = readRange(raw);
      if (range) tokens.push({ kind: "time_range", text: raw, ...range });
      else {
        // Not two times ("9 to 5" without a clock, "0tO0"): its parts, each read on its own (never the
        // whole again, which would match the range once more).
        const parts = /^(.*?)\s?(-|–|—|to)\s?(.*)$/is.exec(raw)!;
        tokens.push(...[parts[1]!, parts[2]!, parts[3]!].flatMap((p) => lex(p)).filter((t) => t.kind !== "punct" || t.text.trim() !== ""));
      }
    } else if (g.time !== undefined) {
      const minutes = clockMinutes(raw);
      if (minutes !== undefined) tokens.push({ kind: "time", text: raw, minutes });
    } else if (g.money !== undefined) {
      const symbol = SIGN_AT_START.exec(raw)![1]!.toLowerCase();
      const value = readNumeral(raw.slice(symbol.length));
      if (value !== undefined) tokens.push({ kind: "money", text: raw.trim(), value: moneyAmount(raw, value), currency: SYMBOLS[symbol]! });
    } else if (g.pence !== undefined) {
      tokens.push({ kind: "money", text: raw, value: Number(raw.slice(0, -1)) / 100, currency: "GBP" });
    } else if (g.number !== undefined && /^\d{4,}m$/.test(raw.trim())) {
      // "2500m": four digits and more before an "m" are metres; a million is written "2.5bn" or "2,500m".
      tokens.push({ kind: "number", text: raw.slice(0, -1), value: Number(raw.slice(0, -1)) }, { kind: "word", text: "m", norm: "m" });
    } else if (g.number !== undefined) {
      const trimmed = raw.trim();
      const percent = trimmed.endsWith("%");
      const value = readNumeral(percent ? trimmed.slice(0, -1) : trimmed);
      if (value !== undefined) tokens.push(percent ? { kind: "percent", text: trimmed, value } : { kind: "number", text: trimmed, value });
    } else if (g.op !== undefined) {
      const op = ({ ">": "gt", ">=": "gte", "=>": "gte", "≥": "gte", "<": "lt", "<=": "lte", "≤": "lte", "=": "eq", "==": "eq", "!=": "neq", "≠": "neq" } as const)[raw]!;
      tokens.push({ kind: "op", text: raw, op });
    } else if (g.path !== undefined || g.ip !== undefined || g.code !== undefined) tokens.push({ kind: "word", text: raw, norm: raw });
    else if (g.domain !== undefined) tokens.push({ kind: "domain", text: raw, domain: raw.replace(/^\*\./, "") });
    else if (g.glued !== undefined) {
      // Only the currencies people glue to amounts: "cad1024" or "top100" is more likely a reference.
      const code = GLUED.has(raw.slice(0, 3)) ? currencyOfWord(raw.slice(0, 3)) : undefined;
      const value = readNumeral(raw.slice(3));
      if (code !== undefined && value !== undefined) tokens.push({ kind: "money", text: raw, value: moneyAmount(raw.slice(3), value), currency: code });
      else tokens.push({ kind: "word", text: raw, norm: raw });
    } else if (g.word !== undefined) tokens.push({ kind: "word", text: raw, norm: raw.replace(/’/g, "'") });
    else if (raw.trim() !== "") tokens.push({ kind: "punct", text: raw });
    // Every token read from this lexeme (a range that fell apart gives several) spans the lexeme.
    if (spans) for (let k = from; k < tokens.length; k++) spans[k] = { start, end: at };
  }
  return tokens;
}

type WordToken = Extract<Token, { kind: "word" }>;
// Not a type guard: a false answer (the word is not "percent") must not narrow the token to a non-word.
const isWord = (t: Token | undefined, ...norms: string[]): boolean => t?.kind === "word" && (norms.length === 0 || norms.includes(t.norm));
const wordOf = (t: Token | undefined): WordToken => t as WordToken;

/**
 * Joins what belongs to one value: a number and its currency ("500 usd", "usd 500", "500 euros"), its scale
 * ("1.5 million"), its percent sign in words ("20 percent", "per cent"), its unit ("50 kg", "2 hours", "30
 * degrees celsius"), numbers in words ("twelve hundred"), and clock words (noon, midnight).
 */
function join(tokens: Token[], spans?: Span[], outSpans?: Span[]): Token[] {
  const out: Token[] = [];
  const words = tokens.map((t) => (t.kind === "word" ? t.norm : ""));
  for (let i = 0; i < tokens.length; i++) {
    const first = i;
    const emitted = out.length;
    const previous = out.at(-1);
    // One step reads one value from tokens[first..i]; `break step` ends it, so
    // the span of what it emitted (or the previous value it extended) is set in one place below.
    step: {
    let t = tokens[i]!;
    // "a quarter of a million", "half a million", "a third of a thousand", "half a dozen": a fraction of a scale.
    if (t.kind === "word") {
      const at = t.norm === "a" || t.norm === "one" ? i + 1 : i;
      const fraction = { quarter: 0.25, half: 0.5, third: 1 / 3 }[words[at] ?? ""];
      const ofA = words[at + 1] === "of" && words[at + 2] === "a" ? 3 : words[at + 1] === "a" ? 2 : 0;
      const scale = ofA ? (MULTIPLIERS[words[at + ofA] ?? ""] ?? (words[at + ofA] === "dozen" ? 12 : undefined)) : undefined;
      if (fraction !== undefined && scale !== undefined && (words[at + ofA] ?? "").length > 2) {
        const last = at + ofA;
        tokens[last] = { kind: "number", text: tokens.slice(i, last + 1).map((x) => x.text).join(" "), value: fraction * scale };
        i = last - 1;
        break step;
      }
    }
    // "minus 2 °C", "negative seven degrees": the sign in words, before a number in figures or words. Not after
    // a value ("10 minus 2" is arithmetic nobody asks a tool to do, and "minus" there is not a sign).
    if (isWord(t, "minus", "negative") && !isValue(previous)) {
      const next = tokens[i + 1];
      const spelled = next?.kind === "word" ? readNumberWords(words, i + 1) : undefined;
      const value = next?.kind === "number" ? next.value : spelled?.value;
      if (value !== undefined && value > 0) {
        const last = i + (spelled?.length ?? 1);
        tokens[last] = { kind: "number", text: tokens.slice(i, last + 1).map((x) => x.text).join(" "), value: -value };
        i = last - 1;
        break step;
      }
    }
    // "half an hour", "one quarter of an hour", "three quarters of a kilogram", "a third of a litre": a fraction
    // of one unit.
    if (t.kind === "word") {
      const count = { a: 1, one: 1, two: 2, three: 3 }[words[i] ?? ""];
      const at = count !== undefined ? i + 1 : i;
      const part = { quarter: 0.25, quarters: 0.25, half: 0.5, third: 1 / 3, thirds: 1 / 3 }[words[at] ?? ""];
      const of = words[at + 1] === "of" ? 1 : 0;
      const unit = words[at + 1 + of];
      const one = ["a", "an"].includes(unit ?? "") ? words[at + 2 + of] : undefined;
      const unitWord = one !== undefined && (ONE_UNITS.has(one) || (!isAmbiguousUnitWord(one) && quantity(1, one) !== undefined));
      const q = part !== undefined && one && unitWord && (count !== undefined || part === 0.5) ? quantity((count ?? 1) * part, one) : undefined;
      // (A plural part goes with a count above one, a single one with one: "three quarters", "a third".)
      if (q && (part !== 0.25 || count !== undefined) && ((count ?? 1) > 1) === words[at]!.endsWith("s")) {
        const last = at + 2 + of;
        out.push({ kind: "quantity", text: tokens.slice(i, last + 1).map((x) => x.text).join(" "), quantity: q });
        i = last;
        break step;
      }
    }
    // A count and its unit joined as one adjective: "a two-year term", "a 2-year term", "a 10-minute call".
    if (t.kind === "word" && /^[a-z]+-[a-z]+$/.test(t.norm)) {
      const [count, unit] = t.norm.split("-") as [string, string];
      const spelled = readNumberWords([count], 0);
      const q = spelled && !isAmbiguousUnitWord(unit) ? quantity(spelled.value, unit) : undefined;
      if (q) {
        out.push({ kind: "quantity", text: t.text, quantity: q });
        break step;
      }
    }
    if (t.kind === "number" && tokens[i + 1]?.kind === "punct" && tokens[i + 1]!.text === "-" && isWord(tokens[i + 2]) && !isAmbiguousUnitWord(wordOf(tokens[i + 2]).norm)) {
      const q = quantity(t.value, wordOf(tokens[i + 2]).norm);
      if (q) {
        out.push({ kind: "quantity", text: `${t.text}-${wordOf(tokens[i + 2]).text}`, quantity: q });
        i += 2;
        break step;
      }
    }
    // Numbers in words become numbers first.
    if (t.kind === "word") {
      const spelled = readNumberWords(words, i);
      if (spelled) {
        const text = tokens.slice(i, i + spelled.length).map((x) => x.text).join(" ");
        t = { kind: "number", text, value: spelled.value };
        i += spelled.length - 1;
      } else if (t.norm === "one" && words[i + 1] === "or" && ["more", "fewer", "less", "above", "over", "greater", "higher", "below", "under"].includes(words[i + 2] ?? "")) {
        // "one or more open defects": a count with its bound after it.
        t = { kind: "number", text: t.text, value: 1 };
      } else if (t.norm === "one" && ["than", "least", "most"].includes(words[i - 1] ?? "") && /^[a-z]/.test(words[i + 1] ?? "") && !["of", "or", "and"].includes(words[i + 1] ?? "")) {
        // "more than one refund", "at most one booking": after a bound, "one" is the count.
        t = { kind: "number", text: t.text, value: 1 };
      } else if ((t.norm === "one" || (t.norm === "an" && words[i + 1] === "hour") || (t.norm === "a" && words[i + 1] === "fortnight") || (["a", "an"].includes(t.norm) && BOUNDS.has(words[i - 1] ?? ""))) && ONE_UNITS.has(words[i + 1] ?? "") && (t.norm === "one" || previous?.kind !== "quantity")) {
        // ("more than a day", "under a week", "at least a month": one of the unit after a bound; elsewhere "a
        // day" is what a count is per.)
        // "for one hour", "an hour": one of a unit of time (alone, "one" is an article). After a quantity
        // "an hour" is what it is per ("60 km an hour"), read below.
        t = { kind: "number", text: t.text, value: 1 };
      } else if (t.norm === "noon" || t.norm === "midday") t = { kind: "time", text: t.text, minutes: 720 };
      else if (t.norm === "midnight") t = { kind: "time", text: t.text, minutes: 0 };
    }
    const next = tokens[i + 1];
    if (t.kind === "number" || t.kind === "money") {
      // A scale word: "1.5 million", "$2 billion".
      if (isWord(next) && MULTIPLIERS[wordOf(next).norm] && wordOf(next).norm.length > 2) {
        t = { ...t, text: `${t.text} ${wordOf(next).text}`, value: t.value * MULTIPLIERS[wordOf(next).norm]! };
        i++;
      } else if (t.kind === "number" && isWord(next) && wordOf(next).norm === "grand" && !(isWord(tokens[i + 2]) && !GRAND_AFTER.has(wordOf(tokens[i + 2]!).norm))) {
        // "twenty-five grand", "30 grand": thousands of money, of whichever currency the action is in (as
        // "18 cents" is); not "2 grand pianos".
        t = { kind: "money", text: `${t.text} ${wordOf(next).text}`, value: t.value * 1e3, currency: "USD", anyCurrency: true };
        i++;
      }
    }
    const n1 = tokens[i + 1];
    const n2 = tokens[i + 2];
    if (t.kind === "number" && isWord(n1) && isWord(n2)) {
      // "100 US dollars", "200 pounds sterling": a two-word currency name.
      const currency2 = currencyOfWord(`${wordOf(n1).norm} ${wordOf(n2).norm}`);
      if (currency2) {
        out.push({ kind: "money", text: `${t.text} ${wordOf(n1).text} ${wordOf(n2).text}`, value: moneyAmount(t.text, t.value), currency: currency2 });
        i += 2;
        break step;
      }
    }
    if (t.kind === "number" && n1?.kind === "punct" && SYMBOLS[n1.text]) {
      // "5.000,50 €": the symbol after the amount.
      out.push({ kind: "money", text: `${t.text} ${n1.text}`, value: moneyAmount(t.text, t.value), currency: SYMBOLS[n1.text]! });
      i++;
      break step;
    }
    if (t.kind === "number") {
      const currency = isWord(n1) && !wordNotCode(wordOf(n1)) ? currencyOfWord(wordOf(n1).norm) : undefined;
      if (currency) {
        const minor = ["cents", "pence"].includes(n1!.text.toLowerCase());
        const value = minor ? t.value / 100 : t.value;
        // "ninety-five dollars and fifty cents": the minor part said as its own amount after the whole one.
        const whole = out.at(-2);
        if (minor && value < 1 && isWord(out.at(-1), "and") && whole?.kind === "money" && Number.isInteger(whole.value) && (whole.currency === currency || (currency === "USD" && whole.currency !== "GBP"))) {
          out.pop();
          out[out.length - 1] = { ...whole, text: `${whole.text} and ${t.text} ${n1!.text}`, value: whole.value + value };
          i++;
          if (spans && outSpans) outSpans[out.length - 1] = { start: outSpans[out.length - 1]!.start, end: spans[i]!.end };
          break step;
        }
        out.push({ kind: "money", text: `${t.text} ${n1!.text}`, value: minor ? value : moneyAmount(t.text, value), currency, ...(/^cents?$/i.test(n1!.text) ? { anyCurrency: true } : {}) });
        i++;
        break step;
      }
      if (isWord(n1, "percent", "pct", "percentage") || (isWord(n1, "per") && isWord(n2, "cent"))) {
        out.push({ kind: "percent", text: `${t.text} ${n1!.text}`, value: t.value });
        i += isWord(n1, "per") ? 2 : 1;
        break step;
      }
      // Two-word units first ("degrees celsius", "km per hour" is read by the parser as a rate).
      // (Not when either word is a preposition or article: "500 kg in total" is kilograms, not kg·inch, and
      // "101 at T2" no unit at all.)
      if (isWord(n1) && isWord(n2) && !isAmbiguousUnitWord(wordOf(n1).norm) && !isAmbiguousUnitWord(wordOf(n2).norm)) {
        const q2 = quantity(t.value, `${wordOf(n1).norm} ${wordOf(n2).norm}`);
        if (q2) {
          out.push({ kind: "quantity", text: `${t.text} ${wordOf(n1).text} ${wordOf(n2).text}`, quantity: q2 });
          i += 2;
          break step;
        }
      }
      // "2.0 m/s", "100 km/h" (a path token), "50 kg", "30 °C".
      // "25℃", "77℉": one character for the degree and its scale.
      const degreeSign = n1?.kind === "punct" && /[℃℉]/.test(n1.text);
      if (n1 && (n1.kind === "word" || (n1.kind === "punct" && /[°º℃℉]/.test(n1.text)))) {
        const unitText = degreeSign ? n1.text : n1.kind === "punct" && isWord(n2) ? `${n1.text}${wordOf(n2).norm}` : n1.kind === "word" ? (spokenKilometres(n1.norm, words, i + 2) ? "km" : n1.norm) : "";
        const q = unitText ? quantity(t.value, unitText) : undefined;
        if (q && !isAmbiguousUnitWord(unitText)) {
          out.push({ kind: "quantity", text: `${t.text} ${unitText}`, quantity: q });
          i += n1.kind === "punct" && !degreeSign ? 2 : 1;
          break step;
        }
      }
    }
    // "10 metres per second", "36 km an hour": a unit over time is one unit (speed, flow).
    const last = out.at(-1);
    // "two hours and a half", "2 days and a half": half of the unit more.
    if (isWord(t, "and") && last?.kind === "quantity" && previous === last && isWord(n1, "a") && isWord(n2, "half")) {
      out[out.length - 1] = { ...last, text: `${last.text} and a half`, quantity: { ...last.quantity, value: last.quantity.value + 0.5 } };
      i += 2;
      break step;
    }
    // "thirty-one pounds fifteen", "12 dollars 50 each": the minor part after a currency in words,
    // when nothing after it makes it a count of something else ("12 dollars 3 copies").
    if (t.kind === "number" && last?.kind === "money" && previous === last && /[a-z]$/i.test(last.text) && Number.isInteger(last.value) && Number.isInteger(t.value) && t.value > 0 && t.value < 100 && (!isWord(n1) || isWord(n1, "each", "per", "apiece", "a", "as", "for", "to", "on", "and", "in", "at", "from", "by", "with", "because", "please") || !countsThings(wordOf(n1).norm))) {
      out[out.length - 1] = { ...last, text: `${last.text} ${t.text}`, value: last.value + t.value / 100 };
      break step;
    }
    // "ninety-five dollars and fifty cents": the minor part said as its own amount.
    // "4 kg per hectare", "2 litres per tonne": a unit over any other unit, said with "per".
    const overTime = t.kind === "word" && ["per", "an", "a"].includes(t.norm) && n1?.kind === "word" && ["second", "sec", "minute", "min", "hour", "hr", "h", "day"].includes(n1.norm.replace(/s$/, ""));
    // ("per square metre": a unit of two words.)
    const perTwo = isWord(t, "per") && isWord(n1) && isWord(n2) ? quantity(1, `${wordOf(n1).norm} ${wordOf(n2).norm}`) : undefined;
    const perOne = !perTwo && isWord(t, "per") && isWord(n1) && !isAmbiguousUnitWord(wordOf(n1).norm) ? quantity(1, wordOf(n1).norm) : undefined;
    if (t.kind === "word" && (overTime || perTwo || perOne) && last?.kind === "quantity" && last.quantity.kind !== "time" && n1?.kind === "word" && previous === last) {
      const bottom = overTime ? ({ second: "s", sec: "s", minute: "min", min: "min", hour: "h", hr: "h", h: "h", day: "day" } as Record<string, string>)[n1.norm.replace(/s$/, "")]! : (perTwo ?? perOne)!.unit;
      const q = quantity(last.quantity.value, `${last.quantity.unit}/${bottom}`);
      if (q) {
        const words = perTwo ? 2 : 1;
        out[out.length - 1] = { kind: "quantity", text: `${last.text} ${t.text} ${tokens.slice(i + 1, i + 1 + words).map((x) => x.text).join(" ")}`, quantity: q };
        i += words;
        break step;
      }
    }
    // "2 degrees every 30 minutes", "5 litres every hour": an amount each time so long passes is that much
    // per the length (here 1/15 degree a minute, 4 an hour).
    const every = isWord(t, "every", "each") && last?.kind === "quantity" && previous === last && last.quantity.kind !== "time" ? (n1?.kind === "number" && isWord(n2) ? quantity(n1.value, wordOf(n2).norm) : isWord(n1) ? quantity(1, wordOf(n1).norm) : undefined) : undefined;
    if (every?.kind === "time" && every.value > 0 && last?.kind === "quantity") {
      const top = last.quantity.unit === "tempC" ? "degC" : last.quantity.unit === "tempF" ? "degF" : last.quantity.unit;
      const q = quantity(last.quantity.value / every.value, `${top}/${every.unit}`);
      if (q?.kind !== undefined) {
        const words = n1?.kind === "number" ? 2 : 1;
        out[out.length - 1] = { kind: "quantity", text: `${last.text} ${t.text} ${tokens.slice(i + 1, i + 1 + words).map((x) => x.text).join(" ")}`, quantity: q };
        i += words;
        break step;
      }
    }
    if (t.kind === "word" && (t.norm.length === 3 || t.norm === "kr") && n1?.kind === "number") {
      // ("kr 450": the crowns' sign written before the amount, as a code is.)
      const currency = currencyOfWord(t.norm);
      if (currency && (currency === t.norm.toUpperCase() || t.norm === "kr")) {
        out.push({ kind: "money", text: `${t.text} ${n1.text}`, value: moneyAmount(n1.text, n1.value), currency });
        i++;
        break step;
      }
    }
    if (t.kind === "money" && isWord(n1)) {
      // "$500 usd", "$500 CAD": the code says which dollar; keep it. A code of another family after the
      // symbol is a word that spells one ("£3,180 all in" is not Albanian lek).
      const currency = currencyOfWord(wordOf(n1).norm);
      const sameFamily = currency === t.currency || (t.currency === "USD" && /D$/.test(currency ?? ""));
      if (currency && wordOf(n1).norm.length === 3 && sameFamily) {
        out.push({ ...t, text: `${t.text} ${wordOf(n1).text}`, currency });
        i++;
        break step;
      }
    }
    // "9-6 business hours", "8–17 Berlin working hours": two bare hours joined by a dash before the name
    // of a working day are a range of clock times (an end not after the start is in the afternoon).
    if (t.kind === "number" && n1?.kind === "punct" && /^[-–—]$/.test(n1.text) && n2?.kind === "number" && Number.isInteger(t.value) && Number.isInteger(n2.value) && t.value >= 0 && t.value <= 23 && n2.value >= 1 && n2.value <= 24) {
      // (At most a word between, a city or zone: "9-6 Berlin business hours".)
      const after = tokens.slice(i + 3, i + 7);
      const named = after.findIndex((x) => isWord(x, "business", "working", "office", "opening", "work", "trading"));
      if (named >= 0 && named <= 1 && after.slice(0, named).every((x) => isWord(x)) && isWord(after[named + 1], "hours", "hrs", "day", "time")) {
        const to = n2.value <= t.value && n2.value <= 12 ? n2.value + 12 : n2.value;
        out.push({ kind: "time_range", text: `${t.text}-${n2.text}`, from: (t.value % 24) * 60, to: (to % 24) * 60 });
        i += 2;
        break step;
      }
    }
    if (t.kind === "time" && isWord(n1) && /^[ap]m$/.test(wordOf(n1).norm)) {
      const minutes = clockMinutes(`${t.text}${wordOf(n1).norm}`);
      if (minutes !== undefined) {
        out.push({ kind: "time", text: `${t.text} ${wordOf(n1).text}`, minutes });
        i++;
        break step;
      }
    }
    out.push(t);
    }
    if (spans && outSpans) {
      const span = { start: spans[first]!.start, end: spans[i]!.end };
      for (let k = emitted; k < out.length; k++) outSpans[k] = span;
      if (out.length === emitted && out.at(-1) !== previous && outSpans[out.length - 1]) outSpans[out.length - 1] = { start: outSpans[out.length - 1]!.start, end: spans[i]!.end };
    }
  }
  return out;
}

// A plural after "12 dollars 3" says what the 3 counts ("3 copies"); grammar words that end in s do not.
// "sixty k's an hour", "80 ks per hour", "40 klicks an hour": kilometres as people say them, only when a
// time follows ("60k" alone is sixty thousand, "k" alone a kelvin).
const spokenKilometres = (word: string, words: readonly string[], at: number) =>
  /^(?:k|ks|k's|kays|klicks?)$/.test(word) && ["an", "a", "per"].includes(words[at] ?? "") && /^(?:hour|hr|h)s?$/.test(words[at + 1] ?? "");

const countsThings = (w: string) => /[^s]s$/.test(w) && w.length >= 4 && !["this", "thus", "plus", "does", "yes", "always", "perhaps", "unless"].includes(w);

// Words a bound ends with, before the amount it bounds.
const BOUNDS = new Set(["than", "over", "under", "within", "least", "most", "exceeding", "beyond", "past"]);
const ONE_UNITS = new Set(["hour", "fortnight", "minute", "second", "day", "week", "month", "year", "night", "kilogram", "kg", "metre", "meter", "litre", "liter"]);

// Words js-quantities reads as units that, after a number, are almost always something else: "3 refunds
// per hour" is handled as a rate, "500 units" is a count, "in" is a preposition, "a" an article.
// "as", "am", "pm" and "us" are English before they are attoseconds, attometres, picometres and microseconds.
const COUNT_WORDS = new Set(["in", "a", "at", "units", "unit", "each", "per", "of", "or", "and", "to", "for", "on", "by", "mile", "as", "am", "pm", "us"]);
const isAmbiguousUnitWord = (w: string) => COUNT_WORDS.has(w);

/** Tokens of a text, values typed. Lower-cases everything but quoted text and tags' case is kept as text. */
export function tokenize(input: string): Token[] {
  return join(lex(normalise(input)));
}

const normalise = (input: string) =>
  input
    .slice(0, 4000)
    .replace(/[\u0000-\u001f]/g, " ")
    .replace(/[’‘]/g, "'")
    // "−1.5 °C" (the minus sign), "–3 °C" (an en dash standing alone before a number, not between two):
    // a negative number. One character for one, so spans stay where they were.
    .replace(/\u2212(?=\d)/g, "-")
    .replace(/(?<!\d\s*)(?<=^|[\s(:=])\u2013(?=\d)/g, "-")
    // "CHF 1'190", "12'500.50": an apostrophe grouping thousands, as Switzerland writes them.
    .replace(/(?<=\d)'(?=\d{3}(?!\d))/g, ",")
    // "kr 2 450,75", "SEK 18 900", "1 320,40 €": thousands grouped by spaces, as much of Europe writes
    // money: the same number with commas grouping and a point, one character for one. (Only beside a
    // currency or with a decimal comma: "2 100-litre drums" are two numbers.)
    .replace(SPACED_THOUSANDS, spacedThousands)
    // "m³", "ft²": a power of a unit, as js-quantities writes it ("m3", "ft2"), one character for one.
    .replace(/(?<=[a-z])³/gi, "3")
    .replace(/(?<=[a-z])²/gi, "2")
    .toLowerCase()
    .replace(SPELT_UNIT, spelledUnit);

const SPACED_THOUSANDS = /(?<![\d,.])(\d{1,3})((?:[ \u00a0\u202f]\d{3})+)(,\d{1,2})?(?![\d]|[.,]\d)/g;
const MONEY_BEFORE = /(?:[$€£¥₹]|\b[a-z]{2,3}\.?)\s?$/i;
const MONEY_AFTER = /^\s?(?:[$€£¥₹]|[a-z]{2,3}\b)/i;
function spacedThousands(m: string, head: string, groups: string, decimals: string | undefined, at: number, text: string): string {
  const before = MONEY_BEFORE.exec(text.slice(Math.max(0, at - 5), at))?.[0].trim().replace(/\.$/, "");
  const after = MONEY_AFTER.exec(text.slice(at + m.length, at + m.length + 5))?.[0].trim();
  const money = (w: string | undefined) => w !== undefined && (SYMBOLS[w.toLowerCase()] !== undefined || currencyOfWord(w) !== undefined);
  if (!decimals && !money(before) && !money(after)) return m;
  return `${head}${groups.replace(/[ \u00a0\u202f]/g, ",")}${decimals ? `.${decimals.slice(1)}` : ""}`;
}

// "thirty-six k-m-h", "12 k.g.": a unit's letters spelt out one by one, as a voice transcript writes them.
// (The letters come first and the number is looked back for only where they stand: every text is searched.)
const SPELT_UNIT = /\b([a-z])[-.]([a-z])(?:[-.]([a-z]))?\.?(?![a-z\d])(?<=(\S+)\s?\b[a-z][-.][a-z](?:[-.][a-z])?\.?)/g;

/** The spelt letters joined (padded, one character for one) where they name a unit after a number. */
function spelledUnit(m: string, first: string, second: string, third: string | undefined, before: string): string {
  const joined = `${first}${second}${third ?? ""}`;
  const counted = /\d$/.test(before) || readNumberWords(before.split("-"), 0) !== undefined;
  return counted && quantity(1, joined) !== undefined ? joined.padEnd(m.length, " ") : m;
}

/**
 * Tokens with where each stands in the input, so a reader can take a value's own spelling ("UA901",
 * "Kestrel Labs") and the words around it from the original text.
 */
export function tokenizeWithSpans(input: string): { tokens: Token[]; spans: Span[] } {
  const text = normalise(input);
  const rawSpans: Span[] = [];
  const raw = lex(text, rawSpans);
  const spans: Span[] = [];
  const tokens = join(raw, rawSpans, spans);
  // Lower-casing can lengthen a few characters (U+0130); spans then stay within the text.
  return { tokens, spans: spans.map((s) => ({ start: Math.min(s.start, input.length), end: Math.min(s.end, input.length) })) };
}

export const isValue = (t: Token | undefined): t is ValueToken => !!t && t.kind !== "word" && t.kind !== "punct" && t.kind !== "op";

/** Text to match as written inside a regular expression built from words, names or values. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
