import { describe, expect, it } from 'vitest'
import { matchTemplate } from './uri-template.ts'

describe('matchTemplate', () => {
  it.each([
    ['svc://ledger/accounts/{account_id}', 'svc://ledger/accounts/acc_1', { account_id: 'acc_1' }],
    ['svc://ledger/accounts/{account_id}', 'svc://ledger/accounts/a%20b', { account_id: 'a b' }],
    ['svc://wiki/pages/{slug}', 'svc://wiki/pages/counterparty/cpy_1', { slug: 'counterparty/cpy_1' }],
    ['svc://wiki/pages/{slug}', 'svc://wiki/pages/counterparty%2Fcpy_1', { slug: 'counterparty/cpy_1' }],
    ['svc://payments/action_types', 'svc://payments/action_types', {}],
    ['svc://a/{x}/b/{y}', 'svc://a/1/b/2', { x: '1', y: '2' }],
  ])('%s matches %s', (template, uri, expected) => {
    expect(matchTemplate(template, uri)).toEqual(expected)
  })

  it.each([
    ['svc://ledger/accounts/{account_id}', 'svc://ledger/accounts/'],
    ['svc://ledger/accounts/{account_id}', 'svc://ledger/accounts'],
    ['svc://ledger/accounts/{account_id}', 'svc://ledger/transactions/txn_1'],
    ['svc://ledger/accounts/{account_id}', 'svc://ledger/accounts/%E0%A4%A'],
    ['svc://ledger/accounts/{account_id}', `svc://ledger/accounts/${'a'.repeat(256)}`],
    ['svc://a/{x}/b/{y}', 'svc://a/1/2/b/3'],
    ['svc://payments/action_types', 'svc://payments/action_typesX'],
    ['svc://payments/action.types', 'svc://payments/actionXtypes'],
  ])('%s does not match %s', (template, uri) => {
    expect(matchTemplate(template, uri)).toBeUndefined()
  })
})
