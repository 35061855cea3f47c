/**
 * Routing (spec, "Agents": POST /v1/agents/route), deterministic and advisory: a domain-event name or a
 * free-text intent → the first-party agent that should look, its fallbacks, a confidence, an evidence
 * score, a policy status and an execution mode. Pure: the same input, catalog and caller scopes give the
 * same decision. docs/agents.md, "Routing", states the rules; this is them.
 *
 * 1. An event is looked up in `eventRoutes` (exact name): its first agent is selected, the rest are the
 *    fallbacks; confidence 1 and evidence_score 1 (an exact table hit). Any other event: no_match.
 * 2. An intent is cut into words (lower case, letters and digits, a trailing "s" dropped from words of
 *    four letters or more unless they end in "ss", "us" or "is"), stop words removed. Each agent scores
 *    the number of distinct words that are among its keywords (`agentKeywords`). The highest score is
 *    selected (a tie goes to the earlier agent in the catalog); every other agent scoring above 0 is a
 *    fallback, by score then catalog order.
 *    confidence = top / (top + second + 1), where second is the runner-up's score (0 without one);
 *    evidence_score = the share of the intent's words the selected agent's keywords explain. No word
 *    matching any agent (or no word at all): no_match.
 * 3. policy_status: no_match without a selection; unscoped when the selected agent proposes payments and
 *    the caller holds neither payment_intent:approve nor execution:propose (someone must be able to take
 *    a payment forward); else routed.
 * 4. execution_mode: null on no_match; reject when unscoped; propose for an agent that proposes payments
 *    (each through the gated path, shadowed until promoted); notify_only for one that records findings
 *    for a person to acknowledge. execute and confirm are not produced by first-party agents today.
 * Numbers are rounded to two places.
 */
import type { Scope } from '../../../kernel/principal.ts'

export interface RoutableAgent {
  readonly agent_key: string
  readonly capabilities: readonly string[]
}

export type RoutingInput = { readonly kind: 'event'; readonly event: string } | { readonly kind: 'intent'; readonly intent: string }

export interface RoutingCandidate {
  readonly agent_id: string
  readonly score: number
  readonly matched: readonly string[]
}

export interface RoutingDecision {
  readonly selected_agent_id: string | null
  readonly fallback_agent_ids: string[]
  readonly confidence: number
  readonly evidence_score: number
  readonly policy_status: 'routed' | 'unscoped' | 'no_match'
  readonly execution_mode: 'execute' | 'propose' | 'confirm' | 'notify_only' | 'reject' | null
  readonly reason: string
  /** `event_table:<event>`, `keywords`, or `none`. */
  readonly rule: string
  /** Every agent considered, with its score and what matched, best first. */
  readonly candidates: RoutingCandidate[]
}

/** Domain events (spec, "Events") and the agents that look at what they announce, the first selected. */
export const eventRoutes: Readonly<Record<string, readonly string[]>> = {
  'ledger.obligation.created': ['bill_payment', 'collections', 'cash_forecast'],
  'ledger.transaction.created': ['fraud_anomaly', 'reconciliation', 'subscriptions', 'cash_forecast'],
  'ledger.counterparty.created': ['vendor_risk', 'fraud_anomaly'],
  'ledger.counterparty.updated': ['vendor_risk', 'fraud_anomaly'],
  'payment_intent.created': ['vendor_risk', 'fraud_anomaly'],
  'payment_intent.failed': ['cash_forecast', 'bill_payment'],
  'raw.ingest.new': ['reconciliation', 'subscriptions'],
}

/** The words that send an intent to each agent (its capabilities' words and their everyday names). */
export const agentKeywords: Readonly<Record<string, readonly string[]>> = {
  bill_payment: ['pay', 'payment', 'bill', 'payable', 'due', 'invoice', 'vendor', 'supplier', 'settle', 'ach', 'outbound', 'transfer', 'remit'],
  collections: ['collect', 'collection', 'overdue', 'receivable', 'remind', 'reminder', 'dunning', 'customer', 'owe', 'late', 'chase', 'unpaid'],
  reconciliation: ['reconcile', 'reconciliation', 'match', 'unmatched', 'statement', 'booking', 'review'],
  subscriptions: ['subscription', 'recurring', 'renewal', 'price', 'plan', 'monthly', 'charge', 'saa'],
  fraud_anomaly: ['fraud', 'anomaly', 'duplicate', 'suspicious', 'outlier', 'unusual', 'flag', 'double', 'new'],
  vendor_risk: ['risk', 'risky', 'sanction', 'sanctioned', 'block', 'unverified', 'payee', 'kyc', 'screen', 'trust'],
  cash_forecast: ['cash', 'forecast', 'runway', 'balance', 'projection', 'project', 'shortfall', 'liquidity', 'treasury'],
}

const stopWords = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'to', 'for', 'in', 'on', 'at', 'my', 'our', 'we', 'i', 'me', 'us', 'is', 'are', 'be', 'it', 'this', 'that', 'with', 'what', 'which', 'who', 'please', 'can', 'you', 'do', 'any', 'all', 'from', 'by', 'should', 'there', 'how', 'much', 'will', 'next'])

/** An intent's significant words, each once, in the order written. */
export function intentWords(intent: string): string[] {
  const words = intent
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0 && !stopWords.has(word))
    .map((word) => (word.length >= 4 && /[^sui]s$/.test(word) ? word.slice(0, -1) : word))
  return [...new Set(words)]
}

const round2 = (value: number) => Math.round(value * 100) / 100

const moneyCapabilities = new Set(['pay_invoice', 'ach_outbound', 'wire', 'card_payment', 'onchain_transfer'])

export function proposesPayments(agent: RoutableAgent): boolean {
  return agent.capabilities.some((capability) => moneyCapabilities.has(capability))
}

export function route(input: RoutingInput, agents: readonly RoutableAgent[], callerScopes: readonly Scope[]): RoutingDecision {
  const known = new Map(agents.map((agent) => [agent.agent_key, agent]))
  let selected: RoutableAgent | undefined
  let fallbacks: string[] = []
  let confidence = 0
  let evidenceScore = 0
  let rule = 'none'
  let candidates: RoutingCandidate[] = []
  let why: string
  if (input.kind === 'event') {
    const listed = (eventRoutes[input.event] ?? []).filter((key) => known.has(key))
    candidates = listed.map((key, index) => ({ agent_id: key, score: listed.length - index, matched: [input.event] }))
    if (listed.length > 0) {
      selected = known.get(listed[0]!)
      fallbacks = listed.slice(1)
      confidence = 1
      evidenceScore = 1
      rule = `event_table:${input.event}`
      why = `The event ${input.event} is routed to ${listed[0]} by the event table.`
    } else {
      why = `No agent is routed the event ${input.event}.`
    }
  } else {
    const words = intentWords(input.intent)
    candidates = agents
      .map((agent) => {
        const keywords = new Set(agentKeywords[agent.agent_key] ?? [])
        const matched = words.filter((word) => keywords.has(word))
        return { agent_id: agent.agent_key, score: matched.length, matched }
      })
      .filter((candidate) => candidate.score > 0)
    // Stable sort: a tie keeps catalog order.
    candidates.sort((a, b) => b.score - a.score)
    const [top, second] = candidates
    if (top !== undefined) {
      selected = known.get(top.agent_id)
      fallbacks = candidates.slice(1).map((candidate) => candidate.agent_id)
      confidence = round2(top.score / (top.score + (second?.score ?? 0) + 1))
      evidenceScore = round2(top.matched.length / words.length)
      rule = 'keywords'
      why = `The intent's words ${top.matched.map((word) => `"${word}"`).join(', ')} are ${top.agent_id}'s${second === undefined ? '' : `; ${second.agent_id} matched ${second.score}`}.`
    } else {
      why = words.length === 0 ? 'The intent has no words to route on.' : 'No agent\'s keywords are in the intent.'
    }
  }
  if (selected === undefined) {
    return { selected_agent_id: null, fallback_agent_ids: [], confidence: 0, evidence_score: 0, policy_status: 'no_match', execution_mode: null, reason: why, rule, candidates }
  }
  const moves = proposesPayments(selected)
  const mayTakeForward = callerScopes.includes('payment_intent:approve') || callerScopes.includes('execution:propose')
  if (moves && !mayTakeForward) {
    return {
      selected_agent_id: selected.agent_key,
      fallback_agent_ids: fallbacks,
      confidence,
      evidence_score: evidenceScore,
      policy_status: 'unscoped',
      execution_mode: 'reject',
      reason: `${why} ${selected.agent_key} proposes payments, and the caller holds neither payment_intent:approve nor execution:propose.`,
      rule,
      candidates,
    }
  }
  return {
    selected_agent_id: selected.agent_key,
    fallback_agent_ids: fallbacks,
    confidence,
    evidence_score: evidenceScore,
    policy_status: 'routed',
    execution_mode: moves ? 'propose' : 'notify_only',
    reason: why,
    rule,
    candidates,
  }
}
