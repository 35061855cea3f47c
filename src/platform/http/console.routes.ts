/**
 * The console (`/console`): the web page a finance team works in, built by `npm run console:build`
 * (scripts/build-console.mjs) into dist/console and served from there as static files. Like the API
 * reference UI (/docs/api) its routes are public, hidden from OpenAPI and not operations: the page signs
 * in through the public API and holds its token in memory; the files themselves carry no data.
 *
 * Every answer carries a strict Content-Security-Policy: scripts and styles from this origin only (no
 * inline script, no eval), no plugins, no framing, API calls to this origin only.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { AppError } from '../../kernel/errors.ts'

export const consolePrefix = '/console'

export const consoleContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** The repository root: the nearest folder above this file with a package.json (src/ or dist/src/). */
function repositoryRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(folder, 'package.json')) && dirname(folder) !== folder) folder = dirname(folder)
  return folder
}

/** Where the built console is unless configured otherwise (CONSOLE_DIR): dist/console in the repository. */
export function defaultConsoleDirectory(): string {
  return join(repositoryRoot(), 'dist', 'console')
}

const contentTypes: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  map: 'application/json; charset=utf-8',
}
const assetName = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.(html|js|css|svg|png|map)$/

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', consoleContentSecurityPolicy)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('cross-origin-opener-policy', 'same-origin')
}

export async function consoleRoutes(app: FastifyInstance, options: { readonly directory?: string | undefined }): Promise<void> {
  const directory = options.directory ?? defaultConsoleDirectory()
  const config = { auth: { kind: 'public' as const } }

  const serve = (reply: FastifyReply, name: string) => {
    const match = assetName.exec(name)
    const path = join(directory, name)
    if (match === null || !existsSync(path) || !statSync(path).isFile()) {
      throw new AppError('route_not_found', `No console file ${name}.`)
    }
    secure(reply)
      .type(contentTypes[match[1]!]!)
      // Assets are named by their content hash (app-<hash>.js); the page itself is always revalidated.
      .header('cache-control', name === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable')
    return reply.send(readFileSync(path))
  }

  app.get(consolePrefix, { schema: { hide: true }, config }, async (_request, reply) => {
    if (!existsSync(join(directory, 'index.html'))) {
      // The error envelope, as every non-2xx answer.
      throw new AppError('service_unavailable', 'The console is not built: run `npm run console:build` (npm start builds it when missing).')
    }
    return serve(reply, 'index.html')
  })
  app.get(`${consolePrefix}/:file`, { schema: { hide: true }, config }, async (request, reply) => serve(reply, (request.params as { file: string }).file))
}
