/** Wire-schema building blocks shared by the slices' route schemas. */
import Type, { type Static, type TSchema, type TUnsafe } from 'typebox'
import { idPrefixes, uuidPattern, type IdKind } from '../../kernel/ids.ts'
import type { ErrorCode } from '../../kernel/errors.ts'
import type { PageSizeBounds } from '../../kernel/cursor.ts'
import { decimalPattern } from '../../kernel/money.ts'

/**
 * A path parameter longer than this is refused with 400 (an id of ours is a few dozen characters). Up to
 * it, an id of any shape reaches its lookup and is 404 when it names nothing (`PathId`); the router's
 * limit (errors.ts) is the same number.
 */
export const pathParameterCharactersMax = 255

/**
 * The one definition of how the API writes an amount, registered once (app.ts `sharedSchemas`) and
 * published as the OpenAPI component `#/components/schemas/Amount`; response fields refer to it with
 * `Amount`. Inputs keep their own, more lenient schemas (a request may say `"1410"`).
 */
export const AmountSchema = Type.String({
  $id: 'Amount',
  pattern: decimalPattern,
  description:
    'An amount as a decimal string, never a float: an optional `-`, digits, and `.` with the fraction digits of its currency\'s scale ' +
    '(its ISO 4217 minor units; USDC and USDT 6, ETH 18; a code Steward does not know 2): `"1410.000000"` USDC, `"0.00"` EUR, `"1500"` JPY. ' +
    'Never rounded: a value with more non-zero fraction digits than its scale keeps them. Negative is money out of the account ' +
    'on transactions and differences; never `-0`. The currency is the `currency` field beside it.',
})

/** A response field holding an amount: a reference to the shared `Amount` schema. */
export const Amount = Type.Unsafe<string>({ $ref: 'Amount' })

/** The schemas every route may refer to by `$id`, added to the app before any route (and to the OpenAPI components). */
export const sharedSchemas = [AmountSchema] as const

/** Where a named reference keeps its definition (not enumerable: it never reaches JSON, Ajv or the serializer). */
const definitionKey = Symbol('steward.namedSchemaDefinition')

/**
 * A named response schema: `named('Transaction', Strict({…}))` is a `$ref` to `Transaction`, typed as
 * the schema it names. The definition, with `$id: 'Transaction'`, is added to the app once
 * (`registerNamedSchemas`) and published as the OpenAPI component `#/components/schemas/Transaction`, so
 * a generated client has one `Transaction` type instead of a copy per route.
 *
 * For responses only: a route's request schemas are compiled by the request validators
 * (http/validation.ts), which resolve no references, so bodies, queries and path parameters stay inline.
 */
export function named<T extends TSchema>(name: string, schema: T): TUnsafe<Static<T>> {
  const reference = Type.Unsafe<Static<T>>({ $ref: name })
  Object.defineProperty(reference, definitionKey, { value: { ...schema, $id: name }, enumerable: false })
  return reference
}

/** The definition behind a reference made by `named`, or undefined for any other schema. */
export function definitionOf(schema: unknown): (TSchema & { $id: string }) | undefined {
  return schema !== null && typeof schema === 'object' ? (schema as { [definitionKey]?: TSchema & { $id: string } })[definitionKey] : undefined
}

/** Every named definition `schemas` refer to, directly or through other named definitions, each once. */
export function namedDefinitionsIn(schemas: readonly unknown[]): Array<TSchema & { $id: string }> {
  const found = new Map<string, TSchema & { $id: string }>()
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return
    const definition = definitionOf(value)
    if (definition !== undefined) {
      const earlier = found.get(definition.$id)
      if (earlier === definition) return
      if (earlier !== undefined) throw new Error(`two different schemas are named ${definition.$id}`)
      found.set(definition.$id, definition)
      visit(definition)
      return
    }
    for (const child of Array.isArray(value) ? value : Object.values(value)) visit(child)
  }
  for (const schema of schemas) visit(schema)
  return [...found.values()]
}

/** The part of a Fastify instance `registerNamedSchemas` uses. */
interface SchemaScope {
  addSchema(schema: unknown): unknown
  getSchema(id: string): unknown
  readonly validatorCompiler: unknown
  setValidatorCompiler(compiler: never): unknown
}

/**
 * Adds the named definitions a plugin's routes refer to (and those they refer to) to its scope, so the
 * response serializers resolve the references and @fastify/swagger publishes them as components.
 *
 * A scope that adds schemas rebuilds its request validator from Fastify's default factory (Ajv without
 * our formats), not from the compiler the app installed: the app's compiler is installed again here, so
 * requests are validated exactly as in every other scope.
 */
export function registerNamedSchemas(app: SchemaScope, schemas: readonly unknown[]): void {
  const validatorCompiler = app.validatorCompiler
  let added = false
  for (const definition of namedDefinitionsIn(schemas)) {
    if (app.getSchema(definition.$id) !== undefined) continue
    app.addSchema(definition)
    added = true
  }
  if (added && validatorCompiler !== undefined) app.setValidatorCompiler(validatorCompiler as never)
}

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 timestamp, UTC.' })

/** A calendar date that exists (`2026-02-30` is refused), years 0001 to 9999. */
export const Day = (description = 'A calendar date, YYYY-MM-DD.') => Type.String({ format: 'date', description })

/** A calendar date or an RFC 3339 timestamp, each checked as real (see http/validation.ts). */
export const DayOrTimestamp = (description: string) => Type.String({ format: 'date-or-date-time', description })

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const TenantId = Type.String({ pattern: uuidPattern, description: 'Tenant id (UUID).' })

/** A closed object: unknown fields are refused, never silently dropped. */
export const Strict = <T extends Record<string, TSchema>>(properties: T, options: { description?: string; minProperties?: number } = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options })

/**
 * A path parameter naming a tenant: it must be the caller's own. The guard compares it with the caller's
 * tenant before validation, so any other value, whatever its shape (another tenant's, one that does not
 * exist, not a UUID at all), is 403 `auth_tenant_mismatch` alike, as the spec says for
 * `DELETE /v1/tenants/{id}`; the pattern documents what the caller's own id looks like.
 */
export const TenantPathId = Type.String({
  pattern: uuidPattern,
  description: `Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over ${pathParameterCharactersMax} characters is 400 request_params_invalid.`,
})

export const TenantPathParams = Strict({ tenant_id: TenantPathId })

/**
 * A path parameter naming one resource of the caller's tenant. Any string of 1 to
 * `pathParameterCharactersMax` characters is accepted, because whether an id names something is the
 * lookup's answer, not the schema's: an id of another shape (a UUID, another kind's id, `x`) names
 * nothing, so it is 404 with the resource's not-found code, as an unknown or another tenant's id is
 * (Stripe's "No such …"). Only a longer value is 400 `request_params_invalid` (the router refuses it
 * first). Lookups compare these ids with `text` columns only, never a `uuid` column, so no shape can
 * make the database fail.
 */
export function PathId(notFound: ErrorCode, kind?: IdKind, noun?: string) {
  const what = kind === undefined ? (noun ?? 'An id') : `${noun ?? 'The id'} (${idPrefixes[kind]}_…)`
  return Type.String({
    minLength: 1,
    maxLength: pathParameterCharactersMax,
    description: `${what}. An id that names nothing of your tenant, whatever its shape, is 404 ${notFound}; over ${pathParameterCharactersMax} characters is 400 request_params_invalid.`,
  })
}

/** `limit` and `cursor` for a listing with the given page-size bounds. */
export function pageQuery(bounds: PageSizeBounds) {
  return {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: bounds.maxRows, description: `Page size, 1 to ${bounds.maxRows} (default ${bounds.defaultRows}).` }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Opaque cursor from the previous page\'s next_cursor.' })),
  }
}

export const NextCursor = Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last page.' }))
