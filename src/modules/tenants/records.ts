/**
 * New tenant, user and member rows, built in one place so that signup, platform provisioning and
 * invitations create them alike (status, defaults, timestamps).
 */
import type { StewardEnvironment } from '../../kernel/context.ts'
import type { MemberRole } from '../../kernel/principal.ts'
import { defaultApprovalDomains, type ApprovalDomain } from './domain/members.ts'
import type { MemberRow, TenantRow, UserRow } from './tenants.store.ts'

export function newTenant(fields: {
  id: string
  name: string
  environment: StewardEnvironment
  orgId?: string | null
  identity?: { issuer: string; subject: string } | undefined
  at: Date
}): TenantRow {
  return {
    id: fields.id,
    name: fields.name,
    status: 'active',
    environment: fields.environment,
    orgId: fields.orgId ?? null,
    identityIssuer: fields.identity?.issuer ?? null,
    identitySubject: fields.identity?.subject ?? null,
    rateLimitTier: 'free',
    rateLimitPerMinute: null,
    rateLimitBurst: null,
    createdAt: fields.at,
    updatedAt: fields.at,
  }
}

/** A user starts pending: active once the email is verified or the invitation accepted. */
export function newUser(fields: { id: string; tenantId: string; email: string; passwordHash: string | null; at: Date }): UserRow {
  return { ...fields, status: 'pending', emailVerifiedAt: null, createdAt: fields.at, updatedAt: fields.at }
}

export function newMember(fields: {
  id: string
  tenantId: string
  userId: string
  role: MemberRole
  status: 'invited' | 'active'
  approvalDomains?: ApprovalDomain[] | undefined
  approvalLimit?: { currency: string; value: string } | null | undefined
  invitedBy: string | null
  at: Date
}): MemberRow {
  return {
    id: fields.id,
    tenantId: fields.tenantId,
    userId: fields.userId,
    role: fields.role,
    status: fields.status,
    approvalDomains: fields.approvalDomains ?? defaultApprovalDomains(fields.role),
    approvalLimitValue: fields.approvalLimit?.value ?? null,
    approvalLimitCurrency: fields.approvalLimit?.currency ?? null,
    invitedBy: fields.invitedBy,
    deactivatedAt: null,
    createdAt: fields.at,
    updatedAt: fields.at,
  }
}
