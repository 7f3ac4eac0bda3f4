// Plain words for compiled rules: the restatement shown to a policy's author before confirming, and the
// reason given with every decision. Generated from the compiled form, so it says what the rule will do,
// not what the author meant.
import { LOCAL_ZONE, type CompiledRule, type Condition, type Subject, type Value } from "./compiled.ts";

const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const DATE_OPS: Record<string, string> = { gt: "later than", gte: "no earlier than", lt: "earlier than", lte: "no later than", eq: "on", neq: "not on" };
const OPS: Record<string, string> = { gt: "more than", gte: "at least", lt: "less than", lte: "at most", eq: "exactly", neq: "other than" };

export const zoneText = (tz: string) => (tz === LOCAL_ZONE ? "local time" : tz || "UTC");
const clock = (m: number) => `${String(Math.floor(m / 60) % 24).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

function quantity(q: Value): string {
  if (q.currency) return q.anyCurrency ? (q.value < 1 ? `${(Math.round(q.value * 10000) / 100).toLocaleString("en-US")} cents` : `${q.value.toLocaleString("en-US")} in the action's currency`) : `${q.value.toLocaleString("en-US")} ${q.currency}`;
  if (q.percent) return `${q.value}%`;
  // js-quantities writes compound units with "*" ("kW*h"): written as people do, so the parser reads it back.
  if (q.unit) return `${q.value.toLocaleString("en-US")} ${q.unit.replace(/^temp/, "°").replace(/\*/g, "")}`;
  return q.value.toLocaleString("en-US");
}

function subjectText(s: Subject): string {
  // A named subject unquoted ("the refund amount"): a quoted word reads back as a value, not an argument.
  const base = s.words.length === 0 ? (s.implied === "percent" ? "the percentage" : s.implied === "quantity" ? "the quantity" : s.implied === "count" ? "the count" : s.implied === "time" ? "the action's own date" : "the amount") : `the ${s.text.replace(/^the\s+/i, "")}`;
  if (s.count) return `the number of ${s.text || "items"}`;
  if (s.magnitude) return s.direction ? `the size of the ${s.direction === "up" ? "increase" : "decrease"} of ${base}` : `the size of ${base}`;
  return base;
}

function days(list: number[]): string {
  const key = list.join(",");
  if (key === "1,2,3,4,5") return "it is a weekday (Monday to Friday)";
  if (key === "0,6") return "it is a weekend day";
  return `it is ${list.map((d) => DAY_NAMES[d]).join(" or ")}`;
}

/** Weekdays within one daily window in one zone: business hours as the sentence defined them. */
function businessHours(c: Condition): string | undefined {
  if (c.kind !== "and" || c.of.length !== 2) return undefined;
  const [d, t] = c.of;
  if (d?.kind !== "weekday" || t?.kind !== "time" || d.subject || t.subject || d.days.join(",") !== "1,2,3,4,5" || (d.tz || "UTC") !== (t.tz || "UTC")) return undefined;
  return `business hours (${clock(t.from)}-${clock(t.to)} ${zoneText(t.tz)})`;
}

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const MONTH_LENGTHS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
// A day past the month's end (an end read from "the end of April") is said as such.
const monthDay = (md: number) => {
  const month = Math.floor(md / 100);
  return md % 100 >= MONTH_LENGTHS[month - 1]! ? `the last day of ${MONTH_NAMES[month - 1]}` : `${MONTH_NAMES[month - 1]} ${md % 100}`;
};

/** A window across days of the week (parse.ts readWeekWindow), said as it is read back. */
function weekWindow(c: Condition): string | undefined {
  if (c.kind !== "or" || c.of.length < 2) return undefined;
  const first = c.of[0]!;
  const last = c.of.at(-1)!;
  const dayAt = (x: Condition, from?: number, to?: number) =>
    x.kind === "and" && x.of.length === 2 && x.of[0]!.kind === "weekday" && x.of[0]!.days.length === 1 && !x.of[0]!.subject && x.of[1]!.kind === "time" && !x.of[1]!.subject && (from === undefined || x.of[1]!.from === from) && (to === undefined || x.of[1]!.to === to)
      ? { day: x.of[0]!.days[0]!, time: x.of[1]!, tz: zoneText(x.of[1]!.tz) }
      : undefined;
  const a = dayAt(first, undefined, 24 * 60);
  const b = dayAt(last, 0);
  if (!a || !b || a.tz !== b.tz || (c.of.length === 3 && c.of[1]!.kind !== "weekday") || c.of.length > 3) return undefined;
  return `it is from ${DAY_NAMES[a.day]} ${clock(a.time.from)} until ${DAY_NAMES[b.day]} ${clock(b.time.to)} (${a.tz})`;
}

export function describeCondition(c: Condition): string {
  // Said as business hours, which reads back as one condition; "not (A and B)" would not.
  const hours = businessHours(c) ?? (c.kind === "not" ? businessHours(c.of) : undefined);
  if (hours) return `it is ${c.kind === "not" ? "outside" : "during"} ${hours}`;
  const window = weekWindow(c);
  if (window) return window;
  switch (c.kind) {
    case "and":
      return c.of.map(describeCondition).join(" and ");
    case "or": {
      // Days of one clock said one by one ("on a Sunday or a Saturday") are one condition on those days.
      const first = c.of[0];
      if (first?.kind === "weekday" && c.of.every((d) => d.kind === "weekday" && (d.tz || "UTC") === (first.tz || "UTC") && JSON.stringify(d.subject ?? null) === JSON.stringify(first.subject ?? null))) {
        const all = [...new Set(c.of.flatMap((d) => (d.kind === "weekday" ? d.days : [])))].sort((x, y) => x - y);
        return describeCondition({ ...first, days: all });
      }
      return `(${c.of.map(describeCondition).join(" or ")})`;
    }
    case "not":
      return `not (${describeCondition(c.of)})`;
    case "compare":
      if (c.op === "between") return `${subjectText(c.subject)} is between ${quantity(c.value)} and ${quantity(c.high!)}`;
      return `${subjectText(c.subject)} is ${OPS[c.op]} ${quantity(c.value)}${c.since ? ` ${c.since.after ? "after" : "before"} the ${c.since.from.text}` : ""}`;
    case "compare_fields":
      if (c.subject.implied === "time" && c.factor === undefined) return `${subjectText(c.subject)} is ${DATE_OPS[c.op]} ${subjectText(c.other)}`;
      return `${subjectText(c.subject)} is ${OPS[c.op]} ${c.factor !== undefined ? `${Math.round(c.factor * 1e6) / 1e4}% of ` : ""}${subjectText(c.other)}`;
    case "equals":
      // A kind of party or thing the action is for ("to contractors"): read back as the same category.
      // Where the action goes or happens ("to the river"): read back the same way.
      if (c.setting && c.subject.words.length === 0 && c.values.length === 1 && !c.negate) return `it is ${c.setting} the ${c.values[0]}`;
      if (c.category && c.subject.words.length === 0 && !c.negate && c.values.every((v) => /^[a-z][a-z -]*$/.test(v))) return `it is for ${c.values.join(" or ")}`;
      return `${c.subject.words.length > 0 ? subjectText(c.subject) : "a value of the action"} is ${c.negate ? "not " : ""}${c.values.map((v) => `"${v}"`).join(" or ")}`;
    case "flag":
      return `"${c.subject.text}" is ${c.expect ? "true" : "false"}`;
    case "text":
      return `${c.subject.words.length > 0 ? subjectText(c.subject) : "the text"} ${c.negate ? "does not " : ""}${c.mode === "starts" ? "start" : c.mode === "ends" ? "end" : "contain"}${c.negate ? "" : "s"}${c.mode === "contains" ? "" : " with"} "${c.value}"`;
    case "differ":
      return `two "${c.head}" values of the action ${c.negate ? "are the same" : "differ"}`;
    case "dated":
      return `${c.subject.words.length > 0 ? subjectText(c.subject) : "its date"} is in the ${c.past ? "past" : "future"}`;
    case "outside_domain":
      return `${c.subject.words.length === 0 ? "a recipient" : subjectText(c.subject)} is ${c.inside ? "at" : "outside"} ${c.domains.join(c.inside ? " or " : " and ")}`;
    case "weekday":
      return c.subject ? `${subjectText(c.subject)} falls when ${days(c.days)} (${zoneText(c.tz)})` : `${days(c.days)} (${zoneText(c.tz)})`;
    case "dates":
      // The action's own date "falls"; the day it runs "is" (read back alike: see readDates).
      if (c.from === c.to) return c.subject ? `the date falls on ${monthDay(c.from)} (${zoneText(c.tz)})` : `the day is ${monthDay(c.from)} (${zoneText(c.tz)})`;
      return c.subject ? `the date falls from ${monthDay(c.from)} through ${monthDay(c.to)} (${zoneText(c.tz)})` : `the day is from ${monthDay(c.from)} through ${monthDay(c.to)} (${zoneText(c.tz)})`;
    case "time":
      if (c.subject?.orNow) return `its own time is ${describeCondition({ ...c, subject: undefined }).replace(/^the time is /, "")}`;
      if (c.subject) return `${subjectText(c.subject)} falls ${describeCondition({ ...c, subject: undefined }).replace(/^the time is /, "")}`;
      return c.from === 0 ? `the time is before ${clock(c.to)} (${zoneText(c.tz)})` : c.to === 24 * 60 ? (c.after ? `the time is after ${clock(c.from)} (${zoneText(c.tz)})` : `the time is ${clock(c.from)} or later (${zoneText(c.tz)})`) : `the time is between ${clock(c.from)} and ${clock(c.to)} (${zoneText(c.tz)})`;
    case "rate": {
      const window = c.window_seconds % 86_400 === 0 ? `${c.window_seconds / 86_400} day(s)` : c.window_seconds % 3600 === 0 ? `${c.window_seconds / 3600} hour(s)` : c.window_seconds % 60 === 0 ? `${c.window_seconds / 60} minute(s)` : `${c.window_seconds} second(s)`;
      return `this would be ${c.op === "gt" ? "more than" : "at least"} ${c.count} such actions within ${window}${c.per ? ` for the same ${c.per.text}` : ""}${c.where ? ` (counting those where ${describeCondition(c.where)})` : ""}`;
    }
    case "action":
      return `the action is ${c.terms.map((t) => `"${t.text}"`).join(" or ")}`;
  }
}

export function describeActions(rule: CompiledRule): string {
  const what = rule.actions.any ? "any action" : `actions matching ${rule.actions.terms.map((t) => `"${t.text}"`).join(" or ")}`;
  return rule.actions.domain ? `${what} in the ${rule.actions.domain} domain` : what;
}

/** The note a restatement ends with: an explanation for the reader, not a rule (the parser skips it). */
export const FAIL_CLOSED_NOTE = "When the action does not carry a value the rule needs, the rule applies (fail closed).";

const VERBS = { block: "Blocks", require_approval: "Requires human approval for", allow: "Allows" } as const;

/** "Blocks actions matching "refunds" when the amount is more than 500 USD. A missing value counts as a match." */
export function restate(rule: CompiledRule): string {
  let text = `${VERBS[rule.effect]} ${describeActions(rule)}`;
  if (rule.when) text += ` when ${describeCondition(rule.when)}`;
  if (rule.unless) text += `, unless ${describeCondition(rule.unless)}`;
  text += ".";
  if (rule.effect !== "allow" && (rule.when || rule.unless)) text += ` ${FAIL_CLOSED_NOTE}`;
  return text;
}
