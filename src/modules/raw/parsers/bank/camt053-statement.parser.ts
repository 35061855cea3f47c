/**
 * ISO 20022 bank-to-customer statements, CAMT.053 (`camt053_statement`), versions camt.053.001.02 and
 * later (the element names this parser reads are the same through .08 and beyond; where versions differ
 * both forms are read: `Sts` as a code (≤ .06) or `Sts/Cd` (≥ .07), a party's `Nm` directly (≤ .06) or
 * under `Pty` (≥ .08), `BIC` or `BICFI`).
 *
 * fast-xml-parser reads the document with namespace prefixes removed, attributes kept (`Ccy`), values
 * left as strings (amounts are never numbers) and the repeating elements (Stmt, Bal, Ntry, NtryDtls,
 * TxDtls, Ustrd) always arrays. The document is validated first, so a truncated file is refused with
 * the line and column where it breaks.
 *
 * Per Stmt: the `account` (Acct/Id/IBAN or Acct/Id/Othr/Id, Acct/Ccy, the servicer's BIC; an account
 * seen in an earlier Stmt is not repeated); balances from Bal (OPBD and PRCD → opening, CLBD → closing,
 * ITBD → current, CLAV and ITAV → available; signed by CdtDbtInd); one `transaction` per Ntry:
 * - amount: Amt signed by CdtDbtInd (DBIT is money out); with RvslInd true, details.reversal is true:
 *   the entry is a posted booking that undoes an earlier one and moves the balance (status `reversed`
 *   is for a transaction that was undone), and CdtDbtInd is, as ISO 20022 defines it, the direction of
 *   the reversal entry itself;
 * - status: BOOK → posted, PDNG and FUTR → pending; INFO entries (information only, never booked) are
 *   skipped;
 * - transaction_date from BookgDt, posted_date from ValDt (Dt, or the date part of DtTm as written);
 * - external_transaction_id: AcctSvcrRef, else the single TxDtls' AcctSvcrRef or EndToEndId (unless
 *   NOTPROVIDED); never NtryRef, which banks may number 1, 2, 3… per statement (so it is not kept);
 * - description: the remittance information (RmtInf/Ustrd, joined) of a single transaction, else
 *   AddtlTxInf, else AddtlNtryInf;
 * - counterparty: the other party of a single transaction — the debtor of a credit, the creditor of a
 *   debit (and the other way round for a reversal) — with its IBAN. A batch entry (several TxDtls) is
 *   one transaction, as the bank booked it; its parts are listed in details.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import type { AccountRef, BalanceRecord, CounterpartyRef, TransactionRecord } from '../../domain/extracted.ts'
import { ParseError, type Parser, type ParserInput, type ParserOutput } from '../parser.ts'
import { isoDate } from './calendar.ts'
import { lowestConfidence } from './confidence.ts'
import { formatDecimal, parsePlainDecimal } from './decimal.ts'
import { normalizeIban } from './iban.ts'
import { fileExtension, looksLikeCamt053, mediaEssence, sniffText } from './sniff.ts'
import { decodeWhole, detectEncoding } from './text-encoding.ts'

const parserName = 'camt053_statement'
const parserVersion = '1.0.0'

/** Elements that may repeat and are therefore always read as arrays. */
const repeatingElements = new Set(['Stmt', 'Bal', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'AddtlTxInf'])

/** Entries per file: far above any real statement, low enough to bound the work. */
const entriesMax = 1_000_000

/** XML nesting deeper than this is not a CAMT document (the schema nests about 12 levels). */
const xmlNestingMax = 64

const balanceTypes: Readonly<Record<string, BalanceRecord['balance_type']>> = {
  OPBD: 'opening',
  PRCD: 'opening',
  CLBD: 'closing',
  ITBD: 'current',
  CLAV: 'available',
  ITAV: 'available',
}

type XmlNode = Record<string, unknown>

const xmlParser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (tagName) => repeatingElements.has(tagName),
  maxNestedTags: xmlNestingMax,
})

export const camt053StatementParser: Parser = {
  name: parserName,
  version: parserVersion,
  accepts(input) {
    const text = sniffText(input.head)
    if (looksLikeCamt053(text)) return true
    // A file named camt053 but unreadable is still ours to refuse with a reason.
    const media = mediaEssence(input.mimeType)
    return /camt\.?053/i.test(input.filename ?? '') && (fileExtension(input.filename) === 'xml' || media === 'application/xml' || media === 'text/xml')
  },
  parse: parseCamt053,
}

async function* parseCamt053(input: ParserInput): AsyncGenerator<ParserOutput> {
  const bytes = await input.buffer()
  const text = decodeWhole(bytes, xmlEncoding(bytes))
  const validation = XMLValidator.validate(text)
  if (validation !== true) throw xmlError(validation.err, text)
  let document: unknown
  try {
    document = xmlParser.parse(text)
  } catch (error) {
    throw new ParseError(`the XML cannot be read: ${error instanceof Error ? error.message : String(error)}`)
  }
  const root = node(node(document)?.Document)
  const namespace = text_(root?.['@_xmlns'])
  const version = /camt\.053\.001\.(\d{2})/.exec(namespace ?? '')?.[1]
  if (namespace !== undefined && version === undefined && namespace.includes('camt.')) {
    throw new ParseError(`the document is not a camt.053 statement (namespace ${namespace})`, 'element Document')
  }
  const statementRoot = node(root?.BkToCstmrStmt)
  if (statementRoot === undefined) throw new ParseError('no BkToCstmrStmt element: the document is not a camt.053 statement', 'element Document')
  const statements = nodes(statementRoot.Stmt)
  if (statements.length === 0) throw new ParseError('the statement message has no Stmt', 'element BkToCstmrStmt')

  const accountsYielded = new Set<string>()
  let entries = 0
  for (const [statementIndex, statement] of statements.entries()) {
    const statementId = text_(statement.Id)
    const position = `Stmt ${statementIndex + 1}${statementId === undefined ? '' : ` (Id ${statementId})`}`
    const account = readAccount(statement, position)
    const key = JSON.stringify(account)
    if (!accountsYielded.has(key)) {
      accountsYielded.add(key)
      const institution = text_(node(node(node(statement.Acct)?.Svcr)?.FinInstnId)?.Nm)
      yield { type: 'record', record: { kind: 'account', account, ...(institution === undefined ? {} : { institution }) }, confidence: lowestConfidence([]) }
    }
    for (const [balanceIndex, balance] of nodes(statement.Bal).entries()) {
      const record = readBalance(balance, account, `${position}, Bal ${balanceIndex + 1}`)
      if (record !== undefined) yield { type: 'record', record, confidence: lowestConfidence([]) }
    }
    for (const [entryIndex, entry] of nodes(statement.Ntry).entries()) {
      entries += 1
      if (entries > entriesMax) throw new ParseError(`the file has more than ${entriesMax} entries`, position)
      const transaction = readEntry(entry, account, `${position}, Ntry ${entryIndex + 1}`)
      if (transaction !== undefined) yield { type: 'record', record: transaction, confidence: lowestConfidence([]) }
    }
  }
}

/**
 * A validation failure as a ParseError. Elements still open at the end of the text mean the file was
 * cut short: the validator reports them as a list at line 1, so the message names them and the
 * location is the end of the file.
 */
function xmlError(error: { code: string; msg: string; line: number; col?: number }, text: string): ParseError {
  const unclosed = /^Invalid '\[(.*)\]' found\.?$/s.exec(error.msg)?.[1]
  if (error.code === 'InvalidXml' && unclosed !== undefined) {
    const path = [...unclosed.matchAll(/"([^"]+)"/g)].map((match) => match[1]).join('/')
    const lines = text.split('\n').length
    return new ParseError(`the XML ends before its elements are closed (still open: ${path}): the file is truncated`, `end of file, line ${lines}`)
  }
  return new ParseError(`the XML is malformed: ${error.msg}`, `line ${error.line}${error.col === undefined ? '' : `, column ${error.col}`}`)
}

/** The encoding the XML declaration names (ISO 20022 messages are UTF-8; a few banks declare Latin-1). */
function xmlEncoding(bytes: Buffer) {
  const detected = detectEncoding(bytes.subarray(0, 4096))
  if (detected.byteOrderMark) return detected
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w-]+)["']/i.exec(bytes.subarray(0, 200).toString('latin1'))?.[1]?.toLowerCase()
  if (declared === 'iso-8859-1' || declared === 'latin1' || declared === 'windows-1252') return { encoding: 'windows-1252' as const, byteOrderMark: false }
  return detected
}

function node(value: unknown): XmlNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as XmlNode) : undefined
}

function nodes(value: unknown): XmlNode[] {
  if (!Array.isArray(value)) return node(value) === undefined ? [] : [node(value)!]
  return value.map(node).filter((item): item is XmlNode => item !== undefined)
}

/** An element's text (a leaf string, or the `#text` of an element with attributes), trimmed. */
function text_(value: unknown): string | undefined {
  const raw = typeof value === 'string' ? value : node(value)?.['#text']
  if (typeof raw !== 'string') return undefined
  const trimmed = raw.trim()
  return trimmed === '' ? undefined : trimmed
}

function texts(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).map(text_).filter((item): item is string => item !== undefined)
}

function readAccount(statement: XmlNode, position: string): AccountRef {
  const account = node(statement.Acct)
  const id = node(account?.Id)
  const iban = text_(id?.IBAN)
  const other = text_(node(id?.Othr)?.Id)
  if (iban === undefined && other === undefined) throw new ParseError('the statement names no account (Acct/Id/IBAN or Acct/Id/Othr/Id)', `${position}, Acct`)
  const currency = text_(account?.Ccy) ?? nodes(statement.Bal).map((balance) => text_(node(balance.Amt)?.['@_Ccy'])).find((code) => code !== undefined)
  const financialInstitution = node(node(account?.Svcr)?.FinInstnId)
  const bic = text_(financialInstitution?.BICFI) ?? text_(financialInstitution?.BIC)
  const name = text_(account?.Nm)
  let normalizedIban: string | undefined
  if (iban !== undefined) {
    normalizedIban = normalizeIban(iban)
    if (normalizedIban === undefined) throw new ParseError(`the account IBAN ${JSON.stringify(iban)} is not valid`, `${position}, Acct/Id/IBAN`)
  }
  return {
    ...(normalizedIban === undefined ? {} : { iban: normalizedIban }),
    ...(other === undefined ? {} : { account_number: other }),
    ...(bic === undefined ? {} : { institution_id: bic }),
    ...(name === undefined ? {} : { name }),
    ...(currency === undefined ? {} : { currency: currencyCode(currency, `${position}, Acct/Ccy`) }),
  }
}

function currencyCode(value: string | undefined, position: string): string {
  if (value === undefined) throw new ParseError('the amount has no currency (Ccy)', position)
  if (!/^[A-Z]{3}$/.test(value)) throw new ParseError(`currency ${JSON.stringify(value)} is not an ISO 4217 code`, position)
  return value
}

/** Amt with its Ccy, signed by the CdtDbtInd next to it. */
function signedAmount(holder: XmlNode, position: string): { amount: string; currency: string } {
  const amountNode = holder.Amt
  const currency = currencyCode(text_(node(amountNode)?.['@_Ccy']), `${position}, Amt/@Ccy`)
  const raw = text_(amountNode)
  const parts = raw === undefined || !/^\d+(\.\d+)?$/.test(raw) ? undefined : parsePlainDecimal(raw)
  if (parts === undefined) throw new ParseError(`${raw === undefined ? 'the amount is missing' : `${JSON.stringify(raw)} is not an amount`}`, `${position}, Amt`)
  const indicator = text_(holder.CdtDbtInd)
  if (indicator !== 'CRDT' && indicator !== 'DBIT') throw new ParseError(`CdtDbtInd ${JSON.stringify(indicator ?? '')} is neither CRDT nor DBIT`, `${position}, CdtDbtInd`)
  return { amount: formatDecimal({ ...parts, negative: indicator === 'DBIT' }, currency), currency }
}

/** The date of a Dt / DtTm choice: `2024-03-01`, or the date part of `2024-03-01T14:22:05+01:00` as written. */
function readDate(holder: unknown, position: string): string | undefined {
  const choice = node(holder)
  if (choice === undefined) return undefined
  const raw = text_(choice.Dt) ?? text_(choice.DtTm)
  if (raw === undefined) return undefined
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw)
  const date = match === null ? undefined : isoDate(Number(match[1]), Number(match[2]), Number(match[3]))
  if (date === undefined) throw new ParseError(`${JSON.stringify(raw)} is not an ISO date`, position)
  return date
}

function readBalance(balance: XmlNode, account: AccountRef, position: string): BalanceRecord | undefined {
  const choice = node(node(balance.Tp)?.CdOrPrtry)
  const code = text_(choice?.Cd) ?? text_(choice?.Prtry)
  const balanceType = code === undefined ? undefined : balanceTypes[code]
  if (balanceType === undefined) return undefined
  const { amount, currency } = signedAmount(balance, position)
  const asOf = readDate(balance.Dt, `${position}, Dt`)
  if (asOf === undefined) throw new ParseError(`the ${code} balance has no date`, `${position}, Dt`)
  return { kind: 'balance', account, balance_type: balanceType, as_of: asOf, amount, currency }
}

function readStatus(entry: XmlNode): string | undefined {
  return text_(entry.Sts) ?? text_(node(entry.Sts)?.Cd) ?? text_(node(entry.Sts)?.Prtry)
}

function partyName(party: unknown): string | undefined {
  const element = node(party)
  return text_(element?.Nm) ?? text_(node(element?.Pty)?.Nm)
}

function partyAccount(account: unknown): Pick<CounterpartyRef, 'iban' | 'account_number'> {
  const id = node(node(account)?.Id)
  const iban = text_(id?.IBAN)
  if (iban !== undefined) return { iban: normalizeIban(iban) ?? iban }
  const other = text_(node(id?.Othr)?.Id)
  return other === undefined ? {} : { account_number: other }
}

function readEntry(entry: XmlNode, account: AccountRef, position: string): TransactionRecord | undefined {
  const status = readStatus(entry)
  if (status === 'INFO') return undefined
  if (status !== undefined && !['BOOK', 'PDNG', 'FUTR'].includes(status)) throw new ParseError(`entry status ${JSON.stringify(status)} is not BOOK, PDNG, FUTR or INFO`, `${position}, Sts`)
  const { amount, currency } = signedAmount(entry, position)
  const credit = !amount.startsWith('-')
  const reversal = text_(entry.RvslInd)?.toLowerCase() === 'true'
  const bookingDate = readDate(entry.BookgDt, `${position}, BookgDt`)
  const valueDate = readDate(entry.ValDt, `${position}, ValDt`)
  const transactionDate = bookingDate ?? valueDate
  if (transactionDate === undefined) throw new ParseError('the entry has neither a booking date nor a value date', position)

  const transactionDetails = nodes(entry.NtryDtls).flatMap((details) => nodes(details.TxDtls))
  const single = transactionDetails.length === 1 ? transactionDetails[0] : undefined
  const references = node(single?.Refs)
  const endToEnd = text_(references?.EndToEndId)
  const externalId =
    text_(entry.AcctSvcrRef) ?? text_(references?.AcctSvcrRef) ?? (endToEnd === 'NOTPROVIDED' ? undefined : endToEnd)

  const remittance = texts(node(single?.RmtInf)?.Ustrd).join(' ')
  const description = remittance || texts(single?.AddtlTxInf).join(' ') || text_(entry.AddtlNtryInf) || ''

  let counterparty: CounterpartyRef | undefined
  const parties = node(single?.RltdPties)
  if (parties !== undefined) {
    // The other party: who paid us on a credit, whom we paid on a debit; a reversal turns this round.
    const otherIsDebtor = credit !== reversal
    const name = otherIsDebtor ? (partyName(parties.Dbtr) ?? partyName(parties.UltmtDbtr)) : (partyName(parties.Cdtr) ?? partyName(parties.UltmtCdtr))
    const otherAccount = partyAccount(otherIsDebtor ? parties.DbtrAcct : parties.CdtrAcct)
    const candidate: CounterpartyRef = { ...(name === undefined ? {} : { name }), ...otherAccount }
    if (Object.keys(candidate).length > 0) counterparty = candidate
  }

  const bankCode = node(node(entry.BkTxCd)?.Domn)
  const family = node(bankCode?.Fmly)
  const details: Record<string, unknown> = {}
  if (bankCode !== undefined) details.bank_transaction_code = [text_(bankCode.Cd), text_(family?.Cd), text_(family?.SubFmlyCd)].filter(Boolean).join('/')
  const proprietaryCode = text_(node(node(entry.BkTxCd)?.Prtry)?.Cd)
  if (proprietaryCode !== undefined) details.proprietary_code = proprietaryCode
  if (endToEnd !== undefined && endToEnd !== 'NOTPROVIDED') details.end_to_end_id = endToEnd
  const mandate = text_(references?.MndtId)
  if (mandate !== undefined) details.mandate_id = mandate
  const entryInformation = text_(entry.AddtlNtryInf)
  if (entryInformation !== undefined && entryInformation !== description) details.additional_entry_information = entryInformation
  if (status !== undefined) details.entry_status = status
  if (reversal) details.reversal = true
  if (transactionDetails.length > 1) {
    details.batch = transactionDetails.map((part, index) => {
      const partParties = node(part.RltdPties)
      const fields: Record<string, string | undefined> = {
        ...(part.Amt === undefined ? {} : signedAmount(part, `${position}, TxDtls ${index + 1}`)),
        end_to_end_id: text_(node(part.Refs)?.EndToEndId),
        creditor: partyName(partParties?.Cdtr),
        debtor: partyName(partParties?.Dbtr),
        remittance: texts(node(part.RmtInf)?.Ustrd).join(' ') || undefined,
      }
      return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
    })
  }

  return {
    kind: 'transaction',
    account,
    ...(externalId === undefined ? {} : { external_transaction_id: externalId }),
    amount,
    currency,
    transaction_date: transactionDate,
    ...(valueDate === undefined ? {} : { posted_date: valueDate }),
    status: status === 'PDNG' || status === 'FUTR' ? 'pending' : 'posted',
    description,
    ...(counterparty === undefined ? {} : { counterparty }),
    ...(Object.keys(details).length > 0 ? { details } : {}),
  }
}
