/**
 * What compose and sign tell a signer besides the version itself: the content's lint errors and
 * warnings, a quorum below the active version's (which activation needs all the same), and a quorum the
 * tenant's authorized signers cannot reach yet.
 */
import { lintPolicy } from './lint.ts'
import type { LintFinding } from './types.ts'

/** Findings worth a signer's attention before or after signing: errors and warnings, not infos. */
export const attentionFindings = (content: unknown): LintFinding[] => lintPolicy(content).filter((finding) => finding.severity !== 'info')

export const quorumWarning = (quorum: number, signers: number): LintFinding => ({
  code: 'quorum_exceeds_signers',
  severity: 'warning',
  rule_id: null,
  message: `this version activates once ${quorum} members have signed it, but the tenant has ${signers} authorized signer${signers === 1 ? '' : 's'} (active members who linked their own wallet; one per member, however many wallets); more members must link theirs first.`,
})

/**
 * How many distinct members must sign a version before it activates: its own quorum, and never fewer than
 * the active version's. A version cannot lower the bar it replaces: lowering a 3-of-5 quorum to 1 takes
 * three signatures, as any other change of that policy does (a multisig's threshold change).
 */
export const activationQuorum = (quorumRequired: number, activeQuorum: number | undefined): number => Math.max(quorumRequired, activeQuorum ?? 1)

export const activeQuorumWarning = (quorum: number, activeQuorum: number): LintFinding => ({
  code: 'quorum_below_active',
  severity: 'warning',
  rule_id: null,
  message: `quorum_required is ${quorum}, below the active version's ${activeQuorum}: this version activates only once ${activeQuorum} members have signed it (a version cannot lower the quorum it replaces by itself).`,
})
