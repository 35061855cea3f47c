/**
 * The section 6 gate (spec, governing rule 2 and "Proof"): 23 checks — 13 numbered and 10 hardening ones
 * at half indexes — each a pure function over one consistent snapshot of everything the gate reads, read
 * in the execute (or resume) transaction. A check returns a result and never throws; every check runs and
 * every result is recorded (a proof lists all 23), and the first failure in index order names the 409.
 * docs/gate.md says what each check proves, reads and answers.
 */
import { compareMoney, decimalAdd, decimalCompare, decimalSign, decimalSubtract } from '../../../kernel/money.ts'
import type { PaymentActionType, PaymentIntentStatus } from './intents.ts'
import { domainCovers } from './approvals.ts'

/** The gate codes of the spec's catalogue that a check can carry. */
export type GateCode =
  | 'gate_no_policy_decision'
  | 'gate_policy_version_stale'
  | 'gate_counterparty_unverified'
  | 'gate_counterparty_sanctioned'
  | 'gate_balance_insufficient'
  | 'gate_approval_incomplete'
  | 'gate_session_key_invalid'
  | 'gate_audit_chain_stale'
  | 'action_already_executed'

export interface GateCheckResult {
  readonly index: number
  readonly name: string
  readonly passed: boolean
  /** Why it failed, or what it saw when it passed (for the proof); plain words. */
  readonly reason: string
  readonly code: GateCode | null
}

/** Action types whose money leaves one of the tenant's accounts (and so needs a balance and a reservation). */
export const outgoingActionTypes: ReadonlySet<PaymentActionType> = new Set(['ach_outbound', 'wire', 'onchain_transfer', 'card_payment', 'x402_settle', 'escrow_release'])

/**
 * Money-moving action types: an agent's proposal of one runs in shadow until the agent is promoted
 * (governing rule 7). erp_writeback records and moves no money.
 */
export const moneyActionTypes: ReadonlySet<PaymentActionType> = new Set([...outgoingActionTypes, 'ach_inbound'])

/** Each action type's rail (spec, the rail table). */
export const railOf: Readonly<Record<PaymentActionType, 'bank_ach' | 'onchain_base' | 'erp_writeback' | 'x402_base' | 'escrow_base'>> = {
  ach_outbound: 'bank_ach',
  ach_inbound: 'bank_ach',
  wire: 'bank_ach',
  card_payment: 'bank_ach',
  onchain_transfer: 'onchain_base',
  erp_writeback: 'erp_writeback',
  x402_settle: 'x402_base',
  escrow_release: 'escrow_base',
}
export type Rail = (typeof railOf)[PaymentActionType]

/** Limits the gate applies, named with their unit. */
export interface GateSettings {
  /** A chain whose oldest unlinked event is older than this is stale (the sequencer links within seconds). */
  readonly auditChainLagSecondsMax: number
  /** Another intent to the same destination, amount and currency dispatched within this many hours is a possible duplicate payment. */
  readonly duplicatePaymentHours: number
  /** A destination whose identity changed within this many hours is not paid until someone re-approves. */
  readonly destinationChangeHours: number
  /** Rails registered and allowlisted (x402_base and escrow_base are unregistered at boot: fail-closed). */
  readonly railsAvailable: ReadonlySet<Rail>
}

export const defaultGateSettings: GateSettings = {
  auditChainLagSecondsMax: 300,
  duplicatePaymentHours: 24,
  destinationChangeHours: 72,
  railsAvailable: new Set(['bank_ach', 'onchain_base', 'erp_writeback']),
}

/** One recorded approval, as it stands now. */
export interface ApprovalFact {
  readonly memberId: string
  /** The member is still an active owner, admin or approver. */
  readonly memberActive: boolean
  readonly approvalDomains: readonly string[]
  readonly approvalLimit: { readonly currency: string; readonly value: string } | null
  /** The member is the payee now (their email or a human wallet is a key of the destination). */
  readonly isPayee: boolean
}

/** An agent's promotion as the gate enforces it (check 10). */
export interface PromotionFact {
  readonly id: string
  readonly currency: string
  readonly perPaymentCap: string
  readonly perDayCap: string
  readonly allowedRails: readonly string[]
  /** Null: any counterparty the other checks accept. */
  readonly allowedCounterpartyIds: readonly string[] | null
  readonly expiresAt: Date
}

/**
 * Whether this run is a shadow run: a money proposal by an agent that is not promoted. The gate runs and
 * records every check as for a live run; the intent then ends shadow_completed and nothing is sent.
 */
export function isShadowRun(snapshot: Pick<GateSnapshot, 'mode' | 'intent' | 'promotion'>): boolean {
  return snapshot.mode === 'execute' && snapshot.intent.createdByAgentId !== null && moneyActionTypes.has(snapshot.intent.actionType) && snapshot.promotion === undefined
}

/** Everything the gate reads, in one transaction. Undefined: not found. */
export interface GateSnapshot {
  readonly mode: 'execute' | 'resume'
  readonly now: Date
  readonly intent: {
    readonly id: string
    readonly status: PaymentIntentStatus
    readonly actionType: PaymentActionType
    readonly amount: string
    readonly currency: string
    readonly createdByAgentId: string | null
    readonly destinationCounterpartyId: string
    readonly approvalsRequired: number
    readonly heldBy: 'policy' | 'floor' | null
  }
  readonly decision:
    | {
        readonly paymentIntentId: string
        readonly policyId: string
        readonly outcome: 'allow' | 'confirm' | 'reject'
        readonly coveredByAutonomousCap: boolean
        /** The agent and behaviour hash the decision was made for. */
        readonly agentId: string | null
        readonly behaviorHash: string | null
      }
    | undefined
  /** The single-use verdict the gate issued under the active policy for this action and consumed. */
  readonly verdict: { readonly ok: true } | { readonly ok: false; readonly reason: string }
  /** The outcome the active policy gives the action now, with today's Ledger facts. */
  readonly liveOutcome: 'allow' | 'confirm' | 'reject' | undefined
  readonly activePolicy: { readonly id: string; readonly validSignatures: number; readonly quorumRequired: number } | undefined
  readonly approvals: readonly ApprovalFact[]
  readonly account: { readonly status: string; readonly currency: string } | undefined
  /** The account's latest recorded balance (undefined: none recorded). */
  readonly balance: { readonly amount: string; readonly asOf: string } | undefined
  /** What other intents hold on the account now (active reservations), in its currency. */
  readonly reservedByOthers: string
  /**
   * The invoice the intent pays, as the Ledger has it now (what it has outstanding) beside what other
   * intents are paying of it (in flight, or executed within the duplicate window); undefined when it pays none.
   */
  readonly invoice?:
    | { readonly found: false }
    | { readonly found: true; readonly status: string; readonly currency: string; readonly outstanding: string; readonly paidByOthers: string }
    | undefined
  readonly counterparty:
    | {
        readonly riskLevel: 'low' | 'medium' | 'high' | 'sanctioned'
        readonly verifiedStatus: 'unverified' | 'self_attested' | 'document_verified' | 'sanctions_cleared'
        readonly trustState: 'unreviewed' | 'trusted' | 'paused' | 'acknowledged'
        /** When its current version was recorded, and whether an earlier one exists (its identity changed). */
        readonly changedAt: Date | null
      }
    | undefined
  /** The proposing agent now: active, still allowed to propose, and its behaviour hash (null for internal agents). */
  readonly agent: { readonly active: boolean; readonly mayPropose: boolean; readonly behaviorHash: string | null } | undefined
  /** Other intents to the same destination, amount and currency dispatched or executed recently. */
  readonly recentSamePayments: number
  /**
   * The proposing agent's promotion out of shadow mode, active now; undefined when it has none (its money
   * proposals run in shadow: the whole pipeline, no rail).
   */
  readonly promotion: PromotionFact | undefined
  /** What the agent's live payments in the intent's currency took in the last 24 hours, this intent excluded. */
  readonly agentSpentLastDay: string
  /** An on-chain session key able to sign this transfer (on-chain rails only). */
  readonly sessionKey: { readonly valid: boolean; readonly reason: string } | undefined
  /** An outbox row or execution already exists for the intent. */
  readonly alreadyDispatched: boolean
  /** The tenant's audit chain: the age of the oldest event not yet linked (null: none waiting). */
  readonly auditChain: { readonly oldestUnlinkedSeconds: number | null }
  /** The escrow this release is bound to (escrow_release only). */
  readonly escrow: { readonly bound: boolean; readonly reason: string } | undefined
}

/**
 * The Ledger as the gate read it, as one value (its digest is the proof's `ledger_snapshot_hash`): the
 * source account and its latest balance, what other intents held on it, the destination counterparty's
 * standing, and the Ledger-dependent outcome the active policy gave the action. The gate's audit event
 * carries digestOf(this), so a proof binds the facts the checks were decided on.
 */
export function ledgerSnapshotOf(snapshot: GateSnapshot) {
  return {
    account: snapshot.account ?? null,
    balance: snapshot.balance ?? null,
    reserved_by_others: snapshot.reservedByOthers,
    counterparty:
      snapshot.counterparty === undefined
        ? null
        : {
            risk_level: snapshot.counterparty.riskLevel,
            verified_status: snapshot.counterparty.verifiedStatus,
            trust_state: snapshot.counterparty.trustState,
            changed_at: snapshot.counterparty.changedAt?.toISOString() ?? null,
          },
    recent_same_payments: snapshot.recentSamePayments,
    agent_spent_last_day: snapshot.agentSpentLastDay,
    live_outcome: snapshot.liveOutcome ?? null,
    // Only for an intent paying an invoice: the digest of any other intent's snapshot is unchanged.
    ...(snapshot.invoice === undefined ? {} : { invoice: snapshot.invoice }),
  }
}

type Check = (snapshot: GateSnapshot, settings: GateSettings) => { passed: boolean; reason: string }

interface CheckDefinition {
  readonly index: number
  readonly name: string
  readonly code: GateCode | null
  readonly check: Check
}

const pass = (reason: string) => ({ passed: true, reason })
const fail = (reason: string) => ({ passed: false, reason })

/** Active approvals by distinct members who still may approve this intent. */
function standingApprovals(snapshot: GateSnapshot): ApprovalFact[] {
  const seen = new Set<string>()
  return snapshot.approvals.filter((approval) => {
    if (seen.has(approval.memberId) || !approval.memberActive || !domainCovers(approval.approvalDomains, snapshot.intent.actionType)) return false
    seen.add(approval.memberId)
    return true
  })
}

/** The spendable balance: the latest recorded one, less what other intents reserved. */
/**
 * Why the account's balance cannot be compared with the intent's amount (checks 5 and 8): it is kept in
 * another currency (check 6.5 names the mismatch too), so neither a pass nor a shortfall would mean anything.
 */
function balanceIncomparable({ account, intent }: GateSnapshot): string | undefined {
  return account !== undefined && account.currency !== intent.currency ? `the balance is in ${account.currency}, the intent pays ${intent.currency}` : undefined
}

function netBalance(snapshot: GateSnapshot): string | undefined {
  return snapshot.balance === undefined ? undefined : decimalSubtract(snapshot.balance.amount, snapshot.reservedByOthers)
}

/**
 * The 23 checks in index order. Names and indexes are the spec's where it gives them (1, 1.5, 5, 6.6, 7,
 * 7.5, 8, 11.5, 13) and the issue's starting list elsewhere; docs/gate.md documents each.
 */
export const gateChecks: readonly CheckDefinition[] = [
  {
    index: 1,
    name: 'intent_exists_and_approved',
    code: null,
    check: ({ intent, mode }) => {
      const wanted: PaymentIntentStatus = mode === 'execute' ? 'approved' : 'paused'
      return intent.status === wanted ? pass(`the intent is ${wanted}`) : fail(`the intent is ${intent.status}, not ${wanted}`)
    },
  },
  {
    index: 1.5,
    name: 'agent_behavior_pinned',
    code: null,
    check: ({ intent, decision, agent }) => {
      if (decision === undefined) return fail('no decision records the agent it was made for')
      if (decision.agentId !== intent.createdByAgentId) return fail('the decision was made for another agent than the proposer')
      const current = agent?.behaviorHash ?? null
      return current === decision.behaviorHash ? pass('the agent behaves as when it proposed') : fail("the agent's behaviour hash changed since it proposed")
    },
  },
  {
    index: 2,
    name: 'policy_decision_present',
    code: 'gate_no_policy_decision',
    check: ({ intent, decision }) => {
      if (decision === undefined) return fail('no policy decision is attached')
      if (decision.paymentIntentId !== intent.id) return fail('the attached decision is for another intent')
      return decision.outcome === 'reject' ? fail('the policy rejected this intent') : pass(`the policy decided ${decision.outcome}`)
    },
  },
  {
    index: 2.5,
    name: 'policy_verdict_single_use',
    code: null,
    check: ({ verdict }) => (verdict.ok ? pass('a verdict bound to this action was issued and consumed once') : fail(`the policy verdict could not be used: ${verdict.reason}`)),
  },
  {
    index: 3,
    name: 'policy_version_current',
    code: 'gate_policy_version_stale',
    check: ({ decision, activePolicy }) => {
      if (activePolicy === undefined) return fail('the tenant has no active policy')
      if (decision === undefined) return fail('no decision to compare')
      return decision.policyId === activePolicy.id ? pass('the decision was made under the active policy') : fail('the decision was made under a policy that is no longer active')
    },
  },
  {
    index: 3.5,
    name: 'policy_signatures_valid',
    code: null,
    check: ({ activePolicy }) => {
      if (activePolicy === undefined) return fail('the tenant has no active policy')
      return activePolicy.validSignatures >= activePolicy.quorumRequired
        ? pass(`${activePolicy.validSignatures} valid signatures of ${activePolicy.quorumRequired} required`)
        : fail(`${activePolicy.validSignatures} valid signatures, ${activePolicy.quorumRequired} required`)
    },
  },
  {
    index: 4,
    name: 'approvals_complete',
    code: 'gate_approval_incomplete',
    check: (snapshot) => {
      const standing = standingApprovals(snapshot).length
      const required = snapshot.intent.approvalsRequired
      return standing >= required ? pass(`${standing} of ${required} approvals stand`) : fail(`${standing} of ${required} approvals stand`)
    },
  },
  {
    index: 4.5,
    name: 'approver_not_payee',
    code: null,
    check: ({ approvals }) => (approvals.some((approval) => approval.isPayee) ? fail('an approver is the payee') : pass('no approver is the payee')),
  },
  {
    index: 5,
    name: 'source_balance_sufficient',
    code: 'gate_balance_insufficient',
    check: (snapshot) => {
      const { intent, balance } = snapshot
      if (!outgoingActionTypes.has(intent.actionType)) return pass('no money leaves the account')
      const incomparable = balanceIncomparable(snapshot)
      if (incomparable !== undefined) return fail(incomparable)
      if (balance === undefined) return fail('no balance of the source account is recorded')
      return decimalCompare(balance.amount, intent.amount) >= 0 ? pass(`balance ${balance.amount} as of ${balance.asOf}`) : fail(`balance ${balance.amount} as of ${balance.asOf} is below ${intent.amount}`)
    },
  },
  {
    index: 6,
    name: 'source_account_active',
    code: null,
    check: ({ account }) => (account === undefined ? fail('the source account no longer exists') : account.status === 'active' ? pass('the source account is active') : fail(`the source account is ${account.status}`)),
  },
  {
    index: 6.5,
    name: 'currency_matches_account',
    code: null,
    check: ({ account, intent }) => {
      if (account === undefined) return fail('the source account no longer exists')
      return account.currency === intent.currency ? pass(`the account holds ${account.currency}`) : fail(`the account holds ${account.currency}, the intent pays ${intent.currency}`)
    },
  },
  {
    index: 6.6,
    name: 'escrow_state_bound',
    code: null,
    check: ({ intent, escrow }) => {
      if (intent.actionType !== 'escrow_release') return pass('not an escrow release')
      if (escrow === undefined) return fail('no escrow is bound to this release')
      return escrow.bound ? pass('the escrow is bound to this release') : fail(escrow.reason)
    },
  },
  {
    index: 7,
    name: 'counterparty_not_sanctioned',
    code: 'gate_counterparty_sanctioned',
    check: ({ counterparty }) => {
      if (counterparty === undefined) return fail('the destination counterparty no longer exists')
      return counterparty.riskLevel === 'sanctioned' ? fail('the counterparty is sanctioned') : pass(`risk level ${counterparty.riskLevel}`)
    },
  },
  {
    index: 7.5,
    name: 'ledger_snapshot_revalidated',
    code: null,
    check: ({ decision, liveOutcome, invoice, intent }) => {
      if (decision === undefined || liveOutcome === undefined) return fail('the decision cannot be re-evaluated')
      if (liveOutcome === 'reject') return fail('the active policy rejects the action with the Ledger as it is now')
      // Allowed then but needing a person now: the approvals given were for a decision that no longer holds.
      if (decision.outcome === 'allow' && liveOutcome === 'confirm') return fail('the action needs approval with the Ledger as it is now')
      // The invoice it pays is still payable, and this payment fits in what is outstanding after the others.
      if (invoice !== undefined) {
        if (!invoice.found) return fail('the invoice it pays is no longer in the Ledger')
        if (invoice.status === 'paid' || invoice.status === 'cancelled') return fail(`the invoice it pays is ${invoice.status} now`)
        if (invoice.currency !== intent.currency) return fail(`the invoice it pays is in ${invoice.currency} now`)
        const left = decimalSubtract(invoice.outstanding, invoice.paidByOthers)
        if (decimalCompare(left, intent.amount) < 0) {
          return fail(`the invoice it pays has ${invoice.outstanding} outstanding, ${invoice.paidByOthers} of it being paid or just paid by other intents: ${intent.amount} would overpay it`)
        }
      }
      return pass(`the active policy decides ${liveOutcome} with the Ledger as it is now${invoice?.found === true ? `, and the invoice has ${decimalSubtract(invoice.outstanding, invoice.paidByOthers)} left to pay` : ''}`)
    },
  },
  {
    index: 8,
    name: 'reservation_net_balance',
    code: 'gate_balance_insufficient',
    check: (snapshot) => {
      if (!outgoingActionTypes.has(snapshot.intent.actionType)) return pass('no money leaves the account')
      const incomparable = balanceIncomparable(snapshot)
      if (incomparable !== undefined) return fail(incomparable)
      const net = netBalance(snapshot)
      if (net === undefined) return fail('no balance of the source account is recorded')
      return decimalCompare(net, snapshot.intent.amount) >= 0
        ? pass(`${net} free after ${snapshot.reservedByOthers} reserved by other intents`)
        : fail(`${net} free after ${snapshot.reservedByOthers} reserved by other intents is below ${snapshot.intent.amount}`)
    },
  },
  {
    index: 9,
    name: 'counterparty_verified',
    code: 'gate_counterparty_unverified',
    check: ({ counterparty }) => {
      if (counterparty === undefined) return fail('the destination counterparty no longer exists')
      if (counterparty.trustState === 'paused') return fail('trust in the counterparty is paused')
      const verified = counterparty.trustState === 'trusted' || counterparty.verifiedStatus === 'document_verified' || counterparty.verifiedStatus === 'sanctions_cleared'
      return verified ? pass(`trust ${counterparty.trustState}, ${counterparty.verifiedStatus}`) : fail(`the counterparty is ${counterparty.verifiedStatus} and ${counterparty.trustState}; it must be trusted or verified`)
    },
  },
  {
    index: 9.5,
    name: 'agent_active_and_scoped',
    code: null,
    check: ({ intent, agent }) => {
      if (intent.createdByAgentId === null) return pass('no agent proposed it')
      if (agent === undefined) return fail('the proposing agent is not known')
      if (!agent.active) return fail('the proposing agent is not active (halted, revoked or expired)')
      return agent.mayPropose ? pass('the proposing agent is active and may propose') : fail('the proposing agent no longer holds payment_intent:propose')
    },
  },
  {
    index: 10,
    name: 'amount_within_caps',
    code: null,
    check: (snapshot) => {
      const { intent, decision } = snapshot
      const standing = standingApprovals(snapshot)
      for (const approval of standing) {
        if (approval.approvalLimit === null) continue
        const comparison = compareMoney({ currency: intent.currency, value: intent.amount }, approval.approvalLimit)
        if (comparison.status !== 'compared' || comparison.order > 0) return fail(`an approver's per-item limit (${approval.approvalLimit.value} ${approval.approvalLimit.currency}) no longer covers ${intent.amount} ${intent.currency}`)
      }
      if (intent.approvalsRequired === 0 && decision !== undefined && decision.outcome === 'allow' && intent.heldBy === null && !decision.coveredByAutonomousCap && outgoingActionTypes.has(intent.actionType) && intent.actionType !== 'erp_writeback') {
        // Approved by the policy alone: only a covering autonomous cap lets money out without a person.
        return fail('approved without a person, but no autonomous cap covers the amount')
      }
      const approvals = standing.length === 0 ? 'within the autonomous cap' : "within every approver's per-item limit"
      if (!moneyActionTypes.has(intent.actionType) || intent.createdByAgentId === null) return pass(approvals)
      const { promotion } = snapshot
      if (promotion === undefined) return pass(`${approvals}; shadow run: the agent is not promoted, so nothing is sent`)
      if (promotion.expiresAt.getTime() <= snapshot.now.getTime()) return fail(`the agent's promotion ${promotion.id} expired at ${promotion.expiresAt.toISOString()}`)
      if (promotion.currency !== intent.currency) return fail(`the agent's promotion caps are in ${promotion.currency}, not ${intent.currency}`)
      if (decimalCompare(intent.amount, promotion.perPaymentCap) > 0) return fail(`${intent.amount} ${intent.currency} is over the agent's per-payment cap of ${promotion.perPaymentCap}`)
      const dayTotal = decimalAdd(snapshot.agentSpentLastDay, intent.amount)
      if (decimalCompare(dayTotal, promotion.perDayCap) > 0) return fail(`${dayTotal} ${intent.currency} in 24 hours would be over the agent's per-day cap of ${promotion.perDayCap}`)
      const rail = railOf[intent.actionType]
      if (!promotion.allowedRails.includes(rail)) return fail(`rail ${rail} is not among the agent's promoted rails (${promotion.allowedRails.join(', ')})`)
      if (promotion.allowedCounterpartyIds !== null && !promotion.allowedCounterpartyIds.includes(intent.destinationCounterpartyId)) return fail(`counterparty ${intent.destinationCounterpartyId} is not among the agent's promoted counterparties`)
      return pass(`${approvals}; within the agent's promotion ${promotion.id} (per payment ${promotion.perPaymentCap}, per day ${promotion.perDayCap} ${promotion.currency})`)
    },
  },
  {
    index: 11,
    name: 'rail_available',
    code: null,
    check: ({ intent }, settings) => {
      const rail = railOf[intent.actionType]
      return settings.railsAvailable.has(rail) ? pass(`rail ${rail} is registered`) : fail(`rail ${rail} is not registered (fail-closed)`)
    },
  },
  {
    index: 11.5,
    name: 'duplicate_payment_or_destination_recently_changed',
    code: null,
    check: ({ recentSamePayments, counterparty, now }, settings) => {
      if (recentSamePayments > 0) return fail(`${recentSamePayments} payment(s) of the same amount to the same destination went out in the last ${settings.duplicatePaymentHours} hours`)
      if (counterparty?.changedAt != null && now.getTime() - counterparty.changedAt.getTime() < settings.destinationChangeHours * 3_600_000) {
        return fail(`the destination's details changed less than ${settings.destinationChangeHours} hours ago`)
      }
      return pass('no recent duplicate, destination unchanged')
    },
  },
  {
    index: 12,
    name: 'session_key_valid',
    code: 'gate_session_key_invalid',
    check: ({ intent, sessionKey }) => {
      if (railOf[intent.actionType] !== 'onchain_base') return pass('not an on-chain transfer')
      if (sessionKey === undefined) return fail('no session key is registered for the source wallet')
      return sessionKey.valid ? pass('the session key is valid') : fail(sessionKey.reason)
    },
  },
  {
    index: 12.5,
    name: 'not_already_dispatched',
    code: 'action_already_executed',
    check: ({ alreadyDispatched }) => (alreadyDispatched ? fail('the intent was already dispatched') : pass('not dispatched before')),
  },
  {
    index: 13,
    name: 'audit_chain_healthy',
    code: 'gate_audit_chain_stale',
    check: ({ auditChain }, settings) => {
      const lag = auditChain.oldestUnlinkedSeconds
      if (lag === null) return pass('every audit event is linked')
      return lag <= settings.auditChainLagSecondsMax ? pass(`the oldest unlinked event is ${Math.floor(lag)} s old`) : fail(`the oldest unlinked audit event is ${Math.floor(lag)} s old (more than ${settings.auditChainLagSecondsMax} s)`)
    },
  },
]

/** Runs every check (none throws: a check that would is a failure naming the error) and returns all results in index order. */
export function runGate(snapshot: GateSnapshot, settings: GateSettings = defaultGateSettings): GateCheckResult[] {
  return gateChecks.map(({ index, name, code, check }) => {
    let outcome: { passed: boolean; reason: string }
    try {
      outcome = check(snapshot, settings)
    } catch (error) {
      outcome = fail(`the check could not run: ${error instanceof Error ? error.message : String(error)}`)
    }
    return { index, name, passed: outcome.passed, reason: outcome.reason, code: outcome.passed ? null : code }
  })
}

/** The amount an intent reserves on its account once dispatched: its amount for outgoing payments, none otherwise. */
export function reservationAmount(actionType: PaymentActionType, amount: string): string | undefined {
  return outgoingActionTypes.has(actionType) && decimalSign(amount) > 0 ? amount : undefined
}

/** Sum of decimal strings (reservations). */
export function sumAmounts(amounts: readonly string[]): string {
  return amounts.reduce((total, amount) => decimalAdd(total, amount), '0')
}
