/**
 * What a module contributes to the running service, as composition (src/main/compose.ts) assembles it:
 * its routes (bound to its services), its workers and background loops. The app registers every
 * module's routes and the runtime starts and stops every module's workers, so adding a module edits its
 * own folder, the module list in compose.ts and its migration, and nothing else.
 *
 * Also contributed, but needed before any module is built: its queues (`<m>.jobs.ts`, listed in
 * compose.ts so the job queue can create them at start), its tables (`<m>.tables.ts`, collected by
 * drizzle.config.ts) and its part of tenant deletion (`<m>.tables.ts`, ordered in compose.ts).
 */
import type { FastifyPluginAsync } from 'fastify'
import type { JobQueue } from './jobs/job-queue.ts'
import type { RpcContribution } from './rpc/contributions.ts'

export interface ModuleDefinition {
  readonly name: string
  /** The module's routes, bound to its services. */
  readonly routes?: FastifyPluginAsync
  /** The module's agent-protocol tools, resource templates and prompts (platform/rpc/contributions.ts). */
  readonly rpc?: RpcContribution
  /** Registers the module's workers (and starts its background loops) once the job queue has started. */
  startWorkers?(jobs: JobQueue, options: { readonly pollingIntervalSeconds: number }): Promise<void>
  /** Stops the module's background loops at shutdown (the job queue stops its workers). */
  stop?(): Promise<void>
}

/** Binds a route plugin to its options: the module's routes as the app registers them. */
export function routesOf<Options extends Record<string, any>>(plugin: FastifyPluginAsync<Options>, options: Options): FastifyPluginAsync {
  return async (app) => {
    await app.register(plugin, options)
  }
}
