/**
 * Opaque pagination cursors. A cursor is the position after the last row of a page, bound to the listing
 * it came from (route and tenant), and signed so that a forged or altered cursor is refused with
 * 400 invalid_cursor instead of being trusted as a query position.
 */
import { AppError } from './errors.ts'
import { constantTimeEqual, hmacSha256 } from './hashing.ts'

export interface CursorCodec {
  encode(listing: string, position: Readonly<Record<string, string | number>>): string
  decode(listing: string, cursor: string): Record<string, string | number>
}

const signatureBytes = 16

export function createCursorCodec(key: string): CursorCodec {
  const sign = (listing: string, body: string) =>
    hmacSha256(key, `${listing}\n${body}`).subarray(0, signatureBytes).toString('base64url')

  return {
    encode(listing, position) {
      const body = Buffer.from(JSON.stringify(position)).toString('base64url')
      return `${body}.${sign(listing, body)}`
    },
    decode(listing, cursor) {
      const [body, signature, extra] = cursor.split('.')
      if (body === undefined || signature === undefined || extra !== undefined || !constantTimeEqual(signature, sign(listing, body))) {
        throw new AppError('invalid_cursor')
      }
      let position: unknown
      try {
        position = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
      } catch {
        throw new AppError('invalid_cursor')
      }
      if (position === null || typeof position !== 'object' || Array.isArray(position)) throw new AppError('invalid_cursor')
      return position as Record<string, string | number>
    },
  }
}

/** Page-size bounds per listing (spec, "Limits"), with the unit last. */
export interface PageSizeBounds {
  readonly defaultRows: number
  readonly maxRows: number
}
