/**
 * Hot statements (src/platform/db/statements.ts) on both engines: the same rows, with the same types, as
 * the ORM answers, on the database and inside a transaction (where they see its uncommitted writes); and
 * the modules' statements read exactly what the ORM's `select()` reads (jsonb and text[] included); and
 * `inserter` writes, and `selector` reads, exactly the rows the ORM's insert and select do, for every column
 * type we use; `selectorIn` reads a batch of keys' rows as `selector` reads one's.
 */
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { boolean, integer, jsonb, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { inserter, selector, selectorIn, statement } from '../../src/platform/db/statements.ts'
import { tenantById, userStanding } from '../../src/modules/tenants/tenants.statements.ts'
import { members, tenants, users } from '../../src/modules/tenants/tenants.tables.ts'
import { activePolicyRows, activePolicyRowsForShare } from '../../src/modules/policy/policy.store.pg.ts'
import { policies } from '../../src/modules/policy/policy.tables.ts'
import { createTestApp, engineName, signupOwner, type TestApp } from '../support/harness.ts'

let test: TestApp
const table = `statements_${engineName()}_${Date.now()}`
beforeAll(async () => {
  test = await createTestApp()
  await test.runtime.db.orm.execute(
    sql.raw(`create table ${table} (id text primary key, count integer, flag boolean not null, at timestamptz not null, note text)`),
  )
})
afterAll(async () => {
  await test?.runtime.db.orm.execute(sql.raw(`drop table if exists ${table}`))
  await test?.close()
})

interface Row {
  id: string
  count: number | null
  flag: boolean
  at: Date
  note: string | null
}

describe(`hot statements (${engineName()})`, () => {
  it('answers rows with the driver types both engines agree on, parameters bound by position', async () => {
    const db = test.runtime.db
    const at = new Date('2026-11-27T10:11:12.345Z')
    await statement(`insert into ${table} (id, count, flag, at, note) values ($1, $2, $3, $4, $5)`).rows(db.orm, ['r1', 42, true, at, null])
    const select = statement<Row>(`select id, count, flag, at, note from ${table} where id = $1`)
    expect(await select.rows(db.orm, ['r1'])).toEqual([{ id: 'r1', count: 42, flag: true, at, note: null }])
    expect((await select.first(db.orm, ['r1']))?.at).toBeInstanceOf(Date)
    expect(await select.first(db.orm, ['missing'])).toBeUndefined()
    // A hostile parameter is a value, never SQL.
    expect(await select.rows(db.orm, ["r1' or '1'='1"])).toEqual([])
  })

  it('runs inside a transaction: it sees the transaction’s own writes, and they roll back with it', async () => {
    const db = test.runtime.db
    const insert = statement(`insert into ${table} (id, flag, at) values ($1, false, now())`)
    const count = statement<{ n: number }>(`select count(*)::int as n from ${table} where id like $1`)
    await expect(
      db.transaction(async (tx) => {
        await insert.rows(tx, ['t1'])
        expect(await count.first(tx, ['t%'])).toEqual({ n: 1 })
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(await count.first(db.orm, ['t%'])).toEqual({ n: 0 })
    await db.transaction(async (tx) => {
      await insert.rows(tx, ['t2'])
    })
    expect(await count.first(db.orm, ['t%'])).toEqual({ n: 1 })
  })

  it('fails a statement the database refuses with the database’s error', async () => {
    await expect(statement(`select * from ${table}_missing`).rows(test.runtime.db.orm, [])).rejects.toThrow(/does not exist/)
  })

  it('reads a tenant and a user’s standing exactly as the ORM does', async () => {
    const owner = await signupOwner(test)
    const db = test.runtime.db
    const [viaOrm] = await db.orm.select().from(tenants).where(eq(tenants.id, owner.tenantId))
    expect(await tenantById(db.orm, owner.tenantId)).toEqual(viaOrm)
    const userId = owner.userId
    const [principal] = await db.orm
      .select({ user: users, member: members, tenant: tenants })
      .from(users)
      .innerJoin(members, and(eq(members.userId, users.id), eq(members.tenantId, users.tenantId)))
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      .where(and(eq(users.tenantId, owner.tenantId), eq(users.id, userId)))
    expect(principal).toBeDefined()
    expect(await userStanding.first(db.orm, [owner.tenantId, userId])).toEqual({
      userId,
      userStatus: principal!.user.status,
      memberRole: principal!.member.role,
      memberStatus: principal!.member.status,
      tenantId: owner.tenantId,
      tenantStatus: principal!.tenant.status,
      rateLimitTier: principal!.tenant.rateLimitTier,
      rateLimitPerMinute: principal!.tenant.rateLimitPerMinute,
      rateLimitBurst: principal!.tenant.rateLimitBurst,
    })
    expect(await userStanding.first(db.orm, [owner.tenantId, 'usr_nobody'])).toBeUndefined()
  })

  it('reads the active policy (jsonb content, text[] signers) exactly as the ORM does, with and without a share lock', async () => {
    const owner = await signupOwner(test)
    const db = test.runtime.db
    const [viaOrm] = await db.orm
      .select()
      .from(policies)
      .where(and(eq(policies.tenantId, owner.tenantId), eq(policies.state, 'active')))
    expect(viaOrm).toBeDefined()
    expect(await activePolicyRows(db.orm, [owner.tenantId, 'active'])).toEqual([viaOrm])
    expect(await db.transaction((tx) => activePolicyRowsForShare(tx, [owner.tenantId, 'active']))).toEqual([viaOrm])
  })

  it('inserts the row the ORM inserts: jsonb, text[], numeric, timestamptz, booleans, nulls and defaults', async () => {
    const db = test.runtime.db
    const name = `${table}_rows`
    await db.orm.execute(
      sql.raw(`create table ${name} (id text primary key, doc jsonb not null, tags text[] not null, amount numeric not null,
               at timestamptz not null, flag boolean not null, n integer, note text, state text not null default 'fresh')`),
    )
    const rows = pgTable(name, {
      id: text('id').notNull(),
      doc: jsonb('doc').notNull(),
      tags: text('tags').array().notNull(),
      amount: numeric('amount').notNull(),
      at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
      flag: boolean('flag').notNull(),
      n: integer('n'),
      note: text('note'),
      state: text('state').notNull().default('fresh'),
    })
    const value = {
      doc: { nested: { list: [1, 'two', null], quote: `it's "quoted" \\ {braces}` } },
      tags: ['a', 'b c', 'd,e', '{f}', 'g"h', ''],
      amount: '1234567890.123456789',
      at: new Date('2026-11-27T01:02:03.456Z'),
      flag: false,
      n: null,
      note: "o'hara",
    }
    await db.orm.insert(rows).values({ id: 'orm', ...value })
    const insert = inserter(rows)
    await insert(db.orm, { id: 'ours', ...value })
    await db.transaction(async (tx) => {
      await insert(tx, { id: 'ours-tx', ...value, state: 'set' })
    })
    const read = await db.orm.select().from(rows).orderBy(rows.id)
    const strip = ({ id: _id, ...rest }: (typeof read)[number]) => rest
    expect(read.map((row) => row.id)).toEqual(['orm', 'ours', 'ours-tx'])
    expect(strip(read[1]!)).toEqual(strip(read[0]!))
    expect(read[0]!.state).toBe('fresh')
    expect(strip(read[2]!)).toEqual({ ...strip(read[0]!), state: 'set' })
    // selector reads them back exactly as the ORM's select does, with or without a row lock.
    const byId = selector(rows, ['id'])
    expect(await byId(db.orm, ['ours'])).toEqual([read[1]])
    expect(await byId(db.orm, ['missing'])).toEqual([])
    const byFlagAndNote = selector(rows, ['flag', 'note'], { limit: 10 })
    expect((await byFlagAndNote(db.orm, [false, "o'hara"])).map((row) => row.id).sort()).toEqual(['orm', 'ours', 'ours-tx'])
    expect(await db.transaction((tx) => selector(rows, ['id'], { lock: 'update' })(tx, ['ours-tx']))).toEqual([read[2]])
    expect(() => selector(rows, ['nope' as 'id'])).toThrow(/no column nope/)
    // A subset of the columns, and a further fixed condition, read as the ORM's select of those fields.
    const fields = { tags: rows.tags, amount: rows.amount, at: rows.at }
    const someColumns = selector(rows, ['flag'], { columns: ['tags', 'amount', 'at'], where: `"state" <> 'fresh'`, limit: 10 })
    expect(await someColumns(db.orm, [false])).toEqual(await db.orm.select(fields).from(rows).where(and(eq(rows.flag, false), sql`${rows.state} <> 'fresh'`)))
    expect(await someColumns(db.orm, [false])).toEqual([{ tags: value.tags, amount: value.amount, at: value.at }])
    expect(() => selector(rows, ['id'], { columns: ['nope' as 'id'] })).toThrow(/no column nope/)
    // selectorIn: the rows of any of the key tuples, in key order whatever the order asked, as the ORM reads them.
    const byIds = selectorIn(rows, ['id'])
    expect(await byIds(db.orm, [['ours-tx'], ['missing'], ['orm'], ['ours']])).toEqual([read[0], read[1], read[2]])
    expect(await byIds(db.orm, [])).toEqual([])
    const byFlagAndId = selectorIn(rows, ['flag', 'id'], { columns: ['id', 'tags'], where: `"state" = 'fresh'`, lock: 'update' })
    expect(await db.transaction((tx) => byFlagAndId(tx, [[false, 'ours'], [true, 'orm'], [false, 'ours-tx'], [false, "o'hara"]]))).toEqual([{ id: 'ours', tags: value.tags }])
    expect(() => selectorIn(rows, ['nope' as 'id'])).toThrow(/no column nope/)
    await db.orm.execute(sql.raw(`drop table ${name}`))
  })
})
