import { describe, expect, it } from 'vitest'
import { figure, link, text } from './markdown.ts'
import { monthBounds, renderPages, type MemorySources } from './pages.ts'

const recorded = (id: string, at = '2026-03-01T10:00:00.000Z') => ({ id, source_ids: [`raw_${id}`], evidence_ids: [`rpr_${id}`], created_at: at })

function sources(overrides: Partial<MemorySources> = {}): MemorySources {
  return {
    tenant_id: '00000000-0000-7000-8000-000000000001',
    accounts: [{ ...recorded('acc_1'), name: 'Checking', account_type: 'bank_checking', status: 'active', institution: 'Bank', currency: 'EUR', account_number_masked: null, wallet_address: null, chain_id: null }],
    balances: [{ ...recorded('bal_1'), account_id: 'acc_1', balance_type: 'closing', as_of: '2026-03-31', amount: '100.00', currency: 'EUR' }],
    transactions: [
      { ...recorded('txn_1'), account_id: 'acc_1', amount: '-40.00', currency: 'EUR', direction: 'outflow', transaction_date: '2026-03-02', counterparty_id: 'cpy_1', status: 'posted', description: 'Rent' },
      { ...recorded('txn_2', '2026-03-05T10:00:00.000Z'), account_id: 'acc_1', amount: '-2.50', currency: 'EUR', direction: 'outflow', transaction_date: '2026-03-20', counterparty_id: 'cpy_1', status: 'posted', description: 'Fee' },
      { ...recorded('txn_3'), account_id: 'acc_1', amount: '10.00', currency: 'EUR', direction: 'inflow', transaction_date: '2026-02-27', counterparty_id: null, status: 'posted', description: null },
      { ...recorded('txn_4'), account_id: 'acc_1', amount: '-5.00', currency: 'EUR', direction: 'transfer', transaction_date: '2026-03-21', counterparty_id: null, status: 'posted', description: 'To savings' },
    ],
    counterparties: [{ ...recorded('cpy_1'), name: 'Landlord GmbH', type: 'vendor', verified_status: 'unverified', risk_level: 'low', trust_state: 'unreviewed', aliases: [] }],
    invoices: [],
    obligations: [],
    policy: { active: null, versions: [] },
    agents: [],
    ...overrides,
  }
}

describe('text (Markdown escaping of values from data)', () => {
  it.each([
    ['[x](javascript:alert(1))', '\\[x\\]\\(javascript\\:alert\\(1\\)\\)'],
    ['<script>alert(1)</script>', '&lt;script&gt;alert\\(1\\)&lt;\\/script&gt;'],
    ['**bold** _it_ `code`', '\\*\\*bold\\*\\* \\_it\\_ \\`code\\`'],
    ['a | b', 'a \\| b'],
    ['line\nbreak\r\n# heading', 'line break \\# heading'],
    ['![img](http://x)', '\\!\\[img\\]\\(http\\:\\/\\/x\\)'],
    ['&lt;', '&amp;lt;'],
    ['', '—'],
  ])('%j → %j', (input, expected) => {
    expect(text(input)).toBe(expected)
  })

  it('leaves no unescaped Markdown or HTML control character in any value', () => {
    for (const hostile of ['[x](javascript:void 0)', '<img src=x onerror=alert(1)>', '<https://evil.example>', '\\[x](y)']) {
      const escaped = text(hostile)
      expect(escaped).not.toMatch(/(^|[^\\])[[\]()<>`*_|!]/)
    }
  })

  it('writes a figure as is only when it is a number or a date', () => {
    expect(figure('-1234.50')).toBe('-1234.50')
    expect(figure('2026-03-01')).toBe('2026-03-01')
    expect(figure(3)).toBe('3')
    expect(figure('1e3 [x](y)')).toBe(text('1e3 [x](y)'))
  })

  it('percent-encodes link segments, parentheses included', () => {
    expect(link('a', ['v1', 'agents', 'x)(y'])).toBe('[a](/v1/agents/x%29%28y)')
  })
})

describe('renderPages', () => {
  it('is deterministic: the same sources, in any order, give byte-identical pages', () => {
    const first = renderPages(sources())
    const shuffled = sources()
    const again = renderPages({ ...shuffled, transactions: [...shuffled.transactions].reverse() })
    expect(again).toEqual(first)
    expect(first.map((page) => page.slug)).toEqual(['account/acc_1', 'cash-flow/EUR', 'counterparty/cpy_1', 'monthly-summary/2026-02', 'monthly-summary/2026-03'])
  })

  it('sums a month by direction, transfers apart, with links to the evidence', () => {
    const march = renderPages(sources()).find((page) => page.slug === 'monthly-summary/2026-03')!
    expect(march.page_type).toBe('monthly_summary')
    expect(march.content).toContain('| EUR | 3 | 0.00 | 42.50 | -42.50 | 1 | 0 |')
    expect(march.content).toContain('](/v1/memory/pages/counterparty/cpy_1) | EUR | 42.50 | 2 |')
    expect(march.content).toContain('(/v1/ledger/transactions?since=2026-03-01&until=2026-03-31)')
    expect(march.source_version).toBe('2026-03-05T10:00:00.000Z')
  })

  it('cites the Ledger record, its Raw sources and parsed rows', () => {
    const counterparty = renderPages(sources()).find((page) => page.slug === 'counterparty/cpy_1')!
    expect(counterparty.content).toContain('[cpy\\_1](/v1/ledger/counterparties/cpy_1)')
    expect(counterparty.content).toContain('[raw\\_cpy\\_1](/v1/raw/raw_cpy_1) ([parsed rows](/v1/raw/raw_cpy_1/parsed))')
    expect(counterparty.content).toContain('rpr\\_cpy\\_1')
    expect(counterparty.content).toContain('[txn\\_2](/v1/ledger/transactions/txn_2)')
    expect(counterparty.subject_ids).toEqual(['cpy_1'])
  })

  it('renders a hostile counterparty name inert, in its page and wherever it is linked', () => {
    const name = '[x](javascript:alert(1))<script>alert(2)</script>'
    const base = sources()
    const pages = renderPages({ ...base, counterparties: [{ ...base.counterparties[0]!, name }] })
    for (const page of pages) {
      expect(page.content).not.toContain('<script')
      expect(page.content).not.toContain('](javascript')
      expect(page.content).not.toMatch(/\]\((?!\/v1\/)/)
    }
    expect(pages.find((page) => page.slug === 'counterparty/cpy_1')!.content).toContain('&lt;script&gt;')
  })

  it('changes the content hash exactly when the content changes', () => {
    const before = renderPages(sources())
    const base = sources()
    const after = renderPages({ ...base, transactions: [...base.transactions, { ...recorded('txn_5'), account_id: 'acc_1', amount: '7.00', currency: 'EUR', direction: 'inflow', transaction_date: '2026-02-10', counterparty_id: null, status: 'posted', description: null }] })
    const changed = after.filter((page, index) => page.content_sha256 !== before[index]!.content_sha256).map((page) => page.slug)
    expect(changed).toEqual(['account/acc_1', 'cash-flow/EUR', 'monthly-summary/2026-02'])
  })

  it('knows the last day of each month', () => {
    expect(monthBounds('2026-02')).toEqual({ first: '2026-02-01', last: '2026-02-28' })
    expect(monthBounds('2024-02').last).toBe('2024-02-29')
    expect(monthBounds('2026-12').last).toBe('2026-12-31')
  })
})
