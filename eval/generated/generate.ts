// `npm run eval:generate`: writes eval/generated/tune.jsonl and holdout.jsonl, intent cases generated from
// meanings (talk.ts: for each tool, what a request states, as typed values, and the decision that follows)
// rendered in many surface forms (render.ts). Deterministic: every random choice is seeded by the meaning's
// id, so the files only change when the meanings or the renderers do. A meaning and all its renderings go
// to one split, by a hash of the meaning id (eval/split.ts).
//
// Meaning kinds: `execution` (pool values, no policy applies), `blocked` (talk.ts's blocked meanings),
// and over several turns: `missing` (a required argument not given → clarify asking for it), `answer` (the
// same, the assistant's question, a bare value → execution), `correction` (the request, the assistant's
// read-back, "actually make it X" → execution with X), `thanks` (an action, then thanks → direct) and
// `insist` (a blocked request, the refusal, the user pressing on → blocked again by the same policy).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { splitOf, type Split } from "../split.ts";
import { FORMS, INSIST, SENTENCE_FORMS, THANKS, bareAnswer, correction, question, refusal, renderRequest, summary, type Form } from "./render.ts";
import { ALWAYS_FORBIDDEN, FIXTURES, type FixtureTalk, type ToolTalk } from "./talk.ts";
import { expected, pick, rng, shuffle, type Rng, type Value } from "./values.ts";

type Kind = "execution" | "blocked" | "missing" | "answer" | "correction" | "thanks" | "insist";

export interface Meaning {
  id: string;
  fixture: string;
  tool: string;
  kind: Kind;
  /** What the user states (for `correction`, before the correction). */
  values: Record<string, Value>;
  /** `missing`, `answer`: the required argument the first turn leaves out. */
  dropped?: string;
  /** `correction`: the argument changed and its new value. */
  corrected?: { arg: string; value: Value };
  blocked?: { policy: string; reason: "blocked_by_policy" | "conditional_approval_required"; why: string };
}

interface GeneratedCase {
  id: string;
  fixture: string;
  messages: { role: "user" | "assistant"; content: string }[];
  expect: Record<string, unknown>;
  note: string;
}

/** Execution meanings per tool, renderings per single-turn meaning, renderings per multi-turn meaning. */
const PER_TOOL = 2;
const RENDERINGS = 4;
const MULTI_RENDERINGS = 2;
const MULTI_KINDS: Kind[] = ["missing", "answer", "correction", "thanks"];

const domainOf = (f: FixtureTalk) => f.people[0]!.email.split("@")[1]!;

/** One value per stated argument from the pools; optional arguments about half the time. */
function drawValues(r: Rng, talk: ToolTalk): Record<string, Value> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const values: Record<string, Value> = {};
    for (const [arg, a] of Object.entries(talk.args)) {
      if (a.optional && r() < 0.55) continue;
      values[arg] = pick(r, a.pool);
    }
    if (!talk.valid || talk.valid(values)) return values;
  }
  throw new Error(`${talk.tool}: no valid combination of pool values`);
}

const required = (talk: ToolTalk) => Object.keys(talk.args).filter((a) => !talk.args[a]!.optional);
const CORRECTABLE = new Set(["enum", "code", "date", "datetime", "quantity", "count"]);

export function meanings(): Meaning[] {
  const out: Meaning[] = [];
  for (const f of FIXTURES) {
    for (const [t, talk] of f.tools.entries()) {
      if (ALWAYS_FORBIDDEN.has(talk.tool)) continue;
      for (let n = 1; n <= PER_TOOL; n++) {
        const id = `${f.fixture}/${talk.tool}/execution-${n}`;
        out.push({ id, fixture: f.fixture, tool: talk.tool, kind: "execution", values: drawValues(rng(id), talk) });
      }
      for (const kind of [MULTI_KINDS[t % 4]!, MULTI_KINDS[(t + 1) % 4]!]) {
        const id = `${f.fixture}/${talk.tool}/${kind}-1`;
        const r = rng(id);
        const values = drawValues(r, talk);
        if (kind === "missing" || kind === "answer") {
          out.push({ id, fixture: f.fixture, tool: talk.tool, kind, values, dropped: pick(r, required(talk)) });
        } else if (kind === "correction") {
          const candidates = Object.keys(values).filter((a) => CORRECTABLE.has(values[a]!.kind) && talk.args[a]!.pool.length > 1);
          if (candidates.length === 0) continue;
          const arg = pick(r, candidates);
          const others = talk.args[arg]!.pool.filter((v) => JSON.stringify(v) !== JSON.stringify(values[arg]) && (!talk.valid || talk.valid({ ...values, [arg]: v })));
          if (others.length === 0) continue;
          out.push({ id, fixture: f.fixture, tool: talk.tool, kind, values, corrected: { arg, value: pick(r, others) } });
        } else {
          out.push({ id, fixture: f.fixture, tool: talk.tool, kind, values });
        }
      }
    }
    for (const [i, b] of f.blocked.entries()) {
      const blocked = { policy: b.policy, reason: b.reason, why: b.why };
      out.push({ id: `${f.fixture}/${b.tool}/blocked-${i + 1}`, fixture: f.fixture, tool: b.tool, kind: "blocked", values: b.values, blocked });
      out.push({ id: `${f.fixture}/${b.tool}/insist-${i + 1}`, fixture: f.fixture, tool: b.tool, kind: "insist", values: b.values, blocked });
    }
  }
  return out;
}

/** The asserted arguments: every stated value in the schema's form (free text is never asserted) and the currency of an amount. */
function expectedArgs(talk: ToolTalk, values: Record<string, Value>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [arg, v] of Object.entries(values)) {
    const e = expected(v);
    if (e !== undefined) args[arg] = e;
    const currencyField = talk.args[arg]?.currency;
    if (currencyField && v.kind === "money") args[currencyField] = v.currency;
  }
  return args;
}

function without(values: Record<string, Value>, arg: string): Record<string, Value> {
  const rest = { ...values };
  delete rest[arg];
  return rest;
}

/** The renderings of one meaning: the conversation, what it must decide, and why. */
function render(m: Meaning): Omit<GeneratedCase, "id">[] {
  const f = FIXTURES.find((x) => x.fixture === m.fixture)!;
  const talk = f.tools.find((t) => t.tool === m.tool)!;
  const r = rng(`render:${m.id}`);
  const single = m.kind === "execution" || m.kind === "blocked";
  const forms: Form[] = single ? shuffle(r, FORMS).slice(0, RENDERINGS) : shuffle(r, [...SENTENCE_FORMS, "voice", "keyvalue", "inline"] as Form[]).slice(0, MULTI_RENDERINGS);
  return forms.map((form, i) => {
    // One rendering of each single-turn meaning carries a typo; never in a value.
    const style = { form, typo: single && i === RENDERINGS - 1 };
    const ask = (values: Record<string, Value>) => renderRequest(r, style, talk, values, f.people, domainOf(f));
    const tag = `[generated ${m.id}, ${form}${style.typo ? ", typo" : ""}]`;
    switch (m.kind) {
      case "execution":
        return {
          fixture: m.fixture,
          messages: [{ role: "user", content: ask(m.values) }],
          expect: { type: "execution", status: "ready_to_execute", tool: m.tool, args: expectedArgs(talk, m.values) },
          note: `Every required argument of ${m.tool} is stated and no policy of the workspace applies. ${tag}`,
        };
      case "blocked":
        return {
          fixture: m.fixture,
          messages: [{ role: "user", content: ask(m.values) }],
          expect: { type: "blocked", status: "blocked_by_policy", tool: m.tool, args: expectedArgs(talk, m.values), policy: m.blocked!.policy, reason_code: m.blocked!.reason },
          note: `${m.blocked!.policy} applies: ${m.blocked!.why}. ${tag}`,
        };
      case "missing":
        return {
          fixture: m.fixture,
          messages: [{ role: "user", content: ask(without(m.values, m.dropped!)) }],
          expect: { type: "clarify", status: "needs_input", tool: m.tool, missing: [m.dropped!] },
          note: `${m.dropped} is required by ${m.tool} and the request does not give it: ask, don't guess. ${tag}`,
        };
      case "answer":
        return {
          fixture: m.fixture,
          messages: [
            { role: "user", content: ask(without(m.values, m.dropped!)) },
            { role: "assistant", content: question(r, talk, m.dropped!) },
            { role: "user", content: bareAnswer(r, m.values[m.dropped!]!) },
          ],
          expect: { type: "execution", status: "ready_to_execute", tool: m.tool, args: expectedArgs(talk, m.values) },
          note: `The last turn answers the question for ${m.dropped}; the other arguments come from the first turn. ${tag}`,
        };
      case "correction": {
        const { arg, value } = m.corrected!;
        const kinds = Object.values(m.values).filter((v) => v.kind === m.values[arg]!.kind).length;
        const verb = talk.verbs[0]!;
        const readBack = pick(r, [`Ready to ${verb} ${talk.noun} with ${summary(talk, m.values)}. Shall I go ahead?`, `Here's what I have: ${summary(talk, m.values)}. OK to proceed?`]);
        return {
          fixture: m.fixture,
          messages: [
            { role: "user", content: ask(m.values) },
            { role: "assistant", content: readBack },
            { role: "user", content: correction(r, talk, arg, value, m.values[arg]!, kinds === 1) },
          ],
          expect: { type: "execution", status: "ready_to_execute", tool: m.tool, args: expectedArgs(talk, { ...m.values, [arg]: value }) },
          note: `The last turn corrects ${arg}; the action is the same with the new value. ${tag}`,
        };
      }
      case "thanks":
        return {
          fixture: m.fixture,
          messages: [
            { role: "user", content: ask(m.values) },
            { role: "assistant", content: `Done: ${talk.noun} is prepared (${summary(talk, m.values)}).` },
            { role: "user", content: pick(r, THANKS) },
          ],
          expect: { type: "direct", status: "answered" },
          note: `Thanks after the action was prepared is an acknowledgement, not a new request. ${tag}`,
        };
      case "insist":
        return {
          fixture: m.fixture,
          messages: [
            { role: "user", content: ask(m.values) },
            { role: "assistant", content: refusal(r, m.blocked!.reason) },
            { role: "user", content: pick(r, INSIST) },
          ],
          expect: { type: "blocked", status: "blocked_by_policy", tool: m.tool, policy: m.blocked!.policy, reason_code: m.blocked!.reason },
          note: `Insisting after ${m.blocked!.policy} stopped the request is governed again, never obeyed: ${m.blocked!.why}. ${tag}`,
        };
    }
  });
}

/** Every generated case, numbered in meaning order, with its split. */
export function generate(): { split: Split; case: GeneratedCase }[] {
  const out: { split: Split; case: GeneratedCase }[] = [];
  for (const m of meanings()) {
    const split = splitOf(m.id);
    for (const c of render(m)) out.push({ split, case: { id: `gen-${String(out.length + 1).padStart(4, "0")}`, ...c } });
  }
  return out;
}

export function jsonl(split: Split, cases = generate()): string {
  return cases
    .filter((c) => c.split === split)
    .map((c) => JSON.stringify(c.case))
    .join("\n")
    .concat("\n");
}

const here = path.dirname(fileURLToPath(import.meta.url));

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cases = generate();
  for (const split of ["tune", "holdout"] as const) writeFileSync(path.join(here, `${split}.jsonl`), jsonl(split, cases));
  const count = (s: Split) => cases.filter((c) => c.split === s).length;
  const ms = meanings();
  console.log(`${ms.length} meanings (${ms.filter((m) => splitOf(m.id) === "holdout").length} holdout), ${cases.length} cases: tune ${count("tune")}, holdout ${count("holdout")}`);
}
