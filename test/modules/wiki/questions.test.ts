/**
 * POST /v1/wiki/question with a language model (the local OpenAI-compatible test server): the model maps
 * only what the parser does not understand, its mapping checked against the query schema; its wording is
 * kept only when every number in it is among the figures; per-call token usage on the question record;
 * failures and timeouts fall back, never guess; the API key is sent as a bearer and never echoed.
 * Suggested questions (eligibility from the tenant's data, ranked by usage_rank_score), the assistant
 * feed (cursor paging), Idempotency-Key replay, input limits and the LLM configuration. Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/main/config.ts'
import { createEmbeddingModel, createLanguageModel } from '../../../src/platform/llm/language-model.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { describeKeyedRoutes, type KeyedCase } from '../../support/idempotency-cases.ts'
import { createTestApp, expectError, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { bankTransaction, normalize, seedArtifact } from '../../support/ledger.ts'
import { hashedEmbedding, startLlmServer, type ChatReply, type ChatRequestBody, type LlmServer } from '../../support/llm-server.ts'

const apiKey = 'sk-test-0123456789-secret-never-logged'
let llm: LlmServer
let test: TestApp
let plain: TestApp
let owner: TenantOwner

const isMapping = (request: ChatRequestBody) => request.messages[0]!.content.startsWith('You map a question')
const marchSpending = { kind: 'transaction_aggregate', measure: 'total', scope: { from: '2026-03-01', to: '2026-03-31', direction: 'outflow', account_id: null, counterparty_id: null, category_id: null, currency: null } }

const ask = (app: TestApp, token: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.request({ method: 'POST', url: '/v1/wiki/question', token, payload, headers })

async function answer(app: TestApp, token: string, question: string) {
  const response = await ask(app, token, { question })
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}

beforeAll(async () => {
  llm = await startLlmServer()
  test = await createTestApp({ env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'test-model', LLM_API_KEY: apiKey, LLM_TIMEOUT_MS: '1000' } })
  plain = await createTestApp()
  owner = await signupOwner(test)
  const seeded = await seedArtifact(test, owner.tenantId, [
    bankTransaction({ amount: '-100.25', transaction_date: '2026-03-03', description: 'ROASTER SERVICE', counterparty: { name: 'Probat Service GmbH' } }),
    bankTransaction({ amount: '-20.25', transaction_date: '2026-03-20', description: 'CARD COFFEE CUPS' }),
    bankTransaction({ amount: '500.00', transaction_date: '2026-03-21', description: 'CAFE PAYMENT', counterparty: { name: 'Cafe Central' } }),
  ])
  await normalize(test, owner.tenantId, seeded.artifactId)
}, 120_000)
afterAll(async () => {
  await test?.close()
  await plain?.close()
  await llm?.close()
})

describe('with a language model', () => {
  it('maps a question the parser does not understand onto a checked query, words the answer from the figures, records the token usage', async () => {
    llm.chat = (request) => (isMapping(request) ? JSON.stringify(marchSpending) : 'In March 2026 you spent 120.50 EUR over 2 transactions.')
    const before = llm.requests.length
    const body = await answer(test, owner.token, 'Roughly what went out the door in March 2026?')
    expect(body).toMatchObject({
      answered: true,
      template: 'spending_total',
      query: marchSpending,
      text: 'In March 2026 you spent 120.50 EUR over 2 transactions.',
      provenance: { method: 'language_model_mapping', wording: 'language_model', model: 'test-model' },
      confidence: 0.8,
    })
    expect(body.figures).toContainEqual({ key: 'total', value: '120.50', currency: 'EUR', about: '2026-03-01 to 2026-03-31' })
    expect(body.usage).toEqual([
      { purpose: 'map_question', model: 'test-model', prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number), outcome: 'used' },
      { purpose: 'word_answer', model: 'test-model', prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number), outcome: 'used' },
    ])
    expect(body.usage[0].prompt_tokens).toBeGreaterThan(0)
    const sent = llm.requests.slice(before)
    expect(sent.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions'])
    expect(sent.every((r) => r.authorization === `Bearer ${apiKey}`)).toBe(true)
    expect(sent[0]!.body).toMatchObject({ model: 'test-model', response_format: { type: 'json_object' }, temperature: 0 })
    // The key is never echoed: not in the answer, the feed or the audit log.
    expect(JSON.stringify(body)).not.toContain(apiKey)
    const [event] = await auditEvents(test, owner.tenantId, { entityId: body.question_id })
    expect(event!.outputs).toMatchObject({ language_model_calls: 2, prompt_tokens: body.usage[0].prompt_tokens + body.usage[1].prompt_tokens })
    expect(JSON.stringify(event)).not.toContain(apiKey)
  })

  it('a deterministic question uses the model only for wording; wording with a number not among the figures is rejected', async () => {
    llm.chat = () => 'You spent about 130 EUR in March 2026.'
    const before = llm.requests.length
    const body = await answer(test, owner.token, 'How much did we spend in March 2026?')
    expect(body).toMatchObject({ answered: true, provenance: { method: 'deterministic_parser', wording: 'deterministic' }, confidence: 1 })
    expect(body.text).toBe('Spending in March 2026: 120.50 EUR over 2 transactions.')
    expect(body.usage).toEqual([expect.objectContaining({ purpose: 'word_answer', outcome: 'rejected' })])
    expect(llm.requests.slice(before).every((r) => !isMapping(r.body))).toBe(true)
  })

  it.each<[string, () => ChatReply, string, string]>([
    ['a mapping with a field the schema does not have', () => JSON.stringify({ ...marchSpending, sql: 'select 1' }), 'query_invalid', 'rejected'],
    ['a mapping that is not JSON', () => 'spending in march', 'query_invalid', 'rejected'],
    ['the model saying it cannot', () => JSON.stringify({ unanswerable: 'not about the books' }), 'query_invalid', 'rejected'],
    ['an endpoint error', () => ({ status: 500 }), 'language_model_unavailable', 'failed'],
    ['a timeout', () => ({ delayMs: 1500, content: '{}' }), 'language_model_unavailable', 'failed'],
  ])('%s → answered: false, never a guess', async (_label, reply, code, outcome) => {
    llm.chat = reply
    const body = await answer(test, owner.token, 'Roughly what went out the door in March 2026?')
    expect(body).toMatchObject({ answered: false, reason: { code }, query: null, figures: [], usage: [expect.objectContaining({ purpose: 'map_question', outcome })] })
    expect(body.suggested_questions.length).toBeGreaterThan(0)
  })

  it('a failing model leaves a deterministic answer in its deterministic wording', async () => {
    llm.chat = () => ({ status: 503 })
    const body = await answer(test, owner.token, 'How much did we receive in March 2026?')
    expect(body).toMatchObject({ answered: true, text: 'Money received in March 2026: 500.00 EUR over 1 transaction.', usage: [expect.objectContaining({ outcome: 'failed' })] })
  })

  it('the adapters speak the OpenAI-compatible protocol: chat and deterministic embeddings', async () => {
    llm.chat = () => 'hello'
    const model = createLanguageModel({ baseUrl: llm.baseUrl, model: 'test-model', apiKey: undefined })
    expect(await model.chat({ messages: [{ role: 'user', content: 'hi' }] })).toEqual({ content: 'hello', usage: { promptTokens: 1, completionTokens: 2 } })
    expect(llm.requests.at(-1)!.authorization).toBeUndefined()
    const embeddings = createEmbeddingModel({ baseUrl: llm.baseUrl, model: 'test-model', apiKey, embeddingModel: 'test-embed' })
    const { vectors, usage } = await embeddings.embed(['roasted coffee beans', 'green coffee'])
    expect(vectors).toEqual([hashedEmbedding('roasted coffee beans'), hashedEmbedding('green coffee')])
    expect(usage.promptTokens).toBeGreaterThan(0)
    expect(llm.requests.at(-1)!.body).toEqual({ model: 'test-embed', input: ['roasted coffee beans', 'green coffee'] })
    llm.chat = () => ({ status: 401 })
    await expect(model.chat({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow('HTTP 401')
  })

  it('is configured by LLM_BASE_URL and LLM_MODEL together (LLM_API_KEY, LLM_EMBEDDING_MODEL optional); all unset is off', () => {
    expect(loadConfig({}).llm).toBeUndefined()
    expect(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:1/v1', LLM_MODEL: 'm', LLM_EMBEDDING_MODEL: 'e' }).llm).toEqual({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKey: undefined, embeddingModel: 'e', timeoutMs: 20_000 })
    expect(() => loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:1/v1' })).toThrow(ConfigError)
    expect(() => loadConfig({ LLM_MODEL: 'm', LLM_API_KEY: apiKey })).toThrow(ConfigError)
    expect(() => loadConfig({ LLM_BASE_URL: 'ftp://x', LLM_MODEL: 'm' })).toThrow(ConfigError)
    try {
      loadConfig({ LLM_API_KEY: apiKey })
    } catch (error) {
      expect(String(error)).not.toContain(apiKey)
    }
  })
})

describe('without a language model', () => {
  it('a question the parser does not understand is answered: false, and nothing is called', async () => {
    const other = await signupOwner(plain)
    const before = llm.requests.length
    const body = await answer(plain, other.token, 'Roughly what went out the door in March 2026?')
    expect(body).toMatchObject({ answered: false, reason: { code: 'not_understood' }, usage: [], provenance: { method: 'none', model: null } })
    expect(llm.requests.length).toBe(before)
  })
})

describe('suggested questions and the assistant feed', () => {
  it('suggests only what the tenant\'s data can answer, ranked by how often each template was asked', async () => {
    const fresh = await signupOwner(plain)
    const empty = await plain.request({ method: 'GET', url: '/v1/wiki/suggested-questions', token: fresh.token })
    expect(empty.json()).toEqual({ suggested_questions: [] })

    const seeded = await seedArtifact(plain, fresh.tenantId, [
      bankTransaction({ amount: '-10.00', transaction_date: '2026-03-03', description: 'A' }),
      { kind: 'obligation', obligation_type: 'subscription', direction: 'payable', reference: 'sub_figma', amount: '45', currency: 'USD', due_date: '2026-03-05', recurrence: 'monthly', counterparty: { name: 'Figma, Inc.' } },
    ])
    await normalize(plain, fresh.tenantId, seeded.artifactId)
    const list = async () => (await plain.request({ method: 'GET', url: '/v1/wiki/suggested-questions', token: fresh.token })).json().suggested_questions as Array<{ template: string; usage_rank_score: number; question: string; prompt: string | null }>
    const first = await list()
    // Outflows and a payable subscription, no inflows, no invoices.
    expect(first.map((s) => s.template)).toEqual(['cash_flow_summary', 'bills_due', 'spending_change', 'subscriptions', 'spending_total', 'transaction_count', 'average_payment', 'transaction_list'])
    expect(first.every((s) => s.usage_rank_score === 0)).toBe(true)
    expect(first.find((s) => s.template === 'subscriptions')).toMatchObject({ prompt: 'wiki.question.subscriptions', question: 'Which subscriptions do we pay for?' })
    // Every suggestion is answerable.
    for (const suggestion of first) expect((await answer(plain, fresh.token, suggestion.question)).answered, suggestion.question).toBe(true)

    await answer(plain, fresh.token, 'What subscriptions do we have?')
    await answer(plain, fresh.token, 'How many transactions were there in March 2026?')
    await answer(plain, fresh.token, 'Which subscriptions do we pay for?')
    const ranked = await list()
    expect(ranked.slice(0, 2)).toEqual([expect.objectContaining({ template: 'subscriptions', usage_rank_score: 3 }), expect.objectContaining({ template: 'transaction_count', usage_rank_score: 2 })])
    expect(ranked.find((s) => s.template === 'cash_flow_summary')!.usage_rank_score).toBe(1)
  })

  it('lists the tenant\'s question records newest first with a cursor; another tenant sees none', async () => {
    const fresh = await signupOwner(plain)
    const asked = []
    for (const question of ['How much did we spend in January 2026?', 'Is the coffee good?', 'Which invoices are overdue?']) asked.push((await answer(plain, fresh.token, question)).question_id)
    const page = (await plain.request({ method: 'GET', url: '/v1/assistant/questions?limit=2', token: fresh.token })).json()
    expect(page.questions.map((q: { question_id: string }) => q.question_id)).toEqual([asked[2], asked[1]])
    expect(page.questions[1]).toMatchObject({ answered: false, question: 'Is the coffee good?' })
    const rest = (await plain.request({ method: 'GET', url: `/v1/assistant/questions?limit=2&cursor=${encodeURIComponent(page.next_cursor)}`, token: fresh.token })).json()
    expect(rest).toMatchObject({ questions: [expect.objectContaining({ question_id: asked[0], answered: true })], next_cursor: null })
    const all = (await plain.request({ method: 'GET', url: '/v1/assistant/questions', token: fresh.token })).json()
    expect(all.questions).toHaveLength(3)
    const stranger = await signupOwner(plain)
    expect((await plain.request({ method: 'GET', url: '/v1/assistant/questions', token: stranger.token })).json()).toEqual({ questions: [], next_cursor: null })
    expectError(await plain.request({ method: 'GET', url: '/v1/assistant/questions?cursor=forged', token: fresh.token }), 'invalid_cursor')
    expectError(await plain.request({ method: 'GET', url: '/v1/assistant/questions?limit=501', token: fresh.token }), 'request_params_invalid')
  })
})

describe('the route', () => {
  describeKeyedRoutes(() => plain, [
    [
      'POST /v1/wiki/question',
      async (): Promise<KeyedCase> => {
        const fresh = await signupOwner(plain)
        const request = { method: 'POST' as const, url: '/v1/wiki/question', token: fresh.token, payload: { question: 'How much did we spend in March 2026?' } }
        return {
          request,
          other: { ...request, payload: { question: 'How much did we spend in April 2026?' } },
          status: 200,
          runs: async () => (await auditEvents(plain, fresh.tenantId, { action: 'wiki.question.answered' })).length,
        }
      },
    ],
  ])

  it('replays with an Idempotency-Key, refuses its reuse for another question, records once', async () => {
    const fresh = await signupOwner(plain)
    const first = await ask(plain, fresh.token, { question: 'How much did we spend in March 2026?' }, { 'idempotency-key': 'q-1' })
    const again = await ask(plain, fresh.token, { question: 'How much did we spend in March 2026?' }, { 'idempotency-key': 'q-1' })
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(first.json())
    expectError(await ask(plain, fresh.token, { question: 'How much did we spend in April 2026?' }, { 'idempotency-key': 'q-1' }), 'idempotency_key_reused')
    expect((await plain.request({ method: 'GET', url: '/v1/assistant/questions', token: fresh.token })).json().questions).toHaveLength(1)
  })

  it('bounds its input: question 1 to 2,000 characters, max_evidence_depth 1 to 5, as_of a timestamp', async () => {
    expectError(await ask(test, owner.token, { question: '' }), 'request_body_invalid')
    expectError(await ask(test, owner.token, { question: 'x'.repeat(2001) }), 'request_body_invalid')
    expect((await ask(test, owner.token, { question: `How much did we spend in March 2026? ${' '.repeat(1950)}` })).statusCode).toBe(200)
    expectError(await ask(test, owner.token, { question: '   ' }), 'request_body_invalid')
    expectError(await ask(test, owner.token, { question: 'x', max_evidence_depth: 0 }), 'request_body_invalid')
    expectError(await ask(test, owner.token, { question: 'x', as_of: 'yesterday' }), 'request_body_invalid')
    expectError(await ask(test, owner.token, { question: 'x', extra: true }), 'request_body_invalid')
  })
})
