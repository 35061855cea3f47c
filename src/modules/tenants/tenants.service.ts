/**
 * Tenant lifecycle beyond self-serve signup: provisioning by the platform (optionally linked to an
 * external identity and an org), reading, and deletion.
 */
import { digestOf } from '../../kernel/audit-record.ts'
import { actorOf, requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import { isUniqueViolation } from '../../platform/db/errors.ts'
import { deleteTenantRows, preservedTables, type DeletedRows, type TenantDataPlan } from '../../platform/db/tenant-data.ts'
import type { CoreDeps } from '../../platform/deps.ts'
import { AppError } from '../../kernel/errors.ts'
import type { DefaultPolicyProvisioner } from '../policy/index.ts'
import { newMember, newTenant, newUser } from './records.ts'
import { invitationMailText, normalizeEmail } from './onboarding.service.ts'
import type { TenantRow, TenantsStore } from './tenants.store.ts'
import { createTokenIssuer } from './verification-tokens.ts'
import { mailSendQueue } from '../../platform/mail/mail.job.ts'
import { tenantBlobPurgeQueue } from './blob-purge.job.ts'

export interface TenantView {
  id: string
  name: string
  status: TenantRow['status']
  environment: TenantRow['environment']
  org_id: string | null
  identity: { issuer: string; subject: string } | null
  rate_limit_tier: TenantRow['rateLimitTier']
  created_at: string
  updated_at: string
}

export interface ProvisionInput {
  readonly name: string
  readonly identity?: { issuer: string; subject: string } | undefined
  readonly owner_email?: string | undefined
}

export interface ProvisionResult {
  tenant: TenantView
  owner: ({ user_id: string; member_id: string } & ({ invitation_token: string } | { invitation_sent: true })) | null
}

export interface DeletionResult {
  tenantId: string
  deletedRows: DeletedRows
  totalRows: number
}

export interface TenantsService {
  provision(input: ProvisionInput, orgId: string | null, context: CommandContext): Promise<ProvisionResult>
  get(tenantId: string): Promise<TenantView>
  delete(tenantId: string, context: CommandContext): Promise<DeletionResult>
}

export function toTenantView(tenant: TenantRow): TenantView {
  return {
    id: tenant.id,
    name: tenant.name,
    status: tenant.status,
    environment: tenant.environment,
    org_id: tenant.orgId,
    identity: tenant.identityIssuer === null || tenant.identitySubject === null ? null : { issuer: tenant.identityIssuer, subject: tenant.identitySubject },
    rate_limit_tier: tenant.rateLimitTier,
    created_at: tenant.createdAt.toISOString(),
    updated_at: tenant.updatedAt.toISOString(),
  }
}

export function createTenantsService(
  deps: CoreDeps & {
    store: TenantsStore
    defaultPolicy: DefaultPolicyProvisioner
    /** Every module's part of tenant deletion, in the order they run (composition lists them). */
    tenantData: readonly TenantDataPlan[]
  },
): TenantsService {
  const { db, store, audit, jobs, events, ids, clock, defaultPolicy } = deps
  const production = deps.environment === 'production'
  const issueToken = createTokenIssuer(deps)

  const identityConflict = (tenantId: string) =>
    new AppError('tenant_identity_already_linked', 'This platform identity is already linked to a tenant.', { tenant_id: tenantId })

  return {
    /**
     * Creates a tenant for the platform, linked to `identity` if given (409 with the existing tenant id
     * when that identity is linked already) and with an invited owner if `owner_email` is given.
     * Gives it the default policy (active). Audits tenant.provisioned (with the default policy's id and
     * hash); emits member.changed for the owner.
     */
    async provision(input, orgId, context) {
      if (input.identity !== undefined) {
        const existing = await store.findTenantByIdentity(db.orm, input.identity.issuer, input.identity.subject)
        if (existing !== undefined) throw identityConflict(existing.id)
      }
      const now = clock.now()
      const tenantId = ids.newUuid()
      const ownerEmail = input.owner_email === undefined ? undefined : normalizeEmail(input.owner_email)
      try {
        return await db.transaction(async (tx) => {
          const tenant = newTenant({ id: tenantId, name: input.name, environment: deps.environment, orgId, identity: input.identity, at: now })
          await store.insertTenant(tx, tenant)
          const policy = await defaultPolicy.provision(tx, tenantId)
          const recorded = await audit.record(tx, {
            tenantId,
            layer: 'audit',
            actor: { type: 'platform', id: 'platform-service' },
            action: 'tenant.provisioned',
            entity: { type: 'tenant', id: tenantId },
            inputs: { request: digestOf({ ...input, org_id: orgId }) },
            outputs: { org_id: orgId, identity_linked: input.identity !== undefined, owner_invited: ownerEmail !== undefined, ...policy },
            requestId: context.requestId,
          })
          if (ownerEmail === undefined) return { tenant: toTenantView(tenant), owner: null }

          if ((await store.findUserByEmail(tx, ownerEmail)) !== undefined) throw new AppError('signup_email_taken')
          const userId = ids.newId('user')
          const memberId = ids.newId('member')
          await store.insertUser(tx, newUser({ id: userId, tenantId, email: ownerEmail, passwordHash: null, at: now }))
          await store.insertMember(tx, newMember({ id: memberId, tenantId, userId, role: 'owner', status: 'invited', invitedBy: null, at: now }))
          const token = await issueToken(tx, { tenantId, userId, purpose: 'invitation' })
          await events.record(tx, {
            tenantId,
            type: 'member.changed',
            payload: { member_id: memberId, user_id: userId, change: 'created', role: 'owner', status: 'invited' },
            auditEventId: recorded.id,
          })
          if (production) {
            await jobs.enqueue(tx, mailSendQueue, { to: ownerEmail, subject: 'Your Steward tenant is ready', text: invitationMailText(deps.publicBaseUrl, tenantId, token) })
            return { tenant: toTenantView(tenant), owner: { user_id: userId, member_id: memberId, invitation_sent: true as const } }
          }
          return { tenant: toTenantView(tenant), owner: { user_id: userId, member_id: memberId, invitation_token: token } }
        })
      } catch (error) {
        if (isUniqueViolation(error, 'tenants_identity_unique') && input.identity !== undefined) {
          // Lost a race with a concurrent provisioning of the same identity: answer as if we had seen it first.
          const existing = await store.findTenantByIdentity(db.orm, input.identity.issuer, input.identity.subject)
          if (existing !== undefined) throw identityConflict(existing.id)
        }
        if (isUniqueViolation(error, 'users_email_unique')) throw new AppError('signup_email_taken')
        throw error
      }
    },

    async get(tenantId) {
      const tenant = await store.findTenant(db.orm, tenantId)
      if (tenant === undefined) throw new AppError('tenant_not_found')
      return toTenantView(tenant)
    },

    /**
     * Deletes every tenant-scoped row except the audit chain, which is kept (spec, "Tenants"). Audits
     * tenant.deleted with the per-table counts and tenant_blob.purge_requested, and enqueues the blob
     * purge job, all in the one transaction.
     */
    async delete(tenantId, context) {
      const principal = requirePrincipal(context)
      return db.transaction(async (tx) => {
        const tenant = await store.findTenant(tx, tenantId)
        if (tenant === undefined) throw new AppError('tenant_not_found')
        const deletedRows = await deleteTenantRows(tx, tenantId, deps.tenantData)
        const totalRows = Object.values(deletedRows).reduce((sum, count) => sum + count, 0)
        const actor = actorOf(principal)
        const preserved = preservedTables(deps.tenantData)
        await audit.record(tx, {
          tenantId,
          layer: 'audit',
          actor,
          action: 'tenant.deleted',
          entity: { type: 'tenant', id: tenantId },
          outputs: {
            ...Object.fromEntries(Object.entries(deletedRows).map(([table, count]) => [`deleted_rows.${table}`, count])),
            total_rows: totalRows,
            preserved,
          },
          requestId: context.requestId,
        })
        const jobId = await jobs.enqueue(tx, tenantBlobPurgeQueue, { tenant_id: tenantId })
        await audit.record(tx, {
          tenantId,
          layer: 'audit',
          actor,
          action: 'tenant_blob.purge_requested',
          entity: { type: 'tenant', id: tenantId },
          outputs: { job_id: jobId },
          requestId: context.requestId,
        })
        return { tenantId, deletedRows, totalRows }
      })
    },
  }
}
