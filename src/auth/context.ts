/**
 * What a command knows about its caller: who (the principal, if authenticated), and the request it came
 * in on, for audit attribution.
 */
import type { AuditActor } from '../audit/audit.recorder.ts'
import type { Principal } from './scopes.ts'

export interface CommandContext {
  readonly requestId: string
  readonly principal?: Principal | undefined
}

export function actorOf(principal: Principal): AuditActor {
  switch (principal.type) {
    case 'user':
      return { type: 'user', id: principal.id }
    case 'service':
      return { type: 'service', id: principal.credentialId }
    case 'api_key':
      return { type: 'api_key', id: principal.credentialId }
  }
}

/** For commands that require a principal: a missing one is a programming error, not a caller error. */
export function requirePrincipal(context: CommandContext): Principal {
  if (context.principal === undefined) throw new Error('command requires an authenticated principal')
  return context.principal
}
