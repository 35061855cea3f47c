import { describe, expect, it } from 'vitest'
import { agentRoles, isAgentRole, scopeHashOfRole, scopesOfRole } from './agent-roles.ts'
import { scopeHashOf } from './scope-hash.ts'

describe('agent roles', () => {
  it('grant reading, contributing and proposing, never executing, approving or administering', () => {
    for (const role of agentRoles) {
      const scopes = scopesOfRole(role)
      for (const forbidden of ['payment_intent:execute', 'execution:propose', 'payment_intent:approve', 'execution:admin', 'surfaces:admin', 'policy:sign']) expect(scopes).not.toContain(forbidden)
      expect(scopes).toEqual([...scopes].sort())
    }
    expect(scopesOfRole('proposer')).toEqual(['ledger:read', 'payment_intent:propose', 'raw:write', 'wiki:read'])
  })

  it('give each role a distinct scope hash, the spec\'s hash of its scopes in lower-case hex', () => {
    expect(scopeHashOfRole('reader')).toBe(scopeHashOf(['wiki:read', 'ledger:read']).toLowerCase())
    expect(new Set(agentRoles.map(scopeHashOfRole)).size).toBe(agentRoles.length)
  })

  it('know only their own names', () => {
    expect(['reader', 'contributor', 'proposer'].every(isAgentRole)).toBe(true)
    for (const name of ['executor', 'toString', '__proto__', '']) expect(isAgentRole(name)).toBe(false)
  })
})
