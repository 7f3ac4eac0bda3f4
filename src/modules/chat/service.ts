// Chat completions: an OpenAI chat request in, one governed assistant turn out. The intent engine decides
// (the embedded planner, or the configured model provider) over the workspace's tools and the request's
// client tools together; every proposed call goes through the governance chokepoint. Approved client calls
// come back as `tool_calls`; approved server calls run here (tools.run, as executions do) and are reported
// in words; a call needing approval becomes a yes/no question kept with the conversation; a blocked call is
// never returned or run.
import { governedAction } from "../../engine/governance/action.ts";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { countTokens, decode, encode } from "gpt-tokenizer/encoding/o200k_base";
import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/index.ts";
import type { Governance } from "../../engine/governance/chokepoint.ts";
import { questionWords } from "../../engine/intent/answer.ts";
import { runEngine, type EngineResult, type Message } from "../../engine/intent/engine.ts";
import { extractArguments } from "../../engine/intent/extract.ts";
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
import { getConversation, saveConversation } from "../intent/store.ts";
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

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

/** How long a pending confirmation waits for the user's yes or no. */
export const PENDING_TTL_MS = 15 * 60_000;
const MAX_TURNS = 20;
// Client tool definitions compiled and kept (by their JSON); beyond this the cache starts over.
const MAX_CLIENT_TOOLS = 500;

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

export function createChatService(deps: {
  db: Db;
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
  const { db, ids, clock, tools, connections, memory, policies, governance } = deps;
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: false, useDefaults: false, unicodeRegExp: false, logger: false });
  addFormats(ajv);
  const clientTools = new Map<string, { tool: Tool; validate: ValidateFunction | undefined }>();

  /** A client function definition as a tool (never invoked here: the client runs it). */
  function clientTool(definition: ChatFunction): { tool: Tool; validate: ValidateFunction | undefined } | undefined {
    const fn = definition.function;
    if (!fn || typeof fn.name !== "string" || fn.name === "") return undefined;
    const key = JSON.stringify(fn);
    let hit = clientTools.get(key);
    if (!hit) {
      const parameters: JsonSchema = fn.parameters && typeof fn.parameters === "object" ? fn.parameters : { type: "object", properties: {} };
      let validate: ValidateFunction | undefined;
      try {
        validate = ajv.compile(parameters);
      } catch {
        validate = undefined;
      }
      const tool: Tool = {
        name: fn.name,
        description: typeof fn.description === "string" ? fn.description : fn.name.replace(/[_-]+/g, " "),
        parameters,
        source: "builtin",
        connectionId: undefined,
        invoke: () => Promise.reject(new Error("a client tool runs on the client")),
        health: () => "healthy",
      };
      if (clientTools.size >= MAX_CLIENT_TOOLS) {
        for (const old of clientTools.values()) ajv.removeSchema(old.tool.parameters);
        clientTools.clear();
      }
      hit = { tool, validate };
      clientTools.set(key, hit);
    }
    return hit;
  }

  // An agent sends the same tool definitions with every request: the set is kept by its JSON (one
  // stringify a request), with its tools made and its token count taken once. Never changed once made.
  type ToolSet = { json: string; client: ReadonlyMap<string, { tool: Tool; validate: ValidateFunction | undefined }>; tokens?: number };
  const toolSets = new Map<string, ToolSet>();
  const noTools: ToolSet = { json: "", client: new Map(), tokens: 0 };
  const toolSetOf = (definitions: ChatFunction[] | undefined): ToolSet => {
    if (!definitions?.length) return noTools;
    const json = JSON.stringify(definitions);
    let set = toolSets.get(json);
    if (!set) {
      const client = new Map<string, { tool: Tool; validate: ValidateFunction | undefined }>();
      for (const definition of definitions) {
        const made = clientTool(definition);
        if (made) client.set(made.tool.name, made);
      }
      if (toolSets.size >= MAX_CLIENT_TOOLS) toolSets.clear();
      set = { json, client };
      toolSets.set(json, set);
    }
    return set;
  };

  return {
    upstream: deps.upstream !== undefined,
    complete: async (actor, request, options) => {
      const workspaceId = actor.workspaceId;
      // Fetched beside the turn's work (a cache hit but every KNOWN_SECRETS_TTL_MS); awaited only to record.
      const knownSecrets = options.dryRun ? undefined : deps.knownSecrets?.(workspaceId);
      knownSecrets?.catch(() => {});
      const created = Math.floor(clock.now().getTime() / 1000);
      const id = ids.make("int");
      const conversationId = request.conversation_id ?? ids.make("conv");
      const memoryOn = request.memory !== false && request.context?.memory !== false;
      const domain = typeof request.context?.domain === "string" ? request.context.domain : undefined;
      const noted: string[] = [];
      const evidence: string[] = [];
      // What the trace reports when the engine did not decide (upstream answers, confirmations, tool results).
      const startedAt = clock.now();
      const t0 = performance.now();
      const stages = new StageClock();
      const verdicts: { tool: string; verdict: GovernanceVerdict }[] = [];
      const gaps: Gap[] = [];
      const memoryFacts = { healthy: true, queried: 0, used: [] as string[], consulted: false };
      let summary = "";
      // The model's words reached the client already (streamed): a failure can then no longer fall back.
      let streamedAny = false;
      let answeredByModel = false;
      let proposedCalls = 0;

      // The request's tools: the client's, then the workspace's (a client tool hides a server tool of the
      // same name: the caller defined it for this request).
      const toolSet = toolSetOf(request.tools);
      const client = toolSet.client;
      // The request's prompt tokens (usage): counted once, while the upstream thinks when there is one.
      let promptCount: number | undefined;
      const promptTokens = () => (promptCount ??= tokens(request.messages.map((m) => `${m.role}\n${textOf(m.content)}${m.tool_calls ? JSON.stringify(m.tool_calls) : ""}`).join("\n")) + (toolSet.tokens ??= tokens(toolSet.json)));
      const serverTools = await tools.list(workspaceId);
      const all = [...[...client.values()].map((c) => c.tool), ...serverTools.filter((t) => !client.has(t.name))];
      const isClient = (tool: Tool) => client.get(tool.name)?.tool === tool;
      const choice = request.tool_choice;
      const forced = typeof choice === "object" && choice?.function?.name ? all.find((t) => t.name === choice.function!.name) : undefined;
      if (typeof choice === "object" && choice?.function?.name && !forced) {
        throw new AppError("invalid_request", { message: `tool_choice names ${choice.function.name}, which is neither in tools nor a tool of this workspace.`, details: [{ field: "tool_choice.function.name", message: "unknown function" }] });
      }
      const offered = choice === "none" ? [] : forced ? [forced] : all;

      const validate = (tool: Tool, args: Record<string, unknown>): ErrorDetail[] | undefined => {
        const c = client.get(tool.name);
        if (c && c.tool === tool) {
          if (!c.validate || c.validate(args)) return undefined;
          return (c.validate.errors ?? []).map((e) => ({ field: `arguments${e.instancePath.replace(/\//g, ".")}`, message: e.message ?? "is not valid" }));
        }
        return tools.validate(tool, args);
      };
      const review = async (tool: Tool, args: Record<string, unknown>, certainOnly = false) => {
        const verdict = await governance.review(governedAction(tool, args, { caller: actor, domain }), { certainOnly, escalate: false });
        // A partial review (arguments still missing) decides only when it blocks.
        if (!certainOnly || verdict.decision === "blocked") {
          verdicts.push({ tool: tool.name, verdict });
          stages.mark("governance_eval", verdict.decision === "approved" ? "passed" : "blocked", `${tool.name}: ${verdict.decision}`);
        }
        return verdict;
      };

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
      const stored = request.conversation_id ? await getConversation(db, workspaceId, conversationId) : undefined;
      const kept: ChatState | undefined = stored && stored.kind === "chat" ? (stored as unknown as ChatState) : undefined;
      // A replayed yes or no answers the action its turn answered, decided against today's policies (not
      // expired: the question is what would be decided, not when); a replayed tool-results turn asks it again.
      const state: ChatState | undefined =
        options.dryRun && options.openConfirmation ? { kind: "chat", messages: kept?.messages ?? [], pending: { ...options.openConfirmation, expires_at: Number.MAX_SAFE_INTEGER } } : kept;
      let turns = requestTurns;
      if (memoryOn && state && !requestTurns.some((m) => m.role === "assistant")) turns = [...state.messages, ...requestTurns];
      else if (!memoryOn) evidence.push("memory: false; nothing outside the request was used");

      let content = "";
      const toolCalls: ChatToolCall[] = [];
      type ServerRun = { tool: Tool; args: Record<string, unknown>; status: string; result: unknown; error?: string | null };
      let lastRun: ServerRun | undefined;
      let gate = "ok" as GateValue;
      let pending: ChatState["pending"];
      const deferred: string[] = [];
      // Calls that went through `proceed`: returned to the client, run here, or (replay) would have run.
      let proceeded = 0;
      let engine: EngineResult | undefined;
      let decision = "none" as string;
      let verdictReason: string | undefined;
      const last = request.messages.at(-1)!;
      const lastText = last.role === "user" ? textOf(last.content) : "";

      const callFor = (tool: Tool, args: Record<string, unknown>): ChatToolCall => ({ id: `call_${randomBase62(24)}`, type: "function", function: { name: tool.name, arguments: JSON.stringify(args) } });
      const blockedAnswer = (tool: Tool, verdict: GovernanceVerdict) => {
        gate = "blocked";
        decision = "blocked";
        verdictReason = verdict.reason;
        content = `I can't do that: ${tool.name} is blocked by ${policyWords(verdict)}. Nothing was run. ${verdict.reason}`;
        summary = `Blocked ${tool.name} by ${policyWords(verdict)}; nothing was returned or run.`;
      };
      const askConfirmation = (tool: Tool, args: Record<string, unknown>, verdict: GovernanceVerdict) => {
        // A yes or no answers one action: a second one to ask in the same turn (several requests in one
        // message) is named, not asked, and runs nothing.
        if (pending) {
          deferred.push(tool.name);
          content = `${tool.name} also needs approval under ${policyWords(verdict)}; nothing was run. Ask for it again once the question above is answered.`;
          return;
        }
        gate = "escalate";
        decision = "conditional";
        verdictReason = verdict.reason;
        pending = { tool: tool.name, arguments: args, client: isClient(tool), expires_at: Math.floor((clock.now().getTime() + PENDING_TTL_MS) / 1000) };
        summary = `${tool.name} needs the user's approval under ${policyWords(verdict)}; asked for a yes or no.`;
        content = `${tool.name}${shownArguments(args)} needs approval under ${policyWords(verdict)}. Answer yes to proceed or no to skip.`;
      };
      /** An approved (or user-confirmed) call: the client's comes back as a tool call, the server's runs here. */
      const proceed = async (tool: Tool, args: Record<string, unknown>, confirmed?: GovernanceVerdict) => {
        if (isClient(tool)) {
          // An approved client call runs on the client: it is recorded here, so rate rules count it.
          if (!options.dryRun) await governance.record(governedAction(tool, args, { caller: actor, domain }));
          proceeded++;
          toolCalls.push(callFor(tool, args));
          decision = confirmed ? "conditional" : "approved";
          summary = `Returned ${tool.name} to the client as an approved tool call${confirmed ? " (the user said yes)" : ""}.`;
          return;
        }
        // The gate right before the call: `govern` records the approval (rate rules); a confirmed call was
        // reviewed again just before (a block added since still wins) and the user's yes is its approval.
        const verdict = confirmed ?? (options.dryRun ? await review(tool, args) : await governance.govern(governedAction(tool, args, { caller: actor, domain })));
        // The user's yes is the approval of a confirmed call: recorded like one for rate rules.
        if (confirmed && !options.dryRun) await governance.record(governedAction(tool, args, { caller: actor, domain }));
        if (!confirmed && !options.dryRun) {
          verdicts.push({ tool: tool.name, verdict });
          stages.mark("governance_eval", verdict.decision === "approved" ? "passed" : "blocked", `${tool.name}: ${verdict.decision} (at the call)`);
        }
        if (verdict.decision === "blocked") return blockedAnswer(tool, verdict);
        if (verdict.decision === "conditional" && !confirmed) return askConfirmation(tool, args, verdict);
        decision = verdict.decision;
        proceeded++;
        if (options.dryRun) {
          summary = `Would run ${tool.name} on the server (a replay runs nothing).`;
          content = `Would run ${tool.name} with ${summarise(redactAction(args), 300)}; nothing was run (replay).`;
          return;
        }
        const run = await tools.run(actor, tool, args, { details: { via: "chat", conversation_id: conversationId, decision: verdict.decision, ...(confirmed ? { confirmed_by: "requester" } : {}) } });
        evidence.push(`ran ${tool.name} on the server: ${run.status} in ${run.durationMs} ms`);
        stages.mark("execution", run.status === "succeeded" ? "passed" : "failed", `${tool.name} ${run.status}`);
        lastRun = { tool, args, status: run.status, result: run.result, error: run.error };
        summary = `Ran ${tool.name} on the server${confirmed ? " after the user's yes" : ""}: ${run.status}.`;
        content = run.status === "succeeded" ? `Done: ${tool.name} succeeded. Result: ${summarise(run.result)}` : `${tool.name} failed${run.error ? ` (${run.error})` : ""}. Result: ${summarise(run.result)}`;
      };
      /** A call decided outside the engine (forced by tool_choice, or confirmed): arguments, then governance. */
      const decideCall = async (tool: Tool, args: Record<string, unknown>) => {
        const missing = missingArguments(tool, args);
        const invalid = missing.length === 0 ? (validate(tool, args) ?? []) : [];
        // A rule that blocks whatever the missing values are blocks now (as the engine decides).
        const early = await review(tool, args, true);
        if (early.decision === "blocked") return blockedAnswer(tool, early);
        if (missing.length > 0 || invalid.length > 0) {
          gate = "needs_input";
          content = missing.length > 0 ? missing.map((key) => questionFor(tool, key)).join(" ") : `The arguments for ${tool.name} are not valid: ${invalid.map((d) => `${d.field} ${d.message}`).join("; ")}.`;
          for (const key of missing) gaps.push({ kind: "missing_argument", capability: tool.name, field: key, reason: `${tool.name} needs ${key}.`, blocking: true, severity: "blocking" });
          for (const d of invalid) gaps.push({ kind: "missing_argument", capability: tool.name, field: d.field, reason: `${tool.name}: ${d.field} ${d.message}.`, blocking: true, severity: "blocking" });
          summary = `Asked for what ${tool.name} still needs; nothing was run.`;
          return;
        }
        const verdict = await review(tool, args);
        if (verdict.decision === "blocked") return blockedAnswer(tool, verdict);
        if (verdict.decision === "conditional") return askConfirmation(tool, args, verdict);
        await proceed(tool, args);
      };

      /**
       * The configured upstream answers: the client's messages (plus the memory found for the last user turn)
       * and the offered tools go to it; each tool call it assembles is governed here exactly as an engine
       * proposal; a server call's result goes back to it for the final words (at most MAX_UPSTREAM_ROUNDS).
       */
      const viaUpstream = async (upstream: Upstream) => {
        const conversation: Record<string, unknown>[] = [];
        if (memoryOn) {
          const query = [...request.messages].reverse().find((m) => m.role === "user");
          memoryFacts.consulted = true;
          const found = await memory.related(workspaceId, questionWords(query ? textOf(query.content) : ""), MAX_MEMORY_ITEMS).catch(() => {
            memoryFacts.healthy = false;
            return { hits: [] };
          });
          memoryFacts.queried = found.hits.length;
          memoryFacts.used = found.hits.map((h) => h.id);
          if (found.hits.length > 0) {
            conversation.push({ role: "system", content: memoryBlock(found.hits) });
            evidence.push(`memory items given to the model: ${found.hits.map((h) => h.id).join(", ")}`);
          }
          stages.mark("memory_lookup", memoryFacts.healthy ? "passed" : "degraded", memoryFacts.healthy ? `${found.hits.length} item(s) given to the model` : "memory search failed; the model was asked without it");
        } else stages.mark("memory_lookup", "skipped", "memory: false");
        for (const m of request.messages) conversation.push({ ...m, role: m.role === "developer" ? "system" : m.role });
        const definitions = offered.map(functionDefinition);
        const head: ChatHead = { id, created, model: request.model ?? "svc", conversationId };
        const onContent = options.onContent ? (piece: string) => options.onContent!(piece, head) : undefined;
        let said = "";
        const notes: string[] = [];
        for (let round = 1; round <= MAX_UPSTREAM_ROUNDS; round++) {
          const asked = upstream.complete({ messages: conversation, tools: definitions, toolChoice: definitions.length > 0 ? (choice === "required" ? "required" : "auto") : undefined, maxTokens: request.max_completion_tokens ?? request.max_tokens, stream: onContent !== undefined }, (piece) => {
            said += piece;
            if (onContent) streamedAny = true;
            onContent?.(piece);
          });
          // The request is on the wire: usage is counted in the wait, not after the answer.
          if (round === 1)
            setImmediate(() => {
              try {
                promptTokens();
              } catch {
                // Nothing was kept: the count runs again, and its error is handled, where usage is read.
              }
            });
          const reply = await asked;
          proposedCalls += reply.toolCalls.length;
          if (reply.toolCalls.length > 0) evidence.push(`the model proposed ${reply.toolCalls.map((c) => c.name).join(", ")} (round ${round})`);
          stages.mark("plan", "passed", `model ${upstream.model}, round ${round}: ${reply.toolCalls.length > 0 ? `${reply.toolCalls.length} tool call(s)` : "an answer"} (finish ${reply.finishReason ?? "none"})`);
          const ran: { call: UpstreamToolCall; result: string }[] = [];
          for (const call of reply.toolCalls) {
            const tool = offered.find((t) => t.name === call.name);
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
              gate = "needs_input";
              notes.push(`The model's arguments for ${tool.name} are not valid JSON; nothing was run.`);
              continue;
            }
            content = "";
            lastRun = undefined;
            await decideCall(tool, args as Record<string, unknown>);
            const r = lastRun as ServerRun | undefined;
            if (r) {
              ran.push({ call, result: r.status === "succeeded" ? summarise(r.result, 4000) : `failed${r.error ? ` (${r.error})` : ""}: ${summarise(r.result, 4000)}` });
              if (round === MAX_UPSTREAM_ROUNDS) notes.push(content);
            } else if (content) notes.push(content);
          }
          if (ran.length === 0 || round === MAX_UPSTREAM_ROUNDS || options.dryRun) break;
          // The results go back for the model's final words.
          conversation.push({ role: "assistant", content: reply.content || null, tool_calls: ran.map((r) => ({ id: r.call.id, type: "function", function: { name: r.call.name, arguments: r.call.arguments } })) });
          for (const r of ran) conversation.push({ role: "tool", tool_call_id: r.call.id, content: r.result });
        }
        content = [said, ...notes].filter((t) => t !== "").join("\n\n");
      };

      /** The intent engine decides (with the configured planner, or the embedded rules when `planner` is undefined). */
      const viaEngine = async (planner: Planner | undefined) => {
        const decide = (messages: Message[]) =>
          runEngine(
            { messages: messages.filter((m) => m.content !== "" || m.role !== "system"), domain, mode: "auto", dryRun: false },
            {
              tools: async () => offered,
              catalog: async () => ({ integrations: CATALOG, ...(await connections.summary(workspaceId)) }),
              toolHealth: (tool) => tool.health(),
              validate,
              searchMemory: async (query) => (memoryOn ? memory.related(workspaceId, questionWords(query), 5) : { hits: [], match: "none" }),
              preferences: async () => (memoryOn ? memory.preferences(workspaceId) : []),
              review: (action, reviewOptions) => review(action.tool, action.arguments, reviewOptions.certainOnly),
              policiesActive: async () => (await policies.ruleSet(workspaceId)).size,
              planner,
              plannerFallback: deps.plannerFallback,
            },
            actor,
            () => clock.now(),
          );
        // Several requests in one message ("delete a.txt and b.txt", "refund A-1, then cancel A-2"): each
        // part is decided on its own and becomes its own call, when every part is a complete action (run or
        // blocked), or all are but one that needs approval: that one is asked with a yes or no after the
        // others (a yes/no answers one action at a time); when the others include client calls, the question
        // stays open through the turn that brings their results. Anything else (a question, a missing
        // argument, two approvals) is decided as one message, as before.
        const parts = !planner && last.role === "user" && choice !== "none" ? requestParts(lastText) : [];
        if (parts.length > 1) {
          const earlier = turns.slice(0, -1);
          const decided: EngineResult[] = [];
          const isAction = (r: EngineResult) => r.outcome.type === "execution" || r.outcome.type === "blocked";
          // "delete /tmp/a.txt and /tmp/b.txt": a part without its own verb borrows the first part's.
          const verb = parts[0]!.split(/\s+/)[0]!;
          for (const part of parts) {
            let result = await decide([...earlier, { role: "user", content: part }]);
            if (!isAction(result) && decided.length > 0 && !part.toLowerCase().startsWith(verb.toLowerCase())) result = await decide([...earlier, { role: "user", content: `${verb} ${part}` }]);
            decided.push(result);
          }
          // Each action with the full review the engine gave it (a block's, an approval to ask, or the
          // approval of an execution).
          const actions = decided.flatMap((r) => {
            const o = r.outcome;
            if (o.type === "blocked") return [{ tool: o.tool, args: o.arguments, verdict: o.verdict, ask: o.conditional === true }];
            if (o.type === "execution" && r.governance.verdict) return [{ tool: o.tool, args: o.arguments, verdict: r.governance.verdict, ask: false }];
            return [];
          });
          const distinct = actions.filter((a, i) => actions.findIndex((b) => b.tool === a.tool && JSON.stringify(b.args) === JSON.stringify(a.args)) === i);
          const asks = distinct.filter((a) => a.ask);
          if (actions.length === decided.length && distinct.length > 1 && asks.length <= 1) {
            // The trace keeps one verdict per call: the trial decisions' partial reviews are dropped.
            verdicts.length = 0;
            stages.stages.length = 0;
            evidence.push(`one message, ${distinct.length} requests: ${parts.map((p) => `"${p.slice(0, 80)}"`).join(", ")}`);
            const said: string[] = [];
            let approved = 0;
            // The one to ask about comes last, so that its question ends the answer.
            for (const a of [...distinct.filter((d) => !d.ask), ...asks]) {
              content = "";
              verdicts.push({ tool: a.tool.name, verdict: a.verdict });
              stages.mark("governance_eval", a.verdict.decision === "approved" ? "passed" : "blocked", `${a.tool.name}: ${a.verdict.decision}`);
              if (a.ask) askConfirmation(a.tool, a.args, a.verdict);
              else if (a.verdict.decision === "blocked") blockedAnswer(a.tool, a.verdict);
              else {
                // Counted by what came of it: `govern` at the call may still block or ask.
                const before = proceeded;
                await proceed(a.tool, a.args);
                approved += proceeded - before;
              }
              if (content) said.push(content);
            }
            // The gate tells what became of the calls: an approval to give → escalate (the caller has to
            // answer); else any returned or run → ok. The blocked ones are named in the content and in the
            // trace's verdicts.
            if (pending) gate = "escalate";
            else if (approved > 0) gate = "ok";
            content = said.join("\n");
            const blocked = distinct.length - approved - (pending ? 1 : 0) - deferred.length;
            summary = `${distinct.length} requests in one message: ${approved} approved, ${blocked} blocked${pending ? `, 1 waits for the user's yes or no (${pending.tool})` : ""}${deferred.length > 0 ? `, ${deferred.length} to ask again later (${deferred.join(", ")})` : ""}.`;
            return;
          }
        }
        engine = await decide(turns);
        const o = engine.outcome;
        switch (o.type) {
          case "direct":
            // tool_choice "required": the client wants a call; with none proposed, ask which tool.
            if (choice === "required" && offered.length > 0 && !o.smallTalk) {
              gate = "needs_input";
              content = `tool_choice is "required" but nothing in the request points to one tool. Which should I use: ${offered.slice(0, 8).map((t) => t.name).join(", ")}${offered.length > 8 ? ", …" : ""}?`;
              evidence.push('tool_choice "required": no tool was proposed, so the answer asks which one');
            } else content = o.answer.content;
            break;
          case "clarify":
            gate = "needs_input";
            content = o.questions.map((q) => q.question).join(" ");
            break;
          case "connect_required":
            gate = "blocked";
            content = `${o.reason} Connect it first; nothing was run.`;
            break;
          case "blocked":
            if (o.conditional) askConfirmation(o.tool, o.arguments, o.verdict);
            else blockedAnswer(o.tool, o.verdict);
            break;
          case "execution":
            await proceed(o.tool, o.arguments);
            break;
        }
      };

      const confirmation = state?.pending && last.role === "user" ? confirmationOf(lastText) : undefined;
      if (last.role === "tool") {
        // Results of the client's tool calls: the final answer reports them.
        const names = new Map<string, string>();
        for (const m of request.messages) for (const c of m.tool_calls ?? []) if (c.id) names.set(c.id, c.function?.name ?? "the tool");
        const results: string[] = [];
        for (let i = request.messages.length - 1; i >= 0 && request.messages[i]!.role === "tool"; i--) {
          const m = request.messages[i]!;
          results.unshift(`${names.get(m.tool_call_id ?? "") ?? "The tool"} returned: ${summarise(textOf(m.content), 800)}`);
        }
        content = results.join("\n");
        evidence.push(`summarised ${results.length} tool result(s)`);
        summary = `Reported the results of ${results.length} client tool call(s).`;
        // A question asked beside those calls (several requests in one message) is still open: asked again.
        const open = state?.pending;
        if (open && open.expires_at * 1000 >= clock.now().getTime()) {
          pending = open;
          gate = "escalate";
          decision = "conditional";
          content += `\n${open.tool}${shownArguments(open.arguments)} still needs approval. Answer yes to proceed or no to skip.`;
          summary += ` ${open.tool} still waits for the user's yes or no.`;
        }
      } else if (state?.pending && confirmation) {
        const p = state.pending;
        const tool = all.find((t) => t.name === p.tool);
        if (p.expires_at * 1000 < clock.now().getTime()) {
          content = `The request to run ${p.tool} expired; nothing was run. Ask again to start over.`;
          summary = `The pending ${p.tool} expired before the answer; nothing was run.`;
        } else if (confirmation === "no") {
          content = `Skipped ${p.tool}; nothing was run.`;
          evidence.push(`the user declined ${p.tool}`);
          summary = `The user said no: ${p.tool} was skipped.`;
        } else if (!tool) {
          gate = "blocked";
          content = `${p.tool} is no longer available; nothing was run.`;
          summary = `The pending ${p.tool} is no longer available; nothing was run.`;
        } else {
          evidence.push(`the user confirmed ${p.tool}`);
          const verdict = await review(tool, p.arguments);
          if (verdict.decision === "blocked") blockedAnswer(tool, verdict);
          else await proceed(tool, p.arguments, verdict);
        }
      } else if (forced) {
        const userTurns = turns.filter((m) => m.role === "user").map((m) => m.content);
        await decideCall(forced, extractArguments(forced.parameters, userTurns));
        if (gate === "blocked") throw forcedBlocked(forced, verdictReason);
      } else if (deps.upstream) {
        try {
          await viaUpstream(deps.upstream);
          answeredByModel = true;
        } catch (error) {
          // SVC_MODEL_FALLBACK=embedded: an unreachable model gives way to the embedded planner, unless some of
          // its words already went out on the stream (they cannot be taken back: the client gets the error).
          const unreachable = error instanceof AppError && error.code === "routing_unavailable";
          if (!unreachable || !deps.plannerFallback || streamedAny || verdicts.length > 0) throw error;
          evidence.push(`model provider unavailable, embedded planner used: ${error.message.slice(0, 160)}`);
          stages.mark("plan", "degraded", "model provider unavailable; the embedded planner decides");
          content = "";
          gate = "ok";
          await viaEngine(undefined);
        }
      } else {
        await viaEngine(deps.planner);
      }

      // max_tokens cuts the words of the answer (never a tool call).
      let finishReason: ChatAnswer["finishReason"] = toolCalls.length > 0 ? "tool_calls" : "stop";
      const limit = request.max_completion_tokens ?? request.max_tokens;
      // (A model's own answer was already cut by it: max_tokens went with the request.)
      if (toolCalls.length === 0 && !answeredByModel && typeof limit === "number" && limit >= 0) {
        const encoded = encode(content);
        if (encoded.length > limit) {
          content = decode(encoded.slice(0, limit));
          finishReason = "length";
        }
      }
      const prompt = promptTokens();
      const completion = tokens(content) + toolCalls.reduce((n, c) => n + tokens(c.function.name) + tokens(c.function.arguments), 0);
      const pendingActions: PendingAction[] = pending ? [{ tool: pending.tool, arguments: redactAction(pending.arguments) as Record<string, unknown>, confirm_with: "yes", expires_at: pending.expires_at }] : [];

      const intelligence = engine
        ? (intentToWire(engine, { intentId: id, traceId: options.traceId, conversationId, domain, dryRun: false }).body.intelligence as Record<string, unknown>)
        : chatTrace({
            summary: summary || (answeredByModel ? `Answered by the model ${deps.upstream!.model}${memoryFacts.queried > 0 ? ` with ${memoryFacts.queried} memory item(s)` : ""}.` : content.split("\n")[0]!.slice(0, 200)),
            startedAt,
            durationMs: Math.round(performance.now() - t0),
            stages: stages.stages,
            evidence,
            gaps,
            capability: { total: offered.length, healthy: offered.filter((t) => t.health() === "healthy").length, active: (await connections.summary(workspaceId)).active, matches: proposedCalls || verdicts.length },
            memory: memoryFacts,
            policiesActive: (await policies.ruleSet(workspaceId)).size > 0,
            verdicts,
            nextAction: pending
              ? confirmNext(pending.tool)
              : gate === "blocked"
                ? { type: "none", label: "Blocked; change the request or the policy", ...(verdictReason ? { reason: verdictReason } : {}) }
                : gate === "needs_input"
                  ? { type: "resolve_gap", label: content.split("\n")[0]!.slice(0, 200) }
                  : toolCalls.length > 0
                    ? { type: "none", label: "Run the tool calls and send their results as tool messages" }
                    : { type: "none", label: "Nothing to do" },
          });
      if (engine) {
        const reasoning = intelligence.reasoning as { evidence?: string[] } | undefined;
        if (reasoning && Array.isArray(reasoning.evidence)) reasoning.evidence = [...reasoning.evidence, ...evidence];
        const g = intelligence.governance as Record<string, unknown> | undefined;
        if (g && decision !== "none") g.decision = decision;
        // In a chat the requester approves by answering, not through an escalation.
        if (pending) intelligence.next_action = confirmNext(pending.tool);
      }

      const at = clock.now();
      const known = await knownSecrets;
      // Kept when it can be resumed: the caller named it, or a confirmation waits on it.
      if (!options.dryRun && (request.conversation_id !== undefined || pending)) {
        const history = [...turns, { role: "assistant" as const, content: content || (toolCalls.length ? `Called ${toolCalls.map((c) => c.function.name).join(", ")}.` : "") }].slice(-MAX_TURNS);
        const next: ChatState = { kind: "chat", messages: history.map((m) => ({ role: m.role, content: maskSecrets(m.content, known) })), ...(pending ? { pending } : {}) };
        await saveConversation(db, workspaceId, conversationId, next as unknown as Record<string, unknown>, at);
      }
      const answer: ChatAnswer = { id, created, model: request.model ?? "svc", conversationId, traceId: options.traceId, content, toolCalls, finishReason, gate, pendingActions, usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }, intelligence };
      const status = gate === "ok" ? (toolCalls.length ? "tool_calls" : "answered") : gate === "escalate" ? "needs_confirmation" : gate === "blocked" ? "blocked_by_policy" : "needs_input";
      deps.onDecision?.(status);
      if (options.dryRun) return answer;
      // Made at the flush, after the answer went out (masking and shaping are not the caller's wait).
      const recordedDecision = decision === "none" ? (engine?.governance.decision ?? "none") : decision;
      const durationMs = engine?.durationMs ?? Math.round(performance.now() - t0);
      await deps.records.add(workspaceId, () => ({
        id,
        traceId: options.traceId,
        conversationId,
        type: "chat",
        status,
        domain: domain ?? null,
        decision: recordedDecision,
        confidence: engine?.governance.confidence ?? 1,
        gaps: engine?.gaps.length ?? 0,
        durationMs,
        request: {
          path: "/api/v1/svc/chat/completions",
          messages: requestTurns.map((m) => ({ role: m.role, content: maskSecrets(m.content, known) })),
          memory: memoryOn,
          conversation_id: conversationId,
          tools: [...client.keys()],
          ...(request.user ? { user: request.user } : {}),
          // What a replay needs to decide the turn again: the messages as sent (tool results included), the
          // client's function definitions and the tool choice.
          chat: {
            messages: request.messages.map((m) => maskedMessage(m, known)),
            tools: request.tools ?? [],
            ...(request.tool_choice !== undefined ? { tool_choice: request.tool_choice } : {}),
            ...(domain ? { context: { domain } } : {}),
            // The confirmation open when the turn came, which a yes or no answered or a tool-results turn asked
            // again, so that a replay decides the same (secrets masked: by field name and by value).
            ...(state?.pending && (confirmation || last.role === "tool") ? { open_confirmation: { ...state.pending, arguments: maskStrings(redactAction(state.pending.arguments), known) } } : {}),
          },
        },
        response: {
          object: "chat.completion",
          content: maskSecrets(content, known),
          tool_calls: toolCalls.map((c) => c.function.name),
          finish_reason: finishReason,
          gate,
          pending_actions: pendingActions.map((p) => p.tool),
          // Arguments taken from the messages carry the same values.
          intelligence: known && known.size > 0 ? (maskStrings(intelligence, known) as typeof intelligence) : intelligence,
        },
        executionId: null,
        createdAt: at,
      }));
      return answer;
    },
  };
}

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

/**
 * The parts of one message joined by "and", "then", "also" or a semicolon, when there are several (at most
 * 5): "delete /tmp/a.txt and /tmp/b.txt" → ["delete /tmp/a.txt", "/tmp/b.txt"]. Whether they are separate
 * requests is the engine's call, part by part (the caller keeps a split only when every part is an action).
 */
export function requestParts(text: string): string[] {
  const parts = text
    .split(/\s*(?:;|,?\s+and then\s+|,?\s+then\s+|,?\s+and also\s+|,?\s+also\s+|,\s*and\s+|\s+and\s+)\s*/i)
    .map((p) => p.trim().replace(/[.!]+$/, ""))
    .filter((p) => p.length > 0);
  return parts.length > 1 && parts.length <= 5 ? parts : [];
}

const confirmNext = (tool: string) => ({ type: "confirm_execution", label: `Answer yes to run ${tool}, or no to skip it` });

function forcedBlocked(tool: Tool, reason: string | undefined): AppError {
  return new AppError("blocked_by_policy", {
    message: `tool_choice requires ${tool.name}, which policy blocks: ${reason ?? "blocked"}`,
    details: [{ field: "tool_choice.function.name", message: reason ?? "blocked by policy" }],
    extra: { reason: reason ?? "blocked by policy", tool: tool.name },
  });
}
