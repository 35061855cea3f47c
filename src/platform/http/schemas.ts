/** Wire-schema building blocks shared by the slices' route schemas. */
import Type, { type TSchema } from 'typebox'
import { uuidPattern } from '../../kernel/ids.ts'
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

export const TenantPathParams = Strict({ tenant_id: TenantId })

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
