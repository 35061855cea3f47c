import { describe, expect, it } from 'vitest'
import { directionFor, directionNow } from './transfers.ts'
import type { TransactionDirection } from './entities.ts'

describe('directionFor (a transaction when first recorded)', () => {
  it.each([
    { amount: '5', named: [], direction: 'inflow' },
    { amount: '-5', named: [], direction: 'outflow' },
    { amount: '0', named: [], direction: 'adjustment' },
    { amount: '-5', named: [undefined], direction: 'outflow' },
    { amount: '-5', named: ['acc_own'], direction: 'outflow' },
    { amount: '-5', named: ['acc_savings'], direction: 'transfer' },
    { amount: '5', named: ['acc_savings'], direction: 'transfer' },
    { amount: '0', named: ['acc_savings'], direction: 'transfer' },
    { amount: '-5', named: [undefined, 'acc_own', 'acc_savings'], direction: 'transfer' },
  ] as const)('$amount naming $named: $direction', ({ amount, named, direction }) => {
    expect(directionFor(amount, 'acc_own', named)).toBe(direction)
  })
})

describe('directionNow (a recorded transaction, once more accounts exist)', () => {
  it.each([
    { direction: 'outflow', named: [], now: 'outflow' },
    { direction: 'outflow', named: [undefined], now: 'outflow' },
    { direction: 'outflow', named: ['acc_own'], now: 'outflow' },
    { direction: 'outflow', named: ['acc_savings'], now: 'transfer' },
    { direction: 'inflow', named: ['acc_savings'], now: 'transfer' },
    { direction: 'adjustment', named: ['acc_savings'], now: 'transfer' },
    // A transfer stays one: the account it went to is never removed.
    { direction: 'transfer', named: [], now: 'transfer' },
    { direction: 'transfer', named: ['acc_own'], now: 'transfer' },
  ] as const)('$direction naming $named: $now', ({ direction, named, now }) => {
    expect(directionNow({ accountId: 'acc_own', direction }, named)).toBe(now)
  })

  it('does not depend on the order of the accounts named (ties: any other own account makes a transfer)', () => {
    const named = [undefined, 'acc_own', 'acc_savings', 'acc_processor']
    for (const order of permutations(named)) expect(directionNow({ accountId: 'acc_own', direction: 'outflow' }, order)).toBe('transfer')
  })
})

/**
 * A model of the Ledger's pipeline over legs of transfers, with the rules under test and nothing else:
 * a leg is normalized (its account becomes known, and its transaction is recorded with directionFor
 * over the accounts known then), then reconciliation runs (directionNow over the accounts known then),
 * as the ledger-reconcile job does after every normalization.
 */
interface Leg {
  readonly name: string
  readonly account: string
  readonly amount: string
  /** The own-account key its record names as counterparty (an IBAN), if any. */
  readonly counterpartyKey?: string
}

const accountKeys: Readonly<Record<string, string>> = {
  'iban:CHECKING': 'acc_checking',
  'iban:SAVINGS': 'acc_savings',
  'iban:PROCESSOR': 'acc_processor',
}

const legs: readonly Leg[] = [
  // January's reserve transfer as checking records it, naming the savings IBAN.
  { name: 'reserve out', account: 'acc_checking', amount: '-10000.00', counterpartyKey: 'iban:SAVINGS' },
  // The same transfer as the savings statement records it: a name, no IBAN (as the demo's OFX).
  { name: 'reserve in', account: 'acc_savings', amount: '10000.00' },
  // A transfer back that names checking.
  { name: 'withdrawal in', account: 'acc_checking', amount: '500.00', counterpartyKey: 'iban:SAVINGS' },
  { name: 'withdrawal out', account: 'acc_savings', amount: '-500.00', counterpartyKey: 'iban:CHECKING' },
  // A processor payout to checking.
  { name: 'payout', account: 'acc_processor', amount: '-812.40', counterpartyKey: 'iban:CHECKING' },
  // A vendor's IBAN (not an account of the tenant) and a statement naming its own IBAN.
  { name: 'vendor', account: 'acc_checking', amount: '-20.00', counterpartyKey: 'iban:VENDOR' },
  { name: 'self', account: 'acc_checking', amount: '-5.00', counterpartyKey: 'iban:CHECKING' },
]

const expected: Readonly<Record<string, TransactionDirection>> = {
  'reserve out': 'transfer',
  'reserve in': 'inflow',
  'withdrawal in': 'transfer',
  'withdrawal out': 'transfer',
  payout: 'transfer',
  vendor: 'outflow',
  self: 'outflow',
}

function run(order: readonly Leg[], reconcile: boolean): Record<string, TransactionDirection> {
  const known = new Set<string>()
  const named = (leg: Leg) => [leg.counterpartyKey === undefined ? undefined : accountKeys[leg.counterpartyKey]].filter((id) => id === undefined || known.has(id))
  const directions = new Map<Leg, TransactionDirection>()
  for (const leg of order) {
    known.add(leg.account)
    directions.set(leg, directionFor(leg.amount, leg.account, named(leg)))
    if (!reconcile) continue
    for (const [recorded, direction] of directions) directions.set(recorded, directionNow({ accountId: recorded.account, direction }, named(recorded)))
  }
  return Object.fromEntries([...directions].map(([leg, direction]) => [leg.name, direction]))
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]]
  return items.flatMap((item, index) => permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]))
}

describe('transfers between own accounts, in every order (issue 15, item 4)', () => {
  const orders = permutations(legs)

  it('classify every leg the same whichever order the legs are normalized in', () => {
    expect(orders).toHaveLength(5040)
    for (const order of orders) expect(run(order, true), order.map((leg) => leg.name).join(' → ')).toEqual(expected)
  })

  it('needed reconciliation: recorded once, the direction depends on the order (the bug this fixes)', () => {
    const outcomes = new Set(orders.map((order) => JSON.stringify(run(order, false))))
    expect(outcomes.size).toBeGreaterThan(1)
    expect(run(legs, false)['reserve out']).toBe('outflow') // checking before savings: the demo's January
  })
})
