// Learning: what a workspace's own history suggests, computed on demand and deterministically (the same
// history gives the same answer, ids included) from its intelligence records, executions and audit log.
// - patterns: the same tool with the same arguments planned again and again; each tool's calls by argument names.
// - episodes: finished executions, what was run and how it ended.
// - suggestions: a question memory could not answer, an integration asked for while missing, a policy that
//   blocks often, each seen at least MIN_OCCURRENCES times in the window.
// Nothing is stored: a suggestion disappears once its cause does (the knowledge added, the integration
// installed, the policy deleted, or the occurrences older than the window).
import { createHash } from "node:crypto";
import type { Clock } from "../../clock.ts";
import { canonicalJson } from "../../canonical-json.ts";
import type { Db } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import type { ErrorCode } from "../../errors/catalog.ts";
import type { RecordWriter } from "../intent/records.ts";
import type { Episode, Pattern, Suggestion } from "./schemas.ts";
import {
  blockingPolicies,
  countFinishedExecutions,
  finishedExecutions,
  missingIntegrations,
  toolArgumentPatterns,
  toolUsagePatterns,
  unansweredQuestions,
  type CountedRow,
} from "./store.ts";

/** How often a thing must happen in the window before it is a pattern or a suggestion. */
export const MIN_OCCURRENCES = 3;
export const DEFAULT_WINDOW_DAYS = 30;
export const MAX_WINDOW_DAYS = 90;

export interface LearningQuery {
  days?: number;
  limit: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

export interface LearningService {
  patterns(workspaceId: string, query: LearningQuery): Promise<Page<Pattern>>;
  episodes(workspaceId: string, query: LearningQuery): Promise<Page<Episode>>;
  suggestions(workspaceId: string, query: LearningQuery): Promise<Page<Suggestion>>;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A stable id: the same finding has the same id on every call (and in every process). */
export function stableId(prefix: string, key: string): string {
  const digest = createHash("sha256").update(key).digest();
  let out = "";
  for (let i = 0; out.length < 22; i++) out += BASE62[digest[i % digest.length]! % 62];
  return `${prefix}_${out}`;
}

const STOPWORDS = new Set(
  "a an the is are was were be been being am do does did doing what whats which who whom whose when where why how our your my their its his her we you i me us they them it this that these those of in on at to for from by with about as into over under and or but if then than so not no can could should would will shall may might must please pls tell know any some there here have has had get got".split(
    " ",
  ),
);

/**
 * A question reduced to what identifies it: lower case, words only, stop words dropped, a plural `s`
 * dropped, sorted and unique. "What is our refund policy?" and "what's the refund policy" are one question.
 */
export function normaliseQuestion(question: string): string {
  const words = question
    .toLowerCase()
    .replace(/['’]s\b/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "" && !STOPWORDS.has(w))
    .map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w));
  return [...new Set(words)].sort().join(" ");
}

const iso = (value: Date | string | null | undefined): string => (value ? new Date(value).toISOString() : "");
const impactOf = (n: number): "high" | "medium" | "low" => (n >= 10 ? "high" : n >= 5 ? "medium" : "low");
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** A failure of the database connection itself: the learning system is unavailable, not broken. */
function unreachable(error: unknown): boolean {
  const code = (error as { code?: unknown; cause?: { code?: unknown } })?.code ?? (error as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === "string" && (code.startsWith("08") || code === "57P01" || code === "57P03" || code === "ECONNREFUSED" || code === "ECONNRESET");
}

async function guarded<T>(code: ErrorCode, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(unreachable(error) ? "learning_unavailable" : code, { cause: error });
  }
}

function page<T>(items: T[], query: LearningQuery): Page<T> {
  return { items: items.slice(query.offset, query.offset + query.limit), total: items.length };
}

export function createLearningService(deps: { db: Db; clock: Clock; records?: Pick<RecordWriter, "flush"> }): LearningService {
  const { db, clock } = deps;
  // Chat records are written behind the answer: this process's queued ones are written before reading.
  const flushed = async () => deps.records?.flush();
  const windowOf = (query: LearningQuery) => {
    const days = Math.min(Math.max(query.days ?? DEFAULT_WINDOW_DAYS, 1), MAX_WINDOW_DAYS);
    return { days, since: new Date(clock.nowMs() - days * 86_400_000) };
  };

  return {
    patterns: (workspaceId, query) =>
      guarded("learning_detection_failed", async () => {
        const { days, since } = windowOf(query);
        const [exact, usage] = await Promise.all([toolArgumentPatterns(db, workspaceId, since, MIN_OCCURRENCES), toolUsagePatterns(db, workspaceId, since, MIN_OCCURRENCES)]);
        const patterns: Pattern[] = [
          ...exact.map((r): Pattern => {
            const args = canonicalJson(r.arguments ?? {});
            return {
              id: stableId("pat", `tool_arguments:${r.tool}:${args}`),
              pattern: `${r.tool} ${args}`,
              type: "tool_arguments",
              description: `${r.tool} was planned ${r.n} times with the same arguments in the last ${days} days.`,
              // The share of the runs that succeeded: how safe it is to make this a procedure.
              confidence: round3(r.succeeded / Math.max(1, r.n)),
              occurrences: r.n,
              domain: r.domain,
              tags: [r.tool, "tool_arguments"],
              tool_name: r.tool,
              arguments: r.arguments ?? {},
              created_at: iso(r.first_seen),
              evidence: { count: r.n, succeeded: r.succeeded, failed: r.failed, first_seen: iso(r.first_seen), last_seen: iso(r.last_seen), example_trace_ids: r.traces ?? [] },
            };
          }),
          ...usage.map((r): Pattern => {
            const names = r.argument_names ?? [];
            return {
              id: stableId("pat", `tool_usage:${r.tool}:${names.join(",")}`),
              pattern: `${r.tool}(${names.join(", ")})`,
              type: "tool_usage",
              description: `${r.tool} was called ${r.n} times with the arguments ${names.length ? names.join(", ") : "(none)"} in the last ${days} days.`,
              confidence: round3(r.succeeded / Math.max(1, r.n)),
              occurrences: r.n,
              domain: null,
              tags: [r.tool, "tool_usage"],
              tool_name: r.tool,
              argument_names: names,
              created_at: iso(r.first_seen),
              evidence: { count: r.n, succeeded: r.succeeded, failed: r.failed, first_seen: iso(r.first_seen), last_seen: iso(r.last_seen), example_trace_ids: r.traces ?? [] },
            };
          }),
        ];
        patterns.sort((a, b) => b.occurrences - a.occurrences || a.id.localeCompare(b.id));
        return page(patterns, query);
      }),

    episodes: (workspaceId, query) =>
      guarded("learning_query_failed", async () => {
        const { since } = windowOf(query);
        const [rows, total] = await Promise.all([finishedExecutions(db, workspaceId, since, query.limit, query.offset), countFinishedExecutions(db, workspaceId, since)]);
        const items = rows.map((r): Episode => {
          const steps = r.steps ?? [];
          const tools = steps.map((s) => s.tool);
          const attempts = steps.reduce((sum, s) => sum + (s.attempts ?? 0), 0);
          const failed = steps.find((s) => s.status === "failed");
          const started = r.started_at ? Date.parse(iso(r.started_at)) : NaN;
          const finished = r.finished_at ? Date.parse(iso(r.finished_at)) : NaN;
          const outcome = r.status === "completed" ? "success" : r.status === "failed" ? "failure" : "cancelled";
          const how =
            r.status === "completed"
              ? `completed${attempts > steps.length ? ` after ${attempts - steps.length} retr${attempts - steps.length === 1 ? "y" : "ies"}` : ""}`
              : r.status === "failed"
                ? `failed at ${failed?.tool ?? "a step"}${r.error_category ? ` (${r.error_category})` : ""}`
                : "was cancelled";
          return {
            id: r.id,
            description: `${tools.join(" → ") || "an execution"} ${how}.`,
            outcome,
            status: r.status,
            trace_id: r.trace_id,
            domain: r.domain,
            execution_id: r.id,
            tool_names: tools,
            steps: steps.length,
            attempts,
            error: r.error,
            error_category: r.error_category,
            duration_ms: Number.isFinite(finished - started) ? Math.max(0, Math.round(finished - started)) : null,
            created_at: iso(r.created_at),
            finished_at: r.finished_at ? iso(r.finished_at) : null,
          };
        });
        return { items, total };
      }),

    suggestions: (workspaceId, query) =>
      guarded("learning_suggestion_failed", async () => {
        const { days, since } = windowOf(query);
        await flushed();
        const [questions, integrations, policies] = await Promise.all([
          unansweredQuestions(db, workspaceId, since),
          missingIntegrations(db, workspaceId, since, MIN_OCCURRENCES),
          blockingPolicies(db, workspaceId, since, MIN_OCCURRENCES),
        ]);
        const suggestions: Suggestion[] = [...knowledgeSuggestions(questions, days), ...integrations.map((r) => installSuggestion(r, days)), ...policies.map((r) => policySuggestion(r, days))];
        suggestions.sort((a, b) => b.evidence.count - a.evidence.count || a.type.localeCompare(b.type) || a.id.localeCompare(b.id));
        return page(suggestions, query);
      }),
  };
}

function knowledgeSuggestions(rows: Awaited<ReturnType<typeof unansweredQuestions>>, days: number): Suggestion[] {
  // Rows come newest first: the first variant of a group is its latest wording.
  const groups = new Map<string, { variants: string[]; traces: string[]; count: number; first: string; last: string; domain: string | null }>();
  for (const row of rows) {
    const question = (row.question ?? "").trim();
    const key = normaliseQuestion(question);
    if (key === "") continue;
    const at = iso(row.created_at);
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { variants: [question], traces: [row.trace_id], count: 1, first: at, last: at, domain: row.domain });
      continue;
    }
    group.count++;
    group.first = at;
    if (group.variants.length < 5 && !group.variants.includes(question)) group.variants.push(question);
    if (group.traces.length < 5) group.traces.push(row.trace_id);
  }
  return [...groups]
    .filter(([, g]) => g.count >= MIN_OCCURRENCES)
    .map(([key, g]) => ({
      id: stableId("sug", `add_knowledge:${key}`),
      type: "add_knowledge",
      description: `Add knowledge that answers "${g.variants[0]!.slice(0, 300)}": asked ${g.count} times in the last ${days} days and not answered from memory.`,
      impact: impactOf(g.count),
      domain: g.domain,
      target: { question: g.variants[0]!.slice(0, 1_000), normalised: key, variants: g.variants.map((v) => v.slice(0, 1_000)) },
      next_action: { type: "add_memory", label: "Store the answer as a memory item", endpoint: "/api/v1/svc/memory" },
      evidence: { count: g.count, first_seen: g.first, last_seen: g.last, example_trace_ids: g.traces },
    }));
}

function installSuggestion(r: CountedRow, days: number): Suggestion {
  return {
    id: stableId("sug", `install_integration:${r.key}`),
    type: "install_integration",
    description: `Install ${r.name ?? r.key}: requests needed it ${r.n} times in the last ${days} days while it was not connected.`,
    impact: impactOf(r.n),
    domain: r.domain,
    target: { integration_id: r.key, ...(r.name ? { name: r.name } : {}) },
    next_action: { type: "connect_tool", label: `Connect ${r.name ?? r.key}`, endpoint: "/api/v1/svc/connections/install" },
    evidence: { count: r.n, first_seen: iso(r.first_seen), last_seen: iso(r.last_seen), example_trace_ids: r.traces ?? [] },
  };
}

function policySuggestion(r: CountedRow, days: number): Suggestion {
  return {
    id: stableId("sug", `review_policy:${r.key}`),
    type: "review_policy",
    description: `Review policy "${r.name ?? r.key}": it blocked ${r.n} requests in the last ${days} days.`,
    impact: impactOf(r.n),
    domain: r.domain,
    target: { policy_id: r.key, ...(r.name ? { name: r.name } : {}) },
    next_action: { type: "add_policy", label: "Review the policy's rules", endpoint: `/api/v1/svc/policies/${r.key}` },
    evidence: { count: r.n, first_seen: iso(r.first_seen), last_seen: iso(r.last_seen), example_trace_ids: r.traces ?? [] },
  };
}
