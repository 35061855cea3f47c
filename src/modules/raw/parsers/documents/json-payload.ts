/**
 * Reading the versioned JSON envelopes of docs/provider-payloads.md: decode, parse, check the schema
 * name, validate strictly with TypeBox. Every failure is a ParseError that names the first problem.
 */
import Type, { type Static, type TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { isCalendarDate } from './dates.ts'
import { baseMediaType, firstValidationProblem, hasExtension } from './output.ts'
import { ParseError, type Parser, type ParserInput } from '../parser.ts'

/** The most items any one list of a payload may hold; a provider pages beyond it. */
export const payloadItemsMax = 10_000

/** Whether an artifact is a JSON body of one provider source type. */
export function acceptsJsonOf(sourceType: string): Parser['accepts'] {
  return (input) => {
    if (input.sourceType !== sourceType) return false
    const mediaType = baseMediaType(input.mimeType)
    return mediaType === 'application/json' || mediaType.endsWith('+json') || hasExtension(input.filename, ['.json'])
  }
}

/**
 * The artifact as a JSON value whose `schema` is `expectedSchema`. Invalid UTF-8, invalid JSON, a
 * missing or different schema name: ParseError.
 */
export async function readEnvelope(input: ParserInput, expectedSchema: string): Promise<Record<string, unknown>> {
  const bytes = await input.buffer()
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    throw new ParseError('the payload is not valid UTF-8')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ParseError(`the payload is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ParseError('the payload is not a JSON object')
  const schema = (value as Record<string, unknown>).schema
  if (typeof schema !== 'string') throw new ParseError(`the payload has no "schema" name; expected "${expectedSchema}"`, '/schema')
  if (schema !== expectedSchema) {
    throw new ParseError(`unknown payload schema ${JSON.stringify(schema.slice(0, 100))} for source type ${input.sourceType}; expected "${expectedSchema}"`, '/schema')
  }
  return value as Record<string, unknown>
}

/** A strict validator for one envelope: `check` returns the typed value or throws a ParseError naming the first problem. */
export function envelopeValidator<Schema extends TSchema>(schemaName: string, schema: Schema) {
  const validator = Compile(schema)
  return {
    check(value: unknown): Static<Schema> {
      if (validator.Check(value)) return value as Static<Schema>
      throw new ParseError(`invalid ${schemaName} payload: ${firstValidationProblem(validator.Errors(value))}`)
    },
  }
}

/** Refuses a date that has the right shape but is no calendar day (`2026-02-30`). */
export function requireCalendarDate(value: string, path: string): string {
  if (!isCalendarDate(value)) throw new ParseError(`${path}: ${JSON.stringify(value)} is not a calendar date`)
  return value
}

/** Refuses a second item with an id already seen in the same list. */
export function requireUniqueIds(items: readonly { readonly id: string }[], path: string): void {
  const seen = new Set<string>()
  for (const [index, item] of items.entries()) {
    if (seen.has(item.id)) throw new ParseError(`${path}/${index}/id: duplicate id ${JSON.stringify(item.id)}`)
    seen.add(item.id)
  }
}

// Shared building blocks of the envelopes. Amounts are decimal strings, never JSON numbers.
export const PayloadId = Type.String({ minLength: 1, maxLength: 200 })
export const PayloadText = (maxLength: number) => Type.String({ maxLength })
export const PayloadDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' })
export const PayloadCurrency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' })
export const PayloadSignedAmount = Type.String({ pattern: '^-?(0|[1-9][0-9]{0,29})(\\.[0-9]{1,18})?$' })
export const PayloadAmount = Type.String({ pattern: '^(0|[1-9][0-9]{0,29})(\\.[0-9]{1,18})?$' })
export const PayloadProvider = Type.Object(
  {
    /** Machine name of the provider, e.g. `acme_bank`. */
    id: Type.String({ pattern: '^[a-z0-9][a-z0-9_.-]{0,63}$' }),
    /** Display name, e.g. `Acme Bank N.A.`. */
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
)

