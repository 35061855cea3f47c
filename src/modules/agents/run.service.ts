/**
 * Routing and runs (spec, "Agents"; issue 18, item 4; docs/agents.md, "Runs").
 *
 * `route` (POST /v1/agents/route) records a routing decision (domain/routing.ts), audited agent.routed.
 *
 * `run` (POST /v1/agents/run, and the agents-run job of POST /v1/agents/events) is the pipeline:
 * 1. route; nothing routed (no_match) or a caller who may not take the agent's payments forward
 *    (unscoped) ends the run there, recorded with that status; a selected agent that is halted
 *    (quarantined) or revoked in the tenant is 409 agent_inactive, and nothing is recorded;
 * 2. read the tenant's Ledger (the ledger module, through AgentsLedger) as of `context.as_of` or today,
 *    and run the agent's program on it;
 * 3. drop what the agent already proposed within 24 hours (same program key, not closed): a run all of
 *    whose proposals were already made is 409 agent_proposal_duplicate, naming the earlier run;
 * 4. resolve each money proposal's action (the program names account, payee, amount, invoice) and
 *    dry-run the gate on it: the active policy's decision, stored nowhere (the section 6 gate proper needs
 *    a stored intent and runs at execute);
 * 5. propose through the gated path as the agent itself (a service principal whose credential is the
 *    agent key, so the payments module records the catalog agent as proposer and gate check 1.5 pins its
 *    behaviour hash): each money proposal is a PaymentIntent (payments' propose); when the policy approved
 *    it outright and the agent is not promoted, the gate runs at once and ends it shadow_completed
 *    (governing rule 7); a payment that waits for a person ends shadow_completed when executed after
 *    approval. Findings (reminders, matches, flags, forecasts) are recorded as the run's proposals;
 * 6. persist the run, its routing decision and its proposals in one transaction, audited
 *    agent.routed and agent.run.completed, with an agent.action.proposed event per proposal.
 * With an Idempotency-Key the whole pipeline runs once per key and body (reserved key, commands.runReserved).
 */
import { digestOf } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { requirePrincipal, withoutIdempotencyKey, type CommandContext, auditedBy } from '../../kernel/context.ts'
import { calendarDateOfInstant } from '../../kernel/dates.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { Principal, Scope } from '../../kernel/principal.ts'
import type { CommandRunner, PendingEvent } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { agentsRunQueue, type AgentsRunJob } from './agents.jobs.ts'
import type { ProposalRow, RoutingDecisionRow, RunRow, RunsStore } from './agents.runs.store.ts'
import { catalog, catalogDefinitions } from './domain/catalog.ts'
import type { AgentProposal, LedgerSnapshot } from './domain/programs/program.ts'
import { route, type RoutingDecision, type RoutingInput } from './domain/routing.ts'
import type { AgentPaymentProposal, AgentsLedger, AgentsPayments, AgentsPromotions, PolicyDryRun } from './ports.ts'

export interface RunRequest {
  readonly event?: string | undefined
  readonly intent?: string | undefined
  readonly context?: Readonly<Record<string, unknown>> | undefined
}

export interface RouteOutcome extends Omit<RoutingDecision, 'rule' | 'candidates'> {
  readonly routing_decision_id: string
}

export interface RunProposalSummary {
  readonly id: string
  readonly proposal_type: string
  readonly action_type: string
  readonly key: string
  readonly status: string
  readonly payment_intent_id: string | null
  readonly policy_decision_id: string | null
  readonly confidence: number
  readonly evidence_score: number
  readonly narrative: string
}

export interface RunOutcome {
  readonly status: RunRow['status']
  readonly routing_decision_id: string
  readonly run_id: string
  readonly selected_agent_id: string | null
  readonly action: string | null
  readonly shadow_mode: boolean
  readonly proposed: { id: string; status: string; policy_decision_id: string | null } | null
  readonly proposals: RunProposalSummary[]
  readonly duplicates: string[]
  readonly reason: string
}

/** Proposals of the same agent with the same key within this window are one proposal made twice. */
export const duplicateWindowHours = 24
/**
 * Statuses after which the same finding or payment may be proposed again. A payment that ended
 * shadow_completed was proposed: proposing it again on every run would only repeat it.
 */
const closedStatuses = new Set(['rejected', 'cancelled', 'failed', 'refused'])

/** Scopes the agent's own principal carries: it proposes and runs the gate, nothing else. */
const agentScopes: readonly Scope[] = ['execution:read', 'payment_intent:propose', 'payment_intent:execute']

export function routingInputOf(request: RunRequest): RoutingInput {
  const hasEvent = request.event !== undefined
  const hasIntent = request.intent !== undefined
  if (hasEvent === hasIntent) {
    throw new AppError('validation_failed', 'Give exactly one of event (a domain-event name) and intent (free text).', { issues: [{ path: '/event', message: 'exactly one of event and intent' }] })
  }
  return hasEvent ? { kind: 'event', event: request.event! } : { kind: 'intent', intent: request.intent! }
}

function asOfOf(request: RunRequest, now: Date): string {
  const asOf = request.context?.['as_of']
  return typeof asOf === 'string' ? asOf : calendarDateOfInstant(now)
}

/**
 * Whether a principal is the one a first-party run proposes as (agentPrincipal): the run records its own
 * agent proposal for the intent, so the payments listener (actions.service.ts recordIntentProposal) skips it.
 */
export function isRunPrincipal(principal: Principal): boolean {
  return principal.type === 'service' && principal.id === `agent:${principal.credentialId}` && catalog.some((entry) => entry.agent_key === principal.credentialId)
}

/** The principal a first-party agent proposes as: a service principal whose credential is its catalog key. */
export function agentPrincipal(caller: Principal, agentKey: string): Principal {
  return { id: `agent:${agentKey}`, type: 'service', tenantId: caller.tenantId, scopes: agentScopes, credentialId: agentKey, rateLimit: caller.rateLimit }
}

function ledgerReadOf(snapshot: LedgerSnapshot) {
  return {
    today: snapshot.today,
    accounts: snapshot.accounts.length,
    balances: snapshot.balances.length,
    transactions: snapshot.transactions.length,
    counterparties: snapshot.counterparties.length,
    invoices: snapshot.invoices.length,
    obligations: snapshot.obligations.length,
    snapshot_digest: digestOf(snapshot),
  }
}

/** A money proposal in the payments module's explicit form, from what the program named. */
function paymentOf(proposal: AgentProposal): AgentPaymentProposal {
  const details = proposal.details
  const text = (key: string) => (typeof details[key] === 'string' ? (details[key] as string) : undefined)
  return {
    action_type: 'ach_outbound',
    source_account_id: text('source_account_id') ?? '',
    destination_counterparty_id: text('destination_counterparty_id') ?? '',
    amount: text('amount') ?? '',
    currency: text('currency') ?? '',
    invoice_id: text('invoice_id'),
    obligation_id: text('obligation_id'),
    evidence_ids: proposal.evidence.filter((ref) => ref.kind === 'parsed_row').map((ref) => ref.ref),
    confidence: proposal.confidence,
  }
}

export function createRunService(deps: {
  db: Database
  commands: CommandRunner
  store: RunsStore
  ids: IdSource
  clock: Clock
  ledger: AgentsLedger
  payments: AgentsPayments
  promotions: AgentsPromotions
  /** The agent's state in the tenant (halt, governance); undefined when never set (a first-party agent is then active). */
  agentState: (tenantId: string, agentId: string) => Promise<string | undefined>
}) {
  const { db, commands, store, ids, clock, ledger, payments, promotions, agentState } = deps

  function decisionRow(id: string, tenantId: string, request: RunRequest, input: RoutingInput, decision: RoutingDecision, runId: string | null, requestedBy: string, at: Date): RoutingDecisionRow {
    return {
      id,
      tenantId,
      inputKind: input.kind,
      inputText: input.kind === 'event' ? input.event : input.intent,
      context: request.context ?? {},
      selectedAgentId: decision.selected_agent_id,
      fallbackAgentIds: decision.fallback_agent_ids,
      confidence: decision.confidence,
      evidenceScore: decision.evidence_score,
      policyStatus: decision.policy_status,
      executionMode: decision.execution_mode,
      reason: decision.reason,
      rule: decision.rule,
      candidates: decision.candidates,
      runId,
      requestedBy,
      createdAt: at,
    }
  }

  const routedAudit = (context: CommandContext, id: string, input: RoutingInput, decision: RoutingDecision, runId: string | null) =>
    auditedBy(context, {
      layer: 'agent',
      action: 'agent.routed',
      entity: { type: 'routing_decision', id },
      // Free text is not kept in the audit log, only its digest.
      inputs: { kind: input.kind, event: input.kind === 'event' ? input.event : null, intent_digest: input.kind === 'intent' ? digestOf(input.intent) : null, run_id: runId },
      outputs: { selected_agent_id: decision.selected_agent_id, fallback_agent_ids: decision.fallback_agent_ids, policy_status: decision.policy_status, execution_mode: decision.execution_mode, rule: decision.rule, confidence: decision.confidence },
    })

  async function pipeline(context: CommandContext, request: RunRequest, trigger: 'api' | 'event', jobId: string | null): Promise<RunOutcome> {
    const principal = requirePrincipal(context)
    const tenantId = principal.tenantId
    const input = routingInputOf(request)
    const now = clock.now()
    const asOf = asOfOf(request, now)
    const decision = route(input, catalog, principal.scopes)
    const decisionId = ids.newId('routingDecision')
    const runId = ids.newId('agentRun')
    const definition = catalogDefinitions.find((candidate) => candidate.program.agentKey === decision.selected_agent_id)
    const entry = catalog.find((candidate) => candidate.agent_key === decision.selected_agent_id)
    // A halted (quarantined) or revoked agent does not run until it is restored.
    const state = entry === undefined ? undefined : await agentState(tenantId, entry.agent_key)
    if (entry !== undefined && state !== undefined && state !== 'active') {
      throw new AppError('agent_inactive', `${entry.agent_key} is ${state}: restore it to run it.`, { agent_id: entry.agent_key, state })
    }
    const shadow = entry === undefined ? true : !(await promotions.isPromoted(tenantId, entry.agent_key))

    let ledgerRead: Record<string, unknown> = {}
    let made: AgentProposal[] = []
    if (decision.policy_status === 'routed' && definition !== undefined) {
      const snapshot = await ledger.snapshot(tenantId, asOf)
      ledgerRead = ledgerReadOf(snapshot)
      made = definition.program.run(snapshot, definition.program.defaultConfig)
    }

    // Step 3: what the agent already proposed within the window, and is still open.
    const agentId = entry?.agent_key ?? ''
    const recent = await store.recentProposals(db.orm, tenantId, agentId, made.map((proposal) => proposal.key), new Date(now.getTime() - duplicateWindowHours * 3_600_000))
    // A money proposal's status is its PaymentIntent's now (a person may have rejected it since).
    const current = await Promise.all(recent.map(async (row) => (row.paymentIntentId === null ? row : { ...row, status: (await payments.statusOf(tenantId, row.paymentIntentId)) ?? row.status })))
    const earlier = current.filter((row) => !closedStatuses.has(row.status))
    const earlierKeys = new Set(earlier.map((row) => row.proposalKey))
    const fresh = made.filter((proposal) => !earlierKeys.has(proposal.key))
    if (made.length > 0 && fresh.length === 0) {
      throw new AppError('agent_proposal_duplicate', `${agentId} already proposed all of this within ${duplicateWindowHours} hours.`, {
        run_id: earlier[0]!.runId,
        proposal_ids: [...new Set(earlier.map((row) => row.id))],
      })
    }
    const duplicates = made.filter((proposal) => earlierKeys.has(proposal.key)).map((proposal) => proposal.key)

    // Steps 4 and 5: dry-run the gate on each money proposal, then propose it as the agent.
    const agentContext: CommandContext = { requestId: context.requestId, principal: entry === undefined ? principal : agentPrincipal(principal, entry.agent_key) }
    const dryRuns: Record<string, PolicyDryRun> = {}
    const rows: ProposalRow[] = []
    for (const proposal of fresh) {
      const row: ProposalRow = {
        id: ids.newId('agentProposal'),
        tenantId,
        runId,
        agentId,
        proposalType: proposal.proposal_type,
        actionType: proposal.action_type,
        proposalKey: proposal.key,
        status: 'proposed',
        confidence: proposal.confidence,
        evidenceScore: proposal.evidence_score,
        narrative: proposal.narrative,
        evidence: proposal.evidence,
        details: proposal.details,
        paymentIntentId: null,
        policyDecisionId: null,
        createdAt: now,
      }
      if (proposal.proposal_type === 'payment' && entry !== undefined) {
        const payment = paymentOf(proposal)
        dryRuns[proposal.key] = await payments.dryRun(tenantId, { agentId, agentRole: entry.role, behaviorHash: entry.behavior_hash, proposal: payment, evidenceScore: proposal.evidence_score, at: now })
        try {
          const proposed = await payments.propose(withoutIdempotencyKey(agentContext), payment)
          let status = proposed.status
          if (status === 'approved' && shadow) status = (await payments.execute(withoutIdempotencyKey(agentContext), proposed.id)).status
          Object.assign(row, { status, paymentIntentId: proposed.id, policyDecisionId: proposed.policy_decision_id })
        } catch (error) {
          if (!(error instanceof AppError)) throw error
          if (error.code === 'agent_proposal_duplicate') {
            duplicates.push(proposal.key)
            continue
          }
          // The payments module refused it (the invoice was paid meanwhile, the payee is gone): recorded, not proposed.
          Object.assign(row, { status: 'refused', details: { ...proposal.details, refused: { code: error.code, message: error.message } } })
        }
      }
      rows.push(row)
    }
    if (made.length > 0 && rows.length === 0) {
      throw new AppError('agent_proposal_duplicate', `${agentId} already proposed all of this within ${duplicateWindowHours} hours.`, { run_id: earlier[0]?.runId ?? null, proposal_keys: duplicates })
    }

    // Step 6: the run, its routing decision and its proposals, in one transaction.
    const primary = rows.find((row) => row.paymentIntentId !== null) ?? rows[0]
    const status: RunRow['status'] =
      decision.policy_status === 'no_match' ? 'no_match' : decision.policy_status === 'unscoped' ? 'unscoped' : rows.length > 0 ? 'proposal_created' : 'no_proposal'
    const reason =
      status === 'proposal_created'
        ? `${decision.reason} ${agentId} proposed ${rows.length} action${rows.length === 1 ? '' : 's'} on the Ledger as of ${asOf}${duplicates.length > 0 ? ` (${duplicates.length} already proposed)` : ''}${shadow ? ', in shadow mode' : ''}.`
        : status === 'no_proposal'
          ? `${decision.reason} ${agentId} found nothing to propose on the Ledger as of ${asOf}.`
          : decision.reason
    const run: RunRow = {
      id: runId,
      tenantId,
      routingDecisionId: decisionId,
      agentId: entry?.agent_key ?? null,
      category: entry?.category ?? null,
      agentVersion: entry?.version ?? null,
      behaviorHash: entry?.behavior_hash ?? null,
      status,
      action: primary?.actionType ?? null,
      shadowMode: shadow,
      asOf,
      reason,
      trigger,
      jobId,
      ledgerRead,
      gateDryRun: dryRuns,
      duplicateKeys: duplicates,
      requestedBy: principal.id,
      createdAt: now,
    }
    const events: PendingEvent[] = rows.map((row) => ({
      type: 'agent.action.proposed',
      auditIndex: 1,
      payload: { proposal_id: row.id, run_id: runId, agent_id: agentId, proposal_type: row.proposalType, action_type: row.actionType, status: row.status, payment_intent_id: row.paymentIntentId },
    }))
    await commands.run(withoutIdempotencyKey(context), { name: 'agent.run.record', tenantId, input: { run_id: runId } }, async (tx) => {
      await store.insertRoutingDecision(tx, decisionRow(decisionId, tenantId, request, input, decision, runId, principal.id, now))
      await store.insertRun(tx, run)
      await store.insertProposals(tx, rows)
      return {
        outcome: undefined,
        audit: [
          routedAudit(context, decisionId, input, decision, runId),
          auditedBy(context, {
            layer: 'agent',
            action: 'agent.run.completed',
            entity: { type: 'agent_run', id: runId },
            inputs: { routing_decision_id: decisionId, agent_id: run.agentId, behavior_hash: run.behaviorHash, as_of: asOf, trigger, job_id: jobId, ledger_snapshot_digest: (ledgerRead['snapshot_digest'] as string | undefined) ?? null },
            outputs: { status, shadow_mode: shadow, proposal_ids: rows.map((row) => row.id), payment_intent_ids: rows.flatMap((row) => (row.paymentIntentId === null ? [] : [row.paymentIntentId])), duplicate_keys: duplicates },
          }),
        ],
        events,
      }
    })
    return {
      status,
      routing_decision_id: decisionId,
      run_id: runId,
      selected_agent_id: decision.selected_agent_id,
      action: run.action,
      shadow_mode: shadow,
      proposed: primary === undefined ? null : { id: primary.paymentIntentId ?? primary.id, status: primary.status, policy_decision_id: primary.policyDecisionId },
      proposals: rows.map((row) => ({
        id: row.id,
        proposal_type: row.proposalType,
        action_type: row.actionType,
        key: row.proposalKey,
        status: row.status,
        payment_intent_id: row.paymentIntentId,
        policy_decision_id: row.policyDecisionId,
        confidence: row.confidence,
        evidence_score: row.evidenceScore,
        narrative: row.narrative,
      })),
      duplicates,
      reason,
    }
  }

  return {
    /** POST /v1/agents/route: the decision, recorded and audited (agent.routed). Takes an Idempotency-Key. */
    async route(context: CommandContext, request: RunRequest) {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      const input = routingInputOf(request)
      return commands.run(context, { name: 'agent.route', tenantId, input: request }, async (tx) => {
        const decision = route(input, catalog, principal.scopes)
        const id = ids.newId('routingDecision')
        await store.insertRoutingDecision(tx, decisionRow(id, tenantId, request, input, decision, null, principal.id, clock.now()))
        const { rule: _rule, candidates: _candidates, ...shown } = decision
        const outcome: RouteOutcome = { routing_decision_id: id, ...shown }
        return { outcome, audit: [routedAudit(context, id, input, decision, null)] }
      })
    },

    /** POST /v1/agents/run: the pipeline above, once per Idempotency-Key and body. */
    async run(context: CommandContext, request: RunRequest) {
      const principal = requirePrincipal(context)
      routingInputOf(request)
      return commands.runReserved(context, { name: 'agent.run', tenantId: principal.tenantId, input: request }, () => pipeline(context, request, 'api', null))
    },

    /** POST /v1/agents/events: the same request as a queued job (agents-run), audited agent.event.queued. */
    async queue(context: CommandContext, request: RunRequest) {
      const principal = requirePrincipal(context)
      routingInputOf(request)
      return commands.run(context, { name: 'agent.events', tenantId: principal.tenantId, input: request }, async () => {
        const jobId = ids.newUuid()
        const payload: AgentsRunJob = {
          tenant_id: principal.tenantId,
          request_id: context.requestId,
          request: { ...(request.event === undefined ? {} : { event: request.event }), ...(request.intent === undefined ? {} : { intent: request.intent }), context: request.context ?? {} },
          principal: { id: principal.id, type: principal.type, scopes: [...principal.scopes], credential_id: principal.credentialId, ...(principal.role === undefined ? {} : { role: principal.role }) },
        }
        return {
          outcome: { job_id: jobId, status: 'queued' as const },
          audit: [
            auditedBy(context, {
              layer: 'agent',
              action: 'agent.event.queued',
              entity: { type: 'agent_job', id: jobId },
              inputs: { event: request.event ?? null, intent_digest: request.intent === undefined ? null : digestOf(request.intent) },
              outputs: { job_id: jobId, queue: agentsRunQueue.name },
            }),
          ],
          jobs: [{ queue: agentsRunQueue, payload, options: { id: jobId } }],
        }
      })
    },

    /** The agents-run job: the pipeline as the caller who queued it. A run that would only repeat proposals ends quietly. */
    async runJob(job: { id: string; data: AgentsRunJob }) {
      const { principal: caller } = job.data
      const principal: Principal = {
        id: caller.id,
        type: caller.type as Principal['type'],
        tenantId: job.data.tenant_id,
        scopes: caller.scopes as Scope[],
        credentialId: caller.credential_id,
        ...(caller.role === undefined ? {} : { role: caller.role as NonNullable<Principal['role']> }),
        rateLimit: { perMinute: 0, burst: 0 },
      }
      try {
        await pipeline({ requestId: job.data.request_id, principal }, job.data.request, 'event', job.id)
      } catch (error) {
        if (error instanceof AppError && (error.code === 'agent_proposal_duplicate' || error.code === 'validation_failed' || error.code === 'agent_inactive')) return
        throw error
      }
    },
  }
}

export type RunService = ReturnType<typeof createRunService>
