// What a rule MEANS, written down apart from any way of saying it: effect, the action (a tool and the ways
// people name what it does), conditions on the action's arguments, an exception, a domain. The renderer
// (render.ts) turns a meaning into sentences; probes.ts decides probes from the meaning alone. Nothing here
// looks at the service's grammar: the vocabulary is what compliance people write about these systems.
import { createHash } from "node:crypto";

export type Effect = "block" | "approval";
export type Cmp = ">" | ">=" | "<" | "<=";

/** How one action is named: plural noun, singular noun, gerund, verb phrase (base and third person), passive. */
export interface ActionDef {
  tool: string;
  /** A tool of the same family the rule does not cover (its probes must be approved). */
  other: string;
  np: string[];
  sg: string;
  gerund: string[];
  vp: string[];
  vp3: string;
  passive: { subject: string; participle: string };
}

export type Dimension = "mass" | "length" | "speed" | "temperature" | "power" | "energy" | "data" | "duration";

export type Condition =
  | { kind: "money"; field: "amount"; cmp: Cmp; value: number; currency: Currency }
  | { kind: "money_between"; field: "amount"; low: number; high: number; currency: Currency }
  | { kind: "count"; field: string; noun: string; cmp: Cmp; value: number }
  | { kind: "percent"; field: string; noun: string; cmp: Cmp; value: number }
  | { kind: "quantity"; field: string; noun: string; dimension: Dimension; cmp: Cmp; value: number; unit: string; argUnit: string }
  | { kind: "enum"; field: string; value: string; others: string[]; attribute: string }
  | { kind: "not_in"; field: string; values: string[]; other: string; attribute: string }
  | { kind: "flag"; field: string; phrase: string }
  | { kind: "email_domain"; field: "to"; domain: string; outside: boolean }
  | { kind: "weekday"; days: number[] }
  | { kind: "window"; start: number; end: number; zone: Zone; outside: boolean }
  | { kind: "rate"; limit: number; per: "hour" | "day" | "minute" };

export type Currency = "USD" | "EUR" | "GBP" | "JPY";
export interface Zone {
  iana: string;
  /** Offset from UTC in hours on the probe dates (late November 2026). */
  offset: number;
  spoken: string;
}

export interface Meaning {
  id: string;
  effect: Effect;
  /** The actions covered ("or" covers two); empty with `anyAction`: conditions without an action. */
  actions: ActionDef[];
  anyAction?: { tools: string[] };
  /** "when": the effect applies when every condition holds; "only": the action is allowed only when they hold. */
  mode: "when" | "only";
  conditions: Condition[];
  exception?: Extract<Condition, { kind: "enum" | "flag" }>;
  domain?: string;
}

const A = (tool: string, other: string, np: string[], sg: string, gerund: string[], vp: string[], vp3: string, subject: string, participle: string): ActionDef => ({
  tool,
  other,
  np,
  sg,
  gerund,
  vp,
  vp3,
  passive: { subject, participle },
});

export const ACTIONS = {
  refund: A("refund_payment", "create_invoice", ["refunds", "payment refunds"], "refund", ["refunding payments", "issuing refunds"], ["refund a payment", "issue refunds"], "refunds a payment", "payments", "refunded"),
  payout: A("create_payout", "list_payouts", ["payouts", "vendor payouts"], "payout", ["creating payouts", "paying out funds"], ["create a payout", "send payouts"], "creates a payout", "payouts", "issued"),
  wire: A("send_wire_transfer", "get_account_balance", ["wire transfers", "wires"], "wire transfer", ["sending wire transfers", "wiring money"], ["send a wire transfer", "wire money"], "sends a wire transfer", "wire transfers", "sent"),
  expense: A("approve_expense", "submit_expense", ["expense approvals", "expense claims"], "expense claim", ["approving expenses", "approving expense claims"], ["approve an expense", "approve expense claims"], "approves an expense", "expense claims", "approved"),
  purchase: A("create_purchase_order", "list_purchase_orders", ["purchase orders", "POs"], "purchase order", ["creating purchase orders", "raising purchase orders"], ["create a purchase order", "raise a PO"], "creates a purchase order", "purchase orders", "created"),
  bulkEmail: A("send_bulk_email", "send_email", ["bulk emails", "mass mailings"], "bulk email", ["sending bulk emails", "mass mailing"], ["send a bulk email", "send mass mailings"], "sends a bulk email", "bulk emails", "sent"),
  createUsers: A("bulk_create_users", "get_user", ["bulk user creations", "user imports"], "bulk user creation", ["creating users in bulk", "importing users"], ["create users in bulk", "import users"], "creates users in bulk", "users", "created"),
  export: A("export_data", "preview_data", ["data exports", "exports"], "data export", ["exporting data", "exporting rows"], ["export data", "run a data export"], "exports data", "data", "exported"),
  scale: A("scale_cluster", "describe_cluster", ["cluster scale-ups", "cluster scaling"], "cluster scale-up", ["scaling clusters", "scaling a cluster"], ["scale a cluster", "scale clusters"], "scales a cluster", "clusters", "scaled"),
  discount: A("apply_discount", "remove_discount", ["discounts", "price discounts"], "discount", ["applying discounts", "giving discounts"], ["apply a discount", "give discounts"], "applies a discount", "discounts", "applied"),
  price: A("update_price", "get_price", ["price changes", "price updates"], "price change", ["changing prices", "updating prices"], ["change a price", "update prices"], "changes a price", "prices", "changed"),
  ship: A("ship_package", "track_package", ["shipments", "package shipments"], "shipment", ["shipping packages", "sending parcels"], ["ship a package", "send parcels"], "ships a package", "packages", "shipped"),
  drive: A("drive_vehicle", "park_vehicle", ["vehicle moves", "drives"], "drive", ["driving vehicles", "driving the vehicle"], ["drive a vehicle", "drive the vehicle"], "drives a vehicle", "vehicles", "driven"),
  thermostat: A("set_thermostat", "read_thermostat", ["thermostat changes", "thermostat settings"], "thermostat change", ["setting the thermostat", "changing thermostat setpoints"], ["set the thermostat", "change the thermostat setpoint"], "sets the thermostat", "thermostats", "set"),
  motor: A("start_motor", "stop_motor", ["motor starts", "motor start-ups"], "motor start", ["starting motors", "starting a motor"], ["start a motor", "start motors"], "starts a motor", "motors", "started"),
  upload: A("upload_file", "download_file", ["uploads", "file uploads"], "upload", ["uploading files", "uploading documents"], ["upload a file", "upload files"], "uploads a file", "files", "uploaded"),
  maintenance: A("schedule_maintenance", "cancel_maintenance", ["maintenance windows", "scheduled maintenance"], "maintenance window", ["scheduling maintenance", "scheduling maintenance windows"], ["schedule maintenance", "schedule a maintenance window"], "schedules maintenance", "maintenance windows", "scheduled"),
  retention: A("set_retention", "get_retention", ["retention settings", "retention changes"], "retention setting", ["setting retention", "changing retention periods"], ["set a retention period", "change retention"], "sets a retention period", "retention periods", "set"),
  robot: A("move_robot", "stop_robot", ["robot moves", "robot movements"], "robot move", ["moving robots", "moving the robot"], ["move a robot", "move the robot"], "moves a robot", "robots", "moved"),
  charge: A("charge_vehicle", "unplug_vehicle", ["charging sessions", "vehicle charges"], "charging session", ["charging vehicles", "charging EVs"], ["charge a vehicle", "charge EVs"], "charges a vehicle", "vehicles", "charged"),
  deploy: A("deploy_service", "build_service", ["deployments", "deploys"], "deployment", ["deploying services", "deploying code"], ["deploy a service", "deploy code"], "deploys a service", "services", "deployed"),
  tier: A("change_plan", "view_plan", ["plan changes", "plan upgrades"], "plan change", ["changing plans", "upgrading plans"], ["change a plan", "upgrade plans"], "changes a plan", "plans", "changed"),
  role: A("change_user_role", "get_user_role", ["role changes", "user role changes"], "role change", ["changing user roles", "changing roles"], ["change a user role", "change roles"], "changes a user role", "user roles", "changed"),
  flight: A("book_flight", "search_flights", ["flight bookings", "flights"], "flight booking", ["booking flights", "booking air travel"], ["book a flight", "book flights"], "books a flight", "flights", "booked"),
  vendor: A("pay_vendor", "list_vendors", ["vendor payments", "payments to vendors"], "vendor payment", ["paying vendors", "paying suppliers"], ["pay a vendor", "pay suppliers"], "pays a vendor", "vendors", "paid"),
  ticket: A("close_ticket", "comment_ticket", ["ticket closures", "closing of tickets"], "ticket closure", ["closing tickets", "closing support tickets"], ["close a ticket", "close tickets"], "closes a ticket", "tickets", "closed"),
  share: A("share_file", "list_files", ["file shares", "file sharing"], "file share", ["sharing files", "sharing documents"], ["share a file", "share documents"], "shares a file", "files", "shared"),
  email: A("send_email", "read_email", ["emails", "outbound emails"], "email", ["sending emails", "emailing people"], ["send an email", "send emails"], "sends an email", "emails", "sent"),
  rotate: A("rotate_encryption_key", "list_encryption_keys", ["key rotations", "encryption key rotations"], "key rotation", ["rotating encryption keys", "rotating keys"], ["rotate an encryption key", "rotate keys"], "rotates an encryption key", "encryption keys", "rotated"),
  restart: A("restart_server", "get_server_status", ["server restarts", "restarts"], "server restart", ["restarting servers", "restarting a server"], ["restart a server", "restart servers"], "restarts a server", "servers", "restarted"),
  sms: A("send_sms", "list_sms", ["text messages", "SMS messages"], "text message", ["sending SMS", "texting customers"], ["send an SMS", "text a customer"], "sends an SMS", "text messages", "sent"),
  apiKey: A("create_api_key", "list_api_keys", ["API key creations", "new API keys"], "API key", ["creating API keys", "issuing API keys"], ["create an API key", "issue API keys"], "creates an API key", "API keys", "created"),
} satisfies Record<string, ActionDef>;

export const ZONES: Zone[] = [
  { iana: "UTC", offset: 0, spoken: "UTC" },
  { iana: "America/New_York", offset: -5, spoken: "New York time" },
  { iana: "Europe/London", offset: 0, spoken: "London time" },
  { iana: "Europe/Berlin", offset: 1, spoken: "Berlin time" },
  { iana: "Asia/Tokyo", offset: 9, spoken: "Tokyo time" },
];

/** Units per dimension: factor to the dimension's base unit, or a formula for temperature. */
export const UNITS: Record<Dimension, Record<string, number>> = {
  mass: { kg: 1, g: 0.001, lb: 0.45359237 },
  length: { m: 1, cm: 0.01, km: 1000 },
  speed: { kmh: 1, ms: 3.6, mph: 1.609344 },
  temperature: { c: 1, f: 1 },
  power: { kw: 1, w: 0.001 },
  energy: { kwh: 1, wh: 0.001 },
  data: { mb: 1, gb: 1000 },
  duration: { minutes: 1, hours: 60, days: 1440, years: 525600 },
};

/** A value in one unit, in another of the same dimension. */
export function convert(dimension: Dimension, value: number, from: string, to: string): number {
  if (from === to) return value;
  if (dimension === "temperature") return from === "c" ? (value * 9) / 5 + 32 : ((value - 32) * 5) / 9;
  const table = UNITS[dimension];
  return (value * table[from]!) / table[to]!;
}

/** Conversions whose boundary is exact (no rounding, no 1000-vs-1024 or 365-vs-365.25 question). */
export function exactConversion(dimension: Dimension, from: string, to: string): boolean {
  if (from === to) return true;
  if (dimension === "mass") return [from, to].every((u) => u === "kg" || u === "g");
  if (dimension === "speed") return [from, to].every((u) => u === "kmh" || u === "ms");
  if (dimension === "duration") return [from, to].every((u) => u === "minutes" || u === "hours");
  return dimension !== "data";
}

export function hashOf(text: string): number {
  return createHash("sha256").update(text).digest().readUInt32BE(0);
}

/** A small deterministic generator, seeded per meaning so adding meanings does not reshuffle others. */
export function rng(seed: string): () => number {
  let a = hashOf(seed);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;

export type Split = "tune" | "holdout";
/** About a quarter of the meanings, by a hash of the meaning id: every paraphrase of a meaning in one split. */
export function splitOf(meaningId: string): Split {
  return hashOf(`split:${meaningId}`) % 4 === 0 ? "holdout" : "tune";
}

const CMPS: Cmp[] = [">", ">=", "<", "<="];

/** Every meaning of the corpus, in a fixed order. */
export function meanings(): Meaning[] {
  const out: Meaning[] = [];
  const add = (m: Omit<Meaning, "id">, id: string) => out.push({ id, ...m });
  const effects: Effect[] = ["block", "approval"];

  // Money thresholds, four comparisons, currencies and values that invite k/m suffixes and number words.
  const moneyActions = [ACTIONS.refund, ACTIONS.payout, ACTIONS.wire, ACTIONS.expense, ACTIONS.purchase];
  const moneyValues: [number, Currency][] = [
    [750, "USD"], [5000, "EUR"], [200, "GBP"], [10000, "USD"], [1500, "USD"], [1200, "USD"], [2500, "EUR"], [50000, "GBP"], [6800, "JPY"], [250000, "USD"], [2000000, "EUR"], [100, "USD"],
  ];
  moneyActions.forEach((action, ai) => {
    moneyValues.forEach(([value, currency], vi) => {
      const cmp = CMPS[(ai + vi) % 4]!;
      const effect = effects[(ai + vi) % 2]!;
      add({ effect, actions: [action], mode: "when", conditions: [{ kind: "money", field: "amount", cmp, value, currency }] }, `money-${action.tool}-${value}${currency}`);
    });
    add(
      { effect: effects[ai % 2]!, actions: [action], mode: "when", conditions: [{ kind: "money_between", field: "amount", low: 2000, high: 10000, currency: "USD" }] },
      `money-between-${action.tool}`,
    );
  });
  // Money with an exception, with a domain, with two actions, and as "only allow ... when".
  const exceptions: NonNullable<Meaning["exception"]>[] = [
    { kind: "enum", field: "environment", value: "staging", others: ["production"], attribute: "environment" },
    { kind: "enum", field: "tier", value: "gold", others: ["bronze", "silver"], attribute: "tier" },
    { kind: "flag", field: "vip", phrase: "VIP" },
  ];
  moneyActions.forEach((action, ai) => {
    exceptions.forEach((exception, ei) => {
      add(
        { effect: effects[(ai + ei) % 2]!, actions: [action], mode: "when", conditions: [{ kind: "money", field: "amount", cmp: ">", value: [500, 1000, 2500][ei]!, currency: "USD" }], exception },
        `money-except-${action.tool}-${exception.field}`,
      );
    });
    add(
      { effect: effects[ai % 2]!, actions: [action], mode: "when", conditions: [{ kind: "money", field: "amount", cmp: ">", value: 1000, currency: "USD" }], domain: "finance" },
      `money-domain-${action.tool}`,
    );
    add({ effect: "block", actions: [action], mode: "only", conditions: [{ kind: "money", field: "amount", cmp: "<", value: 100 + 100 * ai, currency: "USD" }] }, `money-only-${action.tool}`);
    const second = moneyActions[(ai + 1) % moneyActions.length]!;
    add(
      { effect: effects[(ai + 1) % 2]!, actions: [action, second], mode: "when", conditions: [{ kind: "money", field: "amount", cmp: ">", value: 3000, currency: "USD" }] },
      `money-or-${action.tool}-${second.tool}`,
    );
  });
  // Conditions without an action.
  [500, 2000, 10000].forEach((value, i) =>
    add(
      { effect: effects[i % 2]!, actions: [], anyAction: { tools: ["refund_payment", "create_payout"] }, mode: "when", conditions: [{ kind: "money", field: "amount", cmp: CMPS[i]!, value, currency: "USD" }] },
      `money-any-${value}`,
    ),
  );

  // Counts of a noun.
  const counts: [ActionDef, string, string][] = [
    [ACTIONS.bulkEmail, "recipient_count", "recipients"],
    [ACTIONS.createUsers, "user_count", "users"],
    [ACTIONS.export, "row_count", "rows"],
    [ACTIONS.scale, "node_count", "nodes"],
    [ACTIONS.sms, "recipient_count", "recipients"],
  ];
  counts.forEach(([action, field, noun], ai) =>
    [100, 20, 10000, 50, 5].forEach((value, vi) =>
      add({ effect: effects[(ai + vi) % 2]!, actions: [action], mode: "when", conditions: [{ kind: "count", field, noun, cmp: CMPS[(ai + vi) % 4]!, value }] }, `count-${action.tool}-${value}`),
    ),
  );

  // Percentages.
  const percents: [ActionDef, string, string][] = [
    [ACTIONS.discount, "discount_percent", "discount"],
    [ACTIONS.price, "change_percent", "price change"],
  ];
  percents.forEach(([action, field, noun], ai) =>
    [30, 20, 50, 15, 10].forEach((value, vi) =>
      add({ effect: effects[(ai + vi) % 2]!, actions: [action], mode: "when", conditions: [{ kind: "percent", field, noun, cmp: CMPS[(ai + vi) % 4]!, value }] }, `percent-${action.tool}-${value}`),
    ),
  );

  // Quantities with units; the probe's argument names its own unit, sometimes another one.
  const quantities: [ActionDef, Dimension, string, string, [number, string][], string[]][] = [
    [ACTIONS.ship, "mass", "weight", "weight", [[20, "kg"], [500, "g"], [50, "lb"]], ["kg", "g", "lb"]],
    [ACTIONS.drive, "speed", "speed", "speed", [[36, "kmh"], [10, "ms"], [30, "mph"]], ["kmh", "ms", "mph"]],
    [ACTIONS.thermostat, "temperature", "temperature", "temperature", [[30, "c"], [86, "f"], [25, "c"]], ["c", "f"]],
    [ACTIONS.motor, "power", "power", "power", [[75, "kw"], [500, "w"], [10, "kw"]], ["kw", "w"]],
    [ACTIONS.upload, "data", "size", "file size", [[100, "mb"], [2, "gb"], [500, "mb"]], ["mb", "gb"]],
    [ACTIONS.maintenance, "duration", "duration", "duration", [[90, "minutes"], [4, "hours"], [30, "minutes"]], ["minutes", "hours"]],
    [ACTIONS.retention, "duration", "retention", "retention period", [[7, "years"], [30, "days"], [2, "years"]], ["days", "years"]],
    [ACTIONS.robot, "length", "distance", "distance", [[5, "m"], [2, "km"], [50, "cm"]], ["m", "cm", "km"]],
    [ACTIONS.charge, "energy", "energy", "energy", [[50, "kwh"], [800, "wh"], [20, "kwh"]], ["kwh", "wh"]],
  ];
  quantities.forEach(([action, dimension, stem, noun, values, argUnits], ai) =>
    values.forEach(([value, unit], vi) =>
      [0, 1].forEach((variant) => {
        const argUnit = variant === 0 ? unit : argUnits.find((u) => u !== unit)!;
        add(
          { effect: effects[(ai + vi + variant) % 2]!, actions: [action], mode: "when", conditions: [{ kind: "quantity", field: `${stem}_${argUnit}`, noun, dimension, cmp: CMPS[(ai + vi + variant) % 4]!, value, unit, argUnit }] },
          `quantity-${action.tool}-${value}${unit}-as-${argUnit}`,
        );
      }),
    ),
  );

  // Enum equality, membership negation, flags, e-mail domains.
  const enums: [ActionDef, string, string, string[]][] = [
    [ACTIONS.deploy, "environment", "production", ["staging", "development"]],
    [ACTIONS.tier, "tier", "bronze", ["silver", "gold"]],
    [ACTIONS.role, "role", "admin", ["viewer", "editor"]],
    [ACTIONS.flight, "cabin", "business", ["economy", "premium"]],
    [ACTIONS.restart, "environment", "production", ["staging"]],
  ];
  enums.forEach(([action, field, value, others]) =>
    effects.forEach((effect) => add({ effect, actions: [action], mode: "when", conditions: [{ kind: "enum", field, value, others, attribute: field }] }, `enum-${action.tool}-${value}-${effect}`)),
  );
  add({ effect: "block", actions: [ACTIONS.flight], mode: "when", conditions: [{ kind: "money", field: "amount", cmp: ">", value: 1200, currency: "USD" }, { kind: "enum", field: "cabin", value: "business", others: ["economy"], attribute: "cabin" }] }, "combo-flight-business");
  add({ effect: "approval", actions: [ACTIONS.deploy], mode: "when", conditions: [{ kind: "enum", field: "environment", value: "production", others: ["staging"], attribute: "environment" }, { kind: "weekday", days: [5] }] }, "combo-deploy-prod-friday");
  effects.forEach((effect) => {
    add({ effect, actions: [ACTIONS.vendor], mode: "when", conditions: [{ kind: "not_in", field: "vendor", values: ["Acme", "Globex", "Initech"], other: "Hooli", attribute: "vendor" }] }, `notin-vendor-${effect}`);
    add({ effect, actions: [ACTIONS.email], mode: "when", conditions: [{ kind: "not_in", field: "country", values: ["US", "CA", "GB"], other: "RU", attribute: "country" }] }, `notin-country-${effect}`);
    add({ effect, actions: [ACTIONS.ticket], mode: "when", conditions: [{ kind: "flag", field: "urgent", phrase: "urgent" }] }, `flag-urgent-${effect}`);
    add({ effect, actions: [ACTIONS.share], mode: "when", conditions: [{ kind: "flag", field: "public", phrase: "public" }] }, `flag-public-${effect}`);
    add({ effect, actions: [ACTIONS.email], mode: "when", conditions: [{ kind: "email_domain", field: "to", domain: "acme.com", outside: true }] }, `email-outside-${effect}`);
    add({ effect, actions: [ACTIONS.email], mode: "when", conditions: [{ kind: "email_domain", field: "to", domain: "gmail.com", outside: false }] }, `email-to-gmail-${effect}`);
  });

  // Weekdays, time windows with zones, rates.
  const dayRules: number[][] = [[6, 0], [5], [1], [0]];
  [ACTIONS.deploy, ACTIONS.rotate, ACTIONS.restart].forEach((action, ai) =>
    dayRules.forEach((days, di) => add({ effect: effects[(ai + di) % 2]!, actions: [action], mode: "when", conditions: [{ kind: "weekday", days }] }, `weekday-${action.tool}-${days.join("")}`)),
  );
  const windows: [number, number][] = [[9, 17], [1, 4], [22, 6], [8, 20]];
  [ACTIONS.restart, ACTIONS.deploy, ACTIONS.rotate].forEach((action, ai) =>
    windows.forEach(([start, end], wi) =>
      [true, false].forEach((outside, oi) => {
        const zone = ZONES[(ai + wi + oi) % ZONES.length]!;
        const mode = outside ? "when" : (["when", "only"] as const)[(wi + ai) % 2]!;
        add({ effect: mode === "only" ? "block" : effects[(ai + wi) % 2]!, actions: [action], mode, conditions: [{ kind: "window", start, end, zone, outside: mode === "only" ? false : outside }] }, `window-${action.tool}-${start}-${end}-${zone.iana}-${outside ? "out" : "in"}`);
      }),
    ),
  );
  [ACTIONS.refund, ACTIONS.sms, ACTIONS.apiKey, ACTIONS.export].forEach((action, ai) =>
    ([[3, "hour"], [10, "day"], [5, "minute"]] as const).forEach(([limit, per], ri) =>
      add({ effect: effects[(ai + ri) % 2]!, actions: [action], mode: "when", conditions: [{ kind: "rate", limit, per }] }, `rate-${action.tool}-${limit}-${per}`),
    ),
  );

  // Actions with no condition at all.
  Object.values(ACTIONS).forEach((action, i) => add({ effect: effects[i % 2]!, actions: [action], mode: "when", conditions: [] }, `bare-${action.tool}`));
  return out;
}
