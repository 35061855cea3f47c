/**
 * A real webhook receiver for tests: a node:http server on 127.0.0.1 whose answer is programmable per
 * path (a status code, or `hang` to never answer). Every delivery it gets is verified on arrival with
 * the `standardwebhooks` library's `Webhook.verify` against each secret registered for its path, and
 * the secrets that verified it are recorded, so a test can assert that every delivery was authentic.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export type ReceiverAnswer = number | 'hang'

export interface ReceivedDelivery {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  /** The parsed JSON body. */
  readonly payload: Record<string, unknown> & { type: string; id: string; tenant_id: string; created_at: string; data: Record<string, unknown> }
  /** Indexes (into the path's secrets at arrival) of the secrets whose signature verified. */
  readonly verifiedBy: readonly number[]
  readonly answeredWith: ReceiverAnswer
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port><path>` */
  url(path: string): string
  readonly received: ReceivedDelivery[]
  deliveriesTo(path: string): ReceivedDelivery[]
  /** What requests to `path` are answered with from now on (default 200). */
  answer(path: string, answer: ReceiverAnswer): void
  /** Answers the next requests to `path` with these, in order, then falls back to `answer`'s. */
  answerSequence(path: string, answers: readonly ReceiverAnswer[]): void
  /** The signing secrets deliveries to `path` are verified against. */
  setSecrets(path: string, secrets: readonly string[]): void
  close(): Promise<void>
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = []
  const answers = new Map<string, ReceiverAnswer>()
  const sequences = new Map<string, ReceiverAnswer[]>()
  const secrets = new Map<string, readonly string[]>()
  const hanging = new Set<ServerResponse>()

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0]!
      const body = Buffer.concat(chunks).toString('utf8')
      const verifiedBy: number[] = []
      for (const [index, secret] of (secrets.get(path) ?? []).entries()) {
        try {
          new Webhook(secret).verify(body, request.headers as Record<string, string>)
          verifiedBy.push(index)
        } catch {
          // Not signed by this secret.
        }
      }
      const answeredWith = sequences.get(path)?.shift() ?? answers.get(path) ?? 200
      let payload: ReceivedDelivery['payload']
      try {
        payload = JSON.parse(body)
      } catch {
        payload = { type: '', id: '', tenant_id: '', created_at: '', data: {} }
      }
      received.push({ path, headers: request.headers, body, payload, verifiedBy, answeredWith })
      if (answeredWith === 'hang') {
        hanging.add(response)
        response.on('close', () => hanging.delete(response))
        return
      }
      response.writeHead(answeredWith, { 'content-type': 'text/plain' })
      response.end(answeredWith >= 200 && answeredWith < 300 ? 'ok' : 'receiver says no: this body must never be stored')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    deliveriesTo: (path) => received.filter((delivery) => delivery.path === path),
    answer: (path, answer) => {
      answers.set(path, answer)
    },
    answerSequence: (path, pathAnswers) => {
      sequences.set(path, [...pathAnswers])
    },
    setSecrets: (path, pathSecrets) => {
      secrets.set(path, [...pathSecrets])
    },
    close: async () => {
      for (const response of hanging) response.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
