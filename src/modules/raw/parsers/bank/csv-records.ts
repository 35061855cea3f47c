/**
 * CSV records with the line each one ends on, read by papaparse: from a whole text (the head of a file)
 * or streamed from decoded chunks, in memory bounded by the chunk size and the longest record.
 *
 * Why papaparse: it finds fields with `indexOf` rather than looking at every character, and reads a
 * bank statement's CSV about ten times faster than csv-parse did (docs/decisions.md); the CSV statement
 * parser reads every file twice (a survey pass and a data pass), where csv-parse was the largest part of
 * extraction's CPU.
 *
 * The dialect, decided once per file from its head and then used for every chunk:
 * - the delimiter (the statement parser tries each candidate);
 * - the line break (`\r\n`, `\n` or `\r`), papaparse's own guess over the head; another kind of line
 *   break inside a record is text, as in every CSV reader that fixes its record delimiter;
 * - `"` quotes fields and `""` is a quote inside one. A quote inside an unquoted field is text; a quoted
 *   field followed by other characters keeps them, without its quotes (`"ACME "SPECIAL" INC"` reads
 *   `ACME "SPECIAL" INC`); a quote that never closes is an error (`CsvSyntaxError`). Empty lines are no
 *   records (a line holding `""` is one). Records may have any number of fields.
 *
 * Streaming: each chunk is parsed after what was left of the previous one; a last record that no line
 * break ends yet (or whose quote is still open) is held back and parsed again with the next chunk, so a
 * record split between chunks is read whole. A record may not grow beyond `recordCharactersMax` (a quote that never closes
 * would otherwise hold the rest of the file).
 */
import Papa from 'papaparse'

export type LineBreak = '\r\n' | '\n' | '\r'

export interface CsvDialect {
  readonly delimiter: string
  readonly lineBreak: LineBreak
}

export interface CsvRecord {
  readonly fields: string[]
  /** The 1-based line the record ends on (where it starts, for a one-line record), counting `\r\n`, `\n` and `\r` each as one break. */
  readonly line: number
}

/** Text that is not CSV: a quote that never closes, or a record longer than allowed. */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    /** The line the offending record starts on. */
    readonly line: number,
  ) {
    super(message)
    this.name = 'CsvSyntaxError'
  }
}

/** The line break of a text: papaparse's guess (the first kind seen, unless `\r` alone or `\r\n` is the majority). */
export function lineBreakOf(text: string): LineBreak {
  return Papa.parse(text, { preview: 1, delimiter: ',' }).meta.linebreak as LineBreak
}

/**
 * Counts line breaks, `\r\n`, `\n` or `\r` each as one, as the text is consumed from left to right. The
 * next positions of `\n` and `\r` are remembered, so that counting a file costs one scan of it whatever
 * the number of records (a file without `\r` would otherwise be searched to its end for every record).
 */
class LineCounter {
  private position = 0
  private nextLf = -2
  private nextCr = -2

  constructor(
    private readonly text: string,
    /** The line number at the start of `text`. */
    public line: number,
  ) {}

  /** Advances to `to`, counting the breaks that start before it; returns the line number there. */
  advanceTo(to: number): number {
    const { text } = this
    for (;;) {
      if (this.nextLf !== -1 && this.nextLf < this.position) this.nextLf = text.indexOf('\n', this.position)
      if (this.nextCr !== -1 && this.nextCr < this.position) this.nextCr = text.indexOf('\r', this.position)
      const next = this.nextCr === -1 ? this.nextLf : this.nextLf === -1 ? this.nextCr : Math.min(this.nextLf, this.nextCr)
      if (next === -1 || next >= to) break
      this.line += 1
      // `\r\n` is one break.
      this.position = text.charCodeAt(next) === 13 && text.charCodeAt(next + 1) === 10 ? next + 2 : next + 1
    }
    this.position = Math.max(this.position, to)
    return this.line
  }
}

interface ParsedRecord extends CsvRecord {
  /** Where the record starts in the parsed text, and on which line. */
  readonly start: number
  readonly startLine: number
  /** Where the next record starts (after the line break that ends this one). */
  readonly end: number
  /** Whether a line break ends the record (the last record of a text may end with the text). */
  readonly terminated: boolean
  readonly unclosedQuote: boolean
}

/**
 * The records of `text`, which starts on line `firstLine`. A quote that never closes makes its record
 * (the last) `unclosedQuote`, holding the rest of the text.
 */
function parseText(text: string, dialect: CsvDialect, firstLine: number): ParsedRecord[] {
  const records: ParsedRecord[] = []
  const lines = new LineCounter(text, firstLine)
  const { lineBreak } = dialect
  // papaparse drops a U+FEFF that starts its input and counts its cursor from after it.
  const dropped = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let start = 0
  Papa.parse<string[]>(text, {
    delimiter: dialect.delimiter,
    newline: lineBreak,
    quoteChar: '"',
    escapeChar: '"',
    step(results) {
      const end = results.meta.cursor + dropped
      // The record's own text ends before its line break (the last record of a text may have none).
      const contentEnd = text.startsWith(lineBreak, end - lineBreak.length) ? end - lineBreak.length : end
      // An empty line is no record (a line holding only `""` is one: a record of one empty field).
      if (contentEnd > start) {
        const startLine = lines.advanceTo(start)
        const line = lines.advanceTo(contentEnd)
        const unclosedQuote = results.errors.some((error) => error.code === 'MissingQuotes')
        records.push({ fields: results.data, line, start, startLine, end, terminated: contentEnd < end, unclosedQuote })
      }
      start = end
    },
  })
  return records
}

function unclosed(record: ParsedRecord): CsvSyntaxError {
  return new CsvSyntaxError(`Quote Not Closed: the quoted field on line ${record.startLine} never closes`, record.startLine)
}

function tooLong(line: number, recordCharactersMax: number): CsvSyntaxError {
  return new CsvSyntaxError(`the record on line ${line} is longer than ${recordCharactersMax} characters (a quote that never closes, or not CSV)`, line)
}

/**
 * The first `limit` records of a whole text (the head of a file). A quote that never closes ends the
 * records before the one holding it: the head is cut at an arbitrary byte, and the data pass reports
 * the error where it is.
 */
export function headRecords(text: string, dialect: CsvDialect, limit: number): CsvRecord[] {
  const records = parseText(text, dialect, 1)
  const cut = records.findIndex((record) => record.unclosedQuote)
  return records.slice(0, Math.min(limit, cut === -1 ? records.length : cut)).map(({ fields, line }) => ({ fields, line }))
}

/** The records of a text arriving in chunks (decoded text), in order; throws CsvSyntaxError on text that is not CSV. */
export async function* streamRecords(chunks: AsyncIterable<string>, dialect: CsvDialect, recordCharactersMax: number): AsyncGenerator<CsvRecord> {
  let pending = ''
  let pendingLine = 1
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue
    const text = pending + chunk
    const records = parseText(text, dialect, pendingLine)
    // A last record without its line break may continue in the next chunk: it is read again with it.
    const last = records.at(-1)
    const held = last !== undefined && (!last.terminated || last.unclosedQuote) ? records.pop() : undefined
    for (const record of records) {
      if (record.end - record.start > recordCharactersMax) throw tooLong(record.startLine, recordCharactersMax)
      yield { fields: record.fields, line: record.line }
    }
    if (held !== undefined) {
      pending = text.slice(held.start)
      pendingLine = held.startLine
    } else {
      // After the last whole record (or from the start) there are only empty lines: one line break each.
      const rest = last === undefined ? text : text.slice(last.end)
      pendingLine = (last === undefined ? pendingLine : last.line + 1) + rest.length / dialect.lineBreak.length
      pending = ''
    }
    if (pending.length > recordCharactersMax) throw tooLong(pendingLine, recordCharactersMax)
  }
  for (const record of parseText(pending, dialect, pendingLine)) {
    if (record.unclosedQuote) throw unclosed(record)
    if (record.end - record.start > recordCharactersMax) throw tooLong(record.startLine, recordCharactersMax)
    yield { fields: record.fields, line: record.line }
  }
}
