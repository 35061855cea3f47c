/**
 * Evidence resolve (spec, "Proposals and evidence"; POST /v1/evidence/resolve and the agent protocol's
 * evidence.resolve tool): up to 50 refs, each answered, never an error. account, counterparty, invoice,
 * obligation and transaction refs are looked up in the tenant's Ledger (its query port), wiki_entity refs
 * through the Wiki; a found record comes back with a one-line summary and the API path that reads it. A
 * supported, well-formed ref the tenant does not have is resolvable with not_found true (another tenant's
 * record reads exactly so). Other kinds (document, payment_intent, policy, raw_artifact, parsed_row, …)
 * are unsupported_kind, and a ref that is no id of its kind malformed_ref. Reads only.
 */
import type { Static } from 'typebox'
import { classifyRef, deepLinkOf, summaryOf } from './domain/evidence.ts'
import type { EvidenceResolveBody, EvidenceResolveResult } from './proposals.schemas.ts'
import type { ProposalsEvidence } from './ports.ts'

type Result = Static<typeof EvidenceResolveResult>['results'][number]

export function createEvidenceService(deps: { evidence: ProposalsEvidence }) {
  const { evidence } = deps

  async function resolveOne(tenantId: string, kind: string, ref: string): Promise<Result> {
    const classified = classifyRef(kind, ref)
    if (!classified.ok) return { kind, ref, resolvable: false, not_found: false, summary: null, deep_link: null, reason: classified.reason }
    if (classified.kind === 'wiki_entity') {
      const entity = await evidence.wikiEntity(tenantId, ref)
      return entity === undefined
        ? { kind, ref, resolvable: true, not_found: true, summary: null, deep_link: null, reason: null }
        : { kind, ref, resolvable: true, not_found: false, summary: `Wiki entity: ${summaryOf(entity.kind, entity.record)}`, deep_link: deepLinkOf('wiki_entity', ref), reason: null }
    }
    const record = await evidence.ledgerRecord(tenantId, classified.kind, ref)
    return record === undefined
      ? { kind, ref, resolvable: true, not_found: true, summary: null, deep_link: null, reason: null }
      : { kind, ref, resolvable: true, not_found: false, summary: summaryOf(classified.kind, record), deep_link: deepLinkOf(classified.kind, ref), reason: null }
  }

  return {
    /** Each ref's answer, in the order asked. */
    async resolve(tenantId: string, body: Static<typeof EvidenceResolveBody>): Promise<Static<typeof EvidenceResolveResult>> {
      const results: Result[] = []
      for (const { kind, ref } of body.refs) results.push(await resolveOne(tenantId, kind, ref))
      return { results }
    },
  }
}

export type EvidenceService = ReturnType<typeof createEvidenceService>
