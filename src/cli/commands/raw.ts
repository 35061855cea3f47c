/**
 * `steward raw upload FILE…`: POST /v1/raw/ingest (multipart, the file streamed with a progress bar on a
 * terminal's stderr), then GET /v1/raw/{id} until extraction ends, and the outcome: extraction status,
 * parser and parsed rows (GET /v1/raw/{id}/parsed).
 */
import { randomBytes } from 'node:crypto'
import { createReadStream, statSync } from 'node:fs'
import { basename, extname } from 'node:path'
import { ApiError, type ApiClient } from '../api.ts'
import { CliError, describeApiError, exitCodes } from '../context.ts'
import { formatBytes, progressBar, table, type Output } from '../output.ts'
import type { CommandDefinition } from './definition.ts'

interface Ingested {
  raw_id: string
  sha256: string
  bytes: number
  deduplicated: boolean
}

interface Artifact {
  raw_id: string
  extraction_status: 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped'
  extraction_error: string | null
  parser: string | null
  parser_version: string | null
}

interface Outcome {
  file: string
  raw_id: string | null
  bytes: number
  deduplicated: boolean | null
  extraction_status: string
  extraction_error: string | null
  parser: string | null
  parsed_rows: number | null
  error: string | null
}

/** The source_type a file is sent as when --source-type is not given, by its extension. */
const sourceTypeByExtension: Readonly<Record<string, string>> = { '.csv': 'csv_upload', '.pdf': 'pdf_upload', '.eml': 'email_inbound' }
const terminalStatuses = new Set(['succeeded', 'failed', 'skipped'])
/** How often extraction is polled, and for how long at most by default. */
const pollIntervalMs = 500
const waitSecondsDefault = 300
/** Parsed rows counted per page (the route's maximum), and at most this many pages. */
const parsedPageRows = 1000
const parsedPagesMax = 100

function multipartBody(path: string, fields: Record<string, string>, onProgress: (bytes: number) => void) {
  const boundary = `steward-${randomBytes(12).toString('hex')}`
  const size = statSync(path).size
  const filename = basename(path).replace(/["\r\n\\]/g, '_')
  const preamble = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  )
  const epilogue = Buffer.from(`\r\n--${boundary}--\r\n`)
  let sent = 0
  const file = createReadStream(path, { highWaterMark: 64 * 1024 })
  const iterator = file[Symbol.asyncIterator]()
  let stage: 'preamble' | 'file' | 'done' = 'preamble'
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stage === 'preamble') {
        stage = 'file'
        controller.enqueue(preamble)
        return
      }
      if (stage === 'file') {
        const next = await iterator.next()
        if (next.done !== true) {
          const chunk = next.value as Buffer
          sent += chunk.length
          onProgress(sent)
          controller.enqueue(chunk)
          return
        }
        stage = 'done'
        controller.enqueue(epilogue)
        return
      }
      controller.close()
    },
    cancel() {
      file.destroy()
    },
  })
  return { stream, contentType: `multipart/form-data; boundary=${boundary}`, contentLength: preamble.length + size + epilogue.length, size }
}

async function countParsedRows(api: ApiClient, rawId: string): Promise<number> {
  let count = 0
  let cursor: string | undefined
  for (let page = 0; page < parsedPagesMax; page += 1) {
    const answer = await api.get<{ parsed: unknown[]; next_cursor: string | null }>(`/v1/raw/${rawId}/parsed`, { limit: parsedPageRows, cursor })
    count += answer.parsed.length
    if (answer.next_cursor === null) break
    cursor = answer.next_cursor
  }
  return count
}

async function waitForExtraction(api: ApiClient, rawId: string, deadline: number, signal: AbortSignal): Promise<Artifact> {
  for (;;) {
    const artifact = await api.get<Artifact>(`/v1/raw/${rawId}`)
    if (terminalStatuses.has(artifact.extraction_status) || Date.now() >= deadline || signal.aborted) return artifact
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs))
  }
}

async function uploadOne(api: ApiClient, output: Output, path: string, options: { sourceType: string | undefined; mimeType: string | undefined; wait: boolean; deadline: number; signal: AbortSignal }): Promise<Outcome> {
  const file = basename(path)
  const sourceType = options.sourceType ?? sourceTypeByExtension[extname(path).toLowerCase()] ?? 'other'
  const fields: Record<string, string> = { source_type: sourceType, ...(options.mimeType === undefined ? {} : { mime_type: options.mimeType }) }
  let size: number
  try {
    size = statSync(path).size
  } catch (error) {
    return { file, raw_id: null, bytes: 0, deduplicated: null, extraction_status: 'not_uploaded', extraction_error: null, parser: null, parsed_rows: null, error: (error as Error).message }
  }
  const bar = progressBar(output, file, size)
  const body = multipartBody(path, fields, (bytes) => bar.update(bytes))
  let ingested: Ingested
  try {
    ingested = (await api.request<Ingested>('POST', '/v1/raw/ingest', { body, idempotencyKey: true, timeoutMs: 30 * 60_000 })).body
    bar.finish()
  } catch (error) {
    bar.finish()
    if (error instanceof ApiError) return { file, raw_id: null, bytes: size, deduplicated: null, extraction_status: 'not_uploaded', extraction_error: null, parser: null, parsed_rows: null, error: describeApiError(error) }
    throw error
  }
  if (!output.json) output.note(`${file}: ${ingested.deduplicated ? 'already stored as' : 'stored as'} ${ingested.raw_id} (${formatBytes(ingested.bytes)})`)
  if (!options.wait) {
    return { file, raw_id: ingested.raw_id, bytes: ingested.bytes, deduplicated: ingested.deduplicated, extraction_status: 'pending', extraction_error: null, parser: null, parsed_rows: null, error: null }
  }
  const artifact = await waitForExtraction(api, ingested.raw_id, options.deadline, options.signal)
  const parsedRows = artifact.extraction_status === 'succeeded' ? await countParsedRows(api, ingested.raw_id) : null
  return {
    file,
    raw_id: ingested.raw_id,
    bytes: ingested.bytes,
    deduplicated: ingested.deduplicated,
    extraction_status: artifact.extraction_status,
    extraction_error: artifact.extraction_error,
    parser: artifact.parser === null ? null : `${artifact.parser}@${artifact.parser_version ?? '?'}`,
    parsed_rows: parsedRows,
    error: null,
  }
}

export const rawUpload: CommandDefinition = {
  path: ['raw', 'upload'],
  summary: 'Upload files to Raw and report their extraction',
  usage: 'steward raw upload FILE… [--source-type TYPE] [--mime-type TYPE] [--no-wait] [--wait-seconds N] [--json]',
  help: [
    'Each file is streamed to POST /v1/raw/ingest (a progress bar on a terminal), then its extraction is followed',
    '(GET /v1/raw/{id}) until it succeeds, fails or is skipped, and its parsed rows are counted. The source type is',
    '--source-type, else by extension: .csv csv_upload, .pdf pdf_upload, .eml email_inbound, anything else other.',
    'Exit 1 when a file could not be stored, or its extraction failed or had not ended after --wait-seconds (300).',
  ].join('\n'),
  options: { 'source-type': { type: 'string' }, 'mime-type': { type: 'string' }, 'no-wait': { type: 'boolean' }, 'wait-seconds': { type: 'string' } },
  async run(context) {
    if (context.positionals.length === 0) throw new CliError(exitCodes.usage, 'name at least one FILE to upload')
    const waitSeconds = context.values['wait-seconds'] === undefined ? waitSecondsDefault : Number(context.values['wait-seconds'])
    if (!Number.isInteger(waitSeconds) || waitSeconds < 0) throw new CliError(exitCodes.usage, '--wait-seconds must be a whole number of seconds')
    const api = context.tenantApi()
    const outcomes: Outcome[] = []
    const deadline = Date.now() + waitSeconds * 1000
    for (const path of context.positionals) {
      outcomes.push(
        await uploadOne(api, context.output, path, {
          sourceType: context.values['source-type'] as string | undefined,
          mimeType: context.values['mime-type'] as string | undefined,
          wait: context.values['no-wait'] !== true,
          deadline,
          signal: context.signal,
        }),
      )
    }
    if (context.output.json) {
      context.output.data({ uploads: outcomes })
    } else {
      context.output.line(
        table(outcomes, [
          { header: 'FILE', value: (row) => row.file, max: 40 },
          { header: 'RAW ID', value: (row) => row.raw_id ?? '-' },
          { header: 'STORED', value: (row) => (row.deduplicated === null ? '-' : row.deduplicated ? 'deduplicated' : 'new') },
          { header: 'EXTRACTION', value: (row) => row.extraction_status },
          { header: 'PARSER', value: (row) => row.parser ?? '-' },
          { header: 'ROWS', value: (row) => (row.parsed_rows === null ? '-' : String(row.parsed_rows)), right: true },
          { header: 'ERROR', value: (row) => row.error ?? row.extraction_error ?? '', max: 80 },
        ]),
      )
    }
    const waited = context.values['no-wait'] !== true
    // A failed extraction fails the command, and so does one still running when the wait ran out.
    const failed = outcomes.some((outcome) => outcome.error !== null || outcome.extraction_status === 'failed' || (waited && (outcome.extraction_status === 'pending' || outcome.extraction_status === 'running')))
    return failed ? exitCodes.failed : exitCodes.ok
  },
}
