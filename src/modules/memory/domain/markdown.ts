/**
 * Markdown as memory pages write it: every value that comes from data (a counterparty's name, a
 * description, an agent's display name) goes through `text` or `cell`, so it reads as literal text in
 * any CommonMark or GFM renderer — a name like `[x](javascript:…)` or `<script>` comes out inert — and
 * every link is built by `link` from a path this module makes, with each segment percent-encoded.
 */

/** ASCII punctuation CommonMark lets a backslash escape, less `&` (written as an entity below) and `;` (which ends one). */
const markdownPunctuation = /[\\`*_{}[\]()#+\-.!|~"'$%,/:=?@^]/g
// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f\u2028\u2029]+/g

/**
 * A value as literal inline text: control characters and line breaks become one space (a value cannot
 * start a block), `&`, `<` and `>` become entities (no HTML, no autolink), and every other Markdown
 * punctuation character is backslash-escaped (no emphasis, link, image, code span or table cell break).
 */
export function text(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—'
  return String(value)
    .replace(controlCharacters, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(markdownPunctuation, (character) => `\\${character}`)
}

/** A path segment for a link: percent-encoded, including the characters encodeURIComponent keeps. */
export function segment(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** A link to one of the service's API paths; `label` is escaped, the path is made of encoded segments. */
export function link(label: string, path: readonly string[]): string {
  return `[${text(label)}](/${path.map(segment).join('/')})`
}

/** Links to the Ledger's API, the evidence a page cites (relative paths of this service's API). */
export const ledgerLink = {
  account: (id: string) => link(id, ['v1', 'ledger', 'accounts', id]),
  counterparty: (id: string) => link(id, ['v1', 'ledger', 'counterparties', id]),
  transaction: (id: string) => link(id, ['v1', 'ledger', 'transactions', id]),
  invoice: (id: string) => link(id, ['v1', 'ledger', 'invoices', id]),
  obligation: (id: string) => link(id, ['v1', 'ledger', 'obligations', id]),
  /** A Raw artifact (a source id). */
  raw: (id: string) => link(id, ['v1', 'raw', id]),
  /** A Raw artifact's parsed rows, where the parsed-row ids a record cites as evidence are listed. */
  parsedRows: (rawId: string) => link('parsed rows', ['v1', 'raw', rawId, 'parsed']),
}

/** A link to another memory page, by its slug (its `/` written as is). */
export function pageLink(label: string, slug: string): string {
  return `[${text(label)}](/v1/memory/pages/${slug.split('/').map(segment).join('/')})`
}

/** A GFM table; every cell is already Markdown (escaped values or links). */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  if (rows.length === 0) return '_None._'
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}

/** A figure this module formatted (a decimal amount, a count, a date or timestamp): written as is; anything else as `text`. */
export function figure(value: string | number | null | undefined): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value === 'string' && /^-?[0-9]+(\.[0-9]+)?$|^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9:.]+Z)?$/.test(value)) return value
  return text(value)
}
