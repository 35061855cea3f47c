/**
 * The address rules of src/platform/net/egress.ts as tables: every spelling of an address that a URL or a DNS
 * answer can carry, and whether the production policy and the sandbox's loopback-only policy (Raw fetch
 * with RAW_FETCH_ALLOW_LOOPBACK) let a request go there. Nothing here opens a socket: a refusal comes
 * before any connection, an allowed target is only returned, and DNS is a stub that answers from a table.
 */
import ipaddr from 'ipaddr.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isIP } from 'node:net'
import { classifyAddress, productionEgressPolicy, EgressRefusedError, resolveEgressTarget, type EgressPolicy, type HostResolver, type ResolvedAddress } from './egress.ts'

const production = productionEgressPolicy
const loopbackOnly: EgressPolicy = { httpsOnly: false, allowNonPublicAddresses: false, allowLoopback: true }

type Verdict = 'allowed' | 'refused'

/** A resolver answering from a table; an unknown name fails like NXDOMAIN. */
function stubResolver(table: Readonly<Record<string, readonly string[]>>): HostResolver {
  return async (hostname) => {
    const answers = table[hostname]
    if (answers === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return answers.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
}

/**
 * Asserts the verdict of one URL under one policy. An allowed URL must be pinned to an address that
 * classifies as `address`; a refused one must be refused as `address_not_public`, naming `address`.
 */
async function expectVerdict(url: string, policy: EgressPolicy, resolver: HostResolver, verdict: Verdict, address: string) {
  const outcome = await resolveEgressTarget(url, policy, resolver).then(
    (target) => ({ allowed: true as const, target }),
    (error: unknown) => ({ allowed: false as const, error }),
  )
  if (verdict === 'allowed') {
    expect(outcome.allowed, `${url} should be allowed: ${outcome.allowed ? '' : String(outcome.error)}`).toBe(true)
    if (outcome.allowed) expect(classifyAddress(outcome.target.address.address).address).toBe(address)
  } else {
    expect(outcome.allowed, `${url} should be refused`).toBe(false)
    if (!outcome.allowed) {
      expect(outcome.error).toBeInstanceOf(EgressRefusedError)
      expect((outcome.error as EgressRefusedError).reason, url).toBe('address_not_public')
      // A literal URL's refusal names its address; a host name's never names what the name resolved to.
      const literal = isIP(new URL(url).hostname.replace(/^\[(.*)\]$/, '$1')) !== 0
      const { details, message } = outcome.error as EgressRefusedError
      if (literal) expect(details.address, url).toBe(address)
      else {
        expect(details.address, url).toBeUndefined()
        const host = new URL(url).hostname
        if (!host.includes(classifyAddress(address).address)) expect(message, url).not.toContain(classifyAddress(address).address)
        expect(details.range, url).toBeDefined()
      }
    }
  }
}

/** An IPv4 address's two 16-bit groups in hex, as an IPv6 address writes them. */
function groups(ipv4: string, mask = 0): [string, string] {
  const [a, b, c, d] = ipv4.split('.').map((octet) => Number(octet) ^ mask) as [number, number, number, number]
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)]
}
const padded = (group: string) => group.toUpperCase().padStart(4, '0')

/**
 * IPv4 addresses of every class, as they are carried inside IPv6 forms. The class is written here by
 * hand (IANA's registry), not computed.
 */
const seeds: ReadonlyArray<readonly [ipv4: string, range: string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.53.0.9', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'linkLocal'], // cloud metadata
  ['100.64.0.1', 'carrierGradeNat'],
  ['0.1.2.3', 'unspecified'],
  ['224.0.0.251', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['93.184.216.34', 'unicast'],
  ['8.8.8.8', 'unicast'],
]

/** The IPv6 spellings of each form that carries an IPv4 address: compressed, expanded, mixed dotted-quad, uppercase. */
const embeddingForms: ReadonlyArray<readonly [form: string, spell: (ipv4: string) => string[]]> = [
  [
    'ipv4Mapped',
    (v4) => {
      const [high, low] = groups(v4)
      return [`::ffff:${v4}`, `::ffff:${high}:${low}`, `0:0:0:0:0:ffff:${high}:${low}`, `0000:0000:0000:0000:0000:FFFF:${padded(high)}:${padded(low)}`]
    },
  ],
  [
    'ipv4Compatible',
    (v4) => {
      const [high, low] = groups(v4)
      return [`::${v4}`, `::${high}:${low}`, `0:0:0:0:0:0:${high}:${low}`, `0:0:0:0:0:0:${v4}`]
    },
  ],
  [
    'rfc6145',
    (v4) => {
      const [high, low] = groups(v4)
      return [`::ffff:0:${v4}`, `::ffff:0:${high}:${low}`, `0:0:0:0:ffff:0:${high}:${low}`]
    },
  ],
  [
    'rfc6052',
    (v4) => {
      const [high, low] = groups(v4)
      return [`64:ff9b::${v4}`, `64:ff9b::${high}:${low}`, `0064:FF9B:0000:0000:0000:0000:${padded(high)}:${padded(low)}`]
    },
  ],
  [
    '6to4',
    (v4) => {
      const [high, low] = groups(v4)
      return [`2002:${high}:${low}::`, `2002:${high}:${low}::1`, `2002:${padded(high)}:${padded(low)}:0:0:0:0:1`]
    },
  ],
  [
    'teredo',
    (v4) => {
      // RFC 4380: server 65.54.227.120 (4136:e378), flags 8000, port 63bf, then the client's address inverted.
      // Teredo is refused whatever the server and the client are (even both public); the client is reported.
      const [high, low] = groups(v4, 0xff)
      return [`2001:0:4136:e378:8000:63bf:${high}:${low}`]
    },
  ],
]

/**
 * An IPv6 address in canonical form, by the URL parser (not by ipaddr.js, which reads `::a.b.c.d` as
 * `::ffff:a.b.c.d` where the operating system reads ::/96).
 */
const canonicalIPv6 = (address: string) => new URL(`http://[${address}]/`).hostname.slice(1, -1)

interface AddressRow {
  readonly address: string
  readonly range: string
  /** The IPv4 address carried, and its class. */
  readonly embedded?: readonly [string, string]
  readonly production: Verdict
  readonly loopback: Verdict
  /** The address as classified (what a refusal names). */
  readonly classifiedAs: string
}

/**
 * An IPv4-mapped address is its IPv4 address, for better or worse: the socket connects to that IPv4
 * address. Every other form is refused whatever it carries, even a public address, and even loopback
 * under the loopback-only policy.
 */
const embeddedRows: AddressRow[] = embeddingForms.flatMap(([form, spell]) =>
  seeds.flatMap(([v4, range]) =>
    spell(v4).map((address): AddressRow => {
      if (form === 'ipv4Mapped') {
        const isPublic = range === 'unicast'
        return { address, range, production: isPublic ? 'allowed' : 'refused', loopback: isPublic || range === 'loopback' ? 'allowed' : 'refused', classifiedAs: v4 }
      }
      return { address, range: form, embedded: [v4, range], production: 'refused', loopback: 'refused', classifiedAs: canonicalIPv6(address) }
    }),
  ),
)

const plain = (address: string, range: string, classifiedAs = address): AddressRow => ({
  address,
  range,
  production: range === 'unicast' ? 'allowed' : 'refused',
  loopback: range === 'unicast' || range === 'loopback' ? 'allowed' : 'refused',
  classifiedAs,
})

/** Addresses that carry no IPv4 address: range edges of both registries, and public neighbours. */
const plainRows: AddressRow[] = [
  // IPv4
  plain('127.0.0.1', 'loopback'),
  plain('127.255.255.255', 'loopback'),
  plain('10.0.0.0', 'private'),
  plain('10.255.255.255', 'private'),
  plain('172.16.0.0', 'private'),
  plain('172.31.255.255', 'private'),
  plain('172.32.0.0', 'unicast'),
  plain('172.15.255.255', 'unicast'),
  plain('192.168.0.0', 'private'),
  plain('192.168.255.255', 'private'),
  plain('169.254.0.0', 'linkLocal'),
  plain('169.254.169.254', 'linkLocal'),
  plain('169.254.255.255', 'linkLocal'),
  plain('169.255.0.1', 'unicast'),
  plain('100.64.0.0', 'carrierGradeNat'),
  plain('100.127.255.255', 'carrierGradeNat'),
  plain('100.128.0.0', 'unicast'),
  plain('100.63.255.255', 'unicast'),
  plain('0.0.0.0', 'unspecified'),
  plain('0.255.255.255', 'unspecified'),
  plain('192.0.0.1', 'reserved'),
  plain('192.0.0.255', 'reserved'),
  plain('192.0.1.1', 'unicast'),
  plain('192.0.2.0', 'reserved'),
  plain('192.0.2.255', 'reserved'),
  plain('192.31.196.1', 'as112'),
  plain('192.52.193.1', 'amt'),
  plain('192.88.99.1', 'reserved'),
  plain('192.175.48.1', 'as112'),
  plain('198.18.0.0', 'reserved'),
  plain('198.19.255.255', 'reserved'),
  plain('198.20.0.1', 'unicast'),
  plain('198.51.100.1', 'reserved'),
  plain('203.0.113.1', 'reserved'),
  plain('224.0.0.1', 'multicast'),
  plain('239.255.255.250', 'multicast'),
  plain('240.0.0.1', 'reserved'),
  plain('255.255.255.254', 'reserved'),
  plain('255.255.255.255', 'broadcast'),
  plain('223.255.255.254', 'unicast'),
  plain('1.1.1.1', 'unicast'),
  plain('93.184.216.34', 'unicast'),
  // IPv6
  plain('::1', 'loopback'),
  plain('0:0:0:0:0:0:0:1', 'loopback', '::1'),
  plain('::0.0.0.1', 'loopback', '::1'),
  plain('::', 'unspecified'),
  plain('0:0:0:0:0:0:0:0', 'unspecified', '::'),
  plain('fe80::1', 'linkLocal'),
  plain('fe80::1%eth0', 'linkLocal', 'fe80::1'),
  plain('FE80::A9FE:A9FE', 'linkLocal', 'fe80::a9fe:a9fe'),
  plain('febf:ffff::1', 'linkLocal'),
  plain('fec0::1', 'deprecatedSiteLocal'),
  plain('fc00::1', 'uniqueLocal'),
  plain('fd00::1', 'uniqueLocal'),
  plain('fd12:3456:789a::1%2', 'uniqueLocal', 'fd12:3456:789a::1'),
  plain('ff02::1', 'multicast'),
  plain('ff05::1:3', 'multicast'),
  plain('100::1', 'discard'),
  plain('64:ff9b:1::1', 'rfc6052'), // local-use NAT64: no IPv4 address can be read from it, refused all the same
  plain('64:ff9b:1:a9fe:a9fe::', 'rfc6052'),
  plain('2001:db8::1', 'reserved'),
  plain('2001:db8:ffff::1', 'reserved'),
  plain('2001:2::1', 'benchmarking'),
  plain('2001:3::1', 'amt'),
  plain('2001:4:112::1', 'as112v6'),
  plain('2001:1::1', 'reserved'),
  plain('2001:10::1', 'deprecatedOrchid'),
  plain('2001:20::1', 'orchid2'),
  plain('2001:30::1', 'droneRemoteIdProtocolEntityTags'),
  plain('2001:1ff::1', 'reserved'),
  plain('2620:4f:8000::1', 'as112v6'),
  plain('3fff::1', 'reserved'),
  plain('3fff:fff:ffff::1', 'reserved'),
  plain('5f00::1', 'segmentRouting'),
  // Outside 2000::/3, where IANA allocates no global unicast.
  plain('4000::1', 'reserved'),
  plain('1::1', 'reserved'),
  plain('::1:0:0:1', 'reserved'),
  plain('e000::1', 'reserved'),
  plain('1fff:ffff::1', 'reserved'),
  // Public, including the neighbours of the ranges above.
  plain('2606:4700:4700::1111', 'unicast'),
  plain('2a00:1450:4001:80b::200e', 'unicast'),
  plain('2001:4860:4860::8888', 'unicast'),
  plain('2001:200::1', 'unicast'),
  plain('2001:db9::1', 'unicast'),
  plain('2003::1', 'unicast'),
  plain('3fff:1000::1', 'unicast'),
  plain('2000::1', 'unicast'),
  plain('3ffe:ffff::1', 'unicast'),
  plain('2620:4f:8001::1', 'unicast'),
]

const addressRows = [...embeddedRows, ...plainRows]

describe('every address, as classified, as a DNS answer and as a literal URL', () => {
  it('has more than 300 rows, each form and class represented', () => {
    expect(addressRows.length).toBeGreaterThan(300)
  })

  it.each(addressRows)('$address is $range: $production in production, $loopback under the loopback-only policy', async (row) => {
    const classified = classifyAddress(row.address)
    expect(classified.range).toBe(row.range)
    expect(classified.address).toBe(row.classifiedAs)
    expect(classified.isPublic).toBe(row.production === 'allowed')
    if (row.embedded === undefined) expect(classified.embedded).toBeUndefined()
    else expect(classified.embedded).toMatchObject({ address: row.embedded[0], range: row.embedded[1], isPublic: row.embedded[1] === 'unicast' })

    const resolver = stubResolver({ 'answer.test': [row.address] })
    await expectVerdict('https://answer.test/hook', production, resolver, row.production, row.classifiedAs)
    await expectVerdict('http://answer.test/file.csv', loopbackOnly, resolver, row.loopback, row.classifiedAs)

    // The same address written into the URL (a zone index cannot be: the URL parser refuses it).
    if (row.address.includes('%')) return
    const host = row.address.includes(':') ? `[${row.address}]` : row.address
    await expectVerdict(`https://${host}:8443/hook`, production, resolver, row.production, row.classifiedAs)
    await expectVerdict(`http://${host}/file.csv`, loopbackOnly, resolver, row.loopback, row.classifiedAs)
  })
})

describe('every way of writing a host in a URL', () => {
  const resolver = stubResolver({
    localhost: ['127.0.0.1', '::1'],
    'localhost.': ['127.0.0.1'],
    // Not an address to the URL parser (three trailing dots): a name, and whatever DNS says is checked.
    '127.0.0.1...': ['127.0.0.1'],
    'metadata.internal.': ['169.254.169.254'],
    // IDN names reach the resolver as punycode.
    'xn--bcher-kva.example': ['::a9fe:a9fe'], // bücher.example
    'xn--mnchen-3ya.test': ['::ffff:10.0.0.1'], // münchen.test
    'xn--r8jz45g.xn--zckzah': ['64:ff9b::7f00:1'], // 例え.テスト
    'i.example': ['2002:a00:1::1'], // ⅰ.example (a roman numeral, mapped to i)
    'xn--n3h.example': ['93.184.216.34'], // ☃.example
    'xn--n3h.example.': ['2606:4700:4700::1111'],
    'teredo.example': ['2001:0:4136:e378:8000:63bf:f5ff:fffe'], // client 10.0.0.1
    'compatible.example': ['::127.0.0.1'],
    'dual.example': ['2606:4700:4700::1111', '::7f00:1'],
    'public.example': ['93.184.216.34', '2606:4700:4700::1111'],
  })

  // [host as written in the URL, production, loopback-only, the address as classified (named by a refusal)]
  const rows: ReadonlyArray<readonly [string, Verdict, Verdict, string]> = [
    // 127.0.0.1 in every IPv4 spelling the URL parser accepts (it normalizes them to dotted decimal).
    ['127.0.0.1', 'refused', 'allowed', '127.0.0.1'],
    ['127.1', 'refused', 'allowed', '127.0.0.1'],
    ['127.0.1', 'refused', 'allowed', '127.0.0.1'],
    ['0x7f.1', 'refused', 'allowed', '127.0.0.1'],
    ['0x7F.0.0.1', 'refused', 'allowed', '127.0.0.1'],
    ['0X7F000001', 'refused', 'allowed', '127.0.0.1'],
    ['0x7f.0x0.0x0.0x1', 'refused', 'allowed', '127.0.0.1'],
    ['2130706433', 'refused', 'allowed', '127.0.0.1'],
    ['017700000001', 'refused', 'allowed', '127.0.0.1'],
    ['0177.0.0.1', 'refused', 'allowed', '127.0.0.1'],
    ['0177.1', 'refused', 'allowed', '127.0.0.1'],
    ['00000177.0.0.01', 'refused', 'allowed', '127.0.0.1'],
    ['127.0.0.1.', 'refused', 'allowed', '127.0.0.1'], // one trailing dot: still an IPv4 address to the URL parser
    ['127%2e0%2e0%2e1', 'refused', 'allowed', '127.0.0.1'],
    ['%30x7f.1', 'refused', 'allowed', '127.0.0.1'],
    ['１２７.０.０.１', 'refused', 'allowed', '127.0.0.1'], // fullwidth digits
    ['127。0。0。1', 'refused', 'allowed', '127.0.0.1'], // ideographic full stops
    ['①②⑦.0.0.1', 'refused', 'allowed', '127.0.0.1'],
    ['127.0.0.1...', 'refused', 'allowed', '127.0.0.1'],
    ['127.0.0.1:80', 'refused', 'allowed', '127.0.0.1'],
    // Other classes in short, decimal, octal and hex forms.
    ['0', 'refused', 'refused', '0.0.0.0'],
    ['0x0', 'refused', 'refused', '0.0.0.0'],
    ['0.0.0.0.', 'refused', 'refused', '0.0.0.0'],
    ['4294967295', 'refused', 'refused', '255.255.255.255'],
    ['167772161', 'refused', 'refused', '10.0.0.1'],
    ['012.0.0.1', 'refused', 'refused', '10.0.0.1'],
    ['0xa.1', 'refused', 'refused', '10.0.0.1'],
    ['10.1', 'refused', 'refused', '10.0.0.1'],
    ['2852039166', 'refused', 'refused', '169.254.169.254'],
    ['0xa9fea9fe', 'refused', 'refused', '169.254.169.254'],
    ['0xA9.0xFE.0xA9.0xFE', 'refused', 'refused', '169.254.169.254'],
    ['0251.0376.0251.0376', 'refused', 'refused', '169.254.169.254'],
    ['169.254.43518', 'refused', 'refused', '169.254.169.254'],
    ['169.254.169.254.', 'refused', 'refused', '169.254.169.254'],
    ['1681915905', 'refused', 'refused', '100.64.0.1'],
    ['100.64.1', 'refused', 'refused', '100.64.0.1'],
    ['3232235777', 'refused', 'refused', '192.168.1.1'],
    ['0xc0a80101', 'refused', 'refused', '192.168.1.1'],
    ['192.168.257', 'refused', 'refused', '192.168.1.1'],
    ['1572395042', 'allowed', 'allowed', '93.184.216.34'],
    ['0x5db8d822', 'allowed', 'allowed', '93.184.216.34'],
    ['134744072', 'allowed', 'allowed', '8.8.8.8'],
    ['8.8.8.8.', 'allowed', 'allowed', '8.8.8.8'],
    // Bracketed IPv6 literals.
    ['[::1]', 'refused', 'allowed', '::1'],
    ['[0:0:0:0:0:0:0:1]', 'refused', 'allowed', '::1'],
    ['[::]', 'refused', 'refused', '::'],
    ['[::ffff:127.0.0.1]', 'refused', 'allowed', '127.0.0.1'],
    ['[::FFFF:7F00:1]', 'refused', 'allowed', '127.0.0.1'],
    ['[0:0:0:0:0:ffff:7f00:1]:8080', 'refused', 'allowed', '127.0.0.1'],
    ['[::7f00:1]', 'refused', 'refused', '::7f00:1'],
    ['[::127.0.0.1]', 'refused', 'refused', '::7f00:1'],
    ['[0000:0000:0000:0000:0000:0000:7F00:0001]', 'refused', 'refused', '::7f00:1'],
    ['[::a9fe:a9fe]', 'refused', 'refused', '::a9fe:a9fe'],
    ['[::169.254.169.254]', 'refused', 'refused', '::a9fe:a9fe'],
    ['[::a00:1]', 'refused', 'refused', '::a00:1'],
    ['[::10.0.0.1]:443', 'refused', 'refused', '::a00:1'],
    ['[::ffff:a9fe:a9fe]', 'refused', 'refused', '169.254.169.254'],
    ['[::ffff:0:a9fe:a9fe]', 'refused', 'refused', '::ffff:0:a9fe:a9fe'],
    ['[64:ff9b::169.254.169.254]', 'refused', 'refused', '64:ff9b::a9fe:a9fe'],
    ['[64:ff9b::5db8:d822]', 'refused', 'refused', '64:ff9b::5db8:d822'], // NAT64 of a public address: refused too
    ['[2002:a9fe:a9fe::]', 'refused', 'refused', '2002:a9fe:a9fe::'],
    ['[2002:5db8:d822::1]', 'refused', 'refused', '2002:5db8:d822::1'], // 6to4 of a public address: refused too
    ['[2001:0:4136:e378:8000:63bf:5601:5601]', 'refused', 'refused', '2001:0:4136:e378:8000:63bf:5601:5601'],
    ['[fe80::1]', 'refused', 'refused', 'fe80::1'],
    ['[FD00::1]', 'refused', 'refused', 'fd00::1'],
    ['[2606:4700:4700::1111]', 'allowed', 'allowed', '2606:4700:4700::1111'],
    ['[::ffff:93.184.216.34]', 'allowed', 'allowed', '93.184.216.34'],
    // Names: trailing dots, case, IDN, several answers.
    ['localhost', 'refused', 'allowed', '127.0.0.1'],
    ['LOCALHOST', 'refused', 'allowed', '127.0.0.1'],
    ['localhost.', 'refused', 'allowed', '127.0.0.1'],
    ['Ⓛⓞⓒⓐⓛⓗⓞⓢⓣ', 'refused', 'allowed', '127.0.0.1'],
    ['metadata.internal.', 'refused', 'refused', '169.254.169.254'],
    ['bücher.example', 'refused', 'refused', '::a9fe:a9fe'],
    ['xn--bcher-kva.example', 'refused', 'refused', '::a9fe:a9fe'],
    ['BÜCHER.example', 'refused', 'refused', '::a9fe:a9fe'],
    ['münchen.test', 'refused', 'refused', '10.0.0.1'],
    ['例え.テスト', 'refused', 'refused', '64:ff9b::7f00:1'],
    ['ⅰ.example', 'refused', 'refused', '2002:a00:1::1'],
    ['teredo.example', 'refused', 'refused', '2001:0:4136:e378:8000:63bf:f5ff:fffe'],
    ['compatible.example', 'refused', 'refused', '::7f00:1'],
    ['dual.example', 'refused', 'refused', '::7f00:1'],
    ['☃.example', 'allowed', 'allowed', '93.184.216.34'],
    ['☃.example.', 'allowed', 'allowed', '2606:4700:4700::1111'],
    ['public.example', 'allowed', 'allowed', '93.184.216.34'],
  ]

  it('has more than 80 rows', () => {
    expect(rows.length).toBeGreaterThan(80)
  })

  it.each(rows)('%s: %s in production, %s under the loopback-only policy (%s)', async (host, productionVerdict, loopbackVerdict, address) => {
    await expectVerdict(`https://${host}/hook`, production, resolver, productionVerdict, address)
    await expectVerdict(`http://${host}/file.csv`, loopbackOnly, resolver, loopbackVerdict, address)
  })

  it('refuses a zone index in a bracketed literal as an invalid URL', async () => {
    for (const url of ['https://[fe80::1%25eth0]/', 'https://[::7f00:1%251]/']) {
      await expect(resolveEgressTarget(url, production, resolver)).rejects.toMatchObject({ reason: 'url_invalid' })
    }
  })

  it('names the address carried, and its class, when it refuses an embedding form', async () => {
    const error = await resolveEgressTarget('https://[::a9fe:a9fe]/latest/meta-data/', production, resolver).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(EgressRefusedError)
    expect((error as EgressRefusedError).details).toEqual({
      host: '::a9fe:a9fe',
      address: '::a9fe:a9fe',
      range: 'ipv4Compatible',
      embedded_address: '169.254.169.254',
      embedded_range: 'linkLocal',
    })
    expect((error as EgressRefusedError).message).toBe(
      'The address ::a9fe:a9fe is an IPv6 address of the ipv4Compatible form carrying 169.254.169.254 ' +
        '(a linkLocal address); IPv6 forms that carry an IPv4 address are refused, and only public internet addresses are allowed.',
    )
  })

  it('lets a policy open to non-public addresses reach every address, embedded forms included', async () => {
    const unrestricted: EgressPolicy = { httpsOnly: false, allowNonPublicAddresses: true }
    for (const host of ['[::a9fe:a9fe]', '[2002:a00:1::]', '127.0.0.1', 'bücher.example']) {
      await expect(resolveEgressTarget(`http://${host}/`, unrestricted, resolver)).resolves.toMatchObject({ hostname: expect.any(String) })
    }
  })
})

describe('the table of non-global ranges, without ipaddr.js', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  // IANA's special-purpose registries and the IPv6 space outside 2000::/3, written here from the registries:
  // [first, last] address of each range.
  const ranges: ReadonlyArray<readonly [string, string]> = [
    ['0.0.0.0', '0.255.255.255'],
    ['10.0.0.0', '10.255.255.255'],
    ['100.64.0.0', '100.127.255.255'],
    ['127.0.0.0', '127.255.255.255'],
    ['169.254.0.0', '169.254.255.255'],
    ['172.16.0.0', '172.31.255.255'],
    ['192.0.0.0', '192.0.0.255'],
    ['192.0.2.0', '192.0.2.255'],
    ['192.88.99.0', '192.88.99.255'],
    ['192.168.0.0', '192.168.255.255'],
    ['198.18.0.0', '198.19.255.255'],
    ['198.51.100.0', '198.51.100.255'],
    ['203.0.113.0', '203.0.113.255'],
    ['224.0.0.0', '239.255.255.255'],
    ['240.0.0.0', '255.255.255.255'],
    ['::', '::1'],
    ['::0.0.0.2', '::255.255.255.255'],
    ['64:ff9b::', '64:ff9b::ffff:ffff'],
    ['64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
    ['::ffff:0:0:0', '::ffff:0:ffff:ffff'],
    ['100::', '100::ffff:ffff:ffff:ffff'],
    ['2001::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2002::', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['4000::', 'fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['::1:0:0:0', '1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ]

  it.each(ranges)('refuses %s and %s even when ipaddr.js calls every address unicast', (first, last) => {
    vi.spyOn(ipaddr.IPv4.prototype, 'range').mockReturnValue('unicast')
    vi.spyOn(ipaddr.IPv6.prototype, 'range').mockReturnValue('unicast')
    for (const address of [first, last]) expect(classifyAddress(address), address).toMatchObject({ isPublic: false })
    // The mock is in place: a public address is still public, and ipaddr.js really answered unicast.
    expect(classifyAddress('93.184.216.34').isPublic).toBe(true)
    expect(ipaddr.parse('127.0.0.1').range()).toBe('unicast')
  })
})
