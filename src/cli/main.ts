/**
 * `steward`: the command-line client of the Steward API (bin/steward.mjs). Every command talks to a
 * running server over HTTP — none opens the database — so they all work while the server runs, on
 * either engine. Tenant commands use the profile `steward login` saved; operator commands (`connectors
 * …`, `audit verify --tenant`) use the server's platform secret. No server code imports this folder.
 *
 * Exit statuses: 0 done; 1 the API refused (its error message printed) or the outcome is a failure;
 * 2 usage; 69 the API could not be reached; 77 not logged in; 78 configuration (a bad URL,
 * PLATFORM_SERVICE_SECRET unset for an operator command).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { ApiError, UnreachableError } from './api.ts'
import { auditTail, auditVerify } from './commands/audit.ts'
import { connectorCommands } from './commands/connectors.ts'
import type { CommandDefinition } from './commands/definition.ts'
import { ledgerTransactions } from './commands/ledger.ts'
import { rawUpload } from './commands/raw.ts'
import { login, logout, whoami } from './commands/session.ts'
import { webhooksListen } from './commands/webhooks.ts'
import { CliError, createCommandContext, describeApiError, exitCodes } from './context.ts'
import { createOutput } from './output.ts'
import { profileNamePattern } from './profiles.ts'

export const commands: readonly CommandDefinition[] = [login, logout, whoami, rawUpload, ledgerTransactions, auditTail, auditVerify, webhooksListen, ...connectorCommands]

const globalOptions = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  profile: { type: 'string' },
  url: { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>

const globalHelp = `Options for every command:
  --json            print JSON instead of text
  --profile NAME    the saved login to use (default: STEWARD_PROFILE, else "default")
  --url URL         the API (default: STEWARD_URL, else the profile's, else PUBLIC_BASE_URL, else http://localhost:$PORT)
  -h, --help        this help

Exit status: 0 done, 1 refused by the API or a failed outcome, 2 usage, 69 API unreachable, 77 not logged in, 78 configuration.`

function overview(): string {
  const width = Math.max(...commands.map((command) => command.path.join(' ').length))
  return [
    'usage: steward <command> [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.path.join(' ').padEnd(width)}  ${command.summary}`),
    '',
    globalHelp,
    '',
    'steward <command> --help describes one command.',
  ].join('\n')
}

function commandHelp(command: CommandDefinition): string {
  return [`usage: ${command.usage}`, '', command.summary + '.', ...(command.help === undefined ? [] : ['', command.help]), '', globalHelp].join('\n')
}

/** The command named by the leading words of argv, and the arguments after them. */
function findCommand(argv: readonly string[]): { command: CommandDefinition; rest: string[] } | undefined {
  let best: { command: CommandDefinition; rest: string[] } | undefined
  for (const command of commands) {
    if (command.path.every((word, index) => argv[index] === word) && (best === undefined || command.path.length > best.command.path.length)) {
      best = { command, rest: argv.slice(command.path.length) }
    }
  }
  return best
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<number> {
  const wantsJson = argv.includes('--json')
  const output = createOutput(wantsJson)
  const found = findCommand(argv)
  if (found === undefined) {
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      output.line(overview())
      return argv.length === 0 ? exitCodes.usage : exitCodes.ok
    }
    const group = commands.filter((command) => command.path[0] === argv[0])
    output.note(
      group.length > 0
        ? `steward ${argv[0]}: name one of ${group.map((command) => command.path.slice(1).join(' ')).join(', ')}`
        : `steward: unknown command ${JSON.stringify(argv[0])}\n\n${overview()}`,
    )
    return exitCodes.usage
  }
  const { command, rest } = found
  let parsed
  try {
    parsed = parseArgs({ args: rest, options: { ...globalOptions, ...command.options }, allowPositionals: true, strict: true })
  } catch (error) {
    output.note(`steward ${command.path.join(' ')}: ${(error as Error).message}\nusage: ${command.usage}`)
    return exitCodes.usage
  }
  if (parsed.values.help === true) {
    output.line(commandHelp(command))
    return exitCodes.ok
  }
  if (typeof parsed.values.profile === 'string' && !profileNamePattern.test(parsed.values.profile)) {
    output.note('--profile must be 1 to 64 letters, digits, _ . or -')
    return exitCodes.usage
  }
  const context = createCommandContext({ values: parsed.values, positionals: parsed.positionals, env, output: createOutput(parsed.values.json === true), signal })
  try {
    return await command.run(context)
  } catch (error) {
    if (error instanceof CliError) {
      output.note(`steward ${command.path.join(' ')}: ${error.message}`)
      return error.exitCode
    }
    if (error instanceof ApiError) {
      // An operator's 401 is the platform secret, not a login.
      const message = command.operator === true ? `${error.message} [${error.code}${error.requestId === undefined ? '' : `, request ${error.requestId}`}]` : describeApiError(error)
      output.note(`steward ${command.path.join(' ')}: ${message}`)
      return exitCodes.failed
    }
    if (error instanceof UnreachableError) {
      output.note(`steward ${command.path.join(' ')}: ${error.message} (is the server running? --url / STEWARD_URL say where it is)`)
      return exitCodes.unavailable
    }
    throw error
  }
}
