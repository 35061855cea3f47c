#!/usr/bin/env node
// The steward CLI (src/cli/main.ts), run through tsx's loader in this process, as the other scripts are.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/main.ts')
const controller = new AbortController()
let interrupted = false
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // The first signal stops a long-running command (tail, listen) cleanly; a second one exits at once.
    if (interrupted) process.exit(130)
    interrupted = true
    controller.abort()
  })
}
process.exitCode = await main(process.argv.slice(2), process.env, controller.signal)
