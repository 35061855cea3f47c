/**
 * SWIFT MT940 customer statements (`mt940_statement`), read with mt940js: plain tag files and files
 * wrapped in SWIFT blocks (`{1:…}{2:…}{4:` … `-}`), one or several statements per file.
 *
 * mt940js groups the tags into statements and checks them (mandatory tags, one currency, opening
 * balance + lines = closing balance), but its amounts are floats rounded to two decimals and its dates
 * UTC-midnight Dates that take the entry date's year from the value date. So every amount and date is
 * read again here from the raw tag text (`withTags`), as digits, with the calendar checked; the
 * library's float must agree with the exact decimal to the cent. Before the library runs, every tag line
 * is checked against the MT940 field formats, so a broken line is reported with its line number.
 *
 * Per statement: the `account` from :25: (an IBAN, `BIC/IBAN`, `BLZ/account`, `IBAN EUR`; once per
 * account), `opening` from :60F:/:60M:, `closing` from :62F:/:62M:, `available` from :64:, and one
 * `transaction` per :61: line: value date → posted_date, entry date (else the value date) →
 * transaction_date, D/C/RD/RC → sign (a reversal of a credit is money out) and status `reversed` for
 * RD/RC, the bank reference (else the customer reference, unless NONREF) → external_transaction_id, the
 * :86: information → description and counterparty. :86: is read as the German DK layout (`?20`–`?29`
 * purpose with SEPA keywords EREF+/SVWZ+…, `?32`/`?33` name, `?31` IBAN), the slash layout (`/REMI/`,
 * `/NAME/`, `/CNTP/iban/bic/name/`, `/IBAN/`), or, without either, as free text. Sub-field layouts are
 * bank conventions, not part of MT940: records that rely on one have confidence 0.9.
 */
import mt940js, { type Mt940Statement } from 'mt940js'
import { addDays } from '../../../../kernel/dates.ts'
import type { AccountRef, BalanceRecord, CounterpartyRef, TransactionRecord } from '../../domain/extracted.ts'
import { ParseError, type Parser, type ParserInput, type ParserOutput } from '../parser.ts'
import { fullYear, isoDate } from './calendar.ts'
import { type ConfidenceLevel, lowestConfidence } from './confidence.ts'
import { formatDecimal, parsePlainDecimal } from './decimal.ts'
import { normalizeIban } from './iban.ts'
import { fileExtension, looksLikeCamt053, looksLikeMt940, looksLikeOfx, looksLikeXml, mediaEssence, sniffText } from './sniff.ts'
import { decodeWhole } from './text-encoding.ts'

const parserName = 'mt940_statement'
const parserVersion = '1.0.0'

const mt940Extensions = new Set(['sta', 'mt940', '940', 'swi'])
const mt940MediaTypes = new Set(['application/x-mt940', 'text/x-mt940'])

/** Tags mt940js reads; :13:/:13D: (creation time, written by some banks) are dropped before it runs. */
const knownTags = new Set(['20', '21', '25', '28', '60', '61', '62', '64', '65', '86', 'NS'])
const droppedTags = new Set(['13'])

/**
 * How far mt940js's float may be from the exact amount: it rounds to cents (half a cent at most, for
 * three-decimal currencies) and carries float error. Anything further means the two readings disagree.
 */
const libraryRoundingMax = 0.0051

/** Statement lines per file: far above any real statement, low enough to bound the work. */
const statementLinesMax = 1_000_000

/** The :61: statement line, as mt940js reads it (sub-fields 1–9). */
const statementLinePattern =
  /^(\d{2})(\d{2})(\d{2})((\d{2})(\d{2}))?(R?[DC])([A-Z])?([0-9,]{0,16})([A-Z][A-Z0-9]{3})([^/\n]{0,16})(\/\/(.{0,16}))?(\n(.{0,34}))?/
/** :60F: :60M: :62F: :62M: :64: :65: */
const balancePattern = /^([DC])(\d{2})(\d{2})(\d{2})([A-Z]{3})(\d{1,15},\d*)$/

/** The amount sub-field: digits, one decimal comma, at most 15 characters. */
const amountPattern = /^\d{1,14},\d*$/

interface RawTag {
  readonly id: string
  readonly subId: string
  readonly line: number
  readonly text: string
}

interface StatementLine {
  readonly valueDate: string
  readonly entryDate: string | undefined
  readonly mark: 'D' | 'C' | 'RD' | 'RC'
  readonly amountDigits: string
  readonly transactionType: string
  readonly customerReference: string
  readonly bankReference: string
  readonly supplementary: string
}

export const mt940StatementParser: Parser = {
  name: parserName,
  version: parserVersion,
  accepts(input) {
    const text = sniffText(input.head)
    if (looksLikeMt940(text)) return true
    if (looksLikeXml(text) || looksLikeOfx(text) || looksLikeCamt053(text)) return false
    const extension = fileExtension(input.filename)
    return (extension !== undefined && mt940Extensions.has(extension)) || mt940MediaTypes.has(mediaEssence(input.mimeType))
  },
  parse: parseMt940,
}

async function* parseMt940(input: ParserInput): AsyncGenerator<ParserOutput> {
  const text = decodeWhole(await input.buffer()).replace(/\r\n?/g, '\n')
  const tags = scanTags(text)
  let statements: Mt940Statement[]
  try {
    statements = new mt940js.Parser().parse(keptText(text, tags), true)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const group = /in group (\d+)/.exec(message)?.[1]
    throw new ParseError(`the MT940 statement is not valid: ${message}`, group === undefined ? undefined : `statement ${group}`)
  }
  if (statements.length === 0) throw new ParseError('no statement: the file has no :20: tag', 'the whole file')

  const accountsYielded = new Set<string>()
  let lines = 0
  for (const [statementIndex, statement] of statements.entries()) {
    const position = `statement ${statementIndex + 1} (:20:${statement.transactionReference}, :28C:${statement.number.statement})`
    const currency = statement.currency
    const account = readAccount(statement.accountIdentification, currency, position)
    const key = JSON.stringify(account)
    if (!accountsYielded.has(key)) {
      accountsYielded.add(key)
      yield { type: 'record', record: { kind: 'account', account }, confidence: lowestConfidence([]) }
    }
    const statementTags = statement.tags ?? []
    const lineTags = statementTags.filter((tag) => tag.id === 61)
    // An opening balance is the balance at the start of its day (the contract, extracted.ts). :60F: is
    // usually dated the previous statement's closing day, sometimes the first day of this one: the
    // opening is the day after it, or this statement's first booking day if that is earlier.
    const firstBookingDay = lineTags
      .map((tag) => readStatementLine(tag.data))
      .map((line) => line?.entryDate ?? line?.valueDate)
      .filter((day): day is string => day !== undefined)
      .sort()[0]
    for (const tag of statementTags) {
      const balanceType = tag.id === 60 ? 'opening' : tag.id === 62 ? 'closing' : tag.id === 64 ? 'available' : undefined
      if (balanceType === undefined) continue
      const balance = readBalance(tag.data, balanceType, account, position)
      if (balanceType === 'opening') {
        const dayAfter = addDays(balance.as_of, 1)
        balance.as_of = firstBookingDay !== undefined && firstBookingDay < dayAfter ? firstBookingDay : dayAfter
      }
      yield { type: 'record', record: balance, confidence: lowestConfidence([]) }
    }
    if (lineTags.length !== statement.transactions.length) {
      throw new ParseError(`mt940js read ${statement.transactions.length} transactions but the statement has ${lineTags.length} :61: lines`, position)
    }
    for (const [index, tag] of lineTags.entries()) {
      lines += 1
      if (lines > statementLinesMax) throw new ParseError(`the file has more than ${statementLinesMax} statement lines`, position)
      const libraryTransaction = statement.transactions[index]!
      const line = readStatementLine(tag.data)
      if (line === undefined) throw new ParseError(`cannot read the :61: line ${JSON.stringify(tag.data)}`, `${position}, :61: ${index + 1}`)
      const read = buildTransaction(line, libraryTransaction.details, libraryTransaction.structuredDetails, account, currency)
      if (Math.abs(Number(read.transaction.amount) - libraryTransaction.amount) > libraryRoundingMax) {
        throw new ParseError(`the :61: amount ${read.transaction.amount} does not match what mt940js read (${libraryTransaction.amount})`, `${position}, :61: ${index + 1}`)
      }
      yield { type: 'record', record: read.transaction, confidence: lowestConfidence(read.levels) }
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Checking the tags before mt940js reads them

/** The tags of the file with their line numbers, each checked against its field format. */
function scanTags(text: string): RawTag[] {
  const tags: { id: string; subId: string; line: number; lines: string[] }[] = []
  let current: (typeof tags)[number] | undefined
  text.split('\n').forEach((content, index) => {
    const line = index + 1
    if (content === '' || content === '-') return
    const match = /^:([0-9]{2}|NS)([A-Z])?:/.exec(content)
    if (match !== null) {
      current = { id: match[1] ?? '', subId: match[2] ?? '', line, lines: [content.slice(match[0].length)] }
      tags.push(current)
    } else if (content.startsWith('{') || content.startsWith('-}')) {
      current = { id: 'MB', subId: '', line, lines: [content.trim()] }
      tags.push(current)
    } else if (current === undefined) {
      throw new ParseError(`text before the first tag: ${JSON.stringify(content.slice(0, 40))}`, `line ${line}`)
    } else {
      current.lines.push(content)
    }
  })
  const first = tags.find((tag) => tag.id !== 'MB')
  if (first === undefined) throw new ParseError('no MT940 tags: the file has no :20: tag', 'the whole file')
  if (tags[0]?.id !== 'MB' && tags[0]?.id !== '20') throw new ParseError(`the statement starts with :${tags[0]?.id}: instead of :20:`, `line ${tags[0]?.line}`)
  const checked = tags.map((tag) => ({ id: tag.id, subId: tag.subId, line: tag.line, text: tag.lines.join('\n') }))
  for (const tag of checked) checkTag(tag)
  return checked
}

function checkTag(tag: RawTag): void {
  const where = `line ${tag.line}`
  if (tag.id === 'MB' || droppedTags.has(tag.id)) return
  if (!knownTags.has(tag.id)) throw new ParseError(`unknown MT940 tag :${tag.id}${tag.subId}:`, where)
  if (tag.id === '61') {
    const problem = statementLineProblem(tag.text)
    if (problem !== undefined) throw new ParseError(`cannot read the :61: statement line ${JSON.stringify(tag.text.split('\n')[0])}: ${problem}`, where)
  }
  if (['60', '62', '64', '65'].includes(tag.id)) {
    const match = balancePattern.exec(tag.text.trim())
    if (match === null) throw new ParseError(`cannot read the :${tag.id}${tag.subId}: balance ${JSON.stringify(tag.text)}: expected D/C, YYMMDD, currency and amount like C240229EUR1234,56`, where)
    if (isoDate(fullYear(match[2] ?? ''), Number(match[3]), Number(match[4])) === undefined) {
      throw new ParseError(`the :${tag.id}${tag.subId}: balance date ${match[2]}${match[3]}${match[4]} is not a calendar date`, where)
    }
  }
}

/** Why a :61: line does not read, in words; undefined when it does. */
function statementLineProblem(text: string): string | undefined {
  if (!/^\d{6}/.test(text)) return 'it does not start with a value date YYMMDD'
  const match = statementLinePattern.exec(text)
  if (match === null) {
    return 'expected value date YYMMDD, optional entry date MMDD, D, C, RD or RC, the amount with a decimal comma, and a transaction type such as NTRF'
  }
  if (isoDate(fullYear(match[1] ?? ''), Number(match[2]), Number(match[3])) === undefined) return `the value date ${text.slice(0, 6)} is not a calendar date`
  if (readStatementLine(text) === undefined) return `the entry date ${match[5]}${match[6]} is not a calendar date`
  if (!amountPattern.test(match[9] ?? '')) return `the amount ${JSON.stringify(match[9] ?? '')} is not digits with one decimal comma`
  return undefined
}

/** The text mt940js gets: the tags it knows, in their original lines (creation-time tags dropped). */
function keptText(text: string, tags: readonly RawTag[]): string {
  const dropped = tags.filter((tag) => droppedTags.has(tag.id))
  if (dropped.length === 0) return text
  return tags
    .filter((tag) => !droppedTags.has(tag.id))
    .map((tag) => (tag.id === 'MB' ? tag.text : `:${tag.id}${tag.subId}:${tag.text}`))
    .join('\n')
}

// ---------------------------------------------------------------------------------------------------
// Reading the raw fields

function readStatementLine(text: string): StatementLine | undefined {
  const match = statementLinePattern.exec(text)
  if (match === null) return undefined
  const year = fullYear(match[1] ?? '')
  const valueMonth = Number(match[2])
  const valueDate = isoDate(year, valueMonth, Number(match[3]))
  if (valueDate === undefined) return undefined
  let entryDate: string | undefined
  if (match[4] !== undefined) {
    const entryMonth = Number(match[5])
    // The entry date has no year: it is the value date's, unless the two straddle a year end.
    const entryYear = entryMonth - valueMonth > 6 ? year - 1 : valueMonth - entryMonth > 6 ? year + 1 : year
    entryDate = isoDate(entryYear, entryMonth, Number(match[6]))
    if (entryDate === undefined) return undefined
  }
  return {
    valueDate,
    entryDate,
    mark: match[7] as StatementLine['mark'],
    amountDigits: match[9] ?? '',
    transactionType: match[10] ?? '',
    customerReference: (match[11] ?? '').trim(),
    bankReference: (match[13] ?? '').trim(),
    supplementary: (match[15] ?? '').trim(),
  }
}

function readBalance(text: string, balanceType: BalanceRecord['balance_type'], account: AccountRef, position: string): BalanceRecord {
  const match = balancePattern.exec(text.trim())
  const date = match === null ? undefined : isoDate(fullYear(match[2] ?? ''), Number(match[3]), Number(match[4]))
  const parts = match === null ? undefined : parsePlainDecimal(match[6] ?? '')
  if (match === null || date === undefined || parts === undefined) throw new ParseError(`cannot read the balance ${JSON.stringify(text)}`, position)
  const currency = match[5] ?? ''
  return { kind: 'balance', account, balance_type: balanceType, as_of: date, amount: formatDecimal({ ...parts, negative: match[1] === 'D' }, currency), currency }
}

/**
 * :25: as banks write it: an IBAN, `BIC/IBAN`, `BLZ/account number`, an account number, sometimes
 * followed by the currency (`NL44RABO0123456789 EUR`).
 */
function readAccount(identification: string, currency: string, position: string): AccountRef {
  const text = identification.trim().replace(/\s*\b[A-Z]{3}$/, (suffix) => (suffix.trim() === currency ? '' : suffix)).trim()
  if (text === '') throw new ParseError('the :25: account identification is empty', position)
  const slash = text.indexOf('/')
  const institution = slash > 0 ? text.slice(0, slash).trim() : undefined
  const number = (slash > 0 ? text.slice(slash + 1) : text).trim()
  const iban = normalizeIban(number)
  return {
    ...(iban === undefined ? { account_number: number } : { iban }),
    ...(institution === undefined || institution === '' ? {} : { institution_id: institution }),
    currency,
  }
}

// ---------------------------------------------------------------------------------------------------
// Transactions and :86:

const sepaKeywords = ['EREF', 'KREF', 'MREF', 'CRED', 'DEBT', 'SVWZ', 'ABWA', 'ABWE', 'IBAN', 'BIC'] as const

interface Information {
  description: string
  counterparty: CounterpartyRef | undefined
  details: Record<string, string>
  /** True when a bank-specific sub-field layout was interpreted. */
  structured: boolean
}

function buildTransaction(
  line: StatementLine,
  information: string,
  structure: Readonly<Record<string, string>> | undefined,
  account: AccountRef,
  currency: string,
): { transaction: TransactionRecord; levels: ConfidenceLevel[] } {
  const parts = parsePlainDecimal(line.amountDigits)
  if (parts === undefined) throw new ParseError(`the :61: amount ${JSON.stringify(line.amountDigits)} is not a number`)
  // D is money out; a reversal turns the direction round (RC reverses a credit: money out).
  const negative = line.mark === 'D' || line.mark === 'RC'
  const amount = formatDecimal({ ...parts, negative }, currency)
  const read = readInformation(information, structure)
  const reference = line.bankReference || (line.customerReference.toUpperCase() === 'NONREF' ? '' : line.customerReference)
  const details: Record<string, string | boolean> = {
    transaction_type_code: line.transactionType,
    ...(line.customerReference === '' ? {} : { customer_reference: line.customerReference }),
    ...(line.bankReference === '' ? {} : { bank_reference: line.bankReference }),
    ...(line.supplementary === '' ? {} : { supplementary_details: line.supplementary }),
    ...read.details,
  }
  // The line is itself a booking that undoes an earlier one: it is posted (it moves the balance), and
  // details.reversal says what it is. Status `reversed` is for a transaction that was undone.
  const reversal = line.mark.startsWith('R')
  const description = read.description || line.supplementary || line.transactionType
  return {
    transaction: {
      kind: 'transaction',
      account,
      ...(reference === '' ? {} : { external_transaction_id: reference }),
      amount,
      currency,
      transaction_date: line.entryDate ?? line.valueDate,
      posted_date: line.valueDate,
      status: 'posted',
      description,
      ...(read.counterparty === undefined ? {} : { counterparty: read.counterparty }),
      details: reversal ? { ...details, reversal: true } : details,
    },
    levels: read.structured ? ['convention'] : [],
  }
}

function collapse(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim()
}

function counterpartyOf(name: string, account: string): CounterpartyRef | undefined {
  const iban = account === '' ? undefined : normalizeIban(account)
  const counterparty: CounterpartyRef = {
    ...(name === '' ? {} : { name }),
    ...(iban !== undefined ? { iban } : account === '' ? {} : { account_number: account }),
  }
  return Object.keys(counterparty).length > 0 ? counterparty : undefined
}

function readInformation(information: string, structure: Readonly<Record<string, string>> | undefined): Information {
  if (structure !== undefined && ('20' in structure || '32' in structure || '00' in structure)) return readGermanLayout(structure)
  if (structure !== undefined && Object.keys(structure).some((key) => /^[A-Z]{2,4}$/.test(key))) return readSlashLayout(structure)
  return { description: collapse(information.replace(/\n/g, ' ')), counterparty: undefined, details: {}, structured: false }
}

/** DK layout: ?00 posting text, ?20–?29 and ?60–?63 purpose, ?30 BIC, ?31 IBAN, ?32–?33 name. */
function readGermanLayout(structure: Readonly<Record<string, string>>): Information {
  const purposeKeys = Object.keys(structure)
    .filter((key) => /^(2\d|6[0-3])$/.test(key))
    .sort()
  const purpose = purposeKeys.map((key) => structure[key] ?? '').join('')
  const details: Record<string, string> = {}
  if (structure.gvc !== undefined) details.transaction_code = structure.gvc
  if (structure['00']) details.posting_text = structure['00'].trim()
  let description = purpose
  const keywordPattern = new RegExp(`(${sepaKeywords.join('|')})\\+`, 'g')
  const markers = [...purpose.matchAll(keywordPattern)]
  if (markers.length > 0) {
    const values: Record<string, string> = {}
    markers.forEach((marker, index) => {
      const start = (marker.index ?? 0) + marker[0].length
      const end = markers[index + 1]?.index ?? purpose.length
      values[marker[1] ?? ''] = purpose.slice(start, end).trim()
    })
    description = values.SVWZ ?? purpose.slice(0, markers[0]?.index ?? 0)
    if (values.EREF !== undefined && values.EREF !== 'NOTPROVIDED') details.end_to_end_id = values.EREF
    if (values.MREF !== undefined) details.mandate_id = values.MREF
    if (values.CRED !== undefined) details.creditor_id = values.CRED
  }
  description = collapse(description) || collapse(structure['00'])
  const name = collapse(`${structure['32'] ?? ''}${structure['33'] ?? ''}`)
  return { description, counterparty: counterpartyOf(name, collapse(structure['31'])), details, structured: true }
}

/** Slash layout: /REMI/ purpose, /NAME/ or /CNTP/iban/bic/name/city/, /IBAN/, /EREF/. */
function readSlashLayout(structure: Readonly<Record<string, string>>): Information {
  const trimSlashes = (value: string | undefined) => collapse(value?.replace(/^\/+|\/+$/g, ''))
  const counterpartyParts = (structure.CNTP ?? '').split('/')
  const name = trimSlashes(structure.NAME) || collapse(counterpartyParts[2])
  const account = trimSlashes(structure.IBAN) || collapse(counterpartyParts[0])
  const details: Record<string, string> = {}
  const endToEnd = trimSlashes(structure.EREF)
  if (endToEnd !== '' && endToEnd !== 'NOTPROVIDED') details.end_to_end_id = endToEnd
  return { description: trimSlashes(structure.REMI), counterparty: counterpartyOf(name, account), details, structured: true }
}

