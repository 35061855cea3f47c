/**
 * URL safety for outbound requests (src/platform/net/egress.ts): the address classifier, the URL and DNS checks
 * under the production and sandbox policies, the pinned connection, and a production app that refuses
 * private destinations at registration and again at delivery (DNS rebinding), for webhooks and for Raw's
 * fetch by URL, IPv6 forms that carry an IPv4 address included. DNS is always a fake resolver here: no
 * test depends on real name resolution. (The table of every spelling is src/platform/net/egress.test.ts.)
 */
import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../src/platform/db/database.ts'
import {
  classifyAddress,
  productionEgressPolicy,
  type EgressPolicy,
  EgressRefusedError,
  EgressRequestError,
  getFollowingRedirects,
  resolveEgressTarget,
  sendPinned,
  type HostResolver,
  type ResolvedAddress,
} from '../../src/platform/net/egress.ts'
import { artifactRow, startFileServer, uniqueCsv, type FileServer } from '../fixtures/raw/ingest/raw-test-kit.ts'
import { loadConfig } from '../../src/main/config.ts'
import { createTestApp, expectError, login, signupOwner, testPassword, testPlatformSecret, uniqueEmail, type TenantOwner, type TestApp } from '../support/harness.ts'
import { changeMember, createWebhookTestApp, deliveriesOf, type WebhookTestApp } from '../support/webhook-app.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const production = productionEgressPolicy
// Everything allowed but the URL's own faults: the pinned-connection tests below talk to local receivers.
const unrestricted: EgressPolicy = { httpsOnly: false, allowNonPublicAddresses: true }

/** A resolver answering from a table; a function entry answers differently on each call. Unknown names fail like NXDOMAIN. */
function fakeResolver(table: Record<string, string[] | ((call: number) => string[])>): HostResolver & { calls: string[] } {
  const calls: string[] = []
  const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname)
    const entry = table[hostname]
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    const answers = typeof entry === 'function' ? entry(calls.filter((name) => name === hostname).length) : entry
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return Object.assign(resolver, { calls })
}

async function refusal(promise: Promise<unknown>): Promise<EgressRefusedError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(EgressRefusedError)
  return error as EgressRefusedError
}

describe('classifyAddress', () => {
  it.each([
    // IPv4
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'], // cloud metadata
    ['169.254.0.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['192.0.2.10', 'reserved'], // TEST-NET-1
    ['198.51.100.7', 'reserved'], // TEST-NET-2
    ['203.0.113.9', 'reserved'], // TEST-NET-3
    ['198.18.0.1', 'reserved'], // benchmarking
    ['240.0.0.1', 'reserved'],
    // IPv6
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'], // documentation
    ['64:ff9b::a00:1', 'rfc6052'], // NAT64 of 10.0.0.1
    ['2002:a00:1::1', '6to4'], // 6to4 of 10.0.0.1
    ['2001:0:4136:e378::1', 'teredo'],
    // IPv4-mapped IPv6 is classified as the IPv4 address it carries.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:100.64.1.1', 'carrierGradeNat'],
  ])('%s is %s, not public', (address, range) => {
    expect(classifyAddress(address)).toMatchObject({ range, isPublic: false })
  })

  it.each([
    ['93.184.216.34', '93.184.216.34'],
    ['8.8.8.8', '8.8.8.8'],
    ['172.32.0.1', '172.32.0.1'], // just past 172.16/12
    ['100.128.0.1', '100.128.0.1'], // just past 100.64/10
    ['169.255.0.1', '169.255.0.1'],
    ['2606:4700:4700::1111', '2606:4700:4700::1111'],
    ['2a00:1450:4001:80b::200e', '2a00:1450:4001:80b::200e'],
    ['::ffff:93.184.216.34', '93.184.216.34'],
  ])('%s is public', (address, canonical) => {
    expect(classifyAddress(address)).toEqual({ address: canonical, range: 'unicast', isPublic: true })
  })

  it.each(['localhost', '', '1.2.3', '999.1.1.1', 'not-an-address'])('throws on %j (a programming error: only addresses are classified)', (text) => {
    expect(() => classifyAddress(text)).toThrow(TypeError)
  })
})

describe('resolveEgressTarget', () => {
  const resolver = fakeResolver({
    'public.example': ['93.184.216.34'],
    'dual.example': ['93.184.216.34', '2606:4700:4700::1111'],
    'internal.example': ['10.0.0.5'],
    'metadata.example': ['169.254.169.254'],
    'cgnat.example': ['100.64.3.3'],
    'localhost.example': ['127.0.0.1', '::1'],
    'v6-private.example': ['fd00::5'],
    'mapped.example': ['::ffff:192.168.0.1'],
    // A public answer first does not launder a private one after it.
    'mixed.example': ['93.184.216.34', '10.0.0.5'],
    'empty.example': [],
  })

  it.each([
    ['https://public.example/hooks', '93.184.216.34'],
    ['https://dual.example:8443/hooks?x=1', '93.184.216.34'],
    ['https://93.184.216.34/hooks', '93.184.216.34'],
    ['https://[2606:4700:4700::1111]/hooks', '2606:4700:4700::1111'],
  ])('allows %s in production, pinned to %s', async (url, address) => {
    const target = await resolveEgressTarget(url, production, resolver)
    expect(target.address.address).toBe(address)
  })

  it.each([
    ['http://public.example/hooks', 'scheme_not_allowed'],
    ['https://internal.example/hooks', 'address_not_public'],
    ['https://metadata.example/latest/meta-data', 'address_not_public'],
    ['https://cgnat.example/', 'address_not_public'],
    ['https://localhost.example/', 'address_not_public'],
    ['https://v6-private.example/', 'address_not_public'],
    ['https://mapped.example/', 'address_not_public'],
    ['https://mixed.example/', 'address_not_public'],
    ['https://127.0.0.1/', 'address_not_public'],
    ['https://169.254.169.254/latest/meta-data/', 'address_not_public'],
    ['https://[::1]/', 'address_not_public'],
    ['https://[::ffff:127.0.0.1]/', 'address_not_public'],
    ['https://[fe80::1]/', 'address_not_public'],
    ['https://2130706433/', 'address_not_public'], // 127.0.0.1 as one decimal number
    ['https://0x7f.1/', 'address_not_public'], // 127.0.0.1 in hex shorthand
    ['https://017700000001/', 'address_not_public'], // 127.0.0.1 in octal
    ['https://0/', 'address_not_public'], // 0.0.0.0
    ['https://unknown.example/', 'host_unresolvable'],
    ['https://empty.example/', 'host_unresolvable'],
    ['https://user:secret@public.example/', 'credentials_in_url'],
    ['ftp://public.example/', 'scheme_not_allowed'],
    ['javascript:alert(1)', 'scheme_not_allowed'],
    ['not a url', 'url_invalid'],
    ['//public.example/hooks', 'url_invalid'],
  ])('refuses %s in production (%s)', async (url, reason) => {
    expect((await refusal(resolveEgressTarget(url, production, resolver))).reason).toBe(reason)
  })

  it('names a host name\'s range in the refusal but never the address it resolved to (no internal DNS oracle)', async () => {
    const error = await refusal(resolveEgressTarget('https://metadata.example/x', production, resolver))
    expect(error.details).toEqual({ host: 'metadata.example', range: 'linkLocal' })
    expect(error.message).not.toContain('169.254.169.254')
  })

  it('names an IP literal\'s address and range in the refusal, for the caller to fix', async () => {
    const error = await refusal(resolveEgressTarget('https://169.254.169.254/x', production, resolver))
    expect(error.details).toEqual({ host: '169.254.169.254', address: '169.254.169.254', range: 'linkLocal' })
  })

  it.each([
    ['http://internal.example/hooks', '10.0.0.5'],
    ['http://localhost.example:8080/hooks', '127.0.0.1'],
    ['http://127.0.0.1:3000/hooks', '127.0.0.1'],
    ['http://[::1]:3000/hooks', '::1'],
    ['https://metadata.example/', '169.254.169.254'],
  ])('allows %s under a policy open to non-public addresses', async (url, address) => {
    expect((await resolveEgressTarget(url, unrestricted, resolver)).address.address).toBe(address)
  })

  it.each([
    ['ftp://127.0.0.1/', 'scheme_not_allowed'],
    ['http://user:pw@127.0.0.1/', 'credentials_in_url'],
    ['http://unknown.example/', 'host_unresolvable'],
  ])('still refuses %s under a policy open to non-public addresses (%s)', async (url, reason) => {
    expect((await refusal(resolveEgressTarget(url, unrestricted, resolver))).reason).toBe(reason)
  })
})

describe('sendPinned', () => {
  let receiver: WebhookReceiver
  beforeAll(async () => {
    receiver = await startWebhookReceiver()
  })
  afterAll(async () => receiver?.close())

  it('connects to the address it checked, never resolving the name again', async () => {
    const port = new URL(receiver.url('/')).port
    // The name resolves once (at the check) to loopback; any later resolution would fail, since
    // `.invalid` never resolves, and would answer a different address if it did.
    const resolver = fakeResolver({ 'pinned.invalid': (call) => (call === 1 ? ['127.0.0.1'] : ['10.9.9.9']) })
    const target = await resolveEgressTarget(`http://pinned.invalid:${port}/pinned`, unrestricted, resolver)
    const response = await sendPinned(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 2000, responseBytesMax: 1024 })
    expect(response.statusCode).toBe(200)
    expect(response.body.toString()).toBe('ok')
    expect(resolver.calls).toEqual(['pinned.invalid'])
    const [delivery] = receiver.deliveriesTo('/pinned')
    expect(delivery!.headers.host).toBe(`pinned.invalid:${port}`)
  })

  it('fails with timeout when no response arrives in time, and bounds a collected body', async () => {
    receiver.answer('/slow', 'hang')
    const slow = await resolveEgressTarget(receiver.url('/slow'), unrestricted, fakeResolver({}))
    const timedOut = await sendPinned(slow, { method: 'GET', headers: {}, timeoutMs: 200, responseBytesMax: 0 }).catch((error: unknown) => error)
    expect(timedOut).toBeInstanceOf(EgressRequestError)
    expect((timedOut as EgressRequestError).reason).toBe('timeout')

    receiver.answer('/large', 500)
    const large = await resolveEgressTarget(receiver.url('/large'), unrestricted, fakeResolver({}))
    const tooLarge = await sendPinned(large, { method: 'GET', headers: {}, timeoutMs: 2000, responseBytesMax: 4 }).catch((error: unknown) => error)
    expect((tooLarge as EgressRequestError).reason).toBe('response_too_large')
  })

  it('does not follow redirects', async () => {
    receiver.answer('/moved', 302)
    const target = await resolveEgressTarget(receiver.url('/moved'), unrestricted, fakeResolver({}))
    expect((await sendPinned(target, { method: 'GET', headers: {}, timeoutMs: 2000, responseBytesMax: 0 })).statusCode).toBe(302)
    expect(receiver.received.filter((delivery) => delivery.path !== '/moved' && delivery.path.startsWith('/mov'))).toEqual([])
  })
})

describe('a production app', () => {
  const productionBaseUrl = 'https://steward.test'
  let app: WebhookTestApp
  let owner: { tenantId: string; token: string }
  const resolver = fakeResolver({
    'hooks.example.com': ['93.184.216.34'],
    'internal.example.com': ['10.0.0.7'],
    'metadata.example.com': ['169.254.169.254'],
    'v6.example.com': ['2606:4700:4700::1111', 'fd00::7'],
    // Public when registered, private ever after: a DNS-rebinding attempt.
    'rebind.example.com': (call) => (call === 1 ? ['93.184.216.34'] : ['10.0.0.7']),
    // IPv6 forms that carry an IPv4 address, as DNS answers (bücher.example.com arrives as punycode).
    'compatible.example.com': ['::a9fe:a9fe'],
    'xn--bcher-kva.example.com': ['::7f00:1'],
    'nat64.example.com': ['64:ff9b::a00:1'],
    'rebind-embedded.example.com': (call) => (call === 1 ? ['93.184.216.34'] : ['::a9fe:a9fe']),
  })

  beforeAll(async () => {
    app = await createWebhookTestApp({
      env: { STEWARD_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:2525', PUBLIC_BASE_URL: productionBaseUrl },
      workers: true,
      webhooks: { resolver, retryBaseSeconds: 60 },
    })
    const email = uniqueEmail('prod-webhooks')
    const provisioned = await app.request({
      method: 'POST',
      url: '/v1/tenants',
      headers: { 'x-platform-service-auth': testPlatformSecret },
      payload: { name: 'Production tenant', owner_email: email },
    })
    expect(provisioned.statusCode, provisioned.body).toBe(201)
    const tenantId = provisioned.json().tenant.id as string
    // The invitation is mailed by the mail-send job (expect.poll is not available outside a test).
    for (let waited = 0; waited < 20_000 && !app.mail.some((mail) => mail.to === email); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100))
    const invitationToken = /token:\s+(\S+)/.exec(app.mail.find((mail) => mail.to === email)!.text)?.[1]
    const accepted = await app.request({ method: 'POST', url: '/v1/auth/accept-invitation', payload: { tenant_id: tenantId, token: invitationToken, password: testPassword } })
    expect(accepted.statusCode, accepted.body).toBe(200)
    owner = { tenantId, token: await login(app, email) }
  })
  afterAll(async () => app?.close())

  const register = (url: string, extra: Record<string, unknown> = {}) =>
    app.request({ method: 'POST', url: '/v1/webhooks', token: owner.token, payload: { url, ...extra } })

  function expectRefused(response: LightMyRequestResponse, reason: string) {
    expect(response.statusCode, response.body).toBe(400)
    const { error } = response.json()
    expect(error.code).toBe('webhook_url_refused')
    expect(error.details.reason).toBe(reason)
    expect(error.docs_url).toBe(`${productionBaseUrl}/docs/errors#webhook_url_refused`)
  }

  it.each([
    ['http://127.0.0.1:8080/hooks', 'scheme_not_allowed'],
    ['http://hooks.example.com/hooks', 'scheme_not_allowed'],
    ['https://127.0.0.1/hooks', 'address_not_public'],
    ['https://[::1]/hooks', 'address_not_public'],
    ['https://[::ffff:169.254.169.254]/latest', 'address_not_public'],
    ['https://internal.example.com/hooks', 'address_not_public'],
    ['https://metadata.example.com/latest/meta-data', 'address_not_public'],
    ['https://v6.example.com/hooks', 'address_not_public'],
    ['https://nowhere.example.com/hooks', 'host_unresolvable'],
  ])('refuses to register %s (%s)', async (url, reason) => {
    expectRefused(await register(url), reason)
  })

  // Production accepted https://[::7f00:1]:PORT/hook with 201 (issue 13): ipaddr.js calls ::/96 unicast.
  it.each([
    ['https://[::7f00:1]:8443/hook', '::7f00:1', 'ipv4Compatible', '127.0.0.1', 'loopback'],
    ['https://[::127.0.0.1]:8443/hook', '::7f00:1', 'ipv4Compatible', '127.0.0.1', 'loopback'],
    ['https://[::a9fe:a9fe]/latest/meta-data/', '::a9fe:a9fe', 'ipv4Compatible', '169.254.169.254', 'linkLocal'],
    ['https://[::a00:1]/hooks', '::a00:1', 'ipv4Compatible', '10.0.0.1', 'private'],
    ['https://[::ffff:0:a9fe:a9fe]/hooks', '::ffff:0:a9fe:a9fe', 'rfc6145', '169.254.169.254', 'linkLocal'],
    ['https://[64:ff9b::7f00:1]/hooks', '64:ff9b::7f00:1', 'rfc6052', '127.0.0.1', 'loopback'],
    ['https://[2002:a9fe:a9fe::1]/hooks', '2002:a9fe:a9fe::1', '6to4', '169.254.169.254', 'linkLocal'],
    ['https://[2001:0:4136:e378:8000:63bf:5601:5601]/hooks', '2001:0:4136:e378:8000:63bf:5601:5601', 'teredo', '169.254.169.254', 'linkLocal'],
    ['https://[2002:5db8:d822::1]/hooks', '2002:5db8:d822::1', '6to4', '93.184.216.34', 'unicast'],
    ['https://compatible.example.com/hooks', '::a9fe:a9fe', 'ipv4Compatible', '169.254.169.254', 'linkLocal'],
    ['https://bücher.example.com/hooks', '::7f00:1', 'ipv4Compatible', '127.0.0.1', 'loopback'],
    ['https://nat64.example.com/hooks', '64:ff9b::a00:1', 'rfc6052', '10.0.0.1', 'private'],
  ])('refuses to register %s: %s is %s carrying %s (%s)', async (url, address, range, embeddedAddress, embeddedRange) => {
    const response = await register(url)
    expectRefused(response, 'address_not_public')
    const { details } = response.json().error
    if (new URL(url).hostname.startsWith('[')) expect(details).toMatchObject({ address, range, embedded_address: embeddedAddress, embedded_range: embeddedRange })
    else {
      // A host name: the ranges, never the addresses it resolved to.
      expect(details).toMatchObject({ range, embedded_range: embeddedRange })
      expect(details.address).toBeUndefined()
      expect(details.embedded_address).toBeUndefined()
    }
  })

  it('refuses a change of URL to a private address', async () => {
    const created = await register('https://hooks.example.com/steward', { event_types: ['raw.ingest.new'] })
    expect(created.statusCode, created.body).toBe(201)
    expectRefused(
      await app.request({ method: 'PATCH', url: `/v1/webhooks/${created.json().endpoint.id}`, token: owner.token, payload: { url: 'https://internal.example.com/x' } }),
      'address_not_public',
    )
  })

  it('checks the address again at delivery, so a name that rebinds to a private address is never contacted', async () => {
    const created = await register('https://rebind.example.com/hooks')
    expect(created.statusCode, created.body).toBe(201)
    const endpointId = created.json().endpoint.id as string
    const eventId = await changeMember(app, owner)
    // Only this endpoint's delivery: an endpoint registered by an earlier test may receive the event too.
    const attempt = async () => (await deliveriesOf(app, eventId)).find((delivery) => delivery.endpoint_id === endpointId)
    // The attempt is counted when it is claimed and its outcome written after: wait for the outcome.
    await expect.poll(async () => (await attempt())?.last_error ?? null, { timeout: 20_000, interval: 100 }).not.toBeNull()
    const delivery = await attempt()
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: null })
    expect(delivery!.last_error).toMatch(/^URL refused: The host rebind\.example\.com resolves to a private address/)
    expect(delivery!.last_error).not.toContain('10.0.0.7')
    expect(resolver.calls.filter((name) => name === 'rebind.example.com').length).toBeGreaterThanOrEqual(2)
    const [next] = await queryRows<{ next_attempt_at: Date }>(app.runtime.db.orm, sql`select next_attempt_at from webhook_deliveries where id = ${delivery!.id}`)
    expect(next!.next_attempt_at).not.toBeNull()
  })

  it('checks the address again at delivery, so a name that rebinds to ::a9fe:a9fe is never contacted', async () => {
    const created = await register('https://rebind-embedded.example.com/hooks')
    expect(created.statusCode, created.body).toBe(201)
    const endpointId = created.json().endpoint.id as string
    const eventId = await changeMember(app, owner)
    const attempt = async () => (await deliveriesOf(app, eventId)).find((delivery) => delivery.endpoint_id === endpointId)
    await expect.poll(async () => (await attempt())?.last_error ?? null, { timeout: 20_000, interval: 100 }).not.toBeNull()
    expect(await attempt()).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: null })
    expect((await attempt())!.last_error).toMatch(
      /^URL refused: The host rebind-embedded\.example\.com resolves to an IPv6 address of the ipv4Compatible form carrying a linkLocal address/,
    )
  })
})

describe('a production app fetching for Raw', () => {
  it('refuses http(s)://[::a9fe:a9fe]/ and the other embedding forms before any connection', async () => {
    const productionApp = await createTestApp({
      env: { STEWARD_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:2525', PUBLIC_BASE_URL: 'https://steward.test' },
      // Workers send the owner's invitation mail.
      workers: true,
      runtime: { raw: { resolver: fakeResolver({ 'compatible.example.com': ['::a9fe:a9fe'] }), selectParser: () => undefined } },
    })
    try {
      const email = uniqueEmail('prod-raw-egress')
      const provisioned = await productionApp.request({
        method: 'POST',
        url: '/v1/tenants',
        headers: { 'x-platform-service-auth': testPlatformSecret },
        payload: { name: 'Production Raw tenant', owner_email: email },
      })
      expect(provisioned.statusCode, provisioned.body).toBe(201)
      const tenantId = provisioned.json().tenant.id as string
      for (let waited = 0; waited < 20_000 && !productionApp.mail.some((mail) => mail.to === email); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100))
      const invitationToken = /token:\s+(\S+)/.exec(productionApp.mail.find((mail) => mail.to === email)?.text ?? '')?.[1]
      const accepted = await productionApp.request({ method: 'POST', url: '/v1/auth/accept-invitation', payload: { tenant_id: tenantId, token: invitationToken, password: testPassword } })
      expect(accepted.statusCode, accepted.body).toBe(200)
      const token = await login(productionApp, email)
      for (const [url, address, embeddedAddress] of [
        ['https://[::a9fe:a9fe]/latest/meta-data/', '::a9fe:a9fe', '169.254.169.254'],
        ['https://[::7f00:1]:8443/a.csv', '::7f00:1', '127.0.0.1'],
        ['https://[2002:a00:1::]/a.csv', '2002:a00:1::', '10.0.0.1'],
      ] as const) {
        const response = await productionApp.request({ method: 'POST', url: '/v1/raw/ingest', token, payload: { source_type: 'csv_upload', url } })
        expect(response.statusCode, response.body).toBe(400)
        expect(response.json().error, url).toMatchObject({
          code: 'raw_fetch_refused',
          details: { reason: 'address_not_public', address, embedded_address: embeddedAddress },
        })
      }
    } finally {
      await productionApp.close()
    }
  })
})

describe('a sandbox app fetching for Raw with RAW_FETCH_ALLOW_LOOPBACK', () => {
  let loopbackApp: TestApp
  let owner: TenantOwner
  let server: FileServer
  beforeAll(async () => {
    ;[loopbackApp, server] = await Promise.all([
      createTestApp({
        env: { RAW_FETCH_ALLOW_LOOPBACK: 'true' },
        runtime: { raw: { resolver: fakeResolver({ 'files.test': ['127.0.0.1'], 'compatible.test': ['::7f00:1'], 'metadata.test': ['::a9fe:a9fe'] }), fetchTotalMs: 5_000, selectParser: () => undefined } },
      }),
      startFileServer(),
    ])
    owner = await signupOwner(loopbackApp)
  })
  afterAll(async () => Promise.all([loopbackApp?.close(), server?.close()]))

  const ingest = (url: string) => loopbackApp.request({ method: 'POST', url: '/v1/raw/ingest', token: owner.token, payload: { source_type: 'csv_upload', url } })

  it('fetches from real loopback (127.0.0.1 and its IPv4-mapped form) and from nothing that merely carries it', async () => {
    server.serve('/a.csv', { body: uniqueCsv(), headers: { 'content-type': 'text/csv' } })
    const fetched = await ingest(`http://[::ffff:127.0.0.1]:${server.port}/a.csv`)
    expect(fetched.statusCode, fetched.body).toBe(201)
    expect(await artifactRow(loopbackApp, fetched.json().raw_id)).toBeDefined()

    const before = server.requests.length
    for (const [url, address, range] of [
      ['http://[::a9fe:a9fe]/latest/meta-data/', '::a9fe:a9fe', 'ipv4Compatible'],
      [`http://[::7f00:1]:${server.port}/a.csv`, '::7f00:1', 'ipv4Compatible'],
      [`http://[::127.0.0.1]:${server.port}/a.csv`, '::7f00:1', 'ipv4Compatible'],
      [`http://[::ffff:0:7f00:1]:${server.port}/a.csv`, '::ffff:0:7f00:1', 'rfc6145'],
      [`http://[64:ff9b::7f00:1]:${server.port}/a.csv`, '64:ff9b::7f00:1', 'rfc6052'],
      [`http://[2002:7f00:1::1]:${server.port}/a.csv`, '2002:7f00:1::1', '6to4'],
    ] as const) {
      const error = expectError(await ingest(url), 'raw_fetch_refused')
      expect(error.details, url).toMatchObject({ reason: 'address_not_public', address, range })
    }
    // Host names resolving to those forms: the range, never the address.
    for (const url of [`http://compatible.test:${server.port}/a.csv`, 'http://metadata.test/latest/meta-data/']) {
      const error = expectError(await ingest(url), 'raw_fetch_refused')
      expect(error.details, url).toMatchObject({ reason: 'address_not_public', range: 'ipv4Compatible' })
      expect(error.details?.address, url).toBeUndefined()
    }
    expect(server.requests.length).toBe(before)
  })

  it('refuses a redirect from loopback to [::a9fe:a9fe]', async () => {
    server.serve('/to-metadata', { redirect: 'http://[::a9fe:a9fe]/latest/meta-data/' })
    const error = expectError(await ingest(`http://files.test:${server.port}/to-metadata`), 'raw_fetch_refused')
    expect(error.details).toMatchObject({ reason: 'address_not_public', address: '::a9fe:a9fe', range: 'ipv4Compatible', embedded_address: '169.254.169.254', embedded_range: 'linkLocal' })
  })
})

describe('a sandbox app', () => {
  async function sandboxOwner(sandboxApp: WebhookTestApp) {
    const email = uniqueEmail('sandbox-egress')
    const signup = await sandboxApp.request({ method: 'POST', url: '/v1/signup', payload: { email, password: testPassword } })
    const { tenant_id: tenantId, verification_token: token } = signup.json()
    await sandboxApp.request({ method: 'POST', url: '/v1/auth/verify-email', payload: { tenant_id: tenantId, token } })
    return login(sandboxApp, email)
  }
  const resolver = fakeResolver({ 'dev.internal': ['10.1.2.3'], 'localhost': ['127.0.0.1', '::1'] })
  const register = (sandboxApp: WebhookTestApp, token: string, url: string) => sandboxApp.request({ method: 'POST', url: '/v1/webhooks', token, payload: { url, event_types: ['raw.ingest.new'] } })

  it('refuses private, link-local and loopback endpoints by default: anyone may sign up to a sandbox', async () => {
    const sandboxApp = await createWebhookTestApp({ env: { WEBHOOK_ALLOW_LOOPBACK: 'false' }, webhooks: { resolver } })
    try {
      const ownerToken = await sandboxOwner(sandboxApp)
      for (const url of ['http://dev.internal/hooks', 'http://localhost:3000/hooks', 'http://127.0.0.1:3000/hooks', 'http://[::1]:3000/hooks', 'http://169.254.169.254/', 'http://10.0.0.5:6379/']) {
        const response = await register(sandboxApp, ownerToken, url)
        expect(response.statusCode, `${url}: ${response.body}`).toBe(400)
        expect(response.json().error).toMatchObject({ code: 'webhook_url_refused', details: { reason: 'address_not_public' } })
      }
      expect((await register(sandboxApp, ownerToken, 'http://dev.internal/hooks')).json().error.message).not.toContain('10.1.2.3')
    } finally {
      await sandboxApp.close()
    }
  })

  it('registers loopback endpoints (a receiver on this machine, over http) with WEBHOOK_ALLOW_LOOPBACK, and still no private or link-local one', async () => {
    const sandboxApp = await createWebhookTestApp({ env: { WEBHOOK_ALLOW_LOOPBACK: 'true' }, webhooks: { resolver } })
    try {
      const ownerToken = await sandboxOwner(sandboxApp)
      for (const url of ['http://localhost:3000/hooks', 'http://127.0.0.1:3000/hooks', 'http://[::1]:3000/hooks']) {
        expect((await register(sandboxApp, ownerToken, url)).statusCode, url).toBe(201)
      }
      for (const url of ['http://dev.internal/hooks', 'http://169.254.169.254/', 'http://[::ffff:10.0.0.5]/']) {
        expectError(await register(sandboxApp, ownerToken, url), 'webhook_url_refused')
      }
    } finally {
      await sandboxApp.close()
    }
  })

  it('refuses WEBHOOK_ALLOW_LOOPBACK in production', () => {
    const base = { STEWARD_ENV: 'production', JWT_SECRET: 'j'.repeat(32), API_KEY_PEPPER: 'p'.repeat(32), SMTP_URL: 'smtp://127.0.0.1:2525', PUBLIC_BASE_URL: 'https://steward.example' }
    expect(loadConfig(base).webhookAllowLoopback).toBe(false)
    expect(() => loadConfig({ ...base, WEBHOOK_ALLOW_LOOPBACK: 'true' })).toThrow(/WEBHOOK_ALLOW_LOOPBACK/)
    expect(loadConfig({}).webhookAllowLoopback).toBe(false)
    expect(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true' }).webhookAllowLoopback).toBe(true)
  })
})

describe('the loopback-only policy (Raw fetch in a sandbox with RAW_FETCH_ALLOW_LOOPBACK)', () => {
  const loopbackOnly = { httpsOnly: false, allowNonPublicAddresses: false, allowLoopback: true }
  const resolver = fakeResolver({ 'local.example': ['127.0.0.1'], 'internal.example': ['10.0.0.5'], 'both.example': ['127.0.0.1', '10.0.0.5'] })

  it.each(['http://127.0.0.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://2130706433/', 'http://0x7f.1/', 'http://0177.0.0.1/', 'http://local.example/'])('allows loopback %s', async (url) => {
    expect(classifyAddress((await resolveEgressTarget(url, loopbackOnly, resolver)).address.address).range).toBe('loopback')
  })

  it.each([
    'http://10.0.0.1/',
    'http://169.254.169.254/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:10.0.0.1]/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[fd00::1]/',
    'http://internal.example/',
    'http://both.example/',
  ])('still refuses %s', async (url) => {
    expect((await refusal(resolveEgressTarget(url, loopbackOnly, resolver))).reason).toBe('address_not_public')
  })
})

describe('getFollowingRedirects', () => {
  let first: WebhookReceiver
  let second: WebhookReceiver
  beforeAll(async () => {
    ;[first, second] = await Promise.all([startWebhookReceiver(), startWebhookReceiver()])
  })
  afterAll(async () => Promise.all([first?.close(), second?.close()]))

  const loopbackOnly = { httpsOnly: false, allowNonPublicAddresses: false, allowLoopback: true }
  const follow = (url: string, options: { originHeaders?: Record<string, string>; redirectsMax?: number; signal?: AbortSignal } = {}) =>
    getFollowingRedirects(url, {
      policy: loopbackOnly,
      resolver: fakeResolver({}),
      headers: { 'user-agent': 'egress-test' },
      redirectsMax: options.redirectsMax ?? 5,
      signal: options.signal ?? AbortSignal.timeout(5_000),
      ...(options.originHeaders === undefined ? {} : { originHeaders: options.originHeaders }),
    })

  it('follows redirects, sending origin headers to the first origin only, and leaves the body unread', async () => {
    first.answer('/start', 302)
    // The receiver answers 302 without a Location: a redirect the follower cannot take.
    const invalid = await follow(first.url('/start')).catch((error: unknown) => error)
    expect(invalid).toBeInstanceOf(EgressRequestError)
    expect((invalid as EgressRequestError).reason).toBe('redirect_invalid')

    const server = (await import('node:http')).createServer((request, response) => {
      if (request.url === '/to-second') response.writeHead(307, { location: second.url('/landing') }).end()
      else if (request.url === '/to-self-origin') response.writeHead(301, { location: '/final' }).end()
      else if (request.url === '/final') response.writeHead(200, { 'content-type': 'text/plain' }).end(`final ${request.headers.authorization ?? 'none'}`)
      else if (request.url === '/to-metadata') response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
      else if (request.url?.startsWith('/hop/')) response.writeHead(302, { location: `/hop/${Number(request.url.slice(5)) + 1}` }).end()
      else response.writeHead(404).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`
    try {
      const crossed = await follow(`${origin}/to-second`, { originHeaders: { authorization: 'Bearer for-origin' } })
      crossed.body.destroy()
      expect(crossed).toMatchObject({ statusCode: 200, redirects: 1 })
      expect(crossed.url.href).toBe(second.url('/landing'))
      expect(second.deliveriesTo('/landing')[0]!.headers.authorization).toBeUndefined()

      const same = await follow(`${origin}/to-self-origin`, { originHeaders: { authorization: 'Bearer for-origin' } })
      const chunks: Buffer[] = []
      for await (const chunk of same.body) chunks.push(chunk as Buffer)
      expect(Buffer.concat(chunks).toString()).toBe('final Bearer for-origin')

      const refused = await refusal(follow(`${origin}/to-metadata`))
      expect(refused).toMatchObject({ reason: 'address_not_public', details: { address: '169.254.169.254' } })
      expect((await refusal(follow(`${origin}/hop/0`, { redirectsMax: 3 }))).reason).toBe('redirect_limit_exceeded')
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  it('aborts the whole exchange when the signal fires', async () => {
    first.answer('/hang', 'hang')
    const error = await follow(first.url('/hang'), { signal: AbortSignal.timeout(200) }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(EgressRequestError)
    expect((error as EgressRequestError).reason).toBe('timeout')
  })
})
