// Understand: what kind of turn the last user message is. A request asks for something to be done (also
// when phrased as "can you …?"), a question asks for knowledge, small talk needs neither.
const REQUEST_OPENERS = /^(please\s+|pls\s+|kindly\s+)?(can|could|would|will)\s+(you|u|we)\s+(please\s+)?(?!tell me|explain|remind me|say)\w+/i;
const QUESTION_OPENERS = /^(what|what's|whats|which|who|who's|whom|whose|when|when's|where|where's|why|how|how's|is|are|was|were|do|does|did|should|has|have|had|am|tell me|explain|remind me)\b/i;
const SMALL_TALK = /^(hi|hello|hey|hiya|thanks|thank you|thx|ty|cheers|morning|good (morning|afternoon|evening)|happy (monday|friday|new year))\b/i;
// Words of doing: a turn that has one of these outside a question is a request.
const ACTION_HINT = /^(refund|pay|send|email|close|open|create|delete|remove|cancel|deploy|scale|schedule|assign|issue|give|grant|revoke|reset|turn|set|update|change|move|ship|order|book|post|page|ping|text|call|notify|add|restart|roll|approve|transfer|charge|invite|submit|file|log|disable|enable|archive|export|import|upload|publish|launch|start|stop|pause|resume)\w*/i;

export type TurnKind = "request" | "question" | "small_talk";

// Openers that say nothing about the kind of turn: "Quick question: …", "Hey, …".
const FILLER = /^(?:quick question|question|q|hey|hi|hello|so|ok|okay|um|well|btw|fyi)\b[\s:,!.-]*/i;
const firstWord = (sentence: string) => sentence.trim().replace(FILLER, "").split(/\s+/)[0] ?? "";

export function classifyTurn(text: string): TurnKind {
  const original = text.trim();
  let t = original;
  for (let i = 0; i < 3 && FILLER.test(t) && !SMALL_TALK.test(t.replace(FILLER, "")); i++) t = t.replace(FILLER, "");
  // Greetings and thanks with no sentence that starts with a verb of doing: small talk.
  if (SMALL_TALK.test(original)) {
    const sentences = original.split(/(?<=[.!?])\s+/);
    const imperative = sentences.some((s) => ACTION_HINT.test(firstWord(s)) && !/^(thanks|thank)/i.test(s.trim()));
    if (!imperative && !REQUEST_OPENERS.test(t)) return "small_talk";
  }
  if (REQUEST_OPENERS.test(t)) return "request";
  if (QUESTION_OPENERS.test(t)) return "question";
  // "right. so who approves holiday requests?": the question after the filler decides.
  const lastSentence = t.split(/(?<=[.!])\s+/).at(-1) ?? t;
  if (lastSentence !== t) {
    const inner = lastSentence.replace(/^(and|but|so|also|ok|okay)[,.]?\s+/i, "");
    if (QUESTION_OPENERS.test(inner)) return "question";
  }
  if (t.endsWith("?") && !ACTION_HINT.test(t)) return "question";
  return "request";
}
