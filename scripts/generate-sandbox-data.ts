/**
 * Writes the sandbox's demo business into sandbox/demo/: the files a small roastery would hand Steward
 * for January–March 2026 (bank statements in four formats, provider payloads, a PDF invoice, an e-mail
 * with a receipt), plus manifest.json (how to ingest each file, machine-readable) and README.md (the
 * story, and what loading it should show).
 *
 * Run with `npx tsx scripts/generate-sandbox-data.ts`. Deterministic: no clock, no randomness (a seeded
 * xorshift picks the online-shop orders), fixed PDF metadata and MIME boundaries, so running it again
 * writes the same bytes. Every figure is computed here from one model of the business, so the files
 * agree with one another: statement balances add up, each month opens where the last one closed, and
 * every payment the story implies appears with the same amount on both sides.
 *
 * test/main/sandbox-data.test.ts reads every file back through the real parsers and checks all of this.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import { addDays } from '../src/kernel/dates.ts'

const outputDirectory = join(dirname(fileURLToPath(import.meta.url)), '..', 'sandbox', 'demo')

// ---------------------------------------------------------------------------------------------------
// Money, dates, identifiers

/** Amounts are integer cents throughout; these write them the ways the formats want. */
function plain(cents: number): string {
  const negative = cents < 0
  const magnitude = Math.abs(cents)
  const text = `${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}`
  return negative ? `-${text}` : text
}

/** German notation: `1.234,56` (signed when negative). */
function german(cents: number): string {
  const negative = cents < 0
  const magnitude = Math.abs(cents)
  const whole = String(Math.floor(magnitude / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.')
  const text = `${whole},${String(magnitude % 100).padStart(2, '0')}`
  return negative ? `-${text}` : text
}

/** MT940 notation: `1234,56`, unsigned. */
function swift(cents: number): string {
  return plain(Math.abs(cents)).replace('.', ',')
}

/** VAT at `percent` on a net amount, rounded half up to the cent (integer arithmetic). */
function vat(net: number, percent: number): number {
  return Math.floor((net * percent + 50) / 100)
}


/** 0 = Sunday … 6 = Saturday. */
function weekday(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay()
}

function germanDate(day: string): string {
  return `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`
}

function yymmdd(day: string): string {
  return day.slice(2).replace(/-/g, '')
}

/** An IBAN with its ISO 13616 check digits computed: country + BBAN. */
function iban(country: string, bban: string): string {
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55))
  let remainder = 0
  for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97
  return `${country}${String(98 - remainder).padStart(2, '0')}${bban}`
}

function germanIban(bankCode: string, accountNumber: string): string {
  return iban('DE', `${bankCode}${accountNumber.padStart(10, '0')}`)
}

function groupedIban(value: string): string {
  return value.replace(/(.{4})/g, '$1 ').trim()
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** A deterministic 0x address / hash from a label. */
function hexId(label: string, length: 40 | 64): string {
  return `0x${sha256Hex(label).slice(0, length)}`
}

/** xorshift32: the same orders on every run. */
function xorshift(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state
  }
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

// ---------------------------------------------------------------------------------------------------
// The business and the parties it deals with

const business = {
  name: 'Juniper & Finch Coffee Roasters GmbH',
  shortName: 'Juniper & Finch',
  address: 'Rummelsburger Straße 71, 10315 Berlin',
  taxId: 'DE318274615',
  email: 'buchhaltung@juniperfinch.example',
}

const bank = { name: 'Berliner Volksbank eG', bic: 'BEVODEBBXXX', bankCode: '10090000' }
const checking = { iban: germanIban(bank.bankCode, '2847563019'), name: 'Geschäftskonto', currency: 'EUR' }
const savings = { iban: germanIban(bank.bankCode, '2847563027'), name: 'Tagesgeld Rücklage', currency: 'EUR' }

interface Party {
  readonly name: string
  readonly iban?: string
  readonly bic?: string
  readonly email?: string
  readonly taxId?: string
}

const parties = {
  landlord: { name: 'Gewerbehof Lichtenberg GmbH & Co. KG', iban: germanIban('10050000', '6603918244'), bic: 'BELADEBEXXX' },
  insurer: { name: 'Hanseatische Betriebsversicherung AG', iban: germanIban('20050550', '1280044719'), bic: 'HASPDEHHXXX' },
  energy: { name: 'Spree Energie GmbH', iban: germanIban('10070000', '0419927300'), bic: 'DEUTDEBBXXX' },
  telecom: { name: 'Berlinet Kommunikation GmbH', iban: germanIban('10040000', '0377120455'), bic: 'COBADEBBXXX' },
  leasing: { name: 'Stadtflotte Leasing GmbH', iban: germanIban('12030000', '1009934571'), bic: 'BYLADEM1001' },
  finanzamt: { name: 'Finanzamt Lichtenberg', iban: germanIban('10000000', '0010001520'), bic: 'MARKDEF1100' },
  aok: { name: 'AOK Nordost', iban: germanIban('16050000', '3600012877'), bic: 'WELADED1PMB' },
  payroll: { name: 'Lohnwerk Payroll GmbH', iban: germanIban('10010010', '0917736125'), bic: 'PBNKDEFFXXX' },
  processor: { name: 'LumenPay Europe B.V.', iban: iban('NL', 'INGB0006839102'), bic: 'INGBNL2AXXX' },
  exchange: { name: 'Nordlicht Digital Exchange GmbH', iban: germanIban('43060967', '1174410300'), bic: 'GENODEM1GLS' },
  shopify: { name: 'Shopify International Limited', iban: iban('IE', 'CITI99005112345678'), bic: 'CITIIE2XXXX' },
  hanse: {
    name: 'Hanse Rohkaffee Import GmbH',
    iban: germanIban('20050550', '1262087341'),
    bic: 'HASPDEHHXXX',
    email: 'buchhaltung@hanse-rohkaffee.example',
    taxId: 'DE271948306',
  },
  logistics: { name: 'Spree Logistik GmbH', iban: germanIban('10050000', '0190473318'), bic: 'BELADEBEXXX', taxId: 'DE305519872' },
  service: {
    name: 'Röstmaschinen Service Nord GmbH',
    iban: germanIban('20040000', '0652211900'),
    bic: 'COBADEHHXXX',
    email: 'service@roestmaschinen-nord.example',
    taxId: 'DE289033164',
  },
  kartonwerk: { name: 'Kartonwerk Verpackungen GmbH', email: 'shop@kartonwerk.example', taxId: 'DE296614058' },
} satisfies Record<string, Party>

/** Shops paid by card: a name, and the words the card terminal prints. */
const merchants = {
  frischmarkt: 'Frischmarkt Großhandel Berlin',
  tankstelle: 'Tankstelle Landsberger Allee',
  postwerk: 'Postwerk Versand Berlin',
  buero: 'Bürobedarf Ostkreuz',
  baumarkt: 'Baumarkt Lichtenberg',
  barista: 'Barista Supply Berlin',
} as const

interface Customer extends Party {
  readonly id: string
}

const customers = {
  kiez: { id: 'cus_kiez', name: 'Café Kiez Kaffeebar GmbH', email: 'rechnung@cafe-kiez.example', taxId: 'DE301188452', iban: germanIban('10050000', '0603219917'), bic: 'BELADEBEXXX' },
  hafenblick: { id: 'cus_hafenblick', name: 'Hafenblick Café GmbH', email: 'buero@hafenblick-cafe.example', taxId: 'DE284400193', iban: germanIban('20050550', '1238800412'), bic: 'HASPDEHHXXX' },
  loft: { id: 'cus_loft', name: 'Coworking Loft Mitte GmbH', email: 'finance@loft-mitte.example', taxId: 'DE317702845', iban: germanIban('10070000', '0822145600'), bic: 'DEUTDEBBXXX' },
  sonnenkorn: { id: 'cus_sonnenkorn', name: 'Bäckerei Sonnenkorn GmbH & Co. KG', email: 'einkauf@sonnenkorn.example', taxId: 'DE263518840', iban: germanIban('10090000', '4410092205'), bic: 'BEVODEBBXXX' },
  milchbar: { id: 'cus_milchbar', name: 'Milchbar Kaffeehaus UG', email: 'hallo@milchbar.example', taxId: 'DE335906127', iban: germanIban('12030000', '1044837720'), bic: 'BYLADEM1001' },
} satisfies Record<string, Customer>

// ---------------------------------------------------------------------------------------------------
// Invoices the roastery issued (receivable) and bills it received (payable)

const products = {
  espresso: { description: 'Espresso Kreuzberg Blend, 1 kg', unit: 2150 },
  filter: { description: 'Filterkaffee Ostkreuz (Single Origin), 1 kg', unit: 2600 },
  decaf: { description: 'Spreewald Decaf, 1 kg', unit: 2400 },
} as const

interface Line {
  readonly description: string
  readonly quantity: number
  readonly unit: number
}

interface Payment {
  readonly date: string
  readonly amount: number
  readonly text: string
}

interface Invoice {
  readonly id: string
  readonly number: string
  readonly customer: Customer
  readonly issueDate: string
  readonly dueDate: string
  readonly lines: readonly Line[]
  readonly payments: readonly Payment[]
  readonly overdue?: boolean
}

function totals(lines: readonly Line[], percent: number) {
  const subtotal = lines.reduce((sum, line) => sum + line.quantity * line.unit, 0)
  const tax = vat(subtotal, percent)
  return { subtotal, tax, total: subtotal + tax }
}

const coffee = (product: keyof typeof products, kilograms: number): Line => ({ ...products[product], quantity: kilograms })

/** Receivable invoices: coffee is taxed at the reduced 7 % rate. Payments are what the bank shows. */
const invoiceSpecs: ReadonlyArray<Omit<Invoice, 'payments'> & { payments: ReadonlyArray<{ date: string; part?: number; text: string }> }> = [
  { id: 'inv_0001', number: 'JF-2026-001', customer: customers.kiez, issueDate: '2026-01-05', dueDate: '2026-01-19', lines: [coffee('espresso', 40), coffee('filter', 12)], payments: [{ date: '2026-01-16', text: 'JF-2026-001 Cafe Kiez Kaffeebar' }] },
  { id: 'inv_0002', number: 'JF-2026-002', customer: customers.hafenblick, issueDate: '2026-01-08', dueDate: '2026-01-22', lines: [coffee('espresso', 60), coffee('filter', 20), coffee('decaf', 8)], payments: [{ date: '2026-01-21', text: 'Rechnung JF-2026-002 Hafenblick Cafe' }] },
  { id: 'inv_0003', number: 'JF-2026-003', customer: customers.loft, issueDate: '2026-01-12', dueDate: '2026-01-26', lines: [coffee('espresso', 18), coffee('filter', 10)], payments: [{ date: '2026-01-26', text: 'JF-2026-003 Kaffee Januar' }] },
  {
    id: 'inv_0004',
    number: 'JF-2026-004',
    customer: customers.sonnenkorn,
    issueDate: '2026-01-26',
    dueDate: '2026-02-09',
    lines: [coffee('espresso', 100), coffee('filter', 40)],
    payments: [
      { date: '2026-02-10', part: 150_000, text: 'JF-2026-004 Teilzahlung 1 von 2' },
      { date: '2026-03-03', text: 'JF-2026-004 Restzahlung' },
    ],
  },
  { id: 'inv_0005', number: 'JF-2026-005', customer: customers.milchbar, issueDate: '2026-02-02', dueDate: '2026-02-16', lines: [coffee('espresso', 30), coffee('decaf', 6)], payments: [{ date: '2026-02-13', text: 'RE JF-2026-005 Milchbar' }] },
  { id: 'inv_0006', number: 'JF-2026-006', customer: customers.kiez, issueDate: '2026-02-09', dueDate: '2026-02-23', lines: [coffee('espresso', 45), coffee('filter', 14)], payments: [{ date: '2026-02-24', text: 'JF-2026-006 Cafe Kiez Kaffeebar' }] },
  { id: 'inv_0007', number: 'JF-2026-007', customer: customers.hafenblick, issueDate: '2026-02-16', dueDate: '2026-03-02', lines: [coffee('espresso', 50), coffee('filter', 16)], payments: [], overdue: true },
  { id: 'inv_0008', number: 'JF-2026-008', customer: customers.loft, issueDate: '2026-03-02', dueDate: '2026-03-16', lines: [coffee('espresso', 20), coffee('filter', 8)], payments: [{ date: '2026-03-17', text: 'JF-2026-008 Kaffee Maerz' }] },
  { id: 'inv_0009', number: 'JF-2026-009', customer: customers.milchbar, issueDate: '2026-03-09', dueDate: '2026-03-23', lines: [coffee('espresso', 32), coffee('decaf', 8)], payments: [{ date: '2026-03-20', text: 'RE JF-2026-009 Milchbar' }] },
  { id: 'inv_0010', number: 'JF-2026-010', customer: customers.kiez, issueDate: '2026-03-23', dueDate: '2026-04-06', lines: [coffee('espresso', 50), coffee('filter', 15)], payments: [{ date: '2026-04-02', text: 'JF-2026-010 Cafe Kiez Kaffeebar' }] },
]

const invoices: Invoice[] = invoiceSpecs.map((spec) => {
  const { total } = totals(spec.lines, 7)
  let remaining = total
  const payments = spec.payments.map((payment) => {
    const amount = payment.part ?? remaining
    remaining -= amount
    return { date: payment.date, amount, text: payment.text }
  })
  if (payments.length > 0 && remaining !== 0) throw new Error(`${spec.number}: payments do not add up to the total`)
  return { ...spec, payments }
})

interface Bill {
  readonly id: string
  readonly number: string
  readonly vendorId: string
  readonly vendor: Party
  readonly issueDate: string
  readonly dueDate: string
  readonly lines: readonly Line[]
  readonly vatPercent: number
  readonly paidOn: string
  readonly text: string
}

const bills: Bill[] = [
  {
    id: 'bill_0101',
    number: 'SL-2026-0007',
    vendorId: 'ven_logistik',
    vendor: parties.logistics,
    issueDate: '2026-01-05',
    dueDate: '2026-01-19',
    lines: [{ description: 'Palettenfracht Hamburg–Berlin, 2 Paletten Rohkaffee', quantity: 2, unit: 19_250 }],
    vatPercent: 19,
    paidOn: '2026-01-19',
    text: 'SL-2026-0007 Palettenfracht Hamburg-Berlin',
  },
  {
    id: 'bill_0102',
    number: 'HR-26-0113',
    vendorId: 'ven_hanse',
    vendor: parties.hanse,
    issueDate: '2026-01-07',
    dueDate: '2026-02-06',
    lines: [
      { description: 'Brasil Cerrado Mineiro, 4 Sack à 60 kg', quantity: 240, unit: 695 },
      { description: 'Colombia Huila Excelso, 2 Sack à 70 kg', quantity: 140, unit: 840 },
      { description: 'Ethiopia Yirgacheffe Gr. 2, 1 Sack à 60 kg', quantity: 60, unit: 1090 },
    ],
    vatPercent: 7,
    paidOn: '2026-02-04',
    text: 'HR-26-0113 Kd-Nr 40877',
  },
  {
    id: 'bill_0103',
    number: 'RSN-2026-014',
    vendorId: 'ven_service',
    vendor: parties.service,
    issueDate: '2026-01-20',
    dueDate: '2026-02-03',
    lines: [
      { description: 'Wartung Trommelröster 15 kg', quantity: 1, unit: 64_000 },
      { description: 'Thermofühler Abluft, Austausch', quantity: 1, unit: 25_000 },
    ],
    vatPercent: 19,
    paidOn: '2026-02-02',
    text: 'RSN-2026-014 Wartung Trommelroester',
  },
  {
    id: 'bill_0104',
    number: 'HR-26-0158',
    vendorId: 'ven_hanse',
    vendor: parties.hanse,
    issueDate: '2026-02-11',
    dueDate: '2026-03-13',
    lines: [
      { description: 'Brasil Cerrado Mineiro, 4 Sack à 60 kg', quantity: 240, unit: 695 },
      { description: 'Guatemala Huehuetenango, 2 Sack à 69 kg', quantity: 138, unit: 920 },
      { description: 'Kenya AA Nyeri, 1 Sack à 60 kg', quantity: 60, unit: 1240 },
    ],
    vatPercent: 7,
    paidOn: '2026-03-12',
    text: 'HR-26-0158 Kd-Nr 40877',
  },
  {
    id: 'bill_0105',
    number: 'HR-26-0204',
    vendorId: 'ven_hanse',
    vendor: parties.hanse,
    issueDate: '2026-03-10',
    dueDate: '2026-04-09',
    lines: [
      { description: 'Brasil Cerrado Mineiro, 6 Sack à 60 kg', quantity: 360, unit: 710 },
      { description: 'Colombia Huila Excelso, 2 Sack à 70 kg', quantity: 140, unit: 840 },
    ],
    vatPercent: 7,
    paidOn: '2026-04-08',
    text: 'HR-26-0204 Kd-Nr 40877',
  },
]

/** The one subscription: the online shop's software, charged by direct debit on the 13th. */
const subscription = {
  id: 'sub_shopify_basic',
  vendorId: 'ven_shopify',
  description: 'Shopify Basic, Onlineshop juniperfinch.example',
  amount: 3900,
  interval: 'monthly' as const,
  chargeDates: ['2026-01-13', '2026-02-13', '2026-03-13'],
  nextDueDate: '2026-04-13',
}

/** The packaging supplier's web-shop receipt (e-mailed as a PDF), paid by card. */
const receipt = {
  number: 'KW-88213',
  date: '2026-02-18',
  bookedOn: '2026-02-19',
  lines: [
    { description: 'Versandkarton für 250 g Beutel, 100 Stk.', quantity: 3, unit: 3890 },
    { description: 'Ventilbeutel Kraftpapier 1 kg, 500 Stk.', quantity: 1, unit: 15_105 },
  ],
}
const receiptTotals = totals(receipt.lines, 19)

// ---------------------------------------------------------------------------------------------------
// Payroll: three employees; the payroll provider debits the net pay, the roastery remits the taxes

interface PayRun {
  readonly id: string
  readonly month: string
  readonly periodStart: string
  readonly periodEnd: string
  readonly fundingDate: string
  readonly payDate: string
  readonly gross: number
  readonly incomeTax: number
  readonly employeeSocial: number
  readonly employerSocial: number
  readonly incomeTaxDue: string
  readonly socialDue: string
}

const payRuns: PayRun[] = [
  { id: 'pr_2026_01', month: '01/2026', periodStart: '2026-01-01', periodEnd: '2026-01-31', fundingDate: '2026-01-27', payDate: '2026-01-28', gross: 1_085_000, incomeTax: 126_342, employeeSocial: 229_458, employerSocial: 226_302, incomeTaxDue: '2026-02-10', socialDue: '2026-01-28' },
  { id: 'pr_2026_02', month: '02/2026', periodStart: '2026-02-01', periodEnd: '2026-02-28', fundingDate: '2026-02-24', payDate: '2026-02-25', gross: 1_112_000, incomeTax: 131_995, employeeSocial: 235_188, employerSocial: 231_935, incomeTaxDue: '2026-03-10', socialDue: '2026-02-25' },
  { id: 'pr_2026_03', month: '03/2026', periodStart: '2026-03-01', periodEnd: '2026-03-31', fundingDate: '2026-03-26', payDate: '2026-03-27', gross: 1_156_000, incomeTax: 141_460, employeeSocial: 244_494, employerSocial: 241_112, incomeTaxDue: '2026-04-10', socialDue: '2026-03-27' },
]
const netPay = (run: PayRun) => run.gross - run.incomeTax - run.employeeSocial
const socialTotal = (run: PayRun) => run.employeeSocial + run.employerSocial

// ---------------------------------------------------------------------------------------------------
// The online shop: card charges at the processor, weekly payouts to the checking account

const shopProducts = [
  ['Espresso Kreuzberg 250 g', 990],
  ['Filterkaffee Ostkreuz 250 g', 1150],
  ['Spreewald Decaf 250 g', 1090],
  ['Espresso Kreuzberg 1 kg', 3200],
  ['Probierset 3 × 250 g', 2990],
  ['Filterkaffee Ostkreuz 1 kg', 3650],
] as const
const shippingCents = 490
const freeShippingFrom = 3900

const shopCustomers = [
  'Lena Hoffmann', 'Jonas Becker', 'Mira Schulz', 'Tobias Wagner', 'Aylin Demir', 'Felix Braun', 'Hanna Krüger', 'Paul Neumann',
  'Sofia Richter', 'Emil Schröder', 'Clara Wolf', 'Noah Zimmermann', 'Ida Hartmann', 'Leon Koch', 'Marie Lange', 'Elias Schmitt',
  'Nele Fischer', 'Ben Meyer', 'Greta Vogel', 'Karim Haddad',
] as const

function emailOf(name: string): string {
  const ascii = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
  return `${ascii.replace(/\s+/g, '.')}@example.com`
}

interface Charge {
  readonly id: string
  readonly date: string
  readonly amount: number
  readonly order: number
  readonly customer: string
  readonly brand: string
  readonly last4: string
}

interface Fee {
  readonly id: string
  readonly date: string
  readonly amount: number
  readonly chargeId: string
}

interface Refund {
  readonly id: string
  readonly chargeId: string
  readonly date: string
  readonly amount: number
  readonly reason: string
}

interface Payout {
  readonly id: string
  readonly date: string
  readonly arrivalDate: string
  readonly amount: number
  readonly status: 'paid' | 'in_transit'
  readonly text: string
}

function shop() {
  const next = xorshift(0x4a46_2026)
  const charges: Charge[] = []
  const fees: Fee[] = []
  const brands = ['visa', 'mastercard', 'visa', 'mastercard', 'amex', 'visa'] as const
  const ordersPerWeekday = [4, 3, 3, 3, 4, 4, 5] // Sunday … Saturday
  let order = 1001
  for (let day = '2026-01-01'; day <= '2026-03-31'; day = addDays(day, 1)) {
    const count = ordersPerWeekday[weekday(day)]!
    for (let index = 0; index < count; index += 1) {
      const items = 1 + (next() % 3)
      let subtotal = 0
      for (let item = 0; item < items; item += 1) subtotal += shopProducts[next() % shopProducts.length]![1]
      const amount = subtotal >= freeShippingFrom ? subtotal : subtotal + shippingCents
      const id = `ch_${String(order)}`
      charges.push({
        id,
        date: day,
        amount,
        order,
        customer: shopCustomers[next() % shopCustomers.length]!,
        brand: brands[next() % brands.length]!,
        last4: String(1000 + (next() % 9000)),
      })
      // 1.4 % + 0.25 per charge, rounded half up to the cent.
      fees.push({ id: `fee_${String(order)}`, date: day, amount: Math.floor((amount * 14 + 500) / 1000) + 25, chargeId: id })
      order += 1
    }
  }
  const byOrder = (number: number) => charges.find((charge) => charge.order === number)!
  const damaged = byOrder(1017)
  const wrongGrind = byOrder(1188)
  const refunds: Refund[] = [
    { id: 're_0001', chargeId: damaged.id, date: addDays(damaged.date, 3), amount: damaged.amount, reason: 'Paket beschädigt angekommen, volle Erstattung' },
    { id: 're_0002', chargeId: wrongGrind.id, date: addDays(wrongGrind.date, 2), amount: 1150, reason: 'Falsche Mahlung geliefert, Teilerstattung' },
  ]

  // Weekly payouts on Mondays of everything booked before that Monday; two bank days to arrive.
  const payouts: Payout[] = []
  let paidThrough = '2025-12-31'
  for (let monday = '2026-01-05'; monday <= '2026-03-30'; monday = addDays(monday, 7)) {
    const inWeek = (date: string) => date > paidThrough && date < monday
    const amount =
      charges.filter((charge) => inWeek(charge.date)).reduce((sum, charge) => sum + charge.amount, 0) -
      fees.filter((fee) => inWeek(fee.date)).reduce((sum, fee) => sum + fee.amount, 0) -
      refunds.filter((refund) => inWeek(refund.date)).reduce((sum, refund) => sum + refund.amount, 0)
    const id = `po_${monday.replace(/-/g, '')}`
    const last = monday === '2026-03-30'
    payouts.push({ id, date: monday, arrivalDate: addDays(monday, 2), amount, status: last ? 'in_transit' : 'paid', text: `LumenPay Auszahlung ${id}` })
    paidThrough = addDays(monday, -1)
  }
  const balance =
    charges.reduce((sum, charge) => sum + charge.amount, 0) -
    fees.reduce((sum, fee) => sum + fee.amount, 0) -
    refunds.reduce((sum, refund) => sum + refund.amount, 0) -
    payouts.reduce((sum, payout) => sum + payout.amount, 0)
  return { charges, fees, refunds, payouts, balance }
}

const lumenpay = shop()

// ---------------------------------------------------------------------------------------------------
// The USDC wallet on Base

const usdc = { symbol: 'USDC', address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6 }
const wallet = { address: hexId('juniper-finch treasury wallet', 40), chainId: 8453, label: 'Juniper & Finch Treasury (Base)' }
const nomadWallet = hexId('nomad coffee collective wallet', 40)
const exchangeDeposit = hexId('nordlicht digital exchange deposit', 40)

interface WalletTransfer {
  readonly timestamp: string
  readonly from: string
  readonly to: string
  /** USDC in cents of a dollar (the token has 6 decimals; these amounts have 2). */
  readonly amount: number
  readonly logIndex: number
}

const walletTransfers: WalletTransfer[] = [
  { timestamp: '2026-01-22T10:41:17Z', from: nomadWallet, to: wallet.address, amount: 125_000, logIndex: 41 },
  { timestamp: '2026-02-19T15:03:52Z', from: nomadWallet, to: wallet.address, amount: 98_050, logIndex: 17 },
  { timestamp: '2026-03-18T09:26:05Z', from: nomadWallet, to: wallet.address, amount: 141_000, logIndex: 88 },
  { timestamp: '2026-03-24T13:12:44Z', from: wallet.address, to: exchangeDeposit, amount: 300_000, logIndex: 5 },
]
/** What the exchange paid out for the 3,000 USDC (after its fee), credited to checking on 26 March. */
const exchangeProceeds = { date: '2026-03-26', amount: 275_280, text: 'Auszahlung Verkauf 3000 USDC Auftrag NX-26-1184' }

/** Base produces a block every 2 seconds; this anchors the numbers near the chain's height in early 2026. */
function blockAt(timestamp: string): number {
  return 40_381_000 + Math.floor((Date.parse(timestamp) - Date.parse('2026-01-01T00:00:00Z')) / 2000)
}

// ---------------------------------------------------------------------------------------------------
// The checking account: every booking of January 1 to April 10

type EntryKind = 'transfer_in' | 'transfer_out' | 'standing_order' | 'direct_debit' | 'card' | 'fee'

interface Entry {
  readonly date: string
  readonly valueDate: string
  /** Signed: negative is money out. */
  readonly amount: number
  readonly kind: EntryKind
  readonly text: string
  readonly party?: Party
  readonly endToEnd?: string
  readonly mandate?: string
  readonly creditorId?: string
}

const entries: Entry[] = []
function book(date: string, amount: number, kind: EntryKind, text: string, options: Omit<Entry, 'date' | 'valueDate' | 'amount' | 'kind' | 'text'> & { valueDate?: string } = {}) {
  const day = weekday(date)
  if (day === 0 || day === 6) throw new Error(`${date} is a weekend: the bank books nothing`)
  entries.push({ ...options, date, valueDate: options.valueDate ?? date, amount, kind, text })
}
const card = (date: string, amount: number, merchant: string, what: string, valueDate?: string) =>
  book(date, -amount, 'card', `Kartenzahlung girocard ${merchant} ${what}`, { party: { name: merchant }, ...(valueDate === undefined ? {} : { valueDate }) })

const monthly = [
  { month: '01', name: 'Januar', first: '2026-01-02', energy: '2026-01-05', leasing: '2026-01-15', telecom: '2026-01-20', fees: '2026-01-30', feeAmount: 1870 },
  { month: '02', name: 'Februar', first: '2026-02-02', energy: '2026-02-05', leasing: '2026-02-16', telecom: '2026-02-20', fees: '2026-02-27', feeAmount: 1795 },
  { month: '03', name: 'Maerz', first: '2026-03-02', energy: '2026-03-05', leasing: '2026-03-16', telecom: '2026-03-20', fees: '2026-03-31', feeAmount: 1940 },
]

for (const month of monthly) {
  book(month.first, -285_000, 'standing_order', `Miete ${month.name} 2026 Gewerbehof Halle 3`, { party: parties.landlord })
  book(month.energy, -41_200, 'direct_debit', `Abschlag ${month.name} 2026 Strom und Gas Vertragskonto 600731`, {
    party: parties.energy,
    mandate: 'SPE-600731',
    creditorId: 'DE98ZZZ00000118842',
    endToEnd: `SPE-600731-2026${month.month}`,
  })
  book(month.leasing, -38_900, 'direct_debit', `Leasingrate ${month.month}/2026 Vertrag SL-20931 Transporter`, {
    party: parties.leasing,
    mandate: 'SL-20931',
    creditorId: 'DE71ZZZ00000339201',
    endToEnd: `SL-20931-2026${month.month}`,
  })
  book(month.telecom, -5490, 'direct_debit', `Rechnung ${month.month}/2026 Kundennummer 700451 Internet und Telefon`, {
    party: parties.telecom,
    mandate: 'BK-700451',
    creditorId: 'DE55ZZZ00000904417',
    endToEnd: `BK-700451-2026${month.month}`,
  })
  book(month.fees, -month.feeAmount, 'fee', `Entgelte Abschluss ${month.month}/2026 Kontofuehrung und Buchungsposten`)
}
book('2026-04-01', -285_000, 'standing_order', 'Miete April 2026 Gewerbehof Halle 3', { party: parties.landlord })
book('2026-04-07', -41_200, 'direct_debit', 'Abschlag April 2026 Strom und Gas Vertragskonto 600731', {
  party: parties.energy,
  mandate: 'SPE-600731',
  creditorId: 'DE98ZZZ00000118842',
  endToEnd: 'SPE-600731-202604',
})
book('2026-01-02', -64_230, 'direct_debit', 'Beitrag Q1/2026 Betriebshaftpflicht Vertrag BH-448120', {
  party: parties.insurer,
  mandate: 'BH-448120',
  creditorId: 'DE12ZZZ00000070411',
  endToEnd: 'BH-448120-2026Q1',
})

// The subscription, on the 13th of each month.
for (const date of subscription.chargeDates) {
  book(date, -subscription.amount, 'direct_debit', `Shopify Basic Abo ${date.slice(5, 7)}/2026 Onlineshop juniperfinch.example`, {
    party: parties.shopify,
    mandate: 'SHPFY-5521904',
    creditorId: 'IE22ZZZ361408',
    endToEnd: `SHPFY-5521904-${date.slice(0, 7)}`,
  })
}

// Customers paying invoices, citing the invoice number.
for (const invoice of invoices) {
  for (const payment of invoice.payments) {
    book(payment.date, payment.amount, 'transfer_in', payment.text, { party: invoice.customer, endToEnd: invoice.number })
  }
}

// Bills paid by transfer, citing the bill number.
for (const bill of bills) {
  book(bill.paidOn, -totals(bill.lines, bill.vatPercent).total, 'transfer_out', bill.text, { party: bill.vendor, endToEnd: bill.number })
}

// Payroll: the provider debits the net pay; social insurance to the health insurer; wage tax on the 10th.
for (const run of payRuns) {
  book(run.fundingDate, -netPay(run), 'direct_debit', `Lohnwerk Nettoloehne ${run.month} Lauf ${run.id.toUpperCase().replace(/_/g, '-')}`, {
    party: parties.payroll,
    mandate: 'LW-JF-0042',
    creditorId: 'DE40ZZZ00000551290',
    endToEnd: `LW-${run.id.toUpperCase().replace(/_/g, '-')}`,
  })
  book(run.socialDue, -socialTotal(run), 'transfer_out', `Beitragsnachweis ${run.month} Betriebsnummer 71234567`, { party: parties.aok, endToEnd: `SV-${run.month.replace('/', '-')}` })
  book(run.incomeTaxDue, -run.incomeTax, 'transfer_out', `StNr 37/412/30877 LSt ${run.month}`, { party: parties.finanzamt, endToEnd: `LST-${run.month.replace('/', '-')}` })
}
// December's wage tax and the monthly VAT advance returns (before and outside the payroll payload).
book('2026-01-12', -169_835, 'transfer_out', 'StNr 37/412/30877 LSt 12/2025', { party: parties.finanzamt, endToEnd: 'LST-12-2025' })
for (const [date, amount, period] of [
  ['2026-01-12', 231_840, '11/2025'],
  ['2026-02-10', 410_562, '12/2025'],
  ['2026-03-10', 148_609, '01/2026'],
  ['2026-04-10', 123_155, '02/2026'],
] as const) {
  book(date, -amount, 'transfer_out', `StNr 37/412/30877 USt-VA ${period}`, { party: parties.finanzamt, endToEnd: `UST-${period.replace('/', '-')}` })
}

// Card-processor payouts arriving.
for (const payout of lumenpay.payouts) {
  book(payout.arrivalDate, payout.amount, 'transfer_in', payout.text, { party: parties.processor, endToEnd: payout.id })
}

// Reserve transfers to the savings account.
const savingsTransfers = [
  { date: '2026-01-15', amount: 1_000_000, text: 'Umbuchung Ruecklage Tagesgeld Januar' },
  { date: '2026-02-16', amount: 250_000, text: 'Umbuchung Ruecklage Tagesgeld Februar' },
  { date: '2026-03-16', amount: 250_000, text: 'Umbuchung Ruecklage Tagesgeld Maerz' },
]
for (const transfer of savingsTransfers) {
  book(transfer.date, -transfer.amount, 'transfer_out', transfer.text, { party: { name: business.name, iban: savings.iban, bic: bank.bic }, endToEnd: `UMB-${transfer.date}` })
}

// The exchange paying out the USDC sold.
book(exchangeProceeds.date, exchangeProceeds.amount, 'transfer_in', exchangeProceeds.text, { party: parties.exchange, endToEnd: 'NX-26-1184' })

// The packaging supplier's receipt, paid by card the day before it was booked.
card(receipt.bookedOn, receiptTotals.total, parties.kartonwerk.name, `Onlineshop ${receipt.number}`, receipt.date)

// Small card purchases. The two filter-paper purchases of 19 March are genuinely identical.
for (const [date, amount, merchant, what] of [
  ['2026-01-08', 6437, merchants.frischmarkt, 'Milch Hafermilch Becher'],
  ['2026-01-09', 7120, merchants.tankstelle, 'Diesel Lieferwagen'],
  ['2026-01-09', 3499, merchants.baumarkt, 'Regalwinkel Schrauben'],
  ['2026-01-16', 4860, merchants.postwerk, 'Versandetiketten'],
  ['2026-01-19', 6105, merchants.frischmarkt, 'Milch Hafermilch'],
  ['2026-01-22', 2785, merchants.buero, 'Druckerpapier Etiketten'],
  ['2026-01-23', 5812, merchants.frischmarkt, 'Milch Reinigungsmittel'],
  ['2026-01-29', 5230, merchants.postwerk, 'Versandetiketten'],
  ['2026-01-30', 6690, merchants.tankstelle, 'Diesel Lieferwagen'],
  ['2026-02-06', 6745, merchants.frischmarkt, 'Milch Hafermilch Becher'],
  ['2026-02-09', 7410, merchants.tankstelle, 'Diesel Lieferwagen'],
  ['2026-02-12', 5520, merchants.postwerk, 'Versandetiketten'],
  ['2026-02-17', 1990, merchants.buero, 'Ordner Stempelkissen'],
  ['2026-02-20', 5980, merchants.frischmarkt, 'Milch Hafermilch'],
  ['2026-02-23', 4275, merchants.baumarkt, 'Kabelbinder Klebeband'],
  ['2026-02-26', 6940, merchants.tankstelle, 'Diesel Lieferwagen'],
  ['2026-02-27', 6180, merchants.postwerk, 'Versandetiketten'],
  ['2026-03-05', 6318, merchants.frischmarkt, 'Milch Hafermilch Becher'],
  ['2026-03-06', 7255, merchants.tankstelle, 'Diesel Lieferwagen'],
  ['2026-03-09', 5840, merchants.postwerk, 'Versandetiketten'],
  ['2026-03-13', 3160, merchants.buero, 'Toner Etiketten'],
  ['2026-03-19', 2380, merchants.barista, 'Filterpapier'],
  ['2026-03-19', 2380, merchants.barista, 'Filterpapier'],
  ['2026-03-23', 6620, merchants.frischmarkt, 'Milch Hafermilch'],
  ['2026-03-24', 2749, merchants.baumarkt, 'Kabelbinder Klebeband'],
  ['2026-03-27', 6490, merchants.postwerk, 'Versandetiketten'],
  ['2026-03-30', 7085, merchants.tankstelle, 'Diesel Lieferwagen'],
  ['2026-04-08', 6240, merchants.frischmarkt, 'Milch Hafermilch'],
] as const) {
  card(date, amount, merchant, what)
}

/** Bookings in date order; within a day, in the order they were booked above (stable). */
const ledger = entries.map((entry, index) => ({ entry, index })).sort((a, b) => a.entry.date.localeCompare(b.entry.date) || a.index - b.index).map(({ entry }) => entry)

const openingBalance = 8_941_260 // 1 January 2026, after the Christmas season
interface Booked extends Entry {
  readonly balanceAfter: number
  readonly reference: string
}
const booked: Booked[] = []
{
  let balance = openingBalance
  const perDay = new Map<string, number>()
  for (const entry of ledger) {
    balance += entry.amount
    const sequence = (perDay.get(entry.date) ?? 0) + 1
    perDay.set(entry.date, sequence)
    booked.push({ ...entry, balanceAfter: balance, reference: `${yymmdd(entry.date)}${String(sequence).padStart(4, '0')}` })
    if (balance < 500_000) throw new Error(`the checking balance falls to ${plain(balance)} on ${entry.date}`)
  }
}

function period(from: string, to: string) {
  const rows = booked.filter((row) => row.date >= from && row.date <= to)
  const before = booked.filter((row) => row.date < from).at(-1)
  const opening = before?.balanceAfter ?? openingBalance
  const closing = rows.at(-1)?.balanceAfter ?? opening
  return { rows, opening, closing }
}

const january = period('2026-01-01', '2026-01-31')
const february = period('2026-02-01', '2026-02-28')
const march = period('2026-03-01', '2026-03-31')
const overlap = period('2026-03-15', '2026-04-10')
const april = period('2026-04-01', '2026-04-10')

// ---------------------------------------------------------------------------------------------------
// CAMT.053 (January)

const camtCodes: Readonly<Record<EntryKind, [string, string, string, string]>> = {
  // domain, family, sub-family, entry information
  transfer_in: ['PMNT', 'RCDT', 'ESCT', 'SEPA-Gutschrift'],
  transfer_out: ['PMNT', 'ICDT', 'ESCT', 'SEPA-Überweisung'],
  standing_order: ['PMNT', 'ICDT', 'STDO', 'Dauerauftrag'],
  direct_debit: ['PMNT', 'IDDT', 'ESDD', 'SEPA-Basislastschrift'],
  card: ['PMNT', 'CCRD', 'POSD', 'Kartenzahlung girocard'],
  fee: ['ACMT', 'MDOP', 'CHRG', 'Abschluss Entgelte'],
}

function camtParty(role: 'Dbtr' | 'Cdtr', party: Party | undefined): string {
  if (party === undefined) return ''
  const account = party.iban === undefined ? '' : `<${role}Acct><Id><IBAN>${party.iban}</IBAN></Id></${role}Acct>`
  return `<${role}><Pty><Nm>${xml(party.name)}</Nm></Pty></${role}>${account}`
}

function camt053(): string {
  const { rows, opening, closing } = january
  const credits = rows.filter((row) => row.amount > 0)
  const debits = rows.filter((row) => row.amount < 0)
  const sum = (list: readonly Booked[]) => plain(list.reduce((total, row) => total + Math.abs(row.amount), 0))
  const us: Party = { name: business.name, iban: checking.iban }
  const ntry = rows.map((row, index) => {
    const [domain, family, subFamily, information] = camtCodes[row.kind]
    const credit = row.amount > 0
    const related = credit
      ? `${camtParty('Dbtr', row.party)}${camtParty('Cdtr', us)}`
      : `${camtParty('Dbtr', us)}${camtParty('Cdtr', row.party)}`
    const agent = row.party?.bic === undefined ? '' : `<RltdAgts><${credit ? 'DbtrAgt' : 'CdtrAgt'}><FinInstnId><BICFI>${row.party.bic}</BICFI></FinInstnId></${credit ? 'DbtrAgt' : 'CdtrAgt'}></RltdAgts>`
    return [
      '      <Ntry>',
      `        <NtryRef>${index + 1}</NtryRef>`,
      `        <Amt Ccy="EUR">${plain(Math.abs(row.amount))}</Amt>`,
      `        <CdtDbtInd>${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd>`,
      '        <Sts><Cd>BOOK</Cd></Sts>',
      `        <BookgDt><Dt>${row.date}</Dt></BookgDt>`,
      `        <ValDt><Dt>${row.valueDate}</Dt></ValDt>`,
      `        <AcctSvcrRef>${row.reference}</AcctSvcrRef>`,
      `        <BkTxCd><Domn><Cd>${domain}</Cd><Fmly><Cd>${family}</Cd><SubFmlyCd>${subFamily}</SubFmlyCd></Fmly></Domn></BkTxCd>`,
      '        <NtryDtls>',
      '          <TxDtls>',
      `            <Refs><AcctSvcrRef>${row.reference}</AcctSvcrRef><EndToEndId>${xml(row.endToEnd ?? 'NOTPROVIDED')}</EndToEndId>${row.mandate === undefined ? '' : `<MndtId>${xml(row.mandate)}</MndtId>`}</Refs>`,
      `            <Amt Ccy="EUR">${plain(Math.abs(row.amount))}</Amt>`,
      `            <CdtDbtInd>${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd>`,
      ...(row.kind === 'fee' ? [] : [`            <RltdPties>${related}</RltdPties>`]),
      ...(agent === '' ? [] : [`            ${agent}`]),
      `            <RmtInf><Ustrd>${xml(row.text)}</Ustrd></RmtInf>`,
      '          </TxDtls>',
      '        </NtryDtls>',
      `        <AddtlNtryInf>${xml(information)}</AddtlNtryInf>`,
      '      </Ntry>',
    ].join('\n')
  })
  const balance = (code: string, amount: number, date: string) =>
    [
      '      <Bal>',
      `        <Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp>`,
      `        <Amt Ccy="EUR">${plain(Math.abs(amount))}</Amt>`,
      `        <CdtDbtInd>${amount < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd>`,
      `        <Dt><Dt>${date}</Dt></Dt>`,
      '      </Bal>',
    ].join('\n')
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08 camt.053.001.08.xsd">',
    '  <BkToCstmrStmt>',
    '    <GrpHdr>',
    '      <MsgId>BEVO-053-20260201-000117</MsgId>',
    '      <CreDtTm>2026-02-01T05:42:10+01:00</CreDtTm>',
    '      <MsgPgntn><PgNb>1</PgNb><LastPgInd>true</LastPgInd></MsgPgntn>',
    '    </GrpHdr>',
    '    <Stmt>',
    '      <Id>BEVO-2847563019-2026-01</Id>',
    '      <ElctrncSeqNb>1</ElctrncSeqNb>',
    '      <CreDtTm>2026-02-01T05:42:10+01:00</CreDtTm>',
    '      <FrToDt><FrDtTm>2026-01-01T00:00:00+01:00</FrDtTm><ToDtTm>2026-01-31T23:59:59+01:00</ToDtTm></FrToDt>',
    '      <Acct>',
    `        <Id><IBAN>${checking.iban}</IBAN></Id>`,
    '        <Ccy>EUR</Ccy>',
    `        <Nm>${xml(checking.name)}</Nm>`,
    `        <Ownr><Nm>${xml(business.name)}</Nm></Ownr>`,
    `        <Svcr><FinInstnId><BICFI>${bank.bic}</BICFI><Nm>${xml(bank.name)}</Nm></FinInstnId></Svcr>`,
    '      </Acct>',
    balance('OPBD', opening, '2026-01-01'),
    balance('CLBD', closing, '2026-01-31'),
    balance('CLAV', closing, '2026-01-31'),
    '      <TxsSummry>',
    `        <TtlNtries><NbOfNtries>${rows.length}</NbOfNtries></TtlNtries>`,
    `        <TtlCdtNtries><NbOfNtries>${credits.length}</NbOfNtries><Sum>${sum(credits)}</Sum></TtlCdtNtries>`,
    `        <TtlDbtNtries><NbOfNtries>${debits.length}</NbOfNtries><Sum>${sum(debits)}</Sum></TtlDbtNtries>`,
    '      </TxsSummry>',
    ...ntry,
    '    </Stmt>',
    '  </BkToCstmrStmt>',
    '</Document>',
    '',
  ].join('\n')
}

// ---------------------------------------------------------------------------------------------------
// MT940 (February), German DK layout of :86:, Latin-1 as German banks write it

const mt940Codes: Readonly<Record<EntryKind, [string, string, string]>> = {
  // :61: transaction type, :86: business transaction code (GVC), ?00 posting text
  transfer_in: ['NTRF', '166', 'GUTSCHR. UEBERWEISUNG'],
  transfer_out: ['NTRF', '116', 'UEBERWEISUNG'],
  standing_order: ['NSTO', '152', 'DAUERAUFTRAG'],
  direct_debit: ['NDDT', '105', 'BASISLASTSCHRIFT'],
  card: ['NMSC', '106', 'KARTENZAHLUNG'],
  fee: ['NCHG', '805', 'ABSCHLUSS'],
}

/** `?20`…`?29`, then `?60`…`?63`: the purpose in 27-character pieces. */
function purposeSubfields(purpose: string): string[] {
  const keys = ['20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '60', '61', '62', '63']
  const pieces: string[] = []
  for (let start = 0; start < purpose.length; start += 27) pieces.push(purpose.slice(start, start + 27))
  if (pieces.length > keys.length) throw new Error(`purpose too long for MT940: ${purpose}`)
  return pieces.map((piece, index) => `?${keys[index]}${piece}`)
}

/** Subfields on lines of at most 65 characters, each line starting with a subfield. */
function wrap86(head: string, subfields: readonly string[]): string[] {
  const lines: string[] = []
  let current = head
  for (const subfield of subfields) {
    if (current.length + subfield.length > 65) {
      lines.push(current)
      current = subfield
    } else {
      current += subfield
    }
  }
  lines.push(current)
  return lines
}

function mt940(): Buffer {
  const { rows, opening, closing } = february
  const balance = (tag: string, amount: number, date: string) => `:${tag}:${amount < 0 ? 'D' : 'C'}${yymmdd(date)}EUR${swift(amount)}`
  const lines = [':20:JF2602STMT', `:25:${checking.iban}`, ':28C:00002/001', balance('60F', opening, '2026-02-01')]
  for (const row of rows) {
    const [type, gvc, postingText] = mt940Codes[row.kind]
    const customerReference = row.kind === 'transfer_in' && row.endToEnd !== undefined && row.endToEnd.length <= 16 ? row.endToEnd : 'NONREF'
    lines.push(`:61:${yymmdd(row.valueDate)}${row.date.slice(5, 7)}${row.date.slice(8, 10)}${row.amount < 0 ? 'D' : 'C'}${swift(row.amount)}${type}${customerReference}//${row.reference}`)
    const purpose = `EREF+${row.endToEnd ?? 'NOTPROVIDED'}${row.mandate === undefined ? '' : `MREF+${row.mandate}`}${row.creditorId === undefined ? '' : `CRED+${row.creditorId}`}SVWZ+${row.text}`
    const subfields = [...purposeSubfields(purpose)]
    if (row.party?.bic !== undefined) subfields.push(`?30${row.party.bic}`)
    if (row.party?.iban !== undefined) subfields.push(`?31${row.party.iban}`)
    if (row.party !== undefined) {
      if (row.party.name.length > 54) throw new Error(`name too long for MT940: ${row.party.name}`)
      subfields.push(`?32${row.party.name.slice(0, 27)}`)
      if (row.party.name.length > 27) subfields.push(`?33${row.party.name.slice(27)}`)
    }
    subfields.push('?34000')
    const [first, ...rest] = wrap86(`:86:${gvc}?00${postingText}?109310`, subfields)
    lines.push(first!, ...rest)
  }
  lines.push(balance('62F', closing, '2026-02-28'), balance('64', closing, '2026-02-28'), '-')
  const text = `${lines.join('\r\n')}\r\n`
  if (/[^\u0000-\u00ff]/.test(text)) throw new Error('the MT940 text has a character Latin-1 cannot write')
  return Buffer.from(text, 'latin1')
}

// ---------------------------------------------------------------------------------------------------
// CSV (March, and the overlapping export of 15 March to 10 April): German online-banking export

function csvField(value: string): string {
  return /[;"\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

function csvStatement(range: ReturnType<typeof period>, from: string, to: string): string {
  const lines = [
    'Umsätze Geschäftskonto;;;;;;;',
    `Kontoinhaber:;${csvField(business.name)};;;;;;`,
    `IBAN:;${groupedIban(checking.iban)};;;;;;`,
    `Zeitraum:;${germanDate(from)} - ${germanDate(to)};;;;;;`,
    ';;;;;;;',
    'Buchungstag;Valuta;Auftraggeber/Empfänger;Kontonummer/IBAN;Verwendungszweck;Betrag;Währung;Saldo',
  ]
  // Newest first, as the online banking lists them; the running balance is after each booking.
  for (const row of [...range.rows].reverse()) {
    lines.push(
      [
        germanDate(row.date),
        germanDate(row.valueDate),
        csvField(row.party?.name ?? ''),
        row.party?.iban ?? '',
        csvField(row.text),
        german(row.amount),
        'EUR',
        german(row.balanceAfter),
      ].join(';'),
    )
  }
  return `${lines.join('\r\n')}\r\n`
}

// ---------------------------------------------------------------------------------------------------
// OFX (the savings account, January to March)

const savingsOpening = 2_000_000
const savingsEntries = [
  ...savingsTransfers.map((transfer) => ({ date: transfer.date, amount: transfer.amount, type: 'XFER', name: business.name, memo: transfer.text.replace('Umbuchung ', 'Umbuchung vom Geschaeftskonto: ') })),
  { date: '2026-01-31', amount: 3125, type: 'INT', name: 'Zinsgutschrift', memo: 'Tagesgeldzinsen Januar 2026' },
  { date: '2026-02-28', amount: 3618, type: 'INT', name: 'Zinsgutschrift', memo: 'Tagesgeldzinsen Februar 2026' },
  { date: '2026-03-31', amount: 4107, type: 'INT', name: 'Zinsgutschrift', memo: 'Tagesgeldzinsen Maerz 2026' },
].sort((a, b) => a.date.localeCompare(b.date))
const savingsClosing = savingsOpening + savingsEntries.reduce((sum, entry) => sum + entry.amount, 0)

function ofx(): string {
  const transactions = savingsEntries.map(
    (entry, index) =>
      `          <STMTTRN><TRNTYPE>${entry.type}</TRNTYPE><DTPOSTED>${entry.date.replace(/-/g, '')}</DTPOSTED><TRNAMT>${plain(entry.amount)}</TRNAMT><FITID>BVB-TG-${entry.date.replace(/-/g, '')}-${String(index + 1).padStart(2, '0')}</FITID><NAME>${xml(entry.name)}</NAME><MEMO>${xml(entry.memo)}</MEMO></STMTTRN>`,
  )
  return [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>',
    '<OFX>',
    `  <SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS><DTSERVER>20260401071500.000[+2:CEST]</DTSERVER><LANGUAGE>GER</LANGUAGE><FI><ORG>${xml(bank.name)}</ORG><FID>${bank.bankCode}</FID></FI></SONRS></SIGNONMSGSRSV1>`,
    '  <BANKMSGSRSV1>',
    '    <STMTTRNRS>',
    '      <TRNUID>20260401-1</TRNUID>',
    '      <STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>',
    '      <STMTRS>',
    '        <CURDEF>EUR</CURDEF>',
    `        <BANKACCTFROM><BANKID>${bank.bankCode}</BANKID><ACCTID>${savings.iban}</ACCTID><ACCTTYPE>SAVINGS</ACCTTYPE></BANKACCTFROM>`,
    '        <BANKTRANLIST>',
    '          <DTSTART>20260101</DTSTART><DTEND>20260331</DTEND>',
    ...transactions,
    '        </BANKTRANLIST>',
    `        <LEDGERBAL><BALAMT>${plain(savingsClosing)}</BALAMT><DTASOF>20260331</DTASOF></LEDGERBAL>`,
    `        <AVAILBAL><BALAMT>${plain(savingsClosing)}</BALAMT><DTASOF>20260331</DTASOF></AVAILBAL>`,
    '      </STMTRS>',
    '    </STMTTRNRS>',
    '  </BANKMSGSRSV1>',
    '</OFX>',
    '',
  ].join('\n')
}

// ---------------------------------------------------------------------------------------------------
// Provider payloads (JSON)

const erpProvider = { id: 'kontor_erp', name: 'Kontor ERP' }

function contact(id: string, party: Party, options: { withBank: boolean }) {
  return {
    id,
    name: party.name,
    ...(party.email === undefined ? {} : { email: party.email }),
    ...(party.taxId === undefined ? {} : { tax_id: party.taxId }),
    ...(options.withBank && party.iban !== undefined ? { iban: party.iban } : {}),
  }
}

function erpPayload() {
  const lineItems = (lines: readonly Line[]) => lines.map((line) => ({ description: line.description, quantity: String(line.quantity), amount: plain(line.quantity * line.unit) }))
  return {
    schema: 'steward.erp_provider.v1',
    provider: erpProvider,
    customers: Object.values(customers).map((customer) => contact(customer.id, customer, { withBank: false })),
    vendors: [
      contact('ven_hanse', parties.hanse, { withBank: true }),
      contact('ven_logistik', parties.logistics, { withBank: true }),
      contact('ven_service', parties.service, { withBank: true }),
      contact('ven_shopify', parties.shopify, { withBank: true }),
    ],
    // The ERP issues the invoices and books the bills; it does not see the bank. Payment states come
    // from the statements through reconciliation, so every document here is still open.
    invoices: invoices.map((invoice) => {
      const { subtotal, tax, total } = totals(invoice.lines, 7)
      return {
        id: invoice.id,
        number: invoice.number,
        customer_id: invoice.customer.id,
        issue_date: invoice.issueDate,
        due_date: invoice.dueDate,
        currency: 'EUR',
        subtotal: plain(subtotal),
        tax: plain(tax),
        total: plain(total),
        amount_paid: '0.00',
        status: invoice.overdue === true ? 'overdue' : 'sent',
        line_items: lineItems(invoice.lines),
      }
    }),
    bills: bills.map((bill) => {
      const { subtotal, tax, total } = totals(bill.lines, bill.vatPercent)
      return {
        id: bill.id,
        number: bill.number,
        vendor_id: bill.vendorId,
        issue_date: bill.issueDate,
        due_date: bill.dueDate,
        currency: 'EUR',
        subtotal: plain(subtotal),
        tax: plain(tax),
        total: plain(total),
        amount_paid: '0.00',
        status: 'sent',
        line_items: lineItems(bill.lines),
      }
    }),
    subscriptions: [
      {
        id: subscription.id,
        vendor_id: subscription.vendorId,
        description: subscription.description,
        amount: plain(subscription.amount),
        currency: 'EUR',
        interval: subscription.interval,
        next_due_date: subscription.nextDueDate,
      },
    ],
  }
}

const payrollProvider = { id: 'lohnwerk', name: parties.payroll.name }

function payrollPayload() {
  return {
    schema: 'steward.payroll_provider.v1',
    provider: payrollProvider,
    pay_runs: payRuns.map((run) => ({
      id: run.id,
      status: 'paid',
      period_start: run.periodStart,
      period_end: run.periodEnd,
      pay_date: run.payDate,
      funding_date: run.fundingDate,
      currency: 'EUR',
      net_pay: plain(netPay(run)),
      gross_pay: plain(run.gross),
      employee_count: 3,
      taxes: [
        { id: `lst_${run.id.slice(3)}`, tax_type: 'lohnsteuer', authority: parties.finanzamt.name, paid_by: 'employee_withholding', amount: plain(run.incomeTax), due_date: run.incomeTaxDue },
        { id: `sv_${run.id.slice(3)}`, tax_type: 'sozialversicherung', authority: parties.aok.name, paid_by: 'employer', amount: plain(socialTotal(run)), due_date: run.socialDue },
      ],
    })),
  }
}

function cardProcessorPayload() {
  return {
    schema: 'steward.card_processor.v1',
    provider: { id: 'lumenpay', name: 'LumenPay' },
    account: { id: 'acct_jf_onlineshop', currency: 'EUR', name: 'LumenPay Onlineshop' },
    charges: lumenpay.charges.map((charge) => ({
      id: charge.id,
      date: charge.date,
      amount: plain(charge.amount),
      status: 'succeeded',
      description: `Bestellung #${charge.order}`,
      customer: { name: charge.customer, email: emailOf(charge.customer) },
      card: { brand: charge.brand, last4: charge.last4 },
    })),
    refunds: lumenpay.refunds.map((refund) => ({ id: refund.id, charge_id: refund.chargeId, date: refund.date, amount: plain(refund.amount), status: 'succeeded', reason: refund.reason })),
    fees: lumenpay.fees.map((fee) => ({ id: fee.id, date: fee.date, amount: plain(fee.amount), description: 'LumenPay Transaktionsgebühr 1,4 % + 0,25 EUR', charge_id: fee.chargeId })),
    payouts: lumenpay.payouts.map((payout) => ({
      id: payout.id,
      date: payout.date,
      arrival_date: payout.arrivalDate,
      amount: plain(payout.amount),
      status: payout.status,
      description: payout.text,
      destination: { name: `${business.shortName} ${checking.name}`, iban: checking.iban },
    })),
    balances: [{ type: 'current', as_of: '2026-03-31', amount: plain(lumenpay.balance) }],
  }
}

function chainPayload() {
  return {
    schema: 'steward.chain_indexer.v1',
    indexer: { id: 'steward_indexer', name: 'Steward chain indexer' },
    wallet: { address: wallet.address, chain_id: wallet.chainId, label: wallet.label },
    transfers: walletTransfers.map((transfer) => ({
      tx_hash: hexId(`base tx ${transfer.timestamp} ${transfer.from} ${transfer.to}`, 64),
      log_index: transfer.logIndex,
      block_number: blockAt(transfer.timestamp),
      timestamp: transfer.timestamp,
      from: transfer.from,
      to: transfer.to,
      token: usdc,
      value: String(BigInt(transfer.amount) * 10_000n),
    })),
  }
}

// ---------------------------------------------------------------------------------------------------
// PDF documents (pdf-lib, a real text layer) and the e-mail

const fixedDate = new Date(Date.UTC(2026, 3, 1, 7, 0, 0))

interface TextRow {
  readonly x: number
  readonly y: number
  readonly text: string
  readonly size?: number
  readonly bold?: boolean
}

async function newDocument(title: string) {
  // updateMetadata: false keeps pdf-lib from stamping the current time, so the bytes are reproducible.
  const document = await PDFDocument.create({ updateMetadata: false })
  document.setTitle(title)
  document.setProducer('steward generate-sandbox-data')
  document.setCreationDate(fixedDate)
  document.setModificationDate(fixedDate)
  const fonts = { regular: await document.embedFont(StandardFonts.Helvetica), bold: await document.embedFont(StandardFonts.HelveticaBold) }
  return { document, fonts }
}

function draw(page: PDFPage, fonts: { regular: PDFFont; bold: PDFFont }, rows: readonly TextRow[]): void {
  for (const row of rows) {
    page.drawText(row.text, { x: row.x, y: row.y, size: row.size ?? 10, font: row.bold === true ? fonts.bold : fonts.regular, color: rgb(0.1, 0.1, 0.1) })
  }
}

function row(y: number, ...cells: ReadonlyArray<readonly [number, string]>): TextRow[] {
  return cells.map(([x, text]) => ({ x, y, text }))
}

/** The green-coffee importer's invoice HR-26-0158, as the PDF it e-mails. */
async function hanseInvoicePdf(): Promise<Uint8Array> {
  const bill = bills.find((candidate) => candidate.number === 'HR-26-0158')!
  const { subtotal, tax, total } = totals(bill.lines, bill.vatPercent)
  const { document, fonts } = await newDocument(`Rechnung ${bill.number}`)
  const page = document.addPage([595, 842])
  const itemRows = bill.lines.flatMap((line, index) =>
    row(560 - index * 15, [50, line.description], [340, `${line.quantity} kg`], [400, german(line.unit)], [490, german(line.quantity * line.unit)]),
  )
  draw(page, fonts, [
    { x: 50, y: 790, text: parties.hanse.name, size: 16, bold: true },
    { x: 430, y: 790, text: 'RECHNUNG', size: 20, bold: true },
    ...row(765, [50, 'Am Sandtorkai 41'], [330, 'Rechnungsnummer:'], [440, bill.number]),
    ...row(750, [50, '20457 Hamburg'], [330, 'Rechnungsdatum:'], [440, germanDate(bill.issueDate)]),
    ...row(735, [50, parties.hanse.email], [330, 'Fällig am:'], [440, germanDate(bill.dueDate)]),
    ...row(720, [330, 'Kundennummer:'], [440, '40877']),
    { x: 50, y: 680, text: 'Rechnungsempfänger:', bold: true },
    { x: 50, y: 665, text: business.name },
    { x: 50, y: 650, text: 'Rummelsburger Straße 71' },
    { x: 50, y: 635, text: '10315 Berlin' },
    { x: 50, y: 620, text: `USt-IdNr.: ${business.taxId}` },
    ...row(580, [50, 'Beschreibung'], [340, 'Menge'], [400, 'Einzelpreis'], [490, 'Betrag']),
    ...itemRows,
    ...row(495, [330, 'Nettobetrag'], [480, `${german(subtotal)} €`]),
    ...row(480, [330, `zzgl. MwSt. ${bill.vatPercent} %`], [480, `${german(tax)} €`]),
    ...row(465, [330, 'Gesamtbetrag'], [480, `${german(total)} €`]),
    { x: 50, y: 420, text: 'Lieferung ab Lager Hamburg, Rohkaffee in Jutesäcken. Bitte geben Sie bei Zahlung die Rechnungsnummer an.' },
    { x: 50, y: 120, text: `Bankverbindung: Hamburger Sparkasse · IBAN ${groupedIban(parties.hanse.iban)} · BIC ${parties.hanse.bic}`, size: 8 },
    { x: 50, y: 108, text: `USt-IdNr.: ${parties.hanse.taxId} · Amtsgericht Hamburg HRB 148221 · Geschäftsführerin: Inga Petersen`, size: 8 },
  ])
  return document.save()
}

/** The packaging supplier's web-shop receipt: paid by card, stamped BEZAHLT. */
async function kartonwerkReceiptPdf(): Promise<Uint8Array> {
  const { document, fonts } = await newDocument(`Quittung ${receipt.number}`)
  const page = document.addPage([595, 842])
  const itemRows = receipt.lines.flatMap((line, index) =>
    row(570 - index * 15, [50, line.description], [340, String(line.quantity)], [400, german(line.unit)], [490, german(line.quantity * line.unit)]),
  )
  draw(page, fonts, [
    { x: 50, y: 790, text: parties.kartonwerk.name, size: 16, bold: true },
    { x: 430, y: 790, text: 'QUITTUNG', size: 20, bold: true },
    ...row(765, [50, 'Am Rangierbahnhof 7'], [330, 'Quittungsnummer:'], [440, receipt.number]),
    ...row(750, [50, '04347 Leipzig'], [330, 'Datum:'], [440, germanDate(receipt.date)]),
    ...row(735, [50, parties.kartonwerk.email], [330, 'Kundennummer:'], [440, '55190']),
    { x: 50, y: 690, text: 'Kunde:', bold: true },
    { x: 50, y: 675, text: business.name },
    { x: 50, y: 660, text: business.address },
    ...row(600, [50, 'Beschreibung'], [340, 'Menge'], [400, 'Einzelpreis'], [490, 'Betrag']),
    ...itemRows,
    ...row(510, [330, 'Nettobetrag'], [480, `${german(receiptTotals.subtotal)} €`]),
    ...row(495, [330, 'zzgl. MwSt. 19 %'], [480, `${german(receiptTotals.tax)} €`]),
    ...row(480, [330, 'Gesamtbetrag'], [480, `${german(receiptTotals.total)} €`]),
    { x: 330, y: 455, text: 'BEZAHLT', size: 14, bold: true },
    ...row(435, [330, 'Zahlungsart:'], [440, 'Kartenzahlung girocard']),
    { x: 50, y: 380, text: 'Vielen Dank für Ihre Bestellung im Kartonwerk-Onlineshop.' },
    { x: 50, y: 108, text: `USt-IdNr.: ${parties.kartonwerk.taxId} · Amtsgericht Leipzig HRB 33871`, size: 8 },
  ])
  return document.save()
}

function base64Lines(bytes: Uint8Array): string {
  return (Buffer.from(bytes).toString('base64').match(/.{1,76}/g) ?? []).join('\r\n')
}

function receiptEmail(pdf: Uint8Array): string {
  const lines = [
    'From: Kartonwerk Onlineshop <shop@kartonwerk.example>',
    'To: Juniper & Finch Einkauf <einkauf@juniperfinch.example>',
    `Subject: Ihre Quittung ${receipt.number} - Bestellung vom ${germanDate(receipt.date)}`,
    'Date: Wed, 18 Feb 2026 10:12:00 +0100',
    `Message-ID: <${receipt.number.toLowerCase()}.20260218101200@shop.kartonwerk.example>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="==jf-sandbox-kartonwerk=="',
    '',
    '--==jf-sandbox-kartonwerk==',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    'Guten Tag,',
    '',
    `vielen Dank für Ihre Bestellung. Im Anhang finden Sie Ihre Quittung ${receipt.number}`,
    `über ${german(receiptTotals.total)} EUR. Der Betrag wurde Ihrer girocard belastet.`,
    '',
    'Ihr Kartonwerk-Team',
    '',
    '--==jf-sandbox-kartonwerk==',
    `Content-Type: application/pdf; name="Quittung-${receipt.number}.pdf"`,
    `Content-Disposition: attachment; filename="Quittung-${receipt.number}.pdf"`,
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(pdf),
    '',
    '--==jf-sandbox-kartonwerk==--',
  ]
  return `${lines.join('\r\n')}\r\n`
}

// ---------------------------------------------------------------------------------------------------
// The manifest and the README

interface FileSpec {
  readonly file: string
  readonly format: string
  readonly mime_type: string
  readonly source_type: string
  /** How it reaches Steward: an upload (POST /v1/raw/ingest) or a signed provider webhook. */
  readonly ingest: 'upload' | 'webhook'
  readonly provider_webhook?: string
  readonly source_ref?: Record<string, unknown>
  readonly parser: string
  readonly description: string
}

const checkingSourceRef = { account_name: checking.name, iban: groupedIban(checking.iban), currency: 'EUR', institution: bank.name, account_type: 'bank_checking' }

const files: FileSpec[] = [
  { file: 'erp-kontor-2026-q1.json', format: 'JSON, steward.erp_provider.v1', mime_type: 'application/json', source_type: 'erp_provider', ingest: 'webhook', provider_webhook: 'erp_provider', parser: 'erp_provider_payload', description: 'Customers, vendors, 10 invoices issued, 5 bills received, the Shopify subscription' },
  { file: 'payroll-lohnwerk-2026-q1.json', format: 'JSON, steward.payroll_provider.v1', mime_type: 'application/json', source_type: 'payroll_provider', ingest: 'webhook', provider_webhook: 'generic_hmac', parser: 'payroll_provider_payload', description: 'Three monthly pay runs (net pay debited by the provider) and their wage-tax and social-insurance remittances' },
  { file: 'tagesgeld-2026-q1.ofx', format: 'OFX 2.2 (XML)', mime_type: 'application/x-ofx', source_type: 'other', ingest: 'upload', parser: 'ofx_statement', description: 'Savings account, January to March: three reserve transfers from checking, monthly interest' },
  { file: 'girokonto-2026-01.camt053.xml', format: 'ISO 20022 CAMT.053 (camt.053.001.08)', mime_type: 'application/xml', source_type: 'other', ingest: 'upload', parser: 'camt053_statement', description: 'Checking account, January' },
  { file: 'girokonto-2026-02.sta', format: 'SWIFT MT940 (German DK :86: layout, Latin-1)', mime_type: 'application/x-mt940', source_type: 'other', ingest: 'upload', parser: 'mt940_statement', description: 'Checking account, February' },
  { file: 'girokonto-2026-03.csv', format: 'CSV, German online-banking export (semicolons, DD.MM.YYYY, decimal commas, UTF-8, newest first)', mime_type: 'text/csv', source_type: 'csv_upload', ingest: 'upload', source_ref: checkingSourceRef, parser: 'csv_bank_statement', description: 'Checking account, March' },
  { file: 'girokonto-2026-03-15_2026-04-10.csv', format: 'CSV, same export as March', mime_type: 'text/csv', source_type: 'csv_upload', ingest: 'upload', source_ref: checkingSourceRef, parser: 'csv_bank_statement', description: 'Checking account, 15 March to 10 April: overlaps the March file (second half of March repeated exactly) and adds early April' },
  { file: 'lumenpay-2026-q1.json', format: 'JSON, steward.card_processor.v1', mime_type: 'application/json', source_type: 'card_processor', ingest: 'webhook', provider_webhook: 'card_processor', parser: 'card_processor_payload', description: 'Online-shop card charges, per-charge fees, two refunds, weekly payouts to checking' },
  { file: 'rechnung-hanse-rohkaffee-HR-26-0158.pdf', format: 'PDF with a text layer', mime_type: 'application/pdf', source_type: 'pdf_upload', ingest: 'upload', parser: 'pdf_invoice', description: 'The green-coffee importer’s invoice HR-26-0158 (the same bill as in the ERP payload, paid on 12 March)' },
  { file: 'quittung-kartonwerk-KW-88213.eml', format: 'E-mail (RFC 5322) with a PDF receipt attached', mime_type: 'message/rfc822', source_type: 'email_inbound', ingest: 'upload', parser: 'email_message', description: 'The packaging supplier’s web-shop receipt KW-88213, paid by card (booked 19 February)' },
  { file: 'wallet-base-usdc-2026-q1.json', format: 'JSON, steward.chain_indexer.v1', mime_type: 'application/json', source_type: 'chain_indexer_wallet', ingest: 'webhook', provider_webhook: 'chain_indexer', parser: 'chain_indexer_wallet', description: 'The USDC treasury wallet on Base (chain 8453): three customer payments in, one transfer out to an exchange' },
]

/** For the README (English): `EUR 1,234.56`. */
function money(amount: number): string {
  const magnitude = Math.abs(amount)
  const whole = String(Math.floor(magnitude / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${amount < 0 ? '−' : ''}EUR ${whole}.${String(magnitude % 100).padStart(2, '0')}`
}

function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((cells) => `| ${cells.join(' | ')} |`)].join('\n')
}

function readme(): string {
  const count = (from: string, to: string) => booked.filter((row) => row.date >= from && row.date <= to).length
  const checkingUnique = booked.length
  const processorTransactions = lumenpay.charges.length + lumenpay.refunds.length + lumenpay.fees.length + lumenpay.payouts.length
  const transactionsTotal = checkingUnique + savingsEntries.length + processorTransactions + walletTransfers.length
  const invoiceRows = invoices.map((invoice) => {
    const { total } = totals(invoice.lines, 7)
    const state =
      invoice.payments.length === 0
        ? `**open, overdue** (due ${invoice.dueDate}, no payment)`
        : invoice.payments.length === 1
          ? `paid ${invoice.payments[0]!.date}`
          : `paid in ${invoice.payments.length} parts: ${invoice.payments.map((payment) => `${money(payment.amount)} on ${payment.date}`).join(', ')}`
    return [invoice.number, invoice.customer.name, invoice.issueDate, invoice.dueDate, money(total), state]
  })
  const billRows = bills.map((bill) => [bill.number, bill.vendor.name, bill.issueDate, bill.dueDate, money(totals(bill.lines, bill.vatPercent).total), `paid ${bill.paidOn}`])
  const payrollRows = payRuns.map((run) => [run.id, run.month, money(run.gross), `${money(netPay(run))} debited ${run.fundingDate}`, `${money(run.incomeTax)} to the Finanzamt, due ${run.incomeTaxDue}`, `${money(socialTotal(run))} to AOK Nordost, due ${run.socialDue}`])
  const fileRows = files.map((spec) => [
    `\`${spec.file}\``,
    spec.format,
    `\`${spec.source_type}\``,
    spec.ingest === 'webhook' ? `provider webhook \`${spec.provider_webhook}\`` : `upload${spec.source_ref === undefined ? '' : ' with `source_ref` (see below)'}`,
    `\`${spec.parser}\``,
    spec.description,
  ])
  const payoutsPaid = lumenpay.payouts.filter((payout) => payout.status === 'paid')
  const inTransit = lumenpay.payouts.find((payout) => payout.status === 'in_transit')!
  const walletBalance = walletTransfers.reduce((sum, transfer) => sum + (transfer.to === wallet.address ? transfer.amount : -transfer.amount), 0)
  const marchSecondHalf = booked.filter((row) => row.date >= '2026-03-15' && row.date <= '2026-03-31').length

  return `# Sandbox demo business: Juniper & Finch Coffee Roasters GmbH

Generated by \`npx tsx scripts/generate-sandbox-data.ts\` (deterministic: the same bytes on every run); do
not edit these files by hand. \`test/main/sandbox-data.test.ts\` reads every file through the real parsers and
checks the figures below. \`manifest.json\` says the same as the file table below, for code.

## The business

${business.name} (${business.address}; USt-IdNr. ${business.taxId}) roasts coffee in a rented hall in
Berlin-Lichtenberg and sells it two ways: **to cafés and a bakery**, on invoice (7 % VAT, 14 days), and
**to consumers through its online shop** (Shopify, card payments through the processor LumenPay, paid out
weekly). It buys green coffee from an importer in Hamburg, pays three employees through a payroll
provider, and keeps a tax reserve on a savings account. One café customer from abroad (Nomad Coffee
Collective, Lisbon) pays in USDC to a treasury wallet on Base; the roastery sells USDC through an exchange
when it needs euros. Everything is in EUR except the wallet (USDC). The period is January to March 2026
(the checking account's overlapping export runs to 10 April). Q1 is the quiet season after Christmas: the
checking balance falls from ${money(openingBalance)} to ${money(march.closing)}.

## Accounts

${table(
  ['account', 'identifier', 'files', 'balances'],
  [
    [`Checking "${checking.name}", ${bank.name}`, `IBAN ${groupedIban(checking.iban)} (BIC ${bank.bic})`, 'January CAMT.053, February MT940, March CSV, 15 Mar–10 Apr CSV', `${money(openingBalance)} on 1 Jan → ${money(january.closing)} (31 Jan) → ${money(february.closing)} (28 Feb) → ${money(march.closing)} (31 Mar) → ${money(april.closing)} (10 Apr)`],
    [`Savings "${savings.name}", ${bank.name}`, `IBAN ${groupedIban(savings.iban)}`, 'OFX', `${money(savingsOpening)} on 1 Jan (not in the file: OFX has no opening balance) → ${money(savingsClosing)} (31 Mar, LEDGERBAL)`],
    ['LumenPay Onlineshop (card processor)', 'processor account `acct_jf_onlineshop`', 'card-processor payload', `EUR 0.00 on 1 Jan (the shop moved to LumenPay on 1 January) → ${money(lumenpay.balance)} current balance on 31 Mar`],
    [`${wallet.label}`, `\`${wallet.address}\` on Base (chain id ${wallet.chainId})`, 'chain-indexer payload', `0 USDC on 1 Jan → ${plain(walletBalance)} USDC after the four transfers`],
  ],
)}

## Files and how to load them

${table(['file', 'format', 'source_type', 'how it arrives', 'parser', 'content'], fileRows)}

- **Order.** Load them in the order of the table (manifest.json lists them in it), or in any other:
  the Ledger comes out the same. A transaction whose counterparty is another of the tenant's accounts
  (the three reserve transfers from checking to the savings IBAN, the processor's payouts to the
  checking IBAN) is a \`transfer\` whichever file arrives first: normalization records it as one when
  the other account already exists, and otherwise the reconciliation run queued after the other
  account's file records it as one (a new version). Matches and counts do not depend on the order
  either (reconciliation runs after every file, and a later run finds what an earlier one could not).
  \`test/main/sandbox-demo-order.test.ts\` loads the files through the pipeline, normalizes the same
  parsed rows in reverse order in another tenant, and finds the same Ledger, on PGlite and PostgreSQL.
- **The two CSV files need \`source_ref\`** \`${JSON.stringify(checkingSourceRef)}\`: a CSV export does not name
  its account, and without the IBAN the parser names the account after the file (\`girokonto\`), which is a
  different Ledger account from the IBAN the CAMT and MT940 files name. With it, all four checking files
  are one account.
- **CAMT.053, MT940 and OFX** are read by content; \`other\` is the honest source type for a statement
  file (\`csv_upload\` would do as well: the bank parsers do not look at it).
- **The payroll payload arrives through the \`generic_hmac\` provider webhook**: \`payroll_provider\` is
  reserved (\`POST /v1/raw/ingest\` refuses it) and has no webhook of its own, so a generic_hmac delivery
  whose signed body names \`schema: steward.payroll_provider.v1\` is recorded as \`payroll_provider\`.
- The e-mail yields the PDF receipt as a child artifact (\`source_type: email_inbound\`,
  \`application/pdf\`), which \`pdf_invoice\` then reads.

## Checking account, month by month

${table(
  ['period', 'file', 'bookings', 'opening', 'closing'],
  [
    ['January', 'CAMT.053', String(january.rows.length), `${money(january.opening)} (1 Jan)`, `${money(january.closing)} (31 Jan)`],
    ['February', 'MT940', String(february.rows.length), `${money(february.opening)} (:60F: dated 1 Feb; the first booking is on 2 Feb)`, `${money(february.closing)} (28 Feb)`],
    ['March', 'CSV', String(march.rows.length), `${money(march.opening)} (balance before the first row, 2 Mar)`, `${money(march.closing)} (31 Mar)`],
    ['15 Mar – 10 Apr', 'CSV (overlap)', `${overlap.rows.length} (${marchSecondHalf} of them repeat March, ${april.rows.length} are April)`, `${money(overlap.opening)} (before the first row, 16 Mar)`, `${money(overlap.closing)} (10 Apr)`],
  ],
)}

Each statement's opening balance plus its bookings is its closing balance, to the cent, and each month
opens where the previous one closed. The bookings: rent on the first bank day (Gewerbehof Lichtenberg,
standing order), energy, van leasing and internet by direct debit, the Shopify subscription on the 13th,
customers paying invoices (the invoice number in the remittance text), green-coffee and service bills paid
by transfer (the bill number in the text), the payroll provider's net-pay debit, social insurance to AOK
Nordost, wage tax and VAT to the Finanzamt on the 10th, weekly LumenPay payouts, reserve transfers to the
savings account (its IBAN as counterparty), the exchange paying out USDC sold, small card purchases, and
the bank's fees at month end. On **19 March** two card payments at Barista Supply Berlin are genuinely
identical (same day, amount and text): they are two transactions, and they are in both CSV files.

Unique checking bookings: ${checkingUnique} (${count('2026-01-01', '2026-01-31')} in January, ${count('2026-02-01', '2026-02-28')} in
February, ${count('2026-03-01', '2026-03-31')} in March, ${count('2026-04-01', '2026-04-10')} in April).

## Invoices issued (ERP, receivable, 7 % VAT)

${table(['number', 'customer', 'issued', 'due', 'total', 'in the bank'], invoiceRows)}

The ERP payload marks every invoice \`sent\` (and JF-2026-007 \`overdue\`) with nothing paid: the ERP does not
see the bank. The payment states above are what reconciliation finds in the statements.

## Bills received (ERP, payable)

${table(['number', 'vendor', 'issued', 'due', 'total', 'in the bank'], billRows)}

The PDF \`rechnung-hanse-rohkaffee-HR-26-0158.pdf\` is bill HR-26-0158 as the importer sent it: same
number, total, vendor (name, tax id, IBAN, e-mail), so it resolves to the same Ledger invoice as the ERP
bill rather than a second one. The e-mailed receipt KW-88213 from ${parties.kartonwerk.name}
(${money(receiptTotals.total)}, stamped BEZAHLT) is not in the ERP; the card payment it documents was booked on
${receipt.bookedOn}.

## Subscription

\`${subscription.id}\` (ERP payload, vendor ${parties.shopify.name}): ${subscription.description},
${money(subscription.amount)} ${subscription.interval}, next due ${subscription.nextDueDate}. Charged by direct debit on
${subscription.chargeDates.join(', ')}.

## Payroll (payroll payload, three employees)

${table(['pay run', 'month', 'gross', 'net pay', 'wage tax (Lohnsteuer)', 'social insurance (total)'], payrollRows)}

Every amount appears in the checking account on its date (the March wage tax on 10 April, in the overlap
file). The wage tax for December 2025 (${money(169_835)}, paid 12 January) is from before the payload's period.

## Card processor (LumenPay)

${lumenpay.charges.length} charges (orders #1001–#${1000 + lumenpay.charges.length}), ${lumenpay.fees.length} fees (1.4 % + EUR 0.25 each),
${lumenpay.refunds.length} refunds, ${lumenpay.payouts.length} weekly payouts (Mondays). ${payoutsPaid.length} payouts are \`paid\` and
arrived on checking two days later (Wednesdays, from ${payoutsPaid[0]!.arrivalDate} to ${payoutsPaid.at(-1)!.arrivalDate});
the last one, ${inTransit.id} (${money(inTransit.amount)}), is \`in_transit\` in the payload and arrives on
${inTransit.arrivalDate} (in the overlap file). Each payout equals charges − fees − refunds of the week
before it.

## Wallet (USDC on Base)

${walletTransfers
  .map((transfer) => `- ${transfer.timestamp}: ${transfer.to === wallet.address ? `+${plain(transfer.amount)} USDC from Nomad Coffee Collective (\`${transfer.from}\`)` : `−${plain(transfer.amount)} USDC to the exchange deposit address \`${transfer.to}\``}`)
  .join('\n')}

${parties.exchange.name} paid ${money(exchangeProceeds.amount)} for the 3,000 USDC into checking on
${exchangeProceeds.date}. USDC is not an ISO currency, so nothing in the wallet reconciles against invoices.

## What a user should see after loading everything

- **Accounts: 4**: checking ("Geschäftskonto"), savings (named "Berliner Volksbank eG account 3027": an
  OFX file carries no account name), "LumenPay Onlineshop" (payment processor) and the wallet.
- **Directions**: on checking, the 3 reserve transfers are \`transfer\`; on the processor account the 13
  payouts are \`transfer\`, in any load order. The savings side of the reserve transfers stays
  \`inflow\`: the OFX file names the sender but not its IBAN.
- **Transactions: ${transactionsTotal}**: checking ${checkingUnique} (the overlap file's ${marchSecondHalf} March rows are
  recognised as the March file's and not counted again; the two identical filter-paper payments stay two),
  savings ${savingsEntries.length}, LumenPay ${processorTransactions} (${lumenpay.charges.length} charges, ${lumenpay.fees.length} fees,
  ${lumenpay.refunds.length} refunds, ${lumenpay.payouts.length} payouts, one of them pending), wallet ${walletTransfers.length}.
- **Invoices: 16**: 10 receivable, 5 payable from the ERP (the PDF is the same invoice as bill HR-26-0158),
  and the Kartonwerk receipt (payable, paid).
- **Obligations: 26**: one per invoice (16), the Shopify subscription, 3 payroll runs, 6 tax remittances
  (3 wage tax, 3 social insurance). After reconciliation 18 are settled (every invoice and bill but
  JF-2026-007, the receipt, the 3 payroll runs) and 8 open: JF-2026-007 (overdue), the subscription
  (recurring: it stays open), and the 6 tax obligations (no reconciliation rule matches tax payments).
- **Reconciliation matches**:
  - \`invoice_payment\`: 14 \`matched\` (8 invoices paid in one transfer, JF-2026-004's second part, the 5
    bills) and 1 \`partially_matched\` (JF-2026-004's first part, ${money(invoices[3]!.payments[0]!.amount)} on ${invoices[3]!.payments[0]!.date});
    JF-2026-007 stays open.
  - \`subscription_charge\`: 3 \`matched\` (the Shopify debits of ${subscription.chargeDates.join(', ')}).
  - \`payroll_bank_debit\`: 3 \`matched\` (the Lohnwerk net-pay debits).
  - \`transaction_receipt\`: 1 \`matched\` (receipt KW-88213 and the card payment of ${receipt.bookedOn}).
  - \`statement_balance\`: 5 \`matched\` on checking, none \`unmatched\`: each opening balance is checked
    against the first closing balance on or after it (January, February, 2–31 March from the March file,
    16–31 March from the overlap file), and the 10 April closing balance, which no opening reaches,
    against the 31 March closing. None for savings (one closing balance only), the processor (no opening
    or closing balances) or the wallet.
  - \`card_charge\`: ${lumenpay.payouts.length} \`matched\`: each LumenPay payout with the checking credit it became (the last
    one, in transit at the end of March, arrives on ${inTransit.arrivalDate} in the overlap file).
  - No \`duplicate_possible\` and no \`obligation_duplicate\`.
- **Not matched by any rule** (by design of the current matchers): tax remittances (no match type for
  them), the exchange's payout against the wallet transfer, and the savings transfers (recorded as
  transfers between own accounts on the checking side; no rule pairs the two legs).
`
}

// ---------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  mkdirSync(outputDirectory, { recursive: true })
  const write = (name: string, content: Uint8Array | string) => {
    writeFileSync(join(outputDirectory, name), content)
    console.log(`wrote sandbox/demo/${name}`)
  }
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`
  /** Top-level fields on their own lines, list items one per line: a long payload stays readable. */
  const jsonLines = (value: Record<string, unknown>) => {
    const fields = Object.entries(value).map(([key, field]) =>
      Array.isArray(field) ? `  ${JSON.stringify(key)}: [\n${field.map((item) => `    ${JSON.stringify(item)}`).join(',\n')}\n  ]` : `  ${JSON.stringify(key)}: ${JSON.stringify(field)}`,
    )
    return `{\n${fields.join(',\n')}\n}\n`
  }
  write('erp-kontor-2026-q1.json', json(erpPayload()))
  write('payroll-lohnwerk-2026-q1.json', json(payrollPayload()))
  write('tagesgeld-2026-q1.ofx', ofx())
  write('girokonto-2026-01.camt053.xml', camt053())
  write('girokonto-2026-02.sta', mt940())
  write('girokonto-2026-03.csv', csvStatement(march, '2026-03-01', '2026-03-31'))
  write('girokonto-2026-03-15_2026-04-10.csv', csvStatement(overlap, '2026-03-15', '2026-04-10'))
  write('lumenpay-2026-q1.json', jsonLines(cardProcessorPayload()))
  write('rechnung-hanse-rohkaffee-HR-26-0158.pdf', await hanseInvoicePdf())
  write('quittung-kartonwerk-KW-88213.eml', receiptEmail(await kartonwerkReceiptPdf()))
  write('wallet-base-usdc-2026-q1.json', json(chainPayload()))
  write('manifest.json', json({ business: business.name, generated_by: 'scripts/generate-sandbox-data.ts', load_in_order: files }))
  write('README.md', readme())
}

await main()
