/**
 * The agent protocol's tools fuzz (issue 20): for every tool tools/list publishes, arguments generated
 * from its JSON Schema (valid ones, with the tenant's real ids three times in four) and mutated ones
 * (a required argument dropped, an unknown one added, an argument of the wrong type, arguments that are
 * not an object), sent through tools/call as a proposer agent (every scope an agent can hold). Every
 * answer must be HTTP 200 with a result or a JSON-RPC error of the spec's codes, never -32603.
 *
 * Bounded and reproducible like test/platform/fuzz.test.ts: FUZZ_SEED, FUZZ_VALID and FUZZ_MUTATED
 * (per tool; small in `npm test`, large under `npm run fuzz`).
 */
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RateLimitStore } from '../../../src/platform/http/rate-limit/stores.ts'
import { specRpcCodes } from '../../../src/modules/mcp/index.ts'
import { arbitraryOf, type JsonSchema, type KnownValues } from '../../support/fuzz/schema-arbitrary.ts'
import { createTestApp, type TestApp } from '../../support/harness.ts'
import { getOk } from '../../support/ledger.ts'
import { rpc, signInAgent, type SignedInAgent } from '../../support/mcp.ts'
import { business } from '../../support/payments.ts'

const seed = process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20_261_125)
const validPerTool = Number(process.env.FUZZ_VALID ?? 8)
const mutatedPerTool = Number(process.env.FUZZ_MUTATED ?? 24)

/** Fuzzing is about answers, not budgets: nothing is rate limited here (429s would hide the tools). */
const unlimited: RateLimitStore = {
  async take() {
    return { allowed: true, limit: 1_000_000, remaining: 1_000_000, resetAtMs: Date.now(), retryAfterMs: 0 }
  },
  async peek() {
    return true
  },
  async close() {},
}

let test: TestApp
let agent: SignedInAgent
let known: KnownValues
let tools: Array<{ name: string; inputSchema: JsonSchema }>

beforeAll(async () => {
  test = await createTestApp({ rateLimits: unlimited })
  const world = await business(test)
  agent = await signInAgent(test, world.owner, 'proposer', world.admin)
  const transactions = (await getOk(test, world.owner.token, '/v1/ledger/transactions')).transactions as Array<{ id: string; account_id: string; counterparty_id: string }>
  known = {
    tenant_id: [world.owner.tenantId],
    transaction_id: transactions.map((transaction) => transaction.id),
    entity_id: transactions.map((transaction) => transaction.id),
    account_id: [world.account],
    source_account_id: [world.account],
    counterparty_id: [world.supplier, world.unverified],
    destination_counterparty_id: [world.supplier, world.unverified],
    currency: ['EUR'],
    mime_type: ['text/csv', 'text/plain', 'application/json'],
    question: ['What was our cash flow last month?', 'How many transactions were there in March 2026?'],
  }
  tools = (await rpc(test, agent.token, 'tools/list')).json().result.tools
})
afterAll(async () => test?.close())

type Mutation = (args: Record<string, unknown>, schema: JsonSchema, choice: number) => unknown
const mutations: Record<string, Mutation> = {
  'drop-required': (args, schema, choice) => {
    const required = schema.required ?? []
    if (required.length === 0) return { ...args, unknown_argument: choice }
    const { [required[choice % required.length]!]: _dropped, ...rest } = args
    return rest
  },
  'unknown-argument': (args, _schema, choice) => ({ ...args, [`extra_${choice % 7}`]: 'x' }),
  'wrong-type': (args, schema, choice) => {
    const names = Object.keys(schema.properties ?? {})
    if (names.length === 0) return { ...args, unknown_argument: true }
    const values = [12345, -1, true, null, [], {}, 'not-the-type', '\u0000', 'x'.repeat(5000), 1e308]
    return { ...args, [names[choice % names.length]!]: values[choice % values.length] }
  },
  'not-an-object': (_args, _schema, choice) => [[], 'text', 42, null, true][choice % 5],
}

/** What is wrong with a tools/call answer, or undefined when nothing is. */
function problemWith(status: number, body: string): string | undefined {
  if (status !== 200) return `answered HTTP ${status}: ${body.slice(0, 300)}`
  const parsed = JSON.parse(body) as { jsonrpc?: string; result?: { structuredContent?: unknown; isError?: boolean }; error?: { code: number; message: string } }
  if (parsed.jsonrpc !== '2.0') return 'not a JSON-RPC answer'
  if (parsed.error !== undefined) {
    if (!specRpcCodes.includes(parsed.error.code)) return `error code ${parsed.error.code} is not one of the spec's`
    if (parsed.error.code === -32603) return `-32603: ${parsed.error.message}`
    return undefined
  }
  if (parsed.result === undefined) return 'neither result nor error'
  if (parsed.result.isError === true) return 'a result with isError (the spec\'s failures are JSON-RPC errors)'
  if (parsed.result.structuredContent === undefined) return 'a result without structuredContent'
  return undefined
}

describe('tools/call with generated and mutated arguments', () => {
  it('publishes the tools it fuzzes', () => {
    expect(tools.length).toBeGreaterThanOrEqual(11)
  })

  it('answers every call with a result or a JSON-RPC error of the spec, never -32603', async () => {
    const problems: string[] = []
    const codes: Record<string, number> = {}
    for (const tool of tools) {
      const toolSeed = seed ^ createHash('sha256').update(tool.name).digest().readUInt32BE(0)
      const generated = fc.sample(arbitraryOf(tool.inputSchema, known), { seed: toolSeed, numRuns: validPerTool + mutatedPerTool }) as Array<Record<string, unknown>>
      const kinds = Object.keys(mutations)
      for (const [index, args] of generated.entries()) {
        const mutation = index < validPerTool ? undefined : kinds[index % kinds.length]!
        const sent = mutation === undefined ? args : mutations[mutation]!(args, tool.inputSchema, index)
        const response = await test.request({
          method: 'POST',
          url: '/v1/agents/mcp',
          token: agent.token,
          payload: { jsonrpc: '2.0', id: index, method: 'tools/call', params: { name: tool.name, arguments: sent } },
        })
        const problem = problemWith(response.statusCode, response.body)
        if (problem !== undefined) problems.push(`${tool.name} (${mutation ?? 'valid'}) ${JSON.stringify(sent).slice(0, 200)}: ${problem}`)
        const code = response.statusCode === 200 ? (JSON.parse(response.body).error?.code ?? 'result') : `http_${response.statusCode}`
        codes[`${tool.name} ${code}`] = (codes[`${tool.name} ${code}`] ?? 0) + 1
      }
    }
    if (process.env.FUZZ_DEBUG !== undefined) console.log(JSON.stringify(codes, null, 2))
    expect(problems).toEqual([])
    // The valid arguments reach the tools: each of these answers a result at least once (generated filters and
    // cursors of the others are mostly refused, which is an answer too).
    for (const name of ['ledger.accounts.list', 'ledger.transactions.list', 'ledger.transactions.get', 'ledger.counterparties.list', 'ledger.obligations.list', 'wiki.question', 'wiki.entity.get', 'raw.contribute']) {
      expect(codes[`${name} result`], `${name}: ${JSON.stringify(codes)}`).toBeGreaterThan(0)
    }
  })
})
