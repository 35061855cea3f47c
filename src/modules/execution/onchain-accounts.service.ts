/**
 * Registering a Ledger account's smart account for the onchain_base rail (POST
 * /v1/execution/onchain-accounts) and reading a registration back. The answer carries the address of the
 * session key Steward derives for the account, which the account's owner then adds on chain with a cap
 * and an expiry (SmartAccount.addSessionKey): until they do, gate check 12 refuses the account's payments.
 */
import { getAddress, isAddress, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Clock } from '../../kernel/clock.ts'
import { auditedBy, requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { CommandResult, CommandRunner, CommandWork } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { deriveSessionKey, onchainAmountCurrency, usdcTokenDecimals } from './domain/onchain-accounts.ts'
import { tokenDecimals } from './onchain-rail.ts'
import type { OnchainAccountRow, OnchainStore } from './onchain.store.ts'
import type { ExecutionLedger } from './ports.ts'

/** The chain the rail serves, as the registration needs it (the rail's settings: onchain-base.ts). */
export interface OnchainChain {
  readonly rpcUrl: string
  readonly chainId: number
}

export interface RegisterOnchainAccountInput {
  readonly account_id: string
  readonly smart_account: string
  readonly token: string
}

/** A registration on the wire. */
export interface OnchainAccountView {
  readonly account_id: string
  readonly smart_account: string
  readonly token: string
  readonly chain_id: number
  readonly session_key_address: string
  readonly created_at: string
}

/** `created`: registered now; `existing`: the account was already registered with exactly these terms (nothing changed). */
export type RegistrationOutcome = { readonly kind: 'created' | 'existing'; readonly account: OnchainAccountView }

export function onchainAccountView(row: OnchainAccountRow): OnchainAccountView {
  return {
    account_id: row.accountId,
    smart_account: row.smartAccount,
    token: row.token,
    chain_id: row.chainId,
    session_key_address: row.sessionKeyAddress,
    created_at: row.createdAt.toISOString(),
  }
}

/** The address of the session key Steward derives for the account (lower-case). */
export function sessionKeyAddressOf(seed: string, tenantId: string, accountId: string): string {
  return privateKeyToAccount(deriveSessionKey(seed, { tenantId, accountId })).address.toLowerCase()
}

const zeroAddress = `0x${'0'.repeat(40)}`

/** The address in lower case, or a validation failure naming the field (mixed case must be a valid EIP-55 checksum). */
function addressOf(field: 'smart_account' | 'token', value: string): string {
  if (!isAddress(value, { strict: true })) {
    throw new AppError('validation_failed', `${field} is not an address (0x and 40 hex digits; in mixed case, a valid EIP-55 checksum).`, { field })
  }
  const address = value.toLowerCase()
  if (address === zeroAddress) throw new AppError('validation_failed', `${field} must not be the zero address.`, { field })
  return address
}

export interface OnchainAccountsDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly store: OnchainStore
  readonly ledger: ExecutionLedger
  readonly clock: Clock
  /** The chain the rail serves; undefined when the rail is not configured (registration is then refused). */
  readonly chain: OnchainChain | undefined
  readonly sessionKeySeed: string
}

export function createOnchainAccounts(deps: OnchainAccountsDeps) {
  const { db, commands, store, ledger, clock, chain, sessionKeySeed } = deps

  /** The token's decimals, asked of the chain; the RPC failing is a 503 (nothing was registered). */
  async function decimalsOf(rpc: OnchainChain, token: string): Promise<number | undefined> {
    try {
      return await tokenDecimals({ rpcUrl: rpc.rpcUrl, chainId: rpc.chainId, token: getAddress(token) as Address })
    } catch (error) {
      throw new AppError('service_unavailable', `The chain (${rpc.chainId}) could not be asked for the token's decimals: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
    }
  }

  return {
    /**
     * Registers the smart account that pays for one of the tenant's Ledger accounts (scope execution:admin;
     * Idempotency-Key). Checks the addresses, that the account is the tenant's (404 ledger_account_not_found)
     * and in USD (400 validation_failed), then that the token has 6 decimals on the rail's chain (400
     * validation_failed; 503 when the chain cannot be asked). Reads without locks; the insert is first-writer
     * -wins on (tenant, account). Audits execution.onchain_account.registered; emits no business event. An
     * account already registered with the same terms answers `existing` and records nothing; with other terms
     * it is 409 onchain_account_already_registered. 409 onchain_rail_not_configured without a chain.
     */
    async register(context: CommandContext, input: RegisterOnchainAccountInput): Promise<CommandResult<RegistrationOutcome>> {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      if (chain === undefined) throw new AppError('onchain_rail_not_configured')
      const smartAccount = addressOf('smart_account', input.smart_account)
      const token = addressOf('token', input.token)
      if (smartAccount === token) throw new AppError('validation_failed', 'smart_account and token must be different contracts.', { field: 'token' })
      return commands.run(context, { name: 'execution.onchain_account.register', tenantId, input }, async (tx): Promise<CommandWork<RegistrationOutcome>> => {
        const account = await ledger.findAccount(tx, tenantId, input.account_id)
        if (account === undefined) throw new AppError('ledger_account_not_found', 'No such account in this tenant.', { account_id: input.account_id })
        if (account.currency !== onchainAmountCurrency) {
          throw new AppError('validation_failed', `onchain_transfer amounts are in USD, paid one for one in USDC: the account must be a USD account, and ${input.account_id} is in ${account.currency}.`, {
            field: 'account_id',
            currency: account.currency,
          })
        }
        // Asked once the account is known to be the tenant's: an RPC call is not spent on a refusal.
        const decimals = await decimalsOf(chain, token)
        if (decimals !== usdcTokenDecimals) {
          throw new AppError(
            'validation_failed',
            decimals === undefined
              ? `token ${token} answers no decimals() on chain ${chain.chainId}: it is not an ERC-20 there.`
              : `token ${token} has ${decimals} decimals on chain ${chain.chainId}; the rail pays in USDC, which has ${usdcTokenDecimals}.`,
            { field: 'token', decimals: decimals ?? null },
          )
        }
        const row: OnchainAccountRow = {
          tenantId,
          accountId: input.account_id,
          smartAccount,
          token,
          sessionKeyAddress: sessionKeyAddressOf(sessionKeySeed, tenantId, input.account_id),
          chainId: chain.chainId,
          createdBy: principal.id,
          createdAt: clock.now(),
        }
        const { stored, created } = await store.insertAccount(tx, row)
        if (!created) {
          const same = stored.smartAccount === row.smartAccount && stored.token === row.token && stored.chainId === row.chainId && stored.sessionKeyAddress === row.sessionKeyAddress
          if (!same) {
            throw new AppError('onchain_account_already_registered', `Ledger account ${input.account_id} is already registered with other terms; a registration does not change.`, {
              account_id: input.account_id,
              registered: { smart_account: stored.smartAccount, token: stored.token, chain_id: stored.chainId, session_key_address: stored.sessionKeyAddress },
            })
          }
          return { outcome: { kind: 'existing', account: onchainAccountView(stored) } }
        }
        return {
          outcome: { kind: 'created', account: onchainAccountView(stored) },
          audit: [
            auditedBy(context, {
              layer: 'execution',
              action: 'execution.onchain_account.registered',
              entity: { type: 'onchain_account', id: input.account_id },
              inputs: { account_id: input.account_id, smart_account: smartAccount, token },
              outputs: { chain_id: row.chainId, session_key_address: row.sessionKeyAddress },
            }),
          ],
        }
      })
    },

    /** The registration of one of the tenant's Ledger accounts (scope execution:read); 404 onchain_account_not_found. No lock, no audit. */
    async get(tenantId: string, accountId: string): Promise<OnchainAccountView> {
      const row = await store.findAccount(db.orm, tenantId, accountId)
      if (row === undefined) throw new AppError('onchain_account_not_found', 'No smart account is registered for this Ledger account.', { account_id: accountId })
      return onchainAccountView(row)
    },
  }
}

export type OnchainAccountsService = ReturnType<typeof createOnchainAccounts>
