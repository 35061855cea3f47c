import { describe, expect, it } from 'vitest'
import { attachmentDisposition, decideMediaType, extensionOf, parseMediaType } from './media-types.ts'

describe('decideMediaType', () => {
  it.each([
    ['text/csv', 'a.csv', 'text/csv'],
    ['TEXT/CSV', null, 'text/csv'],
    ['text/csv; charset="UTF-8"; header=present', null, 'text/csv; charset=utf-8'],
    ['application/pdf; charset=utf-8', 'x.pdf', 'application/pdf'],
    ['application/octet-stream', 'statement.OFX', 'application/x-ofx'],
    [undefined, 'mt940.sta', 'application/x-mt940'],
    ['', 'mail.eml', 'message/rfc822'],
    ['text/plain', 'export.csv', 'text/csv'],
    ['text/plain', 'notes', 'text/plain'],
    ['application/vnd.ms-excel', 'export.csv', 'text/csv'],
    ['text/xml', 'camt.053.xml', 'text/xml'],
    ['message/rfc822', null, 'message/rfc822'],
  ])('%s with %s → %s', (declared, filename, expected) => {
    expect(decideMediaType(declared, filename)).toEqual({ ok: true, mediaType: expected })
  })

  it.each([
    ['image/png', 'logo.png'],
    ['application/octet-stream', 'blob.bin'],
    [undefined, null],
    ['application/vnd.ms-excel', 'book.xls'],
    ['text/html', 'page.csv'],
    ['not a type', 'a.csv'],
    ['text/csv/extra', null],
  ])('refuses %s with %s', (declared, filename) => {
    expect(decideMediaType(declared, filename).ok).toBe(false)
  })
})

describe('parseMediaType and extensionOf', () => {
  it('parses the essence and a clean charset only', () => {
    expect(parseMediaType('Text/Plain; Charset=ISO-8859-1')).toEqual({ essence: 'text/plain', charset: 'iso-8859-1' })
    expect(parseMediaType('text/plain; charset=a b')).toEqual({ essence: 'text/plain', charset: undefined })
    expect(parseMediaType('text plain')).toBeUndefined()
  })
  it.each([
    ['a.CSV', 'csv'],
    ['archive.tar.gz', 'gz'],
    ['noextension', undefined],
    ['trailing.', undefined],
    [null, undefined],
  ])('%s → %s', (name, extension) => {
    expect(extensionOf(name)).toBe(extension)
  })
})

describe('attachmentDisposition', () => {
  it.each([
    ['march.csv', 'attachment; filename="march.csv"'],
    ['März.csv', `attachment; filename="M_rz.csv"; filename*=UTF-8''M%C3%A4rz.csv`],
    ['a"b\\c.csv', `attachment; filename="a_b_c.csv"; filename*=UTF-8''a%22b%5Cc.csv`],
    ['evil\r\nSet-Cookie: x.csv', `attachment; filename="evil__Set-Cookie: x.csv"; filename*=UTF-8''evil%0D%0ASet-Cookie%3A%20x.csv`],
    ["it's (1).pdf", `attachment; filename="it's (1).pdf"`],
  ])('%j → %s', (name, header) => {
    expect(attachmentDisposition(name)).toBe(header)
    expect(attachmentDisposition(name)).not.toMatch(/[\r\n]/)
  })
})
