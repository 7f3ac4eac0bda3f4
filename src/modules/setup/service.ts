// Setup and assessment. Setup applies a batch of connections, credentials, memory items and policies
// through their own services (same validation, encryption, audit entries and error codes), one item at a
// time, so a bad item fails alone and never leaves anything half written; then it reads the workspace back
// and answers the installation checklist from that state. Assessment says how far the workspace can do a
// task: the intent engine's lexical ranking of its tools, the catalog integrations the task names or
// needs, the governance outlook of the best tool, and the policies a risky tool lacks. Neither writes
// anything beyond what setup is asked to apply.
import { governedAction } from "../../engine/governance/action.ts";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../../clock.ts";
import type { Governance } from "../../engine/governance/chokepoint.ts";
import { restate } from "../../engine/governance/explain.ts";
import { parseRule } from "../../engine/governance/parse.ts";
import { extractArguments } from "../../engine/intent/extract.ts";
import { missingArguments, namedIntegrations, plan, questionFor } from "../../engine/intent/plan.ts";
import { contentStems, rankKey, rankTerms, type Ranked } from "../../engine/intent/rank.ts";
import { stem, words } from "../../engine/text/stem.ts";
import { AppError } from "../../errors/app-error.ts";
import type { ErrorCode } from "../../errors/catalog.ts";
import type { Actor } from "../../events/audit.ts";
import { CATALOG, CATALOG_BY_ID, type CatalogIntegration } from "../connections/catalog.ts";
import type { Connection, ConnectionService, ConnectResult } from "../connections/service.ts";
import { checkCredential, type CredentialService } from "../credentials/service.ts";
import { checkMemory, type MemoryService } from "../memory/service.ts";
import { checkPolicy, restatementOf, type PolicyService } from "../policies/service.ts";
import type { PolicyView } from "../policies/service.ts";
import type { ToolService } from "../tools/service.ts";
import type { Tool } from "../../tools/tool.ts";
import type {
  Assessment,
  AssessBody,
  Checklist,
  ConnectionResult,
  ConnectionToRegister,
  CredentialResult,
  MemoryResult,
  PolicyResult,
  SetupBody,
  SetupResult,
} from "./schemas.ts";

export interface SetupService {
  apply(actor: Actor, request: SetupBody): Promise<SetupResult>;
  /** The installation checklist from the workspace's state now (plus how the given capabilities resolve). */
  checklist(workspaceId: string, capabilities?: string[]): Promise<Checklist>;
  assess(actor: Actor, request: AssessBody): Promise<Assessment>;
}

const MAX_TASK_LENGTH = 4000;
const CREDENTIALS_ENDPOINT = "/api/v1/svc/credentials";
const INSTALL_ENDPOINT = "/api/v1/svc/connections/install";
const IMPORT_ENDPOINT = "/api/v1/svc/connections/openapi";
const MEMORY_ENDPOINT = "/api/v1/svc/memory";
const POLICIES_ENDPOINT = "/api/v1/svc/policies";
const WEBHOOKS_ENDPOINT = "/api/v1/svc/webhooks";
// Suggested when a workspace holds no memory at all: what the intent engine answers questions from.
const MEMORY_SUGGESTIONS: { type: string; reason: string }[] = [
  { type: "reference", reason: "The workspace holds no memory: facts and documents (products, prices, procedures) let the service answer questions instead of saying it does not know." },
  { type: "preference", reason: "How people here like things done (tone, defaults, who to notify)." },
  { type: "precedent", reason: "Past decisions to follow in similar cases." },
];
// Words that say a tool moves money or deletes data (stemmed like the tool's words).
const MONEY_WORDS = new Set(["refund", "payment", "pay", "payout", "transfer", "charge", "invoice", "withdraw", "withdrawal", "wire", "disburse", "remit", "purchase", "credit"].map(stem));
const DELETE_WORDS = new Set(["delete", "remove", "erase", "purge", "destroy", "wipe", "drop", "truncate"].map(stem));
const AMOUNT_KEY = /amount|total|price|value|sum|cost|fee/i;
// The wire's GovernanceDecisionType for each decision.
const DECISION_TYPE = { approved: "auto", conditional: "escalate", blocked: "abstain" } as const;

const round2 = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 100) / 100;
const normalise = (text: string) => text.trim().toLowerCase().replace(/[_-]+/g, " ").replace(/\s+/g, " ");
const present = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

/** An item's failure in the result's terms: the message, the catalog code, and the details when given. */
function failureOf(error: unknown, fallback: ErrorCode, log: FastifyBaseLogger): { error: string; error_code: string; details?: { field: string; message: string }[]; suggestion?: string } {
  if (error instanceof AppError) {
    const suggestion = error.options.extra?.suggestion;
    return {
      error: error.message,
      error_code: error.code,
      ...(error.options.details ? { details: error.options.details } : {}),
      ...(typeof suggestion === "string" ? { suggestion } : {}),
    };
  }
  log.error({ err: error }, "setup item failed");
  const failed = new AppError(fallback);
  return { error: failed.message, error_code: failed.code };
}

/** The integration a capability should install: the only one that offers it, or the only one already authorised. */
function choose(candidates: CatalogIntegration[], providers: Set<string>): CatalogIntegration | undefined {
  if (candidates.length === 1) return candidates[0];
  const authorised = candidates.filter((entry) => providers.has(entry.provider));
  return authorised.length === 1 ? authorised[0] : undefined;
}

function candidatesOf(result: ConnectResult): CatalogIntegration[] {
  const listed = (result.detail.integrations ?? []) as { id?: unknown }[];
  return listed.flatMap((entry) => {
    const found = typeof entry.id === "string" ? CATALOG_BY_ID.get(entry.id) : undefined;
    return found ? [found] : [];
  });
}

const connectStatus = { prebuilt: "connected", schema_required: "schema_required", manual: "manual" } as const;

export function createSetupService(deps: {
  clock: Clock;
  credentials: CredentialService;
  connections: ConnectionService;
  memory: MemoryService;
  policies: PolicyService;
  tools: ToolService;
  governance: Governance;
  log: FastifyBaseLogger;
}): SetupService {
  const { clock, credentials, connections, memory, policies, tools, governance, log } = deps;

  /** Resolves a capability, `undefined` when nothing offers it (connect's 404). */
  async function resolve(workspaceId: string, capability: string): Promise<ConnectResult | { type: "unknown"; hint: string | undefined }> {
    try {
      return await connections.connect(workspaceId, capability);
    } catch (error) {
      if (error instanceof AppError && error.code === "connection_not_found") return { type: "unknown", hint: error.options.hint };
      throw error;
    }
  }

  async function applyConnection(actor: Actor, item: { capability?: unknown }, dryRun: boolean, providers: Set<string>): Promise<ConnectionResult> {
    const capability = typeof item.capability === "string" ? item.capability.trim() : "";
    if (capability === "" || capability.length > 200) {
      const message = "capability is required (a non-empty string of at most 200 characters)";
      return { capability: typeof item.capability === "string" ? item.capability.slice(0, 200) : "", status: "failed", error: `Invalid request: ${message}.`, error_code: "invalid_request", details: [{ field: "capability", message }] };
    }
    try {
      let resolved = await resolve(actor.workspaceId, capability);
      if (resolved.type === "unknown") {
        return { capability, status: "unknown", detail: { searched: capability, hints: resolved.hint ? [resolved.hint] : [] } };
      }
      let installed: Record<string, unknown> = {};
      if (resolved.type === "manual") {
        const pick = choose(candidatesOf(resolved), providers);
        if (pick && dryRun) {
          const authorised = providers.has(pick.provider);
          return {
            capability,
            status: authorised ? "connected" : "schema_required",
            detail: { service_id: pick.id, service_name: pick.name, auth_type: pick.auth_type, provider: pick.provider, would_install: pick.id, ...(authorised ? {} : { auth_url: CREDENTIALS_ENDPOINT }) },
          };
        }
        if (pick) {
          const { created } = await connections.install(actor, pick.id);
          installed = { installed: pick.id, created };
          resolved = await resolve(actor.workspaceId, capability);
          if (resolved.type === "unknown") throw new AppError("install_failed", { message: `${pick.name} was installed but does not resolve "${capability}".` });
        }
      }
      // A dry run's credentials are not stored yet: a provider they bring counts as authorised.
      if (dryRun && resolved.type === "schema_required" && providers.has(String(resolved.detail.provider))) {
        return { capability, status: "connected", detail: { ...resolved.detail, would_authorise: true } };
      }
      return { capability, status: connectStatus[resolved.type], detail: { ...resolved.detail, ...installed } };
    } catch (error) {
      return { capability, status: "failed", ...failureOf(error, "install_failed", log) };
    }
  }

  async function applyCredential(actor: Actor, item: NonNullable<SetupBody["credentials"]>[number], dryRun: boolean): Promise<CredentialResult> {
    // `name` may be left out (or null): the provider names the credential then.
    const name = item.name === undefined || item.name === null || item.name === "" ? item.provider : item.name;
    const input = { provider: item.provider, name, key_data: item.key_data, type: present(item.type), allowed_hosts: present(item.allowed_hosts) };
    const label = { provider: typeof item.provider === "string" ? item.provider.trim().toLowerCase() : "", name: typeof name === "string" ? name.trim() : "" };
    try {
      if (dryRun) {
        const checked = checkCredential(input);
        return { provider: checked.provider, name: checked.name, type: checked.type, status: "would_create" };
      }
      const row = await credentials.create(actor, input);
      return { provider: row.provider, name: row.name, id: row.id, type: row.type, status: "created" };
    } catch (error) {
      return { ...label, status: "failed", ...failureOf(error, "credential_creation_failed", log) };
    }
  }

  async function applyMemory(actor: Actor, item: NonNullable<SetupBody["memory"]>[number], dryRun: boolean): Promise<MemoryResult> {
    // The type may be left out: `reference`, as the published CLI defaults it.
    const input = { ...item, type: item.type ?? "reference" };
    const type = typeof input.type === "string" ? input.type : "";
    try {
      if (dryRun) {
        const checked = checkMemory(input);
        return { id: "", type: checked.type, kind: checked.type, classified: false, domain: checked.domain, status: "would_create" };
      }
      const row = await memory.create(actor, input);
      return { id: row.id, type: row.type, kind: row.type, classified: false, domain: row.domain, status: "created" };
    } catch (error) {
      return { id: "", type, kind: type, classified: false, status: "failed", ...failureOf(error, "memory_creation_failed", log) };
    }
  }

  async function applyPolicy(actor: Actor, item: NonNullable<SetupBody["policies"]>[number], dryRun: boolean, confirm: boolean, taken: Set<string>): Promise<PolicyResult> {
    const input = { name: item.name, rule: present(item.rule), rules: present(item.rules), severity: present(item.severity), domain: present(item.domain), priority: present(item.priority) };
    const label = typeof item.name === "string" ? item.name.trim() : "";
    try {
      if (dryRun) {
        const { name, clauses } = checkPolicy(input, actor, clock.now());
        // The duplicate-name check create makes in its transaction, against the live names and this request's.
        if (taken.has(name.toLowerCase())) {
          throw new AppError("policy_creation_failed", { message: `A policy named "${name.slice(0, 100)}" already exists in this workspace.`, extra: { reason: "duplicate_name", name } });
        }
        taken.add(name.toLowerCase());
        return { name, status: "would_create", confirmed: false, restatement: clauses.map(restate).join(" ") };
      }
      let view: PolicyView = await policies.create(actor, input);
      const created = { name: view.row.name, id: view.row.id, status: "created", approve_url: `${POLICIES_ENDPOINT}/${view.row.id}/confirm` };
      if (confirm) {
        try {
          view = (await policies.confirm(actor, view.row.id, view.row.latestVersion)).view;
        } catch (error) {
          // The policy exists (its create committed); only the confirmation is missing, and the checklist lists it.
          return { ...created, version: view.row.latestVersion, policy_status: view.row.status, confirmed: false, restatement: restatementOf(view.versions[0]!), ...failureOf(error, "policy_confirm_failed", log) };
        }
      }
      return { ...created, version: view.row.latestVersion, policy_status: view.row.status, confirmed: view.row.status === "active", restatement: restatementOf(view.versions[0]!) };
    } catch (error) {
      return { name: label, status: "failed", confirmed: false, ...failureOf(error, "policy_creation_failed", log) };
    }
  }

  async function allPolicies(workspaceId: string): Promise<PolicyView[]> {
    const views: PolicyView[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = await policies.list(workspaceId, { limit: 500, offset });
      views.push(...page.views);
      if (page.views.length < 500 || views.length >= page.total) return views;
    }
  }

  async function checklist(workspaceId: string, capabilities: string[] = []): Promise<Checklist> {
    const list = await connections.list(workspaceId);
    const counts = await memory.counts(workspaceId);
    const creds = await credentials.list(workspaceId);
    const views = await allPolicies(workspaceId);

    const toRegister: ConnectionToRegister[] = [];
    const listed = new Set<string>();
    for (const c of list) {
      if (c.status !== "pending_auth") continue;
      listed.add(c.row.integrationId ?? c.row.id);
      toRegister.push({
        capability: null,
        integration_id: c.row.integrationId,
        name: c.row.name,
        provider: c.row.provider,
        status: "pending_auth",
        reason: `${c.row.name} is installed but no credential for provider "${c.row.provider}" exists, so it cannot act.`,
        action: "add_credential",
        endpoint: CREDENTIALS_ENDPOINT,
        required: true,
      });
    }
    // The capabilities asked for, as they resolve now (after anything this request installed).
    const seen = new Set<string>();
    for (const capability of capabilities) {
      const key = normalise(capability);
      if (key === "" || seen.has(key)) continue;
      seen.add(key);
      const resolved = await resolve(workspaceId, capability);
      if (resolved.type === "manual") {
        const offered = candidatesOf(resolved);
        toRegister.push({
          capability,
          integration_id: null,
          name: capability,
          integrations: offered.map((entry) => entry.id),
          status: "not_installed",
          reason: `No installed integration offers "${capability}"; ${offered.map((entry) => entry.name).join(", ")} ${offered.length === 1 ? "does" : "do"}: install one.`,
          action: "install",
          endpoint: INSTALL_ENDPOINT,
          required: true,
        });
      } else if (resolved.type === "unknown") {
        toRegister.push({
          capability,
          integration_id: null,
          name: capability,
          status: "unknown",
          reason: `Nothing in the workspace or the catalog offers "${capability}": import an API that does (OpenAPI or MCP).`,
          action: "import_tools",
          endpoint: IMPORT_ENDPOINT,
          required: true,
        });
      } else if (resolved.type === "schema_required") {
        const id = String(resolved.detail.service_id ?? "");
        if (!listed.has(id)) {
          listed.add(id);
          toRegister.push({
            capability,
            integration_id: id || null,
            name: String(resolved.detail.service_name ?? capability),
            provider: String(resolved.detail.provider ?? ""),
            status: "pending_auth",
            reason: `"${capability}" needs a credential for provider "${String(resolved.detail.provider ?? "")}".`,
            action: "add_credential",
            endpoint: CREDENTIALS_ENDPOINT,
            required: true,
          });
        }
      }
    }

    const memoryItems = Object.values(counts).reduce((a, n) => a + n, 0);
    const pending = views.filter((v) => v.row.status !== "disabled" && v.row.latestVersion !== v.row.activeVersion);
    const count = (status: Connection["status"]) => list.filter((c) => c.status === status).length;
    const result: Checklist = {
      connections_to_register: toRegister,
      memory_to_upload: memoryItems === 0 ? MEMORY_SUGGESTIONS.map((s) => ({ ...s, endpoint: MEMORY_ENDPOINT, required: false })) : [],
      policies_to_confirm: pending.map((v) => ({
        id: v.row.id,
        name: v.row.name,
        version: v.row.latestVersion,
        active_version: v.row.activeVersion,
        approve_url: `${POLICIES_ENDPOINT}/${v.row.id}/confirm`,
        restatement: restatementOf(v.versions[0]!),
        required: true,
      })),
      // There is no webhook module yet: nothing can be subscribed, and the checklist says so.
      webhooks_to_configure: [
        {
          status: "unavailable",
          reason: "This service does not deliver webhooks yet; subscriptions (an HTTPS url, events, a secret) will be made at the endpoint given.",
          endpoint: WEBHOOKS_ENDPOINT,
          events: [],
          required: false,
        },
      ],
      complete: false,
      summary: {
        connections: { total: list.length, connected: count("connected"), pending_auth: count("pending_auth"), degraded: count("degraded") },
        tools: list.reduce((a, c) => a + c.tools.length, 0),
        credentials: creds.length,
        memory_items: memoryItems,
        memory_by_type: counts,
        policies: {
          active: views.filter((v) => v.row.status === "active").length,
          pending_confirmation: views.filter((v) => v.row.status === "pending_confirmation").length,
          disabled: views.filter((v) => v.row.status === "disabled").length,
        },
      },
    };
    result.complete = [result.connections_to_register, result.memory_to_upload, result.policies_to_confirm, result.webhooks_to_configure].every((entries) => entries.every((e) => !e.required));
    return result;
  }

  async function apply(actor: Actor, request: SetupBody): Promise<SetupResult> {
    const given = {
      connections: request.connections ?? [],
      credentials: request.credentials ?? [],
      memory: request.memory ?? [],
      policies: request.policies ?? [],
    };
    if (Object.values(given).every((items) => items.length === 0)) throw new AppError("missing_fields");
    const dryRun = request.dry_run === true;
    const confirm = request.confirm === true;
    const workspaceId = actor.workspaceId;

    // Credentials first, so a connection given in the same request is authorised by them.
    const credentialResults: CredentialResult[] = [];
    for (const item of given.credentials) credentialResults.push(await applyCredential(actor, item, dryRun));
    const providers = await credentials.providers(workspaceId);
    if (dryRun) for (const r of credentialResults) if (r.status === "would_create") providers.add(r.provider);

    const connectionResults: ConnectionResult[] = [];
    for (const item of given.connections) connectionResults.push(await applyConnection(actor, item, dryRun, providers));

    const memoryResults: MemoryResult[] = [];
    for (const item of given.memory) memoryResults.push(await applyMemory(actor, item, dryRun));

    const taken = new Set<string>();
    if (dryRun && given.policies.length > 0) for (const v of await allPolicies(workspaceId)) taken.add(v.row.name.toLowerCase());
    const policyResults: PolicyResult[] = [];
    for (const item of given.policies) policyResults.push(await applyPolicy(actor, item, dryRun, confirm, taken));

    const statuses = [...connectionResults, ...credentialResults, ...memoryResults, ...policyResults].map((r) => r.status);
    const took = statuses.filter((s) => ["created", "connected", "schema_required"].includes(s)).length;
    const would = statuses.filter((s) => s === "would_create").length + (dryRun ? connectionResults.filter((r) => r.status === "connected" || r.status === "schema_required").length : 0);
    const failed = statuses.filter((s) => s === "failed").length;
    const pendingPolicies = policyResults.filter((r) => r.status === "created" && !r.confirmed).length;

    const notes: string[] = [];
    if (dryRun) notes.push("Dry run: nothing was written; the checklist is the workspace as it is now.");
    if (!dryRun && pendingPolicies > 0) notes.push(`${pendingPolicies} polic${pendingPolicies === 1 ? "y waits for confirmation and governs" : "ies wait for confirmation and govern"} nothing until confirmed (send confirm: true to confirm on creation).`);
    if (dryRun && confirm && policyResults.some((r) => r.status === "would_create")) notes.push("confirm: true would also confirm the policies, so they would govern at once.");
    const undecided = connectionResults.filter((r) => r.status === "manual" || r.status === "unknown").length;
    if (undecided > 0) notes.push(`${undecided} connection${undecided === 1 ? "" : "s"} need${undecided === 1 ? "s" : ""} a choice: see checklist.connections_to_register.`);

    return {
      connections: connectionResults,
      credentials: credentialResults,
      memory: memoryResults,
      policies: policyResults,
      applied: dryRun ? 0 : took,
      failed,
      ...(dryRun ? { would_apply: would } : {}),
      dry_run: dryRun,
      ...(notes.length > 0 ? { notice: notes.join(" ") } : {}),
      checklist: await checklist(
        workspaceId,
        connectionResults.filter((r) => r.status !== "failed").map((r) => r.capability),
      ),
    };
  }

  async function assess(actor: Actor, request: AssessBody): Promise<Assessment> {
    const task = typeof request.task === "string" ? request.task.trim() : "";
    if (task === "") throw new AppError("assessment_missing_task", { details: [{ field: "task", message: "a non-empty string describing the task" }] });
    if (task.length > MAX_TASK_LENGTH) {
      throw new AppError("invalid_request", { message: `Invalid request: task is longer than ${MAX_TASK_LENGTH} characters.`, details: [{ field: "task", message: `at most ${MAX_TASK_LENGTH} characters` }] });
    }
    const domain = present(request.domain)?.trim() || undefined;
    const workspaceId = actor.workspaceId;
    const [toolList, list] = await Promise.all([tools.list(workspaceId), connections.list(workspaceId)]);

    // The intent engine's own ranking, with no catalog so it always ranks the tools (the catalog is looked
    // at below, for every integration the task names rather than only the first).
    const ranking = plan({ tools: toolList, catalog: [], userTurns: [task] });
    const candidates: Ranked<Tool>[] = ranking.kind === "tool" || ranking.kind === "ambiguous" ? ranking.candidates : [];
    const ambiguous = ranking.kind === "ambiguous";
    const best = candidates[0]?.item;
    const taskWords = words(task);
    // The ranking's keys (rankKey) and the catalog's stems both map back to the task's own words.
    const wordOf = (s: string) => taskWords.find((w) => rankKey(w) === s || stem(w) === s) ?? s;
    const top = candidates[0]?.score ?? 0;
    const scoreOf = (r: Ranked<Tool>) => {
      const nameStems = [...new Set(rankTerms(r.item.name))];
      const coverage = nameStems.length === 0 ? 0 : nameStems.filter((s) => r.nameMatched.includes(s)).length / nameStems.length;
      return round2(0.5 * (top > 0 ? r.score / top : 0) + 0.5 * coverage);
    };
    const capabilities: Assessment["capabilities"] = candidates.map((r) => {
      const healthy = r.item.health() === "healthy";
      const connection = list.find((c) => c.row.id === r.item.connectionId);
      return {
        name: r.item.name,
        human_name: connection ? `${r.item.name} (${connection.row.name})` : r.item.name,
        description: r.item.description,
        score: scoreOf(r),
        matched_on: [...new Set(r.matched.map(wordOf))],
        health: healthy ? "healthy" : "degraded",
        source: r.item.source,
        status: healthy ? "ready" : "degraded",
        category: r.item.source,
        functions: [r.item.name],
      };
    });

    // Arguments the task gives for the best tool (the engine's extraction; invalid values count as not given).
    let args: Record<string, unknown> = {};
    if (best) {
      args = ranking.kind === "tool" ? { ...ranking.arguments } : extractArguments(best.parameters, [task]);
      const invalid = Object.keys(args).length > 0 ? (tools.validate(best, args) ?? []) : [];
      for (const detail of invalid) delete args[detail.field.replace(/^arguments\./, "").split(".")[0]!];
    }
    const missing = best && !ambiguous ? missingArguments(best, args) : [];

    const gaps: Assessment["gaps"] = [];
    const fillers: Assessment["gap_filling_tasks"] = [];
    const outcomes: Assessment["outcomes"] = [];

    // Catalog integrations the task names, or needs by its verb ("text the customer"), that no tool provides.
    const wanted = new Map<string, { entry: CatalogIntegration; named: boolean; reason?: string }>();
    for (const entry of namedIntegrations(task, CATALOG)) wanted.set(entry.id, { entry, named: true });
    const needed = plan({ tools: toolList, catalog: CATALOG, userTurns: [task] });
    if (needed.kind === "connect" && !wanted.has(needed.integration.id)) wanted.set(needed.integration.id, { entry: needed.integration, named: needed.named, reason: needed.reason });
    // Nothing in the workspace fits and no integration was named: catalog capabilities whose words the task has.
    if (candidates.length === 0 && wanted.size === 0) {
      const taskStems = new Set(contentStems(task));
      for (const entry of CATALOG) {
        const offered = entry.capabilities.find((c) => contentStems(c).length > 0 && contentStems(c).every((s) => taskStems.has(s)));
        if (offered) wanted.set(entry.id, { entry, named: false, reason: `No connected tool can ${offered}; ${entry.name} can.` });
      }
    }
    for (const { entry, named, reason } of wanted.values()) {
      const provided = toolList.some((t) => words(t.name).includes(entry.id) || t.description.toLowerCase().includes(entry.name.toLowerCase()));
      if (provided) continue;
      const connection = list.find((c) => c.row.kind === "catalog" && c.row.integrationId === entry.id);
      const state = !connection ? "available" : connection.status === "pending_auth" ? "pending_auth" : "connected";
      capabilities.push({
        name: entry.id,
        human_name: entry.name,
        description: entry.description,
        score: named ? 1 : 0.8,
        matched_on: named ? [entry.name] : [...new Set(contentStems(task).filter((s) => entry.capabilities.some((c) => contentStems(c).includes(s))).map(wordOf))],
        health: state === "available" ? "unknown" : state === "pending_auth" ? "latent" : "healthy",
        source: "builtin",
        status: state,
        category: entry.category,
        functions: [],
      });
      const why = named ? `The task names ${entry.name}` : (reason ?? `The task needs ${entry.name}`);
      const gap =
        state === "available"
          ? { reason: "not_connected", description: `${why}, which is not connected to this workspace.`, action: "install", endpoint: INSTALL_ENDPOINT, fill: `Install ${entry.id}, then add a credential for provider "${entry.provider}".` }
          : state === "pending_auth"
            ? { reason: "pending_auth", description: `${why}; it is installed but has no credential for provider "${entry.provider}".`, action: "add_credential", endpoint: CREDENTIALS_ENDPOINT, fill: `Add a credential for provider "${entry.provider}".` }
            : { reason: "no_tools", description: `${why}; it is connected, but no tool of this workspace can act on it.`, action: "import_tools", endpoint: IMPORT_ENDPOINT, fill: `Import ${entry.name}'s API (OpenAPI or MCP) so its operations become tools.` };
      gaps.push({ capability: entry.id, reason: gap.reason, description: gap.description, blocking: true, severity: "blocking", source: "builtin" });
      fillers.push({ capability: entry.id, action: gap.action, endpoint: gap.endpoint, description: gap.fill });
      outcomes.push({ title: `Use ${entry.name}`, description: gap.description, confidence: named ? 1 : 0.8, ready: false, blocked_by: gap.reason === "not_connected" ? `${entry.id} is not connected` : gap.reason === "pending_auth" ? `no credential for ${entry.provider}` : `no ${entry.name} tool` });
    }
    if (candidates.length === 0 && wanted.size === 0) {
      gaps.push({ capability: "task", reason: "no_capability", description: "No tool of this workspace and no catalog integration matches the task.", blocking: true, severity: "blocking", source: "detected" });
      fillers.push({ capability: "task", action: "import_tools", endpoint: IMPORT_ENDPOINT, description: "Import an API (OpenAPI or MCP) whose operations do this task." });
    }

    // The governance outlook of the best tool with the arguments the task gives (no escalation, nothing recorded).
    let governanceDecision: Assessment["governance_decision"];
    let verdictType: "auto" | "escalate" | "abstain" | undefined;
    let unknowns: string[] = [];
    if (best) {
      const verdict = await governance.review(
        governedAction(best, args, { caller: actor, domain }),
        { certainOnly: true, escalate: false },
      );
      const detail = verdict.decision_detail;
      unknowns = detail?.unknowns ?? [];
      verdictType = DECISION_TYPE[verdict.decision];
      governanceDecision = {
        type: verdictType,
        confidence: detail?.fired ? (detail.fired.certain ? 1 : 0.9) : 1,
        reason: verdict.reason,
        tool: best.name,
        ...(verdict.policy ? { policy_id: verdict.policy.id, policy_name: verdict.policy.name } : {}),
      };
      if (verdict.decision === "blocked") {
        gaps.push({ capability: best.name, reason: "blocked_by_policy", description: verdict.reason, blocking: true, severity: "blocking", source: "policy" });
        if (verdict.policy) fillers.push({ capability: best.name, action: "review_policy", endpoint: `${POLICIES_ENDPOINT}/${verdict.policy.id}`, description: `Policy "${verdict.policy.name}" blocks ${best.name}.` });
      } else if (verdict.decision === "conditional") {
        gaps.push({ capability: best.name, reason: "requires_approval", description: verdict.reason, blocking: false, severity: "medium", source: "policy" });
      }
      const healthy = best.health() === "healthy";
      if (!healthy) gaps.push({ capability: best.name, reason: "degraded", description: `${best.name} is failing: its recent calls failed.`, blocking: true, severity: "high", source: best.source });
      const blockedBy =
        verdict.decision === "blocked"
          ? `policy ${verdict.policy?.name ?? ""}`.trim()
          : !healthy
            ? `${best.name} is degraded`
            : ambiguous
              ? "which tool is meant"
              : missing.length > 0
                ? `missing ${missing.join(", ")}`
                : undefined;
      outcomes.unshift({
        title: `Run ${best.name}`,
        description: best.description || best.name,
        confidence: capabilities[0]!.score,
        ready: blockedBy === undefined,
        ...(blockedBy ? { blocked_by: blockedBy } : {}),
      });
    }

    // Tools that move money or delete data, with no active rule concerning them: a policy worth having.
    const recommended: Assessment["policies_recommended"] = [];
    const risky = candidates.filter((r, i) => i === 0 || r.score >= top * 0.5).slice(0, 3);
    if (risky.length > 0) {
      const rules = await policies.ruleSet(workspaceId);
      for (const { item: tool } of risky) {
        const stems = new Set(contentStems(`${tool.name} ${tool.description}`));
        const money = [...stems].some((s) => MONEY_WORDS.has(s));
        const deletes = [...stems].some((s) => DELETE_WORDS.has(s));
        if (!money && !deletes) continue;
        // With no arguments, every rule about the tool fires (restrictive rules fail closed on missing values).
        const decision = await governance.dryRun(rules, { workspaceId, tool: tool.name, arguments: {}, domain, description: tool.description });
        if (decision.matched.length > 0) continue;
        const props = Object.keys((tool.parameters.properties ?? {}) as object);
        const sentences = money && props.some((k) => AMOUNT_KEY.test(k)) ? [`Require approval for ${tool.name} over $1,000`, `Require approval for ${tool.name}`] : [`Require approval for ${tool.name}`];
        const sentence = sentences.find((s) => parseRule(s).ok);
        if (!sentence) continue;
        recommended.push({
          policy: sentence,
          reason: money
            ? `${tool.name} moves money and no active policy concerns it: large amounts would run without a human.`
            : `${tool.name} deletes data and no active policy concerns it: deletions would run without a human.`,
          action: "require_approval",
          blocking: false,
          tool: tool.name,
          name: `approve ${tool.name}`.slice(0, 200),
          endpoint: POLICIES_ENDPOINT,
        });
      }
    }

    const questions: Assessment["clarification_questions"] = ambiguous
      ? [{ field: "tool", question: `Which should I do: ${candidates.slice(0, 2).map((c) => c.item.name).join(" or ")}?` }]
      : best
        ? missing.map((key) => ({ field: key, question: questionFor(best, key) }))
        : [];

    const blockingGaps = gaps.filter((g) => g.blocking).length;
    const integrationGaps = gaps.filter((g) => g.source === "builtin" && g.blocking).length;
    let canDo = best ? capabilities[0]!.score : 0;
    if (best && best.health() !== "healthy") canDo *= 0.5;
    if (integrationGaps > 0) canDo *= 0.5;
    if (verdictType === "abstain") canDo = 0;
    const quality =
      contentStems(task).length === 0 || (toolList.length === 0 && list.length === 0) || (!best && wanted.size === 0)
        ? "insufficient_data"
        : !best || ambiguous || missing.length > 0 || unknowns.length > 0
          ? "partial"
          : "complete";

    return {
      task,
      domain: domain ?? null,
      can_do: round2(canDo),
      assessment_quality: quality,
      ready_capabilities: capabilities.filter((c) => c.status === "ready").length,
      total_capabilities: capabilities.length,
      gap_count: gaps.length,
      blocking_gaps: blockingGaps,
      ready_for_deployment: best !== undefined && best.health() === "healthy" && !ambiguous && blockingGaps === 0,
      capabilities,
      gaps,
      gap_filling_tasks: fillers,
      policies_recommended: recommended,
      needs_clarification: questions.map((q) => q.field),
      clarification_questions: questions,
      ...(governanceDecision ? { governance_decision: governanceDecision } : {}),
      outcomes,
    };
  }

  return { apply, checklist, assess };
}
