/**
 * The wiki module (issue 19; docs/wiki.md): questions about the books answered from the Ledger with
 * evidence and a receipt. Downstream of the Ledger, never the source of truth: it reads the Ledger
 * through its query port and writes no Ledger row.
 */
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { LanguageModel } from '../../platform/llm/language-model.ts'
import type { WikiLedger, WikiRaw } from './ports.ts'
import { createQuestionsService, type QuestionsService } from './questions.service.ts'
import { createQuestionsStore } from './questions.store.pg.ts'

export { wikiRoutes } from './wiki.routes.ts'
export { wikiTenantData } from './wiki.tables.ts'
export type { WikiLedger, WikiRaw } from './ports.ts'
export type { WikiAnswer } from './questions.service.ts'

export interface Wiki {
  readonly questions: QuestionsService
}

export interface WikiDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly ids: IdSource
  readonly clock: Clock
  readonly cursors: CursorCodec
  readonly ledger: WikiLedger
  readonly raw: WikiRaw
  /** The configured language model (LLM_BASE_URL…); undefined: questions are answered by the parser alone. */
  readonly languageModel?: LanguageModel | undefined
}

export function createWiki(deps: WikiDeps): Wiki {
  return {
    questions: createQuestionsService({ ...deps, store: createQuestionsStore() }),
  }
}
