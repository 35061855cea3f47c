/**
 * Bank statement parsers (CSV, OFX/QFX, CAMT.053, MT940), in the order the registry tries them: the
 * structured formats first, each recognised by its own signature, and CSV last, since almost any text
 * could be read as delimited values (the CSV parser also refuses anything that carries another
 * format's signature).
 */
import type { Parser } from '../parser.ts'
import { camt053StatementParser } from './camt053-statement.parser.ts'
import { csvBankStatementParser } from './csv-statement.parser.ts'
import { mt940StatementParser } from './mt940-statement.parser.ts'
import { ofxStatementParser } from './ofx-statement.parser.ts'

export const bankStatementParsers: readonly Parser[] = [camt053StatementParser, ofxStatementParser, mt940StatementParser, csvBankStatementParser]
