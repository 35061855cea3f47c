/**
 * What every command gets: its parsed arguments, the environment, the output, and the API clients —
 * the tenant's (from `--url`/STEWARD_URL and the profile `steward login` saved) and the platform's
 * (STEWARD_URL or PUBLIC_BASE_URL, and PLATFORM_SERVICE_SECRET).
 */
import { ApiError, createApiClient, normalizeBaseUrl, type ApiClient } from './api.ts'
import type { Output } from './output.ts'
import { configPath, readProfile, type Profile } from './profiles.ts'

/** Exit statuses (README, "The steward CLI"). */
export const exitCodes = {
  ok: 0,
  /** The API refused (its error envelope's message is printed), or the outcome is a failure (a broken chain, a failed extraction). */
  failed: 1,
  usage: 2,
  /** The API could not be reached. */
  unavailable: 69,
  /** No credential: not logged in (steward login), or PLATFORM_SERVICE_SECRET unset for an operator command. */
  noCredential: 77,
  /** A bad URL or configuration value. */
  configuration: 78,
} as const

/** A failure the CLI reports in one line and an exit status (never a stack). */
export class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message)
    this.name = 'CliError'
  }
}

export type OptionValues = Record<string, string | boolean | string[] | undefined>

export interface CommandContext {
  readonly values: OptionValues
  readonly positionals: readonly string[]
  readonly env: NodeJS.ProcessEnv
  readonly output: Output
  readonly profileName: string
  readonly configPath: string
  /** The saved profile, if any. */
  profile(): Profile | undefined
  /** Where the tenant API is: --url, STEWARD_URL, the profile's URL, PUBLIC_BASE_URL, then http://localhost:$PORT. */
  baseUrl(): string
  /** A client with the profile's credential (77 when not logged in). */
  tenantApi(): ApiClient
  /** A client with the platform secret (78 when PLATFORM_SERVICE_SECRET is unset). */
  platformApi(): ApiClient
  /** Stops long-running commands (Ctrl-C, SIGTERM). */
  readonly signal: AbortSignal
}

export function createCommandContext(input: {
  values: OptionValues
  positionals: readonly string[]
  env: NodeJS.ProcessEnv
  output: Output
  signal: AbortSignal
}): CommandContext {
  const { values, env } = input
  const profileName = typeof values.profile === 'string' ? values.profile : (env.STEWARD_PROFILE ?? 'default')
  const path = configPath(env)
  const profile = () => readProfile(path, profileName)
  const checkedUrl = (value: string) => {
    try {
      return normalizeBaseUrl(value)
    } catch (error) {
      throw new CliError(exitCodes.configuration, (error as Error).message)
    }
  }
  const explicitUrl = () => (typeof values.url === 'string' ? values.url : nonEmpty(env.STEWARD_URL))
  const serverUrl = () => nonEmpty(env.PUBLIC_BASE_URL) ?? `http://localhost:${nonEmpty(env.PORT) ?? '8080'}`
  return {
    ...input,
    profileName,
    configPath: path,
    profile,
    baseUrl: () => checkedUrl(explicitUrl() ?? profile()?.url ?? serverUrl()),
    tenantApi() {
      const saved = profile()
      if (saved === undefined) throw new CliError(exitCodes.noCredential, `not logged in (profile ${profileName}): run steward login`)
      const token = saved.credential.type === 'api_key' ? saved.credential.key : saved.credential.token
      return createApiClient({ baseUrl: checkedUrl(explicitUrl() ?? saved.url), credential: { kind: 'bearer', token } })
    },
    platformApi() {
      const secret = nonEmpty(env.PLATFORM_SERVICE_SECRET)
      if (secret === undefined) throw new CliError(exitCodes.configuration, 'PLATFORM_SERVICE_SECRET is not set: operator commands send the server\'s platform secret (X-Platform-Service-Auth)')
      return createApiClient({ baseUrl: checkedUrl(explicitUrl() ?? serverUrl()), credential: { kind: 'platform', secret } })
    },
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}

/** The message an API refusal prints: the envelope's message, its code, and for an expired session what to do. */
export function describeApiError(error: ApiError): string {
  const hint = error.status === 401 && error.code !== 'auth_invalid_credentials' ? ' (run steward login)' : ''
  return `${error.message} [${error.code}${error.requestId === undefined ? '' : `, request ${error.requestId}`}]${hint}`
}
