/**
 * What compose and sign tell a signer besides the version itself: the content's lint errors and
 * warnings, and a quorum the tenant's authorized signers cannot reach yet.
 */
import { lintPolicy } from './lint.ts'
import type { LintFinding } from './types.ts'

/** Findings worth a signer's attention before or after signing: errors and warnings, not infos. */
export const attentionFindings = (content: unknown): LintFinding[] => lintPolicy(content).filter((finding) => finding.severity !== 'info')

export const quorumWarning = (quorum: number, signers: number): LintFinding => ({
  code: 'quorum_exceeds_signers',
  severity: 'warning',
  rule_id: null,
  message: `quorum_required is ${quorum} but the tenant has ${signers} authorized signer${signers === 1 ? '' : 's'} (active members who linked their own wallet; one per member, however many wallets); more members must link theirs before it can activate.`,
})
