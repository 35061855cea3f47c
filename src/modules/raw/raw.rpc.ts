/**
 * Raw's agent-protocol contribution (docs/mcp.md): `raw.contribute`, an agent's evidence as an artifact
 * of source_type agent_contributed. The same IngestService steps as the multipart route
 * (POST /v1/raw/ingest): prepareUpload checks the source and media type, storeUpload streams the bytes
 * into storage under the size limit, ingestUpload records the artifact (deduplicated by SHA-256, audited,
 * extraction queued). The contributing agent's contribution hold applies at extraction as for an upload:
 * a held agent's artifact is extracted but kept from the Ledger until the hold is released. raw:write.
 */
import { Readable } from 'node:stream'
import { Type } from 'typebox'
import { rpcTool, type RpcContribution } from '../../platform/rpc/contributions.ts'
import { Strict } from '../../platform/http/schemas.ts'
import { IngestResponse } from './raw.schemas.ts'
import type { RawService } from './raw.service.ts'

/** The most characters of content one contribution carries (the JSON body limit is 1 MiB). */
export const contributionContentCharactersMax = 900_000

export const RawContributeArguments = Strict({
  content: Type.String({ minLength: 1, maxLength: contributionContentCharactersMax, description: 'The evidence: text as written (encoding utf8, the default) or bytes in base64.' }),
  encoding: Type.Optional(Type.Enum(['utf8', 'base64'] as const, { description: 'How content is written; default utf8.' })),
  mime_type: Type.String({ minLength: 1, maxLength: 255, description: 'The media type of the evidence (e.g. text/csv, application/json, text/plain); checked as the ingest route checks it (-32602 raw_media_type_unsupported).' }),
  filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  source_ref: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'What the evidence is and where the agent found it (free form, at most 8 KiB as JSON).' })),
})

export function rawRpc(raw: RawService): RpcContribution {
  return {
    tools: [
      rpcTool({
        name: 'raw.contribute',
        title: 'Contribute evidence',
        description:
          'Stores evidence as a Raw artifact with source_type agent_contributed (the same bytes again: deduplicated, the first raw_id). Extracted like an upload; while the agent\'s contribution hold is on, it is kept from the Ledger until released. REST twin: POST /v1/raw/ingest (multipart, source_type agent_contributed).',
        scopes: ['raw:write'],
        input: RawContributeArguments,
        output: IngestResponse,
        readOnly: false,
        async call(context, args) {
          const tenantId = context.principal!.tenantId
          const bytes = Buffer.from(args.content, args.encoding === 'base64' ? 'base64' : 'utf8')
          const prepared = raw.prepareUpload({ sourceType: 'agent_contributed', mimeType: args.mime_type, partMimeType: undefined, filename: args.filename ?? null, sourceRef: args.source_ref })
          const upload = await raw.storeUpload(tenantId, prepared, Readable.from([bytes]))
          try {
            const { outcome } = await raw.ingestUpload(context, { upload })
            return { ...outcome.artifact, deduplicated: outcome.kind !== 'created' }
          } catch (error) {
            await raw.discardUpload(tenantId, upload)
            throw error
          }
        },
      }),
    ],
  }
}
