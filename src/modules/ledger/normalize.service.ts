/**
 * POST /v1/ledger/normalize as a command: one parsed row normalized now, synchronously.
 */
import { type CommandContext, actorOf, requirePrincipal } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import type { LedgerStore } from './ledger.store.ts'
import type { EntityResult } from './normalize/batch.ts'
import type { Normalizer } from './normalize/normalizer.ts'
import type { LedgerWriteListener } from './ledger.jobs.ts'

export interface NormalizeInput {
  readonly raw_parsed_id: string
}

export interface NormalizeResult {
  raw_parsed_id: string
  raw_artifact_id: string
  parser: string
  parser_version: string
  entities: EntityResult[]
}

export interface NormalizeCommands {
  /**
   * Normalizes one parsed row of the caller's tenant (any parser version) in one transaction under the
   * tenant's Ledger lock. Audits ledger.normalized and emits the Ledger's created/updated events when the
   * row changed the Ledger (the batch records both in the command's transaction, as every normalization
   * batch does); a row that changes nothing writes nothing. With an Idempotency-Key, a repeat replays the
   * first outcome (its `created` outcomes, not the `unchanged` a fresh run would now report). When the row
   * changed the Ledger, the write listener's jobs (memory regeneration) commit with it.
   * 404 ledger_parsed_row_not_found, 410 raw_artifact_tombstoned, 422 ledger_parsed_row_unsupported.
   */
  normalize(context: CommandContext, input: NormalizeInput): Promise<CommandResult<NormalizeResult>>
}

export interface NormalizeServiceDeps {
  readonly commands: CommandRunner
  readonly store: LedgerStore
  readonly normalizer: Normalizer
  /** Told when the row changed the Ledger, in the command's transaction (ledger.jobs.ts LedgerWriteListener). */
  readonly afterWrite?: LedgerWriteListener | undefined
}

export function createNormalizeCommands(deps: NormalizeServiceDeps): NormalizeCommands {
  const { commands, store, normalizer } = deps
  return {
    async normalize(context, input) {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      // The input is what the command uses: target_entities, accepted and ignored, is no part of it.
      const request = { raw_parsed_id: input.raw_parsed_id }
      return commands.run(context, { name: 'ledger.normalize', tenantId, input: request }, async (tx) => {
        const row = await store.findParsedRow(tx, tenantId, request.raw_parsed_id)
        if (row === undefined) throw new AppError('ledger_parsed_row_not_found')
        const artifact = await store.findArtifact(tx, tenantId, row.rawArtifactId)
        if (artifact?.status === 'tombstoned') throw new AppError('raw_artifact_tombstoned')
        const result = await normalizer.normalizeParsedRowIn(tx, tenantId, row.id, { actor: actorOf(principal), requestId: context.requestId })
        if (result === undefined) throw new AppError('ledger_parsed_row_not_found')
        if (result.rejected) throw new AppError('ledger_parsed_row_unsupported')
        const wrote = result.entities.some((entity) => entity.outcome !== 'unchanged')
        const jobs = wrote ? ((await deps.afterWrite?.(tx, { tenantId, kind: 'normalize', ref: context.requestId })) ?? []) : []
        return {
          jobs,
          outcome: { raw_parsed_id: row.id, raw_artifact_id: row.rawArtifactId, parser: row.parser, parser_version: row.parserVersion, entities: [...result.entities] },
        }
      })
    },
  }
}
