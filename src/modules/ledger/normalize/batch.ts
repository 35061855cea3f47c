/**
 * Normalization of one batch of parsed rows into Ledger versions, inside the caller's transaction
 * (docs/raw-and-ledger.md). The batch resolves every record to its entities with a handful of set-wise
 * queries (keys, current versions, dedupe candidates), applies the records in order to drafts of those
 * entities, then writes only the drafts whose content changed, as new versions, with their keys, one
 * audit event and the business events. Running the same batch again changes nothing.
 *
 * Phases: (1) accounts and counterparties, which depend on nothing; (2) transactions, whose keys name
 * their account; (3) balances, invoices and obligations, whose ids follow from their keys; (4) apply;
 * (5) write.
 */
import type { AuditActor } from '../../../kernel/audit-record.ts'
import type { AuditRecorder } from '../../../platform/commands/audit-sink.ts'
import type { Executor, Tx } from '../../../platform/db/database.ts'
import { decimalCompare, decimalSign, decimalSubtract } from '../../../kernel/decimal.ts'
import { deterministicId } from '../../../kernel/ids.ts'
import type { EventRecorder } from '../../../platform/outbox/events.ts'
import { ledgerEventsOf } from '../ledger.events.ts'
import type {
  AccountRef,
  BalanceRecord,
  CounterpartyRef,
  ExtractedRecord,
  InvoiceRecord,
  ObligationRecord,
  TransactionRecord,
  WalletTransferRecord,
} from '../../../kernel/extracted-record.ts'
import {
  accountKeys,
  addDays,
  counterpartyFromDescription,
  counterpartyKeys,
  daysBetween,
  ledgerAmount,
  normalizeDescription,
  normalizeIban,
  normalizeWallet,
  transactionFingerprint,
  type NormalizedTexts,
} from '../domain/keys.ts'
import { nextVersion, withAdded, type ContentFields } from '../domain/versions.ts'
import type {
  AccountRow,
  BalanceRow,
  CounterpartyRow,
  InvoiceRow,
  KeyKind,
  LedgerKind,
  LedgerRowByKind,
  LedgerStore,
  ObligationRow,
  ParsedRowRecord,
  TransactionRow,
} from '../ledger.store.ts'

/**
 * One parsed row to normalize, with its record already validated and everything that depends on the
 * record alone (batchInputOf), so a run prepares the next page while the previous batch writes.
 */
export interface BatchInput {
  readonly row: ParsedRowRecord
  readonly record: ExtractedRecord
  /**
   * For transactions: 1 for the first row of the artifact with this (account, date, amount,
   * description), 2 for the second identical one… (see occurrences.ts).
   */
  readonly occurrence: number
  /** A transaction-like record's facts; undefined for other records. */
  readonly facts: TransactionFacts | undefined
  /** The account the record names; undefined when it names none. */
  readonly account: AccountReference | undefined
  /** The counterparty the record names or suggests; undefined when it names none. */
  readonly counterparty: CounterpartyMentionFacts | undefined
}

/**
 * A parsed row as a batch input: the record-only work (facts, account reference, counterparty mention).
 * `recent`: the run's recent text normalizations.
 */
export function batchInputOf(row: ParsedRowRecord, record: ExtractedRecord, occurrence: number, recent?: NormalizedTexts): BatchInput {
  return {
    row,
    record,
    occurrence,
    facts: record.kind === 'transaction' || record.kind === 'wallet_transfer' ? transactionFacts(record, recent) : undefined,
    account: accountReferenceOf(record, recent),
    counterparty: counterpartyMentionOf(record, recent),
  }
}

export type EntityOutcome = 'created' | 'updated' | 'unchanged'

export interface EntityResult {
  readonly kind: LedgerKind
  readonly id: string
  readonly version_id: string
  readonly version: number
  readonly outcome: EntityOutcome
}

export type KindCounts = Record<EntityOutcome, number>

export interface BatchResult {
  /** Per kind, how many entities the batch created, updated (new version) and left unchanged. */
  readonly counts: Partial<Record<LedgerKind, KindCounts>>
  /** The entities each parsed row resolved to, by parsed row id. */
  readonly entitiesByRow: ReadonlyMap<string, readonly EntityResult[]>
  readonly auditEventId: string | undefined
}

export interface BatchDeps {
  readonly store: LedgerStore
  readonly audit: AuditRecorder
  readonly events: EventRecorder
}

export interface BatchContext {
  readonly tenantId: string
  readonly actor: AuditActor
  readonly requestId?: string | undefined
  readonly at: Date
  /** Recorded in the audit event's inputs. */
  readonly jobId?: string | undefined
  /** Report the entities each row resolved to (`entitiesByRow`): the single-row route wants them, a run does not. */
  readonly collectEntities?: boolean
  /** The run's content fields, for the content hash of every draft it writes. */
  readonly contentFields: ContentFields
}

/**
 * What a batch hands the next one in a pipelined run, where the next batch reads while this one's writes
 * are not yet visible: every key this batch knew or bound, and the current version, after its writes, of
 * every entity it loaded or wrote (undefined: there is none). The next batch takes these before the
 * database; everything else it reads was committed before its reads began (see normalizer.ts).
 */
export interface BatchCarry {
  readonly keys: Readonly<Record<KeyKind, ReadonlyMap<string, string>>>
  readonly currents: ReadonlyMap<LedgerKind, ReadonlyMap<string, unknown>>
}

/** A batch resolved and applied: its writes, ready to run in a transaction, and what it carries to the next batch. */
export interface PreparedBatch {
  readonly carry: BatchCarry
  write(tx: Tx): Promise<BatchResult>
}

/** What `prepareWrites` decided and `write` carries out. */
interface PlannedWrites {
  readonly counts: Partial<Record<LedgerKind, KindCounts>>
  readonly versions: ReadonlyMap<string, { versionId: string; version: number; outcome: EntityOutcome }>
  readonly created: Array<{ kind: LedgerKind; row: LedgerRowByKind[LedgerKind] }>
  readonly updated: Array<{ kind: LedgerKind; row: LedgerRowByKind[LedgerKind] }>
  /** Per kind: the new versions, and the version ids they supersede. */
  readonly writes: Array<{ kind: LedgerKind; rows: Array<LedgerRowByKind[LedgerKind]>; superseded: string[] }>
}

/** How a transaction record found its entity. */
type TransactionMatch = 'new' | 'key' | 'pending' | 'fuzzy' | 'ambiguous'

interface TransactionResolution {
  readonly id: string
  readonly match: TransactionMatch
  /** For an ambiguous record: the transactions it could be a copy of. */
  readonly candidates: string[]
}

/** A transaction-like record in the common shape (bank transactions and wallet transfers). */
export interface TransactionFacts {
  readonly account: AccountRef
  readonly externalId: string | undefined
  readonly pendingExternalId: string | undefined
  readonly amount: string
  readonly currency: string
  readonly transactionDate: string
  readonly postedDate: string | undefined
  readonly status: TransactionRow['status']
  readonly description: string
  readonly descriptionNormalized: string
  readonly counterparty: CounterpartyRef | undefined
  readonly category: string | undefined
  readonly details: Record<string, unknown> | undefined
  /** On-chain: the chain to look the counterparty's wallet up on as one of the tenant's accounts. */
  readonly chainId: number | undefined
}

/** Pure: depends on the record only, so a run computes it ahead, while the previous batch writes. */
export function transactionFacts(record: TransactionRecord | WalletTransferRecord, recent?: NormalizedTexts): TransactionFacts {
  if (record.kind === 'transaction') {
    return {
      account: record.account,
      externalId: record.external_transaction_id,
      pendingExternalId: record.pending_transaction_id,
      amount: ledgerAmount(record.amount, record.currency),
      currency: record.currency,
      transactionDate: record.transaction_date,
      postedDate: record.posted_date,
      status: record.status,
      description: record.description,
      descriptionNormalized: normalizeDescription(record.description, recent),
      counterparty: record.counterparty,
      category: record.category,
      details: record.details,
      chainId: undefined,
    }
  }
  const outgoing = decimalSign(record.amount) < 0
  const other = outgoing ? record.to : record.from
  const description = `${record.token} ${outgoing ? 'sent to' : 'received from'} ${normalizeWallet(other)}`
  return {
    account: { ...record.account, chain_id: record.account.chain_id ?? record.chain_id },
    externalId: `${record.tx_hash.toLowerCase()}:${record.log_index}`,
    pendingExternalId: undefined,
    amount: ledgerAmount(record.amount, record.token),
    currency: record.token,
    transactionDate: record.timestamp.slice(0, 10),
    postedDate: record.timestamp.slice(0, 10),
    status: 'posted',
    description,
    descriptionNormalized: normalizeDescription(description, recent),
    counterparty: { wallet_address: other },
    category: undefined,
    details: {
      chain_id: record.chain_id,
      tx_hash: record.tx_hash.toLowerCase(),
      log_index: record.log_index,
      block_number: record.block_number,
      timestamp: record.timestamp,
      from: normalizeWallet(record.from),
      to: normalizeWallet(record.to),
      token: record.token,
      ...(record.token_address === undefined ? {} : { token_address: normalizeWallet(record.token_address) }),
    },
    chainId: record.chain_id,
  }
}

const statusRank: Readonly<Record<TransactionRow['status'], number>> = { pending: 0, posted: 1, cleared: 2, failed: 3, reversed: 3, disputed: 3 }

/** Counterparty types from weakest to strongest evidence: an invoice's vendor beats a card merchant. */
const counterpartyTypeRank: Readonly<Record<CounterpartyRow['type'], number>> = {
  other: 0,
  merchant: 1,
  bank: 2,
  exchange: 2,
  agent: 2,
  wallet: 2,
  vendor: 3,
  customer: 3,
  employer: 3,
  employee: 3,
  tax_authority: 3,
}

/** Confidence of a counterparty guessed from a bank description rather than named by the source. */
const inferredCounterpartyConfidence = 0.6
/** Confidence ceiling of a transaction merged by a rule (pending → posted, cross-source match). */
const ruleMergeConfidence = 0.9
/** Days apart beyond which one external id names two transactions (a reused reference), not one. */
const externalIdDaysMax = 10
/** Entries kept in a counterparty's alias list and in any source or evidence list. */
const aliasesMax = 20

/** What a record says about its counterparty (pure: see counterpartyMentionOf). */
export interface CounterpartyMentionFacts {
  readonly ref: CounterpartyRef
  readonly keys: readonly string[]
  readonly type: CounterpartyRow['type']
  /** Guessed from a bank description rather than named by the source. */
  readonly inferred: boolean
}

interface CounterpartyMention extends CounterpartyMentionFacts {
  readonly input: BatchInput
}

/** The account a record is about, with its keys (pure: see accountReferenceOf). */
export interface AccountReference {
  readonly ref: AccountRef
  readonly currency: string | undefined
  readonly keys: readonly string[]
}

/** Pure, like transactionFacts: the account a record names, and its keys; undefined for records without one. */
export function accountReferenceOf(record: ExtractedRecord, recent?: NormalizedTexts): AccountReference | undefined {
  let ref: AccountRef
  let currency: string | undefined
  switch (record.kind) {
    case 'account':
      ref = record.account
      currency = record.account.currency
      break
    case 'transaction':
    case 'balance':
      ref = record.account
      currency = record.currency
      break
    case 'wallet_transfer':
      ref = { ...record.account, chain_id: record.account.chain_id ?? record.chain_id }
      currency = record.token
      break
    default:
      return undefined
  }
  return { ref, currency, keys: accountKeys(ref, currency ?? 'XXX', recent) }
}

/**
 * Pure, like transactionFacts: the counterparty a record names (or, for a bank transaction that names
 * none, the merchant guessed from its description), its keys and the type the record suggests; undefined
 * when it names nothing usable.
 */
export function counterpartyMentionOf(record: ExtractedRecord, recent?: NormalizedTexts): CounterpartyMentionFacts | undefined {
  const mention = (ref: CounterpartyRef, type: CounterpartyRow['type'], inferred: boolean) => {
    const keys = counterpartyKeys(ref, recent)
    return keys.length > 0 ? { ref, keys, type, inferred } : undefined
  }
  switch (record.kind) {
    case 'transaction': {
      const outflow = decimalSign(record.amount) < 0
      if (record.counterparty !== undefined) return mention(record.counterparty, outflow ? 'merchant' : 'other', false)
      const guessed = counterpartyFromDescription(record.description, recent)
      return guessed === undefined ? undefined : mention({ name: guessed }, outflow ? 'merchant' : 'other', true)
    }
    case 'wallet_transfer':
      return mention({ wallet_address: decimalSign(record.amount) < 0 ? record.to : record.from }, 'wallet', false)
    case 'invoice':
      return mention(record.counterparty, record.direction === 'payable' ? 'vendor' : 'customer', false)
    case 'obligation': {
      if (record.counterparty === undefined) return undefined
      const type =
        record.obligation_type === 'payroll'
          ? 'employee'
          : record.obligation_type === 'tax'
            ? 'tax_authority'
            : record.direction === 'receivable'
              ? 'customer'
              : 'vendor'
      return mention(record.counterparty, type, false)
    }
    default:
      return undefined
  }
}

function maskAccountNumber(number: string): string {
  const digits = number.replace(/[\s-]+/g, '')
  return digits.length <= 4 ? digits : `••••${digits.slice(-4)}`
}

function accountDisplayName(ref: AccountRef, institution: string | undefined): string {
  if (ref.name !== undefined && ref.name.trim() !== '') return ref.name.trim()
  if (ref.wallet_address !== undefined) return `Wallet ${normalizeWallet(ref.wallet_address).slice(0, 10)}…`
  const number = ref.iban ?? ref.account_number ?? ref.external_account_id ?? ''
  const tail = number.replace(/[\s-]+/g, '').slice(-4)
  return [institution, `account ${tail}`].filter((part) => part !== undefined && part !== '').join(' ')
}

function counterpartyDisplayName(ref: CounterpartyRef): string {
  if (ref.name !== undefined && ref.name.trim() !== '') return ref.name.trim().replace(/\s+/g, ' ')
  if (ref.wallet_address !== undefined) return normalizeWallet(ref.wallet_address)
  if (ref.iban !== undefined) return normalizeIban(ref.iban)
  return ref.email ?? ref.tax_id ?? ref.account_number ?? 'Unknown'
}

function linkedAccountsOf(ref: CounterpartyRef): string[] {
  return [
    ref.iban === undefined ? undefined : `iban:${normalizeIban(ref.iban)}`,
    ref.wallet_address === undefined ? undefined : `wallet:${normalizeWallet(ref.wallet_address)}`,
    ref.account_number === undefined ? undefined : `account:${ref.account_number.replace(/[\s-]+/g, '')}`,
  ].filter((value): value is string => value !== undefined)
}

/** Slug of a source's category label: `Software & SaaS` → `software_saas`. */
function categoryId(category: string | undefined): string | null {
  if (category === undefined) return null
  const slug = category
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
  return slug === '' ? null : slug
}

/** The keys under which an account ref could also be a counterparty of a transfer between own accounts. */
function ownAccountKeysOf(ref: CounterpartyRef | undefined, chainId: number | undefined): string[] {
  if (ref === undefined) return []
  const keys: string[] = []
  if (ref.iban !== undefined) keys.push(`iban:${normalizeIban(ref.iban)}`)
  if (ref.wallet_address !== undefined && chainId !== undefined) keys.push(`wallet:${chainId}:${normalizeWallet(ref.wallet_address)}`)
  return keys
}

/**
 * Normalizes one batch. The caller holds the tenant's normalization lock (`store.lockTenant`) in `tx`,
 * so keys resolved here cannot be created concurrently by another run.
 */
export async function normalizeBatch(tx: Tx, deps: BatchDeps, context: BatchContext, inputs: readonly BatchInput[]): Promise<BatchResult> {
  return (await prepareBatch(tx, deps, context, inputs)).write(tx)
}

/**
 * Resolves and applies one batch, reading through `reader`, and returns its writes without running them.
 * The caller holds the tenant's normalization lock from these reads until the writes commit. `carried`:
 * what the previous batch carries, when its writes may not be visible to `reader` yet.
 */
export async function prepareBatch(
  reader: Executor,
  deps: BatchDeps,
  context: BatchContext,
  inputs: readonly BatchInput[],
  carried?: BatchCarry,
): Promise<PreparedBatch> {
  const batch = new Batch(reader, deps, context, carried)
  await batch.resolveAndApply(inputs)
  return batch.prepareWrites(inputs)
}

class Batch {
  private readonly keyMaps: Record<KeyKind, Map<string, string>> = {
    account: new Map(),
    counterparty: new Map(),
    transaction: new Map(),
    invoice: new Map(),
    obligation: new Map(),
    balance: new Map(),
  }
  private readonly newKeys: Array<{ kind: KeyKind; key: string; entityId: string }> = []
  /** Current versions as loaded (undefined: the entity does not exist yet). */
  private readonly currents = new Map<LedgerKind, Map<string, unknown>>()
  /** Drafts of the entities this batch touches, applied to in input order. */
  private readonly drafts = new Map<LedgerKind, Map<string, unknown>>()
  private readonly touched = new Map<string, Array<{ kind: LedgerKind; id: string }>>()

  constructor(
    private readonly reader: Executor,
    private readonly deps: BatchDeps,
    private readonly context: BatchContext,
    private readonly carried: BatchCarry | undefined,
  ) {}

  private get tenantId() {
    return this.context.tenantId
  }

  async resolveAndApply(inputs: readonly BatchInput[]): Promise<void> {
    // (1) Accounts and counterparties.
    const accountIdOf = await this.resolveAccounts(inputs)
    const mentions = this.counterpartyMentions(inputs)
    const counterpartyIdOf = await this.resolveCounterparties(mentions)

    // (2) Transactions.
    const transactionMatches = await this.resolveTransactions(inputs, accountIdOf)

    // (3) Balances, invoices, obligations: one key each, so the id follows from the key.
    const balanceIdOf = new Map<BatchInput, string>()
    const invoiceIdOf = new Map<BatchInput, string>()
    const obligationIdOf = new Map<BatchInput, string>()
    const linkedInvoiceOf = new Map<BatchInput, string>()
    for (const input of inputs) {
      const record = input.record
      if (record.kind === 'balance') {
        balanceIdOf.set(input, deterministicId('balance', this.tenantId, `${accountIdOf.get(input)!}:${record.as_of}:${record.balance_type}`))
      } else if (record.kind === 'invoice') {
        const invoiceId = this.invoiceId(record.direction, counterpartyIdOf.get(input), record.invoice_number)
        invoiceIdOf.set(input, invoiceId)
        obligationIdOf.set(input, deterministicId('obligation', this.tenantId, `invoice:${invoiceId}`))
      } else if (record.kind === 'obligation') {
        obligationIdOf.set(input, deterministicId('obligation', this.tenantId, `${record.obligation_type}:${record.reference}`))
        if (record.invoice_number !== undefined && record.direction !== null) {
          linkedInvoiceOf.set(input, this.invoiceId(record.direction, counterpartyIdOf.get(input), record.invoice_number))
        }
      }
    }
    await this.load('balance', [...balanceIdOf.values()])
    await this.load('invoice', [...invoiceIdOf.values(), ...linkedInvoiceOf.values()])
    await this.load('obligation', [...obligationIdOf.values()])

    // (4) Apply, in input order.
    for (const input of inputs) {
      const record = input.record
      switch (record.kind) {
        case 'account':
          break // applied with every account ref in resolveAccounts
        case 'transaction':
        case 'wallet_transfer': {
          const match = transactionMatches.get(input)!
          this.applyTransaction(input, input.facts!, accountIdOf.get(input)!, counterpartyIdOf.get(input), match)
          break
        }
        case 'balance':
          this.applyBalance(input, record, accountIdOf.get(input)!, balanceIdOf.get(input)!)
          break
        case 'invoice':
          this.applyInvoice(input, record, counterpartyIdOf.get(input), invoiceIdOf.get(input)!, obligationIdOf.get(input)!)
          break
        case 'obligation':
          this.applyObligation(input, record, counterpartyIdOf.get(input), obligationIdOf.get(input)!, linkedInvoiceOf.get(input))
          break
      }
    }
  }

  // ——— helpers over keys, currents and drafts ———

  private invoiceId(direction: InvoiceRow['direction'], counterpartyId: string | undefined, invoiceNumber: string): string {
    return deterministicId('invoice', this.tenantId, `${direction}:${counterpartyId ?? ''}:${invoiceNumber.trim()}`)
  }

  /** Looks up the keys not yet known (the previous batch's first), so `resolve` can answer from memory. */
  private async lookupKeys(kind: KeyKind, keys: Iterable<string>) {
    const map = this.keyMaps[kind]
    const carried = this.carried?.keys[kind]
    const unknown: string[] = []
    for (const key of new Set(keys)) {
      if (map.has(key)) continue
      const entityId = carried?.get(key)
      if (entityId === undefined) unknown.push(key)
      else map.set(key, entityId)
    }
    const found = await this.deps.store.findEntityIds(this.reader, this.tenantId, kind, unknown)
    for (const [key, entityId] of found) map.set(key, entityId)
  }

  /** The entity of the first key that has one. */
  private resolve(kind: KeyKind, keys: readonly string[]): string | undefined {
    for (const key of keys) {
      const id = this.keyMaps[kind].get(key)
      if (id !== undefined) return id
    }
    return undefined
  }

  /** Records every key of the entity that is not yet taken; the seed its id derives from needs no row. */
  private bind(kind: KeyKind, keys: readonly string[], entityId: string, seed?: string) {
    const map = this.keyMaps[kind]
    for (const key of keys) {
      if (map.has(key)) continue
      map.set(key, entityId)
      if (key !== seed) this.newKeys.push({ kind, key, entityId })
    }
  }

  /**
   * Accounts and counterparties: each reference resolves to the entity of its first known key, or to a new
   * entity whose id derives from its strongest key; its keys are bound to that entity, and the entities
   * are loaded. `alsoLookUp`: further keys to learn in the same lookup.
   */
  private async resolveByKeys(
    kind: 'account' | 'counterparty',
    references: ReadonlyMap<BatchInput, { readonly keys: readonly string[] }>,
    alsoLookUp: readonly string[] = [],
  ): Promise<Map<BatchInput, string>> {
    await this.lookupKeys(kind, [...[...references.values()].flatMap((entry) => entry.keys), ...alsoLookUp])
    const idOf = new Map<BatchInput, string>()
    for (const [input, entry] of references) {
      const id = this.resolve(kind, entry.keys) ?? deterministicId(kind, this.tenantId, entry.keys[0]!)
      this.bind(kind, entry.keys, id)
      idOf.set(input, id)
    }
    await this.load(kind, [...new Set(idOf.values())])
    return idOf
  }

  private async load(kind: LedgerKind, ids: readonly string[]) {
    const currents = this.currents.get(kind) ?? new Map<string, unknown>()
    this.currents.set(kind, currents)
    const drafts = this.drafts.get(kind) ?? new Map<string, unknown>()
    this.drafts.set(kind, drafts)
    const carried = this.carried?.currents.get(kind)
    const known = (id: string, current: unknown) => {
      currents.set(id, current)
      if (current !== undefined) drafts.set(id, { ...(current as object) })
    }
    const unknown: string[] = []
    for (const id of new Set(ids)) {
      if (currents.has(id)) continue
      if (carried?.has(id) === true) known(id, carried.get(id))
      else unknown.push(id)
    }
    const found = await this.deps.store.currentVersions(this.reader, kind, this.tenantId, unknown)
    for (const id of unknown) known(id, found.get(id))
  }

  private draft<K extends LedgerKind>(kind: K, id: string): LedgerRowByKind[K] | undefined {
    return this.drafts.get(kind)?.get(id) as LedgerRowByKind[K] | undefined
  }

  private create<K extends LedgerKind>(kind: K, row: LedgerRowByKind[K]): LedgerRowByKind[K] {
    const drafts = this.drafts.get(kind) ?? new Map<string, unknown>()
    this.drafts.set(kind, drafts)
    drafts.set(row.id, row)
    const currents = this.currents.get(kind) ?? new Map<string, unknown>()
    this.currents.set(kind, currents)
    if (!currents.has(row.id)) currents.set(row.id, undefined)
    return row
  }

  private touch(input: BatchInput, kind: LedgerKind, id: string) {
    if (this.context.collectEntities !== true) return
    const list = this.touched.get(input.row.id) ?? []
    if (!list.some((entry) => entry.kind === kind && entry.id === id)) list.push({ kind, id })
    this.touched.set(input.row.id, list)
  }

  /** The bookkeeping and provenance of a new entity's first draft. */
  private base(id: string, input: BatchInput, provenance: TransactionRow['provenance'], confidence: number, metadata: Record<string, unknown> = {}) {
    return {
      versionId: '',
      id,
      tenantId: this.tenantId,
      version: 0,
      supersedes: null,
      sourceIds: [input.row.rawArtifactId],
      evidenceIds: [input.row.id],
      provenance,
      confidence,
      metadata,
      createdAt: this.context.at,
      updatedAt: this.context.at,
      supersededAt: null,
    }
  }

  /** Adds a row as evidence of a draft (its artifact to `source_ids`, the row to `evidence_ids`). */
  private cite(draft: { sourceIds: string[]; evidenceIds: string[] }, input: BatchInput) {
    draft.sourceIds = withAdded(draft.sourceIds, [input.row.rawArtifactId])
    draft.evidenceIds = withAdded(draft.evidenceIds, [input.row.id])
  }

  // ——— (1) accounts ———

  private async resolveAccounts(inputs: readonly BatchInput[]): Promise<Map<BatchInput, string>> {
    const refs = new Map<BatchInput, AccountReference>()
    for (const input of inputs) {
      if (input.account !== undefined) refs.set(input, input.account)
    }
    // Transfers between own accounts: the counterparty's IBAN or wallet may be one of the tenant's accounts.
    const ownKeys = inputs.flatMap((input) => {
      const record = input.record
      if (record.kind === 'transaction') return ownAccountKeysOf(record.counterparty, undefined)
      if (record.kind === 'wallet_transfer') return ownAccountKeysOf({ wallet_address: decimalSign(record.amount) < 0 ? record.to : record.from }, record.chain_id)
      return []
    })
    const idOf = await this.resolveByKeys('account', refs, ownKeys)

    for (const [input, entry] of refs) {
      const id = idOf.get(input)!
      const record = input.record
      const accountRecord = record.kind === 'account' ? record : undefined
      const draft =
        this.draft('account', id) ??
        this.create('account', {
          ...this.base(id, input, 'extracted', input.row.confidence),
          accountType: accountRecord?.account_type ?? (entry.ref.wallet_address === undefined ? 'bank_checking' : 'onchain'),
          status: accountRecord?.status ?? 'active',
          name: accountDisplayName(entry.ref, accountRecord?.institution),
          institution: accountRecord?.institution ?? null,
          currency: entry.ref.currency ?? entry.currency ?? 'XXX',
          externalAccountId: null,
          iban: null,
          accountNumberMasked: null,
          walletAddress: null,
          chainId: null,
        } satisfies AccountRow)
      this.mergeAccount(draft, entry.ref, accountRecord, input)
      this.touch(input, 'account', id)
    }
    return idOf
  }

  /** Fills what the account's current version does not know; an account record also sets type and status. */
  private mergeAccount(draft: AccountRow, ref: AccountRef, accountRecord: Extract<ExtractedRecord, { kind: 'account' }> | undefined, input: BatchInput) {
    let changed = false
    const fill = <K extends 'externalAccountId' | 'iban' | 'accountNumberMasked' | 'walletAddress'>(field: K, value: string | undefined) => {
      if (draft[field] !== null || value === undefined) return
      draft[field] = value
      changed = true
    }
    fill('externalAccountId', ref.external_account_id)
    fill('iban', ref.iban === undefined ? undefined : normalizeIban(ref.iban))
    fill('accountNumberMasked', ref.account_number === undefined ? undefined : maskAccountNumber(ref.account_number))
    fill('walletAddress', ref.wallet_address === undefined ? undefined : normalizeWallet(ref.wallet_address))
    if (draft.chainId === null && ref.chain_id !== undefined) {
      draft.chainId = ref.chain_id
      changed = true
    }
    if (draft.currency === 'XXX' && ref.currency !== undefined) {
      draft.currency = ref.currency
      changed = true
    }
    if (accountRecord !== undefined) {
      if (accountRecord.account_type !== undefined) draft.accountType = accountRecord.account_type
      if (accountRecord.status !== undefined) draft.status = accountRecord.status
      if (accountRecord.institution !== undefined) draft.institution = accountRecord.institution
      if (ref.name !== undefined && ref.name.trim() !== '') draft.name = ref.name.trim()
    }
    // An account cites the rows that defined it, not every transaction that names it.
    if (changed || accountRecord !== undefined) this.cite(draft, input)
  }

  // ——— (1) counterparties ———

  private counterpartyMentions(inputs: readonly BatchInput[]): Map<BatchInput, CounterpartyMention> {
    const mentions = new Map<BatchInput, CounterpartyMention>()
    for (const input of inputs) {
      if (input.counterparty !== undefined) mentions.set(input, { ...input.counterparty, input })
    }
    return mentions
  }

  private async resolveCounterparties(mentions: Map<BatchInput, CounterpartyMention>): Promise<Map<BatchInput, string>> {
    const idOf = await this.resolveByKeys('counterparty', mentions)
    for (const [input, entry] of mentions) {
      const id = idOf.get(input)!
      const existing = this.draft('counterparty', id)
      const draft =
        existing ??
        this.create('counterparty', {
          ...this.base(id, input, entry.inferred ? 'inferred' : 'extracted', entry.inferred ? inferredCounterpartyConfidence : input.row.confidence),
          name: counterpartyDisplayName(entry.ref),
          type: entry.type,
          verifiedStatus: 'unverified',
          // Not assessed is not low risk: screening or a member's review lowers it.
          riskLevel: 'medium',
          trustState: 'unreviewed',
          aliases: [],
          linkedAccounts: [],
        } satisfies CounterpartyRow)
      this.mergeCounterparty(draft, entry)
      this.touch(input, 'counterparty', id)
    }
    return idOf
  }

  /** New aliases, linked accounts and a stronger type change a counterparty's identity: a new version. */
  private mergeCounterparty(draft: CounterpartyRow, mention: CounterpartyMention) {
    const name = counterpartyDisplayName(mention.ref)
    const linked = linkedAccountsOf(mention.ref)
    const strongerType = counterpartyTypeRank[mention.type] > counterpartyTypeRank[draft.type]
    const named = draft.provenance === 'inferred' && !mention.inferred
    // The common case, a counterparty seen again as it is known: nothing to change, nothing to allocate.
    if (!strongerType && !named && draft.aliases.includes(name) && linked.every((account) => draft.linkedAccounts.includes(account))) return
    const aliases = withAdded(draft.aliases, [name], aliasesMax)
    const linkedAccounts = withAdded(draft.linkedAccounts, linked, aliasesMax)
    if (aliases.length === draft.aliases.length && linkedAccounts.length === draft.linkedAccounts.length && !strongerType && !named) return
    draft.aliases = aliases
    draft.linkedAccounts = linkedAccounts
    if (strongerType) draft.type = mention.type
    if (named) {
      // A source that names the counterparty replaces a guess from a description.
      draft.provenance = 'extracted'
      draft.confidence = Math.max(draft.confidence, mention.input.row.confidence)
      draft.name = name
    }
    this.cite(draft, mention.input)
  }

  // ——— (2) transactions ———

  private async resolveTransactions(
    inputs: readonly BatchInput[],
    accountIdOf: ReadonlyMap<BatchInput, string>,
  ): Promise<Map<BatchInput, TransactionResolution>> {
    interface Entry {
      readonly input: BatchInput
      readonly facts: TransactionFacts
      readonly accountId: string
      readonly keys: string[]
      readonly pendingKey: string | undefined
    }
    const entries: Entry[] = []
    for (const input of inputs) {
      const { facts } = input
      if (facts === undefined) continue
      const accountId = accountIdOf.get(input)!
      const keys = [
        ...(facts.externalId === undefined ? [] : [`ext:${accountId}:${facts.externalId}`]),
        `fp:${transactionFingerprint(accountId, facts.transactionDate, facts.amount, facts.descriptionNormalized)}:${input.occurrence}`,
      ]
      const pendingKey = facts.pendingExternalId === undefined ? undefined : `ext:${accountId}:${facts.pendingExternalId}`
      entries.push({ input, facts, accountId, keys, pendingKey })
    }
    if (entries.length === 0) return new Map()
    const allKeys = entries.flatMap((entry) => (entry.pendingKey === undefined ? entry.keys : [...entry.keys, entry.pendingKey]))
    await this.lookupKeys('transaction', allKeys)
    // A transaction's id is derived from the key it was first recorded under (its seed), which is not
    // stored: a key whose derived id names a current transaction resolves to it.
    const derivedIdOf = new Map<string, string>()
    for (const key of allKeys) if (!this.keyMaps.transaction.has(key)) derivedIdOf.set(key, deterministicId('transaction', this.tenantId, key))
    await this.load('transaction', [...derivedIdOf.values()])
    for (const [key, id] of derivedIdOf) if (this.draft('transaction', id) !== undefined) this.keyMaps.transaction.set(key, id)

    // What the keys found, to check that an external id names the same transaction (below).
    await this.load('transaction', entries.flatMap((entry) => entry.keys.map((key) => this.keyMaps.transaction.get(key)).filter((id): id is string => id !== undefined)))
    const batchFacts = new Map<string, Pick<TransactionRow, 'amount' | 'status' | 'transactionDate'>>()
    /**
     * The entity of the first key that has one, skipping an external id that names a transaction of
     * another amount or date: a bank that reuses references (a payment reference, an entry number per
     * statement) must not merge two transactions. A pending transaction may post at another amount.
     */
    const resolveKeys = (entry: Entry) => {
      for (const key of entry.keys) {
        const id = this.keyMaps.transaction.get(key)
        if (id === undefined) continue
        if (!key.startsWith('ext:')) return id
        const known = this.draft('transaction', id) ?? batchFacts.get(id)
        if (known === undefined) return id
        const sameAmount = known.amount === entry.facts.amount || known.status === 'pending'
        if (sameAmount && Math.abs(daysBetween(known.transactionDate, entry.facts.transactionDate)) <= externalIdDaysMax) return id
      }
      return undefined
    }

    // Dedupe candidates for the records no key finds: current transactions of the same account and amount
    // dated up to seven days before (pending → posted) or on the same day (another source's copy).
    const unresolved = entries.filter((entry) => resolveKeys(entry) === undefined)
    const pool = new CandidatePool()
    if (unresolved.length > 0) {
      const dates = unresolved.map((entry) => entry.facts.transactionDate).sort()
      const probes = unresolved.map((entry) => ({ accountId: entry.accountId, amount: entry.facts.amount }))
      const dateFrom = addDays(dates[0]!, -7)
      const dateTo = dates[dates.length - 1]!
      const rows = await this.deps.store.transactionCandidates(this.reader, this.tenantId, probes, dateFrom, dateTo)
      // The previous batch's transactions as they are after its writes, which the query may not see yet.
      const carried = this.carried?.currents.get('transaction') as ReadonlyMap<string, TransactionRow | undefined> | undefined
      for (const row of rows) if (carried?.has(row.id) !== true) pool.add(row)
      if (carried !== undefined) {
        const probed = new Set(probes.map((probe) => `${probe.accountId}|${probe.amount}`))
        for (const row of carried.values()) {
          if (row !== undefined && probed.has(`${row.accountId}|${row.amount}`) && row.transactionDate >= dateFrom && row.transactionDate <= dateTo) pool.add(row)
        }
      }
    }

    const result = new Map<BatchInput, TransactionResolution>()
    for (const entry of entries) {
      const { facts } = entry
      let id = resolveKeys(entry)
      let match: TransactionMatch = 'key'
      let candidates: string[] = []
      if (id === undefined && entry.pendingKey !== undefined) {
        id = this.keyMaps.transaction.get(entry.pendingKey)
        match = 'pending'
      }
      if (id === undefined && statusRank[facts.status] >= statusRank.posted) {
        // A posted record and the pending transaction it settles: same account and amount, dated up to 7 days before.
        const found = pool.find(entry.accountId, facts.amount, (row) => row.status === 'pending' && inWindow(row.transactionDate, facts.transactionDate, 7))
        if (found.length === 1) {
          id = found[0]!.id
          match = 'pending'
        }
      }
      if (id === undefined) {
        // The same transaction from another source, described differently.
        const found = pool.find(
          entry.accountId,
          facts.amount,
          (row) =>
            row.transactionDate === facts.transactionDate &&
            !row.sourceIds.includes(entry.input.row.rawArtifactId) &&
            (row.externalTransactionId === null || facts.externalId === undefined || row.externalTransactionId === facts.externalId),
        )
        if (found.length === 1) {
          id = found[0]!.id
          match = 'fuzzy'
        } else if (found.length > 1) {
          candidates = found.map((row) => row.id).sort()
          match = 'ambiguous'
        }
      }
      let seed: string | undefined
      if (id === undefined) {
        // Seeded by its first key no other transaction holds (an external id may be a reused one).
        seed = entry.keys.find((key) => !this.keyMaps.transaction.has(key)) ?? entry.keys[entry.keys.length - 1]!
        id = derivedIdOf.get(seed) ?? deterministicId('transaction', this.tenantId, seed)
        if (match !== 'ambiguous') match = 'new'
        batchFacts.set(id, { amount: facts.amount, status: facts.status, transactionDate: facts.transactionDate })
        // A pending transaction earlier in this batch can be settled by a posted one later in it.
        pool.add({
          id,
          accountId: entry.accountId,
          amount: facts.amount,
          status: facts.status,
          transactionDate: facts.transactionDate,
          sourceIds: [entry.input.row.rawArtifactId],
          externalTransactionId: facts.externalId ?? null,
        })
      }
      this.bind('transaction', entry.keys, id, seed)
      pool.claim(id)
      result.set(entry.input, { id, match, candidates })
    }
    await this.load('transaction', [...new Set([...result.values()].map((entry) => entry.id))])
    return result
  }

  private applyTransaction(
    input: BatchInput,
    facts: TransactionFacts,
    accountId: string,
    counterpartyId: string | undefined,
    resolution: TransactionResolution,
  ) {
    const { id, match } = resolution
    const ownAccount = this.resolve('account', ownAccountKeysOf(facts.counterparty, facts.chainId))
    const direction: TransactionRow['direction'] =
      ownAccount !== undefined && ownAccount !== accountId ? 'transfer' : decimalSign(facts.amount) > 0 ? 'inflow' : decimalSign(facts.amount) < 0 ? 'outflow' : 'adjustment'
    const counterpartyInferred = facts.counterparty === undefined
    const existing = this.draft('transaction', id)
    if (existing === undefined) {
      const ambiguous = match === 'ambiguous'
      const metadata: Record<string, unknown> = {}
      if (facts.details !== undefined) metadata.details = facts.details
      if (facts.category !== undefined) metadata.category = facts.category
      if (counterpartyInferred && counterpartyId !== undefined) metadata.counterparty_inferred = true
      if (ambiguous) metadata.possible_duplicate_of = resolution.candidates
      // One literal (no spreads): this runs for every new transaction, and the shape stays fast.
      const row: TransactionRow = {
        versionId: '',
        id,
        tenantId: this.tenantId,
        version: 0,
        supersedes: null,
        sourceIds: [input.row.rawArtifactId],
        evidenceIds: [input.row.id],
        provenance: ambiguous ? 'ambiguous' : 'extracted',
        confidence: input.row.confidence,
        metadata,
        createdAt: this.context.at,
        updatedAt: this.context.at,
        supersededAt: null,
        accountId,
        externalTransactionId: facts.externalId ?? null,
        amount: facts.amount,
        currency: facts.currency,
        direction,
        transactionDate: facts.transactionDate,
        postedDate: facts.postedDate ?? (facts.status === 'pending' ? null : facts.transactionDate),
        counterpartyId: counterpartyId ?? null,
        categoryId: categoryId(facts.category),
        status: facts.status,
        description: facts.description,
        descriptionNormalized: facts.descriptionNormalized,
        reconciliationStatus: 'unmatched',
      }
      this.create('transaction', row)
      this.touch(input, 'transaction', id)
      return
    }

    const draft = existing
    this.cite(draft, input)
    if (draft.externalTransactionId === null && facts.externalId !== undefined) draft.externalTransactionId = facts.externalId
    if (statusRank[facts.status] > statusRank[draft.status]) {
      const settles = draft.status === 'pending'
      draft.status = facts.status
      if (settles) {
        // The posted record is the final word on how the bank describes it and when it settled.
        draft.postedDate = facts.postedDate ?? facts.transactionDate
        draft.description = facts.description
        draft.descriptionNormalized = facts.descriptionNormalized
        if (facts.externalId !== undefined) draft.externalTransactionId = facts.externalId
      }
    }
    draft.postedDate ??= facts.postedDate ?? null
    const metadata = { ...(draft.metadata as Record<string, unknown>) }
    if (counterpartyId !== undefined && (draft.counterpartyId === null || (metadata.counterparty_inferred === true && !counterpartyInferred))) {
      draft.counterpartyId = counterpartyId
      if (!counterpartyInferred) delete metadata.counterparty_inferred
    }
    draft.categoryId ??= categoryId(facts.category)
    if (metadata.details === undefined && facts.details !== undefined) metadata.details = facts.details
    if (metadata.category === undefined && facts.category !== undefined) metadata.category = facts.category
    if (match === 'pending' || match === 'fuzzy') {
      draft.provenance = draft.provenance === 'human_confirmed' ? draft.provenance : 'inferred'
      draft.confidence = Math.min(Math.max(draft.confidence, input.row.confidence), ruleMergeConfidence)
      metadata.merged_by = withAdded(Array.isArray(metadata.merged_by) ? (metadata.merged_by as string[]) : [], [match === 'pending' ? 'pending_to_posted' : 'cross_source_match'])
    } else {
      // A merged transaction stays capped however its sources are found again, so the outcome does not
      // depend on the order they are normalized in (re-normalizing the pending statement changes nothing).
      const confidence = Math.max(draft.confidence, input.row.confidence)
      draft.confidence = draft.provenance === 'inferred' && Array.isArray(metadata.merged_by) ? Math.min(confidence, ruleMergeConfidence) : confidence
    }
    draft.metadata = metadata
    this.touch(input, 'transaction', id)
  }

  // ——— (3) balances, invoices, obligations ———

  private applyBalance(input: BatchInput, record: BalanceRecord, accountId: string, id: string) {
    const amount = ledgerAmount(record.amount, record.currency)
    const draft =
      this.draft('balance', id) ??
      this.create('balance', {
        ...this.base(id, input, 'extracted', input.row.confidence),
        accountId,
        balanceType: record.balance_type,
        asOf: record.as_of,
        amount,
        currency: record.currency,
      } satisfies BalanceRow)
    if (draft.amount !== amount || draft.currency !== record.currency) {
      // A later statement states a different figure for the same day: it is the correction.
      draft.amount = amount
      draft.currency = record.currency
      draft.provenance = 'extracted'
      draft.confidence = input.row.confidence
    }
    this.cite(draft, input)
    this.touch(input, 'balance', id)
  }

  private applyInvoice(input: BatchInput, record: InvoiceRecord, counterpartyId: string | undefined, id: string, obligationId: string) {
    const currency = record.currency
    const total = ledgerAmount(record.total, currency)
    const existing = this.draft('invoice', id)
    // A document marked paid without a paid amount was paid in full. Paid amounts only grow: an older
    // copy of the invoice does not undo a payment recorded since.
    const statedPaid = record.amount_paid !== undefined ? ledgerAmount(record.amount_paid, currency) : record.status === 'paid' ? total : ledgerAmount('0', currency)
    const amountPaid = existing !== undefined && decimalCompare(existing.amountPaid, statedPaid) > 0 ? existing.amountPaid : statedPaid
    const outstanding = decimalSubtract(total, amountPaid)
    // Payments decide paid and partial; otherwise the source's status (draft, sent, overdue, disputed, cancelled) stands.
    const byPayments: InvoiceRow['status'] | undefined = decimalSign(outstanding) <= 0 ? 'paid' : decimalSign(amountPaid) > 0 ? 'partial' : undefined
    const status: InvoiceRow['status'] =
      record.status === 'cancelled' || record.status === 'disputed' ? record.status : (byPayments ?? (record.status === 'paid' || record.status === 'partial' ? 'sent' : (record.status ?? 'sent')))
    const scenario = record.direction === 'receivable' ? 'ar' : 'ap'
    const fields = {
      direction: record.direction,
      invoiceNumber: record.invoice_number.trim(),
      issueDate: record.issue_date ?? null,
      dueDate: record.due_date ?? null,
      currency,
      total,
      subtotal: record.subtotal === undefined ? null : ledgerAmount(record.subtotal, currency),
      tax: record.tax === undefined ? null : ledgerAmount(record.tax, currency),
      amountPaid,
      status,
      counterpartyId: counterpartyId ?? null,
    }
    const metadata = { scenario, ...(record.line_items === undefined ? {} : { line_items: record.line_items.slice(0, 200) }) }
    if (existing === undefined) {
      this.create('invoice', { ...this.base(id, input, 'extracted', input.row.confidence, metadata), ...fields } satisfies InvoiceRow)
    } else {
      // The latest source is the invoice's current state (a due date moved, a payment recorded).
      Object.assign(existing, fields)
      existing.metadata = { ...(existing.metadata as Record<string, unknown>), ...metadata }
      existing.confidence = input.row.confidence
      this.cite(existing, input)
    }
    this.touch(input, 'invoice', id)

    // Every invoice is also an obligation: a bill to pay, or an invoice to collect.
    const obligation = {
      obligationType: record.direction === 'payable' ? ('bill' as const) : ('invoice' as const),
      direction: record.direction,
      reference: fields.invoiceNumber,
      description: `${record.direction === 'payable' ? 'Bill' : 'Invoice'} ${fields.invoiceNumber}`,
      amount: total,
      currency,
      dueDate: fields.dueDate,
      recurrence: null,
      status: status === 'paid' ? ('settled' as const) : status === 'cancelled' ? ('cancelled' as const) : ('open' as const),
      counterpartyId: counterpartyId ?? null,
      invoiceId: id,
    }
    const obligationMetadata = { scenario, outstanding: decimalSign(outstanding) < 0 ? '0' : ledgerAmount(outstanding, currency) }
    const existingObligation = this.draft('obligation', obligationId)
    if (existingObligation === undefined) {
      this.create('obligation', { ...this.base(obligationId, input, 'extracted', input.row.confidence, obligationMetadata), ...obligation } satisfies ObligationRow)
    } else {
      Object.assign(existingObligation, obligation)
      existingObligation.metadata = { ...(existingObligation.metadata as Record<string, unknown>), ...obligationMetadata }
      this.cite(existingObligation, input)
    }
    this.touch(input, 'obligation', obligationId)
  }

  private applyObligation(input: BatchInput, record: ObligationRecord, counterpartyId: string | undefined, id: string, linkedInvoiceId: string | undefined) {
    const invoiceId = linkedInvoiceId !== undefined && this.draft('invoice', linkedInvoiceId) !== undefined ? linkedInvoiceId : null
    const fields = {
      obligationType: record.obligation_type,
      direction: record.direction,
      reference: record.reference,
      description: record.description ?? null,
      amount: ledgerAmount(record.amount, record.currency),
      currency: record.currency,
      dueDate: record.due_date ?? null,
      recurrence: record.recurrence ?? null,
      status: 'open' as const,
      counterpartyId: counterpartyId ?? null,
      invoiceId,
    }
    const metadata = record.direction === null ? {} : { scenario: record.direction === 'receivable' ? 'ar' : 'ap' }
    const existing = this.draft('obligation', id)
    if (existing === undefined) {
      this.create('obligation', { ...this.base(id, input, 'extracted', input.row.confidence, metadata), ...fields } satisfies ObligationRow)
    } else {
      Object.assign(existing, { ...fields, status: existing.status, invoiceId: fields.invoiceId ?? existing.invoiceId })
      existing.metadata = { ...(existing.metadata as Record<string, unknown>), ...metadata }
      existing.confidence = input.row.confidence
      this.cite(existing, input)
    }
    this.touch(input, 'obligation', id)
  }

  // ——— (5) write ———

  /** The new versions (only drafts whose content changed), their counts, and what the next batch inherits. */
  prepareWrites(inputs: readonly BatchInput[]): PreparedBatch {
    const { at } = this.context
    const counts: Partial<Record<LedgerKind, KindCounts>> = {}
    const versions = new Map<string, { versionId: string; version: number; outcome: EntityOutcome }>()
    const created: PlannedWrites['created'] = []
    const updated: PlannedWrites['updated'] = []
    const writes: PlannedWrites['writes'] = []

    const carriedCurrents = new Map<LedgerKind, Map<string, unknown>>()
    for (const [kind, currents] of this.currents) carriedCurrents.set(kind, new Map(currents))
    for (const [kind, drafts] of this.drafts) {
      if (drafts.size === 0) continue
      const currents = this.currents.get(kind)!
      const after = carriedCurrents.get(kind)!
      const rows: Array<LedgerRowByKind[LedgerKind]> = []
      const superseded: string[] = []
      const tally: KindCounts = { created: 0, updated: 0, unchanged: 0 }
      for (const [id, draft] of drafts) {
        const current = currents.get(id) as LedgerRowByKind[LedgerKind] | undefined
        const next = nextVersion(current, draft as LedgerRowByKind[LedgerKind], at, this.context.contentFields)
        if (next === undefined) {
          tally.unchanged += 1
          if (this.context.collectEntities === true) versions.set(`${kind}:${id}`, { versionId: current!.versionId, version: current!.version, outcome: 'unchanged' })
          continue
        }
        rows.push(next)
        after.set(id, next)
        if (current === undefined) {
          tally.created += 1
          created.push({ kind, row: next })
        } else {
          tally.updated += 1
          superseded.push(current.versionId)
          updated.push({ kind, row: next })
        }
        if (this.context.collectEntities === true) {
          versions.set(`${kind}:${id}`, { versionId: next.versionId, version: next.version, outcome: current === undefined ? 'created' : 'updated' })
        }
      }
      counts[kind] = tally
      if (rows.length > 0) writes.push({ kind, rows, superseded })
    }
    return {
      carry: { keys: this.keyMaps, currents: carriedCurrents },
      write: (tx) => this.write(tx, inputs, { counts, versions, created, updated, writes }),
    }
  }

  private async write(tx: Tx, inputs: readonly BatchInput[], planned: PlannedWrites): Promise<BatchResult> {
    const { store } = this.deps
    const { tenantId, at } = this.context
    const { counts, versions, created, updated, writes } = planned
    let auditEventId: string | undefined
    if (writes.length > 0 || this.newKeys.length > 0) {
      for (const write of writes) {
        // Close the current versions first: at most one current version per entity (a unique index).
        await store.supersede(tx, write.kind, tenantId, write.superseded, at)
        await store.insertVersions(tx, write.kind, write.rows)
      }
      for (const kind of ['account', 'counterparty', 'transaction'] as const) {
        const entries = this.newKeys.filter((entry) => entry.kind === kind)
        if (entries.length > 0) await store.addKeys(tx, tenantId, kind, entries, at)
      }
      const first = inputs[0]!.row
      const artifactIds = [...new Set(inputs.map((input) => input.row.rawArtifactId))]
      const audited = await this.deps.audit.record(tx, {
        tenantId,
        layer: 'ledger',
        actor: this.context.actor,
        action: 'ledger.normalized',
        entity: artifactIds.length === 1 ? { type: 'raw_artifact', id: artifactIds[0]! } : { type: 'raw_parsed_row', id: first.id },
        inputs: {
          parsed_rows: inputs.length,
          parser: first.parser,
          parser_version: first.parserVersion,
          first_row_index: Math.min(...inputs.map((input) => input.row.rowIndex)),
          last_row_index: Math.max(...inputs.map((input) => input.row.rowIndex)),
          ...(this.context.jobId === undefined ? {} : { job_id: this.context.jobId }),
        },
        outputs: flatCounts(counts),
        evidenceIds: artifactIds,
        requestId: this.context.requestId ?? null,
      })
      auditEventId = audited.id
      await this.deps.events.recordMany(tx, tenantId, [
        ...created.flatMap((entry) => ledgerEventsOf('created', entry.kind, entry.row, audited.id)),
        ...updated.flatMap((entry) => ledgerEventsOf('updated', entry.kind, entry.row, audited.id)),
      ])
    }

    const entitiesByRow = new Map<string, EntityResult[]>()
    for (const [rowId, entries] of this.touched) {
      entitiesByRow.set(
        rowId,
        entries.map((entry) => {
          const version = versions.get(`${entry.kind}:${entry.id}`)!
          return { kind: entry.kind, id: entry.id, version_id: version.versionId, version: version.version, outcome: version.outcome }
        }),
      )
    }
    return { counts, entitiesByRow, auditEventId }
  }
}

type Candidate = Pick<TransactionRow, 'id' | 'accountId' | 'amount' | 'status' | 'transactionDate' | 'sourceIds' | 'externalTransactionId'>

/** Dedupe candidates by (account, amount); a transaction a record of the batch has resolved to is taken. */
class CandidatePool {
  private readonly byAccountAmount = new Map<string, Map<string, Candidate>>()
  private readonly claimed = new Set<string>()

  add(candidate: Candidate) {
    const key = `${candidate.accountId}|${candidate.amount}`
    const bucket = this.byAccountAmount.get(key) ?? new Map<string, Candidate>()
    bucket.set(candidate.id, candidate)
    this.byAccountAmount.set(key, bucket)
  }

  claim(id: string) {
    this.claimed.add(id)
  }

  find(accountId: string, amount: string, predicate: (candidate: Candidate) => boolean): Candidate[] {
    const bucket = this.byAccountAmount.get(`${accountId}|${amount}`)
    if (bucket === undefined) return []
    return [...bucket.values()].filter((candidate) => !this.claimed.has(candidate.id) && predicate(candidate))
  }
}

/** Counts as audit outputs: `transaction_created: 3`, `account_unchanged: 1`… (non-zero only). */
export function flatCounts(counts: Partial<Record<LedgerKind, KindCounts>>): Record<string, number> {
  const flat: Record<string, number> = {}
  for (const [kind, tally] of Object.entries(counts)) {
    for (const [outcome, count] of Object.entries(tally)) if (count > 0) flat[`${kind}_${outcome}`] = count
  }
  return flat
}

/** Whether `candidate` is on `day` or up to `days` days before it. */
function inWindow(candidate: string, day: string, days: number): boolean {
  const difference = daysBetween(candidate, day)
  return difference >= 0 && difference <= days
}
