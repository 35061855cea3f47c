/**
 * The Wiki's agent-protocol contributions (docs/mcp.md): the tools `wiki.question` (arguments tenant_id
 * and question, as the spec names them) and `wiki.entity.get`, and the five prompts of the deterministic
 * question families. Each is a thin adapter over the same service method as its REST route
 * (QuestionsService.ask for POST /v1/wiki/question — the question is recorded and audited as there —
 * and EntitiesService.entity for GET /v1/wiki/entity/{entity_id}). wiki:read.
 *
 * A prompt renders its family's question from its arguments, asks it through the same `ask`, and returns
 * the question and the grounded answer as messages: an agent gets the deterministic answer, not a
 * template to fill in.
 */
import { Type } from 'typebox'
import { AppError } from '../../kernel/errors.ts'
import type { CommandContext } from '../../kernel/context.ts'
import { Strict } from '../../platform/http/schemas.ts'
import { rpcTool, type RpcContribution, type RpcPrompt, type RpcPromptArgument } from '../../platform/rpc/contributions.ts'
import type { EntitiesService } from './entities.service.ts'
import type { QuestionsService } from './questions.service.ts'
import { WikiEntity, WikiEntityParams, WikiEntityQuery } from './entities.schemas.ts'
import { QuestionBody, WikiAnswer } from './wiki.schemas.ts'

const scopes = ['wiki:read'] as const

export const WikiQuestionArguments = Strict({
  tenant_id: Type.String({ minLength: 1, maxLength: 255, description: 'The tenant asked about: the token\'s own (another is -32002 auth_tenant_mismatch).' }),
  question: QuestionBody.properties.question,
})

export const WikiEntityGetArguments = Type.Object({ ...WikiEntityParams.properties, ...WikiEntityQuery.properties }, { additionalProperties: false })

/** Days ahead a bills_due prompt may look (the parser's bound for "the next N days"). */
export const billsDueDaysMax = 366

const asOfArgument: RpcPromptArgument = { name: 'as_of', description: 'Read the Ledger as recorded at this ISO 8601 instant; relative periods resolve against its day. Default: now.', required: false }
const periodArgument: RpcPromptArgument = { name: 'period', description: 'The period as a question says it: "last month" (default), "in March 2026", "in Q1 2026", "this year".', required: false }

interface PromptFamily {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly arguments: readonly RpcPromptArgument[]
  question(args: Readonly<Record<string, string>>): string
}

const families: readonly PromptFamily[] = [
  {
    name: 'wiki.question.cash_flow_summary',
    title: 'Cash flow summary',
    description: 'Inflows, outflows and net cash flow of a period, per currency, from the Ledger.',
    arguments: [periodArgument, asOfArgument],
    question: (args) => `What was our cash flow ${args.period ?? 'last month'}?`,
  },
  {
    name: 'wiki.question.bills_due',
    title: 'Bills due',
    description: 'Payable obligations due in the next N days.',
    arguments: [{ name: 'days', description: `How many days ahead, 1 to ${billsDueDaysMax} (default 30).`, required: false }, asOfArgument],
    question: (args) => {
      const days = args.days ?? '30'
      if (!/^[1-9][0-9]{0,2}$/.test(days) || Number(days) > billsDueDaysMax) {
        throw new AppError('request_params_invalid', `days must be a whole number from 1 to ${billsDueDaysMax}.`, { issues: [{ path: '/days', message: `must be 1 to ${billsDueDaysMax}`, keyword: 'maximum' }] })
      }
      return `Which bills are due in the next ${days} days?`
    },
  },
  {
    name: 'wiki.question.spending_change',
    title: 'Spending change',
    description: 'How outflows of a period changed against the period before it.',
    arguments: [periodArgument, asOfArgument],
    question: (args) => `How did our spending change ${args.period ?? 'last month'}?`,
  },
  {
    name: 'wiki.question.invoice_status',
    title: 'Invoice status',
    description: 'The status of one invoice by its number, or of the receivable invoices.',
    arguments: [{ name: 'invoice_number', description: 'An invoice number (e.g. JF-2026-007); omitted: every receivable invoice.', required: false }, asOfArgument],
    question: (args) => (args.invoice_number === undefined ? 'What is the status of our invoices?' : `What is the status of invoice ${args.invoice_number}?`),
  },
  {
    name: 'wiki.question.subscriptions',
    title: 'Subscriptions',
    description: 'The subscriptions the business pays for, from the Ledger\'s obligations.',
    arguments: [asOfArgument],
    question: () => 'Which subscriptions do we pay for?',
  },
]

function promptOf(family: PromptFamily, questions: QuestionsService): RpcPrompt {
  return {
    name: family.name,
    title: family.title,
    description: `${family.description} Answered by the Wiki's deterministic question (POST /v1/wiki/question).`,
    arguments: family.arguments,
    scopes,
    async get(context: CommandContext, args) {
      const question = family.question(args)
      const { outcome } = await questions.ask(context, { question, ...(args.as_of === undefined ? {} : { as_of: args.as_of }) })
      const grounding = `question_id ${outcome.question_id}; answered ${outcome.answered}; ${outcome.evidence.records} Ledger records read, as of ${outcome.as_of}.`
      return {
        description: `${family.title}: ${question}`,
        messages: [
          { role: 'user', text: question },
          { role: 'assistant', text: `${outcome.text}\n\n${grounding}` },
        ],
      }
    },
  }
}

export function wikiRpc(services: { questions: QuestionsService; entities: EntitiesService }): RpcContribution {
  const { questions, entities } = services
  return {
    tools: [
      rpcTool({
        name: 'wiki.question',
        title: 'Ask the Wiki',
        description:
          'A question about the books, answered by a deterministic Ledger query where it can be grounded (answered: false with the reason otherwise; never a guess), with its evidence path. Recorded and audited. REST twin: POST /v1/wiki/question.',
        scopes,
        input: WikiQuestionArguments,
        output: WikiAnswer,
        readOnly: false,
        call: async (context, args) => (await questions.ask(context, { question: args.question })).outcome,
      }),
      rpcTool({
        name: 'wiki.entity.get',
        title: 'Read a Wiki entity',
        description: 'A Wiki entity (a Ledger record with its annotations and relations) by entity_id, optionally as the Wiki knew it at as_of. REST twin: GET /v1/wiki/entity/{entity_id}.',
        scopes,
        input: WikiEntityGetArguments,
        output: WikiEntity,
        readOnly: true,
        call: (context, args) => entities.entity(context.principal!.tenantId, args.entity_id, args.as_of),
      }),
    ],
    prompts: families.map((family) => promptOf(family, questions)),
  }
}
