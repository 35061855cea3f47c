/**
 * The job queue's batch API (platform/jobs/job-queue.ts), on both engines: `enqueueMany` writes several
 * jobs in the caller's transaction (none if it rolls back) with the queue's policy; `workBatches` hands
 * the fetched jobs to one handler call, completes those it answers null for, fails (for retry) those it
 * answers an error for and those whose payload does not check, each on its own; with `concurrency`, that
 * many batches are in the handler at once.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Type from 'typebox'
import { openDatabase, queryRows } from '../../src/platform/db/database.ts'
import { createJobQueue, defineQueue, jobWakeChannel, jobWakeIntervalMs, type JobQueue } from '../../src/platform/jobs/job-queue.ts'
import { createTestApp, engineName, testDatabaseUrl, type TestApp } from '../support/harness.ts'

const suffix = randomBytes(3).toString('hex')
const queue = defineQueue({
  name: `test-batches-${suffix}`,
  version: 1,
  payload: Type.Object({ n: Type.Integer() }, { additionalProperties: false }),
  policy: { retryLimit: 3, retryDelay: 60, expireInSeconds: 60 },
})

let test: TestApp
let jobs: JobQueue
beforeAll(async () => {
  test = await createTestApp()
  jobs = createJobQueue(test.runtime.db, { schema: 'pgboss', logger: test.runtime.logger, queues: [queue] })
  await jobs.start()
})
afterAll(async () => {
  await jobs?.stop({ timeoutMs: 5_000 })
  await test?.close()
})

interface JobRow {
  n: number
  state: string
  retry_count: number
  retry_limit: number
  start_after_in_future: boolean
}

const jobRows = () =>
  queryRows<JobRow>(
    test.runtime.db.orm,
    sql`select (data->>'n')::int as n, state, retry_count, retry_limit, start_after > now() + interval '30 seconds' as start_after_in_future
          from pgboss.job where name = ${queue.name} and data->>'n' ~ '^[0-9]+$' order by (data->>'n')::int`,
  )

async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; waited < 300; waited += 1) {
    if (await done()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe(`job queue batches (${engineName()})`, () => {
  it('enqueueMany writes the jobs with the transaction, with the queue policy and each job its options; nothing when it rolls back', async () => {
    await expect(
      test.runtime.db.transaction(async (tx) => {
        await jobs.enqueueMany(tx, queue, [{ data: { n: 100 } }])
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(await jobRows()).toEqual([])
    await test.runtime.db.transaction((tx) => jobs.enqueueMany(tx, queue, [{ data: { n: 1 } }, { data: { n: 2 } }, { data: { n: 3 } }, { data: { n: 9 }, options: { startAfterSeconds: 3600 } }]))
    await test.runtime.db.transaction((tx) => jobs.enqueueMany(tx, queue, []))
    expect(await jobRows()).toEqual([
      { n: 1, state: 'created', retry_count: 0, retry_limit: 3, start_after_in_future: false },
      { n: 2, state: 'created', retry_count: 0, retry_limit: 3, start_after_in_future: false },
      { n: 3, state: 'created', retry_count: 0, retry_limit: 3, start_after_in_future: false },
      { n: 9, state: 'created', retry_count: 0, retry_limit: 3, start_after_in_future: true },
    ])
    // A payload that does not match the queue's schema is refused before anything is written.
    await expect(test.runtime.db.transaction((tx) => jobs.enqueueMany(tx, queue, [{ data: { n: 4 } }, { data: { n: 'five' } as never }]))).rejects.toThrow(/does not match its payload schema/)
    expect((await jobRows()).map((row) => row.n)).toEqual([1, 2, 3, 9])
  })

  it('workBatches hands a batch to one call; a job answered with an error, or whose payload does not check, fails alone', async () => {
    // A job another definition of the queue wrote (a process of another build): failed by this worker, not handed on.
    const loose = defineQueue({ name: queue.name, version: 1, payload: Type.Object({ n: Type.String() }), policy: queue.policy })
    const other = createJobQueue(test.runtime.db, { schema: 'pgboss', logger: test.runtime.logger, queues: [loose] })
    await other.start()
    await test.runtime.db.transaction((tx) => other.enqueue(tx, loose, { n: 'bad' }))
    await other.stop({ timeoutMs: 5_000 })
    const calls: number[][] = []
    await jobs.workBatches(
      queue,
      async (batch) => {
        calls.push(batch.map((job) => job.data.n))
        return batch.map((job) => (job.data.n === 2 ? new Error('two fails') : null))
      },
      { batchSize: 8, pollingIntervalSeconds: 0.5 },
    )
    const settled = async () => (await jobRows()).filter((row) => row.n !== 9).every((row) => row.state === 'completed' || row.state === 'retry')
    await until(settled, 'the batch to be settled')
    // One call with the three good jobs (the bad one never reaches the handler; the delayed one is not due).
    expect(calls.map((batch) => [...batch].sort())).toEqual([[1, 2, 3]])
    expect(Object.fromEntries((await jobRows()).map((row) => [row.n, row.state]))).toEqual({ 1: 'completed', 2: 'retry', 3: 'completed', 9: 'created' })
    const outputOf = async (n: string) =>
      (await queryRows<{ state: string; output: { message?: string } }>(test.runtime.db.orm, sql`select state, output from pgboss.job where name = ${queue.name} and data->>'n' = ${n}`))[0]
    expect(await outputOf('2')).toMatchObject({ state: 'retry', output: { message: 'two fails' } })
    expect(await outputOf('bad')).toMatchObject({ state: 'retry', output: { message: expect.stringContaining('does not match its schema') } })
  })
})

describe(`job queue batches in flight together (${engineName()})`, () => {
  const parallel = defineQueue({
    name: `test-batches-parallel-${suffix}`,
    version: 1,
    payload: Type.Object({ n: Type.Integer() }, { additionalProperties: false }),
    policy: { retryLimit: 0, expireInSeconds: 60 },
  })
  let parallelJobs: JobQueue
  beforeAll(async () => {
    parallelJobs = createJobQueue(test.runtime.db, { schema: 'pgboss', logger: test.runtime.logger, queues: [parallel] })
    await parallelJobs.start()
  })
  afterAll(async () => {
    await parallelJobs?.stop({ timeoutMs: 5_000 })
  })

  it('workBatches with concurrency 2 has two batches in its handler at once, each job in one of them; 0 is refused', async () => {
    await expect(parallelJobs.workBatches(parallel, async (batch) => batch.map(() => null), { concurrency: 0 })).rejects.toThrow(/concurrency must be a positive integer/)
    await test.runtime.db.transaction((tx) => parallelJobs.enqueueMany(tx, parallel, [1, 2, 3, 4].map((n) => ({ data: { n } }))))
    let inFlight = 0
    let mostInFlight = 0
    const handled: number[][] = []
    await parallelJobs.workBatches(
      parallel,
      async (batch) => {
        inFlight += 1
        mostInFlight = Math.max(mostInFlight, inFlight)
        // Holds its batch until another is in flight beside it (or 5 s: one batch at a time never gets there).
        for (let waited = 0; inFlight < 2 && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20))
        handled.push(batch.map((job) => job.data.n))
        await new Promise((resolve) => setTimeout(resolve, 50))
        inFlight -= 1
        return batch.map(() => null)
      },
      { batchSize: 2, concurrency: 2, pollingIntervalSeconds: 0.5 },
    )
    await until(async () => handled.flat().length >= 4, 'the four jobs to be handled')
    expect(mostInFlight).toBe(2)
    expect(handled.map((batch) => batch.length)).toEqual([2, 2])
    expect(handled.flat().sort()).toEqual([1, 2, 3, 4])
  })
})

/**
 * PostgreSQL: `nudge` reaches the workers of another process (a NOTIFY sent after the commit, paced per
 * queue). Two job queues on two databases stand for two processes sharing one PostgreSQL database.
 */
describe.runIf(testDatabaseUrl() !== undefined)('nudging across processes (postgres)', () => {
  const wakeQueue = defineQueue({
    name: `test-wake-${suffix}`,
    version: 1,
    payload: Type.Object({ n: Type.Integer() }, { additionalProperties: false }),
    policy: { retryLimit: 0, expireInSeconds: 60 },
  })

  it("a job another process enqueued and nudged is taken at once, not at the worker's next poll", async () => {
    const processes = await Promise.all([0, 1].map(() => openDatabase({ url: testDatabaseUrl(), poolConnectionsMax: 4 })))
    const [working, enqueuing] = processes.map((db) => createJobQueue(db, { schema: 'pgboss', logger: test.runtime.logger, queues: [wakeQueue] })) as [JobQueue, JobQueue]
    try {
      await working.start()
      await enqueuing.start()
      const taken: Array<{ n: number; at: number }> = []
      // A worker that polls once a minute: its first fetch happens at once, then not for 60 s.
      await working.work(wakeQueue, async (job) => void taken.push({ n: job.data.n, at: Date.now() }), { pollingIntervalSeconds: 60 })
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      for (const n of [1, 2]) {
        await processes[1]!.transaction((tx) => enqueuing.enqueue(tx, wakeQueue, { n }))
        const committedAt = Date.now()
        enqueuing.nudge(wakeQueue)
        await until(async () => taken.some((job) => job.n === n), `job ${n} to be taken`)
        expect(taken.find((job) => job.n === n)!.at - committedAt).toBeLessThan(10_000)
      }
    } finally {
      await Promise.all([working.stop({ timeoutMs: 5_000 }), enqueuing.stop({ timeoutMs: 5_000 })])
      await Promise.all(processes.map((db) => db.close()))
    }
  })

  it('sends one NOTIFY for a burst of nudges of a queue, and one more at the end of the interval', async () => {
    const db = await openDatabase({ url: testDatabaseUrl(), poolConnectionsMax: 2 })
    const nudging = createJobQueue(db, { schema: 'pgboss', logger: test.runtime.logger, queues: [wakeQueue] })
    const heard: string[] = []
    const unlisten = await test.runtime.db.listen(jobWakeChannel, (payload) => heard.push(payload))
    try {
      await nudging.start()
      for (let index = 0; index < 20; index += 1) nudging.nudge(wakeQueue)
      const ourMessages = () => heard.map((payload) => JSON.parse(payload) as { schema: string; queue: string }).filter((message) => message.queue === wakeQueue.name)
      // The second arrives after the interval (later on a loaded machine); then several intervals bring no third.
      await expect.poll(() => ourMessages().length, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(2)
      await new Promise((resolve) => setTimeout(resolve, jobWakeIntervalMs * 6))
      const ours = ourMessages()
      expect(ours).toHaveLength(2)
      expect(ours[0]).toMatchObject({ schema: 'pgboss', queue: wakeQueue.name })
    } finally {
      await unlisten()
      await nudging.stop({ timeoutMs: 5_000 })
      await db.close()
    }
  })
})
