/**
 * The Wiki search's rules (docs/wiki.md, "Search"): which kinds are searchable, how a document's text is
 * made, how results are ranked and paged. Pure.
 */

export const searchKinds = ['policy', 'agent'] as const
export type SearchKind = (typeof searchKinds)[number]

/** Search pages (spec, "Limits": wiki search 50 by default, at most 500). */
export const searchPageRows = { defaultRows: 50, maxRows: 500 } as const
/** Documents of each kind a search considers at most (ports.ts, WikiSearchSources). */
export const searchCandidatesMax = 1000
/** The least pg_trgm word_similarity a trigram match has. */
export const trigramThreshold = 0.3
/** Characters of a document's text a result shows. */
export const snippetChars = 280

/** Every string in a JSON value (keys too), in document order, space-separated: a policy's searchable text. */
export function flattenText(value: unknown): string {
  const parts: string[] = []
  const visit = (node: unknown): void => {
    if (typeof node === 'string') parts.push(node)
    else if (typeof node === 'number' || typeof node === 'boolean') parts.push(String(node))
    else if (Array.isArray(node)) node.forEach(visit)
    else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        parts.push(key)
        visit(child)
      }
    }
  }
  visit(value)
  return parts.join(' ')
}

/** The text a document is searched by: its title and body. */
export function searchableText(document: { title: string; body: string }): string {
  return `${document.title}\n${document.body}`
}

/** The first `snippetChars` characters of the body, on one line. */
export function snippetOf(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim()
  return line.length <= snippetChars ? line : `${line.slice(0, snippetChars - 1)}…`
}

/** Cosine similarity of two vectors of one length (0 when either is zero). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0
  let normA = 0
  let normB = 0
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!
    normA += a[i]! * a[i]!
    normB += b[i]! * b[i]!
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB)
}

/** A scored document, ranked by score (highest first), then kind and id; unscored by recency, then kind and id. */
export interface Ranked {
  readonly kind: string
  readonly id: string
  readonly score: number | null
  readonly updatedAt: Date | null
}

export function compareRanked(a: Ranked, b: Ranked): number {
  if (a.score !== null && b.score !== null && a.score !== b.score) return b.score - a.score
  if (a.score === null && b.score === null) {
    const at = a.updatedAt?.getTime() ?? -Infinity
    const bt = b.updatedAt?.getTime() ?? -Infinity
    if (at !== bt) return bt - at
  }
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
