// Time zones as people write them: IANA names ("Europe/Berlin"), abbreviations Intl knows (UTC, GMT), and
// a city's name ("New York time", "Berlin time", "in Tokyo"), looked up among the IANA zones this runtime
// supports (their last part is a city) rather than in a table of our own.
let byCity: Map<string, string> | undefined;

function cities(): Map<string, string> {
  if (byCity) return byCity;
  byCity = new Map();
  for (const zone of Intl.supportedValuesOf("timeZone")) {
    const city = zone.slice(zone.lastIndexOf("/") + 1).replace(/_/g, " ").toLowerCase();
    if (!byCity.has(city)) byCity.set(city, zone);
  }
  return byCity;
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
  return cities().get(lower.replace(/_/g, " "));
}
