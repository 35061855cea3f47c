/**
 * Wiki entities (docs/wiki.md, "Entities"): a Wiki entity is a Ledger record seen through the Wiki — its
 * Ledger versions merged with the Wiki's own annotation versions. Pure: no storage, no clock.
 */

/** The kinds of Wiki entity: the Ledger's record kinds (a reconciliation match is also the Wiki's relation). */
export const wikiEntityKinds = ['account', 'balance', 'counterparty', 'transaction', 'invoice', 'obligation', 'reconciliation_match'] as const
export type WikiEntityKind = (typeof wikiEntityKinds)[number]

/** A record's fields that are its version and provenance, not a fact an annotation can assert. */
export const versionFields: readonly string[] = [
  'id',
  'version_id',
  'version',
  'supersedes',
  'source_ids',
  'evidence_ids',
  'provenance',
  'confidence',
  'metadata',
  'created_at',
  'updated_at',
  'superseded_at',
]

/** The scalar value an annotation asserts for a field (a Wiki-level assertion; the Ledger row is unchanged). */
export type AssertedValue = string | number | boolean | null

/** One annotation as the Wiki folds it. */
export interface AnnotationFacts {
  readonly id: string
  readonly note: string | null
  readonly labels: readonly string[] | null
  readonly corrections: Readonly<Record<string, AssertedValue>> | null
  readonly relationStatus: 'confirmed' | 'disputed' | null
  readonly recordedAt: Date
}

/** What the Wiki knows of an entity beyond the Ledger, as of some instant. */
export interface WikiLayer {
  /** The latest note. */
  readonly note: string | null
  /** The latest labels given (an annotation with labels replaces them). */
  readonly labels: string[]
  /** Field → asserted value, the latest assertion per field; a null assertion withdraws the field's. */
  readonly corrections: Record<string, { value: Exclude<AssertedValue, null>; annotation_id: string; recorded_at: string }>
  /** A relation's latest verdict. */
  readonly relation_status: 'confirmed' | 'disputed' | null
  readonly annotation_count: number
  readonly last_annotated_at: string | null
}

/** Folds annotations, oldest first, into the Wiki layer they leave. */
export function foldAnnotations(annotations: readonly AnnotationFacts[]): WikiLayer {
  let note: string | null = null
  let labels: readonly string[] = []
  let relationStatus: WikiLayer['relation_status'] = null
  const corrections = new Map<string, { value: Exclude<AssertedValue, null>; annotation_id: string; recorded_at: string }>()
  for (const annotation of annotations) {
    if (annotation.note !== null) note = annotation.note
    if (annotation.labels !== null) labels = annotation.labels
    if (annotation.relationStatus !== null) relationStatus = annotation.relationStatus
    for (const [field, value] of Object.entries(annotation.corrections ?? {})) {
      if (value === null) corrections.delete(field)
      else corrections.set(field, { value, annotation_id: annotation.id, recorded_at: annotation.recordedAt.toISOString() })
    }
  }
  const last = annotations.at(-1)
  return {
    note,
    labels: [...labels],
    corrections: Object.fromEntries([...corrections.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    relation_status: relationStatus,
    annotation_count: annotations.length,
    last_annotated_at: last?.recordedAt.toISOString() ?? null,
  }
}

/** The fields of a kind's record an annotation may assert a value for: every field but the version fields. */
export function correctableFields(recordFields: readonly string[]): string[] {
  return recordFields.filter((field) => !versionFields.includes(field))
}

/** The fields among `fields` that are not correctable. */
export function uncorrectable(fields: readonly string[], recordFields: readonly string[]): string[] {
  const allowed = new Set(correctableFields(recordFields))
  return fields.filter((field) => !allowed.has(field))
}

/** An entry of an entity's history: a Ledger version or a Wiki annotation, each at its recorded time. */
export interface Timed<T extends 'ledger_version' | 'annotation'> {
  readonly type: T
  readonly recordedAt: Date
  /** Order within the type (the Ledger version, the annotation's version). */
  readonly order: number
}

/**
 * Interleaves Ledger versions and annotations, each oldest first, by recorded time; at the same instant a
 * Ledger version comes before an annotation (an annotation is of a version already recorded).
 */
export function interleave<L extends Timed<'ledger_version'>, A extends Timed<'annotation'>>(ledger: readonly L[], annotations: readonly A[]): Array<L | A> {
  const merged: Array<L | A> = []
  let i = 0
  let j = 0
  while (i < ledger.length || j < annotations.length) {
    const l = ledger[i]
    const a = annotations[j]
    if (a === undefined || (l !== undefined && l.recordedAt.getTime() <= a.recordedAt.getTime())) {
      merged.push(l!)
      i += 1
    } else {
      merged.push(a)
      j += 1
    }
  }
  return merged
}

/**
 * The entity's provenance as of some instant: human_confirmed when an annotation was recorded after the
 * Ledger version it shows (a person confirmed it since), otherwise the Ledger version's.
 */
export function entityProvenance(ledgerProvenance: string, ledgerRecordedAt: Date, lastAnnotatedAt: Date | null): string {
  return lastAnnotatedAt !== null && lastAnnotatedAt.getTime() >= ledgerRecordedAt.getTime() ? 'human_confirmed' : ledgerProvenance
}
