// A policy's answer shows, for each rule, the tools it covers and the argument each condition reads, with
// the rule's value in that argument's terms; a condition that could read several arguments is named as
// such, and evaluation reads it the stricter way. Over HTTP, with tools imported from an OpenAPI document.
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { call, expectError, newWorkspace, query, useServer, type TestWorkspace } from "./helpers/server.ts";

const server = useServer();
const base = "/api/v1/svc/policies";

const body = (properties: Record<string, unknown>, required: string[]) => ({ required: true, content: { "application/json": { schema: { type: "object", required, properties } } } });

// A fleet of delivery drones and a ledger of credits: names and units of our own.
const FLEET_SPEC = {
  openapi: "3.0.3",
  info: { title: "Fleet", version: "1.0" },
  servers: [{ url: "https://fleet.example.test/v2" }],
  paths: {
    "/drones/dispatch": {
      post: {
        operationId: "dispatch_drone",
        summary: "Dispatch a delivery drone",
        requestBody: body(
          {
            drone_id: { type: "string" },
            charge: { type: "number", minimum: 0, maximum: 1, description: "Battery charge as a fraction" },
            payload_g: { type: "number", description: "Payload in grams" },
          },
          ["drone_id"],
        ),
      },
    },
    "/credits": {
      post: {
        operationId: "grant_credit",
        summary: "Grant account credit",
        requestBody: body({ account_id: { type: "string" }, credit_amount_cents: { type: "integer" }, bonus_amount_cents: { type: "integer" } }, ["account_id"]),
      },
    },
  },
};

async function importFleet(ws: TestWorkspace) {
  const imported = await call(server(), "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "fleet", spec_content: FLEET_SPEC } });
  expect(imported.status, imported.text).toBe(201);
}

async function create(ws: TestWorkspace, name: string, rule: string) {
  const created = await call(server(), "POST", base, { key: ws.key, body: { name, rule } });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

describe("policies: bindings to the workspace's tools", () => {
  it("shows each condition's argument and converted value, per rule and for the whole policy", async () => {
    const ws = await newWorkspace(server());
    await importFleet(ws);
    const policy = await create(ws, "drone safety", "Block drone dispatches when the charge is below 20%; Require approval for drone dispatches carrying more than 2.5 kg");
    expect(policy.covers).toEqual(["dispatch_drone"]);
    const [charge, payload] = policy.policies;
    expect(charge.covers).toEqual(["dispatch_drone"]);
    expect(charge.bindings).toEqual([expect.objectContaining({ tool: "dispatch_drone", parameters: ["charge"], applies: true, ambiguous: false, note: "(0–1); 20% = 0.2" })]);
    expect(charge.bindings[0].text).toBe('the charge is less than 20% → dispatch_drone.charge (0–1); 20% = 0.2');
    expect(charge.rationale).toContain("Bound: ");
    expect(payload.bindings[0]).toMatchObject({ parameters: ["payload_g"], note: "2.5 kg = 2500 g" });
    expect(policy.bindings).toEqual([`Rule 1: ${charge.bindings[0].text}`, `Rule 2: ${payload.bindings[0].text}`]);
    // The restatement stays a sentence the parser reads back; the bindings are beside it.
    expect(policy.restatement).not.toContain("→");
    expect(policy.warnings).toEqual([]);
  });

  it("names a condition that could read two arguments, and evaluates an exception on both", async () => {
    const ws = await newWorkspace(server());
    await importFleet(ws);
    const policy = await create(ws, "credit cap", "Block credit grants unless the amount is under $50");
    const [binding] = policy.policies[0].bindings;
    expect(binding).toMatchObject({ ambiguous: true, exception: true });
    expect([...binding.parameters].sort()).toEqual(["bonus_amount_cents", "credit_amount_cents"]);
    expect(policy.warnings).toEqual([expect.stringMatching(/could read grant_credit\.\w+_amount_cents or grant_credit\.\w+_amount_cents; it reads all of them/)]);
    const confirmed = await call(server(), "POST", `${base}/${policy.id}/confirm`, { key: ws.key, body: { version: 1 } });
    expect(confirmed.status, confirmed.text).toBe(200);
    const decide = (args: Record<string, unknown>) => call(server(), "POST", `${base}/evaluate`, { key: ws.key, body: { action: "grant_credit", context: { account_id: "acc-1", ...args } } });
    expect((await decide({ credit_amount_cents: 1000, bonus_amount_cents: 1000 })).body.decision).toBe("approved");
    expect((await decide({ credit_amount_cents: 1000, bonus_amount_cents: 9000 })).body.decision).toBe("blocked");
    expect((await decide({ credit_amount_cents: 9000, bonus_amount_cents: 1000 })).body.decision).toBe("blocked");
  });

  it("says when a rule covers none of the tools, and binds it once a tool it names appears", async () => {
    const ws = await newWorkspace(server());
    await importFleet(ws);
    const policy = await create(ws, "invoices", "Require approval for voiding invoices over $1,000");
    expect(policy.covers).toEqual([]);
    expect(policy.policies[0].bindings).toEqual([]);
    expect(policy.warnings).toEqual([expect.stringContaining("covers none of this workspace's 2 tools")]);
    const billing = {
      openapi: "3.0.3",
      info: { title: "Billing", version: "1.0" },
      servers: [{ url: "https://billing.example.test" }],
      paths: { "/invoices/void": { post: { operationId: "void_invoice", summary: "Void an invoice", requestBody: body({ invoice_id: { type: "string" }, total_usd: { type: "number" } }, ["invoice_id"]) } } },
    };
    const imported = await call(server(), "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "billing", spec_content: billing } });
    expect(imported.status, imported.text).toBe(201);
    const again = await call(server(), "GET", `${base}/${policy.id}`, { key: ws.key });
    expect(again.body.covers).toEqual(["void_invoice"]);
    expect(again.body.policies[0].bindings).toEqual([expect.objectContaining({ tool: "void_invoice", parameters: ["total_usd"], applies: true })]);
    expect(again.body.warnings).toEqual([]);
  });

  it("refuses one sentence with two effects, with both readings as candidates, and writes nothing", async () => {
    const ws = await newWorkspace(server());
    await importFleet(ws);
    const refused = expectError(await call(server(), "POST", base, { key: ws.key, body: { name: "mixed", rule: "Allow drone dispatches, but block drone dispatches carrying more than 3 kg" } }), 500, "policy_creation_failed");
    expect(refused.error.candidates).toEqual(["allow drone dispatches", "block drone dispatches carrying more than 3 kg"]);
    expect(refused.error.suggestion).toContain(";");
    const rows = await query(server(), sql`select count(*)::int as n from policies where workspace_id = ${ws.id}`);
    expect(rows[0].n).toBe(0);
    // Written as two rules, as suggested, it is accepted, each bound on its own.
    const policy = await create(ws, "mixed", refused.error.candidates.join("; "));
    expect(policy.policies.map((p: { effect: string }) => p.effect)).toEqual(["allow", "block"]);
    expect(policy.policies[1].bindings[0]).toMatchObject({ parameters: ["payload_g"], note: "3 kg = 3000 g" });
  });

  it("a rule that names the action by an allowed value covers the tool that takes it", async () => {
    const ws = await newWorkspace(server());
    const lodging = {
      openapi: "3.0.3",
      info: { title: "Lodging", version: "1.0" },
      servers: [{ url: "https://lodging.example.test" }],
      paths: { "/rooms/book": { post: { operationId: "book_room", summary: "Book a room", requestBody: body({ guest_id: { type: "string" }, room_type: { type: "string", enum: ["standard", "suite"] } }, ["guest_id"]) } } },
    };
    const imported = await call(server(), "POST", "/api/v1/svc/connections/openapi", { key: ws.key, body: { name: "lodging", spec_content: lodging } });
    expect(imported.status, imported.text).toBe(201);
    const policy = await create(ws, "suites", "Require approval for suite bookings");
    expect(policy.covers).toEqual(["book_room"]);
    expect(policy.warnings).toEqual([]);
  });
});
