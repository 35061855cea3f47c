/**
 * What-if questions about policy content: lint any content, simulate one action against a stored
 * version, diff two stored versions. Pure computations over stored rows: they write nothing, audit
 * nothing, and take no Idempotency-Key (a repeat simply computes again).
 */
import { AppError } from '../../kernel/errors.ts'
import type { Database } from '../../platform/db/database.ts'
import { diffPolicies, evaluatePolicy, lintPolicy, type LintFinding, type PolicyAction, type Rule } from './domain/index.ts'
import type { PolicyRow, PolicyStore } from './policy.store.ts'
import { toDecisionView, type PolicyDecisionView } from './policy.views.ts'
import { assertActionAmounts } from './evaluate.service.ts'
import type { StoredContents } from './stored-content.ts'

export interface DiffResult {
  from_version: number
  to_version: number
  added: Array<Record<string, unknown>>
  removed: Array<Record<string, unknown>>
  modified: Array<{ rule_id: string; field: string; before: unknown; after: unknown }>
}

export interface PolicyAnalysis {
  lint(tenantId: string, content: unknown): { tenant_id: string; errors: number; warnings: number; findings: LintFinding[] }
  simulate(tenantId: string, input: { action: PolicyAction; version: number }): Promise<{ decision: PolicyDecisionView; policy_version: number }>
  diff(tenantId: string, input: { from_version: number; to_version: number }): Promise<DiffResult>
}

export function createPolicyAnalysis(deps: { db: Database; store: PolicyStore; contents: StoredContents }): PolicyAnalysis {
  const { db, store, contents } = deps

  async function versionOrFail(tenantId: string, version: number): Promise<PolicyRow> {
    const row = await store.findPolicyByVersion(db.orm, tenantId, version)
    if (row === undefined) throw new AppError('policy_not_found', `The tenant has no policy version ${version}.`, { version })
    return row
  }

  return {
    /** Lints the content, never refusing it: schema violations are error findings. */
    lint(tenantId, content) {
      const findings = lintPolicy(content)
      return {
        tenant_id: tenantId,
        errors: findings.filter((finding) => finding.severity === 'error').length,
        warnings: findings.filter((finding) => finding.severity === 'warning').length,
        findings: findings.map((finding) => ({ ...finding })),
      }
    },

    /** Evaluates the action against any stored version, pending ones too; 404 policy_not_found for an unknown one. */
    async simulate(tenantId, input) {
      assertActionAmounts(input.action)
      const row = await versionOrFail(tenantId, input.version)
      return { decision: toDecisionView(evaluatePolicy(contents.contentOf(row), input.action)), policy_version: row.version }
    },

    /** Rule-level changes between two stored versions; 404 policy_not_found for an unknown one. */
    async diff(tenantId, input) {
      const from = await versionOrFail(tenantId, input.from_version)
      const to = await versionOrFail(tenantId, input.to_version)
      const changes = diffPolicies(contents.contentOf(from), contents.contentOf(to))
      const rule = (value: Rule) => ({ ...value }) as unknown as Record<string, unknown>
      return {
        from_version: from.version,
        to_version: to.version,
        added: changes.added.map(rule),
        removed: changes.removed.map(rule),
        modified: changes.modified.map((change) => ({ rule_id: change.rule_id, field: change.field, before: change.before ?? null, after: change.after ?? null })),
      }
    },
  }
}
