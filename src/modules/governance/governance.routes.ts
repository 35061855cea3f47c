/**
 * The governance routes (spec, "Governance"): the platform's view of a tenant's registered agents and
 * their lifecycle, and agent-activity reports with their snapshots. X-Platform-Service-Auth only: an
 * end-user bearer is refused like no credential at all (401).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { contextOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { platformRoute } from '../../platform/http/route-auth.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import { reportCsv } from './domain/report.ts'
import type { GovernanceAgentsService } from './agents.service.ts'
import * as governanceSchemas from './governance.schemas.ts'
import {
  GovernanceAgent,
  GovernanceAgentDetail,
  GovernanceAgentList,
  GovernanceAgentListQuery,
  GovernanceAgentParams,
  GovernanceAgentQuery,
  GovernanceReport,
  GovernanceReportSnapshot,
  GovernanceTransitionBody,
  ReportParams,
  ReportQuery,
  ReportSnapshotQuery,
  SnapshotBody,
  SnapshotCreated,
  SnapshotQuery,
} from './governance.schemas.ts'
import type { ReportsService } from './reports.service.ts'

const tags = ['Platform: governance']
const platform = platformRoute()
const tenantNote = 'A tenant_id that names no tenant is 404 tenant_not_found.'

export const governanceRoutes: FastifyPluginAsyncTypebox<{ agents: GovernanceAgentsService; reports: ReportsService }> = async (app, { agents, reports }) => {
  registerNamedSchemas(app, [...Object.values(governanceSchemas)])

  app.get(
    '/v1/governance/agents',
    {
      config: { auth: platform },
      schema: {
        tags,
        operationId: 'listGovernanceAgents',
        summary: 'A tenant\'s registered agents (platform)',
        description: `In id order, 100 a page by default (at most 500). status pending is pending_onchain; owner is the user who registered the agent (another owner answers an empty list). scopes is always null. ${tenantNote}`,
        querystring: GovernanceAgentListQuery,
        response: { 200: GovernanceAgentList },
      },
    },
    async (request) => agents.list(request.query),
  )

  app.get(
    '/v1/governance/agents/:agent_id',
    {
      config: { auth: platform },
      schema: {
        tags,
        operationId: 'getGovernanceAgent',
        summary: 'A registered agent with its lifecycle events (platform)',
        description: `lifecycle_events: every audit event about the agent, oldest first. 404 agent_not_found for an id the tenant has not registered. ${tenantNote}`,
        params: GovernanceAgentParams,
        querystring: GovernanceAgentQuery,
        response: { 200: GovernanceAgentDetail },
      },
    },
    async (request) => agents.get(request.query.tenant_id, request.params.agent_id),
  )

  app.patch(
    '/v1/governance/agents/:agent_id',
    {
      config: { auth: platform },
      schema: {
        tags,
        operationId: 'transitionGovernanceAgent',
        summary: 'Pause, resume or revoke an agent (platform)',
        description:
          'pause: active → quarantined (its approved intents paused, its contributions held); resume: quarantined → active, or pending_onchain → active when no chain is configured (with one, only the chain activates); revoke: any state but revoked → revoked, for good. ' +
          `Audited governance.agent.lifecycle_changed (the reason as its SHA-256). 409 agent_lifecycle_transition_invalid for any other move; 404 agent_not_found. ${tenantNote}`,
        params: GovernanceAgentParams,
        body: GovernanceTransitionBody,
        response: { 200: GovernanceAgent },
      },
    },
    async (request) => agents.transition(contextOf(request), request.params.agent_id, request.body),
  )

  app.get(
    '/v1/governance/reports',
    {
      config: { auth: platform },
      schema: {
        tags,
        operationId: 'getGovernanceReport',
        summary: 'Agent activity and its policy decisions in a period (platform)',
        description:
          'Every audit event of [period_start, period_end) an agent is answerable for (its proposals, its runs, its lifecycle), each joined to the policy decision it names; rows without a resolvable decision or a native outcome are kept as decision_data_status unavailable with the reason (docs/governance.md). ' +
          `format=csv answers the events as text/csv. 400 validation_failed unless period_start < period_end within 366 days, or past 50,000 audit events in the period. ${tenantNote}`,
        querystring: ReportQuery,
        produces: ['application/json', 'text/csv'],
        response: { 200: GovernanceReport },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query
      const report = await reports.report(query)
      if (format === 'csv') {
        return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="governance-report-${query.tenant_id}.csv"`).send(reportCsv(report) as never) // text, sent as is: the JSON schema describes format=json
      }
      return report
    },
  )

  app.post(
    '/v1/governance/reports/snapshot',
    {
      config: { auth: platform },
      schema: {
        tags,
        operationId: 'createGovernanceReportSnapshot',
        summary: 'Freeze a report (platform)',
        description:
          'Computes the report of the query (JSON) and stores it, immutable: GET /v1/governance/reports/{report_id} answers it as stored, whatever changes after. Audited governance.report.snapshot_created. ' +
          `With Idempotency-Key, the same key and request answer the first snapshot (Idempotent-Replayed: true); the same key with other parameters is 409 idempotency_key_reused. ${tenantNote}`,
        querystring: SnapshotQuery,
        headers: IdempotencyKeyHeaders,
        body: SnapshotBody,
        response: { 201: SnapshotCreated },
      },
    },
    async (request, reply) => {
      // format=json names the default: the same snapshot with or without it (and the same idempotency fingerprint).
      const { format: _json, ...query } = request.query
      const { outcome, replayed } = await reports.snapshot(contextOf(request), query, request.body)
      return markReplayed(reply, replayed).code(201).send({ report_id: outcome.report_id, snapshot: outcome })
    },
  )

  app.get(
    '/v1/governance/reports/:report_id',
    {
      config: { auth: platform },
      schema: {
        tags,
        operationId: 'getGovernanceReportSnapshot',
        summary: 'A frozen report (platform)',
        description: 'The snapshot as it was stored, never computed again. 404 governance_report_not_found for an id the tenant does not have.',
        params: ReportParams,
        querystring: ReportSnapshotQuery,
        response: { 200: GovernanceReportSnapshot },
      },
    },
    async (request) => reports.snapshotOf(request.query.tenant_id, request.params.report_id),
  )
}
