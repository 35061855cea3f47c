import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyScopes } from '../../../src/modules/auth/scopes.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { hmacSha256Hex, sha256Hex } from '../../../src/kernel/hashing.ts'
import {
  addMember,
  createTestApp,
  expectError,
  fixedClock,
  issueApiKey,
  login,
  signupOwner,
  testPassword,
  testPlatformSecret,
  uniqueEmail,
  type TenantOwner,
  type TestApp,
} from '../../support/harness.ts'
import { auditActions, auditEvents } from '../../support/audit-log.ts'
import { tablesContaining } from '../../support/tables-containing.ts'
import { describeKeyedRoutes, keyed, newIdempotencyKey, type KeyedCase } from '../../support/idempotency-cases.ts'

const start = new Date('2026-11-21T09:00:00.000Z')
const clock = fixedClock(start)
let test: TestApp

beforeAll(async () => {
  // Workers on: tenant deletion enqueues its blob-purge job inside its transaction, and on PGlite that
  // hangs unless pg-boss already has the queue cached, which starting its worker does.
  test = await createTestApp({ clock, workers: true })
})
afterAll(async () => test?.close())

const hour = 60 * 60 * 1000
const secretPattern = /^svc_sk_test_[A-Za-z0-9_-]{43}$/
/** The random part of a secret: what must never be found anywhere but in the issue/rotate response. */
const secretBody = (secret: string) => secret.replace(/^svc_sk_(test|live)_/, '')

const keysUrl = (tenantId: string) => `/v1/tenants/${tenantId}/api-keys`
const keyUrl = (tenantId: string, keyId: string) => `${keysUrl(tenantId)}/${keyId}`

const issue = (owner: { tenantId: string; token: string }, payload: Record<string, unknown> = { name: 'partner key' }, app = test) =>
  app.request({ method: 'POST', url: keysUrl(owner.tenantId), token: owner.token, payload })
const getKey = (owner: TenantOwner, keyId: string, token = owner.token) => test.request({ method: 'GET', url: keyUrl(owner.tenantId, keyId), token })
const listKeys = (owner: TenantOwner, query = '', token = owner.token) => test.request({ method: 'GET', url: `${keysUrl(owner.tenantId)}${query}`, token })
const rotate = (owner: TenantOwner, keyId: string, payload: Record<string, unknown> = {}, token = owner.token) =>
  test.request({ method: 'POST', url: `${keyUrl(owner.tenantId, keyId)}/rotate`, token, payload })
const revoke = (owner: TenantOwner, keyId: string, token = owner.token) =>
  test.request({ method: 'POST', url: `${keyUrl(owner.tenantId, keyId)}/revoke`, token, payload: {} })
const whoami = (secret: string, app = test) => app.request({ method: 'GET', url: '/v1/auth/whoami', token: secret })

/** Moves the shared clock for the duration of `body`, then puts it back (the other tests share it). */
async function withClockAdvanced<T>(milliseconds: number, body: () => Promise<T>): Promise<T> {
  clock.advance(milliseconds)
  try {
    return await body()
  } finally {
    clock.advance(-milliseconds)
  }
}

async function apiKeyRows(tenantId: string) {
  return queryRows<{ id: string; secret_digest: string; previous_secret_digest: string | null; secret_last_four: string }>(
    test.runtime.db.orm,
    sql`select id, secret_digest, previous_secret_digest, secret_last_four from api_keys where tenant_id = ${tenantId} order by id`,
  )
}

/** `last_used_at` is written after the response, off the request path: wait for it briefly. */
async function pollLastUsed(owner: TenantOwner, keyId: string): Promise<string | null> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const body = (await getKey(owner, keyId)).json()
    if (body.last_used_at !== null) return body.last_used_at as string
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return null
}

/** Replaces the character at `index` with a different character of the base64url alphabet. */
function changeCharacter(text: string, index: number): string {
  const current = text[index]!
  const replacement = current === 'A' ? 'B' : 'A'
  return `${text.slice(0, index)}${replacement}${text.slice(index + 1)}`
}

describe('POST /v1/tenants/{tenant_id}/api-keys (issue)', () => {
  it('issues a sandbox key (201) with the default read-only scopes; the secret is in this response only', async () => {
    const owner = await signupOwner(test)
    const response = await issue(owner, { name: 'partner key' })
    expect(response.statusCode, response.body).toBe(201)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(['api_key', 'secret'])
    expect(body.secret).toMatch(secretPattern)
    expect(body.api_key).toEqual({
      id: expect.stringMatching(/^key_[0-9A-HJKMNP-TV-Z]{26}$/),
      tenant_id: owner.tenantId,
      name: 'partner key',
      environment: 'test',
      prefix: 'svc_sk_test_',
      secret_last_four: body.secret.slice(-4),
      scopes: ['ledger:read', 'audit:read', 'governance:read'],
      status: 'active',
      expires_at: null,
      last_used_at: null,
      rotated_at: null,
      previous_secret_expires_at: null,
      revoked_at: null,
      created_by: owner.userId,
      created_at: clock.now().toISOString(),
    })

    // Neither the read nor the listing shows the secret again.
    const read = await getKey(owner, body.api_key.id)
    expect(read.statusCode).toBe(200)
    expect(read.json()).toEqual(body.api_key)
    expect(read.body).not.toContain(secretBody(body.secret))
    const list = await listKeys(owner)
    expect(list.statusCode).toBe(200)
    expect(list.json()).toEqual({ api_keys: [body.api_key], next_cursor: null })
    expect(list.body).not.toContain(secretBody(body.secret))
  })

  it('gives every key its own secret', async () => {
    const owner = await signupOwner(test)
    const first = await issueApiKey(test, owner)
    const second = await issueApiKey(test, owner)
    expect(first.id).not.toBe(second.id)
    expect(first.secret).not.toBe(second.secret)
  })

  it('stores only a peppered HMAC-SHA-256 of the secret, and the secret nowhere in the database', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    const [row] = await apiKeyRows(owner.tenantId)
    expect(row!.id).toBe(key.id)
    expect(row!.secret_digest).toMatch(/^[0-9a-f]{64}$/)
    expect(row!.secret_digest).toBe(hmacSha256Hex(test.config.apiKeyPepper, key.secret))
    // Peppered: not the plain SHA-256 of the secret, which anyone holding the table could test guesses against.
    expect(row!.secret_digest).not.toBe(sha256Hex(key.secret))
    expect(row!.previous_secret_digest).toBeNull()
    expect(row!.secret_last_four).toBe(key.secret.slice(-4))

    expect(await tablesContaining(test, secretBody(key.secret))).toEqual([])
    // The scan itself works: it finds the digest where it is stored (the key, and the directory that maps
    // the digest to its tenant, docs/scaling.md).
    expect(await tablesContaining(test, row!.secret_digest)).toEqual(['public.api_key_digests', 'public.api_keys'])
  })

  it('honours a subset of the read scopes', async () => {
    const owner = await signupOwner(test)
    const response = await issue(owner, { name: 'ledger only', scopes: ['ledger:read'] })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json().api_key.scopes).toEqual(['ledger:read'])
    const me = await whoami(response.json().secret)
    expect(me.statusCode, me.body).toBe(200)
    expect(me.json().scopes).toEqual(['ledger:read'])
  })

  it.each([
    ['raw:write'],
    ['ledger:write'],
    ['payment_intent:execute'],
    ['surfaces:admin'],
    ['nonsense:scope'],
  ])('refuses the scope %s with 400 request_body_invalid and writes nothing', async (scope) => {
    const owner = await signupOwner(test)
    const error = expectError(await issue(owner, { name: 'too wide', scopes: ['ledger:read', scope] }), 'request_body_invalid')
    expect(error.details?.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/scopes/1' })]))
    expect(await apiKeyRows(owner.tenantId)).toEqual([])
  })

  it('refuses an empty or repeated scope list, a missing name and unknown fields (400 request_body_invalid)', async () => {
    const owner = await signupOwner(test)
    expectError(await issue(owner, { name: 'empty', scopes: [] }), 'request_body_invalid')
    expectError(await issue(owner, { name: 'twice', scopes: ['ledger:read', 'ledger:read'] }), 'request_body_invalid')
    const missing = expectError(await issue(owner, {}), 'request_body_invalid')
    expect(missing.details?.issues).toEqual([expect.objectContaining({ path: '/name', keyword: 'required' })])
    const unknown = expectError(await issue(owner, { name: 'x', secret: 'svc_sk_test_chosen' }), 'request_body_invalid')
    expect(unknown.details?.issues).toEqual([expect.objectContaining({ path: '/secret', keyword: 'additionalProperties' })])
    expectError(await issue(owner, { name: 'x', expires_at: 'tomorrow' }), 'request_body_invalid')
    expect(await apiKeyRows(owner.tenantId)).toEqual([])
  })

  it('refuses an expires_at in the past, or now, with 400 validation_failed', async () => {
    const owner = await signupOwner(test)
    const past = expectError(await issue(owner, { name: 'stale', expires_at: new Date(clock.now().getTime() - 1000).toISOString() }), 'validation_failed')
    expect(past.details).toEqual({ field: 'expires_at' })
    expectError(await issue(owner, { name: 'stale', expires_at: clock.now().toISOString() }), 'validation_failed')
    expect(await apiKeyRows(owner.tenantId)).toEqual([])
    const future = await issue(owner, { name: 'fresh', expires_at: new Date(clock.now().getTime() + 1000).toISOString() })
    expect(future.statusCode, future.body).toBe(201)
  })

  it('requires a bearer (401 auth_token_missing)', async () => {
    const owner = await signupOwner(test)
    expectError(await test.request({ method: 'POST', url: keysUrl(owner.tenantId), payload: { name: 'anon' } }), 'auth_token_missing')
  })
})

describe('authenticating with an API key', () => {
  it('resolves to an api_key principal with the key id, tenant and scopes, and records last use', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    const me = await whoami(key.secret)
    expect(me.statusCode, me.body).toBe(200)
    expect(me.json()).toEqual({ id: key.id, type: 'api_key', tenantId: owner.tenantId, scopes: [...apiKeyScopes] })
    expect(me.json().scopes).toEqual(['ledger:read', 'audit:read', 'governance:read'])
    expect(await pollLastUsed(owner, key.id)).toBe(clock.now().toISOString())
  })

  it('reads its own tenant but not another (403 auth_tenant_mismatch)', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    const own = await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}`, token: key.secret })
    expect(own.statusCode, own.body).toBe(200)
    expect(own.json().id).toBe(owner.tenantId)
    expectError(await test.request({ method: 'GET', url: `/v1/tenants/${other.tenantId}`, token: key.secret }), 'auth_tenant_mismatch')
  })

  it('cannot use the member and API-key admin routes, nor delete the tenant (403 auth_scope_insufficient)', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    const calls = [
      { method: 'POST', url: keysUrl(owner.tenantId), payload: { name: 'self-issued' } },
      { method: 'GET', url: keysUrl(owner.tenantId) },
      { method: 'GET', url: keyUrl(owner.tenantId, key.id) },
      { method: 'POST', url: `${keyUrl(owner.tenantId, key.id)}/rotate`, payload: {} },
      { method: 'POST', url: `${keyUrl(owner.tenantId, key.id)}/revoke`, payload: {} },
      { method: 'POST', url: `/v1/tenants/${owner.tenantId}/members`, payload: { email: uniqueEmail(), role: 'admin' } },
      { method: 'GET', url: `/v1/tenants/${owner.tenantId}/members` },
      { method: 'DELETE', url: `/v1/tenants/${owner.tenantId}` },
    ] as const
    for (const call of calls) {
      const error = expectError(await test.request({ ...call, token: key.secret }), 'auth_scope_insufficient')
      expect(error.details, `${call.method} ${call.url}`).toEqual(expect.objectContaining({ required_principal_types: ['user'] }))
    }
    // Nothing happened: still one key, active, never rotated; the tenant is still there.
    const list = (await listKeys(owner)).json()
    expect(list.api_keys).toHaveLength(1)
    expect(list.api_keys[0]).toEqual(expect.objectContaining({ id: key.id, status: 'active', rotated_at: null }))
    expect((await whoami(key.secret)).statusCode).toBe(200)
  })

  it('refuses keys of the wrong environment, made-up keys and altered keys (401 auth_invalid_key)', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    // The real key, presented as a live key: keys do not cross environments.
    expectError(await whoami(`svc_sk_live_${secretBody(key.secret)}`), 'auth_invalid_key')
    expectError(await whoami(`svc_sk_live_${'a'.repeat(43)}`), 'auth_invalid_key')
    expectError(await whoami(`svc_sk_test_${'a'.repeat(43)}`), 'auth_invalid_key')
    expectError(await whoami(changeCharacter(key.secret, key.secret.length - 1)), 'auth_invalid_key')
    expectError(await whoami(`${key.secret}x`), 'auth_invalid_key')
    expectError(await whoami('svc_sk_other_abc'), 'auth_invalid_key')
    expect((await whoami(key.secret)).statusCode).toBe(200)
  })
})

describe('API keys of a deleted tenant', () => {
  it('stop working at once (401 auth_invalid_key) and their rows are gone', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    expect((await whoami(key.secret)).statusCode).toBe(200)
    const deleted = await test.request({ method: 'DELETE', url: `/v1/tenants/${owner.tenantId}`, token: owner.token })
    expect(deleted.statusCode, deleted.body).toBe(200)
    expect(deleted.json().deletedRows.api_keys).toBe(1)
    expectError(await whoami(key.secret), 'auth_invalid_key')
    expect(await apiKeyRows(owner.tenantId)).toEqual([])
  })
})

describe('API key expiry', () => {
  it('works until expires_at, then fails as 401 auth_invalid_key and reads as expired', async () => {
    const owner = await signupOwner(test)
    const expiresAt = new Date(clock.now().getTime() + hour)
    const key = await issueApiKey(test, owner, { expires_at: expiresAt.toISOString() })
    expect((await getKey(owner, key.id)).json()).toEqual(expect.objectContaining({ status: 'active', expires_at: expiresAt.toISOString() }))
    expect((await whoami(key.secret)).statusCode).toBe(200)

    await withClockAdvanced(hour - 1000, async () => {
      expect((await whoami(key.secret)).statusCode).toBe(200)
    })
    await withClockAdvanced(hour, async () => {
      expectError(await whoami(key.secret), 'auth_invalid_key')
      // The owner's 15-minute token has expired too by now.
      const token = await login(test, owner.email)
      const read = await getKey(owner, key.id, token)
      expect(read.statusCode, read.body).toBe(200)
      expect(read.json()).toEqual(expect.objectContaining({ status: 'expired', revoked_at: null }))
      // Rotating an expired key is refused: a new secret on it could never authenticate.
      expectError(await rotate(owner, key.id, {}, token), 'api_key_expired')
      expect((await getKey(owner, key.id, token)).json().secret_last_four).toBe(read.json().secret_last_four)
    })
  })
})

describe('POST /v1/tenants/{tenant_id}/api-keys/{key_id}/rotate', () => {
  it('returns a new secret; without an overlap the old one fails at once', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    expect((await whoami(key.secret)).statusCode).toBe(200)
    const response = await rotate(owner, key.id)
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(['api_key', 'secret'])
    expect(body.secret).toMatch(secretPattern)
    expect(body.secret).not.toBe(key.secret)
    expect(body.api_key).toEqual(
      expect.objectContaining({
        id: key.id,
        status: 'active',
        secret_last_four: body.secret.slice(-4),
        rotated_at: clock.now().toISOString(),
        previous_secret_expires_at: null,
        scopes: [...apiKeyScopes],
      }),
    )

    expectError(await whoami(key.secret), 'auth_invalid_key')
    const me = await whoami(body.secret)
    expect(me.statusCode, me.body).toBe(200)
    expect(me.json().id).toBe(key.id)

    const [row] = await apiKeyRows(owner.tenantId)
    expect(row!.secret_digest).toBe(hmacSha256Hex(test.config.apiKeyPepper, body.secret))
    expect(row!.previous_secret_digest).toBeNull()
    expect(await tablesContaining(test, secretBody(body.secret))).toEqual([])
    expect((await getKey(owner, key.id)).body).not.toContain(secretBody(body.secret))
  })

  it('keeps the old secret working for previous_secret_expires_in_seconds, and not a moment longer', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    const response = await rotate(owner, key.id, { previous_secret_expires_in_seconds: 3600 })
    expect(response.statusCode, response.body).toBe(200)
    const rotated = response.json()
    expect(rotated.api_key.previous_secret_expires_at).toBe(new Date(clock.now().getTime() + hour).toISOString())

    for (const secret of [key.secret, rotated.secret]) {
      const me = await whoami(secret)
      expect(me.statusCode, me.body).toBe(200)
      expect(me.json().id).toBe(key.id)
    }
    await withClockAdvanced(hour - 1000, async () => {
      expect((await whoami(key.secret)).statusCode).toBe(200)
    })
    await withClockAdvanced(hour, async () => {
      expectError(await whoami(key.secret), 'auth_invalid_key')
      expect((await whoami(rotated.secret)).statusCode).toBe(200)
    })
  })

  it('keeps the digest directory to the secrets the key answers to: current, and previous during an overlap', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    const digestOf = (secret: string) => hmacSha256Hex(test.config.apiKeyPepper, secret)
    const directory = async () =>
      (
        await queryRows<{ secret_digest: string; owner_tenant_id: string; api_key_id: string }>(
          test.runtime.db.orm,
          sql`select secret_digest, owner_tenant_id, api_key_id from api_key_digests where api_key_id = ${key.id} order by secret_digest`,
        )
      ).map((row) => ({ ...row }))
    const entry = (secret: string) => ({ secret_digest: digestOf(secret), owner_tenant_id: owner.tenantId, api_key_id: key.id })
    const sorted = (entries: Array<ReturnType<typeof entry>>) => entries.sort((a, b) => a.secret_digest.localeCompare(b.secret_digest))
    expect(await directory()).toEqual([entry(key.secret)])

    const overlapping = (await rotate(owner, key.id, { previous_secret_expires_in_seconds: 3600 })).json().secret as string
    expect(await directory()).toEqual(sorted([entry(key.secret), entry(overlapping)]))
    // A second rotation without overlap: the first secret's digest and the overlap's both leave.
    const latest = (await rotate(owner, key.id)).json().secret as string
    expect(await directory()).toEqual([entry(latest)])
    expectError(await whoami(key.secret), 'auth_invalid_key')
    expectError(await whoami(overlapping), 'auth_invalid_key')
    expect((await whoami(latest)).statusCode).toBe(200)
  })

  it('refuses an overlap beyond seven days or below zero (400 request_body_invalid)', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    expectError(await rotate(owner, key.id, { previous_secret_expires_in_seconds: 7 * 24 * 3600 + 1 }), 'request_body_invalid')
    expectError(await rotate(owner, key.id, { previous_secret_expires_in_seconds: -1 }), 'request_body_invalid')
    expectError(await rotate(owner, key.id, { previous_secret_expires_in_seconds: 1.5 }), 'request_body_invalid')
    // Nothing rotated: the original secret still works.
    expect((await whoami(key.secret)).statusCode).toBe(200)
    expect((await getKey(owner, key.id)).json().rotated_at).toBeNull()
  })

  it('refuses to rotate a revoked key (409 api_key_revoked)', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    expect((await revoke(owner, key.id)).statusCode).toBe(200)
    const [before] = await apiKeyRows(owner.tenantId)
    expectError(await rotate(owner, key.id), 'api_key_revoked')
    expectError(await rotate(owner, key.id, { previous_secret_expires_in_seconds: 60 }), 'api_key_revoked')
    const [after] = await apiKeyRows(owner.tenantId)
    expect(after).toEqual(before)
    expectError(await whoami(key.secret), 'auth_invalid_key')
  })
})

describe('POST /v1/tenants/{tenant_id}/api-keys/{key_id}/revoke', () => {
  it('stops the key at once and is idempotent (same revoked_at, one audit event)', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    expect((await whoami(key.secret)).statusCode).toBe(200)
    // The use is recorded off the request path: let it land, so both revocations see the same key.
    expect(await pollLastUsed(owner, key.id)).not.toBeNull()
    const revokedAt = clock.now().toISOString()
    const first = await revoke(owner, key.id)
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json()).toEqual(expect.objectContaining({ id: key.id, status: 'revoked', revoked_at: revokedAt }))
    expectError(await whoami(key.secret), 'auth_invalid_key')

    await withClockAdvanced(5000, async () => {
      const second = await revoke(owner, key.id)
      expect(second.statusCode, second.body).toBe(200)
      expect(second.json()).toEqual(first.json())
    })
    expect(await auditActions(test, owner.tenantId, { action: 'api_key.revoked' })).toHaveLength(1)
  })

  it('also ends the overlap of a secret rotated out', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    const rotated = (await rotate(owner, key.id, { previous_secret_expires_in_seconds: 3600 })).json()
    expect((await whoami(key.secret)).statusCode).toBe(200)
    const revoked = await revoke(owner, key.id)
    expect(revoked.json()).toEqual(expect.objectContaining({ status: 'revoked', previous_secret_expires_at: null }))
    expectError(await whoami(key.secret), 'auth_invalid_key')
    expectError(await whoami(rotated.secret), 'auth_invalid_key')
  })

  it('filters the listing by status: active, revoked, expired', async () => {
    const owner = await signupOwner(test)
    const active = await issueApiKey(test, owner, { name: 'active' })
    const revoked = await issueApiKey(test, owner, { name: 'revoked' })
    const expiring = await issueApiKey(test, owner, { name: 'expiring', expires_at: new Date(clock.now().getTime() + hour).toISOString() })
    expect((await revoke(owner, revoked.id)).statusCode).toBe(200)

    const ids = async (query: string, token = owner.token) => {
      const response = await listKeys(owner, query, token)
      expect(response.statusCode, response.body).toBe(200)
      return (response.json().api_keys as { id: string }[]).map((key) => key.id).sort()
    }
    expect(await ids('')).toEqual([active.id, revoked.id, expiring.id].sort())
    expect(await ids('?status=active')).toEqual([active.id, expiring.id].sort())
    expect(await ids('?status=revoked')).toEqual([revoked.id])
    expect(await ids('?status=expired')).toEqual([])

    await withClockAdvanced(hour, async () => {
      const token = await login(test, owner.email)
      expect(await ids('?status=active', token)).toEqual([active.id])
      expect(await ids('?status=revoked', token)).toEqual([revoked.id])
      expect(await ids('?status=expired', token)).toEqual([expiring.id])
      const listed = (await listKeys(owner, '?status=expired', token)).json().api_keys
      expect(listed[0].status).toBe('expired')
    })
    expectError(await listKeys(owner, '?status=deleted'), 'request_params_invalid')
  })
})

describe('GET /v1/tenants/{tenant_id}/api-keys pagination', () => {
  it('pages with limit and next_cursor, and ends with next_cursor null', async () => {
    const owner = await signupOwner(test)
    const issued = [await issueApiKey(test, owner), await issueApiKey(test, owner), await issueApiKey(test, owner)]
    const first = await listKeys(owner, '?limit=2')
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json().api_keys).toHaveLength(2)
    expect(first.json().next_cursor).toEqual(expect.any(String))

    const second = await listKeys(owner, `?limit=2&cursor=${encodeURIComponent(first.json().next_cursor)}`)
    expect(second.statusCode, second.body).toBe(200)
    expect(second.json().api_keys).toHaveLength(1)
    expect(second.json().next_cursor).toBeNull()

    const seen = [...first.json().api_keys, ...second.json().api_keys].map((key: { id: string }) => key.id)
    expect(new Set(seen).size).toBe(3)
    expect([...seen].sort()).toEqual(issued.map((key) => key.id).sort())
    expect(JSON.stringify([first.json(), second.json()])).not.toContain(secretBody(issued[0]!.secret))

    // A page that ends exactly at the last key says so.
    const exact = await listKeys(owner, '?limit=3')
    expect(exact.json().api_keys).toHaveLength(3)
    expect(exact.json().next_cursor).toBeNull()
  })

  it('refuses an altered cursor or one from another tenant (400 invalid_cursor)', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    for (let index = 0; index < 3; index += 1) await issueApiKey(test, owner)
    for (let index = 0; index < 2; index += 1) await issueApiKey(test, other)
    const cursor = (await listKeys(owner, '?limit=1')).json().next_cursor as string
    expect(cursor).toEqual(expect.any(String))
    expect((await listKeys(owner, `?limit=1&cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(200)

    const dot = cursor.indexOf('.')
    expect(dot).toBeGreaterThan(0)
    for (const tampered of [changeCharacter(cursor, 0), changeCharacter(cursor, dot - 1), changeCharacter(cursor, dot + 1), changeCharacter(cursor, cursor.length - 1)]) {
      expect(tampered).not.toBe(cursor)
      expectError(await listKeys(owner, `?limit=1&cursor=${encodeURIComponent(tampered)}`), 'invalid_cursor')
    }
    expectError(await listKeys(owner, '?cursor=not-a-cursor'), 'invalid_cursor')

    const foreign = (await listKeys(other, '?limit=1')).json().next_cursor as string
    expect(foreign).toEqual(expect.any(String))
    expectError(await listKeys(owner, `?limit=1&cursor=${encodeURIComponent(foreign)}`), 'invalid_cursor')
  })

  it('bounds limit to 1..500 (400 request_params_invalid)', async () => {
    const owner = await signupOwner(test)
    await issueApiKey(test, owner)
    for (const limit of ['0', '501', '-1', 'abc']) {
      const error = expectError(await listKeys(owner, `?limit=${limit}`), 'request_params_invalid')
      expect(error.details?.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/limit' })]))
    }
    expect((await listKeys(owner, '?limit=500')).statusCode).toBe(200)
    expect((await listKeys(owner, '?limit=1')).statusCode).toBe(200)
    expectError(await listKeys(owner, '?unknown=1'), 'request_params_invalid')
  })
})

describe('API keys across tenants', () => {
  it("answers another tenant's key id under your own path with 404 api_key_not_found", async () => {
    const a = await signupOwner(test)
    const b = await signupOwner(test)
    const key = await issueApiKey(test, a)
    expectError(await getKey(b, key.id), 'api_key_not_found')
    expectError(await rotate(b, key.id), 'api_key_not_found')
    expectError(await rotate(b, key.id, { previous_secret_expires_in_seconds: 60 }), 'api_key_not_found')
    expectError(await revoke(b, key.id), 'api_key_not_found')
    expect((await listKeys(b)).json()).toEqual({ api_keys: [], next_cursor: null })

    // A's key is untouched.
    const read = (await getKey(a, key.id)).json()
    expect(read).toEqual(expect.objectContaining({ status: 'active', rotated_at: null, revoked_at: null }))
    expect((await whoami(key.secret)).statusCode).toBe(200)
  })

  it("refuses another tenant's path with 403 auth_tenant_mismatch", async () => {
    const a = await signupOwner(test)
    const b = await signupOwner(test)
    const key = await issueApiKey(test, a)
    const asB = { ...a, token: b.token }
    expectError(await getKey(asB, key.id), 'auth_tenant_mismatch')
    expectError(await listKeys(asB), 'auth_tenant_mismatch')
    expectError(await rotate(asB, key.id), 'auth_tenant_mismatch')
    expectError(await revoke(asB, key.id), 'auth_tenant_mismatch')
    expectError(await issue(asB, { name: 'planted' }), 'auth_tenant_mismatch')
    expect((await listKeys(a)).json().api_keys).toEqual([expect.objectContaining({ id: key.id, status: 'active', rotated_at: null })])
    expect((await whoami(key.secret)).statusCode).toBe(200)
  })

  it('answers an unknown key id with 404, whatever its shape (issue 15, item 2)', async () => {
    const owner = await signupOwner(test)
    expectError(await getKey(owner, `key_${'0'.repeat(26)}`), 'api_key_not_found')
    expectError(await revoke(owner, `key_${'0'.repeat(26)}`), 'api_key_not_found')
    expectError(await getKey(owner, 'key_nope'), 'api_key_not_found')
    expectError(await revoke(owner, 'not-a-key'), 'api_key_not_found')
    // The guard runs before validation: a malformed tenant id is simply not the caller's tenant.
    expectError(await test.request({ method: 'GET', url: keyUrl('not-a-uuid', `key_${'0'.repeat(26)}`), token: owner.token }), 'auth_tenant_mismatch')
  })
})

describe('API key audit trail', () => {
  it('audits issue, rotate and revoke, attributed to the caller, and never stores a secret in the chain', async () => {
    const owner = await signupOwner(test)
    const issued = await issue(owner, { name: 'audited', scopes: ['ledger:read', 'audit:read'] })
    expect(issued.statusCode).toBe(201)
    const key = issued.json()
    const rotated = (await rotate(owner, key.api_key.id, { previous_secret_expires_in_seconds: 600 })).json()
    expect((await revoke(owner, key.api_key.id)).statusCode).toBe(200)

    const rows = await auditEvents(test, owner.tenantId, { entityId: key.api_key.id })
    expect(rows.map((row) => row.action)).toEqual(['api_key.issued', 'api_key.rotated', 'api_key.revoked'])
    for (const row of rows) {
      expect(row).toEqual(expect.objectContaining({ actor_type: 'user', actor_id: owner.userId, entity_type: 'api_key' }))
    }
    expect(rows[0]!.outputs).toEqual({ environment: 'test', scopes: ['ledger:read', 'audit:read'], expires_at: null })
    expect(rows[1]!.outputs).toEqual({ previous_secret_overlap_seconds: 600 })

    const text = JSON.stringify(await auditEvents(test, owner.tenantId))
    expect(text).toContain(key.api_key.id)
    for (const secret of [key.secret, rotated.secret]) expect(text).not.toContain(secretBody(secret))
    expect(await tablesContaining(test, secretBody(key.secret))).toEqual([])
    expect(await tablesContaining(test, secretBody(rotated.secret))).toEqual([])
  })
})

describe('Idempotency-Key on the API-key commands', () => {
  const newKey = newIdempotencyKey
  const action = (url: string, token: string, payload?: Record<string, unknown>) => ({ method: 'POST' as const, url, token, ...(payload === undefined ? {} : { payload }) })
  /** A case in a fresh tenant, whose runs are the owner's audit events of `audited`. */
  const caseOf = (status: number, audited: string, prepare: (owner: TenantOwner) => Promise<Pick<KeyedCase, 'request' | 'other'>>) => async (): Promise<KeyedCase> => {
    const owner = await signupOwner(test)
    return { ...(await prepare(owner)), status, runs: async () => (await auditActions(test, owner.tenantId, { action: audited })).length }
  }

  describeKeyedRoutes(() => test, [
    [
      'POST /v1/tenants/{tenant_id}/api-keys',
      caseOf(201, 'api_key.issued', async (owner) => ({
        request: action(keysUrl(owner.tenantId), owner.token, { name: 'keyed' }),
        other: action(keysUrl(owner.tenantId), owner.token, { name: 'keyed', scopes: ['ledger:read'] }),
      })),
    ],
    [
      'POST /v1/tenants/{tenant_id}/api-keys/{key_id}/rotate',
      caseOf(200, 'api_key.rotated', async (owner) => {
        const key = await issueApiKey(test, owner)
        return {
          request: action(`${keyUrl(owner.tenantId, key.id)}/rotate`, owner.token, {}),
          other: action(`${keyUrl(owner.tenantId, key.id)}/rotate`, owner.token, { previous_secret_expires_in_seconds: 60 }),
        }
      }),
    ],
    [
      'POST /v1/tenants/{tenant_id}/api-keys/{key_id}/revoke',
      caseOf(200, 'api_key.revoked', async (owner) => {
        const [key, another] = [await issueApiKey(test, owner), await issueApiKey(test, owner)]
        return {
          request: action(`${keyUrl(owner.tenantId, key.id)}/revoke`, owner.token),
          other: action(`${keyUrl(owner.tenantId, another.id)}/revoke`, owner.token),
        }
      }),
    ],
  ])

  it('replays an issue with the same secret, which authenticates and which no table holds', async () => {
    const owner = await signupOwner(test)
    const request = keyed(action(keysUrl(owner.tenantId), owner.token, { name: 'keyed' }), newKey())
    const first = (await test.request(request)).json()
    const replay = (await test.request(request)).json()
    expect(replay.secret).toBe(first.secret)
    expect(replay.secret).toMatch(secretPattern)
    expect((await whoami(replay.secret)).statusCode).toBe(200)
    expect((await listKeys(owner)).json().api_keys).toHaveLength(1)
    expect(await tablesContaining(test, secretBody(first.secret))).toEqual([])
  })

  it('replays a rotation with the secret it made: the key was rotated once, and that secret works', async () => {
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    const request = keyed(action(`${keyUrl(owner.tenantId, key.id)}/rotate`, owner.token, {}), newKey())
    const first = (await test.request(request)).json()
    const replay = (await test.request(request)).json()
    expect(replay.secret).toBe(first.secret)
    expect(replay.secret).not.toBe(key.secret)
    expectError(await whoami(key.secret), 'auth_invalid_key')
    expect((await whoami(replay.secret)).statusCode).toBe(200)
    expect(await tablesContaining(test, secretBody(first.secret))).toEqual([])
  })

  it('scopes keys to the tenant: the same key issues a key in another tenant', async () => {
    const key = newKey()
    for (const owner of [await signupOwner(test), await signupOwner(test)]) {
      const response = await test.request(keyed(action(keysUrl(owner.tenantId), owner.token, { name: 'keyed' }), key))
      expect(response.statusCode, response.body).toBe(201)
      expect(response.headers['idempotent-replayed']).toBeUndefined()
      expect(response.json().api_key.tenant_id).toBe(owner.tenantId)
    }
  })
})

describe('who may administer API keys', () => {
  it('lets an admin member issue, list and revoke keys', async () => {
    const owner = await signupOwner(test)
    const admin = await addMember(test, owner, 'admin')
    const response = await issue({ tenantId: owner.tenantId, token: admin.token }, { name: 'by admin' })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json().api_key.created_by).toBe(admin.userId)
    expect((await listKeys(owner, '', admin.token)).json().api_keys).toHaveLength(1)
    expect((await revoke(owner, response.json().api_key.id, admin.token)).statusCode).toBe(200)
  })

  it.each(['viewer', 'approver'] as const)('refuses a %s member (403 auth_scope_insufficient)', async (role) => {
    const owner = await signupOwner(test)
    const member = await addMember(test, owner, role)
    const key = await issueApiKey(test, owner)
    const error = expectError(await issue({ tenantId: owner.tenantId, token: member.token }, { name: 'by member' }), 'auth_scope_insufficient')
    expect(error.details).toEqual(expect.objectContaining({ missing: ['surfaces:admin'] }))
    expectError(await listKeys(owner, '', member.token), 'auth_scope_insufficient')
    expectError(await getKey(owner, key.id, member.token), 'auth_scope_insufficient')
    expectError(await rotate(owner, key.id, {}, member.token), 'auth_scope_insufficient')
    expectError(await revoke(owner, key.id, member.token), 'auth_scope_insufficient')
    expect((await listKeys(owner)).json().api_keys).toEqual([expect.objectContaining({ id: key.id, status: 'active', rotated_at: null })])
  })
})

describe('API keys in production', () => {
  const productionBaseUrl = 'https://steward.test'

  /** The envelope with a production docs_url (the harness's expectError pins the sandbox base URL). */
  function expectProductionError(response: LightMyRequestResponse, status: number, code: string) {
    expect(response.statusCode, response.body).toBe(status)
    const body = response.json()
    expect(Object.keys(body)).toEqual(['error'])
    expect(body.error.code).toBe(code)
    expect(body.error.request_id).toBe(response.headers['x-request-id'])
    expect(body.error.docs_url).toBe(`${productionBaseUrl}/docs/errors#${code}`)
  }

  /** A production app and a tenant owner in it (self-serve signup is off: provisioned, invitation by mail). */
  async function productionOwner(env: Record<string, string> = {}) {
    const production = await createTestApp({
      env: { STEWARD_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:2525', PUBLIC_BASE_URL: productionBaseUrl, ...env },
      workers: true,
    })
    const email = uniqueEmail('prod-owner')
    const provisioned = await production.request({
      method: 'POST',
      url: '/v1/tenants',
      headers: { 'x-platform-service-auth': testPlatformSecret },
      payload: { name: 'Production tenant', owner_email: email },
    })
    expect(provisioned.statusCode, provisioned.body).toBe(201)
    const tenantId = provisioned.json().tenant.id as string
    expect(provisioned.json().owner).toEqual(expect.objectContaining({ invitation_sent: true }))
    expect(provisioned.json().owner.invitation_token).toBeUndefined()
    await expect.poll(() => production.mail.some((mail) => mail.to === email), { timeout: 20_000, interval: 100 }).toBe(true)
    const invitationToken = /token:\s+(\S+)/.exec(production.mail.find((mail) => mail.to === email)!.text)?.[1]
    const accepted = await production.request({
      method: 'POST',
      url: '/v1/auth/accept-invitation',
      payload: { tenant_id: tenantId, token: invitationToken, password: testPassword },
    })
    expect(accepted.statusCode, accepted.body).toBe(200)
    return { production, owner: { tenantId, token: await login(production, email) } }
  }

  it('refuses to issue keys while production key auth is off, and fails every svc_sk_ bearer closed', { timeout: 90_000 }, async () => {
    const sandboxOwner = await signupOwner(test)
    const sandboxKey = await issueApiKey(test, sandboxOwner)
    const { production, owner } = await productionOwner()
    try {
      expectProductionError(await issue(owner, { name: 'live key' }, production), 403, 'api_key_auth_disabled')
      // Existing keys could still be listed and revoked; there are none.
      expect((await production.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}/api-keys`, token: owner.token })).json().api_keys).toEqual([])
      expectProductionError(await whoami(`svc_sk_live_${'a'.repeat(43)}`, production), 401, 'auth_invalid_key')
      // Sandbox keys do not cross into production, real or made up.
      expectProductionError(await whoami(sandboxKey.secret, production), 401, 'auth_invalid_key')
      expectProductionError(await whoami(`svc_sk_test_${'a'.repeat(43)}`, production), 401, 'auth_invalid_key')
      expect((await whoami(sandboxKey.secret)).statusCode).toBe(200)
    } finally {
      await production.close()
    }
  })

  it('issues svc_sk_live_ keys that authenticate once production key auth is enabled, and never cross environments', { timeout: 90_000 }, async () => {
    const sandboxOwner = await signupOwner(test)
    const sandboxKey = await issueApiKey(test, sandboxOwner)
    const { production, owner } = await productionOwner({ API_KEY_AUTH_PRODUCTION_ENABLED: 'true' })
    try {
      const response = await issue(owner, { name: 'live key' }, production)
      expect(response.statusCode, response.body).toBe(201)
      const liveKey = response.json()
      expect(liveKey.secret).toMatch(/^svc_sk_live_[A-Za-z0-9_-]{43}$/)
      expect(liveKey.api_key).toEqual(expect.objectContaining({ environment: 'live', prefix: 'svc_sk_live_', status: 'active' }))
      const me = await whoami(liveKey.secret, production)
      expect(me.statusCode, me.body).toBe(200)
      expect(me.json()).toEqual(expect.objectContaining({ type: 'api_key', id: liveKey.api_key.id, tenantId: owner.tenantId }))
      // The live key is refused by the sandbox, and sandbox keys by production.
      expectError(await whoami(liveKey.secret), 'auth_invalid_key')
      expectProductionError(await whoami(sandboxKey.secret, production), 401, 'auth_invalid_key')
      expect(await tablesContaining(production, secretBody(liveKey.secret))).toEqual([])
    } finally {
      await production.close()
    }
  })
})
