// buildApp: the one composition root. Every service is made here and handed to whoever needs it; nothing
// is a module-level singleton, so tests can run several apps (even on one database) in one process.
import Fastify, { LogController } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyBaseLogger } from "fastify";
import { systemClock, type Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/index.ts";
import { errSerializer } from "./db/log.ts";
import { randomIds, type Ids } from "./ids.ts";
import { registerAuth } from "./http/auth.ts";
import { registerBodyHandling } from "./http/body.ts";
import { clientErrorHandler, frameworkErrorHandler, MAX_PARAM_LENGTH, registerErrorHandling } from "./http/errors.ts";
import { registerIdempotency } from "./http/idempotency.ts";
import { registerOpenApi } from "./http/openapi.ts";
import { createRateLimits } from "./http/rate-limit.ts";
import { genTraceId, TRACE_HEADER } from "./http/trace.ts";
import type { App } from "./http/types.ts";
import { registerApiKeyRoutes } from "./modules/api-keys/routes.ts";
import { createApiKeyService, type ApiKeyService } from "./modules/api-keys/service.ts";
import { registerDocsRoutes } from "./modules/docs/routes.ts";
import { registerHealthRoutes } from "./modules/health/routes.ts";
import { createHealthService } from "./modules/health/service.ts";
import { registerInfraRoutes } from "./modules/infra/routes.ts";
import { registerWorkspaceRoutes } from "./modules/workspaces/routes.ts";
import { createAuditLog, type AuditLog } from "./events/audit.ts";
import { registerCredentialRoutes } from "./modules/credentials/routes.ts";
import { createCredentialService, type CredentialService } from "./modules/credentials/service.ts";
import { createVault, resolveMasterKey } from "./modules/credentials/vault.ts";
import { registerMemoryRoutes } from "./modules/memory/routes.ts";
import { providerHosts } from "./modules/connections/catalog.ts";
import { registerConnectionRoutes } from "./modules/connections/routes.ts";
import { createConnectionService, type ConnectionService } from "./modules/connections/service.ts";
import { createMemoryService, type MemoryService } from "./modules/memory/service.ts";
import { createOutbound } from "./http/outbound.ts";
import { registerToolRoutes } from "./modules/tools/routes.ts";
import { createToolService, type ToolService } from "./modules/tools/service.ts";
import { createGovernance, type Governance } from "./engine/governance/chokepoint.ts";
import { createOpenAiPlanner } from "./engine/planner/openai.ts";
import { registerEscalationRoutes } from "./modules/escalations/routes.ts";
import { registerExecutionRoutes } from "./modules/executions/routes.ts";
import { registerIntentRoutes } from "./modules/intent/routes.ts";
import { registerChatRoutes } from "./modules/chat/routes.ts";
import { createChatService } from "./modules/chat/service.ts";
import { createUpstream } from "./modules/chat/upstream.ts";
import { createRecordWriter } from "./modules/intent/records.ts";
import { registerIntelligenceRoutes, registerPromoteRoute } from "./modules/intelligence/routes.ts";
import { createPromotionService } from "./modules/intelligence/promotion.ts";
import { registerHealingRoutes } from "./modules/healing/routes.ts";
import { createHealingService, type HealingService } from "./modules/healing/service.ts";
import { registerLearningRoutes } from "./modules/learning/routes.ts";
import { createLearningService } from "./modules/learning/service.ts";
import { createIntentService, type IntentService } from "./modules/intent/service.ts";
import { createConversationService } from "./modules/conversations/service.ts";
import { createExecutionService, type ExecutionService } from "./modules/executions/service.ts";
import { createEscalationService, type EscalationService } from "./modules/escalations/service.ts";
import { registerPolicyRoutes } from "./modules/policies/routes.ts";
import { createPolicyService, type PolicyService } from "./modules/policies/service.ts";
import { createWorkspaceService, type WorkspaceService } from "./modules/workspaces/service.ts";
import { registerSetupRoutes } from "./modules/setup/routes.ts";
import { registerAuditRoutes } from "./modules/audit/routes.ts";
import { createAuditService } from "./modules/audit/service.ts";
import { findIntent } from "./modules/intent/store.ts";
import { createSetupService } from "./modules/setup/service.ts";
import { createSetupSessionService } from "./modules/setup/sessions.ts";
import { createMetrics, type Metrics } from "./observability/metrics.ts";
import { registerObservability } from "./observability/http.ts";
import { createTracing } from "./observability/tracing.ts";
import { VERSION } from "./version.ts";
import { createOutbox } from "./events/outbox.ts";
import { createDeliveryWorker } from "./events/webhook-delivery.ts";
import { registerWebhookRoutes } from "./modules/webhooks/routes.ts";
import { createWebhookService, type WebhookService } from "./modules/webhooks/service.ts";

export interface AppDeps {
  config: Config;
  database: Database;
  clock?: Clock;
  ids?: Ids;
  /** A pino logger, or false for none (tests). */
  logger?: FastifyBaseLogger | false;
}

export interface Services {
  workspaces: WorkspaceService;
  apiKeys: ApiKeyService;
  audit: AuditLog;
  credentials: CredentialService;
  memory: MemoryService;
  connections: ConnectionService;
  tools: ToolService;
  policies: PolicyService;
  escalations: EscalationService;
  governance: Governance;
  executions: ExecutionService;
  intents: IntentService;
  /** The app's metrics: services outside buildApp (the webhook worker) increment theirs here. */
  metrics: Metrics;
  healing: HealingService;
  webhooks: WebhookService;
}

export interface BuiltApp {
  app: App;
  services: Services;
}

export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const { config, database } = deps;
  const clock = deps.clock ?? systemClock;
  const ids = deps.ids ?? randomIds;
  // The base of doc_url: SVC_PUBLIC_URL, or the address actually bound (SVC_PORT=0 picks a free port).
  let publicUrl = config.publicUrl;

  const app = Fastify({
    loggerInstance: deps.logger === false || deps.logger === undefined ? undefined : deps.logger,
    logger: deps.logger === undefined ? { level: config.logLevel, redact: ["req.headers.authorization"], serializers: { err: errSerializer } } : undefined,
    genReqId: genTraceId,
    requestIdHeader: false,
    // Fastify's own request lines (the URL with its query, at every level) are replaced by one line per
    // request from src/observability/http.ts.
    logController: new LogController({ requestIdLogLabel: "trace_id", disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Errors raised before any route (bad percent-encoding, long parameter, unparsable HTTP) still answer
    // with the canonical body and a trace id.
    frameworkErrors: frameworkErrorHandler(() => publicUrl),
    clientErrorHandler: clientErrorHandler(() => publicUrl),
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  const metrics = createMetrics({ database, enabled: config.metricsEnabled });
  const tracing = await createTracing({ endpoint: config.otelEndpoint, tracesEndpoint: config.otelTracesEndpoint, serviceName: config.otelServiceName, serviceVersion: VERSION });
  const workspaces = createWorkspaceService({ database, ids, clock });
  const apiKeys = createApiKeyService({ database, ids, clock });
  const health = createHealthService(database);
  const audit = createAuditLog({ db: database.db, ids, clock });
  const vault = createVault({ db: database.db, masterKey: resolveMasterKey(config, app.log) });
  // Services announce what happened through the outbox, in the transaction of the change (docs/webhooks.md).
  const outbox = createOutbox({ ids, clock });
  // Connections read credentials (which providers are authorised); credentials tell connections when that
  // changes. The late binding keeps both services plain.
  const late: { connections?: ConnectionService; tools?: ToolService } = {};
  const credentials = createCredentialService({
    db: database.db,
    ids,
    clock,
    vault,
    audit,
    providerHosts,
    onChange: (workspaceId) => void late.connections?.refresh(workspaceId).catch((error) => app.log.warn({ err: error }, "connection summary refresh failed")),
  });
  const connections = createConnectionService({ db: database.db, ids, clock, audit, credentials, outbox, log: app.log });
  late.connections = connections;
  health.contribute(connections);
  const memory = createMemoryService({ database, ids, clock, audit });
  // Bindings need the tools, and the tools service is made later: reached through `late`.
  const policies = createPolicyService({ database, ids, clock, audit, outbox, tools: (workspaceId) => late.tools?.list(workspaceId) ?? Promise.resolve([]) });
  const escalations = createEscalationService({ database, ids, clock, audit, outbox });
  const governance = createGovernance({
    db: database.db,
    clock,
    ports: {
      ruleSet: (workspaceId) => policies.ruleSet(workspaceId),
      escalate: (caller, request) => escalations.create(caller, { category: "policy", severity: "medium", ...request }),
      // One statement is its own transaction (src/events/audit.ts).
      audit: (caller, entry) => audit.record(database.db, caller, entry),
    },
    log: app.log,
    onVerdict: (decision, gate) => metrics.governance.inc({ decision, gate }),
  });
  const outbound = createOutbound({
    allowHosts: config.outboundAllowHosts,
    caFile: config.outboundCaFile,
    timeoutMs: config.outboundTimeoutMs,
    maxBytes: config.outboundMaxBytes,
  });
  const tools = createToolService({
    database,
    ids,
    clock,
    audit,
    connections,
    credentials,
    vault,
    outbound,
    timeoutMs: config.outboundTimeoutMs,
    mcpIdleMs: config.mcpIdleMs,
    log: app.log,
  });
  late.tools = tools;
  connections.onDeleted((workspaceId, row) => tools.forget(workspaceId, row.id));
  const healing = createHealingService({ db: database.db, ids, clock, baseDelayMs: config.executionRetryBaseMs });
  const executions = createExecutionService({
    database,
    ids,
    clock,
    audit,
    outbox,
    tools,
    governance,
    policies,
    escalations,
    vault,
    retry: { retries: config.executionRetries, baseDelayMs: config.executionRetryBaseMs, retryAfterCapMs: config.executionRetryAfterCapMs },
    precedents: healing,
    log: app.log,
    onFinished: (status) => metrics.executions.inc({ status }),
  });
  // A model provider only when one is configured (operator configuration: not behind the SSRF guard).
  const planner = config.modelBaseUrl ? createOpenAiPlanner({ baseUrl: config.modelBaseUrl, apiKey: config.modelApiKey, model: config.modelName, timeoutMs: config.modelTimeoutMs }) : undefined;
  const conversations = createConversationService({ db: database.db });
  const intents = createIntentService({ db: database.db, ids, clock, conversations, tools, connections, memory, policies, governance, executions: () => executions, planner, plannerFallback: config.modelFallback === "embedded", escalations, outbox, knownSecrets: credentials.knownSecrets, observe: { decision: (type) => metrics.decisions.inc({ source: "intent", type }), stages: tracing.enabled ? tracing.stages : undefined } });
  const upstream = config.modelBaseUrl ? createUpstream({ baseUrl: config.modelBaseUrl, apiKey: config.modelApiKey, model: config.modelName, timeoutMs: config.modelTimeoutMs }) : undefined;
  const records = createRecordWriter(database.db, app.log);
  const chat = createChatService({ conversations, ids, clock, tools, connections, memory, policies, governance, planner, plannerFallback: config.modelFallback === "embedded", upstream, records, knownSecrets: credentials.knownSecrets, onDecision: (type) => metrics.decisions.inc({ source: "chat", type }) });
  // The audit read API joins a request's record, execution and escalations; records written behind are
  // flushed first so a request's own record is always there.
  const auditReads = createAuditService({
    db: database.db,
    executions,
    escalations,
    findRecord: async (workspaceId, idOrTrace) => {
      await records.flush();
      return findIntent(database.db, workspaceId, idOrTrace);
    },
  });
  const setup = createSetupService({ clock, credentials, connections, memory, policies, tools, governance, log: app.log });
  const setupSessions = createSetupSessionService({ db: database.db, ids, clock, vault, audit, setup });
  const limits = await createRateLimits(config, database);
  // Deliveries have an outbound client of their own: their time limit, and a small answer (only its status matters).
  const webhookOutbound = createOutbound({ allowHosts: config.outboundAllowHosts, caFile: config.outboundCaFile, timeoutMs: config.webhookTimeoutMs, maxBytes: 64 * 1024 });
  const webhookPolicy = { timeoutMs: config.webhookTimeoutMs, maxAttempts: config.webhookMaxAttempts, retryBaseMs: config.webhookRetryBaseMs, retryCapMs: config.webhookRetryCapMs, leaseMs: config.webhookLeaseMs, pollMs: config.webhookPollMs };
  const deliveries = createDeliveryWorker({ database, clock, vault, outbound: webhookOutbound, policy: webhookPolicy, log: app.log, onAttempt: (event, outcome) => metrics.webhookDeliveries.inc({ event, outcome }) });
  const webhooks = createWebhookService({ db: database.db, ids, clock, vault, audit, worker: deliveries });

  // The trace header goes on first, so every answer (404, 413, 429, errors) carries it.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header(TRACE_HEADER, request.id);
    done();
  });
  // Before auth and rate limits, so a refused request is counted, logged and traced too.
  registerObservability(app, { metrics: config.metricsEnabled ? metrics : undefined, tracing });
  registerBodyHandling(app, config.bodyLimitBytes);
  app.addHook("onListen", async () => {
    const address = app.server.address();
    if (!config.publicUrlFromEnv && typeof address === "object" && address) {
      publicUrl = `http://${config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : address.address}:${address.port}`;
    }
  });
  registerErrorHandling(app, () => publicUrl);
  await registerOpenApi(app, { version: VERSION, publicUrl: config.publicUrl });
  registerAuth(app, { adminToken: config.adminToken, apiKeys, workspaces, limits });
  const idempotency = registerIdempotency(app, { db: database.db, clock, writeBehind: database.pool === undefined, dataDir: database.dataDir, log: app.log });

  registerInfraRoutes(app, { health, rateLimitStore: limits.store, metrics: config.metricsEnabled ? metrics : undefined, metricsToken: config.metricsToken });
  registerDocsRoutes(app);
  registerHealthRoutes(app, { health, version: VERSION });
  registerWorkspaceRoutes(app, workspaces);
  registerApiKeyRoutes(app, { apiKeys, workspaces });
  registerCredentialRoutes(app, credentials);
  registerMemoryRoutes(app, memory);
  registerConnectionRoutes(app, connections);
  registerToolRoutes(app, { tools, govern: (action) => governance.govern(action) });
  registerPolicyRoutes(app, { policies, governance });
  registerEscalationRoutes(app, escalations);
  registerExecutionRoutes(app, { executions, pingMs: config.ssePingMs });
  registerIntentRoutes(app, intents);
  registerChatRoutes(app, { chat, pingMs: config.ssePingMs });
  registerSetupRoutes(app, { setup, sessions: setupSessions });
  registerIntelligenceRoutes(app, { db: database.db, clock, intents, records, chat, audit: auditReads });
  registerAuditRoutes(app, auditReads);
  registerPromoteRoute(app, createPromotionService({ db: database.db, clock, audit, records, memory, healing, executions }));
  registerLearningRoutes(app, createLearningService({ db: database.db, clock, records }));
  registerHealingRoutes(app, healing);
  registerWebhookRoutes(app, { webhooks, maxAttempts: config.webhookMaxAttempts });

  await apiKeys.start();
  await connections.start();
  await tools.start();
  await memory.start();
  await policies.start();
  await escalations.start();
  await executions.startService();
  intents.start();
  if (config.webhookWorker) await deliveries.start();
  // Probing starts once the server is ready: before that the event loop is busy compiling the routes'
  // schemas, and a probe's answer from the database thread would wait behind that and read as a slow database.
  app.addHook("onReady", async () => health.start());
  app.addHook("onClose", async () => {
    await deliveries.stop();
    await webhookOutbound.close();
    await idempotency.close();
    await records.close();
    await upstream?.close();
    intents.stop();
    await executions.stopService();
    health.stop();
    connections.stop();
    await tools.stop();
    await memory.stop();
    await outbound.close();
    await policies.stop();
    await escalations.stop();
    await apiKeys.stop();
    await limits.close();
    await tracing.shutdown();
  });

  return { app, services: { workspaces, apiKeys, audit, credentials, memory, connections, tools, policies, escalations, governance, executions, intents, metrics, healing, webhooks } };
}
