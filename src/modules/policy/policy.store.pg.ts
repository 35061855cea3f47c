/** The Drizzle implementation of PolicyStore (both engines). */
import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm'
import { queryRows } from '../../platform/db/database.ts'
import { ledgerTransactions } from '../ledger/ledger.tables.ts'
import { policies, policySignatures, policyVerdicts, tenantWallets } from './policy.tables.ts'
import { members, tenants } from '../tenants/tenants.tables.ts'
import type { PolicyStore } from './policy.store.ts'

/** Advisory-lock class of a tenant's policy versions (the key is hashtext(tenant id)); distinct from the Ledger's. */
const policyLockClass = 7_264_120

export function createPolicyStore(): PolicyStore {
  return {
    async lockTenantPolicies(tx, tenantId) {
      await tx.execute(sql`select pg_advisory_xact_lock(${policyLockClass}, hashtext(${tenantId}))`)
    },
    async insertPolicy(tx, row) {
      await tx.insert(policies).values(row)
    },
    async insertPolicyIfNone(tx, row) {
      // The (tenant, version) unique index settles a race between two processes backfilling at once.
      const inserted = await queryRows<{ id: string }>(
        tx,
        sql`insert into ${policies} (id, tenant_id, version, state, content, content_hash, quorum_required, signers,
                                     activated_at, deactivated_at, created_by, created_at)
            select ${row.id}, t.id, ${row.version}, ${row.state}, ${JSON.stringify(row.content)}::jsonb, ${row.contentHash},
                   ${row.quorumRequired}, ${sql.param(row.signers)}::text[], ${row.activatedAt?.toISOString() ?? null}::timestamptz,
                   ${row.deactivatedAt?.toISOString() ?? null}::timestamptz, ${row.createdBy}, ${row.createdAt.toISOString()}::timestamptz
            from ${tenants} t
            where t.id = ${row.tenantId} and not exists (select 1 from ${policies} p where p.tenant_id = t.id)
            on conflict do nothing
            returning id`,
      )
      return inserted.length > 0
    },
    async findPolicy(executor, tenantId, policyId) {
      const [row] = await executor
        .select()
        .from(policies)
        .where(and(eq(policies.tenantId, tenantId), eq(policies.id, policyId)))
        .limit(1)
      return row
    },
    async findActivePolicy(executor, tenantId, options = {}) {
      const query = executor
        .select()
        .from(policies)
        .where(and(eq(policies.tenantId, tenantId), eq(policies.state, 'active')))
        .limit(1)
      const [row] = options.forShare === true ? await query.for('share') : await query
      return row
    },
    async findPolicyByVersion(executor, tenantId, version) {
      const [row] = await executor
        .select()
        .from(policies)
        .where(and(eq(policies.tenantId, tenantId), eq(policies.version, version)))
        .limit(1)
      return row
    },
    async latestVersion(executor, tenantId) {
      const [row] = await executor
        .select({ version: policies.version })
        .from(policies)
        .where(eq(policies.tenantId, tenantId))
        .orderBy(desc(policies.version))
        .limit(1)
      return row?.version ?? 0
    },
    async listPolicies(executor, tenantId, options) {
      return executor
        .select()
        .from(policies)
        .where(and(eq(policies.tenantId, tenantId), options.beforeVersion === undefined ? undefined : lt(policies.version, options.beforeVersion)))
        .orderBy(desc(policies.version))
        .limit(options.limit)
    },
    async tenantsWithoutPolicy(executor, limit) {
      const rows = await executor
        .select({ id: tenants.id })
        .from(tenants)
        .where(sql`not exists (select 1 from ${policies} where ${policies.tenantId} = ${tenants.id})`)
        .orderBy(asc(tenants.id))
        .limit(limit)
      return rows.map((row) => row.id)
    },

    async insertSignatures(tx, rows) {
      if (rows.length > 0) await tx.insert(policySignatures).values([...rows])
    },
    async updatePolicy(tx, tenantId, policyId, values) {
      await tx
        .update(policies)
        .set(values)
        .where(and(eq(policies.tenantId, tenantId), eq(policies.id, policyId)))
    },
    async supersedeActive(tx, tenantId, at) {
      const [row] = await tx
        .update(policies)
        .set({ state: 'superseded', deactivatedAt: at })
        .where(and(eq(policies.tenantId, tenantId), eq(policies.state, 'active')))
        .returning()
      return row
    },
    async supersedePendingBefore(tx, tenantId, version) {
      const rows = await tx
        .update(policies)
        .set({ state: 'superseded' })
        .where(and(eq(policies.tenantId, tenantId), eq(policies.state, 'pending_signatures'), lt(policies.version, version)))
        .returning({ id: policies.id })
      return rows.map((row) => row.id)
    },

    async insertWallet(tx, row) {
      await tx.insert(tenantWallets).values(row)
    },
    async findWalletByAddress(executor, address) {
      // Deliberately across tenants: an address is linked to at most one tenant in the service.
      const [row] = await executor.select().from(tenantWallets).where(eq(tenantWallets.address, address)).limit(1)
      return row
    },
    async listWallets(executor, tenantId, options) {
      return executor
        .select()
        .from(tenantWallets)
        .where(and(eq(tenantWallets.tenantId, tenantId), options.afterId === undefined ? undefined : gt(tenantWallets.id, options.afterId)))
        .orderBy(asc(tenantWallets.id))
        .limit(options.limit)
    },
    async authorizedSigners(executor, tenantId, addresses) {
      if (addresses.length === 0) return new Set()
      const rows = await executor
        .select({ address: tenantWallets.address })
        .from(tenantWallets)
        .innerJoin(members, and(eq(members.tenantId, tenantWallets.tenantId), eq(members.userId, tenantWallets.principalId)))
        .where(
          and(
            eq(tenantWallets.tenantId, tenantId),
            eq(tenantWallets.principalType, 'human'),
            eq(members.status, 'active'),
            inArray(tenantWallets.address, [...addresses]),
          ),
        )
      return new Set(rows.map((row) => row.address))
    },
    async countAuthorizedSigners(executor, tenantId) {
      const [row] = await executor
        .select({ signers: count() })
        .from(tenantWallets)
        .innerJoin(members, and(eq(members.tenantId, tenantWallets.tenantId), eq(members.userId, tenantWallets.principalId)))
        .where(and(eq(tenantWallets.tenantId, tenantId), eq(tenantWallets.principalType, 'human'), eq(members.status, 'active')))
      return Number(row?.signers ?? 0)
    },
    async isMemberUser(executor, tenantId, userId) {
      const [row] = await executor
        .select({ id: members.id })
        .from(members)
        .where(and(eq(members.tenantId, tenantId), eq(members.userId, userId), ne(members.status, 'deactivated')))
        .limit(1)
      return row !== undefined
    },

    async outflowsInPeriod(executor, tenantId, options) {
      const t = ledgerTransactions
      return executor
        .select({ id: t.id, amount: t.amount, currency: t.currency, counterpartyId: t.counterpartyId, transactionDate: t.transactionDate })
        .from(t)
        .where(
          and(
            eq(t.tenantId, tenantId),
            isNull(t.supersededAt),
            eq(t.direction, 'outflow'),
            gte(t.transactionDate, options.from),
            lte(t.transactionDate, options.to),
            options.after === undefined
              ? undefined
              : or(gt(t.transactionDate, options.after.transactionDate), and(eq(t.transactionDate, options.after.transactionDate), gt(t.id, options.after.id))),
          ),
        )
        // Served by ledger_transactions_date_idx (tenant_id, transaction_date, id) where superseded_at is null.
        .orderBy(asc(t.transactionDate), asc(t.id))
        .limit(options.limit)
    },

    async insertVerdict(tx, row) {
      await tx.insert(policyVerdicts).values(row)
    },
    async consumeVerdict(tx, tenantId, tokenDigest, actionHash, at) {
      const [row] = await tx
        .update(policyVerdicts)
        .set({ consumedAt: at })
        .where(
          and(
            eq(policyVerdicts.tenantId, tenantId),
            eq(policyVerdicts.tokenDigest, tokenDigest),
            isNull(policyVerdicts.consumedAt),
            gt(policyVerdicts.expiresAt, at),
            eq(policyVerdicts.actionHash, actionHash),
            sql`exists (select 1 from ${policies} where ${policies.tenantId} = ${tenantId} and ${policies.id} = ${policyVerdicts.policyId} and ${policies.state} = 'active')`,
          ),
        )
        .returning()
      return row
    },
    async findVerdict(executor, tenantId, tokenDigest) {
      const [row] = await executor
        .select()
        .from(policyVerdicts)
        .where(and(eq(policyVerdicts.tenantId, tenantId), eq(policyVerdicts.tokenDigest, tokenDigest)))
        .limit(1)
      return row
    },
  }
}
