/**
 * OFX and QFX statements (`ofx_statement`), read with ofx-js: OFX 1.x (SGML, `OFXHEADER:100`) and 2.x
 * (XML, `<?OFX OFXHEADER="200"…?>`), bank statements (BANKMSGSRSV1/STMTTRNRS/STMTRS) and credit card
 * statements (CREDITCARDMSGSRSV1/CCSTMTTRNRS/CCSTMTRS), one or several per file.
 *
 * ofx-js gives every value as a string and an element that occurs once as an object, not an array (a
 * statement with one STMTTRN, a file with one STMTTRNRS), so every list is read through `list()`.
 *
 * Per statement: the `account` (BANKACCTFROM: ACCTID, BANKID, ACCTTYPE; CCACCTFROM: ACCTID; CURDEF),
 * one `transaction` per STMTTRN (FITID → external_transaction_id; TRNAMT, signed as the bank signs it;
 * DTUSER, else DTPOSTED → transaction_date and DTPOSTED → posted_date; NAME and MEMO → description;
 * PAYEE/NAME, else NAME → counterparty name; the currency of a CURRENCY aggregate, else CURDEF), a
 * `closing` balance from LEDGERBAL and an `available` one from AVAILBAL. A statement without STMTTRN
 * (no activity) yields its account and balances and no transactions.
 *
 * Dates are the first eight digits of the OFX date-time: the bank's own calendar date, whatever the
 * time zone suffix says.
 */
import { parseSync } from 'ofx-js'
import type { AccountRef, BalanceRecord, CounterpartyRef, TransactionRecord } from '../../domain/extracted.ts'
import { ParseError, type Parser, type ParserInput, type ParserOutput } from '../parser.ts'
import { isoDate } from './calendar.ts'
import { type ConfidenceLevel, lowestConfidence } from './confidence.ts'
import { formatDecimal, parsePlainDecimal } from './decimal.ts'
import { normalizeIban } from './iban.ts'
import { fileExtension, looksLikeCamt053, looksLikeMt940, looksLikeOfx, mediaEssence, sniffText } from './sniff.ts'
import { decodeWhole, detectEncoding, type DetectedEncoding } from './text-encoding.ts'

const parserName = 'ofx_statement'
const parserVersion = '1.0.0'

const ofxExtensions = new Set(['ofx', 'qfx', 'qbo'])
const ofxMediaTypes = new Set(['application/x-ofx', 'application/ofx', 'application/vnd.intu.qfx', 'application/x-qfx'])

/**
 * ofx-js turns SGML into XML with a regular expression that backtracks exponentially in the length of
 * an upper-case element name (about 15 ms for a 20-character name, doubling with each character). The
 * estimated work, 2^length summed over every element, is bounded so that a hostile or odd file fails
 * in milliseconds instead of hanging: standard OFX names are at most 18 characters and a 20,000-row
 * statement stays two orders of magnitude below this.
 */
const sgmlConversionCostMax = 2 ** 27

/** Transactions per file: far above any real statement, low enough to bound the work. */
const transactionsMax = 1_000_000

type OfxNode = Record<string, unknown>

/** OFX TRNTYPE values whose NAME describes a bank charge or credit rather than naming a payee. */
const bankInternalTypes = new Set(['FEE', 'SRVCHG', 'INT', 'DIV'])

const bankAccountTypes: Readonly<Record<string, 'bank_checking' | 'bank_savings' | 'line_of_credit'>> = {
  CHECKING: 'bank_checking',
  SAVINGS: 'bank_savings',
  MONEYMRKT: 'bank_savings',
  CD: 'bank_savings',
  CREDITLINE: 'line_of_credit',
}

export const ofxStatementParser: Parser = {
  name: parserName,
  version: parserVersion,
  accepts(input) {
    const text = sniffText(input.head)
    if (looksLikeOfx(text)) return true
    if (looksLikeCamt053(text) || looksLikeMt940(text)) return false
    const extension = fileExtension(input.filename)
    return (extension !== undefined && ofxExtensions.has(extension)) || ofxMediaTypes.has(mediaEssence(input.mimeType))
  },
  parse: parseOfxStatement,
}

interface Statement {
  readonly node: OfxNode
  readonly card: boolean
  readonly position: string
}

async function* parseOfxStatement(input: ParserInput): AsyncGenerator<ParserOutput> {
  const text = decodeWhole(await input.buffer(), ofxEncoding(input.head))
  const start = text.indexOf('<OFX>')
  if (start < 0) throw new ParseError('no <OFX> element: the file is not OFX', 'the whole file')
  guardSgmlConversion(text.slice(start))
  let ofx: unknown
  try {
    ofx = parseSync(text).OFX
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const element = /closing tag for (\S+)/.exec(message)?.[1]
    throw new ParseError(`the OFX is malformed or truncated: ${message}`, element === undefined ? undefined : `element <${element}>`)
  }
  const root = node(ofx)
  if (root === undefined) throw new ParseError('the OFX has no content', 'element <OFX>')

  const institution = text_(node(node(node(root.SIGNONMSGSRSV1)?.SONRS)?.FI)?.ORG)
  const statements: Statement[] = []
  const responses = [
    ...list(node(root.BANKMSGSRSV1)?.STMTTRNRS).map((response) => ({ response, card: false })),
    ...list(node(root.CREDITCARDMSGSRSV1)?.CCSTMTTRNRS).map((response) => ({ response, card: true })),
  ]
  responses.forEach(({ response, card }, index) => {
    const wrapper = node(response)
    const position = `${card ? 'CCSTMTTRNRS' : 'STMTTRNRS'} ${index + 1}`
    const statement = node(wrapper?.[card ? 'CCSTMTRS' : 'STMTRS'])
    if (statement === undefined) {
      const status = node(wrapper?.STATUS)
      const code = text_(status?.CODE)
      if (code !== undefined && code !== '0') {
        throw new ParseError(`the bank answered with error ${code}${text_(status?.MESSAGE) === undefined ? '' : `: ${text_(status?.MESSAGE)}`} instead of a statement`, position)
      }
      throw new ParseError(`the response has no ${card ? 'CCSTMTRS' : 'STMTRS'} statement`, position)
    }
    statements.push({ node: statement, card, position })
  })
  if (statements.length === 0) {
    throw new ParseError('no bank or credit card statement: the OFX has no STMTRS or CCSTMTRS', 'element <OFX>')
  }

  const accountsYielded = new Set<string>()
  let transactions = 0
  for (const statement of statements) {
    const { account, accountType } = readAccount(statement)
    const statementCurrency = currencyCode(text_(statement.node.CURDEF), `${statement.position}, CURDEF`)
    const key = JSON.stringify(account)
    if (!accountsYielded.has(key)) {
      accountsYielded.add(key)
      yield {
        type: 'record',
        record: { kind: 'account', account, account_type: accountType, ...(institution === undefined ? {} : { institution }) },
        confidence: lowestConfidence([]),
      }
    }
    const transactionList = node(statement.node.BANKTRANLIST)
    const entries = list(transactionList?.STMTTRN)
    for (const [index, entry] of entries.entries()) {
      transactions += 1
      if (transactions > transactionsMax) throw new ParseError(`the file has more than ${transactionsMax} transactions`, statement.position)
      const read = readTransaction(node(entry), account, statementCurrency, `${statement.position}, STMTTRN ${index + 1}`)
      yield { type: 'record', record: read.transaction, confidence: lowestConfidence(read.levels) }
    }
    const statementEnd = text_(transactionList?.DTEND)
    for (const [element, balanceType] of [['LEDGERBAL', 'closing'], ['AVAILBAL', 'available']] as const) {
      const balance = readBalance(node(statement.node[element]), balanceType, account, statementCurrency, statementEnd, `${statement.position}, ${element}`)
      if (balance !== undefined) yield { type: 'record', record: balance, confidence: lowestConfidence([]) }
    }
  }
}

/** The encoding the OFX header declares (`CHARSET:1252`, `ENCODING:UTF-8`, `<?xml encoding=…?>`), else the detected one. */
function ofxEncoding(head: Buffer): DetectedEncoding {
  const detected = detectEncoding(head)
  if (detected.byteOrderMark) return detected
  const header = head.subarray(0, 1024).toString('latin1')
  if (/^\s*ENCODING\s*:\s*UTF-?8/im.test(header) || /<\?xml[^>]*encoding\s*=\s*["']utf-8["']/i.test(header)) return { encoding: 'utf-8', byteOrderMark: false }
  if (/^\s*CHARSET\s*:\s*(1252|(ISO-?)?8859-1)\b/im.test(header) || /<\?xml[^>]*encoding\s*=\s*["'](windows-1252|iso-8859-1|latin1)["']/i.test(header)) {
    return { encoding: 'windows-1252', byteOrderMark: false }
  }
  return detected
}

function guardSgmlConversion(body: string): void {
  let cost = 0
  for (const match of body.matchAll(/<([A-Z0-9_]+)/g)) {
    cost += 2 ** (match[1]?.length ?? 0)
    if (cost > sgmlConversionCostMax) {
      throw new ParseError(`the OFX element names are too long to read safely (<${match[1]?.slice(0, 40)}…>): standard OFX names are short`, `element <${match[1]?.slice(0, 40)}>`)
    }
  }
}

function node(value: unknown): OfxNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as OfxNode) : undefined
}

/** ofx-js gives one element as a value and several as an array; absent is undefined. */
function list(value: unknown): unknown[] {
  if (value === undefined || value === null || value === '') return []
  return Array.isArray(value) ? value : [value]
}

/** A leaf's text, trimmed; undefined when absent, empty or not a leaf. */
function text_(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const trimmed = value.trim()
  return trimmed === '' ? undefined : trimmed
}

function currencyCode(value: string | undefined, position: string): string {
  if (value === undefined) throw new ParseError('the statement names no currency (CURDEF)', position)
  const code = value.toUpperCase()
  if (!/^[A-Z]{3}$/.test(code)) throw new ParseError(`currency ${JSON.stringify(value)} is not an ISO 4217 code`, position)
  return code
}

function readDate(value: string | undefined, position: string): string {
  if (value === undefined) throw new ParseError('the date is missing', position)
  const match = /^(\d{4})(\d{2})(\d{2})/.exec(value)
  const date = match === null ? undefined : isoDate(Number(match[1]), Number(match[2]), Number(match[3]))
  if (date === undefined) throw new ParseError(`${JSON.stringify(value)} is not an OFX date`, position)
  return date
}

function readAmount(value: string | undefined, currency: string, position: string): string {
  const parts = value === undefined ? undefined : parsePlainDecimal(value)
  if (parts === undefined) throw new ParseError(`${value === undefined ? 'the amount is missing' : `${JSON.stringify(value)} is not an amount`}`, position)
  return formatDecimal(parts, currency)
}

function readAccount(statement: Statement): { account: AccountRef; accountType: 'bank_checking' | 'bank_savings' | 'line_of_credit' | 'card' } {
  const from = node(statement.node[statement.card ? 'CCACCTFROM' : 'BANKACCTFROM'])
  const accountId = text_(from?.ACCTID)
  if (accountId === undefined) throw new ParseError(`the statement has no account id (${statement.card ? 'CCACCTFROM' : 'BANKACCTFROM'}/ACCTID)`, statement.position)
  const currency = currencyCode(text_(statement.node.CURDEF), `${statement.position}, CURDEF`)
  const iban = normalizeIban(accountId)
  const bankId = text_(from?.BANKID)
  const account: AccountRef = {
    ...(iban === undefined ? {} : { iban }),
    account_number: accountId,
    ...(bankId === undefined ? {} : { institution_id: bankId }),
    currency,
  }
  if (statement.card) return { account, accountType: 'card' }
  const type = text_(from?.ACCTTYPE)?.toUpperCase()
  return { account, accountType: (type === undefined ? undefined : bankAccountTypes[type]) ?? 'bank_checking' }
}

function readTransaction(entry: OfxNode | undefined, account: AccountRef, statementCurrency: string, position: string): { transaction: TransactionRecord; levels: ConfidenceLevel[] } {
  if (entry === undefined) throw new ParseError('the STMTTRN is empty', position)
  const fitId = text_(entry.FITID)
  const where = fitId === undefined ? position : `${position} (FITID ${fitId})`
  const currencyNode = node(entry.CURRENCY)
  const currency = currencyNode === undefined ? statementCurrency : currencyCode(text_(currencyNode.CURSYM), `${where}, CURRENCY/CURSYM`)
  const amount = readAmount(text_(entry.TRNAMT), currency, `${where}, TRNAMT`)
  const postedDate = readDate(text_(entry.DTPOSTED), `${where}, DTPOSTED`)
  const userDate = text_(entry.DTUSER) === undefined ? undefined : readDate(text_(entry.DTUSER), `${where}, DTUSER`)
  const type = text_(entry.TRNTYPE)?.toUpperCase()
  const name = text_(entry.NAME) ?? text_(node(entry.PAYEE)?.NAME)
  const memo = text_(entry.MEMO)
  const levels: ConfidenceLevel[] = []

  const counterparty: { -readonly [K in keyof CounterpartyRef]: CounterpartyRef[K] } = {}
  const payeeName = text_(node(entry.PAYEE)?.NAME)
  if (payeeName !== undefined) counterparty.name = payeeName
  else if (name !== undefined && !bankInternalTypes.has(type ?? '') && !/^(CHECK|CHEQUE)\s*#?\s*\d+$/i.test(name)) {
    // OFX defines NAME as "name of payee or description of transaction": a payee by convention only.
    counterparty.name = name
    levels.push('convention')
  }
  const toAccount = text_(node(entry.BANKACCTTO)?.ACCTID) ?? text_(node(entry.CCACCTTO)?.ACCTID)
  if (toAccount !== undefined) {
    const iban = normalizeIban(toAccount)
    if (iban === undefined) counterparty.account_number = toAccount
    else counterparty.iban = iban
  }

  const original = node(entry.ORIGCURRENCY)
  const details: Record<string, unknown> = {}
  if (type !== undefined) details.transaction_type = type
  for (const [element, key] of [
    ['CHECKNUM', 'check_number'],
    ['REFNUM', 'reference_number'],
    ['SRVRTID', 'server_transaction_id'],
    ['SIC', 'sic'],
    ['CORRECTFITID', 'correct_fitid'],
    ['CORRECTACTION', 'correct_action'],
  ] as const) {
    const value = text_(entry[element])
    if (value !== undefined) details[key] = value
  }
  if (original !== undefined) details.original_currency = { currency: text_(original.CURSYM), rate: text_(original.CURRATE) }
  if (currencyNode !== undefined) details.currency_rate = text_(currencyNode.CURRATE)

  const transaction: TransactionRecord = {
    kind: 'transaction',
    account,
    ...(fitId === undefined ? {} : { external_transaction_id: fitId }),
    amount,
    currency,
    transaction_date: userDate ?? postedDate,
    posted_date: postedDate,
    status: 'posted',
    description: describe(name, memo),
    ...(Object.keys(counterparty).length > 0 ? { counterparty } : {}),
    ...(Object.keys(details).length > 0 ? { details } : {}),
  }
  return { transaction, levels }
}

/** NAME and MEMO as one description; when one contains the other, the longer alone. */
function describe(name: string | undefined, memo: string | undefined): string {
  if (name === undefined) return memo ?? ''
  if (memo === undefined || name.includes(memo)) return name
  if (memo.includes(name)) return memo
  return `${name} - ${memo}`
}

function readBalance(
  balance: OfxNode | undefined,
  balanceType: 'closing' | 'available',
  account: AccountRef,
  currency: string,
  statementEnd: string | undefined,
  position: string,
): BalanceRecord | undefined {
  if (balance === undefined) return undefined
  const amountText = text_(balance.BALAMT)
  if (amountText === undefined) return undefined
  const asOf = text_(balance.DTASOF) ?? statementEnd
  if (asOf === undefined) throw new ParseError('the balance has no date (DTASOF) and the statement no end date (DTEND)', position)
  return {
    kind: 'balance',
    account,
    balance_type: balanceType,
    as_of: readDate(asOf, `${position}, DTASOF`),
    amount: readAmount(amountText, currency, `${position}, BALAMT`),
    currency,
  }
}
