import { describe, expect, it } from 'vitest'
import { checkApproval, checkMemberAuthority, type Approver, type ApprovalRequest } from './approvals.ts'

const approver = (overrides: Partial<Approver> = {}): Approver => ({
  memberId: 'mem_a',
  status: 'active',
  role: 'approver',
  approvalDomains: ['ach_outbound'],
  approvalLimit: { currency: 'USD', value: '1000.00' },
  ...overrides,
})

const request = (overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  approver: approver(),
  intent: { actionType: 'ach_outbound', amount: '250.00', currency: 'USD' },
  approverIsPayee: false,
  approvedBy: [],
  approvalsRequired: 1,
  ...overrides,
})

describe('money-path approval checks, in the spec order', () => {
  it.each<[string, Partial<ApprovalRequest>, string]>([
    ['no member (an agent, a service token)', { approver: undefined }, 'actor_unresolved'],
    ['a deactivated member', { approver: approver({ status: 'deactivated' }) }, 'actor_inactive'],
    ['a viewer', { approver: approver({ role: 'viewer', approvalDomains: ['*'] }) }, 'domain_not_authorized'],
    ['a domain that does not cover the action type', { approver: approver({ approvalDomains: ['wire', 'vendor_risk'] }) }, 'domain_not_authorized'],
    ['no domains at all', { approver: approver({ approvalDomains: [] }) }, 'domain_not_authorized'],
    ['above the per-item limit', { intent: { actionType: 'ach_outbound', amount: '1000.01', currency: 'USD' } }, 'actor_limit_exceeded'],
    ['a limit in another currency', { intent: { actionType: 'ach_outbound', amount: '1.00', currency: 'EUR' } }, 'actor_limit_exceeded'],
    ['the payee', { approverIsPayee: true }, 'self_approval_blocked'],
    ['a repeated approval by the same member', { approvedBy: ['mem_a'], approvalsRequired: 2 }, 'second_approval_required'],
    ['a repeated approval, even where one suffices', { approvedBy: ['mem_a'] }, 'second_approval_required'],
    // Order: the first failing check names the reason.
    ['deactivated and the payee: inactive first', { approver: approver({ status: 'deactivated' }), approverIsPayee: true }, 'actor_inactive'],
    ['over the limit and the payee: limit first', { approverIsPayee: true, intent: { actionType: 'ach_outbound', amount: '5000', currency: 'USD' } }, 'actor_limit_exceeded'],
  ])('refuses %s: %s', (_name, overrides, reason) => {
    const check = checkApproval(request(overrides))
    expect(check).toMatchObject({ ok: false, reason })
  })

  it.each<[string, Partial<ApprovalRequest>, boolean]>([
    ['an approver in domain, under the limit', {}, true],
    ['exactly at the limit', { intent: { actionType: 'ach_outbound', amount: '1000', currency: 'USD' } }, true],
    ['no per-item limit', { approver: approver({ approvalLimit: null }), intent: { actionType: 'ach_outbound', amount: '99999999', currency: 'USD' } }, true],
    ['domain payment covers every action type', { approver: approver({ approvalDomains: ['payment'] }), intent: { actionType: 'wire', amount: '1', currency: 'USD' } }, true],
    ['domain * covers every action type', { approver: approver({ approvalDomains: ['*'] }), intent: { actionType: 'onchain_transfer', amount: '1', currency: 'USD' } }, true],
    ['the owner', { approver: approver({ role: 'owner', approvalDomains: ['*'] }) }, true],
    ['the first of two approvals', { approvalsRequired: 2 }, false],
    ['a distinct second approval', { approvalsRequired: 2, approvedBy: ['mem_b'] }, true],
  ])('accepts %s (reaches quorum: %s)', (_name, overrides, reachesQuorum) => {
    expect(checkApproval(request(overrides))).toEqual({ ok: true, reachesQuorum })
  })
})

describe('authority to reject, pause or cancel', () => {
  it.each<[string, Approver | undefined, string | undefined]>([
    ['no member', undefined, 'actor_unresolved'],
    ['a deactivated member', approver({ status: 'deactivated' }), 'actor_inactive'],
    ['a viewer', approver({ role: 'viewer', approvalDomains: ['*'] }), 'domain_not_authorized'],
    ['out of domain', approver({ approvalDomains: ['wire'] }), 'domain_not_authorized'],
    ['in domain, whatever the limit', approver({ approvalLimit: { currency: 'USD', value: '0.01' } }), undefined],
  ])('%s → %s', (_name, member, reason) => {
    const check = checkMemberAuthority(member, 'ach_outbound')
    if (reason === undefined) expect(check.ok).toBe(true)
    else expect(check).toMatchObject({ ok: false, reason })
  })
})
