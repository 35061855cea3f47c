/**
 * The error catalogue: every error code the service can answer with, its HTTP status and what it means.
 *
 * It is the one source for the envelope's `code`, the response status and the published error reference
 * (served at `/docs/errors`, generated from this table). Codes are the spec's; where the spec names a code
 * without a status, or the service needs a code the spec does not list, the choice is recorded in
 * docs/decisions.md. Domain code throws `new AppError(code, …)`; only the HTTP edge renders it.
 */

export interface ErrorEntry {
  readonly status: number
  readonly group: string
  /** One sentence, shown as the default message and in the error reference. */
  readonly summary: string
}

const entry = (status: number, group: string, summary: string): ErrorEntry => ({ status, group, summary })

export const errorCatalogue = {
  // Request and validation
  request_body_invalid: entry(400, 'Validation', 'The request body is malformed or does not match the schema; details.issues lists each problem.'),
  request_params_invalid: entry(400, 'Validation', 'A path, query or header parameter is invalid; details.issues lists each problem.'),
  validation_failed: entry(400, 'Validation', 'The request is well-formed but breaks a rule of the operation; details say which.'),
  missing_required_field: entry(400, 'Validation', 'A field the operation needs is absent.'),
  invalid_cursor: entry(400, 'Validation', 'The pagination cursor was not issued by this service for this listing, or was altered.'),
  request_body_too_large: entry(413, 'Request', 'The request body is larger than the route accepts.'),
  request_media_type_unsupported: entry(415, 'Request', 'The Content-Type of the request is not one the route accepts.'),
  route_not_found: entry(404, 'Request', 'No route exists at this path (deprecated and disabled routes answer the same way).'),
  method_not_allowed: entry(405, 'Request', 'The path exists but not with this method; the Allow header and details.allowed_methods list those it has.'),
  request_malformed: entry(400, 'Request', 'The request is not well-formed HTTP; the connection is closed.'),
  request_timeout: entry(408, 'Request', 'The request was not received completely in time; the connection is closed.'),
  request_headers_too_large: entry(431, 'Request', 'The request headers are larger than the server accepts (16 KiB); the connection is closed.'),
  rate_limit_exceeded: entry(429, 'Request', 'Too many requests for this credential or client address; retry after the Retry-After header.'),
  idempotency_key_reused: entry(409, 'Request', 'This Idempotency-Key was already used with a different request.'),
  internal_error: entry(500, 'Server', 'An unexpected error occurred; quote the request_id when reporting it.'),
  service_unavailable: entry(503, 'Server', 'The service is shutting down or a dependency is unavailable; retry shortly.'),

  // Auth
  auth_token_missing: entry(401, 'Auth', 'No bearer credential was sent.'),
  auth_token_invalid: entry(401, 'Auth', 'The bearer credential is malformed, has a bad signature, or its principal no longer exists.'),
  auth_token_expired: entry(401, 'Auth', 'The bearer token has expired; obtain a new one.'),
  auth_invalid_key: entry(401, 'Auth', 'The API key is malformed, revoked, expired, or not valid in this environment.'),
  auth_invalid_credentials: entry(401, 'Auth', 'The email and password do not match an account.'),
  auth_email_unverified: entry(403, 'Auth', 'The account exists but its email address has not been verified.'),
  auth_siwx_invalid: entry(401, 'Auth', 'The sign-in-with-wallet message or signature is invalid.'),
  auth_scope_insufficient: entry(403, 'Auth', 'The credential lacks a scope (or principal type) this route requires; details.required lists it.'),
  auth_tenant_mismatch: entry(403, 'Auth', 'The path names a tenant other than the credential\'s tenant.'),
  auth_service_token_disabled: entry(403, 'Auth', 'The break-glass service-token mint is disabled in this environment.'),

  // Onboarding
  signup_email_taken: entry(409, 'Onboarding', 'An account with this email address already exists.'),
  signup_token_invalid: entry(400, 'Onboarding', 'The verification or invitation token is unknown, used, expired, or for another tenant.'),
  wallet_already_linked: entry(409, 'Onboarding', 'This wallet address is already linked.'),
  wallet_not_found: entry(404, 'Onboarding', 'No wallet of this tenant has this id.'),
  wallet_signs_active_policy: entry(409, 'Onboarding', 'The wallet\'s signature holds the active policy\'s quorum; activate a version signed without it first.'),

  // Tenant
  tenant_not_found: entry(404, 'Tenant', 'No such tenant.'),
  tenant_suspended: entry(403, 'Tenant', 'The tenant is suspended.'),
  tenant_access_denied: entry(403, 'Tenant', 'The principal may not act on this tenant (for example a deactivated member).'),
  tenant_identity_already_linked: entry(409, 'Tenant', 'The platform identity is already linked to a tenant; details.tenant_id names it.'),
  member_not_found: entry(404, 'Tenant', 'No such member in this tenant.'),
  member_change_forbidden: entry(409, 'Tenant', 'The member change is not allowed (the owner is immutable, or the change would remove your own access).'),
  api_key_not_found: entry(404, 'Tenant', 'No such API key in this tenant.'),
  api_key_revoked: entry(409, 'Tenant', 'The API key is revoked and cannot be rotated.'),
  api_key_expired: entry(409, 'Tenant', 'The API key has expired and cannot be rotated; issue a new one.'),
  api_key_auth_disabled: entry(403, 'Tenant', 'API-key auth is not enabled in this environment, so keys cannot be issued or rotated.'),

  // Source and Raw
  source_not_found: entry(404, 'Source and Raw', 'No such connected source.'),
  source_credential_invalid: entry(401, 'Source and Raw', 'The source credential was refused.'),
  source_already_connected: entry(409, 'Source and Raw', 'The provider account is already connected (details.connection_id, details.status); revoke it first, or add it again once revoked.'),
  source_revoked: entry(409, 'Source and Raw', 'The connection is revoked: it cannot be paused, resumed or given a new secret; add it again to re-activate it with a new secret.'),
  raw_artifact_not_found: entry(404, 'Source and Raw', 'No such Raw artifact.'),
  raw_artifact_tombstoned: entry(410, 'Source and Raw', 'The Raw artifact was deleted (tombstoned).'),
  raw_artifact_too_large: entry(413, 'Source and Raw', 'The artifact exceeds the 50 MB limit.'),
  raw_source_unsupported: entry(400, 'Source and Raw', 'Unknown source_type.'),
  raw_source_reserved: entry(403, 'Source and Raw', 'This source_type may be created only by its authenticated provider integration.'),
  raw_webhook_signature_invalid: entry(401, 'Source and Raw', 'The provider webhook signature is missing, stale or wrong.'),
  raw_fetch_refused: entry(400, 'Source and Raw', 'The URL (or a redirect it led to) breaks the fetch rules: scheme, credentials, a non-public address, too many redirects or a loop; details.reason says which.'),
  raw_fetch_failed: entry(400, 'Source and Raw', 'The remote server could not be fetched (connection, time limit, a non-2xx answer or a bad redirect); details.reason says which.'),
  raw_signature_invalid: entry(403, 'Source and Raw', 'The signed Raw content URL was altered or has expired (details.reason); read the artifact again for a new one.'),

  // Ledger
  ledger_transaction_not_found: entry(404, 'Ledger', 'No such transaction in this tenant (at the as_of time, when one is given).'),
  ledger_account_not_found: entry(404, 'Ledger', 'No such account in this tenant (at the as_of time, when one is given).'),
  ledger_counterparty_not_found: entry(404, 'Ledger', 'No such counterparty in this tenant (at the as_of time, when one is given).'),
  ledger_invoice_not_found: entry(404, 'Ledger', 'No such invoice in this tenant (at the as_of time, when one is given).'),
  ledger_parsed_row_not_found: entry(404, 'Ledger', 'No such parsed row (raw_parsed_id) in this tenant.'),
  ledger_parsed_row_unsupported: entry(422, 'Ledger', 'The parsed row holds no record normalization reads (see the Raw parsed-row contract).'),
  ledger_job_not_found: entry(404, 'Ledger', 'No such normalization or reconciliation job in this tenant.'),
  ledger_counterparty_trust_transition_invalid: entry(409, 'Ledger', 'The trust action is not allowed from the counterparty\'s current trust state; details.allowed_actions lists those that are.'),

  // Audit
  audit_event_not_found: entry(404, 'Audit', 'No such audit event.'),
  audit_anchor_not_found: entry(404, 'Audit', 'No Merkle batch has closed for this tenant yet; events are batched within AUDIT_BATCH_WAIT_SECONDS.'),
  audit_entity_not_found: entry(404, 'Audit', 'No audit events for this entity in this tenant.'),
  audit_export_not_found: entry(404, 'Audit', 'No such audit export, or it has expired.'),
  audit_export_not_ready: entry(409, 'Audit', 'The audit export is not complete yet; poll its status_url.'),
  proof_not_found: entry(404, 'Audit', 'No such action (payment intent) in this tenant, so no proof.'),

  // Policy
  policy_not_found: entry(404, 'Policy', 'No such policy (or none activated).'),
  policy_not_active: entry(409, 'Policy', 'The policy is not active.'),
  policy_denied: entry(422, 'Policy', 'Policy denied the action or requires escalation.'),
  policy_quorum_not_met: entry(409, 'Policy', 'The policy is not awaiting signatures, or quorum was not met.'),
  policy_version_mismatch: entry(409, 'Policy', 'The policy version does not match.'),
  policy_signature_invalid: entry(401, 'Policy', 'A signature is invalid, duplicated, or from a signer who is not authorized.'),

  // Agent
  agent_not_found: entry(404, 'Agent', 'No such agent.'),
  agent_not_registered: entry(401, 'Agent', 'The agent is not registered.'),
  agent_not_registered_onchain: entry(401, 'Agent', 'The agent has no on-chain registration.'),
  agent_scope_hash_missing: entry(401, 'Agent', 'The agent token carries no scope hash.'),
  agent_inactive: entry(409, 'Agent', 'The agent is not active.'),
  agent_scope_hash_mismatch: entry(401, 'Agent', 'The token scope hash differs from the on-chain registration.'),
  scope_expired: entry(403, 'Agent', 'The granted scope has expired.'),
  agent_proposal_duplicate: entry(409, 'Agent', 'This proposal duplicates one already made.'),
  agent_already_registered: entry(409, 'Agent', 'The tenant already has an agent of this id.'),
  agent_promotion_refused: entry(409, 'Agent', 'The agent\'s shadow scorecard misses a threshold of the promotion request; details.unmet lists each, beside the scorecard.'),
  agent_promotion_not_found: entry(404, 'Agent', 'The agent has no promotion to demote: it is already in shadow mode.'),
  agent_run_not_found: entry(404, 'Agent', 'No such agent run in this tenant.'),
  agent_lifecycle_transition_invalid: entry(409, 'Agent', 'The agent\'s state does not allow this governance transition (pause needs active; resume needs quarantined, or pending_onchain without a chain; revoke needs any state but revoked).'),
  governance_report_not_found: entry(404, 'Governance', 'No such governance report snapshot for this tenant.'),

  // Agent protocol (MCP): JSON-RPC -32602 answers carry these as data.error_code; no HTTP route answers them
  tool_not_found: entry(404, 'Agent protocol', 'The agent protocol has no tool of this name (tools/list names each).'),
  resource_not_found: entry(404, 'Agent protocol', 'No resource template of the agent protocol matches this URI (resources/templates/list names each).'),
  prompt_not_found: entry(404, 'Agent protocol', 'The agent protocol has no prompt of this name (prompts/list names each).'),

  // Wiki
  wiki_entity_not_found: entry(404, 'Wiki', 'No Ledger record or relation of this id (as of the instant asked) in this tenant.'),
  agent_routing_decision_not_found: entry(404, 'Agent', 'No such routing decision in this tenant.'),

  // Memory pages
  memory_page_not_found: entry(404, 'Memory', 'No memory page of this slug or id in this tenant (a slug is written percent-encoded, or as its two path segments).'),

  // PaymentIntent
  payment_intent_not_found: entry(404, 'PaymentIntent', 'No such payment intent.'),
  payment_intent_invalid_state: entry(409, 'PaymentIntent', 'The payment intent is not in a state that allows this move.'),
  payment_intent_gate_failed: entry(409, 'PaymentIntent', 'The pre-execution gate failed; details name the check.'),
  payment_intent_approval_invalid: entry(403, 'PaymentIntent', 'The approver may not approve this intent; details.reason says why.'),
  obligation_not_found: entry(404, 'PaymentIntent', 'No such obligation.'),
  obligation_direction_invalid: entry(422, 'PaymentIntent', 'The obligation is not payable.'),
  action_already_executed: entry(409, 'PaymentIntent', 'The action was already executed.'),
  invoice_already_paid: entry(409, 'PaymentIntent', 'The invoice is already paid in full; there is nothing left to pay.'),
  invoice_not_payable: entry(409, 'PaymentIntent', 'The invoice cannot be paid: it is cancelled or names no counterparty.'),

  // Execution (rails)
  rail_webhook_signature_invalid: entry(401, 'Execution', 'The rail provider webhook signature is missing, stale or wrong.'),
  rail_transfer_unknown: entry(404, 'Execution', 'The rail provider webhook names a transfer Steward has no execution for (yet); the provider redelivers.'),
  onchain_account_not_found: entry(404, 'Execution', 'No smart account is registered for this Ledger account in this tenant.'),
  onchain_account_already_registered: entry(409, 'Execution', 'The Ledger account is already registered with other terms (smart account, token, chain or session key); details.registered shows them.'),
  onchain_rail_not_configured: entry(409, 'Execution', 'The onchain_base rail is not configured in this deployment (ONCHAIN_RAIL_RPC_URL and ONCHAIN_RAIL_CHAIN_ID).'),

  // Proposal
  execution_proposal_not_found: entry(404, 'Proposal', 'No such proposal.'),
  actor_unresolved: entry(403, 'Proposal', 'The caller does not resolve to an active tenant member with approval authority.'),
  proposal_decision_unavailable: entry(409, 'Proposal', 'The decision is not one the proposal takes now (details.available_decisions lists those it does): a finding is acknowledged or rejected, then only undone; a money proposal is approved or rejected, never acknowledged or undone.'),

  // Gate (reported inside payment_intent_gate_failed details, and on their own where a route names them)
  gate_no_policy_decision: entry(409, 'Gate', 'No policy decision is attached.'),
  gate_policy_version_stale: entry(409, 'Gate', 'The decision was made under a policy version that is no longer active.'),
  gate_counterparty_unverified: entry(409, 'Gate', 'The counterparty is not verified.'),
  gate_counterparty_sanctioned: entry(409, 'Gate', 'The counterparty is sanctioned.'),
  gate_balance_insufficient: entry(409, 'Gate', 'The source balance is insufficient.'),
  gate_approval_incomplete: entry(409, 'Gate', 'Required approvals are incomplete.'),
  gate_session_key_invalid: entry(409, 'Gate', 'The session key is invalid.'),
  gate_audit_chain_stale: entry(409, 'Gate', 'The audit chain is unhealthy or stale.'),

  // Webhooks
  webhook_endpoint_not_found: entry(404, 'Webhooks', 'No such webhook endpoint in this tenant.'),
  webhook_url_refused: entry(400, 'Webhooks', 'The webhook URL breaks the egress rules (scheme, credentials, or a host that resolves to a non-public address); details.reason says which.'),
  webhook_endpoint_disabled: entry(409, 'Webhooks', 'The webhook endpoint is disabled; enable it before replaying its dead letters.'),
  webhook_endpoint_limit_reached: entry(409, 'Webhooks', 'The tenant already has the most webhook endpoints allowed; delete one first.'),
  idempotency_request_in_progress: entry(409, 'Request', 'A request with this Idempotency-Key is still being processed; retry shortly.'),
} as const satisfies Record<string, ErrorEntry>

export type ErrorCode = keyof typeof errorCatalogue

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[]

/** A failure the caller can act on. Thrown by services; rendered as the envelope by the HTTP edge. */
export class AppError extends Error {
  readonly status: number

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message ?? errorCatalogue[code].summary)
    this.name = 'AppError'
    this.status = errorCatalogue[code].status
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError
}
