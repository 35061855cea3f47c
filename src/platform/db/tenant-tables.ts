/**
 * Which tables hold a tenant's rows, in the order tenant deletion empties them (children before the
 * rows they reference). A test checks that every table of the schema with a `tenant_id` column is
 * listed here or in `preservedTenantTables`, so a new table cannot escape tenant deletion unnoticed.
 */
import { getTableName } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { auditAnchorPublications, auditAnchors, auditChainHeads, auditEvents, auditExports, auditInbox } from '../../modules/audit/audit.tables.ts'
import { apiKeys, serviceTokens } from '../../modules/auth/auth.tables.ts'
import { ledgerAccounts, ledgerBalances, ledgerCounterparties, ledgerEntityKeys, ledgerInvoices, ledgerJobs, ledgerObligations, ledgerReconciliationMatches, ledgerTransactions } from '../../modules/ledger/ledger.tables.ts'
import { policies, policySignatures, policyVerdicts, tenantWallets } from '../../modules/policy/policy.tables.ts'
import { providerConnections, rawArtifacts, rawParsedRows } from '../../modules/raw/raw.tables.ts'
import { members, tenants, users, verificationTokens } from '../../modules/tenants/tenants.tables.ts'
import { webhookDeadLetters, webhookDeliveries, webhookEndpoints } from '../../modules/webhooks/webhooks.tables.ts'
import { idempotencyKeys } from '../commands/idempotency.tables.ts'
import { events } from '../outbox/outbox.tables.ts'

export interface TenantTable {
  readonly table: PgTable
  readonly tenantColumn: PgColumn
}

export const tenantTablesInDeletionOrder: readonly TenantTable[] = [
  { table: ledgerReconciliationMatches, tenantColumn: ledgerReconciliationMatches.tenantId },
  { table: ledgerTransactions, tenantColumn: ledgerTransactions.tenantId },
  { table: ledgerBalances, tenantColumn: ledgerBalances.tenantId },
  { table: ledgerObligations, tenantColumn: ledgerObligations.tenantId },
  { table: ledgerInvoices, tenantColumn: ledgerInvoices.tenantId },
  { table: ledgerCounterparties, tenantColumn: ledgerCounterparties.tenantId },
  { table: ledgerAccounts, tenantColumn: ledgerAccounts.tenantId },
  { table: ledgerEntityKeys, tenantColumn: ledgerEntityKeys.tenantId },
  { table: ledgerJobs, tenantColumn: ledgerJobs.tenantId },
  { table: rawParsedRows, tenantColumn: rawParsedRows.tenantId },
  { table: rawArtifacts, tenantColumn: rawArtifacts.tenantId },
  { table: providerConnections, tenantColumn: providerConnections.tenantId },
  { table: webhookDeadLetters, tenantColumn: webhookDeadLetters.tenantId },
  { table: webhookDeliveries, tenantColumn: webhookDeliveries.tenantId },
  { table: webhookEndpoints, tenantColumn: webhookEndpoints.tenantId },
  { table: idempotencyKeys, tenantColumn: idempotencyKeys.tenantId },
  { table: auditExports, tenantColumn: auditExports.tenantId },
  { table: verificationTokens, tenantColumn: verificationTokens.tenantId },
  { table: apiKeys, tenantColumn: apiKeys.tenantId },
  { table: serviceTokens, tenantColumn: serviceTokens.tenantId },
  { table: events, tenantColumn: events.tenantId },
  { table: policyVerdicts, tenantColumn: policyVerdicts.tenantId },
  { table: policySignatures, tenantColumn: policySignatures.tenantId },
  { table: policies, tenantColumn: policies.tenantId },
  { table: tenantWallets, tenantColumn: tenantWallets.tenantId },
  { table: members, tenantColumn: members.tenantId },
  { table: users, tenantColumn: users.tenantId },
  { table: tenants, tenantColumn: tenants.id },
]

/** Kept on tenant deletion (spec, "Tenants"): the audit chain outlives the tenant. */
export const preservedTenantTables: readonly PgTable[] = [auditInbox, auditEvents, auditChainHeads, auditAnchors, auditAnchorPublications]

export const tableName = (table: PgTable) => getTableName(table)
