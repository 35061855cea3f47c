import { describe, expect, it } from 'vitest'
import { allowedTrustActions, trustTransition, type TrustAction, type TrustState } from './trust.ts'

describe('trustTransition', () => {
  it.each<{ action: TrustAction; from: TrustState; pausedFrom?: TrustState; to: TrustState | undefined }>([
    { action: 'grant', from: 'unreviewed', to: 'trusted' },
    { action: 'grant', from: 'acknowledged', to: 'trusted' },
    { action: 'grant', from: 'paused', to: 'trusted' },
    { action: 'grant', from: 'trusted', to: undefined },
    { action: 'pause', from: 'trusted', to: 'paused' },
    { action: 'pause', from: 'unreviewed', to: 'paused' },
    { action: 'pause', from: 'paused', to: undefined },
    { action: 'restore', from: 'paused', pausedFrom: 'trusted', to: 'trusted' },
    { action: 'restore', from: 'paused', pausedFrom: 'acknowledged', to: 'acknowledged' },
    { action: 'restore', from: 'paused', pausedFrom: 'paused', to: 'unreviewed' },
    { action: 'restore', from: 'paused', to: 'unreviewed' },
    { action: 'restore', from: 'trusted', pausedFrom: 'trusted', to: undefined },
    { action: 'acknowledge', from: 'unreviewed', to: 'acknowledged' },
    { action: 'acknowledge', from: 'acknowledged', to: undefined },
    { action: 'acknowledge', from: 'trusted', to: undefined },
  ])('$action from $from: $to', ({ action, from, pausedFrom, to }) => {
    expect(trustTransition(action, from, pausedFrom)).toBe(to)
  })

  it('lists the actions allowed from each state', () => {
    expect(allowedTrustActions('unreviewed')).toEqual(['grant', 'pause', 'acknowledge'])
    expect(allowedTrustActions('paused')).toEqual(['grant', 'restore'])
    expect(allowedTrustActions('trusted')).toEqual(['pause'])
    expect(allowedTrustActions('acknowledged')).toEqual(['grant', 'pause'])
  })
})
