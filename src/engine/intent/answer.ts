// Direct answers: from the workspace's memory, grounded in the items used (their ids go into the answer's
// metadata and the trace). When nothing in memory covers the question, the answer says so and the trace
// reports the gap; nothing is made up.
import type { SearchHit } from "../../modules/memory/store.ts";
import { stem, words } from "../text/stem.ts";
import { contentStems } from "./rank.ts";

export interface Answer {
  content: string;
  /** Memory items the answer is made of. */
  used: string[];
  /** How much of the question the best item covers, 0..1. */
  coverage: number;
  known: boolean;
}

// Below this share of the question's words, an item is about something else.
const MIN_COVERAGE = 0.5;
// Question words that say what kind of answer, not what about.
const QUESTION_WORDS = new Set(["what", "whats", "which", "who", "whos", "when", "where", "why", "how", "usual", "usually", "our", "we", "do", "does", "handle", "deal", "typically", "normally", "go", "goes", "out", "until", "time", "long", "much", "many", "often", "can", "be", "get", "need", "happen", "should", "must", "quick", "question", "know", "tell", "wonder", "anyone"].map(stem));
// Different words for the same thing in a question and in memory.
const SAME_AS: Record<string, string> = { [stem("twice")]: stem("double"), [stem("owns")]: stem("owner"), [stem("own")]: stem("owner") };

/** The words of a question worth looking up: no question words, fillers or stop words. */
export function questionWords(question: string): string[] {
  return words(question).filter((w) => w.length > 2 && !QUESTION_WORDS.has(stem(w)) && contentStems(w).length > 0);
}

function itemText(hit: SearchHit): string {
  const content = hit.content as Record<string, unknown>;
  return typeof content.text === "string" ? content.text : JSON.stringify(content);
}

/** Picks the items that answer a question, or says nothing is known. `corrected` maps misspelt words to the memory's. */
export function answerFromMemory(question: string, hits: SearchHit[], corrected: Record<string, string> = {}): Answer {
  const fixed = question.replace(/[A-Za-z']+/g, (w) => corrected[w.toLowerCase()] ?? w);
  const asked = [...new Set(contentStems(fixed).filter((s) => !QUESTION_WORDS.has(s)).map((s) => SAME_AS[s] ?? s))];
  let best: { hit: SearchHit; coverage: number } | undefined;
  for (const hit of hits) {
    const stems = new Set(words(itemText(hit)).map(stem));
    for (const tag of hit.tags ?? []) for (const w of words(tag)) stems.add(stem(w));
    const covered = asked.filter((s) => stems.has(s)).length;
    const coverage = asked.length === 0 ? 0 : covered / asked.length;
    // Ties go to the search's own order (its relevance ranking).
    if (!best || coverage > best.coverage + 1e-9) best = { hit, coverage };
  }
  // Half of a longer question is not enough ("parking cost at the riverside location": only the place).
  const enough = best !== undefined && (asked.length <= 2 ? best.coverage >= MIN_COVERAGE : best.coverage > MIN_COVERAGE);
  if (best && enough) {
    return { content: itemText(best.hit), used: [best.hit.id], coverage: best.coverage, known: true };
  }
  const topic = asked.length > 0 ? words(fixed).filter((w) => asked.includes(stem(w))).slice(0, 6).join(" ") : "that";
  return {
    content: `I don't know: nothing in this workspace's memory answers a question about ${topic}. Add what the answer should be as a memory item (POST /api/v1/svc/memory) and ask again.`,
    used: [],
    coverage: best?.coverage ?? 0,
    known: false,
  };
}

const GREETING = /^(hi|hello|hey|good (morning|afternoon|evening))\b/i;

export function smallTalk(text: string): string {
  if (GREETING.test(text.trim())) return "Hello! Ask me a question or tell me what to do, and I'll check what this workspace can do and what its policies allow.";
  return "You're welcome! Let me know if there is anything else to do.";
}
