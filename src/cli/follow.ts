/**
 * Following a list that grows (audit events, business events) by polling it. Items get their id and
 * created_at when they are recorded, not when their transaction commits, so an item of a long
 * transaction can appear behind one already seen: each poll re-reads a trailing window (`overlapMs`
 * before the newest item seen, never before the start) and skips the ids it has handled. An item that
 * commits later than that window after its created_at is missed; the window is the bound.
 */

export interface FollowedItem {
  readonly id: string
  readonly created_at: string
}

export interface FollowOptions<Item extends FollowedItem> {
  /** Where following starts (the server's clock: a response's Date header). */
  readonly start: Date
  /** One page of items created at or after `since`, continuing from `continuation` (null for the first page). */
  fetchPage(since: Date, continuation: string | null): Promise<{ items: readonly Item[]; continuation: string | null }>
  /** Called once per item, in the order pages return them. */
  handle(item: Item): Promise<void>
  readonly pollIntervalMs: number
  readonly overlapMs: number
  /** Stop after this many items (0: never). */
  readonly maxItems: number
  readonly signal: AbortSignal
}

/** Pages a poll may read before it sleeps (a backlog is read over several polls). */
export const followPagesPerPollMax = 50

export async function follow<Item extends FollowedItem>(options: FollowOptions<Item>): Promise<number> {
  const seen = new Map<string, number>()
  let newestMs = options.start.getTime()
  let handled = 0
  while (!options.signal.aborted) {
    const since = new Date(Math.max(options.start.getTime(), newestMs - options.overlapMs))
    let continuation: string | null = null
    for (let page = 0; page < followPagesPerPollMax; page += 1) {
      const result = await options.fetchPage(since, continuation)
      for (const item of result.items) {
        if (seen.has(item.id)) continue
        const createdMs = Date.parse(item.created_at)
        seen.set(item.id, createdMs)
        newestMs = Math.max(newestMs, createdMs)
        await options.handle(item)
        handled += 1
        if (options.maxItems > 0 && handled >= options.maxItems) return handled
      }
      continuation = result.continuation
      if (continuation === null || options.signal.aborted) break
    }
    // Forget what has left the window: the next poll cannot return it again.
    const horizon = newestMs - options.overlapMs
    for (const [id, createdMs] of seen) if (createdMs < horizon) seen.delete(id)
    await sleep(options.pollIntervalMs, options.signal)
  }
  return handled
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
