/**
 * The two audit tools as operators and third parties run them, as processes: `npm run audit:verify`
 * (the chain walk, against the service's database) and `npm run audit:verify-proof` (the standalone
 * verifier, against nothing but a file).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, describe, expect, it } from 'vitest'
import { createAuditRecorder } from '../../../src/modules/audit/audit.recorder.ts'
import { createAuditStore } from '../../../src/modules/audit/audit.store.pg.ts'
import { createAuditSequencer } from '../../../src/modules/audit/sequencer.ts'
import { openDatabase, queryRows, type Database } from '../../../src/platform/db/database.ts'
import { systemClock } from '../../../src/kernel/clock.ts'
import { createIdSource } from '../../../src/kernel/ids.ts'
import { createTestApp, signupOwner, testDatabaseUrl } from '../../support/harness.ts'

const root = join(import.meta.dirname, '../../..')
const tsx = join(root, 'node_modules', '.bin', 'tsx')
const scratch = mkdtempSync(join(tmpdir(), 'steward-audit-cli-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function run(script: string, args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, [join(root, script), ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env } })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('exit', (status) => resolve({ status, output }))
  })
}

/** A database the CLI can open: the run's PostgreSQL database, or a PGlite directory no server holds. */
async function databaseForCli(): Promise<{ db: Database; env: Record<string, string> }> {
  const url = testDatabaseUrl()
  if (url !== undefined) {
    const db = await openDatabase({ url })
    await db.migrate()
    return { db, env: { DATABASE_URL: url } }
  }
  const dataDir = join(scratch, `data-${Date.now()}`)
  const db = await openDatabase({ pgliteDataDir: join(dataDir, 'pglite') })
  await db.migrate()
  return { db, env: { DATA_DIR: dataDir } }
}

describe('npm run audit:verify', () => {
  it('walks a whole chain (exit 0), names the first altered event (exit 1) and refuses bad arguments (exit 2)', async () => {
    const { db, env } = await databaseForCli()
    const tenantId = createIdSource().newUuid()
    const ids = createIdSource()
    const recorder = createAuditRecorder({ ids, clock: systemClock })
    const store = createAuditStore()
    for (let index = 0; index < 5; index += 1) {
      await db.transaction((tx) =>
        recorder.record(tx, { tenantId, layer: 'audit', actor: { type: 'system', id: 'cli-test' }, action: 'test.event', entity: { type: 'tenant', id: tenantId }, outputs: { index } }),
      )
    }
    const sequencer = createAuditSequencer({
      db,
      store,
      jobs: undefined as never,
      ids,
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      options: { batchEventsMax: 4, batchWaitSeconds: 3600, anchoringMode: 'database_hash_chain', sweepIntervalMs: 1000 },
    })
    await sequencer.settleTenant(tenantId, { closeOpenBatch: true })
    const [third] = await queryRows<{ id: string }>(db.orm, sql`select id from audit_event_log where tenant_id = ${tenantId} and seq = 3`)
    // PGlite serves one process: release the directory for the CLI.
    if (env.DATA_DIR !== undefined) await db.close()

    const whole = await run('src/main/audit-verify.ts', ['--tenant', tenantId], env)
    expect(whole.status, whole.output).toBe(0)
    expect(JSON.parse(whole.output)).toMatchObject({ tenant_id: tenantId, ok: true, events_checked: 5, anchors_checked: 2, head_seq: 5, first_break: null })

    const reopened = env.DATA_DIR === undefined ? db : await openDatabase({ pgliteDataDir: join(env.DATA_DIR, 'pglite') })
    await reopened.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`)
      await tx.execute(sql`update audit_events set outputs = '{"index":42}'::jsonb where id = ${third!.id}`)
    })
    await reopened.close()

    const broken = await run('src/main/audit-verify.ts', ['--tenant', tenantId], env)
    expect(broken.status, broken.output).toBe(1)
    expect(JSON.parse(broken.output)).toMatchObject({ ok: false, events_checked: 2, first_break: { seq: 3, event_id: third!.id, problem: 'hash_mismatch' } })

    expect((await run('src/main/audit-verify.ts', ['--tenant', 'not-a-uuid'], env)).status).toBe(2)
  }, 90_000)
})

describe('npm run audit:verify-proof', () => {
  it('verifies an event document with no service (exit 0) and rejects a tampered one (exit 1)', async () => {
    const test = await createTestApp()
    try {
      const owner = await signupOwner(test)
      await test.runtime.settleAudit({ closeOpenBatch: true })
      const [event] = await queryRows<{ id: string }>(test.runtime.db.orm, sql`select id from audit_event_log where tenant_id = ${owner.tenantId} and seq = 2`)
      const document = (await test.request({ method: 'GET', url: `/v1/audit/event/${event!.id}`, token: owner.token })).json()
      const good = join(scratch, 'event.json')
      writeFileSync(good, JSON.stringify(document))
      const passed = await run('scripts/audit-verify-proof.ts', [good])
      expect(passed.status, passed.output).toBe(0)
      expect(passed.output).toMatch(/PASS {2}event_hash/)
      expect(passed.output).toMatch(/PASS {2}proof/)
      expect(passed.output).toContain(`Event ${event!.id} verifies.`)

      const tampered = join(scratch, 'tampered.json')
      writeFileSync(tampered, JSON.stringify({ ...document, event: { ...document.event, outputs: { ...document.event.outputs, user_status: 'admin' } } }))
      const failed = await run('scripts/audit-verify-proof.ts', [tampered])
      expect(failed.status, failed.output).toBe(1)
      expect(failed.output).toMatch(/FAIL {2}event_hash/)
      expect(failed.output).toContain('does NOT verify')
    } finally {
      await test.close()
    }
  }, 90_000)
})
