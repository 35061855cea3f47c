/**
 * Wiki entities (issue 19, item 4): a Ledger record seen through the Wiki — read now and as of an instant
 * before a correction and before an annotation, its evidence chain down to Raw's artifacts, its history
 * with Ledger versions and annotations interleaved; annotations (entity and relation) applied as
 * human_confirmed Wiki versions, audited with hashes only, replayed by Idempotency-Key, and never changing
 * a Ledger row; the entity kinds' JSON Schemas. Both engines.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, expectError, mintServiceToken, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { describeKeyedRoutes, type KeyedCase } from '../../support/idempotency-cases.ts'
import { bankTransaction, getOk, normalize, normalizerActor, seedArtifact } from '../../support/ledger.ts'

let test: TestApp
let owner: TenantOwner
let other: TenantOwner
let transactionId: string
let firstArtifact: string
let secondArtifact: string
let versionOneAt: string
let versionTwoAt: string
let matchId: string

const coffee = bankTransaction({ amount: '-3.80', transaction_date: '2026-03-10', description: 'CAFE LUMEN' })
const pause = () => new Promise((resolve) => setTimeout(resolve, 15))

beforeAll(async () => {
  test = await createTestApp()
  owner = await signupOwner(test)
  other = await signupOwner(test)
  const first = await seedArtifact(test, owner.tenantId, [coffee, bankTransaction({ amount: '-50.00', transaction_date: '2026-03-01', description: 'RENT GARAGE' })])
  firstArtifact = first.artifactId
  await normalize(test, owner.tenantId, first.artifactId)
  const transactions = (await getOk(test, owner.token, '/v1/ledger/transactions')).transactions as Array<Record<string, any>>
  const row = transactions.find((transaction) => transaction.description === 'CAFE LUMEN')!
  transactionId = row.id
  versionOneAt = row.updated_at
  await pause()
  // The same transaction from a second file: version 2 (its sources and evidence grow).
  const second = await seedArtifact(test, owner.tenantId, [coffee])
  secondArtifact = second.artifactId
  await normalize(test, owner.tenantId, second.artifactId)
  versionTwoAt = (await getOk(test, owner.token, `/v1/ledger/transactions/${transactionId}`)).updated_at
  // A reconciliation match: an invoice and its payment.
  const invoice = await seedArtifact(
    test,
    owner.tenantId,
    [{ kind: 'invoice', direction: 'receivable', invoice_number: 'INV-1001', issue_date: '2026-03-01', due_date: '2026-03-31', currency: 'EUR', total: '1200', counterparty: { name: 'Northwind Traders' } }],
    { sourceType: 'pdf_upload' },
  )
  await normalize(test, owner.tenantId, invoice.artifactId)
  const payment = await seedArtifact(test, owner.tenantId, [bankTransaction({ amount: '1200.00', transaction_date: '2026-03-25', description: 'SEPA CREDIT NORTHWIND TRADERS', counterparty: { name: 'Northwind Traders Ltd' } })])
  await normalize(test, owner.tenantId, payment.artifactId)
  await test.runtime.ledger.reconcile(owner.tenantId, { actor: normalizerActor })
  matchId = ((await getOk(test, owner.token, '/v1/ledger/reconciliation-matches?match_type=invoice_payment')).matches as Array<{ id: string }>)[0]!.id
})
afterAll(async () => test?.close())

const get = (url: string, token = owner.token) => test.request({ method: 'GET', url, token })
const annotate = (payload: Record<string, unknown>, token = owner.token, headers: Record<string, string> = {}) =>
  test.request({ method: 'POST', url: '/v1/wiki/annotate', token, payload, headers })
const ledgerRows = (id: string) => queryRows<Record<string, unknown>>(test.runtime.db.orm, sql`select * from ledger_transactions where tenant_id = ${owner.tenantId} and id = ${id} order by version`)

describe('GET /v1/wiki/entity/{entity_id}', () => {
  it('shows the current Ledger record with its version, provenance and Raw refs', async () => {
    const ledger = (await getOk(test, owner.token, `/v1/ledger/transactions/${transactionId}`)) as Record<string, any>
    const entity = (await getOk(test, owner.token, `/v1/wiki/entity/${transactionId}`)) as Record<string, any>
    expect(entity).toMatchObject({
      entity_id: transactionId,
      kind: 'transaction',
      as_of: null,
      wiki_version: 2,
      provenance: ledger.provenance,
      confidence: ledger.confidence,
      recorded_at: ledger.updated_at,
      ledger_version: { version_id: ledger.version_id, version: 2, recorded_at: ledger.updated_at, superseded_at: null },
      wiki: { note: null, labels: [], corrections: {}, relation_status: null, annotation_count: 0, last_annotated_at: null },
      source_evidence: { raw_artifact_ids: [firstArtifact, secondArtifact], parsed_row_ids: ledger.evidence_ids },
    })
    expect(entity.record).toEqual(ledger)
  })

  it('reads as of an instant before the correction, and 404s before the record existed', async () => {
    const before = (await getOk(test, owner.token, `/v1/wiki/entity/${transactionId}?as_of=${versionOneAt}`)) as Record<string, any>
    expect(before).toMatchObject({ as_of: versionOneAt, wiki_version: 1, ledger_version: { version: 1, superseded_at: versionTwoAt } })
    expect(before.record.source_ids).toEqual([firstArtifact])
    expectError(await get(`/v1/wiki/entity/${transactionId}?as_of=2020-01-01T00:00:00Z`), 'wiki_entity_not_found')
  })

  it('is 404 wiki_entity_not_found for any id that names nothing of the tenant, and 400 for a bad as_of', async () => {
    for (const id of ['txn_01JAAAAAAAAAAAAAAAAAAAAAAA', 'nothing', 'pol_x', 'usr_1', encodeURIComponent('txn_ 1')]) {
      expectError(await get(`/v1/wiki/entity/${id}`), 'wiki_entity_not_found')
    }
    expectError(await get(`/v1/wiki/entity/${transactionId}`, other.token), 'wiki_entity_not_found')
    expectError(await get(`/v1/wiki/entity/${transactionId}/evidence`, other.token), 'wiki_entity_not_found')
    expectError(await get(`/v1/wiki/entity/${transactionId}/history`, other.token), 'wiki_entity_not_found')
    expectError(await get(`/v1/wiki/entity/${transactionId}?as_of=yesterday`), 'request_params_invalid')
  })
})

describe('GET /v1/wiki/entity/{entity_id}/evidence', () => {
  it('follows the record to its parsed rows and their artifacts, now and as of the first version', async () => {
    const ledger = (await getOk(test, owner.token, `/v1/ledger/transactions/${transactionId}`)) as Record<string, any>
    const evidence = (await getOk(test, owner.token, `/v1/wiki/entity/${transactionId}/evidence`)) as Record<string, any>
    expect(evidence).toMatchObject({ entity_id: transactionId, kind: 'transaction', truncated: false, unresolved_ids: [] })
    expect(evidence.parsed_rows.map((row: { id: string }) => row.id)).toEqual(ledger.evidence_ids)
    const artifacts = new Set(evidence.parsed_rows.map((row: { raw_artifact: { id: string } }) => row.raw_artifact.id))
    expect(artifacts).toEqual(new Set([firstArtifact, secondArtifact]))
    for (const row of evidence.parsed_rows) {
      expect(row).toMatchObject({ parser: expect.any(String), confidence: expect.any(Number), raw_artifact: { source_type: 'csv_upload', sha256: expect.any(String), status: 'stored' } })
    }
    expect(evidence.evidence_path[0]).toBe(`transaction:${transactionId}`)
    expect(evidence.evidence_path).toContain(`raw_artifact:${secondArtifact}`)
    const before = (await getOk(test, owner.token, `/v1/wiki/entity/${transactionId}/evidence?as_of=${versionOneAt}`)) as Record<string, any>
    expect(before.parsed_rows.map((row: { raw_artifact: { id: string } }) => row.raw_artifact.id)).toEqual([firstArtifact])
  })
})

describe('POST /v1/wiki/annotate', () => {
  it('records an entity annotation as a human_confirmed Wiki version, audited with hashes only, and leaves the Ledger row as it was', async () => {
    const ledgerBefore = await ledgerRows(transactionId)
    const routeBefore = (await get(`/v1/ledger/transactions/${transactionId}`)).body
    const note = 'Team coffee for the March planning day — a private remark'
    const response = await annotate({ entity_id: transactionId, note, labels: ['team', 'offsite'], corrections: { category_id: 'meals_entertainment' } })
    expect(response.statusCode, response.body).toBe(201)
    const body = response.json()
    expect(body.annotation).toMatchObject({
      annotation_id: expect.stringMatching(/^wan_/),
      target: 'entity',
      subject_id: transactionId,
      kind: 'transaction',
      version: 1,
      note,
      labels: ['team', 'offsite'],
      corrections: { category_id: 'meals_entertainment' },
      relation_status: null,
      provenance: 'human_confirmed',
      actor: { type: 'user', id: owner.userId },
    })
    expect(body.entity).toMatchObject({
      wiki_version: 3,
      provenance: 'human_confirmed',
      wiki: { note, labels: ['team', 'offsite'], corrections: { category_id: { value: 'meals_entertainment', annotation_id: body.annotation.annotation_id } }, annotation_count: 1 },
    })
    // The Ledger is untouched: the same rows, byte for byte, and the same route body.
    expect(await ledgerRows(transactionId)).toEqual(ledgerBefore)
    expect((await get(`/v1/ledger/transactions/${transactionId}`)).body).toBe(routeBefore)
    expect((await getOk(test, owner.token, `/v1/wiki/entity/${transactionId}`)).record.category_id).toBe(ledgerBefore.at(-1)!['category_id'])

    const [event] = await auditEvents(test, owner.tenantId, { action: 'wiki.entity.annotated' })
    expect(event).toMatchObject({ layer: 'wiki', actor_type: 'user', actor_id: owner.userId, entity_type: 'transaction', entity_id: transactionId })
    expect(event!.outputs).toMatchObject({ annotation_id: body.annotation.annotation_id, version: 1, provenance: 'human_confirmed' })
    expect(event!.inputs).toMatchObject({ target: 'entity', note_digest: expect.stringMatching(/^sha256:/), corrected_fields: ['category_id'] })
    expect(JSON.stringify(event)).not.toContain('coffee')
    expect(JSON.stringify(event)).not.toContain('meals_entertainment')
  })

  it('replays by Idempotency-Key, 409s the key reused with another body', async () => {
    const headers = { 'idempotency-key': `wiki-annotate-${Date.now()}` }
    const first = await annotate({ entity_id: transactionId, labels: ['reviewed'] }, owner.token, headers)
    expect(first.statusCode, first.body).toBe(201)
    const again = await annotate({ entity_id: transactionId, labels: ['reviewed'] }, owner.token, headers)
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(first.json())
    expectError(await annotate({ entity_id: transactionId, labels: ['other'] }, owner.token, headers), 'idempotency_key_reused')
    expect((await auditEvents(test, owner.tenantId, { action: 'wiki.entity.annotated' })).filter((event) => event.outputs['annotation_id'] === first.json().annotation.annotation_id)).toHaveLength(1)
  })

  it('refuses a bad body, an unknown subject, a version field, and callers that are not a person with raw:write', async () => {
    expectError(await annotate({ entity_id: transactionId }), 'request_body_invalid')
    expectError(await annotate({ entity_id: transactionId, note: '' }), 'request_body_invalid')
    expectError(await annotate({ entity_id: transactionId, relation_id: matchId, status: 'confirmed' }), 'request_body_invalid')
    expectError(await annotate({ relation_id: matchId, status: 'maybe' }), 'request_body_invalid')
    expectError(await annotate({ entity_id: transactionId, labels: ['Not A Label'] }), 'request_body_invalid')
    expectError(await annotate({ entity_id: 'txn_nothing', note: 'x' }), 'wiki_entity_not_found')
    expectError(await annotate({ entity_id: transactionId, note: 'x' }, other.token), 'wiki_entity_not_found')
    expectError(await annotate({ relation_id: transactionId, status: 'confirmed' }), 'wiki_entity_not_found')
    const refused = expectError(await annotate({ entity_id: transactionId, corrections: { provenance: 'human_confirmed', nope: 1 } }), 'validation_failed')
    expect(refused.details).toEqual({ fields: ['provenance', 'nope'] })
    const viewer = await addMember(test, owner, 'viewer')
    expectError(await annotate({ entity_id: transactionId, note: 'x' }, viewer.token), 'auth_scope_insufficient')
    expectError(await annotate({ entity_id: transactionId, note: 'x' }, await mintServiceToken(test, owner.tenantId)), 'auth_scope_insufficient')
  })

  it('numbers concurrent annotations of one subject 1, 2, 3 … without a gap or a clash', async () => {
    const tenant = await signupOwner(test)
    const seeded = await seedArtifact(test, tenant.tenantId, [coffee])
    await normalize(test, tenant.tenantId, seeded.artifactId)
    const id = ((await getOk(test, tenant.token, '/v1/ledger/transactions')).transactions as Array<{ id: string }>)[0]!.id
    const responses = await Promise.all(Array.from({ length: 6 }, (_, index) => annotate({ entity_id: id, note: `note ${index}` }, tenant.token)))
    for (const response of responses) expect(response.statusCode, response.body).toBe(201)
    expect(responses.map((response) => response.json().annotation.version).sort()).toEqual([1, 2, 3, 4, 5, 6])
    const history = (await getOk(test, tenant.token, `/v1/wiki/entity/${id}/history`)).versions as Array<{ type: string; annotation: { version: number } | null }>
    expect(history.filter((entry) => entry.type === 'annotation').map((entry) => entry.annotation!.version)).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('confirms or disputes a relation (a reconciliation match), as the match\'s Wiki version', async () => {
    const ledgerBefore = (await get(`/v1/ledger/reconciliation-matches?match_type=invoice_payment`)).body
    const disputed = await annotate({ relation_id: matchId, status: 'disputed', note: 'Paid by the parent company, not Northwind' })
    expect(disputed.statusCode, disputed.body).toBe(201)
    expect(disputed.json().annotation).toMatchObject({ target: 'relation', subject_id: matchId, kind: 'reconciliation_match', relation_status: 'disputed', version: 1 })
    const confirmed = await annotate({ relation_id: matchId, status: 'confirmed' })
    expect(confirmed.json().entity.wiki).toMatchObject({ relation_status: 'confirmed', note: 'Paid by the parent company, not Northwind', annotation_count: 2 })
    expect((await get(`/v1/ledger/reconciliation-matches?match_type=invoice_payment`)).body).toBe(ledgerBefore)
    expect(await auditEvents(test, owner.tenantId, { action: 'wiki.relation.annotated' })).toHaveLength(2)
  })
})

describe('wiki: keyed routes', () => {
  describeKeyedRoutes(() => test, [
    [
      'POST /v1/wiki/annotate',
      async (): Promise<KeyedCase> => {
        const tenant = await signupOwner(test)
        const seeded = await seedArtifact(test, tenant.tenantId, [coffee])
        await normalize(test, tenant.tenantId, seeded.artifactId)
        const id = ((await getOk(test, tenant.token, '/v1/ledger/transactions')).transactions as Array<{ id: string }>)[0]!.id
        const request = (note: string) => ({ method: 'POST' as const, url: '/v1/wiki/annotate', token: tenant.token, payload: { entity_id: id, note } })
        return {
          request: request('keyed note'),
          other: request('another note'),
          status: 201,
          runs: async () => (await auditEvents(test, tenant.tenantId, { action: 'wiki.entity.annotated' })).length,
        }
      },
    ],
  ])
})

describe('GET /v1/wiki/entity/{entity_id}/history', () => {
  it('interleaves Ledger versions and annotations oldest first, a page at a time, and as_of sees only what was recorded then', async () => {
    const history = (await getOk(test, owner.token, `/v1/wiki/entity/${transactionId}/history`)) as Record<string, any>
    expect(history).toMatchObject({ entity_id: transactionId, kind: 'transaction', next_cursor: null })
    const versions = history.versions as Array<Record<string, any>>
    expect(versions.map((entry) => entry.type)).toEqual(['ledger_version', 'ledger_version', 'annotation', 'annotation'])
    expect(versions.map((entry) => entry.wiki_version)).toEqual([1, 2, 3, 4])
    expect(versions[0]).toMatchObject({ recorded_at: versionOneAt, ledger_version: { version: 1, superseded_at: versionTwoAt, source_ids: [firstArtifact] }, annotation: null })
    expect(versions[1]).toMatchObject({ recorded_at: versionTwoAt, ledger_version: { version: 2, superseded_at: null } })
    expect(versions[2]).toMatchObject({ provenance: 'human_confirmed', ledger_version: null, annotation: { version: 1, labels: ['team', 'offsite'], basis_version_id: versions[1]!.ledger_version.version_id } })
    const times = versions.map((entry) => entry.recorded_at)
    expect([...times].sort()).toEqual(times)

    const paged: Array<Record<string, any>> = []
    let cursor: string | null = null
    do {
      const page: Record<string, any> = await getOk(test, owner.token, `/v1/wiki/entity/${transactionId}/history?limit=1${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`)
      paged.push(...page.versions)
      cursor = page.next_cursor
    } while (cursor !== null)
    expect(paged).toEqual(versions)
    expectError(await get(`/v1/wiki/entity/${transactionId}/history?cursor=forged`), 'invalid_cursor')
    expectError(await get(`/v1/wiki/entity/${transactionId}/history?limit=501`), 'request_params_invalid')

    // As of the instant between the second Ledger version and the first annotation: no annotation yet.
    const beforeAnnotation = (await getOk(test, owner.token, `/v1/wiki/entity/${transactionId}?as_of=${versionTwoAt}`)) as Record<string, any>
    expect(beforeAnnotation).toMatchObject({ wiki_version: 2, wiki: { annotation_count: 0, labels: [] } })
    const afterFirst = (await getOk(test, owner.token, `/v1/wiki/entity/${transactionId}?as_of=${versions[2]!.recorded_at}`)) as Record<string, any>
    expect(afterFirst).toMatchObject({ wiki_version: 3, provenance: 'human_confirmed', wiki: { annotation_count: 1, labels: ['team', 'offsite'] } })
  })
})

describe('GET /v1/wiki/schema', () => {
  it('maps every kind to a JSON Schema generated from the route\'s own, one kind on request, and refuses an unknown kind', async () => {
    const all = (await getOk(test, owner.token, '/v1/wiki/schema')) as Record<string, any>
    expect(Object.keys(all).sort()).toEqual(['account', 'balance', 'counterparty', 'invoice', 'obligation', 'reconciliation_match', 'transaction'])
    const transaction = all.transaction
    expect(transaction).toMatchObject({ type: 'object', properties: { kind: { const: 'transaction' }, record: { type: 'object', properties: { amount: { type: 'string', pattern: expect.any(String) } } } } })
    expect(JSON.stringify(all)).not.toContain('$ref')
    expect(await getOk(test, owner.token, '/v1/wiki/schema?kind=invoice')).toEqual({ invoice: all.invoice })
    for (const kind of ['policy', 'nope']) expectError(await get(`/v1/wiki/schema?kind=${kind}`), 'request_params_invalid')
    // Every kind's entity matches its kind's schema (the route's union serializes each record whole).
    const { Compile: compile } = await import('typebox/compile')
    const invoice = ((await getOk(test, owner.token, '/v1/ledger/invoices')).invoices as Array<Record<string, any>>)[0]!
    const payment = (await getOk(test, owner.token, `/v1/ledger/transactions/${transactionId}`)) as Record<string, any>
    const refs: Array<[string, string, Record<string, any> | undefined]> = [
      ['invoice', invoice.id, invoice],
      ['counterparty', invoice.counterparty_id, undefined],
      ['account', payment.account_id, undefined],
      ['reconciliation_match', matchId, undefined],
    ]
    for (const [kind, id, ledgerBody] of refs) {
      const read = (await getOk(test, owner.token, `/v1/wiki/entity/${id}`)) as Record<string, any>
      expect(read).toMatchObject({ entity_id: id, kind, record: { id } })
      if (ledgerBody !== undefined) expect(read.record).toEqual(ledgerBody)
      const { $schema: _ignored, ...kindSchema } = all[kind]
      expect(compile(kindSchema).Check(read), kind).toBe(true)
    }
    // The schema describes what the entity route answers.
    const { Compile } = await import('typebox/compile')
    const entity = await getOk(test, owner.token, `/v1/wiki/entity/${transactionId}`)
    const { $schema: _, ...schema } = transaction
    expect(Compile(schema).Check(entity)).toBe(true)
  })
})
