/**
 * Members: who belongs to a tenant, with which role, in which approval domains, up to which amount per
 * item. Approvals and proposal decisions check these records; every change is audited and emits
 * `member.changed`.
 */
import { assert } from '../../kernel/assert.ts'
import { digestOf } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { type CommandContext, auditedBy, requirePrincipal, type StewardEnvironment } from '../../kernel/context.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import { formatAmount } from '../../kernel/money.ts'
import type { CommandResult, CommandRunner, CommandWork } from '../../platform/commands/command.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import { isUniqueViolation } from '../../platform/db/errors.ts'
import { mailSendQueue } from '../../platform/mail/mail.job.ts'
import { assertMemberChangeAllowed, type ApprovalDomain, type AssignableRole } from './domain/members.ts'
import { invitationMailText, normalizeEmail } from './onboarding.service.ts'
import { newMember, newUser } from './records.ts'
import { emailTakenConstraint, type MemberRow, type MemberWithUser, type TenantsStore } from './tenants.store.ts'
import type { TokenIssuer } from './verification-tokens.ts'

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

/** The member a change names (its path parameters). */
export interface MemberRef {
  readonly tenant_id: string
  readonly member_id: string
}

export interface InviteInput {
  readonly tenant_id: string
  readonly email: string
  readonly role: AssignableRole
  readonly approval_domains?: ApprovalDomain[] | undefined
  readonly approval_limit?: ApprovalLimit | null | undefined
}

export interface UpdateInput extends MemberRef {
  readonly role?: AssignableRole | undefined
  readonly approval_domains?: ApprovalDomain[] | undefined
  readonly approval_limit?: ApprovalLimit | null | undefined
}

export type InviteResult = { member: MemberView } & ({ invitation_token: string } | { invitation_sent: true })

/** What an invitation's idempotency record keeps: the token's seed, never the token. */
type InviteOutcome = { member: MemberView } & ({ invitation_token_seed: string } | { invitation_sent: true })

export const memberPageRows = { defaultRows: 50, maxRows: 500 } as const

/**
 * The member commands take an Idempotency-Key (scoped to the tenant): a repeat with the same key and
 * input replays the first outcome (`replayed: true`) and changes nothing.
 */
export interface MembersService {
  invite(context: CommandContext, input: InviteInput): Promise<CommandResult<InviteResult>>
  list(
    tenantId: string,
    query: { status?: MemberRow['status'] | undefined; role?: MemberRow['role'] | undefined; limit?: number | undefined; cursor?: string | undefined },
  ): Promise<{ members: MemberView[]; next_cursor: string | null }>
  get(tenantId: string, memberId: string): Promise<MemberView>
  update(context: CommandContext, input: UpdateInput): Promise<CommandResult<MemberView>>
  deactivate(context: CommandContext, input: MemberRef): Promise<CommandResult<MemberView>>
  reactivate(context: CommandContext, input: MemberRef): Promise<CommandResult<MemberView>>
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
        : { currency: member.approvalLimitCurrency, value: formatAmount(member.approvalLimitValue, member.approvalLimitCurrency) },
    invited_by: member.invitedBy,
    created_at: member.createdAt.toISOString(),
    updated_at: member.updatedAt.toISOString(),
    deactivated_at: member.deactivatedAt?.toISOString() ?? null,
  }
}

export function createMembersService(deps: {
  db: Database
  commands: CommandRunner
  store: TenantsStore
  verificationTokens: TokenIssuer
  cursors: CursorCodec
  ids: IdSource
  clock: Clock
  environment: StewardEnvironment
  /** Where the mailed invitation tells the member to accept it. */
  publicBaseUrl: string
}): MembersService {
  const { db, commands, store, verificationTokens, ids, clock, cursors } = deps
  const production = deps.environment === 'production'

  /** The audit event and member.changed event of a change, for the runner to commit. */
  function changeRecorded(context: CommandContext, member: MemberView, action: string, change: string, inputs: Record<string, string>) {
    return {
      audit: [
        auditedBy(context, {
          action,
          entity: { type: 'member', id: member.id },
          inputs,
          outputs: { role: member.role, status: member.status, approval_domains: member.approval_domains },
        }),
      ],
      events: [
        {
          tenantId: member.tenant_id,
          type: 'member.changed' as const,
          payload: {
            member_id: member.id,
            user_id: member.user_id,
            change,
            role: member.role,
            status: member.status,
            approval_domains: member.approval_domains,
            approval_limit: member.approval_limit,
          },
        },
      ],
    }
  }

  async function loadForChange(tx: Tx, tenantId: string, memberId: string): Promise<MemberWithUser> {
    const found = await store.findMember(tx, tenantId, memberId, { forUpdate: true })
    if (found === undefined) throw new AppError('member_not_found')
    return found
  }

  async function reload(tx: Tx, tenantId: string, memberId: string): Promise<MemberView> {
    const found = await store.findMember(tx, tenantId, memberId)
    assert(found !== undefined, `member ${memberId} is readable inside the transaction that wrote it`)
    return toMemberView(found)
  }

  return {
    /**
     * Creates a pending user and an invited member with a 7-day invitation token. Audits member.invited;
     * emits member.changed; in production, enqueues the invitation mail.
     */
    async invite(context, input) {
      const principal = requirePrincipal(context)
      const { tenant_id: tenantId, ...request } = input
      const email = normalizeEmail(input.email)
      const now = clock.now()
      const userId = ids.newId('user')
      const memberId = ids.newId('member')
      let result: CommandResult<InviteOutcome>
      try {
        result = await commands.run(context, { name: 'members.invite', tenantId, input }, async (tx): Promise<CommandWork<InviteOutcome>> => {
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
          const { token, seed } = await verificationTokens.issue(tx, { tenantId, userId, purpose: 'invitation' })
          const member = await reload(tx, tenantId, memberId)
          const recorded = changeRecorded(context, member, 'member.invited', 'created', { request: digestOf(request) })
          if (!production) return { outcome: { member, invitation_token_seed: seed }, ...recorded }
          return {
            outcome: { member, invitation_sent: true },
            ...recorded,
            jobs: [{ queue: mailSendQueue, payload: { to: email, subject: 'You are invited to Steward', text: invitationMailText(deps.publicBaseUrl, tenantId, token) } }],
          }
        })
      } catch (error) {
        if (isUniqueViolation(error, emailTakenConstraint)) throw new AppError('signup_email_taken')
        throw error
      }
      const { outcome } = result
      return {
        ...result,
        outcome: 'invitation_token_seed' in outcome
          ? { member: outcome.member, invitation_token: verificationTokens.tokenOf('invitation', outcome.invitation_token_seed) }
          : outcome,
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
    async update(context, input) {
      const principal = requirePrincipal(context)
      const { tenant_id: tenantId, member_id: memberId, ...request } = input
      return commands.run(context, { name: 'members.update', tenantId, input }, async (tx) => {
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
        return { outcome: member, ...changeRecorded(context, member, 'member.updated', 'updated', { request: digestOf(request) }) }
      })
    },

    /** Deactivates a member: their tokens stop working at once. Idempotent. Audits member.deactivated; emits member.changed. */
    async deactivate(context, input) {
      const principal = requirePrincipal(context)
      const { tenant_id: tenantId, member_id: memberId } = input
      return commands.run(context, { name: 'members.deactivate', tenantId, input }, async (tx) => {
        const found = await loadForChange(tx, tenantId, memberId)
        assertMemberChangeAllowed(found.member, principal.id, 'deactivate')
        if (found.member.status === 'deactivated') return { outcome: toMemberView(found) }
        const now = clock.now()
        await store.updateMember(tx, tenantId, memberId, { status: 'deactivated', deactivatedAt: now, updatedAt: now })
        const member = await reload(tx, tenantId, memberId)
        return { outcome: member, ...changeRecorded(context, member, 'member.deactivated', 'deactivated', { previous_status: found.member.status }) }
      })
    },

    /** Undoes a deactivation: back to active, or to invited if the invitation was never accepted. Idempotent. */
    async reactivate(context, input) {
      const principal = requirePrincipal(context)
      const { tenant_id: tenantId, member_id: memberId } = input
      return commands.run(context, { name: 'members.reactivate', tenantId, input }, async (tx) => {
        const found = await loadForChange(tx, tenantId, memberId)
        assertMemberChangeAllowed(found.member, principal.id, 'reactivate')
        if (found.member.status !== 'deactivated') return { outcome: toMemberView(found) }
        const now = clock.now()
        const status = found.user.status === 'active' ? 'active' : 'invited'
        await store.updateMember(tx, tenantId, memberId, { status, deactivatedAt: null, updatedAt: now })
        const member = await reload(tx, tenantId, memberId)
        return { outcome: member, ...changeRecorded(context, member, 'member.reactivated', 'reactivated', { previous_status: 'deactivated' }) }
      })
    },
  }
}
