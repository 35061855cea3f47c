/**
 * Reading PaymentIntents: one intent (with its decision and the decisions people recorded), the list with
 * filters and cursors, and the replay investigation. Reads only; another tenant's intent is
 * payment_intent_not_found, exactly as a missing one.
 */
import type { CursorCodec } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import { canonicalJson } from '../../kernel/hashing.ts'
import type { Database } from '../../platform/db/database.ts'
import type { PaymentActionType, PaymentIntentStatus } from './domain/intents.ts'
import type { PaymentIntentRow, PaymentsStore } from './payments.store.ts'
import type { PaymentExecution, PaymentsAgents, PaymentsEvidence, PaymentsExecution } from './ports.ts'
import { evidenceOf, type EvidenceEntry } from './domain/evidence.ts'
import type { GateCheckResult } from './domain/gate.ts'
import { loadIntentView, type PaymentIntentView } from './payments.views.ts'

/** List page sizes (rows): as the Ledger's transaction listings. */
export const intentPageRows = { defaultRows: 50, maxRows: 500 } as const

export interface IntentListQuery {
  readonly status?: PaymentIntentStatus | undefined
  readonly action_type?: PaymentActionType | undefined
  readonly agent_id?: string | undefined
  readonly created_from?: string | undefined
  readonly created_to?: string | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

export interface ReplayInvestigation {
  payment_intent: PaymentIntentView
  executions: PaymentExecution[]
  policy_decision_id: string
  evidence_ids: string[]
}


/** What a proof of an intent needs from this module (modules/proofs): its gate runs' checks and the evidence it cites. */
export interface IntentProofFacts {
  readonly paymentIntentId: string
  /** Every gate run, oldest first, with the audit event that recorded it. */
  readonly gateRuns: ReadonlyArray<{ readonly id: string; readonly mode: 'execute' | 'resume'; readonly auditEventId: string | null; readonly checks: readonly GateCheckResult[] }>
  /** As the proposal's audit event digested it (domain/evidence.ts). */
  readonly evidence: readonly EvidenceEntry[]
}

export function createReadService(deps: { db: Database; store: PaymentsStore; cursors: CursorCodec; execution: PaymentsExecution; evidence: PaymentsEvidence; agents: Pick<PaymentsAgents, 'identityOf'> }) {
  const { db, store, cursors, execution, evidence, agents } = deps

  /**
   * What `expand=agent` shows of the proposing agent: a first-party agent or a service token (standing for
   * Steward's internal agents, propose.service.ts proposingAgentOf) is internal, a registered agent external,
   * as the agents module names them; null for a person's proposal.
   */
  async function agentOf(row: PaymentIntentRow): Promise<PaymentIntentView['agent']> {
    if (row.createdByAgentId === null) return null
    const identity = await agents.identityOf(db.orm, row.tenantId, row.createdByAgentId)
    return { id: row.createdByAgentId, kind: identity.kind, display_name: identity.display_name }
  }

  async function found(tenantId: string, id: string): Promise<PaymentIntentRow> {
    const row = await store.findIntent(db.orm, tenantId, id)
    if (row === undefined) throw new AppError('payment_intent_not_found', 'No such payment intent.', { payment_intent_id: id })
    return row
  }

  return {
    /** The outcome of each of the tenant's policy decisions among `ids` (the governance report's join). */
    async decisionOutcomes(tenantId: string, ids: readonly string[]): Promise<Map<string, string>> {
      const found = new Map<string, string>()
      for (let offset = 0; offset < ids.length; offset += 1000) {
        for (const row of await store.decisionOutcomes(db.orm, tenantId, ids.slice(offset, offset + 1000))) found.set(row.id, row.outcome)
      }
      return found
    },

    /** One intent; `expand=agent` adds the proposing agent. */
    async get(tenantId: string, id: string, options: { expandAgent: boolean }): Promise<PaymentIntentView> {
      const row = await found(tenantId, id)
      const [shown, agent] = await Promise.all([loadIntentView(db.orm, store, row), options.expandAgent ? agentOf(row) : undefined])
      return agent === undefined ? shown : { ...shown, agent }
    },

    /** Newest first, filtered by status, action type, agent and creation time, paged by a signed cursor bound to the filters. */
    async list(tenantId: string, query: IntentListQuery): Promise<{ payment_intents: PaymentIntentView[]; next_cursor: string | null }> {
      const limit = query.limit ?? intentPageRows.defaultRows
      const { limit: _limit, cursor, ...filters } = query
      const listing = `payment_intents:${tenantId}:${canonicalJson(filters)}`
      const position = cursor === undefined ? undefined : cursors.decode(listing, cursor)
      const before = position === undefined ? undefined : { createdAt: new Date(String(position.created_at)), id: String(position.id) }
      if (before !== undefined && Number.isNaN(before.createdAt.getTime())) throw new AppError('invalid_cursor')
      const rows = await store.listIntents(db.orm, tenantId, {
        status: query.status,
        actionType: query.action_type,
        agentId: query.agent_id,
        createdFrom: query.created_from === undefined ? undefined : new Date(query.created_from),
        createdTo: query.created_to === undefined ? undefined : new Date(query.created_to),
        before,
        limit: limit + 1,
      })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        payment_intents: await Promise.all(page.map((row) => loadIntentView(db.orm, store, row))),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { created_at: last.createdAt.toISOString(), id: last.id }) : null,
      }
    },

    /** What the intent's proof shows from this module; payment_intent_not_found as `get`. */
    async proofFacts(tenantId: string, id: string): Promise<IntentProofFacts> {
      const row = await found(tenantId, id)
      const [runs, cited] = await Promise.all([store.gateRunsOf(db.orm, tenantId, row.id), evidence.parsedRowEvidence(db.orm, tenantId, row.evidenceIds)])
      return {
        paymentIntentId: row.id,
        gateRuns: runs.map((run) => ({ id: run.id, mode: run.mode, auditEventId: run.auditEventId, checks: run.checks as GateCheckResult[] })),
        evidence: evidenceOf(row.evidenceIds, cited),
      }
    },

    /** The intent, its executions (with the rail's receipt once settled), its decision and its evidence. */
    async replayInvestigation(tenantId: string, id: string): Promise<ReplayInvestigation> {
      const row = await found(tenantId, id)
      return { payment_intent: await loadIntentView(db.orm, store, row), executions: await execution.executionsOf(db.orm, tenantId, row.id), policy_decision_id: row.policyDecisionId, evidence_ids: [...row.evidenceIds] }
    },
  }
}

export type ReadService = ReturnType<typeof createReadService>
