/**
 * What a command knows about its caller: who (the principal, if authenticated), and the request it came
 * in on, for audit attribution.
 */
import { assert } from './assert.ts'
import type { AuditActor, AuditRecord } from './audit-record.ts'
import type { Principal } from './principal.ts'

export interface CommandContext {
  readonly requestId: string
  readonly principal?: Principal | undefined
  /**
   * The caller's Idempotency-Key, when it sent one: a command that changes something runs once per key
   * and input, and replays its outcome for a repeat (platform/commands/command.ts).
   */
  readonly idempotencyKey?: string | undefined
}

/**
 * The context for a command that takes no Idempotency-Key (its service says why): the command runs every
 * time and nothing is stored, whatever key the caller sent.
 */
export function withoutIdempotencyKey(context: CommandContext): CommandContext {
  return { ...context, idempotencyKey: undefined }
}

export function actorOf(principal: Principal): AuditActor {
  switch (principal.type) {
    case 'user':
      return { type: 'user', id: principal.id }
    case 'service':
      return { type: 'service', id: principal.credentialId }
    case 'api_key':
      return { type: 'api_key', id: principal.credentialId }
    case 'agent':
      return { type: 'agent', id: principal.id }
  }
}

/** For commands that require a principal: a missing one is a programming error, not a caller error. */
export function requirePrincipal(context: CommandContext): Principal {
  assert(context.principal !== undefined, 'command requires an authenticated principal')
  return context.principal
}

/**
 * The audit record of a command made by the context's principal: its tenant, its actor and the request
 * it came in on are filled in, so a service states only what happened. Layer `audit` unless given.
 */
export function auditedBy(
  context: CommandContext,
  event: Omit<AuditRecord, 'tenantId' | 'actor' | 'requestId' | 'layer'> & Partial<Pick<AuditRecord, 'layer'>>,
): AuditRecord {
  const principal = requirePrincipal(context)
  return { tenantId: principal.tenantId, layer: 'audit', actor: actorOf(principal), requestId: context.requestId, ...event }
}

/** Where the service runs: the sandbox (test network, no real money) or production. */
export type StewardEnvironment = 'sandbox' | 'production'
