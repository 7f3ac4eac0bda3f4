// The policy sentence as tokens. Values are recognised here (amounts with currencies, percentages, clock
// times, e-mail domains, quoted strings) so the parser deals in words and values, never in characters.

export type Token =
  | { kind: "word"; text: string; norm: string }
  | { kind: "number"; text: string; value: number }
  | { kind: "money"; text: string; value: number; currency: string }
  | { kind: "percent"; text: string; value: number }
  /** Minutes after midnight. */
  | { kind: "time"; text: string; minutes: number }
  | { kind: "domain"; text: string; domain: string }
  | { kind: "quoted"; text: string; value: string }
  | { kind: "op"; text: string; op: "gt" | "gte" | "lt" | "lte" | "eq" | "neq" }
  | { kind: "comma"; text: string };

const SYMBOLS: Record<string, string> = { $: "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR" };
export const CURRENCY_WORDS: Record<string, string> = {
  usd: "USD",
  dollar: "USD",
  dollars: "USD",
  eur: "EUR",
  euro: "EUR",
  euros: "EUR",
  gbp: "GBP",
  pound: "GBP",
  pounds: "GBP",
  jpy: "JPY",
  yen: "JPY",
  chf: "CHF",
  cad: "CAD",
  aud: "AUD",
  inr: "INR",
};
// Number words a rule may spell out ("zero replicas"); "one" and "no" are left as words ("one of", "no more than").
const NUMBER_WORDS: Record<string, number> = { zero: 0, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, twenty: 20, fifty: 50, hundred: 100 };
const MULTIPLIERS: Record<string, number> = { k: 1_000, m: 1_000_000, b: 1_000_000_000 };

// One regular expression with a named group per lexeme; order matters (longest, most specific first).
const LEXEME = new RegExp(
  [
    String.raw`(?<quoted>"[^"]*"|'[^']*'|“[^”]*”|‘[^’]*’)`,
    String.raw`(?<email>[a-z0-9._%+-]*@[a-z0-9-]+(?:\.[a-z0-9-]+)+)`,
    String.raw`(?<time>(?:[01]?\d|2[0-3]):[0-5]\d(?:\s?[ap]\.?m\.?)?(?![\d:])|(?:1[0-2]|0?[1-9])\s?[ap]\.?m\.?(?![a-z]))`,
    String.raw`(?<money>[$€£¥₹]\s?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?[kmb](?![a-z]))?)`,
    String.raw`(?<number>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?[kmb](?![a-z]))?%?)`,
    String.raw`(?<op>>=|<=|!=|==|=|>|<|≥|≤|≠)`,
    String.raw`(?<domain>(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?![a-z0-9-]))`,
    String.raw`(?<word>[a-z_][a-z0-9_/+-]*(?:'[a-z]+)?)`,
    String.raw`(?<comma>[,;])`,
    String.raw`(?<space>\s+|[.!?:()](?=\s|$)|[()])`,
  ].join("|"),
  "gy",
);

function parseNumber(raw: string): number {
  const compact = raw.replace(/[,\s]/g, "");
  const suffix = compact.at(-1)!;
  const multiplier = MULTIPLIERS[suffix];
  return multiplier ? Number(compact.slice(0, -1)) * multiplier : Number(compact);
}

function clockMinutes(raw: string): number {
  const text = raw.replace(/[\s.]/g, "");
  const meridiem = /([ap])m$/.exec(text)?.[1];
  const [h, m] = text.replace(/[ap]m$/, "").split(":");
  let hours = Number(h);
  if (meridiem === "p" && hours < 12) hours += 12;
  if (meridiem === "a" && hours === 12) hours = 0;
  return hours * 60 + Number(m ?? 0);
}

export class LexError extends Error {
  constructor(
    readonly fragment: string,
    readonly position: number,
  ) {
    super(`cannot read "${fragment}"`);
  }
}

/** Splits a sentence into tokens; throws LexError on a character sequence no lexeme reads. */
export function tokenize(sentence: string): Token[] {
  const text = sentence.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim().replace(/[.!]+$/, "");
  const tokens: Token[] = [];
  LEXEME.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    LEXEME.lastIndex = at;
    const match = LEXEME.exec(text);
    if (!match || match.index !== at) {
      const fragment = text.slice(at).split(" ")[0]!;
      throw new LexError(fragment, tokens.length);
    }
    at = LEXEME.lastIndex;
    const g = match.groups!;
    const raw = match[0];
    if (g.space !== undefined) continue;
    if (g.quoted !== undefined) tokens.push({ kind: "quoted", text: raw, value: raw.slice(1, -1) });
    else if (g.email !== undefined) tokens.push({ kind: "domain", text: raw, domain: raw.slice(raw.indexOf("@") + 1) });
    else if (g.time !== undefined) tokens.push({ kind: "time", text: raw, minutes: clockMinutes(raw) });
    else if (g.money !== undefined) tokens.push({ kind: "money", text: raw, value: parseNumber(raw.slice(1)), currency: SYMBOLS[raw[0]!]! });
    else if (g.number !== undefined) {
      if (raw.endsWith("%")) tokens.push({ kind: "percent", text: raw, value: parseNumber(raw.slice(0, -1)) });
      else tokens.push({ kind: "number", text: raw, value: parseNumber(raw) });
    } else if (g.op !== undefined) {
      const op = ({ ">": "gt", ">=": "gte", "≥": "gte", "<": "lt", "<=": "lte", "≤": "lte", "=": "eq", "==": "eq", "!=": "neq", "≠": "neq" } as const)[raw]!;
      tokens.push({ kind: "op", text: raw, op });
    } else if (g.domain !== undefined) tokens.push({ kind: "domain", text: raw, domain: raw.replace(/^\*\./, "") });
    else if (g.word !== undefined) tokens.push({ kind: "word", text: raw, norm: raw });
    else tokens.push({ kind: "comma", text: raw });
  }
  return joinUnits(tokens);
}

// "500 usd", "usd 500", "20 percent", "9 o'clock" are one value each.
function joinUnits(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    if (t.kind === "number" && next?.kind === "word" && CURRENCY_WORDS[next.norm]) {
      out.push({ kind: "money", text: `${t.text} ${next.text}`, value: t.value, currency: CURRENCY_WORDS[next.norm]! });
      i++;
    } else if (t.kind === "word" && CURRENCY_WORDS[t.norm] && t.norm.length === 3 && next?.kind === "number") {
      out.push({ kind: "money", text: `${t.text} ${next.text}`, value: next.value, currency: CURRENCY_WORDS[t.norm]! });
      i++;
    } else if (t.kind === "money" && next?.kind === "word" && CURRENCY_WORDS[next.norm]) {
      // "$500 usd": the symbol already said it; keep the explicit code.
      out.push({ ...t, text: `${t.text} ${next.text}`, currency: CURRENCY_WORDS[next.norm]! });
      i++;
    } else if (t.kind === "number" && next?.kind === "word" && (next.norm === "percent" || next.norm === "pct")) {
      out.push({ kind: "percent", text: `${t.text} ${next.text}`, value: t.value });
      i++;
    } else if (t.kind === "word" && NUMBER_WORDS[t.norm] !== undefined) {
      out.push({ kind: "number", text: t.text, value: NUMBER_WORDS[t.norm]! });
    } else if (t.kind === "word" && (t.norm === "noon" || t.norm === "midday")) {
      out.push({ kind: "time", text: t.text, minutes: 12 * 60 });
    } else if (t.kind === "word" && t.norm === "midnight") {
      out.push({ kind: "time", text: t.text, minutes: 0 });
    } else out.push(t);
  }
  return out;
}

/** The first amount written in a text ("refund $900 to Bob" → 900 USD), for actions described in words. */
export function amountIn(text: string): { value: number; currency: string } | undefined {
  try {
    const money = tokenize(text.slice(0, 2000)).find((t) => t.kind === "money");
    return money?.kind === "money" ? { value: money.value, currency: money.currency } : undefined;
  } catch {
    return undefined;
  }
}
