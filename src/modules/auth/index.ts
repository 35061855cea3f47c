/**
 * The auth module as the composition root sees it: the auth service (login, service tokens, and the
 * guard's bearer authenticator) and the API keys service for the routes, and the rate-limit tiers the
 * platform's own routes use. Users, members and tenants are read through the tenants directory
 * (`AuthTenants`, ports.ts).
 */
import type { Clock } from '../../kernel/clock.ts'
import type { StewardEnvironment } from '../../kernel/context.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { PasswordHasher } from '../../kernel/passwords.ts'
import type { ReplayableSecrets } from '../../kernel/secrets.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { createApiKeysService, type ApiKeysService } from './api-keys.service.ts'
import { createAuthService, type AuthService } from './auth.service.ts'
import { createCredentialsStore } from './credentials.store.pg.ts'
import type { AuthAgents, AuthTenants, AuthWallets } from './ports.ts'
import { createSiwxService, type SiwxService } from './siwx.service.ts'
import { createTokenSigner, tokenIssuer } from './tokens.ts'

export { authRoutes } from './auth.routes.ts'
export { tierRules } from './scopes.ts'
export { serviceTokenStanding, type ServiceTokenStanding } from './service-token-standing.ts'
export type { AuthService } from './auth.service.ts'
export type { ApiKeysService } from './api-keys.service.ts'
export type { SiwxService } from './siwx.service.ts'
export type { AuthAgents, AuthWallets, SignInAgent } from './ports.ts'

export interface Auth {
  /** Login, service tokens, and the bearer authenticator the guard calls on every request. */
  readonly service: AuthService
  readonly apiKeys: ApiKeysService
  /** Sign-in with a wallet: challenges and the SIWX exchange. */
  readonly siwx: SiwxService
}

export interface AuthDeps {
  readonly db: Database
  /** Runs the module's commands (logins, service tokens, key issue, rotation and revocation). */
  readonly commands: CommandRunner
  readonly cursors: CursorCodec
  readonly ids: IdSource
  readonly clock: Clock
  /** Names the tokens' issuer and the keys' prefix (test or live). */
  readonly environment: StewardEnvironment
  readonly passwords: PasswordHasher
  /** Secrets derived from seeds, so that a replayed issue or rotation returns its key without storing it. */
  readonly secrets: ReplayableSecrets
  /** The tenants module's directory: users, members and tenants, and a tenant's standing. */
  readonly tenants: AuthTenants
  /** Linked wallets by address (the policy module). */
  readonly wallets: AuthWallets
  /** Registered agents (the agents module). */
  readonly agents: AuthAgents
  /** PUBLIC_BASE_URL: the SIWX message's domain and URI. */
  readonly publicBaseUrl: string
  readonly log: { warn(object: object, message: string): void }
}

export interface AuthSettings {
  /** JWT_SECRET: the HMAC key of owner, member and service tokens. */
  readonly jwtSecret: string
  /** API_KEY_PEPPER: the HMAC key of stored key digests. */
  readonly apiKeyPepper: string
  /** API_KEY_AUTH_PRODUCTION_ENABLED: whether API keys are issued and accepted in production. */
  readonly apiKeyAuthProductionEnabled: boolean
  /** SERVICE_TOKEN_SECRET: the break-glass mint's shared secret; undefined disables the mint. */
  readonly serviceTokenSecret: string | undefined
}

export function createAuth(deps: AuthDeps, settings: AuthSettings): Auth {
  const { db, commands, cursors, ids, clock, environment, tenants } = deps
  const store = createCredentialsStore(tenants)
  const tokens = createTokenSigner(settings.jwtSecret, tokenIssuer(environment))
  const apiKeys = createApiKeysService({ db, commands, store, cursors, secrets: deps.secrets, ids, clock, environment, config: settings, log: deps.log })
  return {
    service: createAuthService({ db, commands, store, tenants, agents: deps.agents, wallets: deps.wallets, passwords: deps.passwords, tokens, apiKeys, ids, clock, environment, config: settings }),
    apiKeys,
    siwx: createSiwxService({ db, commands, tokens, tenants, wallets: deps.wallets, agents: deps.agents, ids, clock, publicBaseUrl: deps.publicBaseUrl, log: deps.log }),
  }
}
