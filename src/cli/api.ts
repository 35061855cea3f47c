/**
 * The CLI's one door to the API: every HTTP call of every command goes through here, so the transport
 * can become the generated SDK (openapi-fetch) without touching a command. It sends the credential
 * (a bearer, or the platform secret as X-Platform-Service-Auth), an Idempotency-Key when asked, and turns
 * the error envelope `{error:{code,message,details?,request_id,docs_url}}` into an ApiError.
 */
import { randomUUID } from 'node:crypto'

/** The service answered with its error envelope (or, failing that, a non-2xx status). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly details: Record<string, unknown> | undefined,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** The service could not be reached (refused, reset, a name that does not resolve, a timeout). */
export class UnreachableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`cannot reach ${url}: ${describeCause(cause)}`)
    this.name = 'UnreachableError'
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = (cause as Error & { cause?: unknown }).cause
    if (inner instanceof Error) return `${inner.message}`
    return cause.message
  }
  return String(cause)
}

export type Credential = { readonly kind: 'bearer'; readonly token: string } | { readonly kind: 'platform'; readonly secret: string } | { readonly kind: 'none' }

export type Query = Record<string, string | number | boolean | undefined>

export interface RequestOptions {
  readonly query?: Query
  /** A JSON body. */
  readonly json?: unknown
  /** A body as it is (a multipart stream, for instance), with its headers. */
  readonly body?: { readonly stream: ReadableStream<Uint8Array>; readonly contentType: string; readonly contentLength: number }
  /** Sends an Idempotency-Key: the given one, or a fresh one when true (a retry of this call may then reuse it). */
  readonly idempotencyKey?: string | true
  /** Milliseconds before the request is abandoned (default 60 s). */
  readonly timeoutMs?: number
}

export interface ApiResponse<T> {
  readonly status: number
  readonly body: T
  readonly headers: Headers
}

export interface ApiClient {
  readonly baseUrl: string
  request<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, options?: RequestOptions): Promise<ApiResponse<T>>
  get<T>(path: string, query?: Query): Promise<T>
  post<T>(path: string, json?: unknown, options?: Omit<RequestOptions, 'json'>): Promise<T>
}

export const requestTimeoutMsDefault = 60_000
/**
 * A 429 is retried after its Retry-After (the spec: clients must honour it), at most this many times and
 * waiting at most `rateLimitWaitSecondsMax` each, for a request that is safe to repeat: a GET, or a
 * POST with an Idempotency-Key whose body can be sent again (not a streamed upload).
 */
export const rateLimitRetriesMax = 3
export const rateLimitWaitSecondsMax = 60

/** A base URL as given (STEWARD_URL, --url, a profile), checked and without its trailing slashes. */
export function normalizeBaseUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new TypeError(`${JSON.stringify(value)} is not a URL (expected http://host:port or https://host)`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${value}: only http and https URLs are supported`)
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '')
}

export function createApiClient(options: { baseUrl: string; credential: Credential; userAgent?: string }): ApiClient {
  const baseUrl = normalizeBaseUrl(options.baseUrl)

  async function request<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, requestOptions: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(`${baseUrl}${path}`)
    for (const [name, value] of Object.entries(requestOptions.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value))
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': options.userAgent ?? 'steward-cli/1' }
    if (options.credential.kind === 'bearer') headers.authorization = `Bearer ${options.credential.token}`
    if (options.credential.kind === 'platform') headers['x-platform-service-auth'] = options.credential.secret
    // One key for every attempt of this call: a retry after a lost response replays instead of repeating.
    if (requestOptions.idempotencyKey !== undefined) headers['idempotency-key'] = requestOptions.idempotencyKey === true ? randomUUID() : requestOptions.idempotencyKey
    let body: string | ReadableStream<Uint8Array> | undefined
    if (requestOptions.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(requestOptions.json)
    } else if (requestOptions.body !== undefined) {
      headers['content-type'] = requestOptions.body.contentType
      headers['content-length'] = String(requestOptions.body.contentLength)
      body = requestOptions.body.stream
    }
    const repeatable = requestOptions.body === undefined && (method === 'GET' || requestOptions.idempotencyKey !== undefined)
    let response: Response
    for (let attempt = 0; ; attempt += 1) {
      try {
        response = await fetch(url, {
          method,
          headers,
          body,
          signal: AbortSignal.timeout(requestOptions.timeoutMs ?? requestTimeoutMsDefault),
          ...(requestOptions.body !== undefined ? { duplex: 'half' } : {}),
        } as RequestInit)
      } catch (error) {
        throw new UnreachableError(baseUrl, error)
      }
      if (response.status !== 429 || !repeatable || attempt >= rateLimitRetriesMax) break
      const waitSeconds = Math.min(rateLimitWaitSecondsMax, Math.max(1, Number(response.headers.get('retry-after')) || 1))
      await response.arrayBuffer().catch(() => undefined)
      await new Promise((resolve) => setTimeout(resolve, waitSeconds * 1000))
    }
    const text = await response.text()
    let parsed: unknown = undefined
    if (text !== '') {
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = text
      }
    }
    if (!response.ok) throw toApiError(response, parsed)
    return { status: response.status, body: parsed as T, headers: response.headers }
  }

  return {
    baseUrl,
    request,
    get: async (path, query) => (await request<never>('GET', path, { query })).body,
    post: async (path, json, postOptions = {}) => (await request<never>('POST', path, { ...postOptions, json: json ?? {} })).body,
  }
}

function toApiError(response: Response, body: unknown): ApiError {
  const envelope = (body as { error?: { code?: unknown; message?: unknown; request_id?: unknown; details?: unknown } } | undefined)?.error
  if (envelope !== undefined && typeof envelope.code === 'string' && typeof envelope.message === 'string') {
    return new ApiError(
      response.status,
      envelope.code,
      envelope.message,
      typeof envelope.request_id === 'string' ? envelope.request_id : undefined,
      typeof envelope.details === 'object' && envelope.details !== null ? (envelope.details as Record<string, unknown>) : undefined,
    )
  }
  return new ApiError(response.status, `http_${response.status}`, `HTTP ${response.status} ${response.statusText}`, response.headers.get('x-request-id') ?? undefined, undefined)
}
