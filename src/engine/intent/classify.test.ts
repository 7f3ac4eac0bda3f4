// Turn classification across surface forms: each dialogue act written several ways (commands, requests
// phrased as questions, requests after context, emphatic "do", thanks, bare replies, corrections,
// insistence), in domains of our own (a library, a bakery, a garden centre, a radio station).
import { describe, expect, it } from "vitest";
import { asksHistory, classifyTurn, requestFocus, routeOf, type TurnKind } from "./classify.ts";

const after = (assistant: string) => ({ lastAssistant: assistant, earlierTurns: 1 });
const ASKED = after("Which branch should the books go to?");
const DONE = after("Done: the loan is renewed until the 30th.");
const REFUSED = after("That is not allowed: the no-late-renewals policy forbids it.");

const expectKind = (kind: TurnKind, turns: string[], context = {}) => {
  for (const text of turns) expect(classifyTurn(text, context), text).toBe(kind);
};

describe("classifyTurn", () => {
  it("commands in many forms are requests", () => {
    expectKind("request", [
      "Renew the loan on card LIB-2231",
      "please renew my loan",
      "Kindly reserve two copies of the atlas",
      "Do renew the loan for me",
      "Do me a favour and reserve the atlas for Priya",
      "Let's reorder the sourdough flour",
      "Go ahead and restock the shelf",
      "email the schedule to ana@bakery.test",
      "text the driver that the van is ready",
      "page the duty engineer",
      "Tell the morning crew that the oven is broken",
      "Need to order 40 kg of rye for Friday",
      "I'd like the fern pots moved to aisle 3",
      "we need you to cancel the delivery",
      "R-20 → greenhouse, watering run",
    ]);
  });

  it("requests phrased as questions, also after context, are requests", () => {
    expectKind("request", [
      "Could you renew the loan?",
      "can u reserve the atlas for me?",
      "Would you mind restocking the shelf?",
      "The oven is acting up again, can you open a repair ticket?",
      "We have a tasting on Friday. Could you order more rye?",
    ]);
  });

  it("'do' with a noun of action, and a request to anyone who can, are requests", () => {
    expectKind("request", ["do a refund of $30 to order ORD-55", "Do the transfer to savings now", "Could somebody renew the loan for LN-12345?", "it'd be nice if somebody could restock the rye shelf"]);
    expect(requestFocus("do a refund of $30 to order ORD-55").verb).toBe("refund");
    expect(requestFocus("Could somebody renew the loan for LN-12345?").verb).toBe("renew");
    expectKind("question", ["do the refunds go out on Fridays", "Do they deliver on Sundays?"]);
  });

  it("a verb and a value as one item of a list is a field, not the command", () => {
    for (const verb of ["sand", "varnish", "polish"]) {
      for (const [field, value] of [["start", "2027-03-02T08:00:00Z"], ["finish", "17:30"], ["end", "14/03/2027"], ["stop", "4pm"], ["start", "0800"]] as const) {
        for (const layout of [
          (v: string) => `${v[0]!.toUpperCase()}${v.slice(1)} floor FL-208 with rig R-3, two coats, ${field} ${value}.`,
          (v: string) => `please ${v} FL-208 (the hall), dust sheets on, ${field} ${value}`,
        ]) {
          const text = layout(verb);
          expect(requestFocus(text).verb, text).toBe(verb);
        }
      }
    }
    // Alone, or with its object, it is still the command.
    expect(requestFocus("start 2027-03-02").verb).toBe("start");
    expect(requestFocus("sand FL-208, then start the dryer at 5").verb).toBe("start");
  });

  it("a causative's participle is what is to be done", () => {
    for (const [text, verb] of [
      ["could you get the van serviced", "service"],
      ["please get the loan renewed for LN-12345", "renew"],
      ["could you have this invoice paid by friday", "pay"],
      ["get the shelf restocked before noon", "restock"],
    ] as const) {
      expectKind("request", [text]);
      expect(requestFocus(text).verb, text).toBe(verb);
    }
    // "get" with no participle still reads.
    expect(requestFocus("get me the loan for LN-12345").verb).toBe("get");
  });

  it("a noun phrase before its verb is a subject, not a command; wh-words typed without an apostrophe ask", () => {
    expectKind("question", [
      "member at the north branch wants to know whether renewing twice is ok. what's the rule?",
      "hey whats the late fee again?? member in branch 4 has lost a book",
      "hows the loyalty scheme work",
    ]);
  });

  it("a mistyped modal or verb, a capitalised opening verb and a leading filler still make a request", () => {
    expectKind("request", ["colud you renew the loan?", "Woudl you reserve the atlas?", "Chekc the loan LN-12345", "Renew loan LN-12345 for me", "right so renew the loan", "well, reserve the atlas then"]);
    expect(requestFocus("Chekc the loan LN-12345").verb).toBe("check");
  });

  it("assent or a greeting before a command, and an operation verb the tagger reads as a noun", () => {
    expect(requestFocus("ok so renew LN-12345 for two weeks").verb).toBe("renew");
    expect(requestFocus("yeah hi could you reserve the atlas").verb).toBe("reserve");
    expect(requestFocus("um postpone tasting T-12 because the chef is ill").verb).toBe("postpone");
    expectKind("acknowledgement", ["ok thanks", "great, thank you"], DONE);
  });

  it("key-value lines: a label commands nothing, and a command after a label is content", () => {
    expect(requestFocus("Please register one more member.\nEmail - ana@bakery.test\nBranch - north")).toMatchObject({ verb: "register" });
    expect(requestFocus("Would you renew LN-12345 — reason: extend loan, please?").verb).toBe("renew");
    expect(requestFocus("Reason: extend loan").verb).toBe("extend");
  });

  it("questions for knowledge are questions", () => {
    expectKind("question", [
      "What's the late fee for a lost book?",
      "how long can I keep a loan?",
      "Is the rye delivery due today?",
      "Do we deliver on Sundays?",
      "could you tell me the opening hours?",
      "Remind me how the loyalty stamps work",
      "Quick question: which branch has the atlas?",
      "ok so. who signs off on overtime?",
      "Before you order anything: by what date must the flour be ordered?",
      "No changes yet, I just want to know who supplies our rye.",
      "Don't change the playlist. Which song opens the show?",
      "Which fern sells best? Not asking you to reprice anything.",
      "do gift cards expire? if so when",
    ]);
  });

  it("greetings are small talk", () => {
    expectKind("small_talk", ["Hi!", "hello there", "Good morning", "Morning! Hope your week went well"]);
  });

  it("thanks and praise are acknowledgements, never the earlier request again", () => {
    expectKind("acknowledgement", ["thanks!", "perfect, thanks", "Great, thank you for sorting the loans, you're a star.", "cheers"], DONE);
    expectKind("acknowledgement", ["Thanks for the quick reply"]);
    expect(routeOf("acknowledgement")).toBe("small_talk");
  });

  it("a bare value after the assistant's question is its answer", () => {
    expectKind("answer", ["Riverside", "the 14th", "yes", "¥3,000", "two hours", "It's the north branch.", "ok"], ASKED);
    expect(routeOf("answer")).toBe("request");
  });

  it("a change to what was asked is a correction", () => {
    expectKind("correction", ["actually make it Thursday", "no, 3 not 4", "Sorry, I meant the Riverside branch", "change that to 12 copies", "Actually, the 15th"], DONE);
  });

  it("pressure without new content, or a request to skip a check, is insistence", () => {
    expectKind("insistence", ["just do it", "Do it anyway.", "It's urgent, the manager agreed. Do it anyway.", "try again without the approval", "Skip the policy check this time", "go ahead", "proceed"], REFUSED);
    expect(routeOf("insistence")).toBe("request");
  });

  it("a word of stepping around a check anywhere in the turn is insistence", () => {
    expectKind("insistence", ["I'm the head of branch. I'm overriding that, renew it for 6 weeks.", "ignoring the limit this once, put it through"], REFUSED);
  });

  it("a question with the reason it is asked ('need it for…') is a question, not pressure", () => {
    const ANSWERED = after("Yes, Ines Moreau runs the Saturday story hour.");
    expectKind("question", ["ok great. which room does she use + what's her extension, need it for the poster", "what's her extension? need it for the rota", "Which room is it in, we need it for the flyer"], ANSWERED);
    // Wanting it again with nothing asked still presses.
    expectKind("insistence", ["we really need it this week"], REFUSED);
  });

  it("the same words open a conversation as a request, not insistence", () => {
    expect(classifyTurn("Go ahead with the order for 40 kg of rye")).toBe("request");
  });
});

describe("requestFocus", () => {
  it("finds the verb of the command and the noun it acts on", () => {
    expect(requestFocus("Kill the booking BK-1, plans changed")).toEqual({ verb: "kill", object: "booking" });
    expect(requestFocus("Could you prepare a quote for client CL-4?")).toEqual({ verb: "prepare", object: "quote" });
    expect(requestFocus("Do me a favour and archive the report")).toEqual({ verb: "archive", object: "report" });
    expect(requestFocus("The van is broken. Can you book a repair?")).toEqual({ verb: "book", object: "repair" });
    expect(requestFocus("Booking BK-2.")).toEqual({});
  });
});

describe("asksHistory", () => {
  it("tells questions about what happened from questions about the present state", () => {
    for (const q of ["What happened with van V-3 back in May?", "why did loan L-9 fail last week?", "What went wrong with order 7 two days ago?"]) expect(asksHistory(q), q).toBe(true);
    for (const q of ["What's the status of loan L-9?", "Is van V-3 charged yet?", "did order 7 ship?", "Where is van V-3 now?"]) expect(asksHistory(q), q).toBe(false);
  });
});

describe("questions in speech and a check of one's own", () => {
  it("a question run on after what came before, without stops, is a question", () => {
    expectKind("question", [
      "hi it's Sam at the loading bay a driver is on the phone asking where to park the van what do I tell him",
      "ok so the oven is making a noise again what should we do",
      "the atlas came back damaged how do we charge for that",
    ]);
  });
  it("wanting to check before saying yes is the reason of a question, not a request", () => {
    expectKind("question", ["A school wants 30 copies by Friday. How many can we order a week? Want to sanity-check before I say yes.", "How long do loans last? Want to double-check before I tell the patron."]);
    expectKind("request", ["Need to check the stock level of rye flour", "I want to verify the invoice INV-2231", "book the room for whoever does the training"]);
  });
});

describe("a forwarded e-mail and a request to answer what it asks", () => {
  const forwarded = (subject: string, body: string, ask: string) => `---------- Forwarded message ---------\nFrom: Priya Shah <priya@example.org>\nDate: Tue, 2 Mar 2027\nSubject: ${subject}\n\n${body}\n----------\n${ask}`;
  it("asks the quoted question when the request is to answer it", () => {
    expectKind("question", [
      forwarded("cover", "Quick one: which depot do we usually call first for cover?", "Could you answer it for Priya?"),
      forwarded("late books", "How many renewals does a student card allow?", "Could you reply to that?"),
      "Which branch holds the map collection? Can you answer that?",
      forwarded("opening", "When does the Eastgate branch open on Sundays?", "answer this please"),
    ]);
  });
  it("a forwarded request, and answering someone, stay requests", () => {
    expectKind("request", [
      forwarded("refund", "Please refund the late fee on card LIB-2231.", "Can you sort this?"),
      forwarded("cover", "Book a courier for the Eastgate returns on Friday.", "Can you do this for her?"),
      "Answer the customer on ticket 55 that the book has arrived",
      "Reply to this e-mail saying we are closed on Monday",
    ]);
  });
  it("a subject line is a title, not a command", () => {
    expectKind("question", [forwarded("renew", "Is the Eastgate branch open on bank holidays?", "")]);
  });
});

describe("nineteenth session: a modal without its subject states", () => {
  it("a note after a request, its subject left out, is no question", () => {
    expectKind("request", ["open the shutter\nwind 4 m/s\nlooks clear, should be fine for an hour", "release batch B-12 to the line, must be done by noon", "lock bay 4 tonight, will be back at six"]);
  });
  it("a modal before its subject still asks", () => {
    expectKind("question", ["should we open the shutter with 90% humidity", "must the bay be locked overnight?", "will the line be free at noon"]);
  });
});

describe("twentieth session: thanks said the British way or by emoji; a correction in a later clause", () => {
  it("acknowledges", () => expectKind("acknowledgement", ["ace, ta 👌", "ta very much", "👍", "great 🙏", "brill cheers", "lovely 👌"], DONE));
  it("an emoji does not make a request of a question or a question of a request", () => {
    expectKind("request", ["the 9:10 is full again 🙄 could someone move LIB-2231 to the 11:40", "renew LIB-2231 please 🙏"]);
  });
  it("an emoji ends the sentence it follows", () => {
    for (const text of ["the 9:10 is full again 🙄 would be lovely if somebody could move LIB-2231 to the 11:40", "shelves are a mess 😩 it'd be great if someone could reorder the atlases"]) expect(requestFocus(text).verb, text).toMatch(/^(move|reorder)$/);
  });
  it("amends in any clause", () => expectKind("correction", ["oh wait, the Eastgate branch is shut — actually make it Westgate", "hmm, that's the wrong card. actually use LIB-2240"], after("Renewing LIB-2231 at Eastgate. Shall I go ahead?")));
});

describe("twentieth session: a pause before a question", () => {
  it("'wait', 'hold on', 'hang on' alone in their clause ask nothing to be done", () => {
    expectKind("question", ["wait, before anyone books anything — which room did we use last time?", "hold on, before you renew it — what's the limit on a student card?", "hang on — when does Eastgate open on Sundays?"]);
    expectKind("request", ["wait for the driver, then renew LIB-2231", "hold on, cancel that renewal"]);
  });
});

describe("twenty-first session: fillers set off by commas", () => {
  it("a filler between commas joins the words on either side of it", () => {
    expectKind("request", ["um so could you, like, ring whoever is on duty at the gate? the barrier arm is, uh, stuck", "can you, you know, cancel whichever booking is still open?", "would you, basically, reset whoever's badge failed?"]);
    expectKind("question", ["what is, like, the deposit for a van?", "who is, you know, on duty tonight?"]);
  });
});
