// The in-process recall index: BM25 order and its tie-breaks, stop words, typo correction as pg_trgm does it
// (checked against pg_trgm itself on the embedded database), incremental writes, and the bookkeeping of
// which workspaces are held (shared loads, writes racing a load, bounds and eviction).
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type Database } from "../../db/index.ts";
import { Recall, RecallIndex, similarity, trigramsOf, type RecallLimits, type RecallSource } from "./recall.ts";
import type { MemoryRow } from "./store.ts";
import { memoryRow } from "./memory-row.fixture.ts";

const item = memoryRow;

function indexOf(rows: MemoryRow[]): RecallIndex {
  const index = new RecallIndex();
  for (const row of rows) index.upsert(row);
  return index;
}

const bodies = (index: RecallIndex, terms: string[], limit = 10) => index.recall(terms, limit).hits.map((h) => h.body);

describe("recall index: ranking", () => {
  it("ranks by BM25: a rare word outweighs a common one, repetition counts, long items are discounted", () => {
    const rare = item("The vendor portal password resets go through the helpdesk.");
    const common = [
      item("Invoices from the vendor are paid monthly."),
      item("The vendor list is kept by procurement."),
      item("Every vendor signs the code of conduct."),
    ];
    const twice = item("Helpdesk tickets: the helpdesk answers within a day.");
    const long = item("Helpdesk, among many other things the office team does on a normal working week, including facilities, travel and badges.");
    const index = indexOf([rare, ...common, twice, long]);
    // "helpdesk" is in 3 of 6 items, "vendor" in 4: the item holding both comes first.
    expect(bodies(index, ["vendor", "helpdesk"])[0]).toBe(rare.body);
    const helpdesk = bodies(index, ["helpdesk"]);
    expect(helpdesk).toEqual([twice.body, rare.body, long.body]);
    // Scores are positive and in order.
    const scores = index.recall(["vendor", "helpdesk"], 10).hits.map((h) => h.score);
    expect(scores.every((s, i) => s > 0 && (i === 0 || s <= scores[i - 1]!))).toBe(true);
  });

  it("gives exactly the plain BM25 top items, whatever the pruning of common words skips", () => {
    // Few words, some in nearly every item: the common ones are where pruning applies.
    const vocabulary = ["plan", "plan", "plan", "customer", "customer", "email", "phone", "kalmar", "venrin", "tordro", "stralo"];
    const body = fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 8 }).map((w) => w.join(" "));
    fc.assert(
      fc.property(
        fc.array(fc.record({ body, authority: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 60 }),
        fc.uniqueArray(fc.constantFrom(...new Set(vocabulary)), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 8 }),
        (docs, query, limit) => {
          const rows = docs.map((d) => item(d.body, { authority: d.authority }));
          const got = indexOf(rows).recall(query, limit).hits;
          // The formula, item by item, with no index.
          const lengths = rows.map((r) => r.body.split(" ").length);
          const avg = lengths.reduce((a, b) => a + b, 0) / rows.length;
          const scored = rows.map((r, i) => {
            const words = r.body.split(" ");
            let score = 0;
            for (const q of query) {
              const tf = words.filter((w) => w === q).length;
              if (tf === 0) continue;
              const df = rows.filter((x) => x.body.split(" ").includes(q)).length;
              const idf = Math.log(1 + (rows.length - df + 0.5) / (df + 0.5));
              score += (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * lengths[i]!) / avg));
            }
            return { r, score };
          });
          const expected = scored
            .filter((s) => s.score > 0)
            .sort((a, b) => b.score - a.score || b.r.authority - a.r.authority || b.r.createdAt.getTime() - a.r.createdAt.getTime())
            .slice(0, limit);
          expect(got.map((h) => h.score)).toEqual(expected.map((e) => expect.closeTo(e.score, 9)));
          // Equal scores (to rounding) may come in either order only if they are really equal.
          got.forEach((h, i) => {
            if (h.id !== expected[i]!.r.id) expect(Math.abs(h.score - expected[i]!.score)).toBeLessThan(1e-9);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("breaks equal scores by authority, then the newest, and returns at most limit (1 to 100) full rows", () => {
    const low = item("Parking is free on level two.", { authority: 3 });
    const older = item("Parking is free on level two.", { authority: 8 });
    const newer = item("Parking is free on level two.", { authority: 8 });
    const index = indexOf([low, older, newer]);
    const hits = index.recall(["parking"], 10).hits;
    expect(hits.map((h) => h.id)).toEqual([newer.id, older.id, low.id]);
    expect(hits[0]).toEqual({ ...newer, score: hits[0]!.score });
    expect(index.recall(["parking"], 2).hits.map((h) => h.id)).toEqual([newer.id, older.id]);
    expect(index.recall(["parking"], 0).hits).toHaveLength(1);
    const many = indexOf(Array.from({ length: 150 }, (_, i) => item(`Parking spot ${i}`)));
    expect(many.recall(["parking"], 1000).hits).toHaveLength(100);
  });

  it("finds items by their tags as well as their text, and matches word forms by stem", () => {
    const tagged = item("Ask Dana before the quarter closes.", { tags: ["budget"] });
    const plural = item("Refunds are approved by the finance team.");
    const index = indexOf([tagged, plural, item("Something else entirely.")]);
    expect(bodies(index, ["budget"])).toEqual([tagged.body]);
    expect(bodies(index, ["refund"])).toEqual([plural.body]);
    expect(index.recall(["refund"], 5).corrected.size).toBe(0);
  });

  it("ignores stop words: they neither find items nor count against them", () => {
    const index = indexOf([item("The refund window is 30 days."), item("What the team does is what it is.")]);
    expect(index.recall(["the", "what", "is"], 10).hits).toEqual([]);
    expect(bodies(index, ["what", "the", "refund", "window"])).toEqual(["The refund window is 30 days."]);
  });
});

describe("recall index: typo correction", () => {
  it("reads an unknown word as the closest word memory holds, at similarity 0.3 or more", () => {
    const index = indexOf([item("Refund approvals go to the finance team."), item("Warehouse shipments leave at noon.")]);
    const result = index.recall(["refnd", "warehuse"], 10);
    expect(Object.fromEntries(result.corrected)).toEqual({ refnd: "refund", warehuse: "warehouse" });
    expect(result.hits).toHaveLength(2);
    // Too far from every word: left alone, nothing found.
    expect(similarity("xylophone", "shipments")).toBeLessThan(0.3);
    const none = index.recall(["xylophone"], 10);
    expect(none.corrected.size).toBe(0);
    expect(none.hits).toEqual([]);
  });

  it("applies the threshold exactly (0.3 passes) and breaks ties by the word", () => {
    // A word of n letters has n + 1 trigrams. "abcdef" (7) and "abcxy" (6) share "  a", " ab", "abc":
    // 3 / (7 + 6 - 3) = 0.3 exactly, which passes; "abcxyz" (7) gives 3 / 11, which does not.
    expect(similarity("abcdef", "abcxy")).toBe(0.3);
    expect(indexOf([item("abcxy")]).corrections(["abcdef"]).get("abcdef")).toBe("abcxy");
    expect(similarity("abcdef", "abcxyz")).toBeCloseTo(3 / 11, 10);
    expect(indexOf([item("abcxyz")]).corrections(["abcdef"]).size).toBe(0);
    // Two words as close as each other: the first in order wins, whichever was indexed first.
    expect(similarity("kalmar", "kalmaz")).toBe(similarity("kalmar", "kalmay"));
    expect(indexOf([item("kalmaz"), item("kalmay")]).corrections(["kalmar"]).get("kalmar")).toBe("kalmay");
    expect(indexOf([item("kalmay"), item("kalmaz")]).corrections(["kalmar"]).get("kalmar")).toBe("kalmay");
  });

  it("does not correct known words, word forms memory holds, stop words or numbers", () => {
    const index = indexOf([item("Refund approvals above 500 EUR."), item("There is one door code.")]);
    expect(index.recall(["refunds", "approval", "there", "4521"], 10).corrected.size).toBe(0);
  });
});

describe("recall index: writes", () => {
  it("updates and deletes incrementally, releasing the words of what is gone", () => {
    const a = item("Parking at the riverside office costs 5 EUR a day.");
    const b = item("The riverside office opens at 8.");
    const index = indexOf([a, b]);
    expect(bodies(index, ["parking"])).toEqual([a.body]);

    index.upsert({ ...a, body: "Bicycles are kept in the riverside basement.", content: { text: "Bicycles are kept in the riverside basement." }, version: 2 });
    expect(index.recall(["parking"], 10).hits).toEqual([]);
    expect(bodies(index, ["bicycles"])).toEqual(["Bicycles are kept in the riverside basement."]);
    expect(index.size).toBe(2);
    // A late report of an older version changes nothing.
    index.upsert(a);
    expect(bodies(index, ["bicycles"])).toEqual(["Bicycles are kept in the riverside basement."]);

    expect(index.remove(a.id)).toBe(true);
    expect(index.remove(a.id)).toBe(false);
    expect(index.size).toBe(1);
    expect(index.recall(["bicycles"], 10).hits).toEqual([]);
    // "bicycles" left with its item: a misspelling of it has nothing to be read as now.
    expect(index.corrections(["bicycels"]).size).toBe(0);
    expect(bodies(index, ["riverside"])).toEqual([b.body]);
  });

  it("answers like an index built from scratch after any sequence of writes", () => {
    const words = ["refund", "invoice", "parking", "badge", "laptop", "vendor", "payroll", "ticket"];
    fc.assert(
      fc.property(
        fc.array(fc.record({ slot: fc.integer({ min: 0, max: 5 }), del: fc.boolean(), picks: fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 5 }) }), { maxLength: 40 }),
        (writes) => {
          const incremental = new RecallIndex();
          const live = new Map<number, MemoryRow>();
          const ids = Array.from({ length: 6 }, () => item("x").id);
          for (const w of writes) {
            if (w.del) {
              incremental.remove(ids[w.slot]!);
              live.delete(w.slot);
            } else {
              const body = w.picks.map((p) => words[p]).join(" ");
              const row = { ...item(body), id: ids[w.slot]!, version: (live.get(w.slot)?.version ?? 0) + 1 };
              incremental.upsert(row);
              live.set(w.slot, row);
            }
          }
          const fresh = indexOf([...live.values()]);
          for (const query of [["refund", "parking"], ["vendr"], ["laptop", "badge", "ticket"]]) {
            const a = incremental.recall(query, 10);
            const b = fresh.recall(query, 10);
            expect(a.hits.map((h) => [h.id, h.score.toFixed(9)])).toEqual(b.hits.map((h) => [h.id, h.score.toFixed(9)]));
            expect(a.corrected).toEqual(b.corrected);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("trigram similarity agrees with pg_trgm", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDb({ databaseUrl: undefined, dataDir: ":memory:" });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("on arbitrary words, and on the closest word of a lexicon", async () => {
    const word = fc.stringMatching(/^[a-z0-9éüß]{3,12}$/);
    const pairs = fc.sample(fc.tuple(word, word), 300);
    pairs.push(["refnd", "refund"], ["aaa", "aaaa"], ["warehuse", "warehouse"], ["abcdef", "abcxyz"]);
    const array = (words: string[]) => sql`array[${sql.join(words.map((w) => sql`${w}`), sql`, `)}]::text[]`;
    const expected = (await database.db.execute(sql`
      select similarity(a, b)::float8 as s from unnest(${array(pairs.map((p) => p[0]))}, ${array(pairs.map((p) => p[1]))}) with ordinality as t(a, b, n) order by n`)) as unknown as {
      rows: { s: number }[];
    };
    pairs.forEach(([a, b], i) => expect(similarity(a, b), `${a} ~ ${b}`).toBeCloseTo(expected.rows[i]!.s, 5));
    expect(trigramsOf("ab").size).toBe(3);

    const lexicon = fc.sample(fc.stringMatching(/^[a-z]{3,9}$/), 400);
    const queries = fc.sample(fc.stringMatching(/^[a-z]{3,9}$/), 100);
    const index = indexOf(lexicon.map((w) => item(w)));
    const closest = (await database.db.execute(sql`
      select q.word as word, (
        select t.term from unnest(${array(lexicon)}) as t(term)
        where similarity(t.term, q.word) >= 0.3 order by similarity(t.term, q.word) desc, t.term collate "C" limit 1
      ) as term
      from unnest(${array(queries)}) as q(word)`)) as unknown as { rows: { word: string; term: string | null }[] };
    for (const row of closest.rows) {
      if (lexicon.includes(row.word)) continue;
      expect(index.closest(row.word) ?? null, row.word).toBe(row.term);
    }
  });
});

/** A source whose reads the test finishes by hand; counts answer at once (1 item unless `sizes` says). */
function manualSource(sizes: Record<string, number> = {}) {
  const calls: { workspaceId: string; resolve: (rows: MemoryRow[]) => void; reject: (e: Error) => void; rows: Promise<MemoryRow[]> }[] = [];
  const reads: { workspaceId: string; id: string; resolve: (row: MemoryRow | undefined) => void; reject: (e: Error) => void }[] = [];
  const source: RecallSource = {
    count: async (workspaceId) => {
      let resolve!: (rows: MemoryRow[]) => void;
      let reject!: (e: Error) => void;
      const rows = new Promise<MemoryRow[]>((res, rej) => ((resolve = res), (reject = rej)));
      rows.catch(() => {});
      calls.push({ workspaceId, resolve, reject, rows });
      return sizes[workspaceId] ?? 1;
    },
    items: (workspaceId) => calls.filter((c) => c.workspaceId === workspaceId).at(-1)!.rows,
    item: (workspaceId, id) => new Promise((resolve, reject) => reads.push({ workspaceId, id, resolve, reject })),
  };
  return { calls, reads, source };
}

/** Lets the promise callbacks queued so far run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** A Recall holding "wsp_a" with these rows (loaded through a manual source, whose reads are returned). */
async function holding(rows: MemoryRow[], limits: RecallLimits) {
  const { calls, reads, source } = manualSource();
  const recall = new Recall(source, limits, () => 0);
  const loading = recall.index("wsp_a");
  calls[0]!.resolve(rows);
  const index = (await loading)!;
  return { calls, reads, recall, index };
}

describe("recall: which workspaces are held", () => {
  const limits = { maxItems: 100, budget: 1000, waitItems: 50 };

  it("shares one load between concurrent first questions, then answers without loading", async () => {
    const { calls, source } = manualSource();
    const recall = new Recall(source, limits, () => 0);
    const first = recall.index("wsp_a");
    const second = recall.index("wsp_a");
    expect(calls).toHaveLength(1);
    calls[0]!.resolve([item("Parking is free.")]);
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBeInstanceOf(RecallIndex);
    expect(b).toBe(a);
    expect(recall.index("wsp_a")).toBe(a);
    expect(calls).toHaveLength(1);
    expect(recall.held).toBe(2);
  });

  it("does not hold questions up while a large workspace loads: they go to SQL until it is ready", async () => {
    const { calls, source } = manualSource({ wsp_large: 80 });
    const recall = new Recall(source, limits, () => 0);
    // Counted (80 items, above the 50 worth waiting for): the question is let go before the items are read.
    expect(await recall.index("wsp_large")).toBeUndefined();
    expect(recall.stateOf("wsp_large")).toBe("loading");
    expect(await recall.index("wsp_large")).toBeUndefined();
    calls[0]!.resolve([item("Parking is free.")]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(recall.index("wsp_large")).toBeInstanceOf(RecallIndex);
    expect(calls).toHaveLength(1);
  });

  it("replays this process's writes made during a load on its result", async () => {
    const { calls, source } = manualSource();
    const recall = new Recall(source, limits, () => 0);
    const kept = item("Parking is free.");
    const deleted = item("Badges are blue.");
    const pending = recall.index("wsp_a");
    const created = item("Laptops are replaced every three years.");
    recall.upsert("wsp_a", created);
    recall.upsert("wsp_a", { ...kept, body: "Parking costs 5 EUR.", version: 2 });
    recall.remove("wsp_a", deleted.id);
    // The rows were read before every one of those writes.
    calls[0]!.resolve([kept, deleted]);
    const index = (await pending)!;
    expect(index.size).toBe(2);
    expect(bodies(index, ["parking", "laptops", "badges"]).sort()).toEqual(["Laptops are replaced every three years.", "Parking costs 5 EUR."]);
  });

  it("never installs a load overtaken by another process's write; loads again after a pause", async () => {
    let now = 0;
    const { calls, source } = manualSource();
    const recall = new Recall(source, limits, () => now);
    const pending = recall.index("wsp_a");
    recall.forget("wsp_a"); // another process wrote while the rows were being read
    calls[0]!.resolve([item("Stale text.")]);
    expect(await pending).toBeUndefined();
    expect(recall.stateOf("wsp_a")).toBe("sql");
    expect(recall.index("wsp_a")).toBeUndefined();
    expect(calls).toHaveLength(1);
    now += 1_000;
    const again = recall.index("wsp_a");
    expect(calls).toHaveLength(2);
    calls[1]!.resolve([item("Fresh text.")]);
    expect(bodies((await again)!, ["fresh", "stale"])).toEqual(["Fresh text."]);
    // Held now: another process's write drops it, and the next question loads again.
    recall.forget("wsp_a");
    expect(recall.stateOf("wsp_a")).toBe("absent");
    const third = recall.index("wsp_a");
    expect(calls).toHaveLength(3);
    // Notifications missed: everything held is dropped, a load in flight is overtaken.
    recall.forgetAll();
    calls[2]!.resolve([item("Maybe stale.")]);
    expect(await third).toBeUndefined();
    expect(recall.stateOf("wsp_a")).toBe("sql");
  });

  it("applies another process's write to one item by reading that item, not the workspace", async () => {
    const kept = item("Parking is free.");
    const { calls, reads, recall, index } = await holding([kept], limits);
    expect(recall.held).toBe(2);

    const created = item("Laptops are replaced every three years.");
    const added = recall.refresh("wsp_a", created.id);
    expect(reads.map((r) => r.id)).toEqual([created.id]);
    reads[0]!.resolve(created);
    await added;
    expect(recall.index("wsp_a")).toBe(index);
    expect(bodies(index, ["laptops"])).toEqual(["Laptops are replaced every three years."]);
    expect(recall.held).toBe(3);

    // An update read back; then an older version arriving late is ignored; then the item is gone.
    const updated = recall.refresh("wsp_a", kept.id);
    reads[1]!.resolve({ ...kept, body: "Parking costs 5 EUR.", version: 2 });
    await updated;
    const late = recall.refresh("wsp_a", kept.id);
    reads[2]!.resolve(kept);
    await late;
    expect(bodies(index, ["parking"])).toEqual(["Parking costs 5 EUR."]);
    const removed = recall.refresh("wsp_a", kept.id);
    reads[3]!.resolve(undefined);
    await removed;
    expect(bodies(index, ["parking", "laptops"])).toEqual(["Laptops are replaced every three years."]);
    expect(recall.held).toBe(2);
    expect(calls).toHaveLength(1);
  });

  it("reads the item again when this process wrote meanwhile: a delete the first read predates stays deleted", async () => {
    const doomed = item("Badges are blue.");
    const { reads, recall, index } = await holding([doomed], limits);
    const refreshed = recall.refresh("wsp_a", doomed.id);
    recall.remove("wsp_a", doomed.id); // this process deletes it while the other's write is being read
    reads[0]!.resolve({ ...doomed, body: "Badges are green.", version: 2 }); // read before the delete
    await settled();
    expect(bodies(index, ["badges"])).toEqual([]);
    expect(reads).toHaveLength(2);
    reads[1]!.resolve(undefined);
    await refreshed;
    expect(bodies(index, ["badges"])).toEqual([]);
    expect(recall.stateOf("wsp_a")).toBe("ready");
  });

  it("applies only the read started last when two writes of one item are read out of order", async () => {
    const doomed = item("Badges are blue.");
    const { reads, recall, index } = await holding([doomed], limits);
    const afterUpdate = recall.refresh("wsp_a", doomed.id); // another process updated it…
    const afterDelete = recall.refresh("wsp_a", doomed.id); // …then deleted it
    reads[1]!.resolve(undefined);
    await afterDelete;
    expect(bodies(index, ["badges"])).toEqual([]);
    reads[0]!.resolve({ ...doomed, body: "Badges are green.", version: 2 }); // the update's read, late
    await afterUpdate;
    expect(bodies(index, ["badges"])).toEqual([]);
    expect(recall.held).toBe(1);
  });

  it("drops the workspace when the item cannot be read, and overtakes a load in flight", async () => {
    const { calls, reads, recall } = await holding([item("Parking is free.")], limits);
    const failing = recall.refresh("wsp_a", "00000000-0000-4000-8000-000000000999");
    reads[0]!.reject(new Error("connection lost"));
    await failing;
    expect(recall.stateOf("wsp_a")).toBe("absent");

    const again = recall.index("wsp_a");
    await recall.refresh("wsp_a", "00000000-0000-4000-8000-000000000999");
    calls[1]!.resolve([item("Maybe stale.")]);
    expect(await again).toBeUndefined();
    expect(recall.stateOf("wsp_a")).toBe("sql");
    expect(reads).toHaveLength(1);
  });

  it("stops building a large workspace, built in slices, when another process writes meanwhile", async () => {
    const { calls, source } = manualSource();
    const recall = new Recall(source, { maxItems: 10_000, budget: 100_000, waitItems: 10_000 }, () => 0);
    const building = recall.index("wsp_a");
    calls[0]!.resolve(Array.from({ length: 2_000 }, (_, i) => item(`item ${i}`)));
    // One turn of the event loop: the first slice is built, the rest waits.
    await new Promise((resolve) => setImmediate(resolve));
    expect(recall.stateOf("wsp_a")).toBe("loading");
    recall.forget("wsp_a");
    expect(await building).toBeUndefined();
    expect(recall.stateOf("wsp_a")).toBe("sql");
    expect(recall.held).toBe(1);
  });

  it("forgets a failed load, so that the next question tries again", async () => {
    const { calls, source } = manualSource();
    const recall = new Recall(source, limits, () => 0);
    const pending = recall.index("wsp_a");
    calls[0]!.reject(new Error("connection lost"));
    expect(await pending).toBeUndefined();
    expect(recall.stateOf("wsp_a")).toBe("absent");
    void recall.index("wsp_a");
    expect(calls).toHaveLength(2);
  });

  it("leaves a workspace too large to SQL without reading it, and counts it again later", async () => {
    let now = 0;
    const { calls, source } = manualSource({ wsp_big: 4, wsp_small: 3 });
    const recall = new Recall(source, { maxItems: 3, budget: 1000, waitItems: 50 }, () => now);
    expect(await recall.index("wsp_big")).toBeUndefined();
    expect(recall.stateOf("wsp_big")).toBe("sql");
    expect(recall.index("wsp_big")).toBeUndefined();
    now += 60_000;
    void recall.index("wsp_big");
    expect(calls).toHaveLength(2);
    // Held, then grown past the bound by writes: handed back to SQL.
    const small = recall.index("wsp_small");
    calls[2]!.resolve([item("one"), item("two"), item("three")]);
    expect((await small)!.size).toBe(3);
    recall.upsert("wsp_small", item("four"));
    expect(recall.stateOf("wsp_small")).toBe("sql");
  });

  it("keeps the items held within the budget by dropping the least recently asked workspaces", async () => {
    const { calls, source } = manualSource();
    const recall = new Recall(source, { maxItems: 100, budget: 25, waitItems: 50 }, () => 0);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => item(`item ${i}`));
    for (const ws of ["wsp_a", "wsp_b"]) {
      const pending = recall.index(ws);
      calls.at(-1)!.resolve(rows(9));
      await pending;
    }
    expect(recall.held).toBe(20);
    recall.index("wsp_a"); // asked again: b is now the least recent
    const pending = recall.index("wsp_c");
    calls.at(-1)!.resolve(rows(9));
    await pending;
    expect(recall.stateOf("wsp_b")).toBe("absent");
    expect(recall.stateOf("wsp_a")).toBe("ready");
    expect(recall.stateOf("wsp_c")).toBe("ready");
    expect(recall.held).toBe(20);
    // A write that grows one past the budget drops another, never the one written.
    for (let i = 0; i < 6; i++) recall.upsert("wsp_c", item(`more ${i}`));
    expect(recall.stateOf("wsp_a")).toBe("absent");
    expect(recall.stateOf("wsp_c")).toBe("ready");
    expect(recall.held).toBeLessThanOrEqual(25);
  });

  it("weighs an item by what it takes: a long text or a large content weighs more than a short note", () => {
    const index = new RecallIndex();
    index.upsert(item("Parking is free."));
    expect(index.weight).toBe(1);
    const long = item("The parking garage rules. ".repeat(320)); // 8,320 characters
    index.upsert(long);
    expect(index.weight).toBe(1 + 9);
    const structured = item("Supplier record.", { content: { text: "Supplier record.", fields: Array.from({ length: 200 }, (_, i) => ({ name: `field ${i}`, value: "x".repeat(20) })) } });
    index.upsert(structured);
    expect(index.weight).toBeGreaterThan(1 + 9 + 5);
    index.remove(long.id);
    index.remove(structured.id);
    expect(index.weight).toBe(1);
  });

  it("bounds what is held by weight: a workspace of long items heavier than the budget stays on SQL", async () => {
    const { calls, source } = manualSource({ wsp_long: 3, wsp_short: 3 });
    const recall = new Recall(source, { maxItems: 100, budget: 25, waitItems: 50 }, () => 0);
    const long = (n: number) => Array.from({ length: n }, (_, i) => item(`Long item ${i}. ${"The parking garage rules. ".repeat(320)}`));
    const heavy = recall.index("wsp_long");
    calls[0]!.resolve(long(3)); // 3 items, 27 units: more than the whole budget
    expect(await heavy).toBeUndefined();
    expect(recall.stateOf("wsp_long")).toBe("sql");
    const light = recall.index("wsp_short");
    calls[1]!.resolve([item("one"), item("two"), item("three")]);
    expect((await light)!.size).toBe(3);
    // Two long items (18 units) fit beside the short ones; a third would not: the workspace goes to SQL.
    recall.upsert("wsp_short", long(1)[0]!);
    recall.upsert("wsp_short", long(1)[0]!);
    expect(recall.stateOf("wsp_short")).toBe("ready");
    expect(recall.held).toBe(1 + 3 + 18 + 1);
    recall.upsert("wsp_short", long(1)[0]!);
    expect(recall.stateOf("wsp_short")).toBe("sql");
    expect(recall.held).toBeLessThanOrEqual(25);
  });
});
