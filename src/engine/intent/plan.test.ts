// Ranking on tool sets of our own (a library and a bakery), with decoy tools that share words with the
// right one: the request's verb and object pick the tool, a request no tool fits gets none (the floor), two
// tools the request cannot tell apart become a question naming both (the margin), and catalog names that
// are also ordinary words do not stand in for the capability a request asks for. The generated part renders
// each tool's request in several surface forms and reports the share planned right.
import { describe, expect, it } from "vitest";
import { CATALOG } from "../../modules/connections/catalog.ts";
import type { JsonSchema, Tool } from "../../tools/tool.ts";
import { classifyTurn } from "./classify.ts";
import { plan, readToolFor, type Plan } from "./plan.ts";

function tool(name: string, description: string, properties: Record<string, JsonSchema>, required: string[] = []): Tool {
  return {
    name,
    description,
    parameters: { type: "object", properties, required },
    source: "builtin",
    connectionId: undefined,
    invoke: () => Promise.reject(new Error("not called")),
    health: () => "healthy",
  };
}

const code = (prefix: string, digits: number, description: string): JsonSchema => ({ type: "string", pattern: `^${prefix}-[0-9]{${digits}}$`, description });

const LIBRARY: Tool[] = [
  tool("renew_loan", "Renew a loan — Extends a member's loan by some weeks.", { loan_id: code("LN", 5, "The loan, e.g. LN-12345."), weeks: { type: "integer", minimum: 1, maximum: 4 } }, ["loan_id"]),
  tool("reserve_title", "Reserve a title — Puts a hold on a title for a member at a branch.", { member_id: code("MB", 4, "The member."), title: { type: "string" }, branch: { type: "string", enum: ["central", "riverside", "north"] } }, ["member_id", "title"]),
  tool("cancel_reservation", "Cancel a reservation — Releases a hold.", { reservation_id: code("RS", 5, "The reservation.") }, ["reservation_id"]),
  tool("change_reservation", "Change a reservation — Moves a hold to another branch.", { reservation_id: code("RS", 5, "The reservation."), branch: { type: "string", enum: ["central", "riverside", "north"] } }, ["reservation_id", "branch"]),
  tool("pay_fine", "Pay a fine — Records a payment against a member's overdue fines.", { member_id: code("MB", 4, "The member."), amount: { type: "number", description: "Amount paid in EUR." } }, ["member_id", "amount"]),
  tool("get_loan_status", "Get a loan's status — Due date, renewals left and reserved titles waiting behind it.", { loan_id: code("LN", 5, "The loan.") }, ["loan_id"]),
  tool("log_visit", "Log a visit — Notes a member's visit to a branch.", { member_id: code("MB", 4, "The member."), notes: { type: "string" } }, ["member_id"]),
  tool("log_phone_call", "Log a phone call — Notes a call with a member.", { member_id: code("MB", 4, "The member."), notes: { type: "string" } }, ["member_id"]),
  tool("send_newsletter", "Send the newsletter — Mails the monthly newsletter to all members.", { subject: { type: "string" } }, ["subject"]),
];

const BAKERY: Tool[] = [
  tool("order_flour", "Order flour from the mill.", { kind: { type: "string", enum: ["rye", "wheat", "spelt"] }, kilograms: { type: "number", description: "How much, in kg." } }, ["kind", "kilograms"]),
  tool("schedule_bake", "Schedule a bake — Puts a batch on the oven plan.", { product: { type: "string" }, start: { type: "string", format: "date-time" } }, ["product", "start"]),
  tool("cancel_delivery", "Cancel a delivery to a café customer.", { delivery_id: code("DL", 4, "The delivery.") }, ["delivery_id"]),
  tool("get_delivery_status", "Where a delivery is now.", { delivery_id: code("DL", 4, "The delivery.") }, ["delivery_id"]),
  tool("record_waste", "Record unsold bread thrown away at closing.", { kilograms: { type: "number" } }, ["kilograms"]),
];

function decide(tools: Tool[], userTurns: string[], lastAssistant?: string): Plan {
  const turn = classifyTurn(userTurns.at(-1)!, { lastAssistant, earlierTurns: userTurns.length - 1 });
  return plan({ tools, catalog: CATALOG, userTurns, ...(lastAssistant ? { lastAssistant } : {}), turn });
}
const chosen = (p: Plan) => (p.kind === "tool" ? p.tool.name : p.kind === "connect" ? `connect:${p.integration.id}` : p.kind === "ambiguous" ? `ambiguous:${p.candidates.map((c) => c.item.name).join("|")}` : "none");

describe("ranking: verb and object", () => {
  it("the request's verb and the noun it acts on pick the tool over decoys sharing other words", () => {
    expect(chosen(decide(LIBRARY, ["Please renew LN-12345 for two more weeks"]))).toBe("renew_loan");
    expect(chosen(decide(LIBRARY, ["could you cancel reservation RS-10001?"]))).toBe("cancel_reservation");
    expect(chosen(decide(LIBRARY, ["Reserve the garden atlas for MB-1234 at riverside"]))).toBe("reserve_title");
    expect(chosen(decide(LIBRARY, ["We're closing the north branch early today. Can you move reservation RS-10001 to central?"]))).toBe("change_reservation");
    expect(chosen(decide(BAKERY, ["Do order 40 kg of rye for Friday"]))).toBe("order_flour");
    expect(chosen(decide(BAKERY, ["Scrap delivery DL-4411, the café closed"]))).toBe("cancel_delivery");
  });

  it("a word ending in -er keeps its meaning (an order is not an ore, an offer is not time off)", () => {
    const tools = [
      tool("send_offer", "Sends a candidate the written job offer.", { candidate_id: code("CN", 4, "The candidate.") }, ["candidate_id"]),
      tool("request_time_off", "Record time off for an employee.", { employee_id: code("EM", 4, "The employee."), start_date: { type: "string", format: "date" } }, ["employee_id"]),
    ];
    expect(chosen(decide(tools, ["Please draft the offer for CN-4821, first day 2027-05-01"]))).toBe("send_offer");
  });
});

describe("ranking: floor", () => {
  it("a request no tool fits is answered without one", () => {
    for (const text of ["Write me a limerick about autumn leaves", "Translate the opening hours into French", "Summarise this week's staff meeting"]) {
      expect(chosen(decide(LIBRARY, [text])), text).toBe("none");
      expect(chosen(decide(BAKERY, [text])), text).toBe("none");
    }
  });
});

describe("ranking: ambiguity margin", () => {
  it("two tools with the same verb and nothing else to tell them apart are a question naming both", () => {
    expect(chosen(decide(LIBRARY, ["Log my chat with MB-1234 about the overdue atlas"]))).toMatch(/^ambiguous:(log_visit\|log_phone_call|log_phone_call\|log_visit)$/);
  });

  it("a record named with no operation, which two tools act on, is a question", () => {
    expect(chosen(decide(LIBRARY, ["The member can't come on Saturday anymore. Reservation RS-10001."]))).toMatch(/^ambiguous:.*cancel_reservation/);
    expect(chosen(decide(LIBRARY, ["The member can't come on Saturday anymore. Reservation RS-10001."]))).toMatch(/change_reservation/);
  });

  it("the object of the verb settles what the verb alone would not", () => {
    expect(chosen(decide(LIBRARY, ["Log a phone call with MB-1234: asked about the atlas"]))).toBe("log_phone_call");
  });
});

// A greenhouse's tools: a read of a house's record and a tool that adds a measurement to it.
const GREENHOUSE = (money: string): Tool[] => [
  tool("get_house", "Get a greenhouse's record — Crop, current temperature, humidity and last inspection.", { house_id: code("GH", 2, "The greenhouse.") }, ["house_id"]),
  tool("record_temperature", "Record a temperature reading for a greenhouse's record.", { house_id: code("GH", 2, "The greenhouse."), temperature_c: { type: "number", description: "Reading in °C." } }, ["house_id", "temperature_c"]),
  tool("order_seedlings", "Order seedlings for a greenhouse.", { house_id: code("GH", 2, "The greenhouse."), delivery_date: { type: "string", format: "date" }, [`budget_${money}`]: { type: "number" } }, ["house_id", "delivery_date"]),
];

describe("ranking: a measure only one tool takes", () => {
  it("two tools the words fit alike: the one with a parameter for the request's measure", () => {
    for (const text of ["GH-12's thermometer said 75°F this morning, pop that on its record", "pop 24 °C on the record of GH-12", "record of GH-12: 23.5 degrees celsius, stick it on there"]) {
      expect(chosen(decide(GREENHOUSE("eur"), [text])), text).toBe("record_temperature");
    }
    // With no measure, the words alone still cannot tell a read from a write.
    expect(chosen(decide(GREENHOUSE("eur"), ["GH-12's record, stick it on there"]))).toMatch(/^ambiguous:/);
  });
});

describe("ranking: a command's verb no tool knows, by its class", () => {
  const tools = [
    tool("schedule_battery_exchange", "Book a technician to exchange a unit's battery pack.", { unit_id: code("UN", 4, "The unit.") }, ["unit_id"]),
    tool("submit_battery_reading", "Submit a battery voltage reading for a unit.", { unit_id: code("UN", 4, "The unit."), volts: { type: "number" } }, ["unit_id", "volts"]),
  ];
  it("'swap', 'substitute' reach the tool that exchanges", () => {
    for (const text of ["swap the battery on UN-2231", "I need a battery swap on UN-2231", "please substitute the battery pack in UN-2231"]) expect(chosen(decide(tools, [text])), text).toBe("schedule_battery_exchange");
  });
  it("a verb of what is only told is not widened", () => {
    expect(chosen(decide(tools, ["I've seen UN-2231's battery, it reads 11.9 volts. Submit that."]))).toBe("submit_battery_reading");
  });
});

describe("ranking: a record handed over with no operation", () => {
  it("'sort it', 'deal with', 'take care of' a record two tools act on is a question naming both", () => {
    for (const text of ["RS-10001: the member is ill and can't come Saturday. can you sort it", "Please deal with reservation RS-10001, the member moved away", "take care of RS-10001 for me, she's away that week"]) {
      expect(chosen(decide(LIBRARY, [text])), text).toMatch(/^ambiguous:/);
    }
    // The operation named: the tool.
    expect(chosen(decide(LIBRARY, ["RS-10001: the member is ill, can you cancel it"]))).toBe("cancel_reservation");
  });
});

describe("numeric dates in the order the workspace writes them", () => {
  const delivery = (money: string, text: string) => {
    const p = decide(GREENHOUSE(money), [text]);
    return p.kind === "tool" ? p.arguments.delivery_date : p.kind;
  };
  it("day first where its money is pounds or euros, month first where it is dollars, asked where nothing says", () => {
    for (const text of ["Order seedlings for GH-12, delivered 07/09/2027", "order seedlings for GH-12 — delivery 07/09/2027 please"]) {
      expect(delivery("gbp", text), text).toBe("2027-09-07");
      expect(delivery("eur", text), text).toBe("2027-09-07");
      expect(delivery("usd", text), text).toBe("2027-07-09");
      expect(delivery("total", text), text).toBeUndefined();
    }
    // A date of the conversation that can only be read one way shows its order.
    const later = decide(GREENHOUSE("total"), ["Order seedlings for GH-12 to arrive 23/08/2027", "Actually make it 07/09/2027"]);
    expect(later.kind === "tool" ? later.arguments.delivery_date : later.kind).toBe("2027-09-07");
  });
});

// A garden centre's tools: reads and actions on the same records, and reads of a record and of one aspect of it.
const NURSERY: Tool[] = [
  tool("get_customer", "Look up a customer — Gives a customer's name, address and loyalty tier.", { customer_id: code("CU", 5, "The customer.") }, ["customer_id"]),
  tool("get_loyalty_points", "Look up a customer's loyalty points — The points a customer has left to spend this season.", { customer_id: code("CU", 5, "The customer.") }, ["customer_id"]),
  tool("get_pot_stock", "Look up stock of a pot size — Pots on hand per greenhouse.", { pot_code: code("PS", 3, "The pot size."), greenhouse: { type: "string", enum: ["east", "west"] } }, ["pot_code"]),
  tool("move_pot_stock", "Move pot stock — Carts pots from one greenhouse to the other.", { pot_code: code("PS", 3, "The pot size."), greenhouse: { type: "string", enum: ["east", "west"] } }, ["pot_code", "greenhouse"]),
  tool("get_order_status", "Track a plant order — Where the order is and when it arrives.", { order_id: code("OR", 4, "The order.") }, ["order_id"]),
  tool("cancel_order", "Cancel a plant order — Stops an order that has not left yet.", { order_id: code("OR", 4, "The order.") }, ["order_id"]),
];

describe("ranking: reads and actions on one record", () => {
  it("a read verb with a record's code picks the read tool, written plainly, mistyped or after a filler", () => {
    expect(chosen(decide(NURSERY, ["Check stock of PS-120 in the east greenhouse."]))).toBe("get_pot_stock");
    expect(chosen(decide(NURSERY, ["I need you to chekc on OR-5531."]))).toBe("get_order_status");
    expect(chosen(decide(NURSERY, ["right so find order OR-5531"]))).toBe("get_order_status");
  });

  it("the read of the record its code names wins over the read of an aspect the request does not mention", () => {
    expect(chosen(decide(NURSERY, ["Bring up CU-40211."]))).toBe("get_customer");
    // "has" is an auxiliary here, not a word shared with "a customer has left".
    expect(chosen(decide(NURSERY, ["The till has a query about this shopper. I want to look up CU-40211."]))).toBe("get_customer");
    expect(chosen(decide(NURSERY, ["Look up the loyalty points of CU-40211."]))).toBe("get_loyalty_points");
  });

  it("a verb people use for moving a booking is the reschedule operation", () => {
    const tools = [
      tool("reschedule_fitting", "Move a fitting — Moves a fitting to a new start time.", { fitting_id: code("FT", 4, "The fitting."), new_start: { type: "string", format: "date-time" } }, ["fitting_id", "new_start"]),
      tool("cancel_fitting", "Cancel a fitting — Frees the slot.", { fitting_id: code("FT", 4, "The fitting.") }, ["fitting_id"]),
    ];
    for (const verb of ["postpone", "shift", "push back", "defer"]) expect(chosen(decide(tools, [`Please ${verb} FT-3310 to 2027-08-02T10:00:00Z`])), verb).toMatch(/reschedule_fitting|ambiguous/);
    expect(chosen(decide(tools, ["The tailor is ill. I need to shift FT-3310 to 2027-08-02T10:00:00Z."]))).toBe("reschedule_fitting");
  });

  it("a noun of the request that another tool has as its operation is not that tool's object", () => {
    const tools = [
      tool("book_table", "Book a table — Reserves a table in the café.", { guests: { type: "integer" } }, ["guests"]),
      tool("lend_item", "Lend an item — Lends a book or a game to a member.", { member_id: code("MB", 4, "The member."), item_code: code("IT", 5, "The item.") }, ["member_id", "item_code"]),
    ];
    expect(chosen(decide(tools, ["A member is waiting; lend the book IT-20431 to MB-1234."]))).toBe("lend_item");
  });

  it("a command written as a label's value is content: the request is the other command", () => {
    expect(chosen(decide(NURSERY, ["Could you call off OR-5531 — reason: duplicate order, please?"]))).toBe("cancel_order");
    expect(chosen(decide(NURSERY, ["OR-5531 - call off the order, thanks"]))).toBe("cancel_order");
  });

  it("a verb the stemmer merges with another ('change' and 'write' are both update to it) widens only where written", () => {
    const tools = [
      tool("update_order_note", "Change the note on a plant order.", { order_id: code("OR", 4, "The order."), note: { type: "string" } }, ["order_id", "note"]),
      tool("send_customer_email", "Send an email to a customer.", { to: { type: "string", format: "email" }, body: { type: "string" } }, ["to", "body"]),
    ];
    expect(chosen(decide(tools, ["Change the note on OR-5531 to 'leave at the gate'"]))).toBe("update_order_note");
    expect(chosen(decide(tools, ["Write to our customer to tell them the roses arrive Friday"]))).toBe("send_customer_email");
  });

  it("destructive operations said another way reach their tool, not a read or an update sharing the code", () => {
    const tools = [
      tool("get_baker", "Look up a baker — name, shifts and role.", { baker_id: code("BK", 4, "The baker.") }, ["baker_id"]),
      tool("update_baker_role", "Change a baker's role from a date.", { baker_id: code("BK", 4, "The baker."), new_role: { type: "string" }, effective_date: { type: "string", format: "date" } }, ["baker_id", "new_role"]),
      tool("terminate_employment", "End a baker's employment.", { baker_id: code("BK", 4, "The baker."), last_day: { type: "string", format: "date" } }, ["baker_id", "last_day"]),
      tool("delete_baker_record", "Delete a baker's record.", { baker_id: code("BK", 4, "The baker.") }, ["baker_id"]),
    ];
    expect(chosen(decide(tools, ["fire BK-2201 effective 2027-09-30"]))).toBe("terminate_employment");
    expect(chosen(decide(tools, ["um get rid of baker BK-2201's record entirely"]))).toBe("delete_baker_record");
  });

  it("a question about a record that several read tools take goes to the one it names, else the plain read", () => {
    expect(readToolFor(NURSERY, "how many loyalty points does CU-40211 have?")?.name).toBe("get_loyalty_points");
    expect(readToolFor(NURSERY, "who is CU-40211?")?.name).toBe("get_customer");
  });

  it("an acronym ranks as the words of a tool's description it abbreviates", () => {
    const tools = [
      tool("raise_order", "Raise a purchase order with a supplier.", { supplier: { type: "string" }, total_eur: { type: "number" } }, ["supplier", "total_eur"]),
      tool("log_delivery", "Log a delivery at the goods-in door.", { supplier: { type: "string" }, pallets: { type: "integer" } }, ["supplier"]),
      tool("file_request", "File a request for information to the architect.", { question: { type: "string" } }, ["question"]),
    ];
    expect(chosen(decide(tools, ["PO for Millers, €420 total"]))).toBe("raise_order");
    expect(chosen(decide(tools, ["new RFI: which lintel goes over the back door?"]))).toBe("file_request");
    // A word in capitals is no acronym ("OK", "ID").
    expect(chosen(decide(tools, ["OK log the 3 pallets from Millers"]))).toBe("log_delivery");
  });

  it("a code with no operation stays a question", () => {
    expect(chosen(decide(NURSERY, ["The buyer phoned about OR-5531."]))).toMatch(/^ambiguous:|^none$/);
  });
});

describe("ranking: the catalog", () => {
  it("a catalog name used as an ordinary word does not stand for the integration", () => {
    expect(chosen(decide(BAKERY, ["Linear ovens are slow to heat. Page the facilities on-call."]))).toBe("connect:pagerduty");
    expect(chosen(decide(BAKERY, ["Teams at both shops are short today, text the manager that we open late"]))).toBe("connect:twilio");
  });

  it("a catalog name in the place of a channel is the integration", () => {
    expect(chosen(decide(BAKERY, ["Open an issue in Linear for the broken proofer"]))).toBe("connect:linear");
    expect(chosen(decide(BAKERY, ["Post the oven plan on Microsoft Teams"]))).toBe("connect:microsoft_teams");
  });

  it("a catalog name written in lower case where a channel goes is the integration", () => {
    expect(chosen(decide(BAKERY, ["hey ping the bakers channel on teams that oven 2 is down"]))).toBe("connect:microsoft_teams");
    expect(chosen(decide(BAKERY, ["post the rye schedule via notion pls"]))).toBe("connect:notion");
    expect(chosen(decide(BAKERY, ["the bakers work in teams of two, schedule a bake of rye for 2027-03-04T05:00:00Z"]))).not.toBe("connect:microsoft_teams");
  });

  it("the capability the request asks for picks the integration", () => {
    expect(chosen(decide(LIBRARY, ["page the on-call, the scanner at north is down again"]))).toBe("connect:pagerduty");
  });
});

describe("turns that continue a request", () => {
  it("insistence plans the earlier request again (to be governed again), a bare answer fills it", () => {
    expect(chosen(decide(LIBRARY, ["Renew LN-12345 for 4 weeks", "Just do it anyway."], "I can't: policy no-long-renewals forbids it."))).toBe("renew_loan");
    expect(chosen(decide(LIBRARY, ["Reserve the garden atlas for MB-1234", "riverside"], "Which branch should it be held at?"))).toBe("reserve_title");
  });

  it("insistence whose own words fit two tools means the one asked for before", () => {
    const twoRenewals = [...LIBRARY, tool("renew_membership", "Renew a membership — Extends a member's card by a year.", { member_id: code("MB", 4, "The member.") }, ["member_id"])];
    for (const push of ["I know the policy. Renew it anyway.", "Please just renew it, I run this branch"]) {
      expect(chosen(decide(twoRenewals, ["Renew LN-12345 for 4 weeks", push], "I can't: policy no-long-renewals forbids it.")), push).toBe("renew_loan");
    }
  });

  it("'call it …' names something; it asks for no phone call", () => {
    expect(chosen(decide(LIBRARY, ["Renew LN-12345, call it four weeks"]))).toBe("renew_loan");
  });

  it("insistence whose own verb only shares a synonym with another tool still means the earlier request", () => {
    // "put … through", "push … on", "slap … on": a verb close to another tool's operation, with nothing
    // else of that tool in the turn.
    const withDecoy = [...LIBRARY, tool("submit_suggestion", "Submit a suggestion — Files a member's suggestion for the branch.", { member_id: code("MB", 4, "The member."), text: { type: "string" } }, ["member_id", "text"])];
    for (const push of ["I run this branch and I'm overriding that. Put it through.", "Overriding the policy as head librarian, just put it in"]) {
      expect(chosen(decide(withDecoy, ["Renew LN-12345 for 4 weeks", push], "I can't: policy no-long-renewals forbids it.")), push).toBe("renew_loan");
    }
  });
});

// Requests rendered from each tool's verb and object in surface forms people use; the share planned right
// is the ranking's score on this generated set (printed for the record, held to a floor here).
const FORMS = [
  (v: string, o: string, c: string) => `${v} ${o} ${c}`,
  (v: string, o: string, c: string) => `please ${v.toLowerCase()} the ${o} ${c} asap`,
  (v: string, o: string, c: string) => `Can you ${v.toLowerCase()} ${o} ${c}?`,
  (v: string, o: string, c: string) => `Busy morning here. Could you ${v.toLowerCase()} the ${o} ${c}?`,
  (v: string, o: string, c: string) => `Do ${v.toLowerCase()} the ${o} ${c} for me`,
  (v: string, o: string, c: string) => `I need you to ${v.toLowerCase()} the ${o} ${c}.`,
  (v: string, o: string, c: string) => `${c} - ${v.toLowerCase()} the ${o}, thanks`,
];
const GENERATED: [Tool[], string, string, string, string][] = [
  [LIBRARY, "renew_loan", "Renew", "loan", "LN-20001"],
  [LIBRARY, "renew_loan", "Extend", "loan", "LN-20002"],
  [LIBRARY, "cancel_reservation", "Cancel", "reservation", "RS-30001"],
  [LIBRARY, "cancel_reservation", "Release", "hold", "RS-30002"],
  [LIBRARY, "change_reservation", "Change", "reservation", "RS-30003"],
  [LIBRARY, "pay_fine", "Pay", "fine for", "MB-4001"],
  [LIBRARY, "log_visit", "Log", "visit of", "MB-4002"],
  [BAKERY, "cancel_delivery", "Cancel", "delivery", "DL-5001"],
  [BAKERY, "cancel_delivery", "Call off", "delivery", "DL-5002"],
  [BAKERY, "order_flour", "Order", "spelt flour,", "30 kg"],
];

describe("ranking on generated surface forms", () => {
  it("plans the right tool for most renderings", () => {
    let right = 0;
    const wrong: string[] = [];
    for (const [tools, expected, verb, object, value] of GENERATED) {
      for (const form of FORMS) {
        const text = form(verb, object, value);
        const got = chosen(decide(tools, [text]));
        if (got === expected) right++;
        else wrong.push(`${text} → ${got}`);
      }
    }
    const total = GENERATED.length * FORMS.length;
    console.log(`generated ranking set: ${right}/${total} right${wrong.length > 0 ? `; wrong: ${wrong.join("; ")}` : ""}`);
    expect(right / total).toBeGreaterThanOrEqual(0.9);
  });
});

// A vat room of our own: several tools take the same vat code, one lists additives by name.
const VAT_ROOM: Tool[] = [
  tool("add_to_vat", "Record an addition — Adds a treatment to a vat and logs it.", { vat_id: { type: "string", pattern: "^V[0-9]{2}$", description: "Vat, e.g. V04." }, additive: { type: "string", enum: ["citric_acid", "pectic_enzyme", "yeast_nutrient", "oak_chips"] }, amount_grams: { type: "number", description: "Total added, in grams." } }, ["vat_id", "additive", "amount_grams"]),
  tool("set_vat_temperature", "Set a vat's temperature — Changes the cooling jacket setpoint.", { vat_id: { type: "string", pattern: "^V[0-9]{2}$", description: "Vat, e.g. V04." }, target_celsius: { type: "number" } }, ["vat_id", "target_celsius"]),
  tool("transfer_between_vats", "Rack between vats — Moves juice from one vat to another.", { from_vat: { type: "string", pattern: "^V[0-9]{2}$" }, to_vat: { type: "string", pattern: "^V[0-9]{2}$" }, litres: { type: "number" } }, ["from_vat", "to_vat", "litres"]),
];

describe("a value only one tool lists, and a channel named as what is sent", () => {
  it("the first word of an enum value only one tool lists names that tool and that value", () => {
    for (const text of ["Add citric to V03 please", "citric into V03 pls", "can you put some pectic in V03", "V03 needs pectic today"]) {
      const p = decide(VAT_ROOM, [text]);
      expect(chosen(p), text).toBe("add_to_vat");
      if (p.kind === "tool") expect(p.arguments.additive, text).toBe(/citric/.test(text) ? "citric_acid" : "pectic_enzyme");
    }
    // The head of a value ("acid", "chips") says the kind, not which one; alone it picks no value.
    const head = decide(VAT_ROOM, ["add chips to V03 please"]);
    if (head.kind === "tool") expect(head.arguments.additive).toBeUndefined();
  });

  it("'send an SMS', 'shoot them an email' with no tool of that channel ask for the integration", () => {
    for (const [text, integration] of [
      ["send a quick SMS to our night baker on +44 7700 900123 - ovens on at 4", "twilio"],
      ["can you send a text to the driver that the rye is late", "twilio"],
    ] as const) {
      expect(chosen(decide(BAKERY, [text])), text).toBe(`connect:${integration}`);
    }
  });
});

describe("a word of another tool's value beside the request's verb", () => {
  const FUEL: Tool[] = [
    tool("uplift_fuel", "Uplift fuel — Books fuel for a departing flight.", { flight: { type: "string", pattern: "^[A-Z0-9]{2}[0-9]{1,4}$" }, fuel_kg: { type: "number" } }, ["flight", "fuel_kg"]),
    tool("cancel_fuel_order", "Cancel a fuel order — Withdraws a booked uplift.", { order_id: { type: "string", pattern: "^FO-[0-9]{4}$" }, reason: { type: "string", enum: ["tankering_change", "flight_cancelled", "wrong_quantity"] } }, ["order_id", "reason"]),
  ];
  it("names the value's tool only when the verb is that tool's or there is no verb", () => {
    expect(chosen(decide(FUEL, ["BA0117 is tankering today, please uplift 52 tonnes"]))).toBe("uplift_fuel");
    expect(chosen(decide(FUEL, ["FO-1234 tankering, please"]))).toBe("cancel_fuel_order");
  });
});

// Sixteenth session: a thing to make that only an integration of the catalog makes, and a layout of keys
// and values naming a tool's fields. Our own tools and sentences.
describe("a thing only an integration makes, and labels that name a tool's fields", () => {
  const PUMPS: Tool[] = [
    tool("restart_pump", "Restart a pump — Power-cycles a pump's controller.", { pump_id: code("PMP", 3, "The pump, e.g. PMP-104."), mode: { type: "string", enum: ["soft", "hard"] } }, ["pump_id", "mode"]),
    tool("create_job", "Create a maintenance job against an asset.", { asset_id: { type: "string", pattern: "^(PMP|VLV)-[0-9]{3}$", description: "Asset tag." }, job_type: { type: "string", enum: ["corrective", "preventive", "inspection"] }, priority: { type: "string", enum: ["p1", "p2", "p3"] }, due_date: { type: "string", format: "date" }, description: { type: "string" } }, ["asset_id", "job_type", "priority", "description"]),
    tool("get_pump_status", "Read a pump's flow and pressure.", { pump_id: code("PMP", 3, "The pump.") }, ["pump_id"]),
  ];
  for (const verb of ["Trigger", "Open", "Raise", "Create", "Please open"]) {
    for (const tail of ["for whoever is on call - PMP-104 just tripped", "and alert the on-call engineer, PMP-104 is down"]) {
      const text = `${verb} an incident ${tail}`;
      it(text, () => expect(chosen(decide(PUMPS, [text]))).toBe("connect:pagerduty"));
    }
  }
  it("a thing a workspace tool names stays with the tool", () => {
    expect(chosen(decide(PUMPS, ["Create a job for PMP-104, corrective, p2, the seal leaks"]))).toBe("create_job");
  });
  for (const [layout, text] of [
    ["bullets", "New job:\n• asset: PMP-104\n• type: preventative\n• priority: P3\n• due: 22 Sept 2027\n• desc: annual vibration survey"],
    ["dashes", "New job\n- asset: PMP-104\n- type: preventive\n- priority: p3\n- desc: annual vibration survey"],
    ["colons, no bullets", "asset: PMP-104\ntype: inspection\npriority: p1\ndesc: the coupling rattles"],
  ] as const) {
    it(`a layout of the tool's own fields (${layout}) asks for that tool, whatever a code in it could also fill`, () => expect(chosen(decide(PUMPS, [text]))).toBe("create_job"));
  }
});

// Seventeenth session: a clipped verb of the tools' own ("ack", "recalc") that the typo reader would take for
// another verb, next to words of another tool. Our own tools and sentences.
describe("a tool's verb written clipped", () => {
  const ALARMS: Tool[] = [
    tool("acknowledge_alarm", "Acknowledge an alarm on the control system.", { alarm_id: code("ALM", 5, "The alarm."), operator_id: code("OP", 3, "Who acknowledges it."), comment: { type: "string" } }, ["alarm_id", "operator_id"]),
    tool("schedule_screen_clean", "Schedule a screen clean — Puts an intake screen on the cleaning plan.", { screen_id: code("SCR", 2, "The intake screen."), start_time: { type: "string", format: "date-time" } }, ["screen_id", "start_time"]),
    tool("recalculate_tariff", "Recalculate a customer's tariff.", { account_id: code("AC", 6, "The account.") }, ["account_id"]),
  ];
  for (const text of [
    "ack ALM-20417 for me (OP-112), note: screen SCR-04 is blinded, clean already booked",
    "Ack ALM-20417 - OP-112 - the intake screen clean is on the plan",
    "pls ack ALM-20417, operator OP-112",
  ]) {
    it(text, () => expect(chosen(decide(ALARMS, [text]))).toBe("acknowledge_alarm"));
  }
  it("recalc AC-204411 please", () => expect(chosen(decide(ALARMS, ["recalc AC-204411 please"]))).toBe("recalculate_tariff"));
});

describe("a catalog integration named in the request", () => {
  for (const [text, integration] of [
    ["Upload the revised rota to Google Drive", "google_drive"],
    ["put the minutes in google drive please", "google_drive"],
    ["post the bake plan in #ops on Slack", "slack"],
  ] as const) {
    it(text, () => expect(chosen(decide(BAKERY, [text]))).toBe(`connect:${integration}`));
  }
});

// A value only one tool lists, named outright beside a verb two tools share by class ("book" and
// "schedule"): it says which tool. Our own tools.
describe("a value one tool lists, beside a verb of two tools", () => {
  const PETS: Tool[] = [
    tool("book_pet_check", "Book a pet check — Books a veterinary examination of one pet in the clinic diary, with the vet on duty that day and a room for it.", { pet_id: code("PET", 4, "Pet id from the register."), check_type: { type: "string", enum: ["routine", "dental", "vaccination"] }, date: { type: "string", format: "date" } }, ["pet_id", "check_type", "date"]),
    tool("schedule_pet_transfer", "Schedule a pet transfer — Schedules the move of a pet to another clinic.", { pet_id: code("PET", 4, "Pet id from the register."), destination: { type: "string" }, date: { type: "string", format: "date" } }, ["pet_id", "destination", "date"]),
  ];
  for (const text of ["Book a dental for PET-0341 on 16 May 2027", "book PET-0341 in for a vaccination on 16 May 2027"]) {
    it(text, () => expect(chosen(decide(PETS, [text]))).toBe("book_pet_check"));
  }
});
