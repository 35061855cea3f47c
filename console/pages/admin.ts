/** Policy, Agents (catalog, runs with their why, halt and restore), Webhooks (endpoints, dead letters,
 * replay), Members and API keys. */
import { api, can, currentSession, describeError } from '../api.ts'
import { badge, facts, field, h, input, link, refreshPage, replace, select, table, type Child } from '../dom.ts'
import { dateTime } from '../format.ts'

const tenantId = () => currentSession()!.principal.tenantId
const key = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`)

function actionButton(label: string, run: () => Promise<unknown>, message: HTMLElement, tone?: string): HTMLButtonElement {
  return h('button', {
    type: 'button',
    class: tone ?? null,
    onclick: async (event: Event) => {
      const button = event.currentTarget as HTMLButtonElement
      button.disabled = true
      replace(message, '')
      try {
        await run()
        refreshPage()
      } catch (error) {
        replace(message, describeError(error))
        button.disabled = false
      }
    },
  }, label)
}

export async function agentsPage(_params: Record<string, string>, query: URLSearchParams): Promise<Child> {
  const [catalog, runs] = await Promise.all([
    api.GET('/v1/agents', {}),
    api.GET('/v1/agents/runs', { params: { query: { limit: 25 } } }).catch(() => ({ runs: [], next_cursor: null })),
  ])
  const ids = catalog.agents.map((agent) => ('agent_key' in agent ? agent.agent_key : agent.id))
  const details = new Map(
    await Promise.all(ids.map(async (id) => [id, await api.GET('/v1/agents/{agent_id}', { params: { path: { agent_id: id } } }).catch(() => null)] as const)),
  )
  const message = h('p', { role: 'alert', class: 'error' })
  // Halting and restoring is for those who may approve payments (the routes' scope); the service checks the rest.
  const admin = can('payment_intent:approve')
  const whyRun = query.get('why')
  let why: Child = null
  if (whyRun !== null) {
    try {
      const explained = await api.GET('/v1/agents/runs/{run_id}/why', { params: { path: { run_id: whyRun } } })
      why = h('section', { 'aria-labelledby': 'why-title', 'data-testid': 'run-why' },
        h('h2', { id: 'why-title' }, `Why run ${explained.run_id}`),
        facts([['Agent', explained.agent_id ?? '—'], ['Behaviour still the same', explained.behavior_hash_current === null ? '—' : explained.behavior_hash_current ? 'yes' : 'no'], ['Reason', JSON.stringify(explained.structured_reason)]]),
        h('ol', {}, ...explained.reasoning_trace.map((step) => h('li', {}, `${step.step}: ${JSON.stringify(step.detail)}`))),
        table('Candidates', [{ title: 'Agent', cell: (row) => row.agent_id }, { title: 'Score', numeric: true, cell: (row) => row.score.toFixed(2) }, { title: 'Matched', cell: (row) => row.matched.join(', ') }], explained.candidates),
      )
    } catch (error) {
      why = h('p', { class: 'error' }, describeError(error))
    }
  }
  return [
    h('h1', {}, 'Agents'),
    message,
    table('Catalog', [
      { title: 'Agent', cell: (agent) => ('agent_key' in agent ? agent.display_name : agent.display_name) },
      { title: 'Id', cell: (agent) => ('agent_key' in agent ? agent.agent_key : agent.id) },
      { title: 'Kind', cell: (agent) => agent.kind },
      { title: 'Role', cell: (agent) => agent.role },
      { title: 'State', cell: (agent) => {
        const detail = details.get('agent_key' in agent ? agent.agent_key : agent.id)
        return detail ? h('span', { 'data-testid': `agent-state-${detail.agent_id}` }, badge(detail.state, detail.state === 'active' ? 'good' : 'bad')) : '—'
      } },
      { title: 'Actions', cell: (agent) => {
        const id = 'agent_key' in agent ? agent.agent_key : agent.id
        const detail = details.get(id)
        if (!admin || detail === null || detail === undefined) return '—'
        return detail.state === 'active'
          ? actionButton(`Halt ${id}`, () => api.POST('/v1/agents/{agent_id}/halt', { params: { path: { agent_id: id } }, idempotencyKey: key() }), message, 'danger')
          : detail.state === 'quarantined'
            ? actionButton(`Restore ${id}`, () => api.POST('/v1/agents/{agent_id}/restore', { params: { path: { agent_id: id } }, idempotencyKey: key() }), message)
            : '—'
      } },
    ], catalog.agents),
    table('Recent runs', [
      { title: 'When', cell: (run) => dateTime(run.created_at) },
      { title: 'Agent', cell: (run) => run.agent_id ?? '—' },
      { title: 'Status', cell: (run) => run.status.replaceAll('_', ' ') },
      { title: 'Reason', cell: (run) => run.reason },
      { title: 'Why', cell: (run) => link(`#/agents?why=${encodeURIComponent(run.id)}`, 'Why?') },
    ], runs.runs),
    why,
  ]
}

export async function policyPage(_params: Record<string, string>, query: URLSearchParams): Promise<Child> {
  const [policy, versions] = await Promise.all([
    api.GET('/v1/policy/{tenant_id}', { params: { path: { tenant_id: tenantId() } } }),
    api.GET('/v1/policy/{tenant_id}/versions', { params: { path: { tenant_id: tenantId() }, query: { limit: 100 } } }),
  ])
  const rules = ((policy.content as { rules?: unknown }).rules ?? []) as Array<Record<string, unknown>>
  const numbers = versions.versions.map((version): [string, string] => [String(version.version), `v${version.version} (${version.state})`])
  const from = select('from', numbers, query.get('from') ?? String(Math.max(policy.version - 1, 1)))
  const to = select('to', numbers, query.get('to') ?? String(policy.version))
  const diffResult = h('div', { role: 'status', 'aria-live': 'polite' })
  const lintResult = h('div', { role: 'status', 'aria-live': 'polite' })
  return [
    h('h1', {}, `Policy v${policy.version}`),
    facts([['State', policy.state], ['Content hash', h('code', {}, policy.content_hash)], ['Signers', `${policy.signers.length} (quorum ${policy.quorum_required})`], ['Active since', dateTime(policy.activated_at ?? null)]]),
    h('h2', {}, 'Rules, in order'),
    h('ol', { class: 'rules' }, ...rules.map((rule) =>
      h('li', {}, h('strong', {}, String(rule.id ?? '')), `: for ${(rule.applies_to as string[] | undefined)?.join(', ') ?? 'any action'}, when ${JSON.stringify(rule.when ?? {})}, ${String(rule.execute ?? '')}${rule.approvals ? ` with ${String(rule.approvals)} approvals` : ''}${rule.autonomous_cap ? ` (autonomous cap ${JSON.stringify(rule.autonomous_cap)})` : ''}`),
    )),
    h('button', { type: 'button', onclick: async () => {
      try {
        const lint = await api.POST('/v1/policy/{tenant_id}/lint', { params: { path: { tenant_id: tenantId() } }, body: { policy_content: policy.content } })
        replace(lintResult, h('p', {}, `${lint.errors} error(s), ${lint.warnings} warning(s).`), h('ul', {}, ...lint.findings.map((finding) => h('li', {}, JSON.stringify(finding)))))
      } catch (error) {
        replace(lintResult, h('p', { class: 'error' }, describeError(error)))
      }
    } }, 'Lint the active policy'),
    lintResult,
    table('Versions', [
      { title: 'Version', numeric: true, cell: (row) => row.version },
      { title: 'State', cell: (row) => row.state },
      { title: 'Hash', cell: (row) => h('code', {}, row.content_hash.slice(0, 18) + '…') },
      { title: 'Signers', cell: (row) => `${row.signers.length} of ${row.quorum_required}` },
      { title: 'Created', cell: (row) => dateTime(row.created_at) },
    ], versions.versions),
    h('form', { class: 'filters', onsubmit: async (event: Event) => {
      event.preventDefault()
      try {
        const diff = await api.POST('/v1/policy/{tenant_id}/diff', { params: { path: { tenant_id: tenantId() } }, body: { from_version: Number(from.value), to_version: Number(to.value) } })
        replace(diffResult, facts([['Added', JSON.stringify(diff.added)], ['Removed', JSON.stringify(diff.removed)], ['Modified', JSON.stringify(diff.modified)]]))
      } catch (error) {
        replace(diffResult, h('p', { class: 'error' }, describeError(error)))
      }
    } }, field('From version', from), field('To version', to), h('button', { type: 'submit' }, 'Compare')),
    diffResult,
    simulation(policy.version, policy.content),
  ]
}

/** Simulate one action against a version, and a period of recorded outflows against a version's content. */
function simulation(activeVersion: number, activeContent: unknown): HTMLElement {
  const kind = select('kind', [['outbound_payment', 'Outbound payment'], ['inbound_payment', 'Inbound payment'], ['onchain_tx', 'On-chain transaction'], ['ledger_write', 'Ledger write'], ['agent_action', 'Agent action']])
  const amount = input('amount', '', { inputmode: 'decimal', placeholder: '250.00' })
  const currency = input('currency', 'EUR', { maxlength: 10 })
  const counterparty = input('counterparty_id', '')
  const version = input('version', String(activeVersion), { type: 'number', min: 1 })
  const one = h('div', { role: 'status', 'aria-live': 'polite' })
  const start = input('period_start', '', { type: 'date', required: true })
  const end = input('period_end', '', { type: 'date', required: true })
  const period = h('div', { role: 'status', 'aria-live': 'polite' })
  return h(
    'section',
    { 'aria-labelledby': 'simulate-title' },
    h('h2', { id: 'simulate-title' }, 'Simulate before signing'),
    h('form', { class: 'filters', onsubmit: async (event: Event) => {
      event.preventDefault()
      try {
        const action = { kind: kind.value as 'outbound_payment', ...(amount.value ? { amount: { currency: currency.value, value: amount.value } } : {}), ...(counterparty.value ? { counterparty_id: counterparty.value } : {}) }
        const result = await api.POST('/v1/policy/{tenant_id}/simulate', { params: { path: { tenant_id: tenantId() } }, body: { action, version: Number(version.value) } as never })
        replace(one, h('p', {}, `Policy v${result.policy_version} would ${result.decision.outcome}${result.decision.matched_rule_id ? ` by rule ${result.decision.matched_rule_id}` : ''}${result.decision.required_approvers.length > 0 ? `, needing ${result.decision.required_approvers.length} approval(s)` : ''}.`))
      } catch (error) {
        replace(one, h('p', { class: 'error' }, describeError(error)))
      }
    } }, field('Action', kind), field('Amount', amount), field('Currency', currency), field('Counterparty id', counterparty), field('Policy version', version), h('button', { type: 'submit' }, 'Simulate the action')),
    one,
    h('form', { class: 'filters', onsubmit: async (event: Event) => {
      event.preventDefault()
      try {
        const result = await api.POST('/v1/policy/{tenant_id}/simulate-historical', { params: { path: { tenant_id: tenantId() } }, body: { policy_content: activeContent, period_start: start.value, period_end: end.value } as never })
        replace(period, h('p', {}, `${result.total} recorded outflow(s): ${result.would_allow} allowed, ${result.would_confirm} to confirm, ${result.would_reject} rejected; against the active policy v${result.active_policy_version}: ${result.diff_vs_active.newly_allowed.length} newly allowed, ${result.diff_vs_active.newly_rejected.length} newly rejected${result.truncated ? ' (truncated)' : ''}.`))
      } catch (error) {
        replace(period, h('p', { class: 'error' }, describeError(error)))
      }
    } }, field('Period from', start), field('Period to', end), h('button', { type: 'submit' }, 'Replay the period with the active policy')),
    period,
  )
}

type WebhookEndpoint = Awaited<ReturnType<typeof listEndpoints>>['endpoints'][number]
type ReplayResult = { attempted: number; redelivered: number; still_failing: number; remaining: number }
const listEndpoints = () => api.GET('/v1/webhooks', { params: { query: { limit: 100 } } })

/** What one replay call did, in words (POST /v1/webhooks/{id}/replay's counts). */
function replaySummary(result: ReplayResult): string {
  return `Replay: ${result.attempted} attempted, ${result.redelivered} redelivered, ${result.still_failing} still failing, ${result.remaining} remaining${result.remaining > 0 ? ' (replay again for the rest)' : ''}.`
}

/**
 * An endpoint with its dead letters and, where it can be used, the replay button. Replaying needs
 * audit:write (admins; owners have only surfaces:admin) and an enabled endpoint (a disabled one is 409).
 * After a replay the dead letters are read again, in place, and then its counts are shown (and stay).
 */
async function endpointSection(endpoint: WebhookEndpoint): Promise<HTMLElement> {
  const listing = h('div', {})
  const controls = h('div', {})
  const message = h('p', { role: 'alert', class: 'error' })
  const result = h('p', { role: 'status', 'aria-live': 'polite', 'data-testid': 'replay-result' })
  const replayButton = () =>
    h('button', {
      type: 'button',
      onclick: async (event: Event) => {
        const button = event.currentTarget as HTMLButtonElement
        button.disabled = true
        replace(message, '')
        replace(result, 'Replaying…')
        let answer: ReplayResult
        try {
          answer = await api.POST('/v1/webhooks/{endpoint_id}/replay', { params: { path: { endpoint_id: endpoint.id } }, body: {}, idempotencyKey: key() })
        } catch (error) {
          replace(result, '')
          replace(message, describeError(error))
          button.disabled = false
          return
        }
        // The dead letters are read again before the counts are shown: once the counts are there, the list
        // beside them is the one after the replay.
        try {
          await draw()
        } catch (error) {
          replace(message, `The dead letters could not be read again: ${describeError(error)}`)
        }
        replace(result, replaySummary(answer))
        controls.querySelector('button')?.focus()
      },
    }, 'Replay dead letters')
  const draw = async () => {
    const dead = await api.GET('/v1/webhooks/{endpoint_id}/dead-letters', { params: { path: { endpoint_id: endpoint.id }, query: { limit: 100 } } })
    replace(listing, table(dead.next_cursor ? 'Dead letters (the oldest 100)' : 'Dead letters', [
      { title: 'Event', cell: (row) => row.event_type },
      { title: 'Attempts', numeric: true, cell: (row) => row.attempt_count },
      { title: 'Last error', cell: (row) => row.last_error },
      { title: 'Last attempt', cell: (row) => dateTime(row.last_attempt_at) },
    ], dead.dead_letters, 'none.'))
    replace(controls,
      dead.dead_letters.length === 0
        ? null
        : !can('audit:write')
          ? h('p', { class: 'note', 'data-testid': 'replay-unavailable' }, 'An admin has to replay these dead letters: replaying needs the audit:write permission, which your role does not have.')
          : endpoint.status !== 'enabled'
            ? h('p', { class: 'note', 'data-testid': 'replay-unavailable' }, 'This endpoint is disabled: it has to be enabled again before its dead letters can be replayed.')
            : replayButton(),
    )
  }
  await draw()
  return h('section', { 'aria-label': `Endpoint ${endpoint.url}`, 'data-testid': 'webhook-endpoint', 'data-id': endpoint.id },
    h('h2', {}, endpoint.url),
    facts([['Status', endpoint.status], ['Description', endpoint.description ?? '—'], ['Events', endpoint.event_types.join(', ') || 'all'], ['Created', dateTime(endpoint.created_at)]]),
    listing,
    result,
    message,
    controls,
  )
}

export async function webhooksPage(): Promise<Child> {
  if (!can('surfaces:admin')) return [h('h1', {}, 'Webhooks'), h('p', {}, 'Only admins manage webhooks.')]
  const endpoints = await listEndpoints()
  const sections = await Promise.all(endpoints.endpoints.map((endpoint) => endpointSection(endpoint)))
  return [h('h1', {}, 'Webhooks'), endpoints.endpoints.length === 0 ? h('p', {}, 'No endpoints.') : sections]
}

export async function membersPage(): Promise<Child> {
  const members = await api.GET('/v1/tenants/{tenant_id}/members', { params: { path: { tenant_id: tenantId() }, query: { limit: 200 } } })
  const keys = can('surfaces:admin') ? await api.GET('/v1/tenants/{tenant_id}/api-keys', { params: { path: { tenant_id: tenantId() }, query: { limit: 200 } } }).catch(() => null) : null
  const message = h('p', { role: 'alert', class: 'error' })
  const email = input('email', '', { type: 'email', required: true })
  const role = select('role', [['viewer', 'Viewer'], ['approver', 'Approver'], ['admin', 'Admin']])
  const invited = h('p', { role: 'status' })
  return [
    h('h1', {}, 'Members and API keys'),
    message,
    table('Members', [
      { title: 'Email', cell: (row) => row.email },
      { title: 'Role', cell: (row) => row.role },
      { title: 'Status', cell: (row) => row.status },
      { title: 'Approves', cell: (row) => row.approval_domains.join(', ') || '—' },
      { title: 'Limit', cell: (row) => (row.approval_limit === null ? 'none' : JSON.stringify(row.approval_limit)) },
      { title: 'Since', cell: (row) => dateTime(row.created_at) },
    ], members.members),
    can('surfaces:admin')
      ? h('form', { class: 'filters', onsubmit: async (event: Event) => {
          event.preventDefault()
          try {
            await api.POST('/v1/tenants/{tenant_id}/members', { params: { path: { tenant_id: tenantId() } }, body: { email: email.value, role: role.value as 'viewer' }, idempotencyKey: key() })
            replace(invited, `Invited ${email.value}: they receive an invitation by email.`)
          } catch (error) {
            replace(invited, describeError(error))
          }
        } }, field('Invite by email', email), field('Role', role), h('button', { type: 'submit' }, 'Invite'))
      : null,
    invited,
    keys === null
      ? h('p', {}, 'Only admins see API keys.')
      : table('API keys', [
          { title: 'Name', cell: (row) => row.name },
          { title: 'Key', cell: (row) => `${row.prefix}…${row.secret_last_four}` },
          { title: 'Status', cell: (row) => row.status },
          { title: 'Scopes', cell: (row) => row.scopes.join(', ') },
          { title: 'Last used', cell: (row) => dateTime(row.last_used_at ?? null) },
          { title: 'Revoke', cell: (row) => (row.status === 'active' ? actionButton(`Revoke ${row.name}`, () => api.POST('/v1/tenants/{tenant_id}/api-keys/{key_id}/revoke', { params: { path: { tenant_id: tenantId(), key_id: row.id } }, idempotencyKey: key() }), message, 'danger') : '—') },
        ], keys.api_keys),
  ]
}
