/**
 * Which transaction a transaction record is (docs/raw-and-ledger.md, "Natural keys and dedupe", rules
 * 1–4): its keys, whether an external id agrees with the transaction it names, the pending → posted and
 * cross-source rules over dedupe candidates, and the seed of a new transaction's id. The caller reads
 * the keys, current versions and candidates; these rules decide.
 */
import type { Transaction, TransactionStatus } from './entities.ts'
import { addDays, daysBetween } from '../../../kernel/dates.ts'
import { entityIdOf, transactionFingerprint } from './keys.ts'
import type { TransactionFacts } from './records.ts'

/** Transaction statuses in the order a transaction moves through them: a later status replaces an earlier one. */
export const transactionStatusRank: Readonly<Record<TransactionStatus, number>> = { pending: 0, posted: 1, cleared: 2, failed: 3, reversed: 3, disputed: 3 }

/** Days apart beyond which one external id names two transactions (a reused reference), not one. */
export const externalIdDaysMax = 10
/** Days before a posted record within which the pending transaction it settles is looked for. */
export const pendingDaysMax = 7

/** A transaction record to resolve: its account, facts and keys. */
export interface TransactionEntry {
  readonly accountId: string
  readonly facts: TransactionFacts
  /** Strongest first: `ext:<account>:<external id>` when it has one, then `fp:<fingerprint>:<occurrence>`. */
  readonly keys: readonly string[]
  /** The key of the pending transaction the record names as the one it replaces. */
  readonly pendingKey: string | undefined
  /** The artifact the record comes from (a cross-source copy comes from another one). */
  readonly rawArtifactId: string
}

/** A record's keys (rule 1: `occurrence` is the k-th identical row of its artifact). */
export function transactionEntryOf(accountId: string, facts: TransactionFacts, occurrence: number, rawArtifactId: string): TransactionEntry {
  const fingerprintKey = `fp:${transactionFingerprint(accountId, facts.transactionDate, facts.amount, facts.descriptionNormalized)}:${occurrence}`
  return {
    accountId,
    facts,
    keys: facts.externalId === undefined ? [fingerprintKey] : [`ext:${accountId}:${facts.externalId}`, fingerprintKey],
    pendingKey: facts.pendingExternalId === undefined ? undefined : `ext:${accountId}:${facts.pendingExternalId}`,
    rawArtifactId,
  }
}

/** What the external-id check needs of the transaction a key names. */
export type KnownTransaction = Pick<Transaction, 'amount' | 'status' | 'transactionDate'>

/**
 * Rule 3: an external id names the known transaction only if it agrees — the same amount (unless the
 * known one is pending: a pending transaction may post at another amount) and dates at most
 * `externalIdDaysMax` apart. Banks reuse references (entry numbers restarting with every statement, a
 * customer's payment reference), and merging on them would lose money.
 */
export function externalIdAgrees(known: KnownTransaction, facts: Pick<TransactionFacts, 'amount' | 'transactionDate'>): boolean {
  const sameAmount = known.amount === facts.amount || known.status === 'pending'
  return sameAmount && Math.abs(daysBetween(known.transactionDate, facts.transactionDate)) <= externalIdDaysMax
}

/** A dedupe candidate: a current transaction, or a new one of the batch. */
export type Candidate = Pick<Transaction, 'id' | 'accountId' | 'amount' | 'status' | 'transactionDate' | 'sourceIds' | 'externalTransactionId'>

/** The dedupe candidate query for the records no key finds: their (account, amount) pairs, dated up to `pendingDaysMax` days before the earliest. */
export function candidateQueryOf(unresolved: readonly TransactionEntry[]): { probes: Array<{ accountId: string; amount: string }>; dateFrom: string; dateTo: string } | undefined {
  if (unresolved.length === 0) return undefined
  const dates = unresolved.map((entry) => entry.facts.transactionDate).sort()
  return {
    probes: unresolved.map((entry) => ({ accountId: entry.accountId, amount: entry.facts.amount })),
    dateFrom: addDays(dates[0]!, -pendingDaysMax),
    dateTo: dates[dates.length - 1]!,
  }
}

/** Dedupe candidates by (account, amount); a transaction a record of the batch has resolved to is taken. */
export class CandidatePool {
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

  /** The unclaimed candidates of the account and amount that pass `predicate`. */
  find(accountId: string, amount: string, predicate: (candidate: Candidate) => boolean): Candidate[] {
    const bucket = this.byAccountAmount.get(`${accountId}|${amount}`)
    if (bucket === undefined) return []
    return [...bucket.values()].filter((candidate) => !this.claimed.has(candidate.id) && predicate(candidate))
  }
}

/** How a transaction record found its entity. */
export type TransactionMatch = 'new' | 'key' | 'pending' | 'fuzzy' | 'ambiguous'

export interface TransactionResolution {
  readonly id: string
  readonly match: TransactionMatch
  /** For an ambiguous record: the transactions it could be a copy of, sorted. */
  readonly candidates: string[]
  /** For a new transaction: the key its id derives from (it needs no key row). */
  readonly seed: string | undefined
}

/** Whether `candidate` is on `day` or up to `days` days before it. */
export function inWindow(candidate: string, day: string, days: number): boolean {
  const difference = daysBetween(candidate, day)
  return difference >= 0 && difference <= days
}

/**
 * Resolves a batch's transaction records one after another (rules 1–4). The caller owns the key map
 * (keys known so far: the store's, the previous batch's and those it binds after each resolution) and
 * the drafts; the resolver keeps what the batch decided (its new transactions, which later records may
 * settle or copy) and the candidates.
 */
export class TransactionResolver {
  /** The batch's new transactions, for the external-id check of later records. */
  private readonly decided = new Map<string, KnownTransaction>()
  readonly pool = new CandidatePool()

  /**
   * `keys`: transaction key → entity id, as far as known (the caller binds each resolution's keys to
   * it); `draftOf`: the draft of a loaded transaction; `derivedIdOf`: the ids the keys nobody holds
   * would seed.
   */
  constructor(
    private readonly tenantId: string,
    private readonly keys: ReadonlyMap<string, string>,
    private readonly draftOf: (id: string) => KnownTransaction | undefined,
    private readonly derivedIdOf: ReadonlyMap<string, string>,
  ) {}

  /** The entity of the record's first key that has one, skipping an external id that does not agree (rule 3). */
  byKeys(entry: TransactionEntry): string | undefined {
    for (const key of entry.keys) {
      const id = this.keys.get(key)
      if (id === undefined) continue
      if (!key.startsWith('ext:')) return id
      const known = this.draftOf(id) ?? this.decided.get(id)
      if (known === undefined || externalIdAgrees(known, entry.facts)) return id
    }
    return undefined
  }

  /**
   * The record's transaction: by its keys; else the pending one it names (rule 4); else, for a posted
   * record, the one pending candidate of its account and amount dated up to `pendingDaysMax` days before
   * (rule 4); else the one same-day candidate from another artifact without a conflicting external id
   * (rule 2; two or more: a new transaction, ambiguous); else a new transaction seeded by its first key
   * nobody holds. The transaction is then taken: no later record of the batch merges into it by rule
   * (pending → posted or cross-source), only by a key.
   */
  resolve(entry: TransactionEntry): TransactionResolution {
    const { facts } = entry
    let id = this.byKeys(entry)
    let match: TransactionMatch = 'key'
    let candidates: string[] = []
    if (id === undefined && entry.pendingKey !== undefined) {
      id = this.keys.get(entry.pendingKey)
      match = 'pending'
    }
    if (id === undefined && transactionStatusRank[facts.status] >= transactionStatusRank.posted) {
      const found = this.pool.find(entry.accountId, facts.amount, (row) => row.status === 'pending' && inWindow(row.transactionDate, facts.transactionDate, pendingDaysMax))
      if (found.length === 1) {
        id = found[0]!.id
        match = 'pending'
      }
    }
    if (id === undefined) {
      const found = this.pool.find(
        entry.accountId,
        facts.amount,
        (row) =>
          row.transactionDate === facts.transactionDate &&
          !row.sourceIds.includes(entry.rawArtifactId) &&
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
      seed = entry.keys.find((key) => !this.keys.has(key)) ?? entry.keys[entry.keys.length - 1]!
      id = this.derivedIdOf.get(seed) ?? entityIdOf('transaction', this.tenantId, seed)
      if (match !== 'ambiguous') match = 'new'
      this.decided.set(id, { amount: facts.amount, status: facts.status, transactionDate: facts.transactionDate })
      // It joins the candidates, but as taken (claimed below, like every transaction a record resolved
      // to): a later record of the batch reaches it by its keys only, so a posted record does not settle
      // a pending one of the same batch by the 7-day rule.
      this.pool.add({
        id,
        accountId: entry.accountId,
        amount: facts.amount,
        status: facts.status,
        transactionDate: facts.transactionDate,
        sourceIds: [entry.rawArtifactId],
        externalTransactionId: facts.externalId ?? null,
      })
    }
    this.pool.claim(id)
    return { id, match, candidates, seed }
  }
}
