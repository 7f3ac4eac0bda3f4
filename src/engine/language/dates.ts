// Dates and date-times as people write them: ISO forms read exactly, everything else ("March 15, 2027",
// "15 Mar", "next Thursday", "Feb 8 to Feb 12", "tomorrow at 9:30") by chrono-node, a maintained parser of
// English date expressions, against the caller's clock. Dates are calendar dates in UTC unless the text
// names a zone or offset; a date written without a year is the next one to come.
import * as chrono from "chrono-node";
import { readNumberWords } from "./numbers.ts";
import { offsetOfWallTime, zoneOf } from "./zones.ts";

export interface DateMention {
  /** [start, end) of the expression in the text, without a leading preposition ("on", "from"). */
  start: number;
  end: number;
  /** YYYY-MM-DD. */
  date: string;
  /** HH:MM:SS when the text gives a clock time. */
  time?: string;
  /** "Z" or "+02:00" when the text gives one. */
  offset?: string;
  /** The second date of a range ("Feb 8 to Feb 12", "from the 3rd until the 7th"). */
  until?: { date: string; time?: string };
  /** Whether the text wrote the day itself (a weekday or "tomorrow" is certain too); false for a bare time. */
  dated: boolean;
  /**
   * A numeric date either part of which could be the month ("07/09/2027"), with no order known from the
   * text or the caller: `date` is the month-first reading, and it must not be taken as certain.
   */
  orderUnsure?: boolean;
}

/** Which part of a numeric date written with slashes is the day, as the writer's place writes them. */
export type DateOrder = "day-first" | "month-first";

const SLASH_DATE = /(?<![\d/])(\d{1,2})\/(\d{1,2})\/(\d{2,4})(?![\d/])/g;

/**
 * The order a text's own numeric dates show: a slash date whose first part is above 12 is written day
 * first ("14/05/2027"), one whose second part is above 12 month first ("3/14/2027"). Undefined when none
 * shows it, or they disagree.
 */
export function dateOrderShown(text: string): DateOrder | undefined {
  const orders = new Set<DateOrder>();
  for (const m of text.matchAll(SLASH_DATE)) {
    if (Number(m[1]) > 12 && Number(m[2]) <= 12) orders.add("day-first");
    if (Number(m[2]) > 12 && Number(m[1]) <= 12) orders.add("month-first");
  }
  return orders.size === 1 ? [...orders][0] : undefined;
}

/**
 * The date order of the place whose money a workspace deals in: the United States writes the month
 * first; the other places whose currencies we read write the day first (or the year first, which is not
 * ambiguous). Mixed or no currencies say nothing.
 */
export function dateOrderOfCurrencies(currencies: Iterable<string>): DateOrder | undefined {
  const set = new Set(currencies);
  if (set.size === 0) return undefined;
  if (set.has("USD")) return set.size === 1 ? "month-first" : undefined;
  // (Canada writes both orders.)
  return set.has("CAD") ? undefined : "day-first";
}

const ISO = /(?<![\w-])(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?(?![\w-])/g;
// A date expression names a month, a weekday or a day relative to today; "1.8 m" is a quantity.
const FOUR_DIGIT_TIME = /(?<![\w:.,-])([01]\d|2[0-3])([0-5]\d)\s?(z|zulu|utc|gmt|hrs|hours|h)(?![\w])/gi;
// "about 9 hours", "roughly two days": a word of approximation before a length of time.
const APPROXIMATELY = /^(?:about|around|roughly|approximately|approx\.?|nearly|almost|some|just|ca\.?|~)\s*/i;
const DATE_WORD = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\b|\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?\b|\b(?:today|tonight|tomorrow|yesterday|next|last|this|ago|noon|midnight|weekends?|weeks?|months?|years?|fortnights?|days?|hours?|minutes?)\b|\d(?:st|nd|rd|th)\b/i;
const LEADING = /^(?:on|at|from|by|for|in|until|till|starting|the)\s+/i;
const pad = (n: number) => String(n).padStart(2, "0");

function validDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function fromComponents(c: chrono.ParsedComponents): { date: string; time?: string } {
  const date = `${c.get("year")}-${pad(c.get("month") ?? 1)}-${pad(c.get("day") ?? 1)}`;
  if (!c.isCertain("hour")) return { date };
  return { date, time: `${pad(c.get("hour") ?? 0)}:${pad(c.get("minute") ?? 0)}:${pad(c.get("second") ?? 0)}` };
}

/**
 * Every date the text mentions, in order. Never throws: a text chrono cannot read has no dates. A numeric
 * date either part of which could be the month is read in `order` (else in the order the text's other
 * dates show); with neither, it is marked `orderUnsure`.
 */
const PART_OF_DATE = /\b(?:the\s+)?(?:morning|afternoon|evening|night)\s+of\s+(?=(?:the\s+)?\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d)/gi;

export function readDates(text: string, now: Date, order?: DateOrder): DateMention[] {
  order = dateOrderShown(text) ?? order;
  const found: DateMention[] = [];
  // ISO first, and masked for chrono, which reads "2027-03-01 until 2027-03-05" as clock times.
  const years: { start: number; end: number }[] = [];
  // "half past nine", "quarter to five pm": clock times in words chrono misreads; read by spokenTimes.
  // Codes ("LN-04", "APT-220914") hold numbers that are no hour or day: masked too.
  // "between 14:00 and 18:00": a range of clock times as chrono reads one ("from … to …"), one character for one.
  let masked = spokenYears(text, years)
    .replace(/\bbetween(\s+\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?\s+)and(?=\s+\d{1,2}(?::\d{2}|\s*[ap]\.?m\b))/gi, "from   $1to ")
    .replace(PAST_TO, (m) => " ".repeat(m.length))
    // "till half five", "at half nine": half past the hour, as Britain says it, written as the clock time
    // chrono reads (padded: one character for one).
    .replace(HALF_HOUR, (m, lead: string, hour: string) => {
      const said = /^\d/.test(hour) ? Number(hour) : HOURS.indexOf(hour.toLowerCase()) || 12;
      return `${lead}${said}:30`.padEnd(m.length, " ");
    })
    .replace(/(?<![\w-])[A-Za-z]{1,10}-\d[\w-]*/g, (m) => (/^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*-/i.test(m) ? m : " ".repeat(m.length)))
    // "the night of 14/06/2027", "the morning of the 3rd": the part of the day says when on that date; chrono
    // reads it as tonight and loses the date.
    .replace(PART_OF_DATE, (m) => " ".repeat(m.length));
  for (const m of text.matchAll(ISO)) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (!validDate(y, mo, d)) continue;
    const time = m[4] !== undefined ? `${m[4]}:${m[5]}:${m[6] ?? "00"}` : undefined;
    const offset = m[7] === undefined ? undefined : m[7] === "Z" ? "Z" : m[7].replace(/^([+-]\d{2})(\d{2})$/, "$1:$2");
    found.push({ start: m.index!, end: m.index! + m[0].length, date: `${m[1]}-${m[2]}-${m[3]}`, ...(time ? { time } : {}), ...(offset ? { offset } : {}), dated: true });
    // "2027-06-04 at 16:15", "2027-06-04, 8:45am": the clock time after the date is its time.
    const clock = time ? null : /^,?\s*(?:at\s+|@\s*)?(\d{1,2}):(\d{2})\s*([ap]\.?m\.?(?![a-z]))?(?![\d:])/i.exec(text.slice(m.index! + m[0].length));
    if (clock) {
      let hours = Number(clock[1]);
      const pm = clock[3] && /^p/i.test(clock[3]);
      if (pm && hours < 12) hours += 12;
      if (clock[3] && !pm && hours === 12) hours = 0;
      if (hours < 24) {
        const last = found.at(-1)!;
        last.time = `${pad(hours)}:${clock[2]}:00`;
        last.end += clock[0].length;
      }
    }
    const span = found.at(-1)!;
    masked = masked.slice(0, span.start) + " ".repeat(span.end - span.start) + masked.slice(span.end);
  }
  // "0715Z", "1645 hrs", "2215 UTC": a clock time in four digits, as ships, aircraft and rosters write it,
  // only with the mark that makes it one (a bare "0900" may be any number).
  for (const m of masked.matchAll(FOUR_DIGIT_TIME)) {
    const zulu = /^(?:z|zulu|utc|gmt)$/i.test(m[3]!);
    found.push({ start: m.index!, end: m.index! + m[0].length, date: now.toISOString().slice(0, 10), time: `${m[1]}:${m[2]}:00`, ...(zulu ? { offset: "Z" } : {}), dated: false });
    masked = masked.slice(0, m.index!) + " ".repeat(m[0].length) + masked.slice(m.index! + m[0].length);
  }
  // Line by line: a list's lines are separate statements, and chrono would join "Monday … - Last day" into
  // a range across them.
  const results: { r: chrono.ParsedResult; index: number }[] = [];
  let offset = 0;
  const weekdays = new Set<DateMention>();
  for (const line of masked.split("\n")) {
    for (const hit of parseLine(line, now, order)) results.push({ r: hit.r, index: hit.index + offset });
    offset += line.length + 1;
  }
  for (const { r, index } of results) {
    const lead = LEADING.exec(r.text)?.[0].length ?? 0;
    const start = index + lead;
    // "September 30, 2027, 22 EUR", "…2027, 14.25 EUR", "from 3 June 2027 of 15%": chrono reads the number
    // after the year as a time; it is not one (a time after a date is written with a colon or "at").
    // "from 3 June 2027 at 15 %": nor is a number that a percent sign or word follows, even after "at".
    const percentAfter = /^\s?(?:%|percent\b|per\s+cent\b)/i.test(text.slice(index + r.text.length));
    const tail = /(\d{4})(?:,|\s+(?!at\b)[a-z]+)?\s*\d{1,2}(?:\.\d{2})?$/i.exec(r.text) ?? (percentAfter ? /(\d{4})\s+at\s+\d{1,2}(?:\.\d+)?$/i.exec(r.text) : null);
    let end = tail ? index + tail.index + tail[1]!.length : index + r.text.length;
    // A year said aloud ends where its words end, not where its digits do.
    end = years.find((y) => end > y.start && end <= y.end)?.end ?? end;
    // A bare number or a code chrono reads as a day ("4.2.1", "R-12"): only expressions with a word, a
    // separator of dates, or a clock time count.
    const body = r.text.slice(lead, end - index);
    // "Dec 12.3911", "Mar 4.75": a number with a decimal part after it is a measure, not a day.
    if (/^\.\d/.test(text.slice(end))) continue;
    if (!DATE_WORD.test(body) && !/\d{1,2}[/.]\d{1,2}[/.]\d{2,4}/.test(body) && !/\d:\d\d|\d\s?[ap]\.?m\b/i.test(body)) continue;
    // A clock time just before an ISO date ("9pm on 2027-06-04", "at 14:30, 2027-06-04") is that date's time.
    // ("08:30 Lisbon time on 2027-09-14": with the clock's zone between them.)
    const between = (f: DateMention) => CLOCK_THEN_DATE.exec(text.slice(end, f.start));
    const before = !r.start.isCertain("day") && !r.start.isCertain("weekday") && r.start.isCertain("hour") ? found.find((f) => !f.time && f.start >= end && between(f) !== null) : undefined;
    if (before) {
      const named = between(before)?.[1]?.trim();
      before.time = fromComponents(r.start).time;
      before.start = start;
      const zone = named ? (zoneOf(named) ?? zoneOf(`${named} time`)) : undefined;
      if (zone && before.time) before.offset = offsetOfWallTime(zone, before.date, before.time);
      continue;
    }
    // "on 2027-05-03 from 10:00 to 13:30", "2027-05-03, between 9 and 11am": a clock time or range of times
    // right after an ISO date is on that date (read apart, it would be today's).
    const onDate = !r.start.isCertain("day") && !r.start.isCertain("weekday") && r.start.isCertain("hour") ? found.find((f) => f.dated && !f.time && f.end <= start && /^\s*(?:,\s*)?(?:at|from|between|starting(?:\s+at)?|beginning(?:\s+at)?)?\s*$/i.test(text.slice(f.end, start))) : undefined;
    if (onDate) {
      onDate.time = fromComponents(r.start).time;
      const until = r.end?.isCertain("hour") ? fromComponents(r.end).time : undefined;
      if (until) onDate.until = { date: onDate.date, time: until };
      onDate.end = end;
      continue;
    }
    // The same day written twice ("Sunday 2027-02-21"): the ISO form is read already.
    if (found.some((f) => f.start - end <= 3 && start - f.end <= 3 && f.start < start + 40)) {
      const iso = found.find((f) => f.start - end <= 3 && start - f.end <= 3);
      if (iso && !iso.time && r.start.isCertain("hour")) iso.time = fromComponents(r.start).time;
      continue;
    }
    // "for two hours", "a 30 minute visit": a length of time, not a date, unless it counts from now ("in
    // two weeks", "three days from now", "2 hours later").
    // (Two units count too: "an hour and 15 minutes".)
    const duration = /^(?:an?\s+|\d+(?:\.\d+)?\s*|[a-z]+[\s-]+)(?:[a-z]+[\s-]+)?(?:sec|second|min|minute|hour|hr|day|night|week|fortnight|month|year)s?(?:\s+and\s+(?:an?\s+|\d+\s*|[a-z]+[\s-]+)(?:sec|second|min|minute|hour|hr|day|night|week|month)s?)?$/i.test(body.trim().replace(/^[-–—:\s]+/, "").replace(APPROXIMATELY, ""));
    if (duration && !/^(?:in|within)\b/i.test(r.text) && !/^\s*(?:ago|later|from now|after)\b/i.test(masked.slice(end))) continue;
    const dated = r.start.isCertain("day") || r.start.isCertain("weekday");
    const at = fromComponents(r.start);
    if (tail) delete at.time;
    const until = r.end ? fromComponents(r.end) : undefined;
    const unsure = order === undefined && [...body.matchAll(SLASH_DATE)].some((m) => Number(m[1]) <= 12 && Number(m[2]) <= 12 && Number(m[1]) !== Number(m[2]));
    found.push({ start, end, ...at, ...(until ? { until } : {}), dated, ...(unsure ? { orderUnsure: true } : {}) });
    if (r.start.isCertain("weekday") && !r.start.isCertain("day")) weekdays.add(found.at(-1)!);
  }
  found.sort((a, b) => a.start - b.start);
  // "Sunday the 21st of March 2027", "tuesday, march 2nd": a weekday just before a date names that date's
  // day; read apart, it would be a second date (the next such weekday).
  for (let i = found.length - 2; i >= 0; i--) {
    const [day, next] = [found[i]!, found[i + 1]!];
    if (!weekdays.has(day) || weekdays.has(next) || !/^[\s,]*(?:the\s+)?$/i.test(text.slice(day.end, next.start))) continue;
    next.start = day.start;
    if (day.time && !next.time) next.time = day.time;
    found.splice(i, 1);
  }
  attachSpokenTimes(text, found);
  for (const f of found) zoneAfter(text, f);
  return found;
}

// Between a clock time and the date it is on: a comma, "on" or "of", and perhaps the clock's zone ("Toronto
// time", "(CET)", "UTC").
const CLOCK_THEN_DATE = /^\s*(?:\(?\s*([A-Za-z][A-Za-z_]*(?:\/[A-Za-z_]+){0,2}(?:\s+[A-Za-z][a-z]+){0,2}?)(?:\s+time)?\s*\)?\s*)?(?:,|on|of)?\s*$/;

// A zone named right after a clock time: "09:00 CET", "2pm (Pacific)", "23:30 UTC", "10:00 London time",
// "08:15 Europe/Madrid". One to three words, so a name of two words ("New York time") is read whole.
const ZONE_AFTER = /^\s*\(?\s*([A-Za-z][A-Za-z_]*(?:\/[A-Za-z_]+){0,2}(?:\s+(?!time\b)[A-Za-z][a-z]+){0,2})(?:\s+time)?\s*\)?(?=$|[\s,.;:!?)])/;

/**
 * The offset of a time the text gives in a named zone, on its day (daylight saving included): the mention
 * gets the offset and its span the zone's words. A time with an offset of its own keeps it.
 */
function zoneAfter(text: string, f: DateMention): void {
  if (!f.time || f.offset) return;
  const m = ZONE_AFTER.exec(text.slice(f.end));
  if (!m) return;
  const words = m[1]!.split(/\s+/);
  // The longest run of words that names a zone ("New York" before "New").
  for (let n = words.length; n >= 1; n--) {
    // ("Irish time": a country's zone is named with "time" only.)
    const zone = zoneOf(words.slice(0, n).join(" ")) ?? (n === words.length && /\btime\b/i.test(m[0]) ? zoneOf(`${words.join(" ")} time`) : undefined);
    if (!zone) continue;
    f.offset = offsetOfWallTime(zone, f.date, f.time);
    const said = n === words.length ? m[0] : text.slice(f.end).slice(0, text.slice(f.end).indexOf(words[n - 1]!) + words[n - 1]!.length);
    f.end += said.length;
    return;
  }
}

const HOURS = ["twelve", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven"];
const SPOKEN_TIME = new RegExp(`\\b(${HOURS.join("|")})(?:[\\s-]+(o'?\\s?clock|oh[\\s-]+[a-z]+|[a-z]+(?:[\\s-][a-z]+)?))?[\\s-]*(a\\.?\\s?m\\b\\.?|p\\.?\\s?m\\b\\.?|in the morning|in the afternoon|in the evening|o'?\\s?clock)`, "gi");

const MONTH_BEFORE = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b[^.\n]{0,24}$/i;

/**
 * Years said aloud after a month ("may fourth nineteen ninety", "june ninth twenty twenty seven") written
 * in digits for chrono, padded so every span still points into the original text. Elsewhere "nineteen
 * ninety" may be two counts and is left alone.
 */
function spokenYears(text: string, spans: { start: number; end: number }[] = []): string {
  return text.replace(/\b(nineteen|twenty)[\s-]+([a-z]+(?:[\s-][a-z]+)?)\b/gi, (whole, century: string, rest: string, at: number) => {
    if (!MONTH_BEFORE.test(text.slice(0, at))) return whole;
    const words = rest.toLowerCase().split(/[\s-]+/);
    const years = readNumberWords(words, 0);
    // "twenty twenty seven o'clock" is not a year; the number must use every word after the century.
    if (!years || years.length !== words.length || years.value < 10 || years.value > 99) return whole;
    const year = `${century.toLowerCase() === "nineteen" ? 19 : 20}${years.value}`;
    spans.push({ start: at, end: at + whole.length });
    return year.padEnd(whole.length, " ");
  });
}

/** Where clock times said in words stand ("seven fifteen a m"): their number words are the time's, not counts. */
export function spokenTimeSpans(text: string): { start: number; end: number }[] {
  return spokenTimes(text).map(({ start, end }) => ({ start, end }));
}

/**
 * Clock times said in words, as a voice transcript writes them ("nine thirty a m", "ten o'clock in the
 * morning"): the time of the date mentioned on the same line that has none.
 */
function attachSpokenTimes(text: string, found: DateMention[]): void {
  for (const t of spokenTimes(text)) {
    const lineStart = text.lastIndexOf("\n", t.start) + 1;
    const lineEnd = text.indexOf("\n", t.start) === -1 ? text.length : text.indexOf("\n", t.start);
    const date = found.find((d) => !d.time && d.start >= lineStart && d.end <= lineEnd);
    if (date) date.time = `${pad(t.hours)}:${pad(t.minutes)}:00`;
  }
}

/**
 * Every clock time said in words, with its span. Words between the hour and "a m" that are not minutes
 * ("seven at nine a m") are no time: the search goes on from the word after the hour.
 */
const HALF_HOUR = new RegExp(`(\\b(?:till|til|until|to|from|at|by|and|around|about)\\s+|[-–]\\s?)half\\s+(${HOURS.join("|")}|1[0-2]|0?[1-9])\\b(?!\\s*(?:hours?|hrs?|an?\\b|of\\b|past\\b|to\\b))`, "gi");
const PAST_TO = new RegExp(`\\b(half|quarter)\\s+(past|after|to)\\s+(${HOURS.join("|")}|1[0-2]|0?[1-9])\\b(?:\\s*(a\\.?\\s?m\\b\\.?|p\\.?\\s?m\\b\\.?|in the morning|in the afternoon|in the evening))?`, "gi");

function spokenTimes(text: string): { start: number; end: number; hours: number; minutes: number }[] {
  const out: { start: number; end: number; hours: number; minutes: number }[] = [];
  // "half past nine" is 9:30, "quarter to five pm" 16:45; with no a.m. or p.m. the hour is as said.
  for (const m of text.matchAll(PAST_TO)) {
    const said = /^\d/.test(m[3]!) ? Number(m[3]) % 12 : HOURS.indexOf(m[3]!.toLowerCase());
    const to = m[2]!.toLowerCase() === "to";
    let hours = to ? (said + 11) % 12 : said;
    if (hours === 0 && !m[4]) hours = said === 0 ? 12 : hours;
    const minutes = m[1]!.toLowerCase() === "half" ? 30 : to ? 45 : 15;
    if (m[4] && /^p|afternoon|evening/i.test(m[4])) hours += 12;
    out.push({ start: m.index!, end: m.index! + m[0].length, hours, minutes });
  }
  const re = new RegExp(SPOKEN_TIME.source, "gi");
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let hours = HOURS.indexOf(m[1]!.toLowerCase());
    const middle = (m[2] ?? "").toLowerCase().replace(/^oh[\s-]+/, "");
    let minutes = 0;
    if (middle && !/clock/.test(middle)) {
      const spoken = readNumberWords(middle.split(/[\s-]+/), 0);
      if (!spoken || spoken.length !== middle.split(/[\s-]+/).length || spoken.value >= 60) {
        re.lastIndex = m.index + m[1]!.length;
        continue;
      }
      minutes = spoken.value;
    }
    if (/^p|afternoon|evening/.test(m[3]!.toLowerCase())) hours += 12;
    out.push({ start: m.index, end: m.index + m[0].length, hours, minutes });
  }
  return out;
}

/**
 * chrono's reading of one line; a numeric date written day first ("19/3/2027", or any when `order` says
 * so) is read British, as the US reading would miss or misread it.
 */
function parseLine(line: string, now: Date, order: DateOrder | undefined): { r: chrono.ParsedResult; index: number }[] {
  if (line.trim() === "") return [];
  // "6. April 2027": a day with the full stop of an ordinal (as much of Europe writes it) is a day, not a
  // clock hour; the stop becomes a space, so offsets do not move.
  line = line.replace(/\b(\d{1,2})\.(?=\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)/gi, "$1 ");
  try {
    let results = chrono.parse(line, { instant: now, timezone: "UTC" }, { forwardDate: true }).map((r) => ({ r, index: r.index }));
    // Day first: a date written with full stops ("04.05.2027" is 4 May, as the countries that write it so
    // read it), and every slash date of a line whose other slash date can only be day first ("14/05/2027").
    const slashes = [...line.matchAll(SLASH_DATE)];
    const dayFirst = slashes.some((m) => Number(m[1]) > 12) || (order === "day-first" && !slashes.some((m) => Number(m[2]) > 12));
    for (const m of [...line.matchAll(/(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{4})(?![\d.])/g), ...slashes]) {
      if (m[0].includes("/") && !dayFirst) continue;
      // The reading that holds the date ("4.5.2027 at 10:00") is read again day first, as a whole.
      const covering = results.find((x) => x.index <= m.index! && x.index + x.r.text.length >= m.index! + m[0].length);
      const from = covering?.index ?? m.index!;
      const british = chrono.en.GB.parse(line.slice(from, covering ? from + covering.r.text.length : m.index! + m[0].length), { instant: now, timezone: "UTC" }, { forwardDate: true })[0];
      if (!british) continue;
      results = results.filter((x) => x !== covering);
      results.push({ r: british, index: from + british.index });
    }
    return results.sort((a, b) => a.index - b.index);
  } catch {
    return [];
  }
}
