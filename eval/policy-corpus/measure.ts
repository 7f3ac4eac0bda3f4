// Running corpus entries against a live service and summarising them; shared by `npm run eval:corpus` and
// test/policy-corpus.test.ts. Black-box: create + confirm each sentence in a fresh workspace, decide its
// probes, and (round trip) create a policy from the service's own restatement and decide them again.
import { createConfirmed, decide, freshWorkspace, probeRight, type ServerLike } from "../policy-probes.ts";
import type { CorpusEntry } from "./corpus.ts";
import type { CorpusProbe } from "./probes.ts";

export interface EntryResult {
  entry: CorpusEntry;
  compiled: boolean;
  refusal?: string;
  restatement?: string;
  got: string[][];
  right: boolean[];
  /** Round trip: the restatement compiled, and the decisions it gave (undefined when not run). */
  roundTrip?: { compiled: boolean; refusal?: string; got: string[][] };
}

async function decideAll(server: ServerLike, key: string, probes: CorpusProbe[]): Promise<string[][]> {
  const got: string[][] = [];
  for (const p of probes) got.push(await decide(server.url, key, p));
  return got;
}

export async function runEntry(server: ServerLike, entry: CorpusEntry, roundTrip: boolean): Promise<EntryResult> {
  const key = await freshWorkspace(server, `corpus-${entry.id}`);
  const outcome = await createConfirmed(server.url, key, entry.id, entry.rule, entry.domain);
  const got = await decideAll(server, key, entry.probes);
  const result: EntryResult = {
    entry,
    compiled: outcome.compiled,
    ...(outcome.refusal !== undefined ? { refusal: outcome.refusal } : {}),
    ...(outcome.restatement !== undefined ? { restatement: outcome.restatement } : {}),
    got,
    right: entry.probes.map((p, i) => probeRight(p, got[i]!)),
  };
  if (roundTrip && outcome.compiled && outcome.restatement) {
    const key2 = await freshWorkspace(server, `corpus-rt-${entry.id}`);
    const again = await createConfirmed(server.url, key2, `${entry.id}-restated`, outcome.restatement, entry.domain);
    result.roundTrip = { compiled: again.compiled, ...(again.refusal !== undefined ? { refusal: again.refusal } : {}), got: again.compiled ? await decideAll(server, key2, entry.probes) : [] };
  }
  return result;
}

/** Runs entries a few at a time (the service is in this process; a little concurrency hides its I/O). */
export async function runEntries(server: ServerLike, entries: CorpusEntry[], options: { roundTrip: boolean; concurrency: number; onProgress?: (done: number) => void }): Promise<EntryResult[]> {
  const results: EntryResult[] = new Array(entries.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < entries.length) {
      const i = next++;
      results[i] = await runEntry(server, entries[i]!, options.roundTrip);
      options.onProgress?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return results;
}

export interface Summary {
  sentences: number;
  compiled: number;
  probes: number;
  right: number;
  /** Probes of compiled sentences only. */
  compiledProbes: number;
  compiledRight: number;
  byKind: Record<string, { total: number; right: number }>;
  byCondition: Record<string, { total: number; right: number }>;
  byForm: Record<string, { sentences: number; compiled: number; probes: number; right: number }>;
  /** Meanings with two or more sentences, and how many of them got the same decisions from every sentence. */
  paraphrase: { meanings: number; consistent: number; compiledMeanings: number; compiledConsistent: number };
  roundTrip: { tried: number; compiled: number; probes: number; alike: number };
  /** Compiled sentences that never gave their effect, though some probe expects it: rules that silently never fire. */
  silent: number;
}

const bump = (table: Record<string, { total: number; right: number }>, key: string, ok: boolean) => {
  const row = (table[key] ??= { total: 0, right: 0 });
  row.total++;
  if (ok) row.right++;
};

const same = (a: string[][], b: string[][]) => a.length === b.length && a.every((x, i) => x.join() === b[i]!.join());

export function summarise(results: EntryResult[]): Summary {
  const s: Summary = {
    sentences: results.length,
    compiled: 0,
    probes: 0,
    right: 0,
    compiledProbes: 0,
    compiledRight: 0,
    byKind: {},
    byCondition: {},
    byForm: {},
    paraphrase: { meanings: 0, consistent: 0, compiledMeanings: 0, compiledConsistent: 0 },
    roundTrip: { tried: 0, compiled: 0, probes: 0, alike: 0 },
    silent: 0,
  };
  for (const r of results) {
    const rights = r.right.filter(Boolean).length;
    if (r.compiled) {
      const fires = r.entry.probes.some((p) => (p.expect_last ?? p.expect) !== "approved");
      if (fires && r.got.every((g) => g.every((d) => d === "approved"))) s.silent++;
      s.compiled++;
      s.compiledProbes += r.right.length;
      s.compiledRight += rights;
    }
    s.probes += r.right.length;
    s.right += rights;
    const f = (s.byForm[r.entry.form] ??= { sentences: 0, compiled: 0, probes: 0, right: 0 });
    f.sentences++;
    if (r.compiled) f.compiled++;
    f.probes += r.right.length;
    f.right += rights;
    r.entry.probes.forEach((p, i) => {
      bump(s.byKind, p.kind, r.right[i]!);
      bump(s.byCondition, p.about, r.right[i]!);
    });
    if (r.roundTrip) {
      s.roundTrip.tried++;
      if (r.roundTrip.compiled) {
        s.roundTrip.compiled++;
        s.roundTrip.probes += r.got.length;
        s.roundTrip.alike += r.got.filter((g, i) => g.join() === r.roundTrip!.got[i]?.join()).length;
      }
    }
  }
  const groups = new Map<string, EntryResult[]>();
  for (const r of results) groups.set(r.entry.meaningId, [...(groups.get(r.entry.meaningId) ?? []), r]);
  for (const list of groups.values()) {
    if (list.length < 2) continue;
    s.paraphrase.meanings++;
    if (list.every((r) => same(r.got, list[0]!.got))) s.paraphrase.consistent++;
    const compiled = list.filter((r) => r.compiled);
    if (compiled.length >= 2) {
      s.paraphrase.compiledMeanings++;
      if (compiled.every((r) => same(r.got, compiled[0]!.got))) s.paraphrase.compiledConsistent++;
    }
  }
  return s;
}

/** Classes of failure (never single sentences): refusals by what the service said it expected, and wrong
 * probes by condition kind, probe kind and expected -> got. */
export function failureClasses(results: EntryResult[]): { cls: string; count: number }[] {
  const counts = new Map<string, number>();
  const add = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1);
  for (const r of results) {
    if (!r.compiled) {
      // The service's own reason, reduced to a class: the token it could not read (digits as 9), or the
      // first word it could not place and what it expected there.
      const refusal = r.refusal ?? "";
      const unread = refusal.match(/could not read "([^"]+)"/);
      const unplaced = refusal.match(/could not place "([^"]+)"[^:]*: expected ([^(.;]+)/);
      if (unread) add(`refused: could not read "${unread[1]!.toLowerCase().replace(/\d+/g, "9")}"`);
      else if (unplaced) add(`refused: could not place "${unplaced[1]!.split(" ")[0]!.toLowerCase().replace(/\d+/g, "9")}…", expected ${unplaced[2]!.trim()}`);
      else if (/ends too early/.test(refusal)) add(`refused: ends too early, expected ${refusal.match(/ends too early[^:]*: expected ([^(.;]+)/)?.[1]?.trim() ?? "more"}`);
      else add(`refused: ${refusal.replace(/\("[^"]*"\)|"[^"]*"/g, "…").slice(0, 120)}`);
      continue;
    }
    const fires = r.entry.probes.some((p) => (p.expect_last ?? p.expect) !== "approved");
    if (fires && r.got.every((g) => g.every((d) => d === "approved"))) add(`compiled but never fires [${[...new Set(r.entry.meaning.conditions.map((c) => c.kind))].join("+") || "no condition"}]`);
    r.entry.probes.forEach((p, i) => {
      if (r.right[i]) return;
      add(`wrong [${p.about}/${p.kind}]: expected ${p.expect_last ?? p.expect}, got ${r.got[i]!.at(-1)}`);
    });
  }
  return [...counts.entries()].map(([cls, count]) => ({ cls, count })).sort((a, b) => b.count - a.count);
}
