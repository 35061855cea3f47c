/**
 * Tables distributable by tenant (issue 15, item 13; docs/scaling.md, "Citus"). Read from the live catalog
 * after migration (pg_class, pg_index, pg_constraint), on both engines:
 *
 * - every table with a `tenant_id` column is *distributed* by it: its primary key and every unique
 *   constraint or unique index include `tenant_id`, and a foreign key to another tenant-scoped table
 *   pairs `tenant_id` with `tenant_id` (the rows it joins live on the same node);
 * - every other table is a *reference* table (one copy on every node), listed below with the reason; a
 *   new table must be classified here, and a reference table never references a distributed one.
 *
 * docs/scaling.md lists both kinds; a test reads those lists back, so the page cannot drift. And no query
 * joins across tenants: every join (or correlated subquery) in src/ between tenant-scoped tables names the
 * joined table's tenant (test/support/tenant-joins.ts), checked here against the same catalog.
 */
import { readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../src/platform/db/database.ts'
import { createTestApp, type TestApp } from '../support/harness.ts'
import { crossTenantJoins, readSource, relationIdentifiers, sourceFiles } from '../support/tenant-joins.ts'

/** Tables without `tenant_id`: replicated to every node. Each says why it is not split by tenant. */
const referenceTables: Readonly<Record<string, string>> = {
  tenants: 'the tenants themselves: every node needs them for the foreign keys and standing checks of tenant-scoped rows',
  login_emails: 'a login names an email, not a tenant: maps each email (unique across the service) to its tenant and user',
  api_key_digests: 'an API key names no tenant: maps each key secret digest to its tenant and key',
  provider_accounts: 'a provider webhook names its account, not a tenant: binds each provider account to one tenant',
  wallet_addresses: 'a wallet address is linked to at most one tenant in the service: maps it to that tenant',
  siwx_challenges: 'a SIWX challenge is asked for by an address before any tenant is known: its nonce, bound to that address',
}

interface CatalogTable {
  readonly table_name: string
  readonly tenant_scoped: boolean
}
interface CatalogIndex {
  readonly table_name: string
  readonly index_name: string
  readonly is_primary: boolean
  readonly columns: string[]
}
interface CatalogForeignKey {
  readonly table_name: string
  readonly constraint_name: string
  readonly referenced_table: string
  readonly columns: string[]
  readonly referenced_columns: string[]
}

let test: TestApp
let tables: CatalogTable[]
let uniqueIndexes: CatalogIndex[]
let foreignKeys: CatalogForeignKey[]
/** Views over tenant-scoped tables (a join with one is a join with its tables). */
let tenantScopedViews: string[]

beforeAll(async () => {
  test = await createTestApp()
  const db = test.runtime.db.orm
  tables = await queryRows<CatalogTable>(
    db,
    sql`select c.relname::text as table_name,
               exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as tenant_scoped
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind in ('r', 'p')
         order by 1`,
  )
  const views = await queryRows<CatalogTable>(
    db,
    sql`select c.relname::text as table_name,
               exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as tenant_scoped
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind in ('v', 'm')
         order by 1`,
  )
  tenantScopedViews = views.filter((view) => view.tenant_scoped).map((view) => view.table_name)
  // Unique indexes include the ones behind primary keys and unique constraints.
  uniqueIndexes = await queryRows<CatalogIndex>(
    db,
    sql`select c.relname::text as table_name, i.relname::text as index_name, x.indisprimary as is_primary,
               array(select a.attname::text from unnest(x.indkey::int2[]) with ordinality as k(attnum, position)
                       join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum order by k.position) as columns
          from pg_index x
          join pg_class c on c.oid = x.indrelid
          join pg_class i on i.oid = x.indexrelid
          join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and x.indisunique
         order by 1, 2`,
  )
  foreignKeys = await queryRows<CatalogForeignKey>(
    db,
    sql`select c.relname::text as table_name, con.conname::text as constraint_name, r.relname::text as referenced_table,
               array(select a.attname::text from unnest(con.conkey) with ordinality as k(attnum, position)
                       join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum order by k.position) as columns,
               array(select a.attname::text from unnest(con.confkey) with ordinality as k(attnum, position)
                       join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum order by k.position) as referenced_columns
          from pg_constraint con
          join pg_class c on c.oid = con.conrelid
          join pg_class r on r.oid = con.confrelid
          join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and con.contype = 'f'
         order by 1, 2`,
  )
})
afterAll(async () => test?.close())

const distributedNames = () => tables.filter((table) => table.tenant_scoped).map((table) => table.table_name)
const referenceNames = () => tables.filter((table) => !table.tenant_scoped).map((table) => table.table_name)

describe('tables distributable by tenant (the live catalog after migration)', () => {
  it('reads a schema with both kinds of table (the catalog queries see the tables)', () => {
    expect(distributedNames()).toContain('ledger_transactions')
    expect(referenceNames()).toContain('tenants')
    expect(uniqueIndexes.length).toBeGreaterThan(tables.length)
  })

  it('classifies every table without tenant_id as a reference table, with a reason', () => {
    expect(referenceNames()).toEqual(Object.keys(referenceTables).sort())
  })

  it('gives every tenant-scoped table a primary key that includes tenant_id', () => {
    const primaryKeys = new Map(uniqueIndexes.filter((index) => index.is_primary).map((index) => [index.table_name, index.columns]))
    const wrong = distributedNames()
      .filter((name) => !(primaryKeys.get(name) ?? []).includes('tenant_id'))
      .map((name) => `${name} (${primaryKeys.get(name)?.join(', ') ?? 'no primary key'})`)
    expect(wrong).toEqual([])
  })

  it('makes every unique constraint and unique index of a tenant-scoped table include tenant_id', () => {
    const distributed = new Set(distributedNames())
    const wrong = uniqueIndexes
      .filter((index) => distributed.has(index.table_name) && !index.columns.includes('tenant_id'))
      .map((index) => `${index.table_name}.${index.index_name} (${index.columns.join(', ')})`)
    expect(wrong).toEqual([])
  })

  it('co-locates foreign keys between tenant-scoped tables: tenant_id references tenant_id', () => {
    const distributed = new Set(distributedNames())
    const wrong = foreignKeys
      .filter((key) => distributed.has(key.table_name) && distributed.has(key.referenced_table))
      .filter((key) => {
        const position = key.columns.indexOf('tenant_id')
        return position === -1 || key.referenced_columns[position] !== 'tenant_id'
      })
      .map((key) => `${key.constraint_name}: ${key.table_name}(${key.columns.join(', ')}) → ${key.referenced_table}(${key.referenced_columns.join(', ')})`)
    expect(wrong).toEqual([])
  })

  it('never lets a reference table reference a tenant-scoped one (Citus refuses such a key)', () => {
    const distributed = new Set(distributedNames())
    const wrong = foreignKeys
      .filter((key) => !distributed.has(key.table_name) && distributed.has(key.referenced_table))
      .map((key) => `${key.constraint_name}: ${key.table_name} → ${key.referenced_table}`)
    expect(wrong).toEqual([])
  })
})

/** Backticked names between `<!-- name:start -->` and `<!-- name:end -->` in docs/scaling.md. */
function documentedList(name: string): string[] {
  const page = readFileSync(new URL('../../docs/scaling.md', import.meta.url), 'utf8')
  const section = new RegExp(`<!-- ${name}:start -->([\\s\\S]*?)<!-- ${name}:end -->`).exec(page)
  expect(section, `docs/scaling.md has a ${name} list`).not.toBeNull()
  return [...section![1]!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!).sort()
}

describe('docs/scaling.md', () => {
  it('lists exactly the distributed tables of the catalog', () => {
    expect(documentedList('distributed-tables')).toEqual(distributedNames())
  })

  it('lists exactly the reference tables of the catalog', () => {
    expect(documentedList('reference-tables')).toEqual(referenceNames())
  })
})

describe('no query joins across tenants (the joins of src/, read by the TypeScript parser)', () => {
  const tenantScoped = () => new Set([...distributedNames(), ...tenantScopedViews])

  it('pairs the tenants in every join between tenant-scoped tables', async () => {
    const identifiers = await relationIdentifiers()
    const scoped = tenantScoped()
    const findings = sourceFiles().flatMap((file) => crossTenantJoins(file, readSource(file), identifiers, scoped))
    expect(findings.map((finding) => `${finding.file}:${finding.line} joins ${finding.joined}: ${finding.text}`)).toEqual([])
  })

  it('sees the joins it is meant to see (planted joins with and without the tenant)', async () => {
    const identifiers = await relationIdentifiers()
    const scoped = tenantScoped()
    const check = (text: string) => crossTenantJoins('planted.ts', text, identifiers, scoped).map((finding) => finding.joined)
    // Drizzle joins, the condition inline or in a constant.
    expect(check('db.select().from(members).innerJoin(users, eq(users.id, members.userId))')).toEqual(['users'])
    expect(check('db.select().from(members).innerJoin(users, and(eq(users.tenantId, members.tenantId), eq(users.id, members.userId)))')).toEqual([])
    expect(check('const on = eq(auditAnchorPublications.anchorId, auditAnchors.id)\ndb.select().from(auditAnchors).leftJoin(auditAnchorPublications, on)')).toEqual(['audit_anchor_publications'])
    expect(check('db.select().from(users).innerJoin(tenants, eq(tenants.id, users.tenantId))')).toEqual([])
    // SQL joins, by interpolated table or by name, and through a view.
    expect(check('sql`select 1 from ${members} m join ${users} u on u.id = m.user_id where m.tenant_id = ${t}`')).toEqual(['users'])
    expect(check('sql`select 1 from audit_chain_heads h join audit_events e on e.seq = h.seq`')).toEqual(['audit_events'])
    expect(check('sql`select 1 from audit_chain_heads h join audit_events e on e.tenant_id = h.tenant_id and e.seq = h.seq`')).toEqual([])
    expect(check('sql`select 1 from x left join audit_event_log l on l.id = x.id`')).toEqual(['audit_event_log'])
    expect(check('sql`select 1 from unnest(${ids}::text[]) as s(id) join ${events} e on e.tenant_id = ${t} and e.id = s.id`')).toEqual([])
    // Correlated subqueries.
    expect(check('sql`exists (select 1 from ${policies} where ${policies.id} = ${policyVerdicts.policyId})`')).toEqual(['policies'])
    expect(check('sql`exists (select 1 from ${policies} where ${policies.tenantId} = ${tenantId} and ${policies.id} = ${policyVerdicts.policyId})`')).toEqual([])
    expect(check('sql`(select t.status from ${tenants} t where t.id = ${tenantId})`')).toEqual([])
  })
})
