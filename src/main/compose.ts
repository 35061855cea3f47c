/**
 * The composition root: opens the database and job queue, builds every service once, and hands them to
 * the HTTP app and the workers. `main/server.ts`, `main/worker.ts`, the test harness and the benchmarks
 * all start here, so they run the same wiring.
 */
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { buildApp } from './app.ts'
import { createPasswordHasher, defaultScryptParameters, type ScryptParameters } from '../kernel/passwords.ts'
import type { Config } from './config.ts'
import { openDatabase, ping, type Database, type Executor } from '../platform/db/database.ts'
import { createMemoryRateLimitStore, createRedisRateLimitStore, type RateLimitStore } from '../platform/http/rate-limit/stores.ts'
import { createJobQueue, type JobQueue } from '../platform/jobs/job-queue.ts'
import { systemClock, type Clock } from '../kernel/clock.ts'
import { createCursorCodec } from '../kernel/cursor.ts'
import { AppError } from '../kernel/errors.ts'
import { hmacSha256Hex } from '../kernel/hashing.ts'
import { createIdSource, hasIdPrefix, type IdSource } from '../kernel/ids.ts'
import { createReplayableSecrets } from '../kernel/secrets.ts'
import { createMailHandler, mailSendQueue } from '../platform/mail/mail.job.ts'
import { createLogMailer, createSmtpMailer, type Mailer } from '../platform/mail/mailer.ts'
import { createFileBlobStore, type BlobStore } from '../platform/storage/blob-store.ts'
import { createS3BlobStore } from '../platform/storage/s3-blob-store.ts'
import { createEventRecorder, startEventSweeper } from '../platform/outbox/events.ts'
import { createCommandRunner } from '../platform/commands/command.ts'
import { createIdempotencyStore } from '../platform/commands/idempotency.store.pg.ts'
import { createWebhookSubscriber, createWebhooks, webhookQueues, webhookRoutes, type WebhookOptions, type WebhooksService } from '../modules/webhooks/index.ts'
import { createLedger, ledgerQueues, ledgerRoutes, ledgerRpc, type Ledger, type LedgerService } from '../modules/ledger/index.ts'
import { connectorRoutes, createRaw, createRawRecords, rawQueues, rawRoutes, rawRpc, type ConnectorsService, type RawOptions, type RawService } from '../modules/raw/index.ts'
import { createPolicy, policyRoutes, type Policy, type PolicyService, type WalletsService } from '../modules/policy/index.ts'
import {
  auditQueues,
  auditRoutes,
  createAnchorChain,
  createAudit,
  createAuditBlobReferences,
  createAuditRecorder,
  oldestUnlinkedSeconds,
  type AnchorChainPublisher,
  type AuditEventView,
  type AuditService,
  type SettleResult,
} from '../modules/audit/index.ts'
import { authRoutes, createAuth, serviceTokenStanding, tierRules, type ApiKeysService, type AuthService } from '../modules/auth/index.ts'
import {
  createTenantDirectory,
  createTenants,
  tenantQueues,
  tenantRoutes,
  type MembersService,
  type OnboardingService,
  type TenantsService,
} from '../modules/tenants/index.ts'
import type { TenantDataPlan } from '../platform/db/tenant-data.ts'
import { ledgerTenantData } from '../modules/ledger/ledger.tables.ts'
import { rawTenantData } from '../modules/raw/raw.tables.ts'
import { webhooksTenantData } from '../modules/webhooks/webhooks.tables.ts'
import { idempotencyTenantData } from '../platform/commands/idempotency.tables.ts'
import { auditTenantData } from '../modules/audit/audit.tables.ts'
import { authTenantData } from '../modules/auth/auth.tables.ts'
import { outboxTenantData } from '../platform/outbox/outbox.tables.ts'
import { policyTenantData } from '../modules/policy/policy.tables.ts'
import { tenantsTenantData } from '../modules/tenants/tenants.tables.ts'
import { createPayments, paymentRoutes, paymentsRpc, paymentsTenantData, type Payments } from '../modules/payments/index.ts'
import { createProofs, proofRoutes, proofsRpc } from '../modules/proofs/index.ts'
import { createGovernance, governanceRoutes, governanceTenantData } from '../modules/governance/index.ts'
import { agentRoutes, agentsQueues, agentsRpc, agentsTenantData, catalog, createAgentRegistryChain, createAgents, type AgentRegistryChain, type Agents, type LedgerSnapshot, type PolicyDryRun } from '../modules/agents/index.ts'
import { createExecution, executionQueues, executionRoutes, executionTenantData, type Execution, type ExecutionSettings } from '../modules/execution/index.ts'
import { createOnchainBase, onchainRoutes, onchainTenantData } from '../modules/execution/index.ts'
import { createWiki, flattenText, wikiEntitiesTenantData, wikiEntityRoutes, wikiRoutes, wikiRpc, wikiTenantData, type SearchDocument } from '../modules/wiki/index.ts'
import { createEmbeddingModel, createLanguageModel, type EmbeddingModel } from '../platform/llm/language-model.ts'
import { createMemory, memoryQueues, memoryRoutes, memoryRpc, memoryTenantData, type AgentSource, type Memory } from '../modules/memory/index.ts'
import { routesOf, type ModuleDefinition } from '../platform/modules.ts'
import { createProposals, proposalRoutes, proposalsTenantData, resolveProposalType, type ProposalIntent, type Proposals } from '../modules/proposals/index.ts'
import { createMcpModule } from '../modules/mcp/index.ts'

/** Every queue of every module: the job queue creates them at start. */
export const allQueues = [mailSendQueue, ...tenantQueues, ...auditQueues, ...webhookQueues, ...rawQueues, ...ledgerQueues, ...executionQueues, ...agentsQueues, ...memoryQueues] as const

/**
 * Tenant deletion runs the modules' plans in this order: a module's rows go before the rows they
 * reference in another module (policies, keys and members reference their tenant, which goes last).
 */
export const tenantDataPlans: readonly TenantDataPlan[] = [
  proposalsTenantData,
  governanceTenantData,
  wikiTenantData,
  memoryTenantData,
  agentsTenantData,
  executionTenantData,
  onchainTenantData,
  paymentsTenantData,
  wikiEntitiesTenantData,
  ledgerTenantData,
  rawTenantData,
  webhooksTenantData,
  idempotencyTenantData,
  auditTenantData,
  authTenantData,
  outboxTenantData,
  policyTenantData,
  tenantsTenantData,
]

/** The policy versions a memory policy page lists at most (newest first). */
const memoryPolicyVersionsMax = 100

/** Every module's services, for tools, tests and benchmarks that call them in-process. */
export interface AppServices {
  readonly audit: AuditService
  readonly auth: AuthService
  readonly apiKeys: ApiKeysService
  readonly onboarding: OnboardingService
  readonly tenants: TenantsService
  readonly members: MembersService
  readonly webhooks: WebhooksService
  readonly ledger: LedgerService
  readonly raw: RawService
  /** Provider connections: the platform's operator routes (`/v1/platform/connectors…`). */
  readonly connectors: ConnectorsService
  readonly policy: PolicyService
  readonly wallets: WalletsService
}

/** Configuration whose secrets have been resolved (from the environment, or generated for the sandbox). */
export type ResolvedConfig = Config & { readonly jwtSecret: string; readonly apiKeyPepper: string }

export interface RuntimeOptions {
  readonly config: ResolvedConfig
  readonly logger: Logger
  /** PGlite data directory; undefined keeps PGlite in memory. Ignored when `config.databaseUrl` is set. */
  readonly pgliteDataDir: string | undefined
  readonly blobRoot: string
  /** How the HTTP server logs requests (app.ts); `pair` unless the logs are for a terminal. */
  readonly requestLog?: 'pair' | 'line'
  /** pg-boss schema; tests give each runtime its own so workers of parallel test files do not share jobs. */
  readonly jobSchema?: string
  readonly clock?: Clock
  readonly ids?: IdSource
  readonly scrypt?: ScryptParameters
  readonly rateLimits?: RateLimitStore
  readonly mailer?: Mailer
  /** Stored bytes; defaults to the store `config.blobStore` names (the filesystem one under `blobRoot`, or S3). */
  readonly blobs?: BlobStore
  /** How often idle workers poll for jobs. */
  readonly jobPollingIntervalSeconds?: number
  /** Webhook delivery: retry base delay, request timeout, host resolver (tests shorten and fake them). */
  readonly webhooks?: WebhookOptions
  /** How often the audit sequencer sweeps for work notifications missed. */
  readonly auditSweepIntervalMs?: number
  /** The chain batch roots are published to; defaults to the AuditAnchor contract of `config.anchorChain`. */
  readonly anchorChain?: AnchorChainPublisher
  /**
   * The AgentRegistry contract that activates registered agents and backs the agent-protocol guard;
   * undefined: a sandbox with no chain, where governance resume activates agents.
   */
  readonly agentRegistry?: AgentRegistryChain
  /** Raw: a parser selector, a host resolver and a fetch deadline (tests register parsers and fake DNS). */
  readonly raw?: RawOptions
  /** The execution worker's lease, retries, sweeper and the sandbox ACH provider's timings (tests shorten them). */
  readonly execution?: Partial<ExecutionSettings>
  /** The Wiki: the embedding model its search uses (undefined: trigram similarity). */
  readonly wiki?: { readonly embedder?: EmbeddingModel | undefined }
}

export interface Runtime {
  readonly config: ResolvedConfig
  readonly logger: Logger
  readonly db: Database
  readonly jobs: JobQueue
  readonly blobs: BlobStore
  readonly clock: Clock
  /** The services the app is built on, for tools and benchmarks that call them in-process. */
  readonly services: AppServices
  /** The Ledger slice: its normalizer and store, for tools, tests and benchmarks that run it in-process. */
  readonly ledger: Ledger
  /** The Policy slice: verdicts for the gate, the default policy, its store (tools, tests, benchmarks). */
  readonly policy: Policy
  /** The payments module: proposals, decisions, reads (and the agents module's halt). */
  readonly payments: Payments
  /** The execution module: the worker, the rails and their webhooks. */
  readonly execution: Execution
  /** The agents module: registry (activation, resume), halt, and the agent-protocol guard. */
  readonly agents: Agents
  /** The memory module: page reads and regeneration (tests wait on it). */
  readonly memory: Memory
  /** The proposals module: the read model over agent output, decide, evidence resolve and their agent-protocol tools. */
  readonly proposals: Proposals
  buildApp(): Promise<FastifyInstance>
  startWorkers(): Promise<void>
  /**
   * Links every pending audit event and closes due batches now, instead of waiting for the sequencer
   * (tests and tools); with `closeOpenBatch`, the partial batch at the end of each chain too.
   */
  settleAudit(options?: { closeOpenBatch?: boolean }): Promise<SettleResult>
  close(): Promise<void>
}

export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { config, logger } = options
  const clock = options.clock ?? systemClock
  const ids = options.ids ?? createIdSource(() => clock.now().getTime())

  const db = await openDatabase({ url: config.databaseUrl, pgliteDataDir: options.pgliteDataDir })
  await db.migrate()
  const jobs = createJobQueue(db, { schema: options.jobSchema ?? 'pgboss', logger, queues: allQueues })
  await jobs.start()

  const blobs = options.blobs ?? openBlobStore(config, options.blobRoot)
  const rateLimits = options.rateLimits ?? (config.redisUrl === undefined
      ? createMemoryRateLimitStore()
      : createRedisRateLimitStore(config.redisUrl, { onError: (error) => logger.warn({ err: error }, 'rate limit store (redis) error') }))
  const mailer = options.mailer ?? (config.smtpUrl === undefined ? createLogMailer(logger) : createSmtpMailer(config.smtpUrl, config.mailFrom))
  const passwords = await createPasswordHasher(options.scrypt ?? defaultScryptParameters)
  // Cursors are signed with a key derived from JWT_SECRET, so one secret to rotate covers both.
  const cursors = createCursorCodec(hmacSha256Hex(config.jwtSecret, 'steward:pagination-cursor:v1'))

  const auditRecorder = createAuditRecorder({ ids, clock })
  const events = createEventRecorder({ db, ids, clock, subscriber: createWebhookSubscriber({ jobs }) })
  const commands = createCommandRunner({
    db,
    clock,
    audit: auditRecorder,
    events,
    jobs,
    idempotency: createIdempotencyStore(),
    onRelayError: (error, relay) => logger.warn({ err: error, tenant_id: relay.tenantId, event_ids: relay.eventIds }, 'handing committed events over failed; the outbox sweep will'),
  })
  let stopEventSweeper: (() => Promise<void>) | undefined
  const anchorChain = options.anchorChain ?? (config.anchorChain === undefined ? undefined : createAnchorChain(config.anchorChain))
  // External agents' registrations, read from the AgentRegistry contract when one is configured (or given).
  const agentRegistry = options.agentRegistry ?? (config.agentRegistry === undefined ? undefined : createAgentRegistryChain(config.agentRegistry))
  const audit = createAudit(
    { db, commands, jobs, cursors, ids, clock, logger, publicBaseUrl: config.publicBaseUrl, blobs, chain: anchorChain },
    { batchEventsMax: config.auditBatchEventsMax, batchWaitSeconds: config.auditBatchWaitSeconds, sweepIntervalMs: options.auditSweepIntervalMs ?? 1_000 },
  )
  const tenantDirectory = createTenantDirectory()
  // A replayed command hands its secret out again by deriving it from a stored seed, with a key derived
  // from API_KEY_PEPPER: the key that already guards stored credentials (rotating it ends API keys anyway).
  // A wallet's link in any tenant (policy's wallets), for sign-in and for agent registrations; policy is built later.
  const walletLinkOf = async (executor: Executor, address: string) => {
    const row = await policy.store.findWalletByAddress(executor, address)
    return row === undefined ? undefined : { tenantId: row.tenantId, principalType: row.principalType, principalId: row.principalId, selfLinked: row.createdBy === row.principalId }
  }
  const replayableSecrets = createReplayableSecrets(hmacSha256Hex(config.apiKeyPepper, 'steward:replayable-secret:v1'))
  const auth = createAuth(
    {
      db,
      commands,
      cursors,
      ids,
      clock,
      environment: config.environment,
      passwords,
      secrets: replayableSecrets,
      tenants: tenantDirectory,
      // Policy and the agents module are built later; these run only once both exist.
      wallets: { findWallet: (executor, address) => walletLinkOf(executor, address) },
      agents: {
        agentOfWallet: (tenantId, address) => agents.registry.agentOfWallet(tenantId, address),
        agentById: (tenantId, agentId) => agents.registry.agentById(tenantId, agentId),
        tenantOfWalletOnchain: (address) => agents.registry.tenantOfWalletOnchain(address),
        checkAgentClaims: (claims) => agents.protocolGuard.checkAuthenticated(claims),
        async activateFromChain(requestId, tenantId, agentId) {
          if (agentRegistry === undefined) return (await agents.stateOf(tenantId, agentId)) ?? 'pending_onchain'
          // A chain that cannot answer now leaves the agent pending: the sign-in is refused, not failed.
          try {
            const outcome = await agents.registry.confirmOnchain({ requestId }, { tenantId, agentId })
            return outcome.agent.state
          } catch (error) {
            logger.warn({ err: error, tenantId, agentId }, 'agent activation at sign-in: the chain read failed')
            return 'pending_onchain'
          }
        },
      },
      publicBaseUrl: config.publicBaseUrl,
      log: logger,
    },
    config,
  )
  const webhooks = createWebhooks({ db, commands, cursors, ids, clock, environment: config.environment, allowLoopback: config.webhookAllowLoopback, onError: (error, message) => logger.error({ err: error }, message) }, options.webhooks)
  // The memory module is built later; the Ledger's write hook runs only once both exist (in a job).
  const ledger = createLedger({ db, commands, audit: auditRecorder, events, jobs, ids, clock, cursors, raw: createRawRecords(), afterWrite: (tx, notice) => memory.afterLedgerWrite(tx, notice) })
  const policy = createPolicy({
    db,
    commands,
    cursors,
    ids,
    clock,
    tenants: tenantDirectory,
    ledger: ledger.queries,
    // The agents module is built later; a wallet link asks its registry only once both exist.
    agentWallets: {
      registrationsClaiming: (executor, address) => agents.registry.registrationsClaiming(executor, address),
      tenantOnchain: (address) => agents.registry.tenantOfWalletOnchain(address),
    },
    afterWrite: (tx, notice) => memory.afterPolicyWrite(tx, notice),
  })
  // Tenants created before the Policy layer get the default policy (idempotent; a no-op once done).
  const backfilled = await policy.defaultPolicy.backfill()
  if (backfilled > 0) logger.info({ tenants: backfilled }, 'default policy given to existing tenants')
  const raw = createRaw(
    {
      db,
      commands,
      jobs,
      blobs,
      cursors,
      ids,
      clock,
      environment: config.environment,
      publicBaseUrl: config.publicBaseUrl,
      ledgerIntake: ledger.intake,
      // The agents module is built later; this runs only once both exist.
      contributionHolds: { isHeld: (executor, tenantId, contributor) => agents.isContributionHeld(executor, tenantId, contributor) },
      ledgerNormalizations: ledger.normalizations,
      blobReferences: createAuditBlobReferences(),
      tenants: tenantDirectory,
      secrets: replayableSecrets,
    },
    // Signed content URLs use their own key derived from JWT_SECRET, like cursors.
    { contentUrlKey: hmacSha256Hex(config.jwtSecret, 'steward:raw-content-url:v1'), fetchAllowLoopback: config.rawFetchAllowLoopback },
    options.raw,
  )
  // Provisioning a tenant gives it the default policy, so the tenants services come after Policy.
  const tenants = createTenants({
    db,
    commands,
    cursors,
    ids,
    clock,
    environment: config.environment,
    publicBaseUrl: config.publicBaseUrl,
    passwords,
    secrets: replayableSecrets,
    defaultPolicy: policy.defaultPolicy,
    tenantData: tenantDataPlans,
    blobs,
  })
  // The agents that propose: the first-party catalog's (by agent key, with the behaviour hash gate check 1.5
  // pins), and service tokens (Steward's internal agents) until the agent registry (issue 18) names others.
  // A halted (quarantined) agent, and a registered one that is not active, is inactive: the gate refuses it.
  // Whose id it is decides what is read: a first-party agent's state, a service token's standing (its
  // prefix is reserved: no agent registers with it), or else an external agent's registration and state.
  const agentStanding = async (executor: Executor, tenantId: string, agentId: string, now: Date) => {
    const firstParty = catalog.find((entry) => entry.agent_key === agentId)
    if (firstParty !== undefined) {
      const state = await agents.stateOf(tenantId, agentId, executor)
      return { active: state === undefined || state === 'active', mayPropose: true, behaviorHash: firstParty.behavior_hash }
    }
    const registered = hasIdPrefix(agentId, 'serviceToken') ? undefined : await agents.registry.agentById(tenantId, agentId, executor)
    if (registered !== undefined) return { active: registered.state === 'active', mayPropose: registered.scopes.includes('payment_intent:propose'), behaviorHash: null }
    if (!hasIdPrefix(agentId, 'serviceToken')) return undefined
    const token = await serviceTokenStanding(executor, tenantId, agentId, now)
    return token === undefined ? undefined : { active: token.active, mayPropose: token.scopes.includes('payment_intent:propose'), behaviorHash: null }
  }
  const payments = createPayments({
    // An intent an agent proposes is also its agent proposal (issue 20): the agents module records it in the
    // proposing transaction (agents is composed below; the listener runs only at request time).
    afterPropose: (tx, notice) => agents.actions.recordIntentProposal(tx, notice),
    db,
    commands,
    logger,
    cursors,
    ids,
    clock,
    ledger: ledger.queries,
    evidence: createRawRecords(),
    members: {
      async findMemberOfUser(executor, tenantId, userId) {
        const record = await tenantDirectory.findUserPrincipal(executor, tenantId, userId)
        if (record === undefined) return undefined
        const { member, user } = record
        return {
          memberId: member.id,
          userId: user.id,
          status: member.status === 'active' ? 'active' : 'deactivated',
          role: member.role,
          approvalDomains: member.approvalDomains,
          approvalLimit: member.approvalLimitValue === null || member.approvalLimitCurrency === null ? null : { currency: member.approvalLimitCurrency, value: member.approvalLimitValue },
          email: user.email,
        }
      },
      async humanWalletsOf(executor, tenantId, userId) {
        return (await policy.store.humanWallets(executor, tenantId)).filter((wallet) => wallet.principalId === userId).map((wallet) => wallet.address)
      },
    },
    policy: {
      evaluateActive: (tx, tenantId, action) => policy.verdicts.evaluateActive(tx, tenantId, action),
      evaluateActiveWith: (tx, tenantId, build) => policy.verdicts.evaluateActiveWith(tx, tenantId, build),
      bindVerdict: (tx, tenantId, decision, action) => policy.verdicts.bindVerdict(tx, tenantId, decision, action),
      activePolicyIntegrity: (executor, tenantId) => policy.integrity.activePolicyIntegrity(executor, tenantId),
    },
    agents: {
      standing: agentStanding,
      // Promotions are the execution module's, built next; this runs only once both exist.
      promotionOf: (executor, tenantId, agentId, now) => execution.promotions.activeFor(executor, tenantId, agentId, now),
      identityOf: (executor, tenantId, agentId) => agents.actions.identityOf(executor, tenantId, agentId),
    },
    auditChain: { oldestUnlinkedSeconds },
    // The execution module is built next, from this module's dispatch port; these run only once both exist.
    execution: {
      dispatchJobs: (order) => execution.dispatchJobs(order),
      dispatchCommitted: () => execution.dispatchCommitted(),
      executionsOf: (executor, tenantId, paymentIntentId) => execution.executionsOf(executor, tenantId, paymentIntentId),
      railsRegistered: () => execution.rails.registered(),
      sessionKeyOf: (executor, tenantId, payment) => onchain.sessionKeyOf(executor, tenantId, payment),
    },
    floor: { fiatFloorEnabled: config.paymentsFiatFloor },
  })
  // The onchain_base rail: registered only when a chain is configured; its session keys derive from their own
  // seed (in the sandbox, one derived from JWT_SECRET like the other derived secrets; production sets its own).
  const onchain = createOnchainBase({
    db,
    commands,
    clock,
    ledger: ledger.queries,
    chain:
      config.onchainRail === undefined
        ? undefined
        : { rpcUrl: config.onchainRail.rpcUrl, chainId: config.onchainRail.chainId, receiptTimeoutMs: config.onchainRail.receiptTimeoutSeconds * 1000, expiryMarginSeconds: config.onchainRail.expiryMarginSeconds },
    sessionKeySeed: config.onchainSessionKeySeed ?? hmacSha256Hex(config.jwtSecret, 'steward:onchain-session-key-seed:v1'),
  })
  const execution: Execution = createExecution({
    db,
    commands,
    jobs,
    ids,
    clock,
    payments: payments.dispatch,
    agents: { standing: agentStanding },
    achWebhookSecret: config.achWebhookSecret ?? hmacSha256Hex(config.jwtSecret, 'steward:ach-webhook:v1'),
    rails: onchain.adapter === undefined ? [] : [onchain.adapter],
    settings: { ...options.execution, sandboxAch: options.execution?.sandboxAch ?? { settleAfterSeconds: config.sandboxAchSettleSeconds, returnAfterSeconds: config.sandboxAchSettleSeconds } },
  })
  // The proofs read side: what payments, execution and audit recorded about an action, through their faces.
  /** Every audit event about an entity, oldest first (none: an empty list), read page by page. */
  async function everyEventAbout(tenantId: string, entity: { type: string; id: string }) {
    const events: AuditEventView[] = []
    let cursor: string | undefined
    do {
      const page = await audit.service.entityEvents(tenantId, entity, { limit: 1000, cursor }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'audit_entity_not_found') return { events: [], next_cursor: null }
        throw error
      })
      events.push(...page.events)
      cursor = page.next_cursor ?? undefined
    } while (cursor !== undefined)
    return events
  }
  const proofs = createProofs({
    payments: { proofFacts: (tenantId, id) => payments.read.proofFacts(tenantId, id) },
    execution: {
      executionIdsOf: async (tenantId, id) => (await execution.executionsOf(db.orm, tenantId, id)).map((found) => found.id),
      receiptsOf: (tenantId, id) => execution.receiptsOf(db.orm, tenantId, id),
    },
    audit: {
      eventIdsAbout: async (tenantId, entity) => (await everyEventAbout(tenantId, entity)).map((event) => event.id),
      event: (tenantId, eventId) => audit.service.event(tenantId, eventId),
    },
  })
  // The agents module: the first-party catalog, with whether each agent is promoted for the tenant (execution).
  // Runs read the Ledger through its query face, propose and run the gate through the payments module as the
  // agent, dry-run the gate with the active policy's decision (policy), and hand proofs on (proofs); halt pauses
  // the agent's intents (payments) and its contribution hold's release hands held artifacts on (raw).
  const agents = createAgents({
    db,
    commands,
    cursors,
    ids,
    clock,
    // The memory module's agent pages show each agent's state: a registration or a state change regenerates them.
    afterWrite: (tx, notice) => memory.afterAgentWrite(tx, notice),
    // A registration may not name a wallet linked to a person, another tenant or another agent (policy's links).
    walletLinks: { linkOf: (executor, address) => walletLinkOf(executor, address) },
    promotions: { isPromoted: async (tenantId, agentId) => (await execution.promotions.activeFor(db.orm, tenantId, agentId, clock.now())) !== undefined },
    ledger: {
      async snapshot(tenantId, today): Promise<LedgerSnapshot> {
        const current = await ledger.queries.currentLedger(db.orm, tenantId)
        return {
          today,
          ...current,
          counterparties: current.counterparties.map(({ first_recorded_at, ...counterparty }) => ({ ...counterparty, created_at: first_recorded_at })),
        }
      },
    },
    payments: {
      async propose(context, proposal) {
        const { outcome } = await payments.propose.propose(context, proposal)
        return { id: outcome.id, status: outcome.status, policy_decision_id: outcome.policy_decision_id }
      },
      async execute(context, paymentIntentId) {
        const { outcome } = await payments.gate.execute(context, { id: paymentIntentId })
        return { status: outcome.passed ? outcome.status : 'gate_failed' }
      },
      async dryRun(tenantId, { agentId, agentRole, behaviorHash, proposal, evidenceScore, at }): Promise<PolicyDryRun> {
        const counterparty = await ledger.queries.findCounterparty(db.orm, tenantId, proposal.destination_counterparty_id)
        const decision = await db.transaction((tx) =>
          policy.verdicts.evaluateActive(tx, tenantId, {
            kind: 'outbound_payment',
            counterparty_id: proposal.destination_counterparty_id,
            amount: { currency: proposal.currency, value: proposal.amount },
            agent_role: agentRole,
            timestamp: at.toISOString(),
            agent_id: agentId,
            action_type: proposal.action_type,
            confidence: proposal.confidence ?? null,
            evidence_score: evidenceScore,
            risk_level: counterparty?.riskLevel ?? null,
            behavior_hash: behaviorHash,
          }),
        )
        if (decision === undefined) return { outcome: 'no_active_policy', policy_id: null, policy_version: null, matched_rule_id: null, required_approvers: [], explanation: 'The tenant has no active policy.' }
        return {
          outcome: decision.outcome,
          policy_id: decision.policy_id,
          policy_version: decision.policy_version,
          matched_rule_id: decision.matched_rule_id,
          required_approvers: [...decision.required_approvers],
          explanation: `${decision.outcome} by ${decision.matched_rule_id === null ? 'the policy\'s fallback' : `rule ${decision.matched_rule_id}`} of policy version ${decision.policy_version}${decision.covered_by_autonomous_cap ? ', within its autonomous cap' : ''}.`,
        }
      },
      async statusOf(tenantId, paymentIntentId) {
        try {
          return (await payments.read.get(tenantId, paymentIntentId, { expandAgent: false })).status
        } catch (error) {
          if (error instanceof AppError && error.code === 'payment_intent_not_found') return undefined
          throw error
        }
      },
      pauseIntentsOfAgent: (tx, tenantId, agentId, actor) => payments.decide.pauseIntentsOfAgent(tx, tenantId, agentId, actor),
      async gateRunsOf(tenantId, paymentIntentId) {
        const facts = await payments.read.proofFacts(tenantId, paymentIntentId)
        return facts.gateRuns.map((run) => ({ id: run.id, mode: run.mode, audit_event_id: run.auditEventId, checks: run.checks.map((check) => ({ index: check.index, name: check.name, passed: check.passed, reason: check.reason })) }))
      },
    },
    proofs: { proof: (tenantId, actionId) => proofs.service.proof(tenantId, actionId) },
    raw: { releaseHeldContributions: (tx, tenantId, agentId) => raw.releaseHeldContributions(tx, tenantId, agentId) },
    chain: agentRegistry,
    // The proposals module's type resolution (pure): an action an agent proposes must resolve to a public type.
    actionTypes: { publicTypeOf: (actionType, agentRole) => resolveProposalType({ actionType, agentRole, agentKind: null }).type },
  })
  // The governance module: the platform's view of agents (the agents module's lifecycle), and reports from
  // the audit log joined to the payments module's policy decisions.
  const governance = createGovernance({
    db,
    commands,
    ids,
    clock,
    tenants: { exists: async (tenantId) => (await tenantDirectory.findTenant(db.orm, tenantId)) !== undefined },
    agents: {
      list: (tenantId, query) => agents.lifecycle.list(tenantId, query),
      get: (tenantId, agentId) => agents.lifecycle.get(tenantId, agentId),
      transition: (context, input) => agents.lifecycle.transition(context, input),
    },
    audit: {
      async eventsBetween(tenantId, since, until, eventsMax) {
        const events: AuditEventView[] = []
        let cursor: string | undefined
        do {
          // `until` is inclusive in the audit listing; the report's period end is not.
          const page = await audit.service.events(tenantId, { since: since.toISOString(), until: until.toISOString(), limit: 1000, cursor })
          events.push(...page.events.filter((event) => new Date(event.created_at).getTime() < until.getTime()))
          if (events.length > eventsMax) throw new AppError('validation_failed', `The period holds more than ${eventsMax} audit events; narrow it.`, { events_max: eventsMax })
          cursor = page.next_cursor ?? undefined
        } while (cursor !== undefined)
        return events
      },
      agentEvents: (tenantId, agentId) => everyEventAbout(tenantId, { type: 'agent', id: agentId }),
    },
    payments: { decisionOutcomes: (tenantId, ids) => payments.read.decisionOutcomes(tenantId, ids) },
  })
  // The wiki module: questions answered from the Ledger's query port, evidence down to Raw's parsed rows;
  // entities and search, with the policy and agents modules' documents read at search time.
  const rawRecords = createRawRecords()
  const wiki = createWiki({
    db,
    commands,
    ids,
    clock,
    cursors,
    ledger: ledger.queries,
    raw: {
      async artifactsOfParsedRows(tenantId, parsedRowIds) {
        const rows = await rawRecords.parsedRowEvidence(db.orm, tenantId, parsedRowIds)
        return new Map(rows.map((row) => [row.id, row.rawArtifactId]))
      },
      async parsedRows(executor, tenantId, parsedRowIds) {
        return rawRecords.parsedRowEvidence(executor, tenantId, parsedRowIds)
      },
      async artifacts(executor, tenantId, artifactIds) {
        const found = await Promise.all(artifactIds.map((id) => rawRecords.findArtifact(executor, tenantId, id)))
        return found
          .filter((artifact) => artifact !== undefined)
          .map((artifact) => ({ id: artifact.id, sourceType: artifact.sourceType, sha256: artifact.sha256, mimeType: artifact.mimeType, status: artifact.status, ingestedAt: artifact.ingestedAt }))
      },
    },
    languageModel:
      config.llm === undefined ? undefined : createLanguageModel({ baseUrl: config.llm.baseUrl, model: config.llm.model, apiKey: config.llm.apiKey, timeoutMs: config.llm.timeoutMs }),
    sources: {
      async policies(tenantId, max): Promise<SearchDocument[]> {
        const rows = await policy.store.listPolicies(db.orm, tenantId, { limit: max })
        return rows.map((row) => ({
          kind: 'policy',
          id: row.id,
          title: `Policy version ${row.version} (${row.state})`,
          body: flattenText(row.content),
          updatedAt: row.deactivatedAt ?? row.activatedAt ?? row.createdAt,
        }))
      },
      async agents(tenantId, max): Promise<SearchDocument[]> {
        const documents: SearchDocument[] = catalog.map((entry) => ({
          kind: 'agent',
          id: entry.agent_key,
          title: entry.display_name,
          body: [entry.description, entry.role, entry.category, ...entry.capabilities].join('\n'),
          updatedAt: null,
        }))
        let cursor: string | undefined
        do {
          const page = await agents.lifecycle.list(tenantId, { limit: 500, cursor })
          for (const agent of page.agents) {
            documents.push({ kind: 'agent', id: agent.id, title: agent.display_name, body: [agent.role, agent.status, agent.kind].join('\n'), updatedAt: new Date(agent.registered_at ?? agent.created_at) })
          }
          cursor = page.next_cursor ?? undefined
        } while (cursor !== undefined && documents.length < max)
        return documents.slice(0, max)
      },
    },
    embedder:
      options.wiki?.embedder ??
      (config.llm?.embeddingModel === undefined
        ? undefined
        : createEmbeddingModel({ baseUrl: config.llm.baseUrl, model: config.llm.model, apiKey: config.llm.apiKey, timeoutMs: config.llm.timeoutMs, embeddingModel: config.llm.embeddingModel })),
    onEmbeddingError: (error) => logger.warn({ err: error }, 'wiki search: the embedding model failed; trigram similarity used'),
  })
  // The memory module: pages rendered from the Ledger (its query port, in the regeneration's transaction),
  // the policy (its store) and the agents (the catalog with each agent's state, and registered agents).
  const memory: Memory = createMemory({
    db,
    commands,
    cursors,
    ids,
    clock,
    ledger: { current: (executor, tenantId) => ledger.queries.currentLedger(executor, tenantId) },
    tenants: { exists: async (tenantId) => (await tenantDirectory.findTenant(db.orm, tenantId)) !== undefined },
    policy: {
      async policyOf(executor, tenantId) {
        const [active, versions] = await Promise.all([policy.store.findActivePolicy(executor, tenantId), policy.store.listPolicies(executor, tenantId, { limit: memoryPolicyVersionsMax })])
        const versionOf = (row: (typeof versions)[number]) => ({
          id: row.id,
          version: row.version,
          state: row.state,
          content_hash: row.contentHash,
          created_at: row.createdAt.toISOString(),
          activated_at: row.activatedAt?.toISOString() ?? null,
          deactivated_at: row.deactivatedAt?.toISOString() ?? null,
        })
        const rules = ((active?.content as { rules?: Array<{ id: string; applies_to: string[]; execute: string; require?: string }> } | undefined)?.rules ?? []).map((rule) => ({
          id: rule.id,
          applies_to: rule.applies_to,
          execute: rule.execute,
          require: rule.require,
        }))
        return { active: active === undefined ? null : { ...versionOf(active), rules }, versions: versions.map(versionOf) }
      },
    },
    agents: {
      async agentsOf(tenantId) {
        const { agents: listed } = await agents.service.list(tenantId, {})
        const found: AgentSource[] = []
        for (const agent of listed) {
          if ('agent_key' in agent) {
            const state = (await agents.stateOf(tenantId, agent.agent_key)) ?? 'active'
            found.push({ id: agent.agent_key, kind: 'internal', display_name: agent.display_name, role: agent.role, description: agent.description, state, capabilities: agent.capabilities, created_at: null })
          } else {
            found.push({ id: agent.id, kind: 'external', display_name: agent.display_name, role: agent.role, description: null, state: agent.state, capabilities: [], created_at: agent.created_at })
          }
        }
        return found
      },
    },
  })
  // The proposals module: agent proposals through the agents module's query port, money proposals' intents
  // and decisions through payments, a finding's policy decision from the active policy (stored nowhere),
  // members from the tenants directory, and evidence from the Ledger's queries and the Wiki's entities.
  const proposals: Proposals = createProposals({
    db,
    commands,
    cursors,
    ids,
    clock,
    agents: agents.proposals,
    payments: {
      async intents(tenantId, intentIds) {
        const found = new Map<string, ProposalIntent>()
        for (const id of new Set(intentIds)) {
          try {
            const intent = await payments.read.get(tenantId, id, { expandAgent: false })
            const decision = intent.policy_decision
            found.set(id, {
              id,
              status: intent.status,
              actionType: intent.action_type,
              amount: intent.amount,
              currency: intent.currency,
              destinationCounterpartyId: intent.destination_counterparty_id,
              approvalsRequired: intent.approvals_required,
              approvals: intent.approval_ids.length,
              policy: { decision: decision.outcome, policy_id: decision.policy_id, policy_version: decision.policy_version, matched_rule_id: decision.matched_rule_id, required_approvers: decision.required_approvers, trace: decision.trace },
            })
          } catch (error) {
            if (!(error instanceof AppError && error.code === 'payment_intent_not_found')) throw error
          }
        }
        return found
      },
      approveIn: (tx, context, id) => payments.decide.approveIn(tx, context, { id }),
      rejectIn: (tx, context, id, reason) => payments.decide.rejectIn(tx, context, { id, reason }),
      recordRefusal: (context, id, decision, error) => payments.decide.recordRefusal(context, id, decision, error),
    },
    policy: {
      async evaluateFindings(tenantId, actions) {
        if (actions.length === 0) return []
        // One evaluation per distinct action (a page repeats an agent's action type and confidence often).
        const keyOf = (action: (typeof actions)[number]) => JSON.stringify([action.agentId, action.agentRole, action.actionType, action.confidence, action.evidenceScore])
        return db.transaction(async (tx) => {
          const evaluated = new Map<string, { decision: 'allow' | 'confirm' | 'reject'; policy_id: string; policy_version: number; matched_rule_id: string | null; required_approvers: string[]; trace: Array<{ rule_id: string; matched: boolean; checks: Array<{ key: string; passed: boolean; detail: string }> }> } | undefined>()
          const decisions = []
          for (const action of actions) {
            const key = keyOf(action)
            if (evaluated.has(key)) {
              decisions.push(evaluated.get(key))
              continue
            }
            const decision = await policy.verdicts.evaluateActive(tx, tenantId, {
              kind: 'agent_action',
              agent_id: action.agentId,
              agent_role: action.agentRole,
              action_type: action.actionType,
              confidence: action.confidence,
              evidence_score: action.evidenceScore,
            })
            const view =
              decision === undefined
                ? undefined
                : { decision: decision.outcome, policy_id: decision.policy_id, policy_version: decision.policy_version, matched_rule_id: decision.matched_rule_id, required_approvers: [...decision.required_approvers], trace: decision.trace.map((entry) => ({ rule_id: entry.rule_id, matched: entry.matched, checks: entry.checks.map((check) => ({ ...check })) })) }
            evaluated.set(key, view)
            decisions.push(view)
          }
          return decisions
        })
      },
    },
    members: {
      async findMemberOfUser(executor, tenantId, userId) {
        const record = await tenantDirectory.findUserPrincipal(executor, tenantId, userId)
        if (record === undefined) return undefined
        return { memberId: record.member.id, userId: record.user.id, status: record.member.status === 'active' ? 'active' : 'deactivated', role: record.member.role, approvalDomains: record.member.approvalDomains }
      },
    },
    evidence: {
      async ledgerRecord(tenantId, kind, id) {
        const version = await ledger.queries.recordAsOf(db.orm, tenantId, id)
        return version === undefined || version.kind !== kind ? undefined : version.record
      },
      async wikiEntity(tenantId, id) {
        try {
          const entity = await wiki.entities.entity(tenantId, id)
          return { kind: String(entity.kind), record: entity.record as Record<string, unknown> }
        } catch (error) {
          if (error instanceof AppError && error.code === 'wiki_entity_not_found') return undefined
          throw error
        }
      },
    },
  })
  const services = {
    apiKeys: auth.apiKeys,
    auth: auth.service,
    onboarding: tenants.onboarding,
    tenants: tenants.tenants,
    members: tenants.members,
    webhooks: webhooks.service,
    ledger: ledger.service,
    raw: raw.service,
    connectors: raw.connectors,
    policy: policy.service,
    wallets: policy.wallets,
    audit: audit.service,
  }

  const pollingIntervalSeconds = options.jobPollingIntervalSeconds ?? 2
  /** Every module, in the order their routes register and their workers start. */
  const moduleList: readonly ModuleDefinition[] = [
    {
      name: 'tenants',
      routes: routesOf(tenantRoutes, { onboarding: services.onboarding, tenants: services.tenants, members: services.members, selfServeSignup: config.selfServeSignup }),
      startWorkers: (queue) => tenants.startWorkers(queue, { pollingIntervalSeconds }),
    },
    { name: 'auth', routes: routesOf(authRoutes, { auth: services.auth, apiKeys: services.apiKeys, siwx: auth.siwx }) },
    { name: 'mail', startWorkers: (queue) => queue.work(mailSendQueue, createMailHandler(mailer), { pollingIntervalSeconds, concurrency: 4 }) },
    { name: 'webhooks', routes: routesOf(webhookRoutes, { webhooks: webhooks.service }), startWorkers: (queue) => webhooks.startWorkers(queue, { pollingIntervalSeconds }), stop: () => webhooks.stop() },
    {
      // Business events committed but not handed over (a process stopped between its commit and the relay).
      name: 'outbox',
      startWorkers: async () => {
        stopEventSweeper ??= startEventSweeper(events, { intervalMs: 5_000, olderThanMs: 10_000, limit: 500, onError: (error) => logger.error({ err: error }, 'outbox sweep failed') })
      },
      stop: async () => {
        await stopEventSweeper?.()
        stopEventSweeper = undefined
      },
    },
    {
      name: 'audit',
      routes: routesOf(auditRoutes, { audit: services.audit }),
      startWorkers: (queue) => audit.startWorkers(queue, { pollingIntervalSeconds }),
      stop: () => audit.stop(),
    },
    { name: 'ledger', routes: routesOf(ledgerRoutes, { ledger: ledger.service }), rpc: ledgerRpc(ledger.service), startWorkers: (queue) => ledger.startWorkers(queue, { pollingIntervalSeconds }) },
    {
      name: 'raw',
      // The tenant API, and the platform's operator routes for provider connections (/v1/platform/connectors…).
      routes: async (app) => {
        await app.register(routesOf(rawRoutes, { raw: raw.service }))
        await app.register(routesOf(connectorRoutes, { connectors: raw.connectors, publicBaseUrl: config.publicBaseUrl }))
      },
      rpc: rawRpc(raw.service),
      startWorkers: (queue) => raw.startWorkers(queue, { pollingIntervalSeconds }),
      stop: async () => raw.stop(),
    },
    { name: 'policy', routes: routesOf(policyRoutes, { policy: policy.service, wallets: policy.wallets, publicBaseUrl: config.publicBaseUrl }) },
    {
      name: 'payments',
      routes: routesOf(paymentRoutes, { propose: payments.propose, decide: payments.decide, read: payments.read, gate: payments.gate }),
      rpc: paymentsRpc({ propose: payments.propose, decide: payments.decide, read: payments.read }),
    },
    { name: 'proofs', routes: routesOf(proofRoutes, { proofs: proofs.service }), rpc: proofsRpc(proofs.service) },
    {
      name: 'agents',
      routes: routesOf(agentRoutes, { agents: agents.service, runs: agents.runs, reads: agents.reads, registry: agents.registry, halt: agents.halt, actions: agents.actions }),
      rpc: agentsRpc({ actions: agents.actions }),
      startWorkers: (queue) => agents.startWorkers(queue, { pollingIntervalSeconds }),
    },
    { name: 'proposals', routes: routesOf(proposalRoutes, { read: proposals.read, decide: proposals.decide, evidence: proposals.evidence }), rpc: proposals.rpc },
    { name: 'governance', routes: routesOf(governanceRoutes, { agents: governance.agents, reports: governance.reports }) },
    {
      name: 'wiki',
      routes: async (app) => {
        await app.register(wikiRoutes, { questions: wiki.questions })
        await app.register(wikiEntityRoutes, { entities: wiki.entities, annotate: wiki.annotate, search: wiki.search })
      },
      rpc: wikiRpc({ questions: wiki.questions, entities: wiki.entities }),
    },
    {
      name: 'memory',
      routes: routesOf(memoryRoutes, { pages: memory.pages, regeneration: memory.regeneration }),
      rpc: memoryRpc(memory.pages),
      startWorkers: (queue) => memory.startWorkers(queue, { pollingIntervalSeconds }),
    },
    {
      name: 'execution',
      // The rails' webhooks, and the onchain_base rail's registrations.
      routes: async (app) => {
        await app.register(routesOf(executionRoutes, { railWebhooks: execution.railWebhooks, promotions: execution.promotions }))
        await app.register(routesOf(onchainRoutes, { accounts: onchain.accounts }))
      },
      startWorkers: (queue) => execution.startWorkers(queue, { pollingIntervalSeconds }),
      stop: () => execution.stop(),
    },
  ]

  // The agent protocol (MCP): every module's tools, resource templates and prompts behind the agents
  // module's checks before dispatch. Last, so it is built from every other module's contribution.
  const modules = [
    ...moduleList,
    createMcpModule({ contributions: moduleList.flatMap((module) => (module.rpc === undefined ? [] : [module.rpc])), guard: agents.protocolGuard, publicBaseUrl: config.publicBaseUrl }),
  ]

  let closed = false
  return {
    config,
    logger,
    db,
    jobs,
    blobs,
    clock,
    services,
    ledger,
    policy,
    payments,
    execution,
    agents,
    memory,
    proposals,
    buildApp: () =>
      buildApp({
        logger,
        publicBaseUrl: config.publicBaseUrl,
        trustProxyHops: config.trustProxyHops,
        platformServiceSecret: config.platformServiceSecret,
        publicRateLimit: { perMinute: config.publicRateLimitPerMinute, burst: config.publicRateLimitBurst },
        rateLimits,
        checkReady: () => ping(db),
        authenticator: services.auth,
        platformRateLimit: tierRules.production,
        modules,
        requestLog: options.requestLog,
        consoleDirectory: config.consoleDirectory,
      }),
    async startWorkers() {
      for (const module of modules) await module.startWorkers?.(jobs, { pollingIntervalSeconds })
    },
    settleAudit: (settleOptions) => audit.settle(settleOptions),
    /** Stops the workers (letting running jobs finish), then closes the stores. Idempotent. */
    async close() {
      if (closed) return
      closed = true
      for (const module of modules) await module.stop?.()
      await jobs.stop({ timeoutMs: config.shutdownTimeoutMs })
      await rateLimits.close()
      await mailer.close()
      await blobs.close()
      await db.close()
    },
  }
}

/** The filesystem store under `blobRoot` (one host), or the S3-compatible bucket the configuration names. */
function openBlobStore(config: Config, blobRoot: string): BlobStore {
  const settings = config.blobStore
  if (settings.kind === 'fs') return createFileBlobStore(blobRoot)
  return createS3BlobStore({
    bucket: settings.bucket,
    region: settings.region,
    endpoint: settings.endpoint,
    publicEndpoint: settings.publicEndpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    prefix: settings.prefix,
  })
}
