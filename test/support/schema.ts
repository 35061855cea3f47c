/**
 * Every table of the schema, read from the `*.tables.ts` files the way drizzle.config.ts collects them,
 * so a test over "every table" sees a table of a module added later without being edited.
 */
import { readdirSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { PgTable } from 'drizzle-orm/pg-core'

const sourceRoot = fileURLToPath(new URL('../../src/', import.meta.url))

export function tableFiles(): string[] {
  return readdirSync(sourceRoot, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.tables.ts'))
    .sort()
}

export async function allTables(): Promise<PgTable[]> {
  const tables: PgTable[] = []
  for (const file of tableFiles()) {
    const exported = (await import(pathToFileURL(`${sourceRoot}${file}`).href)) as Record<string, unknown>
    tables.push(...Object.values(exported).filter((value): value is PgTable => value instanceof PgTable))
  }
  return tables
}
