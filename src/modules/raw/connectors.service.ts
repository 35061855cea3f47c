/**
 * Provider connections, configured out of band by the platform's operators (`/v1/platform/connectors…`
 * with X-Platform-Service-Auth, and `steward connectors …` / `npm run connectors` as their client): each
 * binds a provider account (the `X-Provider-Account` of its webhooks) to a tenant, with the secret its
 * webhooks are signed with. The tenant API has none (spec: "No /v1/sources resource family exists;
 * connectors are configured out of band").
 *
 * Lifecycle: active ⇄ paused, either → revoked. `add` on a revoked connection of the same tenant
 * re-activates it with a new secret. Secrets are shown once (add, rotate-secret, and the replays of
 * those for the same Idempotency-Key); a rotation replaces the secret at once (there is no overlap: the
 * provider must switch when told). Every change is a command (`name(context, input)`, run by the
 * command runner): audited (layer raw, actor platform `platform-service`, the request's id) and
 * announced (raw.source.status_changed) in its one commit. Every command takes an Idempotency-Key,
 * scoped to the connection's tenant: a replay of `add` or `rotateSecret` hands out the same secret,
 * derived from a seed its stored outcome keeps (kernel/secrets.ts), never from a stored secret.
 */
import type { AuditRecord } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { CommandContext } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { ReplayableSecrets } from '../../kernel/secrets.ts'
import type { CommandEffects, CommandResult, CommandRunner, CommandWork } from '../../platform/commands/command.ts'
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

/** What an add or rotation's idempotency record keeps: the secret's seed, never the secret. */
type SeededConnection = { connection: ConnectionView; secret_seed: string }

export interface ConnectorsService {
  add(context: CommandContext, input: ConnectionInput): Promise<CommandResult<ConnectionWithSecret>>
  list(tenantId: string): Promise<ConnectionView[]>
  change(context: CommandContext, input: ConnectionInput & { readonly move: 'pause' | 'resume' | 'revoke' }): Promise<CommandResult<{ connection: ConnectionView; changed: boolean }>>
  rotateSecret(context: CommandContext, input: ConnectionInput): Promise<CommandResult<ConnectionWithSecret>>
}

/** Connection secrets are `psk_` + 43 base64url characters: the HMAC key (as its UTF-8 text) of the provider's signatures. */
export const connectionSecretPrefix = 'psk_'

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

/** Connections are configured by the platform's operators (X-Platform-Service-Auth), as tenants are provisioned. */
const platformActor = { type: 'platform', id: 'platform-service' } as const

/** The audit event and business event of a connection's change, for its command's commit. */
function announced(context: CommandContext, row: ConnectionRow, change: ConnectionChange, previousStatus: ConnectionRow['status'] | null): CommandEffects {
  const outputs = { connection_id: row.id, provider: row.provider, account_ref: row.accountRef, status: row.status, previous_status: previousStatus, change }
  const audit: AuditRecord = {
    tenantId: row.tenantId,
    layer: 'raw',
    actor: platformActor,
    requestId: context.requestId,
    action: 'raw.source_status_changed',
    entity: { type: 'provider_connection', id: row.id },
    outputs,
  }
  return { audit: [audit], events: [{ type: 'raw.source.status_changed', payload: outputs }] }
}

export function createConnectorsService(deps: {
  db: Database
  commands: CommandRunner
  store: RawStore
  tenants: RawTenants
  ids: IdSource
  clock: Clock
  /** Derives a connection's secret from the seed a keyed outcome stores, so a replay hands out the same secret. */
  secrets: ReplayableSecrets
}): ConnectorsService {
  const { db, commands, store, ids, clock } = deps
  const secretOf = (seed: string) => deps.secrets.secretOf(seed, connectionSecretPrefix)
  const withSecret = (result: CommandResult<SeededConnection>): CommandResult<ConnectionWithSecret> => ({
    ...result,
    outcome: { connection: result.outcome.connection, secret: secretOf(result.outcome.secret_seed) },
  })

  async function loadOwned(tx: Tx, input: ConnectionInput): Promise<ConnectionRow> {
    const { tenantId, provider, accountRef } = input
    const row = await store.findConnectionByAccount(tx, provider, accountRef, { forUpdate: true })
    // Another tenant's connection is exactly a missing one.
    if (row === undefined || row.tenantId !== tenantId) throw new AppError('source_not_found', `Tenant ${tenantId} has no ${provider} connection for account ${accountRef}.`)
    return row
  }

  async function requireTenant(tx: Tx, tenantId: string) {
    if (!(await deps.tenants.tenantExists(tx, tenantId))) throw new AppError('tenant_not_found', `No tenant ${tenantId}.`)
  }

  const revoked = (row: ConnectionRow) =>
    new AppError('source_revoked', `${row.id} is revoked; add it again to re-activate it with a new secret.`, { connection_id: row.id, status: row.status })

  return {
    /**
     * Connects a provider account to the tenant with a new secret (returned once), or re-activates the
     * tenant's revoked connection of that account with a new secret. Locks the account's connection.
     * Audits raw.source_status_changed (change added); emits raw.source.status_changed.
     */
    async add(context, input) {
      const { tenantId, provider, accountRef } = input
      if (!accountRefPattern.test(accountRef)) {
        throw new AppError('validation_failed', `The account ${JSON.stringify(accountRef)} must match ${accountRefPattern.source}.`, { field: 'account_ref' })
      }
      const result = await commands.run(context, { name: 'raw.connectors.add', tenantId, input }, async (tx): Promise<CommandWork<SeededConnection>> => {
        const seed = deps.secrets.newSeed()
        const secret = secretOf(seed)
        await requireTenant(tx, tenantId)
        const now = clock.now()
        const existing = await store.findConnectionByAccount(tx, provider, accountRef, { forUpdate: true })
        if (existing !== undefined) {
          if (existing.tenantId !== tenantId || existing.status !== 'revoked') {
            const sameTenant = existing.tenantId === tenantId
            throw new AppError(
              'source_already_connected',
              `The ${provider} account ${accountRef} is already connected${sameTenant ? ` (${existing.id}, ${existing.status})` : ' to another tenant'}.`,
              sameTenant ? { connection_id: existing.id, status: existing.status } : undefined,
            )
          }
          await store.updateConnection(tx, tenantId, existing.id, { status: 'active', secret, updatedAt: now })
          const revived = { ...existing, status: 'active' as const, secret, updatedAt: now }
          return { outcome: { connection: toConnectionView(revived), secret_seed: seed }, ...announced(context, revived, 'added', existing.status) }
        }
        const created: ConnectionRow = { id: ids.newId('providerConnection'), tenantId, provider, accountRef, secret, status: 'active', createdAt: now, updatedAt: now }
        await store.insertConnection(tx, created)
        return { outcome: { connection: toConnectionView(created), secret_seed: seed }, ...announced(context, created, 'added', null) }
      })
      return withSecret(result)
    },

    /** The tenant's connections (never their secrets); 404 tenant_not_found for an unknown tenant. */
    async list(tenantId) {
      if (!(await deps.tenants.tenantExists(db.orm, tenantId))) throw new AppError('tenant_not_found', `No tenant ${tenantId}.`)
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
        if (row.status === 'revoked') throw revoked(row)
        const now = clock.now()
        await store.updateConnection(tx, tenantId, row.id, { status: target, updatedAt: now })
        const changed = { ...row, status: target, updatedAt: now } as ConnectionRow
        return {
          outcome: { connection: toConnectionView(changed), changed: true },
          ...announced(context, changed, move === 'pause' ? 'paused' : move === 'resume' ? 'resumed' : 'revoked', row.status),
        }
      })
    },

    /**
     * Replaces the connection's secret at once (the new one is returned once). Locks the connection.
     * Audits raw.source_status_changed (change secret_rotated); emits raw.source.status_changed.
     */
    async rotateSecret(context, input) {
      const result = await commands.run(context, { name: 'raw.connectors.rotateSecret', tenantId: input.tenantId, input }, async (tx): Promise<CommandWork<SeededConnection>> => {
        const seed = deps.secrets.newSeed()
        const secret = secretOf(seed)
        const current = await loadOwned(tx, input)
        if (current.status === 'revoked') throw revoked(current)
        const now = clock.now()
        await store.updateConnection(tx, input.tenantId, current.id, { secret, updatedAt: now })
        const rotated = { ...current, secret, updatedAt: now }
        return { outcome: { connection: toConnectionView(rotated), secret_seed: seed }, ...announced(context, rotated, 'secret_rotated', current.status) }
      })
      return withSecret(result)
    },
  }
}
