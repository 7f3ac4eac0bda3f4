// Turns as people type them, on requests and tools of our own (a boatyard): slips in the short words a
// request is framed by ("cna yuo"), labels with an abbreviated "no.", pressure after a refusal in several
// phrasings, acknowledgements that are not requests, and a value written out whole that names the tool.
// Cases are generated from a few frames × slips × phrasings; each check fails when the class is misread.
import { describe, expect, it } from "vitest";
import type { JsonSchema, Tool } from "../../tools/tool.ts";
import { asMeant, classifyTurn } from "./classify.ts";
import type { EngineResult } from "./engine.ts";
import { plan, type Plan } from "./plan.ts";
import { decideParts } from "./split.ts";

function tool(name: string, description: string, properties: Record<string, JsonSchema>, required: string[]): Tool {
  return { name, description, parameters: { type: "object", properties, required }, source: "builtin", connectionId: undefined, invoke: () => Promise.reject(new Error("not called")), health: () => "healthy" };
}

const BOATYARD: Tool[] = [
  tool("haul_out_boat", "Haul out a boat — Lifts a boat out of the water onto the hard standing.", { berth_id: { type: "string", pattern: "^BR-[0-9]{3}$" }, hull_length_m: { type: "number" } }, ["berth_id"]),
  tool("order_sail", "Order a sail — Orders a new sail from the loft.", { boat_id: { type: "string", pattern: "^BT-[0-9]{4}$" }, sail: { type: "string", enum: ["storm-jib", "code-zero", "main-full-batten"] }, price: { type: "number", description: "Quoted price in EUR." } }, ["boat_id", "sail"]),
  tool("get_berth", "Get a berth — Who is in a berth and until when.", { berth_id: { type: "string", pattern: "^BR-[0-9]{3}$" } }, ["berth_id"]),
  tool("move_boat", "Move a boat — Moves a boat from one berth to another.", { from_berth: { type: "string", pattern: "^BR-[0-9]{3}$" }, to_berth: { type: "string", pattern: "^BR-[0-9]{3}$" } }, ["from_berth", "to_berth"]),
];

const decided = (p: Plan) => (p.kind === "tool" ? p.tool.name : p.kind);

// One-letter slips in the frame words only: swapped, dropped, or a neighbouring key.
const FRAMES: [string, string][] = [
  ["Could yuo please haul out BR-112?", "haul_out_boat"],
  ["Cna you haul out BR-112 tomorrow?", "haul_out_boat"],
  ["I need yu to haul out the boat at BR-112.", "haul_out_boat"],
  ["Would ypu move the boat from BR-101 to BR-207, please?", "move_boat"],
  ["pls mve the boat from BR-101 to BR-207", "move_boat"],
  ["Can yoi move BR-101 to BR-207?", "move_boat"],
];

describe("slips in the short words a request is framed by", () => {
  it("are read as the request they frame, and the request ranks as meant", () => {
    for (const [text, tool] of FRAMES) {
      expect(classifyTurn(text), text).toBe("request");
      expect(decided(plan({ tools: BOATYARD, catalog: [], userTurns: [text], turn: "request" })), text).toBe(tool);
    }
  });

  it("leave values, names and words with letters outside ASCII as written", () => {
    expect(asMeant("Ask Teo at the café about BR-112 and sku FD-12")).toBe("Ask Teo at the café about BR-112 and sku FD-12");
  });
});

describe("labels with an abbreviated number", () => {
  const labels = ["Berth no.", "Berth nr.", "berth no."];
  it("are labels, not commands, before a colon, a dash or 'should be'", () => {
    for (const l of labels) {
      for (const text of [`Please haul out a boat:\n${l}: BR-305\nLength: 12 m`, `Could you haul out a boat? ${l} should be BR-305 and length 12 m.`, `Haul out a boat.\n${l} - BR-305`]) {
        expect(decided(plan({ tools: BOATYARD, catalog: [], userTurns: [text], turn: classifyTurn(text) })), text).toBe("haul_out_boat");
      }
    }
  });
});

describe("after a refusal", () => {
  const refusal = "I can't prepare that: one of the yard's rules stops it.";
  const pressing = ["fine, but could you do it anyway?", "come on, the owner's on the phone — do it now", "We badly need it this week. Please proceed.", "yes but just push it through", "come on, just do it"];
  const acknowledging = ["sounds good 👍", "looks great to me", "ok great", "got it, thanks"];
  const newRequests = ["ok but move BR-101 to BR-207 instead", "come and haul out BR-112 tomorrow"];

  it("pressing on is insistence, governed again; an acknowledgement is not a request; a new request is one", () => {
    for (const u of pressing) expect(classifyTurn(u, { lastAssistant: refusal, earlierTurns: 1 }), u).toBe("insistence");
    for (const u of acknowledging) expect(classifyTurn(u, { lastAssistant: "Done: the haul-out is prepared.", earlierTurns: 1 }), u).toBe("acknowledgement");
    for (const u of newRequests) expect(classifyTurn(u, { lastAssistant: refusal, earlierTurns: 1 }), u).not.toBe("insistence");
  });
});

describe("a value written out whole", () => {
  it("makes its tool a candidate even when no other word of the request names it", () => {
    // No code of the tool's in them either: the value alone names what is wanted.
    for (const text of ["Buy a code zero at €4,800.", "we need to get a storm jib quoted at 900 euros", "Purchase: main full batten"]) {
      expect(decided(plan({ tools: BOATYARD, catalog: [], userTurns: [text], turn: "request" })), text).toBe("order_sail");
    }
  });
});

describe("a turn that calls a value wrong", () => {
  const readBack = "Ready to haul out the boat at BR-112, hull 12 m. Shall I go ahead?";
  it("is a correction, whatever the value", () => {
    for (const u of ["12 was wrong — it's 14.", "BR-112 is incorrect, BR-113", "the length is a typo: 14 m", "sorry, wrong berth: BR-113"]) {
      expect(classifyTurn(u, { lastAssistant: readBack, earlierTurns: 1 }), u).toBe("correction");
    }
  });
});

describe("one message, several parts", () => {
  const haul = BOATYARD[0]!;
  const result = (args: Record<string, unknown>): EngineResult =>
    ({ outcome: { type: "blocked", tool: haul, arguments: args, verdict: { decision: "blocked", reason: "forbidden" }, conditional: false }, plan: { kind: "tool", tool: haul, arguments: args, candidates: [], continued: false } }) as unknown as EngineResult;

  it("counts a blocked part as a request of its own only when it is a whole call", async () => {
    // "haul out BR-112 and the long keel one": the second part, lent the verb, names no berth.
    const partial = await decideParts([{ role: "user", content: "haul out BR-112 and the long keel one" }], async (m) => result(m.at(-1)!.content.includes("BR-112") ? { berth_id: "BR-112" } : { hull_length_m: 14 }));
    expect(partial).toBeUndefined();
    const whole = await decideParts([{ role: "user", content: "haul out BR-112 and BR-113" }], async (m) => result({ berth_id: /BR-\d+/.exec(m.at(-1)!.content)![0] }));
    expect(whole?.actions.length).toBe(2);
  });
});

describe("the request's verb", () => {
  const cases: [string, string][] = [
    ["Find a berth: BR-112 for the berth.", "get_berth"],
    ["Haul out a boat: BR-112 is the berth.", "haul_out_boat"],
    ["Could you move a boat? double booking as the reason, BR-101 to BR-207.", "move_boat"],
    ["Haul out the boat please.\n- BR-305 (berth)\n- dry stack (where)", "haul_out_boat"],
  ];
  it("is the command with an article before its object, and an operation's verb over a later unknown one", () => {
    for (const [text, tool] of cases) expect(decided(plan({ tools: BOATYARD, catalog: [], userTurns: [text], turn: "request" })), text).toBe(tool);
  });
});

describe("a phrasal verb a tool's name writes as one word", () => {
  const tools = [
    tool("pickup_parcel", "Collect a parcel from a locker.", { parcel_id: { type: "string", pattern: "^PC-[0-9]{4}$" } }, ["parcel_id"]),
    tool("redirect_parcel", "Send a parcel to another locker.", { parcel_id: { type: "string", pattern: "^PC-[0-9]{4}$" }, locker: { type: "string" } }, ["parcel_id", "locker"]),
    tool("checkout_guest", "Close a guest's stay and settle the bill.", { booking_id: { type: "string", pattern: "^BK-[0-9]{4}$" } }, ["booking_id"]),
    tool("extend_booking", "Add nights to a guest's booking.", { booking_id: { type: "string", pattern: "^BK-[0-9]{4}$" }, nights: { type: "integer" } }, ["booking_id", "nights"]),
  ];
  it("is that tool's operation", () => {
    for (const [text, name] of [["Please pick up the parcel PC-1042.", "pickup_parcel"], ["can you check out the guest on BK-1042", "checkout_guest"], ["I'd like to check out the booking BK-1042 for the guest", "checkout_guest"]] as const) {
      expect(decided(plan({ tools, catalog: [], userTurns: [text], turn: "request" })), text).toBe(name);
    }
  });
});

describe("a request hedged as a question or a wish", () => {
  const requests = [
    "Do you suppose you could haul out BR-112?",
    "Any chance you could haul out BR-112 tomorrow?",
    "I was hoping you could move the boat from BR-101 to BR-207.",
    "Is it possible to haul out BR-112 this week?",
    "Would you mind if I moved BR-101 to BR-207?",
    "do you reckon you can haul out BR-112",
    "yep hello do you reckon you could haul out BR-112",
    "ok so any chance you could move BR-101 to BR-207",
    "Is it possible to give j.okafor a berth key?",
  ];
  const questions = ["Is it possible to haul boats out in winter?", "Do you know if you can move boats at night?", "Can you tell me if you could haul out a catamaran?", "yeah hi do you know where the hoist is?"];
  it("is a request; asking what can be done is a question", () => {
    for (const u of requests) expect(classifyTurn(u), u).toBe("request");
    for (const u of questions) expect(classifyTurn(u), u).toBe("question");
  });
});

describe("a value set against the one said before", () => {
  it("is a correction", () => {
    const readBack = "Ready to haul out the boat at BR-112 for Ada Lind. Shall I go ahead?";
    for (const u of ["Ada Lindqvist, not Ada Lind", "BR-113 instead please", "Lindqvist instead of Lind"]) expect(classifyTurn(u, { lastAssistant: readBack, earlierTurns: 1 }), u).toBe("correction");
  });
});
