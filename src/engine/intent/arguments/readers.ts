// Readers for values only a parameter's own schema recognises: codes its pattern accepts ("GRN-40211",
// "KL642"), its enum values however they are written ("mowing" → mow, "dark roast", "prod" →
// production by prefix), currencies named by a money value for a currency enum, and yes/no parameters
// named by their words ("without a reboot" → reboot: false).
import { regionCodes, regions } from "../../language/regions.ts";
import { languagesNamed } from "../../language/languages.ts";
import { conceptsOf, cutShort, verbClassOf } from "../../language/lemmas.ts";
import { currencyFamily, currencyOfWord, escapeRegExp, type Span } from "../../language/tokens.ts";
import { convert, convertTo, quantity } from "../../language/units.ts";
import { isNumberWord, readNumberWords } from "../../language/numbers.ts";
import { isKnownWord, tag } from "../../language/nlp.ts";
import { isKindOf } from "../../language/wordnet.ts";
import { ARTICLES, cueScore, roleScore, type Role, type Signature } from "./signature.ts";
import { contextOf, type Turn } from "./values.ts";

export interface Candidate {
  key: string;
  value: unknown;
  score: number;
  span: Span;
  kind: string;
  /** The span may serve another parameter too (a money value's currency). */
  shared?: boolean;
  /** Written as one of alternatives ("the 9th or the 10th"): never chosen over the other by score alone. */
  alternative?: boolean;
  /** A code of the shape of one of the schema's examples ("K4 8120" joined for an example K48120). */
  exampleShaped?: boolean;
}

// Label words of a parameter that holds languages.
const LANGUAGE_WORDS = ["language", "languages", "lang", "locale"];

/** A value that could be an ordinary word ("the", "deploy") needs the look of a code to count as one. */
const looksLikeCode = (token: string) => /\d/.test(token) || /[-_.]/.test(token) || /^[A-Z]{2,}$/.test(token);



/** Codes each parameter's pattern accepts, written as the pattern wants or in another case. */
export function readCodes(sigs: Signature[], turn: Turn, asked: Set<string>, paired: Set<Role>): Candidate[] {
  const out: Candidate[] = [];
  // The turn's runs of letters and digits, read once for every pattern: the groups a code may be written in.
  const parts = [...turn.text.matchAll(/[A-Za-z0-9]+/g)].map((m) => ({ text: m[0], start: m.index!, end: m.index! + m[0].length }));
  for (const sig of sigs) {
    if (!sig.pattern) continue;
    const { find, whole, upperCase, strict } = sig.pattern;
    const seen = new Set<number>();
    // Amounts, quantities and dates are read as such: "980 USD" is a fare even where a code pattern accepts "980".
    const typed = turn.found.filter((f) => ["date", "money", "percent", "quantity"].includes(f.value.kind)).map((f) => f.span);
    const add = (index: number, raw: string, value: string, at?: Span): void => {
      if (typed.some((d) => d.start < index + raw.length && index < d.end)) return;
      const trimmed = value.replace(/[.-]+$/, "");
      const v = trimmed !== value && trimmed.length > 0 && whole.test(trimmed) ? trimmed : value;
      const span = at ?? { start: index, end: index + v.length };
      const { left, right, near } = contextOf(turn.text, turn.words, span);
      let score = (strict ? 3 : 1.6) + cueScore(sig, left, right, near) + roleScore(sig, paired, left, undefined, right);
      // Shaped like the schema's example ("KL642": letters then digits) is likelier than a bare number.
      if (sig.example && shape(v) === shape(sig.example)) score += 0.4 + (prefixOf(v) !== "" && sig.examples!.some((e) => prefixOf(e) === prefixOf(v)) ? 0.5 : 0);
      else if (sig.example && /[A-Za-z]/.test(sig.example) && !/[A-Za-z]/.test(v)) score -= 0.8;
      else if (sig.example && punctuation(v) === punctuation(sig.example)) score += 0.2;
      if (asked.has(sig.key)) score += 1.5;
      const exampleShaped = sig.examples?.some((e) => shape(e) === shape(v)) === true;
      out.push({ key: sig.key, value: v, score, span, kind: "code", ...(exampleShaped ? { exampleShaped } : {}) });
    };
    find.lastIndex = 0;
    for (const m of turn.text.matchAll(find)) {
      // A sentence's full stop is not part of a code: "in." is the word "in".
      const bare = m[0].replace(/[.-]+$/, "");
      if (!strict && (!looksLikeCode(bare) || !whole.test(bare))) continue;
      seen.add(m.index!);
      add(m.index!, m[0], m[0]);
    }
    // Codes written in lower case ("kl642" for ^[A-Z0-9]{2}[0-9]{1,4}$).
    if (upperCase) {
      for (const m of turn.text.matchAll(new RegExp(find.source, "gi"))) {
        if (seen.has(m.index!) || !whole.test(m[0].toUpperCase()) || !looksLikeCode(m[0]) || m[0] === m[0].toUpperCase()) continue;
        add(m.index!, m[0], m[0].toUpperCase());
      }
    }
    // A code written with a space inside ("KL 642", "ord 5512"): its parts joined, when only that fits.
    for (const m of turn.text.matchAll(/(?<![A-Za-z0-9])([A-Za-z]{1,4})[\s-](\d{1,8})(?![A-Za-z0-9])/g)) {
      for (const joined of [`${m[1]}${m[2]}`, `${m[1]}-${m[2]}`]) {
        const value = upperCase ? joined.toUpperCase() : joined;
        if (value === m[0] || !whole.test(value) || seen.has(m.index!)) continue;
        seen.add(m.index!);
        add(m.index!, m[0], value, { start: m.index!, end: m.index! + m[0].length });
      }
    }
    // A code spelt out, as a voice transcript writes it ("kay zero seven", "tango four seven", "k l six four
    // two"): letter names, the spelling alphabet and digit words, joined, when the pattern accepts the result
    // and it holds a digit (a run of letter names alone is too often words: "see you").
    const spoken = parts.map((p) => ({ ...p, as: spelt(p.text) }));
    for (let a = 0; a < spoken.length; a++) {
      if (spoken[a]!.as === undefined || seen.has(spoken[a]!.start)) continue;
      let b = a;
      while (b + 1 < spoken.length && spoken[b + 1]!.as !== undefined && /^[\s-]*$/.test(turn.text.slice(spoken[b]!.end, spoken[b + 1]!.start)) && b - a < 10) b++;
      for (let end = b; end > a; end--) {
        const run = spoken.slice(a, end + 1);
        // (Every reading of each word: "oh" is a letter or a zero.)
        const readings = run.reduce<string[]>((acc, p) => acc.flatMap((x) => p.as!.map((y) => x + y)), [""]).filter((v) => /\d/.test(v) && run.some((p) => !/^\d+$/.test(p.text)));
        const value = readings.map((v) => (upperCase ? v.toUpperCase() : v)).find((v) => whole.test(v));
        if (!value) continue;
        seen.add(run[0]!.start);
        add(run[0]!.start, turn.text.slice(run[0]!.start, run.at(-1)!.end), value, { start: run[0]!.start, end: run.at(-1)!.end });
        a = end;
        break;
      }
    }
    // A code written in groups ("ABCU 123456-7" for ^[A-Z]{4}[0-9]{7}$, a tariff code "8471.30.00"): its
    // groups joined, when the joined form is what the pattern accepts and the groups alone are not.
    for (let a = 0; a < parts.length; a++) {
      // Groups one separator apart ("ABCU 123456-7", a book number in five), not words of a sentence around them; the longest run
      // the pattern accepts ("8471.30.00", not "8471.30").
      let longest = 1;
      while (longest < 6 && a + longest < parts.length && /^[ .-]$/.test(turn.text.slice(parts[a + longest - 1]!.end, parts[a + longest]!.start))) longest++;
      for (let n = longest; n >= 2; n--) {
        const run = parts.slice(a, a + n);
        const joined = run.map((p) => p.text).join("");
        const value = upperCase ? joined.toUpperCase() : joined;
        // (A group may fit alone when the joined form is the schema example's shape: "U2 8147" for U28147.)
        const asExample = sig.examples?.some((e) => shape(e) === shape(value)) === true;
        if (!/\d/.test(joined) || seen.has(run[0]!.start) || !whole.test(value) || (!asExample && run.some((p) => whole.test(upperCase ? p.text.toUpperCase() : p.text)))) continue;
        seen.add(run[0]!.start);
        add(run[0]!.start, turn.text.slice(run[0]!.start, run.at(-1)!.end), value, { start: run[0]!.start, end: run.at(-1)!.end });
        break;
      }
    }
    // "Station 4" for `station_id` ^ST-[0-9]{2}$, "bay 12" for ^BAY-\d+$: a number after the noun that names
    // the parameter is its code, the pattern's letters before it and its digits padded as the pattern asks.
    const numbered = numberedCode(sig.patternSource);
    if (numbered) {
      for (const f of turn.found) {
        if (f.value.kind !== "number" || !Number.isInteger(f.value.amount) || f.value.amount < 0 || f.value.grouped) continue;
        const noun = f.left[0];
        if (!noun || !sig.label.has(noun) || seen.has(f.span.start)) continue;
        const value = `${numbered.prefix}${String(f.value.amount).padStart(numbered.digits, "0")}`;
        if (!whole.test(value)) continue;
        seen.add(f.span.start);
        const at = turn.text.slice(0, f.span.start).toLowerCase().lastIndexOf(noun);
        add(at >= 0 ? at : f.span.start, turn.text.slice(at >= 0 ? at : f.span.start, f.span.end), value, { start: at >= 0 ? at : f.span.start, end: f.span.end });
      }
    }
    // A country code parameter given a country's name; a two-letter token that is no country's code
    // ("QQ" of a lot code) is not one.
    if (whole.test("DE") && !whole.test("de") && !whole.test("DEU")) {
      const codes = regionCodes();
      for (let n = out.length - 1; n >= 0; n--) if (out[n]!.key === sig.key && !codes.has(String(out[n]!.value))) out.splice(n, 1);
      const lower = turn.text.toLowerCase();
      for (const [name, code] of regions()) {
        if (!whole.test(code)) continue;
        const at = lower.search(new RegExp(`(?<![a-z])${escapeRegExp(name)}(?![a-z])`));
        if (at >= 0) out.push({ key: sig.key, value: code, score: 2 + (asked.has(sig.key) ? 1.5 : 0), span: { start: at, end: at + name.length }, kind: "code" });
      }
    }
    // A language parameter given languages by name: one code ("pl" for "Polish"), or two joined as the
    // pattern joins them ("ja_ko" for "Japanese-Korean", "Italian Dutch"), in the order they are named.
    if (LANGUAGE_WORDS.some((w) => sig.label.has(w))) {
      const named = languagesNamed(turn.text);
      const joiner = [":", "-", "_", "/", "|", " "].find((j) => whole.test(`de${j}en`));
      if (joiner !== undefined && named.length >= 2) {
        const [a, b] = named;
        out.push({ key: sig.key, value: `${a!.code}${joiner}${b!.code}`, score: 2.5 + (asked.has(sig.key) ? 1.5 : 0), span: { start: a!.start, end: b!.end }, kind: "code" });
      } else if (whole.test("de") && named.length === 1) {
        out.push({ key: sig.key, value: named[0]!.code, score: 2.5 + (asked.has(sig.key) ? 1.5 : 0), span: { start: named[0]!.start, end: named[0]!.end }, kind: "code" });
      }
    }
  }
  return out;
}

/** A pattern of fixed letters then digits (`^ST-[0-9]{2}$`, `^BAY\d+$`): the letters and the fewest digits it takes. */
function numberedCode(source: string | undefined): { prefix: string; digits: number } | undefined {
  const m = source === undefined ? null : /^\^([A-Za-z]{1,6}[-_/]?)(?:\[0-9\]|\\d)(?:\{(\d+)(?:,\d*)?\}|\+|\*)?\$$/.exec(source);
  return m ? { prefix: m[1]!, digits: m[2] ? Number(m[2]) : 1 } : undefined;
}

// How a letter or digit is said: letter names, the ICAO spelling alphabet and digit words.
const SAID: Record<string, string[]> = {
  a: ["a"], ay: ["a"], bee: ["b"], be: ["b"], see: ["c"], cee: ["c"], dee: ["d"], ef: ["f"], eff: ["f"], gee: ["g"], aitch: ["h"], jay: ["j"], kay: ["k"], el: ["l"], em: ["m"], en: ["n"], pee: ["p"], cue: ["q"], ar: ["r"], ess: ["s"], tee: ["t"], vee: ["v"], ex: ["x"], zed: ["z"], zee: ["z"],
  alpha: ["a"], alfa: ["a"], bravo: ["b"], charlie: ["c"], delta: ["d"], echo: ["e"], foxtrot: ["f"], golf: ["g"], hotel: ["h"], india: ["i"], juliet: ["j"], juliett: ["j"], kilo: ["k"], lima: ["l"], mike: ["m"], november: ["n"], oscar: ["o"], papa: ["p"], quebec: ["q"], romeo: ["r"], sierra: ["s"], tango: ["t"], uniform: ["u"], victor: ["v"], whiskey: ["w"], whisky: ["w"], xray: ["x"], yankee: ["y"], zulu: ["z"],
  zero: ["0"], oh: ["0", "o"], nought: ["0"], one: ["1"], two: ["2"], three: ["3"], four: ["4"], five: ["5"], six: ["6"], seven: ["7"], eight: ["8"], nine: ["9"], niner: ["9"], double: [],
};
/** What a word of a spelt-out code stands for: a single letter or digits as written, or the said forms. */
function spelt(word: string): string[] | undefined {
  const w = word.toLowerCase();
  if (/^\d{1,4}$/.test(w) || /^[a-z]$/.test(w)) return [w];
  const said = SAID[w];
  return said && said.length > 0 ? said : undefined;
}

/** A value's look: letters, digits and punctuation in order, runs collapsed ("KL642" → A9, "4.2.1" → 9.9.9). */
const shape = (value: string) => value.replace(/[A-Za-z]+/g, "A").replace(/\d+/g, "9");
/** The letters a code starts with ("HL" of HL-0042), upper-cased; "" for a code that starts with a digit. */
const prefixOf = (value: string) => /^[A-Za-z]+/.exec(value)?.[0].toUpperCase() ?? "";
const punctuation = (value: string) => [...new Set(value.replace(/[A-Za-z0-9]/g, ""))].sort().join("");

/** The base forms of a word, without verb classes: "mowing" → mowing, mow. */
const formsCache = new Map<string, Set<string>>();
function forms(word: string): Set<string> {
  let hit = formsCache.get(word);
  if (!hit) {
    hit = new Set([...conceptsOf(word)].filter((c) => !c.startsWith(":")));
    // ("preventative" and "preventive", "corrective": an adjective made from a verb by -ive or -ative is
    // written either way; both are forms of the verb.)
    const made = /^([a-z]{4,}?)(?:at)?ive$/.exec(word);
    if (made) for (const stem of [made[1]!, `${made[1]}e`]) if (isKnownWord(stem) && tag([stem])[0]?.pos === "VERB") hit.add(stem);
    if (formsCache.size > 20_000) formsCache.clear();
    formsCache.set(word, hit);
  }
  return hit;
}

// A number in words and in digits are one ("grade three" for grade_3, "tier two" for tier_2).
const numeral = (w: string) => (/^\d+$/.test(w) ? Number(w) : isNumberWord(w) ? readNumberWords([w], 0)?.value : undefined);

const sameWord = (a: string, b: string) => {
  if (a === b) return true;
  if ((/^\d+$/.test(a) || /^\d+$/.test(b)) && numeral(a) !== undefined && numeral(a) === numeral(b)) return true;
  const fa = forms(a);
  for (const f of forms(b)) if (fa.has(f)) return true;
  return false;
};

/** Same word, or verbs of one operation ("asked" for request, "cancelled" for terminate). */
const sameOperation = (a: string, b: string) => {
  const c = verbClassOf(a);
  return c !== undefined && c === verbClassOf(b);
};

/**
 * Where an enum value is written in the turn: its words in order, each by any of its forms ("mowing b" for
 * mowing_b, "dark roast"), or a short value as the start of a longer word ("prod" for production).
 * Longer matches win: "dark roast" is not also "roast".
 */
const squash = (word: string) => word.replace(/[-.]/g, "");

function enumMentions(sig: Signature, turn: Turn): { value: string | number; span: Span; words: number; described?: boolean }[] {
  const out: { value: string | number; span: Span; words: number; described?: boolean }[] = [];
  const words = turn.words;
  for (const form of sig.enumForms ?? []) {
    // Another name the description gives the value ("Oslo" for OSL1), matched like its own words.
    for (const alias of form.aliases) {
      for (let i = 0; i + alias.length <= words.length; i++) {
        if (alias.every((a, k) => sameWord(words[i + k]!.word, a))) out.push({ value: form.value, span: { start: words[i]!.span.start, end: words[i + alias.length - 1]!.span.end }, words: alias.length });
      }
    }
    // The value as its description explains it: two of its distinctive words in one clause ("back to
    // their card" for the value the description says "sends it back to the card that paid"; "the courier
    // left PKG-1234 at the wrong address" for one left at the wrong address).
    if (form.gloss.length >= 2) {
      const hits = words.map((w, i) => (form.gloss.some((g) => sameWord(w.word, g)) ? i : -1)).filter((i) => i >= 0);
      const distinct = new Set(hits.map((i) => form.gloss.find((g) => sameWord(words[i]!.word, g))));
      const oneClause = hits.length > 0 && !/[.;!?\n]/.test(turn.text.slice(words[hits[0]!]!.span.end, words[hits.at(-1)!]!.span.start));
      if (distinct.size >= 2 && hits.at(-1)! - hits[0]! <= 10 && oneClause) out.push({ value: form.value, span: { start: words[hits[0]!]!.span.start, end: words[hits.at(-1)!]!.span.end }, words: 1, described: true });
    }
    // A phrase of the value's clause of the description, articles aside ("in a group").
    const bare = words.filter((w) => !ARTICLES.has(w.word));
    for (const [a, b] of form.phrases) {
      for (let i = 0; i + 1 < bare.length; i++) if (sameWord(bare[i]!.word, a!) && sameWord(bare[i + 1]!.word, b!)) out.push({ value: form.value, span: { start: bare[i]!.span.start, end: bare[i + 1]!.span.end }, words: 1, described: true });
    }
    const parts = form.words;
    if (parts.length === 0) continue;
    // Two words in either order ("50 mm conduit" for conduit_50mm), or with the parameter's own noun between
    // them ("bay room 3" for a room's bay-3).
    if (parts.length === 2) {
      for (let i = 0; i + 1 < words.length; i++) {
        if (sameWord(words[i]!.word, parts[1]!) && sameWord(words[i + 1]!.word, parts[0]!)) out.push({ value: form.value, span: { start: words[i]!.span.start, end: words[i + 1]!.span.end }, words: 2 });
        const between = words[i + 1]!.word;
        if (words[i + 2] && sameWord(words[i]!.word, parts[0]!) && sameWord(words[i + 2]!.word, parts[1]!) && !parts.includes(between) && sig.keyWords.some((k) => k.length > 2 && sameWord(between, k))) {
          out.push({ value: form.value, span: { start: words[i]!.span.start, end: words[i + 2]!.span.end }, words: 2 });
        }
      }
    }
    // ("Jet A-1" for jet_a1: letters and digits glued in the value may be written apart, and a hyphen or
    // dot of a code is no part of it.)
    const split = parts.flatMap((p) => (/^[a-z]+\d+$/.test(p) ? [p.replace(/\d+$/, ""), p.replace(/^[a-z]+/, "")] : [p]));
    for (const spelling of split.length > parts.length ? [parts, split] : [parts]) {
      for (let i = 0; i + spelling.length <= words.length; i++) {
        let exact = 0;
        let ok = true;
        for (let k = 0; k < spelling.length && ok; k++) {
          // (A short value is not named by a shorter word it could be the plural of: "up" is not `ups`.)
          const shorter = spelling.length === 1 && spelling[k]!.length <= 4 && words[i + k]!.word.length < spelling[k]!.length;
          const same = (!shorter && sameWord(words[i + k]!.word, spelling[k]!)) || (/\d/.test(spelling[k]!) && squash(words[i + k]!.word) === squash(spelling[k]!));
          if (same) exact++;
          ok = same || (spelling.length > 1 && (sameOperation(words[i + k]!.word, spelling[k]!) || cutShort(spelling[k]!, words[i + k]!.word)));
        }
        // A multi-word value may have one word written as another verb of its operation, never all.
        if (ok && exact > 0) out.push({ value: form.value, span: { start: words[i]!.span.start, end: words[i + spelling.length - 1]!.span.end }, words: spelling.length - (spelling.length - exact) * 0.5 });
      }
    }
    // ("in the field" for in_field, "at our depot" for at_depot: the value's words with an article or a
    // possessive between them, every one written as it is.)
    const spaced = words.filter((w) => !ARTICLES.has(w.word) && !POSSESSIVES.has(w.word));
    if (parts.length >= 2 && spaced.length < words.length) {
      for (let i = 0; i + parts.length <= spaced.length; i++) {
        const run = spaced.slice(i, i + parts.length);
        const between = words.slice(words.indexOf(run[0]!), words.indexOf(run.at(-1)!) + 1);
        if (between.length > run.length && run.every((w, k) => sameWord(w.word, parts[k]!))) out.push({ value: form.value, span: { start: run[0]!.span.start, end: run.at(-1)!.span.end }, words: parts.length });
      }
    }
    // ("O-negative" for O_neg, "AB-positive" for AB_pos: a value of several words written as one hyphenated
    // word, each part as the value's word or the word it cuts short.)
    if (parts.length > 1) {
      for (const w of words) {
        const pieces = w.word.split("-");
        if (pieces.length !== parts.length) continue;
        const exact = pieces.filter((p, k) => sameWord(p, parts[k]!)).length;
        if (exact > 0 && pieces.every((p, k) => sameWord(p, parts[k]!) || cutShort(parts[k]!, p))) out.push({ value: form.value, span: w.span, words: parts.length - (parts.length - exact) * 0.5 });
      }
    }
    // A value of several words named by its first, when no other value of the parameter has it ("tartaric"
    // for tartaric_acid beside yeast_nutrient): the modifier says which; the head ("charge" of hand_charge,
    // "acid") names the kind, and is said of other things too. Six letters or more, and no word of the
    // parameter's own label.
    // (Not when a part is initials or a code, "hv" of hv_switching: that part says which kind.)
    if (parts.length >= 2 && parts[0]!.length >= 4 && parts.every((p) => p.length >= 3)) {
      // (A shorter word the English lexicon does not know, "luton" of luton_van, is a term of art: it
      // says which as surely.)
      // (A later part that is such a term of art names it too: "coude" of spectrograph_coude, where the
      // first word names the kind of instrument.)
      // (A later part names it too when the others are shared with other values, the kind they all are of:
      // "cancelled" for event_cancelled beside event_rescheduled.)
      const others = (sig.enumForms ?? []).filter((o) => o !== form);
      const sharedKind = parts.some((p, k) => k < parts.length - 1 && others.some((o) => o.words.some((w) => sameWord(w, p))));
      const own = parts.filter((p, k) => (k === 0 ? p.length >= 6 || !isKnownWord(p) : p.length >= 5 && (!isKnownWord(p) || sharedKind)) && !/\d/.test(p) && !sig.label.has(p) && !others.some((o) => o.words.some((w) => sameWord(w, p))));
      if (own.length > 0 && !out.some((m) => m.value === form.value)) {
        for (let i = 0; i < words.length; i++) if (own.some((p) => sameWord(words[i]!.word, p))) out.push({ value: form.value, span: words[i]!.span, words: 0.5 });
      }
    }
    // A value of several words named by one of them written as a name, capitalised inside a sentence ("the
    // Hestia" for gas_hestia), when no other value of the parameter has it: a name says which one.
    if (parts.length >= 2 && !out.some((m) => m.value === form.value)) {
      const named = parts.filter((p) => p.length >= 5 && !/\d/.test(p) && !sig.label.has(p) && !(sig.enumForms ?? []).some((o) => o !== form && o.words.some((w) => sameWord(w, p))));
      for (const w of words) {
        const written = turn.text.slice(w.span.start, w.span.end);
        const before = turn.text.slice(0, w.span.start).trimEnd();
        const inSentence = before.length > 0 && !/[.!?:]$/.test(before) && !turn.text.slice(before.length, w.span.start).includes("\n");
        if (/^[A-Z][a-z]/.test(written) && inSentence && named.some((p) => sameWord(w.word, p))) out.push({ value: form.value, span: w.span, words: 0.5 });
      }
    }
    // A value of several words named by their initials in capitals ("HFO" for heavy_fuel_oil), when no other
    // value of the parameter has the same initials.
    if (parts.length >= 2 && parts.length <= 6 && parts.every((p) => /^[a-z]/.test(p))) {
      const initials = parts.map((p) => p[0]).join("");
      const shared = (sig.enumForms ?? []).some((o) => o !== form && o.words.length === parts.length && o.words.map((p) => p[0]).join("") === initials);
      if (!shared) for (const w of words) if (w.word === initials && turn.text.slice(w.span.start, w.span.end) === initials.toUpperCase()) out.push({ value: form.value, span: w.span, words: parts.length });
    }
    // A value that negates a word (non_payment, not_delivered) named by that word with a negative prefix
    // ("unpaid", "undelivered") or after "not" ("not paid"): the same negation of the same lemma.
    if (parts.length === 2 && NEGATIVE.has(parts[0]!)) {
      words.forEach((w, i) => {
        const prefix = ["non", "un"].find((p) => w.word.startsWith(p) && w.word.length >= p.length + 3);
        if (prefix && sameWord(w.word.slice(prefix.length).replace(/^-/, ""), parts[1]!)) out.push({ value: form.value, span: w.span, words: 2 });
        const next = words[i + 1];
        if (NEGATIVE.has(w.word) && next && sameWord(next.word, parts[1]!)) out.push({ value: form.value, span: { start: w.span.start, end: next.span.end }, words: 2 });
      });
    }
    // A short part written out as the words it abbreviates ("high-voltage switching" for hv_switching):
    // each letter the first of one word, in order, the other parts as they are.
    if (parts.length >= 2 && parts.some((p) => /^[a-z]{2,3}$/.test(p))) {
      for (let i = 0; i < words.length; i++) {
        let j = i;
        let spelled = false;
        for (const part of parts) {
          if (words[j] && sameWord(words[j]!.word, part)) j++;
          else if (/^[a-z]{2,3}$/.test(part) && words.slice(j, j + part.length).map((w) => w.word[0]).join("") === part && words.slice(j, j + part.length).every((w) => w.word.length > 1)) {
            j += part.length;
            spelled = true;
          } else {
            j = -1;
            break;
          }
        }
        if (j > i && spelled) out.push({ value: form.value, span: { start: words[i]!.span.start, end: words[j - 1]!.span.end }, words: parts.length });
      }
    }
    // One word of the text standing for a one-word value it begins ("prod" → production, "dev" → development).
    if (parts.length === 1 && parts[0]!.length >= 6) {
      for (const w of words) if (w.word.length >= 3 && w.word.length < parts[0]!.length && parts[0]!.startsWith(w.word) && !forms(w.word).has(w.word + "s")) out.push({ value: form.value, span: w.span, words: 0.5 });
    }
    // A value's coded part written alone ("T2" for t2_standard, "B2" for b2_visa), when no other value
    // has it: a code of letters and digits is how people name such a value.
    if (parts.length >= 2) {
      const coded = parts.filter((p) => /^[a-z]+\d+$|^\d+[a-z]+$/.test(p) && !(sig.enumForms ?? []).some((f) => f !== form && f.words.includes(p)));
      for (const w of words) if (coded.includes(w.word)) out.push({ value: form.value, span: w.span, words: 1 });
    }
    // A multi-word value named by its distinctive words ("background check" for failed_background_check).
    // Only its content words count: "end the employment of" shares "end" and "of" with end_of_contract
    // but names no contract.
    const content = parts.filter((p) => !FUNCTION_WORDS.has(p));
    if (parts.length >= 3 && content.length >= 2) {
      const hits = content.map((p) => words.findIndex((w) => sameWord(w.word, p)));
      const found = hits.filter((h) => h >= 0);
      // "a rent increase notice" for section_13_rent_increase: two words no other value has are enough.
      const others = (sig.enumForms ?? []).filter((f) => f !== form).flatMap((f) => f.words);
      const own = content.filter((p, k) => hits[k]! >= 0 && !/^\d+$/.test(p) && !others.some((o) => sameWord(o, p)));
      if ((found.length >= Math.max(2, content.length - 1) || own.length >= 2) && Math.max(...found) - Math.min(...found) <= parts.length + 2) {
        out.push({ value: form.value, span: { start: words[Math.min(...found)]!.span.start, end: words[Math.max(...found)]!.span.end }, words: found.length - 0.5 });
      }
    }
  }
  // Longer matches hide the shorter ones inside them.
  return out.filter((m) => !out.some((o) => o !== m && o.words > m.words && o.span.start <= m.span.start && o.span.end >= m.span.end));
}

const NEGATIVE = new Set(["non", "not", "no", "un"]);
const POSSESSIVES = new Set(["our", "my", "your", "their", "his", "her", "its"]);
const FUNCTION_WORDS = new Set(["of", "the", "a", "an", "and", "or", "to", "for", "in", "on", "at", "by", "with", "from"]);

/**
 * A value's word that only describes another thing: "on the fuel berth" (a berth, not a fuel charge),
 * "last year's survey" (a thing someone has, not the service asked for). Its noun is not the parameter's
 * own ("express shipping" names the shipping's kind). Such a mention gives way to one that names the value.
 */
function modifierPenalty(sig: Signature, turn: Turn, span: Span, right: string[], nearRight: number): number {
  if (/['’]s\s+$/.test(turn.text.slice(Math.max(0, span.start - 12), span.start))) return 0.5;
  const next = right[0];
  if (next === undefined || nearRight === 0 || !/^[ \t]+$/.test(turn.text.slice(span.end, turn.text.indexOf(next, span.end)))) return 0;
  if (sig.label.has(next) || [...conceptsOf(next)].some((c) => sig.label.has(c))) return 0;
  const [, after] = tag([turn.text.slice(span.start, span.end).toLowerCase().split(/\s+/).at(-1) ?? "", next]);
  return after?.pos === "NOUN" ? 0.5 : 0;
}

/** Enum values the turn names, for every enum parameter, scored like typed values. */
export function readEnums(sigs: Signature[], turn: Turn, asked: Set<string>, paired: Set<Role>): Candidate[] {
  const out: Candidate[] = [];
  // Mentions of worded values, for every parameter at once: a value named by its description gives way to
  // one named by its own words in any parameter (below).
  const worded = (sig: Signature) => sig.enumForms !== undefined && !sig.currencyEnum && !sig.enumForms.every((f) => typeof f.value === "number");
  const mentionsOf = new Map(sigs.filter(worded).map((sig) => [sig, enumMentions(sig, turn)] as const));
  const literal = [...mentionsOf.values()].flat().filter((m) => !m.described);
  for (const sig of sigs) {
    if (!sig.enumForms) continue;
    if (sig.currencyEnum) {
      out.push(...currencyCandidates(sig, turn, asked, sigs));
      continue;
    }
    if (sig.enumForms.every((f) => typeof f.value === "number")) {
      for (const f of turn.found) {
        // A number, or a quantity in the unit the key names ("one hour" for `duration_minutes: [30, 60]`).
        const n = f.value.kind === "number" ? f.value.amount : f.value.kind === "quantity" && sig.unit && f.value.quantity.kind === sig.unit.kind ? convertTo(f.value.quantity.value, f.value.quantity.unit, sig.unit) : undefined;
        if (n !== undefined && sig.enumForms.some((e) => e.value === n)) out.push({ key: sig.key, value: n, score: 1.5 + (f.value.kind === "quantity" ? 0.5 : 0) + cueScore(sig, f.left, f.right, f.near) + (asked.has(sig.key) ? 1.5 : 0), span: f.span, kind: "enum" });
      }
      continue;
    }
    out.push(...noneByNegation(sig, turn, asked));
    out.push(...quantityValues(sig, turn, asked));
    const mentions = mentionsOf.get(sig)!;
    if (mentions.length === 0) out.push(...kindValues(sig, turn, asked));
    for (const m of mentions) {
      // A value named by its description gives way to one named by its own words, of this parameter or of
      // another ("foreign body removal, open" is not the value described as "opening the bladder to remove").
      if (m.described && (mentions.some((o) => !o.described) || literal.some((o) => o.span.start < m.span.end && m.span.start < o.span.end))) continue;
      const { left, right, near } = contextOf(turn.text, turn.words, m.span);
      const score = 1.6 + 0.2 * Math.min(m.words, 3) + cueScore(sig, left, right, near) + roleScore(sig, paired, left, undefined, right) + (asked.has(sig.key) ? 1.5 : 0) - modifierPenalty(sig, turn, m.span, right, near?.right ?? Infinity);
      // A described value spans words that may be other values ("the courier left PKG-1234 at the
      // wrong address"): it describes them, it does not take them.
      // ("boiler inspection" for `equipment: boiler` and `task: boiler_inspection`: a value named whole
      // inside another parameter's longer value is said of both.)
      // (Written as the value itself: "picking" inside "picking B" is the zone's word, not the task `pick`.)
      const asWritten = typeof m.value === "string" && turn.text.slice(m.span.start, m.span.end).toLowerCase().replace(/[\s-]+/g, "_") === m.value.toLowerCase();
      const within = asWritten && [...mentionsOf].some(([other, ms]) => other !== sig && ms.some((o) => !o.described && o.span.start <= m.span.start && o.span.end >= m.span.end && o.span.end - o.span.start > m.span.end - m.span.start));
      out.push({ key: sig.key, value: m.value, score, span: m.span, kind: "enum", ...(m.described || within ? { shared: true } : {}) });
    }
  }
  return out;
}

/**
 * "4.5 kg of herring" for `food_item: [hay, fish, insects, …]`: with no value named, a noun of the turn that
 * WordNet says is a kind of exactly one single-word value is that value (weaker than a value named).
 */
function kindValues(sig: Signature, turn: Turn, asked: Set<string>): Candidate[] {
  const single = (sig.enumForms ?? []).filter((f) => typeof f.value === "string" && f.words.length === 1 && /^[a-z]{3,}$/.test(f.words[0]!));
  if (single.length < 2) return [];
  const out: Candidate[] = [];
  for (const w of turn.words) {
    if (!/^[a-z]{4,}$/.test(w.word) || single.some((f) => f.words[0] === w.word)) continue;
    const forms = [...conceptsOf(w.word)].filter((c) => /^[a-z]+$/.test(c));
    const hits = single.filter((f) => [...conceptsOf(f.words[0]!)].some((kind) => /^[a-z]+$/.test(kind) && forms.some((form) => isKindOf(form, kind))));
    if (hits.length !== 1) continue;
    const { left, right, near } = contextOf(turn.text, turn.words, w.span);
    out.push({ key: sig.key, value: hits[0]!.value, score: 1.4 + cueScore(sig, left, right, near) + (asked.has(sig.key) ? 1.5 : 0), span: w.span, kind: "enum" });
  }
  return out;
}

/**
 * An enum whose values are quantities ("16A", "32A", "63A"; "10mm"): the value equal to a quantity the turn
 * writes in any spelling of its unit ("32 amp", "32 amps", "32A"), by js-quantities.
 */
function quantityValues(sig: Signature, turn: Turn, asked: Set<string>): Candidate[] {
  const values = (sig.enumForms ?? []).flatMap((f) => {
    const m = typeof f.value === "string" ? /^(\d+(?:\.\d+)?)\s*([a-zA-Z°µ]+)$/.exec(f.value) : null;
    const q = m ? quantity(Number(m[1]), m[2]!) : undefined;
    return q ? [{ value: f.value, q }] : [];
  });
  if (values.length === 0) return [];
  const out: Candidate[] = [];
  for (const f of turn.found) {
    if (f.value.kind !== "quantity") continue;
    const said = f.value.quantity;
    const hit = values.find((v) => v.q.kind === said.kind && Math.abs((convert(said.value, said.unit, v.q.unit) ?? NaN) - v.q.value) < 1e-9);
    if (hit) out.push({ key: sig.key, value: hit.value, score: 2.4 + cueScore(sig, f.left, f.right, f.near) + (asked.has(sig.key) ? 1.5 : 0), span: f.span, kind: "enum" });
  }
  return out;
}

/** A currency enum: from a money value's currency ("£190,000" → GBP) or a currency named in words. */
function currencyCandidates(sig: Signature, turn: Turn, asked: Set<string>, sigs: readonly Signature[]): Candidate[] {
  const allowed = new Set(sig.enumForms!.map((f) => String(f.value)));
  const out: Candidate[] = [];
  // ("kr 2 450,75" where the list holds SEK and no other crown: the one crown it takes. A sign several currencies
  // share, "kr", names the one of them the tool's other parameters are said in ("in DKK"), and none
  // where that does not tell: asked, not guessed.)
  // ("$812.40" where the list holds CAD and USD and the API takes CAD when none is given: a sign the
  // family shares, written bare, is the family's currency the API defaults to.)
  const byDefault = typeof sig.enumDefault === "string" ? sig.enumDefault : undefined;
  const ofFamily = (code: string, shared: boolean) => {
    if (byDefault && byDefault !== code && (shared || bare) && currencyFamily(code).includes(byDefault)) return byDefault;
    if (allowed.has(code) && !shared) return code;
    const kin = currencyFamily(code).filter((c) => allowed.has(c));
    if (kin.length === 1) return kin[0];
    const said = [...new Set(sigs.map((s) => s.currency).filter((c): c is string => c !== undefined && kin.includes(c)))];
    return said.length === 1 ? said[0] : undefined;
  };
  let bare = false;
  for (const f of turn.found) {
    // (A bare sign: "$", not "US$" nor "USD".)
    bare = /^[$€£¥]\s?\d|\d\s?[$€£¥]$/.test(f.raw.trim());
    const code = f.value.kind === "money" && f.value.currency ? ofFamily(f.value.currency, /^kr\b|\bkr\.?$/i.test(f.raw)) : undefined;
    if (code) out.push({ key: sig.key, value: code, score: 2.5 + (asked.has(sig.key) ? 1.5 : 0), span: f.span, kind: "enum", shared: true });
  }
  for (const w of turn.words) {
    const code = w.word.length >= 3 ? currencyOfWord(w.word) : undefined;
    if (code && allowed.has(code)) out.push({ key: sig.key, value: code, score: 2.2 + (asked.has(sig.key) ? 1.5 : 0), span: w.span, kind: "enum", shared: true });
  }
  return out;
}

const NEGATIONS = new Set(["no", "not", "don't", "dont", "never", "without", "skip", "skipping", "n't", "nor", "neither", "nothing", "nobody", "none", "disable", "off"]);

/**
 * Yes/no parameters named in the turn by their words ("send the email", "no reboot", "make it remote"): true
 * unless a negation stands within three words before. A parameter the turn does not name stays unset.
 */
export function readBooleans(sigs: Signature[], turn: Turn): Map<string, boolean> {
  const out = new Map<string, boolean>();
  // A form's lines "label: value", read once for every yes/no parameter.
  const labels = [...turn.text.matchAll(/^[\s\-*•]*([A-Za-z][A-Za-z /-]{0,30}?)(?:\s*[:=]|\s+[-–—])\s*(\S+)/gm)].map((m) => ({ label: m[1]!.toLowerCase().split(/[\s/-]+/), said: m[2]!.toLowerCase().replace(/[.,;!]+$/, "") }));
  const holds = (s: Signature, label: string[]) => label.some((w) => s.keyWords.some((k) => k.length > 2 && sameWord(w, k)));
  for (const sig of sigs) {
    if (sig.kind !== "boolean") continue;
    const state = stateOf(sig, turn);
    if (state !== undefined) {
      out.set(sig.key, state);
      continue;
    }
    const named = sig.keyWords.filter((w) => w.length > 2 && !["is", "has", "should", "enable", "enabled", "allow"].includes(w));
    // "pump needed", "pump: yes" for `pump_required`: a word saying that the thing is wanted is not needed.
    const parts = named.filter((w) => !WANTED.has(w)).length > 0 ? named.filter((w) => !WANTED.has(w)) : named;
    if (parts.length === 0) continue;
    // "Glaze: yes" for `glaze_check`, in a form's lines: a label that is a word of the key, then yes or no
    // (the only such key among the yes/no parameters).
    const labelled = labels.find((l) => holds(sig, l.label) && sigs.filter((s) => s.kind === "boolean" && holds(s, l.label)).length === 1);
    if (labelled && (YES.has(labelled.said) || NO.has(labelled.said))) {
      out.set(sig.key, YES.has(labelled.said));
      continue;
    }
    // "… plus the fees", "including fees", "without the fees" for `refund_fees`: the key's last noun after a
    // word that adds or leaves out a thing, when the key's other words are the request's own verb.
    const noun = parts.at(-1)!;
    const added = parts.length > 1 ? withOrWithout(turn, noun) : undefined;
    if (added !== undefined) {
      out.set(sig.key, added);
      continue;
    }
    const head = parts[0]!;
    const at = turn.words.findIndex((w) => sameWord(w.word, head));
    if (at < 0) continue;
    // Every word of the key within a short window ("send … email" for send_email), which may open before
    // the key's first word: "hasn't paid the deposit" for `deposit_paid`.
    const from = Math.max(0, at - 3);
    const window = turn.words.slice(from, at + parts.length + 3).map((w) => w.word);
    if (!parts.every((p) => window.some((w) => sameWord(w, p)))) continue;
    const earliest = from + window.findIndex((w) => parts.some((p) => sameWord(w, p)));
    if (earliest < at) {
      // A verb of the key before its noun: negated before it ("has not paid", "hasn't paid") says no.
      const before = turn.words.slice(Math.max(0, earliest - 2), earliest).map((w) => w.word);
      out.set(sig.key, !before.some((w) => NEGATIONS.has(w) || w.endsWith("n't")));
      continue;
    }
    // Said after it: "pump: yes", "pump — no", "pump not needed".
    const after = turn.words.slice(at + parts.length, at + parts.length + 2).map((w) => w.word);
    if (YES.has(after[0] ?? "")) out.set(sig.key, true);
    else if (NO.has(after[0] ?? "") || (after[0] === "not" && WANTED.has(after[1] ?? "")) || negatedBetween(window, parts)) out.set(sig.key, false);
    else {
      const before = turn.words.slice(Math.max(0, at - 3), at).map((w) => w.word);
      out.set(sig.key, !before.some((w) => NEGATIONS.has(w) || w.endsWith("n't")));
    }
  }
  return out;
}

// Words that add a thing to what is done, or leave it out.
const WITH = new Set(["with", "including", "incl", "plus", "inclusive"]);
const WITHOUT = new Set(["without", "excluding", "excl", "minus", "except", "less"]);

/** Whether the turn adds the noun ("plus the fees") or leaves it out ("without fees"); undefined when neither. */
function withOrWithout(turn: Turn, noun: string): boolean | undefined {
  let said: boolean | undefined;
  turn.words.forEach((w, i) => {
    if (!sameWord(w.word, noun)) return;
    let k = i - 1;
    while (k >= 0 && ARTICLES.has(turn.words[k]!.word)) k--;
    const before = turn.words[k]?.word ?? "";
    if (WITH.has(before)) said ??= true;
    else if (WITHOUT.has(before)) said ??= false;
  });
  return said;
}

/** A negation between the key's words: "deposit not paid", "deposit never collected". */
function negatedBetween(window: string[], parts: string[]): boolean {
  const at = window.map((w, i) => (parts.some((p) => sameWord(w, p)) ? i : -1)).filter((i) => i >= 0);
  if (at.length < 2) return false;
  return window.slice(at[0]! + 1, at.at(-1)).some((w) => NEGATIONS.has(w) || w.endsWith("n't"));
}

// Words of a yes/no argument's name that say the thing is wanted ("pump_required", "lift_needed").
const WANTED = new Set(["required", "needed", "requested", "wanted", "necessary"]);
const YES = new Set(["yes", "y", "true", "yep", "yeah", "required", "needed", "requested", "wanted"]);
const NO = new Set(["no", "n", "false", "none", "nope", "n/a"]);

const STATES = new Set(["enable", "disable"]);
const PHRASAL = new Set(["turn", "switch", "flip", "toggle", "set", "put"]);

/**
 * A parameter that is a state (`enabled`, `active`, `locked`) set by the verb of the request: "enable",
 * "activate", "turn on" set an enabling state true and "disable", "kill", "turn off" false; the other way
 * round for a disabling state (`locked`, `disabled`).
 */
function stateOf(sig: Signature, turn: Turn): boolean | undefined {
  const keyClass = sig.keyWords.map((w) => verbClassOf(w)).find((c) => c !== undefined && STATES.has(c)) ?? (sig.keyWords.includes("on") || sig.keyWords.includes("active") ? "enable" : undefined);
  if (!keyClass) return undefined;
  for (let i = 0; i < turn.words.length; i++) {
    const w = turn.words[i]!.word;
    let said = verbClassOf(w);
    if (said !== "enable" && said !== "disable" && !(said === "stop" && w === "kill")) said = undefined;
    if (w === "kill") said = "disable";
    if (!said && PHRASAL.has(w)) {
      const particle = turn.words.slice(i + 1, i + 5).find((x) => x.word === "on" || x.word === "off");
      if (particle) said = particle.word === "on" ? "enable" : "disable";
    }
    if (!said) continue;
    const negated = turn.words.slice(Math.max(0, i - 3), i).some((x) => NEGATIONS.has(x.word) || x.word.endsWith("n't"));
    return (said === keyClass) !== negated;
  }
  return undefined;
}

const NONE_VALUES = new Set(["none", "no", "false", "n/a", "na", "not_applicable", "neither"]);

/** "it's not controlled", "non-urgent": the parameter's own word negated picks its none value. */
function noneByNegation(sig: Signature, turn: Turn, asked: Set<string>): Candidate[] {
  const none = sig.enumForms?.find((f) => typeof f.value === "string" && NONE_VALUES.has(f.value.toLowerCase()));
  if (!none) return [];
  const out: Candidate[] = [];
  turn.words.forEach((w, i) => {
    if (!sig.keyWords.some((k) => k.length > 3 && sameWord(w.word, k))) return;
    const before = turn.words.slice(Math.max(0, i - 2), i).map((x) => x.word);
    const negated = before.some((x) => NEGATIONS.has(x) || x.endsWith("n't") || x === "non") || /\bnon-?$/i.test(turn.text.slice(Math.max(0, w.span.start - 4), w.span.start));
    if (negated) out.push({ key: sig.key, value: none.value, score: 2.2 + (asked.has(sig.key) ? 1.5 : 0), span: w.span, kind: "enum" });
  });
  return out;
}
