/**
 * Which column of a bank CSV holds what: header names in English, German, French, Spanish and Dutch
 * mapped to column roles. A header matches exactly when its folded form (lower case, no accents, no
 * punctuation, a trailing currency code such as "(EUR)" set aside) is a known name; otherwise a keyword
 * inside it may still match, which counts as a guessed mapping (see confidence.ts).
 */
import { isIsoCurrency } from '../../../../kernel/currencies.ts'
import { foldText } from './calendar.ts'

export type ColumnRole =
  | 'transaction_date'
  | 'value_date'
  | 'description'
  | 'counterparty_name'
  | 'counterparty_account'
  | 'amount'
  | 'debit'
  | 'credit'
  | 'direction'
  | 'balance'
  | 'currency'
  | 'reference'
  | 'transaction_type'
  | 'check_number'

const knownHeaders: Readonly<Record<ColumnRole, readonly string[]>> = {
  transaction_date: [
    'date', 'transaction date', 'trans date', 'txn date', 'booking date', 'booked date', 'entry date',
    'buchungstag', 'buchungsdatum', 'datum', 'umsatzdatum', 'belegdatum',
    'date operation', "date d'operation", "date de l'operation", 'date comptable',
    'fecha', 'fecha operacion', 'fecha de operacion', 'f operacion', 'fecha contable',
    'transactiedatum', 'boekdatum', 'boekingsdatum',
  ],
  value_date: [
    'value date', 'valuta', 'valutadatum', 'wertstellung', 'wertstellungsdatum', 'date valeur', 'date de valeur',
    'fecha valor', 'f valor', 'rentedatum', 'post date', 'posted date', 'posting date', 'settlement date',
  ],
  description: [
    'description', 'transaction description', 'details', 'transaction details', 'memo', 'narrative', 'narration',
    'particulars', 'verwendungszweck', 'beschreibung', 'buchungsdetails', 'text', 'libelle', 'libelle operation',
    "libelle de l'operation", 'detail', 'concepto', 'descripcion', 'detalle', 'omschrijving', 'mededelingen',
  ],
  counterparty_name: [
    'payee', 'payer', 'payee name', 'counterparty', 'counterparty name', 'merchant', 'merchant name', 'beneficiary', 'name',
    'beguenstigter/zahlungspflichtiger', 'begunstigter/zahlungspflichtiger', 'auftraggeber/empfanger', 'empfanger',
    'auftraggeber', 'zahlungsempfanger', 'name zahlungsbeteiligter', 'beneficiaire', 'tiers', 'beneficiario', 'ordenante',
    'naam', 'naam / omschrijving', 'naam tegenpartij', 'tegenpartij',
  ],
  counterparty_account: [
    'counterparty account', 'counterparty iban', 'kontonummer/iban', 'iban zahlungsbeteiligter', 'tegenrekening',
    'tegenrekening iban/bban', 'iban tegenpartij',
  ],
  amount: ['amount', 'transaction amount', 'betrag', 'umsatz', 'montant', 'montant operation', 'importe', 'bedrag'],
  debit: [
    'debit', 'debits', 'debit amount', 'withdrawal', 'withdrawals', 'withdrawal amount', 'money out', 'paid out',
    'soll', 'belastung', 'ausgang', 'cargo', 'cargos', 'debe', 'af',
  ],
  credit: [
    'credit', 'credits', 'credit amount', 'deposit', 'deposits', 'deposit amount', 'money in', 'paid in',
    'haben', 'gutschrift', 'eingang', 'abono', 'abonos', 'haber', 'ingreso', 'ingresos', 'bij',
  ],
  direction: [
    'af bij', 'debit/credit', 'credit/debit', 'dr/cr', 'cr/dr', 'd/c', 'c/d', 'soll/haben', 's/h', 'debet/credit',
    'credit debit indicator', 'sens',
  ],
  balance: ['balance', 'running balance', 'account balance', 'ledger balance', 'saldo', 'kontostand', 'solde'],
  currency: ['currency', 'currency code', 'ccy', 'wahrung', 'waehrung', 'devise', 'monnaie', 'moneda', 'divisa', 'munt'],
  reference: [
    'reference', 'ref', 'id', 'transaction id', 'transaction reference', 'reference number', 'ref no', 'fitid',
    'referenz', 'bankreferenz', 'kundenreferenz', 'reference operation', 'referencia', 'referentie', 'transactiereferentie',
  ],
  transaction_type: [
    'type', 'transaction type', 'buchungstext', 'umsatzart', 'vorgang', "type d'operation", 'type operation', 'nature',
    'tipo', 'tipo de operacion', 'mutatiesoort',
  ],
  check_number: ['check number', 'check no', 'check', 'cheque number', 'cheque no', 'scheck', 'cheque', 'numero de cheque'],
}

/** Header keywords for the guessed mapping, tried in this order (a balance amount is a balance). */
const headerKeywords: ReadonlyArray<readonly [ColumnRole, RegExp]> = [
  ['value_date', /\b(valeur|valor|valuta|wertstellung|value date|post(ed|ing)? date)\b/],
  ['transaction_date', /\b(date|fecha)\b|datum\b/],
  ['balance', /\b(balance|saldo|solde|kontostand)\b/],
  ['debit', /\b(debit|withdrawal|soll|cargo)\b/],
  ['credit', /\b(credit|deposit|haben|abono)\b/],
  ['amount', /\b(amount|betrag|montant|importe|bedrag)\b/],
  ['currency', /\b(currency|wahrung|devise|moneda|divisa)\b/],
  ['reference', /\b(reference|referenz|referencia|referentie)\b/],
  ['description', /\b(description|memo|verwendungszweck|libelle|concepto|omschrijving|narrative)\b/],
  ['counterparty_name', /\b(payee|merchant|counterparty|beneficiary|empfanger|auftraggeber)\b/],
]

function isCurrencyCode(text: string): boolean {
  return isIsoCurrency(text.toUpperCase())
}

const knownHeaderRoles = new Map<string, ColumnRole>()
for (const [role, names] of Object.entries(knownHeaders) as [ColumnRole, readonly string[]][]) {
  for (const name of names) knownHeaderRoles.set(foldHeader(name).folded, role)
}

/**
 * A header folded for matching: lower case, accents dropped, punctuation other than `/` and `'` made
 * spaces, parenthesised qualifiers dropped, and a currency (`Betrag (EUR)`, `Amount in USD`, `Saldo €`)
 * set aside as a hint.
 */
export function foldHeader(header: string): { folded: string; currency: string | undefined } {
  let currency: string | undefined
  // A parenthesised qualifier is a unit or a note (`Betrag (EUR)`, `Date (UTC)`): kept only as a currency hint.
  let text = header.replace(/[(\[]([^)\]]*)[)\]]/g, (_group, inner: string) => {
    const code = inner.trim().replace(/€/g, 'EUR').replace(/£/g, 'GBP')
    if (isCurrencyCode(code)) currency = code.toUpperCase()
    return ' '
  })
  text = foldText(text.replace(/€/g, ' eur ').replace(/£/g, ' gbp ')).replace(/[’`]/g, "'")
  text = text.replace(/[^a-z0-9/']+/g, ' ').replace(/\s*\/\s*/g, '/').trim()
  const trailing = /^(.*?)\s+(?:in\s+)?([a-z]{3})$/.exec(text)
  if (trailing !== null && trailing[1] !== undefined && trailing[2] !== undefined && isCurrencyCode(trailing[2])) {
    currency = trailing[2].toUpperCase()
    text = trailing[1]
  }
  return { folded: text, currency }
}

export interface ColumnMatch {
  readonly index: number
  readonly header: string
  /** True when the header is a known name; false when only a keyword matched. */
  readonly exact: boolean
  readonly currency: string | undefined
}

export type ColumnMapping = Partial<Record<ColumnRole, ColumnMatch>>

/**
 * Maps a header row. Each role takes the first column with an exact name, else the first whose keyword
 * matches; a column serves one role. "Valuta" is a value date in German and a currency in Dutch: the
 * first value under it decides (`sample` is the first data row, when there is one). With only a posting
 * or value date, that date is the transaction date.
 */
export function mapColumns(header: readonly string[], sample: readonly string[] | undefined): ColumnMapping {
  const exact = new Map<ColumnRole, ColumnMatch>()
  const guessed = new Map<ColumnRole, ColumnMatch>()
  const used = new Set<number>()
  header.forEach((cell, index) => {
    const { folded, currency } = foldHeader(cell)
    if (folded === '') return
    let role = knownHeaderRoles.get(folded)
    if (role === 'value_date' && folded === 'valuta' && /^[A-Za-z]{3}$/.test((sample?.[index] ?? '').trim())) role = 'currency'
    if (role !== undefined) {
      if (!exact.has(role)) {
        exact.set(role, { index, header: cell, exact: true, currency })
        used.add(index)
      }
      return
    }
  })
  header.forEach((cell, index) => {
    if (used.has(index)) return
    const { folded, currency } = foldHeader(cell)
    if (folded === '') return
    for (const [role, pattern] of headerKeywords) {
      if (pattern.test(folded)) {
        if (!exact.has(role) && !guessed.has(role)) guessed.set(role, { index, header: cell, exact: false, currency })
        return
      }
    }
  })
  const mapping: ColumnMapping = {}
  for (const [role, match] of [...guessed, ...exact]) mapping[role] = match
  if (mapping.transaction_date === undefined && mapping.value_date !== undefined) {
    mapping.transaction_date = mapping.value_date
    delete mapping.value_date
  }
  return mapping
}

/** The roles that make a row a header: a date and something else a statement has. */
export function isHeaderMapping(mapping: ColumnMapping): boolean {
  const roles = Object.keys(mapping).length
  return mapping.transaction_date !== undefined && roles >= 2
}

/** Whether the mapping says where the money is: an amount column, or debit and credit columns. */
export function hasAmountColumns(mapping: ColumnMapping): boolean {
  return mapping.amount !== undefined || (mapping.debit !== undefined && mapping.credit !== undefined)
}

/** Whether a role was matched by keyword only (a guessed mapping lowers confidence). */
export function usedGuessedRoles(mapping: ColumnMapping): ColumnRole[] {
  return (Object.entries(mapping) as [ColumnRole, ColumnMatch][]).filter(([, match]) => !match.exact).map(([role]) => role)
}

/** A direction cell: `Af`/`Bij`, `D`/`C`, `DR`/`CR`, `Soll`/`Haben`, `Debit`/`Credit`… → money out or in. */
export function readDirection(cell: string): 'out' | 'in' | undefined {
  const value = foldText(cell).replace(/[^a-z+-]/g, '')
  if (['af', 'd', 'dr', 'db', 'dbit', 'debit', 'debet', 's', 'soll', 'cargo', 'out', '-'].includes(value)) return 'out'
  if (['bij', 'c', 'cr', 'crdt', 'credit', 'h', 'haben', 'abono', 'in', '+'].includes(value)) return 'in'
  return undefined
}
