/**
 * Provider webhooks (POST /v1/raw/webhooks/{provider}) and the connectors service that configures them
 * out of band (its platform routes and the steward CLI over them: test/cli/connectors.test.ts). Signatures are made here the way a provider makes them: HMAC-SHA-256 over "<t>." + the raw
 * body, with the connection's secret.
 */
import { createHash, createHmac } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { providerSignature, providerSignatureHeader, signatureToleranceSeconds, verifyProviderSignature } from '../../../src/modules/raw/domain/provider-signature.ts'
import { providerWebhookBytesMax } from '../../../src/modules/raw/ingest-rules.ts'
import { createTestApp, expectError, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { artifactRow, auditActions, eventsOf } from '../../fixtures/raw/ingest/raw-test-kit.ts'

const sha256 = (content: Buffer | string) => createHash('sha256').update(content).digest('hex')
const nowSeconds = () => Math.floor(Date.now() / 1000)
let accountCounter = 0
const uniqueAccount = () => `acct_${Date.now()}_${(accountCounter += 1)}`
/** An in-process caller of the connectors service (the platform routes and the CLI are tested in test/cli/). */
const cliContext = { requestId: 'connectors-service-test' }

function deliver(test: TestApp, provider: string, options: { account?: string; secret?: string; body: string | Buffer; timestamp?: number; signature?: string; contentType?: string }) {
  const body = Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body)
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json' }
  if (options.account !== undefined) headers['x-provider-account'] = options.account
  if (options.signature !== undefined) headers['x-provider-signature'] = options.signature
  else if (options.secret !== undefined) headers['x-provider-signature'] = providerSignatureHeader(options.secret, options.timestamp ?? nowSeconds(), body)
  return test.request({ method: 'POST', url: `/v1/raw/webhooks/${provider}`, headers, payload: body })
}

const payload = (extra: Record<string, unknown> = {}) => JSON.stringify({ account: 'acct', transactions: [{ id: `tx_${Math.random()}`, amount: '-12.50', currency: 'EUR' }], ...extra })

describe('the signature scheme', () => {
  it('matches the worked example in docs/raw.md', () => {
    const secret = 'psk_dGVzdC1zZWNyZXQtZm9yLWRvY3MtZXhhbXBsZS0xMjM0NQ'
    const body = Buffer.from('{"account":"acct_123","transactions":[{"id":"tx_1","amount":"-12.50","currency":"EUR"}]}')
    expect(providerSignature(secret, 1767225600, body)).toBe('6c8a4d5b428792c0942bf80ce1b450e9529b14a8eece9fa57360b3b38fc8cc7f')
    expect(providerSignature(secret, 1767225600, body)).toBe(createHmac('sha256', secret).update(`1767225600.${body.toString()}`).digest('hex'))
  })

  it.each([
    ['a valid header', (h: string) => h, true],
    ['two v1 entries, one valid', (h: string) => `${h},v1=${'0'.repeat(64)}`, true],
    ['spaces after commas', (h: string) => h.replace(',', ', '), true],
    ['no header', () => undefined, false],
    ['no timestamp', (h: string) => h.replace(/^t=\d+,/, ''), false],
    ['no v1', (h: string) => h.replace(/,v1=.*/, ''), false],
    ['an uppercase-hex copy of another signature', (h: string) => h.replace(/v1=.*/, `v1=${'A'.repeat(64)}`), false],
    ['a v0 scheme', (h: string) => h.replace('v1=', 'v0='), false],
    ['garbage', () => 'nonsense', false],
    ['an overlong header', (h: string) => `${h},${'x'.repeat(2000)}`, false],
  ])('verifies %s: %s', (_label, mutate, valid) => {
    const body = Buffer.from('{"a":1}')
    const header = providerSignatureHeader('psk_secret', 1_000_000, body)
    expect(verifyProviderSignature(mutate(header) as string | undefined, 'psk_secret', body, 1_000_000)).toBe(valid)
  })

  it(`accepts timestamps within ${signatureToleranceSeconds} s either way, and no further`, () => {
    const body = Buffer.from('{}')
    const at = (offset: number) => verifyProviderSignature(providerSignatureHeader('k', 1_000_000 + offset, body), 'k', body, 1_000_000)
    expect([at(-signatureToleranceSeconds), at(signatureToleranceSeconds), at(0)]).toEqual([true, true, true])
    expect([at(-signatureToleranceSeconds - 1), at(signatureToleranceSeconds + 1)]).toEqual([false, false])
  })
})

describe('POST /v1/raw/webhooks/{provider}', () => {
  let test: TestApp
  let owner: TenantOwner
  beforeAll(async () => {
    test = await createTestApp({ workers: true, runtime: { raw: { selectParser: () => undefined } } })
    owner = await signupOwner(test)
  })
  afterAll(async () => test?.close())

  const connect = async (provider: 'bank_provider' | 'card_processor' | 'chain_indexer' | 'erp_provider' | 'generic_hmac', tenantId = owner.tenantId) => {
    const account = uniqueAccount()
    const { secret, connection } = (await test.runtime.services.connectors.add(cliContext, { tenantId, provider, accountRef: account })).outcome
    return { account, secret, connectionId: connection.connection_id }
  }

  it('accepts a signed delivery: 202 with accepted, trace_id and artifacts 1, storing the exact bytes', async () => {
    const { account, secret, connectionId } = await connect('bank_provider')
    // Unusual spacing and key order: the signature and the stored bytes are the body as sent.
    const body = `{ "z": 1,  "transactions" : [ {"id":"tx_${Date.now()}", "amount":"-3.20"} ] }`
    const response = await deliver(test, 'bank_provider', { account, secret, body })
    expect(response.statusCode, response.body).toBe(202)
    expect(response.json()).toEqual({ accepted: true, trace_id: response.headers['x-request-id'], artifacts: 1 })
    const [row] = await queryRows<{ id: string }>(test.runtime.db.orm, sql`select id from raw_artifacts where tenant_id = ${owner.tenantId} and sha256 = ${sha256(body)}`)
    const artifact = (await artifactRow(test, row!.id))!
    expect(artifact).toMatchObject({ source_type: 'bank_provider', mime_type: 'application/json', status: 'stored' })
    expect(artifact.source_ref).toEqual({ provider: 'bank_provider', connection_id: connectionId, account_ref: account, trace_id: response.json().trace_id })
    const audit = await auditActions(test, owner.tenantId, row!.id)
    expect(audit[0]).toMatchObject({ action: 'raw.artifact_ingested', layer: 'raw', actor_type: 'system', actor_id: connectionId })
    expect((await eventsOf(test, owner.tenantId, 'raw.ingest.new')).some((event) => event.payload.raw_id === row!.id)).toBe(true)
    // The stored bytes are the delivered bytes.
    const stream = await test.runtime.blobs.open(owner.tenantId, sha256(body))
    const chunks: Buffer[] = []
    for await (const chunk of stream!) chunks.push(chunk as Buffer)
    expect(Buffer.concat(chunks).toString()).toBe(body)
  })

  it('binds a provider account to one tenant across the service, revoked or not, and files its deliveries there', async () => {
    const { account, secret } = await connect('erp_provider')
    const other = await signupOwner(test)
    const addElsewhere = () => test.runtime.services.connectors.add(cliContext, { tenantId: other.tenantId, provider: 'erp_provider', accountRef: account })
    await expect(addElsewhere()).rejects.toThrow(/already connected .*another tenant/)
    await test.runtime.services.connectors.change(cliContext, { tenantId: owner.tenantId, provider: 'erp_provider', accountRef: account, move: 'revoke' })
    await expect(addElsewhere()).rejects.toThrow(/already connected .*another tenant/)
    // The same account name under another provider is another account.
    await expect(test.runtime.services.connectors.add(cliContext, { tenantId: other.tenantId, provider: 'generic_hmac', accountRef: account })).resolves.toBeDefined()
    // Revived by its own tenant, the account's deliveries land in that tenant only.
    const revived = (await test.runtime.services.connectors.add(cliContext, { tenantId: owner.tenantId, provider: 'erp_provider', accountRef: account })).outcome.secret
    expect(revived).not.toBe(secret)
    const body = payload()
    expect((await deliver(test, 'erp_provider', { account, secret: revived, body })).json().artifacts).toBe(1)
    const filed = await queryRows<{ tenant_id: string }>(test.runtime.db.orm, sql`select tenant_id from raw_artifacts where sha256 = ${sha256(body)}`)
    expect(filed).toEqual([{ tenant_id: owner.tenantId }])
  })

  it('answers an idempotent replay of the same body with artifacts 0 (a fresh signature, the same bytes)', async () => {
    const { account, secret } = await connect('card_processor')
    const body = payload()
    expect((await deliver(test, 'card_processor', { account, secret, body })).json().artifacts).toBe(1)
    const replay = await deliver(test, 'card_processor', { account, secret, body, timestamp: nowSeconds() - 60 })
    expect(replay.statusCode, replay.body).toBe(202)
    expect(replay.json()).toMatchObject({ accepted: true, artifacts: 0 })
    const [count] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from raw_artifacts where tenant_id = ${owner.tenantId} and sha256 = ${sha256(body)}`)
    expect(count!.n).toBe(1)
    expect((await eventsOf(test, owner.tenantId, 'raw.ingest.deduplicated')).length).toBeGreaterThan(0)
  })

  it('answers every failure with the same 401 raw_webhook_signature_invalid', async () => {
    const { account, secret } = await connect('bank_provider')
    const paused = await connect('bank_provider')
    await test.runtime.services.connectors.change(cliContext, { tenantId: owner.tenantId, provider: 'bank_provider', accountRef: paused.account, move: 'pause' })
    const revoked = await connect('bank_provider')
    await test.runtime.services.connectors.change(cliContext, { tenantId: owner.tenantId, provider: 'bank_provider', accountRef: revoked.account, move: 'revoke' })
    const body = payload()
    const signed = providerSignatureHeader(secret, nowSeconds(), Buffer.from(body))
    const cases: Array<[string, Parameters<typeof deliver>[2], string?]> = [
      ['a wrong secret', { account, secret: `${secret}x`, body }],
      ['a stale timestamp', { account, secret, body, timestamp: nowSeconds() - signatureToleranceSeconds - 5 }],
      ['a timestamp from the future', { account, secret, body, timestamp: nowSeconds() + signatureToleranceSeconds + 5 }],
      ['an unknown account', { account: 'acct_nobody', secret, body }],
      ['no account header', { secret, body }],
      ['no signature header', { account, body }],
      ['a body changed after signing', { account, signature: signed, body: body.replace('-12.50', '-12.51') }],
      ['a garbled signature', { account, signature: 't=abc,v1=xyz', body }],
      ['a paused connection', { account: paused.account, secret: paused.secret, body }],
      ['a revoked connection', { account: revoked.account, secret: revoked.secret, body }],
      ['the account under another provider', { account, secret, body }, 'card_processor'],
    ]
    const messages = new Set<string>()
    for (const [label, options, provider] of cases) {
      const response = await deliver(test, provider ?? 'bank_provider', options)
      expect(response.json().error?.code, label).toBe('raw_webhook_signature_invalid')
      const error = expectError(response, 'raw_webhook_signature_invalid')
      expect(error.details, label).toBeUndefined()
      messages.add(error.message)
    }
    expect(messages.size).toBe(1)
    // Nothing was stored for any of them.
    const [count] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from raw_artifacts where tenant_id = ${owner.tenantId} and sha256 in (${sha256(body)}, ${sha256(body.replace('-12.50', '-12.51'))})`)
    expect(count!.n).toBe(0)
    // Within the tolerance it is accepted.
    expect((await deliver(test, 'bank_provider', { account, secret, body, timestamp: nowSeconds() - signatureToleranceSeconds + 30 })).statusCode).toBe(202)
  })

  it('maps each provider to its source type, and every artifact goes through extraction', async () => {
    const mapping = [
      ['bank_provider', 'bank_provider'],
      ['card_processor', 'card_processor'],
      ['chain_indexer', 'chain_indexer_wallet'],
      ['erp_provider', 'erp_provider'],
      ['generic_hmac', 'other'],
    ] as const
    for (const [provider, sourceType] of mapping) {
      const { account, secret } = await connect(provider)
      const body = payload({ provider })
      const response = await deliver(test, provider, { account, secret, body })
      expect(response.statusCode, `${provider}: ${response.body}`).toBe(202)
      const [row] = await queryRows<{ id: string; source_type: string }>(test.runtime.db.orm, sql`select id, source_type from raw_artifacts where tenant_id = ${owner.tenantId} and sha256 = ${sha256(body)}`)
      expect(row!.source_type, provider).toBe(sourceType)
      await expect.poll(async () => (await artifactRow(test, row!.id))?.extraction_status, { timeout: 15_000, interval: 100 }).toBe('skipped')
    }
  })

  it('refuses a validly signed body that is not JSON (400), an unknown provider (400), and keeps a tombstoned artifact tombstoned', async () => {
    const { account, secret } = await connect('generic_hmac')
    expectError(await deliver(test, 'generic_hmac', { account, secret, body: 'not json', contentType: 'text/plain' }), 'request_body_invalid')
    // An empty body, validly signed, is no JSON either; unsigned, it is refused like any other.
    expectError(await deliver(test, 'generic_hmac', { account, secret, body: '' }), 'request_body_invalid')
    expectError(await deliver(test, 'generic_hmac', { account, body: '' }), 'raw_webhook_signature_invalid')
    expectError(await deliver(test, 'bank', { account, secret, body: payload() }), 'request_params_invalid')
    // Any content type: the body is read as bytes.
    const textual = payload()
    expect((await deliver(test, 'generic_hmac', { account, secret, body: textual, contentType: 'text/plain' })).json().artifacts).toBe(1)

    const body = payload()
    expect((await deliver(test, 'generic_hmac', { account, secret, body })).json().artifacts).toBe(1)
    const [row] = await queryRows<{ id: string }>(test.runtime.db.orm, sql`select id from raw_artifacts where tenant_id = ${owner.tenantId} and sha256 = ${sha256(body)}`)
    expect((await test.request({ method: 'DELETE', url: `/v1/raw/${row!.id}`, token: owner.token })).statusCode).toBe(204)
    const replay = await deliver(test, 'generic_hmac', { account, secret, body })
    expect(replay.json()).toMatchObject({ accepted: true, artifacts: 0 })
    expect((await artifactRow(test, row!.id))!.status).toBe('tombstoned')
  })

  it(`takes bodies up to ${providerWebhookBytesMax} bytes (more than the 1 MiB of JSON routes), and no more`, async () => {
    const { account, secret } = await connect('erp_provider')
    const large = JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024), id: Date.now() })
    expect((await deliver(test, 'erp_provider', { account, secret, body: large })).json()).toMatchObject({ accepted: true, artifacts: 1 })
    const tooLarge = Buffer.alloc(providerWebhookBytesMax + 1, 0x20)
    expectError(await deliver(test, 'erp_provider', { account, secret, body: tooLarge }), 'request_body_too_large')
  })

  it('delivers to the connection\'s tenant only', async () => {
    const other = await signupOwner(test)
    const { account, secret } = await connect('bank_provider', other.tenantId)
    const body = payload()
    expect((await deliver(test, 'bank_provider', { account, secret, body })).statusCode).toBe(202)
    const rows = await queryRows<{ tenant_id: string }>(test.runtime.db.orm, sql`select tenant_id from raw_artifacts where sha256 = ${sha256(body)}`)
    expect(rows).toEqual([{ tenant_id: other.tenantId }])
  })
})
