/**
 * The agents module's own tables (issue 18, item 4): each routing decision (POST /v1/agents/route, and
 * the routing step of every run), each run of a first-party agent, and each proposal a run made — a
 * PaymentIntent's reference for money proposals, the finding itself for the others (there is no
 * proposals store yet; GET /v1/proposals will read these).
 */
import { boolean, date, doublePrecision, index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core'
import { createdAt } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'

export const agentRoutingDecisions = pgTable(
  'agent_routing_decisions',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    /** `event` or `intent`: what the caller routed on. */
    inputKind: text('input_kind', { enum: ['event', 'intent'] }).notNull(),
    /** The event name, or the intent text as the caller wrote it. */
    inputText: text('input_text').notNull(),
    context: jsonb('context').notNull(),
    selectedAgentId: text('selected_agent_id'),
    fallbackAgentIds: text('fallback_agent_ids').array().notNull(),
    confidence: doublePrecision('confidence').notNull(),
    evidenceScore: doublePrecision('evidence_score').notNull(),
    policyStatus: text('policy_status', { enum: ['routed', 'unscoped', 'no_match'] }).notNull(),
    executionMode: text('execution_mode', { enum: ['execute', 'propose', 'confirm', 'notify_only', 'reject'] }),
    reason: text('reason').notNull(),
    /** The rule that decided and every candidate with its score (domain/routing.ts RoutingDecision). */
    rule: text('rule').notNull(),
    candidates: jsonb('candidates').notNull(),
    /** The run it was made for; null for POST /v1/agents/route. */
    runId: text('run_id'),
    requestedBy: text('requested_by').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
)

export const agentRuns = pgTable(
  'agent_runs',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    routingDecisionId: text('routing_decision_id').notNull(),
    /** Null when nothing was routed. */
    agentId: text('agent_id'),
    category: text('category', { enum: ['business', 'consumer', 'agnostic'] }),
    agentVersion: text('agent_version'),
    behaviorHash: text('behavior_hash'),
    status: text('status', { enum: ['proposal_created', 'no_proposal', 'no_match', 'unscoped'] }).notNull(),
    /** The stored action type of its first proposal (pay_invoice, remind, …); null without one. */
    action: text('action'),
    shadowMode: boolean('shadow_mode').notNull(),
    /** The day the program ran for (the tenant's today unless context.as_of named another). */
    asOf: date('as_of', { mode: 'string' }).notNull(),
    reason: text('reason').notNull(),
    /** `api` (POST /v1/agents/run) or `event` (POST /v1/agents/events, its job). */
    trigger: text('trigger', { enum: ['api', 'event'] }).notNull(),
    jobId: text('job_id'),
    /** What the program read: record counts per list and the snapshot's digest. */
    ledgerRead: jsonb('ledger_read').notNull(),
    /** The policy dry run of each money proposal, by proposal key. */
    gateDryRun: jsonb('gate_dry_run').notNull(),
    /** Proposals the program made again that an earlier run already made (not proposed twice). */
    duplicateKeys: text('duplicate_keys').array().notNull(),
    requestedBy: text('requested_by').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    index('agent_runs_list_idx').on(table.tenantId, table.createdAt, table.id),
  ],
)

export const agentProposals = pgTable(
  'agent_proposals',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    /** The run that made it; null for an action an agent proposed itself (POST /v1/agents/actions). */
    runId: text('run_id'),
    agentId: text('agent_id').notNull(),
    proposalType: text('proposal_type').notNull(),
    actionType: text('action_type').notNull(),
    /** The program's stable key: the same finding on the same Ledger has the same key. */
    proposalKey: text('proposal_key').notNull(),
    /** `proposed` for findings; a money proposal's PaymentIntent status when the run made it. */
    status: text('status').notNull(),
    confidence: doublePrecision('confidence').notNull(),
    evidenceScore: doublePrecision('evidence_score').notNull(),
    narrative: text('narrative').notNull(),
    evidence: jsonb('evidence').notNull(),
    details: jsonb('details').notNull(),
    paymentIntentId: text('payment_intent_id'),
    policyDecisionId: text('policy_decision_id'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    index('agent_proposals_run_idx').on(table.tenantId, table.runId),
    index('agent_proposals_key_idx').on(table.tenantId, table.agentId, table.proposalKey, table.createdAt),
    index('agent_proposals_agent_idx').on(table.tenantId, table.agentId, table.createdAt, table.id),
  ],
)

/** Tenant deletion: proposals, runs, routing decisions (nothing else references them). */
export const agentsRunsTenantData: TenantDataPlan = {
  deleted: [
    { table: agentProposals, tenantColumn: agentProposals.tenantId },
    { table: agentRuns, tenantColumn: agentRuns.tenantId },
    { table: agentRoutingDecisions, tenantColumn: agentRoutingDecisions.tenantId },
  ],
}

