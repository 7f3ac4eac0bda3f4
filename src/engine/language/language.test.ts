// The language layer on its own: every verb class holds its members together and apart from the others
// (in every inflection people write), typed values across surface forms, and a tokenizer that never throws.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NOUN_SYNONYMS, VERB_CLASSES, channelOf, conceptsOf, impliedObject, isDispatchVerb, isSupportVerb, namesPeople, sameConcept, verbClassOf } from "./lemmas.ts";
import { dateOrderOfCurrencies, dateOrderShown, readDates, type DateOrder } from "./dates.ts";
import { tokenize } from "./tokens.ts";
import { zoneOf } from "./zones.ts";
import { placeCountry } from "./places.ts";
import { countryCode, countryOfPeople } from "./regions.ts";
import { isAmountNoun } from "./wordnet.ts";
import { convert, unitOfName } from "./units.ts";
import { tag } from "./nlp.ts";

// Inflections a rule or a request uses for a verb: the word, its -s, -ing and -ed forms (spelled by rule).
function inflections(verb: string): string[] {
  if (verb.includes("_") || verb.includes("-")) return [verb];
  const stem = verb.endsWith("e") ? verb.slice(0, -1) : verb;
  const s = /(s|x|ch|sh)$/.test(verb) ? `${verb}es` : verb.endsWith("y") && !/[aeiou]y$/.test(verb) ? `${verb.slice(0, -1)}ies` : `${verb}s`;
  return [verb, s, `${stem}ing`, verb.endsWith("e") ? `${verb}d` : `${stem}ed`];
}

describe("verb classes", () => {
  for (const line of VERB_CLASSES) {
    const head = line[0]!;
    it(`${head}: every member and its inflections mean ${head}, and nothing of another class`, () => {
      for (const member of line) {
        if (member.includes("_")) continue;
        for (const form of inflections(member)) {
          // A few irregular or noun-only spellings are not real words; the member itself always holds.
          if (form !== member && verbClassOf(form) === undefined) continue;
          expect(verbClassOf(form), `${form} (${member})`).toBe(head);
        }
        expect(sameConcept(member, head), member).toBe(true);
      }
      for (const other of VERB_CLASSES) {
        if (other === line) continue;
        expect(sameConcept(head, other[0]!), `${head} vs ${other[0]}`).toBe(false);
      }
    });
  }

  it("opposite operations never meet", () => {
    for (const [a, b] of [["create", "delete"], ["enable", "disable"], ["read", "write"], ["approve", "reject"], ["increase", "decrease"], ["send", "read"]] as const) {
      expect(sameConcept(a, b), `${a}/${b}`).toBe(false);
    }
  });

  it("nouns of action reach their verb", () => {
    for (const [noun, verb] of [["deletion", "delete"], ["payment", "pay"], ["payouts", "pay"], ["cancellation", "cancel"], ["deployments", "deploy"], ["refunds", "refund"], ["publishing", "send"]] as const) {
      expect(conceptsOf(noun).has(`:${verbClassOf(verb)}`), `${noun} → ${verb}`).toBe(true);
    }
  });

  it("nouns of action whose Latin stem changes before -tion reach their verb", () => {
    const pairs = [["prescriptions", "prescribe"], ["subscription", "subscribe"], ["transcriptions", "transcribe"], ["consumption", "consume"], ["assumptions", "assume"], ["exceptions", "except"], ["interceptions", "intercept"], ["reductions", "reduce"], ["introduction", "introduce"], ["deductions", "deduct"], ["interventions", "intervene"], ["preventions", "prevent"]] as const;
    for (const [noun, verb] of pairs) expect(conceptsOf(noun).has(verb), `${noun} → ${verb}`).toBe(true);
  });

  it("nouns in -ure, -age and -ration reach their verb, and a few whose spelling does not give it", () => {
    const pairs = [["departures", "depart"], ["closure", "close"], ["seizures", "seize"], ["failure", "fail"], ["storage", "store"], ["breakages", "break"], ["shrinkage", "shrink"], ["registration", "register"], ["administration", "administer"], ["filtration", "filter"], ["sales", "sell"], ["gifts", "give"], ["losses", "lose"]] as const;
    for (const [noun, verb] of pairs) expect(conceptsOf(noun).has(verb), `${noun} → ${verb}`).toBe(true);
    // Words that only end like them are no doing of a verb of theirs.
    for (const [word, not] of [["nature", "nat"], ["image", "im"], ["manage", "man"], ["garage", "gar"]] as const) expect(conceptsOf(word).has(not), `${word} ↛ ${not}`).toBe(false);
  });

  it("British and American spellings are one word", () => {
    for (const [a, b] of [["enrol", "enroll"], ["enrolment", "enroll"], ["instal", "install"], ["organise", "organize"], ["authorisation", "authorization"], ["cancelled", "cancel"], ["criticising", "criticizing"]] as const) {
      expect(sameConcept(a, b) || conceptsOf(a).has(b) || conceptsOf(b).has(a), `${a}/${b}`).toBe(true);
    }
  });
});

describe("typed values", () => {
  const money = (text: string) => tokenize(text).find((t) => t.kind === "money");
  it("money in symbols, codes, names, scales and separators", () => {
    const cases: [string, number, string][] = [
      ["$1,200", 1200, "USD"], ["1.2k USD", 1200, "USD"], ["EUR 5,000", 5000, "EUR"], ["5.000,50 €", 5000.5, "EUR"], ["£190,000", 190000, "GBP"],
      ["¥6,800", 6800, "JPY"], ["twelve hundred dollars", 1200, "USD"], ["2 million euros", 2_000_000, "EUR"], ["300 US dollars", 300, "USD"],
      ["a quarter of a million dollars", 250_000, "USD"], ["50 pounds sterling", 50, "GBP"], ["$2m", 2_000_000, "USD"], ["a thousand yen", 1000, "JPY"],
      ["twelve euros forty each", 12.4, "EUR"], ["thirty-one pounds fifteen", 31.15, "GBP"],
    ];
    for (const [text, value, currency] of cases) {
      const m = money(text);
      expect(m, text).toBeDefined();
      if (m?.kind === "money") expect([m.value, m.currency], text).toEqual([value, currency]);
    }
  });

  it("a minus sign or a lone dash before a number makes it negative; an apostrophe may group thousands", () => {
    const first = (text: string) => {
      const t = tokenize(text).find((x) => x.kind === "quantity" || x.kind === "money" || x.kind === "number");
      return t?.kind === "quantity" ? t.quantity.value : t && "value" in t ? t.value : undefined;
    };
    for (const minus of ["\u2212", "\u2013", "-"]) {
      for (const [written, value] of [["4.5 °C", -4.5], ["12 °F", -12], ["0.5 degrees", -0.5]] as const) {
        for (const lead of ["", "reads ", "(", "at: "]) expect(first(`${lead}${minus}${written}`), `${lead}${minus}${written}`).toBe(value);
      }
    }
    // The sign in words, before figures or number words; after a value "minus" is not a sign.
    for (const sign of ["minus", "negative", "Minus"]) {
      for (const [written, value] of [["3.5 °C", -3.5], ["seven degrees", -7], ["12 °F", -12], ["forty celsius", -40], ["0.5", -0.5]] as const) {
        for (const lead of ["", "probe reading: ", "it's ", "("]) expect(first(`${lead}${sign} ${written}`), `${lead}${sign} ${written}`).toBe(value);
      }
    }
    expect(first("10 minus 2")).toBe(10);
    expect(tokenize("10 minus 2").filter((x) => x.kind === "number").map((x) => (x.kind === "number" ? x.value : 0))).toEqual([10, 2]);
    // Between two numbers a dash is a range, never a sign.
    for (const range of ["4\u20139 °C", "4 \u2013 9 °C", "4\u22129"]) expect(first(range), range).toBe(4);
    for (const [written, value] of [["CHF 2'450", 2450], ["1'250'000 francs", 1_250_000], ["CHF 7\u2019300.25", 7300.25], ["3'100", 3100]] as const) expect(first(written), written).toBe(value);
    // Not before fewer or more than three digits: an elision or a quotation.
    expect(first("it's 5'10 tall")).toBe(5);
  });

  it("quantities with units convert within their dimension only", () => {
    const q = (text: string) => tokenize(text).find((t) => t.kind === "quantity");
    for (const [text, kind] of [["50 kg", "mass"], ["2.0 m/s", "speed"], ["10 metres per second", "speed"], ["30 °C", "temperature"], ["5 kW", "power"], ["3 kWh", "energy"], ["100MB", "information"], ["2 hours", "time"], ["120 m", "length"]] as const) {
      const t = q(text);
      expect(t?.kind === "quantity" ? t.quantity.kind : undefined, text).toBe(kind);
    }
    // A length or volume "an hour", "a minute", "per second" is one rate, however the length is said; a time
    // per time is not, and "an hour" alone is still an hour.
    for (const [count, value] of [["70", 70], ["seventy", 70], ["45.5", 45.5]] as const) {
      for (const length of ["km", "kilometres", "k's", "ks", "klicks"]) {
        for (const per of ["an hour", "per hour", "a hour", "per hr"]) {
          const t = q(`reading ${count} ${length} ${per}, steady`);
          expect(t?.kind === "quantity" ? [t.quantity.kind, convert(t.quantity.value, t.quantity.unit, "km/h")] : undefined, `${count} ${length} ${per}`).toEqual(["speed", value]);
        }
      }
      for (const [flow, unit] of [["litres a minute", "l/min"], ["gallons per hour", "gal/h"]] as const) {
        const t = q(`${count} ${flow}`);
        expect(t?.kind === "quantity" ? [t.quantity.kind, t.quantity.value, t.quantity.unit] : undefined, `${count} ${flow}`).toEqual(["volumetric_flow", value, unit]);
      }
    }
    expect(tokenize("60 clicks an hour").some((t) => t.kind === "quantity" && t.quantity.kind === "speed")).toBe(false);
    expect(q("allow 2 hours an hour")).toMatchObject({ quantity: { kind: "time", value: 2 } });
    expect(q("close it for an hour")).toMatchObject({ quantity: { kind: "time", value: 1 } });
    // "and a half" adds half the unit; an English word after a number is not a unit ("as" is no attosecond).
    const hours = q("a shift of two hours and a half");
    expect(hours?.kind === "quantity" ? hours.quantity.value : undefined).toBe(2.5);
    expect(q("shelve 420 as fiction")).toBeUndefined();
    // A short symbol is a unit the library names or a common prefix on one; chat shorthand is not.
    for (const text of ["K4 8120 pls", "send 12 thx", "20 ty"]) expect(q(text), text).toBeUndefined();
    for (const [text, kind] of [["5 km", "length"], ["2 ms", "time"], ["3 ml", "volume"], ["4 dl", "volume"], ["10 mm", "length"], ["3 ha", "area"], ["5 kt", "speed"]] as const) {
      const t = q(text);
      expect(t?.kind === "quantity" ? t.quantity.kind : undefined, text).toBe(kind);
    }
    // The minor part is read only when nothing makes it a count of its own.
    expect(money("pay 8 dollars 4 times")).toMatchObject({ value: 8 });
    expect(convert(2, "kg", "g")).toBeCloseTo(2000);
    expect(convert(2, "kg", "m")).toBeUndefined();
    expect(unitOfName(["payload", "kg"])?.kind).toBe("mass");
    expect(unitOfName(["temperature", "f"])?.unit).toBe("tempF");
    expect(unitOfName(["min", "amount"])).toBeUndefined();
    // Names are written in lower case: units whose case matters are read in their usual case.
    for (const [suffix, unit] of [["kpa", "kPa"], ["mpa", "MPa"], ["hpa", "hPa"], ["pa", "Pa"], ["mmhg", "mmHg"], ["kj", "kJ"]] as const) {
      expect(unitOfName(["line", "pressure", suffix])?.unit, suffix).toBe(unit);
    }
    // A scale letter alone is read as a temperature scale when the rule compares a temperature.
    expect(unitOfName(["forecast", "high", "c"])).toBeUndefined();
    expect(unitOfName(["forecast", "high", "c"], "temperature")?.unit).toBe("tempC");
    expect(unitOfName(["forecast", "low", "f"], "temperature")?.unit).toBe("tempF");
  });

  it("clock ranges, zones by name and by city", () => {
    expect(tokenize("9am-6pm").find((t) => t.kind === "time_range")).toMatchObject({ from: 540, to: 1080 });
    expect(tokenize("08:00-20:00").find((t) => t.kind === "time_range")).toMatchObject({ from: 480, to: 1200 });
    expect(zoneOf("europe/berlin")).toBe("Europe/Berlin");
    expect(zoneOf("new york")).toBe("America/New_York");
    expect(zoneOf("UTC")).toBe("UTC");
  });

  it("tags, e-mails, domains and quoted text keep their form", () => {
    const kinds = tokenize('post to #general and @ops, mail bob@acme.test about "Q3 numbers" on example.org').map((t) => t.kind);
    expect(kinds).toEqual(expect.arrayContaining(["tag", "email", "quoted", "domain"]));
  });

  it("never throws, whatever the text", () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (text) => void tokenize(text)), { numRuns: 2000 });
  });

  it("names with a number after their words, addresses and blocks are one word each", () => {
    const words = (text: string) => tokenize(text).filter((t) => t.kind === "word").map((t) => t.text);
    for (const name of ["us-east-2", "ap-south-1b", "10.20.30.40", "172.16.0.0/12", "192.168.10.0/24"]) {
      for (const text of [`deploy to ${name} today`, `${name}, please`, `in ${name} or elsewhere`]) expect(words(text), text).toContain(name);
    }
    // Codes of letters then digits stay as they were; a number before an address is no clock range.
    expect(tokenize("allow port 443 to 172.16.0.0/12").some((t) => t.kind === "time_range")).toBe(false);
    expect(tokenize("from 9:00 to 17:00.").some((t) => t.kind === "time_range")).toBe(true);
  });

  it("a count and its unit joined as one adjective", () => {
    const q = (text: string) => tokenize(text).find((t) => t.kind === "quantity");
    for (const [text, unit, value] of [["a two-year term", "y", 2], ["a 2-year term", "y", 2], ["a 10-minute call", "min", 10], ["a 5-kg bag", "kg", 5], ["three-hour shift", "h", 3]] as const) {
      const t = q(text);
      expect(t?.kind === "quantity" ? [t.quantity.unit, t.quantity.value] : undefined, text).toEqual([unit, value]);
    }
    const months = q("a 6-month lease");
    expect(months?.kind === "quantity" ? [months.quantity.name, convert(months.quantity.value, months.quantity.unit, "year")] : undefined).toEqual(["month", 0.5]);
    // A hyphen between a number and a word that is no unit is not one.
    expect(tokenize("a 3-way call").some((t) => t.kind === "quantity")).toBe(false);
  });
});

describe("two numbers joined like a range", () => {
  // A range of clock times is read as one; any other "N to M" must come apart into its numbers (it once
  // recursed without end on shapes like "0to0").
  it("never throws, and keeps both numbers when they are no clock range", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99 }), fc.constantFrom("to", "TO", "To", "-", "–", "—"), fc.constantFrom("", " "), fc.integer({ min: 0, max: 99 }), (a, sep, gap, b) => {
        const tokens = tokenize(`from ${a}${gap}${sep}${gap}${b} units`);
        const range = tokens.find((t) => t.kind === "time_range");
        // Hours (0–23) on both sides are what the range reader tries; other numbers are read by other readers.
        if (!range && a < 24 && b < 24) expect(tokens.filter((t) => t.kind === "number").map((t) => (t as { value: number }).value)).toEqual([a, b]);
      }),
      { numRuns: 500 },
    );
  });
});

describe("a code of digits, letters and digits", () => {
  // ("6KWP318" on a plate reaches the tokenizer as written; it lower-cases it, as every test here shows.)
  const words = (text: string) => tokenize(text).filter((t) => t.kind === "word").map((t) => t.text);
  it("is one word, not a number and a word", () => {
    for (const code of ["6kwp318", "12ab345", "6KWP318"]) {
      for (const text of [code, `plate ${code} please`, `serial: ${code}.`, `(${code}), then`]) {
        expect(words(text), text).toContain(code.toLowerCase());
        expect(tokenize(text).some((t) => t.kind === "number" || t.kind === "quantity" || t.kind === "time"), text).toBe(false);
      }
    }
  });
  it("one letter between numbers, a unit or a meridiem keeps its number, quantity or time", () => {
    for (const [text, kind, value] of [["1h30", "number", 1], ["3x4", "number", 3], ["5kg", "quantity", 5], ["10am", "time", 600]] as const) {
      for (const written of [text, `about ${text} please`]) {
        const tokens = tokenize(written);
        expect(tokens.some((t) => t.kind === "word" && t.text === text), written).toBe(false);
        const first = tokens.find((t) => t.kind !== "word" && t.kind !== "punct");
        const read = first?.kind === "quantity" ? first.quantity.value : first?.kind === "time" ? first.minutes : first?.kind === "number" ? first.value : undefined;
        expect([first?.kind, read], written).toEqual([kind, value]);
      }
    }
  });
});

describe("dates as people write them", () => {
  const now = new Date("2026-11-24T12:00:00Z");
  const day = (text: string) => readDates(text, now).map((d) => (d.time ? `${d.date} ${d.time}` : d.date));

  it("one calendar day, whatever the written form", () => {
    for (const form of ["2027-03-09", "March 9, 2027", "9 March 2027", "Mar 9th 2027", "the 9th of March 2027", "tuesday march ninth 2027"]) expect(day(form), form).toEqual(["2027-03-09"]);
    // Slashed dates read month first; day first only when the first number cannot be a month.
    expect(day("due 3/9/2027")).toEqual(["2027-03-09"]);
    expect(day("due 19/3/2027")).toEqual(["2027-03-19"]);
  });

  it("a date and its clock time, in digits or in words", () => {
    expect(day("2027-06-04 at 16:15")).toEqual(["2027-06-04 16:15:00"]);
    expect(day("Friday 2027-06-04, 8:45am")).toEqual(["2027-06-04 08:45:00"]);
    expect(day("april twelfth 2027 at ten forty a m")).toEqual(["2027-04-12 10:40:00"]);
    expect(day("on march 3 2027 at two p m")).toEqual(["2027-03-03 14:00:00"]);
  });

  it("not a date: lengths of time, quantities, versions, amounts after a year", () => {
    expect(day("for two hours")).toEqual([]);
    expect(day("a 30 minute slot")).toEqual([]);
    expect(day("cap it at 1.8 m/s")).toEqual([]);
    expect(day("firmware 4.2.1 on R-12")).toEqual([]);
    expect(readDates("September 30, 2027, 22 EUR per bag", now)[0]).toMatchObject({ date: "2027-09-30", end: 18 });
    expect(day("a markdown from 2 June 2027 of 15%")).toEqual(["2027-06-02"]);
    expect(day("from 2 June 2027 at 15")).toEqual(["2027-06-02 15:00:00"]);
  });

  it("day first where the writer's convention says so: full stops, or a slash date beside one only day first fits", () => {
    const dates = (text: string) => readDates(text, new Date("2026-11-24T12:00:00Z")).map((d) => d.date);
    expect(dates("ready 04.05.2027")).toEqual(["2027-05-04"]);
    expect(dates("on 14/05/2027 and 07/09/2027")).toEqual(["2027-05-14", "2027-09-07"]);
    expect(dates("version 4.2.1")).toEqual([]);
  });

  it("a slash date either part of which could be the month is read in the order given, else marked unsure", () => {
    const read = (text: string, order?: DateOrder) => readDates(text, now, order).map((d) => `${d.date}${d.orderUnsure ? "?" : ""}`);
    const two = (n: number) => String(n).padStart(2, "0");
    for (const [d, m] of [[7, 9], [2, 6], [11, 3], [1, 12]] as const) {
      const written = `${two(d)}/${two(m)}/2027`;
      const [dayFirst, monthFirst] = [`2027-${two(m)}-${two(d)}`, `2027-${two(d)}-${two(m)}`];
      expect(read(`booked for ${written}`, "day-first"), written).toEqual([dayFirst]);
      expect(read(`booked for ${written}`, "month-first"), written).toEqual([monthFirst]);
      expect(read(`booked for ${written}`), written).toEqual([`${monthFirst}?`]);
      // The text's own dates show its order, whatever the caller supposed.
      expect(read(`${written}, and the follow-up 23/${two(m)}/2027`, "month-first"), written).toEqual([dayFirst, `2027-${two(m)}-23`]);
    }
    // The same number twice, or a part above 12, leaves no doubt.
    expect(read("on 05/05/2027")).toEqual(["2027-05-05"]);
    expect(read("on 3/14/2027")).toEqual(["2027-03-14"]);
    expect(read("on 14/3/2027")).toEqual(["2027-03-14"]);
    expect(dateOrderShown("from 3/14/2027 to 4/02/2027")).toBe("month-first");
    expect(dateOrderShown("from 14/3/2027 to 3/14/2027")).toBeUndefined();
  });

  it("the date order of the place a workspace's money is from", () => {
    expect(dateOrderOfCurrencies(["GBP"])).toBe("day-first");
    expect(dateOrderOfCurrencies(["EUR", "GBP", "EUR"])).toBe("day-first");
    expect(dateOrderOfCurrencies(["USD", "USD"])).toBe("month-first");
    expect(dateOrderOfCurrencies(["USD", "EUR"])).toBeUndefined();
    expect(dateOrderOfCurrencies(["CAD"])).toBeUndefined();
    expect(dateOrderOfCurrencies([])).toBeUndefined();
  });

  it("a range is two ends; a year left out is the next to come", () => {
    expect(readDates("off from Feb 8 to Feb 12", now)[0]).toMatchObject({ date: "2027-02-08", until: { date: "2027-02-12" } });
    expect(day("in two weeks")).toEqual(["2026-12-08"]);
  });
});

describe("nouns that name one thing, support verbs, implied objects", () => {
  it("every synonym line meets in its head, in singular and plural, and never another line", () => {
    for (const line of NOUN_SYNONYMS) {
      for (const w of line) {
        expect(sameConcept(w, line[0]!), `${w} / ${line[0]}`).toBe(true);
        expect(sameConcept(`${w}s`, line[0]!), `${w}s / ${line[0]}`).toBe(true);
      }
      for (const other of NOUN_SYNONYMS) if (other !== line) expect(sameConcept(line[0]!, other[0]!), `${line[0]} vs ${other[0]}`).toBe(false);
    }
    // Synonyms are nouns: they bring no verb class with them.
    expect(verbClassOf("parcels")).toBeUndefined();
    expect(sameConcept("documents", "folder")).toBe(false);
  });

  it("support verbs in their inflections; verbs of their own are not", () => {
    for (const w of ["issue", "issuing", "issued", "gives", "giving", "raise", "raising", "lodged", "submits", "applying"]) expect(isSupportVerb(w), w).toBe(true);
    for (const w of ["delete", "refund", "send", "approve", "cancel", "list"]) expect(isSupportVerb(w), w).toBe(false);
  });

  it("an object a verb acts on anyway: money for paying and wiring, code for deploying; nothing else", () => {
    expect(impliedObject("transfer", "money")).toBe(true);
    expect(impliedObject("pay", "funds")).toBe(true);
    expect(impliedObject("deploy", "code")).toBe(true);
    expect(impliedObject("delete", "money")).toBe(false);
    expect(impliedObject("deploy", "database")).toBe(false);
  });

  it("channels, people, dispatching", () => {
    for (const [w, c] of [["texting", "sms"], ["texts", "sms"], ["SMS", "sms"], ["e-mails", "email"], ["emailing", "email"], ["mailed", "email"]] as const) expect(channelOf(w.toLowerCase()), w).toBe(c);
    for (const w of ["send", "share", "notify", "post"]) expect(channelOf(w), w).toBeUndefined();
    for (const w of ["customers", "clients", "people", "users", "recipients", "patients"]) expect(namesPeople(w), w).toBe(true);
    for (const w of ["invoices", "files", "payments"]) expect(namesPeople(w), w).toBe(false);
    for (const w of ["ship", "dispatch", "deliver"]) expect(isDispatchVerb(w), w).toBe(true);
    expect(isDispatchVerb("deploy")).toBe(false);
  });

  it("zones by their everyday English names (Intl's generic names)", () => {
    for (const [text, zone] of [["UK", "Europe/London"], ["Eastern", "America/New_York"], ["Pacific", "America/Los_Angeles"], ["Japan", "Asia/Tokyo"]] as const) expect(zoneOf(text), text).toBe(zone);
    expect(zoneOf("refunds")).toBeUndefined();
  });

  it("particles of phrasal words name no operation ('start-ups' is start, not up)", () => {
    expect(conceptsOf("start-ups").has("start")).toBe(true);
    expect(verbClassOf("start-ups")).toBeUndefined();
    expect(verbClassOf("roll-outs")).toBe("deploy");
    expect(verbClassOf("e-mails")).toBe("send");
  });

  it("a range that is not two clock times is read as its parts, never as itself again", () => {
    for (const text of ["9 to 5", "0tO0", "shifts 9 to 5 only"]) expect(() => tokenize(text), text).not.toThrow();
    expect(tokenize("9 to 5").map((t) => t.kind)).toEqual(["number", "word", "number"]);
  });
});

describe("compounds of a verb and its particle", () => {
  it("are nouns, whatever their particle, so they are never dropped as a preposition", () => {
    for (const word of ["write-off", "check-in", "hand-off", "sign-up", "roll-out", "log-in", "mark-up", "cut-over"]) {
      for (const sentence of [["block", "every", word], ["no", word, "over", "5"], ["the", word, "is", "late"]]) {
        const tagged = tag(sentence);
        const at = sentence.indexOf(word);
        expect(tagged[at]!.pos, `${sentence.join(" ")}`).toBe("NOUN");
      }
    }
  });
});


describe("countries", () => {
  it("a country's English name, with or without 'the', or its code in use is its ISO code; a retired code reads as its successor", async () => {
    const { countryCode } = await import("./regions.ts");
    for (const [text, code] of [["Laos", "LA"], ["north macedonia", "MK"], ["the Netherlands", "NL"], ["Myanmar", "MM"], ["Burma", "MM"], ["United States", "US"], ["ir", "IR"], ["UK", "GB"], ["gb", "GB"], ["Norway", "NO"]] as const) expect(countryCode(text), text).toBe(code);
    for (const text of ["zz", "Atlantis", "the", "track section", ""]) expect(countryCode(text), text).toBeUndefined();
  });
});

describe("nouns of doing by WordNet's derivations, zones by initials and regions", () => {
  it("a noun of doing names the verb it is made from, where no suffix says it", () => {
    for (const [noun, verb] of [["revocation", "revoke"], ["revocations", "revoke"], ["issuance", "issue"], ["dispensation", "dispense"], ["transfusion", "transfuse"]] as const) {
      expect(conceptsOf(noun).has(verb), `${noun} → ${verb}`).toBe(true);
    }
  });
  it("a person is not the act: employer and employee stay apart, and a thing is not a doing", () => {
    expect([...conceptsOf("employee")].some((c) => conceptsOf("employer").has(c) && c !== ":create")).toBe(false);
    expect(conceptsOf("zebra").has("zeb")).toBe(false);
  });
  it("a city of several words by its initials, a state by IANA's backward names", () => {
    expect(zoneOf("LA")).toBe("America/Los_Angeles");
    expect(zoneOf("HK")).toBe("Asia/Hong_Kong");
    expect(zoneOf("Hawaii")).toBe("Pacific/Honolulu");
    expect(zoneOf("Queensland")).toBe("Australia/Brisbane");
    expect(zoneOf("Narnia")).toBeUndefined();
  });
});

describe("a zone named after a clock time gives the time its offset", () => {
  // Meaning: a wall time in a zone, on a day; the forms the zone is written in.
  const cases: { day: string; clock: string; zones: string[]; offset: string }[] = [
    { day: "2027-01-14", clock: "09:00", zones: ["CET", "(CET)", "Europe/Paris", "Paris time"], offset: "+01:00" },
    { day: "2027-07-14", clock: "09:00", zones: ["CET", "CEST", "Europe/Berlin"], offset: "+02:00" },
    { day: "2027-01-14", clock: "16:30", zones: ["EST", "Eastern", "New York time", "America/New_York"], offset: "-05:00" },
    { day: "2027-07-14", clock: "16:30", zones: ["Pacific", "PDT", "Los Angeles time"], offset: "-07:00" },
    { day: "2027-07-14", clock: "07:45", zones: ["UTC", "GMT"], offset: "Z" },
    { day: "2027-03-28", clock: "03:30", zones: ["London time", "Europe/London"], offset: "+01:00" },
  ];
  for (const c of cases) {
    for (const zone of c.zones) {
      for (const written of [`${c.day} ${c.clock} ${zone}`, `${c.day} at ${c.clock} ${zone}, please`]) {
        it(written, () => {
          const [d] = readDates(written, new Date("2027-01-01T00:00:00Z"));
          expect(d?.date).toBe(c.day);
          expect(d?.time).toBe(`${c.clock}:00`);
          expect(d?.offset).toBe(c.offset);
        });
      }
    }
  }
  it("no zone, or a word that names none, leaves the time as written", () => {
    for (const written of ["2027-01-14 09:00", "2027-01-14 09:00 then the chiller", "2027-01-14 09:00 sharp"]) {
      const [d] = readDates(written, new Date("2027-01-01T00:00:00Z"));
      expect(d?.offset, written).toBeUndefined();
    }
    const [own] = readDates("2027-01-14T09:00:00+03:00 CET", new Date("2027-01-01T00:00:00Z"));
    expect(own?.offset).toBe("+03:00");
  });
});

describe("a fraction of a dozen", () => {
  for (const [written, value] of [["half a dozen crates", 6], ["a dozen crates", 12], ["two dozen crates", 24], ["a quarter of a dozen", 3]] as const) {
    it(written, () => expect(tokenize(written).find((t) => t.kind === "number")).toMatchObject({ value }));
  }
});

describe("a word that spells a currency code after an amount", () => {
  for (const [written, currency] of [["£3,180 all in", "GBP"], ["€250 all told", "EUR"], ["$500 cad", "CAD"], ["$500 usd", "USD"], ["100 usd", "USD"], ["1,200 gbp", "GBP"]] as const) {
    it(written, () => expect(tokenize(written).find((t) => t.kind === "money")).toMatchObject({ currency }));
  }
  for (const written of ["40 all over the site", "3 top shelves"]) {
    it(`${written}: no money`, () => expect(tokenize(written).some((t) => t.kind === "money")).toBe(false));
  }
});

describe("a change of temperature over time, and an amount every so long", () => {
  for (const [written, unit, perHour] of [
    ["3 °C per hour", "degC/h", 3],
    ["2 °F an hour", "degF/h", 2],
    ["1.5 °C every 20 min", "degC/min", 4.5],
    ["2 degrees every 30 minutes", "deg/min", 4],
    ["3 degrees an hour", "deg/h", 3],
  ] as const) {
    it(written, () => {
      const q = tokenize(written).find((t) => t.kind === "quantity");
      expect(q?.kind === "quantity" && q.quantity.unit).toBe(unit);
      expect(q?.kind === "quantity" && convert(q.quantity.value, q.quantity.unit, unit.replace(/\/.*/, "/h"))).toBeCloseTo(perHour, 6);
    });
  }
  it("a rate argument's name", () => {
    expect(unitOfName(["ramp", "rate", "c", "per", "hour"])).toMatchObject({ unit: "degC/h", kind: "temperature_rate" });
    expect(unitOfName(["heat", "rate", "f", "per", "min"])).toMatchObject({ unit: "degF/min", kind: "temperature_rate" });
    expect(unitOfName(["speed", "km", "per", "hour"])).toMatchObject({ unit: "km/h" });
  });
});

describe("places by the codes trade and travel write them in", () => {
  for (const [code, country] of [["DAM", "SY"], ["FRA", "DE"], ["jfk", "US"], ["IRBND", "IR"], ["DEHAM", "DE"], ["CNSHA", "CN"]] as const) {
    it(`${code} is in ${country}`, () => expect(placeCountry(code)).toBe(country));
  }
  for (const code of ["XQZ", "ZZABC", "HELLO", "AB12"]) it(`${code}: no place`, () => expect(placeCountry(code)).toBeUndefined());
});

describe("nineteenth session: countries by their other names and their people, and their zone", () => {
  for (const [name, code] of [["UAE", "AE"], ["Ivory Coast", "CI"], ["USA", "US"], ["Turkey", "TR"], ["Czech Republic", "CZ"]] as const) {
    it(`${name} is ${code}`, () => expect(countryCode(name)).toBe(code));
  }
  for (const [people, code] of [["Irish", "IE"], ["Dutch", "NL"], ["Japanese", "JP"], ["Swiss", "CH"]] as const) {
    it(`${people} people are of ${code}`, () => expect(countryOfPeople(people)).toBe(code));
  }
  for (const [said, zone] of [["Irish time", "Europe/Dublin"], ["Ireland time", "Europe/Dublin"], ["UAE time", "Asia/Dubai"], ["Dutch time", "Europe/Amsterdam"], ["Japanese time", "Asia/Tokyo"]] as const) {
    it(`${said} is ${zone}`, () => expect(zoneOf(said)).toBe(zone));
  }
  // A country of many zones names none, and a two-letter code is no country's time ("LA time" is a city's).
  for (const said of ["American time", "Russian time", "Irish"]) it(`${said}: no zone`, () => expect(zoneOf(said)).toBeUndefined());
  it("LA time is no Laos time", () => {
    expect(zoneOf("LA time")).not.toBe("Asia/Vientiane");
    expect(zoneOf("LA")).toBe("America/Los_Angeles");
  });
});

describe("nineteenth session: a unit's letters spelt out after a number", () => {
  for (const [written, unit, value] of [
    ["thirty-six k-m-h", "km/h", 36],
    ["54 k.m.h.", "km/h", 54],
    ["twelve k-g", "kg", 12],
    ["30 m-p-h", "mph", 30],
  ] as const) {
    it(written, () => {
      const q = tokenize(written).find((t) => t.kind === "quantity");
      expect(q?.kind === "quantity" && convert(q.quantity.value, q.quantity.unit, unit)).toBeCloseTo(value, 6);
    });
  }
  for (const written of ["grade a-b mix", "the b-c test"]) it(`${written}: no quantity`, () => expect(tokenize(written).some((t) => t.kind === "quantity")).toBe(false));
});

describe("nineteenth session: the date of a part of a day, and a month's name before a measure", () => {
  const now = new Date("2027-03-10T12:00:00Z");
  for (const [said, date] of [["for the night of 14/06/2027", "2027-06-14"], ["on the morning of 3 April 2027", "2027-04-03"], ["the evening of Friday", "2027-03-12"]] as const) {
    it(said, () => expect(readDates(said, now, "day-first").map((d) => d.date)).toEqual([date]));
  }
  for (const said of ["Dec 12.3911", "RA 10.5, Dec 41.2691"]) it(`${said}: no date`, () => expect(readDates(said, now)).toEqual([]));
});

describe("nineteenth session: nouns that name an amount of a thing", () => {
  for (const word of ["lot", "batch", "load", "dose"]) it(`${word} is an amount`, () => expect(isAmountNoun(word)).toBe(true));
  for (const word of ["order", "record", "team", "invoice", "pallet"]) it(`${word} is a thing`, () => expect(isAmountNoun(word)).toBe(false));
});
