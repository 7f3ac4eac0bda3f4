// The intent engine: one conversation in, exactly one decision out, with the trace that explains it.
// Stages (DESIGN §6): understand → capability check → memory lookup → plan → governance → gap analysis →
// decide (blocked → connection required → clarification → execution → direct answer). Deterministic: the
// same workspace state and request give the same decision. Governance reads only the structured action.
import type { Actor } from "../../events/audit.ts";
import type { CatalogIntegration, MemorySearch } from "../ports.ts";
import type { GovernanceVerdict } from "../governance/action.ts";
import type { Tool } from "../../tools/tool.ts";
import type { Decision } from "../governance/evaluate.ts";
import { answerFromMemory, itemText, referredNames, smallTalk, type Answer } from "./answer.ts";
import { signaturesOf } from "./arguments/signature.ts";
import { findersOf, glossNames, nameWords } from "./references.ts";
import { forwardedBody, unquoted } from "./arguments/values.ts";
import { asksHistory, classifyTurn, routeOf, type TurnKind } from "./classify.ts";
import { missingArguments, plan, planFor, questionFor, readToolFor, type PendingTool, type Plan, type PlanInput } from "./plan.ts";
import { StageClock, type Gap, type Stage } from "./trace.ts";
import { PlannerUnavailable, type Planner, type PlannerProposal } from "../planner/planner.ts";
import { AppError } from "../../errors/app-error.ts";

export interface Message {
  role: "user" | "assistant" | "system";
  content: string;
}

export interface EngineInput {
  messages: Message[];
  domain?: string;
  constraints?: Record<string, unknown>;
  mode: "auto" | "chat" | "execution";
  dryRun: boolean;
  /** The tool the conversation's last clarification asked about, kept with the conversation. */
  pending?: PendingTool;
}

/** What the engine reads and does, given by the intent service (no module is imported for its state). */
export interface EnginePorts {
  tools(): Promise<Tool[]>;
  /** Catalog integrations with no tools in the workspace, and the workspace's connection summary. */
  catalog(): Promise<{ integrations: CatalogIntegration[]; installed: Set<string>; active: string[]; total: number; healthy: number }>;
  toolHealth(tool: Tool): "healthy" | "degraded";
  validate(tool: Tool, args: Record<string, unknown>): { field: string; message: string }[] | undefined;
  /** Items related to a question; `earlier`: the user's earlier turns (oldest first), for follow-ups. */
  searchMemory(query: string, earlier?: string[]): Promise<MemorySearch>;
  review(action: { tool: Tool; arguments: Record<string, unknown> }, options: { certainOnly: boolean; escalate: boolean }): Promise<GovernanceVerdict & { decision_detail?: Decision }>;
  policiesActive(): Promise<number>;
  /** The workspace's preference items ("The data team prefers blue-green releases for the billing service"). */
  preferences(): Promise<{ id: string; text: string }[]>;
  /** A model provider (SVC_MODEL_BASE_URL); absent: the embedded planner decides alone. */
  planner?: Planner;
  /** When the provider cannot be reached: fall back to the embedded planner instead of 503. */
  plannerFallback?: boolean;
}

export type Outcome =
  | { type: "direct"; answer: Answer; smallTalk: boolean }
  | { type: "clarify"; tool?: Tool; arguments: Record<string, unknown>; questions: { id: string; field?: string; question: string; type: string; required: boolean; reason: string; options?: string[] }[] }
  | { type: "execution"; tool: Tool; arguments: Record<string, unknown> }
  | { type: "blocked"; tool: Tool; arguments: Record<string, unknown>; verdict: GovernanceVerdict; conditional: boolean }
  | { type: "connect_required"; integration: CatalogIntegration; reason: string; installed: boolean; tool?: Tool; degraded?: boolean };

export interface EngineResult {
  outcome: Outcome;
  kind: TurnKind;
  plan: Plan | undefined;
  stages: Stage[];
  gaps: Gap[];
  memory: { queried: number; used: string[]; healthy: boolean };
  capability: { total: number; healthy: number; active: string[]; matches: number };
  governance: { active: boolean; decision: "approved" | "blocked" | "conditional" | undefined; confidence: number; verdict?: GovernanceVerdict; rulesFired: { policy_id: string; name: string; version: number; clause: string; certain: boolean }[] };
  evidence: string[];
  startedAt: Date;
  durationMs: number;
}

export async function runEngine(input: EngineInput, ports: EnginePorts, actor: Actor, now: () => Date): Promise<EngineResult> {
  const startedAt = now();
  const t0 = performance.now();
  const clock = new StageClock();
  const gaps: Gap[] = [];
  const evidence: string[] = [];
  // A reply that quotes the e-mail it answers is read as its reader sees it (no "> " marks, no "On … wrote:").
  const userTurns = input.messages.filter((m) => m.role === "user").map((m) => unquoted(m.content));
  const lastUser = userTurns.at(-1) ?? "";
  // The assistant's last turn before the user's last one: the question a bare reply ("4 pls") answers.
  const lastUserAt = input.messages.map((m) => m.role).lastIndexOf("user");
  const lastAssistant = input.messages.slice(0, Math.max(lastUserAt, 0)).reverse().find((m) => m.role === "assistant")?.content;
  // The turn's kind (request, question, acknowledgement, answer, correction, insistence…) and the route it
  // takes: an acknowledgement is answered like small talk, never planned again; an answer, a correction
  // or insistence continues the earlier request, which is planned and governed again as a whole.
  const turn = classifyTurn(lastUser, { lastAssistant, earlierTurns: userTurns.length - 1 });
  clock.mark("understand", "passed", `${turn}; ${userTurns.length} user turn(s)`);

  const [tools, catalog] = await Promise.all([ports.tools(), ports.catalog()]);
  const healthyTools = tools.filter((t) => ports.toolHealth(t) === "healthy").length;
  let planned: Plan | undefined;
  let kind = routeOf(turn);
  const planInput = { tools, catalog: catalog.integrations, userTurns, lastAssistant, turn, pending: input.pending };
  // A question about one record a tool can read ("what's the status of ORD-20417?") is a lookup to run
  // when it asks about the record's present state; a question about its history ("what happened to…
  // last month?") is memory's: the tool reads only the present.
  const reader = kind === "question" && !asksHistory(lastUser) ? readToolFor(tools, lastUser) : undefined;
  if (reader) {
    kind = "request";
    planned = planFor(reader, planInput);
  } else if (kind === "request") planned = plan(planInput);

  // A model provider proposes first (a tool with arguments, or a grounded answer); a connection the request
  // names is still decided by the embedded rules, and everything after (validation, governance, gaps) is
  // the same for both.
  let proposal: PlannerProposal | undefined;
  let proposalMemory: MemorySearch | undefined;
  if (ports.planner && kind !== "small_talk" && planned?.kind !== "connect") {
    try {
      proposalMemory = await ports.searchMemory(lastUser);
      proposal = await ports.planner.propose({ messages: input.messages, tools, memory: proposalMemory.hits, domain: input.domain });
    } catch (error) {
      if (!(error instanceof PlannerUnavailable) || !ports.plannerFallback) {
        throw new AppError("routing_unavailable", { message: `The model provider could not be reached (${(error as Error).message.slice(0, 200)}).`, cause: error });
      }
      evidence.push(`model provider unavailable, embedded planner used: ${(error as Error).message.slice(0, 120)}`);
    }
    const proposed = proposal?.kind === "tool" ? proposal : undefined;
    if (proposed) {
      const tool = tools.find((t) => t.name === proposed.tool);
      if (tool) {
        planned = { kind: "tool", tool, arguments: proposed.arguments ?? {}, candidates: [{ item: tool, score: 1, matched: [], nameMatched: [] }], continued: false };
        evidence.push(`model ${ports.planner.name} chose ${tool.name}`);
      } else {
        evidence.push(`model ${ports.planner.name} proposed an unknown tool ${String(proposed.tool).slice(0, 64)}; ignored`);
        planned = { kind: "none", candidates: [] };
      }
    }
  }
  const matches = planned && "candidates" in planned ? planned.candidates.length : 0;
  clock.mark("capability_check", planned?.kind === "connect" ? "failed" : "passed", planned ? describePlan(planned) : "no action requested", {
    tools: tools.length,
    candidates: planned && "candidates" in planned ? planned.candidates.map((c) => ({ tool: c.item.name, score: Math.round(c.score * 1000) / 1000 })) : [],
  });
  const capability = { total: tools.length, healthy: healthyTools, active: catalog.active, matches };

  const memory = { queried: 0, used: [] as string[], healthy: true };
  const base = { kind: turn, plan: planned, gaps, memory, capability, evidence, startedAt };
  const finish = (outcome: Outcome, governance: EngineResult["governance"]): EngineResult => {
    clock.mark("decide", "passed", outcome.type);
    return { ...base, outcome, governance, stages: clock.stages, durationMs: Math.round(performance.now() - t0) };
  };
  const noGovernance = async (): Promise<EngineResult["governance"]> => ({ active: (await ports.policiesActive()) > 0, decision: undefined, confidence: 1, rulesFired: [] });

  // The model answered in words: grounded only in the memory items it was given.
  if (proposal?.kind === "answer" || (proposal?.kind === "none" && planned?.kind !== "tool")) {
    const hits = proposalMemory?.hits ?? [];
    const used = proposal.kind === "answer" ? proposal.used.filter((id) => hits.some((h) => h.id === id)) : [];
    memory.queried = hits.length;
    memory.used = used;
    const known = used.length > 0;
    const content = proposal.kind === "answer" && proposal.content.trim() !== "" ? proposal.content : "I don't know: nothing in this workspace's memory answers that.";
    clock.mark("memory_lookup", "passed", known ? `model answered from ${used.join(", ")}` : "model answered with no memory item");
    if (!known) gaps.push({ kind: "no_knowledge", reason: "The answer rests on no memory item.", blocking: false, severity: "medium" });
    clock.mark("gap_analysis", "passed", `${gaps.length} gap(s)`);
    return finish({ type: "direct", answer: { content, used, coverage: known ? 1 : 0, known }, smallTalk: false }, await noGovernance());
  }

  // A question or small talk: answered, never acted on (a domain-wide rule governs actions, not answers),
  // unless a model provider chose a tool for it ("is ORD-1 shipped yet?" → get_order).
  const modelChoseTool = proposal?.kind === "tool" && planned?.kind === "tool";
  if ((kind !== "request" && !modelChoseTool) || planned?.kind === "none") {
    if (kind === "small_talk") {
      clock.mark("memory_lookup", "skipped", "small talk");
      return finish({ type: "direct", answer: { content: smallTalk(lastUser), used: [], coverage: 1, known: true }, smallTalk: true }, await noGovernance());
    }
    let result: MemorySearch;
    const earlier = userTurns.slice(0, -1);
    // A forwarded question is asked without its e-mail's headers (whose names and subject would be looked up).
    const question = forwardedBody(lastUser);
    // Whom a pronoun of the question refers to, named in the assistant's last turn, is looked up too.
    const referred = referredNames(question, lastAssistant);
    try {
      result = await ports.searchMemory(question, referred.length > 0 ? [...earlier, referred.join(" ")] : earlier);
    } catch {
      memory.healthy = false;
      result = { hits: [], match: "none" };
    }
    memory.queried = result.hits.length;
    const answer = answerFromMemory(question, result.hits, { corrected: result.corrected, frequencies: result.frequencies, earlier, said: lastAssistant });
    memory.used = answer.used;
    clock.mark("memory_lookup", memory.healthy ? "passed" : "degraded", answer.known ? `answered from ${answer.used.join(", ")} (coverage ${answer.coverage.toFixed(2)})` : `no item covers the question (best coverage ${answer.coverage.toFixed(2)})`);
    if (!answer.known) gaps.push({ kind: "no_knowledge", reason: "No memory item answers the question.", blocking: false, severity: "medium" });
    if (kind === "request") gaps.push({ kind: "missing_capability", reason: "No connected tool or catalog integration matches the request.", blocking: false, severity: "low" });
    clock.mark("gap_analysis", "passed", `${gaps.length} gap(s)`);
    return finish({ type: "direct", answer, smallTalk: false }, await noGovernance());
  }
  clock.mark("memory_lookup", "skipped", "an action was requested");

  if (planned!.kind === "connect") {
    const p = planned as Extract<Plan, { kind: "connect" }>;
    // Governance first: a forbidden action is blocked even when its integration is missing ("never send
    // messages through Slack" while Slack is not connected). The action is the catalog capability the
    // request asks for; only rules that fire with certainty decide, as no argument is known yet.
    const catalogTool = catalogAction(p.integration, lastUser);
    const catalogVerdict = await ports.review({ tool: catalogTool, arguments: { integration: p.integration.id } }, { certainOnly: true, escalate: !input.dryRun });
    if (catalogVerdict.decision !== "approved") {
      const detail = catalogVerdict.decision_detail;
      const governance: EngineResult["governance"] = {
        active: true,
        decision: catalogVerdict.decision,
        confidence: detail?.fired ? (detail.fired.certain ? 1 : 0.9) : 1,
        verdict: catalogVerdict,
        rulesFired: (detail?.matched ?? []).map((m) => ({ policy_id: m.ref.policyId, name: m.ref.policyName, version: m.ref.version, clause: m.ref.rule.source, certain: m.certain })),
      };
      clock.mark("governance_eval", "blocked", catalogVerdict.reason);
      gaps.push({ kind: "policy", reason: catalogVerdict.reason, blocking: true, severity: "blocking" });
      clock.mark("gap_analysis", "blocked", catalogVerdict.reason);
      return finish({ type: "blocked", tool: catalogTool, arguments: {}, verdict: catalogVerdict, conditional: catalogVerdict.decision === "conditional" }, governance);
    }
    gaps.push({ kind: "missing_capability", capability: p.integration.id, reason: p.reason, blocking: true, severity: "blocking" });
    clock.mark("governance_eval", "passed", "no rule forbids the integration's action");
    clock.mark("gap_analysis", "blocked", p.reason);
    return finish({ type: "connect_required", integration: p.integration, reason: p.reason, installed: catalog.installed.has(p.integration.id) }, await noGovernance());
  }

  if (planned!.kind === "ambiguous") {
    const p = planned as Extract<Plan, { kind: "ambiguous" }>;
    const names = p.candidates.map((c) => c.item.name);
    gaps.push({ kind: "ambiguous_tool", reason: `The request fits ${names.join(" and ")} equally.`, blocking: true, severity: "blocking" });
    clock.mark("governance_eval", "skipped", "no action chosen yet");
    clock.mark("gap_analysis", "failed", `ambiguous between ${names.join(", ")}`);
    return finish(
      {
        type: "clarify",
        arguments: {},
        questions: [{ id: "q1", question: `Which should I do: ${p.candidates.map((c) => `${c.item.name} (${c.item.description.split(/(?<=\.)\s/)[0]})`).join(", or ")}?`, type: "choice", required: true, reason: "Two tools fit the request equally.", options: names }],
      },
      await noGovernance(),
    );
  }

  const p = planned as Extract<Plan, { kind: "tool" }>;
  const tool = p.tool;
  const args = { ...p.arguments };
  await codesFromMemory(p, planInput, args, ports, evidence);
  const invalid = Object.keys(args).length > 0 ? (ports.validate(tool, args) ?? []) : [];
  // A value that breaks the schema is asked for again rather than sent.
  for (const detail of invalid) {
    const key = detail.field.replace(/^arguments\./, "").split(".")[0]!;
    if (key in args) delete args[key];
  }
  await fillFromPreferences(tool, args, input.constraints, ports, evidence);
  if (Object.keys(args).length > 0) {
    for (const detail of ports.validate(tool, args) ?? []) {
      const key = detail.field.replace(/^arguments\./, "").split(".")[0]!;
      if (key in args && !(key in p.arguments)) delete args[key];
    }
  }
  const missing = missingArguments(tool, args);
  evidence.push(`tool ${tool.name} (score ${p.candidates[0]?.score.toFixed(2)})`, `arguments: ${Object.keys(args).join(", ") || "none"}`);
  clock.mark("plan", missing.length > 0 ? "degraded" : "passed", `${tool.name}: ${Object.keys(args).length} argument(s) filled, missing ${missing.join(", ") || "none"}`, { tool: tool.name, filled: Object.keys(args), missing });

  // With arguments still missing, only rules that fire on what is known decide now (a rule that fires
  // because a value is missing waits for the answer); a certain approval rule escalates at once.
  const verdict = await ports.review({ tool, arguments: args }, { certainOnly: missing.length > 0, escalate: !input.dryRun });
  const detail = verdict.decision_detail;
  const governance: EngineResult["governance"] = {
    active: (await ports.policiesActive()) > 0,
    decision: verdict.decision,
    confidence: detail?.fired ? (detail.fired.certain ? 1 : 0.9) : 1,
    verdict,
    rulesFired: (detail?.matched ?? []).map((m) => ({ policy_id: m.ref.policyId, name: m.ref.policyName, version: m.ref.version, clause: m.ref.rule.source, certain: m.certain })),
  };
  clock.mark("governance_eval", verdict.decision === "approved" ? "passed" : "blocked", verdict.reason);

  if (verdict.decision === "blocked" || verdict.decision === "conditional") {
    gaps.push({ kind: "policy", reason: verdict.reason, blocking: true, severity: "blocking" });
    clock.mark("gap_analysis", "blocked", verdict.reason);
    if (verdict.decision === "conditional") clock.mark("escalation", "passed", verdict.escalationId ? `escalation ${verdict.escalationId} opened` : "approval needed (dry run: no escalation)");
    return finish({ type: "blocked", tool, arguments: args, verdict, conditional: verdict.decision === "conditional" }, governance);
  }

  const health = ports.toolHealth(tool);
  if (health === "degraded") {
    const alternative = p.candidates.slice(1).find((c) => ports.toolHealth(c.item) === "healthy" && c.score >= p.candidates[0]!.score * 0.85);
    if (!alternative) {
      gaps.push({ kind: "degraded_capability", capability: tool.name, reason: `${tool.name} is failing (its connection is degraded).`, blocking: true, severity: "blocking" });
      clock.mark("gap_analysis", "degraded", `${tool.name} is degraded`);
      return finish({ type: "connect_required", integration: { id: tool.connectionId ?? tool.name, name: tool.name, description: tool.description, category: "other", capabilities: [], auth_type: "api_key", provider: "", hosts: [], tags: [], install_time: "", popularity: 0, featured: false }, reason: `${tool.name} is degraded: its recent calls failed.`, installed: true, tool, degraded: true }, governance);
    }
  }

  if (missing.length > 0) {
    for (const key of missing) gaps.push({ kind: "missing_argument", field: key, reason: `${key} is required by ${tool.name}.`, blocking: true, severity: "blocking" });
    clock.mark("gap_analysis", "failed", `missing ${missing.join(", ")}`);
    const questions = missing.map((key, i) => {
      const props = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
      const options = Array.isArray(props[key]?.enum) ? (props[key]!.enum as unknown[]).map(String) : undefined;
      const invalidDetail = invalid.find((d) => d.field.replace(/^arguments\./, "").startsWith(key));
      return {
        id: `q${i + 1}`,
        field: key,
        question: questionFor(tool, key),
        type: options ? "choice" : "open",
        required: true,
        reason: invalidDetail ? `The value given for ${key} ${invalidDetail.message}.` : `${tool.name} needs ${key}.`,
        ...(options ? { options } : {}),
      };
    });
    return finish({ type: "clarify", tool, arguments: args, questions }, governance);
  }

  clock.mark("gap_analysis", "passed", "nothing missing");
  return finish({ type: "execution", tool, arguments: args }, governance);
}

function describePlan(p: Plan): string {
  switch (p.kind) {
    case "tool":
      return `${p.tool.name}${p.continued ? " (from the earlier turns)" : ""}`;
    case "ambiguous":
      return `ambiguous: ${p.candidates.map((c) => c.item.name).join(", ")}`;
    case "connect":
      return `needs ${p.integration.name}`;
    case "none":
      return "no tool matches";
  }
}

/**
 * Codes (and enum values written as identifiers) for the names the request uses, from the workspace's
 * reference items (references.ts): only for parameters still empty, and only the values the glossed turns
 * then give them.
 */
async function codesFromMemory(p: Extract<Plan, { kind: "tool" }>, input: PlanInput, args: Record<string, unknown>, ports: EnginePorts, evidence: string[]): Promise<void> {
  const shapes = signaturesOf(p.tool.parameters).filter((s) => args[s.key] === undefined);
  const finders = findersOf(shapes);
  const names = finders.length > 0 ? nameWords(input.userTurns) : [];
  if (names.length === 0) return;
  let hits: MemorySearch["hits"];
  try {
    hits = (await ports.searchMemory(names.join(" "))).hits;
  } catch {
    return; // memory is a help here, never a requirement: the parameter is asked for instead
  }
  const gloss = glossNames(input.userTurns, hits.map((h) => ({ id: h.id, text: itemText(h) })), finders);
  if (gloss.glossed.length === 0) return;
  const again = planFor(p.tool, { ...input, userTurns: gloss.turns });
  for (const shape of shapes) {
    const value = again.arguments[shape.key];
    const from = gloss.glossed.find((g) => g.code === value);
    if (!from) continue;
    args[shape.key] = value;
    evidence.push(`${shape.key} ${from.code} for "${from.name}" from memory item ${from.source}`);
  }
}

/**
 * Values the conversation leaves open, from the caller's `context.constraints` (a parameter of the same
 * name) and from the workspace's preferences: a preference item that names one of a missing enum
 * parameter's values and something this action is about (a value it already has, or the tool's subject)
 * fills it ("The data team prefers blue-green releases for the billing service" → strategy: blue-green when
 * deploying the billing service). The conversation's own values are never replaced.
 */
async function fillFromPreferences(tool: Tool, args: Record<string, unknown>, constraints: Record<string, unknown> | undefined, ports: EnginePorts, evidence: string[]): Promise<void> {
  const props = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  if (constraints && typeof constraints === "object" && !Array.isArray(constraints)) {
    for (const [key, value] of Object.entries(constraints)) {
      if (props[key] && args[key] === undefined && (typeof value === "string" || typeof value === "number" || typeof value === "boolean")) {
        args[key] = value;
        evidence.push(`${key} from context.constraints`);
      }
    }
  }
  const open = Object.entries(props).filter(([key, schema]) => args[key] === undefined && Array.isArray(schema.enum) && (schema.enum as unknown[]).every((v) => typeof v === "string"));
  if (open.length === 0) return;
  const anchors = Object.values(args).filter((v): v is string => typeof v === "string" && v.length >= 3);
  if (anchors.length === 0) return;
  const found = await ports.preferences();
  for (const [key, schema] of open) {
    for (const item of found) {
      const text = item.text.toLowerCase();
      const about = anchors.some((a) => text.includes(a.toLowerCase()));
      if (!about) continue;
      const values = (schema.enum as string[]).filter((v) => new RegExp(`(?<![a-z0-9])${v.toLowerCase().replace(/[_-]/g, "[ _-]")}(?![a-z0-9])`).test(text));
      if (values.length === 1) {
        args[key] = values[0];
        evidence.push(`${key} from preference ${item.id}`);
        break;
      }
    }
  }
}

/**
 * A catalog integration's capability as a tool governance can judge: named after the capability that best
 * matches the request ("slack_send_message"), with no arguments but the integration's id.
 */
function catalogAction(integration: CatalogIntegration, request: string): Tool {
  const asked = new Set(request.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean));
  let best = integration.capabilities[0] ?? integration.name;
  let bestScore = -1;
  for (const capability of integration.capabilities) {
    const score = capability.toLowerCase().split(/\s+/).filter((w) => asked.has(w) || asked.has(`${w}s`) || asked.has(w.replace(/s$/, ""))).length;
    if (score > bestScore) {
      best = capability;
      bestScore = score;
    }
  }
  const name = `${integration.id}_${best.toLowerCase().replace(/[^a-z0-9]+/g, "_")}`.slice(0, 64);
  return {
    name,
    description: `${integration.name}: ${best}`,
    parameters: { type: "object", properties: { integration: { type: "string" } } },
    source: "builtin",
    connectionId: undefined,
    invoke: () => Promise.reject(new Error(`${integration.name} is not connected`)),
    health: () => "degraded",
  };
}
