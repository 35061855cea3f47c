/**
 * Reading routing decisions, runs and what each run did (spec, "Agents"): a run's summary, its `why`
 * (structured reason, the redacted reasoning trace, the candidates, the behaviour hash), the evidence it
 * consulted, the gate-check rows of its PaymentIntent (payments) and its proof (proofs); and the actions
 * an agent produced. Anything not of the caller's tenant is 404.
 */
import { canonicalJson } from '../../kernel/hashing.ts'
import type { CursorCodec, PageSizeBounds } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import type { Database } from '../../platform/db/database.ts'
import type { Position, ProposalRow, RoutingDecisionRow, RunRow, RunsStore } from './agents.runs.store.ts'
import { catalog } from './domain/catalog.ts'
import type { EvidenceRef } from './domain/programs/program.ts'
import type { AgentsPayments, AgentsProofs } from './ports.ts'

export const runPageRows: PageSizeBounds = { defaultRows: 50, maxRows: 100 }

export function routingDecisionView(row: RoutingDecisionRow) {
  return {
    id: row.id,
    input: row.inputKind === 'event' ? { event: row.inputText, intent: null } : { event: null, intent: row.inputText },
    context: row.context as Record<string, unknown>,
    selected_agent_id: row.selectedAgentId,
    fallback_agent_ids: row.fallbackAgentIds,
    confidence: row.confidence,
    evidence_score: row.evidenceScore,
    policy_status: row.policyStatus,
    execution_mode: row.executionMode,
    reason: row.reason,
    rule: row.rule,
    candidates: row.candidates as Array<{ agent_id: string; score: number; matched: string[] }>,
    run_id: row.runId,
    created_at: row.createdAt.toISOString(),
  }
}

function proposalView(row: ProposalRow) {
  return {
    id: row.id,
    run_id: row.runId,
    agent_id: row.agentId,
    proposal_type: row.proposalType,
    action_type: row.actionType,
    key: row.proposalKey,
    status: row.status,
    confidence: row.confidence,
    evidence_score: row.evidenceScore,
    narrative: row.narrative,
    evidence: row.evidence as EvidenceRef[],
    details: row.details as Record<string, unknown>,
    payment_intent_id: row.paymentIntentId,
    policy_decision_id: row.policyDecisionId,
    created_at: row.createdAt.toISOString(),
  }
}

export function runView(row: RunRow, proposals: readonly ProposalRow[]) {
  return {
    id: row.id,
    routing_decision_id: row.routingDecisionId,
    agent_id: row.agentId,
    category: row.category,
    status: row.status,
    action: row.action,
    shadow_mode: row.shadowMode,
    as_of: row.asOf,
    trigger: row.trigger,
    job_id: row.jobId,
    behavior_hash: row.behaviorHash,
    reason: row.reason,
    proposal_ids: proposals.map((proposal) => proposal.id),
    payment_intent_ids: proposals.flatMap((proposal) => (proposal.paymentIntentId === null ? [] : [proposal.paymentIntentId])),
    created_at: row.createdAt.toISOString(),
  }
}

export function createRunsReadService(deps: { db: Database; store: RunsStore; cursors: CursorCodec; payments: AgentsPayments; proofs: AgentsProofs }) {
  const { db, store, cursors, payments, proofs } = deps

  async function foundRun(tenantId: string, runId: string) {
    const run = await store.run(db.orm, tenantId, runId)
    if (run === undefined) throw new AppError('agent_run_not_found', 'No such agent run.', { run_id: runId })
    return { run, proposals: await store.proposalsOfRun(db.orm, tenantId, runId) }
  }

  function positionOf(listing: string, cursor: string | undefined): Position | undefined {
    if (cursor === undefined) return undefined
    const position = cursors.decode(listing, cursor)
    const createdAt = new Date(String(position['created_at']))
    if (Number.isNaN(createdAt.getTime())) throw new AppError('invalid_cursor')
    return { createdAt, id: String(position['id']) }
  }

  /** The intents' statuses now (a money proposal's status moves after its run). */
  async function withCurrentStatus(tenantId: string, rows: readonly ProposalRow[]) {
    return Promise.all(rows.map(async (row) => (row.paymentIntentId === null ? row : { ...row, status: (await payments.statusOf(tenantId, row.paymentIntentId)) ?? row.status })))
  }

  return {
    async routingDecision(tenantId: string, id: string) {
      const row = await store.routingDecision(db.orm, tenantId, id)
      if (row === undefined) throw new AppError('agent_routing_decision_not_found', 'No such routing decision.', { id })
      return routingDecisionView(row)
    },

    async runs(tenantId: string, query: { agent_id?: string | undefined; status?: string | undefined; category?: string | undefined; limit?: number | undefined; cursor?: string | undefined }) {
      const limit = query.limit ?? runPageRows.defaultRows
      const { limit: _limit, cursor, ...filters } = query
      const listing = `agent_runs:${tenantId}:${canonicalJson(filters)}`
      const rows = await store.runs(db.orm, tenantId, { agentId: query.agent_id, status: query.status, category: query.category, before: positionOf(listing, cursor), limit: limit + 1 })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      const proposals = await store.proposalsOfRuns(db.orm, tenantId, page.map((row) => row.id))
      return {
        runs: page.map((row) => runView(row, proposals.filter((proposal) => proposal.runId === row.id))),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { created_at: last.createdAt.toISOString(), id: last.id }) : null,
      }
    },

    async run(tenantId: string, runId: string) {
      const { run, proposals } = await foundRun(tenantId, runId)
      return { ...runView(run, proposals), proposals: (await withCurrentStatus(tenantId, proposals)).map(proposalView) }
    },

    /** Why the run did what it did. The trace names records by id and kinds by name; free text (the intent, narratives, payee names) is left out. */
    async why(tenantId: string, runId: string) {
      const { run, proposals } = await foundRun(tenantId, runId)
      const decision = await store.routingDecision(db.orm, tenantId, run.routingDecisionId)
      if (decision === undefined) throw new AppError('agent_run_not_found', 'No such agent run.', { run_id: runId })
      const dryRuns = run.gateDryRun as Record<string, { outcome: string; matched_rule_id: string | null; policy_version: number | null }>
      const entry = catalog.find((candidate) => candidate.agent_key === run.agentId)
      const trace: Array<{ step: string; detail: Record<string, unknown> }> = [
        {
          step: 'route',
          detail: { input_kind: decision.inputKind, event: decision.inputKind === 'event' ? decision.inputText : null, intent: decision.inputKind === 'intent' ? '[redacted]' : null, rule: decision.rule, selected_agent_id: decision.selectedAgentId, policy_status: decision.policyStatus },
        },
      ]
      if (run.status !== 'no_match' && run.status !== 'unscoped') {
        trace.push({ step: 'read_ledger', detail: run.ledgerRead as Record<string, unknown> })
        trace.push({ step: 'run_program', detail: { agent_id: run.agentId, version: run.agentVersion, proposals: proposals.length + run.duplicateKeys.length, already_proposed: run.duplicateKeys.length } })
        for (const [key, dryRun] of Object.entries(dryRuns)) trace.push({ step: 'gate_dry_run', detail: { proposal_key: key, outcome: dryRun.outcome, matched_rule_id: dryRun.matched_rule_id, policy_version: dryRun.policy_version } })
        for (const proposal of proposals) {
          trace.push({ step: 'propose', detail: { proposal_id: proposal.id, key: proposal.proposalKey, action_type: proposal.actionType, status: proposal.status, payment_intent_id: proposal.paymentIntentId, evidence_refs: (proposal.evidence as EvidenceRef[]).length } })
        }
      }
      return {
        run_id: run.id,
        agent_id: run.agentId,
        behavior_hash: run.behaviorHash,
        behavior_hash_current: entry === undefined || run.behaviorHash === null ? null : entry.behavior_hash === run.behaviorHash,
        structured_reason: {
          summary: run.reason,
          routing: { rule: decision.rule, reason: decision.reason, confidence: decision.confidence, evidence_score: decision.evidenceScore, policy_status: decision.policyStatus, execution_mode: decision.executionMode },
          status: run.status,
          shadow_mode: run.shadowMode,
          as_of: run.asOf,
          proposals: proposals.map((proposal) => ({ id: proposal.id, key: proposal.proposalKey, action_type: proposal.actionType, confidence: proposal.confidence, evidence_score: proposal.evidenceScore })),
        },
        reasoning_trace: trace,
        candidates: decision.candidates as Array<{ agent_id: string; score: number; matched: string[] }>,
      }
    },

    /** Every record the run's proposals cite, each once, with the proposals citing it. */
    async evidence(tenantId: string, runId: string) {
      const { run, proposals } = await foundRun(tenantId, runId)
      const cited = new Map<string, { kind: string; ref: string; cited_by: string[] }>()
      for (const proposal of proposals) {
        for (const ref of proposal.evidence as EvidenceRef[]) {
          const key = `${ref.kind}:${ref.ref}`
          const found = cited.get(key) ?? { kind: ref.kind, ref: ref.ref, cited_by: [] }
          found.cited_by.push(proposal.id)
          cited.set(key, found)
        }
      }
      return { run_id: run.id, ledger_read: run.ledgerRead as Record<string, unknown>, evidence: [...cited.values()] }
    },

    /** The gate-check rows of the run's PaymentIntents (payments), with the policy dry run made before proposing. */
    async gateTrace(tenantId: string, runId: string) {
      const { run, proposals } = await foundRun(tenantId, runId)
      const dryRuns = run.gateDryRun as Record<string, unknown>
      const intents = proposals.filter((proposal) => proposal.paymentIntentId !== null)
      return {
        run_id: run.id,
        payment_intents: await Promise.all(
          intents.map(async (proposal) => ({
            payment_intent_id: proposal.paymentIntentId!,
            proposal_id: proposal.id,
            status: (await payments.statusOf(tenantId, proposal.paymentIntentId!)) ?? proposal.status,
            dry_run: (dryRuns[proposal.proposalKey] ?? null) as Record<string, unknown> | null,
            gate_runs: await payments.gateRunsOf(tenantId, proposal.paymentIntentId!),
          })),
        ),
      }
    },

    /** The proof of the run's (first) PaymentIntent; 404 proof_not_found when the run proposed no payment. */
    async proof(tenantId: string, runId: string) {
      const { proposals } = await foundRun(tenantId, runId)
      const intent = proposals.find((proposal) => proposal.paymentIntentId !== null)
      if (intent === undefined) throw new AppError('proof_not_found', 'The run proposed no payment, so there is no proof.', { run_id: runId })
      return proofs.proof(tenantId, intent.paymentIntentId!)
    },

    /** What the agent produced in the tenant, newest first: each proposal, its PaymentIntent and its status now. */
    async actions(tenantId: string, agentId: string, query: { limit?: number | undefined; cursor?: string | undefined }) {
      if (!catalog.some((entry) => entry.agent_key === agentId)) throw new AppError('agent_not_found', 'No such agent.', { agent_id: agentId })
      const limit = query.limit ?? runPageRows.defaultRows
      const listing = `agent_actions:${tenantId}:${agentId}`
      const rows = await store.proposalsOfAgent(db.orm, tenantId, agentId, { before: positionOf(listing, query.cursor), limit: limit + 1 })
      const page = await withCurrentStatus(tenantId, rows.slice(0, limit))
      const last = rows.slice(0, limit).at(-1)
      return {
        actions: page.map((row) => ({
          proposal: proposalView(row),
          payment_intent: row.paymentIntentId === null ? null : { id: row.paymentIntentId, status: row.status, policy_decision_id: row.policyDecisionId },
          status: row.status,
        })),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { created_at: last.createdAt.toISOString(), id: last.id }) : null,
      }
    },
  }
}

export type RunsReadService = ReturnType<typeof createRunsReadService>
