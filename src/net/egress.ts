/**
 * Outbound requests to addresses that tenants give us: webhook endpoints, and files Raw fetches by URL.
 * A tenant-supplied URL must never become a way into our own network (SSRF), so every request:
 *
 * 1. parses the URL and requires http or https (https only in production) and no credentials in it;
 * 2. resolves the host (every address DNS returns) and refuses the request if any address is not
 *    public unicast: loopback, RFC 1918 private, unique-local fc00::/7, link-local 169.254/16 and
 *    fe80::/10 (which holds cloud metadata at 169.254.169.254), multicast, unspecified, broadcast, CGNAT
 *    100.64/10, documentation, benchmarking and other reserved ranges, IPv4-mapped IPv6 forms of those,
 *    and the IPv6 translation prefixes (NAT64, 6to4, Teredo) that embed an IPv4 address we cannot vouch for;
 * 3. connects to the very address it checked (the connection is pinned), so a DNS answer that changes
 *    between the check and the connect (DNS rebinding) cannot redirect it.
 *
 * `sendPinned` never follows redirects: a 3xx is returned to the caller as it is. `getFollowingRedirects`
 * (Raw's fetch by URL) follows a bounded number, and every hop is a new request under all three rules:
 * parsed, resolved, checked and pinned again, so a public host cannot bounce us to an internal one.
 * Range classification is ipaddr.js's, not hand-written masks. Host names in decimal, octal or hex
 * (`http://2130706433/`, `http://0177.0.0.1/`, `http://0x7f.1/`) are normalized to dotted IPv4 by the
 * WHATWG URL parser before any check sees them. The webhook sandbox allows non-public addresses (tests
 * and local development deliver to localhost); production refuses them.
 */
import { lookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import type { Readable } from 'node:stream'
import ipaddr from 'ipaddr.js'

export interface ResolvedAddress {
  readonly address: string
  readonly family: 4 | 6
}

/** Every address a host name resolves to. Injected so tests never depend on real DNS. */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>

/** The operating system's resolver (getaddrinfo, as every other client on the machine sees it). */
export const systemResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true })
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }))
}

export interface EgressPolicy {
  /** Refuse plain http (production). */
  readonly httpsOnly: boolean
  /** Allow loopback, private and other non-public addresses (sandbox only). */
  readonly allowNonPublicAddresses: boolean
  /**
   * Allow loopback addresses (127.0.0.0/8, ::1 and their IPv4-mapped forms) while every other
   * non-public address stays refused: a sandbox setting for tests that serve files from 127.0.0.1.
   */
  readonly allowLoopback?: boolean
}

export function egressPolicyFor(environment: 'sandbox' | 'production'): EgressPolicy {
  return environment === 'production'
    ? { httpsOnly: true, allowNonPublicAddresses: false }
    : { httpsOnly: false, allowNonPublicAddresses: true }
}

export type EgressRefusalReason =
  | 'url_invalid'
  | 'scheme_not_allowed'
  | 'credentials_in_url'
  | 'host_unresolvable'
  | 'address_not_public'
  | 'redirect_limit_exceeded'
  | 'redirect_loop'

/** The URL may not be fetched. The message is safe to show the tenant who supplied the URL. */
export class EgressRefusedError extends Error {
  constructor(
    readonly reason: EgressRefusalReason,
    message: string,
    readonly details: Readonly<Record<string, string>> = {},
  ) {
    super(message)
    this.name = 'EgressRefusedError'
  }
}

export interface AddressClass {
  /** The address in canonical form (an IPv4-mapped IPv6 address as its IPv4 address). */
  readonly address: string
  /** ipaddr.js's range name: `unicast` for public addresses, otherwise `loopback`, `private`, `linkLocal`, … */
  readonly range: string
  readonly isPublic: boolean
}

/** Classifies one IP address (IPv4 or IPv6 text); throws on anything that is not an IP address. */
export function classifyAddress(text: string): AddressClass {
  // A zone index (`fe80::1%eth0`) names an interface, not a different address.
  const bare = text.replace(/%.*$/, '')
  if (isIP(bare) === 0) throw new TypeError(`not an IP address: ${text}`)
  let parsed = ipaddr.parse(bare)
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address()
  const range = parsed.range()
  return { address: parsed.toString(), range, isPublic: range === 'unicast' }
}

/** A URL checked against the policy, and the one address requests to it connect to. */
export interface EgressTarget {
  readonly url: URL
  /** The host name without IPv6 brackets: what TLS verifies and the Host header names. */
  readonly hostname: string
  readonly address: ResolvedAddress
}

/** The checks that need no DNS: URL syntax, scheme, credentials. */
export function parseEgressUrl(rawUrl: string, policy: EgressPolicy): URL {
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    throw new EgressRefusedError('url_invalid', 'The URL is not a valid absolute URL.')
  }
  const allowedSchemes = policy.httpsOnly ? ['https:'] : ['https:', 'http:']
  if (!allowedSchemes.includes(url.protocol)) {
    throw new EgressRefusedError('scheme_not_allowed', policy.httpsOnly ? 'The URL must use https.' : 'The URL must use http or https.', {
      scheme: url.protocol.replace(/:$/, ''),
    })
  }
  if (url.username !== '' || url.password !== '') {
    throw new EgressRefusedError('credentials_in_url', 'The URL must not contain a user name or password; put credentials in the path or a header instead.')
  }
  if (url.hostname === '') throw new EgressRefusedError('url_invalid', 'The URL has no host.')
  return url
}

/**
 * Parses the URL, resolves its host and checks every address. Returns the target pinned to the first
 * address; throws EgressRefusedError with a message fit for the caller.
 */
export async function resolveEgressTarget(rawUrl: string, policy: EgressPolicy, resolver: HostResolver): Promise<EgressTarget> {
  const url = parseEgressUrl(rawUrl, policy)
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1')
  let addresses: readonly ResolvedAddress[]
  const literalFamily = isIP(hostname)
  if (literalFamily !== 0) {
    addresses = [{ address: hostname, family: literalFamily === 6 ? 6 : 4 }]
  } else {
    try {
      addresses = await resolver(hostname)
    } catch {
      throw new EgressRefusedError('host_unresolvable', `The host ${hostname} could not be resolved.`, { host: hostname })
    }
    if (addresses.length === 0) throw new EgressRefusedError('host_unresolvable', `The host ${hostname} has no addresses.`, { host: hostname })
  }
  if (!policy.allowNonPublicAddresses) {
    // Every answer is checked, not only the one we will use: a host that names both a public and a
    // private address is refused, so the order of DNS answers cannot matter.
    for (const candidate of addresses) {
      const classified = classifyAddress(candidate.address)
      if (!classified.isPublic && !(policy.allowLoopback === true && classified.range === 'loopback')) {
        throw new EgressRefusedError(
          'address_not_public',
          `The host ${hostname} resolves to ${classified.address}, a ${classified.range} address; only public internet addresses are allowed.`,
          { host: hostname, address: classified.address, range: classified.range },
        )
      }
    }
  }
  return { url, hostname, address: addresses[0]! }
}

export interface EgressRequest {
  readonly method: 'GET' | 'POST'
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | Buffer
  /** The whole exchange (connect, send, response headers and body) must finish within this. */
  readonly timeoutMs: number
  /**
   * 0: the response body is not read at all (the connection is closed once the status arrives).
   * Otherwise the body is collected, and a larger one fails the request with `response_too_large`.
   */
  readonly responseBytesMax: number
}

export interface EgressResponse {
  readonly statusCode: number
  readonly headers: http.IncomingHttpHeaders
  readonly body: Buffer
}

export type EgressFailureReason = 'timeout' | 'connection_failed' | 'response_too_large' | 'redirect_invalid'

/** The request was allowed but did not complete. The message names the cause, never response content. */
export class EgressRequestError extends Error {
  constructor(
    readonly reason: EgressFailureReason,
    message: string,
  ) {
    super(message)
    this.name = 'EgressRequestError'
  }
}

/** A lookup that always answers the address we validated: the socket cannot connect anywhere else. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ address: pinned.address, family: pinned.family }])
    else callback(null, pinned.address, pinned.family)
  }
}

/** Sends one request to a target from `resolveEgressTarget`, connecting only to its pinned address. */
export function sendPinned(target: EgressTarget, request: EgressRequest): Promise<EgressResponse> {
  const secure = target.url.protocol === 'https:'
  const client = secure ? https : http
  return new Promise<EgressResponse>((resolve, reject) => {
    let settled = false
    const finish = (outcome: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      outcome()
    }
    const outgoing = client.request({
      hostname: target.hostname,
      port: target.url.port === '' ? (secure ? 443 : 80) : Number(target.url.port),
      path: `${target.url.pathname}${target.url.search}`,
      method: request.method,
      headers: request.headers,
      lookup: pinnedLookup(target.address),
      // A fresh connection per request: a pooled socket could outlive the address check it was made under.
      agent: false,
      // SNI carries host names only; certificates are verified against `hostname` either way.
      ...(secure && isIP(target.hostname) === 0 ? { servername: target.hostname } : {}),
    })
    const deadline = setTimeout(() => {
      outgoing.destroy(new EgressRequestError('timeout', `no response within ${request.timeoutMs} ms`))
    }, request.timeoutMs)

    outgoing.on('error', (error) => {
      finish(() =>
        reject(error instanceof EgressRequestError ? error : new EgressRequestError('connection_failed', describeSocketError(error))),
      )
    })
    outgoing.on('response', (incoming) => {
      const statusCode = incoming.statusCode ?? 0
      if (request.responseBytesMax === 0) {
        finish(() => resolve({ statusCode, headers: incoming.headers, body: Buffer.alloc(0) }))
        incoming.destroy()
        outgoing.destroy()
        return
      }
      const chunks: Buffer[] = []
      let received = 0
      incoming.on('data', (chunk: Buffer) => {
        received += chunk.length
        if (received > request.responseBytesMax) {
          finish(() => reject(new EgressRequestError('response_too_large', `response body larger than ${request.responseBytesMax} bytes`)))
          incoming.destroy()
          outgoing.destroy()
          return
        }
        chunks.push(chunk)
      })
      incoming.on('end', () => finish(() => resolve({ statusCode, headers: incoming.headers, body: Buffer.concat(chunks) })))
      incoming.on('error', (error) => finish(() => reject(error instanceof EgressRequestError ? error : new EgressRequestError('connection_failed', describeSocketError(error)))))
    })
    outgoing.end(request.body)
  })
}

function describeSocketError(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code
  return code === undefined ? error.message : `${code}: ${error.message}`
}

export interface EgressStreamResponse {
  readonly statusCode: number
  readonly headers: http.IncomingHttpHeaders
  /** The response body, unread: the caller consumes it or destroys it. */
  readonly body: Readable
}

/**
 * Sends one GET to a target from `resolveEgressTarget`, connected only to its pinned address, and
 * resolves as soon as the response headers arrive, leaving the body as a stream (a file is streamed to
 * storage, never collected here). When `signal` aborts — the caller's deadline — the request and the
 * body stream are destroyed with an EgressRequestError `timeout`, wherever the exchange has got to.
 */
export function openPinned(target: EgressTarget, request: { readonly headers: Readonly<Record<string, string>>; readonly signal: AbortSignal }): Promise<EgressStreamResponse> {
  const secure = target.url.protocol === 'https:'
  const client = secure ? https : http
  return new Promise<EgressStreamResponse>((resolve, reject) => {
    const timedOut = () => new EgressRequestError('timeout', 'the fetch did not complete within its time limit')
    if (request.signal.aborted) {
      reject(timedOut())
      return
    }
    let settled = false
    let incoming: http.IncomingMessage | undefined
    const outgoing = client.request({
      hostname: target.hostname,
      port: target.url.port === '' ? (secure ? 443 : 80) : Number(target.url.port),
      path: `${target.url.pathname}${target.url.search}`,
      method: 'GET',
      headers: request.headers,
      lookup: pinnedLookup(target.address),
      agent: false,
      ...(secure && isIP(target.hostname) === 0 ? { servername: target.hostname } : {}),
    })
    const onAbort = () => {
      const error = timedOut()
      incoming?.destroy(error)
      outgoing.destroy(error)
    }
    request.signal.addEventListener('abort', onAbort, { once: true })
    outgoing.on('error', (error) => {
      request.signal.removeEventListener('abort', onAbort)
      if (settled) return
      settled = true
      reject(error instanceof EgressRequestError ? error : new EgressRequestError('connection_failed', describeSocketError(error)))
    })
    outgoing.on('response', (response) => {
      incoming = response
      settled = true
      response.once('close', () => request.signal.removeEventListener('abort', onAbort))
      // A socket error while the body streams reaches the reader as this stream's error, in our terms.
      const body = response as Readable
      resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body })
    })
    outgoing.end()
  })
}

export interface FollowRedirectsOptions {
  readonly policy: EgressPolicy
  readonly resolver: HostResolver
  /** Sent on every hop. */
  readonly headers: Readonly<Record<string, string>>
  /**
   * Sent only on hops to the origin (scheme, host and port) of the URL first given, never to another
   * origin a redirect leads to: credentials for one server are not handed to whichever server it names.
   */
  readonly originHeaders?: Readonly<Record<string, string>>
  /** Redirects followed at most; one more is refused with `redirect_limit_exceeded`. */
  readonly redirectsMax: number
  /** Aborts the whole exchange, every hop and the final body included (the caller's total time limit). */
  readonly signal: AbortSignal
}

export interface FollowedResponse extends EgressStreamResponse {
  /** The URL that answered (after redirects). */
  readonly url: URL
  readonly redirects: number
}

const redirectStatuses = new Set([301, 302, 303, 307, 308])

/**
 * GETs a URL and follows redirects, each hop checked by the egress rules and pinned like the first (a
 * redirect to a private address, a non-http scheme or a URL with credentials is refused as if it had
 * been given). A redirect back to a URL already visited is refused as a loop; more than
 * `redirectsMax` redirects are refused. Returns the first response that is not a redirect, body unread.
 */
export async function getFollowingRedirects(rawUrl: string, options: FollowRedirectsOptions): Promise<FollowedResponse> {
  const origin = parseEgressUrl(rawUrl, options.policy).origin
  const visited = new Set<string>()
  let current = rawUrl
  for (let redirects = 0; ; redirects += 1) {
    const target = await resolveEgressTarget(current, options.policy, options.resolver)
    if (visited.has(target.url.href)) {
      throw new EgressRefusedError('redirect_loop', `The redirects loop back to ${target.url.origin}${target.url.pathname}.`, { host: target.hostname })
    }
    visited.add(target.url.href)
    const headers = target.url.origin === origin ? { ...options.headers, ...options.originHeaders } : { ...options.headers }
    const response = await openPinned(target, { headers, signal: options.signal })
    if (!redirectStatuses.has(response.statusCode)) return { ...response, url: target.url, redirects }
    // The body of a redirect is never read.
    response.body.destroy()
    const location = response.headers.location
    if (location === undefined || location === '') throw new EgressRequestError('redirect_invalid', `HTTP ${response.statusCode} without a Location header`)
    if (redirects >= options.redirectsMax) {
      throw new EgressRefusedError('redirect_limit_exceeded', `More than ${options.redirectsMax} redirects.`, { redirects_max: String(options.redirectsMax) })
    }
    let next: URL
    try {
      next = new URL(location, target.url)
    } catch {
      throw new EgressRequestError('redirect_invalid', `HTTP ${response.statusCode} with a Location that is not a URL`)
    }
    next.hash = ''
    current = next.href
  }
}
