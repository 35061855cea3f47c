/**
 * The payments module as the composition root sees it: PaymentIntents proposed with their policy
 * decision, decided on by members, paused, cancelled and read, and the section 6 gate that dispatches an
 * approved intent to the outbox (issue 16; docs/payments.md, docs/gate.md). The execution module takes
 * the outbox rows to the rails through `dispatch` (issue 17, in progress).
 */
import type { Logger } from 'pino'
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { createDecideService, type DecideService } from './decide.service.ts'
import type { FloorSettings } from './domain/intents.ts'
import { defaultGateSettings, type GateSettings } from './domain/gate.ts'
import { createGateService, type GateService } from './gate.service.ts'
import { createPaymentsStore } from './payments.store.pg.ts'
import type { IntentProposedListener, PaymentsAgents, PaymentsAuditChain, PaymentsEvidence, PaymentsExecution, PaymentsLedger, PaymentsMembers, PaymentsPolicy } from './ports.ts'
import { createDispatchPort, type PaymentsDispatch } from './dispatch.service.ts'
import { createProposeService, type ProposeService } from './propose.service.ts'
import { createReadService, type ReadService } from './read.service.ts'

export { paymentRoutes } from './payments.routes.ts'
export { paymentsRpc } from './payments.rpc.ts'
export { paymentsTenantData } from './payments.tables.ts'
export type { DecideService } from './decide.service.ts'
export type { ProposeService } from './propose.service.ts'
export type { IntentProofFacts, ReadService } from './read.service.ts'
export type { EvidenceEntry } from './domain/evidence.ts'
export type { GateCheckResult } from './domain/gate.ts'
export type { GateService } from './gate.service.ts'
export { defaultGateSettings, railOf, type GateSettings, type PromotionFact, type Rail } from './domain/gate.ts'
export type { IntentProposedListener, IntentProposedNotice, PaymentExecution, PaymentsAgents, PaymentsAuditChain, PaymentsEvidence, PaymentsExecution, PaymentsLedger, PaymentsMembers, PaymentsPolicy, MemberIdentity } from './ports.ts'
export type { DispatchEffects, DispatchOrder, DispatchOutcome, OutboxKey, PaymentsDispatch } from './dispatch.service.ts'

export interface Payments {
  readonly propose: ProposeService
  readonly decide: DecideService
  readonly read: ReadService
  readonly gate: GateService
  /** The outbox and the rail's moves on intents, for the execution worker. */
  readonly dispatch: PaymentsDispatch
}

export interface PaymentsDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly cursors: CursorCodec
  readonly ids: IdSource
  readonly clock: Clock
  /** Where a refusal that could not be audited is reported (the refusal itself is still answered). */
  readonly logger: Logger
  readonly ledger: PaymentsLedger
  readonly evidence: PaymentsEvidence
  readonly members: PaymentsMembers
  readonly policy: PaymentsPolicy
  readonly agents: PaymentsAgents
  readonly auditChain: PaymentsAuditChain
  /** The execution module: the dispatch jobs the gate enqueues, and the executions the replay investigation shows. */
  readonly execution: PaymentsExecution
  /** The hard human-approval floor's setting (PAYMENTS_FIAT_FLOOR; on unless turned off). */
  readonly floor: FloorSettings
  /** The gate's limits and registered rails (defaultGateSettings unless a test or deployment says otherwise). */
  readonly gate?: GateSettings
  /** Told of each intent an agent proposes, in its transaction (ports.ts IntentProposedListener); none by default. */
  readonly afterPropose?: IntentProposedListener | undefined
}

export function createPayments(deps: PaymentsDeps): Payments {
  const { db, commands, cursors, ids, clock, ledger, evidence, members, policy, agents, auditChain, execution, floor } = deps
  const store = createPaymentsStore()
  const decide = createDecideService({ db, commands, store, ledger, members, ids, clock, logger: deps.logger })
  const gate = createGateService({ commands, store, ledger, members, policy, agents, auditChain, execution, ids, clock, settings: deps.gate ?? defaultGateSettings })
  return {
    propose: createProposeService({ commands, store, ledger, evidence, policy, agents, ids, clock, floor, afterPropose: deps.afterPropose }),
    decide,
    read: createReadService({ db, store, cursors, execution, evidence, agents }),
    // A resume is a member's decision too: its refusal by the member checks is audited as approve's is.
    gate: { ...gate, resume: (context, input) => decide.auditingRefusal(context, input.id, 'resume', () => gate.resume(context, input)) },
    dispatch: createDispatchPort({ store, clock }),
  }
}
