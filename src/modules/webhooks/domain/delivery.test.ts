import { describe, expect, it } from 'vitest'
import {
  afterFailedAttempt,
  afterLostProgress,
  attemptLostAfterSeconds,
  boundedError,
  deliveryAttemptsMax,
  endpointAccepts,
  fanoutDecision,
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

describe('lost attempts', () => {
  it.each([
    // attempt, base, lease: the later of the failure's backoff and the lease.
    [1, 30, 70, 70],
    [2, 30, 70, 120],
    [4, 30, 70, 1920],
    [4, 100, 70, retryDelaySecondsMax],
    [1, 0.05, 0.5, 0.5],
    // The last attempt schedules no other: lost after its lease.
    [5, 30, 70, 70],
  ])('attempt %i (base %s s, lease %s s) counts as lost after %s s', (attempt, base, lease, expected) => {
    expect(attemptLostAfterSeconds(attempt, base, lease)).toBeCloseTo(expected, 10)
  })

  it.each([
    [0, 30, 70],
    [6, 30, 70],
    [1.5, 30, 70],
    [1, 30, 0],
    [1, 30, Number.NaN],
  ])('refuses attempt %s with base %s and lease %s (a programming error)', (attempt, base, lease) => {
    expect(() => attemptLostAfterSeconds(attempt, base, lease)).toThrow(RangeError)
  })

  it('requeues a delivery left overdue until every automatic attempt is counted, then dead-letters it', () => {
    expect(Array.from({ length: deliveryAttemptsMax + 2 }, (_, attemptCount) => afterLostProgress(attemptCount))).toEqual([
      'requeue',
      'requeue',
      'requeue',
      'requeue',
      'requeue',
      'dead_letter',
      'dead_letter',
    ])
  })
})

describe('fan-out decision', () => {
  const at = (second: number) => new Date(Date.UTC(2026, 10, 21, 9, 0, second))
  const endpoint = (status: 'enabled' | 'disabled', disabledAt: Date | null, eventTypes: string[] = []) => ({ status, createdAt: at(10), disabledAt, eventTypes })
  const event = (second: number, eventType = 'member.changed') => ({ createdAt: at(second), eventType })
  it.each([
    { name: 'enabled, event after registration', target: endpoint('enabled', null), recorded: event(20), expected: 'deliver' },
    { name: 'enabled, event in the millisecond of registration', target: endpoint('enabled', null), recorded: event(10), expected: 'deliver' },
    { name: 'enabled, event before registration', target: endpoint('enabled', null), recorded: event(5), expected: 'skip' },
    { name: 'enabled, type filtered out', target: endpoint('enabled', null, ['payment_intent.created']), recorded: event(20), expected: 'skip' },
    { name: 'disabled after the event', target: endpoint('disabled', at(30)), recorded: event(20), expected: 'park' },
    { name: 'disabled in the millisecond of the event', target: endpoint('disabled', at(20)), recorded: event(20), expected: 'park' },
    { name: 'disabled before the event', target: endpoint('disabled', at(15)), recorded: event(20), expected: 'skip' },
    { name: 'disabled after the event, type filtered out', target: endpoint('disabled', at(30), ['payment_intent.created']), recorded: event(20), expected: 'skip' },
    { name: 'disabled after an event older than the endpoint', target: endpoint('disabled', at(30)), recorded: event(5), expected: 'skip' },
    { name: 'disabled with no instant recorded', target: endpoint('disabled', null), recorded: event(20), expected: 'skip' },
  ])('$name: $expected', ({ target, recorded, expected }) => {
    expect(fanoutDecision(target, recorded)).toBe(expected)
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
