/**
 * What stopped this process while a workload ran: event-loop stalls (a 2 ms timer that fired late) and
 * V8's garbage collections (perf_hooks 'gc' entries, by kind), and how many of the slowest operations
 * were in flight during one of them. A latency tail that sits inside these windows is the process's
 * own (CPU starved, or collecting), not the database's.
 *
 *   const pauses = watchPauses()
 *   … run the workload, calling pauses.operation(start, end) for each operation (performance.now() ms) …
 *   const report = pauses.stop()
 */
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks'
import { round } from './load.ts'

/** A stall is a tick this much later than its 2 ms period. */
const stallMs = 10
const tickMs = 2

export interface PauseWindow {
  /** Start, in ms since the watch began. */
  readonly atMs: number
  readonly ms: number
}

export interface PauseSummary {
  readonly count: number
  readonly totalMs: number
  readonly maxMs: number
}

export interface PauseReport {
  /** Timer ticks more than 10 ms late: the event loop was busy, or the thread was not on a core. */
  readonly eventLoopStalls: PauseSummary & { readonly windows: readonly PauseWindow[] }
  /** Full (mark-compact) collections and their pauses on this thread. */
  readonly gcMajor: PauseSummary & { readonly windows: readonly PauseWindow[] }
  /** Scavenges of the young generation. */
  readonly gcMinor: PauseSummary
  /** The slowest 1 % of the operations reported, and how many of them overlapped a stall or a full collection. */
  readonly slowestPercent: { readonly operations: number; readonly overlappingPauses: number }
}

function summaryOf(windows: readonly PauseWindow[]): PauseSummary {
  return {
    count: windows.length,
    totalMs: round(windows.reduce((sum, window) => sum + window.ms, 0), 1),
    maxMs: round(windows.reduce((max, window) => Math.max(max, window.ms), 0), 1),
  }
}

export function watchPauses(): { operation(startMs: number, endMs: number): void; stop(): PauseReport } {
  const began = performance.now()
  const stalls: PauseWindow[] = []
  const major: PauseWindow[] = []
  const minor: PauseWindow[] = []
  const operations: Array<{ start: number; end: number }> = []
  let lastTick = began
  const ticker = setInterval(() => {
    const now = performance.now()
    if (now - lastTick > tickMs + stallMs) stalls.push({ atMs: round(lastTick - began, 1), ms: round(now - lastTick - tickMs, 1) })
    lastTick = now
  }, tickMs)
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { detail?: { kind?: number } }>) {
      const window = { atMs: round(entry.startTime - began, 1), ms: round(entry.duration, 2) }
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major.push(window)
      else if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) minor.push(window)
    }
  })
  observer.observe({ entryTypes: ['gc'] })
  return {
    operation(startMs, endMs) {
      operations.push({ start: startMs - began, end: endMs - began })
    },
    stop() {
      clearInterval(ticker)
      observer.disconnect()
      const slowest = [...operations].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, Math.ceil(operations.length / 100))
      const pauses = [...stalls, ...major]
      const overlapping = slowest.filter((operation) => pauses.some((pause) => operation.start < pause.atMs + pause.ms && operation.end > pause.atMs)).length
      return {
        eventLoopStalls: { ...summaryOf(stalls), windows: stalls },
        gcMajor: { ...summaryOf(major), windows: major },
        gcMinor: summaryOf(minor),
        slowestPercent: { operations: slowest.length, overlappingPauses: overlapping },
      }
    },
  }
}

/** One line for a bench's log. */
export function describePauses(report: PauseReport): string {
  const { eventLoopStalls: stalls, gcMajor: major, gcMinor: minor, slowestPercent } = report
  return (
    `event loop stalled ${stalls.count}× (${stalls.totalMs} ms in all, longest ${stalls.maxMs} ms); ` +
    `full GC ${major.count}× (longest pause ${major.maxMs} ms), scavenges ${minor.count}× (${minor.totalMs} ms); ` +
    `${slowestPercent.overlappingPauses} of the slowest ${slowestPercent.operations} operations overlapped a stall or a full GC`
  )
}
