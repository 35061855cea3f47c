/**
 * Reads an invoice or receipt out of plain text (a PDF's text layer, an e-mail body). Pure and
 * deterministic: the same text gives the same fields and the same confidence.
 *
 * How it reads: the text is cut into lines; on each line the labels of a small lexicon (English,
 * German, French) are found, longest match first; the value of a label is the text that follows it up
 * to the next label on the line, or the start of the next line when the label ends its line (labels
 * above values, as table layouts print them). Amounts are read without a locale (see
 * `parseLocalizedAmount`); dates by `dates.ts`. What is found is kept with how it was found, and the
 * confidence says so: see `invoiceConfidence`.
 */
import { canonicalDecimal, decimalAdd, decimalCompare, decimalSubtract } from '../../../../kernel/money.ts'
import { parseLocalizedAmount } from './localized-amount.ts'
import { addDays } from '../../../../kernel/dates.ts'
import { datePattern, readDateMatch, type DateOrder } from './dates.ts'
import { currencyCodeAlternatives, currencySymbolAlternatives, isKnownCurrencyCode, readCurrencyMarker, type CurrencyReading } from './currency.ts'
import type { CounterpartyRef, InvoiceRecord } from '../../domain/extracted.ts'

/** Text beyond this is not read: an invoice's fields are on its first pages, and regexes stay bounded. */
export const invoiceTextCharactersMax = 200_000
/** Lines longer than this are cut: a line is a printed line, not a paragraph. */
const lineCharactersMax = 2_000
/** Party names longer than this are layout noise, not a name. */
const partyNameCharactersMax = 120
/** How many lines under a "Bill to" label still belong to the bill-to block. */
const billToBlockLines = 4
/** Payment terms beyond this many days are not believed (`Net 3650` is a misreading). */
const paymentTermsDaysMax = 365

type LabelCategory =
  | 'invoice_number'
  | 'issue_date'
  | 'due_date'
  | 'total'
  | 'balance_due'
  | 'subtotal'
  | 'tax'
  | 'amount_paid'
  | 'bill_to'
  | 'vendor'
  | 'tax_id'
  | 'iban'
  | 'currency'
  | 'other'

/**
 * The label lexicon. Overlaps are settled by position then length, so `Total TTC` (total) beats
 * `Total`, `Total HT` (subtotal) beats `Total`, `VAT ID` (tax id) beats `VAT` (tax), and `Due date`
 * beats `date`. `other` labels are read for nothing; they end the value of the label before them and
 * keep their own numbers (phone, customer number, page) from being taken for amounts.
 */
const labelLexicon: ReadonlyArray<readonly [LabelCategory, string]> = [
  ['invoice_number', 'invoice\\s*(?:no\\.?|nr\\.?|number|num\\.?|#|id)'],
  ['invoice_number', 'invoice(?=\\s*:)'],
  ['invoice_number', 'inv\\.?\\s*(?:no\\.?|#)'],
  ['invoice_number', 'receipt\\s*(?:no\\.?|number|#)'],
  ['invoice_number', 'bill\\s*(?:no\\.?|number|#)'],
  ['invoice_number', 'rechnungs?\\s*-?\\s*(?:nummer|nr\\.?|no\\.?|#)'],
  ['invoice_number', 'beleg\\s*-?\\s*(?:nummer|nr\\.?)'],
  ['invoice_number', 'quittungs?\\s*-?\\s*(?:nummer|nr\\.?)'],
  ['invoice_number', 'facture\\s*(?:n\\s*[°º]|no\\.?|num[ée]ro|#)'],
  ['invoice_number', '(?:n\\s*[°º]|num[ée]ro)\\s*(?:de\\s*)?(?:la\\s*)?facture'],
  ['invoice_number', 're[çc]u\\s*(?:n\\s*[°º]|no\\.?)'],
  ['issue_date', 'invoice\\s*date'],
  ['issue_date', 'date\\s*of\\s*(?:issue|invoice)'],
  ['issue_date', 'issue\\s*date'],
  ['issue_date', 'date\\s*issued'],
  ['issue_date', 'issued(?:\\s*on)?'],
  ['issue_date', 'receipt\\s*date'],
  ['issue_date', 'date\\s*paid'],
  ['issue_date', 'billing\\s*date'],
  ['issue_date', 'date'],
  ['issue_date', 'rechnungsdatum'],
  ['issue_date', 'belegdatum'],
  ['issue_date', 'ausstellungsdatum'],
  ['issue_date', 'datum'],
  ['issue_date', 'date\\s*de\\s*(?:la\\s*)?facture'],
  ['issue_date', 'date\\s*de\\s*facturation'],
  ['issue_date', "date\\s*d['’]\\s*[ée]mission"],
  ['issue_date', 'factur[ée]e?\\s*le'],
  ['due_date', 'due\\s*date'],
  ['due_date', 'date\\s*due'],
  ['due_date', 'payment\\s*due(?:\\s*date)?'],
  ['due_date', 'due\\s*(?:on|by)'],
  ['due_date', 'due(?=\\s*:)'],
  ['due_date', 'pay(?:able)?\\s*by'],
  ['due_date', 'f[äa]llig(?:keitsdatum|keit)?(?:\\s*(?:am|bis|zum))?'],
  ['due_date', 'zahlbar\\s*bis(?:\\s*zum)?'],
  ['due_date', "date\\s*d['’]\\s*[ée]ch[ée]ance"],
  ['due_date', '[ée]ch[ée]ance(?:\\s*le)?'],
  ['due_date', 'date\\s*limite\\s*de\\s*(?:paiement|r[èe]glement)'],
  ['due_date', '[àa]\\s*payer\\s*(?:avant\\s*le|au\\s*plus\\s*tard\\s*le)'],
  ['due_date', 'payable\\s*(?:avant\\s*le|le)'],
  ['total', 'total'],
  ['total', 'invoice\\s*total'],
  ['total', 'grand\\s*total'],
  ['total', 'total\\s*amount'],
  ['total', 'amount\\s*charged'],
  ['total', 'total\\s*\\(?\\s*(?:incl\\.?|including|inc\\.?)\\s*(?:tax|vat|gst|taxes)\\s*\\)?'],
  ['total', 'gesamtbetrag'],
  ['total', 'gesamtsumme'],
  ['total', 'rechnungsbetrag'],
  ['total', 'endbetrag'],
  ['total', 'bruttobetrag'],
  ['total', 'summe(?:\\s*brutto)?'],
  ['total', 'gesamt(?:\\s*brutto)?'],
  ['total', 'total\\s*ttc'],
  ['total', 'montant\\s*(?:total\\s*)?ttc'],
  ['total', 'montant\\s*total'],
  ['total', 'total\\s*g[ée]n[ée]ral'],
  ['balance_due', 'amount\\s*due'],
  ['balance_due', 'balance\\s*due'],
  ['balance_due', 'total\\s*due'],
  ['balance_due', 'amount\\s*payable'],
  ['balance_due', 'zu\\s*zahlen(?:der\\s*betrag)?'],
  ['balance_due', 'noch\\s*zu\\s*zahlen'],
  ['balance_due', 'zahlbetrag'],
  ['balance_due', 'offener\\s*betrag'],
  ['balance_due', 'restbetrag'],
  ['balance_due', 'montant\\s*d[ûu]'],
  ['balance_due', 'net\\s*[àa]\\s*payer'],
  ['balance_due', 'reste\\s*[àa]\\s*payer'],
  ['balance_due', 'solde\\s*d[ûu]'],
  ['balance_due', 'montant\\s*[àa]\\s*payer'],
  ['balance_due', 'total\\s*[àa]\\s*payer'],
  ['subtotal', 'sub\\s*-?\\s*total'],
  ['subtotal', 'net\\s*(?:amount|total)'],
  ['subtotal', 'total\\s*\\(?\\s*(?:excl\\.?|excluding|before|net\\s*of|w/o)\\s*(?:tax|vat|gst|taxes)\\s*\\)?'],
  ['subtotal', 'amount\\s*before\\s*tax'],
  ['subtotal', 'zwischensumme'],
  ['subtotal', 'nettobetrag'],
  ['subtotal', 'summe\\s*netto'],
  ['subtotal', 'netto(?:summe|betrag)?'],
  ['subtotal', 'gesamt\\s*netto'],
  ['subtotal', 'total\\s*ht'],
  ['subtotal', 'montant\\s*ht'],
  ['subtotal', 'total\\s*hors\\s*taxes?'],
  ['subtotal', 'sous\\s*-?\\s*total'],
  ['tax', 'tax(?:es)?'],
  ['tax', 'sales\\s*tax'],
  ['tax', 'total\\s*(?:tax|vat)'],
  ['tax', 'vat'],
  ['tax', 'gst'],
  ['tax', 'hst'],
  ['tax', 'mwst\\.?'],
  ['tax', 'ust\\.?'],
  ['tax', '(?:zzgl\\.?|inkl\\.?|enthaltene)\\s*(?:mwst|ust)\\.?'],
  ['tax', 'umsatzsteuer'],
  ['tax', 'mehrwertsteuer'],
  ['tax', 'tva'],
  ['tax', '(?:total|montant)\\s*tva'],
  ['amount_paid', 'amount\\s*paid'],
  ['amount_paid', 'total\\s*paid'],
  ['amount_paid', 'paid'],
  ['amount_paid', '(?:less\\s*)?payments?(?:\\s*(?:received|made|/\\s*credits))?'],
  ['amount_paid', '(?:bereits\\s*)?bezahlt'],
  ['amount_paid', 'anzahlung'],
  ['amount_paid', '(?:geleistete|erhaltene)\\s*zahlung(?:en)?'],
  ['amount_paid', '(?:d[ée]j[àa]\\s*)?pay[ée]'],
  ['amount_paid', 'montant\\s*(?:pay[ée]|r[ée]gl[ée])'],
  ['amount_paid', 'acompte(?:\\s*vers[ée])?'],
  ['bill_to', 'bill(?:ed)?\\s*to'],
  ['bill_to', 'invoice\\s*to'],
  ['bill_to', 'sold\\s*to'],
  ['bill_to', 'customer(?=\\s*:)'],
  ['bill_to', 'rechnungsempf[äa]nger'],
  ['bill_to', 'rechnung\\s*an'],
  ['bill_to', 'kunde(?=\\s*:)'],
  ['bill_to', 'empf[äa]nger(?=\\s*:)'],
  ['bill_to', 'factur[ée]\\s*[àa]'],
  ['bill_to', 'client(?=\\s*:)'],
  ['bill_to', 'destinataire'],
  ['bill_to', 'adress[ée]e?\\s*[àa]'],
  ['vendor', 'from(?=\\s*:)'],
  ['vendor', 'bill\\s*from'],
  ['vendor', '(?:your\\s*)?receipt\\s*from'],
  ['vendor', '(?:vendor|seller|supplier|merchant|payee|issued\\s*by)(?=\\s*:)'],
  ['vendor', '(?:lieferant|verk[äa]ufer|rechnungssteller|absender)(?=\\s*:)'],
  ['vendor', '(?:[ée]metteur|vendeur|fournisseur)(?=\\s*:)'],
  ['tax_id', '(?:vat|tax|gst|abn)\\s*(?:id|no\\.?|number|reg(?:istration)?\\.?\\s*(?:no\\.?|number)?|#)'],
  ['tax_id', '(?:customer\\s*)?(?:vat|tax)\\s*id'],
  ['tax_id', '(?:ein|tin)(?=\\s*[:#])'],
  ['tax_id', 'ust\\s*-?\\s*id\\s*-?\\s*(?:nr\\.?)?'],
  ['tax_id', 'ust\\s*-?\\s*idnr\\.?'],
  ['tax_id', 'umsatzsteuer\\s*-?\\s*identifikationsnummer'],
  ['tax_id', 'steuer\\s*-?\\s*(?:nummer|nr\\.?)'],
  ['tax_id', "n\\s*[°º]\\s*(?:de\\s*)?tva(?:\\s*intracom(?:munautaire)?)?"],
  ['tax_id', 'tva\\s*intracom(?:munautaire)?'],
  ['tax_id', 'num[ée]ro\\s*de\\s*tva'],
  ['tax_id', 'siret|siren'],
  ['iban', 'iban'],
  ['currency', 'currency|w[äa]hrung|devise|monnaie'],
  [
    'other',
    [
      'tel\\.?', 'phone', 'fax', 'telefon', 't[ée]l[ée]phone', 'mobile', 'page', 'seite', 'qty', 'quantity', 'menge',
      'quantit[ée]', 'unit\\s*price', 'price', 'rate', 'einzelpreis', 'preis', 'prix\\s*unitaire', 'prix', 'description',
      'beschreibung', 'd[ée]signation', 'bic', 'swift', 'account\\s*(?:no\\.?|number|name)', 'routing\\s*(?:no\\.?|number)',
      'sort\\s*code', 'order\\s*(?:no\\.?|number|#|date|id)', 'po\\s*(?:no\\.?|number|#)', 'bestell\\s*-?\\s*(?:nummer|nr\\.?)',
      'kunden\\s*-?\\s*(?:nummer|nr\\.?)', 'customer\\s*(?:no\\.?|number|id|#)', 'n\\s*[°º]\\s*client', 'client\\s*(?:n\\s*[°º]|no\\.?)',
      'payment\\s*(?:method|terms|date|details|reference)', 'terms', 'zahlungs(?:art|bedingungen|ziel|referenz)',
      '(?:conditions|mode|moyen)\\s*de\\s*paiement', 'delivery\\s*date', 'lieferdatum', 'leistungsdatum',
      'leistungszeitraum', 'service\\s*(?:date|period)', 'date\\s*de\\s*livraison', 'ship\\s*to', 'lieferadresse',
      'adresse\\s*de\\s*livraison', 'discount', 'rabatt', 'remise', 'shipping', 'versand(?:kosten)?', 'frais\\s*de\\s*port',
      'website', 'e-?mail', 'card', 'karte', 'carte', 'bank', 'banque', 'amount', 'betrag', 'montant',
    ].join('|'),
  ],
]

const compiledLexicon = labelLexicon.map(
  ([category, source]) => [category, new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}])`, 'giu')] as const,
)

interface LabelHit {
  readonly category: LabelCategory
  readonly start: number
  readonly end: number
}

interface Line {
  readonly text: string
  readonly labels: readonly LabelHit[]
}

function findLabels(text: string): LabelHit[] {
  const hits: LabelHit[] = []
  for (const [category, pattern] of compiledLexicon) {
    pattern.lastIndex = 0
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (match[0].length === 0) {
        pattern.lastIndex += 1
        continue
      }
      hits.push({ category, start: match.index, end: match.index + match[0].length })
    }
  }
  hits.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start))
  const accepted: LabelHit[] = []
  let covered = 0
  for (const hit of hits) {
    if (hit.start < covered) continue
    accepted.push(hit)
    covered = hit.end
  }
  return accepted
}

function splitLines(text: string): Line[] {
  return text
    .slice(0, invoiceTextCharactersMax)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((raw) => raw.replace(/[\t\u00a0\u202f\u2009]/g, ' ').replace(/ {2,}/g, ' ').trim().slice(0, lineCharactersMax))
    .filter((line) => line.length > 0)
    .map((line) => ({ text: line, labels: findLabels(line) }))
}

/** The text a label governs: from its end to the next label, or the next line's opening when it ends its line. */
function labelValue(lines: readonly Line[], lineIndex: number, labelIndex: number): { readonly text: string; readonly fromNextLine: boolean } {
  const line = lines[lineIndex]
  if (line === undefined) return { text: '', fromNextLine: false }
  const label = line.labels[labelIndex]
  if (label === undefined) return { text: '', fromNextLine: false }
  const next = line.labels[labelIndex + 1]
  const own = line.text.slice(label.end, next?.start ?? line.text.length)
  if (own.replace(/[\s:#.\-–()]/g, '') !== '') return { text: own, fromNextLine: false }
  const following = lines[lineIndex + 1]
  if (following === undefined) return { text: own, fromNextLine: false }
  return { text: following.text.slice(0, following.labels[0]?.start ?? following.text.length), fromNextLine: true }
}

// Amounts: an optional currency before or after, an optional sign, and a number that is not part of a
// date, an id or a percentage.
const amountPattern = new RegExp(
  `(?<![\\p{L}\\p{N}.,/-])` +
    `(?:(?<prefix>${currencyCodeAlternatives}|${currencySymbolAlternatives})\\s?)?` +
    `(?<sign>[-−])?\\s?` +
    `(?:(?<innerPrefix>${currencySymbolAlternatives})\\s?)?` +
    `(?<number>\\d{1,3}(?:[ ,.'\\u00a0\\u202f]\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,2})?)` +
    `(?![\\p{N}]|[.,/-]\\p{N}|\\s?%)` +
    `(?:\\s?(?<suffix>${currencyCodeAlternatives}|${currencySymbolAlternatives})(?![\\p{L}]))?`,
  'gu',
)

const currencyCodePattern = new RegExp(`(?<![\\p{L}])(${currencyCodeAlternatives})(?![\\p{L}])`, 'gu')
const currencySymbolPattern = new RegExp(`(${currencySymbolAlternatives})`, 'gu')
const emailPattern = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gu

interface AmountToken {
  readonly value: string
  readonly currencyMarker: string | undefined
  /** Two decimals or a currency marker: looks like money rather than a count or an id. */
  readonly moneyLike: boolean
}

function maskDates(text: string): string {
  return text.replace(new RegExp(datePattern.source, 'giu'), (match) => ' '.repeat(match.length))
}

function readAmounts(text: string): AmountToken[] {
  const tokens: AmountToken[] = []
  const pattern = new RegExp(amountPattern.source, 'gu')
  const masked = maskDates(text)
  for (let match = pattern.exec(masked); match !== null; match = pattern.exec(masked)) {
    const groups = match.groups ?? {}
    const magnitude = parseLocalizedAmount(groups.number ?? '')
    if (magnitude === undefined) continue
    const currencyMarker = groups.prefix ?? groups.innerPrefix ?? groups.suffix
    const value = groups.sign === undefined || magnitude === '0' ? magnitude : `-${magnitude}`
    tokens.push({ value, currencyMarker, moneyLike: currencyMarker !== undefined || /[.,]\d{2}$/.test(groups.number ?? '') })
  }
  return tokens
}

function readCodes(text: string): string[] {
  return [...text.matchAll(new RegExp(currencyCodePattern.source, 'gu'))].map((match) => match[1] ?? '')
}

function readDates(text: string, order: DateOrder) {
  const pattern = new RegExp(datePattern.source, 'giu')
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const read = readDateMatch(match, order)
    if (read !== undefined) return read
  }
  return undefined
}

const invoiceNumberPattern = /^[\s:#.]*(?:#\s*)?([A-Z0-9](?:[A-Z0-9\-/._]*[A-Z0-9])?)/iu

function readInvoiceNumber(text: string): string | undefined {
  const match = invoiceNumberPattern.exec(text)
  const candidate = match?.[1]
  if (candidate === undefined || !/\d/.test(candidate) || candidate.length > 64) return undefined
  return candidate
}

function readTaxId(text: string): string | undefined {
  const match = /^[\s:#.]*((?:[A-Z]{2,3}\s?)?\d[\dA-Z./-]*(?:\s\d[\dA-Z./-]*)*)/u.exec(text)
  const candidate = match?.[1]?.replace(/\s+/g, '')
  return candidate !== undefined && candidate.length >= 5 && candidate.length <= 30 ? candidate : undefined
}

function ibanChecksumValid(iban: string): boolean {
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`
  const digits = rearranged.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55))
  let remainder = 0
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97
  return remainder === 1
}

function readIban(text: string): string | undefined {
  const match = /^[\s:#.]*([A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,4})?)/u.exec(text)
  const candidate = match?.[1]?.replace(/\s+/g, '')
  return candidate !== undefined && candidate.length >= 15 && candidate.length <= 34 && ibanChecksumValid(candidate) ? candidate : undefined
}

const titleWords = /(?<![\p{L}])(?:tax\s*invoice|invoice|rechnung|facture|receipt|quittung|kassenbon|re[çc]u|bill)(?![\p{L}])/giu

function cleanName(text: string): string | undefined {
  const name = text
    .replace(new RegExp(emailPattern.source, 'gu'), ' ')
    .replace(/^[\s:#.,\-–]+|[\s:#,\-–]+$/gu, '')
    .replace(/\s{2,}/g, ' ')
    .trim()
  if (name.length === 0 || name.length > partyNameCharactersMax || !/\p{L}{2}/u.test(name)) return undefined
  return name
}

export interface PartyFields {
  name?: string
  email?: string
  taxId?: string
  iban?: string
}

export type TotalSource = 'label' | 'balance_due' | 'subtotal_plus_tax' | 'largest_amount'
export type CurrencySource = 'label' | 'total' | 'document_code' | 'document_symbol' | 'source_ref'

export interface InvoiceTextFields {
  invoiceNumber?: string
  issueDate?: string
  dueDate?: string
  currency?: string
  total?: string
  subtotal?: string
  tax?: string
  amountPaid?: string
  balanceDue?: string
  /** A receipt (or a PAID stamp): the document says it has been paid. */
  isReceipt: boolean
  vendor: PartyFields
  billTo: PartyFields
  evidence: {
    totalSource?: TotalSource
    currencySource?: CurrencySource
    currencyAmbiguous: boolean
    /** A numeric date whose day/month order was guessed. */
    dateAmbiguous: boolean
    /** The issue date was the first date in the text, not a labelled one. */
    issueDateUnlabelled: boolean
    dueDateFromTerms: boolean
    /** Whether subtotal + tax = total and total − paid = balance due, where the text gives them; undefined when nothing can be checked. */
    arithmeticConsistent?: boolean
    /** A total, subtotal or tax was negative: a credit note, which is not read. */
    negativeAmount: boolean
  }
}

export interface InvoiceTextOptions {
  /** A currency the source names (sourceRef.currency): used only when the text names none. */
  readonly fallbackCurrency?: string
  /**
   * Whether the issuer may be taken from the document's first lines when no label names it. True for a
   * printed invoice (its letterhead); false for an e-mail body, whose first line is a greeting or subject.
   */
  readonly issuerFromFirstLines?: boolean
}

interface LabelledAmount {
  readonly token: AmountToken
  /** Currency codes elsewhere in the label's value, e.g. `Amount due (USD) $1,250.00`. */
  readonly segmentCodes: readonly string[]
}

/** Reads the fields of an invoice or receipt from its text. Never throws on any input. */
export function readInvoiceText(text: string, options: InvoiceTextOptions = {}): InvoiceTextFields {
  const lines = splitLines(text)
  const documentText = lines.map((line) => line.text).join('\n')
  const documentCodes = new Set(readCodes(documentText))
  const amountsByCategory = new Map<LabelCategory, LabelledAmount[]>()
  const fields: InvoiceTextFields = {
    isReceipt: false,
    vendor: {},
    billTo: {},
    evidence: { currencyAmbiguous: false, dateAmbiguous: false, issueDateUnlabelled: false, dueDateFromTerms: false, negativeAmount: false },
  }
  let labelledCurrency: string | undefined
  let issueDateText: string | undefined
  let dueDateText: string | undefined
  let billToLine: number | undefined
  const vendorTaxIds: string[] = []

  for (const [lineIndex, line] of lines.entries()) {
    for (const [labelIndex, label] of line.labels.entries()) {
      const value = labelValue(lines, lineIndex, labelIndex)
      switch (label.category) {
        case 'invoice_number':
          fields.invoiceNumber ??= readInvoiceNumber(value.text)
          break
        case 'issue_date':
          if (issueDateText === undefined && readDates(value.text, 'day_first') !== undefined) issueDateText = value.text
          break
        case 'due_date':
          if (dueDateText === undefined && readDates(value.text, 'day_first') !== undefined) dueDateText = value.text
          break
        case 'total':
        case 'balance_due':
        case 'subtotal':
        case 'tax':
        case 'amount_paid': {
          // Only money-like amounts (two decimals or a currency): `Paid with Visa 4242` has no amount.
          const token = readAmounts(value.text).find((candidate) => candidate.moneyLike)
          if (token === undefined) break
          const list = amountsByCategory.get(label.category) ?? []
          list.push({ token, segmentCodes: readCodes(value.text) })
          amountsByCategory.set(label.category, list)
          break
        }
        case 'bill_to':
          if (billToLine === undefined) {
            const name = cleanName(value.text)
            if (name !== undefined) {
              fields.billTo.name = name
              billToLine = value.fromNextLine ? lineIndex + 1 : lineIndex
            }
          }
          break
        case 'vendor':
          fields.vendor.name ??= cleanName(value.text)
          break
        case 'tax_id': {
          const taxId = readTaxId(value.text)
          if (taxId === undefined) break
          const inBillToBlock = billToLine !== undefined && lineIndex >= billToLine && lineIndex < billToLine + billToBlockLines
          if (inBillToBlock) fields.billTo.taxId ??= taxId
          else vendorTaxIds.push(taxId)
          break
        }
        case 'iban':
          fields.vendor.iban ??= readIban(value.text)
          break
        case 'currency': {
          const code = /^[\s:]*([A-Z]{3})(?![\p{L}])/u.exec(value.text)?.[1]
          if (code !== undefined && isKnownCurrencyCode(code)) labelledCurrency ??= code
          break
        }
        case 'other':
          break
      }
    }
  }
  fields.vendor.taxId = vendorTaxIds[0]

  // E-mail addresses: one in the bill-to block is the customer's; the first other one is the issuer's.
  for (const [lineIndex, line] of lines.entries()) {
    const inBillToBlock = billToLine !== undefined && lineIndex >= billToLine && lineIndex < billToLine + billToBlockLines
    for (const match of line.text.matchAll(new RegExp(emailPattern.source, 'gu'))) {
      if (inBillToBlock) fields.billTo.email ??= match[0].toLowerCase()
      else fields.vendor.email ??= match[0].toLowerCase()
    }
  }

  // The issuer's name, when no label gives it: the document's first line that is a name once the
  // title words (INVOICE, RECHNUNG…) and everything from its first label on are removed.
  if (fields.vendor.name === undefined && options.issuerFromFirstLines === true) {
    for (const line of lines.slice(0, 3)) {
      const beforeLabels = line.text.slice(0, line.labels[0]?.start ?? line.text.length)
      const name = cleanName(beforeLabels.replace(new RegExp(titleWords.source, 'giu'), ' '))
      if (name !== undefined && !/^\d/.test(name)) {
        fields.vendor.name = name
        break
      }
    }
  }

  fields.isReceipt =
    lines.slice(0, 5).some((line) => /^(?:your\s+)?(?:receipt|quittung|kassenbon|re[çc]u|zahlungsbeleg)(?![\p{L}])/iu.test(line.text)) ||
    lines.some((line) => /^(?:paid|paid in full|bezahlt|pay[ée]|acquitt[ée]e?)$/iu.test(line.text))

  // Amounts. A category printed more than once (a summary box and a footer) is read from its last
  // occurrence: totals close the document.
  const last = (category: LabelCategory) => amountsByCategory.get(category)?.at(-1)
  const totalAmount = last('total')
  const subtotalAmount = last('subtotal')
  const paidAmount = last('amount_paid')
  const dueAmount = last('balance_due')
  const taxAmounts = amountsByCategory.get('tax') ?? []

  for (const labelled of [totalAmount, subtotalAmount, ...taxAmounts]) {
    if (labelled !== undefined && labelled.token.value.startsWith('-')) fields.evidence.negativeAmount = true
  }
  const magnitude = (value: string) => value.replace(/^-/, '')
  fields.subtotal = subtotalAmount === undefined ? undefined : magnitude(subtotalAmount.token.value)
  fields.amountPaid = paidAmount === undefined ? undefined : magnitude(paidAmount.token.value)
  fields.balanceDue = dueAmount === undefined ? undefined : magnitude(dueAmount.token.value)

  let totalToken: LabelledAmount | undefined
  if (totalAmount !== undefined) {
    fields.total = magnitude(totalAmount.token.value)
    fields.evidence.totalSource = 'label'
    totalToken = totalAmount
  } else if (dueAmount !== undefined) {
    fields.total = fields.amountPaid === undefined ? fields.balanceDue : decimalAdd(fields.balanceDue ?? '0', fields.amountPaid)
    fields.evidence.totalSource = 'balance_due'
    totalToken = dueAmount
  }

  // Several tax lines (7 % and 19 %) add up when that makes the invoice add up; otherwise the last is the tax.
  if (taxAmounts.length > 0) {
    const lastTax = magnitude(taxAmounts.at(-1)?.token.value ?? '0')
    const taxSum = taxAmounts.reduce((sum, labelled) => decimalAdd(sum, magnitude(labelled.token.value)), '0')
    const sumFits = fields.subtotal !== undefined && fields.total !== undefined && decimalCompare(decimalAdd(fields.subtotal, taxSum), fields.total) === 0
    fields.tax = taxAmounts.length > 1 && sumFits ? taxSum : lastTax
  }

  if (fields.total === undefined && fields.subtotal !== undefined && fields.tax !== undefined) {
    fields.total = decimalAdd(fields.subtotal, fields.tax)
    fields.evidence.totalSource = 'subtotal_plus_tax'
    totalToken = subtotalAmount
  }

  let largest: AmountToken | undefined
  if (fields.total === undefined) {
    // No labelled total: the largest money-like amount in the document, which is usually the total
    // and sometimes is not. The confidence says so.
    for (const line of lines) {
      for (const token of readAmounts(line.text)) {
        if (!token.moneyLike || token.value.startsWith('-')) continue
        if (largest === undefined || decimalCompare(token.value, largest.value) > 0) largest = token
      }
    }
    if (largest !== undefined) {
      fields.total = largest.value
      fields.evidence.totalSource = 'largest_amount'
    }
  }

  if (fields.amountPaid === undefined && fields.total !== undefined && fields.balanceDue !== undefined && fields.evidence.totalSource === 'label') {
    const paid = decimalSubtract(fields.total, fields.balanceDue)
    if (decimalCompare(paid, '0') > 0) fields.amountPaid = paid
  }
  if (fields.amountPaid === undefined && fields.isReceipt && fields.total !== undefined) fields.amountPaid = fields.total

  const checks: boolean[] = []
  const totalRead = fields.evidence.totalSource === 'label' || fields.evidence.totalSource === 'balance_due'
  if (fields.subtotal !== undefined && fields.tax !== undefined && fields.total !== undefined && totalRead) {
    checks.push(decimalCompare(decimalAdd(fields.subtotal, fields.tax), fields.total) === 0)
  }
  if (fields.total !== undefined && fields.amountPaid !== undefined && fields.balanceDue !== undefined && fields.evidence.totalSource === 'label') {
    checks.push(decimalCompare(decimalSubtract(fields.total, fields.amountPaid), fields.balanceDue) === 0)
  }
  if (fields.total !== undefined && fields.amountPaid !== undefined && decimalCompare(fields.amountPaid, fields.total) > 0) checks.push(false)
  fields.evidence.arithmeticConsistent = checks.length === 0 ? undefined : checks.every(Boolean)

  // Currency: a labelled one, else the one written with the total, else the code (then the symbol)
  // the document uses most, else what the source says.
  const readMarker = (marker: string | undefined): CurrencyReading | undefined =>
    marker === undefined ? undefined : readCurrencyMarker(marker, documentCodes)
  const totalCurrency = readMarker(totalToken?.token.currencyMarker) ?? readMarker(totalToken?.segmentCodes[0]) ?? readMarker(largest?.currencyMarker)
  if (labelledCurrency !== undefined) {
    fields.currency = labelledCurrency
    fields.evidence.currencySource = 'label'
  } else if (totalCurrency !== undefined) {
    fields.currency = totalCurrency.currency
    fields.evidence.currencySource = 'total'
    fields.evidence.currencyAmbiguous = totalCurrency.ambiguous
  } else {
    const code = mostFrequent(readCodes(documentText))
    const symbol = mostFrequent([...documentText.matchAll(new RegExp(currencySymbolPattern.source, 'gu'))].map((match) => match[1] ?? ''))
    const fromSymbol = readMarker(symbol)
    if (code !== undefined) {
      fields.currency = code
      fields.evidence.currencySource = 'document_code'
    } else if (fromSymbol !== undefined) {
      fields.currency = fromSymbol.currency
      fields.evidence.currencySource = 'document_symbol'
      fields.evidence.currencyAmbiguous = fromSymbol.ambiguous
    } else if (options.fallbackCurrency !== undefined && isKnownCurrencyCode(options.fallbackCurrency)) {
      fields.currency = options.fallbackCurrency
      fields.evidence.currencySource = 'source_ref'
    }
  }

  // Dates, once the currency is known: a US-dollar document writes 03/04/2026 month first.
  const order: DateOrder = fields.currency === 'USD' ? 'month_first' : 'day_first'
  const issue = issueDateText === undefined ? undefined : readDates(issueDateText, order)
  const due = dueDateText === undefined ? undefined : readDates(dueDateText, order)
  if (issue !== undefined) {
    fields.issueDate = issue.iso
    fields.evidence.dateAmbiguous ||= issue.ambiguous
  } else {
    const first = readDates(documentText, order)
    if (first !== undefined && first.iso !== due?.iso) {
      fields.issueDate = first.iso
      fields.evidence.issueDateUnlabelled = true
      fields.evidence.dateAmbiguous ||= first.ambiguous
    }
  }
  if (due !== undefined) {
    fields.dueDate = due.iso
    fields.evidence.dateAmbiguous ||= due.ambiguous
  } else if (fields.issueDate !== undefined) {
    const termsDays = readPaymentTermsDays(documentText)
    if (termsDays !== undefined) {
      fields.dueDate = addDays(fields.issueDate, termsDays)
      fields.evidence.dueDateFromTerms = true
    }
  }
  return fields
}

function mostFrequent(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  let best: string | undefined
  for (const [value, count] of counts) if (best === undefined || count > (counts.get(best) ?? 0)) best = value
  return best
}

/** Payment terms in days: `Net 30`, `payable within 14 days`, `zahlbar innerhalb von 14 Tagen`, `sous 30 jours`. */
export function readPaymentTermsDays(text: string): number | undefined {
  const patterns = [
    /(?<![\p{L}])net\s*(\d{1,3})(?![\p{N}])/iu,
    /(?<![\p{L}])(?:within|innerhalb(?:\s+von)?|sous|dans\s+un\s+d[ée]lai\s+de)\s+(\d{1,3})\s+(?:days|tagen|tage|jours)(?![\p{L}])/iu,
    /(?<![\p{L}])(\d{1,3})\s+(?:days|tage|jours)\s+net(?![\p{L}])/iu,
  ]
  for (const pattern of patterns) {
    const days = Number(pattern.exec(text)?.[1])
    if (Number.isInteger(days) && days > 0 && days <= paymentTermsDaysMax) return days
  }
  return undefined
}

/**
 * How sure the reading is, by a fixed rule (see README.md, "Confidence"):
 * labelled total (or a labelled amount due) and a labelled invoice number: 0.9; a total computed from
 * labelled subtotal and tax: 0.75; a total guessed as the largest amount: 0.4. Then less 0.1 when the
 * currency was not written with the total (taken from elsewhere in the document), 0.2 when it came from
 * the source reference, 0.1 for a shared symbol ($, ¥) no code settles, 0.2 when the amounts do not add
 * up, 0.1 for a guessed day/month order, 0.05 for an unlabelled issue date, and 0.1 when the
 * counterparty has no name. Never above 0.9: a text layer read by rules is never certain.
 */
export function invoiceConfidence(fields: InvoiceTextFields, counterparty: CounterpartyRef): number {
  const evidence = fields.evidence
  let confidence = evidence.totalSource === 'largest_amount' ? 0.4 : evidence.totalSource === 'subtotal_plus_tax' ? 0.75 : 0.9
  if (evidence.currencySource === 'document_code' || evidence.currencySource === 'document_symbol') confidence -= 0.1
  if (evidence.currencySource === 'source_ref') confidence -= 0.2
  if (evidence.currencyAmbiguous) confidence -= 0.1
  if (evidence.arithmeticConsistent === false) confidence -= 0.2
  if (evidence.dateAmbiguous) confidence -= 0.1
  if (evidence.issueDateUnlabelled) confidence -= 0.05
  if (counterparty.name === undefined) confidence -= 0.1
  return Math.round(Math.min(0.9, Math.max(0.1, confidence)) * 100) / 100
}

export type InvoiceDirection = InvoiceRecord['direction']

function partyRef(party: PartyFields, options: { readonly includeIban: boolean }): CounterpartyRef {
  const ref: CounterpartyRef = {}
  if (party.name !== undefined) ref.name = party.name
  if (party.taxId !== undefined) ref.tax_id = party.taxId
  if (party.email !== undefined) ref.email = party.email
  if (options.includeIban && party.iban !== undefined) ref.iban = party.iban
  return ref
}

export type InvoiceReading =
  | { readonly ok: true; readonly record: InvoiceRecord; readonly confidence: number; readonly fields: InvoiceTextFields }
  | { readonly ok: false; readonly reason: string; readonly fields: InvoiceTextFields }

/**
 * Turns the fields into an `invoice` record. The counterparty is the issuer (vendor) of a payable and
 * the bill-to party of a receivable; the IBAN printed on an invoice is the issuer's, so it goes with the
 * vendor only. Fails, with a reason, when the record would lack what the contract requires.
 */
export function invoiceFromFields(fields: InvoiceTextFields, direction: InvoiceDirection): InvoiceReading {
  if (fields.evidence.negativeAmount) return { ok: false, reason: 'the total, subtotal or tax is negative (a credit note), which this parser does not read', fields }
  if (fields.invoiceNumber === undefined) return { ok: false, reason: 'no invoice number found (no label such as "Invoice No." / "Rechnungsnummer" / "Facture n°")', fields }
  if (fields.total === undefined) return { ok: false, reason: 'no total amount found', fields }
  if (fields.currency === undefined) return { ok: false, reason: 'no currency found (no ISO code or currency symbol, and no source_ref.currency)', fields }
  const counterparty = direction === 'payable' ? partyRef(fields.vendor, { includeIban: true }) : partyRef(fields.billTo, { includeIban: false })
  const record: InvoiceRecord = {
    kind: 'invoice',
    direction,
    invoice_number: fields.invoiceNumber,
    currency: fields.currency,
    total: canonicalDecimal(fields.total),
    counterparty,
  }
  if (fields.issueDate !== undefined) record.issue_date = fields.issueDate
  if (fields.dueDate !== undefined) record.due_date = fields.dueDate
  if (fields.subtotal !== undefined) record.subtotal = fields.subtotal
  if (fields.tax !== undefined) record.tax = fields.tax
  if (fields.amountPaid !== undefined) {
    record.amount_paid = fields.amountPaid
    if (decimalCompare(fields.amountPaid, '0') > 0) {
      const comparison = decimalCompare(fields.amountPaid, record.total)
      if (comparison === 0) record.status = 'paid'
      else if (comparison < 0) record.status = 'partial'
    }
  }
  return { ok: true, record, confidence: invoiceConfidence(fields, counterparty), fields }
}
