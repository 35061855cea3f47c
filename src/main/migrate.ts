/** `npm run migrate`: applies every pending migration (and the job-queue schema), then exits. */
import { boot } from './boot.ts'

const runtime = await boot('steward-migrate')
runtime.logger.info('migrations applied')
await runtime.close()
