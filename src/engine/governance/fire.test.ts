// Rules that must fire: shapes that once compiled into rules matching no call (or deciding the wrong way),
// each tested across generated surface forms (word orders, effects, values, units) with calls just on
// either side. Every example here is our own.
import { describe, expect, it } from "vitest";
import { RuleSet, prepareAction } from "./evaluate.ts";
import { restate } from "./explain.ts";
import { parseRule, splitClauses } from "./parse.ts";

type Expect = "blocked" | "conditional" | "approved";
type Probe = [tool: string, args: Record<string, unknown>, expected: Expect];

/** The one rule a sentence compiles to, as an active rule set; a refusal fails the test with its reason. */
function ruleSetOf(sentence: string): RuleSet {
  const parsed = parseRule(sentence);
  if (!parsed.ok) throw new Error(`${sentence}: refused: ${parsed.error.message}`);
  return new RuleSet([{ policyId: "p", policyName: "p", version: 1, priority: 0, index: 0, rule: parsed.rule }]);
}

function decide(sentence: string, probes: Probe[]): void {
  const set = ruleSetOf(sentence);
  for (const [tool, args, expected] of probes) {
    const { now, ...rest } = args as { now?: string };
    const got = set.decide(prepareAction({ tool, args: rest, now: now ? new Date(now) : new Date() })).decision;
    expect(got, `${sentence} | ${tool} ${JSON.stringify(args)}`).toBe(expected);
  }
}

// The two restrictive effects, each as a sentence frame around the action and its conditions.
const EFFECTS: { fired: Expect; frames: ((x: string) => string)[] }[] = [
  { fired: "blocked", frames: [(x) => `Block ${x}`, (x) => `Never allow ${x}`, (x) => `${x[0]!.toUpperCase()}${x.slice(1)} are forbidden`] },
  { fired: "conditional", frames: [(x) => `Require approval for ${x}`, (x) => `${x[0]!.toUpperCase()}${x.slice(1)} need a manager's sign-off`] },
];

function forEachFrame(body: (sentence: (x: string) => string, fired: Expect) => void): void {
  for (const e of EFFECTS) for (const frame of e.frames) body(frame, e.fired);
}

describe("a negated comparison is its complement", () => {
  const forms: [phrase: string, op: ">=" | ">" | "<=" | "<"][] = [
    ["no fewer than", ">="],
    ["not fewer than", ">="],
    ["no less than", ">="],
    ["not under", ">="],
    ["not below", ">="],
    ["no lower than", ">="],
    ["no more than", "<="],
    ["not over", "<="],
    ["not above", "<="],
    ["no higher than", "<="],
    ["not exceeding", "<="],
  ];
  for (const [phrase, op] of forms) {
    for (const n of [12, 250]) {
      it(`${phrase} ${n}`, () => {
        forEachFrame((frame, fired) => {
          const at = op === ">=" || op === "<=" ? fired : "approved";
          const above = op.startsWith(">") ? fired : "approved";
          const below = op.startsWith("<") ? fired : "approved";
          decide(frame(`newsletters to ${phrase} ${n} subscribers`), [
            ["send_newsletter", { subscriber_count: n }, at],
            ["send_newsletter", { subscriber_count: n + 1 }, above],
            ["send_newsletter", { subscriber_count: n - 1 }, below],
          ]);
        });
      });
    }
  }
});

describe("comparatives of distance and size", () => {
  for (const [word, op] of [["further", ">"], ["farther", ">"], ["deeper", ">"], ["wider", ">"], ["closer", "<"], ["nearer", "<"], ["narrower", "<"]] as const) {
    it(`${word} than`, () => {
      for (const [written, metres] of [["2 kilometres", 2000], ["500 m", 500], ["1.5 km", 1500]] as const) {
        forEachFrame((frame, fired) => {
          decide(frame(`robot moves ${word} than ${written}`), [
            ["move_robot", { distance_m: metres + 1 }, op === ">" ? fired : "approved"],
            ["move_robot", { distance_m: metres }, "approved"],
            ["move_robot", { distance_km: (metres - 1) / 1000 }, op === "<" ? fired : "approved"],
          ]);
        });
      }
    });
  }
});

describe("a unit suffix read by the kind its name says", () => {
  it("speed_ms is metres per second; latency_ms stays milliseconds", () => {
    // 72 km/h is 20 m/s.
    for (const rule of ["Block drives faster than 72 km/h", "Block drives faster than 20 m/s", "Block drives with a speed over 72 kph"]) {
      decide(rule, [
        ["drive_truck", { speed_ms: 21 }, "blocked"],
        ["drive_truck", { speed_ms: 20 }, "approved"],
        ["drive_truck", { speed_kmh: 19 * 3.6 }, "approved"],
        ["drive_truck", { speed_kmh: 21 * 3.6 }, "blocked"],
      ]);
    }
    decide("Block queries with a latency over 300 ms", [
      ["run_query", { latency_ms: 400 }, "blocked"],
      ["run_query", { latency_ms: 200 }, "approved"],
    ]);
  });
});

describe("how a rule finds tools named otherwise", () => {
  it("a tool's name ending in a word that alone means 'any action' names that tool only", () => {
    for (const tool of ["create_purchase_request", "cancel_purchase_request", "run_task", "schedule_call", "queue_command", "log_action"]) {
      forEachFrame((frame, fired) => {
        decide(frame(tool), [[tool, {}, fired], ["get_status", {}, "approved"], ["refund_payment", {}, "approved"]]);
      });
    }
    decide("Block any action", [["get_status", {}, "blocked"]]);
    decide("Block any tool-call", [["get_status", {}, "blocked"]]);
  });

  it("a tool whose first word is no operation: the operation after it", () => {
    for (const noun of ["files", "tickets", "invoices"]) {
      const one = noun.slice(0, -1);
      forEachFrame((frame, fired) => {
        decide(frame(`deleting ${noun}`), [
          [`bulk_delete_${noun}`, {}, fired],
          [`${one}_delete`, {}, fired],
          [`bulk_export_${noun}`, {}, "approved"],
        ]);
      });
    }
    // A later word that is the thing named, not a verb, is not the operation: drafting a post is not posting.
    for (const sentence of ["Block publishing posts", "Require approval for sending posts to social media"]) {
      decide(sentence, [["draft_social_post", {}, "approved"], ["draft_post", {}, "approved"]]);
    }
  });

  it("importing, loading or inserting records reaches a tool that creates them, never one that deletes", () => {
    for (const verb of ["importing", "loading", "inserting"]) {
      for (const noun of ["contacts", "products"]) {
        const one = noun.slice(0, -1);
        forEachFrame((frame, fired) => {
          decide(frame(`${verb} ${noun}`), [
            [`create_${one}`, {}, fired],
            [`bulk_create_${noun}`, {}, fired],
            [`delete_${one}`, {}, "approved"],
            [`get_${one}`, {}, "approved"],
          ]);
        });
      }
    }
    decide("Block contact imports", [["bulk_create_contacts", {}, "blocked"], ["list_contacts", {}, "approved"]]);
  });

  it("a verb of change the lexicon has no class for reaches the tool that changes that thing", () => {
    for (const [verb, noun] of [["upgrading", "subscriptions"], ["downgrading", "licences"], ["renaming", "folders"], ["relabelling", "tickets"]] as const) {
      const one = noun.slice(0, -1);
      forEachFrame((frame, fired) => {
        decide(frame(`${verb} ${noun}`), [
          [`change_${one}`, {}, fired],
          [`update_${one}`, {}, fired],
          [`view_${one}`, {}, "approved"],
          [`update_invoice`, {}, "approved"],
        ]);
      });
    }
  });

  it("a thing named alone is not what a tool that cancels, rejects or only looks at it does", () => {
    for (const [noun, one] of [["orders", "order"], ["subscriptions", "subscription"], ["maintenance windows", "maintenance_window"], ["purchase requests", "purchase_request"]] as const) {
      forEachFrame((frame, fired) => {
        decide(frame(noun), [
          [`create_${one}`, {}, fired],
          [`cancel_${one}`, {}, "approved"],
          [`reject_${one}`, {}, "approved"],
          [`void_${one}`, {}, "approved"],
          [`get_${one}`, {}, "approved"],
          [`list_${one}s`, {}, "approved"],
          [`delete_${one}`, {}, fired],
        ]);
        // A rule about data still covers reading it.
        decide(frame(`${one.replace(/_/g, " ")} records`), [[`get_${one}_record`, {}, fired]]);
        // The tool's own name, written or quoted, still names it.
        decide(frame(`cancel_${one}`), [[`cancel_${one}`, {}, fired], [`create_${one}`, {}, "approved"]]);
        decide(frame(`"reject ${one.replace(/_/g, " ")}" actions`), [[`reject_${one}`, {}, fired]]);
      });
    }
  });

  it("a tool that only looks does not do what a verb of the rule names", () => {
    for (const [gerund, noun] of [["dredging", "dredge"], ["refunding", "refund"], ["exporting", "export"], ["withdrawing", "withdrawal"]] as const) {
      forEachFrame((frame, fired) => {
        decide(frame(gerund), [
          [`${noun === "withdrawal" ? "withdraw" : noun}_funds`, {}, fired],
          [`get_${noun}_log`, {}, "approved"],
          [`list_${noun}s`, {}, "approved"],
          [`search_${noun}_history`, {}, "approved"],
        ]);
      });
    }
  });

  it("a modifier of the rule stands for a qualifier of the tool's name the rule does not say", () => {
    for (const [modifier, noun, tool, plain] of [
      ["mass", "mailings", "send_bulk_email", "send_email"],
      ["group", "texts", "send_broadcast_sms", "send_sms"],
      ["priority", "emails", "send_urgent_email", "send_email"],
    ] as const) {
      forEachFrame((frame, fired) => {
        decide(frame(`${modifier} ${noun}`), [
          [tool, {}, fired],
          [plain, {}, "approved"],
        ]);
      });
    }
  });
});

describe("exceptions", () => {
  it("an environment excepted after the rule, in brackets or after a comma", () => {
    for (const env of ["staging", "sandbox", "dev"]) {
      for (const tail of [` (${env} excepted)`, `, ${env} excepted`, ` (${env} exempted)`]) {
        forEachFrame((frame, fired) => {
          decide(`${frame("restarts")}${tail}`, [
            ["restart_service", { environment: env }, "approved"],
            ["restart_service", { environment: "production" }, fired],
            ["restart_service", {}, fired],
          ]);
        });
      }
    }
  });

  it("an exception in brackets ends at its bracket; the sentence goes on after it", () => {
    for (const word of ["except", "excluding", "unless in"]) {
      for (const env of ["staging", "qa"]) {
        decide(`Block refunds (${word} ${env}) over $100`, [
          ["refund_payment", { amount: 500, environment: env }, "approved"],
          ["refund_payment", { amount: 500, environment: "production" }, "blocked"],
          ["refund_payment", { amount: 50, environment: "production" }, "approved"],
        ]);
        decide(`Require approval for restarts (${word} ${env})`, [
          ["restart_server", { environment: env }, "approved"],
          ["restart_server", { environment: "production" }, "conditional"],
        ]);
      }
    }
  });

  it("a party's attribute and value: 'unless the client is in the silver tier', 'except for clients on tier silver'", () => {
    for (const [party, attribute, value] of [["client", "tier", "silver"], ["customer", "plan", "premium"], ["member", "band", "c"]] as const) {
      const other = value === "c" ? "d" : "basic";
      for (const exception of [
        `unless the ${party} is in the ${value} ${attribute}`,
        `unless the ${party} is on the ${value} ${attribute}`,
        `except for ${party}s on ${attribute} ${value}`,
        `except for ${party}s in the ${value} ${attribute}`,
      ]) {
        decide(`Block refunds over $400 ${exception}`, [
          ["refund_payment", { amount: 900, [attribute]: value }, "approved"],
          ["refund_payment", { amount: 900, [attribute]: other }, "blocked"],
          ["refund_payment", { amount: 900 }, "blocked"],
          ["refund_payment", { amount: 100, [attribute]: other }, "approved"],
        ]);
        decide(`Except for ${party}s on ${attribute} ${value}, refunds over $400 require approval`, [
          ["refund_payment", { amount: 900, [attribute]: value }, "approved"],
          ["refund_payment", { amount: 900, [attribute]: other }, "conditional"],
        ]);
      }
    }
  });
});

describe("a party not among a list", () => {
  const lists: [values: string[], written: string][] = [
    [["fr", "de", "it"], "FR, DE or IT"],
    [["fr", "de", "it"], "FR, DE and IT"],
    [["fr", "de", "it"], "FR, DE, IT"],
    [["north", "south"], "North or South"],
  ];
  for (const [values, written] of lists) {
    it(`${written}: except, other than, outside, a list stated apart`, () => {
      const shapes = [
        `shipments to any region except ${written}`,
        `shipments to regions other than ${written}`,
        `shipments to regions outside ${written}`,
        `shipments to regions not on the allowed list (${written})`,
        `shipments to regions outside the allowed list: ${written}`,
        `shipments to unapproved regions (approved: ${written})`,
      ];
      for (const shape of shapes) {
        forEachFrame((frame, fired) => {
          decide(frame(shape), [
            ["create_shipment", { region: values[0] }, "approved"],
            ["create_shipment", { region: values.at(-1)!.toUpperCase() }, "approved"],
            ["create_shipment", { region: "zz" }, fired],
            ["create_shipment", {}, fired],
          ]);
        });
      }
    });
  }
  it("'to any <noun>' is every one of them: no condition, and not a word the tool must have", () => {
    for (const [prep, noun] of [["to", "customer"], ["to", "supplier"], ["for", "client"], ["from", "account"]] as const) {
      forEachFrame((frame, fired) => {
        decide(frame(`refunds ${prep} any ${noun} over $50`), [
          ["refund_payment", { amount: 60 }, fired],
          ["refund_payment", { amount: 40 }, "approved"],
        ]);
        decide(frame(`refunds ${prep} any ${noun}`), [["refund_payment", {}, fired], ["create_invoice", {}, "approved"]]);
      });
    }
  });

  it("a single value after 'except' is still an exception, not a list", () => {
    decide("Block any action except get_status", [["get_status", {}, "approved"], ["restart_server", {}, "blocked"]]);
  });
});

describe("ranges and windows", () => {
  const ranges: [written: string, low: number, high: number, tool: string, key: string][] = [
    ["from $2,000 to $6,000", 2000, 6000, "create_payout", "amount"],
    ["in the $2,000 to $6,000 range", 2000, 6000, "create_payout", "amount"],
    ["in the USD 2k to USD 6k range", 2000, 6000, "create_payout", "amount"],
    ["from 300 to 900 euros", 300, 900, "pay_invoice", "amount"],
    ["from 4 to 12 kg", 4, 12, "ship_parcel", "weight_kg"],
    ["in the 4 to 12 kg band", 4, 12, "ship_parcel", "weight_kg"],
  ];
  for (const [written, low, high, tool, key] of ranges) {
    it(written, () => {
      const currency = written.includes("euro") ? { currency: "EUR" } : {};
      const noun = tool === "ship_parcel" ? "parcels" : tool === "pay_invoice" ? "invoice payments" : "payouts";
      forEachFrame((frame, fired) => {
        decide(frame(`${noun} ${written}`), [
          [tool, { [key]: low, ...currency }, fired],
          [tool, { [key]: high, ...currency }, fired],
          [tool, { [key]: (low + high) / 2, ...currency }, fired],
          [tool, { [key]: high + 1, ...currency }, "approved"],
          [tool, { [key]: low - 1, ...currency }, "approved"],
        ]);
      });
      decide(`When the ${key.replace(/_kg$/, "")} is ${written.replace(/^in the /, "in the ")}, block ${noun}`, [
        [tool, { [key]: low, ...currency }, "blocked"],
        [tool, { [key]: high + 1, ...currency }, "approved"],
      ]);
    });
  }

  it("a range negated: outside it, not within it, not between its ends", () => {
    for (const written of ["outside the $2,000 to $6,000 range", "outside $2,000 to $6,000", "not within $2,000 to $6,000", "that are not between $2,000 and $6,000", "if it is not between $2,000 and $6,000", "when the amount is not from $2,000 to $6,000"]) {
      forEachFrame((frame, fired) => {
        decide(frame(`payouts ${written}`), [
          ["create_payout", { amount: 1999 }, fired],
          ["create_payout", { amount: 2000 }, "approved"],
          ["create_payout", { amount: 6000 }, "approved"],
          ["create_payout", { amount: 6001 }, fired],
          ["create_payout", {}, fired],
        ]);
      });
    }
  });

  const MON = (h: number, m = 30) => `2026-11-23T${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:00Z`;
  it("'outside the hours of A and B' with a zone, and an IANA zone right after a clock", () => {
    for (const [window, zone, offset] of [
      ["outside the hours of 7am and 7pm", "(Tokyo time)", 9],
      ["outside the hours of 07:00 and 19:00", "Asia/Tokyo", 9],
      ["outside 07:00–19:00", "Asia/Tokyo", 9],
      ["outside the hours of 7 a.m. and 7 p.m.", "UTC", 0],
      ["if it is not between 7:00 and 19:00", "America/New_York", -5],
    ] as const) {
      for (const [frame, fired] of [[(x: string) => `Block ${x}`, "blocked"], [(x: string) => `Require approval for ${x}`, "conditional"]] as const) {
        const sentence = frame(`restarts ${window} ${zone}`);
        const utc = (local: number) => (((local - offset) % 24) + 24) % 24;
        decide(sentence, [
          ["restart_server", { now: MON(utc(12)) }, "approved"],
          ["restart_server", { now: MON(utc(7), 0) }, "approved"],
          ["restart_server", { now: MON(utc(3)) }, fired],
          ["restart_server", { now: MON(utc(21)) }, fired],
        ]);
      }
    }
  });
});

describe("effects, parts of a whole and counted nouns", () => {
  it("'must not be approved' forbids approving; 'must be approved' still asks a human", () => {
    for (const modal of ["must not", "should not", "may not", "must never", "cannot"]) {
      for (const [noun, tool] of [["timesheets", "approve_timesheet"], ["leave requests", "approve_leave_request"]] as const) {
        decide(`${noun[0]!.toUpperCase()}${noun.slice(1)} ${modal} be approved when the hours are over 60`, [
          [tool, { hours: 70 }, "blocked"],
          [tool, { hours: 50 }, "approved"],
        ]);
      }
    }
    decide("Timesheets must be approved by a manager", [["approve_timesheet", {}, "conditional"]]);
  });

  it("'less than half', 'over a third', 'more than two thirds' are percentages", () => {
    for (const [written, pct] of [["half", 50], ["a half", 50], ["a third", 100 / 3], ["two thirds", 200 / 3], ["three quarters", 75], ["a quarter", 25], ["a tenth", 10]] as const) {
      for (const [cmp, above] of [["over", true], ["more than", true], ["less than", false], ["under", false]] as const) {
        forEachFrame((frame, fired) => {
          decide(frame(`discounts ${cmp} ${written}`), [
            ["apply_discount", { discount_percent: Math.floor(pct) + 1 }, above ? fired : "approved"],
            ["apply_discount", { discount_percent: Math.ceil(pct) - 1 }, above ? "approved" : fired],
            ["apply_discount", { discount_ratio: (Math.floor(pct) + 1) / 100 }, above ? fired : "approved"],
          ]);
        });
      }
    }
  });

  it("a relative clause with a modal names the action, whatever the tagger makes of its verb", () => {
    for (const head of ["Actions", "Calls", "Requests", "Any tool call"]) {
      for (const verb of ["issue refunds", "give refunds", "make refunds"]) {
        decide(`${head} that would ${verb} over 300 euros need approval`, [
          ["refund_payment", { amount: 400, currency: "EUR" }, "conditional"],
          ["refund_payment", { amount: 200, currency: "EUR" }, "approved"],
          ["create_invoice", { amount: 400, currency: "EUR" }, "approved"],
        ]);
      }
    }
  });

  it("a value per period after 'worth' or 'costing' is a value, not a rate of actions", () => {
    for (const verb of ["worth", "costing", "valued at"]) {
      for (const [cmp, period] of [["at least", "a year"], ["more than", "per month"], ["over", "annually"]] as const) {
        decide(`Require approval for ending memberships ${verb} ${cmp} 2.5k ${period}`, [
          ["end_membership", { annual_value: 3000 }, "conditional"],
          ["end_membership", { annual_value: 1000 }, "approved"],
        ]);
      }
    }
  });

  it("a people noun right after a number is what it counts, not who acts", () => {
    for (const noun of ["users", "employees", "people", "customers"]) {
      for (const effect of ["requires approval", "needs a manager's sign-off"]) {
        decide(`Inviting no fewer than 25 ${noun} ${effect}`, [
          ["invite_members", { [`${noun.replace(/s$/, "")}_count`]: 25 }, "conditional"],
          ["invite_members", { [`${noun.replace(/s$/, "")}_count`]: 24 }, "approved"],
        ]);
      }
    }
  });
});

describe("a time of day compared on a thing is the thing's own time", () => {
  // Each way of writing "later than" and "earlier than" a clock time, the thing's own time argument as a
  // time alone and inside an ISO timestamp, and a tool with no time of its own (read at the time it runs).
  const LATER = [(t: string) => `later than ${t}`, (t: string) => `past ${t}`];
  const EARLIER = [(t: string) => `earlier than ${t}`];
  const TIMES: [written: string, minutes: number][] = [["15:00", 900], ["3pm", 900], ["3 p.m.", 900], ["06:30", 390], ["6:30am", 390]];
  const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
  for (const [written, minutes] of TIMES) {
    for (const [forms, later] of [[LATER, true], [EARLIER, false]] as const) {
      for (const form of forms) {
        it(`furniture pickups ${form(written)}`, () => {
          forEachFrame((frame, fired) => {
            const beyond = (d: number) => (later ? d > 0 : d < 0) ? fired : "approved";
            decide(frame(`furniture pickups ${form(written)}`), [
              ["book_furniture_pickup", { pickup_time: clock(minutes) }, "approved"],
              ["book_furniture_pickup", { pickup_time: clock(minutes + 30) }, beyond(30)],
              ["book_furniture_pickup", { pickup_time: clock(minutes - 30) }, beyond(-30)],
              ["book_furniture_pickup", { pickup_at: `2027-05-04T${clock(minutes + 1)}:00Z` }, beyond(1)],
              ["book_furniture_pickup", { pickup_at: `2027-05-04T${clock(minutes - 1)}:00Z` }, beyond(-1)],
              ["book_furniture_pickup", { address: "1 Mill Lane", now: `2027-05-04T${clock(minutes + 45)}:00Z` }, beyond(45)],
            ]);
          });
        });
      }
    }
  }

  it("after a clock time is strictly after it", () => {
    forEachFrame((frame, fired) => {
      decide(frame("restarts after 22:00"), [
        ["restart_server", { now: "2027-05-04T22:00:00Z" }, "approved"],
        ["restart_server", { now: "2027-05-04T22:01:00Z" }, fired],
        ["restart_server", { now: "2027-05-04T21:59:00Z" }, "approved"],
      ]);
    });
  });
});

describe("a common noun where the action goes or happens is a setting, not a value every call must carry", () => {
  // [preposition phrase, the role's argument name, the value]
  const SETTINGS: [phrase: string, role: string, value: string][] = [
    ["to the lake", "destination", "lake"],
    ["into the lake", "target", "lake"],
    ["from the archive", "source", "archive"],
    ["from storage", "origin", "storage"],
    ["in the annex", "location", "annex"],
    ["at the depot", "site", "depot"],
    ["through the kiosk", "channel", "kiosk"],
    ["via the hotline", "channel", "hotline"],
  ];
  for (const [phrase, role, value] of SETTINGS) {
    it(`pallet moves over 500 kg ${phrase}`, () => {
      forEachFrame((frame, fired) => {
        decide(frame(`pallet moves over 500 kg ${phrase}`), [
          ["move_pallet", { pallet_id: "PL-1", weight_kg: 650, reason: "restock" }, fired],
          ["move_pallet", { pallet_id: "PL-1", weight_kg: 450, reason: "restock" }, "approved"],
          ["move_pallet", { pallet_id: "PL-1", weight_kg: 650, [role]: value }, fired],
          ["move_pallet", { pallet_id: "PL-1", weight_kg: 650, [role]: "yard" }, "approved"],
        ]);
      });
    });
  }
  it("the thing the tool acts on takes the value it is changed to", () => {
    forEachFrame((frame, fired) => {
      decide(frame("changing a ticket's queue to triage"), [
        ["change_ticket_queue", { ticket_id: "T-1", queue: "triage" }, fired],
        ["change_ticket_queue", { ticket_id: "T-1", queue: "billing" }, "approved"],
      ]);
    });
  });
});

describe("a participle after the action's noun opens a clause about the thing", () => {
  const CASES: [phrase: string, tool: string, key: string, over: number, under: number][] = [
    ["coach tours going more than 80 km", "book_coach_tour", "distance_km", 100, 60],
    ["convoys travelling over 40 miles", "dispatch_convoy", "distance_miles", 41, 39],
    ["concerts expecting more than 3000 guests", "approve_concert", "expected_guests", 3500, 2500],
    ["parcels weighing over 30 kg", "ship_parcel", "weight_kg", 31, 29],
  ];
  for (const [phrase, tool, key, over, under] of CASES) {
    it(phrase, () => {
      forEachFrame((frame, fired) => {
        decide(frame(phrase), [
          [tool, { [key]: over }, fired],
          [tool, { [key]: under }, "approved"],
        ]);
      });
    });
  }
});

describe("a particular kind of person as the subject is who acts", () => {
  const ACTORS: [plural: string, one: string][] = [["trainees", "trainee"], ["contractors", "contractor"], ["pharmacists", "pharmacist"], ["technicians", "technician"]];
  const MODALS = ["must not", "may not", "cannot", "are not allowed to", "aren't permitted to"];
  for (const [plural, one] of ACTORS) {
    it(`${plural} … approve invoices`, () => {
      for (const modal of MODALS) {
        decide(`${plural[0]!.toUpperCase()}${plural.slice(1)} ${modal} approve invoices.`, [
          ["approve_invoice", { invoice_id: "I-1", user_role: one }, "blocked"],
          ["approve_invoice", { invoice_id: "I-1", user_role: "finance_manager" }, "approved"],
          // A call that does not say who acts fails closed.
          ["approve_invoice", { invoice_id: "I-1" }, "blocked"],
          ["pay_invoice", { invoice_id: "I-1", user_role: one }, "approved"],
        ]);
      }
    });
  }
  it("what the subject says about them is a condition on the actor", () => {
    for (const [phrase, key] of [["below grade 3", "operator_grade"], ["under level 3", "operator_level"]] as const) {
      for (const modal of MODALS) {
        decide(`Operators ${phrase} ${modal} restart the pumps.`, [
          ["restart_pump", { pump_id: "P-1", [key]: 2 }, "blocked"],
          ["restart_pump", { pump_id: "P-1", [key]: 3 }, "approved"],
        ]);
      }
    }
    decide("Staff below level 4 cannot approve refunds over $500.", [
      ["approve_refund", { amount: 600, staff_level: 3 }, "blocked"],
      ["approve_refund", { amount: 600, staff_level: 4 }, "approved"],
      ["approve_refund", { amount: 400, staff_level: 3 }, "approved"],
    ]);
  });
  it("a subject that is the thing done stays the action", () => {
    decide("Refunds must not exceed $500.", [["issue_refund", { amount: 600 }, "blocked"], ["issue_refund", { amount: 400 }, "approved"]]);
    decide("Orders must not ship to Cuba.", [["ship_order", { country: "cuba" }, "blocked"], ["ship_order", { country: "spain" }, "approved"]]);
  });
});

describe("an effect word with a typing slip is the word", () => {
  for (const [sentence, fired] of [
    ["Refunds over $500 need a manager's aproval.", "conditional"],
    ["Refunds over $500 must be aproved by a manager.", "conditional"],
    ["Refunds over $500 are prohibitted.", "blocked"],
    ["Refunds over $500 are forbiden.", "blocked"],
    ["Refunds over $500 need authorisaton.", "conditional"],
  ] as const) {
    it(sentence, () => decide(sentence, [["issue_refund", { amount: 600 }, fired], ["issue_refund", { amount: 400 }, "approved"]]));
  }
});

describe("a noun phrase after 'is' is one value", () => {
  for (const [phrase, flag, kind] of [["a medical emergency", "is_medical_emergency", "medical_emergency"], ["a planned outage", "is_planned_outage", "planned_outage"], ["an insurance claim", "insurance_claim", "insurance_claim"]] as const) {
    it(`unless it's ${phrase}`, () => {
      for (const unless of [`unless it's ${phrase}`, `unless it is ${phrase}`, `except when it is ${phrase}`]) {
        decide(`Block vault openings ${unless}`, [
          ["open_vault", { vault_id: "V-1", [flag]: true }, "approved"],
          ["open_vault", { vault_id: "V-1", [flag]: false }, "blocked"],
          // A call that does not say fails closed.
          ["open_vault", { vault_id: "V-1" }, "blocked"],
        ]);
      }
      decide(`Block vault openings when the request type is ${phrase.replace(/^an? /, "")}`, [
        ["open_vault", { vault_id: "V-1", request_type: kind }, "blocked"],
        ["open_vault", { vault_id: "V-1", request_type: "routine" }, "approved"],
      ]);
    });
  }
});

describe("'permit' as the thing an action issues is no effect", () => {
  for (const kind of ["visitor", "residential", "event", "roadworks"]) {
    it(`${kind} permits`, () => {
      forEachFrame((frame, fired) => {
        decide(frame(`${kind} permits longer than 30 days`), [
          [`issue_${kind}_permit`, { duration_days: 40 }, fired],
          [`issue_${kind}_permit`, { duration_days: 20 }, "approved"],
        ]);
        // The permit is what the rule is about, and says so.
        const parsed = parseRule(frame(`${kind} permits longer than 30 days`));
        expect(parsed.ok && restate(parsed.rule)).toContain(`${kind} permits`);
      });
    });
  }
});

describe("a real word opening a rule is not a misspelt effect verb", () => {
  it("'Event', 'Fever', 'Present' keep their meaning", () => {
    decide("Event tickets over $30 are forbidden.", [["sell_event_ticket", { price_usd: 40 }, "blocked"], ["sell_event_ticket", { price_usd: 20 }, "approved"], ["refund_order", { amount_usd: 40 }, "approved"]]);
    decide("Fever clinic bookings over 20 patients need approval.", [["book_fever_clinic", { patient_count: 25 }, "conditional"], ["book_fever_clinic", { patient_count: 15 }, "approved"]]);
    decide("Present deliveries to minors are forbidden.", [["send_present_delivery", { recipient_type: "minors" }, "blocked"]]);
    // A slip of the pen is still read as the verb.
    decide("Rqeuire approval for refunds over $50.", [["issue_refund", { amount_usd: 60 }, "conditional"]]);
  });
});

describe("whoever an action goes to for approval is the approver, no value", () => {
  for (const route of ["go to a certified assessor for review", "are sent to the duty chemist for sign-off", "get passed to our finance controller for approval", "have to be handed to the head of claims for review"]) {
    it(route, () => {
      decide(`Claims over €1.2k ${route}.`, [
        ["settle_claim", { claim_id: "C-1", amount_eur: 1500 }, "conditional"],
        ["settle_claim", { claim_id: "C-1", amount_eur: 900 }, "approved"],
      ]);
    });
  }
});

describe("having any of a thing is a count of it above none", () => {
  for (const phrase of ["while it has any unresolved defects", "when it has unresolved defects", "with any unresolved defects", "that have any unresolved defects", "if the vessel has any unresolved defects", "that still has unresolved defects", "while it currently has any unresolved defects"]) {
    it(phrase, () => {
      forEachFrame((frame, fired) => {
        decide(frame(`vessel departures ${phrase}`), [
          ["approve_vessel_departure", { vessel_id: "V-1", unresolved_defects: 2 }, fired],
          ["approve_vessel_departure", { vessel_id: "V-1", unresolved_defects: 0 }, "approved"],
          ["approve_vessel_departure", { vessel_id: "V-1", unresolved_defects: ["hull crack"] }, fired],
          ["approve_vessel_departure", { vessel_id: "V-1", unresolved_defects: [] }, "approved"],
        ]);
      });
    });
  }
  it("a mechanic, a medic: who acts", () => {
    decide("Mechanics must not sign off a lift while it has open faults.", [
      ["sign_off_lift", { lift_id: "L1", open_faults: 1, user_role: "mechanic" }, "blocked"],
      ["sign_off_lift", { lift_id: "L1", open_faults: 1, user_role: "chief_inspector" }, "approved"],
      ["sign_off_lift", { lift_id: "L1", open_faults: 0, user_role: "mechanic" }, "approved"],
    ]);
  });
});

describe("a modifier of a doing the tool's name holds alone is no other kind", () => {
  for (const [action, tool, value] of [["ditch digging", "book_digging", { trench_kind: "ditch" }], ["slurry spreading", "log_spreading", { material: "slurry" }], ["tree felling", "schedule_felling", {}], ["roof inspection", "schedule_inspection", { area: "roof" }]] as const) {
    it(`${action} and ${tool}`, () => {
      forEachFrame((frame, fired) => {
        decide(frame(`${action} when gusts are over 30 km/h`), [
          [tool, { site_id: "S-1", ...value, wind_speed_kmh: 45 }, fired],
          [tool, { site_id: "S-1", ...value, wind_speed_kmh: 12 }, "approved"],
        ]);
      });
    });
  }
  it("a name whose head is a thing, not a doing, still needs its modifiers", () => {
    decide("Block mass mailings", [["send_email", {}, "approved"]]);
  });
});

describe("an action that has to go to someone first asks for approval", () => {
  for (const route of ["must go to a human reviewer first", "must go to a manager", "has to go to the finance lead first", "must be sent to a supervisor first", "should be passed to an approver beforehand"]) {
    it(route, () => {
      decide(`Vendor payments over €2,000 ${route}.`, [
        ["create_vendor_payment", { vendor_id: "V-1", amount_eur: 2500 }, "conditional"],
        ["create_vendor_payment", { vendor_id: "V-1", amount_eur: 1500 }, "approved"],
      ]);
    });
  }
  it("somewhere that is no one is no approval", () => {
    expect(parseRule("Vendor payments over €2,000 must go to the warehouse.").ok).toBe(false);
  });
});

describe("a contracted copula before a value negates it", () => {
  for (const [copula, value] of [["isn't", "'green'"], ["isn't", '"green"'], ["is not", "'green'"], ["aren't", "'green'"], ["wasn't", "green"]] as const) {
    it(`${copula} ${value}`, () => {
      forEachFrame((frame, fired) => {
        decide(frame(`crane lifts when the wind status ${copula} ${value}`), [
          ["schedule_crane_lift", { crane_id: "C-1", wind_status: "amber" }, fired],
          ["schedule_crane_lift", { crane_id: "C-1", wind_status: "green" }, "approved"],
        ]);
      });
    });
  }
});

describe("a gerund opening a rule with no comma is its action, even when it is an exception word", () => {
  for (const effect of ["requires the bursar's approval", "needs the warden's sign-off", "is not allowed"]) {
    it(effect, () => {
      const fired: Expect = effect.startsWith("is") ? "blocked" : "conditional";
      decide(`Excluding a member for more than 30 days ${effect}`, [
        ["exclude_member", { member_id: "M-1", duration_days: 45 }, fired],
        ["exclude_member", { member_id: "M-1", duration_days: 10 }, "approved"],
      ]);
    });
  }
});

describe("a doing a scheduling tool arranges is that doing, by its class", () => {
  for (const action of ["battery swaps", "swapping batteries", "battery exchanges", "replacing batteries"]) {
    it(action, () => {
      forEachFrame((frame, fired) => {
        decide(frame(`${action} for fleet customers`), [
          ["schedule_battery_exchange", { unit_id: "U-1", customer_type: "fleet" }, fired],
          ["book_battery_replacement", { unit_id: "U-1", customer_type: "fleet" }, fired],
          ["schedule_battery_exchange", { unit_id: "U-1", customer_type: "retail" }, "approved"],
          ["submit_battery_reading", { unit_id: "U-1", customer_type: "fleet" }, "approved"],
        ]);
      });
    });
  }
});

describe("a sign-up is a registration", () => {
  // (Enrolling is not in the class: "enroll the lead in a sequence" adds a lead to something, it does not
  // create one.)
  for (const action of ["course sign-ups", "course signups", "course registrations"]) {
    it(action, () => {
      forEachFrame((frame, fired) => {
        decide(frame(`${action} for pupils under 12`), [
          ["register_course", { course_id: "C-1", pupil_age: 10 }, fired],
          ["create_course_booking", { course_id: "C-1", pupil_age: 10 }, fired],
          ["register_course", { course_id: "C-1", pupil_age: 14 }, "approved"],
          ["cancel_registration", { course_id: "C-1", pupil_age: 10 }, "approved"],
        ]);
      });
    });
  }
});

describe("where people live or are based, after a participle, is a value of theirs", () => {
  for (const participle of ["residing in", "based in", "living in", "located in", "registered in"]) {
    it(participle, () => {
      forEachFrame((frame, fired) => {
        decide(frame(`wire transfers to beneficiaries ${participle} Narnia, Oz or Lilliput`), [
          ["create_wire_transfer", { amount_usd: 900, beneficiary_country: "Oz" }, fired],
          ["create_wire_transfer", { amount_usd: 900, beneficiary_country: "Freedonia" }, "approved"],
        ]);
      });
    });
  }
});

describe("a hyphenated compound of words names a tool by its initials", () => {
  for (const [compound, tool] of [["personal-training", "refund_pt_package"], ["gift-card", "refund_gc_order"], ["fixed-term", "cancel_ft_contract"]] as const) {
    it(`${compound} and ${tool}`, () => {
      const [verb, initials, noun] = tool.split("_") as [string, string, string];
      const gerund = verb === "cancel" ? "cancelling" : "refunding";
      forEachFrame((frame, fired) => {
        decide(frame(`${gerund} a ${compound} ${noun} worth over £300`), [
          [tool, { member_id: "M-1", amount_gbp: 450 }, fired],
          [tool, { member_id: "M-1", amount_gbp: 200 }, "approved"],
          [`${verb}_${initials}x_${noun}`, { member_id: "M-1", amount_gbp: 450 }, "approved"],
        ]);
      });
    });
  }
});

describe("a bound right after the people an action is done to is their age", () => {
  for (const [bound, inside, outside] of [["under 13", 11, 15], ["below 16", 15, 17], ["over 65", 70, 40], ["under 18 between 9pm and 7am UTC", 12, 30]] as const) {
    it(bound, () => {
      const night = "2026-11-24T23:30:00Z";
      forEachFrame((frame, fired) => {
        decide(frame(`texting patients ${bound}`), [
          ["send_patient_text", { patient_age: inside, body: "x", now: night }, fired],
          ["send_patient_text", { patient_age: outside, body: "x", now: night }, "approved"],
        ]);
      });
    });
  }
  it("a count after the number is no age", () => {
    const parsed = parseRule("Never text patients more than 3 times per day");
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(restate(parsed.rule)).not.toMatch(/\bage\b/);
    expect(JSON.stringify(parsed.rule.when)).toContain('"rate"');
  });
});

describe("a generic actor of a kind is that kind of actor", () => {
  for (const actor of ["Billing bots", "Support agents", "Scheduling bots"]) {
    it(actor, () => {
      decide(`${actor} must not text pupils under 12.`, [
        ["send_student_message", { student_age: 11, text: "x" }, "blocked"],
        ["send_student_message", { student_age: 11, text: "x", agent_type: actor.toLowerCase().replace(/s$/, "").replace(" ", "_") }, "blocked"],
        ["send_student_message", { student_age: 11, text: "x", agent_type: "triage_bot" }, "approved"],
        ["send_student_message", { student_age: 15, text: "x" }, "approved"],
      ]);
    });
  }
  it("alone, or as the thing done, it is no kind", () => {
    decide("Bots must not text pupils under 12.", [["send_student_message", { student_age: 11, text: "x", agent_type: "triage_bot" }, "blocked"]]);
    decide("Deploying services is banned", [["deploy_service", {}, "blocked"], ["build_service", {}, "approved"]]);
  });
});

describe("a participle after 'be' is the operation, never part of the value before it", () => {
  for (const [rule, tool] of [["Evictions for rent arrears must not be scheduled in December", "schedule_eviction"], ["Callouts for boiler servicing must not be booked in December", "book_callout"]] as const) {
    it(rule, () => {
      const value = rule.includes("arrears") ? "rent_arrears" : "boiler_servicing";
      const day = "2026-12-14";
      const parsed = parseRule(rule);
      if (!parsed.ok) throw new Error(parsed.error.message);
      // The participle is no word of a value ("rent arrears scheduled"): it is the action's verb.
      const [actions, conditions] = restate(parsed.rule).split(" when ");
      expect(conditions).not.toMatch(/"[^"]*(?:scheduled|booked)"/);
      expect(actions).toMatch(/"[^"]*(?:scheduled|booked)"/);
      decide(rule, [
        [tool, { account_id: "A-1", reason: value, date: day, now: `${day}T10:00:00Z` }, "blocked"],
        [tool, { account_id: "A-1", reason: "other", date: day, now: `${day}T10:00:00Z` }, "approved"],
      ]);
    });
  }
  it("a shut-off is a disconnection", () => {
    forEachFrame((frame, fired) => {
      decide(frame("gas shut-offs at occupied flats"), [
        ["schedule_disconnection", { meter_id: "M-1", occupancy: "occupied_flat" }, fired],
        ["schedule_meter_reading", { meter_id: "M-1", occupancy: "occupied_flat" }, "approved"],
      ]);
    });
  });
});

describe("a named period glossed by its times in brackets is those times", () => {
  for (const name of ["the change window", "our patch window", "the quiet period"]) {
    it(`outside ${name} (02:00-04:00 UTC)`, () => {
      forEachFrame((frame, fired) => {
        decide(frame(`firmware pushes outside ${name} (02:00-04:00 UTC)`), [
          ["push_firmware", { device_id: "D-1", now: "2026-11-24T12:00:00Z" }, fired],
          ["push_firmware", { device_id: "D-1", now: "2026-11-24T03:00:00Z" }, "approved"],
        ]);
      });
    });
  }
});

describe("an hour window is read at the action's planned start when it has one", () => {
  for (const key of ["start_time", "scheduled_at", "planned_start"]) {
    it(key, () => {
      forEachFrame((frame, fired) => {
        decide(frame("firmware pushes outside 02:00-04:00 UTC"), [
          // Asked at noon for a push planned in the window: the push happens in it.
          ["push_firmware", { device_id: "D-1", [key]: "2026-11-25T03:00:00Z", now: "2026-11-24T12:00:00Z" }, "approved"],
          ["push_firmware", { device_id: "D-1", [key]: "2026-11-25T12:00:00Z", now: "2026-11-24T03:00:00Z" }, fired],
          // No planned start: when it runs.
          ["push_firmware", { device_id: "D-1", now: "2026-11-24T12:00:00Z" }, fired],
        ]);
      });
    });
  }
});

describe("a participle before its noun in a value is part of the value", () => {
  for (const [phrase, key, value, other] of [["from rented lists", "source", "rented_list", "webinar"], ["for damaged parcels", "reason", "damaged_parcels", "late"], ["from scraped sites", "source", "scraped_sites", "partner"]] as const) {
    it(phrase, () => {
      forEachFrame((frame, fired) => {
        decide(frame(`contact imports ${phrase}`), [
          ["import_contacts", { [key]: value, count: 10 }, fired],
          ["import_contacts", { [key]: other, count: 10 }, "approved"],
        ]);
      });
    });
  }
});

describe("containing a thing, where a yes/no argument says whether it does", () => {
  for (const [phrase, key] of [["that contain an attachment", "contains_attachment"], ["containing a link", "has_link"], ["that include a voucher", "includes_voucher"]] as const) {
    it(phrase, () => {
      forEachFrame((frame, fired) => {
        decide(frame(`newsletters ${phrase}`), [
          ["send_newsletter", { list_id: "L-1", [key]: true }, fired],
          ["send_newsletter", { list_id: "L-1", [key]: false }, "approved"],
        ]);
      });
    });
  }
});

describe("a modifier of the action names its kind, also as a compound and through a role", () => {
  // [modifier + noun, tool, kind argument, the kind the modifier names, another kind]
  const kinds: [string, string, string, string, string][] = [
    ["business-class tickets", "book_ticket", "cabin", "business", "economy"],
    ["cross-border transfers", "create_transfer", "transfer_type", "cross_border", "domestic"],
    ["same-day deliveries", "schedule_delivery", "service_type", "same_day", "standard"],
    ["core switch reboots", "reboot_switch", "switch_role", "core", "access"],
    ["admin account deletions", "delete_account", "account_role", "admin", "member"],
  ];
  for (const [phrase, tool, key, same, other] of kinds) {
    it(`${phrase}: ${key} ${same} fires, ${key} ${other} does not, and no ${key} fails closed`, () => {
      forEachFrame((frame, fired) => {
        decide(frame(phrase), [
          [tool, { ref: "R-1", [key]: same }, fired],
          [tool, { ref: "R-1", [key]: other }, "approved"],
          [tool, { count: 1 }, fired],
        ]);
      });
    });
  }
  it("a person's role is a party's, not the action's kind", () => {
    forEachFrame((frame, fired) => {
      for (const key of ["user_role", "agent_role", "role"]) decide(frame("weekend payroll exports"), [["export_payroll", { [key]: "analyst" }, fired]]);
    });
  });
});

describe("a leading condition on what an instance has, and an approver opening the main clause", () => {
  // [lead, tool, argument that fires, argument that does not]
  const leads: [string, string, Record<string, unknown>, Record<string, unknown>][] = [
    ["Whenever a voucher has a batch code starting with 88", "issue_voucher", { batch_code: "8812" }, { batch_code: "1288" }],
    ["If an invoice has a net total over $9,000", "approve_invoice", { net_total: 12000 }, { net_total: 900 }],
    ["When a bulletin has a headline containing recall", "publish_bulletin", { headline: "Product recall notice" }, { headline: "Spring fair" }],
  ];
  const mains: [string, Expect][] = [
    ["finance has to sign off", "conditional"],
    ["a duty manager must approve", "conditional"],
    ["the legal team needs to review", "conditional"],
    ["block it", "blocked"],
  ];
  for (const [lead, tool, fires, not] of leads) {
    for (const [main, fired] of mains) {
      it(`${lead}, ${main}`, () => {
        decide(`${lead}, ${main}.`, [
          [tool, fires, fired],
          [tool, not, "approved"],
          ["rename_folder", { folder_id: "F-1" }, "approved"],
        ]);
      });
    }
  }
});

describe("a noun of action with a changed stem, and a leading -ing word that is the action's kind", () => {
  it("lidocaine prescriptions, magazine subscriptions and price reductions name the tools that do them", () => {
    forEachFrame((frame, fired) => {
      decide(frame("lidocaine prescriptions above 4 mg/kg"), [
        ["prescribe_medication", { drug: "lidocaine", dose_mg_per_kg: 5 }, fired],
        ["prescribe_medication", { drug: "lidocaine", dose_mg_per_kg: 3 }, "approved"],
        ["list_prescriptions", { patient_id: "P-1" }, "approved"],
      ]);
      decide(frame("magazine subscriptions over $200"), [
        ["subscribe_magazine", { title: "Yachting", price_usd: 250 }, fired],
        ["subscribe_magazine", { title: "Yachting", price_usd: 20 }, "approved"],
      ]);
      decide(frame("price reductions of more than 30%"), [
        ["reduce_price", { sku: "S-1", percent: 40 }, fired],
        ["reduce_price", { sku: "S-1", percent: 10 }, "approved"],
      ]);
    });
  });
  it("building applications, cleaning contracts and mining licences with the kind as an argument value", () => {
    const kinds: [string, string, string, string, string][] = [
      ["building applications", "approve_application", "application_type", "building", "planning"],
      ["cleaning contracts", "award_contract", "contract_type", "cleaning", "catering"],
      ["mining licences", "grant_licence", "licence_category", "mining", "fishing"],
    ];
    forEachFrame((frame, fired) => {
      for (const [phrase, tool, key, same, other] of kinds) {
        decide(frame(`${phrase} worth over $250,000`), [
          [tool, { [key]: same, value_usd: 400000 }, fired],
          [tool, { [key]: same, value_usd: 4000 }, "approved"],
          [tool, { [key]: other, value_usd: 400000 }, "approved"],
        ]);
      }
    });
  });
});

describe("a thing given, as the subject of a passive with a condition after it", () => {
  // "<things> must not be issued|granted|given with/when …": the subject is what is given, not a party.
  const things: [string, string, string, number, number][] = [
    ["Vouchers", "issue_voucher", "value_usd", 600, 60],
    ["Licences", "grant_licence", "term_days", 400, 30],
    ["Store credits", "give_store_credit", "amount_usd", 900, 9],
  ];
  const tails: [string, (n: string) => string][] = [
    ["with", (k) => `with a ${k.replace(/_usd|_days/, "").replace(/_/g, " ")} over ${k.endsWith("usd") ? "$500" : "365 days"}`],
    ["when", (k) => `when the ${k.replace(/_usd|_days/, "").replace(/_/g, " ")} is over ${k.endsWith("usd") ? "$500" : "365 days"}`],
  ];
  for (const [subject, tool, key, over, under] of things) {
    for (const verb of ["issued", "granted", "given"]) {
      for (const [label, tail] of tails) {
        it(`${subject} must not be ${verb} ${label} …`, () => {
          decide(`${subject} must not be ${verb} ${tail(key)}.`, [
            [tool, { [key]: over }, "blocked"],
            [tool, { [key]: under }, "approved"],
          ]);
        });
      }
    }
  }
  it("a party that is given a thing is still the party", () => {
    decide("Interns must not be given admin access.", [
      ["grant_admin_access", { user_role: "intern" }, "blocked"],
      ["grant_admin_access", { user_role: "engineer" }, "approved"],
    ]);
  });
});

describe("raising or lowering a setting is setting it", () => {
  for (const [phrase, tool, key, fires, not] of [
    ["raising oven setpoints above 250 °C", "set_oven_setpoint", "setpoint_c", 260, 240],
    ["increasing credit limits above $5,000", "set_credit_limit", "limit_usd", 6000, 4000],
    ["lowering thermostat targets below 16 °C", "update_thermostat_target", "target_c", 12, 20],
  ] as const) {
    it(phrase, () => {
      forEachFrame((frame, fired) => {
        decide(frame(phrase), [
          [tool, { [key]: fires }, fired],
          [tool, { [key]: not }, "approved"],
          [tool.replace(/^(set|update)_/, "get_"), { [key]: fires }, "approved"],
        ]);
      });
    });
  }
});

describe("a date of the action before or after now", () => {
  const NOW = "2026-11-24T10:00:00Z";
  const past = { now: NOW, match_date: "2026-11-02" };
  const future = { now: NOW, match_date: "2026-12-20" };
  const today = { now: NOW, match_date: "2026-11-24" };
  const phrases: [string, "past" | "future"][] = [
    ["ticket refunds for matches that have taken place", "past"],
    ["ticket refunds for matches that already happened", "past"],
    ["ticket refunds for matches in the past", "past"],
    ["ticket refunds when the match date is in the past", "past"],
    ["ticket refunds for matches that have ended", "past"],
    ["ticket refunds for matches in the future", "future"],
  ];
  for (const [phrase, when] of phrases) {
    it(phrase, () => {
      forEachFrame((frame, fired) => {
        decide(frame(phrase), [
          ["refund_ticket", { ticket_id: "T-1", ...past }, when === "past" ? fired : "approved"],
          ["refund_ticket", { ticket_id: "T-1", ...future }, when === "future" ? fired : "approved"],
          // The day of the decision is neither past nor future; a date-time is compared to the instant.
          ["refund_ticket", { ticket_id: "T-1", ...today }, "approved"],
          ["refund_ticket", { ticket_id: "T-1", now: NOW, match_date: when === "past" ? "2026-11-24T08:00:00Z" : "2026-11-24T12:00:00Z" }, fired],
        ]);
      });
    });
  }
  it("a date no argument gives fails closed; a licence that has expired reads the only date", () => {
    decide("Block ticket refunds for matches that have taken place.", [["refund_ticket", { ticket_id: "T-1" }, "blocked"]]);
    decide("Require approval for renewing licences that have expired.", [
      ["renew_licence", { licence_id: "L-1", expires_on: "2026-10-01", now: NOW }, "conditional"],
      ["renew_licence", { licence_id: "L-1", expires_on: "2027-10-01", now: NOW }, "approved"],
    ]);
  });
});

describe("a state written with its preposition is a value of the action", () => {
  const states: [string, string, string][] = [
    ["while the vendor is under a compliance audit", "under_audit", "active"],
    ["while the tenancy is under dispute", "under_dispute", "settled"],
    ["while the shipment is pending an inspection", "pending_inspection", "cleared"],
    ["while the claim is awaiting a review", "awaiting_review", "approved"],
  ];
  for (const [when, same, other] of states) {
    it(when, () => {
      forEachFrame((frame, fired) => {
        decide(frame(`closing records ${when}`), [
          ["close_record", { record_id: "R-1", record_status: same }, fired],
          ["close_record", { record_id: "R-1", record_status: other }, "approved"],
          ["close_record", { record_id: "R-1" }, fired],
        ]);
      });
    });
  }
});

describe("a relative clause naming one thing by its number", () => {
  const shapes: [string, string, string, number[], number][] = [
    ["proxy rules that open port 3389", "create_proxy_rule", "port", [3389], 443],
    ["load balancers that expose port 8080 or 8443", "create_load_balancer", "port", [8080, 8443], 80],
    ["trunk links that carry vlan 300", "create_trunk_link", "vlan", [300], 301],
  ];
  for (const [phrase, tool, key, hits, miss] of shapes) {
    it(phrase, () => {
      forEachFrame((frame, fired) => {
        decide(frame(phrase), [
          ...hits.map((n): Probe => [tool, { [key]: n }, fired]),
          [tool, { [key]: miss }, "approved"],
          [tool, {}, fired],
        ]);
      });
    });
  }
});

describe("a counted dictionary word beside a ticker is counted by the quantity", () => {
  for (const [phrase, tool, code] of [
    ["trades above 40,000 shares", "place_trade", "QRX"],
    ["grants above 7,500 gems", "grant_currency", "GEM"],
    ["transfers of more than 300 units", "transfer_stock", "SKU"],
  ] as const) {
    it(phrase, () => {
      forEachFrame((frame, fired) => {
        const n = Number(phrase.match(/[\d,]+/)![0].replace(/,/g, ""));
        decide(frame(phrase), [
          [tool, { symbol: code, quantity: n * 2 }, fired],
          [tool, { symbol: code, quantity: Math.floor(n / 2) }, "approved"],
        ]);
      });
    });
  }
  it("a ticker the rule counts is still told from another ticker", () => {
    forEachFrame((frame, fired) => {
      decide(frame("withdrawals of more than 2 ETH"), [
        ["create_withdrawal", { asset: "ETH", amount: 3 }, fired],
        ["create_withdrawal", { asset: "BTC", amount: 3 }, "approved"],
      ]);
    });
  });
});

describe("a mark before the text a value starts or ends with is part of it", () => {
  for (const [phrase, key, hit, miss] of [
    ["adding members to teams whose name ends with -owners", "team", "db-owners", "coowners"],
    ["uploading files whose name ends with .exe", "file_name", "setup.exe", "readme-exe"],
  ] as const) {
    it(phrase, () => {
      forEachFrame((frame, fired) => {
        const tool = phrase.startsWith("adding") ? "add_team_member" : "upload_file";
        decide(frame(phrase), [
          [tool, { [key]: hit }, fired],
          [tool, { [key]: miss }, "approved"],
        ]);
      });
    });
  }
});

describe("a relative clause listing values before the noun they are values of", () => {
  for (const [phrase, tool, key, hits, miss] of [
    ["reports that pull the iban or tax_number fields", "run_report", "fields", [["name", "iban"], ["tax_number"]], ["name", "email"]],
    ["exports that read the salary, bonus or equity columns", "export_table", "columns", [["bonus"], ["id", "equity"]], ["id"]],
    ["jobs that touch the eu-west-1 and eu-central-1 regions", "start_job", "regions", [["eu-west-1"], ["eu-central-1", "us-east-1"]], ["us-east-1"]],
  ] as const) {
    it(phrase, () => {
      forEachFrame((frame, fired) => {
        decide(frame(phrase), [...hits.map((h): Probe => [tool, { [key]: [...h] }, fired]), [tool, { [key]: [...miss] }, "approved"]]);
      });
    });
  }
});

describe("a value against someone's own limit, named as theirs", () => {
  const shapes: [string, string, string, string][] = [
    ["orders with a markdown above the clerk's markdown authority", "create_order", "markdown_percent", "clerk_max_markdown_percent"],
    ["orders when the markdown is over the clerk's maximum markdown", "create_order", "markdown_percent", "clerk_max_markdown_percent"],
    ["expense claims when the amount is above the employee's spending authority", "submit_expense", "amount", "employee_spending_authority"],
    ["withdrawals that exceed the account's daily withdrawal allowance", "create_withdrawal", "withdrawal_amount", "account_daily_withdrawal_allowance"],
  ];
  for (const [phrase, tool, left, right] of shapes) {
    it(phrase, () => {
      forEachFrame((frame, fired) => {
        decide(frame(phrase), [
          [tool, { [left]: 20, [right]: 15 }, fired],
          [tool, { [left]: 10, [right]: 15 }, "approved"],
          [tool, { [left]: 15, [right]: 15 }, "approved"],
          [tool, { [left]: 20 }, fired],
        ]);
      });
    });
  }
});

describe("a restatement read back decides like the rule", () => {
  const HOUR = (h: number) => `2026-11-23T${String(h).padStart(2, "0")}:30:00Z`;
  const cases: [rule: string, probes: [string, Record<string, unknown>][]][] = [];
  for (const [rate, unit] of [["over 3", "hour"], ["more than 5", "day"], ["at least 2", "minute"]] as const) {
    for (const shape of [`Block ${rate} invoice exports within one ${unit}`, `Never export invoices ${rate} times per ${unit}`]) cases.push([shape, [["export_invoice", {}]]]);
  }
  for (const [window, zone] of [["before 2:00 or after 5:00", "Europe/Berlin"], ["from 19:00 onwards", "UTC"], ["outside the hours of 8am and 6pm", "(Tokyo time)"], ["outside business hours (8am-6pm", "Europe/Berlin)"], ["outside business hours", "New York time"]] as const) {
    cases.push([`Require approval for restarts ${window} ${zone}`, [0, 3, 6, 9, 12, 15, 18, 21].map((h) => ["restart_server", { now: HOUR(h) }])]);
  }
  for (const t of ["later than 14:00", "earlier than 7am", "after 22:00"]) cases.push([`Block furniture pickups ${t}`, [0, 3, 6, 7, 9, 12, 14, 15, 21, 22, 23].flatMap((h) => [["book_furniture_pickup", { pickup_time: `${String(h).padStart(2, "0")}:00` }], ["book_furniture_pickup", { now: HOUR(h) }]] as [string, Record<string, unknown>][])]);
  for (const degrees of ["25℃", "77℉", "25 °C"]) cases.push([`Block thermostat settings warmer than ${degrees}`, [20, 24, 25, 26, 30].map((t) => ["set_thermostat", { temperature_c: t }])]);
  cases.push(["Require approval for adding members to teams whose name ends with -owners", [["add_team_member", { team: "db-owners" }], ["add_team_member", { team: "coowners" }]]]);
  for (const when of ["that have taken place", "in the future"]) cases.push([`Block ticket refunds for matches ${when}`, ["2026-11-02", "2026-11-23", "2026-11-24", "2026-12-20"].map((d) => ["refund_ticket", { match_date: d }])]);

  for (const [rule, probes] of cases) {
    it(rule, () => {
      const first = parseRule(rule);
      if (!first.ok) throw new Error(`${rule}: refused`);
      const again = parseRule(restate(first.rule));
      if (!again.ok) throw new Error(`${restate(first.rule)}: refused`);
      const sets = [first.rule, again.rule].map((r) => new RuleSet([{ policyId: "p", policyName: "p", version: 1, priority: 0, index: 0, rule: r }]));
      for (const [tool, { now, ...args }] of probes as [string, { now?: string } & Record<string, unknown>][]) {
        // Rates: the same call after one, three and six earlier ones in the window.
        for (const earlier of [0, 1, 3, 6]) {
          const at = now ? new Date(now) : new Date("2026-11-23T12:00:00Z");
          const history = Array.from({ length: earlier }, () => ({ tool, at: new Date(at.getTime() - 20_000) }));
          const [a, b] = sets.map((set) => set.decide(prepareAction({ tool, args, now: at, history })).decision);
          expect(b, `${restate(first.rule)} | ${tool} ${JSON.stringify(args)} ${now ?? ""} after ${earlier}`).toBe(a);
        }
      }
    });
  }
});

describe("a thing named by its owner, its manner or its means (tenth session)", () => {
  // "Lowering a kiln's setpoint …": the owner names the tool (`set_kiln_temperature`), the part a parameter.
  for (const [verb, owner, part, tool, field] of [
    ["Raising", "kiln", "setpoint", "set_kiln_temperature", "setpoint_c"],
    ["Changing", "greenhouse", "target", "adjust_greenhouse_climate", "target_c"],
  ] as const) {
    forEachFrame((frame, fired) => {
      const sentence = frame(`${verb.toLowerCase()} a ${owner}'s ${part} above 40 °C`).replace(/^(\w)/, (c) => c.toUpperCase());
      it(sentence, () => decide(sentence, [[tool, { [field]: 55 }, fired], [tool, { [field]: 35 }, "approved"], ["get_weather", { [field]: 55 }, "approved"]]));
    });
  }
  it("a pronoun's possession names no thing", () => {
    decide("Don't let the bot change anyone's shift length by more than 25%.", [["update_shift", { current_hours: 8, new_hours: 12 }, "blocked"], ["update_shift", { current_hours: 8, new_hours: 9 }, "approved"]]);
  });

  // "Glider launches planned with …", "kiln firings scheduled for …": a participle after the noun says which
  // ones; a tool that schedules them is covered whatever its verb. "… flown by winch" names the means.
  for (const [things, participle, tool] of [["glider launches", "planned", "schedule_glider_launch"], ["kiln firings", "booked", "schedule_kiln_firing"], ["tastings", "scheduled", "create_tasting"]] as const) {
    forEachFrame((frame, fired) => {
      const sentence = frame(`${things} ${participle} with a crew of more than 6`);
      it(sentence, () => decide(sentence, [[tool, { crew_size: 9 }, fired], [tool, { crew_size: 4 }, "approved"], ["cancel_" + tool.split("_").slice(1).join("_"), { crew_size: 9 }, "approved"]]));
    });
  }
  for (const [things, participle, means, other] of [["glider launches", "flown", "winch", "aerotow"], ["parcels", "sent", "barge", "rail"], ["deposits", "paid", "card", "cash"]] as const) {
    const tool = { "glider launches": "schedule_glider_launch", parcels: "ship_parcel", deposits: "pay_deposit" }[things];
    for (const sentence of [`${things[0]!.toUpperCase()}${things.slice(1)} ${participle} by ${means} need a duty officer's approval`, `Require approval for ${things} ${participle} by ${means}`]) {
      it(sentence, () => decide(sentence, [[tool, { method: means }, "conditional"], [tool, { method: other }, "approved"]]));
    }
  }
  it("someone who acts after 'by' is not a means", () => {
    const parsed = parseRule("Block refunds issued by an agent");
    expect(parsed.ok && JSON.stringify(parsed.rule.when)).not.toContain("via");
  });

  // "If they are done in the payroll domain, …": the doing is no condition; the domain is the scope.
  for (const doing of ["taken", "performed", "done", "carried out"]) {
    for (const sentence of [`If they are ${doing} in the billing domain, calls need a second review.`, `Any action ${doing} in the billing domain must be escalated.`]) {
      it(sentence, () => {
        const parsed = parseRule(sentence);
        if (!parsed.ok) throw new Error(parsed.error.message);
        expect(parsed.rule.actions).toMatchObject({ any: true, domain: "billing" });
        expect(parsed.rule.when).toBeNull();
      });
    }
  }

  // "… may only be made once the harbour operations director has approved it": approval, by whatever title.
  for (const approver of ["the harbour operations director", "the site safety director", "a regional controller", "the finance team"]) {
    for (const [thing, participle, tool] of [["A deposit refund", "paid", "refund_deposit"], ["A grant payout", "made", "create_payout"], ["A voucher", "issued", "issue_voucher"]] as const) {
      const sentence = `${thing} of more than $300 may only be ${participle} once ${approver} has approved it.`;
      it(sentence, () => decide(sentence, [[tool, { amount: 450 }, "conditional"], [tool, { amount: 200 }, "approved"]]));
    }
  }
  it("a customer who approves is no approver", () => {
    const parsed = parseRule("Block refunds once the customer has approved them");
    expect(parsed.ok && parsed.rule.effect).toBe("block");
  });

  // "Who lacks an address at a domain is outside it."
  for (const [lead, tool] of [["Visitor passes for anyone without", "issue_visitor_pass"], ["Invites to people without", "send_invite"]] as const) {
    for (const address of ["a tallow.dev email address", "a tallow.dev address", "an @tallow.dev address"]) {
      forEachFrame((frame, fired) => {
        const sentence = frame(`${lead.toLowerCase()} ${address}`);
        it(sentence, () => decide(sentence, [[tool, { email: "kim@elsewhere.org" }, fired], [tool, { email: "kim@tallow.dev" }, "approved"]]));
      });
    }
  }

  // "Don't start the pumps when …: block any pumping under those conditions, …": two rules, one condition.
  for (const imperative of ["block any pumping", "stop every pumping run", "refuse pumping"]) {
    for (const anaphora of ["under those conditions", "in that case", "in such situations"]) {
      for (const reason of ["", ", the seals run dry", ". The seals run dry"]) {
        const text = `Don't start the pumps when the tank is below 10%: ${imperative} ${anaphora}${reason}.`;
        it(text, () => {
          const clauses = splitClauses(text).filter((c) => !/^the seals/i.test(c));
          expect(clauses).toHaveLength(2);
          const rules = clauses.map((c) => parseRule(c));
          const set = new RuleSet(rules.map((r, index) => {
            if (!r.ok) throw new Error(r.error.message);
            return { policyId: "p", policyName: "p", version: 1, priority: 0, index, rule: r.rule };
          }));
          const at = (tool: string, level: number) => set.decide(prepareAction({ tool, args: { tank_level_percent: level }, now: new Date() })).decision;
          expect([at("start_pumps", 5), at("start_pumping", 5), at("start_pumping", 40)]).toEqual(["blocked", "blocked", "approved"]);
        });
      }
    }
  }
  it("a colon before a list or a gloss is no second rule", () => {
    expect(splitClauses("Block refunds over $500: store credit is fine")).toHaveLength(1);
  });

  // "amount_cents above 40000": an argument named by its identifier, compared as written.
  for (const [phrase, field] of [["amount_cents above 40000", "amount_cents"], ["weight_grams over 40000", "weight_grams"]] as const) {
    it(phrase, () => {
      const set = ruleSetOf(`Block parcel refunds with ${phrase}`);
      const at = (value: number) => set.decide(prepareAction({ tool: "refund_parcel", args: { [field]: value }, params: [field, "note"], now: new Date() })).decision;
      expect([at(50_000), at(40_000), at(30_000)]).toEqual(["blocked", "approved", "approved"]);
    });
  }
});

describe("a thing's state it lacks, a place-word naming a thing, a kind's own word, a unit over any unit (eleventh session)", () => {
  const one = ruleSetOf;
  const at = (set: RuleSet, tool: string, args: Record<string, unknown>) => set.decide(prepareAction({ tool, args, now: new Date() })).decision;

  // "without a photo (being) taken", "with the waiver signed": a participle after the noun is the state
  // the action carries or lacks, a yes/no argument named by both words.
  describe("without or with a thing in a state", () => {
    const things: [phrase: string, field: string][] = [["a photo", "photo_taken"], ["the label", "label_printed"], ["the seal", "seal_applied"]];
    const states: Record<string, string> = { photo_taken: "taken", label_printed: "printed", seal_applied: "applied" };
    for (const [phrase, field] of things) {
      for (const being of ["", "being ", "been "]) {
        for (const place of ["", " at the counter"]) {
          forEachFrame((frame, fired) => {
            const sentence = frame(`parcel releases without ${phrase} ${being}${states[field]}${place}`);
            it(sentence, () => {
              const set = one(sentence);
              expect([at(set, "release_parcel", { parcel_id: "P1", [field]: false }), at(set, "release_parcel", { parcel_id: "P1", [field]: true })]).toEqual([fired, "approved"]);
            });
          });
        }
      }
      it(`only with ${phrase} ${states[field]}`, () => {
        const set = one(`Parcels may only be released with ${phrase} ${states[field]}`);
        expect([at(set, "release_parcel", { parcel_id: "P1", [field]: false }), at(set, "release_parcel", { parcel_id: "P1", [field]: true })]).toEqual(["blocked", "approved"]);
      });
    }
    // "without notifying the owner": a doing left out, named by its verb and object.
    for (const [doing, field] of [["notifying the owner", "notify_owner"], ["requiring a signature", "require_signature"], ["logging the reason", "log_reason"]] as const) {
      forEachFrame((frame, fired) => {
        const sentence = frame(`parcel releases without ${doing}`);
        it(sentence, () => {
          const set = one(sentence);
          expect([at(set, "release_parcel", { parcel_id: "P1", [field]: false }), at(set, "release_parcel", { parcel_id: "P1", [field]: true })]).toEqual([fired, "approved"]);
        });
      });
    }
  });

  // "the outside humidity is above 80%": before a noun "outside" names the thing; before a value or a
  // range it negates it.
  describe("outside as a word of the subject", () => {
    for (const subject of ["the outside humidity", "outside humidity"]) {
      for (const [verb, value] of [["is above", "80%"], ["exceeds", "80 percent"], ["is over", "80 %"]] as const) {
        const sentence = `Block kiln firings when ${subject} ${verb} ${value}`;
        it(sentence, () => {
          const set = one(sentence);
          expect([85, 80, 50].map((h) => at(set, "fire_kiln", { kiln_id: "K1", outside_humidity_percent: h }))).toEqual(["blocked", "approved", "approved"]);
        });
      }
    }
    it("outside a range still negates it", () => {
      const set = one("Block kiln firings when the humidity is outside the 20 to 60 percent range");
      expect([10, 40, 70].map((h) => at(set, "fire_kiln", { kiln_id: "K1", humidity_percent: h }))).toEqual(["blocked", "approved", "blocked"]);
    });
  });

  // `permit_class: class_a` and "Class C permits": the word the key ends in, repeated in its value, does not
  // name the value; the value's own word does.
  describe("a kind's value that repeats its key's word", () => {
    for (const [written, key, named, other] of [["Class C", "permit_class", "class_c", "class_a"], ["Type 2", "charger_type", "type_2", "type_1"], ["Grade B", "steel_grade", "grade_b", "grade_a"]] as const) {
      forEachFrame((frame, fired) => {
        const sentence = frame(`${written} permits issued to minors`.replace("permits issued to minors", "permit issues"));
        it(`${sentence} (${key})`, () => {
          const set = one(sentence);
          expect([at(set, "issue_permit", { [key]: named }), at(set, "issue_permit", { [key]: other })]).toEqual([fired, "approved"]);
          // With the tool's parameters known, "Class C" is the parameter's noun and its value.
          const withParams = (value: string) => set.decide(prepareAction({ tool: "issue_permit", args: { [key]: value, holder: "H1" }, params: [key, "holder", "valid_days"], now: new Date() })).decision;
          expect([withParams(named), withParams(other)]).toEqual([fired, "approved"]);
        });
      });
    }
  });

  // "whose pour date falls on a Sunday", "if the pour date of a slab booking is a Saturday": the day of the
  // action's own date named by its noun, not the day the action runs. "… must approve it first": when the
  // approval comes, no word of the action.
  describe("a day of the action's date named by its noun", () => {
    const sunday = "2027-03-14";
    const saturday = "2027-03-13";
    const monday = "2027-03-15";
    const sentences = [
      "Slab bookings whose pour date falls on a Sunday need the site manager's approval",
      "If the pour date of a slab booking falls on Sunday, the site manager has to approve the booking first",
      "If the pour date of a slab booking is a Sunday, the site manager must approve it beforehand",
      "Require approval for slab bookings when the pour date is a Sunday",
      "Slab bookings need sign-off in advance when their pour date falls on a Sunday",
    ];
    for (const sentence of sentences) {
      it(sentence, () => {
        const set = one(sentence);
        // The day the rule is checked on is a Monday for one call and a Sunday for another: only the pour date counts.
        const call = (date: string, now: string) => set.decide(prepareAction({ tool: "book_slab", args: { slab_id: "S1", pour_date: date, crew_size: 6 }, now: new Date(now) })).decision;
        expect([call(sunday, `${monday}T10:00:00Z`), call(saturday, `${sunday}T10:00:00Z`), call(monday, `${sunday}T10:00:00Z`)]).toEqual(["conditional", "approved", "approved"]);
      });
    }
    it("a day of the week alone is still the day the action runs", () => {
      const set = one("Block slab bookings on Sundays");
      const call = (now: string) => set.decide(prepareAction({ tool: "book_slab", args: { slab_id: "S1", pour_date: monday }, now: new Date(now) })).decision;
      expect([call(`${sunday}T10:00:00Z`), call(`${monday}T10:00:00Z`)]).toEqual(["blocked", "approved"]);
    });
  });

  // "Any crate over 40 kg needs approval before it is loaded onto a truck": the doing after "before" is the
  // action, not a yes/no fact no tool carries.
  describe("what is done, said after 'before it is'", () => {
    for (const [clause, tool, other] of [
      ["before it is loaded onto a truck", "load_crate", "weigh_crate"],
      ["before they are shipped out", "ship_crate", "weigh_crate"],
      ["when it is assigned a bay", "assign_bay", "weigh_crate"],
    ] as const) {
      for (const [effect, fired] of [["needs the depot lead's approval", "conditional"], ["needs a supervisor's sign-off", "conditional"]] as const) {
        const sentence = `Any crate heavier than 40 kg ${effect} ${clause}.`;
        it(sentence, () => {
          const set = one(sentence);
          expect([at(set, tool, { crate_id: "C1", weight_kg: 55 }), at(set, tool, { crate_id: "C1", weight_kg: 30 }), at(set, other, { crate_id: "C1", weight_kg: 55 })]).toEqual([fired, "approved", "approved"]);
        });
      }
    }
  });

  // "(the batch is scrapped after that)": a clause of its own in brackets at the end says why.
  // "must not be left unheated": what is left so is what is done.
  describe("a bracketed reason at the end, and 'left' before a participle", () => {
    for (const reason of [" (the batch is scrapped after that)", " (stock is written off once this happens)", ""]) {
      const sentence = `Proofing trays must not be left unheated for longer than 45 minutes${reason}.`;
      it(sentence, () => {
        const set = one(sentence);
        expect([at(set, "schedule_tray_unheat", { tray_id: "T1", duration_hours: 1 }), at(set, "schedule_tray_unheat", { tray_id: "T1", duration_hours: 0.5 })]).toEqual(["blocked", "approved"]);
      });
    }
  });

  // "Only dispatchers may void tickets": only that role may; others are blocked, other actions are not governed.
  describe("only a role may do it", () => {
    const roles: [written: string, value: string][] = [["dispatchers", "dispatcher"], ["a dispatcher", "dispatcher"], ["the shift supervisor", "shift supervisor"], ["admins", "admin"], ["a dispatcher — never a driver or a clerk —", "dispatcher"]];
    for (const [written, value] of roles) {
      for (const modal of ["may", "can", "are allowed to"]) {
        const sentence = `Only ${written} ${modal === "are allowed to" && written.startsWith("a") ? "is allowed to" : modal} void tickets.`;
        it(sentence, () => {
          const set = one(sentence);
          expect([
            at(set, "void_ticket", { ticket_id: "T1", actor_role: value.replace(/ /g, "_") }),
            at(set, "void_ticket", { ticket_id: "T1", actor_role: "driver" }),
            at(set, "issue_ticket", { ticket_id: "T1", actor_role: "driver" }),
          ]).toEqual(["approved", "blocked", "approved"]);
        });
      }
    }
    it("the people a business serves, and a qualification, are not read as a role", () => {
      const served = parseRule("Only gold customers may book suites");
      if (served.ok) expect(JSON.stringify(served.rule)).not.toContain('"role"');
      const qualified = parseRule("Only C2-licensed drivers may move tankers");
      if (qualified.ok) expect(JSON.stringify(qualified.rule)).not.toContain('"c2-licensed driver"');
    });
  });

  // "No more than three customs duty refund claims may be lodged per day": the things counted may take
  // several words before the verb.
  describe("a limit first on a long noun phrase", () => {
    for (const things of ["claims", "refund claims", "duty refund claims", "HMRC duty refund claims", "customs duty refund claims"]) {
      const sentence = `No more than three ${things} may be lodged per day.`;
      it(sentence, () => {
        const parsed = parseRule(sentence);
        if (!parsed.ok) throw new Error(parsed.error.message);
        expect(parsed.rule.when).toMatchObject({ kind: "rate", count: 3, window_seconds: 86_400 });
      });
    }
  });

  // "that start between 07:00 and 19:00 Paris time on a weekday": the day of the same start.
  describe("a day beside a time of the action's own", () => {
    const sentence = "Kiln firings that start between 07:00 and 19:00 Paris time on a weekday need sign-off.";
    it(sentence, () => {
      const set = one(sentence);
      const call = (start: string, now: string) => set.decide(prepareAction({ tool: "schedule_kiln_firing", args: { kiln_id: "K1", start_time: start }, now: new Date(now) })).decision;
      // A Wednesday 07:30 in Paris (summer time) checked on a Saturday; a Saturday start checked on a Wednesday.
      expect([call("2027-07-14T05:30:00Z", "2027-07-17T10:00:00Z"), call("2027-07-17T10:30:00Z", "2027-07-14T10:00:00Z"), call("2027-07-14T17:30:00Z", "2027-07-14T10:00:00Z")]).toEqual(["conditional", "approved", "approved"]);
    });
  });

  // "Catering orders", "Engineering possessions": a leading -ing word of no operation modifies the noun.
  describe("a leading -ing word that modifies its noun", () => {
    for (const [phrase, tool] of [["Engineering possessions", "request_possession"], ["Catering orders", "place_order"], ["Plumbing jobs", "schedule_job"]] as const) {
      const sentence = `${phrase} over 8 hours require approval.`;
      it(sentence, () => {
        const set = one(sentence);
        const cancel = tool.replace(/^[a-z]+/, "cancel");
        expect([at(set, tool, { ref: "R1", duration_hours: 9 }), at(set, tool, { ref: "R1", duration_hours: 7 }), at(set, cancel, { ref: "R1", duration_hours: 9 })]).toEqual(["conditional", "approved", "approved"]);
      });
    }
  });

  // "Any single fuel order", "each individual refund": the quantifier says what "any" says.
  describe("any single, each individual", () => {
    for (const q of ["Any single", "Each individual", "Every single", "Any one"]) {
      const sentence = `${q} fuel order over 40,000 kg needs the supervisor's approval.`;
      it(sentence, () => {
        const set = one(sentence);
        const call = (tool: string, kg: number) => set.decide(prepareAction({ tool, args: { flight: "F1", fuel_kg: kg }, params: ["flight", "fuel_kg", "fuel_type"], now: new Date() })).decision;
        expect([call("schedule_fuel_order", 52_000), call("schedule_fuel_order", 40_000), call("cancel_fuel_order", 52_000)]).toEqual(["conditional", "approved", "approved"]);
      });
    }
  });

  // "raise the rent of any flat by more than 8%", "rent increases over 8%": a change one way; "changes" either way.
  describe("the size of a change, and which way", () => {
    const call = (set: RuleSet, from: number, to: number) => set.decide(prepareAction({ tool: "update_rent", args: { flat_id: "F1", current_rent_gbp: from, new_rent_gbp: to }, now: new Date() })).decision;
    const up = ["Don't raise the rent of any flat by more than 8%.", "Block rent increases of more than 8%", "Rent hikes above 8% are forbidden", "Never increase the rent by over 8 percent"];
    const down = ["Don't cut the rent of any flat by more than 8%.", "Block rent decreases of more than 8%", "Never lower the rent by over 8 percent"];
    const either = ["Block rent changes greater than 8%", "Rent adjustments beyond 8% are forbidden"];
    for (const sentence of up) it(sentence, () => expect([call(one(sentence), 1000, 1100), call(one(sentence), 1000, 1080), call(one(sentence), 1000, 800)]).toEqual(["blocked", "approved", "approved"]));
    for (const sentence of down) it(sentence, () => expect([call(one(sentence), 1000, 800), call(one(sentence), 1000, 920), call(one(sentence), 1000, 1200)]).toEqual(["blocked", "approved", "approved"]));
    for (const sentence of either) it(sentence, () => expect([call(one(sentence), 1000, 800), call(one(sentence), 1000, 1200), call(one(sentence), 1000, 1050)]).toEqual(["blocked", "blocked", "approved"]));
    // A verb of change with a value and no "by" is about the value it sets.
    it("raising a setpoint above a value is about the setpoint", () => {
      const set = one("Raising a kiln's setpoint above 1200 °C needs approval");
      const at = (c: number) => set.decide(prepareAction({ tool: "set_kiln_setpoint", args: { kiln_id: "K1", setpoint_celsius: c }, now: new Date() })).decision;
      expect([at(1250), at(1100)]).toEqual(["conditional", "approved"]);
    });
  });

  // "to Laos, Belarus or Myanmar", "outside the UK": countries by name (CLDR's English names, through
  // Intl) against arguments that carry ISO codes, and codes in capitals against names.
  describe("countries by name or code", () => {
    const ship = (set: RuleSet, country: string) => set.decide(prepareAction({ tool: "book_freight", args: { crate_id: "C1", destination_country: country }, now: new Date() })).decision;
    for (const list of ["Laos, Belarus, Myanmar or Sudan", "Sudan, Myanmar, Belarus and Laos", "LA, BY, MM or SD", "Belarus, Laos, or Myanmar and Sudan"]) {
      for (const frame of [(x: string) => `Block freight bookings to ${x}.`, (x: string) => `Freight must never be booked to ${x}.`]) {
        const sentence = frame(list);
        it(sentence, () => {
          const set = one(sentence);
          expect(["LA", "BY", "MM", "SD", "Myanmar", "FR", "SS", "NO"].map((c) => ship(set, c))).toEqual(["blocked", "blocked", "blocked", "blocked", "blocked", "approved", "approved", "approved"]);
        });
      }
    }
    for (const [place, inside, outside] of [["the UK", ["GB", "United Kingdom"], ["FR", "IE"]], ["Norway", ["NO"], ["SE", "GB"]], ["the Netherlands", ["NL"], ["BE"]]] as const) {
      const sentence = `Freight must not be booked to customers outside ${place}.`;
      it(sentence, () => {
        const set = one(sentence);
        expect([...inside.map((c) => ship(set, c)), ...outside.map((c) => ship(set, c))]).toEqual([...inside.map(() => "approved"), ...outside.map(() => "blocked")]);
      });
    }
  });

  // "that include the cold store zone … beyond 30 days": a thing of several words the action
  // includes is a value it holds (a list argument counts), and a comparison after it is its own condition.
  describe("what the action includes, and a limit after it", () => {
    const params = ["holder_name", "valid_days", "zones"];
    const call = (set: RuleSet, days: number, zones: string[]) => set.decide(prepareAction({ tool: "issue_site_badge", args: { holder_name: "A B", valid_days: days, zones }, params, now: new Date() })).decision;
    for (const sentence of [
      "Site badges that include the cold store zone can't be granted for over 30 days.",
      "Site badges that include the cold store zone must not be valid for longer than 30 days",
    ]) {
      it(sentence, () => {
        const set = one(sentence);
        expect([call(set, 45, ["dock", "cold_store"]), call(set, 45, ["dock"]), call(set, 30, ["cold_store"])]).toEqual(["blocked", "approved", "approved"]);
      });
    }
  });

  // "on ground support equipment" and `equipment_id`: a phrase that only names the thing the tool acts on
  // is said of it when an identifier of such a thing is there. "planned for Saturday or Sunday": a
  // participle of planning alone is the action's own date, and so is every day listed after it.
  describe("the thing named, and days of the action's own date", () => {
    const params = ["equipment_id", "equipment_type", "service_date", "downtime_minutes"];
    const call = (set: RuleSet, date: string, now: string) => set.decide(prepareAction({ tool: "book_forklift_service", args: { equipment_id: "FL-0231", service_date: date, downtime_minutes: 60 }, params, now: new Date(now) })).decision;
    for (const sentence of [
      "Planned servicing on warehouse lifting equipment must never be planned for Saturday or Sunday.",
      "Servicing of warehouse lifting equipment must not be set for Saturday or Sunday",
      "Forklift servicing may not be booked for Saturday or Sunday",
    ]) {
      it(sentence, () => {
        const set = one(sentence);
        // A Saturday and a Sunday service booked on a Wednesday; a Monday service booked on a Saturday.
        expect([call(set, "2027-03-13", "2027-03-10T10:00:00Z"), call(set, "2027-03-14", "2027-03-10T10:00:00Z"), call(set, "2027-03-15", "2027-03-13T10:00:00Z")]).toEqual(["blocked", "blocked", "approved"]);
      });
    }
  });

  // "120 kg per hectare", "12 g/m²": a unit over another unit is one quantity, compared across units.
  describe("a unit over any unit", () => {
    for (const limit of ["120 kg per hectare", "120 kg/ha", "12 g per square metre"]) {
      for (const [key, over, at_, under] of [["rate_kg_per_ha", 130, 120, 100], ["rate_g_per_m2", 13, 12, 10]] as const) {
        const sentence = `Never spread fertiliser at more than ${limit}`;
        it(`${sentence} (${key})`, () => {
          const set = one(sentence);
          expect([over, at_, under].map((v) => at(set, "spread_fertiliser", { field_id: "F1", [key]: v }))).toEqual(["blocked", "approved", "approved"]);
        });
      }
    }
  });
});

// Shapes added in the twelfth session, each across surface forms, with calls on either side. Every example
// is our own.
describe("twelfth session: shapes that had lost their verb, their values or their sense", () => {
  // "Crates over 40 kg must not be lifted": the subject's conditions come first, the verb after the effect.
  describe("a passive verb after the subject's conditions is the action's verb", () => {
    const verbs = [["lifted", "lift_crate", "weigh_crate"], ["stacked", "stack_crate", "label_crate"]] as const;
    for (const [verb, tool, other] of verbs) {
      for (const frame of [
        (v: string) => `Crates over 40 kg must not be ${v}.`,
        (v: string) => `Crates heavier than 40 kg may never be ${v}`,
        (v: string) => `No crate over 40 kg may be ${v}.`,
        (v: string) => `Crates weighing more than 40 kilograms can't be ${v}`,
      ]) {
        const sentence = frame(verb);
        it(sentence, () =>
          decide(sentence, [
            [tool, { crate_id: "C-1", weight_kg: 41 }, "blocked"],
            [tool, { crate_id: "C-1", weight_kg: 40 }, "approved"],
            // The same crate, another operation: the verb narrows the rule to its own.
            [other, { crate_id: "C-1", weight_kg: 41 }, "approved"],
          ]),
        );
      }
    }
    it("each participle of a list is a verb of the action", () =>
      decide("Kegs older than 30 days may not be tapped or sold.", [
        ["tap_keg", { keg_id: "K-1", age_days: 31 }, "blocked"],
        ["sell_keg", { keg_id: "K-1", age_days: 31 }, "blocked"],
        ["tap_keg", { keg_id: "K-1", age_days: 30 }, "approved"],
      ]));
  });

  // "stronger than", "louder than": any comparative the tagger reads, its direction from its base.
  describe("any comparative before 'than'", () => {
    for (const [phrase, op] of [["stronger than", "gt"], ["louder than", "gt"], ["steeper than", "gt"], ["weaker than", "lt"], ["milder than", "lt"], ["thinner than", "lt"]] as const) {
      it(phrase, () =>
        forEachFrame((frame, fired) =>
          decide(frame(`kite launches in gusts ${phrase} 20 knots`), [
            ["launch_kite", { gust_knots: 25 }, op === "gt" ? fired : "approved"],
            ["launch_kite", { gust_knots: 20 }, "approved"],
            ["launch_kite", { gust_knots: 15 }, op === "lt" ? fired : "approved"],
          ]),
        ),
      );
    }
  });

  // "less than 3 km from the depot": a length from a place is the distance to it, in any unit.
  describe("a length from a place names the distance", () => {
    for (const [limit, near, far] of [["3 km", 2.9, 3.1], ["2 nautical miles", 3.6, 3.8], ["2 miles", 3.2, 3.3]] as const) {
      for (const sentence of [`Block drone drops less than ${limit} from the airfield.`, `Drone drops are forbidden while the drone is less than ${limit} from an airfield`, `Require approval for drone drops within ${limit} of the airfield`]) {
        it(sentence, () => {
          const fired = sentence.startsWith("Require") ? "conditional" : "blocked";
          decide(sentence, [
            ["schedule_drone_drop", { parcel_id: "P-1", distance_to_airfield_km: near }, fired],
            ["schedule_drone_drop", { parcel_id: "P-1", distance_to_airfield_km: far }, "approved"],
          ]);
        });
      }
    }
  });

  // "fine", "OK": words that allow only as a predicate modify a noun after them.
  it("a predicate-only allow word before a noun is a modifier", () => {
    for (const sentence of ["Fine reductions over $40 need a supervisor's approval", "Fine reductions of more than $40 require sign-off"]) {
      decide(sentence, [
        ["reduce_fine", { ticket_id: "T-1", amount_cents: 4500 }, "conditional"],
        ["reduce_fine", { ticket_id: "T-1", amount_cents: 4000 }, "approved"],
      ]);
    }
  });

  // "X may be done without approval only when C": outside C, X needs approval.
  describe("without approval only when", () => {
    for (const sentence of [
      "Rebookings may be made without approval only when the fee is under $30.",
      "Rebookings can only be made without a manager's approval if the fee is below $30",
      "Rebookings may go ahead without sign-off only when the fee is less than 30 dollars",
    ]) {
      it(sentence, () =>
        decide(sentence, [
          ["rebook_seat", { booking_id: "B-1", fee: 45 }, "conditional"],
          ["rebook_seat", { booking_id: "B-1", fee: 30 }, "conditional"],
          ["rebook_seat", { booking_id: "B-1", fee: 20 }, "approved"],
          ["cancel_seat", { booking_id: "B-1", fee: 45 }, "approved"],
        ]),
      );
    }
  });

  // "the cause is corroded, cracked or leaking": each state of the list is a fact; the list joins them.
  describe("a list of states after a copula", () => {
    for (const [list, hits] of [["corroded, cracked or leaking", ["corroded", "cracked", "leaking"]], ["worn or loose", ["worn", "loose"]]] as const) {
      for (const frame of [(l: string) => `Block pipe sign-offs when the defect is ${l}.`, (l: string) => `Pipe sign-offs are forbidden if the defect is ${l}`]) {
        const sentence = frame(list);
        it(sentence, () =>
          decide(sentence, [
            ...hits.map((h): Probe => ["sign_off_pipe", { pipe_id: "P-1", defect: h }, "blocked"]),
            ["sign_off_pipe", { pipe_id: "P-1", defect: "cosmetic" }, "approved"],
          ]),
        );
      }
    }
    it("an exception that lists states", () =>
      decide("Block scrapping pallets unless they are broken, rotten or rarely used.", [
        ["scrap_pallet", { pallet_id: "PL-1", condition: "broken" }, "approved"],
        ["scrap_pallet", { pallet_id: "PL-1", condition: "rotten" }, "approved"],
        ["scrap_pallet", { pallet_id: "PL-1", condition: "good" }, "blocked"],
      ]));
  });

  // "… from the mechanic on duty": the phrase saying which approver is the approver's, not a condition.
  it("an approver's own phrase ends the sentence", () => {
    for (const who of ["the mechanic on duty", "the head of maintenance", "the engineer in charge"]) {
      decide(`Engine swaps need sign-off from ${who}.`, [
        ["schedule_engine_swap", { bus_id: "B-7" }, "conditional"],
        ["schedule_brake_check", { bus_id: "B-7" }, "approved"],
      ]);
    }
  });

  // "whose grade is listed as heavily contaminated": the class is a value of the action, wherever it is held.
  it("a participle with 'as' gives the class", () => {
    for (const verb of ["listed", "classified", "recorded"]) {
      decide(`Require approval for disposals of soil whose batch is ${verb} as heavily contaminated.`, [
        ["dispose_soil", { batch_id: "S-1", contamination_class: "heavily_contaminated" }, "conditional"],
        ["dispose_soil", { batch_id: "S-1", contamination_class: "lightly_contaminated" }, "approved"],
      ]);
    }
  });

  // "…, because the ground is soft": a clause saying why is no part of the rule.
  it("a clause that says why is dropped", () => {
    for (const why of [", because the ground is soft then", " because wet turf tears", ", since the pitch needs rest after it"]) {
      decide(`Block mowing when rainfall is above 10 mm${why}.`, [
        ["schedule_mowing", { pitch_id: "P-2", rainfall_mm: 12 }, "blocked"],
        ["schedule_mowing", { pitch_id: "P-2", rainfall_mm: 8 }, "approved"],
      ]);
    }
  });

  // "fewer than 14 days before the handover": the time between the action's own date and another date it
  // carries; with a count of days instead ("days_since_purchase"), the count.
  describe("a time before or after another date of the action", () => {
    for (const [sentence, op] of [
      ["Block repaints scheduled fewer than 14 days before the handover date.", "lt"],
      ["Repaints booked less than two weeks before handover are forbidden", "lt"],
      ["Block repaints scheduled more than 14 days after the handover.", "gt-after"],
    ] as const) {
      it(sentence, () => {
        const call = (own: string, other: string) => ["book_repaint", { unit_id: "U-1", repaint_date: own, handover_date: other }, "approved"] as Probe;
        const fired = (p: Probe): Probe => [p[0], p[1], "blocked"];
        if (op === "lt") decide(sentence, [fired(call("2027-05-01", "2027-05-10")), call("2027-04-26", "2027-05-10"), call("2027-04-01", "2027-05-10")]);
        else decide(sentence, [fired(call("2027-06-01", "2027-05-10")), call("2027-05-24", "2027-05-10"), call("2027-05-01", "2027-05-10")]);
      });
    }
    it("a count of days stands for the two dates", () =>
      decide("Block returns requested over 45 days after delivery.", [
        ["request_return", { order_id: "O-1", days_since_delivery: 46 }, "blocked"],
        ["request_return", { order_id: "O-1", days_since_delivery: 45 }, "approved"],
        ["request_return", { order_id: "O-1", delivery_date: "2027-01-01", request_date: "2027-02-20" }, "blocked"],
        ["request_return", { order_id: "O-1", delivery_date: "2027-01-01", request_date: "2027-02-15" }, "approved"],
      ]));
  });

  // "shut-offs", a compound the lexicon names with another word, names a tool by that word with a verb too.
  it("a hyphenated compound with a sense names its tool", () =>
    decide("Block scheduling shut-offs for unpaid bills.", [
      ["schedule_disconnection", { account_number: "9000000001", reason: "unpaid_bills" }, "blocked"],
      ["schedule_meter_reading", { account_number: "9000000001", reason: "unpaid_bills" }, "approved"],
    ]));

  // "Seedling trays must not be stored colder than 41 °F" and `log_tray {storage_temp_c}`: a verb the tool does not
  // do but records about the thing (an argument named by it) still names the tool.
  it("a verb an argument records names the tool", () =>
    decide("Seedling trays must not be stored colder than 41 °F.", [
      ["log_tray", { tray_id: "T-1", storage_temp_c: 4 }, "blocked"],
      ["log_tray", { tray_id: "T-1", storage_temp_c: 5 }, "approved"],
      ["water_tray", { tray_id: "T-1", litres: 4 }, "approved"],
    ]));

  // "Only X that C may be Y-ed": X outside C is blocked, as "X may only be Y-ed when C".
  describe("'only' before the things done to", () => {
    for (const sentence of ["Only kiln firings that start between 07:00 and 15:00 UTC may be booked.", "Only kiln firings which start between 07:00 and 15:00 UTC can be booked", "Kiln firings may only be booked when they start between 07:00 and 15:00 UTC."]) {
      it(sentence, () =>
        decide(sentence, [
          ["book_kiln_firing", { kiln_id: "K-2", shift_start_utc: "16:30" }, "blocked"],
          ["book_kiln_firing", { kiln_id: "K-2", shift_start_utc: "08:00" }, "approved"],
          ["book_kiln_firing", { kiln_id: "K-2", shift_start_utc: "2027-03-02T08:00:00Z" }, "approved"],
          ["book_kiln_firing", { kiln_id: "K-2", shift_start_utc: "2027-03-02T06:00:00Z" }, "blocked"],
          ["log_kiln_reading", { kiln_id: "K-2", shift_start_utc: "16:30" }, "approved"],
        ]),
      );
    }
    // Words after the verb say which of those actions the kinds alone may have; others are blocked from it.
    for (const sentence of ["Only boxes under 5 kg may be posted by courier.", "Only boxes that weigh under 5 kg can be posted by courier"]) {
      it(sentence, () =>
        decide(sentence, [
          ["post_box", { weight_kg: 7, method: "courier" }, "blocked"],
          ["post_box", { weight_kg: 5, method: "courier" }, "blocked"],
          ["post_box", { weight_kg: 3, method: "courier" }, "approved"],
          ["post_box", { weight_kg: 7, method: "standard" }, "approved"],
          ["track_box", { weight_kg: 7, method: "courier" }, "approved"],
        ]),
      );
    }
  });

  // "may not include over six rooms", "may use more than 20 kg": a verb of having before an amount.
  describe("a verb of having before an amount", () => {
    for (const sentence of ["A single booking may not include over six rooms.", "Bookings may not contain more than six rooms", "No booking may have more than 6 rooms."]) {
      it(sentence, () =>
        decide(sentence, [
          ["create_booking", { guest_id: "G-1", room_count: 7 }, "blocked"],
          ["create_booking", { guest_id: "G-1", room_count: 6 }, "approved"],
          ["print_badge", { guest_id: "G-1", copies: 9 }, "approved"],
        ]),
      );
    }
  });

  // "on a Tuesday, Wednesday or Friday": one list of days, however the commas and articles fall.
  describe("a list of days with commas", () => {
    for (const days of ["Tuesday, Wednesday or Friday", "a Tuesday, a Wednesday, or a Friday", "Tuesdays, Wednesdays and Fridays"]) {
      it(days, () =>
        decide(`Block bin collections scheduled on ${days}.`, [
          ["schedule_bin_collection", { street_id: "S-1", collection_date: "2027-03-02" }, "blocked"],
          ["schedule_bin_collection", { street_id: "S-1", collection_date: "2027-03-03" }, "blocked"],
          ["schedule_bin_collection", { street_id: "S-1", collection_date: "2027-03-05" }, "blocked"],
          ["schedule_bin_collection", { street_id: "S-1", collection_date: "2027-03-04" }, "approved"],
        ]),
      );
    }
  });

  // "Night crews must not pump salted water …": who acts, even when the tagger reads the first word as a
  // name and the object opens with a participle.
  it("an actor before a participle-led object", () =>
    decide("Night crews must not pump salted water to a river unless the salinity is below 2 g/L.", [
      ["pump_water", { site_id: "S-1", destination: "river", salinity_g_per_l: 3 }, "blocked"],
      ["pump_water", { site_id: "S-1", destination: "river", salinity_g_per_l: 1 }, "approved"],
      ["log_water_sample", { site_id: "S-1", salinity_g_per_l: 3 }, "approved"],
    ]));

  // "on a Friday or Saturday, Pacific Time": the zone set off by a comma is the days' zone.
  it("a zone after a comma", () =>
    decide("Block pre-sale openings scheduled on a Friday or Saturday, Pacific Time.", [
      // Friday 20:00 UTC; Sunday 05:00 UTC is still Saturday in Los Angeles; Sunday 15:00 UTC is Sunday there.
      ["schedule_presale", { show_id: "S-1", opens_at: "2027-03-05T20:00:00Z" }, "blocked"],
      ["schedule_presale", { show_id: "S-1", opens_at: "2027-03-07T05:00:00Z" }, "blocked"],
      ["schedule_presale", { show_id: "S-1", opens_at: "2027-03-07T15:00:00Z" }, "approved"],
    ]));

  // "Only charge nurses may be assigned to shifts over 12 hours": the post belongs to the person the
  // action is done to; others are blocked from such actions, other actions are not governed.
  describe("only a post may be done to", () => {
    for (const sentence of [
      "Only charge nurses may be assigned to shifts over 12 hours.",
      "Only charge nurses can be rostered onto shifts of more than 720 minutes",
      "Only charge nurses may be allocated to shifts longer than twelve hours.",
    ]) {
      it(sentence, () =>
        decide(sentence, [
          ["assign_ward_shift", { nurse_id: "N-1", shift_length_minutes: 780, role: "staff_nurse" }, "blocked"],
          ["assign_ward_shift", { nurse_id: "N-1", shift_length_minutes: 780, role: "charge_nurse" }, "approved"],
          ["assign_ward_shift", { nurse_id: "N-1", shift_length_minutes: 720, role: "staff_nurse" }, "approved"],
          // Another assignment, with a length of its own, is no assignment to a shift.
          ["assign_locker", { nurse_id: "N-1", rental_minutes: 800, role: "staff_nurse" }, "approved"],
        ]),
      );
    }
    it("the people a business serves are no post", () => {
      const parsed = parseRule("Only gold customers may be upgraded to suites longer than 3 nights.");
      if (parsed.ok) expect(restate(parsed.rule)).not.toMatch(/role is/);
    });
  });

  // "Rota changes", "timetable updates": a noun of an operation before a noun of change is what is changed.
  describe("a noun of change after an operation's noun", () => {
    for (const [sentence, fired] of [
      ["Rota changes that move more than 12 nurses need the matron's approval.", "conditional"],
      ["Block rota updates that move more than 12 nurses", "blocked"],
      ["Rota amendments for more than 12 nurses are forbidden.", "blocked"],
    ] as const) {
      it(sentence, () =>
        decide(sentence, [
          ["bulk_update_rota", { ward_id: "W-1", nurse_count: 13 }, fired],
          ["bulk_update_rota", { ward_id: "W-1", nurse_count: 12 }, "approved"],
          ["assign_rota_slot", { ward_id: "W-1", nurse_count: 13 }, "approved"],
        ]),
      );
    }
    it("a verb before the noun of change stays the operation", () =>
      decide("Never approve changes to the live rota.", [
        ["approve_change", { change_id: "C-1", target: "live_rota" }, "blocked"],
        ["update_rota", { change_id: "C-1", target: "live_rota" }, "approved"],
      ]));
  });

  // `days_since_opened`, `hours_live`: an argument whose name opens with its unit.
  describe("a unit at the start of an argument's name", () => {
    for (const [sentence, key, over, at_] of [
      ["Do not restock a jar opened more than 8 weeks ago.", "days_since_opened", 57, 56],
      ["Block restocking jars open for longer than a week.", "days_open", 8, 7],
      ["Restocking any jar that has stood open over a day needs the head chef's sign-off.", "hours_open", 25, 24],
    ] as const) {
      it(sentence, () => {
        const fired = sentence.includes("sign-off") ? "conditional" : "blocked";
        decide(sentence, [
          ["restock_jar", { jar_id: "J-1", [key]: over }, fired],
          ["restock_jar", { jar_id: "J-1", [key]: at_ }, "approved"],
        ]);
      });
    }
  });

  // "the managing editor", "an acting director": a word in -ing before the approver's noun is part of it.
  it("an approver named with a word in -ing", () => {
    for (const who of ["the managing chef's approval", "sign-off from the acting director", "the supervising nurse's sign-off"]) {
      decide(`Restocking jars needs ${who}.`, [
        ["restock_jar", { jar_id: "J-1" }, "conditional"],
        ["label_jar", { jar_id: "J-1" }, "approved"],
      ]);
    }
  });

  // "above 90% of rated load": a share of another argument; a tool that states the share itself (or
  // lacks either amount) is compared by the share.
  describe("a share of another argument", () => {
    for (const sentence of ["Crane lifts above 90% of rated load are prohibited.", "Block crane lifts of more than 90% of the rated load", "Crane lifts exceeding 90 percent of their rated load are forbidden."]) {
      it(sentence, () =>
        decide(sentence, [
          ["plan_crane_lift", { crane_id: "CR-1", lift_kg: 9100, rated_load_kg: 10000 }, "blocked"],
          ["plan_crane_lift", { crane_id: "CR-1", lift_kg: 9000, rated_load_kg: 10000 }, "approved"],
          ["plan_crane_lift", { crane_id: "CR-1", load_percent: 95 }, "blocked"],
          ["plan_crane_lift", { crane_id: "CR-1", load_percent: 85 }, "approved"],
        ]),
      );
    }
  });

  // "more than 300 days after they were harvested", "before the band's start time": the other date named by
  // a participle after a pronoun, or by a possessive and a noun.
  it("the other date by a participle or a possessive", () => {
    decide("Seed lots must not be sown more than 300 days after they were harvested.", [
      ["sow_seed_lot", { lot_id: "L-1", harvested_on: "2027-01-01", sow_date: "2027-11-01" }, "blocked"],
      ["sow_seed_lot", { lot_id: "L-1", harvested_on: "2027-01-01", sow_date: "2027-06-01" }, "approved"],
    ]);
    decide("Gates must not be opened over two hours ahead of the band's start time.", [
      ["schedule_gates", { gates_open_at: "2027-06-14T17:30:00+01:00", band_start_at: "2027-06-14T20:00:00+01:00" }, "blocked"],
      ["schedule_gates", { gates_open_at: "2027-06-14T18:30:00+01:00", band_start_at: "2027-06-14T20:00:00+01:00" }, "approved"],
    ]);
  });

  // "with one or more damaged cartons": a count in words with its bound after it.
  it("one or more", () =>
    decide("Block shipment releases with one or more damaged cartons.", [
      ["release_shipment", { shipment_id: "S-1", damaged_cartons: 1 }, "blocked"],
      ["release_shipment", { shipment_id: "S-1", damaged_cartons: 0 }, "approved"],
    ]));
});

// Shapes added in the thirteenth session, each across surface forms, with calls on either side. Every example
// is our own.
describe("thirteenth session: limits on things done, kinds and posts that alone may, shared subjects, modes and own times", () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const NOW = new Date("2027-03-02T12:00:00Z");
  /** A call after `earlier` calls of `previous` (by default the same tool): spread inside the window before now, or all just before it. */
  const afterEarlier = (set: RuleSet, tool: string, args: Record<string, unknown>, earlier: number, windowMs: number, opts: { outside?: boolean; previous?: string } = {}) => {
    const history = Array.from({ length: earlier }, (_, i) => ({
      tool: opts.previous ?? tool,
      at: new Date(NOW.getTime() - (opts.outside ? windowMs + (i + 1) * 60_000 : ((i + 1) * windowMs) / (earlier + 1))),
    }));
    return set.decide(prepareAction({ tool, args, now: NOW, history })).decision;
  };

  // "No more than 3 sauna sessions each day can be booked": a rate on the actions the passive verb names.
  describe("a limit on things a passive verb is done to", () => {
    const PERIODS = [["a day", DAY], ["per hour", HOUR], ["each week", 7 * DAY]] as const;
    const THINGS = [
      ["sauna sessions", "booked", "book_sauna_session", "cancel_sauna_session"],
      ["telescope slots", "reserved", "reserve_telescope_slot", "release_telescope_slot"],
      ["balloon flights", "launched", "launch_balloon_flight", "log_balloon_flight"],
      ["bell castings", "poured", "pour_bell_casting", "inspect_bell_casting"],
    ] as const;
    const COUNTS = [[3, "three"], [5, "5"], [2, "two"], [4, "four"]] as const;
    const FRAMES: ((n: string, things: string, per: string, done: string) => string)[] = [
      (n, things, per, done) => `No more than ${n} ${things} ${per} may be ${done}.`,
      (n, things, per, done) => `At most ${n} ${things} ${per} can be ${done}`,
      (n, things, per, done) => `Up to ${n} ${things} ${per} may be ${done}`,
      (n, things, per, done) => `A maximum of ${n} ${things} ${per} are allowed to be ${done}.`,
      (n, things, per, done) => `No more than ${n} ${things} may be ${done} ${per}`,
    ];
    FRAMES.forEach((frame, f) =>
      PERIODS.forEach(([per, windowMs], p) => {
        const [things, done, tool, other] = THINGS[(f + p) % THINGS.length]!;
        const [n, written] = COUNTS[(f + 2 * p) % COUNTS.length]!;
        const sentence = frame(written, things, per, done);
        it(sentence, () => {
          const set = ruleSetOf(sentence);
          expect([
            afterEarlier(set, tool, {}, n, windowMs),
            afterEarlier(set, tool, {}, n - 1, windowMs),
            // As many earlier, but before the window: not counted.
            afterEarlier(set, tool, {}, n, windowMs, { outside: true }),
            // Another operation on the same things, after as many of the limited ones.
            afterEarlier(set, other, {}, n, windowMs, { previous: tool }),
          ]).toEqual(["blocked", "approved", "approved", "approved"]);
        });
      }),
    );

    // Words after the verb narrow the limit to the actions they describe.
    it("words after the participle", () => {
      const set = ruleSetOf("A maximum of five seed samples each week can be withdrawn from the vault");
      const week = 7 * DAY;
      expect([
        afterEarlier(set, "withdraw_seed_sample", { source: "vault" }, 5, week),
        afterEarlier(set, "withdraw_seed_sample", { source: "vault" }, 4, week),
        afterEarlier(set, "withdraw_seed_sample", { source: "field_store" }, 5, week),
        afterEarlier(set, "catalogue_seed_sample", { source: "vault" }, 5, week, { previous: "withdraw_seed_sample" }),
      ]).toEqual(["blocked", "approved", "approved", "approved"]);
    });

    // "in a single request", "per order": a count on each action, not a rate.
    for (const [sentence, tool, key, other] of [
      ["No more than 4 puppets can be hired in a single request", "hire_puppet", "puppet_count", "repair_puppet"],
      ["At most four puppets may be hired per order", "hire_puppet", "quantity", "repair_puppet"],
      ["Up to 4 puppets can be hired per request.", "hire_puppet", "puppet_count", "repair_puppet"],
      ["A maximum of 4 bell ropes may be ordered in a single order.", "order_bell_rope", "quantity", "splice_bell_rope"],
      ["No more than four bell ropes can be ordered per order", "order_bell_rope", "rope_count", "splice_bell_rope"],
    ] as const) {
      it(sentence, () =>
        decide(sentence, [
          [tool, { [key]: 5 }, "blocked"],
          [tool, { [key]: 4 }, "approved"],
          [tool, { [key]: 1 }, "approved"],
          [other, { [key]: 5 }, "approved"],
        ]),
      );
    }

    // "Stargazers may reserve no more than 2 telescope slots per day": a permission up to a limit is the same rate.
    for (const [sentence, tool, other, n, windowMs] of [
      ["Stargazers may reserve no more than 2 telescope slots per day", "reserve_telescope_slot", "release_telescope_slot", 2, DAY],
      ["Visitors can book at most three sauna sessions a day.", "book_sauna_session", "cancel_sauna_session", 3, DAY],
      ["Pilots may launch up to 4 balloon flights each week", "launch_balloon_flight", "log_balloon_flight", 4, 7 * DAY],
      ["Curators may withdraw a maximum of 5 seed samples per hour.", "withdraw_seed_sample", "catalogue_seed_sample", 5, HOUR],
      ["Guests are allowed to book no more than three sauna sessions per day", "book_sauna_session", "cancel_sauna_session", 3, DAY],
    ] as const) {
      it(sentence, () => {
        const set = ruleSetOf(sentence);
        expect([
          afterEarlier(set, tool, {}, n, windowMs),
          afterEarlier(set, tool, {}, n - 1, windowMs),
          afterEarlier(set, tool, {}, n, windowMs, { outside: true }),
          afterEarlier(set, other, {}, n, windowMs, { previous: tool }),
        ]).toEqual(["blocked", "approved", "approved", "approved"]);
      });
    }
  });

  // "Only annual and lifetime memberships may be issued for longer than 30 days": other kinds are blocked from
  // what the words after the verb say; "Only bells under 2 tonnes may be hung in the north tower": things
  // outside the condition are blocked from it.
  describe("only some kinds of things may be done to, as the words after say", () => {
    for (const [sentence, kinds] of [
      ["Only annual and lifetime memberships may be issued for longer than 30 days", ["annual", "lifetime"]],
      ["Only annual or lifetime memberships can be issued for longer than 30 days.", ["annual", "lifetime"]],
      ["Only annual and lifetime memberships may be issued for longer than a month", ["annual", "lifetime"]],
      ["Only season and annual memberships can be issued for over 30 days", ["season", "annual"]],
    ] as const) {
      it(sentence, () =>
        decide(sentence, [
          ["issue_sauna_membership", { member_id: "M-1", membership_type: "day", duration_days: 40 }, "blocked"],
          ...kinds.map((k): Probe => ["issue_sauna_membership", { member_id: "M-1", membership_type: k, duration_days: 40 }, "approved"]),
          ["issue_sauna_membership", { member_id: "M-1", membership_type: "day", duration_days: 20 }, "approved"],
          ["revoke_sauna_membership", { member_id: "M-1", membership_type: "day", duration_days: 40 }, "approved"],
        ]),
      );
    }
    for (const sentence of [
      "Only bells under 2 tonnes may be hung in the north tower",
      "Only bells that weigh under 2 tonnes can be hung in the north tower.",
      "Only bells below 2000 kg can be hung in the north tower",
      "Only bells which weigh under 2 t may be hung in the north tower.",
    ]) {
      it(sentence, () =>
        decide(sentence, [
          ["hang_bell", { bell_id: "B-1", weight_kg: 2500, tower: "north" }, "blocked"],
          ["hang_bell", { bell_id: "B-1", weight_kg: 1500, tower: "north" }, "approved"],
          ["hang_bell", { bell_id: "B-1", weight_kg: 2500, tower: "south" }, "approved"],
          ["tune_bell", { bell_id: "B-1", weight_kg: 2500, tower: "north" }, "approved"],
        ]),
      );
    }
    for (const sentence of ["Only balloons under 300 kg may be launched from the roof", "Only balloons that weigh under 300 kg can be launched from the roof."]) {
      it(sentence, () =>
        decide(sentence, [
          ["launch_balloon", { balloon_id: "G-1", weight_kg: 400, launch_site: "roof" }, "blocked"],
          ["launch_balloon", { balloon_id: "G-1", weight_kg: 200, launch_site: "roof" }, "approved"],
          ["launch_balloon", { balloon_id: "G-1", weight_kg: 400, launch_site: "meadow" }, "approved"],
        ]),
      );
    }
  });

  // "Seed samples may only be released by curators": the post of whoever asks; others are blocked.
  describe("things that may be done only by some posts", () => {
    for (const [sentence, tool, other, allowed, refused] of [
      ["Seed samples may only be released by curators", "release_seed_sample", "catalogue_seed_sample", ["curator"], ["volunteer", "botanist"]],
      ["Seed samples can be released only by a curator, a botanist or a lab manager", "release_seed_sample", "catalogue_seed_sample", ["curator", "botanist", "lab_manager"], ["volunteer", "head_gardener"]],
      ["Seed samples may be released only by the head curator or a lab manager.", "release_seed_sample", "catalogue_seed_sample", ["head_curator", "lab_manager"], ["botanist", "volunteer"]],
      ["Telescope slots may only be booked by duty astronomers or visiting observers", "book_telescope_slot", "release_telescope_slot", ["duty_astronomer", "visiting_observer"], ["tour_guide"]],
      ["Telescope slots can be booked only by a duty astronomer.", "book_telescope_slot", "release_telescope_slot", ["duty_astronomer"], ["visiting_observer", "tour_guide"]],
    ] as const) {
      it(sentence, () => {
        for (const key of ["requester_role", "user_role"]) {
          decide(sentence, [
            ...allowed.map((r): Probe => [tool, { item_id: "X-1", [key]: r }, "approved"]),
            ...refused.map((r): Probe => [tool, { item_id: "X-1", [key]: r }, "blocked"]),
            // Who asks unsaid: fail closed.
            [tool, { item_id: "X-1" }, "blocked"],
            [other, { item_id: "X-1", [key]: refused[0] }, "approved"],
          ]);
        }
      });
    }
    // "may only be approved by a duty astronomer": whoever approves is the approver, not a post that acts.
    for (const [sentence, tool, post, other, elsewhere] of [
      ["Telescope bookings may only be approved by a duty astronomer", "book_telescope", "duty_astronomer", "visitor", "clean_telescope"],
      ["Seed sample releases can only be approved by the head curator.", "release_seed_sample", "head_curator", "volunteer", "catalogue_seed_sample"],
    ] as const) {
      it(sentence, () => {
        const parsed = parseRule(sentence);
        if (!parsed.ok) throw new Error(parsed.error.message);
        expect(parsed.rule.effect).toBe("require_approval");
        expect(restate(parsed.rule)).not.toMatch(/role is/);
        decide(sentence, [
          [tool, { item_id: "X-1", requester_role: post }, "conditional"],
          [tool, { item_id: "X-1", requester_role: other }, "conditional"],
          [elsewhere, { item_id: "X-1", requester_role: other }, "approved"],
        ]);
      });
    }
  });

  // "Bells may only be tuned in the foundry and must never be rung in the yard": the second modal clause
  // shares the subject and is a rule of its own.
  describe("two modal clauses sharing a subject", () => {
    for (const [text, first, second] of [
      ["Bells may only be tuned in the foundry and must never be rung in the yard.", ["tune_bell", "foundry", "yard"], ["ring_bell", "yard", "tower"]],
      ["Seed samples can only be opened in the clean room and must not be dried in the greenhouse.", ["open_seed_sample", "clean_room", "greenhouse"], ["dry_seed_sample", "greenhouse", "drying_room"]],
    ] as const) {
      it(text, () => {
        const clauses = splitClauses(text);
        expect(clauses).toHaveLength(2);
        const [one, two] = clauses.map((c) => ruleSetOf(c));
        const at = (set: RuleSet, tool: string, location: string) => set.decide(prepareAction({ tool, args: { item_id: "X-1", location }, now: NOW })).decision;
        // The first clause: only where it says.
        expect([at(one!, first[0], first[1]), at(one!, first[0], first[2])]).toEqual(["approved", "blocked"]);
        // The second: its own verb at its own place, not the first verb there.
        expect([at(two!, second[0], second[1]), at(two!, second[0], second[2]), at(two!, first[0], second[1])]).toEqual(["blocked", "approved", "approved"]);
      });
    }
  });

  // "while the telescope is in maintenance mode": the state of a thing, an argument named by both words.
  describe("a thing in a mode, state, status or phase", () => {
    const THINGS = [
      { doing: "opening the dome", verb: "open the dome", nouns: "dome openings", tool: "open_dome", other: "close_dome", thing: "telescope", value: "maintenance", another: "observing" },
      { doing: "opening the seed vault", verb: "open the seed vault", nouns: "seed vault openings", tool: "open_seed_vault", other: "close_seed_vault", thing: "freezer", value: "defrost", another: "cooling" },
      { doing: "launching balloons", verb: "launch balloons", nouns: "balloon launches", tool: "launch_balloon", other: "inflate_balloon", thing: "burner", value: "standby", another: "running" },
    ];
    const FRAMES: [frame: (t: (typeof THINGS)[number], word: string) => string, fired: Expect, at: "value" | "another"][] = [
      [(t, word) => `Block ${t.doing} while the ${t.thing} is in ${t.value} ${word}`, "blocked", "value"],
      [(t, word) => `${capital(t.nouns)} are allowed only when the ${t.thing} is in ${t.value} ${word}.`, "blocked", "another"],
      [(t, word) => `Never ${t.verb} when the ${t.thing} is not in ${t.value} ${word}`, "blocked", "another"],
      [(t, word) => `Require approval for ${t.doing} when the ${t.thing} is in ${t.value} ${word}.`, "conditional", "value"],
    ];
    FRAMES.forEach(([frame, fired, firesAt], f) =>
      ["mode", "state", "status", "phase"].forEach((word, w) => {
        const t = THINGS[(f + w) % THINGS.length]!;
        const sentence = frame(t, word);
        const key = `${t.thing}_${word}`;
        it(sentence, () =>
          decide(sentence, [
            [t.tool, { [key]: t.value }, firesAt === "value" ? fired : "approved"],
            [t.tool, { [key]: t.another }, firesAt === "another" ? fired : "approved"],
            [t.other, { [key]: firesAt === "value" ? t.value : t.another }, "approved"],
          ]),
        );
      }),
    );
  });

  // "Never schedule balloon flights outside 08:00-18:00": the hours of the flight, not of the call.
  describe("a window after a verb of planning is the planned thing's own time", () => {
    // [rule, tool, argument, [start, now] inside, [start, now] outside]: each `now` on the other side.
    const cases: [string, string, string, [string, string], [string, string]][] = [
      ["Never schedule balloon flights outside 08:00-18:00", "schedule_balloon_flight", "departure_time", ["2027-05-04T19:00:00Z", "2027-05-04T12:00:00Z"], ["2027-05-04T09:00:00Z", "2027-05-04T20:00:00Z"]],
      ["Do not schedule balloon flights outside 08:00 to 17:30.", "schedule_balloon_flight", "launch_at", ["2027-05-04T07:00:00Z", "2027-05-04T12:00:00Z"], ["2027-05-04T17:00:00Z", "2027-05-04T05:00:00Z"]],
      // Berlin in January is UTC+1: 21:30Z is 22:30 there; 23:00Z is midnight.
      ["Do not book sauna sessions between 21:45 and 06:00 local time (Europe/Paris)", "book_sauna_session", "start_time", ["2027-01-12T21:30:00Z", "2027-01-12T12:00:00Z"], ["2027-01-12T19:30:00Z", "2027-01-12T23:00:00Z"]],
      // In July UTC+2: 20:30Z is 22:30, 04:30Z is 06:30 (at UTC+1 they would be 21:30 and 05:30).
      ["Do not book sauna sessions between 21:45 and 06:00 local time (Europe/Paris).", "book_sauna_session", "session_start", ["2027-07-13T20:30:00Z", "2027-07-13T12:00:00Z"], ["2027-07-14T04:30:00Z", "2027-07-13T23:00:00Z"]],
      // New York in January is UTC-5: 03:30Z is 22:30 the evening before; in July UTC-4: 02:30Z is 22:30, 10:30Z is 06:30.
      ["Do not book telescope sessions between 21:45 and 06:00 local time (America/New_York)", "book_telescope_session", "start_time", ["2027-01-13T03:30:00Z", "2027-01-12T17:00:00Z"], ["2027-01-13T02:30:00Z", "2027-01-13T05:00:00Z"]],
      ["Do not book telescope sessions between 21:45 and 06:00 local time (America/New_York).", "book_telescope_session", "starts_at", ["2027-07-14T02:30:00Z", "2027-07-13T17:00:00Z"], ["2027-07-14T10:30:00Z", "2027-07-14T05:00:00Z"]],
    ];
    for (const [sentence, tool, key, [inside, nowOutside], [outside, nowInside]] of cases) {
      it(`${sentence} (${key} ${inside})`, () =>
        decide(sentence, [
          [tool, { [key]: inside, now: nowOutside }, "blocked"],
          [tool, { [key]: outside, now: nowInside }, "approved"],
        ]),
      );
    }
  });

  // "to a buyer other than Marta Okafor, Jonas Breit or Ilse Varga": each name of several words is one value.
  describe("an exclusion list of names of several words", () => {
    for (const [sentence, fired, names] of [
      ["Block bell sales to a buyer other than Marta Okafor, Jonas Breit or Ilse Varga", "blocked", ["Marta Okafor", "jonas breit", "ILSE VARGA"]],
      ["Bell sales to a buyer other than Marta Okafor or Jonas Breit are forbidden.", "blocked", ["marta okafor", "Jonas Breit"]],
      ["Never sell bells to buyers other than Rowan Achebe", "blocked", ["rowan achebe"]],
      ["Require approval for selling bells to buyers other than Marta Okafor and Jonas Breit", "conditional", ["Marta Okafor", "Jonas Breit"]],
    ] as const) {
      it(sentence, () =>
        decide(sentence, [
          ...names.map((n): Probe => ["sell_bell", { bell_id: "B-1", buyer_name: n }, "approved"]),
          ["sell_bell", { bell_id: "B-1", buyer_name: "Peter Lund" }, fired],
          ["sell_bell", { bell_id: "B-1", buyer_name: names.length === 1 ? "Marta Okafor" : "Rowan Achebe" }, fired],
        ]),
      );
    }
    // "outside business hours (…)" stays a time, not a value excluded.
    for (const [sentence, tool, fired] of [
      ["Block balloon refuelling outside business hours (9am-5pm UTC, Mon-Fri)", "refuel_balloon", "blocked"],
      ["Never refuel balloons outside business hours (9am-5pm UTC, Mon-Fri).", "refuel_balloon", "blocked"],
      ["Balloon refuelling outside business hours (9am-5pm UTC, Mon-Fri) needs the chief pilot's approval", "refuel_balloon", "conditional"],
    ] as const) {
      it(sentence, () =>
        decide(sentence, [
          // Tuesday noon and evening, then Saturday noon.
          [tool, { balloon_id: "G-1", now: "2027-03-02T12:00:00Z" }, "approved"],
          [tool, { balloon_id: "G-1", now: "2027-03-02T20:00:00Z" }, fired],
          [tool, { balloon_id: "G-1", now: "2027-03-06T12:00:00Z" }, fired],
          ["inflate_balloon", { balloon_id: "G-1", now: "2027-03-02T20:00:00Z" }, "approved"],
        ]),
      );
    }
  });

  // "less than 14 days after its last inspection": the other date is the thing's last such event.
  describe("the other date of a gap named by 'its last' or 'its previous'", () => {
    for (const [sentence, tool, keys, own] of [
      ["Never service a balloon less than 14 days after its last inspection", "service_balloon", ["last_inspection_date", "inspection_date"], "service_date"],
      ["Block servicing a balloon fewer than two weeks after its last inspection.", "service_balloon", ["last_inspection_date", "inspection_date"], "service_date"],
      ["Do not tune a bell less than 14 days after its previous tuning", "tune_bell", ["previous_tuning_date", "last_tuning_date"], "scheduled_date"],
      ["Never restock a seed vault less than 14 days after its last audit.", "restock_seed_vault", ["last_audit_date", "audit_date"], "restock_date"],
      ["Do not refill a balloon tank less than 14 days after its previous pressure test", "refill_balloon_tank", ["last_pressure_test_date", "pressure_test_date"], "refill_date"],
    ] as const) {
      it(sentence, () => {
        for (const key of keys) {
          decide(sentence, [
            [tool, { item_id: "X-1", [key]: "2027-05-01", [own]: "2027-05-21" }, "approved"],
            [tool, { item_id: "X-1", [key]: "2027-05-01", [own]: "2027-05-11" }, "blocked"],
          ]);
        }
      });
    }
  });

  // `density_kg_m3`, `speed_km_h`, `flow_l_min`: a unit per another without "per" in the argument's name.
  describe("a unit per another written without 'per' in an argument's name", () => {
    for (const [sentence, tool, key, over, at_, under] of [
      ["Block puppet head foam fills with a density above 12 kg/m³", "fill_puppet_head", "foam_density_kg_m3", 13, 12, 11],
      ["Block puppet head foam fills with a density above 12 kg/m³.", "fill_puppet_head", "density_g_cm3", 0.013, 0.012, 0.011],
      ["Block balloon launches in winds above 40 km/h", "launch_balloon", "wind_speed_km_h", 41, 40, 39],
      // 40 km/h is 11.1 m/s.
      ["Block balloon launches in winds above 40 km/h.", "launch_balloon", "wind_speed_m_s", 12, 11.1, 10],
      // 600 l/h is 10 l/min.
      ["Block sauna water flows above 600 l/h", "set_sauna_water_flow", "flow_l_min", 11, 10, 9],
      ["Block sauna water flows above 10 litres per minute", "set_sauna_water_flow", "flow_l_h", 660, 600, 540],
    ] as const) {
      it(`${sentence} (${key})`, () =>
        decide(sentence, [
          [tool, { [key]: over }, "blocked"],
          [tool, { [key]: at_ }, "approved"],
          [tool, { [key]: under }, "approved"],
        ]),
      );
    }
  });

  // "a high-altitude flight" and `approve_altitude_flight`: the compound's head names the tool.
  describe("a hyphenated compound whose head names the tool", () => {
    const TOOLS = { "high-altitude flight": "approve_altitude_flight", "cold-storage transfer": "approve_storage_transfer", "bronze-alloy change": "approve_alloy_change", "deep-sky booking": "approve_sky_booking" } as const;
    for (const [sentence, thing, post, other] of [
      ["Only chief pilots may approve a high-altitude flight", "high-altitude flight", "chief_pilot", "trainee_pilot"],
      ["Only chief pilots are allowed to approve high-altitude flights.", "high-altitude flight", "chief_pilot", "trainee_pilot"],
      ["Only head curators may approve a cold-storage transfer", "cold-storage transfer", "head_curator", "volunteer"],
      ["Only foundry masters can approve a bronze-alloy change.", "bronze-alloy change", "foundry_master", "apprentice"],
      ["Only a duty astronomer may approve deep-sky bookings", "deep-sky booking", "duty_astronomer", "visitor"],
    ] as const) {
      it(sentence, () => {
        const tool = TOOLS[thing];
        const elsewhere = Object.values(TOOLS).find((t) => t !== tool)!;
        decide(sentence, [
          [tool, { item_id: "X-1", requester_role: post }, "approved"],
          [tool, { item_id: "X-1", requester_role: other }, "blocked"],
          [elsewhere, { item_id: "X-1", requester_role: other }, "approved"],
        ]);
      });
    }
  });
});

// Forms the thirteenth session's test writer found misread, then read: how often a thing may be done to, a
// number of times in words, three kinds in a list, and "sooner than". Every example is our own.
describe("thirteenth session: how often, three kinds, sooner", () => {
  const at = new Date("2027-05-12T12:00:00Z");
  const earlierCalls = (sentence: string, tool: string, earlier: number, windowMs: number) => {
    const set = ruleSetOf(sentence);
    const history = Array.from({ length: earlier }, (_, i) => ({ tool, at: new Date(at.getTime() - ((i + 1) * windowMs) / (earlier + 1)) }));
    return set.decide(prepareAction({ tool, args: {}, now: at, history })).decision;
  };
  const HOUR = 3_600_000;
  for (const [sentence, tool, n, windowMs] of [
    ["Sauna sessions may be booked no more than 3 times a day.", "book_sauna_session", 3, 24 * HOUR],
    ["Sauna sessions can be booked at most three times per day", "book_sauna_session", 3, 24 * HOUR],
    ["Each locker can be opened at most twice per hour.", "open_locker", 2, HOUR],
    ["Lockers may be opened not more than twice an hour", "open_locker", 2, HOUR],
    ["Never retune a bell more than once a week", "retune_bell", 1, 7 * 24 * HOUR],
  ] as const) {
    it(sentence, () => {
      expect(earlierCalls(sentence, tool, n, windowMs)).toBe("blocked");
      expect(earlierCalls(sentence, tool, n - 1, windowMs)).toBe("approved");
      expect(ruleSetOf(sentence).decide(prepareAction({ tool: "clean_sauna", args: {}, now: at, history: [] })).decision).toBe("approved");
    });
  }

  for (const sentence of ["Only annual, season or lifetime memberships can be issued for longer than 30 days.", "Only annual, season and lifetime memberships may be issued for over 30 days", "Only annual, season, or lifetime memberships can be issued for over 30 days"]) {
    it(sentence, () =>
      decide(sentence, [
        ["issue_membership", { membership_type: "lifetime", duration_days: 40 }, "approved"],
        ["issue_membership", { membership_type: "season", duration_days: 40 }, "approved"],
        ["issue_membership", { membership_type: "day", duration_days: 40 }, "blocked"],
        ["issue_membership", { membership_type: "day", duration_days: 20 }, "approved"],
      ]),
    );
  }

  for (const [sentence, fired] of [
    ["A balloon must not be serviced sooner than 14 days after its previous inspection.", "blocked"],
    ["Require approval for servicing a balloon sooner than 14 days after its last inspection", "conditional"],
  ] as const) {
    it(sentence, () =>
      decide(sentence, [
        ["service_balloon", { previous_inspection_date: "2027-03-01", service_date: "2027-03-10" }, fired],
        ["service_balloon", { previous_inspection_date: "2027-03-01", service_date: "2027-03-20" }, "approved"],
      ]),
    );
  }
});

describe("approvals named with a participle, parts of another amount, cents of any currency (fourteenth session)", () => {
  // "needs the owner's written approval before it is raised": the participle says which approval, and the
  // clause after it says when, which an approval always is.
  for (const sentence of [
    "Any kiln firing with a fuel cost of more than £400 needs the supervisor's written approval before it is started.",
    "Kiln firings with a fuel cost over £400 need signed approval from the supervisor",
    "Kiln firings costing more than £400 require the supervisor's documented sign-off before they are scheduled",
    "A kiln firing with a fuel cost above 400 GBP needs written approval",
  ]) {
    it(sentence, () =>
      decide(sentence, [
        ["schedule_kiln_firing", { kiln_id: "K-2", fuel_cost_pence: 45_000 }, "conditional"],
        ["schedule_kiln_firing", { kiln_id: "K-2", fuel_cost_pence: 40_000 }, "approved"],
        ["cancel_kiln_firing", { kiln_id: "K-2" }, "approved"],
      ]),
    );
  }
  // "without recorded consent" is a state of the record, not a call for approval.
  it("a participle after 'without' stays a state", () => {
    const parsed = parseRule("Releasing a sample without recorded donor consent is prohibited");
    expect(parsed.ok && parsed.rule.effect).toBe("block");
  });

  // "more than half of the deposit": a share of another argument, or the share alone where the tool holds
  // the fraction; a tool that records how much of the verb it does (`refund_fraction`) is covered by it.
  for (const [part, share] of [["half", 0.5], ["a third", 1 / 3], ["two thirds", 2 / 3], ["three quarters", 0.75]] as const) {
    for (const frame of [(p: string) => `Refunding more than ${p} of the deposit on a cancelled rental requires sign-off from the desk lead`, (p: string) => `Require approval for refunds of more than ${p} of the deposit`]) {
      const sentence = frame(part);
      it(sentence, () =>
        decide(sentence, [
          ["cancel_rental", { rental_id: "R-1", refund_fraction: share + 0.05 }, "conditional"],
          ["cancel_rental", { rental_id: "R-1", refund_fraction: share - 0.05 }, "approved"],
          ["refund_rental", { rental_id: "R-1", refund_cents: Math.round(share * 10_000) + 100, deposit_cents: 10_000 }, "conditional"],
          ["refund_rental", { rental_id: "R-1", refund_cents: Math.round(share * 10_000) - 100, deposit_cents: 10_000 }, "approved"],
          ["extend_rental", { rental_id: "R-1", days: 2 }, "approved"],
        ]),
      );
    }
  }

  // "18 cents" names no currency: the argument's own, whichever it is.
  for (const sentence of ["Never pay a courier more than 40 cents per parcel", "Courier rates above 40 cents a parcel are forbidden", "Block courier payments of over 40 cents per parcel"]) {
    it(sentence, () =>
      decide(sentence, [
        ["pay_courier", { courier_id: "C-1", rate_per_parcel_eur: 0.45 }, "blocked"],
        ["pay_courier", { courier_id: "C-1", rate_per_parcel_eur: 0.35 }, "approved"],
        ["pay_courier", { courier_id: "C-1", rate_per_parcel_aud: 0.45 }, "blocked"],
        ["pay_courier", { courier_id: "C-1", rate_per_parcel_cents: 35 }, "approved"],
      ]),
    );
  }
  it("a restatement of cents reads back as the same rule", () => {
    const parsed = parseRule("Never pay a courier more than 40 cents per parcel");
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(restate(parsed.rule)).toContain("40 cents");
  });

  // A kind given by a bare dimension of the call (`format`, `channel`) is not the kind a modifier names,
  // when the modifier stands for a word of the tool's name the rule leaves unsaid.
  for (const sentence of ["Member ledger exports of more than 200 rows need approval", "Require approval for exporting member ledgers of over 200 rows"]) {
    it(sentence, () =>
      decide(sentence, [
        ["export_member_records", { row_count: 500, format: "csv" }, "conditional"],
        ["export_member_records", { row_count: 100, format: "csv" }, "approved"],
        ["import_member_records", { row_count: 500, format: "csv" }, "approved"],
      ]),
    );
  }
  it("a modifier that says it is a kind still names another kind", () =>
    decide("Economy-class bookings for trips of 3 hours or more need approval", [
      ["book_trip", { cabin: "business", duration_minutes: 300 }, "approved"],
      ["book_trip", { cabin: "economy", duration_minutes: 300 }, "conditional"],
    ]));
});

describe("zones by a city's initials or a region, domains listed in brackets, a kind before its noun, a day at the planned start", () => {
  // 17:30 UTC on a summer Monday is 10:30 in Los Angeles, 07:30 in Honolulu, 13:30 in New York.
  const at = "2026-07-06T17:30:00Z";
  for (const [zone, fired] of [["LA time", true], ["Pacific time", true], ["Hawaii time", true], ["NY time", false], ["Eastern time", false], ["UTC", false]] as const) {
    const sentence = `Block starting dyno runs before 11:00 ${zone}`;
    it(sentence, () => decide(sentence, [["start_dyno_run", { now: at }, fired ? "blocked" : "approved"]]));
  }

  for (const sentence of [
    "Never share design files with recipients on personal mail (mailbox.test, inbox.test or post.test)",
    "Do not share design files with anyone on a personal address (mailbox.test, inbox.test, post.test).",
    "Block sharing design files to addresses at mailbox.test, inbox.test or post.test",
  ]) {
    it(sentence, () =>
      decide(sentence, [
        ["share_design_files", { recipient_email: "a@inbox.test" }, "blocked"],
        ["share_design_files", { recipient_email: "b@post.test" }, "blocked"],
        ["share_design_files", { recipient_email: "c@studio.test" }, "approved"],
      ]),
    );
  }

  // `glaze_type` is the kind of the glaze: a word after "glaze" ("glaze orders") is not a kind of it.
  for (const sentence of ["Glaze orders may not be placed after 16:00 UTC", "Block glaze orders placed after 4pm UTC"]) {
    it(sentence, () =>
      decide(sentence, [
        ["order_glaze", { glaze_type: "celadon", now: "2026-07-06T17:00:00Z" }, "blocked"],
        ["order_glaze", { glaze_type: "celadon", now: "2026-07-06T15:00:00Z" }, "approved"],
      ]),
    );
  }
  it("a kind written before the noun is still another kind", () =>
    decide("Block celadon glaze orders", [
      ["order_glaze", { glaze_type: "tenmoku" }, "approved"],
      ["order_glaze", { glaze_type: "celadon" }, "blocked"],
    ]));

  // A thing that happens on a day: its planned start when the call gives one, else when the call runs.
  // 2026-07-04 is a Saturday; 23:30 UTC on it is Sunday in Auckland.
  for (const [sentence, tz] of [["No crane lifts on Sundays (Auckland time)", "auckland"], ["Crane lifts are not allowed on Sundays", "utc"], ["Block crane lifts on a Sunday", "utc"]] as const) {
    it(sentence, () =>
      decide(sentence, [
        ["schedule_crane_lift", { scheduled_start: "2026-07-04T23:30:00Z", now: "2026-07-01T10:00:00Z" }, tz === "auckland" ? "blocked" : "approved"],
        ["schedule_crane_lift", { scheduled_start: "2026-07-05T13:00:00Z", now: "2026-07-01T10:00:00Z" }, tz === "auckland" ? "approved" : "blocked"],
        ["schedule_crane_lift", { now: "2026-07-05T13:00:00Z" }, tz === "auckland" ? "approved" : "blocked"],
        ["schedule_crane_lift", { now: "2026-07-06T10:00:00Z" }, "approved"],
      ]),
    );
  }
  it("a rule about any action is about when it runs", () =>
    decide("Block any action on Sundays", [
      ["schedule_crane_lift", { scheduled_start: "2026-07-05T10:00:00Z", now: "2026-07-06T10:00:00Z" }, "approved"],
      ["schedule_crane_lift", { scheduled_start: "2026-07-06T10:00:00Z", now: "2026-07-05T10:00:00Z" }, "blocked"],
    ]));
});

describe("a check that has passed, a thing the object has, a date against another date", () => {
  // "the inspection has passed" is a check that succeeded; "the deadline has passed" is a time gone by.
  for (const sentence of [
    "Boilers must not be restarted unless the safety inspection has passed.",
    "Never restart a boiler unless its safety inspection has passed",
    "Restarting boilers is forbidden unless the safety inspection has passed",
  ]) {
    it(sentence, () =>
      decide(sentence, [
        ["restart_boiler", { boiler_id: "B-1", inspection_status: "passed" }, "approved"],
        ["restart_boiler", { boiler_id: "B-1", inspection_status: "pending" }, "blocked"],
        ["restart_boiler", { boiler_id: "B-1", safety_inspection_passed: true }, "approved"],
        ["restart_boiler", { boiler_id: "B-1", safety_inspection_passed: false }, "blocked"],
      ]),
    );
  }
  it("a deadline that has passed is a date in the past", () =>
    decide("Block late entries once the entry deadline has passed", [
      ["submit_late_entry", { entry_deadline: "2026-01-01", now: "2026-03-01T00:00:00Z" }, "blocked"],
      ["submit_late_entry", { entry_deadline: "2026-06-01", now: "2026-03-01T00:00:00Z" }, "approved"],
    ]));

  // "while the press has an active guard fault", "if the batch has no label": a thing the object has, and
  // its state, name a yes/no argument; "no" says it lacks it.
  for (const sentence of ["Press runs are prohibited while the press has an active guard fault.", "Block press runs when the press has an active guard fault", "Never start a press run if the press has an active guard fault"]) {
    it(sentence, () =>
      decide(sentence, [
        ["start_press_run", { press_id: "P-2", guard_fault_active: true }, "blocked"],
        ["start_press_run", { press_id: "P-2", guard_fault_active: false }, "approved"],
        ["clear_press_fault", { press_id: "P-2", guard_fault_active: true }, "approved"],
      ]),
    );
  }
  it("'has no' says it lacks it", () =>
    decide("Block shipping a batch if the batch has no lot label", [
      ["ship_batch", { batch_id: "B-7", lot_label: false }, "blocked"],
      ["ship_batch", { batch_id: "B-7", lot_label: true }, "approved"],
    ]));

  // A date compared with another date of the action, named with its owner or after "of".
  for (const [sentence, op] of [
    ["Never confirm a pickup date earlier than the supplier's ready date.", "lt"],
    ["Pickup dates earlier than the ready date of the supplier's order are not allowed", "lt"],
    ["Never issue a loan with a return date later than the expiry date of the borrower's card.", "gt"],
    ["Block loans with a return date beyond the expiry date of the member's card", "gt"],
  ] as const) {
    it(sentence, () => {
      const tool = op === "lt" ? "confirm_pickup" : "issue_loan";
      const [own, other] = op === "lt" ? ["pickup_date", "supplier_ready_date"] : ["return_date", "card_expiry_date"];
      decide(sentence, [
        [tool, { [own]: "2026-05-01", [other]: "2026-05-03" }, op === "lt" ? "blocked" : "approved"],
        [tool, { [own]: "2026-05-03", [other]: "2026-05-03" }, "approved"],
        [tool, { [own]: "2026-05-05", [other]: "2026-05-03" }, op === "gt" ? "blocked" : "approved"],
      ]);
    });
  }
  it("a date compared with another reads back in words of time", () => {
    const parsed = parseRule("Never confirm a pickup date earlier than the supplier's ready date.");
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(restate(parsed.rule)).toContain("earlier than the ready date");
  });
});

describe("a call without a declared schema shows its parameters by its arguments' names", () => {
  // The same decision whether the tool's parameters are declared or only seen in the call.
  for (const sentence of ["No barge may depart while the river level is above 4.2 metres.", "Barges must not depart when the river level is over 4.2 m", "Block barge departures while the river level exceeds 4.2 metres"]) {
    it(sentence, () => {
      const set = ruleSetOf(sentence);
      for (const params of [undefined, ["barge", "river_level_m"]]) {
        const decide = (args: Record<string, unknown>) => set.decide(prepareAction({ tool: "approve_departure", args, ...(params ? { params } : {}), now: new Date() })).decision;
        expect([decide({ barge: "B-4", river_level_m: 4.5 }), decide({ barge: "B-4", river_level_m: 3.9 })], `${sentence} ${params ? "declared" : "seen"}`).toEqual(["blocked", "approved"]);
      }
    });
  }
});

describe("a noun of doing whose verb no suffix gives names the tool that does it", () => {
  for (const [sentence, fired] of [
    ["Badge revocations need a security lead's sign-off", "conditional"],
    ["Revocations of badges are forbidden", "blocked"],
    ["No more than 0 badge revocations an hour", "blocked"],
  ] as const) {
    it(sentence, () =>
      decide(sentence, [
        ["revoke_badge", { badge_id: "BG-1" }, fired],
        ["print_badge", { badge_id: "BG-1" }, "approved"],
      ]),
    );
  }
  it("Permit issuance after 17:00 UTC is forbidden", () =>
    decide("Permit issuance after 17:00 UTC is forbidden", [
      ["issue_permit", { permit_id: "P-1", now: "2026-07-06T18:00:00Z" }, "blocked"],
      ["issue_permit", { permit_id: "P-1", now: "2026-07-06T10:00:00Z" }, "approved"],
      ["review_permit", { permit_id: "P-1", now: "2026-07-06T18:00:00Z" }, "approved"],
    ]));
});

describe("one country code after 'the'", () => {
  for (const sentence of ["Kiln sales to buyers outside the US need approval", "Require approval for kiln sales to buyers outside the US", "Kiln sales to buyers who are not in the US need approval"]) {
    it(sentence, () =>
      decide(sentence, [
        ["create_kiln_sale", { buyer_country: "MY" }, "conditional"],
        ["create_kiln_sale", { buyer_country: "US" }, "approved"],
      ]),
    );
  }
  it("the IT team is no country", () => {
    const parsed = parseRule("Block granting access to the IT team");
    expect(parsed.ok && JSON.stringify(parsed.rule.when)).not.toContain("IT");
  });
});

describe("an act the tool records under a noun of another verb for it, at its own time, and a cause after the rule", () => {
  // "leave" and `departure_time`; "arrive" and `arrival_time`: the tool that books the trip records the act.
  for (const [sentence, key] of [
    ["Tankers are not allowed to leave the depot between 22:00 and 05:30 because of the noise limits.", "departure_time"],
    ["Tankers must not leave the yard between 22:00 and 05:30", "departure_time"],
    ["Tankers may not arrive at the dairy between 22:00 and 05:30, due to the night curfew", "arrival_time"],
  ] as const) {
    it(sentence, () => {
      const set = ruleSetOf(sentence);
      const call = (args: Record<string, unknown>, params?: string[]) => set.decide(prepareAction({ tool: "book_collection_run", args, ...(params ? { params } : {}), now: new Date("2026-07-06T12:00:00Z") })).decision;
      for (const params of [undefined, ["tanker_id", key, "run_date"]]) {
        expect(call({ tanker_id: "TK-1", [key]: "23:15", run_date: "2026-07-08" }, params), `${sentence} 23:15`).toBe("blocked");
        expect(call({ tanker_id: "TK-1", [key]: "05:00", run_date: "2026-07-08" }, params), `${sentence} 05:00`).toBe("blocked");
        expect(call({ tanker_id: "TK-1", [key]: "07:00", run_date: "2026-07-08" }, params), `${sentence} 07:00`).toBe("approved");
      }
      // A tool that only looks, or cancels, does not do the act.
      expect(set.decide(prepareAction({ tool: "cancel_collection_run", args: { [key]: "23:15" }, now: new Date() })).decision).toBe("approved");
    });
  }
  it("a cause before the effect stays a condition of the action", () => {
    const parsed = parseRule("Refunds due to damage need approval");
    expect(parsed.ok && JSON.stringify(parsed.rule.when)).toContain("damage");
  });
});

describe("a list of references (letters, a hyphen, digits) is a list of values", () => {
  const lists = ["LOT-4410, LOT-4452 or LOT-4490", "LOT-4410, LOT-4452, or LOT-4490", "LOT-4410 or LOT-4452 or LOT-4490", "lot-4410, lot-4452 and lot-4490"];
  for (const list of lists) {
    forEachFrame((frame, fired) => {
      const sentence = frame(`shipments of the quarantined batches ${list}`);
      it(sentence, () =>
        decide(sentence, [
          ["create_shipment", { batch_id: "LOT-4452", carrier: "DHL" }, fired],
          ["create_shipment", { batch_id: "LOT-4490", carrier: "DHL" }, fired],
          ["create_shipment", { batch_id: "LOT-4411", carrier: "DHL" }, "approved"],
        ]),
      );
    });
  }
  it("a short code with a hyphen and few digits stays a word and a number", () => {
    const parsed = parseRule("Block upgrades to tier-2 accounts");
    expect(parsed.ok && JSON.stringify(parsed.rule.when)).not.toContain("tier-2");
  });
});

describe("addresses and blocks of addresses (IPv4, CIDR)", () => {
  const outside = ["SSH sessions to hosts outside 10.0.0.0/8", "SSH sessions to any address outside 10.0.0.0/8", "SSH sessions outside the office range of 10.0.0.0/8", "SSH sessions to hosts not in 10.0.0.0/8"];
  for (const phrase of outside) {
    forEachFrame((frame, fired) => {
      const sentence = frame(phrase);
      it(sentence, () =>
        decide(sentence, [
          ["open_ssh_session", { host: "10.20.30.40", user: "ops" }, "approved"],
          ["open_ssh_session", { host: "10.255.0.1", user: "ops" }, "approved"],
          ["open_ssh_session", { host: "11.0.0.1", user: "ops" }, fired],
          ["open_ssh_session", { host: "192.168.1.5", user: "ops" }, fired],
        ]),
      );
    });
  }
  it("0.0.0.0/0 names anywhere as a value, not every address", () => {
    decide("Block security group rules that expose port 3389 to 0.0.0.0/0", [
      ["add_security_group_rule", { port: 3389, cidr: "0.0.0.0/0" }, "blocked"],
      ["add_security_group_rule", { port: 3389, cidr: "172.16.0.0/12" }, "approved"],
    ]);
  });
  it("inside a block, and a list of blocks", () => {
    decide("Block port scans of 192.168.0.0/16 or 172.16.0.0/12", [
      ["start_port_scan", { target_ip: "192.168.4.4" }, "blocked"],
      ["start_port_scan", { target_ip: "172.20.1.1" }, "blocked"],
      ["start_port_scan", { target_ip: "172.32.1.1" }, "approved"],
      ["start_port_scan", { target_ip: "8.8.8.8" }, "approved"],
    ]);
  });
  it("an address the call leaves out is unknown (fail closed); one it gives is read by the schema's name", () => {
    const set = ruleSetOf("Block SSH sessions to hosts outside 10.0.0.0/8");
    expect(set.decide(prepareAction({ tool: "open_ssh_session", args: { user: "ops" }, params: ["user", "host"], now: new Date() })).decision).toBe("blocked");
    expect(set.decide(prepareAction({ tool: "open_ssh_session", args: { user: "ops", host: "10.1.1.1" }, params: ["user", "host"], now: new Date() })).decision).toBe("approved");
    // Inside a block only a block inside it: 10.0.0.0/7 reaches past 10.0.0.0/8.
    expect(set.decide(prepareAction({ tool: "open_ssh_session", args: { host: "10.0.0.0/7" }, now: new Date() })).decision).toBe("blocked");
    expect(set.decide(prepareAction({ tool: "open_ssh_session", args: { host: "10.8.0.0/16" }, now: new Date() })).decision).toBe("approved");
  });
});

describe("containing one of a list of things", () => {
  for (const list of ["lithium, lead acid or mercury", "lithium, lead acid, or mercury", "lithium or lead acid or mercury"]) {
    forEachFrame((frame, fired) => {
      const sentence = frame(`parcels containing ${list}`);
      it(sentence, () =>
        decide(sentence, [
          ["ship_parcel", { parcel_id: "P-1", contents: ["mercury", "glass"] }, fired],
          ["ship_parcel", { parcel_id: "P-2", contents: ["lead acid"] }, fired],
          ["ship_parcel", { parcel_id: "P-3", contents: ["paper", "glass"] }, "approved"],
        ]),
      );
    });
  }
});

describe("'is not to be' and 'is never to be' forbid", () => {
  for (const sentence of ["Refunds over $500 are not to be issued", "Refunds over $500 are never to be issued", "A refund over $500 is not to be issued"]) {
    it(sentence, () =>
      decide(sentence, [
        ["issue_refund", { amount: 800 }, "blocked"],
        ["issue_refund", { amount: 200 }, "approved"],
      ]),
    );
  }
});

describe("the parts of a thing in brackets gloss it", () => {
  for (const parts of ["(payslips and ID)", "(payslips or ID)", "(payslips, ID and bank statements)"]) {
    const sentence = `Loans must not be disbursed unless the applicant's documents ${parts} have been verified`;
    it(sentence, () =>
      decide(sentence, [
        ["disburse_loan", { loan_id: "L-1", documents_verified: true }, "approved"],
        ["disburse_loan", { loan_id: "L-1", documents_verified: false }, "blocked"],
      ]),
    );
  }
  it("a list after a place the action must be in stays values", () => {
    decide("Block shipments with carriers not on the approved roster (acme and globex)", [
      ["create_shipment", { carrier: "acme" }, "approved"],
      ["create_shipment", { carrier: "initech" }, "blocked"],
    ]);
  });
});

describe("a compound with a linking word is named by its initials", () => {
  for (const [compound, tool] of [["point-of-sale reboots", "reboot_pos_terminal"], ["proof-of-delivery uploads", "upload_pod_scan"], ["work-in-progress moves", "move_wip_item"]] as const) {
    forEachFrame((frame, fired) => {
      const sentence = frame(`${compound} after 18:00`);
      it(sentence, () =>
        decide(sentence, [
          [tool, { now: "2026-07-08T19:00:00Z" }, fired],
          [tool, { now: "2026-07-08T10:00:00Z" }, "approved"],
        ]),
      );
    });
  }
});

describe("a window of several units", () => {
  for (const window of ["in 48 hours", "within 48 hours", "in 2 days", "within two days"]) {
    it(window, () => {
      const set = ruleSetOf(`More than 2 data exports ${window} need approval`);
      const at = (iso: string) => ({ tool: "export_data", at: new Date(iso) });
      const now = new Date("2026-11-18T12:00:00Z");
      const decideWith = (history: { tool: string; at: Date }[]) => set.decide(prepareAction({ tool: "export_data", args: {}, now, history })).decision;
      expect(decideWith([at("2026-11-17T09:00:00Z"), at("2026-11-18T09:00:00Z")]), window).toBe("conditional");
      expect(decideWith([at("2026-11-16T09:00:00Z"), at("2026-11-18T09:00:00Z")]), window).toBe("approved");
    });
  }
  it("'within 2 hours of' measures from something: no window", () => {
    const parsed = parseRule("Block more than 2 exports within 2 hours of a release");
    expect(parsed.ok && parsed.rule.when?.kind === "rate" && parsed.rule.when.window_seconds === 7200).toBe(false);
  });
});

describe("names in brackets after a plural are its members", () => {
  for (const phrase of ["exports to sanctioned countries (Iran, Syria or Cuba)", "exports to embargoed destinations (IR, SY and CU)", "exports to the listed countries (Iran, Syria, Cuba)"]) {
    forEachFrame((frame, fired) => {
      const sentence = frame(phrase);
      it(sentence, () =>
        decide(sentence, [
          ["export_goods", { destination_country: "SY", sku: "A-1" }, fired],
          ["export_goods", { destination_country: "FR", sku: "A-1" }, "approved"],
        ]),
      );
    });
  }
});

describe("a doing named by who does it", () => {
  for (const [phrase, tool, other] of [
    ["interpreting sessions longer than 4 hours", "book_interpreter", "book_translator"],
    ["surveying jobs longer than 4 hours", "assign_surveyor", "assign_driver"],
    ["inspecting visits longer than 4 hours", "dispatch_inspector", "dispatch_courier"],
  ] as const) {
    forEachFrame((frame, fired) => {
      const sentence = frame(phrase);
      it(sentence, () =>
        decide(sentence, [
          [tool, { duration_minutes: 300 }, fired],
          [tool, { duration_minutes: 120 }, "approved"],
          [other, { duration_minutes: 300 }, "approved"],
        ]),
      );
    });
  }
});

describe("a union of countries named as one place", () => {
  for (const phrase of ["transfers of customer data to processors outside the EU", "transfers of customer data to processors outside the European Union", "transfers of customer data to processors based outside the EEA"]) {
    forEachFrame((frame, fired) => {
      const sentence = frame(phrase);
      it(sentence, () =>
        decide(sentence, [
          ["transfer_customer_data", { processor_country: "US" }, fired],
          ["transfer_customer_data", { processor_country: "PT" }, "approved"],
          ["transfer_customer_data", { processor_country: phrase.includes("EEA") ? "NO" : "SE" }, "approved"],
        ]),
      );
    });
  }
});

describe("'not permitted to be Y-ed' and numbers listed after their noun", () => {
  for (const sentence of ["Hazmat of UN class 1, 2.1 or 7 is not permitted to be loaded in zone C", "Hazmat of UN class 1, 2.1 or 7 must not be loaded in zone C", "Never load hazmat of UN class 1, 2.1 or 7 in zone C"]) {
    it(sentence, () =>
      decide(sentence, [
        ["load_hazmat", { un_class: "2.1", zone: "C" }, "blocked"],
        ["load_hazmat", { un_class: "7", zone: "C" }, "blocked"],
        ["load_hazmat", { un_class: "3", zone: "C" }, "approved"],
        ["load_hazmat", { un_class: "7", zone: "A" }, "approved"],
      ]),
    );
  }
});

describe("only those who hold a thing may act", () => {
  const forms = [
    "Only operators holding an F1 or F2 permit may drive forklifts",
    "Only operators with an F1 or F2 permit can drive forklifts",
    "Only operators who hold an F1 or F2 permit are allowed to drive forklifts",
    "Forklifts may only be driven by operators holding an F1 or F2 permit",
  ];
  for (const sentence of forms) {
    it(sentence, () =>
      decide(sentence, [
        ["drive_forklift", { forklift_id: "FL-4", operator_permit: "F2" }, "approved"],
        ["drive_forklift", { forklift_id: "FL-4", operator_permit: "F1" }, "approved"],
        ["drive_forklift", { forklift_id: "FL-4", operator_permit: "C3" }, "blocked"],
        ["log_forklift_inspection", { forklift_id: "FL-4", operator_permit: "C3" }, "approved"],
      ]),
    );
  }
  for (const sentence of ["Only operators holding a current forklift card may drive forklifts", "Only operators with a forklift card on file can drive forklifts"]) {
    it(sentence, () =>
      decide(sentence, [
        ["drive_forklift", { forklift_id: "FL-4", forklift_card_valid: true }, "approved"],
        ["drive_forklift", { forklift_id: "FL-4", forklift_card_valid: false }, "blocked"],
      ]),
    );
  }
  it("a qualification written before the people it names", () => {
    decide("Only F2-certified operators may drive forklifts", [
      ["drive_forklift", { forklift_id: "FL-4", operator_certificate: "F2" }, "approved"],
      ["drive_forklift", { forklift_id: "FL-4", operator_certificate: "C3" }, "blocked"],
    ]);
  });
});

describe("the nth in a window, an age reached, a range with a dash, a word in a text field, a state said by a participle", () => {
  for (const [sentence, n] of [["Block the fourth export within an hour", 4], ["Block the 3rd export in a day", 3], ["Require approval for the second export per hour", 2]] as const) {
    it(sentence, () => {
      const set = ruleSetOf(sentence);
      const now = new Date("2026-11-18T12:00:00Z");
      const past = (k: number) => Array.from({ length: k }, (_, i) => ({ tool: "export_report", at: new Date(now.getTime() - (i + 1) * 60_000) }));
      expect(set.decide(prepareAction({ tool: "export_report", args: {}, now, history: past(n - 2) })).decision, sentence).toBe("approved");
      expect(set.decide(prepareAction({ tool: "export_report", args: {}, now, history: past(n - 1) })).decision, sentence).not.toBe("approved");
    });
  }
  for (const sentence of ["Block returns once an order is 60 days old", "Block returns when the order turns 60 days old", "Returns are forbidden once the order is 60 days old"]) {
    it(sentence, () =>
      decide(sentence, [
        ["create_return", { order_age_days: 59 }, "approved"],
        ["create_return", { order_age_days: 60 }, "blocked"],
        ["create_return", { order_age_days: 75 }, "blocked"],
      ]),
    );
  }
  for (const amount of ["$1,500-$7,500", "$1,500–$7,500", "$1,500 - $7,500"]) {
    const sentence = `Purchase orders worth ${amount} need approval`;
    it(sentence, () =>
      decide(sentence, [
        ["create_purchase_order", { amount: 1499 }, "approved"],
        ["create_purchase_order", { amount: 1500 }, "conditional"],
        ["create_purchase_order", { amount: 7500 }, "conditional"],
        ["create_purchase_order", { amount: 7501 }, "approved"],
      ]),
    );
  }
  for (const [sentence, field] of [["Block messages with urgent in the subject", "subject"], ["Never post tickets with refund in the title", "title"], ["Block e-mails with invoice in the body", "body"]] as const) {
    it(sentence, () => {
      const tool = sentence.includes("post") ? "post_ticket" : sentence.includes("e-mails") ? "send_email" : "send_message";
      decide(sentence, [
        [tool, { [field]: `Re: ${field === "subject" ? "URGENT" : field === "title" ? "Refund" : "Invoice"} 44` }, "blocked"],
        [tool, { [field]: "Lunch on Friday" }, "approved"],
      ]);
    });
  }
  for (const sentence of ["Cancelling a shipped order is forbidden", "Never cancel shipped orders", "Block cancelling shipped orders"]) {
    it(sentence, () =>
      decide(sentence, [
        ["cancel_order", { order_id: "O-1", status: "shipped" }, "blocked"],
        ["cancel_order", { order_id: "O-1", status: "pending" }, "approved"],
        ["cancel_order", { order_id: "O-1" }, "blocked"],
      ]),
    );
  }
});

describe("a second rule about 'none' of the first's things, an order after a statement, a 'no' sign with 'is ever', an inverted 'never is'", () => {
  it("'…, and none of them may start after 9 pm' is a rule of its own about the same things", () => {
    const clauses = splitClauses("Choir rehearsals may only be booked on a Monday or Thursday, and none of them may start after 9:00 pm Europe/London.");
    expect(clauses).toHaveLength(2);
    decide(clauses[1]!, [
      ["book_choir_rehearsal", { rehearsal_date: "2027-03-08", start_time: "21:30" }, "blocked"],
      ["book_choir_rehearsal", { rehearsal_date: "2027-03-08", start_time: "19:30" }, "approved"],
    ]);
    decide(clauses[0]!, [
      ["book_choir_rehearsal", { rehearsal_date: "2027-03-09", start_time: "19:30" }, "blocked"],
      ["book_choir_rehearsal", { rehearsal_date: "2027-03-08", start_time: "19:30" }, "approved"],
    ]);
  });
  it("a statement the language cannot read, then its order after a colon: the order is the rule", () => {
    const clauses = splitClauses("Kayaks are only let out with a buoyancy aid: block any kayak rental without a buoyancy aid.");
    expect(clauses).toEqual(["block any kayak rental without a buoyancy aid."]);
  });
  for (const sentence of ["No cash float of more than £300 is ever issued", "No cash float of more than £300 may be issued", "Under no circumstances is a cash float of more than £300 issued"]) {
    it(sentence, () =>
      decide(sentence, [
        ["issue_petty_cash", { amount_gbp: 450, holder_email: "a@b.test" }, "blocked"],
        ["issue_petty_cash", { amount_gbp: 250, holder_email: "a@b.test" }, "approved"],
        ["issue_refund", { amount_gbp: 450 }, "approved"],
      ]),
    );
  }
  for (const sentence of ["Under no circumstances is a survey mission planned with more than 4 drones", "Never is a survey mission planned with more than 4 drones"]) {
    it(sentence, () =>
      decide(sentence, [
        ["schedule_survey_mission", { area_id: "A-1", drone_count: 6, method: "grid" }, "blocked"],
        ["schedule_survey_mission", { area_id: "A-1", drone_count: 3, method: "grid" }, "approved"],
      ]),
    );
  }
});

describe("sent for approval as what happens, conditions listed with ', or', taking in as making", () => {
  for (const sentence of ["Fee write-offs older than 30 days, or over €2,000 in value, go to the finance director for approval", "Fee write-offs older than 30 days, or over €2,000 in value, must go to the finance director for approval"]) {
    it(sentence, () =>
      decide(sentence, [
        ["write_off_fee", { days_overdue: 45, amount_eur: 500 }, "conditional"],
        ["write_off_fee", { days_overdue: 10, amount_eur: 2500 }, "conditional"],
        ["write_off_fee", { days_overdue: 10, amount_eur: 500 }, "approved"],
      ]),
    );
  }
  for (const sentence of ["Never take a deposit of more than £1,800 on a new lease", "Never collect a deposit above £1,800"]) {
    it(sentence, () =>
      decide(sentence, [
        ["create_lease", { deposit_gbp: 2000, rent_gbp: 900 }, "blocked"],
        ["create_lease", { deposit_gbp: 1500, rent_gbp: 900 }, "approved"],
        ["refund_deposit", { deposit_gbp: 2000 }, "approved"],
      ]),
    );
  }
});

describe("two bare hours joined by a dash before the name of a working day", () => {
  for (const sentence of ["Outside 8-5 business hours, publishing to the public changelog is forbidden", "Outside 8–17 Paris office hours, publishing to the public changelog is forbidden", "Publishing to the public changelog is forbidden outside 8-5 working hours"]) {
    it(sentence, () =>
      decide(sentence, [
        ["publish_changelog_entry", { now: "2026-11-24T19:30:00Z" }, "blocked"],
        ["publish_changelog_entry", { now: "2026-11-24T06:30:00Z" }, "blocked"],
        ["publish_changelog_entry", { now: "2026-11-24T11:00:00Z" }, "approved"],
      ]),
    );
  }
  for (const sentence of ["Outside 08:00-17:00 business hours Paris time, publishing to the public changelog is forbidden", "Outside 8-5 office hours Paris time, publishing to the public changelog is forbidden"]) {
    it(sentence, () =>
      decide(sentence, [
        ["publish_changelog_entry", { now: "2026-11-24T18:30:00Z" }, "blocked"],
        ["publish_changelog_entry", { now: "2026-11-24T06:30:00Z" }, "blocked"],
        ["publish_changelog_entry", { now: "2026-11-24T10:00:00Z" }, "approved"],
      ]),
    );
  }
  it("a range of counts stays numbers", () => {
    const parsed = parseRule("Block orders of 3-5 items to new accounts");
    expect(parsed.ok && JSON.stringify(parsed.rule.when)).not.toContain("time");
  });
});

// Sixteenth session: classes found on the tune halves of the ninth fresh sets, each across generated
// forms. Every example is our own.
describe("sixteenth session: values said as a cause, manners, windows of a named time, subjects of 'may only', limits", () => {
  const NOW = new Date("2027-03-02T12:00:00Z");
  const withSchema = (sentence: string, tool: string, args: Record<string, unknown>, params: string[], choices: Record<string, string[]> = {}, history: { tool: string; at: Date; args?: Record<string, unknown> }[] = []) =>
    ruleSetOf(sentence).decide(prepareAction({ tool, args, params, choices, now: NOW, history })).decision;

  describe("a value said as the cause of the action is a value some argument holds", () => {
    const CAUSES = ["for a", "because of a", "on grounds of a", "due to a"];
    const CASES = [
      ["discard", "sample", "discard_sample", "spoilage event", "spoilage_event", ["expired", "spoilage_event", "damaged"]],
      ["write off", "pallet", "write_off_pallet", "water damage", "water_damage", ["theft", "water_damage", "other"]],
    ] as const;
    for (const [verb, thing, tool, cause, code, codes] of CASES) {
      for (const by of CAUSES) {
        const sentence = `Never ${verb} a ${thing} ${by} ${cause}`;
        it(sentence, () => {
          const params = ["id", "reason", "note"];
          const choices = { reason: [...codes] };
          expect(withSchema(sentence, tool, { id: "X1", reason: code }, params, choices)).toBe("blocked");
          expect(withSchema(sentence, tool, { id: "X1", reason: codes[0] }, params, choices)).toBe("approved");
          // Left out where the tool's closed list has it: unknown, which fails closed.
          expect(withSchema(sentence, tool, { id: "X1" }, params, choices)).toBe("blocked");
        });
      }
    }
  });

  describe("a manner joined to the verb by a hyphen is a value of the call", () => {
    const FORMS = [(v: string, t: string) => `${capital(t)}s are never to be ${v}ed`, (v: string, t: string) => `Never ${v} a ${t}`, (v: string, t: string) => `Don't ${v} ${t}s`, (v: string, t: string) => `${capital(t)}s must not be ${v}ed`];
    for (const [manner, verb, thing, tool, other] of [["hard", "reset", "router", "reset_router", "soft"], ["hard", "delete", "record", "delete_record", "soft"]] as const) {
      for (const form of FORMS) {
        const sentence = form(`${manner}-${verb}`, thing);
        it(sentence, () => {
          const choices = { mode: [manner, other] };
          expect(withSchema(sentence, tool, { id: "R1", mode: manner }, ["id", "mode"], choices)).toBe("blocked");
          expect(withSchema(sentence, tool, { id: "R1", mode: other }, ["id", "mode"], choices)).toBe("approved");
        });
      }
    }
    it("a compound led by a prefix or ended by a particle stays one word", () => {
      const parsed = parseRule("Never approve off-cycle payroll runs");
      expect(parsed.ok && parsed.rule.actions.terms[0]!.objects).toContain("off-cycle");
    });
  });

  describe("'for X' before a time window is the window of the time X names", () => {
    for (const [noun, key] of [["delivery", "requested_delivery"], ["collection", "collection_time"], ["pickup", "pickup_at"]] as const) {
      for (const window of ["between 21:30 and 06:15 Dublin time", "between 9:30pm and 6:15am Dublin time", "outside 06:15-21:30 Europe/Dublin"]) {
        const sentence = `Standard parcels may not be scheduled for ${noun} ${window}`;
        it(sentence, () => {
          const params = ["item", key, "priority"];
          expect(withSchema(sentence, "schedule_parcel", { item: "A", [key]: "2027-02-16T22:00:00Z" }, params)).toBe("blocked");
          expect(withSchema(sentence, "schedule_parcel", { item: "A", [key]: "2027-02-16T11:30:00Z" }, params)).toBe("approved");
        });
      }
    }
  });

  describe("a zone's name, then the same zone by another name in brackets", () => {
    for (const zone of ["Central European Time (Europe/Madrid)", "CET (Europe/Paris)", "Dublin time (Europe/Dublin)", "Eastern Time (America/New_York)"]) {
      const sentence = `Block firmware pushes between 10:30 and 16:00 ${zone}`;
      it(sentence, () => {
        const parsed = parseRule(sentence);
        expect(parsed.ok, sentence).toBe(true);
        if (parsed.ok) expect(parsed.rule.ignored ?? []).toEqual([]);
      });
    }
  });

  describe("with a subject before 'may only', the conditions in the subject scope the rule", () => {
    const SUBJECTS = [
      ["Refunds over $800", "issue_refund", { amount: 900 }, { amount: 100 }],
      ["Refunds for damaged goods", "issue_refund", { reason: "damaged goods" }, { reason: "late" }],
    ] as const;
    const GATES = [["be issued between 08:30 and 18:00", "2027-03-02T20:00:00Z", "2027-03-02T10:00:00Z"], ["be issued on weekdays", "2027-03-06T10:00:00Z", "2027-03-03T10:00:00Z"]] as const;
    for (const [subject, tool, inScope, outOfScope] of SUBJECTS) {
      for (const modal of ["may only", "can only"]) {
        for (const [gate, outside, inside] of GATES) {
          const sentence = `${subject} ${modal} ${gate}`;
          it(sentence, () =>
            decide(sentence, [
              [tool, { ...inScope, now: outside }, "blocked"],
              [tool, { ...inScope, now: inside }, "approved"],
              // Outside the subject's conditions the rule says nothing.
              [tool, { ...outOfScope, now: outside }, "approved"],
            ]),
          );
        }
      }
    }
  });

  describe("after a spaced dash, a clause about 'they' or 'it' says what happens instead and is no condition", () => {
    for (const aside of ["they go to quarantine so the lab can look first", "they are set aside instead", "it goes back to the supplier"]) {
      for (const dash of [" - ", " — ", " – "]) {
        const text = `Crates must not be destroyed for a failed inspection${dash}${aside}.`;
        it(text, () => {
          const clauses = splitClauses(text);
          expect(clauses).toHaveLength(2);
          const first = parseRule(clauses[0]!);
          expect(first.ok && first.rule.ignored).toBeFalsy();
          const second = parseRule(clauses[1]!);
          expect(second.ok).toBe(false);
          decide(clauses[0]!, [
            ["destroy_crate", { id: "C1", reason: "failed inspection" }, "blocked"],
            ["destroy_crate", { id: "C1", reason: "expired" }, "approved"],
          ]);
        });
      }
    }
  });

  describe("an approver's title with 'of' in it", () => {
    for (const title of ["the head of department's", "the director of finance's", "a chief of staff's"]) {
      for (const noun of ["approval", "sign-off", "OK"]) {
        const sentence = `Late-fee write-offs above CAD 400 need ${title} ${noun}`;
        it(sentence, () =>
          decide(sentence, [
            ["write_off_late_fee", { amount: 410, currency: "CAD" }, "conditional"],
            ["write_off_late_fee", { amount: 390, currency: "CAD" }, "approved"],
          ]),
        );
      }
    }
  });

  describe("a limit said as what is allowed, and windows of several units after 'every' or 'per'", () => {
    const DAY = 86_400_000;
    const LIMITS = [
      ["Limit each member to no more than 3 court bookings per day", 3, DAY, "member_id"],
      ["Limit every member to 3 court bookings a day", 3, DAY, "member_id"],
      ["Cap each member at 3 court bookings per day", 3, DAY, "member_id"],
      ["A member can be given no more than 3 court bookings per day", 3, DAY, "member_id"],
      ["Each member may be given at most 3 court bookings every 24 hours", 3, DAY, "member_id"],
      ["A patient can be sent no more than one recall letter every 12 weeks", 1, 84 * DAY, "patient_id"],
      ["Patients may be sent at most one recall letter per 12 weeks", 1, 84 * DAY, "patient_id"],
    ] as const;
    for (const [sentence, n, windowMs, key] of LIMITS) {
      it(sentence, () => {
        const set = ruleSetOf(sentence);
        const tool = key === "patient_id" ? "send_recall_letter" : "book_court";
        const earlier = (party: string) => Array.from({ length: n }, (_, i) => ({ tool, at: new Date(NOW.getTime() - ((i + 1) * windowMs) / (n + 2)), args: { [key]: party } }));
        const call = (party: string, history: { tool: string; at: Date; args?: Record<string, unknown> }[]) => set.decide(prepareAction({ tool, args: { [key]: party }, now: NOW, history })).decision;
        expect(call("P1", earlier("P1"))).toBe("blocked");
        expect(call("P2", earlier("P1"))).toBe("approved");
        expect(call("P1", earlier("P1").slice(1))).toBe("approved");
      });
    }
    for (const [sentence, over, under] of [["Limit refunds to $500", 501, 500], ["Limit each refund to $500", 501, 500], ["Cap discounts to 15%", 16, 15]] as const) {
      it(sentence, () =>
        decide(sentence, [
          [sentence.includes("%") ? "apply_discount" : "issue_refund", { [sentence.includes("%") ? "percent" : "amount"]: over }, "blocked"],
          [sentence.includes("%") ? "apply_discount" : "issue_refund", { [sentence.includes("%") ? "percent" : "amount"]: under }, "approved"],
        ]),
      );
    }
    // Hours in a limit are when the things may happen, never a value they may not exceed.
    for (const sentence of ["Restrict firmware pushes to 9am-5pm", "Limit firmware pushes to 09:00-17:00 UTC", "Restrict firmware pushes to between 08:30 and 17:30"]) {
      it(sentence, () =>
        decide(sentence, [
          ["push_firmware", { device: "D1", now: "2027-03-02T20:00:00Z" }, "blocked"],
          ["push_firmware", { device: "D1", now: "2027-03-02T10:00:00Z" }, "approved"],
        ]),
      );
    }
    it("who does the things is no party of the count", () => {
      const parsed = parseRule("Stargazers may reserve no more than 2 telescope slots per day");
      expect(parsed.ok && parsed.rule.when?.kind === "rate" && parsed.rule.when.per).toBeFalsy();
    });
  });

  describe("a length closer than, or farther than, a distance to a place", () => {
    for (const [cmp, near, far, expectNear, expectFar] of [["closer than", 0.49, 0.51, "blocked", "approved"], ["nearer than", 0.49, 0.51, "blocked", "approved"], ["within", 0.49, 0.51, "blocked", "approved"]] as const) {
      for (const unit of ["500 metres", "500 m", "0.5 km"]) {
        const sentence = `No charge may be detonated ${cmp} ${unit} ${cmp === "within" ? "of" : "to"} an occupied building`;
        it(sentence, () =>
          decide(sentence, [
            ["detonate_charge", { distance_to_building_km: near }, expectNear],
            ["detonate_charge", { distance_to_building_km: far }, expectFar],
          ]),
        );
      }
    }
  });

  describe("a unit in an argument's name before what it is measured against", () => {
    for (const [key, over, under] of [["max_altitude_ft_agl", 300, 290], ["ceiling_ft_amsl", 300, 290], ["height_m_agl", 91, 89]] as const) {
      it(`Survey flights higher than 90 m are not allowed | ${key}`, () =>
        decide("Survey flights higher than 90 m are not allowed", [
          ["submit_flight_plan", { site: "S", [key]: over }, "blocked"],
          ["submit_flight_plan", { site: "S", [key]: under }, "approved"],
        ]),
      );
    }
  });

  describe("the only number of a call is not the rule's when its name says it measures something else", () => {
    for (const [sentence, key] of [["Gift cards worth more than £40 are not allowed", "deferral_days"], ["Block loads over 2 tonnes", "distance_km"], ["Block refunds over $500", "wait_minutes"]] as const) {
      it(`${sentence} | ${key}`, () => {
        expect(withSchema(sentence, "defer_donor", { id: "D1", [key]: 2800 }, ["id", key])).toBe("approved");
      });
    }
  });

  describe("a bracket at the end that opens with a verb says how to read the rule", () => {
    for (const aside of ["(count from the day it was made)", "(count it from the making date)", "(see the cold-store SOP)", "(check the label first)"]) {
      const sentence = `Cheese wheels older than 90 days must not be sold ${aside}`;
      it(sentence, () =>
        decide(sentence, [
          ["sell_cheese_wheel", { wheel_id: "W1", age_days: 91 }, "blocked"],
          ["sell_cheese_wheel", { wheel_id: "W1", age_days: 90 }, "approved"],
        ]),
      );
    }
  });

  describe("a statement of days, then an order that names them by a pronoun", () => {
    for (const [statement, order, day, other] of [
      ["We don't cut hair on Sundays", "block any styling booking that falls on it", "2027-03-07", "2027-03-08"],
      ["The salon is shut on Mondays", "block any styling booking that falls on one", "2027-03-08", "2027-03-09"],
      ["We are closed on Saturdays and Sundays", "block any styling booking that falls on them", "2027-03-06", "2027-03-05"],
    ] as const) {
      for (const sep of [": ", " — ", " - "]) {
        const text = `${statement}${sep}${order}.`;
        it(text, () => {
          const clauses = splitClauses(text);
          expect(clauses).toHaveLength(1);
          decide(clauses[0]!, [
            ["book_styling", { client_id: "C1", appointment_date: day, now: "2027-03-10T10:00:00Z" }, "blocked"],
            ["book_styling", { client_id: "C1", appointment_date: other, now: "2027-03-07T10:00:00Z" }, "approved"],
          ]);
        });
      }
    }
  });

  describe("a value of several words may be cut short in a closed list", () => {
    for (const [written, code, other] of [["O-negative", "O_neg", "B_pos"], ["AB-positive", "AB_pos", "AB_neg"], ["premium economy", "prem_economy", "first_class"]] as const) {
      it(`${written} and ${code}`, () => {
        const sentence = `Block orders when the class is ${written}`;
        decide(sentence, [
          ["place_order", { class: code }, "blocked"],
          ["place_order", { class: other }, "approved"],
        ]);
      });
    }
  });
});

describe("sixteenth session: initials joined by '&', and the thing after 'of' before a condition", () => {
  for (const [list, inside, outside] of [["R&D, QA or ops", "r&d", "sales"], ["P&L or M&A", "m&a", "legal"], ["A&E, ICU or theatres", "a&e", "oncology"]] as const) {
    const sentence = `Require approval for transfers of spare kits to any department other than ${list}`;
    it(sentence, () =>
      decide(sentence, [
        ["transfer_spare_kit", { kit_id: "K1", department: outside }, "conditional"],
        ["transfer_spare_kit", { kit_id: "K1", department: inside }, "approved"],
      ]),
    );
  }
  for (const sentence of ["Urgent transfer of plasma to any department other than ICU or theatres needs approval", "Urgent transfer of plasma to any department other than ICU, theatres or recovery needs approval"]) {
    it(sentence, () => {
      const parsed = parseRule(sentence);
      expect(parsed.ok && parsed.rule.actions.terms[0]!.objects).toEqual(expect.arrayContaining(["plasma"]));
      expect(parsed.ok && parsed.rule.ignored).toBeFalsy();
    });
  }
});

function capital(s: string): string {
  return `${s[0]!.toUpperCase()}${s.slice(1)}`;
}

describe("sixteenth session: a length the action carries as its start and end dates", () => {
  const STAYS = [
    ["Cottage lets of more than 14 nights need the owner's sign-off", "book_cottage_let", "check_in_date", "check_out_date", "conditional", 14],
    ["Block cottage lets of over 14 days", "book_cottage_let", "start_date", "end_date", "blocked", 14],
    ["Van hires longer than 3 weeks are not allowed", "book_van_hire", "pickup_date", "return_date", "blocked", 21],
  ] as const;
  for (const [sentence, tool, start, end, fired, days] of STAYS) {
    it(sentence, () => {
      const at = (n: number) => new Date(Date.UTC(2027, 6, 1 + n)).toISOString().slice(0, 10);
      decide(sentence, [
        [tool, { ref: "R1", [start]: at(0), [end]: at(days + 1) }, fired],
        [tool, { ref: "R1", [start]: at(0), [end]: at(days) }, "approved"],
        [tool, { ref: "R1", [start]: at(0), [end]: at(3) }, "approved"],
        // No dates: the length is unknown, which fails closed.
        [tool, { ref: "R1" }, fired],
      ]);
    });
  }
});

describe("sixteenth session: a capital A as a value, not the article", () => {
  for (const [sentence, fired] of [
    ["Require approval for deliveries in zone A", "conditional"],
    ["Require approval for deliveries when the zone is A", "conditional"],
    ["Block deliveries when the zone is A or B", "blocked"],
    ["Require a supervisor's sign-off for deliveries whose zone is A", "conditional"],
  ] as const) {
    it(sentence, () =>
      decide(sentence, [
        ["schedule_delivery", { ref: "D1", zone: "A" }, fired],
        ["schedule_delivery", { ref: "D1", zone: "C" }, "approved"],
      ]),
    );
  }
  it("the article before its noun stays an article", () => {
    const parsed = parseRule("A refund over $500 needs approval");
    expect(parsed.ok && parsed.rule.actions.terms.map((t) => t.text)).toEqual(["refund"]);
  });
});

describe("seventeenth session: 'without' a check the record holds is a yes/no fact, 'without' a person's check is approval", () => {
  // A check in force, or named by what it checks, and the argument that records it.
  const CHECKS = [
    ["a valid licence check", "licence_check_valid"],
    ["a current DBS check", "dbs_check_current"],
    ["a background check", "background_check"],
    ["a completed credit check", "credit_check_completed"],
    ["a valid enhanced vetting check", "vetting_check_valid"],
  ] as const;
  const FRAMES = [
    [(x: string) => `Block courier rostering without ${x}`, "blocked"],
    [(x: string) => `Couriers may not be rostered without ${x}`, "blocked"],
    [(x: string) => `Never roster a courier onto a run without ${x}`, "blocked"],
    [(x: string) => `Require approval for rostering couriers without ${x}`, "conditional"],
  ] as const;
  for (const [check, key] of CHECKS) {
    for (const [frame, fired] of FRAMES) {
      const sentence = frame(check);
      it(sentence, () =>
        decide(sentence, [
          ["roster_courier", { courier_id: "C-1", run_id: "R-9", [key]: false }, fired],
          ["roster_courier", { courier_id: "C-1", run_id: "R-9", [key]: true }, "approved"],
        ]),
      );
    }
  }
  for (const sentence of ["Never publish posts without a manager's check", "Block payouts without a second check", "Never publish a post without legal review"]) {
    it(sentence, () => {
      const parsed = parseRule(sentence);
      expect(parsed.ok && parsed.rule.effect).toBe("require_approval");
    });
  }
});

describe("seventeenth session: a perfect with its object says the object's state", () => {
  const FACTS = [
    ["passed", "safety inspection", "safety_inspection_status", "passed", "failed"],
    ["completed", "induction training", "induction_training_status", "completed", "pending"],
    ["cleared", "customs check", "customs_check_status", "cleared", "held"],
  ] as const;
  for (const [done, thing, key, good, bad] of FACTS) {
    for (const frame of [
      (v: string, t: string) => `Never dispatch a vehicle that hasn't ${v} its ${t}`,
      (v: string, t: string) => `Block dispatching vehicles if they have not ${v} the ${t}`,
      (v: string, t: string) => `Don't dispatch a vehicle unless it has ${v} ${t}`,
    ]) {
      const sentence = frame(done, thing);
      it(sentence, () =>
        decide(sentence, [
          ["dispatch_vehicle", { vehicle_id: "V-1", [key]: bad }, "blocked"],
          ["dispatch_vehicle", { vehicle_id: "V-1", [key]: good }, "approved"],
          ["dispatch_vehicle", { vehicle_id: "V-1", [`${thing.replace(" ", "_")}_${done}`]: false }, "blocked"],
          ["dispatch_vehicle", { vehicle_id: "V-1", [`${thing.replace(" ", "_")}_${done}`]: true }, "approved"],
        ]),
      );
    }
  }
  it("a participle of the thing is not read from another thing's status", () =>
    decide("Never ship a finished batch to the client if it has not passed shrinkage testing", [
      ["ship_finished_batch", { batch_id: "B-1", client: "Northwind", shrinkage_test_status: "pending" }, "blocked"],
      ["ship_finished_batch", { batch_id: "B-1", client: "Northwind", shrinkage_test_status: "passed" }, "approved"],
    ]));
});

describe("seventeenth session: a value after 'or over' is the other side of a range", () => {
  const RANGES = [
    ["the coolant flow is under 2 m/s or over 7 m/s", "coolant_flow_m_s", [1.5, 8], [2, 4, 7]],
    ["the coolant flow is below 2 m/s or above 7 m/s", "coolant_flow_ft_s", [5, 25], [6.6, 15, 22.9]],
    ["the charge is under 10 kg or more than 50 kg", "charge_kg", [9, 51], [10, 30, 50]],
    ["the load is less than 10 or greater than 50 tonnes", "load_t", [9, 51], [10, 50]],
  ] as const;
  for (const [condition, key, outside, inside] of RANGES) {
    for (const frame of [(c: string) => `Block chiller starts when ${c}`, (c: string) => `Chiller starts are forbidden if ${c}`]) {
      const sentence = frame(condition);
      it(sentence, () =>
        decide(sentence, [
          ...outside.map((v): Probe => ["start_chiller", { unit: "CH-3", [key]: v }, "blocked"]),
          ...inside.map((v): Probe => ["start_chiller", { unit: "CH-3", [key]: v }, "approved"]),
        ]),
      );
    }
  }
  for (const [sentence, key, at] of [
    ["Block refunds of 500 USD or more", "amount", 500],
    ["Block transfers of 5 kg or over", "weight_kg", 5],
    ["Block exports of 100 rows or more than that", "row_count", 100],
  ] as const) {
    it(`${sentence}: the bound of the value before it`, () =>
      decide(sentence, [
        [sentence.split(" ")[1]!.replace(/s$/, ""), { [key]: at }, "blocked"],
        [sentence.split(" ")[1]!.replace(/s$/, ""), { [key]: at - 1 }, "approved"],
      ]));
  }
});

describe("seventeenth session: units written in lower case in a name, and a scale letter read by the rule's kind", () => {
  const PRESSURES = [
    ["2.5 bar", "face_pressure_kpa", 260, 238],
    ["5 psi", "barrel_pressure_kpa", 36, 30],
    ["1.2 MPa", "line_pressure_kpa", 1250, 1150],
    ["1,000 hPa", "air_pressure_pa", 100_100, 99_900],
  ] as const;
  for (const [limit, key, over, under] of PRESSURES) {
    const sentence = `Never open the launcher door while the pressure is above ${limit}`;
    it(sentence, () =>
      decide(sentence, [
        ["open_launcher_door", { door: "D-1", [key]: over }, "blocked"],
        ["open_launcher_door", { door: "D-1", [key]: under }, "approved"],
      ]),
    );
  }
  for (const [sentence, key, fired, calm] of [
    ["Require approval for shipping seedlings when the daytime high is above 95°F", "daytime_high_c", 36, 34],
    ["Block shipping seedlings when the daytime high is over 35 °C", "daytime_high_f", 96, 94],
  ] as const) {
    it(sentence, () =>
      decide(sentence, [
        ["ship_seedlings", { trays: 3, [key]: fired }, sentence.startsWith("Block") ? "blocked" : "conditional"],
        ["ship_seedlings", { trays: 3, [key]: calm }, "approved"],
      ]),
    );
  }
});

describe("seventeenth session: 'local time' is the clock the action's own time is written in", () => {
  for (const sentence of [
    "Water main flushes may only begin between 02:00 and 04:00 local time",
    "Only allow water main flushes to begin between 02:00 and 04:00 site time",
    "Main flushing may only start between 2am and 4am (local time)",
  ]) {
    it(sentence, () =>
      decide(sentence, [
        // (Written with their offset: 04:30 there is 03:30 in UTC, inside the hours; 23:30 at -04:00 too.)
        ["schedule_main_flush", { main_id: "WM-1", start_time: "2027-03-09T04:30:00+01:00" }, "blocked"],
        ["schedule_main_flush", { main_id: "WM-1", start_time: "2027-03-09T03:30:00+01:00" }, "approved"],
        ["schedule_main_flush", { main_id: "WM-1", start_time: "2027-03-09T23:30:00-04:00" }, "blocked"],
        ["schedule_main_flush", { main_id: "WM-1", start_time: "2027-03-09 03:15" }, "approved"],
        ["schedule_main_flush", { main_id: "WM-1", start_local_time: "11:00" }, "blocked"],
        ["schedule_main_flush", { main_id: "WM-1", start_local_time: "02:45" }, "approved"],
      ]),
    );
    it(`${sentence}: restated and read again, the same rule`, () => {
      const first = parseRule(sentence);
      if (!first.ok) throw new Error(first.error.message);
      const again = parseRule(splitClauses(restate(first.rule))[0]!);
      expect(again.ok && again.rule.unless).toEqual(first.rule.unless);
    });
  }
});

describe("seventeenth session: when a thing finishes or begins is its end or start time", () => {
  // (Paris in September is two hours ahead of UTC.)
  for (const sentence of ["Never book a recording session that finishes later than 11pm Paris time", "Block recording sessions that end after 23:00 (Europe/Paris)"]) {
    it(sentence, () =>
      decide(sentence, [
        ["book_recording_session", { studio: "S-2", start_time: "2027-09-20T17:00:00Z", end_time: "2027-09-20T21:40:00Z" }, "blocked"],
        ["book_recording_session", { studio: "S-2", start_time: "2027-09-20T17:00:00Z", end_time: "2027-09-20T20:40:00Z" }, "approved"],
      ]),
    );
  }
  it("Never book a class that begins before 7am", () =>
    decide("Never book a class that begins before 7am", [
      ["book_class", { start_time: "2026-09-15T06:15:00Z", end_time: "2026-09-15T08:45:00Z" }, "blocked"],
      ["book_class", { start_time: "2026-09-15T07:15:00Z", end_time: "2026-09-15T08:45:00Z" }, "approved"],
    ]));
});

describe("seventeenth session: degrees with no scale are the temperature argument's own scale, or an angle", () => {
  for (const frame of [(n: number) => `Never set a kiln's soak temperature above ${n} degrees`, (n: number) => `Soak temperatures over ${n} degrees need the studio manager's approval`]) {
    const sentence = frame(1200);
    const fired = sentence.startsWith("Never") ? "blocked" : "conditional";
    it(sentence, () =>
      decide(sentence, [
        ["set_kiln_soak", { kiln_id: "K-1", soak_temp_c: 1210 }, fired],
        ["set_kiln_soak", { kiln_id: "K-1", soak_temp_c: 1190 }, "approved"],
        ["set_kiln_soak", { kiln_id: "K-1", soak_temp_f: 1210 }, fired],
      ]),
    );
  }
  it("an angle stays an angle", () =>
    decide("Block crane lifts when the boom angle is over 70 degrees", [
      ["start_crane_lift", { crane: "C-1", boom_angle_deg: 72 }, "blocked"],
      ["start_crane_lift", { crane: "C-1", boom_angle_deg: 65 }, "approved"],
    ]));
});

describe("seventeenth session: a thing described by a participle and a value of the tool's closed list", () => {
  // The tool's own closed list, as its schema gives it.
  const choices = { method: ["brush", "spray", "dip"] };
  const call = (set: RuleSet, tool: string, method: string) => set.decide(prepareAction({ tool, args: { piece_id: "P-1", method }, params: ["piece_id", "method"], choices, now: new Date() })).decision;
  for (const [sentence, fired] of [
    ["Any glaze applied by spray needs approval from the studio lead", "conditional"],
    ["Glazes applied by spray need the studio lead's sign-off", "conditional"],
    ["Block any glaze finished by spray", "blocked"],
  ] as const) {
    it(sentence, () => {
      const set = ruleSetOf(sentence);
      expect(call(set, "record_glaze", "spray")).toBe(fired);
      expect(call(set, "record_glaze", "brush")).toBe("approved");
      // A tool of another thing, and one that only looks, are not what the rule is about.
      expect(call(set, "record_firing", "spray")).toBe("approved");
      expect(call(set, "get_glaze", "spray")).toBe("approved");
    });
  }
});

describe("seventeenth session: a count is of the argument named for what is counted", () => {
  for (const sentence of ["Block tours booked for more than 6 visitors", "Tour bookings of over 6 visitors are not allowed"]) {
    it(sentence, () =>
      decide(sentence, [
        ["book_tour", { visitors: 7, youngest_visitor_age: 30 }, "blocked"],
        ["book_tour", { visitors: 6, youngest_visitor_age: 9 }, "approved"],
        ["book_tour", { visitor_count: 7, youngest_visitor_age: 3 }, "blocked"],
        ["book_tour", { visitor_count: 2, oldest_visitor_age: 70 }, "approved"],
      ]),
    );
  }
});

describe("seventeenth session: 'by' and a bare noun after the action's object is the means", () => {
  for (const [sentence, tool, key, means, other, fired] of [
    ["Require approval for shipping parcels by air", "ship_parcel", "method", "air", "road", "conditional"],
    ["Block sending invoices by post", "send_invoice", "channel", "post", "email", "blocked"],
    ["Shipping live plants by courier needs the nursery manager's sign-off", "ship_plants", "method", "courier", "post", "conditional"],
  ] as const) {
    it(sentence, () =>
      decide(sentence, [
        [tool, { ref: "R-1", [key]: means }, fired],
        [tool, { ref: "R-1", [key]: other }, "approved"],
      ]),
    );
  }
});

describe("seventeenth session: capital letters that name a value of a noun", () => {
  for (const [noun, letter, other] of [["zone", "C", "D"], ["bay", "B", "E"], ["gate", "A", "F"], ["studio", "B", "C"]] as const) {
    const sentences = [
      `Block deliveries to ${noun} ${letter}`,
      `Block ${noun} ${letter} deliveries`,
      `${noun[0]!.toUpperCase()}${noun.slice(1)} ${letter} deliveries need a supervisor's sign-off`,
      `Deliveries to ${noun} ${letter} or ${letter === "A" ? "B" : "A"} are not allowed`,
    ];
    for (const sentence of sentences) {
      const fired = /sign-off/.test(sentence) ? "conditional" : "blocked";
      it(sentence, () =>
        decide(sentence, [
          ["schedule_delivery", { ref: "D-1", [noun]: letter }, fired],
          ["schedule_delivery", { ref: "D-1", [noun]: other }, "approved"],
          ["schedule_delivery", { ref: "D-1", area: `${noun}_${letter.toLowerCase()}` }, fired],
          ["schedule_delivery", { ref: "D-1", area: `${noun}_${other.toLowerCase()}` }, "approved"],
        ]),
      );
    }
  }
  it("Hall A rehearsals over 12 hours are not allowed", () =>
    decide("Hall A rehearsals over 12 hours are not allowed", [
      ["book_hall_rehearsal", { room: "hall_a", duration_minutes: 780 }, "blocked"],
      ["book_hall_rehearsal", { room: "hall_b", duration_minutes: 780 }, "approved"],
      ["book_hall_rehearsal", { room: "hall_a", duration_minutes: 600 }, "approved"],
    ]));
  it("the article stays an article", () => {
    for (const sentence of ["Block a refund over $500", "Never issue A refund over $500", "Require approval to book a room for more than 10 people"]) {
      const parsed = parseRule(sentence);
      expect(parsed.ok && JSON.stringify(parsed.rule.when), sentence).not.toMatch(/"values":\["[a-z]+ A"\]/);
    }
  });
});

describe("seventeenth session: a thing done recently, and a length of time said of a date", () => {
  const NOW = "2027-03-10T12:00:00Z";
  const daysBefore = (n: number) => new Date(Date.parse(NOW) - n * 86_400_000).toISOString().slice(0, 10);
  for (const [sentence, tool, key, days, fired] of [
    ["Block boarding dogs that have been vaccinated in the last 3 days", "board_dog", "vaccinated_on", 3, "blocked"],
    ["Never release a patient who received sedation within the past 2 days", "release_patient", "sedation_date", 2, "blocked"],
    ["Require approval to board a horse that has had a worming dose in the last 10 days", "board_horse", "last_worming_dose_date", 10, "conditional"],
    ["Block shipments of seedlings sprayed in the past 5 days", "ship_seedlings", "sprayed_on", 5, "blocked"],
  ] as const) {
    it(sentence, () =>
      decide(sentence, [
        [tool, { ref: "R-1", [key]: daysBefore(days - 1), now: NOW }, fired],
        [tool, { ref: "R-1", [key]: daysBefore(days + 1), now: NOW }, "approved"],
      ]),
    );
  }
  for (const [sentence, fired] of [
    ["Block refunds for invoices older than 45 days", "blocked"],
    ["Refunds for invoices raised more than 45 days back need a manager's sign-off", "conditional"],
    ["Block refunds when the invoice date is over 45 days old", "blocked"],
  ] as const) {
    it(sentence, () =>
      decide(sentence, [
        ["refund_invoice", { invoice_id: "I-1", invoice_date: daysBefore(46), now: NOW }, fired],
        ["refund_invoice", { invoice_id: "I-1", invoice_date: daysBefore(44), now: NOW }, "approved"],
        ["refund_invoice", { invoice_id: "I-1", invoice_date: `${daysBefore(50)} 09:30`, now: NOW }, fired],
      ]),
    );
  }
  it("a count of hours since the thing is read as before", () =>
    decide("Block entering a runner that has had a painkiller dose in the last 6 days", [
      ["enter_runner", { runner: "R-1", hours_since_last_painkiller_dose: 200 }, "approved"],
      ["enter_runner", { runner: "R-1", hours_since_last_painkiller_dose: 100 }, "blocked"],
    ]));
});

describe("seventeenth session: a value with 'with', then a clause of its own", () => {
  for (const [verb, clause] of [
    ["load the kiln", "while it is hotter than 200 °C"],
    ["load the kiln", "when it is firing hotter than 392 °F"],
    ["fill the kiln", "if it is above 200 °C"],
  ] as const) {
    const sentence = `Never ${verb} with porcelain ${clause}`;
    const tool = verb.includes("fill") ? "fill_kiln" : "load_kiln";
    it(sentence, () =>
      decide(sentence, [
        [tool, { kiln: "K-1", ware: "porcelain", kiln_temp_c: 210 }, "blocked"],
        [tool, { kiln: "K-1", ware: "stoneware", kiln_temp_c: 210 }, "approved"],
        [tool, { kiln: "K-1", ware: "porcelain", kiln_temp_c: 190 }, "approved"],
      ]),
    );
  }
});

describe("seventeenth session: a place before a clause keeps the clause's measure", () => {
  for (const sentence of ["Lifting work on towers is forbidden when the gust speed is over 15 m/s", "Lifting work on towers is not permitted if the gust speed is over 15 m/s"]) {
    it(sentence, () =>
      decide(sentence, [
        ["schedule_lifting_work", { site: "S-1", task: "repair", gust_speed_kmh: 60 }, "blocked"],
        ["schedule_lifting_work", { site: "S-1", task: "repair", gust_speed_kmh: 50 }, "approved"],
      ]),
    );
  }
});

describe("seventeenth session: a participle in -ing before a preposition opens a clause about the thing", () => {
  for (const [sentence, fired] of [
    ["Block export licences for goods originating in Belarus, Cuba or Venezuela", "blocked"],
    ["Never approve a customs entry for items coming from Belarus, Cuba or Venezuela", "blocked"],
    ["Require approval for shipping goods going to Belarus, Cuba or Venezuela", "conditional"],
  ] as const) {
    it(sentence, () => {
      const tool = sentence.includes("licence") ? "issue_export_licence" : sentence.includes("customs") ? "approve_customs_entry" : "ship_goods";
      decide(sentence, [
        [tool, { ref: "R-1", country: "CU" }, fired],
        [tool, { ref: "R-1", country: "Belarus" }, fired],
        [tool, { ref: "R-1", country: "FR" }, "approved"],
      ]);
    });
  }
});

describe("seventeenth session: a state said with 'out for' or 'out of'", () => {
  for (const [sentence, key, state, other] of [
    ["Block changing the drop-off slot once a crate is out for collection", "crate_status", "out_for_collection", "at_warehouse"],
    ["Rescheduling a van is forbidden while it is out for delivery", "van_status", "out_for_delivery", "in_yard"],
    ["Never take orders for an item that is out of stock", "stock_status", "out_of_stock", "in_stock"],
  ] as const) {
    it(sentence, () => {
      const tool = sentence.includes("slot") ? "change_dropoff_slot" : sentence.includes("Rescheduling") ? "reschedule_van" : "take_order";
      decide(sentence, [
        [tool, { ref: "R-1", [key]: state }, "blocked"],
        [tool, { ref: "R-1", [key]: other }, "approved"],
      ]);
    });
  }
});

describe("seventeenth session: an offset written without its colon", () => {
  it("is read as the same offset, in a zone's clock and in local time", () => {
    decide("Water main flushes may only begin between 02:00 and 04:00 local time", [
      ["schedule_main_flush", { main_id: "WM-1", start_time: "2027-03-09T04:30:00+0100" }, "blocked"],
      ["schedule_main_flush", { main_id: "WM-1", start_time: "2027-03-09T03:30:00+0100" }, "approved"],
    ]);
    decide("Block main flushes that begin after 03:00", [
      ["schedule_main_flush", { main_id: "WM-1", start_time: "2027-03-09T04:30:00+0100" }, "blocked"],
      ["schedule_main_flush", { main_id: "WM-1", start_time: "2027-03-09T03:30:00+0100" }, "approved"],
    ]);
  });
});

// A thing's state negated by a reduced relative ("… not approved by a manager") or by "un-" and a
// participle ("unsigned …"): the meaning is kept apart from the sentence forms generated from it.
const NEGATED_STATES: { things: string; verb: string; done: string; tool: string; state: string; agent: string }[] = [
  { things: "purchase orders", verb: "submit", done: "submitted", tool: "submit_purchase_order", state: "approved", agent: "manager" },
  { things: "press releases", verb: "publish", done: "published", tool: "publish_press_release", state: "reviewed", agent: "legal" },
  { things: "containers", verb: "release", done: "released", tool: "release_container", state: "cleared", agent: "customs" },
  { things: "lab results", verb: "send", done: "sent", tool: "send_lab_result", state: "verified", agent: "pathologist" },
];

describe("eighteenth session: a thing 'not <participle> by <someone>' is a yes/no fact negated", () => {
  const cap = (x: string) => `${x[0]!.toUpperCase()}${x.slice(1)}`;
  for (const m of NEGATED_STATES) {
    const by = m.agent === "legal" || m.agent === "customs" ? m.agent : `a ${m.agent}`;
    const forms = [
      `Block ${m.things} not ${m.state} by ${by}`,
      `${cap(m.things)} not ${m.state} by ${by} are blocked`,
      `${cap(m.things)} not ${m.state} by ${by} must not be ${m.done}`,
      `${cap(m.things)} not yet ${m.state} by ${by} may not be ${m.done}`,
      `${cap(m.things)} not ${m.state} by ${by} must never be ${m.done}`,
      `Never ${m.verb} ${m.things} that have not been ${m.state} by ${by}`,
    ];
    for (const sentence of forms) {
      it(sentence, () => {
        const field = `${m.agent}_${m.state}`;
        decide(sentence, [
          [m.tool, { id: "X-1", [field]: false }, "blocked"],
          [m.tool, { id: "X-1", [field]: true }, "approved"],
          [m.tool, { id: "X-1", [m.state]: false }, "blocked"],
          [m.tool, { id: "X-1", [m.state]: true }, "approved"],
          ["archive_record", { id: "X-1", [field]: false }, "approved"],
        ]);
        // Restating it and reading the restatement back decides alike.
        const parsed = parseRule(sentence);
        if (!parsed.ok) throw new Error(parsed.error.message);
        decide(restate(parsed.rule), [
          [m.tool, { id: "X-1", [field]: false }, "blocked"],
          [m.tool, { id: "X-1", [field]: true }, "approved"],
        ]);
      });
    }
  }
  it("an active verb after the effect keeps its place in the action", () => {
    for (const sentence of ["Orders not paid must not ship", "Orders not paid may never ship", "Orders that are not paid must not ship"]) {
      decide(sentence, [
        ["ship_order", { order_id: "O-1", paid: false }, "blocked"],
        ["ship_order", { order_id: "O-1", paid: true }, "approved"],
      ]);
    }
  });
  it("a permission or ban after 'not' is still the effect", () => {
    decide("Refunds not allowed", [["issue_refund", { amount: 5 }, "blocked"]]);
    decide("Refunds not permitted on weekends", [["issue_refund", { amount: 5, now: "2027-03-13T10:00:00Z" }, "blocked"], ["issue_refund", { amount: 5, now: "2027-03-10T10:00:00Z" }, "approved"]]);
  });
});

describe("eighteenth session: 'un-' and a participle before the thing is its state negated", () => {
  const things: { un: string; noun: string; verb: string; done: string; tool: string; field: string; other: string }[] = [
    { un: "unsigned", noun: "waivers", verb: "file", done: "filed", tool: "file_waiver", field: "signed", other: "draft" },
    { un: "unpaid", noun: "invoices", verb: "forward", done: "forwarded", tool: "forward_invoice", field: "paid", other: "overdue" },
    { un: "unverified", noun: "accounts", verb: "activate", done: "activated", tool: "activate_account", field: "verified", other: "pending" },
    { un: "uninspected", noun: "pallets", verb: "dispatch", done: "dispatched", tool: "dispatch_pallet", field: "inspected", other: "waiting" },
  ];
  for (const m of things) {
    const forms = [`Never ${m.verb} ${m.un} ${m.noun}`, `${m.un[0]!.toUpperCase()}${m.un.slice(1)} ${m.noun} may not be ${m.done}`, `Block ${m.un} ${m.noun}`, `Require approval to ${m.verb} ${m.un} ${m.noun}`];
    for (const sentence of forms) {
      it(sentence, () => {
        const fired = sentence.startsWith("Require") ? "conditional" : "blocked";
        const thing = m.noun.replace(/s$/, "");
        decide(sentence, [
          [m.tool, { id: "X-1", [m.field]: false }, fired],
          [m.tool, { id: "X-1", [m.field]: true }, "approved"],
          [m.tool, { id: "X-1", [`${thing}_${m.field}`]: true }, "approved"],
          [m.tool, { id: "X-1", [`is_${m.field}`]: false }, fired],
          [m.tool, { id: "X-1", status: m.field }, "approved"],
          [m.tool, { id: "X-1", status: m.other }, fired],
        ]);
      });
    }
  }
});

describe("eighteenth session: 'requests for X' name the action X, not every action", () => {
  const meanings: { asked: string; tool: string; bound: string; field: string; over: number; under: number; other: string }[] = [
    { asked: "extra cover", tool: "request_extra_cover", bound: "of more than 3 nurses", field: "nurses_requested", over: 5, under: 2, other: "order_supplies" },
    { asked: "refunds", tool: "issue_refund", bound: "over $50", field: "amount", over: 80, under: 20, other: "create_invoice" },
    { asked: "overtime", tool: "request_overtime", bound: "of more than 6 hours", field: "duration_hours", over: 8, under: 4, other: "log_hours" },
  ];
  for (const m of meanings) {
    for (const sentence of [`Requests for ${m.asked} ${m.bound} need a manager's sign-off`, `Requests for ${m.asked} ${m.bound} need approval`, `Require approval for requests for ${m.asked} ${m.bound}`]) {
      it(sentence, () => {
        decide(sentence, [
          [m.tool, { [m.field]: m.over }, "conditional"],
          [m.tool, { [m.field]: m.under }, "approved"],
          [m.other, { [m.field]: m.over }, "approved"],
        ]);
      });
    }
  }
});

describe("eighteenth session: modifiers listed before one noun each qualify it", () => {
  const lists: { mods: string[]; noun: string; verb: string; tool: string; field: string; other: string }[] = [
    { mods: ["amber", "trial"], noun: "batches", verb: "release", tool: "release_batch", field: "batch_class", other: "premium" },
    { mods: ["minor", "routine"], noun: "repairs", verb: "schedule", tool: "schedule_repair", field: "repair_priority", other: "critical" },
    { mods: ["bronze", "silver"], noun: "members", verb: "upgrade", tool: "upgrade_member", field: "member_tier", other: "gold" },
  ];
  for (const m of lists) {
    const [a, b] = m.mods as [string, string];
    for (const sentence of [`Never ${m.verb} ${a} or ${b} ${m.noun}`, `Block ${a} or ${b} ${m.noun}`, `Do not ${m.verb} ${a}, ${b} or urgent ${m.noun}`]) {
      it(sentence, () => {
        decide(sentence, [
          [m.tool, { id: "X-1", [m.field]: a }, "blocked"],
          [m.tool, { id: "X-1", [m.field]: b }, "blocked"],
          [m.tool, { id: "X-1", [m.field]: m.other }, "approved"],
        ]);
      });
    }
  }
  it("two things listed stay two things", () => {
    decide("Block refunds or payouts", [
      ["create_payout", { amount: 5 }, "blocked"],
      ["issue_refund", { amount: 5 }, "blocked"],
      ["create_invoice", { amount: 5 }, "approved"],
    ]);
  });
  it("a degree says which kind ('urgent refunds' and a normal priority)", () => {
    for (const [key, other] of [["priority", "normal"], ["severity", "minor"], ["tier", "standard"]] as const) {
      decide("Block urgent refunds", [
        ["issue_refund", { amount: 5, [key]: "urgent" }, "blocked"],
        ["issue_refund", { amount: 5, [key]: other }, "approved"],
        ["issue_refund", { amount: 5 }, "blocked"],
      ]);
    }
  });
});

describe("eighteenth session: 'use X for Y' does Y by means of X", () => {
  const means: { used: string; value: string; field: string; purpose: string; tool: string; yes: Record<string, unknown>; no: Record<string, unknown> }[] = [
    { used: "the pool van", value: "pool_van", field: "vehicle", purpose: "airport runs", tool: "book_airport_run", yes: {}, no: {} },
    { used: "the tower crane", value: "tower_crane", field: "equipment", purpose: "lifts over 5 tonnes", tool: "book_lift", yes: { load_kg: 6000 }, no: { load_kg: 4000 } },
    { used: "courier", value: "courier", field: "delivery_method", purpose: "controlled drugs", tool: "dispatch_controlled_drugs", yes: {}, no: {} },
  ];
  for (const m of means) {
    for (const lead of ["Never use", "Do not use", "Staff must not use"]) {
      const sentence = `${lead} ${m.used} for ${m.purpose}`;
      it(sentence, () => {
        const probes: Probe[] = [
          [m.tool, { ...m.yes, [m.field]: m.value }, "blocked"],
          [m.tool, { ...m.yes, [m.field]: "radio" }, "approved"],
        ];
        if (Object.keys(m.no).length > 0) probes.push([m.tool, { ...m.no, [m.field]: m.value }, "approved"]);
        decide(sentence, probes);
      });
    }
  }
  it("a length of time after 'for' is no purpose", () => {
    const parsed = parseRule("Never use the crane for more than 2 hours");
    expect(parsed.ok && restate(parsed.rule)).toMatch(/more than 2 h/);
  });
});

describe("eighteenth session: 'has a <kind> <thing>' is read from the argument that says the thing's kind", () => {
  const meanings: { kind: string; thing: string; field: string; other: string }[] = [
    { kind: "wholesale", thing: "licence", field: "buyer_licence_type", other: "retail" },
    { kind: "premium", thing: "plan", field: "plan_tier", other: "basic" },
    { kind: "gold", thing: "card", field: "card_type", other: "silver" },
  ];
  for (const m of meanings) {
    for (const sentence of [`Block refunds over $100 unless the buyer has a ${m.kind} ${m.thing}`, `Refunds over $100 need approval, unless the member has a ${m.kind} ${m.thing}`]) {
      it(sentence, () => {
        const fired = sentence.startsWith("Block") ? "blocked" : "conditional";
        decide(sentence, [
          ["issue_refund", { amount: 500, [m.field]: m.kind }, "approved"],
          ["issue_refund", { amount: 500, [m.field]: m.other }, fired],
          ["issue_refund", { amount: 50, [m.field]: m.other }, "approved"],
        ]);
      });
    }
  }
});

describe("eighteenth session: a person confirming a thing of its own is a fact, and 'until' a state is 'unless' it", () => {
  const facts: { who: string; did: string; thing: string; field: string; action: string; tool: string }[] = [
    { who: "the supervisor", did: "checked", thing: "the seal", field: "seal_checked", action: "ship a crate", tool: "ship_crate" },
    { who: "the vet", did: "confirmed", thing: "the dosage", field: "dosage_confirmed", action: "administer a sedative", tool: "administer_sedative" },
    { who: "the editor", did: "verified", thing: "the sources", field: "sources_verified", action: "publish a story", tool: "publish_story" },
  ];
  for (const f of facts) {
    for (const sentence of [`Never ${f.action} until ${f.who} has ${f.did} ${f.thing}`, `Do not ${f.action} unless ${f.who} has ${f.did} ${f.thing}`]) {
      it(sentence, () => {
        decide(sentence, [
          [f.tool, { id: "X-1", [f.field]: false }, "blocked"],
          [f.tool, { id: "X-1", [f.field]: true }, "approved"],
        ]);
      });
    }
  }
  it("a person approving the action itself is still an approval", () => {
    decide("Refunds may only be issued once a manager has approved them", [["issue_refund", { amount: 5 }, "conditional"]]);
    decide("Never issue refunds until a manager signs off", [["issue_refund", { amount: 5 }, "conditional"]]);
  });
  it("a state waited for, said with 'until'", () => {
    decide("Do not open the pool until its water test has been signed off", [
      ["open_pool", { water_test_signed_off: false }, "blocked"],
      ["open_pool", { water_test_signed_off: true }, "approved"],
    ]);
  });
});

describe("eighteenth session: a tool whose name denies the rule's state, a state said with 'on'/'off', people named by their kind", () => {
  it("'certified' and a tool named 'uncertified' (and the other way round) are other things", () => {
    decide("Block certified copies", [
      ["print_certified_copy", { id: "X-1" }, "blocked"],
      ["print_uncertified_copy", { id: "X-1" }, "approved"],
    ]);
    decide("Never send unsigned contracts", [
      ["send_contract", { id: "X-1" }, "blocked"],
      ["send_signed_contract", { id: "X-1" }, "approved"],
    ]);
  });
  const states: { sentence: string; tool: string; field: string; on: Expect; off: Expect }[] = [
    { sentence: "Never open the hatch while the pumps are on", tool: "open_hatch", field: "pumps_on", on: "blocked", off: "approved" },
    { sentence: "Block saw starts when the blade guard is off", tool: "start_saw", field: "blade_guard_on", on: "approved", off: "blocked" },
    { sentence: "Never clean the fryer while the heaters are still on", tool: "clean_fryer", field: "heaters_on", on: "blocked", off: "approved" },
    { sentence: "Refuelling needs a supervisor's sign-off when the engine is left on", tool: "start_refuelling", field: "engine_on", on: "conditional", off: "approved" },
  ];
  for (const m of states) {
    it(m.sentence, () => decide(m.sentence, [[m.tool, { [m.field]: true }, m.on], [m.tool, { [m.field]: false }, m.off]]));
  }
  const people: { sentence: string; tool: string; yes: Record<string, unknown>; no: Record<string, unknown>; fired: Expect }[] = [
    { sentence: "Waiving a late fee is allowed only for returning members", tool: "waive_late_fee", yes: { returning_member: true }, no: { returning_member: false }, fired: "blocked" },
    { sentence: "Block fee waivers except for returning members", tool: "waive_fee", yes: { returning_member: true }, no: { returning_member: false }, fired: "blocked" },
    { sentence: "Never send promotions to unsubscribed members", tool: "send_promotion", yes: { member_subscribed: true }, no: { member_subscribed: false }, fired: "blocked" },
    { sentence: "Upgrades are only allowed for VIP guests", tool: "upgrade_room", yes: { guest_tier: "vip" }, no: { guest_tier: "standard" }, fired: "blocked" },
  ];
  for (const m of people) {
    it(m.sentence, () => decide(m.sentence, [[m.tool, m.yes, "approved"], [m.tool, m.no, m.fired]]));
  }
});

describe("eighteenth session: a thing named word for word by a value of the tool's closed list", () => {
  // Meanings of our own: the tool, its closed list, the value the rule names and another value.
  const meanings: { thing: string; tool: string; key: string; values: string[]; named: string; other: string; bound: string; field: string; over: number; under: number }[] = [
    { thing: "emergency closures", tool: "post_notice", key: "notice_type", values: ["information", "delay", "emergency_closure"], named: "emergency_closure", other: "delay", bound: "longer than 6 hours", field: "duration_hours", over: 8, under: 2 },
    { thing: "night shifts", tool: "assign_shift", key: "shift_kind", values: ["day_shift", "night_shift", "on_call"], named: "night_shift", other: "day_shift", bound: "of more than 10 hours", field: "hours", over: 12, under: 8 },
    { thing: "bulk transfers", tool: "move_stock", key: "transfer_mode", values: ["single_transfer", "bulk_transfer"], named: "bulk_transfer", other: "single_transfer", bound: "of more than 500 units", field: "units", over: 800, under: 100 },
  ];
  for (const m of meanings) {
    const choices = { [m.key]: m.values };
    const call = (set: RuleSet, tool: string, args: Record<string, unknown>) => set.decide(prepareAction({ tool, args, params: [m.key, m.field, "ref"], choices, now: new Date() })).decision;
    for (const [sentence, fired] of [
      [`${m.thing[0]!.toUpperCase()}${m.thing.slice(1)} ${m.bound} need a manager's approval`, "conditional"],
      [`Block ${m.thing} ${m.bound}`, "blocked"],
    ] as const) {
      it(sentence, () => {
        const set = ruleSetOf(sentence);
        expect(call(set, m.tool, { [m.key]: m.named, [m.field]: m.over })).toBe(fired);
        expect(call(set, m.tool, { [m.key]: m.named, [m.field]: m.under })).toBe("approved");
        expect(call(set, m.tool, { [m.key]: m.other, [m.field]: m.over })).toBe("approved");
        // Left out, it may be that thing: the conditions decide (which fail closed when unknown).
        expect(call(set, m.tool, { [m.field]: m.over })).toBe(fired);
        // A tool whose closed lists do not hold the value is not about it; nor is one that only looks.
        expect(set.decide(prepareAction({ tool: "archive_record", args: { [m.field]: m.over }, params: [m.field], now: new Date() })).decision).toBe("approved");
        expect(call(set, `get_${m.tool.split("_")[1]}`, { [m.key]: m.named, [m.field]: m.over })).toBe("approved");
      });
    }
  }
});

describe("eighteenth session: a change of temperature over time against a rate argument", () => {
  const forms = ["Never ramp a kiln faster than 3 °C an hour", "Block kiln ramps of more than 3 degrees an hour", "Kiln ramps above 1 degree every 20 minutes are not allowed"];
  for (const sentence of forms) {
    it(sentence, () =>
      decide(sentence, [
        ["ramp_kiln", { kiln_id: "KN-1", ramp_c_per_hour: 4 }, "blocked"],
        ["ramp_kiln", { kiln_id: "KN-1", ramp_c_per_hour: 3 }, "approved"],
        ["ramp_kiln", { kiln_id: "KN-1", ramp_c_per_min: 0.1 }, "blocked"],
        ["ramp_kiln", { kiln_id: "KN-1", ramp_f_per_hour: 5 }, sentence.includes("°C") ? "approved" : "blocked"],
      ]),
    );
  }
});

describe("eighteenth session: countries against places written by their codes, and 'do not accept' an action", () => {
  const forms = [
    "We do not accept cargo bookings that start or end in Iran, Syria or Cuba",
    "Block any booking to or from Iran, Syria or Cuba",
    "Never accept cargo to or from Syria, Iran or Cuba",
  ];
  for (const sentence of forms) {
    it(sentence, () =>
      decide(sentence, [
        ["book_air_cargo", { origin_airport: "FRA", destination_airport: "DAM", pieces: 2 }, "blocked"],
        ["book_air_cargo", { origin_airport: "IKA", destination_airport: "LHR", pieces: 2 }, "blocked"],
        ["book_air_cargo", { origin_airport: "FRA", destination_airport: "JFK", pieces: 2 }, "approved"],
        ["book_sea_cargo", { origin_port: "DEHAM", destination_port: "IRBND" }, "blocked"],
        ["book_sea_cargo", { origin_port: "DEHAM", destination_port: "USNYC" }, "approved"],
      ]),
    );
  }
  it("a three-letter value of another argument is no airport", () => {
    decide("Block any booking to or from Syria", [["book_air_cargo", { origin_airport: "FRA", destination_airport: "JFK", commodity_code: "DAM" }, "approved"]]);
  });
});

describe("eighteenth session: a class named by its number, in lists and in brackets", () => {
  // Meaning: the tool's closed list repeats the attribute's noun before each value (`hazard_class: class_3`).
  const probes = (fired: Expect): Probe[] => [
    ["book_air_cargo", { origin_airport: "FRA", hazard_class: "class_3" }, fired],
    ["book_air_cargo", { origin_airport: "FRA", hazard_class: "class_8" }, fired],
    ["book_air_cargo", { origin_airport: "FRA", hazard_class: "class_2" }, "approved"],
    ["book_air_cargo", { origin_airport: "FRA", hazard_class: "none" }, "approved"],
  ];
  for (const sentence of [
    "Class 3 or class 8 goods must not be booked on air cargo",
    "Block air cargo bookings of hazardous goods class 3 and class 8",
    "Never book hazardous goods of class 3 or 8 as air cargo",
  ]) {
    it(sentence, () => decide(sentence, probes("blocked")));
  }
  it("a bracket that names no value is an aside", () => {
    decide("Block refunds (all kinds) over $500", [["issue_refund", { amount: 800 }, "blocked"], ["issue_refund", { amount: 80 }, "approved"]]);
  });
  it("letters listed with their attribute each time", () => {
    decide("Block deliveries to zone A or zone C", [
      ["schedule_delivery", { zone: "A" }, "blocked"],
      ["schedule_delivery", { zone: "C" }, "blocked"],
      ["schedule_delivery", { zone: "B" }, "approved"],
    ]);
  });
});

describe("eighteenth session: a service level is no kind of the thing", () => {
  it("a rule about a thing's class still covers a booking whatever its service level", () => {
    decide("Class 3 or class 8 goods must not be booked on air cargo", [
      ["book_air_cargo", { service_level: "standard", hazard_class: "class_3" }, "blocked"],
      ["book_air_cargo", { service_level: "express", hazard_class: "class_2" }, "approved"],
    ]);
    decide("Never book radioactive goods as air cargo", [["book_air_cargo", { service_level: "economy", radioactive: true }, "blocked"]]);
  });
});

describe("nineteenth session: a closed-list value written as the tool writes it, beside a noun of the rule's own", () => {
  // Meaning: the rule names a value exactly as the tool's closed list spells it (a code), and puts its own
  // noun beside it (a "chamber", a "room") that no argument is named by; the value says which argument.
  const params = ["pallet_id", "destination_bay", "weight_kg"];
  const choices = { destination_bay: ["cold_store_b", "dry_store_a", "dock_1"] };
  const call = (set: RuleSet, args: Record<string, unknown>, withSchema = true) =>
    set.decide(prepareAction({ tool: "move_pallet", args, ...(withSchema ? { params, choices } : {}), now: new Date("2027-03-10T12:00:00Z") })).decision;
  for (const sentence of [
    "Pallets weighing more than 900 kg must never go to the cold_store_b freezer chamber",
    "Never move a pallet heavier than 900 kg to the cold_store_b room",
    "Block moving pallets over 900 kg into the COLD_STORE_B freezer",
  ]) {
    it(sentence, () => {
      const set = ruleSetOf(sentence);
      expect(call(set, { pallet_id: "P1", destination_bay: "cold_store_b", weight_kg: 950 })).toBe("blocked");
      expect(call(set, { pallet_id: "P1", destination_bay: "cold_store_b", weight_kg: 850 })).toBe("approved");
      expect(call(set, { pallet_id: "P1", destination_bay: "dry_store_a", weight_kg: 950 })).toBe("approved");
      // Left out, where the tool has the list: it may be that bay, which fails closed.
      expect(call(set, { pallet_id: "P1", weight_kg: 950 })).toBe("blocked");
      // Without the schema, the argument holding it still says it.
      expect(call(set, { pallet_id: "P1", destination_bay: "cold_store_b", weight_kg: 950 }, false)).toBe("blocked");
    });
  }
});

describe("nineteenth session: a noun of an amount after the thing it measures out", () => {
  // Meaning: "lots", "batches", "loads" of a thing are the thing; a tool that does it to the thing is covered.
  for (const [sentence, fired] of [
    ["Grain lots must not be dried above 60 °C", "blocked"],
    ["Do not dry grain batches hotter than 60 °C", "blocked"],
    ["Drying grain loads above 60 °C requires the miller to approve it", "conditional"],
  ] as const) {
    it(sentence, () =>
      decide(sentence, [
        ["dry_grain", { bin_id: "B2", temp_c: 65 }, fired],
        ["dry_grain", { bin_id: "B2", temp_c: 55 }, "approved"],
        ["dry_hops", { bin_id: "B2", temp_c: 65 }, "approved"],
      ]),
    );
  }
});

describe("nineteenth session: 'before it goes …' after an approval says when, not what", () => {
  // Meaning: approval is due before the action happens; a verb of happening after "before it" adds no condition.
  for (const when of ["before it goes to the printer", "before they go ahead", "before it starts", "before it takes place on the night shift"]) {
    const sentence = `Any print job of more than 500 pages needs a supervisor's approval ${when}.`;
    it(sentence, () =>
      decide(sentence, [
        ["submit_print_job", { pages: 650, printer_id: "PR-2" }, "conditional"],
        ["submit_print_job", { pages: 450, printer_id: "PR-2" }, "approved"],
        ["submit_print_job", { pages: 650 }, "conditional"],
      ]),
    );
  }
});

describe("nineteenth session: what the thing does, said before 'and' and the effect", () => {
  // Meaning: "<things> <do something> and <effect>": the rule governs the things; the first predicate says why.
  for (const [sentence, fired] of [
    ["Emergency callouts (priority p1) wake the on-call engineer and need the duty lead to approve them", "conditional"],
    ["Emergency callouts with priority p1 cost extra and need approval from the shift lead", "conditional"],
    ["Callouts of priority p1 disrupt the rota and must not be raised", "blocked"],
  ] as const) {
    it(sentence, () =>
      decide(sentence, [
        ["create_callout", { site_id: "S1", priority: "p1" }, fired],
        ["create_callout", { site_id: "S1", priority: "p3" }, "approved"],
        ["update_rota", { site_id: "S1", priority: "p1" }, "approved"],
      ]),
    );
  }
  it("participles joined by 'and' stay conditions of the thing", () => {
    const parsed = parseRule("Orders placed by a guest and paid by card must be approved");
    const bare = parseRule("Orders must be approved");
    expect(parsed.ok && bare.ok && restate(parsed.rule) !== restate(bare.rule)).toBe(true);
  });
});

describe("nineteenth session: 'of' an attribute and its value, after the thing", () => {
  // Meaning: "<things> of <attribute> <value>" names the things whose attribute holds the value.
  for (const [sentence, fired] of [
    ["Callouts of priority p1 must not be raised", "blocked"],
    ["Callouts of severity p1 need the duty lead to approve", "conditional"],
    ["Never raise callouts of priority p1", "blocked"],
    ["Callouts of priority p1 or p2 require a duty lead's approval", "conditional"],
  ] as const) {
    it(sentence, () => {
      const key = sentence.includes("severity") ? "severity" : "priority";
      decide(sentence, [
        ["raise_callout", { site_id: "S1", [key]: "p1" }, fired],
        ["raise_callout", { site_id: "S1", [key]: "p3" }, "approved"],
      ]);
    });
  }
  it("a value before a noun still modifies that noun", () => {
    decide("Require approval for upgrades of tier B accounts", [["upgrade_account", { account_id: "A1", account_tier: "B" }, "conditional"], ["upgrade_account", { account_id: "A1", account_tier: "A" }, "approved"]]);
  });
});

describe("nineteenth session: signing it off, a count per rolling period, a named time compared, an aside of our own, lists of phrases", () => {
  // Meaning: approval by someone, said with a pronoun between "sign" and "off".
  for (const sentence of ["Refunds over $400 need a manager to sign them off", "Any refund over $400 needs the finance lead to sign it off", "Refunds over $400 must have a manager sign them off"]) {
    it(sentence, () => decide(sentence, [["issue_refund", { amount: 450 }, "conditional"], ["issue_refund", { amount: 350 }, "approved"]]));
  }
  // Meaning: at most 2 such actions in any window of that length.
  for (const sentence of ["Skip hires are capped at two in any rolling 12-hour period", "No more than two skip hires within any 24-hour window", "Skip hires are limited to 2 over any rolling 1-day period"]) {
    it(sentence, () => {
      const set = ruleSetOf(sentence);
      const now = new Date("2027-03-10T12:00:00Z");
      const history = [
        { tool: "book_skip_hire", at: new Date("2027-03-10T01:00:00Z") },
        { tool: "book_skip_hire", at: new Date("2027-03-10T08:00:00Z") },
      ];
      expect(set.decide(prepareAction({ tool: "book_skip_hire", args: { site: "S1" }, now, history })).decision).toBe("blocked");
      expect(set.decide(prepareAction({ tool: "book_skip_hire", args: { site: "S1" }, now, history: history.slice(1) })).decision).toBe("approved");
    });
  }
  // Meaning: the time the call names (a departure) compared with a clock time in a zone.
  for (const [sentence, fired] of [
    ["Any ferry with a planned departure later than 21:30 UK time needs the harbour master to sign it off", "conditional"],
    ["Block ferries with a scheduled departure later than 21:30 UK time", "blocked"],
  ] as const) {
    it(sentence, () =>
      decide(sentence, [
        ["schedule_ferry", { route: "R1", planned_departure: "2027-07-03T20:45:00Z" }, fired],
        ["schedule_ferry", { route: "R1", planned_departure: "2027-07-03T19:45:00Z" }, "approved"],
      ]),
    );
  }
  it("a clause in brackets with a pronoun for its subject says why", () => {
    decide("Block ferries with a planned departure later than 21:30 UK time (we count that as dusk in summer)", [
      ["schedule_ferry", { route: "R1", planned_departure: "2027-07-03T20:45:00Z" }, "blocked"],
      ["schedule_ferry", { route: "R1", planned_departure: "2027-07-03T19:45:00Z" }, "approved"],
    ]);
  });
  // Meaning: any of several things named by two words each, and a place, together.
  for (const sentence of ["Do not accept bookings for paddle boards or rowing boats on rivers or lakes", "Block bookings for paddle boards or rowing boats on rivers or lakes unless a guide is booked"]) {
    it(sentence, () =>
      decide(sentence, [
        ["book_hire", { item_type: "paddle_board", water: "river", guide_booked: false }, "blocked"],
        ["book_hire", { item_type: "rowing_boat", water: "lake", guide_booked: false }, "blocked"],
        ["book_hire", { item_type: "wetsuit", water: "river", guide_booked: false }, "approved"],
        ["book_hire", { item_type: "paddle_board", water: "pool", guide_booked: false }, "approved"],
      ]),
    );
  }
});

describe("twentieth session: refusals said as phrasal verbs, lists of alternatives, days of the year, orders that point back", () => {
  // Meaning: the things named are refused (blocked) past a value; the negated phrasal says the opposite.
  for (const phrase of ["must be turned down", "get turned away", "get knocked back", "are off limits", "are turned back"]) {
    const sentence = `Bookings for anyone under 16 ${phrase}`;
    it(sentence, () => decide(sentence, [["create_booking", { guest_age: 15 }, "blocked"], ["create_booking", { guest_age: 16 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]));
  }
  it("a phrasal refusal under a negation does not refuse the bookings themselves", () => decide("Bookings for anyone under 16 must not be turned down", [["create_booking", { guest_age: 15 }, "approved"]]));

  // Meaning: any one of three conditions, listed with commas and a last "or" (with and without its comma).
  const lists: [string, Probe[]][] = [
    ["Block refunds over $800, to new customers, or on Sundays", [["issue_refund", { amount: 900, new_customer: false, now: "2027-03-10T12:00:00Z" }, "blocked"], ["issue_refund", { amount: 100, new_customer: true, now: "2027-03-10T12:00:00Z" }, "blocked"], ["issue_refund", { amount: 100, new_customer: false, now: "2027-03-14T12:00:00Z" }, "blocked"], ["issue_refund", { amount: 100, new_customer: false, now: "2027-03-10T12:00:00Z" }, "approved"]]],
    ["Concrete pours can't start before 7am London time, after 7pm London time or on a Sunday", [["schedule_pour", { start_time: "2027-06-09T05:30:00Z" }, "blocked"], ["schedule_pour", { start_time: "2027-06-09T18:30:00Z" }, "blocked"], ["schedule_pour", { start_time: "2027-06-13T10:00:00Z" }, "blocked"], ["schedule_pour", { start_time: "2027-06-09T10:00:00Z" }, "approved"]]],
  ];
  for (const [sentence, probes] of lists) it(sentence, () => decide(sentence, probes));
  it("a scope before the effect is no item of the list after it", () => decide("For refunds over $800, block them on Sundays or on Saturdays", [["issue_refund", { amount: 100, now: "2027-03-14T12:00:00Z" }, "approved"], ["issue_refund", { amount: 900, now: "2027-03-14T12:00:00Z" }, "blocked"]]));
  it("commas joined by 'and' stay all together", () => decide("Block refunds over $800, to new customers and on Sundays", [["issue_refund", { amount: 900, new_customer: true, now: "2027-03-14T12:00:00Z" }, "blocked"], ["issue_refund", { amount: 900, new_customer: false, now: "2027-03-14T12:00:00Z" }, "approved"]]));

  // Meaning: a day (or days) of every year, named or labelled; the action's own date, or the day it runs.
  const yearly: [string, string, string][] = [
    ["Block kiln firings on 1 January", "2027-01-01T10:00:00Z", "2027-01-02T10:00:00Z"],
    ["Block kiln firings on New Year's Day (1 Jan)", "2027-01-01T10:00:00Z", "2027-01-02T10:00:00Z"],
    ["No kiln firings during the nesting season - 2 April to 20 May, each year", "2027-05-20T10:00:00Z", "2027-05-21T10:00:00Z"],
    ["No kiln firings during nesting season (2 Apr to 20 May)", "2027-04-02T10:00:00Z", "2027-04-01T10:00:00Z"],
  ];
  for (const [sentence, inside, outside] of yearly) it(sentence, () => decide(sentence, [["start_kiln_firing", { kiln: "K2", now: inside }, "blocked"], ["start_kiln_firing", { kiln: "K2", now: outside }, "approved"]]));
  it("a day with its year is one date, not every year's", () => expect(restate((parseRule("Block kiln firings on 1 January 2027") as { rule: Parameters<typeof restate>[0] }).rule)).not.toMatch(/January 1 \(/));

  // Meaning: a statement of days, then an order for the things booked on "those days": the statement's days whole.
  it("the days a statement names are carried whole into the order that points back at them", () => {
    for (const sentence of ["We can't fire the kiln on Sundays or on New Year's Day (1 Jan) — block any firing booked for those days.", "We never fire the kiln on Sundays or on 1 January: block any firing scheduled on them."]) {
      decide(sentence, [
        ["book_kiln_firing", { kiln: "K2", scheduled_start: "2027-01-01T09:00:00Z" }, "blocked"],
        ["book_kiln_firing", { kiln: "K2", scheduled_start: "2027-01-03T09:00:00Z" }, "blocked"],
        ["book_kiln_firing", { kiln: "K2", scheduled_start: "2027-01-04T09:00:00Z" }, "approved"],
      ]);
    }
  });

  // Meaning: a limit per window, then an order that only points back at it ("the rest", "anything past that").
  for (const [limit, order] of [
    ["No more than 3 locker upgrades per hour.", "Refuse the others."],
    ["Staff can give out max 3 locker upgrades a week.", "Refuse anything over that."],
    ["Staff may issue a maximum of 3 locker upgrades per hour.", "Refuse any more."],
  ]) {
    const sentence = `${limit} ${order}`;
    it(sentence, () => {
      expect(splitClauses(sentence)).toHaveLength(1);
      const set = ruleSetOf(splitClauses(sentence)[0]!);
      const now = new Date("2027-03-10T12:00:00Z");
      const history = [1, 2, 3].map((m) => ({ tool: "issue_locker_upgrade", at: new Date(now.getTime() - m * 60_000) }));
      expect(set.decide(prepareAction({ tool: "issue_locker_upgrade", args: { member_id: "M1" }, now, history })).decision).toBe("blocked");
      expect(set.decide(prepareAction({ tool: "issue_locker_upgrade", args: { member_id: "M1" }, now, history: history.slice(1) })).decision).toBe("approved");
    });
  }
});

describe("twentieth session: asides that tell a consequence, dollars of the writer's own, lists of domains, labelled codes, activity units", () => {
  // Meaning: the effect holds past the value; what the dash adds is why.
  for (const aside of ["the mill would send the lorry back", "our insurer would refuse the claim", "the buyer will return it"]) {
    const sentence = `If the grain is above 14% moisture, the delivery is not permitted — ${aside}.`;
    it(sentence, () => expect(splitClauses(sentence)[1]).toBe(`${aside}.`));
    it(`${sentence} (decided)`, () => decide(splitClauses(sentence)[0]!, [["accept_grain_delivery", { lot: "L1", moisture_fraction: 0.15 }, "blocked"], ["accept_grain_delivery", { lot: "L1", moisture_fraction: 0.13 }, "approved"]]));
  }
  // Meaning: dollars said without whose are the dollar of the amount the action carries; a named dollar is that one.
  for (const [value, qualified] of [["$300", false], ["three hundred dollars", false], ["300 bucks", false], ["US$300", true], ["300 USD", true]] as const) {
    const sentence = `Block late-fee write-offs above ${value}`;
    it(sentence, () =>
      decide(sentence, [
        ["write_off_late_fee", { amount: 320, currency: "AUD" }, qualified ? "blocked" : "blocked"],
        ["write_off_late_fee", { amount: 280, currency: "CAD" }, qualified ? "blocked" : "approved"],
        ["write_off_late_fee", { amount: 280, currency: "USD" }, "approved"],
        ["write_off_late_fee", { amount: 280, currency: "EUR" }, "blocked"],
      ]),
    );
  }
  // Meaning: outside every domain of a list, however the list names them.
  for (const list of ["example.org or our own cliniclane.co.uk addresses", "example.org, or their cliniclane.co.uk domain", "example.org or the cliniclane.co.uk domain"]) {
    const sentence = `Never email care notes to anyone outside ${list}.`;
    it(sentence, () =>
      decide(sentence, [
        ["email_care_notes", { recipient_email: "a@cliniclane.co.uk" }, "approved"],
        ["email_care_notes", { recipient_email: "b@example.org" }, "approved"],
        ["email_care_notes", { recipient_email: "c@gmail.com" }, "blocked"],
      ]),
    );
  }
  // Meaning: a short code after its label ("Band 2") is what the call writes with the label joined (band_2).
  for (const [sentence, fired] of [
    ["Closing a Band 1 or Band 2 ticket requires approval from a lead in the hub.", "conditional"],
    ["Never close Band 1 or Band 2 tickets.", "blocked"],
  ] as const) {
    it(sentence, () =>
      decide(sentence, [
        ["close_ticket", { ticket_id: "T1", priority: "band_1" }, fired],
        ["close_ticket", { ticket_id: "T1", priority: "band_2" }, fired],
        ["close_ticket", { ticket_id: "T1", priority: "band_3" }, "approved"],
      ]),
    );
  }
  // Meaning: activity of a source, in curies or becquerels either side.
  for (const [limit, at, over] of [["20 mCi", { activity_mbq: 740 }, { activity_mbq: 741 }], ["740 MBq", { activity_mci: 20 }, { activity_mci: 20.1 }], ["0.74 GBq", { activity_mbq: 740 }, { activity_mbq: 745 }]] as const) {
    const sentence = `Doses over ${limit} need a physicist's sign-off`;
    it(sentence, () => decide(sentence, [["release_dose", { isotope: "f18", ...at }, "approved"], ["release_dose", { isotope: "f18", ...over }, "conditional"]]));
  }
});

describe("twentieth session: 'gets' under a negated subject, someone counted, a figure of our own, days of what is booked, a list that holds the value", () => {
  // Meaning: no such thing may be done while the condition holds; a count of people says whether anyone is.
  for (const sentence of ["If anyone is still logged in to a bay, no wash cycle gets started in it.", "If someone is logged in to the bay, no wash cycle gets started."]) {
    it(sentence, () => decide(sentence, [["start_wash_cycle", { bay: "B2", staff_logged_in: 2 }, "blocked"], ["start_wash_cycle", { bay: "B2", staff_logged_in: 0 }, "approved"]]));
  }
  // Meaning: one of the call's amounts below another, the other named as the writer's own.
  for (const sentence of ["Sending a customer an estimate whose total is below our production cost for the job is not allowed.", "Block estimates whose total is below our production cost", "Never send estimates whose total is under their production cost"]) {
    it(sentence, () => decide(sentence, [["send_estimate", { estimate_total: 900, production_cost: 1000 }, "blocked"], ["send_estimate", { estimate_total: 1100, production_cost: 1000 }, "approved"]]));
  }
  // Meaning: what is booked has its own day, which the days name; the day the booking is made does not matter.
  for (const sentence of ["Do not book deep cleans on Saturdays or Sundays", "Never schedule deep cleans on weekends", "Don't reserve deep cleans on Saturdays or Sundays unless the site is the depot"]) {
    it(sentence, () =>
      decide(sentence, [
        ["book_deep_clean", { site: "office", date: "2027-05-16", now: "2027-05-12T10:00:00Z" }, "blocked"],
        ["book_deep_clean", { site: "office", date: "2027-05-17", now: "2027-05-15T10:00:00Z" }, "approved"],
      ]),
    );
  }
  // Meaning: a thing named by a value one list holds; another list naming it in one of its values says nothing.
  it("a value held in one closed list names the thing whatever another list's values say", () => {
    const set = ruleSetOf("Block boiler maintenance");
    const choices = { equipment: ["boiler", "chiller"], task: ["boiler_inspection", "filter_swap"] };
    const call = (args: Record<string, unknown>) => set.decide(prepareAction({ tool: "schedule_maintenance", args, params: ["equipment", "task", "start_time"], choices, now: new Date("2027-03-10T12:00:00Z") })).decision;
    expect([call({ equipment: "boiler", task: "filter_swap" }), call({ equipment: "chiller", task: "filter_swap" })]).toEqual(["blocked", "approved"]);
  });
});

describe("twentieth session: a thing the call says it is of, counts of the things past a bound, ending what was done, a booking tool's own date", () => {
  // Meaning: no action with that substance during those days of the year, on the date the tool books it for.
  for (const [sentence, tool, key] of [
    ["No herbicide during the nesting season - 2 April to 20 May", "schedule_spray", "spray_date"],
    ["No herbicide between April 2 and May 20, each year", "book_treatment", "treatment_date"],
  ] as const) {
    it(sentence, () =>
      decide(sentence, [
        [tool, { field: "F1", product_type: "herbicide", [key]: "2027-04-20", now: "2027-03-01T10:00:00Z" }, "blocked"],
        [tool, { field: "F1", product_type: "herbicide", [key]: "2027-05-21", now: "2027-04-20T10:00:00Z" }, "approved"],
        [tool, { field: "F1", product_type: "fertiliser", [key]: "2027-04-20", now: "2027-03-01T10:00:00Z" }, "approved"],
      ]),
    );
  }
  it("a substance named alone governs any call that says it is of it", () =>
    decide("Never allow herbicide", [["schedule_spray", { product_type: "herbicide" }, "blocked"], ["log_spray", { chemical_type: "herbicide" }, "blocked"], ["schedule_spray", { product_type: "fungicide" }, "approved"]]));

  // Meaning: at most N of the things past a bound in the window; smaller ones neither count nor are limited.
  for (const sentence of ["No more than 2 payouts above $5,000 per hour", "At most 2 payouts over $5,000 an hour. Refuse the others.", "Block more than 2 payouts exceeding $5,000 per hour"]) {
    it(sentence, () => {
      const set = ruleSetOf(splitClauses(sentence)[0]!);
      const now = new Date("2027-03-10T12:00:00Z");
      const big = { amount: 6000, currency: "USD" };
      const small = { amount: 100, currency: "USD" };
      const past = (args: Record<string, unknown>[]) => args.map((a, i) => ({ tool: "create_payout", at: new Date(now.getTime() - (i + 1) * 60_000), args: a }));
      const call = (args: Record<string, unknown>, history: ReturnType<typeof past>) => set.decide(prepareAction({ tool: "create_payout", args, now, history })).decision;
      expect([call(big, past([big, big])), call(big, past([big, small, small])), call(small, past([big, big, big]))]).toEqual(["blocked", "approved", "approved"]);
    });
  }

  // Meaning: a rule about making bookings does not govern ending or archiving one; closing a sale is making it.
  it("ending or archiving what a noun of doing names is another operation", () => {
    decide("Bookings by members under 18 require sign-off from a duty manager", [
      ["create_booking", { member_age: 16 }, "conditional"],
      ["end_booking", { booking_id: "B1" }, "approved"],
      ["archive_booking", { booking_id: "B1" }, "approved"],
    ]);
    decide("Block sales over $5,000", [["close_sale", { amount: 9000 }, "blocked"], ["complete_sale", { amount: 9000 }, "blocked"]]);
  });

  // Meaning: the thing may not go to a party outside the list; "who's" is "who is".
  for (const sentence of ["Never share a tenant's address with anyone who's not on their lettings rota", "Never share a tenant's address with a caller who's not on the lettings rota"]) {
    it(sentence, () => decide(sentence, [["share_tenant_address", { tenant_id: "T1", caller_on_lettings_rota: false }, "blocked"], ["share_tenant_address", { tenant_id: "T1", caller_on_lettings_rota: true }, "approved"]]));
  }
});

describe("twentieth session: a verb joined to its particle, people counted by their own noun, a machine named for what it does", () => {
  // Meaning: stopping the fan is forbidden while there are people below ground.
  for (const sentence of ["Don't shut down the main extractor fan when anyone is underground.", "The main extractor fan must never be shut down while miners are underground.", "Never shut down the main extractor fan while workers are underground"]) {
    it(sentence, () =>
      decide(sentence, [
        ["stop_extractor_fan", { fan: "main", miners_underground: 6, workers_underground: 6, people_underground: 6 }, "blocked"],
        ["stop_extractor_fan", { fan: "main", miners_underground: 0, workers_underground: 0, people_underground: 0 }, "approved"],
      ]),
    );
  }
  // Meaning: no polishing (by starting the machine that does it) while dancers are on the floor.
  for (const sentence of ["Never polish the floor while dancers are still in the hall.", "Don't polish the hall floor while any dancers are on it."]) {
    it(sentence, () =>
      decide(sentence, [
        ["start_floor_polisher", { hall: "main", dancers_on_floor: 4 }, "blocked"],
        ["start_floor_polisher", { hall: "main", dancers_on_floor: 0 }, "approved"],
        ["sell_dance_tickets", { quantity: 2, dancers_on_floor: 4 }, "approved"],
      ]),
    );
  }
});

/** A text's clauses as one active rule set (each clause a rule of its own), which must give `count` rules, decided on each probe. */
function decideAll(text: string, count: number, probes: Probe[]): void {
  const clauses = splitClauses(text);
  expect(clauses, text).toHaveLength(count);
  const set = new RuleSet(
    clauses.map((c, index) => {
      const parsed = parseRule(c);
      if (!parsed.ok) throw new Error(`${c}: refused: ${parsed.error.message}`);
      return { policyId: "p", policyName: "p", version: 1, priority: 0, index, rule: parsed.rule };
    }),
  );
  for (const [tool, args, expected] of probes) {
    const { now, ...rest } = args as { now?: string };
    const got = set.decide(prepareAction({ tool, args: rest, now: now ? new Date(now) : new Date() })).decision;
    expect(got, `${text} | ${tool} ${JSON.stringify(args)}`).toBe(expected);
  }
}

describe("twenty-first session: negated subjects, going below a depth, lists of things after 'for', a party before a bound, limits stated", () => {
  // Meaning: a negated subject with a present verb, a passive or a modal further on says what never happens:
  // the verb is the action and the measure its condition; a leading day without a comma is the rule's day.
  const negated: [string, Probe[]][] = [
    ["Nobody rents out more than 4 kayaks", [["rent_kayaks", { kayaks: 5 }, "blocked"], ["rent_kayaks", { kayaks: 4 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Nothing above 15 kg is carried up the scaffold by hand", [["carry_load", { weight_kg: 16 }, "blocked"], ["carry_load", { weight_kg: 15 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Nothing longer than 3 m may be loaded onto the courier van", [["load_van", { item_length_m: 3.2 }, "blocked"], ["load_van", { item_length_m: 2.9 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["On Saturdays nobody operates the jackhammer", [["operate_jackhammer", { site: "S1", now: "2027-03-13T12:00:00Z" }, "blocked"], ["operate_jackhammer", { site: "S1", now: "2027-03-12T12:00:00Z" }, "approved"], ["cancel_invoice", { invoice_id: "I1", now: "2027-03-13T12:00:00Z" }, "approved"]]],
  ];
  for (const [sentence, probes] of negated) it(sentence, () => decide(sentence, probes));
  // Meaning: a verb of going names no operation: whatever action takes a thing past the measure to that place is
  // blocked (the same thing sent elsewhere, or a smaller one, is not).
  const going: [string, Probe[]][] = [
    ["Nothing heavier than 400 kg goes onto the mezzanine", [["move_pallet", { weight_kg: 450, destination: "mezzanine" }, "blocked"], ["hoist_crate", { weight_kg: 450, destination: "mezzanine" }, "blocked"], ["move_pallet", { weight_kg: 350, destination: "mezzanine" }, "approved"], ["move_pallet", { weight_kg: 450, destination: "yard" }, "approved"]]],
    ["Nothing longer than 6 m comes into the courtyard", [["schedule_delivery", { length_m: 7, destination: "courtyard" }, "blocked"], ["schedule_delivery", { length_m: 5, destination: "courtyard" }, "approved"], ["schedule_delivery", { length_m: 7, destination: "yard" }, "approved"]]],
  ];
  for (const [sentence, probes] of going) it(sentence, () => decide(sentence, probes));
  // Meaning: a reason about a thing, then "so nothing over M … it": the pronoun's place is that thing.
  const reasoned: [string, Probe[]][] = [
    ["The cold room is only 4 m deep so nothing over 3 m goes into it", [["store_item", { location: "cold room", length_m: 3.2 }, "blocked"], ["store_item", { location: "cold room", length_m: 2.9 }, "approved"], ["store_item", { location: "loading bay", length_m: 3.2 }, "approved"]]],
    ["The dinghy is only 4 m long so nothing over 3 m is stowed in it", [["stow_item", { boat: "dinghy", length_m: 3.2 }, "blocked"], ["stow_item", { boat: "dinghy", length_m: 2.8 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["The back gate is only 3 metres wide, so nothing wider than 2 metres drives through it", [["drive_vehicle", { gate: "back gate", width_m: 2.2 }, "blocked"], ["drive_vehicle", { gate: "back gate", width_m: 1.8 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
  ];
  for (const [sentence, probes] of reasoned) it(sentence, () => decide(sentence, probes));

  // Meaning: going (diving, descending) below a length is a depth greater than it; the length itself is allowed.
  const depth: [string, Probe[]][] = [
    ["Nobody dives below 25 m", [["plan_dive", { depth_m: 26 }, "blocked"], ["plan_dive", { depth_m: 25 }, "approved"], ["plan_dive", { depth_m: 24 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Dives that go below 30 metres need the dive master's sign-off", [["plan_dive", { max_depth_m: 31 }, "conditional"], ["plan_dive", { max_depth_m: 30 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["The submersible must never descend below 200 m", [["descend_submersible", { target_depth_m: 201 }, "blocked"], ["descend_submersible", { target_depth_m: 199 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
  ];
  for (const [sentence, probes] of depth) it(sentence, () => decide(sentence, probes));

  // Meaning: a list of named things after "for" matches a value naming any one of them, as the tool writes it.
  const lists: [string, Probe[]][] = [
    ["Discounts for a dented tin, a torn label or a damaged seal need a supervisor's sign-off", [["apply_discount", { reason: "torn_label" }, "conditional"], ["apply_discount", { reason: "dented_tin" }, "conditional"], ["apply_discount", { reason: "damaged_seal" }, "conditional"], ["apply_discount", { reason: "loyalty_card" }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Block insurance claims for a cracked windscreen or flood damage", [["file_insurance_claim", { claim_type: "flood_damage" }, "blocked"], ["file_insurance_claim", { claim_type: "cracked_windscreen" }, "blocked"], ["file_insurance_claim", { claim_type: "theft" }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Block claims for a cracked windscreen, a burst pipe or flood damage", [["file_claim", { claim_type: "burst_pipe" }, "blocked"], ["file_claim", { claim_type: "flood_damage" }, "blocked"], ["file_claim", { claim_type: "theft" }, "approved"]]],
  ];
  for (const [sentence, probes] of lists) it(sentence, () => decide(sentence, probes));

  // Meaning: a party or qualified thing after for/to/from, then a bound: the party is so AND the amount is past it.
  const parties: [string, Probe[]][] = [
    ["Require approval for credits for bronze members over 300 points", [["issue_credit", { member_tier: "bronze", points: 301 }, "conditional"], ["issue_credit", { member_tier: "bronze", points: 299 }, "approved"], ["issue_credit", { member_tier: "silver", points: 301 }, "approved"]]],
    ["Payouts to overseas suppliers above $5,000 need a finance sign-off", [["create_payout", { supplier_type: "overseas", amount: 6000 }, "conditional"], ["create_payout", { supplier_type: "overseas", amount: 4000 }, "approved"], ["create_payout", { supplier_type: "domestic", amount: 6000 }, "approved"]]],
    ["Never allow loans to junior staff over $1,000", [["grant_loan", { staff_level: "junior", amount: 1200 }, "blocked"], ["grant_loan", { staff_level: "junior", amount: 800 }, "approved"], ["grant_loan", { staff_level: "senior", amount: 1200 }, "approved"]]],
    ["Block withdrawals from business accounts above $25,000", [["withdraw_funds", { account_type: "business", amount: 26000 }, "blocked"], ["withdraw_funds", { account_type: "business", amount: 24000 }, "approved"], ["withdraw_funds", { account_type: "personal", amount: 26000 }, "approved"]]],
  ];
  for (const [sentence, probes] of parties) it(sentence, () => decide(sentence, probes));
  // Meaning: what measures the thing after "for" (a total, an age) is that thing's own measure, no party.
  const measured: [string, Probe[]][] = [
    ["Block credits for invoices totalling more than $1,200", [["issue_credit", { invoice_total: 1300 }, "blocked"], ["issue_credit", { invoice_total: 1100 }, "approved"]]],
    ["Require approval for reminders for invoices older than 60 days", [["send_reminder", { invoice_age_days: 61 }, "conditional"], ["send_reminder", { invoice_age_days: 59 }, "approved"]]],
  ];
  for (const [sentence, probes] of measured) it(sentence, () => decide(sentence, probes));

  // Meaning: a limit stated (by whoever sets it, or of the thing limited) or ordered with "cap … at" is the most
  // allowed; past it is blocked.
  const limits: [string, Probe[]][] = [
    ["The fire officer caps the hall at 300 people", [["book_hall", { attendees: 301 }, "blocked"], ["book_hall", { attendees: 300 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Hot tub sessions are capped at 45 minutes", [["book_hot_tub_session", { duration_minutes: 46 }, "blocked"], ["book_hot_tub_session", { duration_minutes: 45 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Cash withdrawals are limited to $400", [["withdraw_cash", { amount: 401 }, "blocked"], ["withdraw_cash", { amount: 400 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Cap each donation at £2,500", [["accept_donation", { amount: 2600 }, "blocked"], ["accept_donation", { amount: 2500 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
  ];
  for (const [sentence, probes] of limits) it(sentence, () => decide(sentence, probes));
  // Meaning: "cap <who> at N <things> per hour" is a rate of the things counted.
  for (const sentence of ["Cap the hotline at 25 callbacks per hour", "Cap the front desk at 10 refunds per hour"]) {
    it(sentence, () => {
      const tool = sentence.includes("callbacks") ? "schedule_callback" : "issue_refund";
      const n = sentence.includes("callbacks") ? 25 : 10;
      const set = ruleSetOf(sentence);
      const now = new Date("2027-03-10T12:00:00Z");
      const history = Array.from({ length: n }, (_, m) => ({ tool, at: new Date(now.getTime() - (m + 1) * 60_000) }));
      expect(set.decide(prepareAction({ tool, args: { customer_id: "C1" }, now, history })).decision).toBe("blocked");
      expect(set.decide(prepareAction({ tool, args: { customer_id: "C1" }, now, history: history.slice(1) })).decision).toBe("approved");
      expect(set.decide(prepareAction({ tool: "cancel_invoice", args: { invoice_id: "I1" }, now, history })).decision).toBe("approved");
    });
  }
  // Meaning: a statement of a measure, then an order pointing back at it: only the order is the rule, with that measure.
  const pointed: [string, Probe[]][] = [
    ["Our insurance caps the climbing wall at 12 climbers. Never book more than that on the climbing wall.", [["book_climbing_wall", { climbers: 13 }, "blocked"], ["book_climbing_wall", { climbers: 12 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["The harbour permit caps the jetty at 40 boats. Block moorings beyond that at the jetty.", [["book_mooring", { boats: 41, location: "jetty" }, "blocked"], ["book_mooring", { boats: 40, location: "jetty" }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
  ];
  for (const [text, probes] of pointed) it(text, () => decideAll(text, 1, probes));
});

describe("twenty-first session: a head of a department approving, bands after a rule, field against field, headings, lapsed permits, two signs, a reason before a sign", () => {
  // Meaning: the things past the bound need the approval of the head of that department; below it, nothing.
  const heads: [string, Probe[]][] = [
    ["Any purchase over $3,000 needs the head of finance to approve it", [["create_purchase", { amount: 3100 }, "conditional"], ["create_purchase", { amount: 2900 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Grant requests above £20,000 need the head of research to approve them", [["submit_grant_request", { amount: 21000 }, "conditional"], ["submit_grant_request", { amount: 19000 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
  ];
  for (const [sentence, probes] of heads) it(sentence, () => decide(sentence, probes));
  // Meaning: "…, and none may last beyond N": a second rule blocking past N, beside the first's approval.
  it("Any overtime past 10 hours needs the head of operations to approve it, and none may last beyond 16 hours", () =>
    decideAll("Any overtime past 10 hours needs the head of operations to approve it, and none may last beyond 16 hours", 2, [
      ["log_overtime", { hours: 17 }, "blocked"],
      ["log_overtime", { hours: 16 }, "conditional"],
      ["log_overtime", { hours: 11 }, "conditional"],
      ["log_overtime", { hours: 9 }, "approved"],
      ["cancel_invoice", { invoice_id: "I1" }, "approved"],
    ]));

  // Meaning: a rule past a bound, then a band below it that needs approval: above blocked, the band (both ends
  // included) conditional, below it approved.
  const bands: [string, Probe[]][] = [
    ["Discounts over 40% are refused; from 25% up to 40% a store manager has to approve them.", [["apply_discount", { discount_percent: 41 }, "blocked"], ["apply_discount", { discount_percent: 40 }, "conditional"], ["apply_discount", { discount_percent: 25 }, "conditional"], ["apply_discount", { discount_percent: 24 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Bookings for groups of 20 or more are refused. Groups of 12 through 19 need the duty manager to approve them.", [["create_booking", { group_size: 20 }, "blocked"], ["create_booking", { group_size: 19 }, "conditional"], ["create_booking", { group_size: 12 }, "conditional"], ["create_booking", { group_size: 11 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Sedation doses of level 4 or higher are refused. Levels 2 through 3 need the anaesthetist to approve them.", [["give_sedation", { sedation_level: 4 }, "blocked"], ["give_sedation", { sedation_level: 3 }, "conditional"], ["give_sedation", { sedation_level: 2 }, "conditional"], ["give_sedation", { sedation_level: 1 }, "approved"]]],
    ["Wire transfers over €20,000 are blocked. €5,000 to €20,000 needs a compliance officer's sign-off.", [["send_wire_transfer", { amount: 20001 }, "blocked"], ["send_wire_transfer", { amount: 20000 }, "conditional"], ["send_wire_transfer", { amount: 5000 }, "conditional"], ["send_wire_transfer", { amount: 4999 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
  ];
  for (const [text, probes] of bands) it(text, () => decideAll(text, 2, probes));

  // Meaning: one of the call's measures against another of its own, in the other's unit; equal is allowed.
  const fields: [string, Probe[]][] = [
    ["Never load a trailer carrying more than its rated payload", [["load_trailer", { cargo_kg: 11800, rated_payload_t: 12 }, "approved"], ["load_trailer", { cargo_kg: 12300, rated_payload_t: 12 }, "blocked"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Never send out a van carrying more than its rated load", [["dispatch_van", { load_kg: 3400, rated_load_t: 3.5 }, "approved"], ["dispatch_van", { load_kg: 3600, rated_load_t: 3.5 }, "blocked"]]],
    ["Never tow a trailer heavier than its rated towing weight", [["tow_trailer", { trailer_kg: 1900, rated_towing_weight_t: 2 }, "approved"], ["tow_trailer", { trailer_kg: 2100, rated_towing_weight_t: 2 }, "blocked"]]],
    ["Never charge a fee higher than the fee the client accepted", [["charge_fee", { charged_fee: 120, accepted_fee: 120 }, "approved"], ["charge_fee", { charged_fee: 130, accepted_fee: 120 }, "blocked"], ["charge_fee", { charged_fee: 100, accepted_fee: 120 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Do not invoice an hourly rate above the rate the client signed", [["create_invoice", { invoiced_rate: 85, signed_rate: 85 }, "approved"], ["create_invoice", { invoiced_rate: 90, signed_rate: 85 }, "blocked"]]],
  ];
  for (const [sentence, probes] of fields) it(sentence, () => decide(sentence, probes));

  // Meaning: a short heading before a dash is only the topic; the date itself is still fine, the day after is past.
  const headed: [string, Probe[]][] = [
    ["Workshop - never lend out drills or grinders once the service due date has passed", [["lend_tool", { tool_type: "drill", service_due_date: "2027-04-10", now: "2027-04-10T12:00:00Z" }, "approved"], ["lend_tool", { tool_type: "drill", service_due_date: "2027-04-10", now: "2027-04-11T12:00:00Z" }, "blocked"], ["lend_tool", { tool_type: "grinder", service_due_date: "2027-04-10", now: "2027-04-11T12:00:00Z" }, "blocked"], ["cancel_invoice", { invoice_id: "I1", now: "2027-04-11T12:00:00Z" }, "approved"]]],
    ["Front desk - never hand out pool passes or sauna passes once the membership end date has passed", [["issue_pass", { pass_type: "pool", membership_end_date: "2027-06-01", now: "2027-06-01T12:00:00Z" }, "approved"], ["issue_pass", { pass_type: "pool", membership_end_date: "2027-06-01", now: "2027-06-02T12:00:00Z" }, "blocked"], ["cancel_invoice", { invoice_id: "I1", now: "2027-06-02T12:00:00Z" }, "approved"]]],
    ["Boatyard - do not rent out kayaks or canoes once the safety check date has passed", [["rent_boat", { boat_type: "kayak", safety_check_date: "2027-06-01", now: "2027-06-01T12:00:00Z" }, "approved"], ["rent_boat", { boat_type: "kayak", safety_check_date: "2027-06-01", now: "2027-06-02T12:00:00Z" }, "blocked"], ["cancel_invoice", { invoice_id: "I1", now: "2027-06-02T12:00:00Z" }, "approved"]]],
  ];
  for (const [text, probes] of headed) it(text, () => decideAll(text, 1, probes));

  // Meaning: "on a permit that has expired/lapsed" is the permit's end date in the past.
  const lapsed: [string, Probe[]][] = [
    ["Never start excavation on a permit that has expired", [["start_excavation", { permit_expiry_date: "2027-03-01", now: "2027-03-02T12:00:00Z" }, "blocked"], ["start_excavation", { permit_expiry_date: "2027-03-01", now: "2027-02-28T12:00:00Z" }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Never open a market stall on a permit that has lapsed", [["open_market_stall", { permit_expiry: "2027-03-01", now: "2027-03-02T12:00:00Z" }, "blocked"], ["open_market_stall", { permit_expiry: "2027-03-01", now: "2027-02-28T12:00:00Z" }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["Block hot works carried out on a permit that has lapsed", [["start_hot_works", { permit_expires_on: "2027-03-01", now: "2027-03-02T12:00:00Z" }, "blocked"], ["start_hot_works", { permit_expires_on: "2027-03-01", now: "2027-02-28T12:00:00Z" }, "approved"]]],
  ];
  for (const [sentence, probes] of lapsed) it(sentence, () => decide(sentence, probes));

  // Meaning: two signs joined by ", and": outside the hours is blocked, and the day is blocked (either one).
  const signs: [string, Probe[]][] = [
    ["No drone flights before 07:30 or after 19:00 Europe/London, and no drone flights on Sundays", [["fly_drone", { now: "2027-01-13T07:00:00Z" }, "blocked"], ["fly_drone", { now: "2027-01-13T08:00:00Z" }, "approved"], ["fly_drone", { now: "2027-01-13T18:30:00Z" }, "approved"], ["fly_drone", { now: "2027-01-13T19:30:00Z" }, "blocked"], ["fly_drone", { now: "2027-01-17T12:00:00Z" }, "blocked"], ["cancel_invoice", { invoice_id: "I1", now: "2027-01-17T12:00:00Z" }, "approved"]]],
    ["No leaf blowing before 09:00 or after 17:00 Europe/Berlin, and no leaf blowing on Saturdays", [["start_leaf_blower", { now: "2027-01-13T07:30:00Z" }, "blocked"], ["start_leaf_blower", { now: "2027-01-13T08:30:00Z" }, "approved"], ["start_leaf_blower", { now: "2027-01-13T15:30:00Z" }, "approved"], ["start_leaf_blower", { now: "2027-01-13T16:30:00Z" }, "blocked"], ["start_leaf_blower", { now: "2027-01-16T12:00:00Z" }, "blocked"], ["cancel_invoice", { invoice_id: "I1", now: "2027-01-16T12:00:00Z" }, "approved"]]],
    ["No skip collections before 8am or after 6pm UK time, and no skip collections on Sundays", [["collect_skip", { now: "2027-01-13T07:30:00Z" }, "blocked"], ["collect_skip", { now: "2027-01-13T08:30:00Z" }, "approved"], ["collect_skip", { now: "2027-01-13T18:30:00Z" }, "blocked"], ["collect_skip", { now: "2027-01-17T12:00:00Z" }, "blocked"]]],
  ];
  for (const [text, probes] of signs) it(text, () => decideAll(text, 2, probes));

  // Meaning: what a thing cannot take, before a colon, is only the reason; the sign's "no" after it is the rule.
  const reasons: [string, Probe[]][] = [
    ["The old quay can't carry heavy cranes: no unloading at berth 3 with a crane heavier than 40 tonnes", [["schedule_unloading", { berth: 3, crane_weight_t: 45 }, "blocked"], ["schedule_unloading", { berth: 3, crane_weight_t: 35 }, "approved"], ["schedule_unloading", { berth: 1, crane_weight_t: 45 }, "approved"], ["cancel_invoice", { invoice_id: "I1" }, "approved"]]],
    ["The yard cannot fit long trailers: no collections at dock 2 for trailers longer than 45 feet", [["schedule_collection", { dock: 2, trailer_length_ft: 48 }, "blocked"], ["schedule_collection", { dock: 2, trailer_length_ft: 44 }, "approved"], ["schedule_collection", { dock: 2, trailer_length_m: 14 }, "blocked"], ["schedule_collection", { dock: 5, trailer_length_ft: 48 }, "approved"]]],
    ["Forklifts can't carry pallets above 1,000 kg: no loading at dock 2 with a pallet heavier than 1,000 kg", [["schedule_loading", { dock: 2, pallet_weight_kg: 1100 }, "blocked"], ["schedule_loading", { dock: 2, pallet_weight_kg: 900 }, "approved"], ["schedule_loading", { dock: 4, pallet_weight_kg: 1100 }, "approved"]]],
  ];
  for (const [text, probes] of reasons) it(text, () => decideAll(text, 1, probes));
});

describe("twenty-first session: an argument named as the tool names it, codes after 'is', a kind of person before a bound", () => {
  // Meaning: the rule is about calls whose named yes/no argument is true; the codes after "is" are values
  // of the argument the words name, and an exception holds only for those values.
  const keyed: [string, Probe[]][] = [
    ["Never waive late fees (waive_late_fee true) unless the waiver reason is hardship_case or billing_error.", [["adjust_invoice", { waive_late_fee: true, waiver_reason: "goodwill" }, "blocked"], ["adjust_invoice", { waive_late_fee: true, waiver_reason: "hardship_case" }, "approved"], ["adjust_invoice", { waive_late_fee: true, waiver_reason: "billing_error" }, "approved"], ["adjust_invoice", { waive_late_fee: false, waiver_reason: "goodwill" }, "approved"]]],
    ["Do not upgrade seats (upgrade_cabin = yes) unless the upgrade reason is oversold_cabin.", [["upgrade_seat", { upgrade_cabin: true, upgrade_reason: "loyalty" }, "blocked"], ["upgrade_seat", { upgrade_cabin: true, upgrade_reason: "oversold_cabin" }, "approved"], ["upgrade_seat", { upgrade_cabin: false, upgrade_reason: "loyalty" }, "approved"]]],
  ];
  for (const [sentence, probes] of keyed) it(sentence, () => decide(sentence, probes));
  // Meaning: a code after "is" (with "or" between codes) is an equality, in a condition or an exception.
  for (const [sentence, probes] of [
    ["Block cancellations when the cancel reason is chargeback_dispute.", [["cancel_booking", { cancel_reason: "chargeback_dispute" }, "blocked"], ["cancel_booking", { cancel_reason: "customer_moved" }, "approved"]]],
    ["Block cancellations unless the cancel reason is customer_moved or duplicate_booking.", [["cancel_booking", { cancel_reason: "chargeback_dispute" }, "blocked"], ["cancel_booking", { cancel_reason: "customer_moved" }, "approved"], ["cancel_booking", { cancel_reason: "duplicate_booking" }, "approved"]]],
    ["Write-offs need approval when the write_off_code is wo_90 or wo_120.", [["create_write_off", { write_off_code: "wo_90" }, "conditional"], ["create_write_off", { write_off_code: "wo_120" }, "conditional"], ["create_write_off", { write_off_code: "wo_30" }, "approved"]]],
  ] as [string, Probe[]][]) it(sentence, () => decide(sentence, probes));
  // Meaning: a kind of person (by WordNet, not a list) before a bound is the party, and the bound the amount.
  for (const [sentence, probes] of [
    ["Never allow payouts to subcontractors over $3,000.", [["create_payout", { payee_type: "subcontractor", amount: 3500 }, "blocked"], ["create_payout", { payee_type: "employee", amount: 3500 }, "approved"], ["create_payout", { payee_type: "subcontractor", amount: 2500 }, "approved"]]],
    ["Block refunds for premium guests over €200.", [["issue_refund", { guest_tier: "premium", amount_eur: 250 }, "blocked"], ["issue_refund", { guest_tier: "standard", amount_eur: 250 }, "approved"], ["issue_refund", { guest_tier: "premium", amount_eur: 150 }, "approved"]]],
  ] as [string, Probe[]][]) it(sentence, () => decide(sentence, probes));
});

describe("twenty-first session: results that come back, bounds under a heading, a window and what lies outside it, things counted in a state", () => {
  // Meaning: "OK'd" is approval; "before the claim goes in" says when, not what.
  it("Dose changes of more than 30% need to be OK'd first by a pharmacist, before the claim goes in.", () =>
    decide("Dose changes of more than 30% need to be OK'd first by a pharmacist, before the claim goes in.", [
      ["change_dose", { change_percent: 35 }, "conditional"],
      ["change_dose", { change_percent: 25 }, "approved"],
    ]));
  // Meaning: a result that "has come back" so, or "hasn't come back" so, is (not) in that state.
  for (const [sentence, probes] of [
    ["Surgery bookings over $8,000 need the clinic lead's sign-off, unless the insurer's pre-approval has come back approved.", [["book_surgery", { cost_usd: 9000, preapproval_status: "approved" }, "approved"], ["book_surgery", { cost_usd: 9000, preapproval_status: "pending" }, "conditional"], ["book_surgery", { cost_usd: 7000, preapproval_status: "pending" }, "approved"]]],
    ["Don't let any coach run a session with a player under 16 if the coach's background check hasn't come back clear.", [["schedule_session", { player_age: 15, coach_check_status: "pending" }, "blocked"], ["schedule_session", { player_age: 15, coach_check_status: "clear" }, "approved"], ["schedule_session", { player_age: 17, coach_check_status: "pending" }, "approved"]]],
  ] as [string, Probe[]][]) it(sentence, () => decide(sentence, probes));
  // Meaning: a heading, then two bounds with their own effects; "grand" is thousands of the action's money.
  it("Bonus payments: above four thousand dollars needs the HR lead's approval, above twenty grand is blocked (those are paid through payroll instead).", () =>
    decideAll("Bonus payments: above four thousand dollars needs the HR lead's approval, above twenty grand is blocked (those are paid through payroll instead).", 2, [
      ["create_bonus_payment", { amount_cents: 400000 }, "approved"],
      ["create_bonus_payment", { amount_cents: 400001 }, "conditional"],
      ["create_bonus_payment", { amount_cents: 2000001 }, "blocked"],
    ]));
  // Meaning: a one-word heading before a colon is the topic; an -ing participle after the things says what they relate to.
  it("Treasury: transfers or payouts involving an address with a risk rating of 7 or more are refused.", () =>
    decideAll("Treasury: transfers or payouts involving an address with a risk rating of 7 or more are refused.", 1, [
      ["create_payout", { address_risk_rating: 7 }, "blocked"],
      ["create_payout", { address_risk_rating: 6 }, "approved"],
    ]));
  // Meaning: the things counted are those in the state the sentence names.
  for (const [sentence, probes] of [
    ["A boiler may only be shut down for servicing if no fewer than 2 spare boilers are running.", [["shutdown_boiler", { spare_boilers_running: 1 }, "blocked"], ["shutdown_boiler", { spare_boilers_running: 2 }, "approved"]]],
    ["Never open the climbing wall when fewer than 2 instructors are on duty.", [["open_climbing_wall", { instructors_on_duty: 1 }, "blocked"], ["open_climbing_wall", { instructors_on_duty: 2 }, "approved"]]],
  ] as [string, Probe[]][]) it(sentence, () => decide(sentence, probes));
});
