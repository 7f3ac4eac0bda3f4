// Codes from memory for the names a request uses (references.ts). The listings are generated from a
// description of who has which code, written in the ways reference notes list them (name then code, code
// then name, code in brackets, "code = name", a code in apposition after a comma, several per sentence);
// the mentions in the ways requests name people (first name, title and surname, full name, a possessive,
// a lower-case name the lexicon does not know). Every listing form is crossed with every mention form.
import { describe, expect, it } from "vitest";
import { compilePattern, signaturesOf, type Signature } from "./arguments/signature.ts";
import { findersOf, glossNames, listingsOf, nameWords, type Finder } from "./references.ts";

const STAFF = [
  { title: "Dr", first: "Ilse", last: "Varga", code: "TEC-204" },
  { title: "Ms", first: "Noor", last: "Haddou", code: "TEC-117" },
  { title: "Mr", first: "Oren", last: "Blakstad", code: "TEC-350" },
];
type Person = (typeof STAFF)[number];

const LISTING_FORMS: ((p: Person) => string)[] = [
  (p) => `${p.title} ${p.first} ${p.last} ${p.code}`,
  (p) => `${p.first} ${p.last} (${p.code})`,
  (p) => `${p.code} ${p.first} ${p.last}`,
  (p) => `${p.code} = ${p.first} ${p.last}`,
  (p) => `${p.first} ${p.last} (field team, nights), ${p.code}`,
];
const JOINS = [(parts: string[]) => `Technicians: ${parts.join(", ")}.`, (parts: string[]) => `Our engineers: ${parts.join("; ")}.`, (parts: string[]) => parts.map((x) => `${x} covers the north.`).join(" ")];

const MENTIONS: { form: (p: Person) => string; label: string }[] = [
  { form: (p) => `send ${p.first} to the site tomorrow`, label: "first name" },
  { form: (p) => `send ${p.title} ${p.last} to the site tomorrow`, label: "title and surname" },
  { form: (p) => `can ${p.first} ${p.last} do the visit`, label: "full name" },
  { form: (p) => `The pump is down. ${p.first}'s on call so book the visit`, label: "possessive at a sentence's start" },
  { form: (p) => `book the visit for ${p.last.toLowerCase()}`, label: "lower-case surname the lexicon does not know" },
];

const shape = (pattern: string, key = "technician_id"): Finder => findersOf([{ key, pattern: compilePattern(pattern)! } as Signature])[0] ?? { find: compilePattern(pattern)!.find, accept: () => false };
const TECH = shape("^TEC-[0-9]{3}$");

describe("references: codes for names from memory", () => {
  for (const [li, listing] of LISTING_FORMS.entries()) {
    for (const [ji, join] of JOINS.entries()) {
      const text = join(STAFF.map(listing));
      it(`listing form ${li + 1}, layout ${ji + 1}: every code gets its own person's names`, () => {
        const listings = listingsOf(text, TECH, "m1");
        for (const p of STAFF) expect(listings.find((l) => l.code === p.code)?.names).toEqual(expect.objectContaining(new Set([p.first.toLowerCase(), p.last.toLowerCase()])));
        expect(listings.map((l) => l.code).sort()).toEqual(STAFF.map((p) => p.code).sort());
      });
      for (const mention of MENTIONS) {
        it(`listing form ${li + 1}, layout ${ji + 1}: ${mention.label} is glossed with that person's code`, () => {
          for (const p of STAFF) {
            const turn = mention.form(p);
            const gloss = glossNames([turn], [{ id: "m1", text }], [TECH]);
            expect(gloss.glossed.map((g) => g.code), `${turn} / ${text}`).toEqual([p.code]);
            expect(gloss.turns[0]).toContain(`(${p.code})`);
          }
        });
      }
    }
  }

  it("leaves a name alone when two listings share it, or when a capitalised word of it is in no listing", () => {
    const text = "Technicians: Ilse Varga TEC-204, Piet Varga TEC-205, Mrs Dana Quillfeather TEC-300.";
    for (const turn of ["send Varga to the site", "send Mrs Jones to the site", "send Dr Varga to the site"]) {
      expect(glossNames([turn], [{ id: "m1", text }], [TECH]).glossed, turn).toEqual([]);
    }
    expect(glossNames(["send Piet Varga"], [{ id: "m1", text }], [TECH]).glossed.map((g) => g.code)).toEqual(["TEC-205"]);
  });

  it("reads no name from an ordinary word that starts a sentence, and no code from a time or a lower-case word", () => {
    const suppliers = "Timber suppliers: SUP-310 Oakmere Steel (beams), SUP-412 Quarry Norden. Steel orders close at 15:00.";
    const sup = shape("^SUP-[0-9]{3}$", "supplier_id");
    expect(glossNames(["Steel beams for block C please"], [{ id: "m1", text: suppliers }], [sup]).glossed).toEqual([]);
    expect(glossNames(["order the beams from Oakmere"], [{ id: "m1", text: suppliers }], [sup]).glossed.map((g) => g.code)).toEqual(["SUP-310"]);
    const clock = shape("^([01][0-9]|2[0-3]):[0-5][0-9]$", "start_time");
    expect(listingsOf("Weekdays 07:30-18:30, Sunday 10:00-14:00.", clock, "m2")).toEqual([]);
    const loose = shape("^[a-z]+$", "word");
    expect(listingsOf("Ilse Varga runs nights.", loose, "m3")).toEqual([]);
  });

  it("a sentence's first word names a code only when it is not an ordinary word; a code with no name takes the name before it", () => {
    const text = "Valve VLV-310 isolates the harbour main. Brugwijk BRGWK is the main depot. Broken panes are sent to Brookfell Glazing, contractor CON-742.";
    expect(listingsOf(text, shape("^VLV-[0-9]{3}$"), "m")).toEqual([]);
    expect(listingsOf(text, shape("^[A-Z]{5}$"), "m").map((l) => [l.code, [...l.names]])).toEqual([["BRGWK", ["brugwijk"]]]);
    expect(listingsOf(text, shape("^CON-[0-9]{3}$"), "m").map((l) => [l.code, [...l.names].sort()])).toEqual([["CON-742", ["brookfell", "glazing"]]]);
  });

  it("does not gloss a code the turn already gives, and searches memory only with the turn's names", () => {
    const text = "Technicians: Ilse Varga TEC-204.";
    expect(glossNames(["send Ilse (TEC-204) over"], [{ id: "m1", text }], [TECH]).glossed).toEqual([]);
    expect(nameWords(["Put the pump on the list for Ilse tomorrow, TKT-40112"])).toEqual(["ilse"]);
    expect(nameWords(["restart the pump please"])).toEqual([]);
  });

  it("glosses a place with the enum value a note files it under, when the value is written as an identifier", () => {
    const sigs = signaturesOf({ type: "object", properties: { zone: { type: "string", enum: ["east_ring", "west_ring", "city_core"] }, urgency: { type: "string", enum: ["high", "low"] } } });
    const finders = findersOf(sigs);
    expect(finders).toHaveLength(1); // "high" and "low" are ordinary words in a note, never looked for
    const notes = [{ id: "m1", text: "Depot zones: east_ring covers Kestermoor and Dunvale; west_ring covers Holbeck. Urgency is high in Dunvale." }];
    for (const [turn, zone] of [["pothole on the main road in Dunvale", "east_ring"], ["Holbeck has a burst main", "west_ring"], ["send a crew to kestermoor", "east_ring"]] as const) {
      const gloss = glossNames([turn], notes, finders);
      expect(gloss.glossed.map((g) => g.code), turn).toEqual([zone]);
    }
    expect(glossNames(["pothole in Brindle Cross"], notes, finders).glossed).toEqual([]);
  });
});
