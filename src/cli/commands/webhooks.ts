/**
 * `steward webhooks listen --forward-to URL`: receives the tenant's events through the API (polling GET
 * /v1/events) and POSTs each to a local URL, signed per Standard Webhooks with a secret of this session
 * (printed at start, or given with --secret), as `stripe listen` does: a receiver under development
 * gets what a registered endpoint would, without being reachable from the server.
 */
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { normalizeBaseUrl } from '../api.ts'
import { CliError, exitCodes } from '../context.ts'
import { follow } from '../follow.ts'
import { followOverlapMs, parseCount, parseSince, pollIntervalMsDefault, serverNow } from './audit.ts'
import type { CommandDefinition } from './definition.ts'

interface BusinessEvent {
  type: string
  id: string
  created_at: string
  tenant_id: string
  audit_event_id: string | null
  data: Record<string, unknown>
}

/** Events per page (the route's maximum), and how long a forward may take (the server's delivery timeout). */
const eventPageRows = 1000
const forwardTimeoutMs = 10_000
const secretPattern = /^whsec_[A-Za-z0-9+/]+={0,2}$/

export const webhooksListen: CommandDefinition = {
  path: ['webhooks', 'listen'],
  summary: 'Forward your tenant\'s events to a local URL, signed',
  usage: 'steward webhooks listen --forward-to URL [--events TYPE,TYPE] [--secret whsec_…] [--since TIMESTAMP] [--max N] [--interval-ms MS (2000)] [--json]',
  help: [
    'Polls GET /v1/events (scope surfaces:admin) from now (or --since) and POSTs each event, with the body a webhook',
    'endpoint gets, to --forward-to, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature)',
    'with this session\'s secret: printed at start, or --secret / STEWARD_LISTEN_SECRET. A failed forward is reported',
    'and not retried. Runs until Ctrl-C or --max events. --json prints a ready line, then one line per forward.',
  ].join('\n'),
  options: {
    'forward-to': { type: 'string' },
    events: { type: 'string' },
    secret: { type: 'string' },
    since: { type: 'string' },
    max: { type: 'string' },
    'interval-ms': { type: 'string' },
  },
  async run(context) {
    const forwardToRaw = context.values['forward-to']
    if (typeof forwardToRaw !== 'string') throw new CliError(exitCodes.usage, '--forward-to URL is required (http://localhost:PORT/path)')
    let forwardTo: string
    try {
      // Checked as a base URL is (http or https), but kept whole: its path and query are where events go.
      normalizeBaseUrl(forwardToRaw)
      forwardTo = new URL(forwardToRaw).toString()
    } catch (error) {
      throw new CliError(exitCodes.usage, `--forward-to: ${(error as Error).message}`)
    }
    const secret = (context.values.secret as string | undefined) ?? (context.env.STEWARD_LISTEN_SECRET || undefined) ?? `whsec_${randomBytes(32).toString('base64')}`
    if (!secretPattern.test(secret)) throw new CliError(exitCodes.usage, '--secret must be whsec_ followed by base64')
    const signer = new Webhook(secret)
    const api = context.tenantApi()
    const start = parseSince(context) ?? (await serverNow(api))
    const types = context.values.events as string | undefined

    if (context.output.json) context.output.data({ ready: true, forward_to: forwardTo, secret, since: start.toISOString() }, true)
    else context.output.note(`Ready. Forwarding events of ${api.baseUrl} to ${forwardTo}\nWebhook signing secret for this session: ${secret}\n(Ctrl-C to stop)`)

    let failures = 0
    await follow<BusinessEvent>({
      start,
      async fetchPage(since, continuation) {
        const page = await api.get<{ events: BusinessEvent[]; has_more: boolean }>('/v1/events', {
          since: since.toISOString(),
          after: continuation ?? undefined,
          types,
          limit: eventPageRows,
        })
        return { items: page.events, continuation: page.has_more ? (page.events.at(-1)?.id ?? null) : null }
      },
      async handle(event) {
        const body = JSON.stringify(event)
        const at = new Date(Math.floor(Date.now() / 1000) * 1000)
        const headers = {
          'content-type': 'application/json',
          'user-agent': 'Steward-CLI-Listen/1',
          'webhook-id': event.id,
          'webhook-timestamp': String(at.getTime() / 1000),
          'webhook-signature': signer.sign(event.id, at, body),
        }
        let status: number | null = null
        let error: string | null = null
        try {
          const response = await fetch(forwardTo, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(forwardTimeoutMs) })
          await response.arrayBuffer().catch(() => undefined)
          status = response.status
          if (status < 200 || status > 299) error = `HTTP ${status}`
        } catch (cause) {
          const inner = (cause as { cause?: { message?: string } }).cause
          error = inner?.message ?? (cause as Error).message
        }
        if (error !== null) failures += 1
        if (context.output.json) context.output.data({ event_id: event.id, type: event.type, created_at: event.created_at, status, error }, true)
        else context.output.line(`${event.created_at}  ${event.type.padEnd(32)} ${event.id}  → ${status ?? '---'}${error === null ? '' : `  ${error}`}`)
      },
      pollIntervalMs: parseCount(context, 'interval-ms') || pollIntervalMsDefault,
      overlapMs: followOverlapMs,
      maxItems: parseCount(context, 'max'),
      signal: context.signal,
    })
    if (failures > 0 && !context.output.json) context.output.note(`${failures} forward(s) failed`)
    return exitCodes.ok
  },
}
