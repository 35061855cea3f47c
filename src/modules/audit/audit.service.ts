/**
 * The Audit layer's read side and its public verifier: the latest anchor, events with their inclusion
 * proofs, listings, exports, and `verify` (does a proof lead from an event hash to a root, and is that
 * root anchored?). Its one command, `requestExport`, runs through the command runner like every other
 * module's; the audit module imports no other module.
 */
import { digestOf } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { type CommandContext, auditedBy, requirePrincipal } from '../../kernel/context.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { AnchorSummary, AuditEventRow, AuditExportRow, AuditPublicationRow, AuditStore } from './audit.store.ts'
import { leafOf, proofNodeIndices, rootFromProof, type Hex32 } from './domain/merkle.ts'
import type { AnchorChainReader } from './chain/anchor-chain.ts'
import type { Readable } from 'node:stream'
import type { BlobStore } from '../../platform/storage/blob-store.ts'
import { auditExportQueue } from './audit.jobs.ts'
import { walkChain, type ChainWalkResult } from './chain-walk.ts'

export const auditEventPageRows = { defaultRows: 100, maxRows: 1000 } as const
/** How long a finished export can be downloaded. */
export const exportRetentionSeconds = 7 * 24 * 60 * 60

export interface AuditEventView {
  id: string
  tenant_id: string
  seq: number | null
  layer: AuditEventRow['layer']
  actor: { type: string; id: string }
  action: string
  entity: { type: string; id: string }
  inputs: Record<string, unknown>
  outputs: Record<string, unknown>
  evidence_ids: string[]
  request_id: string | null
  created_at: string
  prev_hash: string | null
  hash: string | null
  sequenced_at: string | null
}

export interface AnchorView {
  anchor_id: string
  tenant_id: string
  merkle_root: string
  event_count: number
  seq_from: number
  seq_to: number
  period_start: string
  period_end: string
  anchoring_mode: AnchorSummary['anchoringMode']
  publication_status: 'not_applicable' | 'pending' | 'published'
  onchain_tx_hash: string | null
  onchain_block_number: number | null
  chain_id: number | null
  contract_address: string | null
  guarantee: string
}

export type InclusionStatus = 'pending_sequence' | 'pending_batch' | 'included'

export interface EventWithProof {
  event: AuditEventView
  inclusion: {
    status: InclusionStatus
    leaf: string | null
    leaf_index: number | null
    merkle_root: string | null
    proof: string[]
    anchor: AnchorView | null
  }
}

export interface VerifyInput {
  readonly event_hash: string
  readonly proof: string[]
  readonly merkle_root: string
  readonly tenant_id?: string | undefined
}

export interface VerifyResult {
  valid: boolean
  computed_root: string
  merkle_root: string
  anchored: boolean
  anchors: AnchorView[]
  onchain_published: boolean | null
}

export interface ExportView {
  export_id: string
  status: 'queued' | 'running' | 'completed' | 'failed'
  format: 'jsonl' | 'csv'
  filters: Record<string, unknown>
  events_total: number | null
  events_written: number
  bytes: number | null
  sha256: string | null
  error: string | null
  created_at: string
  completed_at: string | null
  expires_at: string
  status_url: string
  download_url: string | null
}

export interface ExportInput {
  readonly format: 'jsonl' | 'csv'
  readonly layer?: AuditEventRow['layer'] | undefined
  readonly since?: string | undefined
  readonly until?: string | undefined
}

export interface EventQuery {
  readonly layer?: AuditEventRow['layer'] | undefined
  readonly actor?: string | undefined
  readonly since?: string | undefined
  readonly until?: string | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

export interface AuditService {
  latestAnchor(tenantId: string): Promise<AnchorView>
  event(tenantId: string, eventId: string): Promise<EventWithProof>
  events(tenantId: string, query: EventQuery): Promise<{ events: AuditEventView[]; next_cursor: string | null }>
  entityEvents(tenantId: string, entity: { type: string; id: string }, query: { limit?: number | undefined; cursor?: string | undefined }): Promise<{ entity_type: string; entity_id: string; events: AuditEventView[]; next_cursor: string | null }>
  verify(input: VerifyInput): Promise<VerifyResult>
  /** Walks the tenant's chain now and names the first broken link (chain-walk.ts). Reads only. */
  verifyChain(tenantId: string, options: { checkAnchors: boolean }): Promise<ChainWalkResult>
  /** Queues an export of the caller's tenant's events (a command: Idempotency-Key replays its outcome). */
  requestExport(context: CommandContext, input: ExportInput): Promise<CommandResult<ExportView>>
  exportStatus(tenantId: string, exportId: string): Promise<ExportView>
  exportDownload(tenantId: string, exportId: string): Promise<{ stream: Readable; format: 'jsonl' | 'csv'; bytes: number; sha256: string }>
}

export const guarantees = {
  database_hash_chain:
    'Database hash chain: every event is linked to the previous one by SHA-256 and batched under this Merkle root, which Steward keeps in its own database and has not published elsewhere. It proves the chain is internally consistent and exposes any single altered, removed or reordered event; it does not prove that Steward did not rewrite the chain as a whole.',
  onchain_pending:
    'Merkle root recorded by Steward and queued for publication on chain. Until it is published it proves what the database hash chain proves, and no more.',
  onchain_published: (publication: AuditPublicationRow) =>
    `Merkle root published on chain ${publication.chainId} by the AuditAnchor contract ${publication.contractAddress} in transaction ${publication.txHash} (block ${publication.blockNumber}). Anyone can check an event of this batch with isPublished(tenant, root) and verifyInclusion(root, leaf, proof) on that contract: changing any event of the batch after publication is detectable without trusting Steward.`,
} as const

export function toEventView(row: AuditEventRow): AuditEventView {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    seq: row.seq,
    layer: row.layer,
    actor: { type: row.actorType, id: row.actorId },
    action: row.action,
    entity: { type: row.entityType, id: row.entityId },
    inputs: row.inputs as Record<string, unknown>,
    outputs: row.outputs as Record<string, unknown>,
    evidence_ids: row.evidenceIds,
    request_id: row.requestId,
    created_at: row.createdAt.toISOString(),
    prev_hash: row.prevHash,
    hash: row.hash,
    sequenced_at: row.sequencedAt?.toISOString() ?? null,
  }
}

export function toAnchorView(anchor: AnchorSummary): AnchorView {
  const publication = anchor.publication
  const publicationStatus = anchor.anchoringMode === 'database_hash_chain' ? 'not_applicable' : publication === null ? 'pending' : 'published'
  return {
    anchor_id: anchor.id,
    tenant_id: anchor.tenantId,
    merkle_root: anchor.merkleRoot,
    event_count: anchor.eventCount,
    seq_from: anchor.seqFrom,
    seq_to: anchor.seqTo,
    period_start: anchor.periodStart.toISOString(),
    period_end: anchor.periodEnd.toISOString(),
    anchoring_mode: anchor.anchoringMode,
    publication_status: publicationStatus,
    onchain_tx_hash: publication?.txHash ?? null,
    onchain_block_number: publication?.blockNumber ?? null,
    chain_id: publication?.chainId ?? null,
    contract_address: publication?.contractAddress ?? null,
    guarantee:
      publicationStatus === 'not_applicable'
        ? guarantees.database_hash_chain
        : publication === null
          ? guarantees.onchain_pending
          : guarantees.onchain_published(publication),
  }
}

const hex32Pattern = /^(0x)?[0-9a-fA-F]{64}$/
const asHex32 = (value: string): Hex32 => `0x${value.replace(/^0x/, '').toLowerCase()}`

export interface AuditServiceDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly store: AuditStore
  readonly cursors: CursorCodec
  readonly ids: IdSource
  readonly clock: Clock
  /** Where an export's status_url and download_url point. */
  readonly publicBaseUrl: string
  /** The chain roots are published to, if any: `verify` asks it whether a root is published. */
  readonly chain: AnchorChainReader | undefined
  readonly blobs: BlobStore
}

export function createAuditService(deps: AuditServiceDeps): AuditService {
  const { db, commands, store, cursors, clock, ids } = deps

  const decodeAfter = (listing: string, cursor: string | undefined) => (cursor === undefined ? undefined : Number(cursors.decode(listing, cursor).after))
  const page = <T extends { recordedOrder: number }>(rows: T[], limit: number, listing: string) => {
    const shown = rows.slice(0, limit)
    const last = shown.at(-1)
    return { shown, next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { after: last.recordedOrder }) : null }
  }

  function exportView(row: AuditExportRow): ExportView {
    const statusUrl = `${deps.publicBaseUrl}/v1/audit/exports/${row.id}`
    return {
      export_id: row.id,
      status: row.status,
      format: row.format,
      filters: row.filters as Record<string, unknown>,
      events_total: row.eventsTotal,
      events_written: row.eventsWritten,
      bytes: row.bytes,
      sha256: row.blobSha256,
      error: row.error,
      created_at: row.createdAt.toISOString(),
      completed_at: row.completedAt?.toISOString() ?? null,
      expires_at: row.expiresAt.toISOString(),
      status_url: statusUrl,
      download_url: row.status === 'completed' ? `${statusUrl}/download` : null,
    }
  }

  return {
    async latestAnchor(tenantId) {
      const anchor = await store.latestAnchor(db.orm, tenantId)
      if (anchor === undefined) throw new AppError('audit_anchor_not_found')
      return toAnchorView(anchor)
    },

    /** The event and its inclusion proof: two small queries (the event with its batch, then the proof's nodes). */
    async event(tenantId, eventId) {
      const found = await store.findEventWithAnchor(db.orm, tenantId, eventId)
      if (found === undefined) throw new AppError('audit_event_not_found')
      const { event: row, anchor } = found
      const event = toEventView(row)
      if (row.seq === null || row.hash === null) {
        return { event, inclusion: { status: 'pending_sequence', leaf: null, leaf_index: null, merkle_root: null, proof: [], anchor: null } }
      }
      const leaf = leafOf(row.hash)
      if (anchor === null) {
        return { event, inclusion: { status: 'pending_batch', leaf, leaf_index: null, merkle_root: null, proof: [], anchor: null } }
      }
      const position = row.seq - anchor.seqFrom
      const nodes = await store.treeNodes(db.orm, tenantId, anchor.id, proofNodeIndices(2 * anchor.eventCount - 1, position))
      const proof = nodes.map((node): Hex32 => `0x${node.toString('hex')}`)
      return {
        event,
        inclusion: { status: 'included', leaf, leaf_index: position, merkle_root: anchor.merkleRoot, proof, anchor: toAnchorView(anchor) },
      }
    },

    async events(tenantId, query) {
      const limit = query.limit ?? auditEventPageRows.defaultRows
      const listing = `audit_events:${tenantId}:${digestOf({ layer: query.layer ?? null, actor: query.actor ?? null, since: query.since ?? null, until: query.until ?? null })}`
      const rows = await store.listEvents(db.orm, tenantId, {
        layer: query.layer,
        actor: query.actor,
        since: query.since === undefined ? undefined : new Date(query.since),
        until: query.until === undefined ? undefined : new Date(query.until),
        afterOrder: decodeAfter(listing, query.cursor),
        limit: limit + 1,
      })
      const { shown, next_cursor } = page(rows, limit, listing)
      return { events: shown.map(toEventView), next_cursor }
    },

    async entityEvents(tenantId, entity, query) {
      const limit = query.limit ?? auditEventPageRows.defaultRows
      const listing = `audit_entity:${tenantId}:${entity.type}:${entity.id}`
      const rows = await store.listEvents(db.orm, tenantId, { entity, afterOrder: decodeAfter(listing, query.cursor), limit: limit + 1 })
      // Every entity's creation is audited: no event at all means no such entity in this tenant.
      if (rows.length === 0 && query.cursor === undefined) throw new AppError('audit_entity_not_found')
      const { shown, next_cursor } = page(rows, limit, listing)
      return { entity_type: entity.type, entity_id: entity.id, events: shown.map(toEventView), next_cursor }
    },

    verifyChain(tenantId, options) {
      return walkChain(db, store, tenantId, options)
    },

    /** Public: recomputes the root from the event hash and the proof, and looks the root up among anchors. Writes nothing. */
    async verify(input) {
      if (!hex32Pattern.test(input.event_hash) || !hex32Pattern.test(input.merkle_root) || !input.proof.every((node) => hex32Pattern.test(node))) {
        throw new AppError('request_body_invalid', 'event_hash, merkle_root and every proof element must be 32 bytes of hex.')
      }
      const root = asHex32(input.merkle_root)
      const computedRoot = rootFromProof(asHex32(input.event_hash), input.proof.map(asHex32))
      const anchors = (await store.anchorsWithRoot(db.orm, root)).filter((anchor) => input.tenant_id === undefined || anchor.tenantId === input.tenant_id)
      let onchainPublished: boolean | null = null
      if (deps.chain !== undefined && input.tenant_id !== undefined) {
        onchainPublished = await deps.chain.isPublished(input.tenant_id, root).catch(() => null)
      }
      return {
        valid: computedRoot === root,
        computed_root: computedRoot,
        merkle_root: root,
        anchored: anchors.length > 0 || onchainPublished === true,
        anchors: anchors.map(toAnchorView),
        onchain_published: onchainPublished,
      }
    },

    /**
     * Queues an export of the caller's tenant's events; a durable job (export.job.ts) writes the file.
     * Locks nothing (one insert). Audits audit.export_requested; emits no business event; queues the
     * audit-export job in the same commit.
     */
    async requestExport(context, input) {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      return commands.run(context, { name: 'audit.requestExport', tenantId, input }, async (tx) => {
        const now = clock.now()
        const exportId = ids.newId('auditExport')
        const filters = { layer: input.layer ?? null, since: input.since ?? null, until: input.until ?? null }
        const row: AuditExportRow = {
          id: exportId,
          tenantId,
          format: input.format,
          filters,
          status: 'queued',
          eventsTotal: null,
          eventsWritten: 0,
          blobSha256: null,
          bytes: null,
          error: null,
          createdBy: principal.id,
          createdAt: now,
          completedAt: null,
          expiresAt: new Date(now.getTime() + exportRetentionSeconds * 1000),
        }
        await store.insertExport(tx, row)
        return {
          outcome: exportView(row),
          audit: [
            auditedBy(context, {
              action: 'audit.export_requested',
              entity: { type: 'audit_export', id: exportId },
              inputs: { request: digestOf(input) },
              outputs: { format: input.format },
            }),
          ],
          jobs: [{ queue: auditExportQueue, payload: { tenant_id: tenantId, export_id: exportId } }],
        }
      })
    },

    async exportStatus(tenantId, exportId) {
      const row = await store.findExport(db.orm, tenantId, exportId)
      if (row === undefined || row.expiresAt.getTime() <= clock.now().getTime()) throw new AppError('audit_export_not_found')
      return exportView(row)
    },

    async exportDownload(tenantId, exportId) {
      const row = await store.findExport(db.orm, tenantId, exportId)
      if (row === undefined || row.expiresAt.getTime() <= clock.now().getTime()) throw new AppError('audit_export_not_found')
      if (row.status !== 'completed' || row.blobSha256 === null || row.bytes === null) throw new AppError('audit_export_not_ready')
      const stream = await deps.blobs.open(tenantId, row.blobSha256)
      if (stream === undefined) throw new AppError('audit_export_not_found')
      return { stream, format: row.format, bytes: row.bytes, sha256: row.blobSha256 }
    },
  }
}
