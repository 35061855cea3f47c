/**
 * The wiki routes (spec, "Wiki and memory"). Questions: POST /v1/wiki/question, GET /v1/wiki/suggested-questions,
 * GET /v1/assistant/questions (wiki:read). Thin: each calls one service method with the request's context.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { contextOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute } from '../../platform/http/route-auth.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import type { QuestionsService } from './questions.service.ts'
import * as wikiSchemas from './wiki.schemas.ts'
import { QuestionBody, QuestionFeed, QuestionFeedQuery, SuggestedQuestions, WikiAnswer } from './wiki.schemas.ts'

const wikiRead = bearerRoute(['wiki:read'])

export const wikiRoutes: FastifyPluginAsyncTypebox<{ questions: QuestionsService }> = async (app, { questions }) => {
  registerNamedSchemas(app, [...Object.values(wikiSchemas)])

  app.post(
    '/v1/wiki/question',
    {
      config: { auth: wikiRead },
      schema: {
        tags: ['Wiki'],
        operationId: 'askWikiQuestion',
        summary: 'Ask a question about the books',
        description:
          'Bounded transaction listings, totals, counts and averages with an unambiguous scope (period, account, counterparty, category, direction, currency), cash flow, spending change between two periods, invoice status and listings, bills due and subscriptions are answered by deterministic Ledger queries, read as recorded at as_of (default now); relative periods resolve against as_of\'s day. ' +
          'The same question with the same as_of gives the same answer. A question that cannot be grounded is answered: false with the reason and suggested questions. Where a language model is configured (LLM_BASE_URL), it only maps a question the parser does not understand onto a query (checked against the query schema) and words the answer from the figures (kept only when every number is among them); its token usage is on the record. ' +
          'Each question is recorded (question_id wqn_…) with an audit event (layer wiki) holding the SHA-256 of the question, query, evidence set and answer: the receipt. With Idempotency-Key, a repeated request gets the first answer (Idempotent-Replayed: true); a different request with the same key is 409 idempotency_key_reused.',
        headers: IdempotencyKeyHeaders,
        body: QuestionBody,
        response: { 200: WikiAnswer },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await questions.ask(contextOf(request), request.body)
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.get(
    '/v1/wiki/suggested-questions',
    {
      config: { auth: wikiRead },
      schema: {
        tags: ['Wiki'],
        operationId: 'listSuggestedQuestions',
        summary: 'Questions the tenant\'s data can answer',
        description: 'The deterministic question templates whose data the tenant has (no invoices, no invoice questions), ranked by usage_rank_score: how many times each template was asked in the tenant, all time (ties in catalogue order).',
        response: { 200: SuggestedQuestions },
      },
    },
    async (request) => ({ suggested_questions: await questions.suggestions(contextOf(request)) }),
  )

  app.get(
    '/v1/assistant/questions',
    {
      config: { auth: wikiRead },
      schema: {
        tags: ['Wiki'],
        operationId: 'listAssistantQuestions',
        summary: 'The tenant\'s question records',
        description: 'Every question asked in the tenant, newest first, each as it was answered; 50 a page by default (at most 500). No eligibility checks.',
        querystring: QuestionFeedQuery,
        response: { 200: QuestionFeed },
      },
    },
    async (request) => questions.feed(contextOf(request), request.query),
  )
}
