// Bindings are what the author is shown; evaluation is what happens. These tests generate rules over
// quantities, money and percentages in several units against parameters in other units, and check both:
// the binding names the parameter and the converted value, and evaluating a call just above and just below
// that converted value decides on the side the binding says. Expected factors are written here from the
// units' definitions, apart from the parser and the units library.
import { describe, expect, it } from "vitest";
import { bindRule, bindingText } from "./bind.ts";
import { parseRule } from "./parse.ts";
import { RuleSet, prepareAction } from "./evaluate.ts";
import { parameterPaths, type GovernableTool } from "./action.ts";
import type { CompiledRule } from "./compiled.ts";

const compile = (sentence: string): CompiledRule => {
  const parsed = parseRule(sentence);
  if (!parsed.ok) throw new Error(`${sentence}: ${parsed.error.message}`);
  return parsed.rule;
};

const tool = (name: string, properties: Record<string, Record<string, unknown>>): GovernableTool => ({ name, description: `${name.replace(/_/g, " ")} tool`, parameters: { type: "object", properties } });

function decide(rule: CompiledRule, t: GovernableTool, args: Record<string, unknown>) {
  const set = new RuleSet([{ policyId: "p", policyName: "p", version: 1, priority: 0, index: 0, rule }]);
  return set.decide(prepareAction({ tool: t.name, description: t.description, args, params: parameterPaths(t.parameters), now: new Date("2026-11-24T12:00:00Z") })).decision;
}

// A dimension, the rule's unit as written and the parameter's unit suffix, and how many parameter units one rule unit is.
const QUANTITIES: { noun: string; tool: string; written: string; suffix: string; factor: number }[] = [
  { noun: "loads", tool: "lift_load", written: "kg", suffix: "g", factor: 1000 },
  { noun: "loads", tool: "lift_load", written: "kilograms", suffix: "lb", factor: 2.20462 },
  { noun: "loads", tool: "lift_load", written: "tonnes", suffix: "kg", factor: 1000 },
  { noun: "trips", tool: "book_trip", written: "km", suffix: "m", factor: 1000 },
  { noun: "trips", tool: "book_trip", written: "miles", suffix: "km", factor: 1.609344 },
  { noun: "jobs", tool: "schedule_job", written: "hours", suffix: "minutes", factor: 60 },
  { noun: "uploads", tool: "create_upload", written: "GB", suffix: "mb", factor: 1000 },
];
const FIELD_NAMES: Record<string, string> = { loads: "weight", trips: "distance", jobs: "duration", uploads: "size" };

describe("bindings: quantities in the parameter's unit", () => {
  for (const q of QUANTITIES) {
    for (const limit of [3, 40]) {
      const sentence = `Block ${q.noun} over ${limit} ${q.written}`;
      it(`${sentence} against ${FIELD_NAMES[q.noun]}_${q.suffix}`, () => {
        const param = `${FIELD_NAMES[q.noun]}_${q.suffix}`;
        const t = tool(q.tool, { id: { type: "string" }, [param]: { type: "number" } });
        const rule = compile(sentence);
        const [binding] = bindRule(rule, t);
        expect(binding).toMatchObject({ tool: q.tool, parameters: [param], applies: true, ambiguous: false });
        const converted = Number(/= ([\d.]+)/.exec(binding!.note ?? "")?.[1]);
        expect(converted).toBeCloseTo(limit * q.factor, 1);
        expect(bindingText(binding!)).toContain(`${q.tool}.${param}`);
        expect(decide(rule, t, { id: "x", [param]: limit * q.factor * 1.01 })).toBe("blocked");
        expect(decide(rule, t, { id: "x", [param]: limit * q.factor * 0.99 })).toBe("approved");
      });
    }
  }
});

describe("bindings: money in minor units and percentages as fractions", () => {
  for (const [written, value] of [["$250", 250], ["€1,200", 1200], ["£75", 75]] as const) {
    it(`Require approval for payouts over ${written} against amount_cents / amount_pence`, () => {
      const param = written.startsWith("£") ? "amount_pence" : "amount_cents";
      const t = tool("create_payout", { vendor_id: { type: "string" }, [param]: { type: "integer" } });
      const rule = compile(`Require approval for payouts over ${written}`);
      const [binding] = bindRule(rule, t);
      expect(binding!.parameters).toEqual([param]);
      expect(binding!.note).toContain(`= ${value * 100} ${param.split("_")[1]}`);
      expect(decide(rule, t, { vendor_id: "v", [param]: value * 100 + 1 })).toBe("conditional");
      expect(decide(rule, t, { vendor_id: "v", [param]: value * 100 - 1 })).toBe("approved");
    });
  }
  for (const pct of [5, 15, 60]) {
    it(`a ${pct}% threshold against a 0–1 parameter and a percent parameter`, () => {
      const fraction = tool("dispatch_drone", { drone_id: { type: "string" }, battery: { type: "number", minimum: 0, maximum: 1 } });
      const percent = tool("dispatch_drone", { drone_id: { type: "string" }, battery_percent: { type: "number", minimum: 0, maximum: 100 } });
      const rule = compile(`Block drone dispatches when the battery is below ${pct}%`);
      const [onFraction] = bindRule(rule, fraction);
      expect(onFraction!.note).toBe(`(0–1); ${pct}% = ${pct / 100}`);
      expect(bindingText(onFraction!)).toBe(`the battery is less than ${pct}% → dispatch_drone.battery (0–1); ${pct}% = ${pct / 100}`);
      expect(decide(rule, fraction, { drone_id: "d", battery: pct / 100 - 0.01 })).toBe("blocked");
      expect(decide(rule, fraction, { drone_id: "d", battery: pct / 100 + 0.01 })).toBe("approved");
      const [onPercent] = bindRule(rule, percent);
      expect(onPercent!.note).toBe("(0–100)");
      expect(decide(rule, percent, { drone_id: "d", battery_percent: pct - 1 })).toBe("blocked");
      expect(decide(rule, percent, { drone_id: "d", battery_percent: pct + 1 })).toBe("approved");
    });
  }
});

describe("bindings: what does not apply, and readings with several arguments", () => {
  it("a condition the tool cannot carry does not apply to it, and says so", () => {
    const rule = compile("Block drone dispatches when the battery is below 20%");
    const [binding] = bindRule(rule, tool("dispatch_drone", { drone_id: { type: "string" }, route: { type: "string" } }));
    expect(binding).toMatchObject({ applies: false, parameters: [] });
    expect(bindingText(binding!)).toContain("not carried by dispatch_drone");
  });

  it("an enum value binds to the parameter that allows it; an environment to the environment argument", () => {
    const t = tool("deploy_service", { service: { type: "string" }, target: { type: "string", enum: ["staging", "production"] }, region: { type: "string", enum: ["eu", "us"] } });
    expect(bindRule(compile("Require approval for deployments to production"), t)[0]!.parameters).toEqual(["target"]);
    expect(bindRule(compile("Block deployments in the eu region"), t)[0]!.parameters).toEqual(["region"]);
  });

  it("two arguments a subject names equally are both shown, and read the stricter way in either position", () => {
    const t = tool("create_refund", { order_id: { type: "string" }, refund_amount: { type: "number" }, fee_amount: { type: "number" } });
    const restrict = compile("Block refunds when the amount is over $100");
    const [binding] = bindRule(restrict, t);
    expect(binding).toMatchObject({ parameters: ["refund_amount", "fee_amount"], ambiguous: true, exception: false });
    // Fires when either is over.
    expect(decide(restrict, t, { order_id: "o", refund_amount: 50, fee_amount: 150 })).toBe("blocked");
    expect(decide(restrict, t, { order_id: "o", refund_amount: 50, fee_amount: 50 })).toBe("approved");
    const exempt = compile("Block refunds unless the amount is under $100");
    const [exception] = bindRule(exempt, t);
    expect(exception).toMatchObject({ parameters: ["refund_amount", "fee_amount"], ambiguous: true, exception: true });
    // Exempts only when both are under.
    expect(decide(exempt, t, { order_id: "o", refund_amount: 50, fee_amount: 150 })).toBe("blocked");
    expect(decide(exempt, t, { order_id: "o", refund_amount: 150, fee_amount: 50 })).toBe("blocked");
    expect(decide(exempt, t, { order_id: "o", refund_amount: 50, fee_amount: 50 })).toBe("approved");
  });

  it("an exception on one of two text arguments exempts only when both hold", () => {
    const t = tool("send_email", { to_address: { type: "string" }, cc_address: { type: "string" }, body: { type: "string" } });
    const rule = compile("Block sending emails unless the address ends with @example.org");
    const [binding] = bindRule(rule, t);
    expect(binding!.exception).toBe(true);
    expect(decide(rule, t, { to_address: "a@example.org", cc_address: "b@example.org", body: "hi" })).toBe("approved");
    expect(decide(rule, t, { to_address: "a@example.org", cc_address: "b@elsewhere.net", body: "hi" })).not.toBe("approved");
  });

  it("days and hours say which clock they read", () => {
    const t = tool("schedule_outage", { site: { type: "string" }, start_time: { type: "string", format: "date-time" } });
    // A thing that happens on a day is read at its planned start, as an hour window is; any action at the time it runs.
    expect(bindRule(compile("Block outages on weekends"), t)[0]).toMatchObject({ parameters: ["start_time"], note: "its planned start, read in UTC (when it runs, if not given)" });
    expect(bindRule(compile("Block any action on weekends"), t)[0]!.note).toBe("the time the action runs (UTC)");
    expect(bindRule(compile("Block outages on weekends"), tool("restart_site", { site: { type: "string" } }))[0]!.note).toBe("the time the action runs (UTC)");
    expect(bindRule(compile("Block outages scheduled for a Sunday"), t)[0]).toMatchObject({ parameters: ["start_time"], note: "read in UTC" });
  });
});
