/**
 * Who may approve a PaymentIntent (spec, "Decide rules", money-path approval checks), in the spec's order:
 * an active member; of the admin or approver role (the owner counts as an admin); whose approval domains
 * cover the intent; whose per-item limit covers the amount; who is not the payee; and, where a distinct
 * second approver is required, not one who already approved. The first check that fails is the answer,
 * with the spec's reason. Pure: the service reads the member, the approvals so far and whether the member
 * is the payee, and hands them in.
 */
import { compareMoney, type Money } from '../../../kernel/money.ts'
import type { MemberRole } from '../../../kernel/principal.ts'
import type { PaymentActionType } from './intents.ts'

export const approvalRefusalReasons = [
  'actor_unresolved',
  'actor_inactive',
  'domain_not_authorized',
  'actor_limit_exceeded',
  'self_approval_blocked',
  'second_approval_required',
] as const
export type ApprovalRefusalReason = (typeof approvalRefusalReasons)[number]

/** The member an approving user is, as the tenants module records them. */
export interface Approver {
  readonly memberId: string
  readonly status: 'active' | 'deactivated'
  readonly role: MemberRole
  /** `*`, action types, or proposal types (`payment` covers every PaymentIntent). */
  readonly approvalDomains: readonly string[]
  /** Per-item limit; null: none. */
  readonly approvalLimit: Money | null
}

export interface ApprovalRequest {
  /** The member the caller is; undefined when the caller is not a user with a member record (an agent, a service token). */
  readonly approver: Approver | undefined
  readonly intent: { readonly actionType: PaymentActionType; readonly amount: string; readonly currency: string }
  /** Whether the approver is the payee (the destination counterparty names one of the member's identities). */
  readonly approverIsPayee: boolean
  /** Members who already approved this intent. */
  readonly approvedBy: readonly string[]
  /** Distinct approvals the intent needs in all. */
  readonly approvalsRequired: number
}

export type ApprovalCheck =
  | { readonly ok: true; readonly reachesQuorum: boolean }
  | { readonly ok: false; readonly reason: ApprovalRefusalReason; readonly message: string }

const approvingRoles: ReadonlySet<MemberRole> = new Set(['owner', 'admin', 'approver'])

/** Whether the member's approval domains cover an intent of this action type. */
export function domainCovers(domains: readonly string[], actionType: PaymentActionType): boolean {
  return domains.includes('*') || domains.includes('payment') || domains.includes(actionType)
}

/** The money-path approval checks in the spec's order; the first failure, or whether this approval reaches the quorum. */
export function checkApproval(request: ApprovalRequest): ApprovalCheck {
  const { approver, intent } = request
  if (approver === undefined) return refuse('actor_unresolved', 'Only a member of the tenant can approve; the caller is not one.')
  if (approver.status !== 'active') return refuse('actor_inactive', 'The member is deactivated.')
  // The spec's reasons name no role failure: a viewer has no approval domain to speak of.
  if (!approvingRoles.has(approver.role)) return refuse('domain_not_authorized', `A ${approver.role} approves nothing; an admin or approver must.`)
  if (!domainCovers(approver.approvalDomains, intent.actionType)) {
    return refuse('domain_not_authorized', `The member's approval domains do not include ${intent.actionType} (or payment, or *).`)
  }
  if (approver.approvalLimit !== null) {
    const comparison = compareMoney({ currency: intent.currency, value: intent.amount }, approver.approvalLimit)
    if (comparison.status !== 'compared') {
      return refuse('actor_limit_exceeded', `The member's per-item limit is in ${approver.approvalLimit.currency}; it does not cover an amount in ${intent.currency}.`)
    }
    if (comparison.order > 0) {
      return refuse('actor_limit_exceeded', `${intent.amount} ${intent.currency} is above the member's per-item limit of ${approver.approvalLimit.value} ${approver.approvalLimit.currency}.`)
    }
  }
  if (request.approverIsPayee) return refuse('self_approval_blocked', 'The member is the payee of this intent.')
  if (request.approvedBy.includes(approver.memberId)) {
    return refuse('second_approval_required', 'The member already approved this intent; a distinct second member must approve.')
  }
  const approvals = new Set(request.approvedBy).size + 1
  return { ok: true, reachesQuorum: approvals >= request.approvalsRequired }
}

function refuse(reason: ApprovalRefusalReason, message: string): ApprovalCheck {
  return { ok: false, reason, message }
}

/**
 * Who may reject, pause or cancel on the tenant's side: an active member of an approving role whose
 * domains cover the intent (the first three approval checks). The per-item limit, the payee and the
 * second-approver checks guard letting money out; saying no needs no more authority than this.
 */
export function checkMemberAuthority(approver: Approver | undefined, actionType: PaymentActionType): ApprovalCheck {
  if (approver === undefined) return refuse('actor_unresolved', 'Only a member of the tenant can decide on a payment intent; the caller is not one.')
  if (approver.status !== 'active') return refuse('actor_inactive', 'The member is deactivated.')
  if (!approvingRoles.has(approver.role)) return refuse('domain_not_authorized', `A ${approver.role} decides on no payment intent; an admin or approver must.`)
  if (!domainCovers(approver.approvalDomains, actionType)) {
    return refuse('domain_not_authorized', `The member's approval domains do not include ${actionType} (or payment, or *).`)
  }
  return { ok: true, reachesQuorum: false }
}
