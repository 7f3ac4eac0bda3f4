// The generated intent cases (eval/generated) as data: the generator is deterministic, the committed files
// are what it writes, every case passes the harness's own validation (eval/sets.ts), every surface form of
// a meaning is in one split, values are never mangled by the noise, and no message borrows a run of words
// from the development sets. Nothing here asks the engine anything: its score is the eval's business.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { generate, jsonl, meanings } from "../eval/generated/generate.ts";
import { checkCaseLines, loadFixtures, loadSet, splitOf } from "../eval/sets.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const file = (...p: string[]) => path.join(root, ...p);

describe("generated intent cases", () => {
  const cases = generate();

  it("are the same on every run and the same as the committed files", () => {
    expect(generate()).toEqual(cases);
    for (const split of ["tune", "holdout"] as const) {
      expect(readFileSync(file("eval/generated", `${split}.jsonl`), "utf8"), `${split}.jsonl is stale: npm run eval:generate`).toBe(jsonl(split, cases));
    }
  });

  it("pass the harness's validation against the generated set's fixtures", () => {
    const fixtures = loadFixtures("generated");
    const ids = new Set<string>();
    for (const split of ["tune", "holdout"] as const) {
      const checked = checkCaseLines(jsonl(split, cases), `${split}.jsonl`, "generated", fixtures, ids);
      expect(checked.length).toBeGreaterThan(0);
    }
    expect(ids.size).toBe(cases.length);
    expect(cases.length).toBeGreaterThanOrEqual(300);
    expect(loadSet("generated").cases.length).toBe(cases.length);
  });

  it("cover every decision the meanings stand for, in both splits", () => {
    for (const split of ["tune", "holdout"] as const) {
      const types = new Set(cases.filter((c) => c.split === split).map((c) => c.case.expect.type));
      expect([...types].sort()).toEqual(["blocked", "clarify", "direct", "execution"]);
    }
    const share = cases.filter((c) => c.split === "holdout").length / cases.length;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.4);
  });

  it("keep every surface form of a meaning in the split of the meaning id", () => {
    const ids = new Set(meanings().map((m) => m.id));
    for (const c of cases) {
      const meaning = /\[generated ([^,\]]+),/.exec(c.case.note)?.[1];
      expect(meaning !== undefined && ids.has(meaning), c.case.id).toBe(true);
      expect(c.split, c.case.id).toBe(splitOf(meaning!));
    }
  });

  it("write identifiers and e-mail addresses verbatim, whatever the noise", () => {
    for (const { case: c } of cases) {
      const said = c.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
      for (const v of Object.values((c.expect.args ?? {}) as Record<string, unknown>)) {
        if (typeof v === "string" && (v.includes("@") || /^[A-Z]+-\d+$|^\d{10,}$/.test(v))) expect(said, `${c.id}: ${v}`).toContain(v);
      }
    }
  });

  it("borrow no run of five words from the development sets or the team set", () => {
    // Runs of the messages' own words: values (addresses, anything with a digit) break a run, since the
    // same identifier or amount in two sets is not a borrowed sentence.
    const runsOf = (t: string) =>
      t
        .toLowerCase()
        .replace(/\S+@\S+|\S*\d\S*/g, "|")
        .split("|")
        .flatMap((part) => {
          const w = part.match(/[a-z']+/g) ?? [];
          return Array.from({ length: Math.max(0, w.length - 4) }, (_, i) => w.slice(i, i + 5).join(" "));
        });
    const runs = new Set<string>();
    for (const source of ["../shared/eval/dev.jsonl", "../shared/eval/sample-b/cases.jsonl", "eval/cases.jsonl"]) {
      for (const line of readFileSync(file(source), "utf8").split("\n").filter(Boolean)) {
        for (const m of (JSON.parse(line) as { messages: { content: string }[] }).messages) for (const run of runsOf(m.content)) runs.add(run);
      }
    }
    const borrowed: string[] = [];
    for (const { case: c } of cases) {
      for (const m of c.messages) for (const run of runsOf(m.content)) if (runs.has(run)) borrowed.push(`${c.id}: ${run}`);
    }
    expect(borrowed).toEqual([]);
  });

  it("split the team set by a hash of each id, about 30% holdout", () => {
    const team = loadSet("team").cases;
    expect(team.every((c) => c.split === splitOf(c.id))).toBe(true);
    const share = team.filter((c) => c.split === "holdout").length / team.length;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.4);
  });
});
