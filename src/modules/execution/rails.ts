/**
 * The rails behind one interface (issue 17): the worker asks an adapter to make one outbox row's payment,
 * under the row's idempotency key, and asks it what became of a key before it retries. A real provider is
 * another adapter; the gate and the worker do not change.
 *
 * Every adapter must hold two promises:
 * - `submit` has at most one effect per idempotency key: a second submit with a key it has seen answers
 *   what the first did (or its current state), and moves nothing again;
 * - `status` answers only from what the rail knows of the key (undefined when it never saw it), so the
 *   worker can tell "never sent" from "sent, answer lost" after a crash.
 *
 * A rail that is not registered, or registered as a fail-closed stub, refuses a first submit with a
 * deterministic failure that names why: the intent fails and its reservation is released, nothing moves.
 * Asked for a key's status (the worker asks before a retry, so an earlier attempt exists), it answers
 * transient instead: an earlier attempt may have run in a process where the rail was registered and moved
 * money, and a stand-in cannot know. A failure there would release the reservation while the payment may
 * still land; transient is retried and then parks the intent `reconciling` with the reservation kept.
 */
import type { Rail } from '../payments/index.ts'
import type { RailAnswer } from './domain/executions.ts'

/** One outbox row's payment, as a rail is asked to make it. */
export interface RailRequest {
  readonly tenantId: string
  readonly paymentIntentId: string
  readonly outboxId: string
  /** Derived from the outbox row when the gate wrote it (sha256 of tenant, intent and row): the same on every retry. */
  readonly idempotencyKey: string
  readonly actionType: string
  /** Positive decimal string in the currency's precision. */
  readonly amount: string
  readonly currency: string
  readonly sourceAccountId: string
  readonly destinationCounterpartyId: string
}

export interface RailAdapter {
  readonly rail: Rail
  /** Makes the payment once per idempotency key (see the module comment). */
  submit(request: RailRequest): Promise<RailAnswer>
  /** What the rail knows of the request's key; undefined when it never saw it. */
  status(request: RailRequest): Promise<RailAnswer | undefined>
  /**
   * Several payments (distinct keys) at once, where the provider takes a batch (a batch API, an ACH
   * file): the answers in the order of `requests`, each under `submit`'s promise. Optional: without it the
   * worker calls `submit` for each.
   */
  submitMany?(requests: readonly RailRequest[]): Promise<RailAnswer[]>
}

/** The code of every fail-closed refusal. */
export const railUnavailableCode = 'rail_unavailable'

/**
 * A rail that refuses every submit, deterministically, with `reason` (erp_writeback's stub, and the
 * stand-in for a rail nobody registered). It never sends anything, but it cannot answer for a key: the
 * worker asks for a key's status only when an earlier attempt was made, and that attempt may have run in
 * another process (or an earlier deployment) where the rail was registered and sent the payment. So
 * `status` answers transient, never the refusal: the attempt is retried, and parked `reconciling` with its
 * reservation kept once the retries run out, unless a process that has the rail answers first.
 */
export function failClosedRail(rail: Rail, reason: string): RailAdapter {
  const refusal: RailAnswer = { kind: 'failed', code: railUnavailableCode, reason }
  const unknown: RailAnswer = {
    kind: 'transient',
    reason: `${railUnavailableCode}: ${reason}; this process cannot tell what an earlier attempt under the key did on the rail`,
  }
  return {
    rail,
    submit: async () => refusal,
    status: async () => unknown,
  }
}

/**
 * The rails a process has: the registered adapters, and a fail-closed stand-in for any other rail
 * (x402_base and escrow_base are unregistered at boot, per the spec's rail table; onchain_base is where no
 * chain is configured). The stand-in refuses a first submit and answers a retry's status transient
 * (`failClosedRail`): the rail may be registered in the process that made the earlier attempt.
 */
export function railRegistry(adapters: readonly RailAdapter[]) {
  const byRail = new Map<Rail, RailAdapter>()
  for (const adapter of adapters) {
    if (byRail.has(adapter.rail)) throw new Error(`rail ${adapter.rail} is registered twice`)
    byRail.set(adapter.rail, adapter)
  }
  return {
    /** The rails the gate may dispatch to (check 11, rail_registered). */
    registered: (): ReadonlySet<Rail> => new Set(byRail.keys()),
    adapterFor: (rail: Rail): RailAdapter => byRail.get(rail) ?? failClosedRail(rail, `rail ${rail} is not registered in this deployment`),
  }
}

export type RailRegistry = ReturnType<typeof railRegistry>
