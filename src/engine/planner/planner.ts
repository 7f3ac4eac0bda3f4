// A model provider for the intent engine: given the conversation, the workspace's tools and the memory
// items found for it, it may choose a tool and fill its arguments, or write an answer grounded in those
// items. It proposes only: the engine validates the arguments against the tool's schema, runs gap
// analysis and the governance chokepoint on the structured action exactly as for the embedded planner.
import type { MemoryHit } from "../ports.ts";
import type { Tool } from "../../tools/tool.ts";

export interface PlannerInput {
  messages: { role: "user" | "assistant" | "system"; content: string }[];
  tools: Tool[];
  /** Memory items found for the last user turn, for grounded answers (their ids are cited back). */
  memory: MemoryHit[];
  domain?: string;
}

export type PlannerProposal =
  /** Call this tool with these arguments (the engine checks both). */
  | { kind: "tool"; tool: string; arguments: Record<string, unknown> }
  /** Answer in words; `used` lists the memory item ids the answer rests on (none: nothing known). */
  | { kind: "answer"; content: string; used: string[] }
  /** The model could not decide; the engine answers as if nothing matched. */
  | { kind: "none" };

export interface Planner {
  readonly name: string;
  /** Throws PlannerUnavailable when the provider cannot be reached or answers garbage. */
  propose(input: PlannerInput, signal?: AbortSignal): Promise<PlannerProposal>;
}

export class PlannerUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PlannerUnavailable";
  }
}
