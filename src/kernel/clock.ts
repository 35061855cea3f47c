/** The clock is passed in, never read directly by domain code, so time-dependent rules are testable. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock tests can move by hand. */
export function fixedClock(start: Date): Clock & { advance(milliseconds: number): void; set(at: Date): void } {
  let current = start.getTime()
  return {
    now: () => new Date(current),
    advance: (milliseconds) => {
      current += milliseconds
    },
    set: (at) => {
      current = at.getTime()
    },
  }
}
