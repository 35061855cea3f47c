/**
 * One delivery attempt: the URL is checked and resolved again (DNS can change after registration), the
 * connection is pinned to the checked address, the payload is signed per Standard Webhooks and POSTed.
 * A 2xx answer is success; anything else, a refusal, a connection failure or the timeout is a failure.
 * The response body is never read or stored: only the status code and a short description of the cause.
 */
import type { Clock } from '../../kernel/clock.ts'
import { EgressRefusedError, EgressRequestError, resolveEgressTarget, sendPinned, type EgressPolicy, type HostResolver } from '../../platform/net/egress.ts'
import { boundedError, webhookPayload } from './domain/delivery.ts'
import { signatureHeaders } from './signing.ts'
import type { EndpointRow, EventRow } from './webhooks.store.ts'

/**
 * The addresses endpoint URLs may reach: public ones only, in every environment (a sandbox is as open
 * to signups as production is to tenants, and a POST to 169.254.169.254 or 10.0.0.5:6379 is the same
 * request there). Production also needs https. WEBHOOK_ALLOW_LOOPBACK lets a sandbox deliver to a
 * receiver on its own machine; private, link-local and other special ranges stay refused.
 */
export function webhookEgressPolicy(environment: 'sandbox' | 'production', options: { allowLoopback: boolean }): EgressPolicy {
  const production = environment === 'production'
  return { httpsOnly: production, allowNonPublicAddresses: false, allowLoopback: !production && options.allowLoopback }
}

/** How long one attempt may take, from connect to response headers. */
export const deliveryTimeoutMsDefault = 10_000
export const deliveryUserAgent = 'Steward-Webhooks/1'

export type AttemptOutcome =
  | { readonly ok: true; readonly statusCode: number }
  | { readonly ok: false; readonly statusCode: number | null; readonly error: string }

export interface WebhookSender {
  send(endpoint: EndpointRow, event: EventRow): Promise<AttemptOutcome>
}

/** The secrets a message is signed with now: the current one, and the previous one while its overlap lasts. */
export function activeSecrets(endpoint: Pick<EndpointRow, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>, now: Date): string[] {
  const previousActive =
    endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt.getTime() > now.getTime()
  return previousActive ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret]
}

export function createWebhookSender(deps: { policy: EgressPolicy; resolver: HostResolver; timeoutMs: number; clock: Clock }): WebhookSender {
  return {
    async send(endpoint, event) {
      let target
      try {
        target = await resolveEgressTarget(endpoint.url, deps.policy, deps.resolver)
      } catch (error) {
        if (error instanceof EgressRefusedError) return { ok: false, statusCode: null, error: boundedError(`URL refused: ${error.message}`) }
        throw error
      }
      const body = JSON.stringify(webhookPayload(event))
      const now = deps.clock.now()
      try {
        const response = await sendPinned(target, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': deliveryUserAgent,
            ...signatureHeaders(activeSecrets(endpoint, now), event.id, now, body),
          },
          body,
          timeoutMs: deps.timeoutMs,
          responseBytesMax: 0,
        })
        if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, statusCode: response.statusCode }
        return { ok: false, statusCode: response.statusCode, error: `HTTP ${response.statusCode}` }
      } catch (error) {
        if (error instanceof EgressRequestError) return { ok: false, statusCode: null, error: boundedError(`${error.reason}: ${error.message}`) }
        throw error
      }
    },
  }
}
