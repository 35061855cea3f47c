/**
 * The tenants module's public face: tenants, their users and members, onboarding and deletion. Other
 * modules read it only through the directory (`TenantDirectory`); composition builds the directory first
 * (auth, Policy and Raw read through it) and the services once Policy's default policy exists, since
 * provisioning a tenant gives it that policy.
 */
import type { Clock } from '../../kernel/clock.ts'
import type { StewardEnvironment } from '../../kernel/context.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { PasswordHasher } from '../../kernel/passwords.ts'
import type { ReplayableSecrets } from '../../kernel/secrets.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import type { BlobStore } from '../../platform/storage/blob-store.ts'
import { createBlobPurgeHandler, tenantBlobPurgeQueue } from './blob-purge.job.ts'
import { createMembersService, type MembersService } from './members.service.ts'
import { createOnboardingService, type OnboardingService } from './onboarding.service.ts'
import type { DefaultPolicyProvisioner } from './ports.ts'
import { createTenantsService, type TenantsService } from './tenants.service.ts'
import { createTenantsStore } from './tenants.store.pg.ts'
import { createTokenIssuer } from './verification-tokens.ts'

export { createTenantDirectory, type PrincipalRecord, type TenantDirectory, type TenantStanding, type UserStanding } from './directory.ts'
export { normalizeEmail } from './onboarding.service.ts'
export { memberRoles, type MemberRole } from '../../kernel/principal.ts'
export type { MemberRow, TenantRow, UserRow } from './tenants.store.ts'
export { tenantBlobPurgeQueue } from './blob-purge.job.ts'
export { tenantRoutes } from './tenants.routes.ts'
export type { MembersService } from './members.service.ts'
export type { OnboardingService } from './onboarding.service.ts'
export type { TenantsService } from './tenants.service.ts'

/** The module's queues: the job queue creates them at start. */
export const tenantQueues = [tenantBlobPurgeQueue] as const

export interface Tenants {
  readonly onboarding: OnboardingService
  readonly tenants: TenantsService
  readonly members: MembersService
  /** Registers the blob purge worker (a deleted tenant's stored bytes). */
  startWorkers(jobs: Pick<JobQueue, 'work'>, options: { pollingIntervalSeconds: number }): Promise<void>
}

export interface TenantsDeps {
  readonly db: Database
  /** Runs the module's commands and commits what the blob purge audits. */
  readonly commands: CommandRunner
  readonly cursors: CursorCodec
  readonly ids: IdSource
  readonly clock: Clock
  readonly environment: StewardEnvironment
  /** Where mailed verification and invitation tokens tell the user to send them. */
  readonly publicBaseUrl: string
  readonly passwords: PasswordHasher
  /** Secrets derived from seeds, so that a replayed command hands out its verification token again. */
  readonly secrets: ReplayableSecrets
  /** The policy module's default policy, given to every tenant provisioned. */
  readonly defaultPolicy: DefaultPolicyProvisioner
  /** Every module's part of tenant deletion, in the order they run (composition lists them). */
  readonly tenantData: readonly TenantDataPlan[]
  /** Stored bytes, which the blob purge deletes once their tenant is. */
  readonly blobs: BlobStore
}

export function createTenants(deps: TenantsDeps): Tenants {
  const { db, commands, cursors, ids, clock, environment, publicBaseUrl, passwords, defaultPolicy, blobs } = deps
  const store = createTenantsStore()
  const verificationTokens = createTokenIssuer({ store, ids, clock, secrets: deps.secrets })
  return {
    onboarding: createOnboardingService({ commands, store, verificationTokens, passwords, defaultPolicy, ids, clock, environment, publicBaseUrl }),
    tenants: createTenantsService({ db, commands, store, verificationTokens, defaultPolicy, ids, clock, environment, publicBaseUrl, tenantData: deps.tenantData }),
    members: createMembersService({ db, commands, store, verificationTokens, cursors, ids, clock, environment, publicBaseUrl }),
    async startWorkers(jobs, { pollingIntervalSeconds }) {
      await jobs.work(tenantBlobPurgeQueue, createBlobPurgeHandler({ db, commands, blobs }), { pollingIntervalSeconds })
    },
  }
}
