// Quantities with units, read and converted by js-quantities: "50 kg", "2.0 m/s", "30 °C", "5 kW", "2 GB",
// "30 years". A quantity keeps its dimension (kind) so a rule in kilograms compares with an argument in
// grams and never with one in metres.
import Qty from "js-quantities";

export interface Quantity {
  value: number;
  /** The unit as js-quantities names it (kg, m/s, tempC, min…). */
  unit: string;
  /** js-quantities' kind: mass, length, speed, temperature, power, energy, information, time… */
  kind: string;
  /** The unit's own name when it is a multiple of the library's (a month: `value` twelfths of a year). */
  name?: string;
}

// Spellings people write that js-quantities reads under another name. Temperatures are absolute
// readings (tempC), not differences (degC): a rule about a setpoint compares readings.
const ALIASES: Record<string, string> = {
  "°c": "tempC", "ºc": "tempC", "℃": "tempC", "℉": "tempF", celsius: "tempC", "degrees celsius": "tempC", "°f": "tempF", "ºf": "tempF", fahrenheit: "tempF",
  "degrees fahrenheit": "tempF", mps: "m/s", kmh: "km/h", kph: "km/h", "km/hr": "km/h", mph: "mi/h", secs: "s", sec: "s",
  mins: "min", hrs: "h", hr: "h", yrs: "year", yr: "year", wks: "week", wk: "week", mo: "month", mos: "month", months: "month",
  tonnes: "tonne", tons: "ton", ha: "hectare", hectares: "hectare", kgs: "kg", lbs: "lb", pounds: "lb", kilos: "kg", kilo: "kg", bytes: "byte", kb: "kB",
  // The tokenizer lower-cases text; units whose case matters are read in their usual case.
  w: "W", kw: "kW", mw: "MW", gw: "GW", wh: "Wh", kwh: "kWh", mwh: "MWh", gwh: "GWh", kva: "kVA", v: "V", kv: "kV", hz: "Hz", khz: "kHz", mhz: "MHz", ghz: "GHz",
  mb: "MB", gb: "GB", tb: "TB", pb: "PB", kib: "KiB", mib: "MiB", gib: "GiB", tib: "TiB", mbps: "Mbps", gbps: "Gbps", kbps: "kbps",
  pa: "Pa", hpa: "hPa", kpa: "kPa", mpa: "MPa", gpa: "GPa", mmhg: "mmHg", inhg: "inHg", kj: "kJ", mj: "MJ", gj: "GJ", ma: "mA", mah: "mAh", kn: "kN",
  // Activity of a radioactive source: "30 mCi", "1110 MBq" (no one writes mega-curies or milli-becquerels).
  ci: "Ci", mci: "mCi", uci: "uCi", "µci": "uCi", bq: "Bq", kbq: "kBq", mbq: "MBq", gbq: "GBq", tbq: "TBq",
  // "45F", "45 F": a bare F after a number is a Fahrenheit reading (no one writes farads in a request).
  // Two-word names the library knows only as symbols.
  "nautical mile": "nmi", "nautical miles": "nmi", "naut mi": "nmi", "fl oz": "floz", "fluid ounce": "floz", "fluid ounces": "floz", cc: "cm^3", lumens: "lm", lumen: "lm",
  "metric ton": "tonne", "metric tons": "tonne",
  f: "tempF", "degrees f": "tempF", "degrees c": "tempC", "deg f": "tempF", "deg c": "tempC", "fahrenheit degrees": "tempF", "celsius degrees": "tempC",
};

const cache = new Map<string, Quantity | null>();

// Every name js-quantities knows a unit by ("metres", "hours", "tonne"): read once.
let UNIT_NAMES: Set<string> | undefined;
// The library has these two functions; its type declarations leave them out.
const catalogue = Qty as unknown as { getUnits(): string[]; getAliases(unit: string): string[] };
const unitNames = (): Set<string> => (UNIT_NAMES ??= new Set(catalogue.getUnits().flatMap((u) => catalogue.getAliases(u))));

/**
 * Whether a word of four letters or more names a unit as written: one of the library's names for it, or a
 * prefix written out before one ("kilometres"). js-quantities also reads a word as a prefix symbol and a
 * unit symbol ("exam" → exa-metre), which no one writes.
 */
function namesUnit(word: string, unit: string): boolean {
  if (word in ALIASES || unitNames().has(word) || unitNames().has(unit)) return true;
  // A short symbol is one the library names, or a common prefix on one ("km", "ml", "ms"); the library
  // would also read "pls" as pico-light-seconds.
  if (/^[a-z]{1,3}$/.test(word)) return /^[kcmdgtnu]$/.test(word[0]!) && unitNames().has(word.slice(1));
  if (!/^[a-z]{4,}$/.test(word)) return true;
  for (let i = 3; i <= word.length - 3; i++) {
    const tail = word.slice(i);
    if (!unitNames().has(tail)) continue;
    try {
      if (Qty.parse(`1 ${word.slice(0, i)}meter`)) return true;
    } catch {
      // Not a prefix.
    }
  }
  return false;
}

/** "kg/ha", "l/ha", "mg/kg": a unit over another, each part spelled as people write it. */
function overUnit(key: string): string | undefined {
  const parts = key.split("/");
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  // A temperature over time is a change of temperature: degrees of the scale, not points on it ("°c/h").
  const top = ALIASES[parts[0]] ?? parts[0];
  return [RATE_OF[top] ?? top, ALIASES[parts[1]] ?? parts[1]].join("/");
}
const RATE_OF: Record<string, string> = { tempC: "degC", tempF: "degF", tempc: "degC", tempf: "degF", degc: "degC", degf: "degF", c: "degC", f: "degF" };

/** "cubic metres", "square feet", "metres squared": a unit to a power, as js-quantities writes it. */
function powered(key: string): string | undefined {
  const before = /^(cubic|cu|square|sq)\.?\s+([a-z]+)$/.exec(key);
  if (before) return `${before[2]}^${before[1]!.startsWith("c") ? 3 : 2}`;
  const after = /^([a-z]+)\s+(squared|cubed)$/.exec(key);
  return after ? `${after[1]}^${after[2] === "cubed" ? 3 : 2}` : undefined;
}

/** A quantity from a number and the unit words written after it; undefined when the words name no unit. */
export function quantity(value: number, unitText: string): Quantity | undefined {
  const key = unitText.toLowerCase().trim();
  if (key === "" || /^\d/.test(key)) return undefined;
  // js-quantities has no month (its length varies): a twelfth of a year, so 36 months is 3 years and a
  // month is about 30.4 days.
  if (/^(?:months?|mos?)$/.test(key)) {
    const years = quantity(value / 12, "years");
    return years && { ...years, name: "month" };
  }
  const hit = cache.get(key);
  if (hit !== undefined) return hit ? { ...hit, value } : undefined;
  let result: Quantity | null = null;
  const unit = ALIASES[key] ?? powered(key) ?? overUnit(key) ?? unitText.trim().replace(/-/g, " ");
  // Words that name no unit are remembered too: argument names ("amount") are asked on every decision.
  if (!namesUnit(key, unit)) {
    if (cache.size > 5000) cache.clear();
    cache.set(key, null);
    return undefined;
  }
  try {
    const q = Qty.parse(`1 ${unit}`);
    // (A change of temperature over time, "degC/h", is of no kind the library names: a rate of its own.)
    if (q && !q.isUnitless()) result = { value: 1, unit: q.units(), kind: q.kind() ?? (/^deg[CF]\//.test(q.units()) ? "temperature_rate" : undefined) };
  } catch {
    result = null;
  }
  if (cache.size > 5000) cache.clear();
  cache.set(key, result);
  return result ? { ...result, value } : undefined;
}

/** `value` of `from` expressed in `to`, or undefined when the two are not of one kind. */
export function convert(value: number, from: string, to: string): number | undefined {
  if (from === to) return value;
  try {
    return Qty(value, from).to(to).scalar;
  } catch {
    return undefined;
  }
}

/**
 * `value` of `from` in multiples of a unit a name states, which may be a multiple of the library's unit
 * (a month is a twelfth of a year: `term_months` reads 36 months as 36, not 3).
 */
export function convertTo(value: number, from: string, to: Quantity): number | undefined {
  const converted = convert(value, from, to.unit);
  return converted === undefined ? undefined : converted / to.value;
}

// Words after a unit in an argument's name that say what the measure is taken against or which reading it is.
const REFERENCE_SUFFIXES = new Set(["agl", "amsl", "msl", "asl", "net", "gross", "avg", "mean", "max", "min", "peak", "total", "est", "estimated", "actual", "planned", "target", "limit"]);

/**
 * The unit an argument's name or description states: `payload_kg`, `max_speed_mps`, `duration_minutes`,
 * "weight in grams". The last word that reads as a unit wins. Money minor units (cents) are money, not
 * quantities, and handled by the money reader.
 */
export function unitOfName(words: readonly string[], kind?: string): Quantity | undefined {
  // `max_altitude_ft_agl`, `depth_m_msl`, `weight_kg_net`: a unit followed by what it is measured against or
  // which reading it is, a word that is no unit itself.
  if (words.length >= 3 && REFERENCE_SUFFIXES.has(words.at(-1)!)) {
    const q = unitOfName(words.slice(0, -1), kind);
    if (q) return q;
  }
  // `dose_mg_per_kg`, `speed_km_per_hour`: a unit per another, written with "per".
  const per = words.length >= 3 ? words.lastIndexOf("per") : -1;
  if (per > 0 && per === words.length - 2) {
    // (quantity spells each side of a "/" as people write it: `kg_per_ha`; `ramp_c_per_hour` is degrees
    // Celsius per hour.)
    const q = quantity(1, `${words[per - 1]}/${words[per + 1]}`);
    if (q && q.kind !== undefined) return q;
  }
  // `density_kg_m3`, `flow_l_min`, `speed_km_h`: a unit per another written without "per", when the two
  // read as a quantity of a kind of its own (density, flow, speed), not of either part's.
  if (words.length >= 3) {
    const [a, b] = words.slice(-2) as [string, string];
    const top = /^\d+$/.test(a) || a === "in" ? undefined : quantity(1, a);
    const bottom = /^\d+$/.test(b) || b === "in" ? undefined : quantity(1, b);
    if (top && bottom && top.kind !== "unitless" && bottom.kind !== "unitless" && top.kind !== bottom.kind) {
      const q = quantity(1, `${a}/${b}`);
      if (q && q.kind !== "unitless" && q.kind !== top.kind && q.kind !== bottom.kind) return q;
    }
  }
  // Only the last word: a unit is written as a suffix (`payload_kg`); "in" reads as inches and "min" as
  // minutes only there, never inside a name (`min_amount`).
  const last = words.at(-1);
  if (!last || last === "in" || /^\d+$/.test(last)) return undefined;
  // `temperature_c`, `setpoint_f`: a one-letter suffix after a temperature is its scale.
  // (`forecast_high_c` against a rule in °F: the rule says the kind the name's letter is of.)
  if ((last === "c" || last === "f") && (kind === "temperature" || words.some((w) => /temp|setpoint|heat|cool/.test(w)))) return quantity(1, last === "c" ? "tempC" : "tempF");
  if (last.length === 1 && last !== "m" && last !== "g" && last !== "s" && last !== "h") {
    // `power_w`: a one-letter unit only beside a word naming its kind.
    const q = quantity(1, last);
    return q && (words.includes(q.kind) || words.some((w) => KIND_WORDS[q.kind ?? ""]?.includes(w))) ? q : undefined;
  }
  const q = quantity(1, last);
  // `speed_ms`: a word of the name says the kind, and the suffix read alone is of another kind (ms is
  // milliseconds); a rate written without its slash (m/s) is the reading of that kind.
  const named = words.find((w) => kinds().has(w));
  if (named !== undefined && q?.kind !== named) return perUnit(last, named) ?? q;
  return q ?? leadingUnit(words);
}

// Words that name a measure of a kind, beside which a one-letter unit is that kind's (`rated_payload_t`).
const KIND_WORDS: Readonly<Record<string, readonly string[]>> = {
  mass: ["weight", "payload", "load", "cargo", "freight", "tonnage", "mass", "gross", "net", "capacity"],
  power: ["output", "capacity", "rating", "draw"],
};

/**
 * `days_since_written`, `hours_live`, `km_on_clock`: a name that opens with its unit (a plural unit word or
 * a symbol of two letters or more) and says after it what is counted.
 */
function leadingUnit(words: readonly string[]): Quantity | undefined {
  const first = words[0];
  if (words.length < 2 || !first || first.length < 2 || first === "in" || first === "min" || /\d/.test(first)) return undefined;
  if (!(first.endsWith("s") || first.length <= 3)) return undefined;
  const q = quantity(1, first);
  return q && q.kind !== "unitless" ? q : undefined;
}

let KINDS: Set<string> | undefined;
const kinds = (): Set<string> => (KINDS ??= new Set((Qty as unknown as { getKinds(): string[] }).getKinds().filter((k) => k !== "unitless")));

/** A suffix read as one unit per another ("ms" → m/s, "kmh" → km/h) of the given kind, if one split is. */
function perUnit(suffix: string, kind: string): Quantity | undefined {
  for (let i = 1; i < suffix.length; i++) {
    const q = quantity(1, `${suffix.slice(0, i)}/${suffix.slice(i)}`);
    if (q?.kind === kind) return q;
  }
  return undefined;
}
