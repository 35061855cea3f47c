import { describe, expect, it } from 'vitest'
import {
  canMove,
  creationOutcome,
  humanApprovalFloorApplies,
  paymentActionTypes,
  paymentIntentMoves,
  paymentIntentStatuses,
  proposalProblems,
  sdkStatusOf,
  statusAfter,
  type PaymentActionType,
  type PaymentIntentMove,
  type PaymentIntentStatus,
} from './intents.ts'

describe('the state table', () => {
  // Every legal (status, move) pair, as the spec's table reads; everything else is 409 payment_intent_invalid_state.
  const legal: ReadonlyArray<readonly [PaymentIntentStatus, PaymentIntentMove, PaymentIntentStatus | undefined]> = [
    ['pending_approval', 'approve', undefined],
    ['awaiting_second_approval', 'approve', undefined],
    ['pending_approval', 'reject', 'rejected'],
    ['awaiting_second_approval', 'reject', 'rejected'],
    ['approved', 'execute', 'dispatching'],
    ['approved', 'pause', 'paused'],
    ['paused', 'resume', 'approved'],
    ['proposed', 'cancel', 'cancelled'],
    ['pending_approval', 'cancel', 'cancelled'],
    ['awaiting_second_approval', 'cancel', 'cancelled'],
    ['paused', 'cancel', 'cancelled'],
    ['dispatching', 'rail_succeeded', 'executed'],
    ['reconciling', 'rail_succeeded', 'executed'],
    ['dispatching', 'rail_failed', 'failed'],
    ['reconciling', 'rail_failed', 'failed'],
    ['dispatching', 'rail_unknown', 'reconciling'],
  ]

  it.each(legal)('%s --%s--> %s', (from, move, to) => {
    expect(canMove(from, move)).toBe(true)
    expect(statusAfter(move)).toBe(to)
  })

  it('refuses every other move from every status', () => {
    const allowed = new Set(legal.map(([from, move]) => `${from}:${move}`))
    const refused = paymentIntentStatuses.flatMap((status) => paymentIntentMoves.filter((move) => !allowed.has(`${status}:${move}`)).map((move) => [status, move] as const))
    expect(refused.length).toBe(paymentIntentStatuses.length * paymentIntentMoves.length - legal.length)
    for (const [status, move] of refused) expect(canMove(status, move), `${status} --${move}-->`).toBe(false)
  })

  it.each([
    ['proposed', 'auto'],
    ['approved', 'auto'],
    ['pending_approval', 'needs_approval'],
    ['awaiting_second_approval', 'needs_approval'],
    ['rejected', 'rejected'],
    ['executed', 'executed'],
    ['failed', 'failed'],
    ['cancelled', 'cancelled'],
    ['paused', 'paused'],
    ['dispatching', 'dispatching'],
  ] as const)('SDK alias of %s is %s', (status, alias) => {
    expect(sdkStatusOf(status)).toBe(alias)
  })
})

describe('proposal currency and amount rules', () => {
  it.each<[PaymentActionType, string, string, string[]]>([
    ['ach_outbound', 'USD', '125.00', []],
    ['wire', 'EUR', '0.01', []],
    ['card_payment', 'JPY', '1500', []],
    ['x402_settle', 'USDC', '0.000001', []],
    ['escrow_release', 'USDC', '10', []],
    ['ach_outbound', 'USDC', '1', ['currency']],
    ['onchain_transfer', 'usd', '1', ['currency']],
    ['wire', 'EURO', '1', ['currency']],
    ['wire', 'XQZ', '1', ['currency']],
    ['x402_settle', 'USD', '1', ['currency']],
    ['escrow_release', 'EUR', '1', ['currency']],
    ['ach_outbound', 'USD', '0', ['amount']],
    ['ach_outbound', 'USD', '0.00', ['amount']],
    ['ach_outbound', 'USD', '-5.00', ['amount']],
    ['ach_outbound', 'USD', '12.345', ['amount']],
    ['card_payment', 'JPY', '1500.5', ['amount']],
    ['x402_settle', 'USDC', '0.0000001', ['amount']],
    ['ach_outbound', 'USD', '1e3', ['amount']],
    ['ach_outbound', 'USD', '01.00', ['amount']],
    ['ach_outbound', 'USD', '1,000.00', ['amount']],
    ['ach_outbound', 'USD', ' 1.00', ['amount']],
    ['ach_outbound', 'USD', `1${'0'.repeat(40)}`, ['amount']],
    ['x402_settle', 'EUR', '-1', ['currency', 'amount']],
  ])('%s %s %s → problems with %j', (actionType, currency, amount, fields) => {
    expect(proposalProblems(actionType, currency, amount).map((problem) => problem.field)).toEqual(fields)
  })
})

describe('the hard human-approval floor', () => {
  const on = { fiatFloorEnabled: true }
  const off = { fiatFloorEnabled: false }
  it.each<[PaymentActionType, boolean, boolean, boolean]>([
    // action type, covered by the autonomous cap, fiat floor on, floor applies
    ['onchain_transfer', true, true, true],
    ['onchain_transfer', true, false, true],
    ['escrow_release', true, false, true],
    ['wire', true, true, true],
    ['wire', true, false, false],
    ['wire', false, false, true],
    ['ach_outbound', true, true, false],
    ['ach_outbound', false, true, true],
    ['ach_inbound', false, false, true],
    ['card_payment', true, true, false],
    ['x402_settle', false, true, true],
    ['x402_settle', true, true, false],
    ['erp_writeback', false, true, false],
  ])('%s, cap covers: %s, fiat floor on: %s → %s', (actionType, covered, fiat, applies) => {
    expect(humanApprovalFloorApplies(actionType, covered, fiat ? on : off)).toBe(applies)
  })

  it('covers every action type', () => {
    for (const actionType of paymentActionTypes) expect(typeof humanApprovalFloorApplies(actionType, false, on)).toBe('boolean')
  })
})

describe('creation outcome (the rows out of proposed)', () => {
  const settings = { fiatFloorEnabled: true }
  it.each<[string, PaymentActionType, 'allow' | 'confirm' | 'reject', string[], boolean, string, number]>([
    ['reject → rejected', 'ach_outbound', 'reject', [], false, 'rejected', 0],
    ['confirm → pending_approval, one approver', 'ach_outbound', 'confirm', ['signer'], false, 'pending_approval', 1],
    ['confirm with two approvals → two distinct approvers', 'ach_outbound', 'confirm', ['finance', 'finance'], false, 'pending_approval', 2],
    ['confirm naming no approver still needs one', 'ach_outbound', 'confirm', [], false, 'pending_approval', 1],
    ['allow under the cap → approved', 'ach_outbound', 'allow', [], true, 'approved', 0],
    ['allow above the cap → floor holds it', 'ach_outbound', 'allow', [], false, 'pending_approval', 1],
    ['allow of an onchain transfer → floor holds it', 'onchain_transfer', 'allow', [], true, 'pending_approval', 1],
    ['allow of an ERP write-back → approved', 'erp_writeback', 'allow', [], false, 'approved', 0],
  ])('%s', (_name, actionType, outcome, approvers, covered, status, approvals) => {
    expect(creationOutcome(actionType, { outcome, required_approvers: approvers, covered_by_autonomous_cap: covered }, settings)).toMatchObject({ status, approvalsRequired: approvals })
  })
})
