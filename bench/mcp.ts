/**
 * Agent-protocol benchmark (issue 20): `tools/call` of a Ledger read (`ledger.accounts.list`) against the
 * same REST route (`GET /v1/ledger/accounts`) in the same run, on the real runtime and app over HTTP, with
 * the same agent token (an external agent registered, activated and signed in with SIWX) and the same data
 * (a small Ledger of 5 accounts and 50 transactions). autocannon in a worker thread (bench/load.ts);
 * each route gets a warm-up, then the two are measured alternately, `--rounds` times each. Reports
 * throughput and p99 per route and the ratio MCP ÷ REST of the best round's throughput. Target: ≥ 0.8.
 *
 * Every MCP request creates a fresh SDK server and stateless transport (docs/mcp.md), runs the
 * agents module's checks before dispatch (a registry read) and answers through the same LedgerService
 * method as the route; the REST request runs the guard and the service method.
 *
 *   npm run bench:mcp -- [--duration 10] [--connections 8] [--rounds 2]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:mcp
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { buildSiwxMessage } from '../src/modules/auth/domain/siwx.ts'
import { seedParsedArtifact } from '../src/modules/raw/raw.testing.ts'
import { measure, round, type Measurement, type Workload } from './load.ts'
import { startBenchServer, type BenchServer } from './server.ts'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.BENCH_MCP_DURATION ?? '10' },
    warmup: { type: 'string', default: process.env.BENCH_MCP_WARMUP ?? '3' },
    connections: { type: 'string', default: process.env.BENCH_MCP_CONNECTIONS ?? '8' },
    rounds: { type: 'string', default: process.env.BENCH_MCP_ROUNDS ?? '2' },
    output: { type: 'string', default: process.env.BENCH_MCP_OUTPUT ?? 'bench/results/mcp.json' },
  },
  strict: true,
})
const durationSeconds = Number(values.duration)
const warmupSeconds = Number(values.warmup)
const connections = Number(values.connections)
const rounds = Number(values.rounds)
/** The target: MCP throughput at least this share of the REST route's. */
const ratioTarget = 0.8

async function post(server: BenchServer, url: string, body: unknown, token?: string) {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`)
  return (await response.json()) as Record<string, any>
}

/** A tenant with a small Ledger and a reader agent signed in with SIWX: its access token. */
async function agentToken(server: BenchServer): Promise<string> {
  const email = `bench-mcp-${Date.now()}@example.com`
  const password = 'correct horse battery staple'
  const created = await post(server, '/v1/signup', { email, password })
  const tenantId = created.tenant_id as string
  await post(server, '/v1/auth/verify-email', { tenant_id: tenantId, token: created.verification_token })
  const owner = (await post(server, '/v1/auth/login', { email, password })).access_token as string
  await server.unlimitTenant(tenantId)

  const records = Array.from({ length: 50 }, (_, index) => ({
    kind: 'transaction' as const,
    account: { iban: `DE8937040044053201300${index % 5}`, name: `Account ${index % 5}`, currency: 'EUR' },
    currency: 'EUR',
    status: 'posted' as const,
    amount: `-${(index + 1).toFixed(2)}`,
    transaction_date: `2026-03-${String((index % 28) + 1).padStart(2, '0')}`,
    description: `BENCH ${index}`,
    counterparty: { name: `Vendor ${index % 10}` },
  }))
  const seeded = await seedParsedArtifact(server.runtime.db, { tenantId, records, at: new Date() })
  await server.runtime.ledger.normalizer.normalizeArtifact(tenantId, seeded.artifactId, { actor: { type: 'system', id: 'bench' } })

  const account = privateKeyToAccount(generatePrivateKey())
  const agentId = 'agt_bench_reader'
  // Registering needs execution:admin, a member admin's: invite one.
  const adminEmail = `bench-mcp-admin-${Date.now()}@example.com`
  const invited = await post(server, `/v1/tenants/${tenantId}/members`, { email: adminEmail, role: 'admin' }, owner)
  await post(server, '/v1/auth/accept-invitation', { tenant_id: tenantId, token: invited.invitation_token, password })
  const admin = (await post(server, '/v1/auth/login', { email: adminEmail, password })).access_token as string
  await post(server, '/v1/execution/agents/register', { agent_id: agentId, role: 'reader', display_name: 'Bench reader', onchain_address: account.address }, admin)
  await post(server, `/v1/tenants/${tenantId}/wallets`, { address: account.address, principal_type: 'agent', principal_id: agentId }, owner)
  await server.runtime.agents.registry.resume({ requestId: 'bench' }, { tenantId, agentId, actor: { type: 'platform', id: 'governance' } })
  const challenge = await post(server, '/v1/auth/siwx/challenge', { address: account.address })
  const message = buildSiwxMessage({ domain: challenge.domain, address: account.address, uri: challenge.uri, chainId: 8453, nonce: challenge.nonce, issuedAt: new Date(challenge.issued_at), expirationTime: new Date(challenge.expiration_time) })
  return (await post(server, '/v1/auth/siwx', { message, signature: await account.signMessage({ message }), session_id: 'bench' })).access_token as string
}

const server = await startBenchServer(process.env, 'silent')
try {
  const token = await agentToken(server)
  const rest: Workload = { id: 'rest', name: 'GET /v1/ledger/accounts', method: 'GET', path: '/v1/ledger/accounts', headers: { authorization: `Bearer ${token}` }, connections }
  const mcp: Workload = {
    id: 'mcp',
    name: 'POST /v1/agents/mcp tools/call ledger.accounts.list',
    method: 'POST',
    path: '/v1/agents/mcp',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ledger.accounts.list', arguments: {} } },
    connections,
  }
  // Both answer the same accounts before anything is timed.
  const restBody = await (await fetch(`${server.baseUrl}${rest.path}`, { headers: rest.headers })).json()
  const mcpBody = (await post(server, mcp.path, mcp.body, token)) as { result?: { structuredContent?: unknown } }
  if (JSON.stringify(mcpBody.result?.structuredContent) !== JSON.stringify(restBody) || (restBody as { accounts: unknown[] }).accounts.length !== 5) {
    throw new Error(`the tool and the route disagree: ${JSON.stringify(mcpBody).slice(0, 300)} vs ${JSON.stringify(restBody).slice(0, 300)}`)
  }

  await measure(server.baseUrl, rest, warmupSeconds)
  await measure(server.baseUrl, mcp, warmupSeconds)
  const measured: Record<'rest' | 'mcp', Measurement[]> = { rest: [], mcp: [] }
  for (let roundIndex = 0; roundIndex < rounds; roundIndex += 1) {
    measured.rest.push(await measure(server.baseUrl, rest, durationSeconds))
    measured.mcp.push(await measure(server.baseUrl, mcp, durationSeconds))
  }
  const best = (list: Measurement[]) => list.reduce((a, b) => (b.requests_per_second > a.requests_per_second ? b : a))
  const summary = (list: Measurement[]) => {
    const top = best(list)
    return { requests_per_second: top.requests_per_second, p50_ms: top.p50_ms, p99_ms: top.p99_ms, non_2xx: list.reduce((sum, item) => sum + item.non_2xx + item.errors, 0), rounds: list.map((item) => item.requests_per_second) }
  }
  const result = {
    engine: server.engine,
    duration_seconds: durationSeconds,
    connections,
    rest: summary(measured.rest),
    mcp: summary(measured.mcp),
    ratio: round(best(measured.mcp).requests_per_second / best(measured.rest).requests_per_second, 3),
    target: ratioTarget,
  }
  const line = (label: string, figures: ReturnType<typeof summary>) =>
    `${label.padEnd(52)} ${String(figures.requests_per_second).padStart(8)} req/s   p50 ${String(figures.p50_ms).padStart(6)} ms   p99 ${String(figures.p99_ms).padStart(6)} ms   non-2xx ${figures.non_2xx}`
  process.stdout.write(`${line(rest.name, result.rest)}\n${line(mcp.name, result.mcp)}\n`)
  process.stdout.write(`ratio MCP ÷ REST: ${result.ratio} (target ≥ ${ratioTarget}) on ${server.engine}, ${connections} connections, best of ${rounds} × ${durationSeconds} s\n`)
  mkdirSync(dirname(values.output!), { recursive: true })
  writeFileSync(values.output!, `${JSON.stringify(result, null, 2)}\n`)
  if (result.mcp.non_2xx > 0 || result.rest.non_2xx > 0) throw new Error('some requests failed')
} finally {
  await server.close()
}
