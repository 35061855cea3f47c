/**
 * The durable job that publishes Merkle roots on chain: pending anchors, oldest first, up to 50 (the
 * contract's batch limit) per transaction, until none are left. One runs at a time (singleton queue).
 * Each publication is recorded (insert-only) and audited on the tenant's own chain, so the chain
 * itself says when each of its batches became public: one transaction per chain transaction holds the
 * publication rows and, committed through the command runner per tenant, their audit events.
 *
 * Crash safety: if a transaction was mined but not recorded here, the next run sends the same pairs
 * again; the contract skips pairs it already holds, and for those the transaction and block that really
 * published them are read back from the contract's Anchored log, so every record names where its root is.
 */
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { JobHandler, PayloadOf } from '../../platform/jobs/job-queue.ts'
import { anchorPublishQueue } from './audit.jobs.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { AuditStore } from './audit.store.ts'
import type { AnchorChainPublisher, HexString } from './chain/anchor-chain.ts'

/** The AuditAnchor contract's limit on pairs per anchorBatch transaction. */
export const anchorPairsPerTransactionMax = 50

export function createAnchorPublishHandler(deps: {
  db: Database
  store: AuditStore
  commands: Pick<CommandRunner, 'commit'>
  chain: AnchorChainPublisher | undefined
  clock: Clock
}): JobHandler<PayloadOf<typeof anchorPublishQueue>> {
  const { db, store, chain } = deps
  return async () => {
    if (chain === undefined) return
    const chainId = await chain.chainId()
    for (;;) {
      const pending = await store.unpublishedAnchors(db.orm, anchorPairsPerTransactionMax)
      if (pending.length === 0) return
      const receipt = await chain.publish(pending.map((anchor) => ({ tenantId: anchor.tenantId, root: anchor.merkleRoot as HexString })))
      const locations = await Promise.all(
        pending.map(async (anchor) =>
          receipt.published === pending.length
            ? { txHash: receipt.txHash, blockNumber: receipt.blockNumber }
            : ((await chain.findPublication(anchor.tenantId, anchor.merkleRoot as HexString)) ?? { txHash: receipt.txHash, blockNumber: receipt.blockNumber }),
        ),
      )
      const publishedAt = deps.clock.now()
      await db.transaction(async (tx) => {
        await store.insertPublications(
          tx,
          pending.map((anchor, index) => ({
            anchorId: anchor.id,
            tenantId: anchor.tenantId,
            chainId,
            contractAddress: chain.contractAddress.toLowerCase(),
            txHash: locations[index]!.txHash,
            blockNumber: Number(locations[index]!.blockNumber),
            publishedAt,
          })),
        )
        for (const [index, anchor] of pending.entries()) {
          await deps.commands.commit(tx, anchor.tenantId, {
            audit: [
              {
                tenantId: anchor.tenantId,
                layer: 'audit',
                actor: { type: 'system', id: 'audit-anchor-publisher' },
                action: 'audit.anchor_published',
                entity: { type: 'audit_anchor', id: anchor.id },
                outputs: {
                  merkle_root: anchor.merkleRoot,
                  chain_id: chainId,
                  tx_hash: locations[index]!.txHash,
                  block_number: Number(locations[index]!.blockNumber),
                },
              },
            ],
          })
        }
      })
    }
  }
}
