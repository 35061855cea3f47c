/**
 * Sandbox convenience: when JWT_SECRET or API_KEY_PEPPER is unset (allowed only outside production),
 * generate one and persist it in DATA_DIR/secrets.json (mode 0600), so tokens and API keys survive a
 * restart of a local sandbox. Production refuses to boot without them (config.ts).
 *
 * Only the server generates them. A separate worker must use the server's: with `generate: false` a
 * missing secret is a ConfigError naming the cause (a worker with a DATA_DIR of its own), where
 * generating would sign with a key no server knows.
 */
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from './config.ts'
import type { ResolvedConfig } from './compose.ts'
import { ConfigError } from './config.ts'
import { assert } from '../kernel/assert.ts'

interface PersistedSecrets {
  jwt_secret?: string
  api_key_pepper?: string
}

export function resolveSecrets(config: Config, options: { readonly generate?: boolean } = {}): ResolvedConfig {
  if (config.jwtSecret !== undefined && config.apiKeyPepper !== undefined) {
    return { ...config, jwtSecret: config.jwtSecret, apiKeyPepper: config.apiKeyPepper }
  }
  assert(config.environment !== 'production', 'production requires JWT_SECRET and API_KEY_PEPPER (config validation should have refused)')
  const path = join(config.dataDir, 'secrets.json')
  const persisted: PersistedSecrets = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as PersistedSecrets) : {}
  if (options.generate === false) {
    const missing = [
      ...(config.jwtSecret === undefined && persisted.jwt_secret === undefined ? ['JWT_SECRET'] : []),
      ...(config.apiKeyPepper === undefined && persisted.api_key_pepper === undefined ? ['API_KEY_PEPPER'] : []),
    ]
    if (missing.length > 0) {
      throw new ConfigError([
        `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} unset and ${path} does not hold ${missing.length > 1 ? 'them' : 'it'}: ` +
          'a worker uses the server\'s secrets and blobs, so give it the server\'s DATA_DIR (or set JWT_SECRET and API_KEY_PEPPER as the server has them, with a blob store both reach)',
      ])
    }
  }
  const generated: PersistedSecrets = {
    jwt_secret: persisted.jwt_secret ?? randomBytes(32).toString('hex'),
    api_key_pepper: persisted.api_key_pepper ?? randomBytes(32).toString('hex'),
  }
  if (generated.jwt_secret !== persisted.jwt_secret || generated.api_key_pepper !== persisted.api_key_pepper) {
    mkdirSync(config.dataDir, { recursive: true })
    writeFileSync(path, `${JSON.stringify(generated, null, 2)}\n`, { mode: 0o600 })
    chmodSync(path, 0o600)
  }
  return {
    ...config,
    jwtSecret: config.jwtSecret ?? generated.jwt_secret!,
    apiKeyPepper: config.apiKeyPepper ?? generated.api_key_pepper!,
  }
}
