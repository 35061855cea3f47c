/**
 * The Policy module's use cases (spec, "Policy"), one file per use case or small group, assembled into
 * the one service the routes (and, later, agent tools) call:
 *   read.service.ts                 the active version; the versions list
 *   compose.service.ts              compose a version (command)
 *   sign.service.ts                 sign it to quorum, activating it (command)
 *   evaluate.service.ts             evaluate an action against the active policy (command: it audits and emits)
 *   analysis.service.ts             lint, simulate one action, diff two versions (computations: write nothing)
 *   simulate-historical.service.ts  replay recorded outflows through candidate content (computation)
 * The language itself (schema, evaluation, lint, diff, hashing, EIP-712) is the pure domain in `domain/`;
 * the use cases add storage, transactions, audit and events around it. Commands are `name(context,
 * input)`, their path parameters in the input, run by the command runner; queries take the tenant.
 *
 * Version numbers and activation are serialized per tenant by a transaction-scoped advisory lock, and
 * the database keeps at most one active version per tenant (a partial unique index).
 */
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { createPolicyAnalysis, type PolicyAnalysis } from './analysis.service.ts'
import { createPolicyComposition, type PolicyComposition } from './compose.service.ts'
import { createPolicyEvaluation, type PolicyEvaluation } from './evaluate.service.ts'
import type { PolicyStore } from './policy.store.ts'
import type { LedgerOutflows, PolicyTenants } from './ports.ts'
import { createPolicyReads, type PolicyReads } from './read.service.ts'
import { createPolicySigning, type PolicySigning } from './sign.service.ts'
import { createHistoricalSimulation, type HistoricalSimulation } from './simulate-historical.service.ts'
import type { StoredContents } from './stored-content.ts'
import type { PolicyWriteListener } from './ports.ts'

export type PolicyService = PolicyReads & PolicyComposition & PolicySigning & PolicyEvaluation & PolicyAnalysis & HistoricalSimulation

export interface PolicyServiceDeps {
  readonly db: Database
  /** Runs compose, sign and evaluate, committing their audit events, business events and idempotency records. */
  readonly commands: CommandRunner
  readonly store: PolicyStore
  /** Who is an active member (authorized signers). */
  readonly tenants: Pick<PolicyTenants, 'signingMemberUserIds'>
  /** Recorded outflows, for simulate-historical. */
  readonly ledger: LedgerOutflows
  readonly cursors: CursorCodec
  readonly ids: IdSource
  readonly clock: Clock
  /** Stored versions' content, kept ready to evaluate (shared with the verdicts of the same module instance). */
  readonly contents: StoredContents
  /** Told of each composed and each activated version, in its transaction. */
  readonly afterWrite?: PolicyWriteListener | undefined
}

export function createPolicyService(deps: PolicyServiceDeps): PolicyService {
  return {
    ...createPolicyReads(deps),
    ...createPolicyComposition(deps),
    ...createPolicySigning(deps),
    ...createPolicyEvaluation(deps),
    ...createPolicyAnalysis(deps),
    ...createHistoricalSimulation(deps),
  }
}
