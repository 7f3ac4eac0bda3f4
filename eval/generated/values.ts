// Typed argument meanings and the many ways people write them. A value is kept as what it means (an amount
// and a currency, a quantity in the schema's unit, a calendar day); `expected` gives the JSON the schema
// wants and `written` one surface form of it. Nothing here reads text: the generator only writes, so the
// parser under test never shapes what it is tested on.

export type Currency = "USD" | "EUR" | "GBP" | "CAD";
/** The unit a schema field is kept in (read from its key or description when the fixture was written). */
export type Unit = "minute" | "day" | "kg" | "m" | "kWh";

export type Value =
  /** Identifiers, codes, usernames, ISBNs: written as they are. */
  | { kind: "id"; value: string }
  | { kind: "email"; value: string }
  /** An enum value; `words` are how people name it (the value itself is always one way). */
  | { kind: "enum"; value: string; words: string[] }
  /** A code the schema wants (a country's ISO code) that people often write as a name. */
  | { kind: "code"; value: string; words: string[] }
  /** Money in major units; `minor` when the field keeps minor units (cents, pence). */
  | { kind: "money"; amount: number; currency: Currency; minor?: boolean }
  /** A quantity, its number in the field's unit; it may be written in another unit of the same dimension. */
  | { kind: "quantity"; value: number; unit: Unit }
  /** A 0–1 fraction field, written as a percentage. */
  | { kind: "fraction"; value: number }
  | { kind: "count"; value: number }
  | { kind: "date"; iso: string }
  /** Always whole minutes in UTC: `YYYY-MM-DDTHH:MM:00Z`. */
  | { kind: "datetime"; iso: string }
  /** Free text (names, summaries): written, never asserted (the README's convention). */
  | { kind: "text"; text: string };

export type Rng = () => number;

// One seeded generator for every generated set: the policy corpus's (hashOf, rng), so both draw alike.
export { hashOf, rng } from "../policy-corpus/meanings.ts";

export const pick = <T>(r: Rng, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;

export function shuffle<T>(r: Rng, list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The JSON the schema wants for a value; undefined for free text, which cases never assert. */
export function expected(v: Value): unknown {
  switch (v.kind) {
    case "id":
    case "email":
    case "enum":
    case "code":
      return v.value;
    case "money":
      return v.minor ? Math.round(v.amount * 100) : v.amount;
    case "quantity":
    case "fraction":
    case "count":
      return v.value;
    case "date":
      return v.iso;
    case "datetime":
      return v.iso;
    case "text":
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------- numbers

const ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/** An integer in English words ("two thousand four hundred fifty"); `and` after hundreds as the British say it. */
export function numberWords(n: number, and = false): string {
  if (!Number.isInteger(n) || n < 0) throw new Error(`numberWords: ${n}`);
  if (n < 20) return ONES[n]!;
  if (n < 100) return TENS[Math.floor(n / 10)]! + (n % 10 ? `-${ONES[n % 10]}` : "");
  if (n < 1000) return `${ONES[Math.floor(n / 100)]} hundred${n % 100 ? `${and ? " and" : ""} ${numberWords(n % 100)}` : ""}`;
  for (const [size, name] of [
    [1_000_000, "million"],
    [1000, "thousand"],
  ] as const) {
    if (n >= size) return `${numberWords(Math.floor(n / size), and)} ${name}${n % size ? ` ${numberWords(n % size, and)}` : ""}`;
  }
  throw new Error("unreachable");
}

const ORDINAL_WORDS: Record<string, string> = { one: "first", two: "second", three: "third", five: "fifth", eight: "eighth", nine: "ninth", twelve: "twelfth" };

/** "fifteenth", "twenty-third". */
export function ordinalWords(n: number): string {
  const words = numberWords(n);
  const last = words.split(/[- ]/).at(-1)!;
  const ord = ORDINAL_WORDS[last] ?? (last.endsWith("y") ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return words.slice(0, words.length - last.length) + ord;
}

const ordinalSuffix = (n: number) => (n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th");

/** With thousands separators, and two decimals when there are any. */
export function grouped(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString("en-US") : n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

const plain = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
/** A number as a speaker says it: words for whole numbers, digits with a point otherwise. */
const spoken = (n: number) => (Number.isInteger(n) ? numberWords(n) : String(n));

// ---------------------------------------------------------------------------------------------- money

const SYMBOL: Record<Currency, string> = { USD: "$", EUR: "€", GBP: "£", CAD: "C$" };
const WORD: Record<Currency, [string, string]> = {
  USD: ["dollars", "US dollars"],
  EUR: ["euros", "EUR"],
  GBP: ["pounds", "pounds sterling"],
  CAD: ["Canadian dollars", "CAD"],
};
const MINOR_WORD: Record<Currency, string> = { USD: "cents", EUR: "cents", GBP: "pence", CAD: "cents" };

/** "twelve hundred fifty": how people say a four-digit amount whose hundreds are not round thousands. */
export function hundredsWords(n: number): string | undefined {
  if (!Number.isInteger(n) || n < 1100 || n > 9999 || Math.floor(n / 100) % 10 === 0) return undefined;
  return `${numberWords(Math.floor(n / 100))} hundred${n % 100 ? ` ${numberWords(n % 100)}` : ""}`;
}

/** A whole amount in words, one of the ways a speaker or a careful writer puts it. */
function amountWords(r: Rng, n: number): string {
  return pick(r, [numberWords(n), numberWords(n, true), hundredsWords(n) ?? numberWords(n)]);
}

function moneyText(r: Rng, v: Extract<Value, { kind: "money" }>, voice: boolean): string {
  const { amount, currency } = v;
  const whole = Math.floor(amount);
  const cents = Math.round((amount - whole) * 100);
  if (voice) {
    const unit = currency === "USD" && r() < 0.3 ? "bucks" : WORD[currency][0].toLowerCase();
    if (!cents) return `${amountWords(r, whole)} ${unit}`;
    return pick(r, [`${amountWords(r, whole)} ${unit} ${numberWords(cents)}`, `${amountWords(r, whole)} ${unit} and ${numberWords(cents)} ${MINOR_WORD[currency]}`]);
  }
  const styles: (() => string)[] = [
    () => `${SYMBOL[currency]}${grouped(amount)}`,
    () => `${pick(r, [grouped(amount), plain(amount)])} ${currency}`,
    () => `${currency} ${grouped(amount)}`,
    () => `${grouped(amount)} ${pick(r, WORD[currency])}`,
    () => `${SYMBOL[currency]}${plain(amount)}`,
    // Glued codes, and the decimal comma and dot grouping much of Europe writes.
    () => pick(r, [`${currency}${plain(amount)}`, `${plain(amount)}${currency}`]),
    () => `${amount.toLocaleString("de-DE", { minimumFractionDigits: Number.isInteger(amount) ? 0 : 2, maximumFractionDigits: 2 })} ${currency === "EUR" ? "€" : currency}`,
  ];
  if (amount >= 1000 && Number.isInteger(amount / 100)) {
    const k = `${amount / 1000}k`;
    styles.push(() => pick(r, [`${SYMBOL[currency]}${k}`, `${k} ${currency}`]));
  }
  // Amounts in words, as in a letter or a cheque.
  if (!cents && whole < 10000) styles.push(() => `${amountWords(r, whole)} ${WORD[currency][0]}`);
  if (v.minor && amount < 100) styles.push(() => `${Math.round(amount * 100)} ${MINOR_WORD[currency]}`, () => `${Math.round(amount * 100)}p`);
  return pick(r, styles)();
}

// ---------------------------------------------------------------------------------------------- quantities

const HOUR_WORDS: Record<number, string[]> = { 1: ["an hour", "one hour"], 1.5: ["an hour and a half", "one and a half hours", "1 hr 30 min", "1h30"], 2.5: ["two and a half hours", "2 hrs 30 mins"] };
const MINUTE_WORDS: Record<number, string[]> = { 30: ["half an hour"], 45: ["three quarters of an hour"], 15: ["a quarter of an hour", "quarter of an hour"] };
const WEEK_WORDS: Record<number, string> = { 1: "a week", 2: "two weeks", 3: "three weeks", 4: "four weeks" };

/** Every way of writing the quantity, in its own unit and in others that convert to it exactly. */
function quantityForms(v: Extract<Value, { kind: "quantity" }>, voice: boolean): string[] {
  const n = v.value;
  const num = voice ? spoken : String;
  const forms: string[] = [];
  switch (v.unit) {
    case "minute": {
      forms.push(`${num(n)} minutes`);
      if (!voice) forms.push(`${n} min`, `${n} mins`, `${n}min`, `${numberWords(n)} minutes`);
      forms.push(...(MINUTE_WORDS[n] ?? []));
      const h = n / 60;
      if (Number.isInteger(h * 2) && h >= 1) {
        forms.push(`${voice && Number.isInteger(h) ? numberWords(h) : h} hour${h === 1 ? "" : "s"}`);
        forms.push(...(HOUR_WORDS[h] ?? []).filter((w) => !voice || !/\d/.test(w)));
        if (!voice) forms.push(`${h} hr${h === 1 ? "" : "s"}`);
        if (!voice && Number.isInteger(h)) forms.push(`${h}h`);
      }
      break;
    }
    case "day": {
      forms.push(`${num(n)} days`);
      if (!voice) forms.push(`${numberWords(n)} days`);
      if (n % 7 === 0 && WEEK_WORDS[n / 7]) forms.push(WEEK_WORDS[n / 7]!, ...(voice ? [] : [`${n / 7} weeks`, `${n / 7} wks`]));
      if (n === 14) forms.push("a fortnight");
      break;
    }
    case "kg": {
      forms.push(voice ? `${num(n)} kilos` : `${n} kg`, `${num(n)} kilograms`);
      if (!voice) forms.push(`${n}kg`, `${n} kilos`, `${n} kgs`);
      const g = Math.round(n * 1000);
      if (Math.abs(g - n * 1000) < 1e-9) forms.push(...(voice ? [`${numberWords(g)} grams`] : [`${grouped(g)} g`, `${g} grams`, `${grouped(g)} grams`, `${g}g`]));
      break;
    }
    case "m": {
      forms.push(voice ? `${num(n)} metres` : `${n} m`, `${num(n)} metres`, `${num(n)} meters`);
      if (!voice) forms.push(`${n}m`, `${grouped(n)} metres`);
      const km = n / 1000;
      if (n >= 1000 && Number.isInteger(km * 100)) forms.push(...(voice ? [`${km} kilometres`, `${km} k`] : [`${km} km`, `${km}km`, `${km} kilometers`]));
      break;
    }
    case "kWh": {
      forms.push(voice ? `${num(n)} kilowatt hours` : `${grouped(n)} kWh`, `${n} kWh`);
      if (!voice) forms.push(`${n}kWh`, `${grouped(n)} kilowatt-hours`, `${n} kwh`);
      const mwh = n / 1000;
      if (n >= 1000 && Number.isInteger(mwh * 1000) && String(mwh).length <= 5) forms.push(...(voice ? [`${mwh} megawatt hours`] : [`${mwh} MWh`, `${mwh} megawatt-hours`]));
      break;
    }
  }
  return forms;
}

// ---------------------------------------------------------------------------------------------- calendar

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function dateParts(iso: string) {
  const [y, m, d] = iso.slice(0, 10).split("-").map(Number) as [number, number, number];
  return { y, m, d, month: MONTHS[m - 1]!, weekday: WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]! };
}

/** A year as it is said: "twenty twenty-seven". */
const yearWords = (y: number) => `${numberWords(Math.floor(y / 100))} ${y % 100 < 10 ? `oh ${numberWords(y % 100)}` : numberWords(y % 100)}`;

function dateText(r: Rng, iso: string, voice: boolean): string {
  const { y, m, d, month, weekday } = dateParts(iso);
  if (voice) {
    const year = pick(r, [String(y), yearWords(y)]);
    const mon = month.toLowerCase();
    return pick(r, [`${mon} ${ordinalWords(d)} ${year}`, `the ${ordinalWords(d)} of ${mon} ${year}`, `${weekday.toLowerCase()} ${mon} ${ordinalWords(d)} ${year}`, `${weekday.toLowerCase()} the ${ordinalWords(d)} of ${mon} ${year}`]);
  }
  const forms = [
    iso.slice(0, 10),
    `${month} ${d}, ${y}`,
    `${d} ${month} ${y}`,
    `${month.slice(0, 3)} ${d}${ordinalSuffix(d)} ${y}`,
    `${weekday} ${d} ${month} ${y}`,
    `${weekday.slice(0, 3)}, ${month.slice(0, 3)} ${d}, ${y}`,
    `${d}${ordinalSuffix(d)} ${month} ${y}`,
    `${d}-${month.slice(0, 3)}-${y}`,
    `${d}. ${month} ${y}`,
  ];
  // Day and month in digits only when they cannot be read the other way round.
  if (d > 12) forms.push(pick(r, [`${m}/${d}/${y}`, `${d}/${m}/${y}`]));
  return pick(r, forms);
}

function clockText(r: Rng, hh: number, mm: number, voice: boolean): string {
  const h12 = hh % 12 === 0 ? 12 : hh % 12;
  const ampm = hh < 12 ? "am" : "pm";
  if (voice) return `${numberWords(h12)}${mm ? ` ${mm < 10 ? `oh ${numberWords(mm)}` : numberWords(mm)}` : ""} ${ampm === "am" ? "a m" : "p m"}`;
  const two = (n: number) => String(n).padStart(2, "0");
  return pick(r, [`${two(hh)}:${two(mm)}`, `${h12}:${two(mm)}${ampm}`, `${h12}${mm ? `:${two(mm)}` : ""} ${ampm.toUpperCase()}`]);
}

function datetimeText(r: Rng, iso: string, voice: boolean): string {
  const hh = Number(iso.slice(11, 13));
  const mm = Number(iso.slice(14, 16));
  const day = dateText(r, iso.slice(0, 10), voice);
  const clock = clockText(r, hh, mm, voice);
  if (voice) return pick(r, [`${day} at ${clock} utc`, `${clock} utc on ${day}`]);
  const zone = pick(r, ["UTC", "UTC", "GMT", "Z"]);
  return pick(r, [
    iso,
    `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`,
    `${day} at ${clock} ${zone === "Z" ? "UTC" : zone}`,
    `${clock} ${zone === "Z" ? "UTC" : zone} on ${day}`,
    `${day}, ${clock} (UTC)`,
  ]);
}

// ---------------------------------------------------------------------------------------------- any value

/** One surface form of a value, chosen by `r`; `voice` writes it as a speech transcript would (words, no symbols). */
export function written(r: Rng, v: Value, voice: boolean): string {
  switch (v.kind) {
    case "id":
    case "email":
      return v.value;
    case "enum":
    case "code": {
      const w = pick(r, v.words);
      return voice ? w.toLowerCase() : w;
    }
    case "money":
      return moneyText(r, v, voice);
    case "quantity":
      return pick(r, quantityForms(v, voice));
    case "fraction": {
      const pct = Math.round(v.value * 1000) / 10;
      if (voice) return `${spoken(pct)} percent`;
      return pick(r, [`${pct}%`, `${pct}%`, `${pct} percent`, `${pct} per cent`, `${pct} %`, ...(Number.isInteger(pct) ? [`${numberWords(pct)} percent`] : [])]);
    }
    case "count":
      return voice || (v.value <= 20 && r() < 0.3) || r() < 0.08 ? numberWords(v.value) : v.value >= 1000 && r() < 0.5 ? grouped(v.value) : String(v.value);
    case "date":
      return dateText(r, v.iso, voice);
    case "datetime":
      return datetimeText(r, v.iso, voice);
    case "text":
      return voice ? v.text.toLowerCase().replace(/[.,;:!?]/g, "") : v.text;
  }
}

/** The value as a careful assistant would repeat it back (schema form, no surprises). */
export function canonical(v: Value): string {
  switch (v.kind) {
    case "money":
      return `${grouped(v.amount)} ${v.currency}`;
    case "quantity":
      return `${v.value} ${{ minute: "minutes", day: "days", kg: "kg", m: "m", kWh: "kWh" }[v.unit]}`;
    case "fraction":
      return `${Math.round(v.value * 1000) / 10}%`;
    case "count":
      return String(v.value);
    case "date":
      return v.iso;
    case "datetime":
      return `${v.iso.slice(0, 10)} ${v.iso.slice(11, 16)} UTC`;
    case "enum":
    case "code":
      return v.words[0]!;
    case "text":
      return v.text;
    default:
      return v.value;
  }
}

// ---------------------------------------------------------------------------------------------- constructors

export const id = (value: string): Value => ({ kind: "id", value });
export const email = (value: string): Value => ({ kind: "email", value });
/** An enum value and other ways to say it; the value with `_`/`-` as spaces is always one of them. */
export const en = (value: string, ...words: string[]): Value => ({ kind: "enum", value, words: [...new Set([value.replace(/[_-]/g, " "), ...words])] });
export const code = (value: string, ...words: string[]): Value => ({ kind: "code", value, words: [value, ...words] });
export const money = (amount: number, currency: Currency, minor = false): Value => ({ kind: "money", amount, currency, ...(minor ? { minor } : {}) });
export const qty = (value: number, unit: Unit): Value => ({ kind: "quantity", value, unit });
export const frac = (value: number): Value => ({ kind: "fraction", value });
export const count = (value: number): Value => ({ kind: "count", value });
export const date = (iso: string): Value => ({ kind: "date", iso });
export const at = (iso: string): Value => ({ kind: "datetime", iso: `${iso}:00Z` });
export const text = (t: string): Value => ({ kind: "text", text: t });
