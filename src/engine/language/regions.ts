// Country names and ISO 3166 alpha-2 codes, in English, from CLDR through Intl (no table of our own): for a
// code argument given a country's name in a request, and for a rule that names countries against an action
// that carries their codes. The other names people use ("UAE", "Ivory Coast", "Turkey", "USA") come from the
// i18n-iso-countries package's English list, and the names of a country's people ("Irish", "Dutch") from
// i18n-nationality's; both read once, on first use, from their JSON files.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

let regionNames: Map<string, string> | undefined;

/** The entries of a package's JSON list of names by ISO code, or none when the package is missing. */
function namesByCode(file: string, key: string): [string, string | string[]][] {
  try {
    const data: unknown = JSON.parse(readFileSync(createRequire(import.meta.url).resolve(file), "utf8"));
    const list = typeof data === "object" && data !== null ? (data as Record<string, unknown>)[key] : undefined;
    if (typeof list !== "object" || list === null) return [];
    return Object.entries(list).filter((e): e is [string, string | string[]] => typeof e[1] === "string" || (Array.isArray(e[1]) && e[1].every((x) => typeof x === "string")));
  } catch {
    return [];
  }
}
/** Country names in English (CLDR, through Intl) to ISO 3166 alpha-2 codes. */
export function regions(): Map<string, string> {
  if (regionNames) return regionNames;
  regionNames = new Map();
  const display = new Intl.DisplayNames("en", { type: "region" });
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      try {
        // Only a code in use: a deprecated one (SU, DD, CS, UK) shares its name with the code that replaced
        // it and, read later, would take "Russia" from RU, where a rule about RU would no longer see it.
        if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
        const name = display.of(code);
        // Not the codes kept for private use ("Unknown Region" for ZZ, the pseudo-locales' XA, XB).
        if (name && name !== code && !/unknown|pseudo/i.test(name)) {
          regionNames.set(name.toLowerCase(), code);
          // "Myanmar (Burma)": the name before the brackets, and the other name in them.
          const other = /^(.+?)\s*\((.+)\)$/.exec(name);
          if (other) for (const alias of [other[1]!, other[2]!]) if (!regionNames.has(alias.toLowerCase())) regionNames.set(alias.toLowerCase(), code);
        }
      } catch {
        // not a region code
      }
    }
  }
  // Other names in use, where CLDR's name is the first ("United Arab Emirates", then "UAE"). (Not a
  // two-letter one, "US": a code is read as a code, where "us" is also a word.)
  const inUse = new Set(regionNames.values());
  for (const [code, names] of namesByCode("i18n-iso-countries/langs/en.json", "countries")) {
    for (const name of typeof names === "string" ? [names] : names) if (name.replace(/\W/g, "").length > 2 && !regionNames.has(name.toLowerCase()) && inUse.has(code)) regionNames.set(name.toLowerCase(), code);
  }
  return regionNames;
}

let peoples: Map<string, string> | undefined;

/** The ISO code of the country whose people a word names ("Irish" → IE, "Dutch" → NL), or undefined. */
export function countryOfPeople(word: string): string | undefined {
  if (!peoples) {
    peoples = new Map();
    for (const [code, name] of namesByCode("i18n-nationality/langs/en.json", "nationalities")) if (typeof name === "string" && regionCodes().has(code)) peoples.set(name.toLowerCase(), code);
  }
  return peoples.get(word.trim().toLowerCase());
}

let codesInUse: Set<string> | undefined;
export const regionCodes = (): Set<string> => (codesInUse ??= new Set(regions().values()));

/**
 * The ISO code a country's name stands for ("Laos" → LA, "the Netherlands" → NL, "North Macedonia" → MK), or a
 * code in use written as one ("ir", "UK" → GB: the retired code reads as the one that replaced it).
 */
export function countryCode(text: string): string | undefined {
  const name = text.trim().toLowerCase().replace(/^the\s+/, "");
  const named = regions().get(name);
  if (named) return named;
  if (!/^[a-z]{2}$/.test(name)) return undefined;
  const code = name.toUpperCase();
  if (regionCodes().has(code)) return code;
  try {
    const canonical = Intl.getCanonicalLocales(`und-${code}`)[0]?.slice(4);
    return canonical && regionCodes().has(canonical) ? canonical : undefined;
  } catch {
    return undefined;
  }
}

// Unions of countries a rule names as one place ("outside the EU", "within the EEA"): their members as the
// treaties list them (CLDR's containment data is not exposed by Intl). EU: the 27 member states since 1
// February 2020; EEA: the EU with Iceland, Liechtenstein and Norway; EFTA: those three and Switzerland.
const EU = ["AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE"];
const UNIONS = new Map<string, ReadonlySet<string>>([
  ["eu", new Set(EU)],
  ["european union", new Set(EU)],
  ["eea", new Set([...EU, "IS", "LI", "NO"])],
  ["european economic area", new Set([...EU, "IS", "LI", "NO"])],
  ["efta", new Set(["IS", "LI", "NO", "CH"])],
]);

/** The member countries of a union a text names ("EU", "the European Union", "EEA"), or undefined. */
export function unionMembers(text: string): ReadonlySet<string> | undefined {
  return UNIONS.get(text.trim().toLowerCase().replace(/^the\s+/, ""));
}
