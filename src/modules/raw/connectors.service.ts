/**
 * Provider connections, configured out of band (`npm run connectors`, scripts/connectors.ts): each binds
 * a provider account (the `X-Provider-Account` of its webhooks) to a tenant, with the secret its webhooks
 * are signed with. There is no HTTP surface for them (spec: "connectors are configured out of band").
 *
 * Lifecycle: active ⇄ paused, either → revoked. `add` on a revoked connection of the same tenant
 * re-activates it with a new secret. Secrets are shown once (add, rotate-secret); a rotation replaces the
 * secret at once (there is no overlap: the provider must switch when told). Every change is a command
 * (`name(context, input)`, run by the command runner): audited (layer raw, actor system `connectors-cli`)
 * and announced (raw.source.status_changed) in its one commit. The CLI has no request: its context's
 * request id is not recorded, and it sends no Idempotency-Key. `add` and `rotateSecret` take none
 * whoever calls them: their stored outcome would keep the connection's secret (a caller that needs them
 * replayable would derive the secret from a stored seed, as kernel/secrets.ts does for API keys).
 */
import { randomBytes } from 'node:crypto'
import type { AuditRecord } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { type CommandContext, withoutIdempotencyKey } from '../../kernel/context.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandResult, CommandRunner, CommandWork } from '../../platform/commands/command.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import type { Provider } from './domain/source-types.ts'
import type { ConnectionRow, RawStore } from './raw.store.ts'
import type { RawTenants } from './ports.ts'

export const accountRefPattern = /^[A-Za-z0-9._:@-]{1,128}$/

export type ConnectionChange = 'added' | 'paused' | 'resumed' | 'revoked' | 'secret_rotated'

export interface ConnectionView {
  connection_id: string
  tenant_id: string
  provider: Provider
  account_ref: string
  status: ConnectionRow['status']
  created_at: string
  updated_at: string
}

/** An operator's mistake (unknown tenant, a connection that does not exist or cannot make the move). */
export class ConnectorError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConnectorError'
  }
}

/** Which connection a command acts on: a provider account of a tenant. */
export interface ConnectionInput {
  readonly tenantId: string
  readonly provider: Provider
  readonly accountRef: string
}

export interface ConnectionWithSecret {
  connection: ConnectionView
  /** The signing secret (`psk_…`): returned by add and rotateSecret only. */
  secret: string
}

export interface ConnectorsService {
  add(context: CommandContext, input: ConnectionInput): Promise<CommandResult<ConnectionWithSecret>>
  list(tenantId: string): Promise<ConnectionView[]>
  change(context: CommandContext, input: ConnectionInput & { readonly move: 'pause' | 'resume' | 'revoke' }): Promise<CommandResult<{ connection: ConnectionView; changed: boolean }>>
  rotateSecret(context: CommandContext, input: ConnectionInput): Promise<CommandResult<ConnectionWithSecret>>
}

/** `psk_` + 32 random bytes, base64url: the HMAC key (as its UTF-8 text) of the provider's signatures. */
export function newConnectionSecret(): string {
  return `psk_${randomBytes(32).toString('base64url')}`
}

export function toConnectionView(row: ConnectionRow): ConnectionView {
  return {
    connection_id: row.id,
    tenant_id: row.tenantId,
    provider: row.provider,
    account_ref: row.accountRef,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

const system = { type: 'system', id: 'connectors-cli' } as const

/** The audit event and business event of a connection's change, for its command's commit. */
function announced(row: ConnectionRow, change: ConnectionChange, previousStatus: ConnectionRow['status'] | null): Omit<CommandWork<unknown>, 'outcome'> {
  const outputs = { connection_id: row.id, provider: row.provider, account_ref: row.accountRef, status: row.status, previous_status: previousStatus, change }
  const audit: AuditRecord = {
    tenantId: row.tenantId,
    layer: 'raw',
    actor: system,
    // The CLI is no request: nothing to attribute the event to beyond its actor.
    requestId: null,
    action: 'raw.source_status_changed',
    entity: { type: 'provider_connection', id: row.id },
    outputs,
  }
  return { audit: [audit], events: [{ type: 'raw.source.status_changed', payload: outputs }] }
}

export function createConnectorsService(deps: { db: Database; commands: CommandRunner; store: RawStore; tenants: RawTenants; ids: IdSource; clock: Clock }): ConnectorsService {
  const { db, commands, store, ids, clock } = deps

  async function loadOwned(tx: Tx, input: ConnectionInput): Promise<ConnectionRow> {
    const { tenantId, provider, accountRef } = input
    const row = await store.findConnectionByAccount(tx, provider, accountRef, { forUpdate: true })
    if (row === undefined || row.tenantId !== tenantId) throw new ConnectorError(`tenant ${tenantId} has no ${provider} connection for account ${accountRef}`)
    return row
  }

  async function requireTenant(tx: Tx, tenantId: string) {
    if (!(await deps.tenants.tenantExists(tx, tenantId))) throw new ConnectorError(`no tenant ${tenantId}`)
  }

  return {
    /**
     * Connects a provider account to the tenant with a new secret (returned once), or re-activates the
     * tenant's revoked connection of that account with a new secret. Locks the account's connection.
     * Audits raw.source_status_changed (change added); emits raw.source.status_changed.
     */
    async add(context, input) {
      const { tenantId, provider, accountRef } = input
      if (!accountRefPattern.test(accountRef)) throw new ConnectorError(`account ${JSON.stringify(accountRef)} must match ${accountRefPattern.source}`)
      return commands.run(withoutIdempotencyKey(context), { name: 'raw.connectors.add', tenantId, input }, async (tx) => {
        const secret = newConnectionSecret()
        await requireTenant(tx, tenantId)
        const now = clock.now()
        const existing = await store.findConnectionByAccount(tx, provider, accountRef, { forUpdate: true })
        if (existing !== undefined) {
          if (existing.tenantId !== tenantId || existing.status !== 'revoked') {
            throw new ConnectorError(`the ${provider} account ${accountRef} is already connected (${existing.id}, ${existing.status}${existing.tenantId === tenantId ? '' : ', another tenant'})`)
          }
          await store.updateConnection(tx, tenantId, existing.id, { status: 'active', secret, updatedAt: now })
          const revived = { ...existing, status: 'active' as const, secret, updatedAt: now }
          return { outcome: { connection: toConnectionView(revived), secret }, ...announced(revived, 'added', existing.status) }
        }
        const created: ConnectionRow = { id: ids.newId('providerConnection'), tenantId, provider, accountRef, secret, status: 'active', createdAt: now, updatedAt: now }
        await store.insertConnection(tx, created)
        return { outcome: { connection: toConnectionView(created), secret }, ...announced(created, 'added', null) }
      })
    },

    async list(tenantId) {
      return (await store.listConnections(db.orm, tenantId)).map(toConnectionView)
    },

    /**
     * Pauses, resumes or revokes the connection (a move to the status it has changes nothing and records
     * nothing). Locks the connection. Audits raw.source_status_changed; emits raw.source.status_changed.
     */
    async change(context, input) {
      const { tenantId, move } = input
      return commands.run(context, { name: 'raw.connectors.change', tenantId, input }, async (tx): Promise<CommandWork<{ connection: ConnectionView; changed: boolean }>> => {
        const row = await loadOwned(tx, input)
        const target = move === 'pause' ? 'paused' : move === 'resume' ? 'active' : 'revoked'
        if (row.status === target) return { outcome: { connection: toConnectionView(row), changed: false } }
        if (row.status === 'revoked') throw new ConnectorError(`${row.id} is revoked; add it again to re-activate it with a new secret`)
        const now = clock.now()
        await store.updateConnection(tx, tenantId, row.id, { status: target, updatedAt: now })
        const changed = { ...row, status: target, updatedAt: now } as ConnectionRow
        return {
          outcome: { connection: toConnectionView(changed), changed: true },
          ...announced(changed, move === 'pause' ? 'paused' : move === 'resume' ? 'resumed' : 'revoked', row.status),
        }
      })
    },

    /**
     * Replaces the connection's secret at once (the new one is returned once). Locks the connection.
     * Audits raw.source_status_changed (change secret_rotated); emits raw.source.status_changed.
     */
    async rotateSecret(context, input) {
      return commands.run(withoutIdempotencyKey(context), { name: 'raw.connectors.rotateSecret', tenantId: input.tenantId, input }, async (tx) => {
        const secret = newConnectionSecret()
        const current = await loadOwned(tx, input)
        if (current.status === 'revoked') throw new ConnectorError(`${current.id} is revoked; add it again to re-activate it with a new secret`)
        const now = clock.now()
        await store.updateConnection(tx, input.tenantId, current.id, { secret, updatedAt: now })
        const rotated = { ...current, secret, updatedAt: now }
        return { outcome: { connection: toConnectionView(rotated), secret }, ...announced(rotated, 'secret_rotated', current.status) }
      })
    },
  }
}
