/**
 * Onboarding: self-serve signup, email verification and invitation acceptance.
 *
 * Each command runs in one transaction holding the change, its audit event and any business event or
 * mail job, so a failure leaves no partial tenant, user or token behind.
 */
import { digestOf } from '../../kernel/audit-record.ts'
import type { PasswordHasher } from '../../kernel/passwords.ts'
import { passwordByteLength, passwordBytesMax, passwordBytesMin } from '../../kernel/passwords.ts'
import { tokenDigest } from '../../kernel/secrets.ts'
import type { CommandContext } from '../../kernel/context.ts'
import { isUniqueViolation } from '../../platform/db/errors.ts'
import type { CoreDeps } from '../../platform/deps.ts'
import { AppError } from '../../kernel/errors.ts'
import type { DefaultPolicyProvisioner } from '../policy/index.ts'
import { newMember, newTenant, newUser } from './records.ts'
import type { TenantsStore } from './tenants.store.ts'
import { createTokenIssuer } from './verification-tokens.ts'
import { mailSendQueue } from '../../platform/mail/mail.job.ts'

const defaultTenantName = 'Sandbox tenant'

export interface SignupInput {
  readonly email: string
  readonly password: string
  readonly tenant_name?: string | undefined
}

export type DeliveredToken = { verification_token: string } | { verification_sent: true }

export type SignupResult = { tenant_id: string; user_id: string; status: 'pending' } & DeliveredToken

export interface OnboardingService {
  signup(input: SignupInput, context: CommandContext): Promise<SignupResult>
  verifyEmail(input: { tenant_id: string; token: string }, context: CommandContext): Promise<{ verified: true; user_id: string; status: 'active' }>
  acceptInvitation(
    input: { tenant_id: string; token: string; password: string },
    context: CommandContext,
  ): Promise<{ user_id: string; member_id: string; status: 'active' }>
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

export function assertPasswordLength(password: string): void {
  const bytes = passwordByteLength(password)
  if (bytes < passwordBytesMin || bytes > passwordBytesMax) {
    throw new AppError('request_body_invalid', `The password must be ${passwordBytesMin} to ${passwordBytesMax} bytes.`, {
      issues: [{ path: '/password', message: `must be ${passwordBytesMin} to ${passwordBytesMax} bytes (UTF-8); got ${bytes}`, keyword: 'byteLength' }],
    })
  }
}

export function createOnboardingService(
  deps: CoreDeps & { store: TenantsStore; passwords: PasswordHasher; defaultPolicy: DefaultPolicyProvisioner },
): OnboardingService {
  const { db, store, audit, events, jobs, ids, clock, defaultPolicy } = deps
  const production = deps.environment === 'production'
  const issueToken = createTokenIssuer(deps)

  return {
    /**
     * Creates a tenant, its pending owner, a verification token and the default policy (active). Audits
     * tenant.signed_up (with the default policy's id and hash); emits member.changed.
     */
    async signup(input, context) {
      const email = normalizeEmail(input.email)
      assertPasswordLength(input.password)
      // Hash outside the transaction: scrypt takes ~200 ms and must not hold a connection or lock.
      const passwordHash = await deps.passwords.hash(input.password)
      const now = clock.now()
      const tenantId = ids.newUuid()
      const userId = ids.newId('user')
      const memberId = ids.newId('member')
      let token = ''

      try {
        await db.transaction(async (tx) => {
          if ((await store.findUserByEmail(tx, email)) !== undefined) throw new AppError('signup_email_taken')
          await store.insertTenant(tx, newTenant({ id: tenantId, name: input.tenant_name ?? defaultTenantName, environment: deps.environment, at: now }))
          await store.insertUser(tx, newUser({ id: userId, tenantId, email, passwordHash, at: now }))
          await store.insertMember(tx, newMember({ id: memberId, tenantId, userId, role: 'owner', status: 'active', invitedBy: null, at: now }))
          token = await issueToken(tx, { tenantId, userId, purpose: 'email_verification' })
          const policy = await defaultPolicy.provision(tx, tenantId)
          const recorded = await audit.record(tx, {
            tenantId,
            layer: 'audit',
            actor: { type: 'user', id: userId },
            action: 'tenant.signed_up',
            entity: { type: 'tenant', id: tenantId },
            inputs: { request: digestOf({ email, tenant_name: input.tenant_name ?? null }) },
            outputs: { user_id: userId, member_id: memberId, user_status: 'pending', ...policy },
            requestId: context.requestId,
          })
          await events.record(tx, {
            tenantId,
            type: 'member.changed',
            payload: { member_id: memberId, user_id: userId, change: 'created', role: 'owner', status: 'active' },
            auditEventId: recorded.id,
          })
          if (production) {
            await jobs.enqueue(tx, mailSendQueue, {
              to: email,
              subject: 'Verify your Steward email address',
              text: verificationMailText(deps.publicBaseUrl, tenantId, token),
            })
          }
        })
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_unique')) throw new AppError('signup_email_taken')
        throw error
      }
      return production
        ? { tenant_id: tenantId, user_id: userId, status: 'pending', verification_sent: true }
        : { tenant_id: tenantId, user_id: userId, status: 'pending', verification_token: token }
    },

    /** Consumes a verification token (single use, 24 h, this tenant only) and activates the user. Audits user.email_verified. */
    async verifyEmail(input, context) {
      const now = clock.now()
      return db.transaction(async (tx) => {
        const consumed = await store.consumeVerificationToken(tx, input.tenant_id, 'email_verification', tokenDigest(input.token), now)
        if (consumed === undefined) throw new AppError('signup_token_invalid')
        await store.activateUser(tx, consumed.tenantId, consumed.userId, { at: now })
        await audit.record(tx, {
          tenantId: consumed.tenantId,
          layer: 'audit',
          actor: { type: 'user', id: consumed.userId },
          action: 'user.email_verified',
          entity: { type: 'user', id: consumed.userId },
          inputs: { verification_token_id: consumed.id },
          outputs: { user_status: 'active' },
          requestId: context.requestId,
        })
        return { verified: true as const, user_id: consumed.userId, status: 'active' as const }
      })
    },

    /** Consumes an invitation token, sets the password, activates user and member. Audits member.joined; emits member.changed. */
    async acceptInvitation(input, context) {
      assertPasswordLength(input.password)
      const passwordHash = await deps.passwords.hash(input.password)
      const now = clock.now()
      return db.transaction(async (tx) => {
        const consumed = await store.consumeVerificationToken(tx, input.tenant_id, 'invitation', tokenDigest(input.token), now)
        if (consumed === undefined) throw new AppError('signup_token_invalid')
        const found = await store.findMemberByUser(tx, consumed.tenantId, consumed.userId)
        // A member deactivated after being invited cannot join by accepting the old invitation.
        if (found === undefined || found.member.status !== 'invited') throw new AppError('signup_token_invalid')
        await store.activateUser(tx, consumed.tenantId, consumed.userId, { passwordHash, at: now })
        await store.updateMember(tx, consumed.tenantId, found.member.id, { status: 'active', updatedAt: now })
        const recorded = await audit.record(tx, {
          tenantId: consumed.tenantId,
          layer: 'audit',
          actor: { type: 'user', id: consumed.userId },
          action: 'member.joined',
          entity: { type: 'member', id: found.member.id },
          inputs: { invitation_token_id: consumed.id },
          outputs: { member_status: 'active', user_status: 'active' },
          requestId: context.requestId,
        })
        await events.record(tx, {
          tenantId: consumed.tenantId,
          type: 'member.changed',
          payload: { member_id: found.member.id, user_id: consumed.userId, change: 'joined', role: found.member.role, status: 'active' },
          auditEventId: recorded.id,
        })
        return { user_id: consumed.userId, member_id: found.member.id, status: 'active' as const }
      })
    },
  }
}

export function verificationMailText(publicBaseUrl: string, tenantId: string, token: string): string {
  return [
    'Welcome to Steward.',
    '',
    'Confirm your email address by sending this token to POST /v1/auth/verify-email within 24 hours:',
    `  base URL:  ${publicBaseUrl}`,
    `  tenant_id: ${tenantId}`,
    `  token:     ${token}`,
    '',
    'If you did not sign up, ignore this message.',
  ].join('\n')
}

export function invitationMailText(publicBaseUrl: string, tenantId: string, token: string): string {
  return [
    'You have been invited to a Steward tenant.',
    '',
    'Choose a password and accept with POST /v1/auth/accept-invitation within 7 days:',
    `  base URL:  ${publicBaseUrl}`,
    `  tenant_id: ${tenantId}`,
    `  token:     ${token}`,
  ].join('\n')
}
