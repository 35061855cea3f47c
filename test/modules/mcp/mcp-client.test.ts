/**
 * The agent protocol end to end with the official MCP SDK client (issue 20): `Client` over
 * `StreamableHTTPClientTransport` against a listening app, signed in as external agents through SIWX.
 * Initialize, list the tools (exactly the spec's sixteen), resource templates and prompts; call every tool
 * (allowed, and refused by scope with -32002; proposals.decide refused to every agent with -32002
 * actor_unresolved), each answering what its REST twin answers; read every template; get every prompt;
 * and propose payments that the tenant's policy then governs (the policy decision attached, the status
 * the policy says), cancel one, and read the proof.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/main/config.ts'
import { startMcpListener } from '../../../src/main/mcp-listener.ts'
import { createTestApp, type TestApp } from '../../support/harness.ts'
import { getOk, normalize, seedArtifact } from '../../support/ledger.ts'
import { signInAgent, type SignedInAgent } from '../../support/mcp.ts'
import { business } from '../../support/payments.ts'

/** The Ledger, Wiki, Raw and PaymentIntent tools. */
const ownTools = [
  'ledger.accounts.list',
  'ledger.transactions.list',
  'ledger.transactions.get',
  'ledger.counterparties.list',
  'ledger.obligations.list',
  'wiki.question',
  'wiki.entity.get',
  'raw.contribute',
  'payment_intent.propose',
  'payment_intent.cancel',
  'payment_intent.list',
]
/** The spec's sixteen: these and the proposals read model's five. */
const proposalTools = ['proposals.list', 'proposals.get', 'proposals.decide', 'evidence.resolve', 'agent_action.propose']
const sixteenTools = [...ownTools, ...proposalTools]

const templates = [
  'svc://ledger/accounts/{account_id}',
  'svc://ledger/transactions/{transaction_id}',
  'svc://ledger/obligations/{obligation_id}',
  'svc://ledger/payment-intents/{payment_intent_id}',
  'svc://wiki/pages/{slug}',
  'svc://payments/action_types',
  'svc://proofs/{action_id}',
]
const prompts = ['wiki.question.cash_flow_summary', 'wiki.question.bills_due', 'wiki.question.spending_change', 'wiki.question.invoice_status', 'wiki.question.subscriptions']

let test: TestApp
let url: URL
let world: Awaited<ReturnType<typeof business>>
let reader: SignedInAgent
let contributor: SignedInAgent
let proposer: SignedInAgent
const clients: Client[] = []

async function connect(agent: SignedInAgent, at: URL = url): Promise<Client> {
  const client = new Client({ name: 'steward-test-agent', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(at, { requestInit: { headers: { authorization: `Bearer ${agent.token}` } } }))
  clients.push(client)
  return client
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args })
  expect(result.isError, JSON.stringify(result)).toBeFalsy()
  // The text content is the structured content as JSON.
  expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual(result.structuredContent)
  return result.structuredContent
}

async function refusedCode(work: Promise<unknown>): Promise<number> {
  const error = await work.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(McpError)
  return (error as McpError).code
}

beforeAll(async () => {
  test = await createTestApp()
  world = await business(test)
  // A payable invoice (and its obligation) in the business's books.
  const invoice = await seedArtifact(test, world.owner.tenantId, [{ kind: 'invoice', direction: 'payable', invoice_number: 'MCP-2026-001', currency: 'EUR', total: '12.00', counterparty: { name: 'Paper Supply Co' } }])
  await normalize(test, world.owner.tenantId, invoice.artifactId)
  reader = await signInAgent(test, world.owner, 'reader', world.admin)
  contributor = await signInAgent(test, world.owner, 'contributor', world.admin)
  proposer = await signInAgent(test, world.owner, 'proposer', world.admin)
  await test.app.listen({ port: 0, host: '127.0.0.1' })
  url = new URL(`http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}/v1/agents/mcp`)
})
afterAll(async () => {
  for (const client of clients) await client.close()
  await test?.close()
})

describe('an MCP client signed in with SIWX', () => {
  it('initializes and lists the tools, resource templates and prompts', async () => {
    const client = await connect(reader)
    expect(client.getServerVersion()).toMatchObject({ name: 'steward', version: '0.5.0' })
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} })

    const tools = (await client.listTools()).tools
    const names = tools.map((tool) => tool.name)
    // Exactly the spec's sixteen, none of which executes.
    expect(names).toHaveLength(16)
    expect([...names].sort()).toEqual([...sixteenTools].sort())
    expect(names.filter((name) => /execute/.test(name))).toEqual([])
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object')
      expect(tool.description, tool.name).toMatch(/Scopes: /)
    }
    expect(tools.find((tool) => tool.name === 'wiki.question')!.inputSchema).toMatchObject({ required: ['tenant_id', 'question'], additionalProperties: false })
    expect(Object.keys(tools.find((tool) => tool.name === 'wiki.question')!.inputSchema.properties!).sort()).toEqual(['question', 'tenant_id'])

    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual([...templates].sort())
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['svc://payments/action_types'])
    const listed = (await client.listPrompts()).prompts
    expect(listed.map((prompt) => prompt.name).sort()).toEqual([...prompts].sort())
    expect(listed.find((prompt) => prompt.name === 'wiki.question.bills_due')!.arguments!.map((argument) => argument.name)).toEqual(['days', 'as_of'])
    await client.ping()
  })

  it('calls the Ledger and Wiki reads, each answering what its REST twin answers', async () => {
    const client = await connect(reader)
    const owner = world.owner.token
    expect(await call(client, 'ledger.accounts.list', {})).toEqual(await getOk(test, owner, '/v1/ledger/accounts'))
    const transactions = await call(client, 'ledger.transactions.list', { limit: 10 })
    expect(transactions).toEqual(await getOk(test, owner, '/v1/ledger/transactions?limit=10'))
    expect(transactions.transactions.length).toBe(2)
    const transactionId = transactions.transactions[0].id as string
    expect(await call(client, 'ledger.transactions.get', { transaction_id: transactionId })).toEqual(await getOk(test, owner, `/v1/ledger/transactions/${transactionId}`))
    expect(await call(client, 'ledger.counterparties.list', { verified_status: 'unverified' })).toEqual(await getOk(test, owner, '/v1/ledger/counterparties?verified_status=unverified'))
    const obligations = await call(client, 'ledger.obligations.list', { scenario: 'ap' })
    expect(obligations).toEqual(await getOk(test, owner, '/v1/ledger/obligations?scenario=ap'))
    expect(obligations.obligations.length).toBe(1)
    expect(await call(client, 'wiki.entity.get', { entity_id: transactionId })).toEqual(await getOk(test, owner, `/v1/wiki/entity/${transactionId}`))

    const answer = await call(client, 'wiki.question', { tenant_id: world.owner.tenantId, question: 'How many transactions were there in March 2026?' })
    expect(answer).toMatchObject({ answered: true, template: 'transaction_count' })
    expect(answer.figures.length).toBeGreaterThan(0)
    // Recorded as the REST question is: the feed lists it.
    const feed = await getOk(test, owner, '/v1/assistant/questions')
    expect(JSON.stringify(feed)).toContain(answer.question_id)
  })

  it('contributes evidence to Raw as agent_contributed', async () => {
    const client = await connect(contributor)
    const content = `date,amount,description\n2026-03-05,-4.20,COFFEE ${Date.now()}\n`
    const contributed = await call(client, 'raw.contribute', { content, mime_type: 'text/csv', filename: 'receipt.csv', source_ref: { found_in: 'mailbox' } })
    expect(contributed).toMatchObject({ source_type: 'agent_contributed', bytes: Buffer.byteLength(content), deduplicated: false })
    expect(await call(client, 'raw.contribute', { content: Buffer.from(content).toString('base64'), encoding: 'base64', mime_type: 'text/csv' })).toMatchObject({ raw_id: contributed.raw_id, deduplicated: true })
    const listed = await getOk(test, world.owner.token, '/v1/raw?source_type=agent_contributed')
    expect(JSON.stringify(listed)).toContain(contributed.raw_id)
  })

  it('refuses every tool whose scope the agent lacks with -32002', async () => {
    const readerClient = await connect(reader)
    for (const [name, args] of [
      ['raw.contribute', { content: 'x', mime_type: 'text/plain' }],
      ['payment_intent.propose', { action_type: 'ach_outbound', source_account_id: world.account, destination_counterparty_id: world.supplier, amount: '1.00', currency: 'EUR' }],
      ['payment_intent.cancel', { payment_intent_id: 'pi_x' }],
      ['payment_intent.list', {}],
      ['proposals.list', {}],
      ['proposals.get', { id: 'prp_x' }],
      ['evidence.resolve', { refs: [{ kind: 'transaction', ref: 'txn_x' }] }],
      ['agent_action.propose', { action_type: 'flag_transaction', narrative: 'x', confidence: 0.5 }],
      // No scope asks it, yet no agent decides: the service's actor_unresolved, also -32002.
      ['proposals.decide', { id: 'prp_x', decision: 'reject' }],
    ] as const) {
      expect(await refusedCode(readerClient.callTool({ name, arguments: args })), name).toBe(-32002)
    }
    const contributorClient = await connect(contributor)
    for (const name of ['payment_intent.list', 'proposals.list', 'evidence.resolve'] as const) {
      const args = name === 'evidence.resolve' ? { refs: [{ kind: 'transaction', ref: 'txn_x' }] } : {}
      expect(await refusedCode(contributorClient.callTool({ name, arguments: args })), name).toBe(-32002)
    }
    expect(await refusedCode(contributorClient.readResource({ uri: 'svc://payments/action_types'.replace('payments/action_types', 'proofs/pi_x') }))).toBe(-32002)
  })

  it('proposes payments that the policy governs, lists and cancels them, and reads every resource and prompt', async () => {
    const client = await connect(proposer)
    const small = await call(client, 'payment_intent.propose', { action_type: 'ach_outbound', source_account_id: world.account, destination_counterparty_id: world.supplier, amount: '20.00', currency: 'EUR', confidence: 0.9 })
    // Within the signed autonomous cap (50 EUR): allowed and approved by the policy alone.
    expect(small).toMatchObject({ status: 'approved', created_by_agent_id: proposer.agentId, policy_decision: { outcome: 'allow', matched_rule_id: 'small' } })
    const large = await call(client, 'payment_intent.propose', { action_type: 'ach_outbound', source_account_id: world.account, destination_counterparty_id: world.supplier, amount: '80.00', currency: 'EUR', confidence: 0.9 })
    expect(large).toMatchObject({ status: 'pending_approval', policy_decision: { outcome: 'confirm', matched_rule_id: 'other' } })
    expect(await getOk(test, world.owner.token, `/v1/payment-intents/${large.id}`)).toMatchObject({ id: large.id, status: 'pending_approval' })
    // The proposing agent, expanded: a registered agent is external, under its registered name.
    expect((await getOk(test, world.owner.token, `/v1/payment-intents/${large.id}?expand=agent`)).agent).toEqual({ id: proposer.agentId, kind: 'external', display_name: 'MCP proposer' })

    const listed = await call(client, 'payment_intent.list', { agent_id: proposer.agentId })
    expect(listed.payment_intents.map((intent: { id: string }) => intent.id).sort()).toEqual([small.id, large.id].sort())
    expect(await call(client, 'payment_intent.cancel', { payment_intent_id: large.id })).toMatchObject({ id: large.id, status: 'cancelled' })
    // An approved intent is past cancelling: the command's conflict, with its catalogue code.
    const conflict = await client.callTool({ name: 'payment_intent.cancel', arguments: { payment_intent_id: small.id } }).catch((error: McpError) => error)
    expect(conflict).toBeInstanceOf(McpError)
    expect((conflict as McpError).code).toBe(-32602)
    expect((conflict as McpError).data).toMatchObject({ error_code: 'payment_intent_invalid_state' })

    // Every resource template, read through the owning module's service.
    const owner = world.owner.token
    const read = async (uri: string) => {
      const contents = (await client.readResource({ uri })).contents
      expect(contents).toHaveLength(1)
      expect(contents[0]!.uri).toBe(uri)
      return contents[0] as { mimeType: string; text: string }
    }
    const json = async (uri: string) => JSON.parse((await read(uri)).text)
    expect(await json(`svc://ledger/accounts/${world.account}`)).toEqual(await getOk(test, owner, `/v1/ledger/accounts/${world.account}`))
    const transactionId = (await getOk(test, owner, '/v1/ledger/transactions')).transactions[0].id as string
    expect(await json(`svc://ledger/transactions/${transactionId}`)).toEqual(await getOk(test, owner, `/v1/ledger/transactions/${transactionId}`))
    const obligationId = (await getOk(test, owner, '/v1/ledger/obligations?scenario=ap')).obligations[0].id as string
    expect(await json(`svc://ledger/obligations/${obligationId}`)).toEqual(await getOk(test, owner, `/v1/ledger/obligations/${obligationId}`))
    expect(await json(`svc://ledger/payment-intents/${large.id}`)).toEqual(await getOk(test, owner, `/v1/payment-intents/${large.id}`))
    const actionTypes = (await json('svc://payments/action_types')).action_types as Array<{ action_type: string; rail: string }>
    expect(actionTypes).toContainEqual({ action_type: 'ach_outbound', rail: 'bank_ach' })
    expect(actionTypes).toHaveLength(8)
    // No tool executes; the internal executor (the service token) takes the approved intent to the gate. The
    // proposing agent is not promoted, so the gate runs every check and the intent ends shadow_completed
    // (governing rule 7), moving no money.
    const executed = await test.request({ method: 'POST', url: `/v1/payment-intents/${small.id}/execute`, token: world.agent })
    expect(executed.statusCode, executed.body).toBe(202)
    expect(executed.json()).toMatchObject({ status: 'shadow_completed', outbox_id: null })
    expect(await json(`svc://ledger/payment-intents/${small.id}`)).toMatchObject({ status: 'shadow_completed' })
    const proof = await json(`svc://proofs/${small.id}`)
    expect(proof).toEqual(await getOk(test, owner, `/v1/proof/${small.id}`))
    expect(proof).toMatchObject({ action_id: small.id })
    const regenerated = await test.request({ method: 'POST', url: '/v1/memory/regenerate', token: owner, payload: { page_types: ['counterparty'] } })
    expect(regenerated.statusCode, regenerated.body).toBe(200)
    const slug = `counterparty/${world.supplier}`
    const page = await read(`svc://wiki/pages/${slug}`)
    expect(page.mimeType).toBe('text/markdown')
    expect(page.text).toBe((await getOk(test, owner, `/v1/memory/pages/${slug}`)).content)
    expect(page.text).toContain('Paper Supply Co')
    expect(await refusedCode(client.readResource({ uri: 'svc://ledger/accounts/acc_of_nobody' }))).toBe(-32602)

    // Every prompt, answered by the Wiki's deterministic questions.
    const asOf = { as_of: new Date().toISOString() }
    const cases: Array<[string, Record<string, string>, string]> = [
      ['wiki.question.cash_flow_summary', { period: 'in March 2026', ...asOf }, 'What was our cash flow in March 2026?'],
      ['wiki.question.bills_due', { days: '60' }, 'Which bills are due in the next 60 days?'],
      ['wiki.question.spending_change', { period: 'in March 2026' }, 'How did our spending change in March 2026?'],
      ['wiki.question.invoice_status', { invoice_number: 'MCP-2026-001' }, 'What is the status of invoice MCP-2026-001?'],
      ['wiki.question.subscriptions', {}, 'Which subscriptions do we pay for?'],
    ]
    for (const [name, args, question] of cases) {
      const prompt = await client.getPrompt({ name, arguments: args })
      expect(prompt.messages.map((message) => message.role), name).toEqual(['user', 'assistant'])
      expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: question })
      const answer = (prompt.messages[1]!.content as { text: string }).text
      expect(answer, name).toMatch(/question_id wqn_\w+; answered (true|false)/)
    }
    const cashFlow = await client.getPrompt({ name: 'wiki.question.cash_flow_summary', arguments: { period: 'in March 2026' } })
    expect((cashFlow.messages[1]!.content as { text: string }).text).toContain('answered true')
  })

  it('calls the proposal tools as a proposing agent, each answering what its REST twin answers; proposals.decide is -32002 actor_unresolved', async () => {
    const client = await connect(proposer)
    const owner = world.owner.token
    const transactionId = (await getOk(test, owner, '/v1/ledger/transactions')).transactions[0].id as string
    const finding = await call(client, 'agent_action.propose', {
      action_type: 'flag_transaction',
      narrative: 'A second paper order within a week.',
      confidence: 0.7,
      evidence: [{ kind: 'transaction', ref: transactionId }],
    })
    expect(finding).toMatchObject({ id: expect.stringMatching(/^prp_/), agent_id: proposer.agentId, proposal_type: 'fraud_anomaly', action_type: 'flag_transaction', status: 'proposed', evidence_score: 1 })
    // A money action type is not an action: the REST route's 400, as -32602 with its code.
    const money = await client.callTool({ name: 'agent_action.propose', arguments: { action_type: 'ach_outbound', narrative: 'pay', confidence: 0.5 } }).catch((error: McpError) => error)
    expect(money).toBeInstanceOf(McpError)
    expect((money as McpError).code).toBe(-32602)
    expect((money as McpError).data).toMatchObject({ error_code: 'validation_failed' })

    // A payment the agent proposes is a proposal too, listed once.
    const intent = await call(client, 'payment_intent.propose', { action_type: 'ach_outbound', source_account_id: world.account, destination_counterparty_id: world.supplier, amount: '61.00', currency: 'EUR', confidence: 0.6 })
    const listed = await call(client, 'proposals.list', { limit: 100 })
    expect(listed).toEqual(await getOk(test, owner, '/v1/proposals?limit=100'))
    expect(listed.proposals.filter((proposal: { id: string }) => proposal.id === finding.id)).toHaveLength(1)
    const payments = listed.proposals.filter((proposal: { payment_intent_id: string | null }) => proposal.payment_intent_id === intent.id)
    expect(payments).toHaveLength(1)
    expect(payments[0]).toMatchObject({ type: 'payment', status: 'pending_approval', agent: { id: proposer.agentId, kind: 'external' }, policy: { decision: 'confirm', matched_rule_id: 'other' } })
    expect(await call(client, 'proposals.list', { type: 'fraud_anomaly', status: 'proposed' })).toEqual(await getOk(test, owner, '/v1/proposals?type=fraud_anomaly&status=proposed'))
    const read = await call(client, 'proposals.get', { id: finding.id })
    expect(read).toEqual(await getOk(test, owner, `/v1/proposals/${finding.id}`))
    expect(read).toMatchObject({ id: finding.id, type: 'fraud_anomaly', status: 'proposed', narrative: 'A second paper order within a week.' })
    // Another tenant's id, or none: the route's 404 code.
    const missing = await client.callTool({ name: 'proposals.get', arguments: { id: 'prp_of_nobody' } }).catch((error: McpError) => error)
    expect((missing as McpError).code).toBe(-32602)
    expect((missing as McpError).data).toMatchObject({ error_code: 'execution_proposal_not_found' })

    const refs = { refs: [{ kind: 'transaction', ref: transactionId }, { kind: 'counterparty', ref: world.supplier }, { kind: 'document', ref: 'doc_1' }] }
    const resolved = await call(client, 'evidence.resolve', refs)
    const rest = await test.request({ method: 'POST', url: '/v1/evidence/resolve', token: owner, payload: refs })
    expect(rest.statusCode, rest.body).toBe(200)
    expect(resolved).toEqual(rest.json())
    expect(resolved.results.map((result: { resolvable: boolean }) => result.resolvable)).toEqual([true, true, false])

    // Only a person decides: the agent is refused whatever the decision, and nothing changes.
    for (const [id, decision] of [
      [finding.id, 'acknowledge'],
      [payments[0].id, 'approve'],
    ]) {
      const refused = await client.callTool({ name: 'proposals.decide', arguments: { id, decision } }).catch((error: McpError) => error)
      expect(refused, decision).toBeInstanceOf(McpError)
      expect((refused as McpError).code).toBe(-32002)
      expect((refused as McpError).data).toMatchObject({ error_code: 'actor_unresolved' })
    }
    expect((await getOk(test, owner, `/v1/proposals/${finding.id}`)).status).toBe('proposed')
    expect((await getOk(test, owner, `/v1/payment-intents/${intent.id}`)).status).toBe('pending_approval')
    // A member decides the agent's payment through the same proposal.
    const approved = await test.request({ method: 'POST', url: `/v1/proposals/${payments[0].id}/decide`, token: owner, payload: { decision: 'approve' } })
    expect(approved.statusCode, approved.body).toBe(200)
    expect((await getOk(test, owner, `/v1/payment-intents/${intent.id}`)).status).toBe('approved')
  })

  it('is served at POST / on the MCP_PORT listener too, by the same route', async () => {
    expect(loadConfig({ MCP_PORT: '9191' }).mcpPort).toBe(9191)
    expect(loadConfig({}).mcpPort).toBeUndefined()
    expect(() => loadConfig({ PORT: '9191', MCP_PORT: '9191' })).toThrow(ConfigError)
    const listener: Server = await startMcpListener(test.app, { port: 0, host: '127.0.0.1' })
    try {
      const base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`
      const client = await connect(reader, new URL(`${base}/`))
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(ownTools))
      expect(await call(client, 'ledger.accounts.list', {})).toEqual(await getOk(test, world.owner.token, '/v1/ledger/accounts'))
      await client.close()
      // The checks before dispatch are the route's: no token is 401 in the flat variant.
      const anonymous = await fetch(`${base}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) })
      expect(anonymous.status).toBe(401)
      expect(await anonymous.json()).toMatchObject({ error_code: 'auth_token_missing' })
      const elsewhere = await fetch(`${base}/v1/ledger/accounts`, { headers: { authorization: `Bearer ${world.owner.token}` } })
      expect(elsewhere.status).toBe(404)
      expect(await elsewhere.json()).toMatchObject({ error_code: 'route_not_found' })
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()))
    }
  })
})
