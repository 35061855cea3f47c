/**
 * Regenerating a tenant's memory pages (POST /v1/memory/regenerate, and the `memory-regenerate` job the
 * Ledger's normalizations and reconciliations queue): render every page of the asked types from the
 * current sources (domain/pages.ts, pure), then, in one transaction under the tenant's memory lock, store
 * what changed: a new page is version 1; a page whose content hash differs gets the next version; a page
 * whose content is the same is left as it is (no new version, generated_at kept); a page of the asked
 * types whose subject is gone is deleted. Audited `memory.pages.regenerated` (layer wiki) with counts and
 * hashes only.
 */
import type { AuditActor } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { canonicalJson, sha256Hex } from '../../kernel/hashing.ts'
import type { CommandContext } from '../../kernel/context.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import { pageTypes, sourceOfPageType, type PageType } from './domain/page-types.ts'
import { renderPages, type MemorySources } from './domain/pages.ts'
import type { MemoryStore } from './memory.store.ts'
import type { MemoryPageRow } from './memory.tables.ts'
import type { MemoryAgents, MemoryLedger, MemoryPolicy } from './ports.ts'

/** How many changed slugs a regeneration's outcome names (the counts cover all of them). */
export const regenerationSlugsListed = 1000

export interface RegenerationRequest {
  readonly tenantId: string
  /** The page types to regenerate; every type when absent. */
  readonly pageTypes?: readonly PageType[] | undefined
  readonly actor: AuditActor
  /** Why: a caller's request, or the Ledger job that wrote. */
  readonly cause: { readonly kind: 'request' } | { readonly kind: 'ledger.normalize' | 'ledger.reconcile' | 'ledger.trust' | 'policy.composed' | 'policy.activated' | 'agent.registered' | 'agent.state_changed'; readonly ledgerRef: string }
}

export interface RegenerationOutcome {
  page_types: PageType[]
  pages: number
  created: number
  changed: number
  unchanged: number
  deleted: number
  /** Slugs of the pages created or changed, in slug order, at most regenerationSlugsListed. */
  changed_slugs: string[]
  /** SHA-256 over every regenerated page's slug and content hash: the same sources give the same value. */
  pages_sha256: string
}

export function createRegenerationService(deps: {
  db: Database
  commands: CommandRunner
  store: MemoryStore
  ids: IdSource
  clock: Clock
  ledger: MemoryLedger
  policy: MemoryPolicy
  agents: MemoryAgents
}) {
  const { commands, store, ids, clock } = deps

  /**
   * What the pages of `types` are rendered from: the Ledger and the policy read in the regeneration's
   * transaction, after its lock, so a regeneration never stores pages older than the one before it. A
   * source no page of `types` is rendered from is not read (left empty): an agent's page needs no Ledger.
   */
  async function sourcesOf(executor: Executor, tenantId: string, types: readonly PageType[], agents: MemorySources['agents']): Promise<MemorySources> {
    const needs = new Set(types.map((type) => sourceOfPageType[type]))
    const ledger = needs.has('ledger') ? await deps.ledger.current(executor, tenantId) : { accounts: [], balances: [], transactions: [], counterparties: [], invoices: [], obligations: [] }
    const policy = needs.has('policy') ? await deps.policy.policyOf(executor, tenantId) : { active: null, versions: [] }
    return { tenant_id: tenantId, ...ledger, policy, agents }
  }

  return {
    /**
     * Locks the tenant's memory (a transaction advisory lock), writes the changed pages, audits
     * `memory.pages.regenerated`; emits no business event. With an Idempotency-Key, a repeat replays the
     * first outcome.
     */
    async regenerate(context: CommandContext, request: RegenerationRequest): Promise<CommandResult<RegenerationOutcome>> {
      const types = request.pageTypes === undefined || request.pageTypes.length === 0 ? [...pageTypes] : pageTypes.filter((type) => request.pageTypes!.includes(type))
      const input = { page_types: request.pageTypes === undefined ? null : [...types] }
      // The agents module reads on its own connection: before the transaction (PGlite has one connection).
      const agents = types.includes('agent') ? await deps.agents.agentsOf(request.tenantId) : []
      return commands.run(context, { name: 'memory.regenerate', tenantId: request.tenantId, input }, async (tx) => {
        await store.lockTenant(tx, request.tenantId)
        const drafts = renderPages(await sourcesOf(tx, request.tenantId, types, agents)).filter((draft) => types.includes(draft.page_type))
        const now = clock.now()
        const stored = new Map((await store.pageHashes(tx, request.tenantId, types)).map((row) => [row.slug, row]))
        const inserted: MemoryPageRow[] = []
        const changedSlugs: string[] = []
        let changed = 0
        for (const draft of drafts) {
          const current = stored.get(draft.slug)
          stored.delete(draft.slug)
          const fields = {
            title: draft.title,
            content: draft.content,
            contentSha256: draft.content_sha256,
            subjectIds: [...draft.subject_ids],
            sourceVersion: draft.source_version === null ? null : new Date(draft.source_version),
            generatedAt: now,
          }
          if (current === undefined) {
            inserted.push({ tenantId: request.tenantId, id: ids.newId('memoryPage'), slug: draft.slug, pageType: draft.page_type, version: 1, createdAt: now, ...fields })
            changedSlugs.push(draft.slug)
          } else if (current.contentSha256 !== draft.content_sha256) {
            await store.updatePage(tx, request.tenantId, current.id, { ...fields, version: current.version + 1 })
            changed += 1
            changedSlugs.push(draft.slug)
          }
        }
        await store.insertPages(tx, inserted)
        // What is left was rendered before but not now: its subject is gone from the sources.
        const gone = [...stored.values()].map((row) => row.id)
        await store.deletePages(tx, request.tenantId, gone)
        const outcome: RegenerationOutcome = {
          page_types: types,
          pages: drafts.length,
          created: inserted.length,
          changed,
          unchanged: drafts.length - inserted.length - changed,
          deleted: gone.length,
          changed_slugs: changedSlugs.sort().slice(0, regenerationSlugsListed),
          pages_sha256: sha256Hex(canonicalJson(drafts.map((draft) => [draft.slug, draft.content_sha256]))),
        }
        return {
          outcome,
          audit: [
            {
              tenantId: request.tenantId,
              layer: 'wiki',
              actor: request.actor,
              action: 'memory.pages.regenerated',
              entity: { type: 'memory_pages', id: request.tenantId },
              inputs: { page_types: types, cause: request.cause.kind, ledger_ref: 'ledgerRef' in request.cause ? request.cause.ledgerRef : null },
              outputs: { pages: outcome.pages, created: outcome.created, changed: outcome.changed, unchanged: outcome.unchanged, deleted: outcome.deleted, pages_sha256: outcome.pages_sha256 },
              requestId: context.requestId,
            },
          ],
        }
      })
    },
  }
}

export type RegenerationService = ReturnType<typeof createRegenerationService>
