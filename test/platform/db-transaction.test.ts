/**
 * The transaction runner (src/platform/db/database.ts): on PostgreSQL BEGIN leaves with the first
 * statement and COMMIT with the writes handed to `commitWith`; on both engines a transaction resolves only
 * once those writes have, and rejects, rolled back whole, when one fails.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commitWith, queryRows } from '../../src/platform/db/database.ts'
import { createTestApp, engineName, type TestApp } from '../support/harness.ts'

let test: TestApp
const table = `tx_runner_${engineName()}_${Date.now()}`
beforeAll(async () => {
  test = await createTestApp()
  await test.runtime.db.orm.execute(sql.raw(`create table ${table} (id text primary key, note text not null)`))
})
afterAll(async () => {
  await test?.runtime.db.orm.execute(sql.raw(`drop table if exists ${table}`))
  await test?.close()
})

const db = () => test.runtime.db
/** The database's own message (Drizzle wraps it as "Failed query: …" with the driver's error as its cause). */
const causeOf = (error: unknown): string => {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
  return cause instanceof Error ? cause.message : String(cause)
}
const insert = (id: string, note = 'n') => sql.raw(`insert into ${table} (id, note) values ('${id}', '${note}')`)
const ids = async (prefix: string) =>
  (await queryRows<{ id: string }>(db().orm, sql.raw(`select id from ${table} where id like '${prefix}%' order by id`))).map((row) => row.id)

describe(`the transaction runner (${engineName()})`, () => {
  it('commits the deferred writes with the transaction, and resolves only once they are written', async () => {
    const result = await db().transaction(async (tx) => {
      await tx.execute(insert('a1'))
      commitWith(tx, Promise.all([tx.execute(insert('a2')), tx.execute(insert('a3'))]))
      return 'done'
    })
    expect(result).toBe('done')
    expect(await ids('a')).toEqual(['a1', 'a2', 'a3'])
  })

  it('rejects with a failed deferred write, and rolls the whole transaction back', async () => {
    await db().orm.execute(insert('b0'))
    const attempt = db().transaction(async (tx) => {
      await tx.execute(insert('b1'))
      commitWith(tx, tx.execute(insert('b2')))
      commitWith(tx, tx.execute(insert('b0'))) // a duplicate key: fails
      commitWith(tx, tx.execute(insert('b3')))
    })
    await expect(attempt.catch(causeOf)).resolves.toMatch(/duplicate key/)
    expect(await ids('b')).toEqual(['b0'])
  })

  it('rejects with a failed deferred write, not with the abort a statement awaited after it reports', async () => {
    await db().orm.execute(insert('x0'))
    const attempt = db().transaction(async (tx) => {
      commitWith(tx, tx.execute(insert('x0'))) // a duplicate key: aborts the transaction
      await tx.execute(insert('x1')) // answered "current transaction is aborted"
    })
    await expect(attempt.catch(causeOf)).resolves.toMatch(/duplicate key/)
    expect(await ids('x')).toEqual(['x0'])
  })

  it('runs the statements issued at once with BEGIN inside the transaction', async () => {
    // The first statement is queued in the same tick as BEGIN (PostgreSQL: the same round trip).
    const attempt = db().transaction(async (tx) => {
      const first = tx.execute(insert('c1'))
      const second = tx.execute(insert('c2'))
      await Promise.all([first, second])
      throw new Error('changed my mind')
    })
    await expect(attempt).rejects.toThrow('changed my mind')
    expect(await ids('c')).toEqual([])
  })

  it('honours the transaction characteristics (read only refuses a write)', async () => {
    const attempt = db().transaction(async (tx) => {
      await tx.execute(insert('d1'))
    }, { isolationLevel: 'repeatable read', accessMode: 'read only' })
    await expect(attempt.catch(causeOf)).resolves.toMatch(/read-only transaction/)
    expect(await ids('d')).toEqual([])
  })

  it('sees its own writes and keeps them from others until the commit', async () => {
    let seenInside: string[] = []
    let seenOutside: string[] = ['not read']
    await db().transaction(async (tx) => {
      await tx.execute(insert('e1'))
      seenInside = (await queryRows<{ id: string }>(tx, sql.raw(`select id from ${table} where id like 'e%'`))).map((row) => row.id)
      // PGlite has one connection: a read beside the transaction would wait for it.
      if (engineName() === 'postgres') seenOutside = await ids('e')
    })
    expect(seenInside).toEqual(['e1'])
    if (engineName() === 'postgres') expect(seenOutside).toEqual([])
    expect(await ids('e')).toEqual(['e1'])
  })

  it('keeps the pool usable after many failed and successful transactions', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, (_, index) =>
        db().transaction(async (tx) => {
          commitWith(tx, tx.execute(insert(`f${String(index).padStart(2, '0')}`)))
          if (index % 3 === 0) commitWith(tx, tx.execute(sql.raw('select 1/0')))
        }),
      ),
    )
    const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [causeOf(outcome.reason)] : []))
    expect(failures).toEqual(Array.from({ length: 14 }, () => 'division by zero'))
    const expected = Array.from({ length: 40 }, (_, index) => index).filter((index) => index % 3 !== 0).map((index) => `f${String(index).padStart(2, '0')}`)
    expect(await ids('f')).toEqual(expected)
  })
})
