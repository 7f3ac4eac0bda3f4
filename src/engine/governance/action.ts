// The governed action: what every path that could run a tool (the invoke route, the intent engine, chat
// completions, executions, setup's dry runs) hands to the chokepoint. One function builds it from a tool
// call, so the attributes rules read, the tool's words and its declared parameters are the same whichever
// path asks. Conversation text never goes into it: "ignore previous policies" in a message is just text.
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
  /**
   * The tool's declared parameters (dotted paths), when its schema is known: a condition on a field the
   * tool cannot carry does not apply, one on a declared field the call left out fails closed.
   */
  parameters?: string[];
  /**
   * The values each of the tool's parameters with a closed list may take (`hull_class: [dinghy, yacht]`):
   * a rule naming one of them ("hauling out a yacht") is not about a call that holds another.
   */
  choices?: Readonly<Record<string, readonly string[]>>;
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

/** What governance needs of a tool: any runtime's tool fits. */
export interface GovernableTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters?: Record<string, unknown>;
  /** The arguments as rules read them, when their shape differs (an OpenAPI body's fields under `body`). */
  attributes?(args: Record<string, unknown>): Record<string, unknown>;
}

const leavesCache = new WeakMap<object, Map<string, Record<string, unknown>>>();

/**
 * The leaf schemas of an object schema's properties by dotted path (nested objects flattened, a few levels
 * deep): what rules read as the tool's parameters, and what bindings show them against.
 */
export function parameterSchemas(schema: Record<string, unknown> | undefined): Map<string, Record<string, unknown>> | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  const hit = leavesCache.get(schema);
  if (hit) return hit;
  const leaves = new Map<string, Record<string, unknown>>();
  const walk = (s: unknown, prefix: string, depth: number) => {
    const props = s && typeof s === "object" ? (s as Record<string, unknown>).properties : undefined;
    if (!props || typeof props !== "object") return;
    for (const [key, inner] of Object.entries(props as Record<string, unknown>)) {
      const path = prefix ? `${prefix}.${key}` : key;
      const node = inner && typeof inner === "object" ? (inner as Record<string, unknown>) : {};
      if (node.properties && depth < 4) {
        // An OpenAPI request body nested under `body`: rules read its fields at the top (attributes).
        walk(node, key === "body" ? prefix : path, depth + 1);
      } else leaves.set(path, node);
    }
  };
  walk(schema, "", 0);
  leavesCache.set(schema, leaves);
  return leaves;
}

const pathsCache = new WeakMap<object, string[]>();

/** The dotted paths of an object schema's properties, as `parameterSchemas` flattens them. */
export function parameterPaths(schema: Record<string, unknown> | undefined): string[] | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  let paths = pathsCache.get(schema);
  if (!paths) {
    paths = [...parameterSchemas(schema)!.keys()];
    pathsCache.set(schema, paths);
  }
  return paths;
}

const choicesCache = new WeakMap<object, Readonly<Record<string, readonly string[]>>>();

/** The string values of each parameter with an enum, by dotted path (see `parameterSchemas`). */
export function parameterChoices(schema: Record<string, unknown> | undefined): Readonly<Record<string, readonly string[]>> | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  let choices = choicesCache.get(schema);
  if (!choices) {
    const out: Record<string, readonly string[]> = {};
    for (const [path, leaf] of parameterSchemas(schema)!) {
      const values = Array.isArray(leaf.enum) ? leaf.enum.filter((v): v is string => typeof v === "string") : [];
      if (values.length > 1) out[path] = values;
    }
    choices = out;
    choicesCache.set(schema, choices);
  }
  return choices;
}

/** The one way to make a governed action from a tool call. */
export function governedAction(tool: GovernableTool, args: Record<string, unknown>, context: { caller: Actor; domain?: string | null; now?: Date }): GovernedAction {
  const parameters = parameterPaths(tool.parameters);
  const choices = parameterChoices(tool.parameters);
  return {
    tool: tool.name,
    arguments: tool.attributes ? tool.attributes(args) : args,
    ...(context.domain ? { domain: context.domain } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    ...(parameters && parameters.length > 0 ? { parameters } : {}),
    ...(choices && Object.keys(choices).length > 0 ? { choices } : {}),
    caller: context.caller,
    ...(context.now ? { now: context.now } : {}),
  };
}
