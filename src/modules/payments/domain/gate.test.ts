import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { defaultGateSettings, gateChecks, isShadowRun, runGate, type GateSnapshot } from './gate.ts'
import { passingGateSnapshot } from './gate.testing.ts'

const now = new Date('2026-11-26T12:00:00Z')

const passing = () => passingGateSnapshot(now)

type Mutation = (snapshot: GateSnapshot) => GateSnapshot

/** The passing snapshot as a USDC payment of this action type (the account, the approver's limit in USDC). */
function usdc(s: GateSnapshot, actionType: 'x402_settle' | 'escrow_release'): GateSnapshot {
  return {
    ...s,
    intent: { ...s.intent, actionType, currency: 'USDC' },
    account: { ...s.account!, currency: 'USDC' },
    approvals: [{ ...s.approvals[0]!, approvalLimit: { currency: 'USDC', value: '500' } }],
    promotion: { ...s.promotion!, currency: 'USDC' },
  }
}

/** The default settings, with the escrow rail registered (it is not at boot) so the escrow check can fail alone. */
const withEscrowRail = { ...defaultGateSettings, railsAvailable: new Set([...defaultGateSettings.railsAvailable, 'escrow_base' as const]) }

/** For each check, one change of the passing snapshot that fails it and no other check. */
const failsAlone: ReadonlyArray<readonly [string, string, Mutation]> = [
  ['intent_exists_and_approved', 'paused, not approved', (s) => ({ ...s, intent: { ...s.intent, status: 'paused' } })],
  ['agent_behavior_pinned', 'behaviour hash changed', (s) => ({ ...s, agent: { ...s.agent!, behaviorHash: '0xabc' } })],
  ['policy_decision_present', 'the decision is for another intent', (s) => ({ ...s, decision: { ...s.decision!, paymentIntentId: 'pi_other' } })],
  ['policy_verdict_single_use', 'verdict already consumed', (s) => ({ ...s, verdict: { ok: false, reason: 'consumed' } })],
  ['policy_version_current', 'a newer policy is active', (s) => ({ ...s, activePolicy: { ...s.activePolicy!, id: 'pol_2' } })],
  ['policy_signatures_valid', 'a signature no longer verifies', (s) => ({ ...s, activePolicy: { ...s.activePolicy!, validSignatures: 1, quorumRequired: 2 } })],
  ['approvals_complete', 'a second approval is missing', (s) => ({ ...s, intent: { ...s.intent, approvalsRequired: 2 } })],
  ['approver_not_payee', 'the approver became the payee', (s) => ({ ...s, approvals: [{ ...s.approvals[0]!, isPayee: true }] })],
  ['source_balance_sufficient', 'the balance is below the amount', (s) => ({ ...s, balance: { amount: '99.99', asOf: '2026-11-25' }, reservedByOthers: '-1' })],
  ['source_account_active', 'the account is frozen', (s) => ({ ...s, account: { ...s.account!, status: 'frozen' } })],
  // Money coming in: checks 5 and 8 have no balance to compare (an outgoing payment fails them too, below).
  ['currency_matches_account', 'the account holds USD, money comes in', (s) => ({ ...s, intent: { ...s.intent, actionType: 'ach_inbound' }, account: { ...s.account!, currency: 'USD' } })],
  ['escrow_state_bound', 'an escrow release (on a registered escrow rail) whose escrow was released already', (s) => ({ ...usdc(s, 'escrow_release'), escrow: { bound: false, reason: 'the escrow was released already' } })],
  ['counterparty_not_sanctioned', 'sanctioned', (s) => ({ ...s, counterparty: { ...s.counterparty!, riskLevel: 'sanctioned' } })],
  ['ledger_snapshot_revalidated', 'the live policy now rejects it', (s) => ({ ...s, liveOutcome: 'reject' })],
  ['reservation_net_balance', 'other intents reserved the balance', (s) => ({ ...s, reservedByOthers: '950.00' })],
  ['counterparty_verified', 'unverified and unreviewed', (s) => ({ ...s, counterparty: { ...s.counterparty!, verifiedStatus: 'self_attested', trustState: 'unreviewed' } })],
  ['agent_active_and_scoped', 'the agent was halted', (s) => ({ ...s, agent: { ...s.agent!, active: false } })],
  ['amount_within_caps', "the approver's limit was lowered", (s) => ({ ...s, approvals: [{ ...s.approvals[0]!, approvalLimit: { currency: 'EUR', value: '50' } }] })],
  ['rail_available', 'the x402 rail is unregistered', (s) => usdc(s, 'x402_settle')],
  ['duplicate_payment_or_destination_recently_changed', 'the same payment went out an hour ago', (s) => ({ ...s, recentSamePayments: 1 })],
  ['session_key_valid', 'an on-chain transfer without a session key', (s) => ({ ...s, intent: { ...s.intent, actionType: 'onchain_transfer' } })],
  ['not_already_dispatched', 'already dispatched', (s) => ({ ...s, alreadyDispatched: true })],
  ['audit_chain_healthy', 'an event waits 10 minutes to be linked', (s) => ({ ...s, auditChain: { oldestUnlinkedSeconds: 600 } })],
]

describe('the section 6 gate', () => {
  it('has 23 checks, 13 numbered and 10 hardening, in index order, with the spec names at the spec indexes', () => {
    expect(gateChecks).toHaveLength(23)
    expect(gateChecks.filter((check) => Number.isInteger(check.index))).toHaveLength(13)
    expect(gateChecks.map((check) => check.index)).toEqual([...gateChecks.map((check) => check.index)].sort((a, b) => a - b))
    expect(new Set(gateChecks.map((check) => check.name)).size).toBe(23)
    const named = Object.fromEntries(gateChecks.map((check) => [check.name, check.index]))
    expect(named).toMatchObject({
      intent_exists_and_approved: 1,
      agent_behavior_pinned: 1.5,
      source_balance_sufficient: 5,
      escrow_state_bound: 6.6,
      counterparty_not_sanctioned: 7,
      ledger_snapshot_revalidated: 7.5,
      reservation_net_balance: 8,
      duplicate_payment_or_destination_recently_changed: 11.5,
      audit_chain_healthy: 13,
    })
  })

  it('compares no balance kept in another currency: an outgoing payment from a USD account in EUR fails checks 5, 6.5 and 8, each naming both', () => {
    const s = passing()
    const failed = runGate({ ...s, account: { ...s.account!, currency: 'USD' } }).filter((result) => !result.passed)
    expect(failed.map(({ name, reason }) => [name, reason])).toEqual([
      ['source_balance_sufficient', 'the balance is in USD, the intent pays EUR'],
      ['currency_matches_account', 'the account holds USD, the intent pays EUR'],
      ['reservation_net_balance', 'the balance is in USD, the intent pays EUR'],
    ])
  })

  it('passes every check on a good snapshot', () => {
    const results = runGate(passing())
    expect(results.filter((result) => !result.passed)).toEqual([])
    expect(results.every((result) => result.code === null && result.reason.length > 0)).toBe(true)
  })

  it('covers every check with a case where it alone fails', () => {
    expect(failsAlone.map(([name]) => name).sort()).toEqual(gateChecks.map((check) => check.name).sort())
  })

  it.each(failsAlone)('%s fails alone when %s', (name, _why, mutate) => {
    const failed = runGate(mutate(passing()), withEscrowRail).filter((result) => !result.passed)
    expect(failed.map((result) => result.name)).toEqual([name])
    const definition = gateChecks.find((check) => check.name === name)!
    expect(failed[0]).toMatchObject({ index: definition.index, code: definition.code })
  })

  it.each([
    ['gate_no_policy_decision', (s: GateSnapshot) => ({ ...s, decision: undefined })],
    ['gate_policy_version_stale', (s: GateSnapshot) => ({ ...s, activePolicy: { ...s.activePolicy!, id: 'pol_2' } })],
    ['gate_counterparty_unverified', (s: GateSnapshot) => ({ ...s, counterparty: { ...s.counterparty!, trustState: 'paused' as const } })],
    ['gate_counterparty_sanctioned', (s: GateSnapshot) => ({ ...s, counterparty: { ...s.counterparty!, riskLevel: 'sanctioned' as const } })],
    ['gate_balance_insufficient', (s: GateSnapshot) => ({ ...s, balance: undefined })],
    ['gate_approval_incomplete', (s: GateSnapshot) => ({ ...s, approvals: [] })],
    ['gate_session_key_invalid', (s: GateSnapshot) => ({ ...s, intent: { ...s.intent, actionType: 'onchain_transfer' as const }, sessionKey: { valid: false, reason: 'expired' } })],
    ['gate_audit_chain_stale', (s: GateSnapshot) => ({ ...s, auditChain: { oldestUnlinkedSeconds: 301 } })],
    ['action_already_executed', (s: GateSnapshot) => ({ ...s, alreadyDispatched: true })],
  ])('carries %s on the check that fails', (code, mutate) => {
    expect(runGate(mutate(passing())).some((result) => !result.passed && result.code === code)).toBe(true)
  })

  it('fails 7.5 alone when the invoice the intent pays is paid, cancelled, gone, in another currency or would be overpaid', () => {
    const invoice = { found: true as const, status: 'sent', currency: 'EUR', outstanding: '250.00', paidByOthers: '150.00' }
    const withInvoice = (changes: Partial<typeof invoice> | { found: false }) => ({ ...passing(), invoice: 'found' in changes && changes.found === false ? changes : { ...invoice, ...changes } })
    const failedNames = (snapshot: GateSnapshot) => runGate(snapshot).filter((result) => !result.passed)
    // 250 outstanding, 150 of it paid by others: exactly the 100.00 of this intent is left.
    expect(failedNames(withInvoice({}))).toEqual([])
    expect(runGate(withInvoice({})).find((result) => result.name === 'ledger_snapshot_revalidated')?.reason).toMatch(/has 100(\.0+)? left to pay/)
    for (const [changes, reason] of [
      [{ paidByOthers: '150.01' }, /would overpay it/],
      [{ status: 'paid' }, /is paid now/],
      [{ status: 'cancelled' }, /is cancelled now/],
      [{ currency: 'USD' }, /in USD now/],
      [{ found: false }, /no longer in the Ledger/],
    ] as const) {
      const failed = failedNames(withInvoice(changes))
      expect(failed.map((result) => result.name), JSON.stringify(changes)).toEqual(['ledger_snapshot_revalidated'])
      expect(failed[0]!.reason).toMatch(reason)
    }
  })

  it('resumes a paused intent (check 1 wants paused on resume)', () => {
    const resumed = runGate({ ...passing(), mode: 'resume', intent: { ...passing().intent, status: 'paused' } })
    expect(resumed.filter((result) => !result.passed)).toEqual([])
  })

  it('lets an inbound payment through with no balance, and never reserves for it', () => {
    const inbound = runGate({ ...passing(), intent: { ...passing().intent, actionType: 'ach_inbound' }, balance: undefined })
    expect(inbound.filter((result) => !result.passed)).toEqual([])
  })

  it('holds an approved-by-policy payment the autonomous cap does not cover', () => {
    const snapshot = passing()
    const auto = runGate({ ...snapshot, intent: { ...snapshot.intent, approvalsRequired: 0, heldBy: null }, approvals: [], decision: { ...snapshot.decision!, outcome: 'allow', coveredByAutonomousCap: false }, liveOutcome: 'allow' })
    expect(auto.filter((result) => !result.passed).map((result) => result.name)).toEqual(['amount_within_caps'])
  })

  it('never throws, whatever the snapshot holds, and always answers 23 results', () => {
    fc.assert(
      fc.property(
        fc.record({
          amount: fc.oneof(fc.constant('100.00'), fc.constant('not a number'), fc.constant('')),
          balance: fc.option(fc.oneof(fc.constant('5'), fc.constant('x')), { nil: undefined }),
          reserved: fc.oneof(fc.constant('0'), fc.constant('?')),
          lag: fc.option(fc.double({ noNaN: false }), { nil: null }),
        }),
        ({ amount, balance, reserved, lag }) => {
          const snapshot = passing()
          const results = runGate({
            ...snapshot,
            intent: { ...snapshot.intent, amount },
            balance: balance === undefined ? undefined : { amount: balance, asOf: '2026-11-25' },
            reservedByOthers: reserved,
            auditChain: { oldestUnlinkedSeconds: lag },
          })
          expect(results).toHaveLength(23)
        },
      ),
    )
  })

  it('uses its settings: a lag within the bound passes', () => {
    expect(runGate({ ...passing(), auditChain: { oldestUnlinkedSeconds: defaultGateSettings.auditChainLagSecondsMax } }).every((result) => result.passed)).toBe(true)
  })
})

describe('check 10 and the agent\'s promotion', () => {
  const check10 = (snapshot: GateSnapshot) => runGate(snapshot).find((check) => check.name === 'amount_within_caps')!
  const promoted = (s: GateSnapshot, promotion: Partial<NonNullable<GateSnapshot['promotion']>>, rest: Partial<GateSnapshot> = {}): GateSnapshot => ({ ...s, ...rest, promotion: { ...s.promotion!, ...promotion } })

  it.each<readonly [string, Mutation, boolean, RegExp]>([
    ['within every cap', (s) => s, true, /within the agent's promotion prm_1/],
    ['exactly the per-payment cap', (s) => promoted(s, { perPaymentCap: '100.00' }), true, /within the agent's promotion/],
    ['one cent over the per-payment cap', (s) => promoted(s, { perPaymentCap: '99.99' }), false, /per-payment cap of 99.99/],
    ['exactly the per-day cap with what went out today', (s) => promoted(s, { perDayCap: '1000' }, { agentSpentLastDay: '900.00' }), true, /within/],
    ['over the per-day cap with what went out today', (s) => promoted(s, { perDayCap: '1000' }, { agentSpentLastDay: '900.01' }), false, /1000.01 EUR in 24 hours/],
    ['caps in another currency', (s) => promoted(s, { currency: 'USD' }), false, /caps are in USD, not EUR/],
    ['a rail the promotion does not allow', (s) => promoted(s, { allowedRails: ['onchain_base'] }), false, /rail bank_ach is not among/],
    ['a counterparty the promotion does not allow', (s) => promoted(s, { allowedCounterpartyIds: ['cpy_2'] }), false, /counterparty cpy_1 is not among/],
    ['a counterparty the promotion allows', (s) => promoted(s, { allowedCounterpartyIds: ['cpy_1'] }), true, /within/],
    ['an expired promotion', (s) => promoted(s, { expiresAt: now }), false, /expired/],
    ['no promotion: a shadow run, nothing is sent', (s) => ({ ...s, promotion: undefined }), true, /shadow run/],
  ])('%s', (_name, mutate, passed, reason) => {
    const result = check10(mutate(passing()))
    expect(result.passed).toBe(passed)
    expect(result.reason).toMatch(reason)
  })

  it('is a shadow run exactly for an execute of an un-promoted agent\'s money proposal', () => {
    expect(isShadowRun(passing())).toBe(false)
    expect(isShadowRun({ ...passing(), promotion: undefined })).toBe(true)
    expect(isShadowRun({ ...passing(), promotion: undefined, mode: 'resume' })).toBe(false)
    expect(isShadowRun({ ...passing(), promotion: undefined, intent: { ...passing().intent, actionType: 'erp_writeback' } })).toBe(false)
    expect(isShadowRun({ ...passing(), promotion: undefined, intent: { ...passing().intent, createdByAgentId: null } })).toBe(false)
    expect(isShadowRun({ ...passing(), promotion: undefined, intent: { ...passing().intent, actionType: 'ach_inbound' } })).toBe(true)
  })
})
