/**
 * Natural keys and normalization for Ledger entities (docs/raw-and-ledger.md, "Natural keys and
 * dedupe"). Pure: the same record always gives the same keys.
 */
import type { AccountRef, CounterpartyRef } from '../../../kernel/extracted-record.ts'
import { sha256Base64Url } from '../../../kernel/hashing.ts'
import { deterministicId } from '../../../kernel/ids.ts'
import { canonicalDecimal } from '../../../kernel/money.ts'
import type { BalanceType, InvoiceDirection, ObligationType } from './entities.ts'

const nonAscii = /[^\x00-\x7f]/

/**
 * Upper case, letters and digits only, single spaces (every other run of characters becomes one space).
 * ASCII text skips the decomposition that strips diacritics (it would change nothing): most bank text
 * is ASCII, and this runs several times per transaction. `recent`: the caller's, to reuse its recent results.
 */
export function normalizeText(text: string, recent?: NormalizedTexts): string {
  return recent === undefined ? normalizedText(text) : recent.text(text)
}

function normalizedText(text: string): string {
  const folded = nonAscii.test(text) ? text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : text
  return folded
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
}

/** A word of six or more digits (normalized text has words of [A-Z0-9] between single spaces), with the space before it. */
const longNumberWord = /(?:^| )[0-9]{6,}(?= |$)/g

/**
 * A transaction description as compared across sources: normalized text without long numbers (card
 * numbers, references and dates that differ between sources), its words between single spaces.
 */
export function normalizeDescription(description: string, recent?: NormalizedTexts): string {
  return recent === undefined ? normalizedDescription(description, undefined) : recent.description(description)
}

function normalizedDescription(description: string, recent: NormalizedTexts | undefined): string {
  // Each long number leaves with the space before it; one at the start leaves a space behind, trimmed.
  return normalizeText(description, recent).replace(longNumberWord, '').trim()
}

/** Descriptions a NormalizedTexts remembers before it starts again. */
export const normalizedDescriptionsMax = 4_096

/**
 * The texts one caller (a normalization run) has normalized recently, and their results: a bank row's
 * description is normalized for its occurrence, its fingerprint and its record, and again, unless it
 * holds a date, for the merchant guessed from it, with the account's name in between. The caller
 * creates one and passes it to the key functions of its run; memory is bounded
 * (`normalizedDescriptionsMax`), and the results are those of the functions without it.
 */
export class NormalizedTexts {
  /** The last two texts normalized and their results (input, output, input, output). */
  private readonly texts: [string, string, string, string] = ['', '', '', '']
  private readonly descriptions = new Map<string, string>()

  text(text: string): string {
    const texts = this.texts
    if (text === texts[0]) return texts[1]
    if (text === texts[2]) return texts[3]
    const normalized = normalizedText(text)
    texts[2] = texts[0]
    texts[3] = texts[1]
    texts[0] = text
    texts[1] = normalized
    return normalized
  }

  description(description: string): string {
    let normalized = this.descriptions.get(description)
    if (normalized === undefined) {
      normalized = normalizedDescription(description, this)
      if (this.descriptions.size >= normalizedDescriptionsMax) this.descriptions.clear()
      this.descriptions.set(description, normalized)
    }
    return normalized
  }
}

const legalSuffixes = new Set([
  'INC', 'INCORPORATED', 'LLC', 'LTD', 'LIMITED', 'PLC', 'CORP', 'CORPORATION', 'CO', 'COMPANY', 'GMBH', 'AG', 'KG', 'SA', 'SAS', 'SARL',
  'BV', 'NV', 'SPA', 'SRL', 'OY', 'AB', 'AS', 'APS', 'PTY', 'LLP', 'LP', 'UG', 'EV',
])

/** Payment-processor and channel prefixes that are not part of the counterparty's name. */
const channelPrefixes = [
  /^(SQ|SQUARE|TST|PAYPAL|PP|SP|STRIPE|IZ|ZETTLE|SUMUP|GOOGLE|APPLE PAY|APL|AMZN MKTP|AMZN)\s+/,
  /^(POS|CARD PURCHASE|CARD PAYMENT|DEBIT CARD|DEBIT|CREDIT CARD|CONTACTLESS|ACH|SEPA|DIRECT DEBIT|DD|STANDING ORDER|SO|TFR|TRANSFER|FPS|BACS|CHQ|ONLINE PAYMENT|PURCHASE|PAYMENT TO|PAYMENT FROM|RECURRING|VISA|MASTERCARD|MC)\s+/,
]

/**
 * A counterparty name as compared across aliases: normalized, without processor prefixes, store numbers
 * and legal suffixes (`SQ *BLUE BOTTLE #123` and `Blue Bottle Coffee Inc.` are not merged, but
 * `BLUE BOTTLE COFFEE INC` and `Blue Bottle Coffee, Inc` are).
 */
export function normalizeCounterpartyName(name: string, recent?: NormalizedTexts): string {
  const words = withoutChannelPrefixes(normalizeText(name, recent))
    .split(' ')
    .filter((word) => word !== '' && !/^[0-9]+$/.test(word))
  while (words.length > 1 && legalSuffixes.has(words[words.length - 1]!)) words.pop()
  return words.join(' ')
}

/** Normalized text without the processor and channel prefixes it starts with (up to three rounds). */
function withoutChannelPrefixes(normalized: string): string {
  let text = normalized
  for (let pass = 0; pass < 3; pass += 1) {
    for (const prefix of channelPrefixes) text = text.replace(prefix, '')
  }
  return text
}

const dateLike = /\b[0-9]{1,2}[/.-][0-9]{1,2}([/.-][0-9]{2,4})?\b/g

/**
 * A merchant name guessed from a bank description when the source names no counterparty
 * (`CARD PURCHASE 12/03 STARBUCKS #1234 SEATTLE` → `STARBUCKS`): the description's counterparty name
 * (normalizeCounterpartyName, dates removed first), then its first three words of two or more
 * characters without digits. Undefined when nothing sensible remains; callers record such a
 * counterparty as inferred, with low confidence.
 *
 * This runs for most bank rows, on descriptions of a few hundred characters of which it keeps three
 * words, so it walks the normalized text by index rather than splitting and joining it twice; the
 * result is normalizeCounterpartyName's, word for word (a property test holds the two together).
 */
export function counterpartyFromDescription(description: string, recent?: NormalizedTexts): string | undefined {
  const text = withoutChannelPrefixes(normalizeText(description.replace(dateLike, ' '), recent))
  // The name's words (single spaces, no all-digit word) as [start, end) offsets into `text`.
  const bounds: number[] = []
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf(' ', start)
    if (end === -1) end = text.length
    if (end > start && !digitsOnly(text, start, end)) bounds.push(start, end)
    start = end + 1
  }
  // Legal suffixes leave the end of the name, as long as a word remains.
  let words = bounds.length / 2
  while (words > 1 && legalSuffixes.has(text.slice(bounds[2 * words - 2], bounds[2 * words - 1]))) words -= 1
  let guessed: string | undefined
  let kept = 0
  for (let word = 0; word < words && kept < 3; word += 1) {
    const start = bounds[2 * word]!
    const end = bounds[2 * word + 1]!
    if (end - start < 2 || hasDigit(text, start, end)) continue
    guessed = guessed === undefined ? text.slice(start, end) : `${guessed} ${text.slice(start, end)}`
    kept += 1
  }
  return guessed
}

const isDigit = (code: number) => code >= 48 && code <= 57

function digitsOnly(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index += 1) if (!isDigit(text.charCodeAt(index))) return false
  return true
}

function hasDigit(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index += 1) if (isDigit(text.charCodeAt(index))) return true
  return false
}

/** Keys up to this many UTF-8 bytes are stored as they are. */
export const storedKeyBytesMax = 64

/**
 * A key as `ledger_entity_keys` stores it: itself up to 64 UTF-8 bytes, otherwise `#` and its base64url
 * SHA-256 (44 characters; no key of ours starts with `#`). A transaction's fingerprint key holds its
 * whole normalized description, and stored whole it made the key index several times wider than it
 * needs to be (hashed, 100,000 key inserts took about a quarter less of PostgreSQL's time, measured
 * apart from the pipeline). Only storage and lookups use
 * this form: ids derive from the keys themselves. Migration 0004 computes the same form in SQL.
 */
export function storedKey(key: string): string {
  return Buffer.byteLength(key, 'utf8') <= storedKeyBytesMax ? key : `#${sha256Base64Url(key)}`
}

export function normalizeIban(iban: string): string {
  return iban.replace(/\s+/g, '').toUpperCase()
}

export function normalizeWallet(address: string): string {
  return address.trim().toLowerCase()
}

/** Keys of an account reference, strongest first (at least one). */
export function accountKeys(ref: AccountRef, fallbackCurrency: string, recent?: NormalizedTexts): string[] {
  const keys: string[] = []
  if (ref.iban !== undefined) keys.push(`iban:${normalizeIban(ref.iban)}`)
  if (ref.wallet_address !== undefined) keys.push(`wallet:${ref.chain_id ?? 0}:${normalizeWallet(ref.wallet_address)}`)
  if (ref.external_account_id !== undefined) keys.push(`external:${ref.external_account_id}`)
  if (ref.account_number !== undefined) keys.push(`number:${ref.institution_id ?? ''}:${ref.account_number.replace(/[\s-]+/g, '')}`)
  if (ref.name !== undefined) keys.push(`name:${normalizeText(ref.name, recent)}:${ref.currency ?? fallbackCurrency}`)
  if (keys.length === 0) throw new TypeError('an account reference needs an iban, wallet, external id, number or name')
  return keys
}

/** Keys of a counterparty reference, strongest first; empty when it names nothing usable. */
export function counterpartyKeys(ref: CounterpartyRef, recent?: NormalizedTexts): string[] {
  const keys: string[] = []
  if (ref.iban !== undefined) keys.push(`iban:${normalizeIban(ref.iban)}`)
  if (ref.wallet_address !== undefined) keys.push(`wallet:${normalizeWallet(ref.wallet_address)}`)
  if (ref.tax_id !== undefined) keys.push(`tax:${normalizeText(ref.tax_id, recent).replace(/ /g, '')}`)
  if (ref.email !== undefined) keys.push(`email:${ref.email.trim().toLowerCase()}`)
  if (ref.name !== undefined) {
    const name = normalizeCounterpartyName(ref.name, recent)
    if (name !== '') keys.push(`name:${name}`)
  }
  return keys
}

/**
 * The id of an account, counterparty or transaction first recorded under `seed`, its strongest key
 * then free: the seed needs no key row, since resolution derives the id of every key it does not find.
 */
export function entityIdOf(kind: 'account' | 'counterparty' | 'transaction', tenantId: string, seed: string): string {
  return deterministicId(kind, tenantId, seed)
}

/** A balance's id, from its one key: the account, the day and the balance type. */
export function balanceIdOf(tenantId: string, accountId: string, asOf: string, balanceType: BalanceType): string {
  return deterministicId('balance', tenantId, `${accountId}:${asOf}:${balanceType}`)
}

/** An invoice's id, from its one key: direction, counterparty (none: empty) and number (trimmed). */
export function invoiceIdOf(tenantId: string, direction: InvoiceDirection, counterpartyId: string | undefined, invoiceNumber: string): string {
  return deterministicId('invoice', tenantId, `${direction}:${counterpartyId ?? ''}:${invoiceNumber.trim()}`)
}

/** The id of the obligation every invoice is (a bill to pay, an invoice to collect). */
export function invoiceObligationIdOf(tenantId: string, invoiceId: string): string {
  return deterministicId('obligation', tenantId, `invoice:${invoiceId}`)
}

/** An obligation record's id, from its one key: its type and the source's reference. */
export function obligationIdOf(tenantId: string, obligationType: ObligationType, reference: string): string {
  return deterministicId('obligation', tenantId, `${obligationType}:${reference}`)
}

/**
 * The fingerprint of a transaction, without its occurrence (`fp:` keys append the k-th occurrence). The
 * description is given already normalized (`normalizeDescription`).
 */
export function transactionFingerprint(accountId: string, transactionDate: string, amount: string, normalizedDescription: string): string {
  return `${accountId}:${transactionDate}:${canonicalDecimal(amount)}:${normalizedDescription}`
}

/**
 * An amount as the Ledger stores it: canonical, with at least two decimals for ISO 4217 currencies
 * (`-12.5` → `-12.50`); token amounts keep exactly the precision they came with, canonicalized.
 */
export function ledgerAmount(value: string, currency: string): string {
  const canonical = canonicalDecimal(value)
  if (!/^[A-Z]{3}$/.test(currency)) return canonical
  const [integer, fraction = ''] = canonical.split('.')
  return `${integer}.${fraction.padEnd(2, '0')}`
}
