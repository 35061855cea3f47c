/**
 * The active policy's integrity, for the pre-execution gate (check 3.5, policy_signatures_valid): its
 * recorded signatures are verified again (each must recover to its address for this version's signing
 * input, and the address must still be an authorized signer: a linked human wallet of an active member),
 * and counted against the quorum. The default policy Steward provisions is signed by no one: it is
 * recognised by its author and content hash, which are Steward's own.
 */
import type { Executor } from '../../platform/db/database.ts'
import { defaultPolicyContent, policyContentHash, recoverPolicySigner } from './domain/index.ts'
import { systemPolicyAuthor } from './default-policy.ts'
import type { PolicyStore } from './policy.store.ts'
import { signingInputOf } from './policy.views.ts'
import type { PolicyTenants } from './ports.ts'
import { authorizedSigners, membersSigning } from './signers.ts'

export interface PolicyIntegrity {
  readonly id: string
  readonly version: number
  readonly quorumRequired: number
  /** Distinct members (authorized signers) with a recorded signature that verifies again. */
  readonly validSignatures: number
  /** The default policy Steward provisioned (no signatures; its content is Steward's default). */
  readonly provisionedDefault: boolean
}

export function createPolicyIntegrity(deps: { store: PolicyStore; tenants: Pick<PolicyTenants, 'signingMemberUserIds'> }) {
  const { store, tenants } = deps
  let defaultHash: string | undefined
  return {
    /** The active policy's integrity; undefined when none is active. Reads only. */
    async activePolicyIntegrity(executor: Executor, tenantId: string): Promise<PolicyIntegrity | undefined> {
      // The version and its signatures, read together (one round trip on PostgreSQL's pipelined connection).
      const [policy, activeSignatures] = await Promise.all([store.findActivePolicy(executor, tenantId), store.activeSignatures(executor, tenantId)])
      if (policy === undefined) return undefined
      defaultHash ??= policyContentHash(defaultPolicyContent)
      const provisionedDefault = policy.createdBy === systemPolicyAuthor && policy.contentHash === defaultHash && policy.contentHash === policyContentHash(policy.content as never)
      // Outside a transaction holding the version, another may have been activated between the two reads: only this version's count.
      const signatures = activeSignatures.filter((row) => row.policyId === policy.id)
      const authorized = signatures.length === 0 ? new Map<string, string>() : await authorizedSigners({ store, tenants }, executor, tenantId, signatures.map((row) => row.address))
      const input = signingInputOf(policy)
      const valid = new Set<string>()
      for (const row of signatures) {
        if (!authorized.has(row.address)) continue
        if ((await recoverPolicySigner(input, row.signature)) === row.address) valid.add(row.address)
      }
      return { id: policy.id, version: policy.version, quorumRequired: policy.quorumRequired, validSignatures: membersSigning(authorized, valid), provisionedDefault }
    },
  }
}

export type PolicyIntegrityReader = ReturnType<typeof createPolicyIntegrity>
