/**
 * The Wiki's entity and search routes (spec, "Wiki and memory"; docs/wiki.md "Entities" and "Search"):
 * a Ledger record seen through the Wiki, its evidence and history, annotations, the entity kinds' JSON
 * Schemas, and the search over policies and agents. Reads need wiki:read; annotate needs raw:write and a
 * person (a user bearer), because an annotation is a human confirmation.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { requirePrincipal } from '../../kernel/context.ts'
import { contextOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute } from '../../platform/http/route-auth.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import type { AnnotateCommands } from './annotate.service.ts'
import * as entitySchemas from './entities.schemas.ts'
import { AnnotateBody, AnnotateResponse, evidenceRowsMax, WikiEntity, WikiEntityParams, WikiEntityQuery, WikiEvidence, WikiHistory, WikiHistoryQuery, WikiSchemaMap, WikiSchemaQuery } from './entities.schemas.ts'
import type { EntitiesService } from './entities.service.ts'
import { WikiSearchQuery, WikiSearchResponse } from './search.schemas.ts'
import type { SearchService } from './search.service.ts'

const tags = ['Wiki']
const wikiRead = bearerRoute(['wiki:read'])
/** An annotation is a person's confirmation (provenance human_confirmed): users only, with raw:write (docs/wiki.md). */
const wikiAnnotate = bearerRoute(['raw:write'], { principalTypes: ['user'] })
const entityNote =
  'A Wiki entity is a Ledger record (account, balance, counterparty, transaction, invoice, obligation, reconciliation match; its Ledger id is the entity_id) seen through the Wiki: its Ledger versions merged with the Wiki\'s annotations. ' +
  'An id that names nothing of your tenant, whatever its shape, is 404 wiki_entity_not_found.'

export interface WikiEntityRoutesOptions {
  readonly entities: EntitiesService
  readonly annotate: AnnotateCommands
  readonly search: SearchService
}

export const wikiEntityRoutes: FastifyPluginAsyncTypebox<WikiEntityRoutesOptions> = async (app, { entities, annotate, search }) => {
  registerNamedSchemas(app, [...Object.values(entitySchemas)])
  const tenantOf = (request: Parameters<typeof contextOf>[0]) => requirePrincipal(contextOf(request)).tenantId

  app.get(
    '/v1/wiki/entity/:entity_id',
    {
      config: { auth: wikiRead },
      schema: {
        tags,
        operationId: 'getWikiEntity',
        summary: 'A Wiki entity (bitemporal)',
        description:
          `${entityNote} as_of reads it as the Wiki knew it then: the Ledger version recorded by then and not yet superseded, and the annotations recorded by then; ` +
          'an entity not yet recorded at as_of is 404. provenance is human_confirmed when an annotation follows the Ledger version shown.',
        params: WikiEntityParams,
        querystring: WikiEntityQuery,
        response: { 200: WikiEntity },
      },
    },
    async (request) => entities.entity(tenantOf(request), request.params.entity_id, request.query.as_of),
  )

  app.get(
    '/v1/wiki/entity/:entity_id/evidence',
    {
      config: { auth: wikiRead },
      schema: {
        tags,
        operationId: 'getWikiEntityEvidence',
        summary: 'A Wiki entity\'s evidence chain',
        description:
          `The Ledger version (now, or at as_of) → the parsed rows it cites (evidence_ids, at most ${evidenceRowsMax}; truncated says when there are more) → the Raw artifact each was read from, with parser and confidence. ` +
          `Annotations are not Raw evidence: they are in …/history. ${entityNote}`,
        params: WikiEntityParams,
        querystring: WikiEntityQuery,
        response: { 200: WikiEvidence },
      },
    },
    async (request) => entities.evidence(tenantOf(request), request.params.entity_id, request.query.as_of),
  )

  app.get(
    '/v1/wiki/entity/:entity_id/history',
    {
      config: { auth: wikiRead },
      schema: {
        tags,
        operationId: 'getWikiEntityHistory',
        summary: 'A Wiki entity\'s versions, oldest first',
        description:
          'Its Ledger versions and Wiki annotations interleaved by recorded time (a Ledger version first at the same instant), each with its provenance; wiki_version numbers them 1, 2, 3 …. ' +
          `100 a page by default, at most 500; next_cursor continues (the history only grows at its end). ${entityNote}`,
        params: WikiEntityParams,
        querystring: WikiHistoryQuery,
        response: { 200: WikiHistory },
      },
    },
    async (request) => entities.history(tenantOf(request), request.params.entity_id, request.query),
  )

  app.post(
    '/v1/wiki/annotate',
    {
      config: { auth: wikiAnnotate },
      schema: {
        tags,
        operationId: 'annotateWikiEntity',
        summary: 'Annotate an entity or a relation',
        description:
          'One of: an entity annotation (entity_id with a note, labels and/or corrections — field values a person asserts) or a relation annotation (relation_id, a reconciliation match, confirmed or disputed). ' +
          'Applied as a new Wiki version of the subject with provenance human_confirmed and audited in the same transaction (wiki.entity.annotated or wiki.relation.annotated, layer wiki, hashes of the text only). ' +
          'Never changes a Ledger row: corrections are Wiki-level assertions shown beside the record. Needs raw:write and a user bearer (a person confirms; agents and service tokens are 403). ' +
          '404 wiki_entity_not_found for a subject that names nothing of your tenant. ' +
          'With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.',
        headers: IdempotencyKeyHeaders,
        body: AnnotateBody,
        response: { 201: AnnotateResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await annotate.annotate(contextOf(request), request.body)
      return markReplayed(reply, replayed).code(201).send(outcome)
    },
  )

  app.get(
    '/v1/wiki/schema',
    {
      config: { auth: wikiRead },
      schema: {
        tags,
        operationId: 'getWikiSchema',
        summary: 'JSON Schemas of the Wiki entity kinds',
        description: 'Kind → the JSON Schema of a Wiki entity of that kind (GET /v1/wiki/entity/{entity_id}), generated from the same definitions the routes answer with. kind narrows it to one; an unknown kind is 400 request_params_invalid.',
        querystring: WikiSchemaQuery,
        response: { 200: WikiSchemaMap },
      },
    },
    async (request) => entities.schemas(request.query.kind),
  )

  app.get(
    '/v1/wiki/search',
    {
      config: { auth: wikiRead },
      schema: {
        tags,
        operationId: 'searchWiki',
        summary: 'Search policies and agents',
        description:
          'Searches the tenant\'s policy versions and agents (the catalog and its registered agents), read from their modules at request time. q filters by PostgreSQL full-text search; semantic ranks by similarity — ' +
          'embeddings from the configured model (cached per document text, cosine similarity computed in SQL) or, without one or when it fails, pg_trgm word similarity; semantic_method says which was used. ' +
          'Ranked by similarity when semantic is given, else by full-text rank when q is, else newest first; then kind and id. 50 a page by default, at most 500; next_cursor continues the same query.',
        querystring: WikiSearchQuery,
        response: { 200: WikiSearchResponse },
      },
    },
    async (request) => search.search(tenantOf(request), request.query),
  )
}
