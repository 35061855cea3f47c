/**
 * The agent protocol's JSON-RPC error codes (spec, "Agent-protocol JSON-RPC codes (after authentication)")
 * and the one mapping from a catalogue error code to them. Pure: the MCP server turns a thrown AppError
 * into `{code, message, data}` with `rpcErrorOf`, so every tool, resource and prompt fails the same way.
 */

export const rpcCodes = {
  /** Token missing, invalid or expired. */
  token: -32001,
  /** Scope insufficient or tenant mismatch. */
  scope: -32002,
  /** Agent not registered or inactive. */
  agent: -32003,
  /** The pre-execution gate failed (data.code is the gate_* sub-code). */
  gate: -32004,
  /** The agent's scope_hash differs from its on-chain registration. */
  scopeHash: -32005,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  parse: -32700,
} as const

export type RpcCode = (typeof rpcCodes)[keyof typeof rpcCodes]

/** Every code an answer of the agent protocol may carry (the fuzz stage checks answers against it). */
export const specRpcCodes: readonly number[] = Object.values(rpcCodes)

const byErrorCode: Readonly<Record<string, RpcCode>> = {
  auth_token_missing: rpcCodes.token,
  auth_token_invalid: rpcCodes.token,
  auth_token_expired: rpcCodes.token,
  auth_invalid_key: rpcCodes.token,
  auth_scope_insufficient: rpcCodes.scope,
  auth_tenant_mismatch: rpcCodes.scope,
  scope_expired: rpcCodes.scope,
  tenant_access_denied: rpcCodes.scope,
  // Only a person decides a proposal (spec, "Decide rules"): an agent calling proposals.decide lacks the authority, as a scope it cannot hold.
  actor_unresolved: rpcCodes.scope,
  agent_not_registered: rpcCodes.agent,
  agent_not_registered_onchain: rpcCodes.agent,
  agent_inactive: rpcCodes.agent,
  agent_scope_hash_mismatch: rpcCodes.scopeHash,
  agent_scope_hash_missing: rpcCodes.scopeHash,
  payment_intent_gate_failed: rpcCodes.gate,
}

export interface RpcErrorBody {
  readonly code: number
  readonly message: string
  readonly data: Record<string, unknown>
}

/**
 * The JSON-RPC error of a catalogue error. The spec's five service codes map as listed above; a gate
 * failure carries the first failed check's gate_* code in `data.code` (the first failed check that has
 * one; `payment_intent_gate_failed` when none has), every failed check's in `data.gate_codes`, and the
 * catalogue code in `data.error_code`. Every other caller error (4xx: not found, conflict, validation, policy) is -32602
 * with the catalogue code in `data.error_code`, so an agent reads the same stable codes as over REST; a
 * server error (5xx) is -32603 with a generic message.
 */
export function rpcErrorOf(error: { code: string; message: string; status: number; details?: Record<string, unknown> | undefined }): RpcErrorBody {
  const details = error.details === undefined ? {} : { details: error.details }
  if (error.code === 'payment_intent_gate_failed') {
    // The first failed check's gate_* code; a check without one of its own (most hardening checks) gives
    // way to the first failed check that has one, and a failure with none is the catalogue code itself.
    const gate = error.details as { failed_check?: { code?: unknown }; failed_checks?: ReadonlyArray<{ code?: unknown }> } | undefined
    const codes = [gate?.failed_check?.code, ...(gate?.failed_checks ?? []).map((check) => check.code)].filter((code): code is string => typeof code === 'string' && code.startsWith('gate_'))
    return { code: rpcCodes.gate, message: error.message, data: { code: codes[0] ?? error.code, gate_codes: [...new Set(codes)], error_code: error.code, ...details } }
  }
  const mapped = byErrorCode[error.code]
  if (mapped !== undefined) return { code: mapped, message: error.message, data: { error_code: error.code, ...details } }
  if (error.status >= 500) return { code: rpcCodes.internal, message: 'An unexpected error occurred; quote the request id when reporting it.', data: { error_code: 'internal_error' } }
  return { code: rpcCodes.invalidParams, message: error.message, data: { error_code: error.code, status: error.status, ...details } }
}
