/**
 * Entity keys as `ledger_entity_keys` stores them (src/modules/ledger/domain/keys.ts, storedKey): a key longer
 * than 64 bytes is stored hashed, resolution still finds it, and migration 0004 turns the keys an
 * earlier version stored whole into exactly the form the code computes.
 */
import { readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { normalizeDescription, storedKey, transactionFingerprint } from '../../../src/modules/ledger/domain/keys.ts'
import { createTestApp, signupOwner, type TestApp } from '../../support/harness.ts'
import { bankTransaction, normalize, seedArtifact } from '../../support/ledger.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

const keysOf = (tenantId: string) =>
  queryRows<{ kind: string; key: string; entity_id: string }>(test.runtime.db.orm, sql`select kind, key, entity_id from ledger_entity_keys where tenant_id = ${tenantId} order by kind, key`)

describe('entity keys longer than 64 bytes', () => {
  it('are stored hashed, and a second statement with the same transactions finds them', async () => {
    const owner = await signupOwner(test)
    const description = `CARD PURCHASE HARBOR PROPERTIES RENT ${'SETTLEMENT DETAIL '.repeat(6)}`
    // An external id seeds the transaction, so its fingerprint key (with the whole description) is stored.
    const records = [bankTransaction({ amount: '-1250.00', transaction_date: '2024-03-01', description, external_transaction_id: 'REF-1' })]
    const first = await seedArtifact(test, owner.tenantId, records)
    await normalize(test, owner.tenantId, first.artifactId)
    const keys = (await keysOf(owner.tenantId)).filter((row) => row.kind === 'transaction')
    expect(keys).toHaveLength(1)
    expect(keys[0]!.key).toMatch(/^#[A-Za-z0-9_-]{43}$/)
    // The store looks the key itself up and answers with it.
    const [transaction] = await queryRows<{ account_id: string }>(test.runtime.db.orm, sql`select account_id from ledger_transactions where tenant_id = ${owner.tenantId}`)
    const fingerprintKey = `fp:${transactionFingerprint(transaction!.account_id, '2024-03-01', '-1250.00', normalizeDescription(description))}:1`
    expect(storedKey(fingerprintKey)).toBe(keys[0]!.key)
    const found = await test.runtime.ledger.store.findEntityIds(test.runtime.db.orm, owner.tenantId, 'transaction', [fingerprintKey, 'fp:unknown:1'])
    expect([...found]).toEqual([[fingerprintKey, keys[0]!.entity_id]])
    // Another statement without the external id is found by the stored fingerprint key alone.
    const second = await seedArtifact(test, owner.tenantId, [bankTransaction({ amount: '-1250.00', transaction_date: '2024-03-01', description })])
    const result = await normalize(test, owner.tenantId, second.artifactId)
    expect(result.counts.transaction).toEqual({ created: 0, updated: 1, unchanged: 0 })
    const transactions = await queryRows<{ id: string }>(test.runtime.db.orm, sql`select distinct id from ledger_transactions where tenant_id = ${owner.tenantId}`)
    expect(transactions.map((row) => row.id)).toEqual([keys[0]!.entity_id])
  })

  it('stored whole by an earlier version are rewritten by migration 0004 into the form the code looks up', async () => {
    const owner = await signupOwner(test)
    const stored = [
      'name:SHORT ENOUGH',
      `fp:acc_1:2024-03-01:-12.5:${'SETTLEMENT DETAIL '.repeat(10).trim()}:1`,
      `name:${'É'.repeat(6)}${'X'.repeat(49)}`, // 60 characters, 66 bytes
      `name:${'ÄÖÜ '.repeat(30)}`,
    ]
    for (const [index, key] of stored.entries()) {
      await test.runtime.db.orm.execute(
        sql`insert into ledger_entity_keys (tenant_id, kind, key, entity_id, created_at) values (${owner.tenantId}, 'counterparty', ${key}, ${`cpy_${index}`}, now())`,
      )
    }
    const migration = readFileSync(new URL('../../../src/platform/db/migrations/0004_hashed_long_keys.sql', import.meta.url), 'utf8')
    await test.runtime.db.orm.execute(sql.raw(migration))
    const after = new Map((await keysOf(owner.tenantId)).map((row) => [row.entity_id, row.key]))
    expect(stored.map((_, index) => after.get(`cpy_${index}`))).toEqual(stored.map(storedKey))
    expect(after.get('cpy_0')).toBe('name:SHORT ENOUGH')
  })
})
