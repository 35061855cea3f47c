/**
 * The money path under concurrency, on PostgreSQL with two server processes (issue 16): 64 concurrent
 * executes of one approved intent give exactly one 202 and one outbox row, over 100 trials; two intents
 * racing for one balance never both reserve it. On PGlite (one process, one connection) there is no
 * race to lose, and these are skipped.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { createTestApp, engineName, testServiceTokenSecret, type TestApp } from '../../support/harness.ts'
import { approvedIntent, business } from '../../support/payments.ts'
import { startServer, waitUntilServing, type RunningServer } from '../../support/server-process.ts'

/** Trials of the one-intent race, and concurrent executes in each (the figures). */
const executeTrials = 100
const executesPerTrial = 64
/** Trials of the one-balance race. */
const balanceTrials = 20

describe.runIf(engineName() === 'postgres')('races on PostgreSQL, two server processes', () => {
  const secrets = { JWT_SECRET: randomBytes(32).toString('hex'), API_KEY_PEPPER: randomBytes(32).toString('hex') }
  const dataDir = mkdtempSync(join(tmpdir(), 'steward-races-'))
  const servers: RunningServer[] = []
  let test: TestApp

  beforeAll(async () => {
    test = await createTestApp({ env: secrets })
    for (const name of ['a', 'b']) {
      const server = await startServer({
        ...secrets,
        SERVICE_TOKEN_SECRET: testServiceTokenSecret,
        DATA_DIR: join(dataDir, name),
        SANDBOX_DEMO_DATA: 'false',
        LOG_LEVEL: 'warn',
        PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
        PUBLIC_RATE_LIMIT_BURST: '100000',
      })
      servers.push(server)
      await waitUntilServing(server)
    }
  }, 120_000)

  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM')
    await Promise.all(servers.map((server) => server.exited))
    await test?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  /** POST …/execute on server `index % 2`; the status code. */
  const execute = async (index: number, token: string, id: string) =>
    (await fetch(`${servers[index % 2]!.url}/v1/payment-intents/${id}/execute`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status

  it(`dispatches an intent once under ${executesPerTrial} concurrent executes, ${executeTrials} times`, async () => {
    const b = await business(test, '100000.00')
    // 6,400 requests from one service token: the tenant's per-credential budget must not be what answers.
    await test.runtime.db.orm.execute(sql`update tenants set rate_limit_tier = 'enterprise', rate_limit_per_minute = 1000000000, rate_limit_burst = 1000000000 where id = ${b.owner.tenantId}`)
    const outcomes: string[] = []
    for (let trial = 0; trial < executeTrials; trial += 1) {
      // A distinct amount per trial: otherwise the duplicate-payment check (11.5) would refuse the later ones.
      const id = await approvedIntent(test, b, { amount: (1 + trial / 100).toFixed(2) })
      await test.runtime.settleAudit()
      const statuses = await Promise.all(Array.from({ length: executesPerTrial }, (_, index) => execute(index, b.agent, id)))
      const [outbox] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from payment_outbox where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
      outcomes.push(`${statuses.filter((status) => status === 202).length}:${statuses.filter((status) => status === 409).length}:${outbox!.n}`)
    }
    expect(new Set(outcomes)).toEqual(new Set([`1:${executesPerTrial - 1}:1`]))
  }, 600_000)

  it(`never lets two intents reserve one balance, ${balanceTrials} times`, async () => {
    for (let trial = 0; trial < balanceTrials; trial += 1) {
      const b = await business(test, '50.00')
      const first = await approvedIntent(test, b, { amount: '30.00' })
      const second = await approvedIntent(test, b, { amount: '25.00' })
      await test.runtime.settleAudit()
      const statuses = await Promise.all([execute(0, b.agent, first), execute(1, b.agent, second)])
      expect(statuses.sort()).toEqual([202, 409])
      const [reserved] = await queryRows<{ n: number; total: string }>(
        test.runtime.db.orm,
        sql`select count(*)::int as n, coalesce(sum(amount), 0)::text as total from payment_reservations where tenant_id = ${b.owner.tenantId} and status = 'active'`,
      )
      expect(reserved!.n).toBe(1)
    }
  }, 600_000)
})
