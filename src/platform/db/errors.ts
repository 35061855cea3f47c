/**
 * Recognizes database errors the services handle, on both engines. Drizzle wraps the driver's error;
 * the SQLSTATE and constraint name are on the wrapped cause (pg and PGlite name them the same way).
 */
interface DatabaseErrorFields {
  code?: unknown
  constraint?: unknown
  cause?: unknown
}

function findDatabaseError(error: unknown): DatabaseErrorFields | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    const fields = current as DatabaseErrorFields
    if (typeof fields.code === 'string' && /^[0-9A-Z]{5}$/.test(fields.code)) return fields
    current = fields.cause
  }
  return undefined
}

/** A unique_violation (23505), optionally on one named constraint or unique index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const found = findDatabaseError(error)
  if (found?.code !== '23505') return false
  return constraint === undefined || found.constraint === constraint
}
