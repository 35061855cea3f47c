/**
 * GET /v1/proposals with a derived filter (type, status, risk band) reads agent proposals in batches and
 * filters them in process; one request reads at most `scanRowsMax` of them. Past the bound the page is
 * answered as far as it filled (possibly empty) with a cursor after the last proposal read, so walking the
 * cursors still finds every match, in order, once. The read service over in-memory ports: what is tested is
 * the scan and its cursor, the same on both engines (the agents module's page query is tested with it in
 * proposals.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { createCursorCodec } from '../../../src/kernel/cursor.ts'
import type { AgentProposalRecord } from '../../../src/modules/agents/index.ts'
import { createReadService } from '../../../src/modules/proposals/read.service.ts'
import type { ProposalsStore } from '../../../src/modules/proposals/proposals.store.pg.ts'

const tenantId = '7b1f9c2e-3d4a-4b5c-8d6e-0f1a2b3c4d5e'

/** `count` findings, newest first, one minute apart; every `every`-th (from the newest) by a cash_forecast agent, the rest treasury. */
function findings(count: number, every: number): AgentProposalRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `prp_${String(count - index).padStart(4, '0')}`,
    runId: null,
    agent: { id: `agt_${index % every === 0 ? 'forecast' : 'treasury'}`, kind: 'external', display_name: 'An agent', role: index % every === 0 ? 'cash_forecast' : 'treasury' },
    proposalType: index % every === 0 ? 'cash_forecast' : 'treasury',
    actionType: 'review',
    proposalKey: `key_${index}`,
    status: 'proposed',
    confidence: 0.9,
    evidenceScore: 0.9,
    narrative: 'A finding.',
    evidence: [],
    details: {},
    paymentIntentId: null,
    policyDecisionId: null,
    createdAt: new Date(Date.UTC(2026, 10, 1) - index * 60_000),
  }))
}

function serviceOver(records: readonly AgentProposalRecord[], bound: number) {
  const reads: number[] = []
  const service = createReadService({
    db: { orm: undefined } as never,
    store: { decisionsOf: async () => new Map() } as unknown as ProposalsStore,
    cursors: createCursorCodec('test-cursor-key'),
    agents: {
      async page(_tenant: string, query: { before?: { createdAt: Date; id: string } | undefined; limit: number }) {
        const older = records.filter((record) => query.before === undefined || record.createdAt < query.before.createdAt || (record.createdAt.getTime() === query.before.createdAt.getTime() && record.id < query.before.id))
        const page = older.slice(0, query.limit)
        reads[reads.length - 1]! += page.length
        return page
      },
      find: async () => undefined,
    } as never,
    payments: { intents: async () => new Map(), approveIn: async () => ({}) as never, rejectIn: async () => ({}) as never, recordRefusal: async () => {} },
    policy: { evaluateFindings: async (_tenant, actions) => actions.map(() => undefined) },
    scanRowsMax: bound,
  })
  /** Every page of the listing, following the cursors; how many proposals each request read. */
  async function walk(query: { type?: 'cash_forecast'; status?: 'acknowledged'; limit: number }) {
    const pages: Array<{ ids: string[]; next: boolean }> = []
    let cursor: string | undefined
    do {
      reads.push(0)
      const answer = await service.list(tenantId, { ...query, ...(cursor === undefined ? {} : { cursor }) })
      pages.push({ ids: answer.proposals.map((proposal) => proposal.id), next: answer.next_cursor !== null })
      cursor = answer.next_cursor ?? undefined
      expect(pages.length).toBeLessThan(100)
    } while (cursor !== undefined)
    return { pages, reads: [...reads] }
  }
  return { walk, reads }
}

describe('proposals list: a filtered scan is bounded per request', () => {
  it('reads at most the bound per request and still finds every match once, in order, through short pages', async () => {
    const records = findings(30, 7)
    const { walk } = serviceOver(records, 10)
    const { pages, reads } = await walk({ type: 'cash_forecast', limit: 2 })
    expect(pages.flatMap((page) => page.ids)).toEqual(records.filter((record) => record.agent.role === 'cash_forecast').map((record) => record.id))
    for (const read of reads) expect(read).toBeLessThanOrEqual(10)
    // A page short of the limit that is not the last: the bound stopped the scan, not the end of the list.
    expect(pages.some((page) => page.ids.length < 2 && page.next)).toBe(true)
    expect(pages.at(-1)!.next).toBe(false)
  })

  it('a filter that matches nothing answers empty pages with a cursor until the proposals are read, never all in one request', async () => {
    const { walk } = serviceOver(findings(30, 7), 10)
    const { pages, reads } = await walk({ status: 'acknowledged', limit: 5 })
    expect(pages.every((page) => page.ids.length === 0)).toBe(true)
    expect(reads.reduce((sum, read) => sum + read, 0)).toBe(30)
    for (const read of reads) expect(read).toBeLessThanOrEqual(10)
    expect(pages.length).toBeGreaterThanOrEqual(3)
  })

  it('without a derived filter reads just the page and one more, whatever the bound', async () => {
    const records = findings(30, 7)
    const { walk } = serviceOver(records, 10)
    const { pages, reads } = await walk({ limit: 25 })
    expect(pages.map((page) => page.ids.length)).toEqual([25, 5])
    expect(reads[0]).toBe(26)
  })
})
