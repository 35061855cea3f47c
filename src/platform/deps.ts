/**
 * The collaborators services are built from. The composition root (`runtime.ts`) creates them once;
 * each service factory takes the subset it uses.
 */
import type { AuditRecorder } from './commands/audit-sink.ts'
import type { CommandRunner } from './commands/command.ts'
import type { StewardEnvironment } from '../kernel/context.ts'
import type { Database } from './db/database.ts'
import type { JobQueue } from './jobs/job-queue.ts'
import type { Clock } from '../kernel/clock.ts'
import type { IdSource } from '../kernel/ids.ts'
import type { EventRecorder } from './outbox/events.ts'

export interface CoreDeps {
  /** Runs a command in one transaction and commits its audit, events, jobs and idempotency record. */
  readonly commands: CommandRunner
  readonly db: Database
  readonly audit: AuditRecorder
  readonly events: EventRecorder
  readonly jobs: JobQueue
  readonly ids: IdSource
  readonly clock: Clock
  readonly environment: StewardEnvironment
  readonly publicBaseUrl: string
}
