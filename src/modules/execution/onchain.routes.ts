/**
 * The onchain_base rail's registrations: a tenant's admin registers the smart account that pays for a
 * Ledger USD account and gets the address of the session key to add on chain; anyone who reads
 * executions reads a registration back. Another tenant's account is 404 onchain_account_not_found.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { contextOf, principalOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute } from '../../platform/http/route-auth.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import type { OnchainAccountsService } from './onchain-accounts.service.ts'
import * as onchainSchemas from './onchain.schemas.ts'
import { OnchainAccount, OnchainAccountParams, RegisterOnchainAccountBody } from './onchain.schemas.ts'

const tags = ['Execution']

export const onchainRoutes: FastifyPluginAsyncTypebox<{ accounts: OnchainAccountsService }> = async (app, { accounts }) => {
  registerNamedSchemas(app, [...Object.values(onchainSchemas)])

  app.post(
    '/v1/execution/onchain-accounts',
    {
      config: { auth: bearerRoute(['execution:admin']) },
      schema: {
        operationId: 'registerOnchainAccount',
        tags,
        summary: 'Register the smart account that pays for a Ledger account (onchain_base)',
        description:
          "Binds one of the tenant's Ledger USD accounts to a SmartAccount and the USDC it pays in, on the chain the onchain_base rail serves, and answers the address of the session key Steward will sign with: add it on chain with addSessionKey(key, token, cap, expiry) (the cap in USDC base units, 6 decimals). onchain_transfer amounts are USD, paid one for one in USDC. " +
          '201 when registered (audited execution.onchain_account.registered); 200 when the account is already registered with exactly these terms. 404 ledger_account_not_found when the account is not the tenant\'s; 400 validation_failed for an address that is not one (or zero), an account not in USD, or a token without 6 decimals on the chain; 409 onchain_account_already_registered when registered with other terms (a registration does not change); 409 onchain_rail_not_configured when the deployment has no chain; 503 service_unavailable when the chain cannot be asked. ' +
          'With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.',
        headers: IdempotencyKeyHeaders,
        body: RegisterOnchainAccountBody,
        response: { 200: OnchainAccount, 201: OnchainAccount },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await accounts.register(contextOf(request), request.body)
      return markReplayed(reply, replayed).code(outcome.kind === 'created' ? 201 : 200).send(outcome.account)
    },
  )

  app.get(
    '/v1/execution/onchain-accounts/:account_id',
    {
      config: { auth: bearerRoute(['execution:read']) },
      schema: {
        operationId: 'getOnchainAccount',
        tags,
        summary: "Read a Ledger account's smart-account registration (onchain_base)",
        description: 'The registration as it was made, with the session key address to add on chain. 404 onchain_account_not_found when the account has none in the tenant.',
        params: OnchainAccountParams,
        response: { 200: OnchainAccount },
      },
    },
    async (request) => accounts.get(principalOf(request).tenantId, request.params.account_id),
  )
}
