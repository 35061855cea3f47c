/** Wire schemas of the Ledger routes. Enumerations come from the table definitions, so they cannot drift. */
import Type from 'typebox'
import { ledgerAccounts, ledgerBalances, ledgerCounterparties, ledgerInvoices, ledgerJobs, ledgerObligations, ledgerTransactions, reconciliationMatchTypes, reconciliationStatuses } from './ledger.tables.ts'
import { Amount, Day, DayOrTimestamp, named, NextCursor, Nullable, pageQuery, PathId, Strict, Timestamp } from '../../platform/http/schemas.ts'
import { prefixedIdPattern, type IdKind } from '../../kernel/ids.ts'
import { ledgerKinds } from './ledger.store.ts'
import { accountPageRows, entityPageRows, transactionPageRows } from './ledger.service.ts'

const literals = Type.Enum
const CalendarDate = Day()
const DateAsWritten = DayOrTimestamp('A date (YYYY-MM-DD) or an ISO 8601 timestamp; only its calendar date, as written, is used.')
const id = (kind: IdKind, description?: string) => Type.String({ pattern: prefixedIdPattern(kind), ...(description === undefined ? {} : { description }) })

const AsOf = Type.Optional(
  Type.String({ format: 'date-time', description: 'System time: the Ledger as it was recorded at this instant (bitemporal read). Omitted: now.' }),
)

/** The fields every Ledger record carries (spec, "Ledger records"), and its version. */
const provenanceFields = {
  version_id: Type.String({ description: 'This version of the record.' }),
  version: Type.Integer({ minimum: 1 }),
  supersedes: Nullable(Type.String({ description: 'The version this one corrects or replaces.' })),
  source_ids: Type.Array(Type.String(), { description: 'The Raw artifacts (raw_…) this record came from.' }),
  evidence_ids: Type.Array(Type.String(), { description: 'The parsed rows (rpr_…) this record came from.' }),
  provenance: literals(ledgerTransactions.provenance.enumValues),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  metadata: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Source details; `scenario` is `ar` on receivable invoices and obligations and `ap` on payable ones.',
  }),
  created_at: Type.String({ format: 'date-time', description: 'When the entity was first recorded (system time).' }),
  updated_at: Type.String({ format: 'date-time', description: 'When this version was recorded (system time).' }),
  superseded_at: Nullable(Type.String({ format: 'date-time', description: 'When the next version was recorded; null for the current version.' })),
}

export const Transaction = named('Transaction', Strict({
  id: Type.String(),
  account_id: Type.String(),
  external_transaction_id: Nullable(Type.String()),
  amount: Amount,
  currency: Type.String(),
  direction: literals(ledgerTransactions.direction.enumValues, {
    description:
      'transfer when a source names another of your accounts as the counterparty (its IBAN, or its wallet on the same chain), otherwise inflow, outflow or adjustment by the sign. ' +
      'A transaction recorded before that account existed becomes a transfer (a new version) at the next reconciliation, so the result does not depend on the order files arrive in.',
  }),
  transaction_date: CalendarDate,
  posted_date: Nullable(CalendarDate),
  counterparty_id: Nullable(Type.String()),
  category_id: Nullable(Type.String({ description: 'A slug of the source\'s category label (`Software & SaaS` → `software_saas`).' })),
  status: literals(ledgerTransactions.status.enumValues),
  description: Type.String({ description: 'As the source wrote it.' }),
  description_normalized: Type.String(),
  reconciliation_status: literals(reconciliationStatuses),
  ...provenanceFields,
}))

export const Balance = named('Balance', Strict({
  id: Type.String(),
  account_id: Type.String(),
  balance_type: literals(ledgerBalances.balanceType.enumValues),
  as_of: CalendarDate,
  amount: Amount,
  currency: Type.String(),
  ...provenanceFields,
}))

const AccountObject = Strict({
  id: Type.String(),
  account_type: literals(ledgerAccounts.accountType.enumValues),
  status: literals(ledgerAccounts.status.enumValues),
  name: Type.String(),
  institution: Nullable(Type.String()),
  currency: Type.String(),
  external_account_id: Nullable(Type.String()),
  iban: Nullable(Type.String()),
  account_number_masked: Nullable(Type.String({ description: 'The last four digits only.' })),
  wallet_address: Nullable(Type.String()),
  chain_id: Nullable(Type.Integer()),
  ...provenanceFields,
})

export const Account = named('Account', AccountObject)

export const AccountWithBalance = named(
  'AccountWithBalance',
  Strict({
    ...AccountObject.properties,
    latest_balance: Nullable(Balance),
  }),
)

export const Counterparty = named('Counterparty', Strict({
  id: Type.String(),
  name: Type.String(),
  type: literals(ledgerCounterparties.type.enumValues),
  verified_status: literals(ledgerCounterparties.verifiedStatus.enumValues),
  risk_level: literals(ledgerCounterparties.riskLevel.enumValues, { description: 'medium until screened or reviewed.' }),
  trust_state: literals(ledgerCounterparties.trustState.enumValues, { description: 'Advisory only; execution enforcement uses verified_status, screening and policy.' }),
  aliases: Type.Array(Type.String()),
  linked_accounts: Type.Array(Type.String(), { description: 'iban:…, wallet:…, account:… identifiers seen for this counterparty.' }),
  ...provenanceFields,
}))

export const Invoice = named('Invoice', Strict({
  id: Type.String(),
  direction: literals(ledgerInvoices.direction.enumValues, { description: 'receivable: issued by you (AR); payable: a bill you owe.' }),
  invoice_number: Type.String(),
  issue_date: Nullable(CalendarDate),
  due_date: Nullable(CalendarDate),
  currency: Type.String(),
  total: Amount,
  subtotal: Nullable(Amount),
  tax: Nullable(Amount),
  amount_paid: Amount,
  amount_due: Amount,
  status: literals(ledgerInvoices.status.enumValues),
  counterparty_id: Nullable(Type.String()),
  ...provenanceFields,
}))

export const Obligation = named('Obligation', Strict({
  id: Type.String(),
  type: literals(ledgerObligations.obligationType.enumValues),
  direction: Nullable(literals(ledgerObligations.direction.enumValues)),
  reference: Type.String(),
  description: Nullable(Type.String()),
  amount: Amount,
  currency: Type.String(),
  due_date: Nullable(CalendarDate),
  recurrence: Nullable(literals(ledgerObligations.recurrence.enumValues)),
  status: literals(ledgerObligations.status.enumValues),
  counterparty_id: Nullable(Type.String()),
  invoice_id: Nullable(Type.String()),
  ...provenanceFields,
}))

export const ReconciliationMatch = named('ReconciliationMatch', Strict({
  id: Type.String(),
  match_type: literals(reconciliationMatchTypes),
  status: literals(reconciliationStatuses),
  subject_refs: Type.Array(Type.String(), { description: 'What was matched: transaction:txn_…, invoice:inv_…, obligation:obl_…, balance:bal_…, account:acc_…' }),
  amount: Nullable(Amount),
  currency: Nullable(Type.String()),
  difference: Nullable(Amount),
  explanation: Type.String(),
  ...provenanceFields,
}))

export const LedgerJob = named('LedgerJob', Strict({
  job_id: Type.String(),
  kind: literals(ledgerJobs.kind.enumValues),
  status: literals(ledgerJobs.status.enumValues),
  input: Type.Record(Type.String(), Type.Unknown()),
  result: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'Once finished: counts per kind (created, updated, unchanged); a reconciliation also has `matches` (found, by type and status) and `retired` (statement balance checks whose period no longer exists).' })),
  error: Nullable(Type.String()),
  created_by: Type.String(),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
}))

const Count = (description: string) => Type.Integer({ minimum: 0, description })

export const ReconcileJob = Strict({
  job_id: Type.String(),
  status: literals(ledgerJobs.status.enumValues, { description: 'queued → running → succeeded | failed (a failure before the last retry goes back to queued).' }),
  created_by: Type.String({ description: 'Who asked for the run: a member or key id, or ledger-normalize for the run after a normalization.' }),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
  error: Nullable(Type.String({ description: 'Why the last attempt failed.' })),
  outcome: Nullable(
    Strict(
      {
        matches: Count('Reconciliation matches this run found; what earlier runs matched is settled and not found again.'),
        matches_by_type: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { description: 'The same, by `match_type:status` (for example `invoice_payment:matched`).' }),
        retired: Count('Statement balance checks retired because their period no longer exists.'),
        created: Count('Entities the run recorded for the first time (matches).'),
        unchanged: Count('Entities whose content the run left as it was.'),
        superseded: Count('Entities the run gave a new version (a transaction\'s reconciliation status, an invoice\'s amount paid), superseding the current one.'),
      },
      { description: 'Once the run succeeded; null before, and for a failed run.' },
    ),
  ),
})

/** Any string: an id that names no reconciliation job of the caller's tenant is 404, whatever its shape. */
export const ReconcileJobParams = Strict({ job_id: Type.String({ minLength: 1, maxLength: 255 }) })

export const EntityOutcome = Strict({
  kind: literals(ledgerKinds),
  id: Type.String(),
  version_id: Type.String(),
  version: Type.Integer({ minimum: 1 }),
  outcome: literals(['created', 'updated', 'unchanged'] as const, { description: 'unchanged: normalizing this row again wrote nothing.' }),
})

export const NormalizeBody = Strict({
  raw_parsed_id: id('parsedRow', 'A parsed row id (rpr_…), from GET /v1/raw/{raw_id}/parsed.'),
  target_entities: Type.Optional(Type.Unknown({ description: 'Accepted and ignored (spec).' })),
})

export const NormalizeResponse = Strict({
  raw_parsed_id: Type.String(),
  raw_artifact_id: Type.String(),
  parser: Type.String(),
  parser_version: Type.String(),
  entities: Type.Array(EntityOutcome, { description: 'Every Ledger entity the row resolved to, with the version that now records it.' }),
})

export const ReconcileBody = Strict({}, { description: 'No options: a run reconciles the tenant\'s whole current Ledger. The body may be omitted.' })

export const TransactionList = Strict({ transactions: Type.Array(Transaction), next_cursor: NextCursor })
export const AccountList = Strict({ accounts: Type.Array(Account), next_cursor: NextCursor })
export const BalanceList = Strict({
  as_of: Nullable(CalendarDate),
  balances: Type.Array(Balance, { description: 'One per account: its latest balance dated on or before as_of (closing preferred over current, available, opening).' }),
})
export const CounterpartyList = Strict({ counterparties: Type.Array(Counterparty), next_cursor: NextCursor })
export const InvoiceList = Strict({
  direction: literals(ledgerInvoices.direction.enumValues),
  invoices: Type.Array(Invoice),
  next_cursor: NextCursor,
})
export const ObligationList = Strict({ obligations: Type.Array(Obligation), next_cursor: NextCursor })
export const MatchList = Strict({ matches: Type.Array(ReconciliationMatch), next_cursor: NextCursor })

export const TransactionQuery = Strict({
  account_id: Type.Optional(Type.String({ minLength: 1 })),
  counterparty_id: Type.Optional(Type.String({ minLength: 1 })),
  direction: Type.Optional(literals(ledgerTransactions.direction.enumValues)),
  status: Type.Optional(literals(ledgerTransactions.status.enumValues)),
  since: Type.Optional(DateAsWritten),
  until: Type.Optional(DateAsWritten),
  ...pageQuery(transactionPageRows),
  as_of: AsOf,
})
export const AsOfQuery = Strict({ as_of: AsOf })
export const AccountQuery = Strict({
  status: Type.Optional(literals(ledgerAccounts.status.enumValues)),
  account_type: Type.Optional(literals(ledgerAccounts.accountType.enumValues)),
  ...pageQuery(accountPageRows),
  as_of: AsOf,
})
export const BalanceQuery = Strict({
  as_of: Type.Optional(DateAsWritten),
  account_id: Type.Optional(Type.String({ minLength: 1 })),
  known_at: Type.Optional(
    Type.String({ format: 'date-time', description: 'System time: balances as recorded at this instant (statements imported later are not seen). Omitted: now.' }),
  ),
})
export const CounterpartyQuery = Strict({
  type: Type.Optional(literals(ledgerCounterparties.type.enumValues)),
  trust_state: Type.Optional(literals(ledgerCounterparties.trustState.enumValues)),
  verified_status: Type.Optional(literals(ledgerCounterparties.verifiedStatus.enumValues)),
  risk_level: Type.Optional(literals(ledgerCounterparties.riskLevel.enumValues)),
  ...pageQuery(entityPageRows),
  as_of: AsOf,
})
export const InvoiceQuery = Strict({
  direction: Type.Optional(literals(ledgerInvoices.direction.enumValues, { description: 'Default receivable: the receivables inventory.' })),
  status: Type.Optional(literals(ledgerInvoices.status.enumValues)),
  counterparty_id: Type.Optional(Type.String({ minLength: 1 })),
  ...pageQuery(entityPageRows),
  as_of: AsOf,
})
export const ObligationQuery = Strict({
  scenario: Type.Optional(literals(['ap', 'ar'] as const, { description: 'ar selects receivable obligations, ap payable ones (unless direction is given).' })),
  direction: Type.Optional(literals(ledgerObligations.direction.enumValues)),
  type: Type.Optional(literals(ledgerObligations.obligationType.enumValues)),
  status: Type.Optional(literals(ledgerObligations.status.enumValues)),
  counterparty_id: Type.Optional(Type.String({ minLength: 1 })),
  ...pageQuery(entityPageRows),
  as_of: AsOf,
})
export const MatchQuery = Strict({
  match_type: Type.Optional(literals(reconciliationMatchTypes)),
  status: Type.Optional(literals(reconciliationStatuses)),
  subject: Type.Optional(
    Type.String({ pattern: '^(transaction|invoice|obligation|balance|account):[A-Za-z0-9_]+$', description: 'Only matches involving this record, e.g. transaction:txn_….' }),
  ),
  ...pageQuery(entityPageRows),
  as_of: AsOf,
})

export const TransactionParams = Strict({ transaction_id: PathId('ledger_transaction_not_found', 'transaction', 'The transaction id') })
export const AccountParams = Strict({ account_id: PathId('ledger_account_not_found', 'account', 'The account id') })
export const CounterpartyParams = Strict({ counterparty_id: PathId('ledger_counterparty_not_found', 'counterparty', 'The counterparty id') })
export const InvoiceParams = Strict({ invoice_id: PathId('ledger_invoice_not_found', 'invoice', 'The invoice id') })
export const ObligationParams = Strict({ obligation_id: PathId('obligation_not_found', 'obligation', 'The obligation id') })
export const JobParams = Strict({ job_id: PathId('ledger_job_not_found', 'ledgerJob', 'The job id') })
export const TrustBody = Strict(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Why; kept on the counterparty version, digested in the audit event.' })) },
  { description: 'The body may be omitted.' },
)

