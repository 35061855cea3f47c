/** The Drizzle implementation of PolicyStore (both engines). */
import { and, asc, desc, eq, gt, lt, or, sql } from 'drizzle-orm'
import { queryRows } from '../../platform/db/database.ts'
import { policies, policySignatures, policyVerdicts, tenantWallets, walletAddresses } from './policy.tables.ts'
import type { HumanWallet, PolicyStore, VerdictRow } from './policy.store.ts'
import { inserter, selector, statement } from '../../platform/db/statements.ts'

/** Advisory-lock class of a tenant's policy versions (the key is hashtext(tenant id)); distinct from the Ledger's. */
const policyLockClass = 7_264_120

/**
 * The tenant's active version, plain and FOR SHARE (a proposal or gate binding to it): every evaluation,
 * proposal and gate run reads it, so it is made once (platform/db/statements.ts) rather than built per call.
 */
export const activePolicyRows = selector(policies, ['tenantId', 'state'])
export const activePolicyRowsForShare = selector(policies, ['tenantId', 'state'], { lock: 'share' })
const policyById = selector(policies, ['tenantId', 'id'])
// The gate re-verifies the active version's signatures by its signers' human wallets on every execute.
const signaturesOfActive = statement<typeof policySignatures.$inferSelect>(
  `select s.policy_id as "policyId", s.tenant_id as "tenantId", s.address, s.signature, s.submitted_by as "submittedBy", s.signed_at as "signedAt"
     from policy_signatures s join policies p on p.tenant_id = s.tenant_id and p.id = s.policy_id
    where s.tenant_id = $1 and p.state = 'active'`,
)
const humanWalletsOfTenant = statement<HumanWallet>(
  `select address, principal_id as "principalId", created_by = principal_id as "selfLinked" from tenant_wallets where tenant_id = $1 and principal_type = 'human'`,
)
const humanWalletsAmong = statement<HumanWallet>(
  `select address, principal_id as "principalId", created_by = principal_id as "selfLinked" from tenant_wallets where tenant_id = $1 and principal_type = 'human' and address = any($2::text[])`,
)
/**
 * A verdict's two steps, each one fixed statement sent straight to the driver when called: the gate
 * issues and consumes in one round trip (verdicts.ts, bindVerdict), which needs the two to reach the
 * connection in the order they are called.
 */
const insertVerdictRow = inserter(policyVerdicts)
const consumeVerdictRow = statement<Omit<VerdictRow, 'decision'> & { decision: string }>(
  `update policy_verdicts v set consumed_at = $4::timestamptz
    where v.tenant_id = $1 and v.token_digest = $2 and v.consumed_at is null and v.expires_at > $4::timestamptz and v.action_hash = $3
      and exists (select 1 from policies p where p.tenant_id = $1 and p.id = v.policy_id and p.state = 'active')
    returning v.id, v.tenant_id as "tenantId", v.token_digest as "tokenDigest", v.decision::text as "decision", v.action_hash as "actionHash",
              v.policy_id as "policyId", v.policy_version as "policyVersion", v.expires_at as "expiresAt", v.consumed_at as "consumedAt", v.created_at as "createdAt"`,
)

export function createPolicyStore(): PolicyStore {
  return {
    async lockTenantPolicies(tx, tenantId) {
      await tx.execute(sql`select pg_advisory_xact_lock(${policyLockClass}, hashtext(${tenantId}))`)
    },
    async insertPolicy(tx, row) {
      await tx.insert(policies).values(row)
    },
    async insertPolicyIfNone(tx, row, tenantExists) {
      // The (tenant, version) unique index settles a race between two processes backfilling at once.
      const inserted = await queryRows<{ id: string }>(
        tx,
        sql`insert into ${policies} (id, tenant_id, version, state, content, content_hash, quorum_required, signers,
                                     activated_at, deactivated_at, created_by, created_at)
            select ${row.id}, ${row.tenantId}::uuid, ${row.version}, ${row.state}, ${JSON.stringify(row.content)}::jsonb, ${row.contentHash},
                   ${row.quorumRequired}, ${sql.param(row.signers)}::text[], ${row.activatedAt?.toISOString() ?? null}::timestamptz,
                   ${row.deactivatedAt?.toISOString() ?? null}::timestamptz, ${row.createdBy}, ${row.createdAt.toISOString()}::timestamptz
            where ${tenantExists} and not exists (select 1 from ${policies} p where p.tenant_id = ${row.tenantId})
            on conflict do nothing
            returning id`,
      )
      return inserted.length > 0
    },
    async findPolicy(executor, tenantId, policyId) {
      const [row] = await policyById(executor, [tenantId, policyId])
      return row
    },
    async findActivePolicy(executor, tenantId, options = {}) {
      const [row] = await (options.forShare === true ? activePolicyRowsForShare : activePolicyRows)(executor, [tenantId, 'active'])
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
    withoutPolicy: (tenantId) => sql`not exists (select 1 from ${policies} where ${policies.tenantId} = ${tenantId})`,

    async insertSignatures(tx, rows) {
      if (rows.length > 0) await tx.insert(policySignatures).values([...rows])
    },
    async activeSignatures(executor, tenantId) {
      return signaturesOfActive.rows(executor, [tenantId])
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
      // The directory row first: its key links the address to this one tenant across the service.
      await tx.insert(walletAddresses).values({ address: row.address, ownerTenantId: row.tenantId, createdAt: row.createdAt })
      await tx.insert(tenantWallets).values(row)
    },
    async findWalletByAddress(executor, address) {
      // Deliberately across tenants: an address is linked to at most one tenant in the service. The
      // wallet_addresses directory names that tenant, then the wallet is read from its rows.
      const [entry] = await executor.select({ tenantId: walletAddresses.ownerTenantId }).from(walletAddresses).where(eq(walletAddresses.address, address)).limit(1)
      if (entry === undefined) return undefined
      const [row] = await executor
        .select()
        .from(tenantWallets)
        .where(and(eq(tenantWallets.tenantId, entry.tenantId), eq(tenantWallets.address, address)))
        .limit(1)
      return row
    },
    async lockWallet(tx, tenantId, walletId) {
      const [row] = await tx
        .select()
        .from(tenantWallets)
        .where(and(eq(tenantWallets.tenantId, tenantId), eq(tenantWallets.id, walletId)))
        .limit(1)
        .for('update')
      return row
    },
    async deleteWallet(tx, row) {
      await tx.delete(tenantWallets).where(and(eq(tenantWallets.tenantId, row.tenantId), eq(tenantWallets.id, row.id)))
      await tx.delete(walletAddresses).where(and(eq(walletAddresses.address, row.address), eq(walletAddresses.ownerTenantId, row.tenantId)))
    },
    async listWallets(executor, tenantId, options) {
      return executor
        .select()
        .from(tenantWallets)
        .where(and(eq(tenantWallets.tenantId, tenantId), options.afterId === undefined ? undefined : gt(tenantWallets.id, options.afterId)))
        .orderBy(asc(tenantWallets.id))
        .limit(options.limit)
    },
    async humanWallets(executor, tenantId, addresses) {
      if (addresses !== undefined && addresses.length === 0) return []
      return addresses === undefined ? humanWalletsOfTenant.rows(executor, [tenantId]) : humanWalletsAmong.rows(executor, [tenantId, [...addresses]])
    },

    async insertVerdict(tx, row) {
      await insertVerdictRow(tx, row)
    },
    async consumeVerdict(tx, tenantId, tokenDigest, actionHash, at) {
      const row = await consumeVerdictRow.first(tx, [tenantId, tokenDigest, actionHash, at])
      return row === undefined ? undefined : { ...row, decision: JSON.parse(row.decision) as unknown }
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
