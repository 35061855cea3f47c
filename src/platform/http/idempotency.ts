/**
 * Idempotency-Key for commands a client may need to retry safely (webhook replay now, the governance
 * report snapshot next).
 *
 * Keys are tenant-scoped and stored with a hash of the request (method, route, path and query
 * parameters, body, as RFC 8785 canonical JSON): the same key with the same request replays the stored
 * status and body without running the command again (the response carries `Idempotent-Replayed: true`);
 * the same key with a different request is 409 `idempotency_key_reused`.
 *
 * The key is reserved before the command runs, so two identical requests racing each other execute it
 * once: the loser gets 409 `idempotency_request_in_progress` and retries. Only successful responses are
 * stored: if the command fails the reservation is released and a retry runs it afresh. A reservation
 * older than `reservationSecondsMax` is taken to belong to a process that died and may be taken over.
 * Stored keys do not expire; they are deleted with their tenant.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import Type from 'typebox'
import type { Database, Executor } from '../db/database.ts'
import type { Clock } from '../../kernel/clock.ts'
import { AppError } from '../../kernel/errors.ts'
import { canonicalJson, sha256Hex } from '../../kernel/hashing.ts'

export const idempotencyKeyCharsMax = 255
/** Visible ASCII, no spaces: UUIDs, ULIDs and the like. */
export const idempotencyKeyPattern = '^[\\x21-\\x7E]+$'
const keyPattern = new RegExp(idempotencyKeyPattern)
/** A reservation left this long without a response belongs to a request that died. */
export const reservationSecondsMax = 300
/** The response status of a reservation whose command is still running. */
export const pendingStatus = 0
/** Reserve, find and take-over rounds before giving up on a key that keeps changing under us. */
const claimRoundsMax = 3

/** The header as route schemas declare it (headers stay open: other headers are not refused). */
export const IdempotencyKeyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: idempotencyKeyCharsMax,
      pattern: idempotencyKeyPattern,
      description: `Optional, 1 to ${idempotencyKeyCharsMax} visible ASCII characters. The same key with the same request replays the first response; with a different request it is 409 idempotency_key_reused.`,
    }),
  ),
})

export interface StoredResponse {
  readonly status: number
  readonly body: unknown
}

export interface IdempotencyRecord {
  readonly requestHash: string
  readonly responseStatus: number
  readonly responseBody: unknown
  readonly createdAt: Date
}

export interface IdempotencyKeyRef {
  readonly tenantId: string
  /** Separates surfaces whose requests are fingerprinted differently (`http`, an agent-protocol tool, …). */
  readonly scope: string
  readonly key: string
}

/** What the helper needs from storage (`idempotency.store.pg.ts`). */
export interface IdempotencyStore {
  /** Inserts a pending reservation; false if the key exists. */
  reserve(executor: Executor, ref: IdempotencyKeyRef, requestHash: string, at: Date): Promise<boolean>
  find(executor: Executor, ref: IdempotencyKeyRef): Promise<IdempotencyRecord | undefined>
  /** Re-dates a pending reservation created before `staleBefore`; false if it is not (or no longer) stale. */
  takeOver(executor: Executor, ref: IdempotencyKeyRef, staleBefore: Date, at: Date): Promise<boolean>
  complete(executor: Executor, ref: IdempotencyKeyRef, response: StoredResponse): Promise<void>
  /** Deletes the reservation if it is still pending. */
  release(executor: Executor, ref: IdempotencyKeyRef): Promise<void>
}

export interface Idempotency {
  /**
   * Runs `work` once per key and request; with no key, simply runs it. Throws 409
   * idempotency_key_reused or idempotency_request_in_progress, or 400 for a malformed key.
   */
  run(request: Omit<IdempotencyKeyRef, 'key'> & { readonly key: string | undefined; readonly fingerprint: string }, work: () => Promise<StoredResponse>): Promise<StoredResponse & { replayed: boolean }>
}

/** The request hash: what makes two requests "the same request". */
export function requestFingerprint(parts: { method: string; route: string; params: unknown; query: unknown; body: unknown }): string {
  return sha256Hex(canonicalJson({ method: parts.method, route: parts.route, params: parts.params ?? {}, query: parts.query ?? {}, body: parts.body ?? null }))
}

export function assertIdempotencyKey(key: string): void {
  if (key.length < 1 || key.length > idempotencyKeyCharsMax || !keyPattern.test(key)) {
    throw new AppError('request_params_invalid', `Idempotency-Key must be 1 to ${idempotencyKeyCharsMax} visible ASCII characters.`, {
      issues: [{ path: '/idempotency-key', message: 'is not a valid idempotency key', keyword: 'pattern' }],
    })
  }
}

export function createIdempotency(deps: { db: Database; clock: Clock; store: IdempotencyStore }): Idempotency {
  const { db, clock, store } = deps

  /** Claims the key for this request, or returns the stored response to replay. */
  async function claim(ref: IdempotencyKeyRef, fingerprint: string): Promise<{ owned: true } | { owned: false; response: StoredResponse }> {
    for (let round = 0; round < claimRoundsMax; round += 1) {
      const at = clock.now()
      if (await store.reserve(db.orm, ref, fingerprint, at)) return { owned: true }
      const existing = await store.find(db.orm, ref)
      if (existing === undefined) continue // released between our insert and our read: try again
      if (existing.requestHash !== fingerprint) throw new AppError('idempotency_key_reused')
      if (existing.responseStatus !== pendingStatus) return { owned: false, response: { status: existing.responseStatus, body: existing.responseBody } }
      const staleBefore = new Date(at.getTime() - reservationSecondsMax * 1000)
      if (existing.createdAt.getTime() >= staleBefore.getTime()) throw new AppError('idempotency_request_in_progress')
      if (await store.takeOver(db.orm, ref, staleBefore, at)) return { owned: true }
    }
    throw new AppError('idempotency_request_in_progress')
  }

  return {
    async run(request, work) {
      if (request.key === undefined) return { ...(await work()), replayed: false }
      assertIdempotencyKey(request.key)
      const ref = { tenantId: request.tenantId, scope: request.scope, key: request.key }
      const claimed = await claim(ref, request.fingerprint)
      if (!claimed.owned) return { ...claimed.response, replayed: true }
      let response: StoredResponse
      try {
        response = await work()
      } catch (error) {
        await store.release(db.orm, ref).catch(() => undefined)
        throw error
      }
      await store.complete(db.orm, ref, response)
      return { ...response, replayed: false }
    },
  }
}

/**
 * The HTTP edge: reads `Idempotency-Key`, fingerprints the request, and sends either the stored
 * response or the one `work` produces.
 */
export async function sendIdempotent(
  idempotency: Idempotency,
  request: FastifyRequest,
  reply: FastifyReply,
  tenantId: string,
  work: () => Promise<StoredResponse>,
): Promise<FastifyReply> {
  const header = request.headers['idempotency-key']
  const key = Array.isArray(header) ? header.join(',') : header
  const fingerprint = requestFingerprint({
    method: request.method,
    route: request.routeOptions.url ?? request.url,
    params: request.params,
    query: request.query,
    body: request.body,
  })
  const result = await idempotency.run({ tenantId, scope: 'http', key, fingerprint }, work)
  if (result.replayed) reply.header('idempotent-replayed', 'true')
  return reply.code(result.status).send(result.body)
}
