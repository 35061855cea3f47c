/** Document and payload parsers (PDF invoices, e-mail, provider and chain-indexer JSON), in the order the registry tries them. */
import { accountingProviderParser, erpProviderParser } from './accounting-provider.parser.ts'
import { bankProviderParser } from './bank-provider.parser.ts'
import { cardProcessorParser } from './card-processor.parser.ts'
import { chainIndexerParser } from './chain-indexer.parser.ts'
import { emailMessageParser } from './email-message.parser.ts'
import { payrollProviderParser } from './payroll-provider.parser.ts'
import { pdfInvoiceParser } from './pdf-invoice.parser.ts'
import type { Parser } from '../parser.ts'

// Each parser accepts one source type (or, for PDFs and e-mail, one media type within a few source
// types), so no two of them accept the same artifact and the order among them does not decide anything;
// index.test.ts checks that. They all come before the bank-statement parsers, which guess formats.
export const documentParsers: readonly Parser[] = [
  bankProviderParser,
  cardProcessorParser,
  erpProviderParser,
  accountingProviderParser,
  payrollProviderParser,
  chainIndexerParser,
  emailMessageParser,
  pdfInvoiceParser,
]
