/**
 * The onchain_base rail's tables (docs/execution.md, "The onchain_base rail in the service"): which smart
 * account pays for which Ledger account, and the transactions the rail signed, one per idempotency key.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { sql } from 'drizzle-orm'
import { check, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core'
import { createdAt } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'

/** A lowercase 0x address, checked by the database too: the rail compares addresses as text. */
const lowercaseAddress = (column: unknown) => sql`${column} ~ '^0x[0-9a-f]{40}$'`

/**
 * A Ledger account paid from on chain: the SmartAccount (contracts/SmartAccount.sol) that holds its USDC,
 * the token, and the address of the session key Steward derives for it (domain/onchain-accounts.ts) and
 * the account's owner added on chain. No private key is stored: Steward derives it from its seed when it
 * signs. One registration per account; its terms do not change.
 */
export const onchainAccounts = pgTable(
  'onchain_accounts',
  {
    tenantId: uuid('tenant_id').notNull(),
    /** The Ledger account (an intent's source_account_id). */
    accountId: text('account_id').notNull(),
    smartAccount: text('smart_account').notNull(),
    /** The USDC contract the account pays in (6 decimals, checked at registration). */
    token: text('token').notNull(),
    sessionKeyAddress: text('session_key_address').notNull(),
    chainId: integer('chain_id').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.accountId] }),
    check('onchain_accounts_addresses_check', sql`${lowercaseAddress(table.smartAccount)} and ${lowercaseAddress(table.token)} and ${lowercaseAddress(table.sessionKeyAddress)}`),
    check('onchain_accounts_chain_id_check', sql`${table.chainId} > 0`),
  ],
)

/**
 * The rail's memory per idempotency key (onchain-rail.ts `OnchainSubmissions`): the signed transaction,
 * stored before it is broadcast. The primary key makes the first writer win: a second signature for a
 * key can be made, but never stored, so it is never broadcast.
 */
export const onchainSubmissions = pgTable(
  'onchain_submissions',
  {
    tenantId: uuid('tenant_id').notNull(),
    /** The outbox row's key. */
    idempotencyKey: text('idempotency_key').notNull(),
    /** The session key that signed (lowercase). */
    fromAddress: text('from_address').notNull(),
    nonce: integer('nonce').notNull(),
    /** keccak256 of the raw transaction (lowercase 0x hex). */
    hash: text('hash').notNull(),
    /** The signed transaction as 0x hex: broadcast as it is, again if need be. */
    rawTransaction: text('raw_transaction').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.idempotencyKey] }),
    check('onchain_submissions_from_check', lowercaseAddress(table.fromAddress)),
    check('onchain_submissions_hash_check', sql`${table.hash} ~ '^0x[0-9a-f]{64}$'`),
    check('onchain_submissions_nonce_check', sql`${table.nonce} >= 0`),
  ],
)

/** Tenant deletion: the rail's records with the registrations. */
export const onchainTenantData: TenantDataPlan = {
  deleted: [
    { table: onchainSubmissions, tenantColumn: onchainSubmissions.tenantId },
    { table: onchainAccounts, tenantColumn: onchainAccounts.tenantId },
  ],
}
