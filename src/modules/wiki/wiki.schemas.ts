/** Wire schemas of the wiki question routes (POST /v1/wiki/question, suggested questions, the assistant feed). */
import Type from 'typebox'
import { named, NextCursor, Nullable, pageQuery, Strict, Timestamp } from '../../platform/http/schemas.ts'
import { templateIds } from './domain/question-parser.ts'
import { evidenceDepthDefault, evidenceDepthMax, questionCharsMax, questionFeedRows } from './questions.service.ts'

export const QuestionBody = Strict({
  question: Type.String({ minLength: 1, maxLength: questionCharsMax, description: `The question, 1 to ${questionCharsMax} characters.` }),
  as_of: Type.Optional(Type.String({ format: 'date-time', description: 'Read the Ledger as it was recorded at this instant, and resolve relative periods ("last month") against its day (UTC). Default: now.' })),
  max_evidence_depth: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: evidenceDepthMax,
      description: `How deep evidence_path goes (default ${evidenceDepthDefault}, at most ${evidenceDepthMax}): 1 the Ledger records, 2 their parsed rows, 3 the raw artifacts of those rows, 4 the accounts and counterparties the records name, 5 those records' parsed rows.`,
    }),
  ),
})

const Scope = Strict({
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  direction: Nullable(Type.Enum(['inflow', 'outflow', 'transfer', 'adjustment'])),
  account_id: Nullable(Type.String()),
  counterparty_id: Nullable(Type.String()),
  category_id: Nullable(Type.String()),
  currency: Nullable(Type.String()),
})

const Limit = Type.Integer({ minimum: 1, maximum: 50 })

export const WikiQuery = named(
  'WikiQuery',
  Type.Union(
    [
      Strict({ kind: Type.Literal('transaction_list'), scope: Scope, limit: Limit }),
      Strict({ kind: Type.Literal('transaction_aggregate'), measure: Type.Enum(['total', 'count', 'average']), scope: Scope }),
      Strict({ kind: Type.Literal('cash_flow'), scope: Scope }),
      Strict({ kind: Type.Literal('spending_change'), scope: Scope, compare_to: Strict({ from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }) }) }),
      Strict({
        kind: Type.Literal('invoices'),
        direction: Type.Enum(['receivable', 'payable']),
        state: Type.Enum(['all', 'open', 'overdue', 'paid']),
        counterparty_id: Nullable(Type.String()),
        invoice_number: Nullable(Type.String()),
        on: Type.String({ format: 'date' }),
        limit: Limit,
      }),
      Strict({ kind: Type.Literal('bills_due'), on: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }), limit: Limit }),
      Strict({ kind: Type.Literal('subscriptions'), on: Type.String({ format: 'date' }), limit: Limit }),
    ],
    { description: 'The structured query the answer ran over the Ledger (docs/wiki.md, "Questions").' },
  ),
)

const Figure = Strict({
  key: Type.String({ description: 'spent, total, net, inflow, outflow, count, average, outstanding, change, listed…' }),
  value: Type.String({ description: 'A decimal string: an amount at its currency\'s scale, or a count.' }),
  currency: Nullable(Type.String({ description: 'The amount\'s currency; null for a count. No figure mixes currencies.' })),
  about: Nullable(Type.String({ description: 'The period, invoice state or status the figure is about.' })),
})

const EvidenceLeaf = Strict({ ref: Type.String(), version_id: Nullable(Type.String()), evidence: Type.Array(Type.Unknown(), { maxItems: 0 }) })
const EvidenceMid = Strict({ ref: Type.String(), version_id: Nullable(Type.String()), evidence: Type.Array(EvidenceLeaf) })
const EvidenceNode = Strict(
  {
    ref: Type.String({ description: 'kind:id — transaction:, invoice:, obligation:, account:, counterparty: (Ledger), parsed_row:, raw_artifact: (Raw).' }),
    version_id: Nullable(Type.String({ description: 'The Ledger version read; null for Raw refs.' })),
    evidence: Type.Array(EvidenceMid, { description: 'What this record was read from (parsed rows, each with its raw artifact) and, from depth 4, the account and counterparty it names.' }),
  },
)

const UsageCall = Strict({
  purpose: Type.Enum(['map_question', 'word_answer']),
  model: Type.String(),
  prompt_tokens: Type.Integer({ minimum: 0 }),
  completion_tokens: Type.Integer({ minimum: 0 }),
  outcome: Type.Enum(['used', 'rejected', 'failed'], { description: 'rejected: the mapping failed the query schema, or the wording named a number not among the figures (the deterministic wording is kept).' }),
})

export const WikiAnswer = named(
  'WikiAnswer',
  Strict({
    question_id: Type.String({ description: 'wqn_… — the question record.' }),
    question: Type.String(),
    as_of: Timestamp,
    max_evidence_depth: Type.Integer(),
    answered: Type.Boolean({ description: 'True only for an answer grounded in a Ledger query; false with reason and suggested_questions otherwise — never a guess.' }),
    text: Type.String(),
    reason: Nullable(
      Strict({
        code: Type.Enum(['not_understood', 'period_missing', 'direction_missing', 'name_unknown', 'name_ambiguous', 'query_invalid', 'too_many_periods', 'language_model_unavailable']),
        message: Type.String(),
      }),
    ),
    template: Nullable(Type.Enum([...templateIds])),
    query: Nullable(WikiQuery),
    figures: Type.Array(Figure),
    evidence_path: Type.Array(EvidenceNode, { description: 'The Ledger records the answer read (at most 20), each down to its parsed rows and raw artifacts, as deep as max_evidence_depth.' }),
    evidence: Strict({ records: Type.Integer({ description: 'How many Ledger records the query read.' }), cited: Type.Integer(), truncated: Type.Boolean() }),
    provenance: Strict({
      method: Type.Enum(['deterministic_parser', 'language_model_mapping', 'none']),
      wording: Type.Enum(['deterministic', 'language_model']),
      ledger_as_of: Timestamp,
      model: Nullable(Type.String()),
    }),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    suggested_questions: Type.Array(Type.String()),
    usage: Type.Array(UsageCall, { description: 'The language-model calls made for this question, with their token counts.' }),
    receipt: Strict({
      audit_entity: Type.String({ description: 'wiki_question:<question_id>: its audit event is at GET /v1/audit/entity/wiki_question/{question_id}.' }),
      question_sha256: Type.String({ description: 'SHA-256 of the JCS of {question, as_of, max_evidence_depth}.' }),
      query_sha256: Type.String({ description: 'SHA-256 of the JCS of query.' }),
      evidence_sha256: Type.String({ description: 'SHA-256 of the JCS of evidence_path.' }),
      answer_sha256: Type.String({ description: 'SHA-256 of the JCS of {answered, text, figures, reason}.' }),
    }),
    created_at: Timestamp,
  }),
)

export const SuggestedQuestions = named(
  'SuggestedQuestions',
  Strict({
    suggested_questions: Type.Array(
      Strict({
        template: Type.Enum([...templateIds]),
        question: Type.String(),
        prompt: Nullable(Type.String({ description: 'The agent-protocol prompt family it belongs to.' })),
        usage_rank_score: Type.Integer({ minimum: 0, description: 'How many times questions of this template were asked in the tenant, all time.' }),
      }),
    ),
  }),
)

export const QuestionFeedQuery = Strict({ ...pageQuery(questionFeedRows) })
export const QuestionFeed = named('QuestionFeed', Strict({ questions: Type.Array(WikiAnswer), next_cursor: NextCursor }))
