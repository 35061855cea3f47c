/** The spec's memory page types (spec, "Wiki and memory"), and the first part of each one's slug. */
export const pageTypes = ['account', 'counterparty', 'obligation', 'invoice', 'agent', 'policy', 'monthly_summary', 'cash_flow'] as const
export type PageType = (typeof pageTypes)[number]

/** The first part of each page type's slug (`monthly-summary/2026-03`). */
export const slugPrefixes: Readonly<Record<PageType, string>> = {
  account: 'account',
  counterparty: 'counterparty',
  obligation: 'obligation',
  invoice: 'invoice',
  agent: 'agent',
  policy: 'policy',
  monthly_summary: 'monthly-summary',
  cash_flow: 'cash-flow',
}

/** What each page type is rendered from: a regeneration of some types reads only their sources. */
export const sourceOfPageType: Readonly<Record<PageType, 'ledger' | 'policy' | 'agents'>> = {
  account: 'ledger',
  counterparty: 'ledger',
  obligation: 'ledger',
  invoice: 'ledger',
  agent: 'agents',
  policy: 'policy',
  monthly_summary: 'ledger',
  cash_flow: 'ledger',
}
