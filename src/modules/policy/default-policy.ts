/**
 * The default policy every tenant starts with (spec, "Policy": money never auto-executes; outbound
 * payments and on-chain transactions above the confidence floor need one signer's confirmation; non-money
 * actions auto-allow). It is the tenant's version 1, active from the start, created by `system` with no
 * signatures: nobody has signed it, and nobody needs to, since it is the most restrictive starting point.
 *
 * New tenants get it in the transaction that provisions them (signup, platform provisioning; the sandbox
 * demo signs up), recorded in that transaction's tenant.signed_up / tenant.provisioned audit event.
 * Tenants that existed before the Policy layer get it from `backfill`, which every process runs at
 * start-up right after migrating (idempotent, safe with several processes at once), audited as
 * policy.default_activated: the content hash is computed in TypeScript, which a SQL migration cannot do.
 */
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import { defaultPolicyContent, policyContentHash } from './domain/index.ts'
import type { PolicyRow, PolicyStore } from './policy.store.ts'
import type { PolicyTenants } from './ports.ts'

export const systemPolicyAuthor = 'system'
/** Tenants given the default policy per backfill transaction. */
export const backfillBatchTenants = 200

/** What the provisioning audit event records of the default policy (as outputs of tenant.signed_up / tenant.provisioned). */
export interface ProvisionedPolicy {
  readonly default_policy_id: string
  readonly default_policy_version: number
  readonly default_policy_content_hash: string
}

export interface DefaultPolicyProvisioner {
  /**
   * In the caller's transaction: version 1, active, the default content. Records no audit event of its
   * own: the caller's provisioning event carries the returned fields, so one event says the tenant was
   * created with this policy.
   */
  provision(tx: Tx, tenantId: string): Promise<ProvisionedPolicy>
  /**
   * Gives every tenant that has no policy the default one; returns how many it gave. A system command
   * with no caller and no Idempotency-Key (it is idempotent by itself): each batch of tenants is one
   * transaction, in which each tenant's policy and its policy.default_activated commit together.
   */
  backfill(): Promise<number>
}

export function createDefaultPolicyProvisioner(deps: {
  db: Database
  /** Commits each tenant's policy.default_activated in the backfill's batch transaction. */
  commands: CommandRunner
  store: PolicyStore
  tenants: Pick<PolicyTenants, 'listTenantIds' | 'existsSql'>
  ids: IdSource
  clock: Clock
}): DefaultPolicyProvisioner {
  const { db, commands, store, ids, clock } = deps
  let contentHash: `0x${string}` | undefined

  function defaultRow(tenantId: string): PolicyRow {
    const hash = (contentHash ??= policyContentHash(defaultPolicyContent))
    const now = clock.now()
    return {
      id: ids.newId('policy'),
      tenantId,
      version: 1,
      state: 'active',
      content: defaultPolicyContent,
      contentHash: hash,
      quorumRequired: 1,
      signers: [],
      activatedAt: now,
      deactivatedAt: null,
      createdBy: systemPolicyAuthor,
      createdAt: now,
    }
  }

  return {
    async provision(tx, tenantId) {
      const row = defaultRow(tenantId)
      await store.insertPolicy(tx, row)
      return { default_policy_id: row.id, default_policy_version: row.version, default_policy_content_hash: row.contentHash }
    },

    async backfill() {
      let given = 0
      for (;;) {
        const tenantIds = await deps.tenants.listTenantIds(db.orm, { limit: backfillBatchTenants, where: store.withoutPolicy })
        if (tenantIds.length === 0) return given
        let inserted = 0
        await db.transaction(async (tx) => {
          for (const tenantId of tenantIds) {
            const row = defaultRow(tenantId)
            // Another process may have given it one since we looked: then this inserts nothing.
            if (!(await store.insertPolicyIfNone(tx, row, deps.tenants.existsSql(tenantId)))) continue
            await commands.commit(tx, tenantId, {
              audit: [
                {
                  tenantId,
                  layer: 'policy',
                  actor: { type: 'system', id: 'default-policy' },
                  action: 'policy.default_activated',
                  entity: { type: 'policy', id: row.id },
                  outputs: { version: row.version, content_hash: row.contentHash, state: 'active' },
                },
              ],
            })
            inserted += 1
          }
        })
        given += inserted
        // Every tenant of the batch now has a policy (ours or a concurrent process's), or no longer exists.
        if (tenantIds.length < backfillBatchTenants) return given
      }
    },
  }
}
