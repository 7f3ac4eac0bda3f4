// Words as concepts: a word's lemma (wink-nlp), its inflected and derived base forms ("payouts" → payout,
// "publishing" → publish, "deletion" → delete, "payment" → pay), and the verb class it belongs to
// (send/share/post, access/open/read, pay/charge, remove/delete…). Two words mean the same operation when
// their concept sets meet. Classes group verbs people use for one operation; they never merge distinct
// operations (create and delete, enable and disable, read and write stay apart), and every class has
// paraphrase tests (src/engine/language/language.test.ts).
import { tag } from "./nlp.ts";
import { verbsOfDoing } from "./wordnet.ts";

// One line per operation. The first word names the class. A word may appear in one class only. Phrasal
// verbs are written joined ("calloff", "pullup"): readers join a verb and its particle before asking.
export const VERB_CLASSES: readonly (readonly string[])[] = [
  ["delete", "remove", "erase", "destroy", "purge", "wipe", "drop", "truncate", "deletion", "removal", "rid"],
  ["send", "share", "post", "forward", "transmit", "email", "e-mail", "message", "mail", "dm", "notify", "publish", "broadcast", "text", "sms"],
  ["read", "access", "open", "view", "get", "fetch", "retrieve", "query", "look", "see", "inspect", "list", "search", "browse", "lookup", "pullup", "bringup", "find", "show", "display", "check"],
  ["write", "insert", "append", "upsert", "store", "save", "persist", "load", "import", "ingest"],
  ["pay", "charge", "bill", "payout", "disburse", "remit"],
  ["refund", "reimburse", "repay", "chargeback"],
  ["transfer", "wire", "move_money"],
  ["create", "add", "make", "new", "register", "generate", "provision", "spawn", "onboard", "hire", "signup"],
  ["update", "change", "modify", "edit", "alter", "set", "adjust", "amend", "patch", "reconfigure", "tweak", "mark"],
  ["move", "motion", "movement", "drive", "navigate", "travel", "go", "enter", "fly", "dispatch", "route", "steer"],
  ["run", "execute", "invoke", "launch", "trigger", "perform"],
  ["deploy", "release", "ship", "rollout", "promote"],
  ["cancel", "terminate", "revoke", "void", "annul", "rescind", "abort", "calloff", "cutoff"],
  ["book", "reserve", "schedule", "plan"],
  ["reschedule", "postpone", "defer", "shift", "rebook", "rearrange"],
  ["export", "download", "extract", "dump", "backup"],
  ["restart", "reboot", "reset", "recycle", "bounce"],
  ["stop", "halt", "shutdown", "kill", "pause"],
  ["disable", "deactivate", "suspend", "lock", "freeze", "block_account", "switchoff", "turnoff"],
  ["enable", "activate", "unlock", "unfreeze", "reactivate", "restore", "switchon", "turnon"],
  ["approve", "accept", "authorize", "authorise", "sign"],
  ["reject", "decline", "deny", "refuse"],
  ["close", "resolve", "archive", "finish", "complete", "end"],
  ["scale", "resize", "autoscale"],
  ["merge", "integrate", "combine"],
  ["rotate", "renew", "regenerate", "cycle"],
  ["increase", "raise", "grow", "extend", "bump", "up"],
  ["decrease", "reduce", "lower", "cut", "shrink"],
  ["assign", "allocate", "delegate", "reassign", "roster", "rota"],
  ["request", "ask"],
  ["offboard", "fire", "dismiss", "layoff", "terminate_employee"],
  ["replace", "swap", "exchange", "substitute", "swapout", "changeout"],
];

// Nouns that name one thing, one line each, the first word naming it: "parcels" and `ship_package`,
// "suppliers" and `pay_vendor`. Only true synonyms (a thing and its everyday names), never a kind and its
// sort; every line has paraphrase tests (src/engine/language/language.test.ts).
export const NOUN_SYNONYMS: readonly (readonly string[])[] = [
  ["package", "parcel"],
  ["vendor", "supplier"],
  ["file", "document", "doc"],
  ["vehicle", "ev"],
  ["customer", "client"],
  ["sms", "text"],
  ["disconnection", "shutoff", "shut-off"],
  // When a thing begins and ends: "sessions that finish after 22:00" and `end_time`.
  ["end", "finish"],
  ["start", "begin"],
];

// Channels a message goes by: a verb naming one ("text", "email") is not a tool of another channel
// (`send_email` for "text customers"), though both are of the send class.
const CHANNELS = new Set(["email", "mail", "sms", "fax", "dm"]);

/** The channel a word names ("texting" → sms, "e-mails" → email), if any. */
export function channelOf(word: string): string | undefined {
  for (const c of conceptsOf(word)) if (CHANNELS.has(c)) return c === "mail" ? "email" : c;
  return undefined;
}

// People a message goes to: after a verb of sending, the recipient, which a tool's name does not carry
// ("texting customers" and `send_sms`).
const PEOPLE = new Set([
  "customer", "client", "user", "people", "person", "recipient", "contact", "subscriber", "member", "patient", "employee", "staff", "colleague", "someone", "anyone", "everyone", "lead", "prospect", "guest", "student", "parent",
  "child", "children", "kid", "minor", "teen", "teenager", "adult", "senior", "infant", "youth", "pupil", "applicant", "player", "driver", "tenant", "resident", "passenger", "traveller", "traveler", "candidate", "worker", "volunteer",
  "crew", "cast", "attendee", "participant", "visitor", "delegate", "spectator", "pax", "headcount",
]);

/** Whether a noun names people (in the singular or plural). */
export function namesPeople(word: string): boolean {
  for (const c of conceptsOf(word)) if (PEOPLE.has(c)) return true;
  return false;
}

// Operations that send a physical thing on its way: "send parcels" and `ship_package`.
const DISPATCH_VERBS = new Set(["ship", "dispatch", "deliver", "courier", "post", "mail"]);

/** Whether a word is an operation of sending a thing on its way ("ship", "dispatch"…). */
export function isDispatchVerb(word: string): boolean {
  return DISPATCH_VERBS.has(word.toLowerCase());
}

// Verbs that carry little meaning of their own and take it from their object ("issue a refund", "give a
// discount", "raise a purchase order", "file a claim"): with a tool that makes or applies what the object
// names (`create_purchase_order`, `apply_discount`), they name its operation.
export const SUPPORT_VERBS: ReadonlySet<string> = new Set(["issue", "make", "give", "hand", "dole", "submit", "raise", "place", "process", "file", "lodge", "initiate", "apply", "grant", "do", "perform", "handle", "conduct", "carry", "put", "open", "run", "start", "trigger", "execute", "create", "generate"]);

// What a verb of a class acts on when the sentence names it only in general: "wire money", "pay funds",
// "deploy code". Such an object adds nothing to the verb, so a tool need not name it.
const IMPLIED_OBJECTS: Record<string, readonly string[]> = {
  pay: ["money", "fund", "funds", "cash"],
  transfer: ["money", "fund", "funds", "cash"],
  refund: ["money", "fund", "funds", "cash"],
  deploy: ["code", "software", "build", "change", "changes"],
  send: ["message", "messages", "outbound", "outgoing"],
};

/** Whether `object` is what a verb of class `verbClass` acts on anyway ("money" for wire, "code" for deploy). */
export function impliedObject(verbClass: string, object: string): boolean {
  return IMPLIED_OBJECTS[verbClass]?.includes(object) ?? false;
}

/** Whether a word is a support verb ("issue", "give", "raise" …), in any inflection. */
export function isSupportVerb(word: string): boolean {
  for (const c of conceptsOf(word)) if (!c.startsWith(":") && SUPPORT_VERBS.has(c)) return true;
  return false;
}

const SYNONYM_OF = new Map<string, string>();
for (const line of NOUN_SYNONYMS) for (const w of line) SYNONYM_OF.set(w, line[0]!);

// Particles of phrasal words ("start-ups", "roll-out"): not words of an operation on their own.
const PARTICLES = new Set(["up", "ups", "down", "downs", "off", "offs", "out", "outs", "in", "ins", "on", "ons", "over", "overs", "back", "backs"]);

const CLASS_OF = new Map<string, string>();
for (const line of VERB_CLASSES) for (const w of line) CLASS_OF.set(w, line[0]!);

const VOWEL = /[aeiou]/;

/** Inflectional and derivational base forms by English morphology: candidates, checked by overlap. */
function morphology(w: string): string[] {
  const out: string[] = [];
  const add = (x: string) => {
    if (x.length >= 3 && VOWEL.test(x)) out.push(x);
  };
  // A noun of action in -y: "delivery" → deliver, "recovery" → recover.
  if (/[^aeiou]ery$/.test(w) && w.length > 6) add(w.slice(0, -1));
  if (w.endsWith("ies") && w.length > 4) add(`${w.slice(0, -3)}y`);
  if (w.endsWith("es") && w.length > 3) add(w.slice(0, -2));
  if (w.endsWith("s") && !w.endsWith("ss") && w.length > 3) add(w.slice(0, -1));
  for (const suffix of ["ing", "ed"]) {
    if (!w.endsWith(suffix) || w.length <= suffix.length + 2) continue;
    const stem = w.slice(0, -suffix.length);
    add(stem);
    add(`${stem}e`);
    if (stem.length > 2 && stem.at(-1) === stem.at(-2)) add(stem.slice(0, -1)); // "dropped" → drop
    if (stem.endsWith("i")) add(`${stem.slice(0, -1)}y`); // "applied" → apply
  }
  // Nouns of action: "deletion" → delete, "creation" → create, "cancellation" → cancel, "payment" → pay,
  // "approval" → approve, "adjustment" → adjust, "modification" → modify, "publication" → publish.
  const derived: [string, string[]][] = [
    ["ication", ["y"]],
    // Latin stems that change before -tion: "prescription" → prescribe, "consumption" → consume,
    // "reception" → receive, "exception" → except, "reduction" → reduce, "intervention" → intervene.
    ["scription", ["scribe"]],
    ["sumption", ["sume"]],
    ["ception", ["ceive", "cept"]],
    ["uction", ["uce", "uct"]],
    ["vention", ["vene", "vent"]],
    ["ation", ["e", "", "ate"]],
    ["ition", ["e", ""]],
    ["tion", ["te", "t", ""]],
    ["sion", ["de", "d", "se", "t"]],
    ["ion", ["e", ""]],
    ["ment", [""]],
    ["al", ["e", ""]],
    ["ance", ["e", ""]],
    ["ence", ["e", ""]],
    // The one an action is done to: "employee" → employ, "trainee" → train.
    ["ee", [""]],
    // "vacancy" → vacant, "urgency" → urgent.
    ["ancy", ["ant"]],
    ["ency", ["ent"]],
    ["ly", [""]],
    // "departure" → depart, "closure" → close, "seizure" → seize; "storage" → store, "breakage" → break.
    ["ure", ["", "e"]],
    ["age", ["", "e"]],
  ];
  for (const [suffix, endings] of derived) {
    // (A stem of two letters is enough before the long Latin endings: "assumption", "reception"; four
    // before -ure and -age, which end many words that are no doing: "nature", "image", "manage".)
    if (!w.endsWith(suffix) || w.length <= suffix.length + (suffix.length >= 6 ? 1 : suffix === "ure" || suffix === "age" ? 3 : 2)) continue;
    const stem = w.slice(0, -suffix.length);
    for (const e of endings) add(`${stem}${e}`);
    if (stem.endsWith("ll")) add(stem.slice(0, -1)); // "cancellation" → cancel
    if (suffix === "ation" && /[^aeiou]r$/.test(stem)) add(`${stem.slice(0, -1)}er`); // "registration" → register
    break;
  }
  // British and American spellings of one word: "enrol"/"enroll", "organise"/"organize".
  if (/[aeiou]ll$/.test(w) && w.length > 5) add(w.slice(0, -1));
  else if (/[aeiou]l$/.test(w) && !/[aeiou]{2}l$/.test(w) && w.length > 4) add(`${w}l`);
  if (/[^aeiou]is(?:e|ed|es|ing|ation)$/.test(w) && w.length > 5) add(w.replace(/is(e|ed|es|ing|ation)$/, "iz$1"));
  else if (/[^aeiou]iz(?:e|ed|es|ing|ation)$/.test(w) && w.length > 5) add(w.replace(/iz(e|ed|es|ing|ation)$/, "is$1"));
  const irregular = IRREGULAR_NOUNS_OF_ACTION[w];
  if (irregular) out.push(irregular);
  return out;
}

// Nouns of action whose verb their spelling does not give: "sales" are selling, "gifts" giving.
const IRREGULAR_NOUNS_OF_ACTION: Record<string, string> = { sale: "sell", loss: "lose", gift: "give", proof: "prove", choice: "choose", sold: "sell" };

const FORMS_CACHE = new Map<string, ReadonlySet<string>>();
const CACHE_LIMIT = 20_000;

/**
 * Every base form of a word: itself, wink's lemma in isolation, and its morphological candidates, plus
 * the verb class of any of them. "Publishing" → {publishing, publish, send}; "deletion" → {deletion,
 * delete}; "payouts" → {payouts, payout, pay}.
 */
export function conceptsOf(word: string): ReadonlySet<string> {
  const w = word.toLowerCase();
  const hit = FORMS_CACHE.get(w);
  if (hit) return hit;
  const forms = new Set<string>([w]);
  if (/^[a-z]+$/.test(w)) {
    const [tagged] = tag([w]);
    if (tagged && tagged.lemma) forms.add(tagged.lemma);
    for (const m of morphology(w)) forms.add(m);
    // One more step from each base: "payments" → payment → pay.
    for (const f of [...forms]) if (f !== w) for (const m of morphology(f)) forms.add(m);
  }
  // A noun of doing is its verb too, as WordNet derives it where no suffix rule can ("revocation" → revoke,
  // "issuance" → issue).
  for (const f of [...forms]) for (const v of verbsOfDoing(f)) forms.add(v);
  // A hyphenated word is its parts too ("start-ups" → start, up; "e-mail" → email).
  if (w.includes("-")) {
    const joined = w.replace(/-/g, "");
    forms.add(joined);
    for (const m of morphology(joined)) forms.add(m); // "roll-outs" → rollout
    for (const part of w.split("-")) if (part.length > 1 && !PARTICLES.has(part)) for (const c of conceptsOf(part)) if (!c.startsWith(":")) forms.add(c);
  }
  // A short plural the morphology leaves alone ("EVs" → ev).
  if (w.length <= 4 && w.endsWith("s") && SYNONYM_OF.has(w.slice(0, -1))) forms.add(w.slice(0, -1));
  for (const f of [...forms]) {
    const same = SYNONYM_OF.get(f);
    if (same) forms.add(same);
  }
  const concepts = new Set<string>(forms);
  for (const f of forms) {
    const c = CLASS_OF.get(f);
    if (c) concepts.add(`:${c}`);
  }
  if (FORMS_CACHE.size >= CACHE_LIMIT) FORMS_CACHE.clear();
  FORMS_CACHE.set(w, concepts);
  return concepts;
}

const OPERATION_CACHE = new Map<string, string[]>();

/**
 * The words of a tool's name that say its operation: the first word, and, when that names no operation of
 * any class (`bulk_create_users`, `user_delete`), the first later word that does and is a verb in the name
 * read as a phrase (in `draft_social_post`, "post" is the thing drafted, not an operation).
 */
export function operationWords(nameWords: readonly string[]): string[] {
  const first = nameWords[0];
  if (first === undefined) return [];
  if (verbClassOf(first) !== undefined || nameWords.length === 1) return [first];
  const key = nameWords.join(" ");
  let hit = OPERATION_CACHE.get(key);
  if (!hit) {
    const tags = tag(nameWords);
    const later = nameWords.findIndex((w, i) => i > 0 && tags[i]?.pos === "VERB" && verbClassOf(w) !== undefined);
    hit = later < 0 ? [first] : [first, nameWords[later]!];
    if (OPERATION_CACHE.size >= CACHE_LIMIT) OPERATION_CACHE.clear();
    OPERATION_CACHE.set(key, hit);
  }
  return hit;
}

// Operations one of whose kinds is another class's operation: importing, inserting, loading or saving
// records makes new ones, so a tool that creates them does what those verbs name (`bulk_create_users` for
// "importing users"); raising or lowering a setting is setting it (`set_oven_setpoint` for "raising an
// oven's setpoint"). Only this direction: creating is not always writing into something, and setting
// a value is not always raising it.
const MAKES_NEW: Record<string, string> = { write: "create", increase: "update", decrease: "update" };

/** The concepts of a verb with the classes it is a kind of ("import" → write and create). */
export function withBroaderClasses(concepts: ReadonlySet<string>): ReadonlySet<string> {
  const broader = [...concepts].filter((c) => c.startsWith(":") && MAKES_NEW[c.slice(1)] !== undefined).map((c) => `:${MAKES_NEW[c.slice(1)]}`);
  return broader.length === 0 ? concepts : new Set([...concepts, ...broader]);
}

/** The words of a verb class (by its head word), joined phrasal verbs and `_` entries left out. */
export function classMembers(head: string): readonly string[] {
  return (VERB_CLASSES.find((line) => line[0] === head) ?? []).filter((w) => !w.includes("_"));
}

/** The verb class a word belongs to (its head word), if any. */
export function verbClassOf(word: string): string | undefined {
  for (const c of conceptsOf(word)) if (c.startsWith(":")) return c.slice(1);
  return undefined;
}

const OPERATION_CLASS_CACHE = new Map<string, string | null>();

/**
 * The class of an operation named as a verb and its object (a tool name's words: terminate, employment):
 * a class member written verb_object ("terminate_employee") whose verb is this one and whose object shares
 * a base form with this object ("employee" and "employment" both reach employ).
 */
export function operationClassOf(verb: string, object: string): string | undefined {
  // Asked for every candidate tool of every request, and a scan of every class member: remembered per pair.
  const key = `${verb} ${object}`;
  const hit = OPERATION_CLASS_CACHE.get(key);
  if (hit !== undefined) return hit ?? undefined;
  const found = findOperationClass(verb, object);
  if (OPERATION_CLASS_CACHE.size >= CACHE_LIMIT) OPERATION_CLASS_CACHE.clear();
  OPERATION_CLASS_CACHE.set(key, found ?? null);
  return found;
}

function findOperationClass(verb: string, object: string): string | undefined {
  const objectForms = [...conceptsOf(object)].filter((c) => !c.startsWith(":"));
  for (const [member, head] of CLASS_OF) {
    const [v, o] = member.split("_");
    if (o === undefined || v !== verb) continue;
    if ([...conceptsOf(o)].some((c) => !c.startsWith(":") && objectForms.includes(c))) return head;
  }
  return undefined;
}

/** Whether two words share a concept (a base form or a verb class). */
export function sameConcept(a: string, b: string): boolean {
  if (a === b) return true;
  const x = conceptsOf(a);
  for (const c of conceptsOf(b)) if (x.has(c)) return true;
  return false;
}

/** Splits an identifier or phrase into lower-case words: `refundPayment`, `refund-payment`, "Refund payments". */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Every run of two to `longest` words with its initials ("purchase order" → po), for a written acronym. */
export function initialsOfRuns(words: readonly string[], longest = 5): { initials: string; words: string[] }[] {
  const out: { initials: string; words: string[] }[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let n = 2; n <= longest && i + n <= words.length; n++) {
      const run = words.slice(i, i + n);
      out.push({ initials: run.map((w) => w[0]).join(""), words: run });
    }
  }
  return out;
}

/**
 * A word of a closed list's value cut short from the word as written: "neg" of negative, "prem" of premium
 * (three letters or more, two or more letters left off). Shared by the rule evaluator and the argument
 * readers, so a value reads the same way in a rule and in a request.
 */
export function cutShort(part: string, written: string): boolean {
  return part.length >= 3 && /^[a-z]+$/.test(part) && written.length > part.length + 1 && written.startsWith(part);
}
