import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

const secret = 'x'.repeat(32)
const productionBase = { STEWARD_ENV: 'production', JWT_SECRET: secret, API_KEY_PEPPER: secret, SMTP_URL: 'smtp://mail:25', PUBLIC_BASE_URL: 'https://api.example.com' }

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems]
    throw error
  }
  return []
}

describe('loadConfig', () => {
  it('defaults to a sandbox on embedded PGlite that needs no settings', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      environment: 'sandbox',
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: '.steward-data',
      publicBaseUrl: 'http://localhost:8080',
      selfServeSignup: true,
      apiKeyAuthProductionEnabled: false,
      workersInProcess: true,
    })
    expect(Object.isFrozen(config)).toBe(true)
  })

  it('reads every variable the operator sets', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u@db:5432/steward',
      DATA_DIR: '/var/lib/steward',
      REDIS_URL: 'redis://cache:6379',
      JWT_SECRET: secret,
      API_KEY_PEPPER: secret,
      SERVICE_TOKEN_SECRET: secret,
      PLATFORM_SERVICE_SECRET: secret,
      PUBLIC_BASE_URL: 'https://api.example.com/',
      SELF_SERVE_SIGNUP: 'off',
    })
    expect(config).toMatchObject({ port: 9000, host: '0.0.0.0', redisUrl: 'redis://cache:6379', publicBaseUrl: 'https://api.example.com', selfServeSignup: false })
  })

  it('turns signup off by default in production and requires its secrets', () => {
    expect(loadConfig(productionBase).selfServeSignup).toBe(false)
    const problems = problemsOf({ STEWARD_ENV: 'production' })
    expect(problems.join('\n')).toMatch(/JWT_SECRET: required/)
    expect(problems.join('\n')).toMatch(/API_KEY_PEPPER: required/)
    expect(problems.join('\n')).toMatch(/SMTP_URL: required/)
    expect(problems.join('\n')).toMatch(/PUBLIC_BASE_URL: must be https/)
  })

  it.each([
    ['PORT', 'eighty', /PORT: "eighty" is not a whole number/],
    ['PORT', '70000', /PORT: 70000 is outside/],
    ['STEWARD_ENV', 'staging', /STEWARD_ENV: "staging" is not one of sandbox, production/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL: protocol must be/],
    ['DATABASE_URL', 'not a url', /DATABASE_URL: not a valid URL/],
    ['REDIS_URL', 'http://x', /REDIS_URL: protocol must be/],
    ['JWT_SECRET', 'short', /JWT_SECRET: must be at least 32 bytes/],
    ['SELF_SERVE_SIGNUP', 'maybe', /SELF_SERVE_SIGNUP: "maybe" is not a boolean/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL/],
  ])('refuses %s=%s with a message naming it', (name, value, message) => {
    expect(problemsOf({ [name]: value }).join('\n')).toMatch(message)
  })

  it('refuses out-of-process workers on embedded PGlite, which serves one process', () => {
    expect(problemsOf({ WORKERS_IN_PROCESS: 'false' }).join('\n')).toMatch(/WORKERS_IN_PROCESS: false needs DATABASE_URL/)
    expect(loadConfig({ WORKERS_IN_PROCESS: 'false', DATABASE_URL: 'postgres://u@db/steward' }).workersInProcess).toBe(false)
  })

  it('reports every problem at once and never echoes a secret', () => {
    const problems = problemsOf({ PORT: 'x', JWT_SECRET: 'tooshort-secret', STEWARD_ENV: 'nope' })
    expect(problems).toHaveLength(3)
    expect(problems.join('\n')).not.toContain('tooshort-secret')
  })
})
