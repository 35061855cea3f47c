/** Wire-schema building blocks shared by the slices' route schemas. */
import Type, { type TSchema } from 'typebox'
import { idPrefixes, uuidPattern, type IdKind } from '../../kernel/ids.ts'
import type { ErrorCode } from '../../kernel/errors.ts'
import { pathParameterCharactersMax } from './errors.ts'
import type { PageSizeBounds } from '../../kernel/cursor.ts'
import { decimalPattern } from '../../kernel/money.ts'

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
