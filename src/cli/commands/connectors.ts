/**
 * `steward connectors add|list|pause|resume|rotate-secret|revoke` (and `npm run connectors`): the
 * operator's client of /v1/platform/connectors…, with the server's platform secret
 * (PLATFORM_SERVICE_SECRET, sent as X-Platform-Service-Auth) at STEWARD_URL or PUBLIC_BASE_URL. It
 * talks to the running server, so it works while the server runs, on either engine.
 */
import { CliError, exitCodes, type CommandContext } from '../context.ts'
import type { CommandDefinition } from './definition.ts'

interface Connection {
  connection_id: string
  tenant_id: string
  provider: string
  account_ref: string
  status: string
  updated_at: string
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const describe = (connection: Connection) =>
  `${connection.connection_id}  ${connection.provider}  ${connection.account_ref}  ${connection.status}  (updated ${connection.updated_at})`

const connectionOptions = {
  tenant: { type: 'string' },
  provider: { type: 'string' },
  account: { type: 'string' },
  'idempotency-key': { type: 'string' },
} as const

function tenantOf(context: CommandContext): string {
  const tenant = context.values.tenant
  if (typeof tenant !== 'string' || !uuidPattern.test(tenant)) throw new CliError(exitCodes.usage, '--tenant must be a tenant uuid')
  return tenant
}

function connectionBody(context: CommandContext) {
  const tenant_id = tenantOf(context)
  const provider = context.values.provider
  const account = context.values.account
  if (typeof provider !== 'string' || provider === '') throw new CliError(exitCodes.usage, '--provider is required (bank_provider, card_processor, chain_indexer, erp_provider, generic_hmac)')
  if (typeof account !== 'string' || account === '') throw new CliError(exitCodes.usage, '--account is required (the X-Provider-Account of its webhooks)')
  return { tenant_id, provider, account_ref: account }
}

function noPositionals(context: CommandContext) {
  if (context.positionals.length > 0) throw new CliError(exitCodes.usage, `unexpected argument ${context.positionals[0]}`)
}

/** Idempotency-Key: the one given, else a fresh one per run (a retry of the same run's request replays). */
const keyOf = (context: CommandContext): string | true => (context.values['idempotency-key'] as string | undefined) ?? true

const help = [
  'Operator commands: they send PLATFORM_SERVICE_SECRET (X-Platform-Service-Auth) to STEWARD_URL, else PUBLIC_BASE_URL,',
  'else http://localhost:$PORT. Every change is audited and emits raw.source.status_changed.',
].join('\n')

export const connectorsList: CommandDefinition = {
  path: ['connectors', 'list'],
  summary: 'List a tenant\'s provider connections (operator)',
  usage: 'steward connectors list --tenant UUID [--json]',
  help,
  operator: true,
  options: { tenant: { type: 'string' } },
  async run(context) {
    noPositionals(context)
    const tenant = tenantOf(context)
    const { connections } = await context.platformApi().get<{ connections: Connection[] }>('/v1/platform/connectors', { tenant_id: tenant })
    if (context.output.json) context.output.data({ connections })
    else context.output.line(connections.length === 0 ? `tenant ${tenant} has no provider connections` : connections.map(describe).join('\n'))
    return exitCodes.ok
  },
}

function withSecret(verb: 'add' | 'rotate-secret'): CommandDefinition {
  return {
    path: ['connectors', verb],
    summary: verb === 'add' ? 'Connect a provider account to a tenant and print its secret once (operator)' : 'Give a connection a new secret, printed once (operator)',
    usage: `steward connectors ${verb} --tenant UUID --provider PROVIDER --account ACCOUNT [--idempotency-key KEY] [--json]`,
    help,
    operator: true,
    options: connectionOptions,
    async run(context) {
      noPositionals(context)
      const body = connectionBody(context)
      const path = verb === 'add' ? '/v1/platform/connectors' : '/v1/platform/connectors/rotate-secret'
      const answer = await context.platformApi().post<{ connection: Connection; secret: string; webhook_url: string }>(path, body, { idempotencyKey: keyOf(context) })
      if (context.output.json) {
        context.output.data(answer)
      } else {
        context.output.line(
          [
            `${verb === 'add' ? 'Connected' : 'Rotated the secret of'} ${describe(answer.connection)}`,
            `Webhook URL:              ${answer.webhook_url}`,
            `Header X-Provider-Account: ${answer.connection.account_ref}`,
            `Signing secret (shown once, store it now): ${answer.secret}`,
            'Sign each delivery: X-Provider-Signature: t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>." + body)> (docs/raw.md).',
          ].join('\n'),
        )
      }
      return exitCodes.ok
    },
  }
}

function move(verb: 'pause' | 'resume' | 'revoke'): CommandDefinition {
  return {
    path: ['connectors', verb],
    summary: `${verb[0]!.toUpperCase()}${verb.slice(1)} a provider connection (operator)`,
    usage: `steward connectors ${verb} --tenant UUID --provider PROVIDER --account ACCOUNT [--idempotency-key KEY] [--json]`,
    help,
    operator: true,
    options: connectionOptions,
    async run(context) {
      noPositionals(context)
      const answer = await context.platformApi().post<{ connection: Connection; changed: boolean }>(`/v1/platform/connectors/${verb}`, connectionBody(context), {
        idempotencyKey: keyOf(context),
      })
      if (context.output.json) context.output.data(answer)
      else context.output.line(`${answer.changed ? 'Now' : 'Already'} ${describe(answer.connection)}`)
      return exitCodes.ok
    },
  }
}

export const connectorCommands: readonly CommandDefinition[] = [connectorsList, withSecret('add'), move('pause'), move('resume'), withSecret('rotate-secret'), move('revoke')]
