/**
 * The onchain_base rail wired into the service (docs/execution.md, "The onchain_base rail in the service"):
 * the rail adapter (onchain-rail.ts) with its directory and its submissions on PostgreSQL, the
 * registrations of smart accounts, and the session-key check gate check 12 reads. Without a chain (no
 * ONCHAIN_RAIL_RPC_URL), there is no adapter: the registry stands in its fail-closed rail and gate check
 * 11 refuses on-chain transfers; registrations are refused, and check 12 finds no session key to use.
 */
import type { Address, Hex } from 'viem'
import type { Clock } from '../../kernel/clock.ts'
import { AppError } from '../../kernel/errors.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import { deriveSessionKey, resolveOnchainPayment, sessionKeyMismatch, usdcBaseUnitsOf, onchainAmountCurrency } from './domain/onchain-accounts.ts'
import { createOnchainAccounts, sessionKeyAddressOf, type OnchainAccountsService } from './onchain-accounts.service.ts'
import { createOnchainRail, sessionKeyValidity, type OnchainDirectory } from './onchain-rail.ts'
import { createOnchainStore, createPgOnchainSubmissions } from './onchain.store.pg.ts'
import type { OnchainStore } from './onchain.store.ts'
import type { ExecutionLedger } from './ports.ts'
import type { RailAdapter } from './rails.ts'

/** The chain the rail pays on, and its waits (ONCHAIN_RAIL_* settings). */
export interface OnchainChainSettings {
  readonly rpcUrl: string
  readonly chainId: number
  /** How long a submit waits for its receipt before answering transient (below the worker's lease). */
  readonly receiptTimeoutMs: number
  /** A session key expiring within this many seconds of the latest block is refused, by the gate and by the rail. */
  readonly expiryMarginSeconds: number
}

export interface OnchainBaseDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly clock: Clock
  readonly ledger: ExecutionLedger
  /** Undefined: the rail is not registered in this deployment. */
  readonly chain: OnchainChainSettings | undefined
  /** What every session key is derived from (ONCHAIN_SESSION_KEY_SEED, at least 32 bytes). */
  readonly sessionKeySeed: string
}

/** Gate check 12's answer for an account with a registration (undefined is "none registered"). */
export interface SessionKeyCheck {
  readonly valid: boolean
  readonly reason: string
}

export interface OnchainBase {
  /** The rail adapter to register; undefined without a chain. */
  readonly adapter: RailAdapter | undefined
  readonly accounts: OnchainAccountsService
  /**
   * Gate check 12 for an onchain_base payment from `sourceAccountId`: whether its session key may sign
   * this amount now, read on chain in the latest block with the expiry margin (onchain-rail.ts
   * `sessionKeyValidity`); undefined when no smart account is registered for the account. Reads the
   * registration with `executor` (the gate's transaction). A chain that cannot be asked is 503
   * service_unavailable: the gate records no refusal it never observed.
   */
  sessionKeyOf(executor: Executor, tenantId: string, payment: { readonly sourceAccountId: string; readonly amount: string; readonly currency: string }): Promise<SessionKeyCheck | undefined>
}

/** Resolves an outbox row's payment from the account's registration and the Ledger counterparty's wallet. */
function createDirectory(deps: { db: Database; store: OnchainStore; ledger: ExecutionLedger; chainId: number; sessionKeySeed: string }): OnchainDirectory {
  const { db, store, ledger, chainId, sessionKeySeed } = deps
  return {
    async paymentOf(request) {
      const [registration, counterparty] = await Promise.all([
        store.findAccount(db.orm, request.tenantId, request.sourceAccountId),
        ledger.findCounterparty(db.orm, request.tenantId, request.destinationCounterpartyId),
      ])
      const sessionKey = deriveSessionKey(sessionKeySeed, { tenantId: request.tenantId, accountId: request.sourceAccountId })
      const resolved = resolveOnchainPayment({
        registration,
        chainId,
        derivedSessionKeyAddress: registration === undefined ? undefined : sessionKeyAddressOf(sessionKeySeed, request.tenantId, request.sourceAccountId),
        amount: request.amount,
        currency: request.currency,
        sourceAccountId: request.sourceAccountId,
        counterparty,
      })
      if ('refused' in resolved) return { refused: resolved.refused }
      const { payment } = resolved
      return { smartAccount: payment.smartAccount as Address, token: payment.token as Address, to: payment.to as Address, amountBaseUnits: payment.amountBaseUnits, sessionKey: sessionKey as Hex }
    },
  }
}

export function createOnchainBase(deps: OnchainBaseDeps): OnchainBase {
  const { db, commands, clock, ledger, chain, sessionKeySeed } = deps
  const store = createOnchainStore()
  const accounts = createOnchainAccounts({ db, commands, store, ledger, clock, chain, sessionKeySeed })
  const adapter =
    chain === undefined
      ? undefined
      : createOnchainRail({
          rpcUrl: chain.rpcUrl,
          chainId: chain.chainId,
          directory: createDirectory({ db, store, ledger, chainId: chain.chainId, sessionKeySeed }),
          submissions: createPgOnchainSubmissions(db),
          receiptTimeoutMs: chain.receiptTimeoutMs,
          expiryMarginSeconds: chain.expiryMarginSeconds,
          clock,
        })

  return {
    adapter,
    accounts,
    async sessionKeyOf(executor, tenantId, payment) {
      const registration = await store.findAccount(executor, tenantId, payment.sourceAccountId)
      if (registration === undefined) return undefined
      const key = registration.sessionKeyAddress
      if (chain === undefined) return { valid: false, reason: `session key ${key} cannot be checked: no chain is configured for the onchain_base rail` }
      if (registration.chainId !== chain.chainId) return { valid: false, reason: `the smart account is registered on chain ${registration.chainId}; the rail serves chain ${chain.chainId}` }
      const mismatch = sessionKeyMismatch(registration, sessionKeyAddressOf(sessionKeySeed, tenantId, payment.sourceAccountId))
      if (mismatch !== undefined) return { valid: false, reason: `${mismatch.code}: ${mismatch.reason}` }
      const amountBaseUnits = usdcBaseUnitsOf(payment.amount, payment.currency)
      if (amountBaseUnits === undefined) return { valid: false, reason: `onchain_base pays ${onchainAmountCurrency} amounts in USDC; got ${payment.amount} ${payment.currency}` }
      let validity: Awaited<ReturnType<typeof sessionKeyValidity>>
      try {
        validity = await sessionKeyValidity({
          rpcUrl: chain.rpcUrl,
          chainId: chain.chainId,
          smartAccount: registration.smartAccount as Address,
          sessionKeyAddress: key as Address,
          token: registration.token as Address,
          amountBaseUnits,
          expiryMarginSeconds: chain.expiryMarginSeconds,
        })
      } catch (error) {
        throw new AppError('service_unavailable', `The chain (${chain.chainId}) could not be asked whether the session key is valid: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
      }
      return validity.valid ? { valid: true, reason: validity.reason } : { valid: false, reason: `${validity.code}: ${validity.reason}` }
    },
  }
}
