/** Builders shared by the Policy domain tests: documents are validated, so every test runs on valid content. */
import { validatePolicyContent } from './content.ts'
import type { AppliesTo, Conditions, PolicyContent, Rule, RuleExecute } from './types.ts'

/** A valid document, or a thrown Error naming the issues (a broken fixture is a test bug, not a case). */
export function policy(content: Omit<PolicyContent, 'version'> & { version?: number }): PolicyContent {
  const validation = validatePolicyContent({ version: 1, ...content })
  if (!validation.ok) throw new Error(`fixture policy is invalid: ${JSON.stringify(validation.issues)}`)
  return validation.content
}

export function rule(id: string, appliesTo: readonly AppliesTo[], when: Conditions, execute: RuleExecute, require?: string): Rule {
  return require === undefined ? { id, applies_to: appliesTo, when, execute } : { id, applies_to: appliesTo, when, execute, require }
}

export const usd = (value: string) => ({ currency: 'USD', value })
