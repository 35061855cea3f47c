/**
 * What the tenant services need from storage. Every method that touches a tenant's rows takes the
 * tenant id and filters by it: a row of another tenant is, to the caller, a row that does not exist.
 */
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { members, tenants, users, verificationTokens } from './tenants.tables.ts'

export type TenantRow = typeof tenants.$inferSelect
export type UserRow = typeof users.$inferSelect
export type MemberRow = typeof members.$inferSelect
export type VerificationTokenRow = typeof verificationTokens.$inferSelect
export type VerificationPurpose = 'email_verification' | 'invitation'

export interface MemberWithUser {
  readonly member: MemberRow
  readonly user: UserRow
}

export interface MemberListFilter {
  readonly status?: MemberRow['status'] | undefined
  readonly role?: MemberRow['role'] | undefined
  /** Rows with id greater than this (the cursor position). */
  readonly afterId?: string | undefined
  readonly limit: number
}


export interface TenantsStore {
  insertTenant(tx: Tx, tenant: TenantRow): Promise<void>
  findTenant(executor: Executor, tenantId: string): Promise<TenantRow | undefined>
  findTenantByIdentity(executor: Executor, issuer: string, subject: string): Promise<TenantRow | undefined>

  insertUser(tx: Tx, user: UserRow): Promise<void>
  /** Through the login_emails directory: the email's tenant, then its user. */
  findUserByEmail(executor: Executor, email: string): Promise<UserRow | undefined>
  activateUser(tx: Tx, tenantId: string, userId: string, values: { passwordHash?: string; at: Date }): Promise<void>

  insertMember(tx: Tx, member: MemberRow): Promise<void>
  findMember(executor: Executor, tenantId: string, memberId: string, options?: { forUpdate?: boolean }): Promise<MemberWithUser | undefined>
  findMemberByUser(executor: Executor, tenantId: string, userId: string): Promise<MemberWithUser | undefined>
  listMembers(executor: Executor, tenantId: string, filter: MemberListFilter): Promise<MemberWithUser[]>
  updateMember(tx: Tx, tenantId: string, memberId: string, values: Partial<Omit<MemberRow, 'id' | 'tenantId' | 'userId' | 'createdAt'>>): Promise<void>

  insertVerificationToken(tx: Tx, token: VerificationTokenRow): Promise<void>
  /**
   * Marks the token consumed if it is this tenant's, of this purpose, unconsumed and unexpired; returns
   * it, or undefined. One UPDATE does both, so two concurrent uses cannot both succeed.
   */
  consumeVerificationToken(tx: Tx, tenantId: string, purpose: VerificationPurpose, tokenDigest: string, at: Date): Promise<VerificationTokenRow | undefined>
}

/** The constraint a second user with a taken email violates: the login_emails directory's key, unique across the service. */
export const emailTakenConstraint = 'login_emails_pkey'
