/**
 * Format signatures for `accepts`: what the first bytes of each bank statement format look like. The
 * registry tries the structured formats (CAMT.053, OFX, MT940) before CSV, and the CSV parser also
 * refuses anything that carries one of these signatures, so an XML or OFX file is never read as CSV
 * whatever its name.
 */
import { decodeHead, detectEncoding } from './text-encoding.ts'

/** Signatures sit at the start of a file; 8 KiB is far more than any header needs. */
const sniffBytesMax = 8192

/** The start of the artifact as text, for signature checks. */
export function sniffText(head: Buffer): string {
  const prefix = head.subarray(0, sniffBytesMax)
  return decodeHead(prefix, detectEncoding(prefix)).replace(/^\uFEFF/, '')
}

/** The lower-case extension of a file name, without the dot. */
export function fileExtension(filename: string | null): string | undefined {
  if (filename === null) return undefined
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(filename)
  return match?.[1]?.toLowerCase()
}

/** The media type without parameters, lower case. */
export function mediaEssence(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase()
}

export function looksLikeXml(text: string): boolean {
  return /^\s*<(\?xml|[A-Za-z_][\w.:-]*[\s>/])/.test(text)
}

/** ISO 20022 bank-to-customer statement: the camt.053 namespace or its document element. */
export function looksLikeCamt053(text: string): boolean {
  return /urn:iso:std:iso:20022:tech:xsd:camt\.053\.\d{3}\.\d{2}/.test(text) || /<([\w-]+:)?BkToCstmrStmt[\s>]/.test(text)
}

/** OFX 1.x (SGML, `OFXHEADER:100`) or 2.x (XML with the `<?OFX …?>` processing instruction). */
export function looksLikeOfx(text: string): boolean {
  return /^\s*OFXHEADER\s*:/.test(text) || /<\?OFX\s/i.test(text) || (/^\s*<OFX>/i.test(text) && /<(STMTRS|CCSTMTRS|SIGNONMSGSRSV1)>/i.test(text))
}

/**
 * SWIFT MT940: tag lines `:20:` and `:25:` near the start, the file opening with `:20:`, an optional
 * SWIFT block header `{1:` or a line of its own such as `-` or an empty one.
 */
export function looksLikeMt940(text: string): boolean {
  const opening = text.replace(/^[\s-]*/, '')
  if (!(opening.startsWith(':20:') || opening.startsWith('{1:'))) return false
  return /^:20:/m.test(text) && /^:25:/m.test(text)
}
