/**
 * The proposal read model's vocabulary (spec, "Proposal (read model over agent output)"): the nineteen
 * public proposal types, the fifteen statuses, the risk bands, the decisions, and the type resolution
 * in the spec's order. Pure.
 */

export const publicProposalTypes = [
  'vendor_risk',
  'payment',
  'collections',
  'treasury',
  'cash_forecast',
  'dispute',
  'compliance',
  'revenue_intel',
  'reconciliation',
  'subscription',
  'fraud_anomaly',
  'personal_budget',
  'financial_health',
  'purchase_advisor',
  'tax_prep',
  'travel_finance',
  'bill_management',
  'debt_optimization',
  'savings',
] as const
export type ProposalType = (typeof publicProposalTypes)[number]

export const proposalStatuses = [
  'proposed',
  'pending',
  'pending_approval',
  'awaiting_second_approval',
  'approved',
  'acknowledged',
  'reconciling',
  'paused',
  'dispatching',
  'rejected',
  'executed',
  'failed',
  'cancelled',
  'undone',
  'unknown',
] as const
export type ProposalStatus = (typeof proposalStatuses)[number]

export const riskBands = ['low', 'standard', 'elevated', 'high'] as const
export type RiskBand = (typeof riskBands)[number]

export const proposalDecisions = ['approve', 'reject', 'acknowledge', 'undo'] as const
export type ProposalDecision = (typeof proposalDecisions)[number]

export function isPublicProposalType(value: string): value is ProposalType {
  return (publicProposalTypes as readonly string[]).includes(value)
}

/**
 * Step 3 of the resolution: the spec's explicit map (its seven examples), the first-party programs'
 * other stored action types, and the PaymentIntent action types (a money proposal is a payment).
 */
export const explicitTypeMap: Readonly<Record<string, ProposalType>> = {
  flag_transaction: 'fraud_anomaly',
  block_payment: 'vendor_risk',
  propose_match: 'reconciliation',
  recommend_card: 'travel_finance',
  tag_tax_item: 'tax_prep',
  remind: 'bill_management',
  recommend_savings_transfer: 'savings',
  review_match: 'reconciliation',
  subscription_found: 'subscription',
  subscription_price_change: 'subscription',
  forecast: 'cash_forecast',
  flag_vendor_risk: 'vendor_risk',
  freeze_card: 'fraud_anomaly',
  create_dispute_draft: 'dispute',
  pay_invoice: 'payment',
  ach_outbound: 'payment',
  ach_inbound: 'payment',
  wire: 'payment',
  onchain_transfer: 'payment',
  erp_writeback: 'payment',
  card_payment: 'payment',
  x402_settle: 'payment',
  escrow_release: 'payment',
}

/** Stored action types that resolve by the agent's role only (spec): never by the map. */
export const roleOnlyActionTypes: readonly string[] = ['notify', 'escalate', 'create_task', 'recommend_action']

export type TypeResolution = { readonly type: ProposalType; readonly rule: 'stored_action_type' | 'agent_role' | 'agent_kind' | 'explicit_map' } | { readonly type: undefined; readonly rule: 'unresolved' }

/**
 * The spec's order: (1) a stored action type that is itself a public type; (2) the agent's role, or its
 * kind (a first-party agent's catalog key, e.g. `collections`), when that is a public type; (3) the
 * explicit map — except notify, escalate, create_task and recommend_action, which resolve by role only.
 */
export function resolveProposalType(input: { readonly actionType: string; readonly agentRole: string | null; readonly agentKind: string | null }): TypeResolution {
  if (isPublicProposalType(input.actionType)) return { type: input.actionType, rule: 'stored_action_type' }
  if (input.agentRole !== null && isPublicProposalType(input.agentRole)) return { type: input.agentRole, rule: 'agent_role' }
  if (input.agentKind !== null && isPublicProposalType(input.agentKind)) return { type: input.agentKind, rule: 'agent_kind' }
  if (roleOnlyActionTypes.includes(input.actionType)) return { type: undefined, rule: 'unresolved' }
  const mapped = Object.hasOwn(explicitTypeMap, input.actionType) ? explicitTypeMap[input.actionType] : undefined
  return mapped === undefined ? { type: undefined, rule: 'unresolved' } : { type: mapped, rule: 'explicit_map' }
}
