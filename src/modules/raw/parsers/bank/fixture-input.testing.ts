/**
 * Test support for the bank statement parsers: a ParserInput over a fixture file (streamed from disk,
 * as the Raw store does), the records a parse yields, and a compiled TypeBox check of ExtractedRecord.
 * Used only by the tests beside the parsers.
 */
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { Compile } from 'typebox/compile'
import { ExtractedRecord } from '../../domain/extracted.ts'
import type { ParsedRecord, Parser, ParserInput } from '../parser.ts'

export const fixturesDirectory = fileURLToPath(new URL('../../../../../test/fixtures/raw/bank/', import.meta.url))

/** The head a ParserInput carries: up to 64 KiB. */
export const headBytesMax = 64 * 1024

const mimeTypeByExtension: Readonly<Record<string, string>> = {
  csv: 'text/csv',
  ofx: 'application/x-ofx',
  qfx: 'application/vnd.intu.qfx',
  xml: 'application/xml',
  sta: 'application/x-mt940',
  swi: 'application/octet-stream',
}

export interface InputOptions {
  readonly sourceRef?: Readonly<Record<string, unknown>>
  readonly filename?: string | null
  readonly mimeType?: string
  readonly sourceType?: string
}

/** A ParserInput over a file anywhere on disk. */
export function fileInput(path: string, options: InputOptions = {}): ParserInput {
  const bytes = statSync(path).size
  const head = Buffer.alloc(Math.min(bytes, headBytesMax))
  const descriptor = openSync(path, 'r')
  try {
    readSync(descriptor, head, 0, head.length, 0)
  } finally {
    closeSync(descriptor)
  }
  const filename = options.filename === undefined ? basename(path) : options.filename
  const extension = /\.([a-z0-9]+)$/i.exec(filename ?? '')?.[1]?.toLowerCase() ?? ''
  return {
    artifactId: `art_${basename(path)}`,
    sourceType: options.sourceType ?? 'csv_upload',
    mimeType: options.mimeType ?? mimeTypeByExtension[extension] ?? 'application/octet-stream',
    filename,
    sourceRef: options.sourceRef ?? {},
    bytes,
    head,
    stream: () => createReadStream(path, { highWaterMark: 16 * 1024 }),
    buffer: async () => readFileSync(path),
  }
}

/** A ParserInput over a fixture, by its path under test/fixtures/raw/bank/. */
export function fixtureInput(relativePath: string, options: InputOptions = {}): ParserInput {
  return fileInput(join(fixturesDirectory, relativePath), options)
}

/** A ParserInput over bytes in memory (for small inline cases). */
export function bytesInput(content: string | Buffer, options: InputOptions & { filename: string | null }): ParserInput {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content
  const extension = /\.([a-z0-9]+)$/i.exec(options.filename ?? '')?.[1]?.toLowerCase() ?? ''
  return {
    artifactId: 'art_inline',
    sourceType: options.sourceType ?? 'csv_upload',
    mimeType: options.mimeType ?? mimeTypeByExtension[extension] ?? 'application/octet-stream',
    filename: options.filename,
    sourceRef: options.sourceRef ?? {},
    bytes: bytes.length,
    head: bytes.subarray(0, headBytesMax),
    stream: () => Readable.from([bytes]),
    buffer: async () => bytes,
  }
}

/** Everything a parse yields, as records (a bank parser yields no attachments). */
export async function parseAll(parser: Parser, input: ParserInput): Promise<ParsedRecord[]> {
  const records: ParsedRecord[] = []
  for await (const output of parser.parse(input)) {
    if (output.type !== 'record') throw new Error(`a bank statement parser yielded a ${output.type}`)
    records.push(output)
  }
  return records
}

/** The thrown error of a parse that is expected to fail (undefined if it did not fail). */
export async function parseFailure(parser: Parser, input: ParserInput): Promise<unknown> {
  try {
    await parseAll(parser, input)
    return undefined
  } catch (error) {
    return error
  }
}

const extractedRecordCheck = Compile(ExtractedRecord)

/** The schema errors of a record (empty when it validates). */
export function schemaErrors(record: unknown): string[] {
  if (extractedRecordCheck.Check(record)) return []
  return [...extractedRecordCheck.Errors(record)].map((error) => `${error.instancePath} ${error.message}`)
}

/** Records of one kind, typed. */
export function ofKind<K extends ExtractedRecord['kind']>(records: readonly ParsedRecord[], kind: K): Array<Extract<ExtractedRecord, { kind: K }>> {
  return records.map((entry) => entry.record).filter((record): record is Extract<ExtractedRecord, { kind: K }> => record.kind === kind)
}

/** Every fixture and the parser that must claim it (the malformed ones too: they are refused by parse). */
export const fixtureCatalogue: ReadonlyArray<readonly [path: string, parserName: string]> = [
  ['csv/lindenhof-2024-03-04.de-windows-1252.csv', 'csv_bank_statement'],
  ['csv/bluebird-checking-2024-01-02.us.csv', 'csv_bank_statement'],
  ['csv/dupont-overlap-1.fr.csv', 'csv_bank_statement'],
  ['csv/dupont-overlap-2.fr.csv', 'csv_bank_statement'],
  ['csv/taller-ruiz-2024-03.es-utf16le-tab.csv', 'csv_bank_statement'],
  ['csv/van-dijk-2024-03.nl-utf16be.csv', 'csv_bank_statement'],
  ['csv/bluebird-card-2024-03.pipe-symbols.csv', 'csv_bank_statement'],
  ['csv/ambiguous-dates.csv', 'csv_bank_statement'],
  ['csv/malformed-no-amount-column.csv', 'csv_bank_statement'],
  ['csv/malformed-non-numeric-amount-row7.csv', 'csv_bank_statement'],
  ['csv/malformed-unclosed-quote.csv', 'csv_bank_statement'],
  ['csv/malformed-binary.csv', 'csv_bank_statement'],
  ['ofx/bluebird-checking-2024-01-02.ofx', 'ofx_statement'],
  ['ofx/bluebird-checking-overlap-1.ofx', 'ofx_statement'],
  ['ofx/bluebird-checking-overlap-2.ofx', 'ofx_statement'],
  ['ofx/bluebird-card-2024-02.qfx', 'ofx_statement'],
  ['ofx/bluebird-savings-single-transaction.ofx', 'ofx_statement'],
  ['ofx/bluebird-savings-no-transactions.ofx', 'ofx_statement'],
  ['ofx/malformed-truncated.ofx', 'ofx_statement'],
  ['camt053/lindenhof-2024-03-04.camt053-v08.xml', 'camt053_statement'],
  ['camt053/lindenhof-overlap-1.camt053-v02.xml', 'camt053_statement'],
  ['camt053/lindenhof-overlap-2.camt053-v02.xml', 'camt053_statement'],
  ['camt053/lindenhof-two-accounts.camt053-v04.xml', 'camt053_statement'],
  ['camt053/malformed-truncated.xml', 'camt053_statement'],
  ['mt940/lindenhof-2024-03-04.sta', 'mt940_statement'],
  ['mt940/lindenhof-overlap-1.sta', 'mt940_statement'],
  ['mt940/lindenhof-overlap-2.sta', 'mt940_statement'],
  ['mt940/van-dijk-blocks-slash-details.swi', 'mt940_statement'],
  ['mt940/malformed-broken-61.sta', 'mt940_statement'],
]

/** The fixtures that parse: every record they yield must validate against ExtractedRecord. */
export const readableFixtures = fixtureCatalogue.filter(([path]) => !path.includes('malformed-')).map(([path]) => path)

/** The amounts of a parse summed exactly (a statement's transactions must add up to closing − opening). */
export function sumOfAmounts(amounts: readonly string[]): bigint {
  return amounts.reduce((total, amount) => total + toCents(amount), 0n)
}

/** A two-decimal amount as cents, exactly. */
export function toCents(amount: string): bigint {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(amount)
  if (match === null) throw new Error(`not a two-decimal amount: ${amount}`)
  const cents = BigInt(`${match[2]}${match[3]}`)
  return match[1] === '-' ? -cents : cents
}
