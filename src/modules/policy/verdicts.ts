/**
 * Policy verdicts (spec, Authentication: "Policy verdict — policy evaluation — single use — 60 seconds"):
 * the token the pre-execution gate holds between deciding and executing. A verdict binds ONE decision
 * to ONE action (the SHA-256 of the action's RFC 8785 canonical JSON) under ONE policy version. The
 * token is random (`pvt_` + 32 bytes, base64url) and stored only as its SHA-256 digest.
 *
 * The gate calls these inside its own transaction; they record no audit event of their own (the gate's
 * event names the verdict). They are steps of the gate's command, not commands: they take its `tx`, and
 * the gate's command commits (audit, events, idempotency record) through the command runner. POST
 * /evaluate never issues one: it "reserves nothing".
 */
import { assert } from '../../kernel/assert.ts'
import { newSecret, tokenDigest } from '../../kernel/secrets.ts'
import type { Tx } from '../../platform/db/database.ts'
import type { Clock } from '../../kernel/clock.ts'
import { canonicalJson, sha256Hex } from '../../kernel/hashing.ts'
import type { IdSource } from '../../kernel/ids.ts'
import { evaluatePolicy, type PolicyAction, type PolicyContent, type PolicyDecision } from './domain/index.ts'
import type { PolicyStore, VerdictRow } from './policy.store.ts'
import type { StoredContents } from './stored-content.ts'

export const verdictLifetimeSeconds = 60
/** The spend window of a policy that names none (`window_hours`), as evaluation assumes. */
const defaultWindowHours = 24
export const verdictTokenPrefix = 'pvt_'

/** A decision and the policy version it was made under. */
export interface EvaluatedDecision extends PolicyDecision {
  readonly policy_id: string
  readonly policy_version: number
  /** The version's content hash (hex), the one its signatures cover. */
  readonly policy_hash: string
}

export interface IssuedVerdict {
  readonly verdict_id: string
  /** Shown once; only its digest is stored. */
  readonly token: string
  readonly expires_at: Date
}

export type VerdictFailure = 'not_found' | 'expired' | 'consumed' | 'action_mismatch' | 'policy_stale'

export type VerdictConsumption =
  | { readonly ok: true; readonly verdict: { readonly id: string; readonly decision: PolicyDecision; readonly policyId: string; readonly policyVersion: number } }
  | { readonly ok: false; readonly reason: VerdictFailure }

export interface PolicyVerdicts {
  /** Evaluates against the active policy, read FOR SHARE so it cannot be superseded before this transaction ends; undefined when none is active. */
  evaluateActive(tx: Tx, tenantId: string, action: PolicyAction): Promise<EvaluatedDecision | undefined>
  /**
   * The same, for a caller whose action depends on the active policy (the payments module's spend window):
   * one read of the policy FOR SHARE, `build` given its `window_hours` (default 24), then the decision.
   */
  evaluateActiveWith(tx: Tx, tenantId: string, build: (windowHours: number) => Promise<PolicyAction>): Promise<{ decision: EvaluatedDecision; action: PolicyAction } | undefined>
  /** Stores a verdict binding the decision to the action; valid for 60 s, once. Writes one row; audits nothing. */
  issueVerdict(tx: Tx, tenantId: string, decision: EvaluatedDecision, action: PolicyAction): Promise<IssuedVerdict>
  /**
   * Consumes the verdict if it is this tenant's, unused, unexpired, for this very action, and its policy
   * version is still the active one (one guarded UPDATE: two concurrent consumptions cannot both win).
   * A failed attempt consumes nothing; its reason is, in order: not_found, consumed, expired,
   * action_mismatch, policy_stale.
   */
  consumeVerdict(tx: Tx, tenantId: string, token: string, action: PolicyAction): Promise<VerdictConsumption>
  /**
   * The gate's binding (check 2.5): issues a verdict for the decision and consumes it at once, as
   * `issueVerdict` then `consumeVerdict` do, with the policy's lookup, the verdict's INSERT and the
   * consuming UPDATE sent together (one round trip on PostgreSQL's pipelined connection; the connection
   * runs them in that order). The token never leaves this call.
   */
  bindVerdict(tx: Tx, tenantId: string, decision: EvaluatedDecision, action: PolicyAction): Promise<VerdictConsumption>
}

/** The action without absent fields (undefined and null mean "not populated" alike). */
function populated(action: PolicyAction): Record<string, unknown> {
  return Object.fromEntries(Object.entries(action).filter(([, value]) => value !== undefined && value !== null))
}

/** SHA-256 (hex, `sha256:` prefixed) of the action's canonical JSON, absent fields dropped. */
export function actionHash(action: PolicyAction): string {
  return `sha256:${sha256Hex(canonicalJson(populated(action)))}`
}

/** The action as the policy.evaluate webhook carries it: the populated fields. */
export function actionSummary(action: PolicyAction): Record<string, unknown> {
  return populated(action)
}

export function createPolicyVerdicts(deps: { store: PolicyStore; ids: IdSource; clock: Clock; contents: StoredContents }): PolicyVerdicts {
  const { store, ids, clock, contents } = deps

  function classify(row: VerdictRow | undefined, hash: string, at: Date, activePolicyId: string | undefined): VerdictFailure {
    if (row === undefined) return 'not_found'
    if (row.consumedAt !== null) return 'consumed'
    if (row.expiresAt.getTime() <= at.getTime()) return 'expired'
    if (row.actionHash !== hash) return 'action_mismatch'
    if (row.policyId !== activePolicyId) return 'policy_stale'
    // The guarded UPDATE refused a verdict that looks valid: it changed under us (a concurrent consumer won).
    return 'consumed'
  }

  return {
    async evaluateActive(tx, tenantId, action) {
      const policy = await store.findActivePolicy(tx, tenantId, { forShare: true })
      if (policy === undefined) return undefined
      return { ...evaluatePolicy(contents.contentOf(policy), action), policy_id: policy.id, policy_version: policy.version, policy_hash: policy.contentHash }
    },

    async evaluateActiveWith(tx, tenantId, build) {
      const policy = await store.findActivePolicy(tx, tenantId, { forShare: true })
      if (policy === undefined) return undefined
      const content = contents.contentOf(policy)
      const action = await build(content.window_hours ?? defaultWindowHours)
      return { decision: { ...evaluatePolicy(content, action), policy_id: policy.id, policy_version: policy.version, policy_hash: policy.contentHash }, action }
    },

    async issueVerdict(tx, tenantId, decision, action) {
      const issuing = issue(tx, tenantId, decision, action)
      await settled(issuing.policyChecked, issuing.written)
      return issuing.issued
    },

    async consumeVerdict(tx, tenantId, token, action) {
      return consume(tx, tenantId, token, action)
    },

    async bindVerdict(tx, tenantId, decision, action) {
      const issuing = issue(tx, tenantId, decision, action)
      // Called without awaiting the INSERT: the UPDATE is queued behind it on the same connection.
      const consuming = consume(tx, tenantId, issuing.issued.token, action)
      const [, , consumption] = await settled(issuing.policyChecked, issuing.written, consuming)
      return consumption
    },
  }

  /**
   * Waits for every step and throws the first failure in the order given, not in the order they failed:
   * a policy that is not the tenant's is that assertion, not the INSERT's foreign-key error behind it.
   */
  async function settled<T extends readonly unknown[]>(...steps: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
    const outcomes = await Promise.allSettled(steps)
    for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason
    return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T
  }

  /**
   * Sends a verdict's INSERT at once (the store's statement reaches the driver when called), with the
   * lookup asserting that the decision's policy version is this tenant's.
   */
  function issue(tx: Tx, tenantId: string, decision: EvaluatedDecision, action: PolicyAction) {
    const now = clock.now()
    const token = newSecret(verdictTokenPrefix)
    const expiresAt = new Date(now.getTime() + verdictLifetimeSeconds * 1000)
    const id = ids.newId('policyVerdict')
    const { policy_id: _policyId, policy_version: _policyVersion, policy_hash: _policyHash, ...plain } = decision
    const policyChecked = store.findPolicy(tx, tenantId, decision.policy_id).then((policy) => {
      // The gate passes a decision it evaluated in this tenant under that version: anything else is a bug.
      assert(
        policy !== undefined && policy.version === decision.policy_version,
        `issueVerdict: policy ${decision.policy_id} version ${decision.policy_version} is not this tenant's`,
      )
    })
    const written = store.insertVerdict(tx, {
      id,
      tenantId,
      tokenDigest: tokenDigest(token),
      decision: plain,
      actionHash: actionHash(action),
      policyId: decision.policy_id,
      policyVersion: decision.policy_version,
      expiresAt,
      consumedAt: null,
      createdAt: now,
    })
    // Observed by the caller (settled); never an unhandled rejection before it is.
    policyChecked.catch(() => {})
    written.catch(() => {})
    return { issued: { verdict_id: id, token, expires_at: expiresAt } satisfies IssuedVerdict, written, policyChecked }
  }

  async function consume(tx: Tx, tenantId: string, token: string, action: PolicyAction): Promise<VerdictConsumption> {
    const now = clock.now()
    const digest = tokenDigest(token)
    const hash = actionHash(action)
    const consumed = await store.consumeVerdict(tx, tenantId, digest, hash, now)
    if (consumed !== undefined) {
      return {
        ok: true,
        verdict: { id: consumed.id, decision: consumed.decision as PolicyDecision, policyId: consumed.policyId, policyVersion: consumed.policyVersion },
      }
    }
    const row = await store.findVerdict(tx, tenantId, digest)
    const active = row === undefined ? undefined : await store.findActivePolicy(tx, tenantId)
    return { ok: false, reason: classify(row, hash, now, active?.id) }
  }
}
