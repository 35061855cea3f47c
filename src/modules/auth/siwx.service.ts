/**
 * Sign-in with a wallet (SIWX, EIP-4361; spec, "SIWX flow"; docs/auth.md): a challenge hands out a server
 * nonce bound to an address, held 5 minutes; a sign-in checks the signed message against it
 * (domain/siwx.ts), consumes the nonce once, and mints a token for whoever the wallet is: a wallet linked
 * as `human` gets an owner-equivalent token for its member (900 s, the member's role scopes); the wallet
 * of an active registered agent gets an agent token (1 hour, the agent's plain scopes, a `scope_hash`
 * claim). Anything else is 401 auth_siwx_invalid; the reason goes to the audit log (in the wallet's
 * tenant) or, when no tenant knows the address, to the service log — never to the response.
 */
import { randomBytes } from 'node:crypto'
import { getAddress } from 'viem'
import type { AuditRecord, AuditValue } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { withoutIdempotencyKey, type CommandContext } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import { intersectScopes, scopes as allScopes, type MemberRole } from '../../kernel/principal.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { createSiwxStore } from './siwx.store.pg.ts'
import type { TokenResponse } from './auth.service.ts'
import { buildSiwxMessage, checkSiwxMessage, parseSiwxMessage, siwxAudienceOf, siwxChainId, type SiwxRefusal } from './domain/siwx.ts'
import type { AuthAgents, AuthTenants, AuthWallets } from './ports.ts'
import { roleScopes } from './scopes.ts'
import { agentTokenSeconds, ownerTokenSeconds, type TokenSigner } from './tokens.ts'

/** How long a challenge's nonce is held (the spec's 5 minutes). */
export const siwxChallengeSeconds = 300
/** Expired challenges deleted per challenge issued, so the table stays bounded without a sweeper. */
const expiredChallengesDeletedMax = 100

/** Why a sign-in was refused beyond the message checks of domain/siwx.ts: the nonce's and the wallet's. */
export type SiwxServiceRefusal =
  | SiwxRefusal
  /** No challenge has the message's nonce. */
  | 'nonce_unknown'
  /** The challenge's nonce was already consumed (by an earlier or a concurrent sign-in). */
  | 'nonce_reused'
  /** The challenge is older than 5 minutes. */
  | 'nonce_expired'
  /** The signer is neither a wallet linked as human nor a registered agent's wallet. */
  | 'wallet_unknown'
  /** The wallet is linked as human, but by another member than the one it names (an earlier version allowed it). */
  | 'wallet_not_self_linked'
  /** The wallet is linked as human, but its user or membership is not active, or its tenant is suspended. */
  | 'member_inactive'
  /** The wallet is a registered agent's, but the agent is not active. */
  | 'agent_inactive'
  /** The agent is active, but the chain does not hold the registration its token would carry (the guard's checks). */
  | AgentClaimsRefusal

/** The agent-protocol guard's refusals, as SIWX records them before minting an agent token. */
const agentClaimsRefusals = ['agent_not_registered', 'agent_inactive', 'agent_not_registered_onchain', 'agent_scope_hash_mismatch', 'auth_tenant_mismatch', 'scope_expired'] as const
type AgentClaimsRefusal = (typeof agentClaimsRefusals)[number]

export interface SiwxChallenge {
  nonce: string
  address: string
  domain: string
  uri: string
  version: '1'
  chain_id: number
  issued_at: string
  expiration_time: string
  /** The message to sign, built from the fields above (a client may build the same itself). */
  message: string
}

export interface SiwxSignInInput {
  readonly message: string
  readonly signature: string
  readonly session_id: string
}

export function createSiwxService(deps: {
  db: Database
  commands: CommandRunner
  tokens: TokenSigner
  tenants: AuthTenants
  wallets: AuthWallets
  agents: AuthAgents
  ids: IdSource
  clock: Clock
  publicBaseUrl: string
  log: { warn(object: object, message: string): void }
}) {
  const { db, commands, tokens, clock, ids } = deps
  const audience = siwxAudienceOf(deps.publicBaseUrl)
  const store = createSiwxStore(db)

  /** Records a sign-in's outcome as a command whose only effect is its audit event (as login does). */
  async function audited(context: CommandContext, tenantId: string, actor: AuditRecord['actor'], action: string, outputs: Record<string, AuditValue>, sessionId: string) {
    const event: AuditRecord = { tenantId, layer: 'audit', actor, action, entity: { type: 'wallet', id: String(outputs.address) }, inputs: { session_id: sessionId }, outputs, requestId: context.requestId }
    await commands.run(withoutIdempotencyKey(context), { name: 'auth.siwx', tenantId, input: { address: outputs.address } }, async () => ({ outcome: null, audit: [event] }))
  }

  /** The tenant that knows the address (a wallet link, or the agent registry on chain), if any. */
  async function tenantOfAddress(address: string): Promise<string | undefined> {
    const wallet = await deps.wallets.findWallet(db.orm, address)
    return wallet?.tenantId ?? (await deps.agents.tenantOfWalletOnchain(address).catch(() => undefined))
  }

  /** Why the agent-protocol guard would refuse a token with these claims, or undefined; a chain it cannot read is thrown (503). */
  async function agentClaimsRefusal(claims: Parameters<AuthAgents['checkAgentClaims']>[0]): Promise<AgentClaimsRefusal | undefined> {
    try {
      await deps.agents.checkAgentClaims(claims)
      return undefined
    } catch (error) {
      if (error instanceof AppError && (agentClaimsRefusals as readonly string[]).includes(error.code)) return error.code as AgentClaimsRefusal
      throw error
    }
  }

  async function refuse(context: CommandContext, input: SiwxSignInInput, address: string | undefined, reason: SiwxServiceRefusal): Promise<never> {
    const tenantId = address === undefined ? undefined : await tenantOfAddress(address)
    if (tenantId === undefined) {
      deps.log.warn({ requestId: context.requestId, reason, address: address ?? null }, 'SIWX sign-in refused (no tenant knows the address)')
    } else {
      await audited(context, tenantId, { type: 'anonymous', id: address! }, 'auth.siwx_refused', { address: address!, reason }, input.session_id)
    }
    throw new AppError('auth_siwx_invalid')
  }

  return {
    /**
     * Issues a nonce bound to `address` (any letter case), held 5 minutes, and the exact fields (and
     * message) to sign. Inserts the challenge and deletes some expired ones; audits nothing (no tenant is
     * known yet, and nothing is granted). No Idempotency-Key: a retry gets another nonce.
     */
    async challenge(input: { address: string }): Promise<SiwxChallenge> {
      const address = getAddress(input.address.toLowerCase())
      const now = clock.now()
      const expiresAt = new Date(now.getTime() + siwxChallengeSeconds * 1000)
      const nonce = randomBytes(16).toString('hex')
      await store.insertChallenge({ nonce, address: address.toLowerCase(), expiresAt, consumedAt: null, createdAt: now }, expiredChallengesDeletedMax)
      const fields = { domain: audience.domain, uri: audience.uri, address, chainId: siwxChainId, nonce, issuedAt: now, expirationTime: expiresAt }
      return {
        nonce,
        address,
        domain: audience.domain,
        uri: audience.uri,
        version: '1' as const,
        chain_id: siwxChainId,
        issued_at: now.toISOString(),
        expiration_time: expiresAt.toISOString(),
        message: buildSiwxMessage(fields),
      }
    },

    /**
     * Checks the signed message against its challenge, consumes the nonce (a conditional update: of two
     * concurrent sign-ins with one nonce, exactly one consumes it), then mints the wallet's token. Audits
     * auth.siwx_succeeded, or auth.siwx_refused with the reason. An agent wallet whose registration is
     * still pending_onchain is first checked against the chain (activation at sign-in). No
     * Idempotency-Key: the nonce is single use.
     */
    async signIn(context: CommandContext, input: SiwxSignInInput): Promise<TokenResponse> {
      const now = clock.now()
      const parsed = parseSiwxMessage(input.message)
      if (parsed === undefined) return refuse(context, input, undefined, 'message_malformed')
      const challenge = await store.findChallenge(parsed.nonce)
      const claimed = parsed.address.toLowerCase()
      if (challenge === undefined) return refuse(context, input, claimed, 'nonce_unknown')
      if (challenge.consumedAt !== null) return refuse(context, input, challenge.address, 'nonce_reused')
      if (challenge.expiresAt.getTime() <= now.getTime()) return refuse(context, input, challenge.address, 'nonce_expired')

      const check = await checkSiwxMessage(input.message, input.signature, { ...audience, address: challenge.address, chainId: siwxChainId, nonce: challenge.nonce, now })
      if (!check.ok) return refuse(context, input, challenge.address, check.reason)

      if (!(await store.consumeChallenge(challenge.nonce, now))) return refuse(context, input, challenge.address, 'nonce_reused')

      const address = challenge.address
      const wallet = await deps.wallets.findWallet(db.orm, address)
      if (wallet?.principalType === 'human') {
        // Whoever linked a wallet for someone else may hold its key: it never signs in as them.
        if (!wallet.selfLinked) return refuse(context, input, address, 'wallet_not_self_linked')
        const record = await deps.tenants.findUserPrincipal(db.orm, wallet.tenantId, wallet.principalId)
        if (record === undefined || record.user.status !== 'active' || record.member.status !== 'active' || record.tenant.status === 'suspended') {
          return refuse(context, input, address, 'member_inactive')
        }
        const scopes = roleScopes[record.member.role as MemberRole]
        const token = await tokens.sign({ sub: record.user.id, tenantId: wallet.tenantId, type: 'user', scopes, wallet: address }, ownerTokenSeconds, now, ids.newId('accessToken'))
        await audited(context, wallet.tenantId, { type: 'user', id: record.user.id }, 'auth.siwx_succeeded', { address, principal_type: 'user', role: record.member.role }, input.session_id)
        return { access_token: token, token_type: 'Bearer', expires_in: ownerTokenSeconds, principal: { id: record.user.id, type: 'user', tenantId: wallet.tenantId, scopes: [...scopes] } }
      }

      let agent
      if (wallet?.principalType === 'agent') {
        // A link alone proves nothing about who holds the key (an owner or admin links any address for any
        // agent id): the agent's registration must declare this very address.
        const linked = await deps.agents.agentById(wallet.tenantId, wallet.principalId)
        if (linked !== undefined && linked.onchainAddress === address) agent = linked
      }
      if (agent === undefined) {
        const tenantId = await deps.agents.tenantOfWalletOnchain(address)
        agent = tenantId === undefined ? undefined : await deps.agents.agentOfWallet(tenantId, address)
      }
      if (agent === undefined) return refuse(context, input, address, 'wallet_unknown')
      let state = agent.state
      if (state === 'pending_onchain') state = await deps.agents.activateFromChain(context.requestId, agent.tenantId, agent.agentId)
      const tenant = await deps.tenants.findTenant(db.orm, agent.tenantId)
      if (state !== 'active' || tenant === undefined || tenant.status === 'suspended') return refuse(context, input, address, 'agent_inactive')
      // The token would be refused on its first use: the chain must hold the registration it would carry.
      const onchain = await agentClaimsRefusal({ id: agent.agentId, type: 'agent', tenantId: agent.tenantId, scopeHash: agent.scopeHash, signer: address })
      if (onchain !== undefined) return refuse(context, input, address, onchain)
      const scopes = intersectScopes(agent.scopes, allScopes)
      const token = await tokens.sign({ sub: agent.agentId, tenantId: agent.tenantId, type: 'agent', scopes, scopeHash: agent.scopeHash }, agentTokenSeconds, now, ids.newId('accessToken'))
      await audited(context, agent.tenantId, { type: 'agent', id: agent.agentId }, 'auth.siwx_succeeded', { address, principal_type: 'agent', scope_hash: agent.scopeHash }, input.session_id)
      return { access_token: token, token_type: 'Bearer', expires_in: agentTokenSeconds, principal: { id: agent.agentId, type: 'agent', tenantId: agent.tenantId, scopes } }
    },
  }
}

export type SiwxService = ReturnType<typeof createSiwxService>
