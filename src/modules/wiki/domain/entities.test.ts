import { describe, expect, it } from 'vitest'
import { entityProvenance, foldAnnotations, interleave, uncorrectable } from './entities.ts'

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds))
const annotation = (id: string, seconds: number, facts: Partial<Parameters<typeof foldAnnotations>[0][number]> = {}) => ({
  id,
  note: null,
  labels: null,
  corrections: null,
  relationStatus: null,
  recordedAt: at(seconds),
  ...facts,
})

describe('foldAnnotations', () => {
  it('keeps the latest note, labels and verdict, and the latest assertion per field; null withdraws one', () => {
    const layer = foldAnnotations([
      annotation('wan_1', 1, { note: 'first', labels: ['a', 'b'], corrections: { category_id: 'software', status: 'posted' } }),
      annotation('wan_2', 2, { corrections: { status: null }, relationStatus: 'disputed' }),
      annotation('wan_3', 3, { note: 'second', relationStatus: 'confirmed' }),
      annotation('wan_4', 4, { labels: [] }),
    ])
    expect(layer).toEqual({
      note: 'second',
      labels: [],
      corrections: { category_id: { value: 'software', annotation_id: 'wan_1', recorded_at: at(1).toISOString() } },
      relation_status: 'confirmed',
      annotation_count: 4,
      last_annotated_at: at(4).toISOString(),
    })
  })

  it('is empty for no annotations', () => {
    expect(foldAnnotations([])).toEqual({ note: null, labels: [], corrections: {}, relation_status: null, annotation_count: 0, last_annotated_at: null })
  })
})

describe('interleave', () => {
  it('orders by recorded time, a Ledger version before an annotation at the same instant', () => {
    const ledger = [
      { type: 'ledger_version' as const, recordedAt: at(1), order: 1 },
      { type: 'ledger_version' as const, recordedAt: at(5), order: 2 },
    ]
    const annotations = [
      { type: 'annotation' as const, recordedAt: at(1), order: 1 },
      { type: 'annotation' as const, recordedAt: at(3), order: 2 },
      { type: 'annotation' as const, recordedAt: at(9), order: 3 },
    ]
    expect(interleave(ledger, annotations).map((entry) => `${entry.type}:${entry.order}`)).toEqual([
      'ledger_version:1',
      'annotation:1',
      'annotation:2',
      'ledger_version:2',
      'annotation:3',
    ])
  })
})

describe('corrections and provenance', () => {
  it('refuses the version and provenance fields and unknown ones', () => {
    expect(uncorrectable(['amount', 'provenance', 'version_id', 'nope'], ['id', 'amount', 'provenance', 'version_id'])).toEqual(['provenance', 'version_id', 'nope'])
  })

  it('is human_confirmed once an annotation follows the Ledger version shown', () => {
    expect(entityProvenance('extracted', at(2), null)).toBe('extracted')
    expect(entityProvenance('extracted', at(2), at(1))).toBe('extracted')
    expect(entityProvenance('extracted', at(2), at(3))).toBe('human_confirmed')
  })
})
