// Understand: what the last user turn does in the conversation, read as a whole. The turn is split into
// clauses and each clause is read by its grammar (wink-nlp's parts of speech and lemmas, through the
// language layer), not by lists of opening phrases:
//   - a clause whose first content word is a verb in its base form is a command ("cancel the order",
//     "do cancel the order", "do me a favour and close it"); one after "can/could/would you" is a request
//     phrased as a question; one after "I need / I'd like / we want (you) to" is a request too;
//   - a clause that opens with a wh-word or an auxiliary ("is it…", "do we…"), or a command to tell,
//     explain or remind, asks for knowledge;
//   - thanks, praise and greetings carry neither.
// The turn's kind follows from its clauses and from the conversation before it (a question the assistant
// left pending, an earlier request): request, question, small talk, acknowledgement, answer, correction or
// insistence. Insistence is governed again like any request; it is never a way around a decision.
import { VERB_CLASSES, conceptsOf, verbClassOf } from "../language/lemmas.ts";
import { isEnglishWord, tag } from "../language/nlp.ts";
import { withinOneEdit } from "./rank.ts";
import { forwardedBody } from "./arguments/values.ts";

export type TurnKind = "request" | "question" | "small_talk" | "acknowledgement" | "answer" | "correction" | "insistence";

/** What the engine does with a turn: plan an action, look up knowledge, or reply socially. */
export type Route = "request" | "question" | "small_talk";

/** Acknowledgements are answered like small talk (nothing is planned again); answers, corrections and
 * insistence continue the earlier request, which is planned and governed again with the new turn. */
export function routeOf(kind: TurnKind): Route {
  if (kind === "question" || kind === "small_talk") return kind;
  if (kind === "acknowledgement") return "small_talk";
  return "request";
}

export interface TurnContext {
  /** The assistant's turn just before this one (a question it asked makes a bare value an answer). */
  lastAssistant?: string;
  /** How many user turns came before this one. */
  earlierTurns?: number;
}

export interface Word {
  text: string;
  lower: string;
  lemma: string;
  /** Universal Dependencies part of speech, read in the clause's context. */
  pos: string;
}

export interface Clause {
  words: Word[];
  /** The sentence the clause ends ends with a question mark. */
  asked: boolean;
  act: ClauseAct;
  /** The verb a command or request is about (its lemma), and the noun it acts on. */
  verb?: string;
  object?: string;
  /** The clause is the value of a label before it ("Reason: double booking"): what it says is content. */
  labelled?: boolean;
}

export type ClauseAct = "command" | "prohibition" | "question" | "thanks" | "praise" | "greeting" | "statement";

// Dialogue words: the closed classes of English words that thank, praise, assent or greet. They are
// interjections in use, whatever part of speech the model gives them in isolation.
// Words that open a clause without saying anything about its act (the tagger reads some as nouns or verbs).
const DISCOURSE = new Set(["please", "kindly", "um", "uh", "hmm", "erm", "right", "well"]);
// Words of talk that hold a place in speech and say nothing ("like", "you know", "I mean", "sort of").
const SPOKEN_FILLERS = new Set(["like", "you", "know", "i", "mean", "sort", "kind", "of", "kinda", "basically", "literally", "honestly"]);
const THANKS = new Set(["thank", "thanks", "thx", "thnx", "tnx", "ty", "ta", "cheers", "appreciate", "appreciated", "grateful", "kudos"]);
const PRAISE = new Set(["great", "perfect", "awesome", "excellent", "brilliant", "lovely", "nice", "cool", "wonderful", "fantastic", "amazing", "good", "fine", "ok", "okay", "alright", "sure", "yes", "yep", "yeah", "noted", "gotcha", "superb", "sweet", "neat", "brill", "ace", "champion", "magic", "grand"]);
const GREETINGS = new Set(["hi", "hello", "hey", "hiya", "yo", "morning", "afternoon", "evening", "howdy"]);
// Verbs whose command asks for knowledge, not an action ("tell me…", "remind me…", "I need to know…").
// Verbs of answering what was asked: with the question itself in the turn, the turn asks it.
const ANSWERING = new Set(["answer", "respond", "reply", "field"]);
const KNOWING = new Set(["tell", "explain", "remind", "describe", "clarify", "know", "wonder", "understand", "learn", "recall"]);
// Verbs of wanting: what follows them is the request ("I'd like X added", "we need to refund…").
// Verbs of making sure of something, which want an object to be a request ("check the stock").
const CHECKING = new Set(["check", "verify", "double", "sanity", "confirm"]);
// Verbs that report a question after them ("asking what…", "wondering how…"): its wh-word opens no question of the turn.
const REPORTING = new Set(["ask", "wonder", "know", "see", "check", "find", "tell", "explain", "understand", "decide"]);
const WANTING = new Set(["need", "want", "like", "wish", "love", "prefer", "require"]);
// Verbs of stance, whose subject casual writing drops ("hope you're well", "guess that's it"): a
// statement, not a command.
const STANCE = new Set(["hope", "trust", "guess", "think", "believe", "reckon", "suppose", "bet", "feel", "assume", "wish"]);
// With the contractions typed without their apostrophe ("whats the number", "hows it going").
const WH = new Set(["what", "which", "who", "whom", "whose", "when", "where", "why", "how", "whats", "whos", "wheres", "whens", "hows", "whys"]);
const MODALS = new Set(["can", "could", "would", "will", "may", "might", "shall"]);
const SOMEONE = new Set(["someone", "somebody", "anyone", "anybody"]);
const NEGATIONS = new Set(["not", "n't", "never", "no"]);
// Commands that add nothing but pressure to an earlier request ("do it anyway", "try again", "proceed"),
// and ones that ask to step around a check: both are insistence when something was asked before.
const PRESSING = new Set(["do", "try", "retry", "proceed", "continue", "redo", "repeat", "go", "push", "force", "resubmit", "rerun"]);
const SEEMING = new Set(["sound", "look", "seem"]);
const PARTICLES = new Set(["off", "up", "out", "down", "over", "back", "away"]);
const AGAIN = new Set(["again", "anyway", "anyways", "regardless", "still", "without"]);
const BYPASSING = new Set(["skip", "ignore", "bypass", "override", "disregard", "circumvent", "waive"]);
// Words that announce a change to what was said ("actually…", "sorry, I meant…", "no, …").
const AMENDING = new Set(["actually", "instead", "rather", "sorry", "oops", "correction", "wait", "meant"]);
const WRONG = new Set(["wrong", "incorrect", "mistaken", "typo", "mistake", "inaccurate"]);
const OBJECT_PRONOUNS = new Set(["me", "him", "her", "us", "them", "it", "my", "our", "their", "his", "your", "its"]);
const BACK_REFERENCES = new Set(["it", "that", "this", "them", "so", "one"]);

// The words a clause's act turns on: verbs of operations, modals, verbs of wanting and knowing. A word
// outside the English lexicon one edit away from exactly one of them is that word mistyped ("colud you",
// "chek on"), so the act is read as meant; values and names are left as written.
let ACT_WORDS: string[] | undefined;
const actWords = (): string[] =>
  (ACT_WORDS ??= [...new Set([...VERB_CLASSES.flat(), ...MODALS, ...WANTING, ...KNOWING, "please"])].filter((w) => /^[a-z]{4,}$/.test(w)));

// Short words a request is framed by ("could yuo", "cna you", "I need yu to", "pls mve it"): a two- or
// three-letter token outside the lexicon one edit from exactly one of them is that word mistyped.
let SHORT_WORDS: string[] | undefined;
const shortWords = (): string[] => (SHORT_WORDS ??= [...new Set([...VERB_CLASSES.flat(), ...MODALS, "you"])].filter((w) => /^[a-z]{3,4}$/.test(w)));

function unmistyped(token: string): string {
  if (/^[A-Za-z][a-z]{1,2}$/.test(token) && !isEnglishWord(token)) {
    const lower = token.toLowerCase();
    if (shortWords().includes(lower)) return token;
    const near = shortWords().filter((w) => withinOneEdit(lower, w));
    return near.length === 1 ? near[0]! : token;
  }
  if (!/^[A-Za-z][a-z]{3,}$/.test(token) || isEnglishWord(token)) return token;
  const lower = token.toLowerCase();
  const near = actWords().filter((w) => Math.abs(w.length - lower.length) <= 1 && withinOneEdit(lower, w));
  return near.length === 1 ? near[0]! : token;
}

/** The text with its mistyped act words as meant ("pls mve 40 units" → "pls move 40 units"); other words as written. */
export function asMeant(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}_@.'-])[A-Za-z][a-z]+(?![\p{L}\p{N}_@'-]|\.\w)/gu, (w) => unmistyped(w));
}

/** Splits contractions the way the tagger reads them ("can't" → ca n't, "I'd" → I 'd). */
function tokens(text: string): string[] {
  const spaced = text.replace(/(\w)n['’]t\b/gi, "$1 n't").replace(/(\w)['’](s|d|ll|re|ve|m)\b/gi, "$1 '$2");
  return spaced.match(/\S+@\S+\.\w+|[\p{L}\p{N}$£€¥#@]+(?:[-_.,:/'→][\p{L}\p{N}]+)*%?|n't|'[a-z]+|[^\s\p{L}\p{N}]/giu) ?? [];
}

const CACHE = new Map<string, Clause[]>();
const CACHE_LIMIT = 2_000;

/**
 * The clauses of a text, each with its words tagged in context and its act. Sentences end at . ! ? ; and
 * line breaks; a comma, colon or dash also ends a clause (each piece of "X is broken, can you fix it?").
 */
// Emoji that say a word of dialogue ("👍" is an ok, "🙏" a thanks); the rest only colour a clause. Either
// way an emoji ends what it follows, as a full stop does ("more cars than lanes 🙄 could someone move …").
const EMOJI_WORDS: Record<string, string> = { "🙏": "thanks", "👍": "ok", "👌": "ok", "✅": "ok", "🙌": "great", "👏": "great", "💯": "great" };
const spokenEmoji = (text: string) => text.replace(/\p{Extended_Pictographic}\uFE0F?/gu, (e) => ` ${EMOJI_WORDS[e.replace("\uFE0F", "")] ?? ""}. `);

export function clausesOf(text: string): Clause[] {
  const hit = CACHE.get(text);
  if (hit) return hit;
  const clauses: Clause[] = [];
  for (const line of spokenEmoji(text).split(/\n+/)) {
    const toks = tokens(line).map(unmistyped);
    let sentence: string[] = [];
    const flush = (end: string | undefined) => {
      if (sentence.length === 0) return;
      // "please" in front makes the tagger read a first word such as "book", "ship" or "email" as the
      // verb of a command rather than as a noun; it is dropped again after tagging.
      // A capital that only opens the sentence says nothing: mid-sentence after "please" the tagger would
      // read "Check stock…" as a name. A key before its value ("Site - Harbour") keeps it: it is a label.
      const opening = sentence.map((t, i) => (i === 0 && /^[A-Z][a-z]+$/.test(t) && /^\p{L}/u.test(sentence[1] ?? "") ? t.toLowerCase() : t));
      const tagged = tag(["please", ...opening]).slice(1);
      const words: Word[] = sentence.map((t, i) => ({ text: t, lower: t.toLowerCase(), lemma: tagged[i]?.lemma ?? t.toLowerCase(), pos: tagged[i]?.pos ?? "X" }));
      let piece: Word[] = [];
      const pieces: { words: Word[]; after: string }[] = [];
      for (const w of words) {
        if ((w.pos === "PUNCT" || w.pos === "SYM") && /^[,:—–=-]$|^\(|^\)$/.test(w.text)) {
          if (piece.length > 0) pieces.push({ words: piece, after: w.text });
          piece = [];
        } else if (w.pos !== "PUNCT" || /[→]/.test(w.text)) piece.push(w);
      }
      if (piece.length > 0) pieces.push({ words: piece, after: "" });
      // "could you, like, call whoever is free": a filler set off by commas is no piece of its own; the
      // words on either side of it are one.
      for (let p = pieces.length - 2; p > 0; p--) {
        const filler = pieces[p]!.words.every((w) => SPOKEN_FILLERS.has(w.lower) || DISCOURSE.has(w.lower));
        if (filler && pieces[p - 1]!.after === "," && pieces[p]!.after === ",") pieces.splice(p - 1, 3, { words: [...pieces[p - 1]!.words, ...pieces[p + 1]!.words], after: pieces[p + 1]!.after });
      }
      // Speech written without stops runs a question into what came before ("… at low tide what do I tell
      // him"): a wh-word followed by an auxiliary and its subject starts a question of its own.
      for (let p = 0; p < pieces.length; p++) {
        const ws = pieces[p]!.words;
        const at = ws.findIndex((w, n) => n > 0 && WH.has(w.lower) && ws[n + 1]?.pos === "AUX" && ["PRON", "NOUN", "PROPN", "DET"].includes(ws[n + 2]?.pos ?? "") && !WH.has(ws[n - 1]!.lower) && ws[n - 1]!.pos !== "ADP" && !REPORTING.has(ws[n - 1]!.lemma));
        if (at > 0) pieces.splice(p, 1, { words: ws.slice(0, at), after: "" }, { words: ws.slice(at), after: pieces[p]!.after });
      }
      // A label opens a key-value piece ("Email - ana@…", "Reason: double booking", "Room = B2"): one to
      // three words before ":", "=" or a dash, at the start of the line. It names a field, it commands
      // nothing; the value after it is content.
      // An article says it is a command's object, not a label ("Find a patient: …", "Book the room: …").
      const label = (i: number) => i === 0 && pieces.length > 1 && pieces[0]!.words.length <= 3 && /^[:=—–-]$/.test(pieces[0]!.after) && !pieces[0]!.words.some((w) => w.pos === "PRON" || w.pos === "AUX" || (w.pos === "DET" && /^(?:a|an|the)$/.test(w.lower)));
      const labelAfter = (i: number) => i > 0 && pieces[i - 1]!.words.length <= 3 && pieces[i - 1]!.after === ":" && pieces[i - 1]!.words.every((w) => w.pos === "NOUN" || w.pos === "PROPN" || w.pos === "ADJ");
      // A later piece of one word and a value ("…, winch on, start 2027-01-20T21:30Z", "…, finish 18:00") is a
      // field and its value in a list of them, even when the word is a verb: it commands nothing.
      const keyAndValue = (i: number) => i > 0 && pieces[i]!.words.length === 2 && /\d/.test(pieces[i]!.words[1]!.text) && pieces[i - 1]!.after === ",";
      pieces.forEach((p, i) => {
        const read = label(i) ? { words: p.words, asked: false, act: "statement" as const } : readClause(p.words, end === "?" && i === pieces.length - 1);
        clauses.push(label(i - 1) || labelAfter(i) || keyAndValue(i) ? { ...read, labelled: true } : read);
      });
      sentence = [];
    };
    toks.forEach((t, i) => {
      // The stop of an abbreviated label ("Account no.: …", "Qty.: 4", "patient no. should be …") ends no
      // sentence: a colon follows it, or it abbreviates "number" and no capital starts a sentence after it.
      if (t === "." && (toks[i + 1] === ":" || (/^n[or]$/i.test(toks[i - 1] ?? "") && i > 1 && !/^[A-Z]/.test(toks[i + 1] ?? "A")))) return;
      if (/^[.!?;]$/.test(t)) flush(t);
      else sentence.push(t);
    });
    flush(undefined);
  }
  if (CACHE.size >= CACHE_LIMIT) CACHE.clear();
  CACHE.set(text, clauses);
  return clauses;
}

const isValue = (w: Word) => /\d|@/.test(w.text);
const isBase = (w: Word) => w.pos === "VERB" && (w.lemma === w.lower || w.lower === "do");

/** The noun a verb acts on: the first noun after it, past articles, possessives and adjectives. */
function objectAfter(words: Word[], from: number): string | undefined {
  for (let i = from; i < words.length; i++) {
    const w = words[i]!;
    if (i === from && BACK_REFERENCES.has(w.lower)) return w.lower;
    if (["DET", "ADJ", "NUM", "PART", "ADV", "ADP"].includes(w.pos) || isValue(w)) continue;
    if (w.pos === "PRON") {
      if (BACK_REFERENCES.has(w.lower)) return w.lower;
      continue;
    }
    if (w.pos === "NOUN" || w.pos === "PROPN" || w.pos === "X" || (w.pos === "VERB" && /ing$/.test(w.lower))) {
      // A compound's head is its last noun ("the garden atlas" → atlas).
      let head = i;
      while (words[head + 1] && (words[head + 1]!.pos === "NOUN") && !isValue(words[head + 1]!)) head++;
      return words[head]!.lower;
    }
    return undefined;
  }
  return undefined;
}

/** Where the clause's words start after politeness ("please", "kindly", "just"). */
function firstIndex(words: Word[]): number {
  let i = 0;
  while (i < words.length && (words[i]!.pos === "INTJ" || words[i]!.pos === "ADV" || DISCOURSE.has(words[i]!.lower))) i++;
  return i;
}

/** The praise or greeting word at i stands before a command: a verb or a modal follows, after other lead-ins. */
function leadsIn(words: Word[], i: number): boolean {
  let k = i + 1;
  while (words[k] && (PRAISE.has(words[k]!.lower) || GREETINGS.has(words[k]!.lower) || DISCOURSE.has(words[k]!.lower) || words[k]!.lower === "so" || words[k]!.lower === "then" || words[k]!.pos === "CCONJ" || words[k]!.pos === "ADV")) k++;
  const next = words[k];
  // "hey, do you reckon you could…": a "do" that opens a question-shaped request leads in too.
  const asking = next?.lower === "do" && ["you", "u"].includes(words[k + 1]?.lower ?? "");
  if (!next || k === i + 1 && !["so", "then"].includes(words[i + 1]?.lower ?? "") && next.pos !== "VERB" && !MODALS.has(next.lower) && !asking) return false;
  return next.pos === "VERB" || MODALS.has(next.lower) || isOperationVerb(next) || asking;
}

/** The words before a subordinate clause ("… because the room is shut"). */
const mainClause = (words: Word[]): Word[] => {
  const at = words.findIndex((w) => w.pos === "SCONJ");
  return at < 0 ? words : words.slice(0, at);
};

// Verbs of operations as written in the verb classes, not their nouns of action ("deletion", "payment").
const isOperationVerb = (w: Word) => /^[a-z]+$/.test(w.lower) && !/(?:tion|sion|ment|al)$/.test(w.lower) && verbClassOf(w.lower) !== undefined && VERB_CLASSES.some((line) => line.includes(w.lower));

function readClause(words: Word[], asked: boolean): Clause {
  const clause = (act: ClauseAct, verb?: string, at?: number): Clause => ({ words, asked, act, ...(verb ? { verb } : {}), ...(verb && at !== undefined ? { object: objectAfter(words, at + 1) } : {}) });
  // Leading discourse words say nothing about the act: "so", "and", "ok", "please", "just", "now".
  let i = 0;
  let negated = false;
  for (; i < words.length; i++) {
    const w = words[i]!;
    if (NEGATIONS.has(w.lower) && words.length > i + 1) {
      negated = true;
      continue;
    }
    // "ok so cancel it", "yeah hi can you…": assent or a greeting in front of a command is only a lead-in.
    if ((PRAISE.has(w.lower) || GREETINGS.has(w.lower)) && (leadsIn(words, i) || WH.has(words[i + 1]?.lower ?? ""))) continue;
    if (THANKS.has(w.lower) || PRAISE.has(w.lower) || GREETINGS.has(w.lower)) break;
    if (w.pos === "INTJ" || w.pos === "CCONJ" || (w.pos === "ADV" && !WH.has(w.lower)) || DISCOURSE.has(w.lower)) continue;
    break;
  }
  const first = words[i];
  if (!first) return clause("statement");
  const next = words[i + 1];
  if (THANKS.has(first.lower) || (first.lower === "thank" && next?.lower === "you")) return clause("thanks");
  // "ok thanks a lot", "great, thank you": praise then thanks is thanks.
  if (PRAISE.has(first.lower) && words.slice(i + 1, i + 3).some((w) => THANKS.has(w.lower))) return clause("thanks");
  if ((GREETINGS.has(first.lower) || (first.lower === "good" && GREETINGS.has(next?.lower ?? ""))) && words.length <= i + 3) return clause("greeting");
  if (PRAISE.has(first.lower) && words.slice(i + 1).every((w) => PRAISE.has(w.lower) || w.pos === "PRON" || w.pos === "AUX" || w.pos === "ADV")) return clause("praise");
  // "sounds good", "looks great to me": a verb of seeming before praise is praise.
  if (SEEMING.has(first.lemma) && next && PRAISE.has(next.lower)) return clause("praise");
  if (WH.has(first.lower)) return clause("question");
  // "by what time…", "for which order…": a preposition before the wh-word.
  if (first.pos === "ADP" && next && WH.has(next.lower)) return clause("question");

  // The verb a command is about, from position j: "let's X" and "go ahead and X" are X; "need to X" wants X.
  const command = (j: number): Clause => {
    const w = words[j]!;
    if (negated) return clause("prohibition", w.lemma, j);
    if (STANCE.has(w.lemma) && j === firstIndex(words)) return clause("statement");
    const after = words[j + 1];
    // "tell me…", "remind us how…", "explain why…" ask for knowledge; "tell the drivers that…" asks for
    // a message to be sent.
    if (KNOWING.has(w.lemma) && (!after || ["me", "us", "to"].includes(after.lower) || WH.has(after.lower) || after.pos === "SCONJ")) return clause("question", w.lemma, j);
    if (WANTING.has(w.lemma)) return wanting(j + 1) ?? clause("command", w.lemma, j);
    if (w.lemma === "let" && after && (after.lower === "'s" || after.lower === "us" || after.lower === "me")) {
      const k = words.findIndex((x, n) => n > j + 1 && x.pos === "VERB");
      if (k > 0) return command(k);
    }
    // "get rid of X" deletes X; "get" alone reads.
    if (w.lemma === "get" && after?.lower === "rid") return { ...clause("command", "rid", j + 1), verb: "rid" };
    // "get the van serviced", "have the room sorted": a causative's participle after its object is what is done.
    if ((w.lemma === "get" || w.lemma === "have") && after && ["PRON", "DET", "NOUN", "PROPN"].includes(after.pos)) {
      const k = words.findIndex((x, n) => n > j + 1 && n <= j + 4 && x.pos === "VERB" && /ed$|[^e]en$|^(?:done|sent|made|set|put|paid)$/.test(x.lower));
      if (k > 0) return { ...clause("command", words[k]!.lemma, k), verb: words[k]!.lemma };
    }
    if (w.lemma === "go" && after?.lower === "ahead") {
      const k = words.findIndex((x, n) => n > j + 1 && isBase(x));
      return k > 0 ? command(k) : clause("command", "go", j + 1);
    }
    // A phrasal verb ("call off the delivery", "sort out access") is not its bare verb; one the verb
    // classes know as a word ("look up" → lookup, "back up" → backup) is that word.
    if (after && PARTICLES.has(after.lower) && (after.pos === "ADP" || after.pos === "PART" || after.pos === "ADV") && words[j + 2] && ["DET", "NOUN", "PROPN", "PRON"].includes(words[j + 2]!.pos)) {
      const joined = `${w.lemma}${after.lower}`;
      return { ...clause("command", w.lemma, j + 1), verb: verbClassOf(joined) ? joined : `${w.lemma} ${after.lower}` };
    }
    return clause("command", w.lemma, j);
  };
  // After a verb of wanting: "(you) to X", "X added" (a participle), or a thing wanted.
  const wanting = (from: number): Clause | undefined => {
    for (let k = from; k < words.length; k++) {
      const w = words[k]!;
      // ("want to sanity-check before I say yes": checking with nothing to check named is the speaker's own
      // knowing, the reason of a question, not a request.)
      // (A compound verb, "sanity-check", may be tagged as a noun.)
      const checking = CHECKING.has(w.lower.replace(/^.*-/, "")) && (w.pos === "VERB" || w.lower.includes("-"));
      if (checking && objectAfter(words, k + 1) === undefined) return clause("question", w.lemma, k);
      if (w.pos === "VERB" || (w.pos === "AUX" && w.lower === "do")) return KNOWING.has(w.lemma) ? clause("question", w.lemma, k) : command(k);
    }
    return negated ? undefined : clause("command", undefined);
  };

  // A request hedged as a question or a wish: "do you suppose you could X", "any chance you could X", "I was
  // hoping you could X", "would you mind if I X", "is it possible to X <a value>". The verb after the
  // embedded "you could" is the request's; "is it possible to" only with a value it is about ("is it
  // possible to ship to Norway?" asks what can be done).
  const hedged = (): Clause | undefined => {
    for (let k = i; k < Math.min(words.length - 1, i + 7); k++) {
      const [a, b] = [words[k]!.lower, words[k + 1]!.lower];
      let v = -1;
      if ((a === "you" || a === "u") && MODALS.has(b) && k > i + 1) v = k + 2;
      // "could someone file …", "would be great if somebody could make …": anyone who can, asked to.
      else if (SOMEONE.has(b) && MODALS.has(a)) v = k + 2;
      else if (SOMEONE.has(a) && MODALS.has(b)) v = k + 2;
      else if (a === "possible" && b === "to" && words.some((w) => isValue(w) || /[a-z]\.[a-z]/i.test(w.text))) v = k + 2;
      else if (a === "if" && ["we", "i"].includes(b) && words[k - 1]?.lower === "mind") v = MODALS.has(words[k + 2]?.lower ?? "") ? k + 3 : k + 2;
      // "can you tell me if you could …", "do you know if you can …" ask to be told.
      if (v < 0 || words.slice(i, k).some((w) => ["tell", "know", "say", "ask", "explain"].includes(w.lemma))) continue;
      while (words[v] && (words[v]!.lower === "please" || words[v]!.lower === "just" || words[v]!.pos === "ADV")) v++;
      if (words[v] && !isValue(words[v]!) && !["PRON", "DET", "NUM", "PUNCT", "ADP"].includes(words[v]!.pos)) return command(v);
    }
    return undefined;
  };
  // ("it would be lovely if somebody could …", "it'd help if you could …": a wish with its dummy subject.)
  const dummy = first.lower === "it" && words[i + 1]?.pos === "AUX";
  const hedge = first.pos === "AUX" || first.pos === "DET" || (first.pos === "PRON" && ["i", "we"].includes(first.lower)) || first.lower === "any" || dummy ? hedged() : undefined;
  if (hedge) return hedge;

  if (first.pos === "AUX") {
    if (first.lower === "do" || first.lower === "does" || first.lower === "did") {
      if (next && NEGATIONS.has(next.lower)) return clause("prohibition", words.slice(i + 2).find((w) => w.pos === "VERB")?.lemma);
      // "do a refund of $40 to …", "do the transfer now": "do" and the noun of action it takes, when no verb
      // follows for a question to be about ("do the refunds go out on Friday" asks).
      let np = i + 2;
      while (words[np] && (["ADJ", "NOUN", "PROPN", "NUM"].includes(words[np]!.pos) || isValue(words[np]!))) np++;
      if (first.lower === "do" && !asked && next && ["a", "an", "the", "another", "one"].includes(next.lower) && np > i + 2 && !["VERB", "AUX"].includes(words[np]?.pos ?? "")) {
        const object = objectAfter(words, i + 1);
        return object !== undefined && verbClassOf(object) !== undefined ? { ...clause("command", "do", i), verb: object } : clause("command", "do", i);
      }
      // "Do cancel the order", "do me a favour and close it", "do it": the emphatic or plain verb "do".
      if (first.lower === "do" && !asked && next && (next.pos === "VERB" || BACK_REFERENCES.has(next.lower) || (next.lower === "me" && /^favou?r$/.test(words[i + 3]?.lower ?? "")))) {
        if (next.pos === "VERB") return command(i + 1);
        const k = words.findIndex((x, n) => n > i + 2 && x.pos === "VERB" && isBase(x));
        return k > 0 && next.lower === "me" ? command(k) : clause("command", "do", i);
      }
      return clause("question");
    }
    if (MODALS.has(first.lower) && next && (next.lower === "you" || next.lower === "u" || next.lower === "we")) {
      // The word after "can you (please)" is the verb, whatever the tagger made of it ("can u reserve…").
      let k = i + 2;
      while (words[k] && (words[k]!.lower === "please" || words[k]!.lower === "kindly" || words[k]!.lower === "just" || words[k]!.pos === "ADV")) k++;
      if (!words[k] || ["PRON", "DET", "NUM", "PUNCT", "ADP"].includes(words[k]!.pos) || isValue(words[k]!)) k = -1;
      if (k > 0) {
        // "would you mind closing it": the verb after "mind".
        if (words[k]!.lemma === "mind" && words[k + 1]) return { ...clause("command", words[k + 1]!.lemma, k + 1), verb: tag(["we", "are", words[k + 1]!.lower])[2]?.lemma ?? words[k + 1]!.lemma };
        return command(k);
      }
    }
    // "…, should be clear for an hour", "will be back by six": a modal with no subject after it (left out, as
    // notes write) states; a question puts its subject after the modal.
    if (!asked && (MODALS.has(first.lower) || first.lower === "should" || first.lower === "must") && next && (next.lower === "be" || next.lower === "have")) return clause("statement");
    return clause("question");
  }
  // A base-form verb opens a command unless it is the subject of what follows ("read is enough"). A word
  // the model reads as a noun is a verb too when an article or an object pronoun follows it at once ("text
  // the customer", "page the on-call", "record my call"): a noun is not followed so.
  // "Account no. should be …", "Order number is …": a noun and the abbreviation of its number is a
  // subject too.
  // "tenant in 4B is asking …", "the crew at site 2 has left": a noun phrase, then its finite verb.
  const finiteAt = words.findIndex((w, k) => k > i && /^(?:is|are|was|were|has|have|had)$/.test(w.lower));
  const nounPhraseSubject = finiteAt > i + 1 && finiteAt <= i + 5 && words.slice(i + 1, finiteAt).every((w) => ["ADP", "DET", "NOUN", "PROPN", "NUM", "ADJ"].includes(w.pos) || isValue(w));
  const subject = next?.pos === "AUX" || (next !== undefined && /^(?:no|nr|number|id)$/.test(next.lower) && words[i + 2]?.pos === "AUX") || nounPhraseSubject;
  if (first.pos === "VERB" && isBase(first) && !subject) return command(i);
  if ((first.pos === "NOUN" || first.pos === "ADJ" || first.pos === "PROPN") && next && !subject && i === firstIndex(words) && (next.pos === "DET" || (next.pos === "PRON" && OBJECT_PRONOUNS.has(next.lower)))) return command(i);
  // A verb of an operation the model read as a noun, before its object ("shift appointment A-1", "um
  // rebook slot 4"), in a clause with no other verb.
  if ((first.pos === "NOUN" || first.pos === "PROPN") && isOperationVerb(first) && i === firstIndex(words) && next && (next.pos === "NOUN" || next.pos === "PROPN" || isValue(next)) && !mainClause(words.slice(i + 1)).some((w) => w.pos === "VERB" || w.pos === "AUX")) return command(i);
  // The same for a phrasal verb the model read as a noun ("…, call off the delivery"): word, particle, object.
  const third = words[i + 2];
  if ((first.pos === "NOUN" || first.pos === "PROPN") && next && PARTICLES.has(next.lower) && i === firstIndex(words) && third && (["DET", "NOUN", "PROPN"].includes(third.pos) || isValue(third))) return command(i);
  // "I need…", "we'd like…", "I want you to…": the request follows the verb of wanting.
  if (first.pos === "PRON" && ["i", "we"].includes(first.lower)) {
    const k = words.findIndex((x, n) => n > i && n <= i + 3 && (x.pos === "VERB" || x.pos === "ADP") && WANTING.has(x.lemma));
    if (k > 0) {
      const between = words.slice(i + 1, k);
      if (between.some((w) => NEGATIONS.has(w.lower))) negated = true;
      return wanting(k + 1) ?? clause("statement");
    }
  }
  return clause("statement");
}

/**
 * Whether the assistant's turn asks the user for something: a question, or a need said plainly ("I just need
 * the patient.", "Please provide the date."), as opposed to a report ("Done, it's released.").
 */
export const asksForInput = (assistant: string | undefined): boolean =>
  pendingQuestion(assistant) || (assistant !== undefined && /\b(?:i\s+(?:just\s+|still\s+|only\s+)?need|need\s+(?:the|a|an|to\s+know|your)|please\s+(?:provide|give|send|confirm|tell|share|add)|tell\s+me|let\s+me\s+know|which|what|missing)\b/i.test(assistant));

/** Whether the assistant's turn ends by asking something (a question mark at its end or before a space). */
const pendingQuestion = (assistant: string | undefined) => assistant !== undefined && /\?\s*$|\?\s/.test(assistant.trim());

/** The kind of the last user turn, read as a whole and in the light of the conversation before it. */
export function classifyTurn(text: string, context: TurnContext = {}): TurnKind {
  const clauses = clausesOf(forwardedBody(text).trim());
  const followUp = (context.earlierTurns ?? 0) > 0;
  const pending = pendingQuestion(context.lastAssistant);
  // ("wait, before anyone books anything — which room did we use?": "wait", "hold on", "hang on" alone in
  // their clause only ask the listener to pause.)
  const pausing = (c: Clause) => c.words.length <= 2 && ["wait", "hold", "hang"].includes(c.verb ?? "") && c.words.slice(1).every((w) => w.lower === "on" || w.lower === "up");
  const commands = clauses.filter((c) => c.act === "command" && !pausing(c));
  const firstWords = clauses[0]?.words ?? [];

  if (commands.length > 0) {
    // "…which depot opens on Sundays? Could you answer that?": a request to answer the question the turn
    // quotes is that question.
    const answering = (c: Clause) => ANSWERING.has(c.verb ?? "") && (c.object === undefined || BACK_REFERENCES.has(c.object) || c.object === "question" || c.object === "questions");
    if (clauses.some((c) => c.act === "question") && commands.every(answering)) return "question";
    if (followUp) {
      // Pressure without new content ("do it anyway", "try again", "go ahead"), or a request to step
      // around a check ("skip the approval this time"): the earlier request, insisted on.
      const again = (c: Clause) => c.words.some((w) => AGAIN.has(w.lower));
      // "we badly need it this week": wanting what was asked already, with no new content, presses too.
      const wantsSame = (c: Clause) => c.verb === undefined && c.words.some((w) => BACK_REFERENCES.has(w.lower)) && !c.words.some(isValue);
      // "come on", alone in its clause, urges.
      const urging = (c: Clause) => c.verb === "come" && c.words.length <= 3 && c.words.some((w) => w.lower === "on");
      // "which room … + what's her extension, need it for the poster": a question with the reason it is asked.
      if (clauses.some((c) => c.act === "question") && commands.every(wantsSame)) return "question";
      const pressing = commands.every((c) => (PRESSING.has(c.verb ?? "") && (c.object === undefined || BACK_REFERENCES.has(c.object) || again(c))) || BYPASSING.has(c.verb ?? "") || wantsSame(c) || urging(c));
      // "I'm the head of branch and I'm overriding that, just renew it": a word of stepping around a check
      // anywhere in the turn presses too.
      // (A tagger may leave "overriding" an adjective: its base forms are looked at too.)
      const bypassing = clauses.some((c) => c.words.some((w) => BYPASSING.has(w.lemma) || [...conceptsOf(w.lower)].some((f) => BYPASSING.has(f))));
      if (pressing || bypassing || commands.some((c) => BYPASSING.has(c.verb ?? ""))) return "insistence";
      // "actually make it Thursday", "change that to 4": a command about what was already asked. ("oh wait,
      // the Aurora is in dry dock — actually make it the Borealis": in a later clause too.)
      if (clauses.some((c) => amends(c.words)) || commands.some((c) => c.object !== undefined && BACK_REFERENCES.has(c.object) && !PRESSING.has(c.verb ?? ""))) return "correction";
    }
    return "request";
  }
  if (clauses.some((c) => c.act === "question" || (c.asked && c.act === "statement"))) {
    // "the 14th?" in reply to a question is still its answer.
    if (pending && clauses.length === 1 && clauses[0]!.words.length <= 3) return "answer";
    return "question";
  }
  // Thanks, praise and greetings, with nothing asked and no value given: an acknowledgement of what was
  // done (or a "yes" to a pending question), or a greeting.
  const social = clauses.filter((c) => c.act === "thanks" || c.act === "praise" || c.act === "greeting");
  const valued = clauses.some((c) => c.words.some(isValue));
  if (social.length > 0 && !valued) {
    if (pending && social.every((c) => c.act === "praise")) return "answer";
    if (social.some((c) => c.act === "thanks") || (social.some((c) => c.act === "praise") && (followUp || context.lastAssistant !== undefined))) return "acknowledgement";
    return "small_talk";
  }
  if (clauses.length > 0 && clauses.every((c) => c.act === "prohibition")) return "question";
  // "Amina, not Amira", "Principal Engineer instead please": a value set against the one said before.
  const setAgainst = clauses.some((c) => c.words.some((w) => w.lower === "instead")) || clauses.slice(1).some((c) => c.words[0]?.lower === "not" && c.words.length <= 5);
  if (followUp && (amends(firstWords) || setAgainst)) return "correction";
  if (pending) return "answer";
  return "request";
}

/** The turn opens by amending what was said: "actually…", "sorry, I meant…", "no, 3 not 4". */
function amends(words: Word[]): boolean {
  const first = words[0];
  if (!first) return false;
  if (AMENDING.has(first.lower)) return true;
  // "2,480 was wrong — it's 610", "the date is a typo": what was said is called wrong.
  if (words.some((w) => WRONG.has(w.lower))) return true;
  if (first.lower === "i" && words[1]?.lower === "meant") return true;
  return first.lower === "no" && words.length === 1;
}

/** The verb and object of the request a turn makes: its last command, else undefined. */
export function requestFocus(text: string): { verb?: string; object?: string } {
  const commands = clausesOf(text.trim()).filter((c) => c.act === "command" && c.verb !== undefined);
  // A command written as a label's value ("Reason: duplicate booking") is content unless it is the only one;
  // a verb of an operation the lexicon knows outranks a later one it does not ("cancel the booking …
  // duplicate booking as the reason": "duplicate" names the reason, not an operation).
  const open = commands.filter((c) => !c.labelled);
  const last = open.filter((c) => verbClassOf(c.verb!.replace(/\s+/g, "")) !== undefined).at(-1) ?? open.at(-1) ?? commands.at(-1);
  return last ? { verb: last.verb, ...(last.object && !BACK_REFERENCES.has(last.object) ? { object: last.object } : {}) } : {};
}

// Words that place a question in the past: "back in July", "last week", "two days ago", "earlier".
const PAST_TIME = new Set(["ago", "yesterday", "last", "back", "earlier", "previously", "formerly", "once"]);
const MONTHS = new Set(["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]);

/**
 * Whether a question asks about what happened to something ("what happened with R-7 back in July?", "why
 * did the March run fail last week?") rather than about its present state ("is ORD-1 shipped yet?",
 * "what's the status of…", "did ORD-1 ship?"): an event is history, which memory keeps; a tool reads the
 * present. A past tense alone is not enough ("did it ship?" asks where it is now); an event verb or a
 * time in the past is.
 */
export function asksHistory(text: string): boolean {
  const words = clausesOf(text.trim()).flatMap((c) => c.words);
  return words.some((w, i) => PAST_TIME.has(w.lower) || (w.lemma === "happen" && w.lower !== "happen") || (MONTHS.has(w.lower) && w.lower !== "may" && ["in", "back", "during", "since"].includes(words[i - 1]?.lower ?? "")));
}
