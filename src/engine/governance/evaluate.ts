// Evaluation: compiled rules become closures once (per policy load), and one decision is a few set lookups
// and comparisons. Three-valued logic: a condition whose value the action does not carry is UNKNOWN, and a
// restrictive rule (block, require approval) fires on UNKNOWN, so leaving an argument out can never slip
// past a rule. A permissive rule (allow) needs TRUE. When the tool's parameters are known (its JSON Schema),
// a condition on a field the tool cannot carry does not apply (FALSE): it is UNKNOWN only when the tool has
// such a field and the caller left it out.
import { LOCAL_ZONE, type ActionSelector, type ActionTerm, type CompiledRule, type Condition, type Effect, type Setting, type Subject, type Value } from "./compiled.ts";
import { channelOf, conceptsOf, cutShort, impliedObject, isDispatchVerb, isSupportVerb, namesPeople, operationWords, withBroaderClasses, wordsOf } from "../language/lemmas.ts";
import { convert, convertTo, unitOfName, type Quantity } from "../language/units.ts";
import { currencyOfWord } from "../language/tokens.ts";
import { countryCode, unionMembers } from "../language/regions.ts";
import { placeCountry } from "../language/places.ts";
import { inNetwork, networkOf, type Network } from "../language/networks.ts";
import { deniedParticiple, isEnglishWord, isKnownWord, tag } from "../language/nlp.ts";
import { isAmountNoun, isKindOf, relatedVerbWords, verbsOfAgent, verbsOfDoing, verbsRelated } from "../language/wordnet.ts";

const FALSE = 0;
const UNKNOWN = 1;
const TRUE = 2;
type Truth = 0 | 1 | 2;

export interface ActionInput {
  /** A tool name (`refund_payment`) or the action in words. */
  tool: string;
  description?: string;
  domain?: string;
  args: Record<string, unknown>;
  /** The tool's parameters (names, flattened with dots), when its schema is known: binds conditions. */
  params?: readonly string[];
  /** The values of the tool's parameters with a closed list, by path, when its schema is known. */
  choices?: Readonly<Record<string, readonly string[]>>;
  now: Date;
  /** Earlier approved actions in the workspace, for rate rules: tool name, time and short arguments, newest last. */
  history?: { tool: string; at: Date; args?: Readonly<Record<string, unknown>> }[];
}

export interface Field {
  path: string;
  /** Concepts of every word of the key path ("order.total_usd" → order, total, usd…). */
  concepts: Set<string>;
  /** The last key's words, which name what the value is ("refund_amount" → [refund, amount]). */
  words: readonly string[];
  value: unknown;
  /** The value read as a number, filled in when first asked (null: not a number). */
  number?: number | null;
  /** Other forms the value is named by (see `otherForms`), filled in when first asked. */
  forms?: readonly string[];
}

/** An action made ready for many rules: its tool's profile (shared), its words as concepts and its arguments flattened once. */
export interface PreparedAction extends ToolProfile {
  input: ActionInput;
  /** The tool's part, shared by every call of the same tool (see `toolProfile`); never changed. */
  profile: ToolProfile;
  /** Concepts of short string argument values ("shared-staging", "loading dock"). */
  valueConcepts: Set<string> | undefined;
  fields: Field[];
  unknowns: Set<string>;
  zoned: Map<string, WallClock>;
  /** Fields some condition already read, so a leftover short string can say "another value". */
  claimed: Set<string>;
  /** Numeric readings already made for this action, by what they asked (`numericKey`). */
  numericReads?: Map<string, Field[]>;
}

const MAX_FIELDS = 200;
// Longer strings are free text (a message body), whose words must not make an action match a rule.
const MAX_VALUE_WORDS_LENGTH = 64;
const CACHE_LIMIT = 10_000;
const phraseConcepts = new Map<string, Set<string>>();

function conceptSet(text: string): Set<string> {
  let hit = phraseConcepts.get(text);
  if (!hit) {
    hit = new Set<string>();
    for (const w of wordsOf(text)) for (const c of conceptsOf(w)) hit.add(c);
    if (phraseConcepts.size >= CACHE_LIMIT) phraseConcepts.clear();
    phraseConcepts.set(text, hit);
  }
  return hit;
}

// Tool names and argument keys recur on every call: their words are split once (read-only arrays).
const nameWords = new Map<string, readonly string[]>();
function wordsOfName(text: string): readonly string[] {
  let hit = nameWords.get(text);
  if (!hit) {
    hit = wordsOf(text);
    if (nameWords.size >= CACHE_LIMIT) nameWords.clear();
    nameWords.set(text, hit);
  }
  return hit;
}

// Operations that only make or start what their object names: `issue_refund`, `submit_payment`.
const MAKING_VERBS = new Set(["issue", "submit", "request", "initiate", "process", "perform", "execute", "start", "trigger", "make", "do", "place", "schedule", "book", "arrange"]);

/** What an action's tool says of it (name, description, declared parameters), the same on every call. */
interface ToolProfile {
  /** Concepts of the tool's name words. */
  name: Set<string>;
  /** Concepts of the name's operation word (`share` in `share_customer_phone`), verb classes included. */
  operation: Set<string>;
  /** Concepts of the tool's name and description words. */
  concepts: Set<string>;
  /** Concepts of the tool's declared parameter names: what it acts on ("controlled_schedule"). */
  paramConcepts: Set<string>;
  /** Verb classes of the name's other words (`create_payout` → pay): nouns of action it makes. */
  objectClasses: Set<string>;
  /** The operation only makes or starts something (create, issue, submit…): the noun after it says what. */
  makes: boolean;
  /** The tool only looks (`get_`, `list_`, `search_`…): it does not do what a noun of action names. */
  looks: boolean;
  /** Parameter paths the tool declares (schema), when known. */
  params: Set<string> | undefined;
  /** The concepts of each value of the tool's parameters with a closed list, by path. */
  choices: { path: string; values: Set<string>[] }[];
}

// A workspace calls the same few tools again and again: each tool's profile is read once (bounded), found
// by its name, then by its description and parameters (the same list object, or one with the same paths).
const profiles = new Map<string, { description: string | undefined; params: readonly string[] | undefined; choices: ActionInput["choices"]; profile: ToolProfile }[]>();
let profileCount = 0;
const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) => a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]));

function toolProfile(input: ActionInput): ToolProfile {
  const known = profiles.get(input.tool);
  if (known) for (const k of known) if (k.description === input.description && sameList(k.params, input.params) && k.choices === input.choices) return k.profile;
  const profile = readProfile(input);
  if (profileCount >= CACHE_LIMIT) {
    profiles.clear();
    profileCount = 0;
  }
  const entries = profiles.get(input.tool) ?? [];
  entries.push({ description: input.description, params: input.params, choices: input.choices, profile });
  profiles.set(input.tool, entries);
  profileCount++;
  return profile;
}

function readProfile(input: ActionInput): ToolProfile {
  const name = lexical(conceptSet(input.tool));
  const operation = conceptSet(operationWords(wordsOfName(input.tool)).join(" "));
  let concepts = name;
  if (input.description) {
    concepts = new Set(name);
    for (const c of lexical(conceptSet(ownWords(input.description.slice(0, 500), input.tool)))) concepts.add(c);
  }
  const objectClasses = new Set<string>();
  for (const w of wordsOfName(input.tool).slice(1)) for (const c of conceptsOf(w)) if (c.startsWith(":")) objectClasses.add(c);
  const paramConcepts = new Set<string>();
  for (const p of input.params ?? []) for (const c of lexical(conceptSet(p.replace(/[._]/g, " ")))) paramConcepts.add(c);
  const makes = operation.has(":create") || MAKING_VERBS.has(wordsOfName(input.tool)[0] ?? "");
  const looks = LOOKING.has(wordsOfName(input.tool)[0] ?? "");
  const choices = Object.entries(input.choices ?? {}).map(([path, values]) => ({ path, values: values.map((v) => lexical(conceptSet(v))) }));
  return { name, operation, concepts, paramConcepts, objectClasses, makes, looks, params: input.params ? new Set(input.params) : undefined, choices };
}

// Where a description turns to what the tool does not do: "without a decline", "does not send", "use
// close_claim instead", "rather than", "unlike". From there to the end of the clause the words are not its.
const CONTRAST = /\b(?:without|not|never|no\s+longer|instead|rather\s+than|unlike|except|other\s+than|as\s+opposed\s+to)\b|n't\b/i;

/** A description's words about its own tool: clauses that contrast it with something else are left out. */
function ownWords(description: string, tool: string): string {
  const kept: string[] = [];
  for (const clause of description.split(/(?<=[.;:,!?])\s+|\s+(?=\()/)) {
    // A clause naming another tool ("for an advance use issue_interim_payment") is about that tool.
    if (/\b[a-z]+_[a-z_]+\b/.test(clause) && !clause.includes(tool)) continue;
    const at = clause.search(CONTRAST);
    kept.push(at < 0 ? clause : clause.slice(0, at));
  }
  return kept.join(" ");
}

/** The leaves of an arguments object, flattened to dotted paths (a module function: no closure per call). */
function collectFields(value: unknown, path: string, depth: number, fields: Field[]): void {
  for (const key in value as Record<string, unknown>) {
    if (fields.length >= MAX_FIELDS) return;
    const inner = (value as Record<string, unknown>)[key];
    const fullPath = path === "" ? key : `${path}.${key}`;
    if (inner !== null && typeof inner === "object" && !Array.isArray(inner)) {
      if (depth < 6) collectFields(inner, fullPath, depth + 1, fields);
      continue;
    }
    fields.push({ path: fullPath, concepts: conceptSet(path === "" ? key : fullPath.replace(/\./g, " ")), words: wordsOfName(key), value: inner });
  }
}

export function prepareAction(input: ActionInput): PreparedAction {
  const fields: Field[] = [];
  if (input.args && typeof input.args === "object") collectFields(input.args, "", 0, fields);
  const profile = toolProfile(input);
  // Each property named (not spread): one object shape for every prepared action keeps the hot path fast.
  return {
    input,
    profile,
    name: profile.name,
    operation: profile.operation,
    paramConcepts: input.params || fields.length === 0 ? profile.paramConcepts : argumentConcepts(fields),
    objectClasses: profile.objectClasses,
    makes: profile.makes,
    looks: profile.looks,
    concepts: profile.concepts,
    valueConcepts: undefined,
    fields,
    params: profile.params,
    choices: profile.choices,
    unknowns: new Set(),
    zoned: new Map(),
    claimed: new Set(),
  };
}

// A call whose tool declares no parameters shows them by its arguments' names, which then say what it
// acts on as declared parameters do (`vessel` of `authorise_departure`). Cached by the names.
const argumentNames = new Map<string, Set<string>>();
function argumentConcepts(fields: Field[]): Set<string> {
  const key = fields.map((f) => f.path).join(",");
  let hit = argumentNames.get(key);
  if (!hit) {
    hit = new Set<string>();
    for (const f of fields) for (const c of lexical(conceptSet(f.path.replace(/[._]/g, " ")))) hit.add(c);
    if (argumentNames.size >= CACHE_LIMIT) argumentNames.clear();
    argumentNames.set(key, hit);
  }
  return hit;
}

// Word forms without verb classes: a class is matched only against the tool's operation word, so "publish"
// does not match the noun "post" in `draft_social_post`.
const lexicalCache = new WeakMap<Set<string>, Set<string>>();
function lexical(set: Set<string>): Set<string> {
  let hit = lexicalCache.get(set);
  if (!hit) {
    hit = new Set([...set].filter((c) => !c.startsWith(":")));
    lexicalCache.set(set, hit);
  }
  return hit;
}

function valueConceptsOf(action: PreparedAction): Set<string> {
  if (action.valueConcepts) return action.valueConcepts;
  const set = new Set<string>();
  for (const f of action.fields) {
    // A value that repeats the word its key ends in (`fluid_type: type_i`) is named by its other words:
    // "type" is the field's, so "Type IV fluid" is not named by `type_i`.
    if (typeof f.value === "string" && f.value.length <= MAX_VALUE_WORDS_LENGTH) for (const c of lexical(conceptSet(f.value))) if (c !== f.words.at(-1)) set.add(c);
  }
  action.valueConcepts = set;
  return set;
}

// ---------------------------------------------------------------------------------------------------
// Actions

export const hasConcept = (set: Set<string>, word: string) => {
  for (const c of conceptsOf(word)) if (set.has(c)) return true;
  return false;
};

/**
 * A term matches an action when its verbs name the tool's operation (by lemma or verb class) and at least
 * half of its other words name the tool or one of its short argument values, one at least the tool itself:
 * "delete customer records" matches `delete_customer`; "send customer phone numbers" matches
 * `share_customer_phone`; "robots enter the loading dock" matches `move_robot {destination: "loading dock"}`.
 */
export function termMatches(term: ActionTerm, action: PreparedAction): boolean {
  return compileTerm(term)(action);
}

const meets = (set: Set<string>, concepts: ReadonlySet<string>) => {
  for (const c of concepts) if (set.has(c)) return true;
  return false;
};

// Nouns made from verbs by a suffix ("settlement", "transfusion", "renewal", "clearance"): the word less its
// suffix (and a plural), or that with an "e", is a word of the lexicon ("settle", "renew", "clear").
const ACTION_SUFFIX = /(ment|sion|tion|al|ance|ence)s?$/;
function isNounOfAction(word: string): boolean {
  const m = ACTION_SUFFIX.exec(word);
  if (!m || word.length < 7) return false;
  // WordNet's derivation links say it where they know the word; the spelling, where they do not ("-sion"
  // after a stem in "t" is no act: "mission" is not of "mist").
  if (verbsOfDoing(word.replace(/s$/, "")).length > 0) return true;
  const stem = word.slice(0, m.index);
  const stems = m[1] === "tion" ? [stem, `${stem}e`, `${stem}t`, `${stem}te`] : m[1] === "sion" ? [`${stem}de`, `${stem}se`] : [stem, `${stem}e`];
  return stems.some((s) => s.length >= 3 && isKnownWord(s));
}
// A name-like word ("analytics-prod", "db_2") is one particular thing, matched as text.
const isNameLike = (word: string) => /[-_\d]/.test(word);
// "personal-training", "business-class": a hyphenated compound of dictionary words, not a code.
// ("target-of-opportunity", "point-of-sale", "work-in-progress": a short linking word between two words too,
// whose initial is one of the initials: ToO, POS, WIP.)
const LINKING = new Set(["of", "in", "on", "to", "at", "by", "and", "for"]);
const isWordCompound = (word: string) => /^[a-z]{3,}(?:-(?:[a-z]{3,}|(?:of|in|on|to|at|by|and|for)-[a-z]{3,}))+$/.test(word) && word.split("-").every((p) => LINKING.has(p) || isKnownWord(p));
// "POs", "VMs": a short word without a vowel pair may be the initials of words of a tool's name.
const initialsIn = (word: string) => (/^[a-z]{2,4}$/.test(word) && !/[aeiouy]{2}/.test(word) ? word.replace(/s$/, "") : undefined);

// Verbs of taking something in that a making tool does ("take a deposit" and `create_tenancy {deposit_gbp}`).
const TAKING = new Set(["take", "collect", "accept"]);

// Verb classes of a participle that says how a made thing is made or carried out ("flown", "booked", "run").
const DESCRIBING_CLASSES = [":move", ":book", ":create", ":run"];

/** The stems a verb's argument names may start with ("store" → "stor-age": a final e goes before a suffix). */
const doingStems = (verb: ReadonlySet<string>) => [...new Set([...verb].filter((c) => !c.startsWith(":")).map((c) => c.replace(/e$/, "")).filter((c) => c.length >= 4))];

/**
 * Whether an argument of the tool is named by a noun of doing whose verb is the rule's verb in another word
 * ("leave the site" and `departure_time`: departing is a way of leaving), by WordNet.
 */
function recordsDoingOf(action: PreparedAction, verb: string): boolean {
  const names = action.params ? [...action.params] : action.fields.map((f) => f.path);
  return names.some((name) => name.split(/[._]/).some((word) => word.length >= 5 && verbsOfDoing(word).some((v) => verbsRelated(v, verb))));
}

/** Whether an argument of the tool is how much of the verb it does (`refund_fraction`, `refund_amount_cents`). */
function recordsAmountOf(action: PreparedAction, stems: readonly string[]): boolean {
  const names = action.params ? [...action.params] : action.fields.map((f) => f.path);
  return names.some((name) => {
    const words = name.split(/[._]/);
    const measures = (w: string) => AMOUNT_WORDS.includes(w) || COUNT_WORDS.includes(w) || PERCENT_WORDS.includes(w) || unitOfName([w]) !== undefined || currencyOfWord(w) !== undefined;
    return words.length > 1 && stems.some((c) => words[0]!.startsWith(c) && words[0]!.length - c.length <= 3) && words.slice(1).some(measures);
  });
}

/** Whether an argument of the tool is named by a form of the verb ("storage" for "stored", "usage" for "used"). */
function recordsDoing(action: PreparedAction, stems: readonly string[]): boolean {
  if (stems.length === 0) return false;
  const names = action.params ? [...action.params] : action.fields.map((f) => f.path);
  return names.some((name) => name.split(/[._]/).some((word) => word.length >= 5 && stems.some((c) => word === c || (word.startsWith(c) && word.length - c.length <= 3))));
}

// The term's words are resolved to concepts once, when the rule loads, not on every decision.
function compileTerm(term: ActionTerm, bound: readonly string[] = []): (action: PreparedAction) => boolean {
  const verbs = term.verbs.map((v) => conceptsOf(v));
  const stems = verbs.map(doingStems);
  // "importing users" and `bulk_create_users`: a verb whose operation is a kind of the tool's.
  const operations = verbs.map((v) => withBroaderClasses(v));
  // "upgrading plans", "renaming files": a verb of no class names a kind of change.
  const classless = verbs.map((v) => ![...v].some((c) => c.startsWith(":")));
  const verbClasses = new Set(verbs.flatMap((v) => [...v].filter((c) => c.startsWith(":")).map((c) => c.slice(1))));
  // "send payouts", "issue API keys", "raise a PO": a verb that delivers, makes or runs, before what a
  // making tool makes (`create_payout`); "give discounts" and `apply_discount`: two support verbs.
  // ("take a deposit", "collect a payment": taking one in is making it, as "give" and "issue" are; not "take
  // down", "take off", which undo.)
  const takes = (v: string) => TAKING.has(v) && !/\b(?:take|takes|taking|took|taken|collect\w*)\s+(?:down|off|out|away|back|over|up|apart)\b/.test(term.text);
  const delivers = term.verbs.map((v, i) => isSupportVerb(v) || takes(v) || verbs[i]!.has(":send") || verbs[i]!.has(":create") || verbs[i]!.has(":run"));
  const support = term.verbs.map((v) => isSupportVerb(v) || takes(v));
  const sends = verbClasses.has("send");
  // The channel the term names, by its verb or its object ("text customers", "send texts").
  const channel = [...term.verbs, ...term.objects].map((w) => channelOf(w)).find((c) => c !== undefined);
  const objects = term.objects.map((o, i) => {
    const concepts = conceptsOf(o);
    return {
      // "texting customers": after a verb of sending, people are the recipients.
      recipient: sends && namesPeople(o),
      concepts,
      nameLike: isNameLike(o),
      whole: norm(o),
      // "wire money", "deploy code", "SMS messages": an object the term's verb acts on anyway.
      implied: [...verbClasses].some((c) => impliedObject(c, o) || concepts.has(`:${c}`)),
      initials: initialsIn(o),
      doing: /^[a-z]{4,}ing$/.test(o),
      // "personal-training": a compound of dictionary words may be written by its initials (pt).
      compoundInitials: isWordCompound(o) ? o.split("-").map((p) => p[0]).join("") : undefined,
      // "business-class": a compound of dictionary words is a modifier like any other, named by its parts.
      parts: isWordCompound(o) ? o.split("-").filter((p) => !LINKING.has(p)).map((p) => conceptsOf(p)) : undefined,
      // "shut-offs": its words run together, and the other words the lexicon gives it (its own spellings and
      // parts left out), which name a tool by its sense.
      squashed: norm(o).replace(/[- ]/g, ""),
      senses: [...concepts].filter((c) => !c.startsWith(":") && !norm(o).replace(/[- ]/g, "").includes(c.replace(/[- ]/g, ""))),
      // "planned" in "planned outages": a state of the thing; it narrows, but a tool that only shares it
      // (`create_payment_plan`) is not named by it.
      participle: /^[a-z]{3,}ed$/.test(o) && (concepts.has(o.slice(0, -1)) || concepts.has(o.slice(0, -2)) || concepts.has(o.slice(0, -3))),
      // A participle, regular or not ("paid", "shipped"), before the head: the state of the thing (as written:
      // the objects are lemmas).
      state: i < term.objects.length - 1 && writtenParticiple(term.text, o),
      // "unsigned contracts", "unpaid invoices": un- and a participle before the head is the state negated.
      unState: i < term.objects.length - 1 ? negatedState(o) : undefined,
      // "lots" in "grain lots": an amount of the thing before it.
      amountOf: i > 0 && i === term.objects.length - 1 && isAmountNoun(o),
    };
  });
  const verbsOnly = term.verbs.length > 0;
  const textWords = wordsOf(term.text);
  const positionOf = (o: { whole: string; concepts: ReadonlySet<string> }) => textWords.findIndex((w) => norm(w) === o.whole || meets(conceptsOf(w) as Set<string>, o.concepts));
  const firstWord = wordsOf(term.text)[0] ?? "";
  const leadsWithIng = firstWord.endsWith("ing");
  // The term's words as written, generic nouns included ("customer records" keeps "records").
  const aboutData = wordsOf(term.text).some((w) => DATA_NOUNS.has(w));
  // "overnight shipments": the noun of action read as the verb comes last, so every object before it modifies it.
  const lastWord = wordsOf(term.text).at(-1);
  const headIsVerb = verbsOnly && lastWord !== undefined && verbs.some((v) => v.has(lastWord) || meets(conceptsOf(lastWord) as Set<string>, v));
  // ("avalanche control missions planned": a participle after its thing leaves the noun before it the head,
  // no modifier.)
  const headBeforeParticiple = headIsVerb && isParticiple(lastWord!);
  // "claim settlements", "visa renewals": a noun of action heading the words names the operation; a tool
  // that does not (`set_reserve`, `open_claim`) is not the one, whatever else it shares with them.
  const headWord = term.objects.at(-1);
  const headAction = !verbsOnly && term.objects.length > 1 && headWord !== undefined && isNounOfAction(headWord) ? objects.at(-1)!.concepts : undefined;
  // Whether a word of a tool's name is one the term says, by a form or by the channel it names.
  const termConcepts = new Set([...verbs, ...objects.map((o) => o.concepts)].flatMap((c) => [...c].filter((x) => !x.startsWith(":"))));
  const namedByTerm = (word: string) => meets(termConcepts, conceptsOf(word)) || (channel !== undefined && channelOf(word) === channel);
  const noNameLike = objects.every((o) => !o.nameLike);
  // "multi-factor authentication" and `disable_mfa`: the objects' initials are a word of the tool's name.
  const phraseInitials = term.objects.length >= 1 ? term.objects.flatMap((o) => o.split("-")).filter(Boolean).map((w) => w[0]).join("") : "";
  // "pesticide spraying" and `schedule_spraying`: the verb is the head of a name that holds nothing else
  // but its operation (a doing, scheduled or logged), so the modifiers have no word of the name to disagree
  // with; only the action's values can say it is another kind (checked by otherKind).
  const namesBareHead = (action: PreparedAction): boolean => {
    const name = wordsOfName(action.input.tool);
    // (A head that is a noun of doing: `send_email` does one e-mail, which "mass mailings" is not about.)
    const head = name[1] ?? "";
    return name.length === 2 && !action.looks && (/[a-z]{3}ing$/.test(head) || isNounOfAction(head)) && verbs.some((v) => meets(conceptsOf(head) as Set<string>, v));
  };
  return (action) => {
    // A verb names the tool's operation (its first word, by lemma or verb class) or, by its own forms, any
    // word of the tool ("payouts" and `create_payout`).
    let nounOfAction = false;
    let byDelivery = false;
    let byKind = false;
    let byPlace = false;
    // The term's only "verb" modifies its noun: it names a thing, as a term without a verb does.
    let modifierOnly = false;
    for (let k = 0; k < verbs.length; k++) {
      const v = verbs[k]!;
      // "resurface the floor" and `start_floor_resurfacer`, "shred documents" and `run_shredder`: starting or
      // running the machine named for what it does is doing it.
      if (STARTING.has(wordsOfName(action.input.tool)[0] ?? "") && (meets(agentVerbsOf(action), v) || wordsOfName(action.input.tool).slice(1).some((w) => machineVerbs(w).some((m) => meets(conceptsOf(m) as Set<string>, v))))) continue;
      if (meets(action.operation, v)) {
        // "text customers" and `send_email`: one operation by another channel.
        if (channel !== undefined && otherChannel(action, channel)) return false;
        continue;
      }
      // "importing contacts" and `bulk_create_contacts`: an operation that is a kind of the tool's, only with
      // objects, which must then name the tool ("imports" alone is not every `create_*` tool).
      if (objects.length > 0 && operations[k] !== v && meets(action.operation, operations[k]!)) {
        byDelivery = true;
        continue;
      }
      // A delivering verb and a tool that makes or applies (its objects must then name the tool).
      // Only with an object, which must then name the tool: "send" alone is not `issue_invoice`.
      const opWord = wordsOfName(action.input.tool)[0] ?? "";
      if (objects.length > 0 && delivers[k] && (action.makes || (support[k] && isSupportVerb(opWord)))) {
        byDelivery = true;
        continue;
      }
      // "send parcels" and `ship_package`: sending a thing on its way.
      if (objects.length > 0 && v.has(":send") && channel === undefined && isDispatchVerb(opWord)) {
        byDelivery = true;
        continue;
      }
      const byObjectClass = action.makes && meets(action.objectClasses, v);
      if (meets(action.concepts, v) || byObjectClass) {
        // A tool that reads, cancels or rejects what the verb names (`list_refunds`, `cancel_wire` for
        // "refunds", "wire") does not do it.
        if (undoes(action.operation, v) || endsIt(action, v)) return false;
        // A tool that only looks (`get_dredge_log` for "dredging") does not do what the verb names;
        // a rule about data still covers reading it.
        if (action.looks && !aboutData) return false;
        // "vendor payouts" and `create_payout`: the verb names what the tool makes, so the other words only
        // narrow it; they may be missing from the tool's name.
        // Only for a tool that makes what it names (`create_payout`, `issue_refund`) or sends it out
        // (`send_offer_letter` for "job offers": sending an offer is making it): `grant_app_access` does not
        // make "access", and "repository access" must still say which access.
        if ((meets(action.name, v) && (action.makes || action.operation.has(":send"))) || byObjectClass) nounOfAction = true;
        continue;
      }
      // A kind of change the lexicon has no class for, and a tool whose operation is change itself
      // (`change_plan`, `update_file`): the objects must then name the tool.
      if (classless[k] && objects.length > 0 && action.operation.has(":update")) {
        byKind = true;
        continue;
      }
      // "Cleaning contracts" and `contract_type: cleaning`: a leading word in -ing that is a value of the action
      // names its kind, not an operation; the objects must then name the tool.
      if (k === 0 && objects.length > 0 && leadsWithIng && meets(valueConceptsOf(action), v)) {
        byKind = true;
        continue;
      }
      // "Engineering possessions", "Catering orders": a leading word in -ing of no operation the lexicon
      // knows modifies the noun after it; the objects must then name the tool (`request_possession`).
      // (Only for a tool that makes or requests the thing, and an action that does not say its kind otherwise:
      // "building applications" and `application_type: planning` are another kind.)
      if (k === 0 && objects.length > 0 && leadsWithIng && v.has(firstWord) && classless[k] && !delivers[k] && action.makes && !otherKind(action)) {
        byKind = true;
        modifierOnly = true;
        continue;
      }
      // "Drone flights planned with …" and `schedule_drone_flight`: the participle says which flights; a
      // tool that makes or schedules them makes such flights (the objects must then name the tool).
      // (Only a participle of how a thing is made or carried out: "invoices voided …" are not made by `create_invoice`.)
      if (term.described && objects.length > 0 && action.makes && DESCRIBING_CLASSES.some((c) => v.has(c))) {
        byKind = true;
        continue;
      }
      // "Seedling trays must not be stored colder than …" and `log_tray {storage_temp_c}`: a verb the tool
      // does not do but records of the thing (an argument named by it) says in which state the thing is; the
      // objects must then name the tool.
      // (Not a tool that only looks: `get_price {change_percent}` reads a change, it makes none.)
      // ("Refunding more than half …" and `cancel_booking {refund_fraction}`: a verb alone too, when the tool
      // records how much of it it does; the cancellation does that refunding.)
      if (!action.looks && recordsDoing(action, stems[k]!) && (objects.length > 0 || recordsAmountOf(action, stems[k]!))) {
        byKind = true;
        continue;
      }
      // "Interpreting sessions …" and `book_interpreter`: a tool that books, assigns or sends who does the act
      // arranges the act. (Not one that only looks, cancels or rejects.)
      if (!action.looks && !action.operation.has(":cancel") && !action.operation.has(":reject") && meets(agentVerbsOf(action), v)) {
        byPlace = true;
        continue;
      }
      // "Trailers must not leave the site after 22:00" and `create_dispatch {departure_time}`: a tool that
      // records the act under a noun of another verb for it (departing, for leaving) does it; what is left
      // is a place, which the tool need not name. (Not one that only looks, cancels or rejects.)
      if (!action.looks && !action.operation.has(":cancel") && !action.operation.has(":reject") && recordsDoingOf(action, term.verbs[k]!)) {
        byPlace = true;
        byKind = true;
        continue;
      }
      return false;
    }
    if (objects.length === 0) return verbsOnly;
    if (headAction && !meets(action.concepts, headAction) && !meets(action.paramConcepts, headAction)) return false;
    // "maintenance windows", "orders": a thing named alone is made or done; a tool that cancels or rejects
    // it (`cancel_maintenance`) undoes it. Reading is left in: a rule about data may be about reading it.
    // A tool's name ("Block cancel_order") or a word of its operation among the objects still names it.
    // ("bookings by members under 18" and `end_booking`: a noun of doing names the doing; ending or filing
    // away what was done is another operation. A thing that is no doing, "incidents", is still closed under its rule.)
    const ends = endingTool(action) && objects.length > 0 && objects.every((o) => /[a-z]{3}ings?$/.test(o.whole) || isNounOfAction(o.whole));
    if ((!verbsOnly || (modifierOnly && verbs.length === 1)) && !term.exact && (action.operation.has(":cancel") || action.operation.has(":reject") || ends) && !objects.some((o) => meets(action.operation, o.concepts))) return false;
    // A tool that only looks (`list_refunds`, `get_prescription`) does not do the thing a noun of action
    // names ("refunds over $500", "ketamine prescriptions"); a rule about data ("patient records",
    // "customer files") still covers reading it.
    if ((!verbsOnly || (modifierOnly && verbs.length === 1)) && !term.exact && !aboutData && action.looks && !objects.some((o) => meets(action.operation, o.concepts))) return false;
    // "band B", "tier C": a parameter's noun then a short value names one value of it; an action with
    // another value there is not the one the rule names.
    for (let i = 0; i + 1 < objects.length; i++) if (valueAfterParameter(action, objects[i]!.concepts, objects[i + 1]) === "other") return false;
    // "market orders" and an order whose type is "limit": a modifier neither the tool nor the action's values
    // name, where the action says which kind it is, names another kind. (The last noun is what is done.)
    // ("business class flights" with cabin "business": the noun after a value names the value's kind.)
    // "voiding a paid invoice" and `status: draft`: a participle that says the thing's state, where the action
    // says its state is another, names another thing.
    // "sending unsigned contracts" and `signed: true` (or a status "signed"): the thing is in the state the
    // rule says it is not in, so another thing.
    if (objects.some((o) => o.unState && stateHeld(action, o.unState) === true)) return false;
    // "certified copies" and `print_uncertified_copy`, "unsigned contracts" and `send_signed_contract`: the
    // tool's name says the state the rule's word denies.
    if (objects.some((o) => deniedByName(action, o))) return false;
    if (objects.some((o) => o.state)) {
      // (The thing's own state, `status` or `invoice_status`; `shrinkage_test_status` is a test's.)
      const own = (f: Field) => f.words.slice(0, -1).every((w) => objects.some((o) => !o.state && meets(conceptsOf(w) as Set<string>, o.concepts)));
      const state = action.fields.find((f) => typeof f.value === "string" && f.value.length <= 30 && f.words.length > 0 && STATE_KEYS.has(f.words.at(-1)!) && own(f));
      if (state && objects.some((o) => o.state && !meets(lexical(conceptSet(state.value as string)), o.concepts))) return false;
    }
    // (A kind the rule's own conditions read, "unless the permit is F1", is theirs to decide.)
    // (Bound as the conditions bind them: "cat" reads `category` there, so here too.)
    const kinds = bound.length === 0 ? kindFields(action) : kindFields(action).filter((f) => !f.words.some((w) => bound.some((b) => sameConceptWord(b, w))) && !bound.some((b) => meets(f.concepts, conceptsOf(b) as Set<string>)));
    if (kinds.length > 0) {
      const afterAValue = (i: number) => i > 0 && meets(valueConceptsOf(action), objects[i - 1]!.concepts as Set<string>);
      const unnamedModifiers = objects.filter((o, i) => (i < objects.length - 1 || headIsVerb) && !(headBeforeParticiple && positionOf(o) === textWords.length - 2) && !afterAValue(i) && unnamed(o, action));
      // ("voter roll exports" and `export_voter_records {format: csv}`: where the kind is a bare dimension
      // of the call, not of the thing, a modifier is another word for a word of the tool's name the term
      // leaves unsaid, "roll" for "records"; one modifier per such word. A modifier that says it is a kind
      // ("business-class") is one.)
      const saysKind = unnamedModifiers.some((o) => o.whole.split(/[- ]/).some((w) => KIND_KEYS.has(w)));
      // (A kind of a named thing, `piercing_type`, is written before the word that names the thing,
      // "helix piercing": a word after it, "piercing appointments", names something else.)
      const competing = (f: Field) => {
        const thing = f.words.slice(0, -1);
        const at = textWords.findIndex((w) => thing.some((x) => sameConceptWord(x, w)));
        return at < 0 ? unnamedModifiers : unnamedModifiers.filter((o) => positionOf(o) < at);
      };
      if (unnamedModifiers.length > 0 && (saysKind || kinds.some((f) => f.words.length > 1 && competing(f).length > 0) || (kinds.every((f) => f.words.length === 1) && spareNameWords(action, namedByTerm) < unnamedModifiers.length))) return false;
    }
    // "hauling out a yacht" and `haul_out {hull_class: dinghy}`: a thing the tool's name does not say but
    // one of its closed lists does is that argument's value; a call holding another value is about another
    // thing (one without it may be about it, which fails closed).
    if (objects.some((o) => !meets(action.name, o.concepts) && anotherChoice(action, o.concepts))) return false;
    if (nounOfAction && noNameLike) return true;
    if (term.exact) return objects.every((o) => meets(action.concepts, o.concepts));
    if (phraseInitials.length >= 2 && action.name.has(phraseInitials)) return true;
    let own = 0;
    let matched = 0;
    let describedOnly = 0;
    // Objects matched by an argument value: the noun right after one names the value's kind ("express
    // shipping" with method: express, "gold tier" with level: gold) and counts as matched too.
    let afterValue = false;
    for (let i = 0; i < objects.length; i++) {
      const o = objects[i]!;
      const followsValue = afterValue;
      afterValue = false;
      // The parameter's noun and its value (checked above: the same, or not given, which fails closed).
      const named = valueAfterParameter(action, o.concepts, objects[i + 1]);
      if (named === "same" || named === "unknown") {
        matched += 2;
        own++;
        i++;
        continue;
      }
      // "off-cycle payroll runs" and `off_cycle`, "fragile crates" and `fragile`: a modifier that is a
      // yes/no argument's name names the kind of action it is true for (missing: it may be, which fails
      // closed).
      // ("unsigned" and `signed: false`: the state negated holds, read above.)
      if (o.unState && stateHeld(action, o.unState) === false) {
        matched++;
        own++;
        continue;
      }
      const flag = action.fields.length > 0 ? action.fields.find((f) => norm(f.path) === o.whole && (typeof f.value === "boolean" || f.value === "true" || f.value === "false")) : undefined;
      if (flag) {
        if (flag.value === false || flag.value === "false") return false;
        matched++;
        own++;
        continue;
      }
      if (o.nameLike && action.params?.has(o.whole.replace(/ /g, "_")) && !action.fields.some((f) => norm(f.path) === o.whole)) {
        matched++;
        continue;
      }
      // A name-like word ("analytics-prod", "db_2") is one particular thing: it matches as a whole or not at all.
      if (o.nameLike) {
        // ("personal-training" and `refund_pt_package`: a compound of words, by its initials.)
        // ("pre-sale" and `schedule_presale`: the name's words run together; "shut-offs" and
        // `schedule_disconnection`: a compound the lexicon gives another word for names the tool by that word.)
        const toolName = norm(action.input.tool);
        const inTool = toolName.includes(o.whole) || toolName.replace(/ /g, "").includes(o.squashed) || (o.compoundInitials !== undefined && wordsOfName(action.input.tool).includes(o.compoundInitials)) || o.senses.some((c) => action.name.has(c));
        if (inTool || action.fields.some((f) => typeof f.value === "string" && norm(f.value) === o.whole)) {
          matched++;
          if (inTool) own++;
          continue;
        }
        // "business-class tickets" and `cabin: business`: a compound of words one of whose parts is a value
        // of the action names that value's kind.
        if (o.parts?.some((part) => meets(valueConceptsOf(action), part as Set<string>))) {
          matched++;
          continue;
        }
        // "a cold-water rinse" and `schedule_water_rinse`: a compound of words
        // whose head the tool's name has is that thing, its modifier read as the words before a noun are.
        if (o.parts && o.parts.length > 1 && meets(action.name, o.parts.at(-1) as Set<string>)) {
          matched++;
          own++;
          continue;
        }
        // Another name where it would be: not this action. No name at all: it may be (fail closed).
        const unclaimedNames = action.fields.some((f) => typeof f.value === "string" && f.value.length <= MAX_VALUE_WORDS_LENGTH && /[-_\d]/.test(f.value));
        const declaredButMissing = action.params ? [...action.params].some((p) => !action.fields.some((f) => f.path === p)) : action.fields.length === 0;
        if (unclaimedNames && !declaredButMissing) return false;
        // Another name of the same kind ("section 13 …" where the rule names "section 21") is where it would be.
        const kind = o.whole.split(" ")[0]!;
        const otherOfKind = (value: string) => {
          const words = norm(value).split(" ");
          return words.length > 1 && words[0] === kind && norm(value) !== o.whole;
        };
        if (kind.length > 1 && /[a-z]/.test(kind) && action.fields.some((f) => typeof f.value === "string" && f.value.length <= MAX_VALUE_WORDS_LENGTH && otherOfKind(f.value))) return false;
        matched++;
        continue;
      }
      // ("interpreting sessions" and `book_interpreter`: a doing named by who does it is the tool's own word.)
      const byAgent = o.doing && meets(agentVerbsOf(action), o.concepts);
      if (byAgent || meets(action.concepts, o.concepts) || meets(action.paramConcepts, o.concepts) || (o.initials !== undefined && initialsOf(action).has(o.initials))) {
        // A word only the description has ("from their account's credit balance") narrows, but does not
        // name the tool alone: its name, its parameters or its initials must.
        const named = byAgent || meets(action.name, o.concepts) || meets(action.paramConcepts, o.concepts) || (o.initials !== undefined && initialsOf(action).has(o.initials));
        if (!o.participle && (named || action.name === action.concepts)) own++;
        else if (!o.participle) describedOnly++;
        matched++;
      } else if (o.implied || o.recipient) {
        matched++;
      } else if (meets(valueConceptsOf(action), o.concepts)) {
        matched++;
        afterValue = true;
      } else if (followsValue || (o.amountOf && matched === i)) {
        // ("grain lots" and a tool that dries "grain": the last noun is an amount of the named thing.)
        matched++;
      }
    }
    // Half of the other words must name the tool or its values, one at least the tool itself: a modifier the
    // tool's name leaves out ("outbound shipments" and `create_shipment`) must not let an action slip past.
    // Words only the description has name the tool when they are all there is and all of them are found.
    const owned = own > 0 || (describedOnly > 0 && matched === objects.length);
    // "No insecticide during …" and `schedule_spray {product_type: insecticide}`: a thing named alone that
    // the call says it is of (its kind's argument holds it) is what the action does, whatever the tool is called.
    if (!verbsOnly && objects.length === 1 && !objects[0]!.doing && kindFields(action).some((f) => meets(lexical(conceptSet(f.value as string)), objects[0]!.concepts))) return true;
    if (byPlace) return true;
    if (byDelivery || byKind) return owned && matched * 2 >= objects.length;
    if (verbsOnly) return (matched * 2 >= objects.length && (owned || matched === objects.length)) || fillsQualifiers(action, namedByTerm, objects.length - matched) || namesBareHead(action);
    return owned && matched * 2 >= objects.length;
  };
}

/**
 * "mass mailings" and `send_bulk_email`: modifiers of the rule that no word of the tool names stand for the
 * qualifiers of the tool's name that no word of the rule names (the words between its operation and its
 * head noun), when the rule names the head. One modifier per qualifier, so `send_email`, which has none, is
 * not matched.
 */
function fillsQualifiers(action: PreparedAction, named: (word: string) => boolean, unmatched: number): boolean {
  const words = wordsOfName(action.input.tool);
  if (unmatched <= 0 || words.length < 3 || !named(words.at(-1)!)) return false;
  const operation = operationWords(words);
  let qualifiers = 0;
  for (const w of words.slice(1, -1)) if (!operation.includes(w) && !named(w)) qualifiers++;
  return qualifiers >= unmatched;
}

/** The tool's name names a channel other than `channel` (`send_email` for "text"). */
function otherChannel(action: PreparedAction, channel: string): boolean {
  let other = false;
  for (const w of wordsOfName(action.input.tool)) {
    const c = channelOf(w);
    if (c === channel) return false;
    if (c !== undefined) other = true;
  }
  return other;
}

// Operations that look at or call off a thing without doing what it is named after. Deleting is left out:
// a rule about a thing still governs destroying it (over-governing is the safer error).
const UNDOING = [":read", ":cancel", ":reject"];

// The first words of tools that only look at things, and the nouns of things a rule may guard from being looked at.
const LOOKING = new Set(["get", "list", "view", "show", "search", "find", "fetch", "lookup", "read", "describe", "query", "browse"]);
const DATA_NOUNS = new Set(["record", "records", "data", "file", "files", "document", "documents", "pii", "report", "reports", "log", "logs", "history", "details", "detail", "profile", "profiles", "information", "info", "transcript", "transcripts", "note", "notes", "message", "messages", "email", "emails", "statement", "statements", "chart", "charts", "result", "results"]);

/** The tool's operation reads or undoes, and the verb names another operation. */
/** The verbs a machine's name says it does, by its suffix ("polisher" → polish, "shredder" → shred). */
function machineVerbs(word: string): string[] {
  const m = /^([a-z]{3,}?)(e?)(?:er|or)s?$/.exec(word);
  if (!m) return [];
  const stem = m[1]!;
  const forms = [stem, `${stem}e`, /([b-df-hj-np-tv-z])\1$/.test(stem) ? stem.slice(0, -1) : stem];
  return [...new Set(forms)].filter((f) => isKnownWord(f));
}

// First words of tools that set a machine going.
const STARTING = new Set(["start", "run", "launch", "operate", "begin", "activate", "engage", "fire"]);

// First words of tools that end or file away what was done (`end_booking`, `archive_order`). "Close",
// "complete", "finish" and "resolve" are left out: closing a sale or completing a transfer is making it.
const ENDING = new Set(["end", "archive", "expire"]);
const endingTool = (action: PreparedAction) => ENDING.has(wordsOfName(action.input.tool)[0] ?? "");
const endsIt = (action: PreparedAction, verb: ReadonlySet<string>) => endingTool(action) && !verb.has(":close");

function undoes(operation: Set<string>, verb: ReadonlySet<string>): boolean {
  const op = UNDOING.find((c) => operation.has(c));
  if (!op || verb.has(op)) return false;
  for (const c of verb) if (c.startsWith(":")) return true;
  return false;
}

// The initials of each run of two to four words of a tool's name after its operation: `create_purchase_order` → po.
const initialsCache = new Map<string, Set<string>>();
// The verbs of the persons a tool's name names ("book_interpreter" → interpret), by tool name.
const agentVerbsCache = new Map<string, Set<string>>();
function agentVerbsOf(action: PreparedAction): Set<string> {
  const tool = action.input.tool;
  let hit = agentVerbsCache.get(tool);
  if (!hit) {
    hit = new Set(wordsOfName(tool).slice(1).flatMap((w) => verbsOfAgent(w)));
    if (agentVerbsCache.size >= CACHE_LIMIT) agentVerbsCache.clear();
    agentVerbsCache.set(tool, hit);
  }
  return hit;
}

function initialsOf(action: PreparedAction): Set<string> {
  const tool = action.input.tool;
  let hit = initialsCache.get(tool);
  if (!hit) {
    hit = new Set<string>();
    const words = wordsOfName(tool).slice(1);
    for (let i = 0; i < words.length; i++) for (let j = i + 2; j <= Math.min(words.length, i + 4); j++) hit.add(words.slice(i, j).map((w) => w[0]).join(""));
    if (initialsCache.size >= CACHE_LIMIT) initialsCache.clear();
    initialsCache.set(tool, hit);
  }
  return hit;
}

const VALUE_LIKE = /^(?:[ivx]{1,4}|[a-z]?\d[\w.-]*|[a-z]\d?)$/;

/**
 * A term's object that names a parameter ("schedule" for `controlled_schedule`) followed by a short
 * value-like word ("ii", "3", "b"): whether the action's value of that parameter is the same, another, or
 * not given. Undefined when the words are not of that shape.
 */
function valueAfterParameter(action: PreparedAction, concepts: ReadonlySet<string>, next: { whole: string; concepts: ReadonlySet<string> } | undefined): "same" | "other" | "unknown" | undefined {
  if (!next || !VALUE_LIKE.test(next.whole) || meets(action.concepts, next.concepts) || meets(action.paramConcepts, next.concepts)) return undefined;
  const param = (action.params ? [...action.params] : action.fields.map((f) => f.path)).find((p) => meets(lexical(conceptSet(p.replace(/[._]/g, " "))), concepts));
  if (!param) return undefined;
  const field = action.fields.find((f) => f.path === param);
  if (!field || field.value === undefined || field.value === null || field.value === "") return "unknown";
  // (`fluid_type: type_iv` for "type IV": a value that repeats its key's word is named by the rest.)
  const value = norm(String(field.value));
  return value === next.whole || value.split(" ").filter((w) => !field.words.includes(w)).join(" ") === next.whole ? "same" : "other";
}

/**
 * What a term needs of an action before it can match, for the rule index: the concepts of its words, one
 * of which must be among the action's (`actionKeys`), or `undefined` when the term can match by other means
 * (a name-like word matched as text, a parameter followed by a value). Read off `compileTerm`:
 * every way it returns true passes through a verb that names the tool's operation, name, description or an
 * object class, or through an object that names the tool, a parameter, or the tool's initials. The rule
 * index test checks that the two agree.
 */
function termKeys(term: ActionTerm): Set<string> | undefined {
  const keys = new Set<string>();
  // A verb meets the tool's operation through its broader classes too ("import" → create), and an argument's
  // noun of doing through the verbs WordNet relates to it ("leave" and `departure_time`).
  for (const v of term.verbs) {
    for (const c of withBroaderClasses(conceptsOf(v))) keys.add(c);
    for (const w of relatedVerbWords(v)) keys.add(w);
  }
  for (let i = 0; i < term.objects.length; i++) {
    const o = term.objects[i]!;
    if (isNameLike(o) || (i > 0 && VALUE_LIKE.test(norm(o)))) return undefined;
    for (const c of conceptsOf(o)) keys.add(c);
    const initials = initialsIn(o);
    if (initials !== undefined) keys.add(initials);
  }
  // The objects' initials together ("multi factor authentication" → mfa), as the matcher reads them.
  const phrase = term.objects.flatMap((o) => o.split("-")).filter(Boolean).map((w) => w[0]).join("");
  if (phrase.length >= 2) keys.add(phrase);
  return keys;
}

/** The concepts an action offers a term (see `termKeys`). */
function actionKeys(action: PreparedAction): Set<string>[] {
  // (The values of its closed lists too: a thing named by one of them is the tool's, see `namedByChoice`.)
  return [action.operation, action.concepts, action.objectClasses, action.paramConcepts, initialsOf(action), agentVerbsOf(action), doingKeys(action.params ? [...action.params] : []), ...action.choices.flatMap((c) => c.values)];
}

/** The verbs related to the nouns of doing in argument names (`departure_time` → depart, leave, go …). */
const doingCache = new Map<string, Set<string>>();
function doingKeys(names: readonly string[]): Set<string> {
  const key = names.join(",");
  let hit = doingCache.get(key);
  if (!hit) {
    hit = new Set<string>();
    for (const name of names) for (const word of name.split(/[._]/)) if (word.length >= 5) for (const v of verbsOfDoing(word)) for (const w of relatedVerbWords(v)) hit.add(w);
    if (doingCache.size >= CACHE_LIMIT) doingCache.clear();
    doingCache.set(key, hit);
  }
  return hit;
}

/** `termKeys` for every term of a selector; `undefined` when any term can match without them. */
function selectorKeys(actions: ActionSelector): Set<string> | undefined {
  if (actions.any) return undefined;
  const keys = new Set<string>();
  for (const term of actions.terms) {
    const own = termKeys(term);
    if (own === undefined) return undefined;
    for (const k of own) keys.add(k);
  }
  return keys;
}

const matchesTerms = (terms: ActionTerm[], bound: readonly string[] = []) => {
  const compiled = terms.map((t) => compileTerm(t, bound));
  return (action: PreparedAction) => {
    for (const match of compiled) if (match(action)) return true;
    return false;
  };
};

/**
 * "Any glaze applied by spray" and `record_glaze {method: brush|spray|dip}`: a thing
 * described by a participle and a value that one of the tool's closed lists holds is a thing the tool
 * handles that way, whatever the participle's verb; the value itself is the rule's condition. (Not a tool
 * that only looks.) The values are part of the selector's key.
 */
function describedByChoice(terms: readonly ActionTerm[], when: Condition | null): { match: (a: PreparedAction) => boolean; key: string } | undefined {
  const described = terms.filter((t) => t.described && t.objects.length > 0);
  const values: string[] = [];
  const visit = (c: Condition | null): void => {
    if (c?.kind === "and") c.of.forEach(visit);
    else if (c?.kind === "equals" && !c.negate) values.push(...c.values);
  };
  visit(when);
  if (described.length === 0 || values.length === 0) return undefined;
  const things = described.map((t) => t.objects.map((o) => conceptsOf(o) as Set<string>));
  const wanted = values.map((v) => norm(v).split(" ").map((w) => conceptsOf(w) as Set<string>));
  const match = (a: PreparedAction) =>
    !a.looks && things.some((objects) => objects.every((o) => meets(a.name, o))) && a.choices.some((c) => c.values.some((v) => wanted.some((words) => words.every((w) => meets(v, w)))));
  return { match, key: JSON.stringify(values) };
}

/**
 * "Evacuation orders covering more than 5 km" and `issue_public_alert {alert_level: …|evacuation_order}`: a
 * thing named word for word by a value of one of the tool's closed lists is that tool's action with that
 * value; a call holding another value there is another thing (one that leaves it out may be it, and the
 * rule's conditions decide). Two words at least, so a single noun ("refunds") keeps naming tools by their
 * names. (Not a tool that only looks.)
 */
function namedByChoice(terms: readonly ActionTerm[]): { match: (a: PreparedAction) => boolean; key: string } | undefined {
  // The thing's words as written ("emergency closures": a noun of action is a word of the thing too), less a
  // verb that leads them ("issue evacuation orders"), which must then name the tool's operation.
  const named = terms
    .filter((t) => !t.exact)
    .map((t) => {
      const words = wordsOf(t.text);
      const lead = words.length > 2 && t.verbs.length > 0 && meets(conceptsOf(words[0]!) as Set<string>, conceptsOf(t.verbs[0]!) as Set<string>) ? words[0] : undefined;
      return { lead: lead === undefined ? undefined : (conceptsOf(lead) as Set<string>), objects: (lead === undefined ? words : words.slice(1)).map((w) => conceptsOf(w) as Set<string>), text: t.text };
    })
    .filter((t) => t.objects.length >= 2);
  if (named.length === 0) return undefined;
  const match = (a: PreparedAction) =>
    !a.looks &&
    a.choices.some((c) =>
      named.some(({ lead, objects }) => {
        if (lead && !meets(a.operation, lead)) return false;
        if (!c.values.some((v) => objects.every((o) => meets(v, o)))) return false;
        const held = a.fields.find((f) => f.path === c.path);
        return typeof held?.value !== "string" || objects.every((o) => meets(lexical(conceptSet(held.value as string)), o));
      }),
    );
  return { match, key: `named:${JSON.stringify(named.map((t) => t.text))}` };
}

// Rules often name the same actions ("refunds over $500", "refunds at night"): one decision asks each
// distinct selector once. The key is the selector's meaning, so equal selectors share one answer.
const selectorKey = (actions: ActionSelector, bound: readonly string[]) => JSON.stringify([actions.any, actions.domain?.toLowerCase() ?? null, actions.any ? [] : actions.terms.map((t) => [t.verbs, t.objects, t.exact ?? false]), bound]);

/**
 * The words of the arguments a rule's conditions name ("the permit is F1 or F2" → permit): an argument
 * that says which kind the action is, and that the rule itself conditions on, is not another kind.
 */
function boundWords(rule: CompiledRule): string[] {
  const out = new Set<string>();
  const visit = (c: Condition | null | undefined): void => {
    if (!c) return;
    if (c.kind === "and" || c.kind === "or") c.of.forEach(visit);
    else if (c.kind === "not") visit(c.of);
    else if ("subject" in c && c.subject && typeof c.subject === "object" && "words" in c.subject) for (const w of c.subject.words) out.add(w);
  };
  visit(rule.when);
  visit(rule.unless);
  return [...out].sort();
}

// ---------------------------------------------------------------------------------------------------
// Finding a condition's argument

// Names of arguments that hold an amount of money, a count, a percentage: where a value with no subject
// ("over $500", "more than 20 users") is looked for.
const AMOUNT_WORDS = ["amount", "total", "value", "price", "sum", "cost", "fee", "charge", "payment", "spend", "fare", "rate", "salary", "budget", "limit", "balance", "worth"];
const COUNT_WORDS = ["count", "number", "num", "quantity", "qty", "total", "size", "length", "n"];
const PERCENT_WORDS = ["percent", "percentage", "pct", "ratio", "fraction", "share", "rate", "level"];

const numeric = (value: unknown): number | undefined => {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.length < 40) {
    const cleaned = value.replace(/[$€£¥₹,%\s]|usd|eur|gbp/gi, "");
    if (cleaned !== "" && /^-?\d+(\.\d+)?$/.test(cleaned)) return Number(cleaned);
  }
  return undefined;
};

/** A field's value read as a number, once per action (every numeric condition asks). */
function numberOf(f: Field): number | undefined {
  if (f.number === undefined) f.number = numeric(f.value) ?? null;
  return f.number ?? undefined;
}

/**
 * For a count of a noun no argument is named after: the action's amount or quantity when a short text
 * argument holds that noun as its value ("ETH", "credits"), "other" when the argument that says what is
 * counted (asset, currency, unit, item, type) holds something else, undefined when nothing says.
 */
function countedByValue(a: PreparedAction, subject: Subject): Field[] | "other" | undefined {
  const noun = subject.words.at(-1);
  if (!noun) return undefined;
  const holds = a.fields.find((f) => typeof f.value === "string" && f.value.length <= 24 && (sameValue(f.value, noun) || sameValue(f.value, noun.replace(/s$/, ""))));
  const amounts = () => a.fields.filter((f) => isNumber(f) && f.words.some((w) => w === "amount" || w === "quantity" || w === "qty" || w === "count" || w === "number" || w === "units"));
  if (holds) return amounts();
  // Another value where the counted thing is named ("BTC" in `asset` for a rule on ETH): only a short code
  // of the same shape is one; anything else may be a unit or a label of something else (fail closed). A
  // counted word of the dictionary ("shares", "gems") is not a code: a ticker beside it names what is
  // traded, not another thing counted.
  const code = /^[a-z]{2,6}$/i.test(noun) && !isEnglishWord(noun) ? a.fields.find((f) => typeof f.value === "string" && /^[A-Z]{2,6}$/.test(f.value) && f.words.some((w) => ["asset", "coin", "token", "ticker", "symbol"].includes(w))) : undefined;
  return code && amounts().length > 0 ? "other" : undefined;
}

/** Fields whose key shares the most of the subject's words (the head counting double). */
// A compiled rule's subject is asked of every field of every action: its words' concepts and weights (the
// head counting double) are found once per subject.
const subjectWeights = new WeakMap<Subject, { concepts: ReadonlySet<string>; weight: number }[]>();
function weightsOf(subject: Subject): { concepts: ReadonlySet<string>; weight: number }[] {
  let hit = subjectWeights.get(subject);
  if (!hit) {
    const head = subject.words.at(-1);
    hit = subject.words.map((w) => ({ concepts: conceptsOf(w), weight: w === head ? 2 : 1 }));
    subjectWeights.set(subject, hit);
  }
  return hit;
}

/**
 * "above 90% of rated load" read as the share alone ("above 90%"): how a tool that does not carry both
 * amounts is decided and bound. Undefined for a comparison of fields that is no share.
 */
export function shareOf(c: Extract<Condition, { kind: "compare_fields" }>): Condition | undefined {
  return c.factor === undefined ? undefined : { kind: "compare", subject: c.subject, op: c.op, value: { value: c.factor * 100, percent: true, text: `${Math.round(c.factor * 1e6) / 1e4}%` } };
}

/** The two arguments a comparison of fields reads: the thing compared (left) and what it is compared with. */
export function comparedFields(a: PreparedAction, subject: Subject, other: Subject): { left: Field[]; right: Field[] } {
  // "a delivery date later than the translator's due date": two dates compare as well as two amounts.
  // With no words of its own, the action's other dates.
  const datedOther = bySubject(a, other, isDate);
  if (datedOther.length > 0 && (subject.words.length > 0 || subject.implied === "time")) {
    const dated = (subject.words.length > 0 ? bySubject(a, subject, isDate) : a.fields.filter(isDate)).filter((f) => !datedOther.includes(f));
    if (dated.length > 0) return { left: dated, right: datedOther };
  }
  let right = bySubject(a, other, isNumber);
  // "heavier than its rated load" with `load_kg` and `rated_load_t`: the arguments named by all of
  // the other's words, when some are.
  const whole = right.filter((f) => other.words.every((w) => f.words.some((x) => sameConceptWord(w, x))));
  if (whole.length > 0 && whole.length < right.length) right = whole;
  let named = subject.words.length > 0 ? bySubject(a, subject, isNumber) : a.fields.filter((f) => isNumber(f) && f.words.some((w) => AMOUNT_WORDS.includes(w)));
  // "crane lifts above 90% of rated load" with `lift_kg` and `rated_load_kg`: with no argument
  // named, the one other number in the same unit as what it is compared with.
  if (named.filter((f) => !right.includes(f)).length === 0 && right.length === 1) {
    const unit = nameUnit(right[0]!.words).unit;
    const same = unit ? a.fields.filter((f) => isNumber(f) && !right.includes(f) && nameUnit(f.words).unit?.kind === unit.kind) : [];
    if (same.length === 1) named = same;
  }
  // "the markdown is above the clerk's markdown authority" with `markdown_percent` and
  // `clerk_max_markdown_percent`: both names hold "markdown"; the shorter is the thing compared, the other
  // what it is compared with.
  if (right.length > 1 && named.length > 1 && right.every((f) => named.includes(f))) {
    const shortest = Math.min(...named.map((f) => f.words.length));
    right = right.filter((f) => f.words.length > shortest);
  }
  return { left: named.filter((f) => !right.includes(f)), right };
}

/** A field's number, or a date's instant (two dates compare as two amounts do). */
const measureOf = (f: Field): number | undefined => numberOf(f) ?? (isDate(f) ? Date.parse((f.value as string).length === 10 ? `${f.value as string}T00:00:00Z` : (f.value as string)) : undefined);

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_VALUE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
// A date alone is its day's start in UTC (Date.parse reads "2026-10-01" so, and "2026-10-01 10:00" locally).
const isoDay = (value: string) => (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(value) && !/(?:Z|[+-]\d{2}:?\d{2})$/.test(value) ? `${value.replace(" ", "T")}Z` : value);
const isDate = (f: Field) => typeof f.value === "string" && DATE_VALUE.test(f.value) && !Number.isNaN(Date.parse(f.value));

/**
 * The time from the action's own date to the other date it carries ("before handover" → `handover_date`),
 * in seconds, later minus earlier as the rule says; undefined unless both dates are there and one own date.
 */
export function gapBetween(a: PreparedAction, subject: Subject, since: { from: Subject; after: boolean }): { seconds: number; own: Field[]; other: Field } | undefined {
  const other = bySubject(a, since.from, isDate);
  if (other.length !== 1) return undefined;
  const named = subject.words.length > 0 ? bySubject(a, subject, isDate) : [];
  const own = (named.length > 0 ? named : a.fields.filter(isDate)).filter((f) => f !== other[0]);
  if (own.length !== 1) return undefined;
  const ms = Date.parse(String(own[0]!.value)) - Date.parse(String(other[0]!.value));
  return { seconds: (since.after ? ms : -ms) / 1000, own, other: other[0]! };
}

/** The action's date arguments a subject names ("events" → `event_date`); the only one when it names none. */
// Counts that are lengths of time: "21 nights" of a stay are 21 days of it.
const SPAN_UNITS: Record<string, string> = { night: "d", nights: "d", day: "d", days: "d", week: "wk", weeks: "wk" };
// The words that mark an argument as where a stretch of time begins, and as where it ends.
const SPAN_START = new Set(["start", "from", "begin", "beginning", "arrival", "arrive", "checkin", "pickup", "commence", "commencement", "onset"]);
const SPAN_END = new Set(["end", "until", "till", "finish", "return", "checkout", "departure", "depart", "dropoff", "expiry", "expires"]);

/**
 * The length in seconds between the action's start and end dates ("check_in_date" and "check_out_date",
 * "start"/"end", "from"/"until"): one argument of each, the end not before the start; undefined otherwise.
 */
// (A module function, not one made per decision: see docs/benchmarks.md on tsx's keepNames.)
function marks(f: Field, set: Set<string>, particle: string): boolean {
  return f.words.some((w) => set.has(w)) || (f.words.includes("check") && f.words.includes(particle));
}

function spanOf(a: PreparedAction): number | undefined {
  const dates = a.fields.filter(isDate);
  if (dates.length < 2) return undefined;
  const starts = dates.filter((f) => marks(f, SPAN_START, "in"));
  const ends = dates.filter((f) => marks(f, SPAN_END, "out") && !starts.includes(f));
  if (starts.length !== 1 || ends.length !== 1) return undefined;
  const seconds = (Date.parse(ends[0]!.value as string) - Date.parse(starts[0]!.value as string)) / 1000;
  if (!(seconds >= 0)) return undefined;
  a.claimed.add(starts[0]!.path);
  a.claimed.add(ends[0]!.path);
  return seconds;
}

export function datedFields(action: PreparedAction, subject: Subject): Field[] {
  const named = bySubject(action, subject, isDate);
  if (named.length > 0) return named;
  const all = action.fields.filter(isDate);
  return all.length === 1 ? all : [];
}

export function bySubject(action: PreparedAction, subject: Subject, fits: (f: Field) => boolean): Field[] {
  if (subject.words.length === 0) return [];
  // "amount_cents above 40000": an argument named by its own identifier is that argument.
  if (subject.words.length === 1 && subject.words[0]!.includes("_")) {
    const named = action.fields.filter((f) => f.path === subject.words[0] && fits(f));
    if (named.length > 0) return named;
  }
  let best: Field[] = [];
  let bestScore = 0;
  const weights = weightsOf(subject);
  for (const f of action.fields) {
    if (!fits(f)) continue;
    let score = 0;
    for (const w of weights) if (meets(f.concepts, w.concepts)) score += w.weight;
    if (score > bestScore) {
      best = [f];
      bestScore = score;
    } else if (score === bestScore && score > 0) best.push(f);
  }
  return best;
}

function byWords(fields: Field[], words: string[], fits: (f: Field) => boolean): Field[] {
  const byLast = fields.filter((f) => fits(f) && words.includes(f.words.at(-1) ?? ""));
  if (byLast.length > 0) return byLast;
  return fields.filter((f) => fits(f) && f.words.some((w) => words.includes(w)));
}

/** Whether the tool declares a parameter the subject could name (when its schema is known). */
export function toolCanCarry(action: PreparedAction, subject: Subject, value?: Value): boolean {
  if (!action.params) return true;
  if (subject.words.length === 0) {
    // No subject: a parameter of the value's kind (money, a percentage, a quantity of that dimension, a count).
    const names = [...action.params].map((p) => wordsOf(p));
    if (value?.unit && value.kind) return names.some((w) => unitOfName(w)?.kind === value.kind || w.some((x) => ["duration", "length", "size", "weight", "speed", "temperature", "time", "minutes", "hours"].includes(x)));
    if (value?.currency || subject.implied === "amount") return names.some((w) => w.some((x) => AMOUNT_WORDS.includes(x) || currencyOfWord(x) !== undefined || x === "cents"));
    if (value?.percent || subject.implied === "percent") return names.some((w) => w.some((x) => PERCENT_WORDS.includes(x)));
    if (subject.count) return names.some((w) => w.some((x) => COUNT_WORDS.includes(x)));
    return action.params.size > 0;
  }
  if (subject.words.length === 1 && action.params.has(subject.words[0]!)) return true;
  for (const p of action.params) {
    const concepts = conceptSet(p.replace(/\./g, " "));
    if (subject.words.some((w) => hasConcept(concepts, w))) return true;
  }
  return false;
}

// Module-level (not made per call): a decision asks them of every field for every numeric condition.
const isNumber = (f: Field) => numberOf(f) !== undefined;
const isNumberOrList = (f: Field) => numberOf(f) !== undefined || Array.isArray(f.value);

// The unit and currency an argument's name states, per name (the words arrays of names are shared).
const nameUnits = new WeakMap<readonly string[], { unit: ReturnType<typeof unitOfName>; currency: boolean }>();
function nameUnit(words: readonly string[]): { unit: ReturnType<typeof unitOfName>; currency: boolean } {
  let hit = nameUnits.get(words);
  if (!hit) {
    hit = { unit: unitOfName(words), currency: words.some((w) => currencyOfWord(w) !== undefined) };
    nameUnits.set(words, hit);
  }
  return hit;
}

/**
 * The fields a numeric condition reads. `key` (what the condition asks, made once per compiled condition:
 * see `numericKey`) lets rules that ask the same thing of one action share the answer; the last reading,
 * which depends on the fields other conditions claimed, is never shared.
 */
export function numericFields(action: PreparedAction, subject: Subject, value: Value, key?: string): Field[] {
  if (key !== undefined) {
    const hit = action.numericReads?.get(key);
    if (hit) return hit;
    const found = namedNumericFields(action, subject, value);
    if (found) {
      (action.numericReads ??= new Map()).set(key, found);
      return found;
    }
  } else {
    const found = namedNumericFields(action, subject, value);
    if (found) return found;
  }
  // The only number the action carries is the one the rule means ("more than twenty users" → count).
  const fits = subject.count === true ? isNumberOrList : isNumber;
  // (Not one whose name says it measures something else: `deferral_days` is no sum of money, `weight_kg` no
  // length; nor a number that identifies, `badge_number: "2093"`.)
  const candidates = action.fields.filter((f) => fits(f) && !action.claimed.has(f.path) && !(typeof f.value === "string" && IDENTIFIER_KEY.test(f.path)));
  if (candidates.length === 1 && !measuresOther(candidates[0]!, value) && (subject.words.length === 0 || subject.count === true)) return candidates;
  return [];
}

function measuresOther(f: Field, value: Value): boolean {
  const { unit, currency } = nameUnit(f.words);
  if (value.currency) return unit !== undefined && unit.kind !== "unitless" && !currency;
  if (value.unit && value.kind) return (unit !== undefined && unit.kind !== "unitless" && unit.kind !== value.kind) || currency;
  return false;
}

/** What a numeric condition asks, as a key: its subject and the kind of its value. */
export const numericKey = (subject: Subject, value: Value) =>
  `${subject.words.join(" ")}|${subject.implied ?? ""}|${subject.count ? "n" : ""}|${value.currency ? "$" : ""}${value.percent ? "%" : ""}|${value.unit && value.kind ? value.kind : ""}`;

/** The fields named by the subject or by the value's kind, or undefined when none are. */
function namedNumericFields(action: PreparedAction, subject: Subject, value: Value): Field[] | undefined {
  const fits = subject.count === true ? isNumberOrList : isNumber;
  const byName = bySubject(action, subject, fits);
  // "a repair estimate over €400" and `estimated_hours`, `repair_cost_cents`: of the arguments the
  // words name, those whose name says they measure something else than the value are not meant.
  // (When all of them do, the value's own kind finds the argument, and failing that they are read as named.)
  const named = byName.filter((f) => !measuresOther(f, value));
  // "more than 9 guests" and `guests`, `youngest_guest_age`: a count is of the argument
  // whose name ends in what is counted (or says it counts), not one that measures something of it.
  if (named.length > 1 && subject.count) {
    const head = subject.words.at(-1);
    const counts = named.filter((f) => (head !== undefined && sameConceptWord(head, f.words.at(-1) ?? "")) || COUNT_WORDS.includes(f.words.at(-1) ?? ""));
    if (counts.length > 0) return counts;
  }
  if (named.length > 0) return named;
  const all = action.fields.filter(fits);
  if (value.currency || subject.implied === "amount") {
    const money = all.filter((f) => nameUnit(f.words).unit === undefined || nameUnit(f.words).currency);
    const hit = byWords(money, AMOUNT_WORDS, fits);
    if (hit.length > 0) return hit;
    const currencyNamed = money.filter((f) => nameUnit(f.words).currency);
    if (currencyNamed.length > 0) return currencyNamed;
  }
  if (value.percent || subject.implied === "percent") {
    const hit = byWords(action.fields, PERCENT_WORDS, fits);
    if (hit.length > 0) return hit;
  }
  if (value.unit && value.kind) {
    const sameKind = all.filter((f) => nameUnit(f.words).unit?.kind === value.kind);
    if (sameKind.length > 0) return sameKind;
  }
  if (subject.count) {
    const hit = byWords(action.fields, COUNT_WORDS, fits);
    if (hit.length > 0) return hit;
  }
  return byName.length > 0 ? byName : undefined;
}

/** How an argument's number stands to a rule value: money in minor units, another unit of the value's kind, a 0–1 fraction. */
export type Scale = { kind: "minor" } | { kind: "unit"; unit: Quantity } | { kind: "fraction"; named: boolean };
const MINOR: Scale = { kind: "minor" };
const NAMED_FRACTION: Scale = { kind: "fraction", named: true };
const UNNAMED_FRACTION: Scale = { kind: "fraction", named: false };

/**
 * The scale of an argument named by `words` against a rule value: shared by evaluation and by the bindings
 * shown to the author, so that what is shown is what is compared. A fraction not named as one is a
 * fraction only when its value is at most 1 (and its name does not say percent).
 */
export function scaleOf(words: readonly string[], value: Value): Scale | undefined {
  if (value.currency) return words.includes("cents") || words.includes("cent") || words.includes("pence") ? MINOR : undefined;
  if (value.unit && value.kind) {
    const unit = unitOfName(words, value.kind);
    return unit && unit.kind === value.kind && (unit.unit !== value.unit || unit.value !== 1) ? { kind: "unit", unit } : undefined;
  }
  if (value.percent) {
    if (words.some((w) => w === "fraction" || w === "ratio" || w === "share")) return NAMED_FRACTION;
    if (!words.some((w) => w === "percent" || w === "percentage" || w === "pct")) return UNNAMED_FRACTION;
  }
  return undefined;
}

/** A value of degrees with no scale, in the temperature scale of the argument it is compared with. */
function inOwnScale(f: Field, value: Value): Value {
  // ("3 degrees an hour" against `ramp_c_per_hour`: degrees over a time are a change in the argument's scale.)
  if (value.unit?.startsWith("deg/")) {
    const rate = unitOfName(f.words);
    return { ...value, kind: "temperature_rate", unit: value.unit.replace(/^deg/, rate?.kind === "temperature_rate" ? rate.unit.split("/")[0]! : "degC") };
  }
  const scale = unitOfName(f.words, "temperature");
  return { ...value, kind: "temperature", unit: scale?.kind === "temperature" ? scale.unit : "tempC" };
}

// "$300", "three hundred dollars": a dollar said without whose is the dollar of whoever writes the rule,
// so an Australian or Canadian amount is read in it as written (a code or "US" says which one it is).
const UNQUALIFIED_DOLLAR = /^\s*\$\s*[\d.,]|\bdollars?\b|\bbucks?\b/i;
const QUALIFIED_DOLLAR = /\b(?:us|u\.s\.|usd)\b|us\$/i;
const currencyNames = new Intl.DisplayNames(["en"], { type: "currency" });
const dollarCurrency = (code: string) => {
  try {
    return /\bdollar$/i.test(currencyNames.of(code) ?? "");
  } catch {
    return false;
  }
};
const sameFamily = (value: Value, currency: string) => value.currency === "USD" && UNQUALIFIED_DOLLAR.test(value.text) && !QUALIFIED_DOLLAR.test(value.text) && dollarCurrency(currency);

/** A field's number in the rule value's terms: currency minor units, units of one kind, fractions. */
function comparable(f: Field, value: Value, subject: Subject): number | undefined {
  let x = Array.isArray(f.value) ? f.value.length : numberOf(f);
  if (x === undefined) return undefined;
  const scale = scaleOf(f.words, value);
  if (scale?.kind === "minor") x = x / 100;
  else if (scale?.kind === "unit") {
    const converted = convert(x * scale.unit.value, scale.unit.unit, value.unit!);
    if (converted === undefined) return undefined;
    x = converted;
  } else if (scale?.kind === "fraction" && (scale.named || Math.abs(x) <= 1)) x = x * 100;
  if (subject.magnitude) x = Math.abs(x);
  return x;
}

// Words that mark a value as the one before a change, and the one after it ("current_rent", "new_rent").
const BEFORE_WORDS = new Set(["old", "current", "original", "previous", "prior", "existing", "initial", "before", "from", "was"]);
const AFTER_WORDS = new Set(["new", "corrected", "updated", "proposed", "revised", "adjusted", "requested", "target", "after", "to", "next"]);

/**
 * The size of a change the action makes, from two of its numbers that differ only by a before and an after
 * word (`original_kwh` and `corrected_kwh`): as a percentage of the value before for a percent rule, else
 * the difference. Its absolute value: a rule on the size of a change is about either direction.
 */
function changeBetween(action: PreparedAction, value: Value, direction?: "up" | "down"): number | undefined {
  const numbers = action.fields.filter(isNumber);
  const rest = (f: Field, marks: ReadonlySet<string>) => {
    const at = f.words.findIndex((w) => marks.has(w));
    return at < 0 ? undefined : f.words.filter((_, k) => k !== at).join(" ");
  };
  for (const before of numbers) {
    const key = rest(before, BEFORE_WORDS);
    if (key === undefined) continue;
    const after = numbers.find((f) => f !== before && rest(f, AFTER_WORDS) === key);
    const x = numberOf(before);
    const y = after && numberOf(after);
    if (x === undefined || y === undefined) continue;
    // A change the other way than the rule's ("raise … by more than 8%" and a price cut) has no size here.
    const delta = direction === "up" ? Math.max(0, y - x) : direction === "down" ? Math.max(0, x - y) : Math.abs(y - x);
    if (!value.percent) return delta;
    if (x !== 0) return (delta / Math.abs(x)) * 100;
  }
  return undefined;
}

// Two numbers this close are one value written in two units: 5 °C read in °F is 40.99999999999994, and
// "colder than 41 °F" must let it through as it lets 41 °F through.
const same = (x: number, a: number) => Math.abs(x - a) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(a));

function compareNumbers(op: string, x: number, a: number, b?: number): boolean {
  switch (op) {
    case "gt":
      return x > a && !same(x, a);
    case "gte":
      return x >= a || same(x, a);
    case "lt":
      return x < a && !same(x, a);
    case "lte":
      return x <= a || same(x, a);
    case "eq":
      return same(x, a);
    case "neq":
      return !same(x, a);
    default:
      return (x >= a || same(x, a)) && (x <= (b ?? a) || same(x, b ?? a));
  }
}

function currencyOf(action: PreparedAction, field: Field): string | undefined {
  for (const w of field.words) {
    const c = currencyOfWord(w);
    if (c && w !== "cents") return c;
  }
  const parentPath = field.path.includes(".") ? field.path.slice(0, field.path.lastIndexOf(".") + 1) : "";
  for (const f of action.fields) {
    if (f.words.at(-1) === "currency" && typeof f.value === "string" && f.path.startsWith(parentPath)) return f.value.toUpperCase();
  }
  if (typeof field.value === "string") {
    if (/\$|usd/i.test(field.value)) return "USD";
    if (/€|eur/i.test(field.value)) return "EUR";
    if (/£|gbp/i.test(field.value)) return "GBP";
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------
// Equality of words and values

export const ENVIRONMENT_VALUES = new Set(["production", "prod", "staging", "stage", "development", "dev", "test", "testing", "qa", "sandbox", "live", "preview", "uat", "preprod"]);
export const ENVIRONMENT_KEYS = ["environment", "env", "stage", "tier", "target", "cluster", "namespace", "deployment"];

// A decision compares each short argument with each rule value: the normal forms and the answers are
// kept (bounded), since the same few values recur across rules and actions.
// Only short texts are kept: a long argument (a message body) would make the cache a copy of the traffic.
const normCache = new Map<string, string>();
const sameCache = new Map<string, Map<string, boolean>>();
let sameEntries = 0;
const CACHED_TEXT_LENGTH = 128;

const normalise = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, " ").replace(/^#/, "").trim();
const norm = (s: string) => {
  if (s.length > CACHED_TEXT_LENGTH) return normalise(s);
  let hit = normCache.get(s);
  if (hit === undefined) {
    hit = normalise(s);
    if (normCache.size >= CACHE_LIMIT) normCache.clear();
    normCache.set(s, hit);
  }
  return hit;
};

/** Two values are equal when their text is, ignoring case, separators, plural/inflection, or one abbreviates the other ("prod"/"production"). */
export function sameValue(a: string, b: string): boolean {
  if (a.length + b.length > CACHED_TEXT_LENGTH) return compareValues(a, b);
  // Keyed by the rule's value, then the argument's: no key string is built on the hot path.
  let byArgument = sameCache.get(b);
  const hit = byArgument?.get(a);
  if (hit !== undefined) return hit;
  const same = compareValues(a, b);
  if (sameEntries >= CACHE_LIMIT) {
    sameCache.clear();
    sameEntries = 0;
    byArgument = undefined;
  }
  if (!byArgument) {
    byArgument = new Map();
    sameCache.set(b, byArgument);
  }
  byArgument.set(a, same);
  sameEntries++;
  return same;
}

function compareValues(a: string, b: string): boolean {
  const x = norm(a);
  const y = norm(b);
  if (x === y) return true;
  if (x.length >= 3 && y.length >= 3 && (x.startsWith(y) || y.startsWith(x)) && Math.min(x.length, y.length) >= 4) return true;
  // A country by its name and by its code ("Laos" and LA, "North Macedonia" and MK, "UK" and GB).
  if (x.length === 2 || y.length === 2) {
    const cx = countryCode(x);
    if (cx !== undefined && cx === countryCode(y)) return true;
    // A member of a union a rule names as one place ("ES" and "the EU").
    const inUnion = (country: string, union: string) => {
      const members = unionMembers(union);
      const code = members && countryCode(country);
      return code !== undefined && members!.has(code);
    };
    if (inUnion(x, y) || inUnion(y, x)) return true;
  }
  const xs = x.split(" ");
  const ys = y.split(" ");
  if (xs.length !== ys.length) return false;
  // ("O_neg" and "O-negative": in a value of several words, a word may be cut short, as codes of closed
  // lists often are.)
  return xs.every((w, i) => w === ys[i] || conceptsOf(w).has(ys[i]!) || conceptsOf(ys[i]!).has(w) || (xs.length > 1 && (cutShort(w, ys[i]!) || cutShort(ys[i]!, w))));
}

// A rule's values that are all addresses or blocks ("outside 10.20.0.0/16"), read once per values list.
const networksCache = new WeakMap<string[], Network[] | null>();
function networksOf(values: string[]): Network[] | undefined {
  let hit = networksCache.get(values);
  if (hit === undefined) {
    // (0.0.0.0/0 holds every address, so no author means "inside it": it names "anywhere" as a value, read
    // as written: "expose port 3389 to 0.0.0.0/0".)
    const read = values.map(networkOf);
    hit = values.length > 0 && read.every((n) => n !== undefined && n.bits > 0) ? (read as Network[]) : null;
    networksCache.set(values, hit);
  }
  return hit ?? undefined;
}

const ADDRESS_KEY = /(?:^|[._])(?:ip|ips|ipv4|address|addresses|host|hosts|target|targets|cidr|subnet|network|source|destination|src|dst)(?:$|[._])/;

/**
 * Membership of the action's addresses in blocks: the arguments whose value is an IPv4 address or block
 * (a list of them too), by the subject's name first. An address the tool cannot carry makes the condition
 * false; one it could carry and the call left out is unknown.
 */
function evaluateNetworks(a: PreparedAction, subject: Subject, networks: Network[], every: boolean): Truth {
  const addresses = (f: Field): Network[] | undefined => {
    const list = Array.isArray(f.value) ? f.value : [f.value];
    const read = list.map((x) => (typeof x === "string" ? networkOf(x) : undefined));
    return read.length > 0 && read.every((n) => n !== undefined) ? (read as Network[]) : undefined;
  };
  const named = subject.words.length > 0 ? bySubject(a, subject, (f) => addresses(f) !== undefined) : [];
  const fields = named.length > 0 ? named : a.fields.filter((f) => addresses(f) !== undefined);
  if (fields.length === 0) {
    if (a.params && ![...a.params].some((p) => ADDRESS_KEY.test(p))) return FALSE;
    a.unknowns.add(subject.text || "the address");
    return UNKNOWN;
  }
  const inside = (f: Field) => addresses(f)!.every((n) => networks.some((block) => inNetwork(n, block)));
  for (const f of fields) a.claimed.add(f.path);
  return (every ? fields.every(inside) : fields.some(inside)) ? TRUE : FALSE;
}

const isShort = (v: unknown): v is string => typeof v === "string" && v.length > 0 && v.length <= 40 && !/\s{2}/.test(v);
// A value's shape as written and as read ("studio_b" is one token written, two words read).
const shapesOf = (s: string) => {
  const kind = /\d/.test(s) ? "d" : "a";
  return [`${s.trim().split(/\s+/).length}|${kind}`, `${norm(s).split(" ").length}|${kind}`];
};

// The words a rule's values offer, per values list (a compiled rule's list lives as long as the rule).
const valueWordsCache = new WeakMap<string[], { wanted: string[]; phraseWords: string[]; parts: string[][] }>();
function valueWords(values: string[]): { wanted: string[]; phraseWords: string[]; parts: string[][] } {
  let hit = valueWordsCache.get(values);
  if (!hit) {
    hit = {
      parts: values.map((v) => norm(v).split(" ")),
      // "business class", "zone restricted": each word may be the value, the others its attribute. (Not a
      // value named by a letter, "studio A": the noun alone is no value of it, nor the letter alone.)
      wanted: [...values, ...values.flatMap((v) => (norm(v).includes(" ") && !/(?:^| )[a-z]$/.test(norm(v)) ? norm(v).split(" ") : []))],
      // Membership written as a yes/no argument: "outside the care team" and `requester_in_care_team`.
      phraseWords: values.flatMap((v) => norm(v).split(" ")),
    };
    valueWordsCache.set(values, hit);
  }
  return hit;
}

export const scalar = (f: Field) => typeof f.value === "string" || typeof f.value === "number" || typeof f.value === "boolean" || (Array.isArray(f.value) && f.value.every((x) => typeof x === "string"));

const HAS_DIGIT = /\d/;
function fieldEquals(f: Field, wanted: readonly string[]): boolean {
  if (typeof f.value === "number") {
    // A number equals only a value with digits in it: no text of one is built for the others.
    for (const w of wanted) if (HAS_DIGIT.test(w) && sameValue(String(f.value), w)) return true;
    return false;
  }
  if (!Array.isArray(f.value)) {
    const v = String(f.value);
    for (const w of wanted) if (sameValue(v, w)) return true;
    for (const other of otherForms(f, v)) for (const w of wanted) if (sameValue(other, w)) return true;
    return false;
  }
  for (const v of f.value as string[]) for (const w of wanted) if (sameValue(v, w)) return true;
  return false;
}

/**
 * Other forms a field's value is also named by, read once per field: "class 1" for `dg_class: "class_1"`
 * (a value that repeats its argument's noun before what it is), and the country of a place written by its
 * code where the argument names a place ("no cargo for Cuba or Iran" and `destination_airport: "HAV"`,
 * `destination_port: "IRBND"`).
 */
function otherForms(f: Field, v: string): readonly string[] {
  if (f.forms) return f.forms;
  const forms: string[] = [];
  if (v.length <= MAX_VALUE_WORDS_LENGTH) {
    const own = f.words.at(-1);
    if (own && v.length > own.length + 1 && v.charAt(own.length) === "_" && v.slice(0, own.length).toLowerCase() === own) forms.push(v.slice(own.length + 1));
    const country = f.words.some((w) => PLACE_KEYS.has(w)) ? placeCountry(v) : undefined;
    if (country) forms.push(country);
  }
  f.forms = forms;
  return forms;
}

// Words of an argument's name that say its code is a place's (an airport's, a port's).
const PLACE_KEYS = new Set(["airport", "iata", "port", "locode", "origin", "destination", "departure", "arrival"]);

const BOOLEAN_PREFIXES = new Set(["is", "has", "was", "flag", "flagged"]);
const isBoolean = (f: Field) => typeof f.value === "boolean";
const isString = (f: Field) => typeof f.value === "string";
// Argument names that say what kind of party or thing an action is about.
const KIND_WORDS = new Set(["type", "role", "kind", "category", "group", "class", "segment"]);
// Argument names that say which kind of thing the action itself is: an order's type, a booking's cabin, a
// payment's method. (Not a party's tier, role or group: those describe someone the action is about.)
// (A degree says which kind too: "urgent refunds" and `priority: normal`, "minor repairs" and `repair_severity: major`.
// Not "level": `service_level: standard` says how a thing is done, not which thing, and read as a kind it
// kept a dangerous-goods rule off the bookings it is about.)
const KIND_KEYS = new Set(["type", "kind", "category", "class", "method", "mode", "cabin", "variant", "channel", "format", "priority", "severity", "tier"]);

/** A word of the rule's action that neither the tool nor any value of the action names. */
function unnamed(o: { concepts: ReadonlySet<string>; implied: boolean; recipient: boolean; nameLike: boolean; initials?: string; parts?: ReadonlySet<string>[]; doing?: boolean }, action: PreparedAction): boolean {
  // "interpreting sessions" and `book_interpreter`: a doing is named by who does it.
  if (o.doing && meets(agentVerbsOf(action), o.concepts)) return false;
  if (o.implied || o.recipient) return false;
  // A compound of words ("business-class" and `cabin: economy`) is unnamed when none of its parts is named.
  if (o.nameLike) return o.parts !== undefined && o.parts.every((part) => unnamed({ concepts: part, implied: false, recipient: false, nameLike: false }, action));
  const set = o.concepts as Set<string>;
  return !meets(action.concepts, set) && !meets(action.paramConcepts, set) && !meets(valueConceptsOf(action), set) && !action.fields.some((f) => meets(f.concepts as Set<string>, set)) && !(o.initials !== undefined && initialsOf(action).has(o.initials));
}

const participleCache = new Map<string, boolean>();
/** Whether a word is a past participle ("paid", "closed"), by the tagger after "was". */
function isParticiple(word: string): boolean {
  let hit = participleCache.get(word);
  if (hit === undefined) {
    const tagged = tag(["it", "was", word])[2];
    // (Not a plural or a verb's -s form, "orders", which the tagger may read as a verb after "was".)
    hit = /^[a-z]{3,}$/.test(word) && !word.endsWith("ing") && !/[^s]s$/.test(word) && tagged?.pos === "VERB" && tagged.lemma !== word;
    if (participleCache.size >= CACHE_LIMIT) participleCache.clear();
    participleCache.set(word, hit);
  }
  return hit;
}

/** Whether a word of the tool's name is the object's word with "un"/"non" before it, or the state an "un-" object denies. */
function deniedByName(action: PreparedAction, o: { whole: string; unState?: ReadonlySet<string> }): boolean {
  return wordsOfName(action.input.tool).some((w) => w === `un${o.whole}` || w === `non${o.whole}` || (o.unState !== undefined && w.length > 3 && meets(o.unState as Set<string>, conceptsOf(w))));
}

/** The state an "un-" word negates ("unsigned" → signed, "unpaid" → paid), as concepts; none for other words. */
function negatedState(word: string): ReadonlySet<string> | undefined {
  const state = deniedParticiple(word);
  return state === undefined ? undefined : conceptsOf(state);
}

/**
 * Whether the action says a thing is in a state: a yes/no argument named by it (`signed`, `contract_signed`,
 * `is_signed`), else a status argument holding it (`status: "signed"`); undefined when it says neither.
 */
function stateHeld(action: PreparedAction, state: ReadonlySet<string>): boolean | undefined {
  const flag = action.fields.find((f) => (typeof f.value === "boolean" || f.value === "true" || f.value === "false") && f.words.length > 0 && meets(conceptsOf(f.words.at(-1)!) as Set<string>, state));
  if (flag) return flag.value === true || flag.value === "true";
  const status = action.fields.find((f) => typeof f.value === "string" && f.value.length <= 30 && f.words.length > 0 && STATE_KEYS.has(f.words.at(-1)!));
  return status ? meets(lexical(conceptSet(status.value as string)), state) : undefined;
}

/** Whether the word of a term's text that an object was read from ("shipped" for ship) is a participle. */
function writtenParticiple(text: string, object: string): boolean {
  const written = wordsOf(text).find((w) => w === object || conceptsOf(w).has(object));
  return written !== undefined && isParticiple(written);
}

// Arguments that say which state a thing is in.
const STATE_KEYS = new Set(["status", "state", "stage", "phase"]);

/** Whether a closed list of the tool's has a value the words name, and the call holds another value there. */
function anotherChoice(action: PreparedAction, concepts: ReadonlySet<string>): boolean {
  // ("boiler maintenance" and `{equipment: boiler, task: filter_swap}` where a task value is
  // `boiler_inspection`: one list holding the thing is enough; another list naming it in passing says nothing.)
  const holds = (c: PreparedAction["choices"][number]) => {
    const held = action.fields.find((f) => f.path === c.path);
    return typeof held?.value === "string" && meets(lexical(conceptSet(held.value)), concepts as Set<string>);
  };
  if (action.choices.some(holds)) return false;
  for (const c of action.choices) {
    const named = c.values.findIndex((v) => meets(v, concepts as Set<string>));
    if (named < 0) continue;
    const held = action.fields.find((f) => f.path === c.path);
    if (typeof held?.value === "string" && !meets(lexical(conceptSet(held.value)), concepts as Set<string>)) return true;
  }
  return false;
}

/**
 * The action says what kind it is: an argument named for a kind holds a short word. A thing's role is its
 * kind (`device_role: edge` for "core router" pushes); the role of a person or of someone who acts
 * (`user_role`, `agent_role`, `approver_role`: an agent noun may name either, so it is read as a party) or a
 * bare `role` is a party's.
 */
const thingWord = (word: string) => !namesPeople(word) && !/(?:er|or|ist|ant|ent|ee)$/.test(word);
const kindKey = (words: readonly string[]) => KIND_KEYS.has(words.at(-1) ?? "") || (words.at(-1) === "role" && words.length > 1 && thingWord(words.at(-2)!));
function kindFields(action: PreparedAction): Field[] {
  return action.fields.filter((f) => typeof f.value === "string" && f.value.length <= 30 && !/\s/.test(f.value.trim()) && kindKey(f.words));
}
const otherKind = (action: PreparedAction) => kindFields(action).length > 0;

/** Words of the tool's name, past its operation, that no word of the rule's term names. */
function spareNameWords(action: PreparedAction, named: (word: string) => boolean): number {
  const words = wordsOfName(action.input.tool);
  const operation = operationWords(words);
  return words.slice(1).filter((w) => !operation.includes(w) && !named(w)).length;
}
const sameConceptWord = (a: string, b: string) => a === b || hasConcept(conceptsOf(b) as Set<string>, a);

const shortList = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.length <= 50 && v.every((x) => isShort(x));
/** A list of short strings (tags, labels, columns) that holds one of the values. */
const listHolds = (f: Field, wanted: readonly string[]) => shortList(f.value) && f.value.some((x) => wanted.some((w) => sameValue(x, w)));

// Argument names for where an action goes, comes from, happens or passes.
const SETTING_KEYS: Record<Setting, string[]> = {
  to: ["to", "destination", "dest", "target", "recipient", "receiver"],
  from: ["from", "source", "origin", "sender"],
  in: ["location", "site", "place", "area", "zone", "region", "venue", "room", "facility", "in", "at"],
  via: ["via", "channel", "method", "route", "medium", "through"],
};

// An argument that identifies a thing rather than describing it: `equipment_id`, `section_ref`, `area_code`.
const IDENTIFIER_KEY = /(?:^|[._])(?:id|ids|ref|reference|code|number|no)$/;

/** Claims the first argument equal to one of the values, or a list argument holding one: whether there is one. */
function claimHolder(a: PreparedAction, values: readonly string[]): boolean {
  for (const f of a.fields) {
    if ((scalar(f) && fieldEquals(f, values)) || listHolds(f, values)) {
      a.claimed.add(f.path);
      return true;
    }
  }
  return false;
}

/** The argument whose closed list holds one of the values exactly as written, when that is a code (`cold_room_2`, `class-3`). */
function codedChoice(a: PreparedAction, values: readonly string[]): string | undefined {
  const lists = a.input.choices;
  if (!lists) return undefined;
  for (const value of values) {
    if (!/^[a-z0-9]+(?:[_-][a-z0-9]+)+$/i.test(value)) continue;
    for (const [path, choices] of Object.entries(lists)) if (choices.some((c) => c.toLowerCase() === value.toLowerCase())) return path;
  }
  return undefined;
}

function evaluateEquals(a: PreparedAction, subject: Subject, values: string[], category = false, every = false, setting?: Setting, selfNamed = false): Truth {
  const networks = networksOf(values);
  if (networks) return evaluateNetworks(a, subject, networks, every);
  const { wanted, phraseWords, parts: valueParts } = valueWords(values);
  // Yes/no arguments are rare: an action without one skips the two readings of them.
  if (a.fields.some(isBoolean)) {
    const booleans = phraseWords.length < 2 ? [] : a.fields.filter((f) => typeof f.value === "boolean" && phraseWords.every((w) => hasConcept(f.concepts, w)));
    if (booleans.length > 0) return booleans[0]!.value === true ? TRUE : FALSE;
    // "marked urgent" and `urgent: false`, "VIP customers" and `vip: true`: a yes/no argument whose name the
    // value's words say entirely.
    const named = a.fields.filter((f) => typeof f.value === "boolean" && f.words.length > 0 && f.words.every((w) => BOOLEAN_PREFIXES.has(w) || phraseWords.some((p) => sameConceptWord(p, w))) && f.words.some((w) => !BOOLEAN_PREFIXES.has(w)));
    if (named.length > 0) return named.some((f) => f.value === true) ? TRUE : FALSE;
  }
  // 1. A named attribute: "tier bronze", "channel #general", "the HR folder".
  if (subject.words.length > 0) {
    const named = bySubject(a, subject, scalar);
    if (named.length > 0) {
      for (const f of named) a.claimed.add(f.path);
      if (every ? named.every((f) => fieldEquals(f, wanted)) : named.some((f) => fieldEquals(f, wanted))) return TRUE;
      // "servicing on warehouse lifting equipment" and `equipment_id`: a phrase that only names the thing
      // (its value is its own words) is said of the action when the argument it binds to identifies such a
      // thing; any identifier there is one of them.
      if (values.length === 1 && norm(values[0]!) === norm(subject.text) && named.some((f) => IDENTIFIER_KEY.test(f.path) && isShort(f.value))) return TRUE;
      // "zone restricted" read as one phrase: one word is the attribute, the rest its value.
      // ("zone A or B" and `zone: B`: each value so, whichever of them the argument holds.)
      for (const value of values.length === 1 || values.every((v) => norm(v).includes(" ")) ? values : []) {
        if (subject.words.length < 2 && !norm(value).includes(" ")) continue;
        const parts = norm(value).split(" ");
        for (const f of named) for (const p of parts) if (!hasConcept(f.concepts, p) && typeof f.value === "string" && sameValue(f.value, p)) return TRUE;
        if (named.some((f) => {
          const rest = parts.filter((p) => !hasConcept(f.concepts, p)).join(" ");
          return rest && typeof f.value === "string" && sameValue(f.value, rest);
        })) return TRUE;
      }
      return FALSE;
    }
    // "discarded for a temperature excursion": a phrase that only names a value (its subject is its own
    // words) and names no argument is a value some argument holds (`reason: temperature_excursion`). With
    // the schema known it is about this call when an argument holds it; when a closed list of the tool's
    // has it, a call that left that argument out is unknown; otherwise the tool cannot carry it.
    if (a.params && selfNamed) {
      if (claimHolder(a, values)) return TRUE;
      const listed = a.choices.find((c) => c.values.some((v) => valueParts[0]!.every((w) => meets(v, conceptsOf(w) as Set<string>))));
      if (listed && !a.fields.some((f) => f.path === listed.path)) {
        a.unknowns.add(subject.text);
        return UNKNOWN;
      }
      return FALSE;
    }
    // "sent into the cold_room_2 freezer" and `destination_bay`: a value written as the tool writes
    // one of its closed-list values (a code) names that argument, whatever noun the rule puts beside it.
    const coded = codedChoice(a, values);
    if (coded) {
      const field = a.fields.find((f) => f.path === coded);
      if (!field) {
        a.unknowns.add(subject.text);
        return UNKNOWN;
      }
      a.claimed.add(coded);
      return fieldEquals(field, wanted) ? TRUE : FALSE;
    }
    // "a Band 1 or Band 2 ticket" and `priority: band_1`: a short code after a word the tool writes together
    // with it, in whichever argument holds it.
    if (subject.words.length === 1 && values.every((v) => /^[\w.-]{1,4}$/.test(v)) && claimHolder(a, values.map((v) => `${subject.text} ${v}`))) return TRUE;
    // A named attribute the tool cannot carry at all (its schema says so): not about this tool.
    if (a.params && !toolCanCarry(a, subject)) return FALSE;
  }
  // 2. Any short argument equal to a value, or a list argument holding one ("tags": ["legal-hold", …]).
  if (claimHolder(a, wanted)) return TRUE;
  // "hand the batch to the client" and `client: "Northwind"`: a kind of party the action goes to,
  // named by the argument that says who that party is.
  if (setting && subject.words.length === 0 && values.length === 1 && namesPeople(norm(values[0]!))) {
    const party = a.fields.find((f) => isShort(f.value) && f.words.some((w) => sameConceptWord(w, norm(values[0]!))));
    if (party) {
      a.claimed.add(party.path);
      return TRUE;
    }
  }
  // 3. The tool is about the value itself ("publish to social media" and `publish_social_post`).
  // Its name only: a description saying "production needs approval" is not an action in production.
  if (valueParts.some((words) => words.every((w) => hasConcept(a.name, w)))) return TRUE;
  if (category) {
    // An argument that says what kind of party or thing this is (`user_type`, `role`, `customer_group`):
    // the kind it names is the category when one of its words is ("external_contractor" for contractors),
    // another kind otherwise ("employee").
    const kind = a.fields.find((f) => isShort(f.value) && f.words.some((w) => KIND_WORDS.has(w)));
    if (kind) {
      a.claimed.add(kind.path);
      const words = norm(kind.value as string).split(" ");
      return valueParts.some((parts) => parts.some((p) => words.some((w) => sameValue(w, p)))) ? TRUE : FALSE;
    }
    a.unknowns.add(values.join(" or "));
    return UNKNOWN;
  }
  // 4. An environment value and an environment-like argument with another value.
  if (values.some((v) => ENVIRONMENT_VALUES.has(norm(v)))) {
    const env = byWords(a.fields, ENVIRONMENT_KEYS, isString);
    if (env.length > 0) return FALSE;
    if (a.input.domain && values.some((v) => sameValue(v, a.input.domain!))) return TRUE;
    // An environment the call does not name is unknown, whatever else it carries.
    if (!a.params || [...a.params].some((p) => ENVIRONMENT_KEYS.some((k) => wordsOf(p).includes(k)))) {
      a.unknowns.add("environment");
      return UNKNOWN;
    }
  }
  // 5. The tool cannot carry such a value at all (schema known, no string parameter left).
  if (a.params && ![...a.params].some((p) => !a.claimed.has(p))) return FALSE;
  // 6. Another value of the same shape where such a value would be ("economy" where "business" was named).
  const shapes = new Set(wanted.map((w) => shapesOf(w)[0]));
  const shaped = (x: string) => shapesOf(x).some((sh) => shapes.has(sh));
  // A setting ("to the river") is ruled out only by an argument named for its role ("destination": "sewer")
  // or for the thing the tool itself acts on ("role" of change_user_role: "to admin" is its new value).
  const other = a.fields.filter((f) => !a.claimed.has(f.path) && (!setting || f.words.some((w) => SETTING_KEYS[setting].includes(w) || hasConcept(a.name, w))) && (isShort(f.value) ? shaped(f.value as string) : shortList(f.value) && f.value.some(shaped)));
  if (other.length > 0 && subject.words.length > 0 && toolCanCarry(a, subject)) return FALSE;
  if (other.length > 0 && subject.words.length === 0) return FALSE;
  a.unknowns.add(subject.text || values.join(" or "));
  return UNKNOWN;
}

const STATE_PREPOSITIONS = new Set(["under", "on", "in", "at", "pending", "awaiting", "out", "for", "of"]);

// The last word of an argument that holds a thing's state.
const STATUS_KEYS = new Set(["status", "state", "result", "outcome", "stage"]);

const SOMEONE = new Set(["anyone", "anybody", "someone", "somebody", "any"]);

function evaluateFlag(a: PreparedAction, subject: Subject, expect: boolean): Truth {
  const booleans = bySubject(a, subject, (f) => typeof f.value === "boolean" || f.value === "true" || f.value === "false");
  if (booleans.length > 0) {
    const v = booleans[0]!.value === true || booleans[0]!.value === "true";
    a.claimed.add(booleans[0]!.path);
    return v === expect ? TRUE : FALSE;
  }
  // "(refund_fees true)": an argument named as the tool names it is that argument, or none; no state of
  // another argument stands in for it.
  if (/^[a-z0-9]+(?:_[a-z0-9]+)+$/.test(subject.text)) {
    if (a.params && !toolCanCarry(a, subject)) return FALSE;
    a.unknowns.add(subject.text);
    return UNKNOWN;
  }
  // "if someone is still logged in" and `staff_logged_in: 2`: a count of those in the state, of which
  // someone is when it is above zero.
  // ("while divers are still in the pool" and `divers_in_water: 3`: a count named for the people themselves.)
  const people = subject.words.filter((w) => !SOMEONE.has(w) && (namesPeople(w) || isKindOf(w, "person")));
  if (subject.words.some((w) => SOMEONE.has(w)) || people.length > 0) {
    const state = subject.words.filter((w) => !SOMEONE.has(w) && !people.includes(w));
    const counts = (f: Field) => typeof f.value === "number" && ((people.length > 0 && people.every((w) => f.words.some((x) => sameConceptWord(w, x)))) || (state.length > 0 && state.every((w) => f.words.some((x) => sameConceptWord(w, x)))));
    const count = a.fields.find(counts);
    if (count) {
      a.claimed.add(count.path);
      return ((count.value as number) > 0) === expect ? TRUE : FALSE;
    }
  }
  // A state written with its preposition: "under a compliance audit" → status "under_audit",
  // "on hold" → "on_hold": a value whose words, less the preposition, are all the state's words.
  // (Prepositions the rule writes must be the value's too: "out of stock" is not "in_stock".)
  const saidPrepositions = subject.text.split(" ").filter((w) => STATE_PREPOSITIONS.has(w));
  const stated = a.fields.find((f) => {
    if (typeof f.value !== "string" || f.value.length > 40) return false;
    const words = norm(f.value).split(" ");
    const content = words.filter((w) => !STATE_PREPOSITIONS.has(w));
    return words.length > 1 && content.length > 0 && content.length < words.length && content.every((w) => subject.words.some((s) => sameConceptWord(s, w))) && saidPrepositions.every((p) => words.includes(p));
  });
  if (stated) {
    a.claimed.add(stated.path);
    return expect ? TRUE : FALSE;
  }
  // "when the buyer has a wholesale licence" and `licence_type: wholesale`: what kind of the thing it is,
  // held by the argument that says the kind of that thing.
  const head = subject.words.at(-1);
  const kinds = subject.words.slice(0, -1);
  if (head && kinds.length > 0) {
    const kind = a.fields.find((f) => isShort(f.value) && kindKey(f.words) && f.words.slice(0, -1).some((w) => sameConceptWord(w, head)));
    if (kind) {
      a.claimed.add(kind.path);
      const held = kinds.some((k) => sameValue(kind.value as string, k));
      return held === expect ? TRUE : FALSE;
    }
  }
  // A state that is a value: "after they are paid" → status "paid"; "marked urgent" → priority "urgent".
  // ("out for delivery", "out of stock": the state is the words from "out", not the last one.)
  const written = subject.text.split(" ");
  const outAt = written.findIndex((w, k) => w === "out" && ["for", "of"].includes(written[k + 1] ?? ""));
  const out = outAt < 0 ? -1 : subject.words.indexOf("out");
  const state = outAt >= 0 ? written.slice(outAt).join(" ") : subject.words.at(-1);
  if (state) {
    const t = evaluateEquals(a, { text: "", words: [] }, out >= 0 ? [state] : [state, subject.text.split(" ").at(-1) ?? state]);
    if (t !== UNKNOWN) return expect ? t : ((2 - t) as Truth);
    // "who has not yet passed the fitness test" and `fitness_status: pending`: the one argument of a status (of
    // the thing the other words name, when they name one) holds the state or another.
    const others = out >= 0 ? subject.words.filter((w, k) => k !== out && !["for", "of"].includes(w)) : subject.words.slice(0, -1);
    const statuses = a.fields.filter((f) => typeof f.value === "string" && f.value.length <= 30 && STATUS_KEYS.has(f.words.at(-1) ?? "") && (others.length === 0 || others.some((w) => hasConcept(f.concepts, w))));
    if (statuses.length === 1) {
      const held = statuses[0]!;
      a.claimed.add(held.path);
      const same = sameValue(held.value as string, state) || (out < 0 && meets(lexical(conceptSet(held.value as string)), conceptsOf(state) as Set<string>));
      return same === expect ? TRUE : FALSE;
    }
  }
  if (a.params && !toolCanCarry(a, subject)) return FALSE;
  a.unknowns.add(subject.text);
  return UNKNOWN;
}

// The e-mail addresses a text holds, per short text (recipients recur across decisions and rules).
const addressCache = new Map<string, string[]>();
const findAddresses = (text: string) => Array.from(text.matchAll(/[^\s<>,;"']+@[a-z0-9.-]+\.[a-z]{2,}/gi), (m) => m[0]);
function addressesIn(text: string): string[] {
  if (text.length > CACHED_TEXT_LENGTH) return findAddresses(text);
  let hit = addressCache.get(text);
  if (!hit) {
    hit = findAddresses(text);
    if (addressCache.size >= CACHE_LIMIT) addressCache.clear();
    addressCache.set(text, hit);
  }
  return hit;
}

// ---------------------------------------------------------------------------------------------------
// Clocks

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
const zoneOffsets = new Map<string, number>();
// Offsets only change on the hour or half hour (DST): one Intl lookup per zone per quarter hour.
const OFFSET_BUCKET_MS = 15 * 60_000;

/** Minutes to add to UTC to get the zone's wall clock at `at`. */
function offsetMinutes(tz: string, at: Date): number {
  const bucket = Math.floor(at.getTime() / OFFSET_BUCKET_MS);
  const key = `${tz}|${bucket}`;
  const hit = zoneOffsets.get(key);
  if (hit !== undefined) return hit;
  let format = zoneFormats.get(tz);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: tz, year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", hourCycle: "h23" });
    zoneFormats.set(tz, format);
  }
  const probe = new Date(bucket * OFFSET_BUCKET_MS);
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(probe)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!);
  const offset = Math.round((wall - probe.getTime()) / 60_000);
  if (zoneOffsets.size >= CACHE_LIMIT) zoneOffsets.clear();
  zoneOffsets.set(key, offset);
  return offset;
}

/** The weekday, minute of the day and day of the year (month × 100 + day) of an instant on a zone's clock. */
interface WallClock {
  day: number;
  minutes: number;
  monthDay: number;
}

const wallClock = (at: Date, tz: string): WallClock => {
  // ("local" for the time it runs: the service knows no place for it, so UTC as when no zone is named.)
  const wall = tz === "UTC" || tz === "" || tz === LOCAL_ZONE ? at : new Date(at.getTime() + offsetMinutes(tz, at) * 60_000);
  return { day: wall.getUTCDay(), minutes: wall.getUTCHours() * 60 + wall.getUTCMinutes(), monthDay: (wall.getUTCMonth() + 1) * 100 + wall.getUTCDate() };
};

function zonedNow(action: PreparedAction, tz: string): WallClock {
  const hit = action.zoned.get(tz);
  if (hit) return hit;
  const result = wallClock(action.input.now, tz);
  action.zoned.set(tz, result);
  return result;
}

type Check = (action: PreparedAction) => Truth;

/**
 * A condition on a clock (a weekday, a day of the year, a time of day) read in the rule's zone, of the time
 * the action runs or of its own time argument: false for a tool that has no such time, unknown when the
 * action leaves it out.
 */
function onClock(subject: Subject | undefined, zone: string, test: (at: WallClock) => boolean, ofDay = false, planned = ofDay, verbs: readonly string[] = []): Check {
  const tz = zone || "UTC";
  const when = timeSource(subject, ofDay, planned, verbs);
  return (a) => {
    const at = when(a);
    if (at === null) return FALSE;
    if (!at) return UNKNOWN;
    return test(at(tz)) ? TRUE : FALSE;
  };
}

/**
 * When a day or hour rule looks: the time the action runs (now), or with a subject the action's own time
 * argument ("inspections that begin on a Sunday" → `start_time`).
 */
function timeSource(subject: Subject | undefined, ofDay: boolean, planned: boolean, verbs: readonly string[]): (a: PreparedAction) => ((tz: string) => WallClock) | null | undefined {
  if (subject?.implied === "time") return actionTime(subject, ofDay);
  // An hour window with no subject ("maintenance outside 01:00-05:00") is when the action takes place: its
  // planned start when it has one (`start_time`, `scheduled_at` with an hour), else now. So is a day ("no
  // haul-outs on Sundays" and `scheduled_start`), except for a rule about any action, whose days are
  // when anything runs.
  if (!subject && planned) return (a) => plannedStart(a, ofDay, verbs) ?? ((tz) => zonedNow(a, tz));
  if (!subject || subject.words.length === 0) return (a) => (tz) => zonedNow(a, tz);
  return (a) => {
    // A tool that has no such time ("cancel" has no start) is not what the rule is about.
    if (a.params && !toolCanCarry(a, subject)) return null;
    for (const f of bySubject(a, subject, (x) => typeof x.value === "string" || typeof x.value === "number")) {
      // ("shift_start": "09:00": a time alone is the wall clock of the rule's zone, as for the own time.)
      const at = typeof f.value === "string" ? ((ofDay ? timeOfDay(f.value) : undefined) ?? isoClock(f.value, false)) : undefined;
      if (at) return at;
      const instant = new Date(f.value as string | number);
      if (Number.isNaN(instant.getTime())) continue;
      return (tz) => wallClock(instant, tz);
    }
    a.unknowns.add(subject.text);
    return undefined;
  };
}

// Words of a yes/no argument's name that say the action holds a thing (`contains_link`, `has_attachment`).
const HOLDING_WORDS = new Set(["contains", "contain", "has", "have", "includes", "include", "with"]);

// Names of an argument that holds when an action is planned to start.
export const PLANNED_KEY = /(?:^|[._])(?:start|starts|scheduled|planned|begin|begins)(?:$|[._])/;

/** The action's planned start with its hour (an ISO date-time under a start-like name), if it gives one. */
function plannedStart(a: PreparedAction, withHour = true, verbs: readonly string[] = []): ((tz: string) => WallClock) | undefined {
  for (const f of a.fields) {
    const at = typeof f.value === "string" && PLANNED_KEY.test(f.path) ? ((withHour ? timeOfDay(f.value) : undefined) ?? isoClock(f.value, withHour)) : undefined;
    if (at) return at;
  }
  // "no insecticide during the nesting season" and `schedule_spray {spray_date}`: what a tool of booking
  // books happens at its one date, whatever the argument is called. (A rule about the booking itself, "slab
  // bookings on Sundays", is about when it is made: the time it runs.)
  if (a.operation.has(":book") && !verbs.some((v) => conceptsOf(v).has(":book"))) {
    const dated = a.fields.map((f) => (typeof f.value === "string" ? isoClock(f.value, withHour) : undefined)).filter((x) => x !== undefined);
    if (dated.length === 1) return dated[0];
  }
  // "trailers must not leave between 22:00 and 05:30" and `departure_time: "23:15"`: the time of the act
  // the rule names, recorded under its noun of doing (departing is leaving), a date-time or a time of day.
  if (verbs.length === 0) return undefined;
  for (const f of a.fields) {
    if (typeof f.value !== "string" || !namesDoingOf(f.path, verbs)) continue;
    const at = (withHour ? timeOfDay(f.value) : undefined) ?? isoClock(f.value, withHour);
    if (at) return at;
  }
  return undefined;
}

/** An argument's name holds a noun of doing of one of the verbs ("departure" of leave), or the verb's own form. */
export function namesDoingOf(path: string, verbs: readonly string[]): boolean {
  return path.split(/[._]/).some((word) => word.length >= 5 && (verbs.some((v) => word.startsWith(v.replace(/e$/, ""))) || verbsOfDoing(word).some((d) => verbs.some((v) => verbsRelated(d, v)))));
}

const selectorVerbs = (selector: ActionSelector): string[] => (selector.any ? [] : selector.terms.flatMap((t) => t.verbs));

/**
 * An ISO date or date-time as a wall clock in any zone (`withHour`: only one that gives its hour). One written
 * without an offset ("2027-06-08 04:30") is in UTC; in the "local" zone a date-time is its clock as written.
 */
function isoClock(value: string, withHour: boolean): ((tz: string) => WallClock) | undefined {
  const written = ISO_WRITTEN.exec(value);
  if (!written || (withHour && written[4] === undefined)) return undefined;
  const [, y, mo, d, h = "00", mi = "00", sec = "00", zone = "Z"] = written;
  const at = new Date(`${y}-${mo}-${d}T${h}:${mi}:${sec}${zone.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2")}`);
  if (Number.isNaN(at.getTime())) return undefined;
  const asWritten: WallClock = { day: new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d))).getUTCDay(), minutes: Number(h) * 60 + Number(mi), monthDay: Number(mo) * 100 + Number(d) };
  return (tz) => (tz === LOCAL_ZONE ? asWritten : wallClock(at, tz));
}

// A date, optionally its time (after "T" or a space) with seconds, and its offset.
const ISO_WRITTEN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

// A time of day alone ("14:00", "09:30:00"), as a clock-shaped argument holds it.
const CLOCK = /^([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?$/;

/** A time of day alone as a wall clock: no day, and the same in every zone (it is written in the rule's). */
function timeOfDay(value: string): ((tz: string) => WallClock) | undefined {
  const clock = CLOCK.exec(value);
  if (!clock) return undefined;
  const at: WallClock = { day: -1, monthDay: -1, minutes: Number(clock[1]) * 60 + Number(clock[2]) };
  return () => at;
}
// Names of an argument that holds a time of day (not a date alone: `check_in_date` has no hour).
export const CLOCK_KEY = /(?:^|[._])(?:time|at|when|scheduled|start|starts|until|from|due)(?:$|[._])/;
export const TIME_KEY = /(?:^|[._])(?:date|time|at|on|day|start|starts|when|scheduled|from|until|due)(?:$|[._])/;

/**
 * The action's own time, whichever argument holds it: for a day ("scheduled for a Saturday" and
 * `disconnect_date`) the first argument with a date; for a time of day ("a pickup later than 2pm") the
 * first with a clock time (an ISO time with its hour, or a time alone, the rule's zone's own wall clock).
 * A tool with no such argument is not what the rule is about, or with `orNow` is read at the time it
 * runs; one that has it and leaves it out is unknown (fail closed).
 */
function actionTime(subject: Subject, ofDay: boolean): (a: PreparedAction) => ((tz: string) => WallClock) | null | undefined {
  const keys = ofDay ? CLOCK_KEY : TIME_KEY;
  return (a) => {
    for (const f of a.fields) {
      if (typeof f.value !== "string") continue;
      const at = (ofDay ? timeOfDay(f.value) : undefined) ?? isoClock(f.value, ofDay);
      if (at) return at;
    }
    const carries = a.params ? [...a.params].some((p) => keys.test(p)) : !subject.orNow;
    if (!carries) return subject.orNow ? (tz) => zonedNow(a, tz) : null;
    a.unknowns.add(subject.text);
    return undefined;
  };
}

// ---------------------------------------------------------------------------------------------------
// Conditions

/**
 * `exempting` is true where a TRUE lets an action through: an exception ("unless …"), a permissive rule's
 * condition, or a restrictive condition under a negation. A condition that reads several arguments equally
 * (a subject that could name either) is then TRUE only when every one of them makes it so; elsewhere
 * when any one does. Either way an unclear binding fails toward governing the action.
 */
function compileCondition(c: Condition, selector: ActionSelector, exempting = false): Check {
  switch (c.kind) {
    case "and": {
      const parts = c.of.map((x) => compileCondition(x, selector, exempting));
      return (a) => {
        let result: Truth = TRUE;
        for (const p of parts) {
          const v = p(a);
          if (v === FALSE) return FALSE;
          if (v < result) result = v;
        }
        return result;
      };
    }
    case "or": {
      const parts = c.of.map((x) => compileCondition(x, selector, exempting));
      return (a) => {
        let result: Truth = FALSE;
        for (const p of parts) {
          const v = p(a);
          if (v === TRUE) return TRUE;
          if (v > result) result = v;
        }
        return result;
      };
    }
    case "not": {
      const inner = compileCondition(c.of, selector, !exempting);
      return (a) => (2 - inner(a)) as Truth;
    }
    case "compare": {
      const { subject, op, value, high } = c;
      const key = numericKey(subject, value);
      const since = c.since;
      const limit = since && value.unit ? convert(value.value, value.unit, "s") : undefined;
      // The unit a length of the action is compared in, when the rule gives one: a length of time, or a count
      // of days, nights or weeks (read when the rule loads).
      const spanUnit = value.kind === "time" && value.unit ? value.unit : subject.count && subject.words.length === 1 ? SPAN_UNITS[subject.words[0]!] : undefined;
      // "above 35 degrees": degrees with no scale are an angle, or where the action has no angle there, a
      // temperature in the scale of the argument that holds one.
      const degrees: Value | undefined = value.unit === "deg" ? { ...value, kind: "temperature", unit: "tempC" } : value.unit?.startsWith("deg/") ? { ...value, kind: "temperature_rate", unit: value.unit.replace(/^deg/, "degC") } : undefined;
      const degreesKey = degrees ? numericKey(subject, degrees) : undefined;
      return (a) => {
        if (since && limit !== undefined) {
          const gap = gapBetween(a, subject, since);
          if (gap) {
            for (const f of [...gap.own, gap.other]) a.claimed.add(f.path);
            return compareNumbers(op, gap.seconds, limit, high?.unit ? convert(high.value, high.unit, "s") : undefined) ? TRUE : FALSE;
          }
        }
        let fields = numericFields(a, subject, value, key);
        const warmth = fields.length === 0 && degrees !== undefined;
        if (warmth) fields = numericFields(a, subject, degrees, degreesKey);
        // "more than 2 ETH", "over 500 credits": what is counted is a value of the action (asset: "ETH"),
        // and the amount beside it is the count; another value there is another thing counted.
        const counted = subject.words.at(-1);
        if (subject.count && counted && !fields.some((f) => f.words.some((w) => sameValue(w, counted) || sameValue(w, counted.replace(/s$/, ""))))) {
          const named = countedByValue(a, subject);
          if (named === "other") return FALSE;
          if (named) fields = named;
        }
        if (fields.length === 0) {
          // "increases greater than 7%" and an action that carries the value before and after.
          const change = value.percent || subject.magnitude ? changeBetween(a, value, subject.direction) : undefined;
          if (change !== undefined) return compareNumbers(op, change, value.value, high?.value) ? TRUE : FALSE;
          // "cottage lets of more than 14 nights", "hires longer than 2 weeks": a length the action carries as its
          // start and end dates.
          const unit = spanUnit;
          const span = unit ? spanOf(a) : undefined;
          if (unit && span !== undefined) {
            // (Rounded: 21 days read back from seconds are 20.999999999999996.)
            const converted = convert(span, "s", unit);
            const length = converted === undefined ? undefined : Math.round(converted * 1e6) / 1e6;
            if (length !== undefined) return compareNumbers(op, length, value.value, high ? (high.unit ? convert(high.value, high.unit, unit) : high.value) : undefined) ? TRUE : FALSE;
          }
          // "invoices older than 45 days", "dogs vaccinated in the last 3 days": a length of time said of a date
          // the subject names (`invoice_date`, `vaccinated_on`) is how long before the action that date was.
          if (value.kind === "time" && value.unit) {
            const dated = subject.words.length > 0 ? bySubject(a, subject, isDate) : [];
            if (dated.length > 0) {
              for (const f of dated) a.claimed.add(f.path);
              const ages = dated.map((f) => convert((a.input.now.getTime() - Date.parse(isoDay(f.value as string))) / 1000, "s", value.unit!));
              const hold = ages.map((age) => (age === undefined ? UNKNOWN : compareNumbers(op, age, value.value, high ? (high.unit ? convert(high.value, high.unit, value.unit!) : high.value) : undefined) ? TRUE : FALSE));
              return (exempting ? Math.min(...hold) : Math.max(...hold)) as Truth;
            }
          }
          if (a.params && !toolCanCarry(a, subject, value) && !(degrees && toolCanCarry(a, subject, degrees))) return FALSE;
          a.unknowns.add(subject.text || subject.implied || "amount");
          return UNKNOWN;
        }
        let result: Truth = exempting ? TRUE : FALSE;
        for (const f of fields) {
          a.claimed.add(f.path);
          let v: Truth;
          const currency = value.currency ? currencyOf(a, f) : undefined;
          const x = comparable(f, warmth ? inOwnScale(f, value) : value, subject);
          if (currency && value.currency && currency !== value.currency && !value.anyCurrency && !sameFamily(value, currency)) {
            a.unknowns.add(`${subject.text ? `the ${subject.text}` : "the amount"} in ${value.currency}`);
            v = UNKNOWN;
          } else if (x === undefined) v = UNKNOWN;
          else v = compareNumbers(op, x, value.value, high?.value) ? TRUE : FALSE;
          if (exempting ? v < result : v > result) result = v;
        }
        return result;
      };
    }
    case "compare_fields": {
      const { subject, op, other } = c;
      // "more than 20% of the invoice" and `discount_percent`: an action that does not carry both amounts is
      // compared by its share, as "more than 10%" would be (a percentage, or a 0–1 fraction).
      const asShare = shareOf(c);
      const share = asShare ? compileCondition(asShare, selector, exempting) : undefined;
      return (a) => {
        const { left, right } = comparedFields(a, subject, other);
        if (share && (right.length === 0 || left.length === 0)) return share(a);
        if (right.length === 0 || left.length === 0) {
          const missing = right.length === 0 ? other : subject;
          if (a.params && !toolCanCarry(a, missing)) return FALSE;
          a.unknowns.add(missing.text || missing.implied || "amount");
          return UNKNOWN;
        }
        const y = measureOf(right[0]!)! * (c.factor ?? 1);
        const yUnit = nameUnit(right[0]!.words).unit;
        let result: Truth = exempting ? TRUE : FALSE;
        for (const f of left) {
          a.claimed.add(f.path);
          // (`load_kg` against `rated_load_t`: two measures of one kind in the other's unit.)
          const fUnit = nameUnit(f.words).unit;
          const x = fUnit && yUnit && fUnit.kind === yUnit.kind && fUnit.unit !== yUnit.unit ? (convertTo(measureOf(f)! * fUnit.value, fUnit.unit, yUnit) ?? measureOf(f)!) : measureOf(f)!;
          const v: Truth = compareNumbers(op, x, y) ? TRUE : FALSE;
          if (exempting ? v < result : v > result) result = v;
        }
        return result;
      };
    }
    case "equals": {
      const { subject, values, negate } = c;
      const category = c.category === true;
      const every = exempting !== negate;
      const setting = c.setting;
      // (Read once, when the rule loads: a phrase whose value is its own words.)
      const selfNamed = values.length === 1 && subject.words.length > 0 && norm(values[0]!) === norm(subject.text);
      return (a) => {
        const t = evaluateEquals(a, subject, values, category, every, setting, selfNamed);
        return negate ? ((2 - t) as Truth) : t;
      };
    }
    case "flag":
      return (a) => evaluateFlag(a, c.subject, c.expect);
    case "text": {
      const { subject, mode, value, negate } = c;
      const wanted = value.toLowerCase();
      const wantedConcepts = conceptsOf(wanted);
      // (Made once, not per decision: a function made in the decision's path costs its allocation every time.)
      // A list of texts ("contents": ["mercury", "glass"]) holds what one of its items holds.
      const texts = (f: Field) => typeof f.value === "string" || shortList(f.value);
      const holdsText = (value: string) => {
        const text = value.toLowerCase();
        return mode === "starts" ? text.startsWith(wanted) : mode === "ends" ? text.endsWith(wanted) : text.includes(wanted);
      };
      const holds = (f: Field) => (typeof f.value === "string" ? holdsText(f.value) : (f.value as string[]).some((x) => holdsText(x) || (mode === "contains" && sameValue(x, wanted))));
      return (a) => {
        // "posts that contain a link" and `contains_link: false`: a yes/no argument named for holding the
        // thing says whether the action does.
        if (mode === "contains") {
          const flag = a.fields.find((f) => typeof f.value === "boolean" && f.words.some((w) => HOLDING_WORDS.has(w)) && f.words.some((w) => meets(wantedConcepts as Set<string>, conceptsOf(w))));
          if (flag) return (flag.value === true) !== negate ? TRUE : FALSE;
        }
        const fields = subject.words.length > 0 ? bySubject(a, subject, texts) : a.fields.filter(texts);
        if (fields.length === 0) {
          if (a.params && !toolCanCarry(a, subject)) return FALSE;
          a.unknowns.add(subject.text || "text");
          return UNKNOWN;
        }
        const hit = exempting !== negate ? fields.every(holds) : fields.some(holds);
        const t: Truth = hit ? TRUE : FALSE;
        return negate ? ((2 - t) as Truth) : t;
      };
    }
    case "dated": {
      const { subject, past } = c;
      return (a) => {
        const dates = datedFields(a, subject);
        if (dates.length === 0) {
          if (a.params && !toolCanCarry(a, subject)) return FALSE;
          a.unknowns.add(subject.text || "the date");
          return UNKNOWN;
        }
        // A date alone is a whole day: the day of the decision is neither past nor future.
        const now = a.input.now;
        const today = now.toISOString().slice(0, 10);
        let result: Truth = exempting ? TRUE : FALSE;
        for (const f of dates) {
          a.claimed.add(f.path);
          const text = String(f.value);
          const at = DAY_ONLY.test(text) ? (past ? (text < today ? -1 : 0) : text > today ? 1 : 0) : Math.sign(Date.parse(text) - now.getTime());
          const v: Truth = (past ? at < 0 : at > 0) ? TRUE : FALSE;
          if (exempting ? v < result : v > result) result = v;
        }
        return result;
      };
    }
    case "differ": {
      const { head, negate } = c;
      return (a) => {
        const fields = a.fields.filter((f) => hasConcept(f.concepts, head) && (typeof f.value === "string" || typeof f.value === "number"));
        if (fields.length < 2) {
          a.unknowns.add(`${head} of both`);
          return UNKNOWN;
        }
        const distinct = new Set(fields.map((f) => norm(String(f.value))));
        const t: Truth = distinct.size > 1 ? TRUE : FALSE;
        return negate ? ((2 - t) as Truth) : t;
      };
    }
    case "outside_domain": {
      const domains = c.domains.map((d) => d.toLowerCase());
      const wantInside = c.inside === true;
      const inside = (address: string) => {
        const host = address.slice(address.lastIndexOf("@") + 1).toLowerCase();
        return domains.some((d) => host === d || host.endsWith(`.${d}`));
      };
      const { subject } = c;
      const holdsAddress = (x: string) => inside(x) === wantInside;
      return (a) => {
        const candidates = subject.words.length > 0 ? bySubject(a, subject, () => true) : a.fields;
        const addresses: string[] = [];
        for (const f of candidates.length > 0 ? candidates : a.fields) {
          if (typeof f.value === "string") addresses.push(...addressesIn(f.value));
          else if (Array.isArray(f.value)) for (const v of f.value) if (typeof v === "string") addresses.push(...addressesIn(v));
        }
        if (addresses.length === 0) {
          a.unknowns.add("recipient");
          return UNKNOWN;
        }
        return (exempting ? addresses.every(holdsAddress) : addresses.some(holdsAddress)) ? TRUE : FALSE;
      };
    }
    case "weekday": {
      const days = new Set(c.days);
      return onClock(c.subject, c.tz, (at) => days.has(at.day), false, !selector.any, selectorVerbs(selector));
    }
    case "dates": {
      const { from, to } = c;
      return onClock(c.subject, c.tz, (at) => (from <= to ? at.monthDay >= from && at.monthDay <= to : at.monthDay >= from || at.monthDay <= to), false, !selector.any, selectorVerbs(selector));
    }
    case "time": {
      const { from, to } = c;
      const starts = c.after ? (m: number) => m > from : (m: number) => m >= from;
      return onClock(c.subject, c.tz, (at) => (from <= to ? starts(at.minutes) && at.minutes < to : starts(at.minutes) || at.minutes < to), true, !selector.any, selectorVerbs(selector));
    }
    case "rate": {
      const { op, count, window_seconds, per } = c;
      const match = selector.any ? undefined : matchesTerms(selector.terms);
      const counts = (tool: string) => match === undefined || match(prepareAction({ tool, args: {}, now: new Date(0) }));
      // ("2 payouts over $5,000 a day": an earlier action counts when it met the bound too; one whose
      // recorded arguments cannot say is counted, the stricter count.)
      const where = c.where ? compileCondition(c.where, selector) : undefined;
      const met = (h: { tool: string; at: Date; args?: Readonly<Record<string, unknown>> }) => !where || where(prepareAction({ tool: h.tool, args: { ...(h.args ?? {}) }, now: h.at })) !== FALSE;
      return (a) => {
        const history = a.input.history;
        if (!history) {
          a.unknowns.add("recent actions");
          return UNKNOWN;
        }
        // Counted per party: only earlier actions for the same one as this ("of the same user"). An
        // action that does not say which party it is for is counted against all of them (the stricter count).
        const party = per ? partyOf(a, per) : undefined;
        const since = a.input.now.getTime() - window_seconds * 1000;
        let n = 1; // this action
        for (const h of history) if (h.at.getTime() > since && h.at.getTime() <= a.input.now.getTime() && counts(h.tool) && (!party || sameParty(h.args, party, per!)) && met(h)) n++;
        return (op === "gt" ? n > count : n >= count) ? TRUE : FALSE;
      };
    }
    case "action": {
      const match = matchesTerms(c.terms);
      return (a) => (match(a) ? TRUE : FALSE);
    }
  }
}

/** One clause of one policy version, ready to evaluate. */
export interface RuleRef {
  policyId: string;
  policyName: string;
  version: number;
  priority: number;
  /** Zero-based index of the clause within the policy version. */
  index: number;
  rule: CompiledRule;
}

interface LoadedRule {
  ref: RuleRef;
  order: number;
  applies: (a: PreparedAction) => boolean;
  /** Index of the rule's selector among the set's distinct selectors. */
  selector: number;
  condition: Check;
  restrictive: boolean;
}

const SEVERITY: Record<Effect, number> = { block: 3, require_approval: 2, allow: 1 };

export interface RuleOutcome {
  ref: RuleRef;
  /** TRUE or UNKNOWN (restrictive rules fire on UNKNOWN). */
  certain: boolean;
}

export interface Decision {
  decision: "approved" | "blocked" | "conditional";
  /** The rule that decided; absent when no rule applied. */
  fired?: RuleOutcome;
  /** Every rule that fired, in precedence order. */
  matched: RuleOutcome[];
  unknowns: string[];
}

/** The active rules of a workspace, in precedence order. */
export class RuleSet {
  private readonly rules: LoadedRule[] = [];
  private readonly selectors: number;
  // The rule index: which selectors an action's concepts can wake (`selectorKeys`), and those that must
  // always be asked. A selector nothing wakes is not asked at all, so one decision costs the rules that
  // could concern the action, not all of them.
  private readonly index = new Map<string, number[]>();
  private readonly alwaysAsked: number[] = [];
  readonly size: number;
  readonly hasRates: boolean;
  readonly maxWindowSeconds: number;

  constructor(refs: RuleRef[]) {
    // Precedence: higher priority first, then the stricter effect, then the order given.
    const sorted = [...refs].sort((x, y) => y.priority - x.priority || SEVERITY[y.rule.effect] - SEVERITY[x.rule.effect]);
    let maxWindow = 0;
    const selectorIds = new Map<string, number>();
    sorted.forEach((ref, order) => {
      const rule = ref.rule;
      const bound = boundWords(rule);
      const described = rule.actions.any ? undefined : describedByChoice(rule.actions.terms, rule.when);
      const named = rule.actions.any ? undefined : namedByChoice(rule.actions.terms);
      const terms = rule.actions.any ? () => true : matchesTerms(rule.actions.terms, bound);
      const selectorMatch = described || named ? (a: PreparedAction) => terms(a) || !!described?.match(a) || !!named?.match(a) : terms;
      const domain = rule.actions.domain?.toLowerCase() ?? null;
      const applies = (a: PreparedAction) => (domain === null || a.input.domain?.toLowerCase() === domain) && selectorMatch(a);
      const permissive = rule.effect === "allow";
      const when = rule.when ? compileCondition(rule.when, rule.actions, permissive) : () => TRUE as Truth;
      const unless = rule.unless ? compileCondition(rule.unless, rule.actions, !permissive) : () => FALSE as Truth;
      const condition: Check = (a) => {
        a.claimed.clear();
        const w = when(a);
        if (w === FALSE) return FALSE;
        const u = (2 - unless(a)) as Truth;
        return w < u ? w : u;
      };
      const key = selectorKey(rule.actions, bound) + (described ? described.key : "") + (named ? named.key : "");
      if (!selectorIds.has(key)) {
        const id = selectorIds.size;
        selectorIds.set(key, id);
        const keys = selectorKeys(rule.actions);
        if (keys === undefined) this.alwaysAsked.push(id);
        else for (const k of keys) this.index.set(k, [...(this.index.get(k) ?? []), id]);
      }
      this.rules.push({ ref, order, applies, selector: selectorIds.get(key)!, condition, restrictive: rule.effect !== "allow" });
      maxWindow = Math.max(maxWindow, windowOf(rule.when), windowOf(rule.unless));
    });
    this.selectors = selectorIds.size;
    this.size = refs.length;
    this.hasRates = maxWindow > 0;
    this.maxWindowSeconds = maxWindow;
  }

  // What the index says depends only on the tool's profile: it is asked once per tool.
  private readonly wakeByTool = new WeakMap<PreparedAction["profile"], Uint8Array>();

  /** Per selector: 0 when it may apply (ask it), 2 when the index rules it out. A fresh copy to mark. */
  private wake(action: PreparedAction): Uint8Array {
    let state = this.wakeByTool.get(action.profile);
    if (!state) {
      state = this.wakeOf(action);
      this.wakeByTool.set(action.profile, state);
    }
    const copy = state.slice();
    // A tool whose parameters are not declared shows them only in its arguments, which the matcher reads
    // (`refund_fraction` for "refunding"): those wake rules too, per call.
    if (!action.params) {
      for (const f of action.fields) {
        for (const c of f.concepts) {
          const ids = this.index.get(c);
          if (ids) for (const id of ids) copy[id] = 0;
        }
      }
      for (const c of doingKeys(action.fields.map((f) => f.path))) {
        const ids = this.index.get(c);
        if (ids) for (const id of ids) copy[id] = 0;
      }
    }
    // What the call says it is of (`product_type: insecticide`) names it as its tool's name does (see
    // compileTerm): those values wake rules too, per call (a schema's closed lists already do, per tool).
    for (const f of kindFields(action)) {
      for (const c of lexical(conceptSet(f.value as string))) {
        const ids = this.index.get(c);
        if (ids) for (const id of ids) copy[id] = 0;
      }
    }
    return copy;
  }

  private wakeOf(action: PreparedAction): Uint8Array {
    const state = new Uint8Array(this.selectors).fill(2);
    for (const id of this.alwaysAsked) state[id] = 0;
    for (const set of actionKeys(action)) {
      for (const c of set) {
        const ids = this.index.get(c);
        if (ids) for (const id of ids) state[id] = 0;
      }
    }
    return state;
  }

  decide(action: PreparedAction): Decision {
    const matched: RuleOutcome[] = [];
    // 0: not asked yet, 1: applies, 2: does not.
    const applies = this.wake(action);
    for (const r of this.rules) {
      if (applies[r.selector] === 0) applies[r.selector] = r.applies(action) ? 1 : 2;
      if (applies[r.selector] !== 1) continue;
      const v = r.condition(action);
      if (v === TRUE || (v === UNKNOWN && r.restrictive)) matched.push({ ref: r.ref, certain: v === TRUE });
    }
    const unknowns = [...action.unknowns];
    const fired = matched[0];
    if (!fired) return { decision: "approved", matched, unknowns };
    const effect = fired.ref.rule.effect;
    return { decision: effect === "block" ? "blocked" : effect === "require_approval" ? "conditional" : "approved", fired, matched, unknowns };
  }

  /** Which of these rules concern an action at all (their action part matches), for bindings. */
  covering(action: PreparedAction): RuleRef[] {
    const woken = this.wake(action);
    return this.rules.filter((r) => woken[r.selector] === 0 && r.applies(action)).map((r) => r.ref);
  }

  /** The rules the index lets `decide` ask about an action: a superset of `covering` (tested). */
  woken(action: PreparedAction): RuleRef[] {
    const woken = this.wake(action);
    return this.rules.filter((r) => woken[r.selector] === 0).map((r) => r.ref);
  }
}

/** The argument that says which party an action is for, by the rate's subject ("user" → `user_id`). */
function partyOf(a: PreparedAction, per: Subject): { path: string; value: string } | undefined {
  const f = bySubject(a, per, (x) => typeof x.value === "string" || typeof x.value === "number")[0];
  if (!f) return undefined;
  a.claimed.add(f.path);
  return { path: f.path, value: String(f.value) };
}

/** Whether an earlier action was for the same party: the same argument (or one named for the party) holds the same value. */
function sameParty(args: Readonly<Record<string, unknown>> | undefined, party: { path: string; value: string }, per: Subject): boolean {
  if (!args) return false;
  const at = args[party.path];
  if (at !== undefined) return sameValue(String(at), party.value);
  return Object.entries(args).some(([path, v]) => (typeof v === "string" || typeof v === "number") && per.words.some((w) => wordsOf(path).some((p) => sameConceptWord(p, w))) && sameValue(String(v), party.value));
}

function windowOf(c: Condition | null): number {
  if (!c) return 0;
  switch (c.kind) {
    case "and":
    case "or":
      return Math.max(0, ...c.of.map(windowOf));
    case "not":
      return windowOf(c.of);
    case "rate":
      return c.window_seconds;
    default:
      return 0;
  }
}
