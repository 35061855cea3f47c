/**
 * CSV bank statements (`csv_bank_statement`): the exports of online banking, in whatever language,
 * delimiter, encoding, date and number notation the bank chose.
 *
 * How a file is read:
 * 1. Layout, from the head (the first 64 KiB): encoding (text-encoding.ts), that it is text at all, the
 *    delimiter (`,` `;` tab `|`: each is tried with the CSV parser and the one that yields a recognised
 *    header row with the most mapped columns and the most consistent field count wins) and the header
 *    row (the first of the first 30 rows that names a date column and another statement column; rows
 *    above it are the bank's preamble). Without an amount column, or debit and credit columns, the file
 *    is refused.
 * 2. A survey pass over the whole stream that keeps only counters and the first and last two rows: the
 *    evidence for the day/month order and the decimal separator, the currencies seen, where the data
 *    ends (rows after the last one with a date are a trailer and are ignored).
 * 3. Decisions for the file. Day/month: a first component above 12 anywhere means DD/MM, a second one
 *    above 12 means MM/DD, both is an error; dot-separated dates (DD.MM.YYYY) are day-first by every
 *    convention that writes them; with no evidence the order is guessed — MM/DD for a USD account, DD/MM
 *    otherwise — and every record's confidence says so. The decimal separator likewise: `1.234,56`,
 *    `12,5` or `1,234,567` decide; `1,234` alone does not, and then a `;`-delimited or dot-dated file is
 *    taken to use decimal commas, any other a decimal point (a guess, lowering confidence where it matters).
 * 4. The data pass: one `transaction` record per row, streamed — memory does not grow with the file.
 *
 * Records: the `account` first; an `opening` balance when there is a running balance column (the balance
 * after the chronologically first row minus its amount, as of its date); the transactions (status
 * `posted`; money out negative, whether the file signs amounts, marks them `DR`/`Af`/`Soll`, puts them in
 * parentheses or in a debit column); a `closing` balance (the running balance after the chronologically
 * last row, as of its date). Files are read newest-first or oldest-first: the dates of the first and last
 * rows decide, and for a one-day file the running balance arithmetic does.
 *
 * Currency: a currency column, a currency in the amount header (`Betrag (EUR)`), the source_ref currency,
 * or a symbol in the amounts (`€`, `£`, `US$`, ISO codes; `$` is read as USD by convention). With none of
 * these the file is refused rather than guessed.
 */
import type { AccountRef, BalanceRecord, CounterpartyRef, ExtractedRecord, TransactionRecord } from '../../domain/extracted.ts'
import { ParseError, type Parser, type ParserInput, type ParserOutput } from '../parser.ts'
import { accountFromSource, type SourceAccount } from './account-source.ts'
import { foldText } from './calendar.ts'
import { type ConfidenceLevel, lowestConfidence } from './confidence.ts'
import { CsvSyntaxError, headRecords, lineBreakOf, streamRecords, type CsvDialect } from './csv-records.ts'
import { type ColumnMapping, type ColumnRole, hasAmountColumns, isHeaderMapping, mapColumns, readDirection, usedGuessedRoles } from './csv-columns.ts'
import { type AmountCell, type DateOrder, type DecimalSeparator, numericDateShape, readAmountCell, readDate, readNumber } from './csv-values.ts'
import { addDecimals, formatDecimal, subtractDecimals } from './decimal.ts'
import { normalizeIban } from './iban.ts'
import { fileExtension, looksLikeMt940, looksLikeOfx, looksLikeXml, mediaEssence, sniffText } from './sniff.ts'
import { type DetectedEncoding, decodeChunks, decodeHead, detectEncoding, looksBinary } from './text-encoding.ts'

const parserName = 'csv_bank_statement'
const parserVersion = '1.1.0'

const candidateDelimiters = [',', ';', '\t', '|'] as const
type Delimiter = (typeof candidateDelimiters)[number]

/** The header row must be among the first 30 rows (bank preambles are a handful of lines). */
const headerSearchRowsMax = 30
/** Rows after the header used to judge a delimiter's field-count consistency. */
const delimiterSampleRowsMax = 20
/** A row longer than this is not a bank statement row (a wrong delimiter or a runaway quote). */
const rowCharactersMax = 65_536
/** A statement longer than this is refused rather than read for hours. */
const dataRowsMax = 5_000_000
/** Distinct values of the currency column remembered by the survey (more means a multi-currency file). */
const surveyedCurrenciesMax = 8

const csvMediaTypes = new Set(['text/csv', 'application/csv', 'text/tab-separated-values', 'text/x-csv'])
const genericMediaTypes = new Set(['text/plain', 'application/octet-stream', 'binary/octet-stream', 'application/vnd.ms-excel', ''])

interface Layout {
  readonly encoding: DetectedEncoding
  readonly dialect: CsvDialect & { readonly delimiter: Delimiter }
  /** Index of the header among the file's records (empty lines are not records). */
  readonly headerRecordIndex: number
  readonly headerLine: number
  readonly header: readonly string[]
  /** The header cells folded (calendar.ts `foldText`), to recognise the header repeated in the data. */
  readonly foldedHeader: readonly string[]
  readonly mapping: ColumnMapping
}

interface RawRow {
  readonly fields: readonly string[]
  readonly line: number
  /** 1-based position among the records after the header. */
  readonly row: number
}

interface Survey {
  dayFirstLine: number | undefined
  monthFirstLine: number | undefined
  numericDates: number
  dotDates: number
  pointLine: number | undefined
  commaLine: number | undefined
  ambiguousAmounts: number
  currencies: Set<string>
  symbolCurrencies: Set<string>
  conventionSymbolCurrencies: Set<string>
  lastDataRow: number
  firstRows: RawRow[]
  lastRows: RawRow[]
}

interface Plan {
  readonly layout: Layout
  readonly dateOrder: DateOrder
  readonly dateOrderGuessed: boolean
  readonly decimalSeparator: DecimalSeparator
  readonly decimalSeparatorGuessed: boolean
  readonly account: AccountRef
  readonly source: SourceAccount
  readonly headerCurrency: string | undefined
  /** The one currency every row without its own falls back to (source_ref, header, or the file's only symbol). */
  readonly fallbackCurrency: string | undefined
  readonly fileLevels: readonly ConfidenceLevel[]
  readonly lastDataRow: number
}

interface ReadRow {
  readonly transaction: TransactionRecord
  readonly balanceAfter: string | undefined
  readonly levels: readonly ConfidenceLevel[]
}

export const csvBankStatementParser: Parser = {
  name: parserName,
  version: parserVersion,
  accepts(input) {
    const text = sniffText(input.head)
    if (looksLikeXml(text) || looksLikeOfx(text) || looksLikeMt940(text)) return false
    const extension = fileExtension(input.filename)
    const media = mediaEssence(input.mimeType)
    // A file named or typed CSV is ours even when its content is broken: parse then says what is wrong.
    if (extension === 'csv' || extension === 'tsv' || csvMediaTypes.has(media)) return true
    if (!genericMediaTypes.has(media) && input.sourceType !== 'csv_upload') return false
    try {
      const layout = detectLayout(input.head, false)
      return hasAmountColumns(layout.mapping)
    } catch {
      return false
    }
  },
  parse: parseCsvStatement,
}

async function* parseCsvStatement(input: ParserInput): AsyncGenerator<ParserOutput> {
  const layout = detectLayout(input.head, input.bytes <= input.head.length)
  if (!hasAmountColumns(layout.mapping)) {
    throw new ParseError(
      `no amount column: the header row has ${layout.header.map((cell) => JSON.stringify(cell)).join(', ')}, but no amount column and no pair of debit and credit columns`,
      `line ${layout.headerLine}`,
    )
  }
  const survey = await surveyRows(input, layout)
  const plan = decide(input, layout, survey)

  // Only the first and last rows are needed for the balances; reading them now also means a broken one
  // fails the file before anything is yielded.
  const edges = layout.mapping.balance === undefined ? [] : [...survey.firstRows, ...survey.lastRows].map((row) => ({ row, read: readRowNamed(row, plan) }))
  const balances = deriveBalances(edges, plan)

  yield record({ kind: 'account', account: plan.account, ...optional('account_type', plan.source.accountType), ...optional('institution', plan.source.institution) }, plan.fileLevels)
  if (balances.opening !== undefined) yield record(balances.opening.balance, balances.opening.levels)
  for await (const row of readRawRows(input, layout)) {
    if (row.row > plan.lastDataRow) break
    const read = readRowNamed(row, plan)
    if (read !== undefined) yield record(read.transaction, read.levels)
  }
  if (balances.closing !== undefined) yield record(balances.closing.balance, balances.closing.levels)
}

function record(extracted: ExtractedRecord, levels: readonly ConfidenceLevel[]): ParserOutput {
  return { type: 'record', record: extracted, confidence: lowestConfidence(levels) }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V })
}

// ---------------------------------------------------------------------------------------------------
// Layout

function detectLayout(head: Buffer, headIsWholeFile: boolean): Layout {
  const encoding = detectEncoding(head)
  if (looksBinary(head, encoding)) {
    throw new ParseError('the file is binary, not CSV text: it holds NUL or control bytes', 'the first bytes')
  }
  let text = decodeHead(head, encoding)
  if (!headIsWholeFile) text = text.slice(0, Math.max(0, text.lastIndexOf('\n') + 1))
  let best: (Layout & { score: number }) | undefined
  const lineBreak = lineBreakOf(text)
  for (const delimiter of candidateDelimiters) {
    const candidate = headerCandidate(text, { delimiter, lineBreak }, encoding)
    if (candidate !== undefined && (best === undefined || candidate.score > best.score)) best = candidate
  }
  if (best === undefined) {
    throw new ParseError(`no header row: none of the first ${headerSearchRowsMax} rows names a date column and another statement column (amount, description, balance…)`, 'the first rows')
  }
  const { score: _score, ...layout } = best
  return layout
}

function headerCandidate(text: string, dialect: Layout['dialect'], encoding: DetectedEncoding): (Layout & { score: number }) | undefined {
  const records = headRecords(text, dialect, headerSearchRowsMax + delimiterSampleRowsMax)
  for (let index = 0; index < Math.min(records.length, headerSearchRowsMax); index += 1) {
    const entry = records[index]
    if (entry === undefined || entry.fields.length < 2) continue
    const header = entry.fields.map((cell) => cell.trim())
    const mapping = mapColumns(header, records[index + 1]?.fields)
    if (!isHeaderMapping(mapping)) continue
    const following = records.slice(index + 1, index + 1 + delimiterSampleRowsMax)
    const consistent = following.length === 0 ? 1 : following.filter((next) => next.fields.length === header.length).length / following.length
    const score = Object.keys(mapping).length * 10 + consistent * 5 + (hasAmountColumns(mapping) ? 50 : 0)
    return { encoding, dialect, headerRecordIndex: index, headerLine: entry.line, header, foldedHeader: header.map(foldText), mapping, score }
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------------
// Streaming rows

/** The rows after the header, streamed: bytes → text (decoded chunk by chunk) → records. */
async function* readRawRows(input: ParserInput, layout: Layout): AsyncGenerator<RawRow> {
  const source = input.stream()
  let index = -1
  try {
    for await (const entry of streamRecords(decodeChunks(source, layout.encoding), layout.dialect, rowCharactersMax)) {
      index += 1
      if (index < layout.headerRecordIndex) continue
      if (index === layout.headerRecordIndex) {
        if (entry.fields.map((cell) => cell.trim()).join('\u0000') !== layout.header.join('\u0000')) {
          throw new ParseError('the header row read from the stream differs from the one in the head of the file', `line ${entry.line}`)
        }
        continue
      }
      const row = index - layout.headerRecordIndex
      if (row > dataRowsMax) throw new ParseError(`the file has more than ${dataRowsMax} rows`, `line ${entry.line}`)
      yield { fields: entry.fields, line: entry.line, row }
    }
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new ParseError(`the CSV is malformed: ${error.message}`, `line ${error.line}`)
    throw error
  } finally {
    source.destroy()
  }
}

function cell(row: RawRow, layout: Layout, role: ColumnRole): string {
  const match = layout.mapping[role]
  return match === undefined ? '' : (row.fields[match.index] ?? '').trim()
}

function isBlank(row: RawRow): boolean {
  for (const field of row.fields) if (field.trim() !== '') return false
  return true
}

function isRepeatedHeader(row: RawRow, layout: Layout): boolean {
  return row.fields.length === layout.header.length && row.fields.every((field, index) => foldText(field.trim()) === layout.foldedHeader[index])
}

const amountRoles: readonly ColumnRole[] = ['amount', 'debit', 'credit', 'balance']

/** The survey pass: evidence and edges, nothing per row kept. */
async function surveyRows(input: ParserInput, layout: Layout): Promise<Survey> {
  const survey: Survey = {
    dayFirstLine: undefined,
    monthFirstLine: undefined,
    numericDates: 0,
    dotDates: 0,
    pointLine: undefined,
    commaLine: undefined,
    ambiguousAmounts: 0,
    currencies: new Set(),
    symbolCurrencies: new Set(),
    conventionSymbolCurrencies: new Set(),
    lastDataRow: 0,
    firstRows: [],
    lastRows: [],
  }
  // A role without a column reads as an empty cell, which is neither a date nor an amount.
  const dateRoles = (['transaction_date', 'value_date'] as const).filter((role) => layout.mapping[role] !== undefined)
  const moneyRoles = amountRoles.filter((role) => layout.mapping[role] !== undefined)
  for await (const row of readRawRows(input, layout)) {
    if (isBlank(row) || isRepeatedHeader(row, layout)) continue
    const dateCell = cell(row, layout, 'transaction_date')
    for (const role of dateRoles) {
      const shape = numericDateShape(cell(row, layout, role))
      if (shape === undefined) continue
      survey.numericDates += 1
      if (shape.separator === '.') survey.dotDates += 1
      if (shape.first > 12 && survey.dayFirstLine === undefined) survey.dayFirstLine = row.line
      if (shape.second > 12 && survey.monthFirstLine === undefined) survey.monthFirstLine = row.line
    }
    for (const role of moneyRoles) {
      const amount = readAmountCell(cell(row, layout, role))
      if (amount === null || amount === undefined) continue
      if (amount.separatorEvidence === '.' && survey.pointLine === undefined) survey.pointLine = row.line
      if (amount.separatorEvidence === ',' && survey.commaLine === undefined) survey.commaLine = row.line
      if (amount.separatorEvidence === 'ambiguous') survey.ambiguousAmounts += 1
      if (amount.currency !== undefined) (amount.currencyByConvention ? survey.conventionSymbolCurrencies : survey.symbolCurrencies).add(amount.currency)
    }
    const currency = cell(row, layout, 'currency').toUpperCase()
    if (currency !== '' && survey.currencies.size < surveyedCurrenciesMax) survey.currencies.add(currency)
    if (/\d/.test(dateCell)) {
      survey.lastDataRow = row.row
      if (survey.firstRows.length < 2) survey.firstRows.push(row)
      survey.lastRows.push(row)
      if (survey.lastRows.length > 2) survey.lastRows.shift()
    }
  }
  // The first and last rows may be the same rows in a short file.
  survey.lastRows = survey.lastRows.filter((row) => !survey.firstRows.includes(row) && row.row > (survey.firstRows.at(-1)?.row ?? 0))
  return survey
}

// ---------------------------------------------------------------------------------------------------
// Decisions

function decide(input: ParserInput, layout: Layout, survey: Survey): Plan {
  const source = accountFromSource(input.sourceRef, input.filename)
  const headerCurrency = layout.mapping.amount?.currency ?? layout.mapping.debit?.currency ?? layout.mapping.credit?.currency ?? layout.mapping.balance?.currency
  const symbolCurrency = survey.symbolCurrencies.size === 1 ? [...survey.symbolCurrencies][0] : undefined
  const conventionCurrency = survey.conventionSymbolCurrencies.size === 1 ? [...survey.conventionSymbolCurrencies][0] : undefined
  const columnCurrency = survey.currencies.size === 1 ? [...survey.currencies][0] : undefined
  const fallbackCurrency = source.currency ?? headerCurrency ?? symbolCurrency ?? conventionCurrency
  const accountCurrency = fallbackCurrency ?? columnCurrency
  if (accountCurrency === undefined && layout.mapping.currency === undefined) {
    throw new ParseError('no currency: the file has no currency column and no currency symbols, and source_ref names none', 'the whole file')
  }

  if (survey.dayFirstLine !== undefined && survey.monthFirstLine !== undefined) {
    throw new ParseError(
      `the dates mix day-first and month-first order (line ${survey.dayFirstLine} has a day above 12 first, line ${survey.monthFirstLine} second)`,
      `line ${Math.max(survey.dayFirstLine, survey.monthFirstLine)}`,
    )
  }
  let dateOrder: DateOrder
  let dateOrderGuessed = false
  if (survey.dayFirstLine !== undefined) dateOrder = 'dmy'
  else if (survey.monthFirstLine !== undefined) dateOrder = 'mdy'
  else if (survey.numericDates > 0 && survey.dotDates === survey.numericDates) dateOrder = 'dmy'
  else {
    dateOrder = accountCurrency === 'USD' ? 'mdy' : 'dmy'
    dateOrderGuessed = survey.numericDates > 0
  }

  if (survey.pointLine !== undefined && survey.commaLine !== undefined) {
    throw new ParseError(
      `the amounts mix decimal points (line ${survey.pointLine}) and decimal commas (line ${survey.commaLine})`,
      `line ${Math.max(survey.pointLine, survey.commaLine)}`,
    )
  }
  let decimalSeparator: DecimalSeparator
  let decimalSeparatorGuessed = false
  if (survey.pointLine !== undefined) decimalSeparator = '.'
  else if (survey.commaLine !== undefined) decimalSeparator = ','
  else {
    decimalSeparator = layout.dialect.delimiter === ';' || survey.dotDates > 0 ? ',' : '.'
    decimalSeparatorGuessed = survey.ambiguousAmounts > 0
  }

  const fileLevels: ConfidenceLevel[] = []
  if (usedGuessedRoles(layout.mapping).length > 0) fileLevels.push('convention')
  if (dateOrderGuessed) fileLevels.push('convention')
  if (source.namedAfterFile) fileLevels.push('convention')
  const account: AccountRef = { ...source.account, ...optional('currency', accountCurrency) }
  return {
    layout,
    dateOrder,
    dateOrderGuessed,
    decimalSeparator,
    decimalSeparatorGuessed,
    account,
    source,
    headerCurrency,
    fallbackCurrency,
    fileLevels,
    lastDataRow: survey.lastDataRow,
  }
}

// ---------------------------------------------------------------------------------------------------
// Rows

function columnName(plan: Plan, role: ColumnRole): string {
  return JSON.stringify(plan.layout.mapping[role]?.header ?? role)
}

function where(row: RawRow, plan: Plan, role: ColumnRole): string {
  return `line ${row.line} (row ${row.row}), column ${columnName(plan, role)}`
}

/** A money cell as canonical decimal parts, with what it tells about currency and certainty. */
function readMoney(row: RawRow, plan: Plan, role: ColumnRole): { cell: AmountCell; integer: string; fraction: string; levels: ConfidenceLevel[] } | undefined {
  const raw = cell(row, plan.layout, role)
  const amount = readAmountCell(raw)
  if (amount === null) return undefined
  if (amount === undefined) throw new ParseError(`${role === 'balance' ? 'balance' : 'amount'} ${JSON.stringify(raw)} is not a number`, where(row, plan, role))
  const digits = readNumber(amount.number, plan.decimalSeparator)
  if (digits === undefined) {
    throw new ParseError(`amount ${JSON.stringify(raw)} does not read as a number with ${plan.decimalSeparator === ',' ? 'decimal commas' : 'decimal points'} like the rest of the file`, where(row, plan, role))
  }
  const levels: ConfidenceLevel[] = []
  if (plan.decimalSeparatorGuessed && amount.separatorEvidence === 'ambiguous') levels.push('guess')
  return { cell: amount, integer: digits.integer, fraction: digits.fraction, levels }
}

function rowCurrency(row: RawRow, plan: Plan, cells: readonly AmountCell[]): { currency: string; levels: ConfidenceLevel[] } {
  const column = cell(row, plan.layout, 'currency').toUpperCase()
  if (column !== '' && !/^[A-Z]{3}$/.test(column)) throw new ParseError(`currency ${JSON.stringify(column)} is not an ISO 4217 code`, where(row, plan, 'currency'))
  const explicit = column !== '' ? column : (plan.headerCurrency ?? plan.source.currency)
  const symbols = cells.filter((amount) => amount.currency !== undefined)
  for (const amount of symbols) {
    if (!amount.currencyByConvention && explicit !== undefined && amount.currency !== explicit) {
      throw new ParseError(`the amount is written in ${amount.currency} but the row's currency is ${explicit}`, where(row, plan, 'amount'))
    }
  }
  if (explicit !== undefined) return { currency: explicit, levels: [] }
  const fromSymbol = symbols.find((amount) => !amount.currencyByConvention) ?? symbols[0]
  if (fromSymbol?.currency !== undefined) return { currency: fromSymbol.currency, levels: fromSymbol.currencyByConvention ? ['convention'] : [] }
  if (plan.fallbackCurrency !== undefined) return { currency: plan.fallbackCurrency, levels: [] }
  throw new ParseError('no currency for this row: its currency cell is empty and the file gives no other', `line ${row.line} (row ${row.row})`)
}

/** readRow, whose refusal names the row it refuses (the artifact lists it as its refused row). */
function readRowNamed(row: RawRow, plan: Plan): ReadRow | undefined {
  try {
    return readRow(row, plan)
  } catch (error) {
    if (error instanceof ParseError && error.row === undefined) throw new ParseError(error.reason, error.location, row.row)
    throw error
  }
}

/** A data row as a transaction; undefined for a blank, a repeated header or a note without date and amount. */
function readRow(row: RawRow, plan: Plan): ReadRow | undefined {
  const { layout } = plan
  if (isBlank(row) || isRepeatedHeader(row, layout)) return undefined
  const mapping = layout.mapping
  const levels: ConfidenceLevel[] = [...plan.fileLevels]

  const dateCell = cell(row, layout, 'transaction_date')
  if (dateCell === '') {
    const moneyRoles: ColumnRole[] = mapping.amount !== undefined ? ['amount'] : ['debit', 'credit']
    if (moneyRoles.every((role) => cell(row, layout, role) === '')) return undefined
    throw new ParseError('the row has an amount but no date', where(row, plan, 'transaction_date'))
  }
  const date = readDate(dateCell, plan.dateOrder)
  if (date === undefined) throw new ParseError(`date ${JSON.stringify(dateCell)} is not a date`, where(row, plan, 'transaction_date'))
  if (date.orderMatters && plan.dateOrderGuessed) levels.push('guess')
  let postedDate: string | undefined
  const valueCell = cell(row, layout, 'value_date')
  if (valueCell !== '') {
    const value = readDate(valueCell, plan.dateOrder)
    if (value === undefined) throw new ParseError(`date ${JSON.stringify(valueCell)} is not a date`, where(row, plan, 'value_date'))
    if (value.orderMatters && plan.dateOrderGuessed) levels.push('guess')
    postedDate = value.date
  }

  let negative: boolean
  let integer: string
  let fraction: string
  const cells: AmountCell[] = []
  if (mapping.amount !== undefined) {
    const money = readMoney(row, plan, 'amount')
    if (money === undefined) throw new ParseError('the amount is empty', where(row, plan, 'amount'))
    cells.push(money.cell)
    levels.push(...money.levels)
    ;({ integer, fraction } = money)
    negative = money.cell.negative
    if (mapping.direction !== undefined) {
      const directionCell = cell(row, layout, 'direction')
      const direction = readDirection(directionCell)
      if (direction === undefined) throw new ParseError(`${JSON.stringify(directionCell)} is not a debit/credit mark`, where(row, plan, 'direction'))
      negative = direction === 'out'
    }
  } else {
    const debit = readMoney(row, plan, 'debit')
    const credit = readMoney(row, plan, 'credit')
    const debitIsZero = debit === undefined || /^0*$/.test(debit.integer + debit.fraction)
    const creditIsZero = credit === undefined || /^0*$/.test(credit.integer + credit.fraction)
    if (!debitIsZero && !creditIsZero) throw new ParseError('the row has both a debit and a credit', where(row, plan, 'debit'))
    const money = !debitIsZero ? debit : !creditIsZero ? credit : (debit ?? credit)
    if (money === undefined) throw new ParseError('the row has neither a debit nor a credit', where(row, plan, 'debit'))
    cells.push(money.cell)
    levels.push(...money.levels)
    ;({ integer, fraction } = money)
    // A debit is money out whether the bank wrote it as 12.34 or -12.34.
    negative = money === debit && !debitIsZero
  }
  const balance = readMoney(row, plan, 'balance')
  if (balance !== undefined) cells.push(balance.cell)
  const { currency, levels: currencyLevels } = rowCurrency(row, plan, cells)
  levels.push(...currencyLevels)
  const amount = formatDecimal({ negative, integer, fraction }, currency)
  const balanceAfter = balance === undefined ? undefined : formatDecimal({ negative: balance.cell.negative, integer: balance.integer, fraction: balance.fraction }, currency)

  const counterparty = readCounterparty(row, plan)
  const transactionType = cell(row, layout, 'transaction_type')
  const description = collapse(cell(row, layout, 'description')) || counterparty?.name || collapse(transactionType)
  const reference = cell(row, layout, 'reference')
  const checkNumber = cell(row, layout, 'check_number')
  // Optional fields are set or spread from literal objects rather than through `optional()`, whose
  // computed keys cost several times as much to build: this runs once per row.
  const details: Record<string, unknown> = {}
  if (transactionType !== '') details.transaction_type = transactionType
  if (checkNumber !== '') details.check_number = checkNumber
  if (balanceAfter !== undefined) details.balance_after = balanceAfter
  const transaction: TransactionRecord = {
    kind: 'transaction',
    account: plan.account,
    ...(reference !== '' ? { external_transaction_id: reference } : undefined),
    amount,
    currency,
    transaction_date: date.date,
    ...(postedDate !== undefined ? { posted_date: postedDate } : undefined),
    status: 'posted',
    description,
    ...(counterparty !== undefined ? { counterparty } : undefined),
    ...(Object.keys(details).length > 0 ? { details } : undefined),
  }
  return { transaction, balanceAfter, levels }
}

/**
 * Whitespace runs as one space, trimmed. Only what changes is replaced (a run of two or more, a lone tab,
 * newline or other space character): most texts have single spaces only and come back as they are.
 */
function collapse(text: string): string {
  return text.replace(/\s{2,}|[^\S ]/g, ' ').trim()
}

function readCounterparty(row: RawRow, plan: Plan): CounterpartyRef | undefined {
  const name = collapse(cell(row, plan.layout, 'counterparty_name'))
  const accountCell = cell(row, plan.layout, 'counterparty_account')
  if (name === '' && accountCell === '') return undefined
  const iban = accountCell === '' ? undefined : normalizeIban(accountCell)
  return {
    ...(name !== '' ? { name } : undefined),
    ...(iban !== undefined ? { iban } : accountCell !== '' ? { account_number: accountCell } : undefined),
  }
}

// ---------------------------------------------------------------------------------------------------
// Balances

interface EdgeRow {
  readonly row: RawRow
  readonly read: ReadRow | undefined
}

/**
 * Opening and closing balances from the running balance column: which end of the file is the
 * chronological start is decided by the dates of the first and last rows, or, when they are the same
 * day, by which reading of the first two rows adds up.
 */
function deriveBalances(edges: readonly EdgeRow[], plan: Plan): { opening?: { balance: BalanceRecord; levels: ConfidenceLevel[] }; closing?: { balance: BalanceRecord; levels: ConfidenceLevel[] } } {
  const rows = edges.filter((edge): edge is { row: RawRow; read: ReadRow } => edge.read !== undefined)
  if (plan.layout.mapping.balance === undefined || rows.length === 0) return {}
  const first = rows[0]!
  const last = rows.at(-1)!
  let chronological: boolean | undefined
  if (first.read.transaction.transaction_date !== last.read.transaction.transaction_date) {
    chronological = first.read.transaction.transaction_date < last.read.transaction.transaction_date
  } else if (rows.length === 1) {
    chronological = true
  } else {
    const second = rows[1]!
    const [a, b] = [first.read, second.read]
    const currency = a.transaction.currency
    if (a.balanceAfter !== undefined && b.balanceAfter !== undefined) {
      if (addDecimals(a.balanceAfter, b.transaction.amount, currency) === b.balanceAfter) chronological = true
      else if (addDecimals(b.balanceAfter, a.transaction.amount, currency) === a.balanceAfter) chronological = false
    }
  }
  if (chronological === undefined) return {}
  const start = chronological ? first.read : last.read
  const end = chronological ? last.read : first.read
  const result: { opening?: { balance: BalanceRecord; levels: ConfidenceLevel[] }; closing?: { balance: BalanceRecord; levels: ConfidenceLevel[] } } = {}
  if (start.balanceAfter !== undefined) {
    result.opening = {
      balance: {
        kind: 'balance',
        account: plan.account,
        balance_type: 'opening',
        as_of: start.transaction.transaction_date,
        amount: subtractDecimals(start.balanceAfter, start.transaction.amount, start.transaction.currency),
        currency: start.transaction.currency,
      },
      levels: [...start.levels],
    }
  }
  if (end.balanceAfter !== undefined) {
    result.closing = {
      balance: { kind: 'balance', account: plan.account, balance_type: 'closing', as_of: end.transaction.transaction_date, amount: end.balanceAfter, currency: end.transaction.currency },
      levels: [...end.levels],
    }
  }
  return result
}
