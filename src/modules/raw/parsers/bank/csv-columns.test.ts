import { describe, expect, it } from 'vitest'
import { type ColumnRole, foldHeader, hasAmountColumns, mapColumns, readDirection, usedGuessedRoles } from './csv-columns.ts'

function roles(header: string[], sample?: string[]): Partial<Record<ColumnRole, number>> {
  return Object.fromEntries(Object.entries(mapColumns(header, sample)).map(([role, match]) => [role, match.index]))
}

describe('mapColumns', () => {
  it.each([
    ['English', ['Date', 'Description', 'Amount', 'Balance', 'Reference'], { transaction_date: 0, description: 1, amount: 2, balance: 3, reference: 4 }],
    ['English debit/credit', ['Date', 'Description', 'Check Number', 'Debit', 'Credit', 'Balance'], { transaction_date: 0, description: 1, check_number: 2, debit: 3, credit: 4, balance: 5 }],
    ['German', ['Buchungstag', 'Valuta', 'Auftraggeber/Empfänger', 'Verwendungszweck', 'Betrag', 'Währung', 'Saldo'], { transaction_date: 0, value_date: 1, counterparty_name: 2, description: 3, amount: 4, currency: 5, balance: 6 }],
    ['German Soll/Haben', ['Buchungsdatum', 'Buchungstext', 'Soll', 'Haben'], { transaction_date: 0, transaction_type: 1, debit: 2, credit: 3 }],
    ['French', ['Date opération', 'Date valeur', 'Libellé', 'Référence', 'Débit', 'Crédit', 'Solde'], { transaction_date: 0, value_date: 1, description: 2, reference: 3, debit: 4, credit: 5, balance: 6 }],
    ['French montant', ["Date de l'opération", 'Libellé', 'Montant', 'Devise'], { transaction_date: 0, description: 1, amount: 2, currency: 3 }],
    ['Spanish', ['Fecha', 'Fecha valor', 'Concepto', 'Importe', 'Saldo', 'Divisa'], { transaction_date: 0, value_date: 1, description: 2, amount: 3, balance: 4, currency: 5 }],
    ['Dutch ING', ['Datum', 'Naam / Omschrijving', 'Rekening', 'Tegenrekening', 'Code', 'Af Bij', 'Bedrag (EUR)', 'Mutatiesoort', 'Mededelingen'], { transaction_date: 0, counterparty_name: 1, counterparty_account: 3, direction: 5, amount: 6, transaction_type: 7, description: 8 }],
    ['Dutch Af and Bij columns', ['Datum', 'Omschrijving', 'Af', 'Bij'], { transaction_date: 0, description: 1, debit: 2, credit: 3 }],
    ['only a posting date', ['Posting Date', 'Description', 'Amount'], { transaction_date: 0, description: 1, amount: 2 }],
    ['transaction and posted dates', ['Transaction Date', 'Posted Date', 'Payee', 'Amount', 'Transaction ID'], { transaction_date: 0, value_date: 1, counterparty_name: 2, amount: 3, reference: 4 }],
  ])('%s', (_language, header, expected) => {
    expect(roles(header)).toEqual(expected)
  })

  it('reads Valuta as a currency when its first value is a currency code (Dutch), as a value date otherwise (German)', () => {
    expect(roles(['Datum', 'Bedrag', 'Valuta'], ['01-03-2024', '12,50', 'EUR'])).toEqual({ transaction_date: 0, amount: 1, currency: 2 })
    expect(roles(['Buchungstag', 'Valuta', 'Betrag'], ['01.03.2024', '01.03.2024', '12,50'])).toEqual({ transaction_date: 0, value_date: 1, amount: 2 })
  })

  it('takes a currency from the header and marks keyword matches as guessed', () => {
    const mapping = mapColumns(['Transaction Date (UTC)', 'Amount in USD', 'Details'], undefined)
    expect(mapping.amount).toMatchObject({ index: 1, exact: true, currency: 'USD' })
    expect(mapping.transaction_date).toMatchObject({ index: 0, exact: true })
    const guessed = mapColumns(['Date of booking', 'Amount paid', 'Text'], undefined)
    expect(usedGuessedRoles(guessed).sort()).toEqual(['amount', 'transaction_date'])
    expect(usedGuessedRoles(mapColumns(['Date', 'Amount'], undefined))).toEqual([])
  })

  it('needs an amount column or both debit and credit', () => {
    expect(hasAmountColumns(mapColumns(['Date', 'Description', 'Reference'], undefined))).toBe(false)
    expect(hasAmountColumns(mapColumns(['Date', 'Debit'], undefined))).toBe(false)
    expect(hasAmountColumns(mapColumns(['Date', 'Debit', 'Credit'], undefined))).toBe(true)
  })
})

describe('foldHeader', () => {
  it.each([
    ['Währung', 'wahrung', undefined],
    ['Date opération', 'date operation', undefined],
    ['Bedrag (EUR)', 'bedrag', 'EUR'],
    ['Saldo €', 'saldo', 'EUR'],
    ['Naam / Omschrijving', 'naam/omschrijving', undefined],
    ['Check #', 'check', undefined],
  ])('%s → %s', (header, folded, currency) => {
    expect(foldHeader(header)).toEqual({ folded, currency })
  })
})

describe('readDirection', () => {
  it.each([
    ['Af', 'out'],
    ['Bij', 'in'],
    ['D', 'out'],
    ['CR', 'in'],
    ['Soll', 'out'],
    ['Haben', 'in'],
    ['Débit', 'out'],
    ['Crédit', 'in'],
    ['maybe', undefined],
  ])('%s → %s', (cell, direction) => {
    expect(readDirection(cell)).toBe(direction)
  })
})
