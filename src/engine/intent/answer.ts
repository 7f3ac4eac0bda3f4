// Direct answers: from the workspace's memory, grounded in the items used (their ids go into the answer's
// metadata and the trace). When nothing in memory covers the question, the answer says so and the trace
// reports the gap; nothing is made up.
//
// Which item answers (docs/intent.md, "Answers from memory"): the question is read as the words it asks
// about, each weighed by how much it tells the workspace's items apart (idf, from the memory search) and by
// its part of speech (nouns, names and ids name what the question is about; verbs and adjectives say
// something about it; adverbs least). An item answers when it holds at least half of that weight: a
// relative threshold, so that "bike storage at the harbour office" is not answered by the one item that
// names the office. Words around the question ("Before you change anything:", "No need to act.") are context:
// they help choose between items that answer, never count against one. The noun a which/what question
// asks for ("which carrier…") is the answer's type, often not a word of the answer, so it counts only when
// an item holds it; so do plain numbers, which tell near-duplicates apart. A follow-up ("and for the night
// shift?") is read with the user's earlier question when it cannot be answered alone, and then the item
// must hold the follow-up's own words too.
import type { MemoryHit } from "../ports.ts";
import { conceptsOf, initialsOfRuns } from "../language/lemmas.ts";
import { isEnglishWord, tag, typoOf } from "../language/nlp.ts";
import { nearKindsOf, verbSynonyms } from "../language/wordnet.ts";
import { tokenize } from "../language/tokens.ts";
import { quantity } from "../language/units.ts";
import { stem, words } from "../text/stem.ts";
import { contentStems } from "./rank.ts";

export interface Answer {
  content: string;
  /** Memory items the answer is made of. */
  used: string[];
  /** How much of the question's weight the best item holds, 0..1. */
  coverage: number;
  known: boolean;
}

/** What the memory search reports besides its hits, and the conversation before the question. */
export interface MemoryContext {
  /** Misspelt words and the memory words they were read as. */
  corrected?: Record<string, string>;
  /** How many items memory holds, and how many hold each stem; absent, every word weighs the same. */
  frequencies?: { items: number; df: Record<string, number> };
  /** The user's earlier turns, oldest first: what a follow-up question is about. */
  earlier?: string[];
  /** The assistant's last turn: whom a pronoun of the question refers to ("and his code?"). */
  said?: string;
}

// An item holding this share of the question's weight answers it.
const MIN_COVERAGE = 0.5;
// Question words that say what kind of answer, not what about.
const QUESTION_WORDS = new Set(["what", "whats", "which", "who", "whos", "when", "where", "why", "how", "usual", "usually", "our", "we", "do", "does", "handle", "deal", "typically", "normally", "go", "goes", "out", "until", "time", "long", "much", "many", "often", "can", "be", "get", "need", "happen", "should", "must", "quick", "question", "know", "tell", "wonder", "anyone", "again", "nowadays", "currently", "remind"].map(stem));
// Greetings and fillers around a question ("hiya", "um"): they ask about nothing.
const MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
// Adverbs of habit: the question asks what is done as a rule.
const HABITUAL = new Set(["usually", "normally", "typically", "generally", "ordinarily", "customarily", "usual", "normal", "standard"]);
const FILLERS = new Set(["hi", "hiya", "hey", "hello", "yo", "um", "uh", "erm", "hmm", "ok", "okay", "pls", "please", "thanks", "cheers", "sorry"]);
// Different words for the same thing in a question and in memory.
const SAME_AS: Record<string, string> = { [stem("twice")]: stem("double"), [stem("owns")]: stem("owner"), [stem("own")]: stem("owner") };
// The words that open a question, direct or embedded ("I need to know who…").
// ("whats", "wheres": the contraction typed without its apostrophe.)
// Verbs that report a question someone else asks ("the driver is asking if…", "he wonders whether…",
// "can you check if…"): the question is the clause after their "if"/"whether", and who asks is its frame.
const REPORTING = new Set(["ask", "wonder", "know", "check", "enquire", "inquire", "query", "see"]);
const WH = new Set(["what", "which", "who", "whom", "whose", "when", "where", "why", "how", "whats", "wheres", "whos", "hows", "whens"]);
// Determiners whose noun names the kind of thing asked for ("which hotel", "what time").
const ASKS_FOR_KIND = new Set(["which", "what", "whose"]);
// Parts of speech that continue the noun phrase after such a determiner.
const NOUN_PHRASE = new Set(["NOUN", "PROPN", "ADJ", "NUM", "X"]);
// Words that point back at what was asked before rather than name anything ("the other one", "someone
// else"): no term of their own; "other" and its kind exclude the item that answered before.
const CONTRAST = new Set(["other", "another", "else"]);
const POINTERS = new Set([...CONTRAST, "one", "ones"]);
// Pronouns that refer to something named before them in the message.
const REFERRING = new Set(["it", "its", "they", "them", "their", "these", "those", "he", "him", "his", "she", "her"]);
// Words that ask what something implies.
const IMPLICATION = new Set(["mean", "means", "meaning", "affect", "affects", "affecting", "impact", "impacts", "implication", "implications", "consequence", "consequences", "entail", "entails"]);
// Words of a follow-up that point at what the question before it asked about.
const POINTING_BACK = new Set(["that", "this", "those", "these", "it", "they", "them", "then"]);
// Parts of speech of words that name things.
const NAMING = new Set(["NOUN", "PROPN", "X", "NUM"]);
// Parts of speech that say nothing about what is asked ("have", "they", "the", "and", "to").
const FUNCTION_WORDS = new Set(["AUX", "PRON", "DET", "CCONJ", "SCONJ", "PART", "INTJ", "PUNCT"]);

/** The words of a question worth looking up: no question words, fillers or stop words. */
export function questionWords(question: string): string[] {
  return words(question).filter((w) => w.length > 2 && !QUESTION_WORDS.has(stem(w)) && contentStems(w).length > 0);
}

/** A memory item's text as a reader sees it: its `text`, else its content as JSON. */
export function itemText(hit: MemoryHit): string {
  const content = hit.content as Record<string, unknown>;
  return typeof content.text === "string" ? content.text : JSON.stringify(content);
}

/**
 * - core: counts for an item that holds it and against one that does not;
 * - soft: counts only for an item that holds it (the kind of answer asked for, a plain number);
 * - context: never counts against; among items that answer, the one holding more of it is chosen.
 */
type Role = "core" | "soft" | "context";

interface Term {
  stem: string;
  /** Its base forms ("escalating" → escalate), which an item's words may share instead of the stem. */
  concepts: ReadonlySet<string>;
  weight: number;
  role: Role;
  /** The word as asked, for saying what is not known. */
  word: string;
  /**
   * A code or id ("LYN4", the 09 of "K-09", "Q3"): an item must hold it, as one about another warehouse or
   * robot answers nothing about this one. (A name no dictionary knows weighs the most but is not required:
   * memory may name the place by its code.)
   */
  specific?: boolean;
  /** For "how much", "how many", "how long": the kinds of value an answer holds (money, quantity…). */
  wants?: ReadonlySet<string>;
  /** Written in capitals ("ND", "SLA"): it may stand for words an item writes out ("night desk"). */
  acronym?: boolean;
  /** Names the kind of answer asked for ("what floor plan"): soft, but an item about the question's
   * record that holds none of these says nothing of what is asked. */
  asked?: boolean;
  /** A noun naming the record an id is ("study room" of "study room B-12"): part of the id. */
  record?: boolean;
  /** Marks a question of habit ("usually", "normally"): weight 0, never held; see `better`. */
  habitual?: boolean;
}

// The kinds of value (language/tokens.ts) that answer "how much", "how many" and "how long": an item with
// none of them does not answer such a question, whatever words it shares with it. ("When" is not among
// them: times are often written in words, "with the monthly payroll", "every Friday".)
const VALUE_ASKED: Record<string, ReadonlySet<string>> = {
  much: new Set(["money", "percent", "quantity"]),
  many: new Set(["number", "quantity", "money", "percent"]),
  long: new Set(["duration", "time_range"]),
};

/** BM25's idf: how much finding a word tells memory's items apart. */
function idf(items: number, df: number): number {
  return Math.log(1 + (items - df + 0.5) / (df + 0.5));
}

/**
 * A word's weight in this workspace (`name`: an acronym, weighed as a name). A word no item holds: a name or code no dictionary knows weighs the
 * most (the question is about something memory does not hold); a dictionary word weighs as a word one item
 * holds, as it may be another word for one of memory's ("limit" for "at most 15 items"), and at least a
 * third of what a name weighs (in a memory of one to three items, a word one item holds tells little).
 */
function workspaceWeight(stem: string, word: string, context: MemoryContext, name = false): number {
  const f = context.frequencies;
  if (!f) return 1;
  const df = f.df[stem] ?? 0;
  // (A word one slip from a dictionary word, "numbr", is that word mistyped: it weighs as one, not as a name.)
  if (df > 0 || name || (!isEnglishWord(word) && typoOf(word) === undefined)) return idf(f.items, df);
  return Math.max(idf(f.items, 1), idf(f.items, 0) / 3);
}

/** How much a word says about what is asked, by its part of speech (a code or id names a thing). */
function partWeight(pos: string, word: string): number {
  if (/\d/.test(word) || NAMING.has(pos)) return 1;
  if (pos === "VERB" || pos === "ADJ") return 0.5;
  return 0.25;
}

/**
 * Sentences, colon-separated parts and asides after a spaced dash ("can he park his van - it's a long
 * one"); an abbreviation ("Dr.", "St.") does not end a sentence.
 */
function segments(text: string): string[] {
  return text
    .split(/(?<=[.!?;:])\s+|\n+|\s+[-–—]\s+/)
    .reduce<string[]>((out, part) => {
      const last = out.at(-1);
      if (last !== undefined && /(?:^|\s)[A-Z][a-z]?\.$/.test(last)) out[out.length - 1] = `${last} ${part}`;
      else out.push(part);
      return out;
    }, [])
    .filter((s) => s.trim() !== "");
}

/**
 * The ids of a text ("K-09", "INV-30211", "Q3") as one word each ("r07"), by their digits: the digits of an
 * id are matched as the whole id, never as a number ("room B-12" is not "12 people").
 */
function idsOf(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  // (A unit letter after the digits is part of the id: "KR-4B", "B-7c".)
  for (const m of text.matchAll(/\b([A-Za-z]{1,8})[-_]?(\d+)([A-Za-z]?)\b/g)) {
    const digits = m[2]!;
    out.set(digits, [...(out.get(digits) ?? []), `${m[1]!.toLowerCase()}${digits}${m[3]!.toLowerCase()}`]);
  }
  return out;
}

/**
 * The terms of one message. In each sentence, the question starts at its first wh-word; a sentence with
 * none is a question when it ends with "?" (yes/no questions), otherwise context. When no sentence asks
 * about anything, the whole message is the question ("My laptop died. What do we do?").
 */
function readMessage(text: string, context: MemoryContext, asked = true): Term[] {
  const corrected = context.corrected ?? {};
  const fixed = text.replace(/[\p{L}']+/gu, (w) => (!isEnglishWord(w) && corrected[w.toLowerCase()]) || w);
  const ids = idsOf(fixed);
  // A question that refers back ("how much does it cost?") is about what the words before it name: then
  // they are part of the question, not a preamble ("About the boat hire: how much does it cost?").
  let refers = false;
  const read = (everything: boolean): Term[] => {
    const terms: Term[] = [];
    for (const segment of segments(fixed)) {
      const ws = words(segment);
      const acronyms = new Set([...segment.matchAll(/\b[A-Z]{2,5}s?\b/g)].map((m) => m[0].replace(/s$/, "").toLowerCase()));
      const tags = tag(ws);
      // The nouns right before an id name the record it is ("study room B-12").
      const recordWords = new Set<number>();
      ws.forEach((w, i) => {
        if (!/^\d+$/.test(w) || !ids.has(w)) return;
        let k = i - 1;
        if (k >= 0 && ids.get(w)!.some((id) => id.startsWith(ws[k]!))) k--; // the id's own letters
        for (; k >= 0 && NOUN_PHRASE.has(tags[k]!.pos); k--) recordWords.add(k);
      });
      const wh = ws.findIndex((w) => WH.has(w));
      // A reported question starts after its "if"/"whether"; the words before it never count, even when
      // the question refers back to them.
      // ("asking how much water there is": a wh-word right after a verb of asking reports a question too.)
      const reported = ws.findIndex((w, i) => (w === "if" || w === "whether" || WH.has(w)) && i > 0 && REPORTING.has(tags[i - 1]!.lemma));
      const frame = reported >= 0 && (wh < 0 || reported <= wh) ? reported + 1 : 0;
      const start = frame > 0 ? frame : wh >= 0 ? wh : segment.trim().endsWith("?") ? 0 : ws.length;
      // (A reported question's pronouns are its asker's: "asking if he can park his van". "This" alone, a
      // pronoun, refers back too: "what did we offer last time this happened?")
      if (frame === 0 && ws.slice(start).some((w, i) => REFERRING.has(w) || (w === "this" && tags[start + i]!.pos === "PRON"))) refers = true;
      // The noun phrase right after "which"/"what" names the kind of answer.
      const kind = new Set<number>();
      if (wh >= 0 && ASKS_FOR_KIND.has(ws[wh]!)) for (let i = wh + 1; i < ws.length && NOUN_PHRASE.has(tags[i]!.pos); i++) kind.add(i);
      // "what's the ND extension": after an article, only the phrase's head names the kind of answer; the
      // words before it say which one ("ND").
      else if (wh >= 0 && (ASKS_FOR_KIND.has(ws[wh]!) || ws[wh] === "whats")) {
        let i = wh + 1;
        while (i < ws.length && (ws[i] === "s" || ws[i] === "is" || tags[i]!.pos === "DET" || tags[i]!.pos === "AUX")) i++;
        let head = -1;
        for (; i < ws.length && (NOUN_PHRASE.has(tags[i]!.pos) || acronyms.has(ws[i]!)); i++) head = i;
        if (head >= 0 && tags[head]!.pos === "NOUN" && head > wh + 2) kind.add(head);
      }
      // Read together with the question that refers back to it, a sentence before the question says what
      // it is about, but an id there is the one case told of, not what is asked ("Visitor on G-04 has
      // overstayed. How have we handled overstayers before?").
      const preamble = everything && start === ws.length && !segment.trim().endsWith("?");
      ws.forEach((w, i) => {
        const role: Role = !asked || i < frame || (!everything && i < start) ? "context" : kind.has(i) || (preamble && (/\d/.test(w) || ids.get(ws[i + 1] ?? "")?.some((id) => id.startsWith(w)))) ? "soft" : "core";
        const wants = i > 0 && ws[i - 1] === "how" ? VALUE_ASKED[w] : undefined;
        if (wants) terms.push({ stem: `#how ${w}`, concepts: new Set(), weight: 0, role, word: w, wants });
        if (/^\d+$/.test(w)) {
          for (const id of ids.get(w) ?? []) terms.push({ stem: id, concepts: new Set(), weight: workspaceWeight(id, id, context), role, word: id, specific: true });
          if (!ids.has(w)) terms.push({ stem: w, concepts: new Set([w]), weight: workspaceWeight(w, w, context), role: role === "core" ? "soft" : role, word: w });
          return;
        }
        // (An acronym is a name whatever its tag: "OK" is no adjective.)
        if ((FUNCTION_WORDS.has(tags[i]!.pos) && !acronyms.has(w)) || POINTERS.has(w) || FILLERS.has(w)) return;
        // "these days", "right now": when the question is asked, not what about.
        if ((w === "days" && ["these", "those"].includes(ws[i - 1] ?? "")) || (w === "now" && ws[i - 1] === "right")) return;
        if (HABITUAL.has(w) && role !== "context") terms.push({ stem: "#habit", concepts: new Set(), weight: 0, role: "context", word: w, habitual: true });
        for (const s of contentStems(w)) {
          if (QUESTION_WORDS.has(s)) continue;
          const key = SAME_AS[s] ?? s;
          // A measure ("40kg", "3m") is a value compared with the item's, not an id the item must name.
          const measure = /^(\d+(?:\.\d+)?)([a-z]+)$/.exec(w);
          const isMeasure = measure !== null && quantity(Number(measure[1]), measure[2]!) !== undefined;
          const specific = /\d/.test(w) && !isMeasure;
          const isAcronym = acronyms.has(w.replace(/s$/, ""));
          // (A measure, like a plain number, counts only for an item that holds it.)
          const termRole: Role = isMeasure && role === "core" ? "soft" : role;
          terms.push({ stem: key, concepts: withSynonyms(w, tags[i]!), weight: isAcronym ? workspaceWeight(s, w, context, true) : workspaceWeight(s, w, context) * partWeight(tags[i]!.pos, w), role: termRole, word: w, specific, ...(isAcronym ? { acronym: true } : {}), ...(kind.has(i) && termRole === "soft" ? { asked: true } : {}), ...(recordWords.has(i) ? { record: true } : {}) });
        }
      });
    }
    return terms;
  };
  const terms = read(false);
  return !asked || (!refers && terms.some((t) => t.role !== "context")) ? terms : read(true);
}

// Verbs too light to carry a synonym of their own ("get" is also "become", "run" also "escape").
const LIGHT_VERBS = new Set(["be", "do", "get", "go", "have", "make", "take", "run", "give", "put", "set", "keep", "let", "come", "see", "say"]);

/** A question word's base forms and, for a verb or a participle, its synonyms ("shut" → close). */
function withSynonyms(word: string, tagged: { pos: string; lemma: string }): ReadonlySet<string> {
  const forms = baseForms(word);
  if (!(tagged.pos === "VERB" || (tagged.pos === "ADJ" && /(?:ed|en|t)$/.test(word))) || LIGHT_VERBS.has(tagged.lemma)) return forms;
  const lemma = tagged.pos === "VERB" ? tagged.lemma : word;
  return new Set([...forms, ...verbSynonyms(lemma)]);
}

/** A word's base forms (the language layer's lemma and morphology), without verb classes: memory is read
 * for what it says, not for which operation it names. */
function baseForms(word: string): ReadonlySet<string> {
  return new Set([...conceptsOf(word)].filter((c) => !c.startsWith(":")));
}

interface Held {
  stems: Set<string>;
  concepts: Set<string>;
  /** The kinds of value it holds (money, quantity, time…). */
  values: Set<string>;
}

// What items hold, by id: an item is read once, not on every question it is a hit for. The entry is used
// only while the item's text and tags are the ones it was read from.
const HELD_CACHE = new Map<string, { text: string; tags: string; held: Held }>();
const HELD_CACHE_LIMIT = 5_000;

/** What an item holds: its text's and its tags' stems and base forms, and "email" when it holds an address. */
function heldBy(hit: MemoryHit): Held {
  const key = `${hit.workspaceId}/${hit.id}`;
  const text = itemText(hit);
  const tags = (hit.tags ?? []).join("\u0000");
  const cached = HELD_CACHE.get(key);
  if (cached && cached.text === text && cached.tags === tags) return cached.held;
  const held = readItem(hit);
  if (HELD_CACHE.size >= HELD_CACHE_LIMIT) HELD_CACHE.clear();
  HELD_CACHE.set(key, { text, tags, held });
  return held;
}

function readItem(hit: MemoryHit): Held {
  const text = itemText(hit);
  const all = [...words(text), ...(hit.tags ?? []).flatMap((t) => words(t))];
  const values = valueKinds(text);
  if (values.has("email")) all.push("email");
  for (const ids of idsOf(text).values()) all.push(...ids);
  // "2026-09-12: the charger failed": a date holds its month's name ("back in September").
  for (const m of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) {
    const month = MONTH_NAMES[Number(m[2]) - 1];
    if (month) all.push(month, m[1]!);
  }
  const concepts = new Set<string>();
  for (const w of all) if (/[a-z]/.test(w)) for (const c of baseForms(w)) concepts.add(c);
  const stems = new Set(all.map(stem));
  // The near kinds of each noun ("passengers" → traveller, person), so that a question in general words
  // ("what do we offer people …") is held by an item that names the particular ones.
  const plain = all.filter((w) => /^[a-z]{3,}$/.test(w));
  for (const t of tag(plain)) if (t.pos === "NOUN") for (const k of nearKindsOf(t.lemma)) stems.add(`#kind:${k}`);
  // The initials of every run of two to five words ("night desk" → nd), for a question's acronym.
  for (const run of initialsOfRuns(words(text))) stems.add(`#ini:${run.initials}`);
  return { stems, concepts, values };
}

const isTimeUnit = (word: string): boolean => quantity(1, word)?.kind === "time";

/**
 * The kinds of value a text holds, and "duration" for a length of time: a quantity of time ("45 minutes")
 * or a number a time unit follows closely ("5 business days"). The digits after a hyphen are an id's
 * ("DK-2") or part of a date, not a number of something.
 */
function valueKinds(text: string): Set<string> {
  const tokens = tokenize(text);
  const kinds = new Set<string>();
  tokens.forEach((t, i) => {
    if (t.kind === "number" && t.text.startsWith("-")) return;
    kinds.add(t.kind);
    const next = tokens.slice(i + 1, i + 3).filter((n) => n.kind === "word");
    if ((t.kind === "quantity" && t.quantity.kind === "time") || (t.kind === "number" && next.some((n) => n.kind === "word" && isTimeUnit(n.norm)))) kinds.add("duration");
  });
  return kinds;
}

// ("people" is the plural of "person", which its own lemma does not say.)
const kindWord = (word: string) => (word === "people" ? "person" : word.replace(/(?<=[^s])s$/, ""));

function holds(item: Held, term: Term): boolean {
  if (term.wants) return [...term.wants].some((kind) => item.values.has(kind));
  if (item.stems.has(term.stem)) return true;
  // (Not the kind of answer a "which" asks for: "which units" is answered by an item that names units.)
  if (!term.specific && !term.asked && item.stems.has(`#kind:${kindWord(term.word)}`)) return true;
  if (term.acronym && item.stems.has(`#ini:${term.word.replace(/s$/, "")}`)) return true;
  for (const c of term.concepts) if (item.concepts.has(c)) return true;
  return false;
}

interface Judged {
  hit: MemoryHit;
  /** It holds every name and id asked about, and a value of the kind asked for ("how much" → an amount). */
  fits: boolean;
  coverage: number;
  /** Weight of the question's terms the item holds, then of the context's: to choose among items that answer. */
  held: number;
  context: number;
  /** 1 for an item that says what is done (not an episode) when the question asks what is usually done. */
  habit: number;
}

/** How much of the terms' weight an item holds; a term asked twice counts once, in its strongest role. */
function judge(hit: MemoryHit, item: Held, terms: Term[]): Judged {
  const strongest = new Map<string, Term>();
  const rank = { core: 2, soft: 1, context: 0 };
  for (const t of terms) {
    const seen = strongest.get(t.stem);
    if (!seen || rank[t.role] > rank[seen.role] || (t.role === seen.role && t.weight > seen.weight)) strongest.set(t.stem, t);
  }
  let held = 0;
  let wanted = 0;
  let context = 0;
  let fits = true;
  // "What floor plan does unit KR-4B have?": an item that holds the record and none of the kind of
  // answer asked for is about the record, not an answer to the question.
  let askedHeld = false;
  let askedAny = false;
  let heldOnlyIds = true;
  // (The letters of an id, "kr" of KR-4B, are the id.)
  const idStems = [...strongest.values()].filter((t) => t.specific).map((t) => t.stem);
  const ofId = (t: Term) => idStems.some((id) => id.startsWith(t.stem) && /^\d/.test(id.slice(t.stem.length)));
  for (const t of strongest.values()) {
    const has = holds(item, t);
    if (t.asked) {
      askedAny = true;
      askedHeld ||= has;
    } else if (has && t.role === "core" && !t.specific && !t.wants && !t.record && !ofId(t)) heldOnlyIds = false;
    if (t.role === "core" && (t.specific || t.wants) && !has) fits = false;
    if (t.role === "context") context += has ? t.weight : 0;
    else if (has) {
      held += t.weight;
      wanted += t.weight;
    } else if (t.role === "core") wanted += t.weight;
  }
  if (askedAny && !askedHeld && heldOnlyIds && [...strongest.values()].some((t) => t.specific && t.role === "core")) fits = false;
  const habit = terms.some((t) => t.habitual) && hit.type !== "episode" ? 1 : 0;
  return { hit, fits, coverage: wanted === 0 ? 0 : held / wanted, held, context, habit };
}

function better(a: Judged, b: Judged | undefined): boolean {
  if (!b) return true;
  if (a.fits !== b.fits) return a.fits;
  if (Math.abs(a.coverage - b.coverage) > 1e-9) return a.coverage > b.coverage;
  if (Math.abs(a.held - b.held) > 1e-9) return a.held > b.held;
  // ("What do we usually offer when …": a question of habit is answered by what is done, not by one time it was.)
  if (a.habit !== b.habit) return a.habit > b.habit;
  // Then the search's own order (its relevance ranking).
  return a.context > b.context + 1e-9;
}

function best(items: { hit: MemoryHit; held: Held }[], terms: Term[]): Judged | undefined {
  let top: Judged | undefined;
  for (const { hit, held } of items) {
    const judged = judge(hit, held, terms);
    if (better(judged, top)) top = judged;
  }
  return top;
}

/**
 * The names and ids of the assistant's last turn that a pronoun of the question refers to ("Maps go to
 * Joaquim Reinders." → "and his email?" is about Joaquim Reinders): words written with a capital
 * inside a sentence, and codes. None when the question has no such pronoun.
 */
export function referredNames(question: string, said: string | undefined): string[] {
  if (!said || !words(question).some((w) => REFERRING.has(w))) return [];
  const names: string[] = [];
  for (const sentence of segments(said)) {
    const written = [...sentence.matchAll(/[\p{L}][\p{L}'-]*|[A-Za-z]{1,8}[-_]?\d+/gu)].map((m) => m[0]);
    written.forEach((w, i) => {
      if ((i > 0 && /^\p{Lu}\p{Ll}+$/u.test(w)) || /\d/.test(w)) names.push(w);
    });
  }
  return names;
}

/** Picks the item that answers a question, or says nothing is known. */
export function answerFromMemory(question: string, hits: MemoryHit[], context: MemoryContext = {}): Answer {
  let items = hits.map((hit) => ({ hit, held: heldBy(hit) }));
  // Whom the question's pronoun refers to: an item that names them answers it better ("soft": it counts
  // for an item holding the name, never against one).
  const referred = referredNames(question, context.said);
  const terms = [...readMessage(question, context), ...referred.flatMap((name) => readMessage(name, context).map((t) => ({ ...t, role: "soft" as const, specific: false })))];
  let earlier = (context.earlier ?? []).slice(-2).flatMap((turn, i, all) => readMessage(turn, context, i === all.length - 1));
  const answers = (j: Judged | undefined): boolean => j !== undefined && j.fits && j.coverage >= MIN_COVERAGE;
  // "And the other one?": the item that answered the question before is the one this one is not about,
  // and the ids and codes that question named are not this one's.
  if (words(question).some((w) => CONTRAST.has(w)) && earlier.some((t) => t.role !== "context")) {
    const before = best(items, earlier);
    if (before && answers(before)) items = items.filter((i) => i.hit.id !== before.hit.id);
    earlier = earlier.map((t) => (t.specific ? { ...t, role: "context" as const } : t));
  }
  let chosen = best(items, [...terms, ...earlier.map((t) => ({ ...t, role: "context" as const }))]);
  // A follow-up ("and at the weekend?") is about what the previous question was about: read together, and
  // the item must still hold a fair share of what the follow-up adds (when it adds any word of its own).
  if (!answers(chosen) && earlier.some((t) => t.role !== "context")) {
    const together = best(items, [...terms, ...earlier]);
    const adds = terms.some((t) => t.role !== "context");
    if (together && answers(together) && (!adds || judge(together.hit, heldBy(together.hit), terms).coverage >= MIN_COVERAGE / 2)) chosen = together;
  }
  // "ok, and what does this mean to families?", "how does that affect visitors?": a follow-up that
  // asks what the answer before it implies, pointing back at it ("that", "those weeks"), and that no item
  // answers on its own words is about the item that answered the question before it. (A follow-up that asks
  // something else of it, "is there a waiting list for them?", still needs its own words held.)
  const asks = question.toLowerCase().match(/[a-z]+/g) ?? [];
  if (!answers(chosen) && asks.some((w) => POINTING_BACK.has(w)) && asks.some((w) => IMPLICATION.has(w)) && earlier.some((t) => t.role !== "context")) {
    const before = best(items, earlier);
    if (before && answers(before)) chosen = before;
  }
  // "A guest at the desk asking what she can claim. What do we give people when we close for snow?", a
  // forwarded question and the user's own: a message of several sentences is answered when one of its
  // questions is, the rest then its context (the best answered one wins).
  if (!answers(chosen)) {
    const all = segments(question);
    const asking = all.filter((s) => /\?\s*$/.test(s) || WH.has(words(s)[0] ?? ""));
    if (asking.length > 0 && all.length > 1) {
      for (const one of asking) {
        const rest = question.replace(one, " ");
        const judged = best(items, [...readMessage(one, context), ...readMessage(rest, context, false).map((t) => ({ ...t, role: "context" as const }))]);
        // (A question that refers back to a topic named without a verb, "About the maker space: how much does
        // it cost?", is about that topic: the item must hold some of it too. After a story, "A reader rang,
        // lost a card. What must they pay to replace it?", the pronouns are its people and things.)
        const topic = !tag(words(rest)).some((t) => t.pos === "VERB");
        const refersBack = topic && words(one).some((w) => REFERRING.has(w));
        if (answers(judged) && (!refersBack || judged!.context > 0) && (!answers(chosen) || judged!.coverage > chosen!.coverage)) chosen = judged;
      }
    }
  }
  if (chosen && answers(chosen)) {
    return { content: itemText(chosen.hit), used: [chosen.hit.id], coverage: chosen.coverage, known: true };
  }
  const asked = [...new Set(terms.filter((t) => t.role === "core" && !t.wants).map((t) => t.word))];
  const topic = asked.length > 0 ? asked.slice(0, 6).join(" ") : "that";
  return {
    content: `I don't know: nothing in this workspace's memory answers a question about ${topic}. Add what the answer should be as a memory item (POST /api/v1/svc/memory) and ask again.`,
    used: [],
    coverage: chosen?.coverage ?? 0,
    known: false,
  };
}

const GREETING = /^(hi|hello|hey|good (morning|afternoon|evening))\b/i;

export function smallTalk(text: string): string {
  if (GREETING.test(text.trim())) return "Hello! Ask me a question or tell me what to do, and I'll check what this workspace can do and what its policies allow.";
  return "You're welcome! Let me know if there is anything else to do.";
}
