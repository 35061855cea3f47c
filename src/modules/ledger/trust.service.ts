/**
 * Counterparty trust transitions (grant, pause, restore, acknowledge) as commands. Trust is advisory: it
 * never lets a payment past policy or the gate.
 */
import { digestOf } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { type CommandContext, auditedBy, requirePrincipal } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import type { Tx } from '../../platform/db/database.ts'
import { allowedTrustActions, trustTransition, type TrustAction, type TrustState } from './domain/trust.ts'
import { nextVersion } from './domain/versions.ts'
import { counterpartyEventPayload } from './ledger.events.ts'
import type { LedgerWriteListener } from './ledger.jobs.ts'
import type { LedgerKind, LedgerRowByKind, LedgerStore } from './ledger.store.ts'
import { counterpartyView, type CounterpartyView } from './ledger.views.ts'

export interface ChangeTrustInput {
  readonly counterparty_id: string
  readonly action: TrustAction
  /** Why; kept on the counterparty version, digested in the audit event. */
  readonly reason?: string | undefined
}

export interface TrustCommands {
  /**
   * Moves a counterparty of the caller's tenant to the state `action` leads to, as a new version
   * (provenance human_confirmed). Locks the tenant's Ledger (every Ledger writer does). Audits
   * ledger.counterparty.trust_<action>; emits ledger.counterparty.updated. 404
   * ledger_counterparty_not_found; 409 ledger_counterparty_trust_transition_invalid from another state.
   */
  changeTrust(context: CommandContext, input: ChangeTrustInput): Promise<CommandResult<CounterpartyView>>
}

export interface TrustServiceDeps {
  readonly commands: CommandRunner
  readonly store: LedgerStore
  readonly clock: Clock
  /** Told of each transition that wrote a version, in its transaction; returns jobs to commit with it. */
  readonly afterWrite?: LedgerWriteListener | undefined
}

export function createTrustCommands(deps: TrustServiceDeps): TrustCommands {
  const { commands, store, clock } = deps

  /** Writes the next version of an entity (under the tenant's lock, held by the caller). */
  async function writeVersion<K extends LedgerKind>(tx: Tx, kind: K, current: LedgerRowByKind[K], draft: LedgerRowByKind[K]) {
    const next = nextVersion(current, draft, clock.now())
    if (next === undefined) return current
    await store.supersede(tx, kind, current.tenantId, [current.versionId], next.updatedAt)
    await store.insertVersions(tx, kind, [next])
    return next
  }

  return {
    async changeTrust(context, input) {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      const { counterparty_id: counterpartyId, action, reason } = input
      return commands.run(context, { name: 'ledger.changeTrust', tenantId, input }, async (tx) => {
        await store.lockTenant(tx, tenantId)
        const [current] = (await store.currentVersions(tx, 'counterparty', tenantId, [counterpartyId])).values()
        if (current === undefined) throw new AppError('ledger_counterparty_not_found')
        const metadata = { ...(current.metadata as Record<string, unknown>) }
        const pausedFrom = typeof metadata.trust_paused_from === 'string' ? (metadata.trust_paused_from as TrustState) : undefined
        const to = trustTransition(action, current.trustState, pausedFrom)
        if (to === undefined) {
          throw new AppError('ledger_counterparty_trust_transition_invalid', `Cannot ${action} a counterparty whose trust state is ${current.trustState}.`, {
            trust_state: current.trustState,
            action,
            allowed_actions: allowedTrustActions(current.trustState),
          })
        }
        const at = clock.now()
        if (action === 'pause') metadata.trust_paused_from = current.trustState
        else delete metadata.trust_paused_from
        metadata.trust_changed = { action, by: principal.id, at: at.toISOString(), ...(reason === undefined ? {} : { reason }) }
        const next = await writeVersion(tx, 'counterparty', current, { ...current, trustState: to, provenance: 'human_confirmed', metadata })
        const jobs = (await deps.afterWrite?.(tx, { tenantId, kind: 'trust', ref: counterpartyId })) ?? []
        return {
          jobs,
          outcome: counterpartyView(next),
          audit: [
            auditedBy(context, {
              layer: 'ledger',
              action: `ledger.counterparty.trust_${action}`,
              entity: { type: 'counterparty', id: counterpartyId },
              inputs: { action, ...(reason === undefined ? {} : { reason_digest: digestOf(reason) }) },
              outputs: { from: current.trustState, to, version_id: next.versionId, version: next.version },
            }),
          ],
          events: [{ type: 'ledger.counterparty.updated', payload: counterpartyEventPayload(next) }],
        }
      })
    },
  }
}
