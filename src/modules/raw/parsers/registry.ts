/**
 * Which parser reads an artifact: the first whose `accepts` says yes, trying the specific formats
 * before the general ones (a structured payload before a CSV guess). No parser means extraction is
 * `skipped` (the bytes are kept; nothing is extracted).
 */
import { bankStatementParsers } from './bank/index.ts'
import { documentParsers } from './documents/index.ts'
import type { Parser, ParserInput } from './parser.ts'

export const parsers: readonly Parser[] = [...documentParsers, ...bankStatementParsers]

export function selectParser(input: Pick<ParserInput, 'sourceType' | 'mimeType' | 'filename' | 'head'>): Parser | undefined {
  return parsers.find((parser) => parser.accepts(input))
}
