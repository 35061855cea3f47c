/**
 * The media types Raw accepts, and how an upload's media type is decided. Pure.
 *
 * Accepted (the essence, lower-cased; parameters other than charset are dropped):
 * CSV, OFX/QFX, XML (CAMT.053), MT940 (.sta), PDF, e-mail (message/rfc822), JSON, plain text. Anything
 * else is 415 request_media_type_unsupported.
 *
 * The declared type wins, except a generic one (application/octet-stream, binary/octet-stream, an
 * absent type, text/plain, and the application/vnd.ms-excel that some browsers send for .csv), which is
 * replaced by the type the file name's extension names when there is one.
 */

export const acceptedMediaTypes = [
  'text/csv',
  'application/csv',
  'application/x-ofx',
  'application/ofx',
  'application/vnd.intu.qfx',
  'application/x-qfx',
  'application/xml',
  'text/xml',
  'application/x-mt940',
  'text/x-mt940',
  'application/pdf',
  'message/rfc822',
  'application/json',
  'text/plain',
] as const

/** File name extensions and the media type each names. */
export const extensionMediaTypes: Readonly<Record<string, string>> = {
  csv: 'text/csv',
  ofx: 'application/x-ofx',
  qfx: 'application/vnd.intu.qfx',
  xml: 'application/xml',
  mt940: 'application/x-mt940',
  sta: 'application/x-mt940',
  pdf: 'application/pdf',
  eml: 'message/rfc822',
  json: 'application/json',
  txt: 'text/plain',
}

const genericMediaTypes = new Set(['application/octet-stream', 'binary/octet-stream', 'text/plain', 'application/vnd.ms-excel', ''])

/** `text/CSV; charset=UTF-8; header=present` → `{ essence: 'text/csv', charset: 'utf-8' }`; undefined if malformed. */
export function parseMediaType(value: string): { essence: string; charset: string | undefined } | undefined {
  const [head, ...parameters] = value.split(';')
  const essence = (head ?? '').trim().toLowerCase()
  if (essence !== '' && !/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(essence)) return undefined
  let charset: string | undefined
  for (const parameter of parameters) {
    const [name, raw] = parameter.split('=')
    if (name?.trim().toLowerCase() === 'charset' && raw !== undefined) {
      const cleaned = raw.trim().replace(/^"(.*)"$/, '$1').toLowerCase()
      if (/^[a-z0-9._:-]{1,40}$/.test(cleaned)) charset = cleaned
    }
  }
  return { essence, charset }
}

export function extensionOf(filename: string | null | undefined): string | undefined {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(filename ?? '')
  return match?.[1]?.toLowerCase()
}

export type MediaTypeDecision = { readonly ok: true; readonly mediaType: string } | { readonly ok: false; readonly given: string }

/**
 * The media type to store for an upload: `declared` (the mime_type field, or the part's or response's
 * Content-Type), refined by the file name where the declared type is generic.
 */
export function decideMediaType(declared: string | undefined, filename: string | null | undefined): MediaTypeDecision {
  const parsed = parseMediaType(declared ?? '')
  if (parsed === undefined) return { ok: false, given: declared ?? '' }
  let essence = parsed.essence
  if (genericMediaTypes.has(essence)) {
    const byExtension = extensionMediaTypes[extensionOf(filename) ?? '']
    if (byExtension !== undefined) essence = byExtension
  }
  if (!(acceptedMediaTypes as readonly string[]).includes(essence)) return { ok: false, given: declared ?? '' }
  const textual = essence.startsWith('text/') || essence.endsWith('/json') || essence.endsWith('/xml') || essence === 'message/rfc822'
  return { ok: true, mediaType: textual && parsed.charset !== undefined ? `${essence}; charset=${parsed.charset}` : essence }
}

/**
 * `Content-Disposition` for a download (RFC 6266): an ASCII fallback name, and the exact name in
 * `filename*` when it is not plain ASCII. Quotes, backslashes and control characters never reach the header.
 */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_').slice(0, 200) || 'download'
  const exact = encodeURIComponent(filename.slice(0, 200)).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
  return ascii === filename ? `attachment; filename="${ascii}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`
}
