// Codes the workspace's memory gives for the names a request uses. A request names people, places and
// products the way people do ("send Dr Varga out to it", "collect it from Kesteren"), while the tool wants
// their codes (`technician_id: ^TEC-[0-9]{3}$`, `depot_code: ^[A-Z]{5}$`); a reference item that lists them
// ("Dr Ilse Varga TEC-204", "Kesteren KSTRN", "SUP-311 Oakmere Timber", "Noor Haddou (TEC-117)") is how a
// colleague would know. The name in the request is glossed with its code ("Dr Varga (TEC-204)") and the
// arguments are read again, so the one matcher (extract.ts) decides which parameter the code fills, by its
// pattern and the words around it, exactly as if the user had written the code.
//
// Nothing is guessed: a name is glossed only when every word of it is a name word of one listing and the
// listing has one code of the shape; a name two listings share ("Varga" for two people), a title alone
// ("Mrs") or a name with a word no listing has ("Mrs Jones") is left as written, and the parameter is asked for.
import { escapeRegExp } from "../language/tokens.ts";
import { isEnglishWord } from "../language/nlp.ts";
import type { Signature } from "./arguments/signature.ts";

/** How a parameter's values are found in memory's text: a code by its pattern, an enum by its values. */
export interface Finder {
  find: RegExp;
  accept: (text: string) => boolean;
}

/** A code of one listing, and the name words that listing gives it. */
export interface Listing {
  code: string;
  names: Set<string>;
  /** The memory item it was read from. */
  source: string;
}

export interface Gloss {
  /** The turns with each glossed name followed by its code in brackets. */
  turns: string[];
  /** Which name became which code, and from which item. */
  glossed: { name: string; code: string; source: string }[];
}

const WORD = /[A-Za-z][A-Za-z'’-]*/g;

/** A word as a name is compared: lower case, without a possessive ("Oren's" → oren). */
const nameKey = (word: string) => word.toLowerCase().replace(/['’]s$/, "").replace(/['’-]+$/, "");

/**
 * Whether a code a pattern finds is an identifier: upper-case letters (and digits or marks), at least three
 * characters. A time ("08:00"), a phone number or an ordinary word a loose pattern also accepts is not.
 */
function isCode(text: string): boolean {
  return text.length >= 3 && /[A-Z]/.test(text) && !/[a-z]/.test(text);
}

/**
 * The listings of one memory text for one code shape. The text is cut into sentences and each sentence at
 * its commas, semicolons and colons (not inside numbers: "1,850", "08:00"); an aside in brackets is kept
 * only when it holds the code ("Noor Haddou (TEC-117)"), else dropped ("(pumps, nights)"). A piece
 * with one code gives it the piece's name words: capitalised words, but not a sentence's first word unless
 * the lexicon does not know it ("Valve VLV-310" gives no name; "Brugwijk BRGWK" after a colon does). A
 * piece whose code has no name of its own ("…are sent to Brookfell Glazing, contractor CON-742") takes the names
 * of the piece before it, in apposition. A piece with two codes binds neither.
 */
export function listingsOf(text: string, finder: Finder, source: string): Listing[] {
  const find = finder.find;
  const codeIn = (s: string) => [...s.matchAll(new RegExp(find.source, find.flags.includes("g") ? find.flags : `${find.flags}g`))].map((m) => m[0]).filter(finder.accept);
  const unbracketed = text.replace(/\(([^()]*)\)/g, (_, inner: string) => (codeIn(inner).length > 0 ? ` ${inner} ` : " "));
  const out: Listing[] = [];
  for (const sentence of unbracketed.split(/(?<=[.!?])\s+(?=[A-Z0-9])|\n+/)) {
    let before: Set<string> | undefined;
    let first = true;
    for (const piece of sentence.split(/[,;:]\s+/)) {
      const codes = [...new Set(codeIn(piece))];
      const names = new Set<string>();
      for (const m of codes.reduce((rest, code) => rest.split(code).join(" "), piece).matchAll(WORD)) {
        const word = m[0];
        const initial = first && m.index === piece.search(/\S/);
        if (/^[A-Z]/.test(word) && (!initial || !isEnglishWord(nameKey(word)))) names.add(nameKey(word));
      }
      first = false;
      if (codes.length === 1) out.push({ code: codes[0]!, names: names.size > 0 ? names : (before ?? names), source });
      before = codes.length === 0 ? names : undefined;
    }
  }
  return out.filter((l) => l.names.size > 0);
}

/**
 * The names a turn uses: runs of words that read as a name. A capitalised word counts unless it starts a
 * sentence and is an ordinary word ("Put", "Steel beams…"); a lower-case word counts only when the lexicon
 * does not know it ("haddou", "oakmere"), as lower-case "bill" or "plant" is as likely a word as a name.
 */
interface NameRun {
  words: string[];
  /** The words written with a capital: a listing must hold them all ("Mrs Jones" is not "Mrs Whitfield"). */
  capitalised: string[];
  end: number;
}

function namesIn(turn: string): NameRun[] {
  const runs: NameRun[] = [];
  let run: NameRun | undefined;
  let lastEnd = 0;
  // Whether the text so far ends a sentence: read from the gap since the last word only, so that a long
  // message is walked once (this runs on the request path).
  let sentenceEnded = true;
  for (const m of turn.matchAll(WORD)) {
    const word = m[0];
    const key = nameKey(word);
    const gap = turn.slice(lastEnd, m.index);
    const initial = /[.!?\n]\s*$/.test(gap) || (sentenceEnded && gap.trim() === "");
    const known = isEnglishWord(key);
    const capital = /^[A-Z]/.test(word);
    // A sentence's first word is a name when it is not an ordinary word, or is one with a possessive
    // ("Oren's on call"); the letters of a code ("TKT-" of TKT-40112) are not a word.
    const partOfCode = /^[-_]?\d/.test(turn.slice(m.index + word.length, m.index + word.length + 2)) || /\d[-_]?$/.test(turn.slice(Math.max(0, m.index - 2), m.index));
    const isName = key.length >= 2 && !partOfCode && (capital ? !initial || !known || /['’]s$/.test(word) : !known);
    const adjacent = run !== undefined && /^\s+$/.test(turn.slice(lastEnd, m.index));
    if (isName && !adjacent) runs.push((run = { words: [], capitalised: [], end: 0 }));
    if (isName) {
      run!.words.push(key);
      if (capital) run!.capitalised.push(key);
      run!.end = m.index + word.length;
    } else run = undefined;
    lastEnd = m.index + word.length;
    sentenceEnded = false;
  }
  return runs;
}

/** The words a memory search for the turns' names should use (empty when the turns name no one). */
export function nameWords(turns: string[]): string[] {
  return [...new Set(turns.flatMap((t) => namesIn(t).flatMap((r) => r.words)))];
}

/**
 * How memory writes the values of parameters still to fill: codes of a strict pattern ("TEC-204"), and
 * the values of an enum of words as the schema spells them ("east_ring covers Kestermoor and Dunvale").
 */
export function findersOf(signatures: Signature[]): Finder[] {
  const out: Finder[] = [];
  for (const s of signatures) {
    if (s.pattern?.strict) out.push({ find: s.pattern.find, accept: isCode });
    const values = enumFinder(s);
    if (values) out.push(values);
  }
  return out;
}

// Signatures are cached per schema (signature.ts), so their enum finders are made once, not per request.
const enumFinders = new WeakMap<Signature, Finder | null>();
function enumFinder(s: Signature): Finder | undefined {
  let hit = enumFinders.get(s);
  if (hit === undefined) {
    // (Only values written as identifiers, "north_county", "p1_emergency": a plain word such as "high"
    // or "open" is an ordinary word in a note, not a reference to the value.)
    const values = (s.enumForms ?? []).map((f) => f.value).filter((v): v is string => typeof v === "string" && v.length >= 4 && /[_-]/.test(v));
    hit = values.length === 0 ? null : { find: new RegExp(`(?<![A-Za-z0-9_-])(?:${values.map(escapeRegExp).join("|")})(?![A-Za-z0-9_-])`, "g"), accept: () => true };
    enumFinders.set(s, hit);
  }
  return hit ?? undefined;
}

/**
 * The turns with each name that one listing gives one value of a missing parameter glossed with it.
 * `finders`: how the values of the parameters still to fill are written (findersOf).
 */
export function glossNames(turns: string[], items: { id: string; text: string }[], finders: Finder[]): Gloss {
  const listings = finders.flatMap((f) => items.flatMap((item) => listingsOf(item.text, f, item.id)));
  const glossed: Gloss["glossed"] = [];
  if (listings.length === 0) return { turns, glossed };
  const out = turns.map((turn) => {
    const inserts: { at: number; code: string }[] = [];
    for (const run of namesIn(turn)) {
      // The name's words written with a capital (all its words, when none is) must be a listing's name
      // words, its last word at least ("Dr Varga" for "Ilse Varga"), and the others either that listing's
      // or no listing's ("Mrs Jones" is not "Mrs Whitfield"). The listings that hold it must give one code.
      const needed = run.capitalised.length > 0 ? run.capitalised : run.words;
      const head = needed.at(-1)!;
      const named = (w: string) => listings.some((l) => l.names.has(w));
      const holding = listings.filter((l) => l.names.has(head) && needed.every((w) => l.names.has(w) || !named(w)));
      const codes = [...new Set(holding.map((l) => l.code))];
      if (codes.length !== 1 || turn.includes(codes[0]!)) continue;
      inserts.push({ at: run.end, code: codes[0]! });
      glossed.push({ name: run.words.join(" "), code: codes[0]!, source: holding[0]!.source });
    }
    let text = turn;
    for (const { at, code } of inserts.sort((a, b) => b.at - a.at)) text = `${text.slice(0, at)} (${code})${text.slice(at)}`;
    return text;
  });
  return { turns: out, glossed };
}
