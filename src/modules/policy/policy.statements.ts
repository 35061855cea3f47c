/**
 * The policy module's hot statements (platform/db/statements.ts): the active-policy read that every
 * evaluation, proposal and gate run makes, written once as SQL instead of built by the ORM on each call.
 * The column list follows policy.tables.ts; test/platform/db-statements.test.ts reads the same row both ways.
 */
import { statement } from '../../platform/db/statements.ts'
import type { PolicyRow } from './policy.store.ts'

const policyColumns = `id, tenant_id as "tenantId", version, state, content, content_hash as "contentHash",
  quorum_required as "quorumRequired", signers, activated_at as "activatedAt", deactivated_at as "deactivatedAt",
  created_by as "createdBy", created_at as "createdAt"`

/** The tenant's ($1) active policy version. */
export const activePolicy = statement<PolicyRow>(`select ${policyColumns} from policies where tenant_id = $1 and state = 'active' limit 1`)

/** The same, with a share lock held until the transaction ends (a gate or proposal binding to it). */
export const activePolicyForShare = statement<PolicyRow>(`select ${policyColumns} from policies where tenant_id = $1 and state = 'active' limit 1 for share`)
