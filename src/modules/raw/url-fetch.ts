/**
 * Fetching a file by URL for `POST /v1/raw/ingest` (JSON). The egress rules (src/platform/net/egress.ts) apply to
 * the URL and to every redirect: http or https only (https only in production), no credentials in the
 * URL, every resolved address public — loopback only with RAW_FETCH_ALLOW_LOOPBACK in the sandbox — and
 * each connection pinned to the address checked. At most `urlRedirectsMax` redirects are followed; the
 * whole fetch, body included, must finish within the time limit; the body is streamed to storage by the
 * caller with the artifact size limit.
 *
 * `auth_header` is sent as `Authorization` to the origin of the URL given and never to another origin a
 * redirect leads to. It is never stored, audited or logged: the stored source_ref says only that one was
 * used, and keeps the URL without its query string (which often carries tokens too).
 */
import { getFollowingRedirects, type EgressPolicy, type FollowedResponse, type HostResolver } from '../../platform/net/egress.ts'

/** Redirects followed at most (a sixth is refused). */
export const urlRedirectsMax = 5
/** The whole fetch — every hop, and the body streamed to storage — must finish within this. */
export const urlFetchTotalMsDefault = 120_000
export const urlCharsMax = 2048
export const authHeaderCharsMax = 4096
export const fetchUserAgent = 'Steward-Raw-Fetch/1'

/** The raw fetch policy: no private addresses even in the sandbox, unless loopback is explicitly allowed there. */
export function rawFetchPolicy(environment: 'sandbox' | 'production', options: { allowLoopback: boolean }): EgressPolicy {
  const production = environment === 'production'
  return { httpsOnly: production, allowNonPublicAddresses: false, allowLoopback: !production && options.allowLoopback }
}

/** A URL as it may be stored: scheme, host, port and path; the query and fragment are dropped. */
export function storableUrl(url: URL): { url: string; query_omitted: boolean } {
  return { url: `${url.origin}${url.pathname}`, query_omitted: url.search !== '' }
}

export interface OpenedFetch {
  readonly response: FollowedResponse
  /** Stops the time limit; call when the body has been consumed (or abandoned). */
  finish(): void
}

export interface UrlFetcher {
  /** Follows redirects to the first non-redirect response; throws EgressRefusedError or EgressRequestError. */
  open(url: string, authHeader: string | undefined): Promise<OpenedFetch>
}

export function createUrlFetcher(deps: { policy: EgressPolicy; resolver: HostResolver; totalMs: number }): UrlFetcher {
  return {
    async open(url, authHeader) {
      const controller = new AbortController()
      const deadline = setTimeout(() => controller.abort(), deps.totalMs)
      const finish = () => clearTimeout(deadline)
      try {
        const response = await getFollowingRedirects(url, {
          policy: deps.policy,
          resolver: deps.resolver,
          headers: { accept: '*/*', 'accept-encoding': 'identity', 'user-agent': fetchUserAgent },
          ...(authHeader === undefined ? {} : { originHeaders: { authorization: authHeader } }),
          redirectsMax: urlRedirectsMax,
          signal: controller.signal,
        })
        return { response, finish }
      } catch (error) {
        finish()
        throw error
      }
    },
  }
}

