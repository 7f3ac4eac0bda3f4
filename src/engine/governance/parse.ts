// The policy language's parser: one sentence → one CompiledRule, or a failure naming the words it could
// not place. Recursive descent over tokens; every token must be placed, so nothing an author wrote is
// silently ignored. docs/policies.md is the grammar with examples.
import type { ActionSelector, Comparator, CompiledRule, Condition, Effect, ParseFailure, ParseResult, Quantity, Subject } from "./compiled.ts";
import { stem, words as splitWords } from "../text/stem.ts";
import { LexError, tokenize, type Token } from "./tokens.ts";

class Unplaced extends Error {
  constructor(
    readonly at: number,
    readonly why: string,
  ) {
    super(why);
  }
}

type Seq = readonly string[];

const DETERMINERS = new Set(["the", "a", "an", "any", "all", "every", "each", "some", "its", "their", "our"]);
const WILDCARD_NOUNS = new Set(["action", "actions", "operation", "operations", "tool", "tools", "request", "requests", "thing", "things", "call", "calls", "tool-call", "tool-calls"]);
const WILDCARD_WORDS = new Set(["anything", "everything", "something"]);
// Nouns that name no particular thing ("customer records" is about customers): dropped from action terms.
const GENERIC_NOUNS = new Set(["record", "records", "item", "items", "entry", "entries", "data", "object", "objects", "resource", "resources", "details"]);
const CONDITION_INTROS = new Set(["when", "if", "where", "while", "whenever", "whose", "which", "that", "with", "for", "once", "of"]);
const COMPARE_PHRASES: [Seq, Comparator][] = [
  [["greater", "than", "or", "equal", "to"], "gte"],
  [["less", "than", "or", "equal", "to"], "lte"],
  [["no", "more", "than"], "lte"],
  [["no", "less", "than"], "gte"],
  [["not", "more", "than"], "lte"],
  [["more", "than"], "gt"],
  [["greater", "than"], "gt"],
  [["higher", "than"], "gt"],
  [["larger", "than"], "gt"],
  [["bigger", "than"], "gt"],
  [["in", "excess", "of"], "gt"],
  [["longer", "than"], "gt"],
  [["shorter", "than"], "lt"],
  [["at", "least"], "gte"],
  [["at", "most"], "lte"],
  [["up", "to"], "lte"],
  [["less", "than"], "lt"],
  [["fewer", "than"], "lt"],
  [["lower", "than"], "lt"],
  [["smaller", "than"], "lt"],
  [["over"], "gt"],
  [["above"], "gt"],
  [["exceeding"], "gt"],
  [["exceeds"], "gt"],
  [["exceed"], "gt"],
  [["under"], "lt"],
  [["below"], "lt"],
];
const COPULAS: Seq[] = [["is", "equal", "to"], ["equals"], ["equal", "to"], ["is"], ["are"], ["was"], ["be"]];
const NEGATED_COPULAS: Seq[] = [["is", "not"], ["isn't"], ["are", "not"], ["aren't"], ["does", "not", "equal"], ["doesn't", "equal"], ["not"]];

const BLOCK_PREFIXES: Seq[] = [
  ["do", "not", "allow"], ["don't", "allow"], ["do", "not", "permit"], ["don't", "permit"], ["never", "allow"], ["never", "permit"],
  ["must", "never"], ["do", "not"], ["don't"], ["never"], ["block"], ["deny"], ["forbid"], ["prohibit"], ["disallow"],
  ["reject"], ["prevent"], ["stop"], ["refuse"],
];
const APPROVAL_NOUNS: Seq[] = [
  ["a", "second", "approver"], ["two-person", "approval"], ["human", "approval"], ["human", "sign-off"], ["human", "review"], ["manager", "approval"],
  ["manual", "approval"], ["manual", "review"], ["explicit", "approval"], ["a", "human"], ["an", "approver"], ["sign", "off"], ["sign-off"], ["signoff"],
  ["approval"], ["approvals"], ["review"], ["confirmation"], ["escalation"], ["a", "manager"],
];
const APPROVAL_VERBS: Seq[] = [["always", "require"], ["must", "have"], ["require"], ["requires"], ["need"], ["needs"], ["get"], ["request"], ["ask", "for"], ["seek"]];
const APPROVAL_CONNECTORS = new Set(["for", "to", "of", "on", "before"]);
const ESCALATE_TARGETS = new Set(["human", "manager", "approver", "reviewer", "admin", "administrator", "someone", "person", "supervisor", "operator", "lead", "owner"]);
const ALLOW_PREFIXES: Seq[] = [["always", "allow"], ["always", "permit"], ["auto-approve"], ["auto", "approve"], ["automatically", "approve"], ["automatically", "allow"], ["allow"], ["permit"], ["approve"]];
const ONLY_ALLOW_PREFIXES: Seq[] = [["only", "allow"], ["only", "permit"], ["allow", "only"], ["permit", "only"]];

// Effects written after the actions: "refunds over $500 require approval", "deletes are forbidden".
const SUFFIX_EFFECTS: [Seq, Effect | "only_allow"][] = [
  [["are", "only", "allowed"], "only_allow"], [["is", "only", "allowed"], "only_allow"], [["are", "allowed", "only"], "only_allow"], [["is", "allowed", "only"], "only_allow"],
  [["are", "only", "permitted"], "only_allow"], [["is", "only", "permitted"], "only_allow"], [["may", "only", "run"], "only_allow"], [["can", "only", "run"], "only_allow"],
  [["are", "not", "allowed"], "block"], [["is", "not", "allowed"], "block"], [["are", "not", "permitted"], "block"], [["is", "not", "permitted"], "block"],
  [["are", "never", "allowed"], "block"], [["is", "never", "allowed"], "block"], [["are", "forbidden"], "block"], [["is", "forbidden"], "block"],
  [["are", "prohibited"], "block"], [["is", "prohibited"], "block"], [["are", "blocked"], "block"], [["is", "blocked"], "block"], [["are", "denied"], "block"],
  [["is", "denied"], "block"], [["are", "disallowed"], "block"], [["is", "disallowed"], "block"], [["must", "be", "blocked"], "block"],
  [["must", "never", "happen"], "block"], [["must", "not", "happen"], "block"], [["must", "never", "run"], "block"], [["must", "not", "run"], "block"],
  [["must", "not", "be", "allowed"], "block"], [["should", "be", "blocked"], "block"], [["cannot", "happen"], "block"], [["are", "not", "ok"], "block"],
  [["must", "be", "approved"], "require_approval"], [["must", "be", "reviewed"], "require_approval"], [["must", "be", "escalated"], "require_approval"],
  [["should", "be", "escalated"], "require_approval"], [["should", "be", "approved"], "require_approval"], [["are", "escalated"], "require_approval"],
  [["is", "escalated"], "require_approval"], [["must", "be", "signed", "off"], "require_approval"], [["need", "a", "human"], "require_approval"],
  [["needs", "a", "human"], "require_approval"],
  [["are", "always", "allowed"], "allow"], [["is", "always", "allowed"], "allow"], [["are", "allowed"], "allow"], [["is", "allowed"], "allow"],
  [["are", "permitted"], "allow"], [["is", "permitted"], "allow"], [["are", "fine"], "allow"], [["is", "fine"], "allow"], [["are", "ok"], "allow"],
  [["is", "ok"], "allow"], [["may", "proceed"], "allow"], [["can", "proceed"], "allow"], [["are", "auto-approved"], "allow"], [["is", "auto-approved"], "allow"],
];
const SUFFIX_APPROVAL_VERBS: Seq[] = [["always", "require"], ["always", "requires"], ["always", "need"], ["always", "needs"], ["require"], ["requires"], ["need"], ["needs"], ["must", "have"]];

const DAYS: Record<string, number> = {
  sunday: 0, sundays: 0, sun: 0, monday: 1, mondays: 1, mon: 1, tuesday: 2, tuesdays: 2, tue: 2, tues: 2, wednesday: 3, wednesdays: 3, wed: 3,
  thursday: 4, thursdays: 4, thu: 4, thurs: 4, friday: 5, fridays: 5, fri: 5, saturday: 6, saturdays: 6, sat: 6,
};
const WEEKDAY_WORDS = new Set(["weekday", "weekdays", "workday", "workdays", "weekdays"]);
const WEEKEND_WORDS = new Set(["weekend", "weekends"]);
const RATE_UNITS: Record<string, number> = { second: 1, seconds: 1, minute: 60, minutes: 60, min: 60, hour: 3600, hours: 3600, hr: 3600, day: 86_400, days: 86_400, week: 604_800, weeks: 604_800 };
// Durations compare in minutes.
const DURATION_UNITS: Record<string, number> = { second: 1 / 60, seconds: 1 / 60, minute: 1, minutes: 1, min: 1, mins: 1, hour: 60, hours: 60, hr: 60, hrs: 60, day: 1440, days: 1440 };
const ENVIRONMENT_WORDS = new Set(["production", "prod", "staging", "stage", "development", "dev", "test", "testing", "qa", "sandbox", "live"]);
// Subjects that mean "whoever receives it": any e-mail address in the arguments is checked.
const RECIPIENT_WORDS = new Set(["anyon", "anybody", "someon", "peopl", "recipient", "address", "addresse", "anyon els", "external recipient"].map((w) => w));
const TIME_ZONE_ALIASES: Record<string, string> = { utc: "UTC", gmt: "UTC", z: "UTC" };

// Words that end an action phrase: the start of a condition, an exception or a written-after effect.
const ACTION_STOPS = new Set([
  ...CONDITION_INTROS, "unless", "except", "excluding", "only", "over", "above", "exceeding", "exceeds", "exceed", "more", "greater", "higher", "larger", "bigger",
  "under", "below", "less", "fewer", "lower", "smaller", "longer", "shorter", "between", "at", "in", "on", "outside", "to", "from", "before", "after", "during", "within", "per",
  "is", "are", "must", "should", "shall", "may", "can", "cannot", "require", "requires", "need", "needs", "always", "not", "no", "up",
]);

const isWord = (t: Token | undefined, ...norms: string[]): boolean => t?.kind === "word" && (norms.length === 0 || norms.includes(t.norm));

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

class Parser {
  i = 0;
  domain: string | null = null;
  timeZone: string | null = null;
  /** The word that introduced the atom being read ("when", "with"…). */
  lastIntro = "";
  constructor(readonly tokens: Token[]) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }
  done(): boolean {
    return this.i >= this.tokens.length;
  }
  /** True when the words of `seq` start at the cursor (+offset). */
  at(seq: Seq, offset = 0): boolean {
    return seq.every((w, k) => isWord(this.tokens[this.i + offset + k], w));
  }
  eat(seq: Seq): boolean {
    if (!this.at(seq)) return false;
    this.i += seq.length;
    return true;
  }
  eatAny(seqs: readonly Seq[]): Seq | undefined {
    const hit = seqs.find((s) => this.at(s));
    if (hit) this.i += hit.length;
    return hit;
  }
  fail(why: string): never {
    throw new Unplaced(this.i, why);
  }

  // sentence := [cond-first ","] effect actions [conditions] [suffix-effect [conditions]] exceptions*
  sentence(source: string): CompiledRule {
    let leading: Condition | null = null;
    if (isWord(this.peek(), "if", "when", "whenever", "while") && this.tokens.some((t) => t.kind === "comma")) {
      this.i++;
      leading = this.chain();
      if (this.peek()?.kind !== "comma") this.fail("a comma after the leading condition");
      this.i++;
      this.eat(["then"]);
    }
    let effect: Effect | "only_allow" | undefined;
    if (this.eatAny(ONLY_ALLOW_PREFIXES)) effect = "only_allow";
    else if (this.eatAny(BLOCK_PREFIXES)) effect = "block";
    else if (this.approvalPrefix()) effect = "require_approval";
    else if (this.eatAny(ALLOW_PREFIXES)) effect = "allow";

    const rate = this.leadingRate();
    const actionsStart = this.i;
    const actions = this.actions();
    const conditions: Condition[] = [];
    if (leading) conditions.push(leading);
    if (rate) conditions.push(rate);
    let only = false;
    const collect = () => {
      if (this.eat(["only"])) only = true;
      const c = this.chain();
      if (c) conditions.push(c);
    };
    collect();
    if (!effect) {
      const suffix = this.suffixEffect();
      if (!suffix) {
        // Nothing said what to do: the words taken for actions are the ones not placed.
        if (this.done()) this.i = actionsStart;
        this.fail("an effect (block, never, require approval, escalate, allow)");
      }
      effect = suffix;
      collect();
    }
    // "Escalate any action in the finance domain to a human approver": who approves, said last.
    if (effect === "require_approval") this.i += this.approverPhrase(0);
    const exceptions: Condition[] = [];
    while (!this.done()) {
      if (this.eat(["unless"])) {
        this.eatAny([["it", "is"], ["it's"]]);
        exceptions.push(this.required(this.chain(), "a condition after unless"));
      } else if (this.eatAny([["except", "when"], ["except", "if"], ["except", "for"], ["except"], ["excluding"], ["but", "not"]])) {
        exceptions.push(this.exception());
      } else if (this.peek()?.kind === "comma" && isWord(this.peek(1), "unless", "except", "excluding")) {
        this.i++;
      } else {
        this.fail("a condition or an exception");
      }
    }
    if (effect === "only_allow" || (effect === "allow" && only)) {
      // "Only allow X when C": X is blocked unless C holds (and unless any exception holds).
      if (conditions.length === 0) this.fail("a condition after only (e.g. only on weekdays)");
      const allowedWhen = conditions.length === 1 ? conditions[0]! : { kind: "and" as const, of: conditions };
      return this.finish(source, "block", actions, null, exceptions.length === 0 ? allowedWhen : { kind: "or", of: [allowedWhen, ...exceptions] });
    }
    const when = conditions.length === 0 ? null : conditions.length === 1 ? conditions[0]! : { kind: "and" as const, of: conditions };
    const unless = exceptions.length === 0 ? null : exceptions.length === 1 ? exceptions[0]! : { kind: "or" as const, of: exceptions };
    return this.finish(source, effect, actions, when, unless);
  }

  finish(source: string, effect: Effect, actions: ActionSelector, when: Condition | null, unless: Condition | null): CompiledRule {
    const tz = this.timeZone ?? "UTC";
    const zoned = (c: Condition | null): Condition | null => {
      if (!c) return c;
      switch (c.kind) {
        case "and":
        case "or":
          return { ...c, of: c.of.map((x) => zoned(x)!) };
        case "not":
          return { ...c, of: zoned(c.of)! };
        case "weekday":
        case "time":
          return { ...c, tz: c.tz || tz };
        default:
          return c;
      }
    };
    return { source, effect, actions: { ...actions, domain: this.domain }, when: zoned(when), unless: zoned(unless) };
  }

  required<T>(value: T | null, what: string): T {
    if (value === null) this.fail(what);
    return value;
  }

  approvalPrefix(): boolean {
    const start = this.i;
    if (this.eat(["escalate"])) {
      if (this.at(["to"]) && (ESCALATE_TARGETS.has(this.wordAt(1)) || ESCALATE_TARGETS.has(this.wordAt(2)))) {
        this.i += ESCALATE_TARGETS.has(this.wordAt(1)) ? 2 : 3;
      }
      return true;
    }
    if (this.eatAny(APPROVAL_VERBS) && this.eatAny(APPROVAL_NOUNS)) {
      if (this.peek()?.kind === "word" && APPROVAL_CONNECTORS.has((this.peek() as { norm: string }).norm)) this.i++;
      return true;
    }
    this.i = start;
    return false;
  }

  /** Length of "to a human approver", "to the finance manager", "to a human" at the offset; 0 when none. */
  approverPhrase(offset: number): number {
    if (!isWord(this.peek(offset), "to")) return 0;
    let k = offset + 1;
    while (DETERMINERS.has(this.wordAt(k))) k++;
    let last = -1;
    for (let j = k; j < k + 3 && this.peek(j)?.kind === "word" && !ACTION_STOPS.has(this.wordAt(j)); j++) {
      if (ESCALATE_TARGETS.has(this.wordAt(j))) last = j;
    }
    return last < 0 ? 0 : last + 1 - offset;
  }

  wordAt(offset: number): string {
    const t = this.peek(offset);
    return t?.kind === "word" ? t.norm : "";
  }

  suffixEffect(): Effect | "only_allow" | undefined {
    const hit = SUFFIX_EFFECTS.find(([seq]) => this.at(seq));
    if (hit) {
      this.i += hit[0].length;
      return hit[1];
    }
    const start = this.i;
    if (this.eatAny(SUFFIX_APPROVAL_VERBS) && this.eatAny(APPROVAL_NOUNS)) return "require_approval";
    this.i = start;
    return undefined;
  }

  // "more than 3 refunds per hour": the rate is written around the action.
  leadingRate(): Condition | null {
    const start = this.i;
    const op = this.comparator();
    if (!op) return null;
    const count = this.peek();
    if (count?.kind !== "number") {
      this.i = start;
      return null;
    }
    // Look ahead for "per <unit>" after the action words.
    let k = this.i + 1;
    while (k < this.tokens.length && this.tokens[k]!.kind === "word" && !isWord(this.tokens[k], "per", "a", "an", "every", "each", "in", "within")) k++;
    const save = this.i;
    this.i = k;
    const window = this.rateWindow();
    if (window === null) {
      this.i = start;
      return null;
    }
    const end = this.i;
    // Move the action words between the count and the window to the cursor, and drop the rate's tokens.
    const actionTokens = this.tokens.slice(save + 1, k);
    this.tokens.splice(save, end - save, ...actionTokens);
    this.i = save;
    return { kind: "rate", op: op === "gte" ? "gte" : "gt", count: count.value, window_seconds: window };
  }

  /** "per hour", "an hour", "every 10 minutes", "in a day", "within 1 hour". Null when none is here. */
  rateWindow(): number | null {
    const start = this.i;
    this.eat(["times"]);
    if (this.eatAny([["per"], ["a"], ["an"], ["every"], ["each"], ["in", "a"], ["in", "an"], ["in", "any"], ["within", "a"], ["within", "an"], ["in"], ["within"]])) {
      let n = 1;
      const t = this.peek();
      if (t?.kind === "number") {
        n = t.value;
        this.i++;
      }
      const unit = RATE_UNITS[this.wordAt(0)];
      if (unit) {
        this.i++;
        return n * unit;
      }
    }
    this.i = start;
    return null;
  }

  comparator(): Comparator | undefined {
    const t = this.peek();
    if (t?.kind === "op") {
      this.i++;
      return t.op;
    }
    const hit = COMPARE_PHRASES.find(([seq]) => this.at(seq));
    if (!hit) return undefined;
    this.i += hit[0].length;
    return hit[1];
  }

  // actions := wildcard | term ("," | "or" | "and" term)* ; with an optional domain phrase
  actions(): ActionSelector {
    const selector: ActionSelector = { any: false, terms: [], domain: null };
    let current: string[] = [];
    const close = () => {
      if (current.length > 0) {
        const text = current.join(" ");
        const specific = current.filter((w) => !GENERIC_NOUNS.has(w));
        const stems = (specific.length > 0 ? specific : current).flatMap((w) => splitWords(w)).map(stem);
        selector.terms.push({ text, stems: [...new Set(stems)] });
      }
      current = [];
    };
    while (!this.done()) {
      if (this.domainPhrase()) continue;
      const t = this.peek()!;
      if (t.kind === "quoted") {
        current.push(t.value);
        this.i++;
        continue;
      }
      if (t.kind === "comma" || isWord(t, "or", "and", "and/or", "nor")) {
        const next = this.peek(1);
        // A comma or conjunction followed by a condition belongs to the conditions.
        if (next && this.startsActionWord(next)) {
          close();
          this.i++;
          continue;
        }
        break;
      }
      if (t.kind !== "word") break;
      if (this.atWildcard()) {
        // "any action" selects everything; "delete anything" is the verb with any object.
        if (current.length === 0) selector.any = true;
        continue;
      }
      if (ACTION_STOPS.has(t.norm)) break;
      if (DETERMINERS.has(t.norm) || ((t.norm === "calls" || t.norm === "requests" || t.norm === "use") && isWord(this.peek(1), "to", "of"))) {
        this.i += DETERMINERS.has(t.norm) ? 1 : 2;
        continue;
      }
      current.push(t.norm);
      this.i++;
    }
    close();
    if (selector.terms.length > 0) selector.any = false;
    if (!selector.any && selector.terms.length === 0) this.fail("which actions (a tool name, words such as refunds, or any action)");
    return selector;
  }

  startsActionWord(t: Token): boolean {
    if (t.kind === "quoted") return true;
    if (t.kind !== "word") return false;
    return !ACTION_STOPS.has(t.norm) || DETERMINERS.has(t.norm) || WILDCARD_WORDS.has(t.norm);
  }

  atWildcard(): boolean {
    if (WILDCARD_WORDS.has(this.wordAt(0))) {
      this.i++;
      return true;
    }
    let k = 0;
    while (DETERMINERS.has(this.wordAt(k))) k++;
    if (WILDCARD_NOUNS.has(this.wordAt(k)) && (k > 0 || this.wordAt(k) === "actions") && !this.startsMoreTerm(k + 1)) {
      this.i += k + 1;
      return true;
    }
    return false;
  }

  // "any tool call" is a wildcard; "any refund call" is not (the word after decides).
  startsMoreTerm(offset: number): boolean {
    const t = this.peek(offset);
    return t?.kind === "word" && !ACTION_STOPS.has(t.norm) && !WILDCARD_NOUNS.has(t.norm) && !isWord(t, "or", "and");
  }

  /** "in the finance domain", "in domain finance", "within the hr domain": the actions' domain. */
  domainPhrase(): boolean {
    const start = this.i;
    if (this.eatAny([["in"], ["within"], ["for"], ["inside"]])) {
      this.eat(["the"]);
      if (this.eat(["domain"])) {
        const name = this.peek();
        if (name?.kind === "word" || name?.kind === "quoted") {
          this.setDomain(name.kind === "word" ? name.norm : name.value);
          this.i++;
          return true;
        }
      } else {
        const name = this.peek();
        if ((name?.kind === "word" || name?.kind === "quoted") && isWord(this.peek(1), "domain")) {
          this.setDomain(name.kind === "word" ? name.norm : name.value);
          this.i += 2;
          return true;
        }
      }
    }
    this.i = start;
    return false;
  }

  setDomain(name: string): void {
    if (this.domain && this.domain !== name) this.fail(`one domain per rule (already ${this.domain})`);
    this.domain = name;
  }

  // chain := and-group ("or" and-group)*
  chain(): Condition | null {
    const groups: Condition[] = [];
    let group = this.andGroup();
    if (group) groups.push(group);
    while (group && isWord(this.peek(), "or") && this.startsAtom(1)) {
      this.i++;
      group = this.andGroup();
      if (group) groups.push(group);
    }
    if (groups.length === 0) return null;
    return groups.length === 1 ? groups[0]! : { kind: "or", of: groups };
  }

  // and-group := atom (["and" | ","] atom)*
  andGroup(): Condition | null {
    const atoms: Condition[] = [];
    for (;;) {
      if (atoms.length > 0 && (isWord(this.peek(), "and") || this.peek()?.kind === "comma") && this.startsAtom(1)) this.i++;
      else if (!this.startsAtom(0)) break;
      // Without "and", only a keyword starts the next atom ("on weekdays between 9am and 5pm"); two
      // bare subjects in a row ("the moon is wobbly purple sideways") are words the rule cannot place.
      else if (atoms.length > 0 && !this.startsKeywordAtom()) break;
      const before = this.i;
      const atom = this.introducedAtom();
      if (atom === undefined) {
        if (this.i === before) break;
        continue; // a domain phrase: consumed, no condition
      }
      atoms.push(atom);
    }
    if (atoms.length === 0) return null;
    return atoms.length === 1 ? atoms[0]! : { kind: "and", of: atoms };
  }

  startsAtom(offset: number): boolean {
    const t = this.peek(offset);
    if (!t) return false;
    if (t.kind !== "word") return t.kind === "op" || t.kind === "money" || t.kind === "percent";
    if (isWord(t, "unless", "except", "excluding", "or", "and", "only", "but")) return false;
    if (this.approverPhrase(offset) > 0) return false;
    if (SUFFIX_EFFECTS.some(([seq]) => this.at(seq, offset)) || SUFFIX_APPROVAL_VERBS.some((seq) => this.at(seq, offset))) return false;
    return true;
  }

  startsKeywordAtom(): boolean {
    const t = this.peek();
    if (!t) return false;
    if (t.kind !== "word") return t.kind === "op" || t.kind === "money" || t.kind === "percent";
    return ACTION_STOPS.has(t.norm) || CONDITION_INTROS.has(t.norm) || WEEKDAY_WORDS.has(t.norm) || WEEKEND_WORDS.has(t.norm);
  }

  /** An atom with its optional introducer; undefined when only a domain phrase was read. */
  introducedAtom(): Condition | undefined {
    if (this.domainPhrase()) return undefined;
    const start = this.i;
    this.lastIntro = "";
    if (this.peek()?.kind === "word" && CONDITION_INTROS.has(this.wordAt(0))) {
      this.lastIntro = this.wordAt(0);
      this.i++;
      this.eatAny([["it", "is"], ["it's"], ["the", "action", "is"]]);
      if (this.done()) {
        this.i = start;
        this.fail("a condition");
      }
    }
    if (this.eat(["not"])) return { kind: "not", of: this.atom() };
    return this.atom();
  }

  atom(): Condition {
    const t = this.peek();
    if (!t) this.fail("a condition");
    return (
      this.calendarAtom() ??
      this.clockAtom() ??
      this.rateAtom() ??
      this.outsideAtom({ text: "a recipient", stems: [], implied: "recipient" }) ??
      this.placeAtom() ??
      this.impliedCompare() ??
      this.subjectAtom()
    );
  }

  // "on weekdays", "on weekends", "on monday through friday", "on saturdays and sundays"
  calendarAtom(): Condition | null {
    const start = this.i;
    this.eatAny([["on"], ["during"], ["at"], ["over"]]);
    this.eat(["the"]);
    this.eat(["a"]);
    const w = this.wordAt(0);
    if (WEEKDAY_WORDS.has(w) || this.at(["business", "days"]) || this.at(["working", "days"])) {
      this.i += WEEKDAY_WORDS.has(w) ? 1 : 2;
      return { kind: "weekday", days: [1, 2, 3, 4, 5], tz: "" };
    }
    if (WEEKEND_WORDS.has(w)) {
      this.i++;
      return { kind: "weekday", days: [0, 6], tz: "" };
    }
    if (DAYS[w] !== undefined) {
      const days = new Set<number>();
      let from = DAYS[w]!;
      this.i++;
      days.add(from);
      for (;;) {
        if (this.eatAny([["through"], ["thru"], ["to"], ["until"], ["-"]]) && DAYS[this.wordAt(0)] !== undefined) {
          const to = DAYS[this.wordAt(0)]!;
          this.i++;
          for (let d = from; d !== to; d = (d + 1) % 7) days.add(d);
          days.add(to);
          from = to;
          continue;
        }
        if ((isWord(this.peek(), "and", "or") || this.peek()?.kind === "comma") && DAYS[this.wordAt(1)] !== undefined) {
          this.i++;
          from = DAYS[this.wordAt(0)]!;
          days.add(from);
          this.i++;
          continue;
        }
        break;
      }
      return { kind: "weekday", days: [...days].sort(), tz: "" };
    }
    this.i = start;
    return null;
  }

  // "between 09:00 and 17:00", "before 9am", "after 6pm", "from 22:00 to 06:00", "outside business hours"
  clockAtom(): Condition | null {
    const start = this.i;
    const hours = (negate: boolean): Condition => {
      const within: Condition = { kind: "and", of: [{ kind: "weekday", days: [1, 2, 3, 4, 5], tz: "" }, { kind: "time", from: 9 * 60, to: 17 * 60, tz: "" }] };
      this.timeZoneSuffix();
      return negate ? { kind: "not", of: within } : within;
    };
    for (const lead of [["outside"], ["outside", "of"]] as const) {
      if (this.at([...lead, "business", "hours"]) || this.at([...lead, "working", "hours"]) || this.at([...lead, "office", "hours"])) {
        this.i += lead.length + 2;
        return hours(true);
      }
    }
    for (const lead of [["during"], ["within"], ["in"]] as const) {
      if (this.at([...lead, "business", "hours"]) || this.at([...lead, "working", "hours"]) || this.at([...lead, "office", "hours"])) {
        this.i += lead.length + 2;
        return hours(false);
      }
    }
    if (this.eatAny([["at", "night"], ["overnight"], ["during", "the", "night"]])) {
      const night: Condition = { kind: "time", from: 22 * 60, to: 6 * 60, tz: "" };
      this.timeZoneSuffix();
      return night;
    }
    const time = (): number | null => {
      const t = this.peek();
      if (t?.kind !== "time") return null;
      this.i++;
      return t.minutes;
    };
    if (this.eatAny([["between"], ["from"]])) {
      const from = time();
      if (from !== null) {
        if (!this.eatAny([["and"], ["to"], ["until"], ["till"], ["-"]])) this.fail("the end of the time window (and 17:00)");
        const to = time();
        if (to === null) this.fail("a time such as 17:00 or 5pm");
        this.timeZoneSuffix();
        return { kind: "time", from, to, tz: "" };
      }
      this.i = start;
      return null;
    }
    if (this.eatAny([["before"], ["until"], ["earlier", "than"]])) {
      const to = time();
      if (to !== null) {
        this.timeZoneSuffix();
        return { kind: "time", from: 0, to, tz: "" };
      }
    } else if (this.eatAny([["after"], ["later", "than"], ["from"]])) {
      const from = time();
      if (from !== null) {
        this.timeZoneSuffix();
        return { kind: "time", from, to: 24 * 60, tz: "" };
      }
    }
    this.i = start;
    return null;
  }

  /** "utc", "europe/paris", "(utc)", "in utc", "berlin time" is not a zone name; "europe/berlin time" is. */
  timeZoneSuffix(): void {
    const start = this.i;
    this.eat(["in"]);
    const t = this.peek();
    if (t?.kind === "word") {
      const zone = TIME_ZONE_ALIASES[t.norm] ?? (t.norm.includes("/") ? canonicalZone(t.text) : undefined);
      if (zone && isTimeZone(zone)) {
        this.i++;
        this.eat(["time"]);
        if (this.timeZone && this.timeZone !== zone) this.fail(`one time zone per rule (already ${this.timeZone})`);
        this.timeZone = zone;
        return;
      }
    }
    this.i = start;
  }

  // "more than 3 per hour", "over 10 times a day"
  rateAtom(): Condition | null {
    const start = this.i;
    const op = this.comparator();
    const count = this.peek();
    if (op && (op === "gt" || op === "gte") && count?.kind === "number") {
      this.i++;
      const window = this.rateWindow();
      if (window !== null) return { kind: "rate", op, count: count.value, window_seconds: window };
    }
    this.i = start;
    return null;
  }

  /** "at the globex.test domain", "in example.org", "@acme.com": the domains, or null. */
  insideDomain(): string[] | null {
    const start = this.i;
    this.eatAny([["at"], ["in"], ["on"], ["from"], ["within"]]);
    const domains = this.domainList();
    if (domains.length === 0) this.i = start;
    return domains.length === 0 ? null : domains;
  }

  /** "[the] acme.com [domain] [or example.org]": the domains read, none when no domain is here. */
  domainList(): string[] {
    this.eat(["the"]);
    const domains: string[] = [];
    while (this.peek()?.kind === "domain") {
      domains.push((this.peek() as { domain: string }).domain);
      this.i++;
      this.eat(["domain"]);
      if ((isWord(this.peek(), "or", "and") || this.peek()?.kind === "comma") && this.peek(1)?.kind === "domain") this.i++;
    }
    return domains;
  }

  /** "outside acme.com", "outside @acme.com or example.org". */
  outsideAtom(subject: Subject): Condition | null {
    const start = this.i;
    if (!this.eatAny([["outside", "of"], ["outside"], ["not", "at"], ["not", "in"]])) return null;
    const domains = this.domainList();
    if (domains.length === 0) {
      this.i = start;
      return null;
    }
    return { kind: "outside_domain", subject, domains };
  }

  // "in production", "to staging", "in production or staging", "to acme.com" (recipient inside a domain)
  placeAtom(): Condition | null {
    const start = this.i;
    if (!this.eatAny([["in"], ["on"], ["to"], ["against"], ["for"]])) return null;
    // "to recipients outside acme.com", "for customers whose tier is gold": a subject, not a place.
    const afterPreposition = this.i;
    let k = 0;
    while (this.bareValueAt(k) || DETERMINERS.has(this.wordAt(k))) k++;
    const domainAfter = isWord(this.peek(k), "at", "in", "on", "from", "within") && (this.peek(k + 1)?.kind === "domain" || this.peek(k + 2)?.kind === "domain");
    if (k > 0 && (isWord(this.peek(k), "outside", "whose", "with", "not") || domainAfter || this.subjectFollows(k - 1))) {
      this.i = afterPreposition;
      return this.subjectAtom();
    }
    // "scale to zero replicas", "set to 3": the named argument equals the number.
    if (isWord(this.tokens[start], "to") && this.peek()?.kind === "number") {
      const q = this.quantity()!;
      const words: string[] = [];
      while (this.bareValueAt(0) && !ENVIRONMENT_WORDS.has(this.wordAt(0))) {
        words.push(this.wordAt(0));
        this.i++;
      }
      const subject: Subject = words.length > 0 ? { text: words.join(" "), stems: words.flatMap((w) => splitWords(w)).map(stem) } : implied({ text: "", stems: [] }, q);
      return { kind: "compare", subject, op: "eq", value: q };
    }
    this.eat(["the"]);
    const t = this.peek();
    if (t?.kind === "domain") {
      this.i++;
      return { kind: "outside_domain", subject: { text: "a recipient", stems: [], implied: "recipient" }, domains: [t.domain], inside: true };
    }
    const first = this.value();
    // "in"/"to" take any place ("in eu-west-1"); the looser prepositions only a known environment.
    const loose = !this.tokens[start] || !isWord(this.tokens[start], "in", "to");
    if (first === null || (loose && !ENVIRONMENT_WORDS.has(first) && !isWord(this.peek(), "environment", "env"))) {
      this.i = start;
      return null;
    }
    const values = [first];
    this.eatAny([["environment"], ["env"]]);
    while ((isWord(this.peek(), "or") || this.peek()?.kind === "comma") && this.bareValueAt(1)) {
      this.i++;
      values.push(this.value()!);
      this.eatAny([["environment"], ["env"]]);
    }
    return { kind: "equals", subject: { text: "the environment", stems: [], implied: "environment" }, values, negate: false };
  }

  /** A value word that is not the start of another construct. */
  bareValueAt(offset: number): boolean {
    const t = this.peek(offset);
    if (t?.kind === "quoted") return true;
    return t?.kind === "word" && !ACTION_STOPS.has(t.norm) && !DETERMINERS.has(t.norm) && !isWord(t, "and", "or", "unless", "except");
  }

  value(): string | null {
    const t = this.peek();
    if (t?.kind === "quoted") {
      this.i++;
      return t.value;
    }
    if (this.bareValueAt(0)) {
      this.i++;
      return (t as { norm: string }).norm;
    }
    return null;
  }

  quantity(): Quantity | null {
    const t = this.peek();
    if (!t) return null;
    if (t.kind === "money") {
      this.i++;
      return { value: t.value, currency: t.currency, text: t.text };
    }
    if (t.kind === "percent") {
      this.i++;
      this.eat(["off"]);
      return { value: t.value, percent: true, text: t.text };
    }
    if (t.kind === "number") {
      this.i++;
      const unit = DURATION_UNITS[this.wordAt(0)];
      if (unit !== undefined) {
        this.i++;
        return { value: t.value * unit, minutes: true, text: `${t.text} ${this.tokens[this.i - 1]!.text}` };
      }
      return { value: t.value, text: t.text };
    }
    return null;
  }

  /** comparator quantity ["or more" | "or less"], or "between" quantity "and" quantity. */
  comparison(subject: Subject): Condition | null {
    const start = this.i;
    if (this.eat(["between"])) {
      const low = this.quantity();
      if (low) {
        if (!this.eatAny([["and"], ["to"], ["-"]])) this.fail("the upper bound (between 100 and 500)");
        const high = this.required(this.quantity(), "the upper bound (between 100 and 500)");
        if (!low.currency && high.currency) low.currency = high.currency;
        if (!high.currency && low.currency) high.currency = low.currency;
        return { kind: "compare", subject: implied(subject, low), op: "between", value: low, high };
      }
      this.i = start;
      return null;
    }
    let op = this.comparator();
    if (!op) {
      // "$1,000 or more", "20% or less": the comparison comes after the value.
      const q = this.quantity();
      if (q) {
        if (this.eatAny([["or", "more"], ["or", "higher"], ["or", "above"], ["and", "above"], ["and", "up"]])) return { kind: "compare", subject: implied(subject, q), op: "gte", value: q };
        if (this.eatAny([["or", "less"], ["or", "fewer"], ["or", "below"], ["and", "below"], ["and", "under"]])) return { kind: "compare", subject: implied(subject, q), op: "lte", value: q };
      }
      this.i = start;
      return null;
    }
    const q = this.quantity();
    if (!q) {
      this.i = start;
      return null;
    }
    if (this.eat(["or", "more"]) || this.eat(["or", "higher"]) || this.eat(["or", "above"])) op = "gte";
    else if (this.eat(["or", "less"]) || this.eat(["or", "fewer"]) || this.eat(["or", "below"])) op = "lte";
    return { kind: "compare", subject: implied(subject, q), op, value: q };
  }

  impliedCompare(): Condition | null {
    return this.comparison({ text: "", stems: [] });
  }

  // subject-atom := subject-words (copula value | copula? comparison | "outside" domains | "in" values)
  subjectAtom(): Condition {
    const words: string[] = [];
    const start = this.i;
    while (this.peek()?.kind === "word") {
      const w = this.wordAt(0);
      if (words.length > 0 && (ACTION_STOPS.has(w) || COPULAS.some((s) => this.at(s)) || NEGATED_COPULAS.some((s) => this.at(s)) || COMPARE_PHRASES.some(([s]) => this.at(s)))) break;
      if (words.length === 0 && ACTION_STOPS.has(w) && !DETERMINERS.has(w)) break;
      if (!DETERMINERS.has(w) || words.length > 0) words.push(w);
      this.i++;
    }
    if (words.length === 0) {
      this.i = start;
      this.fail("a condition (over $500, in production, on weekdays, when battery is below 20%)");
    }
    const subject: Subject = { text: words.join(" "), stems: words.flatMap((w) => splitWords(w)).map(stem) };
    const compared = this.comparison(subject);
    if (compared) return compared;
    // "windows that start on a Saturday", "jobs that run after 22:00": days and hours of a time argument.
    const timed = this.calendarAtom() ?? this.clockAtom();
    if (timed) return withTimeSubject(timed, subject);
    // "recipients at the globex.test domain", "addresses in example.org": inside a domain.
    const inside = this.insideDomain();
    if (inside) return { kind: "outside_domain", subject: RECIPIENT_WORDS.has(subject.stems.join(" ")) ? { ...subject, implied: "recipient" } : subject, domains: inside, inside: true };
    // "with the resolution spam": the last word is the value.
    if (this.lastIntro === "with" && words.length >= 2 && !this.startsAtom(0)) {
      const value = words.at(-1)!;
      const rest = words.slice(0, -1);
      return { kind: "equals", subject: { text: rest.join(" "), stems: rest.flatMap((w) => splitWords(w)).map(stem) }, values: [value], negate: false };
    }
    const outside = this.outsideAtom(RECIPIENT_WORDS.has(subject.stems.join(" ")) ? { ...subject, implied: "recipient" } : subject);
    if (outside) return outside;
    const negated = Boolean(this.eatAny(NEGATED_COPULAS));
    if (!negated) this.eatAny(COPULAS);
    const afterCopula = this.comparison(subject) ?? this.outsideAtom(subject);
    if (afterCopula) return negated ? { kind: "not", of: afterCopula } : afterCopula;
    let negate = negated;
    if (this.eat(["not", "in"])) negate = !negate;
    else if (this.eat(["in"]) || this.eat(["one", "of"])) this.eat(["the"]);
    else if (this.eat(["not"])) negate = !negate;
    this.eat(["the"]);
    const values: string[] = [];
    const t = this.peek();
    if (t?.kind === "number" || t?.kind === "domain") {
      values.push(t.kind === "number" ? String(t.value) : t.domain);
      this.i++;
    } else {
      const v = this.value();
      if (v === null) {
        this.i = start;
        this.fail(`a comparison after "${subject.text}" (is over 500, is production, is not gold)`);
      }
      values.push(v);
    }
    while ((isWord(this.peek(), "or") || this.peek()?.kind === "comma") && this.bareValueAt(1) && !this.subjectFollows(1)) {
      this.i++;
      values.push(this.value()!);
    }
    return { kind: "equals", subject, values, negate };
  }

  // "when tier is gold or region is eu": after "or", a word followed by a copula starts a new atom.
  subjectFollows(offset: number): boolean {
    return COPULAS.some((s) => this.at(s, offset + 1)) || NEGATED_COPULAS.some((s) => this.at(s, offset + 1)) || COMPARE_PHRASES.some(([s]) => this.at(s, offset + 1));
  }

  /** After "except": a condition, or actions ("except get_status", "except reads"). */
  exception(): Condition {
    const start = this.i;
    try {
      const c = this.chain();
      if (c) return c;
    } catch (error) {
      if (!(error instanceof Unplaced)) throw error;
    }
    this.i = start;
    const selector = this.actions();
    if (selector.any) this.fail("which actions are excepted");
    return { kind: "action", terms: selector.terms };
  }
}

function withTimeSubject(c: Condition, subject: Subject): Condition {
  switch (c.kind) {
    case "weekday":
    case "time":
      return { ...c, subject };
    case "and":
    case "or":
      return { ...c, of: c.of.map((x) => withTimeSubject(x, subject)) };
    case "not":
      return { ...c, of: withTimeSubject(c.of, subject) };
    default:
      return c;
  }
}

function implied(subject: Subject, q: Quantity): Subject {
  if (subject.stems.length > 0) return subject;
  if (q.currency) return { text: "the amount", stems: [], implied: "amount" };
  if (q.percent) return { text: "the percentage", stems: [], implied: "percent" };
  if (q.minutes) return { text: "the duration", stems: [], implied: "duration" };
  return { text: "the amount", stems: [], implied: "amount" };
}

function canonicalZone(text: string): string {
  return text
    .split("/")
    .map((part) => part.split("_").map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join("_"))
    .join("/");
}

const EXAMPLES = ['"Block refunds over $500"', '"Require approval for payments above 1,000 EUR"', '"Never delete anything in production"', '"Only allow deployments on weekdays between 09:00 and 17:00"'];

function failure(sentence: string, tokens: Token[], at: number, why: string): ParseFailure {
  const unplaced: string[] = [];
  for (let k = at; k < tokens.length && unplaced.length < 6; k++) {
    const t = tokens[k]!;
    if (unplaced.length > 0 && (t.kind === "comma" || (t.kind === "word" && (ACTION_STOPS.has(t.norm) || t.norm === "and" || t.norm === "or")))) break;
    unplaced.push(t.text);
  }
  const placedWords = tokens.slice(0, at).map((t) => t.text).join(" ");
  const where = unplaced.length > 0 ? `could not place "${unplaced.join(" ")}"` : "the sentence ends too early";
  return {
    message: `${where}${placedWords ? ` after "${placedWords}"` : ""}: expected ${why}.`,
    unplaced,
    position: at,
    suggestion: `Write the effect, the actions, then the conditions, e.g. ${EXAMPLES.join(", ")}.`,
  };
}

export const MAX_RULE_LENGTH = 500;

/** Parses one sentence. Never throws: every failure is a ParseFailure naming the unplaced words. */
export function parseRule(sentence: string): ParseResult {
  const source = sentence.trim().replace(/\s+/g, " ");
  if (source.length === 0) return { ok: false, error: { message: "The rule is empty.", unplaced: [], position: 0, suggestion: `Write a rule such as ${EXAMPLES[0]}.` } };
  if (source.length > MAX_RULE_LENGTH) {
    return { ok: false, error: { message: `The rule is longer than ${MAX_RULE_LENGTH} characters.`, unplaced: [], position: 0, suggestion: "Split it into several rules." } };
  }
  let tokens: Token[];
  try {
    tokens = tokenize(source);
  } catch (error) {
    if (error instanceof LexError) {
      return { ok: false, error: { message: `could not read "${error.fragment}".`, unplaced: [error.fragment], position: error.position, suggestion: `Use words, numbers, amounts ($500, 1,000 EUR), percentages and times (09:00); e.g. ${EXAMPLES[0]}.` } };
    }
    return { ok: false, error: { message: "could not read the rule.", unplaced: [], position: 0, suggestion: EXAMPLES[0]! } };
  }
  const parser = new Parser(tokens);
  try {
    const rule = parser.sentence(source);
    return { ok: true, rule };
  } catch (error) {
    if (error instanceof Unplaced) return { ok: false, error: failure(source, parser.tokens, error.at, error.why) };
    return { ok: false, error: { message: `could not parse the rule (${(error as Error).message}).`, unplaced: [], position: 0, suggestion: EXAMPLES[0]! } };
  }
}

/** A `rule` text may hold several sentences ("...; ..." or "... . ..."): one clause each. */
export function splitClauses(text: string): string[] {
  return text
    .split(/;|\.\s+(?=[A-Za-z])|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
