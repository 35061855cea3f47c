/**
 * Tombstoning an artifact (`DELETE /v1/raw/{raw_id}`): reads answer 410 from then on, and the bytes are
 * purged after the retention period (retention.job.ts).
 */
import type { Clock } from '../../kernel/clock.ts'
import { type CommandContext, auditedBy, requirePrincipal } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import type { RawStore } from './raw.store.ts'

export interface TombstonedArtifact {
  readonly raw_id: string
  readonly tombstoned: true
}

export interface TombstoneService {
  /**
   * Tombstones an artifact of the context's principal's tenant. With an Idempotency-Key a repeat replays
   * the first outcome (where a keyless repeat is 410 raw_artifact_tombstoned).
   */
  tombstone(context: CommandContext, input: { rawId: string }): Promise<CommandResult<TombstonedArtifact>>
}

export function createTombstoneService(deps: { commands: CommandRunner; store: RawStore; clock: Clock }): TombstoneService {
  const { commands, store, clock } = deps
  return {
    /**
     * Marks the artifact tombstoned. Locks the artifact row. Audits raw.artifact_tombstoned (layer raw);
     * emits nothing. 404 raw_artifact_not_found, 410 raw_artifact_tombstoned, 403 auth_scope_insufficient
     * for an agent or service token and an artifact it did not contribute.
     */
    async tombstone(context, input) {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      const { rawId } = input
      return commands.run(context, { name: 'raw.tombstone', tenantId, input }, async (tx) => {
        const artifact = await store.findArtifact(tx, tenantId, rawId, { forUpdate: true })
        if (artifact === undefined) throw new AppError('raw_artifact_not_found', undefined, { raw_id: rawId })
        if (artifact.status === 'tombstoned') throw new AppError('raw_artifact_tombstoned', undefined, { raw_id: rawId })
        // Members may tombstone any artifact; an agent (or a service token standing in for one) only what it
        // contributed itself: the bank's statements and other evidence behind payments are not an agent's to erase.
        if (principal.type !== 'user' && artifact.createdBy !== principal.id) {
          throw new AppError('auth_scope_insufficient', 'An agent may tombstone only an artifact it contributed; a member tombstones any.', {
            raw_id: rawId,
            required_principal_types: ['user'],
          })
        }
        await store.updateArtifact(tx, tenantId, rawId, { status: 'tombstoned', tombstonedAt: clock.now() })
        return {
          outcome: { raw_id: rawId, tombstoned: true as const },
          audit: [
            auditedBy(context, {
              layer: 'raw',
              action: 'raw.artifact_tombstoned',
              entity: { type: 'raw_artifact', id: rawId },
              outputs: { sha256: artifact.sha256, bytes: artifact.bytes, source_type: artifact.sourceType },
            }),
          ],
        }
      })
    },
  }
}
