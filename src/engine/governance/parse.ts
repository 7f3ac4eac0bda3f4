// The policy language's parser: one sentence → one CompiledRule, by finding the sentence's meaning rather
// than matching a phrase. Steps, each over the language layer's tokens (src/engine/language):
//   1. effect: a cue anywhere ("block", "never", "must not", "is forbidden", "wants a manager's sign-off",
//      "must be approved", "only allow", "are allowed only"), the strongest kind winning (approval over
//      block over allow) so "never … without approval" asks for approval;
//   2. scope: "in the finance domain";
//   3. exceptions: what follows "unless", "except", "other than";
//   4. conditions: chunks that start at a marker (when, if, while, whose, with, over, between, on, in, to,
//      per, outside…) read by one reader per kind of meaning (rate, day, clock, e-mail domain, comparison,
//      text, flag, differing fields, equality);
//   5. action: the content words left, as lemmas (verbs, objects), or "any action".
// A chunk no reader understands stays with the action words (a soft description the binder checks against
// the tools), so a rule is never refused for an unknown word; it is refused only when it has no effect or
// nothing to act on, and the answer names the words and suggests a phrasing.
import { LOCAL_ZONE, type ActionSelector, type ActionTerm, type Comparator, type CompiledRule, type Condition, type Effect, type ParseFailure, type ParseResult, type Setting, type Subject, type Value } from "./compiled.ts";
import { FAIL_CLOSED_NOTE } from "./explain.ts";
import { deniedParticiple, isKnownWord, tag } from "../language/nlp.ts";
import { conceptsOf, namesPeople, verbClassOf } from "../language/lemmas.ts";
import { convert, unitOfName } from "../language/units.ts";
import { tokenizeWithSpans, isValue, escapeRegExp, type Token } from "../language/tokens.ts";
import { readFractionWords } from "../language/numbers.ts";
import { isTimeZone, zoneOf } from "../language/zones.ts";
import { countryCode } from "../language/regions.ts";
import { networkOf } from "../language/networks.ts";
import { isKindOf } from "../language/wordnet.ts";

export { isTimeZone };
export const MAX_RULE_LENGTH = 500;

/** A token with its tag and whether a step has placed it. */
interface W {
  t: Token;
  /** Lower-case text for words, "" for values. */
  norm: string;
  lemma: string;
  pos: string;
  used: boolean;
  /** A participle right after a form of "be" or "get" (adverbs and negations aside): "may not be waived". */
  passive?: boolean;
  /** "by" right after a past participle ("flown by"). */
  afterParticiple?: boolean;
}

const wordIs = (w: W | undefined, ...norms: string[]) => !!w && w.t.kind === "word" && norms.includes(w.norm);

// The effect verbs people start a rule with, for reading a misspelt first word ("Rqeuire", "Dney").
const LEADING_EFFECT_VERBS = ["require", "block", "deny", "forbid", "prohibit", "escalate", "disallow", "prevent", "allow", "permit", "never"];

/** Optimal string alignment distance (edits and swaps of neighbours), for short words. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, k) => (i === 0 ? k : k === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let k = 1; k <= b.length; k++) {
      const cost = a[i - 1] === b[k - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![k]! + 1, d[i]![k - 1]! + 1, d[i - 1]![k - 1]! + cost);
      if (i > 1 && k > 1 && a[i - 1] === b[k - 2] && a[i - 2] === b[k - 1]) best = Math.min(best, d[i - 2]![k - 2]! + 1);
      d[i]![k] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** A misspelt effect verb at the start of the rule, read as the verb it is closest to (one edit, two for long verbs). */
function fixLeadingEffect(text: string): string {
  const m = /^\s*([A-Za-z]{4,})\b/.exec(text);
  if (!m) return text;
  const word = m[1]!.toLowerCase();
  // A real word is what it says ("Event tickets …" is not "Prevent tickets …").
  if (LEADING_EFFECT_VERBS.includes(word) || isKnownWord(word)) return text;
  for (const verb of LEADING_EFFECT_VERBS) if (Math.abs(verb.length - word.length) <= 2 && distance(word, verb) <= (verb.length > 5 ? 2 : 1)) return text.replace(m[1]!, verb);
  return text;
}

// Effect words whose letters swapped by a typing slip are read as the word ("apporval", "ecsalated").
const EFFECT_WORDS = [
  "approval", "approved", "approve", "escalate", "escalated", "escalation", "authorization", "authorisation", "authorized", "authorised",
  "forbidden", "prohibited", "prohibit", "permitted", "allowed", "disallowed", "disallow", "blocked", "require", "required", "requires", "sign-off", "signoff", "manager",
];
const sortedLetters = (w: string) => [...w].sort().join("");
const EFFECT_ANAGRAMS = new Map<string, string[]>();
for (const e of EFFECT_WORDS) EFFECT_ANAGRAMS.set(sortedLetters(e), [...(EFFECT_ANAGRAMS.get(sortedLetters(e)) ?? []), e]);

/**
 * An effect word with a typing slip, read as the word: two neighbouring letters swapped ("apporval"), or,
 * in a word no dictionary knows, one letter left out, doubled or mistyped ("aproval", "prohibitted"), when
 * exactly one effect word is that near.
 */
function fixMistypedEffectWords(text: string): string {
  return text.replace(/[A-Za-z-]{6,}/g, (word) => {
    const lower = word.toLowerCase();
    if (EFFECT_WORDS.includes(lower)) return word;
    const swapped = EFFECT_ANAGRAMS.get(sortedLetters(lower))?.find((e) => distance(lower, e) === 1);
    if (swapped) return swapped;
    if (isKnownWord(lower)) return word;
    const near = EFFECT_WORDS.filter((e) => e.length >= 7 && Math.abs(e.length - lower.length) <= 1 && distance(lower, e) === 1);
    return near.length === 1 ? near[0]! : word;
  });
}

// Compounds led by a particle or a prefix ("off-cycle", "non-standard", "re-open"), or ended by one
// ("sign-up", "roll-out"), are words of their own; the others in a verb's place are a manner and a verb.
const NOT_MANNER = /^(?:off|on|in|out|over|under|non|pre|post|cross|multi|same|next|after|up|down|re|co|de|un|self|e|x|back|by|mid|anti|sub|inter|semi|auto)$/;
const PARTICLES = new Set(["up", "out", "off", "in", "on", "down", "over", "back", "away", "through"]);

/**
 * "must never be hard-restarted", "don't force-delete a repo": in a verb's place, a compound of a manner and
 * a verb is the verb done that way ("hard restarted"), so the manner can be read as a value of the call
 * (`mode: hard`) and the verb matched as any other. Only after an auxiliary, a negation, a modal or "to",
 * and after a copula only a participle ("are high-value" says a state).
 */
function verbAfter(lead: string, word: string): boolean {
  // After a copula only a participle ("are high-value" is a state); elsewhere the verb's plain form.
  if (/^(?:be|been|being|is|are|was|were|get|gets)\s/i.test(lead)) return /(?:ed|en|wn)$/.test(word) && tag(["it", "was", word])[2]?.pos === "VERB";
  return tag([word])[0]?.pos === "VERB" || verbClassOf(word) !== undefined || tag(["they", "never", word])[2]?.pos === "VERB";
}

// The effect that follows "and" after a predicate of the thing's own ("… wake the engineer and must be approved").
const AND_EFFECT = /\s*,?\s+and\s+(?=(?:must|needs?|requires?|should|shall|cannot|can't|may\s+not|have\s+to|has\s+to|always\s+(?:need|require)s?)\b)/i;
const NOUN_PHRASE_TAGS = new Set(["DET", "ADJ", "NOUN", "PROPN", "NUM", "ADP", "SYM", "PUNCT", "CCONJ"]);

/**
 * "Emergency callouts (priority p1) wake the on-call engineer and must be approved by …",
 * "Late returns incur a fee and need a supervisor to approve them": a present-tense verb after the thing, and then
 * "and" and the effect, says what such things do, which is why the rule exists, not what it governs. The
 * rule is the thing and the effect. (Not a participle, "orders placed after 5pm and shipped abroad", nor a
 * clause of its own, "orders that …".)
 */
function dropStatedPredicate(text: string): string {
  const m = AND_EFFECT.exec(text);
  if (!m) return text;
  const lead = text.slice(0, m.index);
  if (/\b(?:when|whenever|if|that|which|who|whose|unless|while|where|once)\b|[;:]/i.test(lead)) return text;
  const words = lead.split(/\s+/).filter(Boolean);
  if (words.length < 3 || words.length > 16) return text;
  // (An aside in brackets, "(priority too)", is the thing's own whatever its words: it is left out of the
  // tagging, where it would make the verb after it a noun.)
  let depth = 0;
  const aside = words.map((w) => {
    depth += (w.match(/\(/g) ?? []).length;
    const inside = depth > 0;
    depth -= (w.match(/\)/g) ?? []).length;
    return inside;
  });
  const kept = words.map((_w, i) => i).filter((i) => !aside[i]);
  const tags = tag(kept.map((i) => words[i]!.replace(/^["']+|["',]+$/g, "") || words[i]!));
  // (A word the tagger takes for a noun, "wake", is the verb when a determiner follows it: "callouts wake the
  // on-call engineer".)
  const isVerbAt = (k: number) => tags[k]!.pos === "VERB" || (tags[k]!.pos === "NOUN" && tags[k + 1]?.pos === "DET" && tag(["they", words[kept[k]!]!.toLowerCase()])[1]?.pos === "VERB");
  const at = tags.findIndex((_t, k) => k > 0 && isVerbAt(k));
  if (at < 1) return text;
  const verb = words[kept[at]!]!.toLowerCase();
  if (/(?:ed|en|ing)$/.test(verb) || AUXILIARIES.has(verb)) return text;
  const before = tags.slice(0, at);
  if (!before.some((t) => t.pos === "NOUN" || t.pos === "PROPN") || !before.every((t) => NOUN_PHRASE_TAGS.has(t.pos))) return text;
  return `${words.slice(0, kept[at]).join(" ")} ${text.slice(m.index + m[0].length)}`;
}

function splitMannerCompounds(text: string): string {
  return text.replace(/((?:\b(?:be|been|being|is|are|was|were|get|gets|never|not|to|must|may|shall|should|can|cannot|will)|n't)\s+)([a-z]+)-([a-z]{3,})\b/gi, (m, lead: string, manner: string, verb: string) =>
    NOT_MANNER.test(manner.toLowerCase()) || PARTICLES.has(verb.toLowerCase()) || !verbAfter(lead, verb.toLowerCase()) ? m : `${lead}${manner} ${verb}`,
  );
}

// A length of time just past, after a thing done (analyze reads it as the thing's age).
const RECENT = String.raw`\s+(?:in|within|during|over)\s+the\s+(?:last|past|previous|preceding)\s+(\d+|[a-z]+)\s+(minutes?|hours?|days?|weeks?|months?|years?)\b`;
const RECENT_HAD = new RegExp(String.raw`\b(that|which|who|if\s+(?:it|they|he|she)|when\s+(?:it|they|he|she))\s+(?:(?:has|have|had)\s+(?:been\s+)?(?:(?:had|received|given|undergone|got|taken)\s+)?|(?:received|had|got|took|underwent|(?:was|were)\s+given)\s+)(?:(?:a|an|the|its|their|any)\s+)?([a-z][a-z -]{2,40}?(?:\s*\([^)]{1,40}\))?)${RECENT}`, "gi");
const RECENT_DONE = new RegExp(String.raw`\b([a-z]{3,}ed)${RECENT}`, "gi");

const USED_FOR = /^(\s*(?:[a-z][\w-]*\s+){0,3}?(?:never|(?:do|does|must|may|should|shall|can)\s*(?:not|n't)|don't|doesn't|mustn't|cannot|can't)\s+)use\s+((?:(?:the|a|an|our|any|their|its)\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+for\s+(?!(?:more|less|longer|over|under|up|at|no|any|anything|longer)\b|\d)([^;]+)$/i;
function analyze(text: string): W[] {
  text = fixMistypedEffectWords(fixLeadingEffect(text));
  // "sign-off", "sign off", "signoff": one approval noun for the cues below.
  // "deletions of any kind", "exports of every sort", "… whatsoever": a quantifier over the action, which
  // says no more than the action does.
  text = text.replace(/\s+(?:of|in)\s+(?:any|every|all)\s+(?:kinds?|sorts?|types?|forms?)\b/gi, "").replace(/\s+whatsoever\b/gi, "");
  // "…, no exceptions", "without exception": emphasis, which says no more than the rule does.
  text = text.replace(/,?\s*\b(?:with\s+)?no\s+exceptions?\b|,?\s*\bwithout\s+(?:any\s+)?exceptions?\b/gi, "");
  // "unless it's an emergency": "it is" (never a possessive: that is "its").
  text = text.replace(/\b(it|that|there)['’]s\b/gi, "$1 is");
  // "unless the pre-auth has come back approved", "if the check hasn't come back clear": a result that comes
  // back so is in that state ("is approved", "is not clear").
  text = text.replace(/\b(?:has|have)\s+(?:already\s+)?come\s+back\s+(?=[a-z])/gi, "is ").replace(/\b(?:hasn['’]t|has\s+not|haven['’]t|have\s+not)\s+(?:yet\s+)?come\s+back\s+(?=[a-z])/gi, "is not ").replace(/\bcomes\s+back\s+(?=(?:as\s+)?[a-z]+\b)/gi, "is ");
  // "OK'd", "OK’d": okayed, as the approval words know it.
  text = text.replace(/\bok['’]d\b/gi, "okayed");
  // "No one may …": nobody may.
  text = text.replace(/\bno[\s-]+one\b/gi, "nobody");
  // "On bank holidays nobody runs the mixer": a leading time or place, then the negated subject, as if a
  // comma stood between them (the place or time is the rule's condition, not its action).
  text = text.replace(/^(\s*(?:on|during|at|in|after|before|over)\s+[^,.;:()]+?)\s+(nobody|nothing)\b/i, "$1, $2");
  // "Under no circumstances …", "At no time …", "In no case …": never.
  text = text.replace(/\b(?:under\s+no\s+circumstances?|at\s+no\s+(?:time|point)|in\s+no\s+(?:case|event))\b,?/gi, "never");
  // "Never may backups be deleted" (the inverted order that follows such an opening): "backups must never be deleted".
  text = text.replace(/^\s*never\s+(?:may|can|shall|should|must|will)\s+(.+?)\s+be\s+/i, "$1 must never be ");
  // "Under no circumstances is a mission planned with …" (read "never is a mission planned …"): "a mission
  // is never planned with …". The participle is the first word after the subject that the tagger reads as one.
  const inverted = /^\s*never\s+(is|are|was|were)\s+(.+)$/i.exec(text);
  if (inverted) {
    const words = inverted[2]!.split(/\s+/);
    const at = words.findIndex((w, k) => k > 0 && k <= 10 && /^[a-z]+(?:ed|en|wn|t|d)$/i.test(w) && ((t) => t?.pos === "VERB" && t.lemma !== w.toLowerCase())(tag(["it", "was", w.toLowerCase()])[2]));
    if (at > 0) text = `${words.slice(0, at).join(" ")} ${inverted[1]} never ${words.slice(at).join(" ")}`;
  }
  // "… more than 3 a day to any one patient", "for a single employee": in a count per window, the one party
  // the count is kept for, as "the same" says it.
  if (/\b(?:per|an?|each|every|in|within)\s+(?:[\d.]+\s+)?(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b/i.test(text)) {
    text = text.replace(/\b(of|for|to|from|on|with|against)\s+(?:any|a|each)\s+(?:single|individual|one)\s+(?=[a-z])/gi, "$1 the same ");
  }
  // "Any single fuel order", "each individual refund": every one of them, which "any" says already.
  text = text.replace(/\b(any|each|every|a|no)\s+(?:single|individual|one)\s+(?=[a-z])/gi, "$1 ");
  // "must not be left unheated", "left running overnight": what is left so is what is done to it.
  text = text.replace(/\b(be|being|been|is|are|get|gets)\s+left\s+(?=[a-z]+(?:ed|en)\b)/gi, "$1 ");
  // "… must approve the order first", "… signed off beforehand": when the approval comes, which an
  // approval always does (before the action), so no word of the action.
  text = text.replace(/\s+(?:first|beforehand|in\s+advance|ahead\s+of\s+time)(?=\s*(?:[.,;(]|$))/gi, "");
  // "… needs the owner's approval before it is raised": the same, said of the action by a pronoun.
  if (/\b(?:approv\w*|sign[\s-]*off|consent|authori[sz]\w*|review|ok(?:ay)?(?:ed|'d)?|check(?:ed)?\s+off|sign(?:ed|s)?\s+(?:it|them)\s+off)\b/i.test(text)) {
    // ("before it's loaded", "before they're shipped": said in full, as the readers below know it.)
    text = text.replace(/\bbefore\s+(it|they)[’'](s|re)\b/gi, (_m, who: string, be: string) => `before ${who} ${be.toLowerCase() === "s" ? "is" : "are"}`);
    text = text.replace(/\s+before\s+(?:it|they|this|these|one)\s+(?:is|are|gets?|can\s+be|may\s+be)\s+[a-z]+(?=\s*(?:[.,;(]|$))/gi, "");
    // ("… before it goes to the printer", "before they go ahead", "before it starts": a verb of happening
    // says only that the action happens, wherever it goes.)
    // ("… before the claim goes in", "before the job goes through": the action named by its own noun.)
    text = text.replace(/\s+before\s+(?:it|they|this|these|one|the\s+[a-z]+)\s+(?:goes|go|proceeds?|starts?|begins?|happens?|takes?\s+place)\b[^.;,()]*/gi, "");
  }
  // "no wash cycle gets started": a passive said with "get" under a negated subject forbids it as
  // "may be" does.
  text = text.replace(/\b(no|nothing|nobody)\b([^.;,:()]*?)\s+gets\s+(?=[a-z]{3,}(?:ed|en)\b)/gi, "$1$2 may be ");
  // "Bay 2 is only 10 m deep, so nothing over 8 m goes in it": a reason about a thing, then what never
  // happens in it; the pronoun's place is the thing the reason names ("… goes in Bay 2").
  // (A decimal point is no sentence's end: "only 4.5 m deep".)
  text = text.replace(/^\s*((?:[^,;.]|\.\d)+?)\s+(?:is|are)\s+(?:[^,;.]|\.\d)+?,?\s+so\s+((?:nothing|nobody|no\s+[a-z]+)\b(?:[^.;]|\.\d)*?)\s+(in|on|at|into|onto|to|through)\s+(?:it|them)(?=\s*(?:[.,;!]|$))/i, "$2 $3 $1");
  // "… gets started in it", "… may be stored there": a place said by a pronoun for the thing the conditions
  // name (which they read already).
  // (Not after a copula: "while any skaters are on it" says where they are.)
  text = text.replace(/(?<!\b(?:is|are|was|were|be|been|being|still))\s+(?:in|on|at|into|inside|within|from)\s+(?:it|them|there)(?=\s*(?:[.,;!]|$))/gi, "");
  // "shut down the fan", "call off the sailing": a verb and its particle that the lexicon writes joined
  // ("shutdown", "calloff") name that operation, not the verb's own ("shut" alone is closing).
  // (Not a participle that says a thing's state, "with MFA switched off": only after "be" or as a verb.)
  text = text.replace(/(?:\b([a-z]{2,})\s+)?\b([a-z]{2,})\s+(up|out|off|down|back|over)\b/gi, (m, before: string | undefined, verb: string, particle: string) => {
    if (/ed$/i.test(verb) && !/^(?:be|been|being|is|are|was|were|get|gets|got)$/i.test(before ?? "")) return m;
    const lemma = tag(["they", verb.toLowerCase()])[1]?.lemma ?? verb.toLowerCase();
    const joined = `${lemma}${particle.toLowerCase()}`;
    // (Not "switch off", "turn off": their particle is also the state a tool sets, `state: off`, which the
    // words as they are still read.)
    const joinedClass = verbClassOf(joined);
    return joinedClass !== undefined && joinedClass !== "disable" && joinedClass !== verbClassOf(lemma) ? `${before ? `${before} ` : ""}${joined}` : m;
  });
  // "to client addresses at example.org or example.net": whose addresses they are is said by the domains
  // that follow, as "example.org or example.net addresses" says it.
  text = text.replace(/\b(?:(?:client|customer|customers'?|company|our|their|work|staff|partner)\s+)?(?:e-?mail\s+)?(?:addresses|emails|e-mails|inboxes|mailboxes)\s+(?:at|on|in|@)\s*([\w-]+(?:\.[\w-]+)+(?:\s*(?:,|or|and|,\s*or)\s*@?[\w-]+(?:\.[\w-]+)+)*)/gi, (_m, domains: string) => `${domains} addresses`);
  // "a caller who's outside the team": "who's" before a negation or a place is "who is".
  text = text.replace(/\bwho[’']s\s+(?=(?:not|never|on|in|under|over|below|above|outside|from|a|an|the)\b)/gi, "who is ");
  text = dropStatedPredicate(text);
  text = dayRangesOn(text);
  // "Ensure that …", "Make sure …": the rule itself follows.
  text = text.replace(/^\s*(?:please\s+)?(?:ensure|make\s+sure|see\s+to\s+it)\s+(?:that\s+)?/i, "");
  // "needs the chief engineer to sign it off", "… to sign them off": the same as signing off, the pronoun
  // being the action.
  text = text.replace(/\bsign(s|ed|ing)?\s+(?:it|them|this|these|that|those)\s+off\b/gi, "sign$1 off");
  // "capped at five in any rolling 12-hour period", "no more than 3 within any 7-day window": a count per
  // that length of time, as "per 24 hours" says it.
  text = text.replace(/\b(?:in|within|over|during)\s+(?:any|a|each|every|one|the\s+same)\s+(?:given\s+)?(?:rolling\s+|sliding\s+|consecutive\s+|single\s+)?(\d+|[a-z]+)[-\s](second|minute|hour|day|week|month|year)s?\s+(?:period|window|span|timeframe|time\s+frame|interval|stretch)\b/gi, (_m, n: string, unit: string) => `per ${n} ${unit}s`);
  // Idioms of a second person's check: "another set of eyes", "an extra pair of eyes", "the four-eyes
  // principle", "two-person review", "dual control": a review by someone else.
  text = text.replace(/\b(?:an?\s+|the\s+)?(?:second|another|extra|additional|fresh|independent|2nd)\s+(?:pair|set)\s+of\s+eyes\b/gi, "a second review");
  text = text.replace(/\b(?:the\s+)?(?:four|4|two|2)[\s-]+(?:eyes?|persons?|man|people)(?:\s+(?:principle|rule|check|control|review|approval|sign[\s-]*off))?\b|\bdual[\s-]+control\b/gi, "a second review");
  // "Per policy HR-7:", "Per the travel policy,", "As per section 4.2 —": where the rule comes from, which
  // is no part of it.
  text = text.replace(/^\s*(?:as\s+)?(?:per|under|according\s+to|in\s+line\s+with)\s+(?:the\s+|our\s+)?[\w ./-]{0,40}?(?:policy|section|rule|standard|guideline|regulation|clause|sop)(?:\s+[\w./-]+)?\s*[:,—–-]\s*/i, "");
  // "purchases totalling more than …", "orders amounting to over …": the word before a comparison only
  // introduces it.
  text = text.replace(/\b(?:totall?ing|amounting\s+to|adding\s+up\s+to|coming\s+to|summing\s+to)\s+(?=(?:more|less|fewer|over|above|under|below|at|in\s+excess|upwards|no\s+more|not\s+more|greater|higher|lower)\b)/gi, "");
  // "250 CHF a night", "$40 per seat", "20 hours a week": the unit a price or a time is counted in, which the
  // argument compared with is counted in too (a nightly rate, weekly hours).
  // (A sum of money per day or per month is a total over many actions, which this does not read: left as is.)
  text = text
    .replace(/((?:[$€£¥]\s?[\d.,]+\s?[km]?|[\d.,]+\s?[km]?\s?(?:[A-Z]{3}|dollars?|euros?|pounds?|francs?|yen)))\s+(?:a|an|per|each|every)\s+(?:night|person|head|seat|unit|item|guest|stay|ticket|room)\b/g, "$1")
    .replace(/(\b\d[\d.,]*\s+(?:hours?|hrs?|minutes?|mins?|days?|shifts?))\s+(?:a|per|each|every|in\s+a|in\s+any|in\s+one)\s+(?:day|week|month|year|shift|fortnight)\b/g, "$1");
  // "any change to firewall rules", "changes to a user's role": changing them.
  text = text.replace(/\b(?:any\s+|all\s+)?(?:changes?|modifications?|edits?|updates?|alterations?)\s+(?:to|of)\s+(?=\w)/gi, "changing ");
  // Switching something off or on: "turn off MFA" disables it, "switch on debug mode" enables it.
  // (Not a participle of state: "with auto-renew switched off" is a yes/no condition, read below.)
  text = text.replace(/\b(?:turn(?:s|ing)?|switch(?:es|ing)?|shut(?:s|ting)?)\s+off\b/gi, "disable").replace(/\b(?:turn(?:s|ing)?|switch(?:es|ing)?)\s+on\b/gi, "enable");
  // "… between 22:00 and 05:30 because of the access road", "…, due to noise complaints": after a time or
  // an amount, or set off by a comma, at the end, the cause says why the rule is, no part of it.
  text = text.replace(/(?:(?<=\d(?:\s?(?:am|pm|[a-z%]{1,5}))?)|\s*,)\s+(?:because\s+of|due\s+to|owing\s+to|on\s+account\s+of)\s+[^,;.]+$/i, "");
  // "on grounds of fraud", "by reason of illness", "because of a dispute": what it is for.
  text = text.replace(/\b(?:on\s+(?:the\s+)?grounds?\s+of|by\s+reason\s+of|for\s+reasons?\s+of|because\s+of|due\s+to|owing\s+to)\s+/gi, "for ");
  // "if they are carried out in the payroll domain", "any call performed in the HR domain": the doing itself, said
  // of the action before its scope, is no condition of it.
  text = text.replace(/\b(?:(?:if|when|whenever|where)\s+(?:it|they)\s+(?:is|are|gets?)\s+)?(taken|done|performed|made|carried\s+out|executed|run|requested|initiated|triggered|undertaken)\s+(?=(?:in|within|inside|for)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,2}\s+domains?\b)/gi, (m, _p, offset: number, whole: string) => (/\b(?:actions?|anything|operations?|calls?|requests?|steps?)\s+$/i.test(whole.slice(0, offset)) || /^(?:if|when|whenever|where)\b/i.test(m) ? "" : m));
  // "when the telescope is in safe mode", "while the press is in a cleaning state": the thing's mode is
  // that value ("the telescope mode is safe").
  text = text.replace(/\b([a-z][\w-]*)\s+(is|are|isn't|aren't|is\s+not|are\s+not)\s+in\s+(?:a\s+|an\s+|the\s+|its\s+|their\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(mode|state|status|phase|stage)\b/gi, "$1 $4 $2 $3");
  // "once a return is 60 days old", "when the unit turns 5 years old": an age reached is that age or more.
  text = text.replace(/\b(is|are|becomes|become|turns|turn|gets|get)\s+(?!more\b|less\b|over\b|under\b|above\b|below\b|at\b|no\b|not\b|older\b|younger\b|exactly\b)([\w.,-]+(?:\s+and\s+a\s+half)?\s+(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\s+old)\b(?!\s+or\b)/gi, "$1 at least $2");
  // "Block the third export within an hour", "the 4th upload in a day": the nth in a window is a count over n - 1.
  text = text.replace(/\bthe\s+(second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\d+(?:st|nd|rd|th))\s+(.+?)\s+(?=(?:with)?in\s+(?:an?|one|any|the\s+same|\d+)\s|per\s|each\s|a\s+(?:second|minute|hour|day|week|month|year)\b|an\s+hour\b)/gi, (m, nth: string, what: string) => {
    const n = /^\d/.test(nth) ? parseInt(nth, 10) : ["second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"].indexOf(nth.toLowerCase()) + 2;
    return n >= 2 ? `more than ${n - 1} ${what} ` : m;
  });
  // "at most twice per hour", "more than once": a number of times.
  text = text.replace(/\b(more\s+than|at\s+most|up\s+to|no\s+more\s+than|not\s+more\s+than|fewer\s+than|less\s+than|at\s+least)\s+(once|twice|thrice)\b/gi, (_m, bound: string, n: string) => `${bound} ${{ once: 1, twice: 2, thrice: 3 }[n.toLowerCase() as "once"]} times`);
  // "until the supervisor has checked the seal", "until its permit is renewed": a state the action waits for
  // is one it is blocked without, "unless" it holds. (Not a time: "until 9am" is read by the clock readers.)
  text = text.replace(/\buntil\s+(?=(?:the|a|an|its|their|his|her)\s+(?:[a-z][\w-]*\s+){1,5}?(?:has|have|is|are|was|were)\s+(?:been\s+|now\s+|fully\s+)?[a-z]+(?:ed|en|wn|t|d)\b)/gi, "unless ");
  // "has not yet passed", "haven't yet signed": "yet" says when, not what state.
  text = text.replace(/\b(not|n't|never)\s+yet\b/gi, "$1");
  // "unless the horse has had a worming dose in the last 10 days", "dogs that have been vaccinated in the past 3 days",
  // "plants sprayed within the last 48 hours": a thing done recently is a thing whose age is under that
  // length, read as "whose last … is less than 7 days old" (the age of its time, or a "…_since_…" count).
  text = text.replace(RECENT_HAD, (_m, lead: string, thing: string, n: string, unit: string) => `${/^(?:that|which|who)$/i.test(lead) ? "whose" : `${lead.split(/\s+/)[0]} its`} last ${thing} is less than ${n} ${unit} old`);
  text = text.replace(RECENT_DONE, (_m, done: string, n: string, unit: string) => `whose last ${done} is less than ${n} ${unit} old`);
  // "class 1 or class 7", "zone A, zone B or zone C": a list that repeats its attribute before each value
  // is one attribute and its values ("class 1 or 7"), as the value readers read lists.
  for (let before = ""; before !== text; ) {
    before = text;
    text = text.replace(/\b([a-z]{3,})\s+((?:[A-Za-z0-9][\w.-]*(?:\s*,\s*|\s+(?:or|and)\s+))+)\1\s+(?=[A-Za-z0-9])/gi, (m, attribute: string, values: string) => (/^(?:(?:\d[\w.-]*|[A-Z])(?:\s*,\s*|\s+(?:or|and)\s+))+$/.test(values) ? `${attribute} ${values}` : m));
  }
  // "any attempt to share …", "trying to delete …": the attempt is the action.
  text = text.replace(/\b(?:attempts?|tries|trying)\s+to\s+/gi, "");
  // "Never use the pool van for airport runs", "Don't use the freight lift for passengers": what it is used
  // for is what is done, and the thing used its means ("… airport runs via the pool van"). (Not a length of
  // time: "use the crane for more than 2 hours".)
  text = text.replace(USED_FOR, (_m, lead: string, thing: string, rest: string) => `${lead}allow ${rest.replace(/[.!]?\s*$/, "")} via ${thing}`);
  text = splitMannerCompounds(text);
  const prepared = text.replace(/\bsign[\s-]+off\b/gi, "signoff").replace(/\bread[\s-]+only\b/gi, "readonly").replace(/\bgo[\s-]+ahead\b/gi, "goahead");
  const { tokens, spans } = tokenizeWithSpans(prepared);
  // The words as written, case kept (a capital "A" may be a value, below).
  const written = spans.map((sp) => prepared.slice(sp.start, sp.end));
  const words = tokens.map((t) => (t.kind === "word" ? t.norm : t.kind === "punct" ? t.text : "5"));
  const tags = tag(words);
  const ws: W[] = tokens.map((t, i) => ({
    t,
    norm: t.kind === "word" ? t.norm : "",
    lemma: t.kind === "word" ? (tags[i]?.lemma ?? t.norm) : "",
    pos: t.kind === "word" ? (tags[i]?.pos ?? "X") : t.kind === "punct" ? "PUNCT" : "NUM",
    used: false,
  }));
  // "zone A or B", "when the grade is A", "in zone A": a capital A after a noun or a copula, where no noun
  // follows it, is a value, not the article (which always has its noun after it). Its norm keeps the
  // capital, so no reader takes it for "a".
  // Other capital letters ("zone C", "Studio B sessions", "class C or D airspace") are values in the same
  // places, whatever follows (no article is spelt B); so is an "A" between two nouns ("Studio A sessions":
  // an article never follows its noun), unless every word is capitalised (a title).
  const capitals = written.filter((x, k) => tokens[k]!.kind === "word" && /^[A-Z][a-z]/.test(x)).length;
  const titled = capitals >= 4 && capitals > written.filter((_, k) => tokens[k]!.kind === "word").length / 2;
  for (let k = 1; k < ws.length; k++) {
    const w = ws[k]!;
    const letter = written[k] ?? "";
    if (w.t.kind !== "word" || !/^[A-HJ-Z]$/.test(letter)) continue;
    const before = ws[k - 1]!;
    const after = ws[k + 1];
    const listed = (x: W | undefined) => x !== undefined && x.t.kind === "word" && /^[A-Z]$/.test(written[ws.indexOf(x)] ?? "");
    const valuePlace = (before.t.kind === "word" && (["NOUN", "PROPN"].includes(before.pos) || wordIs(before, "is", "are", "be", "was", "were") || (LIST_SEPARATORS.has(before.norm) && listed(ws[k - 2])))) || (before.t.kind === "punct" && before.t.text === "," && listed(ws[k - 2]));
    const nothingNamed = !after || after.t.kind !== "word" || LIST_SEPARATORS.has(after.norm) || listed(after) || CONDITION_MARKERS.has(after.norm) || MODALS.has(after.norm) || wordIs(after, "is", "are", "need", "needs", "require", "requires", "must");
    const betweenNouns = before.t.kind === "word" && ["NOUN", "PROPN"].includes(before.pos) && after?.t.kind === "word" && ["NOUN", "PROPN"].includes(after.pos) && !titled;
    // ("deliveries to zone C": after "to" the tagger may take the noun for a verb's infinitive.)
    const namedAfterTo = (letter !== "A" || nothingNamed) && before.pos === "VERB" && before.lemma === before.norm && wordIs(ws[k - 2], "to", "in", "at", "from", "into");
    if (namedAfterTo) before.pos = "NOUN";
    if ((valuePlace || namedAfterTo) && (letter !== "A" || nothingNamed || betweenNouns)) {
      w.norm = letter;
      w.lemma = letter;
      w.pos = "PROPN";
    }
  }
  // "orders must not ship", "drones may never fly": after a modal (and its negation) a base form is a verb,
  // which the tagger may take for the noun spelt the same.
  for (let k = 1; k < ws.length; k++) {
    const w = ws[k]!;
    if (w.t.kind !== "word" || w.pos !== "NOUN" || w.norm !== w.lemma) continue;
    let j = k - 1;
    while (j > 0 && wordIs(ws[j], "not", "never", "ever", "only")) j--;
    if (MODALS.has(ws[j]!.norm) && !MODALS.has(w.norm) && tag(["to", w.norm])[1]?.pos === "VERB") w.pos = "VERB";
  }
  for (let k = 1; k < ws.length; k++) {
    const w = ws[k]!;
    // (A tagger may call such a participle an adjective: "waived", "voided".)
    if (w.pos !== "VERB" && !(w.pos === "ADJ" && /(?:ed|en)$/.test(w.norm))) continue;
    let j = k - 1;
    while (j >= 0 && (ws[j]!.pos === "ADV" || NEGATORS.has(ws[j]!.norm)) && !wordIs(ws[j], "be", "been")) j--;
    if (j >= 0 && wordIs(ws[j], "be", "been", "being", "is", "are", "was", "were", "get", "gets", "got")) w.passive = true;
  }
  // "flown by helicopter": a "by" after a participle may name the means (see readMeans), which readers of a
  // part of the sentence that starts at "by" cannot see.
  // (The tagger may call a participle of a verb class an adjective: "paid".)
  const participle = (w: W) => (w.pos === "VERB" && isPastParticiple(w)) || (w.pos === "ADJ" && /(?:ed|id|en|wn)$/.test(w.norm) && verbClassOf(w.norm) !== undefined);
  // ("shipping queens by post", "never pay suppliers by cheque": so may a "by" after the object of a verb.)
  const afterObject = (k: number) => {
    let j = k - 1;
    if (ws[j]?.pos !== "NOUN") return false;
    while (j > 0 && k - j <= 4 && ["NOUN", "ADJ", "DET"].includes(ws[j]!.pos)) j--;
    return ws[j]?.pos === "VERB" && !isPastParticiple(ws[j]!) && !wordIs(ws[j], "be", "is", "are", "been");
  };
  for (let k = 1; k < ws.length; k++) if (wordIs(ws[k], "by") && (participle(ws[k - 1]!) || afterObject(k))) ws[k]!.afterParticiple = true;
  return ws;
}

// ---------------------------------------------------------------------------------------------------
// 1. Effect

// A title of someone in the organisation: an agent noun ("director", "producer", "controller") or a head.
const APPROVER_TITLE = /(?:er|or|ist|ant|ent|head|chief|team|desk|board|committee)$/;

/** An approving verb at k: "approved", "approves", "signs" (off), "has given approval". */
const approvingAt = (ws: W[], k: number) => k < ws.length && (APPROVAL_PARTICIPLES.has(ws[k]!.norm) || ["approve", "approves", "signs", "sign", "reviews", "review", "confirms", "confirm", "okays", "oks", "authorizes", "authorises", "signoff", "approval"].includes(ws[k]!.norm));

const BLOCK_VERBS = new Set(["block", "deny", "forbid", "prohibit", "disallow", "reject", "prevent", "stop", "refuse", "ban", "bar", "veto", "halt", "refrain", "avoid"]);
const BLOCK_PARTICIPLES = new Set(["forbidden", "prohibited", "blocked", "banned", "denied", "disallowed", "barred", "rejected", "prevented", "refused", "vetoed", "off-limits", "frozen", "embargoed", "suspended"]);
// Phrasal participles that refuse what they name: "must be turned down", "are knocked back", "are off limits".
const BLOCK_PHRASALS: Readonly<Record<string, readonly string[]>> = { turned: ["away", "down", "back"], knocked: ["back"], sent: ["away"], off: ["limits", "limit"] };
const blockPhrasalAt = (ws: W[], i: number) => BLOCK_PHRASALS[ws[i]!.norm]?.includes(ws[i + 1]?.norm ?? "") === true && wordIs(ws[i - 1], "be", "is", "are", "been", "being", "get", "gets", "getting");
const APPROVAL_NOUNS = new Set([
  "approval", "approvals", "sign-off", "signoff", "review", "confirmation", "authorization", "authorisation", "consent", "escalation",
  "human", "person", "manager", "approver", "reviewer", "supervisor", "admin", "administrator", "someone", "owner", "lead", "operator", "officer",
  "oversight", "check", "ok", "okay", "goahead", "permission",
]);
// The approval itself, as opposed to who gives it.
const APPROVAL_ACTS = new Set(["approval", "approvals", "sign-off", "signoff", "review", "confirmation", "consent", "permission", "authorization", "authorisation", "goahead"]);
const APPROVAL_PARTICIPLES = new Set(["approved", "reviewed", "escalated", "confirmed", "authorized", "authorised", "signed", "vetted", "checked", "sanctioned", "cleared", "verified", "validated", "countersigned", "double-checked", "okayed", "greenlit", "endorsed", "ratified"]);
// Verbs a person approves with, after "needs someone to …": "needs a director to okay it".
const APPROVING_VERBS = new Set(["approve", "signoff", "review", "authorize", "authorise", "okay", "ok", "vet", "confirm", "sanction", "clear", "verify", "validate", "countersign", "endorse", "ratify", "greenlight"]);
// Participles that send an action on to someone: with "for approval" or "to <approver>" they ask for approval.
const ROUTING_PARTICIPLES = new Set(["referred", "routed", "sent", "forwarded", "passed", "handed", "submitted", "held", "flagged", "queued", "parked", "escalated", "put", "brought", "taken"]);
// Participles that say what a thing holds ("files containing card numbers"): read as conditions of their own.
const HOLDING_PARTICIPLES = new Set(["containing", "including", "holding", "mentioning", "listing", "carrying", "having"]);
// Participles of light verbs: "may be made", "may be processed" name no operation of their own.
// Nouns of action of money going out ("refund", "payout", "transfer"): such a thing "is paid" when it is made.
const MONEY_OUT_CLASSES = ["refund", "pay", "transfer"];
const LIGHT_PARTICIPLES = new Set(["made", "processed", "issued", "performed", "done", "handled", "carried", "conducted", "submitted", "initiated", "placed", "executed", "completed", "undertaken"]);
// Verbs that send an action to its approver: with an approval cue elsewhere they are effect words.
const ROUTING_VERBS = new Set(["hold", "route", "flag", "refer", "queue", "park", "pause", "divert", "redirect", "hand", "pass"]);
// Verbs that are operations of their own ("send invoices") and route the action only when the sentence says
// to whom or for what: "send every action … to a person for approval", "submit payouts for review".
const ROUTING_SENDS = new Set(["send", "forward", "submit", "escalate"]);
const routesToApprover = (ws: W[], from: number) => ws.some((x, k) => k > from && ((wordIs(x, "for") && APPROVAL_ACTS.has(ws[actAt(ws, k + 1)]?.norm ?? "")) || (wordIs(x, "to") && APPROVAL_NOUNS.has(ws[wordIs(ws[k + 1], "a", "an", "the") ? k + 2 : k + 1]?.norm ?? ""))));
const routes = (ws: W[], k: number) => ROUTING_VERBS.has(ws[k]!.norm) || (ROUTING_SENDS.has(ws[k]!.norm) && routesToApprover(ws, k));
const NEED_LEMMAS = new Set(["require", "need", "get", "ask", "seek", "request", "obtain", "have", "want"]);
// Words that say a check or document is in force: "a valid licence check", "a current DBS certificate".
const VALIDITY_WORDS = new Set(["valid", "current", "in-date", "up-to-date", "unexpired", "completed", "passed", "successful", "satisfactory", "clean", "clear"]);
/**
 * "without a valid licence check", "without a background check": after "without", a check said to be in
 * force, or named by the thing it checks, is a state of the record the action carries (a yes/no fact), not
 * a person's approval ("without a manager's check", "without legal review" stay approvals).
 */
function recordedCheck(ws: W[], from: number, noun: number): boolean {
  const between = ws.slice(from, noun);
  if (between.some((x) => VALIDITY_WORDS.has(x.norm))) return true;
  const before = ws[noun - 1];
  return wordIs(ws[noun], "check", "checks") && noun > from && !!before && ["NOUN", "PROPN"].includes(before.pos) && !APPROVAL_NOUNS.has(before.norm) && !/'s?$/.test(before.norm);
}
const NEGATORS = new Set(["not", "n't", "never", "no", "cannot", "can't", "won't", "don't", "doesn't", "mustn't", "shouldn't", "shan't", "isn't", "aren't"]);
// Participles that say where someone lives or is: what follows "in" is a place of theirs.
// A past participle as written ("purchased", "damaged"), before its noun a modifier of it.
const PAST_PARTICIPLE = /[a-z]{3}ed$/;
const PLACE_PARTICIPLES = new Set(["residing", "resident", "living", "based", "located", "domiciled", "headquartered", "registered", "situated", "established"]);
// Nouns that name a grade or a kind of a thing, whose value follows them ("of priority urgent", "of type proforma").
const GRADE_NOUNS = new Set(["type", "kind", "class", "category", "priority", "severity", "grade", "tier", "level", "status", "band", "size", "model", "variant"]);
// A value written as a code: a number, a digit or an underscore in it, or a capital letter ("p1", "3", "B").
const writtenAsCode = (w: W) => w.t.kind !== "word" || /[\d_]/.test(w.norm) || /^[A-Z]$/.test(w.norm);
// Where the things named are going: "documents headed to …", "cargo bound for …", "passengers travelling to …".
const GOING_PARTICIPLES = new Set(["headed", "heading", "bound", "destined", "going", "travelling", "traveling", "addressed"]);
const MODALS = new Set(["must", "may", "can", "shall", "should", "will", "could", "might", "would", "cannot", "can't", "mustn't", "shouldn't", "won't"]);
// Verbs that only help another: the modals, and the copulas and "have", "do", "get".
const AUXILIARIES = new Set([...MODALS, "is", "are", "was", "were", "be", "has", "have", "had", "do", "does", "did", "get", "gets"]);
const ALLOW_WORDS = new Set(["allow", "permit", "allowed", "permitted", "fine", "ok", "okay", "acceptable", "auto-approve", "auto-approved"]);

interface EffectCue {
  effect: Effect | "only_allow";
  /** Token indices the cue consumed. */
  span: number[];
  /** Where the cue starts: an effect after the action ("refunds are forbidden") leaves the action before it. */
  at: number;
  /** The verb of a negated subject ("Nothing over 20 kg ships …"): the action, whatever stands between. */
  verb?: number;
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let i = a; i < b; i++) out.push(i);
  return out;
}

const POSSESSIVES = new Set(["your", "their", "our", "his", "her", "its", "my"]);
const isModifier = (w: W | undefined) => !!w && w.t.kind === "word" && (["DET", "ADJ", "NOUN", "PROPN"].includes(w.pos) || POSSESSIVES.has(w.norm) || /'s?$/.test(w.norm));

/** The approver named from `j` on, after its determiner and modifiers ("a manager", "your duty officer"). */
function approverAt(ws: W[], j: number): number {
  for (let k = j; k < Math.min(ws.length, j + 4); k++) {
    if (APPROVAL_NOUNS.has(ws[k]!.norm) && !APPROVAL_NOUNS.has(ws[k + 1]?.norm ?? "")) return k;
    if (!isModifier(ws[k]) && !gradesPost(ws, k)) break;
  }
  return j;
}

/** "the managing editor", "an acting director", "the supervising nurse": a word in -ing before a post's noun. */
const gradesPost = (ws: W[], k: number) => ws[k]?.pos === "VERB" && /[a-z]{3}ing$/.test(ws[k]!.norm) && (["NOUN", "PROPN"].includes(ws[k + 1]?.pos ?? "") || /'s?$/.test(ws[k + 1]?.norm ?? "")) && k > 0 && isModifier(ws[k - 1]);

/** The approval act named from `j` on, after who gives it ("a manager's sign-off", "human review"). */
function actAt(ws: W[], j: number): number {
  for (let k = j; k < Math.min(ws.length, j + 4); k++) {
    if (APPROVAL_ACTS.has(ws[k]!.norm)) return k;
    if (!isModifier(ws[k]) && !APPROVAL_NOUNS.has(ws[k]!.norm) && !gradesPost(ws, k)) break;
  }
  return j;
}

/** Every effect cue in the clause, in order of appearance. */
function effectCues(ws: W[]): EffectCue[] {
  const cues: EffectCue[] = [];
  const n = ws.length;
  for (let i = 0; i < n; i++) {
    const w = ws[i]!;
    if (w.t.kind !== "word") continue;
    // Who approves, then the approval verb, then the action: "A manager must approve every refund over
    // $100", "Legal has to sign off on contracts", "Someone from finance needs to review purchase orders".
    // (Not a negative modal: "Trainees cannot approve invoices" forbids approving them.)
    // (The approver may also open the main clause after a leading condition: "Whenever …, finance has to
    // sign off".)
    let from = 0;
    for (let k = i - 1; k >= 0 && k >= i - 6; k--) {
      if (ws[k]!.t.kind !== "punct" || ws[k]!.t.text !== ",") continue;
      if (wordIs(ws[0], "whenever", "when", "if", "where", "once", "for", "on")) from = k + 1;
      break;
    }
    if (((MODALS.has(w.norm) && !NEGATORS.has(w.norm) && !/n't$|^cannot$/.test(w.norm)) || (wordIs(w, "has", "have", "need", "needs") && wordIs(ws[i + 1], "to"))) && i - from >= 1 && i - from <= 5) {
      let j = i + 1;
      if (wordIs(ws[j], "to")) j++;
      if (wordIs(ws[j], "first", "always", "explicitly", "personally")) j++;
      const approver = ws.slice(from, i);
      if (wordIs(ws[j], "approve", "signoff", "review", "authorize", "authorise", "okay", "ok", "vet", "confirm", "sanction", "clear") && approver.every((x) => x.t.kind === "word" && x.pos !== "VERB" && !NEGATORS.has(x.norm))) {
        let end = j + 1;
        if (wordIs(ws[end], "off")) end++;
        if (wordIs(ws[end], "on", "for", "of")) end++;
        cues.push({ effect: "require_approval", span: range(from, end), at: from });
        i = end - 1;
        continue;
      }
    }
    // The approval first, then that it is needed: "Approval is needed when …", "Sign-off is required for …",
    // "A manager's approval is mandatory before …".
    if (wordIs(w, "needed", "required", "necessary", "mandatory", "compulsory", "obligatory") && wordIs(ws[i - 1], "is", "are", "be")) {
      let a = i - 2;
      while (a >= 0 && a >= i - 5 && !APPROVAL_ACTS.has(ws[a]!.norm) && ws[a]!.t.kind === "word" && (isModifier(ws[a]) || APPROVAL_NOUNS.has(ws[a]!.norm) || MODALS.has(ws[a]!.norm))) a--;
      if (a >= 0 && APPROVAL_ACTS.has(ws[a]!.norm)) {
        let start = a;
        while (start > 0 && ws[start - 1]!.t.kind === "word" && (isModifier(ws[start - 1]) || APPROVAL_NOUNS.has(ws[start - 1]!.norm))) start--;
        let end = i + 1;
        if (wordIs(ws[end], "for", "to", "on", "before")) end++;
        cues.push({ effect: "require_approval", span: range(start, end), at: start });
        i = end - 1;
        continue;
      }
    }
    // Who must approve, after the need: "needs the store director to approve them", "requires two directors to sign off".
    if (NEED_LEMMAS.has(w.lemma) || NEED_LEMMAS.has(w.norm)) {
      let j = i + 1;
      // ("the head of year", "the director of nursing": a role named with "of".)
      const roleOf = (k: number) => wordIs(ws[k], "of") && k > i + 1 && ["NOUN", "PROPN", "ADJ"].includes(ws[k + 1]?.pos ?? "");
      while (j < n && j <= i + 6 && ws[j]!.t.kind !== "punct" && (isModifier(ws[j]) || ws[j]!.t.kind === "number" || APPROVAL_NOUNS.has(ws[j]!.norm) || roleOf(j)) && !wordIs(ws[j], "to")) j++;
      if (j > i + 1 && wordIs(ws[j], "to") && APPROVING_VERBS.has(ws[j + 1]?.norm ?? "")) {
        let end = j + 2;
        if (wordIs(ws[end], "off")) end++;
        if (wordIs(ws[end], "it", "them", "this", "that", "these", "those", "first")) end++;
        if (wordIs(ws[end], "on", "for")) end++;
        const start = wordIs(ws[i - 1], "always", "must", "should", "will") ? i - 1 : i;
        cues.push({ effect: "require_approval", span: range(start, end), at: start });
        i = end - 1;
        continue;
      }
    }
    // Sent on for approval: "should go over to the credit committee for approval", "are held for review",
    // "should be routed to a supervisor".
    // (And gone to: "must go to a manager", "has to go to the finance lead first".)
    const obliged = (k: number) => MODALS.has(ws[k]?.norm ?? "") || (wordIs(ws[k], "to") && wordIs(ws[k - 1], "have", "has", "need", "needs", "got"));
    // ("… go to the finance director for approval": said as what happens, the "for approval" after it says so.)
    const forApprovalAhead = (k: number) => ws.slice(k + 1, k + 9).some((x, m) => wordIs(x, "for") && APPROVAL_ACTS.has(ws[actAt(ws, k + 2 + m)]?.norm ?? ""));
    if ((ROUTING_PARTICIPLES.has(w.norm) && (wordIs(ws[i - 1], "be", "is", "are", "been", "get", "gets") || MODALS.has(ws[i - 1]?.norm ?? ""))) || (wordIs(w, "go", "goes") && (obliged(i - 1) || forApprovalAhead(i)) && wordIs(ws[i + 1], "to", "over", "up", "back"))) {
      // (A "go" said as what happens has no modal or auxiliary before it: the cue starts at it.)
      let start = wordIs(w, "go", "goes") && !obliged(i - 1) ? i : i - 1;
      while (start > 0 && start < i && (MODALS.has(ws[start - 1]!.norm) || wordIs(ws[start - 1], "be", "been", "is", "are", "always", "first", "automatically") || (wordIs(ws[start], "to") && wordIs(ws[start - 1], "have", "has", "need", "needs", "got")))) start--;
      const negated = ws.slice(start, i).some((x) => NEGATORS.has(x.norm));
      let j = i + 1;
      if (wordIs(ws[j], "on", "over", "up", "back")) j++;
      let end = -1;
      if (wordIs(ws[j], "to")) {
        // "to <approver>" (any noun phrase), then perhaps "for approval".
        let k = j + 1;
        while (k < n && k <= j + 6 && ws[k]!.t.kind === "word" && (isModifier(ws[k]) || APPROVAL_NOUNS.has(ws[k]!.norm)) && !wordIs(ws[k], "for", "first", "beforehand")) k++;
        if (wordIs(ws[k], "for") && APPROVAL_ACTS.has(ws[actAt(ws, k + 1)]?.norm ?? "")) end = actAt(ws, k + 1) + 1;
        else if (APPROVAL_NOUNS.has(ws[k - 1]?.norm ?? "") || w.norm === "escalated") end = k;
        // "… to a supervisor first": before it is done.
        if (end > 0 && wordIs(ws[end], "first", "beforehand")) end++;
      } else if (wordIs(ws[j], "for") && APPROVAL_ACTS.has(ws[actAt(ws, j + 1)]?.norm ?? "")) end = actAt(ws, j + 1) + 1;
      if (!negated && end > i) {
        cues.push({ effect: "require_approval", span: range(start, end), at: start });
        i = end - 1;
        continue;
      }
    }
    // Approval: "require/need/get (manager|human) approval", "wants a manager's sign-off", "must have sign-off".
    if (NEED_LEMMAS.has(w.lemma) || NEED_LEMMAS.has(w.norm) || (wordIs(w, "with", "without", "after", "pending", "subject") && i + 1 < n)) {
      let j = i + 1;
      if (wordIs(ws[j], "to")) j++; // "subject to approval"
      // After "with", "after" or "pending" the approval itself must be named: the approver before it is
      // skipped ("with manager approval", "after a manager's sign-off", "with human review").
      const approvalAct = wordIs(w, "with", "after", "pending");
      // ("needs the owner's written approval": a participle says what kind of approval is needed; after
      // "without" it says a state of the record, "without recorded consent", which is a condition.)
      const skippable = (x: W, at: number) => ["DET", "ADJ", "NUM", "NOUN", "PROPN"].includes(x.pos) || (!wordIs(w, "with", "without", "after", "pending", "subject") && x.pos === "VERB" && /(?:[^e]ed|[^e]en)$/.test(x.norm) && !NEED_LEMMAS.has(x.lemma)) || /'s?$/.test(x.norm) || (approvalAct && APPROVAL_NOUNS.has(x.norm)) || gradesPost(ws, at);
      // ("the head of department's sign-off", "the director of finance's OK": a title with "of" in it.)
      const titleOf = (at: number) => wordIs(ws[at], "of") && at > i + 1 && ["NOUN", "PROPN", "ADJ"].includes(ws[at - 1]!.pos) && /'s?$/.test(ws[at + 1]?.norm ?? "");
      while (j < n && j <= i + 5 && ws[j]!.t.kind === "word" && !(approvalAct ? APPROVAL_ACTS : APPROVAL_NOUNS).has(ws[j]!.norm) && (skippable(ws[j]!, j) || titleOf(j)) && !["for", "to"].includes(ws[j]!.norm)) j++;
      if (j < n && (approvalAct ? APPROVAL_ACTS : APPROVAL_NOUNS).has(ws[j]!.norm) && !(wordIs(w, "without") && recordedCheck(ws, i + 1, j))) {
        let end = j + 1;
        // "approval from a manager", "a lead to okay it", "sign off", "review by legal"
        while (end < n && (wordIs(ws[end], "from", "by", "of", "to", "signoff", "approve", "review", "a", "an", "the", "human", "person", "manager", "second", "two") || APPROVAL_NOUNS.has(ws[end]!.norm))) {
          if (wordIs(ws[end], "of") && !APPROVAL_NOUNS.has(ws[end + 1]?.norm ?? "") && !wordIs(ws[end + 1], "a", "an", "the")) break;
          if (wordIs(ws[end], "to") && !wordIs(ws[end + 1], "signoff", "approve", "review", "confirm", "okay", "ok")) break;
          end++;
        }
        // The connector to the action: "approval for refunds", "approval to delete", "sign-off on payouts".
        if (wordIs(ws[end], "for", "to", "on", "of", "before", "prior")) end += wordIs(ws[end], "prior") && wordIs(ws[end + 1], "to") ? 2 : 1;
        let start = wordIs(ws[i - 1], "only") ? i - 1 : wordIs(ws[i - 1], "always", "must", "should", "will") ? i - 1 : i;
        // "are subject to review", "must always be subject to sign-off": the copula goes with it.
        if (wordIs(w, "subject")) while (start > 0 && (MODALS.has(ws[start - 1]!.norm) || wordIs(ws[start - 1], "is", "are", "be", "always"))) start--;
        cues.push({ effect: "require_approval", span: range(start, end), at: start });
        i = end - 1;
        continue;
      }
    }
    // "… to a person for approval", "flag payouts for human approval", "route it for review".
    if (wordIs(w, "for") && i + 1 < n) {
      let j = i + 1;
      while (j < n && j <= i + 3 && (wordIs(ws[j], "a", "an", "human", "manual", "manager", "explicit", "second", "their") || ws[j]!.pos === "ADJ") && !["approval", "review", "signoff", "confirmation", "authorization", "authorisation"].includes(ws[j]!.norm)) j++;
      if (j < n && ["approval", "review", "signoff", "confirmation", "authorization", "authorisation"].includes(ws[j]!.norm)) {
        cues.push({ effect: "require_approval", span: range(i, j + 1), at: i });
        i = j;
        continue;
      }
    }
    // "Route all finance actions to a human", "Hand refunds over $500 to a manager": a routing verb opening
    // the clause and the approver it sends to.
    if (wordIs(w, "to") && APPROVAL_NOUNS.has(ws[wordIs(ws[i + 1], "a", "an", "the") ? i + 2 : i + 1]?.norm ?? "") && ws.some((x, k) => k < i && routes(ws, k) && (k === 0 || isClauseStart(ws, k)))) {
      let end = i + 1;
      while (end < n && (wordIs(ws[end], "a", "an", "the", "human", "approver") || APPROVAL_NOUNS.has(ws[end]!.norm))) end++;
      cues.push({ effect: "require_approval", span: range(i, end), at: i });
      i = end - 1;
      continue;
    }
    // "escalate", "flag for review", "send to a human"
    if (w.lemma === "escalate" || w.norm === "escalate" || w.norm === "escalated") {
      let start = i;
      while (start > 0 && (MODALS.has(ws[start - 1]!.norm) || wordIs(ws[start - 1], "be", "is", "are", "always", "get", "gets"))) start--;
      let end = i + 1;
      if (wordIs(ws[end], "to", "for") && ws[end + 1] && (APPROVAL_NOUNS.has(ws[end + 1]!.norm) || wordIs(ws[end + 1], "a", "an", "the"))) {
        end += 1;
        while (end < n && (wordIs(ws[end], "a", "an", "the", "human", "approver") || APPROVAL_NOUNS.has(ws[end]!.norm))) end++;
        // "escalate to a DBA", "escalate to the on-call lead": whoever it names, when nothing follows the name.
        let k = end;
        while (k < n && k < end + 4 && ws[k]!.t.kind === "word" && ["NOUN", "PROPN", "ADJ", "X"].includes(ws[k]!.pos) && !CONDITION_MARKERS.has(ws[k]!.norm)) k++;
        if (k > end && (k === n || ws[k]!.t.kind === "punct" || CONDITION_MARKERS.has(ws[k]!.norm))) end = k;
      }
      cues.push({ effect: "require_approval", span: range(start, end), at: start });
      i = end - 1;
      continue;
    }
    // "should be signed off by finance", "should be reviewed", "is escalated"
    if (APPROVAL_PARTICIPLES.has(w.norm) && (wordIs(ws[i - 1], "be", "is", "are", "been", "get", "gets") || (ws[i - 1] && MODALS.has(ws[i - 1]!.norm)))) {
      let start = i - 1;
      while (start > 0 && (MODALS.has(ws[start - 1]!.norm) || NEGATORS.has(ws[start - 1]!.norm) || wordIs(ws[start - 1], "be", "been", "is", "are", "was", "were", "has", "have", "had", "always", "first", "all"))) start--;
      if (ws.slice(start, i).some((x) => NEGATORS.has(x.norm))) continue; // "must not be approved" is not an approval cue
      // "payments which have been reviewed": a state of the action's thing (a condition), not a requirement.
      if (wordIs(ws[start - 1], "that", "which", "who") && !ws.slice(start, i).some((x) => MODALS.has(x.norm))) continue;
      // "… unless the vendor is approved", "if the invoice was reviewed": a state inside a condition.
      if (!ws.slice(start, i).some((x) => MODALS.has(x.norm)) && conditionOpenedBefore(ws, start)) continue;
      let end = i + 1;
      if (wordIs(ws[end], "off")) end++;
      if (wordIs(ws[end], "by", "from")) {
        end++;
        while (end < n && (wordIs(ws[end], "a", "an", "the", "human", "second", "two") || APPROVAL_NOUNS.has(ws[end]!.norm) || ws[end]!.pos === "ADJ")) end++;
      }
      cues.push({ effect: "require_approval", span: range(start, end), at: start });
      i = end - 1;
      continue;
    }
    // "after a human approves", "until a manager signs off", "once an admin has approved": approval.
    if (wordIs(w, "after", "until", "once", "unless", "without") && i + 2 < n) {
      let j = i + 1;
      while (wordIs(ws[j], "a", "an", "the", "someone", "human", "second")) j++;
      if (j > i + 1 && APPROVAL_NOUNS.has(ws[j - 1]!.norm) && !APPROVAL_NOUNS.has(ws[j]?.norm ?? "")) j--;
      // "once the harbour operations director has approved it", "until the safety director signs off": whoever
      // the title names, a noun phrase that approves is an approver.
      let title = j;
      while (title < n && title < j + 4 && ["NOUN", "PROPN", "ADJ"].includes(ws[title]!.pos) && !approvingAt(ws, title) && !CONDITION_MARKERS.has(ws[title]!.norm)) title++;
      const titled = title > j && ws[title - 1]!.pos === "NOUN" && APPROVER_TITLE.test(ws[title - 1]!.norm) && !namesPeople(ws[title - 1]!.norm) && approvingAt(ws, wordIs(ws[title], "has", "have") ? title + 1 : title);
      if (titled) j = title - 1;
      if (j < n && (APPROVAL_NOUNS.has(ws[j]!.norm) || titled)) {
        let k = j + 1;
        while (k < n && (APPROVAL_NOUNS.has(ws[k]!.norm) || wordIs(ws[k], "has", "have", "'s"))) k++;
        // ("once the vet has confirmed the dosage": a thing of its own confirmed is a fact, no approval.)
        const ownObject = wordIs(ws[k + 1], "the", "a", "an", "its", "their", "his", "her") && ["NOUN", "PROPN"].includes(ws[k + 2]?.pos ?? "") && !APPROVAL_NOUNS.has(ws[k + 2]!.norm) && !WILDCARD_NOUNS.has(ws[k + 2]!.lemma);
        if (approvingAt(ws, k) && !ownObject) {
          let end = k + 1;
          if (wordIs(ws[end], "off", "it", "them", "this")) end++;
          cues.push({ effect: "require_approval", span: range(i, end), at: i });
          i = end - 1;
          continue;
        }
      }
    }
    // "unless approved", "until approved": the action may only run with approval.
    if (APPROVAL_PARTICIPLES.has(w.norm) && wordIs(ws[i - 1], "unless", "until", "without")) {
      let end = i + 1;
      if (wordIs(ws[end], "by", "from")) {
        end++;
        while (end < n && (wordIs(ws[end], "a", "an", "the", "human") || APPROVAL_NOUNS.has(ws[end]!.norm) || ws[end]!.pos === "ADJ")) end++;
      }
      cues.push({ effect: "require_approval", span: range(i - 1, end), at: i - 1 });
      i = end - 1;
      continue;
    }
    // Only allow: "only allow X when C", "X is only allowed when C", "X are allowed only for C", "X may only …".
    if (wordIs(w, "only") && (ALLOW_WORDS.has(ws[i + 1]?.norm ?? "") || (ws[i - 1] && ALLOW_WORDS.has(ws[i - 1]!.norm)) || (ws[i - 1] && MODALS.has(ws[i - 1]!.norm)))) {
      let start = i;
      let end = i + 1;
      if (ALLOW_WORDS.has(ws[i + 1]?.norm ?? "")) end = i + 2;
      else if (ws[i - 1] && ALLOW_WORDS.has(ws[i - 1]!.norm)) start = i - 1;
      while (start > 0 && (wordIs(ws[start - 1], "is", "are", "be") || MODALS.has(ws[start - 1]!.norm))) start--;
      if (wordIs(ws[end], "be", "to")) end++;
      cues.push({ effect: "only_allow", span: range(start, end), at: start });
      i = end - 1;
      continue;
    }
    // "Allow refunds only under $100", "Allow restarts only between 1:00 and 4:00": an allow at the clause
    // start limited by a later "only".
    if (wordIs(w, "only") && !ALLOW_WORDS.has(ws[i + 1]?.norm ?? "")) {
      const allow = cues.findIndex((c) => c.effect === "allow" && ALLOW_WORDS.has(ws[c.at]!.norm) && (c.at === 0 || isClauseStart(ws, c.at)));
      if (allow >= 0) {
        const prev = cues[allow]!;
        cues.splice(allow, 1, { effect: "only_allow", span: [...prev.span, i], at: prev.at });
        continue;
      }
    }
    // "Only refund payments when …": an imperative limited by "only".
    if (wordIs(w, "only") && isClauseStart(ws, i) && ws[i + 1]?.t.kind === "word" && (ws[i + 1]!.pos === "VERB" || verbClassOf(ws[i + 1]!.norm) !== undefined) && !APPROVAL_NOUNS.has(ws[i + 1]!.norm)) {
      cues.push({ effect: "only_allow", span: [i], at: i });
      continue;
    }
    // "Hold … for a manager's sign-off", "route … for human review": "for" and the approval, when a routing
    // verb opens the clause (the verb itself is set aside below).
    if (wordIs(w, "for") && APPROVAL_ACTS.has(ws[actAt(ws, i + 1)]?.norm ?? "") && ws.some((x, k) => k < i && routes(ws, k) && (k === 0 || isClauseStart(ws, k)))) {
      const end = actAt(ws, i + 1) + 1;
      cues.push({ effect: "require_approval", span: range(i, end), at: i });
      i = end - 1;
      continue;
    }
    // "check with a manager before …", "clear it with a supervisor first".
    if (wordIs(w, "check", "clear", "confirm", "consult", "verify") && i + 2 < n) {
      let j = i + 1;
      if (wordIs(ws[j], "it", "this", "them")) j++;
      // "consult" takes its approver directly ("consult your supervisor before …").
      if (wordIs(ws[j], "with") || wordIs(w, "consult")) {
        if (wordIs(ws[j], "with")) j++;
        j = approverAt(ws, j);
        if (j < n && APPROVAL_NOUNS.has(ws[j]!.norm)) {
          let end = j + 1;
          while (end < n && APPROVAL_NOUNS.has(ws[end]!.norm)) end++;
          if (wordIs(ws[end], "first")) end++;
          if (wordIs(ws[end], "before", "prior")) end += wordIs(ws[end], "prior") && wordIs(ws[end + 1], "to") ? 2 : 1;
          cues.push({ effect: "require_approval", span: range(i, end), at: i });
          i = end - 1;
          continue;
        }
      }
    }
    // Block, passive or predicative: "is forbidden", "are not allowed", "is never permitted", "is off-limits".
    const phrasal = blockPhrasalAt(ws, i);
    if (phrasal || BLOCK_PARTICIPLES.has(w.norm) || (ALLOW_WORDS.has(w.norm) && ws.slice(Math.max(0, i - 3), i).some((x) => NEGATORS.has(x.norm)))) {
      let start = i;
      while (start > 0 && (NEGATORS.has(ws[start - 1]!.norm) || MODALS.has(ws[start - 1]!.norm) || wordIs(ws[start - 1], "be", "is", "are", "been", "being", "get", "gets", "getting", "always", "strictly"))) start--;
      if (start === i && !BLOCK_PARTICIPLES.has(w.norm)) continue;
      // "must not be turned down" says the opposite: only the plain phrasal refuses.
      if (phrasal && ws.slice(start, i).some((x) => NEGATORS.has(x.norm))) continue;
      let end = i + (phrasal ? 2 : 1);
      if (wordIs(ws[end], "to", "from") && wordIs(ws[end + 1], "be", "happen", "run")) end += 2;
      cues.push({ effect: "block", span: range(start, end), at: start });
      i = end - 1;
      continue;
    }
    // "Refunds are capped at 3 per hour", "Exports are limited to 5 a day": what goes past the cap is blocked.
    if (wordIs(w, "capped", "limited", "restricted") && wordIs(ws[i - 1], "is", "are", "be") && wordIs(ws[i + 1], "at", "to") && ws[i + 2]?.t.kind === "number") {
      cues.push({ effect: "block", span: range(i - 1, i + 2), at: i - 1 });
      i += 1;
      continue;
    }
    // "Limit password resets to 3 per hour", "Cap faxes at 10 a day", "Throttle exports to 5 per minute": an
    // imperative limit and its count per window. What goes past it is blocked; the count is the condition.
    if ((LIMIT_VERBS.has(w.lemma) || LIMIT_VERBS.has(w.norm)) && (i === 0 || isClauseStart(ws, i))) {
      const to = ws.findIndex((x, k) => k > i + 1 && wordIs(x, "to", "at") && ws[k + 1]?.t.kind === "number" && perWindowAfter(ws, k + 1));
      if (to > 0) {
        cues.push({ effect: "block", span: [i, to], at: i });
        continue;
      }
    }
    // A limit first, then what may happen: "No more than 3 refunds may be issued per hour", "At most 5
    // exports can run a day". What goes past the limit is blocked (the limit is the condition).
    if (MODALS.has(w.norm) && !NEGATORS.has(ws[i + 1]?.norm ?? "") && cues.length === 0) {
      const limit = comparatorAt(ws, 0);
      // Only a count per window ("per hour", "a day"): elsewhere "no more than 20" read as a condition would
      // say the opposite of the limit, so such a sentence is left without an effect (refused).
      if (limit && (limit.op === "lte" || limit.op === "lt") && perWindowAfter(ws, i)) {
        let end = i + 1;
        while (wordIs(ws[end], "be", "ever")) end++;
        cues.push({ effect: "block", span: range(i, end), at: i });
        i = end - 1;
        continue;
      }
    }
    // Block by negation: "never X", "do not X", "must not X", "X must never happen", "no X may be Y-ed".
    // "regions not on the allowed list", "vendors not in the registry": a noun's negated place is a condition.
    // "… that are not between $2,000 and $6,000": a negated range is a condition too.
    // (A plural the tagger took for a verb, after "to", is a noun too: "to hosts not in …".)
    const partyBefore = ["NOUN", "PROPN"].includes(ws[i - 1]?.pos ?? "") || (ws[i - 1]?.pos === "VERB" && /[^s]s$/.test(ws[i - 1]!.norm) && wordIs(ws[i - 2], "to", "for"));
    const negatedPlace = (wordIs(w, "not") && ((partyBefore && wordIs(ws[i + 1], "on", "in", "among", "within", "inside")) || wordIs(ws[i + 1], "between", "within"))) || negatedParticipleAt(ws, i);
    const negatedSubject = negatedSubjectCue(ws, i);
    if ((NEGATORS.has(w.norm) && !negatedPlace && !comparatorAt(ws, i) && !comparatorAt(ws, i - 1) && !insideCondition(ws, i)) || negatedSubject !== undefined || (wordIs(w, "do", "does", "must", "may", "can", "shall", "should", "will") && NEGATORS.has(ws[i + 1]?.norm ?? "") && !comparatorAt(ws, i))) {
      // "No deployments at weekends": a "no" opening the sentence forbids what it names, like a sign.
      if (wordIs(w, "no") && !(i === 0 || isClauseStart(ws, i)) && !ws.slice(i + 1).some((x) => MODALS.has(x.norm) || x.norm === "is" || x.norm === "are")) continue;
      let start = i;
      let end = i + 1;
      // ("are not to be issued", "is never to be shared": an obligation said with "to be".)
      while (end < n && (NEGATORS.has(ws[end]!.norm) || MODALS.has(ws[end]!.norm) || wordIs(ws[end], "ever", "be", "let", "allow", "permit", "allowed", "permitted", "happen", "run", "occur", "take") || (wordIs(ws[end], "to") && wordIs(ws[end + 1], "be") && (NEGATORS.has(ws[end - 1]!.norm) || wordIs(ws[end - 1], "allowed", "permitted"))))) {
        if (wordIs(ws[end], "take") && !wordIs(ws[end + 1], "place")) break;
        end++;
        if (wordIs(ws[end - 1], "take")) end++;
      }
      while (start > 0 && (MODALS.has(ws[start - 1]!.norm) || wordIs(ws[start - 1], "do", "does", "please", "should", "must", "is", "are", "am"))) start--;
      // "no X may be Y-ed": the negation sits on the subject; keep the "no" as the cue, the rest is the action.
      // ("Nobody works more than …", "Nothing heavier than … goes on …": so with a negated subject.)
      // (A modal right after it, "nothing may run …", is read with the words it governs, as above.)
      if (wordIs(w, "no") || (negatedSubject && !MODALS.has(ws[i + 1]?.norm ?? ""))) {
        cues.push({ effect: "block", span: negatedSubject?.span ?? [i], at: i, verb: negatedSubject?.verb });
        continue;
      }
      cues.push({ effect: "block", span: range(start, end), at: start });
      i = end - 1;
      continue;
    }
    // Imperative block verb at the clause start (after "please", "always", a leading condition).
    if (BLOCK_VERBS.has(w.lemma) && (i === 0 || isClauseStart(ws, i))) {
      cues.push({ effect: "block", span: [i], at: i });
      continue;
    }
    // Allow: "allow X", "X is allowed", "X may proceed", "auto-approve X".
    // ("building permits", "a parking permit": the noun, after a word naming which kind, is no cue.)
    // ("the policy permits refunds": a verb, with its object after it.)
    const objectAfter = ws[i + 1]?.t.kind === "word" && ["DET", "NOUN", "PRON", "ADJ", "PROPN"].includes(ws[i + 1]!.pos);
    // ("an F2 permit": after a code that names its kind too.)
    const permitNoun = /^permits?$/.test(w.norm) && !objectAfter && (w.pos === "NOUN" || (i > 0 && (["NOUN", "ADJ", "PROPN"].includes(ws[i - 1]!.pos) || /\d/.test(ws[i - 1]!.norm)) && !MODALS.has(ws[i - 1]!.norm)));
    // ("fine reductions", "OK status": a word that allows only as a predicate modifies a noun after it.)
    const modifies = wordIs(w, "fine", "ok", "okay", "acceptable") && ["NOUN", "PROPN"].includes(ws[i + 1]?.pos ?? "");
    if ((ALLOW_WORDS.has(w.norm) || w.lemma === "allow" || w.lemma === "permit") && !permitNoun && !modifies && !ws.slice(Math.max(0, i - 3), i).some((x) => NEGATORS.has(x.norm))) {
      let start = i;
      while (start > 0 && (wordIs(ws[start - 1], "is", "are", "be", "always", "automatically") || MODALS.has(ws[start - 1]!.norm))) start--;
      cues.push({ effect: "allow", span: range(start, i + 1), at: start });
      continue;
    }
    if (wordIs(w, "proceed") && MODALS.has(ws[i - 1]?.norm ?? "")) cues.push({ effect: "allow", span: [i - 1, i], at: i - 1 });
  }
  // A limit said as a notice, without a verb: "No more than 4 exports per minute", "At most 10 refunds a
  // day". Only a count per window; the limit is the condition, and what goes past it is blocked.
  if (cues.length === 0) {
    const limit = comparatorAt(ws, 0);
    const finite = ws.some((x) => MODALS.has(x.norm) || wordIs(x, "is", "are", "was", "were", "be"));
    if (limit && (limit.op === "lte" || limit.op === "lt") && perWindowAfter(ws, limit.length) && !finite) cues.push({ effect: "block", span: [], at: n });
  }
  return cues;
}

// Verbs that set a ceiling on how often something happens.
const LIMIT_VERBS = new Set(["limit", "cap", "throttle", "ration", "restrict"]);

/** A count per window follows `from`: "per hour", "a day", "every minute", "an hour" read whole. */
function perWindowAfter(ws: W[], from: number): boolean {
  const unitAt = (k: number) => RATE_UNITS[ws[k]?.lemma ?? ""] !== undefined || (ws[k]?.t.kind === "quantity" && (ws[k]!.t as { quantity: { kind: string } }).quantity.kind === "time");
  // "an hour" read whole is a window too.
  const whole = (x: W) => x.t.kind === "quantity" && x.t.quantity.kind === "time" && /^(an?|one|per|every|each)\s/i.test(x.t.text);
  return ws.some((x, k) => k > from && (whole(x) || (wordIs(x, "per", "a", "an", "every", "each", "within", "in") && (unitAt(k + 1) || (wordIs(ws[k + 1], "a", "an", "one") && unitAt(k + 2))))));
}

/** A negation inside a condition ("where the domain isn't …", "if tests have not passed"), before any comma. */
function insideCondition(ws: W[], i: number): boolean {
  if (!wordIs(ws[i], "not", "n't", "isn't", "aren't", "doesn't", "don't", "hasn't", "haven't", "wasn't")) return false;
  for (let j = i - 1; j >= 0 && j >= i - 6; j--) {
    if (ws[j]!.t.kind === "punct") return false;
    if (wordIs(ws[j], "where", "when", "whenever", "if", "whose", "while", "that", "which", "who")) return true;
  }
  return false;
}

/** A condition or exception word ("unless", "if", "when" …) opens a clause that reaches `at` (no punctuation between). */
function conditionOpenedBefore(ws: W[], at: number): boolean {
  // (Words in brackets are an aside: "unless the documents (payslips and ID) have been verified".)
  let depth = 0;
  for (let j = at - 1, seen = 0; j >= 0 && seen < 6; j--) {
    const t = ws[j]!.t;
    if (t.kind === "punct" && t.text === ")") depth++;
    else if (t.kind === "punct" && t.text === "(" && depth > 0) depth--;
    else if (depth > 0) continue;
    else if (t.kind === "punct") return false;
    else {
      seen++;
      if (wordIs(ws[j], "unless", "if", "when", "whenever", "where", "while", "once", "until", "whether", "except")) return true;
    }
  }
  return false;
}

/** A word starts the clause when only softeners or a leading condition (ending in a comma) precede it. */
function isClauseStart(ws: W[], i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const w = ws[j]!;
    if (wordIs(w, "please", "always", "also", "then", "automatically")) continue;
    // "…, but block …", "… however deny …": a contrast opens a clause of its own ("and" does not: "suspend
    // and block users" is one action).
    return (w.t.kind === "punct" && (w.t.text === "," || w.t.text === ":")) || (w.t.kind === "word" && CONTRASTS.has(w.norm));
  }
  return true;
}
const CONTRASTS = new Set(["but", "however", "whereas", "yet", "otherwise"]);

/**
 * "Nobody works more than 12 hours", "Nothing heavier than 20 kg goes on the top shelf", "Nothing over 20 kg
 * may be shipped": a negated subject opening a clause, with a modal, a passive or a verb in the present after
 * it, says what never happens, as "No truck leaves …" does ("nothing is free" states a fact). The words of the
 * cue: the subject and the modal or copula with its "be" (none of them is a word of the action).
 */
function negatedSubjectCue(ws: W[], i: number): { span: number[]; verb?: number } | undefined {
  if (!wordIs(ws[i], "nothing", "nobody", "noone")) return undefined;
  if (!(i === 0 || isClauseStart(ws, i))) return undefined;
  const participle = (k: number) => (ws[k]?.pos === "VERB" && PAST_PARTICIPLE.test(ws[k]!.norm) ? k : undefined);
  for (let j = i + 1; j < ws.length && ws[j]!.t.kind !== "punct"; j++) {
    const x = ws[j]!;
    if (MODALS.has(x.norm)) {
      const span = [i, j];
      let k = j + 1;
      for (; k < ws.length && (NEGATORS.has(ws[k]!.norm) || wordIs(ws[k], "ever", "be")); k++) span.push(k);
      return { span, verb: participle(k) };
    }
    if (wordIs(x, "was", "were", "be")) return undefined;
    // (After a value the tagger may take the verb for a plural: "nothing over 20 kg goes on …".)
    // (Nor is a noun right after the pronoun: "nobody sets a …" has its verb there.)
    // ("Nobody books more than 6 lanes": right after the pronoun, whatever follows it.)
    const verb = x.pos === "VERB" || (x.pos === "NOUN" && (j === i + 1 || (ws[j - 1]!.t.kind !== "word" || ws[j - 1]!.pos === "ADJ") && ["ADP", "DET"].includes(ws[j + 1]?.pos ?? "")));
    // ("Nothing taller than 2 m goes into the lift": a verb of going names no operation; whatever
    // goes there, the conditions say which actions, and the verb is the cue's.)
    if (verb && /[^s]s$/.test(x.norm) && x.lemma !== x.norm) return wordIs(x, "goes", "comes", "gets") ? { span: [i, j] } : { span: [i], verb: j };
    if (wordIs(x, "is", "are")) return PAST_PARTICIPLE.test(ws[j + 1]?.norm ?? "") ? { span: [i, j], verb: j + 1 } : undefined;
  }
  return undefined;
}

const STRENGTH: Record<EffectCue["effect"], number> = { require_approval: 4, only_allow: 3, block: 2, allow: 1 };

// What a cue does to its actions: "only allow X when C" blocks X outside C, so it sides with block.
const DIRECTION: Record<EffectCue["effect"], string> = { require_approval: "approval", only_allow: "block", block: "block", allow: "allow" };
const CLAUSE_JOINS = new Set(["but", "and", "while", "whereas", "yet", "however", "though", "although", "otherwise", "then"]);

/** Where a cue begins a clause of its own: at the start, or after a comma, a semicolon or a joining word. */
function clauseBoundary(ws: W[], at: number): number | undefined {
  let j = at - 1;
  while (j >= 0 && wordIs(ws[j], "please", "also", "always", "then", "just")) j--;
  if (j < 0) return 0;
  const w = ws[j]!;
  if (w.t.kind === "punct" && [",", ";", ":"].includes(w.t.text)) return j;
  if (w.t.kind === "word" && CLAUSE_JOINS.has(w.norm)) return ws[j - 1]?.t.kind === "punct" && ws[j - 1]!.t.text === "," ? j - 1 : j;
  return undefined;
}

/**
 * Two clauses of one sentence with effects that disagree ("Allow X but block Y", "Block X, allow Y",
 * "Allow X on weekdays and require approval on weekends"): no one rule says both, and taking either
 * effect for the whole sentence would govern one half the other half's way. The sentence is refused with
 * its two readings. Effect words inside one clause are not such a pair: "no X is allowed", "never X
 * without approval", "X is allowed only with approval" are one effect each.
 */
function conflictingClauses(ws: W[], cues: EffectCue[]): { first: string; second: string; at: number } | undefined {
  const leading = cues.filter((c) => clauseBoundary(ws, c.at) !== undefined);
  for (let i = 1; i < leading.length; i++) {
    const later = leading[i]!;
    const earlier = leading.slice(0, i).find((c) => DIRECTION[c.effect] !== DIRECTION[later.effect]);
    if (!earlier) continue;
    const cut = clauseBoundary(ws, later.at)!;
    const text = (part: W[]) => part.map((w) => w.t.text).join(" ").replace(/\s+([,.;:!?)])/g, "$1").trim();
    return { first: text(ws.slice(0, cut)), second: text(ws.slice(later.at)), at: cut };
  }
  return undefined;
}

/**
 * "flagged for fraud review", "under review", "pending approval": an approval word that says what state the
 * thing is in, not what the rule does, when the sentence says what it does elsewhere ("…, block port-outs").
 */
function withoutStates(ws: W[], cues: EffectCue[]): EffectCue[] {
  const isState = (c: EffectCue) => {
    if (c.effect !== "require_approval") return false;
    const start = Math.min(...c.span);
    // Inside a condition: "if the order is flagged for manual review", "when it is under review".
    for (let k = start - 1; k >= 0 && k >= start - 8; k--) {
      if (ws[k]!.t.kind === "punct" || cues.some((o) => o !== c && o.span.includes(k))) break;
      if (wordIs(ws[k], "if", "when", "whenever", "while", "unless", "once", "where", "whose", "which", "that")) return true;
    }
    let k = start - 1;
    while (k >= 0 && k >= start - 3 && ws[k]!.t.kind === "word" && ["NOUN", "ADJ", "PROPN"].includes(ws[k]!.pos)) k--;
    return wordIs(ws[k], "under", "pending", "awaiting");
  };
  const states = cues.filter(isState);
  return states.length > 0 && cues.some((c) => !isState(c)) ? cues.filter((c) => !isState(c)) : cues;
}

function chooseEffect(cues: EffectCue[]): EffectCue | undefined {
  let best: EffectCue | undefined;
  for (const c of cues) if (!best || STRENGTH[c.effect] > STRENGTH[best.effect]) best = c;
  return best;
}

// ---------------------------------------------------------------------------------------------------
// 2-4. Scope, exceptions, conditions

const DETERMINERS = new Set(["the", "a", "an", "any", "all", "every", "each", "some", "its", "their", "our", "his", "her", "this", "that", "these", "those", "such"]);
const WILDCARD_NOUNS = new Set(["action", "operation", "tool", "request", "thing", "call", "tool-call", "activity", "task", "command", "api"]);
const WILDCARD_WORDS = new Set(["anything", "everything", "something", "whatever"]);
// Nouns that name no particular thing ("customer records" is about customers).
const GENERIC_NOUNS = new Set(["record", "item", "entry", "data", "object", "resource", "detail", "information", "info", "stuff", "one", "row"]);
// Nouns that name an occurrence of the operation before them ("charging sessions", "deletion attempts").
const OCCURRENCE_NOUNS = new Set(["session", "attempt", "instance", "occurrence"]);
const COMPARATORS: [string[], Comparator][] = [
  [["equal", "to", "or", "greater", "than"], "gte"], [["equal", "to", "or", "more", "than"], "gte"], [["equal", "to", "or", "higher", "than"], "gte"], [["equal", "to", "or", "above"], "gte"],
  [["equal", "to", "or", "less", "than"], "lte"], [["equal", "to", "or", "lower", "than"], "lte"], [["equal", "to", "or", "fewer", "than"], "lte"], [["equal", "to", "or", "below"], "lte"],
  [["at", "or", "above"], "gte"], [["at", "or", "over"], "gte"], [["at", "or", "beyond"], "gte"], [["at", "or", "more", "than"], "gte"], [["at", "or", "higher", "than"], "gte"],
  [["at", "or", "below"], "lte"], [["at", "or", "under"], "lte"], [["at", "or", "less", "than"], "lte"], [["at", "or", "lower", "than"], "lte"],
  [["greater", "than", "or", "equal", "to"], "gte"], [["more", "than", "or", "equal", "to"], "gte"], [["less", "than", "or", "equal", "to"], "lte"],
  [["no", "more", "than"], "lte"], [["no", "less", "than"], "gte"], [["not", "more", "than"], "lte"], [["not", "less", "than"], "gte"],
  [["no", "greater", "than"], "lte"], [["no", "higher", "than"], "lte"], [["not", "exceeding"], "lte"], [["not", "over"], "lte"],
  [["more", "than"], "gt"], [["greater", "than"], "gt"], [["higher", "than"], "gt"], [["larger", "than"], "gt"], [["bigger", "than"], "gt"],
  [["further", "than"], "gt"], [["farther", "than"], "gt"], [["deeper", "than"], "gt"], [["wider", "than"], "gt"], [["taller", "than"], "gt"],
  [["earlier", "than"], "lt"], [["later", "than"], "gt"], [["closer", "than"], "lt"], [["nearer", "than"], "lt"], [["narrower", "than"], "lt"], [["shallower", "than"], "lt"],
  [["longer", "than"], "gt"], [["older", "than"], "gt"], [["heavier", "than"], "gt"], [["faster", "than"], "gt"], [["hotter", "than"], "gt"], [["warmer", "than"], "gt"],
  [["in", "excess", "of"], "gt"], [["upwards", "of"], "gt"], [["north", "of"], "gt"],
  [["shorter", "than"], "lt"], [["younger", "than"], "lt"], [["lighter", "than"], "lt"], [["slower", "than"], "lt"], [["colder", "than"], "lt"], [["cooler", "than"], "lt"],
  [["at", "least"], "gte"], [["at", "most"], "lte"], [["up", "to"], "lte"], [["a", "maximum", "of"], "lte"], [["a", "minimum", "of"], "gte"], [["not", "below"], "gte"],
  [["less", "than"], "lt"], [["fewer", "than"], "lt"], [["lower", "than"], "lt"], [["smaller", "than"], "lt"], [["cheaper", "than"], "lt"], [["south", "of"], "lt"],
  [["equal", "to"], "eq"], [["exactly"], "eq"],
  [["does", "not", "exceed"], "lte"], [["doesn't", "exceed"], "lte"], [["do", "not", "exceed"], "lte"], [["don't", "exceed"], "lte"],
  [["reaches"], "gte"], [["reach"], "gte"], [["reaching"], "gte"], [["hits"], "gte"], [["hit"], "gte"], [["meets", "or", "exceeds"], "gte"], [["meet", "or", "exceed"], "gte"],
  [["over"], "gt"], [["above"], "gt"], [["exceeding"], "gt"], [["exceeds"], "gt"], [["exceed"], "gt"], [["beyond"], "gt"], [["past"], "gt"], [["topping"], "gt"], [["tops"], "gt"],
  [["under"], "lt"], [["below"], "lt"], [["beneath"], "lt"], [["within"], "lte"],
];
const DAYS: Record<string, number> = {
  sunday: 0, sundays: 0, sun: 0, monday: 1, mondays: 1, mon: 1, tuesday: 2, tuesdays: 2, tue: 2, tues: 2, wednesday: 3, wednesdays: 3, wed: 3,
  thursday: 4, thursdays: 4, thu: 4, thurs: 4, friday: 5, fridays: 5, fri: 5, saturday: 6, saturdays: 6, sat: 6,
};
const WEEKDAYS = [1, 2, 3, 4, 5];
// Words for a thing's state that are yes or no: "MFA enabled", "backups active", "auto-renew off".
const STATE_WORDS = new Set(["enabled", "disabled", "active", "inactive", "on", "off", "configured", "activated", "deactivated", "switched", "turned", "set", "verified", "unverified", "locked", "unlocked", "encrypted", "unencrypted"]);
const OFF_STATES = new Set(["disabled", "inactive", "off", "deactivated", "unverified", "unlocked", "unencrypted"]);
const MONTHS: Record<string, number> = {
  january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5, june: 6, jun: 6, july: 7, jul: 7, august: 8, aug: 8,
  september: 9, sep: 9, sept: 9, october: 10, oct: 10, november: 11, nov: 11, december: 12, dec: 12,
};

/**
 * A day of the year at `k`: "December 1", "1 December", "the 1st of December", "the last day of April",
 * "the end of March", or a month alone (its first day as a start, its last as an end).
 */
/** After a name of up to four words, a bracket or a dash that opens dates: where the dates start. */
function datesAfterLabel(ws: W[], j: number): number | undefined {
  for (let k = j; k < j + 4 && ws[k]?.t.kind === "word" && MONTHS[ws[k]!.norm] === undefined && !CONDITION_MARKERS.has(ws[k]!.norm); k++) {
    const mark = ws[k + 1];
    if (mark?.t.kind !== "punct" || !["(", "-", "–", "—"].includes(mark.t.text)) continue;
    const at = wordIs(ws[k + 2], "from", "between") ? k + 3 : k + 2;
    return monthDayAt(ws, at, "start") ? k + 2 : undefined;
  }
  return undefined;
}

function monthDayAt(ws: W[], k: number, end: "start" | "end"): { md: number; next: number } | undefined {
  if (wordIs(ws[k], "the")) k++;
  const month = (x: W | undefined) => (x?.t.kind === "word" ? MONTHS[x.norm] : undefined);
  const dayOf = (x: W | undefined) => (x?.t.kind === "number" && Number.isInteger(x.t.value) && x.t.value >= 1 && x.t.value <= 31 ? x.t.value : x?.t.kind === "word" && /^(\d{1,2})(?:st|nd|rd|th)$/.test(x.norm) ? Number(x.norm.slice(0, -2)) : undefined);
  if (wordIs(ws[k], "last", "end", "first", "start", "beginning") && (wordIs(ws[k + 1], "of") || (wordIs(ws[k + 1], "day") && wordIs(ws[k + 2], "of")))) {
    const last = wordIs(ws[k], "last", "end");
    const at = wordIs(ws[k + 1], "of") ? k + 2 : k + 3;
    const m = month(ws[at]);
    return m === undefined ? undefined : { md: m * 100 + (last ? 31 : 1), next: at + 1 };
  }
  const m1 = month(ws[k]);
  if (m1 !== undefined) {
    const d = dayOf(ws[k + 1]);
    return d !== undefined ? { md: m1 * 100 + d, next: k + 2 } : { md: m1 * 100 + (end === "start" ? 1 : 31), next: k + 1 };
  }
  const d = dayOf(ws[k]);
  const at = wordIs(ws[k + 1], "of") ? k + 2 : k + 1;
  const m2 = month(ws[at]);
  return d !== undefined && m2 !== undefined ? { md: m2 * 100 + d, next: at + 1 } : undefined;
}
const RATE_UNITS: Record<string, number> = { second: 1, minute: 60, min: 60, hour: 3600, hr: 3600, day: 86_400, week: 604_800, month: 2_592_000, year: 31_536_000 };
// Values that name a deployment environment: "in production" looks at an environment-like argument too.
const ENVIRONMENTS = new Set(["production", "prod", "staging", "stage", "development", "dev", "test", "testing", "qa", "sandbox", "live", "preview", "uat", "preprod", "pre-production"]);
const CONDITION_MARKERS = new Set([
  "when", "whenever", "if", "where", "while", "whose", "which", "that", "who", "with", "without", "once", "after", "before", "during", "outside",
  "between", "from", "over", "above", "under", "below", "exceeding", "beyond", "per", "within", "on", "in", "to", "for", "at", "of", "than", "marked", "flagged",
  "tagged", "containing", "contains", "mentioning", "starting", "ending", "costing", "worth", "valued", "priced", "weighing", "lasting", "by", "whenever", "via", "through",
]);

export interface Reading {
  effect: Effect | "only_allow";
  domain: string | null;
  terms: ActionTerm[];
  any: boolean;
  when: Condition[];
  unless: Condition[];
  /** Words no step placed (shown back, never silently dropped from the explanation). */
  loose: string[];
  /** The conditions among `when` written with the action itself. */
  scope: Condition[];
  /** "X may be done without approval only when C": the effect holds outside C (as "only allow" does). */
  outsideOnly?: boolean;
}

// The action's own time of day, or when it has none, the time it runs.
const OWN_TIME: Subject = { text: "time", words: [], implied: "time", orNow: true };

function subjectOf(words: W[]): Subject {
  const content = words.filter((w) => w.t.kind === "word" && !DETERMINERS.has(w.norm) && !["of", "the", "is", "are", "be", "its", "their", "it", "they"].includes(w.norm) && !MODALS.has(w.norm));
  return { text: content.map((w) => w.norm).join(" "), words: content.map((w) => baseOf(w)) };
}

/** Whether the word at i follows the effect's "be" ("must not be", "may never be", "can only be"). */
function afterEffectBe(ws: W[], i: number): boolean {
  // ("No cash float … is ever issued": after a "no" that opens the sentence, "is" carries the verb too.)
  const sign = wordIs(ws[0], "no") && ws[0]!.used === true;
  // ("… is never issued", "… are not issued": the copula and its negation, the effect's words.)
  const negatedCopula = wordIs(ws[i - 1], "never", "not") && ws[i - 1]!.used === true && wordIs(ws[i - 2], "is", "are", "was", "were");
  if (!wordIs(ws[i - 1], "be", "been") && !negatedCopula && !(sign && (wordIs(ws[i - 1], "is", "are") || (wordIs(ws[i - 1], "ever") && wordIs(ws[i - 2], "is", "are"))))) return false;
  let back = i - 1;
  while (back >= 0 && (wordIs(ws[back], "be", "been", "ever", "only") || (sign && wordIs(ws[back], "is", "are")) || MODALS.has(ws[back]!.norm) || (ws[back]!.used && ws[back]!.t.kind === "word"))) back--;
  return sign || ws.slice(back + 1, i).some((x) => x.used || MODALS.has(x.norm));
}

/**
 * "drone flights planned with …", "glider launches flown by winch": a past participle right after its
 * noun, not after "be", describes the things (a reduced relative clause) rather than naming what is done.
 */
function isReducedRelative(w: W, words: W[]): boolean {
  const before = words[words.indexOf(w) - 1];
  return !!before && ["NOUN", "PROPN"].includes(before.pos) && !w.passive && isPastParticiple(w);
}

/** A past participle, regular or not: an inflected form that is not the -ing or the third person ("planned", "flown", "sent"). */
// Where a condition's words stop: the end, punctuation, a word that opens the next condition or item, or
// the effect after a subject ("… are forbidden", "… must not", "… need sign-off").
const endsClause = (ws: W[], k: number) =>
  !ws[k] || ws[k]!.t.kind !== "word" || CONDITION_MARKERS.has(ws[k]!.norm) || LIST_SEPARATORS.has(ws[k]!.norm) || MODALS.has(ws[k]!.norm) || wordIs(ws[k], "is", "are", "need", "needs", "require", "requires");

/** A capital letter read as a value (analyze: "zone C", "Studio B sessions"). */
const isValueLetter = (w: W | undefined) => !!w && w.pos === "PROPN" && /^[A-Z]$/.test(w.norm);

// A participle or gerund before a noun it qualifies: "an enhanced vetting check", "a signed form".
const verbalModifier = (w: W) => w.t.kind === "word" && (isPastParticiple(w) || /[a-z]{3}ing$/.test(w.norm));
const isPastParticiple = (w: W) => w.norm !== w.lemma && !/(?:ing|s)$/.test(w.norm) && /(?:d|en|wn|t)$/.test(w.norm);

/**
 * "refunds not approved by a manager", "shipments not cleared by customs": a "not" between a thing and a
 * participle is a reduced relative clause, the thing's state negated, not the rule's negation (which the
 * sentence says elsewhere: "… are blocked", "… must not be released"). Not a participle of permission or
 * ban ("not allowed", "not permitted"), which is the effect.
 */
function negatedParticipleAt(ws: W[], i: number): boolean {
  const thing = ws[i - 1];
  if (!thing || thing.t.kind !== "word" || !notDoneAt(ws, i)) return false;
  // (A plural the tagger read as a verb is a thing too: "shipments", "loads".)
  return (thing.pos === "NOUN" || thing.pos === "PROPN" || (thing.pos === "VERB" && /[^s]s$/.test(thing.norm) && !MODALS.has(thing.norm))) && !DETERMINERS.has(thing.norm);
}

/** "not" and a participle that is no permission or ban: a state negated (the condition reader sees it without its thing). */
// ("not yet paid", "not fully signed": an adverb may come between.)
const notDoneAt = (ws: W[], i: number) => doneAfterNot(ws, i) > 0;
function doneAfterNot(ws: W[], i: number): number {
  if (!wordIs(ws[i], "not")) return -1;
  const k = ws[i + 1]?.pos === "ADV" && ws[i + 2]?.pos === "VERB" ? i + 2 : i + 1;
  const done = ws[k];
  return done?.t.kind === "word" && done.pos === "VERB" && isPastParticiple(done) && !ALLOW_WORDS.has(done.norm) && !BLOCK_PARTICIPLES.has(done.norm) ? k : -1;
}

// "a freezer's setpoint": the tagger reads the possessive as a particle, but its noun names the thing whose
// part the action changes, often the word a tool is named by (`set_freezer_temperature`).
// (Not a pronoun's: "anyone's salary" names no thing.)
const PRONOUN_OWNERS = new Set(["anyone", "anybody", "someone", "somebody", "everyone", "everybody", "nobody", "one", "another", "other", "each", "whoever"]);
const isPossessor = (w: W) => w.t.kind === "word" && /^[a-z]{3,}['’]s$/.test(w.norm) && !PRONOUN_OWNERS.has(w.norm.slice(0, -2));

/** A word's lemma for matching: wink's, else the word. Nouns of action keep their noun form; matching adds the verb. */
/**
 * The verb of an operation word: its lemma, or the word as written when only that names an operation
 * ("routed", which the tagger takes for "rout": the written form still reads as "route").
 */
function verbBaseOf(w: W): string {
  const base = baseOf(w);
  return verbClassOf(base) === undefined && verbClassOf(w.norm) !== undefined ? w.norm : base;
}

function baseOf(w: W): string {
  // A joined word ("shared-staging") is kept whole: the tagger's lemma is of its last part only.
  if (/[-_]/.test(w.norm)) return w.norm;
  // A possessive ("the recipient's domain"): the noun.
  if (/^[a-z]+['’]s$/.test(w.norm)) return w.norm.slice(0, -2);
  return (w.lemma || w.norm).toLowerCase().replace(/[^a-z0-9_#@.-]/g, "");
}

function valueOf(t: Token): Value | undefined {
  switch (t.kind) {
    case "number":
      return { value: t.value, text: t.text };
    case "money":
      return { value: t.value, currency: t.currency, text: t.text, ...(t.anyCurrency ? { anyCurrency: true } : {}) };
    case "percent":
      return { value: t.value, percent: true, text: t.text };
    case "quantity":
      return { value: t.quantity.value, unit: t.quantity.unit, kind: t.quantity.kind, text: t.text };
    default:
      return undefined;
  }
}

const COMPLEMENT: Partial<Record<Comparator, Comparator>> = { gt: "lte", gte: "lt", lt: "gte", lte: "gt" };

/** A comparator phrase at i: its op and length; "7,500 GBP or more" is read at the value. */
function comparatorAt(ws: W[], i: number): { op: Comparator; length: number } | undefined {
  const t = ws[i]?.t;
  if (t?.kind === "op") return { op: t.op, length: 1 };
  for (const [phrase, op] of COMPARATORS) {
    if (phrase.every((p, k) => ws[i + k]?.t.kind === "word" && ws[i + k]!.norm === p)) return { op, length: phrase.length };
  }
  // "max 3 vouchers", "minimum 2 staff": a bound written as a label before its number.
  if (wordIs(ws[i], "max", "maximum", "min", "minimum") && NUMERIC_KINDS.has(ws[i + 1]?.t.kind ?? "")) return { op: wordIs(ws[i], "max", "maximum") ? "lte" : "gte", length: 1 };
  // "no fewer than", "not lighter than", "not under": a negated comparison is its complement.
  if (wordIs(ws[i], "no", "not") && ws[i + 1]?.t.kind === "word") {
    const inner = comparatorAt(ws, i + 1);
    const complement = inner && COMPLEMENT[inner.op];
    if (inner && complement) return { op: complement, length: inner.length + 1 };
  }
  // "stronger than", "steeper than", "louder than": any comparative the tagger reads as one (an adjective
  // whose lemma is its base) says more of that quality, unless its base names the low end of a scale.
  // ("sooner than": an adverb of time is one too, which the tagger leaves unlemmatised.)
  const w = ws[i];
  if (w?.t.kind === "word" && (w.pos === "ADJ" || w.pos === "ADV") && /[a-z]{2}(?:er|r)$/.test(w.norm) && wordIs(ws[i + 1], "than")) {
    const base = w.lemma !== w.norm && w.norm.startsWith(w.lemma.slice(0, 2)) ? w.lemma : w.pos === "ADV" && isKnownWord(w.norm.slice(0, -2)) ? w.norm.slice(0, -2) : undefined;
    if (base) return { op: LOW_END.has(base) ? "lt" : "gt", length: 2 };
  }
  // "goes above", "is greater than": a verb before the comparator is skipped by the caller.
  return undefined;
}
// Verbs of having or holding: with an amount after them they only say the subject has it.
const HAVING_VERBS = new Set(["include", "contain", "use", "have", "hold", "carry", "involve", "consume", "comprise", "cover", "list", "feature", "draw"]);
/** "include more than eight", "use 2 kg": a verb of having at k with an amount right after it. */
const holdsAmount = (ws: W[], k: number) => HAVING_VERBS.has(ws[k]?.lemma ?? "") && (comparatorAt(ws, k + 1) !== undefined || NUMERIC_KINDS.has(ws[k + 1]?.t.kind ?? ""));
// Adjectives whose comparative says less of a measure ("weaker than 5 knots" is below 5 knots).
const LOW_END = new Set(["low", "small", "short", "young", "light", "slow", "cold", "cool", "close", "near", "narrow", "shallow", "few", "cheap", "weak", "thin", "quiet", "soft", "dim", "early", "little", "slight", "brief", "mild", "scarce", "tiny", "sparse", "soon"]);

/**
 * A time of day compared as a value: "later than 14:00", "earlier than 6am", "past 2pm". Said of a thing
 * ("a pickup later than 2pm"), it is the thing's own time (see readClock).
 */
function clockComparisonAt(ws: W[], i: number): { after: boolean; minutes: number; next: number } | undefined {
  if (wordIs(ws[i], "later", "earlier") && wordIs(ws[i + 1], "than") && ws[i + 2]?.t.kind === "time") return { after: wordIs(ws[i], "later"), minutes: (ws[i + 2]!.t as { minutes: number }).minutes, next: i + 3 };
  if (wordIs(ws[i], "past") && ws[i + 1]?.t.kind === "time") return { after: true, minutes: (ws[i + 1]!.t as { minutes: number }).minutes, next: i + 2 };
  return undefined;
}

const NUMERIC_KINDS = new Set(["number", "money", "percent", "quantity"]);

// Parts of speech that name a thing or its kind, in the short noun phrases readers take after a word.
const NOMINAL = new Set(["NOUN", "PROPN", "ADJ", "X"]);
const opensClause = (w: W) => CONDITION_MARKERS.has(w.norm) || LIST_SEPARATORS.has(w.norm);

/** Up to three unused words from k that `fits` accepts (told how many it has taken and where the word is). */
function phraseAt(ws: W[], k: number, fits: (w: W, taken: number, at: number) => boolean, most = 3): W[] {
  const out: W[] = [];
  for (let at = k; at < ws.length && out.length < most; at++) {
    const w = ws[at]!;
    if (w.t.kind !== "word" || w.used || !fits(w, out.length, at)) break;
    out.push(w);
  }
  return out;
}

// Nouns that name an amount an action carries besides its own: "its insured value", "the credit limit".
// Verbs that give a thing's measure ("a crate weighing …", "jobs costing …"), as written.
const MEASURE_VERB = /^(?:total(?:l?ing|s|l?ed)|cost(?:s|ing)|worth|valued|priced|weigh(?:s|ing)|last(?:s|ing)|amount(?:s|ing)|measur(?:es|ing)|running|runs|takes|taking)$/;
// Nouns of what a quantity measures ("a load with a weight over …").
const MEASURE_NOUNS = new Set(["weight", "mass", "length", "width", "height", "depth", "size", "distance", "speed", "temperature", "volume", "duration", "age", "area", "load", "payload", "level", "pressure", "power", "energy", "dose", "capacity", "percentage", "share", "ratio", "rate"]);
const AMOUNT_NOUNS = new Set(["value", "limit", "amount", "price", "cost", "total", "balance", "budget", "cap", "ceiling", "threshold", "quota", "maximum", "minimum", "max", "min", "salary", "fee", "estimate", "quote", "allowance", "sum", "deposit", "rent", "rate", "valuation", "reserve", "premium", "excess", "deductible", "coverage", "entitlement", "credit", "capacity", "stock", "inventory", "outstanding", "charge", "payment", "fare", "spend", "income", "wage", "offer", "bid"]);

/**
 * Another argument named after a comparator: a determiner or an owner ("the", "its", "the policy's"), then
 * up to three nouns ending in one that names an amount ("insured value", "coverage limit"), and no number.
 */
function fieldAt(ws: W[], k: number): { words: W[]; next: number } | undefined {
  // ("our operating cost": the writer's own figure, which the action carries as another does.)
  const OWNERS = ["the", "its", "their", "his", "her", "this", "our", "your"];
  if (!wordIs(ws[k], ...OWNERS) && !/'s$/.test(ws[k]?.norm ?? "")) return undefined;
  const words: W[] = [];
  let m = wordIs(ws[k], ...OWNERS) ? k + 1 : k;
  // "the account's credit limit": the owner is whose argument it is, not a word of its name.
  const owned = /'s$/.test(ws[m]?.norm ?? "") && ws[m]!.t.kind === "word";
  if (owned) m++;
  while (m < ws.length && words.length < 3 && ws[m]!.t.kind === "word" && !CONDITION_MARKERS.has(ws[m]!.norm) && !LIST_SEPARATORS.has(ws[m]!.norm) && ["NOUN", "ADJ", "VERB", "PROPN"].includes(ws[m]!.pos)) words.push(ws[m++]!);
  // An amount named as one ("credit limit", "the maximum discount"), or anything someone owns that is
  // compared with ("the clerk's markdown authority").
  // ("the expiry date of the applicant's passport": a date, and whose it is after "of", which names it too.)
  // ("their rated payload", "the approved rate": a measure, or a figure someone set as a bound.)
  const amount = (w: W) => AMOUNT_NOUNS.has(w.norm.replace(/s$/, "")) || MEASURE_NOUNS.has(w.lemma) || DATE_NOUNS.has(w.norm);
  const bound = words.length > 1 && wordIs(words[0], "rated", "maximum", "max", "permitted", "allowed", "approved", "agreed", "contracted", "nominal", "design", "certified", "licensed", "registered", "declared");
  if (words.length === 0 || !(amount(words.at(-1)!) || words.some(amount) || bound || (owned && words.at(-1)!.pos === "NOUN"))) return undefined;
  if (ws[m] && NUMERIC_KINDS.has(ws[m]!.t.kind)) return undefined;
  // "the fee the customer accepted", "the price that was agreed": what was done to the figure names it
  // (`approved_rate`), beside what it is.
  let r = wordIs(ws[m], "that", "which") ? m + 1 : m;
  if (wordIs(ws[r], "was", "were", "is", "has", "have", "had")) r++;
  else if (wordIs(ws[r], "the", "a", "an", "our", "their") && ws[r + 1]?.pos === "NOUN") r += 2;
  else r = -1;
  if (r > m && ws[r]?.t.kind === "word" && PAST_PARTICIPLE.test(ws[r]!.norm) && ws[r]!.pos === "VERB") {
    words.unshift(ws[r]!);
    m = r + 1;
  }
  if (wordIs(ws[m], "of") && DATE_NOUNS.has(words.at(-1)!.norm)) {
    const whose = thingNamedAt(ws, m + 1);
    if (whose) return { words: [...words, ...whose.words.filter((w) => !/'s$/.test(w.norm))], next: whose.next };
  }
  // "our production cost for the job", "the limit on the account": the thing the amount is of, by a
  // definite noun, names no value of its own.
  if (wordIs(ws[m], "for", "of", "on") && wordIs(ws[m + 1], "the", "this", "that") && ws[m + 2]?.pos === "NOUN" && !ws[m + 2]!.used && endsClause(ws, m + 3)) return { words, next: m + 3 };
  return { words, next: m };
}

/**
 * The thing a value is measured from or against, named after a preposition ("the nearest land", "rated load",
 * "the band's start time"): determiners skipped, up to three unused words (nouns, adjectives, possessives, a
 * verb or participle before a noun), ending in a noun. Undefined when no such phrase is there.
 */
function thingNamedAt(ws: W[], k: number): { words: W[]; next: number } | undefined {
  let m = k;
  while (wordIs(ws[m], "the", "a", "an", "any", "its", "their")) m++;
  // ("its last service visit": which one of them, "last" or "previous", is a part of its name.)
  const words = phraseAt(ws, m, (w, _taken, at) => !opensClause(w) && DAYS[w.norm] === undefined && MONTHS[w.norm] === undefined && (["NOUN", "PROPN", "ADJ"].includes(w.pos) || /'s$/.test(w.norm) || (w.pos === "VERB" && ws[at + 1]?.pos === "NOUN") || (at === m && wordIs(w, "last", "latest", "previous", "next", "first", "most"))));
  return words.length > 0 && ["NOUN", "PROPN"].includes(words.at(-1)!.pos) ? { words, next: m + words.length } : undefined;
}

/** A fraction in words at k ("half", "a third", "two thirds"); "of" after it ("half of the …") when `of` allows. */
function fractionAt(ws: W[], k: number, of = false): { value: number; length: number; text: string } | undefined {
  // "two thirds": the tokenizer has read "two" as a number already.
  const words = ws.slice(k, k + 3).map((w) => (w.t.kind === "word" ? w.norm : w.t.kind === "number" && Number.isInteger(w.t.value) ? (["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"][w.t.value] ?? "") : ""));
  const got = readFractionWords(words, 0);
  if (!got || (!of && wordIs(ws[k + got.length], "of"))) return undefined;
  return { ...got, text: words.slice(0, got.length).join(" ") };
}

/** The rest of a chunk after a value: "or more", "and above", "+", "in value", "old", "a year", a counted noun. */
/** "or more", "and above", "or fewer" … at k: the comparator it makes, or undefined. */
function boundAt(ws: W[], k: number): Comparator | undefined {
  // ("under 2 bar or over 6 bar", "below 10 or more than 50": a value after it makes it a comparison of its
  // own, the other side of a range the action must stay inside, not the bound of the value before it.)
  const after = ws[wordIs(ws[k + 2], "than") ? k + 3 : k + 2];
  if (after && NUMERIC_KINDS.has(after.t.kind)) return undefined;
  if ((wordIs(ws[k], "or") && wordIs(ws[k + 1], "more", "higher", "above", "greater", "over", "up")) || (wordIs(ws[k], "and") && wordIs(ws[k + 1], "above", "up", "over", "more"))) return "gte";
  if ((wordIs(ws[k], "or") && wordIs(ws[k + 1], "less", "fewer", "lower", "below", "under")) || (wordIs(ws[k], "and") && wordIs(ws[k + 1], "below", "under", "less", "fewer"))) return "lte";
  return undefined;
}

const pluralAfterNumber = (w: W) => w.norm.length > 3 && w.norm.endsWith("s") && !w.norm.endsWith("ss") && w.lemma !== w.norm;

function afterValue(ws: W[], j: number, op: Comparator): { op: Comparator; next: number; count?: W[]; per?: string; age?: boolean; inValue?: boolean } {
  let next = j;
  let result: { op: Comparator; next: number; count?: W[]; per?: string; age?: boolean; inValue?: boolean } = { op, next };
  const bound = boundAt(ws, next);
  if (bound) {
    result.op = bound;
    next += 2;
  } else if (ws[next]?.t.kind === "punct" && ws[next]!.t.text === "+") {
    result.op = "gte";
    next += 1;
  }
  // A counted noun right after a bare number: "100 recipients", "20 users", "1,000 shares".
  if (ws[j - 1]?.t.kind === "number") {
    const nouns: W[] = [];
    let k = next;
    while (k < ws.length && ws[k]!.t.kind === "word" && ["NOUN", "PROPN", "ADJ", "X", "VERB"].includes(ws[k]!.pos) && !CONDITION_MARKERS.has(ws[k]!.norm) && !["or", "and", "old", "a", "an", "per", "each"].includes(ws[k]!.norm) && nouns.length < 5) {
      nouns.push(ws[k]!);
      k++;
      // A plural right after a number is what it counts, whatever the tagger made of it ("100 users requires").
      if (nouns.length === 1 && pluralAfterNumber(ws[k - 1]!)) break;
      if (ws[k - 1]!.pos === "NOUN" && !(ws[k]?.pos === "NOUN")) break;
    }
    if (nouns.length > 0 && nouns.some((x) => x.pos === "NOUN" || x.pos === "PROPN" || x.pos === "X" || pluralAfterNumber(x))) {
      result.count = nouns;
      next = k;
      // "10,000 users or fewer": the bound after the counted noun.
      const bound = next === k && result.op === op ? boundAt(ws, next) : undefined;
      if (bound) {
        result.op = bound;
        next += 2;
      }
    }
  }
  if (wordIs(ws[next], "in") && wordIs(ws[next + 1], "value", "total", "size", "amount")) {
    result.inValue = true;
    next += 2;
  }
  if (wordIs(ws[next], "old")) {
    result.age = true;
    next += 1;
    // "30 days old or older", "a year old or younger": the bound after the age.
    if (wordIs(ws[next], "or") && wordIs(ws[next + 1], "older", "more", "over")) {
      result.op = "gte";
      next += 2;
    } else if (wordIs(ws[next], "or") && wordIs(ws[next + 1], "younger", "newer", "less", "under")) {
      result.op = "lte";
      next += 2;
    }
  }
  if ((wordIs(ws[next], "a", "an", "per", "each", "every") && ws[next + 1]?.t.kind === "word" && RATE_UNITS[ws[next + 1]!.lemma] !== undefined) || (wordIs(ws[next], "annually", "yearly", "monthly", "daily", "weekly", "hourly"))) {
    result.per = wordIs(ws[next], "annually", "yearly") ? "year" : wordIs(ws[next], "monthly") ? "month" : wordIs(ws[next], "daily") ? "day" : wordIs(ws[next], "weekly") ? "week" : wordIs(ws[next], "hourly") ? "hour" : ws[next + 1]!.lemma;
    next += wordIs(ws[next], "annually", "yearly", "monthly", "daily", "weekly", "hourly") ? 1 : 2;
  }
  result = { ...result, next };
  return result;
}


/**
 * The party a count is kept for: "of the same user", "for the same customer", "per patient", "for any one
 * vendor", "to a single recipient". Its noun (and a noun before it) is the subject the actions must share.
 */
function readParty(ws: W[], at: number, anywhere = false, object = false): { subject: Subject; from: number; next: number } | undefined {
  const PREPOSITIONS = ["of", "for", "to", "on", "from", "at", "by", "with", "against"];
  for (let k = at; k < (anywhere ? ws.length : at + 1); k++) {
    let m = k;
    if (wordIs(ws[m], "per", "each")) m++;
    // (An object after its verb: "text the same patient".)
    else if (object && wordIs(ws[m], "the", "any", "a") && wordIs(ws[m + 1], "same", "single")) m += 2;
    else if (wordIs(ws[m], ...PREPOSITIONS) && wordIs(ws[m + 1], "the", "a", "any", "one", "each") && (wordIs(ws[m + 2], "same", "single", "given", "particular", "individual", "one") || (ws[m + 2]?.t.kind === "number" && (ws[m + 2]!.t as { value: number }).value === 1))) m += 3;
    else continue;
    const nouns: W[] = [];
    // (An adjective only before its noun: "of the same user more than …" ends at the noun.)
    const fits = (w: W | undefined) => w?.t.kind === "word" && RATE_UNITS[w.lemma] === undefined && !CONDITION_MARKERS.has(w.norm) && comparatorAt(ws, ws.indexOf(w)) === undefined;
    while (nouns.length < 2 && fits(ws[m]) && (["NOUN", "PROPN"].includes(ws[m]!.pos) || (ws[m]!.pos === "ADJ" && ["NOUN", "PROPN"].includes(ws[m + 1]?.pos ?? "") && fits(ws[m + 1])))) nouns.push(ws[m++]!);
    if (nouns.length === 0) continue;
    return { subject: subjectOf(nouns), from: k, next: m };
  }
  return undefined;
}

// A reference: letters and digits joined by a hyphen or underscore ("lot-4410", "ink_2291"), or letters glued
// to digits ("sku4410"); not a plain number, which counts or measures.
const isReference = (w: W | undefined) => !!w && w.t.kind === "word" && /\d/.test(w.norm) && /[a-z]/.test(w.norm) && !networkOf(w.norm);

/**
 * References named in the action's words after their noun ("batches LOT-1, LOT-2 or LOT-3"): an equality
 * of that noun to any of them. The references leave the action; the noun stays one of its words.
 */
function referencesInAction(words: W[]): Condition | undefined {
  const network = (w: W | undefined) => w?.t.kind === "word" && networkOf(w.norm) !== undefined;
  for (let i = 0; i < words.length - 1; i++) {
    const noun = words[i]!;
    // "port scans of 192.168.0.0/16": addresses after a preposition too (they say which argument they are
    // of, whatever the word before them is tagged).
    const through = noun.t.kind === "word" && !isReference(noun) && wordIs(words[i + 1], "of", "on", "in", "against", "to", "from") && network(words[i + 2]) ? 1 : 0;
    if (!through && (noun.t.kind !== "word" || !["NOUN", "PROPN"].includes(noun.pos) || isReference(noun))) continue;
    // ("UN class 1, 2.1 or 7": numbers after their noun are a list of its values when there are two or more.)
    const numeric = (w: W | undefined) => w?.t.kind === "number";
    const numbers = !through && numeric(words[i + 1]) && (wordIs(words[i + 2], "or", "and") || (words[i + 2]?.t.kind === "punct" && words[i + 2]!.t.text === ",")) && (numeric(words[i + 3]) || numeric(words[i + 4]));
    const item = (w: W | undefined) => (through ? network(w) : numbers ? numeric(w) : isReference(w) || network(w));
    if (!item(words[i + 1 + through])) continue;
    const text = (w: W) => valueText(w)!;
    const values: string[] = [text(words[i + 1 + through]!)];
    let m = i + 2 + through;
    for (;;) {
      const skip = separatorAt(words, m);
      if (skip === 0 || !item(words[m + skip])) break;
      values.push(text(words[m + skip]!));
      m += skip + 1;
    }
    if (through) {
      words.splice(i + 1, m - i - 1);
      return { kind: "equals", subject: { text: "", words: [] }, values, negate: false };
    }
    // (The noun stays a word of the action: "batches" may be what names the tool's `batch_id`.)
    words.splice(i + 1, m - i - 1);
    return { kind: "equals", subject: subjectOf([noun]), values, negate: false };
  }
  return undefined;
}

// Fields that hold text a rule may look into ("with urgent in the subject").
const TEXT_FIELDS = new Set(["subject", "title", "body", "message", "filename", "description", "comment", "note", "text", "content", "caption", "headline", "summary", "header", "heading", "url", "path", "line"]);

/** Reads conditions from words; returns the conditions and the words no reader placed. */
class ConditionReader {
  constructor(
    private readonly all: W[],
    private readonly actionNouns: string[],
  ) {}

  read(ws: W[]): { conditions: Condition[]; loose: W[]; spare: Set<W> } {
    const conditions: Condition[] = [];
    const loose: W[] = [];
    const spare = new Set<W>();
    let i = 0;
    let pendingOr = false;
    let negateNext = false;
    let lastSubject: W[] = [];
    // "before 8am, after 6pm, or on a Sunday": conditions parted by commas only, then "or", are one list of
    // alternatives. `listed` counts the conditions at the end that commas alone part; `comma`/`joined` say
    // what stood since the last condition.
    let listed = 0;
    let comma = false;
    let joined = false;
    let lastEnd: W | undefined;
    while (i < ws.length) {
      const w = ws[i]!;
      if (w.used || (w.t.kind === "punct" && w.t.text !== "(" && w.t.text !== "/")) {
        if (w.t.kind === "punct" && w.t.text === ",") comma = true;
        else if (w.t.kind === "punct") joined = true;
        i++;
        continue;
      }
      if (wordIs(w, "or")) {
        pendingOr = true;
        i++;
        continue;
      }
      if (wordIs(w, "and", "but", "also", "then", "yet")) joined = true;
      if (wordIs(w, "and", "but", "also", "then", "yet") || (w.t.kind === "word" && ["when", "whenever", "if", "where", "while", "whose", "which", "that", "who", "once", "with", "for", "of", "by", "via", "as", "is", "are", "be", "it", "they", "its"].includes(w.norm) && !this.startsSomething(ws, i))) {
        if (wordIs(w, "with", "for", "of", "by", "whose", "where", "when", "while", "if", "which", "that", "who") && !lastSubject.length) {
          // keep the marker's following words as the next subject
        }
        i++;
        continue;
      }
      // "not (it is a weekday and the time is between 09:00 and 17:00)": a negated group, as restatements
      // write it; the brackets hold conditions that hold together.
      if (wordIs(w, "not") && ws[i + 1]?.t.kind === "punct" && ws[i + 1]!.t.text === "(") {
        let depth = 0;
        let close = -1;
        for (let k = i + 1; k < ws.length && close < 0; k++) {
          if (ws[k]!.t.kind !== "punct") continue;
          if (ws[k]!.t.text === "(") depth++;
          else if (ws[k]!.t.text === ")" && --depth === 0) close = k;
        }
        const inner = close > 0 ? this.read(ws.slice(i + 2, close)) : undefined;
        if (inner && inner.conditions.length > 0) {
          const group = negate(inner.conditions.length === 1 ? inner.conditions[0]! : { kind: "and", of: inner.conditions });
          if (pendingOr && conditions.length > 0) {
            const prev = conditions.pop()!;
            conditions.push(prev.kind === "or" ? { kind: "or", of: [...prev.of, group] } : { kind: "or", of: [prev, group] });
          } else conditions.push(group);
          pendingOr = false;
          loose.push(...inner.loose);
          for (const x of inner.spare) spare.add(x);
          for (let k = i; k <= close; k++) ws[k]!.used = true;
          i = close + 1;
          continue;
        }
      }
      if (wordIs(w, "not", "no", "never") && !this.startsSomething(ws, i)) {
        negateNext = true;
        i++;
        continue;
      }
      // "to any customer", "for every vendor": every one of them, so no condition (and not the action's noun).
      // (Not before a bound of them: "with any rider under 16" is the rider's age.)
      if (wordIs(w, "to", "for", "from", "with") && wordIs(ws[i + 1], "any", "every", "all") && ws[i + 2]?.t.kind === "word" && ws[i + 2]!.pos === "NOUN" && ws[i + 3]?.pos !== "NOUN" && !WILDCARD_NOUNS.has(ws[i + 2]!.lemma) && !comparatorAt(ws, i + 3)) {
        for (let k = i; k <= i + 2; k++) ws[k]!.used = true;
        i += 3;
        continue;
      }
      const got = this.readOne(ws, i, lastSubject);
      if (got) {
        let c = got.condition;
        // "on a permit that has lapsed": the thing named, then what holds of it; the naming alone
        // ("it has a protocol") says nothing more than the date of that thing does.
        const named = conditions.at(-1);
        if (c.kind === "dated" && named?.kind === "flag" && named.expect && named.subject.text === c.subject.text && !pendingOr) conditions.pop();
        if (negateNext) c = negate(c);
        negateNext = false;
        if (pendingOr && conditions.length > 0) {
          const run = Math.max(1, Math.min(listed, conditions.length));
          const prev = run > 1 ? ({ kind: "or", of: conditions.splice(conditions.length - run, run) } as Condition) : conditions.pop()!;
          conditions.push(prev.kind === "or" ? { kind: "or", of: [...prev.of, c] } : { kind: "or", of: [prev, c] });
          listed = 0;
        } else {
          // (Only conditions side by side in the sentence: "for refunds over $500, block them on Sundays or
          // holidays" parts its scope from the rest by the effect's words, and is no list.)
          const adjacent = lastEnd === undefined || this.all.slice(this.all.indexOf(lastEnd) + 1, this.all.indexOf(ws[i]!)).every((x) => x.t.kind === "punct");
          listed = comma && !joined && adjacent && conditions.length > 0 ? listed + 1 : 1;
          conditions.push(c);
        }
        lastEnd = ws[got.next - 1];
        comma = false;
        joined = false;
        pendingOr = false;
        for (let k = i; k < got.next; k++) ws[k]!.used = true;
        // Words a reader read past but that belong to the action ("3 refunds per hour": refunds).
        for (const w of got.spare ?? []) {
          w.used = false;
          loose.push(w);
          spare.add(w);
        }
        if (got.subject) lastSubject = got.subject;
        i = got.next;
        continue;
      }
      loose.push(w);
      i++;
    }
    return { conditions, loose, spare };
  }

  /** Whether a reader can start at i (so a marker word before it is only a connector). */
  private startsSomething(ws: W[], i: number): boolean {
    return this.readOne(ws, i, [], true) !== undefined;
  }

  /** One condition starting at i, with the subject words that precede it in the chunk. */
  private readOne(ws: W[], at: number, lastSubject: W[], probe = false): { condition: Condition; next: number; subject?: W[]; spare?: W[] } | undefined {
    let i = at;
    while (wordIs(ws[i], "when", "whenever", "if", "where", "while", "once") && i + 1 < ws.length) i++;
    return this.readRate(ws, i) ?? this.readDated(ws, i) ?? this.readDates(ws, i) ?? this.readWeekWindow(ws, i) ?? this.readDays(ws, i) ?? this.readClock(ws, i) ?? this.readDomain(ws, i) ?? this.readHasAny(ws, i, probe) ?? this.readComparison(ws, i, lastSubject, probe) ?? this.readText(ws, i) ?? this.readDiffer(ws, i) ?? this.readFlag(ws, i, probe) ?? this.readVerbValue(ws, i, probe) ?? this.readEquality(ws, i, probe);
  }

  /**
   * "while it has any unresolved defects", "that have open invoices", "with any unresolved defects", "has no
   * signed waivers": how many of the things there are, more than none (or none).
   */
  private readHasAny(ws: W[], i: number, probe: boolean): { condition: Condition; next: number } | undefined {
    let j = i;
    // Who has them: "it", "that", "the batch" (a short noun phrase), or nothing after "with".
    if (wordIs(ws[j], "it", "they", "he", "she", "that", "which", "who")) j++;
    else if (wordIs(ws[j], "the", "its", "their")) {
      let k = j + 1;
      while (k < j + 4 && ws[k]?.t.kind === "word" && ["NOUN", "ADJ", "PROPN"].includes(ws[k]!.pos) && !CONDITION_MARKERS.has(ws[k]!.norm)) k++;
      if (k > j + 1) j = k;
    }
    // ("a ward that still has admitted patients": an adverb of time before the verb says nothing of the count.)
    while (wordIs(ws[j], "still", "already", "currently", "now", "yet")) j++;
    const has = wordIs(ws[j], "has", "have", "had", "carries", "carry", "holds", "hold");
    const withAny = j === i && wordIs(ws[j], "with") && wordIs(ws[j + 1], "any");
    if (!has && !withAny) return undefined;
    j++;
    let none = false;
    if (wordIs(ws[j], "no")) none = true;
    if (wordIs(ws[j], "any", "some", "no")) j++;
    else if (!has) return undefined;
    // The things counted: a plural noun phrase (its modifiers before it), up to four words.
    let end = j;
    while (end < ws.length && end < j + 4 && ws[end]!.t.kind === "word" && !ws[end]!.used && ["NOUN", "ADJ", "PROPN", "VERB"].includes(ws[end]!.pos) && !CONDITION_MARKERS.has(ws[end]!.norm) && !LIST_SEPARATORS.has(ws[end]!.norm)) end++;
    const head = ws[end - 1];
    if (end === j || !head || head.pos !== "NOUN" || head.lemma === head.norm) return undefined;
    if (probe) return { condition: { kind: "and", of: [] }, next: end };
    const subject: Subject = { ...subjectOf(ws.slice(j, end)), count: true };
    return { condition: { kind: "compare", subject, op: none ? "lte" : "gt", value: { value: 0, text: "0" } }, next: end };
  }

  /** "over 10 exports per day", "at most 5 a day", "3 times per hour". */
  private readRate(ws: W[], i: number): { condition: Condition; next: number; spare?: W[] } | undefined {
    // "… of the same user more than 2 times per hour": the party first, then the count.
    const first = readParty(ws, i, false, true);
    if (first && comparatorAt(ws, first.next)) {
      const counted = this.readRate(ws, first.next);
      if (counted?.condition.kind === "rate" && !counted.condition.per) return { ...counted, condition: { ...counted.condition, per: first.subject } };
    }
    const cmp = comparatorAt(ws, i);
    const j = cmp ? i + cmp.length : i;
    if (ws[j]?.t.kind !== "number") return undefined;
    const count = (ws[j]!.t as { value: number }).value;
    let k = j + 1;
    // (The things counted and their verb: "3 HMRC duty drawback claims filed per day".)
    // ("… texts to any one patient per day": the "one" of a party is no count.)
    const oneOf = (at: number) => ws[at]?.t.kind === "number" && (ws[at]!.t as { value: number }).value === 1 && wordIs(ws[at - 1], "any", "a", "the");
    // ("2 payouts over $5,000 a day": a bound among the words counted says which of them count.)
    const bounds: { at: number; condition: Condition }[] = [];
    while (k < ws.length && k <= j + 9 && (ws[k]!.t.kind === "word" || oneOf(k)) && !wordIs(ws[k], "per", "a", "an", "every", "each", "in", "within", "an")) {
      const bound = k > j + 1 ? comparatorAt(ws, k) : undefined;
      const value = bound && NUMERIC_KINDS.has(ws[k + bound.length]?.t.kind ?? "") ? valueOf(ws[k + bound.length]!.t) : undefined;
      if (bound && value && bound.op !== "between") {
        bounds.push({ at: k, condition: { kind: "compare", subject: { text: "", words: [] }, op: bound.op, value } });
        k += bound.length + 1;
        continue;
      }
      k++;
    }
    const where: Condition | undefined = bounds.length === 0 ? undefined : bounds.length === 1 ? bounds[0]!.condition : { kind: "and", of: bounds.map((b) => b.condition) };
    // "2 password resets of the same user in an hour": the party the count is kept for sits among the words counted.
    let counted = ws.slice(j + 1, k).filter((w) => !bounds.some((b) => { const at = ws.indexOf(w); return at >= b.at && at < b.at + (comparatorAt(ws, b.at)?.length ?? 0) + 1; }));
    const party = readParty(counted, 0, true);
    // "2 refunds per customer a day": the party right before the window.
    const lead = party ? undefined : readParty(ws, k);
    if (lead) k = lead.next;
    const op = cmp?.op === "gte" ? "gte" : "gt";
    // "at most 5 per day" is a limit of 5 (the 6th is over it); "more than 3" the same; "at least 3" fires at 3.
    const rate = (seconds: number, next: number): { condition: Condition; next: number; spare: W[] } => {
      // "… in 48 hours for the same kiln", "… a day per customer": the party after the window.
      const after = party || lead ? undefined : readParty(ws, next);
      if (party) counted = [...counted.slice(0, party.from), ...counted.slice(party.next)];
      const per = party ?? lead ?? after;
      const counting: Condition = { kind: "rate", op, count, window_seconds: seconds, ...(per ? { per: per.subject } : {}), ...(where ? { where } : {}) };
      return {
        // (The action itself is one of those counted only when it meets the bound too.)
        condition: where ? { kind: "and", of: [where, counting] } : counting,
        next: after ? after.next : next,
        spare: counted.filter((w) => !wordIs(w, "times", "time")),
      };
    };
    // "2 an hour": the tokenizer reads "an hour" as a length of time; one of its unit is the window.
    const whole = ws[k]?.t;
    if (whole?.kind === "quantity" && whole.quantity.kind === "time" && whole.quantity.value === 1 && /^(?:a|an|one|per)\b/i.test(whole.text)) {
      const seconds = convert(1, whole.quantity.unit, "s");
      if (seconds !== undefined) return rate(seconds, k + 1);
    }
    // "within one hour", "in 24 hours": the tokenizer reads "24 hours" as a length of time, the window; not
    // when it measures from something ("within 2 hours of the booking" is a gap).
    const span = ws[k + 1]?.t;
    // ("every 12 weeks", "per 30 days": a window of several units said as a period.)
    if (wordIs(ws[k], "in", "within", "every", "per", "each") && span?.kind === "quantity" && span.quantity.kind === "time" && span.quantity.value > 0 && !wordIs(ws[k + 2], "of", "before", "after", "from", "since", "prior")) {
      const seconds = convert(span.quantity.value, span.quantity.unit, "s");
      if (seconds !== undefined && seconds >= 1) return rate(Math.round(seconds), k + 2);
    }
    if (!(wordIs(ws[k], "per", "a", "an", "every", "each") || (wordIs(ws[k], "in", "within") && wordIs(ws[k + 1], "a", "an", "one", "any")))) return undefined;
    const unitAt = wordIs(ws[k], "in", "within") ? k + 2 : k + 1;
    const unit = ws[unitAt];
    if (!unit || unit.t.kind !== "word" || RATE_UNITS[unit.lemma] === undefined) return undefined;
    return rate(RATE_UNITS[unit.lemma]!, unitAt + 1);
  }

  /**
   * A window across days of the week: "from Friday 18:00 until Monday 07:00 UTC", "between Sat 22:00 and
   * Sun 04:00": the first day from its time, the days between whole, the last day up to its time.
   */
  private readWeekWindow(ws: W[], i: number): { condition: Condition; next: number } | undefined {
    // (A restatement says "it is from Friday 18:00 until …".)
    let k = wordIs(ws[i], "it") && wordIs(ws[i + 1], "is") ? i + 2 : i;
    if (wordIs(ws[k], "from", "between")) k++;
    const day = (x: W | undefined) => (x && x.t.kind === "word" ? DAYS[x.norm] : undefined);
    const clock = (x: W | undefined) => (x?.t.kind === "time" ? (x.t as { minutes: number }).minutes : undefined);
    const d1 = day(ws[k]);
    const t1 = clock(ws[k + 1]);
    if (d1 === undefined || t1 === undefined) return undefined;
    k += 2;
    if (!(wordIs(ws[k], "until", "till", "to", "through", "thru", "and") || (ws[k]?.t.kind === "punct" && ["-", "–", "—"].includes(ws[k]!.t.text)))) return undefined;
    const d2 = day(ws[k + 1]);
    const t2 = clock(ws[k + 2]);
    if (d2 === undefined || t2 === undefined || d2 === d1) return undefined;
    const tz = this.zoneAround(ws, k + 3);
    const between = Array.from({ length: (d2 - d1 + 7) % 7 - 1 }, (_, n) => (d1 + 1 + n) % 7);
    const parts: Condition[] = [
      { kind: "and", of: [{ kind: "weekday", days: [d1], tz: tz.zone }, { kind: "time", from: t1, to: 24 * 60, tz: tz.zone }] },
      ...(between.length > 0 ? [{ kind: "weekday", days: between.sort((a, b) => a - b), tz: tz.zone } as Condition] : []),
      { kind: "and", of: [{ kind: "weekday", days: [d2], tz: tz.zone }, { kind: "time", from: 0, to: t2, tz: tz.zone }] },
    ];
    return { condition: { kind: "or", of: parts }, next: tz.next };
  }

  /** "on Saturdays or Sundays", "on weekends", "on weekdays", "on business days", "on Fridays". */
  /**
   * Days of the year: "from November 1 through the end of March", "between 1 Dec and 28 Feb", "in
   * December, January or February", "for any date from …". Of the time the action runs or, when a planning
   * word or a date noun leads ("scheduled for", "any date"), of the action's own date.
   */
  private readDates(ws: W[], i: number): { condition: Condition; next: number } | undefined {
    let j = i;
    let own = false;
    while (j < i + 5 && (wordIs(ws[j], "for", "on", "during", "falls", "falling", "fall", "is", "are", "any", "a", "the", "date", "dates", "day", "days") || PLANNED.has(ws[j]?.norm ?? ""))) {
      if (wordIs(ws[j], "date", "dates", "falls", "falling", "fall") || PLANNED.has(ws[j]!.norm)) own = true;
      j++;
    }
    // "… may not be booked for any date from …": the planning word may have been read before.
    for (let b = i - 1; b >= Math.max(0, i - 4) && !own; b--) if (wordIs(ws[b], "date", "dates") || PLANNED.has(ws[b]!.norm)) own = true;
    // "during calving season (1 Mar to 31 May)", "on New Year's Day (1 Jan)", "during the nesting season - 2
    // April to 20 May": a season or a day by its name, then its dates in brackets or after a dash. The dates are the
    // condition; the name only labels them.
    const labelled = j > i ? datesAfterLabel(ws, j) : undefined;
    if (labelled !== undefined) j = labelled;
    let from: number | undefined;
    let to: number | undefined;
    let k: number;
    const dayGiven = (a: number, b: number) => ws.slice(a, b).some((x) => x.t.kind === "number" || /^\d{1,2}(?:st|nd|rd|th)$/.test(x.norm));
    const single = j > i && !wordIs(ws[j], "from", "between", "in", "during") ? monthDayAt(ws, j, "start") : undefined;
    if (single && dayGiven(j, single.next) && ws[single.next]?.t.kind !== "number") {
      // "on 1 January", "2 April to 20 May": a day of the year, or days written without "from" (a year
      // after it makes one date, not a day of every year).
      k = single.next;
      if (wordIs(ws[k], "through", "thru", "to", "until", "till", "-", "–") || (ws[k]?.t.kind === "punct" && ["-", "–"].includes(ws[k]!.t.text))) {
        const b = monthDayAt(ws, k + 1, "end");
        if (!b || ws[b.next]?.t.kind === "number") return undefined;
        [from, to, k] = [single.md, b.md, b.next];
      } else [from, to] = [single.md, single.md];
    } else if (wordIs(ws[j], "from", "between")) {
      const a = monthDayAt(ws, j + 1, "start");
      if (!a || !wordIs(ws[a.next], "through", "thru", "to", "until", "till", "and", "-", "–")) return undefined;
      const b = monthDayAt(ws, a.next + 1, "end");
      if (!b) return undefined;
      [from, to, k] = [a.md, b.md, b.next];
    } else if (wordIs(ws[j], "in", "during") || (j > i && MONTHS[ws[j]?.norm ?? ""] !== undefined)) {
      // "in December, January or February": whole months, which must follow one another.
      k = wordIs(ws[j], "in", "during") ? j + 1 : j;
      const months: number[] = [];
      while (MONTHS[ws[k]?.norm ?? ""] !== undefined) {
        months.push(MONTHS[ws[k]!.norm]!);
        k++;
        if (wordIs(ws[k], "or", "and") || (ws[k]?.t.kind === "punct" && ws[k]!.t.text === ",")) {
          if (MONTHS[ws[k + 1]?.norm ?? ""] === undefined) break;
          k++;
        }
      }
      if (months.length === 0 || months.some((m, n) => n > 0 && m !== (months[n - 1]! % 12) + 1)) return undefined;
      [from, to] = [months[0]! * 100 + 1, months.at(-1)! * 100 + 31];
    } else return undefined;
    if (labelled !== undefined && ws[k]?.t.kind === "punct" && ws[k]!.t.text === ")") k++;
    // ("…, every year": the days come round each year, as all days of the year here do.)
    const yearly = (ws[k]?.t.kind === "punct" && ws[k]!.t.text === "," ? k + 1 : k);
    if (wordIs(ws[yearly], "every", "each") && wordIs(ws[yearly + 1], "year")) k = yearly + 2;
    else if (wordIs(ws[yearly], "annually", "yearly")) k = yearly + 1;
    const tz = this.zoneAround(ws, k);
    const subject = own ? { subject: { text: "date", words: [], implied: "time" as const } } : {};
    return { condition: { kind: "dates", from, to, tz: tz.zone, ...subject }, next: tz.next };
  }

  private readDays(ws: W[], i: number): { condition: Condition; next: number } | undefined {
    if (wordIs(ws[i], "from") && !isDayWord(ws[i + 1])) return undefined;
    // "today is Friday", "the day is Monday", "it is the weekend": the day of now, said as a statement.
    let s = i;
    if (wordIs(ws[s], "the", "current")) s++;
    if (wordIs(ws[s], "current")) s++;
    if (wordIs(ws[s], "today", "day", "weekday", "it", "it's")) {
      let k = s + 1;
      if (!wordIs(ws[s], "it's") && wordIs(ws[k], "is", "'s")) k++;
      else if (!wordIs(ws[s], "it's")) k = -1;
      if (k > 0 && wordIs(ws[k], "a", "an", "the")) k++;
      if (k > 0 && isDayWord(ws[k])) i = wordIs(ws[k - 1], "a", "an", "the") ? k - 1 : k;
    }
    let j = i;
    let negated = false;
    // "inspections that begin on a Sunday": the day of the action's own time ("start"), not of now.
    const subject: W[] = [];
    // "whose pour date lands on Sunday", "the delivery date of an order is a Saturday": the time named
    // by its noun (and what it is of) before the verb.
    let n = wordIs(ws[j], "the", "its", "their", "whose") ? j + 1 : j;
    const named: W[] = [];
    // (A verb or adjective before a noun modifies it: "pour date", "go-live date", "planned start".)
    const nominal = (k: number) => ws[k]!.pos === "NOUN" || ws[k]!.pos === "PROPN" || ((ws[k]!.pos === "VERB" || ws[k]!.pos === "ADJ") && ws[k + 1]?.pos === "NOUN");
    // (The head is the noun before "of": "the pour date of a slab booking" names a date.)
    let head: W | undefined;
    while (n < ws.length && n < j + 8 && nominal(n) && !isDayWord(ws[n])) {
      named.push(ws[n]!);
      n++;
      if (wordIs(ws[n], "of") && named.length > 0) {
        head ??= named.at(-1);
        n += wordIs(ws[n + 1], "a", "an", "the", "any", "each", "every") ? 2 : 1;
      }
    }
    head ??= named.at(-1);
    // (Only a noun of a time: "warehouse lifting equipment scheduled for a Saturday" names the thing, and
    // the participle alone says the day is the action's own.)
    const ofTime = head !== undefined && /(?:date|day|time|start|deadline|slot)s?$/.test(head.norm);
    if (ofTime && ws[n] && (ws[n]!.pos === "VERB" || TIME_VERBS.has(ws[n]!.lemma) || wordIs(ws[n], "is", "are"))) {
      subject.push(...named);
      j = n;
    }
    const nounsThenVerb = subject.length;
    while (j < ws.length && j < n + 4 && ws[j]!.t.kind === "word" && !wordIs(ws[j], "on", "during", "at", "over", "outside", "except", "for", "a", "the", "any") && DAYS[ws[j]!.norm] === undefined) {
      const w = ws[j]!;
      if (wordIs(w, "that", "which", "who", "when", "whose", "is", "are")) {
        j++;
        continue;
      }
      if (w.pos !== "VERB" && !TIME_VERBS.has(w.lemma)) return undefined;
      subject.push(w);
      j++;
    }
    // "scheduled for a Saturday" names the day as "on" does ("the pour date is a Sunday": a copula too).
    // ("scheduled Monday to Saturday", "run from Monday to Friday": the days right after the participle.)
    if (subject.length > nounsThenVerb && !wordIs(ws[j], "on", "during", "over", "for", "from") && !isDayWord(ws[j]) && !dayRangeOf(ws[j])) return undefined;
    if (nounsThenVerb > 0 && subject.length === nounsThenVerb && !wordIs(ws[j], "a", "the", "any") && !isDayWord(ws[j])) return undefined;
    if (wordIs(ws[j], "outside", "except")) {
      negated = true;
      j++;
    }
    const preposition = wordIs(ws[j], "on", "during", "at", "over", "for") || (wordIs(ws[j], "from") && isDayWord(ws[j + 1]));
    if (preposition) j++;
    // "for" names a day only right before one ("for a Saturday"), never a person or thing ("for Sam").
    if (wordIs(ws[j - 1], "for") && !isDayWord(ws[j]) && !(wordIs(ws[j], "the", "a", "any") && isDayWord(ws[j + 1]))) return undefined;
    if (wordIs(ws[j], "the", "a", "any")) j++;
    const days = new Set<number>();
    let k = j;
    while (k < ws.length) {
      const w = ws[k]!;
      // "on a Tuesday, Wednesday or a Friday": commas and articles between the days of one list.
      const listGoesOn = (at: number) => isDayWord(ws[at]) || (wordIs(ws[at], "a", "an", "the", "or", "and") && (isDayWord(ws[at + 1]) || (wordIs(ws[at + 1], "a", "an", "the") && isDayWord(ws[at + 2]))));
      if (days.size > 0 && ((w.t.kind === "punct" && w.t.text === ",") || wordIs(w, "a", "an", "the")) && listGoesOn(k + 1)) {
        k++;
        continue;
      }
      if (w.t.kind !== "word") break;
      const range = dayRangeOf(w);
      if (range) range.forEach((d) => days.add(d));
      else if (DAYS[w.norm] !== undefined) days.add(DAYS[w.norm]!);
      else if (w.lemma === "weekend" || w.norm === "weekends") [0, 6].forEach((d) => days.add(d));
      else if (["weekday", "weekdays", "workday", "workdays", "business"].includes(w.norm) && !(w.norm === "business" && !wordIs(ws[k + 1], "day", "days"))) {
        WEEKDAYS.forEach((d) => days.add(d));
        if (w.norm === "business") k++;
      } else if (wordIs(w, "or", "and", "through", "to", "thru") && days.size > 0 && isDayWord(ws[k + 1])) {
        if (wordIs(w, "through", "to", "thru") && DAYS[ws[k + 1]?.norm ?? ""] !== undefined) {
          const from = Math.max(...days);
          const to = DAYS[ws[k + 1]!.norm]!;
          for (let d = from; d !== to; d = (d + 1) % 7) days.add(d);
          days.add(to);
          k += 2;
          continue;
        }
      } else break;
      k++;
    }
    if (days.size === 0) return undefined;
    // "a weekend day (America/New_York)": the noun after the days, then their zone.
    if (wordIs(ws[k], "day", "days") && !wordIs(ws[k - 1], "business")) k++;
    const tz = this.zoneAround(ws, k);
    // ("must never be planned for Saturday": a participle of planning alone is the action's own date.)
    const planning = subject.length > 0 && subject.every((w) => PLANNED.has(w.norm) || TIME_VERBS.has(w.lemma));
    const condition: Condition = { kind: "weekday", days: [...days].sort(), tz: tz.zone, ...(planning ? { subject: { text: subject.at(-1)!.norm, words: [], implied: "time" as const } } : subject.length > 0 ? { subject: subjectOf(subject) } : {}) };
    return { condition: negated ? negate(condition) : condition, next: tz.next };
  }

  /** A zone written after a time phrase: "UTC", "Europe/Berlin", "New York time", "(Berlin time)". */
  private zoneAround(ws: W[], k: number): { zone: string; next: number } {
    let j = k;
    // ("on a Friday or Saturday, Pacific Time": set off by a comma.)
    if (ws[j]?.t.kind === "punct" && ws[j]!.t.text === ",") j++;
    // ("10:00-16:00 local time (Asia/Tokyo)": the zone says which local time.)
    const localAt = (at: number) => (wordIs(ws[at], "local", "site") && wordIs(ws[at + 1], "time") ? 2 : wordIs(ws[at], "site") && wordIs(ws[at + 1], "local") && wordIs(ws[at + 2], "time") ? 3 : 0);
    const local = localAt(j);
    j += local;
    const afterLocal = j;
    if (ws[j]?.t.kind === "punct" && ws[j]!.t.text === ",") j++;
    if (wordIs(ws[j], "in")) j++;
    if (ws[j]?.t.kind === "punct" && ws[j]!.t.text === "(") j++;
    for (let len = 3; len >= 1; len--) {
      const words = ws.slice(j, j + len);
      if (words.length < len || words.some((w) => w.t.kind !== "word")) continue;
      const zone = zoneOf(words.map((w) => w.norm).join(" "));
      if (zone) {
        let next = j + len;
        if (wordIs(ws[next], "time", "timezone", "zone")) next++;
        if (ws[next]?.t.kind === "punct" && ws[next]!.t.text === ")") next++;
        // "Eastern Time (America/New_York)": the zone's name, then in brackets the same zone by another name.
        if (ws[next]?.t.kind === "punct" && ws[next]!.t.text === "(") {
          const gloss = this.zoneAround(ws, next);
          if (gloss.zone && ws[gloss.next - 1]?.t.text === ")") next = gloss.next;
        }
        return { zone, next };
      }
    }
    // "between 02:00 and 04:00 local time": the wall clock where the thing happens, which is the time as
    // the action writes it (in its own offset).
    if (local > 0) return { zone: LOCAL_ZONE, next: afterLocal };
    // ("… (local time)", as the restatement writes it.)
    const bracketed = ws[j - 1]?.t.text === "(" ? localAt(j) : 0;
    if (bracketed > 0 && ws[j + bracketed]?.t.text === ")") return { zone: LOCAL_ZONE, next: j + bracketed + 1 };
    return { zone: "", next: k };
  }

  /** "between 09:00 and 17:00 UTC", "9am-6pm", "before 8am", "after 6pm", "outside business hours", "at night". */
  private readClock(ws: W[], at: number): { condition: Condition; next: number } | undefined {
    // "the time is between …", "it is before 8am", "the local time is after 6pm": the clock itself.
    let p = at;
    while (p < at + 4 && wordIs(ws[p], "the", "time", "is", "it", "current", "local", "clock")) p++;
    if (p > at && wordIs(ws[p - 1], "is")) {
      const clock = this.readClockAt(ws, p);
      if (clock) return { condition: clock.condition, next: clock.next };
    }
    // "its own time is later than 14:00": the restatement of a time compared on a thing (below).
    if (wordIs(ws[at], "its") && wordIs(ws[at + 1], "own") && wordIs(ws[at + 2], "time") && wordIs(ws[at + 3], "is")) {
      const clock = this.readClockAt(ws, at + 4);
      if (clock?.condition.kind === "time") return { condition: { ...clock.condition, subject: OWN_TIME }, next: clock.next };
    }
    // "scheduled for collection between 21:30 and 06:15", "for pickup after 6pm": the window is of the time
    // the noun names (`collection_time`), not a value of the call.
    if (wordIs(ws[at], "for") && ws[at + 1]?.t.kind === "word" && ws[at + 1]!.pos === "NOUN" && !isDayWord(ws[at + 1])) {
      const clock = this.readClockAt(ws, at + 2);
      const of = (c: Condition): Condition => (c.kind === "time" ? { ...c, subject: subjectOf([ws[at + 1]!]) } : c.kind === "not" ? { kind: "not", of: of(c.of) } : c);
      if (clock && (clock.condition.kind === "time" || (clock.condition.kind === "not" && clock.condition.of.kind === "time"))) return { condition: of(clock.condition), next: clock.next };
    }
    // "with a planned departure later than 21:30", "a pickup earlier than 6am": a time compared as a value
    // of the noun phrase before it, which names the call's time (`planned_departure`).
    if (wordIs(ws[at], "with", "having", "a", "an", "the", "its", "their")) {
      let k = at;
      if (wordIs(ws[k], "with", "having")) k++;
      if (wordIs(ws[k], "a", "an", "the", "its", "their")) k++;
      const named: W[] = [];
      while (k < ws.length && named.length < 3 && ws[k]!.t.kind === "word" && !ws[k]!.used && ["NOUN", "ADJ", "VERB", "PROPN"].includes(ws[k]!.pos) && !wordIs(ws[k], "later", "earlier", "past")) named.push(ws[k++]!);
      const clock = named.length > 0 && clockComparisonAt(ws, k) ? this.readClockAt(ws, k) : undefined;
      if (clock?.condition.kind === "time") return { condition: { ...clock.condition, subject: subjectOf(named) }, next: clock.next };
    }
    // "appointments that start between 19:00 and 07:00": the window of the action's own time ("start").
    const subject: W[] = [];
    let i = at;
    while (i < ws.length && i < at + 4 && ws[i]!.t.kind === "word" && (wordIs(ws[i], "that", "which", "who", "when") || ((ws[i]!.pos === "VERB" || TIME_VERBS.has(ws[i]!.lemma)) && !wordIs(ws[i], "between", "before", "after", "outside", "during")))) {
      if (!wordIs(ws[i], "that", "which", "who", "when")) subject.push(ws[i]!);
      i++;
    }
    if (i === at) subject.length = 0;
    // ("the start falls between …": "falls" only links the time to its window.)
    if (subject.length > 1 && subject.at(-1)!.lemma === "fall") subject.pop();
    const withSubject = (c: Condition): Condition => (subject.length === 0 ? c : c.kind === "time" ? { ...c, subject: subjectOf(subject) } : c.kind === "not" && c.of.kind === "time" ? { kind: "not", of: { ...c.of, subject: subjectOf(subject) } } : c);
    const read = this.readClockAt(ws, i);
    if (!read) return undefined;
    // A time compared as a value with no verb of its own ("a furniture pickup later than 2pm"): the action's
    // own time, or when the tool has none, the time it runs.
    if (read.compared && subject.length === 0 && read.condition.kind === "time") return { condition: { ...read.condition, subject: OWN_TIME }, next: read.next };
    return { condition: withSubject(read.condition), next: read.next };
  }

  private readClockAt(ws: W[], i: number): { condition: Condition; next: number; compared?: boolean } | undefined {
    let j = i;
    let negated = false;
    let after = false;
    const compared = clockComparisonAt(ws, i);
    if (wordIs(ws[j], "outside", "beyond")) {
      negated = true;
      j++;
      if (wordIs(ws[j], "of")) j++; // "outside of 9am-6pm"
    } else if (wordIs(ws[j], "during", "within", "in", "inside")) j++;
    // "outside the hours of 9am and 5pm", "during the hours 08:00 to 18:00": the hours name the window.
    const hoursAt = wordIs(ws[j], "the") ? j + 1 : j;
    const hours = wordIs(ws[hoursAt], "hours") && !wordIs(ws[hoursAt - 1], "business", "office", "working", "work");
    if (hours) j = wordIs(ws[hoursAt + 1], "of") ? hoursAt + 2 : hoursAt + 1;
    let from: number | undefined;
    let to: number | undefined;
    let k = j;
    const t0 = ws[j]?.t;
    if (t0?.kind === "time_range") {
      from = t0.from;
      to = t0.to;
      k = j + 1;
    } else if ((wordIs(ws[j], "between", "from") || hours) && ws[j + (hours && !wordIs(ws[j], "between", "from") ? 0 : 1)]?.t.kind === "time") {
      const a = hours && !wordIs(ws[j], "between", "from") ? j : j + 1;
      if (!wordIs(ws[a + 1], "and", "to", "until", "till") || ws[a + 2]?.t.kind !== "time") return undefined;
      from = (ws[a]!.t as { minutes: number }).minutes;
      to = (ws[a + 2]!.t as { minutes: number }).minutes;
      k = a + 3;
    } else if (wordIs(ws[j], "before", "until", "till") && ws[j + 1]?.t.kind === "time") {
      from = 0;
      to = (ws[j + 1]!.t as { minutes: number }).minutes;
      k = j + 2;
    } else if (t0?.kind === "time" && ((wordIs(ws[j + 1], "or", "and") && wordIs(ws[j + 2], "later", "after")) || wordIs(ws[j + 1], "onwards", "onward"))) {
      // "04:00 or later", "18:00 onwards": from that minute to midnight.
      from = t0.minutes;
      to = 24 * 60;
      k = wordIs(ws[j + 1], "onwards", "onward") ? j + 2 : j + 3;
    } else if (compared) {
      [from, to, after, k] = compared.after ? [compared.minutes, 24 * 60, true, compared.next] : [0, compared.minutes, false, compared.next];
    } else if (wordIs(ws[j], "after") && ws[j + 1]?.t.kind === "time") {
      // "after 14:00": 14:00 itself is not after it.
      from = (ws[j + 1]!.t as { minutes: number }).minutes;
      to = 24 * 60;
      after = true;
      k = j + 2;
    } else if ((wordIs(ws[j], "business", "office", "working", "work") && wordIs(ws[j + 1], "hours", "hour")) || (wordIs(ws[j], "hours") && wordIs(ws[j - 1], "business"))) {
      // Business hours as the sentence defines them ("(9am-6pm Europe/Berlin)"), else weekdays 09:00-17:00.
      k = j + 2;
      // The definition in brackets or after a comma or dash ("business hours, 9am to 6pm"); a comma that
      // a time does not follow ends the condition ("outside business hours, block …").
      const opensDefinition = (x: W | undefined) => x?.t.kind === "punct" && ["(", ",", "-", "–", "—", ":"].includes(x.t.text);
      const startsTimes = (x: W | undefined) => x?.t.kind === "time_range" || x?.t.kind === "time" || wordIs(x, "from", "between");
      if (opensDefinition(ws[k]) && (ws[k]!.t.text === "(" || startsTimes(ws[k + 1]))) k++;
      if (wordIs(ws[k], "from", "between") && (ws[k + 1]?.t.kind === "time" || ws[k + 1]?.t.kind === "time_range")) k++;
      let hours = { from: 540, to: 1020 };
      if (ws[k]?.t.kind === "time_range") {
        const r = ws[k]!.t as { from: number; to: number };
        hours = { from: r.from, to: r.to };
        k++;
      } else if (ws[k]?.t.kind === "time" && wordIs(ws[k + 1], "to", "and", "until") && ws[k + 2]?.t.kind === "time") {
        hours = { from: (ws[k]!.t as { minutes: number }).minutes, to: (ws[k + 2]!.t as { minutes: number }).minutes };
        k += 3;
      }
      const tz = this.zoneAround(ws, k);
      k = tz.next;
      // Their days in the definition too ("9am–6pm Eastern, Mon–Sat", "Monday to Saturday").
      let days = WEEKDAYS;
      const d = ws[k]?.t.kind === "punct" && ws[k]!.t.text === "," ? k + 1 : k;
      const dash = (x: W | undefined) => (x?.t.kind === "punct" && ["-", "–", "—"].includes(x.t.text)) || wordIs(x, "to", "through", "thru", "till", "until");
      const joined = ws[d]?.t.kind === "word" ? ws[d]!.norm.split("-") : [];
      const range = DAYS[ws[d]?.norm ?? ""] !== undefined && dash(ws[d + 1]) && DAYS[ws[d + 2]?.norm ?? ""] !== undefined ? { first: DAYS[ws[d]!.norm]!, last: DAYS[ws[d + 2]!.norm]!, next: d + 3 } : joined.length === 2 && DAYS[joined[0]!] !== undefined && DAYS[joined[1]!] !== undefined ? { first: DAYS[joined[0]!]!, last: DAYS[joined[1]!]!, next: d + 1 } : undefined;
      if (range) {
        days = Array.from({ length: ((range.last - range.first + 7) % 7) + 1 }, (_, n) => (range.first + n) % 7).sort((a, b) => a - b);
        k = range.next;
      }
      if (ws[k]?.t.kind === "punct" && ws[k]!.t.text === ")") k++;
      const inside: Condition = { kind: "and", of: [{ kind: "weekday", days, tz: tz.zone }, { kind: "time", from: hours.from, to: hours.to, tz: tz.zone }] };
      return { condition: negated ? negate(inside) : inside, next: k };
    } else if (wordIs(ws[j], "at", "during", "overnight") && wordIs(ws[j + 1], "night", "nighttime") ) {
      from = 22 * 60;
      to = 6 * 60;
      k = j + 2;
    } else return undefined;
    const tz = this.zoneAround(ws, k);
    // "outside 9am-6pm Europe/Berlin business hours": the window names the business hours (weekdays).
    if (wordIs(ws[tz.next], "business", "office", "working", "work") && wordIs(ws[tz.next + 1], "hours", "hour")) {
      // ("outside 09:00-17:00 business hours Berlin time": the zone may follow the name instead.)
      const later = tz.zone ? undefined : this.zoneAround(ws, tz.next + 2);
      const zone = later?.zone || tz.zone;
      const inside: Condition = { kind: "and", of: [{ kind: "weekday", days: WEEKDAYS, tz: zone }, { kind: "time", from: from!, to: to!, tz: zone }] };
      return { condition: negated ? negate(inside) : inside, next: later?.zone ? later.next : tz.next + 2 };
    }
    const condition: Condition = { kind: "time", from: from!, to: to!, tz: tz.zone, ...(after ? { after } : {}) };
    return { condition: negated ? negate(condition) : condition, next: tz.next, ...(compared ? { compared: true } : {}) };
  }

  /** "to recipients outside acme.com", "to anyone at gmail.com", "emails to @rival.test". */
  private readDomain(ws: W[], i: number): { condition: Condition; next: number } | undefined {
    let j = i;
    let outside = false;
    let k = j;
    while (k < ws.length && k <= i + 5 && ws[k]!.t.kind === "word" && !wordIs(ws[k], "outside", "at", "in", "from", "on", "to")) {
      // The subject is one phrase: "… for customers and a recipient outside x.com" is two conditions.
      if (k > i && wordIs(ws[k], "and", "or", "but", "when", "if", "unless", "for", "with", "while")) return undefined;
      k++;
    }
    if (ws[k]?.t.kind !== "word" && ws[k]?.t.kind !== "domain" && ws[k]?.t.kind !== "tag" && ws[k]?.t.kind !== "email") return undefined;
    // A relative clause's pronoun and copula are not the subject ("recipients who are not at …").
    const subjectWords = ws.slice(j, k).filter((w) => !wordIs(w, "that", "which", "who", "are", "were", "was", "with", "having"));
    // "the recipient is not an acme.com address": the article belongs to the domain's phrase.
    while (subjectWords.length > 1 && wordIs(subjectWords.at(-1), "a", "an")) subjectWords.pop();
    // "the recipient's domain is not acme.com": the negation before the domain.
    if (subjectWords.length > 0 && (wordIs(subjectWords.at(-1), "not", "isn't", "aren't") || (wordIs(subjectWords.at(-1), "n't") && wordIs(subjectWords.at(-2), "is")))) {
      outside = true;
      while (subjectWords.length > 0 && wordIs(subjectWords.at(-1), "not", "isn't", "aren't", "n't", "is")) subjectWords.pop();
    }
    // "for anyone without a tallow.dev address": who lacks one is outside it.
    if (wordIs(subjectWords.at(-1), "without", "lacking")) {
      outside = !outside;
      subjectWords.pop();
      while (wordIs(subjectWords[0], "for", "to", "from", "by", "anyone", "anybody", "someone", "people", "persons", "those")) subjectWords.shift();
    }
    j = k;
    if (wordIs(ws[j], "outside", "beyond")) {
      outside = true;
      j++;
    } else if (wordIs(ws[j], "not") && wordIs(ws[j + 1], "at", "in", "on")) {
      outside = true;
      j += 2;
    } else if (wordIs(ws[j], "at", "in", "from", "on", "to", "@")) j++;
    if (wordIs(ws[j], "the")) j++;
    // "on free webmail (a.com, b.com or c.com)": the domains in brackets say what the words before them are.
    const bracket = ws.findIndex((w, at) => at >= j && at <= j + 3 && w.t.kind === "punct" && w.t.text === "(");
    if (bracket > j && ws.slice(j, bracket).every((w) => w.t.kind === "word" && ["NOUN", "ADJ", "PROPN", "DET"].includes(w.pos)) && ws[bracket + 1]?.t.kind === "domain") j = bracket;
    const domains: string[] = [];
    // Punctuation between domains ("a.com, b.com", "(a.com)") lists them as "or" does.
    const listMark = (w: W) => w.t.kind === "punct" && [",", "(", ")", "/"].includes(w.t.text);
    while (j < ws.length) {
      const t = ws[j]!.t;
      if (listMark(ws[j]!) && (domains.length > 0 ? ws[j + 1]?.t.kind === "domain" || wordIs(ws[j + 1], "or", "and") || (t.kind === "punct" && t.text === ")") : ws[j + 1]?.t.kind === "domain")) {
        j++;
        continue;
      }
      if (t.kind === "domain" && /^non-/.test(t.domain)) {
        // "non-acme.com addresses": outside it.
        domains.push(t.domain.slice(4));
        outside = true;
      } else if (t.kind === "domain") domains.push(t.domain);
      else if (t.kind === "tag" && t.value.startsWith("@") && t.value.includes(".")) domains.push(t.value.slice(1));
      else if (t.kind === "email") domains.push(t.domain);
      else if (wordIs(ws[j], "or", "and") && domains.length > 0) {
        j++;
        continue;
      } else if (wordIs(ws[j], "domain", "domains", "address", "addresses") && domains.length > 0 && (wordIs(ws[j + 1], "or", "and") || listMark(ws[j + 1] ?? ws[j]!))) {
        j++;
        continue;
      } else if (wordIs(ws[j], "domain", "domains") && domains.length > 0) {
        j++;
        continue;
      } else if (wordIs(ws[j], "our", "their", "your", "the", "its", "own") && domains.length > 0 && (wordIs(ws[j - 1], "or", "and", "our", "their", "your", "its") || listMark(ws[j - 1]!))) {
        // ("outside example.org or our own clinic.co.uk addresses": whose the next domain is says nothing more.)
        j++;
        continue;
      } else break;
      j++;
    }
    if (domains.length === 0) return undefined;
    if (wordIs(ws[j], "domain", "domains", "address", "addresses", "account", "accounts")) j++;
    return { condition: { kind: "outside_domain", subject: subjectOf(subjectWords), domains, ...(outside ? {} : { inside: true }) }, next: j };
  }

  /** Comparisons with a subject before them: "battery is under 15%", "salary above 150000", "between 300 and 900 euros". */
  private readComparison(ws: W[], i: number, lastSubject: W[], probe: boolean): { condition: Condition; next: number; subject?: W[] } | undefined {
    // The subject: words up to the comparator (skipping copulas and motion verbs: "goes above", "is greater than").
    let j = i;
    const subject: W[] = [];
    let negated = false;
    // A value named by a preposition before the subject ("moves to bay_7 with a load over 300
    // kg"): the action's value there, not a word of the subject.
    const placed: W[] = [];
    const numericAt = (k: number) => !!ws[k] && NUMERIC_KINDS.has(ws[k]!.t.kind);
    const RANGE_JOINS = ["and", "to", "through", "thru", "until", "till"];
    while (j < ws.length && j <= i + 6 && !comparatorAt(ws, j) && !wordIs(ws[j], "between") && !(wordIs(ws[j], "from") && numericAt(j + 1) && wordIs(ws[j + 2], ...RANGE_JOINS)) && ws[j]!.t.kind === "word") {
      // A subject is one phrase: "for customers and the amount is over 5" is two conditions, and so are
      // "with porcelain while it is hotter than …" (a value, then a clause of its own).
      if (j > i && wordIs(ws[j], "and", "or", "but", "unless", "except")) return undefined;
      // (Only after "with": "on the north pad if the gust speed exceeds …" keeps its words as the measure's.)
      if (j > i && subject.length > 0 && wordIs(ws[i], "with") && wordIs(ws[j], "while", "whilst", "when", "whenever", "if", "once")) return undefined;
      // "that include the cold store zone … beyond 30 days": a verb of containing is a condition of its own.
      if (wordIs(ws[j], "include", "includes", "contain", "contains", "including", "containing")) return undefined;
      if (NEGATORS.has(ws[j]!.norm)) negated = true;
      // "outside the $1,000 to $4,000 range": a range is the only comparison "outside" can open, and it
      // opens it before a value. Before a noun it names the thing ("the outside air temperature").
      else if (wordIs(ws[j], "outside") && (numericAt(j + 1) || (wordIs(ws[j + 1], "the", "a") && numericAt(j + 2)))) negated = !negated;
      else if (/[_\d]/.test(ws[j]!.norm) && wordIs(ws[j - 1], "to", "into", "in", "at", "from", "for")) placed.push(ws[j]!);
      else if (!["is", "are", "be", "was", "goes", "go", "gets", "get", "rises", "rise", "falls", "fall", "drops", "drop", "reaches", "reach", "set", "sits", "runs", "running", "amounts", "totals", "comes", "come", "costs", "costing", "worth", "valued", "priced", "weighing", "weighs", "lasting", "lasts", "takes", "take", "of", "with", "at", "for", "has", "have", "having", "that", "which", "whose", "when", "if", "where", "while", "whenever", "would", "will", "could", "an", "a", "the", "its", "their", "to", "in", "by"].includes(ws[j]!.norm) || (["amount", "total", "cost", "worth"].includes(ws[j]!.norm) && subject.length === 0 && !comparatorAt(ws, j + 1) && false)) subject.push(ws[j]!);
      j++;
    }
    let op: Comparator;
    let k: number;
    let value: Value | undefined;
    let high: Value | undefined;
    const cmp = comparatorAt(ws, j);
    // "refunds for gold members over $500", "orders for the wholesale channel over 200 kg": after "for", "to" or
    // "from", a thing that no measure names is the party or value the action is for, read as such; the
    // measure after it is the action's own (not the party's).
    const measured = ws[cmp ? j + cmp.length : -1];
    // (Not when a verb or the comparative says the measure is the thing's: "crates weighing more than …",
    // "invoices older than 45 days".)
    const ownMeasure = ws.slice(i, j).some((w) => w.pos === "VERB" || MEASURE_VERB.test(w.norm)) || !wordIs(ws[j], "over", "above", "under", "below", "more", "less", "fewer", "exceeding", "beyond");
    // (A party, "members", or a thing with a word that says which, "the wholesale channel", whose head names
    // no measure; a plain noun of things, "for orders over $900", is what the measure is of: "orders
    // totalling more than …" read so.)
    const party = subject.length >= 2 || (subject.length === 1 && (namesPeople(subject[0]!.norm) || isKindOf(subject[0]!.lemma, "person")));
    // (Not an age: "patients under 16 years old" is of the patients.)
    const age = measured?.t.kind === "quantity" && measured.t.quantity.kind === "time";
    if (wordIs(ws[i], "for", "to", "from") && cmp && measured && !ownMeasure && party && !age && ["money", "quantity", "percent"].includes(measured.t.kind) && !((w: W) => AMOUNT_NOUNS.has(w.lemma) || MEASURE_NOUNS.has(w.lemma) || unitOfName([w.norm]) !== undefined)(subject.at(-1)!)) return undefined;
    // "when this would be more than 3 such actions within 1 hour": a rate after words that name nothing
    // (a value's verb, "valued at least 2k a month", says it is a value per period instead).
    const namesNothing = subject.every((w) => wordIs(w, "this", "it", "there")) && !ws.slice(i, j).some((w) => wordIs(w, "worth", "costing", "costs", "valued", "priced", "weighing", "weighs", "lasting", "lasts", "amounts", "totals", "takes"));
    const rate = cmp && namesNothing ? this.readRate(ws, j) : undefined;
    if (rate) return { condition: negated ? negate(rate.condition) : rate.condition, next: rate.next };
    // "not within X to Y": a negated range ("not within X" alone is a comparison, read below).
    if (wordIs(ws[j], "not") && wordIs(ws[j + 1], "within", "between", "from") && numericAt(j + 2) && wordIs(ws[j + 3], ...RANGE_JOINS) && numericAt(j + 4)) {
      negated = !negated;
      j++;
    }
    // "between X and Y", "from X to Y", "within X to Y", "(in the) X to Y range": both ends inclusive.
    const afterOutside = wordIs(ws[j - 1], "outside") || (wordIs(ws[j - 1], "the") && wordIs(ws[j - 2], "outside"));
    // ("$1,500-$7,500", "5 kg–20 kg": two amounts of one kind joined by a dash are a range too.)
    const dash = (k: number) => ws[k]?.t.kind === "punct" && /^[-–—]$/.test(ws[k]!.t.text);
    const sameKind = (a: number, b: number) => ws[a]!.t.kind === ws[b]!.t.kind && ws[a]!.t.kind !== "number";
    const dashed = numericAt(j) && dash(j + 1) && numericAt(j + 2) && sameKind(j, j + 2);
    const from = wordIs(ws[j], "between", "from") || (wordIs(ws[j], "within") && wordIs(ws[j + 2], ...RANGE_JOINS)) ? j + 1 : (numericAt(j) && wordIs(ws[j + 1], "to", "through") && numericAt(j + 2) && (wordIs(ws[j + 3], "range", "band", "bracket") || afterOutside)) || dashed ? j : -1;
    if (from >= 0 && numericAt(from) && (wordIs(ws[from + 1], ...RANGE_JOINS) || (dashed && from === j)) && numericAt(from + 2)) {
      op = "between";
      value = valueOf(ws[from]!.t);
      high = valueOf(ws[from + 2]!.t);
      k = from + 3;
      if (wordIs(ws[k], "range", "band", "bracket")) k++;
      // "between 300 and 900 euros": the unit written once applies to both.
      if (high?.currency && !value?.currency && value) value = { ...value, currency: high.currency };
      if (high?.unit && !value?.unit && value) value = { ...value, unit: high.unit, kind: high.kind };
      if (high?.percent && value) value = { ...value, percent: true };
    } else if (cmp && cmp.op !== "between" && fractionAt(ws, j + cmp.length, true)) {
      // "less than half", "more than two thirds": a part of the whole, as a percentage ("more than half of
      // the fee": a share of another argument, read below as "more than 50% of the fee" is).
      const part = fractionAt(ws, j + cmp.length, true)!;
      op = cmp.op;
      value = { value: Math.round(part.value * 1e6) / 1e4, percent: true, text: part.text };
      k = j + cmp.length + part.length;
    } else if (cmp && cmp.op !== "between" && fieldAt(ws, j + cmp.length)) {
      // "exceeds its approved limit", "more than the account's credit limit": another argument of the action.
      const other = fieldAt(ws, j + cmp.length)!;
      if (probe) return { condition: { kind: "and", of: [] }, next: other.next };
      const s = subjectOf(subject.filter((w) => !this.actionNouns.some((a) => conceptsOf(a).has(w.norm))));
      // (Compared with a date, the action's own date: "never promise a date earlier than the due date".)
      const left: Subject = s.words.length > 0 ? s : { ...s, implied: other.words.some((w) => DATE_NOUNS.has(w.norm)) ? "time" : "amount" };
      const condition: Condition = { kind: "compare_fields", subject: left, op: cmp.op, other: subjectOf(other.words) };
      return { condition: negated ? negate(condition) : condition, next: other.next, subject: subject.length > 0 ? subject : undefined };
    } else if (cmp && cmp.op !== "between" && ws[j + cmp.length]?.t.kind === "word" && ws[j + cmp.length]!.pos === "NOUN" && !ws[j + cmp.length]!.used && ws[j + cmp.length + 1]?.t.kind === "number") {
      // "below Grade 3", "above level 4": the noun names what is compared, the number its value.
      subject.push(ws[j + cmp.length]!);
      op = cmp.op;
      value = valueOf(ws[j + cmp.length + 1]!.t);
      k = j + cmp.length + 2;
      // "Grade 3 certification": the nouns after the number still name the grade, not a count.
      while (ws[k]?.t.kind === "word" && ws[k]!.pos === "NOUN" && !ws[k]!.used && !CONDITION_MARKERS.has(ws[k]!.norm)) k++;
    } else if (cmp && ws[j + cmp.length] && (NUMERIC_KINDS.has(ws[j + cmp.length]!.t.kind) || (wordIs(ws[j + cmp.length], "a", "an") && NUMERIC_KINDS.has(ws[j + cmp.length + 1]?.t.kind ?? "")))) {
      // "more than a 30-day course": an article before a quantity used as an adjective.
      const at = NUMERIC_KINDS.has(ws[j + cmp.length]!.t.kind) ? j + cmp.length : j + cmp.length + 1;
      op = cmp.op;
      value = valueOf(ws[at]!.t);
      k = at + 1;
    } else if (j < ws.length && ws[j]!.t.kind === "number" && ws[j + 1]?.t.kind === "word" && (boundAt(ws, j + 2) || (ws[j + 2]?.t.kind === "word" && boundAt(ws, j + 3)))) {
      // "10,000 users or fewer": a count whose bound follows its noun.
      const after = afterValue(ws, j + 1, "eq");
      if (after.op === "eq" || !after.count) return undefined;
      op = after.op;
      value = valueOf(ws[j]!.t);
      k = j + 1;
    } else if (j < ws.length && NUMERIC_KINDS.has(ws[j]!.t.kind) && (wordIs(ws[j + 1], "or") || (ws[j + 1]?.t.kind === "punct" && ws[j + 1]!.t.text === "+") || wordIs(ws[j + 1], "and"))) {
      // "7,500 GBP or more", "100+"
      const after = afterValue(ws, j + 1, "eq");
      if (after.op === "eq") return undefined;
      op = after.op;
      value = valueOf(ws[j]!.t);
      k = j + 1;
    } else if (j < ws.length && NUMERIC_KINDS.has(ws[j]!.t.kind) && wordIs(ws[j + 1], "old") && wordIs(ws[j + 2], "or") && wordIs(ws[j + 3], "older", "more", "over", "younger", "newer", "less", "under")) {
      // "30 days old or older": an age whose bound follows it.
      const after = afterValue(ws, j + 1, "eq");
      if (after.op === "eq") return undefined;
      op = after.op;
      value = valueOf(ws[j]!.t);
      k = j + 1;
    } else if (j === i && ws[j]?.t.kind === "number" && subject.length === 0) {
      return undefined;
    } else return undefined;
    if (!value) return undefined;
    if (probe) return { condition: { kind: "and", of: [] }, next: k };
    const after = afterValue(ws, k, op);
    op = after.op;
    k = after.next;
    // Units written after a bare number: "30 years" was a quantity already; "30 degrees" reads as
    // temperature when the subject says so.
    if (!value.unit && !value.currency && !value.percent) {
      if (after.count) {
        const words = after.count;
        if (words.length === 1 && ["degree", "degrees"].includes(words[0]!.norm)) value = { ...value, unit: "tempC", kind: "temperature" };
      }
    }
    // "above 90% of rated load", "more than 50% of its credit limit": a share of another argument.
    const of = value.percent && !high && wordIs(ws[k], "of") ? thingNamedAt(ws, k + 1) : undefined;
    if (of && op !== "between" && !NUMERIC_KINDS.has(ws[of.next]?.t.kind ?? "")) {
      // (Whose amount it is, "the account's credit limit", names no word of it.)
      const s = subjectOf(subject.filter((w) => !this.actionNouns.some((a) => conceptsOf(a).has(w.norm))));
      const condition: Condition = { kind: "compare_fields", subject: s, op, other: subjectOf(of.words.filter((w) => !/'s$/.test(w.norm))), factor: value.value / 100 };
      return { condition: negated ? negate(condition) : condition, next: of.next, subject: subject.length > 0 ? subject : undefined };
    }
    let subjectWords = subject.length > 0 ? subject : [];
    // "less than 3 km from the airfield", "the drone is within 2 nautical miles of a school": a length
    // measured from a place is a distance, named by the place ("distance_to_school"), not by what is there.
    // (Not after a comparative of a dimension, "taller than 2 m into the lift": the height of the thing.)
    const dimension = wordIs(ws[j], "wider", "narrower", "taller", "deeper", "shallower", "longer", "shorter", "higher", "lower", "bigger", "larger", "smaller", "thicker", "thinner");
    const place = !after.count && value.kind === "length" && !dimension && wordIs(ws[k], "from", "of", "to") ? thingNamedAt(ws, k + 1) : undefined;
    if (place) {
      subjectWords = place.words.filter((w) => w.pos !== "ADJ");
      k = place.next;
    }
    let counted = false;
    if (after.count && !(value.unit === "tempC" && after.count.length === 1)) {
      subjectWords = after.count;
      counted = true;
      // "at least 3 spare pumps are running", "fewer than 2 stewards are on duty": the things counted are
      // those in that state, which names the count (`other_chillers_running`).
      const state = ws[k + 1];
      if (wordIs(ws[k], "are", "is", "were", "remain", "stay") && state?.t.kind === "word" && !state.used && (["ADJ", "VERB"].includes(state.pos) || wordIs(state, "online", "offline", "on", "off", "open", "available", "active", "idle")) && (!CONDITION_MARKERS.has(state.norm) || wordIs(state, "on", "off"))) {
        subjectWords = [...subjectWords, state];
        k += 2;
        if (wordIs(ws[k], "duty", "shift", "site", "call") && wordIs(state, "on")) k++;
      }
    }
    // "younger than 18", "accounts older than 24 hours", "children under 12": an age, of whom the subject names.
    const byAge = wordIs(ws[j], "younger", "older") || (!value.unit && !value.currency && !value.percent && subjectWords.length > 0 && namesPeople(subjectWords.at(-1)!.norm) && !after.count);
    if ((after.age || byAge) && !subjectWords.some((w) => w.norm === "age")) subjectWords = [...subjectWords, { t: { kind: "word", text: "age", norm: "age" }, norm: "age", lemma: "age", pos: "NOUN", used: true }];
    // "Nobody descends under 18 m", "never dive below 40 m": going down below a length is a depth past it.
    const wordAt = (text: string): W => ({ t: { kind: "word", text, norm: text }, norm: text, lemma: text, pos: "NOUN", used: true });
    if (value.kind === "length" && (op === "lt" || op === "lte") && wordIs(ws[j], "below", "under", "beneath") && wordIs(this.all[this.all.indexOf(ws[j]!) - 1], "go", "goes", "going", "dive", "dives", "diving", "descend", "descends", "descending", "sink", "sinks")) {
      op = op === "lt" ? "gt" : "gte";
      if (!subjectWords.some((w) => w.norm === "depth")) subjectWords = [...subjectWords, wordAt("depth")];
    }
    if (after.inValue) subjectWords = [{ t: { kind: "word", text: "value", norm: "value" }, norm: "value", lemma: "value", pos: "NOUN", used: true }];
    if (subjectWords.length === 0 && lastSubject.length > 0 && !value.currency && !value.percent) subjectWords = lastSubject;
    // A subject that only repeats the action's own noun ("refunds larger than $750") says nothing about
    // which argument: the value's kind decides.
    const s = subjectOf(subjectWords);
    const onlyAction = s.words.length > 0 && s.words.every((x) => this.actionNouns.some((a) => conceptsOf(a).has(x) || conceptsOf(x).has(a)));
    // "the quantity", "the percentage": words for the value's own kind (a restatement's), not an argument.
    const kindOnly = s.words.length === 1 && ((s.words[0] === "quantity" && value.unit !== undefined) || (s.words[0] === "percentage" && value.percent === true));
    let subj: Subject = (onlyAction || kindOnly) && !counted ? { text: "", words: [] } : s;
    if (subj.words.length === 0) subj = { ...subj, implied: value.currency ? "amount" : value.percent ? "percent" : value.unit ? "quantity" : "amount" };
    if (counted) subj = { ...subj, count: true };
    const CHANGE = ["change", "increase", "decrease", "move", "swing", "difference", "delta", "adjustment", "adjust", "hike", "rise", "markup", "markdown", "reduction"];
    // "increases over 8%", "fare cuts beyond 20%": the size of a change, one way or (a "change") either.
    // ("Raising a setpoint above -70 °C" is about the setpoint, not the change: a verb alone says no size.)
    if (s.words.some((x) => CHANGE.includes(x) || changeWay(x) !== undefined) || (s.words.length === 0 && this.actionNouns.some((x) => CHANGE.includes(x)))) {
      const way = [...s.words, ...this.actionNouns].map(changeWay).find((w) => w !== undefined);
      subj = { ...subj, magnitude: true, ...(way ? { direction: way } : {}) };
    }
    // "fewer than 14 days before handover", "over 45 days after delivery": a time from the action's own
    // date to another date, named after the value.
    let since: { from: Subject; after: boolean } | undefined;
    const relation = wordIs(ws[k], "before", "after") ? 1 : (wordIs(ws[k], "prior") && wordIs(ws[k + 1], "to")) || (wordIs(ws[k], "ahead") && wordIs(ws[k + 1], "of")) ? 2 : 0;
    if (value.kind === "time" && relation > 0) {
      const m = k + relation;
      // "after they were collected", "before it is released": the date is named by the participle.
      const pronoun = wordIs(ws[m], "it", "they") ? m + 1 + (wordIs(ws[m + 1], "was", "were", "is", "are", "has", "have") ? 1 : 0) + (wordIs(ws[m + 2], "been") ? 1 : 0) : -1;
      const done = pronoun > m && ws[pronoun]?.pos === "VERB" && isPastParticiple(ws[pronoun]!) ? { words: [ws[pronoun]!], next: pronoun + 1 } : undefined;
      const from = done ?? thingNamedAt(ws, m);
      if (from) {
        // ("the band's start time": whose time it is names it too.)
        since = { from: subjectOf(from.words.map((w) => (/'s$/.test(w.norm) ? { ...w, norm: w.norm.replace(/'s$/, "") } : w))), after: wordIs(ws[k], "after") };
        k = from.next;
      }
    }
    let condition: Condition = { kind: "compare", subject: subj, op, value, ...(high ? { high } : {}), ...(since ? { since } : {}) };
    if (negated) condition = negate(condition);
    if (placed.length > 0) condition = { kind: "and", of: [...placed.map((w): Condition => ({ kind: "equals", subject: { text: "", words: [] }, values: [w.norm], negate: false })), condition] };
    // "above 40 pallets or €9,000 in cargo value": a second value after "or" shares the comparator.
    if (wordIs(ws[k], "or") && ws[k + 1] && NUMERIC_KINDS.has(ws[k + 1]!.t.kind)) {
      const second = valueOf(ws[k + 1]!.t)!;
      const after2 = afterValue(ws, k + 2, op);
      let subj2: Subject = { text: "", words: [], implied: second.currency ? "amount" : second.percent ? "percent" : second.unit ? "quantity" : "amount" };
      if (after2.count) subj2 = { ...subjectOf(after2.count), count: true };
      if (after2.inValue) subj2 = { text: "value", words: ["value"], implied: "amount" };
      condition = { kind: "or", of: [condition, { kind: "compare", subject: subj2, op: after2.op, value: second }] };
      k = after2.next;
    }
    return { condition, next: k, subject: subject.length > 0 ? subject : undefined };
  }

  /** Texts: "whose title mentions draft", "with the word X in the subject". */
  private readText(ws: W[], i: number): { condition: Condition; next: number } | undefined {
    return this.readTextIn(ws, i) ?? this.readTextVerb(ws, i);
  }

  /** "with the word embargoed in the title", "having 'draft' in its title", "with urgent in the subject": a text inside a field. */
  private readTextIn(ws: W[], i: number): { condition: Condition; next: number } | undefined {
    let k = i;
    if (wordIs(ws[k], "with", "having", "that", "which", "where")) k++;
    if (wordIs(ws[k], "has", "have", "carry", "carries", "contain", "contains")) k++;
    if (wordIs(ws[k], "the", "a", "an")) k++;
    // Only a value named as text ("the word …") or quoted: "with money in the account" is no such thing.
    const named = wordIs(ws[k], "word", "phrase", "term", "text", "string", "keyword");
    if (named) k++;
    const v = ws[k];
    // ("with urgent in the subject": a word alone, in a field that holds text, is that text.)
    let m = k + 2;
    while (wordIs(ws[m], "the", "its", "their", "a", "an")) m++;
    const inText = ws[m]?.t.kind === "word" && TEXT_FIELDS.has(ws[m]!.lemma) && !(ws[m + 1]?.t.kind === "word" && NOMINAL.has(ws[m + 1]!.pos));
    if (!v || !(v.t.kind === "quoted" || ((named || (inText && !DETERMINERS.has(v.norm) && !CONDITION_MARKERS.has(v.norm))) && (v.t.kind === "word" || v.t.kind === "tag" || v.t.kind === "number")))) return undefined;
    if (!wordIs(ws[k + 1], "in", "within", "inside")) return undefined;
    const field: W[] = [];
    while (m < ws.length && field.length < 2 && ws[m]!.t.kind === "word" && (ws[m]!.pos === "NOUN" || ws[m]!.pos === "PROPN" || ws[m]!.pos === "ADJ") && !CONDITION_MARKERS.has(ws[m]!.norm)) field.push(ws[m++]!);
    if (field.length === 0) return undefined;
    const value = v.t.kind === "quoted" ? v.t.value : v.t.kind === "word" ? v.norm : v.t.text;
    return { condition: { kind: "text", subject: subjectOf(field), mode: "contains", value, negate: false }, next: m };
  }

  /** "whose title mentions draft", "starting with 'tmp'", "that mention X". */
  private readTextVerb(ws: W[], i: number): { condition: Condition; next: number } | undefined {
    let j = i;
    const subject: W[] = [];
    while (j < ws.length && j <= i + 4 && ws[j]!.t.kind === "word" && !["contain", "contains", "containing", "include", "includes", "including", "mention", "mentions", "mentioning", "start", "starts", "starting", "begin", "begins", "beginning", "end", "ends", "ending"].includes(ws[j]!.norm)) {
      if (!DETERMINERS.has(ws[j]!.norm) && !["whose", "which", "that", "with", "where", "when", "if", "its", "is", "are"].includes(ws[j]!.norm)) subject.push(ws[j]!);
      j++;
    }
    const verb = ws[j];
    if (!verb || verb.t.kind !== "word") return undefined;
    const mode = ["start", "starts", "starting", "begin", "begins", "beginning"].includes(verb.norm) ? "starts" : ["end", "ends", "ending"].includes(verb.norm) ? "ends" : ["contain", "contains", "containing", "include", "includes", "including", "mention", "mentions", "mentioning"].includes(verb.norm) ? "contains" : undefined;
    if (!mode) return undefined;
    // "starts with", "ends with": a text; "starts between 20:00 and 06:00" is a time.
    if (mode !== "contains" && !wordIs(ws[j + 1], "with", "in")) return undefined;
    if (verb.norm.startsWith("end") && wordIs(ws[j + 1], "in") && !ws[j + 2]?.t.kind.startsWith("quoted")) return undefined; // "ending in another region"
    let k = j + 1;
    if (wordIs(ws[k], "with", "in")) k++;
    if (wordIs(ws[k], "the", "a", "an", "any")) k++;
    if (wordIs(ws[k], "word", "phrase", "text", "string", "term", "words")) k++;
    // "ends with -owners", "starts with .tmp": a mark before the word is part of the text.
    const mark = ws[k]?.t.kind === "punct" && ["-", "_", "."].includes(ws[k]!.t.text) && ws[k + 1]?.t.kind === "word" ? ws[k]!.t.text : "";
    if (mark) k++;
    const v = ws[k];
    if (!v) return undefined;
    // "badges that include the cold store zone", "orders including gift wrapping": a thing of several words
    // that the action includes is a value it holds (a list argument holding it counts), not a text.
    if (mode === "contains" && /^includ/.test(verb.norm) && !mark && v.t.kind === "word") {
      const phrase = phraseAt(ws, k, (w) => !opensClause(w) && (NOMINAL.has(w.pos) || w.norm.includes("-") || (w.pos === "VERB" && NOMINAL.has(ws[ws.indexOf(w) + 1]?.pos ?? ""))));
      if (phrase.length >= 2) return { condition: { kind: "equals", subject: subjectOf(subject), values: [phrase.map((w) => w.norm).join(" ")], negate: false }, next: k + phrase.length };
    }
    const value = v.t.kind === "quoted" ? v.t.value : v.t.kind === "word" ? v.norm : v.t.kind === "tag" || v.t.kind === "domain" ? v.t.text : v.t.kind === "number" ? v.t.text : undefined;
    if (value === undefined) return undefined;
    const first: Condition = { kind: "text", subject: subjectOf(subject), mode, value: mark + value, negate: false };
    // "containing lithium, lead acid or mercury": any one of the listed things (a thing of two words is
    // one item); the list ends at a word that is no noun or adjective of it.
    const listed = mode === "contains" && !mark && v.t.kind !== "number" ? this.containedList(ws, k + 1) : undefined;
    if (listed) return { condition: { kind: "or", of: [first, ...listed.values.map((x): Condition => ({ ...first, value: x }))] }, next: listed.next };
    return { condition: first, next: k + 1 };
  }

  /** The items after a first one in "A, B C or D" (from the separator after A), when one follows. */
  private containedList(ws: W[], k: number): { values: string[]; next: number } | undefined {
    const values: string[] = [];
    let m = k;
    for (;;) {
      const skip = separatorAt(ws, m);
      if (skip === 0) break;
      // (In a list any content word is a thing named: "lead acid" is tagged a verb and a noun.)
      const item = ws[m + skip]?.t.kind === "quoted" ? [ws[m + skip]!] : phraseAt(ws, m + skip, (w) => !opensClause(w) && !["AUX", "ADP", "SCONJ", "CCONJ", "DET", "PRON", "PART"].includes(w.pos) && !MODALS.has(w.norm) && !CONDITION_MARKERS.has(w.norm) && !LIST_SEPARATORS.has(w.norm));
      // ("… or the sender is new": a new clause, not an item.)
      if (item.length === 0 || wordIs(ws[m + skip + item.length], "is", "are", "was", "were", "has", "have")) break;
      values.push(item.map((w) => (w.t.kind === "quoted" ? w.t.value : w.norm)).join(" "));
      m += skip + item.length;
    }
    return values.length > 0 ? { values, next: m } : undefined;
  }

  /** "a shipping address in another region than billing": two arguments of one kind that differ. */
  /**
   * A date of the action before or after now: "matches that have taken place", "whose licence has
   * expired", "the visit is in the past", "bookings in the future". The subject is the noun phrase the
   * clause opens with, else the nouns right before it.
   */
  private readDated(ws: W[], i: number): { condition: Condition; next: number } | undefined {
    const isTimeNoun = (w: W) => TIME_NOUNS.has(w.lemma) || TIME_NOUNS.has(w.norm) || unitOfName([w.norm])?.kind === "time";
    let j = i;
    if (wordIs(ws[j], "that", "which", "who", "whose")) j++;
    const np: W[] = [];
    if (wordIs(ws[j], "the", "its", "their", "his", "her")) j++;
    while (np.length < 4 && ws[j]?.t.kind === "word" && ["NOUN", "PROPN", "ADJ"].includes(ws[j]!.pos) && !CONDITION_MARKERS.has(ws[j]!.norm) && !wordIs(ws[j], "past", "future")) np.push(ws[j++]!);
    let verb = false;
    while (wordIs(ws[j], "has", "have", "had", "is", "are", "was", "were", "already", "now")) {
      verb = true;
      j++;
    }
    let past: boolean | undefined;
    let end = j;
    if (wordIs(ws[j], "taken") && wordIs(ws[j + 1], "place")) [past, end] = [true, j + 2];
    else if (verb && wordIs(ws[j], "happened", "occurred", "ended", "finished", "expired", "lapsed", "elapsed")) [past, end] = [true, j + 1];
    // "the deadline has passed" is a time gone by; "the QA check has passed" is a check that succeeded,
    // a state the action records (read by the readers of states).
    else if (verb && wordIs(ws[j], "passed") && np.length > 0 && isTimeNoun(np.at(-1)!)) [past, end] = [true, j + 1];
    else if (wordIs(ws[j], "in") && wordIs(ws[j + 1], "the") && wordIs(ws[j + 2], "past", "future")) [past, end] = [ws[j + 2]!.norm === "past", j + 3];
    if (past === undefined || (np.length === 0 && j === i && !wordIs(ws[i], "in"))) return undefined;
    // Without a noun phrase of its own, the nouns before it ("events that have …", "bookings in the future").
    let subjectWords = np;
    if (subjectWords.length === 0) {
      let k = i - 1;
      while (k >= 0 && ws[k]!.t.kind === "word" && ["NOUN", "PROPN"].includes(ws[k]!.pos) && subjectWords.length < 3) subjectWords = [ws[k--]!, ...subjectWords];
    }
    return { condition: { kind: "dated", subject: subjectOf(subjectWords), past }, next: end };
  }

  private readDiffer(ws: W[], i: number): { condition: Condition; next: number } | undefined {
    // A restatement's form: 'two "country" values of the action differ' / '… are the same'.
    const head = ws[i + 1]?.t;
    const two = ws[i]?.t;
    if ((wordIs(ws[i], "two") || (two?.kind === "number" && two.value === 2)) && head?.kind === "quoted" && wordIs(ws[i + 2], "values")) {
      let k = i + 3;
      while (wordIs(ws[k], "of", "the", "action")) k++;
      const same = wordIs(ws[k], "are") && wordIs(ws[k + 1], "the") && wordIs(ws[k + 2], "same");
      if (!same && !wordIs(ws[k], "differ")) return undefined;
      return { condition: { kind: "differ", head: head.value.toLowerCase(), negate: same }, next: same ? k + 3 : k + 1 };
    }
    for (let j = i; j < Math.min(ws.length, i + 8); j++) {
      // "another country than the order": only with what it is compared to.
      const another = wordIs(ws[j], "another") && wordIs(ws[j + 2], "than", "from");
      if (!another && !wordIs(ws[j], "different", "differs", "differing", "other", "mismatched", "mismatching")) continue;
      let k = j + 1;
      // "the card country differs from the order country": the noun before the verb is what differs.
      const verbForm = wordIs(ws[j], "differs", "differing") || (wordIs(ws[j], "different") && wordIs(ws[j - 1], "is", "are"));
      const before = verbForm ? ws.slice(i, j).filter((w) => w.t.kind === "word" && w.pos === "NOUN").at(-1) : undefined;
      if (before && wordIs(ws[k], "from", "than", "to")) {
        k++;
        while (k < ws.length && ws[k]!.t.kind === "word" && (DETERMINERS.has(ws[k]!.norm) || ws[k]!.pos === "NOUN" || ws[k]!.pos === "ADJ" || ws[k]!.pos === "PROPN") && !CONDITION_MARKERS.has(ws[k]!.norm)) k++;
        return { condition: { kind: "differ", head: baseOf(before), negate: false }, next: k };
      }
      const head = ws[k];
      if (!head || head.t.kind !== "word") return undefined;
      k++;
      if (wordIs(ws[k], "than", "from", "to")) {
        k++;
        while (k < ws.length && ws[k]!.t.kind === "word" && (DETERMINERS.has(ws[k]!.norm) || ws[k]!.pos === "NOUN" || ws[k]!.pos === "ADJ") && !CONDITION_MARKERS.has(ws[k]!.norm)) k++;
      }
      return { condition: { kind: "differ", head: baseOf(head), negate: false }, next: k };
    }
    return undefined;
  }

  /**
   * A verb of a relative clause and the values it names ("that target 172.16.0.0/12 or 172.20.0.0/16", "which
   * hit prod"): the action carries one of them, wherever.
   */
  private readVerbValue(ws: W[], i: number, probe: boolean): { condition: Condition; next: number } | undefined {
    const at = relativeVerbAt(ws, i);
    if (at === undefined) return undefined;
    let k = at + 1;
    while (wordIs(ws[k], "the", "a", "an")) k++;
    const valueLike = (w: W | undefined) => !!w && (w.t.kind === "tag" || w.t.kind === "quoted" || (w.t.kind === "word" && (/[_\d]/.test(w.norm) || ENVIRONMENTS.has(w.norm))));
    // "that open port 3389", "which use VLAN 300": a noun and the number or code that names one of it is that
    // argument's value.
    const named = ws[k];
    if (named?.t.kind === "word" && named.pos === "NOUN" && !valueLike(named) && (ws[k + 1]?.t.kind === "number" || valueLike(ws[k + 1]))) {
      const numbers = [valueText(ws[k + 1]!)!];
      let m = k + 2;
      while ((wordIs(ws[m], "or") || (ws[m]?.t.kind === "punct" && ws[m]!.t.text === ",")) && (ws[m + 1]?.t.kind === "number" || valueLike(ws[m + 1]))) {
        numbers.push(valueText(ws[m + 1]!)!);
        m += 2;
      }
      if (probe) return { condition: { kind: "and", of: [] }, next: m };
      return { condition: { kind: "equals", subject: subjectOf([named]), values: numbers, negate: false }, next: m };
    }
    // "that pull the iban or tax_number fields": a list of two or more before the noun they are values
    // of (a list argument holding one of them counts).
    const listed: W[] = [];
    let m = k;
    while (ws[m]?.t.kind === "word" && !CONDITION_MARKERS.has(ws[m]!.norm)) {
      listed.push(ws[m]!);
      const sep = wordIs(ws[m + 1], "or", "and") || (ws[m + 1]?.t.kind === "punct" && ws[m + 1]!.t.text === ",");
      if (!sep) break;
      m += wordIs(ws[m + 2], "or", "and") ? 3 : 2;
    }
    const head = ws[m + 1];
    if (listed.length >= 2 && head?.t.kind === "word" && head.pos === "NOUN" && /s$/.test(head.norm) && !CONDITION_MARKERS.has(head.norm)) {
      if (probe) return { condition: { kind: "and", of: [] }, next: m + 2 };
      return { condition: { kind: "equals", subject: subjectOf([head]), values: listed.map((w) => w.norm), negate: false }, next: m + 2 };
    }
    const values: string[] = [];
    while (valueLike(ws[k])) {
      values.push(valueText(ws[k]!)!);
      k++;
      if ((wordIs(ws[k], "or") || (ws[k]?.t.kind === "punct" && ws[k]!.t.text === ",")) && valueLike(ws[k + 1])) k++;
      else break;
    }
    if (values.length === 0) return undefined;
    if (probe) return { condition: { kind: "and", of: [] }, next: k };
    return { condition: { kind: "equals", subject: { text: "", words: [] }, values, negate: false }, next: k };
  }

  private readHaving(ws: W[], i: number): { condition: Condition; next: number } | undefined {
    let k = i;
    if (wordIs(ws[k], "while", "when", "whenever", "if", "unless", "once")) k++;
    // "unless they hold an F1 or F2 permit": who acts holds it (a qualification, a licence, a card).
    const holder = wordIs(ws[k], "they", "he", "she") && wordIs(ws[k + 1], "hold", "holds", "have", "has") ? 1 : 0;
    if (!holder && wordIs(ws[k], "the", "its", "their", "a", "an")) k++;
    const owner = holder ? [ws[k]!] : phraseAt(ws, k, (w) => !opensClause(w) && NOMINAL.has(w.pos) && !wordIs(w, "has", "have", "hold", "holds"));
    if (owner.length === 0 || owner.length > 3) return undefined;
    k += owner.length;
    if (!wordIs(ws[k], "has", "have", "hold", "holds")) return undefined;
    k++;
    // "an F1 or F2 permit", "a Class A or B permit": the kinds held, then what they are kinds of.
    if (wordIs(ws[k], "a", "an", "valid", "current")) {
      let m = k;
      while (wordIs(ws[m], "a", "an", "valid", "current")) m++;
      const kinds: string[] = [];
      while (ws[m]?.t.kind === "word" && /\d/.test(ws[m]!.norm) || (ws[m]?.t.kind === "word" && kinds.length === 0 && wordIs(ws[m], "class", "category", "grade", "type") && /\d|^[a-z]$/.test(ws[m + 1]?.norm ?? ""))) {
        if (wordIs(ws[m], "class", "category", "grade", "type")) m++;
        kinds.push(ws[m]!.norm);
        m++;
        const skip = separatorAt(ws, m);
        if (skip === 0) break;
        m += skip;
      }
      const kindOf = ws[m];
      // (What they are kinds of may be tagged a verb: "an F2 permit".)
      if (kinds.length > 0 && kindOf?.t.kind === "word" && !CONDITION_MARKERS.has(kindOf.norm) && !LIST_SEPARATORS.has(kindOf.norm) && endsClause(ws, m + 1)) return { condition: { kind: "equals", subject: subjectOf([kindOf]), values: kinds, negate: false }, next: m + 1 };
    }
    let expect = true;
    if (wordIs(ws[k], "no")) {
      expect = false;
      k++;
    } else if (wordIs(ws[k], "a", "an", "any")) k++;
    else return undefined;
    // ("a current CSCS 2 card": a number in the name of what is held is part of it.)
    const held = phraseAt(ws, k, (w) => !opensClause(w) && (NOMINAL.has(w.pos) || w.norm.includes("-") || STATE_WORDS.has(w.norm) || (holder === 1 && wordIs(w, "current", "valid"))));
    // (A number in its name: "a CSCS 2 card".)
    while (holder === 1 && ws[k + held.length]?.t.kind === "number" && ws[k + held.length + 1]?.t.kind === "word" && NOMINAL.has(ws[k + held.length + 1]!.pos)) {
      const number = ws[k + held.length]!;
      held.push({ ...number, norm: (number.t as { text: string }).text, lemma: (number.t as { text: string }).text }, ...phraseAt(ws, k + held.length + 1, (w) => !opensClause(w) && NOMINAL.has(w.pos)));
    }
    // ("a forklift card on file": kept where it belongs, which says no more than that it is held.)
    const onFile = wordIs(ws[k + held.length], "on") && wordIs(ws[k + held.length + 1], "file", "record") ? 2 : 0;
    if (held.length === 0 || !NOMINAL.has(held.at(-1)!.pos) || !endsClause(ws, k + held.length + onFile)) return undefined;
    if (onFile) k += onFile;
    // The state words go last, as argument names put them (`alarm_active`).
    const ordered = [...held.filter((w) => !STATE_WORDS.has(w.norm)), ...held.filter((w) => STATE_WORDS.has(w.norm))];
    return { condition: { kind: "flag", subject: subjectOf(ordered), expect }, next: k + held.length };
  }

  /** Yes/no facts: "a crane is running", "checks have not completed", "the supplier is not on the allowed list", "openly". */
  private readFlag(ws: W[], i: number, probe: boolean): { condition: Condition; next: number } | undefined {
    // A restatement's yes/no fact: '"reviewed" is false'.
    const quoted = ws[i]?.t;
    if (quoted?.kind === "quoted" && wordIs(ws[i + 1], "is") && wordIs(ws[i + 2], "true", "false", "yes", "no")) {
      if (probe) return { condition: { kind: "and", of: [] }, next: i + 3 };
      return { condition: { kind: "flag", subject: subjectOf(analyze(quoted.value)), expect: wordIs(ws[i + 2], "true", "yes") }, next: i + 3 };
    }
    // "for returning clients", "to VIP customers", "for gold members": people named by what kind they are, a
    // yes/no fact named by both (`returning_client`) or the value of their kind (`customer_tier: gold`).
    if (wordIs(ws[i], "for", "to")) {
      let k = i + 1;
      if (wordIs(ws[k], "the", "our", "any", "all")) k++;
      const kind: W[] = [];
      // (A participle or a name says which people, "returning", "unsubscribed", "VIP"; a plain adjective,
      // "external recipients", is read by the readers of where an action goes.)
      while (kind.length < 2 && ws[k]?.t.kind === "word" && !ws[k]!.used && (ws[k]!.pos === "PROPN" || ((ws[k]!.pos === "VERB" || ws[k]!.pos === "ADJ") && /[a-z]{3}(?:ing|ed)$/.test(ws[k]!.norm))) && !CONDITION_MARKERS.has(ws[k]!.norm)) kind.push(ws[k++]!);
      const people = ws[k];
      if (kind.length > 0 && people?.t.kind === "word" && people.pos === "NOUN" && namesPeople(people.norm) && endsClause(ws, k + 1)) {
        if (probe) return { condition: { kind: "and", of: [] }, next: k + 1 };
        // ("to unsubscribed customers": the state "un-" denies, false: `customer_subscribed: false`.)
        const denied = kind.map((w) => deniedParticiple(w.norm));
        const words = kind.map((w, n) => (denied[n] ? { ...w, norm: denied[n]!, lemma: denied[n]! } : w));
        return { condition: { kind: "flag", subject: subjectOf([...words, people]), expect: !denied.some(Boolean) }, next: k + 1 };
      }
    }
    // "(not) approved by a manager", "(not) cleared by customs": a reduced relative's participle and who does
    // it, a yes/no fact named by both (`manager_approved`, `customs_cleared`, or `approved` alone).
    if (notDoneAt(ws, i)) {
      const done = ws[doneAfterNot(ws, i)]!;
      let k = doneAfterNot(ws, i) + 1;
      const agent: W[] = [];
      if (wordIs(ws[k], "by")) {
        let m = k + 1;
        while (wordIs(ws[m], "a", "an", "the", "our", "its", "their")) m++;
        const who = phraseAt(ws, m, (w) => !opensClause(w) && (NOMINAL.has(w.pos) || w.norm.includes("-")), 3);
        if (who.length > 0 && endsClause(ws, m + who.length)) {
          agent.push(...who);
          k = m + who.length;
        }
      }
      if (endsClause(ws, k)) {
        if (probe) return { condition: { kind: "and", of: [] }, next: k };
        return { condition: { kind: "flag", subject: subjectOf([...agent, done]), expect: false }, next: k };
      }
    }
    // "without MFA enabled", "with auto-renew switched on", "without backups active": a state of the thing,
    // named with its noun, said with "with" (true) or "without" (false).
    if (wordIs(ws[i], "with", "without")) {
      let k = i + 1;
      if (wordIs(ws[k], "a", "an", "the", "its", "their")) k++;
      const noun = phraseAt(ws, k, (w) => (NOMINAL.has(w.pos) || w.norm.includes("-")) && !STATE_WORDS.has(w.norm));
      k += noun.length;
      const state = ws[k];
      if (noun.length > 0 && state && STATE_WORDS.has(state.norm)) {
        // "switched off", "turned on": the particle says which.
        const particle = wordIs(state, "switched", "turned", "set") && wordIs(ws[k + 1], "on", "off") ? ws[k + 1]! : undefined;
        const next = particle ? k + 2 : k + 1;
        if (probe) return { condition: { kind: "and", of: [] }, next };
        const on = !OFF_STATES.has((particle ?? state).norm);
        return { condition: { kind: "flag", subject: subjectOf(noun), expect: wordIs(ws[i], "with") === on }, next };
      }
      // "without a delivery photo (being) taken", "with the form stamped (at the desk)": a participle
      // after the noun is the state the action carries or lacks, a yes/no fact named by both
      // (`require_adult_signature`, `form_signed`). Its place ("on delivery") belongs to the participle.
      const being = wordIs(state, "being", "been") ? 1 : 0;
      const done = ws[k + being];
      if (noun.length > 0 && done && done.t.kind === "word" && isPastParticiple(done) && !APPROVAL_PARTICIPLES.has(done.norm)) {
        let next = k + being + 1;
        if (wordIs(ws[next], "on", "at", "upon", "for") && ws[next + 1]?.pos === "NOUN" && endsClause(ws, next + 2)) next += 2;
        if (endsClause(ws, next)) {
          if (probe) return { condition: { kind: "and", of: [] }, next };
          return { condition: { kind: "flag", subject: subjectOf([...noun, done]), expect: wordIs(ws[i], "with") }, next };
        }
      }
    }
    // "without requiring a photo", "without notifying the owner": a doing the action leaves out,
    // named by its verb and object (`require_adult_signature`, `notify_owner`).
    // (The tagger reads some of these as nouns: "logging", "recording".)
    if (wordIs(ws[i], "without") && (ws[i + 1]?.pos === "VERB" || ws[i + 1]?.pos === "NOUN") && /^[a-z]{3,}ing$/.test(ws[i + 1]!.norm)) {
      let k = i + 2;
      if (wordIs(ws[k], "a", "an", "the", "any", "its", "their")) k++;
      const noun = phraseAt(ws, k, (w) => !opensClause(w) && (NOMINAL.has(w.pos) || w.norm.includes("-")));
      k += noun.length;
      if (noun.length > 0 && endsClause(ws, k)) {
        if (probe) return { condition: { kind: "and", of: [] }, next: k };
        return { condition: { kind: "flag", subject: subjectOf([ws[i + 1]!, ...noun]), expect: false }, next: k };
      }
    }
    // "without MFA", "without a ticket": the absence of a thing the action would carry, a yes/no fact.
    if (wordIs(ws[i], "without")) {
      let k = i + 1;
      if (wordIs(ws[k], "a", "an", "the", "any")) k++;
      // ("without a verified MFA": a state word before the noun is part of its name, `mfa_verified`; so are
      // the words that say which, up to four: "without a valid enhanced vetting check".)
      const noun = phraseAt(ws, k, (w, taken, at) => !opensClause(w) && (NOMINAL.has(w.pos) || w.norm.includes("-") || (STATE_WORDS.has(w.norm) && ws[at + 1]?.t.kind === "word") || (verbalModifier(w) && (NOMINAL.has(ws[at + 1]?.pos ?? "") || (!!ws[at + 1] && verbalModifier(ws[at + 1]!) && NOMINAL.has(ws[at + 2]?.pos ?? ""))))) && (!STATE_WORDS.has(w.norm) || taken === 0), 4);
      k += noun.length;
      if (noun.length > 0 && endsClause(ws, k) && ((!APPROVAL_NOUNS.has(noun.at(-1)!.norm) && !APPROVAL_ACTS.has(noun.at(-1)!.norm)) || recordedCheck(ws, i + 1, k - 1))) {
        if (probe) return { condition: { kind: "and", of: [] }, next: k };
        return { condition: { kind: "flag", subject: subjectOf(noun), expect: false }, next: k };
      }
    }
    // "during a change freeze", "amid an incident", "under review": a state the action happens in, named by
    // its noun (the times and days "during" also leads are read before this, by the clock and date readers;
    // "under" before a number is a comparison, read before this too).
    if (wordIs(ws[i], "during", "amid", "amidst", "under", "pending", "awaiting") && !(wordIs(ws[i], "under") && NUMERIC_KINDS.has(ws[i + 1]?.t.kind ?? ""))) {
      let k = i + 1;
      if (wordIs(ws[k], "a", "an", "the", "any")) k++;
      const noun = phraseAt(ws, k, (w) => !opensClause(w) && (NOMINAL.has(w.pos) || w.pos === "VERB"));
      k += noun.length;
      if (noun.length > 0 && noun.at(-1)!.pos !== "ADJ") {
        if (probe) return { condition: { kind: "and", of: [] }, next: k };
        return { condition: { kind: "flag", subject: subjectOf(noun), expect: true }, next: k };
      }
    }
    // "while the turbine has an active ice alarm", "if the order has no invoice": a thing the action's object
    // has, and its state, is a yes/no fact named by both (`ice_alarm_active`, `invoice`); "no" says it lacks it.
    const had = this.readHaving(ws, i);
    if (had) return probe ? { condition: { kind: "and", of: [] }, next: had.next } : had;
    let j = i;
    const subject: W[] = [];
    let negated = false;
    // "the tests did not pass", "checks do not succeed": the auxiliary of a negated verb is a copula here.
    const auxiliary = (k: number) => ["is", "are", "was", "were", "has", "have", "had", "been", "be", "isn't", "aren't", "wasn't", "weren't", "hasn't", "haven't"].includes(ws[k]!.norm) || (wordIs(ws[k], "did", "does", "do") && wordIs(ws[k + 1], "not", "n't", "never"));
    while (j < ws.length && j <= i + 5 && ws[j]!.t.kind === "word" && !auxiliary(j)) {
      if (j > i && CONDITION_MARKERS.has(ws[j]!.norm)) return undefined;
      if (NEGATORS.has(ws[j]!.norm)) negated = !negated;
      else if (!DETERMINERS.has(ws[j]!.norm) && !["when", "while", "if", "whose", "where", "once", "that", "which", "who"].includes(ws[j]!.norm)) subject.push(ws[j]!);
      j++;
    }
    if (j >= ws.length || ws[j]!.t.kind !== "word" || !auxiliary(j)) {
      // "unless the scan passed", "if the check failed": a thing named with an article, then its verb in the
      // past, is a yes/no fact too (not an action named "scan passed").
      // "unless the customer requested the change": the verb's own object, a definite noun, is part of the
      // fact; the fact is the party and its verb.
      const pastAt = subject.findIndex((w, n) => n >= 1 && w.pos === "VERB" && /ed$/.test(w.norm));
      const object = pastAt >= 1 && pastAt < subject.length - 1 ? ws.indexOf(subject[pastAt]!) + 1 : -1;
      const objectLength = object < 0 ? 0 : wordIs(ws[object], "it", "this") ? 1 : wordIs(ws[object], "the") && ws[object + 1]?.pos === "NOUN" ? 2 : 0;
      if (objectLength > 0 && (!ws[object + objectLength] || ws[object + objectLength]!.t.kind !== "word" || CONDITION_MARKERS.has(ws[object + objectLength]!.norm) || wordIs(ws[object + objectLength], "and", "or"))) subject.length = pastAt + 1;
      const verb = subject.at(-1);
      const past = verb !== undefined && verb.pos === "VERB" && /ed$/.test(verb.norm) && subject.length >= 2;
      const end = subject.length > 0 ? ws.indexOf(verb!) + 1 + (objectLength > 0 && subject.length === pastAt + 1 ? objectLength : 0) : j;
      if (!past || !wordIs(ws.slice(i, end).find((w) => !["when", "while", "if", "whose", "where", "once", "unless"].includes(w.norm)), "the", "its", "their", "his", "her") || (ws[end] && ws[end]!.t.kind === "word" && !ws[end]!.used && !CONDITION_MARKERS.has(ws[end]!.norm) && !wordIs(ws[end], "and", "or"))) return undefined;
      if (probe) return { condition: { kind: "and", of: [] }, next: end };
      return { condition: { kind: "flag", subject: subjectOf(subject), expect: !negated }, next: end };
    }
    // "isn't", "hasn't": the auxiliary carries the negation.
    if (/n't$/.test(ws[j]!.norm)) negated = !negated;
    let k = j + 1;
    while (wordIs(ws[k], "been", "be", "not", "never", "still", "currently", "already", "n't")) {
      if (wordIs(ws[k], "not", "never", "n't")) negated = !negated;
      k++;
    }
    // "while the steam valves are still on", "when the guard is off": a state said with a bare particle is a
    // yes/no fact named by the thing and "on" (`supers_on`), which "off" says is false.
    if (wordIs(ws[k], "on", "off") && subject.length > 0 && (endsClause(ws, k + 1) || ws[k + 1]!.used === true)) {
      if (probe) return { condition: { kind: "and", of: [] }, next: k + 1 };
      const owner = subject.filter((w) => !wordIs(w, "it", "they", "this", "that", "these", "those"));
      return { condition: { kind: "flag", subject: subjectOf([...owner, { ...ws[k]!, norm: "on", lemma: "on" }]), expect: wordIs(ws[k], "on") !== negated }, next: k + 1 };
    }
    // "once a crate is out for collection", "is out of stock": a state said with "out for" / "out of" and its
    // noun, a yes/no fact or a status that holds those words (`parcel_status: out_for_delivery`).
    if (wordIs(ws[k], "out") && wordIs(ws[k + 1], "for", "of")) {
      let m = k + 2;
      while (wordIs(ws[m], "the", "a", "an")) m++;
      const words: W[] = [];
      while (m < ws.length && ws[m]!.t.kind === "word" && ws[m]!.pos === "NOUN" && !CONDITION_MARKERS.has(ws[m]!.norm) && words.length < 2) words.push(ws[m++]!);
      if (words.length > 0) {
        if (probe) return { condition: { kind: "and", of: [] }, next: m };
        const owner = subjectOf(subject.filter((w) => !wordIs(w, "it", "they", "this", "that", "these", "those")));
        // (The state's text keeps its "of": "out of stock" is a status as written.)
        const state = `out ${ws[k + 1]!.norm} ${words.map((w) => w.norm).join(" ")}`;
        return { condition: { kind: "flag", subject: { text: owner.text ? `${owner.text} ${state}` : state, words: [...owner.words, "out", ...words.map(baseOf)] }, expect: !negated }, next: m };
      }
    }
    // "is not on the allowed list": a state named by an adjective or participle, with "on the … list".
    if (wordIs(ws[k], "on", "in") && ws[k + 1]) {
      let m = k + 1;
      while (wordIs(ws[m], "the", "a", "an")) m++;
      const words: W[] = [];
      while (m < ws.length && ws[m]!.t.kind === "word" && !CONDITION_MARKERS.has(ws[m]!.norm) && !wordIs(ws[m], "and", "or") && words.length < 3) words.push(ws[m++]!);
      if (words.length === 0) return undefined;
      if (probe) return { condition: { kind: "and", of: [] }, next: m };
      // "the customer is in the gold tier", "the client is on plan B": a party's attribute and its value,
      // read as that value (the party is whose attribute it is, not a second condition).
      const owner = subject.at(-1);
      if (owner && namesPeople(owner.norm) && words.length > 1) {
        const value = this.readEquality(ws, k, false);
        if (value) return { condition: negated ? negate(value.condition) : value.condition, next: value.next };
      }
      // "it is in staging", "the order is in review": a value, not a yes/no fact.
      if ((subject.length > 0 && subject.every((w) => ["it", "they", "this", "that"].includes(w.norm))) || (words.length === 1 && subject.length === 0 && !wordIs(ws[i], "that", "which", "who"))) {
        return { condition: { kind: "equals", subject: { text: "", words: [] }, values: [words.map((w) => w.norm).join(" ")], negate: negated }, next: m };
      }
      return { condition: { kind: "flag", subject: subjectOf([...subject, ...words]), expect: !negated }, next: m };
    }
    const state = ws[k];
    // "users who are admins", "orders that are refunds": a noun after a relative clause's copula is a value.
    if (subject.length === 0 && wordIs(ws[i], "that", "which", "who") && state?.t.kind === "word" && state.pos === "NOUN" && !CONDITION_MARKERS.has(state.norm) && (!ws[k + 1] || ws[k + 1]!.t.kind !== "word" || ws[k + 1]!.used || CONDITION_MARKERS.has(ws[k + 1]!.norm) || wordIs(ws[k + 1], "and", "or"))) {
      if (probe) return { condition: { kind: "and", of: [] }, next: k + 1 };
      return { condition: { kind: "equals", subject: { text: "", words: [] }, values: [state.lemma], negate: negated }, next: k + 1 };
    }
    const closes = !ws[k + 1] || ws[k + 1]!.t.kind !== "word" || CONDITION_MARKERS.has(ws[k + 1]!.norm) || wordIs(ws[k + 1], "and", "or");
    if (!state || state.t.kind !== "word" || !["ADJ", "VERB", "ADV"].includes(state.pos) || (CONDITION_MARKERS.has(state.norm) && !(["marked", "flagged", "tagged"].includes(state.norm) && closes))) return undefined;
    // ("unless the reason is event_cancelled": a code as the tool writes it is a value, not a state.)
    if (/[_\d]/.test(state.norm)) return undefined;
    // A relative clause ("accounts that are active", "payments which were not reviewed") says the state of
    // the action's own thing: the state alone names the yes/no argument or the value.
    if (subject.length === 0 && !wordIs(ws[i], "that", "which", "who")) return undefined;
    // "whose batch is classified as heavily contaminated", "a client recorded as high risk": a participle
    // with "as" gives the class the subject is in, held by whichever argument names classes (a status, a
    // category), not by the subject's own argument (the batch's number); the participle names nothing.
    if ((state.pos === "VERB" ? isPastParticiple(state) : state.pos === "ADJ" && /[a-z]{3}(?:ed|en)$/.test(state.norm)) && wordIs(ws[k + 1], "as") && subject.length > 0) {
      let m = k + 2;
      if (wordIs(ws[m], "a", "an", "the")) m++;
      const value = phraseAt(ws, m, (w) => !opensClause(w) && (NOMINAL.has(w.pos) || w.pos === "ADV" || w.pos === "VERB"));
      if (value.length > 0 && endsClause(ws, m + value.length)) {
        if (probe) return { condition: { kind: "and", of: [] }, next: m + value.length };
        return { condition: { kind: "equals", subject: { text: "", words: [] }, values: [value.map((w) => w.norm).join(" ")], negate: negated }, next: m + value.length };
      }
    }
    // "hasn't passed its shrinkage test", "has completed its induction": a perfect with an object says
    // the object's state, a yes/no fact named by both (`shrinkage_test_passed`, or a status of that test).
    if (wordIs(ws[j], "has", "have", "had", "hasn't", "haven't", "hadn't") && state.pos === "VERB" && isPastParticiple(state)) {
      let m = k + 1;
      if (wordIs(ws[m], "a", "an", "the", "its", "their", "his", "her", "any")) m++;
      const object = phraseAt(ws, m, (w) => !opensClause(w) && (NOMINAL.has(w.pos) || w.norm.includes("-") || (w.pos === "VERB" && /[a-z]{3}ing$/.test(w.norm))), 4);
      if (object.length > 0 && endsClause(ws, m + object.length)) {
        if (probe) return { condition: { kind: "and", of: [] }, next: m + object.length };
        return { condition: { kind: "flag", subject: subjectOf([...object, state]), expect: !negated }, next: m + object.length };
      }
    }
    // "the reason is damaged, lost, outdated or low circulation": a list of states, each a fact of its own,
    // joined as its last conjunction says (the list's later items would otherwise be left unread).
    const states = this.stateList(ws, k);
    if (probe) return { condition: { kind: "and", of: [] }, next: states.next };
    // A state that is one of an argument's values ("after they are paid" → status paid) is an equality too:
    // the evaluator tries a yes/no argument named by the words first, then a value equal to the state.
    const owner = subject.filter((w) => !wordIs(w, "it", "they", "this", "that", "these", "those"));
    const facts = states.items.map((item): Condition => ({ kind: "flag", subject: subjectOf([...owner, ...item]), expect: !negated }));
    if (facts.length === 1) return { condition: facts[0]!, next: states.next };
    // ("is not damaged or lost" is neither: the negation turns an "or" into an "and".)
    const all = states.joiner === "and" ? !negated : negated;
    return { condition: { kind: all ? "and" : "or", of: facts }, next: states.next };
  }

  /** The states from k on: one word, then more after commas and a last "or"/"and" ("damaged, lost or rarely borrowed"). */
  private stateList(ws: W[], k: number): { items: W[][]; next: number; joiner: "or" | "and" } {
    const items: W[][] = [[ws[k]!]];
    let next = k + 1;
    let joiner: "or" | "and" = "or";
    const stateWord = (w: W | undefined) => w !== undefined && w.t.kind === "word" && !w.used && ["ADJ", "VERB", "ADV", "NOUN"].includes(w.pos) && !CONDITION_MARKERS.has(w.norm) && !wordIs(w, "and", "or", "the", "a", "an");
    for (;;) {
      let at = next;
      const comma = ws[at]?.t.kind === "punct" && ws[at]!.t.text === ",";
      if (comma) at++;
      const conjunction = wordIs(ws[at], "or", "and") ? ws[at]!.norm : undefined;
      if (conjunction) at++;
      if ((!comma && !conjunction) || !stateWord(ws[at])) break;
      const item: W[] = [];
      while (item.length < 3 && stateWord(ws[at])) item.push(ws[at++]!);
      // Each item ends the clause or the list goes on; a word after it would make it a new clause's start.
      if (!(endsClause(ws, at) || (ws[at]?.t.kind === "punct" && ws[at]!.t.text === ",") || wordIs(ws[at], "or", "and"))) break;
      items.push(item);
      next = at;
      if (conjunction) {
        joiner = conjunction as "or" | "and";
        break;
      }
    }
    // A list needs its conjunction ("damaged, lost or outdated"); commas alone may part clauses.
    return items.length > 1 && ws.slice(k, next).some((w) => wordIs(w, "or", "and")) ? { items, next, joiner } : { items: [items[0]!], next: k + 1, joiner: "or" };
  }

  /**
   * "(to) members residing in Narnia or Oz", "customers based in the EU": where the people named live or are
   * is the values after the participle; the people and the participle name no value of their own.
   */
  private readPlaced(ws: W[], i: number, probe: boolean): { condition: Condition; next: number } | undefined {
    let j = i;
    if (wordIs(ws[j], "to", "for", "with", "from", "of")) j++;
    while (DETERMINERS.has(ws[j]?.norm ?? "")) j++;
    const np: W[] = [];
    while (j < ws.length && np.length < 3 && ws[j]!.t.kind === "word" && !ws[j]!.used && (ws[j]!.pos === "NOUN" || ws[j]!.pos === "ADJ" || ws[j]!.pos === "PROPN") && !PLACE_PARTICIPLES.has(ws[j]!.norm) && !GOING_PARTICIPLES.has(ws[j]!.norm)) np.push(ws[j++]!);
    const placed = PLACE_PARTICIPLES.has(ws[j]?.norm ?? "") && wordIs(ws[j + 1], "in", "at", "from", "outside");
    const going = GOING_PARTICIPLES.has(ws[j]?.norm ?? "") && wordIs(ws[j + 1], "to", "for", "into");
    if (np.length === 0 || (!placed && !going)) return undefined;
    const place = this.readEquality(ws, j + 1, probe);
    if (!place || place.condition.kind !== "equals" || place.condition.subject.words.length > 0) return undefined;
    // (Which of their fields holds the place the rule does not say: any value of the action that is one.)
    return place;
  }

  /**
   * Equality and membership: "in production", "tier bronze", "the bronze tier", "to channel #general",
   * "marked urgent", "where the reason is fraud_suspected", "for contractors", "to admin".
   */
  private readEquality(ws: W[], i: number, probe: boolean): { condition: Condition; next: number } | undefined {
    const placed = this.readPlaced(ws, i, probe);
    if (placed) return placed;
    const means = readMeans(ws, i);
    if (means) return probe ? { condition: { kind: "and", of: [] }, next: i + 2 } : { condition: means, next: i + 2 };
    let j = i;
    let negated = false;
    const preposition = ws[j]?.t.kind === "word" ? ws[j]!.norm : "";
    // ("callouts of priority p1", "orders of type proforma": "of", an attribute's noun and its value, as "with".)
    // (Only where the thing's words end after the value or its list, at the verb, a condition or the end: in
    // "upgrades of tier B accounts" the value modifies a noun, in "book goods of class 3 as air cargo" the
    // words after it are the action's.)
    // (A value that is a code, "p1", "3", "B", or after a noun that names a grade or kind; not "45 minutes of
    // reserve fuel", a measure of a thing.)
    const ofAttribute = wordIs(ws[j], "of") && ws[j + 1]?.pos === "NOUN" && ws[j + 2] !== undefined && valueText(ws[j + 2]!) !== undefined && !wordIs(ws[j + 2], "of", "and", "or", "to", "for", "in", "on", "at", "by") && (writtenAsCode(ws[j + 2]!) || GRADE_NOUNS.has(ws[j + 1]!.norm)) && (ws[j - 1] === undefined || ws[j - 1]!.t.kind === "word" || ws[j - 1]!.t.kind === "punct") && endsThingAfterValues(ws, j + 2);
    if (ofAttribute || wordIs(ws[j], "in", "to", "on", "for", "at", "into", "onto", "with", "marked", "flagged", "tagged", "labelled", "labeled", "set", "from", "via", "through", "as", "outside", "not", "except")) {
      if (wordIs(ws[j], "outside", "not")) negated = true;
      j++;
      if (wordIs(ws[j], "as", "to", "in", "on")) j++;
    }
    // "to Laos, Belarus or Myanmar", "outside the UK", "from LA, BY or MM": countries by name or code.
    if (j > i) {
      const countries = readCountries(ws, j);
      if (countries) return probe ? { condition: { kind: "and", of: [] }, next: countries.next } : { condition: { kind: "equals", subject: { text: "", words: [] }, values: countries.names, negate: negated }, next: countries.next };
    }
    // "where the reason is X", "status = paid", "region is not eu"
    let k = j;
    const head: W[] = [];
    while (k < ws.length && k <= j + 5 && ws[k]!.t.kind === "word" && !wordIs(ws[k], "is", "are", "equals", "equal", "=", "was", "of", "isn't", "aren't", "wasn't") && !CONDITION_MARKERS.has(ws[k]!.norm)) {
      if (!DETERMINERS.has(ws[k]!.norm)) head.push(ws[k]!);
      k++;
    }
    if ((wordIs(ws[k], "is", "are", "equals", "was", "isn't", "aren't", "wasn't") || ws[k]?.t.kind === "op") && ws[k + 1] && head.length > 0 && !["when", "while"].includes(preposition)) {
      let m = k + 1;
      if (ws[k]!.t.kind === "op" && (ws[k]!.t as { op: string }).op === "neq") negated = !negated;
      // "isn't 'clear'": the copula carries the negation.
      if (/n't$/.test(ws[k]!.norm)) negated = !negated;
      if (wordIs(ws[m], "not")) {
        negated = !negated;
        m++;
      }
      if (wordIs(ws[m], "equal")) m++;
      if (wordIs(ws[m], "to")) m++;
      if (wordIs(ws[m], "one")) m += wordIs(ws[m + 1], "of") ? 2 : 1;
      const values: string[] = [];
      // In a list ("RU, BY or KP") an item after a separator is a value whatever its tag: "by" is a code there.
      const LIST_ENDS = new Set(["when", "whenever", "if", "unless", "except", "while", "where", "and", "or", "but"]);
      while (m < ws.length) {
        const v = ws[m]!;
        const text = valueText(v);
        const afterSeparator = values.length > 0 && v.t.kind === "word" && !LIST_ENDS.has(v.norm);
        // (A code as the tool writes it, "event_cancelled", is a value whatever the tagger calls it.)
        if (text === undefined || (!afterSeparator && v.t.kind === "word" && !/[_\d]/.test(v.norm) && (CONDITION_MARKERS.has(v.norm) || ["ADP", "AUX", "VERB", "PART"].includes(v.pos)) && !["in"].includes(v.norm))) break;
        if (v.t.kind === "word" && DETERMINERS.has(v.norm)) {
          m++;
          continue;
        }
        values.push(text);
        m++;
        // "is a medical emergency": a value's noun phrase is one value.
        while (v.t.kind === "word" && ws[m]?.t.kind === "word" && !ws[m]!.used && ["NOUN", "ADJ"].includes(ws[m]!.pos) && ["NOUN", "ADJ"].includes(v.pos) && !CONDITION_MARKERS.has(ws[m]!.norm) && !LIST_SEPARATORS.has(ws[m]!.norm) && !wordIs(ws[m + 1], "is", "are", "was")) {
          values[values.length - 1] = `${values.at(-1)} ${ws[m]!.norm}`;
          m++;
        }
        if (wordIs(ws[m], "or", "and") || (ws[m]?.t.kind === "punct" && ws[m]!.t.text === ",")) {
          // "A, B or C": a comma then "or" is one separator.
          const skip = ws[m]!.t.kind === "punct" && wordIs(ws[m + 1], "or", "and") ? 2 : 1;
          const nextValue = ws[m + skip];
          // "… is eu or the customer is new": a new subject and its verb, not another value.
          if (ws.slice(m + skip, m + skip + 4).some((x) => wordIs(x, "is", "are", "equals", "was"))) break;
          if (nextValue && valueText(nextValue) !== undefined && !LIST_ENDS.has(nextValue.norm) && !(nextValue.t.kind === "word" && ["VERB", "AUX"].includes(nextValue.pos) && !/^[a-z]{2,3}$/.test(nextValue.norm) && !/[_\d]/.test(nextValue.norm))) {
            m += skip;
            continue;
          }
        }
        break;
      }
      if (values.length === 0) return undefined;
      if (probe) return { condition: { kind: "and", of: [] }, next: m };
      return { condition: { kind: "equals", subject: subjectOf(head), values, negate: negated }, next: m };
    }
    if (j === i && !(ws[j]?.t.kind === "tag" || ws[j]?.t.kind === "quoted")) return undefined;
    // A value phrase after a preposition: an attribute noun with its value in either order ("zone restricted",
    // "the bronze tier", "channel #general", "the HR folder"), or a value alone ("production", "#general").
    let m = j;
    if (wordIs(ws[m], "any", "all", "every", "each")) return undefined; // "on any product": every one of them
    // "to an account", "for a contractor": an indefinite article names a kind of thing, not one value.
    const indefinite = wordIs(ws[m], "a", "an");
    while (wordIs(ws[m], "the", "a", "an")) m++;
    const phrase: W[] = [];
    while (m < ws.length && phrase.length < 4) {
      const v = ws[m]!;
      const next = ws[m + 1];
      // A word tagged as a verb still names a value or attribute when a value follows it ("channel #general")
      // or when it is a participle closing the phrase ("zone restricted").
      // So does a hyphenated name ("legal-hold"), and a word closing a phrase after another ("legal hold").
      const closes = !next || next.t.kind !== "word" || CONDITION_MARKERS.has(next.norm);
      // ("from purchased lists", "for damaged goods": a participle before its noun modifies it.)
      const verbAsName = v.pos === "VERB" && (isValue(next?.t) || v.norm.includes("-") || ((v.norm.endsWith("ed") || phrase.length > 0) && closes) || (PAST_PARTICIPLE.test(v.norm) && next?.pos === "NOUN" && !next.passive));
      if (v.t.kind === "word" && (CONDITION_MARKERS.has(v.norm) || (["VERB", "AUX", "ADP", "PART", "CCONJ", "SCONJ", "PRON"].includes(v.pos) && !verbAsName) || DETERMINERS.has(v.norm) || NEGATORS.has(v.norm))) break;
      if (v.t.kind !== "word" && v.t.kind !== "tag" && v.t.kind !== "quoted" && v.t.kind !== "number") break;
      // "for rent arrears must not be scheduled": a participle after "be" is the operation, not part of the value.
      if (v.passive && phrase.length > 0) break;
      // "for goods originating in …", "parcels going to …": a participle in -ing before a preposition opens a
      // clause about the thing, whose place the preposition gives; it is no word of the value.
      if (phrase.length > 0 && v.pos === "VERB" && /[a-z]{3}ing$/.test(v.norm) && wordIs(next, "in", "from", "to", "at", "into", "via", "through")) break;
      phrase.push(v);
      m++;
    }
    if (phrase.length === 0) return undefined;
    const values: string[] = [];
    let attribute: W[] = [];
    // "outside the office range of 10.0.0.0/8": a named range of addresses; the addresses say which
    // arguments it is about, whatever the range is called.
    if (wordIs(ws[m], "of") && ws[m + 1]?.t.kind === "word" && networkOf(ws[m + 1]!.norm) && phrase.every((v) => v.t.kind === "word" && !networkOf(v.norm))) {
      phrase.length = 0;
      phrase.push(ws[m + 1]!);
      m += 2;
    }
    // A Roman numeral after its noun is a value too ("Class III", "Grade IV"); "i", "v" and "x" alone are words.
    const valueLike = phrase.filter((v, n) => v.t.kind === "tag" || v.t.kind === "quoted" || v.t.kind === "number" || /[_\d]/.test(v.norm) || ENVIRONMENTS.has(v.norm) || (n > 0 && /^(?:ii|iii|iv|vi|vii|viii|ix)$/.test(v.norm)));
    if (valueLike.length > 0) {
      values.push(...valueLike.map((v) => valueText(v)!));
      attribute = phrase.filter((v) => !valueLike.includes(v));
    } else if (phrase.length === 1) {
      values.push(valueText(phrase[0]!)!);
    } else {
      // Two or more words: the noun that names a kind of thing is the attribute, the others its value.
      // "zone restricted" / "restricted zone": one of them is the attribute; the evaluator tries both.
      values.push(phrase.map((v) => v.norm).join(" "));
      // ("zone C": the noun before a value letter is the attribute.)
      attribute = phrase.length === 2 && isValueLetter(phrase[1]) ? [phrase[0]!] : [];
    }
    // "or" continues the values: "in production or staging", "to #general or #random".
    // "in Zurich or Geneva": one word after one word, the next thing after it not a noun of its phrase.
    const oneWordValue = (k: number) => {
      const v = ws[k];
      if (phrase.length !== 1 || !v || v.t.kind !== "word" || v.used || !["NOUN", "PROPN", "ADJ", "X"].includes(v.pos)) return false;
      if (CONDITION_MARKERS.has(v.norm) || DETERMINERS.has(v.norm) || NEGATORS.has(v.norm) || MODALS.has(v.norm)) return false;
      return !(ws[k + 1]?.t.kind === "word" && ["NOUN", "PROPN"].includes(ws[k + 1]!.pos));
    };
    // (A phrase of two or three words after one of as many: its words nouns or adjectives, no noun after it.)
    const phraseLike = (k: number) => {
      if (phrase.length < 2 || phrase.length > 3 || valueLike.length > 0 || attribute.length > 0) return false;
      const words = ws.slice(k, k + phrase.length);
      if (words.length < phrase.length || words.some((v) => v.t.kind !== "word" || v.used || !["NOUN", "PROPN", "ADJ"].includes(v.pos) || CONDITION_MARKERS.has(v.norm) || DETERMINERS.has(v.norm) || NEGATORS.has(v.norm))) return false;
      return words.at(-1)!.pos === "NOUN" && !(ws[k + phrase.length]?.t.kind === "word" && ["NOUN", "PROPN"].includes(ws[k + phrase.length]!.pos));
    };
    // "for a broken screen, a missing charger or water damage": a list of things' names, each of one to three
    // words (an article before it, its last word a noun, no noun after it), whose last item follows "or" or
    // "and". Where the items end, or undefined when the words after the separator are no such list.
    const itemAt = (k: number): number | undefined => {
      while (wordIs(ws[k], "a", "an", "the")) k++;
      let end = k;
      while (end < ws.length && end - k < 3) {
        const v = ws[end]!;
        const named = ["NOUN", "PROPN", "ADJ"].includes(v.pos) || (v.pos === "VERB" && PAST_PARTICIPLE.test(v.norm) && ws[end + 1]?.pos === "NOUN") || (v.norm === "lost" && ws[end + 1]?.pos === "NOUN");
        if (v.t.kind !== "word" || v.used || !named || CONDITION_MARKERS.has(v.norm) || DETERMINERS.has(v.norm) || NEGATORS.has(v.norm) || MODALS.has(v.norm)) break;
        end++;
      }
      if (end === k || ws[end - 1]!.pos !== "NOUN" || (ws[end]?.t.kind === "word" && ["NOUN", "PROPN"].includes(ws[end]!.pos))) return undefined;
      return end;
    };
    const listFrom = (k: number): { items: string[]; next: number } | undefined => {
      const items: string[] = [];
      for (;;) {
        const comma = ws[k]?.t.kind === "punct" && ws[k]!.t.text === ",";
        const last = wordIs(ws[k + (comma ? 1 : 0)], "or", "and");
        if (!comma && !last) return undefined;
        const start = k + (comma ? 1 : 0) + (last ? 1 : 0);
        const end = itemAt(start);
        if (end === undefined) return undefined;
        items.push(ws.slice(start, end).filter((v) => !DETERMINERS.has(v.norm)).map((v) => v.norm).join(" "));
        k = end;
        if (last) return { items, next: end };
      }
    };
    // "batches LOT-4410, LOT-4452 or LOT-4490": after a code, codes ("A, B or C": a comma then "or" is one separator).
    const codeLike = (v: W | undefined) => valueLike.length > 0 && !!v && !v.used && (v.t.kind === "number" || (v.t.kind === "word" && /\d/.test(v.norm)));
    for (;;) {
      const skip = ws[m]?.t.kind === "punct" && ws[m]!.t.text === "," && wordIs(ws[m + 1], "or", "and") ? 2 : 1;
      const separator = wordIs(ws[m], "or") || (ws[m]?.t.kind === "punct" && ws[m]!.t.text === ",") || (skip === 1 && wordIs(ws[m], "and") && codeLike(ws[m + 1]));
      const next = ws[m + skip];
      if (!separator || !next) break;
      const list = valueLike.length === 0 && attribute.length === 0 ? listFrom(m) : undefined;
      if (next.t.kind === "tag" || next.t.kind === "quoted" || ENVIRONMENTS.has(next.norm) || codeLike(next) || oneWordValue(m + skip)) {
        values.push(valueText(next)!);
        m += skip + 1;
      } else if (list) {
        values.push(...list.items);
        m = list.next;
      } else if (wordIs(ws[m + skip - 1], "or", "and") && phraseLike(m + skip)) {
        // "for paddle boards or rowing boats": another phrase of as many words, each a thing's word.
        values.push(ws.slice(m + skip, m + skip + phrase.length).map((v) => v.norm).join(" "));
        m += skip + phrase.length;
      } else if (isValueLetter(phrase.at(-1)) && isValueLetter(next) && phrase.length === 2) {
        // "zone A or B": each letter with the noun it names a value of.
        values.push(`${phrase[0]!.norm} ${next.norm}`);
        m += skip + 1;
      } else break;
    }
    if (probe) return { condition: { kind: "and", of: [] }, next: m };
    const subject = subjectOf(attribute);
    const phraseWords = phrase.map((v) => v.norm);
    // A bare plural noun ("for contractors", "to customers") names a kind of party, not one value: it is
    // true when an argument says so, and otherwise unknown (never false by another value's shape).
    const last = phrase.at(-1)!;
    // A singular thing named with "a"/"an" ("to an account") is what the action is done to, no value of it:
    // left unread (a rule that restricts then covers more; one that allows is refused for it).
    if (indefinite && phrase.length === 1 && valueLike.length === 0 && last.lemma === last.norm && !namesPeople(last.norm)) return undefined;
    // "for a single order", "to any one player": each one of them, no value.
    if (indefinite && phrase.length <= 3 && valueLike.length === 0 && wordIs(phrase[0], "single", "one", "given", "particular", "individual", "same")) return undefined;
    // "through the system", "via the app": the channel everything goes through, no value of the action.
    if (phrase.length === 1 && valueLike.length === 0 && ["system", "platform", "app", "application", "portal", "tool", "service", "software"].includes(last.norm)) return undefined;
    // (A participle before the noun says which ones, as a value: "from purchased lists".)
    const participled = phrase.length === 2 && PAST_PARTICIPLE.test(phrase[0]!.norm) && phrase[0]!.pos === "VERB";
    // (What an action goes through is a means, never a kind of party: "via the pool vans", "through brokers".)
    const category = !participled && !SETTINGS_OF_MEANS.has(preposition) && valueLike.length === 0 && last.pos === "NOUN" && (last.lemma !== last.norm || (indefinite && phrase.length === 1));
    // "for customers on tier gold", "to clients in the silver plan": the party whose attribute follows.
    if (category && phrase.length === 1 && namesPeople(last.norm) && wordIs(ws[m], "on", "in", "at", "with")) {
      const owned = this.readEquality(ws, m, probe);
      if (owned) return { condition: negated ? negate(owned.condition) : owned.condition, next: owned.next };
    }
    // (Two words too when a participle modifies the noun: "from purchased lists".)
    const setting = (phrase.length === 1 || participled) && values.length === 1 && valueLike.length === 0 && !category && !indefinite && last.pos === "NOUN" && phrase.every((w) => /^[a-z-]+$/.test(w.t.text)) ? SETTINGS[preposition] : undefined;
    return {
      // (Several phrases are several values of whatever argument holds one: no one of them names it.)
      condition: { kind: "equals", subject: attribute.length === 0 && phrase.length > 1 && !participled && values.length === 1 ? { text: phraseWords.join(" "), words: phrase.map(baseOf) } : subject, values, negate: negated, ...(category ? { category: true } : {}), ...(setting ? { setting } : {}) },
      next: m,
    };
  }
}

/**
 * "flown by helicopter", "sent by courier", "paid by card": a participle, "by" and a bare noun that names no
 * one is the means the action goes by (its method or channel), not who does it ("approved by a manager").
 */
function readMeans(ws: W[], i: number): Condition | undefined {
  const means = ws[i + 1];
  if (!wordIs(ws[i], "by") || !ws[i]!.afterParticiple) return undefined;
  if (!means || means.t.kind !== "word" || means.pos !== "NOUN" || !/^[a-z]{3,}$/.test(means.norm) || means.lemma !== means.norm) return undefined;
  // (A bare noun: "by helicopter", "by post". Who acts comes with an article or is a person: "by a manager".)
  if (namesPeople(means.norm) || ACTORS.has(means.norm) || APPROVAL_NOUNS.has(means.norm) || APPROVAL_PARTICIPLES.has(ws[i - 1]?.norm ?? "")) return undefined;
  if (ws[i + 2]?.t.kind === "word" && ["NOUN", "PROPN"].includes(ws[i + 2]!.pos)) return undefined;
  return { kind: "equals", subject: { text: "", words: [] }, values: [means.norm], negate: false, setting: "via" };
}

// Prepositions of where an action goes, comes from, happens or passes, for a common noun after them.
const SETTINGS_OF_MEANS = new Set(["via", "through"]);
const SETTINGS: Record<string, Setting> = { to: "to", into: "to", onto: "to", towards: "to", toward: "to", from: "from", in: "in", at: "in", on: "in", inside: "in", within: "in", via: "via", through: "via" };

function valueText(w: W): string | undefined {
  const t = w.t;
  switch (t.kind) {
    case "word":
      return t.norm;
    case "tag":
      return t.value;
    case "quoted":
      return t.value.toLowerCase();
    case "number":
      return String(t.value);
    case "domain":
      return t.domain;
    case "email":
      return t.address;
    default:
      return undefined;
  }
}

// Nouns of an argument that holds a date, compared with another: "later than the due date".
const DATE_NOUNS = new Set(["date", "deadline", "expiry", "expiration", "day"]);
// Nouns of a time that can pass, besides the units of time: "the deadline has passed".
const TIME_NOUNS = new Set(["deadline", "date", "time", "period", "window", "term", "expiry", "cutoff", "cut-off", "due", "moment", "season", "grace"]);

/** One zone per rule: a zone written after a clock ("after 08:00 Asia/Tokyo") applies to its days too. */
function spreadZone(conditions: Condition[]): void {
  const zones: string[] = [];
  const visit = (c: Condition, f: (c: Condition) => void) => {
    f(c);
    if (c.kind === "and" || c.kind === "or") c.of.forEach((x) => visit(x, f));
    if (c.kind === "not") visit(c.of, f);
  };
  for (const c of conditions) visit(c, (x) => (x.kind === "time" || x.kind === "weekday") && x.tz && zones.push(x.tz));
  if (zones.length === 0) return;
  for (const c of conditions) visit(c, (x) => {
    if ((x.kind === "time" || x.kind === "weekday") && !x.tz) x.tz = zones[0]!;
  });
}

function negate(c: Condition): Condition {
  if (c.kind === "not") return c.of;
  if (c.kind === "equals") return { ...c, negate: !c.negate };
  if (c.kind === "flag") return { ...c, expect: !c.expect };
  if (c.kind === "text") return { ...c, negate: !c.negate };
  if (c.kind === "differ") return { ...c, negate: !c.negate };
  if (c.kind === "compare" || c.kind === "compare_fields") {
    const flip: Partial<Record<Comparator, Exclude<Comparator, "between">>> = { gt: "lte", gte: "lt", lt: "gte", lte: "gt", eq: "neq", neq: "eq" };
    const op = flip[c.op];
    if (op) return { ...c, op };
  }
  return { kind: "not", of: c };
}

// ---------------------------------------------------------------------------------------------------
// 5. Action

/** Action terms from the words left for the action: verbs and objects as lemmas; "any action" or a list. */
// Who acts, in a rule with a subject ("AI agents must not …", "Users may not …"): not part of the action.
const ACTORS = new Set(["agent", "agents", "ai", "bot", "bots", "assistant", "assistants", "automation", "automations", "automated", "user", "users", "employee", "employees", "staff", "anyone", "anybody", "nobody", "someone", "somebody", "everyone", "we", "you", "they", "it", "llm", "llms", "model", "models", "copilot", "system", "systems", "service", "services", "app", "apps", "application", "applications", "script", "scripts", "people", "person"]);
// Verbs that say when an action's own time is: "inspections that begin on a Sunday".
// Participles that place the action's own time: "scheduled for a Saturday", "starting on a Sunday".
// Verbs of planning a thing that happens later, at a time of its own.
const PLANNING_VERBS = new Set(["schedule", "book", "plan", "reserve", "arrange", "reschedule", "rebook"]);
/** A time window or days without a subject, as the action's own time (or when it has none, the time it runs). */
function atOwnTime(c: Condition): Condition {
  if (c.kind === "time" || c.kind === "weekday" || c.kind === "dates") return c.subject ? c : { ...c, subject: OWN_TIME };
  if (c.kind === "not") return { ...c, of: atOwnTime(c.of) };
  if (c.kind === "or" || c.kind === "and") return { ...c, of: c.of.map(atOwnTime) };
  return c;
}
const PLANNED = new Set(["scheduled", "planned", "booked", "set", "due", "slated", "arranged", "dated", "timed", "starting", "beginning", "ending", "falling", "occurring", "happening", "taking"]);
const TIME_VERBS = new Set(["start", "begin", "end", "finish", "run", "happen", "occur", "open", "close", "expire", "fall", "land", "depart", "arrive", "leave"]);

const isDayWord = (w: W | undefined) => !!w && w.t.kind === "word" && (DAYS[w.norm] !== undefined || dayRangeOf(w) !== undefined || ["weekend", "weekends", "weekday", "weekdays", "workday", "workdays", "business"].includes(w.norm));

const LIGHT_VERBS = new Set(["issue", "make", "do", "perform", "process", "handle", "carry", "conduct", "give", "initiate", "place", "submit", "start", "trigger", "run"]);

const PHRASAL_NOUN = /^[a-z]{3,}-(?:up|out|down|off|over|in)s?$/;

// Endings of nouns for someone who does something ("operator", "trainee", "pharmacist", "technician").
const AGENT_ENDING = /(?:or|ee|ist|ian|er|ic)s?$/;

/**
 * A particular kind of person as the subject of a prohibition with its own verb and object ("Trainees must
 * not approve invoices", "Operators below grade 3 aren't allowed to restart pumps"): who acts is a
 * condition, true where an argument naming the actor's kind says so, false where it names another kind, and
 * unknown (fail closed) where the call does not say. Generic actors ("users", "agents") are set aside
 * before (ACTORS); a subject that is the thing done ("Refunds must not exceed …", "Orders must not ship to
 * …": no object after the verb) is the action, as before. `about`: the subject's noun and the words after
 * it, read as conditions about the actor.
 */
function particularActor(ws: W[], cueAt: number): { conditions: Condition[]; about: W[] } | undefined {
  let s = 0;
  while (wordIs(ws[s], "any", "all", "the", "a", "an")) s++;
  let h = s;
  // (The tagger may read a sentence's capitalised first word as a name: "Field crews must not …".)
  while (h < cueAt && ws[h]!.t.kind === "word" && !ws[h]!.used && (ws[h]!.pos === "ADJ" || ws[h]!.pos === "NOUN" || (h === 0 && ws[h]!.pos === "PROPN")) && !CONDITION_MARKERS.has(ws[h]!.norm)) h++;
  const head = ws[h - 1];
  // A generic actor ("staff", "users") is everyone: only what the subject says about them is a condition.
  const generic = !!head && ACTORS.has(head.norm);
  if (h === s || !head || head.pos !== "NOUN" || !(generic || namesPeople(head.norm) || AGENT_ENDING.test(head.norm))) return undefined;
  if (ws.slice(s, cueAt).some((w) => w.used || (w.t.kind === "punct" && w.t.text !== "'"))) return undefined;
  // The predicate: the first word after the cue is a verb with an object right after it.
  let p = cueAt;
  while (p < ws.length && (ws[p]!.used || (p > cueAt && wordIs(ws[p], "to") && ws[p - 1]!.used))) p++;
  const verb = ws[p];
  const object = ws[p + 1];
  if (!verb || verb.t.kind !== "word" || !(verb.pos === "VERB" || verbClassOf(verb.norm)) || wordIs(verb, "be", "is", "are", "been", "being", "have", "has", "get", "go", "come") || comparatorAt(ws, p)) return undefined;
  // ("A booking may not include over six rooms": a thing that holds an amount, not one who acts.)
  if (holdsAmount(ws, p)) return undefined;
  // (An object may open with a participle that says which: "pump salted water".)
  const modified = object?.pos === "VERB" && /[a-z]{3}ed$/.test(object.norm) && ["NOUN", "PROPN"].includes(ws[p + 2]?.pos ?? "");
  if (!object || object.used || !(["DET", "NOUN", "ADJ", "PROPN", "NUM"].includes(object.pos) || isValue(object.t) || modified)) return undefined;
  const np = ws.slice(s, h).filter((w) => w.pos === "NOUN" || w.pos === "ADJ" || w.pos === "PROPN");
  const rest = ws.slice(h, cueAt).filter((w) => !w.used);
  if (generic && rest.length === 0) return undefined;
  const conditions: Condition[] = generic ? [] : [{ kind: "equals", subject: { text: "", words: [] }, values: [np.map((w) => w.norm).join(" ")], negate: false, category: true }];
  for (const w of ws.slice(0, s)) w.used = true;
  if (rest.length === 0) {
    for (const w of np) w.used = true;
    return { conditions, about: [] };
  }
  for (const w of ws.slice(s, h - 1)) w.used = true;
  return { conditions, about: [head, ...rest] };
}

function readAction(ws: W[]): { any: boolean; terms: ActionTerm[] } {
  const groups: W[][] = [[]];
  // Inside `matching "a" or "b"`.
  let listed = false;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    if (w.used) continue;
    // A restatement read back: `actions matching "refunds"` names the action in its own words, as the
    // sentence it restates did (not word for word, as a quoted tool phrase does).
    if (wordIs(w, "matching") && ws[i + 1]?.t.kind === "quoted") {
      listed = true;
      continue;
    }
    if (listed && w.t.kind !== "quoted" && !wordIs(w, "or", "and") && !(w.t.kind === "punct" && w.t.text === ",")) listed = false;
    if (w.t.kind === "quoted" && listed) {
      const inner = analyze((w.t as { value: string }).value);
      if (inner.some((x) => x.t.kind === "quoted")) groups.at(-1)!.push(w);
      else groups.at(-1)!.push(...inner);
      continue;
    }
    if (w.t.kind === "punct" && w.t.text === ",") groups.push([]);
    else if (wordIs(w, "or", "and", "nor", "&", "/")) groups.push([]);
    else groups.at(-1)!.push(w);
  }
  sharedHeads(groups);
  let any = false;
  const terms: ActionTerm[] = [];
  // Whether the last term was a verb and its objects ("hauling out a dinghy"), whose verb things listed after it share.
  let verbLed = false;
  for (const g of groups) {
    const afterVerbLed = verbLed;
    verbLed = false;
    // "… approved by the agent", "… run by a bot": who does it is not what is done.
    const byActor = (w: W) => ACTORS.has(w.norm) && g.slice(Math.max(0, g.indexOf(w) - 3), g.indexOf(w)).some((x) => wordIs(x, "by")) && g.slice(g.indexOf(w) + 1).every((x) => x.t.kind !== "word" || DETERMINERS.has(x.norm));
    const content = g.filter((w) => !byActor(w) && (w.t.kind === "word" || w.t.kind === "quoted") && !DETERMINERS.has(w.norm) && !NEGATORS.has(w.norm) && !MODALS.has(w.norm) && !["is", "are", "be", "been", "to", "of", "please", "ever", "let", "it", "they", "them", "who", "that", "which", "when", "there", "do", "does", "done", "by", "api", "apis", "endpoint", "endpoints", "made", "would", "at", "once"].includes(w.norm) && (!["ADP", "AUX", "PRON", "SCONJ", "CCONJ", "PART", "DET"].includes(w.pos) || isPossessor(w)));
    if (content.some((w) => WILDCARD_WORDS.has(w.norm))) {
      // "delete anything": the verb with any object.
      const verbs = content.filter((w) => !WILDCARD_WORDS.has(w.norm)).map(baseOf);
      if (verbs.length === 0) any = true;
      else terms.push({ text: g.map((w) => w.t.text).join(" "), verbs, objects: [] });
      continue;
    }
    // A tool's name is one thing, whatever its last part ("create_purchase_request" is not "any request").
    const words = content.filter((w) => !WILDCARD_NOUNS.has(w.norm) && (/[_-]/.test(w.norm) || !WILDCARD_NOUNS.has(w.lemma)));
    if (words.length === 0) {
      if (content.length > 0) any = true;
      continue;
    }
    const verbs: string[] = [];
    const objects: string[] = [];
    let exact = false;
    let described = false;
    // "form 1099 filings", "schedule 2 claims": a noun and the number after it name one thing, matched whole.
    const numbered = new Map<W, string>();
    g.forEach((x, k) => {
      const before = g[k - 1];
      if (x.t.kind === "number" && before?.t.kind === "word" && ["NOUN", "PROPN"].includes(before.pos) && /^\d+$/.test(x.t.text)) numbered.set(before, `${before.norm}-${x.t.text}`);
    });
    // "refills of controlled substances": with no word of operation, the noun before "of" names it.
    const ofAt = g.findIndex((w) => wordIs(w, "of"));
    const operationWord = words.find((w) => w.pos === "VERB" || verbClassOf(w.norm) !== undefined || (w.norm.endsWith("ing") && w.pos !== "ADJ"));
    const headBeforeOf = ofAt > 0 ? g.slice(0, ofAt).filter((w) => words.includes(w)).at(-1) : undefined;
    if (headBeforeOf && (!operationWord || g.indexOf(operationWord) > ofAt)) {
      verbs.push(baseOf(headBeforeOf));
      words.splice(words.indexOf(headBeforeOf), 1);
    }
    for (const w of words) {
      if (LIGHT_VERBS.has(w.lemma) && words.some((x) => x !== w && verbClassOf(x.norm) !== undefined)) continue;
      // "withdrawals touching a wallet", "shipments crossing a border": an -ing participle after the things
      // says what they are in relation to, not what is done to them; its object still names them.
      const previous = words[words.indexOf(w) - 1];
      if (verbs.length === 0 && w.pos === "VERB" && /[a-z]{3}ing$/.test(w.norm) && previous && previous.pos === "NOUN" && previous.lemma !== previous.norm && !HOLDING_PARTICIPLES.has(w.norm)) continue;
      if (w.t.kind === "word" && /[_]/.test(w.norm) && words.filter((x) => x.t.kind === "word" && !ACTORS.has(x.norm)).length === 1) {
        // A tool's own name alone (`delete_user`): its words, all of them. Beside other words an identifier
        // is a value ("marking an opportunity closed_won"), kept whole.
        for (const q of w.norm.split(/_+/).filter(Boolean)) objects.push(q);
        exact = true;
        continue;
      }
      if (w.t.kind === "quoted") {
        // A quoted phrase names the action word for word: all of its words must match.
        for (const q of w.t.value.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)) objects.push(q);
        exact = true;
        continue;
      }
      if (numbered.has(w)) {
        objects.push(numbered.get(w)!);
        continue;
      }
      const base = baseOf(w);
      if (GENERIC_NOUNS.has(base) || GENERIC_NOUNS.has(w.norm)) continue;
      if (OCCURRENCE_NOUNS.has(base) && verbs.length > 0) continue;
      // A word that names an operation (a verb, a noun of action, a verb class member) is a verb.
      // A phrasal noun of action ("start-ups", "roll-outs", "sign-up") names its verb too.
      const operation = w.pos === "VERB" || verbClassOf(w.norm) !== undefined || (w.norm.endsWith("ing") && w.pos !== "ADJ") || PHRASAL_NOUN.test(w.norm);
      // "planned outages", "scheduled posts": a participle before its noun says which ones, not what is
      // done. Kept as written, so that matching knows it for a modifier.
      const next = words[words.indexOf(w) + 1];
      if (operation && verbs.length === 0 && !w.passive && /[a-z]{3,}ed$/.test(w.norm) && words.indexOf(w) === 0 && next && ["NOUN", "PROPN"].includes(next.pos) && words.length > 1) {
        objects.push(w.norm);
        continue;
      }
      // "off-cycle runs", "non-standard refunds", "cross-border payments": a word led by a particle or a
      // prefix before its noun says which ones (often a yes/no argument's name), never what is done.
      if (/^(?:off|on|in|out|over|under|non|pre|post|cross|multi|same|next|after|up)-[a-z]+$/.test(w.norm) && next && ["NOUN", "PROPN", "VERB"].includes(next.pos)) {
        objects.push(w.norm);
        continue;
      }
      if (operation && verbs.length === 0) {
        verbs.push(verbBaseOf(w));
        if (isReducedRelative(w, words)) described = true;
      } else objects.push(base);
    }
    // A participle last ("backups … deleted", "invoices … voided", from "X must never be Y-ed") is the
    // operation done to the words before it, even when the first of them is also a noun of action.
    // After "be" ("must not be recorded", "may never be waived") any participle is that operation, whatever
    // its class, and an irregular one too ("sold", "sent").
    const last = words.at(-1);
    const passive = last?.passive === true;
    if (last && objects.at(-1) === baseOf(last) && (passive || (verbs.length === 1 && last.pos === "VERB" && /ed$/.test(last.norm) && verbClassOf(last.norm) !== undefined))) {
      if (verbs.length === 1) {
        objects.splice(objects.length - 1, 1, verbs[0]!);
        verbs.splice(0, 1, verbBaseOf(last));
      } else if (verbs.length === 0) verbs.push(objects.pop()!);
    }
    // "Roster changes", "schedule updates": a word of an operation used as a noun before a noun of change
    // names what is changed; the change is the operation (`bulk_update_roster`), as in "price changes".
    const first = words.find((w) => w.t.kind === "word" && baseOf(w) === verbs[0]);
    if (verbs.length === 1 && first && ["NOUN", "PROPN"].includes(first.pos) && objects.length > 0 && verbClassOf(objects.at(-1)!) === "update" && words.at(-1)?.pos === "NOUN") {
      const change = objects.pop()!;
      objects.unshift(verbs[0]!);
      verbs.splice(0, 1, change);
    }
    // A light verb ("issue refunds", "make a payment", "perform a deletion") gives way to the operation its
    // object names.
    if (verbs.length === 1 && LIGHT_VERBS.has(verbs[0]!)) {
      const operation = objects.findIndex((o) => verbClassOf(o) !== undefined);
      if (operation >= 0) verbs.splice(0, 1, objects.splice(operation, 1)[0]!);
    }
    if (verbs.length + objects.length === 0) continue;
    // "hauling out a dinghy or a yacht", "deleting files or folders": things listed after a verb's object are
    // its objects too ("hauling out a yacht"), not actions of their own ("yacht" alone would be every tool about yachts).
    const previous = afterVerbLed ? terms.at(-1) : undefined;
    verbLed = verbs.length === 1 && objects.length > 0 && words[0] !== undefined && baseOf(words[0]) === verbs[0] && words[0].pos === "VERB";
    if (verbs.length === 0 && !exact && previous && previous.verbs.length === 1 && previous.objects.length > 0 && !previous.exact && words.every((w) => w.pos === "NOUN" || w.pos === "PROPN" || w.pos === "ADJ") && !words.some((w) => LIGHT_VERBS.has(w.lemma) || verbClassOf(w.norm) !== undefined)) {
      verbs.push(previous.verbs[0]!);
      const text = g.filter((w) => !DETERMINERS.has(w.norm) && !["ADP", "SCONJ", "PART"].includes(w.pos)).map((w) => w.t.text).join(" ");
      terms.push({ text: `${previous.verbs[0]} ${text}`, verbs, objects, ...(described && !passive ? { described: true } : {}) });
      verbLed = true;
      continue;
    }
    terms.push({ text: g.filter((w) => !DETERMINERS.has(w.norm) && (!["ADP", "SCONJ", "PART"].includes(w.pos) || isPossessor(w))).map((w) => w.t.text).join(" "), verbs, objects, ...(exact ? { exact: true } : {}), ...(described && !passive ? { described: true } : {}) });
  }
  return { any: any && terms.length === 0, terms };
}

/**
 * "minor or routine repairs", "cash, cheque or card payments", "issue email or SMS reminders": modifiers
 * listed before one noun each qualify it. A group of one modifier (no plural noun, nothing it acts on) before
 * the group that ends in the noun takes the noun ("minor repairs"), so neither names a thing of its own.
 */
function sharedHeads(groups: W[][]): void {
  const content = (g: W[]) => g.filter((w) => w.t.kind === "word" && !DETERMINERS.has(w.norm) && !["ADP", "AUX", "PART", "CCONJ", "SCONJ", "PRON"].includes(w.pos));
  const last = groups.at(-1) ? content(groups.at(-1)!) : [];
  const head = last.at(-1);
  // (A verb before the noun acts on it, "or delete users", unless the group before is an adjective, which
  // names nothing done: "amber or trial batches", where the tagger may read "trial", even the noun, as verbs.)
  const afterAdjective = groups.slice(0, -1).some((g) => content(g).at(-1)?.pos === "ADJ");
  if (last.length < 2 || !head || !(["NOUN", "PROPN"].includes(head.pos) || (afterAdjective && /[^s]s$/.test(head.norm)))) return;
  const verbFirst = last.slice(0, -1).some((w) => w.pos === "VERB" && !isPastParticiple(w));
  if (verbFirst && !afterAdjective) return;
  // (Those words are then the noun and its modifiers, whatever the tagger said.)
  if (afterAdjective) for (const w of last) if (w.pos === "VERB" && !isPastParticiple(w)) w.pos = w === head ? "NOUN" : "ADJ";
  for (let k = groups.length - 2; k >= 0; k--) {
    const words = content(groups[k]!);
    // (The first group may open with the verb the list shares: "schedule minor …".)
    const modifier = words.at(-1);
    const lead = words.slice(0, -1);
    const plural = (w: W) => w.pos === "NOUN" && /[^s]s$/.test(w.norm) && w.lemma !== w.norm;
    const verbTagged = afterAdjective && modifier?.pos === "VERB" && !isPastParticiple(modifier) && k > 0;
    if (!modifier || plural(modifier) || !(["ADJ", "NOUN", "PROPN"].includes(modifier.pos) || verbTagged) || lead.length > (k === 0 ? 1 : 0) || (lead.length === 1 && lead[0]!.pos !== "VERB")) return;
    if (verbTagged) modifier.pos = "ADJ";
    groups[k]!.push({ ...head, used: false });
  }
}

// ---------------------------------------------------------------------------------------------------
// The sentence

function fail(message: string, unplaced: string[], position: number, suggestion: string, candidates?: string[]): ParseResult {
  const error: ParseFailure = { message, unplaced, position, suggestion, ...(candidates ? { candidates } : {}) };
  return { ok: false, error };
}

// Adverbs that say when, how often, how recently or how much, not a value of the action ("rarely borrowed"
// is a state).
const MANNER_EXCLUDED = new Set(["only", "early", "daily", "weekly", "monthly", "yearly", "hourly", "really", "likely", "currently", "already", "immediately", "automatically", "usually", "always", "quickly", "directly", "simply", "strictly", "explicitly", "generally", "normally", "nightly", "quarterly", "annually", "rarely", "frequently", "occasionally", "regularly", "infrequently", "repeatedly", "previously", "recently", "partially", "fully", "mostly", "nearly"]);

// ---------------------------------------------------------------------------------------------------
// Lists of values a party must (not) be among

const LIST_SEPARATORS = new Set(["or", "and", "nor"]);

/** How many tokens separate two items of a list at m: 2 for ", or", 1 for "," or "or", 0 when none does. */
function separatorAt(ws: W[], m: number, joiners: string[] = ["or", "and"]): number {
  if (ws[m]?.t.kind === "punct" && ws[m]!.t.text === ",") return wordIs(ws[m + 1], ...joiners) ? 2 : 1;
  return wordIs(ws[m], ...joiners) ? 1 : 0;
}

/** A list of two or more single values from k ("US, CA or GB", "Acme, Globex and Initech"): its values and end. */
function listAt(ws: W[], k: number, names = false): { values: string[]; next: number } | undefined {
  const values: string[] = [];
  let m = k;
  while (m < ws.length) {
    const w = ws[m]!;
    let text = w.t.kind === "word" ? (DETERMINERS.has(w.norm) || LIST_SEPARATORS.has(w.norm) || CONDITION_MARKERS.has(w.norm) || w.used ? undefined : w.norm) : valueText(w);
    if (text === undefined) break;
    m++;
    // A list of names: a name of several nouns is one item ("Harbour Glass", "Blue Fern Nursery").
    while (names && nameWord(w) && nameWord(ws[m])) text = `${text} ${ws[m++]!.norm}`;
    values.push(text);
    const skip = separatorAt(ws, m, [...LIST_SEPARATORS]);
    if (skip === 0 || !ws[m + skip] || ws[m + skip]!.t.kind === "punct") break;
    m += skip;
  }
  // (One name of several words is a list of one: "to suppliers other than Harbour Glass".)
  // (So is one block of addresses: "to hosts outside 10.0.0.0/8".)
  return values.length >= 2 || (values.length === 1 && ((names && values[0]!.includes(" ")) || networkOf(values[0]!) !== undefined)) ? { values, next: m } : undefined;
}

const nameWord = (w: W | undefined) => !!w && w.t.kind === "word" && !w.used && (w.pos === "NOUN" || w.pos === "PROPN") && !LIST_SEPARATORS.has(w.norm) && !CONDITION_MARKERS.has(w.norm) && !DETERMINERS.has(w.norm);

/** A list written apart, after a colon or an opening bracket and an optional label ("(approved: A, B)"). */
function statedList(ws: W[]): { values: string[]; from: number; next: number } | undefined {
  for (let i = 0; i < ws.length; i++) {
    const t = ws[i]!.t;
    if (t.kind !== "punct" || (t.text !== ":" && t.text !== "(")) continue;
    let k = i + 1;
    if (t.text === "(" && ws[k]?.t.kind === "word" && ws[k + 1]?.t.kind === "punct" && ws[k + 1]!.t.text === ":") k += 2;
    const list = listAt(ws, k);
    if (list) return { values: list.values, from: i, next: list.next < ws.length && ws[list.next]!.t.kind === "punct" && ws[list.next]!.t.text === ")" ? list.next + 1 : list.next };
  }
  return undefined;
}

const NOT_AMONG: string[][] = [["except"], ["excluding"], ["other", "than"], ["outside"], ["not", "in"], ["not", "on"], ["not", "among"], ["apart", "from"], ["but"]];

/**
 * A party that must not be one of a list: "to any country except US, CA or GB", "to vendors other than A, B
 * and C", "recipients outside US, CA and GB"; or of a list stated apart: "to carriers not on the allowed
 * roster (A, B, C)", "to carriers outside the allowed roster: A, B, C", "to unlisted carriers (listed: A, B
 * and C)". The party's noun is the attribute; its words and the list's are marked used.
 */
function readListExclusions(ws: W[]): Condition[] {
  const out: Condition[] = [];
  // (A plural the tagger took for a verb is the party after "to" or "any": "to hosts outside …".)
  const noun = (w: W | undefined) => !!w && w.t.kind === "word" && !w.used && (w.pos === "NOUN" || w.pos === "PROPN" || (w.pos === "VERB" && ((/[^s]s$/.test(w.norm) && wordIs(ws[ws.indexOf(w) - 1], "to", "for")) || wordIs(ws[ws.indexOf(w) - 1], "any", "every", "all")))) && !WILDCARD_NOUNS.has(w.lemma) && !DETERMINERS.has(w.norm);
  const exclude = (party: W, values: string[], words: W[]) => {
    out.push({ kind: "equals", subject: subjectOf([party]), values, negate: true });
    for (const w of [party, ...words]) w.used = true;
    // "to any country": the preposition and determiner before the party are the condition's too.
    for (let k = ws.indexOf(party) - 1; k >= 0 && (DETERMINERS.has(ws[k]!.norm) || wordIs(ws[k], "to", "for", "from", "with")) && !ws[k]!.used; k--) ws[k]!.used = true;
  };
  for (let i = 1; i < ws.length; i++) {
    const cue = NOT_AMONG.find((phrase) => phrase.every((p, k) => wordIs(ws[i + k], p) && !ws[i + k]!.used));
    if (!cue || !noun(ws[i - 1])) continue;
    const after = i + cue.length;
    // (A name alone, "other than Harbour Glass", only after words that name an exception: "outside business
    // hours" is a time.)
    const list = listAt(ws, after, cue[0] !== "outside" && cue[0] !== "not");
    if (list) {
      exclude(ws[i - 1]!, list.values, ws.slice(i, list.next));
      continue;
    }
    // "not on the allowed roster (A, B, C)": the list is stated apart.
    let m = after;
    while (DETERMINERS.has(ws[m]?.norm ?? "") || ws[m]?.pos === "ADJ" || ws[m]?.pos === "VERB") m++;
    // (Any noun for a kept list of names: a list, roster, register, panel, directory.)
    const stated = wordIs(ws[m], "list", "lists", "allowlist", "whitelist", "allow-list", "roster", "rosters", "register", "registry", "panel", "directory", "catalogue", "catalog") ? statedList(ws) : undefined;
    if (stated) exclude(ws[i - 1]!, stated.values, [...ws.slice(i, m + 1), ...ws.slice(stated.from, stated.next)]);
  }
  // "unapproved vendors (approved: A, B and C)": a negated participle before the party, the list after it.
  for (let i = 0; i + 1 < ws.length; i++) {
    const w = ws[i]!;
    if (w.used || !/^(?:un|non-?)[a-z]{4,}ed$/.test(w.norm) || !noun(ws[i + 1])) continue;
    const stated = statedList(ws.slice(i + 2));
    if (stated) exclude(ws[i + 1]!, stated.values, [w, ...ws.slice(i + 2 + stated.from, i + 2 + stated.next)]);
  }
  return out;
}

const EXCEPTION_WORDS = new Set(["unless", "except", "excluding", "exempting", "save"]);

/** The parsed reading of one clause, before it becomes a rule. */
/** A word of our own making, to restate a shape in one the readers know. */
const madeWord = (text: string, pos: string): W => ({ t: { kind: "word", text, norm: text }, norm: text, lemma: text, pos, used: false });

/**
 * Who an action is for, said as the sentence's party rather than as the action's thing: "Block contractors
 * from opening the HR folder", "Bronze tier customers can't get credit increases". Restated as the action
 * "for" that party ("Block opening the payroll share for interns"), which the readers take as a condition.
 */
function partyFirst(ws: W[]): W[] {
  // "Block <party> from <doing …>".
  const from = ws.findIndex((w, i) => i >= 2 && wordIs(w, "from") && (ws[i + 1]?.pos === "VERB" || ws[i + 1]?.pos === "NOUN") && /^[a-z]{3,}ing$/.test(ws[i + 1]!.norm));
  if (from > 1 && BLOCK_VERBS.has(ws[0]!.lemma) && from <= 5 && ws.slice(1, from).every((w) => w.t.kind === "word") && ws.slice(1, from).some((w) => w.pos === "NOUN" || w.pos === "PROPN")) {
    // "from receiving payments": what the party receives is the action (paying them).
    const start = ["receive", "get", "obtain", "have"].includes(ws[from + 1]!.lemma) ? from + 2 : from + 1;
    return [ws[0]!, ...ws.slice(start), madeWord("for", "ADP"), ...ws.slice(1, from)];
  }
  // "<party> can't / must not / may never get <thing>": what they get is the action.
  const modal = ws.findIndex((w) => MODALS.has(w.norm) || w.norm === "can't" || w.norm === "cannot");
  const party = ws.slice(0, modal);
  if (modal < 1 || modal > 4 || !party.every((w) => w.t.kind === "word") || !party.some((w) => w.pos === "NOUN" || w.pos === "PROPN") || party.some((w) => w.pos === "VERB")) return ws;
  let v = modal + 1;
  if (!(ws[modal]!.norm === "can't" || ws[modal]!.norm === "cannot")) {
    if (!NEGATORS.has(ws[v]?.norm ?? "")) return ws;
    v++;
  }
  if (wordIs(ws[v], "be")) v++;
  if (!wordIs(ws[v], "get", "receive", "obtain", "have", "given", "granted", "offered", "issued")) return ws;
  // "Badges must not be issued to visitors …": the subject is the thing given; the party follows "to".
  // "Vouchers can never be issued with a face value over …", "… when …": nothing given follows, so the subject is
  // the thing given, not a party.
  const given = ws[v + 1];
  if (!given || wordIs(given, "to") || CONDITION_MARKERS.has(given.norm) || !["DET", "NOUN", "ADJ", "PROPN", "NUM"].includes(given.pos)) return ws;
  return [madeWord("block", "VERB"), ...ws.slice(v + 1), madeWord("for", "ADP"), ...ws.slice(0, modal)];
}

// "That's the legal maximum, and …", "It is the insurer's condition", "None of them are members": a sentence
// that opens by saying what something already named is explains the rule; whatever negation follows ("a near
// miss doesn't count") is the explanation's. (Not "This is not allowed": a state of permission is a rule.)
const EXPLANATION = /^(?:(?:that|this|it|these|those|there|here)(?:'s|'re|\s+is|\s+are|\s+was|\s+were)|none\s+of\s+(?:them|these|those)\s+(?:is|are|was|were))\s+(?!(?:not\s+|never\s+)?(?:allowed|permitted|forbidden|prohibited|blocked|banned|barred|refused|denied|subject|only|ok|okay|fine)\b)/i;

export function readClause(sentence: string): Reading | ParseFailure {
  const ws = partyFirst(analyze(sentence));
  const cues = withoutStates(ws, effectCues(ws));
  const cue = EXPLANATION.test(sentence.trim()) ? undefined : chooseEffect(cues);
  if (!cue) {
    return {
      message: "expected an effect: say what should happen (block, require approval, allow).",
      unplaced: ws.filter((w) => w.t.kind === "word").map((w) => w.norm).slice(0, 12),
      position: 0,
      suggestion: `e.g. "Block refunds over $500", or "Require approval for ${sentence.trim().replace(/[.!]+$/, "").slice(0, 80)}"`,
    };
  }
  const conflict = conflictingClauses(ws, cues);
  if (conflict) {
    const { first, second } = conflict;
    return {
      message: `holds two rules with different effects ("${first}" and "${second}"): one rule has one effect.`,
      unplaced: [],
      position: conflict.at,
      suggestion: `Write them as two rules separated by ";", each naming its actions, e.g. "${first}; ${second}"`,
      candidates: [first, second],
    };
  }
  // The chosen cue, and cues of the same or a weaker restrictive kind before it ("never … without approval"):
  // a negation after it is the sentence's own ("when the checks have not run").
  // Every cue is effect wording ("No X is permitted", "only allowed with approval"), never action or
  // condition words, except a negation after the chosen cue ("when the checks have not run") or one inside a
  // leading condition ("If the value does not exceed …, require approval").
  // "…, because the ground is soft then", "…, since the pitch needs rest": a clause after the
  // effect that says why is no part of the rule ("because of X" names a cause the action has, and stays).
  const why = ws.findIndex((w, k) => k > cue.at && ((wordIs(w, "because") && !wordIs(ws[k + 1], "of")) || (wordIs(w, "since", "as") && ws[k - 1]?.t.kind === "punct" && ws[k - 1]!.t.text === "," && ws.slice(k + 2, k + 7).some((x) => x.pos === "VERB" || x.pos === "AUX"))));
  if (why > 0) for (let k = ws[why - 1]?.t.kind === "punct" ? why - 1 : why; k < ws.length; k++) ws[k]!.used = true;
  // "Refunds may be issued without approval only when the amount is under $50", "Rebookings can only be made
  // without sign-off if …": going without approval is what the conditions allow, so outside them the action
  // needs approval (as "only allow" blocks outside its conditions).
  const cueFrom = Math.min(...cue.span);
  const withoutApproval = cue.effect === "require_approval" && wordIs(ws[cueFrom], "without");
  const onlyAt = withoutApproval ? ws.findIndex((w, k) => wordIs(w, "only") && (cues.some((c) => c.effect === "only_allow" && c.span.includes(k)) || (k > cueFrom && wordIs(ws[k + 1], "when", "if", "where", "while", "for", "under", "below", "during", "between", "within")))) : -1;
  if (onlyAt >= 0) ws[onlyAt]!.used = true;
  const leadEnd = wordIs(ws[0], "if", "when", "whenever", "where", "while") ? ws.findIndex((w) => w.t.kind === "punct" && w.t.text === ",") : -1;
  for (const c of cues) {
    const negation = c.effect === "block" && c.span.some((k) => NEGATORS.has(ws[k]!.norm)) && c !== cue;
    if (negation && (c.at > cue.at || (leadEnd > 0 && c.at < leadEnd))) continue;
    for (const k of c.span) ws[k]!.used = true;
  }

  // "to sanctioned countries (Iran, Syria or Cuba)", "high-risk vendors (Acme and Globex)": names in
  // brackets after a plural noun are its members, the values it may be.
  const bracketed: Condition[] = [];
  // "form 1099 (contractor income) returns": lower-case words in brackets that hold no value, condition or
  // exception gloss the word before them; they say nothing the rule needs.
  for (let i = 0; i < ws.length; i++) {
    if (ws[i]!.t.kind !== "punct" || ws[i]!.t.text !== "(" || ws[i]!.used) continue;
    const close = ws.findIndex((w, k) => k > i && w.t.kind === "punct" && w.t.text === ")");
    const inside = ws.slice(i + 1, close);
    // ("biometrics (fingerprints and photo)": the parts of what the word names, joined by "and" or "or",
    // gloss it too; not where a list of values may stand, after a place the action must (not) be in.)
    const listMayStand = ws.slice(Math.max(0, i - 5), i).some((w) => NOT_AMONG.some((p) => p[0] === w.norm) || wordIs(w, "approved", "allowed", "listed", "permitted", "among", "list", "roster"));
    const comma = (w: W) => w.t.kind === "punct" && w.t.text === ",";
    const separator = (w: W) => LIST_SEPARATORS.has(w.norm) || comma(w);
    const listed = inside.some(separator);
    const part = (w: W, k: number) => !separator(w) || (!listMayStand && k > 0 && k < inside.length - 1);
    const glossWord = (w: W) => w.t.kind === "word" && !w.used && (["NOUN", "ADJ"].includes(w.pos) || (w.pos === "PROPN" && listed) || LIST_SEPARATORS.has(w.norm)) && !/^(?:time|hours?|zone)$|[/\d]/.test(w.norm) && !CONDITION_MARKERS.has(w.norm) && !EXCEPTION_WORDS.has(w.norm) && !NEGATORS.has(w.norm) && !ENVIRONMENTS.has(w.norm);
    const named = inside.filter((w) => !separator(w));
    const party = ws[i - 1];
    // (Not after "not on", "outside", "except": a list the party must not be among, read as such below.)
    const amongNear = ws.slice(Math.max(0, i - 5), i).some((w) => NOT_AMONG.some((p) => p[0] === w.norm));
    // "(refund_fees true)", "(express = yes)": an argument named as the tool names it, with its yes or no,
    // says in the tool's own words which calls the rule is about.
    const keyed = inside.filter((w) => !(w.t.kind === "op" || (w.t.kind === "punct" && /^[=:]$/.test(w.t.text))));
    if (keyed.length === 2 && keyed[0]!.t.kind === "word" && /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(keyed[0]!.norm) && wordIs(keyed[1], "true", "false", "yes", "no")) {
      bracketed.push({ kind: "flag", subject: { text: keyed[0]!.norm, words: keyed[0]!.norm.split("_") }, expect: wordIs(keyed[1], "true", "yes") });
      for (let k = i; k <= close; k++) ws[k]!.used = true;
      continue;
    }
    const members = listed && !amongNear && close <= i + 12 && named.length >= 2 && named.every((w) => w.t.kind === "word" && !w.used && (w.pos === "PROPN" || countryCode(w.norm) !== undefined)) && inside.every((w, k) => !separator(w) || (k > 0 && k < inside.length - 1)) && party?.t.kind === "word" && !party.used && party.pos === "NOUN" && party.lemma !== party.norm;
    if (members) {
      bracketed.push({ kind: "equals", subject: subjectOf([party]), values: named.map((w) => w.norm), negate: false });
      // ("sanctioned countries": what the members are called is said by the list itself.)
      let from = i - 1;
      while (from > i - 3 && ws[from - 1]?.t.kind === "word" && !ws[from - 1]!.used && (ws[from - 1]!.pos === "ADJ" || PAST_PARTICIPLE.test(ws[from - 1]!.norm) || ws[from - 1]!.norm.includes("-"))) from--;
      for (let k = from; k <= close; k++) ws[k]!.used = true;
      continue;
    }
    const gloss = close > i + 1 && close <= i + (listed ? 9 : 6) && inside.every((w, k) => (glossWord(w) || comma(w)) && part(w, k)) && !named.every((w) => w.pos === "PROPN");
    if (gloss) for (let k = i; k <= close; k++) ws[k]!.used = true;
    // "… for longer than 45 minutes (the batch is scrapped after that)": a clause of its own
    // in brackets at the end, holding no value, says why; it is no part of the rule.
    const atEnd = close > i && ws.slice(close + 1).every((w) => w.t.kind === "punct");
    // ("… (count from the day it was made)", "(see the SOP)": one that opens with a verb in its plain form, an
    // instruction, says how to read the rule, no condition of it either. A participle opens a state or a
    // list: "(staging excepted)", "(approved: FR, DE)".)
    const opener = inside[0]?.t.kind === "word" ? inside[0]!.norm : "";
    const how = opener !== "" && !/(?:ed|en|ing)$/.test(opener) && !inside.some((w) => w.t.kind === "punct" && w.t.text === ":") && (inside[0]!.pos === "VERB" || tag(["they", opener])[1]?.pos === "VERB") && !EXCEPTION_WORDS.has(inside[0]!.norm) && !CONDITION_MARKERS.has(inside[0]!.norm) && !NEGATORS.has(inside[0]!.norm);
    // ("(we count that as dusk in summer)": a clause with a pronoun for its subject and its own verb.)
    // ("(those go through …)": after "those" the tagger may take the verb for a noun; read after "they".)
    const verbAfter = inside[1]?.t.kind === "word" && (inside[1]!.pos === "VERB" || inside[1]!.pos === "AUX" || (["these", "those"].includes(opener) && tag(["they", inside[1]!.norm])[1]?.pos === "VERB"));
    const stated = ["we", "they", "it", "this", "that", "these", "those", "i", "you"].includes(opener) && verbAfter;
    const why = !gloss && atEnd && close > i + 2 && (how || stated || inside.some((w) => w.pos === "AUX" || wordIs(w, "is", "are", "was", "were", "be", "been"))) && (stated || inside.every((w) => w.t.kind === "word" || w.t.kind === "punct"));
    if (why) for (let k = i; k <= close; k++) ws[k]!.used = true;
    // "outside the patch window (02:00-04:00 UTC)": the brackets hold what the named period is; the name
    // glosses it, and the period reads as if written in its place.
    const period = inside.some((w) => w.t.kind === "time_range" || w.t.kind === "time");
    // ("business hours (8am-5pm)" keeps its name: business hours are weekdays too.)
    if (!gloss && period && close > i && ws[i - 1]?.t.kind === "word" && !ws[i - 1]!.used && ws[i - 1]!.pos === "NOUN" && !wordIs(ws[i - 1], "hours", "hour", "days", "day")) {
      let k = i - 1;
      while (k > i - 4 && ws[k - 1]?.t.kind === "word" && !ws[k - 1]!.used && ["NOUN", "ADJ"].includes(ws[k - 1]!.pos) && !CONDITION_MARKERS.has(ws[k - 1]!.norm)) k--;
      if (wordIs(ws[k - 1], "the", "our", "a", "an", "its", "their")) k--;
      for (let n = k; n < i; n++) ws[n]!.used = true;
      ws[i]!.used = true;
      ws[close]!.used = true;
    }
  }
  // Before the actor, whose words a list's last value could look like ("… FR, DE or IT are forbidden").
  const excluded = readListExclusions(ws);
  // The actor of a sentence with a subject ("AI agents must not …", "Users may never …") is who acts, not
  // what is done: its words are set aside.
  const actorKinds: Condition[] = [];
  for (let i = 0; i < ws.length; i++) {
    // A noun right after a number is what the number counts ("100 users require approval"), not who acts.
    if (!ACTORS.has(ws[i]!.norm) || ws[i]!.used || ws[i - 1]?.t.kind === "number") continue;
    const next = ws[i + 1];
    // "Don't let the assistant archive …", "never allow bots to …": the actor after the effect's own verb.
    const before = wordIs(ws[i - 1], "the", "a", "an", "any", "our", "your") ? ws[i - 2] : ws[i - 1];
    // ("let" takes the bare verb after its actor; "allow" and "permit" take "to": "allow user deletion" has none.)
    const letActor = before?.used === true && ((wordIs(before, "let", "have") && next?.t.kind === "word") || (wordIs(before, "allow", "permit") && wordIs(next, "to")));
    if (!letActor && (!next || !(MODALS.has(next.norm) || NEGATORS.has(next.norm) || next.used))) continue;
    if (letActor && wordIs(ws[i - 1], "the", "a", "an", "any", "our", "your")) ws[i - 1]!.used = true;
    ws[i]!.used = true;
    const kind: W[] = [];
    // (Only a subject before its modal has a kind: in "Deploying services is banned" the words before the
    // actor-like noun are the action.)
    const subject = !letActor && (MODALS.has(next!.norm) || NEGATORS.has(next!.norm));
    const kindWord = (w: W) => subject && (w.pos === "NOUN" || (w.pos === "VERB" && /[a-z]{3}ing$/.test(w.norm)));
    for (let k = i - 1; k >= 0 && ws[k]!.t.kind === "word" && !ws[k]!.used && (ACTORS.has(ws[k]!.norm) || ws[k]!.pos === "ADJ" || ws[k]!.pos === "DET" || kindWord(ws[k]!)); k--) {
      ws[k]!.used = true;
      if ((ws[k]!.pos === "NOUN" || ws[k]!.pos === "VERB") && !ACTORS.has(ws[k]!.norm)) kind.unshift(ws[k]!);
    }
    // "Billing bots must not …", "support agents may not …": that kind of actor, which an argument naming
    // the caller's kind can tell (unknown otherwise, so the rule applies).
    if (kind.length > 0) actorKinds.push({ kind: "equals", subject: { text: "", words: [] }, values: [kind.map((w) => w.norm).join(" ")], negate: false, category: true });
  }
  const actor = particularActor(ws, cue.at);
  // The approver named anywhere: "escalate … to a human approver", "… for a manager to review".
  if (cue.effect === "require_approval") {
    for (let i = 0; i < ws.length; i++) {
      if (ws[i]!.used || !wordIs(ws[i], "to", "by", "from")) continue;
      let j = i + 1;
      while (wordIs(ws[j], "a", "an", "the", "human", "second")) j++;
      // "… to a human": the approver is the last word skipped.
      if (j > i + 1 && APPROVAL_NOUNS.has(ws[j - 1]!.norm) && !APPROVAL_NOUNS.has(ws[j]?.norm ?? "")) j--;
      // "… to the finance lead", "by the duty manager": words naming which one, before the approver.
      let named = j;
      while (named < ws.length && named < j + 3 && !ws[named]!.used && ws[named]!.t.kind === "word" && ["NOUN", "PROPN", "ADJ"].includes(ws[named]!.pos) && !APPROVAL_NOUNS.has(ws[named]!.norm) && !CONDITION_MARKERS.has(ws[named]!.norm)) named++;
      if (named > j && APPROVAL_NOUNS.has(ws[named]?.norm ?? "") && (named + 1 >= ws.length || ws[named + 1]!.t.kind === "punct" || CONDITION_MARKERS.has(ws[named + 1]!.norm))) j = named;
      if (j < ws.length && APPROVAL_NOUNS.has(ws[j]!.norm) && !["check", "ok", "okay", "review"].includes(ws[j]!.norm)) {
        while (j < ws.length && (APPROVAL_NOUNS.has(ws[j]!.norm) || ws[j]!.pos === "ADJ")) j++;
        for (let k = i; k < j; k++) ws[k]!.used = true;
        continue;
      }
    }
    // "go to a certified assessor for review", "sent to the duty chemist for sign-off": whoever the action goes
    // to, right before the approval it goes there for, is the approver.
    for (let i = 0; i < ws.length; i++) {
      if (ws[i]!.used || !wordIs(ws[i], "to") || !["go", "send", "pass", "route", "forward", "refer", "submit", "take", "escalate", "hand", "bring"].includes(ws[i - 1]?.lemma ?? "")) continue;
      let j = i + 1;
      while (wordIs(ws[j], "a", "an", "the", "our", "their", "its")) j++;
      let end = j;
      while (end < ws.length && end <= j + 3 && !ws[end]!.used && ws[end]!.t.kind === "word" && ["NOUN", "PROPN", "ADJ"].includes(ws[end]!.pos) && !CONDITION_MARKERS.has(ws[end]!.norm)) end++;
      const forApproval = wordIs(ws[end], "for") && ws[end + 1]?.used === true && (APPROVAL_ACTS.has(ws[end + 1]!.norm) || APPROVAL_NOUNS.has(ws[end + 1]!.norm) || wordIs(ws[end + 1], "signoff", "review", "approval"));
      if (end > j && forApproval) for (let k = i; k <= end; k++) ws[k]!.used = true;
    }
    // Right after the approval words ("sign-off from the regional pricing lead", "approved by the store owner",
    // "approval from the audit committee"), the noun phrase is who approves, whatever it names.
    for (let i = 1; i < ws.length; i++) {
      if (!wordIs(ws[i], "to", "by", "from") || !ws[i - 1]!.used) continue;
      if (!(APPROVAL_ACTS.has(ws[i - 1]!.norm) || APPROVAL_PARTICIPLES.has(ws[i - 1]!.norm) || APPROVAL_NOUNS.has(ws[i - 1]!.norm) || wordIs(ws[i - 1], "signoff", "off"))) continue;
      let start = i + 1;
      while (start < ws.length && ws[start]!.used && ws[start]!.t.kind === "word" && isModifier(ws[start])) start++;
      let end = start;
      while (end < ws.length && end <= start + 5 && !ws[end]!.used && ws[end]!.t.kind === "word" && (isModifier(ws[end]) || APPROVAL_NOUNS.has(ws[end]!.norm)) && !CONDITION_MARKERS.has(ws[end]!.norm)) end++;
      if (end > start && (["NOUN", "PROPN"].includes(ws[end - 1]!.pos) || APPROVAL_NOUNS.has(ws[end - 1]!.norm))) {
        // "the mechanic on duty", "the head of maintenance", "the engineer in charge": a phrase that
        // says which one, ending the clause, is the approver's too (not a place of the action).
        // ("a lead in the control room": with its article too.)
        const det = wordIs(ws[end + 1], "the", "our", "their") ? 1 : 0;
        const which = wordIs(ws[end], "on", "in", "of", "at") && ws[end + 1 + det]?.pos === "NOUN" && !ws[end + 1 + det]!.used ? (ws[end + 2 + det]?.pos === "NOUN" && !ws[end + 2 + det]!.used ? 3 : 2) + det : 0;
        if (which > 0 && endsClause(ws, end + which)) end += which;
        for (let k = i; k < end; k++) ws[k]!.used = true;
      }
    }
  }
  // "No refund … may be made", "… may be processed", "… may go through": a light verb after a modal only
  // says the action happens; the action is named by its subject.
  for (let i = 0; i < ws.length; i++) {
    if (!MODALS.has(ws[i]!.norm)) continue;
    let j = i + 1;
    while (NEGATORS.has(ws[j]?.norm ?? "") || wordIs(ws[j], "ever", "be", "get", "then", "only")) j++;
    let end = -1;
    // ("A refund … may only be paid": money the subject already names as paid out is paid by being made.)
    const paidOut = wordIs(ws[j], "paid") && ws.slice(0, i).some((w) => w.pos === "NOUN" && MONEY_OUT_CLASSES.includes(verbClassOf(w.norm) ?? ""));
    // (Only when the subject names a doing, "refund", "glaze orders": in "No cash float … may be
    // issued" the subject's head is a thing, a noun the tagger took for a verb, and "issued" is what is
    // done to it.)
    const head = [...ws.slice(0, i)].reverse().find((w) => !w.used && w.t.kind === "word" && ["NOUN", "VERB", "PROPN"].includes(w.pos) && ws.indexOf(w) < (ws.findIndex((x, k) => k < i && comparatorAt(ws, k) !== undefined) + 1 || i));
    const thingHead = head?.pos === "VERB" && verbClassOf(head.lemma) === undefined && ["ADJ", "NOUN"].includes(ws[ws.indexOf(head) - 1]?.pos ?? "");
    if (((LIGHT_PARTICIPLES.has(ws[j]?.norm ?? "") && !thingHead) || paidOut) && ws[j - 1] && wordIs(ws[j - 1], "be", "get")) end = wordIs(ws[j + 1], "out") ? j + 2 : j + 1;
    // "No kiln load may use more than 20 kg", "A booking may not include over six rooms": a verb of
    // having before an amount says the subject holds it; the amount is the condition.
    else if (holdsAmount(ws, j)) end = j + 1;
    else if (wordIs(ws[j], "go") && wordIs(ws[j + 1], "through", "ahead")) end = j + 2;
    else if (wordIs(ws[j], "goahead", "proceed", "happen", "occur")) end = j + 1;
    if (end > 0) for (let k = i; k < end; k++) ws[k]!.used = true;
  }
  // A verb that sends the action to its approver ("hold … for approval", "route … to a person", "flag …
  // for human approval") says what happens to the action, not what the action is.
  if (cue.effect === "require_approval") {
    const at = ws.findIndex((w, i) => !w.used && routes(ws, i) && (isClauseStart(ws, i) || ws.slice(0, i).every((x) => x.used || x.t.kind === "punct")));
    if (at >= 0) for (let k = at; k >= 0 && (k === at || wordIs(ws[k], "please", "always", "also", "then")); k--) ws[k]!.used = true;
  }
  // Scope: "in the finance domain", "for the billing domain".
  let domain: string | null = null;
  for (let i = 0; i < ws.length; i++) {
    if (!wordIs(ws[i], "domain", "domains") || ws[i]!.used) continue;
    let j = i - 1;
    const names: W[] = [];
    // "all finance domain actions": a quantifier or article ends the name.
    while (j >= 0 && ws[j]!.t.kind === "word" && !wordIs(ws[j], "in", "for", "of", "within", "across", "inside") && !DETERMINERS.has(ws[j]!.norm) && names.length < 3) names.unshift(ws[j--]!);
    // "the recipient's domain is …": a value's domain, not the rule's scope.
    if (names.length === 0 || names.some((w) => /'s?$/.test(w.norm)) || wordIs(ws[i + 1], "is", "isn't", "equals", "matches", "ends", "was")) continue;
    while (j >= 0 && wordIs(ws[j], "the")) j--;
    const start = wordIs(ws[j], "in", "for", "of", "within", "across", "inside") ? j : j + 1;
    domain = names.map((w) => w.norm).join("-");
    for (let k = start; k <= i; k++) ws[k]!.used = true;
  }

  // Exceptions.
  let split = ws.length;
  // "Excluding a pupil for … requires …": a gerund opening a sentence with no comma is the action (an
  // exception up front is set off by one: "Excluding weekends, block …").
  const gerundFirst = /ing$/.test(ws[0]?.norm ?? "") && !ws.some((w) => w.t.kind === "punct" && w.t.text === ",");
  for (let i = 0; i < ws.length; i++) {
    if (ws[i]!.used || (i === 0 && gerundFirst)) continue;
    if (EXCEPTION_WORDS.has(ws[i]!.norm) || (wordIs(ws[i], "other") && wordIs(ws[i + 1], "than")) || (wordIs(ws[i], "apart") && wordIs(ws[i + 1], "from")) || (wordIs(ws[i], "but") && wordIs(ws[i + 1], "not"))) {
      split = i;
      break;
    }
  }
  // "(staging excepted)", "…, weekends exempted": an exception written as a participle after what it
  // excepts, back to the bracket or comma that opens it.
  const postfix: W[] = [];
  for (let i = 1; i < split; i++) {
    if (ws[i]!.used || !wordIs(ws[i], "excepted", "exempted", "excluded")) continue;
    let start = i;
    while (start > 0 && !(ws[start - 1]!.t.kind === "punct" && ["(", ","].includes(ws[start - 1]!.t.text))) start--;
    if (start === 0 || start === i) continue;
    for (let k = start - 1; k <= i; k++) ws[k]!.used = true;
    for (const w of ws.slice(start, i)) {
      w.used = false;
      postfix.push(w);
    }
    if (ws[i + 1]?.t.kind === "punct" && ws[i + 1]!.t.text === ")") ws[i + 1]!.used = true;
  }
  // "(except staging)": the brackets hold the exception, and the sentence goes on after them.
  let bracketEnd = -1;
  if (split < ws.length && ws[split - 1]?.t.kind === "punct" && ws[split - 1]!.t.text === "(") {
    ws[split - 1]!.used = true;
    bracketEnd = ws.findIndex((w, k) => k > split && w.t.kind === "punct" && w.t.text === ")");
    if (bracketEnd > 0) ws[bracketEnd]!.used = true;
  }
  let main = (bracketEnd > 0 ? [...ws.slice(0, split), ...ws.slice(bracketEnd + 1)] : ws.slice(0, split)).filter((w) => !postfix.includes(w));
  let rest = bracketEnd > 0 ? ws.slice(split, bracketEnd) : ws.slice(split);
  // A leading exception ("Except for VIPs, block …", "Unless the customer is gold, …") ends at its comma.
  if (split < ws.length && ws.slice(0, split).every((w) => w.used || w.t.kind === "punct")) {
    const comma = ws.findIndex((w, k) => k > split && w.t.kind === "punct" && w.t.text === ",");
    if (comma > split + 1) {
      main = [...ws.slice(0, split), ...ws.slice(comma + 1)];
      rest = ws.slice(split, comma);
      ws[comma]!.used = true;
    }
  }
  if (rest.length > 0) {
    rest[0]!.used = true;
    if (wordIs(rest[0], "other", "apart", "but")) rest[1]!.used = true;
    rest = rest.filter((w) => !w.used);
    if (wordIs(rest[0], "for", "when", "if", "where", "in", "on")) {
      // keep: "except in the cold store" reads "in …" as an equality; "except when" drops "when".
      if (wordIs(rest[0], "when", "if", "where", "for") && !wordIs(rest[0], "for")) rest[0]!.used = true;
    }
  }

  // The action: words before the first condition marker that starts a condition, plus a subject before a
  // written-after effect ("Robots must not enter…", "Credit notes must not be reissued…").
  // The action's own nouns (the words before any marker), so "refunds larger than $750" knows that
  // "refunds" names the action, not the argument compared.
  const remaining = main.filter((w) => !w.used);
  const firstMarker = remaining.findIndex((w, i) => (i > 0 || wordIs(w, "when", "whenever", "if", "where", "while")) && (CONDITION_MARKERS.has(w.norm) || wordIs(w, "when", "whenever", "if", "where", "while") || isValue(w.t) || comparatorAt(remaining, i) !== undefined || clockComparisonAt(remaining, i) !== undefined));
  const head = firstMarker < 0 ? remaining : remaining.slice(0, firstMarker);
  const provisional = readAction(head.filter((w) => w.pos === "NOUN" || w.pos === "VERB" || w.pos === "PROPN"));
  const actionNouns = provisional.terms.flatMap((t) => [...t.verbs, ...t.objects]);
  const reader = new ConditionReader(ws, actionNouns);

  // Conditions start at the first unused word that begins one, after at least one action word.
  const actionWords: W[] = [];
  // Who acts, when the subject names a particular kind of person: the rest of the subject is conditions
  // about them, read with their noun ("operators below grade 3" → the operator's grade).
  const conditionWords: W[] = actor ? actor.about : [];
  let inConditions = false;
  // Whether the last words taken into the action from among the conditions are a passive verb's list.
  let passiveList = false;
  // Whether the words taken are an active verb after the effect and its object.
  let activeObject = false;
  for (let i = 0; i < main.length; i++) {
    const w = main[i]!;
    if (actor?.about.includes(w)) continue;
    if (w.used) {
      // An effect cue in the middle ("Robots must not enter …"): words after it keep their role.
      continue;
    }
    if (!inConditions && actionWords.some((a) => a.t.kind === "word" && a.pos !== "DET") && startsCondition(main, i, reader)) inConditions = true;
    if (!inConditions && actionWords.length === 0 && comparatorAt(main, i) !== undefined) inConditions = true;
    // "Require approval when …", "Escalate whenever …": conditions with no action before them.
    if (!inConditions && !actionWords.some((a) => a.t.kind === "word" && a.pos !== "DET") && wordIs(w, "when", "whenever", "if", "where", "while", "once")) inConditions = true;
    // "form 1099 returns": a bare number right after a noun of the action names which one (a value would
    // have a comparator, a unit or a currency).
    const numbering = w.t.kind === "number" && /^\d+$/.test(w.t.text) && main[i - 1] !== undefined && main[i - 1] === actionWords.at(-1) && ["NOUN", "PROPN"].includes(main[i - 1]!.pos) && !perWindowAfter(main, i);
    // ("UN class 1, 2.1 or 7": the numbers after it, in a list, name which ones too.)
    const last = actionWords.at(-1);
    const listedNumber = w.t.kind === "number" && last !== undefined && main[i - 1] === last && ((last.t.kind === "punct" && last.t.text === ",") || wordIs(last, "or", "and")) && actionWords.some((a, k) => a.t.kind === "number" && ["NOUN", "PROPN"].includes(actionWords[k - 1]?.pos ?? ""));
    if (!inConditions && w.t.kind !== "word" && w.t.kind !== "punct" && w.t.kind !== "quoted" && actionWords.length > 0 && !numbering && !listedNumber) inConditions = true;
    // "Crates over 40 kg must not be lifted": the subject's conditions come before the effect, and
    // the participle right after it ("be lifted") is the action's verb, not a word of a condition; so is
    // each participle of a list after it ("… may not be tapped or sold").
    const names = actionWords.some((a) => ["NOUN", "PROPN"].includes(a.pos));
    const passiveVerb: boolean = inConditions && w.pos === "VERB" && isPastParticiple(w) && (passiveList || (w.passive === true && names && afterEffectBe(main, i)));
    const joinsVerbs: boolean = inConditions && passiveList && wordIs(w, "or", "and") && main[i + 1]?.pos === "VERB" && isPastParticiple(main[i + 1]!);
    passiveList = passiveVerb || joinsVerbs;
    // "Orders not paid must not ship", "Drones not registered may not fly over the park": after the subject's
    // conditions, a verb of an operation right after the effect is the action's (as a passive participle
    // is), and so is its object, up to a condition of its own. (A verb of no operation, "go", "leave",
    // "exceed", would only narrow the action to tools named by it: the subject names the action then.)
    const effectBefore = main[i - 1]?.used === true && (MODALS.has(main[i - 1]!.norm) || wordIs(main[i - 1], "not", "never", "n't"));
    if (inConditions && !passiveList && names && w.pos === "VERB" && !isPastParticiple(w) && effectBefore && verbClassOf(w.norm) !== undefined && !startsCondition(main, i, reader)) activeObject = true;
    else if (activeObject && !(["NOUN", "PROPN", "ADJ", "DET"].includes(w.pos) && !startsCondition(main, i, reader))) activeObject = false;
    if (activeObject) {
      actionWords.push(w);
      continue;
    }
    // "No kayak may be hired …": a modal and its "be" in the subject's sentence only carry the verb.
    if (!inConditions && w.pos === "AUX" && (MODALS.has(w.norm) || wordIs(w, "be")) && names) {
      w.used = true;
      continue;
    }
    (inConditions && !passiveList ? conditionWords : actionWords).push(w);
  }
  // "coach tours going over 80 km", "concerts expecting over 3,000 people": a participle after the
  // action's noun, right before its conditions, is the verb of a clause about the thing, not its operation
  // (an operation's verb stays: "users deleting more than 5 files", unless a measure follows: "going 80 km").
  const participle = actionWords.at(-1);
  const measured = conditionWords.find((w) => w.t.kind !== "word")?.t.kind === "quantity";
  // ("slurry spreading when the wind…": a clause of its own follows; the participle is the doing.)
  const ownClause = conditionWords[0]?.pos === "SCONJ" || wordIs(conditionWords[0], "when", "whenever", "if", "while", "where", "unless", "except", "once", "during", "outside", "on", "at", "in", "within", "between", "before", "after");
  if (conditionWords.length > 0 && !ownClause && participle?.t.kind === "word" && participle.pos === "VERB" && participle.norm.endsWith("ing") && !PLANNED.has(participle.norm) && (!verbClassOf(participle.norm) || measured) && actionWords.slice(0, -1).some((w) => w.t.kind === "word" && (w.pos === "NOUN" || w.pos === "PROPN"))) {
    actionWords.pop();
    participle.used = true;
  }
  // "text pupils under 12": a bound with a bare number right after the people the action is done to
  // is their age; the conditions read it with them (and the action keeps them).
  const people = actionWords.at(-1);
  // (A count after the number is not an age: "over 4 times a day", "above 3 messages".)
  const boundAt = conditionWords.slice(1, 4).findIndex((w) => w.t.kind === "number") + 1;
  const afterBound = conditionWords[boundAt + 1];
  const ageLike = boundAt > 0 && (afterBound === undefined || afterBound.t.kind === "punct" || wordIs(afterBound, "years", "yrs", "when", "while", "between", "during", "on", "at", "in", "and", "or", "unless", "if", "before", "after", "outside", "from"));
  if (people?.t.kind === "word" && namesPeople(people.norm) && comparatorAt(conditionWords, 0) !== undefined && ageLike) conditionWords.unshift({ ...people, used: false });
  // A leading condition: "If the amount is over $500, require approval for refunds" / "When X, block Y",
  // or one a reader understands up to its comma, before the effect ("On Fridays, …", "Outside business
  // hours, …", "In production, …").
  const leadComma = main.findIndex((w) => w.t.kind === "punct" && w.t.text === ",");
  // An imperative right after the comma ("For gold customers, block …") makes what precedes it a lead too:
  // its words are conditions, and the action is what the imperative governs.
  // (A condition read on past the comma holds it: "Parcels containing lithium, lead or mercury must never …" is
  // one list, no lead.)
  const leadRead = leadComma > 0 ? ((reader as unknown as { readOne(ws: W[], i: number, s: W[], probe: boolean): { next: number } | undefined }).readOne(main, 0, [], true)?.next ?? 0) : 0;
  // (", or over €2,000 in value": a comma before "or"/"and" continues the conditions; no lead ends there.)
  const readLead =
    leadComma > 0 &&
    !wordIs(main[leadComma + 1], "or", "and") &&
    main.slice(0, leadComma).every((w) => !w.used) &&
    main.slice(leadComma + 1).some((w) => w.used) &&
    (main[leadComma + 1]?.used === true || (leadRead >= leadComma && leadRead <= leadComma + 1));
  if (wordIs(main[0], "if", "when", "whenever", "where", "while") || readLead) {
    // The lead ends at the comma closest before the effect ("When the vendor is not one of A, B, C, prevent …").
    let comma = -1;
    for (let k = 0; k < Math.min(main.length, cue.at); k++) if (main[k]!.t.kind === "punct" && main[k]!.t.text === ",") comma = k;
    if (comma < 0) comma = main.findIndex((w) => w.t.kind === "punct" && w.t.text === ",");
    if (comma > 0) {
      const lead = main.slice(readLead ? 0 : 1, comma).filter((w) => !w.used);
      const after = main.slice(comma + 1).filter((w) => !w.used);
      const actionAfter: W[] = [];
      const condAfter: W[] = [];
      let inC = false;
      for (let i = 0; i < after.length; i++) {
        if (!inC && actionAfter.length > 0 && startsCondition(after, i, reader)) inC = true;
        (inC ? condAfter : actionAfter).push(after[i]!);
      }
      actionWords.length = 0;
      actionWords.push(...actionAfter);
      conditionWords.length = 0;
      // The comma stays between the lead and what follows the action: two phrases, not one.
      conditionWords.push(...lead, main[comma]!, ...condAfter);
    }
  }
  // No action before the conditions: a passive in them names it ("when a payroll file is opened by …").
  if (!actionWords.some((a) => a.t.kind === "word" && a.pos !== "DET")) {
    const passive = conditionWords.findIndex((w, i) => wordIs(w, "is", "are", "was", "were", "gets", "get", "being") && conditionWords[i + 1]?.pos === "VERB" && conditionWords[i + 1]!.norm.endsWith("ed"));
    if (passive > 0) {
      let start = passive - 1;
      while (start > 0 && conditionWords[start - 1]!.t.kind === "word" && !CONDITION_MARKERS.has(conditionWords[start - 1]!.norm)) start--;
      const moved = [...conditionWords.slice(start, passive), conditionWords[passive + 1]!];
      conditionWords.splice(start, passive + 2 - start);
      actionWords.push(...moved);
    }
  }
  // "Nothing over 20 kg ships by air": the verb of a negated subject is the action, past the conditions.
  const subjectVerb = cue.verb === undefined ? -1 : conditionWords.indexOf(ws[cue.verb]!);
  if (subjectVerb >= 0 && !actionWords.some((a) => a.t.kind === "word" && a.pos !== "DET")) actionWords.push(...conditionWords.splice(subjectVerb, 1));
  // "Whenever a transfer goes to X, block it", "If any restore would overwrite Y, escalate": the lead's
  // subject, an instance of a kind (a, an, any), is the action, and the rest of the lead its conditions. A
  // definite subject ("if the amount exceeds …") is an attribute of the action, not the action.
  if (!actionWords.some((a) => a.t.kind === "word" && a.pos !== "DET" && a.pos !== "PRON")) {
    const subject = leadSubject(conditionWords);
    if (subject) {
      actionWords.length = 0;
      actionWords.push(...conditionWords.splice(subject.start, subject.end - subject.start).filter((w) => !wordIs(w, "a", "an", "any", "every", "each")));
      if (subject.having) conditionWords.splice(subject.start, wordIs(conditionWords[subject.start + 1], "a", "an", "any", "the") ? 2 : 1);
    }
  }
  // Adverbs of manner name a value of the action ("shares files publicly" → public).
  // An environment named as a modifier of the action ("prod deployments", "production database drops").
  const environments = actionWords.filter((w) => w.t.kind === "word" && ENVIRONMENTS.has(w.norm) && actionWords.some((x) => x !== w && x.t.kind === "word" && !ENVIRONMENTS.has(x.norm)));
  for (const w of environments) actionWords.splice(actionWords.indexOf(w), 1);
  // ("classified as heavily contaminated", "is severely damaged": after "as" or a copula, before the word it
  // grades, an adverb is part of the state, not a manner of the action.)
  const grades = (w: W, words: W[]) => {
    const at = words.indexOf(w);
    return wordIs(words[at - 1], "as", "is", "are", "was", "were", "be", "been") && ["ADJ", "VERB"].includes(words[at + 1]?.pos ?? "");
  };
  const isManner = (w: W) => w.pos === "ADV" && w.norm.endsWith("ly") && !w.norm.endsWith("only") && w.norm.length > 5 && !MANNER_EXCLUDED.has(w.norm) && !grades(w, conditionWords);
  const adverbs = [...actionWords.filter(isManner), ...conditionWords.filter(isManner)];
  const manner: Condition[] = adverbs.map((w) => ({ kind: "equals", subject: { text: "", words: [] }, values: [w.norm.endsWith("ically") ? w.norm.slice(0, -4) : w.norm.slice(0, -2)], negate: false }));
  for (const w of adverbs) (actionWords.includes(w) ? actionWords : conditionWords).splice((actionWords.includes(w) ? actionWords : conditionWords).indexOf(w), 1);
  // "Refunds over $800 may only be issued on weekdays": with a subject before "may only", the
  // conditions written in the subject say which actions the rule is about (its scope); only those after the
  // cue are the gate outside which they are governed.
  const subjectEnd = cue.effect === "only_allow" && !wordIs(ws[0], "only") ? Math.min(...cue.span) : -1;
  const inSubject = subjectEnd > 0 ? conditionWords.filter((w) => ws.indexOf(w) < subjectEnd) : [];
  const subjectRead = inSubject.length > 0 && inSubject.length < conditionWords.length && inSubject.some((w) => w.t.kind === "word") ? reader.read(inSubject) : undefined;
  const read = subjectRead && subjectRead.conditions.length > 0 && subjectRead.loose.length === 0 ? reader.read(conditionWords.filter((w) => !inSubject.includes(w))) : reader.read(conditionWords);
  const subjectScope = subjectRead && subjectRead.conditions.length > 0 && subjectRead.loose.length === 0 ? subjectRead.conditions : [];
  // "disconnections scheduled for a Saturday", "visits planned on Sundays": a day after a participle of
  // planning is the day of the action's own time argument, not the day it is asked.
  const planned = actionWords.at(-1);
  if (planned && planned.t.kind === "word" && PLANNED.has(planned.norm)) {
    // Days read in any grouping ("on a Sunday or a Saturday" is an "or" of two).
    const days: Condition[] = [];
    const collect = (c: Condition) => (c.kind === "weekday" || c.kind === "dates" ? days.push(c) : c.kind === "or" || c.kind === "and" ? c.of.forEach(collect) : undefined);
    read.conditions.forEach(collect);
    for (const c of days) if ((c.kind === "weekday" || c.kind === "dates") && !c.subject) c.subject = { text: planned.norm, words: [], implied: "time" };
    // "windows starting on a Sunday": the participle says when, it is not the action's operation.
    if (planned.norm.endsWith("ing") && actionWords.length > 1 && days.length > 0) actionWords.pop();
  }
  // "Never schedule a recital outside 10:00-16:00", "never book deep cleans on weekends": what is planned
  // has its own time and day, which the window and the days are about (the time the action runs, when the
  // tool has none).
  if (actionWords.some((w) => w.pos === "VERB" && PLANNING_VERBS.has(w.lemma))) read.conditions = read.conditions.map(atOwnTime);
  const spareNouns = read.spare;
  // Conditions written with the action ("production deployments", "shares files publicly") scope it; the
  // others are its conditions (for "only allow X when C", the gate).
  const scope: Condition[] = [...manner, ...environments.map((w): Condition => ({ kind: "equals", subject: { text: "", words: [] }, values: [w.norm], negate: false })), ...subjectScope];
  // "Studio B sessions", "zone C deliveries": a noun and a value letter among the action's words name one
  // value of an argument ("studio b" for `room: studio_b`, "C" for `zone: C`); the noun stays with the action.
  const lettered: Condition[] = [];
  for (let k = actionWords.length - 1; k >= 1; k--) {
    const letter = actionWords[k]!;
    const noun = actionWords[k - 1]!;
    if (!isValueLetter(letter) || noun.pos !== "NOUN") continue;
    lettered.push({ kind: "equals", subject: subjectOf([noun]), values: [`${noun.norm} ${letter.norm}`], negate: false });
    actionWords.splice(k, 1);
  }
  const conditions = [...read.conditions, ...excluded, ...bracketed, ...scope, ...(actor?.conditions ?? []), ...actorKinds, ...lettered];
  spreadZone(conditions);
  // "Never text the same patient more than 3 times a day", "send over 5 invoices to any one customer a
  // week": a party the action is done to, said as one and the same, is the party the count is kept for.
  // "shipments of the quarantined batches LOT-4410, LOT-4452 or LOT-4490": references after the noun they
  // name are values of it, not other actions.
  const referenced = referencesInAction(actionWords);
  if (referenced) conditions.push(referenced);
  const rateAt = conditions.findIndex((c) => c.kind === "rate" && !c.per);
  const party = rateAt >= 0 ? readParty(actionWords, 0, true, true) : undefined;
  if (party) {
    conditions[rateAt] = { ...(conditions[rateAt] as Extract<Condition, { kind: "rate" }>), per: party.subject };
    actionWords.splice(party.from, party.next - party.from);
  }
  const loose = read.loose;
  rest = [...rest, ...postfix];
  const exception = rest.length > 0 ? reader.read(rest.filter((w) => !w.used)) : { conditions: [], loose: [], spare: new Set<W>() };
  let unlessConditions = exception.conditions;
  // "(staging excepted)", "except prod": environment names alone are values, as in the action's words.
  const exceptedEnvironments = exception.loose.filter((w) => ENVIRONMENTS.has(w.norm));
  if (exceptedEnvironments.length > 0 && exception.loose.every((w) => exceptedEnvironments.includes(w) || w.t.kind !== "word" || DETERMINERS.has(w.norm) || wordIs(w, "or", "and"))) {
    unlessConditions = [...unlessConditions, { kind: "equals", subject: { text: "", words: [] }, values: exceptedEnvironments.map((w) => w.norm), negate: false }];
    exception.loose = [];
  }
  let unlessAction: ActionTerm[] = [];
  if (exception.loose.length > 0) {
    const asAction = readAction(exception.loose);
    // "Do not schedule elective repairs …, except urgent and emergency repairs": the exception names the same
    // thing as the action with other modifiers; those are values of it ("urgent", "emergency"), not another
    // action (which, being this very tool, would exempt everything).
    const heads = new Set(provisional.terms.map((t) => t.objects.at(-1)).filter((h): h is string => h !== undefined));
    const sameThing = asAction.terms.length > 0 && asAction.terms.every((t) => t.verbs.length === 0 && t.objects.length > 1 && heads.has(t.objects.at(-1)!));
    if (sameThing) {
      const values = [...new Set(asAction.terms.flatMap((t) => t.objects.slice(0, -1)))];
      unlessConditions = [...unlessConditions, { kind: "equals", subject: { text: "", words: [] }, values, negate: false }];
      exception.loose = [];
    } else if (asAction.terms.length > 0 && exception.conditions.length === 0) unlessAction = asAction.terms;
  }
  // Loose condition words go back to the action as its description ("to third parties", "to social media").
  // Words no reader placed are not added to the action (they could only narrow it and let an action slip
  // past): they are reported back as not understood.
  // A negation no reader placed would be dropped, and the rule would say its opposite ("refunds that are not
  // approved" read as approved refunds): refused rather than guessed.
  const dropped = [...actionWords, ...loose, ...exception.loose].find((w) => w.t.kind === "word" && NEGATORS.has(w.norm));
  if (dropped) {
    return {
      message: `has a negation ("${dropped.t.text}") it could not place: without it the rule would mean the opposite.`,
      unplaced: [dropped.norm],
      position: Math.max(0, ws.indexOf(dropped)),
      suggestion: 'Say it as a condition or an exception, e.g. "Block payouts unless the invoice is approved" or "Block payouts when the status is not approved"',
    };
  }
  // "If they are done in the payroll domain, calls need …": a domain read among the conditions (where a leading
  // condition is read before the scope) is the rule's scope all the same.
  const domainAt = domain === null ? conditions.findIndex((c) => c.kind === "equals" && !c.negate && c.subject.words.length === 0 && c.values.length === 1 && /^[a-z][\w-]* domain$/.test(c.values[0]!)) : -1;
  if (domainAt >= 0) domain = (conditions.splice(domainAt, 1)[0] as { values: string[] }).values[0]!.replace(/ domain$/, "");
  // "Urgent transfer of spare kits to any depot other than …": the thing after "of" that follows the
  // action's words names what is done, even when a condition after it left it unplaced.
  const lastAction = actionWords.filter((w) => w.t.kind === "word").at(-1);
  const ofAt = lastAction ? ws.indexOf(lastAction) + 1 : -1;
  if (ofAt > 0 && wordIs(ws[ofAt], "of") && !actionWords.includes(ws[ofAt + 1]!)) {
    for (let k = ofAt + 1; k < ws.length && loose.includes(ws[k]!) && ["NOUN", "PROPN", "ADJ"].includes(ws[k]!.pos); k++) spareNouns.add(ws[k]!);
  }
  const action = readAction([...actionWords, ...loose.filter((w) => spareNouns.has(w))]);
  if (unlessAction.length > 0) unlessConditions = [...unlessConditions, { kind: "action", terms: unlessAction }];
  const reading: Reading = {
    effect: cue.effect,
    ...(onlyAt >= 0 ? { outsideOnly: true } : {}),
    domain,
    terms: action.terms,
    any: action.any || (action.terms.length === 0 && (conditions.length > 0 || domain !== null)),
    when: conditions,
    unless: unlessConditions,
    // Only content words a reader could not place: the rate's counted noun joined the action, the
    // exception's tool became its action.
    loose: [...loose.filter((w) => !spareNouns.has(w)), ...(unlessAction.length > 0 ? [] : exception.loose)].filter((w) => w.t.kind === "word" && ["NOUN", "PROPN", "ADJ", "VERB", "X", "NUM"].includes(w.pos) && !DETERMINERS.has(w.norm)).map((w) => w.norm),
    scope,
  };
  if (!reading.any && reading.terms.length === 0) {
    return {
      message: "expected the actions the rule is about (e.g. \"refunds\", \"deleting files\", \"any action\").",
      unplaced: [],
      position: 0,
      suggestion: `e.g. "${cue.effect === "require_approval" ? "Require approval for" : "Block"} refunds over $500"`,
    };
  }
  return reading;
}

function startsCondition(ws: W[], i: number, reader: ConditionReader): boolean {
  const w = ws[i]!;
  if (w.t.kind === "word" && ["when", "whenever", "if", "where", "while", "whose", "unless", "once", "during", "outside", "between", "per", "than", "costing", "worth", "valued", "priced", "weighing", "lasting", "marked", "flagged", "tagged", "containing", "mentioning", "exceeding", "involving", "spanning", "covering", "affecting"].includes(w.norm)) return true;
  if (comparatorAt(ws, i) || clockComparisonAt(ws, i) || negatedParticipleAt(ws, i)) return true;
  // After words that only say "an action" ("calls to delete_user", "use of the export tool", "any action
  // that archives projects"), what follows names the action.
  const before = ws.slice(0, i).filter((x) => x.t.kind === "word" && !x.used && !DETERMINERS.has(x.norm));
  const onlyGeneric = before.length > 0 && before.every((x) => WILDCARD_NOUNS.has(x.lemma) || WILDCARD_NOUNS.has(x.norm) || x.norm === "api" || x.norm === "use");
  // ("any action on weekends": a day after "on" is when, not what.)
  const dayAfter = wordIs(w, "on") && (isDayWord(ws[i + 1]) || (wordIs(ws[i + 1], "a", "the", "any") && isDayWord(ws[i + 2])));
  // ("Requests for extra cover …", "requests for refunds over $50": what is asked for is the action.)
  const askedFor = wordIs(w, "for") && wordIs(before.at(-1), "request", "requests") && ws[i + 1]?.t.kind === "word";
  if (onlyGeneric && (wordIs(w, "to", "of", "on") || askedFor) && !dayAfter) return false;
  if (onlyGeneric && wordIs(w, "that", "which", "who")) {
    let j = i + 1;
    while (wordIs(ws[j], "would", "will", "could", "can", "may", "might", "also")) j++;
    // After a modal the next word is a verb whatever its tag ("that would issue refunds").
    if ((ws[j]?.pos === "VERB" || verbClassOf(ws[j]?.norm ?? "") !== undefined || (j > i + 1 && ws[j]?.t.kind === "word")) && !wordIs(ws[j], "is", "are", "be", "has", "have")) return false;
  }
  // "security groups that allow 172.16.0.0/12", "reports that include salary data": after a thing (not
  // "action" or "call"), a relative clause with its own verb describes the thing, not the operation: what
  // it names are conditions (the verb itself, if no reader places it, is an unread word).
  if (!onlyGeneric && before.length > 0 && !before.some((x) => /^(?:every|any|some|no)(?:thing|one|body)$|^(?:all|it|them|this|these|those)$/.test(x.norm)) && wordIs(w, "that", "which")) {
    const j = relativeVerbAt(ws, i);
    if (j !== undefined && ws.slice(j + 1).some((x) => isValue(x.t) || x.t.kind === "word")) return true;
  }
  // "refunds to any customer": every one of them, which the condition reader sets aside.
  if (wordIs(w, "to", "for", "from", "with") && wordIs(ws[i + 1], "any", "every", "all") && ws[i + 2]?.pos === "NOUN" && ws[i + 3]?.pos !== "NOUN" && !WILDCARD_NOUNS.has(ws[i + 2]!.lemma)) return true;
  if (wordIs(w, "with", "without", "having", "in", "on", "to", "for", "at", "that", "which", "who", "of", "after", "before", "from", "by", "within", "into", "via", "through")) {
    // Only when a reader understands what follows: "with a salary above…", "in production", "to #general".
    const probe = reader as unknown as { readOne(ws: W[], i: number, s: W[], probe: boolean): unknown };
    return probe.readOne(ws, i, [], true) !== undefined || probe.readOne(ws, i + 1, [], true) !== undefined;
  }
  return false;
}

// A day's name, for the ranges below (made once from the day words the day reader knows).
const DAY_NAME = String.raw`(?:${Object.keys(DAYS).sort((a, b) => b.length - a.length).join("|")})`;
// (Days after a comma or a bracket are left as written: "business hours (9am-5pm, Mon-Fri)" defines them.)
const DAY_SPAN = new RegExp(String.raw`(\b(?:on|every|each|until|till|by|before|after|and|or|through|thru|to)\s+|[(,]\s*)?\b(?:from\s+)?(${DAY_NAME})\s*(?:[-–]|\s(?:to|through|thru|until|till)\s)\s*(${DAY_NAME})\b`, "gi");

/**
 * "scheduled Monday to Saturday", "from Monday through Friday", "Mon-Sat": a range of days said without
 * "on" is the days it spans, as "on Monday to Saturday" says them (a day right after a participle or noun
 * would otherwise be read as a word of the action).
 */
function dayRangesOn(text: string): string {
  return text.replace(DAY_SPAN, (m, lead: string | undefined, from: string, to: string) => (lead ? m : `on ${from} to ${to}`));
}

/** The days of a range written as one word: "mon-sat", "monday-friday" (Monday to Saturday, wrapping past Sunday). */
function dayRangeOf(w: W | undefined): number[] | undefined {
  const m = w?.t.kind === "word" ? /^([a-z]+)[-–]([a-z]+)$/.exec(w.norm) : null;
  const from = m ? DAYS[m[1]!] : undefined;
  const to = m ? DAYS[m[2]!] : undefined;
  if (from === undefined || to === undefined) return undefined;
  const days = [from];
  for (let d = from; d !== to; ) days.push((d = (d + 1) % 7));
  return days;
}

/** Whether the words of a thing end after the value at `at` (or the list it starts): the verb, a condition, a clause's end. */
function endsThingAfterValues(ws: W[], at: number): boolean {
  let k = at;
  while ((wordIs(ws[k + 1], "or", "and") || (ws[k + 1]?.t.kind === "punct" && ws[k + 1]!.t.text === ",")) && ws[k + 2] !== undefined && valueText(ws[k + 2]!) !== undefined) k += 2;
  const next = ws[k + 1];
  return next === undefined || next.t.kind === "punct" || next.pos === "AUX" || next.pos === "VERB" || (next.t.kind === "word" && CONDITION_MARKERS.has(next.norm) && !wordIs(next, "as"));
}

/** One sentence → one rule. Only-allow becomes a block of the action outside its conditions. */
/**
 * "Any crate over 40 kg needs approval before it is loaded onto a truck", "Quotes over €1k
 * must be checked before they are e-mailed": the thing is named first and what is done to it, in the
 * passive, after "before" (or "when"). That doing is the action; it is no yes/no fact of the thing (which
 * no tool carries, so the rule never fired). The verb becomes the terms' verb (a noun read as one, "plans",
 * goes back among the objects) and the object after it ("a berth") one of their objects.
 */
function doneBeforeApproval(reading: Reading, text: string): void {
  if (reading.any || reading.terms.length === 0) return;
  const flags = reading.when.filter((c): c is Extract<Condition, { kind: "flag" }> => c.kind === "flag" && c.expect);
  for (const flag of flags) {
    const written = flag.subject.text.split(" ");
    const participle = written.at(-1)!;
    if (written.length > 2 || (written.length === 2 && !["before", "when", "whenever"].includes(written[0]!))) continue;
    const m = new RegExp(`\\b(?:before|prior\\s+to|when|whenever)\\s+(?:it|they|this|these|each|one)\\s+(?:is|are|gets?|has\\s+been|have\\s+been|will\\s+be|can\\s+be|may\\s+be)\\s+${participle}\\b(?:\\s+(?:out|up|off|back|over))?(?:\\s+(?:a|an|the|its|their|any))?(?:\\s+([a-z]+))?`, "i").exec(text);
    if (!m) continue;
    const verb = flag.subject.words.at(-1)!;
    const object = m[1] && reading.loose.includes(m[1].toLowerCase()) ? m[1].toLowerCase() : undefined;
    reading.terms = reading.terms.map((t) => ({
      text: `${participle} ${t.text}${object ? ` ${object}` : ""}`,
      verbs: [verb],
      objects: [...t.verbs, ...t.objects, ...(object ? [object] : [])],
    }));
    reading.when = reading.when.filter((c) => c !== flag);
    if (object) reading.loose = reading.loose.filter((w) => w !== object);
    return;
  }
}

/**
 * "Don't raise the rent of any flat by more than 8%", "never lower a fare by over 8 percent": after a
 * verb of change, "by" and a comparison say the size of the change, whatever noun came before "by".
 */
function changedBy(c: Condition, terms: ActionTerm[], text: string): Condition {
  if (c.kind !== "compare" || c.subject.magnitude || c.subject.count) return c;
  const verbs = terms.flatMap((t) => [...t.verbs, ...t.text.toLowerCase().split(/\s+/)]);
  const way = verbs.map(changeWay).find((w) => w !== undefined);
  if (!way && !verbs.some((v) => /^(?:change|adjust|move|shift|alter)/.test(v))) return c;
  const amount = escapeRegExp(c.value.text);
  if (!new RegExp(`\\bby\\s+(?:more\\s+than|over|above|in\\s+excess\\s+of|at\\s+least|upwards\\s+of|no\\s+more\\s+than|less\\s+than|under|up\\s+to)\\s+${amount}`, "i").test(text)) return c;
  return { ...c, subject: { text: "", words: [], implied: c.value.percent ? "percent" : "amount", magnitude: true, ...(way ? { direction: way } : {}) } };
}

// Two-letter English words that are also country codes (Italy, Montenegro, Belarus, Norway …).
const TWO_LETTER_WORDS = new Set(["it", "me", "us", "we", "he", "to", "in", "on", "at", "by", "or", "no", "so", "do", "go", "be", "is", "am", "as", "an", "my", "of", "if", "up"]);

/**
 * A list of countries by name ("Laos, North Macedonia or Myanmar", "the Netherlands") or by code in
 * capitals ("LA, MK or MM"), the longest name first; undefined unless the first item is one.
 */
function readCountries(ws: W[], at: number): { names: string[]; next: number } | undefined {
  const names: string[] = [];
  let k = at;
  for (;;) {
    if (wordIs(ws[k], "the")) k++;
    let taken = 0;
    for (let n = 3; n >= 1 && taken === 0; n--) {
      const words = ws.slice(k, k + n);
      if (words.length < n || words.some((w) => w.t.kind !== "word" || w.used)) continue;
      const text = words.map((w) => w.norm).join(" ");
      // A two-letter word is a code only in a list of countries ("LA, BY or MM"; alone, "in" is no India).
      const code = countryCode(text);
      if (code) {
        names.push(text);
        taken = n;
      }
    }
    if (taken === 0) break;
    k += taken;
    const separator = ws[k]?.t.kind === "punct" && ws[k]!.t.text === "," ? (wordIs(ws[k + 1], "or", "and") ? 2 : 1) : wordIs(ws[k], "or", "and") ? 1 : 0;
    if (separator === 0) break;
    // ("… to Iran, or if …": a separator before no country ends the list before it.)
    const after = wordIs(ws[k + separator], "the") ? ws[k + separator + 1] : ws[k + separator];
    if (!after || after.t.kind !== "word") break;
    k += separator;
  }
  // (Two-letter words that are all English words, "to it or me", are no list of codes. One code alone is a
  // country after "the" and before no noun: "outside the US" (no pronoun follows an article), not "the IT
  // team".)
  const first = wordIs(ws[at], "the") ? at + 1 : at;
  const loneCode = names.length === 1 && names[0]!.length === 2 && wordIs(ws[first - 1], "the") && !["NOUN", "PROPN"].includes(ws[first + 1]?.pos ?? "");
  if (names.length === 0 || (names.length === 1 && names[0]!.length === 2 && !loneCode) || (!loneCode && names.every((name) => TWO_LETTER_WORDS.has(name)))) return undefined;
  // A separator read before a word that was no country belongs to what follows.
  while (k > at && ((ws[k - 1]?.t.kind === "punct" && ws[k - 1]!.t.text === ",") || wordIs(ws[k - 1], "or", "and", "the"))) k--;
  return { names, next: k };
}

// Which way a word of change goes: "increase", "raise", "hike" up; "decrease", "cut", "lower" down; a
// "change" or an "adjustment" either way (undefined).
function changeWay(word: string): "up" | "down" | undefined {
  const lemma = word.toLowerCase().replace(/(?:es|s)$/, "");
  if (/^(?:increase|raise|rise|hike|markup|mark-up|uplift|bump)$/.test(lemma)) return "up";
  if (/^(?:decrease|cut|lower|low|reduce|reduction|drop|markdown|mark-down|slash)$/.test(lemma)) return "down";
  return undefined;
}

/**
 * "Firings that start between 07:00 and 19:00 Paris time on a weekday": the day is the day of the
 * same start, not the day the rule is checked. A day of the week said beside a time of the action's own
 * (and none of its own) is read of that time.
 */
function dayOfOwnTime(conditions: Condition[]): Condition[] {
  // "planned for Saturday or Sunday": days listed after one of the action's own say its day too.
  const shared = conditions.map((c) => {
    if (c.kind !== "or") return c;
    const dated = c.of.find((d): d is Extract<Condition, { kind: "weekday" }> => d.kind === "weekday" && d.subject !== undefined);
    if (!dated || !c.of.every((d) => d.kind === "weekday")) return c;
    return { ...c, of: c.of.map((d) => (d.kind === "weekday" && !d.subject && (d.tz || "UTC") === (dated.tz || "UTC") ? { ...d, subject: dated.subject } : d)) };
  });
  const own = shared.find((c): c is Extract<Condition, { kind: "time" }> => c.kind === "time" && c.subject !== undefined && !c.subject.orNow);
  if (!own) return shared;
  return shared.map((c) => (c.kind === "weekday" && !c.subject && (c.tz || "UTC") === (own.tz || "UTC") ? { ...c, subject: own.subject } : c));
}

export function parseRule(sentence: string): ParseResult {
  const text = sentence.trim().replace(/[.!;]+$/, "");
  if (text === "") return fail("the rule is empty.", [], 0, 'e.g. "Block refunds over $500"');
  // A condition or exception word with nothing after it: the author stopped mid-sentence.
  // ("… 500 W and above", "… 2 GB or over" end with the value's own bound: complete; "… or M&A" ends with a name.)
  const last = /(?<!\b(?:and|or)\s+|&)\b(when|whenever|if|unless|except|where|while|with|over|above|under|below|between|and|or|than|for|to|on|in|the|a|an|of)$/i.exec(text);
  // (A capital "A" after a noun is a value: "… in zone A". "On" after a copula is a state: "… while the pumps are on".)
  // ("the hives are in": "in" after a copula is a state too.)
  // ("… before the claim goes in", "… once the driver checks in": a verb's particle, no dangling preposition.)
  if (last && !(last[1] === "A" && /\b[a-z]+\s+A$/.test(text)) && !(/^(?:on|in)$/i.test(last[1]!) && /\b(?:is|are|was|were|still|left)\s+(?:on|in)$/i.test(text)) && !(/^(?:on|in)$/i.test(last[1]!) && /\b(?:goes|go|gone|went|comes?|came|gets?|got|checks?|checked|logs?|logged|signs?|signed|clocks?|clocked|moves?|moved|hands?|handed|sends?|sent|plugs?|plugged)\s+(?:on|in)$/i.test(text))) return fail(`ends with "${last[1]}": the rule stops before saying what follows it.`, [last[1]!.toLowerCase()], text.split(/\s+/).length - 1, 'Finish the condition, e.g. "Block refunds over $500"');
  if (text.length > MAX_RULE_LENGTH) return fail(`is longer than ${MAX_RULE_LENGTH} characters.`, [], 0, "Split it into several rules.");
  // "inside the warehouse", "inside of zone B": the place a value names, as "in" says it.
  // "more then 20", a common slip: a comparative is followed by "than".
  const reading = readClause(
    limitOnThingsDone(onlyKindsMayBe(onlyByWho(onlyThingsMayBe(onlyWhoMayBe(onlyWhoMay(onlyHoldersMay(withoutRestatedAside(restrictionOfPermission(limitSaidAsAllowance(text))))))))))
      .replace(/\binside(?:\s+of)?\b/gi, "in")
      .replace(/\b(more|less|greater|fewer|higher|lower|larger|smaller|bigger|longer|shorter|older|younger|heavier|lighter|faster|slower|later|earlier|other)\s+then\b/gi, "$1 than")
      // "Max 10 renewals per week": a limit written as a notice says no more than that.
      .replace(/^(?:max|maximum)(?:\s+of)?\s+(?=\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred)\b)/i, "No more than "),
  );
  if ("message" in reading) return { ok: false, error: reading };
  // Words no reader placed only narrow a rule that governs (it then governs more: the safe side), but they
  // would widen one that lets actions through ("for gold customers, allow …" read as "allow …").
  if ((reading.effect === "allow" || reading.effect === "only_allow") && reading.loose.length > 0) {
    return fail(
      `lets actions through, and these words of it were not understood: "${reading.loose.join(" ")}". Without them it would allow more than it says.`,
      reading.loose,
      0,
      'Say the condition in another way, e.g. "Allow refunds when the tier is gold"',
    );
  }
  doneBeforeApproval(reading, text);
  reading.when = dayOfOwnTime(reading.when).map((c) => changedBy(c, reading.terms, text));
  reading.unless = dayOfOwnTime(reading.unless);
  const actions: ActionSelector = { any: reading.any, terms: reading.terms, domain: reading.domain };
  const all = (cs: Condition[]): Condition | null => (cs.length === 0 ? null : cs.length === 1 ? cs[0]! : { kind: "and", of: cs });
  let effect: Effect;
  let when: Condition | null;
  let unless: Condition | null;
  if (reading.effect === "only_allow" || reading.outsideOnly) {
    // "Only allow X when C": X outside C is blocked; the scope conditions written with X stay as "when".
    effect = reading.effect === "only_allow" ? "block" : reading.effect;
    const scope = reading.scope;
    const gates = reading.when.filter((c) => !scope.includes(c));
    when = all([...scope, ...reading.unless.map(negate)]);
    unless = gates.length === 0 ? null : all(gates);
    if (!unless && reading.unless.length === 0) {
      return fail("says \"only allow\" but no condition: only allow it when what?", [], 0, 'e.g. "Only allow deployments on weekdays between 09:00 and 17:00", or "Block refunds over $500"');
    }
  } else {
    effect = reading.effect;
    when = all(reading.when);
    unless = all(reading.unless);
  }
  const ignored = reading.loose;
  const rule: CompiledRule = { source: sentence.trim(), effect, actions, when, unless, format: 2, ...(ignored.length > 0 ? { ignored } : {}) };
  return { ok: true, rule };
}

/**
 * Where the verb of a relative clause opened at i is ("that open …", "which would target …"), after its
 * modals; not a copula or "has" (those clauses state facts the flag and comparison readers read).
 */
function relativeVerbAt(ws: W[], i: number): number | undefined {
  if (!wordIs(ws[i], "that", "which")) return undefined;
  let j = i + 1;
  while (wordIs(ws[j], "would", "will", "could", "can", "may", "might")) j++;
  const verb = ws[j];
  if (!verb || verb.t.kind !== "word" || wordIs(verb, "is", "are", "be", "has", "have", "was", "were")) return undefined;
  return verb.pos === "VERB" || tag(["they", verb.norm])[1]?.pos === "VERB" ? j : undefined;
}

/**
 * The subject of a leading condition when it names an instance of a kind of action: an indefinite article
 * or "any", up to three nouns, then its verb (or a modal and its verb): "a bulk import would replace".
 */
function leadSubject(ws: W[]): { start: number; end: number; having?: boolean } | undefined {
  let i = 0;
  while (wordIs(ws[i], "if", "when", "whenever", "once", "where")) i++;
  if (!wordIs(ws[i], "a", "an", "any", "every", "each")) return undefined;
  // The verb: a modal, or a word in its third-person form that reads as a verb after "it" ("targets",
  // "exceeds"); the tagger alone reads "a deploy targets" as a verb and a noun.
  for (let k = i + 2; k <= i + 4 && k < ws.length; k++) {
    const w = ws[k]!;
    if (w.t.kind !== "word" || CONDITION_MARKERS.has(w.norm) || LIST_SEPARATORS.has(w.norm)) return undefined;
    const modal = wordIs(w, "would", "will", "could", "might", "may", "should") && ws[k + 1]?.t.kind === "word";
    const finite = /[^s]s$/.test(w.norm) && !wordIs(w, "is", "has", "was", "does") && tag(["it", w.norm])[1]?.pos === "VERB";
    // "Whenever a voucher has a batch code starting with 88": what the instance has is the condition's subject.
    const having = wordIs(w, "has") && (wordIs(ws[k + 1], "a", "an", "any", "the") || ws[k + 1]?.pos === "NOUN");
    if (modal || finite || having) return ws[k - 1]!.pos === "ADJ" ? undefined : { start: i, end: k, having };
  }
  return undefined;
}

/**
 * "Staff may extend loans, but not beyond 90 days": a permission that only frames
 * its restriction. The rule is the restriction: "Never extend loans beyond 90 days".
 * A second verb after "but not" ("may read files but not delete them") is left to the clause reader.
 */
/**
 * "Only dispatchers may void tickets", "Only a shift lead can reopen a till": only that role may do it,
 * which is "only allow it when the role is that" (others are blocked; other actions are not governed). The
 * role is one to three nouns ending in a word for a person or a post; "Only refunds under $50 may be issued"
 * names a thing and is read as written.
 */
// People words that name those who work for the business, not those it serves.
const STAFF_WORDS = new Set(["employee", "staff", "worker", "colleague", "volunteer", "driver", "crew"]);

// "Only <one to three words> …": who the sentence reserves the action for (or to).
const ONLY_WHO = String.raw`^only\s+(?:(?:a|an|the|our)\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+`;
const ONLY_WHO_MAY = new RegExp(ONLY_WHO + String.raw`(?:may|can|shall|should|are\s+(?:allowed|permitted|authori[sz]ed)\s+to|is\s+(?:allowed|permitted|authori[sz]ed)\s+to)\s+(?!be\b|not\b|never\b)(.+)$`, "i");
const ONLY_WHO_MAY_BE = new RegExp(ONLY_WHO + String.raw`(?:may|can|shall|should)\s+be\s+([a-z]{3,}(?:ed|en|wn))\s+(.+?)[.!]?$`, "i");

// "holding an F1 or F2 permit", "with a forklift card on file", "who hold a current CSCS 2 card".
const HOLDING = String.raw`(?:holding|having|with|who\s+(?:hold|have|has|holds))\s+(an?\s+.+?)`;
const ONLY_HOLDERS_MAY = new RegExp(String.raw`^only\s+(?:(?:a|an|the|our)\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+${HOLDING}\s+(?:may|can|shall|are\s+(?:allowed|permitted|authori[sz]ed)\s+to|is\s+(?:allowed|permitted|authori[sz]ed)\s+to)\s+(?!not\b|never\b)(be\s+)?(.+?)[.!]?$`, "i");
const ONLY_BY_HOLDERS = new RegExp(String.raw`^(.+?)\s+(?:may|can|shall|should|must)\s+(?:only\s+be\s+([a-z]{3,})|be\s+([a-z]{3,})\s+only)\s+by\s+(?:an?\s+|the\s+|any\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+${HOLDING}[.!]?$`, "i");

/**
 * "Only operators holding an F1 or F2 permit may drive …", "Only riggers with a current CSCS 2 card can be
 * assigned to …", "… may only be driven by operators with a forklift card on file": who may is whoever holds
 * the thing named; everyone else is blocked from the act (other acts are not governed). Restated as "Block
 * <the act> unless they hold <it>", which the reader of held things reads.
 */
// "F2-certified operators", "Class-A-licensed drivers": people named by what they hold, and the thing it is.
const QUALIFIED = /^only\s+([a-z0-9]+(?:-[a-z0-9]+)?)-(certified|licensed|licenced|qualified|registered|accredited|rated)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?:may|can|shall|are\s+(?:allowed|permitted|authori[sz]ed)\s+to|is\s+(?:allowed|permitted|authori[sz]ed)\s+to)\s+(?!not\b|never\b)(?:be\s+)?(.+?)[.!]?$/i;
const HELD_THING: Record<string, string> = { certified: "certificate", licensed: "licence", licenced: "licence", qualified: "qualification", registered: "registration", accredited: "accreditation", rated: "rating" };

// The bound of a limit: "no more than", "at most", "a maximum of", "up to", or none ("to 4 per hour").
const LIMIT_BOUND = String.raw`(?:(?:no|not)\s+more\s+than|at\s+most|(?:a\s+)?max(?:imum)?(?:\s+of)?|up\s+to)`;
const LIMIT_VERB = new RegExp(String.raw`^(?:please\s+)?(?:limit|cap|restrict)\s+(.+?)\s+(?:to|at)\s+(?:${LIMIT_BOUND}\s+)?(\S.*?)[.!]?$`, "i");
// "The licence caps capacity at 2,350 people", "Capacity is capped at 2,350": a limit stated, by whoever sets it
// or of the thing limited, which says what "Cap capacity at 2,350" orders. Only with a measure after it:
// "Access is restricted to managers" says who, which the readers of roles read.
const LIMIT_STATED = new RegExp(String.raw`^(?:(?:the|our|we|this|their)\s+(?:[\w'-]+\s+){0,3}?)?(?:caps|limits|restricts|cap|limit|restrict)\s+(.+?)\s+(?:to|at)\s+((?:${LIMIT_BOUND}\s+)?[$€£¥\d].*)$`, "i");
const LIMIT_PASSIVE = new RegExp(String.raw`^(.+?)\s+(?:is|are)\s+(?:capped|limited|restricted)\s+(?:to|at)\s+((?:${LIMIT_BOUND}\s+)?[$€£¥\d].*)$`, "i");
const PARTY_LEAD = /^(?:each|every|any|a|one|the\s+same|any\s+one|a\s+single|each\s+single)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)$/i;
const ALLOWANCE = new RegExp(String.raw`^(?:(?:a|an|each|every|any|one|no)\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:can|may|should|shall|is\s+allowed\s+to|is\s+permitted\s+to)\s+(?:only\s+)?be\s+([a-z]+)\s+(?:for\s+|on\s+)?(?:only\s+)?${LIMIT_BOUND}\s+(.+?)[.!]?$`, "i");

/**
 * A limit said as what is allowed: "Limit each member to 5 court bookings per day", "Cap refunds at …",
 * "Limit discounts to 15%", "A patient can be sent no more than one recall letter every 12 weeks": anything
 * past the limit is blocked, counted for the party when one is named ("for the same member"). (Who does
 * the things, "Stargazers may reserve no more than 2 …", is no such party: see limitOnThingsDone.)
 */
function limitSaidAsAllowance(text: string): string {
  const stated = LIMIT_PASSIVE.exec(text.trim()) ?? (/^(?:the|our|we|this|their)\b/i.test(text.trim()) ? LIMIT_STATED.exec(text.trim()) : null);
  if (stated) text = `Limit ${stated[1]} to ${stated[2]}`;
  const trimmed = text.trim();
  const limit = LIMIT_VERB.exec(trimmed);
  if (limit) {
    const [, what, bound] = limit as unknown as [string, string, string];
    const party = PARTY_LEAD.exec(what.trim());
    // "Limit each member to 5 court bookings per day": a count per window, kept for each such party.
    if (party && /^\S+\s+\S+.*\b(?:per|a|an|every|each|in|within)\s+\S/i.test(bound)) return `Block more than ${bound} for the same ${party[1]}`;
    // "Limit each refund to $500": any one of them over the value.
    if (party) return /^[$€£¥\d]/.test(bound) ? `Block any ${party[1]} over ${bound}` : text;
    // "Limit ticket orders to 4 per hour": the count first, then the window.
    const rate = /^(\S+)\s+((?:per|a|an|every|each|in|within)\s+.+)$/i.exec(bound);
    if (rate) return `Block more than ${rate[1]} ${what} ${rate[2]}`;
    // "Cap the kiosk at 40 tickets per hour": the things counted are named in the bound; what is capped is who
    // does them (any one of them counts).
    if (/^\S+\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+(?:per|a|an|every|each|in|within)\s+\S/i.test(bound) && /^\d|^(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)\b/i.test(bound)) return `Block more than ${bound}`;
    // "Limit deployments to 09:00-17:00", "Restrict exports to weekdays between 9am and 5pm": hours or days
    // are when the things may happen; outside them they are blocked.
    if (/\d\s*(?::\d|[ap]\.?m\b)|\b(?:between|weekdays?|weekends?|business|office|working)\b/i.test(bound)) return `Only allow ${what} ${/^(?:between|on|during|from|in)\b/i.test(bound) ? "" : "during "}${bound}`;
    // "Limit refunds to $500", "Limit discounts to 15%": a value the things may not exceed.
    return /^[$€£¥\d]/.test(bound) ? `Block ${what} over ${bound}` : text;
  }
  const allowance = ALLOWANCE.exec(trimmed);
  if (allowance && /^(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)\s+[a-z]/i.test(allowance[3]!) && /\b(?:per|a|an|every|each|in|within)\s+\S/i.test(allowance[3]!)) return `Block more than ${allowance[3]} for the same ${allowance[1]}`;
  return text;
}

function onlyHoldersMay(text: string): string {
  const m = ONLY_HOLDERS_MAY.exec(text.trim());
  if (m && roleNamed(m[1]!)) return `Block ${m[4]} unless they hold ${m[2]}`;
  const q = QUALIFIED.exec(text.trim());
  if (q && /\d/.test(q[1]!) && roleNamed(q[3]!)) return `Block ${q[4]} unless they hold a ${q[1]} ${HELD_THING[q[2]!.toLowerCase()]}`;
  const by = ONLY_BY_HOLDERS.exec(text.trim());
  if (by && roleNamed(by[4]!)) return `${by[1]} must not be ${by[2] ?? by[3]} unless they hold ${by[5]}`;
  return text;
}

function onlyWhoMay(text: string): string {
  const m = ONLY_WHO_MAY.exec(text);
  const role = m ? roleNamed(m[1]!) : undefined;
  return role ? `Only allow ${m![2]} when the role is "${role}"` : text;
}

/**
 * "Only charge nurses may be assigned to shifts over 12 hours": the role belongs to the person the
 * action is done to, and the conditions after the verb say which such actions are theirs alone. Everyone
 * else is blocked from them; other actions are not governed.
 */
function onlyWhoMayBe(text: string): string {
  const m = ONLY_WHO_MAY_BE.exec(text.trim());
  const role = m ? roleNamed(m[1]!) : undefined;
  // ("assigned to shifts …": the thing after the preposition is what the verb is done with, and names the
  // tool with it; a rule about rostering is no rule about every assignment.)
  return role ? `Block ${m![2]} ${m![3]!.replace(/^(?:on|onto|to|into|for|at|in)\s+(?:a|an|the|any)?\s*/i, "")} unless the role is "${role}"` : text;
}

/** A post or trade named by one to three words ("charge nurses", "dispatchers"), in the singular; else undefined. */
function roleNamed(phrase: string): string | undefined {
  const words = phrase.toLowerCase().split(/\s+/);
  // ("B1-certified engineers": a qualification, which the older reading binds to a licence argument.)
  if (words.some((w) => /\d/.test(w))) return undefined;
  // (Tagged as the subject they are: alone, "shift leads" reads as a noun and a verb.)
  const tagged = tag(["the", ...words, "may", "act"]).slice(1, -2);
  const head = tagged.at(-1);
  if (!head || tagged.some((w) => w.pos !== "NOUN" && w.pos !== "ADJ" && w.pos !== "PROPN")) return undefined;
  // (The tagger leaves some plurals as written: "admins".)
  const single = head.lemma === words.at(-1) && /[^s]s$/.test(head.lemma) ? head.lemma.slice(0, -1) : head.lemma;
  // A post or trade, by its form or its name; the people a business serves ("gold customers", "patients")
  // are what is done for, not who may do it.
  // ("shift lead", "charge nurse": a post's name after a modifier is the post, though a lone "lead" may be a
  // prospect.)
  const post = words.length > 1 && /(?:admin|nurse|lead|head|officer|director|clerk|chef|pilot|medic|manager|supervisor)$/.test(single);
  const served = namesPeople(single) && !STAFF_WORDS.has(single) && !post;
  const person = !served && /(?:er|or|ist|ian|ant|ent|ee|man|woman|admin|nurse|lead|head|officer|staff|director|clerk|chef|pilot|medic|vet|judge|guard|warden|marshal|coach|steward|cook)$/.test(single);
  return person ? [...words.slice(0, -1), single].join(" ") : undefined;
}

/**
 * "Only firings that start between 07:00 and 15:00 may be booked", "Only crates under 5 kg can be lifted":
 * "only" before the things done to says what "may only be" says after them. (Not with words after the verb:
 * in "… may be shipped by drone" they say which shipping the limit is for, which "may only be" would make
 * part of the limit.)
 */
function onlyThingsMayBe(text: string): string {
  const m = /^only\s+(.+?)\s+(may|can|shall|should)\s+be\s+(?!not\b|never\b)([a-z]+[.!]?)$/i.exec(text.trim());
  return m ? `${m[1]} ${m[2]} only be ${m[3]}` : text;
}

/**
 * "No more than 3 balloon flights each day can be booked …", "At most 4 wristbands can be issued in one request":
 * a limit on the things a passive verb is done to is the limit on doing it, "Do not book more than 3
 * balloon flights a day …", which the count and rate readers read with the rest of the sentence as written.
 */
const LIMIT_ON_THINGS_DONE = /^(?:no|not)\s+more\s+than\s+|^(?:at\s+most|a\s+maximum\s+of|up\s+to)\s+/i;
function limitOnThingsDone(text: string): string {
  // "Lifeguards may close no more than 2 lanes per hour": a permission up to a limit forbids what is beyond it;
  // who may is not kept (the limit is read for every caller, the stricter reading).
  // ("Staff can give out max 5 passes a day": a verb with its particle, a bound written as a label.)
  const permitted = new RegExp(String.raw`^(?:[a-z][\w-]*\s+){1,4}?(?:may|can|shall|are\s+allowed\s+to|is\s+allowed\s+to)\s+([a-z]{3,}(?:\s+(?:out|off|up|back|over|away))?)\s+${LIMIT_BOUND}\s+(.+)$`, "i").exec(text.trim());
  if (permitted && tag(["they", permitted[1]!.split(" ")[0]!.toLowerCase()])[1]?.pos === "VERB") return `Do not ${permitted[1]} more than ${permitted[2]}`;
  // "Sessions may be booked no more than 3 times a day": how often the things may be done to.
  const often = /^(.+?)\s+(?:may|can|shall|should|(?:are|is)\s+(?:allowed|permitted)\s+to)\s+(?:be|get)\s+([a-z]{3,})\s+(?:no\s+more\s+than|not\s+more\s+than|at\s+most|up\s+to|a\s+maximum\s+of)\s+(?:(\S+)\s+times?|(once|twice|thrice))\b\s*(.*)$/i.exec(text.trim());
  const done = often ? tag(["it", "was", often[2]!.toLowerCase()])[2] : undefined;
  const times = often ? (often[3] ?? { once: "1", twice: "2", thrice: "3" }[often[4]!.toLowerCase() as "once"]) : undefined;
  if (often && done?.pos === "VERB") return `Do not ${done.lemma} ${often[1]} more than ${times} times ${often[5]}`.trim();
  const lead = LIMIT_ON_THINGS_DONE.exec(text.trim());
  if (!lead) return text;
  const rest = text.trim().slice(lead[0].length);
  const m = /^(.+?)\s+(?:may|can|could|shall|should|(?:are|is)\s+(?:allowed|permitted)\s+to)\s+(?:be|get)\s+([a-z]{3,})\b\s*(.*)$/i.exec(rest);
  if (!m || !/\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|dozen)\b/i.test(m[1]!)) return text;
  const base = tag(["it", "was", m[2]!.toLowerCase()])[2];
  if (base?.pos !== "VERB") return text;
  return `Do not ${base.lemma} more than ${m[1]} ${m[3]}`.trim();
}

/**
 * "Rare manuscripts may only be handled by archivists and senior conservators": the people after "by" are the only
 * ones who may; every other role is blocked from it (other actions are not governed).
 */
function onlyByWho(text: string): string {
  const m = /^(.+?)\s+(may|can|shall|should|must)\s+(?:only\s+be\s+([a-z]{3,})|be\s+([a-z]{3,})\s+only)\s+by\s+(?:an?\s+|the\s+)?([a-z][\w\s,-]*?)[.!]?$/i.exec(text.trim());
  // ("may be approved only by a finance manager" asks for that person's approval: the approval reader's.)
  if (!m || APPROVAL_PARTICIPLES.has((m[3] ?? m[4]!).toLowerCase())) return text;
  const roles = m[5]!.split(/\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+/).map((r) => roleNamed(r.replace(/^(?:an?|the)\s+/i, "")));
  if (roles.length === 0 || roles.some((r) => r === undefined)) return text;
  return `${m[1]} ${m[2]} only be ${m[3] ?? m[4]} when the role is ${roles.map((r) => `"${r}"`).join(" or ")}`;
}

/**
 * "Only annual and lifetime passes can be sold for longer than 30 days", "Only crates under 5 kg may be
 * lifted by the crane": the kinds named with the things done to are the exception to what the words after
 * the verb say. Others are blocked from it ("Block passes sold for longer than 30 days unless they are
 * annual or lifetime", "Block crates lifted by the crane unless they are under 5 kg"), which the clause
 * reader reads as written. (People are read as a role above; with nothing after the verb, "may only be"
 * says it above.)
 */
const KIND_CLAUSE_LEADS = new Set(["that", "which", "with", "whose"]);
const ONLY_KINDS_MAY_BE = /^only\s+(.+?)\s+(?:may|can|shall|should)\s+(?:only\s+)?be\s+([a-z]{3,})\s+(.+?)[.!]?$/i;
function onlyKindsMayBe(text: string): string {
  const m = ONLY_KINDS_MAY_BE.exec(text.trim());
  if (!m) return text;
  const [, phrase, participle, rest] = m as unknown as [string, string, string, string];
  const words = phrase.toLowerCase().split(/\s+/);
  const tagged = tag(["the", ...words, "were", participle.toLowerCase()]).slice(1);
  if (tagged.at(-1)!.pos !== "VERB") return text;
  // The head: the last noun of the words before a condition ("crates" of "crates under 5 kg").
  const cond = tagged.findIndex((w, i) => i > 0 && (w.pos === "ADP" || KIND_CLAUSE_LEADS.has(words[i]!)));
  if (cond < 0) {
    // A list of kinds and the things: "annual and lifetime passes".
    const listed = phrase.toLowerCase().replace(/\s+\S+$/, "");
    const head = words.at(-1)!;
    if (!/s$/.test(head) || tagged.slice(0, words.length).some((w, i) => !["ADJ", "NOUN", "PROPN", "VERB", "CCONJ"].includes(w.pos) && !/^,?$/.test(words[i]!.replace(/[a-z-]/g, "")))) return text;
    if (listed === "") return text;
    const kinds = listed.split(/\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+/);
    return `Block ${head} ${participle} ${rest} unless they are ${kinds.length > 2 ? `${kinds.slice(0, -1).join(", ")} or ${kinds.at(-1)}` : kinds.join(" or ")}`;
  }
  if (tagged.slice(0, cond).some((w) => w.pos !== "NOUN" && w.pos !== "ADJ")) return text;
  const head = words.slice(0, cond).join(" ");
  const condition = words.slice(cond).join(" ");
  const lead = words[cond]!;
  const unless = lead === "with" ? `they have ${condition.slice(5)}` : lead === "that" || lead === "which" ? `they ${condition.replace(/^\S+\s+/, "")}` : lead === "whose" ? `their ${condition.slice(6)}` : `they are ${condition}`;
  return `Block ${head} ${participle} ${rest} unless ${unless}`;
}

/** "Only a dispatcher — never a driver or a clerk — may …": an aside between dashes that names who is not
 * the only one says again what "only" says. */
const withoutRestatedAside = (text: string) => text.replace(/(\bonly\b[^—–]*?)\s+[—–]\s*(?:never|not|but\s+not|and\s+not|no)\b[^—–]*?\s+[—–]\s+/gi, "$1 ");

function restrictionOfPermission(text: string): string {
  const m = /^(?:(?:[\w'-]+\s+){0,4}?)(?:may|can|are allowed to|is allowed to|are permitted to|is permitted to)\s+(.+?),?\s+but\s+(?:not|never)\s+(.+)$/i.exec(text);
  if (!m) return text;
  const [, action, restriction] = m as unknown as [string, string, string];
  const first = restriction.split(/\s+/)[0]!.toLowerCase();
  if (/\b(?:it|them|this|that)\b/i.test(restriction) || tag(["they", first])[1]?.pos === "VERB" || tag(["to", action.split(/\s+/)[0]!.toLowerCase()])[1]?.pos !== "VERB") return text;
  return `Never ${action} ${restriction}`;
}

/** A rule text may hold several sentences: split on ";" and on full stops that end a sentence. */
export function splitClauses(text: string): string[] {
  return text
    // Not after an abbreviation: "5 p.m. Europe/London", "e.g. Refunds".
    // (A sentence may open with an amount: "… are blocked. $500 to $1,000 needs sign-off.")
    .split(/;|(?<!\b(?:[aApP]\.[mM]|[eE]\.[gG]|[iI]\.[eE]|etc|vs|approx|incl|no|[A-Z]))\.(?=\s+(?:[A-Z]|[$€£¥]\d|\d+(?:[.,]\d+)?\s*(?:%|[a-zA-Z])))|\n+/)
    .filter((s, i, all) => !(i > 0 && ORDER_OF_WHAT_WENT_BEFORE.test(s.trim()) && parseRule(all[i - 1]!).ok))
    .flatMap(headingBeforeColon)
    .flatMap(windowThenOutside)
    .flatMap(headedBands)
    .flatMap(measurePointedBack)
    .flatMap(bandOfWhatWentBefore)
    .flatMap(elaborated)
    .flatMap(otherwiseAfterDash)
    .flatMap(pronounAside)
    .flatMap(statedThenOrdered)
    .flatMap(sharedSubject)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && !isRestatementNote(s));
}

/** A band of values opening a sentence ("from 20% up to 30%", "Grades 3 through 5", "between $200 and $500"). */
function bandAtStart(sentence: string): { low: string; high: string; rest: string } | undefined {
  const { tokens, spans } = tokenizeWithSpans(sentence);
  const measure = (t: Token | undefined) => t !== undefined && NUMERIC_KINDS.has(t.kind);
  const first = tokens.findIndex(measure);
  // (At most two words before it: "from", "between", the measure's own noun.)
  if (first < 0 || first > 2 || tokens.slice(0, first).some((t) => t.kind !== "word")) return undefined;
  let k = first + 1;
  const joins = (t: Token | undefined, ...words: string[]) => t !== undefined && ((t.kind === "word" && words.includes(t.norm)) || (t.kind === "punct" && /^[-–]$/.test(t.text)));
  if (joins(tokens[k], "up") && joins(tokens[k + 1], "to")) k++;
  if (!joins(tokens[k], "to", "through", "thru", "and")) return undefined;
  k++;
  if (joins(tokens[k], "and") && joins(tokens[k + 1], "including")) k += 2;
  if (!measure(tokens[k])) return undefined;
  const text = (n: number) => sentence.slice(spans[n]!.start, spans[n]!.end);
  return { low: text(first), high: text(k), rest: sentence.slice(spans[k]!.end) };
}
// What such a sentence then says of "them": that they need someone's approval, or that they are refused.
const BAND_APPROVAL = /\b(?:ok(?:ay)?|ok'?d|approv\w*|sign\w*[\s-]*(?:(?:it|them)\s+)?off|sign-off|signoff|clear(?:ed)?|review\w*|authori[sz]\w*|consent)\b/i;
const BAND_BLOCK = /\b(?:refused|rejected|blocked|forbidden|prohibited|not\s+allowed|never|can(?:no|')t|cannot|denied)\b/i;

/**
 * "Loans over 30% of income are refused; from 20% up to 30% a credit officer has to approve them",
 * "Patients on pain grade 6 or more are referred. Grades 3 through 5 need the nurse to sign them off": a
 * sentence that opens with a band of the measure the sentence before compares, and says what happens to
 * "them", is about the same actions in that band. It is said in full: "Require approval for <those actions>
 * when <the measure> is between <low> and <high>".
 */
function bandOfWhatWentBefore(sentence: string, i: number, all: string[]): string[] {
  const band = i > 0 ? (bandAtStart(sentence) ?? boundAtStart(sentence)) : undefined;
  if (!band) return [sentence];
  const { low, high, rest } = band;
  const effect = BAND_APPROVAL.test(rest) ? "Require approval for" : BAND_BLOCK.test(rest) ? "Block" : undefined;
  const before = parseRule(all[i - 1]!);
  if (!effect || !before.ok || before.rule.actions.any || before.rule.actions.terms.length === 0) return [sentence];
  const compares: Extract<Condition, { kind: "compare" }>[] = [];
  const collect = (c: Condition | null | undefined): void => {
    if (!c) return;
    if (c.kind === "compare") compares.push(c);
    else if (c.kind === "and" || c.kind === "or") c.of.forEach(collect);
  };
  collect(before.rule.when);
  if (compares.length !== 1) return [sentence];
  const measure = compares[0]!;
  const subject = measure.subject.text || measure.subject.implied || "amount";
  // ("Grades 3 through 5" after "grade 6 or more": bare numbers take the measure's unit.)
  const unit = /^[$€£]/.test(measure.value.text) ? { before: measure.value.text[0]!, after: "" } : { before: "", after: /[\d.,]\s*(%|\s[a-z°].*)$/i.exec(measure.value.text)?.[1] ?? "" };
  const withUnit = (v: string) => (/^[\d.,]+$/.test(v.trim()) ? `${unit.before}${v.trim()}${unit.after}` : v.trim());
  const things = before.rule.actions.terms.map((t) => t.text).join(" or ");
  const range = "bound" in band ? `${band.bound} ${withUnit(low)}` : `between ${withUnit(low)} and ${withUnit(high)}`;
  return [`${effect} ${things} when the ${subject} is ${range}`];
}

/**
 * "Going below 64°F needs the lead's OK", "Anything over 12 kg needs a sign-off": a bound of the
 * measure, said of "going" or "anything" (no action of its own), opening a sentence after a rule.
 */
function boundAtStart(sentence: string): { low: string; high: string; rest: string; bound: string } | undefined {
  const m = /^\s*(?:going|getting|anything|everything|setting\s+it|taking\s+it|pushing\s+it)\s+(below|under|above|over|beyond|past|(?:less|more|lower|higher)\s+than)\s+/i.exec(sentence);
  if (!m) return undefined;
  const after = sentence.slice(m[0].length);
  const { tokens, spans } = tokenizeWithSpans(after);
  const t = tokens[0];
  if (!t || !NUMERIC_KINDS.has(t.kind)) return undefined;
  const bound = /^(?:below|under|less|lower)/i.test(m[1]!) ? "less than" : "more than";
  const value = after.slice(spans[0]!.start, spans[0]!.end);
  return { low: value, high: value, rest: after.slice(spans[0]!.end), bound };
}

/**
 * "Compliance: deposits or withdrawals over $10,000 are refused": a heading of a word or two (no verb, no
 * article) before a colon is the topic only, when what follows names its own action.
 */
function headingBeforeColon(sentence: string): string[] {
  const m = /^\s*([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2})\s*:\s+(.+)$/.exec(sentence);
  if (!m) return [sentence];
  const words = tag(m[1]!.toLowerCase().split(/\s+/));
  if (words.some((t) => t.pos === "VERB" || t.pos === "AUX" || t.pos === "DET" || t.pos === "PRON")) return [sentence];
  const rest = parseRule(m[2]!);
  return rest.ok && !rest.rule.actions.any ? [m[2]!] : [sentence];
}

// "Deliveries may be scheduled at any time from 8am up to 6pm UK time": a permission within a window.
const PERMITTED_WINDOW = /^(.+?)\s+(?:can|may|are\s+allowed\s+to|is\s+allowed\s+to)\s+be\s+([a-z]+(?:ed|en))\s+(?:(?:for|at)\s+any\s+time\s+)?(?:from|between)\s+(.+?)\s+(?:(?:up\s+)?to|and|until|till)(?:\s+and\s+including)?\s+(.+?)[.!]?$/i;
// "Anything outside that needs …", "anything else needs a sign-off …": what the window leaves out.
const OUTSIDE_THAT = /^(?:anything|everything|any\s+[a-z]+)\s+(?:outside\s+(?:of\s+)?(?:that|those|this|these|the\s+(?:window|hours|times?))(?:\s+(?:hours|times|window))?|else)\s+(.+)$/i;

/**
 * "Deliveries may be scheduled at any time from 8am up to 6pm. Anything outside that needs the yard lead's
 * OK.": a window that is allowed, then what happens outside it, is one rule: only within the window, and
 * anything else as the second sentence says ("… may only be booked between 8am and 6pm; anything else
 * needs …", which the "only" reading and its "otherwise" know).
 */
function windowThenOutside(sentence: string, i: number, all: string[]): string[] {
  const outside = OUTSIDE_THAT.exec(sentence.trim());
  if (outside && i > 0 && PERMITTED_WINDOW.test(all[i - 1]!.trim())) return [];
  const window = PERMITTED_WINDOW.exec(sentence.trim());
  const next = all[i + 1] !== undefined ? OUTSIDE_THAT.exec(all[i + 1]!.trim()) : null;
  if (!window || !next) return [sentence];
  const [, things, done, from, to] = window as unknown as [string, string, string, string, string];
  return [`${things} may only be ${done} between ${from} and ${to}`, `anything else ${next[1]}`];
}

/**
 * "Off-cycle payments: over $5,000 needs the payroll lead's approval, over $25,000 is blocked": a heading
 * that names the things, then bounds of them parted by commas, each with its own effect. Each is a rule about
 * the heading's things (when every one reads as one).
 */
function headedBands(sentence: string): string[] {
  const m = /^([^:;]{3,60}?):\s*(.+)$/.exec(sentence.trim());
  if (!m) return [sentence];
  const bound = String.raw`(?:over|above|under|below|more\s+than|less\s+than|up\s+to|from|between)\b`;
  const parts = m[2]!.split(new RegExp(String.raw`,\s*(?:and\s+|but\s+)?(?=${bound})`, "i"));
  if (parts.length < 2 || !new RegExp(`^${bound}`, "i").test(parts[0]!.trim())) return [sentence];
  const rules = parts.map((p) => `${m[1]!.trim()} ${p.trim()}`);
  return rules.every((r) => parseRule(r).ok) ? rules : [sentence];
}

// "above that", "over the cap": a bound said by pointing back at a measure.
const MEASURE_POINTED_BACK = /\b(above|over|beyond|more\s+than|less\s+than|exceeding|past|under|below)\s+(?:that|this|it|the\s+(?:cap|limit|maximum|max|minimum|threshold|ceiling|figure|number))\b/i;

/**
 * "The licence caps the terrace at 120 guests. Never book more than that for the terrace.":
 * a sentence whose bound points back at the one measure the sentence before it states takes that measure
 * ("above 2,350 people"). The statement before it only said where the measure comes from and is dropped (the
 * sentence after it says what is done, and to which things). Each sentence keeps its place otherwise.
 */
function measurePointedBack(sentence: string, i: number, all: string[]): string[] {
  const before = i > 0 ? all[i - 1]! : undefined;
  const next = all[i + 1];
  // ("… Anything past that is refused.": a sentence that only says the rest is blocked points back at the
  // rule itself, and is kept as its note; no measure of its own.)
  const pointed = (s: string | undefined) => s !== undefined && MEASURE_POINTED_BACK.test(s) && !restatesBlock(s) && !ORDER_OF_WHAT_WENT_BEFORE.test(s.trim());
  const measureOf = (s: string) => {
    const { tokens, spans } = tokenizeWithSpans(s);
    const measures = tokens.flatMap((t, k) => (NUMERIC_KINDS.has(t.kind) ? [s.slice(spans[k]!.start, spans[k]!.end)] : []));
    if (measures.length !== 1) return undefined;
    // ("… at 2,350 people": the noun a bare number counts goes with it.)
    const counted = new RegExp(String.raw`${escapeRegExp(measures[0]!)}\s+([a-z]+)\b`, "i").exec(s)?.[1];
    return /^\d/.test(measures[0]!) && counted && tag(["2", counted])[1]?.pos === "NOUN" ? `${measures[0]} ${counted}` : measures[0];
  };
  const pointingBack = (s: string, measure: string) => s.replace(MEASURE_POINTED_BACK, (_m, bound: string) => `${bound} ${measure}`);
  // The statement before a sentence that points back at it says where the measure comes from; the sentence
  // after it, with the measure, says what is done (and to which things), so the statement is dropped.
  const own = measureOf(sentence);
  // (Only a statement: no rule, or a limit someone set, "the licence caps …"; an order stays a rule of its own.)
  const statement = !parseRule(sentence).ok || LIMIT_PASSIVE.test(sentence.trim()) || LIMIT_STATED.test(sentence.trim());
  if (own && statement && pointed(next) && !MEASURE_POINTED_BACK.test(sentence) && !measureOf(next!) && parseRule(pointingBack(next!, own)).ok) return [];
  if (!before || !pointed(sentence) || measureOf(sentence)) return [sentence];
  const measure = measureOf(before);
  return measure ? [pointingBack(sentence, measure)] : [sentence];
}

// "At most 5 transfers a day. Refuse the others.", "… a day. Block any more after that.": an order
// whose only object points back at the sentence before says that sentence's effect again; that sentence is
// the rule (a sentence before it that is no rule leaves the order to be refused with it).
const ORDER_OF_WHAT_WENT_BEFORE = /^(?:please\s+)?(?:block|deny|refuse|reject|stop|prevent|forbid|disallow|decline)\s+(?:the\s+rest|the\s+others?|all\s+others|anything(?:\s+else)?|everything(?:\s+else)?|any\s+(?:more|others?|extra|further)|them|those|these|it)(?:\s+(?:past|over|beyond|above|after|exceeding|outside)\s+(?:that|this|it|them|those|these|the\s+(?:limit|cap|threshold)))?\s*[.!]*$/i;

/** "X may only go to Y — anyone else needs the lead's OK": the "otherwise" part split off (see OTHERWISE). */
function otherwiseAfterDash(sentence: string): string[] {
  const m = /^(.+?\bonly\b.+?\S)\s+[-–—]\s+(.+)$/i.exec(sentence);
  return m && OTHERWISE.test(m[2]!) ? [m[1]!, m[2]!] : [sentence];
}

/**
 * "Tanks must not be drained during a storm - they are topped up instead": after a spaced dash, a clause of
 * its own whose subject is a pronoun for the rule's things says what happens to them otherwise or why. It is
 * split off (and kept as the rule's note when it states no effect), never read as a condition of the rule.
 */
function pronounAside(sentence: string): string[] {
  // ("… is not allowed — the mill would send the lorry back": a thing of its own that will or would
  // do something is a consequence told, as a pronoun's clause is.)
  const m = /^(.+?\S)\s+[-–—]\s+((?:(?:they|it|these|those|this|we|that)\s+|(?:that|it)'s\s+|none\s+of\s+(?:them|these|those)\s+|(?:the|our|their|its|your)\s+(?:[a-z][\w-]*\s+){1,3}(?:will|would|won't|wouldn't|might|could|can't|cannot)\s+).+)$/i.exec(sentence);
  if (!m) return [sentence];
  const [, rule, aside] = m as unknown as [string, string, string];
  const own = parseRule(aside);
  return !own.ok && own.error.message.startsWith("expected an effect") ? [rule, aside] : [sentence];
}

/**
 * "Kayaks are only let out with a buoyancy aid: block any kayak rental without a buoyancy aid": a statement,
 * then after its colon the order that carries it out. The order is a rule; the statement is one too when it
 * reads as one, and otherwise only says why (it is dropped rather than refusing the order with it).
 */
function statedThenOrdered(sentence: string): string[] {
  // ("…: no deliveries at gate 4 with …", "…: nothing over 2 m goes …": a sign's "no" orders too.)
  const m = /^(.+?)(\s*:|\s+[-–—])\s*((?:block|deny|refuse|forbid|reject|prevent|escalate|never|do\s+not|don't|require|prohibit|no(?=\s+[a-z])(?!\s+(?:one|more|less|later|earlier|exceptions?)\b)|nothing|nobody)\b.+)$/i.exec(sentence);
  if (!m || /\b(?:under|in)\s+(?:those|these|such|that|this)\s+(?:conditions?|circumstances?|cases?|situations?)\b/i.test(m[2]!)) return [sentence];
  const [, stated, separator, ordered] = m as unknown as [string, string, string, string];
  // ("Only a pilot — never a cadet — may taxi": dashes also set off an aside inside one rule.)
  const dash = !separator.includes(":");
  if (dash && /\s[-–—]\s/.test(ordered)) return [sentence];
  // "We don't cut hair on Sundays: block any styling booking that falls on it": the order names the days
  // the statement gave by a pronoun; it says the statement in full, which is then no rule of its own.
  const days = STATED_DAYS.exec(stated);
  const anaphor = /\b(?:on|for|during)\s+(?:one|it|them|those(?:\s+days)?|such\s+(?:a\s+)?days?|that\s+day|either(?:\s+of\s+them)?)\b/i;
  const refersBack = anaphor.test(ordered);
  const statedRule = parseRule(stated).ok;
  if (days && refersBack) {
    // (The statement's days run to its end: "on Sundays or on New Year's Day (1 Jan)" is carried whole.)
    const said = ordered.replace(anaphor, stated.slice(days.index).replace(/[\s.,!]+$/, ""));
    if (!statedRule || parseRule(said).ok) return [said];
  }
  if (refersBack && statedRule) return [stated];
  // ("Stores - never issue ladders …": a heading of a few words, no verb among them, before an
  // order that names its own action, is the topic only.)
  // ("Boat hire - …": a noun that is also a verb, after the first word, still names.)
  const headingWords = tag(stated.trim().toLowerCase().split(/\s+/));
  const heading = dash && headingWords.length <= 4 && headingWords[0]?.pos !== "VERB" && headingWords.every((t) => t.pos !== "AUX" && t.pos !== "DET" && t.pos !== "PRON");
  if (heading && !statedRule) {
    const order = parseRule(ordered);
    if (order.ok && !order.rule.actions.any) return [ordered];
  }
  if (dash && !statedRule) return [sentence];
  // ("The old bridge can't carry heavy lorries: no route over it with …": what a thing cannot bear is the
  // reason for the order, no rule of its own.)
  const capacity = /\b(?:can(?:no|['’])t|can\s+not|won['’]t|isn['’]t\s+able\s+to)\s+(?:take|handle|fit|hold|carry|support|accommodate|cope\s+with|bear|manage)\b/i.test(stated);
  return statedRule && !capacity ? [stated, ordered] : [ordered];
}
// "on Sundays", "on Saturdays and Sundays", "on weekends": the days a statement names, by the day words
// the day readers know (made once).
const DAY_WORD = String.raw`(?:${Object.keys(DAYS).sort((a, b) => b.length - a.length).join("|")}|weekends?|weekdays?)`;
const STATED_DAYS = new RegExp(String.raw`\bon\s+(${DAY_WORD}(?:\s*(?:,|or|and)\s*${DAY_WORD})*)\b`, "i");

/**
 * "Don't start the pumps when the tank is below 10%: block any pumping under those conditions": after a
 * colon, an imperative that refers back to the conditions ("under those conditions", "in that case") is a
 * second rule with the first one's conditions. (A reason after it, ", the seals run dry", says nothing more.)
 */
function elaborated(sentence: string): string[] {
  const m = /^(.+?)\s*:\s*((?:block|deny|refuse|forbid|reject|stop|prevent|escalate|hold|flag)\s+.+?)\s+(?:under|in)\s+(?:those|these|such|that|this)\s+(?:conditions?|circumstances?|cases?|situations?)\b\s*(.*)$/i.exec(sentence);
  if (!m) return [sentence];
  const [, first, second, after] = m as unknown as [string, string, string, string];
  const condition = /\b(?:when|whenever|if|while|where|once|unless)\b.*$/i.exec(first)?.[0];
  // Only a reason may follow ("…, the water is wasted"): anything else would be a part of the rule left out.
  if (!condition || (after.trim() !== "" && !/^[,.—–-]/.test(after.trim()))) return [sentence];
  return [first, `${second} ${condition}`];
}

/**
 * "Seed lots may only be stored in vault A and must never be shipped to region B": two
 * rules about one subject, each with its own modal verb, are two clauses; the second takes the first's
 * subject. (Only a subject of a few words with no condition of its own, and only a second modal that
 * restricts: "… and must be logged" adds no rule, and stays with the first.)
 */
function sharedSubject(sentence: string): string[] {
  // "…, and none of them may start after 9 pm": the second rule's subject is "none of them", every one of the
  // first's things ("no choir rehearsals may start after 9 pm").
  // ("Any overtime past 8 hours needs the site lead to approve it, and none may …": a need says the first.)
  const none = /^([^,;:]+?)\s+((?:must|may|should|shall|can|needs?|requires?|has\s+to|have\s+to)\s.+?),?\s+(?:and|but)\s+none(?:\s+of\s+them)?\s+((?:must|may|should|shall|can|will)\s+.+)$/i.exec(sentence.trim());
  if (none) {
    const [, subject, first, second] = none as unknown as [string, string, string, string];
    if (subject.split(/\s+/).length <= 8 && !/\b(?:when|whenever|if|unless|while|where|once|and|or|never|only|no)\b/i.test(subject)) return [`${subject} ${first}`, `No ${subject.replace(/^(?:any|all|every|each)\s+/i, "")} ${second}`];
  }
  // "No pile is driven before 08:00 or after 18:00, and no piling on Sundays": two prohibitions, each a
  // sign of its own after a comma and "and" (each keeps its own conditions).
  const signs = /^((?:no|never)\s.+?),\s+and\s+((?:no|never)\s+[a-z].+)$/i.exec(sentence.trim());
  if (signs && parseRule(signs[1]!).ok && parseRule(signs[2]!).ok) return [signs[1]!, signs[2]!];
  const m = /^([^,;:]+?)\s+((?:must|may|should|shall|can|cannot|can't|are|is)\s.+?),?\s+and\s+((?:must|may|should|shall|can|cannot|can't|are|is)\s+(?:not|never|only)\b.+)$/i.exec(sentence.trim());
  if (!m) return [sentence];
  const [, subject, first, second] = m as unknown as [string, string, string, string];
  const words = subject.split(/\s+/);
  if (words.length > 8 || /\b(?:when|whenever|if|unless|while|where|once|and|or|never|only|no)\b/i.test(subject)) return [sentence];
  return [`${subject} ${first}`, `${subject} ${second}`];
}

// A restatement read back as a rule: its closing note explains, it is not a clause.
const NOTE = FAIL_CLOSED_NOTE.replace(/[.\s]+$/, "").toLowerCase();
const isRestatementNote = (clause: string) => clause.replace(/[.\s]+$/, "").toLowerCase() === NOTE;

// "…; anything else is blocked", "Anything beyond that is refused.", "otherwise they are blocked": after a
// rule that blocks outside what it allows or past a limit, a sentence that says so again names no action
// of its own (read alone it would be a rule about "anything else").
const CONSEQUENCE = /^(?:and\s+|so\s+)?(?:(?:anything|everything|all)\s+(?:else|more|further|beyond(?:\s+(?:that|this|it))?|over(?:\s+(?:that|this|it))?|above(?:\s+(?:that|this|it))?|past\s+(?:that|this|it)|outside(?:\s+(?:that|this|those|these|it|them))?)|otherwise(?:,?\s+(?:it|they|this|these|those))?)\s+(?:is|are|will\s+be|gets?|must\s+be|should\s+be|shall\s+be)?\s*(?:blocked|forbidden|refused|denied|rejected|prohibited|barred|not\s+(?:allowed|permitted))$/i;

/** Whether a sentence only says again that what a blocking rule before it leaves out is blocked. */
export function restatesBlock(sentence: string): boolean {
  return CONSEQUENCE.test(sentence.trim().replace(/[.!]+$/, ""));
}

// "…; any other addressee must be signed off by the studio lead", "…; mailing one to any other inbox needs a
// second check", "… — anybody else needs the owner's OK": after a rule that allows only
// some of a thing, a sentence about "any other" of it, or "anyone else", that asks for approval says what
// happens outside: approval, not a block.
const OTHERWISE = /^(?:and\s+|but\s+)?(?:[a-z]+ing\s+(?:them|it|one|these|those|that)\s+(?:to|with|for|at|from)\s+)?(?:(?:anyone|anybody|someone|somebody|anything|everything)\s+else|any\s+other\b|all\s+other\b|other\s+\w+s\b|the\s+others?\b)/i;

/** A sentence after an "only" rule that asks for approval for everything else it names (see OTHERWISE). */
export function otherwiseNeedsApproval(sentence: string): boolean {
  const text = sentence.trim();
  if (!OTHERWISE.test(text)) return false;
  const parsed = parseRule(text);
  return parsed.ok && parsed.rule.effect === "require_approval";
}
