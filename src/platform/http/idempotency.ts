/**
 * The HTTP edge of idempotency (platform/commands/command.ts holds the semantics): the header as route
 * schemas declare it, reading it, and saying so when a response is a replay.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import Type from 'typebox'
import { idempotencyKeyCharsMax, idempotencyKeyPattern } from '../commands/idempotency.ts'

/** The header as route schemas declare it (headers stay open: other headers are not refused). */
export const IdempotencyKeyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: idempotencyKeyCharsMax,
      pattern: idempotencyKeyPattern,
      description: `Optional, 1 to ${idempotencyKeyCharsMax} visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused.`,
    }),
  ),
})

/** The request's Idempotency-Key, if it sent one. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key']
  return Array.isArray(header) ? header.join(',') : header
}

/** Marks a replayed outcome's response. */
export function markReplayed(reply: FastifyReply, replayed: boolean): FastifyReply {
  if (replayed) reply.header('idempotent-replayed', 'true')
  return reply
}
