/**
 * `bank_provider_payload`: the body of a bank-provider webhook, envelope `steward.bank_provider.v1`
 * (docs/provider-payloads.md). One account, its transactions and its balances. Yields the `account`
 * record first, then one `transaction` per transaction (a posted one names the pending one it replaces
 * through `pending_transaction_id`), then one `balance` per balance. Confidence 1: the payload is
 * validated strictly and mapped field for field.
 */
import Type from 'typebox'
import { canonicalDecimal } from '../../../../kernel/money.ts'
import {
  acceptsJsonOf,
  envelopeValidator,
  PayloadCurrency,
  PayloadDate,
  PayloadId,
  payloadItemsMax,
  PayloadProvider,
  PayloadSignedAmount,
  PayloadText,
  readEnvelope,
  requireCalendarDate,
  requireUniqueIds,
} from './json-payload.ts'
import { recordOutput } from './output.ts'
import type { AccountRecord, AccountRef, CounterpartyRef, TransactionRecord } from '../../domain/extracted.ts'
import { ParseError, type Parser, type ParserInput, type ParserOutput } from '../parser.ts'

export const bankProviderSchemaName = 'steward.bank_provider.v1'

const BankCounterparty = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    iban: Type.Optional(Type.String({ pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' })),
    account_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false, minProperties: 1 },
)

export const BankProviderPayload = Type.Object(
  {
    schema: Type.Literal(bankProviderSchemaName),
    provider: PayloadProvider,
    account: Type.Object(
      {
        /** The provider's stable id for the account. */
        id: PayloadId,
        type: Type.Enum(['checking', 'savings', 'credit_card', 'loan', 'line_of_credit']),
        currency: PayloadCurrency,
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        iban: Type.Optional(Type.String({ pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' })),
        account_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        /** Routing number, BIC or sort code. */
        institution_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        institution_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        status: Type.Optional(Type.Enum(['active', 'closed', 'frozen'])),
      },
      { additionalProperties: false },
    ),
    transactions: Type.Array(
      Type.Object(
        {
          id: PayloadId,
          /** On a posted transaction: the id of the pending transaction it replaces. */
          pending_id: Type.Optional(PayloadId),
          status: Type.Enum(['pending', 'posted']),
          /** Signed, in the account's currency: negative is money out. */
          amount: PayloadSignedAmount,
          /** When it happened. */
          date: PayloadDate,
          /** When it posted (posted transactions only). */
          posted_date: Type.Optional(PayloadDate),
          description: PayloadText(1000),
          counterparty: Type.Optional(BankCounterparty),
          category: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          /** For a foreign-currency payment: what was paid, before conversion. */
          original_amount: Type.Optional(PayloadSignedAmount),
          original_currency: Type.Optional(PayloadCurrency),
          /** ISO 18245 merchant category code, for card payments. */
          merchant_category_code: Type.Optional(Type.String({ pattern: '^[0-9]{4}$' })),
        },
        { additionalProperties: false },
      ),
      { maxItems: payloadItemsMax },
    ),
    balances: Type.Array(
      Type.Object(
        {
          type: Type.Enum(['available', 'current', 'opening', 'closing']),
          as_of: PayloadDate,
          /** Signed, in the account's currency. */
          amount: PayloadSignedAmount,
        },
        { additionalProperties: false },
      ),
      { maxItems: payloadItemsMax },
    ),
  },
  { additionalProperties: false },
)

const validator = envelopeValidator(bankProviderSchemaName, BankProviderPayload)

const accountTypes = {
  checking: 'bank_checking',
  savings: 'bank_savings',
  credit_card: 'card',
  loan: 'loan',
  line_of_credit: 'line_of_credit',
} as const

export const bankProviderParser: Parser = {
  name: 'bank_provider_payload',
  version: '1.0.0',
  accepts: acceptsJsonOf('bank_provider'),
  async *parse(input: ParserInput): AsyncIterable<ParserOutput> {
    const payload = validator.check(await readEnvelope(input, bankProviderSchemaName))
    const { account } = payload
    requireUniqueIds(payload.transactions, '/transactions')

    const accountRef: AccountRef = { external_account_id: account.id, currency: account.currency }
    if (account.name !== undefined) accountRef.name = account.name
    if (account.iban !== undefined) accountRef.iban = account.iban
    if (account.account_number !== undefined) accountRef.account_number = account.account_number
    if (account.institution_id !== undefined) accountRef.institution_id = account.institution_id
    const accountRecord: AccountRecord = { kind: 'account', account: accountRef, account_type: accountTypes[account.type] }
    const institution = account.institution_name ?? payload.provider.name
    if (institution !== undefined) accountRecord.institution = institution
    if (account.status !== undefined) accountRecord.status = account.status
    yield recordOutput(accountRecord, 1)

    for (const [index, transaction] of payload.transactions.entries()) {
      const path = `/transactions/${index}`
      requireCalendarDate(transaction.date, `${path}/date`)
      if (transaction.status === 'pending' && transaction.pending_id !== undefined) {
        throw new ParseError(`${path}/pending_id: only a posted transaction names the pending transaction it replaces`)
      }
      if (transaction.pending_id === transaction.id) throw new ParseError(`${path}/pending_id: a transaction cannot replace itself`)
      if (transaction.status === 'pending' && transaction.posted_date !== undefined) {
        throw new ParseError(`${path}/posted_date: a pending transaction has not posted`)
      }
      if ((transaction.original_amount === undefined) !== (transaction.original_currency === undefined)) {
        throw new ParseError(`${path}: original_amount and original_currency come together`)
      }
      const record: TransactionRecord = {
        kind: 'transaction',
        account: accountRef,
        external_transaction_id: transaction.id,
        amount: canonicalDecimal(transaction.amount),
        currency: account.currency,
        transaction_date: transaction.date,
        status: transaction.status,
        description: transaction.description,
      }
      if (transaction.pending_id !== undefined) record.pending_transaction_id = transaction.pending_id
      if (transaction.posted_date !== undefined) record.posted_date = requireCalendarDate(transaction.posted_date, `${path}/posted_date`)
      if (transaction.counterparty !== undefined) record.counterparty = { ...transaction.counterparty } satisfies CounterpartyRef
      if (transaction.category !== undefined) record.category = transaction.category
      const details: Record<string, unknown> = {}
      if (transaction.original_amount !== undefined) details.original_amount = canonicalDecimal(transaction.original_amount)
      if (transaction.original_currency !== undefined) details.original_currency = transaction.original_currency
      if (transaction.merchant_category_code !== undefined) details.merchant_category_code = transaction.merchant_category_code
      if (Object.keys(details).length > 0) record.details = details
      yield recordOutput(record, 1)
    }

    for (const [index, balance] of payload.balances.entries()) {
      yield recordOutput(
        {
          kind: 'balance',
          account: accountRef,
          balance_type: balance.type,
          as_of: requireCalendarDate(balance.as_of, `/balances/${index}/as_of`),
          amount: canonicalDecimal(balance.amount),
          currency: account.currency,
        },
        1,
      )
    }
  },
}
