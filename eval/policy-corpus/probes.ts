// Probes computed from a meaning, and the decision the meaning gives each one. The decision is worked out
// here from the meaning alone (an oracle), never written by hand: boundary probes at the threshold and on
// either side (strictness from the comparison), far probes, another tool of the same family (approved),
// unit and currency variants, exceptions, domains, days and times in the rule's zone, rates (the same call
// sent limit+1 times), and, for a few rules, a call without the argument the rule needs (fails closed).
import type { Decision, Probe } from "../policy-probes.ts";
import { convert, exactConversion, hashOf, type Condition, type Meaning } from "./meanings.ts";

export type ProbeKind =
  | "boundary_at"
  | "boundary_above"
  | "boundary_below"
  | "far_above"
  | "far_below"
  | "inside"
  | "outside"
  | "other_tool"
  | "missing_arg"
  | "exception"
  | "domain_in"
  | "domain_out"
  | "rate"
  | "bare";

export interface CorpusProbe extends Probe {
  kind: ProbeKind;
  /** The condition kind the probe is about ("action" for other-tool and bare probes). */
  about: string;
}

type Ctx = Record<string, unknown>;

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** true / false, or undefined when the context does not carry the argument the condition reads. */
function holds(c: Condition, ctx: Ctx): boolean | undefined {
  const num = (f: string) => (typeof ctx[f] === "number" ? (ctx[f] as number) : undefined);
  const cmp = (x: number, op: string, v: number) => (op === ">" ? x > v : op === ">=" ? x >= v : op === "<" ? x < v : x <= v);
  switch (c.kind) {
    case "money": {
      const x = num(c.field);
      return x === undefined ? undefined : cmp(x, c.cmp, c.value);
    }
    case "money_between": {
      const x = num(c.field);
      return x === undefined ? undefined : x >= c.low && x <= c.high;
    }
    case "count":
    case "percent": {
      const x = num(c.field);
      return x === undefined ? undefined : cmp(x, c.cmp, c.value);
    }
    case "quantity": {
      const x = num(c.field);
      return x === undefined ? undefined : cmp(round(convert(c.dimension, x, c.argUnit, c.unit)), c.cmp, c.value);
    }
    case "enum":
      return ctx[c.field] === undefined ? undefined : ctx[c.field] === c.value;
    case "not_in":
      return ctx[c.field] === undefined ? undefined : !c.values.includes(String(ctx[c.field]));
    case "flag":
      return ctx[c.field] === undefined ? undefined : ctx[c.field] === true;
    case "email_domain": {
      const to = ctx[c.field];
      if (typeof to !== "string") return undefined;
      const domain = to.split("@")[1]?.toLowerCase();
      return c.outside ? domain !== c.domain : domain === c.domain;
    }
    case "weekday": {
      if (typeof ctx.now !== "string") return undefined;
      return c.days.includes(new Date(ctx.now).getUTCDay());
    }
    case "window": {
      if (typeof ctx.now !== "string") return undefined;
      const d = new Date(ctx.now);
      const local = (((d.getUTCHours() + d.getUTCMinutes() / 60 + c.zone.offset) % 24) + 24) % 24;
      const inside = c.start < c.end ? local >= c.start && local < c.end : local >= c.start || local < c.end;
      return c.outside ? !inside : inside;
    }
    case "rate":
      // One call is within any limit; rate probes are decided in probesFor.
      return false;
  }
}

const effectDecision = (m: Meaning): Decision => (m.effect === "block" ? "blocked" : "conditional");

/** The decision the meaning gives one call. */
export function decideMeaning(m: Meaning, action: string, domain: string | undefined, ctx: Ctx): Decision {
  const covered = m.anyAction ? m.anyAction.tools.includes(action) : m.actions.some((a) => a.tool === action);
  if (!covered) return "approved";
  if (m.domain !== undefined && domain !== m.domain) return "approved";
  if (m.exception && holds(m.exception, ctx) === true) return "approved";
  const results = m.conditions.filter((c) => c.kind !== "rate").map((c) => holds(c, ctx));
  if (m.mode === "when") return results.every((x) => x !== false) ? effectDecision(m) : "approved";
  // "only allow X when C": X outside C is governed; a missing argument is not C (fail closed).
  return results.every((x) => x === true) ? "approved" : effectDecision(m);
}

/** A context in which the condition holds (yes) or not (no), besides the numeric boundary probes. */
function sample(c: Condition, yes: boolean): Ctx {
  switch (c.kind) {
    case "money":
      return { amount: yes === (c.cmp[0] === ">") ? c.value * 4 : Math.round(c.value / 4), currency: c.currency };
    case "money_between":
      return { amount: yes ? (c.low + c.high) / 2 : c.high * 2, currency: c.currency };
    case "count":
    case "percent":
      return { [c.field]: yes === (c.cmp[0] === ">") ? c.value * 3 : Math.max(0, Math.floor(c.value / 3)) };
    case "quantity": {
      const v = c.dimension === "temperature" ? (yes === (c.cmp[0] === ">") ? c.value + 20 : c.value - 20) : yes === (c.cmp[0] === ">") ? c.value * 3 : c.value / 3;
      return { [c.field]: round(convert(c.dimension, v, c.unit, c.argUnit)) };
    }
    case "enum":
      return { [c.field]: yes ? c.value : c.others[0] };
    case "not_in":
      return { [c.field]: yes ? c.other : c.values[0] };
    case "flag":
      return { [c.field]: yes };
    case "email_domain":
      return { to: yes === c.outside ? "someone@example.org" : `someone@${c.domain}`, subject: "hello" };
    case "weekday": {
      const day = yes ? c.days[0]! : [2, 3, 4].find((d) => !c.days.includes(d))!;
      return { now: `2026-11-${String(22 + day).padStart(2, "0")}T12:00:00Z` };
    }
    case "window":
      return { now: windowTime(c, yes === !c.outside) };
    case "rate":
      return {};
  }
}

/** A Tuesday instant whose local time in the window's zone is inside (or outside) the window, half an hour in. */
function windowTime(c: Extract<Condition, { kind: "window" }>, inside: boolean): string {
  const length = (c.end - c.start + 24) % 24;
  const localHour = inside ? (c.start + Math.floor(length / 2)) % 24 : (c.end + Math.floor((24 - length) / 2)) % 24;
  const ms = Date.UTC(2026, 10, 24, localHour, 30) - c.zone.offset * 3_600_000;
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

/** Threshold probes: at the value and one unit on either side, in the argument's own unit. */
function boundary(c: Condition): { kind: ProbeKind; ctx: Ctx }[] {
  if (c.kind === "money") {
    return [
      { kind: "boundary_at", ctx: { amount: c.value, currency: c.currency } },
      { kind: "boundary_above", ctx: { amount: c.value + 1, currency: c.currency } },
      { kind: "boundary_below", ctx: { amount: c.value - 1, currency: c.currency } },
    ];
  }
  if (c.kind === "count" || c.kind === "percent") {
    return [
      { kind: "boundary_at", ctx: { [c.field]: c.value } },
      { kind: "boundary_above", ctx: { [c.field]: c.value + 1 } },
      { kind: "boundary_below", ctx: { [c.field]: c.value - 1 } },
    ];
  }
  if (c.kind === "quantity" && exactConversion(c.dimension, c.unit, c.argUnit)) {
    const at = (v: number) => ({ [c.field]: round(convert(c.dimension, v, c.unit, c.argUnit)) });
    return [
      { kind: "boundary_at", ctx: at(c.value) },
      { kind: "boundary_above", ctx: at(c.value + 1) },
      { kind: "boundary_below", ctx: at(c.value - 1) },
    ];
  }
  return [];
}

const merge = (...parts: Ctx[]) => Object.assign({}, ...parts) as Ctx;

/** Every probe of a meaning, with the expected decision from decideMeaning. */
export function probesFor(m: Meaning): CorpusProbe[] {
  const tools = m.anyAction ? m.anyAction.tools : m.actions.map((a) => a.tool);
  const domain = m.domain;
  const out: CorpusProbe[] = [];
  const exceptionNo: Ctx = m.exception ? { [m.exception.field]: m.exception.kind === "flag" ? false : m.exception.others[0] } : {};
  const add = (kind: ProbeKind, about: string, action: string, ctx: Ctx, probeDomain = domain) => {
    out.push({ action, ...(probeDomain !== undefined ? { domain: probeDomain } : {}), context: ctx, expect: decideMeaning(m, action, probeDomain, ctx), kind, about });
  };
  const conds = m.conditions.filter((c) => c.kind !== "rate");
  const allYes = merge(...conds.map((c) => sample(c, true)), exceptionNo);

  // The other tool of the family, with arguments that would trigger the rule.
  if (!m.anyAction) add("other_tool", "action", m.actions[0]!.other, allYes);

  const rate = m.conditions.find((c) => c.kind === "rate");
  if (rate && rate.kind === "rate") {
    const expectLast = decideMeaning(m, tools[0]!, domain, {});
    out.push({ action: tools[0]!, context: { note: "rate probe" }, repeat: rate.limit + 1, expect: "approved", expect_last: expectLast, kind: "rate", about: "rate" });
    return out;
  }
  if (conds.length === 0) {
    for (const tool of tools) add("bare", "action", tool, {});
    return out;
  }

  conds.forEach((c, i) => {
    // The other conditions hold, so this one decides.
    const others = merge(...conds.filter((_, j) => j !== i).map((o) => sample(o, true)), exceptionNo);
    for (const b of boundary(c)) add(b.kind, c.kind, tools[0]!, merge(others, b.ctx));
    add(c.kind === "window" || c.kind === "weekday" || c.kind === "enum" || c.kind === "not_in" || c.kind === "flag" || c.kind === "email_domain" || c.kind === "money_between" ? "inside" : c.cmp[0] === ">" ? "far_above" : "far_below", c.kind, tools[0]!, merge(others, sample(c, true)));
    add(c.kind === "window" || c.kind === "weekday" || c.kind === "enum" || c.kind === "not_in" || c.kind === "flag" || c.kind === "email_domain" || c.kind === "money_between" ? "outside" : c.cmp[0] === ">" ? "far_below" : "far_above", c.kind, tools[0]!, merge(others, sample(c, false)));
  });
  // Every covered tool is governed (the second action of an "or", or a second tool for a rule without one).
  for (const tool of tools.slice(1)) add("inside", "action", tool, allYes);
  if (m.exception) add("exception", m.exception.kind, tools[0]!, merge(allYes, { [m.exception.field]: m.exception.kind === "flag" ? true : m.exception.value }));
  if (domain !== undefined) {
    add("domain_in", "domain", tools[0]!, allYes, domain);
    add("domain_out", "domain", tools[0]!, allYes, "support");
  }
  // A few restrictive rules with their one argument missing: the rule cannot tell, so it applies.
  if (conds.length === 1 && !m.anyAction && ["money", "count", "quantity", "enum"].includes(conds[0]!.kind) && hashOf(`missing:${m.id}`) % 5 === 0) {
    add("missing_arg", conds[0]!.kind, tools[0]!, merge(exceptionNo, {}));
  }
  return out;
}
