// The evaluation sets: fixtures (one workspace each) and cases (one intent request each), read from disk and
// checked before anything runs. A case or fixture that cannot be right (an unknown tool, a policy sentence
// the language refuses, a type/status pair the README does not allow) stops the run: a measurement made
// with a broken question says nothing about the engine.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseRule, splitClauses } from "../src/engine/governance/parse.ts";
import { CATALOG_BY_ID } from "../src/modules/connections/catalog.ts";
import { splitOf, type Split } from "./split.ts";

export { splitOf, type Split };

export type SetName = "shared" | "sample-b" | "team" | "generated" | "fresh" | "fresh2" | "fresh3" | "fresh4" | "fresh5" | "fresh6" | "fresh7" | "fresh8" | "fresh9" | "fresh10" | "fresh11" | "fresh12" | "fresh13" | "fresh14";

export const DECISION_TYPES = ["direct", "clarify", "execution", "blocked", "connect_required"] as const;
export type DecisionType = (typeof DECISION_TYPES)[number];

/** The one status each decision type goes with (README of the shared set). */
export const STATUS_OF: Record<DecisionType, string> = {
  direct: "answered",
  clarify: "needs_input",
  execution: "ready_to_execute",
  blocked: "blocked_by_policy",
  connect_required: "blocked_by_missing_connection",
};

export const REASON_CODES = ["blocked_by_policy", "conditional_approval_required"] as const;
const MEMORY_TYPES = ["reference", "preference", "episode", "precedent", "note", "project"];
const ROLES = ["user", "assistant", "system"];

/** Which expectation fields a decision type may carry (the README's table). */
const FIELDS_FOR: Record<string, readonly DecisionType[]> = {
  type: DECISION_TYPES,
  status: DECISION_TYPES,
  tool: ["execution", "clarify", "blocked"],
  args: ["execution", "blocked"],
  policy: ["blocked"],
  reason_code: ["blocked"],
  integration: ["connect_required"],
  missing: ["clarify"],
  answer_contains: ["direct"],
  expect_low_confidence: ["direct"],
};

export interface Message {
  role: "user" | "assistant" | "system";
  content: string;
}

export interface Expect {
  type: DecisionType;
  status: string;
  tool?: string;
  args?: Record<string, unknown>;
  policy?: string;
  reason_code?: (typeof REASON_CODES)[number];
  integration?: string;
  missing?: string[];
  answer_contains?: string[];
  expect_low_confidence?: boolean;
}

export interface Case {
  id: string;
  fixture: string;
  messages: Message[];
  context?: Record<string, unknown>;
  expect: Expect;
  note: string;
  /** Where it came from, for messages. */
  set: SetName;
  /** Sets that are split (team, generated): which part this case is in. */
  split?: Split;
  source: string;
}

export interface Operation {
  operationId: string;
  connection: string;
  method: string;
  path: string;
  /** Argument names of the tool the operation becomes: path, query and header parameters, body fields. */
  parameters: Set<string>;
  required: Set<string>;
  /** What the service's import will do differently from the plain reading (e.g. nest a body). */
  warnings: string[];
}

export interface MemoryItem {
  type: string;
  content: { text: string } & Record<string, unknown>;
  domain?: string;
  tags?: string[];
}

export interface Fixture {
  name: string;
  openapi: { name: string; spec: Record<string, unknown> }[];
  memory: MemoryItem[];
  policies: { name: string; rule: string }[];
  operations: Map<string, Operation>;
  set: SetName;
  source: string;
}

export interface EvalSet {
  name: SetName;
  dir: string;
  fixtures: Map<string, Fixture>;
  cases: Case[];
}

/** A problem with the harness's input (a fixture, a case) or its setup: the run stops with exit code 1. */
export class HarnessError extends Error {
  override name = "HarnessError";
}

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Where each set lives: its fixture folders and its case files. The team's set is split by a hash of each
 * case id; the generated set is split by its generator (a hash of the meaning id) into two files.
 */
export const SET_DIRS: Record<SetName, { dir: string; fixtureDirs: string[]; files: { name: string; split?: Split }[]; splitById?: boolean }> = {
  shared: { dir: path.resolve(here, "../../shared/eval"), fixtureDirs: [path.resolve(here, "../../shared/eval/fixtures")], files: [{ name: "dev.jsonl" }] },
  "sample-b": {
    dir: path.resolve(here, "../../shared/eval/sample-b"),
    fixtureDirs: [path.resolve(here, "../../shared/eval/sample-b/fixtures")],
    files: [{ name: "cases.jsonl" }],
  },
  team: { dir: here, fixtureDirs: [path.join(here, "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  // Written by a colleague who had not read the engine, in domains no other set has (docs/eval.md).
  fresh: { dir: path.join(here, "fresh"), fixtureDirs: [path.join(here, "fresh", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  // A second such set, by another writer, in two more domains (docs/eval.md).
  fresh2: { dir: path.join(here, "fresh2"), fixtureDirs: [path.join(here, "fresh2", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  // A third, by a third writer, in a hotel and on a building site (docs/eval.md).
  fresh3: { dir: path.join(here, "fresh3"), fixtureDirs: [path.join(here, "fresh3", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  fresh4: { dir: path.join(here, "fresh4"), fixtureDirs: [path.join(here, "fresh4", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  fresh5: { dir: path.join(here, "fresh5"), fixtureDirs: [path.join(here, "fresh5", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  fresh6: { dir: path.join(here, "fresh6"), fixtureDirs: [path.join(here, "fresh6", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  fresh7: { dir: path.join(here, "fresh7"), fixtureDirs: [path.join(here, "fresh7", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  fresh8: { dir: path.join(here, "fresh8"), fixtureDirs: [path.join(here, "fresh8", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  fresh9: { dir: path.join(here, "fresh9"), fixtureDirs: [path.join(here, "fresh9", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  fresh10: { dir: path.join(here, "fresh10"), fixtureDirs: [path.join(here, "fresh10", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  fresh11: { dir: path.join(here, "fresh11"), fixtureDirs: [path.join(here, "fresh11", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  fresh12: { dir: path.join(here, "fresh12"), fixtureDirs: [path.join(here, "fresh12", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  fresh13: { dir: path.join(here, "fresh13"), fixtureDirs: [path.join(here, "fresh13", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  fresh14: { dir: path.join(here, "fresh14"), fixtureDirs: [path.join(here, "fresh14", "fixtures")], files: [{ name: "cases.jsonl" }], splitById: true },
  generated: {
    dir: path.join(here, "generated"),
    fixtureDirs: [path.join(here, "fixtures"), path.join(here, "generated", "fixtures")],
    files: [
      { name: "tune.jsonl", split: "tune" },
      { name: "holdout.jsonl", split: "holdout" },
    ],
  },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new HarnessError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HarnessError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Follows local `$ref`s (`#/components/...`) of an OpenAPI document. */
function deref(document: Record<string, unknown>, value: unknown, where: string, depth = 0): Record<string, unknown> {
  if (!isObject(value)) return {};
  const ref = value.$ref;
  if (typeof ref !== "string") return value;
  if (depth > 20 || !ref.startsWith("#/")) throw new HarnessError(`${where}: unsupported $ref ${ref}`);
  let target: unknown = document;
  for (const part of ref.slice(2).split("/")) target = isObject(target) ? target[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  if (!isObject(target)) throw new HarnessError(`${where}: $ref ${ref} points nowhere`);
  return deref(document, target, where, depth + 1);
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** The operations of one OpenAPI document, with the argument names the service's import gives them. */
function operationsOf(connection: string, spec: Record<string, unknown>, where: string): Operation[] {
  if (typeof spec.openapi !== "string" || !spec.openapi.startsWith("3.")) throw new HarnessError(`${where}: spec.openapi must be an OpenAPI 3.x version`);
  const servers = Array.isArray(spec.servers) ? spec.servers : [];
  if (servers.length === 0) throw new HarnessError(`${where}: spec.servers is empty`);
  for (const server of servers) {
    const url = isObject(server) && typeof server.url === "string" ? server.url : "";
    let host = "";
    try {
      host = new URL(url).hostname;
    } catch {
      // reported below
    }
    if (!host.endsWith(".test")) throw new HarnessError(`${where}: server ${JSON.stringify(url)} is not on a .test host (fixture servers are never called)`);
  }
  if (!isObject(spec.paths)) throw new HarnessError(`${where}: spec.paths is missing`);
  const operations: Operation[] = [];
  for (const [p, rawItem] of Object.entries(spec.paths)) {
    const item = deref(spec, rawItem, `${where} ${p}`);
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const at = `${where} ${method.toUpperCase()} ${p}`;
      if (typeof op.operationId !== "string" || !/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(op.operationId)) {
        throw new HarnessError(`${at}: operationId must be a plain identifier (it names the tool)`);
      }
      const parameters = new Set<string>();
      const required = new Set<string>();
      const warnings: string[] = [];
      for (const raw of [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
        const parameter = deref(spec, raw, at);
        if (typeof parameter.name !== "string" || typeof parameter.in !== "string") throw new HarnessError(`${at}: a parameter lacks name or in`);
        if (parameter.in === "cookie") continue;
        parameters.add(parameter.name);
        if (parameter.in === "path" || parameter.required === true) required.add(parameter.name);
        if (parameter.in === "path" && !p.includes(`{${parameter.name}}`)) throw new HarnessError(`${at}: path parameter ${parameter.name} is not in the path`);
      }
      for (const m of p.matchAll(/\{([^}]+)\}/g)) {
        if (!parameters.has(m[1]!)) throw new HarnessError(`${at}: {${m[1]}} has no path parameter`);
      }
      if (op.requestBody !== undefined) {
        const body = deref(spec, op.requestBody, at);
        const content = isObject(body.content) ? body.content : {};
        const media = content["application/json"];
        if (!isObject(media)) throw new HarnessError(`${at}: the request body must be application/json`);
        const schema = deref(spec, media.schema, at);
        if (!isObject(schema.properties)) throw new HarnessError(`${at}: the request body must be an object of plain properties`);
        const fields = Object.keys(schema.properties);
        const clash = fields.filter((f) => parameters.has(f) || f === "body");
        // The import then keeps the body as one `body` argument instead of flattening its fields; cases
        // still name the fields (the README's convention), so this is reported, not refused.
        if (clash.length > 0) warnings.push(`${at}: body field(s) ${clash.join(", ")} clash with a parameter name or "body": the import nests the whole body under a "body" argument`);
        for (const field of fields) parameters.add(field);
        if (body.required === true && Array.isArray(schema.required)) {
          for (const field of schema.required) {
            if (typeof field !== "string" || !parameters.has(field)) throw new HarnessError(`${at}: required field ${String(field)} is not a property`);
            required.add(field);
          }
        }
      }
      operations.push({ operationId: op.operationId, connection, method: method.toUpperCase(), path: p, parameters, required, warnings });
    }
  }
  if (operations.length === 0) throw new HarnessError(`${where}: the document has no operations`);
  return operations;
}

/** Every clause of a policy rule, parsed as the service will parse it; the refusal names the words. */
export function checkRule(rule: string): string | undefined {
  const clauses = splitClauses(rule);
  if (clauses.length === 0) return "the rule is empty";
  for (const clause of clauses) {
    const parsed = parseRule(clause);
    if (!parsed.ok) return `"${clause}": ${parsed.error.message}`;
  }
  return undefined;
}

function loadFixture(file: string, set: SetName): Fixture {
  const raw = readJson(file);
  const where = path.relative(process.cwd(), file);
  if (!isObject(raw)) throw new HarnessError(`${where}: not a JSON object`);
  const { name, openapi, memory, policies } = raw;
  if (typeof name !== "string" || !/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new HarnessError(`${where}: name must be a lower-case slug`);
  if (path.basename(file, ".json") !== name) throw new HarnessError(`${where}: name ${name} differs from the file name`);
  if (!Array.isArray(openapi) || openapi.length === 0) throw new HarnessError(`${where}: openapi must be a non-empty list`);
  const operations = new Map<string, Operation>();
  const connections = new Set<string>();
  for (const [i, entry] of openapi.entries()) {
    if (!isObject(entry) || typeof entry.name !== "string" || entry.name === "" || !isObject(entry.spec)) {
      throw new HarnessError(`${where}: openapi[${i}] must be {name, spec}`);
    }
    if (connections.has(entry.name)) throw new HarnessError(`${where}: two connections named ${entry.name}`);
    connections.add(entry.name);
    for (const op of operationsOf(entry.name, entry.spec, `${where} openapi[${i}] (${entry.name})`)) {
      if (operations.has(op.operationId)) throw new HarnessError(`${where}: operationId ${op.operationId} appears twice`);
      operations.set(op.operationId, op);
    }
  }
  if (!Array.isArray(memory)) throw new HarnessError(`${where}: memory must be a list`);
  for (const [i, item] of memory.entries()) {
    const at = `${where}: memory[${i}]`;
    if (!isObject(item)) throw new HarnessError(`${at} is not an object`);
    if (typeof item.type !== "string" || !MEMORY_TYPES.includes(item.type)) throw new HarnessError(`${at}: type must be one of ${MEMORY_TYPES.join(", ")}`);
    if (!isObject(item.content) || typeof item.content.text !== "string" || item.content.text.trim() === "") throw new HarnessError(`${at}: content.text must be a non-empty string`);
    if (item.domain !== undefined && typeof item.domain !== "string") throw new HarnessError(`${at}: domain must be a string`);
    if (item.tags !== undefined && (!Array.isArray(item.tags) || item.tags.some((t) => typeof t !== "string"))) throw new HarnessError(`${at}: tags must be strings`);
  }
  if (!Array.isArray(policies)) throw new HarnessError(`${where}: policies must be a list`);
  const names = new Set<string>();
  for (const [i, policy] of policies.entries()) {
    const at = `${where}: policies[${i}]`;
    if (!isObject(policy) || typeof policy.name !== "string" || policy.name === "" || typeof policy.rule !== "string") throw new HarnessError(`${at} must be {name, rule}`);
    if (names.has(policy.name)) throw new HarnessError(`${at}: the name ${policy.name} is used twice`);
    names.add(policy.name);
    // A rule the language refuses is the service's failure, not the fixture's: the workspace is set up
    // without it (the run reports it) and the cases that needed it fail.
  }
  return {
    name,
    openapi: openapi as Fixture["openapi"],
    memory: memory as MemoryItem[],
    policies: policies as Fixture["policies"],
    operations,
    set,
    source: where,
  };
}

export function checkCase(raw: unknown, where: string, set: SetName, fixtures: Map<string, Fixture>): Case {
  if (!isObject(raw)) throw new HarnessError(`${where}: not a JSON object`);
  const { id, fixture: fixtureName, messages, context, expect, note } = raw;
  const allowed = new Set(["id", "fixture", "messages", "context", "expect", "note"]);
  for (const key of Object.keys(raw)) if (!allowed.has(key)) throw new HarnessError(`${where}: unknown field ${key}`);
  if (typeof id !== "string" || !/^[a-z][a-z0-9]*(-[a-z]+)*-\d{2,}$/.test(id)) throw new HarnessError(`${where}: id must look like dev-001, team-001 or fr-ins-01`);
  const at = `${where} (${id})`;
  if (typeof fixtureName !== "string") throw new HarnessError(`${at}: fixture missing`);
  const fixture = fixtures.get(fixtureName);
  if (!fixture) throw new HarnessError(`${at}: no fixture named ${fixtureName} in the ${set} set`);
  if (!Array.isArray(messages) || messages.length === 0) throw new HarnessError(`${at}: messages must be a non-empty list`);
  for (const [i, m] of messages.entries()) {
    if (!isObject(m) || typeof m.role !== "string" || !ROLES.includes(m.role) || typeof m.content !== "string" || m.content.trim() === "") {
      throw new HarnessError(`${at}: messages[${i}] must be {role: user|assistant|system, content: non-empty text}`);
    }
  }
  if ((messages[0] as Message).role !== "user" || (messages.at(-1) as Message).role !== "user") throw new HarnessError(`${at}: the first and last turns must be from the user`);
  if (context !== undefined && (!isObject(context) || (context.domain !== undefined && typeof context.domain !== "string"))) {
    throw new HarnessError(`${at}: context must be an object whose domain is a string`);
  }
  if (typeof note !== "string" || note.trim() === "") throw new HarnessError(`${at}: note (why this is the right decision) is required`);
  if (!isObject(expect)) throw new HarnessError(`${at}: expect must be an object`);
  const type = expect.type as DecisionType;
  if (!DECISION_TYPES.includes(type)) throw new HarnessError(`${at}: expect.type must be one of ${DECISION_TYPES.join(", ")}`);
  if (expect.status !== STATUS_OF[type]) throw new HarnessError(`${at}: expect.status must be ${STATUS_OF[type]} for type ${type}`);
  for (const key of Object.keys(expect)) {
    const types = FIELDS_FOR[key];
    if (!types) throw new HarnessError(`${at}: unknown expectation ${key}`);
    if (!types.includes(type)) throw new HarnessError(`${at}: expect.${key} is not checked for type ${type}`);
  }
  let operation: Operation | undefined;
  if (expect.tool !== undefined) {
    if (typeof expect.tool !== "string") throw new HarnessError(`${at}: expect.tool must be a string`);
    operation = fixture.operations.get(expect.tool);
    if (!operation) throw new HarnessError(`${at}: expect.tool ${expect.tool} is not an operationId of fixture ${fixture.name}`);
  }
  if (expect.args !== undefined) {
    if (!isObject(expect.args) || Object.keys(expect.args).length === 0) throw new HarnessError(`${at}: expect.args must be a non-empty object`);
    if (!operation) throw new HarnessError(`${at}: expect.args needs expect.tool`);
    for (const key of Object.keys(expect.args)) {
      if (!operation.parameters.has(key)) throw new HarnessError(`${at}: ${key} is not an argument of ${operation.operationId}`);
    }
  }
  if (expect.missing !== undefined) {
    if (!Array.isArray(expect.missing) || expect.missing.length === 0 || expect.missing.some((m) => typeof m !== "string")) throw new HarnessError(`${at}: expect.missing must be a non-empty list of names`);
    if (!operation) throw new HarnessError(`${at}: expect.missing needs expect.tool`);
    for (const m of expect.missing as string[]) {
      if (!operation.required.has(m)) throw new HarnessError(`${at}: ${m} is not a required argument of ${operation.operationId}`);
    }
  }
  if (type === "blocked") {
    if (expect.policy !== undefined && (typeof expect.policy !== "string" || !fixture.policies.some((p) => p.name === expect.policy))) {
      throw new HarnessError(`${at}: expect.policy ${String(expect.policy)} is not a policy of fixture ${fixture.name}`);
    }
    if (expect.reason_code !== undefined && !(REASON_CODES as readonly unknown[]).includes(expect.reason_code)) throw new HarnessError(`${at}: expect.reason_code must be one of ${REASON_CODES.join(", ")}`);
  }
  if (expect.integration !== undefined && (typeof expect.integration !== "string" || !CATALOG_BY_ID.has(expect.integration))) {
    throw new HarnessError(`${at}: expect.integration ${String(expect.integration)} is not a catalog integration id`);
  }
  if (expect.answer_contains !== undefined) {
    const list = expect.answer_contains;
    if (!Array.isArray(list) || list.length === 0 || list.some((s) => typeof s !== "string" || s === "" || s !== s.toLowerCase())) {
      throw new HarnessError(`${at}: expect.answer_contains must be a non-empty list of lower-case strings`);
    }
  }
  if (expect.expect_low_confidence !== undefined && expect.expect_low_confidence !== true) throw new HarnessError(`${at}: expect.expect_low_confidence is either true or absent`);
  return {
    id,
    fixture: fixtureName,
    messages: messages as Message[],
    ...(context !== undefined ? { context: context as Record<string, unknown> } : {}),
    expect: expect as unknown as Expect,
    note,
    set,
    source: where,
  };
}

/** Reads and checks every fixture of a set's fixture folders (a name may appear only once). */
export function loadFixtures(name: SetName): Map<string, Fixture> {
  const fixtures = new Map<string, Fixture>();
  for (const fixtureDir of SET_DIRS[name].fixtureDirs) {
    if (!existsSync(fixtureDir)) throw new HarnessError(`the ${name} set has no fixtures folder (${fixtureDir})`);
    for (const file of readdirSync(fixtureDir).filter((f) => f.endsWith(".json")).sort()) {
      const fixture = loadFixture(path.join(fixtureDir, file), name);
      if (fixtures.has(fixture.name)) throw new HarnessError(`the ${name} set has two fixtures named ${fixture.name}`);
      fixtures.set(fixture.name, fixture);
    }
  }
  return fixtures;
}

/** Checks the lines of one case file against the set's fixtures; ids must be unique across `ids`. */
export function checkCaseLines(text: string, where: string, name: SetName, fixtures: Map<string, Fixture>, ids = new Set<string>()): Case[] {
  const cases: Case[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const at = `${where}:${i + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      throw new HarnessError(`${at}: not valid JSON: ${(error as Error).message}`);
    }
    const c = checkCase(raw, at, name, fixtures);
    if (ids.has(c.id)) throw new HarnessError(`${at}: the id ${c.id} is used twice`);
    ids.add(c.id);
    cases.push(c);
  }
  return cases;
}

/** Reads and checks one set: every fixture of its fixture folders and every line of its case files. */
export function loadSet(name: SetName): EvalSet {
  const { dir, files, splitById } = SET_DIRS[name];
  const fixtures = loadFixtures(name);
  const cases: Case[] = [];
  const ids = new Set<string>();
  for (const { name: casesFile, split } of files) {
    const file = path.join(dir, casesFile);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      const hint = name === "generated" ? " (run npm run eval:generate)" : "";
      throw new HarnessError(`cannot read ${file}: ${(error as Error).message}${hint}`);
    }
    for (const c of checkCaseLines(text, path.relative(process.cwd(), file), name, fixtures, ids)) {
      const part = split ?? (splitById ? splitOf(c.id) : undefined);
      cases.push(part !== undefined ? { ...c, split: part } : c);
    }
  }
  if (cases.length === 0) throw new HarnessError(`the ${name} set has no cases`);
  return { name, dir, fixtures, cases };
}
