/**
 * Whatever the bytes, a document parser ends in records, attachments or a ParseError: never another
 * exception, never a hang (the suite's test timeout bounds every case).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { documentParsers } from './index.ts'
import { ParseError, type Parser } from '../parser.ts'
import { collect, fixtureBytes, inputFromBytes } from '../../../../../test/fixtures/raw/documents/fixture-input.ts'

interface Target {
  readonly parser: Parser
  readonly sourceType: string
  readonly mimeType: string
  readonly fixtures: readonly string[]
}

const byName = (name: string): Parser => {
  const parser = documentParsers.find((candidate) => candidate.name === name)
  if (parser === undefined) throw new Error(`no parser ${name}`)
  return parser
}

const targets: readonly Target[] = [
  { parser: byName('pdf_invoice'), sourceType: 'pdf_upload', mimeType: 'application/pdf', fixtures: ['invoice-en-vendor.pdf', 'rechnung-de.pdf'] },
  { parser: byName('email_message'), sourceType: 'email_inbound', mimeType: 'message/rfc822', fixtures: ['invoice-with-attachments.eml', 'receipt-inline.eml'] },
  { parser: byName('bank_provider_payload'), sourceType: 'bank_provider', mimeType: 'application/json', fixtures: ['bank-provider.json'] },
  { parser: byName('card_processor_payload'), sourceType: 'card_processor', mimeType: 'application/json', fixtures: ['card-processor.json'] },
  { parser: byName('erp_provider_payload'), sourceType: 'erp_provider', mimeType: 'application/json', fixtures: ['erp-provider.json'] },
  { parser: byName('accounting_provider_payload'), sourceType: 'accounting_provider', mimeType: 'application/json', fixtures: ['accounting-provider.json'] },
  { parser: byName('payroll_provider_payload'), sourceType: 'payroll_provider', mimeType: 'application/json', fixtures: ['payroll-provider.json'] },
  { parser: byName('chain_indexer_wallet'), sourceType: 'chain_indexer_wallet', mimeType: 'application/json', fixtures: ['chain-indexer.json'] },
]

/** The error a parse ended with, or undefined when it ended normally. */
async function outcome(target: Target, bytes: Buffer): Promise<unknown> {
  try {
    await collect(target.parser, inputFromBytes(bytes, { sourceType: target.sourceType, mimeType: target.mimeType }))
    return undefined
  } catch (error) {
    return error
  }
}

const endsWell = (error: unknown) => error === undefined || error instanceof ParseError

describe.each(targets)('$parser.name on malformed input', (target) => {
  it('ends in a ParseError for every truncation of its fixtures', async () => {
    for (const name of target.fixtures) {
      const whole = fixtureBytes(name)
      for (const fraction of [0, 0.01, 0.1, 0.33, 0.5, 0.9, 0.99]) {
        const error = await outcome(target, whole.subarray(0, Math.floor(whole.length * fraction)))
        // An e-mail cut short can still be a message (headers and part of a body); every other format fails.
        if (target.parser.name === 'email_message' && fraction > 0) expect(endsWell(error), String(error)).toBe(true)
        else expect(error, `${name} cut at ${fraction}`).toBeInstanceOf(ParseError)
      }
    }
  })

  it('ends well on arbitrary bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), async (bytes) => endsWell(await outcome(target, Buffer.from(bytes)))),
      { numRuns: 40, seed: 20260301 },
    )
  })

  it('ends well on its fixture with bytes flipped', async () => {
    const whole = fixtureBytes(target.fixtures[0] ?? '')
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(whole.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), async (flips) => {
        const bytes = Buffer.from(whole)
        for (const [position, value] of flips) bytes[position] = value
        return endsWell(await outcome(target, bytes))
      }),
      { numRuns: 40, seed: 20260302 },
    )
  })
})

describe('JSON payload parsers on arbitrary JSON', () => {
  it.each(targets.filter((target) => target.mimeType === 'application/json'))('$parser.name refuses any JSON value that is not its envelope', async (target) => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => (await outcome(target, Buffer.from(JSON.stringify(value) ?? 'null'))) instanceof ParseError),
      { numRuns: 60, seed: 20260303 },
    )
  })
})
