/**
 * The `raw-extract` job: reads one artifact with the parser the registry selects and writes its parsed
 * rows, then hands the artifact to the Ledger.
 *
 * - No parser accepts the artifact: `extraction_status = skipped` (the bytes are kept; nothing is read).
 * - Otherwise `running`, then ONE transaction, holding the artifact's row lock, writes every parsed row of
 *   the artifact (a bulk write per `parsedRowBatchRows` rows, a COPY on PostgreSQL; `row_index` in the
 *   parser's order, deterministic ids; a re-run skips the rows that exist, so it adds nothing), records
 *   the attachments a parser yields (an e-mail's files) as child artifacts with their own `raw-extract`
 *   jobs, marks the artifact `succeeded`, and creates the Ledger's normalization job (a `ledger_jobs` row
 *   and a `ledger-normalize` job).
 * - Both transitions out of `pending` and the extraction itself re-read the artifact under its row lock:
 *   a second run of the same extraction that waited behind the first finds it settled and changes nothing.
 * - A ParseError (a file the parser cannot read) or a record that breaks the ExtractedRecord contract (a
 *   parser bug) rolls all of that back and ends `failed` with the reason; the job is not retried, since
 *   it would fail the same way. Any other error (storage, database) also ends `failed` with the reason,
 *   and the job throws so that pg-boss retries it per the queue's policy.
 *
 * Records are never collected: the parser yields them one by one and they are flushed every
 * `parsedRowBatchRows`, so a 100,000-row statement takes the memory of one batch. Every status change is
 * audited (layer raw, actor system) and emits `raw.extraction.status_changed`.
 */
import { Readable } from 'node:stream'
import { Compile } from 'typebox/compile'
import type { Clock } from '../../kernel/clock.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import type { JobHandler, JobQueue, PayloadOf } from '../../platform/jobs/job-queue.ts'
import { rawExtractQueue } from './raw.jobs.ts'
import { deterministicId } from '../../kernel/ids.ts'
import type { BlobStore } from '../../platform/storage/blob-store.ts'
import { putBuffer, type ArtifactRecorder, type Attribution } from './artifacts.ts'
import { AccountRecord, BalanceRecord, InvoiceRecord, ObligationRecord, TransactionRecord, WalletTransferRecord } from './domain/extracted.ts'
import { decideMediaType } from './domain/media-types.ts'
import { ParseError, type Parser, type ParserInput } from './parsers/parser.ts'
import { artifactBytesMax } from './ingest-rules.ts'
import type { ArtifactRow, ParsedRowRow, RawStore } from './raw.store.ts'
import type { ContributionHolds, LedgerIntake } from './ports.ts'

/**
 * Parsed rows per bulk write (a COPY on PostgreSQL, else one `json_to_recordset` INSERT; db/bulk.ts):
 * extraction of 100,000 CSV rows on PostgreSQL took 2.0–2.2 s with 1,000, 1.76–1.81 s with 4,000 and no
 * less with 8,000 (interleaved runs); a batch's memory is a few megabytes.
 */
export const parsedRowBatchRows = 4_000
/** The first bytes a parser's `accepts` sees. */
export const headBytesMax = 64 * 1024
/** Attachments one artifact may yield (an e-mail with more is refused as malformed). */
export const attachmentsPerArtifactMax = 100
/** A failure reason as stored and announced. */
export const extractionReasonCharsMax = 500

export type ParserSelector = (input: Pick<ParserInput, 'sourceType' | 'mimeType' | 'filename' | 'head'>) => Parser | undefined

/** A parser broke its contract (a record that is not an ExtractedRecord, a confidence outside 0..1): a bug in the parser, not in the file. */
export class ParserContractError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ParserContractError'
  }
}

export interface ExtractionDeps {
  readonly db: Database
  /** Commits each status change's audit event and business event, and each attachment's, in extraction's transactions. */
  readonly commands: CommandRunner
  readonly store: RawStore
  readonly blobs: BlobStore
  readonly jobs: Pick<JobQueue, 'nudge'>
  readonly clock: Clock
  readonly recorder: ArtifactRecorder
  readonly selectParser: ParserSelector
  readonly ledgerIntake: LedgerIntake
  /** Whether the artifact's contributor is under a contribution hold (its artifact then waits for the release). */
  readonly contributionHolds: ContributionHolds
}

const system = { type: 'system', id: 'raw-extract' } as const

const recordCheckers = {
  account: Compile(AccountRecord),
  transaction: Compile(TransactionRecord),
  balance: Compile(BalanceRecord),
  invoice: Compile(InvoiceRecord),
  obligation: Compile(ObligationRecord),
  wallet_transfer: Compile(WalletTransferRecord),
} as const

/** Why `record` is not an ExtractedRecord, or undefined if it is one. */
export function recordProblem(record: unknown): string | undefined {
  const kind = (record as { kind?: unknown } | null)?.kind
  const checker = typeof kind === 'string' ? recordCheckers[kind as keyof typeof recordCheckers] : undefined
  if (checker === undefined) return `kind ${JSON.stringify(kind)} is not one of ${Object.keys(recordCheckers).join(', ')}`
  if (checker.Check(record)) return undefined
  const [first] = checker.Errors(record)
  return first === undefined ? 'does not match the schema' : `${first.instancePath === '' ? '/' : first.instancePath} ${first.message}`
}

/**
 * Whether an extraction job still has work on the artifact: not when it was deleted with its tenant,
 * tombstoned, or extracted (or skipped) by an earlier run or by another run of the same job that finished
 * first.
 */
function awaitsExtraction(artifact: ArtifactRow | undefined): artifact is ArtifactRow {
  return artifact !== undefined && artifact.status !== 'tombstoned' && artifact.extractionStatus !== 'succeeded' && artifact.extractionStatus !== 'skipped'
}

function bounded(reason: string): string {
  return reason.length <= extractionReasonCharsMax ? reason : `${reason.slice(0, extractionReasonCharsMax - 1)}…`
}

async function readHead(blobs: BlobStore, artifact: ArtifactRow): Promise<Buffer> {
  const stream = await blobs.open(artifact.tenantId, artifact.sha256)
  if (stream === undefined) throw new Error(`the bytes of raw artifact ${artifact.id} are missing from the blob store`)
  const chunks: Buffer[] = []
  let length = 0
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk)
      length += chunk.length
      if (length >= headBytesMax) break
    }
  } finally {
    stream.on('error', () => undefined)
    stream.destroy()
  }
  return Buffer.concat(chunks).subarray(0, headBytesMax)
}

function parserInput(blobs: BlobStore, artifact: ArtifactRow, head: Buffer): ParserInput {
  const open = async () => {
    const stream = await blobs.open(artifact.tenantId, artifact.sha256)
    if (stream === undefined) throw new Error(`the bytes of raw artifact ${artifact.id} are missing from the blob store`)
    return stream
  }
  return {
    artifactId: artifact.id,
    sourceType: artifact.sourceType,
    mimeType: artifact.mimeType,
    filename: artifact.filename,
    sourceRef: (artifact.sourceRef ?? {}) as Record<string, unknown>,
    bytes: artifact.bytes,
    head,
    stream: () =>
      Readable.from(
        (async function* () {
          yield* (await open()) as AsyncIterable<Buffer>
        })(),
      ),
    async buffer() {
      const chunks: Buffer[] = []
      for await (const chunk of (await open()) as AsyncIterable<Buffer>) chunks.push(chunk)
      return Buffer.concat(chunks)
    },
  }
}

export function createExtractHandler(deps: ExtractionDeps): JobHandler<PayloadOf<typeof rawExtractQueue>> {
  const { db, commands, store, blobs, jobs, clock, recorder, ledgerIntake } = deps

  /** Moves the artifact to `status` with its audit event and business event, in the caller's transaction. */
  async function changeStatus(
    tx: Tx,
    artifact: ArtifactRow,
    status: ArtifactRow['extractionStatus'],
    details: { parser?: Parser; reason?: string; parsedRows?: number; attachments?: number; ledgerJobId?: string; failedRow?: number; heldForAgentId?: string },
  ): Promise<void> {
    const now = clock.now()
    await store.updateArtifact(tx, artifact.tenantId, artifact.id, {
      extractionStatus: status,
      extractionError: details.reason ?? null,
      // What extraction wrote once it ended (a failure or a skip writes nothing); unknown while it runs.
      parsedRows: status === 'succeeded' ? (details.parsedRows ?? 0) : status === 'failed' || status === 'skipped' ? 0 : null,
      extractionFailedRow: details.failedRow ?? null,
      ...(details.parser === undefined ? {} : { parser: details.parser.name, parserVersion: details.parser.version }),
      ...(status === 'succeeded' ? { extractedAt: now } : {}),
    })
    const outputs = {
      status,
      previous_status: artifact.extractionStatus,
      parser: details.parser?.name ?? null,
      parser_version: details.parser?.version ?? null,
      ...(details.reason === undefined ? {} : { reason: details.reason.slice(0, 256) }),
      ...(details.parsedRows === undefined ? {} : { parsed_rows: details.parsedRows }),
      ...(details.attachments === undefined ? {} : { attachments: details.attachments }),
      ...(details.ledgerJobId === undefined ? {} : { ledger_job_id: details.ledgerJobId }),
      ...(details.failedRow === undefined ? {} : { failed_row: details.failedRow }),
      ...(details.heldForAgentId === undefined ? {} : { held_for_agent_id: details.heldForAgentId }),
    }
    await commands.commit(tx, artifact.tenantId, {
      audit: [{ tenantId: artifact.tenantId, layer: 'raw', actor: system, action: 'raw.extraction_status_changed', entity: { type: 'raw_artifact', id: artifact.id }, outputs }],
      events: [{ type: 'raw.extraction.status_changed', payload: { raw_id: artifact.id, ...outputs, ...(details.reason === undefined ? {} : { reason: details.reason }) } }],
    })
    artifact.extractionStatus = status
  }

  /** Reads every output of the parser inside `tx`; returns the counts. Throws on any failure. */
  async function extractInto(tx: Tx, artifact: ArtifactRow, parser: Parser, input: ParserInput, storedAttachments: string[]) {
    const extractedAt = clock.now()
    const attribution: Attribution = { tenantId: artifact.tenantId, actor: system, requestId: null }
    let rowIndex = 0
    let inserted = 0
    let attachments = 0
    let attachmentsSkipped = 0
    let batch: ParsedRowRow[] = []
    // The artifact's row stays locked until this transaction ends, so another run of this extraction waits
    // here and then finds these rows. A re-run (a new parser version beside the old rows is no re-run)
    // skips the rows it wrote before; a first run needs no conflict handling, which spares PostgreSQL a
    // probe of both unique indexes before every row (these writes are most of extraction's database work).
    // Another run of this extraction may have finished while this one waited for the lock.
    if (!awaitsExtraction(await store.findArtifact(tx, artifact.tenantId, artifact.id, { forUpdate: true }))) return undefined
    const skipExisting = await store.hasParsedRows(tx, artifact.tenantId, artifact.id, parser.name, parser.version)
    // One bulk write in flight while the parser reads the next batch: the parser's CPU work overlaps the
    // database's (on one connection the statements still run in order, inside this transaction).
    let inFlight: Promise<number> | undefined
    const flush = async (rows: ParsedRowRow[]) => {
      if (inFlight !== undefined) inserted += await inFlight
      inFlight = rows.length === 0 ? undefined : store.insertParsedRows(tx, rows, { skipExisting })
      // Awaited by the next flush; a failure meanwhile must not count as unhandled.
      inFlight?.catch(() => undefined)
    }
    for await (const output of parser.parse(input)) {
      if (output.type === 'record') {
        const problem = recordProblem(output.record)
        if (problem !== undefined) {
          throw new ParserContractError(`parser bug: ${parser.name} ${parser.version} yielded an invalid record at row ${rowIndex}: ${problem}`)
        }
        if (!(typeof output.confidence === 'number' && output.confidence >= 0 && output.confidence <= 1)) {
          throw new ParserContractError(`parser bug: ${parser.name} ${parser.version} gave row ${rowIndex} a confidence outside 0..1 (${String(output.confidence)})`)
        }
        batch.push({
          id: deterministicId('parsedRow', artifact.id, parser.name, parser.version, String(rowIndex)),
          tenantId: artifact.tenantId,
          rawArtifactId: artifact.id,
          parser: parser.name,
          parserVersion: parser.version,
          rowIndex,
          extracted: output.record,
          confidence: output.confidence,
          extractedAt,
        })
        rowIndex += 1
        if (batch.length >= parsedRowBatchRows) {
          await flush(batch)
          batch = []
        }
        continue
      }
      if (output.type !== 'attachment') throw new ParserContractError(`parser bug: ${parser.name} ${parser.version} yielded an output of unknown type`)
      attachments += 1
      if (attachments > attachmentsPerArtifactMax) throw new ParseError(`more than ${attachmentsPerArtifactMax} attachments`)
      if (output.content.length > artifactBytesMax) throw new ParseError(`attachment ${JSON.stringify(output.filename)} is larger than ${artifactBytesMax} bytes`)
      const mediaType = decideMediaType(output.mimeType, output.filename)
      if (!mediaType.ok) {
        // Raw keeps only the media types it accepts on ingest; the attachment's bytes stay inside the message.
        attachmentsSkipped += 1
        continue
      }
      const stored = await putBuffer(blobs, artifact.tenantId, output.content, artifactBytesMax)
      storedAttachments.push(stored.sha256)
      const recorded = await recorder.recordInTx(
        tx,
        attribution,
        stored,
        {
          sourceType: 'email_inbound',
          mimeType: mediaType.mediaType,
          filename: output.filename.split(/[\\/]/).pop()?.slice(0, 255) || null,
          sourceRef: { ...inheritedSourceRef(artifact.sourceRef), parent_raw_id: artifact.id, attachment_filename: output.filename.slice(0, 255) },
          parentArtifactId: artifact.id,
        },
        { restoreTombstoned: false },
      )
      await commands.commit(tx, artifact.tenantId, recorded)
    }
    await flush(batch)
    await flush([])
    return { parsedRows: rowIndex, inserted, attachments: attachments - attachmentsSkipped, attachmentsSkipped }
  }

  return async (job) => {
    const { tenant_id: tenantId, artifact_id: artifactId } = job.data
    const artifact = await store.findArtifact(db.orm, tenantId, artifactId)
    if (!awaitsExtraction(artifact)) return

    const head = await readHead(blobs, artifact)
    const parser = deps.selectParser({ sourceType: artifact.sourceType, mimeType: artifact.mimeType, filename: artifact.filename, head })
    // `skipped` or `running`, under the artifact's row lock: a run that waited here behind another run of
    // the same extraction finds it settled and leaves its status alone.
    const started = await db.transaction(async (tx) => {
      const current = await store.findArtifact(tx, tenantId, artifactId, { forUpdate: true })
      if (!awaitsExtraction(current)) return false
      artifact.extractionStatus = current.extractionStatus
      if (parser === undefined) {
        await changeStatus(tx, artifact, 'skipped', { reason: 'no parser accepts this artifact' })
        return false
      }
      if (artifact.extractionStatus !== 'running') await changeStatus(tx, artifact, 'running', { parser })
      return true
    })
    if (!started || parser === undefined) return

    const storedAttachments: string[] = []
    try {
      await db.transaction(async (tx) => {
        const counts = await extractInto(tx, artifact, parser, parserInput(blobs, artifact, head), storedAttachments)
        if (counts === undefined) return
        // A held contributor's artifact is extracted but not handed to the Ledger: the hold's release does that.
        if (await deps.contributionHolds.isHeld(tx, tenantId, artifact.createdBy)) {
          await store.updateArtifact(tx, tenantId, artifactId, { heldForAgentId: artifact.createdBy })
          await changeStatus(tx, artifact, 'succeeded', { parser, parsedRows: counts.parsedRows, attachments: counts.attachments, heldForAgentId: artifact.createdBy })
          return
        }
        const ledgerJobId = await ledgerIntake.requestNormalization(tx, { tenantId, artifactId, createdBy: 'system:raw-extract' })
        await changeStatus(tx, artifact, 'succeeded', { parser, parsedRows: counts.parsedRows, attachments: counts.attachments, ledgerJobId })
      })
      ledgerIntake.nudge()
      if (storedAttachments.length > 0) jobs.nudge(rawExtractQueue)
    } catch (error) {
      artifact.extractionStatus = 'running'
      for (const sha256 of storedAttachments) await recorder.discard(tenantId, sha256).catch(() => undefined)
      const fileProblem = error instanceof ParseError || error instanceof ParserContractError
      const reason = bounded(
        error instanceof ParseError
          ? `${parser.name} ${parser.version} could not read the file: ${error.message}`
          : error instanceof ParserContractError
            ? error.message
            : `extraction failed (it will be retried while attempts remain): ${error instanceof Error ? error.message : String(error)}`,
      )
      // The data row the parser refused, when one row is what stopped it.
      const failedRow = error instanceof ParseError ? error.row : undefined
      await db.transaction((tx) => changeStatus(tx, artifact, 'failed', { parser, reason, ...(failedRow === undefined ? {} : { failedRow }) }))
      if (!fileProblem) throw error
    }
  }
}

/**
 * What an attachment inherits from its message's source_ref: what the ingester said about the documents
 * in it (who issued them, their currency), so an invoice the tenant sent as an attachment stays receivable.
 */
function inheritedSourceRef(parent: unknown): Record<string, unknown> {
  const source = (parent ?? {}) as Record<string, unknown>
  const inherited: Record<string, unknown> = {}
  for (const key of ['direction', 'issuer_is_tenant', 'currency'] as const) if (source[key] !== undefined) inherited[key] = source[key]
  return inherited
}
