// Evaluation: compiled rules become closures once (per policy load), and one decision is a few set lookups
// and comparisons. Three-valued logic: a condition whose value the action does not carry (no amount, no
// environment, no clock for a rate) is UNKNOWN, and a restrictive rule (block, require approval) fires on
// UNKNOWN, so leaving an argument out can never slip past a rule. A permissive rule (allow) needs TRUE.
import type { ActionSelector, CompiledRule, Condition, Effect, Quantity, Subject } from "./compiled.ts";
import { stem, stemSet, words as splitWords } from "../text/stem.ts";

const FALSE = 0;
const UNKNOWN = 1;
const TRUE = 2;
type Truth = 0 | 1 | 2;

export interface ActionInput {
  /** A tool name (`refund_payment`) or the action in words. */
  tool: string;
  description?: string;
  domain?: string;
  args: Record<string, unknown>;
  now: Date;
  /** Earlier approved actions in the workspace, for rate rules: tool name and time, newest last. */
  history?: { tool: string; at: Date }[];
}

interface Field {
  path: string;
  stems: Set<string>;
  /** The last key's stems, which name what the value is ("refund amount" → amount). */
  head: string;
  value: unknown;
}

/** An action made ready for many rules: its words stemmed and its arguments flattened once. */
/** An action made ready for many rules: its words stemmed and its arguments flattened once. */
export interface PreparedAction {
  input: ActionInput;
  stems: Set<string>;
  /**
   * Stems of short string arguments (names, ids, enum values): "delete the shared-staging environment".
   * Computed on first need: most decisions never ask.
   */
  valueStems: Set<string> | undefined;
  fields: Field[];
  /** What the rules could not find, for the explanation (e.g. "amount"). */
  unknowns: Set<string>;
  zoned: Map<string, { day: number; minutes: number }>;
  /** Subject → fields, so twenty rules about "the amount" look it up once. */
  subjects: Map<string, Field[]>;
}

const MAX_FIELDS = 200;
// Longer strings are free text (a message body), whose words must not make an action match a rule.
const MAX_VALUE_WORDS_LENGTH = 64;
// Tool names and argument keys repeat from one decision to the next: their stems are computed once.
const CACHE_LIMIT = 10_000;
const toolStems = new Map<string, Set<string>>();
const keyStems = new Map<string, string[]>();

function cached<V>(cache: Map<string, V>, key: string, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, value);
  }
  return value;
}

export function prepareAction(input: ActionInput): PreparedAction {
  let stems = cached(toolStems, input.tool, () => stemSet(input.tool));
  if (input.description) {
    stems = new Set(stems);
    for (const s of cached(toolStems, input.description, () => stemSet(input.description!))) stems.add(s);
  }
  const fields: Field[] = [];
  const walk = (value: unknown, path: string, pathStems: string[], depth: number) => {
    for (const key in value as Record<string, unknown>) {
      if (fields.length >= MAX_FIELDS) return;
      const inner = (value as Record<string, unknown>)[key];
      const own = cached(keyStems, key, () => splitWords(key).map(stem));
      const all = pathStems.length === 0 ? own : [...pathStems, ...own];
      const fullPath = path === "" ? key : `${path}.${key}`;
      if (inner !== null && typeof inner === "object" && !Array.isArray(inner)) {
        if (depth < 6) walk(inner, fullPath, all, depth + 1);
        continue;
      }
      fields.push({ path: fullPath, stems: new Set(all), head: own.at(-1) ?? "", value: inner });
    }
  };
  if (input.args && typeof input.args === "object") walk(input.args, "", [], 0);
  return { input, stems, valueStems: undefined, fields, unknowns: new Set(), zoned: new Map(), subjects: new Map() };
}

function valueStemsOf(action: PreparedAction): Set<string> {
  if (action.valueStems) return action.valueStems;
  const set = new Set<string>();
  for (const f of action.fields) {
    if (typeof f.value === "string" && f.value.length <= MAX_VALUE_WORDS_LENGTH) for (const s of cached(toolStems, f.value, () => stemSet(f.value as string))) set.add(s);
  }
  action.valueStems = set;
  return set;
}

// Where a value is looked for when the sentence names no subject ("over $500", "in production"), as stems.
const stems = (list: string[]) => new Set(list.map(stem));
const AMOUNT_KEYS = stems(["amount", "total", "value", "price", "sum", "cost", "fee", "charge", "payment", "refund", "spend"]);
const PERCENT_KEYS = stems(["percent", "percentage", "pct", "ratio", "level"]);
const ENVIRONMENT_KEYS = stems(["environment", "env", "stage", "tier", "target", "cluster", "namespace"]);
const RECIPIENT_KEYS = stems(["to", "recipient", "recipients", "email", "cc", "bcc", "address", "attendees", "participants", "invitees", "destination"]);
const CURRENCY_KEYS = stems(["currency", "cur", "ccy"]);
const DURATION_KEYS = stems(["duration", "length", "minutes", "mins", "hours", "seconds", "days", "timeout", "ttl"]);
// A duration argument's unit, from its key's last word; minutes when it says none.
const MINUTES_PER: Record<string, number> = { [stem("hours")]: 60, [stem("seconds")]: 1 / 60, [stem("days")]: 1440, [stem("ms")]: 1 / 60_000 };

function numeric(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string") {
    const cleaned = value.replace(/[$€£¥₹,%\s]|usd|eur|gbp/gi, "");
    if (cleaned !== "" && /^-?\d+(\.\d+)?$/.test(cleaned)) return Number(cleaned);
  }
  return undefined;
}

const subjectKey = (subject: Subject, wantNumber: boolean) => `${wantNumber ? "n" : "s"}|${subject.implied ?? ""}|${subject.stems.join(" ")}`;

function findSubject(action: PreparedAction, subject: Subject, wantNumber: boolean, key: string): Field[] {
  const hit = action.subjects.get(key);
  if (hit) return hit;
  const found = lookUp(action, subject, wantNumber);
  action.subjects.set(key, found);
  return found;
}

function lookUp(action: PreparedAction, subject: Subject, wantNumber: boolean): Field[] {
  const fits = (f: Field) => (wantNumber ? numeric(f.value) !== undefined : f.value !== null && f.value !== undefined);
  if (subject.stems.length > 0) {
    const head = subject.stems.at(-1)!;
    let best: Field[] = [];
    let bestScore = 0;
    for (const f of action.fields) {
      if (!f.stems.has(head) || !fits(f)) continue;
      let score = 0;
      for (const s of subject.stems) if (f.stems.has(s)) score++;
      if (f.head === head) score += 0.5;
      if (score > bestScore) {
        best = [f];
        bestScore = score;
      } else if (score === bestScore) best.push(f);
    }
    return best;
  }
  const keys =
    subject.implied === "percent" ? PERCENT_KEYS : subject.implied === "environment" ? ENVIRONMENT_KEYS : subject.implied === "recipient" ? RECIPIENT_KEYS : subject.implied === "duration" ? DURATION_KEYS : AMOUNT_KEYS;
  const byHead = action.fields.filter((f) => keys.has(f.head) && fits(f));
  if (byHead.length > 0) return byHead;
  return action.fields.filter((f) => [...f.stems].some((s) => keys.has(s)) && fits(f));
}

function compareNumbers(op: string, x: number, a: number, b?: number): boolean {
  switch (op) {
    case "gt":
      return x > a;
    case "gte":
      return x >= a;
    case "lt":
      return x < a;
    case "lte":
      return x <= a;
    case "eq":
      return x === a;
    case "neq":
      return x !== a;
    default:
      return x >= a && x <= (b ?? a);
  }
}

function currencyOf(action: PreparedAction, field: Field): string | undefined {
  const parentPath = field.path.includes(".") ? field.path.slice(0, field.path.lastIndexOf(".") + 1) : "";
  for (const f of action.fields) {
    if (CURRENCY_KEYS.has(f.head) && typeof f.value === "string" && f.path.startsWith(parentPath)) return f.value.toUpperCase();
  }
  if (typeof field.value === "string") {
    if (/\$|usd/i.test(field.value)) return "USD";
    if (/€|eur/i.test(field.value)) return "EUR";
    if (/£|gbp/i.test(field.value)) return "GBP";
  }
  return undefined;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
const zoneOffsets = new Map<string, number>();
// Offsets only change on the hour or half hour (DST): one Intl lookup per zone per quarter hour.
const OFFSET_BUCKET_MS = 15 * 60_000;

/** Minutes to add to UTC to get the zone's wall clock at `at`. */
function offsetMinutes(tz: string, at: Date): number {
  const bucket = Math.floor(at.getTime() / OFFSET_BUCKET_MS);
  const key = `${tz}|${bucket}`;
  const hit = zoneOffsets.get(key);
  if (hit !== undefined) return hit;
  let format = zoneFormats.get(tz);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: tz, year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", hourCycle: "h23" });
    zoneFormats.set(tz, format);
  }
  const probe = new Date(bucket * OFFSET_BUCKET_MS);
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(probe)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!);
  const offset = Math.round((wall - probe.getTime()) / 60_000);
  if (zoneOffsets.size >= CACHE_LIMIT) zoneOffsets.clear();
  zoneOffsets.set(key, offset);
  return offset;
}

function zonedNow(action: PreparedAction, tz: string): { day: number; minutes: number } {
  const hit = action.zoned.get(tz);
  if (hit) return hit;
  const now = action.input.now;
  const wall = tz === "UTC" ? now : new Date(now.getTime() + offsetMinutes(tz, now) * 60_000);
  const result = { day: wall.getUTCDay(), minutes: wall.getUTCHours() * 60 + wall.getUTCMinutes() };
  action.zoned.set(tz, result);
  return result;
}

type Check = (action: PreparedAction) => Truth;

/**
 * When a day or hour rule looks: the time the action runs (now), or with a subject the action's own time
 * argument ("windows that start on a Saturday" → `start_time`). Undefined when that argument is absent or
 * not a time.
 */
function timeSource(subject: Subject | undefined): (a: PreparedAction) => ((tz: string) => { day: number; minutes: number }) | undefined {
  if (!subject) return (a) => (tz) => zonedNow(a, tz);
  const key = subjectKey(subject, false);
  return (a) => {
    for (const f of findSubject(a, subject, false, key)) {
      if (typeof f.value !== "string" && typeof f.value !== "number") continue;
      const at = new Date(f.value);
      if (Number.isNaN(at.getTime())) continue;
      return (tz) => {
        const wall = tz === "UTC" ? at : new Date(at.getTime() + offsetMinutes(tz, at) * 60_000);
        return { day: wall.getUTCDay(), minutes: wall.getUTCHours() * 60 + wall.getUTCMinutes() };
      };
    }
    a.unknowns.add(subject.text);
    return undefined;
  };
}

/**
 * A term matches when each of its stems names the action (tool name, description) or one of its short
 * argument values, and at least one names the action itself: "delete the shared-staging environment"
 * matches `delete_environment {environment_id: "shared-staging"}`; "refunds" never matches by value alone.
 */
const matchesTerms = (terms: { stems: string[] }[]) => (action: PreparedAction) =>
  terms.some((t) => {
    let own = false;
    for (const s of t.stems) {
      if (action.stems.has(s)) own = true;
      else if (!valueStemsOf(action).has(s)) return false;
    }
    return own;
  });

function compileCondition(c: Condition, selector: ActionSelector): Check {
  switch (c.kind) {
    case "and": {
      const parts = c.of.map((x) => compileCondition(x, selector));
      return (a) => {
        let result: Truth = TRUE;
        for (const p of parts) {
          const v = p(a);
          if (v === FALSE) return FALSE;
          if (v < result) result = v;
        }
        return result;
      };
    }
    case "or": {
      const parts = c.of.map((x) => compileCondition(x, selector));
      return (a) => {
        let result: Truth = FALSE;
        for (const p of parts) {
          const v = p(a);
          if (v === TRUE) return TRUE;
          if (v > result) result = v;
        }
        return result;
      };
    }
    case "not": {
      const inner = compileCondition(c.of, selector);
      return (a) => (2 - inner(a)) as Truth;
    }
    case "compare": {
      const { subject, op, value, high } = c;
      const key = subjectKey(subject, true);
      return (a) => {
        const fields = findSubject(a, subject, true, key);
        if (fields.length === 0) {
          a.unknowns.add(subject.text || "amount");
          return UNKNOWN;
        }
        let result: Truth = FALSE;
        for (const f of fields) {
          let v: Truth;
          const currency = value.currency ? currencyOf(a, f) : undefined;
          if (currency && value.currency && currency !== value.currency) {
            a.unknowns.add(`${subject.text || "amount"} in ${value.currency}`);
            v = UNKNOWN;
          } else {
            const x = value.minutes ? numeric(f.value)! * (MINUTES_PER[f.head] ?? 1) : numeric(f.value)!;
            v = compareNumbers(op, x, value.value, high?.value) ? TRUE : FALSE;
          }
          if (v > result) result = v;
        }
        return result;
      };
    }
    case "equals": {
      const wanted = new Set(c.values.map((v) => v.toLowerCase()));
      const { subject, negate } = c;
      const key = subjectKey(subject, false);
      return (a) => {
        const fields = findSubject(a, subject, false, key).filter((f) => typeof f.value === "string" || typeof f.value === "number" || typeof f.value === "boolean");
        let result: Truth;
        if (fields.length > 0) result = fields.some((f) => wanted.has(String(f.value).toLowerCase())) ? TRUE : FALSE;
        else if (subject.implied === "environment" && a.fields.some((f) => typeof f.value === "string" && wanted.has(f.value.toLowerCase()))) result = TRUE;
        else if (subject.implied === "environment" && a.input.domain && wanted.has(a.input.domain.toLowerCase())) result = TRUE;
        else {
          a.unknowns.add(subject.text);
          result = UNKNOWN;
        }
        return negate ? ((2 - result) as Truth) : result;
      };
    }
    case "outside_domain": {
      const domains = c.domains.map((d) => d.toLowerCase());
      const wantInside = c.inside === true;
      const inside = (address: string) => {
        const host = address.slice(address.lastIndexOf("@") + 1).toLowerCase();
        return domains.some((d) => host === d || host.endsWith(`.${d}`));
      };
      const { subject } = c;
      const key = subjectKey(subject, false);
      return (a) => {
        const candidates = subject.stems.length > 0 ? findSubject(a, subject, false, key) : a.fields;
        const addresses: string[] = [];
        for (const f of candidates.length > 0 ? candidates : a.fields) {
          const texts = typeof f.value === "string" ? [f.value] : Array.isArray(f.value) ? f.value.filter((v): v is string => typeof v === "string") : [];
          for (const text of texts) for (const m of text.matchAll(/[^\s<>,;"']+@[a-z0-9.-]+\.[a-z]{2,}/gi)) addresses.push(m[0]);
        }
        if (addresses.length === 0) {
          a.unknowns.add("recipient");
          return UNKNOWN;
        }
        return addresses.some((x) => inside(x) === wantInside) ? TRUE : FALSE;
      };
    }
    case "weekday": {
      const days = new Set(c.days);
      const tz = c.tz || "UTC";
      const when = timeSource(c.subject);
      return (a) => {
        const at = when(a);
        if (!at) return UNKNOWN;
        return days.has(at(tz).day) ? TRUE : FALSE;
      };
    }
    case "time": {
      const { from, to } = c;
      const tz = c.tz || "UTC";
      const when = timeSource(c.subject);
      return (a) => {
        const at = when(a);
        if (!at) return UNKNOWN;
        const m = at(tz).minutes;
        const within = from <= to ? m >= from && m < to : m >= from || m < to;
        return within ? TRUE : FALSE;
      };
    }
    case "rate": {
      const { op, count, window_seconds } = c;
      const counts = selector.any ? () => true : (tool: string) => matchesTerms(selector.terms)({ stems: stemSet(tool), valueStems: new Set(), fields: [] } as unknown as PreparedAction);
      return (a) => {
        const history = a.input.history;
        if (!history) {
          a.unknowns.add("recent actions");
          return UNKNOWN;
        }
        const since = a.input.now.getTime() - window_seconds * 1000;
        let n = 1; // this action
        for (const h of history) if (h.at.getTime() > since && h.at.getTime() <= a.input.now.getTime() && counts(h.tool)) n++;
        return (op === "gt" ? n > count : n >= count) ? TRUE : FALSE;
      };
    }
    case "action": {
      const match = matchesTerms(c.terms);
      return (a) => (match(a) ? TRUE : FALSE);
    }
  }
}

/** One clause of one policy version, ready to evaluate. */
export interface RuleRef {
  policyId: string;
  policyName: string;
  version: number;
  priority: number;
  /** Zero-based index of the clause within the policy version. */
  index: number;
  rule: CompiledRule;
}

interface LoadedRule {
  ref: RuleRef;
  order: number;
  /** The decision that last collected this rule as a candidate (dedupe without a Set per decision). */
  seen: number;
  applies: (a: PreparedAction) => boolean;
  condition: Check;
  restrictive: boolean;
}

const SEVERITY: Record<Effect, number> = { block: 3, require_approval: 2, allow: 1 };

export interface RuleOutcome {
  ref: RuleRef;
  /** TRUE or UNKNOWN (restrictive rules fire on UNKNOWN). */
  certain: boolean;
}

export interface Decision {
  decision: "approved" | "blocked" | "conditional";
  /** The rule that decided; absent when no rule applied. */
  fired?: RuleOutcome;
  /** Every rule that fired, in precedence order. */
  matched: RuleOutcome[];
  unknowns: string[];
}

/**
 * The active rules of a workspace. Rules are indexed by a stem of each of their terms, so a decision only
 * looks at rules that could concern the action (plus the "any action" ones).
 */
export class RuleSet {
  private readonly byStem = new Map<string, LoadedRule[]>();
  private readonly wildcards: LoadedRule[] = [];
  private decisions = 0;
  readonly size: number;
  readonly hasRates: boolean;
  readonly maxWindowSeconds: number;

  constructor(refs: RuleRef[]) {
    // Precedence: higher priority first, then the stricter effect, then the order given.
    const sorted = [...refs].sort((x, y) => y.priority - x.priority || SEVERITY[y.rule.effect] - SEVERITY[x.rule.effect]);
    let maxWindow = 0;
    sorted.forEach((ref, order) => {
      const rule = ref.rule;
      const selectorMatch = rule.actions.any ? () => true : matchesTerms(rule.actions.terms);
      const domain = rule.actions.domain?.toLowerCase() ?? null;
      const applies = (a: PreparedAction) => (domain === null || a.input.domain?.toLowerCase() === domain) && selectorMatch(a);
      const when = rule.when ? compileCondition(rule.when, rule.actions) : () => TRUE as Truth;
      const unless = rule.unless ? compileCondition(rule.unless, rule.actions) : () => FALSE as Truth;
      const condition: Check = (a) => {
        const w = when(a);
        if (w === FALSE) return FALSE;
        const u = (2 - unless(a)) as Truth;
        return w < u ? w : u;
      };
      const loaded: LoadedRule = { ref, order, seen: 0, applies, condition, restrictive: rule.effect !== "allow" };
      if (rule.actions.any) this.wildcards.push(loaded);
      else for (const stemKey of new Set(rule.actions.terms.map((t) => t.stems[0] ?? ""))) {
        const list = this.byStem.get(stemKey) ?? [];
        list.push(loaded);
        this.byStem.set(stemKey, list);
      }
      maxWindow = Math.max(maxWindow, windowOf(rule.when), windowOf(rule.unless));
    });
    this.size = refs.length;
    this.hasRates = maxWindow > 0;
    this.maxWindowSeconds = maxWindow;
  }

  decide(action: PreparedAction): Decision {
    const stamp = ++this.decisions;
    const candidates: LoadedRule[] = [...this.wildcards];
    for (const s of action.stems) {
      const list = this.byStem.get(s);
      if (!list) continue;
      for (const r of list) {
        if (r.seen === stamp) continue;
        r.seen = stamp;
        candidates.push(r);
      }
    }
    if (candidates.length > 1) candidates.sort((x, y) => x.order - y.order);
    const matched: RuleOutcome[] = [];
    for (const r of candidates) {
      if (!r.applies(action)) continue;
      const v = r.condition(action);
      if (v === TRUE || (v === UNKNOWN && r.restrictive)) matched.push({ ref: r.ref, certain: v === TRUE });
    }
    const unknowns = [...action.unknowns];
    const fired = matched[0];
    if (!fired) return { decision: "approved", matched, unknowns };
    const effect = fired.ref.rule.effect;
    return { decision: effect === "block" ? "blocked" : effect === "require_approval" ? "conditional" : "approved", fired, matched, unknowns };
  }
}

function windowOf(c: Condition | null): number {
  if (!c) return 0;
  switch (c.kind) {
    case "and":
    case "or":
      return Math.max(0, ...c.of.map(windowOf));
    case "not":
      return windowOf(c.of);
    case "rate":
      return c.window_seconds;
    default:
      return 0;
  }
}

export type { Quantity };
