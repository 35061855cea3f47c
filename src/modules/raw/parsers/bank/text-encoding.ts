/**
 * Which character encoding a bank file is in, and its text. Banks export UTF-8 (with or without a byte
 * order mark), UTF-16 with a byte order mark (spreadsheet "Unicode text" exports) and, still very often,
 * Windows-1252 (the Western European ANSI code page: Latin-1 plus `€`, `‚`, `„`, `Š`… in 0x80–0x9F).
 * UTF-8 and UTF-16 are decoded by the platform's TextDecoder; Windows-1252 by iconv-lite, because Node
 * 20's TextDecoder decodes that label as plain Latin-1 (0x80 comes out as U+0080, not `€`).
 *
 * Detection: a byte order mark decides; otherwise bytes that are valid UTF-8 are UTF-8 (pure ASCII is
 * both) and anything else is Windows-1252. UTF-16 without a byte order mark is not recognised: it looks
 * like binary (NUL bytes) and is refused as such.
 */
import { isAscii } from 'node:buffer'
import iconv from 'iconv-lite'
import { ParseError } from '../parser.ts'

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252'

export interface DetectedEncoding {
  readonly encoding: TextEncodingName
  /** Whether the bytes start with a byte order mark (the decoders drop it). */
  readonly byteOrderMark: boolean
}

/** Control characters other than tab, line feed, form feed and carriage return; text files have none. */
const controlCharacterPattern = /[\u0000-\u0008\u000B\u000E-\u001A\u001C-\u001F]/g

/** More than 1% control characters in the head means the bytes are not text. */
const binaryControlCharacterRatioMax = 0.01

export function detectEncoding(head: Buffer): DetectedEncoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', byteOrderMark: true }
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', byteOrderMark: true }
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', byteOrderMark: true }
  return { encoding: isUtf8Prefix(head) ? 'utf-8' : 'windows-1252', byteOrderMark: false }
}

/** Whether the bytes are valid UTF-8, allowing a sequence cut off at the end (the head is a prefix). */
function isUtf8Prefix(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true })
    return true
  } catch {
    return false
  }
}

interface ChunkDecoder {
  /** Decodes the next bytes; a character cut off at the end waits for the next call. */
  write(bytes: Buffer): string
  end(): string
}

/** A streaming decoder; with `fatal`, invalid UTF-8 throws instead of becoming U+FFFD. */
function createDecoder(encoding: TextEncodingName, fatal: boolean): ChunkDecoder {
  if (encoding === 'windows-1252') {
    const decoder = iconv.getDecoder('windows-1252')
    return { write: (bytes) => decoder.write(bytes), end: () => decoder.end() ?? '' }
  }
  const decoder = new TextDecoder(encoding, { fatal })
  return { write: (bytes) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() }
}

/** The head as text for sniffing and header detection (never throws; undecodable bytes become U+FFFD). */
export function decodeHead(head: Buffer, detected: DetectedEncoding = detectEncoding(head)): string {
  return createDecoder(detected.encoding, false).write(head)
}

/**
 * Whether the head is binary rather than text: it holds NUL bytes (in an 8-bit encoding), or control
 * characters make up more than 1% of it. A file that fails this is not a statement whatever its name.
 */
export function looksBinary(head: Buffer, detected: DetectedEncoding = detectEncoding(head)): boolean {
  if (detected.encoding !== 'utf-16le' && detected.encoding !== 'utf-16be' && head.includes(0)) return true
  const text = decodeHead(head, detected)
  if (text.length === 0) return false
  const controls = text.match(controlCharacterPattern)?.length ?? 0
  return controls / text.length > binaryControlCharacterRatioMax
}

/** The whole text of a file read into memory (OFX, MT940): detected as above, the byte order mark dropped. */
export function decodeWhole(bytes: Buffer, detected: DetectedEncoding = detectEncoding(bytes)): string {
  const decoder = createDecoder(detected.encoding, false)
  return decoder.write(bytes) + decoder.end()
}

/**
 * Decodes a byte stream chunk by chunk. The encoding was detected on the head only, so a file whose
 * first non-ASCII byte comes later may turn out not to be UTF-8: while every byte so far was ASCII (which
 * reads the same in both encodings) the decoder switches to Windows-1252 and carries on; after UTF-8
 * text has been read, invalid bytes mean mixed encodings and a ParseError.
 */
export async function* decodeChunks(source: AsyncIterable<Buffer | string>, detected: DetectedEncoding): AsyncGenerator<string> {
  let decoder = createDecoder(detected.encoding, detected.encoding === 'utf-8')
  let fallbackPossible = detected.encoding === 'utf-8' && !detected.byteOrderMark
  let offset = 0
  for await (const item of source) {
    const chunk = typeof item === 'string' ? Buffer.from(item) : item
    let text: string
    try {
      text = decoder.write(chunk)
    } catch {
      if (!fallbackPossible) {
        throw new ParseError('the file is not valid UTF-8 although its beginning was: it mixes encodings', `bytes ${offset}–${offset + chunk.length}`)
      }
      decoder = createDecoder('windows-1252', false)
      fallbackPossible = false
      text = decoder.write(chunk)
    }
    if (fallbackPossible && !isAscii(chunk)) fallbackPossible = false
    offset += chunk.length
    if (text.length > 0) yield text
  }
  const rest = decoder.end()
  if (rest.length > 0) yield rest
}
