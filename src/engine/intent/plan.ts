// Plan: which tool a request needs (or which missing integration, or none), and its arguments. Lexical and
// deterministic: the request's leading verb and words are matched against the workspace's tools (BM25 with
// a small table of synonyms) and the catalog; an integration named in the request that the workspace has no
// tools for means a connection is required.
import { escapeRegExp } from "../language/tokens.ts";
import type { CatalogIntegration } from "../ports.ts";
import type { Tool } from "../../tools/tool.ts";
import { words } from "../text/stem.ts";
import { askedParameters, dateOrderOf, examplePrefixPattern, extractArguments, freeTextCues, strictPattern } from "./extract.ts";
import { signaturesOf } from "./arguments/signature.ts";
import { classMembers, conceptsOf, initialsOfRuns, namesPeople, operationClassOf, sameConcept, verbClassOf } from "../language/lemmas.ts";
import { isEnglishWord, isKnownWord } from "../language/nlp.ts";
import { Bm25, rankKey, rankTerms, type Ranked } from "./rank.ts";
import { asMeant, asksForInput, clausesOf, requestFocus, type TurnKind } from "./classify.ts";

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
  record: ["log"],
  submit: ["create", "request"],
  request: ["create", "request"],
  setup: ["create"],
};
// Verbs that name a channel rather than an operation ("text the customer", "page on-call"): when no tool
// has them, the catalog integration that does is what the request needs.
const CHANNEL_VERBS = new Set(["text", "sms", "page", "call", "phone", "ping", "dm", "email", "mail", "tweet", "slack"].map(rankKey));
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
  /** The last turn's kind: an answer, a correction or insistence continues the earlier request. */
  turn?: TurnKind;
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
  return first ? rankKey(first) : undefined;
}

/**
 * The stems and the stems their words widen to. A word the stemmer reads as another's synonym ("write" is
 * update to it, like "change") widens only where it is written: "change the reason" must not reach send_…
 * through write → email, send. `written`: the request's words, when known.
 */
function expand(stems: string[], written?: string[]): string[] {
  const out = [...stems];
  for (const s of stems) {
    for (const [word, more] of Object.entries(EXPANSIONS)) {
      if (rankKey(word) !== s) continue;
      if (written && merged(word) && !written.some((w) => conceptsOf(w).has(word))) continue;
      out.push(...more.map(rankKey));
    }
  }
  return out;
}

/** The ranking key is another word's (stem.ts reads "write" as update, "mail" as email), not the word's own stem. */
const merged = (word: string) => !word.startsWith(rankKey(word).slice(0, 3));

// The patterns that find an integration's names, made once per catalog entry (the catalog is a constant).
const namePatterns = new WeakMap<CatalogIntegration, { anyCase: RegExp; exact: RegExp | undefined; channel: RegExp | undefined }>();

function namePatternsOf(entry: CatalogIntegration): { anyCase: RegExp; exact: RegExp | undefined; channel: RegExp | undefined } {
  let patterns = namePatterns.get(entry);
  if (!patterns) {
    const cased = CASED_NAMES.has(entry.id);
    const loose = cased ? [entry.name] : [entry.name, entry.id.replace(/_/g, " ")];
    const anyCase = new RegExp(`(?<![A-Za-z0-9])(?:${loose.map(escapeRegExp).join("|")})(?![A-Za-z0-9])`, cased ? "" : "i");
    const aliases = ALIASES[entry.id] ?? [];
    const exact = aliases.length > 0 ? new RegExp(`(?<![A-Za-z0-9])(?:${aliases.map(escapeRegExp).join("|")})(?![A-Za-z0-9])`) : undefined;
    // Its ordinary-word forms in lower case where a channel goes (placedAsChannel).
    const ordinary = [entry.name, ...aliases].filter((f) => !/\s/.test(f) && CASED_NAMES.has(f.toLowerCase())).map((f) => escapeRegExp(f.toLowerCase()));
    const channel = ordinary.length > 0 ? new RegExp(`(?:^|\\s)(?:on|via|over|through|using)\\s+(?:(?:my|our|the|their|your)\\s+)?(?:${ordinary.join("|")})(?![A-Za-z0-9])`) : undefined;
    patterns = { anyCase, exact, channel };
    namePatterns.set(entry, patterns);
  }
  return patterns;
}

/** Catalog integrations the text names ("on Slack", "in PagerDuty", "my Google Calendar"). */
export function namedIntegrations(text: string, catalog: CatalogIntegration[]): CatalogIntegration[] {
  // Names inside addresses, links and codes ("mia@gmail.test", "GH-12" for greenhouse 12) are not requests
  // for the integration.
  const plain = text.replace(/\S+@\S+|https?:\/\/\S+|(?<![\w-])[A-Za-z]{1,10}-\d[\w-]*/g, " ");
  const found: CatalogIntegration[] = [];
  for (const entry of catalog) {
    if (entry.id === "http") continue;
    const { anyCase, exact } = namePatternsOf(entry);
    if (anyCase.test(plain) || exact?.test(plain) || placedAsChannel(entry, plain)) found.push(entry);
  }
  return found;
}

/**
 * A catalog name that is also an ordinary word, written in lower case where a channel goes ("ping the ops
 * channel on teams", "via linear"): the integration. ("in teams of two" is no channel: "in" and "to" lead too
 * many ordinary uses.)
 */
function placedAsChannel(entry: CatalogIntegration, text: string): boolean {
  return namePatternsOf(entry).channel?.test(text) ?? false;
}

function toolDocument(tool: Tool): { item: Tool; name: string; text: string } {
  const props = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const enumWords = Object.values(props).flatMap((p) => (Array.isArray(p.enum) ? (p.enum as unknown[]).map(String) : []));
  // Parameter descriptions say what the tool acts on in the API author's words ("Work email of the
  // traveler", "Shelf name, e.g. north-annex"); formats in parentheses are not vocabulary, and examples
  // that are codes drop out as the request's codes do.
  const described = Object.values(props).map((p) => (typeof p.description === "string" ? p.description.replace(/\((?!e\.g\.)[^)]*\)/g, "") : "")).join(" ");
  // Single-word enum values count as words ("canary"); multi-word ones only as whole phrases (enumPhraseHit).
  return { item: tool, name: tool.name, text: `${tool.description} ${Object.keys(props).join(" ")} ${described} ${enumWords.filter((v) => !/[_ -]/.test(v)).join(" ")}` };
}

const spelledOut = new WeakMap<Tool[], Map<string, string>>();
// Words an acronym leaves out ("raise a purchase order" → PO); "for" it keeps (request for information → RFI).
const ARTICLES = new Set(["a", "an", "the"]);

/**
 * Acronyms the request writes ("PO", "RFI": capitals that are no word) spelt out as the tools' own
 * descriptions spell them ("raise a purchase order" → "purchase order"), so they rank as those words.
 */
function acronymWords(tools: Tool[], text: string): string[] {
  const written = [...text.matchAll(/(?<![A-Za-z0-9-])[A-Z]{2,4}s?(?![A-Za-z0-9-])/g)].map((m) => m[0].replace(/s$/, "").toLowerCase()).filter((a) => !isKnownWord(a));
  if (written.length === 0) return [];
  let runs = spelledOut.get(tools);
  if (!runs) {
    runs = new Map();
    for (const t of tools) for (const run of initialsOfRuns(words(`${t.name.replace(/_/g, " ")}. ${t.description}`).filter((w) => !ARTICLES.has(w)), 3)) if (!runs.has(run.initials)) runs.set(run.initials, run.words.join(" "));
    spelledOut.set(tools, runs);
  }
  return written.flatMap((a) => (runs!.get(a) ?? "").split(" ").filter(Boolean));
}

const indexes = new WeakMap<Tool[], Bm25<Tool>>();
const schemaLists = new WeakMap<Tool[], Tool["parameters"][]>();
/** The tools' parameter schemas, one list per tool set (so what is read from them is cached with it). */
function schemasOf(tools: Tool[]): Tool["parameters"][] {
  let list = schemaLists.get(tools);
  if (!list) schemaLists.set(tools, (list = tools.map((t) => t.parameters)));
  return list;
}
const verbSets = new WeakMap<Tool[], Set<string>>();

/** Stems that can be the verb of a request to these tools: their names' words and what expands to them. */
function verbsOf(tools: Tool[]): Set<string> {
  let set = verbSets.get(tools);
  if (!set) {
    set = new Set(tools.flatMap((t) => rankTerms(t.name)));
    for (const [word, more] of Object.entries(EXPANSIONS)) if (more.map(rankKey).some((m) => set!.has(m))) set.add(rankKey(word));
    verbSets.set(tools, set);
  }
  return set;
}
const codePatterns = new WeakMap<Tool, { re: RegExp; prefixed: boolean }[]>();

/**
 * How many of the tool's code-shaped parameters the text holds a value for ("APT-220914" → appointment_id).
 * `prefixedOnly`: only codes whose pattern starts with literal letters (`^BK-[0-9]{4,6}$`), which name one
 * kind of record; a pattern of character classes (`^[A-Z0-9]{2}[0-9]{1,4}$`) also accepts years and counts.
 */
function codeHits(tool: Tool, text: string, prefixedOnly = false): number {
  let patterns = codePatterns.get(tool);
  if (!patterns) {
    const props = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
    patterns = Object.values(props).flatMap((schema) => {
      const re = strictPattern(schema);
      if (re) return [{ re, prefixed: typeof schema.pattern === "string" && /^\^?[A-Za-z]{2}/.test(schema.pattern) }];
      const example = examplePrefixPattern(schema);
      return example ? [{ re: example, prefixed: true }] : [];
    });
    codePatterns.set(tool, patterns);
  }
  return patterns.filter((p) => (!prefixedOnly || p.prefixed) && p.re.test(text)).length;
}

function indexOf(tools: Tool[]): Bm25<Tool> {
  let index = indexes.get(tools);
  if (!index) {
    index = new Bm25(tools.map(toolDocument), rankTerms);
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

const enumKeyCounts = new WeakMap<Tool[], Map<string, number>>();
const enumKeys = new WeakMap<Tool, Set<string>>();
const enumKeysOf = (tool: Tool): Set<string> => {
  let keys = enumKeys.get(tool);
  if (!keys) {
    const props = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
    keys = new Set(Object.values(props).flatMap((p) => (Array.isArray(p.enum) ? (p.enum as unknown[]).filter((v): v is string => typeof v === "string").flatMap((v) => words(v).filter((w) => w.length >= 6).map(rankKey)) : [])));
    enumKeys.set(tool, keys);
  }
  return keys;
};

/**
 * A long word (six letters or more) of one of the tool's enum values that the request writes, which no
 * other tool lists: `unseen` when no tool's indexed text holds it either ("tartaric" names `additive:
 * tartaric_acid`, and so the tool that takes it); `own` when only this tool's own text holds it ("dental"
 * for `check_type: dental`), evidence only beside the tool's own verb (a verb two tools share by class is
 * then no tie).
 */
function enumWordHit(tool: Tool, tools: Tool[], textKeys: Set<string>, index: Bm25<Tool>): { unseen: boolean; own: boolean } {
  let counts = enumKeyCounts.get(tools);
  if (!counts) {
    counts = new Map();
    for (const t of tools) for (const k of enumKeysOf(t)) counts.set(k, (counts.get(k) ?? 0) + 1);
    enumKeyCounts.set(tools, counts);
  }
  const hit = { unseen: false, own: false };
  for (const k of enumKeysOf(tool)) {
    if (!textKeys.has(k) || counts.get(k) !== 1) continue;
    const df = index.documentFrequency(k);
    if (df === 0) hit.unseen = true;
    else if (df === 1 && index.rank([k])[0]?.item === tool) hit.own = true;
  }
  return hit;
}

export interface Candidates {
  ranked: Ranked<Tool>[];
  /** Matched only through a synonym ("compensate" → refund, credit): the literal words named no tool. */
  viaSynonymOnly: boolean;
  /** What in the request supports each candidate beyond shared words. */
  support: Map<Tool, Support>;
  /** The request's verb and its synonyms, as ranking keys. */
  verbKeys: string[];
  /** The request the candidates were found for. */
  text: string;
}

interface Support {
  /** The tool's operation is the request's verb (or a verb of its class: "erase" for delete_…). */
  verb: boolean;
  /** …as written or by verb class, not only through the synonym table ("write" → send). */
  verbLiteral: boolean;
  /** The tool's name holds the noun the request's verb acts on ("kill the booking" → cancel_booking). */
  object: boolean;
  /** Codes in the request that the tool's parameters accept, and e-mail addresses for its e-mail fields. */
  codes: number;
  /** A multi-word enum value of the tool written out ("password reset"). */
  enumPhrase: boolean;
  /** The request dictates a text ("tell them …") and the tool takes one. */
  dictates: boolean;
  /** Labels of a "key: value" layout in the request that name the tool's parameters ("asset:", "due:"). */
  labels: number;
}

// The request's main verb and its object count this much more than its other words, in BM25 and as a
// factor when the tool's name holds them (calibrated on the team set and on generated tool sets with decoys).
const FOCUS_WEIGHT = 2;
const VERB_FACTOR = 1.5;
const OBJECT_FACTOR = 1.6;
// Below this score a candidate with neither the verb, the object, a code nor an enum phrase of the request
// fits it only by incidental words: the request is answered without a tool rather than sent to it.
// Calibrated between the generated sets' unrelated matches (a request about something else sharing one
// description word scores up to 1.7) and the development sets' weakest right match (2.5 and above).
const FLOOR = 2;
// Two candidates closer than this ratio, each with evidence the other lacks, are a question naming both.
const MARGIN = 0.85;
const sameWords = (a: string[], b: string[]) => a.length === b.length && a.every((w) => b.includes(w));

const EMAIL = /[^\s@]+@[^\s@]+\.[a-z]{2,}/i;
const takesEmail = (tool: Tool) => Object.values((tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>).some((p) => p.format === "email");
const singular = (w: string) => w.replace(/(?<=[^s])s$/, "");

/**
 * Whether the tool's operation (the first word of its name: `cancel_reservation` cancels) is the request's
 * verb: as written, by synonym ("literal" false), or by verb class. "Reserve" is not the operation of
 * change_reservation, whose name only holds the noun.
 */
function operationIs(tool: Tool, verb: string | undefined, verbKey: string | undefined, verbKeys: string[]): { hit: boolean; literal: boolean } {
  // A generic first word (`create_refund`, `issue_store_credit`) leaves the operation to the words after it.
  const name = words(tool.name);
  const operations = GENERIC.has(rankKey(name[0] ?? "")) ? name.slice(1) : name.slice(0, 1);
  // A generic first word still names its operation for a verb of the same class ("pull up" or "find" and
  // `get_patient`); only its literal spelling is too common to count alone.
  const first = name[0] ?? "";
  if (verb && GENERIC.has(rankKey(first)) && verbClassOf(first) !== undefined && verbClassOf(first) === verbClassOf(verb)) return { hit: true, literal: false };
  // A name that is one operation as a whole (ending someone's employment is offboarding: "fire", "let go").
  const whole = name.length === 2 ? operationClassOf(name[0]!, name[1]!) : undefined;
  if (verb && whole !== undefined && whole === verbClassOf(verb)) return { hit: true, literal: true };
  let synonym = false;
  for (const operation of operations) {
    const key = rankKey(operation);
    if (verbKey !== undefined && key === verbKey) return { hit: true, literal: true };
    if (verb && operation.length > 2 && !GENERIC.has(key) && sameConcept(operation, verb)) return { hit: true, literal: true };
    if (verbKeys.includes(key)) synonym = true;
  }
  return { hit: synonym, literal: false };
}

/**
 * Candidates a request can mean: tools sharing a distinctive word of their name with it (or two of any).
 * The request's main verb and the noun it acts on weigh more, in BM25 and when the tool's name holds them
 * ("deploy X" is create_deployment, not rollback_deployment; "extend an offer" is send_offer, not a tool
 * that only shares a start date).
 */
function candidatesFor(tools: Tool[], text: string, verb: string | undefined, focus: { verb?: string; object?: string } = {}): Candidates {
  // A mistyped verb ranks as the verb meant, as the turn's act was read (classify.ts).
  const cleaned = intentText(asMeant(text));
  const index = indexOf(tools);
  const literal = [...rankTerms(cleaned).map((s) => index.correct(s)), ...acronymWords(tools, text).map(rankKey), ...classMatesOfUnknown(index, commandWords(cleaned))];
  // A tool matches by a distinctive word of its name, by two of any, or by a word only it knows (an enum
  // value such as "bonus", a term of its description such as "vacation").
  const keep = (r: Ranked<Tool>) => r.nameMatched.some((s) => !GENERIC.has(s)) || r.nameMatched.length >= 2 || r.matched.some((s) => s.length >= 4 && !GENERIC.has(s) && index.documentFrequency(s) === 1);
  const literalHits = index.rank(literal).filter(keep);
  const written = words(cleaned);
  const verbs = verb ? expand([verb], written) : [];
  const objectKey = focus.object ? rankKey(singular(focus.object.toLowerCase())) : undefined;
  const weights = new Map<string, number>();
  for (const v of verbs) weights.set(v, FOCUS_WEIGHT);
  if (objectKey) weights.set(objectKey, FOCUS_WEIGHT);
  const cues = freeTextCues(text);
  // A code the request carries ("APT-220914") that only some tools take makes them candidates too.
  const byCode = new Map(tools.map((t) => [t, codeHits(t, text)] as const));
  const scored = index.rank(expand(verb && !literal.includes(verb) ? [...literal, verb] : literal, written), weights);
  // So does a value only one kind of tool takes written out whole ("a MacBook Pro 16" and a model enum), or
  // by a long word of it no other tool has ("tartaric" for `additive: tartaric_acid`).
  // (A word of a value is evidence only beside the request's verb, or with no verb at all: "Tankering on
  // BA0117 …, uplift …" does not ask for the cancellation whose reason is `tankering_change`.)
  const textKeys = new Set(rankTerms(cleaned));
  const byPhrase = new Set(tools.filter((t) => enumPhraseHit(t, text)));
  const enumWords = new Map(tools.map((t) => [t, enumWordHit(t, tools, textKeys, index)] as const));
  const byEnumWord = new Set(tools.filter((t) => enumWords.get(t)!.unseen));
  const byOwnEnumWord = new Set(tools.filter((t) => enumWords.get(t)!.own));
  for (const t of tools) if (((byCode.get(t) ?? 0) > 0 || byPhrase.has(t) || byEnumWord.has(t)) && !scored.some((r) => r.item === t)) scored.push({ item: t, score: 0, matched: [], nameMatched: [] });
  const support = new Map<Tool, Support>();
  const ranked = scored
    .filter((r) => keep(r) || (byCode.get(r.item) ?? 0) > 0 || byPhrase.has(r.item) || byEnumWord.has(r.item))
    .map((r) => {
      const distinctive = rankTerms(r.item.name).filter((s) => !GENERIC.has(s));
      const coverage = distinctive.length === 0 ? 0 : distinctive.filter((s) => r.nameMatched.includes(s)).length / distinctive.length;
      const operation = operationIs(r.item, focus.verb, verb, verbs);
      const has: Support = {
        verb: operation.hit,
        verbLiteral: operation.literal,
        // The operation word is the object too when the request also names the rest ("a materials request"
        // for request_materials), not when it is all the request shares ("lend the book", book_room).
        object: objectKey !== undefined && (nounsOfName(r.item).some((w) => rankKey(singular(w)) === objectKey) || (rankKey(words(r.item.name)[0] ?? "") === objectKey && r.nameMatched.some((m) => m !== objectKey && !GENERIC.has(m)))),
        codes: codeHits(r.item, text, true) + (EMAIL.test(text) && takesEmail(r.item) ? 1 : 0),
        enumPhrase: byPhrase.has(r.item) || (byEnumWord.has(r.item) && (operation.hit || focus.verb === undefined || GENERIC.has(rankKey(focus.verb)))) || (byOwnEnumWord.has(r.item) && operation.literal),
        dictates: false,
        labels: labelHits(r.item, text),
      };
      // The request writes out a message ("tell them …"): a tool that takes free text fits it.
      const props = Object.keys((r.item.parameters.properties ?? {}) as object);
      has.dictates = props.some((k) => cues.has(k));
      support.set(r.item, has);
      const textBonus = has.dictates ? 1.3 : 1;
      const factor = (has.verb ? VERB_FACTOR : 1) * (has.object ? OBJECT_FACTOR : 1) * (has.enumPhrase ? 1.5 : 1) * textBonus * (1 + 0.5 * coverage);
      return { ...r, score: r.score * factor + 0.75 * (byCode.get(r.item) ?? 0) };
    })
    // Evidence first, then score: a tool with the request's verb or object, or one taking a code the
    // request carries, outranks one that shares only other words with it.
    .sort((x, y) => evidence(support.get(y.item)) - evidence(support.get(x.item)) || y.score - x.score);
  return { ranked, viaSynonymOnly: literalHits.length === 0 && ranked.length > 0, support, verbKeys: verbs, text };
}

/**
 * The words of a tool's name that name what it acts on: all but its operation (the first word, unless a
 * generic one). "Lend the book" has the object book, which book_room names as its operation, not its object.
 */
function nounsOfName(tool: Tool): string[] {
  const name = words(tool.name);
  return GENERIC.has(rankKey(name[0] ?? "")) || name.length === 1 ? name : name.slice(1);
}

/** The words of the text's commands ("I need a battery swap", "swap it"), not of what it only tells ("I've seen both"). */
function commandWords(text: string): string[] {
  return clausesOf(text).filter((c) => c.act === "command").flatMap((c) => c.words.map((w) => w.lower));
}

/**
 * A verb (or noun of action) of a command that no tool's words hold, read as the other words of its class
 * that some do ("a battery swap" and schedule_battery_exchange): the language layer's classes, not a table of
 * the ranking's own.
 */
function classMatesOfUnknown(index: Bm25<Tool>, written: string[]): string[] {
  const out: string[] = [];
  for (const w of written) {
    const key = rankKey(w);
    if (w.length < 3 || index.documentFrequency(key) > 0) continue;
    const cls = verbClassOf(w);
    if (cls === undefined) continue;
    for (const mate of classMembers(cls)) if (mate !== w && index.documentFrequency(rankKey(mate)) > 0) out.push(rankKey(mate));
  }
  return out;
}

/** How many kinds of evidence a candidate has: the request's operation or object, its codes, an enum phrase. */
function evidence(s: Support | undefined): number {
  return s ? Number(s.verb || s.object) + Number(s.codes > 0) + Number(s.enumPhrase) + Number(s.labels >= 2) : 0;
}

// "asset: INV-D09", "• due: 22 Sept", "desc = …": the labels of a layout of keys and values, one a line.
const LABEL = /(?:^|\n)[ \t]*(?:[-*•·>]+[ \t]*)?([A-Za-z][A-Za-z /_-]{0,28}?)[ \t]*[:=][ \t]*\S/g;

/**
 * How many labels of the request's layout name a parameter of the tool: its key's words, or the start of
 * one (a label is often cut short: "desc" for `description`, "qty" aside). A request that lists a tool's
 * own fields asks for that tool, whatever a code in it could also fill elsewhere.
 */
function labelHits(tool: Tool, text: string): number {
  if (!text.includes(":") && !text.includes("=")) return 0;
  const keys = Object.keys((tool.parameters.properties ?? {}) as object).map((k) => k.toLowerCase().split(/[_.]+/).filter(Boolean));
  let hits = 0;
  for (const m of text.matchAll(LABEL)) {
    const label = m[1]!.toLowerCase().trim().split(/[\s/_-]+/).filter(Boolean);
    if (label.length === 0 || label.length > 3) continue;
    const names = (key: string[]) => label.every((w) => key.some((k) => rankKey(k) === rankKey(w) || (w.length >= 3 && k.startsWith(w))));
    if (keys.some(names)) hits++;
  }
  return hits;
}

/** A candidate fits the request by more than incidental words: its verb, its object, a code or an enum phrase, or a high enough score. */
function fits(r: Ranked<Tool>, support: Support | undefined, verbKeys: string[]): boolean {
  if (!support) return true;
  if (support.object || support.codes > 0 || support.enumPhrase || support.verbLiteral || support.labels >= 2) return true;
  // Only a synonym of the verb ("write me a poem" → send_newsletter) and nothing else of the request: the
  // tool does something else that is merely described with a related verb.
  const beyondVerb = r.matched.filter((m) => !verbKeys.includes(m));
  if (support.verb) return beyondVerb.length > 0 || support.dictates;
  // With no verb, object, code or enum phrase of the request, the tool needs a word of its name or two
  // words of the request, and a score above the floor: one word of a description is a coincidence.
  return r.score >= FLOOR && (r.nameMatched.some((s) => !GENERIC.has(s)) || beyondVerb.length >= 2);
}

function isAmbiguous(ranked: Ranked<Tool>[], found: Candidates): boolean {
  if (!closeCall(ranked, found)) return false;
  // Two tools fit the words alike, but the request gives a measure ("8 lb 13 oz", "$40", "15%") that only
  // one of them has a parameter for: that one is what the request is about.
  const [a, b] = ranked;
  const [ma, mb] = [a!, b!].map((r) => measuresTaken(r.item, found.text));
  if (ma === mb) return true;
  if (mb) ranked.splice(0, 2, b!, a!);
  return false;
}

const MEASURES = new Set(["quantity", "money", "percent"]);

/** Whether the request gives a value for a measured parameter of the tool (a quantity with a unit, money, a percentage). */
function measuresTaken(tool: Tool, text: string): boolean {
  const sigs = signaturesOf(tool.parameters);
  const args = extractArguments(tool.parameters, [text]);
  return sigs.some((s) => MEASURES.has(s.kind) && args[s.key] !== undefined);
}

/** The two leading candidates fit the request's words alike (and may be put in the order to ask about). */
function closeCall(ranked: Ranked<Tool>[], found: Candidates): boolean {
  const [a, b] = ranked;
  if (!a || !b) return false;
  // "Compensate the customer": only synonyms matched, and they point at different tools.
  if (found.viaSynonymOnly && a.nameMatched.some((s) => !b.nameMatched.includes(s)) && b.nameMatched.some((s) => !a.nameMatched.includes(s))) return true;
  const sa = found.support.get(a.item);
  // The request names no operation and no word that fits one tool taking its code but not another ("the
  // booking BK-1" with cancel_booking and change_flight): nothing says which action is wanted.
  const sameCodes = ranked.slice(1).find((r) => found.support.get(r.item)?.codes === sa?.codes);
  const sc = sameCodes ? found.support.get(sameCodes.item) : undefined;
  if (sa && sc && sameCodes && !sa.verb && !sc.verb && sa.object === sc.object && !sa.enumPhrase && (sa.codes > 0 || sa.object) && a.matched.every((m) => sameCodes.matched.includes(m))) {
    ranked.splice(ranked.indexOf(sameCodes), 1);
    ranked.splice(1, 0, sameCodes);
    return true;
  }
  const sb = found.support.get(b.item);
  // Both tools have the request's verb and neither has any other word of it in its name ("log my
  // catch-up" with log_call and log_meeting): which one is the question.
  if (sa?.verb && sb?.verb && !sa.object && !sb.object && !sa.enumPhrase && !sb.enumPhrase && sameWords(a.matched, b.matched) && sa.codes === sb?.codes) {
    // …unless one of them is about nothing but the record the request's code names ("pull up EMP-7" with
    // get_employee and get_pay_history): the other reads an aspect of it the request does not mention.
    const [plainA, plainB] = [a, b].map((r) => unexplainedNameWords(r.item, found.text).length === 0);
    return plainA === plainB;
  }
  if (b.score < a.score * MARGIN) return false;
  // The leader has a kind of evidence the other lacks (a code of the request only it takes): a close score
  // on shared words does not make them equal ("book CON-1 for REP-2" with a contractor visit and a viewing).
  if (evidence(sa) > evidence(sb)) return false;
  // Close scores on different distinctive words ("refund" vs "credit"): the request could mean either.
  const onlyA = a.nameMatched.filter((s) => !GENERIC.has(s) && !b.nameMatched.includes(s));
  const onlyB = b.nameMatched.filter((s) => !GENERIC.has(s) && !a.nameMatched.includes(s));
  return onlyA.length > 0 && onlyB.length > 0;
}

/**
 * The distinctive words of a tool's name (its generic operation word aside) that the request neither writes
 * nor implies: a word is implied when it names a parameter whose code the request holds ("EMP-7" fills
 * employee_id, which explains the "employee" of get_employee but not the "leave" of get_leave_balance).
 */
function unexplainedNameWords(tool: Tool, text: string): string[] {
  const written = new Set(rankTerms(intentText(text)));
  const props = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [key, schema] of Object.entries(props)) {
    const re = strictPattern(schema);
    if (re && re.test(text)) for (const w of rankTerms(key.replace(/_/g, " "))) written.add(w);
  }
  return rankTerms(tool.name.replace(/_/g, " ")).filter((w) => !GENERIC.has(w) && !written.has(w) && !written.has(rankKey(singular(w))));
}

const READ_VERBS = new Set(["get", "lookup", "look", "find", "fetch", "read", "show", "check", "search", "list", "view", "describe", "status", "track"].map(rankKey));

/**
 * A question about one record the workspace's tools can read ("what's the status of ORD-20417?"): the
 * read tool whose code-shaped parameter takes a code the question names. Undefined when there is none, or
 * more than one such tool.
 */
export function readToolFor(tools: Tool[], question: string): Tool | undefined {
  const readers = tools.filter((t) => READ_VERBS.has(rankKey(words(t.name)[0] ?? "")) && codeHits(t, question) > 0);
  if (readers.length <= 1) return readers[0];
  // Several readers take the code: the one whose name the question writes ("the leave balance of EMP-7"),
  // else the one about nothing but the record the code names ("what about EMP-7?" → get_employee).
  const written = new Set(rankTerms(intentText(question)));
  const hits = readers.map((t) => rankTerms(t.name.replace(/_/g, " ")).filter((w) => !GENERIC.has(w) && written.has(w)).length);
  const best = Math.max(...hits);
  if (best > 0) return hits.filter((h) => h === best).length === 1 ? readers[hits.indexOf(best)] : undefined;
  const plain = readers.filter((t) => unexplainedNameWords(t, question).length === 0);
  return plain.length === 1 ? plain[0] : undefined;
}

export function plan(input: PlanInput): Plan {
  const resumed = input.pending ? resumePending(input, input.pending) : undefined;
  if (resumed) return resumed;
  const last = input.userTurns.at(-1) ?? "";
  const everything = input.userTurns.join("\n");
  const focus = requestFocus(last);

  // An integration the request names, which the workspace has no tools for.
  const named = namedIntegrations(last, input.catalog).filter((entry) => namedStrongly(entry, last) || offersOperation(entry, focus));
  if (named.length > 0) {
    const integration = named[0]!;
    const provides = input.tools.some((t) => words(t.name).includes(integration.id) || t.description.toLowerCase().includes(integration.name.toLowerCase()));
    if (!provides) return { kind: "connect", integration, named: true, reason: `The request names ${integration.name}, which is not connected to this workspace.` };
  }

  let continued = false;
  const verb = verbOf(last, focus, verbsOf(input.tools));
  let found = candidatesFor(input.tools, last, verb, focus);
  let ranked = found.ranked;
  // The request's verb is one no tool has but an integration of the catalog does ("text the customer"), or
  // a verb of sending whose object is such a channel ("send an SMS", "shoot them an email").
  const channelObject = focus.object !== undefined && verbClassOf(focus.verb ?? "") === "send" && CHANNEL_VERBS.has(rankKey(focus.object)) ? rankKey(focus.object) : undefined;
  const channelVerb = channelObject ?? verb;
  if (channelVerb && !GENERIC.has(channelVerb)) {
    const verb = channelVerb;
    const verbStems = expand([verb]);
    const toolHasVerb = input.tools.some((t) => {
      const doc = rankTerms(`${t.name} ${t.description}`);
      return verbStems.some((v) => doc.includes(v));
    });
    // ("call it grade three", "text that as urgent": naming something, not reaching someone.)
    const naming = new RegExp(`\\b${verb}\\w*\\s+(?:it|that|this)\\b`, "i").test(last);
    if (!toolHasVerb && !naming && CHANNEL_VERBS.has(verb) && !ranked.some((r) => r.nameMatched.includes(verb))) {
      const offer = channelOffer(input.catalog, verb, verbStems, last);
      if (offer) return { kind: "connect", integration: offer.integration, named: false, reason: `No connected tool can ${offer.capability}; ${offer.integration.name} can.` };
    }
  }
  // "Trigger an incident for the on-call", "open a ticket about it": a thing to make that no tool of the
  // workspace makes or names, and that one integration of the catalog makes, is that integration's job (a
  // record code in the message, "INV-C07", says what the thing is about, not which tool makes it).
  const made = input.turn === "request" && focus.object !== undefined && focus.verb !== undefined && MAKING_VERBS.has(focus.verb.split(/\s+/)[0]!.toLowerCase()) && !namesPeople(focus.object) ? objectOffer(input, rankKey(focus.object), last) : undefined;
  if (made) return { kind: "connect", integration: made.integration, named: false, reason: `No connected tool can ${made.capability}; ${made.integration.name} can.` };
  // A reply to a question ("ORD-20551", "4 pls"), a correction or a push after a refusal ("do it now"):
  // when the last turn names no tool by its verb, the earlier turns say what is wanted.
  const verbNamesTool = verb !== undefined && ranked.some((r) => expand([verb]).some((v) => r.nameMatched.includes(v)));
  const continues = input.turn === "answer" || input.turn === "correction" || input.turn === "insistence";
  // (A request after an assistant turn that asked nothing, "Done, it's released." then "Next one: the
  // choir's load-in for EV-1 …", is a request of its own: only a turn after a question answers it.)
  const asked = input.pending !== undefined || asksForInput(input.lastAssistant) || input.turn !== "request";
  const answering = ((input.lastAssistant !== undefined && asked) || continues) && !verbNamesTool;
  // (So do they when the last turn names no tool by its verb as written, its object or a code: "put the
  // $300 on" shares only a synonym of its verb with a tool that does something else.)
  const lastNames = (s: Support | undefined) => s !== undefined && (s.verbLiteral || s.object || s.codes > 0);
  // (And when the last turn alone could mean two tools: "just book it" after a refused air booking.)
  if (input.userTurns.length > 1 && (ranked.length === 0 || answering || (continues && (!lastNames(found.support.get(ranked[0]!.item)) || isAmbiguous([...ranked], found))))) {
    const first = input.userTurns[0] ?? "";
    // The first turn's verb as its own command reads it ("call off…" is calloff, not call).
    const firstFocus = requestFocus(first);
    const earlier = candidatesFor(input.tools, everything, verbOf(first, firstFocus, verbsOf(input.tools)) ?? leadingVerb(first), firstFocus);
    if (earlier.ranked.length > 0) {
      found = earlier;
      ranked = earlier.ranked;
      continued = true;
    }
  }
  if (ranked.length === 0 || !fits(ranked[0]!, found.support.get(ranked[0]!.item), found.verbKeys)) return { kind: "none", candidates: [] };
  if (isAmbiguous(ranked, found) || delegatesBetween(focus, ranked, found, input.tools)) return { kind: "ambiguous", candidates: ranked.slice(0, 2) };
  return planFor(ranked[0]!.item, input, ranked.slice(0, 5), continued);
}

// Verbs that hand a matter over without naming an operation ("can you sort it", "please deal with BKG-1",
// "take care of ORD-7"): a closed class of English, like the dialogue words of classify.ts.
const DELEGATING = new Set(["sort", "sort out", "handle", "deal", "deal with", "action", "see to", "look into", "fix up"]);

/**
 * The request hands over a record without saying what to do with it, and two tools act on the record it
 * names: which one is the question, whatever other words lean one way ("the cargo won't be ready, can
 * you sort it" with a cancel and an amend of the booking).
 */
function delegatesBetween(focus: { verb?: string; object?: string }, ranked: Ranked<Tool>[], found: Candidates, tools: Tool[]): boolean {
  const verb = focus.verb ?? "";
  if (!DELEGATING.has(verb) && !(verb === "take" && focus.object === "care")) return false;
  const first = verb.split(" ")[0]!;
  // ("Need a return sorted": the thing wanted done is named before the participle.)
  if (!new RegExp(`\\b${first}\\b`, "i").test(found.text) || tools.some((t) => words(t.name).includes(first))) return false;
  const [a, b] = ranked;
  const [sa, sb] = [a, b].map((r) => (r ? found.support.get(r.item) : undefined));
  // (A word of one tool's name, or its object, tells them apart.)
  return !!sa && !!sb && sa.codes > 0 && sb.codes > 0 && !sa.verb && !sb.verb && sa.object === sb.object && sameWords(a!.nameMatched, b!.nameMatched);
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
  // A short reply to the open question ("Harbourside", "j.ferreira") is read by the argument layer as the
  // value of the field asked for.
  return planFor(tool, input, [], true);
}


/**
 * The request's verb as a ranking key: the verb of its command as the language layer reads it ("can you
 * raise one?" → raise; "do me a favour and archive…" → archive). A command that only presses ("go ahead
 * with…", "do it") leaves the choice to the leading verb; a turn with no command has no verb ("Booking
 * BK-1." names a thing, not the operation of booking).
 */
function verbOf(text: string, focus: { verb?: string }, known: Set<string>): string | undefined {
  // (The tools' own verb, clipped, is read before any reading of the word as a mistyped other verb.)
  const clipped = clippedVerb(text, known);
  if (clipped) return clipped;
  // A phrasal verb a tool's name writes as one word ("check out" and checkout_item, "log in" and login_…).
  const joined = focus.verb?.includes(" ") ? rankKey(focus.verb.replace(/\s+/g, "")) : undefined;
  if (joined && known.has(joined)) return joined;
  if (focus.verb && !["go", "do", "let", "try", "make", "get", "have", "be"].includes(focus.verb)) return rankKey(focus.verb);
  if (focus.verb) return leadingVerb(text, known);
  const commands = clausesOf(text).some((c) => c.act === "command");
  return commands ? leadingVerb(text, known) : undefined;
}

/**
 * "ack ALM-1 for me": a first word that is no English word but the start of exactly one of the tools' verbs
 * is that verb clipped (the tagger cannot call it a verb, and the typo reader would take it for another).
 */
function clippedVerb(text: string, known: Set<string>): string | undefined {
  const first = firstVerb(text);
  if (!first || first.length < 3 || isEnglishWord(first)) return undefined;
  const longer = [...known].filter((k) => k.length >= first.length + 3 && k.startsWith(first));
  return longer.length === 1 ? longer[0] : undefined;
}

/**
 * The integration a channel verb asks for ("page the on-call", "text the customer"): the one with a
 * capability whose verb is the request's verb, best when its object is in the request too ("page
 * on-call"); a capability that only has the word as its object ("create page") fits less.
 */
function channelOffer(catalog: CatalogIntegration[], verb: string, verbKeys: string[], text: string): { integration: CatalogIntegration; capability: string } | undefined {
  const asked = new Set(rankTerms(text));
  let best: { integration: CatalogIntegration; capability: string; score: number } | undefined;
  for (const integration of catalog) {
    for (const capability of integration.capabilities) {
      const [head, ...rest] = words(capability).map(rankKey);
      let score = head === verb ? 3 : verbKeys.includes(rest.at(-1) ?? "") ? 1 : 0;
      if (score === 0) continue;
      score += rest.filter((w) => asked.has(w)).length + rankTerms(integration.description).filter((w) => asked.has(w)).length * 0.5;
      if (!best || score > best.score) best = { integration, capability, score };
    }
  }
  return best;
}

/**
 * The integration that makes a thing no tool of the workspace names (in its name, description or
 * parameters): the one whose capability has the thing as its object and whose description shares the most
 * words with the request ("incident … on call": PagerDuty). Two that fit alike are no answer.
 */
function objectOffer(input: PlanInput, object: string, text: string): { integration: CatalogIntegration; capability: string } | undefined {
  if (object.length < 4 || GENERIC.has(object)) return undefined;
  const named = input.tools.some((t) => toolTerms(t).has(object));
  if (named) return undefined;
  const asked = new Set(rankTerms(text));
  const fits: { integration: CatalogIntegration; capability: string; score: number }[] = [];
  for (const integration of input.catalog) {
    const capability = integration.capabilities.find((c) => {
      const [head, ...rest] = words(c).map(rankKey);
      return rest.at(-1) === object && head !== undefined && MAKING.has(head);
    });
    if (!capability) continue;
    const score = rankTerms(`${integration.description} ${integration.capabilities.join(" ")}`).filter((w) => w !== object && asked.has(w)).length;
    fits.push({ integration, capability, score });
  }
  fits.sort((a, b) => b.score - a.score);
  if (fits.length === 0 || (fits.length > 1 && fits[1]!.score === fits[0]!.score)) return undefined;
  return fits[0];
}
// The stemmed words of a tool's name, description and parameters, read once per tool object.
const toolTermsCache = new WeakMap<Tool, Set<string>>();
function toolTerms(tool: Tool): Set<string> {
  let hit = toolTermsCache.get(tool);
  if (!hit) {
    hit = new Set(rankTerms(`${tool.name} ${tool.description} ${JSON.stringify(tool.parameters ?? {})}`));
    toolTermsCache.set(tool, hit);
  }
  return hit;
}

// Verbs that ask for a new thing to be made ("trigger an incident", "open a ticket"); not "give", "put" or
// "handle", which say nothing of making.
const MAKING_VERBS = new Set(["trigger", "open", "raise", "create", "file", "log", "lodge", "start", "submit", "make", "generate"]);
// The capabilities that make a thing ("create incident", "send envelope"), which such a verb asks for.
const MAKING = new Set(["create", "open", "send", "post", "add", "file", "log", "raise", "start", "schedule", "book"].map(rankKey));

/**
 * A catalog name written as a name, not as an ordinary word: several words ("Microsoft Teams"), a word that
 * is only a name ("Jira"), or an ordinary word ("Linear", "Teams") capitalised inside a sentence or placed
 * as a channel ("in Linear", "on our Notion"). "Teams at both shops are short" opens a sentence with the
 * ordinary word.
 */
function namedStrongly(entry: CatalogIntegration, text: string): boolean {
  const forms = [entry.name, entry.id.replace(/_/g, " "), ...(ALIASES[entry.id] ?? [])];
  if (placedAsChannel(entry, text)) return true;
  for (const form of forms) {
    const ordinary = !/\s/.test(form) && CASED_NAMES.has(form.toLowerCase());
    const re = new RegExp(`(?<![A-Za-z0-9])(${escapeRegExp(form)})(?![A-Za-z0-9])`, ordinary ? "g" : "gi");
    for (const m of text.matchAll(re)) {
      if (!ordinary) return true;
      const before = text.slice(0, m.index).trimEnd();
      const sentenceStart = before === "" || /[.!?:;\n]$/.test(before);
      if (/(?:^|\s)(?:on|in|into|via|through|to|with|using|from|over)(?:\s+(?:my|our|the|their|your))?$/i.test(before)) return true;
      if (!sentenceStart) return true;
    }
  }
  return false;
}

/** The integration offers the operation the request asks for: a capability with its verb or its object. */
function offersOperation(entry: CatalogIntegration, focus: { verb?: string; object?: string }): boolean {
  const keys = [focus.verb, focus.object].filter((w): w is string => w !== undefined).map((w) => rankKey(w));
  return entry.capabilities.some((c) => rankTerms(c).some((k) => keys.includes(k)));
}

/** The plan for a chosen tool: its arguments from the conversation (and those an open clarification kept). */
export function planFor(tool: Tool, input: PlanInput, candidates: Ranked<Tool>[] = [], continued = false): Extract<Plan, { kind: "tool" }> {
  const resuming = input.pending?.tool === tool.name ? input.pending : undefined;
  const asked = resuming ? resuming.fields : askedParameters(tool.parameters, input.lastAssistant);
  const dateOrder = dateOrderOf(schemasOf(input.tools));
  const args = { ...resuming?.arguments, ...extractArguments(tool.parameters, input.userTurns, { asked, correction: input.turn === "correction", dateOrder }) };
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
  // (An acronym keeps its capitals: "IATA flight designator", not "iATA".)
  const lowered = /^[A-Z][A-Z0-9]/.test(described) ? described : described.charAt(0).toLowerCase() + described.slice(1);
  const label = described && described.length <= 60 ? lowered : key.replace(/_/g, " ");
  const options = Array.isArray(schema.enum) ? ` (one of ${(schema.enum as unknown[]).map(String).join(", ")})` : "";
  return `Which ${label} should I use for ${tool.name}${options}?`;
}
