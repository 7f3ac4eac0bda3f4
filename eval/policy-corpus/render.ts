// Sentences for a meaning, in the shapes compliance people write: imperative, the effect after the action,
// a modal with a subject, conditions without an action, "only allow", relative clauses, attribute and value
// in either order, a number before its noun, unless/except, "or". The phrasings come from how such rules are
// written (policy documents, runbooks, tickets), not from the service's grammar, which this file never reads.
// Variation (articles, plurals, punctuation, capitalisation, British spelling, a few typos) is seeded by the
// meaning id, so the corpus is the same on every run.
import { pick, rng, type Cmp, type Condition, type Meaning } from "./meanings.ts";

type R = () => number;

export interface Rendered {
  text: string;
  /** The sentence shape, for failure classes. */
  form: string;
}

const THRESHOLD_POST: Record<Cmp, string[]> = {
  ">": ["over {v}", "above {v}", "more than {v}", "exceeding {v}", "greater than {v}", "in excess of {v}", "larger than {v}", "higher than {v}"],
  ">=": ["at least {v}", "{v} or more", "{v} and above", "no less than {v}", "{v} or higher"],
  "<": ["under {v}", "below {v}", "less than {v}", "lower than {v}", "smaller than {v}"],
  "<=": ["at most {v}", "no more than {v}", "up to {v}", "{v} or less", "not exceeding {v}"],
};
const COUNT_POST: Record<Cmp, string[]> = {
  ">": ["more than {v}", "over {v}", "in excess of {v}", "upwards of {v}"],
  ">=": ["{v} or more", "at least {v}", "no fewer than {v}"],
  "<": ["fewer than {v}", "less than {v}", "under {v}"],
  "<=": ["at most {v}", "no more than {v}", "up to {v}", "{v} or fewer"],
};
const THRESHOLD_CLAUSE: Record<Cmp, string[]> = {
  ">": ["is over {v}", "exceeds {v}", "is greater than {v}", "is more than {v}", "is above {v}", "goes above {v}"],
  ">=": ["is at least {v}", "is {v} or more", "reaches {v}", "is {v} or higher", "is no less than {v}", "is equal to or greater than {v}"],
  "<": ["is under {v}", "is below {v}", "is less than {v}", "falls below {v}", "is lower than {v}"],
  "<=": ["is at most {v}", "is {v} or less", "does not exceed {v}", "is no more than {v}", "is less than or equal to {v}"],
};

const NUMBER_WORDS: Record<number, string[]> = {
  3: ["three"], 5: ["five"], 10: ["ten"], 20: ["twenty"], 50: ["fifty"], 100: ["one hundred", "a hundred"], 200: ["two hundred"],
  750: ["seven hundred and fifty", "seven hundred fifty"], 1000: ["one thousand", "a thousand"], 1200: ["twelve hundred", "one thousand two hundred"],
  1500: ["fifteen hundred", "one and a half thousand"], 2000: ["two thousand"], 2500: ["two and a half thousand", "twenty-five hundred"], 3000: ["three thousand"],
  5000: ["five thousand"], 10000: ["ten thousand"], 50000: ["fifty thousand"], 250000: ["a quarter of a million", "two hundred and fifty thousand"], 2000000: ["two million"],
};

const grouped = (n: number, sep = ","): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, sep);

/** A plain number as people write it: digits, separators, k/m suffixes, now and then in words. */
function numberText(r: R, n: number, words = true): string {
  const forms = [String(n), grouped(n)];
  if (n >= 1000 && n % 100 === 0 && n < 1_000_000) forms.push(`${n / 1000}k`, `${n / 1000}K`);
  if (n >= 1_000_000) forms.push(`${n / 1_000_000}m`, `${n / 1_000_000}M`, `${n / 1_000_000} million`);
  if (words && NUMBER_WORDS[n]) forms.push(...NUMBER_WORDS[n]!);
  return pick(r, forms);
}

function moneyText(r: R, n: number, currency: string): string {
  const num = numberText(r, n);
  const spelled = /[a-z]{3}/.test(num) && !/^\d/.test(num);
  const forms: Record<string, string[]> = {
    USD: [`$${num}`, `${num} USD`, `USD ${num}`, `${num} dollars`, `US$${num}`, `${num} US dollars`],
    EUR: [`€${num}`, `${num} EUR`, `EUR ${num}`, `${num} euros`, `${num} €`],
    GBP: [`£${num}`, `${num} GBP`, `GBP ${num}`, `${num} pounds`, `${num} pounds sterling`],
    JPY: [`¥${num}`, `${num} JPY`, `JPY ${num}`, `${num} yen`],
  };
  // A number in words takes a currency word after it ("twelve hundred dollars"), never a symbol or code.
  const list = forms[currency]!.filter((f) => !spelled || (f.startsWith(num) && /[a-z]$/.test(f)));
  return pick(r, list);
}

const UNIT_WORDS: Record<string, string[]> = {
  kg: ["kg", "kilograms", "kilos", "kgs"], g: ["g", "grams"], lb: ["lb", "lbs", "pounds"],
  m: ["m", "metres", "meters"], cm: ["cm", "centimetres", "centimeters"], km: ["km", "kilometres", "kilometers"],
  kmh: ["km/h", "kph", "kilometres per hour", "kilometers an hour"], ms: ["m/s", "metres per second", "meters per second"], mph: ["mph", "miles per hour"],
  c: ["°C", "degrees Celsius", "degrees C", "℃"], f: ["°F", "degrees Fahrenheit", "degrees F"],
  kw: ["kW", "kilowatts"], w: ["W", "watts"], kwh: ["kWh", "kilowatt-hours", "kilowatt hours"], wh: ["Wh", "watt-hours"],
  mb: ["MB", "megabytes"], gb: ["GB", "gigabytes"],
  minutes: ["minutes", "mins", "min"], hours: ["hours", "hrs", "h"], days: ["days"], years: ["years", "yrs"],
};

function quantityText(r: R, n: number, unit: string): string {
  const word = pick(r, UNIT_WORDS[unit]!);
  const num = numberText(r, n, n < 100);
  const glued = /^[°℃a-zA-Z/]{1,4}$/.test(word) && /^\d/.test(num) && r() < 0.5;
  return glued ? `${num}${word}` : `${num} ${word}`;
}

function percentText(r: R, n: number): string {
  return pick(r, [`${n}%`, `${n} percent`, `${n} per cent`, `${n} %`, `${n}pct`].slice(0, 4));
}

const fill = (template: string, v: string) => template.replace("{v}", v);
/** After a noun ("with a value ..."): "of" before a bare number ("with a value of $500 or more"). */
const afterNoun = (template: string, v: string) => (template.startsWith("{v}") ? `of ${fill(template, v)}` : fill(template, v));

const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function hourText(r: R, h: number, style: number): string {
  if (style === 0) return `${String(h).padStart(2, "0")}:00`;
  if (style === 1) return `${h}:00`;
  const twelve = h % 12 === 0 ? 12 : h % 12;
  const suffix = h < 12 ? "am" : "pm";
  return style === 2 ? `${twelve}${suffix}` : `${twelve} ${suffix.toUpperCase().replace("M", ".M.").replace("A.", "a.").replace("P.", "p.").toLowerCase()}`;
}

function zoneText(r: R, zone: { iana: string; spoken: string }): string {
  const extra: Record<string, string[]> = { "Europe/London": ["UK time"], "Asia/Tokyo": ["JST"], "America/New_York": ["Eastern time"] };
  return pick(r, [zone.iana, zone.spoken, ...(extra[zone.iana] ?? [])]);
}

/** Phrases for one condition: after the action's noun or verb phrase, and as a clause ("the amount is ..."). */
interface Phrases {
  post: string[];
  clause: string[];
  /** An adjective before the noun ("urgent tickets", "production deployments"), when natural. */
  pre?: string[];
}

function phrases(r: R, c: Condition): Phrases {
  switch (c.kind) {
    case "money": {
      const v = moneyText(r, c.value, c.currency);
      const t = pick(r, THRESHOLD_POST[c.cmp]);
      const lead = t.startsWith("{v}") ? pick(r, ["of ", "worth ", "for "]) : pick(r, ["", "", "of ", "worth ", "for ", "with an amount "]);
      return {
        post: [`${lead}${fill(t, v)}`, `for amounts ${fill(t, v)}`, `with a value ${afterNoun(t, v)}`],
        clause: [`the amount ${fill(pick(r, THRESHOLD_CLAUSE[c.cmp]), v)}`, `the ${pick(r, ["value", "total", "sum"])} ${fill(pick(r, THRESHOLD_CLAUSE[c.cmp]), v)}`],
      };
    }
    case "money_between": {
      const lo = numberText(r, c.low, false);
      const hi = moneyText(r, c.high, c.currency);
      const loM = moneyText(r, c.low, c.currency);
      return {
        post: [`between ${loM} and ${hi}`, `of between ${lo} and ${hi}`, `from ${loM} to ${hi}`, `in the ${loM} to ${hi} range`],
        clause: [`the amount is between ${loM} and ${hi}`, `the amount is from ${loM} to ${hi}`],
      };
    }
    case "count": {
      const v = `${numberText(r, c.value)} ${c.noun}`;
      const post = COUNT_POST[c.cmp].map((t) => fill(t, v));
      const singular = c.noun.replace(/s$/, "");
      const n = numberText(r, c.value);
      return {
        post: [`to ${pick(r, post)}`, `with ${pick(r, post)}`, `involving ${pick(r, post)}`, `of ${pick(r, post)}`],
        clause: [`the number of ${c.noun} ${fill(pick(r, THRESHOLD_CLAUSE[c.cmp]), n)}`, `the ${singular} count ${fill(pick(r, THRESHOLD_CLAUSE[c.cmp]), n)}`],
      };
    }
    case "percent": {
      const v = percentText(r, c.value);
      const t = pick(r, THRESHOLD_POST[c.cmp]);
      const half = c.value === 50 && (c.cmp === ">" || c.cmp === "<") ? [`of ${c.cmp === ">" ? "more" : "less"} than half`] : [];
      return {
        post: [t.startsWith("{v}") ? `of ${fill(t, v)}` : fill(t, v), `of ${fill(t, v)}`, ...half],
        clause: [`the ${c.noun} ${fill(pick(r, THRESHOLD_CLAUSE[c.cmp]), v)}`],
      };
    }
    case "quantity": {
      const v = quantityText(r, c.value, c.unit);
      const t = pick(r, THRESHOLD_POST[c.cmp]);
      const adjective: Record<string, [string, string]> = {
        mass: ["heavier than", "lighter than"], speed: ["faster than", "slower than"], duration: ["longer than", "shorter than"], data: ["larger than", "smaller than"],
        temperature: ["warmer than", "colder than"], length: ["further than", "shorter than"],
      };
      const adj = adjective[c.dimension];
      const strict = c.cmp === ">" || c.cmp === "<";
      const lead = c.dimension === "speed" ? "at" : c.dimension === "temperature" ? "to" : "of";
      const post = [`${lead} ${fill(t, v)}`, `with a ${c.noun} ${afterNoun(pick(r, THRESHOLD_POST[c.cmp]), v)}`];
      if (adj && strict) post.push(`${c.cmp === ">" ? adj[0] : adj[1]} ${v}`);
      return { post, clause: [`the ${c.noun} ${fill(pick(r, THRESHOLD_CLAUSE[c.cmp]), v)}`] };
    }
    case "enum": {
      const byField: Record<string, Phrases> = {
        environment: {
          post: [`in ${c.value}`, `to ${c.value}`, `in the ${c.value} environment`, `to the ${c.value} environment`, ...(c.value === "production" ? ["to prod", "in prod"] : [])],
          clause: [`the environment is ${c.value}`, `environment = ${c.value}`, `the target environment is ${c.value}`],
          pre: [c.value, ...(c.value === "production" ? ["prod"] : [])],
        },
        tier: {
          post: [`for customers in tier ${c.value}`, `for ${c.value} tier customers`, `in the ${c.value} tier`, `for tier ${c.value}`, `to the ${c.value} tier`, `for accounts on the ${c.value} tier`],
          clause: [`the tier is ${c.value}`, `the customer tier is ${c.value}`, `the customer is in the ${c.value} tier`],
          pre: [`${c.value} tier`, `tier ${c.value}`],
        },
        role: {
          post: [`to ${c.value}`, `to the ${c.value} role`, `that grant the ${c.value} role`, `granting ${c.value} rights`, `to role ${c.value}`],
          clause: [`the new role is ${c.value}`, `the role is ${c.value}`],
          pre: [c.value],
        },
        cabin: {
          post: [`in ${c.value} class`, `in the ${c.value} cabin`, `in cabin ${c.value}`, `for ${c.value} class`],
          clause: [`the cabin is ${c.value}`, `the cabin class is ${c.value}`],
          pre: [`${c.value} class`],
        },
      };
      return byField[c.field]!;
    }
    case "not_in": {
      const list = (joiner: string) => `${c.values.slice(0, -1).join(", ")}${joiner}${c.values.at(-1)}`;
      if (c.field === "vendor")
        return {
          post: [`to vendors not on the approved list (${list(", ")})`, `to any vendor other than ${list(" or ")}`, `to vendors outside the approved list: ${list(", ")}`, `to unapproved vendors (approved: ${list(" and ")})`],
          clause: [`the vendor is not ${list(" or ")}`, `the vendor is not one of ${list(", ")}`],
        };
      return {
        post: [`to recipients outside ${list(" and ")}`, `to countries other than ${list(" or ")}`, `to any country except ${list(", ")}`],
        clause: [`the country is not ${list(" or ")}`, `the recipient country is not one of ${list(", ")}`],
      };
    }
    case "flag":
      if (c.field === "urgent")
        return { post: ["marked urgent", "flagged as urgent", "that are marked urgent", "with the urgent flag"], clause: ["the ticket is marked urgent", "the ticket is urgent"], pre: ["urgent"] };
      if (c.field === "public") return { post: ["publicly", "with the public", "as public links"], clause: ["the file is shared publicly", "the share is public"], pre: ["public"] };
      return { post: ["for VIP customers"], clause: ["the customer is a VIP"], pre: ["VIP"] };
    case "email_domain":
      return c.outside
        ? {
            post: [`to addresses outside ${c.domain}`, `to anyone outside ${c.domain}`, `to external recipients (not @${c.domain})`, `to non-${c.domain} addresses`, `to recipients outside the ${c.domain} domain`],
            clause: [`the recipient is not an ${c.domain} address`, `the recipient's domain is not ${c.domain}`, `the recipient is outside ${c.domain}`],
          }
        : { post: [`to ${c.domain} addresses`, `to @${c.domain} recipients`, `to anyone at ${c.domain}`], clause: [`the recipient is a ${c.domain} address`, `the recipient's domain is ${c.domain}`] };
    case "weekday": {
      if (c.days.length === 2)
        return { post: ["on weekends", "on Saturdays or Sundays", "at the weekend", "on Saturday and Sunday", "during the weekend", "over the weekend"], clause: ["it is the weekend", "the day is Saturday or Sunday", "it is a Saturday or a Sunday"] };
      const day = DAY_NAMES[c.days[0]!]!;
      return { post: [`on ${day}s`, `on a ${day}`, `on ${day}`, `on ${day.slice(0, 3)}`], clause: [`it is ${day}`, `today is ${day}`, `the day is ${day}`] };
    }
    case "window": {
      const style = Math.floor(r() * 4);
      const s = hourText(r, c.start, style);
      const e = hourText(r, c.end, style);
      const zone = zoneText(r, c.zone);
      const range = pick(r, [`${s}-${e}`, `${s} to ${e}`, `${s}–${e}`]);
      const z = pick(r, [` ${zone}`, ` (${zone})`]);
      const business = (c.start === 9 && c.end === 17) || (c.start === 8 && c.end === 20);
      if (c.outside)
        return {
          post: [`outside ${range}${z}`, `outside the hours of ${s} and ${e}${z}`, ...(business ? [`outside business hours (${range}${z})`] : []), `before ${s} or after ${e}${z}`],
          clause: [`the time is outside ${range}${z}`, `it is not between ${s} and ${e}${z}`],
        };
      return {
        post: [`between ${s} and ${e}${z}`, `from ${s} to ${e}${z}`, `during ${range}${z}`],
        clause: [`the time is between ${s} and ${e}${z}`, `it is between ${s} and ${e}${z}`],
      };
    }
    case "rate":
      return { post: [], clause: [] };
  }
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const join = (...parts: (string | undefined)[]) => parts.filter((p) => p !== undefined && p !== "").join(" ");

const BLOCK_IMPERATIVE = ["Block", "Deny", "Forbid", "Prohibit", "Disallow", "Reject", "Do not allow", "Never allow", "Stop", "Prevent", "Don't allow", "Refuse"];
const APPROVAL_IMPERATIVE = ["Require approval for {X}", "Require sign-off for {X}", "Require manager approval for {X}", "Escalate {X}", "Escalate {X} to a human", "Flag {X} for human approval", "Hold {X} for approval", "Route {X} to a person for approval", "Require a human to approve {X}", "Require authorization for {X}"];
const BLOCK_AFTER_PL = ["are forbidden", "are not allowed", "are prohibited", "are not permitted", "must be blocked", "should be blocked", "are banned", "are strictly forbidden", "are disallowed", "must be denied"];
const BLOCK_AFTER_SG = ["is forbidden", "is not allowed", "is prohibited", "is not permitted", "must be blocked", "is banned", "is never allowed", "is disallowed"];
const APPROVAL_AFTER_PL = ["need a human to sign off", "must be approved by a person", "require approval", "need sign-off", "need manager approval", "must be escalated", "need to be reviewed by a human first", "require human approval", "are only allowed with approval", "must be authorized by a manager", "need approval"];
const APPROVAL_AFTER_SG = ["needs a human to sign off", "must be approved by a person", "requires approval", "needs sign-off", "needs manager approval", "must be escalated", "requires human approval", "is only allowed with approval", "must be authorized by a manager", "needs approval"];
const SUBJECTS = ["Agents", "The assistant", "Bots", "AI agents", "The agent", "Automated agents", "No one"];

/** The ways a meaning can be said; each returns undefined where the shape does not fit the meaning. */
function forms(m: Meaning, r: R): Record<string, () => string | undefined> {
  const conds = m.conditions.map((c) => ({ c, p: phrases(r, c) }));
  const rate = m.conditions.find((c) => c.kind === "rate") as Extract<Condition, { kind: "rate" }> | undefined;
  const hasAction = m.actions.length > 0;
  const post = () => conds.filter((x) => x.c.kind !== "rate").map((x) => pick(r, x.p.post)).join(" ");
  const clause = () => (rate ? undefined : conds.map((x) => pick(r, x.p.clause)).join(pick(r, [" and ", " and ", " and also "])) || undefined);
  const per = rate ? `${pick(r, ["per", rate.per === "hour" ? "an" : "a", "in any", "within one", "every"])} ${rate.per}` : "";
  const rateN = rate ? numberText(r, rate.limit) : "";
  const orJoin = (list: string[]) => (list.length === 1 ? list[0]! : `${list[0]} ${pick(r, ["or", "and", "or"])} ${list[1]}`);

  // Noun phrase for the action(s) with their conditions, verb phrase likewise, gerund likewise.
  const nounBase = () => {
    const nouns = m.actions.map((a) => pick(r, a.np));
    const pre = conds.length === 1 && conds[0]!.p.pre && r() < 0.35 ? `${pick(r, conds[0]!.p.pre)} ` : undefined;
    return { text: (pre ?? "") + orJoin(nouns), usedPre: pre !== undefined };
  };
  const NP = () => {
    if (!hasAction) return undefined;
    if (rate) return `${pick(r, ["more than", "over", "in excess of"])} ${rateN} ${orJoin(m.actions.map((a) => pick(r, a.np)))} ${per}`;
    const base = nounBase();
    return base.usedPre ? base.text : join(base.text, post());
  };
  const VP = () => {
    if (!hasAction) return undefined;
    const v = orJoin(m.actions.map((a) => pick(r, a.vp)));
    if (rate) return `${v} more than ${rateN} times ${per}`;
    return join(v, post());
  };
  const GER = () => {
    if (!hasAction) return undefined;
    const g = orJoin(m.actions.map((a) => pick(r, a.gerund)));
    if (rate) return `${g} more than ${rateN} times ${per}`;
    return join(g, post());
  };
  const blockAfter = (plural: boolean) => pick(r, plural ? BLOCK_AFTER_PL : BLOCK_AFTER_SG);
  const approvalAfter = (plural: boolean) => pick(r, plural ? APPROVAL_AFTER_PL : APPROVAL_AFTER_SG);
  const after = (plural: boolean) => (m.effect === "block" ? blockAfter(plural) : approvalAfter(plural));
  const imperative = (x: string) => (m.effect === "block" ? `${pick(r, BLOCK_IMPERATIVE)} ${x}` : pick(r, APPROVAL_IMPERATIVE).replace("{X}", x));
  const whenWord = () => pick(r, ["when", "if", "whenever", "where"]);
  const when = m.mode === "when";

  return {
    imperative: () => (when ? (NP() ? imperative(NP()!) : undefined) : undefined),
    imperative_verb: () => {
      if (!when || !VP()) return undefined;
      if (m.effect === "block") return `${pick(r, ["Never", "Do not", "Don't", "Do NOT", "Never ever"])} ${VP()}`;
      return pick(r, ["Get approval before you {V}", "Ask a human before you {V}", "Always get sign-off to {V}", "Check with a manager before you {V}"]).replace("{V}", VP()!);
    },
    effect_after: () => (when && NP() ? `${capital(NP()!)} ${after(true)}` : undefined),
    gerund_after: () => (when && GER() ? `${capital(GER()!)} ${after(false)}` : undefined),
    only_with_approval: () => (when && m.effect === "approval" && VP() ? `${capital(VP()!)} only with approval` : undefined),
    modal_subject: () => {
      if (!when || !VP()) return undefined;
      const subject = pick(r, SUBJECTS);
      if (m.effect === "block") return subject === "No one" ? `No one may ${VP()}` : `${subject} ${pick(r, ["must not", "may not", "must never", "cannot", "should never", "are not allowed to"])} ${VP()}`.replace("The assistant are", "The assistant is").replace("The agent are", "The agent is");
      return subject === "No one" ? `No one may ${VP()} without approval` : `${subject} ${pick(r, ["must get approval before they", "need sign-off to", "must ask a human before they", "need approval to"])} ${VP()}`;
    },
    no_x_may: () => {
      if (!when || rate || m.actions.length !== 1 || m.effect !== "block") return undefined;
      return join(`No ${m.actions[0]!.sg}`, post(), pick(r, ["may be made", "is allowed", "may go through", "is permitted", "may be processed"]));
    },
    passive: () => {
      if (!when || rate || m.actions.length !== 1) return undefined;
      const a = m.actions[0]!;
      const c = clause();
      const tail = c ? ` ${whenWord()} ${c}` : "";
      if (m.effect === "block") return `${capital(a.passive.subject)} ${pick(r, ["must not be", "may not be", "must never be", "should not be"])} ${a.passive.participle}${tail}`;
      return `${capital(a.passive.subject)} ${pick(r, ["may only be", "can only be"])} ${a.passive.participle} ${pick(r, ["with approval", "after a human approves", "with sign-off"])}${tail}`;
    },
    when_clause: () => {
      const c = clause();
      if (!when || !c || !hasAction) return undefined;
      const nouns = orJoin(m.actions.map((a) => pick(r, a.np)));
      return r() < 0.5 ? `${imperative(nouns)} ${whenWord()} ${c}` : `${capital(whenWord() === "if" ? "if" : "when")} ${c}, ${imperative(nouns).replace(/^./, (x) => x.toLowerCase())}`;
    },
    conditions_only: () => {
      const c = clause();
      if (!when || !c || hasAction) return undefined;
      if (m.effect === "block") return pick(r, [`Block any action ${whenWord()} ${c}`, `Block everything ${whenWord()} ${c}`, `Nothing may run ${whenWord()} ${c}`, `${capital(whenWord())} ${c}, block it`]);
      return pick(r, [`Require approval ${whenWord()} ${c}`, `Escalate whenever ${c}`, `Get a human to sign off ${whenWord()} ${c}`, `${capital(whenWord())} ${c}, require approval`]);
    },
    any_action_with: () => {
      if (!when || hasAction || !m.conditions.every((c) => c.kind === "money")) return undefined;
      const c = m.conditions[0] as Extract<Condition, { kind: "money" }>;
      return `Any action ${pick(r, ["with", "for"])} an amount ${fill(pick(r, THRESHOLD_POST[c.cmp]), moneyText(r, c.value, c.currency))} ${after(false)}`;
    },
    relative: () => {
      if (!when || !hasAction || rate) return undefined;
      const vp3 = m.actions.length === 1 ? m.actions[0]!.vp3 : `${m.actions[0]!.vp3} or ${m.actions[1]!.vp3.split(" ")[0]} ${m.actions[1]!.vp3.split(" ").slice(1).join(" ")}`;
      const x = join(`any ${pick(r, ["action", "call", "request", "tool call"])} that ${vp3}`, post());
      return r() < 0.5 ? imperative(x) : `${capital(x)} ${after(false)}`;
    },
    would: () => {
      if (!when || !hasAction || rate) return undefined;
      const x = `${pick(r, ["calls", "requests", "API calls", "actions"])} that would ${VP()}`;
      return r() < 0.5 ? imperative(x) : `${capital(x)} ${after(true)}`;
    },
    tool_name: () => {
      if (!when || !hasAction || m.actions.length !== 1) return undefined;
      const t = m.actions[0]!.tool;
      const name = pick(r, [t, `the ${t} tool`, `calls to ${t}`, `\`${t}\``]);
      const c = clause();
      if (rate) return imperative(`${pick(r, ["more than", "over"])} ${rateN} calls to ${t} ${per}`);
      return c ? `${imperative(name)} ${whenWord()} ${c}` : imperative(name);
    },
    only_allow: () => {
      if (m.mode !== "only" || !hasAction) return undefined;
      const nouns = orJoin(m.actions.map((a) => pick(r, a.np)));
      const p = post();
      return pick(r, [`Only allow ${nouns} ${p}`, `Allow ${nouns} only ${p}`, `${capital(nouns)} are only allowed ${p}`, `${capital(nouns)} are allowed only ${p}`, `${capital(nouns)} may only happen ${p}`]);
    },
    only_allow_verb: () => {
      if (m.mode !== "only" || !hasAction) return undefined;
      const v = orJoin(m.actions.map((a) => pick(r, a.vp)));
      const c = clause()!;
      return pick(r, [`Agents may only ${v} ${post()}`, `${capital(orJoin(m.actions.map((a) => pick(r, a.gerund))))} is permitted only ${whenWord() === "where" ? "when" : "when"} ${c}`, `Only ${v} when ${c}`]);
    },
  };
}

function exceptionText(r: R, e: NonNullable<Meaning["exception"]>): string {
  if (e.kind === "flag") return pick(r, ["unless the customer is a VIP", "except for VIP customers", "except for VIPs", "unless the customer is flagged VIP"]);
  if (e.field === "environment") return pick(r, [`unless the environment is ${e.value}`, `except in ${e.value}`, `except for ${e.value}`, `(${e.value} excepted)`, `unless it is in ${e.value}`]);
  return pick(r, [`unless the customer is in the ${e.value} tier`, `except for ${e.value} tier customers`, `unless tier is ${e.value}`, `except for customers on tier ${e.value}`]);
}

const BRITISH: [RegExp, string][] = [
  [/authoriz/g, "authoris"],
  [/\bmeters\b/g, "metres"],
  [/kilometers/g, "kilometres"],
  [/centimeters/g, "centimetres"],
  [/\bpercent\b/g, "per cent"],
];
const TYPO_WORDS = /\b(Block|Prohibit|forbidden|approval|prohibited|allowed|Require|Escalate|permitted|Never|Deny|manager|blocked|escalated)\b/;

/** Surface details applied last: capitals, punctuation, British spelling, a typo now and then. */
function finish(r: R, text: string): string {
  let t = text.replace(/\s+/g, " ").trim();
  if (r() < 0.3) for (const [re, to] of BRITISH) t = t.replace(re, to);
  const typo = t.match(TYPO_WORDS);
  if (typo && r() < 0.04) {
    const w = typo[0];
    const i = 1 + Math.floor(r() * (w.length - 2));
    t = t.replace(w, w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2));
  }
  const c = r();
  if (c < 0.1) t = t.charAt(0).toLowerCase() + t.slice(1);
  else if (c < 0.13) t = t.replace(/^(Never|Block|Do not)\b/, (x) => x.toUpperCase());
  const p = r();
  return p < 0.55 ? `${t}.` : p < 0.95 ? t : `${t}!`;
}

/** Up to `max` different sentences for a meaning, each in a different shape where there are enough shapes. */
export function render(m: Meaning, max = 8): Rendered[] {
  const r = rng(`render:${m.id}`);
  const all = forms(m, r);
  const out: Rendered[] = [];
  const seen = new Set<string>();
  const names = Object.keys(all);
  // Several passes: a shape can be used again (with other words) when the meaning fits few shapes.
  for (let pass = 0; pass < 4 && out.length < max; pass++) {
    const order = names.map((n) => ({ n, k: r() })).sort((a, b) => a.k - b.k).map((x) => x.n);
    for (const name of order) {
      if (out.length >= max) break;
      const body = all[name]!();
      if (body === undefined) continue;
      let text = body;
      if (m.exception) {
        const e = exceptionText(r, m.exception);
        text = r() < 0.8 ? `${text}${e.startsWith("(") ? " " : pick(r, [" ", ", "])}${e}` : `${capital(e.replace(/^\(|\)$/g, ""))}, ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
      }
      if (m.domain) text = r() < 0.5 ? `In the ${m.domain} domain, ${text.charAt(0).toLowerCase()}${text.slice(1)}` : `${text} in the ${m.domain} domain`;
      text = finish(r, text);
      if (seen.has(text.toLowerCase())) continue;
      seen.add(text.toLowerCase());
      out.push({ text, form: name });
    }
  }
  return out;
}
