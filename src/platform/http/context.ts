import type { FastifyRequest } from 'fastify'
import type { CommandContext } from '../../kernel/context.ts'
import type { Principal } from '../../kernel/principal.ts'

export function contextOf(request: FastifyRequest): CommandContext {
  return { requestId: request.id, principal: request.principal ?? undefined }
}

/** The principal of a bearer route; the guard has already authenticated it. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error(`route ${request.routeOptions.url} used principalOf without bearer auth`)
  return request.principal
}
