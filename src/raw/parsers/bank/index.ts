/** Bank statement parsers (CSV, OFX/QFX, CAMT.053, MT940), in the order the registry tries them. */
import type { Parser } from '../parser.ts'

export const bankStatementParsers: readonly Parser[] = []
