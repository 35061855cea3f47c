#!/usr/bin/env node
// `npm test`: installs what is missing (like `npm start`), then runs the suite with vitest, passing on
// any arguments (`npm test -- test/modules/raw`). Signals reach vitest, which stops its workers.
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { installIfMissing, root } from './install-if-missing.mjs'

installIfMissing()
if (process.env.TEST_REDIS_URL === undefined) {
  console.log('TEST_REDIS_URL is not set: the tests against a real Redis are skipped (CI sets it).')
}
if (process.env.TEST_REQUIRE_MOTO !== 'true' && spawnSync('python3', ['-c', 'import moto.server'], { stdio: 'ignore', timeout: 30_000 }).status !== 0) {
  console.log("moto (Python) is not installed: the tests on a versioned S3 bucket are skipped (pip install 'moto[server]'; CI runs them).")
}
const vitest = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => vitest.kill(signal))
vitest.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
