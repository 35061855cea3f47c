/**
 * The audit chain as every write leaves it: recorded in the business transaction, linked by the
 * sequencer into a dense, recomputable chain, write-once in the database, unforked under concurrent
 * writers and concurrent sequencers (two processes on PostgreSQL), and checked by the chain walk, which
 * names the first row altered behind the database's back.
 */
import { sql } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuditRecorder } from '../../../src/modules/audit/audit.recorder.ts'
import { createAuditStore } from '../../../src/modules/audit/audit.store.pg.ts'
import { walkChain } from '../../../src/modules/audit/chain-walk.ts'
import { genesisHash } from '../../../src/modules/audit/domain/chain.ts'
import { createAuditSequencer } from '../../../src/modules/audit/sequencer.ts'
import { openDatabase, queryRows, type Database } from '../../../src/platform/db/database.ts'
import { fixedClock, systemClock, type Clock } from '../../../src/kernel/clock.ts'
import { createIdSource } from '../../../src/kernel/ids.ts'
import { createTestApp, signupOwner, testDatabaseUrl, uniqueEmail, type TestApp } from '../../support/harness.ts'
import { isolatedDatabase, type IsolatedDatabase } from '../../support/isolated-database.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

const store = createAuditStore()
const walk = (tenantId: string, db: Database = test.runtime.db) => walkChain(db, store, tenantId)

async function chainRows(tenantId: string) {
  return queryRows<{ id: string; seq: string | number | null; action: string; prev_hash: string | null; hash: string | null; request_id: string | null }>(
    test.runtime.db.orm,
    sql`select id, seq, action, prev_hash, hash, request_id from audit_event_log where tenant_id = ${tenantId} order by recorded_order`,
  )
}

describe('recording and linking', () => {
  it('records each write in its transaction and links it into a dense, recomputable chain', async () => {
    const owner = await signupOwner(test)
    await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/members`, token: owner.token, payload: { email: uniqueEmail(), role: 'viewer' } })
    await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/api-keys`, token: owner.token, payload: { name: 'k' } })
    const recorded = await chainRows(owner.tenantId)
    expect(recorded.map((row) => row.action)).toEqual(['tenant.signed_up', 'user.email_verified', 'auth.login_succeeded', 'member.invited', 'api_key.issued'])
    // Attribution: the request that made each change.
    expect(recorded.every((row) => row.request_id?.startsWith('req_'))).toBe(true)

    await test.runtime.settleAudit()
    const linked = await chainRows(owner.tenantId)
    expect(linked.map((row) => Number(row.seq))).toEqual([1, 2, 3, 4, 5])
    expect(linked[0]!.prev_hash).toBe(genesisHash)
    linked.slice(1).forEach((row, index) => expect(row.prev_hash).toBe(linked[index]!.hash))
    const result = await walk(owner.tenantId)
    expect(result).toMatchObject({ ok: true, events_checked: 5, head_seq: 5, unsequenced: 0, first_break: null })
  })

  it('records several events of any tenants in one statement, in the order given, each with its content as given', async () => {
    const [first, second] = [await signupOwner(test), await signupOwner(test)]
    await test.runtime.settleAudit()
    const recorder = createAuditRecorder({ ids: createIdSource(() => Date.now()), clock: systemClock })
    const record = (tenantId: string, action: string, extra: Record<string, unknown> = {}) => ({
      tenantId,
      layer: 'audit' as const,
      actor: { type: 'system' as const, id: 'test' },
      action,
      entity: { type: 'test', id: action },
      ...extra,
    })
    const inputs = { ids: ['raw_1', 'raw_2'], amount: '10.50', flag: true, none: null, quote: `it's "x" \\ {y}` }
    const evidenceIds = ['raw_a', 'b,c', '{d}', 'e"f']
    const records = [
      record(first.tenantId, 'test.one', { inputs, evidenceIds, requestId: 'req_1' }),
      record(second.tenantId, 'test.two', { outputs: { n: 1.5 } }),
      record(first.tenantId, 'test.three'),
    ]
    const sent = await test.runtime.db.transaction(async (tx) => {
      const written = recorder.sendMany(tx, records)
      await written.written
      return written.ids
    })
    const rows = await queryRows<{ id: string; tenant_id: string; action: string; inputs: unknown; outputs: unknown; evidence_ids: string[]; request_id: string | null }>(
      test.runtime.db.orm,
      sql`select id, tenant_id, action, inputs, outputs, evidence_ids, request_id from audit_event_log where id = any(${sql.param(sent)}::text[]) order by recorded_order`,
    )
    expect(rows).toEqual([
      { id: sent[0], tenant_id: first.tenantId, action: 'test.one', inputs, outputs: {}, evidence_ids: evidenceIds, request_id: 'req_1' },
      { id: sent[1], tenant_id: second.tenantId, action: 'test.two', inputs: {}, outputs: { n: 1.5 }, evidence_ids: [], request_id: null },
      { id: sent[2], tenant_id: first.tenantId, action: 'test.three', inputs: {}, outputs: {}, evidence_ids: [], request_id: null },
    ])
    await test.runtime.settleAudit()
    expect(await walk(first.tenantId)).toMatchObject({ ok: true, unsequenced: 0, first_break: null })
    expect(await walk(second.tenantId)).toMatchObject({ ok: true, unsequenced: 0, first_break: null })
    expect((await chainRows(first.tenantId)).slice(-2).map((row) => row.action)).toEqual(['test.one', 'test.three'])
  })

  it('links events recorded after a settle onto the same chain', async () => {
    const owner = await signupOwner(test)
    await test.runtime.settleAudit()
    await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/api-keys`, token: owner.token, payload: { name: 'later' } })
    expect((await walk(owner.tenantId)).unsequenced).toBe(1)
    await test.runtime.settleAudit()
    expect(await walk(owner.tenantId)).toMatchObject({ ok: true, events_checked: 4, unsequenced: 0 })
  })

  it('is woken by the commit notification when workers run, without a manual settle', async () => {
    const live = await createTestApp({ workers: true })
    try {
      const owner = await signupOwner(live)
      await expect
        .poll(async () => (await walkChain(live.runtime.db, store, owner.tenantId)).head_seq, { timeout: 15_000, interval: 100 })
        .toBe(3)
    } finally {
      await live.close()
    }
  })
})

/**
 * Two independent pools on PostgreSQL, standing for two server processes, each with its own sequencer
 * (batches of `batchEventsMax`), and one recorder; the pools are closed afterwards.
 */
async function withTwoProcesses(
  batchEventsMax: number,
  run: (parts: { processes: Database[]; recorder: ReturnType<typeof createAuditRecorder>; sequencers: Array<ReturnType<typeof createAuditSequencer>> }) => Promise<void>,
): Promise<void> {
  const processes = await Promise.all([0, 1].map(() => openDatabase({ url: testDatabaseUrl(), poolConnectionsMax: 8 })))
  try {
    const ids = createIdSource()
    const sequencers = processes.map((db) =>
      createAuditSequencer({
        db,
        store,
        jobs: test.runtime.jobs,
        ids,
        clock: systemClock,
        logger: pino({ level: 'silent' }),
        options: { batchEventsMax, batchWaitSeconds: 3600, anchoringMode: 'database_hash_chain', sweepIntervalMs: 1000 },
      }),
    )
    await run({ processes, recorder: createAuditRecorder({ ids, clock: systemClock }), sequencers })
  } finally {
    await Promise.all(processes.map((db) => db.close()))
  }
}

describe('concurrency', () => {
  it('never forks or skips under concurrent writers to one tenant', async () => {
    const owner = await signupOwner(test)
    const responses = await Promise.all(
      Array.from({ length: 12 }, () =>
        test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/members`, token: owner.token, payload: { email: uniqueEmail(), role: 'viewer' } }),
      ),
    )
    expect(responses.map((response) => response.statusCode)).toEqual(Array(12).fill(201))
    // Several sequencing passes racing each other, as several workers would.
    await Promise.all([test.runtime.settleAudit(), test.runtime.settleAudit(), test.runtime.settleAudit()])
    expect(await walk(owner.tenantId)).toMatchObject({ ok: true, events_checked: 15, head_seq: 15 })
  })

  it.skipIf(testDatabaseUrl() === undefined)(
    'never forks or skips with two processes writing and sequencing one tenant on PostgreSQL (several connections each)',
    async () => {
      const owner = await signupOwner(test)
      // Two independent pools stand for two server processes; each records and sequences on its own.
      await withTwoProcesses(1024, async ({ processes, recorder, sequencers }) => {
        const writes = processes.flatMap((db, processIndex) =>
          Array.from({ length: 60 }, (_, index) =>
            db.transaction((tx) =>
              recorder.record(tx, {
                tenantId: owner.tenantId,
                layer: 'audit',
                actor: { type: 'system', id: `process-${processIndex}` },
                action: 'test.concurrent_write',
                entity: { type: 'tenant', id: owner.tenantId },
                outputs: { index },
              }),
            ),
          ),
        )
        // Sequencers run while the writes are still landing.
        const sequencing = sequencers.flatMap((sequencer) => [sequencer.settleTenant(owner.tenantId), sequencer.settleTenant(owner.tenantId)])
        await Promise.all([...writes, ...sequencing])
        await Promise.all(sequencers.map((sequencer) => sequencer.settleTenant(owner.tenantId)))
        expect(await walk(owner.tenantId)).toMatchObject({ ok: true, events_checked: 123, head_seq: 123, unsequenced: 0 })
      })
    },
  )

  it.skipIf(testDatabaseUrl() === undefined)(
    'never forks, skips or deadlocks with two processes sweeping several tenants at once on PostgreSQL (each transaction locks many heads)',
    async () => {
      const owners = await Promise.all([0, 1, 2, 3].map(() => signupOwner(test)))
      // Small batches: anchors are closed while both sweep.
      await withTwoProcesses(7, async ({ processes, recorder, sequencers }) => {
        // Each write records one event for each of two tenants (in one statement), in opposite orders.
        const writes = processes.flatMap((db, processIndex) =>
          Array.from({ length: 40 }, (_, index) => {
            const pair = [owners[index % 4]!, owners[(index + 1 + processIndex) % 4]!]
            const ordered = processIndex === 0 ? pair : pair.reverse()
            return db.transaction(async (tx) => {
              const sent = recorder.sendMany(
                tx,
                ordered.map((owner) => ({ tenantId: owner.tenantId, layer: 'audit' as const, actor: { type: 'system' as const, id: `process-${processIndex}` }, action: 'test.sweep_write', entity: { type: 'tenant', id: owner.tenantId }, outputs: { index } })),
              )
              await sent.written
            })
          }),
        )
        const sweeping = sequencers.flatMap((sequencer) => [sequencer.sweep(), sequencer.sweep(), sequencer.settleTenant(owners[2]!.tenantId)])
        await Promise.all([...writes, ...sweeping])
        await Promise.all(sequencers.map((sequencer) => sequencer.sweep()))
        let written = 0
        for (const owner of owners) {
          const result = await walk(owner.tenantId)
          expect(result).toMatchObject({ ok: true, unsequenced: 0, first_break: null })
          expect(result.head_seq).toBe(result.events_checked)
          written += result.events_checked - 3
        }
        // Every write's two events are in the chains (each tenant's 3 signup events aside).
        expect(written).toBe(2 * 2 * 40)
        const [anchors] = await queryRows<{ count: number }>(test.runtime.db.orm, sql`select count(*)::int as count from audit_anchors where tenant_id = any(${sql.param(owners.map((owner) => owner.tenantId))}::uuid[])`)
        expect(anchors!.count).toBeGreaterThan(0)
      })
    },
  )
})

describe('sweeps', () => {
  // A database of their own: the sequencers here sweep every tenant, which on the run's shared PostgreSQL
  // database would close other test files' batches (and theirs could close these).
  let own: TestApp
  let database: IsolatedDatabase | undefined
  beforeAll(async () => {
    database = testDatabaseUrl() === undefined ? undefined : await isolatedDatabase('audit_sweeps')
    own = await createTestApp(database === undefined ? {} : { env: { DATABASE_URL: database.url } })
  })
  afterAll(async () => {
    await own?.close()
    await database?.drop()
  })
  const anchorCount = async (tenantId: string) =>
    (await queryRows<{ count: number }>(own.runtime.db.orm, sql`select count(*)::int as count from audit_anchors where tenant_id = ${tenantId}`))[0]!.count
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  /**
   * A sequencer on this describe's database (batches close once their first event has waited 1 s by
   * `clock`, ahead of every event recorded so far), whose store counts the searches for due batches.
   */
  function countingSequencer(sweepIntervalMs: number) {
    const clock = fixedClock(new Date(Date.now() + 60_000))
    const dueSearches: number[] = []
    const counting = { ...store, tenantsWithDueBatches: (...args: Parameters<typeof store.tenantsWithDueBatches>) => (dueSearches.push(Date.now()), store.tenantsWithDueBatches(...args)) }
    const sequencer = createAuditSequencer({
      db: own.runtime.db,
      store: counting,
      jobs: own.runtime.jobs,
      ids: createIdSource(),
      clock,
      logger: pino({ level: 'silent' }),
      options: { batchEventsMax: 1000, batchWaitSeconds: 1, anchoringMode: 'database_hash_chain', sweepIntervalMs },
    })
    return { sequencer, dueSearches, clock }
  }
  /** Events recorded at `clock`'s time, each past the recorder's pacing (each sends its own wake-up). */
  async function recordSpaced(tenantId: string, count: number, clock: Clock) {
    const recorder = createAuditRecorder({ ids: createIdSource(), clock })
    for (let index = 0; index < count; index += 1) {
      await own.runtime.db.transaction((tx) =>
        recorder.record(tx, { tenantId, layer: 'audit', actor: { type: 'system', id: 'sweep-test' }, action: 'test.sweep', entity: { type: 'tenant', id: tenantId }, outputs: { index } }),
      )
      await pause(150)
    }
  }

  it("links on a recording's wake-up without searching every chain for due batches, which only the timer's sweeps (and explicit ones) do", async () => {
    const owner = await signupOwner(own)
    const { sequencer, dueSearches, clock } = countingSequencer(3_600_000)
    await sequencer.start()
    try {
      // The start's sweep searches for due batches; one that closed the earlier tests' batches (this clock
      // runs a minute ahead) searches again, until none closes. The count is taken once that has settled.
      await expect.poll(() => dueSearches.length).toBeGreaterThanOrEqual(1)
      let searchesAtStart = -1
      while (searchesAtStart !== dueSearches.length) {
        searchesAtStart = dueSearches.length
        await pause(300)
      }
      await sequencer.settleTenant(owner.tenantId, { closeOpenBatch: true })
      const closed = await anchorCount(owner.tenantId)
      await recordSpaced(owner.tenantId, 3, clock)
      await expect.poll(async () => (await walkChain(own.runtime.db, store, owner.tenantId)).unsequenced, { timeout: 10_000, interval: 50 }).toBe(0)
      // Three wake-ups, each linking; none searched for due batches, and the new batch is open.
      expect(dueSearches).toHaveLength(searchesAtStart)
      expect(await anchorCount(owner.tenantId)).toBe(closed)
      // The batch comes due with no event to wake anyone; a sweep that looks for due batches closes it.
      clock.advance(2_000)
      await sequencer.sweep()
      expect(dueSearches).toHaveLength(searchesAtStart + 1)
      expect(await anchorCount(owner.tenantId)).toBe(closed + 1)
    } finally {
      await sequencer.stop()
    }
  })

  it('closes a batch that came due with no new event on the next timer sweep', async () => {
    const owner = await signupOwner(own)
    const { sequencer, clock } = countingSequencer(100)
    await sequencer.start()
    try {
      await sequencer.settleTenant(owner.tenantId, { closeOpenBatch: true })
      const closed = await anchorCount(owner.tenantId)
      await recordSpaced(owner.tenantId, 1, clock)
      await expect.poll(async () => (await walkChain(own.runtime.db, store, owner.tenantId)).unsequenced, { timeout: 10_000, interval: 50 }).toBe(0)
      await pause(300) // timer sweeps while the batch is not yet due
      expect(await anchorCount(owner.tenantId)).toBe(closed)
      clock.advance(2_000)
      await expect.poll(() => anchorCount(owner.tenantId), { timeout: 10_000, interval: 50 }).toBe(closed + 1)
      expect(await walkChain(own.runtime.db, store, owner.tenantId)).toMatchObject({ ok: true, unsequenced: 0 })
    } finally {
      await sequencer.stop()
    }
  })
})

describe('append-only in the database', () => {
  it('refuses any change to a recorded event, and its removal before it is in the chain', async () => {
    const owner = await signupOwner(test)
    const db = test.runtime.db.orm
    const [waiting] = await chainRows(owner.tenantId)
    expect(waiting!.seq).toBeNull()
    await expect(db.execute(sql`update audit_inbox set action = 'forged' where id = ${waiting!.id}`)).rejects.toThrow()
    await expect(db.execute(sql`delete from audit_inbox where id = ${waiting!.id}`)).rejects.toThrow()
    await expect(db.execute(sql`truncate audit_inbox`)).rejects.toThrow()
    // A forged copy in the chain with other content does not release the recorded one either.
    await expect(
      test.runtime.db.transaction(async (tx) => {
        await tx.execute(sql`insert into audit_events select id, tenant_id, layer, actor_type, actor_id, 'forged', entity_type, entity_id, inputs, outputs,
                                    evidence_ids, request_id, created_at, recorded_order, 999999, ${genesisHash}, ${genesisHash}, now()
                             from audit_inbox where id = ${waiting!.id}`)
        await tx.execute(sql`delete from audit_inbox where id = ${waiting!.id}`)
      }),
    ).rejects.toThrow()
    expect((await chainRows(owner.tenantId)).map((row) => row.id)).toContain(waiting!.id)
  })

  it('refuses UPDATE, DELETE and TRUNCATE of the chain, its batches and their publications', async () => {
    const owner = await signupOwner(test)
    const db = test.runtime.db.orm
    await test.runtime.settleAudit({ closeOpenBatch: true })
    const [linked] = await chainRows(owner.tenantId)
    expect(Number(linked!.seq)).toBe(1)
    await expect(db.execute(sql`update audit_events set action = 'forged' where id = ${linked!.id}`)).rejects.toThrow()
    await expect(db.execute(sql`update audit_events set seq = 99 where tenant_id = ${owner.tenantId}`)).rejects.toThrow()
    await expect(db.execute(sql`delete from audit_events where tenant_id = ${owner.tenantId}`)).rejects.toThrow()
    await expect(db.execute(sql`truncate audit_events`)).rejects.toThrow()
    await expect(db.execute(sql`update audit_anchors set merkle_root = ${genesisHash} where tenant_id = ${owner.tenantId}`)).rejects.toThrow()
    await expect(db.execute(sql`delete from audit_anchors where tenant_id = ${owner.tenantId}`)).rejects.toThrow()
    await expect(db.execute(sql`truncate audit_anchor_publications`)).rejects.toThrow()
    expect((await walk(owner.tenantId)).ok).toBe(true)
  })
})

describe('the chain walk', () => {
  /** An operator with the database's keys, bypassing its triggers for one transaction. */
  async function behindTheDatabasesBack(statement: ReturnType<typeof sql>) {
    await test.runtime.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`)
      await tx.execute(statement)
    })
  }

  it.each([
    ['an altered action (content)', (id: string) => sql`update audit_events set action = 'member.forged' where id = ${id}`, 'hash_mismatch'],
    ['an altered output', (id: string) => sql`update audit_events set outputs = '{"role":"admin"}'::jsonb where id = ${id}`, 'hash_mismatch'],
    ['a rewritten hash', (id: string) => sql`update audit_events set hash = ${'f'.repeat(64)} where id = ${id}`, 'hash_mismatch'],
  ])('names the event behind %s', async (_label, alter, problem) => {
    const owner = await signupOwner(test)
    await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/members`, token: owner.token, payload: { email: uniqueEmail(), role: 'viewer' } })
    await test.runtime.settleAudit()
    const rows = await chainRows(owner.tenantId)
    const target = rows.find((row) => row.action === 'member.invited')!
    await behindTheDatabasesBack(alter(target.id))
    const result = await walk(owner.tenantId)
    expect(result.ok).toBe(false)
    expect(result.first_break).toMatchObject({ seq: Number(target.seq), event_id: target.id, problem })
    expect(result.events_checked).toBe(Number(target.seq) - 1)
  })

  it('names a removed event (a gap) and a Merkle batch whose root no longer matches', async () => {
    const owner = await signupOwner(test)
    await test.runtime.settleAudit({ closeOpenBatch: true })
    const rows = await chainRows(owner.tenantId)
    await behindTheDatabasesBack(sql`update audit_anchors set merkle_root = ${`0x${'a'.repeat(64)}`} where tenant_id = ${owner.tenantId}`)
    expect((await walk(owner.tenantId)).first_break).toMatchObject({ problem: 'anchor_root_mismatch' })
    await behindTheDatabasesBack(sql`delete from audit_events where id = ${rows[1]!.id}`)
    expect((await walk(owner.tenantId)).first_break).toMatchObject({ seq: 3, problem: 'seq_gap', expected: '2', found: '3' })
  })
})
