// The generated policy corpus (eval/policy-corpus) as a regression floor, black-box over real HTTP: a fixed
// sample of the tune split is created and confirmed sentence by sentence in fresh workspaces, its probes are
// decided by POST /policies/evaluate, and the accuracy must not fall below a floor. The floors are the
// figures the parser reached when they were set, minus a small margin; raise them as the parser improves
// (or override them for an experiment: POLICY_CORPUS_MIN_PROBES=0.9 npx vitest run test/policy-corpus.test.ts).
// The holdout split is never run here.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadRuleLines } from "../eval/policies.ts";
import { buildCorpus, sampleByMeaning } from "../eval/policy-corpus/corpus.ts";
import { meanings, splitOf } from "../eval/policy-corpus/meanings.ts";
import { runEntries, summarise } from "../eval/policy-corpus/measure.ts";
import { decideMeaning } from "../eval/policy-corpus/probes.ts";
import { expectedSequence, parseRuleLine, probeRight, type Probe } from "../eval/policy-probes.ts";
import { ADMIN_TOKEN, useServer } from "./helpers/server.ts";

const floor = (name: string, fallback: number) => {
  const raw = process.env[name];
  return raw === undefined || raw === "" ? fallback : Number(raw);
};
// Raised with the rebuilt parser (docs/eval.md) and again with the classes of issue 13's never-fire work:
// on this sample it gets 96.0% of probes right and compiles every sentence (59.9% and 17.1% before the
// rebuild); the floors sit a few points below.
const MIN_PROBES_RIGHT = floor("POLICY_CORPUS_MIN_PROBES", 0.93);
const MIN_COMPILED = floor("POLICY_CORPUS_MIN_COMPILED", 0.97);
// The metamorphic floors: paraphrases decide alike for 79% of meanings and restatements for 98% of probes
// (a restatement's action words and subjects read back as written); both are floors to raise, not targets.
const MIN_PARAPHRASE_ALIKE = floor("POLICY_CORPUS_MIN_PARAPHRASE", 0.7);
const MIN_ROUND_TRIP_ALIKE = floor("POLICY_CORPUS_MIN_ROUND_TRIP", 0.95);
// 80 meanings of the tune split, three sentences each (240 sentences, about 20 s on PGlite here): spread over
// the kinds of rule, with paraphrases together so that "paraphrases decide alike" means something.
const SAMPLE_MEANINGS = floor("POLICY_CORPUS_SAMPLE_MEANINGS", 80);

const corpus = buildCorpus();

describe("policy corpus: what it holds", () => {
  it("has at least 2,000 sentences, about a quarter of the meanings held out, every paraphrase in its meaning's split", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(2000);
    const ids = meanings().map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    const held = ids.filter((id) => splitOf(id) === "holdout").length / ids.length;
    expect(held).toBeGreaterThan(0.18);
    expect(held).toBeLessThan(0.32);
    for (const e of corpus) expect(e.split).toBe(splitOf(e.meaningId));
    expect(new Set(corpus.map((e) => e.id)).size).toBe(corpus.length);
  });

  it("writes every sentence in full (no template holes) and every meaning in several shapes", () => {
    for (const e of corpus) expect(e.rule, e.id).not.toMatch(/\{[A-Zv]+\}|undefined|NaN|\s{2}/);
    const shapes = new Map<string, Set<string>>();
    for (const e of corpus) shapes.set(e.meaningId, (shapes.get(e.meaningId) ?? new Set()).add(e.form));
    for (const [id, set] of shapes) expect(set.size, id).toBeGreaterThanOrEqual(2);
  });

  it("gives every sentence probes that both trigger and spare the rule", () => {
    for (const e of corpus) {
      const finals = e.probes.map((p) => p.expect_last ?? p.expect);
      expect(finals.some((d) => d !== "approved"), e.id).toBe(true);
      expect(e.probes.some((p) => p.expect === "approved"), e.id).toBe(true);
    }
  });

  it("decides the threshold itself by the comparison's strictness (over: no; at least: yes; under: no; at most: yes)", () => {
    let checked = 0;
    for (const m of meanings()) {
      const c = m.conditions[0];
      if (m.mode !== "when" || m.conditions.length !== 1 || !c || (c.kind !== "money" && c.kind !== "count" && c.kind !== "percent")) continue;
      const ctx = c.kind === "money" ? { amount: c.value, currency: c.currency } : { [c.field]: c.value };
      const inclusive = c.cmp === ">=" || c.cmp === "<=";
      const tool = m.anyAction ? m.anyAction.tools[0]! : m.actions[0]!.tool;
      expect(decideMeaning(m, tool, m.domain, ctx) !== "approved", m.id).toBe(inclusive);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });
});

describe("policy sample harness: scoring", () => {
  const probe = (p: Partial<Probe>): Probe => ({ action: "refund_payment", context: {}, expect: "approved", ...p });

  it("expects `expect` for every repeat but the last, and `expect_last` for the last", () => {
    expect(expectedSequence(probe({ expect: "blocked" }))).toEqual(["blocked"]);
    expect(expectedSequence(probe({ repeat: 4, expect: "approved", expect_last: "blocked" }))).toEqual(["approved", "approved", "approved", "blocked"]);
    expect(expectedSequence(probe({ repeat: 2, expect: "conditional" }))).toEqual(["conditional", "conditional"]);
  });

  it("counts a probe right only when every answer matches; an error is never right", () => {
    const rate = probe({ repeat: 3, expect: "approved", expect_last: "blocked" });
    expect(probeRight(rate, ["approved", "approved", "blocked"])).toBe(true);
    expect(probeRight(rate, ["approved", "blocked", "blocked"])).toBe(false);
    expect(probeRight(rate, ["approved", "approved"])).toBe(false);
    expect(probeRight(probe({ expect: "blocked" }), ["error:policy_evaluation_failed"])).toBe(false);
  });

  it("rejects a malformed line as a harness failure and reads the shared sample", () => {
    expect(() => parseRuleLine({ id: "x", rule: "Block refunds", probes: [{ action: "a", context: {}, expect: "denied" }] }, "line 1")).toThrow(/expect must be one of/);
    expect(() => parseRuleLine({ id: "x", probes: [] }, "line 1")).toThrow(/needs id, rule and probes/);
    expect(() => parseRuleLine({ id: "x", rule: "r", probes: [{ action: "a", context: {}, expect: "blocked", repeat: 0 }] }, "line 1")).toThrow(/repeat/);
    const here = path.dirname(fileURLToPath(import.meta.url));
    const lines = loadRuleLines(path.join(here, "../../shared/eval/policies-sample.jsonl"));
    expect(lines.length).toBe(50);
    expect(lines.find((l) => l.id === "p29")!.probes[0]).toMatchObject({ repeat: 4, expect: "approved", expect_last: "blocked" });
  });
});

describe("policy corpus over HTTP (tune split sample)", () => {
  const server = useServer();

  it(
    "keeps probes right, rules compiled, paraphrase agreement and round trip at or above their floors",
    async () => {
      const sample = sampleByMeaning(
        corpus.filter((e) => e.split === "tune"),
        SAMPLE_MEANINGS,
        3,
      );
      const results = await runEntries({ url: server().url, adminToken: ADMIN_TOKEN }, sample, { roundTrip: true, concurrency: 4 });
      const s = summarise(results);
      const ratio = (n: number, d: number) => (d === 0 ? 1 : n / d);
      const figures = {
        sentences: s.sentences,
        compiled: ratio(s.compiled, s.sentences),
        probes_right: ratio(s.right, s.probes),
        probes_right_compiled: ratio(s.compiledRight, s.compiledProbes),
        paraphrase_alike: ratio(s.paraphrase.consistent, s.paraphrase.meanings),
        paraphrase_alike_compiled: ratio(s.paraphrase.compiledConsistent, s.paraphrase.compiledMeanings),
        compiled_never_fire: s.silent,
        round_trip_alike: ratio(s.roundTrip.alike, s.roundTrip.probes),
      };
      console.log(`policy corpus (tune sample): ${JSON.stringify(figures)}`);
      expect(figures.probes_right).toBeGreaterThanOrEqual(MIN_PROBES_RIGHT);
      expect(figures.compiled).toBeGreaterThanOrEqual(MIN_COMPILED);
      expect(figures.paraphrase_alike).toBeGreaterThanOrEqual(MIN_PARAPHRASE_ALIKE);
      expect(figures.round_trip_alike).toBeGreaterThanOrEqual(MIN_ROUND_TRIP_ALIKE);
    },
    180_000,
  );
});
