// The corpus: every meaning, its sentences (render.ts) and its probes (probes.ts), split into `tune` and
// `holdout` by a hash of the meaning id. The holdout is for aggregate numbers only: never read its sentences
// one by one while changing the parser.
import { hashOf, meanings, splitOf, type Meaning, type Split } from "./meanings.ts";
import { probesFor, type CorpusProbe } from "./probes.ts";
import { render } from "./render.ts";

export interface CorpusEntry {
  id: string;
  meaningId: string;
  split: Split;
  form: string;
  rule: string;
  domain?: string;
  /** The expected meaning: what the sentence says, independent of how the service compiles it. */
  meaning: Meaning;
  probes: CorpusProbe[];
}

export const SENTENCES_PER_MEANING = 8;

export function buildCorpus(): CorpusEntry[] {
  const out: CorpusEntry[] = [];
  for (const m of meanings()) {
    const probes = probesFor(m);
    render(m, SENTENCES_PER_MEANING).forEach((s, i) =>
      out.push({ id: `${m.id}#${i + 1}`, meaningId: m.id, split: splitOf(m.id), form: s.form, rule: s.text, ...(m.domain ? { domain: m.domain } : {}), meaning: m, probes }),
    );
  }
  return out;
}

/** A fixed, spread-out sample of a split (the same on every run): `n` sentences chosen by hash. */
export function fixedSample(entries: CorpusEntry[], n: number): CorpusEntry[] {
  if (n >= entries.length) return entries;
  return [...entries].sort((a, b) => hashOf(`sample:${a.id}`) - hashOf(`sample:${b.id}`)).slice(0, n);
}

/** A fixed sample that keeps paraphrases together: `perMeaning` sentences of each of `count` meanings. */
export function sampleByMeaning(entries: CorpusEntry[], count: number, perMeaning: number): CorpusEntry[] {
  const ids = [...new Set(entries.map((e) => e.meaningId))].sort((a, b) => hashOf(`meaning-sample:${a}`) - hashOf(`meaning-sample:${b}`)).slice(0, count);
  const chosen = new Set(ids);
  const taken = new Map<string, number>();
  return entries.filter((e) => {
    if (!chosen.has(e.meaningId)) return false;
    const n = taken.get(e.meaningId) ?? 0;
    taken.set(e.meaningId, n + 1);
    return n < perMeaning;
  });
}
