/**
 * The Steward TypeScript SDK: a small hand-written client over openapi-fetch and the types that
 * openapi-typescript generates from the service's OpenAPI document (schema.d.ts, from openapi.json; both
 * written by `npm run sdk:generate` and never edited by hand).
 *
 * - Every call is typed by its path and method: parameters, body and the 2xx body.
 * - A non-2xx answer throws `StewardApiError`, carrying the error envelope, its `code` typed as the
 *   catalogue's codes; an answer that is not the envelope throws `StewardResponseError`.
 * - `bearer` (a string, or a function asked before every request) is sent as `Authorization: Bearer …`;
 *   `idempotencyKey` on a call sends `Idempotency-Key`, and `request()` says whether the answer was a
 *   replay (`Idempotent-Replayed: true`).
 * - `paginate()` walks a list route page by page (its `cursor` query parameter and `next_cursor`) and
 *   yields the items; `pages()` yields the pages.
 *
 * It depends on openapi-fetch only and runs wherever `fetch` does (Node 20, browsers, workers). The
 * service's own code never imports it.
 */
import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch'
import type { components, operations, paths } from './schema.d.ts'

export type { components, operations, paths }

/** A named schema of the API: `Schema<'Transaction'>`, `Schema<'Member'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name]
/** The error envelope of every non-2xx answer. */
export type ErrorEnvelope = components['schemas']['Error']
/** Every code the service answers with (GET /v1/errors lists them with their statuses). */
export type ErrorCode = components['schemas']['ErrorCode']

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch'
/** A method as `request()` takes it, and as openapi-typescript spells it. */
const lowerMethods = { GET: 'get', PUT: 'put', POST: 'post', DELETE: 'delete', PATCH: 'patch' } as const
type Method = keyof typeof lowerMethods
type Lower<M extends Method> = (typeof lowerMethods)[M]

/** The paths that have an operation for `Method`. */
export type PathsWith<Method extends HttpMethod> = {
  [Path in keyof paths]: paths[Path] extends { [M in Method]: object } ? Path : never
}[keyof paths]

type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T]

/** What a call takes besides openapi-fetch's `params` / `body` / `headers`. */
export interface CallOptions {
  /** Sent as the Idempotency-Key header: a repeat with the same key and request replays the first answer. */
  readonly idempotencyKey?: string
  /** Cancels the request. */
  readonly signal?: AbortSignal
}

type Init<Path extends keyof paths, Method extends HttpMethod> = MaybeOptionalInit<paths[Path], Method>
/** The trailing init argument: optional when the operation needs no parameter and no body. */
type InitArgument<I, Extra = CallOptions> = RequiredKeys<NonNullable<I>> extends never ? [init?: NonNullable<I> & Extra] : [init: NonNullable<I> & Extra]

type Defined<T> = [Exclude<T, undefined>] extends [never] ? undefined : Exclude<T, undefined>
/** The 2xx body of an operation (`undefined` when it has none). */
export type ResponseData<Path extends keyof paths, Method extends HttpMethod> = Defined<
  FetchResponse<paths[Path][Method] & Record<string | number, any>, {}, `${string}/${string}`>['data']
>

/** A 2xx answer with what the response said about it. */
export interface StewardResult<Data> {
  readonly data: Data
  readonly status: number
  /** The X-Request-Id of the answer: quote it when reporting a problem. */
  readonly requestId: string | undefined
  /** True when the answer is the stored first answer to this Idempotency-Key (Idempotent-Replayed: true). */
  readonly replayed: boolean
  readonly response: Response
}

/** The service answered with the error envelope: `code` says what went wrong (see `docsUrl`). */
export class StewardApiError extends Error {
  override readonly name = 'StewardApiError'
  readonly status: number
  readonly code: ErrorCode
  readonly details: Record<string, unknown> | undefined
  readonly requestId: string
  readonly docsUrl: string
  readonly envelope: ErrorEnvelope

  constructor(status: number, envelope: ErrorEnvelope) {
    super(`${status} ${envelope.error.code}: ${envelope.error.message}`)
    this.status = status
    this.envelope = envelope
    this.code = envelope.error.code
    this.details = envelope.error.details
    this.requestId = envelope.error.request_id
    this.docsUrl = envelope.error.docs_url
  }
}

/** A non-2xx answer that is not the service's envelope (a proxy's page, a cut-off body). */
export class StewardResponseError extends Error {
  override readonly name = 'StewardResponseError'
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${status}: the answer is not the Steward error envelope`)
  }
}

export function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  if (body === null || typeof body !== 'object') return false
  const error = (body as { error?: unknown }).error
  return (
    error !== null &&
    typeof error === 'object' &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string' &&
    typeof (error as { request_id?: unknown }).request_id === 'string'
  )
}

export interface StewardClientOptions {
  /** The service's address, e.g. `http://127.0.0.1:8080` (no trailing `/v1`). */
  readonly baseUrl: string
  /** A JWT, service token or API key; or a function asked before every request (to refresh it). */
  readonly bearer?: string | (() => string | undefined | Promise<string | undefined>)
  /** Another fetch (a test double, a proxy agent). */
  readonly fetch?: (request: Request) => Promise<Response>
  /** Headers sent with every request. */
  readonly headers?: Record<string, string>
}

/** The most pages `pages()` and `paginate()` read unless told otherwise: a bound on a runaway walk. */
export const pagesMaxDefault = 10_000

export interface PaginateOptions {
  /** Stop (with an error) after this many pages; default `pagesMaxDefault`. */
  readonly pagesMax?: number
}

/** List routes: a GET with a `cursor` query parameter whose 200 body has `next_cursor`. */
export type PaginatedPath = {
  [Path in PathsWith<'get'>]: paths[Path]['get'] extends {
    parameters: { query?: { cursor?: string } }
    responses: { 200: { content: { 'application/json': { next_cursor: string | null } } } }
  }
    ? Path
    : never
}[PathsWith<'get'>]

type ArrayValues<T> = { [K in keyof T]: T[K] extends ReadonlyArray<infer Item> ? Item : never }[keyof T]
/** The items of a list route's page (`members` of a member page, `transactions` of a transaction page). */
export type PageItem<Path extends PaginatedPath> = ArrayValues<ResponseData<Path, 'get'>>

type Call<Method extends HttpMethod> = <Path extends PathsWith<Method>>(path: Path, ...init: InitArgument<Init<Path, Method>>) => Promise<ResponseData<Path, Method>>

export interface StewardClient {
  GET: Call<'get'>
  POST: Call<'post'>
  PUT: Call<'put'>
  PATCH: Call<'patch'>
  DELETE: Call<'delete'>
  /** One call, with the answer's status, request id and whether it was an idempotent replay. */
  request<M extends Method, Path extends PathsWith<Lower<M>>>(method: M, path: Path, ...init: InitArgument<Init<Path, Lower<M>>>): Promise<StewardResult<ResponseData<Path, Lower<M>>>>
  /** The pages of a list route, from the first (or `query.cursor`) to the last. */
  pages<Path extends PaginatedPath>(path: Path, ...init: InitArgument<Init<Path, 'get'>, CallOptions & PaginateOptions>): AsyncGenerator<ResponseData<Path, 'get'>, void, undefined>
  /** The items of a list route, across all its pages. */
  paginate<Path extends PaginatedPath>(path: Path, ...init: InitArgument<Init<Path, 'get'>, CallOptions & PaginateOptions>): AsyncGenerator<PageItem<Path>, void, undefined>
  /** The openapi-fetch client underneath: `{ data, error, response }`, never throws on a status. */
  readonly raw: Client<paths>
}

export function createStewardClient(options: StewardClientOptions): StewardClient {
  const raw = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  })
  if (options.bearer !== undefined) {
    const bearer = options.bearer
    raw.use({
      async onRequest({ request }) {
        const token = typeof bearer === 'function' ? await bearer() : bearer
        if (token !== undefined && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${token}`)
        return request
      },
    })
  }

  async function request(method: string, path: string, init?: Record<string, unknown> & CallOptions): Promise<StewardResult<unknown>> {
    const { idempotencyKey, ...rest } = init ?? {}
    const headers = { ...(rest.headers as Record<string, string> | undefined), ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }) }
    const call = raw.request as unknown as (method: string, path: string, init: Record<string, unknown>) => Promise<{ data?: unknown; error?: unknown; response: Response }>
    const { data, error, response } = await call(lowerMethods[method as Method], path, { ...rest, headers })
    if (!response.ok) throw isErrorEnvelope(error) ? new StewardApiError(response.status, error) : new StewardResponseError(response.status, error)
    return {
      data,
      status: response.status,
      requestId: response.headers.get('x-request-id') ?? undefined,
      replayed: response.headers.get('idempotent-replayed') === 'true',
      response,
    }
  }

  const dataOf = (method: string) => async (path: string, init?: Record<string, unknown> & CallOptions) => (await request(method, path, init)).data

  async function* pages(path: string, options?: Record<string, unknown> & CallOptions & PaginateOptions): AsyncGenerator<unknown, void, undefined> {
    const { pagesMax = pagesMaxDefault, ...init } = options ?? {}
    const params = (init.params ?? {}) as { query?: Record<string, unknown> }
    let cursor = params.query?.cursor as string | undefined
    for (let page = 0; ; page += 1) {
      if (page === pagesMax) throw new Error(`${path}: stopped after ${pagesMax} pages (raise pagesMax to read more)`)
      const query = { ...params.query, ...(cursor === undefined ? {} : { cursor }) }
      const data = (await request('GET', path, { ...init, params: { ...params, query } })).data as { next_cursor: string | null }
      yield data
      if (data.next_cursor === null) return
      // A cursor that does not move would loop for ever: the service never does that, so say so loudly.
      if (data.next_cursor === cursor) throw new Error(`${path}: next_cursor did not advance`)
      cursor = data.next_cursor
    }
  }

  async function* paginate(path: string, options?: Record<string, unknown> & CallOptions & PaginateOptions): AsyncGenerator<unknown, void, undefined> {
    for await (const page of pages(path, options)) {
      const lists = Object.values(page as Record<string, unknown>).filter(Array.isArray)
      if (lists.length !== 1) throw new Error(`${path}: a page holds ${lists.length} lists, not one`)
      yield* lists[0]!
    }
  }

  return {
    GET: dataOf('GET') as StewardClient['GET'],
    POST: dataOf('POST') as StewardClient['POST'],
    PUT: dataOf('PUT') as StewardClient['PUT'],
    PATCH: dataOf('PATCH') as StewardClient['PATCH'],
    DELETE: dataOf('DELETE') as StewardClient['DELETE'],
    request: request as StewardClient['request'],
    pages: pages as StewardClient['pages'],
    paginate: paginate as StewardClient['paginate'],
    raw,
  }
}
