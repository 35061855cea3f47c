/**
 * The memory routes (spec, "Wiki and memory": GET /v1/memory/pages, GET /v1/memory/pages/{slug_or_id},
 * POST /v1/memory/regenerate, GET /v1/memory/search). Reads need wiki:read. Regenerating needs wiki:read
 * and raw:write: the spec names no wiki write scope, and whoever may bring data in (which regenerates the
 * pages anyway) may ask for a regeneration; a read-only credential cannot make the service do the work.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { actorOf } from '../../kernel/context.ts'
import { contextOf, principalOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute } from '../../platform/http/route-auth.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import * as memorySchemas from './memory.schemas.ts'
import { MemoryPage, MemoryPageList, MemoryPageListQuery, MemoryPageParams, MemoryPageSlugParams, MemorySearchQuery, RegenerateBody, RegenerateResult } from './memory.schemas.ts'
import type { PagesService } from './pages.service.ts'
import type { RegenerationService } from './regenerate.service.ts'

const tags = ['Memory']
const wikiRead = bearerRoute(['wiki:read'])
const regenerate = bearerRoute(['wiki:read', 'raw:write'])
const idempotencyNote =
  'With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.'
const readNote = 'Pages are regenerated after every normalization or reconciliation that wrote to the Ledger, and on POST /v1/memory/regenerate.'

export const memoryRoutes: FastifyPluginAsyncTypebox<{ pages: PagesService; regeneration: RegenerationService }> = async (app, { pages, regeneration }) => {
  registerNamedSchemas(app, [...Object.values(memorySchemas)])

  app.get(
    '/v1/memory/pages',
    {
      config: { auth: wikiRead },
      schema: {
        operationId: 'listMemoryPages',
        tags,
        summary: 'List memory pages',
        description: `Page summaries (no content) in slug order, 50 a page by default (at most 500); filter by page_type. ${readNote}`,
        querystring: MemoryPageListQuery,
        response: { 200: MemoryPageList },
      },
    },
    async (request) => pages.list(principalOf(request).tenantId, request.query),
  )

  app.get(
    '/v1/memory/pages/:slug_or_id',
    {
      config: { auth: wikiRead },
      schema: {
        operationId: 'getMemoryPage',
        tags,
        summary: 'Read a memory page by slug or id',
        description: `By id (mpg_…) or by slug with its slash percent-encoded (/v1/memory/pages/counterparty%2Fcpy_…); the slug may also be written as two path segments (GET /v1/memory/pages/{slug_or_id}/{slug_rest}). 404 memory_page_not_found for anything naming no page of your tenant. ${readNote}`,
        params: MemoryPageParams,
        response: { 200: MemoryPage },
      },
    },
    async (request) => pages.get(principalOf(request).tenantId, request.params.slug_or_id),
  )

  app.get(
    '/v1/memory/pages/:slug_or_id/:slug_rest',
    {
      config: { auth: wikiRead },
      schema: {
        operationId: 'getMemoryPageBySlugPath',
        tags,
        summary: 'Read a memory page by its slug written as a path',
        description: `The same page as GET /v1/memory/pages/{slug_or_id} with the slug percent-encoded: /v1/memory/pages/counterparty/cpy_… reads the page of slug counterparty/cpy_…. 404 memory_page_not_found for a slug naming no page of your tenant.`,
        params: MemoryPageSlugParams,
        response: { 200: MemoryPage },
      },
    },
    async (request) => pages.get(principalOf(request).tenantId, `${request.params.slug_or_id}/${request.params.slug_rest}`),
  )

  app.get(
    '/v1/memory/search',
    {
      config: { auth: wikiRead },
      schema: {
        operationId: 'searchMemoryPages',
        tags,
        summary: 'Search memory pages',
        description: `PostgreSQL full-text search over each page's title and content (websearch_to_tsquery with the 'simple' configuration: no stemming, case-insensitive), optionally of one page_type. Page summaries in slug order, 50 a page by default (at most 500), with a cursor. ${readNote}`,
        querystring: MemorySearchQuery,
        response: { 200: MemoryPageList },
      },
    },
    async (request) => pages.search(principalOf(request).tenantId, request.query),
  )

  app.post(
    '/v1/memory/regenerate',
    {
      config: { auth: regenerate },
      schema: {
        operationId: 'regenerateMemoryPages',
        tags,
        summary: 'Regenerate memory pages now',
        description:
          'Synchronous: renders every page of the asked types (all when page_types is absent) from the current Ledger, policy and agents, and answers what changed. A page whose content is unchanged keeps its version; a changed one gets the next; a page whose subject is gone is deleted. Audited memory.pages.regenerated (layer wiki, counts and hashes only). Needs wiki:read and raw:write. ' +
          idempotencyNote,
        headers: IdempotencyKeyHeaders,
        body: RegenerateBody,
        response: { 200: RegenerateResult },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request)
      const { outcome, replayed } = await regeneration.regenerate(contextOf(request), {
        tenantId: principal.tenantId,
        pageTypes: request.body?.page_types,
        actor: actorOf(principal),
        cause: { kind: 'request' },
      })
      return markReplayed(reply, replayed).send(outcome)
    },
  )
}
