/** Document and payload parsers (PDF invoices, e-mail, provider and chain-indexer JSON), in the order the registry tries them. */
import type { Parser } from '../parser.ts'

export const documentParsers: readonly Parser[] = []
