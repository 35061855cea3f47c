/**
 * Requests for one OpenAPI operation: valid ones generated from its schemas, and mutated ones that break
 * a valid request in one way a hostile or careless client would (wrong types, unknown and missing
 * fields, boundary numbers, impossible dates, NUL, lone surrogates, deep nesting, oversize strings, bad
 * percent-encoding, bodies that are not JSON or not UTF-8).
 */
import fc from 'fast-check'
import { arbitraryOf, withKnown, type JsonSchema, type KnownValues } from './schema-arbitrary.ts'

export type { KnownValues }

export interface OperationParameter {
  readonly name: string
  readonly in: 'path' | 'query' | 'header'
  readonly required?: boolean
  readonly schema: JsonSchema
}

export interface Operation {
  readonly method: string
  readonly path: string
  readonly parameters: readonly OperationParameter[]
  /** The JSON schema of the request body, when the operation takes a JSON body. */
  readonly body?: JsonSchema
  readonly bodyRequired: boolean
  readonly security: 'bearer' | 'platform' | 'service-token-secret' | 'public'
  readonly responses: Readonly<Record<string, { readonly content?: Readonly<Record<string, { readonly schema?: JsonSchema }>> }>>
  readonly deprecated: boolean
}

export interface FuzzRequest {
  /** What kind of request this is: `valid`, or the mutation applied. */
  readonly label: string
  readonly pathParams: Readonly<Record<string, string>>
  /** Path parameters inserted as they are, not percent-encoded (a bad encoding on purpose). */
  readonly rawPathParams: Readonly<Record<string, string>>
  readonly query: ReadonlyArray<readonly [string, string]>
  /** Appended to the query string as it is. */
  readonly rawQuery: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: unknown
  /** Sent instead of `body`, with `contentType`. */
  readonly rawBody?: string | Buffer
  readonly contentType?: string
}

export function urlOf(operation: Operation, request: FuzzRequest): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) =>
    request.rawPathParams[name] ?? encodeURIComponent(request.pathParams[name] ?? ''),
  )
  const query = request.query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
  if (request.rawQuery !== '') query.push(request.rawQuery)
  return query.length === 0 ? path : `${path}?${query.join('&')}`
}

const toText = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value))

/** A path segment of `.` or `..` would be resolved away by the URL parser: it names another route. */
const dotSegment = (text: string) => (text === '.' || text === '..' ? `${text}x` : text)

function parameterValue(parameter: OperationParameter, known: KnownValues): fc.Arbitrary<unknown> {
  const value = withKnown(parameter.name, arbitraryOf(parameter.schema, known), known)
  return parameter.in === 'path' ? value.map((text) => (typeof text === 'string' ? dotSegment(text) : text)) : value
}

/** A request every part of which validates against the operation's schemas. */
export function validRequest(operation: Operation, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  const of = (where: OperationParameter['in']) => operation.parameters.filter((parameter) => parameter.in === where)
  const path = fc.record(Object.fromEntries(of('path').map((parameter) => [parameter.name, parameterValue(parameter, known).map(toText)])) as Record<string, fc.Arbitrary<string>>)
  const query = fc.tuple(
    ...of('query').map((parameter) => {
      const value = parameterValue(parameter, known)
      return (parameter.required === true ? value.map((present) => [present]) : fc.option(value, { nil: undefined }).map((present) => (present === undefined ? [] : [present]))).map(
        (values) => values.flatMap((present) => (Array.isArray(present) ? present : [present])).map((present) => [parameter.name, toText(present)] as const),
      )
    }),
  )
  const headers = fc.tuple(
    ...of('header').map((parameter) =>
      (parameter.required === true ? parameterValue(parameter, known).map(toText) : fc.option(parameterValue(parameter, known).map(toText), { nil: undefined, freq: 2 })).map(
        (value) => [parameter.name, value] as const,
      ),
    ),
  )
  const body = operation.body === undefined ? fc.constant(undefined) : arbitraryOf(operation.body, known)
  return fc.record({ path, query, headers, body }).map(({ path: pathParams, query: queryParts, headers: headerParts, body: bodyValue }) => ({
    label: 'valid',
    pathParams,
    rawPathParams: {},
    query: queryParts.flat(),
    rawQuery: '',
    headers: Object.fromEntries(headerParts.filter(([, value]) => value !== undefined)) as Record<string, string>,
    ...(operation.body === undefined ? {} : { body: bodyValue }),
  }))
}

/** A value nested `depth` levels deep. */
function nested(depth: number): unknown {
  let value: unknown = { end: true }
  for (let level = 1; level < depth; level += 1) value = { a: value }
  return value
}

const wrongTypeValues: readonly unknown[] = [123, -1, 1.5, true, null, [], {}, 'text', [1, 'two'], { nested: { x: 1 } }]
const boundaryNumbers: readonly string[] = ['-1', '0', '9007199254740993', '1e309', 'NaN', 'Infinity', '1.5', '-0', '00', '0x10', ' 1']
const badDates: readonly string[] = ['2026-02-30', '0000-01-01', '2026-13-01', '2026-02-30T00:00:00Z', '2026-01-01T24:00:00Z', '99999-01-01', '2026-1-1', '0001-01-01T00:00:00+01:00']
const badEncodings: readonly string[] = ['%E0%A4%A', '%zz', '%C3%28', '%FF', '%', '%00', '%ED%A0%80']
const hostileStrings: readonly string[] = ['a\u0000b', '\u0000', 'x\ud800', '\udfff', 'ok\ud83d', '\u0000\ud800']

/** The JSON Pointer-ish locations of a value's fields, as key paths. */
function fieldPaths(value: unknown, prefix: readonly (string | number)[] = [], out: Array<readonly (string | number)[]> = []): Array<readonly (string | number)[]> {
  if (value === null || typeof value !== 'object' || prefix.length > 6) return out
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key]
    out.push(path)
    fieldPaths(child, path, out)
  }
  return out
}

function setAt(value: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement
  const [head, ...rest] = path
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? setAt(item, rest, replacement) : item))
  const object = (value ?? {}) as Record<string, unknown>
  return { ...object, [head as string]: setAt(object[head as string], rest, replacement) }
}

function removeAt(value: unknown, path: readonly (string | number)[]): unknown {
  if (path.length === 1) {
    if (Array.isArray(value)) return value.filter((_item, index) => index !== path[0])
    const { [path[0] as string]: _removed, ...rest } = value as Record<string, unknown>
    return rest
  }
  const [head, ...rest] = path
  return setAt(value, [head!], removeAt((value as Record<string, unknown>)[head as string], rest))
}

const pick = <T>(items: readonly T[], choice: number): T => items[choice % items.length]!

export const mutationKinds = [
  'body-unknown-field',
  'body-wrong-type',
  'body-missing-field',
  'body-hostile-string',
  'body-deep-nesting',
  'body-oversize-string',
  'body-bad-date',
  'body-not-json',
  'body-not-object',
  'body-not-utf8',
  'body-wrong-content-type',
  'body-on-bodiless-operation',
  'query-hostile-string',
  'query-boundary-number',
  'query-bad-date',
  'query-bad-encoding',
  'query-unknown-parameter',
  'query-oversize',
  'path-hostile-string',
  'path-bad-encoding',
  'path-wrong-shape',
  'path-oversize',
  'header-hostile-idempotency-key',
] as const
export type MutationKind = (typeof mutationKinds)[number]

/** Applies one mutation to a valid request; `choice` picks positions and values deterministically. */
export function mutate(operation: Operation, request: FuzzRequest, kind: MutationKind, choice: number): FuzzRequest {
  const labelled = (changes: Partial<FuzzRequest>): FuzzRequest => ({ ...request, label: kind, ...changes })
  const bodyFields = fieldPaths(request.body)
  const field = bodyFields.length === 0 ? undefined : pick(bodyFields, choice)
  const pathNames = Object.keys(request.pathParams)
  const pathName = pathNames.length === 0 ? undefined : pick(pathNames, choice)
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query')
  const queryName = queryParameters.length === 0 ? 'fuzz' : pick(queryParameters, choice).name
  const withQuery = (value: string) => labelled({ query: [...request.query.filter(([name]) => name !== queryName), [queryName, value]] })
  switch (kind) {
    case 'body-unknown-field':
      return labelled({ body: request.body !== null && typeof request.body === 'object' && !Array.isArray(request.body) ? { ...request.body, fuzz_unknown_field: 1 } : { fuzz_unknown_field: 1 } })
    case 'body-wrong-type':
      return labelled({ body: field === undefined ? pick(wrongTypeValues, choice) : setAt(request.body, field, pick(wrongTypeValues, choice)) })
    case 'body-missing-field':
      return labelled({ body: field === undefined ? {} : removeAt(request.body, field) })
    case 'body-hostile-string':
      return labelled({ body: field === undefined ? { value: pick(hostileStrings, choice) } : setAt(request.body, field, pick(hostileStrings, choice)) })
    case 'body-deep-nesting': {
      // Sent as text: a value this deep is past what JSON.stringify's recursion is sure to handle.
      const depth = pick([40, 1_000, 20_000], choice)
      return labelled({ rawBody: `{"deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`, contentType: 'application/json' })
    }
    case 'body-oversize-string':
      return labelled({ body: field === undefined ? { value: 'a'.repeat(200_000) } : setAt(request.body, field, 'é'.repeat(pick([5_000, 200_000, 600_000], choice))) })
    case 'body-bad-date':
      return labelled({ body: field === undefined ? { date: pick(badDates, choice) } : setAt(request.body, field, pick(badDates, choice)) })
    case 'body-not-json':
      return labelled({ rawBody: pick(['{"a":', '{]', 'nul', '\u0000', '{"a":1}}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}'], choice), contentType: 'application/json' })
    case 'body-not-object':
      return labelled({ rawBody: pick(['[]', '"text"', 'null', '42', 'true', '[{}]'], choice), contentType: 'application/json' })
    case 'body-not-utf8':
      return labelled({ rawBody: Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([pick([0xe9, 0xff, 0xc3, 0xed], choice)]), Buffer.from('"}')]), contentType: 'application/json' })
    case 'body-wrong-content-type':
      return labelled({
        rawBody: JSON.stringify(request.body ?? {}),
        contentType: pick(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data', 'application/json; charset=latin1'], choice),
      })
    case 'body-on-bodiless-operation':
      return labelled({ body: pick([{ unexpected: true }, ['x'], 'text', 0], choice) })
    case 'query-hostile-string':
      return withQuery(pick(hostileStrings, choice).replace('\ud800', '').replace('\udfff', '').replace('\ud83d', ''))
    case 'query-boundary-number':
      return withQuery(pick(boundaryNumbers, choice))
    case 'query-bad-date':
      return withQuery(pick(badDates, choice))
    case 'query-bad-encoding':
      return labelled({ rawQuery: `${encodeURIComponent(queryName)}=${pick(badEncodings, choice)}` })
    case 'query-unknown-parameter':
      return labelled({ query: [...request.query, ['fuzz_unknown', '1']] })
    case 'query-oversize':
      return withQuery('q'.repeat(pick([1_000, 8_000], choice)))
    case 'path-hostile-string':
      return pathName === undefined ? labelled({}) : labelled({ pathParams: { ...request.pathParams, [pathName]: pick(hostileStrings, choice).replace(/[\ud800-\udfff]/g, '') || '\u0000' } })
    case 'path-bad-encoding':
      return pathName === undefined ? labelled({}) : labelled({ rawPathParams: { [pathName]: pick(badEncodings, choice) } })
    case 'path-wrong-shape':
      return pathName === undefined
        ? labelled({})
        : labelled({ pathParams: { ...request.pathParams, [pathName]: pick(['00000000-0000-0000-0000-000000000000', 'txn_1', '1', '-1', 'null', '...', ' ', 'a b', 'ÄÖÜ', 'raw_01J00000000000000000000000'], choice) } })
    case 'path-oversize':
      return pathName === undefined ? labelled({}) : labelled({ pathParams: { ...request.pathParams, [pathName]: 'p'.repeat(pick([150, 201, 2_000], choice)) } })
    case 'header-hostile-idempotency-key':
      return labelled({ headers: { ...request.headers, 'idempotency-key': pick(['', ' ', 'k'.repeat(300), 'key with spaces', 'ключ'], choice) } })
  }
}

/** The mutations that change something for this operation. */
export function mutationsFor(operation: Operation): MutationKind[] {
  const has = (where: OperationParameter['in']) => operation.parameters.some((parameter) => parameter.in === where)
  return mutationKinds.filter((kind) => {
    if (kind === 'body-on-bodiless-operation') return operation.body === undefined && operation.method !== 'GET'
    if (kind.startsWith('body-')) return operation.body !== undefined
    if (kind.startsWith('path-')) return has('path')
    return true
  })
}
