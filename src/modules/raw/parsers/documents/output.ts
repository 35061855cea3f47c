/**
 * What every document parser shares: records leave a parser only after they validate against the
 * extracted-record contract, and validation problems are named the same way everywhere.
 */
import { strict as assert } from 'node:assert'
import { Compile } from 'typebox/compile'
import type { TLocalizedValidationError } from 'typebox/error'
import { ExtractedRecord } from '../../domain/extracted.ts'
import { ParseError, type ParsedRecord, type ParserInput } from '../parser.ts'

const extractedRecordValidator = Compile(ExtractedRecord)

/**
 * The first problem in a validation result, as `"/path: message"`. TypeBox reports an unknown field twice
 * (a `boolean` error for the field, then `additionalProperties` for its object); the second names it.
 */
export function firstValidationProblem(errors: readonly TLocalizedValidationError[]): string {
  const meaningful = errors.find((error) => error.keyword !== 'boolean') ?? errors[0]
  if (meaningful === undefined) return 'is invalid'
  const path = meaningful.instancePath === '' ? '/' : meaningful.instancePath
  const params = meaningful.params as Record<string, unknown>
  if (meaningful.keyword === 'additionalProperties' && Array.isArray(params.additionalProperties)) {
    return `${path}: unknown field "${String(params.additionalProperties[0])}"`
  }
  if (meaningful.keyword === 'required' && Array.isArray(params.requiredProperties)) {
    return `${path}: missing required field "${String(params.requiredProperties[0])}"`
  }
  if (meaningful.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return `${path}: must be one of ${params.allowedValues.map((value) => JSON.stringify(value)).join(', ')}`
  }
  return `${path}: ${meaningful.message}`
}

/**
 * A record as parser output. A record that does not match the contract is refused with a ParseError
 * (the extraction fails, nothing is written) rather than passed on for normalization to trip over.
 */
export function recordOutput(record: ExtractedRecord, confidence: number): ParsedRecord {
  assert(Number.isFinite(confidence) && confidence >= 0 && confidence <= 1, `confidence must be within 0..1, got ${confidence}`)
  if (!extractedRecordValidator.Check(record)) {
    const kind = (record as { readonly kind?: unknown }).kind
    throw new ParseError(`extracted ${String(kind)} record does not match the contract: ${firstValidationProblem(extractedRecordValidator.Errors(record))}`)
  }
  return { type: 'record', record, confidence }
}

/** The media type without parameters, lower-cased: `Application/JSON; charset=utf-8` → `application/json`. */
export function baseMediaType(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase()
}

export function hasExtension(filename: string | null, extensions: readonly string[]): boolean {
  if (filename === null) return false
  const lower = filename.toLowerCase()
  return extensions.some((extension) => lower.endsWith(extension))
}

/**
 * Which side of an invoice the tenant is on. Default `payable`: a document that reaches Steward is a bill
 * the business received. `receivable` when the ingester says the tenant issued it:
 * `source_ref.direction = 'receivable'` or `source_ref.issuer_is_tenant = true`. Contradictory or
 * malformed values are refused rather than guessed.
 */
export function invoiceDirection(sourceRef: ParserInput['sourceRef']): 'payable' | 'receivable' {
  const direction = sourceRef.direction
  const issuerIsTenant = sourceRef.issuer_is_tenant
  if (direction !== undefined && direction !== 'payable' && direction !== 'receivable') {
    throw new ParseError(`source_ref.direction must be "payable" or "receivable", got ${JSON.stringify(direction)}`)
  }
  if (issuerIsTenant !== undefined && typeof issuerIsTenant !== 'boolean') {
    throw new ParseError(`source_ref.issuer_is_tenant must be a boolean, got ${JSON.stringify(issuerIsTenant)}`)
  }
  if ((direction === 'payable' && issuerIsTenant === true) || (direction === 'receivable' && issuerIsTenant === false)) {
    throw new ParseError('source_ref.direction and source_ref.issuer_is_tenant contradict each other')
  }
  return direction === 'receivable' || issuerIsTenant === true ? 'receivable' : 'payable'
}

/** `source_ref.currency` when it is an ISO 4217-shaped code, as the last resort for a document that names none. */
export function sourceRefCurrency(sourceRef: ParserInput['sourceRef']): string | undefined {
  const currency = sourceRef.currency
  return typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : undefined
}

/** A short, single-line description of an unknown thrown value, for a ParseError reason. */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/\s+/g, ' ').trim().slice(0, 300)
}
