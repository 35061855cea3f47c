/**
 * Wallets linked to a tenant (spec, "Tenant, user, wallet" and POST /v1/tenants/{tenant_id}/wallets).
 *
 * An address is linked to at most one tenant in the whole service (a wallet login must resolve to one
 * tenant): linking it again, here or elsewhere, is 409 wallet_already_linked. A member links their own
 * wallet as `human` (it then signs in as them and, while they are active, is an authorized policy signer);
 * linking and unlinking need policy:write (owner, admin).
 */
import { getAddress } from 'viem'
import type { Clock } from '../../kernel/clock.ts'
import { auditedBy, type CommandContext } from '../../kernel/context.ts'
import type { CursorCodec, PageSizeBounds } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { isUniqueViolation } from '../../platform/db/errors.ts'
import { commandTenant } from './command-tenant.ts'
import { walletAddressTakenConstraint, type PolicyStore, type WalletRow } from './policy.store.ts'
import { lockWalletAddress } from '../../platform/db/locks.ts'
import type { PolicyIntegrityReader } from './integrity.ts'
import type { PolicyAgentWallets } from './ports.ts'

export const walletPageRows = { defaultRows: 50, maxRows: 500 } as const satisfies PageSizeBounds

export interface WalletView {
  id: string
  tenant_id: string
  address: string
  principal_type: WalletRow['principalType']
  principal_id: string
  created_by: string
  created_at: string
}

export interface LinkWalletInput {
  /** The path's tenant. */
  readonly tenant_id: string
  readonly address: string
  readonly principal_type: 'human' | 'agent'
  readonly principal_id?: string | undefined
}

export interface UnlinkedWallet {
  wallet_id: string
  address: string
  deleted: true
}

export interface WalletsService {
  link(context: CommandContext, input: LinkWalletInput): Promise<CommandResult<WalletView>>
  unlink(context: CommandContext, input: { readonly tenant_id: string; readonly wallet_id: string }): Promise<CommandResult<UnlinkedWallet>>
  list(tenantId: string, query: { limit?: number | undefined; cursor?: string | undefined }): Promise<{ wallets: WalletView[]; next_cursor: string | null }>
}

export function toWalletView(row: WalletRow): WalletView {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    address: row.address,
    principal_type: row.principalType,
    principal_id: row.principalId,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  }
}

const invalid = (path: string, message: string) => new AppError('request_body_invalid', `${path.slice(1)} ${message}.`, { issues: [{ path, message, keyword: 'wallet' }] })

/**
 * A mixed-case address must carry a valid EIP-55 checksum (a typo would otherwise link a wallet nobody
 * holds); all-lower-case and all-upper-case addresses carry none and are accepted as they are.
 */
function normalizeAddress(address: string): string {
  const digits = address.slice(2)
  if (digits !== digits.toLowerCase() && digits !== digits.toUpperCase() && getAddress(address.toLowerCase()) !== address) {
    throw invalid('/address', 'has an invalid EIP-55 checksum')
  }
  return address.toLowerCase()
}

export function createWalletsService(deps: {
  db: Database
  /** Runs link, committing its audit event and idempotency record. */
  commands: CommandRunner
  store: PolicyStore
  agents: PolicyAgentWallets
  /** The active policy's signatures, counted again: an unlink must not take it below its quorum. */
  integrity: PolicyIntegrityReader
  cursors: CursorCodec
  ids: IdSource
  clock: Clock
}): WalletsService {
  const { db, commands, store, ids, clock, cursors } = deps
  const alreadyLinked = () => new AppError('wallet_already_linked', 'This wallet address is already linked to a tenant.')

  return {
    /**
     * Links a wallet to the caller's tenant. A human wallet's principal is the calling user, never
     * another member; an agent wallet names its agent. Audits wallet.linked; emits nothing. 409
     * wallet_already_linked when the address is linked anywhere (the unique index settles races), or
     * when an agent is registered with it (in the agents module's registry or on chain) unless it is the
     * named agent of this tenant: a link cannot take another tenant's agent wallet, which would lock that
     * agent out of sign-in. The address's lock orders it with registrations. Takes an Idempotency-Key: a
     * retry of a link that committed gets the wallet, not 409.
     */
    async link(context, input) {
      const { principal, tenantId } = commandTenant(context, input)
      const address = normalizeAddress(input.address)
      let principalId: string
      if (input.principal_type === 'agent') {
        if (input.principal_id === undefined) throw invalid('/principal_id', 'is required for an agent wallet')
        principalId = input.principal_id
      } else {
        // A person links their own wallet: it signs in as them (SIWX) and signs policies as them, so a link
        // made for someone else would let its maker do both in their name.
        if (principal.type !== 'user') throw invalid('/principal_type', 'human is linked by the member the wallet belongs to, signed in as themselves')
        if (input.principal_id !== undefined && input.principal_id !== principal.id) throw invalid('/principal_id', "must be the caller's own user id (a member links their own wallet)")
        principalId = principal.id
      }
      const isThisAgent = (claim: { tenantId: string; agentId: string | null }) => input.principal_type === 'agent' && claim.tenantId === tenantId && (claim.agentId === null || claim.agentId === principalId)
      // The chain is read before the transaction opens (no transaction waits on an RPC).
      const onchainTenant = await deps.agents.tenantOnchain(address)
      if (onchainTenant !== undefined && !isThisAgent({ tenantId: onchainTenant, agentId: null })) throw alreadyLinked()
      try {
        return await commands.run(context, { name: 'wallets.link', tenantId, input }, async (tx) => {
          await lockWalletAddress(tx, address)
          if ((await store.findWalletByAddress(tx, address)) !== undefined) throw alreadyLinked()
          const claims = await deps.agents.registrationsClaiming(tx, address)
          if (claims.some((claim) => !isThisAgent(claim))) throw alreadyLinked()
          const row: WalletRow = { id: ids.newId('wallet'), tenantId, address, principalType: input.principal_type, principalId, createdBy: principal.id, createdAt: clock.now() }
          await store.insertWallet(tx, row)
          return {
            outcome: toWalletView(row),
            audit: [
              auditedBy(context, {
                action: 'wallet.linked',
                entity: { type: 'wallet', id: row.id },
                inputs: { address, principal_type: input.principal_type, principal_id: principalId },
                outputs: { wallet_id: row.id },
              }),
            ],
          }
        })
      } catch (error) {
        if (isUniqueViolation(error, walletAddressTakenConstraint)) throw alreadyLinked()
        throw error
      }
    },

    /**
     * Unlinks a wallet of the caller's tenant: the row and its address's directory entry are deleted, so
     * the address no longer signs in through the link (SIWX; a member's token from it stops too, and an
     * agent wallet the chain registers still signs in as its agent), stops counting as a policy signer,
     * and is free to be linked again (a legacy link one member made for another, or a claim on someone
     * else's address, is undone this way). Policy signatures already recorded keep their signer
     * addresses. Locks the row, then the address (ordered with links and agent registrations), then, for
     * a human wallet, the tenant's policies. Audits wallet.unlinked with what the link was; emits nothing.
     * 404 wallet_not_found for an id that names no wallet of the tenant; 409 wallet_signs_active_policy
     * when the active policy's signatures would fall below its quorum without this wallet (the gate would
     * refuse every payment). Takes an Idempotency-Key: a retry of an unlink that committed gets its
     * answer, not 404.
     */
    async unlink(context, input) {
      const { tenantId } = commandTenant(context, input)
      return commands.run(context, { name: 'wallets.unlink', tenantId, input }, async (tx) => {
        const row = await store.lockWallet(tx, tenantId, input.wallet_id)
        if (row === undefined) throw new AppError('wallet_not_found', 'No such wallet.', { wallet_id: input.wallet_id })
        await lockWalletAddress(tx, row.address)
        // A human wallet may be a signer the active policy counts (gate check 3.5 counts them again on every
        // execute): ordered with sign and compose, the quorum is counted before and after.
        const signer = row.principalType === 'human'
        if (signer) await store.lockTenantPolicies(tx, tenantId)
        const before = signer ? await deps.integrity.activePolicyIntegrity(tx, tenantId) : undefined
        await store.deleteWallet(tx, row)
        if (before !== undefined && !before.provisionedDefault && before.validSignatures >= before.quorumRequired) {
          const after = await deps.integrity.activePolicyIntegrity(tx, tenantId)
          if (after !== undefined && after.validSignatures < after.quorumRequired) {
            throw new AppError('wallet_signs_active_policy', 'This wallet\'s signature holds the active policy\'s quorum: unlinking it would stop every payment (gate check 3.5). Activate a version signed without it first, or deactivate the member to stop payments on purpose.', {
              policy_id: before.id,
              version: before.version,
              quorum_required: before.quorumRequired,
              valid_signatures: before.validSignatures,
            })
          }
        }
        return {
          outcome: { wallet_id: row.id, address: row.address, deleted: true as const },
          audit: [
            auditedBy(context, {
              action: 'wallet.unlinked',
              entity: { type: 'wallet', id: row.id },
              inputs: { wallet_id: row.id },
              outputs: { address: row.address, principal_type: row.principalType, principal_id: row.principalId, created_by: row.createdBy, linked_at: row.createdAt.toISOString() },
            }),
          ],
        }
      })
    },

    async list(tenantId, query) {
      const limit = query.limit ?? walletPageRows.defaultRows
      const listing = `wallets:${tenantId}`
      const afterId = query.cursor === undefined ? undefined : String(cursors.decode(listing, query.cursor).after_id)
      const rows = await store.listWallets(db.orm, tenantId, { afterId, limit: limit + 1 })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        wallets: page.map(toWalletView),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { after_id: last.id }) : null,
      }
    },
  }
}
