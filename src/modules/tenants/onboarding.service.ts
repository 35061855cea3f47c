/**
 * Onboarding: self-serve signup, email verification and invitation acceptance.
 *
 * Each command runs through the command runner: one transaction holding the change, its audit event and
 * any business event or mail job, so a failure leaves no partial tenant, user or token behind.
 */
import { digestOf } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { withoutIdempotencyKey, type CommandContext, type StewardEnvironment } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { PasswordHasher } from '../../kernel/passwords.ts'
import { passwordByteLength, passwordBytesMax, passwordBytesMin } from '../../kernel/passwords.ts'
import { tokenDigest } from '../../kernel/secrets.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import { isUniqueViolation } from '../../platform/db/errors.ts'
import { mailSendQueue } from '../../platform/mail/mail.job.ts'
import type { DefaultPolicyProvisioner } from './ports.ts'
import { newMember, newTenant, newUser } from './records.ts'
import { emailTakenConstraint, type TenantsStore } from './tenants.store.ts'
import type { TokenIssuer } from './verification-tokens.ts'

const defaultTenantName = 'Sandbox tenant'

export interface SignupInput {
  readonly email: string
  readonly password: string
  readonly tenant_name?: string | undefined
}

export type DeliveredToken = { verification_token: string } | { verification_sent: true }

export type SignupResult = { tenant_id: string; user_id: string; status: 'pending' } & DeliveredToken

export interface VerifyEmailInput {
  readonly tenant_id: string
  readonly token: string
}

export interface AcceptInvitationInput {
  readonly tenant_id: string
  readonly token: string
  readonly password: string
}

export interface OnboardingService {
  signup(context: CommandContext, input: SignupInput): Promise<SignupResult>
  verifyEmail(context: CommandContext, input: VerifyEmailInput): Promise<CommandResult<{ verified: true; user_id: string; status: 'active' }>>
  acceptInvitation(context: CommandContext, input: AcceptInvitationInput): Promise<CommandResult<{ user_id: string; member_id: string; status: 'active' }>>
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

export function createOnboardingService(deps: {
  commands: CommandRunner
  store: TenantsStore
  verificationTokens: TokenIssuer
  passwords: PasswordHasher
  defaultPolicy: DefaultPolicyProvisioner
  ids: IdSource
  clock: Clock
  environment: StewardEnvironment
  /** Where mailed tokens tell the user to send them. */
  publicBaseUrl: string
}): OnboardingService {
  const { commands, store, verificationTokens, ids, clock, defaultPolicy } = deps
  const production = deps.environment === 'production'

  return {
    /**
     * Creates a tenant, its pending owner, a verification token and the default policy (active). Audits
     * tenant.signed_up (with the default policy's id and hash); emits member.changed; in production,
     * enqueues the verification mail.
     *
     * Takes no Idempotency-Key: there is no tenant to scope a key before this command creates one, and
     * the key's request fingerprint would be a fast unsalted hash of the email and password. A repeated
     * signup answers 409 signup_email_taken, which is what a retry needs to know.
     */
    async signup(context, input) {
      const email = normalizeEmail(input.email)
      assertPasswordLength(input.password)
      // Hash outside the transaction: scrypt takes ~200 ms and must not hold a connection or lock.
      const passwordHash = await deps.passwords.hash(input.password)
      const now = clock.now()
      const tenantId = ids.newUuid()
      const userId = ids.newId('user')
      const memberId = ids.newId('member')
      const tenantName = input.tenant_name ?? null

      try {
        const { outcome } = await commands.run(withoutIdempotencyKey(context), { name: 'tenants.signup', tenantId, input: { email, tenant_name: tenantName } }, async (tx) => {
          if ((await store.findUserByEmail(tx, email)) !== undefined) throw new AppError('signup_email_taken')
          await store.insertTenant(tx, newTenant({ id: tenantId, name: input.tenant_name ?? defaultTenantName, environment: deps.environment, at: now }))
          await store.insertUser(tx, newUser({ id: userId, tenantId, email, passwordHash, at: now }))
          await store.insertMember(tx, newMember({ id: memberId, tenantId, userId, role: 'owner', status: 'active', invitedBy: null, at: now }))
          const { token } = await verificationTokens.issue(tx, { tenantId, userId, purpose: 'email_verification' })
          const policy = await defaultPolicy.provision(tx, tenantId)
          const outcome: SignupResult = production
            ? { tenant_id: tenantId, user_id: userId, status: 'pending', verification_sent: true }
            : { tenant_id: tenantId, user_id: userId, status: 'pending', verification_token: token }
          return {
            outcome,
            audit: [
              {
                tenantId,
                layer: 'audit',
                actor: { type: 'user', id: userId },
                action: 'tenant.signed_up',
                entity: { type: 'tenant', id: tenantId },
                inputs: { request: digestOf({ email, tenant_name: tenantName }) },
                outputs: { user_id: userId, member_id: memberId, user_status: 'pending', ...policy },
                requestId: context.requestId,
              },
            ],
            events: [{ type: 'member.changed', payload: { member_id: memberId, user_id: userId, change: 'created', role: 'owner', status: 'active' } }],
            jobs: production
              ? [{ queue: mailSendQueue, payload: { to: email, subject: 'Verify your Steward email address', text: verificationMailText(deps.publicBaseUrl, tenantId, token) } }]
              : [],
          }
        })
        return outcome
      } catch (error) {
        if (isUniqueViolation(error, emailTakenConstraint)) throw new AppError('signup_email_taken')
        throw error
      }
    },

    /**
     * Consumes a verification token (single use, 24 h, this tenant only) and activates the user. Audits
     * user.email_verified. An Idempotency-Key is scoped to the tenant named in the input (the route is
     * public): a retry after a lost response replays the success instead of finding the token consumed.
     */
    async verifyEmail(context, input) {
      const now = clock.now()
      return commands.run(context, { name: 'tenants.verify_email', tenantId: input.tenant_id, input }, async (tx) => {
        const consumed = await store.consumeVerificationToken(tx, input.tenant_id, 'email_verification', tokenDigest(input.token), now)
        if (consumed === undefined) throw new AppError('signup_token_invalid')
        await store.activateUser(tx, consumed.tenantId, consumed.userId, { at: now })
        return {
          outcome: { verified: true as const, user_id: consumed.userId, status: 'active' as const },
          audit: [
            {
              tenantId: consumed.tenantId,
              layer: 'audit',
              actor: { type: 'user', id: consumed.userId },
              action: 'user.email_verified',
              entity: { type: 'user', id: consumed.userId },
              inputs: { verification_token_id: consumed.id },
              outputs: { user_status: 'active' },
              requestId: context.requestId,
            },
          ],
        }
      })
    },

    /**
     * Consumes an invitation token, sets the password, activates user and member. Audits member.joined;
     * emits member.changed. An Idempotency-Key is scoped to the tenant named in the input, as for
     * verify-email. (Its request fingerprint covers the password, but only hashed together with the
     * single-use token, 32 random bytes the database never holds: it cannot be searched for passwords.)
     */
    async acceptInvitation(context, input) {
      assertPasswordLength(input.password)
      const passwordHash = await deps.passwords.hash(input.password)
      const now = clock.now()
      return commands.run(context, { name: 'tenants.accept_invitation', tenantId: input.tenant_id, input }, async (tx) => {
        const consumed = await store.consumeVerificationToken(tx, input.tenant_id, 'invitation', tokenDigest(input.token), now)
        if (consumed === undefined) throw new AppError('signup_token_invalid')
        const found = await store.findMemberByUser(tx, consumed.tenantId, consumed.userId)
        // A member deactivated after being invited cannot join by accepting the old invitation.
        if (found === undefined || found.member.status !== 'invited') throw new AppError('signup_token_invalid')
        await store.activateUser(tx, consumed.tenantId, consumed.userId, { passwordHash, at: now })
        await store.updateMember(tx, consumed.tenantId, found.member.id, { status: 'active', updatedAt: now })
        return {
          outcome: { user_id: consumed.userId, member_id: found.member.id, status: 'active' as const },
          audit: [
            {
              tenantId: consumed.tenantId,
              layer: 'audit',
              actor: { type: 'user', id: consumed.userId },
              action: 'member.joined',
              entity: { type: 'member', id: found.member.id },
              inputs: { invitation_token_id: consumed.id },
              outputs: { member_status: 'active', user_status: 'active' },
              requestId: context.requestId,
            },
          ],
          events: [
            {
              type: 'member.changed',
              payload: { member_id: found.member.id, user_id: consumed.userId, change: 'joined', role: found.member.role, status: 'active' },
            },
          ],
        }
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
