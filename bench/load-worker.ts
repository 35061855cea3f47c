/**
 * Runs in a worker thread (see load.ts): one autocannon run, reduced to a Measurement. Latencies are
 * taken from autocannon's per-response timings (floating-point milliseconds), because its own latency
 * histogram has a 1 ms resolution, which reads a 0.3 ms route as 0.
 */
import { parentPort, workerData } from 'node:worker_threads'
import autocannon from 'autocannon'
import type { LoadJob, Measurement } from './load.ts'

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return 0
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))
  return sorted[rank]!
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits

/**
 * Off the main thread autocannon hands back its raw, unaggregated result (it aggregates only when
 * `isMainThread`): counts are plain fields and the histograms are encoded.
 */
interface RawResult {
  readonly totalCompletedRequests: number
  readonly duration: number
  readonly errors: number
  readonly timeouts: number
  readonly non2xx: number
  readonly '2xx': number
  readonly statusCodeStats?: Record<string, { count?: number }>
}

function run(job: LoadJob): Promise<Measurement> {
  const { workload } = job
  const headers: Record<string, string> = { ...workload.headers }
  let body: string | undefined
  if (workload.body !== undefined) {
    body = JSON.stringify(workload.body)
    headers['content-type'] = 'application/json'
  }
  let latencies = new Float64Array(1 << 16)
  let count = 0
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.baseUrl + workload.path,
        method: workload.method,
        headers,
        ...(body === undefined ? {} : { body }),
        connections: workload.connections,
        pipelining: 1,
        duration: job.durationSeconds,
        // Login under load queues behind scrypt; a request slower than this counts as a timeout error.
        timeout: 30,
      },
      (error, aggregated) => {
        const result = aggregated as unknown as RawResult
        if (error) {
          reject(error instanceof Error ? error : new Error(String(error)))
          return
        }
        const sorted = latencies.subarray(0, count).sort()
        const statusCodes: Record<string, number> = {}
        for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats.count ?? 0
        const seconds = result.duration > 0 ? result.duration : job.durationSeconds
        resolve({
          id: workload.id,
          name: workload.name,
          method: workload.method,
          path: workload.path,
          connections: workload.connections,
          duration_seconds: round(seconds, 2),
          requests_total: result.totalCompletedRequests,
          requests_per_second: round(result.totalCompletedRequests / seconds, 1),
          p50_ms: round(percentile(sorted, 0.5), 3),
          p90_ms: round(percentile(sorted, 0.9), 3),
          p99_ms: round(percentile(sorted, 0.99), 3),
          max_ms: round(count === 0 ? 0 : sorted[count - 1]!, 3),
          responses_2xx: result['2xx'],
          non_2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          status_codes: statusCodes,
        })
      },
    )
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      const status = Number(statusCode)
      if (status < 200 || status > 299) return // as autocannon does: latency of successes only
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2)
        grown.set(latencies)
        latencies = grown
      }
      latencies[count] = responseTime
      count += 1
    })
  })
}

run(workerData as LoadJob).then(
  (measurement) => parentPort!.postMessage({ ok: true, measurement }),
  (error: unknown) => parentPort!.postMessage({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
)
