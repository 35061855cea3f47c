/**
 * POST /v1/wiki/annotate (docs/wiki.md, "Entities"): a person's annotation of a Ledger record (entity) or
 * of a reconciliation match (relation), applied as a new Wiki version with provenance human_confirmed and
 * audited in the same transaction (layer wiki, hashes only). The Ledger is read, never written: a
 * correction is a Wiki-level assertion beside the Ledger record, which stays as it was.
 */
import type { Static } from 'typebox'
import { digestOf } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { actorOf, auditedBy, requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import { definitionOf } from '../../platform/http/schemas.ts'
import { uncorrectable } from './domain/entities.ts'
import { AnnotateBody, recordSchemas, type AnnotateResponse } from './entities.schemas.ts'
import { annotationView, entityView } from './entities.service.ts'
import type { WikiEntitiesStore } from './entities.store.pg.ts'
import type { WikiAnnotationRow } from './entities.tables.ts'
import type { WikiLedger } from './ports.ts'

export type AnnotateInput = Static<typeof AnnotateBody>
type AnnotateOutcome = Static<typeof AnnotateResponse>

export interface AnnotateCommands {
  /**
   * Records the annotation as the subject's next Wiki version. 404 wiki_entity_not_found for a subject
   * that names nothing of the tenant (a relation_id that is not a reconciliation match included); 400
   * validation_failed for a correction of a field the kind's record lacks or of a version field.
   */
  annotate(context: CommandContext, input: AnnotateInput): Promise<CommandResult<AnnotateOutcome>>
}

export function createAnnotateCommands(deps: { commands: CommandRunner; store: WikiEntitiesStore; ledger: WikiLedger; ids: IdSource; clock: Clock }): AnnotateCommands {
  const { commands, store, ledger, ids, clock } = deps
  return {
    async annotate(context, input) {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      const target = 'relation_id' in input ? 'relation' : 'entity'
      const subjectId = 'relation_id' in input ? input.relation_id : input.entity_id
      return commands.run(context, { name: 'wiki.annotate', tenantId, input }, async (tx) => {
        const current = await ledger.recordAsOf(tx, tenantId, subjectId)
        if (current === undefined || (target === 'relation' && current.kind !== 'reconciliation_match')) {
          throw new AppError('wiki_entity_not_found', target === 'relation' ? 'No reconciliation match of this id in this tenant.' : undefined)
        }
        const corrections = 'entity_id' in input ? input.corrections : undefined
        if (corrections !== undefined) {
          const fields = Object.keys((definitionOf(recordSchemas[current.kind]) as { properties?: Record<string, unknown> } | undefined)?.properties ?? {})
          const refused = uncorrectable(Object.keys(corrections), fields)
          if (refused.length > 0) {
            throw new AppError('validation_failed', `A ${current.kind} annotation cannot assert ${refused.join(', ')}: not a field of its record, or a version field.`, { fields: refused })
          }
        }
        await store.lockSubject(tx, tenantId, subjectId)
        const version = (await store.latestVersion(tx, tenantId, subjectId)) + 1
        const actor = actorOf(principal)
        const row: WikiAnnotationRow = {
          tenantId,
          id: ids.newId('wikiAnnotation'),
          subjectId,
          subjectKind: current.kind,
          target,
          version,
          basisVersionId: current.versionId,
          note: input.note ?? null,
          labels: input.labels ?? null,
          corrections: corrections ?? null,
          relationStatus: 'status' in input ? input.status : null,
          provenance: 'human_confirmed',
          actorType: actor.type,
          actorId: actor.id,
          createdAt: clock.now(),
        }
        await store.insertAnnotation(tx, row)
        const annotations = await store.annotations(tx, tenantId, subjectId, {})
        return {
          outcome: { annotation: annotationView(row), entity: entityView(current, annotations, undefined) },
          audit: [
            auditedBy(context, {
              layer: 'wiki',
              action: target === 'relation' ? 'wiki.relation.annotated' : 'wiki.entity.annotated',
              entity: { type: current.kind, id: subjectId },
              // Hashes and ids only: the note and values stay in the Wiki's table.
              inputs: {
                target,
                note_digest: row.note === null ? null : digestOf(row.note),
                labels_digest: row.labels === null ? null : digestOf(row.labels),
                corrections_digest: row.corrections === null ? null : digestOf(row.corrections),
                corrected_fields: corrections === undefined ? [] : Object.keys(corrections).sort(),
                relation_status: row.relationStatus,
              },
              outputs: { annotation_id: row.id, version, basis_version_id: current.versionId, provenance: 'human_confirmed' },
            }),
          ],
        }
      })
    },
  }
}
