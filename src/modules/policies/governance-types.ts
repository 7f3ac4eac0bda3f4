// The governance chokepoint's contract: every path that could run a tool (the tool invoke route, the intent
// engine, chat completions) hands a structured action to one function and obeys the verdict. Kept in its
// own file so runtimes depend on the contract, not on the policy engine's internals.
import type { Actor } from "../../events/audit.ts";

export interface GovernedAction {
  /** The tool's name, e.g. `refund_payment`, or the action described in words. */
  tool: string;
  /** The tool's arguments and any attributes of the action (amount, currency, environment, recipient...). */
  arguments: Record<string, unknown>;
  /** The domain the action is in (finance, support...); policies may be scoped to one. */
  domain?: string;
  /** The tool's description, so rules written with words ("refunds") match tools by meaning. */
  description?: string;
  /** Who asks: the workspace is the caller's, never taken from the action. */
  caller: Actor;
  /** Stands in for the clock (tests, replays); the real clock otherwise. */
  now?: Date;
}

export type GovernanceDecision = "approved" | "blocked" | "conditional";

export interface GovernanceVerdict {
  decision: GovernanceDecision;
  /** Plain words: why. Names the policy and clause when one fired. */
  reason: string;
  /** The policy that decided, when one did. */
  policy?: { id: string; name: string; version: number; clause: string };
  /** For `conditional`: the escalation a human resolves before the action may run. */
  escalationId?: string;
}

/** The chokepoint. Fail closed: an error inside yields `blocked`, never `approved`. */
export type Govern = (action: GovernedAction) => Promise<GovernanceVerdict>;
