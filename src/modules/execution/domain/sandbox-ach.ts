/**
 * The sandbox ACH provider's rules (docs/execution.md): what it does with a transfer, chosen by the
 * amount's last two digits in minor units, as card networks' test numbers choose an outcome. Any other
 * amount is authorized, created and settled. Pure.
 *
 * | last two digits | what the sandbox provider does |
 * |---|---|
 * | 91 | declines at authorization: nothing is created (a deterministic failure) |
 * | 92 | creates the transfer, then returns it before settlement (R01, insufficient funds) |
 * | 93 | creates and settles the transfer, then returns it after settlement (R10, not authorized) |
 * | 94 | is unavailable: answers 503 and records nothing (a transient failure, every time) |
 * | 95 | creates the transfer but the answer is lost on the way back (a transient failure; its status knows the transfer) |
 */
import type { RailAnswer } from './executions.ts'

export type SandboxAchScenario = 'settles' | 'declined' | 'returned_before_settlement' | 'returned_after_settlement' | 'unavailable' | 'answer_lost'

const byLastDigits: Readonly<Record<string, SandboxAchScenario>> = {
  '91': 'declined',
  '92': 'returned_before_settlement',
  '93': 'returned_after_settlement',
  '94': 'unavailable',
  '95': 'answer_lost',
}

/** The scenario of an amount given in minor units (a non-negative integer as a decimal string). */
export function sandboxAchScenario(minorUnits: bigint): SandboxAchScenario {
  if (minorUnits < 0n) throw new RangeError('an ACH amount is never negative')
  const lastDigits = (minorUnits % 100n).toString().padStart(2, '0')
  return byLastDigits[lastDigits] ?? 'settles'
}

/** The ACH return codes the sandbox uses (NACHA's). */
export const sandboxReturnCodes = { beforeSettlement: 'R01', afterSettlement: 'R10' } as const

export type SandboxAchStatus = 'declined' | 'pending' | 'settled' | 'returned'

/** What a transfer in the provider's book means to the worker. */
export function achAnswerOf(transfer: {
  readonly id: string
  readonly status: SandboxAchStatus
  readonly amount: string
  readonly currency: string
  readonly returnCode: string | null
  readonly settledAt: Date | null
}): RailAnswer {
  switch (transfer.status) {
    case 'declined':
      return { kind: 'failed', code: 'ach_authorization_declined', reason: 'the sandbox ACH provider declined the transfer at authorization' }
    case 'pending':
      return { kind: 'pending', reference: transfer.id }
    case 'settled':
      return { kind: 'completed', receipt: achReceipt(transfer) }
    case 'returned':
      // Returned before it settled (one returned after settlement is still settled for the worker: the webhook records the return).
      return transfer.settledAt === null
        ? { kind: 'failed', code: `ach_returned_${transfer.returnCode ?? 'unknown'}`, reason: `the transfer was returned before settlement (${transfer.returnCode ?? 'no code'})` }
        : { kind: 'completed', receipt: achReceipt(transfer) }
  }
}

/** The typed receipt of a settled ACH transfer (the proof's `rail_receipt`). */
export function achReceipt(transfer: { readonly id: string; readonly amount: string; readonly currency: string; readonly settledAt: Date | null }): Record<string, unknown> {
  return { type: 'ach', provider: 'sandbox_ach', transfer_id: transfer.id, amount: transfer.amount, currency: transfer.currency, settled_at: transfer.settledAt?.toISOString() ?? null }
}
