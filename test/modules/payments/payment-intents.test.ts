/**
 * PaymentIntents (issue 16): proposals checked against the Ledger and decided by the policy at creation,
 * the member rules of approval in the spec's order, reject, pause and cancel, the reads, and duplicates.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { addMember, createTestApp, expectError, mintServiceToken, signupOwner, type JoinedMember, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { bankTransaction, getOk, normalize, seedArtifact } from '../../support/ledger.ts'
import { addSigner, compose, sign, signatureOf } from '../../support/policy.ts'
import { business } from '../../support/payments.ts'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../../src/platform/db/database.ts'
import { auditEvents } from '../../support/audit-log.ts'

let test: TestApp
let owner: TenantOwner
let agentToken: string
let accountId: string
let supplierId: string
let payeeMember: JoinedMember
let payeeCounterpartyId: string
let invoiceId: string
let paidInvoiceId: string
let receivableInvoiceId: string
let receivableObligationId: string
let evidenceId: string

const supplierIban = 'DE02120300000000202051'

beforeAll(async () => {
  test = await createTestApp()
  owner = await signupOwner(test)
  payeeMember = await addMember(test, owner, 'approver', { approval_domains: ['*'] })
  const seeded = await seedArtifact(test, owner.tenantId, [
    bankTransaction({ amount: '-10.00', transaction_date: '2026-03-02', description: 'PAPER SUPPLY', counterparty: { name: 'Paper Supply Co', iban: supplierIban } }),
    bankTransaction({ amount: '-5.00', transaction_date: '2026-03-03', description: 'EXPENSES', counterparty: { name: 'A Member', email: payeeMember.email } }),
    bankTransaction({ amount: '5000.00', transaction_date: '2026-03-01', description: 'OPENING DEPOSIT' }),
    { kind: 'invoice', direction: 'payable', invoice_number: 'PS-77', issue_date: '2026-03-05', due_date: '2026-04-05', currency: 'EUR', total: '300.00', amount_paid: '100.00', counterparty: { name: 'Paper Supply Co', iban: supplierIban } },
    { kind: 'invoice', direction: 'payable', invoice_number: 'PS-76', issue_date: '2026-02-05', due_date: '2026-03-05', currency: 'EUR', total: '80.00', amount_paid: '80.00', counterparty: { name: 'Paper Supply Co', iban: supplierIban } },
    { kind: 'invoice', direction: 'receivable', invoice_number: 'AR-1', issue_date: '2026-03-05', due_date: '2026-04-05', currency: 'EUR', total: '50.00', counterparty: { name: 'Customer One' } },
  ], { sourceType: 'bank_provider' })
  await normalize(test, owner.tenantId, seeded.artifactId)
  evidenceId = seeded.rowIds[0]!
  const accounts = (await getOk(test, owner.token, '/v1/ledger/accounts')).accounts as Array<Record<string, any>>
  accountId = accounts[0]!.id
  const counterparties = (await getOk(test, owner.token, '/v1/ledger/counterparties?limit=500')).counterparties as Array<Record<string, any>>
  supplierId = counterparties.find((row) => row.name === 'Paper Supply Co')!.id
  payeeCounterpartyId = counterparties.find((row) => row.name === 'A Member')!.id
  // The list answers one direction at a time (receivable by default).
  const invoices = (['payable', 'receivable'] as const).map(async (direction) => (await getOk(test, owner.token, `/v1/ledger/invoices?direction=${direction}`)).invoices as Array<Record<string, any>>)
  const byNumber = new Map((await Promise.all(invoices)).flat().map((row) => [row.invoice_number as string, row.id as string]))
  invoiceId = byNumber.get('PS-77')!
  paidInvoiceId = byNumber.get('PS-76')!
  receivableInvoiceId = byNumber.get('AR-1')!
  const obligations = (await getOk(test, owner.token, '/v1/ledger/obligations')).obligations as Array<Record<string, any>>
  receivableObligationId = obligations.find((row) => row.direction === 'receivable')!.id
  agentToken = await mintServiceToken(test, owner.tenantId, 'payments test')
})
afterAll(async () => test?.close())

let amountSeed = 1
/** A proposal body with a fresh amount, so proposals are not duplicates of each other unless meant to be. */
function proposal(overrides: Record<string, unknown> = {}) {
  amountSeed += 1
  return { action_type: 'ach_outbound', source_account_id: accountId, destination_counterparty_id: supplierId, amount: `${amountSeed}.00`, currency: 'EUR', ...overrides }
}

async function propose(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return test.request({ method: 'POST', url: '/v1/payment-intents', token: agentToken, payload: body, headers })
}

async function proposed(body: Record<string, unknown> = proposal()) {
  const response = await propose(body)
  expect(response.statusCode, response.body).toBe(201)
  return response.json() as Record<string, any>
}

const act = (token: string, id: string, move: string, payload?: Record<string, unknown>) =>
  test.request({ method: 'POST', url: `/v1/payment-intents/${id}/${move}`, token, ...(payload === undefined ? {} : { payload }) })

describe('POST /v1/payment-intents', () => {
  it('creates an intent with its policy decision attached; the default policy holds a payment for a signer', async () => {
    const intent = await proposed(proposal({ evidence_ids: [evidenceId], confidence: 0.9 }))
    expect(intent).toMatchObject({
      id: expect.stringMatching(/^pi_/),
      owner_id: owner.tenantId,
      created_by_agent_id: expect.stringMatching(/^svt_/),
      action_type: 'ach_outbound',
      currency: 'EUR',
      evidence_ids: [evidenceId],
      status: 'pending_approval',
      sdk_status: 'needs_approval',
      approvals_required: 1,
      held_by: 'policy',
      approval_ids: [],
      execution_receipt_ids: [],
      policy_decision: { outcome: 'confirm', required_approvers: ['signer'], policy_version: 1, action_hash: expect.stringMatching(/^sha256:/) },
    })
    expect(intent.policy_decision_id).toBe(intent.policy_decision.id)
    const read = await getOk(test, owner.token, `/v1/payment-intents/${intent.id}`)
    expect(read).toEqual(intent)
  })

  it.each<[string, Record<string, unknown>, number, string]>([
    ['USDC on a fiat action type', { currency: 'USDC' }, 400, 'validation_failed'],
    ['a fiat currency on x402_settle', { action_type: 'x402_settle' }, 400, 'validation_failed'],
    ['more fraction digits than the currency has', { amount: '12.345' }, 400, 'validation_failed'],
    ['a zero amount', { amount: '0.00' }, 400, 'validation_failed'],
    ['a negative amount', { amount: '-5.00' }, 400, 'validation_failed'],
    ['an unknown field', { memo: 'x' }, 400, 'request_body_invalid'],
    ['a source account not of the tenant', { source_account_id: 'acc_nope' }, 404, 'ledger_account_not_found'],
    ['a counterparty not of the tenant', { destination_counterparty_id: 'cpy_nope' }, 404, 'ledger_counterparty_not_found'],
    ['an invoice not of the tenant', { invoice_id: 'inv_nope' }, 404, 'ledger_invoice_not_found'],
    ['an obligation not of the tenant', { obligation_id: 'obl_nope' }, 404, 'obligation_not_found'],
    ['evidence that is not a parsed row of the tenant', { evidence_ids: ['rpr_nope'] }, 404, 'ledger_parsed_row_not_found'],
  ])('refuses %s', async (_name, overrides, status, code) => {
    const response = await propose(proposal(overrides))
    expect(response.statusCode, response.body).toBe(status)
    expectError(response, code as never)
  })

  it('refuses a payment in another currency than its source account holds, before anyone approves what the gate would refuse', async () => {
    const refused = expectError(await propose(proposal({ currency: 'USD' })), 'validation_failed')
    expect(refused.details).toMatchObject({ field: 'currency', expected: 'EUR', issues: [{ path: '/currency' }] })
    expect(refused.message).toBe('The source account holds EUR; a payment from it is in EUR, not USD.')
  })

  it('refuses an explicit invoice_id the payment cannot settle: paid (409), a receivable (422), another payee, currency or more than is outstanding (400)', async () => {
    expectError(await propose(proposal({ invoice_id: paidInvoiceId })), 'invoice_already_paid')
    expectError(await propose(proposal({ invoice_id: receivableInvoiceId })), 'obligation_direction_invalid')
    const refused = (overrides: Record<string, unknown>) => propose(proposal({ invoice_id: invoiceId, ...overrides }))
    expect(expectError(await refused({ destination_counterparty_id: payeeCounterpartyId }), 'validation_failed').details).toMatchObject({ field: 'destination_counterparty_id', expected: supplierId })
    expect(expectError(await refused({ currency: 'USD' }), 'validation_failed').details).toMatchObject({ field: 'currency', expected: 'EUR' })
    expect(expectError(await refused({ amount: '200.01' }), 'validation_failed').details).toMatchObject({ field: 'amount', expected: '200.00' })
    // Part of what is outstanding, to its payee, in its currency, is a payment of it.
    const part = await propose(proposal({ invoice_id: invoiceId, amount: '150.00' }))
    expect(part.statusCode, part.body).toBe(201)
    expect(part.json()).toMatchObject({ invoice_id: invoiceId, amount: '150.00', destination_counterparty_id: supplierId })
    // What is left after the intents already paying it: 50.00 (the 400 names them), then nothing (409).
    const over = expectError(await refused({ amount: '50.01' }), 'validation_failed')
    expect(over.details).toMatchObject({ field: 'amount', expected: '50.00', payment_intents: [{ payment_intent_id: part.json().id, amount: '150.00' }] })
    const rest = await propose(proposal({ invoice_id: invoiceId, amount: '50.00' }))
    expect(rest.statusCode, rest.body).toBe(201)
    expect(expectError(await refused({ amount: '1.00' }), 'invoice_not_payable').details).toMatchObject({ reason: 'being_paid', left: '0.00' })
    expect(expectError(await propose({ type: 'pay_invoice', invoice_id: invoiceId }), 'invoice_not_payable').details).toMatchObject({ reason: 'being_paid', invoice_id: invoiceId })
    // Cancelled, they pay nothing: the invoice's whole outstanding amount is payable again (the shortcut's test below).
    for (const intent of [part, rest]) expect((await act(owner.token, intent.json().id, 'cancel')).statusCode).toBe(200)
  })

  it('lets only one of two agents racing to pay one invoice in full propose it', async () => {
    const seeded = await seedArtifact(test, owner.tenantId, [
      { kind: 'invoice', direction: 'payable', invoice_number: 'PS-RACE', issue_date: '2026-03-05', due_date: '2026-04-05', currency: 'EUR', total: '120.00', amount_paid: '0.00', counterparty: { name: 'Paper Supply Co', iban: supplierIban } },
    ], { sourceType: 'bank_provider' })
    await normalize(test, owner.tenantId, seeded.artifactId)
    const raced = ((await getOk(test, owner.token, '/v1/ledger/invoices?direction=payable')).invoices as Array<Record<string, any>>).find((row) => row.invoice_number === 'PS-RACE')!.id as string
    const agents = [agentToken, await mintServiceToken(test, owner.tenantId, 'second payer'), await mintServiceToken(test, owner.tenantId, 'third payer')]
    const answers = await Promise.all(agents.map((token) => test.request({ method: 'POST', url: '/v1/payment-intents', token, payload: { type: 'pay_invoice', invoice_id: raced } })))
    expect(answers.map((answer) => answer.statusCode).sort(), answers.map((answer) => answer.body).join('\n')).toEqual([201, 409, 409])
    for (const answer of answers.filter((one) => one.statusCode === 409)) expect(answer.json().error).toMatchObject({ code: 'invoice_not_payable', details: { reason: 'being_paid' } })
  })

  it('refuses an obligation that is not payable (422 obligation_direction_invalid)', async () => {
    expectError(await propose(proposal({ obligation_id: receivableObligationId })), 'obligation_direction_invalid')
  })

  it('never lets an owner propose: owner JWTs carry no payment_intent:propose', async () => {
    const response = await test.request({ method: 'POST', url: '/v1/payment-intents', token: owner.token, payload: proposal() })
    expectError(response, 'auth_scope_insufficient')
  })

  it('refuses the same action from the same agent as a duplicate, and replays an Idempotency-Key', async () => {
    const body = proposal()
    const first = await propose(body, { 'idempotency-key': `dup-${amountSeed}` })
    expect(first.statusCode, first.body).toBe(201)
    const replay = await propose(body, { 'idempotency-key': `dup-${amountSeed}` })
    expect(replay.statusCode).toBe(201)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json().id).toBe(first.json().id)
    const duplicate = await propose(body)
    expect(expectError(duplicate, 'agent_proposal_duplicate').details).toMatchObject({ payment_intent_id: first.json().id })
    // Cancelled, the same action may be proposed again.
    expect((await act(owner.token, first.json().id, 'cancel')).statusCode).toBe(200)
    expect((await propose(body)).statusCode).toBe(201)
  })

  it('resolves the pay_invoice shortcut from the Ledger invoice: what is outstanding, its counterparty and evidence', async () => {
    const intent = await proposed({ type: 'pay_invoice', invoice_id: invoiceId })
    expect(intent).toMatchObject({ action_type: 'ach_outbound', amount: '200.00', currency: 'EUR', destination_counterparty_id: supplierId, source_account_id: accountId, invoice_id: invoiceId })
    expect(intent.evidence_ids.length).toBeGreaterThan(0)
    expectError(await propose({ type: 'pay_invoice', invoice_id: 'inv_nope' }), 'ledger_invoice_not_found')
  })
})

describe('approvals, in the spec order', () => {
  it('refuses an approver out of domain, over the limit, or the payee; accepts one who may', async () => {
    const outOfDomain = await addMember(test, owner, 'approver', { approval_domains: ['wire'] })
    const lowLimit = await addMember(test, owner, 'approver', { approval_domains: ['ach_outbound'], approval_limit: { currency: 'EUR', value: '1.00' } })
    const viewer = await addMember(test, owner, 'viewer')
    const intent = await proposed()
    expect(expectError(await act(outOfDomain.token, intent.id, 'approve'), 'payment_intent_approval_invalid').details).toEqual({ reason: 'domain_not_authorized' })
    expect(expectError(await act(lowLimit.token, intent.id, 'approve'), 'payment_intent_approval_invalid').details).toEqual({ reason: 'actor_limit_exceeded' })
    expectError(await act(viewer.token, intent.id, 'approve'), 'auth_scope_insufficient')
    expectError(await act(agentToken, intent.id, 'approve'), 'auth_scope_insufficient')

    const toPayee = await proposed(proposal({ destination_counterparty_id: payeeCounterpartyId }))
    expect(expectError(await act(payeeMember.token, toPayee.id, 'approve'), 'payment_intent_approval_invalid').details).toEqual({ reason: 'self_approval_blocked' })

    const approved = await act(owner.token, intent.id, 'approve')
    expect(approved.statusCode, approved.body).toBe(200)
    expect(approved.json()).toMatchObject({ status: 'approved', sdk_status: 'auto', approval_ids: [expect.stringMatching(/^apv_/)], approvals: [{ decision: 'approve', member_id: expect.stringMatching(/^mem_/) }] })
    expectError(await act(owner.token, intent.id, 'approve'), 'payment_intent_invalid_state')
  })

  it('audits every refused decision (payment_intent.approval_refused, the move and the reason), and nothing else of it', async () => {
    const outOfDomain = await addMember(test, owner, 'approver', { approval_domains: ['wire'] })
    const intent = await proposed()
    expectError(await act(outOfDomain.token, intent.id, 'approve'), 'payment_intent_approval_invalid')
    expectError(await act(outOfDomain.token, intent.id, 'reject', { reason: 'no' }), 'payment_intent_approval_invalid')
    expectError(await act(outOfDomain.token, intent.id, 'cancel'), 'payment_intent_approval_invalid')
    const refused = await auditEvents(test, owner.tenantId, { action: 'payment_intent.approval_refused', entityId: intent.id })
    expect(refused.map((event) => ({ actor: event.actor_id, inputs: event.inputs, outputs: event.outputs }))).toEqual(
      ['approve', 'reject', 'cancel'].map((move) => ({ actor: outOfDomain.userId, inputs: { move }, outputs: { reason: 'domain_not_authorized' } })),
    )
    // The refused commands recorded nothing else, and the intent did not move.
    expect((await auditEvents(test, owner.tenantId, { entityId: intent.id })).map((event) => event.action)).toEqual(['payment_intent.proposed', ...refused.map(() => 'payment_intent.approval_refused')])
    expect((await getOk(test, owner.token, `/v1/payment-intents/${intent.id}`)).status).toBe('pending_approval')
    // A resume is a member's decision too (the gate's, POST …/resume).
    const paused = await proposed()
    expect((await act(owner.token, paused.id, 'approve')).statusCode).toBe(200)
    expect((await act(owner.token, paused.id, 'pause')).statusCode).toBe(200)
    expect(expectError(await act(outOfDomain.token, paused.id, 'resume'), 'payment_intent_approval_invalid').details).toEqual({ reason: 'domain_not_authorized' })
    expect((await auditEvents(test, owner.tenantId, { action: 'payment_intent.approval_refused', entityId: paused.id })).map((event) => ({ actor: event.actor_id, inputs: event.inputs, outputs: event.outputs }))).toEqual([
      { actor: outOfDomain.userId, inputs: { move: 'resume' }, outputs: { reason: 'domain_not_authorized' } },
    ])

    // A move refused for its state (409), an intent of no one's or another tenant's (404): no refusal is
    // recorded, though the member checks would refuse these callers, in neither tenant.
    const other = await signupOwner(test)
    const otherOutOfDomain = await addMember(test, other, 'approver', { approval_domains: ['wire'] })
    const missing = 'pi_01M8HNG2F51K64Q61SPTPW5WNM'
    const refusalsSoFar = (await auditEvents(test, owner.tenantId, { action: 'payment_intent.approval_refused' })).length
    expectError(await act(outOfDomain.token, intent.id, 'pause'), 'payment_intent_invalid_state')
    expectError(await act(outOfDomain.token, missing, 'approve'), 'payment_intent_not_found')
    expectError(await act(otherOutOfDomain.token, intent.id, 'approve'), 'payment_intent_not_found')
    expectError(await act(otherOutOfDomain.token, intent.id, 'reject', { reason: 'no' }), 'payment_intent_not_found')
    expect(await auditEvents(test, owner.tenantId, { action: 'payment_intent.approval_refused' })).toHaveLength(refusalsSoFar)
    expect(await auditEvents(test, owner.tenantId, { entityId: missing })).toHaveLength(0)
    expect(await auditEvents(test, other.tenantId, { action: 'payment_intent.approval_refused' })).toHaveLength(0)
  })

  it('answers a refusal whose audit record cannot be written with the refusal itself, not a 500', async () => {
    const outOfDomain = await addMember(test, owner, 'approver', { approval_domains: ['wire'] })
    const intent = await proposed()
    const transaction = test.runtime.db.transaction.bind(test.runtime.db)
    const spy = vi.spyOn(test.runtime.db, 'transaction').mockImplementation(((work: never) =>
      new Error().stack?.includes('writeRefusal') === true ? Promise.reject(new Error('connection lost')) : transaction(work)) as never)
    try {
      expect(expectError(await act(outOfDomain.token, intent.id, 'approve'), 'payment_intent_approval_invalid').details).toEqual({ reason: 'domain_not_authorized' })
    } finally {
      spy.mockRestore()
    }
    expect(await auditEvents(test, owner.tenantId, { action: 'payment_intent.approval_refused', entityId: intent.id })).toHaveLength(0)
  })

  it('counts concurrent approvals once: one approves, the other finds it approved', async () => {
    const second = await addMember(test, owner, 'approver', { approval_domains: ['payment'] })
    const intent = await proposed()
    const answers = await Promise.all([act(owner.token, intent.id, 'approve'), act(second.token, intent.id, 'approve')])
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409])
    const read = await getOk(test, owner.token, `/v1/payment-intents/${intent.id}`)
    expect(read).toMatchObject({ status: 'approved' })
    expect(read.approval_ids).toHaveLength(1)
  })

  it('rejects with a reason (at most 500 characters)', async () => {
    const intent = await proposed()
    expectError(await act(owner.token, intent.id, 'reject', { reason: 'x'.repeat(501) }), 'request_body_invalid')
    const rejected = await act(owner.token, intent.id, 'reject', { reason: 'not this month' })
    expect(rejected.statusCode, rejected.body).toBe(200)
    expect(rejected.json()).toMatchObject({ status: 'rejected', sdk_status: 'rejected', rejection_reason: 'not this month', approvals: [{ decision: 'reject', reason: 'not this month' }] })
    expectError(await act(owner.token, intent.id, 'approve'), 'payment_intent_invalid_state')
  })
})

describe('pause and cancel', () => {
  it('pauses an approved intent and cancels a paused one; an approved one cannot be cancelled', async () => {
    const intent = await proposed()
    expectError(await act(owner.token, intent.id, 'pause'), 'payment_intent_invalid_state')
    expect((await act(owner.token, intent.id, 'approve')).statusCode).toBe(200)
    expectError(await act(owner.token, intent.id, 'cancel'), 'payment_intent_invalid_state')
    expect((await act(owner.token, intent.id, 'pause')).json()).toMatchObject({ status: 'paused' })
    expect((await act(owner.token, intent.id, 'cancel')).json()).toMatchObject({ status: 'cancelled', sdk_status: 'cancelled' })
  })

  it('pauses every approved intent of an agent at once (the halt)', async () => {
    const first = await proposed()
    const second = await proposed()
    for (const intent of [first, second]) expect((await act(owner.token, intent.id, 'approve')).statusCode).toBe(200)
    const paused = await test.runtime.db.transaction((tx) => test.runtime.payments.decide.pauseIntentsOfAgent(tx, owner.tenantId, first.created_by_agent_id, { type: 'system', id: 'test-halt' }))
    expect(paused).toEqual(expect.arrayContaining([first.id, second.id]))
    expect((await getOk(test, owner.token, `/v1/payment-intents/${second.id}`)).status).toBe('paused')
  })
})

describe('reads', () => {
  it('lists with filters and cursors, expands the agent, and hides another tenant\'s intents', async () => {
    const intent = await proposed()
    const page = await getOk(test, owner.token, '/v1/payment-intents?status=pending_approval&limit=2')
    expect(page.payment_intents).toHaveLength(2)
    expect(page.payment_intents.every((row: any) => row.status === 'pending_approval')).toBe(true)
    const next = await getOk(test, owner.token, `/v1/payment-intents?status=pending_approval&limit=2&cursor=${encodeURIComponent(page.next_cursor)}`)
    expect(next.payment_intents.map((row: any) => row.id)).not.toContain(page.payment_intents[0].id)
    expectError(await test.request({ method: 'GET', url: `/v1/payment-intents?status=approved&cursor=${encodeURIComponent(page.next_cursor)}`, token: owner.token }), 'invalid_cursor')
    const expanded = await getOk(test, owner.token, `/v1/payment-intents/${intent.id}?expand=agent`)
    expect(expanded.agent).toEqual({ id: intent.created_by_agent_id, kind: 'internal', display_name: 'Steward internal agent (service token)' })
    const replay = await getOk(test, owner.token, `/v1/payment-intents/${intent.id}/replay-investigation`)
    expect(replay).toMatchObject({ payment_intent: { id: intent.id }, executions: [], policy_decision_id: intent.policy_decision_id })
    const other = await signupOwner(test)
    expectError(await test.request({ method: 'GET', url: `/v1/payment-intents/${intent.id}`, token: other.token }), 'payment_intent_not_found')
    expect((await getOk(test, other.token, '/v1/payment-intents')).payment_intents).toEqual([])
  })
})

describe('a signed policy: allowed under the cap, the floor, rejected, and two distinct approvals', () => {
  let tenant: TenantOwner
  let token: string
  let account: string
  let counterparty: string
  let signer: Awaited<ReturnType<typeof addSigner>>
  let second: JoinedMember

  beforeAll(async () => {
    tenant = await signupOwner(test)
    second = await addMember(test, tenant, 'approver', { approval_domains: ['payment'] })
    const seeded = await seedArtifact(test, tenant.tenantId, [
      bankTransaction({ amount: '-10.00', transaction_date: '2026-03-02', description: 'PAPER SUPPLY', counterparty: { name: 'Paper Supply Co', iban: supplierIban } }),
    ])
    await normalize(test, tenant.tenantId, seeded.artifactId)
    account = ((await getOk(test, tenant.token, '/v1/ledger/accounts')).accounts as Array<Record<string, any>>)[0]!.id
    counterparty = ((await getOk(test, tenant.token, '/v1/ledger/counterparties')).counterparties as Array<Record<string, any>>)[0]!.id
    signer = await addSigner(test, tenant)
    const composed = await compose(test, tenant, {
      version: 2,
      rules: [
        { id: 'small', applies_to: ['outbound_payment'], when: { 'amount.lte': { currency: 'EUR', value: '50' } }, execute: 'auto', autonomous_cap: { currency: 'EUR', value: '50' } },
        { id: 'large', applies_to: ['outbound_payment'], when: { 'amount.gt': { currency: 'EUR', value: '1000' } }, execute: 'reject' },
        { id: 'dual', applies_to: ['outbound_payment'], when: { 'amount.gt': { currency: 'EUR', value: '500' } }, execute: 'confirm', approvals: 2 },
        { id: 'other', applies_to: ['outbound_payment', 'onchain_tx'], when: {}, execute: 'confirm' },
        { id: 'non-money', applies_to: ['inbound_payment', 'ledger_write', 'agent_action'], when: {}, execute: 'auto' },
      ],
    })
    const signed = await sign(test, tenant, signer.member.token, composed.policy_id, [await signatureOf(signer, composed)])
    expect(signed.statusCode, signed.body).toBe(200)
    token = await mintServiceToken(test, tenant.tenantId)
  })

  const proposeIn = async (overrides: Record<string, unknown>) => {
    const response = await test.request({
      method: 'POST',
      url: '/v1/payment-intents',
      token,
      payload: { action_type: 'ach_outbound', source_account_id: account, destination_counterparty_id: counterparty, currency: 'EUR', ...overrides },
    })
    expect(response.statusCode, response.body).toBe(201)
    return response.json() as Record<string, any>
  }

  it('approves at creation what the cap covers, and holds a wire for a person (the fiat floor)', async () => {
    expect(await proposeIn({ amount: '30.00' })).toMatchObject({ status: 'approved', sdk_status: 'auto', approvals_required: 0, held_by: null, policy_decision: { outcome: 'allow', matched_rule_id: 'small', covered_by_autonomous_cap: true } })
    expect(await proposeIn({ amount: '31.00', action_type: 'wire' })).toMatchObject({ status: 'pending_approval', approvals_required: 1, held_by: 'floor', policy_decision: { outcome: 'allow' } })
    expect(await proposeIn({ amount: '2000.00' })).toMatchObject({ status: 'rejected', approvals_required: 0, policy_decision: { outcome: 'reject', matched_rule_id: 'large' } })
  })

  it('needs two distinct members where the rule asks for two approvals', async () => {
    const intent = await proposeIn({ amount: '700.00' })
    expect(intent).toMatchObject({ status: 'pending_approval', approvals_required: 2, policy_decision: { outcome: 'confirm', required_approvers: ['signer', 'signer'] } })
    const first = await act(tenant.token, intent.id, 'approve')
    expect(first.json()).toMatchObject({ status: 'awaiting_second_approval', sdk_status: 'needs_approval' })
    const events = ((await getOk(test, tenant.token, '/v1/events?limit=500')).events as Array<{ type: string; data: Record<string, unknown> }>).filter((event) => event.data.payment_intent_id === intent.id)
    expect(events.map((event) => event.type).sort()).toEqual(['payment_intent.awaiting_second_approval', 'payment_intent.created', 'policy.evaluate', 'proposal.awaiting_second_approval'])
    expect(expectError(await act(tenant.token, intent.id, 'approve'), 'payment_intent_approval_invalid').details).toEqual({ reason: 'second_approval_required' })
    const approved = await act(second.token, intent.id, 'approve')
    expect(approved.statusCode, approved.body).toBe(200)
    expect(approved.json()).toMatchObject({ status: 'approved', sdk_status: 'auto' })
    expect(approved.json().approval_ids).toHaveLength(2)
  })

  it('rejects from awaiting_second_approval', async () => {
    const intent = await proposeIn({ amount: '701.00' })
    expect((await act(tenant.token, intent.id, 'approve')).json().status).toBe('awaiting_second_approval')
    expect((await act(second.token, intent.id, 'reject')).json()).toMatchObject({ status: 'rejected', rejection_reason: 'rejected by an approver' })
  })
})

describe('the spend window the policy sees', () => {
  it("populates spend_in_window and tx_count_in_window with the agent's open proposals in the currency, this one included", async () => {
    const b = await business(test)
    const ids: string[] = []
    for (const amount of ['10.00', '11.00', '12.00']) {
      const response = await test.request({ method: 'POST', url: '/v1/payment-intents', token: b.agent, payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount, currency: 'EUR' } })
      expect(response.statusCode, response.body).toBe(201)
      ids.push(response.json().id)
    }
    const actions = await queryRows<{ action: Record<string, any> }>(test.runtime.db.orm, sql`select action from payment_policy_decisions where tenant_id = ${b.owner.tenantId} order by created_at, id`)
    expect(actions.map((row) => [row.action.spend_in_window.value, row.action.tx_count_in_window])).toEqual([
      ['10.00', 1],
      ['21.00', 2],
      ['33.00', 3],
    ])
  })
})

describe('cancel by the proposing agent (the command the agent protocol will call)', () => {
  it('lets the agent cancel its own intent, and not another agent\'s', async () => {
    const b = await business(test)
    const response = await test.request({ method: 'POST', url: '/v1/payment-intents', token: b.agent, payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '80.00', currency: 'EUR' } })
    const id = response.json().id as string
    const other = await test.runtime.services.auth.authenticate(await mintServiceToken(test, b.owner.tenantId))
    await expect(test.runtime.payments.decide.cancel({ requestId: 'req_test', principal: other }, { id })).rejects.toMatchObject({ code: 'payment_intent_approval_invalid', details: { reason: 'actor_unresolved' } })
    const own = await test.runtime.services.auth.authenticate(b.agent)
    const { outcome } = await test.runtime.payments.decide.cancel({ requestId: 'req_test', principal: own }, { id })
    expect(outcome.status).toBe('cancelled')
  })
})
