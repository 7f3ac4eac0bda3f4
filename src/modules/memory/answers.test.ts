// Which memory item answers a question (engine/intent/answer.ts over this module's recall index, wired as
// the intent service wires them): words weighed by idf and part of speech, the question apart from what is
// said before or after it, follow-ups read with the earlier question, codes and ids required, the kind of
// value asked for required, dictionary words never "corrected", and "I don't know" when nothing answers.
// Every case is asked in several surface forms.
import { describe, expect, it } from "vitest";
import { answerFromMemory, questionWords, referredNames, type Answer } from "../../engine/intent/answer.ts";
import { isEnglishWord, typoOf } from "../../engine/language/nlp.ts";
import { RecallIndex } from "./recall.ts";
import { relatedFromIndex } from "./service.ts";
import type { MemoryRow } from "./store.ts";
import { memoryRow } from "./memory-row.fixture.ts";

const row = (body: string, tags: string[] = []): MemoryRow => memoryRow(body, { tags });

// A town library's memory: two study rooms alike but for their code and size, two archivists alike but for
// their collection, an item with an address, amounts, a project with a date but no price.
const LIBRARY = [
  row("The main branch is open Monday to Friday 09:00-20:00; the Elmwood branch closes at 17:00.", ["hours"]),
  row("Overdue fines are 0.25 USD per day per book, capped at 10 USD.", ["fines"]),
  row("Study room B-12 holds 40 people and has a projector.", ["rooms"]),
  row("Study room B-14 holds 12 people and has a whiteboard.", ["rooms"]),
  row("Interlibrary loans arrive within 10 business days; request them at the front counter.", ["loans"]),
  row("The archivist for local history is Wilhelmina Osterhout (w.osterhout@example-library.test).", ["staff"]),
  row("The archivist for maps and atlases is Joaquim Reinders (j.reinders@example-library.test).", ["staff"]),
  row("E-book loans last 21 days and renew automatically once.", ["loans"]),
  row("Project Lantern: a maker space opens at the Elmwood branch in autumn 2027.", ["projects"]),
  row("Members may borrow at most 15 items at a time.", ["loans"]),
  row("Printing costs 0.10 USD per page in black and white and 0.50 USD in colour.", ["printing"]),
  row("The night desk handles returns after closing time.", ["returns"]),
];

const index = new RecallIndex();
for (const item of LIBRARY) index.upsert(item);

/**
 * Asks as the intent service does: the question's words, then the earlier turns' (and the names of the
 * assistant's last turn a pronoun refers to), searched; then judged.
 */
function ask(question: string, earlier: string[] = [], said?: string): Answer {
  const referred = referredNames(question, said);
  const turns = referred.length > 0 ? [...earlier, referred.join(" ")] : earlier;
  const words = [...questionWords(question), ...turns.slice(-2).reverse().flatMap(questionWords)];
  const found = relatedFromIndex(index, words, 10);
  return answerFromMemory(question, found.hits, { corrected: found.corrected, frequencies: found.frequencies, earlier, ...(said ? { said } : {}) });
}

const bodyOf = (answer: Answer) => LIBRARY.find((r) => r.id === answer.used[0])?.body;

/** One question in the ways people put it: bare, after a preamble, with a remark after it, in lower case. */
function surfaces(question: string): string[] {
  return [
    question,
    `Before you change anything: ${question}`,
    `I'm putting together the newsletter for the parents' association this weekend. ${question}`,
    `${question} No need to reserve anything.`,
    `Quick one, leave the bookings alone for now, I just want to find out ${question.charAt(0).toLowerCase()}${question.slice(1)}`,
    question.toLowerCase(),
  ];
}

function expectAnswer(answer: Answer, body: string, question: string): void {
  expect(answer.known, `${question} → ${answer.content}`).toBe(true);
  expect(bodyOf(answer), question).toBe(body);
  // Grounded: the answer is the item's text, and its id is reported.
  expect(answer.content).toBe(body);
  expect(answer.used).toHaveLength(1);
}

function expectUnknown(answer: Answer, question: string): void {
  expect(answer.known, `${question} → ${answer.content}`).toBe(false);
  expect(answer.used).toEqual([]);
  expect(answer.content).toMatch(/^I don't know/);
}

describe("memory answers: the item that answers", () => {
  const cases: [string, number][] = [
    ["How much does colour printing cost per page?", 10],
    ["When does the Elmwood branch close?", 0],
    ["How many items can members borrow at once?", 9],
    ["How long do e-book loans last?", 7],
    ["Who is the archivist for local history?", 5],
    ["Who looks after the maps and atlases?", 6],
    ["What are the overdue fines per day?", 1],
  ];
  for (const [question, at] of cases) {
    it(`answers "${question}" in every surface form`, () => {
      for (const form of surfaces(question)) expectAnswer(ask(form), LIBRARY[at]!.body, form);
    });
  }

  it("weighs words by how rare they are in memory: the item holding the rare words wins over one holding common ones", () => {
    // "branch" is in three items, "Elmwood" in two, "maker" in one.
    for (const form of surfaces("When does the maker space at the Elmwood branch open?")) expectAnswer(ask(form), LIBRARY[8]!.body, form);
  });

  it("tells near-duplicates apart by their code and by their name", () => {
    for (const form of surfaces("How many people fit in study room B-14?")) expectAnswer(ask(form), LIBRARY[3]!.body, form);
    for (const form of surfaces("How many people fit in study room B-12?")) expectAnswer(ask(form), LIBRARY[2]!.body, form);
    for (const form of surfaces("What is the e-mail address of Joaquim Reinders?")) expectAnswer(ask(form), LIBRARY[6]!.body, form);
    // A room memory does not hold is not answered by a room it does.
    for (const form of surfaces("How many people fit in study room B-16?")) expectUnknown(ask(form), form);
  });

  it("reads a follow-up with the question before it, and still wants the follow-up's own words held", () => {
    const earlier = ["Who is the archivist for local history?"];
    for (const form of ["and her email?", "And her e-mail address?", "ok, and how do I reach her by email?"]) {
      expectAnswer(ask(form, earlier), LIBRARY[5]!.body, form);
    }
    for (const form of ["and the Elmwood one?", "What about the Elmwood branch?"]) {
      expectAnswer(ask(form, ["When does the main branch open?"]), LIBRARY[0]!.body, form);
    }
    // "The other one" is not the item that answered before, nor the room that question named.
    for (const form of ["and the other one?", "What about the other room?", "and the other study room?"]) {
      expectAnswer(ask(form, ["How many people fit in study room B-12?"]), LIBRARY[3]!.body, form);
    }
    // The earlier question names the item; the follow-up asks something it does not hold.
    for (const form of ["is there a waiting list for them?", "and can I get them in audio too?"]) {
      expectUnknown(ask(form, ["How long do e-book loans last?"]), form);
    }
    // A follow-up that asks what the answer before it implies is about the same item.
    for (const form of ["ok, and what does this mean to families with kids?", "how does that affect borrowers from nearby towns?", "so what are the implications of that for school groups?"]) {
      expectAnswer(ask(form, ["How many items can a member borrow at once?"]), LIBRARY[9]!.body, form);
    }
    expectUnknown(ask("what does this mean to parking?", []), "what does this mean to parking? (nothing asked before)");
  });

  it("reads a pronoun as whom the assistant's last answer named", () => {
    const asked = "Who looks after the old charts?";
    for (const said of ["That's Joaquim Reinders, our archivist for maps and atlases.", "Maps go to Joaquim Reinders these days."]) {
      for (const form of ["and his email?", "ok, what's his e-mail address?", "how do I reach him by email?"]) {
        expectAnswer(ask(form, [asked], said), LIBRARY[6]!.body, `${said} ${form}`);
      }
    }
    // Without a pronoun the names said before are not what is asked.
    expect(referredNames("and the opening hours?", "Maps go to Joaquim Reinders these days.")).toEqual([]);
  });

  it("does not count what is said before or after the question against an item", () => {
    const long = "My daughter's class is doing a project on the old harbour and the teacher asked every family to find sources at home, in the attic and at the town hall. How long do interlibrary loans take to arrive?";
    expectAnswer(ask(long), LIBRARY[4]!.body, long);
    const after = "How long do interlibrary loans take to arrive? The teacher wants everything by the end of the month, so timing matters.";
    expectAnswer(ask(after), LIBRARY[4]!.body, after);
  });

  it("reads an acronym as the words an item writes out, and greetings and fillers as nothing asked", () => {
    // Two items alike but for who handles returns: only the initials of one say which.
    const desks = new RecallIndex();
    const night = row("The night desk handles returns after closing time.", ["returns"]);
    const front = row("The front counter handles returns during opening hours.", ["returns"]);
    desks.upsert(night);
    desks.upsert(front);
    const askDesks = (question: string) => {
      const found = relatedFromIndex(desks, questionWords(question), 10);
      return answerFromMemory(question, found.hits, { corrected: found.corrected, frequencies: found.frequencies });
    };
    const said = (answer: Answer, item: MemoryRow, question: string) => {
      expect(answer.known, `${question} → ${answer.content}`).toBe(true);
      expect(answer.used, question).toEqual([item.id]);
    };
    for (const form of ["hiya, what does the ND do with returns?", "Quick one: which returns go to the ND?", "um what happens to returns at the ND"]) said(askDesks(form), night, form);
    for (const form of ["what does the FC do with returns?", "do returns go to the FC?"]) said(askDesks(form), front, form);
  });

  it("reads the words before a question that refers back to them as part of it", () => {
    for (const form of ["About colour printing: how much does it cost per page?", "Colour printing. How much is it per page?"]) expectAnswer(ask(form), LIBRARY[10]!.body, form);
    for (const form of ["Study room B-14, how many people does it hold?", "Room B-14: how many people can it take?"]) expectAnswer(ask(form), LIBRARY[3]!.body, form);
    // The maker space is held, its price is not; the printing item's price is not its price.
    for (const form of ["About the maker space: how much does it cost?", "The maker space at Elmwood. How much will it cost members?"]) expectUnknown(ask(form), form);
  });
});

describe("memory answers: reported questions, asides and measures", () => {
  // Who asks, and where, is the question's frame: the night desk asking is not a question about the night
  // desk. The pronouns of a reported question are its asker's, not a reference back.
  const FRAMES = ["A parent at the night desk is asking if", "The caller on the phone wonders whether", "Can you check if", "Someone at the front counter wants to know if", "the night desk lady asking whether"];
  const QUESTIONS: [string, number][] = [
    ["her e-book loans renew automatically", 7],
    ["their interlibrary loans arrive within ten business days", 4],
    ["she can print in colour", 10],
  ];
  for (const [question, item] of QUESTIONS) {
    it(`answers "${question}" whoever reports it`, () => {
      for (const frame of FRAMES) {
        const form = `${frame} ${question}.`;
        expectAnswer(ask(form), LIBRARY[item]!.body, form);
        const aside = `${frame} ${question} - she has a long list. Is that fine?`;
        expectAnswer(ask(aside), LIBRARY[item]!.body, aside);
      }
    });
  }

  it("reads a measure in a question as a value to compare, not an id the item must name", () => {
    for (const form of ["Do e-book loans of 500mb renew automatically?", "do e-book loans renew automatically, even at 40mb", "Do e-book loans renew automatically - it's 40 MB?"]) {
      expectAnswer(ask(form), LIBRARY[7]!.body, form);
    }
    // An id is still required: no item is about room C-4.
    expectUnknown(ask("Does study room C-4 have a projector?"), "room C-4");
  });
});

describe("memory answers: an item about the record is not an answer about something else", () => {
  it("says it does not know when the item holds the question's id and none of the kind of answer asked for", () => {
    for (const form of ["What wifi password is used in study room B-12?", "which heating system is in room B-12", "What floor covering does B-14 have?"]) expectUnknown(ask(form), form);
    // The same record, asked about what its item says, is still answered.
    for (const form of ["How many people does study room B-12 hold?", "Does room B-12 have a projector?"]) expectAnswer(ask(form), LIBRARY[2]!.body, form);
  });

  it("reads a unit letter after an id's digits as part of the id", () => {
    const lockers = new RecallIndex();
    // Alike but for the letter: only the letter tells which locker a question is about.
    const a = row("Locker L-7A is kept for the night desk.");
    const b = row("Locker L-7B is kept for the front counter.");
    lockers.upsert(a);
    lockers.upsert(b);
    for (const [form, item] of [["Who is locker L-7A kept for?", a], ["who is locker L-7B kept for", b], ["L-7B: who is it kept for?", b]] as const) {
      const found = relatedFromIndex(lockers, questionWords(form), 10);
      const answer = answerFromMemory(form, found.hits, { corrected: found.corrected, frequencies: found.frequencies });
      expect(answer.used, form).toEqual([item.id]);
    }
  });
});

describe("memory answers: I don't know", () => {
  const unknown = [
    "Does the library lend telescopes?",
    "Which network key opens the guest Wi-Fi at the Elmwood branch?",
    "How much does a locker at the main branch cost?",
    "Who repairs the photocopiers?",
    "Can members of the Vanderhoek guild borrow DVDs?",
    // The project is held, but not a price: "how much" wants an amount.
    "How much does the maker space cost?",
    // Room B-12's item holds a number, not a length of time.
    "How long is the waiting list for study room B-12?",
  ];
  for (const question of unknown) {
    it(`says so for "${question}" in every surface form`, () => {
      for (const form of surfaces(question)) expectUnknown(ask(form), form);
    });
  }
});

describe("memory answers: typo correction", () => {
  it("corrects words no dictionary knows, and never a dictionary word into a memory word", () => {
    expect(isEnglishWord("right")).toBe(true);
    expect(isEnglishWord("use")).toBe(true);
    expect(isEnglishWord("entrances")).toBe(true);
    expect(isEnglishWord("intrlibrary")).toBe(false);
    expect(isEnglishWord("B14")).toBe(false);
    // "night" and "usd" are memory words a trigram away from "right" and "use".
    const found = index.recall(["which", "entrance", "right", "use", "intrlibrary"], 10);
    expect(found.corrected.get("intrlibrary")).toBe("interlibrary");
    expect(found.corrected.has("right")).toBe(false);
    expect(found.corrected.has("use")).toBe(false);
    for (const form of surfaces("How long do intrlibrary loans take?")) expectAnswer(ask(form), LIBRARY[4]!.body, form);
    // Not read as "the night desk": nothing answers it.
    for (const form of surfaces("Is the right entrance step-free?")) expectUnknown(ask(form), form);
  });

  it("a mistyped word memory does not hold weighs as the word meant, not as a name nothing holds", () => {
    expect(typoOf("nieghbour")).toBe("neighbour");
    expect(typoOf("numbr")).toBe("number");
    expect(typoOf("Osterhout")).toBeUndefined();
    expect(typoOf("printing")).toBeUndefined();
    for (const question of ["How much is colour printing per page for my nieghbour?", "how much is colour printing per page for the schol newsletter?"]) {
      for (const form of surfaces(question)) expectAnswer(ask(form), LIBRARY[10]!.body, form);
    }
    for (const form of surfaces("How much are overdue fiens per day?")) expectAnswer(ask(form), LIBRARY[1]!.body, form);
    // A name no slip explains still weighs as one: memory does not hold it, so nothing answers.
    for (const form of surfaces("How much is colour printing for the Kwiatkowski newsletter?")) expectUnknown(ask(form), form);
  });
});

describe("memory answers: a case told before a question about the general rule, a question asked in speech", () => {
  // The case is told with its id; the question that refers back asks how such cases go, which an item
  // about no id answers.
  for (const question of [
    "Member LB-4471 wants to borrow 16 items. How many items may members borrow at a time - is there a cap on it?",
    "Borrower LB-4471 wants a 16th book. How many items can members borrow at most? Does this happen often?",
  ]) {
    it(question, () => expectAnswer(ask(question), "Members may borrow at most 15 items at a time.", question));
  }
  it("a question reported after a verb of asking is the question, not who asks it", () => {
    const question = "uh hi it's Dana at the front counter a patron is asking how much printing costs per page in colour what do I tell her";
    expectAnswer(ask(question), "Printing costs 0.10 USD per page in black and white and 0.50 USD in colour.", question);
  });
});

describe("twentieth session: kinds of the things asked about, questions of habit, months of dated items, messages that ask twice", () => {
  const BIKES = [
    memoryRow("When we close a station for snow, riders choose between a free day pass (reason station_closed) and a refund of the unlock fee.", { tags: ["closures"], type: "precedent" }),
    memoryRow("2026-12-04: the Harbour station was closed for snow; 31 riders were moved to the Quay station.", { tags: ["closures"], type: "episode" }),
    memoryRow("2026-09-12: the e-bike charger at Quay failed; the cause was a blown fuse, replaced by technician Lee Park.", { tags: ["maintenance"], type: "episode" }),
    row("Servicing at the north depot needs 48 hours' notice.", ["depots"]),
    row("Servicing at the south depot needs 72 hours' notice.", ["depots"]),
    row("Helmets are lent free of charge at every staffed station.", ["safety"]),
    row("The repair shop opens Monday to Saturday 08:00-18:00; on Sunday it is closed all day.", ["hours"]),
    row("Riders can contest a penalty within 14 days of receiving it by writing to the customer desk.", ["penalties"]),
    row("Punctures are repaired free of charge at the Quay workshop; other repairs are charged at cost.", ["repairs"]),
    row("Punctures reported by riders are logged on the fault board at the Harbour workshop.", ["faults"]),
  ];
  const bikes = new RecallIndex();
  for (const item of BIKES) bikes.upsert(item);
  const askBikes = (question: string): string | undefined => {
    const found = relatedFromIndex(bikes, questionWords(question), 10);
    const answer = answerFromMemory(question, found.hits, { corrected: found.corrected, frequencies: found.frequencies });
    return BIKES.find((r) => r.id === answer.used[0])?.body;
  };
  // Meaning: what is given as a rule when a station closes for snow (the precedent, not the one time it happened).
  for (const question of [
    "A rider from the Harbour station rang in wanting to know what she can claim. What do we usually give people when we close for snow?",
    "When a station is closed for snow, what do riders normally get from us?",
    "what do we typically give riders when we close a station for snow",
  ]) {
    it(question, () => expect(askBikes(question)).toContain("free day pass"));
  }
  // Meaning: the one time the charger failed, asked by its month.
  for (const question of ["what went wrong with the e-bike charger back in September?", "Remind me what happened to the charger in September", "why did the charger fail in September?"]) {
    it(question, () => expect(askBikes(question)).toContain("blown fuse"));
  }
  // Meaning: the day the shop does not open, asked with another verb and by the kind of thing the answer is.
  for (const question of ["A rider wants to leave a bike with us on Saturday or Sunday. Which day of the week is the repair shop shut?", "which day is the repair shop shut?"]) {
    it(question, () => expect(askBikes(question)).toContain("Sunday"));
  }
  // Meaning: what the workshop does with punctures, asked with another verb for repairing.
  for (const question of ["which workshop mends punctures?", "Where do punctures get mended?"]) {
    it(question, () => expect(askBikes(question)).toContain("Quay workshop"));
  }
  // Meaning: the time allowed to contest a penalty, after a story whose people the question's pronouns are.
  for (const question of ["A rider got a penalty from us on Monday and is cross about it. How many days have they got to contest it?", "Someone was fined yesterday and is unhappy. How long have they got to contest it?"]) {
    it(question, () => expect(askBikes(question)).toContain("14 days"));
  }
  // Meaning: the south depot's notice, asked in a forwarded e-mail and again by the user.
  for (const question of [
    "From: Dana Holt <dana@wheelworks.test>\nSubject: next month\n\nHi, for our rota, how much warning should we expect for a slot at the south depot?\n\n---\nbefore I answer Dana: what's our notice period for servicing at the south depot again?",
    "Dana wants to know how much warning we give her team for a slot. What's our notice period for servicing at the south depot?",
  ]) {
    it(question.split("\n")[0]!, () => expect(askBikes(question)).toContain("72 hours"));
  }
});
