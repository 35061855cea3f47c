/**
 * The tenants module's hot statements (platform/db/statements.ts): the reads every authenticated request
 * makes, made once instead of built by the ORM on each call. test/platform/db-statements.test.ts reads the
 * same rows through the ORM and through these.
 */
import { selector, statement } from '../../platform/db/statements.ts'
import type { TenantRow } from './tenants.store.ts'
import { tenants } from './tenants.tables.ts'

/** A tenant by id: every column, as the ORM's `select().from(tenants)` answers it. */
const tenantRows = selector(tenants, ['id'])
export const tenantById = async (executor: Parameters<typeof tenantRows>[0], tenantId: string): Promise<TenantRow | undefined> => (await tenantRows(executor, [tenantId]))[0]

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
