/**
 * `card_processor_payload`: the body of a card-processor webhook, envelope `steward.card_processor.v1`
 * (docs/provider-payloads.md), seen from the merchant: the tenant's balance at the processor, the card
 * charges its customers paid, refunds, the processor's fees and the payouts to the tenant's bank.
 *
 * Yields the processor balance as an `account` (type `payment_processor`) first, then one `transaction`
 * per charge (money in), refund, fee and payout (money out), then its balances. A payout's bank-side
 * credit arrives from the bank's own feed; reconciliation matches the two. Confidence 1.
 */
import Type from 'typebox'
import { canonicalDecimal, decimalNegate } from '../../../../kernel/money.ts'
import {
  acceptsJsonOf,
  envelopeValidator,
  PayloadAmount,
  PayloadCurrency,
  PayloadDate,
  PayloadId,
  payloadItemsMax,
  PayloadProvider,
  PayloadSignedAmount,
  PayloadText,
  readEnvelope,
  requireCalendarDate,
} from './json-payload.ts'
import { recordOutput } from './output.ts'
import type { AccountRecord, AccountRef, CounterpartyRef, TransactionRecord } from '../../domain/extracted.ts'
import { ParseError, type Parser, type ParserInput, type ParserOutput } from '../parser.ts'

export const cardProcessorSchemaName = 'steward.card_processor.v1'

const Email = Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$', maxLength: 320 })

export const CardProcessorPayload = Type.Object(
  {
    schema: Type.Literal(cardProcessorSchemaName),
    provider: PayloadProvider,
    account: Type.Object(
      {
        /** The processor's id for the merchant account. */
        id: PayloadId,
        currency: PayloadCurrency,
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      },
      { additionalProperties: false },
    ),
    charges: Type.Array(
      Type.Object(
        {
          id: PayloadId,
          date: PayloadDate,
          /** Gross amount the customer paid, in the account currency. */
          amount: PayloadAmount,
          status: Type.Enum(['pending', 'succeeded', 'failed']),
          description: Type.Optional(PayloadText(1000)),
          customer: Type.Optional(
            Type.Object(
              { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), email: Type.Optional(Email) },
              { additionalProperties: false, minProperties: 1 },
            ),
          ),
          card: Type.Optional(
            Type.Object(
              { brand: Type.String({ minLength: 1, maxLength: 40 }), last4: Type.String({ pattern: '^[0-9]{4}$' }) },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: payloadItemsMax },
    ),
    refunds: Type.Array(
      Type.Object(
        {
          id: PayloadId,
          charge_id: PayloadId,
          date: PayloadDate,
          amount: PayloadAmount,
          status: Type.Enum(['pending', 'succeeded', 'failed']),
          reason: Type.Optional(PayloadText(500)),
        },
        { additionalProperties: false },
      ),
      { maxItems: payloadItemsMax },
    ),
    fees: Type.Array(
      Type.Object(
        {
          id: PayloadId,
          date: PayloadDate,
          amount: PayloadAmount,
          description: PayloadText(500),
          /** The charge the fee was taken on, when it is a per-charge fee. */
          charge_id: Type.Optional(PayloadId),
        },
        { additionalProperties: false },
      ),
      { maxItems: payloadItemsMax },
    ),
    payouts: Type.Array(
      Type.Object(
        {
          id: PayloadId,
          /** When the payout was initiated. */
          date: PayloadDate,
          /** When the money is (expected to be) in the bank account. */
          arrival_date: Type.Optional(PayloadDate),
          amount: PayloadAmount,
          status: Type.Enum(['pending', 'in_transit', 'paid', 'failed']),
          /** What the bank statement will show, when the processor sets it. */
          description: Type.Optional(PayloadText(500)),
          destination: Type.Object(
            {
              name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
              iban: Type.Optional(Type.String({ pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' })),
              account_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            },
            { additionalProperties: false, minProperties: 1 },
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: payloadItemsMax },
    ),
    balances: Type.Array(
      Type.Object(
        { type: Type.Enum(['available', 'current']), as_of: PayloadDate, amount: PayloadSignedAmount },
        { additionalProperties: false },
      ),
      { maxItems: payloadItemsMax },
    ),
  },
  { additionalProperties: false },
)

const validator = envelopeValidator(cardProcessorSchemaName, CardProcessorPayload)

const chargeStatuses = { pending: 'pending', succeeded: 'posted', failed: 'failed' } as const
const payoutStatuses = { pending: 'pending', in_transit: 'pending', paid: 'posted', failed: 'failed' } as const

export const cardProcessorParser: Parser = {
  name: 'card_processor_payload',
  version: '1.0.0',
  accepts: acceptsJsonOf('card_processor'),
  async *parse(input: ParserInput): AsyncIterable<ParserOutput> {
    const payload = validator.check(await readEnvelope(input, cardProcessorSchemaName))
    // One id space: every item becomes a transaction keyed by its id on the one processor account.
    // (A refund's or fee's charge_id may name a charge sent in an earlier payload, so it is not checked.)
    const seen = new Map<string, string>()
    for (const [list, items] of Object.entries({ charges: payload.charges, refunds: payload.refunds, fees: payload.fees, payouts: payload.payouts })) {
      for (const [index, item] of items.entries()) {
        const path = `/${list}/${index}/id`
        const first = seen.get(item.id)
        if (first !== undefined) throw new ParseError(`${path}: duplicate id ${JSON.stringify(item.id)} (also at ${first})`)
        seen.set(item.id, path)
      }
    }
    const currency = payload.account.currency
    const accountRef: AccountRef = { external_account_id: payload.account.id, currency }
    if (payload.account.name !== undefined) accountRef.name = payload.account.name
    const accountRecord: AccountRecord = { kind: 'account', account: accountRef, account_type: 'payment_processor' }
    if (payload.provider.name !== undefined) accountRecord.institution = payload.provider.name
    yield recordOutput(accountRecord, 1)

    const transaction = (fields: Omit<TransactionRecord, 'kind' | 'account' | 'currency'>): TransactionRecord => ({
      kind: 'transaction',
      account: accountRef,
      currency,
      ...fields,
    })

    for (const [index, charge] of payload.charges.entries()) {
      const record = transaction({
        external_transaction_id: charge.id,
        amount: canonicalDecimal(charge.amount),
        transaction_date: requireCalendarDate(charge.date, `/charges/${index}/date`),
        status: chargeStatuses[charge.status],
        description: charge.description ?? '',
        details: { kind: 'charge', ...(charge.card === undefined ? {} : { card_brand: charge.card.brand, card_last4: charge.card.last4 }) },
      })
      if (charge.customer !== undefined) record.counterparty = { ...charge.customer } satisfies CounterpartyRef
      yield recordOutput(record, 1)
    }
    for (const [index, refund] of payload.refunds.entries()) {
      const record = transaction({
        external_transaction_id: refund.id,
        amount: decimalNegate(canonicalDecimal(refund.amount)),
        transaction_date: requireCalendarDate(refund.date, `/refunds/${index}/date`),
        status: chargeStatuses[refund.status],
        description: refund.reason ?? '',
        details: { kind: 'refund', charge_id: refund.charge_id },
      })
      yield recordOutput(record, 1)
    }
    for (const [index, fee] of payload.fees.entries()) {
      yield recordOutput(
        transaction({
          external_transaction_id: fee.id,
          amount: decimalNegate(canonicalDecimal(fee.amount)),
          transaction_date: requireCalendarDate(fee.date, `/fees/${index}/date`),
          status: 'posted',
          description: fee.description,
          details: { kind: 'fee', ...(fee.charge_id === undefined ? {} : { charge_id: fee.charge_id }) },
        }),
        1,
      )
    }
    for (const [index, payout] of payload.payouts.entries()) {
      const path = `/payouts/${index}`
      const record = transaction({
        external_transaction_id: payout.id,
        amount: decimalNegate(canonicalDecimal(payout.amount)),
        transaction_date: requireCalendarDate(payout.date, `${path}/date`),
        status: payoutStatuses[payout.status],
        description: payout.description ?? '',
        counterparty: { ...payout.destination },
        details: { kind: 'payout', payout_status: payout.status },
      })
      if (payout.arrival_date !== undefined) {
        requireCalendarDate(payout.arrival_date, `${path}/arrival_date`)
        if (payout.arrival_date < payout.date) throw new ParseError(`${path}/arrival_date: before the payout date`)
        if (payout.status === 'paid') record.posted_date = payout.arrival_date
        else record.details = { ...record.details, expected_arrival_date: payout.arrival_date }
      }
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
          currency,
        },
        1,
      )
    }
  },
}
