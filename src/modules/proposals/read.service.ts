/**
 * The proposals read model (spec, "Proposal (read model over agent output)"): every agent proposal — the
 * first-party runs' findings and money proposals, and actions agents proposed themselves — read through
 * the agents module's query port, a money proposal's live status and policy decision from the payments
 * module, a finding's status from the decisions people recorded here and its policy decision from the
 * active policy (kind agent_action, evaluated at read time and stored nowhere). Reads only; another
 * tenant's proposal is execution_proposal_not_found, exactly as a missing one.
 */
import type { Static } from 'typebox'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import { canonicalJson } from '../../kernel/hashing.ts'
import type { Database } from '../../platform/db/database.ts'
import type { AgentProposalRecord } from '../agents/index.ts'
import { isResolvableKind } from './domain/evidence.ts'
import {
  availableDecisionsOf,
  isMoneyProposal,
  policyExplanationOf,
  presentationOf,
  riskBandOf,
  statusOf,
  typeOf,
  type IntentState,
  type PolicyView,
  type RecordedDecision,
  type StoredProposal,
} from './domain/read-model.ts'
import { isPublicProposalType, type ProposalStatus, type ProposalType, type RiskBand } from './domain/types.ts'
import type { ProposalDecisionRow } from './proposals.tables.ts'
import { proposalPageRows, type Proposal, type ProposalListQuery } from './proposals.schemas.ts'
import type { ProposalsStore } from './proposals.store.pg.ts'
import type { ProposalIntent, ProposalsAgents, ProposalsPayments, ProposalsPolicy } from './ports.ts'

export type ProposalView = Static<typeof Proposal>
export type ProposalQuery = Static<typeof ProposalListQuery>

/** Agent proposals read per batch while a filtered page fills. */
const scanBatchRows = 200
/**
 * Agent proposals one request reads at most while a filtered page fills (ten batches). Type, status and
 * risk band are derived, so no index answers them: a filter that matches nothing would otherwise read
 * every proposal the tenant has. Past it the page is answered as far as it filled, possibly empty, with a
 * cursor after the last proposal read: the next request goes on from there.
 */
export const scanRowsMax = 2_000

const noPolicy = { decision: null, policy_id: null, policy_version: null, matched_rule_id: null, required_approvers: [], trace: [] } satisfies Omit<PolicyView, 'explanation'>

export function notFound(id: string): AppError {
  return new AppError('execution_proposal_not_found', 'No such proposal.', { proposal_id: id })
}

export function storedOf(record: AgentProposalRecord): StoredProposal {
  return {
    id: record.id,
    runId: record.runId,
    agent: record.agent,
    proposalType: record.proposalType,
    actionType: record.actionType,
    status: record.status,
    confidence: record.confidence,
    evidenceScore: record.evidenceScore,
    narrative: record.narrative,
    evidence: record.evidence,
    details: record.details,
    paymentIntentId: record.paymentIntentId,
    createdAt: record.createdAt.toISOString(),
  }
}

export function recordedOf(rows: readonly ProposalDecisionRow[] | undefined): RecordedDecision[] {
  return (rows ?? []).map((row) => ({ id: row.id, decision: row.decision }))
}

export function createReadService(deps: {
  db: Database
  store: ProposalsStore
  cursors: CursorCodec
  agents: ProposalsAgents
  payments: ProposalsPayments
  policy: ProposalsPolicy
  /** Default scanRowsMax (tests set fewer). */
  scanRowsMax?: number
}) {
  const { db, store, cursors, agents, payments, policy } = deps
  const scanned = deps.scanRowsMax ?? scanRowsMax

  /** The read model of a batch of agent proposals: one read of intents, one of decisions, one policy evaluation. */
  async function viewsOf(tenantId: string, records: readonly AgentProposalRecord[]): Promise<ProposalView[]> {
    if (records.length === 0) return []
    const money = records.filter((record) => record.paymentIntentId !== null)
    // A refused payment is a money proposal without an intent: no finding's policy decision for it.
    const findings = records.filter((record) => !isMoneyProposal(record))
    const [intents, decisions, findingPolicies] = await Promise.all([
      payments.intents(tenantId, money.map((record) => record.paymentIntentId!)),
      store.decisionsOf(db.orm, tenantId, records.map((record) => record.id)),
      policy.evaluateFindings(
        tenantId,
        findings.map((record) => ({ agentId: record.agent.id, agentRole: record.agent.role, actionType: record.actionType, confidence: record.confidence, evidenceScore: record.evidenceScore })),
      ),
    ])
    const policyOfFinding = new Map(findings.map((record, index) => [record.id, findingPolicies[index]]))
    return records.map((record) => {
      const intent = record.paymentIntentId === null ? undefined : intents.get(record.paymentIntentId)
      const policyFacts = isMoneyProposal(record) ? (intent?.policy ?? noPolicy) : (policyOfFinding.get(record.id) ?? noPolicy)
      return viewOf(record, intent, recordedOf(decisions.get(record.id)), policyFacts)
    })
  }

  async function viewOfId(tenantId: string, id: string): Promise<ProposalView> {
    const record = await agents.find(tenantId, id)
    if (record === undefined) throw notFound(id)
    const [view] = await viewsOf(tenantId, [record])
    return view!
  }

  return {
    viewOf: viewOfId,

    /** One proposal; 404 execution_proposal_not_found for an id of no proposal of the tenant. */
    async get(tenantId: string, id: string): Promise<ProposalView> {
      return viewOfId(tenantId, id)
    },

    /**
     * Newest first (created_at, id), filtered by type, status, risk band and confidence, paged by a signed
     * cursor bound to the filters. Type, status and risk band are derived, so agent proposals are read in
     * batches and filtered here until the page (and one more, to know a next page exists) is full, or
     * scanRowsMax proposals have been read: then the page is what matched so far (possibly none) and its
     * cursor points after the last proposal read, so a page short of `limit` may still have a next one.
     */
    async list(tenantId: string, query: ProposalQuery): Promise<{ proposals: ProposalView[]; next_cursor: string | null }> {
      const limit = query.limit ?? proposalPageRows.defaultRows
      const { limit: _limit, cursor, ...filters } = query
      const listing = `proposals:${tenantId}:${canonicalJson(filters)}`
      const position = cursor === undefined ? undefined : cursors.decode(listing, cursor)
      let before = position === undefined ? undefined : { createdAt: new Date(String(position['created_at'])), id: String(position['id']) }
      if (before !== undefined && Number.isNaN(before.createdAt.getTime())) throw new AppError('invalid_cursor')
      const matched: ProposalView[] = []
      // Without a derived filter every row read matches: read just the page and one more.
      const derived = query.type !== undefined || query.status !== undefined || query.risk_band !== undefined
      let read = 0
      // Where the next page starts when the scan stopped at its bound before the page filled.
      let stoppedAfter: { created_at: string; id: string } | undefined
      for (;;) {
        const batchRows = derived ? Math.max(1, Math.min(scanBatchRows, scanned - read)) : limit + 1
        const batch = await agents.page(tenantId, { before, minConfidence: query.min_confidence, limit: batchRows })
        read += batch.length
        const views = await viewsOf(tenantId, batch)
        for (const view of views) {
          if (query.type !== undefined && view.type !== query.type) continue
          if (query.status !== undefined && view.status !== query.status) continue
          if (query.risk_band !== undefined && view.risk_band !== query.risk_band) continue
          matched.push(view)
        }
        const last = batch.at(-1)
        if (matched.length > limit || batch.length < batchRows || last === undefined) break
        if (derived && read >= scanned) {
          stoppedAfter = { created_at: last.createdAt.toISOString(), id: last.id }
          break
        }
        before = { createdAt: last.createdAt, id: last.id }
      }
      const page = matched.slice(0, limit)
      const last = page.at(-1)
      const next = matched.length > limit && last !== undefined ? { created_at: last.created_at, id: last.id } : stoppedAfter
      return { proposals: page, next_cursor: next === undefined ? null : cursors.encode(listing, next) }
    },
  }
}

/** One proposal's read model, from its stored record, its intent (money), its recorded decisions and its policy decision. */
export function viewOf(record: AgentProposalRecord, intent: ProposalIntent | undefined, decisions: readonly RecordedDecision[], policyFacts: Omit<PolicyView, 'explanation'>): ProposalView {
  const stored = storedOf(record)
  const money = isMoneyProposal(stored)
  const resolution = typeOf(stored)
  // Every stored proposal resolves (first-party roles are public types; POST /v1/agents/actions refuses what does not); the stored type stands in otherwise.
  const type: ProposalType = resolution.type ?? (isPublicProposalType(record.proposalType) ? record.proposalType : 'financial_health')
  const intentState: IntentState | undefined =
    intent === undefined
      ? undefined
      : { status: intent.status, actionType: intent.actionType, amount: intent.amount, currency: intent.currency, destinationCounterpartyId: intent.destinationCounterpartyId, approvalsRequired: intent.approvalsRequired, approvals: intent.approvals }
  const status: ProposalStatus = statusOf(stored, intentState, decisions)
  const policyView: PolicyView = { ...policyFacts, explanation: policyExplanationOf(policyFacts) }
  const riskBand: RiskBand | null = riskBandOf({
    type,
    actionType: record.actionType,
    confidence: record.confidence,
    money,
    policyDecision: policyView.decision,
    shortfall: record.details['shortfall'] === true || (typeof record.details['shortfall'] === 'string' && record.details['shortfall'] !== ''),
    status,
  })
  const available = availableDecisionsOf(money, status)
  return {
    id: record.id,
    type,
    created_at: record.createdAt.toISOString(),
    status,
    risk_band: riskBand,
    confidence: record.confidence,
    mode: 'propose',
    narrative: record.narrative,
    evidence: record.evidence.map((ref) => ({ kind: ref.kind, ref: ref.ref, resolvable: isResolvableKind(ref.kind) })),
    agent: { id: record.agent.id, kind: record.agent.kind, display_name: record.agent.display_name },
    payment_intent_id: record.paymentIntentId,
    action_type: money ? (intent?.actionType ?? null) : null,
    stored_action_type: record.actionType,
    details: { ...record.details },
    policy: { ...policyView, required_approvers: [...policyView.required_approvers], trace: policyView.trace },
    presentation: presentationOf({ proposal: stored, resolution: resolution.type === undefined ? { type, rule: 'explicit_map' } : resolution, status, riskBand, intent: intentState, policy: policyView, available }),
    available_decisions: available,
  }
}

export type ReadService = ReturnType<typeof createReadService>
