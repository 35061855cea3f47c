/** PaymentIntent action types (spec, "PaymentIntent"): one vocabulary for approval domains and policy. */
export const paymentActionTypes = [
  'ach_outbound',
  'ach_inbound',
  'wire',
  'onchain_transfer',
  'erp_writeback',
  'card_payment',
  'x402_settle',
  'escrow_release',
] as const

export type PaymentActionType = (typeof paymentActionTypes)[number]
