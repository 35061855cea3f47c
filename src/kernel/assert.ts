/**
 * Assertions for programmer errors (TIGER_STYLE): an invariant the code itself guarantees, such as a row
 * that cannot vanish inside the transaction that just read it, or a command that cannot run without the
 * principal its route authenticated. A failed assertion is a bug, so it crashes loudly with a message
 * naming the broken invariant; the error handler answers 500 internal_error and logs it.
 *
 * An operating error (a missing row the caller named, a conflict, a refusal) is never an assertion: it is
 * a catalogue AppError (`kernel/errors.ts`) the caller can act on.
 */

/** Thrown by a failed assertion: never an AppError, so no caller can mistake a bug for an answer. */
export class AssertionError extends Error {
  override readonly name = 'AssertionError'

  constructor(message: string) {
    super(`assertion failed: ${message}`)
  }
}

/** Asserts `condition`; `message` says which invariant broke. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message)
}

/** For the branch after an exhaustive switch: the compiler proves it unreachable, this proves it at run time. */
export function unreachable(value: never): never {
  throw new AssertionError(`unreachable case reached with ${describe(value)}`)
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
