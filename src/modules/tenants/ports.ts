/**
 * What the tenants module needs from other modules; composition plugs the implementations in (the policy
 * module's default-policy provisioner). Tenants reads and writes no other module's tables.
 */
import type { Tx } from '../../platform/db/database.ts'

/** What the provisioning audit event records of the default policy (as outputs of tenant.signed_up / tenant.provisioned). */
export interface ProvisionedPolicy {
  readonly default_policy_id: string
  readonly default_policy_version: number
  readonly default_policy_content_hash: string
}

/** The policy module's default policy, which every new tenant starts with. */
export interface DefaultPolicyProvisioner {
  /**
   * In the caller's transaction (signup, platform provisioning): the tenant's version 1 of the default
   * policy, active. Records no audit event of its own: the caller's provisioning event carries the
   * returned fields.
   */
  provision(tx: Tx, tenantId: string): Promise<ProvisionedPolicy>
}
