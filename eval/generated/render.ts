// Surface forms of one meaning. A message is first written as a template whose values are slots, in one of
// the layouts people use (a plain sentence in several word orders, a request after its context, key: value
// lines, bullets, a forwarded e-mail, a voice transcript); noise (a typo, lower case, no punctuation) is
// applied to the template's own words only, and the values are then written in the layout's style. So a
// typo never lands inside a value, and every value can be asserted in the schema's form.
import type { ToolTalk } from "./talk.ts";
import { canonical, pick, shuffle, written, type Rng, type Value } from "./values.ts";

export const FORMS = ["imperative", "polite", "need", "context", "keyvalue", "bullets", "email", "voice"] as const;
export type Form = (typeof FORMS)[number];
/** Layouts a sentence is written in (the first turn of a conversation, the body of an e-mail). */
export const SENTENCE_FORMS: readonly Form[] = ["imperative", "polite", "need", "context"];

const SLOT = (arg: string) => `\u27e6${arg}\u27e7`;
const SLOT_RE = /\u27e6([a-z_0-9]+)\u27e7/g;

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The verb, its object and the other arguments' phrases, as a template; `values` says which arguments are stated. */
function clause(r: Rng, talk: ToolTalk, values: Record<string, Value>): string {
  const present = new Set(Object.keys(values));
  const slotsOf = (t: string) => [...t.matchAll(/\{([a-z_0-9]+)\}/g)].map((m) => m[1]!);
  const objects = talk.objects.filter((o) => slotsOf(o).every((a) => present.has(a)));
  const object = pick(r, objects.length > 0 ? objects : [talk.noun]);
  const inObject = new Set(slotsOf(object));
  let rest = shuffle(
    r,
    [...present].filter((a) => !inObject.has(a)),
  );
  // An argument written after another ("to Y" after "from X") keeps that order.
  for (const a of [...rest]) {
    const after = talk.args[a]?.after;
    if (after === undefined || !rest.includes(after) || rest.indexOf(a) > rest.indexOf(after)) continue;
    rest = rest.filter((x) => x !== a);
    rest.splice(rest.indexOf(after) + 1, 0, a);
  }
  const phrases = rest.map((a) => pick(r, talk.args[a]!.frames).replace("{v}", SLOT(a)));
  return [pick(r, talk.verbs), object.replace(/\{([a-z_0-9]+)\}/g, (_, a: string) => SLOT(a)), ...phrases].join(" ").replace(/ ([;,])/g, "$1");
}

function label(r: Rng, talk: ToolTalk, arg: string): string {
  return pick(r, talk.args[arg]!.labels);
}

/** A sentence in one of the plain layouts. */
function sentence(r: Rng, form: Form, talk: ToolTalk, values: Record<string, Value>): string {
  const c = clause(r, talk, values);
  switch (form) {
    case "polite":
      return pick(r, [`Can you ${c}?`, `Could you please ${c}?`, `Would you ${c}, please?`, `Please ${c}.`]);
    case "need":
      return pick(r, [`I need to ${c}.`, `I need you to ${c}.`, `I'd like to ${c}.`, `We need to ${c} please.`]);
    case "context": {
      const ctx = pick(r, talk.contexts);
      return pick(r, [`${ctx}. Can you ${c}?`, `${ctx}, so please ${c}.`, `${ctx} — could you ${c}?`, `${ctx}. I need to ${c}.`]);
    }
    default:
      return `${cap(c)}.`;
  }
}

function list(r: Rng, form: "keyvalue" | "bullets", talk: ToolTalk, values: Record<string, Value>): string {
  const verb = pick(r, talk.verbs);
  const args = r() < 0.5 ? Object.keys(values) : shuffle(r, Object.keys(values));
  if (form === "keyvalue") {
    const sep = pick(r, [": ", ": ", " = ", " - "]);
    const head = pick(r, [`${cap(verb)} ${talk.noun}:`, `Request: ${verb} ${talk.noun}`, `Please ${verb} ${talk.noun}.`]);
    return [head, ...args.map((a) => `${label(r, talk, a)}${sep}${SLOT(a)}`)].join("\n");
  }
  const bullet = pick(r, ["- ", "* ", "• "]);
  const head = pick(r, [`Can you ${verb} ${talk.noun}? Details:`, `${cap(verb)} ${talk.noun} with these details:`, `Need ${talk.noun} sorted:`]);
  return [head, ...args.map((a) => `${bullet}${label(r, talk, a)}: ${SLOT(a)}`)].join("\n");
}

const SENT = ["Mon, 1 Mar 2027 08:12", "Tue, 2 Feb 2027 16:40", "Fri, 8 Jan 2027 11:03"];

function email(r: Rng, talk: ToolTalk, values: Record<string, Value>, people: { name: string; email: string }[], domain: string): string {
  const from = pick(r, people);
  const body = sentence(r, pick(r, ["imperative", "polite", "need"] as const), talk, values);
  const opener = pick(r, ["Can you take care of this?", "See below, please action.", "fyi — this one needs doing", `Forwarding from ${from.name.split(" ")[0]}, please handle.`]);
  return [
    opener,
    "",
    "---------- Forwarded message ---------",
    `From: ${from.name} <${from.email}>`,
    `Date: ${pick(r, SENT)}`,
    `Subject: ${pick(r, [cap(talk.noun.replace(/^(an?|the) /, "")), `Re: ${talk.noun.replace(/^(an?|the) /, "")}`])}`,
    `To: ops@${domain}`,
    "",
    pick(r, ["Hi,", "Hello team,", "Hi there,"]),
    "",
    body,
    "",
    pick(r, ["Thanks,", "Cheers,", "Best,"]),
    from.name.split(" ")[0],
  ].join("\n");
}

/** A letter swapped with its neighbour or dropped, in one word of the template (never a value). */
function typo(r: Rng, template: string): string {
  const slots = [...template.matchAll(SLOT_RE)].map((m) => [m.index!, m.index! + m[0].length] as const);
  const words = [...template.matchAll(/[A-Za-z]{5,}/g)].filter((m) => !slots.some(([a, b]) => m.index! >= a && m.index! < b));
  if (words.length === 0) return template;
  const m = pick(r, words);
  const w = m[0];
  const i = 1 + Math.floor(r() * (w.length - 2));
  const changed = r() < 0.5 ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : w.slice(0, i) + w.slice(i + 1);
  return template.slice(0, m.index!) + changed + template.slice(m.index! + w.length);
}

/** Speech as a transcript shows it: lower case, no punctuation, a filler word. */
function voice(r: Rng, template: string): string {
  // Slot names are lower case already, so the whole template can be lowered.
  const spoken = template
    .toLowerCase()
    .replace(/[.,?!:;—()"]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return `${pick(r, ["um ", "ok so ", "yeah hi ", "right so ", ""])}${spoken}`;
}

/** Fills the slots with the values, written in the layout's style. */
export function fill(r: Rng, template: string, values: Record<string, Value>, spoken: boolean): string {
  // "a" before a value that starts with a vowel sound ("a outage repair") reads as a slip nobody makes.
  return template.replace(SLOT_RE, (_, a: string) => written(r, values[a]!, spoken)).replace(/\b([Aa]) (?=[aeio])/g, "$1n ");
}

export interface Style {
  form: Form;
  typo: boolean;
}

/** One user message stating `values` for the tool, in the given style. */
export function renderRequest(r: Rng, style: Style, talk: ToolTalk, values: Record<string, Value>, people: { name: string; email: string }[], domain: string): string {
  let template: string;
  switch (style.form) {
    case "keyvalue":
    case "bullets":
      template = list(r, style.form, talk, values);
      break;
    case "email":
      template = email(r, talk, values, people, domain);
      break;
    case "voice":
      template = voice(r, sentence(r, pick(r, ["polite", "need", "imperative"] as const), talk, values));
      break;
    default:
      template = sentence(r, style.form, talk, values);
  }
  if (style.typo) template = typo(r, template);
  return fill(r, template, values, style.form === "voice");
}

/** What the assistant says back about a prepared action, in the schema's forms. */
export function summary(talk: ToolTalk, values: Record<string, Value>): string {
  return Object.entries(values)
    .map(([a, v]) => `${talk.args[a]!.labels[0]!.toLowerCase()} ${canonical(v)}`)
    .join(", ");
}

/** The assistant's question for a missing argument. */
export function question(r: Rng, talk: ToolTalk, arg: string): string {
  const l = talk.args[arg]!.labels[0]!.toLowerCase();
  return pick(r, [`Sure. Which ${l} should I use?`, `Happy to. What's the ${l}?`, `I can do that — I just need the ${l}.`, `What ${l} should it have?`]);
}

/** A bare answer to that question: the value alone, sometimes with a word around it. */
export function bareAnswer(r: Rng, value: Value): string {
  const v = fill(r, SLOT("x"), { x: value }, false);
  return pick(r, [v, v, `${v} please`, `it's ${v}`, `${v}.`]);
}

/** A correction of one argument after the assistant has repeated the request back. */
export function correction(r: Rng, talk: ToolTalk, arg: string, value: Value, unambiguous: boolean): string {
  const l = talk.args[arg]!.labels[0]!.toLowerCase();
  const withLabel = [`Sorry, the ${l} should be ${SLOT("x")}.`, `Wait — change the ${l} to ${SLOT("x")}.`, `actually the ${l} is ${SLOT("x")}`];
  const bare = [`Actually, make it ${SLOT("x")}.`, `Make that ${SLOT("x")} instead.`, `actually ${SLOT("x")}, sorry`];
  return fill(r, pick(r, unambiguous ? [...withLabel, ...bare] : withLabel), { x: value }, false);
}

export const THANKS = ["thanks!", "Great, thank you.", "perfect, cheers", "ok thanks a lot", "Thank you so much!", "brilliant, ta"];
