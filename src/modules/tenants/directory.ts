/**
 * What other modules may read of tenants, users and members: the tenants module's query port. Auth
 * resolves principals and logins through it, Policy its signers and backfill, Raw whether a tenant
 * exists. No other module reads these tables.
 *
 * `standingOf` and `existsSql` are SQL expressions over this module's tables for another module to put
 * in its own query, so a credential and its tenant's standing still come back in one round trip (the
 * API-key check runs on every request with a key).
 */
import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { Executor } from '../../platform/db/database.ts'
import { loginEmails, members, tenants, users } from './tenants.tables.ts'
import type { MemberRow, TenantRow, UserRow } from './tenants.store.ts'
import { tenantById, userStanding, type UserStanding } from './tenants.statements.ts'

/** The roles whose linked wallet signs the tenant's policies: a viewer (say, an admin demoted) signs nothing. */
const signingRoles = ['owner', 'admin', 'approver'] as const

export type { UserStanding } from './tenants.statements.ts'

/** What a credential check needs to know of its tenant. */
export interface TenantStanding {
  readonly status: TenantRow['status']
  readonly rateLimitTier: string
  readonly rateLimitPerMinute: number | null
  readonly rateLimitBurst: number | null
}

export interface PrincipalRecord {
  readonly user: UserRow
  readonly member: MemberRow
  readonly tenant: TenantRow
}

export interface TenantDirectory {
  findTenant(executor: Executor, tenantId: string): Promise<TenantRow | undefined>
  tenantExists(executor: Executor, tenantId: string): Promise<boolean>
  /**
   * Tenant ids after `afterId` for which the caller's condition `where(tenant id)` holds (over its own
   * tables), in id order: a sweep over tenants in one statement.
   */
  listTenantIds(executor: Executor, options: { afterId?: string | undefined; limit: number; where?: (tenantId: PgColumn) => SQL }): Promise<string[]>
  /**
   * The standing of a user, their member record and tenant, by id: what a bearer token's holder is
   * re-read for on every request (one fixed statement, no ORM building).
   */
  findUserStanding(executor: Executor, tenantId: string, userId: string): Promise<UserStanding | undefined>
  /** A user with their member record and tenant, by id. */
  findUserPrincipal(executor: Executor, tenantId: string, userId: string): Promise<PrincipalRecord | undefined>
  /** The same by the (service-wide unique) email given at login. */
  findLoginRecord(executor: Executor, email: string): Promise<PrincipalRecord | undefined>
  /** Of these user ids, those whose member record in the tenant is active and may sign policies (owner, admin, approver; never a viewer). */
  signingMemberUserIds(executor: Executor, tenantId: string, userIds: readonly string[]): Promise<Set<string>>
  /** SQL: the standing (a jsonb TenantStanding) of the tenant `tenantId` names, for the caller's query. */
  standingOf(tenantId: PgColumn | SQL): SQL<TenantStanding>
  /** SQL: whether the tenant exists, for the caller's query. */
  existsSql(tenantId: string): SQL<boolean>
}

export function createTenantDirectory(): TenantDirectory {
  const principalQuery = (executor: Executor) =>
    executor
      .select({ user: users, member: members, tenant: tenants })
      .from(users)
      .innerJoin(members, and(eq(members.userId, users.id), eq(members.tenantId, users.tenantId)))
      .innerJoin(tenants, eq(tenants.id, users.tenantId))

  return {
    findTenant: tenantById,
    findUserStanding: (executor, tenantId, userId) => userStanding.first(executor, [tenantId, userId]),
    async tenantExists(executor, tenantId) {
      const [row] = await executor.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)).limit(1)
      return row !== undefined
    },
    async listTenantIds(executor, options) {
      const rows = await executor
        .select({ id: tenants.id })
        .from(tenants)
        .where(and(options.afterId === undefined ? undefined : gt(tenants.id, options.afterId), options.where?.(tenants.id)))
        .orderBy(asc(tenants.id))
        .limit(options.limit)
      return rows.map((row) => row.id)
    },
    async findUserPrincipal(executor, tenantId, userId) {
      const [row] = await principalQuery(executor)
        .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
        .limit(1)
      return row
    },
    async findLoginRecord(executor, email) {
      // Login names no tenant: the login_emails directory names it, then one tenant's rows are read.
      const [entry] = await executor.select({ tenantId: loginEmails.ownerTenantId }).from(loginEmails).where(eq(loginEmails.email, email)).limit(1)
      if (entry === undefined) return undefined
      const [row] = await principalQuery(executor)
        .where(and(eq(users.tenantId, entry.tenantId), eq(users.email, email)))
        .limit(1)
      return row
    },
    async signingMemberUserIds(executor, tenantId, userIds) {
      if (userIds.length === 0) return new Set()
      const rows = await executor
        .select({ userId: members.userId })
        .from(members)
        .where(and(eq(members.tenantId, tenantId), eq(members.status, 'active'), inArray(members.role, [...signingRoles]), inArray(members.userId, [...userIds])))
      return new Set(rows.map((row) => row.userId))
    },
    standingOf: (tenantId) =>
      sql<TenantStanding>`(select jsonb_build_object('status', t.status, 'rateLimitTier', t.rate_limit_tier,
                                                     'rateLimitPerMinute', t.rate_limit_per_minute, 'rateLimitBurst', t.rate_limit_burst)
                            from ${tenants} t where t.id = ${tenantId})`,
    existsSql: (tenantId) => sql<boolean>`exists (select 1 from ${tenants} t where t.id = ${tenantId})`,
  }
}
