/**
 * Configuration: read once from the environment by `main/`, validated at boot, frozen.
 *
 * Every bad value is reported at once with the variable's name and why it was refused, so an operator
 * fixes a deployment in one pass instead of one crash at a time.
 */

import type { StewardEnvironment } from '../kernel/context.ts'

export type { StewardEnvironment }

export interface Config {
  readonly port: number
  /** A second listener serving the agent protocol at `POST /` (MCP_PORT); undefined: only POST /v1/agents/mcp. */
  readonly mcpPort: number | undefined
  /** The built console's folder (CONSOLE_DIR); undefined: dist/console in the repository. */
  readonly consoleDirectory: string | undefined
  readonly host: string
  /** Unset means embedded PGlite under `dataDir`. */
  readonly databaseUrl: string | undefined
  readonly dataDir: string
  readonly redisUrl: string | undefined
  readonly environment: StewardEnvironment
  /** Unset only in the sandbox, where `main/` generates one and persists it under `dataDir`. */
  readonly jwtSecret: string | undefined
  /** Unset only in the sandbox, where `main/` generates one and persists it under `dataDir`. */
  readonly apiKeyPepper: string | undefined
  /** Unset disables the break-glass service-token mint. */
  readonly serviceTokenSecret: string | undefined
  /** Unset disables every route that needs X-Platform-Service-Auth. */
  readonly platformServiceSecret: string | undefined
  readonly publicBaseUrl: string
  /** The self-serve signup flag: off answers 404 on signup and verify-email. */
  readonly selfServeSignup: boolean
  /** Tenant API keys authenticate in production only when this is on (it is off: no enablement date). */
  readonly apiKeyAuthProductionEnabled: boolean
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** `pretty`: readable lines, one per request; `json`: JSON lines; `auto`: pretty when stdout is a terminal. */
  readonly logFormat: 'auto' | 'pretty' | 'json'
  /** Honour X-Forwarded-For from this many proxy hops (0 = use the socket address). */
  readonly trustProxyHops: number
  /** Run the job workers inside the HTTP server process. */
  readonly workersInProcess: boolean
  readonly shutdownTimeoutMs: number
  /** Public (unauthenticated) routes: requests per minute and burst per client address. */
  readonly publicRateLimitPerMinute: number
  readonly publicRateLimitBurst: number
  /** SMTP connection URL for outgoing mail; required in production, where verification mail is sent. */
  readonly smtpUrl: string | undefined
  readonly mailFrom: string
  /** A tenant's Merkle batch closes at this many events… */
  readonly auditBatchEventsMax: number
  /** …or when its oldest event has waited this long, whichever comes first. */
  readonly auditBatchWaitSeconds: number
  /** Where batch roots are published; unset keeps anchoring in the database (`database_hash_chain`). */
  readonly anchorChain: AnchorChainConfig | undefined
  /** The AgentRegistry contract external agents are registered in (read only); unset: activation by the sandbox resume. */
  readonly agentRegistry: AgentRegistryConfig | undefined
  /** The OpenAI-compatible language model the Wiki uses (LLM_BASE_URL, LLM_MODEL, LLM_API_KEY); undefined: none. */
  readonly llm: LanguageModelConfig | undefined
  /** Payments: while on, every wire needs a human approval whatever the policy's autonomous cap (the spec's fiat floor). */
  readonly paymentsFiatFloor: boolean
  /** The secret bank_ach provider webhooks are signed with; unset derives one from JWT_SECRET (the sandbox provider is in-process). */
  readonly achWebhookSecret: string | undefined
  /** How long the sandbox ACH provider waits before settling a transfer (and before a late return). */
  readonly sandboxAchSettleSeconds: number
  /** The onchain_base rail's chain; unset leaves the rail unregistered (gate check 11 refuses on-chain transfers). */
  readonly onchainRail: OnchainRailConfig | undefined
  /** What every onchain session key is derived from; unset in the sandbox derives one from JWT_SECRET, required in production with the rail. */
  readonly onchainSessionKeySeed: string | undefined
  /** Raw: let fetch-by-URL reach loopback addresses (sandbox tests serving files locally); refused in production. */
  readonly rawFetchAllowLoopback: boolean
  /** Webhooks: let endpoint URLs reach loopback addresses (a receiver on the developer's machine); refused in production. Private ranges never. */
  readonly webhookAllowLoopback: boolean
  /** Sandbox: create the demo business (sandbox/demo) on the first start; never in production. */
  readonly sandboxDemoData: boolean
  /** Where stored bytes live: the filesystem under `dataDir` (one host), or an S3-compatible bucket (shared). */
  readonly blobStore: BlobStoreConfig
}

export type BlobStoreConfig = { readonly kind: 'fs' } | S3BlobStoreConfig

export interface S3BlobStoreConfig {
  readonly kind: 's3'
  readonly bucket: string
  readonly region: string
  /** Unset means AWS S3 itself. */
  readonly endpoint: string | undefined
  /** Where presigned download URLs point when clients reach the store by another address; defaults to `endpoint`. */
  readonly publicEndpoint: string | undefined
  readonly forcePathStyle: boolean
  /** Unset uses the AWS SDK's default chain (AWS_* variables, instance or task role). */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined
  /** '' or a key prefix ending in '/'. */
  readonly prefix: string
}

/**
 * Every environment variable `loadConfig` reads: deployment files (compose.yaml) are checked against
 * this list, and a test checks that the list is exactly what `loadConfig` reads.
 */
export const configurationNames = [
  'STEWARD_ENV',
  'PORT',
  'MCP_PORT',
  'CONSOLE_DIR',
  'HOST',
  'DATABASE_URL',
  'DATA_DIR',
  'REDIS_URL',
  'PUBLIC_BASE_URL',
  'JWT_SECRET',
  'API_KEY_PEPPER',
  'SERVICE_TOKEN_SECRET',
  'PLATFORM_SERVICE_SECRET',
  'SMTP_URL',
  'MAIL_FROM',
  'WORKERS_IN_PROCESS',
  'RAW_FETCH_ALLOW_LOOPBACK',
  'WEBHOOK_ALLOW_LOOPBACK',
  'PAYMENTS_FIAT_FLOOR',
  'ACH_WEBHOOK_SECRET',
  'SANDBOX_ACH_SETTLE_SECONDS',
  'ONCHAIN_RAIL_RPC_URL',
  'ONCHAIN_RAIL_CHAIN_ID',
  'ONCHAIN_SESSION_KEY_SEED',
  'ONCHAIN_RAIL_RECEIPT_TIMEOUT_SECONDS',
  'ONCHAIN_RAIL_EXPIRY_MARGIN_SECONDS',
  'SANDBOX_DEMO_DATA',
  'SELF_SERVE_SIGNUP',
  'API_KEY_AUTH_PRODUCTION_ENABLED',
  'LOG_LEVEL',
  'LOG_FORMAT',
  'TRUST_PROXY_HOPS',
  'SHUTDOWN_TIMEOUT_MS',
  'PUBLIC_RATE_LIMIT_PER_MINUTE',
  'PUBLIC_RATE_LIMIT_BURST',
  'AUDIT_BATCH_EVENTS_MAX',
  'AUDIT_BATCH_WAIT_SECONDS',
  'CHAIN_RPC_URL',
  'ANCHOR_CONTRACT_ADDRESS',
  'ANCHOR_PRIVATE_KEY',
  'AGENT_REGISTRY_RPC_URL',
  'AGENT_REGISTRY_ADDRESS',
  'LLM_BASE_URL',
  'LLM_MODEL',
  'LLM_API_KEY',
  'LLM_EMBEDDING_MODEL',
  'LLM_TIMEOUT_MS',
  'BLOB_STORE',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_PUBLIC_ENDPOINT',
  'S3_FORCE_PATH_STYLE',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_PREFIX',
] as const

export interface OnchainRailConfig {
  readonly rpcUrl: string
  /** The chain the rail signs for (EIP-155); the RPC must serve it. */
  readonly chainId: number
  /** How long a submit waits for its transaction's receipt before the worker retries (below the worker's 60 s lease). */
  readonly receiptTimeoutSeconds: number
  /** A session key expiring within this many seconds of the latest block is refused, by gate check 12 and by the rail. */
  readonly expiryMarginSeconds: number
}

export interface AnchorChainConfig {
  readonly rpcUrl: string
  readonly contractAddress: `0x${string}`
  readonly privateKey: `0x${string}`
}

/** The AgentRegistry contract Steward reads registrations from (the operator's registrar writes them). */
export interface AgentRegistryConfig {
  readonly rpcUrl: string
  readonly contractAddress: `0x${string}`
}

/** An OpenAI-compatible endpoint (platform/llm/language-model.ts). */
export interface LanguageModelConfig {
  /** e.g. https://api.openai.com/v1: /chat/completions and /embeddings are appended. */
  readonly baseUrl: string
  readonly model: string
  /** Sent as a bearer token; unset for an endpoint without one (a local server). Never logged. */
  readonly apiKey: string | undefined
  /** The embedding model (LLM_EMBEDDING_MODEL); undefined: no embeddings. */
  readonly embeddingModel: string | undefined
  readonly timeoutMs: number
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

const secretBytesMin = 32
const portMax = 65_535

type Env = Readonly<Record<string, string | undefined>>

/** Parses and validates the environment. Pure: no I/O, no defaults that depend on the machine. */
export function loadConfig(env: Env): Config {
  const problems: string[] = []
  const read = new EnvReader(env, problems)

  const environment = read.oneOf('STEWARD_ENV', ['sandbox', 'production'] as const, 'sandbox')
  const production = environment === 'production'
  const port = read.integer('PORT', 8080, { min: 0, max: portMax })
  const mcpPortText = env.MCP_PORT
  const mcpPort = mcpPortText === undefined || mcpPortText === '' ? undefined : read.integer('MCP_PORT', 0, { min: 0, max: portMax })
  if (mcpPort !== undefined && mcpPort !== 0 && mcpPort === port) problems.push(`MCP_PORT: ${mcpPort} is PORT; the agent-protocol listener needs a port of its own`)
  const databaseUrl = read.url('DATABASE_URL', ['postgres:', 'postgresql:'])
  const redisUrl = read.url('REDIS_URL', ['redis:', 'rediss:'])
  const publicBaseUrl = read.url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`
  const jwtSecret = read.secret('JWT_SECRET', { requiredIn: production })
  const apiKeyPepper = read.secret('API_KEY_PEPPER', { requiredIn: production })
  const smtpUrl = read.url('SMTP_URL', ['smtp:', 'smtps:'])
  if (production && smtpUrl === undefined) {
    problems.push('SMTP_URL: required when STEWARD_ENV=production, where verification mail is sent (smtp:// or smtps://)')
  }
  const workersInProcess = read.boolean('WORKERS_IN_PROCESS', true)
  if (!workersInProcess && databaseUrl === undefined) {
    problems.push('WORKERS_IN_PROCESS: false needs DATABASE_URL; embedded PGlite serves one process, so its workers run inside the server')
  }
  if (production && publicBaseUrl.startsWith('http:')) {
    problems.push('PUBLIC_BASE_URL: must be https:// when STEWARD_ENV=production')
  }
  const rawFetchAllowLoopback = read.boolean('RAW_FETCH_ALLOW_LOOPBACK', false)
  if (production && rawFetchAllowLoopback) {
    problems.push('RAW_FETCH_ALLOW_LOOPBACK: must not be true when STEWARD_ENV=production (Raw never fetches from loopback there)')
  }
  const webhookAllowLoopback = read.boolean('WEBHOOK_ALLOW_LOOPBACK', false)
  if (production && webhookAllowLoopback) {
    problems.push('WEBHOOK_ALLOW_LOOPBACK: must not be true when STEWARD_ENV=production (webhooks are delivered to public addresses only there)')
  }

  const sandboxDemoData = read.boolean('SANDBOX_DEMO_DATA', !production)
  if (production && sandboxDemoData) problems.push('SANDBOX_DEMO_DATA: must not be true when STEWARD_ENV=production (demo data is for the sandbox)')

  const config: Config = {
    port,
    mcpPort,
    consoleDirectory: read.optionalString('CONSOLE_DIR'),
    host: read.string('HOST', '127.0.0.1'),
    databaseUrl,
    dataDir: read.string('DATA_DIR', '.steward-data'),
    redisUrl,
    environment,
    jwtSecret,
    apiKeyPepper,
    serviceTokenSecret: read.secret('SERVICE_TOKEN_SECRET', { requiredIn: false }),
    platformServiceSecret: read.secret('PLATFORM_SERVICE_SECRET', { requiredIn: false }),
    publicBaseUrl: publicBaseUrl.replace(/\/+$/, ''),
    selfServeSignup: read.boolean('SELF_SERVE_SIGNUP', !production),
    apiKeyAuthProductionEnabled: read.boolean('API_KEY_AUTH_PRODUCTION_ENABLED', false),
    logLevel: read.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    logFormat: read.oneOf('LOG_FORMAT', ['auto', 'pretty', 'json'] as const, 'auto'),
    trustProxyHops: read.integer('TRUST_PROXY_HOPS', 0, { min: 0, max: 10 }),
    workersInProcess,
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, { min: 100, max: 600_000 }),
    publicRateLimitPerMinute: read.integer('PUBLIC_RATE_LIMIT_PER_MINUTE', 20, { min: 1, max: 1_000_000 }),
    publicRateLimitBurst: read.integer('PUBLIC_RATE_LIMIT_BURST', 20, { min: 1, max: 1_000_000 }),
    smtpUrl,
    mailFrom: read.string('MAIL_FROM', 'Steward <no-reply@steward.invalid>'),
    auditBatchEventsMax: read.integer('AUDIT_BATCH_EVENTS_MAX', 1024, { min: 1, max: 100_000 }),
    auditBatchWaitSeconds: read.integer('AUDIT_BATCH_WAIT_SECONDS', 60, { min: 1, max: 86_400 }),
    anchorChain: readAnchorChain(read, problems),
    agentRegistry: readAgentRegistry(read, problems),
    llm: readLanguageModel(read, problems),
    rawFetchAllowLoopback,
    webhookAllowLoopback,
    paymentsFiatFloor: read.boolean('PAYMENTS_FIAT_FLOOR', true),
    achWebhookSecret: read.secret('ACH_WEBHOOK_SECRET', { requiredIn: false }),
    sandboxAchSettleSeconds: read.integer('SANDBOX_ACH_SETTLE_SECONDS', 5, { min: 0, max: 86_400 }),
    ...readOnchainRail(read, problems, production),
    sandboxDemoData,
    blobStore: readBlobStore(read, problems, production),
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return Object.freeze(config)
}

/** A chain id fits in a JavaScript integer and in the database's `integer` column. */
const chainIdMax = 2_147_483_647

/**
 * ONCHAIN_RAIL_RPC_URL and ONCHAIN_RAIL_CHAIN_ID together register the onchain_base rail (both or neither).
 * Production needs its own ONCHAIN_SESSION_KEY_SEED with the rail: a seed derived from JWT_SECRET would
 * change every session key whenever that secret is rotated.
 */
function readOnchainRail(read: EnvReader, problems: string[], production: boolean): Pick<Config, 'onchainRail' | 'onchainSessionKeySeed'> {
  const rpcUrl = read.url('ONCHAIN_RAIL_RPC_URL', ['http:', 'https:'])
  const chainId = read.isSet('ONCHAIN_RAIL_CHAIN_ID') ? read.integer('ONCHAIN_RAIL_CHAIN_ID', 0, { min: 1, max: chainIdMax }) : undefined
  const onchainSessionKeySeed = read.secret('ONCHAIN_SESSION_KEY_SEED', { requiredIn: false })
  const receiptTimeoutSeconds = read.integer('ONCHAIN_RAIL_RECEIPT_TIMEOUT_SECONDS', 20, { min: 1, max: 45 })
  const expiryMarginSeconds = read.integer('ONCHAIN_RAIL_EXPIRY_MARGIN_SECONDS', 300, { min: 0, max: 86_400 })
  const given = [read.isSet('ONCHAIN_RAIL_RPC_URL'), read.isSet('ONCHAIN_RAIL_CHAIN_ID')].filter(Boolean).length
  if (given === 1) problems.push('ONCHAIN_RAIL_RPC_URL and ONCHAIN_RAIL_CHAIN_ID: set both to register the onchain_base rail, or neither')
  const onchainRail = rpcUrl === undefined || chainId === undefined || chainId === 0 ? undefined : { rpcUrl, chainId, receiptTimeoutSeconds, expiryMarginSeconds }
  if (production && given === 2 && !read.isSet('ONCHAIN_SESSION_KEY_SEED')) {
    problems.push('ONCHAIN_SESSION_KEY_SEED: required when STEWARD_ENV=production and the onchain_base rail is configured (generate one with: openssl rand -hex 32)')
  }
  return { onchainRail, onchainSessionKeySeed }
}

function readAnchorChain(read: EnvReader, problems: string[]): AnchorChainConfig | undefined {
  const rpcUrl = read.url('CHAIN_RPC_URL', ['http:', 'https:'])
  const contractAddress = read.pattern('ANCHOR_CONTRACT_ADDRESS', /^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed 20-byte hex address')
  const privateKey = read.secretPattern('ANCHOR_PRIVATE_KEY', /^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed 32-byte hex private key')
  const given = [rpcUrl, contractAddress, privateKey].filter((value) => value !== undefined).length
  if (given === 0) return undefined
  if (given < 3) {
    problems.push('CHAIN_RPC_URL, ANCHOR_CONTRACT_ADDRESS and ANCHOR_PRIVATE_KEY: set all three to anchor on chain, or none to anchor in the database')
    return undefined
  }
  return { rpcUrl: rpcUrl!, contractAddress: contractAddress as `0x${string}`, privateKey: privateKey as `0x${string}` }
}

/** AGENT_REGISTRY_RPC_URL and AGENT_REGISTRY_ADDRESS together name the AgentRegistry contract (both or neither). */
function readAgentRegistry(read: EnvReader, problems: string[]): AgentRegistryConfig | undefined {
  const rpcUrl = read.url('AGENT_REGISTRY_RPC_URL', ['http:', 'https:'])
  const contractAddress = read.pattern('AGENT_REGISTRY_ADDRESS', /^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed 20-byte hex address')
  const given = [read.isSet('AGENT_REGISTRY_RPC_URL'), read.isSet('AGENT_REGISTRY_ADDRESS')].filter(Boolean).length
  if (given === 1) problems.push('AGENT_REGISTRY_RPC_URL and AGENT_REGISTRY_ADDRESS: set both to read agent registrations from the AgentRegistry contract, or neither')
  if (rpcUrl === undefined || contractAddress === undefined) return undefined
  return { rpcUrl, contractAddress: contractAddress as `0x${string}` }
}

/**
 * LLM_BASE_URL and LLM_MODEL together configure the language model (LLM_API_KEY optional, for endpoints
 * that need one; LLM_EMBEDDING_MODEL optional). All unset: no model, questions answered by the parser alone.
 */
function readLanguageModel(read: EnvReader, problems: string[]): LanguageModelConfig | undefined {
  const baseUrl = read.url('LLM_BASE_URL', ['http:', 'https:'])
  const model = read.optionalString('LLM_MODEL')
  const apiKey = read.optionalString('LLM_API_KEY')
  const embeddingModel = read.optionalString('LLM_EMBEDDING_MODEL')
  const timeoutMs = read.integer('LLM_TIMEOUT_MS', 20_000, { min: 100, max: 300_000 })
  const given = read.isSet('LLM_BASE_URL') || read.isSet('LLM_MODEL') || apiKey !== undefined || embeddingModel !== undefined
  if (!given) return undefined
  if (!read.isSet('LLM_BASE_URL') || model === undefined) {
    problems.push('LLM_BASE_URL and LLM_MODEL: set both to use a language model (LLM_API_KEY and LLM_EMBEDDING_MODEL need them), or none')
    return undefined
  }
  if (baseUrl === undefined) return undefined
  return { baseUrl, model, apiKey, embeddingModel, timeoutMs }
}

const s3Names = ['S3_BUCKET', 'S3_REGION', 'S3_ENDPOINT', 'S3_PUBLIC_ENDPOINT', 'S3_FORCE_PATH_STYLE', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PREFIX'] as const
/** S3's bucket naming rules (3 to 63 lowercase letters, digits, dots and hyphens; a letter or digit at each end). */
const bucketPattern = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
/** Segments of safe key characters (not `.` or `..`) separated by single slashes; a trailing slash is added when missing. */
const keyPrefixPattern = /^(?!\.\.?(\/|$))[A-Za-z0-9._-]+(\/(?!\.\.?(\/|$))[A-Za-z0-9._-]+)*\/?$/

/** BLOB_STORE=fs|s3, inferred from S3_BUCKET when unset; the S3_* settings are read only for s3. */
function readBlobStore(read: EnvReader, problems: string[], production: boolean): BlobStoreConfig {
  const bucket = read.pattern('S3_BUCKET', bucketPattern, 'an S3 bucket name (3 to 63 lowercase letters, digits, dots and hyphens)')
  const kind = read.oneOf('BLOB_STORE', ['fs', 's3'] as const, read.isSet('S3_BUCKET') ? 's3' : 'fs')
  if (kind === 'fs') {
    const stray = s3Names.filter((name) => read.isSet(name))
    if (stray.length > 0) problems.push(`${stray.join(', ')}: set, but BLOB_STORE=fs keeps blobs on the filesystem; unset them or set BLOB_STORE=s3`)
    return { kind: 'fs' }
  }
  if (!read.isSet('S3_BUCKET')) problems.push('S3_BUCKET: required when BLOB_STORE=s3')
  const endpoint = read.url('S3_ENDPOINT', ['http:', 'https:'])
  const publicEndpoint = read.url('S3_PUBLIC_ENDPOINT', ['http:', 'https:'])
  const signedFor = publicEndpoint ?? endpoint
  if (production && signedFor !== undefined && signedFor.startsWith('http:')) {
    problems.push(`${publicEndpoint === undefined ? 'S3_ENDPOINT' : 'S3_PUBLIC_ENDPOINT'}: must be https:// when STEWARD_ENV=production, since presigned download URLs point there (set S3_PUBLIC_ENDPOINT to the store's https address)`)
  }
  const accessKeyId = read.optionalString('S3_ACCESS_KEY_ID')
  const secretAccessKey = read.optionalString('S3_SECRET_ACCESS_KEY')
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither to use the AWS default credentials (AWS_* variables, instance or task role)')
  }
  const prefix = read.pattern('S3_PREFIX', keyPrefixPattern, 'a key prefix: segments of letters, digits, dots, hyphens and underscores (not . or ..) separated by /') ?? ''
  return {
    kind: 's3',
    bucket: bucket ?? '',
    region: read.pattern('S3_REGION', /^[a-z0-9-]{1,32}$/, 'a region name such as us-east-1') ?? 'us-east-1',
    endpoint,
    publicEndpoint,
    // S3-protocol servers at an endpoint of their own mostly want path-style URLs; AWS wants virtual hosts.
    forcePathStyle: read.boolean('S3_FORCE_PATH_STYLE', endpoint !== undefined),
    credentials: accessKeyId !== undefined && secretAccessKey !== undefined ? { accessKeyId, secretAccessKey } : undefined,
    prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
  }
}

class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  private raw(name: string): string | undefined {
    const value = this.env[name]
    return value === undefined || value.trim() === '' ? undefined : value.trim()
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback
  }

  /** An optional value taken as given (and never echoed back: it may be a credential). */
  optionalString(name: string): string | undefined {
    return this.raw(name)
  }

  isSet(name: string): boolean {
    return this.raw(name) !== undefined
  }

  oneOf<const T extends readonly string[]>(name: string, allowed: T, fallback: T[number]): T[number] {
    const value = this.raw(name)
    if (value === undefined) return fallback
    if ((allowed as readonly string[]).includes(value)) return value as T[number]
    this.problems.push(`${name}: "${value}" is not one of ${allowed.join(', ')}`)
    return fallback
  }

  integer(name: string, fallback: number, bounds: { min: number; max: number }): number {
    const value = this.raw(name)
    if (value === undefined) return fallback
    if (!/^\d+$/.test(value)) {
      this.problems.push(`${name}: "${value}" is not a whole number`)
      return fallback
    }
    const parsed = Number(value)
    if (parsed < bounds.min || parsed > bounds.max) {
      this.problems.push(`${name}: ${parsed} is outside ${bounds.min}..${bounds.max}`)
      return fallback
    }
    return parsed
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase()
    if (value === undefined) return fallback
    if (['1', 'true', 'yes', 'on'].includes(value)) return true
    if (['0', 'false', 'no', 'off'].includes(value)) return false
    this.problems.push(`${name}: "${value}" is not a boolean (true/false, 1/0, yes/no, on/off)`)
    return fallback
  }

  url(name: string, protocols: readonly string[]): string | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    let parsed: URL
    try {
      parsed = new URL(value)
    } catch {
      this.problems.push(`${name}: not a valid URL`)
      return undefined
    }
    if (!protocols.includes(parsed.protocol)) {
      this.problems.push(`${name}: protocol must be one of ${protocols.map((p) => p.replace(':', '://')).join(', ')}`)
      return undefined
    }
    return value
  }

  pattern(name: string, pattern: RegExp, description: string): string | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    if (!pattern.test(value)) {
      this.problems.push(`${name}: "${value}" is not ${description}`)
      return undefined
    }
    return value
  }

  /** Like `pattern`, for secrets: the value is never echoed back. */
  secretPattern(name: string, pattern: RegExp, description: string): string | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    if (!pattern.test(value)) {
      this.problems.push(`${name}: must be ${description}`)
      return undefined
    }
    return value
  }

  /** Secrets are never echoed back in a problem message. */
  secret(name: string, options: { requiredIn: boolean }): string | undefined {
    const value = this.raw(name)
    if (value === undefined) {
      if (options.requiredIn) this.problems.push(`${name}: required when STEWARD_ENV=production`)
      return undefined
    }
    if (Buffer.byteLength(value, 'utf8') < secretBytesMin) {
      this.problems.push(`${name}: must be at least ${secretBytesMin} bytes (generate one with: openssl rand -hex 32)`)
      return undefined
    }
    return value
  }
}
