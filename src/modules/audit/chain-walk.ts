/**
 * The chain walk: reads a tenant's chain in seq order and recomputes it, naming the first broken link.
 * It checks that seq is dense from 1, that each prev_hash is the previous hash, that each hash
 * recomputes from the event's stored fields, that the head agrees with the last event, and (optionally)
 * that every Merkle batch's root recomputes from its events. Used by `npm run audit:verify` and by the
 * gate's audit_chain_healthy check, and by GET /v1/audit/chain and GET /v1/platform/audit/chain while the service runs.
 */
import type { Database } from '../../platform/db/database.ts'
import type { AuditStore } from './audit.store.ts'
import { genesisHash, hashAuditEvent } from './domain/chain.ts'
import { buildTree, leafOf, rootOf } from './domain/merkle.ts'
import { toEventBody } from './sequencer.ts'
import { queryRows } from '../../platform/db/database.ts'
import { sql } from 'drizzle-orm'

/** Events read per page during a walk. */
export const walkPageRows = 5_000
/**
 * How many times a walk that reached the end of what it read follows a head that moved on meanwhile
 * (a running service keeps sequencing); after that it reports the chain as far as it read it.
 */
export const walkCatchUpsMax = 20

export type ChainProblem = 'seq_gap' | 'prev_hash_mismatch' | 'hash_mismatch' | 'head_mismatch' | 'anchor_root_mismatch' | 'anchor_range_mismatch'

export interface ChainBreak {
  readonly seq: number | null
  readonly event_id: string | null
  readonly anchor_id: string | null
  readonly problem: ChainProblem
  readonly expected: string
  readonly found: string
}

export interface ChainWalkResult {
  readonly tenant_id: string
  readonly ok: boolean
  readonly events_checked: number
  readonly anchors_checked: number
  readonly head_seq: number
  readonly unsequenced: number
  readonly first_break: ChainBreak | null
}

interface AnchorRange {
  id: string
  seq_from: number
  seq_to: number
  merkle_root: string
}

export async function walkChain(
  db: Database,
  store: AuditStore,
  tenantId: string,
  options: { checkAnchors?: boolean } = {},
): Promise<ChainWalkResult> {
  const checkAnchors = options.checkAnchors ?? true
  const readHead = async () => {
    const [row] = await queryRows<{ seq: string | number; hash: string }>(db.orm, sql`select seq, hash from audit_chain_heads where tenant_id = ${tenantId}`)
    return row === undefined ? undefined : { seq: Number(row.seq), hash: row.hash }
  }
  const anchors = checkAnchors
    ? (
        await queryRows<AnchorRange>(
          db.orm,
          sql`select id, seq_from, seq_to, merkle_root from audit_anchors where tenant_id = ${tenantId} order by seq_from`,
        )
      ).map((anchor) => ({ ...anchor, seq_from: Number(anchor.seq_from), seq_to: Number(anchor.seq_to) }))
    : []
  const unsequenced = await store.countUnsequenced(db.orm, tenantId)
  let headSeq = (await readHead())?.seq ?? 0
  const result = (fields: { events: number; anchors: number; firstBreak: ChainBreak | null }): ChainWalkResult => ({
    tenant_id: tenantId,
    ok: fields.firstBreak === null,
    events_checked: fields.events,
    anchors_checked: fields.anchors,
    head_seq: headSeq,
    unsequenced,
    first_break: fields.firstBreak,
  })

  let expectedSeq = 1
  let previousHash = genesisHash
  let anchorIndex = 0
  let leaves: Array<`0x${string}`> = []
  let anchorsChecked = 0
  let head: { seq: number; hash: string } | undefined
  let catchUps = 0
  for (;;) {
    const page = await store.chainPage(db.orm, tenantId, expectedSeq, walkPageRows)
    for (const row of page) {
      const seq = Number(row.seq)
      const at = (problem: ChainProblem, expected: string, found: string): ChainBreak => ({ seq, event_id: row.id, anchor_id: null, problem, expected, found })
      if (seq !== expectedSeq) return result({ events: expectedSeq - 1, anchors: anchorsChecked, firstBreak: at('seq_gap', String(expectedSeq), String(seq)) })
      if (row.prevHash !== previousHash) return result({ events: expectedSeq - 1, anchors: anchorsChecked, firstBreak: at('prev_hash_mismatch', previousHash, String(row.prevHash)) })
      const recomputed = hashAuditEvent(toEventBody(row, seq, previousHash))
      if (recomputed !== row.hash) return result({ events: expectedSeq - 1, anchors: anchorsChecked, firstBreak: at('hash_mismatch', recomputed, String(row.hash)) })

      const anchor = anchors[anchorIndex]
      if (anchor !== undefined && seq >= anchor.seq_from) {
        leaves.push(leafOf(recomputed))
        if (seq === anchor.seq_to) {
          const root = rootOf(buildTree(leaves))
          if (leaves.length !== anchor.seq_to - anchor.seq_from + 1) {
            return result({ events: seq, anchors: anchorsChecked, firstBreak: { seq: null, event_id: null, anchor_id: anchor.id, problem: 'anchor_range_mismatch', expected: String(anchor.seq_to - anchor.seq_from + 1), found: String(leaves.length) } })
          }
          if (root !== anchor.merkle_root) {
            return result({ events: seq, anchors: anchorsChecked, firstBreak: { seq: null, event_id: null, anchor_id: anchor.id, problem: 'anchor_root_mismatch', expected: root, found: anchor.merkle_root } })
          }
          anchorsChecked += 1
          anchorIndex += 1
          leaves = []
        }
      }
      previousHash = recomputed
      expectedSeq += 1
    }
    if (page.length < walkPageRows) {
      // On a running service the sequencer keeps linking events while the walk reads: the walk is whole
      // when it has reached the head as it is now. The head moves in the transaction that sequences its
      // events, so a head past the walk means events to read still; a head behind it is a break.
      const now = await readHead()
      headSeq = now?.seq ?? 0
      head = now
      catchUps += 1
      if (headSeq <= expectedSeq - 1 || catchUps > walkCatchUpsMax) break
    }
  }
  const eventsChecked = expectedSeq - 1
  if (eventsChecked !== headSeq || (head !== undefined && head.hash !== previousHash && eventsChecked > 0)) {
    return result({
      events: eventsChecked,
      anchors: anchorsChecked,
      firstBreak: { seq: headSeq, event_id: null, anchor_id: null, problem: 'head_mismatch', expected: `${eventsChecked}:${previousHash}`, found: `${headSeq}:${head?.hash ?? genesisHash}` },
    })
  }
  return result({ events: eventsChecked, anchors: anchorsChecked, firstBreak: null })
}
