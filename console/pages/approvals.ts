/**
 * The approvals inbox: what awaits the signed-in member. Today its items are payment intents awaiting an
 * approval; proposals (GET /v1/proposals) join as another `InboxSource` whose items render through the
 * same card (headline, key facts, policy decision and trace, consequences, actions).
 */
import { api, can, currentSession, describeError } from '../api.ts'
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

function intentItem(intent: PaymentIntent, known: Names): InboxItem {
  const counterparty = known.counterparties.get(intent.destination_counterparty_id) ?? intent.destination_counterparty_id
  const account = known.accounts.get(intent.source_account_id) ?? intent.source_account_id
  const approved = intent.approvals.filter((approval) => approval.decision === 'approve').length
  const remaining = Math.max(intent.approvals_required - approved, 1)
  return {
    id: intent.id,
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
    consequences:
      remaining > 1
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
    const [pending, second, known] = await Promise.all([
      api.GET('/v1/payment-intents', { params: { query: { status: 'pending_approval', limit: 100 } } }),
      api.GET('/v1/payment-intents', { params: { query: { status: 'awaiting_second_approval', limit: 100 } } }),
      names(),
    ])
    return [...pending.payment_intents, ...second.payment_intents].map((intent) => intentItem(intent, known))
  },
}

/** The inbox's sources, in order; proposals are added here once their routes ship. */
export const inboxSources: InboxSource[] = [paymentIntentSource]

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
    facts(item.facts),
    item.decision,
    h('p', { class: 'consequences' }, item.consequences),
    can('payment_intent:approve') ? h('div', { class: 'actions' }, field('Reason (for a rejection)', reason), ...buttons) : h('p', {}, 'You can see this but not decide it.'),
    message,
    h('p', {}, ...item.links),
  )
}

export async function approvalsPage(): Promise<Child> {
  const groups = await Promise.all(inboxSources.map(async (source) => ({ source, items: await source.items() })))
  const total = groups.reduce((sum, group) => sum + group.items.length, 0)
  return [
    h('h1', {}, 'Approvals'),
    h('p', {}, total === 0 ? `Nothing awaits a decision, ${currentSession()?.email ?? ''}.` : `${total} item(s) await a decision.`),
    ...groups.map((group) => h('section', { 'aria-label': group.source.name }, ...group.items.map(itemCard))),
  ]
}

export async function paymentIntentPage(params: Record<string, string>): Promise<Child> {
  const [intent, known] = await Promise.all([getIntent(params.id!), names()])
  const item = intentItem(intent, known)
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
