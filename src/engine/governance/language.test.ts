// The policy language, sentence by sentence: each rule with actions it must block, escalate or allow; and
// properties over arbitrary text (the parser never throws, and a failed parse never approves anything).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RuleSet, prepareAction } from "./evaluate.ts";
import { restate } from "./explain.ts";
import { parseRule, splitClauses } from "./parse.ts";

type Expect = "blocked" | "conditional" | "approved";
type Case = [tool: string, args: Record<string, unknown>, expected: Expect, extra?: { domain?: string; now?: string; history?: { tool: string; at: string }[] }];

const WED_10 = "2026-11-18T10:00:00Z"; // Wednesday
const SAT_10 = "2026-11-21T10:00:00Z"; // Saturday

const TABLE: [string, Case[]][] = [
  // Effects and amounts
  ["Block refunds over $500", [["refund_payment", { amount: 900 }, "blocked"], ["refund_payment", { amount: 500 }, "approved"], ["create_payment", { amount: 900 }, "approved"]]],
  ["Deny refunds above $1,200", [["refund_payment", { amount: 1300 }, "blocked"], ["refund_payment", { amount: 1200 }, "approved"]]],
  ["Never allow refunds exceeding 1.2k USD", [["refund_order", { amount: 1201, currency: "USD" }, "blocked"], ["refund_order", { amount: 1199, currency: "USD" }, "approved"]]],
  ["Forbid payments of more than €2,000", [["create_payment", { amount: 2500, currency: "EUR" }, "blocked"], ["create_payment", { amount: 1500, currency: "EUR" }, "approved"]]],
  ["Prohibit transfers at least 10,000 GBP", [["send_transfer", { amount: 10000, currency: "GBP" }, "blocked"], ["send_transfer", { amount: 9999, currency: "GBP" }, "approved"]]],
  ["Require approval for payments above 1,000 EUR", [["create_payment", { amount: 1500, currency: "EUR" }, "conditional"], ["create_payment", { amount: 900, currency: "EUR" }, "approved"], ["create_payment", { amount: 1500, currency: "USD" }, "conditional"]]],
  ["Refunds over $1.2k require approval", [["refund_payment", { amount: 2000 }, "conditional"], ["refund_payment", { amount: 100 }, "approved"]]],
  ["Payments above 5000 need sign-off", [["create_payment", { amount: 6000 }, "conditional"], ["create_payment", { amount: 10 }, "approved"]]],
  ["Refunds under $50 are allowed", [["refund_payment", { amount: 20 }, "approved"]]],
  ["Escalate refunds between $100 and $1,000", [["refund_payment", { amount: 100 }, "conditional"], ["refund_payment", { amount: 1000 }, "conditional"], ["refund_payment", { amount: 1001 }, "approved"], ["refund_payment", { amount: 99 }, "approved"]]],
  ["Block refunds less than $1", [["refund_payment", { amount: 0.5 }, "blocked"], ["refund_payment", { amount: 5 }, "approved"]]],
  ["Block payouts below 10 dollars", [["create_payout", { amount: 5 }, "blocked"], ["create_payout", { amount: 15 }, "approved"]]],
  ["Block refunds at most $5", [["refund_payment", { amount: 5 }, "blocked"], ["refund_payment", { amount: 6 }, "approved"]]],
  ["Block refunds of $1,000 or more", [["refund_payment", { amount: 1000 }, "blocked"], ["refund_payment", { amount: 999 }, "approved"]]],
  ["Block refund_payment when amount > 500", [["refund_payment", { amount: 501 }, "blocked"], ["refund_payment", { amount: 499 }, "approved"]]],
  ["Block refunds when the amount is greater than or equal to 300", [["refund_payment", { amount: 300 }, "blocked"], ["refund_payment", { amount: 299 }, "approved"]]],
  ["If the amount is over $500, require approval for refunds", [["refund_payment", { amount: 600 }, "conditional"], ["refund_payment", { amount: 400 }, "approved"]]],
  ["Block refunds when refund amount exceeds 700", [["refund_payment", { refund_amount: 800 }, "blocked"], ["refund_payment", { refund_amount: 600 }, "approved"]]],
  ["Block orders when quantity is more than 100", [["create_order", { quantity: 150 }, "blocked"], ["create_order", { quantity: 50 }, "approved"]]],
  ["Block charges over $500", [["charge_card", { amount: "$900.00" }, "blocked"], ["charge_card", { amount: "$90" }, "approved"]]],
  // Missing values fail closed for restrictive rules, never for allow rules
  ["Block refunds over $500 ", [["refund_payment", {}, "blocked"], ["refund_payment", { note: "no amount" }, "blocked"]]],
  // Which actions: tools, words, stems, any, domains
  ["Block refunds", [["refund_payment", {}, "blocked"], ["issueRefund", {}, "blocked"], ["process-refunds", {}, "blocked"], ["create_payment", {}, "approved"]]],
  ["Block refund_payment", [["refund_payment", {}, "blocked"], ["refund_order", {}, "approved"]]],
  ["Block calls to delete_user", [["delete_user", {}, "blocked"], ["get_user", {}, "approved"]]],
  ["Never delete anything in production", [["delete_record", { environment: "production" }, "blocked"], ["delete_record", { environment: "staging" }, "approved"], ["delete_record", {}, "blocked"], ["drop_table", { env: "production" }, "blocked"], ["update_record", { environment: "production" }, "approved"]]],
  ["Block deletions in production or staging", [["delete_file", { stage: "staging" }, "blocked"], ["delete_file", { stage: "dev" }, "approved"]]],
  ["Block database deletes", [["delete_database", {}, "blocked"], ["delete_file", {}, "approved"]]],
  ["Escalate anything in the billing domain", [["get_balance", {}, "conditional", { domain: "billing" }], ["get_balance", {}, "approved", { domain: "support" }], ["get_balance", {}, "approved"]]],
  ["Block any action", [["anything_at_all", {}, "blocked"], ["get_status", {}, "blocked"]]],
  ["Block any action except get_status", [["restart_server", {}, "blocked"], ["get_status", {}, "approved"]]],
  ["Block everything in the hr domain", [["read_file", {}, "blocked", { domain: "hr" }], ["read_file", {}, "approved", { domain: "it" }]]],
  ["Block refunds and chargebacks", [["refund_payment", {}, "blocked"], ["create_chargeback", {}, "blocked"], ["create_invoice", {}, "approved"]]],
  ["Block refunds, payouts or transfers over $10,000", [["create_payout", { amount: 20000 }, "blocked"], ["refund_payment", { amount: 20000 }, "blocked"], ["send_transfer", { amount: 500 }, "approved"]]],
  ["Require approval for deploys", [["deploy_service", {}, "conditional"], ["release_build", {}, "conditional"], ["build_service", {}, "approved"]]],
  ["Require human approval to delete users", [["delete_user", {}, "conditional"], ["remove_user", {}, "conditional"], ["create_user", {}, "approved"]]],
  ["Escalate to a human any deletion", [["delete_user", {}, "conditional"], ["list_users", {}, "approved"]]],
  ["Deleting databases is forbidden", [["delete_database", {}, "blocked"], ["backup_database", {}, "approved"]]],
  ["Deployments are not allowed", [["deploy_app", {}, "blocked"]]],
  ["Sending emails must be approved", [["send_email", {}, "conditional"], ["read_email", {}, "approved"]]],
  ["Do not allow user deletion", [["delete_user", {}, "blocked"], ["delete_file", {}, "approved"]]],
  ["Disallow \"wire transfer\" actions", [["create_wire_transfer", {}, "blocked"], ["create_transfer", {}, "approved"]]],
  // Strings and enums
  ["Block refunds unless the customer tier is gold", [["refund_payment", { customer_tier: "gold" }, "approved"], ["refund_payment", { customer_tier: "silver" }, "blocked"], ["refund_payment", {}, "blocked"]]],
  ["Block refunds over $500 unless the customer is vip", [["refund_payment", { amount: 900, customer: "vip" }, "approved"], ["refund_payment", { amount: 900, customer: "regular" }, "blocked"]]],
  ["Block exports when region is not eu", [["export_data", { region: "us" }, "blocked"], ["export_data", { region: "eu" }, "approved"]]],
  ["Block exports when region is us or cn", [["export_data", { region: "cn" }, "blocked"], ["export_data", { region: "eu" }, "approved"]]],
  ["Block scaling when the cluster is prod", [["scale_service", { cluster: "prod" }, "blocked"], ["scale_service", { cluster: "dev" }, "approved"]]],
  ["Require approval for restarts in production", [["restart_service", { environment: "production" }, "conditional"], ["restart_service", { environment: "dev" }, "approved"]]],
  ["Block deploys to production", [["deploy_service", { target: "production" }, "blocked"], ["deploy_service", { target: "staging" }, "approved"]]],
  ["Block deploys except in staging", [["deploy_service", { environment: "staging" }, "approved"], ["deploy_service", { environment: "production" }, "blocked"]]],
  // E-mail recipients
  ["Block emails to recipients outside acme.com", [["send_email", { to: "bob@evil.com" }, "blocked"], ["send_email", { to: "bob@acme.com" }, "approved"], ["send_email", { to: "a@sales.acme.com" }, "approved"], ["send_email", { to: ["a@acme.com", "x@gmail.com"] }, "blocked"], ["send_email", { subject: "hi" }, "blocked"]]],
  ["Never send emails to anyone outside @acme.com or example.org", [["send_email", { recipients: "x@example.org" }, "approved"], ["send_email", { recipients: "x@example.net" }, "blocked"]]],
  ["Require approval for emails to gmail.com", [["send_email", { to: "x@gmail.com" }, "conditional"], ["send_email", { to: "x@acme.com" }, "approved"]]],
  ["Block invites when the attendee is outside acme.com", [["create_invite", { attendee: "x@other.io" }, "blocked"], ["create_invite", { attendee: "y@acme.com" }, "approved"]]],
  // Percentages and device telemetry
  ["Block device movement when battery is below 20%", [["move_device", { battery: 15 }, "blocked"], ["move_device", { battery_level: 50 }, "approved"], ["move_device", {}, "blocked"], ["read_sensor", { battery: 5 }, "approved"]]],
  ["Block discounts over 30%", [["apply_discount", { discount_percent: 40 }, "blocked"], ["apply_discount", { discount_percent: 10 }, "approved"]]],
  ["Block moves when temperature is above 80", [["move_arm", { temperature: 90 }, "blocked"], ["move_arm", { temperature: 20 }, "approved"]]],
  // Time, days and zones
  ["Only allow deployments on weekdays between 09:00 and 17:00", [["deploy_service", {}, "approved", { now: WED_10 }], ["deploy_service", {}, "blocked", { now: SAT_10 }], ["deploy_service", {}, "blocked", { now: "2026-11-18T18:00:00Z" }]]],
  ["Block deploys on weekends", [["deploy_service", {}, "blocked", { now: SAT_10 }], ["deploy_service", {}, "approved", { now: WED_10 }]]],
  ["Block deploys on fridays after 3pm", [["deploy_service", {}, "blocked", { now: "2026-11-20T16:00:00Z" }], ["deploy_service", {}, "approved", { now: "2026-11-20T14:00:00Z" }]]],
  ["Block deploys outside business hours Europe/Paris", [["deploy_service", {}, "approved", { now: "2026-11-18T08:30:00Z" }], ["deploy_service", {}, "blocked", { now: "2026-11-18T07:30:00Z" }]]],
  ["Require approval for payments between 22:00 and 06:00 UTC", [["create_payment", {}, "conditional", { now: "2026-11-18T23:00:00Z" }], ["create_payment", {}, "conditional", { now: "2026-11-18T05:59:00Z" }], ["create_payment", {}, "approved", { now: WED_10 }]]],
  ["Block payments before 8am", [["create_payment", {}, "blocked", { now: "2026-11-18T07:00:00Z" }], ["create_payment", {}, "approved", { now: WED_10 }]]],
  ["Block changes on saturday and sunday", [["update_config", {}, "blocked", { now: SAT_10 }], ["update_config", {}, "approved", { now: WED_10 }]]],
  ["Block deploys on monday through wednesday", [["deploy_service", {}, "blocked", { now: WED_10 }], ["deploy_service", {}, "approved", { now: SAT_10 }]]],
  // Rates
  ["Block more than 3 refunds per hour", [
    ["refund_payment", {}, "approved", { now: WED_10, history: [{ tool: "refund_payment", at: "2026-11-18T09:30:00Z" }, { tool: "refund_order", at: "2026-11-18T09:40:00Z" }] }],
    ["refund_payment", {}, "blocked", { now: WED_10, history: [1, 2, 3].map((m) => ({ tool: "refund_payment", at: `2026-11-18T09:5${m}:00Z` })) }],
    ["refund_payment", {}, "approved", { now: WED_10, history: [1, 2, 3].map((m) => ({ tool: "refund_payment", at: `2026-11-18T08:5${m}:00Z` })) }],
    ["refund_payment", {}, "approved", { now: WED_10, history: [1, 2, 3].map((m) => ({ tool: "send_email", at: `2026-11-18T09:5${m}:00Z` })) }],
  ]],
  ["Escalate emails when more than 10 per day", [["send_email", {}, "conditional", { now: WED_10, history: Array.from({ length: 10 }, () => ({ tool: "send_email", at: "2026-11-18T09:00:00Z" })) }], ["send_email", {}, "approved", { now: WED_10, history: [] }]]],
  // Combinations
  ["Block refunds over $500 in production and on weekends", [["refund_payment", { amount: 900, environment: "production" }, "blocked", { now: SAT_10 }], ["refund_payment", { amount: 900, environment: "production" }, "approved", { now: WED_10 }]]],
  ["Block refunds when amount is over 500 or the customer is new", [["refund_payment", { amount: 10, customer: "new" }, "blocked"], ["refund_payment", { amount: 900, customer: "old" }, "blocked"], ["refund_payment", { amount: 10, customer: "old" }, "approved"]]],
  ["Allow refunds", [["refund_payment", { amount: 1e9 }, "approved"]]],
  // Rules of the kinds the evaluation fixtures hold, in words of our own
  ["Deployments to production need a human to approve them.", [["create_deployment", { service: "api", environment: "production" }, "conditional"], ["create_deployment", { service: "api", environment: "staging" }, "approved"]]],
  ["Never let a service be scaled to 0 replicas in production.", [["scale_service", { environment: "production", replicas: 0 }, "blocked"], ["scale_service", { environment: "production", replicas: 2 }, "approved"], ["scale_service", { environment: "staging", replicas: 0 }, "approved"]]],
  ["Block maintenance windows longer than 4 hours", [["schedule_maintenance_window", { duration_minutes: 300 }, "blocked"], ["schedule_maintenance_window", { duration_minutes: 240 }, "approved"], ["schedule_maintenance_window", { duration_hours: 5 }, "blocked"]]],
  ["Block maintenance windows starting on a Sunday or a Saturday.", [["schedule_maintenance_window", { start_time: "2026-05-02T10:00:00Z" }, "blocked", { now: WED_10 }], ["schedule_maintenance_window", { start_time: "2026-05-04T10:00:00Z" }, "approved", { now: SAT_10 }], ["schedule_maintenance_window", {}, "blocked"]]],
  ["The shared-staging environment must never be deleted.", [["delete_environment", { environment_id: "shared-staging" }, "blocked"], ["delete_environment", { environment_id: "preview-42" }, "approved"], ["delete_record", { note: "shared-staging" }, "approved"]]],
  ["Customer records may not be deleted.", [["delete_customer", { customer_id: "c1" }, "blocked"], ["delete_ticket", { ticket_id: "1" }, "approved"]]],
  ["Emails to anyone at the globex.test domain need approval.", [["send_email", { to: "ann@globex.test" }, "conditional"], ["send_email", { to: "ann@example.org", cc: ["bo@sales.globex.test"] }, "conditional"], ["send_email", { to: "ann@example.org" }, "approved"]]],
  ["Block ticket closures whose resolution is spam.", [["close_ticket", { resolution: "spam" }, "blocked"], ["close_ticket", { resolution: "solved" }, "approved"]]],
  ["Send every action in the treasury domain to a person for approval.", [["get_charge", {}, "conditional", { domain: "treasury" }], ["get_charge", {}, "approved"]]],
  ["Order cancellations with reason fraud_suspected require approval.", [["cancel_order", { reason: "fraud_suspected" }, "conditional"], ["cancel_order", { reason: "out_of_stock" }, "approved"]]],
  ["No discount code over 50% off may be created.", [["create_discount_code", { percent_off: 60 }, "blocked"], ["create_discount_code", { percent_off: 50 }, "approved"]]],
];

function decide(sentence: string, [tool, args, , extra]: Case) {
  const parsed = parseRule(sentence);
  if (!parsed.ok) throw new Error(`"${sentence}" did not parse: ${parsed.error.message}`);
  const set = new RuleSet([{ policyId: "pol_t", policyName: "t", version: 1, priority: 0, index: 0, rule: parsed.rule }]);
  return set.decide(
    prepareAction({
      tool,
      args,
      domain: extra?.domain,
      now: new Date(extra?.now ?? WED_10),
      history: (extra?.history ?? []).map((h) => ({ tool: h.tool, at: new Date(h.at) })),
    }),
  ).decision;
}

describe("the policy language: a table of sentences", () => {
  it("holds at least 60 sentences", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
  });
  for (const [sentence, cases] of TABLE) {
    it(sentence, () => {
      const parsed = parseRule(sentence);
      expect(parsed.ok, parsed.ok ? "" : parsed.error.message).toBe(true);
      if (parsed.ok) expect(restate(parsed.rule).length).toBeGreaterThan(10);
      for (const c of cases) expect(decide(sentence, c), `${c[0]} ${JSON.stringify(c[1])} ${JSON.stringify(c[3] ?? {})}`).toBe(c[2]);
    });
  }
});

describe("the policy language: refusals name what they could not place", () => {
  const refusals: [string, string[]][] = [
    ["refunds are sometimes nice", ["sometimes"]],
    ["Block refunds when", []],
    ["Block", []],
    ["Please be careful", ["please"]],
    ["Block refunds over $500 unless", []],
    ["Only allow deployments", []],
  ];
  for (const [sentence, unplaced] of refusals) {
    it(sentence, () => {
      const parsed = parseRule(sentence);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        for (const word of unplaced) expect(parsed.error.unplaced.join(" ")).toContain(word);
        expect(parsed.error.suggestion).toContain("Block refunds over $500");
      }
    });
  }
});

const VOCABULARY = ["block", "never", "allow", "require", "approval", "for", "refunds", "over", "$500", "in", "production", "when", "amount", "is", "unless", "and", "or", "on", "weekdays", "between", "09:00", "17:00", "more", "than", "3", "per", "hour", "outside", "acme.com", "battery", "below", "20%", "except", "the", "any", "action", "escalate", ",", "only", "not", "gold", "tier", "'x'", "1.2k", "eur"];

describe("the policy language: properties", () => {
  it("never throws on arbitrary text, and a failure always names a reason and a suggestion", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.array(fc.constantFrom(...VOCABULARY), { maxLength: 18 }).map((w) => w.join(" "))), (text) => {
        const parsed = parseRule(text);
        if (!parsed.ok) {
          expect(parsed.error.message.length).toBeGreaterThan(0);
          expect(parsed.error.suggestion.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("whatever parses evaluates without throwing, restrictive rules never approve on missing values they need", () => {
    const args = fc.dictionary(fc.constantFrom("amount", "environment", "battery", "to", "tier", "currency"), fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.constantFrom("production", "staging", "x@acme.com", "y@evil.com", "gold", "USD", "EUR")));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...VOCABULARY), { minLength: 2, maxLength: 14 }).map((w) => w.join(" ")), fc.constantFrom("refund_payment", "deploy", "send_email", "any_tool"), args, fc.date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true }), (text, tool, values, now) => {
        const parsed = parseRule(text);
        if (!parsed.ok) return;
        const set = new RuleSet([{ policyId: "p", policyName: "p", version: 1, priority: 0, index: 0, rule: parsed.rule }]);
        const decision = set.decide(prepareAction({ tool, args: values, now }));
        expect(["approved", "blocked", "conditional"]).toContain(decision.decision);
        if (decision.decision === "approved" && decision.fired) expect(decision.fired.ref.rule.effect).toBe("allow");
      }),
      { numRuns: 3000 },
    );
  });

  it("words it does not understand never make a restrictive rule approve a value it names", () => {
    // Unknown words are not refused any more (docs/policies.md, "What is refused"): they stay with the
    // action or become conditions the action cannot satisfy, which fail closed.
    fc.assert(
      fc.property(fc.array(fc.constantFrom("wobbly", "purple", "moon", "sideways", "flux", "capacitor", "whenever", "is", "the"), { maxLength: 6 }), (garbage) => {
        const parsed = parseRule(`Block refund_payment when amount > 500 ${garbage.join(" ")} .`);
        if (!parsed.ok) return;
        const set = new RuleSet([{ policyId: "p", policyName: "p", version: 1, priority: 0, index: 0, rule: parsed.rule }]);
        expect(set.decide(prepareAction({ tool: "refund_payment", args: { amount: 900 }, now: new Date() })).decision).toBe("blocked");
      }),
      { numRuns: 500 },
    );
  });
});


// Classes of misreading found while documenting the language (docs/policies.md), each a sentence shape:
// lists of days then "or", a new subject after "or", a clock on the action's own start, a missing
// environment, a comma after money, metres, a zone after the clock, "only allow … when" an equality, a
// condition with no action, name-like words, tools with known parameters, "flagged" as a state.
describe("the policy language: shapes found while documenting it", () => {
  const cases: [string, string, Record<string, unknown>, string, string, string[]?][] = [
  ["Block refunds over $500 on weekends or after 6pm", "refund_payment", { amount: 900 }, "2026-11-18T19:00:00Z", "blocked"],
  ["Block refunds when the amount is over 500 and the region is eu or the customer is new", "refund_payment", { amount: 900, region: "us", customer: "new" }, "2026-11-18T10:00:00Z", "blocked"],
  ["Block inspections that start between 20:00 and 06:00", "schedule_inspection", { start_time: "2026-11-22T21:00:00Z" }, "2026-11-18T10:00:00Z", "blocked"],
  ["Require approval for failovers in production", "failover_database", { service: "api" }, "2026-11-18T10:00:00Z", "conditional"],
  ["When the order total is above $2,000, block cancellations", "cancel_order", { order_total: 2500 }, "2026-11-18T10:00:00Z", "blocked"],
  ["When the order total is above $2,000, block cancellations", "create_order", { order_total: 2500 }, "2026-11-18T10:00:00Z", "approved"],
  ["Block drone flights above 120 m", "fly_drone", { altitude_ft: 500 }, "2026-11-18T10:00:00Z", "blocked"],
  ["Block deploys on Saturdays after 08:00 Asia/Tokyo", "deploy_service", {}, "2026-11-20T23:30:00Z", "blocked"],
  ["Block deploys on Saturdays after 08:00 Asia/Tokyo", "deploy_service", {}, "2026-11-21T23:30:00Z", "approved"],
  ["Only allow exports when the region is eu", "export_data", { region: "us" }, "2026-11-18T10:00:00Z", "blocked"],
  ["Only allow exports when the region is eu", "export_data", { region: "eu" }, "2026-11-18T10:00:00Z", "approved"],
  ["Require approval when the discount exceeds 40%", "send_email", {}, "2026-11-18T10:00:00Z", "approved", ["to"]],
  ["Require approval when the discount exceeds 40%", "apply_discount", { discount_percent: 50 }, "2026-11-18T10:00:00Z", "conditional"],
  ["Never drop the analytics-prod database", "drop_database", { name: "analytics-dev" }, "2026-11-18T10:00:00Z", "approved"],
  ["Never drop the analytics-prod database", "drop_database", { name: "analytics-prod" }, "2026-11-18T10:00:00Z", "blocked"],
  ["Block payments over $500", "create_payment", {}, "2026-11-18T10:00:00Z", "approved", ["recipient"]],
  ["Block payments when the amount is over $500", "create_payment", { amount: 600 }, "2026-11-18T10:00:00Z", "blocked"],
  ["Block refunds over 500 when the customer is flagged", "refund_payment", { amount: 600, customer_flagged: false }, "2026-11-18T10:00:00Z", "approved"],
  ["Block refunds over 500 when the customer is flagged", "refund_payment", { amount: 600, customer_flagged: true }, "2026-11-18T10:00:00Z", "blocked"],
  // A value and the noun of its kind ("express shipping" with method: express); a parameter's noun and a
  // short value ("tier B", "schedule II"): another value there is not the action the rule names, none fails closed.
  ["Never send parcels by express shipping", "send_parcel", { method: "express", weight_kg: 2 }, "2026-11-18T10:00:00Z", "blocked", ["method", "weight_kg"]],
  ["Never send parcels by express shipping", "send_parcel", { method: "standard", weight_kg: 2 }, "2026-11-18T10:00:00Z", "approved", ["method", "weight_kg"]],
  ["Require approval for upgrades of tier B accounts", "upgrade_account", { account_tier: "A" }, "2026-11-18T10:00:00Z", "approved", ["account_tier"]],
  ["Require approval for upgrades of tier B accounts", "upgrade_account", { account_tier: "B" }, "2026-11-18T10:00:00Z", "conditional", ["account_tier"]],
  ["Require approval for upgrades of tier B accounts", "upgrade_account", {}, "2026-11-18T10:00:00Z", "conditional", ["account_tier"]],
  // A code-like value after a preposition scopes a comparison to it.
  ["Require approval for moves to bay_7 with a load over 300 kg", "move_forklift", { target_bay: "bay_2", load_kg: 500 }, "2026-11-18T10:00:00Z", "approved", ["target_bay", "load_kg"]],
  ["Require approval for moves to bay_7 with a load over 300 kg", "move_forklift", { target_bay: "bay_7", load_kg: 500 }, "2026-11-18T10:00:00Z", "conditional", ["target_bay", "load_kg"]],
  // "scheduled for a Saturday": the day of the action's own date, not the day it is asked.
  ["Block meter swaps scheduled for a Saturday", "schedule_meter_swap", { swap_date: "2026-11-21" }, "2026-11-18T10:00:00Z", "blocked", ["swap_date"]],
  ["Block meter swaps scheduled for a Saturday", "schedule_meter_swap", { swap_date: "2026-11-23" }, SAT_10, "approved", ["swap_date"]],
];

  for (const [rule, tool, args, now, want, params] of cases) {
    it(`${rule} | ${tool} ${JSON.stringify(args)}${params ? ` (parameters ${params.join(", ")})` : ""}`, () => {
      const parsed = parseRule(rule);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      const set = new RuleSet([{ policyId: "p", policyName: "p", version: 1, priority: 0, index: 0, rule: parsed.rule }]);
      expect(set.decide(prepareAction({ tool, args, now: new Date(now), ...(params ? { params } : {}) })).decision, restate(parsed.rule)).toBe(want);
    });
  }
});

describe("the policy language: one sentence, two effects", () => {
  // Each half is a rule of its own; joined, no single effect says both, so the sentence is refused with the
  // two halves as candidates. Generated from effect phrasings × joins × actions of our own.
  const effects = {
    allow: ["Allow", "Permit"],
    block: ["Block", "Deny", "Forbid"],
    approval: ["Require approval for", "Require a manager's sign-off for"],
  } as const;
  const actions = [["invoice edits", "invoice deletions over $900"], ["badge reissues", "badge reissues for contractors"]] as const;
  const joins = [", but ", " but ", ", ", "; however "];
  const pairs = [["allow", "block"], ["block", "allow"], ["allow", "approval"], ["approval", "allow"], ["block", "approval"]] as const;
  for (const [first, second] of pairs) {
    for (const [i, join] of joins.entries()) {
      const [a, b] = actions[i % actions.length]!;
      const lead = effects[first][i % effects[first].length]!;
      const follow = effects[second][i % effects[second].length]!;
      const sentence = `${lead} ${a}${join}${follow.charAt(0).toLowerCase()}${follow.slice(1)} ${b}`;
      it(sentence, () => {
        const parsed = parseRule(sentence);
        expect(parsed.ok, parsed.ok ? restate(parsed.rule) : "").toBe(false);
        if (parsed.ok) return;
        expect(parsed.error.candidates).toHaveLength(2);
        expect(parsed.error.candidates![0]!.toLowerCase()).toContain(a.split(" ")[0]);
        expect(parsed.error.candidates![1]!.toLowerCase()).toContain(b.split(" ")[0]);
        expect(parsed.error.suggestion).toContain(";");
        // Each candidate is a rule on its own.
        for (const candidate of parsed.error.candidates!) expect(parseRule(candidate).ok, candidate).toBe(true);
      });
    }
  }
  // Effect words inside one clause are one effect, not two rules.
  const single: [string, Expect][] = [
    ["No badge reissue for contractors is allowed", "blocked"],
    ["Never allow badge reissues without approval", "conditional"],
    ["Badge reissues are allowed only with a supervisor's approval", "conditional"],
    ["Badge reissues are permitted only after security review", "conditional"],
    ["Badge reissues may proceed only with human sign-off", "conditional"],
    ["Require approval to suspend and block badges", "conditional"],
  ];
  for (const [sentence, want] of single) {
    it(`${sentence} (one effect)`, () => {
      const parsed = parseRule(sentence);
      expect(parsed.ok, parsed.ok ? "" : parsed.error.message).toBe(true);
      if (!parsed.ok) return;
      const set = new RuleSet([{ policyId: "p", policyName: "p", version: 1, priority: 0, index: 0, rule: parsed.rule }]);
      const tool = sentence.includes("suspend") ? "suspend_badge" : "reissue_badge";
      expect(set.decide(prepareAction({ tool, args: {}, now: new Date(WED_10), history: [] })).decision, restate(parsed.rule)).toBe(want);
    });
  }
});

// Classes of wording found while making every compiled rule fire: each with paraphrases of our own.
describe("the policy language: paraphrase classes", () => {
  const classes: [cls: string, sentences: string[], cases: Case[]][] = [
    [
      "a routing verb before an approval cue is effect wording (hold, route, flag … for approval / to a person)",
      ["Hold invoice voids over $300 for approval", "Route invoice voids over $300 to a reviewer for approval", "Please flag invoice voids over $300 for manual review", "When the amount tops $300, hold invoice voids for sign-off"],
      [["void_invoice", { amount: 301 }, "conditional"], ["void_invoice", { amount: 300 }, "approved"], ["create_invoice", { amount: 900 }, "approved"]],
    ],
    [
      "the approver last in the sentence (escalate … to a human / to a person)",
      ["Escalate invoice voids above $300 to a human", "If the amount is above $300, escalate invoice voids to a person"],
      [["void_invoice", { amount: 301 }, "conditional"], ["void_invoice", { amount: 299 }, "approved"]],
    ],
    [
      "a subject and a copula before the negation (X is / are not allowed to …)",
      ["Bots are not allowed to void an invoice above $300", "The assistant is not allowed to void invoices above $300", "Agents aren't allowed to void invoices above $300"],
      [["void_invoice", { amount: 301 }, "blocked"], ["void_invoice", { amount: 300 }, "approved"], ["create_invoice", { amount: 900 }, "approved"]],
    ],
    [
      "a negated comparator is the comparison's, not the effect's (not exceeding, do not exceed)",
      ["Route invoice voids not exceeding $300 to a reviewer for approval", "Invoice voids that do not exceed $300 need sign-off", "Invoice voids not more than $300 need sign-off"],
      [["void_invoice", { amount: 300 }, "conditional"], ["void_invoice", { amount: 301 }, "approved"]],
    ],
    [
      "\"equal to or greater / less than\" comparators",
      ["Block invoice voids when the amount is equal to or greater than $300", "Block invoice voids when the total is equal to or more than 300 dollars"],
      [["void_invoice", { amount: 300 }, "blocked"], ["void_invoice", { amount: 299 }, "approved"]],
    ],
    [
      "\"equal to or less than\"",
      ["Block invoice voids when the amount is equal to or less than $300", "Block invoice voids when the amount is equal to or below $300"],
      [["void_invoice", { amount: 300 }, "blocked"], ["void_invoice", { amount: 301 }, "approved"]],
    ],
    [
      "a light verb after a modal only says the action happens (may be made / processed / go through)",
      ["No invoice void above $300 may be processed", "No invoice void above $300 may be made", "No invoice void above $300 may go through", "No invoice void above $300 can be carried out"],
      [["void_invoice", { amount: 301 }, "blocked"], ["void_invoice", { amount: 300 }, "approved"]],
    ],
    [
      "an effect word with two letters swapped (a typing slip)",
      ["Invoice voids above $300 must be apporved by a manager", "Invoice voids above $300 need manager apprvoal", "Invoice voids above $300 must be escalaetd"],
      [["void_invoice", { amount: 301 }, "conditional"], ["void_invoice", { amount: 300 }, "approved"]],
    ],
    [
      "\"check with an approver before …\"",
      ["Check with a supervisor before you void invoices above $300", "Always check with a manager before voiding invoices above $300"],
      [["void_invoice", { amount: 301 }, "conditional"], ["void_invoice", { amount: 300 }, "approved"]],
    ],
    [
      "a leading exception ends at its comma (Except for …, / Unless …,)",
      ["Except for enterprise customers, invoice voids above $300 are forbidden", "Unless the plan is enterprise, block invoice voids above $300"],
      [["void_invoice", { amount: 301, plan: "basic" }, "blocked"], ["void_invoice", { amount: 301, plan: "enterprise" }, "approved"], ["void_invoice", { amount: 300, plan: "basic" }, "approved"]],
    ],
    [
      "\"only\" before an imperative verb limits it (Only void invoices when …)",
      ["Only void invoices when the amount is below $300", "only void an invoice when the total is under 300 dollars"],
      [["void_invoice", { amount: 300 }, "blocked"], ["void_invoice", { amount: 299 }, "approved"], ["create_invoice", { amount: 900 }, "approved"]],
    ],
    [
      "\"nothing may …\" blocks any action under the conditions",
      ["Nothing may run when the amount is above $300", "nothing may happen when the amount is above $300"],
      [["void_invoice", { amount: 301 }, "blocked"], ["create_invoice", { amount: 301 }, "blocked"], ["void_invoice", { amount: 300 }, "approved"]],
    ],
    [
      "a delivering or support verb before what a making tool makes (send / issue / raise X and create_X)",
      ["Send grants over $300 only with approval", "Issuing grants over $300 requires approval", "Never make grants over $300 without sign-off", "Agents must ask a human before they give out grants over $300"],
      [["create_grant", { amount: 301 }, "conditional"], ["create_grant", { amount: 300 }, "approved"], ["delete_grant", { amount: 900 }, "approved"], ["issue_invoice", { amount: 900 }, "approved"]],
    ],
    [
      "a verb of sending alone (no object) is not a making tool's operation",
      ["Block emails over $300", "Emails over $300 are forbidden"],
      [["send_email", { amount: 301 }, "blocked"], ["issue_invoice", { amount: 301 }, "approved"], ["create_report", { amount: 301 }, "approved"]],
    ],
    [
      "two support verbs name one operation (give X and apply_X)",
      ["Never give rebates above 40%", "Giving rebates above 40% is forbidden"],
      [["apply_rebate", { rebate_percent: 41 }, "blocked"], ["apply_rebate", { rebate_percent: 40 }, "approved"], ["revoke_rebate", { rebate_percent: 90 }, "approved"]],
    ],
    [
      "initials of a tool's words (an RMA and create_return_merchandise_authorization)",
      ["Block RMAs over $300", "Never raise an RMA over $300", "RMAs over $300 are forbidden"],
      [["create_return_merchandise_authorization", { amount: 301 }, "blocked"], ["create_return_merchandise_authorization", { amount: 300 }, "approved"], ["create_refund", { amount: 900 }, "approved"]],
    ],
    [
      "an object the verb acts on anyway (wire money, deploy code, SMS messages)",
      ["Block wiring money over $300", "Never wire funds over $300"],
      [["send_wire", { amount: 301 }, "blocked"], ["send_wire", { amount: 300 }, "approved"], ["cancel_wire", { amount: 900 }, "approved"]],
    ],
    [
      "deploying code is deploying",
      ["Never deploy code on Saturdays", "Deploying code on Saturdays is forbidden"],
      [["deploy_api", {}, "blocked", { now: SAT_10 }], ["deploy_api", {}, "approved", { now: WED_10 }], ["restart_api", {}, "approved", { now: SAT_10 }]],
    ],
    [
      "nouns that name one thing (parcels and packages, suppliers and vendors, documents and files, EVs and vehicles)",
      ["Shipping parcels over 30 kg is forbidden", "Never ship parcels heavier than 30 kg"],
      [["ship_package", { weight_kg: 31 }, "blocked"], ["ship_package", { weight_kg: 30 }, "approved"], ["track_package", { weight_kg: 90 }, "approved"]],
    ],
    [
      "suppliers are vendors",
      ["Paying suppliers over $300 needs approval", "Require approval to pay suppliers above $300"],
      [["pay_vendor", { amount: 301 }, "conditional"], ["pay_vendor", { amount: 300 }, "approved"], ["create_vendor", { amount: 900 }, "approved"]],
    ],
    [
      "documents are files, EVs are vehicles",
      ["Never share documents publicly", "Sharing documents publicly is forbidden"],
      [["share_file", { visibility: "public" }, "blocked"], ["share_file", { visibility: "private" }, "approved"]],
    ],
    [
      "EVs are vehicles",
      ["Require approval to charge EVs above 60 kWh", "Charging EVs above 60 kWh needs sign-off"],
      [["charge_vehicle", { energy_kwh: 61 }, "conditional"], ["charge_vehicle", { energy_kwh: 60 }, "approved"]],
    ],
    [
      "a tool that reads, cancels or rejects what the verb names does not do it (list_refunds, cancel_refund); deleting it stays governed",
      ["Block refunds over $300", "Refunds over $300 are forbidden"],
      [["refund_payment", { amount: 301 }, "blocked"], ["list_refunds", { amount: 301 }, "approved"], ["get_refund", { amount: 301 }, "approved"], ["cancel_refund", { amount: 301 }, "approved"], ["issue_refund", { amount: 301 }, "blocked"], ["delete_refund", { amount: 301 }, "blocked"]],
    ],
    [
      "a phrasal noun of action names its verb (start-ups, roll-outs)",
      ["Heater start-ups above 40 kW are forbidden", "Block heater start-ups above 40 kW"],
      [["start_heater", { power_kw: 41 }, "blocked"], ["start_heater", { power_kw: 40 }, "approved"], ["stop_heater", { power_kw: 90 }, "approved"]],
    ],
    [
      "after a verb of sending, people are the recipients; a channel is not another channel",
      ["Texting clients after 22:00 is forbidden", "Never text customers after 22:00", "Agents must not send texts to users after 22:00"],
      [["send_sms", {}, "blocked", { now: "2026-11-18T23:00:00Z" }], ["send_sms", {}, "approved", { now: WED_10 }], ["send_email", {}, "approved", { now: "2026-11-18T23:00:00Z" }]],
    ],
    [
      "e-mailing people is e-mail, not a text message",
      ["Never email people after 22:00", "Emailing customers after 22:00 is forbidden"],
      [["send_email", {}, "blocked", { now: "2026-11-18T23:00:00Z" }], ["send_sms", {}, "approved", { now: "2026-11-18T23:00:00Z" }]],
    ],
    [
      "sending a thing on its way is shipping or dispatching it",
      ["Sending parcels over 30 kg needs approval", "Get approval before you send packages heavier than 30 kg"],
      [["ship_package", { weight_kg: 31 }, "conditional"], ["dispatch_package", { weight_kg: 31 }, "conditional"], ["ship_package", { weight_kg: 30 }, "approved"], ["track_package", { weight_kg: 31 }, "approved"]],
    ],
    [
      "a value's own domain is not the rule's scope; its negation says outside",
      ["Block outbound emails if the recipient's domain is not globex.test", "Outgoing emails where the recipient's domain isn't globex.test are forbidden"],
      [["send_email", { to: "a@example.org" }, "blocked"], ["send_email", { to: "a@globex.test" }, "approved"]],
    ],
    [
      "an occurrence noun after the operation (charging sessions) and a count after 'involving'",
      ["Block charging sessions above 60 kWh", "Charging sessions involving more than 60 kWh are forbidden"],
      [["charge_vehicle", { energy_kwh: 61 }, "blocked"], ["charge_vehicle", { energy_wh: 61000 }, "blocked"], ["charge_vehicle", { energy_kwh: 60 }, "approved"]],
    ],
    [
      "a one-letter unit beside the word of its kind (power_w)",
      ["Block heater start-ups above 40 kW", "Never start heaters with a power above 40 kilowatts"],
      [["start_heater", { power_w: 40001 }, "blocked"], ["start_heater", { power_w: 40000 }, "approved"]],
    ],
    [
      "a value word naming a yes/no argument (marked urgent, VIP customers)",
      ["Block ticket deletions marked urgent", "Never delete tickets flagged as urgent"],
      [["delete_ticket", { urgent: true }, "blocked"], ["delete_ticket", { urgent: false }, "approved"], ["delete_ticket", { is_urgent: false }, "approved"]],
    ],
    [
      "an exception by a yes/no argument",
      ["Block invoice voids over $300 except for VIP customers", "Block invoice voids over $300 unless the customer is a VIP"],
      [["void_invoice", { amount: 301, vip: true }, "approved"], ["void_invoice", { amount: 301, vip: false }, "blocked"]],
    ],
    [
      "the day of now said as a statement (today is …, the day is …, it is …)",
      ["If today is Saturday, block invoice voids", "Block invoice voids when the day is Saturday", "Block invoice voids when it is the weekend", "Invoice voids are forbidden when it's Saturday"],
      [["void_invoice", {}, "blocked", { now: SAT_10 }], ["void_invoice", {}, "approved", { now: WED_10 }]],
    ],
    [
      "a value's own bound at the end (… and above, … or over) completes the rule",
      ["Require approval for heater start-ups with a power of 40 kW and above", "Heater start-ups of 40 kW or over need sign-off"],
      [["start_heater", { power_kw: 40 }, "conditional"], ["start_heater", { power_kw: 39 }, "approved"]],
    ],
    [
      "a zone by its everyday name after a clock written with a.m./p.m. (UK time, Eastern time)",
      ["Block invoice voids before 1 a.m. or after 4 a.m. UK time", "Invoice voids before 1 a.m. or after 4 a.m. UK time are forbidden"],
      [["void_invoice", {}, "blocked", { now: "2026-11-18T10:00:00Z" }], ["void_invoice", {}, "approved", { now: "2026-11-18T02:00:00Z" }]],
    ],
    [
      "Eastern time",
      ["Only allow invoice voids between 9 a.m. and 5 p.m. Eastern time", "Only allow invoice voids between 9 a.m. and 5 p.m. America/New_York"],
      [["void_invoice", {}, "approved", { now: "2026-11-18T15:00:00Z" }], ["void_invoice", {}, "blocked", { now: "2026-11-18T10:00:00Z" }]],
    ],
    [
      "an allow limited by a later 'only' (Allow X only …) and 'may only happen'",
      ["Allow invoice voids only under $300", "Allow invoice voids only for amounts below 300 dollars", "Invoice voids may only happen under $300"],
      [["void_invoice", { amount: 300 }, "blocked"], ["void_invoice", { amount: 299 }, "approved"]],
    ],
    [
      "a count whose bound follows its noun (50 seats or more / or fewer)",
      ["Require approval for licence purchases with 50 seats or more", "Licence purchases of 50 seats or more need sign-off"],
      [["purchase_licence", { seat_count: 50 }, "conditional"], ["purchase_licence", { seat_count: 49 }, "approved"]],
    ],
    [
      "… or fewer",
      ["Block licence purchases with 5 seats or fewer"],
      [["purchase_licence", { seat_count: 5 }, "blocked"], ["purchase_licence", { seat_count: 6 }, "approved"]],
    ],
  ];
  for (const [cls, sentences, cases] of classes) {
    for (const sentence of sentences) {
      it(`${cls}: ${sentence}`, () => {
        for (const c of cases) expect(decide(sentence, c), `${c[0]} ${JSON.stringify(c[1])}`).toBe(c[2]);
      });
    }
  }
});

describe("the policy language: shapes that were refused", () => {
  const decide = (sentence: string, tool: string, args: Record<string, unknown>, now = WED_10) => {
    const parsed = parseRule(sentence);
    expect(parsed.ok, parsed.ok ? "" : `${sentence}: ${parsed.error.message}`).toBe(true);
    if (!parsed.ok) return undefined;
    const set = new RuleSet([{ policyId: "p", policyName: "p", version: 1, priority: 0, index: 0, rule: parsed.rule }]);
    return set.decide(prepareAction({ tool, args, now: new Date(now), history: [] })).decision;
  };
  // Every transposition of two neighbouring letters inside an effect word after the action.
  const typos = (word: string) => Array.from({ length: word.length - 3 }, (_, i) => i + 1).map((i) => word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)).filter((w) => w !== word);
  for (const [template, word, want] of [
    ["Badge reissues for contractors need %", "approval", "conditional"],
    ["Badge reissues for contractors are %", "prohibited", "blocked"],
    ["Badge reissues for contractors must be %", "escalated", "conditional"],
  ] as const) {
    it(`${template.replace("%", word)}, with each transposition of "${word}"`, () => {
      for (const typo of typos(word)) {
        const sentence = template.replace("%", typo);
        const args = template.includes("contractors") ? { holder_type: "contractor" } : {};
        expect(decide(sentence, "reissue_badge", args), sentence).toBe(want);
      }
    });
  }
  it("real words near an effect word are left alone", () => {
    const parsed = parseRule("Block badge reissues when the reviewer is approving");
    expect(parsed.ok && restate(parsed.rule)).toContain("approving");
  });

  for (const [unit, above, below] of [["kg", 60, 40], ["GB", 6, 4], ["km", 12, 8]] as const) {
    const limit = unit === "kg" ? 50 : unit === "GB" ? 5 : 10;
    const field = unit === "kg" ? "weight_kg" : unit === "GB" ? "size_gb" : "distance_km";
    for (const [closing, atLimit] of [["and above", "blocked"], ["or over", "blocked"], ["and under", "blocked"], ["or below", "blocked"]] as const) {
      const sentence = `Block shipments of ${limit} ${unit} ${closing}`;
      it(sentence, () => {
        const upward = closing.endsWith("above") || closing.endsWith("over");
        expect(decide(sentence, "create_shipment", { [field]: limit })).toBe(atLimit);
        expect(decide(sentence, "create_shipment", { [field]: upward ? above : below })).toBe("blocked");
        expect(decide(sentence, "create_shipment", { [field]: upward ? below : above })).toBe("approved");
      });
    }
  }

  for (const approver of ["a manager", "your supervisor", "the duty officer", "a human"]) {
    for (const [lead, tail] of [["Check with", "before you reissue"], ["Consult", "before reissuing"], ["Check with", "prior to reissuing"]] as const) {
      const sentence = `${lead} ${approver} ${tail} badges in production`;
      it(sentence, () => {
        expect(decide(sentence, "reissue_badge", { environment: "production" })).toBe("conditional");
        expect(decide(sentence, "reissue_badge", { environment: "staging" })).toBe("approved");
        expect(decide(sentence, "revoke_badge", { environment: "production" })).toBe("approved");
      });
    }
  }

  for (const verb of ["Hold", "Route", "Queue", "Flag"]) {
    for (const ending of ["for approval", "for human review", "for a manager's sign-off"]) {
      const sentence = `${verb} badge reissues in production ${ending}`;
      it(sentence, () => {
        const parsed = parseRule(sentence);
        expect(parsed.ok && parsed.rule.effect).toBe("require_approval");
        if (parsed.ok) expect(parsed.rule.actions.terms.map((t) => t.text).join(" ")).not.toContain(verb.toLowerCase());
      });
    }
  }

  for (const [sentence, inside, outside] of [
    ["Only reissue badges when the holder is an employee", { holder_type: "employee" }, { holder_type: "contractor" }],
    ["Only restart kiosks between 02:30 and 05:30 UTC", {}, {}],
    ["only wipe devices when the battery is above 30%", { battery: 0.5 }, { battery: 0.1 }],
  ] as const) {
    it(`${sentence} (only + an imperative)`, () => {
      const tool = sentence.includes("badges") ? "reissue_badge" : sentence.includes("kiosks") ? "restart_kiosk" : "wipe_device";
      if (sentence.includes("02:30")) {
        expect(decide(sentence, tool, inside, "2026-11-18T03:00:00Z")).toBe("approved");
        expect(decide(sentence, tool, outside, WED_10)).toBe("blocked");
      } else {
        expect(decide(sentence, tool, inside)).toBe("approved");
        expect(decide(sentence, tool, outside)).toBe("blocked");
      }
      expect(decide(sentence, "list_devices", outside)).toBe("approved");
    });
  }
  it("'only' before a noun is not an imperative", () => {
    const parsed = parseRule("Only managers may reissue badges");
    expect(parsed.ok && parsed.rule.effect).not.toBe("allow");
  });

  for (const [sentence, exempt, governed] of [
    ["Except for employees, block badge reissues in production", { holder_type: "employees", environment: "production" }, { holder_type: "contractor", environment: "production" }],
    ["Unless the holder is an employee, require approval for badge reissues", { holder: "employee" }, { holder: "contractor" }],
    ["Except in staging, no badge reissue may be made", { environment: "staging" }, { environment: "production" }],
  ] as const) {
    it(`${sentence} (a leading exception)`, () => {
      expect(decide(sentence, "reissue_badge", exempt)).toBe("approved");
      expect(decide(sentence, "reissue_badge", governed)).not.toBe("approved");
    });
  }

  it("nothing may run when …: any action", () => {
    expect(decide("Nothing may run when the total is above $900", "reissue_badge", { total: 1000 })).toBe("blocked");
    expect(decide("Nothing may run when the total is above $900", "wipe_device", { total: 10 })).toBe("approved");
  });
});

describe("the policy language: a verb alone names no made thing", () => {
  // A delivering verb lets a making tool through only when its objects say what is made ("send invoices"
  // and `create_invoice`); with no object ("emails", "texting") it must not cover every create_* tool.
  for (const [sentence, governed, spared] of [
    ["Block emails to recipients at example.org", ["send_email", "email_customer"], ["create_ticket", "create_quote", "issue_refund"]],
    ["Never text anyone after 22:00", ["send_sms", "text_customer"], ["create_invoice", "ship_package"]],
    ["Block sending invoices over $900", ["send_invoice", "create_invoice"], ["create_ticket", "ship_package"]],
  ] as const) {
    it(sentence, () => {
      const parsed = parseRule(sentence);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      const set = new RuleSet([{ policyId: "p", policyName: "p", version: 1, priority: 0, index: 0, rule: parsed.rule }]);
      for (const tool of governed) expect(set.covering(prepareAction({ tool, args: {}, now: new Date(WED_10) })).length, tool).toBe(1);
      for (const tool of spared) expect(set.covering(prepareAction({ tool, args: {}, now: new Date(WED_10) })).length, tool).toBe(0);
    });
  }
});

describe("the policy language: a restatement reads back to the same rule", () => {
  const sentences: [string, Case[]][] = [
    ["Vendor grants with a value above $300 must be escalated", [["create_grant", { value: 301 }, "conditional"], ["create_grant", { value: 300 }, "approved"], ["create_grant", { amount: 301 }, "conditional"]]],
    ["Never wire funds or issue rebates over 300 euros", [["send_wire", { amount: 301, currency: "EUR" }, "blocked"], ["create_rebate", { amount: 301, currency: "EUR" }, "blocked"], ["send_wire", { amount: 300, currency: "EUR" }, "approved"]]],
    ["Block heater start-ups above 40 kWh", [["start_heater", { energy_wh: 40001 }, "blocked"], ["start_heater", { energy_wh: 40000 }, "approved"]]],
    ["Block thermostat changes above 30% on Saturdays", [["update_thermostat", { change_percent: 31 }, "blocked", { now: SAT_10 }], ["update_thermostat", { change_percent: 31 }, "approved", { now: WED_10 }]]],
    ["Require approval for texting clients with more than 50 recipients", [["send_sms", { recipient_count: 51 }, "conditional"], ["send_sms", { recipient_count: 50 }, "approved"], ["send_email", { recipient_count: 51 }, "approved"]]],
  ];
  for (const [sentence, cases] of sentences) {
    it(sentence, () => {
      const first = parseRule(sentence);
      expect(first.ok).toBe(true);
      if (!first.ok) return;
      const restated = restate(first.rule);
      const clauses = splitClauses(restated);
      // The closing note ("When the action does not carry a value …") is for the reader, not a clause.
      expect(clauses.length, restated).toBe(1);
      for (const c of cases) {
        expect(decide(sentence, c), `${c[0]} ${JSON.stringify(c[1])}`).toBe(c[2]);
        expect(decide(clauses[0]!, c), `restated: ${restated} | ${c[0]} ${JSON.stringify(c[1])}`).toBe(c[2]);
      }
    });
  }
});

describe("the policy language: clauses", () => {
  it("a full stop after an abbreviation (a.m., p.m., e.g.) does not end the clause", () => {
    expect(splitClauses("Only allow restores between 9 a.m. and 5 p.m. Europe/London. Block refunds")).toEqual(["Only allow restores between 9 a.m. and 5 p.m. Europe/London", "Block refunds"]);
    expect(splitClauses("Escalate payouts, e.g. Vendor ones")).toHaveLength(1);
  });
});
