// Sentence shapes around the action: relative clauses that state a condition ("that are not …", "which
// have been …", "who are …"), a lead before the effect ("On Fridays, …", "For X, block …"), a text inside a
// field ("with the word X in the subject"), business hours defined after a comma, a quantifier before a
// domain, and the refusals that keep a rule from meaning its opposite (a negation nobody placed; words not
// understood in a rule that lets actions through). Each meaning is written in several forms of our own, and
// every form must decide the same probes the same way.
import { describe, expect, it } from "vitest";
import type { CompiledRule } from "./compiled.ts";
import { RuleSet, prepareAction } from "./evaluate.ts";
import { restate } from "./explain.ts";
import { parseRule, splitClauses } from "./parse.ts";

type Decision = "blocked" | "conditional" | "approved";
interface Probe {
  tool: string;
  args: Record<string, unknown>;
  expect: Decision;
  domain?: string;
  now?: string;
}
interface Meaning {
  name: string;
  forms: string[];
  probes: Probe[];
  /** Left out of the round-trip test, with the reason (a known gap of the restatement). */
  noRoundTrip?: string;
}

const FRI_12 = "2026-11-20T12:00:00Z";
const WED_12 = "2026-11-18T12:00:00Z";
const WED_20 = "2026-11-18T20:00:00Z";
const WED_08 = "2026-11-18T08:30:00Z";

const setOf = (rule: CompiledRule) => new RuleSet([{ policyId: "p", policyName: "p", version: 1, priority: 0, index: 0, rule }]);

function compiled(rule: string): CompiledRule {
  const parsed = parseRule(rule);
  if (!parsed.ok) throw new Error(`"${rule}" did not parse: ${parsed.error.message}`);
  return parsed.rule;
}

function decide(rule: string, p: Probe): Decision {
  return setOf(compiled(rule)).decide(prepareAction({ tool: p.tool, args: p.args, domain: p.domain, now: new Date(p.now ?? WED_12) })).decision;
}

// Effects in the shapes people put them, each a function of the action phrase (plural noun phrase).
const BLOCKS = [(x: string) => `Block ${x}`, (x: string) => `${cap(x)} are not allowed`, (x: string) => `${cap(x)} must be blocked`, (x: string) => `Never permit ${x}`];
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

const MEANINGS: Meaning[] = [
  {
    name: "a relative clause with a negated participle is a yes/no condition",
    forms: BLOCKS.flatMap((b) => [b("payouts that were not reviewed"), b("payouts which have not been reviewed"), b("payouts that are not reviewed")]),
    probes: [
      { tool: "create_payout", args: { amount: 10, reviewed: false }, expect: "blocked" },
      { tool: "create_payout", args: { amount: 10, reviewed: true }, expect: "approved" },
      { tool: "create_payout", args: { amount: 10 }, expect: "blocked" },
    ],
  },
  {
    name: "a relative clause with an adjective of state",
    forms: BLOCKS.flatMap((b) => [b("sessions that are active"), b("sessions which are active")]),
    probes: [
      { tool: "refresh_session", args: { active: true }, expect: "blocked" },
      { tool: "refresh_session", args: { active: false }, expect: "approved" },
      { tool: "refresh_session", args: { status: "active" }, expect: "blocked" },
      { tool: "refresh_session", args: { status: "expired" }, expect: "approved" },
    ],
  },
  {
    name: "a relative clause with a noun is a value of the thing",
    forms: ["Require approval for members who are admins", "Members who are admins need approval", "Require approval for members that are admins"],
    probes: [
      { tool: "update_member", args: { role: "admin" }, expect: "conditional" },
      { tool: "update_member", args: { role: "viewer" }, expect: "approved" },
    ],
  },
  {
    name: "a negation inside a relative clause about a domain",
    forms: [
      "Messages sent to addresses that are not at example.com need approval",
      "Require approval for messages to addresses which are not at example.com",
      "Messages to recipients who are not at example.com require approval",
    ],
    probes: [
      { tool: "send_message", args: { to: "kim@other.org" }, expect: "conditional" },
      { tool: "send_message", args: { to: "kim@example.com" }, expect: "approved" },
    ],
  },
  {
    name: "a lead understood up to its comma, before the effect",
    forms: [
      "On Fridays, block restarts of servers",
      "On Fridays, server restarts are forbidden",
      "On a Friday, never allow server restarts",
      "Server restarts are forbidden on Fridays",
    ],
    probes: [
      { tool: "restart_server", args: {}, expect: "blocked", now: FRI_12 },
      { tool: "restart_server", args: {}, expect: "approved", now: WED_12 },
    ],
  },
  {
    name: "a lead of conditions before an imperative",
    forms: ["In production, block schema migrations", "In production, schema migrations are forbidden", "Block schema migrations in production"],
    probes: [
      { tool: "run_schema_migration", args: { environment: "production" }, expect: "blocked" },
      { tool: "run_schema_migration", args: { environment: "staging" }, expect: "approved" },
    ],
  },
  {
    name: "business hours defined after a comma or a dash",
    forms: [
      "Block deploys outside business hours, 8am to 5pm UTC",
      "Block deploys outside business hours - 08:00-17:00 UTC",
      "Block deploys outside office hours, from 08:00 to 17:00 UTC",
      "Block deploys outside business hours (8am-5pm UTC)",
    ],
    probes: [
      { tool: "deploy_service", args: {}, expect: "approved", now: WED_12 },
      { tool: "deploy_service", args: {}, expect: "blocked", now: WED_20 },
      { tool: "deploy_service", args: {}, expect: "approved", now: WED_08.replace("08:30", "08:10") },
      { tool: "deploy_service", args: {}, expect: "blocked", now: "2026-11-18T07:30:00Z" },
    ],
  },
  {
    name: "a text inside a named field",
    forms: [
      "Block messages with the word secret in the body",
      "Messages with the phrase secret in their body are not allowed",
      "Block messages having 'secret' in the body",
      "Block messages whose body contains secret",
    ],
    probes: [
      { tool: "send_message", args: { body: "This is SECRET stuff", to: "a@b.c" }, expect: "blocked" },
      { tool: "send_message", args: { body: "lunch?", to: "a@b.c" }, expect: "approved" },
    ],
  },
  {
    name: "a quantifier before a domain name",
    forms: ["All payroll domain actions need approval", "Every payroll domain action needs approval", "Require approval for every action of the payroll domain"],
    probes: [
      { tool: "get_payslip", args: {}, expect: "conditional", domain: "payroll" },
      { tool: "get_payslip", args: {}, expect: "approved", domain: "support" },
    ],
  },
  {
    name: "a 'no' opening the sentence forbids what it names",
    forms: ["No exports at weekends", "No data exports on weekends.", "no exports on Saturdays or Sundays"],
    probes: [
      { tool: "export_data", args: {}, expect: "blocked", now: "2026-11-21T12:00:00Z" },
      { tool: "export_data", args: {}, expect: "approved", now: WED_12 },
    ],
  },
  {
    name: "a window named with 'outside of', and a window that names the business hours",
    forms: ["Block deploys outside of 8am-5pm UTC business hours", "Block deploys outside 08:00-17:00 UTC business hours", "Block deploys outside of business hours (8am-5pm UTC)"],
    probes: [
      { tool: "deploy_service", args: {}, expect: "approved", now: WED_12 },
      { tool: "deploy_service", args: {}, expect: "blocked", now: WED_20 },
      { tool: "deploy_service", args: {}, expect: "blocked", now: "2026-11-21T12:00:00Z" },
    ],
  },
  {
    name: "an approval word inside a condition is a state, not the effect",
    forms: ["Supplier payments are blocked unless the supplier is approved", "Block supplier payments unless the supplier was approved", "Supplier payments are not allowed if the supplier is not approved"],
    probes: [
      { tool: "pay_supplier", args: { supplier_approved: false }, expect: "blocked" },
      { tool: "pay_supplier", args: { supplier_approved: true }, expect: "approved" },
    ],
  },
  {
    name: "the approval first, then that it is needed",
    forms: ["Approval is needed for vendor onboarding", "Sign-off is required before onboarding vendors", "A manager's approval is mandatory for vendor onboarding"],
    probes: [
      { tool: "onboard_vendor", args: {}, expect: "conditional" },
      { tool: "list_vendors", args: {}, expect: "approved" },
    ],
  },
  {
    name: "a quantifier over the action says no more than the action",
    forms: ["Block deletions of any kind", "Deletions of every sort are forbidden", "Block all deletions whatsoever"],
    probes: [
      { tool: "delete_document", args: {}, expect: "blocked" },
      { tool: "delete_calendar_event", args: {}, expect: "blocked" },
      { tool: "create_document", args: {}, expect: "approved" },
    ],
  },
  {
    name: "a party named first is a condition, what it gets is the action",
    forms: ["Block contractors from opening the finance folder", "Block opening the finance folder for contractors"],
    probes: [
      { tool: "open_folder", args: { folder: "finance", user_type: "contractors" }, expect: "blocked" },
      { tool: "open_folder", args: { folder: "finance", user_type: "employee" }, expect: "approved" },
    ],
  },
  {
    name: "two arguments of one kind that differ, said with 'differs from'",
    forms: ["Refunds where the card country differs from the order country need review", "Refunds to a card in another country than the order need review"],
    probes: [
      { tool: "create_refund", args: { card_country: "FR", order_country: "US" }, expect: "conditional" },
      { tool: "create_refund", args: { card_country: "US", order_country: "US" }, expect: "approved" },
    ],
  },
  {
    name: "framing words around the rule: never in other words, ensure, attempts, refrain, avoid",
    forms: [
      "Under no circumstances delete a backup",
      "At no time may backups be deleted",
      "Refrain from deleting backups",
      "Avoid deleting backups",
      "Ensure that backups are never deleted",
      "Any attempt to delete a backup must be blocked",
    ],
    probes: [
      { tool: "delete_backup", args: {}, expect: "blocked" },
      { tool: "create_backup", args: {}, expect: "approved" },
    ],
  },
  {
    name: "a negated auxiliary in a relative clause",
    forms: ["Never pay a supplier that isn't on the approved roster", "Block supplier payments when the supplier isn't approved"],
    probes: [
      { tool: "pay_supplier", args: { supplier_approved: false }, expect: "blocked" },
      { tool: "pay_supplier", args: { supplier_approved: true }, expect: "approved" },
    ],
  },
  {
    name: "a routing verb and the approver it sends to",
    forms: ["Route every action in the treasury domain to a human", "Send all treasury domain actions to a manager for approval", "Hand anything in the treasury domain to a person"],
    probes: [
      { tool: "move_funds", args: {}, expect: "conditional", domain: "treasury" },
      { tool: "move_funds", args: {}, expect: "approved", domain: "sales" },
    ],
  },
  {
    name: "a participle of time after the action places its own date",
    noRoundTrip: "the restatement says 'the action's own date falls when …', which reads back as the day of the call (docs/policies.md, Known limits)",
    forms: ["Block site visits starting on a Saturday or a Sunday", "Block site visits that start on a weekend", "Block site visits scheduled for a Saturday or Sunday"],
    probes: [
      { tool: "book_site_visit", args: { start_time: "2026-11-21T09:00:00Z" }, expect: "blocked" },
      { tool: "book_site_visit", args: { start_time: "2026-11-18T09:00:00Z" }, expect: "approved", now: "2026-11-21T09:00:00Z" },
    ],
  },
  {
    name: "an operation that is a kind of another reaches that other only with its objects",
    forms: ["Block imports", "Imports are forbidden", "Never import anything"],
    probes: [
      { tool: "import_contacts", args: {}, expect: "blocked" },
      { tool: "create_invoice", args: {}, expect: "approved" },
      { tool: "create_weather_report", args: {}, expect: "approved" },
    ],
  },
  {
    name: "an age with its bound after it",
    forms: ["Block returns for purchases that are 60 days old or older", "Returns are not allowed when the purchase is 60 days old or more", "Block returns of purchases older than 59 days"],
    probes: [
      { tool: "create_return", args: { purchase_age_days: 75 }, expect: "blocked" },
      { tool: "create_return", args: { purchase_age_days: 10 }, expect: "approved" },
    ],
  },
  {
    name: "who approves, then the approval verb, then the action",
    forms: [
      "A supervisor must approve every write-off over $300",
      "Someone in accounting has to sign off on write-offs above 300 dollars",
      "The controller needs to review write-offs of more than $300",
      "Finance must okay any write-off over USD 300",
    ],
    probes: [
      { tool: "create_write_off", args: { amount: 450 }, expect: "conditional" },
      { tool: "create_write_off", args: { amount: 120 }, expect: "approved" },
    ],
  },
  {
    name: "a verb negated with do / did is a yes/no condition",
    forms: ["Block releases if the scan did not pass", "Releases are not allowed when the scan does not pass", "Block releases when the scan has not passed", "Block releases unless the scan passed"],
    probes: [
      { tool: "publish_release", args: { scan_passed: false }, expect: "blocked" },
      { tool: "publish_release", args: { scan_passed: true }, expect: "approved" },
    ],
  },
  {
    name: "a noun of action whose tool sends it out",
    forms: ["Escalate contract offers above $90k", "Contract offers over 90,000 dollars must be escalated", "Require approval for contract offers with a salary over 90k"],
    probes: [
      { tool: "send_offer_email", args: { salary: 120000 }, expect: "conditional" },
      { tool: "send_offer_email", args: { salary: 60000 }, expect: "approved" },
    ],
  },
  {
    name: "a second person's check, in its idioms, is an approval",
    forms: [
      "Price overrides need an extra pair of eyes",
      "Price overrides require another set of eyes",
      "Price overrides are subject to the four-eyes principle",
      "Price overrides must be verified by a second person",
      "Price overrides must be countersigned by a supervisor",
      "Price overrides need the store director to approve them",
      "Price overrides require two managers to sign off",
      "Price overrides must be referred to the pricing committee for approval",
      "Price overrides should be held for review",
      "Price overrides need sign-off from the regional pricing lead",
      "Price overrides must be approved by the store owner",
    ],
    probes: [
      { tool: "override_price", args: { sku: "A1", price: 3 }, expect: "conditional" },
      { tool: "create_discount", args: { sku: "A1", percent: 3 }, expect: "approved" },
    ],
  },
  {
    name: "a participle after 'be' is the operation, whatever its class",
    forms: ["Vouchers must not be redeemed by the agent", "Vouchers may never be redeemed", "Vouchers shall not be redeemed", "No voucher may be redeemed"],
    probes: [
      { tool: "redeem_voucher", args: { code: "V1" }, expect: "blocked" },
      { tool: "create_voucher", args: { code: "V1" }, expect: "approved" },
    ],
  },
  {
    name: "an actor after 'let' is who acts, not what is done",
    forms: ["Don't let the assistant archive projects", "Never let bots archive projects", "Do not allow the agent to archive projects"],
    probes: [
      { tool: "archive_project", args: { project_id: "p1" }, expect: "blocked" },
      { tool: "create_project", args: { name: "x" }, expect: "approved" },
    ],
  },
  {
    name: "'at or above' and 'at or below' include the bound",
    forms: ["Block pump starts when the tank level is at or above 80%", "Pump starts are forbidden when the tank level is at or over 80%"],
    probes: [
      { tool: "start_pump", args: { tank_level_percent: 80 }, expect: "blocked" },
      { tool: "start_pump", args: { tank_level_percent: 79 }, expect: "approved" },
    ],
  },
  {
    name: "the size of a change, from the values before and after it",
    forms: ["Block price changes of more than 20%", "Price changes greater than 20% are forbidden", "Never change a price by more than 20%"],
    probes: [
      { tool: "change_price", args: { old_price: 100, new_price: 125 }, expect: "blocked" },
      { tool: "change_price", args: { old_price: 100, new_price: 75 }, expect: "blocked" },
      { tool: "change_price", args: { current_price: 100, proposed_price: 115 }, expect: "approved" },
      { tool: "change_price", args: { previous_price: 100, updated_price: 120 }, expect: "approved" },
    ],
  },
  {
    name: "a noun of action heading the words names the operation",
    forms: ["Claim settlements above $1,000 need approval", "Require approval for claim settlements over $1,000"],
    probes: [
      { tool: "approve_settlement", args: { claim_id: "c1", amount: 5000 }, expect: "conditional" },
      { tool: "settle_claim", args: { claim_id: "c1", amount: 5000 }, expect: "conditional" },
      { tool: "set_claim_reserve", args: { claim_id: "c1", amount: 5000 }, expect: "approved" },
      { tool: "open_claim", args: { claim_id: "c1", amount: 5000 }, expect: "approved" },
    ],
  },
  {
    name: "a noun and its number name one thing; a gloss in brackets says nothing the rule needs",
    forms: ["Never file form 1099 returns", "We never file form 1099 (contractor income) returns", "Form 1099 returns must not be filed"],
    probes: [
      { tool: "file_return", args: { form: "form_1099" }, expect: "blocked" },
      { tool: "file_return", args: { form: "form_941" }, expect: "approved" },
      { tool: "file_return", args: { form: "form 1099-nec" }, expect: "approved" },
    ],
    noRoundTrip: "the restatement quotes the name with its number, which reads back as words",
  },
  {
    name: "a participle before its noun says which ones; a tool sharing only that word is not named",
    forms: ["Planned outages need approval", "Require approval for planned outages", "Planned outages must be approved by a supervisor"],
    probes: [
      { tool: "create_planned_outage", args: { feeder: "F1" }, expect: "conditional" },
      { tool: "schedule_outage", args: { feeder: "F1" }, expect: "conditional" },
      { tool: "create_payment_plan", args: { account: "A1" }, expect: "approved" },
    ],
  },
  {
    name: "younger, older, and people under or over a number: an age",
    forms: ["Block memberships for applicants younger than 18", "Memberships must not be sold to applicants under 18", "Never sell memberships to children under 18"],
    probes: [
      { tool: "sell_membership", args: { plan: "gym", applicant_age: 17 }, expect: "blocked" },
      { tool: "sell_membership", args: { plan: "gym", applicant_age: 18 }, expect: "approved" },
      { tool: "sell_membership", args: { plan: "gym", buyer_age_years: 12 }, expect: "blocked" },
    ],
  },
  {
    name: "months are twelfths of a year, against an argument in years or days",
    forms: ["Leases with a term longer than 18 months need approval", "Require approval for leases whose term exceeds 18 months"],
    probes: [
      { tool: "sign_lease", args: { term_years: 2 }, expect: "conditional" },
      { tool: "sign_lease", args: { term_years: 1 }, expect: "approved" },
      { tool: "sign_lease", args: { term_days: 600 }, expect: "conditional" },
      { tool: "sign_lease", args: { term_days: 500 }, expect: "approved" },
    ],
  },
  {
    name: "a modifier where the action says which kind it is",
    forms: ["Block overnight shipments to Canada", "Overnight shipments to Canada are not allowed", "Never create overnight shipments to Canada"],
    probes: [
      { tool: "create_shipment", args: { service_level: "overnight", country: "Canada" }, expect: "blocked" },
      { tool: "create_shipment", args: { shipping_method: "ground", country: "Canada" }, expect: "approved" },
      { tool: "create_shipment", args: { shipping_method: "overnight", country: "Canada" }, expect: "blocked" },
      { tool: "create_shipment", args: { country: "Canada" }, expect: "blocked" },
    ],
  },
  {
    name: "days of the year across the new year, on the action's own date",
    forms: [
      "Pool closures may not be booked for any date from November 1 through the end of February",
      "Block pool closures scheduled between 1 Nov and 28 Feb",
      "Pool closures scheduled in November, December, January or February are forbidden",
    ],
    probes: [
      { tool: "schedule_pool_closure", args: { pool: "p1", date: "2027-01-15" }, expect: "blocked" },
      { tool: "schedule_pool_closure", args: { pool: "p1", date: "2026-11-01" }, expect: "blocked" },
      { tool: "schedule_pool_closure", args: { pool: "p1", date: "2027-03-01" }, expect: "approved" },
      { tool: "schedule_pool_closure", args: { pool: "p1", date: "2026-10-31" }, expect: "approved" },
    ],
  },
  {
    name: "days of the year, of the time the action runs",
    forms: ["Block deployments from December 20 to January 2", "Deployments between 20 December and 2 January are not allowed"],
    probes: [
      { tool: "deploy_service", args: { service: "api" }, now: "2026-12-24T12:00:00Z", expect: "blocked" },
      { tool: "deploy_service", args: { service: "api" }, now: "2027-01-02T23:00:00Z", expect: "blocked" },
      { tool: "deploy_service", args: { service: "api" }, now: "2027-01-03T09:00:00Z", expect: "approved" },
    ],
  },
  {
    name: "a lead citing where the rule comes from, a price per unit, places listed with 'or'",
    forms: [
      "Under our lodging policy, hotel rooms over €300 a night in Paris or Lyon need approval",
      "As per section 4.2: hotel rooms over €300 per night in Paris or Lyon need approval",
      "Hotel rooms in Paris or Lyon costing more than €300 a night need approval",
    ],
    probes: [
      { tool: "book_hotel_room", args: { city: "Lyon", nightly_rate: 350, currency: "EUR" }, expect: "conditional" },
      { tool: "book_hotel_room", args: { city: "Paris", nightly_rate: 350, currency: "EUR" }, expect: "conditional" },
      { tool: "book_hotel_room", args: { city: "Nice", nightly_rate: 350, currency: "EUR" }, expect: "approved" },
      { tool: "book_hotel_room", args: { city: "Paris", nightly_rate: 250, currency: "EUR" }, expect: "approved" },
    ],
  },
  {
    name: "a comparison introduced by 'totalling', switching off, and a change to something",
    forms: ["Never turn off fraud checks for orders totalling more than $900", "Never switch off fraud checks on orders totalling over $900"],
    probes: [
      { tool: "disable_fraud_check", args: { order_total: 1000 }, expect: "blocked" },
      { tool: "disable_fraud_check", args: { order_total: 100 }, expect: "approved" },
      { tool: "enable_fraud_check", args: { order_total: 1000 }, expect: "approved" },
    ],
  },
  {
    name: "any change to a thing is changing it",
    forms: ["Any change to firewall rules requires approval", "Changes to firewall rules need approval", "Require approval for changes to firewall rules"],
    probes: [
      { tool: "update_firewall_rule", args: { rule_id: "r1" }, expect: "conditional" },
      { tool: "list_firewall_rules", args: {}, expect: "approved" },
    ],
  },
  {
    name: "a state said with 'with' or 'without', and a hyphenated tag",
    forms: ["Block logins without MFA enabled", "Logins without MFA enabled are forbidden", "Logins with MFA disabled are forbidden", "Block logins with MFA switched off"],
    probes: [
      { tool: "create_login", args: { user: "u1", mfa_enabled: false }, expect: "blocked" },
      { tool: "create_login", args: { user: "u1", mfa_enabled: true }, expect: "approved" },
    ],
  },
  {
    name: "a tag written as one hyphenated name; nobody written as two words",
    forms: ["No one may delete buckets tagged legal-hold", "Block deleting buckets tagged legal-hold", "Nobody may delete a bucket tagged legal-hold"],
    probes: [
      { tool: "delete_bucket", args: { bucket: "b1", tags: ["legal-hold", "pii"] }, expect: "blocked" },
      { tool: "delete_bucket", args: { bucket: "b1", tags: ["logs"] }, expect: "approved" },
    ],
  },
  {
    name: "who approves, however the team is named, is no part of the action",
    forms: ["Escalate refunds over $500 to the finance lead", "Escalate to a DBA refunds over $500", "Refunds over $500 must be approved by the regional finance manager", "Refunds over $500 need sign-off from the billing operations lead"],
    probes: [
      { tool: "refund_payment", args: { amount: 900 }, expect: "conditional" },
      { tool: "refund_payment", args: { amount: 100 }, expect: "approved" },
    ],
  },
  {
    name: "words whose initials are a word of the tool's name",
    forms: ["Do not turn off the virtual private network", "The assistant may not switch off the virtual private network"],
    probes: [
      { tool: "disable_vpn", args: { user: "u1" }, expect: "blocked" },
      { tool: "disable_sso", args: { user: "u1" }, expect: "approved" },
      { tool: "enable_vpn", args: { user: "u1" }, expect: "approved" },
    ],
  },
  {
    name: "every action on the weekend, in a zone",
    forms: ["Block every action on Saturdays and Sundays (Chicago time)", "Block any action on a weekend day in Chicago time", "All actions are forbidden at weekends (America/Chicago)"],
    probes: [
      { tool: "place_order", args: { symbol: "X" }, now: "2026-11-21T15:00:00Z", expect: "blocked" },
      { tool: "place_order", args: { symbol: "X" }, now: "2026-11-23T03:00:00Z", expect: "blocked" },
      { tool: "place_order", args: { symbol: "X" }, now: "2026-11-23T15:00:00Z", expect: "approved" },
    ],
  },
  {
    name: "an argument compared with another argument of the action",
    forms: [
      "Block transfers whose amount exceeds the account balance",
      "Transfers must never exceed the account balance",
      "Transfers larger than the account balance are forbidden",
      "Never allow transfers when the amount is greater than the account balance",
    ],
    probes: [
      { tool: "transfer_funds", args: { amount: 500, account_balance: 400 }, expect: "blocked" },
      { tool: "transfer_funds", args: { amount: 400, account_balance: 400 }, expect: "approved" },
      { tool: "transfer_funds", args: { amount: 300, account_balance: 400 }, expect: "approved" },
      { tool: "transfer_funds", args: { amount: 500 }, expect: "blocked" },
    ],
  },
  {
    name: "during a state of the action",
    forms: ["Block payouts during a payment freeze", "Payouts during a payment freeze are not allowed", "During a payment freeze, block payouts", "Never permit payouts during the payment freeze"],
    probes: [
      { tool: "create_payout", args: { amount: 10, payment_freeze: true }, expect: "blocked" },
      { tool: "create_payout", args: { amount: 10, payment_freeze: false }, expect: "approved" },
      { tool: "create_invoice", args: { amount: 10, payment_freeze: true }, expect: "approved" },
    ],
  },
  {
    name: "a leading condition whose subject, an instance of a kind, is the action",
    forms: ["Whenever a payout exceeds $500, block it", "If a payout exceeds $500, block it", "When a payout would exceed $500, block it", "If any payout exceeds $500, block it"],
    probes: [
      { tool: "create_payout", args: { amount: 600 }, expect: "blocked" },
      { tool: "create_payout", args: { amount: 100 }, expect: "approved" },
      { tool: "create_invoice", args: { amount: 600 }, expect: "approved" },
    ],
  },
  {
    name: "a relative clause with its own verb after a thing names conditions, not the operation",
    forms: ["Block scans that target 172.16.0.0/12", "Scans that target 172.16.0.0/12 are forbidden", "Never permit scans which would target 172.16.0.0/12"],
    probes: [
      { tool: "run_scan", args: { target_cidr: "172.16.0.0/12" }, expect: "blocked" },
      { tool: "run_scan", args: { target_cidr: "192.168.0.0/16" }, expect: "approved" },
    ],
  },
  {
    name: "a window across days of the week",
    forms: [
      "Payouts are frozen from Friday 18:00 until Monday 07:00 UTC",
      "Block payouts from Fri 18:00 to Mon 07:00 UTC",
      "No payouts between Friday 18:00 and Monday 07:00 UTC",
    ],
    probes: [
      { tool: "create_payout", args: { amount: 5 }, now: "2026-11-20T19:00:00Z", expect: "blocked" },
      { tool: "create_payout", args: { amount: 5 }, now: "2026-11-22T12:00:00Z", expect: "blocked" },
      { tool: "create_payout", args: { amount: 5 }, now: "2026-11-23T06:59:00Z", expect: "blocked" },
      { tool: "create_payout", args: { amount: 5 }, now: "2026-11-23T07:00:00Z", expect: "approved" },
      { tool: "create_payout", args: { amount: 5 }, now: "2026-11-20T17:59:00Z", expect: "approved" },
      { tool: "create_payout", args: { amount: 5 }, now: WED_20, expect: "approved" },
    ],
  },
  {
    name: "business hours with their days in the definition",
    forms: ["Block payouts outside business hours (9am-5pm UTC, Mon-Sat)", "Block payouts outside business hours (09:00-17:00 UTC, Monday to Saturday)"],
    probes: [
      { tool: "create_payout", args: { amount: 5 }, now: "2026-11-21T12:00:00Z", expect: "approved" },
      { tool: "create_payout", args: { amount: 5 }, now: "2026-11-22T12:00:00Z", expect: "blocked" },
      { tool: "create_payout", args: { amount: 5 }, now: WED_20, expect: "blocked" },
      { tool: "create_payout", args: { amount: 5 }, now: WED_12, expect: "approved" },
    ],
  },
  {
    name: "the absence of a thing the action carries",
    forms: ["Block payouts without MFA", "Block payouts made without MFA", "Payouts without a verified MFA are not allowed"],
    probes: [
      { tool: "create_payout", args: { amount: 5, mfa_verified: false }, expect: "blocked" },
      { tool: "create_payout", args: { amount: 5, mfa_verified: true }, expect: "approved" },
    ],
  },
  {
    name: "a permission that frames its restriction",
    forms: ["Agents may issue payouts, but not over $500", "Staff can issue payouts but never above $500", "Bots are allowed to issue payouts, but not for more than $500"],
    probes: [
      { tool: "create_payout", args: { amount: 600 }, expect: "blocked" },
      { tool: "create_payout", args: { amount: 500 }, expect: "approved" },
      { tool: "create_payout", args: { amount: 100 }, expect: "approved" },
    ],
  },
  {
    name: "an approval word inside a condition is a state, the effect is said elsewhere",
    forms: ["If a payout is flagged for compliance review, block it", "Block payouts if the payout is flagged for review", "Block payouts when they are under review"],
    probes: [
      { tool: "create_payout", args: { amount: 5, review_flag: true }, expect: "blocked" },
      { tool: "create_payout", args: { amount: 5, review_flag: false }, expect: "approved" },
    ],
  },
];

describe("clauses around the action", () => {
  for (const m of MEANINGS) {
    it(m.name, () => {
      for (const form of m.forms) for (const p of m.probes) expect(decide(form, p), `${form} :: ${p.tool} ${JSON.stringify(p.args)} ${p.now ?? ""}`).toBe(p.expect);
    });
  }

  it("each rule's restatement reads back to a rule that decides alike", () => {
    for (const m of MEANINGS.filter((x) => x.noRoundTrip === undefined)) {
      for (const form of m.forms) {
        const restated = restate(compiled(form));
        const clause = splitClauses(restated)[0]!;
        for (const p of m.probes) expect(decide(clause, p), `${form} → ${restated} :: ${p.tool} ${JSON.stringify(p.args)}`).toBe(p.expect);
      }
    }
  });
});

describe("what a tool's description says", () => {
  const described = (rule: string, tool: string, description: string) => setOf(compiled(rule)).decide(prepareAction({ tool, description, args: { amount: 900 }, now: new Date(WED_12) })).decision;

  it("what it says the tool does not do is not its words", () => {
    expect(described("Block refunds over $500", "close_case", "Closes the case without a refund; use issue_refund for money back.")).toBe("approved");
    expect(described("Block refunds over $500", "close_case", "Closes the case. Does not refund anyone.")).toBe("approved");
    expect(described("Block refunds over $500", "pay_out", "Sends a refund to the customer's card.")).toBe("blocked");
  });

  it("a word only the description has narrows, but does not name the tool alone", () => {
    expect(described("Block goodwill credits over $500", "issue_refund", "Pays money back from the account's credit balance.")).toBe("approved");
    expect(described("Block goodwill credits over $500", "apply_adjustment", "Applies goodwill credits to the account.")).toBe("blocked");
    expect(described("Block goodwill credits over $500", "apply_credit", "Adds a credit to the next bill.")).toBe("blocked");
  });
});

describe("limits per window", () => {
  // Two resets within the hour are the limit: the third is blocked, whatever the form.
  const secondIsOverTwo = (form: string) => {
    const set = setOf(compiled(form));
    const at = (m: number) => ({ tool: "reset_password", at: new Date(`2026-11-18T11:${String(m).padStart(2, "0")}:00Z`) });
    const decideWith = (history: { tool: string; at: Date }[]) => set.decide(prepareAction({ tool: "reset_password", args: {}, now: new Date(WED_12), history })).decision;
    expect(decideWith([at(10)]), form).toBe("approved");
    expect(decideWith([at(10), at(20)]), form).toBe("blocked");
  };

  it("a limit first, then what may happen per window", () => {
    for (const form of ["No more than two password resets may happen per hour", "At most 2 password resets can be done in an hour", "Up to two password resets may be made per hour"]) secondIsOverTwo(form);
  });

  it("a cap per window is a rate", () => {
    for (const form of ["Password resets are capped at 2 per hour", "Password resets are limited to 2 an hour"]) secondIsOverTwo(form);
  });

  it("an imperative limit, and a limit said as a notice without a verb", () => {
    for (const form of ["Limit password resets to 2 per hour", "Cap password resets at 2 an hour", "Please throttle password resets to two per hour", "No more than 2 password resets per hour", "At most two password resets an hour"]) secondIsOverTwo(form);
  });

  it("a limit written as a heading word (max, maximum)", () => {
    for (const form of ["Max 2 password resets per hour", "Maximum of 2 password resets an hour", "max two password resets per hour"]) secondIsOverTwo(form);
  });

  it("a limit per party is counted for that party only; a call that names none is counted against all", () => {
    const forms = [
      "Max 2 password resets per user per hour",
      "No more than 2 password resets per user per hour",
      "Limit password resets to 2 per user per hour",
      "More than 2 password resets of the same user in an hour are blocked",
      "Block more than 2 password resets in 1 hour for the same user",
      "Block more than 2 password resets within 60 minutes for any one user",
      "Never allow more than 2 password resets an hour for a single user",
      "Never reset passwords of the same user more than 2 times per hour",
    ];
    const past = (user: string | undefined, m: number) => ({ tool: "reset_password", at: new Date(`2026-11-18T11:${String(m).padStart(2, "0")}:00Z`), ...(user ? { args: { user_id: user } } : {}) });
    for (const form of forms) {
      const rule = compiled(form);
      const set = setOf(rule);
      const decideWith = (args: Record<string, unknown>, history: ReturnType<typeof past>[]) => set.decide(prepareAction({ tool: "reset_password", args, now: new Date(WED_12), history })).decision;
      expect(rule.ignored, form).toBeUndefined();
      // Two earlier resets of u1: a third for u1 is over the limit, a first for u2 is not.
      expect(decideWith({ user_id: "u1" }, [past("u1", 10), past("u1", 20)]), form).toBe("blocked");
      expect(decideWith({ user_id: "u2" }, [past("u1", 10), past("u1", 20)]), form).toBe("approved");
      expect(decideWith({ user_id: "u1" }, [past("u1", 10), past("u2", 20)]), form).toBe("approved");
      // Outside the window they are not counted; a call that does not say whose it is counts them all.
      expect(decideWith({ user_id: "u1" }, [past("u1", 10), { ...past("u1", 0), at: new Date("2026-11-18T10:30:00Z") }]), form).toBe("approved");
      expect(decideWith({}, [past("u1", 10), past("u2", 20)]), form).toBe("blocked");
      // The restatement reads back to the same limit, per the same party.
      const again = parseRule(splitClauses(restate(rule))[0]!);
      expect(again.ok && again.rule.when, form).toEqual(rule.when);
    }
  });

  it("a limit that is not per window is refused, not read as its opposite", () => {
    const parsed = parseRule("No more than 20 users may be created at once");
    if (parsed.ok) {
      expect(setOf(parsed.rule).decide(prepareAction({ tool: "create_users", args: { count: 5 }, now: new Date(WED_12) })).decision).toBe("approved");
    }
  });
});

describe("refusals that keep a rule from meaning its opposite", () => {
  it("a negation no reader placed refuses the rule", () => {
    for (const rule of ["Payments that are not approved by the treasurer must be blocked", "Block transfers that were not signed by two officers"]) {
      const parsed = parseRule(rule);
      // Either the negation became a condition, or the rule is refused: never the opposite rule.
      if (parsed.ok) {
        const set = setOf(parsed.rule);
        const tool = rule.includes("Payments") ? "create_payment" : "create_transfer";
        const flag = rule.includes("Payments") ? "approved" : "signed";
        expect(set.decide(prepareAction({ tool, args: { [flag]: false }, now: new Date(WED_12) })).decision, rule).toBe("blocked");
      } else expect(parsed.error.message).toMatch(/negation|not understood|could not/);
    }
  });

  it("a rule that lets actions through is refused when words of it were not understood", () => {
    for (const rule of ["Allow refunds over $500 when quux frobnicated", "Permit exports under 10 MB if blorp zanged"]) {
      const parsed = parseRule(rule);
      expect(parsed.ok, rule).toBe(false);
      if (!parsed.ok) expect(parsed.error.message).toMatch(/not understood/);
    }
  });

  it("a lead of conditions before an allow is kept, not dropped", () => {
    const set = setOf(compiled("For gold tier customers, allow refunds over $500"));
    const allowed = (args: Record<string, unknown>) => set.decide(prepareAction({ tool: "refund_payment", args, now: new Date(WED_12) })).matched.length > 0;
    expect(allowed({ amount: 900, tier: "gold" })).toBe(true);
    expect(allowed({ amount: 900, tier: "bronze" })).toBe(false);
  });
});
