/**
 * What the sequencer, the batcher, the publisher and the audit read routes need from storage. Every
 * method takes the tenant id, except the sweeps that look for work across tenants and the lookup of a
 * published root for the public verifier.
 */
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { auditAnchorPublications, auditAnchors, auditEventLog, auditEvents, auditExports, auditInbox } from './audit.tables.ts'

/** An event as the read side sees it: linked (chain columns set) or not yet (null). */
export type AuditEventRow = typeof auditEventLog.$inferSelect
/** An event linked into the chain. */
export type ChainEventRow = typeof auditEvents.$inferSelect
/** An event recorded and waiting for the sequencer. */
export type InboxEventRow = typeof auditInbox.$inferSelect
export type AuditAnchorRow = typeof auditAnchors.$inferSelect
export type AuditPublicationRow = typeof auditAnchorPublications.$inferSelect
export type AuditExportRow = typeof auditExports.$inferSelect

export interface ChainHead {
  readonly seq: number
  readonly hash: string
  readonly batchedSeq: number
}

export interface EventSeal {
  readonly tenantId: string
  readonly id: string
  readonly seq: number
  readonly prevHash: string
  readonly hash: string
}

export interface EventFilter {
  readonly layer?: AuditEventRow['layer'] | undefined
  /** `type:id` or a bare actor id. */
  readonly actor?: string | undefined
  readonly since?: Date | undefined
  readonly until?: Date | undefined
  readonly entity?: { type: string; id: string } | undefined
  /** Rows after this recorded_order (the cursor position). */
  readonly afterOrder?: number | undefined
  readonly limit: number
}

/** An anchor without its tree (listings and the latest-anchor route never need the nodes). */
export type AnchorSummary = Omit<AuditAnchorRow, 'tree'> & { publication: AuditPublicationRow | null }

export interface AuditStore {
  /**
   * Creates the tenants' heads on first use and locks them until the transaction ends, in tenant order
   * (two sequencers locking overlapping sets wait on each other, never deadlock): one statement.
   */
  lockHeads(tx: Tx, tenantIds: readonly string[]): Promise<Map<string, ChainHead>>
  /** Writes the heads given (one statement). */
  updateHeads(tx: Tx, heads: ReadonlyMap<string, ChainHead>): Promise<void>
  /**
   * The oldest events waiting in the inbox of these tenants, at most `limit` in all, in recorded order:
   * each tenant's are its own oldest, in its order.
   */
  unsequenced(tx: Tx, tenantIds: readonly string[], limit: number): Promise<InboxEventRow[]>
  /** Moves events (any of the tenants') from the inbox into the chain, sealed: one INSERT into audit_events, one DELETE from the inbox. */
  seal(tx: Tx, seals: readonly EventSeal[], at: Date): Promise<void>
  /** Record times of the events named by tenant and seq (those that exist). */
  eventTimes(executor: Executor, events: ReadonlyArray<{ tenantId: string; seq: number }>): Promise<Array<{ tenantId: string; seq: number; createdAt: Date }>>
  /** Hashes and record times of events seq_from..seq_to, in seq order. */
  chainSlice(executor: Executor, tenantId: string, seqFrom: number, seqTo: number): Promise<Array<{ seq: number; hash: string; createdAt: Date }>>
  /** Events seq_from..seq_to in seq order, every column, for the chain walk. */
  chainPage(executor: Executor, tenantId: string, seqFrom: number, limit: number): Promise<ChainEventRow[]>
  countUnsequenced(executor: Executor, tenantId: string): Promise<number>

  tenantsWithUnsequenced(executor: Executor, limit: number): Promise<string[]>
  /** Tenants with a batch to close: enough unbatched events, or the oldest unbatched recorded before `cutoff`. */
  tenantsWithDueBatches(executor: Executor, eventsMax: number, cutoff: Date, limit: number): Promise<string[]>

  insertAnchor(tx: Tx, anchor: AuditAnchorRow): Promise<void>
  latestAnchor(executor: Executor, tenantId: string): Promise<AnchorSummary | undefined>
  anchorContaining(executor: Executor, tenantId: string, seq: number): Promise<(AuditAnchorRow & { publication: AuditPublicationRow | null }) | undefined>
  /** Anchors (any tenant) with this root, with their publications: the public verifier's question. */
  anchorsWithRoot(executor: Executor, merkleRoot: string): Promise<AnchorSummary[]>
  /** Anchors waiting to be published on chain, oldest first (any tenant). */
  unpublishedAnchors(executor: Executor, limit: number): Promise<Array<{ id: string; tenantId: string; merkleRoot: string }>>
  insertPublications(tx: Tx, publications: readonly AuditPublicationRow[]): Promise<void>

  findEvent(executor: Executor, tenantId: string, eventId: string): Promise<AuditEventRow | undefined>
  /** The event and, when it is batched, its batch (without the tree): one round trip. */
  findEventWithAnchor(executor: Executor, tenantId: string, eventId: string): Promise<{ event: AuditEventRow; anchor: AnchorSummary | null } | undefined>
  /** Chosen nodes of a batch's tree (32 bytes each), in the order asked: a proof reads ~10 nodes, not the tree. */
  treeNodes(executor: Executor, tenantId: string, anchorId: string, indices: readonly number[]): Promise<Buffer[]>
  countEvents(executor: Executor, tenantId: string, filter: Omit<EventFilter, 'afterOrder' | 'limit'>): Promise<number>
  listEvents(executor: Executor, tenantId: string, filter: EventFilter): Promise<AuditEventRow[]>

  insertExport(tx: Tx, row: AuditExportRow): Promise<void>
  findExport(executor: Executor, tenantId: string, exportId: string): Promise<AuditExportRow | undefined>
  updateExport(executor: Executor, tenantId: string, exportId: string, values: Partial<Omit<AuditExportRow, 'id' | 'tenantId'>>): Promise<void>
}
