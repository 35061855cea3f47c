/**
 * Actions an agent proposes itself (POST /v1/agents/actions and the agent protocol's agent_action.propose
 * tool; issue 20), and the query port over every agent proposal (the first-party runs' and these) that
 * the proposals module's read model reads (GET /v1/proposals).
 *
 * An agent records a non-money finding — a flag, a reminder, a match, … — with its narrative, confidence,
 * evidence refs and details. It is stored in agent_proposals beside the runs' findings (no run: run_id
 * null), with status `proposed`, audited `agent.action.proposed` and emitted as the event of that name in
 * the same transaction. Money moves are PaymentIntents (POST /v1/payment-intents), never actions: a
 * payment action type is 400. The action type must resolve to a public proposal type (the proposals
 * module's resolution, plugged in by composition), else 400. A halted (quarantined), pending or revoked
 * agent cannot propose (409 agent_inactive).
 */
import type { Clock } from '../../kernel/clock.ts'
import { auditedBy, requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import { hasIdPrefix, type IdSource } from '../../kernel/ids.ts'
import type { Principal } from '../../kernel/principal.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Executor, Tx } from '../../platform/db/database.ts'
import type { ProposalRow, RunsStore } from './agents.runs.store.ts'
import { catalog } from './domain/catalog.ts'
import type { RegistryStore } from './registry.store.pg.ts'
import { isRunPrincipal } from './run.service.ts'

/** Evidence refs one action may cite, at most (as evidence resolve takes per call). */
export const actionEvidenceRefsMax = 50

/** Action types that move money: they are PaymentIntents, proposed through POST /v1/payment-intents. */
export const moneyActionTypes: readonly string[] = ['ach_outbound', 'ach_inbound', 'wire', 'onchain_transfer', 'erp_writeback', 'card_payment', 'x402_settle', 'escrow_release', 'pay_invoice']

/** Evidence kinds that can back a finding: a Ledger record or a Raw parsed row. */
const backingKinds = new Set(['account', 'balance', 'transaction', 'counterparty', 'invoice', 'obligation', 'parsed_row', 'wiki_entity'])

export interface ActionProposalInput {
  readonly action_type: string
  readonly narrative: string
  readonly confidence: number
  readonly evidence?: ReadonlyArray<{ readonly kind: string; readonly ref: string }> | undefined
  readonly details?: Readonly<Record<string, unknown>> | undefined
}

export interface ActionProposalOutcome {
  readonly id: string
  readonly agent_id: string
  readonly proposal_type: string
  readonly action_type: string
  readonly status: 'proposed'
  readonly confidence: number
  readonly evidence_score: number
  readonly created_at: string
}

/** Who proposed: the agent's identity as the proposals read model shows it. */
export interface ProposingAgent {
  readonly id: string
  readonly kind: 'internal' | 'external'
  readonly display_name: string
  /** The catalog role (a public proposal type) or the registered role; null for a service token. */
  readonly role: string | null
}

/** One agent proposal as the proposals module reads it (agent_proposals, through this port). */
export interface AgentProposalRecord {
  readonly id: string
  readonly runId: string | null
  readonly agent: ProposingAgent
  /** The type the program or the proposing agent gave it (the agents module's proposal_type). */
  readonly proposalType: string
  readonly actionType: string
  readonly proposalKey: string
  /** `proposed` for findings; a money proposal's PaymentIntent status when it was made, or `refused`. */
  readonly status: string
  /** Null for a PaymentIntent its agent proposed without stating one (stored 0, `details.confidence_stated` false). */
  readonly confidence: number | null
  readonly evidenceScore: number
  readonly narrative: string
  readonly evidence: ReadonlyArray<{ kind: string; ref: string }>
  readonly details: Readonly<Record<string, unknown>>
  readonly paymentIntentId: string | null
  readonly policyDecisionId: string | null
  readonly createdAt: Date
}

/** The query port over agent proposals (newest first, by created_at then id). */
export interface AgentProposalsQuery {
  /** Proposals older than `before` (or the newest), with confidence ≥ `minConfidence`, at most `limit`. */
  page(tenantId: string, query: { before?: { createdAt: Date; id: string } | undefined; minConfidence?: number | undefined; limit: number }): Promise<AgentProposalRecord[]>
  /** One proposal of the tenant; undefined when it has none of that id. */
  find(tenantId: string, id: string): Promise<AgentProposalRecord | undefined>
}

/** What the proposals module says of an action type: the public type it resolves to, if any. */
export interface AgentActionTypes {
  publicTypeOf(actionType: string, agentRole: string | null, agentKind: 'internal' | 'external'): string | undefined
}

/** A PaymentIntent an agent proposed directly, as the payments module tells of it (its IntentProposedNotice). */
export interface ProposedIntent {
  readonly tenantId: string
  readonly principal: Principal
  readonly agentId: string
  readonly paymentIntentId: string
  readonly policyDecisionId: string
  readonly actionType: string
  readonly status: string
  readonly amount: string
  readonly currency: string
  readonly sourceAccountId: string
  readonly destinationCounterpartyId: string
  readonly invoiceId: string | null
  readonly obligationId: string | null
  readonly evidenceIds: readonly string[]
  readonly confidence: number | null
  readonly evidenceScore: number | null
  readonly createdAt: Date
}

/** The narrative of a payment an agent proposed directly: a PaymentIntent carries no memo, so it says what it pays. */
export function intentNarrativeOf(intent: Pick<ProposedIntent, 'amount' | 'currency' | 'destinationCounterpartyId' | 'invoiceId' | 'obligationId' | 'actionType'>): string {
  const settles = intent.invoiceId !== null ? ` for invoice ${intent.invoiceId}` : intent.obligationId !== null ? ` for obligation ${intent.obligationId}` : ''
  return `Pay ${intent.amount} ${intent.currency} to counterparty ${intent.destinationCounterpartyId}${settles} (${intent.actionType}).`
}

/** The agent a principal proposes as: an agent token's agent, or a service token (Steward's internal agents). */
function proposingAgentIdOf(principal: Principal): string {
  if (principal.type === 'agent') return principal.id
  if (principal.type === 'service') return principal.credentialId
  throw new AppError('auth_scope_insufficient', 'Only an agent (or a service token standing for one) proposes actions.', { principal_type: principal.type })
}

export function createActionsService(deps: { db: Database; commands: CommandRunner; runs: RunsStore; registry: RegistryStore; ids: IdSource; clock: Clock; actionTypes: AgentActionTypes }) {
  const { db, commands, runs, registry, ids, clock, actionTypes } = deps

  async function agentOf(executor: Executor, tenantId: string, agentId: string): Promise<ProposingAgent> {
    const entry = catalog.find((candidate) => candidate.agent_key === agentId)
    if (entry !== undefined) return { id: agentId, kind: 'internal', display_name: entry.display_name, role: entry.role }
    // A service token's id is never an agent's registration (registration refuses the prefix): nothing to read.
    const serviceToken = hasIdPrefix(agentId, 'serviceToken')
    const registered = serviceToken ? undefined : await registry.findRegistered(executor, tenantId, agentId)
    if (registered !== undefined) return { id: agentId, kind: 'external', display_name: registered.registration.displayName, role: registered.registration.role }
    return { id: agentId, kind: 'internal', display_name: serviceToken ? 'Steward internal agent (service token)' : agentId, role: null }
  }

  async function recordsOf(executor: Executor, tenantId: string, rows: readonly ProposalRow[]): Promise<AgentProposalRecord[]> {
    const agents = new Map<string, ProposingAgent>()
    for (const agentId of new Set(rows.map((row) => row.agentId))) agents.set(agentId, await agentOf(executor, tenantId, agentId))
    return rows.map((row) => ({
      id: row.id,
      runId: row.runId,
      agent: agents.get(row.agentId)!,
      proposalType: row.proposalType,
      actionType: row.actionType,
      proposalKey: row.proposalKey,
      status: row.status,
      // A directly proposed payment that stated no confidence has none: stored 0 (the column needs a number), read as null.
      confidence: (row.details as Record<string, unknown>)['confidence_stated'] === false ? null : row.confidence,
      evidenceScore: row.evidenceScore,
      narrative: row.narrative,
      evidence: row.evidence as Array<{ kind: string; ref: string }>,
      details: row.details as Record<string, unknown>,
      paymentIntentId: row.paymentIntentId,
      policyDecisionId: row.policyDecisionId,
      createdAt: row.createdAt,
    }))
  }

  const query: AgentProposalsQuery = {
    async page(tenantId, page) {
      return recordsOf(db.orm, tenantId, await runs.proposalPage(db.orm, tenantId, page))
    },
    async find(tenantId, id) {
      const row = await runs.proposal(db.orm, tenantId, id)
      return row === undefined ? undefined : (await recordsOf(db.orm, tenantId, [row]))[0]
    },
  }

  return {
    query,

    /** Who an agent id names (the catalog, a registration, or a service token standing for Steward's internal agents); an unknown id as an internal agent named by its id. */
    identityOf: agentOf,

    /**
     * The payments module's IntentProposedListener (composition plugs it in): a PaymentIntent an agent
     * proposed directly (an agent token or a service token, by REST or the agent protocol) is recorded as
     * its agent proposal in the proposing transaction, so the proposals read model lists it. A first-party
     * run's intent is skipped (the run records its own proposal for it); only agent and service principals
     * are recorded. Audited by the intent's payment_intent.proposed; no event of its own
     * (payment_intent.created announces it).
     */
    async recordIntentProposal(tx: Tx, intent: ProposedIntent): Promise<void> {
      // Only agents and service tokens (Steward's internal agents) propose as agents; a first-party run records its own proposal.
      if (intent.principal.type !== 'agent' && intent.principal.type !== 'service') return
      if (isRunPrincipal(intent.principal)) return
      const agent = await agentOf(tx, intent.tenantId, intent.agentId)
      const id = ids.newId('agentProposal')
      const evidence = [
        ...(intent.invoiceId === null ? [] : [{ kind: 'invoice', ref: intent.invoiceId }]),
        ...(intent.obligationId === null ? [] : [{ kind: 'obligation', ref: intent.obligationId }]),
        ...intent.evidenceIds.map((ref) => ({ kind: 'parsed_row', ref })),
      ]
      const row: ProposalRow = {
        id,
        tenantId: intent.tenantId,
        runId: null,
        agentId: intent.agentId,
        proposalType: actionTypes.publicTypeOf(intent.actionType, agent.role, agent.kind) ?? 'payment',
        actionType: intent.actionType,
        proposalKey: `payment_intent:${intent.paymentIntentId}`,
        status: intent.status,
        confidence: intent.confidence ?? 0,
        evidenceScore: intent.evidenceScore ?? 0,
        narrative: intentNarrativeOf(intent),
        evidence,
        details: {
          amount: intent.amount,
          currency: intent.currency,
          source_account_id: intent.sourceAccountId,
          destination_counterparty_id: intent.destinationCounterpartyId,
          invoice_id: intent.invoiceId,
          obligation_id: intent.obligationId,
          confidence_stated: intent.confidence !== null,
        },
        paymentIntentId: intent.paymentIntentId,
        policyDecisionId: intent.policyDecisionId,
        createdAt: intent.createdAt,
      }
      await runs.insertProposals(tx, [row])
    },

    /**
     * Records a non-money finding the calling agent proposes. Locks nothing (the agent's state is read in
     * the transaction); audits agent.action.proposed and emits the event of that name. Takes an
     * Idempotency-Key. 400 validation_failed for a money action type or one that resolves to no public
     * proposal type; 409 agent_inactive when the agent is not active in the tenant.
     */
    async propose(context: CommandContext, input: ActionProposalInput): Promise<CommandResult<ActionProposalOutcome>> {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      const agentId = proposingAgentIdOf(principal)
      if (moneyActionTypes.includes(input.action_type)) {
        throw new AppError('validation_failed', 'A money movement is a PaymentIntent: propose it with POST /v1/payment-intents (payment_intent.propose).', {
          issues: [{ path: '/action_type', message: 'is a payment action type' }],
        })
      }
      return commands.run(context, { name: 'agent.action.propose', tenantId, input }, async (tx) => {
        const state = await registry.findState(tx, tenantId, agentId)
        if (state !== undefined && state.state !== 'active') throw new AppError('agent_inactive', `${agentId} is ${state.state}: it cannot propose.`, { agent_id: agentId, state: state.state })
        const agent = await agentOf(tx, tenantId, agentId)
        const proposalType = actionTypes.publicTypeOf(input.action_type, agent.role, agent.kind)
        if (proposalType === undefined) {
          throw new AppError('validation_failed', `The action type ${input.action_type} resolves to no public proposal type for this agent (docs/proposals.md, "Types").`, {
            issues: [{ path: '/action_type', message: 'resolves to no public proposal type' }],
          })
        }
        const evidence = (input.evidence ?? []).map((ref) => ({ kind: ref.kind, ref: ref.ref }))
        // The share of cited refs that a Ledger record or a parsed row backs (0 without evidence).
        const evidenceScore = evidence.length === 0 ? 0 : Math.round((evidence.filter((ref) => backingKinds.has(ref.kind)).length / evidence.length) * 100) / 100
        const id = ids.newId('agentProposal')
        const now = clock.now()
        const row: ProposalRow = {
          id,
          tenantId,
          runId: null,
          agentId,
          proposalType,
          actionType: input.action_type,
          proposalKey: `action:${id}`,
          status: 'proposed',
          confidence: input.confidence,
          evidenceScore,
          narrative: input.narrative,
          evidence,
          details: input.details ?? {},
          paymentIntentId: null,
          policyDecisionId: null,
          createdAt: now,
        }
        await runs.insertProposals(tx, [row])
        const outcome: ActionProposalOutcome = { id, agent_id: agentId, proposal_type: proposalType, action_type: input.action_type, status: 'proposed', confidence: input.confidence, evidence_score: evidenceScore, created_at: now.toISOString() }
        return {
          outcome,
          audit: [
            auditedBy(context, {
              layer: 'agent',
              action: 'agent.action.proposed',
              entity: { type: 'agent_proposal', id },
              inputs: { agent_id: agentId, action_type: input.action_type, evidence_refs: evidence.length, confidence: input.confidence },
              outputs: { proposal_id: id, proposal_type: proposalType, status: 'proposed' },
            }),
          ],
          events: [{ type: 'agent.action.proposed', payload: { proposal_id: id, run_id: null, agent_id: agentId, proposal_type: proposalType, action_type: input.action_type, status: 'proposed', payment_intent_id: null } }],
        }
      })
    },
  }
}

export type ActionsService = ReturnType<typeof createActionsService>
