/**
 * Where `steward login` keeps its credentials: `$XDG_CONFIG_HOME/steward/config.json` (or
 * `~/.config/steward/config.json`), one entry per profile, readable by its owner only (the directory
 * 0700, the file 0600, re-applied on every write). A profile holds the API's URL and one credential: an
 * owner or member access token (15 minutes; `steward login` again when it expires) or an API key.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'

export interface Profile {
  readonly url: string
  readonly credential: { readonly type: 'access_token'; readonly token: string; readonly expires_at: string } | { readonly type: 'api_key'; readonly key: string }
  readonly tenant_id: string
  readonly principal_id: string
  readonly email?: string | undefined
}

interface ConfigFile {
  profiles: Record<string, Profile>
}

export const profileNamePattern = /^[A-Za-z0-9_.-]{1,64}$/

export function configPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config')
  return join(base, 'steward', 'config.json')
}

function readConfig(path: string): ConfigFile {
  if (!existsSync(path)) return { profiles: {} }
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ConfigFile>
  return { profiles: parsed.profiles ?? {} }
}

export function readProfile(path: string, name: string): Profile | undefined {
  return readConfig(path).profiles[name]
}

function writeConfig(path: string, config: ConfigFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  chmodSync(dirname(path), 0o700)
  // Written beside and renamed, so a crash never leaves half a file; created 0600 so no other user can read it at any moment.
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 })
  chmodSync(temporary, 0o600)
  renameSync(temporary, path)
}

export function saveProfile(path: string, name: string, profile: Profile): void {
  const config = readConfig(path)
  config.profiles[name] = profile
  writeConfig(path, config)
}

/** Removes the profile; false when there was none. */
export function removeProfile(path: string, name: string): boolean {
  const config = readConfig(path)
  if (config.profiles[name] === undefined) return false
  delete config.profiles[name]
  writeConfig(path, config)
  return true
}
