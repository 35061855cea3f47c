/**
 * Audit and proof routes (spec, "Audit and Proof"), plus the export status and download routes, and the
 * chain verification: the tenant's own (GET /v1/audit/chain) and the platform's for any tenant (GET
 * /v1/platform/audit/chain, X-Platform-Service-Auth), which `npm run audit:verify` calls while the
 * server runs. The spec's POST /v1/audit/verify checks one inclusion proof; these walk the whole chain.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { contextOf, principalOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute, platformRoute, publicRoute } from '../../platform/http/route-auth.ts'
import type { AuditService } from './audit.service.ts'
import {
  Anchor,
  ChainQuery,
  ChainVerification,
  PlatformChainQuery,
  EntityEventList,
  EntityEventQuery,
  EntityParams,
  EventIdParams,
  EventList,
  EventListQuery,
  EventWithProof,
  Export,
  ExportBody,
  ExportParams,
  VerifyBody,
  VerifyResponse,
} from './audit.schemas.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import * as auditSchemas from './audit.schemas.ts'

const tags = ['Audit']
const auditRead = bearerRoute(['audit:read'])
const contentTypes = { jsonl: 'application/x-ndjson', csv: 'text/csv; charset=utf-8' } as const

export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (app, { audit }) => {
  // The named response schemas (Transaction, Member, …): OpenAPI components, referred to by $ref.
  registerNamedSchemas(app, [...Object.values(auditSchemas)])
  app.get(
    '/v1/audit/anchor/latest',
    {
      config: { auth: auditRead },
      schema: {
        operationId: 'getLatestAuditAnchor',
        tags,
        summary: 'The latest Merkle anchor of your chain',
        description: 'The most recent closed batch: its root, range, period and how it is anchored (anchoring_mode, guarantee). 404 audit_anchor_not_found before the first batch closes.',
        response: { 200: Anchor },
      },
    },
    async (request) => audit.latestAnchor(principalOf(request).tenantId),
  )

  app.get(
    '/v1/audit/entity/:entityType/:entityId',
    {
      config: { auth: auditRead },
      schema: {
        operationId: 'listEntityAuditEvents',
        tags,
        summary: 'Events about one entity, in causal order',
        params: EntityParams,
        querystring: EntityEventQuery,
        response: { 200: EntityEventList },
      },
    },
    async (request) =>
      audit.entityEvents(principalOf(request).tenantId, { type: request.params.entityType, id: request.params.entityId }, request.query),
  )

  app.get(
    '/v1/audit/event/:event_id',
    {
      config: { auth: auditRead },
      schema: {
        operationId: 'getAuditEvent',
        tags,
        summary: 'One event with its Merkle inclusion proof',
        description: 'inclusion.status says whether the event is linked and batched yet; when included, the proof verifies with OpenZeppelin MerkleProof, the AuditAnchor contract and `npm run audit:verify-proof`.',
        params: EventIdParams,
        response: { 200: EventWithProof },
      },
    },
    async (request) => audit.event(principalOf(request).tenantId, request.params.event_id),
  )

  app.get(
    '/v1/audit/events',
    {
      config: { auth: auditRead },
      schema: { operationId: 'listAuditEvents', tags, summary: 'List events', querystring: EventListQuery, response: { 200: EventList } },
    },
    async (request) => audit.events(principalOf(request).tenantId, request.query),
  )

  app.post(
    '/v1/audit/export',
    {
      config: { auth: auditRead },
      schema: {
        operationId: 'createAuditExport',
        tags,
        summary: 'Export events (jsonl or csv)',
        description:
          'Queues an export and answers 202 with a status_url that reports progress and, when completed, a download_url. Files are kept 7 days. ' +
          'With Idempotency-Key, a repeated request gets the first response (the export as it was queued; header Idempotent-Replayed: true) and queues nothing; a different request with the same key is 409 idempotency_key_reused.',
        headers: IdempotencyKeyHeaders,
        body: ExportBody,
        response: { 202: Export },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await audit.requestExport(contextOf(request), request.body)
      return markReplayed(reply, replayed).code(202).send(outcome)
    },
  )

  app.get(
    '/v1/audit/exports/:export_id',
    {
      config: { auth: auditRead },
      schema: { operationId: 'getAuditExport', tags, summary: 'Export status', params: ExportParams, response: { 200: Export } },
    },
    async (request) => audit.exportStatus(principalOf(request).tenantId, request.params.export_id),
  )

  app.get(
    '/v1/audit/exports/:export_id/download',
    {
      config: { auth: auditRead },
      schema: {
        operationId: 'downloadAuditExport',
        tags,
        summary: 'Download a completed export',
        description: 'The file as an attachment (application/x-ndjson or text/csv). 409 audit_export_not_ready until it is completed.',
        params: ExportParams,
        produces: ['application/x-ndjson', 'text/csv'],
        response: { 200: Type.String({ description: 'The export file.' }) },
      },
    },
    async (request, reply) => {
      const file = await audit.exportDownload(principalOf(request).tenantId, request.params.export_id)
      return reply
        .type(contentTypes[file.format])
        .header('content-disposition', `attachment; filename="${request.params.export_id}.${file.format}"`)
        .header('content-length', file.bytes)
        .header('digest', `sha-256=${Buffer.from(file.sha256, 'hex').toString('base64')}`)
        .send(file.stream as never) // a stream bypasses the response serializer
    },
  )

  const chainDescription =
    'Walks the chain now, in seq order: seq is dense from 1, each prev_hash is the previous event\'s hash, each hash recomputes from the event\'s stored fields, the head agrees with the last event, ' +
    'and (check_anchors, default true) every closed Merkle batch\'s root recomputes from its events. ok: false names the first break. The walk follows a head that moves on while it reads, so it can run on a live service; ' +
    'events not linked yet are counted in unsequenced and checked by a later walk. Reads only; its cost grows with the chain (5,000 events per read).'

  app.get(
    '/v1/audit/chain',
    {
      config: { auth: auditRead },
      schema: {
        tags,
        operationId: 'verifyAuditChain',
        summary: 'Verify your audit chain',
        description: `${chainDescription} The tenant is the caller's.`,
        querystring: ChainQuery,
        response: { 200: ChainVerification },
      },
    },
    async (request) => audit.verifyChain(principalOf(request).tenantId, { checkAnchors: request.query.check_anchors ?? true }),
  )

  app.get(
    '/v1/platform/audit/chain',
    {
      config: { auth: platformRoute() },
      schema: {
        tags: ['Platform: audit'],
        operationId: 'verifyPlatformAuditChain',
        summary: 'Verify a tenant\'s audit chain (platform)',
        description: `${chainDescription} Any tenant, including a deleted one (its chain is preserved); a tenant with no events is ok with events_checked 0.`,
        querystring: PlatformChainQuery,
        response: { 200: ChainVerification },
      },
    },
    async (request) => audit.verifyChain(request.query.tenant_id, { checkAnchors: request.query.check_anchors ?? true }),
  )

  app.post(
    '/v1/audit/verify',
    {
      config: { auth: publicRoute('audit-verify') },
      schema: {
        operationId: 'verifyAuditProof',
        tags,
        summary: 'Verify an inclusion proof (public)',
        description:
          'Send an event hash, its Merkle proof and the claimed root (and optionally the tenant). Answers whether the proof leads to the root and whether the root is anchored. Needs no credential and changes nothing, so it takes no Idempotency-Key: a repeated request is computed again (and says anchored once the root has been anchored since).',
        body: VerifyBody,
        response: { 200: VerifyResponse },
      },
    },
    async (request) => audit.verify(request.body),
  )
}
