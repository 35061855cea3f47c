#!/usr/bin/env node
// `npm test`: installs what is missing (like `npm start`), then runs the suite with vitest, passing on
// any arguments (`npm test -- test/modules/raw`). Signals reach vitest, which stops its workers.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { installIfMissing, root } from './install-if-missing.mjs'

installIfMissing()
if (process.env.TEST_REDIS_URL === undefined) {
  console.log('TEST_REDIS_URL is not set: the tests against a real Redis are skipped (CI sets it).')
}
if (process.env.TEST_REQUIRE_MOTO !== 'true' && spawnSync('python3', ['-c', 'import moto.server'], { stdio: 'ignore', timeout: 30_000 }).status !== 0) {
  console.log("moto (Python) is not installed: the tests on a versioned S3 bucket are skipped (pip install 'moto[server]'; CI runs them).")
}
// The console's browser tests (test/console) drive Debian's Chromium. Install it when it is missing and
// this user may (root, apt-get present); otherwise say plainly that those tests are skipped.
const chromium = '/usr/bin/chromium'
if (!existsSync(chromium) && process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0) {
  console.log('Chromium is missing: installing it for the console browser tests (apt-get install -y chromium)…')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  if (spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env }).status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env })
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env })
  }
}
if (!existsSync(chromium)) {
  console.log(`NOTICE: ${chromium} is missing and could not be installed: the console browser tests (test/console) are SKIPPED. Install it with: apt-get install -y chromium`)
}
const vitest = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => vitest.kill(signal))
vitest.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
