/**
 * Runs normalization (docs/raw-and-ledger.md): an artifact's parsed rows in batches, or one parsed row.
 *
 * An artifact is normalized in batches of parsed rows (`batchRows`), each written in its own transaction
 * under the tenant's normalization lock: memory stays flat however long the statement, and a run that
 * stops part way is simply run again — every batch is idempotent, so the rows already written resolve
 * to themselves.
 *
 * How the batches follow each other depends on the database:
 * - **One after another** (PGlite, and a run of one batch): each batch takes the lock, reads, computes
 *   and writes in one transaction; other work (on PGlite, every other request) proceeds between batches.
 * - **Pipelined** (PostgreSQL): the run holds the tenant's lock for its whole length on a dedicated
 *   connection, where each batch's writes run while the next batch reads (on the pool) and computes.
 *   The next batch cannot see writes that have not committed, so the previous batch carries what it
 *   knew and wrote (`BatchCarry`); anything older committed before the next batch's reads began, since
 *   at most one batch is being written at a time. Node and PostgreSQL then work at the same time
 *   instead of taking turns. Other Ledger writers of the tenant (trust changes, reconciliation) wait
 *   for the end of the run rather than for the end of a batch.
 */
import { Compile } from 'typebox/compile'
import type { AuditActor } from '../../../kernel/audit-record.ts'
import type { Database, Executor, Tx } from '../../../platform/db/database.ts'
import type { Clock } from '../../../kernel/clock.ts'
import { AccountRecord, BalanceRecord, ExtractedRecord, InvoiceRecord, ObligationRecord, TransactionRecord, WalletTransferRecord } from '../../../kernel/extracted-record.ts'
import type { LedgerKind, LedgerStore, ParsedRowRecord } from '../ledger.store.ts'
import {
  batchInputOf,
  normalizeBatch,
  prepareBatch,
  type BatchCarry,
  type BatchContext,
  type BatchDeps,
  type BatchInput,
  type EntityResult,
  type KindCounts,
} from './batch.ts'
import { occurrenceAmongEarlier, OccurrenceCounter } from './occurrences.ts'
import { NormalizedTexts } from '../domain/keys.ts'
import { addCounts } from '../domain/outcomes.ts'
import { ContentFields } from '../domain/versions.ts'

/**
 * Parsed rows per normalization batch (one transaction, one audit event). Batches one after another stay
 * short, since on PGlite every other request waits for them; pipelined ones are larger, since each carries
 * a fixed cost of round trips that the pipeline cannot overlap (bench/ledger.ts: 100,000 rows normalized
 * in 8.2–8.6 s with 4,000, 9.8 s with 2,000, no better with 8,000).
 */
export const batchRows = { oneAfterAnother: 2_000, pipelined: 4_000 } as const

const extractedRecord = Compile(ExtractedRecord)

/** Refused rows a run keeps with their reasons (the first ones, by row); the rest are only counted. */
export const refusedRowsKeptMax = 20
/** A refusal's reason as kept. */
export const refusalReasonCharsMax = 300

/** A parsed row normalization refused: its record is not one the Ledger knows. */
export interface RefusedRow {
  readonly row_index: number
  readonly parsed_row_id: string
  readonly reason: string
}

/**
 * How far a run has got, as its job records it (`ledger_jobs.progress`): parsed rows done of the total
 * (of the artifact's current parser version), what the batches written so far did, and the rows refused.
 */
export interface RunProgress {
  readonly rows_done: number
  readonly rows_total: number
  readonly counts: Partial<Record<LedgerKind, KindCounts>>
  readonly refused_rows: number
  /** The first `refusedRowsKeptMax` refused rows. */
  readonly refused: readonly RefusedRow[]
}

export interface RunSummary {
  readonly artifact_id: string
  readonly parser: string | null
  readonly parser_version: string | null
  readonly parsed_rows: number
  /** Parsed rows whose `extracted` is not a record normalization knows (a parser bug); skipped. */
  readonly rejected_rows: number
  /** The first of them (`refusedRowsKeptMax`), with the reason. */
  readonly refused: readonly RefusedRow[]
  readonly batches: number
  readonly counts: Partial<Record<LedgerKind, KindCounts>>
  /** Why nothing was normalized, when nothing was. */
  readonly skipped?: 'artifact_not_found' | 'artifact_tombstoned' | 'not_extracted'
}

export interface RunOptions {
  readonly actor: AuditActor
  readonly jobId?: string
  readonly requestId?: string
  /**
   * Records the run's progress: once before the first batch (with the total), then inside each batch's
   * own transaction after its writes (so progress commits with what it counts). Runs of an artifact only.
   */
  readonly onProgress?: (executor: Executor, progress: RunProgress) => Promise<void>
}

/** What one parsed row became; `rejected` when its record is not one normalization knows. */
export interface ParsedRowOutcome {
  readonly row: ParsedRowRecord
  readonly entities: readonly EntityResult[]
  readonly rejected: boolean
}

export interface Normalizer {
  normalizeArtifact(tenantId: string, artifactId: string, options: RunOptions): Promise<RunSummary>
  /** One parsed row, whatever its parser version, in a transaction of its own; undefined when the tenant has no such row. */
  normalizeParsedRow(tenantId: string, parsedRowId: string, options: RunOptions): Promise<ParsedRowOutcome | undefined>
  /**
   * The same inside the caller's transaction (a command's: POST /v1/ledger/normalize), which it locks
   * under the tenant's Ledger lock and reads and writes through; the batch's audit event and business
   * events are recorded there too.
   */
  normalizeParsedRowIn(tx: Tx, tenantId: string, parsedRowId: string, options: RunOptions): Promise<ParsedRowOutcome | undefined>
}

export interface NormalizerDeps extends BatchDeps {
  readonly db: Database
  readonly store: LedgerStore
  readonly clock: Clock
  /** Parsed rows per batch, either way; `batchRows` unless a test wants many small ones. */
  readonly batchRows?: number
  /** Pipeline the batches where the database allows it (the default); false runs them one after another. */
  readonly pipeline?: boolean
}

/** The row's record, or undefined when it is not one normalization knows. */
function recordOf(row: ParsedRowRecord): ExtractedRecord | undefined {
  return extractedRecordOf(row.extracted)
}

/** A parsed row's `extracted` as a record normalization knows, or undefined (reconciliation reads evidence with it too). */
export function extractedRecordOf(extracted: unknown): ExtractedRecord | undefined {
  return extractedRecord.Check(extracted) ? extracted : undefined
}

/** Each record kind's schema, to say why a row of that kind is refused (the union's errors name no field). */
const recordCheckers = {
  account: Compile(AccountRecord),
  transaction: Compile(TransactionRecord),
  balance: Compile(BalanceRecord),
  invoice: Compile(InvoiceRecord),
  obligation: Compile(ObligationRecord),
  wallet_transfer: Compile(WalletTransferRecord),
} as const

/** Why a row's `extracted` is not a record normalization knows: an unknown kind, or its kind's first schema error. */
export function refusalReason(extracted: unknown): string {
  const kind = (extracted as { kind?: unknown } | null)?.kind
  const checker = typeof kind === 'string' && Object.hasOwn(recordCheckers, kind) ? recordCheckers[kind as keyof typeof recordCheckers] : undefined
  const [first] = checker === undefined ? [] : checker.Errors(extracted)
  const problem =
    checker === undefined
      ? `kind ${JSON.stringify(kind ?? null)} is not one of ${Object.keys(recordCheckers).join(', ')}`
      : `kind ${JSON.stringify(kind)}: ${first === undefined ? 'does not match the schema' : `${first.instancePath === '' ? '/' : first.instancePath} ${first.message}`}`
  const reason = `not a record the Ledger knows: ${problem}`
  return reason.length <= refusalReasonCharsMax ? reason : `${reason.slice(0, refusalReasonCharsMax - 1)}…`
}

/**
 * What a run works out once and reuses (recent text normalizations, the content fields of its row
 * shapes): created per run and dropped with it, so nothing is shared between runs or tenants.
 */
interface RunMemory {
  readonly recent: NormalizedTexts
  readonly contentFields: ContentFields
}

function runMemory(): RunMemory {
  return { recent: new NormalizedTexts(), contentFields: new ContentFields() }
}

/** What the run had done once a batch is written: its progress but for the counts, which the batch adds. */
type ProgressSnapshot = Omit<RunProgress, 'counts'>

/**
 * Writes a run's batches in order; `finish` resolves when every batch has committed. Each batch records
 * `progress` (with the run's counts up to it) in its own transaction; a page with no inputs records it alone.
 */
interface BatchWriter {
  write(inputs: readonly BatchInput[], progress: ProgressSnapshot): Promise<void>
  finish(): Promise<void>
}

export function createNormalizer(deps: NormalizerDeps): Normalizer {
  const { db, store, clock } = deps
  const dedicatedConnection = deps.pipeline === false ? undefined : db.dedicatedConnection

  const contextOf = (tenantId: string, options: RunOptions & { collectEntities?: boolean }, memory: RunMemory): BatchContext => ({
    tenantId,
    actor: options.actor,
    requestId: options.requestId,
    jobId: options.jobId,
    collectEntities: options.collectEntities,
    at: clock.now(),
    contentFields: memory.contentFields,
  })

  /**
   * A batch's commit need not wait for its WAL flush when a job runs it: a later synchronous commit (the
   * job's outcome) flushes it, and a batch lost to a crash before that is redone by the job's retry
   * (idempotent).
   */
  const relaxed = async (tx: Tx, options: RunOptions) => {
    if (options.jobId !== undefined) await store.relaxCommit(tx)
  }

  /** Records the run's progress in `executor` (a batch's transaction), with the counts of the batches written. */
  const report = async (executor: Executor, options: RunOptions, progress: ProgressSnapshot, counts: Partial<Record<LedgerKind, KindCounts>>) => {
    await options.onProgress?.(executor, { ...progress, counts: structuredClone(counts) })
  }

  async function runBatch(
    tenantId: string,
    inputs: readonly BatchInput[],
    options: RunOptions & { collectEntities?: boolean },
    memory: RunMemory,
    written?: (tx: Tx, result: Awaited<ReturnType<typeof normalizeBatch>>) => Promise<void>,
  ) {
    return db.transaction(async (tx) => {
      await relaxed(tx, options)
      await store.lockTenant(tx, tenantId)
      const result = await normalizeBatch(tx, deps, contextOf(tenantId, options, memory), inputs)
      await written?.(tx, result)
      return result
    })
  }

  /** Batches one after another, each in one transaction: lock, read, compute, write. */
  async function oneAfterAnother(
    tenantId: string,
    options: RunOptions,
    memory: RunMemory,
    counts: Partial<Record<LedgerKind, KindCounts>>,
    run: (writer: BatchWriter) => Promise<void>,
  ) {
    await run({
      async write(inputs, progress) {
        if (inputs.length === 0) return report(db.orm, options, progress, counts)
        await runBatch(tenantId, inputs, options, memory, async (tx, result) => {
          addCounts(counts, result.counts)
          await report(tx, options, progress, counts)
        })
      },
      finish: async () => undefined,
    })
  }

  /** Batches pipelined on a dedicated connection that holds the tenant's lock for the whole run (see above). */
  async function pipelined(
    connectionOf: NonNullable<Database['dedicatedConnection']>,
    tenantId: string,
    options: RunOptions,
    memory: RunMemory,
    counts: Partial<Record<LedgerKind, KindCounts>>,
    run: (writer: BatchWriter) => Promise<void>,
  ) {
    await connectionOf(async (connection) => {
      await store.holdTenant(connection, tenantId)
      let writing: Promise<void> = Promise.resolve()
      let carry: BatchCarry | undefined
      try {
        await run({
          async write(inputs, progress) {
            if (inputs.length === 0) {
              // Nothing to write, but the progress goes after the batches before it, on their connection.
              const before = writing
              writing = before.then(() => report(connection, options, progress, counts))
              writing.catch(() => undefined)
              return
            }
            const prepared = await prepareBatch(db.orm, deps, contextOf(tenantId, options, memory), inputs, carry)
            // At most one batch in flight: the previous one commits before this one's writes start, so
            // the batch after this one reads everything older than this one as committed.
            await writing
            carry = prepared.carry
            writing = connection.transaction(async (tx) => {
              await relaxed(tx, options)
              addCounts(counts, (await prepared.write(tx)).counts)
              await report(tx, options, progress, counts)
            })
            // Awaited by the next batch or by finish; a failure meanwhile must not count as unhandled.
            writing.catch(() => undefined)
          },
          finish: () => writing,
        })
      } catch (error) {
        // Never give the connection back mid-transaction. A failed run's connection is closed, which
        // releases the lock with it (and keeps this error, rather than an unlock's on a broken connection).
        await writing.catch(() => undefined)
        throw error
      }
      await store.releaseTenant(connection, tenantId)
    })
  }

  /** The records of an artifact's earlier rows of one day (for occurrence counting). */
  const earlierRowsOf =
    (executor: Executor, tenantId: string, artifactId: string, parser: string, parserVersion: string) =>
    async (day: string, beforeRowIndex: number): Promise<ExtractedRecord[]> =>
      (await store.parsedRecordsOfDay(executor, tenantId, artifactId, parser, parserVersion, day, beforeRowIndex)).filter((extracted): extracted is ExtractedRecord =>
        extractedRecord.Check(extracted),
      )

  return {
    async normalizeArtifact(tenantId, artifactId, options) {
      const artifact = await store.findArtifact(db.orm, tenantId, artifactId)
      const refused: RefusedRow[] = []
      const summary = { artifact_id: artifactId, parser: artifact?.parser ?? null, parser_version: artifact?.parserVersion ?? null, parsed_rows: 0, rejected_rows: 0, refused, batches: 0 }
      if (artifact === undefined) return { ...summary, counts: {}, skipped: 'artifact_not_found' }
      if (artifact.status === 'tombstoned') return { ...summary, counts: {}, skipped: 'artifact_tombstoned' }
      if (artifact.parser === null || artifact.parserVersion === null) return { ...summary, counts: {}, skipped: 'not_extracted' }

      const counts: Partial<Record<LedgerKind, KindCounts>> = {}
      const memory = runMemory()
      // Occurrences count identical rows across the whole artifact, so they carry over between batches.
      const occurrences = new OccurrenceCounter(earlierRowsOf(db.orm, tenantId, artifactId, artifact.parser, artifact.parserVersion), memory.recent)
      const pipelining = dedicatedConnection !== undefined
      const rowsPerBatch = deps.batchRows ?? (pipelining ? batchRows.pipelined : batchRows.oneAfterAnother)
      const readPage = (after: number) => store.parsedRows(db.orm, tenantId, artifactId, artifact.parser!, artifact.parserVersion!, after, rowsPerBatch)
      const rowsTotal = options.onProgress === undefined ? 0 : await store.countParsedRows(db.orm, tenantId, artifactId, artifact.parser, artifact.parserVersion)
      await report(db.orm, options, { rows_done: 0, rows_total: rowsTotal, refused_rows: 0, refused: [] }, counts)
      /**
       * A page's rows as batch inputs: everything that depends on the rows alone (the record check,
       * occurrences, batchInputOf). Pages are prepared strictly in order (the occurrence counter is
       * sequential): page N+1 is read and prepared while batch N writes, so the CPU work of one
       * overlaps the database work of the other.
       */
      const prepare = async (page: readonly ParsedRowRecord[]) => {
        const inputs: BatchInput[] = []
        let rejected = 0
        const pageRefused: RefusedRow[] = []
        for (const row of page) {
          const record = recordOf(row)
          if (record === undefined) {
            rejected += 1
            if (pageRefused.length < refusedRowsKeptMax) pageRefused.push({ row_index: row.rowIndex, parsed_row_id: row.id, reason: refusalReason(row.extracted) })
            continue
          }
          const counted = occurrences.next(record, row.rowIndex)
          // A promise only when a day's counts must be read again: no microtask turn per row otherwise.
          const occurrence = typeof counted === 'number' ? counted : await counted
          inputs.push(batchInputOf(row, record, occurrence, memory.recent))
        }
        return { rows: page.length, lastRowIndex: page[page.length - 1]?.rowIndex ?? -1, inputs, rejected, refused: pageRefused }
      }
      const prepareNext = (after: number) => {
        const prepared = readPage(after).then(prepare)
        // Awaited on the next turn; a failure while this batch runs must not count as unhandled.
        prepared.catch(() => undefined)
        return prepared
      }
      const first = await prepareNext(-1)
      const runPages = async (writer: BatchWriter) => {
        let prepared = first
        while (prepared.rows > 0) {
          const next = prepared.rows < rowsPerBatch ? undefined : prepareNext(prepared.lastRowIndex)
          summary.parsed_rows += prepared.rows
          summary.rejected_rows += prepared.rejected
          refused.push(...prepared.refused.slice(0, refusedRowsKeptMax - refused.length))
          // The progress as of this page, taken now: in a pipeline the next page is counted before this one commits.
          const progress = { rows_done: summary.parsed_rows, rows_total: Math.max(rowsTotal, summary.parsed_rows), refused_rows: summary.rejected_rows, refused: [...refused] }
          if (prepared.inputs.length > 0) summary.batches += 1
          if (prepared.inputs.length > 0 || options.onProgress !== undefined) await writer.write(prepared.inputs, progress)
          if (next === undefined) break
          prepared = await next
        }
        await writer.finish()
      }
      // A run of one batch has nothing to overlap: it keeps to the shorter lock.
      if (pipelining && first.rows === rowsPerBatch) await pipelined(dedicatedConnection, tenantId, options, memory, counts, runPages)
      else await oneAfterAnother(tenantId, options, memory, counts, runPages)
      return { ...summary, counts }
    },

    async normalizeParsedRow(tenantId, parsedRowId, options) {
      return db.transaction(async (tx) => {
        await relaxed(tx, options)
        return normalizeParsedRowIn(tx, tenantId, parsedRowId, options)
      })
    },

    normalizeParsedRowIn,
  }

  async function normalizeParsedRowIn(tx: Tx, tenantId: string, parsedRowId: string, options: RunOptions): Promise<ParsedRowOutcome | undefined> {
    await store.lockTenant(tx, tenantId)
    const row = await store.findParsedRow(tx, tenantId, parsedRowId)
    if (row === undefined) return undefined
    const record = recordOf(row)
    if (record === undefined) return { row, entities: [], rejected: true }
    const memory = runMemory()
    const occurrence = await occurrenceAmongEarlier(record, row.rowIndex, earlierRowsOf(tx, tenantId, row.rawArtifactId, row.parser, row.parserVersion), memory.recent)
    const result = await normalizeBatch(tx, deps, contextOf(tenantId, { ...options, collectEntities: true }, memory), [batchInputOf(row, record, occurrence, memory.recent)])
    return { row, entities: result.entitiesByRow.get(row.id) ?? [], rejected: false }
  }
}
