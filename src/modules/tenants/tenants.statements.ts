/**
 * The tenants module's hot statements (platform/db/statements.ts): the reads every authenticated request
 * makes, written once as SQL instead of built by the ORM on each call. Column lists follow
 * tenants.tables.ts; the tenants tests read the same rows both ways.
 */
import { statement } from '../../platform/db/statements.ts'
import type { TenantRow } from './tenants.store.ts'

/** A tenant by id ($1), every column, as the ORM's `select().from(tenants)` answers it. */
export const tenantById = statement<TenantRow>(
  `select id, name, status, environment, org_id as "orgId", identity_issuer as "identityIssuer", identity_subject as "identitySubject",
          rate_limit_tier as "rateLimitTier", rate_limit_per_minute as "rateLimitPerMinute", rate_limit_burst as "rateLimitBurst",
          created_at as "createdAt", updated_at as "updatedAt"
     from tenants where id = $1 limit 1`,
)

/** What a user's bearer token needs re-read on every request: the user's, member's and tenant's standing. */
export interface UserStanding {
  readonly userId: string
  readonly userStatus: 'pending' | 'active'
  readonly memberRole: 'owner' | 'admin' | 'approver' | 'viewer'
  readonly memberStatus: 'invited' | 'active' | 'deactivated'
  readonly tenantId: string
  readonly tenantStatus: TenantRow['status']
  readonly rateLimitTier: TenantRow['rateLimitTier']
  readonly rateLimitPerMinute: number | null
  readonly rateLimitBurst: number | null
}

/** A user ($2) of a tenant ($1) with their member record and tenant: the principal re-read of a JWT. */
export const userStanding = statement<UserStanding>(
  `select u.id as "userId", u.status as "userStatus", m.role as "memberRole", m.status as "memberStatus",
          t.id as "tenantId", t.status as "tenantStatus", t.rate_limit_tier as "rateLimitTier",
          t.rate_limit_per_minute as "rateLimitPerMinute", t.rate_limit_burst as "rateLimitBurst"
     from users u
     join members m on m.user_id = u.id and m.tenant_id = u.tenant_id
     join tenants t on t.id = u.tenant_id
    where u.tenant_id = $1 and u.id = $2
    limit 1`,
)
