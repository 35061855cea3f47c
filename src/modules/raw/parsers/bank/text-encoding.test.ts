import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { ParseError } from '../parser.ts'
import { decodeChunks, decodeWhole, detectEncoding, looksBinary } from './text-encoding.ts'

const windows1252 = (text: string) => Buffer.from([...text].map((character) => (character === '€' ? 0x80 : character.charCodeAt(0))))
const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16()

async function decodeAll(chunks: Buffer[], head: Buffer): Promise<string> {
  let text = ''
  for await (const piece of decodeChunks(Readable.from(chunks), detectEncoding(head))) text += piece
  return text
}

describe('detectEncoding and decodeWhole', () => {
  it.each([
    ['UTF-8 without BOM', Buffer.from('Datum;Betrag\nMüller;1,00\n'), 'utf-8', 'Datum;Betrag\nMüller;1,00\n'],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Libellé;Débit\n')]), 'utf-8', 'Libellé;Débit\n'],
    ['UTF-16 LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Fecha\tImporte\n', 'utf16le')]), 'utf-16le', 'Fecha\tImporte\n'],
    ['UTF-16 BE with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be('Datum,Bedrag\n')]), 'utf-16be', 'Datum,Bedrag\n'],
    ['Windows-1252', windows1252('Müller & Söhne;€ 12,34\n'), 'windows-1252', 'Müller & Söhne;€ 12,34\n'],
    ['ASCII', Buffer.from('Date,Amount\n'), 'utf-8', 'Date,Amount\n'],
  ])('%s', (_label, bytes, encoding, text) => {
    expect(detectEncoding(bytes).encoding).toBe(encoding)
    expect(decodeWhole(bytes)).toBe(text)
  })
})

describe('looksBinary', () => {
  it.each([
    ['gzip bytes', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03]), true],
    ['control characters', Buffer.from('abc\u0001\u0002\u0003def'), true],
    ['CSV text', Buffer.from('Date,Amount\r\n2024-03-01,1.00\r\n'), false],
    ['UTF-16 text (its NUL bytes are characters)', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Date,Amount\n', 'utf16le')]), false],
    ['empty', Buffer.alloc(0), false],
  ])('%s → %s', (_label, bytes, binary) => {
    expect(looksBinary(bytes)).toBe(binary)
  })
})

describe('decodeChunks', () => {
  it('keeps a UTF-8 character split across chunks whole', async () => {
    const bytes = Buffer.from('Müller')
    expect(await decodeAll([bytes.subarray(0, 2), bytes.subarray(2)], bytes)).toBe('Müller')
  })

  it('switches to Windows-1252 when the first non-ASCII byte after an all-ASCII head is not UTF-8', async () => {
    const head = Buffer.from('Date,Amount\n')
    expect(await decodeAll([head, windows1252('Müller,1.00\n')], head)).toBe('Date,Amount\nMüller,1.00\n')
  })

  it('refuses bytes that are not UTF-8 after UTF-8 text was read (mixed encodings)', async () => {
    const head = Buffer.from('Libellé,Montant\n')
    const failure = await decodeAll([head, windows1252('Müller,1.00\n')], head).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ParseError)
    expect((failure as ParseError).message).toMatch(/mixes encodings/)
  })
})
