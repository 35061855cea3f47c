/**
 * Composing a policy version: the content becomes the tenant's next version, pending signatures, and the
 * caller gets the EIP-712 typed data each signer signs.
 */
import type { Clock } from '../../kernel/clock.ts'
import { auditedBy, type CommandContext } from '../../kernel/context.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import { commandTenant } from './command-tenant.ts'
import { contentInvalid } from './content-invalid.ts'
import { policyContentHash, validatePolicyContent, type LintFinding } from './domain/index.ts'
import { activationQuorum, activeQuorumWarning, attentionFindings, quorumWarning } from './domain/signing-warnings.ts'
import type { PolicyStore } from './policy.store.ts'
import { signingPayloadView, type SigningPayloadView } from './policy.views.ts'
import type { PolicyTenants, PolicyWriteListener } from './ports.ts'
import { authorizedSigners, membersSigning } from './signers.ts'

/** The most signers a policy can require. */
export const quorumRequiredMax = 20

export interface ComposeInput {
  /** The path's tenant. */
  readonly tenant_id: string
  readonly content: unknown
  readonly quorum_required?: number | undefined
}

export interface ComposeResult {
  policy_id: string
  version: number
  state: 'pending_signatures'
  content_hash: string
  quorum_required: number
  signing_payload: SigningPayloadView
  warnings: LintFinding[]
}

export interface PolicyComposition {
  compose(context: CommandContext, input: ComposeInput): Promise<CommandResult<ComposeResult>>
}

export function createPolicyComposition(deps: {
  commands: CommandRunner
  store: PolicyStore
  tenants: Pick<PolicyTenants, 'signingMemberUserIds'>
  ids: IdSource
  clock: Clock
  afterWrite?: PolicyWriteListener | undefined
}): PolicyComposition {
  const { commands, store, ids, clock } = deps
  return {
    /**
     * Stores a new version, pending signatures, numbered after the tenant's latest (under the tenant's
     * policy lock). Audits policy.composed. Emits nothing (the webhook allowlist has no policy event but
     * policy.evaluate). Queues what the write listener asks for (memory's policy page). Takes an Idempotency-Key.
     */
    async compose(context, input) {
      const { principal, tenantId } = commandTenant(context, input)
      const validated = validatePolicyContent(input.content)
      if (!validated.ok) throw contentInvalid('/content', validated.issues)
      const content = validated.content
      const contentHash = policyContentHash(content)
      const quorumRequired = input.quorum_required ?? 1
      return commands.run(context, { name: 'policy.compose', tenantId, input }, async (tx) => {
        const id = ids.newId('policy')
        await store.lockTenantPolicies(tx, tenantId)
        const version = (await store.latestVersion(tx, tenantId)) + 1
        await store.insertPolicy(tx, {
          id,
          tenantId,
          version,
          state: 'pending_signatures',
          content,
          contentHash,
          quorumRequired,
          signers: [],
          activatedAt: null,
          deactivatedAt: null,
          createdBy: principal.id,
          createdAt: clock.now(),
        })
        const [authorized, active] = await Promise.all([authorizedSigners(deps, tx, tenantId), store.findActivePolicy(tx, tenantId)])
        const signers = membersSigning(authorized, authorized.keys())
        const needed = activationQuorum(quorumRequired, active?.quorumRequired)
        const warnings = attentionFindings(content)
        if (needed > quorumRequired) warnings.push(activeQuorumWarning(quorumRequired, needed))
        if (signers < needed) warnings.push(quorumWarning(needed, signers))
        const jobs = (await deps.afterWrite?.(tx, { tenantId, kind: 'composed', policyId: id })) ?? []
        return {
          jobs,
          outcome: {
            policy_id: id,
            version,
            state: 'pending_signatures' as const,
            content_hash: contentHash,
            quorum_required: quorumRequired,
            signing_payload: signingPayloadView({ tenantId, policyId: id, version, contentHash, quorumRequired }),
            warnings,
          },
          audit: [
            auditedBy(context, {
              layer: 'policy',
              action: 'policy.composed',
              entity: { type: 'policy', id },
              inputs: { content_hash: contentHash, quorum_required: quorumRequired },
              outputs: { version, state: 'pending_signatures' },
            }),
          ],
        }
      })
    },
  }
}
