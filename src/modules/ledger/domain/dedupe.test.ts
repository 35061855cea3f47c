import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { deterministicId } from '../../../kernel/ids.ts'
import {
  candidateQueryOf,
  externalIdAgrees,
  inWindow,
  transactionEntryOf,
  TransactionResolver,
  type Candidate,
  type KnownTransaction,
  type TransactionEntry,
  type TransactionResolution,
} from './dedupe.ts'
import type { TransactionStatus } from './entities.ts'
import type { TransactionFacts } from './records.ts'

const tenantId = '00000000-0000-4000-8000-000000000001'

function facts(overrides: Partial<TransactionFacts> = {}): TransactionFacts {
  return {
    account: { iban: 'DE89370400440532013000' },
    externalId: undefined,
    pendingExternalId: undefined,
    amount: '-12.50',
    currency: 'EUR',
    transactionDate: '2026-03-10',
    postedDate: undefined,
    status: 'posted',
    description: 'COFFEE',
    descriptionNormalized: 'COFFEE',
    counterparty: undefined,
    category: undefined,
    details: undefined,
    chainId: undefined,
    ...overrides,
  }
}

const entry = (overrides: Partial<TransactionFacts> = {}, options: { accountId?: string; occurrence?: number; artifact?: string } = {}) =>
  transactionEntryOf(options.accountId ?? 'acc_1', facts(overrides), options.occurrence ?? 1, options.artifact ?? 'raw_b')

const candidate = (id: string, overrides: Partial<Candidate> = {}): Candidate => ({
  id,
  accountId: 'acc_1',
  amount: '-12.50',
  status: 'posted',
  transactionDate: '2026-03-10',
  sourceIds: ['raw_a'],
  externalTransactionId: null,
  ...overrides,
})

interface Scenario {
  /** Transaction keys the tenant already has. */
  keys?: Record<string, string>
  /** Loaded transactions, for the external-id check. */
  drafts?: Record<string, KnownTransaction>
  /** Dedupe candidates the query found. */
  candidates?: Candidate[]
}

function resolver(scenario: Scenario = {}) {
  const keys = new Map(Object.entries(scenario.keys ?? {}))
  const drafts = new Map(Object.entries(scenario.drafts ?? {}))
  const resolving = new TransactionResolver(tenantId, keys, (id) => drafts.get(id), new Map())
  for (const row of scenario.candidates ?? []) resolving.pool.add(row)
  /** Resolves in order, binding each record's keys as the batch does. */
  const resolveAll = (entries: readonly TransactionEntry[]): TransactionResolution[] =>
    entries.map((item) => {
      const resolution = resolving.resolve(item)
      for (const key of item.keys) if (!keys.has(key)) keys.set(key, resolution.id)
      return resolution
    })
  return { resolving, resolveAll }
}

describe('transactionEntryOf', () => {
  it.each([
    { name: 'a fingerprint only', overrides: {}, occurrence: 1, keys: ['fp:acc_1:2026-03-10:-12.5:COFFEE:1'], pendingKey: undefined },
    { name: 'the second identical row', overrides: {}, occurrence: 2, keys: ['fp:acc_1:2026-03-10:-12.5:COFFEE:2'], pendingKey: undefined },
    {
      name: 'an external id first, and the pending id it replaces',
      overrides: { externalId: 'FIT-9', pendingExternalId: 'P-9' },
      occurrence: 1,
      keys: ['ext:acc_1:FIT-9', 'fp:acc_1:2026-03-10:-12.5:COFFEE:1'],
      pendingKey: 'ext:acc_1:P-9',
    },
  ])('$name', ({ overrides, occurrence, keys, pendingKey }) => {
    const made = entry(overrides, { occurrence })
    expect(made.keys).toEqual(keys)
    expect(made.pendingKey).toBe(pendingKey)
  })
})

describe('externalIdAgrees (rule 3)', () => {
  const known = (amount: string, status: TransactionStatus, transactionDate: string): KnownTransaction => ({ amount, status, transactionDate })
  it.each([
    { name: 'the same amount on the same day', known: known('-12.50', 'posted', '2026-03-10'), agrees: true },
    { name: 'the same amount 10 days before', known: known('-12.50', 'posted', '2026-02-28'), agrees: true },
    { name: 'the same amount 10 days after', known: known('-12.50', 'posted', '2026-03-20'), agrees: true },
    { name: 'the same amount 11 days away (a reused reference)', known: known('-12.50', 'posted', '2026-03-21'), agrees: false },
    { name: 'another amount (a reused reference)', known: known('-13.00', 'posted', '2026-03-10'), agrees: false },
    { name: 'another amount, but the known one is pending', known: known('-13.00', 'pending', '2026-03-09'), agrees: true },
    { name: 'pending, but 11 days away', known: known('-13.00', 'pending', '2026-02-27'), agrees: false },
  ])('$name: $agrees', ({ known: found, agrees }) => {
    expect(externalIdAgrees(found, { amount: '-12.50', transactionDate: '2026-03-10' })).toBe(agrees)
  })
})

describe('inWindow', () => {
  it.each([
    { candidate: '2026-03-10', day: '2026-03-10', days: 7, inside: true },
    { candidate: '2026-03-03', day: '2026-03-10', days: 7, inside: true },
    { candidate: '2026-03-02', day: '2026-03-10', days: 7, inside: false },
    { candidate: '2026-03-11', day: '2026-03-10', days: 7, inside: false },
    { candidate: '2026-02-28', day: '2026-03-01', days: 0, inside: false },
  ])('$candidate within $days days before $day: $inside', ({ candidate: day1, day, days, inside }) => {
    expect(inWindow(day1, day, days)).toBe(inside)
  })
})

describe('candidateQueryOf', () => {
  it('asks for nothing when every record has its transaction', () => {
    expect(candidateQueryOf([])).toBeUndefined()
  })

  it('asks for each (account, amount), from 7 days before the earliest record to the latest', () => {
    const query = candidateQueryOf([entry({ transactionDate: '2026-03-10' }), entry({ transactionDate: '2026-03-01', amount: '4.00' }, { accountId: 'acc_2' })])
    expect(query).toEqual({
      probes: [
        { accountId: 'acc_1', amount: '-12.50' },
        { accountId: 'acc_2', amount: '4.00' },
      ],
      dateFrom: '2026-02-22',
      dateTo: '2026-03-10',
    })
  })
})

describe('TransactionResolver', () => {
  const fingerprint = 'fp:acc_1:2026-03-10:-12.5:COFFEE:1'
  const seeded = (key: string) => deterministicId('transaction', tenantId, key)

  it.each<{ name: string; scenario: Scenario; record: TransactionEntry; expected: Partial<TransactionResolution> }>([
    { name: 'a record whose fingerprint is known', scenario: { keys: { [fingerprint]: 'txn_known' } }, record: entry(), expected: { id: 'txn_known', match: 'key' } },
    {
      name: 'an external id that agrees',
      scenario: { keys: { 'ext:acc_1:FIT-1': 'txn_known' }, drafts: { txn_known: { amount: '-12.50', status: 'posted', transactionDate: '2026-03-12' } } },
      record: entry({ externalId: 'FIT-1' }),
      expected: { id: 'txn_known', match: 'key' },
    },
    {
      name: 'a reused external id (another amount): another transaction, seeded by its fingerprint',
      scenario: { keys: { 'ext:acc_1:FIT-1': 'txn_known' }, drafts: { txn_known: { amount: '-99.00', status: 'posted', transactionDate: '2026-03-10' } } },
      record: entry({ externalId: 'FIT-1' }),
      expected: { id: seeded(fingerprint), match: 'new', seed: fingerprint },
    },
    {
      name: 'the pending transaction the record names',
      scenario: { keys: { 'ext:acc_1:P-1': 'txn_pending' } },
      record: entry({ externalId: 'FIT-2', pendingExternalId: 'P-1' }),
      expected: { id: 'txn_pending', match: 'pending' },
    },
    {
      name: 'a posted record and the one pending candidate 7 days before',
      scenario: { candidates: [candidate('txn_pending', { status: 'pending', transactionDate: '2026-03-03', sourceIds: ['raw_b'] })] },
      record: entry(),
      expected: { id: 'txn_pending', match: 'pending' },
    },
    {
      name: 'a pending candidate 8 days before: new',
      scenario: { candidates: [candidate('txn_pending', { status: 'pending', transactionDate: '2026-03-02' })] },
      record: entry(),
      expected: { id: seeded(fingerprint), match: 'new' },
    },
    {
      name: 'a pending record does not settle a pending candidate',
      scenario: { candidates: [candidate('txn_pending', { status: 'pending', transactionDate: '2026-03-09', sourceIds: ['raw_b'] })] },
      record: entry({ status: 'pending' }),
      expected: { id: seeded(fingerprint), match: 'new' },
    },
    {
      name: 'two pending candidates: neither, and the same-day rule finds none',
      scenario: {
        candidates: [
          candidate('txn_p1', { status: 'pending', transactionDate: '2026-03-08' }),
          candidate('txn_p2', { status: 'pending', transactionDate: '2026-03-09' }),
        ],
      },
      record: entry(),
      expected: { id: seeded(fingerprint), match: 'new' },
    },
    { name: 'the same day, amount and account from another artifact', scenario: { candidates: [candidate('txn_other')] }, record: entry(), expected: { id: 'txn_other', match: 'fuzzy' } },
    { name: 'a same-day candidate from the same artifact: new', scenario: { candidates: [candidate('txn_same', { sourceIds: ['raw_b'] })] }, record: entry(), expected: { match: 'new' } },
    {
      name: 'a same-day candidate with another external id: new',
      scenario: { candidates: [candidate('txn_other', { externalTransactionId: 'FIT-X' })] },
      record: entry({ externalId: 'FIT-Y' }),
      expected: { id: seeded('ext:acc_1:FIT-Y'), match: 'new', seed: 'ext:acc_1:FIT-Y' },
    },
    {
      name: 'a same-day candidate with the same external id',
      scenario: { candidates: [candidate('txn_other', { externalTransactionId: 'FIT-Y' })] },
      record: entry({ externalId: 'FIT-Y' }),
      expected: { id: 'txn_other', match: 'fuzzy' },
    },
    {
      name: 'two same-day candidates: a new transaction, ambiguous, naming both',
      scenario: { candidates: [candidate('txn_z'), candidate('txn_a', { sourceIds: ['raw_c'] })] },
      record: entry(),
      expected: { id: seeded(fingerprint), match: 'ambiguous', candidates: ['txn_a', 'txn_z'] },
    },
    { name: 'another account: new', scenario: { candidates: [candidate('txn_other', { accountId: 'acc_2' })] }, record: entry(), expected: { match: 'new' } },
    { name: 'another amount: new', scenario: { candidates: [candidate('txn_other', { amount: '-12.51' })] }, record: entry(), expected: { match: 'new' } },
  ])('$name', ({ scenario, record, expected }) => {
    const [resolution] = resolver(scenario).resolveAll([record])
    expect(resolution).toMatchObject(expected)
  })

  it('seeds a new transaction by its first key no other transaction holds', () => {
    const [resolution] = resolver({ keys: { 'ext:acc_1:FIT-1': 'txn_known' }, drafts: { txn_known: { amount: '-1.00', status: 'posted', transactionDate: '2026-03-10' } } }).resolveAll([
      entry({ externalId: 'FIT-1' }),
    ])
    expect(resolution).toMatchObject({ id: seeded(fingerprint), match: 'new', seed: fingerprint })
    const [fresh] = resolver().resolveAll([entry({ externalId: 'FIT-1' })])
    expect(fresh).toMatchObject({ id: seeded('ext:acc_1:FIT-1'), seed: 'ext:acc_1:FIT-1' })
  })

  it('gives a new transaction the id its seed derives, reusing the ids the batch has derived already', () => {
    const keys = new Map<string, string>()
    const resolving = new TransactionResolver(tenantId, keys, () => undefined, new Map([[fingerprint, 'txn_derived']]))
    expect(resolving.resolve(entry())).toMatchObject({ id: 'txn_derived', match: 'new', seed: fingerprint })
  })

  it('does not settle a pending transaction of the batch by rule: a later record reaches it by a key only', () => {
    const pending = entry({ status: 'pending', transactionDate: '2026-03-08', description: 'PENDING', descriptionNormalized: 'PENDING', externalId: 'P-1' })
    const posted = entry({ transactionDate: '2026-03-10' })
    const naming = entry({ transactionDate: '2026-03-10', externalId: 'FIT-3', pendingExternalId: 'P-1' }, { occurrence: 2 })
    const [first, second, third] = resolver().resolveAll([pending, posted, naming])
    expect(first).toMatchObject({ match: 'new' })
    expect(second).toMatchObject({ match: 'new' })
    expect(second!.id).not.toBe(first!.id)
    expect(third).toMatchObject({ id: first!.id, match: 'pending' })
  })

  it('does not merge two records of the batch into one candidate', () => {
    const [first, second] = resolver({ candidates: [candidate('txn_other')] }).resolveAll([entry(), entry({}, { occurrence: 2 })])
    expect(first).toMatchObject({ id: 'txn_other', match: 'fuzzy' })
    expect(second).toMatchObject({ match: 'new' })
  })

  it('checks a reused external id against a transaction the batch has just decided', () => {
    const [first, second] = resolver().resolveAll([entry({ externalId: 'FIT-1' }), entry({ externalId: 'FIT-1', amount: '-40.00' })])
    expect(first).toMatchObject({ match: 'new', seed: 'ext:acc_1:FIT-1' })
    expect(second!.id).not.toBe(first!.id)
  })

  it('merges by rule only into a transaction of the same account and amount, in the window, at most once', () => {
    const days = ['2026-03-01', '2026-03-03', '2026-03-08', '2026-03-10']
    const record = fc.record({
      account: fc.constantFrom('acc_1', 'acc_2'),
      amount: fc.constantFrom('-1.00', '-2.00'),
      day: fc.constantFrom(...days),
      status: fc.constantFrom<TransactionStatus>('pending', 'posted', 'cleared'),
      artifact: fc.constantFrom('raw_a', 'raw_b'),
      description: fc.constantFrom('A', 'B'),
    })
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), fc.array(record, { maxLength: 6 }), (records, existing) => {
        const candidates = existing.map((item, index) =>
          candidate(`txn_c${index}`, { accountId: item.account, amount: item.amount, transactionDate: item.day, status: item.status, sourceIds: [item.artifact] }),
        )
        const known = new Map<string, Candidate>(candidates.map((row) => [row.id, row]))
        const entries = records.map((item, index) =>
          transactionEntryOf(item.account, facts({ amount: item.amount, transactionDate: item.day, status: item.status, description: item.description, descriptionNormalized: item.description }), index + 1, item.artifact),
        )
        const resolutions = resolver({ candidates }).resolveAll(entries)
        const mergedInto = new Set<string>()
        resolutions.forEach((resolution, index) => {
          const { facts: item, accountId, rawArtifactId } = entries[index]!
          if (resolution.match === 'pending' || resolution.match === 'fuzzy') {
            const target = known.get(resolution.id)!
            expect(target.accountId).toBe(accountId)
            expect(target.amount).toBe(item.amount)
            if (resolution.match === 'pending') {
              expect(target.status).toBe('pending')
              expect(inWindow(target.transactionDate, item.transactionDate, 7)).toBe(true)
            } else {
              expect(target.transactionDate).toBe(item.transactionDate)
              expect(target.sourceIds).not.toContain(rawArtifactId)
            }
            expect(mergedInto.has(resolution.id)).toBe(false)
            mergedInto.add(resolution.id)
          } else {
            // Every record here has unique keys, so the rest are new transactions, each its own.
            expect(resolution.match === 'new' || resolution.match === 'ambiguous').toBe(true)
            expect(known.has(resolution.id)).toBe(false)
            known.set(resolution.id, { id: resolution.id, accountId, amount: item.amount, status: item.status, transactionDate: item.transactionDate, sourceIds: [rawArtifactId], externalTransactionId: null })
          }
        })
      }),
      { numRuns: 500 },
    )
  })
})
