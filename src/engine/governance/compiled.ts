// The compiled form of a policy sentence: plain JSON, stored with the policy version and shown to its
// author. The evaluator turns it into closures once per load; nothing here is interpreted per word at
// decision time. Format 2 (docs/policies.md): actions and subjects are lemmas and verb classes from the
// language layer (src/engine/language), values are typed (money, percent, quantities with units).

export type Effect = "block" | "require_approval" | "allow";

/**
 * The `tz` of a clock condition said in "local time" with no zone: the clock of the place the action happens,
 * which is its own time as written (in the offset it carries); the time it runs has no place, so UTC. Other
 * values are IANA zones, or "" for UTC.
 */
export const LOCAL_ZONE = "local";

/** One way the sentence names actions: "refunds", "delete customer records", "robot motion". */
export interface ActionTerm {
  /** The words as written, for restatements. */
  text: string;
  /** Verbs (or nouns of action) of the phrase, as lemmas: "refunds" → refund, "publishing" → publish. */
  verbs: string[];
  /** Other content words (objects and their modifiers) as lemmas: "customer phone numbers" → customer, phone, number. */
  objects: string[];
  /** A quoted phrase: every word must name the tool. */
  exact?: boolean;
  /**
   * The verb is a participle after its noun ("drone flights planned with …", "control flown by helicopter"):
   * it says which of the things, so a tool that makes or schedules them is covered whatever its own verb.
   */
  described?: boolean;
}

/** Which actions a rule is about. */
export interface ActionSelector {
  /** "any action", "anything": every action (of the domain, when one is given). */
  any: boolean;
  terms: ActionTerm[];
  /** The actions' domain, from "in the finance domain" or the policy's `domain`. */
  domain: string | null;
}

/** What a condition is about: words naming an argument ("battery", "the interest rate") or nothing. */
export interface Subject {
  text: string;
  /** Lemmas of the subject's content words, head (the noun that names it) last. */
  words: string[];
  /** Set when the sentence named no subject: the kind of value decides where to look. */
  implied?: "amount" | "percent" | "count" | "quantity" | "time";
  /** A count of things ("more than 100 recipients"): a number or the length of a list argument. */
  count?: boolean;
  /** The size of a change ("fare adjustments beyond 15%"): compared as an absolute value. */
  magnitude?: boolean;
  /** With `magnitude`: only a change that way counts ("increases", "raise … by more than 8%"). */
  direction?: "up" | "down";
  /**
   * With `implied: "time"`: a tool with no time of its own is read at the time it runs ("a pickup later
   * than 2pm" reads `pickup_time`, and a tool without one, the clock).
   */
  orNow?: boolean;
}

export interface Value {
  value: number;
  /** ISO 4217 code for money ("$500" → USD). */
  currency?: string;
  /** Only cents were named ("18 cents"): the currency is the argument's own, whichever it is. */
  anyCurrency?: boolean;
  /** A percentage as written (15 for "15%"); compared with fractions (0.15) when the argument is one. */
  percent?: boolean;
  /** A quantity's unit (js-quantities name) and kind (mass, speed, time…). */
  unit?: string;
  kind?: string;
  /** The words the author wrote, for restatements. */
  text: string;
}

export type Comparator = "gt" | "gte" | "lt" | "lte" | "eq" | "neq" | "between";

export type Condition =
  | { kind: "and"; of: Condition[] }
  | { kind: "or"; of: Condition[] }
  | { kind: "not"; of: Condition }
  | {
      kind: "compare";
      subject: Subject;
      op: Comparator;
      value: Value;
      high?: Value;
      /**
       * "booked fewer than 14 days before handover": a time between the action's own date and another
       * date it carries, named by `from` (`after`: the own date comes later). An action without both dates
       * is compared as the value alone ("days_since_purchase").
       */
      since?: { from: Subject; after: boolean };
    }
  /**
   * An argument equals one of the values ("in production", "tier bronze", "to #general", "marked urgent").
   * With a subject, that argument; without one, any short argument, the tool's own words, or an argument
   * whose name says what the value is (an environment).
   */
  | {
      kind: "equals";
      subject: Subject;
      values: string[];
      negate: boolean;
      category?: boolean;
      /**
       * A common noun where the action goes, comes from, happens or passes ("to the river", "from the
       * collection", "through the assistant"): the preposition. Another value rules it out only in an
       * argument named for that role (`destination`, `source`, `location`, `channel`); an action that
       * does not say is unknown, never ruled out by its other values.
       */
      setting?: Setting;
    }
  /** A yes/no argument named by words ("a forklift is active", "tests have not passed"). */
  | { kind: "flag"; subject: Subject; expect: boolean }
  /** Text containing, starting or ending with a value ("whose title mentions draft"). */
  | { kind: "text"; subject: Subject; mode: "contains" | "starts" | "ends"; value: string; negate: boolean }
  /** One argument against another ("whose requested sum exceeds the approved limit"); no subject: the amount. */
  /** `factor`: "above 90% of rated load" compares with 0.9 times the other argument. */
  | { kind: "compare_fields"; subject: Subject; op: Exclude<Comparator, "between">; other: Subject; factor?: number }
  /** Two arguments of one kind that differ ("a shipping address in another region than billing"). */
  | { kind: "differ"; head: string; negate: boolean }
  /**
   * A date of the action before or after the moment it is decided ("matches that have taken place",
   * "licences that have expired", "visits in the future"): the date argument the subject names (the only
   * date argument when it names none), read against the action's clock.
   */
  | { kind: "dated"; subject: Subject; past: boolean }
  /** Any recipient address outside the domains (subdomains are inside); with `inside`, any address in them. */
  | { kind: "outside_domain"; subject: Subject; domains: string[]; inside?: boolean }
  /**
   * Days are 0 (Sunday) to 6 (Saturday), in the rule's time zone. Of the time the action runs, or with a
   * subject ("inspections that begin on a Sunday") of the action's own time argument.
   */
  | { kind: "weekday"; days: number[]; tz: string; subject?: Subject }
  /**
   * Days of the year as month × 100 + day (1201 is 1 December), both ends included; `to` < `from` wraps past
   * the new year ("from December 1 through February"). Of the time the action runs, or of its own date.
   */
  | { kind: "dates"; from: number; to: number; tz: string; subject?: Subject }
  /**
   * Minutes of the day, `from` inclusive (exclusive with `after`: "after 14:00", "later than 2pm") and `to`
   * exclusive; `to` < `from` wraps past midnight.
   */
  | { kind: "time"; from: number; to: number; tz: string; subject?: Subject; after?: boolean }
  /** True when this action would make the count of matching actions in the window exceed the limit. */
  /** `per`: counted only over actions for the same party as this one ("2 password resets per user"). */
  /** `where`: counted only over earlier actions that meet it too ("2 payouts over $5,000 a day"). */
  | { kind: "rate"; op: "gt" | "gte"; count: number; window_seconds: number; per?: Subject; where?: Condition }
  /** True when the action itself matches: "except get_status", "unless it is a refund". */
  | { kind: "action"; terms: ActionTerm[] };

export type Setting = "to" | "from" | "in" | "via";

export interface CompiledRule {
  /** The sentence as written. */
  source: string;
  effect: Effect;
  actions: ActionSelector;
  when: Condition | null;
  unless: Condition | null;
  /** Readings the parser also found and set aside (why), for the author. */
  alternatives?: string[];
  /** Words no step of the parser placed: shown back to the author as not understood. */
  ignored?: string[];
  /**
   * Sentences after this clause that state no effect ("larger extracts go through the data team"): kept
   * as the author's note, shown back with a warning, and no part of any rule.
   */
  notes?: string[];
  /** Sentences after it that exempt something from it ("Emergencies are exempt."), folded into its `unless`. */
  exemptions?: string[];
  format?: 2;
}

export interface ParseFailure {
  message: string;
  /** Words the language could not place, in order. */
  unplaced: string[];
  /** Zero-based index of the first unplaced word among the sentence's words. */
  position: number;
  suggestion: string;
  /** Readings that disagree in effect, action or field, when that is why the sentence is refused. */
  candidates?: string[];
}

export type ParseResult = { ok: true; rule: CompiledRule } | { ok: false; error: ParseFailure };
