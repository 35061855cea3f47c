/** The durable job that sends one mail message; pg-boss retries it with backoff on failure. */
import Type from 'typebox'
import { defineQueue, type JobHandler, type PayloadOf } from '../jobs/job-queue.ts'
import type { Mailer } from './mailer.ts'

/** One message to one address: verification and invitation mail. */
export const mailSendQueue = defineQueue({
  name: 'mail-send',
  version: 1,
  payload: Type.Object({ to: Type.String(), subject: Type.String(), text: Type.String() }, { additionalProperties: false }),
  policy: { retryLimit: 5, retryDelay: 10, retryBackoff: true, retryDelayMax: 900, expireInSeconds: 60 },
})

export function createMailHandler(mailer: Mailer): JobHandler<PayloadOf<typeof mailSendQueue>> {
  return async (job) => {
    await mailer.send(job.data)
  }
}
