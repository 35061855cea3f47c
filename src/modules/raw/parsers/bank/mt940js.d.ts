/**
 * Types for mt940js 1.3.5, which ships none: only what mt940-statement.parser.ts reads. Amounts are
 * floats and dates UTC-midnight Dates in the library; the parser re-reads both from the raw tag text.
 */
declare module 'mt940js' {
  export interface Mt940Tag {
    /** The tag number (20, 25, 28, 60, 61, 62, 64, 65, 86) or 'NS' / 'MB'. */
    readonly id: number | string
    /** The tag's content as written, continuation lines joined with `\n`. */
    readonly data: string
    readonly fields: Readonly<Record<string, unknown>>
  }

  export interface Mt940Transaction {
    readonly date: Date
    readonly entryDate: Date | ''
    readonly amount: number
    readonly isReversal: boolean
    readonly currency: string
    readonly details: string
    readonly transactionType: string
    readonly reference: string
    readonly bankReference: string
    readonly extraDetails: string
    readonly fundsCode: string
    readonly structuredDetails?: Readonly<Record<string, string>>
  }

  export interface Mt940Statement {
    readonly transactionReference: string
    readonly relatedReference: string
    readonly accountIdentification: string
    readonly number: { readonly statement: string; readonly sequence: string; readonly section: string }
    readonly currency: string
    readonly openingBalance: number
    readonly closingBalance: number
    readonly transactions: readonly Mt940Transaction[]
    readonly informationToAccountOwner?: string
    /** Present when `parse` is called with `withTags`. */
    readonly tags?: readonly Mt940Tag[]
  }

  export class Parser {
    constructor(options?: { no86Structure?: boolean })
    parse(data: string, withTags?: boolean): Mt940Statement[]
  }

  const mt940js: { readonly Parser: typeof Parser }
  export default mt940js
}
