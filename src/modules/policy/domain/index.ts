/**
 * The pure Policy domain as the slice sees it. Implementations live beside this file:
 *   content.ts    TypeBox schema of PolicyContent (published as JSON Schema) + semantic validation
 *   evaluate.ts   evaluatePolicy: pure, deterministic, total, deny-by-default, full trace
 *   default.ts    the default policy content of every new tenant
 *   lint.ts       lintPolicy: findings (codes in lint.ts)
 *   diff.ts       diffPolicies: rule-level added / removed / modified
 *   signing.ts    content hash and the EIP-712 typed data a signer signs; signature verification
 *
 * Exported functions (signatures the slice codes against):
 *   policyContentSchema: TSchema                       (content.ts; also served as JSON Schema)
 *   validatePolicyContent(content: unknown): { ok: true; content: PolicyContent } | { ok: false; issues: Array<{ path: string; message: string; code }> }
 *   evaluatePolicy(content: PolicyContent, action: PolicyAction): PolicyDecision
 *   defaultPolicyContent: PolicyContent
 *   lintPolicy(content: unknown): LintFinding[]        (never throws; schema violations are error findings)
 *   diffPolicies(from: PolicyContent, to: PolicyContent): PolicyDiff
 *   policyContentHash(content: PolicyContent): `0x${string}`
 *   policySigningPayload(input: PolicySigningInput): { domain; types; primaryType: 'Policy'; message }
 *   recoverPolicySigner(input: PolicySigningInput, signature: string): Promise<`0x${string}` | undefined>  (lower-cased address; undefined for a malformed signature)
 */
export * from './types.ts'
export * from './content.ts'
export * from './evaluate.ts'
export * from './default.ts'
export * from './lint.ts'
export * from './diff.ts'
export * from './signing.ts'
export * from './amounts.ts'
