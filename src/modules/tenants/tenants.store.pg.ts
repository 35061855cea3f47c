/** The Drizzle implementation of TenantsStore (both engines). */
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm'
import { queryRows } from '../../platform/db/database.ts'
import { loginEmails, members, tenants, users, verificationTokens } from './tenants.tables.ts'
import type { MemberWithUser, TenantsStore } from './tenants.store.ts'
import { tenantById } from './tenants.statements.ts'

export function createTenantsStore(): TenantsStore {
  const memberQuery = (executor: Parameters<TenantsStore['findMember']>[0]) =>
    executor
      .select({ member: members, user: users })
      .from(members)
      .innerJoin(users, and(eq(users.tenantId, members.tenantId), eq(users.id, members.userId)))

  return {
    async insertTenant(tx, tenant) {
      await tx.insert(tenants).values(tenant)
    },
    findTenant: tenantById,
    async findTenantByIdentity(executor, issuer, subject) {
      const [row] = await executor
        .select()
        .from(tenants)
        .where(and(eq(tenants.identityIssuer, issuer), eq(tenants.identitySubject, subject)))
        .limit(1)
      return row
    },

    async insertUser(tx, user) {
      // The directory row first: its key is what keeps the email unique across the service.
      await tx.insert(loginEmails).values({ email: user.email, ownerTenantId: user.tenantId, createdAt: user.createdAt })
      await tx.insert(users).values(user)
    },
    async findUserByEmail(executor, email) {
      // Login names no tenant: the directory names the email's tenant, then the tenant's users are read.
      const [entry] = await executor.select({ tenantId: loginEmails.ownerTenantId }).from(loginEmails).where(eq(loginEmails.email, email)).limit(1)
      if (entry === undefined) return undefined
      const [row] = await executor
        .select()
        .from(users)
        .where(and(eq(users.tenantId, entry.tenantId), eq(users.email, email)))
        .limit(1)
      return row
    },
    async activateUser(tx, tenantId, userId, values) {
      await tx
        .update(users)
        .set({
          status: 'active',
          emailVerifiedAt: values.at,
          updatedAt: values.at,
          ...(values.passwordHash === undefined ? {} : { passwordHash: values.passwordHash }),
        })
        .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    },

    async insertMember(tx, member) {
      await tx.insert(members).values(member)
    },
    async findMember(executor, tenantId, memberId, options = {}) {
      const query = memberQuery(executor).where(and(eq(members.tenantId, tenantId), eq(members.id, memberId))).limit(1)
      const [row] = options.forUpdate ? await query.for('update', { of: members }) : await query
      return row as MemberWithUser | undefined
    },
    async findMemberByUser(executor, tenantId, userId) {
      const [row] = await memberQuery(executor)
        .where(and(eq(members.tenantId, tenantId), eq(members.userId, userId)))
        .limit(1)
      return row
    },
    async listMembers(executor, tenantId, filter) {
      return memberQuery(executor)
        .where(
          and(
            eq(members.tenantId, tenantId),
            filter.status === undefined ? undefined : eq(members.status, filter.status),
            filter.role === undefined ? undefined : eq(members.role, filter.role),
            filter.afterId === undefined ? undefined : gt(members.id, filter.afterId),
          ),
        )
        .orderBy(asc(members.id))
        .limit(filter.limit)
    },
    async updateMember(tx, tenantId, memberId, values) {
      await tx.update(members).set(values).where(and(eq(members.tenantId, tenantId), eq(members.id, memberId)))
    },

    async insertVerificationToken(tx, token) {
      await tx.insert(verificationTokens).values(token)
    },
    async consumeVerificationToken(tx, tenantId, purpose, tokenDigest, at) {
      const [row] = await tx
        .update(verificationTokens)
        .set({ consumedAt: at })
        .where(
          and(
            eq(verificationTokens.tenantId, tenantId),
            eq(verificationTokens.purpose, purpose),
            eq(verificationTokens.tokenDigest, tokenDigest),
            isNull(verificationTokens.consumedAt),
            gt(verificationTokens.expiresAt, at),
          ),
        )
        .returning()
      return row
    },
  }
}
