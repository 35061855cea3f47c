/**
 * Preloaded into a server process by the crash test: when the command named in
 * STEWARD_TEST_CRASH_AFTER_COMMAND commits, the process kills itself with SIGKILL — after the commit,
 * before the response is written, the worst moment for a client that must retry.
 */
import diagnostics from 'node:diagnostics_channel'

const target = process.env.STEWARD_TEST_CRASH_AFTER_COMMAND
if (target !== undefined && target !== '') {
  diagnostics.subscribe('steward:command:committed', (message) => {
    if ((message as { name?: string }).name === target) process.kill(process.pid, 'SIGKILL')
  })
}
