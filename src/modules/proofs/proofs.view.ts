/**
 * GET /v1/proof/{action_id}/view: the proof as a page a person reads — what happened, who decided, which
 * checks passed, what the rail answered, and how to verify it without trusting Steward. Every value is
 * escaped (ids, reasons and receipts come from outside); the page loads nothing and runs no script.
 */
import type { Proof } from './domain/proof.ts'

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export const escapeHtml = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (character) => escapes[character]!)

const row = (label: string, value: unknown) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value === null ? '—' : value)}</td></tr>`
const code = (value: unknown) => `<code>${escapeHtml(value)}</code>`

const outcomeWords: Record<Proof['outcome'], string> = {
  executed: 'Executed',
  failed: 'Failed at the rail',
  shadow_completed: 'Shadow run completed (nothing sent)',
  rejected: 'Rejected',
  allowed: 'Allowed by policy',
  confirmed: 'Confirmation required by policy',
}

export function renderProofPage(proof: Proof, links: { readonly json: string }): string {
  const failed = proof.gate_checks.filter((check) => !check.passed).length
  const checks = proof.gate_checks
    .map((check) => `<tr class="${check.passed ? 'pass' : 'fail'}"><td>${escapeHtml(check.index)}</td><td>${code(check.name)}</td><td>${check.passed ? 'passed' : 'FAILED'}</td><td>${escapeHtml(check.reason)}</td></tr>`)
    .join('')
  const approvals = proof.approvals
    .map((approval) => `<li>${escapeHtml(approval.decision === 'approve' ? 'Approved' : 'Rejected')} by member ${code(approval.member_id)} (user ${code(approval.user_id)}) at ${escapeHtml(approval.at)}</li>`)
    .join('')
  const evidence = proof.evidence.map((item) => `<li>${code(item.parsed_row_id)} of Raw ${code(item.raw_id)}, parser ${code(item.parser)}, confidence ${escapeHtml(item.confidence)}</li>`).join('')
  const receipt = (value: Proof['rail_receipt']) =>
    value === null ? '<p>None.</p>' : `<table>${Object.entries(value).map(([key, item]) => row(key, typeof item === 'object' ? JSON.stringify(item) : item)).join('')}</table>`
  const events = proof.events
    .map(
      ({ event, inclusion }) =>
        `<tr><td>${escapeHtml(event.seq ?? '—')}</td><td>${code(event.id)}</td><td>${code(event.action)}</td><td>${code(`${event.actor.type}:${event.actor.id}`)}</td><td>${escapeHtml(event.created_at)}</td><td>${code(event.hash ?? 'not linked yet')}</td><td>${escapeHtml(inclusion.status)}</td></tr>`,
    )
    .join('')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Proof of ${escapeHtml(proof.action_id)} — Steward</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:62rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #eee;vertical-align:top}
th[scope=row]{width:14rem;font-weight:600}code{font-size:.85em;word-break:break-all}
.badge{display:inline-block;padding:.15rem .6rem;border-radius:1rem;background:#eef;font-weight:600}
.fail td{background:#fff0f0}.partial{background:#fff8e0;padding:.5rem 1rem;border-radius:.4rem}
</style></head><body>
<h1>Proof of action ${code(proof.action_id)}</h1>
<p><span class="badge">${escapeHtml(outcomeWords[proof.outcome])}</span> status ${code(proof.status)}</p>
${proof.partial ? '<p class="partial">This proof is partial: the action has no final outcome yet, or some of its audit events are not under a Merkle root yet. Fetch it again later.</p>' : ''}
<p>${escapeHtml(proof.human_explanation)}</p>
<h2>The payment</h2>
<table>${row('Tenant', proof.tenant_id)}${row('Type', proof.payment.action_type)}${row('Amount', proof.payment.amount === null ? null : `${proof.payment.amount} ${proof.payment.currency ?? ''}`)}${row('From account', proof.payment.source_account_id)}${row('To counterparty', proof.payment.destination_counterparty_id)}${row('Proposed by', proof.agent_id === null ? 'a member' : `agent ${proof.agent_id}`)}${row('Behaviour hash', proof.behavior_hash)}</table>
<h2>Who decided</h2>
<table>${row('Policy version', proof.policy_version)}${row('Policy hash', proof.policy_hash)}${row('Matched rule', proof.matched_rule_id)}</table>
${approvals === '' ? '<p>No member recorded a decision.</p>' : `<ul>${approvals}</ul>`}
<h2>Pre-execution gate</h2>
${proof.gate_checks.length === 0 ? '<p>The gate did not run.</p>' : `<p>${proof.gate_checks.length - failed} of ${proof.gate_checks.length} checks passed. Ledger snapshot ${code(proof.ledger_snapshot_hash)}.</p><table><thead><tr><th>#</th><th>Check</th><th>Result</th><th>Reason</th></tr></thead><tbody>${checks}</tbody></table>`}
<h2>Evidence</h2>
${evidence === '' ? '<p>The proposal cited no Raw records.</p>' : `<ul>${evidence}</ul>`}
<h2>Rail receipt</h2>
${receipt(proof.rail_receipt)}
${proof.rail_return === null ? '' : `<h2>Return after settlement</h2>${receipt(proof.rail_return)}`}
<h2>Audit trail</h2>
<table><thead><tr><th>Seq</th><th>Event</th><th>Action</th><th>Actor</th><th>At</th><th>Hash</th><th>Inclusion</th></tr></thead><tbody>${events}</tbody></table>
<table>${row('Merkle root', proof.merkle_root === '' ? 'not yet: the batch is open' : proof.merkle_root)}${row('Merkle proof of the last event', proof.merkle_proof.length === 0 ? (proof.merkle_root === '' ? null : 'empty: the event is the root') : proof.merkle_proof.join(' '))}${row('On chain', proof.chain_anchor === null ? 'not published' : `chain ${proof.chain_anchor.chain_id}, transaction ${proof.chain_anchor.tx_hash}, block ${proof.chain_anchor.block}`)}</table>
<h2>Verify it yourself</h2>
<p>Download the proof as JSON (${code(links.json)}, with your API key) and run, with nothing of Steward but this repository's verifier:</p>
<pre><code>npm run audit:verify-proof -- proof.json [--rpc &lt;url&gt; --contract &lt;AuditAnchor address&gt;]</code></pre>
<p>It recomputes every event's hash and Merkle path, derives each field of the proof again from the events (and the digests they carry), rewrites this explanation, and, with a chain, asks the anchor contract whether each root is published and where. It names the first field that does not hold. Offline, a proof is as good as the Merkle roots it lists; an event under no root yet binds nothing, and the verifier says so (exit status 3).</p>
</body></html>
`
}
