/** Wire schemas of the tenant routes: onboarding, tenants, members. */
import Type from 'typebox'
import { memberRoles } from '../../kernel/principal.ts'
import { named, NextCursor, Nullable, pageQuery, PathId, Strict, TenantId, TenantPathId, Timestamp } from '../../platform/http/schemas.ts'
import { prefixedIdPattern } from '../../kernel/ids.ts'
import { approvalDomains, assignableRoles, currencyPattern, decimalAmountPattern } from './domain/members.ts'
import { memberPageRows } from './members.service.ts'

const Email = Type.String({ format: 'email', maxLength: 320 })
/** Byte bounds (12 to 4096 UTF-8 bytes) are checked by the service; the schema bounds characters loosely. */
const Password = Type.String({ minLength: 1, maxLength: 4096, description: '12 to 4096 bytes (UTF-8).' })
const OneTimeToken = Type.String({ minLength: 1, maxLength: 256 })

export const SignupBody = Strict({
  email: Email,
  password: Password,
  tenant_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Display name of the new tenant (default "Sandbox tenant").' })),
})

export const SignupResponse = Type.Union([
  Strict({
    tenant_id: TenantId,
    user_id: Type.String(),
    status: Type.Literal('pending'),
    verification_token: Type.String({ description: 'Outside production only: the email-verification token.' }),
  }),
  Strict({
    tenant_id: TenantId,
    user_id: Type.String(),
    status: Type.Literal('pending'),
    verification_sent: Type.Literal(true, { description: 'Production only: the token was mailed.' }),
  }),
])

export const VerifyEmailBody = Strict({ tenant_id: TenantId, token: OneTimeToken })
export const VerifyEmailResponse = Strict({ verified: Type.Literal(true), user_id: Type.String(), status: Type.Literal('active') })

export const AcceptInvitationBody = Strict({ tenant_id: TenantId, token: OneTimeToken, password: Password })
export const AcceptInvitationResponse = Strict({ user_id: Type.String(), member_id: Type.String(), status: Type.Literal('active') })

export const Tenant = named('Tenant', Strict({
  id: TenantId,
  name: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
  org_id: Nullable(Type.String()),
  identity: Nullable(Strict({ issuer: Type.String(), subject: Type.String() })),
  rate_limit_tier: Type.Union([Type.Literal('free'), Type.Literal('developer'), Type.Literal('production'), Type.Literal('enterprise')]),
  created_at: Timestamp,
  updated_at: Timestamp,
}))

export const ProvisionBody = Strict({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  identity: Type.Optional(
    Strict(
      {
        issuer: Type.String({ minLength: 1, maxLength: 200, description: 'The identity provider or platform namespace.' }),
        subject: Type.String({ minLength: 1, maxLength: 200, description: 'The identity within the issuer.' }),
      },
      { description: 'The platform identity to link; one identity links to at most one tenant.' },
    ),
  ),
  owner_email: Type.Optional(Email),
})

const InvitationDelivery = {
  invitation_token: Type.Optional(Type.String({ description: 'Outside production only: the invitation token.' })),
  invitation_sent: Type.Optional(Type.Literal(true, { description: 'Production only: the invitation was mailed.' })),
}

export const ProvisionResponse = Strict({
  tenant: Tenant,
  owner: Nullable(Strict({ user_id: Type.String(), member_id: Type.String(), ...InvitationDelivery })),
})

export const OrgPathParams = Strict({ orgId: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' }) })

export const DeletionResponse = Strict({
  tenantId: TenantId,
  deletedRows: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { description: 'Rows removed per table.' }),
  totalRows: Type.Integer({ minimum: 0 }),
})

const ApprovalLimit = Strict(
  {
    currency: Type.String({ pattern: currencyPattern, description: 'ISO 4217 code, or USDC.' }),
    value: Type.String({ pattern: decimalAmountPattern, description: 'Decimal string, at most 6 fractional digits; returned at its currency\'s scale, as an Amount ("2500.50" USD).' }),
  },
  { description: 'The largest single item this member may approve.' },
)

const ApprovalDomain = Type.Enum(approvalDomains, {
  description: '`*`, a PaymentIntent action type, or a proposal type (`payment` covers every PaymentIntent).',
})
const AssignableRole = Type.Enum(assignableRoles)

export const Member = named('Member', Strict({
  id: Type.String(),
  tenant_id: TenantId,
  user_id: Type.String(),
  email: Type.String(),
  role: Type.Enum(memberRoles),
  status: Type.Union([Type.Literal('invited'), Type.Literal('active'), Type.Literal('deactivated')]),
  approval_domains: Type.Array(Type.String()),
  approval_limit: Nullable(ApprovalLimit),
  invited_by: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  deactivated_at: Nullable(Timestamp),
}))

export const MemberPathParams = Strict({ tenant_id: TenantPathId, member_id: PathId('member_not_found', 'member', 'The member id') })

export const InviteBody = Strict({
  email: Email,
  role: AssignableRole,
  approval_domains: Type.Optional(Type.Array(ApprovalDomain, { maxItems: 64, uniqueItems: true })),
  approval_limit: Type.Optional(Nullable(ApprovalLimit)),
})

export const InviteResponse = Strict({ member: Member, ...InvitationDelivery })

export const UpdateMemberBody = Strict(
  {
    role: Type.Optional(AssignableRole),
    approval_domains: Type.Optional(Type.Array(ApprovalDomain, { maxItems: 64, uniqueItems: true })),
    approval_limit: Type.Optional(Nullable(ApprovalLimit)),
  },
  { minProperties: 1 },
)

export const MemberListQuery = Strict({
  status: Type.Optional(Type.Union([Type.Literal('invited'), Type.Literal('active'), Type.Literal('deactivated')])),
  role: Type.Optional(Type.Enum(memberRoles)),
  ...pageQuery(memberPageRows),
})

export const MemberListResponse = Strict({ members: Type.Array(Member), next_cursor: NextCursor })
