#!/usr/bin/env node
// `npm run console:build`: bundles the console (console/, plain TypeScript over the generated SDK) with
// esbuild into dist/console (git-ignored): index.html, app-<hash>.js and app-<hash>.css. Served by
// Fastify at /console (src/platform/http/console.routes.ts). `npm start` runs it when the build is
// missing or older than the console's sources. Prints the first load's size, raw and gzipped.
//
//   node scripts/build-console.mjs [--outdir <dir>]
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const consoleSource = join(root, 'console')
export const defaultConsoleOutdir = join(root, 'dist', 'console')

/** The newest modification time among the console's sources and the SDK it bundles. */
export function sourcesModifiedAt() {
  let newest = 0
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) walk(path)
      else newest = Math.max(newest, statSync(path).mtimeMs)
    }
  }
  walk(consoleSource)
  for (const file of ['index.ts', 'schema.d.ts']) newest = Math.max(newest, statSync(join(root, 'sdk', file)).mtimeMs)
  return newest
}

/** True when `outdir` holds no build, or one older than the sources. */
export function consoleBuildStale(outdir = defaultConsoleOutdir) {
  const index = join(outdir, 'index.html')
  return !existsSync(index) || statSync(index).mtimeMs < sourcesModifiedAt()
}

/** Builds into `outdir` (replacing what was there); answers the files and the first load's sizes. */
export async function buildConsole({ outdir = defaultConsoleOutdir, quiet = false } = {}) {
  const esbuild = await import('esbuild')
  const staging = `${outdir}.tmp-${process.pid}-${Date.now()}`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  const result = await esbuild.build({
    entryPoints: { app: join(consoleSource, 'main.ts'), style: join(consoleSource, 'style.css') },
    bundle: true,
    format: 'esm',
    target: ['es2022'],
    platform: 'browser',
    minify: true,
    legalComments: 'none',
    entryNames: '[name]-[hash]',
    outdir: staging,
    metafile: true,
    logLevel: 'warning',
  })
  const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path))
  const script = outputs.find((name) => name.startsWith('app-') && name.endsWith('.js'))
  const style = outputs.find((name) => name.startsWith('style-') && name.endsWith('.css'))
  if (script === undefined || style === undefined) throw new Error(`console build produced no script or style: ${outputs.join(', ')}`)
  const template = readFileSync(join(consoleSource, 'index.html'), 'utf8')
  writeFileSync(join(staging, 'index.html'), template.replace('{{script}}', `/console/${script}`).replace('{{style}}', `/console/${style}`))
  rmSync(outdir, { recursive: true, force: true })
  mkdirSync(dirname(outdir), { recursive: true })
  renameSync(staging, outdir)
  const firstLoad = ['index.html', script, style].map((name) => readFileSync(join(outdir, name)))
  const bytes = firstLoad.reduce((sum, buffer) => sum + buffer.length, 0)
  const gzipBytes = firstLoad.reduce((sum, buffer) => sum + gzipSync(buffer, { level: 9 }).length, 0)
  if (!quiet) console.log(`console built in ${outdir}: first load ${(bytes / 1024).toFixed(1)} KiB, ${(gzipBytes / 1024).toFixed(1)} KiB gzipped (${script}, ${style}, index.html)`)
  return { outdir, script, style, bytes, gzipBytes }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--outdir')
  await buildConsole(at === -1 ? {} : { outdir: process.argv[at + 1] })
}
