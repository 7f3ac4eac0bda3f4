// The rule index must never hide a rule from `decide`: every rule whose action part matches an action (the
// matcher, `termMatches`, asked directly) must be among the rules the index wakes for it. Checked over
// sentences of our own built from parts (verbs, objects, name-like words, initials, a parameter and its
// value, channels, "any action"), over the generated policy corpus (every sentence, both splits, only as an
// invariant: nothing is read one by one), and over tools with and without descriptions and parameters.
import { describe, expect, it } from "vitest";
import { buildCorpus } from "../../../eval/policy-corpus/corpus.ts";
import type { CompiledRule } from "./compiled.ts";
import { RuleSet, prepareAction, termMatches, type PreparedAction, type RuleRef } from "./evaluate.ts";
import { parseRule } from "./parse.ts";

const NOW = new Date(Date.UTC(2026, 10, 18, 10, 0));

function rawApplies(rule: CompiledRule, action: PreparedAction): boolean {
  const domain = rule.actions.domain?.toLowerCase() ?? null;
  if (domain !== null && action.input.domain?.toLowerCase() !== domain) return false;
  return rule.actions.any || rule.actions.terms.some((t) => termMatches(t, action));
}

function missed(refs: RuleRef[], actions: PreparedAction[]): string[] {
  const set = new RuleSet(refs);
  const out: string[] = [];
  for (const a of actions) {
    const woken = new Set(set.woken(a));
    for (const ref of refs) if (rawApplies(ref.rule, a) && !woken.has(ref)) out.push(`${ref.policyName} → ${a.input.tool}`);
  }
  return out;
}

const refOf = (sentence: string, i: number): RuleRef | undefined => {
  const parsed = parseRule(sentence);
  return parsed.ok ? { policyId: `p${i}`, policyName: sentence, version: 1, priority: 0, index: 0, rule: parsed.rule } : undefined;
};

// Tools of many shapes: a bare name, a description, declared parameters, argument values that name things.
const TOOL_NAMES = [
  "send_email", "send_sms", "post_slack_message", "create_purchase_order", "issue_refund", "refund_payment", "delete_customer", "share_document",
  "deploy_service", "rollback_release", "create_vm", "grant_app_access", "export_report", "list_refunds", "cancel_wire", "move_robot",
  "create_payout", "ship_package", "apply_discount", "update_dns_record", "rotate_api_key", "schedule_inspection", "bulk_create_users", "weather_lookup",
];
const ARGS: Record<string, unknown>[] = [
  {},
  { amount: 120, environment: "production", to: "ops@example.org" },
  { tier: "b", region: "eu-west-1", channel: "#general", destination: "loading dock" },
  { cluster: "analytics-prod", database: "db_2", level: "gold", count: 3 },
];

function actionsOf(): PreparedAction[] {
  const out: PreparedAction[] = [];
  for (const tool of TOOL_NAMES) {
    for (const args of ARGS) {
      const params = Object.keys(args);
      out.push(prepareAction({ tool, args, now: NOW }));
      out.push(prepareAction({ tool, args, params, now: NOW, description: `Performs ${tool.replace(/_/g, " ")} for a customer account and records who asked.` }));
      out.push(prepareAction({ tool, args, params: [...params, "schedule", "band"], domain: "ops", now: NOW }));
    }
  }
  return out;
}

describe("rule index", () => {
  const actions = actionsOf();

  it("wakes every rule of our own sentences whose action part matches", () => {
    const effects = ["Block", "Require approval for", "Only allow"];
    const phrases = [
      "refunds", "issuing refunds", "emails", "texting customers", "Slack posts", "POs", "VMs", "purchase orders over $500", "deploys to analytics-prod",
      "changes to db_2", "schedule ii items", "band b shipments", "customer deletions", "sharing documents publicly", "sending payouts", "giving discounts",
      "moving robots into the loading dock", "any action", "anything in production", "API key rotations", "DNS changes", "user imports", "wires",
      "inspections on Sundays", "exports of reports", "gold tier access grants", "package shipments", "refund cancellations",
    ];
    const refs = effects.flatMap((e, i) => phrases.map((p, j) => refOf(`${e} ${p}`, i * 100 + j))).filter((r): r is RuleRef => r !== undefined);
    expect(refs.length).toBeGreaterThan(phrases.length * 2);
    expect(missed(refs, actions)).toEqual([]);
  });

  it("wakes every rule of the generated policy corpus whose action part matches", () => {
    const corpus = buildCorpus();
    const refs = corpus
      .map((e, i) => refOf(e.rule, i))
      .filter((r): r is RuleRef => r !== undefined);
    expect(refs.length).toBeGreaterThan(2000);
    // The corpus's own tools, as its probes name them, with their probe arguments.
    const corpusActions = new Map<string, PreparedAction>();
    for (const e of corpus) {
      for (const p of e.probes) {
        const key = `${p.action}|${p.domain ?? ""}|${Object.keys(p.context).join(",")}`;
        if (!corpusActions.has(key)) corpusActions.set(key, prepareAction({ tool: p.action, args: p.context, domain: p.domain, params: Object.keys(p.context), now: NOW }));
      }
    }
    expect(missed(refs, [...corpusActions.values(), ...actions.slice(0, 60)])).toEqual([]);
    // (Parsing and deciding the whole corpus: more than the default bound on a busy machine.)
  }, 120_000);

  it("leaves out rules about other actions", () => {
    const refs = ["Block refunds over $500", "Require approval for DNS changes", "Block emails to outside addresses"].map(refOf).filter((r): r is RuleRef => r !== undefined);
    const set = new RuleSet(refs);
    expect(set.woken(prepareAction({ tool: "weather_lookup", args: { city: "Oslo" }, now: NOW }))).toEqual([]);
    expect(set.woken(prepareAction({ tool: "issue_refund", args: { amount: 600 }, now: NOW })).map((r) => r.policyName)).toEqual(["Block refunds over $500"]);
  });
});
