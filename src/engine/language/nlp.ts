// Lemmas and parts of speech from wink-nlp's English model, loaded once per process on first use. Chosen
// over compromise (docs/policies.md, "The language layer"): on the 50 sample rules it tags verbs and nouns
// more accurately (UD tags) and is 17 times faster warm (0.42 ms against 7 ms a sentence), which matters
// because the intent engine reads every turn with it.
import winkNLP, { type WinkMethods } from "wink-nlp";
import model from "wink-eng-lite-web-model";

export interface Tagged {
  lemma: string;
  /** Universal Dependencies part of speech: NOUN, VERB, ADJ, ADV, ADP, DET, AUX, PART, PRON, NUM, PROPN… */
  pos: string;
}

let engine: WinkMethods | undefined;
// Lexemes of the model's own lexicon are numbered before any word it meets later: the number a word never
// seen takes, read first thing, is where the lexicon ends.
let lexiconSize = 0;
const wink = (): WinkMethods => {
  if (engine) return engine;
  engine = winkNLP(model, ["pos"]);
  const ids = engine.readDoc("qqxzjvkw").tokens().out(engine.its.uniqueId) as number[];
  lexiconSize = ids[0] ?? 0;
  return engine;
};

/**
 * Tags words in their sentence. The words are joined by spaces and read as one sentence (lower-cased: the
 * model reads a capitalised first word as a proper noun and leaves it unlemmatised); wink's tokens are
 * aligned back onto the words by their text, so a word wink splits ("sign-off") gets its last part's tag.
 */
export function tag(words: readonly string[]): Tagged[] {
  const out: Tagged[] = words.map((w) => ({ lemma: w, pos: "X" }));
  if (words.length === 0) return out;
  try {
    const doc = wink().readDoc(words.join(" "));
    const its = wink().its;
    const values = doc.tokens().out(its.value) as string[];
    const lemmas = doc.tokens().out(its.lemma as Parameters<ReturnType<typeof doc.tokens>["out"]>[0]) as string[];
    const pos = doc.tokens().out(its.pos) as string[];
    let w = 0;
    let consumed = "";
    let parts = 0;
    for (let t = 0; t < values.length && w < words.length; t++) {
      consumed += values[t];
      parts++;
      out[w] = { lemma: (lemmas[t] ?? values[t]!).toLowerCase(), pos: pos[t] ?? "X" };
      if (consumed.length >= words[w]!.length) {
        // A compound of a verb and its particle ("write-off", "check-ins", "sign-up") is a noun: its last
        // part alone would tag it as a preposition or particle, and the word would be lost.
        if (parts > 1 && ["ADP", "PART", "ADV"].includes(out[w]!.pos) && words[w]!.includes("-")) {
          const last = (values[t] ?? "").toLowerCase();
          const lastLemma = out[w]!.lemma;
          out[w] = { lemma: words[w]!.toLowerCase().slice(0, words[w]!.length - last.length) + (lastLemma.length < last.length ? lastLemma : last.replace(/s$/, "")), pos: "NOUN" };
        }
        w++;
        consumed = "";
        parts = 0;
      }
    }
  } catch {
    // Tagging is a help, never a requirement: untagged words keep their own form.
  }
  return out;
}

/**
 * Whether a word is in the English model's lexicon (about 87,000 words and names: "use", "right", "amex",
 * "firmware"), or an inflection of one ("forklifts", "rebooted"), as opposed to one it never saw (a
 * misspelling, a made-up name, an id). A lexicon word is never "corrected" into another word.
 */
export function isEnglishWord(word: string): boolean {
  const w = word.toLowerCase();
  if (!/^[a-z]+(?:['-][a-z]+)*$/.test(w)) return false;
  if (inLexicon(w)) return true;
  // The lexicon holds base forms and common inflections; a regular inflection of a base form is a word too.
  const bases: string[] = [];
  if (w.endsWith("ies")) bases.push(`${w.slice(0, -3)}y`);
  if (w.endsWith("es")) bases.push(w.slice(0, -2));
  if (w.endsWith("s") && !w.endsWith("ss")) bases.push(w.slice(0, -1));
  for (const suffix of ["ed", "ing"]) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    bases.push(stem, `${stem}e`);
    if (stem.length > 2 && stem.at(-1) === stem.at(-2)) bases.push(stem.slice(0, -1));
  }
  return bases.some((b) => b.length >= 3 && inLexicon(b));
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const TYPO_CACHE = new Map<string, string | null>();

/**
 * The English word a word no lexicon knows is one slip away from ("numbr" → number, "adress" → address,
 * "recieve" → receive): one letter dropped, added, changed or two swapped. Undefined for a word of the
 * lexicon, a short word, or one no such slip explains (a name, a code, a term of art).
 */
export function typoOf(word: string): string | undefined {
  const w = word.toLowerCase();
  if (w.length < 4 || !/^[a-z]+$/.test(w) || isEnglishWord(w)) return undefined;
  const hit = TYPO_CACHE.get(w);
  if (hit !== undefined) return hit ?? undefined;
  let found: string | undefined;
  const tryWord = (candidate: string) => {
    if (found === undefined && candidate.length >= 3 && inLexicon(candidate)) found = candidate;
  };
  // Swapped, then dropped ("numbr" is number, not numb), then mistyped, then doubled or added.
  for (let i = 0; i + 1 < w.length && found === undefined; i++) tryWord(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2));
  for (let i = 0; i <= w.length && found === undefined; i++) for (const c of LETTERS) tryWord(w.slice(0, i) + c + w.slice(i));
  for (let i = 0; i < w.length && found === undefined; i++) for (const c of LETTERS) if (c !== w[i]) tryWord(w.slice(0, i) + c + w.slice(i + 1));
  for (let i = 0; i < w.length && found === undefined; i++) tryWord(w.slice(0, i) + w.slice(i + 1));
  if (TYPO_CACHE.size >= 5_000) TYPO_CACHE.clear();
  TYPO_CACHE.set(w, found ?? null);
  return found;
}

function inLexicon(w: string): boolean {
  const hit = LEXICON_CACHE.get(w);
  if (hit !== undefined) return hit;
  let known = false;
  try {
    const doc = wink().readDoc(w);
    const ids = doc.tokens().out(wink().its.uniqueId) as number[];
    known = ids.length > 0 && ids.every((id) => id < lexiconSize);
  } catch {
    // Unknown is the safe answer: the word is then only compared with memory's words, never rewritten blindly.
  }
  if (LEXICON_CACHE.size >= 20_000) LEXICON_CACHE.clear();
  LEXICON_CACHE.set(w, known);
  return known;
}

const LEXICON_CACHE = new Map<string, boolean>();

/**
 * Whether a word as written is in the model's lexicon (no inflection fallback): surnames and many place and
 * brand names are not ("Adebayo"), titles are ("analyst", "designer").
 */
export const isKnownWord = (word: string): boolean => inLexicon(word.toLowerCase());

const deniedCache = new Map<string, string | null>();
/**
 * The participle an "un-" word denies ("unsigned" → signed, "unpaid" → paid, "unsubscribed" → subscribed), by
 * the tagger reading the rest after "was" as a verb's participle; undefined for other words ("unknown" is
 * read too: "known"; "under", "united" are not).
 */
export function deniedParticiple(word: string): string | undefined {
  let hit = deniedCache.get(word);
  if (hit === undefined) {
    const rest = word.slice(2);
    const tagged = /^un[a-z]{4,}$/.test(word) && !rest.endsWith("ing") ? tag(["it", "was", rest])[2] : undefined;
    hit = tagged?.pos === "VERB" && tagged.lemma !== rest ? rest : null;
    if (deniedCache.size > 10_000) deniedCache.clear();
    deniedCache.set(word, hit);
  }
  return hit ?? undefined;
}
