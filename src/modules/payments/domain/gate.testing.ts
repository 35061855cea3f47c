/** Gate test support: a snapshot every one of the 23 checks passes (unit tests and bench:payments start from it). */
import type { GateSnapshot } from './gate.ts'

/** A snapshot every check passes: an approved ACH payment of 100 EUR from a funded account to a trusted supplier. */
export function passingGateSnapshot(now: Date): GateSnapshot {
  return {
    mode: 'execute',
    now,
    intent: { id: 'pi_1', status: 'approved', actionType: 'ach_outbound', amount: '100.00', currency: 'EUR', createdByAgentId: 'svt_1', destinationCounterpartyId: 'cpy_1', approvalsRequired: 1, heldBy: 'policy' },
    decision: { paymentIntentId: 'pi_1', policyId: 'pol_1', outcome: 'confirm', coveredByAutonomousCap: false, agentId: 'svt_1', behaviorHash: null },
    verdict: { ok: true },
    liveOutcome: 'confirm',
    activePolicy: { id: 'pol_1', validSignatures: 1, quorumRequired: 1 },
    approvals: [{ memberId: 'mem_1', memberActive: true, approvalDomains: ['payment'], approvalLimit: { currency: 'EUR', value: '500' }, isPayee: false }],
    account: { status: 'active', currency: 'EUR' },
    balance: { amount: '1000.00', asOf: '2026-11-25' },
    reservedByOthers: '0',
    counterparty: { riskLevel: 'low', verifiedStatus: 'document_verified', trustState: 'trusted', changedAt: null },
    agent: { active: true, mayPropose: true, behaviorHash: null },
    recentSamePayments: 0,
    promotion: { id: 'prm_1', currency: 'EUR', perPaymentCap: '500', perDayCap: '1000', allowedRails: ['bank_ach', 'onchain_base', 'erp_writeback', 'x402_base', 'escrow_base'], allowedCounterpartyIds: null, expiresAt: new Date(now.getTime() + 86_400_000) },
    agentSpentLastDay: '0',
    sessionKey: undefined,
    alreadyDispatched: false,
    auditChain: { oldestUnlinkedSeconds: null },
    escrow: undefined,
  }
}
