/**
 * Signing a pending policy version to quorum (spec, "Policy"): every signature is verified (EIP-712,
 * recovered with viem) and must come from an authorized signer (a human wallet of an active member); at
 * quorum the version activates and supersedes the active one and older pending ones.
 */
import { assert } from '../../kernel/assert.ts'
import { digestOf } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { auditedBy, type CommandContext } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { CommandResult, CommandRunner, CommandWork } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { commandTenant } from './command-tenant.ts'
import { recoverPolicySigner, type LintFinding } from './domain/index.ts'
import { activationQuorum, activeQuorumWarning, attentionFindings, quorumWarning } from './domain/signing-warnings.ts'
import type { PolicyRow, PolicyStore } from './policy.store.ts'
import { signingInputOf, toPolicyView, type PolicyView } from './policy.views.ts'
import type { PolicyTenants, PolicyWriteListener } from './ports.ts'
import { authorizedSigners, membersSigning } from './signers.ts'

/** The most signatures one sign call may carry. */
export const signaturesPerRequestMax = 20

export interface SignInput {
  /** The path's tenant. */
  readonly tenant_id: string
  readonly policy_id: string
  readonly signatures: ReadonlyArray<{ readonly address: string; readonly signature: string }>
}

export interface SignResult {
  policy: PolicyView
  activated: boolean
  warnings: LintFinding[]
}

export interface PolicySigning {
  sign(context: CommandContext, input: SignInput): Promise<CommandResult<SignResult>>
}

interface Refusal {
  readonly index: number
  readonly address: string
  readonly reason: string
}

/**
 * A signature refused inside the command's transaction: thrown to roll the transaction back (the
 * Idempotency-Key's claim with it: a refused call stores no outcome), then recorded on its own.
 */
class SignatureRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(`signature ${refusal.index} refused: ${refusal.reason}`)
  }
}

const notAwaitingSignatures = (row: PolicyRow) =>
  new AppError('policy_quorum_not_met', `Policy ${row.id} is ${row.state}, not awaiting signatures.`, { policy_id: row.id, state: row.state })

export function createPolicySigning(deps: {
  db: Database
  commands: CommandRunner
  store: PolicyStore
  tenants: Pick<PolicyTenants, 'signingMemberUserIds'>
  clock: Clock
  afterWrite?: PolicyWriteListener | undefined
}): PolicySigning {
  const { db, commands, store, clock } = deps

  /** Records the refusal of a sign call (its own transaction: the refused call records nothing else), then throws. */
  async function refuseSignature(context: CommandContext, tenantId: string, policyId: string, refusal: Refusal): Promise<never> {
    const { index, address, reason } = refusal
    await db.transaction(async (tx) => {
      await commands.commit(tx, tenantId, {
        audit: [
          auditedBy(context, {
            layer: 'policy',
            action: 'policy.signature_refused',
            entity: { type: 'policy', id: policyId },
            inputs: { address, signature_index: index },
            outputs: { reason },
          }),
        ],
      })
    })
    throw new AppError('policy_signature_invalid', `Signature ${index} (${address}) was refused: ${reason.replaceAll('_', ' ')}. Nothing was recorded.`, {
      index,
      address,
      reason,
    })
  }

  /**
   * Each signature must recover to its stated address and name it once; returns the lower-cased
   * addresses, or records the first refusal and throws.
   */
  async function verifiedAddresses(context: CommandContext, policy: PolicyRow, signatures: SignInput['signatures']): Promise<string[]> {
    const signingInput = signingInputOf(policy)
    const addresses: string[] = []
    for (const [index, signature] of signatures.entries()) {
      const address = signature.address.toLowerCase()
      if (addresses.includes(address)) await refuseSignature(context, policy.tenantId, policy.id, { index, address, reason: 'duplicate_in_request' })
      const recovered = await recoverPolicySigner(signingInput, signature.signature)
      if (recovered === undefined) await refuseSignature(context, policy.tenantId, policy.id, { index, address, reason: 'malformed_signature' })
      if (recovered !== address) await refuseSignature(context, policy.tenantId, policy.id, { index, address, reason: 'signer_mismatch' })
      addresses.push(address)
    }
    return addresses
  }

  return {
    /**
     * Verifies every signature before anything is written: each must recover to its stated address,
     * name it once, come from an authorized signer and not be recorded already — otherwise 401 and
     * nothing is recorded (the refusal is audited as policy.signature_refused, in its own transaction).
     * Under the tenant's policy lock, records the signatures and, at quorum, supersedes the active
     * version (deactivated_at) and older pending ones, and activates this one. Audits policy.signed, and
     * policy.activated at quorum; emits nothing. Takes an Idempotency-Key: a retry of a call that
     * committed gets its outcome, even once the version it activated is no longer awaiting signatures.
     */
    async sign(context, input) {
      const { principal, tenantId } = commandTenant(context, input)
      // Crypto before the transaction: recovery is CPU work and needs only the version's immutable signed
      // fields. Only for a version awaiting signatures: any other is refused in the transaction without a
      // signature being checked (409), after a keyed retry has had its replay.
      const found = await store.findPolicy(db.orm, tenantId, input.policy_id)
      const addresses = found?.state === 'pending_signatures' ? await verifiedAddresses(context, found, input.signatures) : undefined
      try {
        return await commands.run(context, { name: 'policy.sign', tenantId, input }, async (tx): Promise<CommandWork<SignResult>> => {
          const now = clock.now()
          await store.lockTenantPolicies(tx, tenantId)
          const current = await store.findPolicy(tx, tenantId, input.policy_id)
          if (current === undefined) throw new AppError('policy_not_found')
          if (current.state !== 'pending_signatures') throw notAwaitingSignatures(current)
          // A version leaves pending_signatures and never returns, so it was pending when we looked.
          assert(addresses !== undefined, `policy ${current.id} is pending now, so its signatures were verified before the transaction`)
          // Every authorized signer of the tenant, read once: the new signatures' signers, the earlier ones still
          // counting and, below the quorum, how many could sign at all are all answered from it.
          const authorized = await authorizedSigners(deps, tx, tenantId)
          for (const [index, address] of addresses.entries()) {
            if (!authorized.has(address)) throw new SignatureRefused({ index, address, reason: 'not_authorized' })
            if (current.signers.includes(address)) throw new SignatureRefused({ index, address, reason: 'already_signed' })
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
          // Earlier signatures count only while their signers are still authorized (a member deactivated or
          // a wallet unlinked since does not count), as the gate counts them again on every execute (check
          // 3.5): a version that activated on a stale count would leave every payment failing that check.
          // And they count per member: a second wallet of one member adds nothing.
          const counted = membersSigning(authorized, signers)
          // Never fewer than the active version's quorum: a version cannot lower the bar it replaces alone.
          const needed = activationQuorum(current.quorumRequired, (await store.findActivePolicy(tx, tenantId))?.quorumRequired)
          const activated = counted >= needed
          const signedEvent = auditedBy(context, {
            layer: 'policy',
            action: 'policy.signed',
            entity: { type: 'policy', id: current.id },
            inputs: { signer_addresses: addresses, signatures: digestOf(input.signatures.map((signature) => signature.signature)) },
            outputs: { signers: signers.length, authorized_signers: counted, quorum_required: current.quorumRequired, quorum_needed: needed, activated },
          })
          if (!activated) {
            await store.updatePolicy(tx, tenantId, current.id, { signers })
            const row = { ...current, signers }
            const warnings = attentionFindings(row.content)
            const authorizedCount = membersSigning(authorized, authorized.keys())
            if (needed > row.quorumRequired) warnings.push(activeQuorumWarning(row.quorumRequired, needed))
            if (authorizedCount < needed) warnings.push(quorumWarning(needed, authorizedCount))
            return { outcome: { policy: toPolicyView(row), activated, warnings }, audit: [signedEvent] }
          }

          // policy.activated cites policy.signed by id, so policy.signed is committed first (same transaction).
          const [signedEventId] = await commands.commit(tx, tenantId, { audit: [signedEvent] })
          assert(signedEventId !== undefined, 'committing one audit event returns its id')
          // Order matters for the one-active index: the previous version leaves `active` first.
          const previous = await store.supersedeActive(tx, tenantId, now)
          const supersededPending = await store.supersedePendingBefore(tx, tenantId, current.version)
          await store.updatePolicy(tx, tenantId, current.id, { signers, state: 'active', activatedAt: now })
          const row: PolicyRow = { ...current, signers, state: 'active', activatedAt: now }
          const jobs = (await deps.afterWrite?.(tx, { tenantId, kind: 'activated', policyId: current.id })) ?? []
          return {
            jobs,
            outcome: { policy: toPolicyView(row), activated, warnings: attentionFindings(row.content) },
            audit: [
              auditedBy(context, {
                layer: 'policy',
                action: 'policy.activated',
                entity: { type: 'policy', id: current.id },
                inputs: { signed_event_id: signedEventId },
                outputs: {
                  version: current.version,
                  content_hash: current.contentHash,
                  signers,
                  previous_policy_id: previous?.id ?? null,
                  previous_version: previous?.version ?? null,
                  superseded_pending: supersededPending,
                },
              }),
            ],
          }
        })
      } catch (error) {
        if (error instanceof SignatureRefused) return refuseSignature(context, tenantId, input.policy_id, error.refusal)
        throw error
      }
    },
  }
}
