/**
 * The policy every new tenant starts with, active from the start (spec: "The default policy of a freshly
 * provisioned tenant never auto-executes money"):
 *
 * 1. Money (outbound_payment, onchain_tx) below the confidence floor (0.6) is rejected.
 * 2. Other money needs confirmation by one signer.
 * 3. Non-money actions (inbound_payment, ledger_write, agent_action) are allowed.
 *
 * Rule 1 is a gate-only condition: POST /evaluate does not populate `confidence`, so there the check
 * fails ("not populated"), rule 1 does not match and money gets `confirm` from rule 2. That is intended:
 * an evaluation without a confidence must not read as "rejected for low confidence", and it still never
 * lets money through without a human. In the gate, where the proposing agent's confidence is known, a
 * low-confidence payment is refused outright. No rule is `auto` on money, so no decision of the default
 * policy allows money: no rule needs an autonomous_cap, and every payment waits for a human.
 *
 * Rule ids are stable: the simulation, diff and lint reports name them.
 */
import type { PolicyContent } from './types.ts'

/** The confidence below which a proposed payment is refused by the default policy. */
export const defaultConfidenceFloor = 0.6

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

export const defaultPolicyContent: PolicyContent = deepFreeze({
  version: 1,
  rules: [
    {
      id: 'money_below_confidence_floor',
      applies_to: ['outbound_payment', 'onchain_tx'],
      when: { 'confidence.lt': defaultConfidenceFloor },
      execute: 'reject',
    },
    {
      id: 'money_needs_signer',
      applies_to: ['outbound_payment', 'onchain_tx'],
      when: {},
      require: 'signer',
      execute: 'confirm',
    },
    {
      id: 'non_money_auto',
      applies_to: ['inbound_payment', 'ledger_write', 'agent_action'],
      when: {},
      execute: 'auto',
    },
  ],
})
