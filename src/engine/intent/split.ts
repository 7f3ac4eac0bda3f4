// Several requests in one message ("archive the March report and the April one", "pause job 7; then
// restart job 9"): each part is decided on its own, and the message counts as several requests only when
// every part comes out as a complete action (approved or blocked) and at most one of them needs a yes or
// no (a confirmation answers one action at a time). Anything else (a question, a missing argument, two
// approvals to ask) is one request, decided whole. Both /intent and /chat/completions ask this, so one
// sentence is split, or not, the same way on both.
import type { GovernanceVerdict } from "../governance/action.ts";
import type { Tool } from "../../tools/tool.ts";
import type { EngineResult, Message } from "./engine.ts";
import { missingArguments } from "./plan.ts";

const MAX_PARTS = 5;

/**
 * The parts of one message joined by "and", "then", "also" or a semicolon, when there are several (at most
 * MAX_PARTS): "delete /tmp/a.txt and /tmp/b.txt" → ["delete /tmp/a.txt", "/tmp/b.txt"]. Whether they are
 * separate requests is decided part by part (decideParts).
 */
export function requestParts(text: string): string[] {
  const parts = text
    .split(/\s*(?:;|,?\s+and then\s+|,?\s+then\s+|,?\s+and also\s+|,?\s+also\s+|,\s*and\s+|\s+and\s+)\s*/i)
    .map((p) => p.trim().replace(/[.!]+$/, ""))
    .filter((p) => p.length > 0);
  return parts.length > 1 && parts.length <= MAX_PARTS ? parts : [];
}

/** One of the requests: its call, the verdict its decision carried, and whether that verdict asks a yes or no. */
export interface PartAction {
  tool: Tool;
  arguments: Record<string, unknown>;
  verdict: GovernanceVerdict;
  ask: boolean;
  /** The part's decision. */
  result: EngineResult;
}

export interface SplitDecision {
  /** The message's parts, as decided. */
  parts: string[];
  /** Each part's decision, in order. */
  results: EngineResult[];
  /** The distinct actions (a call named twice is one), in the message's order. */
  actions: PartAction[];
}

/**
 * The last user turn decided as several requests, or undefined when it is one. `decide` runs the engine on
 * a conversation (the earlier turns and one part); it should not open escalations, as a split that is not
 * kept is decided again whole.
 */
export async function decideParts(messages: Message[], decide: (messages: Message[]) => Promise<EngineResult>): Promise<SplitDecision | undefined> {
  const last = messages.at(-1);
  if (!last || last.role !== "user") return undefined;
  const parts = requestParts(last.content);
  if (parts.length < 2) return undefined;
  const earlier = messages.slice(0, -1);
  const results: EngineResult[] = [];
  // A part is a request of its own only when it says what it wants: one that only carries the earlier
  // turns on ("ok", a bare value, "then do it") makes the message one request, decided whole.
  // A blocked part counts only when it is a whole call too: "… and redundancy for the kind" with the first
  // part's verb lent to it is blocked, but it is no termination of anyone.
  const complete = (r: EngineResult) => r.outcome.type !== "blocked" || missingArguments(r.outcome.tool, r.outcome.arguments).length === 0;
  const isAction = (r: EngineResult) => (r.outcome.type === "execution" || r.outcome.type === "blocked") && complete(r) && !(r.plan?.kind === "tool" && r.plan.continued);
  // "delete /tmp/a.txt and /tmp/b.txt": a part without its own verb borrows the first part's.
  const verb = parts[0]!.split(/\s+/)[0]!;
  for (const part of parts) {
    let result = await decide([...earlier, { role: "user", content: part }]);
    if (!isAction(result) && results.length > 0 && !part.toLowerCase().startsWith(verb.toLowerCase())) result = await decide([...earlier, { role: "user", content: `${verb} ${part}` }]);
    results.push(result);
    // One part that is not an action makes the message one request: the rest need not be tried.
    if (!isAction(result)) return undefined;
  }
  const actions = results.flatMap((r): PartAction[] => {
    const o = r.outcome;
    if (o.type === "blocked") return [{ tool: o.tool, arguments: o.arguments, verdict: o.verdict, ask: o.conditional === true, result: r }];
    if (o.type === "execution" && r.governance.verdict) return [{ tool: o.tool, arguments: o.arguments, verdict: r.governance.verdict, ask: false, result: r }];
    return [];
  });
  const distinct = actions.filter((a, i) => actions.findIndex((b) => b.tool === a.tool && JSON.stringify(b.arguments) === JSON.stringify(a.arguments)) === i);
  if (actions.length !== results.length || distinct.length < 2 || distinct.filter((a) => a.ask).length > 1) return undefined;
  return { parts, results, actions: distinct };
}
