import { assert } from '../../kernel/assert.ts'
import { requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import type { Principal } from '../../kernel/principal.ts'

/**
 * The principal of a policy command and the tenant it acts on: the input's tenant_id (the path
 * parameter). The guard refuses a path tenant other than the principal's, so a mismatch here is a
 * caller of ours (a route or tool) that skipped that check: a bug, not a request to answer.
 */
export function commandTenant(context: CommandContext, input: { readonly tenant_id: string }): { principal: Principal; tenantId: string } {
  const principal = requirePrincipal(context)
  assert(input.tenant_id === principal.tenantId, `policy command for tenant ${input.tenant_id} run by a principal of tenant ${principal.tenantId}`)
  return { principal, tenantId: input.tenant_id }
}
