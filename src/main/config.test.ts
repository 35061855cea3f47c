import { describe, expect, it } from 'vitest'
import { ConfigError, configurationNames, loadConfig } from './config.ts'

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

  it('lists every variable it reads in configurationNames, and reads nothing else', () => {
    const read = new Set<string>()
    // With S3_BUCKET set every branch reads its variables (the S3 ones are read only for BLOB_STORE=s3).
    const env = new Proxy({ S3_BUCKET: 'steward-blobs' } as Record<string, string | undefined>, {
      get(target, name) {
        if (typeof name === 'string') read.add(name)
        return target[name as string]
      },
    })
    loadConfig(env)
    expect([...read].sort()).toEqual([...configurationNames].sort())
  })
})

describe('loadConfig: the blob store', () => {
  it('keeps blobs on the filesystem by default', () => {
    expect(loadConfig({}).blobStore).toEqual({ kind: 'fs' })
    expect(loadConfig({ BLOB_STORE: 'fs' }).blobStore).toEqual({ kind: 'fs' })
  })

  it('chooses S3 when S3_BUCKET is set, with AWS defaults', () => {
    expect(loadConfig({ S3_BUCKET: 'steward-blobs' }).blobStore).toEqual({
      kind: 's3',
      bucket: 'steward-blobs',
      region: 'us-east-1',
      endpoint: undefined,
      publicEndpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
      prefix: '',
    })
  })

  it('reads every S3 setting; path-style by default with an endpoint; the prefix ends with a slash', () => {
    const s3 = {
      BLOB_STORE: 's3',
      S3_BUCKET: 'steward.blobs-1',
      S3_REGION: 'eu-central-1',
      S3_ENDPOINT: 'http://minio:9000',
      S3_PUBLIC_ENDPOINT: 'http://localhost:9000',
      S3_ACCESS_KEY_ID: 'steward',
      S3_SECRET_ACCESS_KEY: 'minio-secret',
      S3_PREFIX: 'prod/steward',
    }
    expect(loadConfig(s3).blobStore).toEqual({
      kind: 's3',
      bucket: 'steward.blobs-1',
      region: 'eu-central-1',
      endpoint: 'http://minio:9000',
      publicEndpoint: 'http://localhost:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'steward', secretAccessKey: 'minio-secret' },
      prefix: 'prod/steward/',
    })
    expect(loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'false', S3_PREFIX: 'steward/' }).blobStore).toMatchObject({ forcePathStyle: false, prefix: 'steward/' })
  })

  it.each([
    [{ BLOB_STORE: 's3' }, /S3_BUCKET: required when BLOB_STORE=s3/],
    [{ BLOB_STORE: 'gcs' }, /BLOB_STORE: "gcs" is not one of fs, s3/],
    [{ S3_BUCKET: 'Steward_Blobs' }, /S3_BUCKET: "Steward_Blobs" is not an S3 bucket name/],
    [{ S3_BUCKET: 'steward', S3_ENDPOINT: 'ftp://minio' }, /S3_ENDPOINT: protocol must be one of http:\/\/, https:\/\//],
    [{ S3_BUCKET: 'steward', S3_ACCESS_KEY_ID: 'steward' }, /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither/],
    [{ S3_BUCKET: 'steward', S3_PREFIX: '../up' }, /S3_PREFIX: "..\/up" is not a key prefix/],
    [{ S3_BUCKET: 'steward', S3_PREFIX: '/rooted' }, /S3_PREFIX/],
    [{ S3_BUCKET: 'steward', S3_REGION: 'EU West' }, /S3_REGION/],
    [{ S3_BUCKET: 'steward', S3_FORCE_PATH_STYLE: 'maybe' }, /S3_FORCE_PATH_STYLE: "maybe" is not a boolean/],
    [{ BLOB_STORE: 'fs', S3_BUCKET: 'steward', S3_REGION: 'eu-west-1' }, /S3_BUCKET, S3_REGION: set, but BLOB_STORE=fs/],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(problemsOf(env).join('\n')).toMatch(message)
  })

  it('never echoes the S3 secret key', () => {
    const problems = problemsOf({ S3_BUCKET: 'x', S3_SECRET_ACCESS_KEY: 'super-secret-value' })
    expect(problems.join('\n')).toMatch(/S3_BUCKET/)
    expect(problems.join('\n')).not.toContain('super-secret-value')
  })

  it('needs https for presigned download URLs in production', () => {
    const production = { ...productionBase, S3_BUCKET: 'steward' }
    expect(problemsOf({ ...production, S3_ENDPOINT: 'http://minio:9000' }).join('\n')).toMatch(/S3_ENDPOINT: must be https:\/\/ when STEWARD_ENV=production/)
    expect(problemsOf({ ...production, S3_ENDPOINT: 'http://minio:9000', S3_PUBLIC_ENDPOINT: 'http://blobs.example.com' }).join('\n')).toMatch(/S3_PUBLIC_ENDPOINT: must be https/)
    expect(loadConfig({ ...production, S3_ENDPOINT: 'http://minio:9000', S3_PUBLIC_ENDPOINT: 'https://blobs.example.com' }).blobStore).toMatchObject({ kind: 's3' })
    expect(loadConfig(production).blobStore).toMatchObject({ kind: 's3', endpoint: undefined })
  })
})

describe('loadConfig: the onchain_base rail', () => {
  const rail = { ONCHAIN_RAIL_RPC_URL: 'https://base.example/rpc', ONCHAIN_RAIL_CHAIN_ID: '8453' }

  it('leaves the rail unregistered by default, and registers it with both the RPC and the chain id', () => {
    expect(loadConfig({})).toMatchObject({ onchainRail: undefined, onchainSessionKeySeed: undefined })
    expect(loadConfig(rail).onchainRail).toEqual({ rpcUrl: 'https://base.example/rpc', chainId: 8453, receiptTimeoutSeconds: 20, expiryMarginSeconds: 300 })
    expect(loadConfig({ ...rail, ONCHAIN_RAIL_RECEIPT_TIMEOUT_SECONDS: '5', ONCHAIN_RAIL_EXPIRY_MARGIN_SECONDS: '0', ONCHAIN_SESSION_KEY_SEED: secret })).toMatchObject({
      onchainRail: { receiptTimeoutSeconds: 5, expiryMarginSeconds: 0 },
      onchainSessionKeySeed: secret,
    })
  })

  it.each([
    [{ ONCHAIN_RAIL_RPC_URL: 'https://base.example/rpc' }, /set both/],
    [{ ONCHAIN_RAIL_CHAIN_ID: '8453' }, /set both/],
    [{ ...rail, ONCHAIN_RAIL_CHAIN_ID: '0' }, /ONCHAIN_RAIL_CHAIN_ID: 0 is outside/],
    [{ ...rail, ONCHAIN_RAIL_CHAIN_ID: 'base' }, /ONCHAIN_RAIL_CHAIN_ID: "base" is not a whole number/],
    [{ ...rail, ONCHAIN_RAIL_RPC_URL: 'ws://base.example' }, /ONCHAIN_RAIL_RPC_URL: protocol must be/],
    [{ ...rail, ONCHAIN_RAIL_RECEIPT_TIMEOUT_SECONDS: '60' }, /ONCHAIN_RAIL_RECEIPT_TIMEOUT_SECONDS: 60 is outside/],
    [{ ONCHAIN_SESSION_KEY_SEED: 'short' }, /ONCHAIN_SESSION_KEY_SEED: must be at least 32 bytes/],
  ])('refuses %o', (env, message) => {
    expect(problemsOf(env).join('\n')).toMatch(message)
  })

  it('needs its own session key seed in production once the rail is configured', () => {
    expect(problemsOf({ ...productionBase, ...rail }).join('\n')).toMatch(/ONCHAIN_SESSION_KEY_SEED: required when STEWARD_ENV=production/)
    expect(problemsOf({ ...productionBase, ...rail, ONCHAIN_SESSION_KEY_SEED: secret })).toEqual([])
    expect(problemsOf(productionBase)).toEqual([])
  })
})

describe('loadConfig: the AgentRegistry', () => {
  const registry = { AGENT_REGISTRY_RPC_URL: 'https://base.example/rpc', AGENT_REGISTRY_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3' }

  it('reads no registry by default, and the contract with both the RPC and the address', () => {
    expect(loadConfig({}).agentRegistry).toBeUndefined()
    expect(loadConfig(registry).agentRegistry).toEqual({ rpcUrl: 'https://base.example/rpc', contractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })
    // Independent of the anchor's chain settings.
    expect(loadConfig(registry).anchorChain).toBeUndefined()
  })

  it.each([
    [{ AGENT_REGISTRY_RPC_URL: 'https://base.example/rpc' }, /AGENT_REGISTRY_RPC_URL and AGENT_REGISTRY_ADDRESS: set both/],
    [{ AGENT_REGISTRY_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3' }, /set both/],
    [{ ...registry, AGENT_REGISTRY_ADDRESS: '0x1234' }, /AGENT_REGISTRY_ADDRESS: .*20-byte hex address/],
    [{ ...registry, AGENT_REGISTRY_RPC_URL: 'ws://base.example' }, /AGENT_REGISTRY_RPC_URL: protocol must be/],
  ])('refuses %o', (env, message) => {
    expect(problemsOf(env).join('\n')).toMatch(message)
  })
})
