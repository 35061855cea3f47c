/**
 * The contract between parsers and the Ledger: what a parsed row's `extracted` object holds. Every
 * parser, whatever the format, emits records of these kinds; normalization reads only these. Amounts
 * are decimal strings (never floats), dates are ISO `YYYY-MM-DD`, currencies ISO 4217 or a token
 * symbol (USDC). Pure: types and TypeBox schemas only.
 *
 * It lives in the kernel because two modules meet on it and neither owns the other: Raw's parsers emit
 * these records and the Ledger's domain rules read them, and a domain imports only the kernel.
 */
import Type, { type Static } from 'typebox'

const Decimal = Type.String({ pattern: '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$', description: 'A decimal amount; negative for money out where signed.' })
const UnsignedDecimal = Type.String({ pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$' })
const IsoDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' })
const Currency = Type.String({ pattern: '^([A-Z]{3}|[A-Z0-9]{2,10})$', description: 'ISO 4217, or a token symbol such as USDC.' })
const Optional = Type.Optional

/**
 * How a record names the account it belongs to. Parsers fill what the source says; at least one of
 * `external_account_id`, `iban`, `account_number`, `name` or `wallet_address` (with `chain_id`) is
 * present. Normalization resolves it to one Ledger account per tenant.
 */
export const AccountRef = Type.Object(
  {
    external_account_id: Optional(Type.String({ minLength: 1 })),
    iban: Optional(Type.String({ minLength: 5 })),
    account_number: Optional(Type.String({ minLength: 1 })),
    /** Bank routing / BIC / sort code, when the source gives one. */
    institution_id: Optional(Type.String()),
    name: Optional(Type.String()),
    currency: Optional(Currency),
    /** On-chain accounts: the wallet address and chain id. */
    wallet_address: Optional(Type.String()),
    chain_id: Optional(Type.Integer()),
  },
  { additionalProperties: false },
)
export type AccountRef = Static<typeof AccountRef>

export const CounterpartyRef = Type.Object(
  {
    name: Optional(Type.String({ minLength: 1 })),
    iban: Optional(Type.String()),
    account_number: Optional(Type.String()),
    wallet_address: Optional(Type.String()),
    tax_id: Optional(Type.String()),
    email: Optional(Type.String()),
  },
  { additionalProperties: false },
)
export type CounterpartyRef = Static<typeof CounterpartyRef>

export const AccountRecord = Type.Object(
  {
    kind: Type.Literal('account'),
    account: AccountRef,
    account_type: Optional(Type.Enum(['bank_checking', 'bank_savings', 'card', 'loan', 'line_of_credit', 'onchain', 'payment_processor'])),
    institution: Optional(Type.String()),
    status: Optional(Type.Enum(['active', 'closed', 'frozen', 'pending'])),
  },
  { additionalProperties: false },
)

export const TransactionRecord = Type.Object(
  {
    kind: Type.Literal('transaction'),
    account: AccountRef,
    /**
     * The id the bank or provider gives the transaction (FITID, AcctSvcrRef, provider id…), if any:
     * unique per account, never a per-statement entry number. Normalization still refuses to merge two
     * records with one id but another amount or a date more than 10 days apart.
     */
    external_transaction_id: Optional(Type.String({ minLength: 1 })),
    /** For a posted transaction, the id of the pending one it replaces, when the source links them. */
    pending_transaction_id: Optional(Type.String()),
    /** Signed: negative is money out of the account. */
    amount: Decimal,
    currency: Currency,
    /** When it happened (booking / transaction date). */
    transaction_date: IsoDate,
    /** When it settled (value / posting date), if different or known. */
    posted_date: Optional(IsoDate),
    /** `reversed`: this transaction was undone. A booking that undoes another is `posted` (it moves the balance), with details.reversal. */
    status: Type.Enum(['pending', 'posted', 'cleared', 'failed', 'reversed', 'disputed']),
    description: Type.String(),
    counterparty: Optional(CounterpartyRef),
    category: Optional(Type.String()),
    /** Card and processor details, wallet details: kept as they came. */
    details: Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
)

/**
 * A stated balance. `opening` is the balance at the START of `as_of` (before that day's bookings: a
 * statement's first day); `closing`, `current` and `available` are at the END of `as_of`. Parsers map
 * their format's convention to this one (MT940 dates :60F: on the previous closing day).
 */
export const BalanceRecord = Type.Object(
  {
    kind: Type.Literal('balance'),
    account: AccountRef,
    balance_type: Type.Enum(['opening', 'closing', 'available', 'current']),
    as_of: IsoDate,
    amount: Decimal,
    currency: Currency,
  },
  { additionalProperties: false },
)

export const InvoiceRecord = Type.Object(
  {
    kind: Type.Literal('invoice'),
    /** payable: a bill we owe (vendor invoice); receivable: an invoice we issued (AR). */
    direction: Type.Enum(['payable', 'receivable']),
    invoice_number: Type.String({ minLength: 1 }),
    issue_date: Optional(IsoDate),
    due_date: Optional(IsoDate),
    currency: Currency,
    total: UnsignedDecimal,
    subtotal: Optional(UnsignedDecimal),
    tax: Optional(UnsignedDecimal),
    amount_paid: Optional(UnsignedDecimal),
    status: Optional(Type.Enum(['draft', 'sent', 'partial', 'paid', 'overdue', 'cancelled', 'disputed'])),
    /** The other party: the vendor of a payable, the customer of a receivable. */
    counterparty: CounterpartyRef,
    line_items: Optional(
      Type.Array(Type.Object({ description: Type.String(), quantity: Optional(Type.String()), amount: Optional(Decimal) }, { additionalProperties: false })),
    ),
  },
  { additionalProperties: false },
)

export const ObligationRecord = Type.Object(
  {
    kind: Type.Literal('obligation'),
    obligation_type: Type.Enum(['bill', 'invoice', 'subscription', 'loan', 'rent', 'payroll', 'tax', 'card_statement', 'other']),
    direction: Type.Union([Type.Enum(['payable', 'receivable']), Type.Null()]),
    /** A stable reference from the source (contract number, subscription id, statement id…). */
    reference: Type.String({ minLength: 1 }),
    description: Optional(Type.String()),
    amount: UnsignedDecimal,
    currency: Currency,
    due_date: Optional(IsoDate),
    /** For recurring obligations: how often. */
    recurrence: Optional(Type.Enum(['weekly', 'monthly', 'quarterly', 'yearly'])),
    counterparty: Optional(CounterpartyRef),
    invoice_number: Optional(Type.String()),
  },
  { additionalProperties: false },
)

/** An on-chain token transfer seen by the chain indexer, from the point of view of a tenant's wallet. */
export const WalletTransferRecord = Type.Object(
  {
    kind: Type.Literal('wallet_transfer'),
    account: AccountRef,
    chain_id: Type.Integer(),
    tx_hash: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' }),
    log_index: Type.Integer({ minimum: 0 }),
    block_number: Type.Integer({ minimum: 0 }),
    timestamp: Type.String({ description: 'ISO 8601' }),
    from: Type.String(),
    to: Type.String(),
    token: Type.String({ description: 'Symbol, e.g. USDC.' }),
    token_address: Optional(Type.String()),
    /** Signed from the wallet's point of view: negative is money out. */
    amount: Decimal,
  },
  { additionalProperties: false },
)

export const ExtractedRecord = Type.Union([AccountRecord, TransactionRecord, BalanceRecord, InvoiceRecord, ObligationRecord, WalletTransferRecord])
export type ExtractedRecord = Static<typeof ExtractedRecord>
export type TransactionRecord = Static<typeof TransactionRecord>
export type BalanceRecord = Static<typeof BalanceRecord>
export type InvoiceRecord = Static<typeof InvoiceRecord>
export type ObligationRecord = Static<typeof ObligationRecord>
export type WalletTransferRecord = Static<typeof WalletTransferRecord>
export type AccountRecord = Static<typeof AccountRecord>
