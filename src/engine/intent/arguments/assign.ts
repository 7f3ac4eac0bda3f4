// Values to parameters by one global matching. Every (value, parameter) pair gets a score: how well the
// value's type fits (an amount for a money parameter, a quantity of the parameter's dimension, a date for a
// date), whether it lies within the parameter's bounds, and how close the words around the value are to the
// parameter's label ("load 45 kg" → load_kg; "from OSL" → origin). Pairs are taken best first, each
// value and each parameter once; a parameter two different values fit equally well is left open, to be
// asked, never guessed. Values are converted to the schema's unit, currency minor units and 0–1 fractions.
import { conceptsOf, namesPeople, verbClassOf } from "../../language/lemmas.ts";
import { tag } from "../../language/nlp.ts";
import { convert, convertTo } from "../../language/units.ts";
import type { Span } from "../../language/tokens.ts";
import { OPPOSITE, cueScore, roleScore, type Role, type Signature } from "./signature.ts";
import { contextOf, overlaps, type Found, type Turn } from "./values.ts";
import { readEnums, readBooleans, readCodes, type Candidate } from "./readers.ts";
import { readTexts, STREET_ADDRESS } from "./text.ts";

// Below this a pair is not evidence enough; a lone value of the right type with no cue scores about 1.1.
const FLOOR = 1;
// Two values this close for one parameter are a tie: the parameter is asked for.
const TIE = 0.25;

const sameValue = (a: unknown, b: unknown) => a === b || (typeof a === "object" && JSON.stringify(a) === JSON.stringify(b));

/** A percentage as a 0–1 fraction, without the float's noise in the last digits. */
const hundredth = (n: number) => Number((n / 100).toPrecision(12));

function inBounds(sig: Signature, n: number): boolean {
  return (sig.min === undefined || n >= sig.min) && (sig.max === undefined || n <= sig.max);
}

/** The value a typed reading gives the parameter, in the schema's form, and how well its type fits. */
function typedFit(sig: Signature, f: Found, onlyNumber: boolean): { value: unknown; fit: number } | undefined {
  const v = f.value;
  switch (sig.kind) {
    case "money": {
      const minor = (n: number) => (sig.minor ? Math.round(n * 100) : Math.round(n * 100) / 100);
      if (v.kind === "money") return { value: minor(v.amount), fit: sig.currency && v.currency && sig.currency !== v.currency ? 0.6 : 2 };
      // A plain number is an amount when written like one ("12,500", "3k") or when no other parameter
      // takes a number; else only with words naming the parameter ("age 7" is no nightly rate).
      if (v.kind === "number") return { value: minor(v.amount), fit: v.scaled || v.grouped ? 1.4 : onlyNumber ? 1.05 : 0.95 };
      return undefined;
    }
    case "percent":
      if (v.kind === "percent") return { value: v.amount, fit: 2 };
      if (v.kind === "number") return { value: v.amount, fit: 0.95 };
      return undefined;
    case "fraction":
      // (Rounded as written: 8.2% is 0.082, not the float 0.08199999999999999.)
      if (v.kind === "percent") return { value: hundredth(v.amount), fit: 2 };
      if (v.kind === "number") return v.amount <= 1 ? { value: v.amount, fit: 1.5 } : { value: hundredth(v.amount), fit: 0.9 };
      return undefined;
    case "quantity": {
      if (v.kind === "quantity" && sig.unit && v.quantity.kind === sig.unit.kind) {
        // "10 nm from the studio" for a distance in km: at sea "nm" is the nautical mile; nanometres are never
        // what a parameter measured in metres or more is given.
        const unit = v.quantity.unit === "nm" && (convert(1, sig.unit.unit, "m") ?? 0) >= 1 ? "nmi" : v.quantity.unit;
        const converted = convertTo(v.quantity.value, unit, sig.unit);
        const scale = 10 ** (sig.decimals ?? 6);
        return converted === undefined ? undefined : { value: Math.round(converted * scale) / scale, fit: 2 };
      }
      // "38 degrees" for a temperature in °C: degrees with no scale are the parameter's own (an angle is
      // never what a temperature takes).
      if (v.kind === "quantity" && v.quantity.unit === "deg" && sig.unit?.kind === "temperature") return { value: v.quantity.value, fit: 1.8 };
      // ("3 degrees an hour" for a ramp in °C per hour: so are degrees over a time, in the parameter's scale.)
      if (v.kind === "quantity" && v.quantity.unit.startsWith("deg/") && sig.unit?.kind === "temperature_rate") {
        const converted = convertTo(v.quantity.value, v.quantity.unit.replace(/^deg\//, `${sig.unit.unit.split("/")[0]}/`), sig.unit);
        if (converted !== undefined) return { value: Math.round(converted * 1e6) / 1e6, fit: 1.8 };
      }
      // "120m" read as 120 million is 120 metres where the parameter is a length: no amount is written
      // with a bare "m" for a field that holds metres.
      const metres = v.kind === "number" && sig.unit?.kind === "length" ? /^(\d+(?:\.\d+)?)m$/i.exec(f.raw.trim()) : null;
      if (metres) {
        const converted = convertTo(Number(metres[1]), "m", sig.unit!);
        if (converted !== undefined) return { value: Math.round(converted * 1e6) / 1e6, fit: 1.8 };
      }
      // A bare number for a quantity in a unit ("Gate 12" and estimated_hours): only with words naming
      // the parameter (cueScore) or when no other parameter takes a number, else it is a number of
      // something else.
      if (v.kind === "number") return { value: v.amount, fit: onlyNumber ? 1.05 : 0.95 };
      return undefined;
    }
    case "count":
    case "number": {
      if (v.kind === "number") return { value: v.amount, fit: 1.1 };
      // "3 days" for a `days` count, "2 hours" for `hours`: the unit is the parameter's own word.
      if (v.kind === "quantity" && sig.keyWords.some((w) => conceptsOf(w).has(v.quantity.unit) || convert(1, v.quantity.unit, w) === 1)) return { value: v.quantity.value, fit: 1.6 };
      if (v.kind === "quantity" && v.quantity.kind !== "time") return { value: v.quantity.value, fit: 0.7 };
      return undefined;
    }
    case "date":
      if (v.kind === "date" && v.date.dated) return { value: v.date.date, fit: 2 };
      return undefined;
    case "datetime":
      if (v.kind === "date") return { value: `${v.date.date}T${v.date.time ?? "00:00:00"}${v.date.offset ?? "Z"}`, fit: v.date.time ? 2.2 : 1.6 };
      return undefined;
    case "email":
      if (v.kind === "email") return { value: v.address, fit: 2 };
      return undefined;
    case "code":
      // A time of day for a clock-shaped text ("^([01][0-9]|2[0-3]):[0-5][0-9]$"): the clock time a date
      // or a spoken time gives ("at 09:30", "half past nine"), as the pattern writes it.
      if (v.kind === "date" && v.date.time && isClock(sig)) {
        const hhmm = v.date.time.slice(0, 5);
        const value = sig.pattern!.whole.test(hhmm) ? hhmm : v.date.time;
        return sig.pattern!.whole.test(value) ? { value, fit: 2.2 } : undefined;
      }
      // "0230", "1415": a 24-hour time written without its colon, which alone is too like any number to
      // count (below the floor) unless the parameter was asked for or words name it.
      if (v.kind === "number" && isClock(sig)) {
        const hhmm = /^([01]\d|2[0-3])([0-5]\d)$/.exec(f.raw.trim());
        const value = hhmm ? `${hhmm[1]}:${hhmm[2]}` : undefined;
        return value && sig.pattern!.whole.test(value) ? { value, fit: 0.9 } : undefined;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** A text parameter whose pattern takes clock times (and so no code of another kind). */
const isClock = (sig: Signature) => sig.pattern !== undefined && sig.pattern.whole.test("09:30") && sig.pattern.whole.test("17:45") && !sig.pattern.whole.test("ABC");

const NUMERIC = new Set(["money", "percent", "fraction", "quantity", "count", "number"]);

// Parameters that hold a measure: a plain number that numbers another thing is none of them.
const MEASURES = new Set(["money", "percent", "fraction", "quantity"]);

/**
 * A plain number right after a noun no parameter is labelled by ("the level 4 slab", "gate 12", "bay 7"):
 * that thing's number, not a measure (a label of the parameter, "volume 86", is cueScore's).
 */
function numbersAThing(sigs: Signature[], f: Found): boolean {
  const before = f.left[0];
  // ("ceiling 120m", "budget 5k": a number with a letter glued to it is a measure or an amount.)
  if (f.value.kind !== "number" || !before || (f.near?.left ?? Infinity) === 0 || !/^[a-z]{3,}$/.test(before) || /\d[a-z]+$/i.test(f.raw.trim())) return false;
  if (sigs.some((s) => [...conceptsOf(before)].some((c) => s.label.has(c)))) return false;
  const [word] = tag([before, "4"]);
  return word?.pos === "NOUN" || word?.pos === "PROPN";
}

/**
 * The noun a plain number counts ("40 people", "12 crates"): the plural noun (or a noun of people) right
 * after it. A number that counts things is a count, never an amount of money or a measure.
 */
function countedNoun(f: Found): string | undefined {
  const next = f.right[0];
  // "22 of them", "six of us": a group of people, counted.
  if (f.value.kind === "number" && next === "of" && ["them", "us", "you"].includes(f.right[1] ?? "")) return "people";
  // (A number in words counts too, "three crates"; "one" is as often a pronoun, "the one"…)
  if (f.value.kind !== "number" || (/[a-z]/i.test(f.raw) && (!/^[a-z -]+$/i.test(f.raw) || /^(?:one|a|an)$/i.test(f.raw))) || !next || f.near?.right === 0 || !/^[a-z]{3,}$/.test(next)) return undefined;
  const [, word] = tag(["4", next]);
  return word?.pos === "NOUN" && (word.lemma !== next || namesPeople(next)) ? next : undefined;
}

/** Candidates from typed values: every value against every typed parameter. */
function typedCandidates(sigs: Signature[], turn: Turn, asked: Set<string>, paired: Set<Role>): Candidate[] {
  const out: Candidate[] = [];
  const lessening = takesAway(turn);
  const numeric = sigs.filter((s) => NUMERIC.has(s.kind)).length;
  const signed = sigs.filter((s) => NUMERIC.has(s.kind) && s.min !== undefined && s.min < 0);
  // A house number is part of its address ("to 58 Alder Grove"), never a count or an amount.
  const addresses = [...turn.text.matchAll(STREET_ADDRESS)].map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
  for (const f of turn.found) {
    if (f.value.kind === "number" && addresses.some((a) => a.start <= f.span.start && f.span.end <= a.end)) continue;
    const numbered = numbersAThing(sigs, f);
    const counted = countedNoun(f);
    const ofPeople = counted !== undefined && namesPeople(counted);
    // "3, not 4", "the 12th instead of the 9th", "4 was wrong": the value set aside is not an argument.
    if (rejected(f.left) || calledWrong(f.right, f.near)) continue;
    const readings: { f: Found; implied?: Role; value?: Found["value"] }[] = [{ f }];
    // A range ("Feb 8 to Feb 12") is two dates: a start and an end.
    if (f.value.kind === "date" && f.value.date.until) {
      readings[0]!.implied = "start";
      const until = { ...f.value.date, date: f.value.date.until.date, ...(f.value.date.until.time ? { time: f.value.date.until.time } : {}), until: undefined };
      readings.push({ f: { ...f, value: { kind: "date", date: until }, span: { start: f.span.end - 1, end: f.span.end } }, implied: "end" });
      // The two dates of a range are two values: each its own end of the span.
      readings[0]!.f = { ...f, span: { start: f.span.start, end: f.span.start + 1 } };
      // "7 till 10 pm" for a start and a length (`duration_minutes`): the range's end is its length too.
      const length = rangeMinutes(f.value.date);
      if (length !== undefined && length > 0) readings.push({ f: { ...f, value: { kind: "quantity", quantity: { value: length, unit: "min", kind: "time" } }, span: { start: f.span.end - 1, end: f.span.end } } });
    }
    for (const reading of readings) {
      for (const sig of sigs) {
        if ((numbered || counted) && MEASURES.has(sig.kind) && !asked.has(sig.key)) continue;
        const typed = typedFit(sig, reading.f, numeric === 1);
        if (!typed) continue;
        let score = typed.fit + cueScore(sig, reading.f.left, reading.f.right, reading.f.near) + roleScore(sig, paired, reading.f.left, reading.implied, reading.f.right);
        // A signed change ("quantity_delta") is negative when the words take something away.
        if (typeof typed.value === "number" && typed.value > 0 && lessening && isChange(sig) && !reading.f.raw.startsWith("+")) typed.value = -typed.value;
        const n = typeof typed.value === "number" ? typed.value : undefined;
        if (n !== undefined && !inBounds(sig, n)) score *= 0.4;
        // "cool it to minus five": a value below zero goes to the one parameter whose bounds allow it.
        else if (n !== undefined && n < 0 && signed.length === 1 && signed[0] === sig) score += 0.5;
        if (n !== undefined && sig.type === "integer" && !Number.isInteger(n)) score *= 0.5;
        if (asked.has(sig.key)) score += 1.5;
        // "40 people" for a number of cast and crew: a count of people goes to a count its label says is of people.
        if (ofPeople && (sig.kind === "count" || sig.kind === "number") && [...sig.label].some((w) => namesPeople(w))) score += 0.8;
        const alternative = reading.f.left[0] === "or" || reading.f.right[0] === "or";
        // A clock time read off a date serves the date's own parameter too ("14/05/2027 at 10:15").
        const shared = sig.kind === "code" ? { shared: true } : {};
        out.push({ key: sig.key, value: typed.value, score, span: reading.f.span, kind: reading.f.value.kind, ...(alternative ? { alternative } : {}), ...shared });
      }
    }
  }
  return out;
}

/** Minutes from a range's start to its end, when both have a time of day. */
function rangeMinutes(date: { date: string; time?: string; until?: { date: string; time?: string } }): number | undefined {
  if (!date.time || !date.until?.time) return undefined;
  const ms = Date.parse(`${date.until.date}T${date.until.time}Z`) - Date.parse(`${date.date}T${date.time}Z`);
  return Number.isFinite(ms) ? ms / 60_000 : undefined;
}

// Words of losing or taking away that are not verbs of the decrease or delete classes.
const LOSS = new Set(["lose", "lost", "damaged", "damage", "broken", "stolen", "missing", "subtract", "deduct", "minus", "scrap", "scrapped", "discard", "discarded", "spoiled", "expired", "shrinkage"]);

function takesAway(turn: Turn): boolean {
  return turn.words.some((w, i) => LOSS.has(w.word) || ["decrease", "delete"].includes(verbClassOf(w.word) ?? "") || (w.word === "write" && turn.words[i + 1]?.word === "off") || (w.word === "written" && turn.words[i + 1]?.word === "off"));
}

const isChange = (sig: Signature) => (sig.min === undefined || sig.min < 0) && sig.keyWords.some((w) => ["delta", "change", "adjustment", "adjust", "diff", "difference", "offset"].includes(w));

// "4 was wrong", "4 is a typo", "4 — wrong": the value named is the one being replaced.
const WRONG = new Set(["wrong", "incorrect", "mistaken", "typo", "mistake"]);
// ("14 m3, typo in the quote": past a comma the words are about something else.)
const calledWrong = (right: string[], near?: { right: number }) => {
  const said = right.slice(0, near?.right ?? right.length);
  return WRONG.has(said[0] ?? "") || (["was", "is", "s"].includes(said[0] ?? "") && (WRONG.has(said[1] ?? "") || (said[1] === "a" && WRONG.has(said[2] ?? ""))));
};

const rejected = (left: string[]) => left[0] === "not" || (left[0] === "of" && left[1] === "instead") || (left[0] === "than" && left[1] === "rather");

/** Which roles the tool's parameters come in pairs of (origin/destination, start/end). */
function pairedRoles(sigs: Signature[]): Set<Role> {
  const roles = new Set<Role>();
  for (const s of sigs) for (const r of s.roles) roles.add(r);
  return new Set([...roles].filter((r) => roles.has(OPPOSITE[r])));
}

/** Whether a span is inside parentheses opened on its own line and not yet closed before it. */
function inAside(text: string, span: Span): boolean {
  let depth = 0;
  for (let i = span.start - 1; i >= 0 && text[i] !== "\n"; i--) {
    if (text[i] === ")") depth++;
    else if (text[i] === "(") {
      if (depth === 0) return true;
      depth--;
    }
  }
  return false;
}

/** A value given to a parameter and how well it fit (the pair's score). */
export interface Assigned {
  value: unknown;
  score: number;
}

// Values read from words (a yes/no named by its words, a name, free text): as firm as a typed value.
const WORDED = 2;

/**
 * The arguments one turn gives. `asked`: parameters the assistant's last question asked for (a bare value
 * goes to them).
 */
export function assignTurn(sigs: Signature[], turn: Turn, asked: Set<string>): Map<string, Assigned> {
  const paired = pairedRoles(sigs);
  let candidates = [...readCodes(sigs, turn, asked, paired), ...typedCandidates(sigs, turn, asked, paired), ...readEnums(sigs, turn, asked, paired)].filter((c) => c.score >= FLOOR);
  // A code or an enum value the turn sets aside for another ("editor, not viewer", "from Oslo not Bergen")
  // is given to no parameter, as typed values are not (typedCandidates). Alone ("it's not controlled") it
  // is what the turn says about the parameter, and stays.
  const setAside = (c: Candidate) => {
    if (c.kind !== "code" && c.kind !== "enum") return false;
    const around = contextOf(turn.text, turn.words, c.span);
    return rejected(around.left) || calledWrong(around.right, around.near);
  };
  candidates = candidates.filter((c) => !setAside(c) || !candidates.some((o) => o.key === c.key && !sameValue(o.value, c.value) && !setAside(o)));
  // A value written inside a longer value of another enum ("mowing" inside "mowing B") is that longer one.
  // So is a code inside a longer code of another parameter ("U2" inside the flight "U2 8147").
  // ("A-1" of "Jet A-1", a fuel grade, is no stand A1.) A longer code counts only when it has the shape of
  // the schema's example: a pattern that takes any run of letters also joins "v2.14.1 to".
  const worded = (c: Candidate) => c.kind === "enum" || c.kind === "code";
  const holds = (o: Candidate) => o.kind === "enum" || o.exampleShaped === true;
  // (A value named by its description spans the words around it without being written there: it holds none.)
  const inLonger = (c: Candidate) => worded(c) && !(c.kind === "enum" && c.shared) && candidates.some((o) => o !== c && holds(o) && !o.shared && o.key !== c.key && o.span.start <= c.span.start && o.span.end >= c.span.end && o.span.end - o.span.start > c.span.end - c.span.start);
  // A code that is, letter for letter, a value another parameter lists ("A320" for `aircraft_type`) is that
  // value, not a code of this one (a flight number's pattern also takes "A320").
  const listedElsewhere = (c: Candidate) => c.kind === "code" && sigs.some((s) => s.key !== c.key && s.enumForms?.some((f) => String(f.value).toLowerCase() === String(c.value).toLowerCase()));
  candidates = candidates.filter((c) => !inLonger(c) && !listedElsewhere(c));
  candidates.sort((a, b) => b.score - a.score);
  const byKey = new Map<string, Candidate[]>();
  for (const c of candidates) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
  const result = new Map<string, Assigned>();
  const scores = new Map<string, number>();
  const taken: Span[] = [];
  const open = new Set<string>();
  for (const c of candidates) {
    if (result.has(c.key) || open.has(c.key)) continue;
    if (!c.shared && taken.some((t) => overlaps(t, c.span))) continue;
    // A tie: another free value fits this parameter as well and is not a better fit elsewhere.
    const rivals = (byKey.get(c.key) ?? []).filter((o) => o !== c && (o.score > c.score - TIE || (o.alternative && c.alternative)) && !overlaps(o.span, c.span) && !sameValue(o.value, c.value) && !taken.some((t) => overlaps(t, o.span)) && !candidates.some((x) => x.key !== c.key && overlaps(x.span, o.span) && x.score > o.score + TIE));
    // A value in a parenthesised aside ("30 kg (3 × 10 kg)") explains one outside it: the one outside is
    // the argument, whichever scored a little higher.
    const aside = inAside(turn.text, c.span);
    if (aside && rivals.some((o) => !inAside(turn.text, o.span))) continue;
    const rival = rivals.find((o) => aside || !inAside(turn.text, o.span));
    if (rival && !asked.has(c.key)) {
      open.add(c.key);
      continue;
    }
    result.set(c.key, { value: c.value, score: c.score });
    scores.set(c.key, c.score);
    if (!c.shared) taken.push(c.span);
  }
  for (const [key, value] of readBooleans(sigs, turn)) if (!result.has(key)) result.set(key, { value, score: WORDED });
  for (const [key, value] of readTexts(sigs, turn, asked, taken, result)) if (!result.has(key) && !open.has(key)) result.set(key, { value, score: WORDED });
  return result;
}
