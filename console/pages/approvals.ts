/**
 * The approvals inbox: what awaits the signed-in member, from two `InboxSource`s rendered through one card
 * (headline, key facts, policy decision and trace, consequences, actions): agent proposals
 * (GET /v1/proposals: findings to acknowledge or reject, and the first-party agents' payments) and payment
 * intents awaiting an approval that no proposal already shows.
 */
import type { Schema } from '../../sdk/index.ts'
import { api, can, currentSession, describeError, signedInMemberId } from '../api.ts'
import { badge, facts, field, h, link, refreshPage, replace, table, type Child } from '../dom.ts'
import { dateTime, money } from '../format.ts'

type PaymentIntent = Awaited<ReturnType<typeof getIntent>>
const getIntent = (id: string) => api.GET('/v1/payment-intents/{payment_intent_id}', { params: { path: { payment_intent_id: id } } })

/** One thing awaiting a decision, whatever its source. */
export interface InboxItem {
  readonly id: string
  readonly kind: string
  readonly headline: string
  readonly facts: ReadonlyArray<readonly [string, Child]>
  readonly state: HTMLElement
  readonly decision: HTMLElement
  readonly consequences: string
  readonly actions: ReadonlyArray<{ readonly label: string; readonly run: (reason: string | undefined) => Promise<unknown>; readonly needsReason?: boolean; readonly tone?: string }>
  readonly links: readonly Child[]
  /** Whether the signed-in member is shown the decision buttons (the API still applies the member rules). */
  readonly decidable?: boolean
  /**
   * Whether the signed-in member gave the payment's first approval: the second has to come from a different
   * member (the API refuses it with `second_approval_required`), so the item is not offered to them.
   */
  readonly approvedByYou?: boolean
  /** What the card says under its headline (a proposal's recommendation). */
  readonly lead?: string
  /** The records behind it. */
  readonly evidence?: HTMLElement
  /** The PaymentIntent the item stands for, so one payment is not shown twice. */
  readonly paymentIntentId?: string
}

export interface InboxSource {
  readonly name: string
  readonly items: () => Promise<InboxItem[]>
}

interface Names {
  readonly accounts: Map<string, string>
  readonly counterparties: Map<string, string>
}

async function names(): Promise<Names> {
  const [accounts, counterparties] = await Promise.all([
    api.GET('/v1/ledger/accounts', { params: { query: { limit: 200 } } }).catch(() => ({ accounts: [] as Array<{ id: string; name: string }> })),
    api.GET('/v1/ledger/counterparties', { params: { query: { limit: 200 } } }).catch(() => ({ counterparties: [] as Array<{ id: string; name: string }> })),
  ])
  return {
    accounts: new Map(accounts.accounts.map((account) => [account.id, account.name])),
    counterparties: new Map(counterparties.counterparties.map((counterparty) => [counterparty.id, counterparty.name])),
  }
}

export function approvalState(intent: PaymentIntent): HTMLElement {
  const approved = intent.approvals.filter((approval) => approval.decision === 'approve').length
  if (intent.status === 'awaiting_second_approval') {
    return badge(`Awaiting a second approval (${approved} of ${intent.approvals_required})`, 'warn')
  }
  if (intent.status === 'pending_approval') return badge(`Awaiting approval (${approved} of ${intent.approvals_required})`, 'warn')
  return badge(intent.status.replaceAll('_', ' '), intent.status === 'approved' || intent.status === 'executed' ? 'good' : intent.status === 'rejected' ? 'bad' : '')
}

export function policyDecision(intent: PaymentIntent): HTMLElement {
  const decision = intent.policy_decision
  return h(
    'details',
    { class: 'decision' },
    h('summary', {}, `Policy v${decision.policy_version}: ${decision.outcome}${decision.matched_rule_id ? ` by rule ${decision.matched_rule_id}` : ''}${intent.held_by === 'floor' ? ' (held for a person by the fiat floor)' : ''}`),
    h(
      'ol',
      { class: 'trace' },
      ...decision.trace.map((step) =>
        h(
          'li',
          {},
          `Rule ${step.rule_id}: ${step.matched ? 'matched' : 'did not match'}`,
          h('ul', {}, ...step.checks.map((check) => h('li', {}, `${check.passed ? '✓' : '✗'} ${check.key}: ${check.detail}`))),
        ),
      ),
    ),
  )
}

/** Whether the member approved the intent: a payment's approvals come from different members. */
function approvedBy(intent: PaymentIntent, memberId: string | undefined): boolean {
  return memberId !== undefined && intent.approvals.some((approval) => approval.decision === 'approve' && approval.member_id === memberId)
}

/** What a card says instead of its buttons to the member who gave a payment's first approval. */
const approvedByYouNote = 'You gave the first approval: a second, different member has to approve or reject it.'
const approvedByYouConsequences = 'Nothing more is asked of you: once a second, different member approves, the payment is approved; if they reject it, it is not sent.'

function intentItem(intent: PaymentIntent, known: Names, memberId: string | undefined): InboxItem {
  const counterparty = known.counterparties.get(intent.destination_counterparty_id) ?? intent.destination_counterparty_id
  const account = known.accounts.get(intent.source_account_id) ?? intent.source_account_id
  const approved = intent.approvals.filter((approval) => approval.decision === 'approve').length
  const remaining = Math.max(intent.approvals_required - approved, 1)
  const approvedByYou = approvedBy(intent, memberId)
  return {
    id: intent.id,
    paymentIntentId: intent.id,
    approvedByYou,
    kind: 'Payment',
    headline: `Pay ${money(intent.amount, intent.currency)} to ${counterparty}`,
    facts: [
      ['Rail', intent.action_type.replaceAll('_', ' ')],
      ['From', account],
      ['To', counterparty],
      ['Proposed by', intent.created_by_agent_id ?? 'a member'],
      ['Proposed', dateTime(intent.created_at)],
      ['Invoice', intent.invoice_id ?? '—'],
      ['Evidence', `${intent.evidence_ids.length} record(s)`],
      ['Approvals so far', intent.approvals.map((approval) => `${approval.decision} by ${approval.member_id} at ${dateTime(approval.created_at)}`).join('; ') || 'none'],
    ],
    state: approvalState(intent),
    decision: policyDecision(intent),
    consequences: approvedByYou
      ? approvedByYouConsequences
      : remaining > 1
        ? `Your approval is one of ${remaining} still needed: after it, a second, different member has to approve before the payment can be sent.`
        : `Your approval is the last one needed: the payment becomes approved and can be sent from ${account}.`,
    actions: [
      { label: 'Approve', run: () => api.POST('/v1/payment-intents/{payment_intent_id}/approve', { params: { path: { payment_intent_id: intent.id } }, idempotencyKey: key() }) },
      {
        label: 'Reject',
        tone: 'danger',
        needsReason: true,
        run: (reason) => api.POST('/v1/payment-intents/{payment_intent_id}/reject', { params: { path: { payment_intent_id: intent.id } }, body: reason ? { reason } : {}, idempotencyKey: key() }),
      },
    ],
    links: [link(`#/payment-intents/${encodeURIComponent(intent.id)}`, 'Details'), ' · ', link(`#/proofs/${encodeURIComponent(intent.id)}`, 'Proof')],
  }
}

const key = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`)

export const paymentIntentSource: InboxSource = {
  name: 'Payments',
  async items() {
    const [pending, second, known, memberId] = await Promise.all([
      api.GET('/v1/payment-intents', { params: { query: { status: 'pending_approval', limit: 100 } } }),
      api.GET('/v1/payment-intents', { params: { query: { status: 'awaiting_second_approval', limit: 100 } } }),
      names(),
      signedInMemberId(),
    ])
    return [...pending.payment_intents, ...second.payment_intents].map((intent) => intentItem(intent, known, memberId))
  },
}

type Proposal = Schema<'Proposal'>

/** The proposal statuses that await a person: a payment waiting for an approval, a finding nobody decided (or whose decision was undone). */
export const inboxStatuses = ['pending_approval', 'awaiting_second_approval', 'proposed', 'undone'] as const

const decisionTone: Record<string, string | undefined> = { reject: 'danger', undo: 'secondary' }

function proposalState(proposal: Proposal): HTMLElement {
  if (proposal.status === 'awaiting_second_approval') return badge('Awaiting a second approval: a different member has to approve it too', 'warn')
  if (proposal.status === 'pending_approval') return badge('Awaiting approval', 'warn')
  if (proposal.status === 'proposed') return badge('Awaiting a decision', 'warn')
  if (proposal.status === 'undone') return badge('Undone: awaiting a decision again', 'warn')
  return badge(proposal.status.replaceAll('_', ' '), proposal.status === 'approved' || proposal.status === 'acknowledged' || proposal.status === 'executed' ? 'good' : proposal.status === 'rejected' ? 'bad' : '')
}

function proposalDecision(proposal: Proposal): HTMLElement {
  const policy = proposal.policy
  const summary =
    policy.decision === null
      ? `Policy: ${policy.explanation}`
      : `Policy${policy.policy_version === null ? '' : ` v${policy.policy_version}`}: ${policy.decision}${policy.matched_rule_id ? ` by rule ${policy.matched_rule_id}` : ''}. ${policy.explanation}`
  return h(
    'details',
    { class: 'decision', 'data-testid': 'proposal-policy' },
    h('summary', {}, summary),
    policy.required_approvers.length > 0 ? h('p', {}, `Approvers required: ${policy.required_approvers.join(', ')}`) : null,
    h(
      'ol',
      { class: 'trace' },
      ...policy.trace.map((step) =>
        h('li', {}, `Rule ${step.rule_id}: ${step.matched ? 'matched' : 'did not match'}`, h('ul', {}, ...step.checks.map((check) => h('li', {}, `${check.passed ? '✓' : '✗'} ${check.key}: ${check.detail}`)))),
      ),
    ),
  )
}

/** Where a piece of evidence opens in the console, for the kinds it has a page for. */
function evidenceLink(kind: string, ref: string): string | undefined {
  const ledger: Record<string, string> = { transaction: 'transactions', account: 'accounts', counterparty: 'counterparties', invoice: 'invoices', obligation: 'obligations' }
  if (ledger[kind] !== undefined) return `#/ledger/${ledger[kind]}/${encodeURIComponent(ref)}`
  if (kind === 'raw_artifact') return `#/raw/${encodeURIComponent(ref)}`
  if (kind === 'payment_intent') return `#/payment-intents/${encodeURIComponent(ref)}`
  return undefined
}

function proposalEvidence(proposal: Proposal): HTMLElement {
  if (proposal.evidence.length === 0) return h('p', { class: 'empty', 'data-testid': 'proposal-evidence' }, 'Evidence: none cited.')
  return h(
    'div',
    { 'data-testid': 'proposal-evidence' },
    h('h3', {}, `Evidence (${proposal.evidence.length})`),
    h(
      'ul',
      {},
      ...proposal.evidence.map((item) => {
        const href = evidenceLink(item.kind, item.ref)
        return h('li', {}, `${item.kind.replaceAll('_', ' ')}: `, href === undefined ? item.ref : link(href, item.ref))
      }),
    ),
  )
}

function consequencesOf(proposal: Proposal): string {
  const c = proposal.presentation.consequences
  const available = new Set(proposal.available_decisions.map((decision) => decision.id))
  const said = [
    available.has('approve') && c.approve !== null ? `If you approve: ${c.approve}` : null,
    available.has('reject') && c.reject !== null ? `If you reject: ${c.reject}` : null,
    available.has('acknowledge') && c.acknowledge !== null ? `If you acknowledge: ${c.acknowledge}` : null,
    available.has('undo') ? 'Undo takes back the decision in force: the proposal awaits a decision again.' : null,
  ].filter((line): line is string => line !== null)
  return said.length === 0 ? 'No decision is open on this proposal now.' : said.join(' ')
}

/** The proposal last decided in this tab, so its decision can be undone from the inbox it left. */
let justDecided: Proposal | undefined

/**
 * A proposal as a card. `approvedByYou`: the signed-in member gave the first approval of the payment it
 * stands for (the proposal does not carry the approvals; its payment intent does).
 */
export function proposalItem(proposal: Proposal, approvedByYou = false): InboxItem {
  const presentation = proposal.presentation
  return {
    id: proposal.id,
    kind: proposal.payment_intent_id === null ? 'Finding' : 'Payment',
    headline: presentation.headline,
    lead: presentation.recommendation,
    facts: [
      ...presentation.key_facts.map((fact) => [fact.label, fact.value] as const),
      ['Confidence band', presentation.confidence_band],
      ['Risk', proposal.risk_band ?? 'unknown'],
      ['Proposed', dateTime(proposal.created_at)],
    ],
    state: proposalState(proposal),
    decision: proposalDecision(proposal),
    consequences: approvedByYou ? approvedByYouConsequences : consequencesOf(proposal),
    evidence: proposalEvidence(proposal),
    decidable: proposal.available_decisions.length > 0,
    approvedByYou,
    paymentIntentId: proposal.payment_intent_id ?? undefined,
    actions: proposal.available_decisions.map((decision) => ({
      label: decision.label,
      tone: decisionTone[decision.id],
      needsReason: true,
      run: async (reason: string | undefined) => {
        const result = await api.POST('/v1/proposals/{id}/decide', { params: { path: { id: proposal.id } }, body: reason ? { decision: decision.id, reason } : { decision: decision.id }, idempotencyKey: key() })
        justDecided = result.proposal
        return result
      },
    })),
    links: [
      link(`#/proposals/${encodeURIComponent(proposal.id)}`, 'Details'),
      ...(proposal.payment_intent_id === null ? [] : [' · ', link(`#/payment-intents/${encodeURIComponent(proposal.payment_intent_id)}`, 'The payment')]),
    ],
  }
}

/**
 * Whether the signed-in member gave the first approval of the payment a proposal stands for, read from
 * its payment intent: only a payment awaiting its second approval can have one of theirs and still await
 * a decision.
 */
async function approvedByMember(proposal: Proposal, memberId: string | undefined, known: ReadonlyMap<string, PaymentIntent> = new Map()): Promise<boolean> {
  if (memberId === undefined || proposal.payment_intent_id === null || proposal.status !== 'awaiting_second_approval') return false
  return approvedBy(known.get(proposal.payment_intent_id) ?? (await getIntent(proposal.payment_intent_id)), memberId)
}

/** Proposals shown per status, and listing requests made per status at most to find them. */
const inboxProposalsMax = 100
const inboxRequestsMax = 10

/**
 * A status's newest proposals, up to inboxProposalsMax: a filtered listing reads at most 2,000 proposals
 * per request and may answer a short (even empty) page that is not the last, so its cursor is followed
 * while pages come back short, up to inboxRequestsMax requests.
 */
async function proposalsIn(status: (typeof inboxStatuses)[number]) {
  const found: Array<Schema<'Proposal'>> = []
  let cursor: string | undefined
  for (let request = 0; request < inboxRequestsMax && found.length < inboxProposalsMax; request += 1) {
    const page = await api.GET('/v1/proposals', { params: { query: { status, limit: inboxProposalsMax - found.length, ...(cursor === undefined ? {} : { cursor }) } } })
    found.push(...page.proposals)
    if (page.next_cursor === null) break
    cursor = page.next_cursor
  }
  return found
}

export const proposalSource: InboxSource = {
  name: 'Agent proposals',
  async items() {
    // The payments awaiting a second approval, listed once with their approvals: a proposal of one of them is
    // answered from the list, and only one beyond its first 100 is read on its own.
    const [lists, memberId, awaitingSecond] = await Promise.all([
      Promise.all(inboxStatuses.map(proposalsIn)),
      signedInMemberId(),
      api.GET('/v1/payment-intents', { params: { query: { status: 'awaiting_second_approval', limit: 100 } } }),
    ])
    const proposals = lists.flat()
    const intents = new Map<string, PaymentIntent>(awaitingSecond.payment_intents.map((intent) => [intent.id, intent]))
    const approvedByYou = await Promise.all(proposals.map((proposal) => approvedByMember(proposal, memberId, intents)))
    return proposals.map((proposal, index) => proposalItem(proposal, approvedByYou[index]))
  },
}

/** The inbox's sources, in order: a payment a proposal shows is shown once, as the proposal. */
export const inboxSources: InboxSource[] = [proposalSource, paymentIntentSource]

export function itemCard(item: InboxItem): HTMLElement {
  const message = h('p', { role: 'alert', class: 'error', 'data-testid': 'item-error' })
  const headingId = `item-${item.id}`
  const reason = h('input', { type: 'text', name: 'reason', maxlength: 500 })
  const buttons = item.actions.map((action) =>
    h(
      'button',
      {
        type: 'button',
        class: action.tone ?? null,
        onclick: async (event: Event) => {
          const button = event.currentTarget as HTMLButtonElement
          button.disabled = true
          replace(message, '')
          try {
            await action.run(action.needsReason ? reason.value.trim() || undefined : undefined)
            refreshPage()
          } catch (error) {
            replace(message, describeError(error))
          } finally {
            button.disabled = false
          }
        },
      },
      action.label,
    ),
  )
  return h(
    'article',
    { class: 'card', 'aria-labelledby': headingId, 'data-testid': 'inbox-item', 'data-id': item.id },
    h('h2', { id: headingId }, h('span', { class: 'kind' }, item.kind), ' ', item.headline),
    item.state,
    item.lead === undefined ? null : h('p', { class: 'recommendation', 'data-testid': 'recommendation' }, item.lead),
    facts(item.facts),
    item.decision,
    h('p', { class: 'consequences' }, item.consequences),
    item.evidence ?? null,
    offeredTo(item)
      ? h('div', { class: 'actions' }, field(item.decidable === undefined ? 'Reason (for a rejection)' : 'Reason (optional)', reason), ...buttons)
      : h('p', {}, item.approvedByYou ? approvedByYouNote : item.decidable === false ? 'No decision is open on this now.' : 'You can see this but not decide it.'),
    message,
    h('p', {}, ...item.links),
  )
}

/** What awaits a decision, by source: a payment a proposal stands for is kept once, as the proposal (it carries the presentation). */
export async function inboxGroups(): Promise<Array<{ source: InboxSource; items: InboxItem[] }>> {
  const fetched = await Promise.all(inboxSources.map(async (source) => ({ source, items: await source.items() })))
  const shown = new Set<string>()
  return fetched.map(({ source, items }) => {
    const kept = items.filter((item) => source !== paymentIntentSource || item.paymentIntentId === undefined || !shown.has(item.paymentIntentId))
    for (const item of kept) if (item.paymentIntentId !== undefined) shown.add(item.paymentIntentId)
    return { source, items: kept }
  })
}

/**
 * Whether the signed-in member is offered the item's decisions (the API still applies the member rules): not
 * a payment whose first approval they gave, which only a different member can approve or reject.
 */
export const offeredTo = (item: InboxItem): boolean => item.approvedByYou !== true && (item.decidable ?? can('payment_intent:approve'))

export async function approvalsPage(): Promise<Child> {
  const groups = await inboxGroups()
  const total = groups.reduce((sum, group) => sum + group.items.length, 0)
  const recent = justDecided !== undefined && !(inboxStatuses as readonly string[]).includes(justDecided.status) ? justDecided : undefined
  return [
    h('h1', {}, 'Approvals'),
    h('p', {}, total === 0 ? `Nothing awaits a decision, ${currentSession()?.email ?? ''}.` : `${total} item(s) await a decision.`),
    recent === undefined ? null : h('section', { 'aria-label': 'Just decided', 'data-testid': 'just-decided' }, h('h2', {}, 'Just decided'), itemCard(proposalItem(recent))),
    ...groups.map((group) => h('section', { 'aria-label': group.source.name }, h('h2', {}, `${group.source.name} (${group.items.length})`), ...group.items.map(itemCard))),
  ]
}

export async function proposalPage(params: Record<string, string>): Promise<Child> {
  const proposal = await api.GET('/v1/proposals/{id}', { params: { path: { id: params.id! } } })
  const item = proposalItem(proposal, await approvedByMember(proposal, await signedInMemberId()))
  return [
    h('h1', {}, item.headline),
    h('p', {}, proposal.narrative),
    facts([['Id', proposal.id], ['Type', proposal.type.replaceAll('_', ' ')], ['Status', proposal.status.replaceAll('_', ' ')], ['Action', proposal.stored_action_type.replaceAll('_', ' ')]]),
    itemCard(item),
  ]
}

export async function paymentIntentPage(params: Record<string, string>): Promise<Child> {
  const [intent, known, memberId] = await Promise.all([getIntent(params.id!), names(), signedInMemberId()])
  const item = intentItem(intent, known, memberId)
  return [
    h('h1', {}, item.headline),
    item.state,
    facts([['Id', intent.id], ['Status', intent.status], ...item.facts, ['Rejection reason', intent.rejection_reason ?? '—']]),
    item.decision,
    intent.status === 'pending_approval' || intent.status === 'awaiting_second_approval' ? itemCard(item) : null,
    table('Approvals', [
      { title: 'Decision', cell: (row) => row.decision },
      { title: 'Member', cell: (row) => row.member_id },
      { title: 'Reason', cell: (row) => row.reason ?? '—' },
      { title: 'When', cell: (row) => dateTime(row.created_at) },
    ], intent.approvals),
    h('p', {}, link(`#/proofs/${encodeURIComponent(intent.id)}`, 'Open the proof of this payment', { 'data-testid': 'open-proof' })),
  ]
}
