import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { digestOf } from '../../../src/kernel/audit-record.ts'
import { serviceTokenScopes } from '../../../src/modules/auth/scopes.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import {
  createTestApp,
  expectError,
  fixedClock,
  issueApiKey,
  signupOwner,
  testPlatformSecret,
  testServiceTokenSecret,
  uniqueEmail,
  type TestApp,
} from '../../support/harness.ts'
import { auditEvents } from '../../support/audit-log.ts'

const clock = fixedClock(new Date('2026-11-21T09:00:00.000Z'))
let test: TestApp

beforeAll(async () => {
  // Workers on: tenant deletion enqueues its blob-purge job inside its transaction, and on PGlite that
  // hangs unless pg-boss already has the queue cached, which starting its worker does (see the report).
  test = await createTestApp({ clock, workers: true })
})
afterAll(async () => test?.close())

const hour = 60 * 60 * 1000

function mint(payload: Record<string, unknown>, options: { secret?: string | null; app?: TestApp } = {}) {
  const secret = options.secret === undefined ? testServiceTokenSecret : options.secret
  return (options.app ?? test).request({
    method: 'POST',
    url: '/v1/auth/service-token',
    payload,
    ...(secret === null ? {} : { token: secret }),
  })
}

async function mintToken(tenantId: string, extra: Record<string, unknown> = {}) {
  const response = await mint({ tenant_id: tenantId, reason: 'reconciliation run', ...extra })
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as { access_token: string; token_type: string; expires_in: number; principal: { id: string; type: string; tenantId: string; scopes: string[] } }
}

const whoami = (token: string, app = test) => app.request({ method: 'GET', url: '/v1/auth/whoami', token })

async function serviceTokenRows(tenantId: string, app = test) {
  return queryRows<{ id: string; subject: string; scopes: string[]; reason: string; expires_at: string | Date }>(
    app.runtime.db.orm,
    sql`select id, subject, scopes, reason, expires_at from service_tokens where tenant_id = ${tenantId} order by id`,
  )
}

describe('POST /v1/auth/service-token', () => {
  it('mints a one-hour service token (200) that authenticates as a service principal', async () => {
    const owner = await signupOwner(test)
    const response = await mint({ tenant_id: owner.tenantId, reason: 'incident 42: rebuild ledger' })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'principal', 'token_type'])
    expect(body.token_type).toBe('Bearer')
    expect(body.expires_in).toBe(3600)
    expect(body.principal).toEqual({
      id: expect.stringMatching(/^svt_[0-9A-HJKMNP-TV-Z]{26}$/),
      type: 'service',
      tenantId: owner.tenantId,
      scopes: [...serviceTokenScopes],
    })
    // A service token never approves or signs policy: those are human acts.
    expect(body.principal.scopes).not.toContain('payment_intent:approve')
    expect(body.principal.scopes).not.toContain('policy:sign')
    expect(body.principal.scopes).not.toContain('surfaces:admin')

    const claims = decodeJwt(body.access_token)
    expect(claims.exp! - claims.iat!).toBe(3600)
    expect(claims.iat).toBe(Math.floor(clock.now().getTime() / 1000))
    expect(claims.sub).toBe(body.principal.id)
    expect(claims.jti).toBe(body.principal.id)
    expect(claims.tid).toBe(owner.tenantId)
    expect(claims.typ).toBe('service')

    const me = await whoami(body.access_token)
    expect(me.statusCode, me.body).toBe(200)
    expect(me.json()).toEqual(body.principal)

    const rows = await serviceTokenRows(owner.tenantId)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toEqual(
      expect.objectContaining({ id: body.principal.id, subject: 'break-glass', scopes: [...serviceTokenScopes], reason: 'incident 42: rebuild ledger' }),
    )
    expect(new Date(rows[0]!.expires_at).toISOString()).toBe(new Date(clock.now().getTime() + hour).toISOString())
  })

  it('records the mint in the audit chain, binding the reason by digest and holding no secret', async () => {
    const owner = await signupOwner(test)
    const reason = 'incident 43: customer Jane Roe reported a missing transfer'
    const token = await mintToken(owner.tenantId, { reason, subject: 'agent.reconciler' })
    const rows = (await auditEvents(test, owner.tenantId, { action: 'auth.service_token_minted' })).map(
      ({ action, actor_type, actor_id, entity_type, entity_id, inputs, outputs }) => ({ action, actor_type, actor_id, entity_type, entity_id, inputs, outputs }),
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]).toEqual({
      action: 'auth.service_token_minted',
      actor_type: 'service',
      actor_id: token.principal.id,
      entity_type: 'service_token',
      entity_id: token.principal.id,
      // Free text stays out of the append-only chain (which outlives the tenant); its digest binds it.
      inputs: { reason: digestOf(reason) },
      outputs: { subject: 'agent.reconciler', scopes: [...serviceTokenScopes], expires_in: 3600 },
    })
    const allAudit = JSON.stringify(await auditEvents(test, owner.tenantId))
    expect(allAudit).not.toContain('Jane Roe')
    expect(allAudit).not.toContain(testServiceTokenSecret)
    expect(allAudit).not.toContain(token.access_token)
    // The reason in clear is on the token's own row, which tenant deletion removes.
    expect((await serviceTokenRows(owner.tenantId))[0]!.reason).toBe(reason)
  })

  it('honours a subset of the service scopes', async () => {
    const owner = await signupOwner(test)
    // Asked in reverse order, answered in the canonical order (the same order whoami reports).
    const token = await mintToken(owner.tenantId, { scopes: ['raw:read', 'ledger:read'] })
    expect(token.principal.scopes).toEqual(['ledger:read', 'raw:read'])
    expect(decodeJwt(token.access_token).scp).toEqual(token.principal.scopes)
    const me = await whoami(token.access_token)
    expect(me.statusCode, me.body).toBe(200)
    expect(me.json().scopes).toEqual(['ledger:read', 'raw:read'])
    expect((await serviceTokenRows(owner.tenantId))[0]!.scopes.sort()).toEqual(['ledger:read', 'raw:read'])
  })

  it.each([['payment_intent:approve'], ['policy:sign'], ['policy:write'], ['surfaces:admin'], ['governance:read'], ['nonsense:scope']])(
    'refuses the scope %s with 400 request_body_invalid and mints nothing',
    async (scope) => {
      const owner = await signupOwner(test)
      const error = expectError(await mint({ tenant_id: owner.tenantId, reason: 'too wide', scopes: ['ledger:read', scope] }), 'request_body_invalid')
      expect(error.details?.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/scopes/1' })]))
      expect(await serviceTokenRows(owner.tenantId)).toEqual([])
    },
  )

  it('refuses an empty or repeated scope list, a bad subject and unknown fields (400 request_body_invalid)', async () => {
    const owner = await signupOwner(test)
    expectError(await mint({ tenant_id: owner.tenantId, reason: 'r', scopes: [] }), 'request_body_invalid')
    expectError(await mint({ tenant_id: owner.tenantId, reason: 'r', scopes: ['ledger:read', 'ledger:read'] }), 'request_body_invalid')
    expectError(await mint({ tenant_id: owner.tenantId, reason: 'r', subject: 'has spaces' }), 'request_body_invalid')
    const unknown = expectError(await mint({ tenant_id: owner.tenantId, reason: 'r', expires_in: 86400 }), 'request_body_invalid')
    expect(unknown.details?.issues).toEqual([expect.objectContaining({ path: '/expires_in', keyword: 'additionalProperties' })])
    expect(await serviceTokenRows(owner.tenantId)).toEqual([])
  })

  it('requires a reason (400 request_body_invalid)', async () => {
    const owner = await signupOwner(test)
    const missing = expectError(await mint({ tenant_id: owner.tenantId }), 'request_body_invalid')
    expect(missing.details?.issues).toEqual([expect.objectContaining({ path: '/reason', keyword: 'required' })])
    expectError(await mint({ tenant_id: owner.tenantId, reason: '' }), 'request_body_invalid')
    expectError(await mint({ tenant_id: owner.tenantId, reason: 'x'.repeat(501) }), 'request_body_invalid')
    expect(await serviceTokenRows(owner.tenantId)).toEqual([])
  })

  it('refuses a wrong secret (401 auth_invalid_credentials), a missing one (401 auth_token_missing) and another scheme (401 auth_token_invalid)', async () => {
    const owner = await signupOwner(test)
    const body = { tenant_id: owner.tenantId, reason: 'attempt' }
    expectError(await mint(body, { secret: `${testServiceTokenSecret}x` }), 'auth_invalid_credentials')
    expectError(await mint(body, { secret: testServiceTokenSecret.slice(0, -1) }), 'auth_invalid_credentials')
    expectError(await mint(body, { secret: 'wrong' }), 'auth_invalid_credentials')
    expectError(await mint(body, { secret: null }), 'auth_token_missing')
    const basic = await test.request({
      method: 'POST',
      url: '/v1/auth/service-token',
      payload: body,
      headers: { authorization: `Basic ${Buffer.from(`x:${testServiceTokenSecret}`).toString('base64')}` },
    })
    expectError(basic, 'auth_token_invalid')
    // An owner's own JWT is not the shared secret.
    expectError(await mint(body, { secret: owner.token }), 'auth_invalid_credentials')
    expect(await serviceTokenRows(owner.tenantId)).toEqual([])
  })

  it('answers an unknown tenant with 404 tenant_not_found and a malformed one with 400', async () => {
    expectError(await mint({ tenant_id: randomUUID(), reason: 'nobody' }), 'tenant_not_found')
    expectError(await mint({ tenant_id: 'not-a-uuid', reason: 'nobody' }), 'request_body_invalid')
  })
})

describe('POST /v1/auth/service-token takes no Idempotency-Key', () => {
  it('mints another audited token for a repeated key, and stores neither', async () => {
    const owner = await signupOwner(test)
    const request = {
      method: 'POST' as const,
      url: '/v1/auth/service-token',
      token: testServiceTokenSecret,
      headers: { 'idempotency-key': `key-${randomUUID()}` },
      payload: { tenant_id: owner.tenantId, reason: 'retried mint' },
    }
    const [first, second] = [await test.request(request), await test.request(request)]
    expect([first.statusCode, second.statusCode]).toEqual([200, 200])
    expect(second.headers['idempotent-replayed']).toBeUndefined()
    expect(second.json().principal.id).not.toBe(first.json().principal.id)
    expect(await serviceTokenRows(owner.tenantId)).toHaveLength(2)
    expect(await auditEvents(test, owner.tenantId, { action: 'auth.service_token_minted' })).toHaveLength(2)
    const stored = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from idempotency_keys where tenant_id = ${owner.tenantId}`)
    expect(stored[0]!.n).toBe(0)
  })
})

describe('service token lifetime', () => {
  it('works for an hour, then fails with 401 auth_token_expired', async () => {
    const owner = await signupOwner(test)
    const token = await mintToken(owner.tenantId)
    clock.advance(hour - 1000)
    try {
      expect((await whoami(token.access_token)).statusCode).toBe(200)
      clock.advance(1000)
      expectError(await whoami(token.access_token), 'auth_token_expired')
    } finally {
      clock.advance(-hour)
    }
    expect((await whoami(token.access_token)).statusCode).toBe(200)
  })

  it('stops working (401 auth_token_invalid) once its tenant is deleted', async () => {
    const owner = await signupOwner(test)
    const token = await mintToken(owner.tenantId)
    expect((await whoami(token.access_token)).statusCode).toBe(200)
    const deleted = await test.request({ method: 'DELETE', url: `/v1/tenants/${owner.tenantId}`, token: owner.token })
    expect(deleted.statusCode, deleted.body).toBe(200)
    expect(deleted.json().deletedRows.service_tokens).toBe(1)
    expectError(await whoami(token.access_token), 'auth_token_invalid')
    expectError(await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}`, token: token.access_token }), 'auth_token_invalid')
    expectError(await mint({ tenant_id: owner.tenantId, reason: 'after deletion' }), 'tenant_not_found')
  })

  it('refuses a token whose signature was altered (401 auth_token_invalid)', async () => {
    const owner = await signupOwner(test)
    const token = await mintToken(owner.tenantId)
    const [header, payload, signature] = token.access_token.split('.')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'))
    const widened = Buffer.from(JSON.stringify({ ...claims, scp: [...claims.scp, 'surfaces:admin'] })).toString('base64url')
    expectError(await whoami(`${header}.${widened}.${signature}`), 'auth_token_invalid')
  })
})

describe('the stored record is the authority, not the claims', () => {
  /** The token's own claims, re-signed with the test's signing key (JWT_SECRET) and the changes given. */
  async function resign(accessToken: string, changes: { scopes?: readonly string[]; lifetimeSeconds?: number; sub?: string }) {
    const claims = decodeJwt(accessToken)
    const sub = changes.sub ?? (claims.sub as string)
    return test.tokens.sign(
      { sub, tenantId: claims.tid as string, type: 'service', scopes: changes.scopes ?? (claims.scp as string[]) },
      changes.lifetimeSeconds ?? 3600,
      clock.now(),
      sub,
    )
  }

  it('narrows a token re-signed with inflated scopes to the scopes it was minted with', async () => {
    const owner = await signupOwner(test)
    const minted = await mintToken(owner.tenantId, { scopes: ['ledger:read'] })
    const inflated = await resign(minted.access_token, { scopes: [...serviceTokenScopes] })
    expect(decodeJwt(inflated).scp).toHaveLength(12)

    const me = await whoami(inflated)
    expect(me.statusCode, me.body).toBe(200)
    expect(me.json().scopes).toEqual(['ledger:read'])
    const error = expectError(await test.request({ method: 'GET', url: '/v1/audit/events', token: inflated }), 'auth_scope_insufficient')
    expect(error.details).toEqual(expect.objectContaining({ missing: ['audit:read'] }))
    expectError(await test.request({ method: 'POST', url: '/v1/ledger/reconcile', token: inflated, payload: {} }), 'auth_scope_insufficient')
    const read = await test.request({ method: 'GET', url: '/v1/ledger/accounts', token: inflated })
    expect(read.statusCode, read.body).toBe(200)
  })

  it('ends a token re-signed with a later expiry when its record expires (401 auth_token_expired)', async () => {
    const owner = await signupOwner(test)
    const minted = await mintToken(owner.tenantId)
    const extended = await resign(minted.access_token, { lifetimeSeconds: 24 * 3600 })
    clock.advance(hour - 1000)
    try {
      expect((await whoami(extended)).statusCode).toBe(200)
      clock.advance(1000)
      expectError(await whoami(extended), 'auth_token_expired')
    } finally {
      clock.advance(-hour)
    }
  })

  it('refuses a validly signed service token that was never minted (401 auth_token_invalid)', async () => {
    const owner = await signupOwner(test)
    const minted = await mintToken(owner.tenantId)
    expectError(await whoami(await resign(minted.access_token, { sub: 'svt_01KAAAAAAAAAAAAAAAAAAAAAAA' })), 'auth_token_invalid')
  })
})

describe('what a service token may not do', () => {
  it('cannot delete the tenant, administer members or API keys (403 auth_scope_insufficient)', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    const token = (await mintToken(owner.tenantId)).access_token
    const calls = [
      { method: 'DELETE', url: `/v1/tenants/${owner.tenantId}` },
      { method: 'POST', url: `/v1/tenants/${owner.tenantId}/members`, payload: { email: uniqueEmail(), role: 'admin' } },
      { method: 'GET', url: `/v1/tenants/${owner.tenantId}/members` },
      { method: 'POST', url: `/v1/tenants/${owner.tenantId}/api-keys`, payload: { name: 'by service' } },
      { method: 'GET', url: `/v1/tenants/${owner.tenantId}/api-keys` },
      { method: 'POST', url: `/v1/tenants/${owner.tenantId}/api-keys/${key.id}/revoke`, payload: {} },
    ] as const
    for (const call of calls) {
      const error = expectError(await test.request({ ...call, token }), 'auth_scope_insufficient')
      expect(error.details, `${call.method} ${call.url}`).toEqual(expect.objectContaining({ required_principal_types: ['user'] }))
    }
    // Nothing changed: the tenant is there, with one member and its key still active.
    expect((await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}`, token: owner.token })).statusCode).toBe(200)
    const members = await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}/members`, token: owner.token })
    expect(members.json().members).toHaveLength(1)
    expect((await whoami(key.secret)).statusCode).toBe(200)
  })

  it('reads its own tenant, not another (403 auth_tenant_mismatch)', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    const token = (await mintToken(owner.tenantId)).access_token
    const own = await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}`, token })
    expect(own.statusCode, own.body).toBe(200)
    expect(own.json().id).toBe(owner.tenantId)
    expectError(await test.request({ method: 'GET', url: `/v1/tenants/${other.tenantId}`, token }), 'auth_tenant_mismatch')
  })
})

describe('when the mint is disabled', () => {
  it('answers 403 auth_service_token_disabled when SERVICE_TOKEN_SECRET is unset', async () => {
    const unset = await createTestApp({ env: { SERVICE_TOKEN_SECRET: '' } })
    try {
      expect(unset.config.serviceTokenSecret).toBeUndefined()
      const owner = await signupOwner(unset)
      const body = { tenant_id: owner.tenantId, reason: 'no secret configured' }
      expectError(await mint(body, { app: unset }), 'auth_service_token_disabled')
      expectError(await mint(body, { app: unset, secret: null }), 'auth_service_token_disabled')
      expectError(await mint(body, { app: unset, secret: '' }), 'auth_service_token_disabled')
      expect(await serviceTokenRows(owner.tenantId, unset)).toEqual([])
    } finally {
      await unset.close()
    }
  })

  it('answers 403 auth_service_token_disabled in production, even with the right secret', { timeout: 60_000 }, async () => {
    const productionBaseUrl = 'https://steward.test'
    const production = await createTestApp({
      env: { STEWARD_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:2525', PUBLIC_BASE_URL: productionBaseUrl },
    })
    try {
      expect(production.config.serviceTokenSecret).toBe(testServiceTokenSecret)
      const provisioned = await production.request({
        method: 'POST',
        url: '/v1/tenants',
        headers: { 'x-platform-service-auth': testPlatformSecret },
        payload: { name: 'Production tenant' },
      })
      expect(provisioned.statusCode, provisioned.body).toBe(201)
      const tenantId = provisioned.json().tenant.id as string
      for (const secret of [testServiceTokenSecret, 'wrong', null]) {
        const response = await mint({ tenant_id: tenantId, reason: 'live break-glass' }, { app: production, secret })
        expect(response.statusCode, response.body).toBe(403)
        const error = response.json().error
        expect(error.code).toBe('auth_service_token_disabled')
        expect(error.request_id).toBe(response.headers['x-request-id'])
        expect(error.docs_url).toBe(`${productionBaseUrl}/docs/errors#auth_service_token_disabled`)
      }
      expect(await serviceTokenRows(tenantId, production)).toEqual([])
    } finally {
      await production.close()
    }
  })
})
