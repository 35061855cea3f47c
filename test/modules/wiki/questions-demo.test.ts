/**
 * Questions about the demo business (Juniper & Finch Coffee Roasters, sandbox/demo/), loaded through the
 * real pipeline: more than 40 questions whose expected figures are computed here, independently, from the
 * Ledger rows the Ledger list routes return; as-of reads before a correction (a transfer recognized by
 * reconciliation as a new version); unanswerable questions answered: false with suggestions; every
 * evidence path resolving to parsed rows through the Raw routes; the receipt's hashes recomputed from the
 * response and found in the audit event. Runs on both engines.
 */
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canonicalJson, sha256Hex } from '../../../src/kernel/hashing.ts'
import { fromMinorUnits, toMinorUnits } from '../../../src/kernel/money.ts'
import { loadDemoBusiness } from '../../../src/main/sandbox/demo-business.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { createTestApp, login, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { bankTransaction, normalize, seedArtifact, settledPipeline } from '../../support/ledger.ts'

interface LedgerTransaction { id: string; amount: string; currency: string; direction: string; transaction_date: string; counterparty_id: string | null; account_id: string }
interface LedgerInvoice { id: string; invoice_number: string; direction: string; status: string; currency: string; total: string; amount_paid: string; due_date: string | null; counterparty_id: string | null }
interface LedgerObligation { id: string; type: string; direction: string | null; status: string; currency: string; amount: string; due_date: string | null; recurrence: string | null }
interface Figure { key: string; value: string; currency: string | null; about: string | null }
interface EvidenceNode { ref: string; version_id: string | null; evidence: EvidenceNode[] }
interface Answer {
  question_id: string
  answered: boolean
  text: string
  reason: { code: string; message: string } | null
  template: string | null
  query: Record<string, any> | null
  figures: Figure[]
  evidence_path: EvidenceNode[]
  evidence: { records: number; cited: number; truncated: boolean }
  suggested_questions: string[]
  as_of: string
  question: string
  max_evidence_depth: number
  receipt: Record<string, string>
  confidence: number
}

let test: TestApp
let demo: { tenantId: string; token: string }
let other: TenantOwner
let transactions: LedgerTransaction[]
let invoices: LedgerInvoice[]
let obligations: LedgerObligation[]
let counterparties: Array<{ id: string; name: string }>
const answers: Answer[] = []

async function getAll<T>(token: string, url: string, key: string): Promise<T[]> {
  const rows: T[] = []
  let cursor: string | null = null
  do {
    const separator = url.includes('?') ? '&' : '?'
    const response = await test.request({ method: 'GET', url: `${url}${separator}limit=500${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, token })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    rows.push(...(body[key] as T[]))
    cursor = body.next_cursor
  } while (cursor !== null)
  return rows
}

async function ask(question: string, extra: Record<string, unknown> = {}, token = demo.token): Promise<Answer> {
  const response = await test.request({ method: 'POST', url: '/v1/wiki/question', token, payload: { question, ...extra } })
  expect(response.statusCode, response.body).toBe(200)
  const body = response.json() as Answer
  answers.push(body)
  return body
}

async function answered(question: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  const body = await ask(question, extra)
  expect(body.answered, `${question}: ${body.text}`).toBe(true)
  expect(body.reason).toBeNull()
  return body
}

/** Sums per currency in minor units. */
function totals(rows: readonly { amount: string; currency: string }[]): Map<string, { count: number; units: bigint }> {
  const out = new Map<string, { count: number; units: bigint }>()
  for (const row of rows) {
    const kept = out.get(row.currency) ?? { count: 0, units: 0n }
    out.set(row.currency, { count: kept.count + 1, units: kept.units + toMinorUnits(row.amount, row.currency) })
  }
  return out
}

const figure = (body: Answer, key: string, currency: string | null, about?: string) =>
  body.figures.find((f) => f.key === key && f.currency === currency && (about === undefined || f.about === about))?.value

const inPeriod = (from: string, to: string, filter: (row: LedgerTransaction) => boolean = () => true) => transactions.filter((row) => row.transaction_date >= from && row.transaction_date <= to && filter(row))

function expectSpent(body: Answer, rows: readonly LedgerTransaction[], sign: 1 | -1) {
  const expected = totals(rows)
  expect(expected.size, 'the question must be about something').toBeGreaterThan(0)
  for (const [currency, { count, units }] of expected) {
    expect(figure(body, 'total', currency), `${body.question} ${currency}`).toBe(fromMinorUnits(units * BigInt(sign), currency))
    expect(figure(body, 'count', currency)).toBe(String(count))
  }
  expect(new Set(body.figures.map((f) => f.currency).filter((c) => c !== null))).toEqual(new Set(expected.keys()))
}

const today = () => new Date().toISOString().slice(0, 10)
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)

beforeAll(async () => {
  test = await createTestApp({ workers: true })
  const loaded = await loadDemoBusiness(test.runtime, test.app, pino({ level: 'silent' }))
  await settledPipeline(test, loaded!.credentials.tenant_id, 240_000)
  demo = { tenantId: loaded!.credentials.tenant_id, token: await login(test, loaded!.credentials.email, loaded!.credentials.password) }
  other = await signupOwner(test)
  transactions = await getAll<LedgerTransaction>(demo.token, '/v1/ledger/transactions', 'transactions')
  invoices = [
    ...(await getAll<LedgerInvoice>(demo.token, '/v1/ledger/invoices?direction=receivable', 'invoices')),
    ...(await getAll<LedgerInvoice>(demo.token, '/v1/ledger/invoices?direction=payable', 'invoices')),
  ]
  obligations = await getAll<LedgerObligation>(demo.token, '/v1/ledger/obligations', 'obligations')
  counterparties = await getAll<{ id: string; name: string }>(demo.token, '/v1/ledger/counterparties', 'counterparties')
}, 400_000)
afterAll(async () => test?.close())

describe('totals, counts and averages over a period', () => {
  const months = [
    ['January 2026', '2026-01-01', '2026-01-31'],
    ['February 2026', '2026-02-01', '2026-02-28'],
    ['March 2026', '2026-03-01', '2026-03-31'],
  ] as const

  it.each(months)('spending in %s', async (label, from, to) => {
    const body = await answered(`How much did we spend in ${label}?`)
    expect(body.template).toBe('spending_total')
    expect(body.query).toMatchObject({ kind: 'transaction_aggregate', measure: 'total', scope: { from, to, direction: 'outflow' } })
    expectSpent(body, inPeriod(from, to, (row) => row.direction === 'outflow'), -1)
  })

  it.each(months)('money received in %s', async (label, from, to) => {
    const body = await answered(`How much money did we receive in ${label}?`)
    expect(body.template).toBe('income_total')
    expectSpent(body, inPeriod(from, to, (row) => row.direction === 'inflow'), 1)
  })

  it.each([
    ['How much did we spend in Q1 2026?', '2026-01-01', '2026-03-31'],
    ['What did we spend in the first quarter of 2026?', '2026-01-01', '2026-03-31'],
    ['How much did we spend in 2026-02?', '2026-02-01', '2026-02-28'],
    ['How much did we spend between 2026-03-01 and 2026-03-15?', '2026-03-01', '2026-03-15'],
    ['What were our total expenses in April 2026?', '2026-04-01', '2026-04-30'],
  ])('%s', async (question, from, to) => {
    const body = await answered(question)
    expect(body.query!.scope).toMatchObject({ from, to, direction: 'outflow' })
    expectSpent(body, inPeriod(from, to, (row) => row.direction === 'outflow'), -1)
  })

  it('spending this year, relative to as_of', async () => {
    const asOf = new Date().toISOString()
    const year = asOf.slice(0, 4)
    const body = await answered('How much did we spend this year?', { as_of: asOf })
    expect(body.query!.scope).toMatchObject({ from: `${year}-01-01`, to: asOf.slice(0, 10) })
    expectSpent(body, inPeriod(`${year}-01-01`, asOf.slice(0, 10), (row) => row.direction === 'outflow'), -1)
  })

  it('income in Q1 2026 in one currency, and in USDC only', async () => {
    const body = await answered('What was our income in Q1 2026?')
    expectSpent(body, inPeriod('2026-01-01', '2026-03-31', (row) => row.direction === 'inflow'), 1)
    expect(body.figures.filter((f) => f.key === 'total').map((f) => f.currency).sort()).toEqual(expect.arrayContaining(['EUR']))
    const usdc = await answered('How much did we receive in USDC in Q1 2026?')
    expect(usdc.query!.scope.currency).toBe('USDC')
    expectSpent(usdc, inPeriod('2026-01-01', '2026-03-31', (row) => row.direction === 'inflow' && row.currency === 'USDC'), 1)
  })

  it.each([
    ['How many transactions were there in March 2026?', '2026-03-01', '2026-03-31', null],
    ['Number of transactions in Q1 2026', '2026-01-01', '2026-03-31', null],
    ['How many payments did we make in February 2026?', '2026-02-01', '2026-02-28', 'outflow'],
  ])('%s', async (question, from, to, direction) => {
    const body = await answered(question)
    expect(body.template).toBe('transaction_count')
    const expected = totals(inPeriod(from, to, (row) => direction === null || row.direction === direction))
    for (const [currency, { count }] of expected) expect(figure(body, 'count', currency)).toBe(String(count))
    expect(body.figures.filter((f) => f.key === 'count').length).toBe(expected.size)
  })

  it.each([
    ['What was our average payment in Q1 2026?', '2026-01-01', '2026-03-31', 'outflow'],
    ['What was the average income transaction in March 2026?', '2026-03-01', '2026-03-31', 'inflow'],
  ])('%s', async (question, from, to, direction) => {
    const body = await answered(question)
    for (const [currency, { count, units }] of totals(inPeriod(from, to, (row) => row.direction === direction))) {
      const magnitude = direction === 'outflow' ? -units : units
      // Half away from zero at the currency's scale.
      const mean = (magnitude * 2n + BigInt(count) * (magnitude >= 0n ? 1n : -1n)) / (2n * BigInt(count))
      expect(figure(body, 'average', currency)).toBe(fromMinorUnits(mean, currency))
    }
  })

  it('payments to a named counterparty, and from a named customer', async () => {
    const outflows = inPeriod('2026-01-01', '2026-03-31', (row) => row.direction === 'outflow' && row.counterparty_id !== null)
    const byCounterparty = new Map<string, number>()
    for (const row of outflows) byCounterparty.set(row.counterparty_id!, (byCounterparty.get(row.counterparty_id!) ?? 0) + 1)
    // A name the question can carry whole: one counterparty's, no word that ends a name in a question ("in", "for", "and"…).
    const unique = (name: string) =>
      counterparties.filter((c) => c.name.toLowerCase().includes(name.toLowerCase())).length === 1 &&
      /^[\p{L}\p{N}&][\p{L}\p{N}&.'\-()/+ ]+$/u.test(name) &&
      !/\s(in|during|last|this|between|since|for|over|and|compared|versus|vs|per|each|by|from|to|on|the)\s/i.test(` ${name} `)
    const payee = counterparties.find((c) => (byCounterparty.get(c.id) ?? 0) >= 2 && unique(c.name))!
    const paid = await answered(`How much did we pay to ${payee.name} in Q1 2026?`)
    expect(paid.query!.scope.counterparty_id).toBe(payee.id)
    expectSpent(paid, outflows.filter((row) => row.counterparty_id === payee.id), -1)

    const inflows = inPeriod('2026-01-01', '2026-03-31', (row) => row.direction === 'inflow' && row.counterparty_id !== null)
    const payer = counterparties.find((c) => inflows.some((row) => row.counterparty_id === c.id) && unique(c.name))!
    const received = await answered(`How much did we receive from ${payer.name} in Q1 2026?`)
    expect(received.query!.scope.counterparty_id).toBe(payer.id)
    expectSpent(received, inflows.filter((row) => row.counterparty_id === payer.id), 1)
  })
})

describe('the five prompt families and listings', () => {
  it.each([
    ['What was our cash flow in January 2026?', '2026-01-01', '2026-01-31'],
    ['Cash flow for Q1 2026', '2026-01-01', '2026-03-31'],
    ['What was the net cash flow in February 2026?', '2026-02-01', '2026-02-28'],
  ])('%s', async (question, from, to) => {
    const body = await answered(question)
    expect(body.template).toBe('cash_flow_summary')
    const rows = inPeriod(from, to)
    for (const currency of new Set(rows.map((row) => row.currency))) {
      const of = (direction: string) => totals(rows.filter((row) => row.currency === currency && row.direction === direction)).get(currency) ?? { count: 0, units: 0n }
      const inflow = of('inflow')
      const outflow = of('outflow')
      expect(figure(body, 'inflow', currency)).toBe(fromMinorUnits(inflow.units, currency))
      expect(figure(body, 'outflow', currency)).toBe(fromMinorUnits(-outflow.units, currency))
      expect(figure(body, 'net', currency)).toBe(fromMinorUnits(inflow.units + outflow.units, currency))
      expect(figure(body, 'transfer_count', currency)).toBe(String(of('transfer').count))
    }
  })

  it.each([
    ['How did our spending change between January 2026 and February 2026?', ['2026-02-01', '2026-02-28'], ['2026-01-01', '2026-01-31']],
    ['Compare spending in March 2026 with February 2026', ['2026-03-01', '2026-03-31'], ['2026-02-01', '2026-02-28']],
    ['How did spending change in March 2026?', ['2026-03-01', '2026-03-31'], ['2026-02-01', '2026-02-28']],
  ] as const)('%s', async (question, current, base) => {
    const body = await answered(question)
    expect(body.template).toBe('spending_change')
    expect(body.query).toMatchObject({ scope: { from: current[0], to: current[1] }, compare_to: { from: base[0], to: base[1] } })
    const spent = (period: readonly [string, string]) => totals(inPeriod(period[0], period[1], (row) => row.direction === 'outflow')).get('EUR')!.units
    const changes = body.figures.filter((f) => f.key === 'change' && f.currency === 'EUR')
    expect(changes).toEqual([{ key: 'change', value: fromMinorUnits(-spent(current) + spent(base), 'EUR'), currency: 'EUR', about: null }])
  })

  const on = today()
  const openInvoice = (row: LedgerInvoice) => ['sent', 'partial', 'overdue'].includes(row.status) && toMinorUnits(row.total, row.currency) > toMinorUnits(row.amount_paid, row.currency)

  it.each([
    ['Which invoices are overdue?', 'receivable', (row: LedgerInvoice) => openInvoice(row) && row.due_date !== null && row.due_date < on],
    ['Which invoices are unpaid?', 'receivable', openInvoice],
    ['Which invoices are paid?', 'receivable', (row: LedgerInvoice) => row.status === 'paid'],
    ['What is the status of our invoices?', 'receivable', () => true],
    ['Which bills are unpaid?', 'payable', openInvoice],
    ['What is the status of the bills we received?', 'payable', () => true],
  ] as const)('%s', async (question, direction, keep) => {
    const body = await answered(question)
    expect(body.query).toMatchObject({ kind: 'invoices', direction })
    const rows = invoices.filter((row) => row.direction === direction && keep(row))
    for (const [currency, { count, units }] of totals(rows.map((row) => ({ amount: row.total, currency: row.currency })))) {
      expect(figure(body, 'count', currency, body.query!.state)).toBe(String(count))
      expect(figure(body, 'total', currency, body.query!.state)).toBe(fromMinorUnits(units, currency))
      const outstanding = rows.filter((row) => row.currency === currency).reduce((sum, row) => {
        const due = toMinorUnits(row.total, currency) - toMinorUnits(row.amount_paid, currency)
        return sum + (due > 0n ? due : 0n)
      }, 0n)
      expect(figure(body, 'outstanding', currency, body.query!.state)).toBe(fromMinorUnits(outstanding, currency))
    }
    expect(body.evidence.records).toBe(rows.length)
    if (rows.length === 0) expect(body.text).toContain('none recorded')
  })

  it('the status of one invoice, by its number', async () => {
    const invoice = invoices.find((row) => row.direction === 'receivable')!
    const body = await answered(`What is the status of invoice ${invoice.invoice_number}?`)
    expect(body.query).toMatchObject({ kind: 'invoices', invoice_number: invoice.invoice_number })
    expect(figure(body, 'count', invoice.currency, invoice.status)).toBe('1')
    expect(body.text).toContain(invoice.status)
    expect(body.evidence_path.map((node) => node.ref)).toEqual([`invoice:${invoice.id}`])
  })

  it('bills due in the next 30 days (overdue ones included)', async () => {
    const body = await answered('Which bills are due in the next 30 days?')
    expect(body.template).toBe('bills_due')
    const rows = obligations.filter((row) => row.direction === 'payable' && row.status === 'open' && row.due_date !== null && row.due_date <= addDays(on, 30))
    for (const [currency, { count, units }] of totals(rows)) {
      expect(figure(body, 'count', currency)).toBe(String(count))
      expect(figure(body, 'total', currency)).toBe(fromMinorUnits(units, currency))
    }
    expect(body.evidence.records).toBe(rows.length)
  })

  it.each(['Which subscriptions do we pay for?', 'What are our recurring payments?'])('%s', async (question) => {
    const body = await answered(question)
    expect(body.template).toBe('subscriptions')
    const rows = obligations.filter((row) => row.type === 'subscription' && row.status !== 'cancelled')
    expect(rows.length).toBeGreaterThan(0)
    for (const [currency, { count, units }] of totals(rows)) {
      expect(figure(body, 'count', currency)).toBe(String(count))
      expect(figure(body, 'total', currency, undefined)).toBeDefined()
      expect(body.figures.find((f) => f.key === 'total' && f.currency === currency && f.about === null)?.value).toBe(fromMinorUnits(units, currency))
    }
  })

  it.each([
    ['List our transactions on 2026-03-12', '2026-03-12', '2026-03-12', null],
    ['Show me the transfers in January 2026', '2026-01-01', '2026-01-31', 'transfer'],
  ])('%s', async (question, from, to, direction) => {
    const body = await answered(question)
    expect(body.template).toBe('transaction_list')
    const rows = inPeriod(from, to, (row) => direction === null || row.direction === direction).sort((a, b) => (a.transaction_date + a.id < b.transaction_date + b.id ? -1 : 1))
    expect(rows.length).toBeGreaterThan(0)
    expect(figure(body, 'listed', null)).toBe(String(Math.min(rows.length, 50)))
    expect(body.evidence_path.map((node) => node.ref)).toEqual(rows.slice(0, 20).map((row) => `transaction:${row.id}`))
  })
})

describe('unanswerable questions', () => {
  it.each([
    ['What is the meaning of life?', 'not_understood'],
    ['Should we hire another roaster?', 'not_understood'],
    ['How much did we spend?', 'period_missing'],
    ['What was our cash flow?', 'period_missing'],
    ['What was the total of our transactions in March 2026?', 'direction_missing'],
    ['How much did we pay to Nonexistent Widgets Corp in March 2026?', 'name_unknown'],
  ])('%s → answered: false (%s), with questions it can answer', async (question, code) => {
    const body = await ask(question)
    expect(body).toMatchObject({ answered: false, reason: { code }, query: null, figures: [], evidence_path: [], confidence: 0 })
    expect(body.suggested_questions.length).toBeGreaterThan(0)
    expect(body.suggested_questions).toContain('What was our cash flow last month?')
  })
})

describe('as-of reads before a correction', () => {
  it('answers as the Ledger was recorded: before a transaction existed, before reconciliation made it a transfer, and after', async () => {
    const cash = { iban: 'DE02500105170137075030', name: 'Petty cash', currency: 'EUR' }
    const reserve = { iban: 'DE91100000000123456789', name: 'Second reserve', currency: 'EUR' }
    const question = 'How much did we spend in April 2026?'
    const before = await answered(question)
    const beforeSeeding = new Date().toISOString()
    await new Promise((resolve) => setTimeout(resolve, 5))
    const seeded = await seedArtifact(test, demo.tenantId, [
      bankTransaction({ account: cash, amount: '-250.00', transaction_date: '2026-04-20', description: 'MOVE TO SECOND RESERVE', counterparty: { name: 'Juniper & Finch Reserve', iban: reserve.iban } }),
    ])
    await normalize(test, demo.tenantId, seeded.artifactId)
    const seededRow = (await getAll<LedgerTransaction & { version: number; version_id: string; updated_at: string }>(demo.token, '/v1/ledger/transactions?since=2026-04-20&until=2026-04-20', 'transactions')).find((row) => row.amount === '-250.00')!
    expect(seededRow).toMatchObject({ direction: 'outflow', version: 1 })
    const beforeCorrection = new Date().toISOString()
    await new Promise((resolve) => setTimeout(resolve, 5))
    const reserveArtifact = await seedArtifact(test, demo.tenantId, [bankTransaction({ account: reserve, amount: '250.00', transaction_date: '2026-04-20', description: 'FROM PETTY CASH', counterparty: { name: 'Juniper & Finch', iban: cash.iban } })])
    await normalize(test, demo.tenantId, reserveArtifact.artifactId)
    await test.runtime.ledger.reconcile(demo.tenantId, { actor: { type: 'system', id: 'test' } })
    const corrected = (await test.request({ method: 'GET', url: `/v1/ledger/transactions/${seededRow.id}`, token: demo.token })).json()
    expect(corrected).toMatchObject({ direction: 'transfer', version: 2 })

    const april = (rows: readonly LedgerTransaction[]) => rows.filter((row) => row.transaction_date >= '2026-04-01' && row.transaction_date <= '2026-04-30' && row.direction === 'outflow')
    const spent = (rows: readonly LedgerTransaction[]) => fromMinorUnits(-(totals(april(rows)).get('EUR')?.units ?? 0n), 'EUR')
    const asOf = async (at: string) => getAll<LedgerTransaction>(demo.token, `/v1/ledger/transactions?since=2026-04-01&until=2026-04-30&as_of=${encodeURIComponent(at)}`, 'transactions')

    const then = await answered(question, { as_of: beforeCorrection })
    expect(figure(then, 'total', 'EUR')).toBe(spent(await asOf(beforeCorrection)))
    expect(figure(then, 'total', 'EUR')).toBe(fromMinorUnits(toMinorUnits(figure(before, 'total', 'EUR')!, 'EUR') + 25000n, 'EUR'))
    expect(then.evidence_path.some((node) => node.ref === `transaction:${seededRow.id}` && node.version_id === seededRow.version_id)).toBe(true)

    const earlier = await answered(question, { as_of: beforeSeeding })
    expect(figure(earlier, 'total', 'EUR')).toBe(figure(before, 'total', 'EUR'))

    const now = await answered(question)
    expect(figure(now, 'total', 'EUR')).toBe(spent(await getAll<LedgerTransaction>(demo.token, '/v1/ledger/transactions?since=2026-04-01&until=2026-04-30', 'transactions')))
    expect(figure(now, 'total', 'EUR')).toBe(figure(before, 'total', 'EUR'))

    // Reproducible: the same question with the same as_of gives the same answer.
    const again = await answered(question, { as_of: beforeCorrection })
    for (const key of ['text', 'figures', 'query', 'evidence_path', 'evidence'] as const) expect(again[key]).toEqual(then[key])
    expect(again.receipt.answer_sha256).toBe(then.receipt.answer_sha256)
    expect(again.receipt.evidence_sha256).toBe(then.receipt.evidence_sha256)
  })
})

describe('evidence, receipts and tenancy', () => {
  it('asks at least 40 questions in this file', () => {
    expect(answers.length).toBeGreaterThanOrEqual(40)
  })

  it('every evidence path resolves to parsed rows through the Raw routes, down to their artifacts', async () => {
    const parsedByArtifact = new Map<string, Set<string>>()
    const rowsOf = async (artifactId: string) => {
      if (!parsedByArtifact.has(artifactId)) {
        const rows = await getAll<{ id: string }>(demo.token, `/v1/raw/${artifactId}/parsed`, 'parsed')
        parsedByArtifact.set(artifactId, new Set(rows.map((row) => row.id)))
      }
      return parsedByArtifact.get(artifactId)!
    }
    let checked = 0
    for (const body of answers.filter((a) => a.answered && a.evidence_path.length > 0)) {
      for (const record of body.evidence_path) {
        expect(record.ref).toMatch(/^(transaction|invoice|obligation):/)
        expect(record.version_id).toMatch(/^ver_/)
        const parsed = record.evidence.filter((node) => node.ref.startsWith('parsed_row:'))
        expect(parsed.length, record.ref).toBeGreaterThan(0)
        for (const row of parsed) {
          const [artifact] = row.evidence
          expect(artifact!.ref).toMatch(/^raw_artifact:raw_/)
          expect(await rowsOf(artifact!.ref.slice('raw_artifact:'.length))).toContain(row.ref.slice('parsed_row:'.length))
          checked += 1
        }
      }
    }
    expect(checked).toBeGreaterThan(100)
  })

  it('max_evidence_depth bounds the path: 1 Ledger records only, 5 with accounts and counterparties', async () => {
    const shallow = await answered('How much did we spend in March 2026?', { max_evidence_depth: 1 })
    expect(shallow.evidence_path.every((node) => node.evidence.length === 0)).toBe(true)
    const deep = await answered('How much did we spend in March 2026?', { max_evidence_depth: 5 })
    expect(deep.evidence_path.some((node) => node.evidence.some((child) => child.ref.startsWith('account:') && child.evidence.length > 0))).toBe(true)
    expect(deep.evidence.cited).toBe(20)
    expect(deep.evidence.truncated).toBe(true)
    const tooDeep = await test.request({ method: 'POST', url: '/v1/wiki/question', token: demo.token, payload: { question: 'x', max_evidence_depth: 6 } })
    expect(tooDeep.statusCode).toBe(400)
  })

  it('each answer has a receipt: its hashes recompute from the response and are in the audit event (layer wiki)', async () => {
    for (const body of [answers[0]!, answers.find((a) => !a.answered)!]) {
      const expected = {
        question_sha256: sha256Hex(canonicalJson({ question: body.question, as_of: body.as_of, max_evidence_depth: body.max_evidence_depth })),
        query_sha256: sha256Hex(canonicalJson(body.query)),
        evidence_sha256: sha256Hex(canonicalJson(body.evidence_path)),
        answer_sha256: sha256Hex(canonicalJson({ answered: body.answered, text: body.text, figures: body.figures, reason: body.reason })),
      }
      expect(body.receipt).toEqual({ audit_entity: `wiki_question:${body.question_id}`, ...expected })
      const [event] = await auditEvents(test, demo.tenantId, { entityId: body.question_id })
      expect(event).toMatchObject({ layer: 'wiki', action: body.answered ? 'wiki.question.answered' : 'wiki.question.unanswered' })
      expect(event!.inputs).toMatchObject({ question_sha256: expected.question_sha256 })
      expect(event!.outputs).toMatchObject({ query_sha256: expected.query_sha256, evidence_sha256: expected.evidence_sha256, answer_sha256: expected.answer_sha256 })
      // The audit event never holds the question's text.
      expect(JSON.stringify(event)).not.toContain(body.question)
      const viaRoute = await test.request({ method: 'GET', url: `/v1/audit/entity/wiki_question/${body.question_id}`, token: demo.token })
      expect(viaRoute.statusCode, viaRoute.body).toBe(200)
      expect(viaRoute.body).toContain(expected.answer_sha256)
    }
  })

  it('another tenant reads nothing of the demo Ledger', async () => {
    const body = await ask('How much did we spend in Q1 2026?', {}, other.token)
    expect(body.answered).toBe(true)
    expect(body.figures.filter((f) => f.key === 'total')).toEqual([])
    expect(body.evidence_path).toEqual([])
    const unknown = await ask(`How much did we pay to ${counterparties[0]!.name} in Q1 2026?`, {}, other.token)
    expect(unknown).toMatchObject({ answered: false, reason: { code: 'name_unknown' } })
  })
})
