/**
 * The fuzz stage: every operation of the OpenAPI document receives generated requests, valid ones from
 * its schemas and mutated ones (test/support/fuzz/requests.ts), with owner, admin and service-token
 * credentials (and the platform or service-token secret where an operation takes those). For every answer:
 * - no 5xx;
 * - every non-2xx is the error envelope, its code in the catalogue with the catalogue's status;
 * - every 2xx JSON body validates against the response schema the document gives for its status;
 * - no 2xx carries an error body.
 *
 * It walks the document the running app serves, so an operation added later is fuzzed without editing
 * this file. Bounded and reproducible: FUZZ_SEED (default fixed) and FUZZ_VALID / FUZZ_MUTATED (requests
 * per operation; small in `npm test`, large under `npm run fuzz`). FUZZ_OPERATION='GET /v1/…' runs one.
 * A summary (operations, requests, statuses) is written to .test-results/fuzz-<engine>.json.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isCalendarDate, isTimestamp } from '../../src/platform/http/validation.ts'
import { errorCatalogue, type ErrorCode } from '../../src/kernel/errors.ts'
import type { RateLimitStore } from '../../src/platform/http/rate-limit/stores.ts'
import { EgressRefusedError, type HostResolver } from '../../src/platform/net/egress.ts'
import { mutate, mutationsFor, urlOf, validRequest, type FuzzRequest, type KnownValues, type Operation, type OperationParameter } from '../support/fuzz/requests.ts'
import type { JsonSchema } from '../support/fuzz/schema-arbitrary.ts'
import { addMember, createTestApp, engineName, issueApiKey, signupOwner, testPassword, testPlatformSecret, testPublicBaseUrl, testServiceTokenSecret, type TenantOwner } from '../support/harness.ts'
import { bankTransaction, normalize, seedArtifact } from '../support/ledger.ts'
import { signInAgent } from '../support/mcp.ts'

/** FUZZ_SEED=random draws one (printed with the summary, so a failure can be replayed). */
const seed = process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20_261_125)
const validPerOperation = Number(process.env.FUZZ_VALID ?? 8)
const mutatedPerOperation = Number(process.env.FUZZ_MUTATED ?? 24)
const onlyOperation = process.env.FUZZ_OPERATION

/** Fuzzing is about answers, not budgets: nothing is rate limited here (429s would hide the handlers). */
const unlimited: RateLimitStore = {
  async take() {
    return { allowed: true, limit: 1_000_000, remaining: 1_000_000, resetAtMs: Date.now(), retryAfterMs: 0 }
  },
  async peek() {
    return true
  },
  async close() {},
}

/** No generated URL reaches the network: every host name is unresolvable. */
const refuseEveryHost: HostResolver = async (hostname) => {
  throw new EgressRefusedError('host_unresolvable', `fuzz: ${hostname} is not resolved`)
}

const test = await createTestApp({
  rateLimits: unlimited,
  runtime: { webhooks: { resolver: refuseEveryHost }, raw: { resolver: refuseEveryHost, fetchTotalMs: 1_000 } },
})
const document = (await test.request({ method: 'GET', url: '/v1/openapi.json' })).json() as {
  paths: Record<string, Record<string, { parameters?: OperationParameter[]; requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> }; security?: Array<Record<string, unknown>>; responses: Operation['responses']; deprecated?: boolean }>>
  components?: { schemas?: Record<string, Record<string, unknown>> }
}

const componentPrefix = '#/components/schemas/'

/** A schema with the document's component references (the Amount format) replaced by what they name, for Ajv. */
function inlineComponents(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inlineComponents)
  if (schema === null || typeof schema !== 'object') return schema
  const reference = (schema as { $ref?: unknown }).$ref
  if (typeof reference === 'string' && reference.startsWith(componentPrefix)) {
    const named = document.components?.schemas?.[reference.slice(componentPrefix.length)]
    if (named === undefined) throw new Error(`the document refers to ${reference}, which it does not define`)
    const { $id: _id, ...definition } = named
    return inlineComponents(definition)
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inlineComponents(value)]))
}

/**
 * The document's operations. Deletions come last, since they remove fixtures other operations read, and
 * deleting the tenant comes very last.
 */
const order = (operation: Operation) => (operation.method === 'DELETE' ? (operation.path === '/v1/tenants/{tenant_id}' ? 2 : 1) : 0)
const operations: Operation[] = Object.entries(document.paths)
  .flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]): Operation => {
      const scheme = Object.keys(operation.security?.[0] ?? {})[0]
      // Requests are generated from schemas without references: the named components are inlined.
      const body = inlineComponents(operation.requestBody?.content['application/json']?.schema) as JsonSchema | undefined
      return {
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters ?? []).map((parameter) => inlineComponents(parameter) as OperationParameter),
        ...(body === undefined ? {} : { body }),
        bodyRequired: operation.requestBody?.required === true,
        security: scheme === 'bearerAuth' ? 'bearer' : scheme === 'platformServiceAuth' ? 'platform' : scheme === 'serviceTokenSecret' ? 'service-token-secret' : 'public',
        responses: operation.responses,
        deprecated: operation.deprecated === true,
      }
    }),
  )
  .filter((operation) => onlyOperation === undefined || `${operation.method} ${operation.path}` === onlyOperation)
  .sort((a, b) => order(a) - order(b))

const responseAjv = new Ajv.default({ strict: false, allErrors: true })
addFormats.default(responseAjv)
responseAjv.addFormat('date', { type: 'string', validate: isCalendarDate })
responseAjv.addFormat('date-time', { type: 'string', validate: isTimestamp })
responseAjv.addFormat('date-or-date-time', { type: 'string', validate: (text: string) => isCalendarDate(text) || isTimestamp(text) })
const compiled = new Map<JsonSchema, Ajv.ValidateFunction>()
const validatorOf = (schema: JsonSchema) => {
  let validate = compiled.get(schema)
  if (validate === undefined) {
    validate = responseAjv.compile(inlineComponents(schema) as object)
    compiled.set(schema, validate)
  }
  return validate
}

let owner: TenantOwner
let adminToken: string
/** A service token with every service-token scope: the credential that holds ledger:write. */
let serviceToken: string
/** A proposer agent signed in with SIWX: the credential the agent protocol dispatches for. */
let agentToken: string
let known: KnownValues = {}

beforeAll(async () => {
  owner = await signupOwner(test)
  adminToken = (await addMember(test, owner, 'admin')).token
  agentToken = (await signInAgent(test, owner, 'proposer', { token: adminToken })).token
  const viewer = await addMember(test, owner, 'viewer')
  const key = await issueApiKey(test, owner, { name: 'fuzz' })
  const { artifactId, rowIds } = await seedArtifact(test, owner.tenantId, [
    bankTransaction({ amount: '-120.50', transaction_date: '2026-03-02', description: 'KARTONWERK INVOICE 77' }),
    bankTransaction({ amount: '980.00', transaction_date: '2026-03-03', description: 'TINY CLIENT INV-9' }),
    { kind: 'invoice', direction: 'receivable', invoice_number: 'INV-9', issue_date: '2026-03-01', due_date: '2026-03-15', currency: 'EUR', total: '980', counterparty: { name: 'Tiny Client' } },
  ])
  await normalize(test, owner.tenantId, artifactId)
  const read = async (url: string) => (await test.request({ method: 'GET', url, token: owner.token })).json()
  const webhook = await test.request({ method: 'POST', url: '/v1/webhooks', token: owner.token, payload: { url: 'http://127.0.0.1:9/fuzz' } })
  const minted = await test.request({
    method: 'POST',
    url: '/v1/auth/service-token',
    headers: { authorization: `Bearer ${testServiceTokenSecret}` },
    payload: { tenant_id: owner.tenantId, reason: 'fuzz stage' },
  })
  serviceToken = minted.json().access_token
  const reconcile = await test.request({ method: 'POST', url: '/v1/ledger/reconcile', token: serviceToken, payload: {} })
  const exported = await test.request({ method: 'POST', url: '/v1/audit/export', token: owner.token, payload: { format: 'jsonl' } })
  const transactions = (await read('/v1/ledger/transactions')).transactions as Array<{ id: string; account_id: string; counterparty_id: string | null }>
  const events = (await read('/v1/audit/events?limit=5')).events as Array<{ id: string }>
  const ids = (values: ReadonlyArray<string | null | undefined>) => [...new Set(values.filter((value): value is string => typeof value === 'string'))]
  known = {
    tenant_id: [owner.tenantId],
    raw_id: [artifactId],
    member_id: [viewer.memberId],
    key_id: [key.id],
    endpoint_id: ids([webhook.json().endpoint?.id ?? webhook.json().id]),
    transaction_id: ids(transactions.map((transaction) => transaction.id)),
    account_id: ids(transactions.map((transaction) => transaction.account_id)),
    counterparty_id: ids(transactions.map((transaction) => transaction.counterparty_id)),
    invoice_id: ids(((await read('/v1/ledger/invoices')).invoices as Array<{ id: string }>).map((invoice) => invoice.id)),
    obligation_id: ids(((await read('/v1/ledger/obligations')).obligations as Array<{ id: string }>).map((obligation) => obligation.id)),
    job_id: ids([reconcile.json().job_id]),
    export_id: ids([exported.json().export_id]),
    event_id: ids(events.map((event) => event.id)),
    entityId: ids(transactions.map((transaction) => transaction.id)),
    provider: ['bank_provider', 'card_processor', 'chain_indexer', 'erp_provider', 'generic_hmac'],
    raw_parsed_id: rowIds,
    email: [owner.email],
    password: [testPassword],
    url: ['http://127.0.0.1:9/fuzz-endpoint'],
  }
  if (process.env.FUZZ_DEBUG !== undefined) console.log(JSON.stringify(known), webhook.body, reconcile.body, exported.body)
})

interface Tally {
  operations: number
  requests: number
  valid: number
  mutated: number
  statuses: Record<string, number>
  mutations: Record<string, number>
  /** Per operation, how often each status came back: which handlers the valid requests reached. */
  byOperation: Record<string, Record<string, number>>
}
const tally: Tally = { operations: 0, requests: 0, valid: 0, mutated: 0, statuses: {}, mutations: {}, byOperation: {} }

afterAll(async () => {
  const summary = { engine: engineName(), seed, valid_per_operation: validPerOperation, mutated_per_operation: mutatedPerOperation, ...tally }
  mkdirSync('.test-results', { recursive: true })
  writeFileSync(`.test-results/fuzz-${engineName()}.json`, `${JSON.stringify(summary, null, 2)}\n`)
  const reached = Object.values(tally.byOperation).filter((statuses) => Object.keys(statuses).some((status) => status.startsWith('2'))).length
  console.log(
    `fuzz (${engineName()}, seed ${seed}): ${tally.operations} operations (${reached} answered 2xx at least once), ${tally.requests} requests (${tally.valid} valid, ${tally.mutated} mutated); statuses ${JSON.stringify(tally.statuses)}`,
  )
  await test.close()
})

/** A per-operation seed, stable as operations are added or removed. */
const operationSeed = (operation: Operation) => seed ^ createHash('sha256').update(`${operation.method} ${operation.path}`).digest().readUInt32BE(0)

function credentialHeaders(operation: Operation, choice: number): Record<string, string> {
  switch (operation.security) {
    case 'bearer':
      // The agent protocol dispatches only for agents: an agent token most of the time there.
      if (operation.path === '/v1/agents/mcp') return { authorization: `Bearer ${[agentToken, agentToken, agentToken, owner.token][choice % 4]}` }
      return { authorization: `Bearer ${[owner.token, adminToken, serviceToken][choice % 3]}` }
    case 'platform':
      return { 'x-platform-service-auth': testPlatformSecret }
    case 'service-token-secret':
      return { authorization: `Bearer ${testServiceTokenSecret}` }
    case 'public':
      return {}
  }
}

/** What is wrong with the answer, or undefined when nothing is. */
function problemWith(operation: Operation, status: number, headers: Record<string, unknown>, body: string): string | undefined {
  if (status >= 500) return `answered ${status}`
  const contentType = String(headers['content-type'] ?? '')
  const isJson = contentType.startsWith('application/json')
  let parsed: unknown
  if (isJson && body !== '') {
    try {
      parsed = JSON.parse(body)
    } catch {
      return `answered ${status} with a JSON content type and a body that is not JSON`
    }
  }
  if (status >= 400 && status < 500 && operation.path === '/v1/agents/mcp') {
    // The agent protocol refuses before dispatch with the spec's flat variant (agent_inactive is 403 there).
    if (!isJson) return `answered ${status} with ${contentType || 'no content type'}, not the flat JSON variant`
    const flat = parsed as { error_code?: string; message?: unknown } | undefined
    if (flat === undefined || Object.keys(flat).sort().join() !== 'error_code,message' || typeof flat.message !== 'string') return `answered ${status} outside the flat variant`
    const code = flat.error_code as ErrorCode
    if (!(code in errorCatalogue)) return `answered ${status} with code ${String(code)}, which is not in the catalogue`
    const expected = code === 'agent_inactive' ? 403 : errorCatalogue[code].status
    return expected === status ? undefined : `answered ${status} with ${code}, expected ${expected}`
  }
  if (status >= 400) {
    if (!isJson) return `answered ${status} with ${contentType || 'no content type'}, not the JSON envelope`
    const envelope = parsed as { error?: Record<string, unknown> } | undefined
    const error = envelope?.error
    if (error === undefined || Object.keys(envelope!).length !== 1) return `answered ${status} outside the envelope`
    const code = error.code as ErrorCode
    if (!(code in errorCatalogue)) return `answered ${status} with code ${String(code)}, which is not in the catalogue`
    if (errorCatalogue[code].status !== status) return `answered ${status} with ${code}, whose catalogue status is ${errorCatalogue[code].status}`
    if (typeof error.message !== 'string' || typeof error.request_id !== 'string' || error.docs_url !== `${testPublicBaseUrl}/docs/errors#${code}`) {
      return `answered ${status} with an incomplete envelope`
    }
    if (error.details !== undefined && (error.details === null || typeof error.details !== 'object' || Array.isArray(error.details))) return 'details is not an object'
    const allowed = new Set(['code', 'message', 'details', 'request_id', 'docs_url'])
    if (Object.keys(error).some((key) => !allowed.has(key))) return 'the envelope has fields it should not'
    return undefined
  }
  if (status >= 200 && status < 300) {
    if (isJson && parsed !== null && typeof parsed === 'object' && 'error' in (parsed as object) && Object.keys(parsed as object).length === 1) {
      return `answered ${status} with an error body`
    }
    const documented = operation.responses[String(status)] ?? operation.responses['2XX']
    if (documented === undefined) return `answered ${status}, which the document does not list`
    const schema = documented.content?.['application/json']?.schema
    if (isJson && schema !== undefined && status !== 204) {
      const validate = validatorOf(schema)
      if (!validate(parsed)) return `answered ${status} with a body that breaks its schema: ${responseAjv.errorsText(validate.errors, { separator: '; ' }).slice(0, 600)}`
    }
  }
  return undefined
}

async function send(operation: Operation, request: FuzzRequest, choice: number) {
  const headers: Record<string, string> = { ...credentialHeaders(operation, choice), ...request.headers }
  let payload: string | Buffer | undefined
  if (request.rawBody !== undefined) {
    payload = request.rawBody
    headers['content-type'] = request.contentType ?? 'application/json'
  } else if (request.body !== undefined) {
    payload = JSON.stringify(request.body)
    headers['content-type'] = 'application/json'
  }
  return test.app.inject({ method: operation.method as 'GET', url: urlOf(operation, request), headers, ...(payload === undefined ? {} : { payload }) })
}

describe('the fuzz stage', () => {
  it('has the whole API document to walk', () => {
    expect(operations.length).toBeGreaterThan(onlyOperation === undefined ? 80 : 0)
  })

  it('generates "valid" bodies that validate against their schemas', () => {
    const invalid: string[] = []
    for (const operation of operations.filter((candidate) => candidate.body !== undefined)) {
      const validate = validatorOf(operation.body!)
      for (const request of fc.sample(validRequest(operation, known), { seed, numRuns: 25 })) {
        if (!validate(request.body)) invalid.push(`${operation.method} ${operation.path}: ${responseAjv.errorsText(validate.errors)}`)
      }
    }
    expect(invalid).toEqual([])
  })

  it.each(operations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))('%s', async (_name, operation) => {
    const mutations = mutationsFor(operation)
    const valid = fc.sample(fc.tuple(validRequest(operation, known), fc.nat()), { seed: operationSeed(operation), numRuns: validPerOperation })
    const mutated = fc.sample(
      fc.tuple(validRequest(operation, known), fc.constantFrom(...mutations), fc.nat()).map(([request, kind, choice]) => [mutate(operation, request, kind, choice), choice] as const),
      { seed: operationSeed(operation) + 1, numRuns: mutatedPerOperation },
    )
    const failures: string[] = []
    for (const [request, choice] of [...valid, ...mutated]) {
      const response = await send(operation, request, choice)
      tally.requests += 1
      if (request.label === 'valid') tally.valid += 1
      else tally.mutated += 1
      tally.statuses[String(response.statusCode)] = (tally.statuses[String(response.statusCode)] ?? 0) + 1
      tally.mutations[request.label] = (tally.mutations[request.label] ?? 0) + 1
      const statuses = (tally.byOperation[`${operation.method} ${operation.path}`] ??= {})
      statuses[String(response.statusCode)] = (statuses[String(response.statusCode)] ?? 0) + 1
      const problem = problemWith(operation, response.statusCode, response.headers, response.body)
      if (problem !== undefined) {
        failures.push(`${request.label}: ${operation.method} ${urlOf(operation, request).slice(0, 300)} ${problem}; body ${response.body.slice(0, 300)}`)
      }
    }
    tally.operations += 1
    expect(failures, `seed ${seed}; rerun with FUZZ_SEED=${seed} FUZZ_OPERATION='${operation.method} ${operation.path}'`).toEqual([])
  })
})
