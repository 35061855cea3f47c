/**
 * The account a CSV statement belongs to. A CSV export rarely names its account, so it comes from what
 * the ingester said (`source_ref`: `account_name`, `account_number`, `iban`, `institution_id`,
 * `institution`, `account_type`, `currency`) or, failing that, from the file name.
 */
import type { AccountRef } from '../../domain/extracted.ts'
import { ParseError } from '../parser.ts'
import { normalizeIban } from './iban.ts'

const accountTypes = ['bank_checking', 'bank_savings', 'card', 'loan', 'line_of_credit', 'onchain', 'payment_processor'] as const
type AccountType = (typeof accountTypes)[number]

export interface SourceAccount {
  readonly account: AccountRef
  readonly accountType: AccountType | undefined
  readonly institution: string | undefined
  /** The currency the ingester named, if any. */
  readonly currency: string | undefined
  /** True when the account had to be named after the file (a convention, not a fact). */
  readonly namedAfterFile: boolean
}

function text(sourceRef: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = sourceRef[key]
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

/**
 * The account name a file name suggests: the name without its extension and without the dates and
 * periods exporters add (`Geschaeftskonto_2024-03.csv` and `Geschaeftskonto_2024-04.csv` name the same
 * account). Falls back to the whole stem when nothing else is left.
 */
export function accountNameFromFilename(filename: string): string {
  const stem = filename.replace(/^.*[\\/]/, '').replace(/\.[A-Za-z0-9]{1,10}$/, '')
  const withoutDates = stem
    .replace(/\d{4}[-_.]?\d{2}[-_.]?\d{2}/g, ' ')
    .replace(/\d{2}[-_.]\d{2}[-_.]\d{4}/g, ' ')
    .replace(/\d{4}[-_.]\d{2}/g, ' ')
    .replace(/\b(19|20)\d{2}\b/g, ' ')
    .replace(/[-_.\s]+/g, ' ')
    .trim()
  return withoutDates === '' ? stem : withoutDates
}

export function accountFromSource(sourceRef: Readonly<Record<string, unknown>>, filename: string | null): SourceAccount {
  let currency = text(sourceRef, 'currency')?.toUpperCase()
  if (currency !== undefined && !/^([A-Z]{3}|[A-Z0-9]{2,10})$/.test(currency)) {
    throw new ParseError(`source_ref currency ${JSON.stringify(currency)} is not an ISO 4217 code`, 'source_ref.currency')
  }
  const account: { -readonly [K in keyof AccountRef]: AccountRef[K] } = {}
  const rawIban = text(sourceRef, 'iban')
  if (rawIban !== undefined) {
    const iban = normalizeIban(rawIban)
    if (iban === undefined) throw new ParseError(`source_ref iban ${JSON.stringify(rawIban)} is not a valid IBAN`, 'source_ref.iban')
    account.iban = iban
  }
  const accountNumber = text(sourceRef, 'account_number')
  if (accountNumber !== undefined) account.account_number = accountNumber
  const institutionId = text(sourceRef, 'institution_id')
  if (institutionId !== undefined) account.institution_id = institutionId
  const name = text(sourceRef, 'account_name')
  if (name !== undefined) account.name = name
  let namedAfterFile = false
  if (account.iban === undefined && account.account_number === undefined && account.name === undefined) {
    if (filename === null || filename.trim() === '') {
      throw new ParseError('no account: source_ref names no account (account_name, account_number or iban) and the file has no name')
    }
    account.name = accountNameFromFilename(filename)
    namedAfterFile = true
  }
  if (currency !== undefined) account.currency = currency
  const accountType = text(sourceRef, 'account_type')
  return {
    account,
    accountType: accountTypes.find((type) => type === accountType),
    institution: text(sourceRef, 'institution'),
    currency,
    namedAfterFile,
  }
}
