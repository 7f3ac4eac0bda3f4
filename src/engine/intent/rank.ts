// Capability check: rank a workspace's tools (and the catalog's unconnected integrations) against a request,
// lexically. BM25 over each tool's name words (weighted), its description and its parameters' names and
// enum values, all reduced to stems, so "refund ORD-77310" finds `create_refund` and "compensate" finds
// nothing. Deterministic: the same tools and words give the same order.
import { stem, words } from "../text/stem.ts";

// Words that carry no capability: articles, pronouns, politeness, auxiliaries.
const STOPWORDS = new Set(
  (
    "a an the and or but of to in on at for from by with about as into over under this that these those it its is are was were be been being " +
    "i me my we our us you your he she they them their his her can could would will shall should may might must do does did done has have had having " +
    "please pls plz thanks thank hi hello hey just now then also so up out some any all each every what which who whom whose when where why how " +
    "there here yes no not ok okay let lets let's need want like get got go going make sure quick quickly asap again new"
  ).split(" "),
);

export function contentStems(text: string): string[] {
  return words(text)
    .filter((w) => w.length > 1 && !STOPWORDS.has(w) && !/^\d+$/.test(w))
    .map(stem);
}

/**
 * The ranking key of one lower-case word: its stem, except that a word ending in -er keeps that ending.
 * The stemmer strips -er for agent nouns ("sender" → send), which also turns "offer" into "off", "order"
 * into "ord" and "transfer" into "transf" and makes an offer match time off; in tool vocabularies such
 * words are objects far more often than agents. Inflections still meet: "offered", "offers" → offer.
 */
export function rankKey(word: string): string {
  if (word.length > 4 && /ers?$/.test(word) && !/(ss|us|is)$/.test(word)) return word.replace(/s$/, "");
  return stem(word);
}

/** A text's content words (stop words and bare numbers dropped). */
function contentWords(text: string): string[] {
  return words(text).filter((w) => w.length > 1 && !STOPWORDS.has(w) && !/^\d+$/.test(w));
}

/** The ranking keys of a text's content words. */
export function rankTerms(text: string): string[] {
  return contentWords(text).map(rankKey);
}

export interface RankDocument<T> {
  item: T;
  /** Words that name the thing (tool name, integration name): counted three times. */
  name: string;
  /** Everything else that describes it. */
  text: string;
}

export interface Ranked<T> {
  item: T;
  score: number;
  /** Query stems found in the document. */
  matched: string[];
  /** Query stems found in its name. */
  nameMatched: string[];
}

const K1 = 1.2;
const B = 0.75;
const NAME_WEIGHT = 3;

/** An index built once per set of documents (a workspace's tools change rarely), queried per request. */
export class Bm25<T> {
  private readonly docs: { item: T; tf: Map<string, number>; length: number; nameStems: Set<string> }[];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  /** `terms`: how a text becomes index terms (stems by default; the intent engine's ranking keys). */
  constructor(documents: RankDocument<T>[], terms: (text: string) => string[] = contentStems) {
    this.docs = documents.map((d) => {
      const tf = new Map<string, number>();
      const nameStems = terms(d.name);
      for (const s of nameStems) tf.set(s, (tf.get(s) ?? 0) + NAME_WEIGHT);
      const body = terms(d.text);
      for (const s of body) tf.set(s, (tf.get(s) ?? 0) + 1);
      for (const s of tf.keys()) this.df.set(s, (this.df.get(s) ?? 0) + 1);
      return { item: d.item, tf, length: nameStems.length * NAME_WEIGHT + body.length, nameStems: new Set(nameStems) };
    });
    this.avgLength = this.docs.reduce((a, d) => a + d.length, 0) / Math.max(1, this.docs.length);
  }

  get size(): number {
    return this.docs.length;
  }

  documentFrequency(term: string): number {
    return this.df.get(term) ?? 0;
  }

  /**
   * A misspelt query stem read as the indexed stem one edit away ("reshedul" → "schedul"), or a clipped
   * word as the one indexed word it begins ("repo" → repository), else itself.
   */
  correct(term: string): string {
    if (this.df.has(term) || term.length < 4) return term;
    const longer = [...this.df.keys()].filter((known) => known.length >= term.length + 3 && known.startsWith(term));
    if (longer.length === 1) return longer[0]!;
    if (term.length < 5) return term;
    let best: string | undefined;
    for (const known of this.df.keys()) {
      if (Math.abs(known.length - term.length) > 1 || known.length < 5) continue;
      if (withinOneEdit(term, known)) {
        if (best !== undefined) return term; // two readings: leave it
        best = known;
      }
    }
    return best ?? term;
  }

  /**
   * Documents that share at least one term with the query, best first. `weights` counts some query terms
   * more (the request's main verb and its object); a term's weight multiplies its BM25 contribution.
   */
  rank(queryStems: string[], weights?: ReadonlyMap<string, number>): Ranked<T>[] {
    const unique = [...new Set(queryStems)];
    const n = this.docs.length;
    const results: Ranked<T>[] = [];
    for (const d of this.docs) {
      let score = 0;
      const matched: string[] = [];
      const nameMatched: string[] = [];
      for (const q of unique) {
        const f = d.tf.get(q);
        if (!f) continue;
        const df = this.df.get(q) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += ((weights?.get(q) ?? 1) * idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / (this.avgLength || 1)));
        matched.push(q);
        if (d.nameStems.has(q)) nameMatched.push(q);
      }
      if (score > 0) results.push({ item: d.item, score, matched, nameMatched });
    }
    return results.sort((a, b) => b.score - a.score);
  }
}

/** One insertion, deletion, substitution or swap of neighbours turns a into b. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
