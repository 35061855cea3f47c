/**
 * Questions about the books (POST /v1/wiki/question; docs/wiki.md, "Questions"): the question becomes a
 * structured query (domain/question-parser.ts; a language model, when one is configured, only for what
 * the parser does not understand, its mapping checked by validQuery), the query runs against the Ledger
 * as recorded at as_of through the Ledger's query port, the answer is worded from the figures the Ledger
 * returned (a model's wording is kept only when every number in it is among them), and the question is
 * recorded with an audit event (layer wiki) holding the hashes of the question, the query, the evidence
 * set and the answer: its receipt.
 */
import type { Clock } from '../../kernel/clock.ts'
import { actorOf, requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import { canonicalJson, sha256Hex } from '../../kernel/hashing.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { assertIdempotencyKey, type CommandResult, type CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { LanguageModel } from '../../platform/llm/language-model.ts'
import type { CitedRecord, TransactionSelection } from '../ledger/index.ts'
import { answerOf, numbersGrounded, type Figure, type QueryResult } from './domain/answer.ts'
import { parseQuestion, questionTemplates, type ParsedQuestion, type TemplateId, type UnanswerableReason } from './domain/question-parser.ts'
import { validQuery, wikiQueryJsonDescription, type TransactionScope, type WikiQuery } from './domain/question-query.ts'
import type { WikiLedger, WikiRaw } from './ports.ts'
import type { QuestionsStore } from './questions.store.pg.ts'

/** Evidence depth: 1 Ledger records, 2 their parsed rows, 3 the raw artifacts, 4 the accounts and counterparties they name, 5 those records' parsed rows. */
export const evidenceDepthDefault = 3
export const evidenceDepthMax = 5
/** The most Ledger records an answer cites (its `evidence.records` counts them all). */
export const evidenceRecordsMax = 20
/** The most parsed rows cited per Ledger record. */
export const evidenceRowsPerRecordMax = 10
export const questionCharsMax = 2000
export const questionFeedRows = { defaultRows: 50, maxRows: 500 } as const
/** How many suggested questions an unanswered question carries. */
const suggestionsOnUnanswered = 5

export interface EvidenceNode {
  /** kind:id — transaction:txn_…, invoice:inv_…, obligation:obl_…, account:acc_…, counterparty:cpy_…, parsed_row:rpr_…, raw_artifact:raw_… */
  ref: string
  /** The Ledger version read (null for Raw refs). */
  version_id: string | null
  evidence: EvidenceNode[]
}

export interface LanguageModelCall {
  purpose: 'map_question' | 'word_answer'
  model: string
  prompt_tokens: number
  completion_tokens: number
  outcome: 'used' | 'rejected' | 'failed'
}

export interface WikiAnswer {
  question_id: string
  question: string
  as_of: string
  max_evidence_depth: number
  answered: boolean
  text: string
  reason: { code: UnanswerableReason | 'language_model_unavailable'; message: string } | null
  template: TemplateId | null
  query: WikiQuery | null
  figures: Figure[]
  evidence_path: EvidenceNode[]
  evidence: { records: number; cited: number; truncated: boolean }
  provenance: { method: 'deterministic_parser' | 'language_model_mapping' | 'none'; wording: 'deterministic' | 'language_model'; ledger_as_of: string; model: string | null }
  confidence: number
  suggested_questions: string[]
  usage: LanguageModelCall[]
  receipt: { audit_entity: string; question_sha256: string; query_sha256: string; evidence_sha256: string; answer_sha256: string }
  created_at: string
}

/** The receipt's hashes of an answer (what the audit event records, and what a client recomputes). */
export function receiptHashes(answer: Pick<WikiAnswer, 'question' | 'as_of' | 'max_evidence_depth' | 'query' | 'evidence_path' | 'answered' | 'text' | 'figures' | 'reason'>) {
  return {
    question_sha256: sha256Hex(canonicalJson({ question: answer.question, as_of: answer.as_of, max_evidence_depth: answer.max_evidence_depth })),
    query_sha256: sha256Hex(canonicalJson(answer.query)),
    evidence_sha256: sha256Hex(canonicalJson(answer.evidence_path)),
    answer_sha256: sha256Hex(canonicalJson({ answered: answer.answered, text: answer.text, figures: answer.figures, reason: answer.reason })),
  }
}

export interface SuggestedQuestion {
  template: TemplateId
  question: string
  prompt: string | null
  usage_rank_score: number
}

const templateOfKind = (query: WikiQuery): TemplateId => {
  switch (query.kind) {
    case 'transaction_list':
      return 'transaction_list'
    case 'transaction_aggregate':
      return query.measure === 'count' ? 'transaction_count' : query.measure === 'average' ? 'average_payment' : query.scope.direction === 'inflow' ? 'income_total' : 'spending_total'
    case 'cash_flow':
      return 'cash_flow_summary'
    case 'spending_change':
      return 'spending_change'
    case 'invoices':
      return query.direction === 'payable' ? 'unpaid_bills' : query.state === 'overdue' ? 'overdue_invoices' : 'invoice_status'
    case 'bills_due':
      return 'bills_due'
    case 'subscriptions':
      return 'subscriptions'
  }
}

const selectionOf = (scope: TransactionScope): TransactionSelection => ({
  from: scope.from,
  to: scope.to,
  direction: scope.direction,
  accountId: scope.account_id,
  counterpartyId: scope.counterparty_id,
  categoryId: scope.category_id,
  currency: scope.currency,
})

type Resolved =
  | { ok: true; query: WikiQuery; template: TemplateId; labels: readonly string[]; method: 'deterministic_parser' | 'language_model_mapping' }
  | { ok: false; code: UnanswerableReason | 'language_model_unavailable'; message: string }

export function createQuestionsService(deps: {
  db: Database
  commands: CommandRunner
  store: QuestionsStore
  ids: IdSource
  clock: Clock
  cursors: CursorCodec
  ledger: WikiLedger
  raw: WikiRaw
  languageModel?: LanguageModel | undefined
}) {
  const { db, commands, store, ids, clock, cursors, ledger, raw, languageModel } = deps

  /** A name in the question resolved to exactly one counterparty, account or category; otherwise why not. */
  async function resolveNames(tenantId: string, parsed: Extract<ParsedQuestion, { ok: true }>, asOf: Date | undefined): Promise<Resolved> {
    const { query, names } = parsed
    const base = { ok: true as const, template: parsed.template, labels: parsed.periodLabels, method: 'deterministic_parser' as const }
    if (names.party === undefined || query.kind === 'bills_due' || query.kind === 'subscriptions') return { ...base, query }
    const found = await ledger.namedIn(db.orm, tenantId, names.party, asOf)
    const exact = <T extends { name: string }>(rows: readonly T[]) => (rows.length === 1 ? rows : rows.filter((row) => row.name.toLowerCase() === names.party))
    const counterparties = exact(found.counterparties)
    const accounts = query.kind === 'invoices' ? [] : exact(found.accounts)
    const categories = query.kind === 'invoices' ? [] : found.categories.length === 1 ? found.categories : found.categories.filter((c) => c.toLowerCase() === names.party)
    const total = counterparties.length + accounts.length + categories.length
    if (total === 0) return { ok: false, code: 'name_unknown', message: `Nothing in the Ledger is named "${names.party}": no counterparty${query.kind === 'invoices' ? '' : ', account or category'} matches it.` }
    if (total > 1) {
      const candidates = [...counterparties.map((c) => `counterparty ${c.name}`), ...accounts.map((a) => `account ${a.name}`), ...categories.map((c) => `category ${c}`)]
      return { ok: false, code: 'name_ambiguous', message: `"${names.party}" could mean ${candidates.join(', ')}; name one of them.` }
    }
    if (query.kind === 'invoices') return { ...base, query: { ...query, counterparty_id: counterparties[0]!.id } }
    const scope: TransactionScope = {
      ...query.scope,
      counterparty_id: counterparties[0]?.id ?? null,
      account_id: accounts[0]?.id ?? null,
      category_id: categories[0] ?? null,
    }
    return { ...base, query: { ...query, scope } as WikiQuery }
  }

  /** The model's mapping of a question the parser did not understand, checked against the query schema. */
  async function mapWithModel(question: string, reference: string, usage: LanguageModelCall[]): Promise<Resolved> {
    const model = languageModel!
    try {
      const reply = await model.chat({
        json: true,
        maxTokens: 400,
        messages: [
          {
            role: 'system',
            content: `You map a question about a business's books onto one structured query, or say it is unanswerable. Today is ${reference}. Periods are inclusive calendar days. Answer with JSON only.\n${wikiQueryJsonDescription}`,
          },
          { role: 'user', content: question },
        ],
      })
      let mapped: unknown
      try {
        mapped = JSON.parse(reply.content)
      } catch {
        mapped = undefined
      }
      const valid = validQuery(mapped)
      usage.push({ purpose: 'map_question', model: model.model, prompt_tokens: reply.usage.promptTokens, completion_tokens: reply.usage.completionTokens, outcome: valid ? 'used' : 'rejected' })
      if (!validQuery(mapped)) return { ok: false, code: 'query_invalid', message: 'The question could not be mapped onto a query the Ledger answers.' }
      const query: WikiQuery = mapped
      const labels = 'scope' in query ? [`${query.scope.from} to ${query.scope.to}`, ...(query.kind === 'spending_change' ? [`${query.compare_to.from} to ${query.compare_to.to}`] : [])] : []
      return { ok: true, query, template: templateOfKind(query), labels, method: 'language_model_mapping' }
    } catch {
      usage.push({ purpose: 'map_question', model: model.model, prompt_tokens: 0, completion_tokens: 0, outcome: 'failed' })
      return { ok: false, code: 'language_model_unavailable', message: 'The question is not one the parser understands, and the language model did not answer.' }
    }
  }

  async function cite(tenantId: string, records: ReadonlyArray<CitedRecord & { kind: string; accountId?: string | null; counterpartyId?: string | null }>, depth: number, asOf: Date | undefined): Promise<EvidenceNode[]> {
    const rowsOf = (record: CitedRecord) => [...record.evidenceIds].sort().slice(0, evidenceRowsPerRecordMax)
    const related = depth >= 4 ? await relatedOf(tenantId, records, asOf) : new Map<string, CitedRecord & { kind: string }>()
    const parsedIds = depth >= 3 ? [...new Set([...records, ...(depth >= 5 ? related.values() : [])].flatMap(rowsOf))] : []
    const artifacts = parsedIds.length === 0 ? new Map<string, string>() : await raw.artifactsOfParsedRows(tenantId, parsedIds)
    const parsedNodes = (record: CitedRecord): EvidenceNode[] =>
      rowsOf(record).map((id) => ({ ref: `parsed_row:${id}`, version_id: null, evidence: depth >= 3 && artifacts.has(id) ? [{ ref: `raw_artifact:${artifacts.get(id)}`, version_id: null, evidence: [] }] : [] }))
    return records.map((record) => {
      const children: EvidenceNode[] = depth >= 2 ? parsedNodes(record) : []
      if (depth >= 4) {
        for (const key of [record.accountId ? `account:${record.accountId}` : null, record.counterpartyId ? `counterparty:${record.counterpartyId}` : null]) {
          const entity = key === null ? undefined : related.get(key)
          if (entity !== undefined) children.push({ ref: key!, version_id: entity.versionId, evidence: depth >= 5 ? rowsOf(entity).map((id) => ({ ref: `parsed_row:${id}`, version_id: null, evidence: [] })) : [] })
        }
      }
      return { ref: `${record.kind}:${record.id}`, version_id: record.versionId, evidence: children }
    })
  }

  async function relatedOf(tenantId: string, records: ReadonlyArray<{ accountId?: string | null; counterpartyId?: string | null }>, asOf: Date | undefined) {
    const accountIds = [...new Set(records.flatMap((r) => (r.accountId ? [r.accountId] : [])))]
    const counterpartyIds = [...new Set(records.flatMap((r) => (r.counterpartyId ? [r.counterpartyId] : [])))]
    const [accounts, counterparties] = await Promise.all([ledger.citedEntities(db.orm, tenantId, 'account', accountIds, asOf), ledger.citedEntities(db.orm, tenantId, 'counterparty', counterpartyIds, asOf)])
    const entries: Array<[string, CitedRecord & { kind: string }]> = [...accounts.map((a) => [`account:${a.id}`, { ...a, kind: 'account' }] as [string, CitedRecord & { kind: string }]), ...counterparties.map((c) => [`counterparty:${c.id}`, { ...c, kind: 'counterparty' }] as [string, CitedRecord & { kind: string }])]
    return new Map<string, CitedRecord & { kind: string }>(entries)
  }

  /** Runs the query as of `asOf`: its result and the Ledger records it cites (at most evidenceRecordsMax) out of how many. */
  async function run(tenantId: string, query: WikiQuery, asOf: Date | undefined) {
    const o = db.orm
    switch (query.kind) {
      case 'transaction_aggregate':
      case 'transaction_list':
      case 'cash_flow': {
        const selection = selectionOf(query.scope)
        const [totals, cited] = await Promise.all([
          ledger.transactionTotals(o, tenantId, selection, asOf),
          ledger.citedTransactions(o, tenantId, selection, asOf, query.kind === 'transaction_list' ? query.limit : evidenceRecordsMax),
        ])
        const result: QueryResult = { kind: 'transactions', totals, ...(query.kind === 'transaction_list' ? { listed: cited } : {}) }
        return { result, records: cited.slice(0, evidenceRecordsMax).map((r) => ({ ...r, kind: 'transaction' })), count: totals.reduce((sum, row) => sum + row.count, 0) }
      }
      case 'spending_change': {
        const current = selectionOf(query.scope)
        const base = { ...current, from: query.compare_to.from, to: query.compare_to.to }
        const half = evidenceRecordsMax / 2
        const [now, before, citedNow, citedBefore] = await Promise.all([
          ledger.transactionTotals(o, tenantId, current, asOf),
          ledger.transactionTotals(o, tenantId, base, asOf),
          ledger.citedTransactions(o, tenantId, current, asOf, half),
          ledger.citedTransactions(o, tenantId, base, asOf, half),
        ])
        const count = [...now, ...before].reduce((sum, row) => sum + row.count, 0)
        return { result: { kind: 'spending_change', current: now, base: before } as QueryResult, records: [...citedBefore, ...citedNow].map((r) => ({ ...r, kind: 'transaction' })), count }
      }
      case 'invoices': {
        const selection = { direction: query.direction, state: query.state, on: query.on, counterpartyId: query.counterparty_id, invoiceNumber: query.invoice_number }
        const [totals, listed] = await Promise.all([ledger.invoiceTotals(o, tenantId, selection, asOf), ledger.citedInvoices(o, tenantId, selection, asOf, query.limit)])
        return { result: { kind: 'invoices', totals, listed } as QueryResult, records: listed.slice(0, evidenceRecordsMax).map((r) => ({ ...r, kind: 'invoice' })), count: totals.reduce((sum, row) => sum + row.count, 0) }
      }
      case 'bills_due':
      case 'subscriptions': {
        const selection = query.kind === 'bills_due' ? ({ kind: 'bills_due', to: query.to } as const) : ({ kind: 'subscriptions' } as const)
        const [totals, listed] = await Promise.all([ledger.obligationTotals(o, tenantId, selection, asOf), ledger.citedObligations(o, tenantId, selection, asOf, query.limit)])
        return { result: { kind: 'obligations', totals, listed } as QueryResult, records: listed.slice(0, evidenceRecordsMax).map((r) => ({ ...r, kind: 'obligation' })), count: totals.reduce((sum, row) => sum + row.count, 0) }
      }
    }
  }

  async function word(question: string, text: string, figures: readonly Figure[], query: WikiQuery, usage: LanguageModelCall[]): Promise<string | undefined> {
    const model = languageModel!
    try {
      const reply = await model.chat({
        maxTokens: 400,
        messages: [
          { role: 'system', content: 'Answer the question in two or three plain sentences using only the figures and facts given. Do not compute new numbers; quote amounts exactly as given, with their currency.' },
          { role: 'user', content: `Question: ${question}\nFacts: ${text}\nFigures: ${JSON.stringify(figures)}` },
        ],
      })
      const grounded = reply.content.trim() !== '' && numbersGrounded(reply.content, [text, canonicalJson(query), ...figures.map((f) => f.value)])
      usage.push({ purpose: 'word_answer', model: model.model, prompt_tokens: reply.usage.promptTokens, completion_tokens: reply.usage.completionTokens, outcome: grounded ? 'used' : 'rejected' })
      return grounded ? reply.content.trim() : undefined
    } catch {
      usage.push({ purpose: 'word_answer', model: model.model, prompt_tokens: 0, completion_tokens: 0, outcome: 'failed' })
      return undefined
    }
  }

  async function suggestions(tenantId: string): Promise<SuggestedQuestion[]> {
    const [presence, counts] = await Promise.all([ledger.dataPresence(db.orm, tenantId), store.templateCounts(db.orm, tenantId)])
    const eligible = {
      transactions: presence.transactions,
      outflows: presence.outflows,
      inflows: presence.inflows,
      receivable_invoices: presence.receivableInvoices,
      payable_invoices: presence.payableInvoices,
      payable_obligations: presence.payableObligations,
      subscriptions: presence.subscriptions,
    }
    const order = new Map(questionTemplates.map((template, index) => [template.id, index]))
    return questionTemplates
      .filter((template) => eligible[template.requires])
      .map((template) => ({ template: template.id, question: template.question, prompt: template.prompt, usage_rank_score: counts.get(template.id) ?? 0 }))
      .sort((a, b) => b.usage_rank_score - a.usage_rank_score || order.get(a.template)! - order.get(b.template)!)
  }

  return {
    suggestions: (context: CommandContext) => suggestions(requirePrincipal(context).tenantId),

    async ask(context: CommandContext, body: { question: string; as_of?: string | undefined; max_evidence_depth?: number | undefined }): Promise<CommandResult<WikiAnswer>> {
      const principal = requirePrincipal(context)
      // A malformed key is refused before the Ledger (or a language model) is asked anything.
      if (context.idempotencyKey !== undefined) assertIdempotencyKey(context.idempotencyKey)
      const tenantId = principal.tenantId
      const question = body.question
      if (question.trim() === '') throw new AppError('request_body_invalid', 'question must not be blank.', { issues: [{ path: '/question', message: 'is blank' }] })
      const depth = body.max_evidence_depth ?? evidenceDepthDefault
      const now = clock.now()
      const asOf = body.as_of === undefined ? undefined : new Date(body.as_of)
      const asOfText = (asOf ?? now).toISOString()
      const reference = asOfText.slice(0, 10)
      const usage: LanguageModelCall[] = []

      const parsed = parseQuestion(question, reference)
      let resolved: Resolved
      if (parsed.ok) resolved = await resolveNames(tenantId, parsed, asOf)
      else if (parsed.reason === 'not_understood' && languageModel !== undefined) resolved = await mapWithModel(question, reference, usage)
      else resolved = { ok: false, code: parsed.reason, message: parsed.message }

      let answer: Omit<WikiAnswer, 'receipt' | 'question_id' | 'created_at'>
      const common = { question, as_of: asOfText, max_evidence_depth: depth, usage }
      if (resolved.ok) {
        const { result, records, count } = await run(tenantId, resolved.query, asOf)
        const { figures, text } = answerOf(resolved.query, result, resolved.labels)
        const worded = languageModel === undefined ? undefined : await word(question, text, figures, resolved.query, usage)
        const evidencePath = await cite(tenantId, records, depth, asOf)
        answer = {
          ...common,
          answered: true,
          text: worded ?? text,
          reason: null,
          template: resolved.template,
          query: resolved.query,
          figures,
          evidence_path: evidencePath,
          evidence: { records: count, cited: records.length, truncated: records.length < count },
          provenance: { method: resolved.method, wording: worded === undefined ? 'deterministic' : 'language_model', ledger_as_of: asOfText, model: usage.length > 0 ? languageModel!.model : null },
          confidence: resolved.method === 'deterministic_parser' ? 1 : 0.8,
          suggested_questions: [],
        }
      } else {
        const suggested = (await suggestions(tenantId)).slice(0, suggestionsOnUnanswered).map((s) => s.question)
        answer = {
          ...common,
          answered: false,
          text: resolved.message,
          reason: { code: resolved.code, message: resolved.message },
          template: null,
          query: null,
          figures: [],
          evidence_path: [],
          evidence: { records: 0, cited: 0, truncated: false },
          provenance: { method: 'none', wording: 'deterministic', ledger_as_of: asOfText, model: usage.length > 0 ? languageModel!.model : null },
          confidence: 0,
          suggested_questions: suggested,
        }
      }

      const input = { question, as_of: body.as_of ?? null, max_evidence_depth: depth }
      return commands.run(context, { name: 'wiki.question', tenantId, input }, async (tx) => {
        const id = ids.newId('wikiQuestion')
        const hashes = receiptHashes(answer)
        const createdAt = clock.now()
        const outcome: WikiAnswer = { question_id: id, ...answer, receipt: { audit_entity: `wiki_question:${id}`, ...hashes }, created_at: createdAt.toISOString() }
        await store.insert(tx, {
          tenantId,
          id,
          question,
          template: answer.template,
          answered: answer.answered,
          asOf: new Date(asOfText),
          answer: outcome,
          usage,
          createdBy: `${principal.type}:${actorOf(principal).id}`,
          createdAt,
        })
        return {
          outcome,
          audit: [
            {
              tenantId,
              layer: 'wiki',
              actor: actorOf(principal),
              action: answer.answered ? 'wiki.question.answered' : 'wiki.question.unanswered',
              entity: { type: 'wiki_question', id },
              inputs: { question_sha256: hashes.question_sha256, as_of: asOfText, max_evidence_depth: depth, template: answer.template },
              outputs: {
                answered: answer.answered,
                query_sha256: hashes.query_sha256,
                evidence_sha256: hashes.evidence_sha256,
                answer_sha256: hashes.answer_sha256,
                language_model_calls: usage.length,
                prompt_tokens: usage.reduce((sum, call) => sum + call.prompt_tokens, 0),
                completion_tokens: usage.reduce((sum, call) => sum + call.completion_tokens, 0),
              },
              evidenceIds: answer.evidence_path.map((node) => node.ref.slice(node.ref.indexOf(':') + 1)),
              requestId: context.requestId,
            },
          ],
        }
      })
    },

    /** The tenant's question records, newest first, cursor-paged (no eligibility checks). */
    async feed(context: CommandContext, query: { limit?: number | undefined; cursor?: string | undefined }): Promise<{ questions: WikiAnswer[]; next_cursor: string | null }> {
      const tenantId = requirePrincipal(context).tenantId
      const limit = query.limit ?? questionFeedRows.defaultRows
      const listing = `assistant:questions:${tenantId}`
      let before: { createdAt: Date; id: string } | undefined
      if (query.cursor !== undefined) {
        const position = cursors.decode(listing, query.cursor)
        const createdAt = new Date(String(position['created_at']))
        if (Number.isNaN(createdAt.getTime()) || typeof position['id'] !== 'string') throw new AppError('invalid_cursor')
        before = { createdAt, id: position['id'] }
      }
      const rows = await store.list(db.orm, tenantId, { before, limit: limit + 1 })
      const page = rows.slice(0, limit)
      const last = page[page.length - 1]
      return {
        questions: page.map((row) => row.answer as WikiAnswer),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { created_at: last.createdAt.toISOString(), id: last.id }) : null,
      }
    },
  }
}

export type QuestionsService = ReturnType<typeof createQuestionsService>
