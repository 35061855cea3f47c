import { describe, expect, it } from 'vitest'
import {
  afterFailedAttempt,
  boundedError,
  deliveryAttemptsMax,
  endpointAccepts,
  lastErrorCharsMax,
  retryDelaySeconds,
  retryDelaySecondsMax,
  webhookPayload,
} from './delivery.ts'

describe('retry schedule', () => {
  it.each([
    [1, 30, 30],
    [2, 30, 120],
    [3, 30, 480],
    [4, 30, 1920],
    [1, 0.05, 0.05],
    [3, 0.05, 0.8],
    [4, 100, retryDelaySecondsMax],
  ])('after attempt %i with base %s s waits %s s', (attempt, base, expected) => {
    expect(retryDelaySeconds(attempt, base)).toBeCloseTo(expected, 10)
  })

  it.each([
    [0, 30],
    [1.5, 30],
    [-1, 30],
    [1, 0],
    [1, -5],
    [1, Number.NaN],
  ])('refuses attempt %s with base %s (a programming error)', (attempt, base) => {
    expect(() => retryDelaySeconds(attempt, base)).toThrow(RangeError)
  })

  it('retries after attempts 1 to 4 and dead-letters at the fifth, never scheduling a sixth', () => {
    const decisions = Array.from({ length: deliveryAttemptsMax }, (_, index) => afterFailedAttempt(index + 1, 30).kind)
    expect(decisions).toEqual(['retry', 'retry', 'retry', 'retry', 'dead_letter'])
    expect(afterFailedAttempt(6, 30).kind).toBe('dead_letter')
  })
})

describe('endpoint filters', () => {
  it.each([
    [[], 'member.changed', true],
    [['member.changed'], 'member.changed', true],
    [['payment_intent.created', 'member.changed'], 'member.changed', true],
    [['payment_intent.created'], 'member.changed', false],
  ])('types %j accept %s: %s', (types, type, expected) => {
    expect(endpointAccepts(types, type)).toBe(expected)
  })
})

describe('payload', () => {
  it('carries type, id, created_at, tenant_id, audit_event_id and the event payload as data', () => {
    const createdAt = new Date('2026-11-21T09:00:00.000Z')
    expect(
      webhookPayload({ id: 'evt_1', tenantId: 't', eventType: 'member.changed', payload: { member_id: 'mem_1' }, auditEventId: 'aev_1', createdAt }),
    ).toEqual({ type: 'member.changed', id: 'evt_1', created_at: '2026-11-21T09:00:00.000Z', tenant_id: 't', audit_event_id: 'aev_1', data: { member_id: 'mem_1' } })
  })

  it('bounds stored error text', () => {
    expect(boundedError('HTTP 500')).toBe('HTTP 500')
    expect(boundedError('x'.repeat(2000))).toHaveLength(lastErrorCharsMax)
  })
})
