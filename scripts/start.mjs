#!/usr/bin/env node
// `npm start`: the one quick-start command. Installs dependencies when they are missing or older than
// the lockfile, then runs the API server (embedded PGlite unless DATABASE_URL is set). Plain Node, no
// dependencies of its own, because it runs before anything is installed.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { installIfMissing, root } from './install-if-missing.mjs'

installIfMissing()

// The console (/console) is built from console/ when its build is missing or older than its sources.
const { buildConsole, consoleBuildStale } = await import('./build-console.mjs')
if (consoleBuildStale()) {
  try {
    await buildConsole()
  } catch (error) {
    console.log(`The console could not be built (${error instanceof Error ? error.message : String(error)}); /console will say so. The API runs regardless.`)
  }
}

// tsx as a loader inside the server's own process (not the tsx CLI, whose signal relay SIGKILLs a child
// that is busy for more than 30 ms): SIGTERM reaches the server, which drains requests and jobs.
const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'src', 'main', 'server.ts')], { cwd: root, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))

// npm runs this script with `exec` (package.json), so a signal to `npm start`'s pid reaches this process,
// which passes it on. Should whatever started it die without passing anything (npm killed with SIGKILL,
// a closed terminal's shell), this process is orphaned: it then stops the server as if sent SIGTERM, so
// the port and the embedded database's lock never outlive the command that was stopped.
const parent = process.ppid
const orphanWatch = setInterval(() => {
  if (process.ppid === parent) return
  clearInterval(orphanWatch)
  server.kill('SIGTERM')
}, 1_000)
orphanWatch.unref()
