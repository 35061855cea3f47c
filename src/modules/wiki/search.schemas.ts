/** Wire schemas of GET /v1/wiki/search. */
import Type from 'typebox'
import { NextCursor, Nullable, pageQuery, Strict, Timestamp } from '../../platform/http/schemas.ts'
import { searchKinds, searchPageRows } from './domain/search.ts'

const Text = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 500, description }))

export const WikiSearchQuery = Strict({
  kind: Type.Optional(
    Type.Enum(searchKinds, {
      description: 'policy or agent (both when omitted). The Ledger kinds (account, counterparty, transaction, obligation) and any other value are 400 request_params_invalid: the Ledger is read through its own routes.',
    }),
  ),
  q: Text('Full text (PostgreSQL websearch syntax: words, "phrases", or, -not), English stemming; only matching documents are returned.'),
  semantic: Text('Similarity: documents ranked by how close they are to this text — cosine similarity of embeddings when an embedding model is configured, otherwise pg_trgm word similarity (at least 0.3). semantic_method says which.'),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Documents changed at or after this instant (catalog agents, which have no time, are left out).' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'Documents changed at or before this instant.' })),
  ...pageQuery(searchPageRows),
})

export const WikiSearchResult = Strict({
  kind: Type.Enum(searchKinds),
  id: Type.String({ description: 'pol_… for a policy version; the agent key of a catalog agent, or the id of a registered agent.' }),
  title: Type.String(),
  snippet: Type.String({ description: 'The start of the document\'s text.' }),
  score: Nullable(Type.Number({ description: 'The ranking score: similarity when semantic was given, else the full-text rank when q was; null when neither (newest first).' })),
  updated_at: Nullable(Timestamp),
})

export const WikiSearchResponse = Strict({
  results: Type.Array(WikiSearchResult),
  full_text: Type.Boolean({ description: 'Whether q filtered the documents (PostgreSQL full-text search).' }),
  semantic_method: Nullable(Type.Enum(['embedding', 'trigram'], { description: 'How semantic was compared: embedding (the configured model) or trigram (pg_trgm); null without semantic.' })),
  embedding_model: Nullable(Type.String({ description: 'The embedding model used, when semantic_method is embedding.' })),
  next_cursor: NextCursor,
})
