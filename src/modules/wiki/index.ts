/**
 * The wiki module (issue 19; docs/wiki.md): questions about the books answered from the Ledger with
 * evidence and a receipt; Wiki entities (a Ledger record seen through the Wiki, its evidence and history,
 * annotations); the search over policies and agents. Downstream of the Ledger, never the source of truth:
 * it reads the Ledger through its query port and writes no Ledger row.
 */
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { EmbeddingModel, LanguageModel } from '../../platform/llm/language-model.ts'
import { createAnnotateCommands, type AnnotateCommands } from './annotate.service.ts'
import { createEntitiesService, type EntitiesService } from './entities.service.ts'
import { createWikiEntitiesStore } from './entities.store.pg.ts'
import type { WikiLedger, WikiRaw, WikiSearchSources } from './ports.ts'
import { createQuestionsService, type QuestionsService } from './questions.service.ts'
import { createQuestionsStore } from './questions.store.pg.ts'
import { createSearchService, type SearchService } from './search.service.ts'

export { wikiRoutes } from './wiki.routes.ts'
export { wikiRpc } from './wiki.rpc.ts'
export { wikiEntityRoutes } from './entities.routes.ts'
export { wikiTenantData } from './wiki.tables.ts'
export { wikiEntitiesTenantData } from './entities.tables.ts'
export { flattenText } from './domain/search.ts'
export type { SearchDocument, WikiArtifact, WikiLedger, WikiParsedRow, WikiRaw, WikiSearchSources } from './ports.ts'
export type { WikiAnswer } from './questions.service.ts'

export interface Wiki {
  readonly questions: QuestionsService
  readonly entities: EntitiesService
  readonly annotate: AnnotateCommands
  readonly search: SearchService
}

export interface WikiDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly ids: IdSource
  readonly clock: Clock
  readonly cursors: CursorCodec
  readonly ledger: WikiLedger
  readonly raw: WikiRaw
  /** The policy and agents modules' documents, read at search time. */
  readonly sources: WikiSearchSources
  /** The configured language model (LLM_BASE_URL…); undefined: questions are answered by the parser alone. */
  readonly languageModel?: LanguageModel | undefined
  /** The embedding model (LLM_EMBEDDING_MODEL); undefined: semantic search uses pg_trgm. */
  readonly embedder?: EmbeddingModel | undefined
  readonly onEmbeddingError?: (error: unknown) => void
}

export function createWiki(deps: WikiDeps): Wiki {
  const store = createWikiEntitiesStore()
  return {
    questions: createQuestionsService({ ...deps, store: createQuestionsStore() }),
    entities: createEntitiesService({ ...deps, store }),
    annotate: createAnnotateCommands({ ...deps, store }),
    search: createSearchService({ ...deps, store }),
  }
}
