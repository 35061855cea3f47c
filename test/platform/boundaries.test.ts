/**
 * The import rules (.dependency-cruiser.cjs, `npm run lint:boundaries`) hold over src/, and each rule
 * fails on a violation planted in a tree of its own: a rule that cannot fail would be no rule.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ESM script without type declarations.
import { lintBoundaries } from '../../scripts/lint-boundaries.mjs'

type Lint = { violations: Array<{ rule: string; from: string; to: string }>; cruised: number; expected: number }
const lint = lintBoundaries as (directory?: string) => Promise<Lint>

const trees: string[] = []
afterAll(() => {
  for (const tree of trees) rmSync(tree, { recursive: true, force: true })
})

/** A source tree of `files` (path → content) laid out like the project's. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'steward-boundaries-'))
  trees.push(root)
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), content)
  }
  return root
}

/** A tree that keeps every rule: each layer importing only what it may. */
const lawful: Record<string, string> = {
  'src/kernel/ids.ts': 'export const id = () => "x"\n',
  'src/platform/db.ts': 'import { id } from "../kernel/ids.ts"\nexport const db = id\n',
  'src/modules/ledger/index.ts': 'export { entries } from "./ledger.service.ts"\n',
  'src/modules/ledger/ledger.service.ts': 'import { db } from "../../platform/db.ts"\nimport { rule } from "./domain/rule.ts"\nexport const entries = () => rule(db())\n',
  'src/modules/ledger/domain/rule.ts': 'import { id } from "../../../kernel/ids.ts"\nexport const rule = (value: string) => value + id()\n',
  'src/modules/ledger/ledger.tables.ts': 'export const ledgerTable = "ledger"\n',
  'src/modules/raw/index.ts': 'export { ingest } from "./raw.service.ts"\n',
  'src/modules/raw/raw.service.ts': 'import { entries } from "../ledger/index.ts"\nexport const ingest = entries\n',
  'src/modules/raw/raw.tables.ts': 'import { ledgerTable } from "../ledger/ledger.tables.ts"\nexport const rawTable = ledgerTable\n',
  'src/main/compose.ts': 'import { ingest } from "../modules/raw/index.ts"\nimport { ledgerTable } from "../modules/ledger/ledger.tables.ts"\nexport const compose = () => ingest() + ledgerTable\n',
  'src/cli/main.ts': 'import { request } from "./api.ts"\nexport const main = () => request("/v1/health")\n',
  'src/cli/api.ts': 'export const request = (path: string) => fetch(path)\n',
}

/** Every `*.tables.ts` import of a source file: `[file, imported tables file]`, paths relative to src/. */
function tableImports(): Array<[string, string]> {
  const source = join(import.meta.dirname, '../../src')
  const found: Array<[string, string]> = []
  for (const file of readdirSync(source, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue
    for (const match of readFileSync(join(source, file), 'utf8').matchAll(/from '([^']+\.tables\.ts)'/g)) {
      found.push([file, relative(source, resolve(dirname(join(source, file)), match[1]!))])
    }
  }
  return found
}

const moduleOf = (path: string) => /^modules\/([^/]+)\//.exec(path)?.[1] ?? path.split('/').slice(0, 2).join('/')

describe('tables', () => {
  it("are imported by their own module only (another module's tables only by a tables file, for a foreign key)", () => {
    const crossing = tableImports().filter(([file, tables]) => moduleOf(file) !== moduleOf(tables) && !file.endsWith('.tables.ts') && !file.startsWith('main/'))
    expect(crossing).toEqual([])
    expect(tableImports().length).toBeGreaterThan(20)
  })
})

describe('the import rules', () => {
  it('hold over src/, with every source file cruised', async () => {
    const result = await lint()
    expect(result.cruised).toBeGreaterThanOrEqual(result.expected)
    expect(result.expected).toBeGreaterThan(150)
    expect(result.violations).toEqual([])
  }, 120_000)

  it('find nothing wrong in a lawful tree', async () => {
    const result = await lint(tree(lawful))
    expect(result.violations).toEqual([])
    expect(result.cruised).toBe(Object.keys(lawful).length)
  }, 60_000)

  it.each([
    ['kernel-imports-nothing-of-ours', { 'src/kernel/ids.ts': 'import { db } from "../platform/db.ts"\nexport const id = () => String(db)\n' }],
    ['platform-imports-only-kernel', { 'src/platform/db.ts': 'import { entries } from "../modules/ledger/index.ts"\nexport const db = () => String(entries)\n' }],
    ['modules-meet-at-index', { 'src/modules/raw/raw.service.ts': 'import { rule } from "../ledger/domain/rule.ts"\nexport const ingest = rule\n' }],
    ['tables-reference-tables-only', { 'src/modules/raw/raw.tables.ts': 'import { entries } from "../ledger/ledger.service.ts"\nexport const rawTable = String(entries)\n' }],
    ['main-meets-modules-at-index', { 'src/main/compose.ts': 'import { ingest } from "../modules/raw/raw.service.ts"\nexport const compose = ingest\n' }],
    ['nothing-imports-main', { 'src/modules/ledger/ledger.service.ts': 'import { compose } from "../../main/compose.ts"\nexport const entries = () => String(compose)\n' }],
    ['cli-is-a-client', { 'src/cli/api.ts': 'import { id } from "../kernel/ids.ts"\nexport const request = (path: string) => fetch(path + id())\n' }],
    ['nothing-imports-cli', { 'src/main/compose.ts': 'import { main } from "../cli/main.ts"\nexport const compose = main\n' }],
    ['domain-is-pure', { 'src/modules/ledger/domain/rule.ts': 'import { db } from "../../../platform/db.ts"\nexport const rule = (value: string) => value + String(db)\n' }],
    ['pure-code-does-no-io', { 'src/modules/ledger/domain/rule.ts': 'import { sql } from "drizzle-orm"\nexport const rule = (value: string) => value + String(sql)\n' }],
    ['service-does-not-import-the-sdk', { 'src/platform/db.ts': 'import { client } from "../../sdk/index.ts"\nexport const db = () => String(client)\n', 'sdk/index.ts': 'export const client = 1\n' }],
    ['sdk-imports-nothing-of-the-service', { 'sdk/index.ts': 'import { id } from "../src/kernel/ids.ts"\nexport const client = id\n' }],
    ['no-cycles', { 'src/kernel/ids.ts': 'import { other } from "./other.ts"\nexport const id = () => String(other)\n', 'src/kernel/other.ts': 'import { id } from "./ids.ts"\nexport const other = () => id()\n' }],
  ])('fail on a planted violation of %s', async (rule, planted) => {
    const result = await lint(tree({ ...lawful, ...planted }))
    expect(result.violations.map((violation) => violation.rule)).toContain(rule)
  }, 60_000)
})
