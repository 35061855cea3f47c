import { describe, expect, it } from 'vitest'
import { failClosedRail, railRegistry, railUnavailableCode, type RailAdapter, type RailRequest } from './rails.ts'

const request: RailRequest = {
  tenantId: '01a2178e-8fdf-77b6-865b-aaf0471147b5',
  paymentIntentId: 'pi_1',
  outboxId: 'pob_1',
  idempotencyKey: 'sha256:abc',
  actionType: 'erp_writeback',
  amount: '10.00',
  currency: 'EUR',
  sourceAccountId: 'acc_1',
  destinationCounterpartyId: 'cp_1',
}

describe('failClosedRail', () => {
  it('refuses every submit with the same deterministic failure, naming why', async () => {
    const erp = failClosedRail('erp_writeback', 'ERP write-back is not connected in this deployment')
    const expected = { kind: 'failed', code: railUnavailableCode, reason: 'ERP write-back is not connected in this deployment' }
    expect(await erp.submit(request)).toEqual(expected)
    expect(await erp.submit(request)).toEqual(expected)
  })

  it('answers a status (asked only before a retry) as unknown, never as a failure: an earlier attempt may have run where the rail was registered', async () => {
    const erp = failClosedRail('erp_writeback', 'ERP write-back is not connected in this deployment')
    const answer = await erp.status(request)
    expect(answer).toEqual({ kind: 'transient', reason: expect.stringContaining('ERP write-back is not connected in this deployment') })
    expect(answer?.kind).not.toBe('failed')
  })
})

describe('railRegistry', () => {
  const ach: RailAdapter = { rail: 'bank_ach', submit: async () => ({ kind: 'pending', reference: 'ach_1' }), status: async () => undefined }

  it('hands out the registered adapter, and a fail-closed stand-in for a rail nobody registered', async () => {
    const rails = railRegistry([ach])
    expect(rails.adapterFor('bank_ach')).toBe(ach)
    expect([...rails.registered()]).toEqual(['bank_ach'])
    for (const rail of ['x402_base', 'escrow_base', 'onchain_base'] as const) {
      expect(await rails.adapterFor(rail).submit(request)).toEqual({ kind: 'failed', code: railUnavailableCode, reason: `rail ${rail} is not registered in this deployment` })
    }
  })

  it('the stand-in answers a retry\'s status transient: it cannot know what an attempt in a process that had the rail did', async () => {
    const rails = railRegistry([ach])
    for (const rail of ['x402_base', 'escrow_base', 'onchain_base'] as const) {
      expect(await rails.adapterFor(rail).status(request)).toEqual({ kind: 'transient', reason: expect.stringContaining(`rail ${rail} is not registered`) })
    }
    // The gate's check 11 still sees only what was registered.
    expect([...rails.registered()]).toEqual(['bank_ach'])
  })

  it('refuses a rail registered twice', () => {
    expect(() => railRegistry([ach, { ...ach }])).toThrow('rail bank_ach is registered twice')
  })
})
