/**
 * Routes about the service itself: liveness and readiness, the OpenAPI document, the error reference
 * (generated from the catalogue, so it cannot drift from what the service answers), and the deprecated
 * routes that the spec says must answer 404.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { AppError, errorCatalogue, errorCodes, type ErrorCode } from '../../kernel/errors.ts'
import { docsUrl, ErrorCodeSchema, ErrorEnvelope, errorReferencePath } from './errors.ts'
import { publicRoute } from './route-auth.ts'
import { Strict } from './schemas.ts'

export interface SystemRoutesOptions {
  readonly publicBaseUrl: string
  readonly checkReady: () => Promise<void>
  readonly version: string
}

const ErrorCatalogueResponse = Strict({
  errors: Type.Array(Strict({ code: ErrorCodeSchema, status: Type.Integer(), group: Type.String(), summary: Type.String(), docs_url: Type.String() })),
})

/** Where the deprecated routes point callers instead. */
const agentsInstead = 'POST /v1/payment-intents or POST /v1/agents/run'

/**
 * The spec's deprecated and unimplemented routes, with what to use instead: one entry per method, each
 * its own operation (`operationId` names one method). `/v1/actions/*` is every path below /v1/actions;
 * OpenAPI has no path template for "any number of segments", so it is answered like the others but left
 * out of the document, and the /v1/actions operations say so (docs/decisions.md).
 */
const deprecatedRoutes: ReadonlyArray<{ method: string; url: string; instead: string; operationId?: string }> = [
  { method: 'POST', url: '/v1/agents/register', instead: 'POST /v1/execution/agents/register', operationId: 'registerAgentDeprecated' },
  { method: 'POST', url: '/v1/agents/:agent_id/propose', instead: agentsInstead, operationId: 'proposeAgentActionDeprecated' },
  { method: 'GET', url: '/v1/actions', instead: agentsInstead, operationId: 'listActionsDeprecated' },
  { method: 'POST', url: '/v1/actions', instead: agentsInstead, operationId: 'createActionDeprecated' },
  { method: 'PUT', url: '/v1/actions', instead: agentsInstead, operationId: 'replaceActionsDeprecated' },
  { method: 'PATCH', url: '/v1/actions', instead: agentsInstead, operationId: 'updateActionsDeprecated' },
  { method: 'DELETE', url: '/v1/actions', instead: agentsInstead, operationId: 'deleteActionsDeprecated' },
  ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ method, url: '/v1/actions/*', instead: agentsInstead })),
]

export const systemRoutes: FastifyPluginAsyncTypebox<SystemRoutesOptions> = async (app, options) => {
  app.get(
    '/v1/health',
    {
      config: { auth: publicRoute() },
      schema: { tags: ['System'], operationId: 'getHealth', summary: 'Liveness', response: { 200: Strict({ status: Type.Literal('ok'), version: Type.String() }) } },
    },
    async () => ({ status: 'ok' as const, version: options.version }),
  )

  app.get(
    '/v1/ready',
    {
      config: { auth: publicRoute() },
      schema: {
        tags: ['System'],
        operationId: 'getReadiness',
        summary: 'Readiness',
        description: 'Answers 200 when the database answers, 503 service_unavailable otherwise.',
        response: { 200: Strict({ status: Type.Literal('ready') }) },
      },
    },
    async () => {
      try {
        await options.checkReady()
      } catch {
        throw new AppError('service_unavailable', 'The database is not reachable.')
      }
      return { status: 'ready' as const }
    },
  )

  app.get(
    '/v1/openapi.json',
    {
      config: { auth: publicRoute() },
      schema: {
        tags: ['System'],
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI 3.1 document',
        response: { 200: Type.Object({ openapi: Type.String() }, { additionalProperties: true }) },
      },
    },
    async () => app.swagger() as unknown as { openapi: string },
  )

  app.get(
    '/v1/errors',
    {
      config: { auth: publicRoute() },
      schema: { tags: ['System'], operationId: 'listErrorCodes', summary: 'The error catalogue as JSON', response: { 200: ErrorCatalogueResponse } },
    },
    async () => ({
      errors: errorCodes.map((code) => ({ code, ...errorCatalogue[code], docs_url: docsUrl(options.publicBaseUrl, code) })),
    }),
  )

  app.get(
    errorReferencePath,
    {
      config: { auth: publicRoute() },
      schema: {
        tags: ['System'],
        operationId: 'getErrorReference',
        summary: 'The error reference (HTML)',
        description: 'Every docs_url of an error envelope points here, with the code as the fragment.',
        produces: ['text/html'],
        response: { 200: Type.String({ description: 'HTML page' }) },
      },
    },
    async (_request, reply) => reply.type('text/html; charset=utf-8').send(renderErrorReference()),
  )

  for (const route of deprecatedRoutes) {
    app.route({
      method: route.method as 'GET',
      url: route.url,
      config: { auth: publicRoute() },
      schema: {
        tags: ['Deprecated'],
        summary: `Deprecated: use ${route.instead}`,
        description:
          route.url === '/v1/actions'
            ? 'Not implemented; always answers 404 route_not_found, as does every path below /v1/actions (propose, get, approve, execute, cancel, events), which this document does not list.'
            : 'Not implemented; always answers 404 route_not_found.',
        deprecated: true,
        ...(route.operationId === undefined ? { hide: true } : { operationId: route.operationId }),
        response: { 404: ErrorEnvelope },
      },
      handler: async () => {
        throw new AppError('route_not_found', `This route is deprecated and not implemented. Use ${route.instead}.`)
      },
    })
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

function renderErrorReference(): string {
  const groups = new Map<string, ErrorCode[]>()
  for (const code of errorCodes) {
    const { group } = errorCatalogue[code]
    groups.set(group, [...(groups.get(group) ?? []), code])
  }
  const sections = [...groups]
    .map(([group, codes]) => {
      const rows = codes
        .map((code) => {
          const { status, summary } = errorCatalogue[code]
          return `<tr id="${code}"><td><a href="#${code}"><code>${code}</code></a></td><td>${status}</td><td>${escapeHtml(summary)}</td></tr>`
        })
        .join('\n')
      return `<h2>${escapeHtml(group)}</h2>\n<table><thead><tr><th>Code</th><th>Status</th><th>Meaning</th></tr></thead><tbody>\n${rows}\n</tbody></table>`
    })
    .join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Steward error reference</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}
tr:target{background:#fff6c8}code{font-size:.95em}</style></head><body>
<h1>Steward error reference</h1>
<p>Every non-2xx response is <code>{"error":{"code","message","details?","request_id","docs_url"}}</code>.
The <code>code</code> is stable; match on it, not on the message. Quote <code>request_id</code> when you report a problem.</p>
${sections}
</body></html>`
}
