/**
 * The bare twins of two workloads (issue 16): a plain Fastify server with a plain `pg` pool — none of
 * Steward's framework (no guard, schemas, hooks, logging, Drizzle, command runner) — doing the same
 * database work as Steward's route, so the ratio says what the framework costs on top of the queries.
 *
 * - `GET /bare/tenants/:tenant_id`: verify the JWT (jose, the same key and claims), re-read the principal
 *   (users ⋈ members ⋈ tenants, as the auth check does), check the tenant, select the tenant: the twin of
 *   the authenticated read `GET /v1/tenants/{id}`.
 * - `POST /bare/insert`: the same authentication, then one single-row INSERT and its commit: what the
 *   issue compares `POST /v1/policy/{id}/evaluate` (a read plus one audited write) with.
 *
 * PostgreSQL only (it needs a database other processes can reach through `pg`).
 */
import Fastify from 'fastify'
import { jwtVerify } from 'jose'
import pg from 'pg'

export interface BareServer {
  readonly baseUrl: string
  close(): Promise<void>
}

export async function startBareServer(options: { databaseUrl: string; jwtSecret: string; issuer: string; poolSize: number }): Promise<BareServer> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize })
  await pool.query('create table if not exists bench_bare_insert (id text primary key, tenant_id uuid not null, payload jsonb not null, created_at timestamptz not null)')
  const key = new TextEncoder().encode(options.jwtSecret)
  let sequence = 0

  async function principal(authorization: string | undefined): Promise<{ tenantId: string; userId: string } | undefined> {
    if (authorization === undefined || !authorization.startsWith('Bearer ')) return undefined
    const { payload } = await jwtVerify(authorization.slice(7), key, { algorithms: ['HS256'], issuer: options.issuer, audience: 'steward-api', requiredClaims: ['sub', 'exp', 'iat', 'jti'] })
    const tenantId = String(payload.tid)
    const userId = String(payload.sub)
    const found = await pool.query(
      `select u.status as user_status, m.status as member_status, m.role, t.status as tenant_status
         from users u join members m on m.user_id = u.id and m.tenant_id = u.tenant_id join tenants t on t.id = u.tenant_id
        where u.tenant_id = $1 and u.id = $2 limit 1`,
      [tenantId, userId],
    )
    const row = found.rows[0]
    if (row === undefined || row.user_status !== 'active' || row.member_status !== 'active' || row.tenant_status !== 'active') return undefined
    return { tenantId, userId }
  }

  const app = Fastify({ logger: false })
  app.get<{ Params: { tenant_id: string } }>('/bare/tenants/:tenant_id', async (request, reply) => {
    const caller = await principal(request.headers.authorization)
    if (caller === undefined || caller.tenantId !== request.params.tenant_id) return reply.code(401).send({ error: 'unauthorized' })
    const tenant = await pool.query('select id, name, status, created_at from tenants where id = $1', [request.params.tenant_id])
    return tenant.rows[0]
  })
  app.post('/bare/insert', async (request, reply) => {
    const caller = await principal(request.headers.authorization)
    if (caller === undefined) return reply.code(401).send({ error: 'unauthorized' })
    const client = await pool.connect()
    try {
      await client.query('begin')
      sequence += 1
      await client.query('insert into bench_bare_insert (id, tenant_id, payload, created_at) values ($1, $2, $3, now())', [`bare_${process.pid}_${sequence}`, caller.tenantId, JSON.stringify(request.body ?? {})])
      await client.query('commit')
    } catch (error) {
      await client.query('rollback')
      throw error
    } finally {
      client.release()
    }
    return { ok: true }
  })
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  return {
    baseUrl: address,
    async close() {
      await app.close()
      await pool.end()
    },
  }
}
