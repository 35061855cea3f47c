/**
 * What the auth module needs from other modules; composition plugs the implementations in (the tenants
 * module's directory). Auth reads no other module's tables: users, members and tenants come through here.
 */
import type { SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { Executor } from '../../platform/db/database.ts'
import type { PrincipalRecord, TenantRow, TenantStanding } from '../tenants/index.ts'

/** Users, members and tenants, as the tenants module answers for them. */
export interface AuthTenants {
  findTenant(executor: Executor, tenantId: string): Promise<TenantRow | undefined>
  /** A user with their member record and tenant, by id (a JWT's subject). */
  findUserPrincipal(executor: Executor, tenantId: string, userId: string): Promise<PrincipalRecord | undefined>
  /** The same by the (service-wide unique) email given at login. */
  findLoginRecord(executor: Executor, email: string): Promise<PrincipalRecord | undefined>
  /**
   * SQL: the standing of the tenant `tenantId` names, for a credential query of ours, so that a key or
   * service token and its tenant's standing come back in one round trip.
   */
  standingOf(tenantId: PgColumn | SQL): SQL<TenantStanding>
}
