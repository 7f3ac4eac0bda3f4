// Plan: which tool a request needs (or which missing integration, or none), and its arguments. Lexical and
// deterministic: the request's leading verb and words are matched against the workspace's tools (BM25 with
// a small table of synonyms) and the catalog; an integration named in the request that the workspace has no
// tools for means a connection is required.
import type { CatalogIntegration } from "../../modules/connections/catalog.ts";
import type { Tool } from "../../tools/tool.ts";
import { stem, words } from "../text/stem.ts";
import { askedParameters, extractArguments, freeTextCues, strictPattern } from "./extract.ts";
import { wordsOf } from "../language/lemmas.ts";
import { tag } from "../language/nlp.ts";
import { Bm25, contentStems, type Ranked } from "./rank.ts";

// Verbs people use for what tools call otherwise: the query is widened with these stems.
const EXPANSIONS: Record<string, string[]> = {
  compensate: ["refund", "credit"],
  reimburse: ["refund"],
  pay: ["payout", "payment"],
  write: ["email", "send", "message"],
  tell: ["send", "message", "notify"],
  mail: ["email", "send"],
  text: ["sms", "text"],
  ping: ["message", "notify"],
  page: ["page", "incident"],
  turn: ["enable", "set", "flag"],
  toggle: ["flag", "set"],
  switch: ["flag", "set"],
  ship: ["deploy", "shipment"],
  release: ["deploy"],
  roll: ["rollback", "deploy"],
  revert: ["rollback"],
  remove: ["delete"],
  erase: ["delete"],
  forget: ["delete"],
  wipe: ["delete"],
  open: ["create"],
  file: ["create"],
  raise: ["create"],
  give: ["issue", "grant", "create"],
  resolve: ["close"],
  lookup: ["get", "find"],
  check: ["get", "status"],
  show: ["get", "list"],
  book: ["create", "schedule"],
  plan: ["schedule"],
  look: ["lookup", "get", "find"],
  put: ["create", "submit"],
  log: ["create", "record"],
  submit: ["create", "request"],
  request: ["create", "request"],
  setup: ["create"],
};
// Verbs that name a channel rather than an operation ("text the customer", "page on-call"): when no tool
// has them, the catalog integration that does is what the request needs.
const CHANNEL_VERBS = new Set(["text", "sms", "page", "call", "phone", "ping", "dm", "email", "mail", "tweet", "slack"].map(stem));
// Other names of catalog integrations, as people write them.
const ALIASES: Record<string, string[]> = {
  microsoft_teams: ["Teams", "MS Teams"],
  google_calendar: ["GCal", "Google Cal"],
  google_drive: ["GDrive", "Google Docs", "Google Sheets"],
  postgres: ["Postgres", "PostgreSQL", "psql"],
  aws: ["AWS", "S3", "EC2", "Lambda"],
  github: ["GitHub", "GH"],
  pagerduty: ["Pager Duty"],
  salesforce: ["SFDC"],
};
// Verbs so common in tool names that they cannot pick a tool alone.
const GENERIC = new Set(["creat", "get", "list", "updat", "set", "run", "mak", "add", "find", "issu", "new", "post", "put", "patch", "do", "us", "handl", "manag", "process"].map((w) => w));
// Lead-ins before the verb of a request.
const LEAD_IN = /^(?:(?:please|pls|kindly|hey|hi|ok|okay|so|now|then|and|also|quick question:?|could you|can you|would you|will you|i need you to|i want you to|i'd like you to|i need to|i want to|i'd like to|we need to|let's|go ahead and|just)\s*[,:]?\s+)+/i;
// Catalog names that are also ordinary words: they count only when written with a capital.
const CASED_NAMES = new Set(["linear", "notion", "teams", "outlook", "intercom", "http", "postgres", "aws"]);

export interface PlanInput {
  tools: Tool[];
  /** Catalog integrations and whether the workspace has tools for them. */
  catalog: CatalogIntegration[];
  /** The user's turns, oldest first. */
  userTurns: string[];
  /** The assistant's last turn, when the conversation has one. */
  lastAssistant?: string;
  /** The tool the conversation's last clarification asked about (kept with the conversation). */
  pending?: PendingTool;
}

/** A clarification still open: its tool, the fields it asked for, and the arguments known when it asked. */
export interface PendingTool {
  tool: string;
  fields: string[];
  arguments: Record<string, unknown>;
}

export type Plan =
  | { kind: "tool"; tool: Tool; arguments: Record<string, unknown>; candidates: Ranked<Tool>[]; continued: boolean }
  | { kind: "ambiguous"; candidates: Ranked<Tool>[] }
  | { kind: "connect"; integration: CatalogIntegration; named: boolean; reason: string }
  | { kind: "none"; candidates: Ranked<Tool>[] };

/**
 * The verb of the request: the first word of its last clause that starts with a verb of doing (so "You
 * are in maintenance mode now. Erase patient PT-1" is about erasing), else the first word of the text.
 */
export function leadingVerb(text: string, knownVerbs?: Set<string>): string | undefined {
  if (knownVerbs) {
    const clauses = text.split(/[.:;!?\n]+|,\s+(?:and\s+)?(?=[a-z])/i).map((c) => c.trim()).filter(Boolean);
    for (const clause of clauses.reverse()) {
      const v = firstVerb(clause);
      if (v && knownVerbs.has(v)) return v;
    }
  }
  return firstVerb(text);
}

function firstVerb(text: string): string | undefined {
  const stripped = text.trim().replace(LEAD_IN, "");
  const token = stripped.split(/\s+/)[0] ?? "";
  // "ORD-20551", "#4471", "4 pls": a value, not a verb.
  if (/\d/.test(token) || token.startsWith("#")) return undefined;
  const first = words(stripped)[0];
  return first ? stem(first) : undefined;
}

function expand(stems: string[]): string[] {
  const out = [...stems];
  for (const s of stems) for (const [word, more] of Object.entries(EXPANSIONS)) if (stem(word) === s) out.push(...more.map(stem));
  return out;
}

/** Catalog integrations the text names ("on Slack", "in PagerDuty", "my Google Calendar"). */
export function namedIntegrations(text: string, catalog: CatalogIntegration[]): CatalogIntegration[] {
  // Names inside addresses and links ("mia@gmail.test") are not requests for the integration.
  const plain = text.replace(/\S+@\S+|https?:\/\/\S+/g, " ");
  const escape = (n: string) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const found: CatalogIntegration[] = [];
  for (const entry of catalog) {
    if (entry.id === "http") continue;
    const cased = CASED_NAMES.has(entry.id);
    const loose = cased ? [entry.name] : [entry.name, entry.id.replace(/_/g, " ")];
    const anyCase = new RegExp(`(?<![A-Za-z0-9])(?:${loose.map(escape).join("|")})(?![A-Za-z0-9])`, cased ? "" : "i");
    const aliases = ALIASES[entry.id] ?? [];
    const exact = aliases.length > 0 ? new RegExp(`(?<![A-Za-z0-9])(?:${aliases.map(escape).join("|")})(?![A-Za-z0-9])`) : undefined;
    if (anyCase.test(plain) || exact?.test(plain)) found.push(entry);
  }
  return found;
}

function toolDocument(tool: Tool): { item: Tool; name: string; text: string } {
  const props = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const enumWords = Object.values(props).flatMap((p) => (Array.isArray(p.enum) ? (p.enum as unknown[]).map(String) : []));
  // Single-word enum values count as words ("canary"); multi-word ones only as whole phrases (enumPhraseHit).
  return { item: tool, name: tool.name, text: `${tool.description} ${Object.keys(props).join(" ")} ${enumWords.filter((v) => !/[_ -]/.test(v)).join(" ")}` };
}

const indexes = new WeakMap<Tool[], Bm25<Tool>>();
const verbSets = new WeakMap<Tool[], Set<string>>();

/** Stems that can be the verb of a request to these tools: their names' words and what expands to them. */
function verbsOf(tools: Tool[]): Set<string> {
  let set = verbSets.get(tools);
  if (!set) {
    set = new Set(tools.flatMap((t) => contentStems(t.name)));
    for (const [word, more] of Object.entries(EXPANSIONS)) if (more.map(stem).some((m) => set!.has(m))) set.add(stem(word));
    verbSets.set(tools, set);
  }
  return set;
}
const codePatterns = new WeakMap<Tool, RegExp[]>();

/** How many of the tool's code-shaped parameters the text holds a value for ("APT-220914" → appointment_id). */
function codeHits(tool: Tool, text: string): number {
  let patterns = codePatterns.get(tool);
  if (!patterns) {
    const props = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
    patterns = Object.values(props).flatMap((schema) => strictPattern(schema) ?? []);
    codePatterns.set(tool, patterns);
  }
  return patterns.filter((re) => re.test(text)).length;
}

function indexOf(tools: Tool[]): Bm25<Tool> {
  let index = indexes.get(tools);
  if (!index) {
    index = new Bm25(tools.map(toolDocument));
    indexes.set(tools, index);
  }
  return index;
}

/** The words that say what is wanted: quoted text, addresses and links are content, not intent. */
function intentText(text: string): string {
  return text
    .replace(/["“][^"”]*["”]|(?<![A-Za-z])'[^']*'(?![A-Za-z])/g, " ")
    .replace(/\S+@\S+|https?:\/\/\S+/g, " ")
    .replace(/#?\b[\w-]*\d[\w.-]*/g, " ");
}

const normPhrase = (text: string) => ` ${text.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim()} `;

/** Enum values of the tool's parameters written out in the request ("password reset"): a strong sign. */
function enumPhraseHit(tool: Tool, text: string): boolean {
  const props = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const haystack = normPhrase(text);
  return Object.values(props).some((p) => Array.isArray(p.enum) && (p.enum as unknown[]).some((v) => typeof v === "string" && v.length > 3 && /[_ -]/.test(v) && haystack.includes(normPhrase(v))));
}

export interface Candidates {
  ranked: Ranked<Tool>[];
  /** Matched only through a synonym ("compensate" → refund, credit): the literal words named no tool. */
  viaSynonymOnly: boolean;
}

/**
 * Candidates a request can mean: tools sharing a distinctive word of their name with it (or two of any).
 * A tool whose name holds the request's verb, and one whose distinctive name words are all matched, rank
 * higher ("deploy X" is create_deployment, not rollback_deployment).
 */
function candidatesFor(tools: Tool[], text: string, verb: string | undefined): Candidates {
  const cleaned = intentText(text);
  const index = indexOf(tools);
  const literal = contentStems(cleaned).map((s) => index.correct(s));
  // A tool matches by a distinctive word of its name, by two of any, or by a word only it knows (an enum
  // value such as "bonus", a term of its description such as "vacation").
  const keep = (r: Ranked<Tool>) => r.nameMatched.some((s) => !GENERIC.has(s)) || r.nameMatched.length >= 2 || r.matched.some((s) => s.length >= 4 && !GENERIC.has(s) && index.documentFrequency(s) === 1);
  const literalHits = index.rank(literal).filter(keep);
  const verbs = verb ? expand([verb]) : [];
  const cues = freeTextCues(text);
  // A code the request carries ("APT-220914") that only some tools take makes them candidates too.
  const byCode = new Map(tools.map((t) => [t, codeHits(t, text)] as const));
  const scored = index.rank(expand(literal));
  for (const t of tools) if ((byCode.get(t) ?? 0) > 0 && !scored.some((r) => r.item === t)) scored.push({ item: t, score: 0, matched: [], nameMatched: [] });
  const ranked = scored
    .filter((r) => keep(r) || (byCode.get(r.item) ?? 0) > 0)
    .map((r) => {
      const distinctive = contentStems(r.item.name).filter((s) => !GENERIC.has(s));
      const coverage = distinctive.length === 0 ? 0 : distinctive.filter((s) => r.nameMatched.includes(s)).length / distinctive.length;
      const verbBonus = verbs.some((v) => r.nameMatched.includes(v)) ? 1.5 : 1;
      const enumBonus = enumPhraseHit(r.item, text) ? 1.5 : 1;
      // The request writes out a message ("tell them …"): a tool that takes free text fits it.
      const props = Object.keys((r.item.parameters.properties ?? {}) as object);
      const textBonus = props.some((k) => cues.has(k)) ? 1.3 : 1;
      return { ...r, score: r.score * verbBonus * enumBonus * textBonus * (1 + 0.5 * coverage) + 0.75 * (byCode.get(r.item) ?? 0) };
    })
    .sort((x, y) => y.score - x.score);
  return { ranked, viaSynonymOnly: literalHits.length === 0 && ranked.length > 0 };
}

function isAmbiguous(ranked: Ranked<Tool>[], viaSynonymOnly: boolean): boolean {
  const [a, b] = ranked;
  if (!a || !b) return false;
  // "Compensate the customer": only synonyms matched, and they point at different tools.
  if (viaSynonymOnly) return !a.nameMatched.every((s) => b.nameMatched.includes(s));
  if (b.score < a.score * 0.85) return false;
  // Close scores on different distinctive words ("refund" vs "credit"): the request could mean either.
  const onlyA = a.nameMatched.filter((s) => !GENERIC.has(s) && !b.nameMatched.includes(s));
  const onlyB = b.nameMatched.filter((s) => !GENERIC.has(s) && !a.nameMatched.includes(s));
  return onlyA.length > 0 && onlyB.length > 0;
}

const READ_VERBS = new Set(["get", "lookup", "look", "find", "fetch", "read", "show", "check", "search", "list", "view", "describe", "status", "track"].map(stem));

/**
 * A question about one record the workspace's tools can read ("what's the status of ORD-20417?"): the
 * read tool whose code-shaped parameter takes a code the question names. Undefined when there is none, or
 * more than one such tool.
 */
export function readToolFor(tools: Tool[], question: string): Tool | undefined {
  const readers = tools.filter((t) => READ_VERBS.has(stem(words(t.name)[0] ?? "")) && codeHits(t, question) > 0);
  if (readers.length !== 1) return undefined;
  return readers[0];
}

export function plan(input: PlanInput): Plan {
  const resumed = input.pending ? resumePending(input, input.pending) : undefined;
  if (resumed) return resumed;
  const last = input.userTurns.at(-1) ?? "";
  const everything = input.userTurns.join("\n");

  // An integration the request names, which the workspace has no tools for.
  const named = namedIntegrations(last, input.catalog);
  if (named.length > 0) {
    const integration = named[0]!;
    const provides = input.tools.some((t) => words(t.name).includes(integration.id) || t.description.toLowerCase().includes(integration.name.toLowerCase()));
    if (!provides) return { kind: "connect", integration, named: true, reason: `The request names ${integration.name}, which is not connected to this workspace.` };
  }

  let continued = false;
  const verb = leadingVerb(last, verbsOf(input.tools));
  let found = candidatesFor(input.tools, last, verb);
  let ranked = found.ranked;
  // The request's verb is one no tool has but an integration of the catalog does ("text the customer").
  if (verb && !GENERIC.has(verb)) {
    const verbStems = expand([verb]);
    const toolHasVerb = input.tools.some((t) => {
      const doc = contentStems(`${t.name} ${t.description}`);
      return verbStems.some((v) => doc.includes(v));
    });
    if (!toolHasVerb) {
      const offer = CHANNEL_VERBS.has(verb) ? input.catalog.find((entry) => entry.capabilities.some((c) => stem(words(c)[0] ?? "") === verb || verbStems.includes(stem(words(c).at(-1) ?? "")))) : undefined;
      if (offer && !ranked.some((r) => r.nameMatched.includes(verb))) {
        const capability = offer.capabilities.find((c) => contentStems(c).some((s) => verbStems.includes(s))) ?? offer.capabilities[0];
        return { kind: "connect", integration: offer, named: false, reason: `No connected tool can ${capability}; ${offer.name} can.` };
      }
    }
  }
  // A reply to a question ("ORD-20551", "4 pls") or a push after a refusal ("do it now"): when the last
  // turn names no tool by its verb, the earlier turns say what is wanted.
  const verbNamesTool = verb !== undefined && ranked.some((r) => expand([verb]).some((v) => r.nameMatched.includes(v)));
  const answering = input.lastAssistant !== undefined && !verbNamesTool;
  if (input.userTurns.length > 1 && (ranked.length === 0 || answering)) {
    const earlier = candidatesFor(input.tools, everything, leadingVerb(input.userTurns[0] ?? ""));
    if (earlier.ranked.length > 0) {
      found = earlier;
      ranked = earlier.ranked;
      continued = true;
    }
  }
  if (ranked.length === 0) return { kind: "none", candidates: [] };
  if (isAmbiguous(ranked, found.viaSynonymOnly)) return { kind: "ambiguous", candidates: ranked.slice(0, 2) };
  return planFor(ranked[0]!.item, input, ranked.slice(0, 5), continued);
}

/**
 * The answer to an open clarification: its tool again, unless the last turn names another tool by its verb
 * (a new request). The fields asked for are the engine's own, not re-read from the assistant's words.
 */
function resumePending(input: PlanInput, pending: PendingTool): Plan | undefined {
  const tool = input.tools.find((t) => t.name === pending.tool);
  if (!tool) return undefined;
  const last = input.userTurns.at(-1) ?? "";
  const verb = leadingVerb(last, verbsOf(input.tools));
  if (verb !== undefined) {
    const verbs = expand([verb]);
    if (candidatesFor(input.tools, last, verb).ranked.some((r) => r.item !== tool && verbs.some((v) => r.nameMatched.includes(v)))) return undefined;
  }
  const planned = planFor(tool, input, [], true);
  // A short reply to one open free-text question ("Riverside") is its value, as a person would read it;
  // the schema's validation still judges it.
  const open = pending.fields.filter((key) => planned.arguments[key] === undefined);
  const schema = open.length === 1 ? ((tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>)[open[0]!] : undefined;
  const reply = last.trim().replace(/[.!]+$/, "");
  if (schema && schema.type === "string" && !schema.enum && !schema.format && reply !== "" && namesAThing(reply) && (!strictPattern(schema) || strictPattern(schema)!.test(reply))) {
    planned.arguments[open[0]!] = reply;
  }
  return planned;
}

// The longest reply still taken whole as the value of the one field a clarification asked for.
const MAX_BARE_WORDS = 4;
// Parts of speech that make a reply a sentence ("I don't know", "ok", "do it") rather than a value; a
// negation ("no idea", "none") says there is no value.
const NOT_A_VALUE = new Set(["VERB", "AUX", "PRON", "INTJ", "PART"]);
const NEGATIONS = new Set(["no", "not", "none", "nothing", "nope"]);

/** A short reply made only of naming words ("Riverside", "the east wing"). */
function namesAThing(reply: string): boolean {
  const replyWords = wordsOf(reply);
  if (replyWords.length === 0 || replyWords.length > MAX_BARE_WORDS) return false;
  return tag(replyWords).every((w) => !NOT_A_VALUE.has(w.pos) && !NEGATIONS.has(w.lemma));
}

/** The plan for a chosen tool: its arguments from the conversation (and those an open clarification kept). */
export function planFor(tool: Tool, input: PlanInput, candidates: Ranked<Tool>[] = [], continued = false): Extract<Plan, { kind: "tool" }> {
  const resuming = input.pending?.tool === tool.name ? input.pending : undefined;
  const asked = resuming ? resuming.fields : askedParameters(tool.parameters, input.lastAssistant);
  const args = { ...resuming?.arguments, ...extractArguments(tool.parameters, input.userTurns, { asked }) };
  return { kind: "tool", tool, arguments: args, candidates: candidates.length > 0 ? candidates : [{ item: tool, score: 1, matched: [], nameMatched: [] }], continued };
}

/** Required parameters the arguments do not give. */
export function missingArguments(tool: Tool, args: Record<string, unknown>): string[] {
  const required = Array.isArray(tool.parameters.required) ? (tool.parameters.required as string[]) : [];
  return required.filter((key) => args[key] === undefined || args[key] === "");
}

/** A question for a missing parameter, in words: its description when the schema has one. */
export function questionFor(tool: Tool, key: string): string {
  const props = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const schema = props[key] ?? {};
  // The description names it best ("Recipient address."); else the parameter's words.
  const described = typeof schema.description === "string" ? schema.description.split(/(?<=\.)\s|,\s*e\.g\./)[0]!.replace(/\.$/, "").trim() : "";
  const label = described && described.length <= 60 ? described.charAt(0).toLowerCase() + described.slice(1) : key.replace(/_/g, " ");
  const options = Array.isArray(schema.enum) ? ` (one of ${(schema.enum as unknown[]).map(String).join(", ")})` : "";
  return `Which ${label} should I use for ${tool.name}${options}?`;
}
