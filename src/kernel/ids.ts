/**
 * Identifiers: a type prefix and a time-ordered body, from one prefix map, so an id tells what it names
 * and sorts by creation time (`usr_01JD…`). Tenant ids are UUIDv7 because the spec addresses tenants by
 * UUID in paths (`/v1/policy/{tenant_id}`).
 *
 * Domain code receives an `IdSource` instead of calling this module, so tests can make ids deterministic.
 */
import { hash, randomBytes } from 'node:crypto'

export const idPrefixes = {
  user: 'usr',
  member: 'mem',
  apiKey: 'key',
  serviceToken: 'svt',
  accessToken: 'tok',
  verificationToken: 'vtk',
  auditEvent: 'aev',
  auditAnchor: 'anc',
  auditExport: 'aex',
  webhookEndpoint: 'whe',
  webhookDelivery: 'whd',
  webhookDeadLetter: 'wdl',
  rawArtifact: 'raw',
  parsedRow: 'rpr',
  providerConnection: 'pcn',
  ledgerJob: 'ljb',
  account: 'acc',
  balance: 'bal',
  counterparty: 'cpy',
  transaction: 'txn',
  invoice: 'inv',
  obligation: 'obl',
  reconciliationMatch: 'rcm',
  ledgerVersion: 'ver',
  policy: 'pol',
  wallet: 'wal',
  policyVerdict: 'pvd',
  paymentIntent: 'pi',
  policyDecision: 'pdc',
  paymentApproval: 'apv',
  gateRun: 'gtr',
  outboxRow: 'pob',
  reservation: 'rsv',
  execution: 'exe',
  executionReceipt: 'rcp',
  sandboxAchTransfer: 'ach',
  agentPromotion: 'prm',
  routingDecision: 'rtd',
  agentRun: 'arn',
  agentProposal: 'prp',
  governanceReport: 'grpt',
  proposalDecision: 'pdn',
  wikiQuestion: 'wqn',
  wikiAnnotation: 'wan',
  memoryPage: 'mpg',
  event: 'evt',
  job: 'job',
  request: 'req',
} as const

export type IdKind = keyof typeof idPrefixes

/** Whether `id` carries `kind`'s prefix (`svt_…` for a service token). */
export function hasIdPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(`${idPrefixes[kind]}_`)
}

export interface IdSource {
  /** A prefixed, time-ordered id such as `usr_01JDZ4…` (26 Crockford base32 characters after the prefix). */
  newId(kind: IdKind): string
  /** A UUIDv7 (RFC 9562): time-ordered, used for tenants. */
  newUuid(): string
}

const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const crockfordCodes = Array.from(crockford, (character) => character.charCodeAt(0))
/** base32Tail's output, reused (ids are made one at a time, synchronously). */
const base32Codes: number[] = []

/**
 * Random bytes drawn from a pooled buffer refilled 4 KiB at a time: one `randomBytes` call per request
 * id showed up as a tenth of the CPU of a trivial route.
 */
const randomPoolBytes = 4096
let randomPool = randomBytes(randomPoolBytes)
let randomPoolOffset = 0

function pooledRandom(length: number): Uint8Array {
  if (randomPoolOffset + length > randomPoolBytes) {
    randomPool = randomBytes(randomPoolBytes)
    randomPoolOffset = 0
  }
  const bytes = randomPool.subarray(randomPoolOffset, randomPoolOffset + length)
  randomPoolOffset += length
  return bytes
}

/** ULID layout: 48-bit millisecond time then 80 random bits, as 26 base32 characters. */
export function ulid(nowMs: number, random: Uint8Array = pooledRandom(10)): string {
  let time = nowMs
  let timePart = ''
  for (let index = 0; index < 10; index += 1) {
    timePart = crockford[time % 32] + timePart
    time = Math.floor(time / 32)
  }
  return timePart + base32Tail(random, random.length - 1, 16)
}

/**
 * The low `characters × 5` bits of a big-endian byte string, as Crockford base32 characters, most
 * significant first: read from `lastByte` backwards through a small bit buffer (no BigInt: ids are
 * made per row in bulk writes).
 */
function base32Tail(bytes: Uint8Array, lastByte: number, characters: number): string {
  // Character codes into one reused array, made a string at once (a third of the time of joining
  // one-character strings, measured).
  const output = base32Codes
  output.length = characters
  let buffer = 0
  let buffered = 0
  let byteIndex = lastByte
  for (let index = characters - 1; index >= 0; index -= 1) {
    if (buffered < 5) {
      buffer |= (bytes[byteIndex] ?? 0) << buffered
      byteIndex -= 1
      buffered += 8
    }
    output[index] = crockfordCodes[buffer & 31]!
    buffer >>>= 5
    buffered -= 5
  }
  return String.fromCharCode.apply(null, output)
}

export function uuidV7(nowMs: number, random: Uint8Array = pooledRandom(10)): string {
  const bytes = new Uint8Array(16)
  let time = BigInt(nowMs)
  for (let index = 5; index >= 0; index -= 1) {
    bytes[index] = Number(time & 0xffn)
    time >>= 8n
  }
  bytes.set(random, 6)
  bytes[6] = (bytes[6]! & 0x0f) | 0x70 // version 7
  bytes[8] = (bytes[8]! & 0x3f) | 0x80 // RFC 9562 variant
  const hex = Buffer.from(bytes).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export function createIdSource(now: () => number = Date.now): IdSource {
  return {
    newId: (kind) => `${idPrefixes[kind]}_${ulid(now())}`,
    newUuid: () => uuidV7(now()),
  }
}

/**
 * A deterministic id: the same kind and parts always give the same id (`txn_` + 26 Crockford base32
 * characters of SHA-256 over the parts). Ledger entities and versions use it, so normalizing the same
 * parsed row again yields the same ids.
 */
export function deterministicId(kind: IdKind, ...parts: readonly string[]): string {
  // Each part length-prefixed, `|`-separated: `3:abc|2:de`. Built by concatenation and hashed one-shot
  // (crypto.hash: no Hash object per call), since this runs several times per Ledger row.
  let text = ''
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index]!
    text += index === 0 ? `${part.length}:${part}` : `|${part.length}:${part}`
  }
  const digest = hash('sha256', text, 'buffer')
  // The low 130 bits of the digest's first 17 bytes (big-endian), 5 bits a character.
  return `${idPrefixes[kind]}_${base32Tail(digest, 16, 26)}`
}

export const uuidPattern = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'

export function prefixedIdPattern(kind: IdKind): string {
  return `^${idPrefixes[kind]}_[0-9A-HJKMNP-TV-Z]{26}$`
}
