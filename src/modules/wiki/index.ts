/**
 * The wiki module (issue 19; docs/wiki.md). This part: Wiki entities (a Ledger record seen through the
 * Wiki, its evidence and history, annotations) and the search over policies and agents.
 */
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { createAnnotateCommands, type AnnotateCommands } from './annotate.service.ts'
import { createEntitiesService, type EntitiesService } from './entities.service.ts'
import { createWikiEntitiesStore } from './entities.store.pg.ts'
import type { EmbeddingModel, WikiLedger, WikiRaw, WikiSearchSources } from './ports.ts'
import { createSearchService, type SearchService } from './search.service.ts'

export { wikiEntityRoutes } from './entities.routes.ts'
export { wikiEntitiesTenantData } from './entities.tables.ts'
export { flattenText } from './domain/search.ts'
export type { EmbeddingModel, SearchDocument, WikiArtifact, WikiLedger, WikiParsedRow, WikiRaw, WikiSearchSources } from './ports.ts'

export interface WikiEntities {
  readonly entities: EntitiesService
  readonly annotate: AnnotateCommands
  readonly search: SearchService
}

export interface WikiEntitiesDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly ids: IdSource
  readonly clock: Clock
  readonly cursors: CursorCodec
  readonly ledger: WikiLedger
  readonly raw: WikiRaw
  readonly sources: WikiSearchSources
  /** The embedding model; undefined: semantic search uses pg_trgm. */
  readonly embedder?: EmbeddingModel | undefined
  readonly onEmbeddingError?: (error: unknown) => void
}

export function createWikiEntities(deps: WikiEntitiesDeps): WikiEntities {
  const store = createWikiEntitiesStore()
  return {
    entities: createEntitiesService({ ...deps, store }),
    annotate: createAnnotateCommands({ ...deps, store }),
    search: createSearchService({ ...deps, store }),
  }
}
