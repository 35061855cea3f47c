/**
 * The sequencer links recorded audit events into each tenant's hash chain, then seals the chain into
 * Merkle batches ("anchors").
 *
 * Recording (audit.recorder.ts) is one lock-free INSERT into `audit_inbox` in the business transaction.
 * Here, per tenant and under the tenant's chain-head row lock: the oldest inbox events, in recorded
 * order, get `seq` = head + 1, + 2, …, `prev_hash` and `hash` and move into `audit_events`, sealed
 * (insert-only; the inbox row may leave only once its sealed copy is there); then every full batch (`batchEventsMax` events), or a partial one whose oldest event has waited
 * `batchWaitSeconds`, becomes an anchor row holding its Merkle root and tree. One lock per tenant means
 * no fork and no gap, across requests and server processes; many events per transaction means a busy
 * tenant is linked in bulk. One transaction takes up to `tenantsPerTransactionMax` tenants together (their
 * heads locked in tenant order by one statement, their events read, sealed and their heads moved with
 * one statement each), so many busy tenants cost a few statements, not a pass each.
 *
 * What wakes it: a NOTIFY from recording transactions (delivered on commit, paced by the recorder), and
 * a timer every `sweepIntervalMs` for anything a notification missed (a restart, a dropped listener
 * connection, a paced-out notification) and for batches whose wait has run out.
 */
import type { Logger } from 'pino'
import type { Database, Tx } from '../../platform/db/database.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'
import { auditAppendedChannel } from './audit.recorder.ts'
import type { AuditStore, ChainEventRow, ChainHead, EventSeal, InboxEventRow } from './audit.store.ts'
import { hashAuditEvent } from './domain/chain.ts'
import { type ActorType, type AuditFields } from '../../kernel/audit-record.ts'
import { buildTree, leafOf, packTree, rootOf } from './domain/merkle.ts'
import { anchorPublishQueue } from './audit.jobs.ts'
import { assert } from '../../kernel/assert.ts'

/** Events linked per transaction: bounds lock hold time and memory under a backlog. */
export const sequencedEventsPerTransactionMax = 2_000
/** A cutoff later than any event: every unbatched event counts as having waited long enough. */
const endOfTime = new Date('9999-12-31T00:00:00.000Z')
/** Tenants picked up per sweep query. */
const sweepTenantsMax = 1_000
/** Tenants whose heads one sequencing transaction locks (and whose events it links together). */
export const tenantsPerTransactionMax = 100

export type AnchoringMode = 'database_hash_chain' | 'onchain_merkle_root'

export interface SequencerOptions {
  readonly batchEventsMax: number
  readonly batchWaitSeconds: number
  readonly anchoringMode: AnchoringMode
  readonly sweepIntervalMs: number
}

export interface SettleResult {
  readonly sequenced: number
  readonly anchorsCreated: number
}

export interface AuditSequencer {
  /**
   * Links every pending event of the tenant and closes every due batch; with `closeOpenBatch`, also the
   * partial batch at the end of the chain (tests, and operators who want a root now).
   */
  settleTenant(tenantId: string, options?: { closeOpenBatch?: boolean }): Promise<SettleResult>
  /** Settles every tenant with pending events or a due batch. */
  sweep(options?: { closeOpenBatch?: boolean }): Promise<SettleResult>
  /** Listens for recordings and sweeps periodically until stop(). */
  start(): Promise<void>
  stop(): Promise<void>
}

/** The hashed form of an event's stored content, at a chain position. */
export function toEventBody(row: InboxEventRow | ChainEventRow, seq: number, prevHash: string) {
  return {
    id: row.id,
    tenantId: row.tenantId,
    seq,
    layer: row.layer,
    actor: { type: row.actorType as ActorType, id: row.actorId },
    action: row.action,
    entity: { type: row.entityType, id: row.entityId },
    inputs: row.inputs as AuditFields,
    outputs: row.outputs as AuditFields,
    evidenceIds: row.evidenceIds,
    requestId: row.requestId,
    createdAt: row.createdAt,
    prevHash,
  }
}

export function createAuditSequencer(deps: {
  db: Database
  store: AuditStore
  jobs: JobQueue
  ids: IdSource
  clock: Clock
  logger: Logger
  options: SequencerOptions
}): AuditSequencer {
  const { db, store, clock, options } = deps
  let wanted = false
  /** A timer's (or the start's) wake-up is pending: the next sweep also looks for due batches. */
  let dueWanted = false
  let running: Promise<void> | undefined
  let sweepTimer: NodeJS.Timeout | undefined
  let stopListening: (() => Promise<void>) | undefined
  let stopped = true

  /**
   * Seals the tenants' pending events into their chains (at most sequencedEventsPerTransactionMax in
   * all, each tenant's oldest first); answers the new heads, the record time of each event linked, by
   * tenant and seq, and how many were linked. Runs under the heads' locks.
   */
  async function link(tx: Tx, tenantIds: readonly string[], heads: Map<string, ChainHead>) {
    const pending = await store.unsequenced(tx, tenantIds, sequencedEventsPerTransactionMax)
    const seals: EventSeal[] = []
    const linkedAt = new Map<string, Date>()
    const next = new Map(heads)
    for (const row of pending) {
      const head = next.get(row.tenantId)
      assert(head !== undefined, `inbox event ${row.id} of tenant ${row.tenantId}, whose head is not locked`)
      const seq = head.seq + 1
      const sealed = hashAuditEvent(toEventBody(row, seq, head.hash))
      seals.push({ tenantId: row.tenantId, id: row.id, seq, prevHash: head.hash, hash: sealed })
      next.set(row.tenantId, { ...head, seq, hash: sealed })
      linkedAt.set(`${row.tenantId}:${seq}`, row.createdAt)
    }
    await store.seal(tx, seals, clock.now())
    return { heads: next, linkedAt, linked: pending.length }
  }

  /** Closes due batches (and the open one if asked); returns the new head and how many anchors were made. */
  async function closeBatches(tx: Tx, tenantId: string, head: ChainHead, closeOpenBatch: boolean, openedAt: Date | undefined): Promise<{ head: ChainHead; anchors: number }> {
    let batchedSeq = head.batchedSeq
    let anchors = 0
    const cutoff = clock.now().getTime() - options.batchWaitSeconds * 1000
    while (head.seq > batchedSeq) {
      const seqTo = Math.min(batchedSeq + options.batchEventsMax, head.seq)
      const full = seqTo - batchedSeq === options.batchEventsMax
      if (!full && !closeOpenBatch) {
        // An open batch closes once its first event has waited long enough: only that event's time is
        // needed (reading the whole open batch on every run cost about 70 rows read per event sequenced),
        // which the caller knows when it is the batch's first (read with the other tenants' beforehand).
        const opening = batchedSeq === head.batchedSeq && openedAt !== undefined ? openedAt : (await store.chainSlice(tx, tenantId, batchedSeq + 1, batchedSeq + 1))[0]?.createdAt
        assert(opening !== undefined, `audit chain of ${tenantId} has a gap at ${batchedSeq + 1}`)
        if (opening.getTime() > cutoff) break
      }
      const slice = await store.chainSlice(tx, tenantId, batchedSeq + 1, seqTo)
      const first = slice[0]
      const last = slice.at(-1)
      assert(first !== undefined && last !== undefined && slice.length === seqTo - batchedSeq, `audit chain of ${tenantId} has a gap in ${batchedSeq + 1}..${seqTo}`)
      const tree = buildTree(slice.map((event) => leafOf(event.hash)))
      await store.insertAnchor(tx, {
        id: deps.ids.newId('auditAnchor'),
        tenantId,
        seqFrom: first.seq,
        seqTo: last.seq,
        eventCount: slice.length,
        merkleRoot: rootOf(tree),
        tree: packTree(tree),
        periodStart: first.createdAt,
        periodEnd: last.createdAt,
        anchoringMode: options.anchoringMode,
        createdAt: clock.now(),
      })
      batchedSeq = seqTo
      anchors += 1
    }
    return { head: { ...head, batchedSeq }, anchors }
  }

  /**
   * Links every pending event of the tenants and closes every due batch, in transactions that each take
   * the heads of all of them (one statement of each kind per transaction, whatever the number of
   * tenants: a busy system with many tenants is sequenced in a few statements, not a pass per tenant).
   */
  async function settleTenants(tenantIds: readonly string[], settleOptions: { closeOpenBatch?: boolean } = {}): Promise<SettleResult> {
    const tenants = [...new Set(tenantIds)].sort()
    const closeOpenBatch = settleOptions.closeOpenBatch === true
    let sequenced = 0
    let anchorsCreated = 0
    if (tenants.length === 0) return { sequenced, anchorsCreated }
    for (;;) {
      const step = await db.transaction(async (tx) => {
        const locked = await store.lockHeads(tx, tenants)
        const linked = await link(tx, tenants, locked)
        // The first event of each open batch, when it was not linked just now: read for every tenant at once.
        const opening = (tenantId: string) => ({ tenantId, seq: linked.heads.get(tenantId)!.batchedSeq + 1 })
        const openings = tenants.filter((tenantId) => {
          const head = linked.heads.get(tenantId)!
          return !closeOpenBatch && head.seq > head.batchedSeq && !linked.linkedAt.has(`${tenantId}:${head.batchedSeq + 1}`)
        })
        const openedAt = new Map(linked.linkedAt)
        for (const event of await store.eventTimes(tx, openings.map(opening))) openedAt.set(`${event.tenantId}:${event.seq}`, event.createdAt)
        const changed = new Map<string, ChainHead>()
        let anchors = 0
        for (const tenantId of tenants) {
          const head = linked.heads.get(tenantId)!
          const closed = await closeBatches(tx, tenantId, head, closeOpenBatch, openedAt.get(`${tenantId}:${head.batchedSeq + 1}`))
          if (closed.head.seq !== locked.get(tenantId)!.seq || closed.anchors > 0) changed.set(tenantId, closed.head)
          anchors += closed.anchors
        }
        await store.updateHeads(tx, changed)
        // Publication happens after commit, by the singleton publisher job enqueued with the anchors.
        if (anchors > 0 && options.anchoringMode === 'onchain_merkle_root') await deps.jobs.enqueue(tx, anchorPublishQueue, {})
        return { linked: linked.linked, anchors }
      })
      sequenced += step.linked
      anchorsCreated += step.anchors
      if (step.linked < sequencedEventsPerTransactionMax) return { sequenced, anchorsCreated }
    }
  }

  /**
   * `dueBatches: false` looks only for pending events: the tenants it links have their due batches closed
   * in the same transaction, so the search for batches that came due with no new event (a scan of every
   * chain head) is left to the timer's sweeps; a recording's wake-up under load skips it.
   */
  async function sweep(sweepOptions: { closeOpenBatch?: boolean; dueBatches?: boolean } = {}): Promise<SettleResult> {
    const cutoff = new Date(clock.now().getTime() - options.batchWaitSeconds * 1000)
    const due = sweepOptions.dueBatches === false ? [] : await store.tenantsWithDueBatches(db.orm, options.batchEventsMax, sweepOptions.closeOpenBatch === true ? endOfTime : cutoff, sweepTenantsMax)
    const tenants = [...new Set([...(await store.tenantsWithUnsequenced(db.orm, sweepTenantsMax)), ...due])].sort()
    let sequenced = 0
    let anchorsCreated = 0
    for (let start = 0; start < tenants.length; start += tenantsPerTransactionMax) {
      const result = await settleTenants(tenants.slice(start, start + tenantsPerTransactionMax), sweepOptions)
      sequenced += result.sequenced
      anchorsCreated += result.anchorsCreated
    }
    return { sequenced, anchorsCreated }
  }

  /**
   * One sweep at a time per process. A wake-up during a sweep asks for another, and a sweep that found
   * work sweeps again, so a busy system is drained continuously and an idle one waits for the next
   * notification or timer.
   */
  function wake(wakeOptions: { dueBatches: boolean }): void {
    wanted = true
    if (wakeOptions.dueBatches) dueWanted = true
    if (running !== undefined || stopped) return
    running = (async () => {
      while (wanted && !stopped) {
        wanted = false
        const dueBatches = dueWanted
        dueWanted = false
        try {
          const result = await sweep({ dueBatches })
          if (result.sequenced > 0 || result.anchorsCreated > 0) wanted = true
          // A search that closed batches may have left more (it takes sweepTenantsMax tenants at a time): search again.
          if (dueBatches && result.anchorsCreated > 0) dueWanted = true
        } catch (error) {
          deps.logger.error({ err: error }, 'audit sweep failed; the next wake-up retries')
        }
      }
    })().finally(() => {
      running = undefined
    })
  }

  return {
    settleTenant: (tenantId, settleOptions) => settleTenants([tenantId], settleOptions),
    sweep,
    async start() {
      stopped = false
      stopListening = await db.listen(auditAppendedChannel, () => wake({ dueBatches: false }))
      sweepTimer = setInterval(() => wake({ dueBatches: true }), options.sweepIntervalMs)
      wake({ dueBatches: true })
    },
    async stop() {
      stopped = true
      if (sweepTimer !== undefined) clearInterval(sweepTimer)
      await stopListening?.()
      await running
    },
  }
}
