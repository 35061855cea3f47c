/**
 * The typed SDK's generated files (sdk/, docs/architecture.md "The SDK"):
 * - `npm run sdk:generate` writes sdk/openapi.json (the document, as `npm run openapi` builds it) and
 *   sdk/schema.d.ts (its TypeScript types, by openapi-typescript);
 * - `npm run sdk:check` builds both again and fails, naming the files, when the committed ones differ:
 *   a route or schema changed without `npm run sdk:generate`. CI runs it with the static checks.
 *
 * The document's `servers` entry is the default local address whatever PUBLIC_BASE_URL says, so every
 * machine generates the same bytes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import { defaultPublicBaseUrl, documentText, generateOpenApiDocument } from './openapi-document.ts'

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..')
export const sdkDirectory = join(repositoryRoot, 'sdk')

/** The generated files, path → content. */
export async function generateSdkFiles(): Promise<Map<string, string>> {
  const document = await generateOpenApiDocument({ publicBaseUrl: defaultPublicBaseUrl })
  const types = astToString(await openapiTS(document as never, { alphabetize: false, exportType: false }))
  return new Map([
    [join(sdkDirectory, 'openapi.json'), documentText(document)],
    [join(sdkDirectory, 'schema.d.ts'), types],
  ])
}

const mode = process.argv[2]
if (mode !== 'generate' && mode !== 'check') {
  console.error('usage: tsx scripts/sdk.ts generate|check')
  process.exit(2)
}
const files = await generateSdkFiles()
if (mode === 'generate') {
  for (const [path, content] of files) writeFileSync(path, content)
  console.log(`wrote ${[...files.keys()].map((path) => relative(repositoryRoot, path)).join(', ')}`)
} else {
  const stale = [...files].filter(([path, content]) => !existsSync(path) || readFileSync(path, 'utf8') !== content).map(([path]) => relative(repositoryRoot, path))
  if (stale.length > 0) {
    console.error(`${stale.join(', ')} differ from a fresh generation: run \`npm run sdk:generate\` and commit the result.`)
    process.exit(1)
  }
  console.log(`${[...files.keys()].map((path) => relative(repositoryRoot, path)).join(', ')} match a fresh generation`)
}
