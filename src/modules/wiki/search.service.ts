/**
 * GET /v1/wiki/search (docs/wiki.md, "Search"): policies and agents, read from their modules at request
 * time (no copy to keep up to date), filtered by PostgreSQL full-text search and ranked by similarity —
 * cosine similarity of embeddings when a model is configured, pg_trgm word similarity otherwise — on
 * both engines. Embeddings are cached per document, model and text hash (wiki_search_embeddings, real[]),
 * and cosine similarity is computed in SQL over the candidates.
 */
import { sql } from 'drizzle-orm'
import type { Static } from 'typebox'
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import { canonicalJson, sha256Hex } from '../../kernel/hashing.ts'
import { queryRows, type Database } from '../../platform/db/database.ts'
import { compareRanked, searchableText, searchCandidatesMax, searchPageRows, snippetOf, trigramThreshold, type SearchKind } from './domain/search.ts'
import type { WikiEntitiesStore } from './entities.store.pg.ts'
import type { EmbeddingModel } from '../../platform/llm/language-model.ts'
import type { SearchDocument, WikiSearchSources } from './ports.ts'
import type { WikiSearchQuery, WikiSearchResponse } from './search.schemas.ts'

export type SearchQuery = Static<typeof WikiSearchQuery>
export type SearchResponse = Static<typeof WikiSearchResponse>

export interface SearchService {
  search(tenantId: string, query: SearchQuery): Promise<SearchResponse>
}

export interface SearchDeps {
  readonly db: Database
  readonly store: WikiEntitiesStore
  readonly sources: WikiSearchSources
  readonly cursors: CursorCodec
  readonly clock: Clock
  /** The embedding model; undefined: semantic similarity is pg_trgm's. */
  readonly embedder?: EmbeddingModel | undefined
  /** Where an embedding failure is reported before the search falls back to trigrams. */
  readonly onEmbeddingError?: (error: unknown) => void
}

/** Texts sent to the embedding model in one call at most. */
const embedBatch = 64

const paramsInvalid = (path: string, message: string) => new AppError('request_params_invalid', `${path} ${message}.`, { issues: [{ path: `/${path}`, message, keyword: 'range' }] })

export function createSearchService(deps: SearchDeps): SearchService {
  const { db, store, sources, cursors, clock, embedder } = deps

  /** Cosine similarity of each candidate's embedding to the query's, computed in SQL; undefined when the model fails. */
  async function embeddingScores(tenantId: string, model: EmbeddingModel, documents: readonly SearchDocument[], text: string): Promise<Map<string, number> | undefined> {
    try {
      const hashed = documents.map((document) => ({ kind: document.kind, id: document.id, sha256: sha256Hex(searchableText(document)), text: searchableText(document) }))
      const cached = await store.embeddings(db.orm, tenantId, model.model, hashed)
      const missing = hashed.filter((document) => !cached.has(`${document.kind}:${document.id}`))
      for (let start = 0; start < missing.length; start += embedBatch) {
        const batch = missing.slice(start, start + embedBatch)
        const { vectors } = await model.embed(batch.map((document) => document.text))
        if (vectors.length !== batch.length) throw new Error(`the embedding model answered ${vectors.length} vectors for ${batch.length} texts`)
        // A cache of derived data (recomputed from the documents at any time): written outside any command, not audited.
        await store.saveEmbeddings(db.orm, tenantId, model.model, batch.map((document, index) => ({ ...document, vector: vectors[index]! })), clock.now())
      }
      const [queryVector] = (await model.embed([text])).vectors
      if (queryVector === undefined) throw new Error('the embedding model answered no vector for the query')
      const keys = JSON.stringify(hashed.map((document) => `${document.kind}:${document.id}`))
      const rows = await queryRows<{ kind: string; id: string; score: number | string | null }>(
        db.orm,
        sql`select e.document_kind as kind, e.document_id as id,
              (select sum(a * b) / nullif(sqrt(sum(a * a)) * sqrt(sum(b * b)), 0) from unnest(e.vector, ${`{${queryVector.join(',')}}`}::real[]) as t(a, b))::float8 as score
            from wiki_search_embeddings e
            where e.tenant_id = ${tenantId} and e.model = ${model.model}
              and e.document_kind || ':' || e.document_id in (select jsonb_array_elements_text(${keys}::jsonb))`,
      )
      return new Map(rows.map((row) => [`${row.kind}:${row.id}`, row.score === null ? 0 : Number(row.score)]))
    } catch (error) {
      deps.onEmbeddingError?.(error)
      return undefined
    }
  }

  return {
    async search(tenantId, query) {
      const since = query.since === undefined ? undefined : new Date(query.since)
      const until = query.until === undefined ? undefined : new Date(query.until)
      if (since !== undefined && until !== undefined && since > until) throw paramsInvalid('since', 'must not be after until')
      const limit = query.limit ?? searchPageRows.defaultRows
      const listing = `wiki.search:${tenantId}:${sha256Hex(canonicalJson({ kind: query.kind ?? null, q: query.q ?? null, semantic: query.semantic ?? null, since: query.since ?? null, until: query.until ?? null }))}`
      let offset = 0
      if (query.cursor !== undefined) {
        const position = cursors.decode(listing, query.cursor)
        if (typeof position.offset !== 'number' || !Number.isInteger(position.offset) || position.offset < 0) throw new AppError('invalid_cursor')
        offset = position.offset
      }

      const kinds: SearchKind[] = query.kind === undefined ? ['policy', 'agent'] : [query.kind]
      const loaded = (await Promise.all(kinds.map((kind) => (kind === 'policy' ? sources.policies(tenantId, searchCandidatesMax) : sources.agents(tenantId, searchCandidatesMax))))).flat()
      const documents = loaded.filter(
        (document) =>
          (since === undefined || (document.updatedAt !== null && document.updatedAt >= since)) && (until === undefined || (document.updatedAt !== null && document.updatedAt <= until)),
      )

      // Full text and trigram scores in one statement over the candidates (PostgreSQL's FTS and pg_trgm, both engines).
      const wantsTrigram = query.semantic !== undefined && embedder === undefined
      const texts = JSON.stringify(documents.map((document, key) => ({ key, text: searchableText(document) })))
      const scored =
        documents.length === 0 || (query.q === undefined && !wantsTrigram)
          ? documents.map((_, key) => ({ key, matched: true, rank: null, trigram: null }))
          : await queryRows<{ key: number; matched: boolean; rank: number | string | null; trigram: number | string | null }>(
              db.orm,
              sql`select d.key,
                    ${query.q === undefined ? sql`true` : sql`to_tsvector('english', d.text) @@ websearch_to_tsquery('english', ${query.q})`} as matched,
                    ${query.q === undefined ? sql`null::float8` : sql`ts_rank(to_tsvector('english', d.text), websearch_to_tsquery('english', ${query.q}))::float8`} as rank,
                    ${wantsTrigram ? sql`word_similarity(${query.semantic}, d.text)::float8` : sql`null::float8`} as trigram
                  from jsonb_to_recordset(${texts}::jsonb) as d(key int, text text)`,
            )
      const matched = scored.filter((row) => row.matched).map((row) => ({ document: documents[Number(row.key)]!, rank: row.rank === null ? null : Number(row.rank), trigram: row.trigram === null ? null : Number(row.trigram) }))

      let semanticMethod: 'embedding' | 'trigram' | null = null
      let ranked: Array<{ document: SearchDocument; score: number | null }>
      if (query.semantic !== undefined) {
        const embedded = embedder === undefined || matched.length === 0 ? undefined : await embeddingScores(tenantId, embedder, matched.map((row) => row.document), query.semantic)
        if (embedded !== undefined) {
          semanticMethod = 'embedding'
          ranked = matched.map((row) => ({ document: row.document, score: embedded.get(`${row.document.kind}:${row.document.id}`) ?? 0 }))
        } else {
          semanticMethod = 'trigram'
          // The embedding model failed (or there is none): trigram similarity, computed now if it was not.
          const trigrams =
            wantsTrigram || matched.length === 0
              ? new Map(matched.map((row) => [row.document, row.trigram ?? 0]))
              : new Map(
                  (
                    await queryRows<{ key: number; trigram: number | string }>(
                      db.orm,
                      sql`select d.key, word_similarity(${query.semantic}, d.text)::float8 as trigram
                          from jsonb_to_recordset(${JSON.stringify(matched.map((row, key) => ({ key, text: searchableText(row.document) })))}::jsonb) as d(key int, text text)`,
                    )
                  ).map((row) => [matched[Number(row.key)]!.document, Number(row.trigram)]),
                )
          ranked = matched.map((row) => ({ document: row.document, score: trigrams.get(row.document) ?? 0 })).filter((row) => row.score >= trigramThreshold)
        }
      } else {
        ranked = matched.map((row) => ({ document: row.document, score: row.rank }))
      }

      ranked.sort((a, b) => compareRanked({ ...a.document, score: a.score }, { ...b.document, score: b.score }))
      const page = ranked.slice(offset, offset + limit)
      return {
        results: page.map(({ document, score }) => ({
          kind: document.kind,
          id: document.id,
          title: document.title,
          snippet: snippetOf(document.body),
          score: score === null ? null : Math.round(score * 1e6) / 1e6,
          updated_at: document.updatedAt?.toISOString() ?? null,
        })),
        full_text: query.q !== undefined,
        semantic_method: semanticMethod,
        embedding_model: semanticMethod === 'embedding' ? embedder!.model : null,
        next_cursor: ranked.length > offset + limit ? cursors.encode(listing, { offset: offset + limit }) : null,
      }
    },
  }
}
