/**
 * Wire schemas of the Wiki's entity routes (entity, evidence, history, annotate, schema). A Wiki entity's
 * `record` is the Ledger's own schema of its kind (ledger's index.ts exports them), so the Wiki's JSON
 * Schema of a kind (GET /v1/wiki/schema) is generated from the same definitions the routes answer with.
 */
import Type, { type Static, type TSchema } from 'typebox'
import { Account, Balance, Counterparty, Invoice, Obligation, ReconciliationMatch, Transaction } from '../ledger/index.ts'
import { AmountSchema, definitionOf, named, NextCursor, Nullable, pageQuery, PathId, Strict, Timestamp } from '../../platform/http/schemas.ts'
import { wikiEntityKinds, type WikiEntityKind } from './domain/entities.ts'

/** History pages (the entity's versions). */
export const historyPageRows = { defaultRows: 100, maxRows: 500 } as const
/** Parsed rows an evidence chain shows at most (a record citing more says `truncated`). */
export const evidenceRowsMax = 100

/** The Ledger's schema of each kind's record. */
export const recordSchemas: Readonly<Record<WikiEntityKind, TSchema>> = {
  account: Account,
  balance: Balance,
  counterparty: Counterparty,
  transaction: Transaction,
  invoice: Invoice,
  obligation: Obligation,
  reconciliation_match: ReconciliationMatch,
}

const EntityKind = Type.Enum(wikiEntityKinds, { description: 'The kind of Ledger record (its id prefix: acc_, bal_, cpy_, txn_, inv_, obl_, rcm_).' })
const ledgerProvenances = ['extracted', 'inferred', 'ambiguous', 'human_confirmed', 'agent_contributed'] as const
const Provenance = Type.Enum(ledgerProvenances)

const entityIdNote = 'A Ledger record id (acc_, bal_, cpy_, txn_, inv_, obl_ or rcm_…)'
export const WikiEntityParams = Strict({ entity_id: PathId('wiki_entity_not_found', undefined, entityIdNote) })
export const WikiEntityQuery = Strict({
  as_of: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'System time: the entity as the Wiki knew it at this instant — the Ledger version and the annotations recorded by then. Omitted: now.',
    }),
  ),
})
export const WikiHistoryQuery = Strict({ ...pageQuery(historyPageRows) })

const AssertedValue = Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean()])

export const WikiLayer = Strict(
  {
    note: Nullable(Type.String({ description: 'The latest annotation note.' })),
    labels: Type.Array(Type.String(), { description: 'The labels of the latest annotation that gave labels.' }),
    corrections: Type.Record(
      Type.String(),
      Strict({ value: AssertedValue, annotation_id: Type.String(), recorded_at: Timestamp }),
      { description: 'Field → the value a person asserted for it (the latest assertion per field). A Wiki-level assertion: the Ledger record is unchanged.' },
    ),
    relation_status: Nullable(Type.Enum(['confirmed', 'disputed'], { description: 'A relation\'s (reconciliation match\'s) latest verdict.' })),
    annotation_count: Type.Integer({ minimum: 0 }),
    last_annotated_at: Nullable(Timestamp),
  },
  { description: 'What the Wiki knows beyond the Ledger: its annotations, folded oldest first.' },
)

const LedgerVersionRef = Strict({
  version_id: Type.String(),
  version: Type.Integer({ minimum: 1 }),
  recorded_at: Timestamp,
  superseded_at: Nullable(Timestamp),
  provenance: Provenance,
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
})

const SourceEvidence = Strict(
  {
    raw_artifact_ids: Type.Array(Type.String(), { description: 'The Raw artifacts (raw_…) the Ledger version came from.' }),
    parsed_row_ids: Type.Array(Type.String(), { description: 'The parsed rows (rpr_…) the Ledger version came from.' }),
  },
  { description: 'Raw refs of the entity (its Ledger version\'s source_ids and evidence_ids); GET …/evidence resolves them.' },
)

/** A Wiki entity whose record is `record` (a kind's schema, or the union of them all). */
function wikiEntityObject(kind: TSchema, record: TSchema) {
  return Strict({
    entity_id: Type.String(),
    kind,
    as_of: Nullable(Type.String({ format: 'date-time', description: 'The instant read; null for now.' })),
    wiki_version: Type.Integer({ minimum: 1, description: 'How many versions the entity had as of the read: its Ledger versions and annotations recorded by then.' }),
    provenance: Type.Enum([...ledgerProvenances], {
      description: 'human_confirmed when an annotation was recorded after the Ledger version shown; otherwise that version\'s provenance.',
    }),
    confidence: Type.Number({ minimum: 0, maximum: 1, description: 'The Ledger version\'s confidence (an annotation does not change it).' }),
    recorded_at: Type.String({ format: 'date-time', description: 'When the latest of its versions (Ledger or annotation) was recorded.' }),
    ledger_version: LedgerVersionRef,
    record: record,
    wiki: WikiLayer,
    source_evidence: SourceEvidence,
  })
}

export const WikiEntity = named('WikiEntity', wikiEntityObject(EntityKind, Type.Union(Object.values(recordSchemas), { description: 'The Ledger record as its Ledger route shows it (GET /v1/wiki/schema gives the schema of each kind).' })))

export const EvidenceParsedRow = Strict({
  id: Type.String({ description: 'The parsed row (rpr_…).' }),
  parser: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 1, description: 'How confident its extraction was.' }),
  raw_artifact: Nullable(
    Strict({
      id: Type.String({ description: 'The Raw artifact (raw_…) it was read from.' }),
      source_type: Type.String(),
      sha256: Type.String(),
      mime_type: Type.String(),
      status: Type.Enum(['stored', 'tombstoned']),
      received_at: Timestamp,
    }),
  ),
})

export const WikiEvidence = Strict({
  entity_id: Type.String(),
  kind: EntityKind,
  as_of: Nullable(Type.String({ format: 'date-time' })),
  ledger_version: LedgerVersionRef,
  evidence_path: Type.Array(Type.String(), {
    description: 'The chain as refs, record first: `<kind>:<id>`, then each `parsed_row:rpr_…` followed by its `raw_artifact:raw_…`.',
  }),
  parsed_rows: Type.Array(EvidenceParsedRow, { description: `The parsed rows the record cites, in its order, at most ${evidenceRowsMax}.` }),
  unresolved_ids: Type.Array(Type.String(), { description: 'Cited parsed rows that no longer resolve in Raw.' }),
  truncated: Type.Boolean({ description: `True when the record cites more than ${evidenceRowsMax} parsed rows.` }),
})

export const WikiAnnotation = Strict({
  annotation_id: Type.String({ description: 'wan_…' }),
  target: Type.Enum(['entity', 'relation']),
  subject_id: Type.String({ description: 'The entity or relation annotated.' }),
  kind: EntityKind,
  version: Type.Integer({ minimum: 1, description: 'The subject\'s annotation number (1, 2, 3 …).' }),
  note: Nullable(Type.String()),
  labels: Nullable(Type.Array(Type.String())),
  corrections: Nullable(Type.Record(Type.String(), Nullable(AssertedValue))),
  relation_status: Nullable(Type.Enum(['confirmed', 'disputed'])),
  provenance: Type.Enum(['human_confirmed']),
  actor: Strict({ type: Type.String(), id: Type.String() }),
  basis_version_id: Type.String({ description: 'The Ledger version that was current when the annotation was made.' }),
  recorded_at: Timestamp,
})

export const WikiHistoryEntry = Strict({
  wiki_version: Type.Integer({ minimum: 1 }),
  type: Type.Enum(['ledger_version', 'annotation']),
  recorded_at: Timestamp,
  provenance: Provenance,
  ledger_version: Nullable(
    Strict({
      version_id: Type.String(),
      version: Type.Integer({ minimum: 1 }),
      superseded_at: Nullable(Timestamp),
      confidence: Type.Number({ minimum: 0, maximum: 1 }),
      source_ids: Type.Array(Type.String()),
      evidence_ids: Type.Array(Type.String()),
      record: Type.Union(Object.values(recordSchemas)),
    }),
  ),
  annotation: Nullable(WikiAnnotation),
})

export const WikiHistory = Strict({
  entity_id: Type.String(),
  kind: EntityKind,
  versions: Type.Array(WikiHistoryEntry, { description: 'Oldest first: Ledger versions and annotations interleaved by recorded time.' }),
  next_cursor: NextCursor,
})

const labelPattern = '^[a-z0-9][a-z0-9_.:-]{0,63}$'
const Note = Type.String({ minLength: 1, maxLength: 4000, description: 'Free text, 1 to 4,000 characters, kept verbatim by the Wiki (the audit event holds its hash).' })
const Labels = Type.Array(Type.String({ pattern: labelPattern }), {
  maxItems: 20,
  uniqueItems: true,
  description: 'Replace the subject\'s labels (lower-case, 1 to 64 of a-z 0-9 _ . : -; at most 20; [] clears them).',
})

export const EntityAnnotationBody = Strict(
  {
    entity_id: Type.String({ minLength: 1, maxLength: 255, description: `${entityIdNote}; 404 wiki_entity_not_found when it names nothing of your tenant.` }),
    note: Type.Optional(Note),
    labels: Type.Optional(Labels),
    corrections: Type.Optional(
      Type.Record(Type.String({ pattern: '^[a-z_]{1,64}$' }), Nullable(AssertedValue), {
        maxProperties: 20,
        description:
          'Field → the value a person asserts it has (a field of the kind\'s record, not its version or provenance fields; otherwise 400 validation_failed); null withdraws an earlier assertion. A Wiki-level assertion: the Ledger record is never changed.',
      }),
    ),
  },
  { minProperties: 2, description: 'An entity annotation: entity_id and at least one of note, labels, corrections.' },
)

export const RelationAnnotationBody = Strict(
  {
    relation_id: Type.String({ minLength: 1, maxLength: 255, description: 'A reconciliation match id (rcm_…); 404 wiki_entity_not_found when it names nothing of your tenant.' }),
    status: Type.Enum(['confirmed', 'disputed'], { description: 'A person confirms or disputes the match.' }),
    note: Type.Optional(Note),
    labels: Type.Optional(Labels),
  },
  { description: 'A relation annotation: a person confirming or disputing a reconciliation match.' },
)

/** oneOf, as the spec writes it: the two bodies are disjoint (each requires its own id and refuses other fields). */
export const AnnotateBody = Type.Unsafe<Static<typeof EntityAnnotationBody> | Static<typeof RelationAnnotationBody>>({ oneOf: [EntityAnnotationBody, RelationAnnotationBody] })

export const AnnotateResponse = Strict({ annotation: WikiAnnotation, entity: WikiEntity })

export const WikiSchemaQuery = Strict({ kind: Type.Optional(EntityKind) })
export const WikiSchemaMap = Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), {
  description: 'Kind → the JSON Schema (draft 2020-12) of a Wiki entity of that kind, as GET /v1/wiki/entity/{entity_id} answers it.',
})

/** A schema with every reference replaced by its definition and no `$id`: a self-contained JSON Schema. */
function inlined(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inlined)
  if (schema === null || typeof schema !== 'object') return schema
  const definition = definitionOf(schema)
  if (definition !== undefined) return inlined(definition)
  const reference = (schema as { $ref?: unknown }).$ref
  if (reference === 'Amount') return inlined(AmountSchema)
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$id').map(([key, value]) => [key, inlined(value)]))
}

/** Kind → JSON Schema of a Wiki entity of that kind, generated from the route's own schemas. */
export function wikiEntityJsonSchemas(): Record<WikiEntityKind, Record<string, unknown>> {
  return Object.fromEntries(
    wikiEntityKinds.map((kind) => [
      kind,
      { $schema: 'https://json-schema.org/draft/2020-12/schema', title: `Wiki entity: ${kind}`, ...(inlined(wikiEntityObject(Type.Literal(kind), recordSchemas[kind])) as Record<string, unknown>) },
    ]),
  ) as unknown as Record<WikiEntityKind, Record<string, unknown>>
}
