/** The durable job that sends one mail message; pg-boss retries it with backoff on failure. */
import type { JobHandler } from '../jobs/job-queue.ts'
import type { Mailer } from './mailer.ts'

export function createMailHandler(mailer: Mailer): JobHandler<'mail-send'> {
  return async (job) => {
    await mailer.send(job.data)
  }
}
