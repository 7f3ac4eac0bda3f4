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
