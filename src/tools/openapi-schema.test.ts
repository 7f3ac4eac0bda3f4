import { describe, expect, it } from "vitest";
import { deref, GenerationError, resolvePointer, toJsonSchema } from "./openapi-schema.ts";

const doc = {
  components: {
    schemas: {
      Node: { type: "object", properties: { value: { type: "integer" }, next: { $ref: "#/components/schemas/Node" } } },
      A: { type: "object", properties: { b: { $ref: "#/components/schemas/B" } } },
      B: { type: "object", properties: { a: { $ref: "#/components/schemas/A" } } },
      "With/Slash": { type: "string", nullable: true, enum: ["x", "y"] },
      Money: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false, example: 5, xml: { name: "m" }, "x-internal": true },
      User: { type: "object", required: ["id", "name"], properties: { id: { type: "string", readOnly: true }, name: { type: "string" } } },
    },
    parameters: { Loop: { $ref: "#/components/parameters/Loop" } },
  },
};

const budget = () => ({ left: 5_000 });
type Tree = { properties: Record<string, Tree>; description?: string };

describe("OpenAPI schemas as JSON Schema", () => {
  it("inlines local references and cuts a cycle where it repeats", () => {
    const node = toJsonSchema(doc, { $ref: "#/components/schemas/Node" }, budget(), "op");
    expect(node).toMatchObject({ type: "object", properties: { value: { type: "integer" }, next: { description: expect.stringContaining("recursive") } } });
    const mutual = toJsonSchema(doc, { $ref: "#/components/schemas/A" }, budget(), "op") as unknown as Tree;
    expect(mutual.properties.b!.properties.a!.description).toContain("recursive");
  });

  it("translates OpenAPI 3.0 keywords: nullable, boolean exclusive bounds, read-only properties; drops annotations", () => {
    expect(toJsonSchema(doc, { $ref: "#/components/schemas/With~1Slash" }, budget(), "op")).toEqual({ type: ["string", "null"], enum: ["x", "y", null] });
    expect(toJsonSchema(doc, { $ref: "#/components/schemas/Money" }, budget(), "op")).toEqual({ type: "number", exclusiveMinimum: 0, maximum: 10 });
    expect(toJsonSchema(doc, { $ref: "#/components/schemas/User" }, budget(), "op")).toEqual({ type: "object", required: ["name"], properties: { name: { type: "string" } } });
  });

  it("keeps annotations beside a reference (3.1) and combines other siblings", () => {
    expect(toJsonSchema(doc, { $ref: "#/components/schemas/Money", description: "Price" }, budget(), "op")).toMatchObject({ type: "number", description: "Price" });
    expect(toJsonSchema(doc, { $ref: "#/components/schemas/Money", maximum: 5 }, budget(), "op")).toEqual({ allOf: [{ type: "number", exclusiveMinimum: 0, maximum: 10 }, { maximum: 5 }] });
  });

  it("fails on references that do not resolve, leaves external ones open, and stops expanding past the budget", () => {
    expect(() => toJsonSchema(doc, { $ref: "#/components/schemas/Nope" }, budget(), "GET /x")).toThrow(GenerationError);
    expect(toJsonSchema(doc, { $ref: "other.yaml#/Pet" }, budget(), "op")).toEqual({ description: expect.stringContaining("external reference") });
    const small = { left: 2 };
    const cut = toJsonSchema(doc, { type: "object", properties: { a: { type: "object", properties: { b: { type: "string" } } } } }, small, "op") as unknown as Tree;
    expect(cut.properties.a!.properties.b).toEqual({});
  });

  it("resolves JSON pointers and follows reference chains of non-schema objects, refusing loops", () => {
    expect(resolvePointer(doc, "#/components/schemas/With~1Slash")).toBe(doc.components.schemas["With/Slash"]);
    expect(resolvePointer(doc, "#/nope/x")).toBeUndefined();
    expect(() => deref(doc, { $ref: "#/components/parameters/Loop" }, "op")).toThrow("refers to itself");
  });
});
