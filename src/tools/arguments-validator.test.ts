import { describe, expect, it } from "vitest";
import { argumentsValidator } from "./arguments-validator.ts";

describe("arguments validator", () => {
  const ajv = argumentsValidator();
  const time = ajv.compile({ type: "object", properties: { start: { type: "string", format: "time" } } });
  it("takes a time of day as people book it, with or without seconds and an offset", () => {
    for (const value of ["09:30", "23:59", "09:30:00", "09:30:00Z", "23:59:59.5+02:00", "07:15-0500"]) expect(time({ start: value }), value).toBe(true);
  });
  it("refuses what is no time of day", () => {
    for (const value of ["24:00", "9:30", "09:60", "0930", "09:30 pm", "tomorrow"]) expect(time({ start: value }), value).toBe(false);
  });
  it("keeps the other formats strict and never coerces", () => {
    const v = ajv.compile({ type: "object", properties: { day: { type: "string", format: "date" }, n: { type: "integer" } } });
    expect(v({ day: "2027-02-30" })).toBe(false);
    expect(v({ n: "3" })).toBe(false);
    expect(v({ day: "2027-02-28", n: 3 })).toBe(true);
  });
});
