// Bindings: which argument of a tool each condition of a rule reads, and the rule's value in that argument's
// terms ("battery → move_robot.battery (0–1); 15% = 0.15"). Shown to the author with the policy, so a rule
// bound to the wrong field, or to several, is seen before it is confirmed. Computed with the evaluator's own
// field finders over a call made from the tool's JSON Schema, so what is shown is what evaluation reads.
import type { ActionSelector, CompiledRule, Condition, Value } from "./compiled.ts";
import { parameterChoices, parameterPaths, parameterSchemas, type GovernableTool } from "./action.ts";
import {
  bySubject,
  comparedFields,
  datedFields,
  gapBetween,
  ENVIRONMENT_KEYS,
  ENVIRONMENT_VALUES,
  hasConcept,
  numericFields,
  prepareAction,
  sameValue,
  scalar,
  scaleOf,
  shareOf,
  TIME_KEY,
  CLOCK_KEY,
  PLANNED_KEY,
  namesDoingOf,
  toolCanCarry,
  type Field,
  type PreparedAction,
} from "./evaluate.ts";
import { describeCondition, zoneText } from "./explain.ts";
import { convertTo } from "../language/units.ts";
import { wordsOf } from "../language/lemmas.ts";

export interface Binding {
  /** The condition in words, as the restatement says it. */
  condition: string;
  tool: string;
  /** The arguments the condition reads (dotted paths); empty when it reads no argument. */
  parameters: string[];
  /** What the condition reads when it reads no single argument, or the rule's value in the argument's terms. */
  note?: string;
  /** False when the tool cannot carry what the condition names: the condition does not apply to it. */
  applies: boolean;
  /** Several arguments fit equally well: the rule reads them all, in its stricter direction. */
  ambiguous: boolean;
  /** The condition is an exception ("unless …"): an ambiguous exception is read so it exempts less. */
  exception: boolean;
}

interface SchemaNode {
  type?: unknown;
  enum?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  properties?: Record<string, SchemaNode>;
}

/** The leaf schemas of a tool's parameters by dotted path, as evaluation flattens them. */
const leafSchemas = (schema: Record<string, unknown> | undefined): Map<string, SchemaNode> => (parameterSchemas(schema) as Map<string, SchemaNode> | undefined) ?? new Map();

/** An example value of a parameter's type: the field finders look at values' types, never at their content. */
function sample(node: SchemaNode): unknown {
  const type = Array.isArray(node.type) ? node.type.find((t) => t !== "null") : node.type;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  switch (type) {
    case "number":
    case "integer":
      return typeof node.minimum === "number" ? node.minimum : 0;
    case "boolean":
      return false;
    case "array":
      return [];
    default:
      return "";
  }
}

/** A call to the tool carrying every parameter, prepared as evaluation prepares one. */
function exampleCall(tool: GovernableTool, leaves: Map<string, SchemaNode>): PreparedAction {
  const args: Record<string, unknown> = {};
  for (const [path, node] of leaves) {
    const keys = path.split(".");
    let at = args;
    for (const k of keys.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>;
    at[keys.at(-1)!] = sample(node);
  }
  return prepareAction({ tool: tool.name, description: tool.description, args, params: parameterPaths(tool.parameters) ?? [], now: new Date(0) });
}

const number = (x: number) => String(Number(x.toPrecision(6)));

/** The rule's value in the argument's terms: "15% = 0.15", "€50 = 5000 cents", "2 t = 2000 kg". */
function valueNote(f: Field, value: Value, node: SchemaNode | undefined): string | undefined {
  const bounds = node && typeof node.minimum === "number" && typeof node.maximum === "number" ? `${node.minimum}–${node.maximum}` : undefined;
  const scale = scaleOf(f.words, value);
  let note: string | undefined;
  if (scale?.kind === "minor") note = `${value.text} = ${number(value.value * 100)} ${f.words.at(-1)}`;
  else if (scale?.kind === "unit") {
    const converted = convertTo(value.value, value.unit!, scale.unit);
    if (converted !== undefined) note = `${value.text} = ${number(converted)} ${scale.unit.name ?? scale.unit.unit}`;
  } else if (scale?.kind === "fraction" && (scale.named || (typeof node?.maximum === "number" && node.maximum <= 1))) note = `${value.text} = ${number(value.value / 100)}`;
  return [bounds && `(${bounds})`, note].filter(Boolean).join("; ") || undefined;
}

function leafConditions(c: Condition | null, out: Condition[] = []): Condition[] {
  if (!c) return out;
  if (c.kind === "and" || c.kind === "or") for (const x of c.of) leafConditions(x, out);
  else if (c.kind === "not") leafConditions(c.of, out);
  else out.push(c);
  return out;
}

type Read = Pick<Binding, "parameters" | "note" | "applies">;

/** Which arguments one condition reads on this tool. */
function readOf(c: Condition, call: PreparedAction, leaves: Map<string, SchemaNode>, actions?: ActionSelector): Read {
  const paths = (fields: Field[]) => [...new Set(fields.map((f) => f.path))];
  call.claimed.clear();
  switch (c.kind) {
    case "compare": {
      const gap = c.since ? gapBetween(call, c.subject, c.since) : undefined;
      if (gap) return { parameters: paths([...gap.own, gap.other]), applies: true, note: `the time between the two dates` };
      const fields = numericFields(call, c.subject, c.value);
      if (fields.length === 0) return { parameters: [], applies: false };
      const notes = fields.map((f) => valueNote(f, c.value, leaves.get(f.path))).filter(Boolean);
      return { parameters: paths(fields), applies: true, ...(notes.length > 0 ? { note: [...new Set(notes)].join(", ") } : {}) };
    }
    case "equals": {
      if (c.subject.words.length > 0) {
        const named = bySubject(call, c.subject, scalar);
        if (named.length > 0) return { parameters: paths(named), applies: true };
        if (!toolCanCarry(call, c.subject)) return { parameters: [], applies: false };
      }
      // A parameter whose allowed values include the rule's value.
      const byEnum = [...leaves].filter(([, node]) => Array.isArray(node.enum) && node.enum.some((e) => typeof e === "string" && c.values.some((v) => sameValue(e, v)))).map(([p]) => p);
      if (byEnum.length > 0) return { parameters: byEnum, applies: true };
      if (c.values.some((v) => ENVIRONMENT_VALUES.has(v.toLowerCase()))) {
        const env = [...leaves.keys()].filter((p) => wordsOf(p).some((w) => ENVIRONMENT_KEYS.includes(w)));
        if (env.length > 0) return { parameters: env, applies: true };
      }
      if (c.values.some((v) => v.toLowerCase().split(/[\s_-]+/).every((w) => hasConcept(call.name, w)))) return { parameters: [], applies: true, note: "the tool itself (its name)" };
      return { parameters: [], applies: leaves.size > 0, note: "any short text argument with that value" };
    }
    case "flag": {
      const flags = bySubject(call, c.subject, (f) => typeof f.value === "boolean");
      if (flags.length > 0) return { parameters: paths(flags), applies: true };
      return { parameters: [], applies: toolCanCarry(call, c.subject) || leaves.size > 0, note: `an argument whose value is "${c.subject.words.at(-1) ?? c.subject.text}"` };
    }
    case "text": {
      const texts = c.subject.words.length > 0 ? bySubject(call, c.subject, (f) => typeof f.value === "string") : call.fields.filter((f) => typeof f.value === "string");
      return texts.length > 0 ? { parameters: paths(texts), applies: true } : { parameters: [], applies: false };
    }
    case "outside_domain": {
      const named = c.subject.words.length > 0 ? bySubject(call, c.subject, () => true) : [];
      return named.length > 0 ? { parameters: paths(named), applies: true } : { parameters: [], applies: true, note: "every e-mail address in the arguments" };
    }
    case "weekday":
    case "time": {
      // (As evaluation reads it: the planned start the tool gives, else when it runs; any action: when it runs.)
      const verbs = actions && !actions.any ? actions.terms.flatMap((t) => t.verbs) : [];
      const planned = !actions || actions.any ? [] : [...leaves.keys()].filter((p) => PLANNED_KEY.test(p) || namesDoingOf(p, verbs));
      if (!c.subject && planned.length > 0) return { parameters: planned, applies: true, note: `its planned start, read in ${zoneText(c.tz)} (when it runs, if not given)` };
      if (!c.subject) return { parameters: [], applies: true, note: `the time the action runs (${zoneText(c.tz)})` };
      const named = c.subject.implied === "time" ? [] : bySubject(call, c.subject, (f) => typeof f.value === "string" || typeof f.value === "number");
      const ofDay = c.kind === "time" && c.subject.implied === "time";
      const timed = named.length > 0 ? paths(named) : [...leaves.keys()].filter((p) => (ofDay ? CLOCK_KEY : TIME_KEY).test(p));
      if (timed.length === 0 && c.subject.orNow) return { parameters: [], applies: true, note: `the time the action runs (${zoneText(c.tz)})` };
      return timed.length > 0 ? { parameters: timed, applies: true, note: `read in ${zoneText(c.tz)}` } : { parameters: [], applies: false };
    }
    case "rate": {
      if (!c.per) return { parameters: [], applies: true, note: "the workspace's recent governed actions this rule covers" };
      const party = bySubject(call, c.per, (f) => typeof f.value === "string" || typeof f.value === "number");
      return { parameters: paths(party), applies: true, note: party.length > 0 ? `the workspace's recent governed actions this rule covers, for the same ${c.per.text}` : `the workspace's recent governed actions this rule covers (the tool names no ${c.per.text}: all of them)` };
    }
    case "compare_fields": {
      const { left, right } = comparedFields(call, c.subject, c.other);
      // (A share of another argument the tool does not carry is read as the share alone, as evaluation does.)
      const share = shareOf(c);
      if (share && (left.length === 0 || right.length === 0)) return readOf(share, call, leaves);
      return { parameters: paths([...left, ...right]), applies: right.length > 0 };
    }
    case "dated": {
      const dates = datedFields(call, c.subject);
      return dates.length > 0 ? { parameters: paths(dates), applies: true, note: "against the time of the decision" } : { parameters: [], applies: toolCanCarry(call, c.subject), note: "a date argument" };
    }
    case "differ": {
      const both = call.fields.filter((f) => hasConcept(f.concepts, c.head));
      return { parameters: paths(both), applies: both.length >= 2 };
    }
    case "action":
      return { parameters: [], applies: true, note: "the tool itself" };
    default:
      // and / or / not are walked by leafConditions and never reach here.
      return { parameters: [], applies: true };
  }
}

// Enough for any real schema's enums; a tool with more allowed values is tried with the first ones only.
const MAX_COVERAGE_CALLS = 64;

/**
 * Calls a tool can receive, for finding the rules that cover it: one with no arguments, and one for each
 * allowed value of each enum parameter, since a rule may name the action by a value ("first class" and
 * `book_flight {cabin: "first"}`), which a call without arguments never shows.
 */
export function coverageCalls(tool: GovernableTool, context: { now: Date; domain?: string }): PreparedAction[] {
  const params = parameterPaths(tool.parameters);
  // (With the tool's closed lists, as a governed call has them: a rule may cover a tool by them.)
  const choices = parameterChoices(tool.parameters);
  const base = { tool: tool.name, description: tool.description, params, ...(choices ? { choices } : {}), now: context.now, ...(context.domain ? { domain: context.domain } : {}) };
  const calls = [prepareAction({ ...base, args: {} })];
  for (const [path, node] of leafSchemas(tool.parameters)) {
    if (!Array.isArray(node.enum)) continue;
    for (const value of node.enum) {
      if (typeof value !== "string" || calls.length >= MAX_COVERAGE_CALLS) continue;
      calls.push(prepareAction({ ...base, args: { [path]: value } }));
    }
  }
  return calls;
}

/** Each condition of the rule, bound to this tool's arguments. */
export function bindRule(rule: CompiledRule, tool: GovernableTool): Binding[] {
  const leaves = leafSchemas(tool.parameters);
  const call = exampleCall(tool, leaves);
  const bind = (c: Condition, exception: boolean): Binding => {
    const read = readOf(c, call, leaves, rule.actions);
    return { condition: describeCondition(c), tool: tool.name, ...read, ambiguous: read.parameters.length > 1, exception };
  };
  return [...leafConditions(rule.when).map((c) => bind(c, false)), ...leafConditions(rule.unless).map((c) => bind(c, true))];
}

/** "battery → move_robot.battery (0–1); 15% = 0.15" */
export function bindingText(b: Binding): string {
  const target = !b.applies
    ? `not carried by ${b.tool} (does not apply to it)`
    : b.parameters.length > 0
      ? b.parameters.map((p) => `${b.tool}.${p}`).join(" or ")
      : `${b.tool}: ${b.note ?? "no argument"}`;
  const note = b.applies && b.parameters.length > 0 && b.note ? `${b.note.startsWith("(") ? " " : "; "}${b.note}` : "";
  return `${b.exception ? "unless " : ""}${b.condition} → ${target}${note}`;
}
