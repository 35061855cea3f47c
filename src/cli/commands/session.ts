/** `steward login`, `steward logout`, `steward whoami`: the profile's credential. */
import { createInterface } from 'node:readline'
import { createApiClient } from '../api.ts'
import { CliError, exitCodes, type CommandContext } from '../context.ts'
import { removeProfile, saveProfile, type Profile } from '../profiles.ts'
import type { CommandDefinition } from './definition.ts'

interface Principal {
  id: string
  type: string
  tenantId: string
  scopes: string[]
}

const string = (context: CommandContext, name: string) => (typeof context.values[name] === 'string' ? (context.values[name] as string) : undefined)
const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value)

/** Reads a line from the terminal; with `hidden`, nothing typed is echoed (a password). */
function prompt(question: string, hidden: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const readline = createInterface({ input: process.stdin, output: process.stderr, terminal: true })
    if (hidden) {
      // Echo nothing of what is typed: readline writes through _writeToOutput.
      const internal = readline as unknown as { _writeToOutput: (text: string) => void }
      internal._writeToOutput = (text: string) => {
        if (text.startsWith(question)) process.stderr.write(question)
      }
    }
    readline.question(question, (answer) => {
      readline.close()
      if (hidden) process.stderr.write('\n')
      resolve(answer)
    })
    readline.on('SIGINT', () => {
      readline.close()
      reject(new CliError(exitCodes.usage, 'cancelled'))
    })
  })
}

async function readStdin(): Promise<string> {
  let text = ''
  for await (const chunk of process.stdin) text += chunk.toString()
  return text.replace(/\r?\n$/, '')
}

export const login: CommandDefinition = {
  path: ['login'],
  summary: 'Log in and save the credential in the profile',
  usage: 'steward login [--url URL] [--email EMAIL] [--password-stdin] [--api-key KEY] [--profile NAME]',
  help: [
    'With an email and password (flags, STEWARD_EMAIL / STEWARD_PASSWORD, or asked for on a terminal) it saves',
    'an access token (valid 15 minutes; log in again when it expires). With --api-key or STEWARD_API_KEY it saves',
    'the key (read-only scopes). The profile lives in $XDG_CONFIG_HOME/steward/config.json, mode 0600.',
  ].join('\n'),
  options: { email: { type: 'string' }, 'password-stdin': { type: 'boolean' }, 'api-key': { type: 'string' } },
  async run(context) {
    const url = context.baseUrl()
    const apiKey = string(context, 'api-key') ?? nonEmpty(context.env.STEWARD_API_KEY)
    let profile: Profile
    if (apiKey !== undefined) {
      const principal = await createApiClient({ baseUrl: url, credential: { kind: 'bearer', token: apiKey } }).get<Principal>('/v1/auth/whoami')
      profile = { url, credential: { type: 'api_key', key: apiKey }, tenant_id: principal.tenantId, principal_id: principal.id }
    } else {
      const interactive = process.stdin.isTTY === true
      const email = string(context, 'email') ?? nonEmpty(context.env.STEWARD_EMAIL) ?? (interactive ? await prompt('Email: ', false) : undefined)
      if (email === undefined || email === '') throw new CliError(exitCodes.usage, 'an email is required: --email, STEWARD_EMAIL, or a terminal to ask on (or --api-key)')
      const password =
        context.values['password-stdin'] === true ? await readStdin() : (nonEmpty(context.env.STEWARD_PASSWORD) ?? (interactive ? await prompt('Password: ', true) : undefined))
      if (password === undefined || password === '') throw new CliError(exitCodes.usage, 'a password is required: --password-stdin, STEWARD_PASSWORD, or a terminal to ask on')
      const answer = await createApiClient({ baseUrl: url, credential: { kind: 'none' } }).post<{ access_token: string; expires_in: number; principal: Principal }>('/v1/auth/login', { email, password })
      profile = {
        url,
        credential: { type: 'access_token', token: answer.access_token, expires_at: new Date(Date.now() + answer.expires_in * 1000).toISOString() },
        tenant_id: answer.principal.tenantId,
        principal_id: answer.principal.id,
        email,
      }
    }
    saveProfile(context.configPath, context.profileName, profile)
    const summary = { profile: context.profileName, url, tenant_id: profile.tenant_id, principal_id: profile.principal_id, credential: profile.credential.type, config: context.configPath }
    if (context.output.json) context.output.data(summary)
    else context.output.line(`Logged in to ${url} as ${profile.principal_id} (tenant ${profile.tenant_id}); saved in profile ${context.profileName} (${context.configPath})`)
    return exitCodes.ok
  },
}

export const logout: CommandDefinition = {
  path: ['logout'],
  summary: 'Forget the profile\'s credential',
  usage: 'steward logout [--profile NAME]',
  options: {},
  async run(context) {
    const removed = removeProfile(context.configPath, context.profileName)
    if (context.output.json) context.output.data({ profile: context.profileName, removed })
    else context.output.line(removed ? `Logged out (profile ${context.profileName})` : `Profile ${context.profileName} was not logged in`)
    return exitCodes.ok
  },
}

export const whoami: CommandDefinition = {
  path: ['whoami'],
  summary: 'Show who the profile\'s credential is',
  usage: 'steward whoami [--profile NAME] [--json]',
  options: {},
  async run(context) {
    const api = context.tenantApi()
    const principal = await api.get<Principal>('/v1/auth/whoami')
    const saved = context.profile()
    const view = {
      profile: context.profileName,
      url: api.baseUrl,
      principal_id: principal.id,
      principal_type: principal.type,
      tenant_id: principal.tenantId,
      scopes: principal.scopes,
      email: saved?.email ?? null,
      expires_at: saved?.credential.type === 'access_token' ? saved.credential.expires_at : null,
    }
    if (context.output.json) {
      context.output.data(view)
    } else {
      context.output.line(`${view.principal_type} ${view.principal_id}${view.email === null ? '' : ` <${view.email}>`}`)
      context.output.line(`tenant   ${view.tenant_id}`)
      context.output.line(`scopes   ${view.scopes.join(' ')}`)
      context.output.line(`api      ${view.url} (profile ${view.profile}${view.expires_at === null ? '' : `, token expires ${view.expires_at}`})`)
    }
    return exitCodes.ok
  },
}
