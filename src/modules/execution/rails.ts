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
 * A rail that is not registered, or registered as a fail-closed stub, refuses every payment with a
 * deterministic failure that names why: the intent fails and its reservation is released, nothing moves.
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

/** A rail that refuses everything, deterministically, with `reason` (erp_writeback today). */
export function failClosedRail(rail: Rail, reason: string): RailAdapter {
  const refusal: RailAnswer = { kind: 'failed', code: railUnavailableCode, reason }
  return {
    rail,
    submit: async () => refusal,
    status: async () => refusal,
  }
}

/**
 * The rails a process has: the registered adapters, and a fail-closed stand-in for any other rail
 * (x402_base and escrow_base are unregistered at boot, per the spec's rail table).
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
