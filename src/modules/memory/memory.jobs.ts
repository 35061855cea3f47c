/**
 * The memory module's job: regenerate a tenant's pages after the Ledger wrote (a normalization or a
 * reconciliation that created or superseded records). The Ledger's generic write hook (LedgerWriteListener)
 * asks for it in the transaction that records the Ledger job's success, so it exists exactly when that
 * write committed. Regeneration renders every page and stores only those whose content changed, so the
 * pages the write did not touch keep their version.
 */
import Type from 'typebox'
import type { PendingJob } from '../../platform/commands/command.ts'
import { defineQueue, type JobHandler, type PayloadOf } from '../../platform/jobs/job-queue.ts'
import type { RegenerationService } from './regenerate.service.ts'

export const memoryRegenerateQueue = defineQueue({
  name: 'memory-regenerate',
  version: 1,
  payload: Type.Object(
    { tenant_id: Type.String(), ledger_job_id: Type.String(), cause: Type.Union([Type.Literal('ledger.normalize'), Type.Literal('ledger.reconcile')]) },
    { additionalProperties: false },
  ),
  policy: { retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 900 },
})

export const memoryQueues = [memoryRegenerateQueue] as const

/** The job the Ledger's write hook commits with its job's success. */
export function regenerationJobFor(notice: { tenantId: string; jobId: string; kind: 'normalize' | 'reconcile' }): PendingJob<PayloadOf<typeof memoryRegenerateQueue>> {
  return { queue: memoryRegenerateQueue, payload: { tenant_id: notice.tenantId, ledger_job_id: notice.jobId, cause: notice.kind === 'normalize' ? 'ledger.normalize' : 'ledger.reconcile' } }
}

export function createRegenerateHandler(regeneration: RegenerationService): JobHandler<PayloadOf<typeof memoryRegenerateQueue>> {
  return async (job) => {
    const { tenant_id: tenantId, ledger_job_id: ledgerJobId, cause } = job.data
    await regeneration.regenerate({ requestId: `job:${job.id}` }, { tenantId, actor: { type: 'system', id: 'memory-regenerate' }, cause: { kind: cause, ledgerJobId } })
  }
}
