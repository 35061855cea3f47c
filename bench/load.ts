/**
 * Drives one workload over real HTTP with autocannon and reduces its result to the figures we report.
 *
 * autocannon runs in a worker thread (load-worker.ts), not on the server's event loop: load generated
 * in-process would steal the very event loop it is measuring. (The worker still shares the machine's
 * cores with the server, as any local load generator would.)
 */
import { Worker } from 'node:worker_threads'

export interface Workload {
  /** Stable id, used in JSON and by --only. */
  readonly id: string
  readonly name: string
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: unknown
  readonly connections: number
  /** Another server than the one under test (the bare twins of bench/bare.ts). */
  readonly baseUrl?: string
}

export interface LoadJob {
  readonly baseUrl: string
  readonly workload: Workload
  readonly durationSeconds: number
}

export interface Measurement {
  readonly id: string
  readonly name: string
  readonly method: string
  readonly path: string
  readonly connections: number
  readonly duration_seconds: number
  readonly requests_total: number
  readonly requests_per_second: number
  /** Latency percentiles of 2xx responses, in milliseconds. */
  readonly p50_ms: number
  readonly p90_ms: number
  readonly p99_ms: number
  readonly max_ms: number
  readonly responses_2xx: number
  readonly non_2xx: number
  /** Connection errors, including timeouts. */
  readonly errors: number
  readonly timeouts: number
  readonly status_codes: Record<string, number>
}

type WorkerReply = { ok: true; measurement: Measurement } | { ok: false; error: string }

const tsxApi = import.meta.resolve('tsx/esm/api')
const workerModule = new URL('./load-worker.ts', import.meta.url).href
// Worker threads do not inherit tsx's loader: the worker loads tsx's API, then the TypeScript module through it.
const workerBootstrap = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(workerModule)}, ${JSON.stringify(workerModule)}))`

export function measure(baseUrl: string, workload: Workload, durationSeconds: number): Promise<Measurement> {
  const job: LoadJob = { baseUrl, workload, durationSeconds }
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerBootstrap, { eval: true, workerData: job })
    let settled = false
    worker.once('message', (reply: WorkerReply) => {
      settled = true
      if (reply.ok) resolve(reply.measurement)
      else reject(new Error(`load generator failed: ${reply.error}`))
    })
    worker.once('error', (error) => {
      settled = true
      reject(error)
    })
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`load generator exited with code ${code} before reporting`))
    })
  })
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}
