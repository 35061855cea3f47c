/** Column helpers shared by every module's tables (`*.tables.ts`). */
import { customType, timestamp } from 'drizzle-orm/pg-core'

/** `bytea` as a Node Buffer on both drivers. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
})

export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })
export const createdAt = () => timestamptz('created_at').notNull()
export const updatedAt = () => timestamptz('updated_at').notNull()
