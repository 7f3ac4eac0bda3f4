// Chat completions: an OpenAI chat request in, one governed assistant turn out. The intent engine decides
// (the embedded planner, or the configured model provider) over the workspace's tools and the request's
// client tools together; every proposed call goes through the governance chokepoint. Approved client calls
// come back as `tool_calls`; approved server calls run here (tools.run, as executions do) and are reported
// in words; a call needing approval becomes a yes/no question kept with the conversation; a blocked call is
// never returned or run.
import { governedAction } from "../../engine/governance/action.ts";
import { countTokens, decode, encode } from "gpt-tokenizer/encoding/o200k_base";
import type { Clock } from "../../clock.ts";
import type { Governance } from "../../engine/governance/chokepoint.ts";
import { questionWords } from "../../engine/intent/answer.ts";
import { runEngine, type EnginePorts, type EngineResult, type Message } from "../../engine/intent/engine.ts";
import { decideParts, type SplitDecision } from "../../engine/intent/split.ts";
import { dateOrderOf, extractArguments } from "../../engine/intent/extract.ts";
import { missingArguments, questionFor } from "../../engine/intent/plan.ts";
import type { Planner } from "../../engine/planner/planner.ts";
import { AppError, type ErrorDetail } from "../../errors/app-error.ts";
import type { Actor } from "../../events/audit.ts";
import type { GateValue } from "../../http/gate.ts";
import { randomBase62, type Ids } from "../../ids.ts";
import { CATALOG } from "../connections/catalog.ts";
import type { ConnectionService } from "../connections/service.ts";
import { redactAction } from "../escalations/service.ts";
import { intentToWire } from "../intent/schemas.ts";
import type { RecordWriter } from "../intent/records.ts";
import { pendingAfter, type ConversationService, type PendingTool } from "../conversations/service.ts";
import type { MemoryService } from "../memory/service.ts";
import { maskSecrets, maskStrings, type SecretValues } from "../memory/secrets.ts";
import type { PolicyService } from "../policies/service.ts";
import type { GovernanceVerdict } from "../../engine/governance/action.ts";
import type { ToolService } from "../tools/service.ts";
import type { JsonSchema, Tool } from "../../tools/tool.ts";
import { functionDefinition, MAX_MEMORY_ITEMS, memoryBlock } from "../../engine/planner/openai.ts";
import type { Upstream, UpstreamToolCall } from "./upstream.ts";
import { chatTrace } from "./trace.ts";
import { StageClock, type Gap } from "../../engine/intent/trace.ts";
import { createClientTools, type ToolSet } from "./client-tools.ts";

/** How long a pending confirmation waits for the user's yes or no. */
export const PENDING_TTL_MS = 15 * 60_000;
const MAX_TURNS = 20;

export interface ChatPart {
  type?: string;
  text?: string;
  [key: string]: unknown;
}

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content?: string | ChatPart[] | null;
  name?: string;
  tool_calls?: { id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
  tool_call_id?: string;
}

export interface ChatFunction {
  type?: string;
  function?: { name?: string; description?: string | null; parameters?: JsonSchema | null };
}

export interface ChatRequest {
  model?: string;
  messages: ChatMessage[];
  tools?: ChatFunction[];
  tool_choice?: "none" | "auto" | "required" | { type?: string; function?: { name?: string } };
  conversation_id?: string;
  memory?: boolean;
  context?: { memory?: boolean; domain?: string };
  max_tokens?: number;
  max_completion_tokens?: number;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  user?: string;
  user_id?: string;
}

export interface PendingAction {
  tool: string;
  arguments: Record<string, unknown>;
  confirm_with: "yes";
  expires_at: number;
}

export interface ChatAnswer {
  id: string;
  created: number;
  model: string;
  conversationId: string;
  traceId: string;
  content: string | null;
  toolCalls: ChatToolCall[];
  finishReason: "stop" | "tool_calls" | "length";
  gate: GateValue;
  pendingActions: PendingAction[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  intelligence: Record<string, unknown>;
}

/** What a streamed answer needs before its first content delta (the role chunk). */
export interface ChatHead {
  id: string;
  created: number;
  model: string;
  conversationId: string;
}

export interface ChatService {
  /** True when a configured upstream model answers (content is then forwarded as it comes). */
  readonly upstream: boolean;
  /**
   * One governed assistant turn. `dryRun` (a replay): decided the same way, but no server tool runs, no
   * approval is recorded, and neither the conversation nor a record is written.
   */
  complete(
    actor: Actor,
    request: ChatRequest,
    options: {
      traceId: string;
      onContent?: (piece: string, head: ChatHead) => void;
      dryRun?: boolean;
      /** A replay: the confirmation that was open when the turn came (answered by it, or asked again). */
      openConfirmation?: PendingConfirmation;
    },
  ): Promise<ChatAnswer>;
}

/** Rounds with the upstream in one turn: the first, plus at most two carrying server tool results back. */
export const MAX_UPSTREAM_ROUNDS = 3;

/** A call waiting for the user's yes or no, kept with the conversation. */
export interface PendingConfirmation {
  tool: string;
  arguments: Record<string, unknown>;
  client: boolean;
  expires_at: number;
}

/** The stored state of a chat conversation (in `conversations.state`). */
interface ChatState {
  kind: "chat";
  messages: Message[];
  pending?: PendingConfirmation;
}

const YES = /^(?:y|yes|yeah|yep|yup|sure|ok|okay|k|go|go ahead|do it|approve|approved|confirm|confirmed|proceed|please do|affirmative|absolutely|of course|sounds good|lgtm)$/;
const NO = /^(?:n|no|nope|nah|cancel|skip|stop|abort|deny|denied|reject|don'?t|do not|never ?mind|not now|no thanks|no thank you|negative)$/;

/** A confirmation answer: "yes", "Sure, go ahead!", "no thanks", "don't", or neither. */
export function confirmationOf(text: string): "yes" | "no" | undefined {
  const t = text
    .toLowerCase()
    .replace(/[’]/g, "'")
    .replace(/[^a-z' ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (t === "") return undefined;
  if (YES.test(t) || NO.test(t)) return YES.test(t) ? "yes" : "no";
  // Two short phrases ("sure go ahead", "no don't", "yes please"): the first word or two decide.
  const wordsOf = t.split(" ");
  if (wordsOf.length > 5) return undefined;
  for (const n of [2, 1]) {
    const head = wordsOf.slice(0, n).join(" ");
    const rest = wordsOf.slice(n).join(" ");
    const restOk = (re: RegExp) => rest === "" || re.test(rest) || /^(?:please|thanks|thank you|then|now|it)$/.test(rest);
    if (YES.test(head) && restOk(YES)) return "yes";
    if (NO.test(head) && restOk(NO)) return "no";
  }
  return undefined;
}

/** The words of a message: text parts read, other parts (images, audio, files) noted. */
export function textOf(content: ChatMessage["content"], noted?: string[]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const part of content) {
    if (part && typeof part === "object" && part.type === "text" && typeof part.text === "string") texts.push(part.text);
    else if (part && typeof part === "object") noted?.push(String(part.type ?? "unknown"));
  }
  return texts.join("\n");
}

const tokens = (text: string) => (text ? countTokens(text) : 0);

function summarise(value: unknown, max = 600): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  text = maskSecrets(text ?? "");
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function policyWords(verdict: GovernanceVerdict): string {
  return verdict.policy ? `policy "${verdict.policy.name}" (${verdict.policy.clause})` : "governance";
}

/** A server tool run in this turn, as the answer (and a model's next round) reports it. */
type ServerRun = { tool: Tool; args: Record<string, unknown>; status: string; result: unknown; error?: string | null };

/** What `complete` is given besides the request. */
type CompleteOptions = Parameters<ChatService["complete"]>[2];

/**
 * One chat turn as it is decided: what came in (the request, its tools, the conversation kept so far), what
 * the trace reports when the engine does not decide, and the answer as it forms. Each path of the turn
 * (tool results, a confirmation, a forced tool, the upstream model, the engine) fills it; `finish` turns it
 * into the answer, the conversation kept and the record.
 */
interface Turn {
  actor: Actor;
  request: ChatRequest;
  options: CompleteOptions;
  workspaceId: string;
  id: string;
  created: number;
  conversationId: string;
  memoryOn: boolean;
  domain: string | undefined;
  /** Fetched beside the turn's work; awaited only to record. */
  knownSecrets: Promise<SecretValues> | undefined;
  startedAt: Date;
  t0: number;

  toolSet: ToolSet;
  /** The client's tools, then the workspace's (a client tool hides a server tool of the same name). */
  all: Tool[];
  /** What may be called: none for tool_choice "none", the forced one, else all. */
  offered: Tool[];
  forced: Tool | undefined;
  promptCount?: number;

  /** The request's own turns, and the conversation they continue (stored turns first, when memory is on). */
  requestTurns: Message[];
  turns: Message[];
  state: ChatState | undefined;
  /** The tool the conversation's last clarification asked about (kept with the conversation). */
  asking: PendingTool | undefined;
  last: ChatMessage;
  lastText: string;
  confirmation: "yes" | "no" | undefined;

  // What the trace reports when the engine did not decide (upstream answers, confirmations, tool results).
  evidence: string[];
  stages: StageClock;
  verdicts: { tool: string; verdict: GovernanceVerdict }[];
  gaps: Gap[];
  memoryFacts: { healthy: boolean; queried: number; used: string[]; consulted: boolean };
  summary: string;
  /** The model's words reached the client already (streamed): a failure can then no longer fall back. */
  streamedAny: boolean;
  answeredByModel: boolean;
  proposedCalls: number;

  // The answer as it forms.
  content: string;
  toolCalls: ChatToolCall[];
  lastRun: ServerRun | undefined;
  gate: GateValue;
  /** The call this turn asks a yes or no for. */
  pending: PendingConfirmation | undefined;
  /** Further calls needing approval in the same message: named, not asked. */
  deferred: string[];
  /** Calls that went through `proceed`: returned to the client, run here, or (replay) would have run. */
  proceeded: number;
  engine: EngineResult | undefined;
  decision: string;
  verdictReason: string | undefined;
  /** The clarification this turn leaves open about a tool. */
  nextAsking: PendingTool | undefined;
}


export function createChatService(deps: {
  conversations: ConversationService;
  ids: Ids;
  clock: Clock;
  tools: ToolService;
  connections: ConnectionService;
  memory: MemoryService;
  policies: PolicyService;
  governance: Governance;
  planner?: Planner;
  plannerFallback?: boolean;
  /** The configured OpenAI-compatible upstream: when set, it answers instead of the engine's planner. */
  upstream?: Upstream;
  /** Where the turn's intelligence record goes (written behind the answer: see records.ts). */
  records: RecordWriter;
  /** The workspace's stored secret values, masked wherever a turn is recorded. */
  knownSecrets?: (workspaceId: string) => Promise<SecretValues>;
  /** Told each turn's decision (metrics): the status its record gets (answered, tool_calls, blocked_by_policy, …). */
  onDecision?: (type: string) => void;
}): ChatService {
  const { conversations, ids, clock, tools, connections, memory, policies, governance } = deps;
  const toolSetOf = createClientTools();

  /** The request's prompt tokens (usage): counted once, while the upstream thinks when there is one. */
  const promptTokens = (t: Turn) =>
    (t.promptCount ??= tokens(t.request.messages.map((m) => `${m.role}\n${textOf(m.content)}${m.tool_calls ? JSON.stringify(m.tool_calls) : ""}`).join("\n")) + (t.toolSet.tokens ??= tokens(t.toolSet.json)));
  const isClient = (t: Turn, tool: Tool) => t.toolSet.client.get(tool.name)?.tool === tool;

  /** The turn as it comes: its tools, the conversation it continues, and an empty answer. */
  async function openTurn(actor: Actor, request: ChatRequest, options: CompleteOptions): Promise<Turn> {
    const workspaceId = actor.workspaceId;
    const knownSecrets = options.dryRun ? undefined : deps.knownSecrets?.(workspaceId);
    knownSecrets?.catch(() => {});
    const created = Math.floor(clock.now().getTime() / 1000);
    const id = ids.make("int");
    const conversationId = request.conversation_id ?? ids.make("conv");
    const memoryOn = request.memory !== false && request.context?.memory !== false;
    const domain = typeof request.context?.domain === "string" ? request.context.domain : undefined;
    const noted: string[] = [];
    const evidence: string[] = [];
    const startedAt = clock.now();
    const t0 = performance.now();

    const toolSet = toolSetOf(request.tools);
    const client = toolSet.client;
    const serverTools = await tools.list(workspaceId);
    const all = [...[...client.values()].map((c) => c.tool), ...serverTools.filter((t) => !client.has(t.name))];
    const choice = request.tool_choice;
    const forced = typeof choice === "object" && choice?.function?.name ? all.find((t) => t.name === choice.function!.name) : undefined;
    if (typeof choice === "object" && choice?.function?.name && !forced) {
      throw new AppError("invalid_request", { message: `tool_choice names ${choice.function.name}, which is neither in tools nor a tool of this workspace.`, details: [{ field: "tool_choice.function.name", message: "unknown function" }] });
    }
    const offered = choice === "none" ? [] : forced ? [forced] : all;

    // The conversation: the request's turns, after the stored ones when memory is on and the request does
    // not repeat them (no assistant turn in it).
    const requestTurns: Message[] = [];
    for (const m of request.messages) {
      if (m.role === "tool") continue;
      let content = textOf(m.content, noted);
      if (m.role === "assistant" && m.tool_calls?.length && !content) content = `Called ${m.tool_calls.map((c) => c.function?.name ?? "a tool").join(", ")}.`;
      requestTurns.push({ role: m.role === "developer" ? "system" : m.role, content });
    }
    if (noted.length > 0) evidence.push(`non-text parts accepted and not read: ${[...new Set(noted)].join(", ")}`);
    const stored = request.conversation_id ? await conversations.get(workspaceId, conversationId) : undefined;
    const kept: ChatState | undefined = stored && stored.state.kind === "chat" ? (stored.state as unknown as ChatState) : undefined;
    // A replayed yes or no answers the action its turn answered, decided against today's policies (not
    // expired: the question is what would be decided, not when); a replayed tool-results turn asks it again.
    const state: ChatState | undefined =
      options.dryRun && options.openConfirmation ? { kind: "chat", messages: kept?.messages ?? [], pending: { ...options.openConfirmation, expires_at: Number.MAX_SAFE_INTEGER } } : kept;
    let turns = requestTurns;
    if (memoryOn && state && !requestTurns.some((m) => m.role === "assistant")) turns = [...state.messages, ...requestTurns];
    else if (!memoryOn) evidence.push("memory: false; nothing outside the request was used");
    const last = request.messages.at(-1)!;
    const lastText = last.role === "user" ? textOf(last.content) : "";

    return {
      actor,
      request,
      options,
      workspaceId,
      id,
      created,
      conversationId,
      memoryOn,
      domain,
      knownSecrets,
      startedAt,
      t0,
      toolSet,
      all,
      offered,
      forced,
      requestTurns,
      turns,
      state,
      asking: kept && memoryOn ? stored?.pending : undefined,
      last,
      lastText,
      confirmation: state?.pending && last.role === "user" ? confirmationOf(lastText) : undefined,
      evidence,
      stages: new StageClock(),
      verdicts: [],
      gaps: [],
      memoryFacts: { healthy: true, queried: 0, used: [], consulted: false },
      summary: "",
      streamedAny: false,
      answeredByModel: false,
      proposedCalls: 0,
      content: "",
      toolCalls: [],
      lastRun: undefined,
      gate: "ok",
      pending: undefined,
      deferred: [],
      proceeded: 0,
      engine: undefined,
      decision: "none",
      verdictReason: undefined,
      nextAsking: undefined,
    };
  }

  // ---- Governance of one call, shared by every path.

  function validate(t: Turn, tool: Tool, args: Record<string, unknown>): ErrorDetail[] | undefined {
    const c = t.toolSet.client.get(tool.name);
    if (c && c.tool === tool) {
      if (!c.validate || c.validate(args)) return undefined;
      return (c.validate.errors ?? []).map((e) => ({ field: `arguments${e.instancePath.replace(/\//g, ".")}`, message: e.message ?? "is not valid" }));
    }
    return tools.validate(tool, args);
  }

  async function review(t: Turn, tool: Tool, args: Record<string, unknown>, certainOnly = false) {
    const verdict = await governance.review(governedAction(tool, args, { caller: t.actor, domain: t.domain }), { certainOnly, escalate: false });
    // A partial review (arguments still missing) decides only when it blocks.
    if (!certainOnly || verdict.decision === "blocked") {
      t.verdicts.push({ tool: tool.name, verdict });
      t.stages.mark("governance_eval", verdict.decision === "approved" ? "passed" : "blocked", `${tool.name}: ${verdict.decision}`);
    }
    return verdict;
  }

  function blockedAnswer(t: Turn, tool: Tool, verdict: GovernanceVerdict): void {
    t.gate = "blocked";
    t.decision = "blocked";
    t.verdictReason = verdict.reason;
    t.content = `I can't do that: ${tool.name} is blocked by ${policyWords(verdict)}. Nothing was run. ${verdict.reason}`;
    t.summary = `Blocked ${tool.name} by ${policyWords(verdict)}; nothing was returned or run.`;
  }

  function askConfirmation(t: Turn, tool: Tool, args: Record<string, unknown>, verdict: GovernanceVerdict): void {
    // A yes or no answers one action: a second one to ask in the same turn (several requests in one
    // message) is named, not asked, and runs nothing.
    if (t.pending) {
      t.deferred.push(tool.name);
      t.content = `${tool.name} also needs approval under ${policyWords(verdict)}; nothing was run. Ask for it again once the question above is answered.`;
      return;
    }
    t.gate = "escalate";
    t.decision = "conditional";
    t.verdictReason = verdict.reason;
    t.pending = { tool: tool.name, arguments: args, client: isClient(t, tool), expires_at: Math.floor((clock.now().getTime() + PENDING_TTL_MS) / 1000) };
    t.summary = `${tool.name} needs the user's approval under ${policyWords(verdict)}; asked for a yes or no.`;
    t.content = `${tool.name}${shownArguments(args)} needs approval under ${policyWords(verdict)}. Answer yes to proceed or no to skip.`;
  }

  /** An approved (or user-confirmed) call: the client's comes back as a tool call, the server's runs here. */
  async function proceed(t: Turn, tool: Tool, args: Record<string, unknown>, confirmed?: GovernanceVerdict): Promise<void> {
    const action = () => governedAction(tool, args, { caller: t.actor, domain: t.domain });
    const dryRun = t.options.dryRun;
    if (isClient(t, tool)) {
      // An approved client call runs on the client: it is recorded here, so rate rules count it.
      if (!dryRun) await governance.record(action());
      t.proceeded++;
      t.toolCalls.push(callFor(tool, args));
      t.decision = confirmed ? "conditional" : "approved";
      t.summary = `Returned ${tool.name} to the client as an approved tool call${confirmed ? " (the user said yes)" : ""}.`;
      return;
    }
    // The gate right before the call: `govern` records the approval (rate rules); a confirmed call was
    // reviewed again just before (a block added since still wins) and the user's yes is its approval.
    const verdict = confirmed ?? (dryRun ? await review(t, tool, args) : await governance.govern(action()));
    // The user's yes is the approval of a confirmed call: recorded like one for rate rules.
    if (confirmed && !dryRun) await governance.record(action());
    if (!confirmed && !dryRun) {
      t.verdicts.push({ tool: tool.name, verdict });
      t.stages.mark("governance_eval", verdict.decision === "approved" ? "passed" : "blocked", `${tool.name}: ${verdict.decision} (at the call)`);
    }
    if (verdict.decision === "blocked") return blockedAnswer(t, tool, verdict);
    if (verdict.decision === "conditional" && !confirmed) return askConfirmation(t, tool, args, verdict);
    t.decision = verdict.decision;
    t.proceeded++;
    if (dryRun) {
      t.summary = `Would run ${tool.name} on the server (a replay runs nothing).`;
      t.content = `Would run ${tool.name} with ${summarise(redactAction(args), 300)}; nothing was run (replay).`;
      return;
    }
    const run = await tools.run(t.actor, tool, args, { details: { via: "chat", conversation_id: t.conversationId, decision: verdict.decision, ...(confirmed ? { confirmed_by: "requester" } : {}) } });
    t.evidence.push(`ran ${tool.name} on the server: ${run.status} in ${run.durationMs} ms`);
    t.stages.mark("execution", run.status === "succeeded" ? "passed" : "failed", `${tool.name} ${run.status}`);
    t.lastRun = { tool, args, status: run.status, result: run.result, error: run.error };
    t.summary = `Ran ${tool.name} on the server${confirmed ? " after the user's yes" : ""}: ${run.status}.`;
    t.content = run.status === "succeeded" ? `Done: ${tool.name} succeeded. Result: ${summarise(run.result)}` : `${tool.name} failed${run.error ? ` (${run.error})` : ""}. Result: ${summarise(run.result)}`;
  }

  /** A call decided outside the engine (forced by tool_choice, or proposed by the model): arguments, then governance. */
  async function decideCall(t: Turn, tool: Tool, args: Record<string, unknown>): Promise<void> {
    const missing = missingArguments(tool, args);
    const invalid = missing.length === 0 ? (validate(t, tool, args) ?? []) : [];
    // A rule that blocks whatever the missing values are blocks now (as the engine decides).
    const early = await review(t, tool, args, true);
    if (early.decision === "blocked") return blockedAnswer(t, tool, early);
    if (missing.length > 0 || invalid.length > 0) {
      t.gate = "needs_input";
      t.content = missing.length > 0 ? missing.map((key) => questionFor(tool, key)).join(" ") : `The arguments for ${tool.name} are not valid: ${invalid.map((d) => `${d.field} ${d.message}`).join("; ")}.`;
      for (const key of missing) t.gaps.push({ kind: "missing_argument", capability: tool.name, field: key, reason: `${tool.name} needs ${key}.`, blocking: true, severity: "blocking" });
      for (const d of invalid) t.gaps.push({ kind: "missing_argument", capability: tool.name, field: d.field, reason: `${tool.name}: ${d.field} ${d.message}.`, blocking: true, severity: "blocking" });
      if (missing.length > 0) t.nextAsking = { tool: tool.name, fields: missing, arguments: args };
      t.summary = `Asked for what ${tool.name} still needs; nothing was run.`;
      return;
    }
    const verdict = await review(t, tool, args);
    if (verdict.decision === "blocked") return blockedAnswer(t, tool, verdict);
    if (verdict.decision === "conditional") return askConfirmation(t, tool, args, verdict);
    await proceed(t, tool, args);
  }

  // ---- The paths of a turn: one of them answers it.

  /** Results of the client's tool calls: the final answer reports them. */
  function reportToolResults(t: Turn): void {
    const messages = t.request.messages;
    const names = new Map<string, string>();
    for (const m of messages) for (const c of m.tool_calls ?? []) if (c.id) names.set(c.id, c.function?.name ?? "the tool");
    const results: string[] = [];
    for (let i = messages.length - 1; i >= 0 && messages[i]!.role === "tool"; i--) {
      const m = messages[i]!;
      results.unshift(`${names.get(m.tool_call_id ?? "") ?? "The tool"} returned: ${summarise(textOf(m.content), 800)}`);
    }
    t.content = results.join("\n");
    t.evidence.push(`summarised ${results.length} tool result(s)`);
    t.summary = `Reported the results of ${results.length} client tool call(s).`;
    // A question asked beside those calls (several requests in one message) is still open: asked again.
    const open = t.state?.pending;
    if (open && open.expires_at * 1000 >= clock.now().getTime()) {
      t.pending = open;
      t.gate = "escalate";
      t.decision = "conditional";
      t.content += `\n${open.tool}${shownArguments(open.arguments)} still needs approval. Answer yes to proceed or no to skip.`;
      t.summary += ` ${open.tool} still waits for the user's yes or no.`;
    }
  }

  /** The user's yes or no to the call the conversation waits on. */
  async function answerConfirmation(t: Turn, p: PendingConfirmation): Promise<void> {
    const tool = t.all.find((x) => x.name === p.tool);
    if (p.expires_at * 1000 < clock.now().getTime()) {
      t.content = `The request to run ${p.tool} expired; nothing was run. Ask again to start over.`;
      t.summary = `The pending ${p.tool} expired before the answer; nothing was run.`;
    } else if (t.confirmation === "no") {
      t.content = `Skipped ${p.tool}; nothing was run.`;
      t.evidence.push(`the user declined ${p.tool}`);
      t.summary = `The user said no: ${p.tool} was skipped.`;
    } else if (!tool) {
      t.gate = "blocked";
      t.content = `${p.tool} is no longer available; nothing was run.`;
      t.summary = `The pending ${p.tool} is no longer available; nothing was run.`;
    } else {
      t.evidence.push(`the user confirmed ${p.tool}`);
      const verdict = await review(t, tool, p.arguments);
      if (verdict.decision === "blocked") blockedAnswer(t, tool, verdict);
      else await proceed(t, tool, p.arguments, verdict);
    }
  }

  /** tool_choice names one function: its arguments from the user's turns; a block is an error, not an answer. */
  async function forcedTool(t: Turn, forced: Tool): Promise<void> {
    const userTurns = t.turns.filter((m) => m.role === "user").map((m) => m.content);
    // A clarification about this tool is being answered: the fields it asked for take a bare value.
    const asking = t.asking?.tool === forced.name ? t.asking : undefined;
    const args = { ...asking?.arguments, ...extractArguments(forced.parameters, userTurns, { ...(asking ? { asked: asking.fields } : {}), dateOrder: dateOrderOf([forced.parameters]) }) };
    await decideCall(t, forced, args);
    if (t.gate === "blocked") throw forcedBlocked(forced, t.verdictReason);
  }

  /** The configured model answers; an unreachable one gives way to the embedded planner when so configured. */
  async function upstreamTurn(t: Turn, upstream: Upstream): Promise<void> {
    try {
      await viaUpstream(t, upstream);
      t.answeredByModel = true;
    } catch (error) {
      // SVC_MODEL_FALLBACK=embedded: an unreachable model gives way to the embedded planner, unless some of
      // its words already went out on the stream (they cannot be taken back: the client gets the error).
      const unreachable = error instanceof AppError && error.code === "routing_unavailable";
      if (!unreachable || !deps.plannerFallback || t.streamedAny || t.verdicts.length > 0) throw error;
      t.evidence.push(`model provider unavailable, embedded planner used: ${error.message.slice(0, 160)}`);
      t.stages.mark("plan", "degraded", "model provider unavailable; the embedded planner decides");
      t.content = "";
      t.gate = "ok";
      await viaEngine(t, undefined);
    }
  }

  /**
   * The configured upstream answers: the client's messages (plus the memory found for the last user turn)
   * and the offered tools go to it; each tool call it assembles is governed here exactly as an engine
   * proposal; a server call's result goes back to it for the final words (at most MAX_UPSTREAM_ROUNDS).
   */
  async function viaUpstream(t: Turn, upstream: Upstream): Promise<void> {
    const { request, options } = t;
    const conversation: Record<string, unknown>[] = [];
    if (t.memoryOn) {
      const query = [...request.messages].reverse().find((m) => m.role === "user");
      t.memoryFacts.consulted = true;
      const found = await memory.related(t.workspaceId, questionWords(query ? textOf(query.content) : ""), MAX_MEMORY_ITEMS).catch(() => {
        t.memoryFacts.healthy = false;
        return { hits: [] };
      });
      t.memoryFacts.queried = found.hits.length;
      t.memoryFacts.used = found.hits.map((h) => h.id);
      if (found.hits.length > 0) {
        conversation.push({ role: "system", content: memoryBlock(found.hits) });
        t.evidence.push(`memory items given to the model: ${found.hits.map((h) => h.id).join(", ")}`);
      }
      t.stages.mark("memory_lookup", t.memoryFacts.healthy ? "passed" : "degraded", t.memoryFacts.healthy ? `${found.hits.length} item(s) given to the model` : "memory search failed; the model was asked without it");
    } else t.stages.mark("memory_lookup", "skipped", "memory: false");
    for (const m of request.messages) conversation.push({ ...m, role: m.role === "developer" ? "system" : m.role });
    const definitions = t.offered.map(functionDefinition);
    const head: ChatHead = { id: t.id, created: t.created, model: request.model ?? "svc", conversationId: t.conversationId };
    const onContent = options.onContent ? (piece: string) => options.onContent!(piece, head) : undefined;
    let said = "";
    const notes: string[] = [];
    for (let round = 1; round <= MAX_UPSTREAM_ROUNDS; round++) {
      const asked = upstream.complete({ messages: conversation, tools: definitions, toolChoice: definitions.length > 0 ? (request.tool_choice === "required" ? "required" : "auto") : undefined, maxTokens: request.max_completion_tokens ?? request.max_tokens, stream: onContent !== undefined }, (piece) => {
        said += piece;
        if (onContent) t.streamedAny = true;
        onContent?.(piece);
      });
      // The request is on the wire: usage is counted in the wait, not after the answer.
      if (round === 1)
        setImmediate(() => {
          try {
            promptTokens(t);
          } catch {
            // Nothing was kept: the count runs again, and its error is handled, where usage is read.
          }
        });
      const reply = await asked;
      t.proposedCalls += reply.toolCalls.length;
      if (reply.toolCalls.length > 0) t.evidence.push(`the model proposed ${reply.toolCalls.map((c) => c.name).join(", ")} (round ${round})`);
      t.stages.mark("plan", "passed", `model ${upstream.model}, round ${round}: ${reply.toolCalls.length > 0 ? `${reply.toolCalls.length} tool call(s)` : "an answer"} (finish ${reply.finishReason ?? "none"})`);
      const ran: { call: UpstreamToolCall; result: string }[] = [];
      for (const call of reply.toolCalls) {
        const tool = t.offered.find((x) => x.name === call.name);
        if (!tool) {
          notes.push(`The model asked for ${call.name || "a tool"}, which is not offered; nothing was run.`);
          continue;
        }
        let args: unknown;
        try {
          args = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
        } catch {
          args = undefined;
        }
        if (!args || typeof args !== "object" || Array.isArray(args)) {
          t.gate = "needs_input";
          notes.push(`The model's arguments for ${tool.name} are not valid JSON; nothing was run.`);
          continue;
        }
        t.content = "";
        t.lastRun = undefined;
        await decideCall(t, tool, args as Record<string, unknown>);
        const r = t.lastRun as ServerRun | undefined;
        if (r) {
          ran.push({ call, result: r.status === "succeeded" ? summarise(r.result, 4000) : `failed${r.error ? ` (${r.error})` : ""}: ${summarise(r.result, 4000)}` });
          if (round === MAX_UPSTREAM_ROUNDS) notes.push(t.content);
        } else if (t.content) notes.push(t.content);
      }
      if (ran.length === 0 || round === MAX_UPSTREAM_ROUNDS || options.dryRun) break;
      // The results go back for the model's final words.
      conversation.push({ role: "assistant", content: reply.content || null, tool_calls: ran.map((r) => ({ id: r.call.id, type: "function", function: { name: r.call.name, arguments: r.call.arguments } })) });
      for (const r of ran) conversation.push({ role: "tool", tool_call_id: r.call.id, content: r.result });
    }
    t.content = [said, ...notes].filter((x) => x !== "").join("\n\n");
    // The model asked its own questions, if any: nothing is kept for the engine to resume.
    t.nextAsking = undefined;
  }

  /** The intent engine decides (with the configured planner, or the embedded rules when `planner` is undefined). */
  async function viaEngine(t: Turn, planner: Planner | undefined): Promise<void> {
    const ports: EnginePorts = {
      tools: async () => t.offered,
      catalog: async () => ({ integrations: CATALOG, ...(await connections.summary(t.workspaceId)) }),
      toolHealth: (tool) => tool.health(),
      validate: (tool, args) => validate(t, tool, args),
      searchMemory: async (query) => (t.memoryOn ? memory.related(t.workspaceId, questionWords(query), 5) : { hits: [], match: "none" }),
      preferences: async () => (t.memoryOn ? memory.preferences(t.workspaceId) : []),
      review: (action, reviewOptions) => review(t, action.tool, action.arguments, reviewOptions.certainOnly),
      policiesActive: async () => (await policies.ruleSet(t.workspaceId)).size,
      planner,
      plannerFallback: deps.plannerFallback,
    };
    const decide = (messages: Message[], pending?: PendingTool) =>
      runEngine({ messages: messages.filter((m) => m.content !== "" || m.role !== "system"), domain: t.domain, mode: "auto", dryRun: false, pending }, ports, t.actor, () => clock.now());
    // Several requests in one message, split as the engine splits them for /intent too (a model planner
    // reads the message whole).
    const split = !planner && t.last.role === "user" && t.request.tool_choice !== "none" ? await decideParts(t.turns, (messages) => decide(messages)) : undefined;
    if (split) return severalRequests(t, split);
    t.engine = await decide(t.turns, t.asking);
    await engineAnswer(t, t.engine);
  }

  /** The engine's one decision, in words, tool calls or a run. */
  async function engineAnswer(t: Turn, engine: EngineResult): Promise<void> {
    const o = engine.outcome;
    t.nextAsking = pendingAfter(o, t.asking).pending;
    switch (o.type) {
      case "direct":
        // tool_choice "required": the client wants a call; with none proposed, ask which tool.
        if (t.request.tool_choice === "required" && t.offered.length > 0 && !o.smallTalk) {
          t.gate = "needs_input";
          t.content = `tool_choice is "required" but nothing in the request points to one tool. Which should I use: ${t.offered.slice(0, 8).map((x) => x.name).join(", ")}${t.offered.length > 8 ? ", …" : ""}?`;
          t.evidence.push('tool_choice "required": no tool was proposed, so the answer asks which one');
        } else t.content = o.answer.content;
        break;
      case "clarify":
        t.gate = "needs_input";
        t.content = o.questions.map((q) => q.question).join(" ");
        break;
      case "connect_required":
        t.gate = "blocked";
        t.content = `${o.reason} Connect it first; nothing was run.`;
        break;
      case "blocked":
        if (o.conditional) askConfirmation(t, o.tool, o.arguments, o.verdict);
        else blockedAnswer(t, o.tool, o.verdict);
        break;
      case "execution":
        await proceed(t, o.tool, o.arguments);
        break;
    }
  }

  /**
   * Each request its own call, with the full review the engine gave it (a block's, an approval to ask, or
   * the approval of an execution): the approved ones are returned or run, the blocked ones named, and the
   * one needing approval asked last with a yes or no; when the others include client calls, that question
   * stays open through the turn that brings their results.
   */
  async function severalRequests(t: Turn, split: SplitDecision): Promise<void> {
    const { actions, parts } = split;
    // The trace keeps one verdict per call: the trial decisions' partial reviews are dropped.
    t.verdicts.length = 0;
    t.stages.stages.length = 0;
    t.evidence.push(`one message, ${actions.length} requests: ${parts.map((p) => `"${p.slice(0, 80)}"`).join(", ")}`);
    const said: string[] = [];
    let approved = 0;
    const asks = actions.filter((a) => a.ask);
    // The one to ask about comes last, so that its question ends the answer.
    for (const a of [...actions.filter((d) => !d.ask), ...asks]) {
      t.content = "";
      t.verdicts.push({ tool: a.tool.name, verdict: a.verdict });
      t.stages.mark("governance_eval", a.verdict.decision === "approved" ? "passed" : "blocked", `${a.tool.name}: ${a.verdict.decision}`);
      if (a.ask) askConfirmation(t, a.tool, a.arguments, a.verdict);
      else if (a.verdict.decision === "blocked") blockedAnswer(t, a.tool, a.verdict);
      else {
        // Counted by what came of it: `govern` at the call may still block or ask.
        const before = t.proceeded;
        await proceed(t, a.tool, a.arguments);
        approved += t.proceeded - before;
      }
      if (t.content) said.push(t.content);
    }
    // The gate tells what became of the calls: an approval to give → escalate (the caller has to answer);
    // else any returned or run → ok. The blocked ones are named in the content and in the trace's verdicts.
    if (t.pending) t.gate = "escalate";
    else if (approved > 0) t.gate = "ok";
    t.content = said.join("\n");
    const blocked = actions.length - approved - (t.pending ? 1 : 0) - t.deferred.length;
    t.summary = `${actions.length} requests in one message: ${approved} approved, ${blocked} blocked${t.pending ? `, 1 waits for the user's yes or no (${t.pending.tool})` : ""}${t.deferred.length > 0 ? `, ${t.deferred.length} to ask again later (${t.deferred.join(", ")})` : ""}.`;
  }

  // ---- Finish: the answer, the conversation kept, the record.

  /** The trace: the engine's when it decided, else one made of what the turn noted. */
  async function traceOf(t: Turn): Promise<Record<string, unknown>> {
    const { engine, pending } = t;
    if (engine) {
      const intelligence = intentToWire(engine, { intentId: t.id, traceId: t.options.traceId, conversationId: t.conversationId, domain: t.domain, dryRun: false }).body.intelligence as Record<string, unknown>;
      const reasoning = intelligence.reasoning as { evidence?: string[] } | undefined;
      if (reasoning && Array.isArray(reasoning.evidence)) reasoning.evidence = [...reasoning.evidence, ...t.evidence];
      const g = intelligence.governance as Record<string, unknown> | undefined;
      if (g && t.decision !== "none") g.decision = t.decision;
      // In a chat the requester approves by answering, not through an escalation.
      if (pending) intelligence.next_action = confirmNext(pending.tool);
      return intelligence;
    }
    return chatTrace({
      summary: t.summary || (t.answeredByModel ? `Answered by the model ${deps.upstream!.model}${t.memoryFacts.queried > 0 ? ` with ${t.memoryFacts.queried} memory item(s)` : ""}.` : t.content.split("\n")[0]!.slice(0, 200)),
      startedAt: t.startedAt,
      durationMs: Math.round(performance.now() - t.t0),
      stages: t.stages.stages,
      evidence: t.evidence,
      gaps: t.gaps,
      capability: { total: t.offered.length, healthy: t.offered.filter((x) => x.health() === "healthy").length, active: (await connections.summary(t.workspaceId)).active, matches: t.proposedCalls || t.verdicts.length },
      memory: t.memoryFacts,
      policiesActive: (await policies.ruleSet(t.workspaceId)).size > 0,
      verdicts: t.verdicts,
      nextAction: pending
        ? confirmNext(pending.tool)
        : t.gate === "blocked"
          ? { type: "none", label: "Blocked; change the request or the policy", ...(t.verdictReason ? { reason: t.verdictReason } : {}) }
          : t.gate === "needs_input"
            ? { type: "resolve_gap", label: t.content.split("\n")[0]!.slice(0, 200) }
            : t.toolCalls.length > 0
              ? { type: "none", label: "Run the tool calls and send their results as tool messages" }
              : { type: "none", label: "Nothing to do" },
    });
  }

  async function finish(t: Turn): Promise<ChatAnswer> {
    const { request, options, toolCalls, pending } = t;
    // max_tokens cuts the words of the answer (never a tool call).
    let finishReason: ChatAnswer["finishReason"] = toolCalls.length > 0 ? "tool_calls" : "stop";
    const limit = request.max_completion_tokens ?? request.max_tokens;
    // (A model's own answer was already cut by it: max_tokens went with the request.)
    if (toolCalls.length === 0 && !t.answeredByModel && typeof limit === "number" && limit >= 0) {
      const encoded = encode(t.content);
      if (encoded.length > limit) {
        t.content = decode(encoded.slice(0, limit));
        finishReason = "length";
      }
    }
    const content = t.content;
    const prompt = promptTokens(t);
    const completion = tokens(content) + toolCalls.reduce((n, c) => n + tokens(c.function.name) + tokens(c.function.arguments), 0);
    const pendingActions: PendingAction[] = pending ? [{ tool: pending.tool, arguments: redactAction(pending.arguments) as Record<string, unknown>, confirm_with: "yes", expires_at: pending.expires_at }] : [];
    const intelligence = await traceOf(t);

    const at = clock.now();
    const known = await t.knownSecrets;
    // Kept when it can be resumed: the caller named it, or a confirmation waits on it.
    if (!options.dryRun && (request.conversation_id !== undefined || pending)) {
      const history = [...t.turns, { role: "assistant" as const, content: content || (toolCalls.length ? `Called ${toolCalls.map((c) => c.function.name).join(", ")}.` : "") }].slice(-MAX_TURNS);
      const next: ChatState = { kind: "chat", messages: history.map((m) => ({ role: m.role, content: maskSecrets(m.content, known) })), ...(pending ? { pending } : {}) };
      await conversations.save(t.workspaceId, { id: t.conversationId, state: next as unknown as Record<string, unknown>, ...(t.nextAsking ? { pending: t.nextAsking } : {}) }, at);
    }
    const answer: ChatAnswer = { id: t.id, created: t.created, model: request.model ?? "svc", conversationId: t.conversationId, traceId: options.traceId, content, toolCalls, finishReason, gate: t.gate, pendingActions, usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }, intelligence };
    const status = t.gate === "ok" ? (toolCalls.length ? "tool_calls" : "answered") : t.gate === "escalate" ? "needs_confirmation" : t.gate === "blocked" ? "blocked_by_policy" : "needs_input";
    deps.onDecision?.(status);
    if (options.dryRun) return answer;
    await record(t, { answer, status, known, at });
    return answer;
  }

  /** The turn's intelligence record, made at the flush, after the answer went out (masking and shaping are not the caller's wait). */
  async function record(t: Turn, done: { answer: ChatAnswer; status: string; known: SecretValues | undefined; at: Date }): Promise<void> {
    const { request, engine, state } = t;
    const { answer, status, known, at } = done;
    const recordedDecision = t.decision === "none" ? (engine?.governance.decision ?? "none") : t.decision;
    const durationMs = engine?.durationMs ?? Math.round(performance.now() - t.t0);
    const intelligence = answer.intelligence;
    await deps.records.add(t.workspaceId, () => ({
      id: t.id,
      traceId: t.options.traceId,
      conversationId: t.conversationId,
      type: "chat",
      status,
      domain: t.domain ?? null,
      decision: recordedDecision,
      confidence: engine?.governance.confidence ?? 1,
      gaps: engine?.gaps.length ?? 0,
      durationMs,
      request: {
        path: "/api/v1/svc/chat/completions",
        messages: t.requestTurns.map((m) => ({ role: m.role, content: maskSecrets(m.content, known) })),
        memory: t.memoryOn,
        conversation_id: t.conversationId,
        tools: [...t.toolSet.client.keys()],
        ...(request.user ? { user: request.user } : {}),
        // What a replay needs to decide the turn again: the messages as sent (tool results included), the
        // client's function definitions and the tool choice.
        chat: {
          messages: request.messages.map((m) => maskedMessage(m, known)),
          tools: request.tools ?? [],
          ...(request.tool_choice !== undefined ? { tool_choice: request.tool_choice } : {}),
          ...(t.domain ? { context: { domain: t.domain } } : {}),
          // The confirmation open when the turn came, which a yes or no answered or a tool-results turn asked
          // again, so that a replay decides the same (secrets masked: by field name and by value).
          ...(state?.pending && (t.confirmation || t.last.role === "tool") ? { open_confirmation: { ...state.pending, arguments: maskStrings(redactAction(state.pending.arguments), known) } } : {}),
        },
      },
      response: {
        object: "chat.completion",
        content: maskSecrets(answer.content ?? "", known),
        tool_calls: answer.toolCalls.map((c) => c.function.name),
        finish_reason: answer.finishReason,
        gate: answer.gate,
        pending_actions: answer.pendingActions.map((p) => p.tool),
        // Arguments taken from the messages carry the same values.
        intelligence: known && known.size > 0 ? (maskStrings(intelligence, known) as typeof intelligence) : intelligence,
      },
      executionId: null,
      createdAt: at,
    }));
  }

  return {
    upstream: deps.upstream !== undefined,
    complete: async (actor, request, options) => {
      const t = await openTurn(actor, request, options);
      if (t.last.role === "tool") reportToolResults(t);
      else if (t.state?.pending && t.confirmation) await answerConfirmation(t, t.state.pending);
      else if (t.forced) await forcedTool(t, t.forced);
      else if (deps.upstream) await upstreamTurn(t, deps.upstream);
      else await viaEngine(t, deps.planner);
      return finish(t);
    },
  };
}

const callFor = (tool: Tool, args: Record<string, unknown>): ChatToolCall => ({ id: `call_${randomBase62(24)}`, type: "function", function: { name: tool.name, arguments: JSON.stringify(args) } });

/** The arguments of a call waiting for a yes or no, as its question shows them (" with {…}", or nothing). */
function shownArguments(args: Record<string, unknown>): string {
  return Object.keys(args).length > 0 ? ` with ${summarise(redactAction(args), 300)}` : "";
}

/**
 * A message as it is kept in a record: its text with secrets masked; other parts (images, audio, files: not
 * read, and possibly megabytes of base64) kept as their type only.
 */
function maskedMessage(m: ChatMessage, known: SecretValues | undefined): ChatMessage {
  const content = typeof m.content === "string" ? maskSecrets(m.content, known) : Array.isArray(m.content) ? m.content.map((part) => (part && part.type === "text" && typeof part.text === "string" ? { type: "text", text: maskSecrets(part.text, known) } : { type: String(part?.type ?? "unknown") })) : m.content;
  const toolCalls = m.tool_calls?.map((c) => ({ ...c, ...(c.function ? { function: { ...c.function, ...(typeof c.function.arguments === "string" ? { arguments: maskSecrets(c.function.arguments, known) } : {}) } } : {}) }));
  return { ...m, content, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
}

const confirmNext = (tool: string) => ({ type: "confirm_execution", label: `Answer yes to run ${tool}, or no to skip it` });

function forcedBlocked(tool: Tool, reason: string | undefined): AppError {
  return new AppError("blocked_by_policy", {
    message: `tool_choice requires ${tool.name}, which policy blocks: ${reason ?? "blocked"}`,
    details: [{ field: "tool_choice.function.name", message: reason ?? "blocked by policy" }],
    extra: { reason: reason ?? "blocked by policy", tool: tool.name },
  });
}
