/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document: values that validate against a
 * schema (the fuzz stage's "valid" requests, which mutations then break).
 *
 * It covers the keywords the document uses (type, enum, const, anyOf/oneOf, properties, required,
 * additionalProperties, items, min/max Length/Items/Properties/imum, pattern, uniqueItems and the
 * formats date, date-time, date-or-date-time, email, uri, uuid). Sizes are kept small: the point is
 * reaching the handlers with plausible input, not building big bodies (mutations do that).
 */
import fc from 'fast-check'

export type JsonSchema = {
  readonly type?: string | readonly string[]
  readonly enum?: readonly unknown[]
  readonly const?: unknown
  readonly anyOf?: readonly JsonSchema[]
  readonly oneOf?: readonly JsonSchema[]
  readonly allOf?: readonly JsonSchema[]
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: readonly string[]
  readonly additionalProperties?: boolean | JsonSchema
  readonly patternProperties?: Readonly<Record<string, JsonSchema>>
  readonly items?: JsonSchema
  readonly minItems?: number
  readonly maxItems?: number
  readonly uniqueItems?: boolean
  readonly minProperties?: number
  readonly maxProperties?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: string
  readonly format?: string
  readonly minimum?: number
  readonly maximum?: number
  readonly exclusiveMinimum?: number
  readonly exclusiveMaximum?: number
}

/** Generated strings and collections stay this small unless the schema asks for more. */
const stringLengthMax = 24
const itemsMax = 3
const dictionaryKeysMax = 3

const pad = (value: number, width: number) => String(value).padStart(width, '0')

const dayArbitrary = fc
  .record({ year: fc.integer({ min: 2000, max: 2030 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) })
  .map(({ year, month, day }) => `${year}-${pad(month, 2)}-${pad(day, 2)}`)

const timestampArbitrary = fc
  .integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2030, 11, 31) })
  .map((milliseconds) => new Date(milliseconds).toISOString())

const emailArbitrary = fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/).map((local) => `${local}@example.com`)

function formatArbitrary(format: string): fc.Arbitrary<string> | undefined {
  switch (format) {
    case 'date':
      return dayArbitrary
    case 'date-time':
      return timestampArbitrary
    case 'date-or-date-time':
      return fc.oneof(dayArbitrary, timestampArbitrary)
    case 'email':
      return emailArbitrary
    case 'uri':
      return fc.webUrl({ withQueryParameters: false, withFragments: false })
    case 'uuid':
      return fc.uuid()
    default:
      return undefined
  }
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0
  // A pattern or format fixes its own lengths; only the schema's explicit bounds are applied to it.
  const fitsLength = (text: string) => text.length >= minLength && (schema.maxLength === undefined || text.length <= schema.maxLength)
  const formatted = schema.format === undefined ? undefined : formatArbitrary(schema.format)
  if (formatted !== undefined) return formatted.filter(fitsLength)
  if (schema.pattern !== undefined) return fc.stringMatching(new RegExp(schema.pattern)).filter(fitsLength)
  return fc.string({ minLength, maxLength: Math.min(schema.maxLength ?? Number.MAX_SAFE_INTEGER, Math.max(minLength, stringLengthMax)) })
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : Number.EPSILON) : schema.minimum
  const high = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : Number.EPSILON) : schema.maximum
  if (integer) return fc.integer({ min: Math.ceil(low ?? -1_000_000), max: Math.floor(high ?? 1_000_000) })
  return fc.double({ min: low ?? -1_000_000, max: high ?? 1_000_000, noNaN: true, noDefaultInfinity: true })
}

/** Values known to name real resources, by field name: a field of that name takes one of them most of the time. */
export type KnownValues = Readonly<Record<string, readonly unknown[]>>

/** The generated value, or (three times in four) a known real one for a field of that name. */
export function withKnown(name: string, generated: fc.Arbitrary<unknown>, known: KnownValues): fc.Arbitrary<unknown> {
  const real = known[name]
  if (real === undefined || real.length === 0) return generated
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: generated })
}

function objectArbitrary(schema: JsonSchema, known: KnownValues): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {}
  const required = new Set(schema.required ?? [])
  const extra = schema.additionalProperties
  const fixed =
    Object.keys(properties).length === 0
      ? fc.constant({} as Record<string, unknown>)
      : fc.record(
          Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, withKnown(key, arbitraryOf(property, known), known)])) as Record<string, fc.Arbitrary<unknown>>,
          { requiredKeys: [...required].filter((key) => key in properties) },
        )
  const valueSchema = typeof extra === 'object' ? extra : Object.values(schema.patternProperties ?? {})[0]
  const minProperties = schema.minProperties ?? 0
  if (valueSchema === undefined) {
    return minProperties === 0 ? fixed : fixed.filter((value) => Object.keys(value).length >= minProperties)
  }
  const keyPattern = Object.keys(schema.patternProperties ?? {})[0]
  const keys = keyPattern === undefined ? fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/) : fc.stringMatching(new RegExp(keyPattern)).filter((key) => key.length <= 32)
  const keysMax = Math.min(schema.maxProperties ?? dictionaryKeysMax, dictionaryKeysMax)
  return fc
    .tuple(fixed, fc.dictionary(keys, arbitraryOf(valueSchema, known), { minKeys: Math.min(minProperties, keysMax), maxKeys: Math.max(keysMax, minProperties) }))
    .map(([known, more]) => ({ ...more, ...known }))
}

function arrayArbitrary(schema: JsonSchema, known: KnownValues): fc.Arbitrary<unknown[]> {
  const item = arbitraryOf(schema.items ?? {}, known)
  const minLength = schema.minItems ?? 0
  const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? itemsMax, itemsMax))
  return schema.uniqueItems === true
    ? fc.uniqueArray(item, { minLength, maxLength, selector: (value) => JSON.stringify(value) })
    : fc.array(item, { minLength, maxLength })
}

/** An arbitrary of values that validate against `schema`. */
export function arbitraryOf(schema: JsonSchema, known: KnownValues = {}): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives !== undefined) return fc.oneof(...alternatives.map((alternative) => arbitraryOf(alternative, known)))
  if (schema.allOf !== undefined && schema.allOf.length === 1) return arbitraryOf(schema.allOf[0]!, known)
  const type = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? undefined : [schema.type]
  if (type !== undefined && type.length > 1) return fc.oneof(...type.map((single) => arbitraryOf({ ...schema, type: single }, known)))
  switch (type?.[0]) {
    case 'string':
      return stringArbitrary(schema)
    case 'integer':
      return numberArbitrary(schema, true)
    case 'number':
      return numberArbitrary(schema, false)
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return arrayArbitrary(schema, known)
    case 'object':
      return objectArbitrary(schema, known)
    default:
      if (schema.properties !== undefined) return objectArbitrary(schema, known)
      return fc.jsonValue({ maxDepth: 2 })
  }
}
