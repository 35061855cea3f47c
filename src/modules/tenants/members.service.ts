/**
 * Members: who belongs to a tenant, with which role, in which approval domains, up to which amount per
 * item. Approvals and proposal decisions check these records; every change is audited and emits
 * `member.changed`.
 */
import { digestOf } from '../../kernel/audit-record.ts'
import { type CommandContext, auditedBy, requirePrincipal } from '../../kernel/context.ts'
import { isUniqueViolation } from '../../platform/db/errors.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { CoreDeps } from '../../platform/deps.ts'
import { AppError } from '../../kernel/errors.ts'
import type { Tx } from '../../platform/db/database.ts'
import { assertMemberChangeAllowed, type ApprovalDomain, type AssignableRole } from './domain/members.ts'
import { newMember, newUser } from './records.ts'
import { invitationMailText, normalizeEmail } from './onboarding.service.ts'
import type { MemberRow, MemberWithUser, TenantsStore } from './tenants.store.ts'
import { createTokenIssuer } from './verification-tokens.ts'
import { mailSendQueue } from '../../platform/mail/mail.job.ts'

export interface ApprovalLimit {
  readonly currency: string
  readonly value: string
}

export interface MemberView {
  id: string
  tenant_id: string
  user_id: string
  email: string
  role: MemberRow['role']
  status: MemberRow['status']
  approval_domains: string[]
  approval_limit: ApprovalLimit | null
  invited_by: string | null
  created_at: string
  updated_at: string
  deactivated_at: string | null
}

export interface InviteInput {
  readonly email: string
  readonly role: AssignableRole
  readonly approval_domains?: ApprovalDomain[] | undefined
  readonly approval_limit?: ApprovalLimit | null | undefined
}

export interface UpdateInput {
  readonly role?: AssignableRole | undefined
  readonly approval_domains?: ApprovalDomain[] | undefined
  readonly approval_limit?: ApprovalLimit | null | undefined
}

export type InviteResult = { member: MemberView } & ({ invitation_token: string } | { invitation_sent: true })

export const memberPageRows = { defaultRows: 50, maxRows: 500 } as const

export interface MembersService {
  invite(tenantId: string, input: InviteInput, context: CommandContext): Promise<InviteResult>
  list(
    tenantId: string,
    query: { status?: MemberRow['status'] | undefined; role?: MemberRow['role'] | undefined; limit?: number | undefined; cursor?: string | undefined },
  ): Promise<{ members: MemberView[]; next_cursor: string | null }>
  get(tenantId: string, memberId: string): Promise<MemberView>
  update(tenantId: string, memberId: string, input: UpdateInput, context: CommandContext): Promise<MemberView>
  deactivate(tenantId: string, memberId: string, context: CommandContext): Promise<MemberView>
  reactivate(tenantId: string, memberId: string, context: CommandContext): Promise<MemberView>
}

export function toMemberView({ member, user }: MemberWithUser): MemberView {
  return {
    id: member.id,
    tenant_id: member.tenantId,
    user_id: member.userId,
    email: user.email,
    role: member.role,
    status: member.status,
    approval_domains: member.approvalDomains,
    approval_limit:
      member.approvalLimitValue === null || member.approvalLimitCurrency === null
        ? null
        : { currency: member.approvalLimitCurrency, value: normalizeDecimal(member.approvalLimitValue) },
    invited_by: member.invitedBy,
    created_at: member.createdAt.toISOString(),
    updated_at: member.updatedAt.toISOString(),
    deactivated_at: member.deactivatedAt?.toISOString() ?? null,
  }
}

/** `numeric` comes back with trailing zeros on some engines (`100.000000`); the wire carries the plain value. */
function normalizeDecimal(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value
}

export function createMembersService(deps: CoreDeps & { store: TenantsStore; cursors: CursorCodec }): MembersService {
  const { db, store, audit, events, jobs, ids, clock, cursors } = deps
  const production = deps.environment === 'production'
  const issueToken = createTokenIssuer(deps)

  async function recordChange(tx: Tx, context: CommandContext, member: MemberView, action: string, change: string, inputs: Record<string, string>) {
    const recorded = await audit.record(tx, auditedBy(context, {
      action,
      entity: { type: 'member', id: member.id },
      inputs,
      outputs: { role: member.role, status: member.status, approval_domains: member.approval_domains },
    }))
    await events.record(tx, {
      tenantId: member.tenant_id,
      type: 'member.changed',
      payload: {
        member_id: member.id,
        user_id: member.user_id,
        change,
        role: member.role,
        status: member.status,
        approval_domains: member.approval_domains,
        approval_limit: member.approval_limit,
      },
      auditEventId: recorded.id,
    })
  }

  async function loadForChange(tx: Tx, tenantId: string, memberId: string): Promise<MemberWithUser> {
    const found = await store.findMember(tx, tenantId, memberId, { forUpdate: true })
    if (found === undefined) throw new AppError('member_not_found')
    return found
  }

  async function reload(tx: Tx, tenantId: string, memberId: string): Promise<MemberView> {
    const found = await store.findMember(tx, tenantId, memberId)
    if (found === undefined) throw new Error(`member ${memberId} vanished inside its own transaction`)
    return toMemberView(found)
  }

  return {
    /** Creates a pending user and an invited member with a 7-day invitation token. Audits member.invited; emits member.changed. */
    async invite(tenantId, input, context) {
      const principal = requirePrincipal(context)
      const email = normalizeEmail(input.email)
      const now = clock.now()
      const userId = ids.newId('user')
      const memberId = ids.newId('member')
      try {
        return await db.transaction(async (tx) => {
          if ((await store.findUserByEmail(tx, email)) !== undefined) throw new AppError('signup_email_taken')
          await store.insertUser(tx, newUser({ id: userId, tenantId, email, passwordHash: null, at: now }))
          await store.insertMember(
            tx,
            newMember({
              id: memberId,
              tenantId,
              userId,
              role: input.role,
              status: 'invited',
              approvalDomains: input.approval_domains,
              approvalLimit: input.approval_limit,
              invitedBy: principal.id,
              at: now,
            }),
          )
          const token = await issueToken(tx, { tenantId, userId, purpose: 'invitation' })
          const member = await reload(tx, tenantId, memberId)
          await recordChange(tx, context, member, 'member.invited', 'created', { request: digestOf(input) })
          if (production) {
            await jobs.enqueue(tx, mailSendQueue, {
              to: email,
              subject: 'You are invited to Steward',
              text: invitationMailText(deps.publicBaseUrl, tenantId, token),
            })
            return { member, invitation_sent: true as const }
          }
          return { member, invitation_token: token }
        })
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_unique')) throw new AppError('signup_email_taken')
        throw error
      }
    },

    async list(tenantId, query) {
      const limit = query.limit ?? memberPageRows.defaultRows
      const listing = `members:${tenantId}`
      const afterId = query.cursor === undefined ? undefined : String(cursors.decode(listing, query.cursor).after_id)
      const rows = await store.listMembers(db.orm, tenantId, { status: query.status, role: query.role, afterId, limit: limit + 1 })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        members: page.map(toMemberView),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { after_id: last.member.id }) : null,
      }
    },

    async get(tenantId, memberId) {
      const found = await store.findMember(db.orm, tenantId, memberId)
      if (found === undefined) throw new AppError('member_not_found')
      return toMemberView(found)
    },

    /** Changes role, approval domains or limit. Locks the member row. Audits member.updated; emits member.changed. */
    async update(tenantId, memberId, input, context) {
      const principal = requirePrincipal(context)
      return db.transaction(async (tx) => {
        const found = await loadForChange(tx, tenantId, memberId)
        assertMemberChangeAllowed(found.member, principal.id, 'update')
        const now = clock.now()
        await store.updateMember(tx, tenantId, memberId, {
          ...(input.role === undefined ? {} : { role: input.role }),
          ...(input.approval_domains === undefined ? {} : { approvalDomains: input.approval_domains }),
          ...(input.approval_limit === undefined
            ? {}
            : { approvalLimitValue: input.approval_limit?.value ?? null, approvalLimitCurrency: input.approval_limit?.currency ?? null }),
          updatedAt: now,
        })
        const member = await reload(tx, tenantId, memberId)
        await recordChange(tx, context, member, 'member.updated', 'updated', { request: digestOf(input) })
        return member
      })
    },

    /** Deactivates a member: their tokens stop working at once. Idempotent. Audits member.deactivated; emits member.changed. */
    async deactivate(tenantId, memberId, context) {
      const principal = requirePrincipal(context)
      return db.transaction(async (tx) => {
        const found = await loadForChange(tx, tenantId, memberId)
        assertMemberChangeAllowed(found.member, principal.id, 'deactivate')
        if (found.member.status === 'deactivated') return toMemberView(found)
        const now = clock.now()
        await store.updateMember(tx, tenantId, memberId, { status: 'deactivated', deactivatedAt: now, updatedAt: now })
        const member = await reload(tx, tenantId, memberId)
        await recordChange(tx, context, member, 'member.deactivated', 'deactivated', { previous_status: found.member.status })
        return member
      })
    },

    /** Undoes a deactivation: back to active, or to invited if the invitation was never accepted. Idempotent. */
    async reactivate(tenantId, memberId, context) {
      const principal = requirePrincipal(context)
      return db.transaction(async (tx) => {
        const found = await loadForChange(tx, tenantId, memberId)
        assertMemberChangeAllowed(found.member, principal.id, 'reactivate')
        if (found.member.status !== 'deactivated') return toMemberView(found)
        const now = clock.now()
        const status = found.user.status === 'active' ? 'active' : 'invited'
        await store.updateMember(tx, tenantId, memberId, { status, deactivatedAt: null, updatedAt: now })
        const member = await reload(tx, tenantId, memberId)
        await recordChange(tx, context, member, 'member.reactivated', 'reactivated', { previous_status: 'deactivated' })
        return member
      })
    },
  }
}
