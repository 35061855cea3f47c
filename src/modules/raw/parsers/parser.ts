/**
 * What a parser is. A parser reads one Raw artifact and yields records (the `extracted` objects of
 * parsed rows, see ../domain/extracted.ts) one at a time, so a 100,000-row statement is never held in
 * memory; it may also yield attachments (an e-mail's files), which become Raw artifacts of their own.
 *
 * Parsers are pure with respect to Steward: no database, no clock, no network. They are versioned:
 * a change to what a parser extracts bumps `version`, and extraction then adds new parsed rows beside
 * the old ones (parsed rows are append-only).
 */
import type { Readable } from 'node:stream'
import type { ExtractedRecord } from '../domain/extracted.ts'

export interface ParserInput {
  readonly artifactId: string
  readonly sourceType: string
  readonly mimeType: string
  readonly filename: string | null
  /** What the ingester said about the source (free form: account name, provider, url…). */
  readonly sourceRef: Readonly<Record<string, unknown>>
  readonly bytes: number
  /** The first bytes of the artifact (up to 64 KiB), for format detection. */
  readonly head: Buffer
  /** The artifact's bytes as a fresh stream (may be called more than once). */
  stream(): Readable
  /** The whole artifact in memory (formats that need it: XML, PDF, OFX). At most 50 MB. */
  buffer(): Promise<Buffer>
}

export interface ParsedRecord {
  readonly type: 'record'
  readonly record: ExtractedRecord
  /** 0..1: how sure the parser is of this record, honestly (a guessed column mapping is not 1). */
  readonly confidence: number
}

export interface ParsedAttachment {
  readonly type: 'attachment'
  readonly filename: string
  readonly mimeType: string
  readonly content: Buffer
}

export type ParserOutput = ParsedRecord | ParsedAttachment

export interface Parser {
  /** Stable name, e.g. `csv_bank_statement`. */
  readonly name: string
  /** Semantic version of what it extracts, e.g. `1.0.0`. */
  readonly version: string
  /** Whether this parser reads this artifact (by media type, file name, source type and first bytes). */
  accepts(input: Pick<ParserInput, 'sourceType' | 'mimeType' | 'filename' | 'head'>): boolean
  /** Yields the artifact's records. Throws ParseError for a file it cannot read. */
  parse(input: ParserInput): AsyncIterable<ParserOutput>
}

/**
 * A file the parser cannot read: extraction ends `failed` with this reason, and nothing is written. When
 * one data row is what the parser refuses, `row` names it (1 = the first row after any header), and the
 * artifact lists it as its refused row.
 */
export class ParseError extends Error {
  /** The reason without its location. */
  readonly reason: string

  constructor(
    message: string,
    /** Where in the file, when known (line, row, element). */
    readonly location?: string,
    /** The data row refused, when the failure is one row's. */
    readonly row?: number,
  ) {
    super(location === undefined ? message : `${message} (at ${location})`)
    this.name = 'ParseError'
    this.reason = message
  }
}
