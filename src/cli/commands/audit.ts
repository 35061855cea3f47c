/** `steward audit tail` (follow the tenant's audit events) and `steward audit verify` (walk the chain). */
import type { ApiClient } from '../api.ts'
import { CliError, exitCodes, type CommandContext } from '../context.ts'
import { follow } from '../follow.ts'
import type { CommandDefinition } from './definition.ts'

interface AuditEvent {
  id: string
  seq: number | null
  layer: string
  actor: { type: string; id: string }
  action: string
  entity: { type: string; id: string }
  created_at: string
}

interface ChainVerification {
  tenant_id: string
  ok: boolean
  events_checked: number
  anchors_checked: number
  head_seq: number
  unsequenced: number
  first_break: { seq: number | null; event_id: string | null; anchor_id: string | null; problem: string; expected: string; found: string } | null
}

/** How often tail and listen poll by default: 30 requests a minute, half of the smallest tier's rate limit. */
export const pollIntervalMsDefault = 2000
/** Audit events per page read by tail (the route's maximum). */
const tailPageRows = 1000
/** Re-read this far behind the newest event seen (follow.ts): events of transactions that commit later than this are missed. */
export const followOverlapMs = 30_000

/** The server's clock now, from a response's Date header (whole seconds), so a client with a skewed clock misses nothing. */
export async function serverNow(api: ApiClient): Promise<Date> {
  const { headers } = await api.request('GET', '/v1/auth/whoami')
  const date = Date.parse(headers.get('date') ?? '')
  return Number.isNaN(date) ? new Date() : new Date(date)
}

export function parseCount(context: CommandContext, name: string): number {
  const raw = context.values[name]
  if (raw === undefined) return 0
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0) throw new CliError(exitCodes.usage, `--${name} must be a whole number`)
  return value
}

export function parseSince(context: CommandContext): Date | undefined {
  const raw = context.values.since
  if (typeof raw !== 'string') return undefined
  const since = new Date(raw)
  if (Number.isNaN(since.getTime())) throw new CliError(exitCodes.usage, '--since must be an ISO 8601 timestamp (2026-01-31T09:00:00Z)')
  return since
}

export const auditTail: CommandDefinition = {
  path: ['audit', 'tail'],
  summary: 'Follow your tenant\'s audit events as they are recorded',
  usage: 'steward audit tail [--since TIMESTAMP] [--layer L] [--actor A] [--max N] [--interval-ms MS (2000)] [--no-follow] [--json]',
  help: [
    'Prints audit events from now (or --since) and keeps polling GET /v1/audit/events for new ones until Ctrl-C,',
    'or --max events, or, with --no-follow, once the events so far are printed. --json prints one JSON event per line.',
  ].join('\n'),
  options: { since: { type: 'string' }, layer: { type: 'string' }, actor: { type: 'string' }, max: { type: 'string' }, 'interval-ms': { type: 'string' }, 'no-follow': { type: 'boolean' } },
  async run(context) {
    const api = context.tenantApi()
    const start = parseSince(context) ?? (await serverNow(api))
    const maxItems = parseCount(context, 'max')
    const noFollow = context.values['no-follow'] === true
    const stop = new AbortController()
    context.signal.addEventListener('abort', () => stop.abort(), { once: true })
    // On stderr, so stdout stays the events alone (one JSON line each with --json).
    context.output.note(`Following the audit events of ${api.baseUrl} since ${start.toISOString()}${noFollow ? '' : ' (Ctrl-C to stop)'}`)
    const print = (event: AuditEvent) => {
      if (context.output.json) context.output.data(event, true)
      else context.output.line(`${event.created_at}  ${event.layer.padEnd(9)} ${event.action.padEnd(32)} ${event.actor.type}:${event.actor.id}  ${event.entity.type}:${event.entity.id}  ${event.id}`)
    }
    await follow<AuditEvent>({
      start,
      async fetchPage(since, continuation) {
        const page = await api.get<{ events: AuditEvent[]; next_cursor: string | null }>('/v1/audit/events', {
          since: since.toISOString(),
          layer: context.values.layer as string | undefined,
          actor: context.values.actor as string | undefined,
          limit: tailPageRows,
          cursor: continuation ?? undefined,
        })
        // --no-follow: one pass over what exists now, then stop.
        if (noFollow && page.next_cursor === null) stop.abort()
        return { items: page.events, continuation: page.next_cursor }
      },
      handle: async (event) => print(event),
      pollIntervalMs: parseCount(context, 'interval-ms') || pollIntervalMsDefault,
      overlapMs: followOverlapMs,
      maxItems,
      signal: stop.signal,
    })
    return exitCodes.ok
  },
}

export const auditVerify: CommandDefinition = {
  path: ['audit', 'verify'],
  summary: 'Verify your tenant\'s audit chain (or, as an operator, any tenant\'s)',
  usage: 'steward audit verify [--skip-anchors] [--tenant UUID] [--json]',
  help: [
    'Walks the chain on the server (GET /v1/audit/chain) and names the first broken link. With --tenant, as an',
    'operator: GET /v1/platform/audit/chain with PLATFORM_SERVICE_SECRET. Exit 0 whole, 1 broken (or refused).',
  ].join('\n'),
  options: { 'skip-anchors': { type: 'boolean' }, tenant: { type: 'string' } },
  async run(context) {
    const checkAnchors = context.values['skip-anchors'] !== true
    const tenant = context.values.tenant as string | undefined
    const result =
      tenant === undefined
        ? await context.tenantApi().get<ChainVerification>('/v1/audit/chain', { check_anchors: checkAnchors })
        : await context.platformApi().get<ChainVerification>('/v1/platform/audit/chain', { tenant_id: tenant, check_anchors: checkAnchors })
    if (context.output.json) {
      context.output.data(result)
    } else if (result.ok) {
      context.output.line(
        `Audit chain of tenant ${result.tenant_id} is whole: ${result.events_checked} events, ${result.anchors_checked} Merkle batches checked (head seq ${result.head_seq}; ${result.unsequenced} not linked yet).`,
      )
    } else {
      const problem = result.first_break!
      context.output.line(
        `Audit chain of tenant ${result.tenant_id} is BROKEN at ${problem.seq === null ? `anchor ${problem.anchor_id}` : `seq ${problem.seq}`}${problem.event_id === null ? '' : ` (${problem.event_id})`}: ${problem.problem}; expected ${problem.expected}, found ${problem.found}.`,
      )
    }
    return result.ok ? exitCodes.ok : exitCodes.failed
  },
}
