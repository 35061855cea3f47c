/**
 * Credentials in and principals out: login, the break-glass service-token mint, and the per-request
 * resolution of a bearer into a Principal.
 *
 * A token is a claim, not the truth: every request re-reads the principal's rows, so a deactivated
 * member, a downgraded role, a deleted tenant or a revoked key stops working at once, not at expiry.
 */
import { digestOf, type AuditRecord } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { withoutIdempotencyKey, type CommandContext, type StewardEnvironment } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import { constantTimeEqual } from '../../kernel/hashing.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { PasswordHasher } from '../../kernel/passwords.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { parseBearer } from '../../platform/http/guard.ts'
import { normalizeEmail } from '../tenants/index.ts'
import type { ApiKeysService } from './api-keys.service.ts'
import type { CredentialsStore } from './credentials.store.ts'
import type { AuthAgents, AuthTenants, AuthWallets } from './ports.ts'
import { intersectScopes, scopes as allScopes, type MemberRole, type Principal, type Scope } from '../../kernel/principal.ts'
import { resolveRateLimitRule, roleScopes, serviceTokenScopes, type RateLimitTier, type ServiceTokenScope } from './scopes.ts'
import { ownerTokenSeconds, serviceTokenSeconds, type TokenSigner } from './tokens.ts'

export interface PrincipalView {
  id: string
  type: Principal['type']
  tenantId: string
  scopes: Scope[]
}

export interface TokenResponse {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  principal: PrincipalView
}

export interface ServiceTokenInput {
  readonly tenant_id: string
  readonly reason: string
  readonly subject?: string | undefined
  readonly scopes?: ServiceTokenScope[] | undefined
}

/**
 * Login and the mint take no Idempotency-Key: each hands out a credential, which a stored outcome would
 * keep in the database, and a retry costs only another short-lived token, audited like the first.
 */
export interface AuthService {
  login(context: CommandContext, input: { email: string; password: string }): Promise<TokenResponse>
  /** `authorization` is the request's Authorization header: SERVICE_TOKEN_SECRET as a bearer. */
  mintServiceToken(context: CommandContext, input: ServiceTokenInput & { readonly authorization: string | undefined }): Promise<TokenResponse>
  /**
   * The checks of `authenticate` that read nothing from the database: a JWT's HMAC signature, issuer,
   * audience, expiry and claims (CPU only); an API key's prefix, environment and shape. Throws the 401
   * that authenticate would throw for a bearer that fails them; passing says nothing about the rows.
   */
  checkWithoutLookup(bearer: string): Promise<void>
  authenticate(bearer: string): Promise<Principal>
}


export function principalView(principal: Principal): PrincipalView {
  return { id: principal.id, type: principal.type, tenantId: principal.tenantId, scopes: [...principal.scopes] }
}

type TenantLimits = { rateLimitTier: string; rateLimitPerMinute: number | null; rateLimitBurst: number | null }

function tenantRule(tenant: TenantLimits) {
  return resolveRateLimitRule(tenant.rateLimitTier as RateLimitTier, { perMinute: tenant.rateLimitPerMinute, burst: tenant.rateLimitBurst })
}

export function createAuthService(deps: {
  db: Database
  commands: CommandRunner
  store: CredentialsStore
  /** Users, members and tenants: read through the tenants module. */
  tenants: AuthTenants
  /** Registered agents, for agent tokens (the agents module). */
  agents: AuthAgents
  /** Linked wallets, for a member's token from a human wallet (the policy module). */
  wallets: AuthWallets
  passwords: PasswordHasher
  tokens: TokenSigner
  apiKeys: ApiKeysService
  ids: IdSource
  clock: Clock
  environment: StewardEnvironment
  /** SERVICE_TOKEN_SECRET: the break-glass mint's shared secret; undefined disables the mint. */
  config: { readonly serviceTokenSecret: string | undefined }
}): AuthService {
  const { db, commands, store, ids, clock, tokens } = deps

  return {
    /**
     * Email and password to an owner/member JWT (900 s). An unknown email and a wrong password get the
     * same 401 body after the same scrypt work. A wrong password for a known user is audited
     * (auth.login_failed); a success is audited (auth.login_succeeded).
     */
    async login(context, input) {
      const email = normalizeEmail(input.email)
      const record = await deps.tenants.findLoginRecord(db.orm, email)
      const passwordMatches = await deps.passwords.verify(input.password, record?.user.passwordHash)
      if (record === undefined) throw new AppError('auth_invalid_credentials')
      const { user, member, tenant } = record
      // Each attempt worth recording is a command of its own whose only effect is its audit event: a
      // failed attempt's record must commit although the request then fails, so it cannot share a
      // transaction with the refusal. The runner input names the email, never the password.
      const audited = (action: string, outputs: Record<string, string>) => {
        const event: AuditRecord = {
          tenantId: tenant.id,
          layer: 'audit',
          actor: { type: 'user', id: user.id },
          action,
          entity: { type: 'user', id: user.id },
          outputs,
          requestId: context.requestId,
        }
        return commands.run(withoutIdempotencyKey(context), { name: 'auth.login', tenantId: tenant.id, input: { email } }, async () => ({ outcome: null, audit: [event] }))
      }
      if (!passwordMatches) {
        // An invited user without a password has nothing to fail against: not worth a record.
        if (user.passwordHash !== null) await audited('auth.login_failed', { reason: 'password_mismatch' })
        throw new AppError('auth_invalid_credentials')
      }
      if (user.status !== 'active') throw new AppError('auth_email_unverified')
      if (tenant.status === 'suspended') throw new AppError('tenant_suspended')
      if (member.status !== 'active') throw new AppError('tenant_access_denied', 'This membership is deactivated.')

      const scopes = roleScopes[member.role as MemberRole]
      const now = clock.now()
      const accessToken = await tokens.sign({ sub: user.id, tenantId: tenant.id, type: 'user', scopes }, ownerTokenSeconds, now, ids.newId('accessToken'))
      await audited('auth.login_succeeded', { role: member.role })
      return {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: ownerTokenSeconds,
        principal: { id: user.id, type: 'user', tenantId: tenant.id, scopes: [...scopes] },
      }
    },

    /**
     * The break-glass mint: the shared SERVICE_TOKEN_SECRET as the bearer, a tenant and a reason in the
     * body, a one-hour service token out. Refused in production and when no secret is configured.
     * Records the token (service_tokens), whose row bounds its scopes and lifetime at every request
     * (see authenticate), and audits auth.service_token_minted.
     */
    async mintServiceToken(context, input) {
      const { authorization } = input
      const expected = deps.config.serviceTokenSecret
      if (deps.environment === 'production') {
        throw new AppError('auth_service_token_disabled', 'Service tokens are sandbox and testnet only; they are disabled in production.')
      }
      if (expected === undefined) {
        throw new AppError('auth_service_token_disabled', 'SERVICE_TOKEN_SECRET is not configured, so service tokens cannot be minted.')
      }
      if (authorization === undefined || authorization.trim() === '') throw new AppError('auth_token_missing')
      const presented = parseBearer(authorization)
      if (presented === undefined) throw new AppError('auth_token_invalid', 'The Authorization header must be "Bearer <SERVICE_TOKEN_SECRET>".')
      if (!constantTimeEqual(presented, expected)) throw new AppError('auth_invalid_credentials', 'The service-token secret is wrong.')

      const tenant = await deps.tenants.findTenant(db.orm, input.tenant_id)
      if (tenant === undefined) throw new AppError('tenant_not_found')
      if (tenant.status === 'suspended') throw new AppError('tenant_suspended')

      // Canonical order, whatever order they were asked in, so the mint and whoami agree.
      const scopes = serviceTokenScopes.filter((scope) => input.scopes === undefined || input.scopes.includes(scope))
      const now = clock.now()
      const tokenId = ids.newId('serviceToken')
      const subject = input.subject ?? 'break-glass'
      // The runner's input is what was asked, without the shared secret that authorized it.
      const request = { tenant_id: input.tenant_id, reason: input.reason, subject: input.subject, scopes: input.scopes }
      await commands.run(withoutIdempotencyKey(context), { name: 'auth.mint_service_token', tenantId: tenant.id, input: request }, async (tx) => {
        await store.insertServiceToken(tx, {
          id: tokenId,
          tenantId: tenant.id,
          subject,
          scopes,
          reason: input.reason,
          expiresAt: new Date(now.getTime() + serviceTokenSeconds * 1000),
          createdAt: now,
        })
        return {
          outcome: null,
          audit: [
            {
              tenantId: tenant.id,
              layer: 'audit',
              actor: { type: 'service', id: tokenId },
              action: 'auth.service_token_minted',
              entity: { type: 'service_token', id: tokenId },
              // The reason is free text up to 500 characters: audit fields hold hashes and ids, never payloads,
              // so the chain binds its digest; the text itself is kept on the service_tokens row.
              inputs: { reason: digestOf(input.reason) },
              outputs: { subject, scopes, expires_in: serviceTokenSeconds },
              requestId: context.requestId,
            },
          ],
        }
      })
      const accessToken = await tokens.sign({ sub: tokenId, tenantId: tenant.id, type: 'service', scopes }, serviceTokenSeconds, now, tokenId)
      return {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: serviceTokenSeconds,
        principal: { id: tokenId, type: 'service', tenantId: tenant.id, scopes },
      }
    },

    async checkWithoutLookup(bearer) {
      if (bearer.startsWith('svc_sk_')) return deps.apiKeys.checkWithoutLookup(bearer)
      await tokens.verify(bearer, clock.now())
    },

    async authenticate(bearer) {
      if (bearer.startsWith('svc_sk_')) return deps.apiKeys.authenticate(bearer)
      const now = clock.now()
      const claims = await tokens.verify(bearer, now)
      if (claims.type === 'service') {
        const found = await store.findServiceToken(db.orm, claims.tenantId, claims.sub)
        if (found === undefined) throw new AppError('auth_token_invalid')
        // The stored record is the authority, not the claims: a token re-signed with more scopes or a later
        // expiry (by someone holding JWT_SECRET) gets no more than what was minted.
        if (found.token.expiresAt.getTime() <= now.getTime()) throw new AppError('auth_token_expired')
        if (found.tenant.status === 'suspended') throw new AppError('tenant_suspended')
        const mintedScopes = intersectScopes(found.token.scopes, serviceTokenScopes)
        return {
          id: found.token.id,
          type: 'service',
          tenantId: found.token.tenantId,
          // The token's scopes, narrowed to what its record was minted with.
          scopes: intersectScopes(claims.scopes, mintedScopes),
          credentialId: found.token.id,
          rateLimit: tenantRule(found.tenant),
        }
      }
      if (claims.type === 'agent') {
        // The registry is the authority: a halted or revoked agent's token stops at once, and its scopes
        // are narrowed to its role's today.
        const agent = await deps.agents.agentById(claims.tenantId, claims.sub)
        if (agent === undefined) throw new AppError('auth_token_invalid')
        if (agent.state !== 'active') throw new AppError('agent_inactive', `The agent is ${agent.state}.`)
        const tenant = await deps.tenants.findTenant(db.orm, claims.tenantId)
        if (tenant === undefined) throw new AppError('auth_token_invalid')
        if (tenant.status === 'suspended') throw new AppError('tenant_suspended')
        // On every route, not only the agent protocol: a registration the chain revoked or changed stops the token.
        await deps.agents.checkAgentClaims({ id: agent.agentId, type: 'agent', tenantId: agent.tenantId, scopeHash: claims.scopeHash })
        return {
          id: agent.agentId,
          type: 'agent',
          tenantId: agent.tenantId,
          scopes: intersectScopes(claims.scopes, intersectScopes(agent.scopes, allScopes)),
          credentialId: agent.agentId,
          rateLimit: tenantRule(tenant),
          ...(claims.scopeHash === undefined ? {} : { scopeHash: claims.scopeHash }),
        }
      }
      const found = await deps.tenants.findUserStanding(db.orm, claims.tenantId, claims.sub)
      if (found === undefined || found.userStatus !== 'active') throw new AppError('auth_token_invalid')
      if (found.tenantStatus === 'suspended') throw new AppError('tenant_suspended')
      if (found.memberStatus !== 'active') throw new AppError('tenant_access_denied', 'This membership is deactivated.')
      if (claims.wallet !== undefined) {
        // Signed in with a wallet: the token lasts while the wallet is still this member's.
        const wallet = await deps.wallets.findWallet(db.orm, claims.wallet)
        if (wallet === undefined || wallet.tenantId !== claims.tenantId || wallet.principalType !== 'human' || wallet.principalId !== claims.sub || !wallet.selfLinked) {
          throw new AppError('auth_token_invalid', 'The wallet this token was signed in with is no longer linked.')
        }
      }
      const role: MemberRole = found.memberRole
      return {
        id: found.userId,
        type: 'user',
        tenantId: found.tenantId,
        // The token's scopes, narrowed to what the member's role allows today.
        scopes: intersectScopes(claims.scopes, roleScopes[role]),
        role,
        credentialId: found.userId,
        rateLimit: tenantRule(found),
      }
    },
  }
}
