/**
 * Signed bearer tokens (JWT, HS256 with JWT_SECRET). Three kinds are minted here: owner/member tokens
 * from login or a human wallet's SIWX (900 s), break-glass service tokens (3600 s), and agent tokens from
 * an agent wallet's SIWX (3600 s, with a `scope_hash` claim). Verification distinguishes an expired
 * token from an invalid one, because the spec answers them with different codes.
 */
import { webcrypto } from 'node:crypto'
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose'
import { AppError } from '../../kernel/errors.ts'

export const ownerTokenSeconds = 900
export const serviceTokenSeconds = 3600
/** An agent token from the SIWX exchange (spec, "Authentication": 1 hour). */
export const agentTokenSeconds = 3600

const algorithm = 'HS256'
const audience = 'steward-api'

/**
 * The issuer names the environment, not a URL: a sandbox token can never pass in production (spec:
 * credentials do not cross environments), and moving the sandbox to another port or host does not
 * invalidate its tokens.
 */
export function tokenIssuer(environment: 'sandbox' | 'production'): string {
  return `steward-${environment}`
}

export interface TokenClaims {
  /** Principal id: the user id, or the service token id. */
  readonly sub: string
  readonly tenantId: string
  readonly type: 'user' | 'service' | 'agent'
  readonly scopes: readonly string[]
  /** Agent tokens: keccak256 of the agent's sorted plain scopes, the `scope_hash` claim the guard checks. */
  readonly scopeHash?: string | undefined
  /**
   * A member's token from a human wallet (SIWX): the wallet's address (lower-case, claim `wal`), so the
   * token stops once the wallet is unlinked, as a password login's stops with its membership.
   */
  readonly wallet?: string | undefined
}

export interface TokenSigner {
  sign(claims: TokenClaims, lifetimeSeconds: number, now: Date, tokenId: string): Promise<string>
  verify(token: string, now: Date): Promise<TokenClaims & { jti: string; exp: number }>
}

export function createTokenSigner(secret: string, issuer: string): TokenSigner {
  // A WebCrypto key, imported once: given raw bytes or a secret KeyObject, jose imports one on every sign
  // and verify (measured: about 8% of an authenticated request's CPU). Imported lazily (importKey is
  // asynchronous) and shared by every call.
  let imported: Promise<webcrypto.CryptoKey> | undefined
  const cryptoKey = () =>
    (imported ??= webcrypto.subtle.importKey('raw', Buffer.from(secret, 'utf8'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']))
  return {
    async sign(claims, lifetimeSeconds, now, tokenId) {
      const issuedAt = Math.floor(now.getTime() / 1000)
      const payload = {
        tid: claims.tenantId,
        typ: claims.type,
        scp: claims.scopes,
        ...(claims.scopeHash === undefined ? {} : { scope_hash: claims.scopeHash }),
        ...(claims.wallet === undefined ? {} : { wal: claims.wallet }),
      }
      return new SignJWT(payload)
        .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetimeSeconds)
        .setJti(tokenId)
        .sign(await cryptoKey())
    },
    async verify(token, now) {
      try {
        const { payload } = await jwtVerify(token, await cryptoKey(), {
          algorithms: [algorithm],
          issuer,
          audience,
          currentDate: now,
          requiredClaims: ['sub', 'exp', 'iat', 'jti'],
        })
        const { sub, tid, typ, scp, jti, exp, scope_hash: scopeHash, wal: wallet } = payload as Record<string, unknown>
        if (
          typeof sub !== 'string' ||
          typeof tid !== 'string' ||
          (typ !== 'user' && typ !== 'service' && typ !== 'agent') ||
          (scopeHash !== undefined && typeof scopeHash !== 'string') ||
          (wallet !== undefined && typeof wallet !== 'string') ||
          !Array.isArray(scp) ||
          !scp.every((scope) => typeof scope === 'string') ||
          typeof jti !== 'string' ||
          typeof exp !== 'number'
        ) {
          throw new AppError('auth_token_invalid')
        }
        return { sub, tenantId: tid, type: typ, scopes: scp as string[], jti, exp, scopeHash: scopeHash as string | undefined, wallet: wallet as string | undefined }
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw new AppError('auth_token_expired')
        if (error instanceof AppError) throw error
        throw new AppError('auth_token_invalid')
      }
    },
  }
}
