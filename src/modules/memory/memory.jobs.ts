/**
 * The memory module's job: regenerate a tenant's pages after the Ledger wrote (a normalization or a
 * reconciliation that created or superseded records, a counterparty trust transition), after a policy
 * version was composed or activated, or after an agent was registered or changed state (halted, restored,
 * resumed, activated, revoked). The Ledger's, the policy module's and the agents module's generic write
 * hooks (LedgerWriteListener, PolicyWriteListener, AgentWriteListener) ask for it in the transaction of the write, so it exists
 * exactly when that write committed. Regeneration renders every page and stores only those whose content changed, so the
 * pages the write did not touch keep their version.
 */
import Type from 'typebox'
import type { PendingJob } from '../../platform/commands/command.ts'
import { defineQueue, type JobHandler, type PayloadOf } from '../../platform/jobs/job-queue.ts'
import type { PageType } from './domain/page-types.ts'
import type { MemoryTenants } from './ports.ts'
import type { RegenerationService } from './regenerate.service.ts'

export const memoryRegenerateQueue = defineQueue({
  name: 'memory-regenerate',
  version: 1,
  payload: Type.Object(
    {
      tenant_id: Type.String(),
      cause: Type.Union([
        Type.Literal('ledger.normalize'),
        Type.Literal('ledger.reconcile'),
        Type.Literal('ledger.trust'),
        Type.Literal('policy.composed'),
        Type.Literal('policy.activated'),
        Type.Literal('agent.registered'),
        Type.Literal('agent.state_changed'),
      ]),
      /**
       * The Ledger job's id (normalize, reconcile), the request's (a synchronous normalize), the
       * counterparty's (trust), the policy's, or the agents' (comma-separated, for a category's halt).
       */
      ledger_ref: Type.String(),
    },
    { additionalProperties: false },
  ),
  policy: { retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 900 },
})

export const memoryQueues = [memoryRegenerateQueue] as const

/** The job a policy write commits with it. */
export function policyRegenerationJobFor(notice: { tenantId: string; kind: 'composed' | 'activated'; policyId: string }): PendingJob<PayloadOf<typeof memoryRegenerateQueue>> {
  return { queue: memoryRegenerateQueue, payload: { tenant_id: notice.tenantId, cause: `policy.${notice.kind}`, ledger_ref: notice.policyId } }
}

/** The job an agent write (a registration, a state change) commits with it. */
export function agentRegenerationJobFor(notice: { tenantId: string; kind: 'registered' | 'state_changed'; agentIds: readonly string[] }): PendingJob<PayloadOf<typeof memoryRegenerateQueue>> {
  return { queue: memoryRegenerateQueue, payload: { tenant_id: notice.tenantId, cause: `agent.${notice.kind}`, ledger_ref: notice.agentIds.join(',') } }
}

/** The job the Ledger's write hook commits with its job's success. */
export function regenerationJobFor(notice: { tenantId: string; kind: 'normalize' | 'reconcile' | 'trust'; ref: string }): PendingJob<PayloadOf<typeof memoryRegenerateQueue>> {
  return { queue: memoryRegenerateQueue, payload: { tenant_id: notice.tenantId, cause: `ledger.${notice.kind}`, ledger_ref: notice.ref } }
}

/**
 * The pages each kind of write regenerates: a policy write the policy page, an agent write the agent
 * pages (neither reads the Ledger); a Ledger write every page (undefined), which also brings in the pages
 * of first-party agents no write has named yet.
 */
const pageTypesAfter: Readonly<Record<PayloadOf<typeof memoryRegenerateQueue>['cause'], readonly PageType[] | undefined>> = {
  'ledger.normalize': undefined,
  'ledger.reconcile': undefined,
  'ledger.trust': undefined,
  'policy.composed': ['policy'],
  'policy.activated': ['policy'],
  'agent.registered': ['agent'],
  'agent.state_changed': ['agent'],
}

export function createRegenerateHandler(regeneration: RegenerationService, tenants: MemoryTenants): JobHandler<PayloadOf<typeof memoryRegenerateQueue>> {
  return async (job) => {
    const { tenant_id: tenantId, ledger_ref: ledgerRef, cause } = job.data
    // A tenant deleted after the Ledger job committed has nothing left to render.
    if (!(await tenants.exists(tenantId))) return
    await regeneration.regenerate({ requestId: `job:${job.id}` }, { tenantId, pageTypes: pageTypesAfter[cause], actor: { type: 'system', id: 'memory-regenerate' }, cause: { kind: cause, ledgerRef } })
  }
}
