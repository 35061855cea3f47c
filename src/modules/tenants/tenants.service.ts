/**
 * Tenant lifecycle beyond self-serve signup: provisioning by the platform (optionally linked to an
 * external identity and an org), reading, and deletion.
 */
import { digestOf, type AuditRecord } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { actorOf, requirePrincipal, withoutIdempotencyKey, type CommandContext, type StewardEnvironment } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandResult, CommandRunner, CommandWork } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { isUniqueViolation } from '../../platform/db/errors.ts'
import { deleteTenantRows, preservedTables, type DeletedRows, type TenantDataPlan } from '../../platform/db/tenant-data.ts'
import { mailSendQueue } from '../../platform/mail/mail.job.ts'
import type { DefaultPolicyProvisioner } from './ports.ts'
import { tenantBlobPurgeQueue } from './blob-purge.job.ts'
import { invitationMailText, normalizeEmail } from './onboarding.service.ts'
import { newMember, newTenant, newUser } from './records.ts'
import { emailTakenConstraint, type TenantRow, type TenantsStore } from './tenants.store.ts'
import type { TokenIssuer } from './verification-tokens.ts'

/**
 * Provisioning has no tenant before it runs, and its caller is the platform, not a tenant: its
 * Idempotency-Keys are the platform's, scoped to this reserved id (the nil UUID, which no tenant has).
 */
export const platformIdempotencyTenantId = '00000000-0000-0000-0000-000000000000'

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
  /** The org of `/v1/orgs/{orgId}/tenants`; null for `/v1/tenants`. */
  readonly org_id: string | null
}

export type InvitedOwner = { user_id: string; member_id: string } & ({ invitation_token: string } | { invitation_sent: true })

export interface ProvisionResult {
  tenant: TenantView
  owner: InvitedOwner | null
}

export interface DeletionResult {
  tenantId: string
  deletedRows: DeletedRows
  totalRows: number
}

export interface TenantsService {
  provision(context: CommandContext, input: ProvisionInput): Promise<CommandResult<ProvisionResult>>
  get(tenantId: string): Promise<TenantView>
  delete(context: CommandContext, input: { tenant_id: string }): Promise<DeletionResult>
}

/**
 * What a provisioning's idempotency record keeps: ids and the invitation token's seed, not the tenant's
 * name or linked identity. The record is the platform's and outlives a deleted tenant, so it must hold
 * nothing tenant deletion promises to remove; a replay reads the tenant as it is now.
 */
type ProvisionOutcome = {
  tenant_id: string
  owner: ({ user_id: string; member_id: string } & ({ invitation_token_seed: string } | { invitation_sent: true })) | null
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

export function createTenantsService(deps: {
  db: Database
  commands: CommandRunner
  store: TenantsStore
  verificationTokens: TokenIssuer
  defaultPolicy: DefaultPolicyProvisioner
  ids: IdSource
  clock: Clock
  environment: StewardEnvironment
  /** Where the mailed invitation tells the owner to accept it. */
  publicBaseUrl: string
  /** Every module's part of tenant deletion, in the order they run (composition lists them). */
  tenantData: readonly TenantDataPlan[]
}): TenantsService {
  const { db, commands, store, verificationTokens, ids, clock, defaultPolicy } = deps
  const production = deps.environment === 'production'

  const identityConflict = (tenantId: string) =>
    new AppError('tenant_identity_already_linked', 'This platform identity is already linked to a tenant.', { tenant_id: tenantId })

  async function get(tenantId: string): Promise<TenantView> {
    const tenant = await store.findTenant(db.orm, tenantId)
    if (tenant === undefined) throw new AppError('tenant_not_found')
    return toTenantView(tenant)
  }

  return {
    /**
     * Creates a tenant for the platform, linked to `identity` if given (409 with the existing tenant id
     * when that identity is linked already) and with an invited owner if `owner_email` is given.
     * Gives it the default policy (active). Audits tenant.provisioned (with the default policy's id and
     * hash); emits member.changed for the owner; in production, enqueues the invitation mail.
     * Idempotency-Key: the platform's (platformIdempotencyTenantId); a replay answers with the tenant as
     * it is now, 404 tenant_not_found once it has been deleted.
     */
    async provision(context, input) {
      const now = clock.now()
      const tenantId = ids.newUuid()
      const ownerEmail = input.owner_email === undefined ? undefined : normalizeEmail(input.owner_email)
      let result: CommandResult<ProvisionOutcome>
      try {
        result = await commands.run(context, { name: 'tenants.provision', tenantId: platformIdempotencyTenantId, input }, async (tx): Promise<CommandWork<ProvisionOutcome>> => {
          // Checked inside the command, after its key is claimed: a replay must not meet its own tenant here.
          if (input.identity !== undefined) {
            const existing = await store.findTenantByIdentity(tx, input.identity.issuer, input.identity.subject)
            if (existing !== undefined) throw identityConflict(existing.id)
          }
          const tenant = newTenant({ id: tenantId, name: input.name, environment: deps.environment, orgId: input.org_id, identity: input.identity, at: now })
          await store.insertTenant(tx, tenant)
          const policy = await defaultPolicy.provision(tx, tenantId)
          const provisioned: AuditRecord = {
            tenantId,
            layer: 'audit',
            actor: { type: 'platform', id: 'platform-service' },
            action: 'tenant.provisioned',
            entity: { type: 'tenant', id: tenantId },
            inputs: { request: digestOf(input) },
            outputs: { org_id: input.org_id, identity_linked: input.identity !== undefined, owner_invited: ownerEmail !== undefined, ...policy },
            requestId: context.requestId,
          }
          if (ownerEmail === undefined) return { outcome: { tenant_id: tenantId, owner: null }, audit: [provisioned] }

          if ((await store.findUserByEmail(tx, ownerEmail)) !== undefined) throw new AppError('signup_email_taken')
          const userId = ids.newId('user')
          const memberId = ids.newId('member')
          await store.insertUser(tx, newUser({ id: userId, tenantId, email: ownerEmail, passwordHash: null, at: now }))
          await store.insertMember(tx, newMember({ id: memberId, tenantId, userId, role: 'owner', status: 'invited', invitedBy: null, at: now }))
          const { token, seed } = await verificationTokens.issue(tx, { tenantId, userId, purpose: 'invitation' })
          const owner = { user_id: userId, member_id: memberId }
          return {
            outcome: { tenant_id: tenantId, owner: production ? { ...owner, invitation_sent: true as const } : { ...owner, invitation_token_seed: seed } },
            audit: [provisioned],
            events: [{ tenantId, type: 'member.changed', payload: { member_id: memberId, user_id: userId, change: 'created', role: 'owner', status: 'invited' } }],
            jobs: production
              ? [{ queue: mailSendQueue, payload: { to: ownerEmail, subject: 'Your Steward tenant is ready', text: invitationMailText(deps.publicBaseUrl, tenantId, token) } }]
              : [],
          }
        })
      } catch (error) {
        if (isUniqueViolation(error, 'tenants_identity_unique') && input.identity !== undefined) {
          // Lost a race with a concurrent provisioning of the same identity: answer as if we had seen it first.
          const existing = await store.findTenantByIdentity(db.orm, input.identity.issuer, input.identity.subject)
          if (existing !== undefined) throw identityConflict(existing.id)
        }
        if (isUniqueViolation(error, emailTakenConstraint)) throw new AppError('signup_email_taken')
        throw error
      }
      const { owner } = result.outcome
      return {
        ...result,
        outcome: {
          tenant: await get(result.outcome.tenant_id),
          owner:
            owner === null
              ? null
              : 'invitation_token_seed' in owner
                ? { user_id: owner.user_id, member_id: owner.member_id, invitation_token: verificationTokens.tokenOf('invitation', owner.invitation_token_seed) }
                : owner,
        },
      }
    },

    get,

    /**
     * Deletes every tenant-scoped row except the audit chain, which is kept (spec, "Tenants"). Audits
     * tenant.deleted with the per-table counts and tenant_blob.purge_requested, and enqueues the blob
     * purge job, all in the one transaction.
     *
     * Takes no Idempotency-Key: once the tenant is deleted its owner no longer authenticates, so a retry
     * after success is 401 before any command runs, and deletion removes the tenant's idempotency records
     * with its other rows. A retry after a failure runs the deletion afresh.
     */
    async delete(context, input) {
      const principal = requirePrincipal(context)
      const tenantId = input.tenant_id
      const { outcome } = await commands.run(withoutIdempotencyKey(context), { name: 'tenants.delete', tenantId, input }, async (tx): Promise<CommandWork<DeletionResult>> => {
        const tenant = await store.findTenant(tx, tenantId)
        if (tenant === undefined) throw new AppError('tenant_not_found')
        const deletedRows = await deleteTenantRows(tx, tenantId, deps.tenantData)
        const totalRows = Object.values(deletedRows).reduce((sum, count) => sum + count, 0)
        const actor = actorOf(principal)
        // Named here so the audit event requesting the purge can cite the job the runner enqueues after it.
        const purgeJobId = ids.newUuid()
        return {
          outcome: { tenantId, deletedRows, totalRows },
          audit: [
            {
              tenantId,
              layer: 'audit',
              actor,
              action: 'tenant.deleted',
              entity: { type: 'tenant', id: tenantId },
              outputs: {
                ...Object.fromEntries(Object.entries(deletedRows).map(([table, count]) => [`deleted_rows.${table}`, count])),
                total_rows: totalRows,
                preserved: preservedTables(deps.tenantData),
              },
              requestId: context.requestId,
            },
            {
              tenantId,
              layer: 'audit',
              actor,
              action: 'tenant_blob.purge_requested',
              entity: { type: 'tenant', id: tenantId },
              outputs: { job_id: purgeJobId },
              requestId: context.requestId,
            },
          ],
          jobs: [{ queue: tenantBlobPurgeQueue, payload: { tenant_id: tenantId }, options: { id: purgeJobId } }],
        }
      })
      return outcome
    },
  }
}
