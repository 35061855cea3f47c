/**
 * Outbound requests to addresses that tenants give us: webhook endpoints, and files Raw fetches by URL.
 * A tenant-supplied URL must never become a way into our own network (SSRF), so every request:
 *
 * 1. parses the URL and requires http or https (https only in production) and no credentials in it;
 * 2. resolves the host (every address DNS returns) and refuses the request if any address is not global
 *    unicast: loopback, RFC 1918 private, unique-local fc00::/7, link-local 169.254/16 and fe80::/10
 *    (which holds cloud metadata at 169.254.169.254), multicast, unspecified, broadcast, CGNAT 100.64/10,
 *    documentation, benchmarking and the other special-purpose ranges, and any IPv6 address outside
 *    2000::/3. An IPv4-mapped address (::ffff:0:0/96) is classified as the IPv4 address the socket will
 *    reach. Every other IPv6 form that carries an IPv4 address — IPv4-compatible ::/96, translated
 *    ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32 — is
 *    refused whatever it carries (the translator or relay that would carry the packet is not ours to
 *    vouch for), and the refusal names the carried address and its class;
 * 3. connects to the very address it checked (the connection is pinned), so a DNS answer that changes
 *    between the check and the connect (DNS rebinding) cannot redirect it.
 *
 * `sendPinned` never follows redirects: a 3xx is returned to the caller as it is. `getFollowingRedirects`
 * (Raw's fetch by URL) follows a bounded number, and every hop is a new request under all three rules:
 * parsed, resolved, checked and pinned again, so a public host cannot bounce us to an internal one.
 * An address passes only if both ipaddr.js's `range()` and our own table of IANA's special-purpose
 * registries call it unicast, so a gap in either table does not open a hole; IPv6 text is parsed with its
 * dotted quad rewritten as hex, since ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`. Host names in
 * decimal, octal or hex (`http://2130706433/`, `http://0177.0.0.1/`, `http://0x7f.1/`) are normalized to
 * dotted IPv4 by the WHATWG URL parser before any check sees them, and so is `127.0.0.1.` (the parser
 * drops one trailing dot); a name such as `localhost.` goes to the resolver, whose every answer is
 * checked. The webhook sandbox allows non-public addresses (tests and local development deliver to
 * localhost); production refuses them. Raw's fetch refuses them in the sandbox too, except real loopback
 * when RAW_FETCH_ALLOW_LOOPBACK allows it.
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
   * Allow loopback addresses (127.0.0.0/8, ::1 and the IPv4-mapped ::ffff:127.0.0.0/104) while every
   * other non-public address stays refused: a sandbox setting for tests that serve files from 127.0.0.1.
   * An IPv4-compatible, translated or tunnelled form is never loopback here, whatever it carries.
   */
  readonly allowLoopback?: boolean
}

/** Production's rule for any tenant-supplied URL: https, and public addresses only. */
export const productionEgressPolicy: EgressPolicy = { httpsOnly: true, allowNonPublicAddresses: false }

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
  /**
   * The range's name: `unicast` for a global unicast address, otherwise ipaddr.js's name (`loopback`,
   * `private`, `linkLocal`, `6to4`, …) or, where ipaddr.js has none, our table's (`ipv4Compatible`).
   */
  readonly range: string
  /** Only global unicast is public: never a special-purpose range, never a form that carries an IPv4 address. */
  readonly isPublic: boolean
  /**
   * The IPv4 address an IPv6 form carries (IPv4-compatible, translated, NAT64, 6to4, or a Teredo client),
   * classified by its own class. It says why the form is refused; it never makes the form public.
   */
  readonly embedded?: AddressClass
}

/**
 * Everything that is not global unicast, from IANA's IPv4 and IPv6 special-purpose address registries
 * and address-space tables, in our own table beside ipaddr.js's `range()`: an address passes only if
 * both call it unicast, so a range that a later ipaddr.js drops (or never listed) stays refused. The
 * names are ipaddr.js's where it has the range, so a refusal reads the same whichever table caught it;
 * the first row holding an address names it (the /32 broadcast before 240/4, ::1 before ::/96).
 */
const nonGlobalRangeRows: ReadonlyArray<readonly [range: string, cidr: string]> = [
  // IPv4
  ['broadcast', '255.255.255.255/32'],
  ['unspecified', '0.0.0.0/8'], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['private', '10.0.0.0/8'],
  ['carrierGradeNat', '100.64.0.0/10'],
  ['loopback', '127.0.0.0/8'],
  ['linkLocal', '169.254.0.0/16'], // cloud metadata at 169.254.169.254
  ['private', '172.16.0.0/12'],
  ['reserved', '192.0.0.0/24'], // IETF protocol assignments
  ['reserved', '192.0.2.0/24'], // TEST-NET-1
  ['as112', '192.31.196.0/24'],
  ['amt', '192.52.193.0/24'],
  ['reserved', '192.88.99.0/24'], // 6to4 relay anycast, deprecated by RFC 7526
  ['private', '192.168.0.0/16'],
  ['as112', '192.175.48.0/24'],
  ['reserved', '198.18.0.0/15'], // benchmarking
  ['reserved', '198.51.100.0/24'], // TEST-NET-2
  ['reserved', '203.0.113.0/24'], // TEST-NET-3
  ['multicast', '224.0.0.0/4'],
  ['reserved', '240.0.0.0/4'],
  // IPv6
  ['unspecified', '::/128'],
  ['loopback', '::1/128'],
  ['ipv4Compatible', '::/96'], // deprecated by RFC 4291; ipaddr.js calls it unicast
  ['ipv4Mapped', '::ffff:0:0/96'], // never reached: classified as its IPv4 address first
  ['rfc6145', '::ffff:0:0:0/96'], // IPv4-translated
  ['rfc6052', '64:ff9b::/96'], // NAT64 well-known prefix
  ['rfc6052', '64:ff9b:1::/48'], // local-use NAT64 (RFC 8215), not global
  ['discard', '100::/64'],
  ['teredo', '2001::/32'],
  ['benchmarking', '2001:2::/48'],
  ['amt', '2001:3::/32'],
  ['as112v6', '2001:4:112::/48'],
  ['deprecatedOrchid', '2001:10::/28'],
  ['orchid2', '2001:20::/28'],
  ['droneRemoteIdProtocolEntityTags', '2001:30::/28'],
  ['reserved', '2001::/23'], // IETF protocol assignments
  ['reserved', '2001:db8::/32'], // documentation
  ['6to4', '2002::/16'],
  ['as112v6', '2620:4f:8000::/48'],
  ['reserved', '3fff::/20'], // documentation (RFC 9637)
  ['segmentRouting', '5f00::/16'], // SRv6 SIDs (RFC 9602)
  ['uniqueLocal', 'fc00::/7'],
  ['linkLocal', 'fe80::/10'],
  ['deprecatedSiteLocal', 'fec0::/10'],
  ['multicast', 'ff00::/8'],
]
const nonGlobalRanges = nonGlobalRangeRows.map(([range, cidr]) => ({ range, subnet: ipaddr.parseCIDR(cidr) }))
/** IANA allocates global unicast IPv6 from 2000::/3 only; the rest of the space is reserved or special. */
const ipv6GlobalUnicast = ipaddr.parseCIDR('2000::/3')

/** The range of a parsed address: ipaddr.js's name, else our table's, else `unicast`. */
function rangeOf(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  const libraryRange = address.range()
  if (libraryRange !== 'unicast') return libraryRange
  const row = nonGlobalRanges.find(({ subnet }) => subnet[0].kind() === address.kind() && address.match(subnet))
  if (row !== undefined) return row.range
  if (address.kind() === 'ipv6' && !address.match(ipv6GlobalUnicast)) return 'reserved'
  return 'unicast'
}

const zeros = (parts: readonly number[]) => parts.every((part) => part === 0)

/** The IPv4 address of an IPv4-mapped IPv6 address (::ffff:0:0/96), which a dual-stack socket connects to over IPv4. */
function mappedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts
  return zeros(parts.slice(0, 5)) && parts[5] === 0xffff ? new ipaddr.IPv4(address.toByteArray().slice(12)) : undefined
}

/**
 * The IPv4 address that an IPv6 form carries, read from the bits (not from a range name, so that the
 * two checks stay independent). The local-use NAT64 prefix 64:ff9b:1::/48 places its IPv4 address by a
 * prefix length we cannot know, so none is read from it; it is refused as a range all the same.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts
  const bytes = address.toByteArray()
  const lastFour = (mask: number) => new ipaddr.IPv4(bytes.slice(12).map((byte) => byte ^ mask))
  // 6to4 2002:AABB:CCDD::/48 carries A.B.C.D in bits 16-47.
  if (parts[0] === 0x2002) return new ipaddr.IPv4(bytes.slice(2, 6))
  // Teredo 2001:0::/32 is refused whatever its server (bits 32-63) and client (last 32 bits, inverted) are; the client is reported.
  if (parts[0] === 0x2001 && parts[1] === 0) return lastFour(0xff)
  // NAT64 well-known prefix 64:ff9b::/96.
  if (parts[0] === 0x64 && parts[1] === 0xff9b && zeros(parts.slice(2, 6))) return lastFour(0)
  // IPv4-translated ::ffff:0:0:0/96.
  if (zeros(parts.slice(0, 4)) && parts[4] === 0xffff && parts[5] === 0) return lastFour(0)
  // IPv4-compatible ::/96, except :: and ::1, which are the unspecified and loopback addresses themselves.
  if (zeros(parts.slice(0, 6)) && !(parts[6] === 0 && (parts[7] ?? 0) <= 1)) return lastFour(0)
  return undefined
}

/** `::ffff:127.0.0.1` → `::ffff:7f00:1`; text without a trailing dotted quad is returned as it is. */
function dottedQuadAsHex(ipv6: string): string {
  return ipv6.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_match, a: string, b: string, c: string, d: string) =>
    `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  )
}

function classifyIPv4(address: ipaddr.IPv4): AddressClass {
  const range = rangeOf(address)
  return { address: address.toString(), range, isPublic: range === 'unicast' }
}

/**
 * Classifies one IP address (IPv4 or IPv6 text); throws on anything that is not an IP address. An
 * IPv4-mapped address is its IPv4 address. Every other IPv6 form that carries an IPv4 address is refused
 * whatever it carries, and reports that address and its own class in `embedded`: the deprecated
 * IPv4-compatible form has no legitimate use, and the translation prefixes (NAT64, 6to4, Teredo) hand the
 * packet to a translator or relay we do not run and cannot vouch for — it may sit inside a network and
 * reach 169.254.169.254 or 10.0.0.1 on our behalf — so a financial service does not send through them.
 */
export function classifyAddress(text: string): AddressClass {
  // A zone index (`fe80::1%eth0`) names an interface, not a different address.
  const bare = text.replace(/%.*$/, '')
  if (isIP(bare) === 0) throw new TypeError(`not an IP address: ${text}`)
  // ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d` (its "deprecated transitional" form), where RFC 4291
  // and the operating system read the IPv4-compatible ::/96; so an IPv6 address's trailing dotted quad
  // (valid, as isIP has checked) is rewritten as two hex groups before ipaddr.js parses it.
  const parsed = ipaddr.parse(isIP(bare) === 6 ? dottedQuadAsHex(bare) : bare)
  if (parsed.kind() === 'ipv4') return classifyIPv4(parsed as ipaddr.IPv4)
  const ipv6 = parsed as ipaddr.IPv6
  const mapped = mappedIPv4(ipv6)
  if (mapped !== undefined) return classifyIPv4(mapped)
  const range = rangeOf(ipv6)
  const embedded = embeddedIPv4(ipv6)
  if (embedded === undefined) return { address: ipv6.toString(), range, isPublic: range === 'unicast' }
  return { address: ipv6.toString(), range, isPublic: false, embedded: classifyIPv4(embedded) }
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
 * Whether a policy that refuses non-public addresses still allows this one: a public address always;
 * under `allowLoopback`, real loopback too (127.0.0.0/8 and ::1; an IPv4-mapped ::ffff:127.x.y.z has
 * already become its IPv4 address). An IPv4-compatible, translated or tunnelled form is never loopback
 * here, whatever it carries: its range names the form, and only `embedded` names the address inside.
 */
function addressAllowed(classified: AddressClass, policy: EgressPolicy): boolean {
  if (classified.isPublic) return true
  return policy.allowLoopback === true && classified.range === 'loopback' && classified.embedded === undefined
}

/**
 * The refusal of a non-public address. For a URL naming an IP literal it says which address and range;
 * for a host name it names the range only, never the address the name resolved to: the caller learns
 * nothing of an internal network's names (a registration is not a DNS lookup service).
 */
function addressRefusal(hostname: string, classified: AddressClass): EgressRefusedError {
  const { embedded } = classified
  if (isIP(hostname) === 0) {
    if (embedded === undefined) {
      return new EgressRefusedError('address_not_public', `The host ${hostname} resolves to a ${classified.range} address; only public internet addresses are allowed.`, { host: hostname, range: classified.range })
    }
    return new EgressRefusedError(
      'address_not_public',
      `The host ${hostname} resolves to an IPv6 address of the ${classified.range} form carrying a ${embedded.range} address; IPv6 forms that carry an IPv4 address are refused, and only public internet addresses are allowed.`,
      { host: hostname, range: classified.range, embedded_range: embedded.range },
    )
  }
  if (embedded === undefined) {
    return new EgressRefusedError(
      'address_not_public',
      `The address ${classified.address} is a ${classified.range} address; only public internet addresses are allowed.`,
      { host: hostname, address: classified.address, range: classified.range },
    )
  }
  return new EgressRefusedError(
    'address_not_public',
    `The address ${classified.address} is an IPv6 address of the ${classified.range} form carrying ${embedded.address} ` +
      `(a ${embedded.range} address); IPv6 forms that carry an IPv4 address are refused, and only public internet addresses are allowed.`,
    { host: hostname, address: classified.address, range: classified.range, embedded_address: embedded.address, embedded_range: embedded.range },
  )
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
      if (!addressAllowed(classified, policy)) throw addressRefusal(hostname, classified)
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
