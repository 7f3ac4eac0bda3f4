// Parameters whose values are words rather than typed values: names of people, organisations and places,
// free text (a summary, a reason, a subject), identifiers without a pattern, versions, paths and links.
// Each takes the words that name it: a labelled value ("Company: Harbour Tiles Ltd", "reason - flooding"),
// quoted text near its label, a run of capitalised words whose neighbours fit the kind of name, or the
// clause after a cue of reported speech ("saying …", "because …"). What no words give stays open.
import { conceptsOf, wordsOf } from "../../language/lemmas.ts";
import { isKnownWord, tag } from "../../language/nlp.ts";
import { escapeRegExp, type Span } from "../../language/tokens.ts";
import { cueScore, PLACE_WORDS, type Signature } from "./signature.ts";
import { overlaps, type Found, type Turn } from "./values.ts";


// What the head noun of a name parameter says about the name's neighbours.
const PLACE_NOUNS = new Set(["city", "town", "location", "region", "country", "site", "place", "destination"]);
const ORG_NOUNS = new Set(["company", "organisation", "organization", "employer", "merchant", "vendor", "supplier", "account", "business", "firm", "customer"]);
const PLACE_LEADS = new Set(["in", "to", "at", "near", "around", "into"]);
const ORG_LEADS = new Set(["at", "from", "with", "of", "for", "by"]);
const PERSON_LEADS = new Set(["for", "to", "named", "called", "with", "candidate", "contact", "lead", "hire", "welcome", "add", "meet", "from", "is", "name"]);
// Words after which the rest of the clause is what someone wants said or recorded.
const SPEECH_CUES = ["saying", "say", "says", "that", "about", "regarding", "re", "subject", "note", "noting", "mentioning", "summary", "summarising", "summarizing"];
const TELL = ["tell", "inform", "remind", "warn", "let"];
const PURPOSE_NOUNS = new Set(["purpose", "occasion", "event", "use", "activity"]);
const REASON_CUES = ["because", "due", "since", "as", "reason", "cause", "owing"];
const ID_SUFFIXES = new Set(["id", "key", "code", "number", "no", "ref", "reference", "slug", "handle", "sku", "uuid"]);
const FILE_PATH = /(?<![\w/])(?:~|\.{1,2})?\/[^\s'"`,;]+|(?<!\w)[A-Za-z]:\\[^\s'"`,;]+|(?<![\w/.-])[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,5}(?![\w/])/g;
// The kinds of street an address names (the common postal suffixes, written out or abbreviated).
export const STREET_ADDRESS = /\b\d{1,5}[A-Za-z]?\s+(?:[A-Z][\w'-]*\s+){1,3}(?:St|Street|Ave|Avenue|Rd|Road|Ln|Lane|Row|Dr|Drive|Way|Blvd|Boulevard|Pl|Place|Ct|Court|Terrace|Close|Crescent|Sq|Square|Hwy|Highway|Pkwy|Parkway|Walk|Mews|Gardens|Grove|Hill)\b\.?/g;
const URL = /\bhttps?:\/\/[^\s<>"')\]]+/g;

const named = (sig: Signature, word: string) => {
  for (const c of conceptsOf(word)) if (sig.keyWords.includes(c) || (sig.label.has(c) && !ID_SUFFIXES.has(c))) return true;
  return false;
};

/** "Company: Harbour Tiles Ltd", "- reason = flooding", "Subject line: Renewal": the value after the label. */
function labelled(sig: Signature, turn: Turn, taken: Span[]): { value: string; span: Span } | undefined {
  // ("where: Level 3 slab" labels a place: see labelOf.)
  // ("location: 4 Quay Road" for a street address: a word for a place labels any parameter of a place.)
  const keyNamed = (word: string) => sig.keyWords.filter((k) => !ID_SUFFIXES.has(k)).some((k) => [...conceptsOf(word)].includes(k)) || ((word === "where" || PLACE_WORDS.has(word)) && sig.label.has("where"));
  for (let i = 0; i < turn.words.length; i++) {
    const w = turn.words[i]!;
    if (!keyNamed(w.word)) continue;
    // The label may be two words ("full name", "subject line"): the separator follows the last of them.
    let end = w.span.end;
    const next = turn.words[i + 1];
    if (next && /^\s*$/.test(turn.text.slice(end, next.span.start)) && /^[a-z]+$/.test(next.word) && /^\s*[:=]/.test(turn.text.slice(next.span.end))) end = next.span.end;
    const sep = /^\s*(?:[:=]|[-–—]\s|(?:is|was)\s+(?:that\s)?|as\s)\s*/.exec(turn.text.slice(end));
    if (!sep) continue;
    const start = end + sep[0].length;
    const rest = turn.text.slice(start);
    const stop = sig.kind === "text" ? /[\n;]|\s[-–—]\s|\s\|\s|,\s*[A-Za-z][\w ]{0,20}:/ : /[\n;,(]|\s[-–—]\s|\s\|\s|\.\s|\.$/;
    const value = rest.split(stop)[0]!.trim().replace(/[.!]+$/, "").replace(/^["'“‘]|["'”’]$/g, "");
    const span = { start, end: start + value.length };
    if (value.length > 0 && !taken.some((t) => overlaps(t, span))) return { value, span };
  }
  return undefined;
}

/** A list line with its label after the value: "- the lift stalls between floors (summary)", "Ana Lima — name". */
function labelledAfter(sig: Signature, turn: Turn, taken: Span[]): { value: string; span: Span } | undefined {
  const keyNamed = (word: string) => sig.keyWords.filter((k) => !ID_SUFFIXES.has(k)).some((k) => [...conceptsOf(word.toLowerCase())].includes(k));
  for (const m of turn.text.matchAll(/^[ \t]*(?:[-*•][ \t]+)?(.+?)[ \t]*(?:\(([a-z][a-z ]{0,30})\)|[ \t][-–—][ \t]+([a-z][a-z ]{0,30}))[ \t]*$/gim)) {
    const label = (m[2] ?? m[3])!.trim().split(/\s+/);
    if (label.length > 3 || !label.some(keyNamed)) continue;
    const start = m.index! + m[0].indexOf(m[1]!);
    const value = m[1]!.trim().replace(/[.!]+$/, "");
    const span = { start, end: start + value.length };
    if (value.length > 0 && !taken.some((t) => overlaps(t, span))) return { value, span };
  }
  return undefined;
}

/** Quoted text within four words after the parameter's label ("subject 'Renewal terms'", "titled “Q3 plan”"). */
function quotedNear(sig: Signature, turn: Turn, taken: Span[]): { value: string; span: Span } | undefined {
  for (const f of turn.found) {
    if (f.value.kind !== "quoted" || taken.some((t) => overlaps(t, f.span))) continue;
    if (f.left.slice(0, 4).some((w) => named(sig, w)) || f.left[0] === "titled" || f.left[0] === "called" || f.left[0] === "named") return { value: f.value.text, span: f.span };
  }
  return undefined;
}

type NameClass = "place" | "org" | "person" | "title" | "thing";

function nameClass(sig: Signature): NameClass {
  if (["title", "position", "role"].includes(sig.keyWords.at(-1) ?? "")) return "title";
  if (sig.keyWords.some((w) => PLACE_NOUNS.has(w))) return "place";
  if (sig.keyWords.some((w) => ORG_NOUNS.has(w))) return "org";
  if (sig.keyWords.includes("name") && sig.keyWords.length <= 2 && sig.keyWords.some((w) => ["full", "first", "last", "given", "family", "candidate", "contact", "employee", "person", "customer", "patient", "guest", "traveler", "traveller"].includes(w))) return "person";
  return "thing";
}

const ORG_ENDINGS = /\b(?:Inc|Ltd|LLC|GmbH|AG|SA|BV|Corp|Co|Group|Labs?|Systems|Technologies|Tech|Solutions|Partners|Holdings|Industries|Bank|Studio|Studios|Works|Foods|Logistics|Capital|Media|Health)\.?$/;

/** How well a run of capitalised words fits a name parameter, from its neighbours and its shape. */
function nameScore(sig: Signature, cls: NameClass, f: Found): number {
  if (f.value.kind !== "name") return 0;
  const lead = f.left.find((w) => w !== "the" && w !== "a" && w !== "an");
  let score = 0.6 + 1.5 * cueScore(sig, f.left, f.right, f.near);
  const words = f.value.words;
  if (cls === "place") score += (lead && PLACE_LEADS.has(lead) ? 1 : 0) + (words <= 2 ? 0.2 : -0.3) - (ORG_ENDINGS.test(f.value.text) ? 1 : 0);
  if (cls === "org") score += (lead && ORG_LEADS.has(lead) ? 0.8 : 0) + (ORG_ENDINGS.test(f.value.text) ? 1 : 0);
  // People's names hold a word the English lexicon does not know ("Szymborska", "Adebayo"); a run of known
  // words ("Grant Writer", "Shift Supervisor") is a title or a thing.
  const known = f.value.text.split(/\s+/).every((w) => isKnownWord(w));
  if (cls === "person") score += (words >= 2 && words <= 4 ? 0.8 : -0.2) + (lead && PERSON_LEADS.has(lead) ? 0.5 : 0) - (ORG_ENDINGS.test(f.value.text) ? 1.2 : 0) - (known && words >= 2 ? 1 : 0);
  // A job title or role: known words ("Grant Writer"), after "as" or "for" ("hire her as Head of Sales").
  if (cls === "title") score += (lead === "as" || lead === "for" ? 0.8 : 0) + (known ? 0.3 : -0.5);
  if (cls === "thing") score += (f.value.text.toLowerCase().split(/\s+/).some((w) => sig.keyWords.includes(w)) ? 1 : 0) + (known ? 0.3 : -0.3);
  return score;
}

/** The clause after a cue of reported speech or of a reason, from the turn's original text. */
function afterCue(sig: Signature, turn: Turn, taken: Span[]): { value: string; span: Span } | undefined {
  const reason = sig.keyWords.some((w) => ["reason", "cause", "justification", "why"].includes(w));
  const cues = reason ? REASON_CUES : [...SPEECH_CUES, ...TELL];
  for (let i = 0; i < turn.words.length; i++) {
    const w = turn.words[i]!;
    if (!cues.includes(w.word)) continue;
    if (w.word === "due" && turn.words[i + 1]?.word !== "to") continue;
    if (TELL.includes(w.word)) {
      // "tell them the van is late", "let the team know that …": what follows the one told.
      const rest = turn.words.slice(i + 1);
      let k = rest[0]?.word === "the" || rest[0]?.word === "our" || rest[0]?.word === "my" ? 2 : 1;
      if (rest[k]?.word === "know") k++;
      if (rest[k]?.word === "that") k++;
      const from = rest[k];
      if (!from) continue;
      const value = turn.text.slice(from.span.start).split(/(?<=[.!?])\s+(?=[A-Z])|\n/)[0]!.trim().replace(/[.!]+$/, "");
      if (value.split(/\s+/).length >= 2) return { value, span: { start: from.span.start, end: from.span.start + value.length } };
      continue;
    }
    if (w.word === "that" && i > 0 && !/^(say|said|tell|told|know|note|mention|explain|confirm|inform)/.test(turn.words[i - 1]!.word) && !turn.words.slice(Math.max(0, i - 4), i).some((x) => /@/.test(x.word))) continue;
    const from = w.word === "due" ? turn.words[i + 1]!.span.end : w.span.end;
    const rest = turn.text.slice(from).replace(/^\s*(?:[:,-]|to\b|of\b|that\b|(?:is|was)\s+that\b|(?:is|was)\b)?\s*/, "");
    const start = turn.text.length - rest.length;
    const value = rest.split(/(?<=[.!?])\s+(?=[A-Z])|\n/)[0]!.trim().replace(/[.!]+$/, "");
    const span = { start, end: start + value.length };
    if (value.split(/\s+/).length >= 2 && !taken.some((t) => overlaps(t, { start, end: start + 1 }))) return { value, span };
  }
  return undefined;
}

/** "Log the call: went over pricing", "— discussed renewal": the words after the request's colon or dash. */
function afterSeparator(turn: Turn, taken: Span[]): { value: string; span: Span } | undefined {
  // The first colon or spaced dash whose words are free; a colon inside a clock time ("10:45") is none, one
  // after a reference is ("for UN-0042: replace …").
  for (const m of turn.text.matchAll(/(?:(?<!\d:?\d?):(?!\d)|(?<=[A-Za-z]+-?\d+):(?=\s)|\s[-–—]\s)\s*([^\n]{8,})$/g)) {
    const start = m.index! + m[0].length - m[1]!.length;
    // Sentence by sentence, up to one that holds another parameter's value ("… door seal. Quote came back at
    // £2,500"): that one is about something else.
    let end = start;
    for (const sentence of m[1]!.split(/(?<=[.!?])\s+(?=[A-Z])/)) {
      const at = turn.text.indexOf(sentence, end);
      if (end > start && taken.some((t) => overlaps(t, { start: at, end: at + sentence.length }))) break;
      end = at + sentence.length;
    }
    const value = turn.text.slice(start, end).trim().replace(/[.!]+$/, "");
    // Free text may hold values other parameters took ("12 seats, they liked the demo"): only its first
    // character is claimed, and it must not start inside one of them.
    const span = { start, end: start + 1 };
    if (!taken.some((t) => overlaps(t, span)) && value.split(/\s+/).length >= 2) return { value, span };
  }
  return undefined;
}

/**
 * A thing named in lower case by words ending in the parameter's own noun, after a preposition: "to
 * eastbrook community library" for partner_library, "at the harbour depot" for depot_name.
 */
function phraseEndingIn(sig: Signature, turn: Turn, taken: Span[]): { value: string; span: Span } | undefined {
  const head = sig.keyWords.filter((w) => !ID_SUFFIXES.has(w)).at(-1);
  if (!head || head.length < 3) return undefined;
  for (let i = 1; i < turn.words.length; i++) {
    if (turn.words[i]!.word !== head && !conceptsOf(turn.words[i]!.word).has(head)) continue;
    let k = i - 1;
    while (k >= 0 && i - k <= 3 && /^[a-z][a-z'-]*$/.test(turn.words[k]!.word) && !PHRASE_STOPS.has(turn.words[k]!.word) && !taken.some((t) => overlaps(t, turn.words[k]!.span))) k--;
    const lead = ["the", "a", "an"].includes(turn.words[k]?.word ?? "") ? k - 1 : k;
    if (k === i - 1 || lead < 0 || !["to", "at", "from", "with", "for"].includes(turn.words[lead]!.word)) continue;
    const span = { start: turn.words[k + 1]!.span.start, end: turn.words[i]!.span.end };
    if (/[^\sa-z'-]/i.test(turn.text.slice(span.start, span.end))) continue;
    return { value: turn.text.slice(span.start, span.end), span };
  }
  return undefined;
}

/**
 * A term of art that opens the request or a line, or follows its verb ("kelvaprim for HOR-1234…", "prescribe
 * carprofen 50 mg"): a word no dictionary of everyday English knows, and the only such word in the turn,
 * for the one required thing-name parameter nothing else names. Two such words (a typo beside it) leave
 * the parameter to be asked.
 */
function termOfArt(turn: Turn, taken: Span[], labels: Set<string>): { value: string; span: Span } | undefined {
  const unknown = turn.words.filter((w) => /^[a-z]{4,}$/.test(w.word) && !isKnownWord(w.word) && !labels.has(w.word) && !taken.some((t) => overlaps(t, w.span)));
  if (unknown.length !== 1) return undefined;
  const w = unknown[0]!;
  const i = turn.words.indexOf(w);
  const before = turn.text.slice(i > 0 ? turn.words[i - 1]!.span.end : 0, w.span.start);
  const opens = i === 0 || /[\n:;.!?]\s*(?:[-*•]\s*)?$/.test(before);
  const afterVerb = i > 0 && tag([turn.words[i - 1]!.word, w.word])[0]?.pos === "VERB";
  if (!opens && !afterVerb) return undefined;
  // A common noun: the capital a sentence opens with is not part of it.
  const written = turn.text.slice(w.span.start, w.span.end);
  return { value: opens && /^[A-Z][a-z]+$/.test(written) ? written.toLowerCase() : written, span: w.span };
}

/**
 * An infinitive of purpose closing the request ("send a crew to SITE-1 … to check the sagging line"): what
 * is to be done, for the one required free-text field nothing else fills.
 */
function purposeClause(turn: Turn, taken: Span[]): { value: string; span: Span } | undefined {
  for (let i = turn.words.length - 2; i >= 0; i--) {
    if (turn.words[i]!.word !== "to") continue;
    const verb = turn.words[i + 1]!;
    const rest = turn.text.slice(verb.span.start).split(/[.!?\n]/)[0]!.trim();
    if (rest.split(/\s+/).length < 3 || taken.some((t) => overlaps(t, { start: verb.span.start, end: verb.span.start + rest.length }))) continue;
    const tagged = tag(["we", "need", "to", ...rest.split(/\s+/).slice(0, 2)]);
    if (tagged[3]?.pos !== "VERB") continue;
    return { value: rest, span: { start: verb.span.start, end: verb.span.start + 1 } };
  }
  return undefined;
}

/**
 * The one phrase of the request's first sentence that no other value took ("Repair on UN-0042, £1,200
 * estimate, new boiler flue and condensate pipe"): the comma-separated parts of the sentence, less the
 * values at their edges and the prepositions before them ("Brass quintet practice" of "Brass quintet
 * practice, Red Room on …"), a phrase of nouns with no verb of its own (the verb's part names the action).
 * The last such part, for the one required free-text field nothing else fills.
 */
function leftoverPhrase(turn: Turn, taken: Span[]): { value: string; span: Span } | undefined {
  const sentence = /^[^\n.!?]*(?:\.(?=\d)[^\n.!?]*)*/.exec(turn.text)?.[0] ?? "";
  let found: { value: string; span: Span } | undefined;
  let offset = 0;
  // (Only a request that lists its parts: a sentence of one part is a clause, whose words are not a value.)
  const parts = sentence.split(/[,;]/);
  if (parts.length < 2) return undefined;
  for (const part of parts) {
    const from = offset;
    offset += part.length + 1;
    const words = turn.words.filter((w) => w.span.start >= from && w.span.end <= from + part.length);
    const free = (w: (typeof words)[number]) => !taken.some((t) => overlaps(t, w.span));
    let a = 0;
    let b = words.length;
    // (A word with a digit is a value some other parameter may take, read after this: never part of the phrase.)
    const valued = (w: (typeof words)[number]) => !free(w) || /\d/.test(w.word);
    const edge = (w: (typeof words)[number] | undefined) => !!w && (valued(w) || ["at", "in", "on", "for", "from", "to", "by", "with", "of", "the", "a", "an", "and", "plus"].includes(w.word));
    while (a < b && edge(words[a])) a++;
    while (b > a && edge(words[b - 1])) b--;
    const kept = words.slice(a, b);
    if (kept.length < 2 || kept.some(valued)) continue;
    const tags = tag(kept.map((w) => w.word));
    // (A verb of its own says what to do, the action's part; "lunches" is a noun whatever the tagger says
    // of a word alone, so the phrase must hold a noun too.)
    if (!["NOUN", "ADJ", "PROPN"].includes(tags[0]!.pos) || tags.some((t) => t.pos === "PRON" || t.pos === "AUX") || !tags.some((t) => t.pos === "NOUN" || t.pos === "PROPN")) continue;
    const span = { start: kept[0]!.span.start, end: kept.at(-1)!.span.end };
    // (Nor a code written with a hyphen, which the words split: "PET-11904".)
    if (/[-\d]\d/.test(turn.text.slice(span.start, span.end + 2))) continue;
    found = { value: turn.text.slice(span.start, span.end), span };
  }
  return found;
}

// Words that end a phrase of words standing for a value (a name said in lower case, what something is for).
const PHRASE_STOPS = new Set(["as", "born", "on", "at", "with", "and", "for", "who", "from", "to", "in", "by", "starting", "please", "thanks", "the", "a", "an", "is", "was", "of"]);

/**
 * The words after a cue, up to the next preposition, value or stop: "named oskar lind born…" → "oskar
 * lind", "as shift lead" → "shift lead", "for a chess evening on…" → "chess evening". A voice transcript
 * writes names in lower case, where runs of capitals find nothing.
 */
function phraseAfter(turn: Turn, cues: string[], taken: Span[], min: number, max: number, skipArticle: boolean, labels: Set<string> = new Set()): { value: string; span: Span } | undefined {
  for (let i = 0; i < turn.words.length; i++) {
    if (!cues.includes(turn.words[i]!.word)) continue;
    let k = i + 1;
    if (skipArticle && ["a", "an", "the"].includes(turn.words[k]?.word ?? "")) k++;
    const picked: Turn["words"] = [];
    for (; k < turn.words.length && picked.length < max; k++) {
      const w = turn.words[k]!;
      const gap = turn.text.slice((picked.at(-1) ?? turn.words[k - 1]!).span.end, w.span.start);
      if (picked.length > 0 && /[^\s]/.test(gap)) break;
      if (!/^[a-z][a-z'-]*$/.test(w.word) || PHRASE_STOPS.has(w.word) || labels.has(w.word) || taken.some((t) => overlaps(t, w.span))) break;
      picked.push(w);
    }
    if (picked.length >= min && (k >= turn.words.length || picked.length < max || PHRASE_STOPS.has(turn.words[k]!.word))) {
      const span = { start: picked[0]!.span.start, end: picked.at(-1)!.span.end };
      return { value: turn.text.slice(span.start, span.end), span };
    }
  }
  return undefined;
}

/** `ticket_id`: "ticket #4471", "#4471", "the new-checkout flag"; the token after (or before) its noun. */
function identifier(sig: Signature, turn: Turn, taken: Span[], asked: boolean): { value: string; span: Span } | undefined {
  const nouns = sig.keyWords.filter((w) => !ID_SUFFIXES.has(w));
  const tokens = turn.found.filter((f) => (f.value.kind === "token" || f.value.kind === "number") && !taken.some((t) => overlaps(t, f.span)));
  const clean = (raw: string) => raw.replace(/^#/, "").replace(/[.:]+$/, "");
  // ("PO 4500-7781": the groups joined by hyphens or slashes are one identifier, not a number and a
  // negative one, nor a range.)
  const whole = (f: (typeof tokens)[number]) => {
    const m = /^#?[A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)+/.exec(turn.text.slice(f.span.start));
    return m && m[0].length > f.raw.length ? { value: clean(m[0]), span: { start: f.span.start, end: f.span.start + m[0].length } } : { value: clean(f.raw), span: f.span };
  };
  for (const f of tokens) {
    const lead = f.left.filter((w) => !ID_SUFFIXES.has(w) && w !== "the")[0];
    if (lead && nouns.some((n) => [...conceptsOf(lead)].includes(n))) return whole(f);
    const after = f.right[0];
    if (f.value.kind === "token" && after && nouns.some((n) => [...conceptsOf(after)].includes(n))) return { value: clean(f.raw), span: f.span };
  }
  const tags = tokens.filter((f) => f.raw.startsWith("#"));
  if (tags.length === 1) return { value: clean(tags[0]!.raw), span: tags[0]!.span };
  if (asked) {
    const ids = tokens.filter((f) => f.value.kind === "token" || f.value.kind === "number");
    if (ids.length === 1) return { value: clean(ids[0]!.raw), span: ids[0]!.span };
  }
  return undefined;
}

// A reply longer than this is a sentence, not a value.
const MAX_BARE_WORDS = 6;
// Parts of speech that make a reply a sentence ("I don't know yet", "do it") rather than a value; a negation
// ("no idea", "none") says there is no value.
const NOT_A_VALUE = new Set(["VERB", "AUX", "PRON", "INTJ", "PART"]);
const NO_VALUE = new Set(["no", "not", "none", "nothing", "nope", "idea", "unsure", "dunno"]);

/**
 * A short reply to a question about this parameter, as a whole ("Bergen", "the inn by the harbour",
 * "j.ferreira"), without lead-ins ("it's", "use") and politeness; undefined for a sentence or a refusal.
 */
function bareReply(turn: Turn): string | undefined {
  const value = turn.text
    .trim()
    .replace(/^(?:(?:it's|it is|its|that's|that is|the|use|make it|let's say|say|ok|okay|sure|yes|yeah|um|uh|so|well)[,\s]+)+/i, "")
    .replace(/[\s,]*(?:please|pls|thanks|thank you|thx|cheers)[.!]*$/i, "")
    .replace(/[.!]+$/, "")
    .trim();
  const words = wordsOf(value);
  if (value.length === 0 || words.length === 0 || words.length > MAX_BARE_WORDS) return undefined;
  // Codes and addresses are values whatever the tagger makes of them; words must all name something.
  if (/^\S+$/.test(value) && /[\d._@-]/.test(value)) return value;
  return tag(words).every((w) => !NOT_A_VALUE.has(w.pos) && !NO_VALUE.has(w.lemma)) ? value : undefined;
}

// A code as written: letters and digits, joined inside by hyphens, dots, slashes or underscores.
const CODE_TOKEN = /(?<![\w./-])[A-Za-z0-9](?:[A-Za-z0-9_./-]*[A-Za-z0-9])?(?![\w-])/g;

/** Values for the word-valued parameters still open after the typed matching. */
export function readTexts(sigs: Signature[], turn: Turn, asked: Set<string>, taken: Span[], filled: Map<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const claim = (key: string, hit: { value: string; span: Span } | undefined) => {
    if (!hit || hit.value === "") return false;
    out.set(key, hit.value);
    taken.push(hit.span);
    return true;
  };
  const open = sigs.filter((s) => !filled.has(s.key) && ["name", "text", "identifier", "version", "path", "uri", "emails"].includes(s.kind));
  // Labelled and quoted values first: they say which parameter they are for.
  for (const sig of open) if (sig.kind === "name" || sig.kind === "text" || sig.kind === "identifier") claim(sig.key, labelled(sig, turn, taken) ?? labelledAfter(sig, turn, taken) ?? quotedNear(sig, turn, taken));
  for (const sig of open) {
    if (out.has(sig.key)) continue;
    if (sig.kind === "version") {
      const v = turn.found.find((f) => f.value.kind === "token" && /^v?\d+\.\d+/.test(f.raw) && !taken.some((t) => overlaps(t, f.span)));
      if (v) claim(sig.key, { value: v.raw, span: v.span });
    } else if (sig.kind === "path") {
      for (const m of turn.text.matchAll(FILE_PATH)) {
        const value = m[0].replace(/[.,;:!?)]+$/, "");
        if (claim(sig.key, taken.some((t) => overlaps(t, { start: m.index!, end: m.index! + value.length })) ? undefined : { value, span: { start: m.index!, end: m.index! + value.length } })) break;
      }
    } else if (sig.kind === "uri") {
      const m = [...turn.text.matchAll(URL)][0];
      if (m) claim(sig.key, { value: m[0].replace(/[.,;]+$/, ""), span: { start: m.index!, end: m.index! + m[0].length } });
    } else if (sig.kind === "identifier") {
      claim(sig.key, identifier(sig, turn, taken, asked.has(sig.key)));
    } else if (sig.kind === "emails" && sig.itemPattern) {
      // A list of codes ("blocks": BLK-02, BLK-05): every code of the turn the items' pattern takes whole.
      const codes: { value: string; span: Span }[] = [];
      for (const m of turn.text.matchAll(CODE_TOKEN)) {
        const span = { start: m.index!, end: m.index! + m[0].length };
        if (sig.itemPattern.test(m[0]) && !taken.some((t) => overlaps(t, span)) && !codes.some((c) => c.value === m[0])) codes.push({ value: m[0], span });
      }
      if (codes.length > 0) {
        out.set(sig.key, codes.map((c) => c.value));
        for (const c of codes) taken.push(c.span);
      }
    } else if (sig.kind === "emails") {
      const emails = turn.found.filter((f) => f.value.kind === "email" && !taken.some((t) => overlaps(t, f.span)) && (cueScore(sig, f.left, f.right, f.near) > 0 || f.left.slice(0, 3).some((w) => ["cc", "copy", "copying", "bcc", "include", "including"].includes(w))));
      if (emails.length > 0) {
        out.set(sig.key, emails.map((f) => (f.value as { address: string }).address));
        for (const f of emails) taken.push(f.span);
      }
    }
  }
  // One of the values the description gives as examples ("Timber, e.g. oak, ash, larch"), written in the
  // turn as a word of its own: "plane the oak for …".
  for (const sig of open) {
    if (out.has(sig.key) || sig.kind !== "name" || !sig.examples || sig.examples.some((e) => /\d/.test(e))) continue;
    for (const example of sig.examples) {
      const at = new RegExp(`(?<![\\w-])${escapeRegExp(example)}s?(?![\\w-])`, "i").exec(turn.text);
      if (at && claim(sig.key, taken.some((t) => overlaps(t, { start: at.index, end: at.index + at[0].length })) ? undefined : { value: turn.text.slice(at.index, at.index + example.length), span: { start: at.index, end: at.index + at[0].length } })) break;
    }
  }
  // A street address ("4 Quay Road", "19 Orchard Lane"): a house number, a capitalised name and the word
  // for its kind of street, wherever it stands, for a parameter of an address or a street.
  for (const sig of open) {
    if (out.has(sig.key) || (sig.kind !== "name" && sig.kind !== "text") || !sig.keyWords.some((w) => w === "address" || w === "street")) continue;
    for (const m of turn.text.matchAll(STREET_ADDRESS)) {
      const value = m[0].replace(/\.$/, "");
      if (claim(sig.key, taken.some((t) => overlaps(t, { start: m.index!, end: m.index! + value.length })) ? undefined : { value, span: { start: m.index!, end: m.index! + value.length } })) break;
    }
  }
  // Names: each run of capitals to the name parameter it fits best, best pairs first.
  const nameSigs = open.filter((s) => s.kind === "name" && !out.has(s.key));
  const person = nameSigs.filter((s) => nameClass(s) === "person");
  const first = person.find((s) => s.keyWords.includes("first") || s.keyWords.includes("given"));
  const last = person.find((s) => s.keyWords.includes("last") || s.keyWords.includes("family"));
  const pairs: { sig: Signature; f: Found; score: number }[] = [];
  for (const sig of nameSigs) {
    const cls = nameClass(sig);
    for (const f of turn.found) if (f.value.kind === "name" && !taken.some((t) => overlaps(t, f.span))) pairs.push({ sig, f, score: nameScore(sig, cls, f) + (asked.has(sig.key) ? 1.5 : 0) });
  }
  // A named thing (a service, a repository, an app) is often a slug: "billing-api", "payments_gateway".
  for (const sig of nameSigs) {
    if (nameClass(sig) !== "thing") continue;
    for (const f of turn.found) {
      if (f.value.kind !== "token" || !/^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+$/.test(f.raw) || taken.some((t) => overlaps(t, f.span)) || isKnownWord(f.raw)) continue;
      pairs.push({ sig, f: { ...f, value: { kind: "name", text: f.raw, words: 1 } }, score: 1.2 + 1.5 * cueScore(sig, f.left, f.right, f.near) + (asked.has(sig.key) ? 1.5 : 0) });
    }
  }
  pairs.sort((a, b) => b.score - a.score);
  // No run of capitals fits: a person's name or a title written in lower case after its cue, up to a word
  // that labels another parameter ("named ana lima date of birth…"). ("to" would be a cue for a new title,
  // but it stands before too many other things.)
  for (const sig of nameSigs) {
    const cls = nameClass(sig);
    if (pairs.some((p) => p.sig === sig && p.score >= 1.1)) continue;
    const labels = new Set(sigs.filter((o) => o !== sig).flatMap((o) => o.keyWords));
    // (Not for a parameter just asked for: a bare reply is its value as written, below.)
    const lone = nameSigs.filter((o) => nameClass(o) === "thing" && o.required).length === 1 && sig.required && !asked.has(sig.key);
    const hit = cls === "person" ? phraseAfter(turn, ["named", "called"], taken, 2, 3, false, labels) : cls === "title" ? phraseAfter(turn, ["as"], taken, 1, 3, true, labels) : (phraseEndingIn(sig, turn, taken) ?? (lone && cls === "thing" ? termOfArt(turn, taken, labels) : undefined));
    if (hit) pairs.push({ sig, f: { value: { kind: "name", text: hit.value, words: hit.value.split(/\s+/).length }, span: hit.span, raw: hit.value, left: [], right: [] }, score: 1.2 });
  }
  for (const p of pairs) {
    if (p.score < 1.1 || out.has(p.sig.key) || taken.some((t) => overlaps(t, p.f.span))) continue;
    const name = (p.f.value as { text: string }).text;
    // A first and a last name parameter share one person's name.
    if (first && last && (p.sig === first || p.sig === last) && !out.has(first.key) && !out.has(last.key)) {
      const parts = name.split(/\s+/);
      if (parts.length < 2) continue;
      out.set(first.key, parts[0]);
      out.set(last.key, parts.slice(1).join(" "));
      taken.push(p.f.span);
      continue;
    }
    out.set(p.sig.key, name);
    taken.push(p.f.span);
  }
  // The one required name of a thing nothing named (an event's title): the request's leftover phrase.
  const unnamed = nameSigs.filter((s) => s.required && !out.has(s.key) && !asked.has(s.key));
  if (unnamed.length === 1 && nameClass(unnamed[0]!) !== "person" && !open.some((s) => s.kind === "text" && s.required && !out.has(s.key))) claim(unnamed[0]!.key, leftoverPhrase(turn, taken));
  // Free text: after a cue of speech or reason, else (the one required text field) after the colon.
  const textSigs = open.filter((s) => s.kind === "text" && !out.has(s.key));
  for (const sig of textSigs) claim(sig.key, afterCue(sig, turn, taken));
  // What something is for ("purpose", "occasion"): the phrase after "for" that no other value took.
  for (const sig of textSigs) if (!out.has(sig.key) && sig.keyWords.some((w) => PURPOSE_NOUNS.has(w))) claim(sig.key, phraseAfter(turn, ["for"], taken, 2, 8, true));
  const stillOpen = textSigs.filter((s) => !out.has(s.key) && s.required);
  if (stillOpen.length === 1) claim(stillOpen[0]!.key, afterSeparator(turn, taken) ?? purposeClause(turn, taken) ?? leftoverPhrase(turn, taken));
  // A bare reply to a question about one word-valued parameter is its value.
  const stillAsked = [...asked].filter((k) => !filled.has(k) && !out.has(k));
  // (Not a reply whose words other values took: "3 adults" answers how many and which fare, not the name.)
  const spoken = taken.some((s) => s.end > s.start && s.start < turn.text.length);
  for (const sig of open) {
    if (out.has(sig.key) || !asked.has(sig.key) || stillAsked.length !== 1 || spoken) continue;
    const reply = bareReply(turn);
    if (reply) out.set(sig.key, reply);
  }
  return out;
}
