/**
 * A language model and an embedding model behind an OpenAI-compatible endpoint (POST {base}/chat/completions,
 * POST {base}/embeddings), configured by LLM_BASE_URL, LLM_MODEL, LLM_API_KEY and LLM_EMBEDDING_MODEL
 * (src/main/config.ts); all unset, there is none. Each call has a timeout; the API key is sent as a bearer
 * header and never logged; an error names the endpoint's status, never the request or the key.
 */

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant'
  readonly content: string
}

export interface LanguageModel {
  readonly model: string
  chat(request: { messages: ReadonlyArray<{ role: 'system' | 'user' | 'assistant'; content: string }>; json?: boolean; maxTokens?: number }): Promise<{ content: string; usage: { promptTokens: number; completionTokens: number } }>
}

export interface EmbeddingModel {
  readonly model: string
  embed(texts: readonly string[]): Promise<{ vectors: number[][]; usage: { promptTokens: number } }>
}

export interface LanguageModelSettings {
  /** e.g. https://api.openai.com/v1 (the paths /chat/completions and /embeddings are appended). */
  readonly baseUrl: string
  readonly model: string
  readonly apiKey: string | undefined
  readonly embeddingModel?: string | undefined
  /** Per call; default 20 s. */
  readonly timeoutMs?: number
  readonly fetch?: typeof fetch
}

/** A call that failed: the endpoint's HTTP status, a timeout or an unreadable reply (no request text, no key). */
export class LanguageModelError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message)
    this.name = 'LanguageModelError'
  }
}

const defaultTimeoutMs = 20_000

async function post(settings: LanguageModelSettings, path: string, body: unknown): Promise<Record<string, unknown>> {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}${path}`
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
  if (settings.apiKey !== undefined && settings.apiKey !== '') headers['authorization'] = `Bearer ${settings.apiKey}`
  let response: Response
  try {
    response = await (settings.fetch ?? fetch)(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(settings.timeoutMs ?? defaultTimeoutMs) })
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
    throw new LanguageModelError(timedOut ? `the language model endpoint did not answer ${path} in time` : `the language model endpoint could not be reached (${path})`, null)
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined)
    throw new LanguageModelError(`the language model endpoint answered ${path} with HTTP ${response.status}`, response.status)
  }
  let parsed: unknown
  try {
    parsed = await response.json()
  } catch {
    throw new LanguageModelError(`the language model endpoint answered ${path} with something other than JSON`, response.status)
  }
  if (typeof parsed !== 'object' || parsed === null) throw new LanguageModelError(`the language model endpoint answered ${path} with an unexpected body`, response.status)
  return parsed as Record<string, unknown>
}

const tokens = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0)

export function createLanguageModel(settings: LanguageModelSettings): LanguageModel {
  return {
    model: settings.model,
    async chat(request) {
      const body = await post(settings, '/chat/completions', {
        model: settings.model,
        messages: request.messages,
        temperature: 0,
        ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
        ...(request.json === true ? { response_format: { type: 'json_object' } } : {}),
      })
      const choices = body['choices']
      const first = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown } } | undefined) : undefined
      const content = first?.message?.content
      if (typeof content !== 'string') throw new LanguageModelError('the language model endpoint answered without a message', 200)
      const usage = (body['usage'] ?? {}) as Record<string, unknown>
      return { content, usage: { promptTokens: tokens(usage['prompt_tokens']), completionTokens: tokens(usage['completion_tokens']) } }
    },
  }
}

export function createEmbeddingModel(settings: LanguageModelSettings & { embeddingModel: string }): EmbeddingModel {
  return {
    model: settings.embeddingModel,
    async embed(texts) {
      if (texts.length === 0) return { vectors: [], usage: { promptTokens: 0 } }
      const body = await post(settings, '/embeddings', { model: settings.embeddingModel, input: texts })
      const data = body['data']
      if (!Array.isArray(data) || data.length !== texts.length) throw new LanguageModelError('the embedding endpoint answered with the wrong number of vectors', 200)
      const ordered = [...(data as Array<{ index?: unknown; embedding?: unknown }>)].sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0))
      const vectors = ordered.map((item) => {
        if (!Array.isArray(item.embedding) || !item.embedding.every((x) => typeof x === 'number')) throw new LanguageModelError('the embedding endpoint answered with a malformed vector', 200)
        return item.embedding as number[]
      })
      const usage = (body['usage'] ?? {}) as Record<string, unknown>
      return { vectors, usage: { promptTokens: tokens(usage['prompt_tokens']) } }
    },
  }
}
