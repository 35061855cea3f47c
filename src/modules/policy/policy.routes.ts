/**
 * Policy routes (spec, "Policy": tenant_id is a UUID in the path and must equal the token's tenant, which
 * the guard checks), the wallet routes that make signers, and the published policy-content JSON Schema.
 *
 * Scopes: reading, evaluating, linting, simulating and diffing need policy:read (simulate-historical also
 * ledger:read: its answer lists Ledger transactions); composing and linking wallets need policy:write
 * (owner, admin); signing needs policy:sign (admin, approver). Writes are for user principals.
 *
 * Every route that writes takes an Idempotency-Key: compose, sign, evaluate (it records an audit event
 * and emits a webhook event per call, so a retry must not record it twice) and wallet link. Lint,
 * simulate, simulate-historical and diff write nothing and take none: a repeat simply computes again.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { contextOf, principalOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute, publicRoute } from '../../platform/http/route-auth.ts'
import { TenantPathParams, registerNamedSchemas } from '../../platform/http/schemas.ts'
import { policyContentSchema } from './domain/index.ts'
import {
  ComposeBody,
  ComposeResponse,
  ContentSchemaResponse,
  DiffBody,
  DiffResponse,
  EvaluateBody,
  EvaluateResponse,
  historicalLimitsNote,
  LintBody,
  LintResponse,
  Policy,
  PolicyParams,
  SignBody,
  SignResponse,
  SimulateBody,
  SimulateHistoricalBody,
  SimulateHistoricalResponse,
  SimulateResponse,
  VersionList,
  VersionsQuery,
} from './policy.schemas.ts'
import type { PolicyService } from './policy.service.ts'
import { historicalScanRowsMax } from './simulate-historical.service.ts'
import { LinkWalletBody, UnlinkedWallet, Wallet, WalletList, WalletListQuery, WalletPathParams } from './wallets.schemas.ts'
import type { WalletsService } from './wallets.service.ts'
import * as policySchemas from './policy.schemas.ts'
import * as walletsSchemas from './wallets.schemas.ts'

export interface PolicyRoutesOptions {
  readonly policy: PolicyService
  readonly wallets: WalletsService
  readonly publicBaseUrl: string
}

/** Where the policy-content JSON Schema is published: outside /v1/policy/{tenant_id}, and public like OpenAPI. */
export const policyContentSchemaPath = '/v1/schemas/policy-content.json'

const tags = ['Policy']
const tenantParam = 'tenant_id'
const policyRead = bearerRoute(['policy:read'], { tenantParam })
const policyWrite = bearerRoute(['policy:write'], { principalTypes: ['user'], tenantParam })
const policySign = bearerRoute(['policy:sign'], { principalTypes: ['user'], tenantParam })
const historyRead = bearerRoute(['policy:read', 'ledger:read'], { tenantParam })
const walletRead = bearerRoute(['policy:read'], { principalTypes: ['user'], tenantParam })
/** What every keyed route's description says about its Idempotency-Key. */
const idempotencyNote =
  'Optional Idempotency-Key: a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.'
/** What the computations that write nothing say instead. */
const keylessNote = 'Writes nothing, so it takes no Idempotency-Key: a repeat computes again.'

export const policyRoutes: FastifyPluginAsyncTypebox<PolicyRoutesOptions> = async (app, { policy, wallets, publicBaseUrl }) => {
  // The named response schemas (Transaction, Member, …): OpenAPI components, referred to by $ref.
  registerNamedSchemas(app, [...Object.values(policySchemas), ...Object.values(walletsSchemas)])
  // Served with its address as $id, so a validator can cache it and documents can $ref it.
  const publishedContentSchema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...JSON.parse(JSON.stringify(policyContentSchema)),
    $id: `${publicBaseUrl}${policyContentSchemaPath}`,
  } as Record<string, unknown>

  app.get(
    policyContentSchemaPath,
    {
      config: { auth: publicRoute() },
      schema: {
        operationId: 'getPolicyContentSchema',
        tags,
        summary: 'The policy content JSON Schema',
        description: 'The published schema of the policy language: what compose and simulate-historical accept, and what lint checks first.',
        response: { 200: ContentSchemaResponse },
      },
    },
    async () => publishedContentSchema,
  )

  app.get(
    '/v1/policy/:tenant_id',
    {
      config: { auth: policyRead },
      schema: { operationId: 'getActivePolicy', tags, summary: 'The active policy', description: '404 policy_not_found when no version is active.', params: PolicyParams, response: { 200: Policy } },
    },
    async (request) => policy.active(principalOf(request).tenantId),
  )

  app.post(
    '/v1/policy/:tenant_id/compose',
    {
      config: { auth: policyWrite },
      schema: {
        operationId: 'composePolicyVersion',
        tags,
        summary: 'Compose a policy version',
        description:
          'Stores the content as the tenant\'s next version, pending_signatures, and returns the EIP-712 typed data each signer signs (domain Steward Policy / 1 / chain 8453; ' +
          'message tenantId, policyId, version, contentHash, quorumRequired). Invalid content is 400 request_body_invalid with details.issues (paths under /content). ' +
          `warnings lists lint errors and warnings, quorum_below_active and quorum_exceeds_signers. A version activates once its distinct authorized signers reach its quorum_required and never fewer than the active version's quorum. ${idempotencyNote}`,
        params: PolicyParams,
        headers: IdempotencyKeyHeaders,
        body: ComposeBody,
        response: { 201: ComposeResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await policy.compose(contextOf(request), { ...request.params, ...request.body })
      return markReplayed(reply, replayed).code(201).send(outcome)
    },
  )

  app.post(
    '/v1/policy/:tenant_id/sign',
    {
      config: { auth: policySign },
      schema: {
        operationId: 'signPolicyVersion',
        tags,
        summary: 'Sign a pending policy version',
        description:
          'Each signature is verified against signing_payload and must come from an authorized signer: a wallet linked to the tenant as human, of an active member. ' +
          'Any bad, duplicate (in the request or already recorded) or unauthorized signature is 401 policy_signature_invalid (details: index, address, reason) and nothing is recorded. ' +
          'A version not awaiting signatures (active or superseded) is 409 policy_quorum_not_met. At quorum the version activates; the previous active one gets deactivated_at, ' +
          'and older pending versions are superseded. ' +
          `${idempotencyNote} A replay answers as the first call did, even once the version it activated no longer awaits signatures; a refused call stores nothing.`,
        params: PolicyParams,
        headers: IdempotencyKeyHeaders,
        body: SignBody,
        response: { 200: SignResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await policy.sign(contextOf(request), { ...request.params, ...request.body })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.get(
    '/v1/policy/:tenant_id/versions',
    {
      config: { auth: policyRead },
      schema: {
        operationId: 'listPolicyVersions',
        tags,
        summary: 'Policy versions',
        description: 'Every version, newest first: pending, active and superseded (state says which).',
        params: PolicyParams,
        querystring: VersionsQuery,
        response: { 200: VersionList },
      },
    },
    async (request) => policy.versions(principalOf(request).tenantId, request.query),
  )

  app.post(
    '/v1/policy/:tenant_id/evaluate',
    {
      config: { auth: policyRead },
      schema: {
        operationId: 'evaluatePolicy',
        tags,
        summary: 'Evaluate an action against the active policy',
        description:
          'Accepts only kind, counterparty_id, amount, agent_role and timestamp. Reserves nothing, proposes nothing and issues no verdict, but every call records a policy.evaluate audit event ' +
          'and emits the policy.evaluate webhook event. Rules on agent_id, tenant_category, confidence, evidence_score, risk_level, spend_in_window, tx_count_in_window, ' +
          'behavior_hash or action_id see those keys unpopulated here and may evaluate differently in the gate. An amount with more fraction digits than its currency has is 400 validation_failed (nothing is recorded). ' +
          `${idempotencyNote} A replay returns the first decision and audit_event_id and records nothing more, even if another version has been activated since.`,
        params: PolicyParams,
        headers: IdempotencyKeyHeaders,
        body: EvaluateBody,
        response: { 200: EvaluateResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await policy.evaluate(contextOf(request), { ...request.params, ...request.body })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/policy/:tenant_id/lint',
    {
      config: { auth: policyRead },
      schema: {
        operationId: 'lintPolicyContent',
        tags,
        summary: 'Lint policy content',
        description: `Never refuses the content: schema violations, unknown keys, unreachable or shadowed rules, missing lists, currency mismatches, money auto-execution without caps… are findings. ${keylessNote}`,
        params: PolicyParams,
        body: LintBody,
        response: { 200: LintResponse },
      },
    },
    async (request) => policy.lint(principalOf(request).tenantId, request.body.policy_content),
  )

  app.post(
    '/v1/policy/:tenant_id/simulate',
    {
      config: { auth: policyRead },
      schema: {
        operationId: 'simulatePolicy',
        tags,
        summary: 'Simulate an action against a stored version',
        description: `Any version (pending ones too). The action may also carry the gate-populated fields. Records nothing. 404 policy_not_found for an unknown version; 400 validation_failed for an amount with more fraction digits than its currency has. ${keylessNote}`,
        params: PolicyParams,
        body: SimulateBody,
        response: { 200: SimulateResponse },
      },
    },
    async (request) => policy.simulate(principalOf(request).tenantId, request.body),
  )

  app.post(
    '/v1/policy/:tenant_id/simulate-historical',
    {
      config: { auth: historyRead },
      schema: {
        operationId: 'simulatePolicyHistorically',
        tags,
        summary: 'Simulate candidate content against recorded history',
        description:
          'Replays the tenant\'s recorded outflows dated in the period (current Ledger transactions, direction outflow, as outbound_payment actions: amount = the magnitude, ' +
          `counterparty_id) through the candidate and the active policy. ${historicalLimitsNote} At most ${historicalScanRowsMax} actions (oldest first; truncated says when there were more). ` +
          `Records nothing. ${keylessNote}`,
        params: PolicyParams,
        body: SimulateHistoricalBody,
        response: { 200: SimulateHistoricalResponse },
      },
    },
    async (request) => policy.simulateHistorical(principalOf(request).tenantId, request.body),
  )

  app.post(
    '/v1/policy/:tenant_id/diff',
    {
      config: { auth: policyRead },
      schema: {
        operationId: 'diffPolicyVersions',
        tags,
        summary: 'Diff two stored versions',
        description: `Rules matched by id: added, removed, and modified (one entry per changed field). 404 policy_not_found for an unknown version. ${keylessNote}`,
        params: PolicyParams,
        body: DiffBody,
        response: { 200: DiffResponse },
      },
    },
    async (request) => policy.diff(principalOf(request).tenantId, request.body),
  )

  app.post(
    '/v1/tenants/:tenant_id/wallets',
    {
      config: { auth: policyWrite },
      schema: {
        operationId: 'linkWallet',
        tags: ['Wallets'],
        summary: 'Link a wallet',
        description:
          'Links an address to this tenant (stored lower-cased). An address is linked to at most one tenant in the service: 409 wallet_already_linked. ' +
          'An address an agent is registered with (in any tenant, or on chain) is 409 wallet_already_linked too, unless this is that agent\'s own link (principal_type agent, principal_id the agent, this tenant): no tenant can take another\'s agent wallet. ' +
          'A human wallet is the calling member\'s own (principal_id omitted or the caller\'s user id; anyone else\'s is 400): it signs in as them by SIWX and is an authorized policy signer while they are active. An agent wallet needs principal_id. ' +
          `${idempotencyNote} A replay returns the linked wallet rather than 409 wallet_already_linked.`,
        params: TenantPathParams,
        headers: IdempotencyKeyHeaders,
        body: LinkWalletBody,
        response: { 201: Wallet },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await wallets.link(contextOf(request), { ...request.params, ...request.body })
      return markReplayed(reply, replayed).code(201).send(outcome)
    },
  )

  app.delete(
    '/v1/tenants/:tenant_id/wallets/:wallet_id',
    {
      config: { auth: policyWrite },
      schema: {
        operationId: 'unlinkWallet',
        tags: ['Wallets'],
        summary: 'Unlink a wallet',
        description:
          'Unlinks a wallet of this tenant (any principal type): the address no longer signs in here through the link (an agent wallet the chain registers still signs in as its agent), a member\'s token from a SIWX sign-in with it stops working, it no longer counts as a policy signer, and it may be linked again, here or by another tenant. ' +
          'Policy signatures already recorded keep their signer addresses. Audited wallet.unlinked with what the link was. An id that names no wallet of this tenant is 404 wallet_not_found; ' +
          'a wallet whose signature holds the active policy\'s quorum is 409 wallet_signs_active_policy (the gate counts the signers again on every payment): activate a version signed without it first. ' +
          `${idempotencyNote} A replay returns the same answer rather than 404.`,
        params: WalletPathParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: UnlinkedWallet },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await wallets.unlink(contextOf(request), request.params)
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.get(
    '/v1/tenants/:tenant_id/wallets',
    {
      config: { auth: walletRead },
      schema: { operationId: 'listWallets', tags: ['Wallets'], summary: 'List linked wallets', description: 'Ordered by id.', params: TenantPathParams, querystring: WalletListQuery, response: { 200: WalletList } },
    },
    async (request) => wallets.list(principalOf(request).tenantId, request.query),
  )
}
