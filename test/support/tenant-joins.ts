/**
 * Joins that could cross tenants, found in the source (docs/scaling.md, "No query joins across tenants").
 * When tables are split by tenant, a join between two tenant-scoped tables is answered on one node only
 * if it pairs their tenants; so every such join must name the joined table's tenant column:
 *
 * - a Drizzle join, `.innerJoin(table, condition)` (and left, right, full): the condition (or the
 *   constant it names) mentions `<table>.tenantId`;
 * - a `join <table> … on …` in an `sql` template: the ON clause mentions `tenant_id` or `.tenantId`;
 * - a subquery `(select … from <table> …)` in an `sql` template (an EXISTS, a scalar lookup): it mentions
 *   `tenant_id` or `.tenantId`.
 *
 * Joins with reference tables (tenants, the directories) and with `unnest(…)` are free. The parse is the
 * TypeScript compiler's; the SQL inside templates is matched by pattern, so a query written in another
 * shape (a comma join) is not seen — the catalog test and review cover those.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { getTableName, getViewName, is } from 'drizzle-orm'
import { PgTable, PgView } from 'drizzle-orm/pg-core'
import ts from 'typescript'
import { tableFiles } from './schema.ts'

const sourceRoot = fileURLToPath(new URL('../../src/', import.meta.url))

export interface JoinFinding {
  readonly file: string
  readonly line: number
  readonly joined: string
  readonly text: string
}

/** The SQL name of every table and view the `*.tables.ts` files export, by the identifier they export it as. */
export async function relationIdentifiers(): Promise<Map<string, string>> {
  const names = new Map<string, string>()
  for (const file of tableFiles()) {
    const exported = (await import(pathToFileURL(`${sourceRoot}${file}`).href)) as Record<string, unknown>
    for (const [identifier, value] of Object.entries(exported)) {
      if (is(value, PgTable)) names.set(identifier, getTableName(value))
      else if (is(value, PgView)) names.set(identifier, getViewName(value))
    }
  }
  return names
}

/** Every source file of src/ (tests and test helpers excepted), relative to src/. */
export function sourceFiles(): string[] {
  return readdirSync(sourceRoot, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.testing.ts'))
    .sort()
}

export const readSource = (file: string) => readFileSync(`${sourceRoot}${file}`, 'utf8')

const drizzleJoins = new Set(['innerJoin', 'leftJoin', 'rightJoin', 'fullJoin'])
const tenantMention = /tenant_id|\.tenantId\b/
const sqlJoin = /\bjoin\s+(?:\$\{\s*([\w.]+)\s*\}|"?([a-z_]+)"?)(?:\s+(?:as\s+)?[a-z_]+)?\s+on\b([\s\S]*?)(?=\b(?:left|right|inner|full|cross)?\s*join\b|\bwhere\b|\bgroup\s+by\b|\border\s+by\b|\blimit\b|\breturning\b|$)/gi
const sqlSubquery = /\(\s*select\b[^()]*?\bfrom\s+(?:\$\{\s*([\w.]+)\s*\}|"?([a-z_]+)"?)[^()]*\)/gi

/** The joins in one file that pair two tenant-scoped relations without naming the tenant. */
export function crossTenantJoins(file: string, text: string, identifiers: ReadonlyMap<string, string>, tenantScoped: ReadonlySet<string>): JoinFinding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const constants = new Map<string, string>()
  const findings: JoinFinding[] = []
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
  const relationOf = (name: string) => identifiers.get(name) ?? (tenantScoped.has(name) ? name : undefined)

  const collectConstants = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined) {
      constants.set(node.name.text, node.initializer.getText(source))
    }
    ts.forEachChild(node, collectConstants)
  }
  collectConstants(source)

  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && drizzleJoins.has(node.expression.name.text)) {
      const [joined, condition] = node.arguments
      if (joined !== undefined && ts.isIdentifier(joined)) {
        const relation = relationOf(joined.text)
        const conditionText = condition === undefined ? '' : ts.isIdentifier(condition) ? (constants.get(condition.text) ?? condition.text) : condition.getText(source)
        if (relation !== undefined && tenantScoped.has(relation) && !conditionText.includes(`${joined.text}.tenantId`)) {
          findings.push({ file, line: lineOf(node), joined: relation, text: node.getText(source) })
        }
      }
    }
    if (ts.isTaggedTemplateExpression(node) && node.tag.getText(source).startsWith('sql')) {
      const template = node.template.getText(source)
      for (const match of template.matchAll(sqlJoin)) {
        const relation = relationOf(match[1] ?? match[2] ?? '')
        if (relation !== undefined && tenantScoped.has(relation) && !tenantMention.test(match[3] ?? '')) {
          findings.push({ file, line: lineOf(node), joined: relation, text: match[0] })
        }
      }
      for (const match of template.matchAll(sqlSubquery)) {
        const relation = relationOf(match[1] ?? match[2] ?? '')
        if (relation !== undefined && tenantScoped.has(relation) && !tenantMention.test(match[0])) {
          findings.push({ file, line: lineOf(node), joined: relation, text: match[0] })
        }
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return findings
}
