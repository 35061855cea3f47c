/**
 * Idempotency keys of commands (see command.ts for the semantics). Keys are tenant-scoped and scoped by
 * command and credential (`command:<name>:<principal type>:<credential id>`, command.ts keyScopeOf; a
 * public route's `command:<name>`); each is stored with a hash of the request and, once its command committed,
 * the command's outcome. Stored keys do not expire; they are deleted with their tenant.
 *
 * Most commands claim and complete their key inside their own transaction (`claim`, `complete`). A
 * command that cannot run in one transaction (webhook replay: network calls between short
 * transactions) reserves its key first and completes it after (`runReserved`): an identical request
 * racing it gets 409 `idempotency_request_in_progress`; a failure releases the key; a reservation older
 * than `reservationSecondsMax` belongs to a process that died and may be taken over.
 */
import type { Clock } from '../../kernel/clock.ts'
import { AppError } from '../../kernel/errors.ts'
import type { Database, Executor, Tx } from '../db/database.ts'

export const idempotencyKeyCharsMax = 255
/** Visible ASCII, no spaces: UUIDs, ULIDs and the like. */
export const idempotencyKeyPattern = '^[\\x21-\\x7E]+$'
/** A reservation left this long without an outcome belongs to a request that died. */
export const reservationSecondsMax = 300
/** `response_status` of a key whose command has not committed (a reservation). */
export const pendingStatus = 0
/** `response_status` of a key whose command committed; `response_body` holds its outcome. */
export const completedStatus = 1
/** Reserve, find and take-over rounds before giving up on a key that keeps changing under us. */
const claimRoundsMax = 3

export interface IdempotencyKeyRef {
  readonly tenantId: string
  /** `command:<name>[:<principal type>:<credential id>]`: two commands, or two credentials, never share a key. */
  readonly scope: string
  readonly key: string
}

export interface IdempotencyRecord {
  readonly requestHash: string
  readonly responseStatus: number
  readonly responseBody: unknown
  readonly createdAt: Date
}

export type ClaimResult = { readonly kind: 'claimed' } | { readonly kind: 'stored'; readonly requestHash: string; readonly outcome: unknown }

/** What idempotency needs from storage (`idempotency.store.pg.ts`). */
export interface IdempotencyStore {
  /**
   * In the command's transaction: claims the key (a pending row, committed or rolled back with the
   * command), or returns the committed record of an earlier run. A concurrent claim of the same key
   * makes this wait until that transaction ends.
   */
  claim(tx: Tx, ref: IdempotencyKeyRef, requestHash: string, at: Date): Promise<ClaimResult>
  /** Stores the outcome of the command that claimed or reserved the key. */
  complete(executor: Executor, ref: IdempotencyKeyRef, outcome: unknown): Promise<void>
  /** Inserts a pending reservation outside any command transaction; false if the key exists. */
  reserve(executor: Executor, ref: IdempotencyKeyRef, requestHash: string, at: Date): Promise<boolean>
  find(executor: Executor, ref: IdempotencyKeyRef): Promise<IdempotencyRecord | undefined>
  /** Re-dates a pending reservation created before `staleBefore`; false if it is not (or no longer) stale. */
  takeOver(executor: Executor, ref: IdempotencyKeyRef, staleBefore: Date, at: Date): Promise<boolean>
  /** Deletes the reservation if it is still pending. */
  release(executor: Executor, ref: IdempotencyKeyRef): Promise<void>
}

/**
 * For a command that cannot run in one transaction: runs `work` once per key and request (see the
 * module comment). Returns the outcome, stored or fresh.
 */
export async function runReserved<Outcome>(
  deps: { db: Database; clock: Clock; store: IdempotencyStore },
  ref: IdempotencyKeyRef,
  requestHash: string,
  work: () => Promise<Outcome>,
): Promise<{ outcome: Outcome; replayed: boolean }> {
  const { db, clock, store } = deps
  let owned = false
  for (let round = 0; round < claimRoundsMax && !owned; round += 1) {
    const at = clock.now()
    if (await store.reserve(db.orm, ref, requestHash, at)) {
      owned = true
      break
    }
    const existing = await store.find(db.orm, ref)
    if (existing === undefined) continue // released between our insert and our read: try again
    if (existing.requestHash !== requestHash) throw new AppError('idempotency_key_reused')
    if (existing.responseStatus !== pendingStatus) return { outcome: existing.responseBody as Outcome, replayed: true }
    const staleBefore = new Date(at.getTime() - reservationSecondsMax * 1000)
    if (existing.createdAt.getTime() >= staleBefore.getTime()) throw new AppError('idempotency_request_in_progress')
    owned = await store.takeOver(db.orm, ref, staleBefore, at)
  }
  if (!owned) throw new AppError('idempotency_request_in_progress')
  let outcome: Outcome
  try {
    outcome = JSON.parse(JSON.stringify((await work()) ?? null)) as Outcome
  } catch (error) {
    await store.release(db.orm, ref).catch(() => undefined)
    throw error
  }
  await store.complete(db.orm, ref, outcome)
  return { outcome, replayed: false }
}
