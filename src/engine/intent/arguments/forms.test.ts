// Surface forms people write that the first writers (arguments.test.ts) did not: a day with an ordinal
// full stop ("6. April 2027"), a weekday before the date it names ("Sunday the 21st of March"), and a reply
// that quotes the e-mail it answers. Every case is a meaning of our own (a tool of a trade no fixture has,
// typed values) rendered by writers that know nothing of the parser; the expected arguments come from the
// meaning. Each class has a check that fails when the class is read wrong, not only when it is not read.
import { describe, expect, it } from "vitest";
import { askedParameters, extractArguments, type JsonSchema } from "../extract.ts";

const NOW = new Date("2026-11-24T12:00:00Z");
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const ONES = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const ORD = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"];
const ordinalWords = (d: number) => (d <= 20 ? ORD[d]! : d < 30 ? `twenty-${ORD[d - 20]}` : d === 30 ? "thirtieth" : `thirty-${ORD[d - 30]}`);
const suffix = (d: number) => (d % 100 >= 11 && d % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][d % 10] ?? "th"));
const spokenYear = (y: number) => `${ONES[Math.floor(y / 100)] ?? "twenty"} ${y % 100 < 20 ? ONES[y % 100] : `${["", "", "twenty", "thirty"][Math.floor((y % 100) / 10)]}-${ONES[y % 10]}`}`.replace(/-$/, "");

const TUNE_SERVICE = {
  type: "object",
  required: ["piano_id", "visit_date", "contact_email"],
  properties: {
    piano_id: { type: "string", pattern: "^PN-[0-9]{4}$", description: "The instrument, e.g. PN-0042." },
    visit_date: { type: "string", format: "date", description: "Day the tuner comes." },
    contact_email: { type: "string", format: "email", description: "Who the tuner calls on arrival." },
    pitch_hz: { type: "number", minimum: 400, maximum: 460, description: "Reference pitch for A4." },
  },
} as const;

interface Day {
  y: number;
  m: number;
  d: number;
}
const iso = (x: Day) => `${x.y}-${String(x.m).padStart(2, "0")}-${String(x.d).padStart(2, "0")}`;
const weekday = (x: Day) => WEEKDAYS[new Date(Date.UTC(x.y, x.m - 1, x.d)).getUTCDay()]!;

// Days chosen so that a weekday read alone (the next such weekday after NOW) is never the same day.
const DAYS: Day[] = [
  { y: 2027, m: 4, d: 6 },
  { y: 2027, m: 9, d: 30 },
  { y: 2028, m: 1, d: 14 },
  { y: 2027, m: 3, d: 21 },
  { y: 2027, m: 6, d: 3 },
];

const DAY_FORMS: Record<string, (x: Day) => string> = {
  ordinalStop: (x) => `${x.d}. ${MONTHS[x.m - 1]} ${x.y}`,
  ordinalStopShort: (x) => `${x.d}. ${MONTHS[x.m - 1]!.slice(0, 3)} ${x.y}`,
  weekdayTheOf: (x) => `${weekday(x)} the ${x.d}${suffix(x.d)} of ${MONTHS[x.m - 1]} ${x.y}`,
  weekdayComma: (x) => `${weekday(x)}, ${MONTHS[x.m - 1]} ${x.d}, ${x.y}`,
  spokenWeekday: (x) => `${weekday(x).toLowerCase()} the ${ordinalWords(x.d)} of ${MONTHS[x.m - 1]!.toLowerCase()} ${spokenYear(x.y)}`,
};

const SENTENCES: ((day: string, id: string, email: string) => string)[] = [
  (day, id, email) => `Please book a tuning for ${id} on ${day}, contact ${email}.`,
  (day, id, email) => `Could you send the tuner to ${id}? Visit date: ${day}. Ask for ${email}.`,
  (day, id, email) => `um can you get someone out to tune ${id} ${day} and call ${email}`,
];

describe("dates written with an ordinal stop or after their weekday", () => {
  const cases = DAYS.flatMap((x, i) =>
    Object.entries(DAY_FORMS).flatMap(([form, write]) =>
      SENTENCES.map((s, k) => ({ name: `${form}/${k}`, text: s(write(x), `PN-${1000 + i}`, `desk${i}@concerthall.test`), want: iso(x) })),
    ),
  );

  it("reads the day the text names, never the next weekday of that name or the first of the month", () => {
    const wrong = cases.map((c) => ({ c, got: extractArguments(TUNE_SERVICE, [c.text], { now: NOW }).visit_date })).filter(({ c, got }) => got !== c.want);
    expect(wrong.map(({ c, got }) => `${c.name}: ${String(got)} ≠ ${c.want} — ${c.text}`)).toEqual([]);
  });
});

describe("a reply quoting the e-mail it answers", () => {
  const people = [
    { name: "Ilse Varga", email: "ilse.varga@concerthall.test" },
    { name: "Tom Oduya", email: "t.oduya@concerthall.test" },
  ];
  const headers = ["Wed, 3 Feb 2027 17:25", "Mon, 8 Mar 2027 at 09:12", "Friday, January 15, 2027 10:41 AM"];
  const tops = ["Yes, go ahead with this.", "Approved — please action below.", "+1 from me"];

  const quote = (body: string[]) => body.map((l) => (l ? `> ${l}` : ">")).join("\n");
  const cases = DAYS.flatMap((x, i) =>
    headers.map((h, k) => {
      const from = people[(i + k) % people.length]!;
      const body = ["Hi,", "", SENTENCES[k % 2]!(DAY_FORMS.weekdayComma!(x), `PN-${2000 + i}`, `stage${i}@concerthall.test`), "", "Thanks", from.name.split(" ")[0]!];
      return { text: `${tops[k]}\n\nOn ${h}, ${from.name} <${from.email}> wrote:\n${quote(body)}`, want: { piano_id: `PN-${2000 + i}`, visit_date: iso(x), contact_email: `stage${i}@concerthall.test` } };
    }),
  );

  it("reads the quoted request's values, not the attribution line's date or sender", () => {
    for (const c of cases) expect(extractArguments(TUNE_SERVICE, [c.text], { now: NOW }), c.text).toMatchObject(c.want);
  });

  it("leaves a field the quoted request does not give open, even when the attribution line has one", () => {
    for (const c of cases) {
      const withoutContact = c.text.replace(/(?:contact|Ask for) stage\d@concerthall\.test\.?/, "");
      expect(extractArguments(TUNE_SERVICE, [withoutContact], { now: NOW }).contact_email, withoutContact).toBeUndefined();
    }
  });
});

const STAGE_HIRE = {
  type: "object",
  required: ["stage_id", "deposit", "cable_length_m", "setup_minutes"],
  properties: {
    stage_id: { type: "string", pattern: "^STG-[0-9]{3}$", description: "The mobile stage." },
    deposit: { type: "number", minimum: 0, description: "Deposit taken, in the currency given." },
    currency: { type: "string", enum: ["USD", "EUR", "GBP"] },
    cable_length_m: { type: "number", minimum: 1, maximum: 20000, description: "Power cable to bring." },
    setup_minutes: { type: "integer", minimum: 15, maximum: 1440, description: "Time the crew needs to set up." },
    hire_days: { type: "integer", minimum: 1, maximum: 60, description: "How long the stage is hired for, in days." },
    late_fee_pence: { type: "integer", minimum: 0, description: "Fee per late hour, in pence." },
  },
} as const;

// Amounts, lengths and durations as people say and write them, each with the value the schema wants.
const AMOUNTS: { said: string; amount: number; currency: string }[] = [
  { said: "one thousand four hundred and seventy-six dollars", amount: 1476, currency: "USD" },
  { said: "three hundred and forty-five euros", amount: 345, currency: "EUR" },
  { said: "seventy-two dollars and forty cents", amount: 72.4, currency: "USD" },
  { said: "twelve pounds and twenty pence", amount: 12.2, currency: "GBP" },
  { said: "eighty-four euros thirty", amount: 84.3, currency: "EUR" },
];
const LENGTHS: { said: string; m: number }[] = [
  { said: "2500m", m: 2500 },
  { said: "1200m", m: 1200 },
  { said: "1,800 metres", m: 1800 },
];
const DURATIONS: { said: string; min: number }[] = [
  { said: "1 hr 30 min", min: 90 },
  { said: "2 hrs 15 mins", min: 135 },
  { said: "1h30", min: 90 },
  { said: "two hours and thirty minutes", min: 150 },
  { said: "3h45", min: 225 },
];

describe("amounts in words, lengths glued to their unit and lengths of time in two units", () => {
  const forms = [
    (a: string, l: string, d: string) => `Hire stage STG-204 with a deposit of ${a}, ${l} of cable and ${d} to set up.`,
    (a: string, l: string, d: string) => `um can you book STG-204 deposit ${a} we need ${l} of cable and the crew needs ${d} for setup`,
    (a: string, l: string, d: string) => `Stage: STG-204\nDeposit: ${a}\nCable: ${l}\nSetup: ${d}`,
  ];
  const cases = AMOUNTS.flatMap((a, i) => forms.map((write, k) => ({ a, l: LENGTHS[(i + k) % LENGTHS.length]!, d: DURATIONS[(i + 2 * k) % DURATIONS.length]!, write })));

  it("gives each its value in the schema's unit and currency", () => {
    for (const { a, l, d, write } of cases) {
      const text = write(a.said, l.said, d.said);
      expect(extractArguments(STAGE_HIRE, [text], { now: NOW }), text).toMatchObject({ deposit: a.amount, currency: a.currency, cable_length_m: l.m, setup_minutes: d.min });
    }
  });

  it("a fortnight is fourteen days, and pence written after the number are pence", () => {
    for (const [said, days] of [["a fortnight", 14], ["two weeks", 14], ["ten days", 10]] as const) {
      const text = `Please hire STG-311 for ${said}, deposit £200, 2000m of cable, 45 minutes to set up, late fee 80p.`;
      expect(extractArguments(STAGE_HIRE, [text], { now: NOW }), text).toMatchObject({ hire_days: days, late_fee_pence: 80, deposit: 200 });
    }
  });

  it("keeps a million a million when it is one", () => {
    const budget = { type: "object", properties: { budget: { type: "number", description: "Budget in USD." } } } as const;
    expect(extractArguments(budget, ["Set the budget to $2.5m please"], { now: NOW }).budget).toBe(2_500_000);
    expect(extractArguments(budget, ["Set the budget to 12m dollars"], { now: NOW }).budget).toBe(12_000_000);
  });
});

const CLOSE_ACCOUNT = {
  type: "object",
  required: ["account_id", "closure_reason"],
  properties: {
    account_id: { type: "string", pattern: "^ACC-[0-9]{5}$" },
    closure_reason: { type: "string", enum: ["non_payment", "not_delivered", "end_of_lease", "customer_request"] },
    notice_days: { type: "integer", minimum: 0, maximum: 90 },
  },
} as const;

describe("enum values by their meaning's parts", () => {
  it("a negated value named by a negative prefix or by 'not' before the same word", () => {
    const said: [string, string][] = [
      ["the invoices are unpaid", "non_payment"],
      ["reason: unpaid rent", "non_payment"],
      ["because it was not paid", "non_payment"],
      ["the goods were undelivered", "not_delivered"],
      ["as the order was never delivered — not delivered", "not_delivered"],
    ];
    for (const [why, value] of said) {
      for (const text of [`Close ACC-40112, ${why}.`, `please close account ACC-40112 ${why}`]) expect(extractArguments(CLOSE_ACCOUNT, [text], { now: NOW }).closure_reason, text).toBe(value);
    }
  });

  it("a value of several words is not named by its function words and one content word", () => {
    for (const text of ["End the account of ACC-40112 at the customer's request.", "Please end ACC-40112 on customer request", "end of the month: close ACC-40112, customer request"]) {
      expect(extractArguments(CLOSE_ACCOUNT, [text], { now: NOW }).closure_reason, text).toBe("customer_request");
    }
    expect(extractArguments(CLOSE_ACCOUNT, ["End the account of ACC-40112 now"], { now: NOW }).closure_reason).toBeUndefined();
  });
});

describe("a correction that calls the old value wrong", () => {
  const first = "Please close ACC-40112, customer request, with 30 days notice.";
  it("takes the new value, whatever the order and the value's type", () => {
    for (const [fix, key, value] of [
      ["30 was wrong — it's 45.", "notice_days", 45],
      ["sorry, 30 is a typo, 45", "notice_days", 45],
      ["customer request was wrong, it's end of lease", "closure_reason", "end_of_lease"],
      ["ACC-40112 is incorrect — ACC-40113", "account_id", "ACC-40113"],
    ] as const) {
      expect(extractArguments(CLOSE_ACCOUNT, [first, fix], { now: NOW, correction: true })[key], fix).toBe(value);
    }
  });
});

const SEASON_PASS = {
  type: "object",
  required: ["start_date", "end_date", "discount", "zone"],
  properties: {
    start_date: { type: "string", format: "date", description: "First day the pass is valid." },
    end_date: { type: "string", format: "date", description: "Last day the pass is valid." },
    discount: { type: "number", minimum: 0, maximum: 1, description: "Discount as a fraction." },
    zone: { type: "string", enum: ["inner", "outer", "all_zones"] },
  },
} as const;

describe("values named after them in a list", () => {
  const items = [
    { key: "start_date", said: ["3 March 2027", "Wed, Mar 3, 2027"], label: ["start date", "start"], want: "2027-03-03" },
    { key: "end_date", said: ["30 June 2027", "30/6/2027"], label: ["end date", "end"], want: "2027-06-30" },
    { key: "discount", said: ["15%", "15 percent"], label: ["discount"], want: 0.15 },
    { key: "zone", said: ["outer"], label: ["zone"], want: "outer" },
  ];
  const links = ["is the", "as the", "for the"];
  it("take their label from the right, not from the item before them, in every order", () => {
    for (let n = 0; n < 12; n++) {
      const order = n % 2 === 0 ? items : [...items].reverse();
      const parts = order.map((it, k) => `${it.said[(n + k) % it.said.length]} ${links[(n + k) % links.length]} ${it.label[(n + 2 * k) % it.label.length]}`);
      const text = `Issue a season pass: ${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}.`;
      const got = extractArguments(SEASON_PASS, [text], { now: NOW });
      for (const it of items) expect(got[it.key], `${it.key} in: ${text}`).toEqual(it.want);
    }
  });
});

const MOVE_PALLETS = {
  type: "object",
  required: ["from_yard", "to_yard", "pallets"],
  properties: {
    from_yard: { type: "string", enum: ["Y1", "Y2", "Y3"], description: "Yard code: Y1 Harwich, Y2 Felixstowe, Y3 Tilbury." },
    to_yard: { type: "string", enum: ["Y1", "Y2", "Y3"], description: "Yard code: Y1 Harwich, Y2 Felixstowe, Y3 Tilbury." },
    pallets: { type: "integer", minimum: 1 },
    slot_minutes: { type: "integer", minimum: 5, maximum: 240, description: "Loading slot length." },
  },
} as const;

describe("roles named by a label's noun, before or after the value", () => {
  const forms = [
    (a: string, b: string) => `Move 12 pallets:\n- ${b} — destination yard\n- ${a} — source yard`,
    (a: string, b: string) => `Move 12 pallets.\nDestination yard: ${b}\nSource yard: ${a}`,
    (a: string, b: string) => `Please move 12 pallets, origin ${a}, destination ${b}.`,
    (a: string, b: string) => `move 12 pallets ${b} as the destination and ${a} as the origin`,
  ];
  it("gives each end its own value, by code or by the place's name", () => {
    for (const [a, b, from, to] of [["Y1", "Tilbury", "Y1", "Y3"], ["Felixstowe", "Y1", "Y2", "Y1"], ["Harwich", "Felixstowe", "Y1", "Y2"]] as const) {
      for (const write of forms) {
        const text = write(a, b);
        expect(extractArguments(MOVE_PALLETS, [text], { now: NOW }), text).toMatchObject({ from_yard: from, to_yard: to, pallets: 12 });
      }
    }
  });
});

describe("fractions of an hour, a percentage after a date, and a birth date", () => {
  it("reads a quarter, a half and three quarters of an hour as minutes", () => {
    for (const [said, min] of [["one quarter of an hour", 15], ["half an hour", 30], ["three quarters of an hour", 45], ["an hour and a half", 90]] as const) {
      for (const text of [`Move 4 pallets from Y1 to Y2 with a loading slot of ${said}.`, `slot should be ${said}, move 4 pallets Y1 to Y2`]) {
        expect(extractArguments(MOVE_PALLETS, [text], { now: NOW }).slot_minutes, text).toBe(min);
      }
    }
  });

  it("a number a percent follows is no clock time of the date before it", () => {
    const schema = { type: "object", properties: { starts_on: { type: "string", format: "date" }, discount: { type: "number", minimum: 0, maximum: 1, description: "Discount as a fraction." } } } as const;
    for (const text of ["Start it on 3. June 2027 at 15 %.", "from 3 June 2027 at 15 percent", "starting June 3, 2027 at 12.5 %"]) {
      const got = extractArguments(schema, [text], { now: NOW });
      expect(got.starts_on, text).toBe("2027-06-03");
      expect(got.discount, text).toBe(text.includes("12.5") ? 0.125 : 0.15);
    }
  });

  it("never takes today or a later day for a date of birth", () => {
    const member = { type: "object", required: ["full_name", "date_of_birth"], properties: { full_name: { type: "string" }, date_of_birth: { type: "string", format: "date" } } } as const;
    for (const text of ["Open day at the club today. Please enrol Mara Voss.", "Enrol Mara Voss tomorrow", "Enrol Mara Voss on Friday"]) expect(extractArguments(member, [text], { now: NOW }).date_of_birth, text).toBeUndefined();
    expect(extractArguments(member, ["Enrol Mara Voss, born 4 June 1990"], { now: NOW }).date_of_birth).toBe("1990-06-04");
  });
});

const RAISE_JOB = {
  type: "object",
  required: ["site_id", "job_type", "summary"],
  properties: {
    site_id: { type: "string", pattern: "^PL-[0-9]{3}$", description: "The plant." },
    job_type: { type: "string", enum: ["lv_inspection", "hv_switching", "ac_service", "pump_swap"] },
    summary: { type: "string", description: "One line for the crew." },
    contact_name: { type: "string", description: "Who meets the crew." },
  },
} as const;

describe("short enum parts written out, and labels after free text", () => {
  it("a two- or three-letter part is the initials of the words written for it", () => {
    for (const [said, value] of [["high-voltage switching", "hv_switching"], ["low voltage inspection", "lv_inspection"], ["air-conditioning service", "ac_service"]] as const) {
      for (const text of [`Raise a ${said} job at PL-204 to check the breakers.`, `um we need a ${said} at PL-204 noting check the breakers`]) {
        expect(extractArguments(RAISE_JOB, [text], { now: NOW }).job_type, text).toBe(value);
      }
    }
    expect(extractArguments(RAISE_JOB, ["Raise a job at PL-204: high street switching board"], { now: NOW }).job_type).toBeUndefined();
  });

  it("a list line's label after its value, in parentheses or after a dash", () => {
    const lines = [
      ["breaker 4 trips every night", "summary"],
      ["Ines Moreau", "contact name"],
      ["PL-204", "site"],
    ];
    for (const [open, close] of [["(", ")"], ["— ", ""], ["- ", ""]]) {
      const text = `Raise a pump swap job:\n${lines.map(([v, l]) => `* ${v} ${open}${l}${close}`).join("\n")}`;
      expect(extractArguments(RAISE_JOB, [text], { now: NOW }), text).toMatchObject({ summary: "breaker 4 trips every night", contact_name: "Ines Moreau", site_id: "PL-204", job_type: "pump_swap" });
    }
  });
});

describe("amounts as Europe writes them and codes glued to them", () => {
  const schema = { type: "object", required: ["deposit"], properties: { deposit: { type: "number", description: "Deposit taken." }, currency: { type: "string", enum: ["USD", "EUR", "GBP", "CHF"] } } } as const;
  const said: [string, number, string][] = [
    ["1.299 USD", 1299, "USD"],
    ["€3.450", 3450, "EUR"],
    ["165.000 euros", 165000, "EUR"],
    ["1.250,50 CHF", 1250.5, "CHF"],
    ["USD2750", 2750, "USD"],
    ["gbp8.99", 8.99, "GBP"],
    ["EUR 12.500", 12500, "EUR"],
  ];
  it("read thousands grouped by dots as thousands, and a glued code as the currency", () => {
    for (const [money, amount, currency] of said) {
      for (const text of [`Take a deposit of ${money} for the stage.`, `deposit: ${money}`, `um deposit ${money} please`]) {
        expect(extractArguments(schema, [text], { now: NOW }), text).toMatchObject({ deposit: amount, currency });
      }
    }
  });

  it("keep a decimal point a decimal point where it is one, and a reference a reference", () => {
    expect(extractArguments(schema, ["deposit 3.45 USD"], { now: NOW }).deposit).toBe(3.45);
    const ref = { type: "object", properties: { ref: { type: "string", pattern: "^[A-Z]{3}[0-9]{4}$" } } } as const;
    expect(extractArguments(ref, ["look up ref CAD1024"], { now: NOW }).ref).toBe("CAD1024");
  });
});

describe("a correction of a name, a title or a place that does not name its field", () => {
  const schema = {
    type: "object",
    required: ["crew_id", "skipper_name"],
    properties: { crew_id: { type: "string", pattern: "^CR-[0-9]{3}$" }, skipper_name: { type: "string", description: "Full name of the skipper." }, sail_date: { type: "string", format: "date" } },
  } as const;
  const first = "Crew CR-204 sails on 12 June 2027 with skipper Jonas Berg.";
  it("takes the new value when the correction sets it against the old one or there is one such field", () => {
    for (const [fix, want] of [
      ["actually make it Lena Ostrova", "Lena Ostrova"],
      ["sorry, I meant Lena Ostrova", "Lena Ostrova"],
      ["Lena Ostrova, not Jonas Berg", "Lena Ostrova"],
      ["Lena Ostrova instead please", "Lena Ostrova"],
      ["Jonah, not Jonas", "Jonah Berg"],
      ["oh wait it should be lena ostrova", "lena ostrova"],
    ] as const) {
      expect(extractArguments(schema, [first, fix], { now: NOW, correction: true }).skipper_name, fix).toBe(want);
    }
  });

  it("leaves it when the correction points back or gives a typed value", () => {
    for (const fix of ["actually, the other one", "sorry, make it 14 June 2027"]) {
      expect(extractArguments(schema, [first, fix], { now: NOW, correction: true }).skipper_name, fix).toBe("Jonas Berg");
    }
  });
});

describe("clock times said with past and to, and a length of time in two units", () => {
  const schema = { type: "object", required: ["lane", "starts_at", "length_minutes"], properties: { lane: { type: "string", pattern: "^LN-[0-9]{2}$" }, starts_at: { type: "string", format: "date-time" }, length_minutes: { type: "integer", minimum: 5 }, players: { type: "integer", minimum: 1, maximum: 8 } } } as const;
  const cases: [string, string, number][] = [
    ["on 3 June 2027 at half past nine UTC for 90 minutes", "2027-06-03T09:30:00Z", 90],
    ["on June 3, 2027 at quarter to five pm UTC for an hour and 15 minutes", "2027-06-03T16:45:00Z", 75],
    ["at quarter past ten on 3 June 2027 (UTC) for two hours and thirty minutes", "2027-06-03T10:15:00Z", 150],
    ["3 June 2027, half past 7 in the evening UTC, 1 hr 45 min", "2027-06-03T19:30:00Z", 105],
  ];
  it("read the time on the day written, never a count or a time from now", () => {
    for (const [when, at, minutes] of cases) {
      const text = `Book lane LN-04 ${when}, please.`;
      const got = extractArguments(schema, [text], { now: NOW });
      expect(got, text).toMatchObject({ lane: "LN-04", starts_at: at, length_minutes: minutes });
      expect(got.players, text).toBeUndefined();
    }
  });
});

// A lease of our own: a term in months, two amounts in one currency told apart only by their labels, an
// enum whose description explains each value, and an enum of coded levels.
const LEASE_BOAT = {
  type: "object",
  required: ["berth", "term_months", "fee_eur", "bond_eur", "crew_mode", "tier"],
  properties: {
    berth: { type: "string", pattern: "^BT-[0-9]{3}$" },
    term_months: { type: "integer", minimum: 1, maximum: 60, description: "Charter length in months." },
    fee_eur: { type: "number", minimum: 0, description: "Charter fee per month in euros." },
    bond_eur: { type: "number", minimum: 0, description: "Refundable bond in euros." },
    crew_mode: { type: "string", enum: ["skippered", "bareboat", "flotilla"], description: "skippered: a captain sails with the guests; bareboat: guests sail it on their own; flotilla: sails in a group led by a lead boat." },
    tier: { type: "string", enum: ["t1_premium", "t2_standard", "t3_basic"] },
    est_hours: { type: "number", minimum: 0, description: "Estimated handover time in hours." },
  },
} as const;

describe("a term in months", () => {
  it("is read in months, whether written in months or years", () => {
    for (const [text, months] of [
      ["BT-101 for a 9 month term", 9],
      ["charter BT-101, term 18 months", 18],
      ["BT-101 on a two-year term", 24],
      ["a 1 year charter of BT-101", 12],
      ["BT-101: 36 months", 36],
    ] as const) {
      expect(extractArguments(LEASE_BOAT, [text], { now: NOW }).term_months, text).toBe(months);
    }
  });
});

describe("two amounts in one currency, told apart by their labels", () => {
  const layouts: ((fee: string, bond: string) => string)[] = [
    (fee, bond) => `BT-101, fee ${fee} a month, bond ${bond}`,
    (fee, bond) => `BT-101: bond ${bond}, fee ${fee}`,
    (fee, bond) => `BT-101 with a fee of ${fee} and a bond of ${bond}`,
    (fee, bond) => `BT-101 - ${fee} fee, ${bond} bond`,
    (fee, bond) => `bond of ${bond} and fee of ${fee} for BT-101`,
  ];
  it("gives each amount to the parameter its own label names, in every layout", () => {
    for (const [fee, bond, feeValue, bondValue] of [
      ["€1,050", "€2,400", 1050, 2400],
      ["2400 EUR", "€950", 2400, 950],
      ["€3k", "€1,200", 3000, 1200],
    ] as const) {
      for (const layout of layouts) {
        const text = layout(fee, bond);
        const args = extractArguments(LEASE_BOAT, [text], { now: NOW });
        expect([args.fee_eur, args.bond_eur], text).toEqual([feeValue, bondValue]);
      }
    }
  });
});

describe("an enum value named by a phrase of its description", () => {
  it("reads a two-word phrase only that value's clause has", () => {
    for (const [text, mode] of [
      ["BT-101, the guests want to sail on their own", "bareboat"],
      ["BT-101 please, in a group with the others", "flotilla"],
      ["BT-101, the captain sails with them", "skippered"],
    ] as const) {
      expect(extractArguments(LEASE_BOAT, [text], { now: NOW }).crew_mode, text).toBe(mode);
    }
  });
  it("does not read a phrase all values share, or a word alone", () => {
    for (const text of ["BT-101 for the guests", "BT-101, sails Tuesday"]) expect(extractArguments(LEASE_BOAT, [text], { now: NOW }).crew_mode, text).toBeUndefined();
  });
});

describe("a coded level written alone", () => {
  it("names the value whose code it is", () => {
    for (const [text, tier] of [
      ["BT-101 at T2", "t2_standard"],
      ["t1 for BT-101", "t1_premium"],
      ["BT-101 (T3 please)", "t3_basic"],
    ] as const) {
      expect(extractArguments(LEASE_BOAT, [text], { now: NOW }).tier, text).toBe(tier);
    }
  });
});

describe("a number that names something else", () => {
  it("is no quantity of a unit when other parameters take numbers and no word names it", () => {
    for (const text of ["BT-101 at Pier 9, 12 month term", "moor BT-101 by Gate 4 for 6 months"]) {
      expect(extractArguments(LEASE_BOAT, [text], { now: NOW }).est_hours, text).toBeUndefined();
    }
    expect(extractArguments(LEASE_BOAT, ["BT-101, handover takes 3 hours"], { now: NOW }).est_hours).toBe(3);
  });
});

// A ship's chandler of our own: a container code written in groups, a tariff code with dots, a country of
// origin, an insured sum whose description mentions a percentage, a weight kept to one decimal place, an
// enum defined with "=", and dates written day first.
const SUPPLY_SHIP = {
  type: "object",
  required: ["box", "tariff_code"],
  properties: {
    box: { type: "string", pattern: "^[A-Z]{4}[0-9]{7}$", description: "Container number." },
    tariff_code: { type: "string", pattern: "^[0-9]{8}$", description: "Eight-digit tariff code." },
    origin_country: { type: "string", pattern: "^[A-Z]{2}$", description: "ISO country of origin." },
    cover_gbp: { type: "number", minimum: 1, description: "Sum insured in pounds (invoice value plus 10%)." },
    net_weight_kg: { type: "number", minimum: 0, description: "Net weight in kilograms, rounded to one decimal place." },
    loading: { type: "string", enum: ["crane", "hand", "forklift"], description: "crane = lifted aboard by the quay crane; hand = carried on by the crew; forklift = driven up the ramp." },
    sail_date: { type: "string", format: "date" },
  },
} as const;

describe("codes, countries, amounts, precision and dates as a chandler writes them", () => {
  const read = (text: string) => extractArguments(SUPPLY_SHIP, [text], { now: NOW });
  it("a code written in groups is the code its pattern accepts", () => {
    for (const [text, box] of [["box TGHU 123456-7 please", "TGHU1234567"], ["tghu-123456-7, tariff 84713000", "TGHU1234567"], ["TGHU 1234567 to go", "TGHU1234567"]] as const) expect(read(text).box, text).toBe(box);
    for (const text of ["tariff 8471.30.00", "tariff 8471 30 00", "tariff 84.71.30.00"]) expect(read(text).tariff_code, text).toBe("84713000");
  });
  it("a country named in words is its code; a code-shaped word that is no country is not one", () => {
    expect(read("tariff 84713000, made in Portugal").origin_country).toBe("PT");
    expect(read("HS 84713000 from Vietnam, ZZ batch").origin_country).toBe("VN");
    expect(read("HS 84713000, QQ lot").origin_country).toBeUndefined();
  });
  it("an amount for a parameter named in a currency is money, whatever its description says of percentages", () => {
    for (const [text, cover] of [["cover £1.2m", 1200000], ["insure for £250k", 250000], ["cover 980,000 GBP", 980000]] as const) expect(read(text).cover_gbp, text).toBe(cover);
  });
  it("a converted weight keeps the places its description asks for", () => {
    for (const [text, kg] of [["net 8lb 13oz", 4], ["net weight 22 lbs", 10], ["net 1.25 kg", 1.3]] as const) expect(read(text).net_weight_kg, text).toBe(kg);
  });
  it("an enum value defined after '=' is named by its definition", () => {
    for (const [text, loading] of [["the crew will carry it on", "hand"], ["it gets driven up the ramp", "forklift"], ["use the quay crane", "crane"]] as const) expect(read(text).loading, text).toBe(loading);
  });
  it("a date with full stops is day first", () => {
    expect(read("sails 04.05.2027").sail_date).toBe("2027-05-04");
    expect(read("sails 4.5.2027").sail_date).toBe("2027-05-04");
  });
});

// A grooming booking of our own: a clock-shaped start time beside the day, a grade written in words, and an
// enum whose description shares a word with another parameter's value.
const GROOMING = {
  type: "object",
  required: ["day", "start", "grade", "cut", "finish"],
  properties: {
    day: { type: "string", format: "date" },
    start: { type: "string", pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$", description: "Start time, 24-hour HH:MM." },
    grade: { type: "string", enum: ["grade_1", "grade_2", "grade_3"], description: "Coat difficulty grade." },
    cut: { type: "string", enum: ["full_clip", "tidy_up"], description: "full_clip = the whole coat taken short; tidy_up = a trim of the face, feet and finish." },
    finish: { type: "string", enum: ["trim", "hand_strip"] },
  },
} as const;

describe("a clock time, a grade in words, and values named by their own words first", () => {
  const read = (text: string) => extractArguments(GROOMING, [text], { now: NOW });
  it("a clock-shaped text takes the time the date gives, and the date keeps its day", () => {
    for (const [text, start] of [["14/05/2027 at 10:15", "10:15"], ["2027-05-14, half past nine", "09:30"], ["14 May 2027 at 2pm", "14:00"], ["half past two in the afternoon on 14 May 2027", "14:30"]] as const) {
      const args = read(text);
      expect([args.day, args.start], text).toEqual(["2027-05-14", start]);
    }
  });
  it("a number in words names the value with that number", () => {
    for (const [text, grade] of [["grade two coat", "grade_2"], ["call it grade three", "grade_3"], ["Grade 1 coat", "grade_1"]] as const) expect(read(text).grade, text).toBe(grade);
  });
  it("a value named by its own words is not taken for one its description's words resemble", () => {
    const args = read("full clip, hand strip the finish");
    expect([args.cut, args.finish]).toEqual(["full_clip", "hand_strip"]);
  });
});

// A garden-landscaping order of our own: a volume and an area in the schema's units, a yes/no named with a
// word of wanting, a place, and counts of people beside each other.
const LANDSCAPING = {
  type: "object",
  required: ["site_location", "topsoil_m3"],
  properties: {
    site_location: { type: "string", maxLength: 200, description: "Where on the site, e.g. 'north lawn'." },
    topsoil_m3: { type: "number", description: "Topsoil in cubic metres." },
    turf_m2: { type: "number", description: "Turf in square metres." },
    digger_required: { type: "boolean", default: false },
    labourers: { type: "integer", minimum: 1, maximum: 12 },
    supervisors: { type: "integer", minimum: 0, maximum: 3 },
  },
} as const;

describe("units to a power, things numbered by a noun, yes/no after a label, a place and counts side by side", () => {
  const read = (text: string) => extractArguments(LANDSCAPING, [text], { now: NOW });
  it("a volume and an area in any spelling of a power", () => {
    for (const [volume, area, m3, m2] of [
      ["12 m³", "40 m²", 12, 40],
      ["12 cubic metres", "40 square metres", 12, 40],
      ["12 m3", "430.56 sq ft", 12, 40],
      ["9 cubic meters", "20 metres squared", 9, 20],
    ] as const) {
      const args = read(`topsoil ${volume} and turf ${area} for the north lawn`);
      expect([args.topsoil_m3, Math.round((args.turf_m2 as number) * 100) / 100], `${volume} / ${area}`).toEqual([m3, m2]);
    }
  });
  it("a number after a noun no parameter is named by numbers that thing", () => {
    for (const text of ["deliver to plot 4 on the east side", "bay 7, the usual mix", "phase 2 of the back garden"]) expect(read(text).topsoil_m3, text).toBeUndefined();
    // Named by the parameter's own words, it is the value.
    expect(read("topsoil 4 for plot 9").topsoil_m3).toBe(4);
  });
  it("a yes or no after the thing's name, or a word of wanting", () => {
    for (const [text, want] of [["digger: yes", true], ["digger - no", false], ["digger needed", true], ["digger not needed", false], ["no digger", false], ["with a digger", true]] as const) expect(read(`12 m3 topsoil, ${text}`).digger_required, text).toBe(want);
  });
  it("a place labelled by where it is", () => {
    expect(read("Topsoil order\n- where: north lawn\n- topsoil: 12 m3").site_location).toBe("north lawn");
  });
  it("counts of two kinds of people side by side go each to its own", () => {
    for (const [text, l, s] of [["4 labourers and 1 supervisor", 4, 1], ["1 supervisor and 4 labourers", 4, 1], ["two supervisors, six labourers", 6, 2]] as const) {
      const args = read(`12 m3 topsoil, ${text}`);
      expect([args.labourers, args.supervisors], text).toEqual([l, s]);
    }
  });
});

// A horse-remedy order of our own: the remedy is a term of art no everyday dictionary knows (made-up names).
const REMEDY = {
  type: "object",
  required: ["horse_id", "remedy_name", "dose_ml"],
  properties: {
    horse_id: { type: "string", pattern: "^HOR-[0-9]{4}$" },
    remedy_name: { type: "string", maxLength: 80, description: "Remedy to give." },
    dose_ml: { type: "number", description: "Dose in millilitres." },
  },
} as const;

describe("a term of art that opens the request or follows its verb names the thing", () => {
  const read = (text: string) => extractArguments(REMEDY, [text], { now: NOW });
  it("opening the request, a line, or after the verb", () => {
    for (const [text, remedy] of [
      ["kelvaprim for HOR-1234, 20 ml daily", "kelvaprim"],
      ["Zorbafen for HOR-1234: 15 ml", "zorbafen"],
      ["HOR-1234 needs a top-up\n- zorbafen\n- 15 ml", "zorbafen"],
      ["please give kelvaprim 20 ml to HOR-1234", "kelvaprim"],
    ] as const) expect(read(text).remedy_name, text).toBe(remedy);
  });
  it("two unknown words, or one in the middle of a clause, are asked for", () => {
    for (const text of ["kelvaprim for HOR-1234 pleeese, 20 ml", "HOR-1234 had the usual zorbafen dose of 15 ml"]) expect(read(text).remedy_name, text).toBeUndefined();
  });
});

// A parcel return of our own: reasons the description explains, said in words around the parcel's code.
const RETURN = {
  type: "object",
  required: ["parcel_id", "reason"],
  properties: {
    parcel_id: { type: "string", pattern: "^PKG-[0-9]{4}$" },
    reason: {
      type: "string",
      enum: ["damaged_in_transit", "misdelivered", "customer_refused"],
      description: "damaged_in_transit = box crushed or broken on the way; misdelivered = courier left it at the wrong address; customer_refused = recipient would not accept it.",
    },
  },
} as const;

describe("an enum value its description explains, said around another value", () => {
  const read = (text: string) => extractArguments(RETURN, [text], { now: NOW });
  it("two of the explanation's words in one clause, with a code between them", () => {
    for (const [text, reason] of [
      ["the courier left PKG-1234 at the wrong address, log a return", "misdelivered"],
      ["box for PKG-1234 came back crushed", "damaged_in_transit"],
      ["log a return: recipient PKG-1234 would not accept", "customer_refused"],
    ] as const) expect(read(text).reason, text).toBe(reason);
  });
  it("words of it in two sentences are no explanation", () => {
    expect(read("The courier was late. PKG-1234 is at the depot, wrong shelf.").reason).toBeUndefined();
  });
});

describe("a correction with a remark after it", () => {
  const read = (turns: string[]) => extractArguments(LANDSCAPING, turns, { now: NOW, correction: true });
  it("the remark past a comma is about something else; a value called wrong is set aside", () => {
    expect(read(["topsoil 12 m3 for the north lawn", "sorry, topsoil's actually 14 m3, typo in the quote. rest is fine"]).topsoil_m3).toBe(14);
    expect(read(["topsoil 12 m3 for the north lawn", "oops 14 m3 was a typo, it's 16 m3"]).topsoil_m3).toBe(16);
  });
});

const KILN_LOAD = {
  type: "object",
  required: ["kiln_id", "load_kg"],
  properties: {
    kiln_id: { type: "string", pattern: "^KLN-[0-9]{2}$" },
    load_kg: { type: "number", minimum: 1, maximum: 500, description: "Total load in kilograms." },
    fan_speed_kmh: { type: "number", minimum: 0, maximum: 120, description: "Flue fan speed in km/h." },
    chamber_celsius: { type: "number", minimum: -40, maximum: 1400, description: "Chamber temperature, Celsius." },
  },
} as const;

describe("a value in a parenthesised aside explains the one outside it", () => {
  const read = (text: string) => extractArguments(KILN_LOAD, [text], { now: NOW });
  const totals = [[60, "3 × 20 kg"], [90, "3 x 30kg"], [40, "two trays of 20 kg"], [45, "25 kg + 20 kg"]] as const;
  for (const [total, breakdown] of totals) {
    for (const layout of [
      (t: number, b: string) => `Load KLN-04 with ${t} kg total (${b}).`,
      (t: number, b: string) => `KLN-04: ${t} kg in all (that's ${b}), fire it tonight`,
      (t: number, b: string) => `(${b}) ${t} kg going into KLN-04`,
    ]) {
      const text = layout(total, breakdown);
      it(text, () => expect(read(text).load_kg).toBe(total));
    }
  }
  it("a value only inside an aside is still the argument", () => {
    expect(read("Load KLN-04 please (35 kg)").load_kg).toBe(35);
  });
});

describe("speeds said as a length an hour, a sign said in words", () => {
  const read = (text: string) => extractArguments(KILN_LOAD, [text], { now: NOW });
  for (const [said, kmh] of [["seventy k's an hour", 70], ["70 km an hour", 70], ["forty klicks per hour", 40], ["25 kilometres an hour", 25]] as const) {
    const text = `uh KLN-07, 200 kg, flue fan at ${said}, thanks, it's the third kiln of six`;
    it(text, () => expect(read(text)).toMatchObject({ kiln_id: "KLN-07", load_kg: 200, fan_speed_kmh: kmh }));
  }
  for (const [said, celsius] of [["minus 12 °C", -12], ["negative five degrees celsius", -5], ["minus 4F", -20]] as const) {
    const text = `KLN-02 is cold-soaking at ${said}, load 80 kg`;
    it(text, () => expect(read(text).chamber_celsius).toBeCloseTo(celsius, 4));
  }
});

const CRANE_LIFT = {
  type: "object",
  required: ["crane_id", "hook_height_m"],
  properties: {
    crane_id: { type: "string", pattern: "^CR-[0-9]{3}$" },
    hook_height_m: { type: "integer", minimum: 1, maximum: 300, description: "Highest hook position, in metres." },
    over_road: { type: "boolean", default: false, description: "True when the load swings over the public road." },
    budget_usd: { type: "number", description: "Budget for the lift in US dollars." },
  },
} as const;

describe("a glued m on a length is metres; 'nothing' and 'nobody' negate a yes/no", () => {
  const read = (text: string) => extractArguments(CRANE_LIFT, [text], { now: NOW });
  for (const [said, metres] of [["120m", 120], ["45m", 45], ["210m", 210]] as const) {
    for (const layout of [(x: string) => `Lift on CR-204 tomorrow. Hook no higher than ${x}, nothing over the road.`, (x: string) => `CR-204: max hook ${x}; nobody goes over the road with it`, (x: string) => `CR-204 to ${x} please, none of it over the road`]) {
      const text = layout(said);
      const got = read(text);
      it(text, () => {
        expect(got.crane_id).toBe("CR-204");
        expect(got.hook_height_m).toBe(metres);
        expect(got.over_road).toBe(false);
      });
    }
  }
  it("over the road said plainly is true, and a budget of 2m stays two million", () => {
    expect(read("CR-204 at 60m, swinging over the road").over_road).toBe(true);
    expect(read("CR-204 at 60m, budget $2m").budget_usd).toBe(2_000_000);
  });
});

const TOW_PLAN = {
  type: "object",
  required: ["tow_ref", "bay_id"],
  properties: {
    tow_ref: { type: "string", pattern: "^[A-Z0-9]{2}[0-9]{1,4}$", description: "Tow reference without spaces, e.g. TW3310 or K48120." },
    bay_id: { type: "string", pattern: "^[A-Z][0-9]{1,2}$", description: "Bay, e.g. B14 or D3." },
    tug_model: { type: "string", enum: ["T320", "T550", "M90"], description: "Tug model." },
    grade: { type: "string", enum: ["jet_a1", "jet_b2", "avgas"], description: "Fuel grade on board." },
  },
} as const;

describe("codes written in groups, listed values and glued grades", () => {
  const read = (text: string) => extractArguments(TOW_PLAN, [text], { now: NOW });
  it("a code in groups is the example's shape even when a group fits another parameter alone", () => {
    for (const text of ["Plan a bay for K4 8120 pls, T320, ready 14:05", "K4 8120 needs a bay, tug T320", "bay for K4 8120 please (T320)"]) {
      expect(read(text), text).toMatchObject({ tow_ref: "K48120", tug_model: "T320" });
      expect(read(text).bay_id, text).toBeUndefined();
    }
  });
  it("a value another parameter lists is that parameter's, not a code of this one", () => {
    expect(read("tow TW3310 with the T550 to B14")).toEqual({ tow_ref: "TW3310", tug_model: "T550", bay_id: "B14" });
  });
  it("letters and digits glued in a value may be written apart or hyphenated", () => {
    for (const [said, grade] of [["Jet A-1", "jet_a1"], ["jet a1", "jet_a1"], ["JET B-2", "jet_b2"], ["Jet-A1", "jet_a1"]] as const) {
      expect(read(`TW3310 to B14, ${said} on board`).grade, said).toBe(grade);
    }
  });
});

const FLOAT = {
  type: "object",
  required: ["holder_email", "amount_eur", "team"],
  properties: {
    holder_email: { type: "string", format: "email" },
    amount_eur: { type: "number", minimum: 1, description: "Float in euros." },
    team: { type: "string", enum: ["kitchen", "bar", "floor", "office"] },
  },
} as const;

describe("a message that amends itself", () => {
  const read = (text: string) => extractArguments(FLOAT, [text], { now: NOW });
  for (const [first, second, opener] of [
    ["€300", "€250", "Actually, make it"],
    ["€300", "€250", "Sorry, make it"],
    ["300 euros", "250 euros", "Scratch that,"],
    ["€300", "€250", "On second thought"],
    ["€300", "€250", "No wait,"],
  ] as const) {
    const text = `Float for the bar please: ${first} to ana.ruiz@bistro.test for the weekend. ${opener} ${second}, the rest can wait.`;
    it(text, () => expect(read(text)).toMatchObject({ amount_eur: 250, team: "bar", holder_email: "ana.ruiz@bistro.test" }));
  }
  it("a second amount that is no amendment leaves the first question open or keeps it", () => {
    expect(read("Float for the bar please: €300 to ana.ruiz@bistro.test for the weekend.").amount_eur).toBe(300);
  });
});

// Twelfth session: values written as ships, workshops and front desks write them. Each class is checked
// across a few layouts; a wrong reading fails as surely as a missing one.
const KILN_FIRING = {
  type: "object",
  required: ["kiln", "firing_date", "start_time"],
  properties: {
    kiln: { type: "string", enum: ["electric_small", "gas_hestia", "wood_anagama"], description: "Which kiln." },
    firing_date: { type: "string", format: "date" },
    start_time: { type: "string", pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$", description: "Start, 24-hour HH:MM." },
    duration_minutes: { type: "integer", minimum: 30, maximum: 2880, description: "Length of the firing in minutes." },
    clay_grams: { type: "number", minimum: 0, description: "Clay loaded, in grams." },
    cone_cooldown_celsius: { type: "number", minimum: -40, maximum: 40, description: "Room temperature to cool to." },
    glaze_check: { type: "boolean", description: "Whether glazes are checked first." },
    distance_to_studio_km: { type: "number", minimum: 0, description: "How far the kiln is from the studio." },
    catalogue_code: { type: "string", pattern: "^97[89][0-9]{10}$", description: "Thirteen-digit code." },
  },
} as const;

describe("twelfth session: values of workshops and ships", () => {
  const read = (...turns: string[]) => extractArguments(KILN_FIRING, turns, { now: NOW });
  it("a range of clock times is a start and, with no end parameter, a length", () => {
    for (const range of ["7 till 10 pm", "from 19:00 to 22:00", "19:00-22:00", "7pm to 10pm"]) {
      expect(read(`Fire the electric_small on 3 March 2027, ${range}.`), range).toMatchObject({ start_time: "19:00", duration_minutes: 180, firing_date: "2027-03-03" });
    }
  });
  it("a four-digit clock time with its mark", () => {
    for (const [written, clock] of [["0715Z", "07:15"], ["1645 hrs", "16:45"], ["2215 UTC", "22:15"]] as const) {
      expect(read(`Kiln: electric_small\nDate: 3 March 2027\nStart: ${written}`).start_time, written).toBe(clock);
    }
    // A bare four-digit number is no time.
    expect(read("Fire the electric_small on 3 March 2027, load 1200 grams").start_time).toBeUndefined();
  });
  it("a length of time after a word of approximation is a length, not a date", () => {
    for (const about of ["about 9 hours", "roughly 9 hours", "around 9 hours"]) {
      expect(read(`electric_small on 3 March 2027 at 08:00, ${about}`).duration_minutes, about).toBe(540);
    }
  });
  it("a fraction of one unit", () => {
    for (const [written, grams] of [["three quarters of a kilogram", 750], ["half a kilo", 500], ["a quarter of a kilo", 250]] as const) {
      expect(read(`electric_small on 3 March 2027 at 08:00 with ${written} of clay`).clay_grams, written).toBe(grams);
    }
  });
  it("a form's label and yes or no for a yes/no parameter named by the label", () => {
    expect(read("Kiln: electric_small\nDate: 3 March 2027\nStart: 08:00\nGlaze: yes").glaze_check).toBe(true);
    expect(read("Kiln: electric_small\nDate: 3 March 2027\nStart: 08:00\nglaze - no").glaze_check).toBe(false);
  });
  it("a value of several words named by one of them written as a name", () => {
    expect(read("Book the Hestia on 3 March 2027 at 08:00").kiln).toBe("gas_hestia");
    expect(read("Book the big Anagama kiln on 3 March 2027 at 08:00").kiln).toBe("wood_anagama");
  });
  it("a value below zero goes to the one parameter that can hold it", () => {
    expect(read("electric_small on 3 March 2027 at 08:00, cool it to minus five").cone_cooldown_celsius).toBe(-5);
  });
  it("nm for a distance measured in km is the nautical mile", () => {
    expect(read("electric_small on 3 March 2027 at 08:00; we are 10 nm from the studio").distance_to_studio_km).toBeCloseTo(18.52, 6);
  });
  it("a code written in five groups", () => {
    expect(read("electric_small on 3 March 2027 at 08:00, code 978-1-86197-876-9").catalogue_code).toBe("9781861978769");
  });
});

// The thirteenth session: codes whose shape only the description's examples give ("Hull id, e.g. HL-0042"),
// codes of digits, letters and digits, identifiers a description names ("Badge number of …"), street
// addresses, and terms of art that name an enum value. Every case is a meaning of our own rendered in
// several surface forms (word orders, "key: value" lines, lower case, inside a sentence, the answer to a
// question in a second turn); the expected arguments come from the meaning, and each class has a check that
// fails when the class is read wrong (a value given to the wrong parameter, a code read as its first number).
const HAUL_OUT = {
  type: "object",
  required: ["hull_id", "haul_date"],
  properties: {
    hull_id: { type: "string", description: "Hull id, e.g. HL-0042." },
    supplier_code: { type: "string", description: "Supplier code, e.g. SUP-631." },
    job_number: { type: "string", description: "Job number, e.g. JB-2026-00417." },
    timber: { type: "string", description: "Timber for the repair, e.g. oak, ash." },
    haul_date: { type: "string", format: "date", description: "Day the boat comes out of the water." },
  },
} as const;

const REPAIR_INVOICE = {
  type: "object",
  required: ["account", "invoice", "amount_eur"],
  properties: {
    account: { type: "string", description: "Customer account, e.g. ACC-4105." },
    invoice: { type: "string", description: "Invoice to settle, e.g. INV-50293." },
    amount_eur: { type: "number", description: "Amount in EUR." },
  },
} as const;

const HIVE_CHECK = {
  type: "object",
  required: ["hive_id", "inspection_date"],
  properties: {
    hive_id: { type: "string", description: "Hive id, e.g. KB-410." },
    inspection_date: { type: "string", format: "date" },
    frames: { type: "integer", minimum: 1, maximum: 40, description: "Frames to check." },
  },
} as const;

const RIG_HIRE = {
  type: "object",
  required: ["van_plate", "fixtures"],
  properties: {
    van_plate: { type: "string", description: "Plate number of the van." },
    dimmer_serial: { type: "string", description: "Serial number of the dimmer rack." },
    fixtures: { type: "integer", minimum: 1, maximum: 200, description: "Fixtures to load." },
    crew_badge: { type: "string", description: "Badge number of the rigger in charge." },
    desk_id: { type: "string", description: "Id of the lighting desk." },
  },
} as const;

const RIG_DELIVERY = {
  type: "object",
  required: ["vehicle", "fixtures"],
  properties: {
    vehicle: { type: "string", enum: ["flatbed_truck", "luton_van", "box_van"], description: "Vehicle to send." },
    fixtures: { type: "integer", minimum: 1, maximum: 200, description: "Fixtures to load." },
    delivery_address: { type: "string", description: "Where the rig goes." },
  },
} as const;

const COLONY_SETUP = {
  type: "object",
  required: ["hive_type", "colonies"],
  properties: {
    hive_type: { type: "string", enum: ["langstroth_hive", "warre_hive", "topbar_hive"], description: "Kind of hive to set up." },
    colonies: { type: "integer", minimum: 1, maximum: 50, description: "Colonies to house." },
    street_address: { type: "string", description: "Apiary to deliver to." },
  },
} as const;

const SWARM_CALL = {
  type: "object",
  required: ["address"],
  properties: {
    address: { type: "string", description: "Where the swarm hangs." },
    seen_date: { type: "string", format: "date" },
  },
} as const;

describe("thirteenth session: codes by their documented examples, addresses and terms of art", () => {
  const read = (schema: JsonSchema, ...turns: string[]) => extractArguments(schema, turns, { now: NOW });
  // The assistant's question, recorded as the parameters it asks for; the user's reply is the second turn.
  const answer = (schema: JsonSchema, first: string, question: string, reply: string) => extractArguments(schema, [first, reply], { now: NOW, asked: askedParameters(schema, question) });
  const codesOf = (args: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, args[k]]));

  describe("a code shaped like the description's examples", () => {
    const HAUL_KEYS = ["hull_id", "supplier_code", "job_number", "haul_date"] as const;
    interface Haul {
      hull: string;
      supplier: string;
      job: string;
    }
    // Each code after the word that names its parameter: the example's own prefix with other digits, or
    // another prefix of the same shape.
    const CUED: Record<string, (x: Haul) => string[] | { first: string; question: string; reply: string }> = {
      sentence: (x) => [`Haul out hull ${x.hull} on 3 March 2027 with timber from supplier ${x.supplier}, job ${x.job}.`],
      labels: (x) => [`hull id: ${x.hull}\nsupplier: ${x.supplier}\njob: ${x.job}\ndate: 3 March 2027`],
      lowerCase: (x) => [`hull ${x.hull}, supplier ${x.supplier}, job number ${x.job}, 3 march 2027`.toLowerCase()],
      jobFirst: (x) => [`Can you get job ${x.job} going? It's hull ${x.hull}, wood from supplier ${x.supplier}, out on 3 March 2027.`],
      answered: (x) => ({ first: `Haul out on 3 March 2027, supplier ${x.supplier}, job ${x.job}`, question: "Which hull?", reply: x.hull }),
    };
    const HAULS: Haul[] = [
      { hull: "HL-0977", supplier: "SUP-204", job: "JB-2027-00031" },
      { hull: "HL-977", supplier: "SUP-2040", job: "JB-2027-0031" },
      { hull: "KT-5512", supplier: "BRN-77", job: "RQ-2027-00031" },
    ];

    it("each code goes to the parameter its word names, whatever its prefix, in every form", () => {
      const wrong: string[] = [];
      for (const x of HAULS) {
        for (const [form, write] of Object.entries(CUED)) {
          const w = write(x);
          const got = Array.isArray(w) ? read(HAUL_OUT, ...w) : answer(HAUL_OUT, w.first, w.question, w.reply);
          const want = { hull_id: x.hull, supplier_code: x.supplier, job_number: x.job, haul_date: "2027-03-03" };
          if (JSON.stringify(codesOf(got, HAUL_KEYS)) !== JSON.stringify(want)) wrong.push(`${form}/${x.hull}: ${JSON.stringify(codesOf(got, HAUL_KEYS))}`);
        }
      }
      expect(wrong).toEqual([]);
    });

    it("without a word before them, codes with the examples' prefixes go to their own parameters", () => {
      for (const text of [
        "Haul out HL-0977 on 3 March 2027, timber from SUP-204, job JB-2027-00031.",
        "JB-2027-00031: haul out HL-0977 on 3 March 2027, wood from SUP-204",
        "haul out hl-0977 3 march 2027 sup-204 jb-2027-00031",
      ]) {
        expect(codesOf(read(HAUL_OUT, text), HAUL_KEYS), text).toEqual({ hull_id: "HL-0977", supplier_code: "SUP-204", job_number: "JB-2027-00031", haul_date: "2027-03-03" });
      }
    });

    it("examples that are words give no pattern: a code is not taken for that parameter, a word of its kind is", () => {
      for (const text of ["Haul out HL-0977 on 3 March 2027, timber XQ-55", "Haul out HL-0977 on 3 March 2027, timber: XQ-55", "timber XQ-55 for HL-0977, 3 March 2027"]) {
        const got = read(HAUL_OUT, text);
        expect(got.timber, text).toBeUndefined();
        expect(got.hull_id, text).toBe("HL-0977");
      }
      expect(read(HAUL_OUT, "Haul out HL-0977 on 3 March 2027 in oak").timber).toBe("oak");
      expect(read(HAUL_OUT, "Haul out HL-0977 on 3 March 2027, timber: ash").timber).toBe("ash");
    });

    it("one code parameter takes a code of its example's shape with another prefix, and leaves counts alone", () => {
      for (const [text, code] of [
        ["Inspect TR-77 on 3 March 2027, 12 frames", "TR-77"],
        ["hive: tr-77\ndate: 3 March 2027\nframes: 12", "TR-77"],
        ["please inspect hive WB-815 on 3 March 2027, 12 frames", "WB-815"],
        ["on 3 March 2027 check 12 frames of hive TR-77", "TR-77"],
        ["inspect hive tr-77 3 march 2027 12 frames", "TR-77"],
      ] as const) {
        expect(read(HIVE_CHECK, text), text).toEqual({ hive_id: code, inspection_date: "2027-03-03", frames: 12 });
      }
      expect(answer(HIVE_CHECK, "Inspect 12 frames on 3 March 2027", "Which hive?", "TR-77")).toEqual({ hive_id: "TR-77", inspection_date: "2027-03-03", frames: 12 });
    });

    it("two code parameters each take their own code, by the word before it or by the example's prefix", () => {
      const want = { account: "ACC-3318", invoice: "INV-50294", amount_eur: 450 };
      for (const text of [
        "Settle INV-50294 for ACC-3318, 450 EUR",
        "for ACC-3318, INV-50294, €450",
        "account ACC-3318 invoice INV-50294 450 euros",
        "invoice: inv-50294\naccount: acc-3318\namount: 450 EUR",
        "pay INV-50294 from ACC-3318 450 eur",
      ]) {
        expect(read(REPAIR_INVOICE, text), text).toEqual(want);
      }
      expect(answer(REPAIR_INVOICE, "Settle INV-50294, 450 EUR", "Which account should be charged?", "acc-3318")).toEqual(want);
      expect(answer(REPAIR_INVOICE, "Settle 450 EUR", "Which account and invoice?", "ACC-3318, INV-50294")).toEqual(want);
      // Another prefix for each: the word before it decides, in either order.
      expect(read(REPAIR_INVOICE, "account BX-3310, invoice QR-50021, €450")).toEqual({ account: "BX-3310", invoice: "QR-50021", amount_eur: 450 });
      expect(read(REPAIR_INVOICE, "invoice BX-3310, account QR-50021, €450")).toEqual({ account: "QR-50021", invoice: "BX-3310", amount_eur: 450 });
    });
  });

  describe("a code of digits, letters and digits is one value", () => {
    // A plate's letters may be written in either case: the value is compared without it.
    const upper = (v: unknown) => (typeof v === "string" ? v.toUpperCase() : v);
    it("for a plate and a serial, never the number it starts with", () => {
      for (const text of [
        "van 6KWP318, 24 fixtures, dimmer 12AB345",
        "24 fixtures, van plate 6KWP318, dimmer serial 12AB345",
        "plate: 6kwp318\ndimmer serial: 12ab345\nfixtures: 24",
        "dimmer 12AB345 goes in van 6KWP318 with 24 fixtures",
        "van 6KWP318 with 24 fixtures and the 12AB345 dimmer",
      ]) {
        const got = read(RIG_HIRE, text);
        expect([upper(got.van_plate), upper(got.dimmer_serial), got.fixtures], text).toEqual(["6KWP318", "12AB345", 24]);
      }
      const asked = answer(RIG_HIRE, "Load 24 fixtures, dimmer 12AB345", "Which van? Give its plate number.", "6KWP318");
      expect([asked.van_plate, asked.dimmer_serial, asked.fixtures]).toEqual(["6KWP318", "12AB345", 24]);
    });
    it("with no count in the turn, the code's digits are no count", () => {
      for (const text of ["Put dimmer 12AB345 in van 6KWP318", "the van is 6KWP318", "put them in van 6kwp318", "plate number 6KWP318 please"]) {
        const got = read(RIG_HIRE, text);
        expect(upper(got.van_plate), text).toBe("6KWP318");
        expect(got.fixtures, text).toBeUndefined();
      }
    });
  });

  describe("a parameter its description calls a number or an id of something", () => {
    it("is a string identifier: 'badge 5186' is \"5186\", not a count or another identifier", () => {
      for (const text of [
        "24 fixtures on van 6KWP318, rigger badge 5186",
        "badge: 5186\nplate: 6KWP318\nfixtures: 24",
        "van 6KWP318 with 24 fixtures, rigger in charge is badge 5186",
        "send van 6KWP318; the rigger in charge has badge 5186, 24 fixtures",
        "Badge 5186 is in charge, van 6KWP318, 24 fixtures",
        "crew badge 5186, 24 fixtures, van 6KWP318",
      ]) {
        const got = read(RIG_HIRE, text);
        expect([got.crew_badge, got.fixtures, got.van_plate, got.desk_id, got.dimmer_serial], text).toEqual(["5186", 24, "6KWP318", undefined, undefined]);
      }
      expect(answer(RIG_HIRE, "Load 24 fixtures into van 6KWP318", "Which rigger is in charge? Their badge number?", "5186").crew_badge).toBe("5186");
    });
    it("serial numbers and ids of things each to their own", () => {
      expect(read(RIG_HIRE, "load van 6KWP318, desk 4471, badge 5186, 24 fixtures")).toEqual({ van_plate: "6KWP318", desk_id: "4471", crew_badge: "5186", fixtures: 24 });
      for (const text of ["dimmer serial: 55120", "serial 55120 on the dimmer, 24 fixtures"]) {
        const got = read(RIG_HIRE, text);
        expect([got.dimmer_serial, got.desk_id, got.crew_badge], text).toEqual(["55120", undefined, undefined]);
      }
      for (const text of ["desk id: 4471", "lighting desk 4471", "desk 4471, 24 fixtures, van 6KWP318"]) {
        const got = read(RIG_HIRE, text);
        expect([got.desk_id, got.dimmer_serial, got.crew_badge], text).toEqual(["4471", undefined, undefined]);
      }
    });
  });

  describe("a street address", () => {
    it("for an address parameter, inside a sentence, after a label that names a place, or as the answer", () => {
      for (const [text, place, day] of [
        ["Swarm hanging in a tree outside 58 Alder Grove since 3 March 2027", "58 Alder Grove", "2027-03-03"],
        ["our van was parked outside 58 Alder Grove yesterday and a swarm landed on it", "58 Alder Grove", "2026-11-23"],
        ["swarm spotted at 31 Tanner St. on 3 March 2027", "31 Tanner St", "2027-03-03"],
        ["location: 31 Tanner St, by the gate", "31 Tanner St", undefined],
        ["address: 4 Harbour Road\nseen: 3 March 2027", "4 Harbour Road", "2027-03-03"],
        ["4 Harbour Road has a swarm in the hedge", "4 Harbour Road", undefined],
      ] as const) {
        expect(read(SWARM_CALL, text), text).toEqual(day ? { address: place, seen_date: day } : { address: place });
      }
      for (const [reply, place] of [["31 Tanner St.", "31 Tanner St"], ["58 Alder Grove", "58 Alder Grove"], ["it's 4 Harbour Road", "4 Harbour Road"]] as const) {
        expect(answer(SWARM_CALL, "a swarm on 3 March 2027", "What is the address?", reply), reply).toEqual({ address: place, seen_date: "2027-03-03" });
      }
    });
    it("for a delivery or street address beside counts: the house number is no count", () => {
      for (const [text, place] of [
        ["24 fixtures on a flatbed to 58 Alder Grove", "58 Alder Grove"],
        ["deliver to 4 Harbour Road: 24 fixtures on the flatbed", "4 Harbour Road"],
        ["24 fixtures on the flatbed to 31 Tanner St.", "31 Tanner St"],
        ["location: 31 Tanner St, by the gate\nflatbed, 24 fixtures", "31 Tanner St"],
      ] as const) {
        expect(read(RIG_DELIVERY, text), text).toEqual({ vehicle: "flatbed_truck", fixtures: 24, delivery_address: place });
      }
      expect(read(COLONY_SETUP, "3 colonies, langstroth, deliver to 4 Harbour Road")).toEqual({ colonies: 3, hive_type: "langstroth_hive", street_address: "4 Harbour Road" });
      expect(read(COLONY_SETUP, "location: 31 Tanner St, by the gate\n3 colonies, langstroth")).toEqual({ colonies: 3, hive_type: "langstroth_hive", street_address: "31 Tanner St" });
    });
  });

  describe("an enum value of two words named by a term of art", () => {
    it("a first word the lexicon does not know names its value", () => {
      for (const [text, kind] of [
        ["set up 3 langstroth hives", "langstroth_hive"],
        ["3 colonies in Langstroth hives", "langstroth_hive"],
        ["hive type: langstroth\ncolonies: 3", "langstroth_hive"],
        ["a Warre for 3 colonies", "warre_hive"],
        ["3 colonies, warre", "warre_hive"],
        ["topbar for 3 colonies", "topbar_hive"],
      ] as const) {
        expect(read(COLONY_SETUP, text), text).toEqual({ hive_type: kind, colonies: 3 });
      }
      expect(answer(COLONY_SETUP, "3 colonies at 58 Alder Grove", "Which kind of hive?", "warre").hive_type).toBe("warre_hive");
      // (A term of art in lower case, first or labelled, with a short head: "luton" of luton_van.)
      for (const [text, vehicle] of [["24 fixtures in the Luton", "luton_van"], ["send the luton with 24 fixtures", "luton_van"], ["Luton please, 24 fixtures", "luton_van"], ["vehicle: luton\nfixtures: 24", "luton_van"], ["send the flatbed, 24 fixtures", "flatbed_truck"], ["send the box van, 24 fixtures", "box_van"]] as const) {
        expect(read(RIG_DELIVERY, text), text).toEqual({ vehicle, fixtures: 24 });
      }
    });
    it("a common word that several values share picks none", () => {
      for (const text of ["3 colonies in new hives", "3 hives please"]) expect(read(COLONY_SETUP, text).hive_type, text).toBeUndefined();
      expect(answer(COLONY_SETUP, "3 colonies at 58 Alder Grove", "Which kind of hive?", "a hive").hive_type).toBeUndefined();
      for (const text of ["send a van with 24 fixtures", "24 fixtures, one van"]) expect(read(RIG_DELIVERY, text).vehicle, text).toBeUndefined();
    });
  });
});

// A house number is part of its address, never a count (found by the thirteenth session's test writer).
describe("thirteenth session: house numbers", () => {
  const RIG = {
    type: "object",
    required: ["vehicle", "delivery_address", "fixtures"],
    properties: {
      vehicle: { type: "string", enum: ["flatbed_truck", "luton_van", "box_van"] },
      delivery_address: { type: "string", description: "Where the rig goes" },
      fixtures: { type: "integer", minimum: 1, maximum: 200 },
    },
  } as const;
  for (const [text, address] of [
    ["send the flatbed to 58 Alder Grove", "58 Alder Grove"],
    ["send the flatbed to 4 Harbour Road", "4 Harbour Road"],
    ["deliver to 31 Tanner St. on the flatbed", "31 Tanner St"],
    ["address: 58 Alder Grove, flatbed", "58 Alder Grove"],
  ] as const) {
    it(text, () => {
      const got = extractArguments(RIG, [text], { now: NOW });
      expect(got.delivery_address).toBe(address);
      expect(got.fixtures).toBeUndefined();
    });
  }
  it("a count beside an address keeps both", () => {
    expect(extractArguments(RIG, ["flatbed with 24 fixtures to 58 Alder Grove"], { now: NOW })).toMatchObject({ fixtures: 24, delivery_address: "58 Alder Grove" });
  });
});

describe("an enum value's word that only describes another thing gives way to the one that names the value", () => {
  const LOG_JOB = {
    type: "object",
    required: ["site_id", "job"],
    properties: {
      site_id: { type: "string", pattern: "^ST-[0-9]{3}$", description: "The allotment site, e.g. ST-104." },
      job: { type: "string", enum: ["compost", "water", "prune", "fence", "survey"], description: "Kind of work logged." },
    },
  } as const;
  const cases: [text: string, job: string][] = [
    // The other value modifies a noun ("the water butt"): it names the butt, not the job.
    ["ST-104: log a prune job next to the water butt please", "prune"],
    ["Log a fence repair for ST-104, the one by the compost bins.", "fence"],
    // The other value is a thing someone has ("last month's survey"): not the job asked for.
    ["ST-104 needs pruning according to last month's survey", "prune"],
    ["Please log watering for ST-104 as per the warden's survey", "water"],
  ];
  for (const [text, job] of cases) {
    it(text, () => expect(extractArguments(LOG_JOB, [text], { now: NOW })).toMatchObject({ site_id: "ST-104", job }));
  }
  it("a value followed by its own kind's noun is still the value", () => {
    const SHIP = { type: "object", required: ["speed"], properties: { speed: { type: "string", enum: ["express", "standard"], description: "Shipping speed." } } } as const;
    expect(extractArguments(SHIP, ["send it by express shipping"], { now: NOW })).toMatchObject({ speed: "express" });
  });
});

describe("a yes/no stated before its noun, an enum of quantities, an identifier in hyphenated groups", () => {
  const LOCKER = {
    type: "object",
    required: ["member_name"],
    properties: {
      member_name: { type: "string", description: "Member's full name." },
      key_deposit_paid: { type: "boolean", description: "Whether the key deposit was taken." },
      heater_power: { type: "string", enum: ["none", "500W", "1000W", "2kW"], description: "Locker heater rating." },
      membership_number: { type: "string", maxLength: 40 },
    },
  } as const;
  const read = (text: string) => extractArguments(LOCKER, [text], { now: NOW });
  it("a negated verb before the key's noun says no; said plainly, yes", () => {
    for (const text of ["Locker for Ana Ruiz, she hasn't paid the key deposit yet", "Locker for Ana Ruiz - key deposit not paid", "Locker for Ana Ruiz, the key deposit was never paid"]) expect(read(text), text).toMatchObject({ key_deposit_paid: false });
    for (const text of ["Locker for Ana Ruiz, she has paid the key deposit", "Locker for Ana Ruiz, key deposit paid"]) expect(read(text), text).toMatchObject({ key_deposit_paid: true });
  });
  it("an enum of quantities is read from the quantity in any spelling of its unit", () => {
    for (const [text, power] of [["Locker for Ana Ruiz with a 1000 watt heater", "1000W"], ["Locker for Ana Ruiz, heater: 1 kW", "1000W"], ["Locker for Ana Ruiz, heater 2000 W", "2kW"], ["Locker for Ana Ruiz, 500 watts of heating", "500W"]] as const) {
      expect(read(text), text).toMatchObject({ heater_power: power });
    }
  });
  it("an identifier written in hyphenated groups is one identifier", () => {
    for (const [text, id] of [["Locker for Ana Ruiz, membership number 4410-2093", "4410-2093"], ["Locker for Ana Ruiz, membership 77-120-4", "77-120-4"], ["Locker for Ana Ruiz, membership 5521", "5521"]] as const) {
      expect(read(text), text).toMatchObject({ membership_number: id });
    }
  });
});

// A subtitling booking of our own: a language pair, a start and a length.
const SUBTITLE_JOB = {
  type: "object",
  required: ["film_id", "language_pair", "start_time", "duration_minutes"],
  properties: {
    film_id: { type: "string", pattern: "^FL-[0-9]{3}$", description: "Film reference, e.g. FL-204." },
    language_pair: { type: "string", pattern: "^[a-z]{2}_[a-z]{2}$", description: "Source and target language as ISO 639-1 codes, e.g. fr_en." },
    start_time: { type: "string", format: "date-time", description: "When the subtitler starts." },
    duration_minutes: { type: "integer", minimum: 15, maximum: 600, description: "Length of the session in minutes." },
    spoken_language: { type: "string", pattern: "^[a-z]{2}$", description: "Main spoken language of the film (ISO 639-1)." },
  },
} as const;

describe("languages by name for language codes, and an ISO date with a range of times after it", () => {
  const PAIRS: [string, string, string][] = [
    ["Japanese", "Korean", "ja_ko"],
    ["Italian", "Dutch", "it_nl"],
    ["Swedish", "Finnish", "sv_fi"],
    ["Turkish", "Greek", "tr_el"],
  ];
  const WRITTEN: ((a: string, b: string) => string)[] = [(a, b) => `${a}-${b}`, (a, b) => `${a} to ${b}`, (a, b) => `${a} into ${b}`, (a, b) => `${a}/${b}`, (a, b) => `${a} ${b}`];
  const RANGES: [string, string, number][] = [
    ["from 10:00 to 13:30", "10:00:00", 210],
    ["from 08:15 until 09:45", "08:15:00", 90],
    ["between 14:00 and 18:00", "14:00:00", 240],
  ];
  const cases = PAIRS.flatMap(([a, b, code], i) =>
    WRITTEN.map((w, k) => {
      const [range, start, minutes] = RANGES[(i + k) % RANGES.length]!;
      const text = [`Book ${w(a, b)} subtitling for FL-${100 + i * 10 + k} on 2027-05-0${1 + k} ${range} UTC.`, `pls get a ${w(a, b)} subtitler on FL-${100 + i * 10 + k}, 2027-05-0${1 + k} ${range} UTC`][k % 2]!;
      return { text, want: { film_id: `FL-${100 + i * 10 + k}`, language_pair: code, start_time: `2027-05-0${1 + k}T${start}Z`, duration_minutes: minutes } };
    }),
  );
  it("reads the pair in the order named, the start on the ISO date, and the range's length", () => {
    const wrong = cases.map((c) => ({ c, got: extractArguments(SUBTITLE_JOB, [c.text], { now: NOW }) })).filter(({ c, got }) => JSON.stringify({ ...got, spoken_language: undefined }) !== JSON.stringify({ ...got, ...c.want, spoken_language: undefined }));
    expect(wrong.map(({ c, got }) => `${c.text} → ${JSON.stringify(got)}`)).toEqual([]);
  });
  it("one language for a one-language code; a lower-case word is no language", () => {
    expect(extractArguments(SUBTITLE_JOB, ["Subtitle FL-300, the film is in Portuguese, on 2027-05-03 from 09:00 to 10:00 UTC"], { now: NOW })).toMatchObject({ spoken_language: "pt" });
    expect(extractArguments(SUBTITLE_JOB, ["Subtitle FL-300 and polish the timing, on 2027-05-03 from 09:00 to 10:00 UTC"], { now: NOW }).spoken_language).toBeUndefined();
  });
});

// A rehearsal-room booking of our own: a start, a length, a head count, a required title.
const REHEARSAL = {
  type: "object",
  required: ["studio", "session_date", "start_time", "duration_minutes", "players", "title"],
  properties: {
    studio: { type: "string", enum: ["red_room", "blue_room"], description: "Which studio." },
    session_date: { type: "string", format: "date", description: "Day of the session." },
    start_time: { type: "string", pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$", description: "Start, HH:MM." },
    duration_minutes: { type: "integer", minimum: 30, maximum: 600, description: "Length of the booking in minutes." },
    players: { type: "integer", minimum: 1, maximum: 40, description: "Expected number of people." },
    title: { type: "string", minLength: 3, maxLength: 120 },
  },
} as const;
// A repair ticket of our own: a reference, a required description, a cost and a day.
const REPAIR = {
  type: "object",
  required: ["unit_id", "description", "estimate_pence"],
  properties: {
    unit_id: { type: "string", pattern: "^UN-[0-9]{4}$", description: "Unit reference, e.g. UN-0042." },
    description: { type: "string", maxLength: 1000, description: "Work to be done." },
    estimate_pence: { type: "integer", minimum: 0, description: "Estimated cost in pence." },
    due_date: { type: "string", format: "date", description: "Day the work must be finished." },
  },
} as const;

describe("half the hour as Britain says it, a group counted, free text after a reference and as the request's leftover part", () => {
  const HALVES: [string, string, number][] = [
    ["from 2pm till half five", "14:00", 210],
    ["from 10am until half twelve", "10:00", 150],
    ["from 6pm to half nine", "18:00", 210],
  ];
  const GROUPS: [string, number][] = [
    ["22 of them", 22],
    ["nine of us", 9],
  ];
  it("reads the range's end and length, and the group's size", () => {
    const wrong: string[] = [];
    for (const [range, start, minutes] of HALVES) {
      for (const [group, n] of GROUPS) {
        const text = `Brass quintet practice, Red Room on 2027-03-05 ${range}, ${group}.`;
        const got = extractArguments(REHEARSAL, [text], { now: NOW });
        const want = { studio: "red_room", session_date: "2027-03-05", start_time: start, duration_minutes: minutes, players: n, title: "Brass quintet practice" };
        if (JSON.stringify(Object.fromEntries(Object.keys(want).map((k) => [k, got[k]]))) !== JSON.stringify(want)) wrong.push(`${text} → ${JSON.stringify(got)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
  it("'half' of a length is no clock time", () => {
    expect(extractArguments(REHEARSAL, ["Red Room on 2027-03-05 at 10:00 for half an hour, 4 of us, scales"], { now: NOW }).start_time).toBe("10:00");
  });
  for (const [text, description] of [
    ["Open a repair for UN-0042: replace the door seal. Quote came back at £240.00, needed by 2027-04-01.", "replace the door seal"],
    ["UN-0042: fix the dripping tap. Estimate £85.", "fix the dripping tap"],
    ["Repair on UN-0042, £1,200 estimate, new boiler flue and condensate pipe", "new boiler flue and condensate pipe"],
  ] as const) {
    it(text, () => expect(extractArguments(REPAIR, [text], { now: NOW })).toMatchObject({ unit_id: "UN-0042", description }));
  }
  it("a part that holds a code is no leftover phrase, whatever reads the code", () => {
    const DOSE = { type: "object", required: ["drug_name", "dose_mg"], properties: { drug_name: { type: "string", description: "Generic name of the drug." }, dose_mg: { type: "number" }, frequency: { type: "string", enum: ["sid", "bid", "tid"] } } } as const;
    for (const text of ["penicillin for ANM-20431, 50mg once a day", "aspirin for ANM-20431 please, 50mg once a day"]) {
      const got = extractArguments(DOSE, [text], { now: NOW });
      expect(String(got.drug_name ?? ""), text).not.toMatch(/\d|anm/i);
    }
  });
  it("a sentence of one part is a clause, not a description", () => {
    expect(extractArguments(REPAIR, ["UN-0042 had the usual squeak in the hinge"], { now: NOW }).description).toBeUndefined();
  });
});

describe("a code spelt out as a voice transcript writes it", () => {
  const KILN = {
    type: "object",
    required: ["kiln_id", "peak_celsius"],
    properties: {
      kiln_id: { type: "string", pattern: "^K[0-9]{2}$", description: "Kiln, e.g. K04." },
      batch_ref: { type: "string", pattern: "^[A-Z]{2}[0-9]{3}$", description: "Batch, e.g. GL204." },
      peak_celsius: { type: "number", minimum: 0, maximum: 1400, description: "Peak temperature in °C." },
    },
  } as const;
  const SPELLINGS: [string, string, string][] = [
    ["kay zero seven", "kilo oh seven", "K07"],
    ["kay one two", "kilo one two", "K12"],
  ];
  for (const [letters, alphabet, code] of SPELLINGS) {
    for (const said of [letters, alphabet, `${letters.split(" ")[0]}-${letters.split(" ").slice(1).join("-")}`]) {
      const text = `um fire ${said} to twelve hundred degrees celsius yeah`;
      it(text, () => expect(extractArguments(KILN, [text], { now: NOW })).toMatchObject({ kiln_id: code, peak_celsius: 1200 }));
    }
  }
  it("two letters and three digits, and words that only sound like letters", () => {
    expect(extractArguments(KILN, ["batch golf lima two zero four into kay zero one at 1000 degrees celsius"], { now: NOW })).toMatchObject({ batch_ref: "GL204", kiln_id: "K01" });
    expect(extractArguments(KILN, ["I see you at the kiln at 1000 degrees celsius"], { now: NOW }).batch_ref).toBeUndefined();
  });
});

// Sixteenth session: values of closed lists written another way, and lists of codes. Our own schemas.
describe("closed-list values cut short or made from a verb, and lists of codes", () => {
  const ISSUE = {
    type: "object",
    required: ["group", "kind", "bays"],
    properties: {
      group: { type: "string", enum: ["O_neg", "O_pos", "AB_neg", "AB_pos"], description: "Blood group." },
      kind: { type: "string", enum: ["corrective", "preventive", "inspection"], description: "Kind of work." },
      bays: { type: "array", items: { type: "string", pattern: "^BAY-[0-9]{2}$" }, description: "Bays to clear." },
    },
  } as const;
  for (const [written, group] of [["O-negative", "O_neg"], ["O negative", "O_neg"], ["AB-positive", "AB_pos"], ["AB positive", "AB_pos"], ["O neg", "O_neg"]] as const) {
    for (const [kindWritten, kind] of [["preventative", "preventive"], ["preventive", "preventive"], ["correction-free corrective", "corrective"]] as const) {
      const text = `${kindWritten} job for ${written} stock in BAY-04`;
      it(text, () => expect(extractArguments(ISSUE, [text], { now: NOW })).toMatchObject({ group, kind, bays: ["BAY-04"] }));
    }
  }
  for (const [text, bays] of [
    ["clear BAY-02, BAY-05 and BAY-11 tomorrow", ["BAY-02", "BAY-05", "BAY-11"]],
    ["bays: BAY-07 / BAY-08", ["BAY-07", "BAY-08"]],
    ["just BAY-03 please (not BAY-3X)", ["BAY-03"]],
  ] as const) {
    it(text, () => expect(extractArguments(ISSUE, [text], { now: NOW }).bays).toEqual(bays));
  }
});

// Seventeenth session: a closed list whose description defines one value in words that name another
// ("sponge = a dabbed brush by sponge"): the other value named inside that definition is part of it, neither a
// clause nor a name of its own ("by sponge" is no way of saying brush). Our own schema.
describe("a value named inside another value's definition", () => {
  const GLAZE = {
    type: "object",
    required: ["piece_id", "method"],
    properties: {
      piece_id: { type: "string", pattern: "^PC-[0-9]{3}$" },
      method: { type: "string", enum: ["dip", "brush", "spray", "sponge"], description: "How the glaze goes on; sponge = a dabbed brush by sponge." },
    },
  } as const;
  for (const [said, method] of [
    ["glaze PC-101 by sponge", "sponge"],
    ["glaze PC-101, applied by sponge please", "sponge"],
    ["glaze PC-101 with a brush", "brush"],
    ["glaze PC-101 by dipping it", "dip"],
    ["glaze PC-101 with the spray gun", "spray"],
  ] as const) {
    it(said, () => expect(extractArguments(GLAZE, [said], { now: NOW })).toMatchObject({ piece_id: "PC-101", method }));
  }
});

// Names given one after another in a definition ("x = a / b"), and a value named in another value's clause.
describe("names a definition gives one after another", () => {
  const DOSE = {
    type: "object",
    required: ["chemical", "dose_mg_per_l"],
    properties: {
      chemical: {
        type: "string",
        enum: ["calcium_hypochlorite", "ferric_chloride", "poly_aluminium_chloride", "calcium_hydroxide"],
        description: "What is dosed. calcium_hypochlorite = hypo / bleach powder; ferric_chloride and poly_aluminium_chloride (PAC) = coagulants; calcium_hydroxide = slaked lime or hydrated lime.",
      },
      dose_mg_per_l: { type: "number", description: "Dose in mg/l." },
    },
  } as const;
  for (const [said, chemical] of [
    ["dose hypo at 1.5 mg/l", "calcium_hypochlorite"],
    ["chemical: hypo\ndose: 1.5 mg/l", "calcium_hypochlorite"],
    ["chemical: bleach powder, 1.5 mg/l", "calcium_hypochlorite"],
    ["1.5 mg/l of hydrated lime", "calcium_hydroxide"],
    ["PAC at 1.5 mg/l", "poly_aluminium_chloride"],
    ["ferric chloride 1.5 mg/l", "ferric_chloride"],
  ] as const) {
    it(said, () => expect(extractArguments(DOSE, [said], { now: NOW })).toMatchObject({ chemical, dose_mg_per_l: 1.5 }));
  }
});

// Seventeenth session: degrees with no scale for a temperature, counts written "x7", ages written
// "a six-year-old", 24-hour times without a colon. Our own schema (a greenhouse's bookings).
describe("degrees, counts written with x, ages in words, times without a colon", () => {
  const BOOKING = {
    type: "object",
    required: ["house_id", "visitors"],
    properties: {
      house_id: { type: "string", pattern: "^GH-[0-9]{2}$" },
      visitors: { type: "integer", minimum: 1, maximum: 12, description: "How many people come." },
      youngest_age: { type: "integer", minimum: 0, maximum: 120, description: "The youngest visitor's age, in years." },
      air_temp_c: { type: "number", description: "Air temperature to hold, in °C." },
      arrival: { type: "string", pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$", description: "Arrival time, HH:MM." },
    },
  } as const;
  for (const [said, temp] of [
    ["GH-04 at 24 degrees", 24],
    ["hold GH-04 at 24 degrees for the orchids", 24],
    ["GH-04, 24 degrees C", 24],
    ["GH-04 to 75 degrees F", 23.888889],
  ] as const) {
    it(said, () => expect(extractArguments(BOOKING, [said], { now: NOW }).air_temp_c).toBeCloseTo(temp, 4));
  }
  for (const [said, visitors] of [
    ["GH-04 tour x6", 6],
    ["tour of GH-04 ×9 on Friday", 9],
  ] as const) {
    it(said, () => expect(extractArguments(BOOKING, [said], { now: NOW }).visitors).toBe(visitors));
  }
  it("a capital X with digits is a name, not a count", () => expect(extractArguments(BOOKING, ["GH-04 tour for the X5 club, 4 people"], { now: NOW }).visitors).toBe(4));
  for (const [said, age] of [
    ["GH-04 tour for 3, two adults and a seven-year-old", 7],
    ["GH-04 for 4; the youngest is a 10-year-old", 10],
  ] as const) {
    it(said, () => expect(extractArguments(BOOKING, [said], { now: NOW }).youngest_age).toBe(age));
  }
  it("a time without its colon, as the answer to the question for it", () => {
    expect(extractArguments(BOOKING, ["GH-04 for 4 people", "0945"], { now: NOW, asked: ["arrival"] }).arrival).toBe("09:45");
    expect(extractArguments(BOOKING, ["GH-04 for 4 people, arriving 1415"], { now: NOW }).arrival).toBe("14:15");
    // Alone and unasked, four digits are no time of day.
    expect(extractArguments(BOOKING, ["GH-04 for 4 people, ref 1415"], { now: NOW }).arrival).toBeUndefined();
  });
});

// A thing named by its kind's member ("salmon" for `fish`), by WordNet's hypernyms. Our own schema.
describe("a closed-list value named by a kind of it", () => {
  const FEED = {
    type: "object",
    required: ["pen_id", "feed", "kg"],
    properties: {
      pen_id: { type: "string", pattern: "^PEN-[0-9]{2}$" },
      feed: { type: "string", enum: ["grain", "fish", "insects", "fruit", "hay"] },
      kg: { type: "number", description: "Amount in kilograms." },
    },
  } as const;
  for (const [said, feed] of [
    ["PEN-07 had 2 kg of salmon", "fish"],
    ["PEN-07: crickets, 0.5 kg", "insects"],
    ["gave PEN-07 3 kg of apples", "fruit"],
    ["PEN-07 got 4 kg of mackerel this morning", "fish"],
  ] as const) {
    it(said, () => expect(extractArguments(FEED, [said], { now: NOW })).toMatchObject({ pen_id: "PEN-07", feed }));
  }
  it("a value named outright wins, and a word of no value's kind fills nothing", () => {
    expect(extractArguments(FEED, ["PEN-07 had 2 kg of hay, no salmon today"], { now: NOW }).feed).toBe("hay");
    expect(extractArguments(FEED, ["PEN-07 had 2 kg at the morning round"], { now: NOW }).feed).toBeUndefined();
  });
});

// A time said in a named zone becomes the instant it is, with the zone's offset that day. Our own schema.
describe("a start time said in a named zone", () => {
  const CHARTER = {
    type: "object",
    required: ["boat_id", "departs_at"],
    properties: {
      boat_id: { type: "string", pattern: "^BT-[0-9]{3}$" },
      departs_at: { type: "string", format: "date-time", description: "When the charter leaves the quay." },
      guests: { type: "integer", minimum: 1, maximum: 12 },
    },
  } as const;
  const meanings: { day: string; clock: string; zone: string; instant: string }[] = [
    { day: "2027-05-20", clock: "14:00", zone: "CET", instant: "2027-05-20T12:00:00Z" },
    { day: "2027-12-02", clock: "14:00", zone: "CET", instant: "2027-12-02T13:00:00Z" },
    { day: "2027-05-20", clock: "08:15", zone: "Eastern", instant: "2027-05-20T12:15:00Z" },
    { day: "2027-05-20", clock: "18:30", zone: "UTC", instant: "2027-05-20T18:30:00Z" },
    { day: "2027-05-20", clock: "09:00", zone: "Lisbon time", instant: "2027-05-20T08:00:00Z" },
  ];
  const forms = [
    (m: (typeof meanings)[number]) => `BT-214 for 6 guests, leaving ${m.day} at ${m.clock} ${m.zone}`,
    (m: (typeof meanings)[number]) => `Charter\nBoat: BT-214\nDeparture: ${m.day} ${m.clock} (${m.zone})\nGuests: 6`,
  ];
  for (const m of meanings) {
    for (const form of forms) {
      const said = form(m);
      it(said.replace(/\n/g, " | "), () => {
        const args = extractArguments(CHARTER, [said], { now: NOW });
        expect(args.boat_id).toBe("BT-214");
        expect(Date.parse(String(args.departs_at))).toBe(Date.parse(m.instant));
      });
    }
  }
  it("a count of a dozen", () => {
    expect(extractArguments(CHARTER, ["BT-214 with half a dozen guests on 2027-05-20 at 10:00"], { now: NOW }).guests).toBe(6);
  });
});

// A share of a whole said as a fraction in words. Our own schema: a percent parameter and a 0–1 one.
describe("a fraction in words before what it is a share of", () => {
  const FILL = {
    type: "object",
    required: ["tank_id"],
    properties: {
      tank_id: { type: "string", pattern: "^TK-[0-9]{2}$" },
      fill_percent: { type: "integer", minimum: 0, maximum: 100, description: "Target fill level in percent of the tank's volume." },
      start_time: { type: "string", format: "date-time" },
    },
  } as const;
  const BLEND = {
    type: "object",
    required: ["vat_id"],
    properties: { vat_id: { type: "string", pattern: "^VAT-[0-9]$" }, malt_fraction: { type: "number", minimum: 0, maximum: 1, description: "Share of malt in the grist (0–1)." } },
  } as const;
  const shares: [written: string, percent: number][] = [["half", 50], ["three-quarter", 75], ["three quarters", 75], ["two thirds", 66.67], ["a quarter", 25], ["one-third", 33.33]];
  for (const [written, percent] of shares) {
    it(`TK-04 to ${written} capacity`, () => {
      expect(extractArguments(FILL, [`Fill TK-04 to ${written} capacity`], { now: NOW }).fill_percent).toBeCloseTo(percent, 0);
      expect(extractArguments(BLEND, [`VAT-3 with ${written} malt`], { now: NOW }).malt_fraction).toBeCloseTo(percent / 100, 2);
    });
  }
  it("a fraction of an hour, a clock time or a number is no share", () => {
    for (const said of ["Fill TK-04 in half an hour", "Fill TK-04 at half past nine on 2027-05-20", "Fill TK-04, three and a half hours after the flush", "Fill TK-04 with half of the reserve"]) {
      expect(extractArguments(FILL, [said], { now: NOW }).fill_percent, said).toBeUndefined();
    }
  });
});

// A short value of a closed list (an initialism, a short noun) and the words of a request. Our own schema.
describe("a short value is not named by a shorter word it could be the plural of", () => {
  const WINDOW = {
    type: "object",
    required: ["plant", "minutes"],
    properties: {
      plant: { type: "string", enum: ["ups", "bms", "hvac", "van", "bus"] },
      minutes: { type: "integer", minimum: 5, maximum: 600 },
    },
  } as const;
  for (const [said, plant] of [
    ["BMS patch, 60 mins, the lights stay up throughout", "bms"],
    ["UPS battery swap, 45 mins", "ups"],
    ["HVAC filter change for 30 mins, fans keep running, nothing goes up or down", "hvac"],
    ["service the vans, 90 mins", "van"],
    ["bus wash, 20 mins", "bus"],
  ] as const) {
    it(said, () => expect(extractArguments(WINDOW, [said], { now: NOW }).plant).toBe(plant));
  }
  it("a shorter word alone names nothing", () => {
    expect(extractArguments(WINDOW, ["60 mins, keep everything up"], { now: NOW }).plant).toBeUndefined();
  });
});

// A code of fixed letters and digits given as the noun that names it and a number. Our own schema.
describe("a number after the noun that names a code parameter", () => {
  const SUPPLY = {
    type: "object",
    required: ["depot_id", "crates"],
    properties: {
      depot_id: { type: "string", pattern: "^DP-[0-9]{3}$", description: "Receiving depot." },
      bay: { type: "string", pattern: "^BAY[0-9]+$" },
      crates: { type: "integer", minimum: 1, maximum: 200 },
      cost_pence: { type: "integer", minimum: 1 },
    },
  } as const;
  for (const [said, depot, bay] of [
    ["20 crates to depot 7", "DP-007", undefined],
    ["Depot 42, bay 3: 20 crates", "DP-042", "BAY3"],
    ["send 20 crates to Depot 118 (bay 12)", "DP-118", "BAY12"],
    ["20 crates for DP-009", "DP-009", undefined],
  ] as const) {
    it(said, () => {
      const args = extractArguments(SUPPLY, [said], { now: NOW });
      expect(args).toMatchObject({ depot_id: depot, crates: 20 });
      expect(args.bay).toBe(bay);
      expect(args.cost_pence).toBeUndefined();
    });
  }
  it("a number no noun of the parameter names is no code", () => {
    expect(extractArguments(SUPPLY, ["20 crates, 7 of them fragile"], { now: NOW }).depot_id).toBeUndefined();
  });
});

// How fast a temperature moves, in the words people use. Our own schema (a rate in °C per hour).
describe("a change of temperature over time", () => {
  const KILN = {
    type: "object",
    required: ["kiln_id", "target_temp_c"],
    properties: {
      kiln_id: { type: "string", pattern: "^KN-[0-9]{2}$" },
      target_temp_c: { type: "number", minimum: 20, maximum: 1300 },
      ramp_c_per_hour: { type: "number", minimum: 1, maximum: 500, description: "Heating speed of the kiln (°C each hour)." },
    },
  } as const;
  for (const [said, ramp] of [
    ["KN-02 to 950 °C, ramp 120 degrees an hour", 120],
    ["KN-02 up to 950 °C at 2 degrees a minute", 120],
    ["take KN-02 to 950 °C, climbing 10 degrees every 5 minutes", 120],
    ["KN-02: 950 °C target, ramp 150 °C per hour", 150],
    ["KN-02: 950 °C target, ramp 180 °F an hour", 100],
  ] as const) {
    it(said, () => expect(extractArguments(KILN, [said], { now: NOW })).toMatchObject({ kiln_id: "KN-02", target_temp_c: 950, ramp_c_per_hour: ramp }));
  }
});

// Nineteenth session. Our own schema: a telescope queue (instrument names whose distinctive word is a term
// of art, a date of the night, signed coordinates) and a shutter with a wind limit in m/s.
describe("nineteenth session: a night's date, a term of art of a value, coordinates after their initials", () => {
  const QUEUE = {
    type: "object",
    required: ["camera", "night_of", "dec_deg"],
    properties: {
      camera: { type: "string", enum: ["spectrograph_coude", "imager_broadband", "polarimeter"], description: "Instrument." },
      night_of: { type: "string", format: "date", description: "Date the night starts." },
      dec_deg: { type: "number", minimum: -90, maximum: 90, description: "Declination in degrees." },
      exposures: { type: "integer", minimum: 1, maximum: 50 },
    },
  } as const;
  for (const [said, camera, night, decl] of [
    ["put it on the coude for the night of 14/06/2027, Dec +22.4410, 3 exposures", "spectrograph_coude", "2027-06-14", 22.441],
    ["coude spectrograph, night of 14 June 2027, dec -5.2500", "spectrograph_coude", "2027-06-14", -5.25],
    ["on the broadband imager, the night of 2027-06-14, declination 41.2691", "imager_broadband", "2027-06-14", 41.2691],
  ] as const) {
    it(said, () => expect(extractArguments(QUEUE, [said], { now: NOW })).toMatchObject({ camera, night_of: night, dec_deg: decl }));
  }
  it("a month's name before a number with decimals is no date", () => {
    expect(extractArguments(QUEUE, ["Dec 12.3911 on the coude"], { now: NOW }).night_of).toBeUndefined();
  });
});

describe("nineteenth session: a speed's unit spelt out letter by letter", () => {
  const SHUTTER = {
    type: "object",
    required: ["state"],
    properties: { state: { type: "string", enum: ["open", "closed"] }, wind_ms: { type: "number", description: "Wind speed in metres per second." } },
  } as const;
  for (const [said, wind] of [["open it, wind thirty-six k-m-h", 10], ["open the shutter, 72 k.m.h. at the mast", 20], ["open up, wind eighteen k-p-h", 5]] as const) {
    it(said, () => expect(extractArguments(SHUTTER, [said], { now: NOW })).toMatchObject({ state: "open", wind_ms: wind }));
  }
});

describe("twentieth session: money grouped by spaces, fractions without their zero, a shared currency sign, minor units, pounds of weight, initials of a value", () => {
  const REFUND = {
    type: "object",
    required: ["amount_minor", "currency"],
    properties: {
      amount_minor: { type: "integer", minimum: 1, description: "Amount in minor units of the currency (öre for SEK, cents for EUR)." },
      currency: { type: "string", enum: ["SEK", "EUR", "GBP"], description: "ISO 4217 code." },
    },
  } as const;
  // Meaning: 2,450.75 of the one crown the tool takes, in hundredths.
  for (const said of ["refund kr 2 450,75 to the card", "give back 2 450,75 kr", "refund SEK 2 450,75", "refund kr 2,450.75"]) {
    it(said, () => expect(extractArguments(REFUND, [said], { now: NOW })).toMatchObject({ amount_minor: 245075, currency: "SEK" }));
  }
  it("a crown's sign is asked for where the tool takes more than one crown", () => {
    const NORDIC = { ...REFUND, properties: { ...REFUND.properties, amount_minor: { type: "integer", description: "Amount in minor units." }, currency: { type: "string", enum: ["SEK", "NOK", "DKK"] } } };
    expect(extractArguments(NORDIC, ["refund kr 2 450,75"], { now: NOW }).currency).toBeUndefined();
  });
  it("numbers apart from money stay apart", () => {
    const DRUMS = { type: "object", properties: { drums: { type: "integer" }, drum_litres: { type: "number" } } } as const;
    expect(extractArguments(DRUMS, ["order 2 200-litre drums"], { now: NOW })).toMatchObject({ drums: 2, drum_litres: 200 });
  });
  const QC = { type: "object", required: ["lot_id"], properties: { lot_id: { type: "string", pattern: "^LT-[0-9]{3}$" }, water_activity: { type: "number", minimum: 0, maximum: 1, description: "Water activity, 0 to 1." } } } as const;
  for (const said of ["LT-204 water activity .61", "LT-204, aw .61 after drying", "water activity (.61) on LT-204"]) {
    it(said, () => expect(extractArguments(QC, [said], { now: NOW })).toMatchObject({ lot_id: "LT-204", water_activity: 0.61 }));
  }
  const ORDER = { type: "object", required: ["quantity_lb", "blend"], properties: { quantity_lb: { type: "number", description: "Weight ordered, in pounds." }, blend: { type: "string", enum: ["house", "decaf"] } } } as const;
  // Meaning: a weight in pounds where the tool takes one; money in pounds where it takes money.
  for (const said of ["ninety-five pounds of the house blend", "95 pounds of the house blend please"]) {
    it(said, () => expect(extractArguments(ORDER, [said], { now: NOW }).quantity_lb).toBe(95));
  }
  it("pounds of something are its weight beside a price in pounds too", () => {
    const BOTH = { type: "object", required: ["quantity_lb"], properties: { quantity_lb: { type: "number" }, price_gbp: { type: "number" } } } as const;
    expect(extractArguments(BOTH, ["95 pounds of the decaf please"], { now: NOW })).toMatchObject({ quantity_lb: 95 });
  });
  it("pounds beside a price stay money", () => {
    const PRICE = { type: "object", required: ["price_gbp"], properties: { price_gbp: { type: "number" } } } as const;
    expect(extractArguments(PRICE, ["set it at forty pounds"], { now: NOW }).price_gbp).toBe(40);
  });
  const FUEL = { type: "object", required: ["fuel_grade"], properties: { fuel_grade: { type: "string", enum: ["heavy_fuel_oil", "very_low_sulphur_fuel_oil", "liquefied_natural_gas"] }, tonnes: { type: "number" } } } as const;
  for (const [said, grade] of [["60 t of HFO", "heavy_fuel_oil"], ["LNG, forty tonnes", "liquefied_natural_gas"], ["top up with VLSFO", "very_low_sulphur_fuel_oil"]] as const) {
    it(said, () => expect(extractArguments(FUEL, [said], { now: NOW }).fuel_grade).toBe(grade));
  }
  it("initials written in lower case are a word", () => expect(extractArguments(FUEL, ["the hfo tank is low"], { now: NOW }).fuel_grade).toBeUndefined());
});

describe("twentieth session: a reply that other values took, a correction after a dash", () => {
  const TICKETS = {
    type: "object",
    required: ["passenger_name", "fare", "quantity"],
    properties: { passenger_name: { type: "string", description: "Lead passenger's name." }, fare: { type: "string", enum: ["adult", "child", "senior"] }, quantity: { type: "integer", minimum: 1, maximum: 9 } },
  } as const;
  for (const reply of ["two seniors", "3 adults", "one child"]) {
    it(`"${reply}" answers how many and which fare, not the name`, () => {
      const args = extractArguments(TICKETS, ["tickets for the 9:10 please", reply], { now: NOW, asked: ["passenger_name", "fare", "quantity"] });
      expect(args.passenger_name).toBeUndefined();
      expect(args.fare).toBeDefined();
    });
  }
  it("a bare name still answers the name", () => expect(extractArguments(TICKETS, ["tickets for the 9:10 please", "Ines Duarte"], { now: NOW, asked: ["passenger_name"] }).passenger_name).toBe("Ines Duarte"));
  const SHIFT = { type: "object", required: ["vessel", "crew_id"], properties: { vessel: { type: "string", enum: ["aurora", "borealis", "cassiopeia"] }, crew_id: { type: "string", pattern: "^CR-[0-9]{3}$" } } } as const;
  for (const fix of ["oh wait, the Aurora is in dry dock — actually make it the Borealis", "Aurora's laid up – make it Borealis instead", "hmm, aurora is off — actually borealis. rest the same"]) {
    it(fix, () => expect(extractArguments(SHIFT, ["put CR-101 on the Aurora", fix], { now: NOW, correction: true }).vessel).toBe("borealis"));
  }
});

describe("twentieth session: a value named whole inside another parameter's longer value", () => {
  const JOB = {
    type: "object",
    required: ["equipment", "task"],
    properties: { equipment: { type: "string", enum: ["boiler", "chiller", "pump"] }, task: { type: "string", enum: ["boiler_inspection", "pump_overhaul", "filter_swap"] }, hours: { type: "number" } },
  } as const;
  for (const [said, equipment, task] of [
    ["Boiler inspection on Thursday, 2 hrs", "boiler", "boiler_inspection"],
    ["book a pump overhaul for next week", "pump", "pump_overhaul"],
    ["filter swap on the chiller please", "chiller", "filter_swap"],
  ] as const) {
    it(said, () => expect(extractArguments(JOB, [said], { now: NOW })).toMatchObject({ equipment, task }));
  }
});

describe("twentieth session: a percentage as a fraction, without a float's noise", () => {
  const DRY = { type: "object", required: ["moisture"], properties: { moisture: { type: "number", minimum: 0, maximum: 1, description: "Moisture content as a fraction between 0 and 1." } } } as const;
  for (const [said, value] of [["moisture 8.2%", 0.082], ["moisture at 57.3 %", 0.573], ["moisture 14.7 percent", 0.147], ["moisture 0.7%", 0.007]] as const) {
    it(said, () => expect(extractArguments(DRY, [said], { now: NOW }).moisture).toBe(value));
  }
});

// Twenty-first session. Our own schemas: a beam survey and a parcel desk (decimals said aloud), a payout desk in
// several currencies, refunds where two dollars are allowed and one is the default, airline and fixture
// outcomes, a returns desk with a yes/no for shipping, and meter swaps done at a place.
describe("twenty-first session: decimals said aloud, currency signs with a country, a default dollar, values named by their own word, things added or left out, places with an article", () => {
  // Meaning: "<whole> point <digit words>" is a decimal number ("oh" is 0, and a trailing 0 changes nothing).
  const BEAM = { type: "object", required: ["span_m"], properties: { beam_id: { type: "string", pattern: "^BM-[0-9]{3}$" }, span_m: { type: "number", description: "Beam span in metres." } } } as const;
  for (const [said, span] of [
    ["BM-204, span fourteen point six metres", 14.6],
    ["span of one point two metres on BM-101", 1.2],
    ["BM-311 spans nine point oh five metres", 9.05],
    ["twenty point seven five metres for BM-020", 20.75],
  ] as const) {
    it(said, () => expect(extractArguments(BEAM, [said], { now: NOW }).span_m).toBe(span));
  }
  const PARCEL = { type: "object", required: ["weight_kg"], properties: { parcel_id: { type: "string", pattern: "^PC-[0-9]{4}$" }, weight_kg: { type: "number", description: "Parcel weight in kg." } } } as const;
  for (const [said, kg] of [["PC-1002 weighs three point five oh kg", 3.5], ["three point two five kilos, parcel PC-7777", 3.25], ["parcel PC-4410 is zero point eight kg", 0.8]] as const) {
    it(said, () => expect(extractArguments(PARCEL, [said], { now: NOW })).toMatchObject({ weight_kg: kg }));
  }

  // Meaning: a dollar or yen sign with its country's letters (as CLDR writes them) is that country's currency.
  const PAYOUT = {
    type: "object",
    required: ["amount", "currency"],
    properties: { amount: { type: "number", description: "Amount to pay out." }, currency: { type: "string", enum: ["CAD", "MXN", "TWD", "CNY", "USD", "EUR"] } },
  } as const;
  for (const [said, amount, currency] of [
    ["pay out CA$2,315.00 to the supplier", 2315, "CAD"],
    ["send MX$640 to Lucia", 640, "MXN"],
    ["transfer NT$12,500 to the Taipei office", 12500, "TWD"],
    ["wire CN¥8,800 to the Shenzhen office", 8800, "CNY"],
    ["pay out MX$1,250.50 today", 1250.5, "MXN"],
  ] as const) {
    it(said, () => expect(extractArguments(PAYOUT, [said], { now: NOW })).toMatchObject({ amount, currency }));
  }
  it("a country's yen is not the yen of another country the list holds", () => {
    const YEN = { type: "object", required: ["amount", "currency"], properties: { amount: { type: "number" }, currency: { type: "string", enum: ["JPY", "USD"] } } } as const;
    expect(extractArguments(YEN, ["wire CN¥8,800 to the office"], { now: NOW }).currency).toBeUndefined();
  });

  // Meaning: a bare "$" where the list holds two dollars is the one the API takes by default; a named one is that one.
  const REFUND = { type: "object", required: ["amount", "currency"], properties: { amount: { type: "number" }, currency: { type: "string", enum: ["CAD", "USD"], default: "CAD" } } } as const;
  for (const [said, currency] of [
    ["refund $356.80 to the card", "CAD"],
    ["put back $19 on her card", "CAD"],
    ["refund US$356.80 to the card", "USD"],
    ["refund 356.80 USD to the card", "USD"],
  ] as const) {
    it(said, () => expect(extractArguments(REFUND, [said], { now: NOW })).toMatchObject({ currency, amount: said.includes("$19") ? 19 : 356.8 }));
  }
  it("the same holds for another pair of dollars and its default", () => {
    const AU = { type: "object", required: ["amount", "currency"], properties: { amount: { type: "number" }, currency: { type: "string", enum: ["AUD", "USD"], default: "AUD" } } } as const;
    expect([extractArguments(AU, ["charge $64.90"], { now: NOW }).currency, extractArguments(AU, ["charge US$64.90"], { now: NOW }).currency]).toEqual(["AUD", "USD"]);
  });

  // Meaning: values of two words whose first word is shared with another value are named by their second word.
  const DELAY = { type: "object", required: ["cause"], properties: { cause: { type: "string", enum: ["flight_delayed", "flight_diverted", "passenger_no_show"] } } } as const;
  for (const [said, cause] of [["our plane was diverted to Lyon", "flight_diverted"], ["it got delayed by four hours", "flight_delayed"]] as const) {
    it(said, () => expect(extractArguments(DELAY, [said], { now: NOW }).cause).toBe(cause));
  }
  const FIXTURE = { type: "object", required: ["status"], properties: { ticket_ref: { type: "string", pattern: "^TK-[0-9]{4}$" }, status: { type: "string", enum: ["match_postponed", "match_abandoned", "fan_request"] } } } as const;
  for (const [said, status] of [["TK-2231: the game was abandoned at half time", "match_abandoned"], ["they postponed it, refund TK-1100", "match_postponed"]] as const) {
    it(said, () => expect(extractArguments(FIXTURE, [said], { now: NOW }).status).toBe(status));
  }

  // Meaning: a yes/no parameter named "<verb>_<noun>" is true when the noun is added ("including", "plus",
  // "with"), false when it is left out ("without", "excluding"), and unsaid otherwise.
  const RETURNS = { type: "object", required: ["order_id"], properties: { order_id: { type: "string", pattern: "^OR-[0-9]{4}$" }, refund_shipping: { type: "boolean", description: "Whether shipping is refunded too." } } } as const;
  for (const [said, value] of [
    ["refund OR-5521 including the shipping", true],
    ["refund OR-5521 plus shipping", true],
    ["refund OR-5521 with shipping", true],
    ["refund OR-5521 but without the shipping", false],
    ["refund OR-5521 excluding shipping", false],
  ] as const) {
    it(said, () => expect(extractArguments(RETURNS, [said], { now: NOW })).toMatchObject({ order_id: "OR-5521", refund_shipping: value }));
  }
  it("a refund that says nothing of shipping leaves it unsaid", () => expect(extractArguments(RETURNS, ["refund OR-5521"], { now: NOW }).refund_shipping).toBeUndefined());
  it("another verb and noun: cancel_extras", () => {
    const BOOKING = { type: "object", required: ["booking_id"], properties: { booking_id: { type: "string", pattern: "^BK-[0-9]{4}$" }, cancel_extras: { type: "boolean" } } } as const;
    expect([extractArguments(BOOKING, ["cancel BK-2210 including the extras"], { now: NOW }).cancel_extras, extractArguments(BOOKING, ["cancel BK-2210 without the extras"], { now: NOW }).cancel_extras]).toEqual([true, false]);
  });

  // Meaning: a value of two words is named with an article between them ("in the field" for in_field).
  const SWAP = { type: "object", required: ["swap_location"], properties: { meter_id: { type: "string", pattern: "^MT-[0-9]{3}$" }, swap_location: { type: "string", enum: ["in_field", "at_depot"] } } } as const;
  for (const [said, where] of [["swap MT-101 out in the field", "in_field"], ["do the MT-220 swap at the depot", "at_depot"]] as const) {
    it(said, () => expect(extractArguments(SWAP, [said], { now: NOW }).swap_location).toBe(where));
  }
  const SERVICE = { type: "object", required: ["service_point"], properties: { bike_id: { type: "string", pattern: "^BK[0-9]{3}$" }, service_point: { type: "string", enum: ["at_dock", "in_workshop", "on_street"] } } } as const;
  for (const [said, point] of [["fix BK204 at the dock", "at_dock"], ["look at BK118 in the workshop", "in_workshop"], ["repair BK777 on the street", "on_street"]] as const) {
    it(said, () => expect(extractArguments(SERVICE, [said], { now: NOW })).toMatchObject({ service_point: point }));
  }
});

describe("twenty-first session: a clock, its zone, then the date it is on", () => {
  const VISIT = { type: "object", required: ["site", "starts_at"], properties: { site: { type: "string", enum: ["north", "south"] }, starts_at: { type: "string", format: "date-time", description: "When the visit starts." } } } as const;
  // Meaning: the wall-clock time in that zone on that date (daylight saving of the date), however ordered.
  for (const [said, at] of [
    ["south site, 08:30 Lisbon time on 2027-09-14", "2027-09-14T08:30:00+01:00"],
    ["south site on 2027-09-14 at 08:30 Lisbon time", "2027-09-14T08:30:00+01:00"],
    ["north site, 16:00 Chicago time on 2027-01-20", "2027-01-20T16:00:00-06:00"],
    ["north site, 9pm on 2027-01-20", "2027-01-20T21:00:00Z"],
  ] as const) {
    it(said, () => expect(extractArguments(VISIT, [said], { now: NOW }).starts_at).toBe(at));
  }
});
