/**
 * A local OpenAI-compatible server for tests: POST /v1/chat/completions answers with what the test
 * scripts (a function of the request, or a queue of replies), POST /v1/embeddings answers deterministic
 * vectors (a hashed bag of words, L2-normalized, `dimensions` long). It records every request (with its
 * Authorization header) so a test can check what was sent. Listens on 127.0.0.1, a free port.
 */
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ChatRequestBody {
  model: string
  messages: Array<{ role: string; content: string }>
  response_format?: { type: string }
  max_tokens?: number
  temperature?: number
}

export type ChatReply = string | { status: number; body?: unknown } | { delayMs: number; content: string }

export interface LlmServer {
  /** e.g. http://127.0.0.1:PORT/v1 — what LLM_BASE_URL is set to. */
  readonly baseUrl: string
  readonly requests: Array<{ path: string; authorization: string | undefined; body: any }>
  /** How chat requests are answered; default: the last user message echoed. */
  chat: (request: ChatRequestBody) => ChatReply
  close(): Promise<void>
}

export const embeddingDimensions = 64

/** The deterministic embedding of a text: words hashed into `dimensions` buckets, L2-normalized. */
export function hashedEmbedding(text: string, dimensions = embeddingDimensions): number[] {
  const vector = new Array<number>(dimensions).fill(0)
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const digest = createHash('sha256').update(word).digest()
    vector[digest.readUInt32BE(0) % dimensions]! += digest[4]! % 2 === 0 ? 1 : -1
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0))
  return norm === 0 ? vector : vector.map((x) => x / norm)
}

const tokensOf = (text: string) => Math.max(1, Math.ceil(text.length / 4))

async function bodyOf(request: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  return text === '' ? {} : JSON.parse(text)
}

export async function startLlmServer(): Promise<LlmServer> {
  const requests: LlmServer['requests'] = []
  const state: { chat: LlmServer['chat'] } = {
    chat: (request) => request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '',
  }
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request)
      const path = request.url ?? ''
      requests.push({ path, authorization: request.headers.authorization, body })
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(JSON.stringify(payload))
      }
      if (request.method === 'POST' && path === '/v1/chat/completions') {
        const reply = state.chat(body as ChatRequestBody)
        if (typeof reply === 'object' && 'status' in reply) return send(reply.status, reply.body ?? { error: { message: 'scripted failure' } })
        if (typeof reply === 'object' && 'delayMs' in reply) await new Promise((resolve) => setTimeout(resolve, reply.delayMs))
        const content = typeof reply === 'string' ? reply : reply.content
        const prompt = (body as ChatRequestBody).messages.map((m) => m.content).join('\n')
        return send(200, {
          id: 'chatcmpl-test',
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: tokensOf(prompt), completion_tokens: tokensOf(content), total_tokens: tokensOf(prompt) + tokensOf(content) },
        })
      }
      if (request.method === 'POST' && path === '/v1/embeddings') {
        const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input]
        return send(200, {
          object: 'list',
          model: body.model,
          data: inputs.map((input, index) => ({ object: 'embedding', index, embedding: hashedEmbedding(String(input)) })),
          usage: { prompt_tokens: inputs.reduce((sum, input) => sum + tokensOf(String(input)), 0), total_tokens: 0 },
        })
      }
      send(404, { error: { message: 'not found' } })
    })().catch(() => {
      response.writeHead(500)
      response.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get chat() {
      return state.chat
    },
    set chat(handler) {
      state.chat = handler
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
