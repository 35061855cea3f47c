/**
 * Evaluating an action against the tenant's active policy (POST /evaluate): the decision, audited and
 * emitted. It reserves nothing and issues no verdict (verdicts are the gate's: verdicts.ts).
 */
import { assert } from '../../kernel/assert.ts'
import { digestOf } from '../../kernel/audit-record.ts'
import { auditedBy, type CommandContext } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import { commandTenant } from './command-tenant.ts'
import { actionAmountProblems, evaluatePolicy, type PolicyAction } from './domain/index.ts'
import type { PolicyStore } from './policy.store.ts'
import { toDecisionView, type PolicyDecisionView } from './policy.views.ts'
import type { StoredContents } from './stored-content.ts'
import { actionHash, actionSummary } from './verdicts.ts'

export interface EvaluateInput {
  /** The path's tenant. */
  readonly tenant_id: string
  readonly action: PolicyAction
}

export interface EvaluateResult extends PolicyDecisionView {
  policy_id: string
  policy_version: number
  audit_event_id: string
}

export interface PolicyEvaluation {
  evaluate(context: CommandContext, input: EvaluateInput): Promise<CommandResult<EvaluateResult>>
}

/** 400 validation_failed for an action amount more precise than its currency (domain/amounts.ts), before anything is evaluated or recorded. */
export function assertActionAmounts(action: Parameters<typeof actionAmountProblems>[0]): void {
  const issues = actionAmountProblems(action)
  if (issues.length > 0) throw new AppError('validation_failed', issues.map((issue) => issue.message).join(' '), { issues })
}

export function createPolicyEvaluation(deps: { commands: CommandRunner; store: PolicyStore; contents: StoredContents }): PolicyEvaluation {
  const { commands, store, contents } = deps
  return {
    /**
     * Evaluates the action against the active policy. Locks nothing, reserves nothing and issues no
     * verdict. Audits policy.evaluate (inputs: the action's hash and kind, never the action) and emits the
     * policy.evaluate webhook event, in one transaction. Takes an Idempotency-Key: a retry with the same
     * key and action gets the first decision (and its audit event id) and records nothing more.
     */
    async evaluate(context, input) {
      const { tenantId } = commandTenant(context, input)
      const { action } = input
      assertActionAmounts(action)
      return commands.run(context, { name: 'policy.evaluate', tenantId, input }, async (tx) => {
        const policy = await store.findActivePolicy(tx, tenantId)
        if (policy === undefined) throw new AppError('policy_not_found', 'The tenant has no active policy.')
        const decision = evaluatePolicy(contents.contentOf(policy), action)
        const hash = actionHash(action)
        // The answer names its audit event: the outcome is made once the event has its id, and the event
        // (and the webhook event citing it) goes out with the commit.
        return {
          audit: [
            auditedBy(context, {
              layer: 'policy',
              action: 'policy.evaluate',
              entity: { type: 'policy', id: policy.id },
              inputs: { action_hash: hash, kind: action.kind },
              outputs: {
                policy_version: policy.version,
                outcome: decision.outcome,
                matched_rule_id: decision.matched_rule_id,
                covered_by_autonomous_cap: decision.covered_by_autonomous_cap,
                required_approvers: [...decision.required_approvers],
                decision_hash: digestOf(decision),
              },
            }),
          ],
          events: [
            {
              type: 'policy.evaluate',
              payload: {
                policy_id: policy.id,
                policy_version: policy.version,
                action: actionSummary(action),
                action_hash: hash,
                outcome: decision.outcome,
                matched_rule_id: decision.matched_rule_id,
                covered_by_autonomous_cap: decision.covered_by_autonomous_cap,
                required_approvers: [...decision.required_approvers],
              },
            },
          ],
          outcomeOf: ([auditEventId]) => {
            assert(auditEventId !== undefined, 'committing one audit event returns its id')
            return { ...toDecisionView(decision), policy_id: policy.id, policy_version: policy.version, audit_event_id: auditEventId }
          },
        }
      })
    },
  }
}
