/**
 * `erp_provider_payload` and `accounting_provider_payload`: the bodies of ERP and accounting-system
 * webhooks, envelopes `steward.erp_provider.v1` and `steward.accounting_provider.v1`
 * (docs/provider-payloads.md). Both carry the same shape: customers and vendors, the invoices the
 * tenant issued (receivable) and the bills it received (payable), and, optionally, the vendor
 * subscriptions it pays (recurring charges that no invoice announces).
 *
 * Yields one `invoice` record per invoice and per bill, its counterparty taken from the customer or
 * vendor it names, then one `obligation` record (type `subscription`, payable, recurring) per
 * subscription. Invoices and bills get no obligation record: normalization derives their obligations,
 * as it does for PDF invoices. A subscription's reference is `<provider id>:<subscription id>` (as the
 * payroll parser builds its references), so two providers' ids never collide in the obligation key
 * `<type>:<reference>`. Customers and vendors that no document or subscription names yield nothing (the
 * extracted-record contract has no counterparty record). Confidence 1.
 *
 * Version 1.1.0 added subscriptions; a payload without the `subscriptions` list reads as it did in 1.0.0.
 */
import Type, { type Static } from 'typebox'
import { canonicalDecimal, decimalCompare } from '../../../../kernel/money.ts'
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
  readEnvelope,
  requireCalendarDate,
  requireUniqueIds,
} from './json-payload.ts'
import { recordOutput } from './output.ts'
import type { CounterpartyRef, InvoiceRecord, ObligationRecord } from '../../domain/extracted.ts'
import { ParseError, type Parser, type ParserInput, type ParserOutput } from '../parser.ts'

export const erpProviderSchemaName = 'steward.erp_provider.v1'
export const accountingProviderSchemaName = 'steward.accounting_provider.v1'

const Contact = Type.Object(
  {
    id: PayloadId,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Type.Optional(Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$', maxLength: 320 })),
    tax_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    /** Where a vendor is paid. Read for vendors only: a customer's bank details do not belong on our invoice's record. */
    iban: Type.Optional(Type.String({ pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' })),
    account_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
)

const documentFields = {
  id: PayloadId,
  /** The number printed on the document. */
  number: Type.String({ minLength: 1, maxLength: 100 }),
  issue_date: PayloadDate,
  due_date: Type.Optional(PayloadDate),
  currency: PayloadCurrency,
  subtotal: Type.Optional(PayloadAmount),
  tax: Type.Optional(PayloadAmount),
  total: PayloadAmount,
  amount_paid: Type.Optional(PayloadAmount),
  status: Type.Enum(['draft', 'sent', 'partial', 'paid', 'overdue', 'cancelled', 'disputed']),
  line_items: Type.Optional(
    Type.Array(
      Type.Object(
        {
          description: Type.String({ minLength: 1, maxLength: 1000 }),
          quantity: Type.Optional(Type.String({ pattern: '^(0|[1-9][0-9]{0,14})(\\.[0-9]{1,6})?$' })),
          amount: Type.Optional(PayloadSignedAmount),
        },
        { additionalProperties: false },
      ),
      { maxItems: 1000 },
    ),
  ),
}

/** A recurring charge the tenant pays a vendor (a software plan, a lease): a recurring payable obligation. */
const Subscription = Type.Object(
  {
    id: PayloadId,
    /** The vendor charging it: a contact of `vendors`, as a bill's is. */
    vendor_id: PayloadId,
    description: Type.String({ minLength: 1, maxLength: 1000 }),
    /** What each charge costs, unsigned. */
    amount: PayloadAmount,
    currency: PayloadCurrency,
    interval: Type.Enum(['weekly', 'monthly', 'quarterly', 'yearly']),
    /** When the next charge falls due. */
    next_due_date: PayloadDate,
  },
  { additionalProperties: false },
)

function accountingPayload<Name extends string>(schemaName: Name) {
  return Type.Object(
    {
      schema: Type.Literal(schemaName),
      provider: PayloadProvider,
      customers: Type.Array(Contact, { maxItems: payloadItemsMax }),
      vendors: Type.Array(Contact, { maxItems: payloadItemsMax }),
      /** Receivable: issued by the tenant to a customer. */
      invoices: Type.Array(Type.Object({ ...documentFields, customer_id: PayloadId }, { additionalProperties: false }), { maxItems: payloadItemsMax }),
      /** Payable: received by the tenant from a vendor. */
      bills: Type.Array(Type.Object({ ...documentFields, vendor_id: PayloadId }, { additionalProperties: false }), { maxItems: payloadItemsMax }),
      /** Optional (absent: none), so payloads written before subscriptions existed stay valid. */
      subscriptions: Type.Optional(Type.Array(Subscription, { maxItems: payloadItemsMax })),
    },
    { additionalProperties: false },
  )
}

export const ErpProviderPayload = accountingPayload(erpProviderSchemaName)
export const AccountingProviderPayload = accountingPayload(accountingProviderSchemaName)

type Contact = Static<typeof Contact>
type Subscription = Static<typeof Subscription>
type AccountingDocument = Static<typeof ErpProviderPayload>['invoices'][number] | Static<typeof ErpProviderPayload>['bills'][number]

function counterpartyOf(contact: Contact, direction: InvoiceRecord['direction']): CounterpartyRef {
  const ref: CounterpartyRef = { name: contact.name }
  if (contact.email !== undefined) ref.email = contact.email
  if (contact.tax_id !== undefined) ref.tax_id = contact.tax_id
  // The vendor's bank details are where a bill is paid; a customer's are not on our invoice.
  if (direction === 'payable' && contact.iban !== undefined) ref.iban = contact.iban
  if (direction === 'payable' && contact.account_number !== undefined) ref.account_number = contact.account_number
  return ref
}

function invoiceRecord(document: AccountingDocument, path: string, direction: InvoiceRecord['direction'], contact: Contact): InvoiceRecord {
  requireCalendarDate(document.issue_date, `${path}/issue_date`)
  if (document.due_date !== undefined) {
    requireCalendarDate(document.due_date, `${path}/due_date`)
    if (document.due_date < document.issue_date) throw new ParseError(`${path}/due_date: before the issue date`)
  }
  if (document.amount_paid !== undefined && decimalCompare(document.amount_paid, document.total) > 0) {
    throw new ParseError(`${path}/amount_paid: more than the total`)
  }
  const record: InvoiceRecord = {
    kind: 'invoice',
    direction,
    invoice_number: document.number,
    issue_date: document.issue_date,
    currency: document.currency,
    total: canonicalDecimal(document.total),
    status: document.status,
    counterparty: counterpartyOf(contact, direction),
  }
  if (document.due_date !== undefined) record.due_date = document.due_date
  if (document.subtotal !== undefined) record.subtotal = canonicalDecimal(document.subtotal)
  if (document.tax !== undefined) record.tax = canonicalDecimal(document.tax)
  if (document.amount_paid !== undefined) record.amount_paid = canonicalDecimal(document.amount_paid)
  if (document.line_items !== undefined) {
    record.line_items = document.line_items.map((item) => {
      const line: NonNullable<InvoiceRecord['line_items']>[number] = { description: item.description }
      if (item.quantity !== undefined) line.quantity = item.quantity
      if (item.amount !== undefined) line.amount = canonicalDecimal(item.amount)
      return line
    })
  }
  return record
}

function subscriptionObligation(subscription: Subscription, path: string, providerId: string, vendor: Contact): ObligationRecord {
  return {
    kind: 'obligation',
    obligation_type: 'subscription',
    direction: 'payable',
    reference: `${providerId}:${subscription.id}`,
    description: subscription.description,
    amount: canonicalDecimal(subscription.amount),
    currency: subscription.currency,
    due_date: requireCalendarDate(subscription.next_due_date, `${path}/next_due_date`),
    recurrence: subscription.interval,
    counterparty: counterpartyOf(vendor, 'payable'),
  }
}

function contactsById(contacts: readonly Contact[], path: string): Map<string, Contact> {
  requireUniqueIds(contacts, path)
  return new Map(contacts.map((contact) => [contact.id, contact]))
}

function accountingParser(name: string, sourceType: string, schemaName: string, schema: typeof ErpProviderPayload | typeof AccountingProviderPayload): Parser {
  const validator = envelopeValidator(schemaName, schema)
  return {
    name,
    version: '1.1.0',
    accepts: acceptsJsonOf(sourceType),
    async *parse(input: ParserInput): AsyncIterable<ParserOutput> {
      const payload = validator.check(await readEnvelope(input, schemaName))
      const customers = contactsById(payload.customers, '/customers')
      const vendors = contactsById(payload.vendors, '/vendors')
      requireUniqueIds(payload.invoices, '/invoices')
      requireUniqueIds(payload.bills, '/bills')
      const subscriptions = payload.subscriptions ?? []
      requireUniqueIds(subscriptions, '/subscriptions')
      for (const [index, invoice] of payload.invoices.entries()) {
        const customer = customers.get(invoice.customer_id)
        if (customer === undefined) throw new ParseError(`/invoices/${index}/customer_id: no customer ${JSON.stringify(invoice.customer_id)} in the payload`)
        yield recordOutput(invoiceRecord(invoice, `/invoices/${index}`, 'receivable', customer), 1)
      }
      for (const [index, bill] of payload.bills.entries()) {
        const vendor = vendors.get(bill.vendor_id)
        if (vendor === undefined) throw new ParseError(`/bills/${index}/vendor_id: no vendor ${JSON.stringify(bill.vendor_id)} in the payload`)
        yield recordOutput(invoiceRecord(bill, `/bills/${index}`, 'payable', vendor), 1)
      }
      for (const [index, subscription] of subscriptions.entries()) {
        const vendor = vendors.get(subscription.vendor_id)
        if (vendor === undefined) throw new ParseError(`/subscriptions/${index}/vendor_id: no vendor ${JSON.stringify(subscription.vendor_id)} in the payload`)
        yield recordOutput(subscriptionObligation(subscription, `/subscriptions/${index}`, payload.provider.id, vendor), 1)
      }
    },
  }
}

export const erpProviderParser = accountingParser('erp_provider_payload', 'erp_provider', erpProviderSchemaName, ErpProviderPayload)
export const accountingProviderParser = accountingParser('accounting_provider_payload', 'accounting_provider', accountingProviderSchemaName, AccountingProviderPayload)
