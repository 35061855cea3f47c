/**
 * The evidence a payment intent cites, as its proof lists it (spec, "Proof": raw_id, parser,
 * confidence): one entry per cited parsed row, in the order the proposal named them. The proposal's audit
 * event carries `evidence_digest` = digestOf(this list), which binds the proof's `evidence` field.
 */
export interface EvidenceEntry {
  /** The Raw artifact the row was read from. */
  readonly raw_id: string
  /** The parsed row the proposal cited. */
  readonly parsed_row_id: string
  readonly parser: string
  readonly confidence: number
}

export interface CitedRow {
  readonly id: string
  readonly rawArtifactId: string
  readonly parser: string
  readonly confidence: number
}

/** The entries for `evidenceIds`, in their order; ids with no row are left out (the proposal refused them). */
export function evidenceOf(evidenceIds: readonly string[], rows: readonly CitedRow[]): EvidenceEntry[] {
  const byId = new Map(rows.map((row) => [row.id, row]))
  return evidenceIds.flatMap((id) => {
    const row = byId.get(id)
    return row === undefined ? [] : [{ raw_id: row.rawArtifactId, parsed_row_id: row.id, parser: row.parser, confidence: row.confidence }]
  })
}
