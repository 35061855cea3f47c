/** Wire schemas of the governance routes (platform only). */
import Type from 'typebox'
import { governanceAgentPageRows, governanceStatuses, lifecycleTransitions, registeredAgentFields } from '../agents/index.ts'
import { named, NextCursor, Nullable, pageQuery, PathId, Strict, TenantId, Timestamp } from '../../platform/http/schemas.ts'

const AgentId = Type.String({ minLength: 1, maxLength: 128, description: 'A registered agent\'s id in the tenant.' })

export const GovernanceAgent = named(
  'GovernanceAgent',
  Strict({
    ...registeredAgentFields,
    tenant_id: Type.String(),
    status: registeredAgentFields.state,
    scopes: Type.Null({ description: 'Always null: only the scope hash is stored.' }),
  }),
)

const LifecycleEvent = Strict({
  audit_event_id: Type.String(),
  actor: Type.String({ description: 'type:id of the audit actor.' }),
  action: Type.String(),
  policy_decision_id: Nullable(Type.String()),
  policy_check_id: Nullable(Type.String({ description: 'The policy rule that decided, when the event names one.' })),
  outcome: Nullable(Type.String({ description: 'The state the event left the agent in, or the event\'s own outcome.' })),
  created_at: Timestamp,
  inputs: Type.Record(Type.String(), Type.Unknown()),
  outputs: Type.Record(Type.String(), Type.Unknown()),
})

export const GovernanceAgentDetail = named(
  'GovernanceAgentDetail',
  Strict({
    ...registeredAgentFields,
    tenant_id: Type.String(),
    status: registeredAgentFields.state,
    scopes: Type.Null(),
    lifecycle_events: Type.Array(LifecycleEvent, { description: 'Every audit event about the agent, oldest first.' }),
  }),
)

export const GovernanceAgentList = named('GovernanceAgentList', Strict({ agents: Type.Array(GovernanceAgent), next_cursor: NextCursor }))

export const GovernanceAgentListQuery = Strict({
  tenant_id: TenantId,
  status: Type.Optional(Type.Enum([...governanceStatuses], { description: 'pending is pending_onchain.' })),
  owner: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Who registered the agent (the registering user\'s id); another owner answers an empty list.' })),
  ...pageQuery(governanceAgentPageRows),
})

export const GovernanceAgentParams = Strict({ agent_id: PathId('agent_not_found', undefined, 'The registered agent') })
export const GovernanceAgentQuery = Strict({ tenant_id: TenantId })

export const GovernanceTransitionBody = Strict({
  tenant_id: TenantId,
  transition: Type.Enum([...lifecycleTransitions]),
  reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why; audited as its SHA-256 only.' }),
  actor: Type.String({ minLength: 1, maxLength: 200, description: 'Who at the platform made the change (audited as a platform actor).' }),
})

const period = {
  tenant_id: TenantId,
  period_start: Type.String({ format: 'date-time', description: 'Inclusive.' }),
  period_end: Type.String({ format: 'date-time', description: 'Exclusive; at most 366 days after period_start.' }),
  agent_id: Type.Optional(AgentId),
}

export const ReportQuery = Strict({ ...period, format: Type.Optional(Type.Enum(['json', 'csv'], { description: 'json (default) or csv (the events, one per line).' })) })
/** The report's query; `format` is accepted as json only (a snapshot is the JSON report), so the report's own query can be reused as it is. */
export const SnapshotQuery = Strict({ ...period, format: Type.Optional(Type.Enum(['json'], { description: 'json only (the default): a snapshot freezes the JSON report; csv is 400.' })) })
export const SnapshotBody = Strict({ created_by: Type.String({ minLength: 1, maxLength: 200, description: 'Who at the platform froze the report.' }) })

const ReportRow = Strict({
  audit_event_id: Type.String(),
  created_at: Timestamp,
  actor: Type.String(),
  agent_id: Type.String(),
  action: Type.String(),
  policy_decision_id: Nullable(Type.String()),
  policy_check_id: Nullable(Type.String()),
  raw_policy_outcome: Nullable(Type.String()),
  outcome: Nullable(Type.Enum(['approved', 'blocked', 'escalated'])),
  decision_data_status: Type.Enum(['available', 'unavailable']),
  unavailable_reason: Nullable(Type.Enum(['policy_decision_id_missing', 'policy_decision_not_found', 'native_outcome_missing', 'native_outcome_mismatch'])),
})

export const GovernanceReport = named(
  'GovernanceReport',
  Strict({
    tenant_id: Type.String(),
    period_start: Timestamp,
    period_end: Timestamp,
    agent_id: Nullable(Type.String()),
    summary: Strict({
      totals: Strict({ proposed: Type.Integer(), approved: Type.Integer(), blocked: Type.Integer(), escalated: Type.Integer(), decision_data_unavailable: Type.Integer() }),
      coverage: Strict({ events: Type.Integer(), with_policy_decision_id: Type.Integer(), joined_policy_decision: Type.Integer(), with_native_outcome: Type.Integer() }),
    }),
    events: Type.Array(ReportRow),
  }),
)

export const GovernanceReportSnapshot = named(
  'GovernanceReportSnapshot',
  Strict({
    report_id: Type.String({ description: 'grpt_…' }),
    tenant_id: Type.String(),
    period_start: Timestamp,
    period_end: Timestamp,
    agent_id: Nullable(Type.String()),
    created_by: Type.String(),
    created_at: Timestamp,
    report: GovernanceReport,
  }),
)

export const SnapshotCreated = named('GovernanceSnapshotCreated', Strict({ report_id: Type.String(), snapshot: GovernanceReportSnapshot }))

export const ReportParams = Strict({ report_id: PathId('governance_report_not_found', 'governanceReport', 'The report snapshot') })
export const ReportSnapshotQuery = Strict({ tenant_id: TenantId })
