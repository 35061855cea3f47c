/**
 * Benchmark options, from argv (`--duration 5` or `--duration=5`) or the environment (BENCH_*); argv wins.
 */

export interface BenchOptions {
  /** Seconds each workload is measured. */
  readonly durationSeconds: number
  /** Seconds each workload runs, unmeasured, before it is measured. */
  readonly warmupSeconds: number
  /** Concurrent connections for every workload except login. */
  readonly connections: number
  /** Concurrent connections for login (scrypt is CPU-bound: more connections only queue). */
  readonly loginConnections: number
  /** Workload ids to run (the baseline always runs). */
  readonly only: readonly string[] | undefined
  /** Where the JSON results go. */
  readonly output: string
  /** The app's log level while the benchmark runs. */
  readonly logLevel: string
}

export const usage = `Usage: npm run bench -- [options]

Options (or the environment variable in brackets):
  --duration SECONDS           measured seconds per workload (BENCH_DURATION, default 10)
  --warmup SECONDS             unmeasured warm-up seconds per workload (BENCH_WARMUP, default 2)
  --connections N              concurrent connections (BENCH_CONNECTIONS, default 10)
  --login-connections N        concurrent connections for login (BENCH_LOGIN_CONNECTIONS, default 4)
  --only ID[,ID...]            run only these workloads: login, read, read_api_key, evaluate
                               (BENCH_ONLY; the baseline always runs, --only baseline runs just it)
  --output PATH                JSON results (BENCH_OUTPUT, default bench/results/latest.json)
  --log-level LEVEL            the app's log level (BENCH_LOG_LEVEL, default warn)
  --help

DATABASE_URL=postgres://… runs against a fresh throwaway database on that server (dropped at the end);
unset runs on embedded PGlite in a temporary directory. REDIS_URL, if set, is used for rate-limit state.`

export class UsageError extends Error {}

/** Workloads --only can select; `baseline` alone runs just the baseline. */
export const workloadIds: readonly string[] = ['baseline', 'login', 'read', 'read_api_key', 'evaluate']

export function parseOptions(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): BenchOptions | 'help' {
  const args = new Map<string, string>()
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!
    if (arg === '--help' || arg === '-h') return 'help'
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg)
    if (match === null) throw new UsageError(`unexpected argument "${arg}"`)
    const name = match[1]!
    let value = match[2]
    if (value === undefined) {
      value = argv[index + 1]
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`)
      index += 1
    }
    args.set(name, value)
  }
  const known = ['duration', 'warmup', 'connections', 'login-connections', 'only', 'output', 'log-level']
  for (const name of args.keys()) if (!known.includes(name)) throw new UsageError(`unknown option --${name}`)

  const read = (name: string, envName: string): string | undefined => {
    const value = args.get(name) ?? env[envName]
    return value === undefined || value.trim() === '' ? undefined : value.trim()
  }
  const number = (name: string, envName: string, fallback: number, min: number): number => {
    const raw = read(name, envName)
    if (raw === undefined) return fallback
    const parsed = Number(raw)
    if (!Number.isFinite(parsed) || parsed < min) throw new UsageError(`--${name} (${envName}): "${raw}" is not a number >= ${min}`)
    return parsed
  }
  const integer = (name: string, envName: string, fallback: number, min: number): number => {
    const parsed = number(name, envName, fallback, min)
    if (!Number.isInteger(parsed)) throw new UsageError(`--${name} (${envName}): "${parsed}" is not a whole number`)
    return parsed
  }

  const only = read('only', 'BENCH_ONLY')
    ?.split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '')
  const unknownIds = only?.filter((id) => !workloadIds.includes(id)) ?? []
  if (unknownIds.length > 0) throw new UsageError(`--only (BENCH_ONLY): unknown workload ${unknownIds.join(', ')}; known: ${workloadIds.join(', ')}`)
  return {
    durationSeconds: number('duration', 'BENCH_DURATION', 10, 1),
    warmupSeconds: number('warmup', 'BENCH_WARMUP', 2, 0),
    connections: integer('connections', 'BENCH_CONNECTIONS', 10, 1),
    loginConnections: integer('login-connections', 'BENCH_LOGIN_CONNECTIONS', 4, 1),
    only: only === undefined || only.length === 0 ? undefined : only,
    output: read('output', 'BENCH_OUTPUT') ?? 'bench/results/latest.json',
    logLevel: read('log-level', 'BENCH_LOG_LEVEL') ?? 'warn',
  }
}
