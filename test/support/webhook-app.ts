/**
 * A test app for webhook tests: the harness's app with webhook runtime options (a short retry base, a
 * short timeout, a fake DNS resolver, a fast delivery sweep) and, for the restart test, a given pg-boss
 * schema; plus a count of a queue's unfinished jobs, and ways to lose them or make them due.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { expect } from 'vitest'
import { queryRows } from '../../src/platform/db/database.ts'
import type { WebhookOptions } from '../../src/modules/webhooks/index.ts'
import { createTestApp, uniqueEmail, type TestApp } from './harness.ts'
import type { WebhookReceiver } from './webhook-receiver.ts'

export interface WebhookTestAppOptions {
  readonly env?: Readonly<Record<string, string>>
  readonly workers?: boolean
  readonly webhooks?: WebhookOptions
  /** Reuse a pg-boss schema (a second runtime on the same PostgreSQL database sees the first one's jobs). */
  readonly jobSchema?: string
}

export type WebhookTestApp = TestApp & {
  /** Jobs of `queue` not yet finished (created, retry or active) whose data has `field` = `value`, or an array holding it. */
  unfinishedJobs(queue: string, field: string, value: string): Promise<number>
  /** As if their wait were over: the scheduled jobs of `queue` whose data has `field` = `value` may start now. Returns how many. */
  startScheduledJobsNow(queue: string, field: string, value: string): Promise<number>
  /** As if pg-boss had lost them (deleted, or their retries ran out): deletes the unfinished jobs of `queue` whose data has `field` = `value`. Returns how many. */
  loseJobs(queue: string, field: string, value: string): Promise<number>
}

export async function createWebhookTestApp(options: WebhookTestAppOptions = {}): Promise<WebhookTestApp> {
  const test = await createTestApp({
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    runtime: {
      ...(options.webhooks === undefined ? {} : { webhooks: options.webhooks }),
      ...(options.jobSchema === undefined ? {} : { jobSchema: options.jobSchema }),
    },
  })
  return {
    ...test,
    async unfinishedJobs(queue, field, value) {
      const [row] = await queryRows<{ total: number }>(
        test.runtime.db.orm,
        sql`select count(*)::int as total from ${sql.identifier(test.jobSchema)}.job
            where name = ${queue} and (data->>${field} = ${value} or data->${field} @> jsonb_build_array(${value}::text))
              and state in ('created', 'retry', 'active')`,
      )
      return Number(row?.total ?? 0)
    },
    async startScheduledJobsNow(queue, field, value) {
      const moved = await queryRows<{ id: string }>(
        test.runtime.db.orm,
        sql`update ${sql.identifier(test.jobSchema)}.job set start_after = now()
             where name = ${queue} and data->>${field} = ${value} and state in ('created', 'retry') and start_after > now()
             returning id`,
      )
      return moved.length
    },
    async loseJobs(queue, field, value) {
      const lost = await queryRows<{ id: string }>(
        test.runtime.db.orm,
        sql`delete from ${sql.identifier(test.jobSchema)}.job
             where name = ${queue} and data->>${field} = ${value} and state in ('created', 'retry', 'active')
             returning id`,
      )
      return lost.length
    },
  }
}

/** As if the delivery's wait were over long ago: its next attempt was due an hour before now. */
export async function makeOverdue(test: TestApp, deliveryId: string): Promise<void> {
  await test.runtime.db.orm.execute(sql`update webhook_deliveries set next_attempt_at = now() - interval '1 hour' where id = ${deliveryId}`)
}

/** A fresh receiver path, so tests sharing one receiver never see each other's deliveries. */
export const uniquePath = (label = 'hook') => `/${label}/${randomBytes(6).toString('hex')}`

/** Registers an endpoint on the receiver at a fresh path, and tells the receiver its secret. */
export async function registerEndpoint(test: TestApp, receiver: WebhookReceiver, owner: { token: string }, extra: Record<string, unknown> = {}) {
  const path = uniquePath()
  const response = await test.request({ method: 'POST', url: '/v1/webhooks', token: owner.token, payload: { url: receiver.url(path), ...extra } })
  expect(response.statusCode, response.body).toBe(201)
  const { endpoint, secret } = response.json() as { endpoint: { id: string; url: string }; secret: string }
  receiver.setSecrets(path, [secret])
  return { path, endpoint, secret }
}

/** Invites a member (one member.changed event) and returns the event's id. */
export async function changeMember(test: TestApp, owner: { tenantId: string; token: string }): Promise<string> {
  const invite = await test.request({
    method: 'POST',
    url: `/v1/tenants/${owner.tenantId}/members`,
    token: owner.token,
    payload: { email: uniqueEmail('webhook'), role: 'viewer' },
  })
  expect(invite.statusCode, invite.body).toBe(201)
  const [event] = await queryRows<{ id: string }>(
    test.runtime.db.orm,
    sql`select id from events where tenant_id = ${owner.tenantId} and payload->>'member_id' = ${invite.json().member.id}`,
  )
  return event!.id
}

export interface DeliveryState {
  id: string
  endpoint_id: string
  status: string
  attempt_count: number
  last_status_code: number | null
  last_error: string | null
}

export async function deliveriesOf(test: TestApp, eventId: string): Promise<DeliveryState[]> {
  return queryRows<DeliveryState>(
    test.runtime.db.orm,
    sql`select id, endpoint_id, status, attempt_count, last_status_code, last_error from webhook_deliveries where event_id = ${eventId} order by endpoint_id`,
  )
}
