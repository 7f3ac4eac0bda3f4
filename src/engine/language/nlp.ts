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
// The model gives words it has never seen ids past the end of its lexicon, in the order it meets them: the
// first unseen string, read as soon as the model loads, marks where the lexicon ends.
let lexiconSize = Infinity;
const wink = (): WinkMethods => {
  if (!engine) {
    engine = winkNLP(model, ["pos"]);
    lexiconSize = engine.readDoc("qxzvjkq").tokens().out(engine.its.uniqueId)[0] as unknown as number;
  }
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
    for (let t = 0; t < values.length && w < words.length; t++) {
      consumed += values[t];
      out[w] = { lemma: (lemmas[t] ?? values[t]!).toLowerCase(), pos: pos[t] ?? "X" };
      if (consumed.length >= words[w]!.length) {
        w++;
        consumed = "";
      }
    }
  } catch {
    // Tagging is a help, never a requirement: untagged words keep their own form.
  }
  return out;
}

/**
 * Whether a word is in the model's English lexicon. Words it has never seen (most surnames, many place and
 * brand names) get ids past the lexicon's end; "analyst" and "designer" are known words, "Nwosu" is not.
 */
const known = new Map<string, boolean>();
export function isKnownWord(word: string): boolean {
  const w = word.toLowerCase();
  const hit = known.get(w);
  if (hit !== undefined) return hit;
  if (known.size > 20_000) known.clear();
  known.set(w, knownByModel(w));
  return known.get(w)!;
}

function knownByModel(word: string): boolean {
  try {
    const id = wink().readDoc(word.toLowerCase()).tokens().out(wink().its.uniqueId)[0] as unknown as number;
    return id < lexiconSize;
  } catch {
    return true;
  }
}
