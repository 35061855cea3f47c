#!/usr/bin/env node
/**
 * `npm run lint:boundaries`: checks the import rules of .dependency-cruiser.cjs over src/ (and sdk/) and fails on any
 * violation. dependency-cruiser silently cruises nothing when it cannot parse TypeScript, so this also
 * fails when fewer files were cruised than src/ holds: a check that checks nothing is not a pass.
 *
 * `lintBoundaries(directory)` is what the boundary test runs over planted violations.
 */
import { existsSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { cruise } from 'dependency-cruiser'

const repositoryRoot = resolve(fileURLToPath(new URL('..', import.meta.url)))
const config = createRequire(import.meta.url)(join(repositoryRoot, '.dependency-cruiser.cjs'))

/** Source files dependency-cruiser must see (tests and test helpers are excluded by the config). */
function sourceFiles(directory) {
  return readdirSync(join(directory, 'src'), { recursive: true, encoding: 'utf8' }).filter(
    (path) => path.endsWith('.ts') && !path.endsWith('.d.ts') && !/\.test\.ts$|\.testing\.ts$/.test(path),
  )
}

/** Cruises `directory`/src with the project's rules; returns the violations and how many files were read. */
export async function lintBoundaries(directory = repositoryRoot) {
  const previous = process.cwd()
  process.chdir(directory)
  try {
    // sdk/ and console/ are cruised too (when there) so that their own rules are checked; only src/ is counted.
    const result = await cruise(['src', ...['sdk', 'console'].filter((folder) => existsSync(join(directory, folder)))], {
      ruleSet: { forbidden: config.forbidden },
      ...config.options,
      tsConfig: { fileName: join(repositoryRoot, 'tsconfig.json') },
      validate: true,
      outputType: 'json',
    })
    const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output
    const cruised = output.modules.filter((module) => module.source.startsWith('src/')).length
    return {
      violations: output.summary.violations.map((violation) => ({ rule: violation.rule.name, from: violation.from, to: violation.to })),
      cruised,
      expected: sourceFiles(directory).length,
    }
  } finally {
    process.chdir(previous)
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { violations, cruised, expected } = await lintBoundaries()
  for (const violation of violations) console.error(`${violation.rule}: ${violation.from} → ${violation.to}`)
  if (cruised < expected) {
    console.error(`only ${cruised} of ${expected} source files were cruised: the import rules were not checked (is typescript installed?)`)
    process.exit(1)
  }
  console.log(`${cruised} files cruised, ${violations.length} import-rule violation(s)`)
  process.exit(violations.length === 0 ? 0 : 1)
}
