/**
 * One shape for every command: `name(context, input)` runs one transaction that ends in one commit of
 * everything the command produced: its audit events, business events, jobs and — when the caller sent
 * an Idempotency-Key — the idempotency record with the command's outcome.
 *
 * Idempotency lives inside the command's transaction (Stripe's semantics, formance's log): the key is
 * claimed by an INSERT at the start of the transaction and completed with the outcome at its end, so
 * - the same key and the same input replays the stored outcome and runs nothing;
 * - the same key with a different input is 409 `idempotency_key_reused`;
 * - a crash anywhere before the commit leaves no record (the retry runs the command afresh), and a crash
 *   after the commit leaves the record (the retry gets the stored outcome: the command ran once);
 * - two identical requests at once: the second waits on the first's claim (the key's unique index),
 *   then replays what the first committed, or runs if the first rolled back.
 *
 * The outcome is a domain value, never an HTTP response: the route (or an agent-protocol tool) maps it
 * to a status and body, and does the same with a replayed one. A keyed outcome is stored as JSON and
 * returned as read back from JSON, so a first run and its replays return the same value.
 *
 * A diagnostics_channel message (`steward:command:committed`) follows every commit: a place for
 * instrumentation to see a command land, and for the crash test to stop the process at that moment.
 */
import diagnostics from 'node:diagnostics_channel'
import type { AuditRecord } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { CommandContext } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import { canonicalJson, sha256Hex } from '../../kernel/hashing.ts'
import { commitWith, type Database, type Tx } from '../db/database.ts'
import type { EnqueueOptions, JobQueue, QueueDefinition } from '../jobs/job-queue.ts'
import type { EventRecorder, EventType } from '../outbox/events.ts'
import type { AuditRecorder } from './audit-sink.ts'
import { idempotencyKeyCharsMax, idempotencyKeyPattern, runReserved, type IdempotencyStore } from './idempotency.ts'
import { assert } from '../../kernel/assert.ts'

/** Published after every commit, with `{ name, tenantId, replayed }`. */
export const commandCommittedChannel = diagnostics.channel('steward:command:committed')

export interface CommandRequest<Input> {
  /** The command's name (`policy.compose`): part of the idempotency fingerprint and of the key's scope. */
  readonly name: string
  readonly tenantId: string
  /** What the command was asked: the idempotency fingerprint is its canonical JSON with the name. */
  readonly input: Input
}

/** A business event the command emits; it names the audit event recording the same change. */
export interface PendingEvent {
  readonly type: EventType
  readonly payload: Readonly<Record<string, unknown>>
  /** Which of the command's audit events records this change (index into `audit`); default the first. */
  readonly auditIndex?: number
  /** Defaults to the command's tenant. */
  readonly tenantId?: string
}

export interface PendingJob<Payload = unknown> {
  readonly queue: QueueDefinition<Payload>
  readonly payload: Payload
  /** `id` names the job beforehand, so the command's audit event can cite it. */
  readonly options?: EnqueueOptions
}

/** What a command's commit must carry besides its outcome. */
export interface CommandEffects {
  readonly audit?: readonly AuditRecord[]
  readonly events?: readonly PendingEvent[]
  readonly jobs?: readonly PendingJob[]
}

/**
 * What the command's work produced: the outcome and what its commit must carry. An outcome that names
 * the command's own audit events (`audit_event_id`) is given as `outcomeOf`, which receives their ids:
 * the events are then written with the commit (one round trip) instead of before the outcome.
 */
export type CommandWork<Outcome> = CommandEffects & ({ readonly outcome: Outcome; readonly outcomeOf?: never } | { readonly outcomeOf: (auditEventIds: readonly string[]) => Outcome; readonly outcome?: never })

export interface CommandResult<Outcome> {
  readonly outcome: Outcome
  /** True when the outcome is the stored one of an earlier run with the same Idempotency-Key. */
  readonly replayed: boolean
  /** The ids of the audit events the commit recorded, in order (empty on a replay). */
  readonly auditEventIds: readonly string[]
}

export interface CommandRunner {
  /**
   * Runs `work` in one transaction and commits what it returns, with the idempotency record when the
   * context carries an Idempotency-Key. Throws 400 for a malformed key, 409 `idempotency_key_reused`.
   */
  run<Input, Outcome>(context: CommandContext, request: CommandRequest<Input>, work: (tx: Tx) => Promise<CommandWork<Outcome>>): Promise<CommandResult<Outcome>>
  /**
   * For a command that cannot run in one transaction (network calls between short transactions): the
   * key is reserved before `work` and completed after it (idempotency.ts, runReserved).
   */
  runReserved<Input, Outcome>(context: CommandContext, request: CommandRequest<Input>, work: () => Promise<Outcome>): Promise<Omit<CommandResult<Outcome>, 'auditEventIds'>>
  /**
   * Commits a command's effects inside a transaction the caller runs (for commands whose transaction
   * shape the runner cannot own, such as a retry loop). Returns the audit event ids.
   */
  commit(tx: Tx, tenantId: string, effects: CommandEffects): Promise<string[]>
  /**
   * Sends audit events now, inside a command's `work`, without waiting for them: their ids at once (for
   * rows that cite them), their writes going out with the command's commit, which fails if one did.
   */
  sendAudit(tx: Tx, tenantId: string, records: readonly AuditRecord[]): string[]
  /**
   * Hands writes a command's `work` sent and does not await to its commit, each one statement already on
   * its way (no statement follows from its answer): the COMMIT goes out with them and the command's last
   * writes, one round trip for all, and the command fails with the first of them that failed (also when
   * the work fails later for the abort it caused).
   */
  writeWithCommit(tx: Tx, writes: ReadonlyArray<PromiseLike<unknown> | undefined>): void
}

const keyPattern = new RegExp(idempotencyKeyPattern)

export function assertIdempotencyKey(key: string): void {
  if (key.length < 1 || key.length > idempotencyKeyCharsMax || !keyPattern.test(key)) {
    throw new AppError('request_params_invalid', `Idempotency-Key must be 1 to ${idempotencyKeyCharsMax} visible ASCII characters.`, {
      issues: [{ path: '/idempotency-key', message: 'is not a valid idempotency key', keyword: 'pattern' }],
    })
  }
}

/**
 * Whose an Idempotency-Key is: the command's, under the tenant, for the credential that sent it (the API
 * key, the member's login, the agent or service token; `credentialId`), as the spec keys idempotency to
 * the key. Two members or two keys of one tenant that happen to send the same key never see each other's
 * stored outcome. A request with no principal (a public route) shares one scope per command.
 */
export function keyScopeOf(context: CommandContext, commandName: string): string {
  const principal = context.principal
  return principal === undefined ? `command:${commandName}` : `command:${commandName}:${principal.type}:${principal.credentialId}`
}

/** What makes two requests "the same request": the command and its input, as canonical JSON. */
export function commandFingerprint(name: string, input: unknown): string {
  return sha256Hex(canonicalJson({ command: name, input: input ?? null }))
}

export function createCommandRunner(deps: {
  db: Database
  clock: Clock
  audit: AuditRecorder
  events: EventRecorder
  jobs: Pick<JobQueue, 'enqueue'>
  idempotency: IdempotencyStore
  /** Told when handing committed events over fails (the outbox's sweep hands them over later). */
  onRelayError?: (error: unknown, relay: { tenantId: string; eventIds: readonly string[] }) => void
}): CommandRunner {
  /** Events a commit recorded with `send`, handed over once it has committed. */
  type Relay = { tenantId: string; ids: readonly string[]; written: Promise<boolean> }

  /**
   * Sends the command's effects together (one round trip on PostgreSQL's pipelined connection): the audit
   * events, in order, then what cites them (the business events) and the jobs, with `also` (the
   * idempotency record) beside them. `final` settles when the statements that are the last of their kind
   * have; `followed` when those whose answer may call for another statement have. With `relays`, the
   * business events are final (`EventRecorder.send`: handed over after the commit, into `relays`);
   * without, they are handed over in the transaction.
   */
  function send(
    tx: Tx,
    tenantId: string,
    effects: CommandEffects,
    options: { also?: (auditEventIds: readonly string[]) => Promise<void>; relays?: Relay[] } = {},
  ): { auditEventIds: string[]; final: Promise<unknown>; followed: Promise<unknown> } {
    const audit = effects.audit ?? []
    for (const event of effects.events ?? []) {
      assert(audit[event.auditIndex ?? 0] !== undefined, `event ${event.type} names audit event ${event.auditIndex ?? 0}, which the command did not record`)
    }
    // One statement for the command's records (a record refused is refused before any is sent).
    const sent = audit.length === 0 ? undefined : deps.audit.sendMany(tx, audit)
    const auditEventIds = [...(sent?.ids ?? [])]
    // A command's events go in with one statement per tenant (usually one).
    const byTenant = new Map<string, Array<{ type: PendingEvent['type']; payload: PendingEvent['payload']; auditEventId: string }>>()
    for (const event of effects.events ?? []) {
      const owner = event.tenantId ?? tenantId
      byTenant.set(owner, [...(byTenant.get(owner) ?? []), { type: event.type, payload: event.payload, auditEventId: auditEventIds[event.auditIndex ?? 0]! }])
    }
    const eventWrites: Array<Promise<unknown>> = []
    for (const [owner, batch] of byTenant) {
      if (options.relays === undefined) {
        eventWrites.push(deps.events.recordEach(tx, owner, batch))
      } else {
        const recorded = deps.events.send(tx, owner, batch)
        options.relays.push({ tenantId: owner, ids: recorded.ids, written: recorded.written })
        eventWrites.push(recorded.written)
      }
    }
    // Statements that are the last of their kind (`final`), and those whose answer may call for another
    // statement (`followed`): an event handed over in the transaction is handed over with a job, and
    // pg-boss may look a queue up or retry a singleton slot before its INSERT.
    let also: Promise<void> | undefined
    try {
      also = options.also?.(auditEventIds)
    } catch (error) {
      sent?.written.catch(() => {})
      for (const write of eventWrites) write.catch(() => {})
      throw error
    }
    const final = Promise.all([sent?.written, also, ...(options.relays === undefined ? [] : eventWrites)])
    const followed = Promise.all([
      ...(options.relays === undefined ? eventWrites : []),
      ...(effects.jobs ?? []).map((job) => deps.jobs.enqueue(tx, job.queue, job.payload, job.options)),
    ])
    final.catch(() => {})
    followed.catch(() => {})
    return { auditEventIds, final, followed }
  }

  async function commit(tx: Tx, tenantId: string, effects: CommandEffects): Promise<string[]> {
    const { auditEventIds, final, followed } = send(tx, tenantId, effects)
    await Promise.all([final, followed])
    return auditEventIds
  }

  /**
   * The command's last writes, all sent at once; the transaction's COMMIT goes out as soon as the ones
   * that may call for another statement have answered, without waiting for the final ones (commitWith).
   */
  async function sendWithCommit(
    tx: Tx,
    tenantId: string,
    effects: CommandEffects,
    relays: Relay[],
    also?: (auditEventIds: readonly string[]) => Promise<void>,
  ): Promise<string[]> {
    const { auditEventIds, final, followed } = send(tx, tenantId, effects, also === undefined ? { relays } : { also, relays })
    commitWith(tx, final)
    await followed
    return auditEventIds
  }

  /** After the commit: hands over the events a subscriber takes (the sweep does it if this fails). */
  async function relayCommitted(relays: readonly Relay[]): Promise<void> {
    for (const relay of relays) {
      if (!(await relay.written)) continue
      try {
        await deps.events.relay(relay.tenantId, relay.ids)
      } catch (error) {
        deps.onRelayError?.(error, { tenantId: relay.tenantId, eventIds: relay.ids })
      }
    }
  }

  return {
    commit,
    sendAudit(tx, tenantId, records) {
      const { auditEventIds, final, followed } = send(tx, tenantId, { audit: records })
      commitWith(tx, Promise.all([final, followed]))
      return auditEventIds
    },
    writeWithCommit(tx, writes) {
      for (const write of writes) if (write !== undefined) commitWith(tx, write)
    },
    async runReserved(context, request, work) {
      const key = context.idempotencyKey
      if (key === undefined) return { outcome: await work(), replayed: false }
      assertIdempotencyKey(key)
      const ref = { tenantId: request.tenantId, scope: keyScopeOf(context, request.name), key }
      return runReserved({ db: deps.db, clock: deps.clock, store: deps.idempotency }, ref, commandFingerprint(request.name, request.input), work)
    },
    async run<Input, Outcome>(context: CommandContext, request: CommandRequest<Input>, work: (tx: Tx) => Promise<CommandWork<Outcome>>): Promise<CommandResult<Outcome>> {
      const key = context.idempotencyKey
      if (key !== undefined) assertIdempotencyKey(key)
      const ref = key === undefined ? undefined : { tenantId: request.tenantId, scope: keyScopeOf(context, request.name), key }
      const fingerprint = ref === undefined ? undefined : commandFingerprint(request.name, request.input)
      const relays: Relay[] = []
      const result = await deps.db.transaction(async (tx) => {
        relays.length = 0 // a transaction the driver retries starts afresh
        if (ref !== undefined && fingerprint !== undefined) {
          const claimed = await deps.idempotency.claim(tx, ref, fingerprint, deps.clock.now())
          if (claimed.kind === 'stored') {
            if (claimed.requestHash !== fingerprint) throw new AppError('idempotency_key_reused')
            return { outcome: claimed.outcome as never, replayed: true, auditEventIds: [] }
          }
        }
        const done = await work(tx)
        const outcomeOf = (auditEventIds: readonly string[]): Outcome => (done.outcomeOf === undefined ? (done.outcome as Outcome) : done.outcomeOf(auditEventIds))
        if (ref === undefined) {
          let outcome: Outcome | undefined
          const auditEventIds = await sendWithCommit(tx, request.tenantId, done, relays, async (ids) => {
            outcome = outcomeOf(ids)
          })
          return { outcome: outcome as Outcome, replayed: false, auditEventIds }
        }
        let stored: Outcome | undefined
        const auditEventIds = await sendWithCommit(tx, request.tenantId, done, relays, (ids) => {
          stored = JSON.parse(JSON.stringify(outcomeOf(ids) ?? null)) as Outcome
          return deps.idempotency.complete(tx, ref, stored)
        })
        return { outcome: stored as Outcome, replayed: false, auditEventIds }
      })
      await relayCommitted(relays)
      if (commandCommittedChannel.hasSubscribers) {
        commandCommittedChannel.publish({ name: request.name, tenantId: request.tenantId, replayed: result.replayed, requestId: context.requestId })
      }
      return result
    },
  }
}
