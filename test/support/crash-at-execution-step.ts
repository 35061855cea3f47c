/**
 * Preloaded into a worker process by the execution crash test (test/modules/execution/execution-crash.test.ts):
 * on the Nth message of `steward:execution:step` whose point is STEWARD_TEST_CRASH_AT_STEP (N is
 * STEWARD_TEST_CRASH_AT_OCCURRENCE, 1 unless set), the process appends where it dies to the file
 * STEWARD_TEST_CRASH_LOG (one JSON line, written synchronously so it survives the kill) and kills itself
 * with SIGKILL: no cleanup runs, no transaction is rolled back by the process, no pg-boss job is completed.
 */
import diagnostics from 'node:diagnostics_channel'
import { appendFileSync } from 'node:fs'

/** The line the test reads back for each kill. */
export interface CrashLogLine {
  readonly point: string
  readonly occurrence: number
  readonly tenantId: string
  readonly outboxId: string
  readonly pid: number
}

const target = process.env.STEWARD_TEST_CRASH_AT_STEP
if (target !== undefined && target !== '') {
  const occurrence = Number(process.env.STEWARD_TEST_CRASH_AT_OCCURRENCE ?? '1')
  const log = process.env.STEWARD_TEST_CRASH_LOG
  if (!Number.isInteger(occurrence) || occurrence < 1) throw new Error('STEWARD_TEST_CRASH_AT_OCCURRENCE must be a positive integer')
  if (log === undefined || log === '') throw new Error('STEWARD_TEST_CRASH_LOG is required with STEWARD_TEST_CRASH_AT_STEP')
  let seen = 0
  // Subscribing by name works before the worker's module creates the channel: channels are process-wide by name.
  diagnostics.subscribe('steward:execution:step', (message) => {
    const { point, tenantId, outboxId } = message as { point: string; tenantId: string; outboxId: string }
    if (point !== target) return
    seen += 1
    if (seen < occurrence) return
    const line: CrashLogLine = { point, occurrence: seen, tenantId, outboxId, pid: process.pid }
    appendFileSync(log, `${JSON.stringify(line)}\n`)
    process.kill(process.pid, 'SIGKILL')
  })
}
