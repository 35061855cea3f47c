/** Proofs and audit: an action's proof for a person with an in-browser verify; the audit event list
 * with filters; chain status and the latest anchor. */
import { api, describeError } from '../api.ts'
import { badge, facts, filterForm, h, input, link, pager, replace, select, table, type Child } from '../dom.ts'
import { dateTime, money } from '../format.ts'
import { verifyProof, type VerifiableProof } from '../verify.ts'

export async function proofPage(params: Record<string, string>, query: URLSearchParams): Promise<Child> {
  const actionId = params.id ?? query.get('action_id') ?? ''
  const lookup = filterForm('/proofs', [['Action (payment intent) id', input('action_id', actionId, { required: true })]], 'Open the proof')
  if (actionId === '') return [h('h1', {}, 'Proof of an action'), lookup]
  const proof = await api.GET('/v1/proof/{action_id}', { params: { path: { action_id: actionId } } })
  const result = h('div', { role: 'status', 'aria-live': 'polite', 'data-testid': 'verify-result' })
  const verify = h(
    'button',
    {
      type: 'button',
      onclick: () => {
        try {
          const verification = verifyProof(proof as unknown as VerifiableProof)
          replace(
            result,
            h('p', { class: verification.ok ? 'good' : 'bad', 'data-testid': 'verify-verdict' },
              !verification.ok
                ? 'Does NOT verify: see the failing check below.'
                : verification.sealed
                  ? `Verified in this browser: every event hash and Merkle path recomputes${verification.complete ? '' : ' (the proof is partial: the action is not final yet)'}.`
                  : 'Consistent, but not verified yet: some of its events are under no Merkle root yet, so what they state is bound to nothing. Verify it again once their batch closes.'),
            h(
              'p',
              { 'data-testid': 'anchor-verdict' },
              verification.anchored
                ? `The proof says root ${proof.merkle_root} was published on chain ${String(proof.chain_anchor?.chain_id)} in transaction ${String(proof.chain_anchor?.tx_hash)}; to ask the chain itself, run npm run audit:verify-proof -- proof.json --rpc <url> --contract <address>.`
                : proof.merkle_root === ''
                  ? 'Not anchored: the batch is not closed yet.'
                  : `The root ${proof.merkle_root} is not anchored on chain yet (it is sealed in the audit chain's database hash chain).`,
            ),
            h('ul', { class: 'checks' }, ...verification.checks.map((check) => h('li', { class: check.passed ? 'good' : 'bad' }, `${check.passed ? '✓' : '✗'} ${check.name}: ${check.detail}`))),
          )
        } catch (error) {
          replace(result, h('p', { class: 'bad' }, `Could not verify: ${describeError(error)}`))
        }
      },
    },
    'Verify in this browser',
  )
  return [
    h('h1', {}, 'Proof of ', h('code', {}, proof.action_id)),
    lookup,
    h('p', { class: 'explanation', 'data-testid': 'proof-explanation' }, proof.human_explanation),
    facts([
      ['Outcome', badge(proof.outcome, proof.outcome === 'rejected' || proof.outcome === 'failed' ? 'bad' : 'good')],
      ['Status', proof.status],
      ['Complete', proof.partial ? 'partial: not final or not all sealed yet' : 'yes'],
      ['Payment', `${proof.payment.action_type ?? '—'} ${money(proof.payment.amount, proof.payment.currency)}`],
      ['From account', proof.payment.source_account_id ?? '—'],
      ['To counterparty', proof.payment.destination_counterparty_id ?? '—'],
      ['Proposed by agent', proof.agent_id ?? 'a member'],
      ['Policy', proof.policy_version === null ? '—' : `version ${proof.policy_version}, rule ${proof.matched_rule_id ?? '—'}, hash ${proof.policy_hash ?? '—'}`],
      ['Merkle root', proof.merkle_root === '' ? 'not sealed yet' : h('code', {}, proof.merkle_root)],
      ['Anchor', proof.chain_anchor === null ? 'not on chain' : `chain ${proof.chain_anchor.chain_id}, block ${proof.chain_anchor.block}, tx ${proof.chain_anchor.tx_hash}`],
    ]),
    verify,
    result,
    table('Approvals', [
      { title: 'Decision', cell: (row) => row.decision },
      { title: 'Member', cell: (row) => row.member_id },
      { title: 'When', cell: (row) => dateTime(row.at) },
    ], proof.approvals),
    table('Gate checks', [
      { title: '#', numeric: true, cell: (row) => row.index },
      { title: 'Check', cell: (row) => row.name },
      { title: 'Passed', cell: (row) => (row.passed ? 'yes' : 'no') },
      { title: 'Why', cell: (row) => row.reason },
    ], proof.gate_checks, 'the gate has not run.'),
    table('Evidence', [
      { title: 'Raw file', cell: (row) => link(`#/raw/${encodeURIComponent(row.raw_id)}?rows=${encodeURIComponent(row.parsed_row_id)}`, row.raw_id) },
      { title: 'Parsed row', cell: (row) => row.parsed_row_id },
      { title: 'Parser', cell: (row) => row.parser },
    ], proof.evidence),
    table('Audit events', [
      { title: 'Seq', numeric: true, cell: (row) => row.event.seq ?? '—' },
      { title: 'Action', cell: (row) => row.event.action },
      { title: 'Actor', cell: (row) => `${row.event.actor.type} ${row.event.actor.id}` },
      { title: 'When', cell: (row) => dateTime(row.event.created_at) },
      { title: 'Inclusion', cell: (row) => row.inclusion.status.replaceAll('_', ' ') },
    ], proof.events),
  ]
}

const dayStart = (day: string | null) => (day ? `${day}T00:00:00.000Z` : undefined)
const dayEnd = (day: string | null) => (day ? `${day}T23:59:59.999Z` : undefined)

const layers: Array<[string, string]> = [['', 'Any layer'], ...['raw', 'ledger', 'wiki', 'policy', 'agent', 'execution', 'audit'].map((value): [string, string] => [value, value])]

export async function auditPage(_params: Record<string, string>, query: URLSearchParams): Promise<Child> {
  const [events, chain, anchor] = await Promise.all([
    api.GET('/v1/audit/events', { params: { query: { limit: 50, layer: (query.get('layer') || undefined) as 'raw' | undefined, actor: query.get('actor') || undefined, since: dayStart(query.get('since')), until: dayEnd(query.get('until')), cursor: query.get('cursor') || undefined } } }),
    api.GET('/v1/audit/chain', { params: { query: { check_anchors: true } } }).catch((error: unknown) => describeError(error)),
    api.GET('/v1/audit/anchor/latest', {}).catch(() => null),
  ])
  return [
    h('h1', {}, 'Audit and proofs'),
    h('section', { 'aria-label': 'Open a proof' }, filterForm('/proofs', [['Proof of action (payment intent id)', input('action_id', '', { required: true })]], 'Open the proof')),
    h('section', { 'aria-labelledby': 'chain-title' },
      h('h2', { id: 'chain-title' }, 'Chain status'),
      typeof chain === 'string'
        ? h('p', { class: 'error' }, chain)
        : h('p', { class: chain.ok ? 'good' : 'bad', 'data-testid': 'chain-status' }, chain.ok ? `Intact: ${chain.events_checked} events and ${chain.anchors_checked} Merkle batches recompute (head seq ${chain.head_seq ?? '—'}, ${chain.unsequenced} not linked yet).` : `Broken at ${JSON.stringify(chain.first_break)}`),
      anchor === null
        ? h('p', {}, 'No Merkle batch closed yet.')
        : facts([['Latest root', h('code', {}, anchor.merkle_root)], ['Events', `${anchor.event_count} (seq ${anchor.seq_from}–${anchor.seq_to})`], ['Mode', anchor.anchoring_mode], ['Published', anchor.publication_status], ['Transaction', anchor.onchain_tx_hash ?? '—'], ['Guarantee', anchor.guarantee]]),
    ),
    h('h2', {}, 'Events'),
    filterForm('/audit', [
      ['Layer', select('layer', layers, query.get('layer') ?? '')],
      ['Actor id', input('actor', query.get('actor'))],
      ['Since', input('since', query.get('since'), { type: 'date' })],
      ['Until', input('until', query.get('until'), { type: 'date' })],
    ]),
    table('Audit events', [
      { title: 'Seq', numeric: true, cell: (row) => row.seq ?? '—' },
      { title: 'When', cell: (row) => dateTime(row.created_at) },
      { title: 'Layer', cell: (row) => row.layer },
      { title: 'Action', cell: (row) => row.action },
      { title: 'Actor', cell: (row) => `${row.actor.type} ${row.actor.id}` },
      { title: 'Entity', cell: (row) => (row.entity.type === 'payment_intent' ? link(`#/proofs/${encodeURIComponent(row.entity.id)}`, `${row.entity.type} ${row.entity.id}`) : `${row.entity.type} ${row.entity.id}`) },
    ], events.events),
    pager('/audit', query, events.next_cursor),
  ]
}
