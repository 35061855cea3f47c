/**
 * The Wiki search (issue 19, item 5): policies and agents, full text (PostgreSQL FTS) and semantic
 * similarity — pg_trgm on real data without an embedding model, cosine similarity of cached embeddings
 * with one (an in-test fake model), falling back to trigrams when the model fails — since/until, pages and
 * cursors; the Ledger kinds refused. Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cosine } from '../../../src/modules/wiki/domain/search.ts'
import type { EmbeddingModel } from '../../../src/platform/llm/language-model.ts'
import { startLlmServer } from '../../support/llm-server.ts'
import { addMember, createTestApp, expectError, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { getOk } from '../../support/ledger.ts'
import { businessPolicy } from '../../support/payments.ts'
import { compose } from '../../support/policy.ts'

/** A deterministic fake embedding: a bag of words hashed into 32 dimensions. */
const dimensions = 32
function embedText(text: string): number[] {
  const vector = Array.from({ length: dimensions }, () => 0)
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let hash = 0
    for (const character of word) hash = (hash * 31 + character.charCodeAt(0)) >>> 0
    vector[hash % dimensions]! += 1
  }
  return vector
}
function fakeEmbedder(options: { failing?: boolean } = {}) {
  const calls: string[][] = []
  const model: EmbeddingModel = {
    model: 'fake-bag-of-words',
    async embed(texts) {
      calls.push([...texts])
      if (options.failing === true) throw new Error('the embedding endpoint is down')
      return { vectors: texts.map(embedText), usage: { promptTokens: texts.length } }
    },
  }
  return { model, calls }
}

let test: TestApp
let owner: TenantOwner
let registeredAgent: string
let policyId: string
let composedAt: string

const search = (query: string, token = owner.token) => test.request({ method: 'GET', url: `/v1/wiki/search${query}`, token })
const ok = async (query: string, app = test, token = owner.token) => (await getOk(app, token, `/v1/wiki/search${query}`)) as { results: Array<Record<string, any>>; full_text: boolean; semantic_method: string | null; embedding_model: string | null; next_cursor: string | null }

beforeAll(async () => {
  test = await createTestApp()
  owner = await signupOwner(test)
  const admin = await addMember(test, owner, 'admin')
  composedAt = new Date().toISOString()
  policyId = (await compose(test, owner, businessPolicy(2))).policy_id
  registeredAgent = `wiki_search_${Date.now()}`
  const registered = await test.request({ method: 'POST', url: '/v1/execution/agents/register', token: admin.token, payload: { agent_id: registeredAgent, role: 'reader', display_name: 'Treasury Watcher' } })
  expect(registered.statusCode, registered.body).toBe(201)
})
afterAll(async () => test?.close())

describe('GET /v1/wiki/search', () => {
  it('refuses the Ledger kinds and any other kind with request_params_invalid', async () => {
    for (const kind of ['account', 'counterparty', 'transaction', 'obligation', 'invoice', 'memory', '']) {
      expectError(await search(`?kind=${kind}`), 'request_params_invalid')
    }
    expectError(await search('?limit=501'), 'request_params_invalid')
    expectError(await search('?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z'), 'request_params_invalid')
    expectError(await search('?cursor=forged'), 'invalid_cursor')
  })

  it('lists policies and agents newest first without q or semantic, the catalog included', async () => {
    const all = await ok('?limit=500')
    expect(all).toMatchObject({ full_text: false, semantic_method: null, embedding_model: null, next_cursor: null })
    const ids = all.results.map((result) => `${result.kind}:${result.id}`)
    expect(ids).toContain(`policy:${policyId}`)
    expect(ids).toContain(`agent:${registeredAgent}`)
    expect(ids).toContain('agent:collections')
    expect(all.results.every((result) => result.score === null)).toBe(true)
    const policies = await ok('?kind=policy')
    expect(policies.results.every((result) => result.kind === 'policy')).toBe(true)
    expect(policies.results[0]).toMatchObject({ id: policyId, title: 'Policy version 2 (pending_signatures)' })
  })

  it('filters by full text (stemmed, websearch syntax) and ranks by it', async () => {
    const found = await ok('?q=overdue%20receivables')
    expect(found.full_text).toBe(true)
    expect(found.results.map((result) => result.id)).toEqual(['collections'])
    expect(found.results[0]!.score).toBeGreaterThan(0)
    // A policy's rules are searchable: its rule ids, action types and outcomes.
    expect((await ok('?q=outbound_payment%20risky')).results.map((result) => result.id)).toEqual([policyId])
    expect((await ok('?q=treasury&kind=agent')).results.map((result) => result.id)).toEqual([registeredAgent])
    expect((await ok('?q=treasury&kind=policy')).results).toEqual([])
    expect((await ok('?q=%22no%20such%20words%20anywhere%22')).results).toEqual([])
  })

  it('ranks by trigram similarity without an embedding model, typos and all', async () => {
    const found = await ok('?semantic=colections%20overdu%20receivable')
    expect(found).toMatchObject({ semantic_method: 'trigram', embedding_model: null })
    expect(found.results[0]).toMatchObject({ kind: 'agent', id: 'collections' })
    expect(found.results.every((result) => result.score >= 0.3)).toBe(true)
    const scores = found.results.map((result) => result.score)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)
    // With q: full text filters, similarity ranks.
    const both = await ok('?q=payments&semantic=vendor%20risk')
    expect(both).toMatchObject({ full_text: true, semantic_method: 'trigram' })
    expect(both.results[0]!.id).toBe('vendor_risk')
  })

  it('bounds by since and until (catalog agents have no time), and pages with a cursor', async () => {
    const recent = await ok(`?since=${composedAt}`)
    expect(recent.results.map((result) => result.id).sort()).toEqual([policyId, registeredAgent].sort())
    expect((await ok(`?until=${composedAt}&kind=agent`)).results).toEqual([])
    const all = await ok('?limit=500')
    const paged: Array<Record<string, any>> = []
    let cursor: string | null = null
    do {
      const page: Awaited<ReturnType<typeof ok>> = await ok(`?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`)
      expect(page.results.length).toBeLessThanOrEqual(2)
      paged.push(...page.results)
      cursor = page.next_cursor
    } while (cursor !== null)
    expect(paged).toEqual(all.results)
    // A cursor belongs to its query.
    const first = await ok('?limit=1')
    expectError(await search(`?limit=1&kind=agent&cursor=${encodeURIComponent(first.next_cursor!)}`), 'invalid_cursor')
  })

  it('needs wiki:read and sees only the caller\'s tenant', async () => {
    const other = await signupOwner(test)
    const theirs = await ok('?q=treasury', test, other.token)
    expect(theirs.results).toEqual([])
    expectError(await test.request({ method: 'GET', url: '/v1/wiki/search' }), 'auth_token_missing')
  })
})

describe('GET /v1/wiki/search with an embedding model', () => {
  let embedded: TestApp
  let tenant: TenantOwner
  const embedder = fakeEmbedder()
  beforeAll(async () => {
    embedded = await createTestApp({ runtime: { wiki: { embedder: embedder.model } } })
    tenant = await signupOwner(embedded)
  })
  afterAll(async () => embedded?.close())

  it('ranks by cosine similarity of the model\'s embeddings, computed in SQL, and embeds each document once', async () => {
    const query = 'overdue receivables reminder'
    const found = await ok(`?kind=agent&semantic=${encodeURIComponent(query)}&limit=500`, embedded, tenant.token)
    expect(found).toMatchObject({ semantic_method: 'embedding', embedding_model: 'fake-bag-of-words' })
    expect(found.results[0]!.id).toBe('collections')
    // The scores are the cosine similarities of the fake vectors (title and body embedded together).
    const all = await ok('?kind=agent&limit=500', embedded, tenant.token)
    const texts = new Map(embedder.calls.flat().map((text) => [text.split('\n')[0], text]))
    for (const result of found.results) {
      const text = texts.get(result.title)!
      expect(result.score).toBeCloseTo(cosine(embedText(text), embedText(query)), 5)
    }
    expect(found.results).toHaveLength(all.results.length)
    const documentsEmbedded = embedder.calls.slice(0, -1).flat().length
    expect(documentsEmbedded).toBe(all.results.length)
    // A second search embeds only the query: the documents' vectors are cached.
    const before = embedder.calls.length
    await ok(`?kind=agent&semantic=${encodeURIComponent('cash shortfall forecast')}`, embedded, tenant.token)
    expect(embedder.calls.slice(before)).toEqual([['cash shortfall forecast']])
  })

  it('uses the endpoint LLM_BASE_URL and LLM_EMBEDDING_MODEL configure', async () => {
    const llm = await startLlmServer()
    const configured = await createTestApp({ env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'test-model', LLM_EMBEDDING_MODEL: 'test-embed' } })
    try {
      const other = await signupOwner(configured)
      const found = await ok(`?kind=agent&semantic=${encodeURIComponent('overdue receivables reminder')}`, configured, other.token)
      expect(found).toMatchObject({ semantic_method: 'embedding', embedding_model: 'test-embed' })
      expect(found.results.length).toBeGreaterThan(0)
      const embeddingCalls = llm.requests.filter((request) => request.path === '/v1/embeddings')
      expect(embeddingCalls.length).toBeGreaterThan(0)
      expect(embeddingCalls.every((request) => request.body.model === 'test-embed')).toBe(true)
      expect(embeddingCalls.at(-1)!.body.input).toEqual(['overdue receivables reminder'])
    } finally {
      await configured.close()
      await llm.close()
    }
  })

  it('falls back to trigram similarity when the model fails, and says so', async () => {
    const failing = fakeEmbedder({ failing: true })
    const down = await createTestApp({ runtime: { wiki: { embedder: failing.model } } })
    try {
      const other = await signupOwner(down)
      const found = await ok('?semantic=colections%20overdu', down, other.token)
      expect(found).toMatchObject({ semantic_method: 'trigram', embedding_model: null })
      expect(found.results[0]!.id).toBe('collections')
      expect(failing.calls.length).toBeGreaterThan(0)
    } finally {
      await down.close()
    }
  })
})
