/**
 * The Ledger's durable jobs. Each tracks its run in a `ledger_jobs` row (GET /v1/ledger/jobs/{job_id}):
 * queued → running → succeeded | failed. A job's outcome (succeeded with its counts, or failed with the
 * reason after the last retry) is audited in the transaction that records it; a normalization that
 * wrote anything queues a reconciliation run in that same transaction.
 */
import type { AuditActor } from '../../kernel/audit-record.ts'
import type { AuditRecorder } from '../../platform/commands/audit-sink.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import Type from 'typebox'
import { defineQueue, retryLimitOf, type AnyQueue, type JobHandler, type JobQueue, type PayloadOf } from '../../platform/jobs/job-queue.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { LedgerJobRow, LedgerStore } from './ledger.store.ts'
import { flatCounts } from './domain/outcomes.ts'
import type { Normalizer } from './normalize/normalizer.ts'
import { reconcileTenant } from './reconcile/reconcile.ts'

export interface LedgerJobDeps {
  readonly db: Database
  readonly store: LedgerStore
  readonly jobs: Pick<JobQueue, 'enqueue' | 'nudge'>
  readonly audit: AuditRecorder
  readonly ids: IdSource
  readonly clock: Clock
}

/** Normalizes parsed rows into the Ledger: one artifact's current rows, or one parsed row. */
export const ledgerNormalizeQueue = defineQueue({
  name: 'ledger-normalize',
  version: 1,
  payload: Type.Object(
    { tenant_id: Type.String(), job_id: Type.String(), artifact_id: Type.Optional(Type.String()), parsed_row_id: Type.Optional(Type.String()) },
    { additionalProperties: false },
  ),
  policy: { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 900 },
})

/** Runs reconciliation for a tenant. */
export const ledgerReconcileQueue = defineQueue({
  name: 'ledger-reconcile',
  version: 1,
  payload: Type.Object({ tenant_id: Type.String(), job_id: Type.String() }, { additionalProperties: false }),
  policy: { retryLimit: 2, retryDelay: 10, expireInSeconds: 900 },
})

export const ledgerQueues = [ledgerNormalizeQueue, ledgerReconcileQueue] as const

const normalizeActor: AuditActor = { type: 'system', id: 'ledger-normalize' }
const reconcileActor: AuditActor = { type: 'system', id: 'ledger-reconcile' }

/** A reconciliation job row and its queue entry, in the caller's transaction. */
export async function queueReconcile(deps: { store: LedgerStore; jobs: Pick<JobQueue, 'enqueue'>; ids: IdSource; clock: Clock }, tx: Tx, tenantId: string, createdBy: string): Promise<LedgerJobRow> {
  const row: LedgerJobRow = {
    id: deps.ids.newId('ledgerJob'),
    tenantId,
    kind: 'reconcile',
    status: 'queued',
    input: {},
    result: null,
    error: null,
    createdBy,
    createdAt: deps.clock.now(),
    startedAt: null,
    finishedAt: null,
  }
  await deps.store.insertJob(tx, row)
  await deps.jobs.enqueue(tx, ledgerReconcileQueue, { tenant_id: tenantId, job_id: row.id })
  return row
}

/**
 * The Ledger's intake: another module (Raw, once an artifact is extracted) asks for an artifact to be
 * normalized. In the caller's transaction: the job row (GET /v1/ledger/jobs/{job_id}) and its queue
 * entry, so the request exists exactly when the caller's change commits. Returns the job id.
 */
export async function queueNormalization(
  deps: { store: LedgerStore; jobs: Pick<JobQueue, 'enqueue'>; ids: IdSource; clock: Clock },
  tx: Tx,
  request: { tenantId: string; artifactId: string; createdBy: string },
): Promise<string> {
  const row: LedgerJobRow = {
    id: deps.ids.newId('ledgerJob'),
    tenantId: request.tenantId,
    kind: 'normalize',
    status: 'queued',
    input: { artifact_id: request.artifactId },
    result: null,
    error: null,
    createdBy: request.createdBy,
    createdAt: deps.clock.now(),
    startedAt: null,
    finishedAt: null,
  }
  await deps.store.insertJob(tx, row)
  await deps.jobs.enqueue(tx, ledgerNormalizeQueue, { tenant_id: request.tenantId, job_id: row.id, artifact_id: request.artifactId })
  return row.id
}

/**
 * Runs `work` for a tracked job: marks it running, then records the outcome. A failure before the last
 * retry puts the job back to queued (pg-boss retries it); the last one marks it failed.
 */
async function tracked<Result extends Record<string, unknown>>(
  deps: LedgerJobDeps,
  queue: AnyQueue,
  job: { retryCount: number },
  tenantId: string,
  jobId: string,
  actor: AuditActor,
  work: () => Promise<Result>,
  onSuccess?: (tx: Tx, result: Result) => Promise<void>,
) {
  const { db, store, audit, clock } = deps
  const row = await store.findJob(db.orm, tenantId, jobId)
  if (row === undefined || row.status === 'succeeded') return // the tenant is gone, or a crashed worker's job already finished
  await store.updateJob(db.orm, tenantId, jobId, { status: 'running', startedAt: clock.now(), error: null })
  let result: Result
  try {
    result = await work()
  } catch (error) {
    const lastAttempt = job.retryCount >= retryLimitOf(queue)
    const message = error instanceof Error ? error.message.slice(0, 500) : 'job failed'
    await db.transaction(async (tx) => {
      await store.updateJob(tx, tenantId, jobId, { status: lastAttempt ? 'failed' : 'queued', error: message, finishedAt: lastAttempt ? clock.now() : null })
      if (lastAttempt) {
        await audit.record(tx, { tenantId, layer: 'ledger', actor, action: `ledger.${row.kind}_failed`, entity: { type: 'ledger_job', id: jobId }, outputs: { error: message } })
      }
    })
    throw error
  }
  await db.transaction(async (tx) => {
    await store.updateJob(tx, tenantId, jobId, { status: 'succeeded', result, error: null, finishedAt: clock.now() })
    await audit.record(tx, { tenantId, layer: 'ledger', actor, action: `ledger.${row.kind}_succeeded`, entity: { type: 'ledger_job', id: jobId } })
    await onSuccess?.(tx, result)
  })
  deps.jobs.nudge(ledgerReconcileQueue)
}

export function createNormalizeHandler(deps: LedgerJobDeps & { normalizer: Normalizer }): JobHandler<PayloadOf<typeof ledgerNormalizeQueue>> {
  return async (job) => {
    const { tenant_id: tenantId, job_id: jobId, artifact_id: artifactId, parsed_row_id: parsedRowId } = job.data
    await tracked(
      deps,
      ledgerNormalizeQueue,
      job,
      tenantId,
      jobId,
      normalizeActor,
      async () => {
        if (artifactId !== undefined) return { ...(await deps.normalizer.normalizeArtifact(tenantId, artifactId, { actor: normalizeActor, jobId })) }
        const single = parsedRowId === undefined ? undefined : await deps.normalizer.normalizeParsedRow(tenantId, parsedRowId, { actor: normalizeActor, jobId })
        return { parsed_row_id: parsedRowId ?? null, entities: single?.entities.length ?? 0, rejected: single?.rejected ?? false }
      },
      async (tx, result) => {
        const counts = (result as { counts?: Parameters<typeof flatCounts>[0] }).counts ?? {}
        const wrote = Object.entries(flatCounts(counts)).some(([name, count]) => !name.endsWith('_unchanged') && count > 0)
        if (wrote) await queueReconcile(deps, tx, tenantId, normalizeActor.id)
      },
    )
  }
}

export function createReconcileHandler(deps: LedgerJobDeps): JobHandler<PayloadOf<typeof ledgerReconcileQueue>> {
  return async (job) => {
    const { tenant_id: tenantId, job_id: jobId } = job.data
    await tracked(deps, ledgerReconcileQueue, job, tenantId, jobId, reconcileActor, async () => ({
      ...(await reconcileTenant(deps, tenantId, { actor: reconcileActor, jobId })),
    }))
  }
}
