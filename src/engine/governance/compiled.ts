// The compiled form of a policy sentence: plain JSON, stored with the policy version and shown to its
// author. The evaluator turns it into closures once per load; nothing here is interpreted per word at
// decision time.

export type Effect = "block" | "require_approval" | "allow";

/** Which actions a rule is about. */
export interface ActionSelector {
  /** "any action", "anything": every action (of the domain, when one is given). */
  any: boolean;
  /** Phrases such as "refunds" or "device movement": every stem must occur in the action's words. */
  terms: { text: string; stems: string[] }[];
  /** The actions' domain, from "in the finance domain" or the policy's `domain`. */
  domain: string | null;
}

/** What a condition is about: argument words ("battery", "the recipient") or an implied attribute. */
export interface Subject {
  text: string;
  stems: string[];
  /** Set when the sentence named no subject: the kind of value decides where to look. */
  implied?: "amount" | "percent" | "environment" | "recipient" | "duration";
}

export interface Quantity {
  value: number;
  /** ISO 4217 code for amounts ("$500" → USD). */
  currency?: string;
  percent?: boolean;
  /** Durations ("240 minutes", "4 hours") are held in minutes. */
  minutes?: boolean;
  /** The words the author wrote, for restatements. */
  text: string;
}

export type Comparator = "gt" | "gte" | "lt" | "lte" | "eq" | "neq" | "between";

export type Condition =
  | { kind: "and"; of: Condition[] }
  | { kind: "or"; of: Condition[] }
  | { kind: "not"; of: Condition }
  | { kind: "compare"; subject: Subject; op: Comparator; value: Quantity; high?: Quantity }
  | { kind: "equals"; subject: Subject; values: string[]; negate: boolean }
  /** Any recipient address outside the domains (subdomains are inside); with `inside`, any address in them. */
  | { kind: "outside_domain"; subject: Subject; domains: string[]; inside?: boolean }
  /**
   * Days are 0 (Sunday) to 6 (Saturday), in the rule's time zone. Of the time the action runs, or with a
   * subject ("windows that start on a Saturday") of the action's own time argument.
   */
  | { kind: "weekday"; days: number[]; tz: string; subject?: Subject }
  /** Minutes of the day, `from` inclusive and `to` exclusive; `to` < `from` wraps past midnight. */
  | { kind: "time"; from: number; to: number; tz: string; subject?: Subject }
  /** True when this action would make the count of matching actions in the window exceed the limit. */
  | { kind: "rate"; op: "gt" | "gte"; count: number; window_seconds: number }
  /** True when the action itself matches: "except get_status", "unless it is a refund". */
  | { kind: "action"; terms: { text: string; stems: string[] }[] };

export interface CompiledRule {
  /** The sentence as written. */
  source: string;
  effect: Effect;
  actions: ActionSelector;
  when: Condition | null;
  unless: Condition | null;
}

export interface ParseFailure {
  message: string;
  /** Words the language could not place, in order. */
  unplaced: string[];
  /** Zero-based index of the first unplaced word among the sentence's words. */
  position: number;
  suggestion: string;
}

export type ParseResult = { ok: true; rule: CompiledRule } | { ok: false; error: ParseFailure };
