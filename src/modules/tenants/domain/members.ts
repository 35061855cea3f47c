/**
 * Member rules that need no storage: what an approval domain is, what a role confers, and which member
 * changes are allowed. Pure.
 */
import { paymentActionTypes } from '../../../kernel/action-types.ts'
import { AppError } from '../../../kernel/errors.ts'

import { type MemberRole } from '../../../kernel/principal.ts'


/** Public proposal types (spec, "Proposal"). */
export const proposalTypes = [
  'vendor_risk',
  'payment',
  'collections',
  'treasury',
  'cash_forecast',
  'dispute',
  'compliance',
  'revenue_intel',
  'reconciliation',
  'subscription',
  'fraud_anomaly',
  'personal_budget',
  'financial_health',
  'purchase_advisor',
  'tax_prep',
  'travel_finance',
  'bill_management',
  'debt_optimization',
  'savings',
] as const

/**
 * An approval domain names what a member may approve: `*` (everything), a PaymentIntent action type,
 * or a proposal type (`payment` covers every PaymentIntent). Approval checks match an intent's action type
 * or a proposal's type against these.
 */
export const approvalDomains = ['*', ...paymentActionTypes, ...proposalTypes] as const
export type ApprovalDomain = (typeof approvalDomains)[number]

export const assignableRoles = ['admin', 'approver', 'viewer'] as const satisfies readonly MemberRole[]
export type AssignableRole = (typeof assignableRoles)[number]

/** Domains a new member gets when the inviter names none: admins approve anything, others nothing. */
export function defaultApprovalDomains(role: MemberRole): ApprovalDomain[] {
  return role === 'admin' || role === 'owner' ? ['*'] : []
}

/** An amount as a decimal string: no sign, no exponent, at most 18 integer and 6 fractional digits. */
export const decimalAmountPattern = '^(0|[1-9][0-9]{0,17})(\\.[0-9]{1,6})?$'
export const currencyPattern = '^([A-Z]{3}|USDC)$'

/**
 * Guards member changes against locking a tenant out of itself: the owner is changed by no one through
 * these routes, and nobody changes their own role or deactivates themselves.
 */
export function assertMemberChangeAllowed(target: { role: string; userId: string }, actorUserId: string, change: 'update' | 'deactivate' | 'reactivate'): void {
  if (target.role === 'owner') {
    throw new AppError('member_change_forbidden', 'The tenant owner cannot be changed or deactivated through member routes.')
  }
  if (target.userId === actorUserId && change !== 'reactivate') {
    throw new AppError('member_change_forbidden', 'You cannot change your own role or deactivate yourself; ask another administrator.')
  }
}
