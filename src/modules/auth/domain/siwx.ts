/**
 * Sign-in with a wallet (SIWX): reading and checking an EIP-4361 message and its signature. Pure: the
 * clock, the expected audience and the challenge's nonce and address are passed in; nothing is stored or
 * fetched here (the challenge's single use belongs to the service that holds it).
 *
 * The message is read with a grammar of our own, anchored at both ends, rather than viem's
 * `parseSiweMessage`: viem's parser matches the fields anywhere in the text (lines before or after them
 * are ignored, `Version: 2` is read as it stands) and `validateSiweMessage` answers a boolean with no
 * reason. What the wallet signed must be exactly what we read, with no room for text we skip. viem still
 * does the cryptography (`recoverMessageAddress`) and writes the messages (`createSiweMessage`), and the
 * tests check that viem's parser reads every message we accept the same way we do.
 *
 * Only externally owned accounts can sign in: the signature is an EIP-191 `personal_sign` ECDSA signature
 * recovered offline. A smart-contract wallet (EIP-1271, or EIP-6492 before deployment) needs a call to the
 * chain to check its signature, which pure code cannot make; it is refused as `signature_invalid` or
 * `signer_mismatch` until the service checks such signatures through a chain port.
 */
import { getAddress, isAddress, isAddressEqual, recoverMessageAddress, type Address } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { assert } from '../../../kernel/assert.ts'
import { isTimestamp } from '../../../kernel/dates.ts'

/** Base mainnet: the one chain a sign-in message may name (the spec's `Chain ID 8453`). */
export const siwxChainId = 8453

/** EIP-4361 defines version 1 only. */
export const siwxVersion = '1'

/** The longest message read. A message with a short statement is about 350 characters. */
export const siwxMessageCharactersMax = 2048

/** How old `Issued At` may be, by default: the nonce is held 5 minutes, so an older message cannot have one. */
export const siwxMessageAgeSecondsDefault = 300

/** How far the wallet's clock may be from ours, by default: a phone's clock is often some seconds off. */
export const siwxClockSkewSecondsDefault = 60

/** Upper bound on the caller's windows: a day is already far longer than any challenge lives. */
const windowSecondsMax = 86_400

/**
 * Why a message is refused, in the order the checks run: the first that fails is the reason. Recorded in
 * the audit log, never returned to the caller (who gets 401 `auth_siwx_invalid` whatever the reason).
 */
export const siwxRefusals = [
  /** Not exactly the grammar below: lines missing, extra or out of order, a field we do not accept, a non-EIP-55 address, a bad timestamp, too long. */
  'message_malformed',
  /** The first line's domain is not exactly the expected host[:port] (a scheme before it counts as a different domain). */
  'domain_mismatch',
  /** The message names an address other than the one the challenge was issued to. */
  'address_mismatch',
  /** `URI` is not exactly the expected base URL. */
  'uri_mismatch',
  /** `Version` is not `1`. */
  'version_unsupported',
  /** `Chain ID` is not the expected chain, written in decimal without leading zeros. */
  'chain_id_mismatch',
  /** `Nonce` is not the challenge's nonce. */
  'nonce_mismatch',
  /** No `Expiration Time`: the spec's message has one, and a signature that never expires is not accepted. */
  'expiration_missing',
  /** `Issued At` is later than now plus the clock skew. */
  'issued_at_in_future',
  /** `Issued At` is earlier than now minus the maximum age and the clock skew. */
  'issued_at_too_old',
  /** `Expiration Time` is at or before now minus the clock skew, or at or before `Issued At`. */
  'expired',
  /** `Not Before` is later than now plus the clock skew. */
  'not_before_in_future',
  /** The signature is not 65 bytes of hex from which a secp256k1 public key can be recovered. */
  'signature_invalid',
  /** The signature recovers to another address than the message's: another key signed, or other text. */
  'signer_mismatch',
] as const

export type SiwxRefusal = (typeof siwxRefusals)[number]

/** What the message must say, and when it is checked. */
export interface SiwxExpectation {
  /** host[:port] of PUBLIC_BASE_URL (`siwxAudienceOf`), compared exactly. */
  readonly domain: string
  /** PUBLIC_BASE_URL without a trailing slash (`siwxAudienceOf`), compared exactly. */
  readonly uri: string
  /** The address the challenge was issued to (any letter case). */
  readonly address: string
  readonly chainId: number
  /** The challenge's nonce, compared exactly (letter case included). */
  readonly nonce: string
  readonly now: Date
  /** How old `Issued At` may be; default `siwxMessageAgeSecondsDefault`. */
  readonly maxAgeSeconds?: number
  /** Tolerance for the wallet's clock in every time check; default `siwxClockSkewSecondsDefault`. */
  readonly clockSkewSeconds?: number
}

export type SiwxCheck = { readonly ok: true; readonly address: Address } | { readonly ok: false; readonly reason: SiwxRefusal }

/** The fields of a well-formed message, as read; nothing here is checked against an expectation yet. */
export interface SiwxMessage {
  readonly domain: string
  /** EIP-55 checksummed, as the message must write it. */
  readonly address: Address
  readonly statement: string | undefined
  readonly uri: string
  readonly version: string
  /** As written: compared as text, so `08453` is not `8453`. */
  readonly chainId: string
  readonly nonce: string
  readonly issuedAt: Date
  readonly expirationTime: Date | undefined
  readonly notBefore: Date | undefined
}

/**
 * The grammar: EIP-4361's lines in its order, without `Request ID` and `Resources` (claims we would
 * otherwise ignore although the wallet signed them) and without a scheme before the domain. Lines end with
 * LF only; nothing may follow the last field. The statement uses EIP-4361's characters (RFC 3986 reserved
 * and unreserved characters and the space). A token is any run of non-space characters so that a wrong
 * value is reported as a mismatch of its field, not as a malformed message.
 */
const messagePattern = new RegExp(
  [
    String.raw`^(?<domain>\S+) wants you to sign in with your Ethereum account:\n`,
    String.raw`(?<address>0x[0-9a-fA-F]{40})\n`,
    String.raw`\n`,
    String.raw`(?:(?<statement>[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;= ]+)\n)?`,
    String.raw`\n`,
    String.raw`URI: (?<uri>\S+)\n`,
    String.raw`Version: (?<version>\S+)\n`,
    String.raw`Chain ID: (?<chainId>[0-9]+)\n`,
    String.raw`Nonce: (?<nonce>[A-Za-z0-9]{8,})\n`,
    String.raw`Issued At: (?<issuedAt>\S+)`,
    String.raw`(?:\nExpiration Time: (?<expirationTime>\S+))?`,
    String.raw`(?:\nNot Before: (?<notBefore>\S+))?$`,
  ].join(''),
)

/** EIP-4361's RFC 3339 date-time as viem reads it (upper-case `T`, `Z` or an offset); `isTimestamp` then checks the day and time exist. */
const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/

/** 65 bytes: r, s and v, as `personal_sign` returns them. */
const signaturePattern = /^0x[0-9a-fA-F]{130}$/

function timestampOf(text: string): Date | undefined {
  if (!timestampPattern.test(text) || !isTimestamp(text)) return undefined
  return new Date(Date.parse(text))
}

/**
 * Reads a message with the grammar above; undefined when it does not follow it exactly, when the address
 * is not in its EIP-55 checksummed form, or when a timestamp names no real instant.
 */
export function parseSiwxMessage(message: string): SiwxMessage | undefined {
  if (message.length > siwxMessageCharactersMax) return undefined
  const fields = messagePattern.exec(message)?.groups
  if (fields === undefined) return undefined
  const { domain, address, statement, uri, version, chainId, nonce, issuedAt, expirationTime, notBefore } = fields
  assert(domain !== undefined && address !== undefined && uri !== undefined && version !== undefined, 'the message pattern captures its required fields')
  assert(chainId !== undefined && nonce !== undefined && issuedAt !== undefined, 'the message pattern captures its required fields')
  if (!isAddress(address, { strict: false }) || getAddress(address) !== address) return undefined
  const issuedAtDate = timestampOf(issuedAt)
  const expirationDate = expirationTime === undefined ? undefined : timestampOf(expirationTime)
  const notBeforeDate = notBefore === undefined ? undefined : timestampOf(notBefore)
  if (issuedAtDate === undefined) return undefined
  if (expirationTime !== undefined && expirationDate === undefined) return undefined
  if (notBefore !== undefined && notBeforeDate === undefined) return undefined
  return {
    domain,
    address,
    statement,
    uri,
    version,
    chainId,
    nonce,
    issuedAt: issuedAtDate,
    expirationTime: expirationDate,
    notBefore: notBeforeDate,
  }
}

function assertWindowSeconds(value: number, name: string): void {
  assert(Number.isSafeInteger(value) && value >= 0 && value <= windowSecondsMax, `${name} is a whole number of seconds from 0 to ${windowSecondsMax}`)
}

/** The checks on the fields, in the order of `siwxRefusals`; undefined when every field passes. */
function fieldRefusalOf(fields: SiwxMessage, expect: SiwxExpectation): SiwxRefusal | undefined {
  if (fields.domain !== expect.domain) return 'domain_mismatch'
  if (!isAddressEqual(fields.address, expect.address as Address)) return 'address_mismatch'
  if (fields.uri !== expect.uri) return 'uri_mismatch'
  if (fields.version !== siwxVersion) return 'version_unsupported'
  if (fields.chainId !== String(expect.chainId)) return 'chain_id_mismatch'
  if (fields.nonce !== expect.nonce) return 'nonce_mismatch'
  if (fields.expirationTime === undefined) return 'expiration_missing'

  const nowMs = expect.now.getTime()
  const skewMs = (expect.clockSkewSeconds ?? siwxClockSkewSecondsDefault) * 1000
  const maxAgeMs = (expect.maxAgeSeconds ?? siwxMessageAgeSecondsDefault) * 1000
  const issuedAtMs = fields.issuedAt.getTime()
  const expirationMs = fields.expirationTime.getTime()
  if (issuedAtMs > nowMs + skewMs) return 'issued_at_in_future'
  if (issuedAtMs < nowMs - maxAgeMs - skewMs) return 'issued_at_too_old'
  // A message valid until a moment that is not after its issue was never valid.
  if (expirationMs <= nowMs - skewMs || expirationMs <= issuedAtMs) return 'expired'
  if (fields.notBefore !== undefined && fields.notBefore.getTime() > nowMs + skewMs) return 'not_before_in_future'
  return undefined
}

/**
 * Checks a signed sign-in message: its grammar, then each field against the expectation in line order,
 * then the time windows, then the signature (the costly step last). The first failing check names the
 * refusal (`siwxRefusals` lists them in this order), so the same input always gives the same reason.
 * On success, the checksummed address that signed. The caller still consumes the nonce, once.
 */
export async function checkSiwxMessage(message: string, signature: string, expect: SiwxExpectation): Promise<SiwxCheck> {
  assert(expect.domain.length > 0 && expect.uri.length > 0, 'the expected domain and URI come from PUBLIC_BASE_URL')
  assert(isAddress(expect.address, { strict: false }), 'the challenge was issued to an address')
  assert(/^[A-Za-z0-9]{8,}$/.test(expect.nonce), 'the challenge nonce is an EIP-4361 nonce')
  assert(Number.isSafeInteger(expect.chainId) && expect.chainId > 0, 'the chain id is a positive integer')
  assert(Number.isFinite(expect.now.getTime()), 'now is a valid date')
  assertWindowSeconds(expect.maxAgeSeconds ?? siwxMessageAgeSecondsDefault, 'maxAgeSeconds')
  assertWindowSeconds(expect.clockSkewSeconds ?? siwxClockSkewSecondsDefault, 'clockSkewSeconds')

  const fields = parseSiwxMessage(message)
  if (fields === undefined) return { ok: false, reason: 'message_malformed' }
  const refusal = fieldRefusalOf(fields, expect)
  if (refusal !== undefined) return { ok: false, reason: refusal }

  if (!signaturePattern.test(signature)) return { ok: false, reason: 'signature_invalid' }
  let signer: Address
  try {
    signer = await recoverMessageAddress({ message, signature: signature as `0x${string}` })
  } catch {
    // Only the signature can make recovery fail here (r or s out of range, an unknown v, no point on the curve).
    return { ok: false, reason: 'signature_invalid' }
  }
  if (signer !== fields.address) return { ok: false, reason: 'signer_mismatch' }
  return { ok: true, address: fields.address }
}

/**
 * The domain and URI a message must name, from PUBLIC_BASE_URL: the domain is its host[:port] (lower
 * case, without a default port), the URI the base URL itself without a trailing slash (a base URL with a
 * path keeps it). Both are compared exactly, so a client copies them rather than rebuilds them.
 */
export function siwxAudienceOf(publicBaseUrl: string): { readonly domain: string; readonly uri: string } {
  const url = new URL(publicBaseUrl)
  assert(url.protocol === 'https:' || url.protocol === 'http:', 'PUBLIC_BASE_URL is an http(s) URL')
  assert(url.username === '' && url.password === '' && url.search === '' && url.hash === '', 'PUBLIC_BASE_URL has no credentials, query or fragment')
  return { domain: url.host, uri: `${url.origin}${url.pathname.replace(/\/+$/, '')}` }
}

/** What a client puts in a sign-in message (the version is always 1). */
export interface SiwxMessageInput {
  readonly domain: string
  readonly address: Address
  readonly uri: string
  readonly chainId: number
  readonly nonce: string
  readonly issuedAt: Date
  readonly expirationTime: Date
  readonly statement?: string
  readonly notBefore?: Date
}

/**
 * Writes a sign-in message with viem's `createSiweMessage`, in the spec's line order: the domain and the
 * sentence, the address (checksummed), then URI, Version 1, Chain ID, Nonce, Issued At and Expiration
 * Time (and Not Before when given), timestamps as `toISOString` writes them. Throws viem's error on a
 * field EIP-4361 forbids (a domain that is not an RFC 3986 authority, a short nonce).
 */
export function buildSiwxMessage(input: SiwxMessageInput): string {
  return createSiweMessage({
    domain: input.domain,
    address: input.address,
    statement: input.statement,
    uri: input.uri,
    version: siwxVersion,
    chainId: input.chainId,
    nonce: input.nonce,
    issuedAt: input.issuedAt,
    expirationTime: input.expirationTime,
    notBefore: input.notBefore,
  })
}
