/**
 * The governance report (spec, "Governance report"), as a pure function of a tenant's audit events in a
 * period and the policy decisions they name (docs/governance.md, "Reports").
 *
 * Which events: every audit event of the period that an agent is answerable for — its `outputs.agent_id`
 * (a PaymentIntent an agent proposed), else its `inputs.agent_id` (a first-party agent's run, a finding an
 * agent proposed itself, whoever asked for it), else an `agent` actor, else an `agent` entity (its
 * lifecycle: registered, halted, governed). With `agent_id`, only that agent's.
 *
 * Each row:
 * - `policy_decision_id`: the event's `outputs.policy_decision_id`; `policy_check_id`: the policy rule
 *   that decided (`outputs.matched_rule_id`); `raw_policy_outcome`: the event's own `outputs.outcome`;
 * - `outcome`: the stored decision's outcome in the report's words (allow → approved, reject → blocked,
 *   confirm → escalated), and `decision_data_status: available`, when the event names a decision, the
 *   tenant has that decision, and the event's raw outcome is the decision's;
 * - otherwise `outcome` null and `decision_data_status: unavailable` with the first reason that holds:
 *   `policy_decision_id_missing`, `policy_decision_not_found`, `native_outcome_missing`,
 *   `native_outcome_mismatch`. Such rows are kept, never dropped.
 *
 * Totals: `proposed` counts the rows that are proposals (`payment_intent.proposed`); `approved`,
 * `blocked` and `escalated` count available rows by outcome; `decision_data_unavailable` counts the
 * unavailable rows. Coverage: `events` (rows), `with_policy_decision_id`, `joined_policy_decision` (the
 * tenant has the decision), `with_native_outcome` (the event carries an outcome).
 */

export interface ReportAuditEvent {
  readonly id: string
  readonly created_at: string
  readonly actor: { readonly type: string; readonly id: string }
  readonly action: string
  readonly entity: { readonly type: string; readonly id: string }
  readonly outputs: Readonly<Record<string, unknown>>
  /** Read for `agent_id` only (an agent's run or finding names its agent among its inputs). */
  readonly inputs?: Readonly<Record<string, unknown>> | undefined
}

export type ReportOutcome = 'approved' | 'blocked' | 'escalated'
export type UnavailableReason = 'policy_decision_id_missing' | 'policy_decision_not_found' | 'native_outcome_missing' | 'native_outcome_mismatch'

export interface ReportRow {
  audit_event_id: string
  created_at: string
  actor: string
  agent_id: string
  action: string
  policy_decision_id: string | null
  policy_check_id: string | null
  raw_policy_outcome: string | null
  outcome: ReportOutcome | null
  decision_data_status: 'available' | 'unavailable'
  unavailable_reason: UnavailableReason | null
}

export interface GovernanceReport {
  tenant_id: string
  period_start: string
  period_end: string
  agent_id: string | null
  summary: {
    totals: { proposed: number; approved: number; blocked: number; escalated: number; decision_data_unavailable: number }
    coverage: { events: number; with_policy_decision_id: number; joined_policy_decision: number; with_native_outcome: number }
  }
  events: ReportRow[]
}

const outcomeWords: Readonly<Record<string, ReportOutcome>> = { allow: 'approved', reject: 'blocked', confirm: 'escalated' }

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

/** The agent an event is about, or undefined when it is no agent's. */
export function agentOf(event: ReportAuditEvent): string | undefined {
  return (
    text(event.outputs['agent_id']) ??
    text(event.inputs?.['agent_id']) ??
    (event.actor.type === 'agent' ? event.actor.id : undefined) ??
    (event.entity.type === 'agent' ? event.entity.id : undefined)
  )
}

/** The decision ids the events name, for the caller to look up. */
export function decisionIdsOf(events: readonly ReportAuditEvent[]): string[] {
  return [...new Set(events.flatMap((event) => text(event.outputs['policy_decision_id']) ?? []))]
}

export function buildReport(input: {
  tenantId: string
  periodStart: string
  periodEnd: string
  agentId: string | null
  /** The tenant's audit events of the period, in chain order. */
  events: readonly ReportAuditEvent[]
  /** The stored outcome of each decision the tenant has, by id. */
  decisions: ReadonlyMap<string, string>
}): GovernanceReport {
  const rows: ReportRow[] = []
  for (const event of input.events) {
    const agentId = agentOf(event)
    if (agentId === undefined || (input.agentId !== null && agentId !== input.agentId)) continue
    const decisionId = text(event.outputs['policy_decision_id'])
    const raw = text(event.outputs['outcome'])
    const stored = decisionId === null ? undefined : input.decisions.get(decisionId)
    const reason: UnavailableReason | null =
      decisionId === null
        ? 'policy_decision_id_missing'
        : stored === undefined
          ? 'policy_decision_not_found'
          : raw === null
            ? 'native_outcome_missing'
            : raw !== stored || outcomeWords[stored] === undefined
              ? 'native_outcome_mismatch'
              : null
    rows.push({
      audit_event_id: event.id,
      created_at: event.created_at,
      actor: `${event.actor.type}:${event.actor.id}`,
      agent_id: agentId,
      action: event.action,
      policy_decision_id: decisionId,
      policy_check_id: text(event.outputs['matched_rule_id']),
      raw_policy_outcome: raw,
      outcome: reason === null ? outcomeWords[stored!]! : null,
      decision_data_status: reason === null ? 'available' : 'unavailable',
      unavailable_reason: reason,
    })
  }
  const count = (test: (row: ReportRow) => boolean) => rows.filter(test).length
  return {
    tenant_id: input.tenantId,
    period_start: input.periodStart,
    period_end: input.periodEnd,
    agent_id: input.agentId,
    summary: {
      totals: {
        proposed: count((row) => row.action === 'payment_intent.proposed'),
        approved: count((row) => row.outcome === 'approved'),
        blocked: count((row) => row.outcome === 'blocked'),
        escalated: count((row) => row.outcome === 'escalated'),
        decision_data_unavailable: count((row) => row.decision_data_status === 'unavailable'),
      },
      coverage: {
        events: rows.length,
        with_policy_decision_id: count((row) => row.policy_decision_id !== null),
        joined_policy_decision: count((row) => row.policy_decision_id !== null && input.decisions.has(row.policy_decision_id)),
        with_native_outcome: count((row) => row.raw_policy_outcome !== null),
      },
    },
    events: rows,
  }
}

export const reportCsvColumns = [
  'audit_event_id',
  'created_at',
  'actor',
  'agent_id',
  'action',
  'policy_decision_id',
  'policy_check_id',
  'raw_policy_outcome',
  'outcome',
  'decision_data_status',
  'unavailable_reason',
] as const satisfies ReadonlyArray<keyof ReportRow>

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a value a spreadsheet would
 * run as a formula (starting with =, +, -, @, tab or carriage return) is prefixed with a single quote.
 */
export function csvField(value: string | null): string {
  if (value === null) return ''
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert
}

/** The report's rows as CSV: a header, then one line per event, CRLF line ends (the totals are in the JSON). */
export function reportCsv(report: GovernanceReport): string {
  const lines = [reportCsvColumns.join(','), ...report.events.map((row) => reportCsvColumns.map((column) => csvField(row[column])).join(','))]
  return `${lines.join('\r\n')}\r\n`
}
