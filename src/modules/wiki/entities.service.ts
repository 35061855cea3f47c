/**
 * Wiki entity reads (docs/wiki.md, "Entities"): a Ledger record seen through the Wiki — the Ledger
 * version visible at an instant merged with the annotations recorded by then, its evidence chain down to
 * Raw's artifacts, and its history. Reads only; the Ledger and Raw are read through their ports.
 */
import type { Static } from 'typebox'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import { entityProvenance, foldAnnotations, interleave, type AnnotationFacts, type AssertedValue, type WikiEntityKind } from './domain/entities.ts'
import type { WikiAnnotationRow } from './entities.tables.ts'
import type { WikiEntitiesStore } from './entities.store.pg.ts'
import { evidenceRowsMax, historyPageRows, wikiEntityJsonSchemas, type WikiAnnotation, type WikiEntity, type WikiEvidence, type WikiHistory } from './entities.schemas.ts'
import type { WikiLedger, WikiRaw } from './ports.ts'
import type { LedgerRecordVersion } from '../ledger/index.ts'

export type WikiEntityView = Static<typeof WikiEntity>
export type WikiAnnotationView = Static<typeof WikiAnnotation>
type WikiHistoryView = Static<typeof WikiHistory>
type WikiEvidenceView = Static<typeof WikiEvidence>

export interface EntitiesService {
  /** The entity as known at `asOf` (now when undefined). 404 wiki_entity_not_found. */
  entity(tenantId: string, entityId: string, asOf?: string): Promise<WikiEntityView>
  /** The evidence chain of the entity's Ledger version (at `asOf`): its parsed rows and their artifacts. */
  evidence(tenantId: string, entityId: string, asOf?: string): Promise<WikiEvidenceView>
  /** The entity's versions, oldest first, a page at a time. */
  history(tenantId: string, entityId: string, query: { limit?: number | undefined; cursor?: string | undefined }): Promise<WikiHistoryView>
  /** Kind → JSON Schema (all kinds when `kind` is undefined). */
  schemas(kind?: WikiEntityKind): Record<string, Record<string, unknown>>
}

export interface EntitiesDeps {
  readonly db: Database
  readonly store: WikiEntitiesStore
  readonly ledger: WikiLedger
  readonly raw: WikiRaw
  readonly cursors: CursorCodec
}

export function annotationFacts(row: WikiAnnotationRow): AnnotationFacts {
  return {
    id: row.id,
    note: row.note,
    labels: row.labels,
    corrections: row.corrections as Record<string, AssertedValue> | null,
    relationStatus: row.relationStatus,
    recordedAt: row.createdAt,
  }
}

export function annotationView(row: WikiAnnotationRow): WikiAnnotationView {
  return {
    annotation_id: row.id,
    target: row.target,
    subject_id: row.subjectId,
    kind: row.subjectKind as WikiEntityKind,
    version: row.version,
    note: row.note,
    labels: row.labels,
    corrections: row.corrections as WikiAnnotationView['corrections'],
    relation_status: row.relationStatus,
    provenance: row.provenance,
    actor: { type: row.actorType, id: row.actorId },
    basis_version_id: row.basisVersionId,
    recorded_at: row.createdAt.toISOString(),
  }
}

function ledgerVersionRef(version: LedgerRecordVersion) {
  return {
    version_id: version.versionId,
    version: version.version,
    recorded_at: version.recordedAt.toISOString(),
    superseded_at: version.supersededAt?.toISOString() ?? null,
    provenance: version.provenance as WikiEntityView['provenance'],
    confidence: version.confidence,
  }
}

/** The entity view of a Ledger version and the annotations recorded by the instant read. */
export function entityView(version: LedgerRecordVersion, annotations: readonly WikiAnnotationRow[], asOf: Date | undefined): WikiEntityView {
  const wiki = foldAnnotations(annotations.map(annotationFacts))
  const lastAnnotated = annotations.at(-1)?.createdAt ?? null
  const recordedAt = lastAnnotated !== null && lastAnnotated > version.recordedAt ? lastAnnotated : version.recordedAt
  return {
    entity_id: version.id,
    kind: version.kind,
    as_of: asOf?.toISOString() ?? null,
    // Ledger versions are numbered 1, 2, 3 … in the order recorded: the visible one's number counts them.
    wiki_version: version.version + annotations.length,
    provenance: entityProvenance(version.provenance, version.recordedAt, lastAnnotated) as WikiEntityView['provenance'],
    confidence: version.confidence,
    recorded_at: recordedAt.toISOString(),
    ledger_version: ledgerVersionRef(version),
    record: version.record as WikiEntityView['record'],
    wiki,
    source_evidence: { raw_artifact_ids: [...version.sourceIds], parsed_row_ids: [...version.evidenceIds] },
  }
}

const notFound = () => new AppError('wiki_entity_not_found')

export function createEntitiesService(deps: EntitiesDeps): EntitiesService {
  const { db, store, ledger, raw, cursors } = deps

  async function visible(executor: Executor, tenantId: string, entityId: string, asOf: Date | undefined) {
    const version = await ledger.recordAsOf(executor, tenantId, entityId, asOf)
    if (version === undefined) throw notFound()
    return version
  }

  return {
    async entity(tenantId, entityId, asOfText) {
      const asOf = asOfText === undefined ? undefined : new Date(asOfText)
      const version = await visible(db.orm, tenantId, entityId, asOf)
      const annotations = await store.annotations(db.orm, tenantId, entityId, { asOf })
      return entityView(version, annotations, asOf)
    },

    async evidence(tenantId, entityId, asOfText) {
      const asOf = asOfText === undefined ? undefined : new Date(asOfText)
      const version = await visible(db.orm, tenantId, entityId, asOf)
      const cited = [...new Set(version.evidenceIds)]
      const shown = cited.slice(0, evidenceRowsMax)
      const rows = new Map((await raw.parsedRows(db.orm, tenantId, shown)).map((row) => [row.id, row]))
      const artifacts = new Map((await raw.artifacts(db.orm, tenantId, [...new Set([...rows.values()].map((row) => row.rawArtifactId))])).map((artifact) => [artifact.id, artifact]))
      const parsedRows: WikiEvidenceView['parsed_rows'] = []
      const path = [`${version.kind}:${version.id}`]
      const unresolved: string[] = []
      for (const id of shown) {
        const row = rows.get(id)
        if (row === undefined) {
          unresolved.push(id)
          continue
        }
        const artifact = artifacts.get(row.rawArtifactId)
        parsedRows.push({
          id: row.id,
          parser: row.parser,
          confidence: row.confidence,
          raw_artifact:
            artifact === undefined
              ? null
              : { id: artifact.id, source_type: artifact.sourceType, sha256: artifact.sha256, mime_type: artifact.mimeType, status: artifact.status, received_at: artifact.ingestedAt.toISOString() },
        })
        path.push(`parsed_row:${row.id}`)
        if (artifact !== undefined) path.push(`raw_artifact:${artifact.id}`)
      }
      return {
        entity_id: version.id,
        kind: version.kind,
        as_of: asOf?.toISOString() ?? null,
        ledger_version: ledgerVersionRef(version),
        evidence_path: path,
        parsed_rows: parsedRows,
        unresolved_ids: unresolved,
        truncated: cited.length > shown.length,
      }
    },

    async history(tenantId, entityId, query) {
      const limit = query.limit ?? historyPageRows.defaultRows
      const listing = `wiki.history:${tenantId}:${entityId}`
      let offset = 0
      if (query.cursor !== undefined) {
        const position = cursors.decode(listing, query.cursor)
        if (typeof position.offset !== 'number' || !Number.isInteger(position.offset) || position.offset < 0) throw new AppError('invalid_cursor')
        offset = position.offset
      }
      const current = await ledger.recordAsOf(db.orm, tenantId, entityId)
      const kind = current?.kind ?? (await ledger.recordVersions(db.orm, tenantId, entityId, { offset: 0, limit: 1 }))[0]?.kind
      if (kind === undefined) throw notFound()
      // The history is append-only and ordered by recorded time, so an offset stays a stable position:
      // the first offset + limit + 1 of each list hold the page and tell whether another follows.
      const wanted = offset + limit + 1
      const [versions, annotations] = await Promise.all([
        ledger.recordVersions(db.orm, tenantId, entityId, { offset: 0, limit: wanted }),
        store.annotations(db.orm, tenantId, entityId, { limit: wanted }),
      ])
      const merged = interleave(
        versions.map((version) => ({ type: 'ledger_version' as const, recordedAt: version.recordedAt, order: version.version, version })),
        annotations.map((row) => ({ type: 'annotation' as const, recordedAt: row.createdAt, order: row.version, row })),
      )
      const page = merged.slice(offset, offset + limit)
      return {
        entity_id: entityId,
        kind,
        versions: page.map((entry, index) =>
          entry.type === 'ledger_version'
            ? {
                wiki_version: offset + index + 1,
                type: entry.type,
                recorded_at: entry.recordedAt.toISOString(),
                provenance: entry.version.provenance as WikiEntityView['provenance'],
                ledger_version: {
                  version_id: entry.version.versionId,
                  version: entry.version.version,
                  superseded_at: entry.version.supersededAt?.toISOString() ?? null,
                  confidence: entry.version.confidence,
                  source_ids: [...entry.version.sourceIds],
                  evidence_ids: [...entry.version.evidenceIds],
                  record: entry.version.record as never,
                },
                annotation: null,
              }
            : {
                wiki_version: offset + index + 1,
                type: entry.type,
                recorded_at: entry.recordedAt.toISOString(),
                provenance: 'human_confirmed' as const,
                ledger_version: null,
                annotation: annotationView(entry.row),
              },
        ),
        next_cursor: merged.length > offset + limit ? cursors.encode(listing, { offset: offset + limit }) : null,
      }
    },

    schemas(kind) {
      const all = wikiEntityJsonSchemas()
      return kind === undefined ? all : { [kind]: all[kind] }
    },
  }
}
