// Installs the locked dependencies when they are missing or older than the lockfile, so the quick-start
// commands (`npm start`, `npm test`) work on a fresh clone in either order. Plain Node with no
// dependencies of its own: it runs before anything is installed.
import { spawnSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Runs `npm ci` when node_modules is missing or stale; exits the process when the install fails. */
export function installIfMissing() {
  const installedMarker = join(root, 'node_modules', '.package-lock.json')
  const lockfile = join(root, 'package-lock.json')
  const needsInstall = !existsSync(installedMarker) || statSync(installedMarker).mtimeMs < statSync(lockfile).mtimeMs
  if (!needsInstall) return
  console.log('Installing dependencies (npm ci)…')
  const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' })
  if (install.status !== 0) process.exit(install.status ?? 1)
}
