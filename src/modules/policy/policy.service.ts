/**
 * The Policy slice's use cases (spec, "Policy"): read the active policy, compose a version, sign it to
 * quorum, list versions, evaluate an action, lint, simulate one action or a period of history, and diff
 * two versions. The language itself (schema, evaluation, lint, diff, hashing, EIP-712) is the pure
 * domain in `domain/`; this file adds storage, transactions, audit and events around it.
 *
 * Version numbers and activation are serialized per tenant by a transaction-scoped advisory lock, and
 * the database keeps at most one active version per tenant (a partial unique index).
 */
import { digestOf } from '../../kernel/audit-record.ts'
import { auditedBy, requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import type { CoreDeps } from '../../platform/deps.ts'
import type { CursorCodec, PageSizeBounds } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import {
  diffPolicies,
  evaluatePolicy,
  lintPolicy,
  policyContentHash,
  policySigningPayload,
  recoverPolicySigner,
  validatePolicyContent,
  type DecisionOutcome,
  type LintFinding,
  type Money,
  type PolicyAction,
  type PolicyContent,
  type PolicyDecision,
  type PolicySigningInput,
  type Rule,
} from './domain/index.ts'
import type { OutflowPosition, PolicyRow, PolicyStore } from './policy.store.ts'
import type { StoredContents } from './stored-content.ts'
import { actionHash, actionSummary } from './verdicts.ts'
import type { CommandResult } from '../../platform/commands/command.ts'
import type { LedgerOutflows, PolicyTenants } from './ports.ts'
import { authorizedSigners } from './signers.ts'

/** The most signers a policy can require, and the most signatures one sign call may carry. */
export const quorumRequiredMax = 20
export const signaturesPerRequestMax = 20
export const versionPageRows = { defaultRows: 100, maxRows: 500 } as const satisfies PageSizeBounds
/** simulate-historical: the longest period, the most actions replayed, rows read per query, items per diff list. */
export const historicalPeriodDaysMax = 366
export const historicalScanRowsMax = 10_000
export const historicalPageRows = 500
export const historicalDiffItemsMax = 1_000

export interface PolicyView {
  id: string
  version: number
  state: PolicyRow['state']
  content: Record<string, unknown>
  content_hash: string
  signers: string[]
  quorum_required: number
  activated_at: string | null
  deactivated_at: string | null
  created_by: string
  created_at: string
}

export type VersionView = Omit<PolicyView, 'content'>

export interface SigningPayloadView {
  domain: Record<string, unknown>
  types: Record<string, Array<{ name: string; type: string }>>
  primaryType: 'Policy'
  message: Record<string, unknown>
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

export interface SignResult {
  policy: PolicyView
  activated: boolean
  warnings: LintFinding[]
}

export interface EvaluateResult extends PolicyDecisionView {
  policy_id: string
  policy_version: number
  audit_event_id: string
}

export interface PolicyDecisionView {
  outcome: DecisionOutcome
  matched_rule_id: string | null
  required_approvers: string[]
  /** Additive: whether the matched rule's signed autonomous cap covers the action (the gate's floor holds the rest). */
  covered_by_autonomous_cap: boolean
  trace: Array<{ rule_id: string; matched: boolean; checks: Array<{ key: string; passed: boolean; detail: string }> }>
}

export interface HistoricalDiffItem {
  transaction_id: string
  transaction_date: string
  amount: Money
  counterparty_id: string | null
  before: DecisionOutcome
  after: DecisionOutcome
  matched_rule_before: string | null
  matched_rule_after: string | null
}

export interface SimulateHistoricalResult {
  total: number
  would_allow: number
  would_confirm: number
  would_reject: number
  diff_vs_active: {
    newly_allowed: HistoricalDiffItem[]
    newly_rejected: HistoricalDiffItem[]
    changed_other: HistoricalDiffItem[]
    unchanged: number
    items_truncated: boolean
  }
  source: 'ledger_outflows'
  active_policy_version: number
  period_start: string
  period_end: string
  truncated: boolean
}

export interface DiffResult {
  from_version: number
  to_version: number
  added: Array<Record<string, unknown>>
  removed: Array<Record<string, unknown>>
  modified: Array<{ rule_id: string; field: string; before: unknown; after: unknown }>
}

export interface PolicyService {
  active(tenantId: string): Promise<PolicyView>
  compose(context: CommandContext, input: { content: unknown; quorum_required?: number | undefined }): Promise<CommandResult<ComposeResult>>
  sign(context: CommandContext, input: { policy_id: string; signatures: ReadonlyArray<{ address: string; signature: string }> }): Promise<SignResult>
  versions(tenantId: string, query: { limit?: number | undefined; cursor?: string | undefined }): Promise<{ versions: VersionView[]; next_cursor: string | null }>
  evaluate(context: CommandContext, action: PolicyAction): Promise<EvaluateResult>
  lint(tenantId: string, content: unknown): { tenant_id: string; errors: number; warnings: number; findings: LintFinding[] }
  simulate(tenantId: string, input: { action: PolicyAction; version: number }): Promise<{ decision: PolicyDecisionView; policy_version: number }>
  simulateHistorical(tenantId: string, input: { policy_content: unknown; period_start: string; period_end: string }): Promise<SimulateHistoricalResult>
  diff(tenantId: string, input: { from_version: number; to_version: number }): Promise<DiffResult>
}

export interface PolicyServiceDeps extends CoreDeps {
  readonly store: PolicyStore
  readonly tenants: PolicyTenants
  readonly ledger: LedgerOutflows
  readonly cursors: CursorCodec
  /** Stored versions' content, kept ready to evaluate (shared with the verdicts of the same module instance). */
  readonly contents: StoredContents
}

export function toPolicyView(row: PolicyRow): PolicyView {
  return { ...toVersionView(row), content: row.content as Record<string, unknown> }
}

function toVersionView(row: PolicyRow): VersionView {
  return {
    id: row.id,
    version: row.version,
    state: row.state,
    content_hash: row.contentHash,
    signers: row.signers,
    quorum_required: row.quorumRequired,
    activated_at: row.activatedAt?.toISOString() ?? null,
    deactivated_at: row.deactivatedAt?.toISOString() ?? null,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  }
}

export function toDecisionView(decision: PolicyDecision): PolicyDecisionView {
  return {
    outcome: decision.outcome,
    matched_rule_id: decision.matched_rule_id,
    required_approvers: [...decision.required_approvers],
    covered_by_autonomous_cap: decision.covered_by_autonomous_cap,
    trace: decision.trace.map((entry) => ({
      rule_id: entry.rule_id,
      matched: entry.matched,
      checks: entry.checks.map((check) => ({ key: check.key, passed: check.passed, detail: check.detail })),
    })),
  }
}


export function signingInputOf(row: PolicyRow): PolicySigningInput {
  return { tenantId: row.tenantId, policyId: row.id, version: row.version, contentHash: row.contentHash as `0x${string}`, quorumRequired: row.quorumRequired }
}

/** The typed data as JSON: uint256 values may come as bigint, which JSON cannot carry. */
export function signingPayloadView(input: PolicySigningInput): SigningPayloadView {
  return JSON.parse(JSON.stringify(policySigningPayload(input), (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value))) as SigningPayloadView
}

/** Findings worth a signer's attention before or after signing: errors and warnings, not infos. */
const attentionFindings = (content: unknown) => lintPolicy(content).filter((finding) => finding.severity !== 'info')

const quorumWarning = (quorum: number, signers: number): LintFinding => ({
  code: 'quorum_exceeds_signers',
  severity: 'warning',
  rule_id: null,
  message: `quorum_required is ${quorum} but the tenant has ${signers} authorized signer${signers === 1 ? '' : 's'} (human wallets of active members); link more before it can activate.`,
})

/** `-25.50` → `25.5`: the magnitude with no redundant zeros, valid for any currency exponent it fits. */
export function magnitude(amount: string): string {
  const unsigned = amount.trim().replace(/^[-+]/, '')
  if (!unsigned.includes('.')) return unsigned.replace(/^0+(?=\d)/, '')
  const [whole = '0', fraction = ''] = unsigned.split('.')
  const trimmed = fraction.replace(/0+$/, '')
  const integer = whole.replace(/^0+(?=\d)/, '') || '0'
  return trimmed === '' ? integer : `${integer}.${trimmed}`
}

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})/

/** The calendar date a date or timestamp names, as written; undefined when it is not a real date. */
function calendarDay(value: string): string | undefined {
  const match = dayPattern.exec(value)
  if (match === null) return undefined
  const day = `${match[1]}-${match[2]}-${match[3]}`
  const date = new Date(`${day}T00:00:00Z`)
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day ? undefined : day
}

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)

/** Validation issues of policy content, as the envelope's details.issues (paths under the body field; keyword = the issue code). */
function contentInvalid(prefix: string, issues: ReadonlyArray<{ path: string; message: string; code?: string }>): AppError {
  return new AppError('request_body_invalid', 'The policy content is invalid.', {
    issues: issues.map((issue) => ({
      path: issue.path === '' || issue.path === '/' ? prefix : `${prefix}${issue.path.startsWith('/') ? '' : '/'}${issue.path}`,
      message: issue.message,
      keyword: issue.code ?? 'policy',
    })),
  })
}

export function createPolicyService(deps: PolicyServiceDeps): PolicyService {
  const { db, store, audit, events, ids, clock, cursors, commands, contents } = deps
  const storedContent = (row: PolicyRow) => contents.contentOf(row)

  async function versionOrFail(tenantId: string, version: number): Promise<PolicyRow> {
    const row = await store.findPolicyByVersion(db.orm, tenantId, version)
    if (row === undefined) throw new AppError('policy_not_found', `The tenant has no policy version ${version}.`, { version })
    return row
  }

  const notAwaitingSignatures = (row: PolicyRow) =>
    new AppError('policy_quorum_not_met', `Policy ${row.id} is ${row.state}, not awaiting signatures.`, { policy_id: row.id, state: row.state })

  /** Records the refusal of a sign call (its own transaction: the refused call records nothing else), then throws. */
  async function refuseSignature(context: CommandContext, policy: PolicyRow, index: number, address: string, reason: string): Promise<never> {
    await db.transaction(async (tx) => {
      await audit.record(
        tx,
        auditedBy(context, {
          layer: 'policy',
          action: 'policy.signature_refused',
          entity: { type: 'policy', id: policy.id },
          inputs: { address, signature_index: index },
          outputs: { reason },
        }),
      )
    })
    throw new AppError('policy_signature_invalid', `Signature ${index} (${address}) was refused: ${reason.replaceAll('_', ' ')}. Nothing was recorded.`, {
      index,
      address,
      reason,
    })
  }

  return {
    async active(tenantId) {
      const row = await store.findActivePolicy(db.orm, tenantId)
      if (row === undefined) throw new AppError('policy_not_found', 'The tenant has no active policy.')
      return toPolicyView(row)
    },

    /**
     * Stores a new version, pending signatures, numbered after the tenant's latest (under the tenant's
     * policy lock). Audits policy.composed. Emits nothing (the webhook allowlist has no policy event but
     * policy.evaluate).
     */
    async compose(context, input) {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
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
        const signers = (await authorizedSigners(deps, tx, tenantId)).size
        const warnings = attentionFindings(content)
        if (signers < quorumRequired) warnings.push(quorumWarning(quorumRequired, signers))
        return {
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

    /**
     * Verifies every signature (EIP-712, recovered with viem) before anything is written: each must
     * recover to its stated address, name it once, come from an authorized signer (a human wallet of an
     * active member) and not be recorded already — otherwise 401 and nothing is recorded (the refusal is
     * audited as policy.signature_refused). Under the tenant's policy lock, records the signatures and,
     * at quorum, supersedes the active version (deactivated_at) and older pending ones, and activates
     * this one. Audits policy.signed, and policy.activated at quorum.
     */
    async sign(context, input) {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      const found = await store.findPolicy(db.orm, tenantId, input.policy_id)
      if (found === undefined) throw new AppError('policy_not_found')
      if (found.state !== 'pending_signatures') throw notAwaitingSignatures(found)

      // Crypto before the transaction: recovery is CPU work and needs only the immutable signed fields.
      const signingInput = signingInputOf(found)
      const addresses: string[] = []
      for (const [index, signature] of input.signatures.entries()) {
        const address = signature.address.toLowerCase()
        if (addresses.includes(address)) await refuseSignature(context, found, index, address, 'duplicate_in_request')
        const recovered = await recoverPolicySigner(signingInput, signature.signature)
        if (recovered === undefined) await refuseSignature(context, found, index, address, 'malformed_signature')
        if (recovered !== address) await refuseSignature(context, found, index, address, 'signer_mismatch')
        addresses.push(address)
      }

      const now = clock.now()
      type Refusal = { index: number; address: string; reason: string }
      type Signed = { row: PolicyRow; activated: boolean }
      const outcome = await db.transaction(async (tx): Promise<{ refusal: Refusal } | Signed> => {
        await store.lockTenantPolicies(tx, tenantId)
        const current = await store.findPolicy(tx, tenantId, found.id)
        if (current === undefined) throw new AppError('policy_not_found')
        if (current.state !== 'pending_signatures') throw notAwaitingSignatures(current)
        const authorized = await authorizedSigners(deps, tx, tenantId, addresses)
        for (const [index, address] of addresses.entries()) {
          if (!authorized.has(address)) return { refusal: { index, address, reason: 'not_authorized' } }
          if (current.signers.includes(address)) return { refusal: { index, address, reason: 'already_signed' } }
        }

        await store.insertSignatures(
          tx,
          input.signatures.map((signature, index) => ({
            policyId: current.id,
            tenantId,
            address: addresses[index]!,
            signature: signature.signature,
            submittedBy: principal.id,
            signedAt: now,
          })),
        )
        const signers = [...current.signers, ...addresses]
        const activated = signers.length >= current.quorumRequired
        const signed = await audit.record(
          tx,
          auditedBy(context, {
            layer: 'policy',
            action: 'policy.signed',
            entity: { type: 'policy', id: current.id },
            inputs: { signer_addresses: addresses, signatures: digestOf(input.signatures.map((signature) => signature.signature)) },
            outputs: { signers: signers.length, quorum_required: current.quorumRequired, activated },
          }),
        )
        if (!activated) {
          await store.updatePolicy(tx, tenantId, current.id, { signers })
          return { row: { ...current, signers }, activated }
        }
        // Order matters for the one-active index: the previous version leaves `active` first.
        const previous = await store.supersedeActive(tx, tenantId, now)
        const supersededPending = await store.supersedePendingBefore(tx, tenantId, current.version)
        await store.updatePolicy(tx, tenantId, current.id, { signers, state: 'active', activatedAt: now })
        await audit.record(
          tx,
          auditedBy(context, {
            layer: 'policy',
            action: 'policy.activated',
            entity: { type: 'policy', id: current.id },
            inputs: { signed_event_id: signed.id },
            outputs: {
              version: current.version,
              content_hash: current.contentHash,
              signers,
              previous_policy_id: previous?.id ?? null,
              previous_version: previous?.version ?? null,
              superseded_pending: supersededPending,
            },
          }),
        )
        return { row: { ...current, signers, state: 'active', activatedAt: now }, activated }
      })
      if ('refusal' in outcome) {
        const { refusal } = outcome
        return refuseSignature(context, found, refusal.index, refusal.address, refusal.reason)
      }
      const warnings = attentionFindings(outcome.row.content)
      if (!outcome.activated) {
        const signers = (await authorizedSigners(deps, db.orm, tenantId)).size
        if (signers < outcome.row.quorumRequired) warnings.push(quorumWarning(outcome.row.quorumRequired, signers))
      }
      return { policy: toPolicyView(outcome.row), activated: outcome.activated, warnings }
    },

    async versions(tenantId, query) {
      const limit = query.limit ?? versionPageRows.defaultRows
      const listing = `policy_versions:${tenantId}`
      const beforeVersion = query.cursor === undefined ? undefined : Number(cursors.decode(listing, query.cursor).before_version)
      if (beforeVersion !== undefined && !Number.isInteger(beforeVersion)) throw new AppError('invalid_cursor')
      const rows = await store.listPolicies(db.orm, tenantId, { beforeVersion, limit: limit + 1 })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        versions: page.map(toVersionView),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { before_version: last.version }) : null,
      }
    },

    /**
     * Evaluates the action against the active policy. Reserves nothing and issues no verdict. Audits
     * policy.evaluate (inputs: the action's hash and kind, never the action) and emits the policy.evaluate
     * webhook event, in one transaction.
     */
    async evaluate(context, action) {
      const tenantId = requirePrincipal(context).tenantId
      return db.transaction(async (tx) => {
        const policy = await store.findActivePolicy(tx, tenantId)
        if (policy === undefined) throw new AppError('policy_not_found', 'The tenant has no active policy.')
        const decision = evaluatePolicy(storedContent(policy), action)
        const hash = actionHash(action)
        const recorded = await audit.record(
          tx,
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
        )
        await events.record(tx, {
          tenantId,
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
          auditEventId: recorded.id,
        })
        return { ...toDecisionView(decision), policy_id: policy.id, policy_version: policy.version, audit_event_id: recorded.id }
      })
    },

    lint(tenantId, content) {
      const findings = lintPolicy(content)
      return {
        tenant_id: tenantId,
        errors: findings.filter((finding) => finding.severity === 'error').length,
        warnings: findings.filter((finding) => finding.severity === 'warning').length,
        findings: findings.map((finding) => ({ ...finding })),
      }
    },

    async simulate(tenantId, input) {
      const row = await versionOrFail(tenantId, input.version)
      return { decision: toDecisionView(evaluatePolicy(storedContent(row), input.action)), policy_version: row.version }
    },

    /**
     * Replays the tenant's recorded outflows of the period (current Ledger transactions with direction
     * outflow, oldest first, at most `historicalScanRowsMax`) as `outbound_payment` actions through the
     * candidate and the active policy, in one read-only snapshot. Payment intents, once they exist, are
     * the first source. Writes nothing.
     */
    async simulateHistorical(tenantId, input) {
      const periodStart = calendarDay(input.period_start)
      const periodEnd = calendarDay(input.period_end)
      const issues: Array<{ path: string; message: string; keyword: string }> = []
      if (periodStart === undefined) issues.push({ path: '/period_start', message: 'is not a calendar date', keyword: 'format' })
      if (periodEnd === undefined) issues.push({ path: '/period_end', message: 'is not a calendar date', keyword: 'format' })
      if (periodStart !== undefined && periodEnd !== undefined) {
        if (periodEnd < periodStart) issues.push({ path: '/period_end', message: 'is before period_start', keyword: 'period' })
        else if (daysBetween(periodStart, periodEnd) > historicalPeriodDaysMax) {
          issues.push({ path: '/period_end', message: `is more than ${historicalPeriodDaysMax} days after period_start`, keyword: 'period' })
        }
      }
      if (issues.length > 0 || periodStart === undefined || periodEnd === undefined) {
        throw new AppError('request_body_invalid', 'The period is invalid.', { issues })
      }
      const validated = validatePolicyContent(input.policy_content)
      if (!validated.ok) throw contentInvalid('/policy_content', validated.issues)
      const candidate = validated.content

      return db.transaction(
        async (tx) => {
          const active = await store.findActivePolicy(tx, tenantId)
          if (active === undefined) throw new AppError('policy_not_found', 'The tenant has no active policy to compare with.')
          const activeContent = storedContent(active)
          const result: SimulateHistoricalResult = {
            total: 0,
            would_allow: 0,
            would_confirm: 0,
            would_reject: 0,
            diff_vs_active: { newly_allowed: [], newly_rejected: [], changed_other: [], unchanged: 0, items_truncated: false },
            source: 'ledger_outflows',
            active_policy_version: active.version,
            period_start: periodStart,
            period_end: periodEnd,
            truncated: false,
          }
          const counts: Record<DecisionOutcome, 'would_allow' | 'would_confirm' | 'would_reject'> = { allow: 'would_allow', confirm: 'would_confirm', reject: 'would_reject' }
          const diff = result.diff_vs_active
          const list = (item: HistoricalDiffItem, into: HistoricalDiffItem[]) => {
            if (into.length < historicalDiffItemsMax) into.push(item)
            else diff.items_truncated = true
          }

          let after: OutflowPosition | undefined
          for (;;) {
            const remaining = historicalScanRowsMax - result.total
            // One row beyond the limit tells whether the period holds more than we replay.
            const rows = await deps.ledger.outflowsInPeriod(tx, tenantId, { from: periodStart, to: periodEnd, after, limit: Math.min(historicalPageRows, remaining + 1) })
            const replayed = rows.slice(0, remaining)
            if (rows.length > remaining) result.truncated = true
            for (const row of replayed) {
              const amount = { currency: row.currency, value: magnitude(row.amount) }
              const action: PolicyAction = { kind: 'outbound_payment', amount, counterparty_id: row.counterpartyId, timestamp: `${row.transactionDate}T00:00:00.000Z` }
              const before = evaluatePolicy(activeContent, action)
              const candidateDecision = evaluatePolicy(candidate, action)
              result.total += 1
              result[counts[candidateDecision.outcome]] += 1
              if (before.outcome === candidateDecision.outcome) {
                diff.unchanged += 1
                continue
              }
              const item: HistoricalDiffItem = {
                transaction_id: row.id,
                transaction_date: row.transactionDate,
                amount,
                counterparty_id: row.counterpartyId,
                before: before.outcome,
                after: candidateDecision.outcome,
                matched_rule_before: before.matched_rule_id,
                matched_rule_after: candidateDecision.matched_rule_id,
              }
              if (candidateDecision.outcome === 'allow') list(item, diff.newly_allowed)
              else if (candidateDecision.outcome === 'reject') list(item, diff.newly_rejected)
              else list(item, diff.changed_other)
            }
            const last = replayed.at(-1)
            if (result.truncated || rows.length < Math.min(historicalPageRows, remaining + 1) || last === undefined) break
            after = { transactionDate: last.transactionDate, id: last.id }
          }
          return result
        },
        // One snapshot for every page, so a Ledger write during the scan cannot show a row twice or hide one.
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      )
    },

    async diff(tenantId, input) {
      const from = await versionOrFail(tenantId, input.from_version)
      const to = await versionOrFail(tenantId, input.to_version)
      const changes = diffPolicies(storedContent(from), storedContent(to))
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
