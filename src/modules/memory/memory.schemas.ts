/** Wire schemas of the memory routes (spec, "Wiki and memory": memory pages; bodies not shown by the spec). */
import Type from 'typebox'
import { named, NextCursor, Nullable, pageQuery, pathParameterCharactersMax, Strict, Timestamp } from '../../platform/http/schemas.ts'
import { pageTypes, slugPrefixes } from './domain/page-types.ts'
import { memoryPageRows, searchQueryCharactersMax } from './pages.service.ts'

const PageTypeField = Type.Enum([...pageTypes], { description: 'account, counterparty, obligation, invoice, agent, policy, monthly_summary or cash_flow.' })

const summaryFields = {
  id: Type.String({ description: 'mpg_…' }),
  slug: Type.String({ description: `Stable for the subject: <kind>/<subject>, kind one of ${Object.values(slugPrefixes).join(', ')} (counterparty/cpy_…, monthly-summary/2026-03, cash-flow/EUR, policy/active).` }),
  page_type: PageTypeField,
  title: Type.String({ description: 'Plain text (not Markdown).' }),
  subject_ids: Type.Array(Type.String(), { description: 'What the page is about: a Ledger record id, an agent id, the policy\'s version ids, a month (YYYY-MM) or a currency.' }),
  content_sha256: Type.String({ description: 'SHA-256 (hex) of content.' }),
  version: Type.Integer({ minimum: 1, description: '1 for the first content; increases by one exactly when the content changes (a regeneration over unchanged data makes no new version).' }),
  source_version: Nullable(Timestamp),
  generated_at: Timestamp,
  created_at: Timestamp,
}

export const MemoryPageSummary = named(
  'MemoryPageSummary',
  Strict(summaryFields, {
    description:
      'source_version: when the newest source record the current content was rendered from was recorded (read the Ledger as_of it to see the same data); null for a page no recorded source dates (a first-party agent). generated_at: when the current content was generated.',
  }),
)

export const MemoryPage = named(
  'MemoryPage',
  Strict(
    {
      ...summaryFields,
      content: Type.String({
        description:
          'Markdown, generated deterministically from the Ledger, the policy and the agents. Every value from data is escaped (literal text in any CommonMark renderer); links are relative API paths: /v1/ledger/{kind}/{id} for Ledger records, /v1/raw/{raw_id} and /v1/raw/{raw_id}/parsed for the Raw sources and parsed rows they cite, /v1/memory/pages/{slug} for other pages.',
      }),
    },
    { description: 'A memory page with its content.' },
  ),
)

export const MemoryPageList = named('MemoryPageList', Strict({ pages: Type.Array(MemoryPageSummary), next_cursor: NextCursor }))

export const MemoryPageListQuery = Strict({ page_type: Type.Optional(PageTypeField), ...pageQuery(memoryPageRows) })

export const MemorySearchQuery = Strict({
  q: Type.String({ minLength: 1, maxLength: searchQueryCharactersMax, description: 'Full text over title and content (PostgreSQL websearch syntax: words, "a phrase", -not, or).' }),
  page_type: Type.Optional(PageTypeField),
  ...pageQuery(memoryPageRows),
})

const SlugOrId = Type.String({
  minLength: 1,
  maxLength: pathParameterCharactersMax,
  description: `A page id (mpg_…) or its slug with the slash percent-encoded (counterparty%2Fcpy_…). Anything naming no page of your tenant, whatever its shape, is 404 memory_page_not_found; over ${pathParameterCharactersMax} characters is 400 request_params_invalid.`,
})
export const MemoryPageParams = Strict({ slug_or_id: SlugOrId })

export const MemoryPageSlugParams = Strict({
  slug_or_id: Type.String({
    minLength: 1,
    maxLength: pathParameterCharactersMax,
    description: `Here the slug's first segment (${Object.values(slugPrefixes).join(', ')}); with slug_rest it names the page.`,
  }),
  slug_rest: Type.String({
    minLength: 1,
    maxLength: pathParameterCharactersMax,
    description: 'The slug\'s second segment. A slug naming no page of your tenant is 404 memory_page_not_found.',
  }),
})

export const RegenerateBody = Strict(
  {
    page_types: Type.Optional(Type.Array(PageTypeField, { minItems: 1, maxItems: pageTypes.length, uniqueItems: true, description: 'Regenerate only these types; every type when absent.' })),
  },
  { description: 'Optional: which page types to regenerate (all when the body is empty or absent).' },
)

export const RegenerateResult = named(
  'MemoryRegeneration',
  Strict({
    page_types: Type.Array(PageTypeField),
    pages: Type.Integer({ minimum: 0, description: 'Pages the sources make of these types.' }),
    created: Type.Integer({ minimum: 0 }),
    changed: Type.Integer({ minimum: 0, description: 'Pages whose content changed (each got the next version).' }),
    unchanged: Type.Integer({ minimum: 0, description: 'Pages whose content is the same (no new version).' }),
    deleted: Type.Integer({ minimum: 0, description: 'Pages whose subject is gone from the sources.' }),
    changed_slugs: Type.Array(Type.String(), { description: 'Slugs of the created and changed pages, in slug order, at most 1,000.' }),
    pages_sha256: Type.String({ description: 'SHA-256 over every page\'s slug and content hash: the same sources give the same value.' }),
  }),
)
