import { describe, expect, it } from 'vitest'
import { deterministicId } from '../../../kernel/ids.ts'
import { balanceIdOf, entityIdOf, invoiceIdOf, invoiceObligationIdOf, obligationIdOf } from './keys.ts'

const tenant = '00000000-0000-4000-8000-000000000001'
const other = '00000000-0000-4000-8000-000000000002'

describe('entity ids', () => {
  it.each([
    { name: 'an account from its seed key', id: entityIdOf('account', tenant, 'iban:DE89'), expected: deterministicId('account', tenant, 'iban:DE89'), prefix: 'acc_' },
    { name: 'a counterparty from its seed key', id: entityIdOf('counterparty', tenant, 'name:ACME'), expected: deterministicId('counterparty', tenant, 'name:ACME'), prefix: 'cpy_' },
    { name: 'a transaction from its seed key', id: entityIdOf('transaction', tenant, 'ext:acc_1:F'), expected: deterministicId('transaction', tenant, 'ext:acc_1:F'), prefix: 'txn_' },
    { name: 'a balance from account, day and type', id: balanceIdOf(tenant, 'acc_1', '2026-01-31', 'closing'), expected: deterministicId('balance', tenant, 'acc_1:2026-01-31:closing'), prefix: 'bal_' },
    { name: 'an invoice from direction, counterparty and trimmed number', id: invoiceIdOf(tenant, 'payable', 'cpy_1', ' INV-1 '), expected: deterministicId('invoice', tenant, 'payable:cpy_1:INV-1'), prefix: 'inv_' },
    { name: 'an invoice without counterparty', id: invoiceIdOf(tenant, 'receivable', undefined, 'INV-1'), expected: deterministicId('invoice', tenant, 'receivable::INV-1'), prefix: 'inv_' },
    { name: "an invoice's obligation", id: invoiceObligationIdOf(tenant, 'inv_1'), expected: deterministicId('obligation', tenant, 'invoice:inv_1'), prefix: 'obl_' },
    { name: 'an obligation from type and reference', id: obligationIdOf(tenant, 'rent', 'LEASE-9'), expected: deterministicId('obligation', tenant, 'rent:LEASE-9'), prefix: 'obl_' },
  ])('$name', ({ id, expected, prefix }) => {
    expect(id).toBe(expected)
    expect(id.startsWith(prefix)).toBe(true)
  })

  it('differ between tenants and between keys', () => {
    expect(balanceIdOf(tenant, 'acc_1', '2026-01-31', 'closing')).not.toBe(balanceIdOf(other, 'acc_1', '2026-01-31', 'closing'))
    expect(balanceIdOf(tenant, 'acc_1', '2026-01-31', 'closing')).not.toBe(balanceIdOf(tenant, 'acc_1', '2026-01-31', 'opening'))
    expect(invoiceIdOf(tenant, 'payable', 'cpy_1', 'INV-1')).not.toBe(invoiceIdOf(tenant, 'receivable', 'cpy_1', 'INV-1'))
  })
})
