// The values a turn holds, read once: typed values from the language layer (money with currency,
// percentages, quantities with units, numbers in digits or words, clock times, e-mail addresses, quoted
// text), dates (ISO or written out), and runs of capitalised words that may be names. Each value keeps
// where it stands and the words around it, which say what it is for ("payload 45 kg", "from LIS").
import { readDates, spokenTimeSpans, type DateMention, type DateOrder } from "../../language/dates.ts";
import { conceptsOf } from "../../language/lemmas.ts";
import { isKnownWord } from "../../language/nlp.ts";
import { readFractionWords, readNumberWords } from "../../language/numbers.ts";
import { tokenizeWithSpans, type Span, type Token } from "../../language/tokens.ts";
import { convert, quantity, type Quantity } from "../../language/units.ts";

export type Value =
  | { kind: "money"; amount: number; currency: string | undefined; scaled: boolean }
  | { kind: "number"; amount: number; scaled: boolean; grouped: boolean }
  | { kind: "percent"; amount: number }
  | { kind: "quantity"; quantity: Quantity }
  | { kind: "date"; date: DateMention }
  | { kind: "email"; address: string }
  | { kind: "quoted"; text: string }
  | { kind: "name"; text: string; words: number }
  /** A word-shaped identifier: "#4471", "cus_88213", "v2.3.1", "billing-api". */
  | { kind: "token"; text: string };

export interface Found {
  value: Value;
  span: Span;
  /** The value as written. */
  raw: string;
  /** Lower-case words before the value in its clause, nearest first (at most six). */
  left: string[];
  /** Lower-case words after it in its clause, nearest first (at most four). */
  right: string[];
  /** How many of `left` and `right` come before a comma (or, after the value, an "and"): words past it label the list's next item. */
  near?: { left: number; right: number };
}

/** The words around a value in its clause. */
export type Context = Pick<Found, "left" | "right" | "near">;

export interface Turn {
  text: string;
  found: Found[];
  /** Every word of the turn, lower case, with its span: for enum values, booleans and labelled text. */
  words: { word: string; span: Span }[];
  /** Tokens and their spans, for readers that need the typed stream. */
  tokens: Token[];
  spans: Span[];
}

const MONTHS_AND_DAYS = new Set(["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "today", "tomorrow"]);
// Words that end a clause for the purpose of context: a value's cue does not reach across them.
const CLAUSE_END = /[.;!?\n]/;

/** The words before and after a span in its clause, nearest first. */
export function contextOf(text: string, words: Turn["words"], span: Span): Context {
  const left: string[] = [];
  const near = { left: Infinity, right: Infinity };
  for (let i = words.length - 1; i >= 0 && left.length < 6; i--) {
    const w = words[i]!;
    if (w.span.end > span.start) continue;
    const gap = text.slice(w.span.end, left.length === 0 ? span.start : words[i + 1]!.span.start);
    if (CLAUSE_END.test(gap)) break;
    if (near.left === Infinity && (gap.includes(",") || w.word === "and")) near.left = left.length + (w.word === "and" ? 1 : 0);
    left.push(w.word);
  }
  const right: string[] = [];
  for (let i = 0; i < words.length && right.length < 4; i++) {
    const w = words[i]!;
    if (w.span.start < span.end) continue;
    const gap = text.slice(right.length === 0 ? span.end : words[i - 1]!.span.end, w.span.start);
    if (CLAUSE_END.test(gap.replace(/\.(?=\d)/g, ""))) break;
    if (near.right === Infinity && (/,(?!\d)/.test(gap) || w.word === "and")) near.right = right.length;
    right.push(w.word);
  }
  return { left, right, near };
}

export const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;

/** Runs of capitalised words that are not the first word of a sentence alone, months, or codes. */
function nameRuns(text: string, taken: Span[]): { span: Span; text: string; words: number }[] {
  const out: { span: Span; text: string; words: number }[] = [];
  const re = /(?<![\w@.'-])(?:[A-Z][a-z'’]+(?:-[A-Z]?[a-z]+)*|[A-Z]{2,}(?=[a-z]))(?:\s+(?:(?:de|da|van|von|der|del|la|le|di|du|al|bin|ter)\s+)?(?:[A-Z][a-z'’]+(?:-[A-Z]?[a-z]+)*|&|[A-Z]{2,}\b(?![-\d])))*/g;
  for (const m of text.matchAll(re)) {
    let value = m[0].replace(/\s+&$/, "");
    let start = m.index!;
    // A sentence's first word is capitalised anyway: it starts a name only when more capitals follow.
    const sentenceStart = start === 0 || /[.!?:\n]\s*$/.test(text.slice(Math.max(0, start - 3), start)) || /^\s*[-*•]\s*$/.test(text.slice(text.lastIndexOf("\n", start - 1) + 1, start));
    let parts = value.split(/\s+/);
    if (sentenceStart && parts.length >= 1) {
      // "Book Bergen …": a verb at the start is dropped; "Ada Szymborska from …": kept.
      const first = parts[0]!.toLowerCase();
      const concepts = conceptsOf(first);
      // (Other forms of a word the lexicon does not know, "Ines" read as the plural of "ine", are no sign.)
      const common = (concepts.size > 1 && (isKnownWord(first) || [...concepts].some((c) => c.startsWith(":")))) || /^(please|hi|hello|hey|can|could|would|we|i|the|a|an|our|my|this|that|and|but|so|also|then|yes|no|ok|okay|thanks|new|add|log|book|send|create|set)$/.test(first);
      if (common || parts.length === 1) {
        parts = parts.slice(1);
        if (parts.length === 0) continue;
        start = text.indexOf(parts[0]!, start + first.length);
        value = parts.join(" ");
      }
    }
    while (parts.length > 0 && MONTHS_AND_DAYS.has(parts.at(-1)!.toLowerCase())) parts.pop();
    while (parts.length > 0 && MONTHS_AND_DAYS.has(parts[0]!.toLowerCase())) {
      start = text.indexOf(parts[1] ?? "", start + parts[0]!.length);
      parts.shift();
    }
    if (parts.length === 0) continue;
    value = parts.join(" ");
    const span = { start, end: start + value.length };
    if (taken.some((t) => overlaps(t, span))) continue;
    out.push({ span, text: value, words: parts.length });
  }
  return out;
}

/**
 * Reads a turn's values. `now` anchors dates written without a year or relative to today; `order` is how
 * the conversation or the workspace writes numeric dates.
 */
export function readTurn(original: string, now: Date, order?: DateOrder): Turn {
  const text = withoutForwardedHeaders(original);
  const { tokens, spans } = tokenizeWithSpans(text);
  let words: Turn["words"] = [];
  // Arrows stand for "to" ("bay 3 → bay 5").
  for (const m of text.matchAll(/→|->|=>|⟶/g)) words.push({ word: "to", span: { start: m.index!, end: m.index! + m[0].length } });
  tokens.forEach((t, i) => {
    // A number or quantity is a word too as written ("50mm", "4k"): enum values are spelt that way.
    if (t.kind === "number" || t.kind === "quantity") words.push({ word: text.slice(spans[i]!.start, spans[i]!.end).replace(/\s+/g, "").toLowerCase(), span: spans[i]! });
    if (t.kind !== "word") return;
    // A possessive is its noun ("the children's fund" names children).
    const norm = t.norm.replace(/'s$/, "");
    for (const part of norm.split(/[-_]/)) if (part) words.push({ word: part === norm ? norm : part, span: spans[i]! });
    // "e-mail", "check-in": the joined spelling is a word too.
    if (/^[a-z]+-[a-z]+$/.test(t.norm) && t.norm.split("-")[0]!.length <= 2) words.push({ word: t.norm.replace("-", ""), span: spans[i]! });
  });
  words = words.sort((a, b) => a.span.start - b.span.start);
  const found: Found[] = [];
  const dates = readDates(text, now, order);
  const dateSpans = [...dates.map((d) => ({ start: d.start, end: d.end })), ...spokenTimeSpans(text)];
  // A date whose day and month could be either way round is no value (its numbers are no other value
  // either): the parameter is asked for rather than filled with a guess.
  for (const d of dates) if (!d.orderUnsure) found.push({ value: { kind: "date", date: d }, span: { start: d.start, end: d.end }, raw: text.slice(d.start, d.end), ...contextOf(text, words, d) });
  tokens.forEach((t, i) => {
    let span = spans[i]!;
    // "#4471." at the end of a sentence: the full stop is not part of it.
    if (t.kind === "tag" || t.kind === "word") while (span.end > span.start + 1 && /[.,:;]/.test(text[span.end - 1]!)) span = { start: span.start, end: span.end - 1 };
    let value: Value | undefined;
    if (t.kind === "money") value = { kind: "money", amount: t.value, currency: t.currency, scaled: /\d\s?(k|m|mm|bn|b|thousand|million|billion)\b/i.test(t.text) };
    else if (t.kind === "number") value = { kind: "number", amount: t.value, scaled: /\d\s?(k|m|mm|bn|b|thousand|million|billion)$/i.test(t.text), grouped: /\d[,.\s]\d{3}(?!\d)/.test(t.text) };
    else if (t.kind === "percent") value = { kind: "percent", amount: t.value };
    else if (t.kind === "quantity") value = { kind: "quantity", quantity: t.quantity };
    else if (t.kind === "email") value = { kind: "email", address: text.slice(span.start, span.end) };
    else if (t.kind === "quoted") value = { kind: "quoted", text: text.slice(span.start + 1, span.end - 1).trim() };
    else if (t.kind === "tag") value = { kind: "token", text: text.slice(span.start, span.end) };
    else if (t.kind === "word") value = ageOrTimes(t.norm, text.slice(span.start, span.end)) ?? (/\d/.test(t.norm) || /[a-z0-9][-_][a-z0-9]/.test(t.norm) ? { kind: "token", text: text.slice(span.start, span.end) } : undefined);
    if (value?.kind === "number" && /\d\.\d+\.\d/.test(t.text)) value = { kind: "token", text: text.slice(span.start, span.end) };
    // "-12" glued to a word ("R-12", "ORD-12") is part of a code, not a negative number.
    if (value && (value.kind === "number" || value.kind === "quantity" || value.kind === "percent") && span.start > 0 && /[A-Za-z]-$/.test(text.slice(Math.max(0, span.start - 1), span.start + 1))) return;
    if (!value) return;
    // Numbers inside a date ("March 15, 2027") belong to the date.
    if (value.kind !== "email" && value.kind !== "quoted" && value.kind !== "token" && dateSpans.some((d) => overlaps(d, span))) return;
    const context = contextOf(text, words, span);
    // "ninety pounds": pounds in words are money or weight; both readings stand, and the
    // schema's fields choose (the same span fills one parameter). Pounds "of" something are its weight.
    const weight = value.kind === "money" && /\bpounds?$/i.test(t.text) ? quantity(value.amount, "lb") : undefined;
    if (!(weight && context.right[0] === "of")) found.push({ value, span, raw: text.slice(span.start, span.end), ...context });
    if (weight) found.push({ value: { kind: "quantity", quantity: weight }, span, raw: text.slice(span.start, span.end), ...context });
  });
  // Codes the tokenizer reads in pieces ("A-77" is a letter and a number to it): one token each.
  for (const m of text.matchAll(/(?<![\w@.#-])[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*[-_]\d[A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*(?![\w@-])/g)) {
    const span = { start: m.index!, end: m.index! + m[0].length };
    if (found.some((f) => f.value.kind === "token" && f.span.start === span.start && f.span.end === span.end)) continue;
    for (let k = found.length - 1; k >= 0; k--) if (overlaps(found[k]!.span, span) && found[k]!.value.kind !== "email") found.splice(k, 1);
    found.push({ value: { kind: "token", text: m[0] }, span, raw: m[0], ...contextOf(text, words, span) });
  }
  fractionsInWords(text, words, found);
  joinDurations(text, words, found);
  const taken = found.map((f) => f.span);
  for (const run of nameRuns(text, taken)) found.push({ value: { kind: "name", text: run.text, words: run.words }, span: run.span, raw: run.text, ...contextOf(text, words, run.span) });
  found.sort((a, b) => a.span.start - b.span.start);
  return { text, found, words, tokens, spans };
}

/**
 * "a six-year-old", "3-month-old": an age, a length of time; "x7", "×12" after what is counted ("keeper
 * days x7"): a count. (A capital X with digits is a name or a code: "X7".)
 */
function ageOrTimes(norm: string, written: string): Value | undefined {
  const age = /^([a-z]+|\d{1,3})-(year|month|week|day)s?-old$/.exec(norm);
  if (age) {
    const n = /^\d/.test(age[1]!) ? Number(age[1]) : readNumberWords([age[1]!], 0)?.value;
    const length = n === undefined ? undefined : quantity(n, `${age[2]}s`);
    return length ? { kind: "quantity", quantity: length } : undefined;
  }
  const times = /^[x×](\d{1,3})$/.exec(written);
  return times ? { kind: "number", amount: Number(times[1]), scaled: false, grouped: false } : undefined;
}

// Words after a fraction that make it no share of a whole the request sets ("half past nine", "half of them",
// "half an hour", "a quarter to five").
const NOT_A_SHARE = new Set(["of", "a", "an", "past", "to", "the", "hour", "hours", "day", "days", "way", "time", "price", "off", "as"]);

/**
 * "at three-quarter load", "run it at half capacity", "two thirds full": a fraction in words before what it
 * is a share of is a percentage (a load, a fill, a capacity), which a percent or 0–1 parameter takes. It
 * replaces what the tokenizer read of the same words ("three-quarter" as three quarters of a year, "two" as
 * a number).
 */
const FRACTION_WORDS = /(?<![\w-])((?:a|an|one|two|three|four|five|six|seven|eight|nine)[\s-]+(?:halves|thirds?|quarters?|fifths?|tenths?)|half)(?![\w-])\s+([a-z]+)/gi;
function fractionsInWords(text: string, words: Turn["words"], found: Found[]): void {
  for (const m of text.matchAll(FRACTION_WORDS)) {
    const parts = m[1]!.toLowerCase().split(/[\s-]+/);
    const got = readFractionWords(parts, 0);
    if (!got || got.length !== parts.length || NOT_A_SHARE.has(m[2]!.toLowerCase())) continue;
    // ("two and a half", "a half": a number or an article before it makes it no share.)
    if (/\b(?:and|a|an)\s+$/i.test(text.slice(Math.max(0, m.index! - 5), m.index!)) && parts.length === 1) continue;
    const span = { start: m.index!, end: m.index! + m[1]!.length };
    if (found.some((f) => overlaps(f.span, span) && (f.value.kind === "date" || f.value.kind === "money" || f.value.kind === "percent"))) continue;
    for (let k = found.length - 1; k >= 0; k--) if (overlaps(found[k]!.span, span)) found.splice(k, 1);
    found.push({ value: { kind: "percent", amount: Math.round(got.value * 10_000) / 100 }, span, raw: m[1]!, ...contextOf(text, words, span) });
  }
}

/**
 * One length of time written in two units, the larger first ("1 hr 30 min", "two hours and fifteen
 * minutes", "1h30"): one quantity in the larger unit, as a reader adds them up.
 */
function joinDurations(text: string, words: Turn["words"], found: Found[]): void {
  for (let k = found.length - 2; k >= 0; k--) {
    const [a, b] = [found[k]!, found[k + 1]!];
    if (a.value.kind !== "quantity" || b.value.kind !== "quantity" || a.value.quantity.kind !== b.value.quantity.kind) continue;
    if (!/^\s*(?:and\s+)?$/i.test(text.slice(a.span.end, b.span.start))) continue;
    const more = convert(b.value.quantity.value, b.value.quantity.unit, a.value.quantity.unit);
    const ratio = convert(1, a.value.quantity.unit, b.value.quantity.unit);
    if (more === undefined || ratio === undefined || ratio <= 1 || more >= 1) continue;
    const span = { start: a.span.start, end: b.span.end };
    found.splice(k, 2, { ...a, value: { kind: "quantity", quantity: { ...a.value.quantity, value: a.value.quantity.value + more } }, span, raw: text.slice(span.start, span.end), ...contextOf(text, words, span) });
  }
  // "1h30", "2h15": hours and minutes written as a clock-like length.
  for (const m of text.matchAll(/(?<![\w:])(\d{1,2})\s?h\s?([0-5]\d)(?![\w:])/gi)) {
    const span = { start: m.index!, end: m.index! + m[0].length };
    for (let k = found.length - 1; k >= 0; k--) if (overlaps(found[k]!.span, span)) found.splice(k, 1);
    found.push({ value: { kind: "quantity", quantity: { value: Number(m[1]) + Number(m[2]) / 60, unit: "h", kind: "time" } }, span, raw: m[0], ...contextOf(text, words, span) });
  }
}

const FORWARDED = /-{2,}\s*forwarded message\s*-{2,}|-{2,}\s*original message\s*-{2,}|^begin forwarded message:/im;
const HEADER = /^[ \t>]*(?:from|sent|date|to|cc|bcc|reply-to)[ \t]*:.*$/gim;

// A reply's line that introduces the e-mail it quotes ("On Tue, 2 Feb 2027, Ana <ana@…> wrote:").
const ATTRIBUTION = /^[ \t>]*on\b[^\n]{0,200}\bwrote:[ \t]*$/gim;

/**
 * A forwarded e-mail's header lines (From, Date, To…) and a reply's attribution line describe the e-mail,
 * not the request: their dates and addresses are blanked, and so are the quote marks before a quoted
 * body's lines (same length, so spans still point into the original) before values are read.
 */
function withoutForwardedHeaders(text: string): string {
  const plain = unquoted(text);
  if (!FORWARDED.test(plain)) return plain;
  return plain.replace(HEADER, blank);
}

// The subject line of a forwarded e-mail: its title, which names the matter but asks nothing.
const SUBJECT = /^[ \t>]*subject[ \t]*:.*$/gim;

/**
 * A forwarded e-mail as a request is read for what it asks: its marker, header lines and subject blanked
 * ("Subject: cover" is a title, no command to cover anything).
 */
export function forwardedBody(text: string): string {
  const plain = unquoted(text);
  if (!FORWARDED.test(plain)) return plain;
  return plain.replace(HEADER, blank).replace(SUBJECT, blank).replace(FORWARDED, blank);
}

const blank = (s: string) => " ".repeat(s.length);

/** A reply's quoted e-mail as its reader sees it: the attribution line and the quote marks blanked. */
export function unquoted(text: string): string {
  if (!text.includes(">")) return text;
  return text.replace(ATTRIBUTION, blank).replace(/^[ \t]*>[> \t]*/gm, blank);
}
