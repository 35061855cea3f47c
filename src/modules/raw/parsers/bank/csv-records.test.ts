import { parse as parseWithCsvParse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { CsvSyntaxError, headRecords, lineBreakOf, streamRecords, type CsvDialect, type CsvRecord, type LineBreak } from './csv-records.ts'

/** A small deterministic generator (the same cases on every run). */
function generator(seed: number) {
  let state = seed
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff
    return state / 0x7fffffff
  }
  return { next, pick: <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]! }
}

async function* chunked(text: string, sizes: () => number): AsyncGenerator<string> {
  for (let offset = 0; offset < text.length; ) {
    const size = sizes()
    yield text.slice(offset, offset + size)
    offset += size
  }
}

async function streamed(text: string, dialect: CsvDialect, sizes: () => number, recordCharactersMax = 65_536): Promise<CsvRecord[]> {
  const records: CsvRecord[] = []
  for await (const record of streamRecords(chunked(text, sizes), dialect, recordCharactersMax)) records.push(record)
  return records
}

async function streamFailure(text: string, dialect: CsvDialect, sizes: () => number, recordCharactersMax = 65_536): Promise<unknown> {
  try {
    await streamed(text, dialect, sizes, recordCharactersMax)
  } catch (error) {
    return error
  }
  throw new Error('expected the stream to fail')
}

/** What csv-parse (the reference reader) makes of a well-formed text, with the options the statement parser used with it. */
function reference(text: string, delimiter: string): CsvRecord[] {
  const records = parseWithCsvParse(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true }) as unknown as Array<{
    record: string[]
    info: { lines: number }
  }>
  return records.map((entry) => ({ fields: entry.record, line: entry.info.lines }))
}

/** A random well-formed CSV text: quoted fields with delimiters, quotes and line breaks of every kind in them, empty lines. */
function wellFormedText(random: ReturnType<typeof generator>, delimiter: string, lineBreak: LineBreak): string {
  const values = ['ACME', 'ACME "SPECIAL" INC', `a${delimiter}b`, `two${lineBreak}lines`, 'x""y', '  spaced ', '', 'Ünïcödé €', '-1.234,56', '"']
  // Other line breaks inside fields (a spreadsheet's multi-line cell is often \n in a \r\n file), in some files.
  if (random.next() < 0.5) values.push('cell\nlines', 'cr\r\nlf', 'lone\rcr')
  const lines: string[] = []
  const records = Math.floor(random.next() * 30)
  for (let record = 0; record < records; record += 1) {
    const fields = Array.from({ length: 1 + Math.floor(random.next() * 5) }, () => {
      const value = random.pick(values)
      const mustQuote = /["\r\n]/.test(value) || value.includes(delimiter) || value === ''
      return mustQuote || random.next() < 0.3 ? `"${value.replace(/"/g, '""')}"` : value
    })
    // A record of one empty unquoted field would be an empty line.
    lines.push(fields.join(delimiter))
    if (random.next() < 0.1) lines.push('')
  }
  return lines.join(lineBreak) + (random.next() < 0.7 ? lineBreak : '')
}


describe('CSV records: every well-formed text reads exactly as csv-parse reads it', () => {
  /**
   * The line numbers too, in texts without `\r`. With `\r`, these records count lines as an editor does
   * (`\r\n`, `\n` and `\r` one each: tested below) and csv-parse its own way (a `\r\n` inside a quoted
   * field as two lines).
   */
  it('fields and line numbers, whole and streamed in chunks of any size, for each delimiter and line break', async () => {
    const random = generator(20_261_121)
    let compared = 0
    for (let round = 0; round < 600; round += 1) {
      const delimiter = random.pick([',', ';', '\t', '|'])
      const lineBreak = random.pick(['\n', '\r\n', '\r'] as const)
      const text = wellFormedText(random, delimiter, lineBreak)
      const pure = !text.includes('\r')
      const comparable = (records: CsvRecord[]) => (pure ? records : records.map((record) => record.fields))
      const expected = comparable(reference(text, delimiter))
      const dialect = { delimiter, lineBreak }
      if (text.includes(lineBreak)) expect(lineBreakOf(text), JSON.stringify(text)).toBe(lineBreak)
      const chunkSize = 1 + Math.floor(random.next() * 40)
      expect(comparable(await streamed(text, dialect, () => chunkSize)), JSON.stringify(text)).toEqual(expected)
      expect(comparable(headRecords(text, dialect, 50)), JSON.stringify(text)).toEqual(expected.slice(0, 50))
      compared += pure ? expected.length : 0
    }
    // Enough of them with line numbers compared.
    expect(compared).toBeGreaterThan(1_000)
  })
})

describe('CSV records: details', () => {
  const comma = { delimiter: ',', lineBreak: '\n' } as const

  it('counts lines as an editor does: empty lines, line breaks inside quoted fields, and a \\r\\n split between chunks', async () => {
    const text = 'a,b\r\n\r\n"x\r\ny",z\r\nlast,row'
    const dialect = { delimiter: ',', lineBreak: '\r\n' } as const
    const expected = [
      { fields: ['a', 'b'], line: 1 },
      { fields: ['x\r\ny', 'z'], line: 4 },
      { fields: ['last', 'row'], line: 5 },
    ]
    for (let size = 1; size <= text.length; size += 1) expect(await streamed(text, dialect, () => size)).toEqual(expected)
    expect(await streamed('a\r"b\r\nc"\r\rd\r', { delimiter: ',', lineBreak: '\r' }, () => 2)).toEqual([
      { fields: ['a'], line: 1 },
      { fields: ['b\r\nc'], line: 3 },
      { fields: ['d'], line: 5 },
    ])
    // Whatever the file's line break, \r\n inside a field is one line break, and \r or \n alone one each.
    expect(await streamed('"a\r\nb\rc\nd",x\ny\n', comma, () => 4)).toEqual([
      { fields: ['a\r\nb\rc\nd', 'x'], line: 4 },
      { fields: ['y'], line: 5 },
    ])
  })

  it('reads past any number of empty lines, counting them, in bounded memory', async () => {
    const text = `a,b${'\n'.repeat(30_000)}c,d\n`
    expect(await streamed(text, comma, () => 100, 1_000)).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['c', 'd'], line: 30_001 },
    ])
  })

  it('keeps what follows a closing quote, without the quotes (where csv-parse kept the quotes)', async () => {
    expect(await streamed('a,"ACME "SPECIAL" INC",5\nb,"x" ,6\n', comma, () => 7)).toEqual([
      { fields: ['a', 'ACME "SPECIAL" INC', '5'], line: 1 },
      { fields: ['b', 'x', '6'], line: 2 },
    ])
  })

  it('reads a quote inside an unquoted field as text', async () => {
    expect(await streamed('5" disk,12.00\n', comma, () => 3)).toEqual([{ fields: ['5" disk', '12.00'], line: 1 }])
  })

  it('refuses a quote that never closes, naming the line where the field opens, however the text is cut', async () => {
    const text = 'Date,Text\n2024-03-01,fine\n2024-03-02,"never\ncloses\n2024-03-03,x\n'
    for (const size of [1, 5, 16, 1000]) {
      const failure = await streamFailure(text, comma, () => size)
      expect(failure).toBeInstanceOf(CsvSyntaxError)
      expect((failure as CsvSyntaxError).message).toBe('Quote Not Closed: the quoted field on line 3 never closes')
      expect((failure as CsvSyntaxError).line).toBe(3)
    }
  })

  it('refuses a record longer than the limit before reading the rest of the file into memory', async () => {
    let produced = 0
    const endless = async function* () {
      yield 'a,"open\n'
      for (;;) {
        produced += 1
        yield 'x'.repeat(1000)
      }
    }
    let failure: unknown
    try {
      for await (const _ of streamRecords(endless(), comma, 10_000));
    } catch (error) {
      failure = error
    }
    expect(failure).toBeInstanceOf(CsvSyntaxError)
    expect((failure as CsvSyntaxError).message).toBe('the record on line 1 is longer than 10000 characters (a quote that never closes, or not CSV)')
    expect(produced).toBeLessThan(12)
    // A long record that does end is refused as well, once it is whole.
    const long = await streamFailure(`a,b\n"${'y'.repeat(200)}",c\n`, comma, () => 1000, 100)
    expect((long as CsvSyntaxError).message).toBe('the record on line 2 is longer than 100 characters (a quote that never closes, or not CSV)')
  })

  it('the head: records before a quote that never closes (the head is cut anywhere), at most the limit', () => {
    expect(headRecords('h1,h2\na,b\nc,"cut off her', comma, 50)).toEqual([
      { fields: ['h1', 'h2'], line: 1 },
      { fields: ['a', 'b'], line: 2 },
    ])
    expect(headRecords('1\n2\n3\n', comma, 2)).toEqual([
      { fields: ['1'], line: 1 },
      { fields: ['2'], line: 2 },
    ])
  })

  it('guesses the line break from the text, ignoring line breaks inside quoted fields', () => {
    expect(lineBreakOf('a,"x\ny"\r\nb,c\r\n')).toBe('\r\n')
    expect(lineBreakOf('a,b\rc,d\r')).toBe('\r')
    expect(lineBreakOf('a,b\nc,d\n')).toBe('\n')
  })
})
