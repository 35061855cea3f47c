/** Wire-schema building blocks shared by the slices' route schemas. */
import Type, { type TSchema } from 'typebox'
import { uuidPattern } from '../../kernel/ids.ts'
import type { PageSizeBounds } from '../../kernel/cursor.ts'

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
