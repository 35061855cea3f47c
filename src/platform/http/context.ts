import type { FastifyRequest } from 'fastify'
import type { CommandContext } from '../../kernel/context.ts'
import type { Principal } from '../../kernel/principal.ts'
import { idempotencyKeyOf } from './idempotency.ts'
import { assert } from '../../kernel/assert.ts'

/** What a command knows of the request: who, which request, and its Idempotency-Key. */
export function contextOf(request: FastifyRequest): CommandContext {
  return { requestId: request.id, principal: request.principal ?? undefined, idempotencyKey: idempotencyKeyOf(request) }
}

/** The principal of a bearer route; the guard has already authenticated it. */
export function principalOf(request: FastifyRequest): Principal {
  assert(request.principal !== null, `route ${request.routeOptions.url} used principalOf without bearer auth`)
  return request.principal
}
