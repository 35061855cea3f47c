/**
 * The container files, checked without a container runtime (these machines cannot pull base images):
 * compose.yaml sets only variables src/main/config.ts knows, and with sample secrets filled in its
 * environment is a valid production configuration; the Dockerfile is multi-stage on a pinned Node 20,
 * installs production dependencies only, runs as a non-root user, checks a route that answers, and
 * starts files that exist the way the npm scripts start them.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configurationNames, loadConfig } from '../../src/main/config.ts'
import { createTestApp, type TestApp } from '../support/harness.ts'

const root = join(import.meta.dirname, '..', '..')
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; dependencies: Record<string, string> }

interface ComposeService {
  image?: string
  build?: unknown
  command?: string[]
  environment?: Record<string, string>
  ports?: string[]
  depends_on?: Record<string, { condition: string }>
  deploy?: { replicas?: number }
  healthcheck?: { disable?: boolean; test?: string[] }
}
const compose = parse(readFileSync(join(root, 'compose.yaml'), 'utf8')) as { services: Record<string, ComposeService> }
/** The services that run Steward's image. */
const stewardServices = Object.entries(compose.services).filter(([, service]) => service.build !== undefined || service.image?.startsWith('steward') === true)

/** `${NAME:?message}` and `${NAME:-default}` as compose interpolates them, with `given` as the shell's values. */
function interpolate(value: string, given: Record<string, string>): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::([?-])([^}]*))?\}/g, (_match, name: string, kind: string | undefined, rest: string | undefined) => {
    const set = given[name]
    if (set !== undefined) return set
    if (kind === '-') return rest ?? ''
    throw new Error(`compose would refuse to start: ${name} is required (${rest ?? ''})`)
  })
}

/** Dockerfile instructions with their continuation lines joined, comments dropped. */
function dockerInstructions(): Array<{ keyword: string; args: string }> {
  const text = readFileSync(join(root, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ')
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/)
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') }
    })
}

describe('compose.yaml', () => {
  it('runs PostgreSQL, Redis, an S3 store, a one-shot migration, the API and separate workers', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'minio', 'migrate', 'api', 'worker']))
    expect(stewardServices.map(([name]) => name).sort()).toEqual(['api', 'migrate', 'worker'])
  })

  it('sets only variables that src/main/config.ts reads on the Steward services', () => {
    for (const [name, service] of stewardServices) {
      const unknown = Object.keys(service.environment ?? {}).filter((variable) => !(configurationNames as readonly string[]).includes(variable))
      expect(unknown, `${name} sets variables config.ts does not know`).toEqual([])
    }
  })

  it('is a valid production configuration once the operator supplies the required secrets', () => {
    const shell = {
      POSTGRES_PASSWORD: 'postgres-password',
      PUBLIC_BASE_URL: 'https://steward.example.com',
      JWT_SECRET: 'a'.repeat(64),
      API_KEY_PEPPER: 'b'.repeat(64),
      SMTP_URL: 'smtp://mail.example.com:587',
      S3_PUBLIC_ENDPOINT: 'https://blobs.example.com',
      MINIO_ROOT_PASSWORD: 'minio-password',
    }
    for (const [name, service] of stewardServices) {
      const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([variable, value]) => [variable, interpolate(String(value), shell)]))
      const config = loadConfig(env)
      expect(config.environment, name).toBe('production')
      expect(config.databaseUrl, name).toBe('postgres://steward:postgres-password@postgres:5432/steward')
      expect(config.blobStore, name).toMatchObject({ kind: 's3', bucket: 'steward-blobs', endpoint: 'http://minio:9000', publicEndpoint: 'https://blobs.example.com' })
      expect(config.workersInProcess, name).toBe(false)
    }
    // Without the secrets compose refuses to start, rather than starting a half-configured service.
    expect(() => interpolate(String(compose.services.api!.environment!.JWT_SECRET), {})).toThrow(/JWT_SECRET is required/)
  })

  it('creates the bucket the services are configured with', () => {
    const setup = JSON.stringify(compose.services['minio-setup'])
    expect(setup).toContain(`mc mb --ignore-existing steward/${compose.services.api!.environment!.S3_BUCKET}`)
  })

  it('lets the API scale: no fixed host port, replicas, started after migrations', () => {
    const api = compose.services.api!
    for (const port of api.ports ?? []) expect(String(port), 'a fixed host port collides between replicas').not.toContain(':')
    expect(api.deploy?.replicas).toBeGreaterThanOrEqual(2)
    expect(api.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' })
    expect(compose.services.worker!.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' })
    expect(compose.services.worker!.healthcheck?.disable).toBe(true)
  })

  it('starts the files the npm scripts start', () => {
    const scriptFile = (script: string) => packageJson.scripts[script]!.split(/\s+/).find((word) => word.endsWith('.ts'))
    expect(compose.services.migrate!.command).toEqual(['node', '--import', 'tsx', scriptFile('migrate')])
    expect(compose.services.worker!.command).toEqual(['node', '--import', 'tsx', scriptFile('worker')])
    for (const [, service] of stewardServices) {
      for (const word of service.command ?? []) if (word.endsWith('.ts')) expect(existsSync(join(root, word)), word).toBe(true)
    }
  })
})

describe('Dockerfile', () => {
  const instructions = dockerInstructions()
  const froms = instructions.filter((instruction) => instruction.keyword === 'FROM')
  const finalStage = instructions.slice(instructions.lastIndexOf(froms.at(-1)!))

  it('is multi-stage on a Node 20 image pinned by its full version tag', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2)
    for (const from of froms) expect(from.args).toMatch(/^node:20\.\d+\.\d+-[a-z-]+ AS [a-z-]+$/)
  })

  it('installs production dependencies only, from the lockfile; tsx, which runs the service, is one of them', () => {
    const runs = instructions.filter((instruction) => instruction.keyword === 'RUN').map((instruction) => instruction.args)
    expect(runs.some((run) => run.includes('npm ci --omit=dev'))).toBe(true)
    expect(packageJson.dependencies.tsx).toBeDefined()
  })

  it('runs as a non-root user in its final stage', () => {
    const users = finalStage.filter((instruction) => instruction.keyword === 'USER').map((instruction) => instruction.args)
    expect(users.length).toBeGreaterThan(0)
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/)
  })

  it('copies only paths that exist, and the .dockerignore keeps local state and secrets out', () => {
    for (const copy of instructions.filter((instruction) => instruction.keyword === 'COPY' && !instruction.args.startsWith('--from'))) {
      const sources = copy.args.split(/\s+/).slice(0, -1)
      for (const source of sources) expect(existsSync(join(root, source)), source).toBe(true)
    }
    const ignored = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n')
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', '.env', '.steward-data', '.git']))
  })

  it('starts the server the way `npm run server` does, from a file that exists', () => {
    const cmd = finalStage.filter((instruction) => instruction.keyword === 'CMD').at(-1)!
    const words = JSON.parse(cmd.args) as string[]
    expect(words.join(' ')).toBe(packageJson.scripts.server!.replace(/^exec /, ''))
    expect(existsSync(join(root, words.at(-1)!))).toBe(true)
  })

  describe('its health check', () => {
    let test: TestApp
    beforeAll(async () => {
      test = await createTestApp()
    })
    afterAll(async () => test?.close())

    it('asks GET /v1/health, a route that answers 200 without credentials', async () => {
      const healthcheck = finalStage.find((instruction) => instruction.keyword === 'HEALTHCHECK')
      expect(healthcheck).toBeDefined()
      const path = /'(\/v1\/[a-z]+)'/.exec(healthcheck!.args)?.[1]
      expect(path).toBe('/v1/health')
      const response = await test.request({ method: 'GET', url: path! })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toMatchObject({ status: 'ok' })
    })
  })
})
