/**
 * The Policy slice as the composition root sees it: the service and wallets for the routes, the default
 * policy for tenant provisioning (and the start-up backfill), and verdicts for the pre-execution gate.
 */
import type { CoreDeps } from '../../platform/deps.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { createDefaultPolicyProvisioner, type DefaultPolicyProvisioner } from './default-policy.ts'
import { createPolicyService, type PolicyService } from './policy.service.ts'
import { createPolicyStore } from './policy.store.pg.ts'
import { StoredContents } from './stored-content.ts'
import type { PolicyStore } from './policy.store.ts'
import { createPolicyVerdicts, type PolicyVerdicts } from './verdicts.ts'
import { createWalletsService, type WalletsService } from './wallets.service.ts'
import type { LedgerOutflows, PolicyTenants } from './ports.ts'

export { policyRoutes, policyContentSchemaPath } from './policy.routes.ts'
export type { PolicyService } from './policy.service.ts'
export type { WalletsService } from './wallets.service.ts'
export type { DefaultPolicyProvisioner } from './default-policy.ts'
export type { EvaluatedDecision, IssuedVerdict, PolicyVerdicts, VerdictConsumption, VerdictFailure } from './verdicts.ts'
export { actionHash, verdictLifetimeSeconds } from './verdicts.ts'

export interface Policy {
  readonly service: PolicyService
  readonly wallets: WalletsService
  readonly defaultPolicy: DefaultPolicyProvisioner
  readonly verdicts: PolicyVerdicts
  readonly store: PolicyStore
}

export function createPolicy(deps: CoreDeps & { cursors: CursorCodec; tenants: PolicyTenants; ledger: LedgerOutflows }): Policy {
  const store = createPolicyStore()
  // Stored versions' content ready to evaluate, owned by this instance of the module.
  const contents = new StoredContents()
  return {
    service: createPolicyService({ ...deps, store, contents }),
    wallets: createWalletsService({ ...deps, store }),
    defaultPolicy: createDefaultPolicyProvisioner({ ...deps, store }),
    verdicts: createPolicyVerdicts({ ...deps, store, contents }),
    store,
  }
}
