import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'
import { resolveSecrets } from './secrets.ts'

const dataDirs: string[] = []
afterEach(() => {
  for (const directory of dataDirs.splice(0)) rmSync(directory, { recursive: true, force: true })
})
const freshDataDir = () => {
  const directory = mkdtempSync(join(tmpdir(), 'steward-secrets-'))
  dataDirs.push(directory)
  return directory
}

describe('resolveSecrets', () => {
  it('generates the sandbox secrets once and keeps them in DATA_DIR/secrets.json (mode 0600)', () => {
    const dataDir = freshDataDir()
    const first = resolveSecrets(loadConfig({ DATA_DIR: dataDir }))
    const again = resolveSecrets(loadConfig({ DATA_DIR: dataDir }))
    expect(again.jwtSecret).toBe(first.jwtSecret)
    expect(again.apiKeyPepper).toBe(first.apiKeyPepper)
    expect(JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'))).toEqual({ jwt_secret: first.jwtSecret, api_key_pepper: first.apiKeyPepper })
  })

  it('with generate: false (a worker), uses the server\'s secrets.json but never writes one', () => {
    const dataDir = freshDataDir()
    expect(() => resolveSecrets(loadConfig({ DATA_DIR: dataDir }), { generate: false })).toThrow(ConfigError)
    expect(existsSync(join(dataDir, 'secrets.json'))).toBe(false)

    const server = resolveSecrets(loadConfig({ DATA_DIR: dataDir }))
    const worker = resolveSecrets(loadConfig({ DATA_DIR: dataDir }), { generate: false })
    expect(worker.jwtSecret).toBe(server.jwtSecret)
    expect(worker.apiKeyPepper).toBe(server.apiKeyPepper)
  })

  it('with generate: false, names exactly the secret that is missing, and takes the environment\'s', () => {
    const dataDir = freshDataDir()
    writeFileSync(join(dataDir, 'secrets.json'), JSON.stringify({ jwt_secret: 'j'.repeat(64) }))
    let problems: readonly string[] = []
    try {
      resolveSecrets(loadConfig({ DATA_DIR: dataDir }), { generate: false })
    } catch (error) {
      problems = (error as ConfigError).problems
    }
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/^API_KEY_PEPPER is unset and .*secrets\.json does not hold it: a worker uses the server's secrets and blobs/)
    const resolved = resolveSecrets(loadConfig({ DATA_DIR: dataDir, API_KEY_PEPPER: 'a'.repeat(64) }), { generate: false })
    expect(resolved).toMatchObject({ jwtSecret: 'j'.repeat(64), apiKeyPepper: 'a'.repeat(64) })
  })
})
