/**
 * The records a parser emits (Raw's name for the contract between parsers and the Ledger, which lives
 * in the kernel: src/kernel/extracted-record.ts).
 */
export * from '../../../kernel/extracted-record.ts'
