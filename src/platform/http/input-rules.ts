/**
 * Rules every value in a request obeys, whatever the route's schema says: one walk over the parsed path
 * parameters, query and JSON body, before schema validation.
 *
 * - No NUL character and no lone UTF-16 surrogate in any string or field name. PostgreSQL cannot store
 *   either (text refuses U+0000; jsonb refuses `\u0000` and unpaired `\ud800` escapes), and no field of
 *   ours has a use for them, so they are refused at the edge instead of failing deep in a query.
 * - Nesting at most `requestNestingDepthMax` levels: free-form objects (a Raw `source_ref`, a policy
 *   document) are hashed, canonicalized and stored by recursive code, which a 10,000-deep value would
 *   overflow. The deepest document of ours (a policy rule's amount condition) is 5 levels.
 *
 * The walk is iterative, so a hostile depth cannot overflow it either.
 */
import { isUtf8 } from 'node:buffer'
import type { FastifyInstance } from 'fastify'
import { AppError } from '../../kernel/errors.ts'
import type { ValidationIssue } from './validation.ts'

/** Containers (objects and arrays) nested deeper than this are refused; the top-level value is level 1. */
export const requestNestingDepthMax = 32

const nul = '\u0000'

/** Why a string cannot be accepted, or undefined when it can. */
export function unsafeTextReason(text: string): string | undefined {
  if (text.includes(nul)) return 'contains a NUL character (U+0000)'
  if (!text.isWellFormed()) return 'contains a lone UTF-16 surrogate (not valid Unicode)'
  return undefined
}

/** A JSON Pointer segment; a field name that is itself unsafe is shown with its bad characters replaced. */
function pointerSegment(key: string): string {
  return key.toWellFormed().replaceAll(nul, '\uFFFD').replaceAll('~', '~0').replaceAll('/', '~1')
}

/**
 * The first rule the value breaks, as a validation issue whose path is a JSON Pointer into it, or
 * undefined when it breaks none.
 */
export function findUnsafeInput(value: unknown, depthMax: number = requestNestingDepthMax): ValidationIssue | undefined {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }]
  while (pending.length > 0) {
    const current = pending.pop()!
    if (typeof current.value === 'string') {
      const reason = unsafeTextReason(current.value)
      if (reason !== undefined) return { path: current.path === '' ? '/' : current.path, message: reason, keyword: 'text' }
      continue
    }
    if (current.value === null || typeof current.value !== 'object' || Buffer.isBuffer(current.value)) continue
    const depth = current.depth + 1
    if (depth > depthMax) {
      return { path: current.path === '' ? '/' : current.path, message: `nests deeper than ${depthMax} levels`, keyword: 'depth' }
    }
    if (Array.isArray(current.value)) {
      for (let index = current.value.length - 1; index >= 0; index -= 1) {
        pending.push({ value: current.value[index], path: `${current.path}/${index}`, depth })
      }
      continue
    }
    const entries = Object.entries(current.value as Record<string, unknown>)
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, child] = entries[index]!
      const path = `${current.path}/${pointerSegment(key)}`
      const keyReason = unsafeTextReason(key)
      if (keyReason !== undefined) return { path, message: `has a field name that ${keyReason}`, keyword: 'text' }
      pending.push({ value: child, path, depth })
    }
  }
  return undefined
}

/** Every component of a raw query string decodes as percent-encoded UTF-8. */
export function isWellEncodedQuery(rawQuery: string): boolean {
  for (const pair of rawQuery.split('&')) {
    for (const part of pair.split('=')) {
      try {
        decodeURIComponent(part.replaceAll('+', ' '))
      } catch {
        return false
      }
    }
  }
  return true
}

const isEmptyObject = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value) && Object.keys(value).length === 0

/**
 * Installs the rules on an app:
 * - JSON bodies must be valid UTF-8 (Fastify's own parser would turn bad bytes into U+FFFD and store
 *   them); an empty JSON body is no body;
 * - the query string must be valid percent-encoded UTF-8; then params, query and body obey
 *   `findUnsafeInput`;
 * - a route that declares no body takes none (an empty object `{}` is accepted, as no body); a route
 *   that declares one and receives none validates `{}`, so a missing field is reported by name.
 */
export function installInputRules(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer
    if (bytes.length === 0) return done(null, undefined)
    if (!isUtf8(bytes)) return done(new AppError('request_body_invalid', 'The request body is not valid UTF-8.', { issues: [{ path: '/', message: 'is not valid UTF-8', keyword: 'encoding' }] }), undefined)
    parseJson(request, bytes.toString('utf8'), done)
  })

  app.addHook('preValidation', async (request) => {
    // An unknown route is 404 (or 405) whatever its body: the not-found handler answers.
    if (request.is404) return
    const queryStart = request.url.indexOf('?')
    if (queryStart >= 0 && !isWellEncodedQuery(request.url.slice(queryStart + 1))) {
      throw new AppError('request_params_invalid', 'The query string is not valid percent-encoded UTF-8.', {
        issues: [{ path: '/', message: 'is not valid percent-encoded UTF-8', keyword: 'encoding' }],
      })
    }
    for (const part of ['params', 'query'] as const) {
      const issue = findUnsafeInput(request[part])
      if (issue !== undefined) throw new AppError('request_params_invalid', undefined, { issues: [issue] })
    }
    const declaresBody = request.routeOptions.schema?.body !== undefined
    if (request.body === undefined) {
      if (declaresBody) request.body = {}
      return
    }
    if (!declaresBody) {
      if (isEmptyObject(request.body)) return
      throw new AppError('request_body_invalid', 'This operation takes no request body.', {
        issues: [{ path: '/', message: 'must be absent: this operation takes no request body', keyword: 'body' }],
      })
    }
    const issue = findUnsafeInput(request.body)
    if (issue !== undefined) throw new AppError('request_body_invalid', undefined, { issues: [issue] })
  })
}
