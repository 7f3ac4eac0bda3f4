// Time zones as people write them: IANA names ("Europe/Berlin"), abbreviations Intl knows (UTC, GMT), and
// a city's name ("New York time", "Berlin time", "in Tokyo"), looked up among the IANA zones this runtime
// supports (their last part is a city) rather than in a table of our own.
import { countryCode, countryOfPeople } from "./regions.ts";

let byCity: Map<string, string> | undefined;

function cities(): Map<string, string> {
  if (byCity) return byCity;
  byCity = new Map();
  const initials = new Map<string, string[]>();
  for (const zone of Intl.supportedValuesOf("timeZone")) {
    const city = zone.slice(zone.lastIndexOf("/") + 1).replace(/_/g, " ").toLowerCase();
    if (!byCity.has(city)) byCity.set(city, zone);
    // "LA time", "NY time", "HK time": a city of several words by its initials, where no other city has them.
    const words = city.split(" ");
    if (words.length > 1) {
      const key = words.map((w) => w[0]).join("");
      initials.set(key, [...(initials.get(key) ?? []), zone]);
    }
  }
  for (const [key, zones] of initials) if (zones.length === 1 && !byCity.has(key)) byCity.set(key, zones[0]!);
  return byCity;
}

// The regions of IANA's backward-compatible names ("US/Hawaii", "Canada/Atlantic", "Australia/Queensland"):
// "Hawaii time", "Queensland time" name a zone by the state or province it is kept for.
const REGION_PREFIXES = ["US", "Canada", "Australia", "Brazil", "Mexico", "Chile"];

// Zones by the name Intl gives them in English ("Eastern Time", "United Kingdom Time", "Japan Standard
// Time"): "Eastern time", "UK time", "Japan time". Where several zones share a name, the one an abbreviation
// below names is preferred (America/New_York for Eastern), else the first.
let byName: Map<string, string> | undefined;

function names(): Map<string, string> {
  if (byName) return byName;
  const found = new Map<string, string[]>();
  const at = new Date(Date.UTC(2026, 0, 15));
  for (const zone of Intl.supportedValuesOf("timeZone")) {
    let name: string | undefined;
    try {
      name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longGeneric" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value;
    } catch {
      name = undefined;
    }
    if (!name || /^GMT/.test(name)) continue;
    const base = name.replace(/\s+(standard\s+)?time$/i, "").toLowerCase();
    const keys = [base];
    const words = base.split(/\s+/);
    if (words.length === 2) keys.push(words.map((w) => w[0]).join("")); // "united kingdom" → uk
    for (const k of keys) found.set(k, [...(found.get(k) ?? []), zone]);
  }
  const preferred = new Set(Object.values(SEASONAL));
  byName = new Map([...found].map(([k, zones]) => [k, zones.find((z) => preferred.has(z)) ?? zones[0]!]));
  return byName;
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

// Abbreviations that name one offset all year; zone abbreviations that change with daylight saving
// (EST/EDT, CET/CEST) are read as the zone they belong to.
const FIXED: Record<string, string> = { utc: "UTC", gmt: "UTC", z: "UTC", zulu: "UTC" };
const SEASONAL: Record<string, string> = {
  est: "America/New_York", edt: "America/New_York", et: "America/New_York", cst: "America/Chicago", cdt: "America/Chicago", ct: "America/Chicago",
  mst: "America/Denver", mdt: "America/Denver", pst: "America/Los_Angeles", pdt: "America/Los_Angeles", pt: "America/Los_Angeles",
  cet: "Europe/Paris", cest: "Europe/Paris", bst: "Europe/London", ist: "Asia/Kolkata", jst: "Asia/Tokyo", aest: "Australia/Sydney",
};

/** The zone a word or phrase names (case-insensitive), or undefined. */
export function zoneOf(text: string): string | undefined {
  const t = text.trim();
  if (t === "") return undefined;
  const lower = t.toLowerCase();
  if (FIXED[lower]) return FIXED[lower];
  if (SEASONAL[lower]) return SEASONAL[lower];
  if (t.includes("/")) {
    const canonical = t.split("/").map((part) => part.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join("_")).join("/");
    if (isTimeZone(canonical)) return canonical;
    if (isTimeZone(t)) return t;
  }
  return cities().get(lower.replace(/_/g, " ")) ?? names().get(lower) ?? regionZone(t) ?? countryTime(lower);
}

/**
 * "Irish time", "Ireland time", "UAE time": the zone of a country named by its name or its people's, where
 * the country keeps one zone (CLDR's zones of the region, through Intl). "American time" names none.
 */
function countryTime(text: string): string | undefined {
  // (A name, not a two-letter code: "LA time" is Los Angeles', not Laos'.)
  const m = /^(.{3,}?)\s+time$/.exec(text);
  if (!m) return undefined;
  const code = countryCode(m[1]!) ?? countryOfPeople(m[1]!);
  if (!code) return undefined;
  // (`timeZones` is CLDR's list of the region's zones, which the typings of this TypeScript lack.)
  const zones: unknown = Reflect.get(new Intl.Locale(`und-${code}`), "timeZones");
  return Array.isArray(zones) && zones.length === 1 && typeof zones[0] === "string" ? zones[0] : undefined;
}

function regionZone(text: string): string | undefined {
  if (!/^[a-z][a-z ]{2,30}$/i.test(text)) return undefined;
  const name = text.split(" ").map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join("_");
  for (const prefix of REGION_PREFIXES) {
    const zone = `${prefix}/${name}`;
    if (isTimeZone(zone)) return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  }
  return undefined;
}

/** The offset ("+01:00", "Z") a zone's clock has at a wall time on a day ("2027-05-20", "14:00:00"). */
export function offsetOfWallTime(zone: string, date: string, time: string): string {
  if (zone === "UTC") return "Z";
  const wall = Date.parse(`${date}T${time}Z`);
  const minutesAt = (instant: number) => {
    const parts: Record<string, number> = {};
    for (const p of new Intl.DateTimeFormat("en-US", { timeZone: zone, year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", hourCycle: "h23" }).formatToParts(new Date(instant))) if (p.type !== "literal") parts[p.type] = Number(p.value);
    return Math.round((Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!) - instant) / 60_000);
  };
  // The offset at the instant the wall time would be with the first guess: right across a change too.
  const first = minutesAt(wall);
  const offset = minutesAt(wall - first * 60_000);
  if (offset === 0) return "Z";
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}
