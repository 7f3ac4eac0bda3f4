// Where one message splits into parts (whether the parts are separate requests is decided over HTTP in
// test/conversations.test.ts and test/chat.test.ts, with the real engine).
import { describe, expect, it } from "vitest";
import { requestParts } from "./split.ts";

describe("requestParts", () => {
  it("splits at and, then, also and semicolons, dropping the end punctuation of each part", () => {
    expect(requestParts("Water the ferns and then prune the roses.")).toEqual(["Water the ferns", "prune the roses"]);
    expect(requestParts("mute channel 4; unmute channel 9")).toEqual(["mute channel 4", "unmute channel 9"]);
    expect(requestParts("book court 2, and also book court 3!")).toEqual(["book court 2", "book court 3"]);
    expect(requestParts("archive report Q1 and report Q2")).toEqual(["archive report Q1", "report Q2"]);
  });

  it("answers nothing for one part, and for more parts than one message is taken to hold", () => {
    expect(requestParts("restart the kiln")).toEqual([]);
    expect(requestParts("a and b and c and d and e and f")).toEqual([]);
    expect(requestParts("   ")).toEqual([]);
  });
});
