/**
 * Schema validation for every route. Two Ajv instances because the parts of a request differ:
 * - bodies are JSON and must match exactly: no type coercion, no defaults filled in, unknown fields
 *   rejected (a financial API refuses what it does not understand);
 * - path, query and header values arrive as strings, so they are coerced to the declared types.
 * Neither instance removes additional properties: `additionalProperties: false` means refuse, never drop.
 *
 * Dates are checked here as real calendar dates and instants in the range the database and JavaScript
 * both represent (`date`, `date-time`, `date-or-date-time` below), so `2026-02-30` or `0000-01-01` is a
 * 400 at the edge rather than a failure deep in a query.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'
import { isCalendarDate, isTimestamp } from '../../kernel/dates.ts'

// Calendar dates and timestamps are the kernel's (kernel/dates.ts): years 0001 to 9999.
export { isCalendarDate, isTimestamp }

function createAjv(options: { coerceTypes: boolean | 'array'; useDefaults: boolean }) {
  const ajv = new Ajv.default({
    allErrors: true,
    coerceTypes: options.coerceTypes,
    useDefaults: options.useDefaults,
    removeAdditional: false,
    strict: true,
    // OpenAPI keywords that TypeBox schemas may carry for documentation only.
    keywords: ['example', 'xml', 'externalDocs'],
  })
  addFormats.default(ajv, ['email', 'uri', 'uuid', 'ipv4', 'ipv6'])
  ajv.addFormat('date', { type: 'string', validate: isCalendarDate })
  ajv.addFormat('date-time', { type: 'string', validate: isTimestamp })
  ajv.addFormat('date-or-date-time', { type: 'string', validate: (text: string) => isCalendarDate(text) || isTimestamp(text) })
  return ajv
}

const bodyAjv = createAjv({ coerceTypes: false, useDefaults: false })
const parameterAjv = createAjv({ coerceTypes: 'array', useDefaults: true })

/**
 * Numbers in a path or query are plain decimal text of at most 15 significant digits. Ajv's coercion
 * alone would also take `1e309` (as Infinity, which then skips `maximum`), ` 5` and `0x10`.
 */
const integerText = /^-?(?:0|[1-9][0-9]{0,14})$/
const numberText = /^-?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?$/

type ParameterValidator = ValidateFunction & ((data: unknown, context?: unknown) => boolean)

function numericProperties(schema: { properties?: Record<string, { type?: unknown; items?: { type?: unknown } }> }): Map<string, 'integer' | 'number'> {
  const numeric = new Map<string, 'integer' | 'number'>()
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const type = property.type === 'array' ? property.items?.type : property.type
    if (type === 'integer' || type === 'number') numeric.set(name, type)
  }
  return numeric
}

function withDecimalNumbers(validate: ValidateFunction, schema: object): ValidateFunction {
  const numeric = numericProperties(schema)
  if (numeric.size === 0) return validate
  const wrapped = ((data: unknown, context?: unknown) => {
    if (data !== null && typeof data === 'object') {
      for (const [name, kind] of numeric) {
        const value = (data as Record<string, unknown>)[name]
        for (const item of Array.isArray(value) ? value : [value]) {
          if (typeof item === 'string' && !(kind === 'integer' ? integerText : numberText).test(item)) {
            wrapped.errors = [
              { instancePath: `/${name}`, schemaPath: '', keyword: 'type', params: { type: kind }, message: `must be a plain decimal ${kind === 'integer' ? 'integer' : 'number'}` },
            ]
            return false
          }
        }
      }
    }
    const valid = (validate as ParameterValidator)(data, context)
    wrapped.errors = validate.errors
    return valid
  }) as ParameterValidator
  // Fastify passes the parent object to Ajv functions (recognized by schemaEnv) so coercion can write back.
  Object.assign(wrapped, { schemaEnv: validate.schemaEnv, schema: validate.schema })
  return wrapped
}

/**
 * A validator for JSON arguments that are not an HTTP body (an agent-protocol tool's arguments): the body
 * rules — no coercion, no defaults, unknown fields refused — with the same date formats.
 */
export function compileArgumentsValidator(schema: object): ValidateFunction {
  return bodyAjv.compile(schema)
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return bodyAjv.compile(schema as object)
  return withDecimalNumbers(parameterAjv.compile(schema as object), schema as object)
}

export interface ValidationIssue {
  /** JSON Pointer into the request part, e.g. `/password` or `/limit`. */
  path: string
  message: string
  keyword: string
}

/** Turns Ajv's errors into the `details.issues` of the envelope. */
export function toIssues(errors: readonly Partial<ErrorObject>[]): ValidationIssue[] {
  return errors.map((error) => {
    const base = error.instancePath ?? ''
    const params = (error.params ?? {}) as Record<string, unknown>
    if (error.keyword === 'additionalProperties') {
      return { path: `${base}/${String(params.additionalProperty)}`, message: 'is not a recognized field', keyword: 'additionalProperties' }
    }
    if (error.keyword === 'required') {
      return { path: `${base}/${String(params.missingProperty)}`, message: 'is required', keyword: 'required' }
    }
    return { path: base === '' ? '/' : base, message: error.message ?? 'is invalid', keyword: error.keyword ?? 'unknown' }
  })
}
