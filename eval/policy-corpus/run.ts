// `npm run eval:corpus`: the generated policy corpus (eval/policy-corpus), black-box over HTTP against the
// real service in this process on a throw-away embedded database. For each split prints sentences compiled,
// probes right (all, and on compiled sentences), the metamorphic properties (paraphrases of one meaning
// decide alike; the restatement of a compiled rule decides like the rule) and, for the tune split only, the
// accuracy by probe kind, condition and sentence shape, the most common failure classes and some wrong
// probes. The holdout is reported as aggregate numbers only unless CORPUS_SHOW_HOLDOUT=1: it is the part
// nobody tunes the parser on.
//
//   CORPUS_SPLIT=tune|holdout|all   (default all)
//   CORPUS_LIMIT=300                a fixed sample of at most this many sentences per split
//   CORPUS_ROUNDTRIP=0              skip the restatement round trip (about a third faster)
//   CORPUS_CONCURRENCY=4            sentences in flight
//   CORPUS_SHOW=40                  wrong probes listed for the tune split
//   CORPUS_WRITE=1                  also write the corpus to eval/policy-corpus/corpus.jsonl
//
// Writes eval/last-corpus-run.json (gitignored). Exit 0 whatever the scores; 1 only when the harness fails.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pct } from "../policy-probes.ts";
import { startEvalServer } from "../server.ts";
import { HarnessError } from "../sets.ts";
import { buildCorpus, fixedSample, type CorpusEntry } from "./corpus.ts";
import { failureClasses, runEntries, summarise, type EntryResult, type Summary } from "./measure.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const REPORT_FILE = path.join(here, "../last-corpus-run.json");
const on = (v: string | undefined) => ["1", "true", "yes"].includes((v ?? "").toLowerCase());

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new HarnessError(`${name} must be a non-negative integer (got ${raw})`);
  return n;
}

function table(title: string, rows: Record<string, { total: number; right: number }>): string {
  const lines = Object.entries(rows)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([k, v]) => `  ${k.padEnd(22)} ${`${v.right}/${v.total}`.padStart(11)}  ${pct(v.right, v.total).padStart(6)}`);
  return `${title}\n${lines.join("\n")}`;
}

function headline(split: string, s: Summary): string {
  return [
    `${split}: ${s.sentences} sentences`,
    `  rules compiled           ${s.compiled}/${s.sentences} (${pct(s.compiled, s.sentences)})`,
    `  probes right             ${s.right}/${s.probes} (${pct(s.right, s.probes)})`,
    `  probes right (compiled)  ${s.compiledRight}/${s.compiledProbes} (${pct(s.compiledRight, s.compiledProbes)})`,
    `  paraphrases decide alike ${s.paraphrase.consistent}/${s.paraphrase.meanings} meanings (${pct(s.paraphrase.consistent, s.paraphrase.meanings)}); among compiled sentences ${s.paraphrase.compiledConsistent}/${s.paraphrase.compiledMeanings} (${pct(s.paraphrase.compiledConsistent, s.paraphrase.compiledMeanings)})`,
    `  compiled but never fire  ${s.silent}/${s.compiled} compiled sentences gave no probe its effect`,
    `  round trip (restatement) compiled ${s.roundTrip.compiled}/${s.roundTrip.tried}, decides alike on ${s.roundTrip.alike}/${s.roundTrip.probes} probes (${pct(s.roundTrip.alike, s.roundTrip.probes)})`,
  ].join("\n");
}

function details(results: EntryResult[], s: Summary, show: number): string {
  const out: string[] = [];
  out.push(table("  by probe kind:", s.byKind));
  out.push(table("  by condition:", s.byCondition));
  out.push(
    `  by sentence shape (compiled, probes right):\n${Object.entries(s.byForm)
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([k, v]) => `  ${k.padEnd(22)} ${`${v.compiled}/${v.sentences}`.padStart(9)} ${pct(v.compiled, v.sentences).padStart(6)}   ${`${v.right}/${v.probes}`.padStart(11)} ${pct(v.right, v.probes).padStart(6)}`)
      .join("\n")}`,
  );
  const classes = failureClasses(results);
  out.push(`  most common failure classes:\n${classes.slice(0, 15).map((c) => `  ${String(c.count).padStart(5)}  ${c.cls}`).join("\n")}`);
  const wrong = results.flatMap((r) => r.entry.probes.map((p, i) => ({ r, p, i })).filter((x) => !x.r.right[x.i]));
  if (show > 0 && wrong.length > 0) {
    out.push(`  wrong probes (first ${Math.min(show, wrong.length)} of ${wrong.length}):`);
    for (const { r, p, i } of wrong.slice(0, show)) {
      out.push(`    ${r.entry.id} "${r.entry.rule}"`);
      out.push(`        ${p.kind} ${p.action}${p.domain ? ` [${p.domain}]` : ""} ${JSON.stringify(p.context)}${p.repeat ? ` x${p.repeat}` : ""}: expected ${p.expect_last ?? p.expect}, got ${r.got[i]!.join(",")}`);
      out.push(`        ${r.compiled ? `restatement: ${r.restatement ?? "-"}` : `refused: ${r.refusal}`}`);
    }
  }
  return out.join("\n");
}

async function main(): Promise<void> {
  const which = (process.env.CORPUS_SPLIT ?? "all").toLowerCase();
  if (!["tune", "holdout", "all"].includes(which)) throw new HarnessError(`CORPUS_SPLIT must be tune, holdout or all (got ${which})`);
  const limit = int("CORPUS_LIMIT", 0);
  const concurrency = int("CORPUS_CONCURRENCY", 4);
  const show = int("CORPUS_SHOW", 40);
  const roundTrip = process.env.CORPUS_ROUNDTRIP === undefined ? true : on(process.env.CORPUS_ROUNDTRIP);
  const showHoldout = on(process.env.CORPUS_SHOW_HOLDOUT);

  const corpus = buildCorpus();
  if (on(process.env.CORPUS_WRITE)) {
    const file = path.join(here, "corpus.jsonl");
    writeFileSync(file, corpus.map((e) => JSON.stringify({ id: e.id, split: e.split, form: e.form, rule: e.rule, ...(e.domain ? { domain: e.domain } : {}), meaning: e.meaning, probes: e.probes })).join("\n") + "\n");
    console.log(`corpus written: ${path.relative(process.cwd(), file)}`);
  }
  const splits = (which === "all" ? ["tune", "holdout"] : [which]) as ("tune" | "holdout")[];
  const selected = new Map<string, CorpusEntry[]>(splits.map((s) => [s, limit > 0 ? fixedSample(corpus.filter((e) => e.split === s), limit) : corpus.filter((e) => e.split === s)]));

  const startedAt = new Date();
  const meaningCount = new Set(corpus.map((e) => e.meaningId)).size;
  console.log(`# Policy corpus ${startedAt.toISOString()}: ${corpus.length} sentences from ${meaningCount} meanings; running ${splits.map((s) => `${s} ${selected.get(s)!.length}`).join(", ")}${roundTrip ? " (with round trip)" : ""}`);
  const server = await startEvalServer();
  const results = new Map<string, EntryResult[]>();
  try {
    for (const split of splits) {
      const list = selected.get(split)!;
      let last = 0;
      results.set(
        split,
        await runEntries(server, list, {
          roundTrip,
          concurrency,
          onProgress: (done) => {
            if (process.stderr.isTTY && done - last >= 50) {
              last = done;
              process.stderr.write(`  ${split}: ${done}/${list.length}\r`);
            }
          },
        }),
      );
    }
  } finally {
    await server.close();
  }

  const summaries: Record<string, Summary> = {};
  for (const split of splits) {
    const list = results.get(split)!;
    const s = summarise(list);
    summaries[split] = s;
    console.log(`\n${headline(split, s)}`);
    if (split === "tune" || showHoldout) console.log(details(list, s, show));
    else console.log("  (holdout details hidden: CORPUS_SHOW_HOLDOUT=1 shows them; never tune the parser on them)");
  }

  const finishedAt = new Date();
  const strip = (r: EntryResult) => ({ id: r.entry.id, form: r.entry.form, rule: r.entry.rule, compiled: r.compiled, refusal: r.refusal, restatement: r.restatement, probes: r.entry.probes.map((p, i) => ({ ...p, got: r.got[i], right: r.right[i] })), round_trip: r.roundTrip });
  writeFileSync(
    REPORT_FILE,
    `${JSON.stringify(
      {
        started_at: startedAt.toISOString(),
        finished_at: finishedAt.toISOString(),
        duration_ms: finishedAt.getTime() - startedAt.getTime(),
        options: { splits, limit, round_trip: roundTrip },
        summaries,
        failure_classes: Object.fromEntries(splits.filter((s) => s === "tune" || showHoldout).map((s) => [s, failureClasses(results.get(s)!)])),
        // Holdout sentences are left out of the file unless asked for, like the printout.
        sentences: splits.filter((s) => s === "tune" || showHoldout).flatMap((s) => results.get(s)!.map(strip)),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nresults: ${path.relative(process.cwd(), REPORT_FILE)} (${((finishedAt.getTime() - startedAt.getTime()) / 1000).toFixed(1)} s)`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof HarnessError) console.error(`eval:corpus: ${error.message}`);
    else console.error("eval:corpus: the harness failed:", error);
    process.exit(1);
  },
);
