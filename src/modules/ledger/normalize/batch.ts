/**
 * Normalization of one batch of parsed rows into Ledger versions, inside the caller's transaction
 * (docs/raw-and-ledger.md). The batch resolves every record to its entities with a handful of set-wise
 * queries (keys, current versions, dedupe candidates), applies the records in order to drafts of those
 * entities, then writes only the drafts whose content changed, as new versions, with their keys, one
 * audit event and the business events. Running the same batch again changes nothing.
 *
 * The rules are the domain's (../domain/): what a record says (records.ts), keys and ids (keys.ts),
 * which transaction a record is (dedupe.ts), how a record changes a draft (merge.ts), whether a draft
 * is a new version (versions.ts), occurrences, outcomes and events. This file reads, keeps the batch's
 * state (keys, current versions, drafts, what it carries to the next batch) and writes.
 *
 * Phases: (1) accounts and counterparties, which depend on nothing; (2) transactions, whose keys name
 * their account; (3) balances, invoices and obligations, whose ids follow from their keys; (4) apply;
 * (5) write.
 */
import type { AuditActor } from '../../../kernel/audit-record.ts'
import type { ExtractedRecord } from '../../../kernel/extracted-record.ts'
import type { AuditRecorder } from '../../../platform/commands/audit-sink.ts'
import type { Executor, Tx } from '../../../platform/db/database.ts'
import type { EventRecorder } from '../../../platform/outbox/events.ts'
import { candidateQueryOf, transactionEntryOf, TransactionResolver, type TransactionEntry, type TransactionResolution } from '../domain/dedupe.ts'
import type { KeyKind, LedgerKind } from '../domain/entities.ts'
import { balanceIdOf, entityIdOf, invoiceIdOf, invoiceObligationIdOf, obligationIdOf, type NormalizedTexts } from '../domain/keys.ts'
import {
  applyBalance,
  applyInvoice,
  applyObligation,
  mergeAccount,
  mergeCounterparty,
  mergeTransaction,
  newAccount,
  newCounterparty,
  newTransaction,
  transactionDirection,
} from '../domain/merge.ts'
import { flatCounts, type EntityOutcome, type KindCounts, type OutcomeCounts } from '../domain/outcomes.ts'
import {
  accountReferenceOf,
  counterpartyMentionOf,
  ownAccountKeysOf,
  ownAccountKeysOfRecord,
  transactionFacts,
  type AccountReference,
  type CounterpartyMention,
  type TransactionFacts,
} from '../domain/records.ts'
import { nextVersion, type ContentFields } from '../domain/versions.ts'
import { ledgerEventsOf } from '../ledger.events.ts'
import type { LedgerRowByKind, LedgerStore, ParsedRowRecord, TransactionRow } from '../ledger.store.ts'

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
  readonly counterparty: CounterpartyMention | undefined
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

export type { EntityOutcome, KindCounts }

export interface EntityResult {
  readonly kind: LedgerKind
  readonly id: string
  readonly version_id: string
  readonly version: number
  readonly outcome: EntityOutcome
}

export interface BatchResult {
  /** Per kind, how many entities the batch created, updated (new version) and left unchanged. */
  readonly counts: OutcomeCounts
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
  readonly counts: OutcomeCounts
  readonly versions: ReadonlyMap<string, { versionId: string; version: number; outcome: EntityOutcome }>
  readonly created: Array<{ kind: LedgerKind; row: LedgerRowByKind[LedgerKind] }>
  readonly updated: Array<{ kind: LedgerKind; row: LedgerRowByKind[LedgerKind] }>
  /** Per kind: the new versions, and the version ids they supersede. */
  readonly writes: Array<{ kind: LedgerKind; rows: Array<LedgerRowByKind[LedgerKind]>; superseded: string[] }>
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
    const counterpartyIdOf = await this.resolveCounterparties(inputs)

    // (2) Transactions.
    const transactionMatches = await this.resolveTransactions(inputs, accountIdOf)

    // (3) Balances, invoices, obligations: one key each, so the id follows from the key.
    const balanceIds = new Map<BatchInput, string>()
    const invoiceIds = new Map<BatchInput, string>()
    const obligationIds = new Map<BatchInput, string>()
    const linkedInvoices = new Map<BatchInput, string>()
    for (const input of inputs) {
      const record = input.record
      if (record.kind === 'balance') {
        balanceIds.set(input, balanceIdOf(this.tenantId, accountIdOf.get(input)!, record.as_of, record.balance_type))
      } else if (record.kind === 'invoice') {
        const invoiceId = invoiceIdOf(this.tenantId, record.direction, counterpartyIdOf.get(input), record.invoice_number)
        invoiceIds.set(input, invoiceId)
        obligationIds.set(input, invoiceObligationIdOf(this.tenantId, invoiceId))
      } else if (record.kind === 'obligation') {
        obligationIds.set(input, obligationIdOf(this.tenantId, record.obligation_type, record.reference))
        if (record.invoice_number !== undefined && record.direction !== null) {
          linkedInvoices.set(input, invoiceIdOf(this.tenantId, record.direction, counterpartyIdOf.get(input), record.invoice_number))
        }
      }
    }
    await this.load('balance', [...balanceIds.values()])
    await this.load('invoice', [...invoiceIds.values(), ...linkedInvoices.values()])
    await this.load('obligation', [...obligationIds.values()])

    // (4) Apply, in input order.
    for (const input of inputs) {
      const record = input.record
      switch (record.kind) {
        case 'account':
          break // applied with every account ref in resolveAccounts
        case 'transaction':
        case 'wallet_transfer':
          this.applyTransaction(input, input.facts!, accountIdOf.get(input)!, counterpartyIdOf.get(input), transactionMatches.get(input)!)
          break
        case 'balance': {
          const id = balanceIds.get(input)!
          const existing = this.draft('balance', id)
          const draft = applyBalance(existing, this.context, id, input.row, record, accountIdOf.get(input)!)
          if (existing === undefined) this.create('balance', draft)
          this.touch(input, 'balance', id)
          break
        }
        case 'invoice': {
          const invoiceId = invoiceIds.get(input)!
          const obligationId = obligationIds.get(input)!
          const existing = this.draft('invoice', invoiceId)
          const existingObligation = this.draft('obligation', obligationId)
          const { invoice, obligation } = applyInvoice(existing, existingObligation, this.context, { invoiceId, obligationId }, input.row, record, counterpartyIdOf.get(input))
          if (existing === undefined) this.create('invoice', invoice)
          this.touch(input, 'invoice', invoiceId)
          if (existingObligation === undefined) this.create('obligation', obligation)
          this.touch(input, 'obligation', obligationId)
          break
        }
        case 'obligation': {
          const id = obligationIds.get(input)!
          const linkedInvoiceId = linkedInvoices.get(input)
          // The invoice the record names is linked when it exists (in the Ledger or earlier in the batch).
          const invoiceId = linkedInvoiceId !== undefined && this.draft('invoice', linkedInvoiceId) !== undefined ? linkedInvoiceId : null
          const existing = this.draft('obligation', id)
          const draft = applyObligation(existing, this.context, id, input.row, record, counterpartyIdOf.get(input), invoiceId)
          if (existing === undefined) this.create('obligation', draft)
          this.touch(input, 'obligation', id)
          break
        }
      }
    }
  }

  // ——— helpers over keys, currents and drafts ———

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
      const id = this.resolve(kind, entry.keys) ?? entityIdOf(kind, this.tenantId, entry.keys[0]!)
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

  // ——— (1) accounts ———

  private async resolveAccounts(inputs: readonly BatchInput[]): Promise<Map<BatchInput, string>> {
    const refs = new Map<BatchInput, AccountReference>()
    for (const input of inputs) {
      if (input.account !== undefined) refs.set(input, input.account)
    }
    // Transfers between own accounts: the counterparty's IBAN or wallet may be one of the tenant's accounts.
    const ownKeys = inputs.flatMap((input) => ownAccountKeysOfRecord(input.record))
    const idOf = await this.resolveByKeys('account', refs, ownKeys)

    for (const [input, entry] of refs) {
      const id = idOf.get(input)!
      const accountRecord = input.record.kind === 'account' ? input.record : undefined
      const draft = this.draft('account', id) ?? this.create('account', newAccount(this.context, id, input.row, entry, accountRecord))
      mergeAccount(draft, entry.ref, accountRecord, input.row)
      this.touch(input, 'account', id)
    }
    return idOf
  }

  // ——— (1) counterparties ———

  private async resolveCounterparties(inputs: readonly BatchInput[]): Promise<Map<BatchInput, string>> {
    const mentions = new Map<BatchInput, CounterpartyMention>()
    for (const input of inputs) {
      if (input.counterparty !== undefined) mentions.set(input, input.counterparty)
    }
    const idOf = await this.resolveByKeys('counterparty', mentions)
    for (const [input, mention] of mentions) {
      const id = idOf.get(input)!
      const draft = this.draft('counterparty', id) ?? this.create('counterparty', newCounterparty(this.context, id, input.row, mention))
      mergeCounterparty(draft, mention, input.row)
      this.touch(input, 'counterparty', id)
    }
    return idOf
  }

  // ——— (2) transactions ———

  private async resolveTransactions(inputs: readonly BatchInput[], accountIdOf: ReadonlyMap<BatchInput, string>): Promise<Map<BatchInput, TransactionResolution>> {
    const entries: Array<{ readonly input: BatchInput; readonly entry: TransactionEntry }> = []
    for (const input of inputs) {
      if (input.facts === undefined) continue
      entries.push({ input, entry: transactionEntryOf(accountIdOf.get(input)!, input.facts, input.occurrence, input.row.rawArtifactId) })
    }
    if (entries.length === 0) return new Map()
    const allKeys = entries.flatMap(({ entry }) => (entry.pendingKey === undefined ? entry.keys : [...entry.keys, entry.pendingKey]))
    const keyMap = this.keyMaps.transaction
    await this.lookupKeys('transaction', allKeys)
    // A transaction's id is derived from the key it was first recorded under (its seed), which is not
    // stored: a key whose derived id names a current transaction resolves to it.
    const derivedIdOf = new Map<string, string>()
    for (const key of allKeys) if (!keyMap.has(key)) derivedIdOf.set(key, entityIdOf('transaction', this.tenantId, key))
    await this.load('transaction', [...derivedIdOf.values()])
    for (const [key, id] of derivedIdOf) if (this.draft('transaction', id) !== undefined) keyMap.set(key, id)

    // What the keys found, to check that an external id names the same transaction (rule 3).
    await this.load('transaction', entries.flatMap(({ entry }) => entry.keys.map((key) => keyMap.get(key)).filter((id): id is string => id !== undefined)))
    const resolver = new TransactionResolver(this.tenantId, keyMap, (id) => this.draft('transaction', id), derivedIdOf)

    // Dedupe candidates for the records no key finds (pending → posted, another source's copy).
    const query = candidateQueryOf(entries.filter(({ entry }) => resolver.byKeys(entry) === undefined).map(({ entry }) => entry))
    if (query !== undefined) {
      const { probes, dateFrom, dateTo } = query
      const rows = await this.deps.store.transactionCandidates(this.reader, this.tenantId, probes, dateFrom, dateTo)
      // The previous batch's transactions as they are after its writes, which the query may not see yet.
      const carried = this.carried?.currents.get('transaction') as ReadonlyMap<string, TransactionRow | undefined> | undefined
      for (const row of rows) if (carried?.has(row.id) !== true) resolver.pool.add(row)
      if (carried !== undefined) {
        const probed = new Set(probes.map((probe) => `${probe.accountId}|${probe.amount}`))
        for (const row of carried.values()) {
          if (row !== undefined && probed.has(`${row.accountId}|${row.amount}`) && row.transactionDate >= dateFrom && row.transactionDate <= dateTo) resolver.pool.add(row)
        }
      }
    }

    const result = new Map<BatchInput, TransactionResolution>()
    for (const { input, entry } of entries) {
      const resolution = resolver.resolve(entry)
      this.bind('transaction', entry.keys, resolution.id, resolution.seed)
      result.set(input, resolution)
    }
    await this.load('transaction', [...new Set([...result.values()].map((entry) => entry.id))])
    return result
  }

  private applyTransaction(input: BatchInput, facts: TransactionFacts, accountId: string, counterpartyId: string | undefined, resolution: TransactionResolution) {
    const { id } = resolution
    const existing = this.draft('transaction', id)
    if (existing === undefined) {
      const ownAccountId = this.resolve('account', ownAccountKeysOf(facts.counterparty, facts.chainId))
      this.create('transaction', newTransaction(this.context, id, input.row, facts, accountId, counterpartyId, transactionDirection(facts.amount, accountId, ownAccountId), resolution))
    } else {
      mergeTransaction(existing, facts, input.row, counterpartyId, resolution.match)
    }
    this.touch(input, 'transaction', id)
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
