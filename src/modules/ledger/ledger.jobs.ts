/**
 * The Ledger's durable jobs. Each tracks its run in a `ledger_jobs` row (GET /v1/ledger/jobs/{job_id}):
 * queued → running → succeeded | failed. A job's outcome (succeeded with its counts, or failed with the
 * reason after the last retry) is committed through the command runner (`commands.commit`) in the
 * transaction that records it, as a caller's command is: its audit event and, for a normalization that
 * wrote anything, the reconciliation run it queues.
 */
import type { AuditActor, AuditRecord } from '../../kernel/audit-record.ts'
import type { CommandRunner, PendingJob } from '../../platform/commands/command.ts'
import type { Database, Executor, Tx } from '../../platform/db/database.ts'
import Type from 'typebox'
import { defineQueue, retryLimitOf, type AnyQueue, type JobHandler, type JobQueue, type PayloadOf } from '../../platform/jobs/job-queue.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { LedgerJobRow, LedgerStore } from './ledger.store.ts'
import { flatCounts } from './domain/outcomes.ts'
import type { Normalizer, RunProgress } from './normalize/normalizer.ts'
import { reconcileTenant } from './reconcile/reconcile.ts'

export interface LedgerJobDeps {
  readonly db: Database
  readonly store: LedgerStore
  /** Commits each job's outcome: its audit event and the jobs it queues. */
  readonly commands: Pick<CommandRunner, 'commit'>
  /** Wakes this process's reconciliation workers after a commit that queued one. */
  readonly jobs: Pick<JobQueue, 'nudge'>
  readonly ids: IdSource
  readonly clock: Clock
  /** Who else is told that a job wrote to the Ledger (LedgerWriteListener); none by default. */
  readonly afterWrite?: LedgerWriteListener | undefined
}

/**
 * A generic hook for modules downstream of the Ledger (the memory module's page regeneration): called in
 * the transaction of a Ledger write — a normalization or reconciliation job's success when the job wrote
 * anything (created or superseded a record), or a counterparty trust transition — and returns the jobs to
 * commit with it. `ref` names the write: the Ledger job's id, or the counterparty's. The Ledger knows
 * nothing of who listens; composition plugs the listener in.
 */
export type LedgerWriteListener = (tx: Tx, notice: LedgerWriteNotice) => Promise<readonly PendingJob[]>

export interface LedgerWriteNotice {
  readonly tenantId: string
  readonly kind: 'normalize' | 'reconcile' | 'trust'
  readonly ref: string
}

/** Whether a job's counts say it wrote anything (a created or superseded record, not only unchanged ones). */
function wroteAny(result: unknown): boolean {
  const counts = (result as { counts?: Parameters<typeof flatCounts>[0] } | null)?.counts ?? {}
  return Object.entries(flatCounts(counts)).some(([name, count]) => !name.endsWith('_unchanged') && count > 0)
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

/**
 * A reconciliation job row, written in the caller's transaction, and its queue entry for the caller's
 * commit (`commands.commit` or the `jobs` of a command's work) to enqueue.
 */
export async function newReconcileJob(
  deps: { store: LedgerStore; ids: IdSource; clock: Clock },
  tx: Tx,
  tenantId: string,
  createdBy: string,
): Promise<{ row: LedgerJobRow; job: PendingJob<PayloadOf<typeof ledgerReconcileQueue>> }> {
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
    progress: null,
  }
  await deps.store.insertJob(tx, row)
  return { row, job: { queue: ledgerReconcileQueue, payload: { tenant_id: tenantId, job_id: row.id } } }
}

/**
 * The Ledger's intake: another module (Raw, once an artifact is extracted) asks for an artifact to be
 * normalized. In the caller's transaction: the job row (GET /v1/ledger/jobs/{job_id}) and its queue
 * entry, so the request exists exactly when the caller's change commits. Returns the job id.
 */
export async function queueNormalization(
  deps: { store: LedgerStore; commands: Pick<CommandRunner, 'commit'>; ids: IdSource; clock: Clock },
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
    progress: null,
  }
  await deps.store.insertJob(tx, row)
  // The caller's transaction, committed with the caller's change; the request itself is not audited (the
  // caller audits its own change, and the job audits its outcome).
  await deps.commands.commit(tx, request.tenantId, { jobs: [{ queue: ledgerNormalizeQueue, payload: { tenant_id: request.tenantId, job_id: row.id, artifact_id: request.artifactId } }] })
  return row.id
}

/**
 * Runs `work` for a tracked job: marks it running, then records the outcome. A failure before the last
 * retry puts the job back to queued (pg-boss retries it); the last one marks it failed and audits
 * `ledger.<kind>_failed`. Success audits `ledger.<kind>_succeeded` and commits the jobs `onSuccess`
 * queues, in the transaction that marks the job succeeded.
 */
async function tracked<Result extends Record<string, unknown>>(
  deps: LedgerJobDeps,
  queue: AnyQueue,
  job: { retryCount: number },
  tenantId: string,
  jobId: string,
  actor: AuditActor,
  work: () => Promise<Result>,
  onSuccess?: (tx: Tx, result: Result) => Promise<readonly PendingJob[]>,
) {
  const { db, store, commands, clock } = deps
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
      const failed: AuditRecord = { tenantId, layer: 'ledger', actor, action: `ledger.${row.kind}_failed`, entity: { type: 'ledger_job', id: jobId }, outputs: { error: message } }
      await commands.commit(tx, tenantId, { audit: lastAttempt ? [failed] : [] })
    })
    throw error
  }
  await db.transaction(async (tx) => {
    await store.updateJob(tx, tenantId, jobId, { status: 'succeeded', result, error: null, finishedAt: clock.now() })
    const jobs = (await onSuccess?.(tx, result)) ?? []
    await commands.commit(tx, tenantId, { audit: [{ tenantId, layer: 'ledger', actor, action: `ledger.${row.kind}_succeeded`, entity: { type: 'ledger_job', id: jobId } }], jobs })
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
        if (artifactId !== undefined) {
          // The job's progress moves with each batch, in the batch's transaction (GET /v1/raw shows it).
          const onProgress = (executor: Executor, progress: RunProgress) => deps.store.updateJob(executor, tenantId, jobId, { progress })
          return { ...(await deps.normalizer.normalizeArtifact(tenantId, artifactId, { actor: normalizeActor, jobId, onProgress })) }
        }
        const single = parsedRowId === undefined ? undefined : await deps.normalizer.normalizeParsedRow(tenantId, parsedRowId, { actor: normalizeActor, jobId })
        return { parsed_row_id: parsedRowId ?? null, entities: single?.entities.length ?? 0, rejected: single?.rejected ?? false }
      },
      async (tx, result) => {
        if (!wroteAny(result)) return []
        const listened = (await deps.afterWrite?.(tx, { tenantId, kind: 'normalize', ref: jobId })) ?? []
        return [(await newReconcileJob(deps, tx, tenantId, normalizeActor.id)).job, ...listened]
      },
    )
  }
}

export function createReconcileHandler(deps: LedgerJobDeps): JobHandler<PayloadOf<typeof ledgerReconcileQueue>> {
  return async (job) => {
    const { tenant_id: tenantId, job_id: jobId } = job.data
    await tracked(
      deps,
      ledgerReconcileQueue,
      job,
      tenantId,
      jobId,
      reconcileActor,
      async () => ({ ...(await reconcileTenant(deps, tenantId, { actor: reconcileActor, jobId })) }),
      async (tx, result) => (wroteAny(result) ? ((await deps.afterWrite?.(tx, { tenantId, kind: 'reconcile', ref: jobId })) ?? []) : []),
    )
  }
}
