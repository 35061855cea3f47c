/**
 * The Policy slice as the composition root sees it: the service and wallets for the routes, the default
 * policy for tenant provisioning (and the start-up backfill), and verdicts for the pre-execution gate.
 */
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { createDefaultPolicyProvisioner, type DefaultPolicyProvisioner } from './default-policy.ts'
import { createPolicyService, type PolicyService } from './policy.service.ts'
import { createPolicyStore } from './policy.store.pg.ts'
import { StoredContents } from './stored-content.ts'
import type { PolicyStore } from './policy.store.ts'
import { createPolicyVerdicts, type PolicyVerdicts } from './verdicts.ts'
import { createWalletsService, type WalletsService } from './wallets.service.ts'
import type { LedgerOutflows, PolicyAgentWallets, PolicyTenants, PolicyWriteListener } from './ports.ts'
import { createPolicyIntegrity, type PolicyIntegrityReader } from './integrity.ts'

export { policyRoutes, policyContentSchemaPath } from './policy.routes.ts'
export type { PolicyService } from './policy.service.ts'
export type { WalletsService } from './wallets.service.ts'
export type { DefaultPolicyProvisioner } from './default-policy.ts'
export type { EvaluatedDecision, IssuedVerdict, PolicyVerdicts, VerdictConsumption, VerdictFailure } from './verdicts.ts'
export { actionHash, verdictLifetimeSeconds } from './verdicts.ts'
export type { PolicyAction, PolicyDecision, TraceEntry } from './domain/index.ts'
export type { PolicyIntegrity, PolicyIntegrityReader } from './integrity.ts'
export type { PolicyAgentWallets, PolicyWriteListener, PolicyWriteNotice } from './ports.ts'

export interface Policy {
  readonly service: PolicyService
  readonly wallets: WalletsService
  readonly defaultPolicy: DefaultPolicyProvisioner
  readonly verdicts: PolicyVerdicts
  /** The active policy's signatures verified again (the gate's check 3.5). */
  readonly integrity: PolicyIntegrityReader
  readonly store: PolicyStore
}

export interface PolicyDeps {
  readonly db: Database
  /** Runs the module's commands (compose, sign, evaluate, wallet link) and commits the backfill's audit events. */
  readonly commands: CommandRunner
  readonly cursors: CursorCodec
  readonly ids: IdSource
  readonly clock: Clock
  /** The tenants module's directory: members (signers, wallet owners) and the backfill's tenant sweep. */
  readonly tenants: PolicyTenants
  /** The Ledger's queries: recorded outflows for simulate-historical. */
  readonly ledger: LedgerOutflows
  /** The agents module's registry: a wallet link may not take an address another agent is registered with. */
  readonly agentWallets: PolicyAgentWallets
  /** Told of each composed and activated version, in its transaction (ports.ts PolicyWriteListener). */
  readonly afterWrite?: PolicyWriteListener | undefined
}

export function createPolicy(deps: PolicyDeps): Policy {
  const { db, commands, cursors, ids, clock, tenants, ledger } = deps
  const store = createPolicyStore()
  // Stored versions' content ready to evaluate, owned by this instance of the module.
  const contents = new StoredContents()
  const integrity = createPolicyIntegrity({ store, tenants })
  return {
    service: createPolicyService({ db, commands, store, tenants, ledger, cursors, ids, clock, contents, afterWrite: deps.afterWrite }),
    wallets: createWalletsService({ db, commands, store, agents: deps.agentWallets, integrity, cursors, ids, clock }),
    defaultPolicy: createDefaultPolicyProvisioner({ db, commands, store, tenants, ids, clock }),
    verdicts: createPolicyVerdicts({ store, ids, clock, contents }),
    integrity,
    store,
  }
}
