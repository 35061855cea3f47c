/**
 * The agent protocol's own listener (MCP_PORT): the spec addresses the JSON-RPC entry at its own URL
 * ({mcp_url}, `POST /`). Its requests are handed to the app's router as `POST /v1/agents/mcp`, so the same
 * route, guard, checks before dispatch and handler answer them; any other path is 404 in the flat variant.
 */
import { createServer, type Server } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { mcpPath } from '../modules/mcp/index.ts'

/** Starts the listener once the app is ready; resolves with the server (close it before the app). */
export async function startMcpListener(app: FastifyInstance, options: { port: number; host: string }): Promise<Server> {
  await app.ready()
  const server = createServer((request, response) => {
    const url = request.url ?? '/'
    const queryAt = url.indexOf('?')
    const path = queryAt < 0 ? url : url.slice(0, queryAt)
    if (path !== '/') {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' })
      response.end(JSON.stringify({ error_code: 'route_not_found', message: 'The agent-protocol listener serves POST / only.' }))
      return
    }
    request.url = mcpPath + (queryAt < 0 ? '' : url.slice(queryAt))
    app.routing(request, response)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return server
}
