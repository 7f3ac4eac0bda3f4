// The client's function definitions (a chat request's `tools`) as tools the engine can plan and governance can
// judge, with their JSON Schemas compiled for validation. Never invoked here: the client runs them.
import type { ValidateFunction } from "ajv";
import { argumentsValidator } from "../../tools/arguments-validator.ts";
import type { JsonSchema, Tool } from "../../tools/tool.ts";
import type { ChatFunction } from "./service.ts";


// Client tool definitions compiled and kept (by their JSON); beyond this the cache starts over.
const MAX_CLIENT_TOOLS = 500;

export type ClientTool = { tool: Tool; validate: ValidateFunction | undefined };
// An agent sends the same tool definitions with every request: the set is kept by its JSON (one stringify a
// request), with its tools made and its token count taken once. Never changed once made.
export type ToolSet = { json: string; client: ReadonlyMap<string, ClientTool>; tokens?: number };

/** A cache of client tool sets: the function answers a request's set, made once per distinct JSON. */
export function createClientTools(): (definitions: ChatFunction[] | undefined) => ToolSet {
  const ajv = argumentsValidator();
  const clientTools = new Map<string, ClientTool>();

  /** A client function definition as a tool (never invoked here: the client runs it). */
  function clientTool(definition: ChatFunction): ClientTool | undefined {
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

  const toolSets = new Map<string, ToolSet>();
  const noTools: ToolSet = { json: "", client: new Map(), tokens: 0 };
  const toolSetOf = (definitions: ChatFunction[] | undefined): ToolSet => {
    if (!definitions?.length) return noTools;
    const json = JSON.stringify(definitions);
    let set = toolSets.get(json);
    if (!set) {
      const client = new Map<string, ClientTool>();
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
  return toolSetOf;
}
