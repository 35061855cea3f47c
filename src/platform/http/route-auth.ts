/**
 * Every route declares who may call it in `config.auth`. A route that declares nothing cannot be
 * registered (see `guard.ts`), so a new route cannot forget authentication, scopes or tenancy.
 *
 * - `public`: no credential. `rateLimitGroup` names the per-client-address budget it draws from.
 * - `bearer`: an owner/member JWT, service token or API key with every scope in `scopes`; optionally only
 *   some principal types or member roles; `tenantParam` names the path parameter that must equal the
 *   caller's tenant (403 auth_tenant_mismatch otherwise).
 * - `platform`: the X-Platform-Service-Auth shared secret (platform provisioning and governance).
 */
import type { MemberRole, Principal, PrincipalType, Scope } from '../../kernel/principal.ts'

export type RouteAuth =
  | { readonly kind: 'public'; readonly rateLimitGroup?: string }
  | {
      readonly kind: 'bearer'
      readonly scopes: readonly Scope[]
      readonly principalTypes?: readonly PrincipalType[]
      readonly roles?: readonly MemberRole[]
      readonly tenantParam?: string
    }
  | { readonly kind: 'platform' }

export const publicRoute = (rateLimitGroup?: string): RouteAuth =>
  rateLimitGroup === undefined ? { kind: 'public' } : { kind: 'public', rateLimitGroup }

export const bearerRoute = (
  scopes: readonly Scope[],
  options: { principalTypes?: readonly PrincipalType[]; roles?: readonly MemberRole[]; tenantParam?: string } = {},
): RouteAuth => ({ kind: 'bearer', scopes, ...options })

export const platformRoute = (): RouteAuth => ({ kind: 'platform' })

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth
  }
  interface FastifyRequest {
    /** Set for bearer routes once the credential is verified; null elsewhere. */
    principal: Principal | null
  }
}
