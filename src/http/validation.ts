/**
 * Schema validation for every route. Two Ajv instances because the parts of a request differ:
 * - bodies are JSON and must match exactly: no type coercion, no defaults filled in, unknown fields
 *   rejected (a financial API refuses what it does not understand);
 * - path, query and header values arrive as strings, so they are coerced to the declared types.
 * Neither instance removes additional properties: `additionalProperties: false` means refuse, never drop.
 */
import Ajv, { type ErrorObject } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'

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
  addFormats.default(ajv, ['date-time', 'date', 'email', 'uri', 'uuid', 'ipv4', 'ipv6'])
  return ajv
}

const bodyAjv = createAjv({ coerceTypes: false, useDefaults: false })
const parameterAjv = createAjv({ coerceTypes: 'array', useDefaults: true })

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : parameterAjv
  return ajv.compile(schema as object)
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
