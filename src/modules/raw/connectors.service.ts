/**
 * Provider connections, configured out of band (`npm run connectors`, scripts/connectors.ts): each binds
 * a provider account (the `X-Provider-Account` of its webhooks) to a tenant, with the secret its webhooks
 * are signed with. There is no HTTP surface for them (spec: "connectors are configured out of band").
 *
 * Lifecycle: active ⇄ paused, either → revoked. `add` on a revoked connection of the same tenant
 * re-activates it with a new secret. Secrets are shown once (add, rotate-secret); a rotation replaces the
 * secret at once (there is no overlap: the provider must switch when told). Every change is audited
 * (layer raw, actor system `connectors-cli`) and emits raw.source.status_changed, in one transaction.
 */
import { randomBytes } from 'node:crypto'
import type { AuditRecorder } from '../../platform/commands/audit-sink.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { EventRecorder } from '../../platform/outbox/events.ts'
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

export interface ConnectorsService {
  add(tenantId: string, provider: Provider, accountRef: string): Promise<{ connection: ConnectionView; secret: string }>
  list(tenantId: string): Promise<ConnectionView[]>
  change(tenantId: string, provider: Provider, accountRef: string, move: 'pause' | 'resume' | 'revoke'): Promise<{ connection: ConnectionView; changed: boolean }>
  rotateSecret(tenantId: string, provider: Provider, accountRef: string): Promise<{ connection: ConnectionView; secret: string }>
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

export function createConnectorsService(deps: { db: Database; store: RawStore; tenants: RawTenants; audit: AuditRecorder; events: EventRecorder; ids: IdSource; clock: Clock }): ConnectorsService {
  const { db, store, audit, events, ids, clock } = deps

  async function announce(tx: Tx, row: ConnectionRow, change: ConnectionChange, previousStatus: ConnectionRow['status'] | null): Promise<void> {
    const outputs = { connection_id: row.id, provider: row.provider, account_ref: row.accountRef, status: row.status, previous_status: previousStatus, change }
    const audited = await audit.record(tx, {
      tenantId: row.tenantId,
      layer: 'raw',
      actor: system,
      action: 'raw.source_status_changed',
      entity: { type: 'provider_connection', id: row.id },
      outputs,
    })
    await events.record(tx, { tenantId: row.tenantId, type: 'raw.source.status_changed', auditEventId: audited.id, payload: outputs })
  }

  async function loadOwned(tx: Tx, tenantId: string, provider: Provider, accountRef: string): Promise<ConnectionRow> {
    const row = await store.findConnectionByAccount(tx, provider, accountRef, { forUpdate: true })
    if (row === undefined || row.tenantId !== tenantId) throw new ConnectorError(`tenant ${tenantId} has no ${provider} connection for account ${accountRef}`)
    return row
  }

  async function requireTenant(tx: Tx, tenantId: string) {
    if (!(await deps.tenants.tenantExists(tx, tenantId))) throw new ConnectorError(`no tenant ${tenantId}`)
  }

  return {
    async add(tenantId, provider, accountRef) {
      if (!accountRefPattern.test(accountRef)) throw new ConnectorError(`account ${JSON.stringify(accountRef)} must match ${accountRefPattern.source}`)
      const secret = newConnectionSecret()
      const row = await db.transaction(async (tx) => {
        await requireTenant(tx, tenantId)
        const now = clock.now()
        const existing = await store.findConnectionByAccount(tx, provider, accountRef, { forUpdate: true })
        if (existing !== undefined) {
          if (existing.tenantId !== tenantId || existing.status !== 'revoked') {
            throw new ConnectorError(`the ${provider} account ${accountRef} is already connected (${existing.id}, ${existing.status}${existing.tenantId === tenantId ? '' : ', another tenant'})`)
          }
          await store.updateConnection(tx, tenantId, existing.id, { status: 'active', secret, updatedAt: now })
          const revived = { ...existing, status: 'active' as const, secret, updatedAt: now }
          await announce(tx, revived, 'added', existing.status)
          return revived
        }
        const created: ConnectionRow = { id: ids.newId('providerConnection'), tenantId, provider, accountRef, secret, status: 'active', createdAt: now, updatedAt: now }
        await store.insertConnection(tx, created)
        await announce(tx, created, 'added', null)
        return created
      })
      return { connection: toConnectionView(row), secret }
    },

    async list(tenantId) {
      return (await store.listConnections(db.orm, tenantId)).map(toConnectionView)
    },

    async change(tenantId, provider, accountRef, move) {
      return db.transaction(async (tx) => {
        const row = await loadOwned(tx, tenantId, provider, accountRef)
        const target = move === 'pause' ? 'paused' : move === 'resume' ? 'active' : 'revoked'
        if (row.status === target) return { connection: toConnectionView(row), changed: false }
        if (row.status === 'revoked') throw new ConnectorError(`${row.id} is revoked; add it again to re-activate it with a new secret`)
        const now = clock.now()
        await store.updateConnection(tx, tenantId, row.id, { status: target, updatedAt: now })
        const changed = { ...row, status: target, updatedAt: now } as ConnectionRow
        await announce(tx, changed, move === 'pause' ? 'paused' : move === 'resume' ? 'resumed' : 'revoked', row.status)
        return { connection: toConnectionView(changed), changed: true }
      })
    },

    async rotateSecret(tenantId, provider, accountRef) {
      const secret = newConnectionSecret()
      const row = await db.transaction(async (tx) => {
        const current = await loadOwned(tx, tenantId, provider, accountRef)
        if (current.status === 'revoked') throw new ConnectorError(`${current.id} is revoked; add it again to re-activate it with a new secret`)
        const now = clock.now()
        await store.updateConnection(tx, tenantId, current.id, { secret, updatedAt: now })
        const rotated = { ...current, secret, updatedAt: now }
        await announce(tx, rotated, 'secret_rotated', current.status)
        return rotated
      })
      return { connection: toConnectionView(row), secret }
    },
  }
}
