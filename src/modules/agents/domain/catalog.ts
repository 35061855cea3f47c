/**
 * The first-party catalog (spec, "Agent": agent_key, provenance, category, capabilities,
 * enabled_by_default): one entry per working program, never one without. Each agent's behaviour hash is
 * the SHA-256 of its key, program version and configuration (canonical JSON), so any change of what it
 * does changes the hash the gate pins (check 1.5).
 */
import { canonicalJson, sha256Hex } from '../../../kernel/hashing.ts'
import type { AgentProgram } from './programs/program.ts'
import { billPaymentProgram } from './programs/bill-payment.ts'
import { cashForecastProgram } from './programs/cash-forecast.ts'
import { collectionsProgram } from './programs/collections.ts'
import { fraudAnomalyProgram } from './programs/fraud-anomaly.ts'
import { reconciliationProgram } from './programs/reconciliation.ts'
import { subscriptionsProgram } from './programs/subscriptions.ts'
import { vendorRiskProgram } from './programs/vendor-risk.ts'

export interface CatalogDefinition {
  readonly program: AgentProgram<any>
  readonly displayName: string
  readonly description: string
  /** The public proposal type it produces (spec, "Proposal"): what a role routes to it. */
  readonly role: string
  readonly enabledByDefault: boolean
}

export interface CatalogEntry {
  readonly agent_key: string
  readonly provenance: 'first_party'
  readonly kind: 'internal'
  readonly role: string
  readonly display_name: string
  readonly description: string
  readonly category: 'business' | 'consumer' | 'agnostic'
  readonly capabilities: string[]
  readonly enabled_by_default: boolean
  readonly version: string
  readonly behavior_hash: string
}

/** The catalog, in the order it is listed. */
export const catalogDefinitions: readonly CatalogDefinition[] = [
  { program: billPaymentProgram, displayName: 'Bill payment', description: 'Proposes paying payable bills and invoices that fall due soon or are overdue, from the account in their currency with the most money.', role: 'bill_management', enabledByDefault: true },
  { program: collectionsProgram, displayName: 'Collections', description: 'Finds overdue receivables and proposes a reminder, friendly, firm or final by how late they are.', role: 'collections', enabledByDefault: true },
  { program: reconciliationProgram, displayName: 'Reconciliation', description: 'Proposes a match for each transaction the automatic reconciliation left unmatched, or lists the candidates when none is clearly best.', role: 'reconciliation', enabledByDefault: true },
  { program: subscriptionsProgram, displayName: 'Subscriptions', description: 'Finds recurring charges not yet known as subscriptions, and price changes of known ones.', role: 'subscription', enabledByDefault: true },
  { program: fraudAnomalyProgram, displayName: 'Fraud and anomaly', description: 'Flags duplicate payments, outliers against a payee\'s history, and first payments to new payees.', role: 'fraud_anomaly', enabledByDefault: true },
  { program: vendorRiskProgram, displayName: 'Vendor risk', description: 'Proposes blocking payments to sanctioned, high-risk or unreviewed payees that are being paid.', role: 'vendor_risk', enabledByDefault: true },
  { program: cashForecastProgram, displayName: 'Cash forecast', description: 'Projects each currency\'s balance over the coming days from open obligations, receivables and recurring payments, and flags a shortfall.', role: 'cash_forecast', enabledByDefault: true },
]

/** SHA-256 (0x hex) of the agent's key, program version and configuration. */
export function behaviorHashOf(program: Pick<AgentProgram<unknown>, 'agentKey' | 'version'>, config: unknown): string {
  return `0x${sha256Hex(canonicalJson({ agent_key: program.agentKey, version: program.version, config }))}`
}

export function catalogEntryOf(definition: CatalogDefinition): CatalogEntry {
  const { program } = definition
  return {
    agent_key: program.agentKey,
    provenance: 'first_party',
    kind: 'internal',
    role: definition.role,
    display_name: definition.displayName,
    description: definition.description,
    category: program.category,
    capabilities: [...program.capabilities],
    enabled_by_default: definition.enabledByDefault,
    version: program.version,
    behavior_hash: behaviorHashOf(program, program.defaultConfig),
  }
}

export const catalog: readonly CatalogEntry[] = catalogDefinitions.map(catalogEntryOf)

export interface CatalogFilter {
  readonly kind?: 'internal' | 'external' | undefined
  readonly capability?: string | undefined
  readonly category?: 'business' | 'consumer' | 'agnostic' | undefined
  /** enabled: enabled by default; disabled: not. */
  readonly state?: 'enabled' | 'disabled' | undefined
}

/** The entries a filter keeps, in catalog order. */
export function filterCatalog(entries: readonly CatalogEntry[], filter: CatalogFilter): CatalogEntry[] {
  return entries.filter(
    (entry) =>
      (filter.kind === undefined || entry.kind === filter.kind) &&
      (filter.capability === undefined || entry.capabilities.includes(filter.capability)) &&
      (filter.category === undefined || entry.category === filter.category) &&
      (filter.state === undefined || (filter.state === 'enabled') === entry.enabled_by_default),
  )
}
