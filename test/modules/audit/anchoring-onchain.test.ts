/**
 * Anchoring on a real chain (anvil): with CHAIN_RPC_URL, ANCHOR_CONTRACT_ADDRESS and ANCHOR_PRIVATE_KEY
 * set, closed batches are published by the worker, at most 50 tenant roots per transaction, and a real
 * event's inclusion is accepted by the contract, by the standalone verifier and by the verify route.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAnchorChain, deployAnchorContract } from '../../../src/modules/audit/chain/anchor-contract.ts'
import { verifyEventProof, type ProofDocument } from '../../../src/modules/audit/verifier.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { startAnvil, type Anvil } from '../../support/anvil.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { createTestApp, signupOwner, type TestApp } from '../../support/harness.ts'
import { business } from '../../support/payments.ts'
import { verifyActionProof } from '../../../src/modules/proofs/index.ts'

let anvil: Anvil
let contractAddress: `0x${string}`
let test: TestApp

beforeAll(async () => {
  anvil = await startAnvil()
  contractAddress = (await deployAnchorContract({ rpcUrl: anvil.rpcUrl, privateKey: anvil.privateKeys[0]! })).address
  test = await createTestApp({
    workers: true,
    env: {
      CHAIN_RPC_URL: anvil.rpcUrl,
      ANCHOR_CONTRACT_ADDRESS: contractAddress,
      ANCHOR_PRIVATE_KEY: anvil.privateKeys[0]!,
      AUDIT_BATCH_EVENTS_MAX: '1000',
      AUDIT_BATCH_WAIT_SECONDS: '3600',
    },
  })
})
afterAll(async () => {
  await test?.close()
  await anvil?.stop()
})

const reader = () => createAnchorChain({ rpcUrl: anvil.rpcUrl, contractAddress })

/**
 * Publishes with the publisher key while, on PostgreSQL, the shared test app's worker may be sending
 * with the same key (it sees this database's anchors too): a transaction that lost the nonce race is
 * simply sent again, as an operator would.
 */
async function publishRacingTheSharedWorker<T>(publish: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await publish()
    } catch (error) {
      if (attempt >= 5 || !/nonce too low|replacement transaction underpriced/i.test(String((error as { details?: unknown }).details ?? error))) throw error
    }
  }
}

async function publications(tenantIds: readonly string[]) {
  return queryRows<{ tenant_id: string; tx_hash: string; block_number: string | number }>(
    test.runtime.db.orm,
    sql`select tenant_id, tx_hash, block_number from audit_anchor_publications where tenant_id = any(${sql.param([...tenantIds])}::uuid[])`,
  )
}

describe('anchoring on chain', () => {
  it('publishes a closed batch and proves a real event on chain, off chain and through the verify route', async () => {
    const owner = await signupOwner(test)
    await test.runtime.settleAudit({ closeOpenBatch: true })
    await expect.poll(async () => (await publications([owner.tenantId])).length, { timeout: 30_000, interval: 200 }).toBe(1)

    const latest = (await test.request({ method: 'GET', url: '/v1/audit/anchor/latest', token: owner.token })).json()
    const [publication] = await publications([owner.tenantId])
    expect(latest).toMatchObject({
      anchoring_mode: 'onchain_merkle_root',
      publication_status: 'published',
      onchain_tx_hash: publication!.tx_hash,
      onchain_block_number: Number(publication!.block_number),
      chain_id: anvil.chainId,
      contract_address: contractAddress.toLowerCase(),
    })
    expect(latest.guarantee).toContain(publication!.tx_hash)

    const chain = reader()
    expect(await chain.isPublished(owner.tenantId, latest.merkle_root)).toBe(true)
    expect(await chain.publishedBlock(owner.tenantId, latest.merkle_root)).toBe(BigInt(publication!.block_number))
    expect((await chain.latestAnchor(owner.tenantId))?.root).toBe(latest.merkle_root)

    const [event] = await queryRows<{ id: string }>(test.runtime.db.orm, sql`select id from audit_event_log where tenant_id = ${owner.tenantId} and seq = 2`)
    const document = (await test.request({ method: 'GET', url: `/v1/audit/event/${event!.id}`, token: owner.token })).json() as ProofDocument & {
      inclusion: { leaf: `0x${string}`; proof: `0x${string}`[]; merkle_root: `0x${string}` }
    }
    expect(await chain.verifyInclusion(document.inclusion.merkle_root, document.inclusion.leaf, document.inclusion.proof)).toBe(true)
    const report = await verifyEventProof(document, { chain })
    expect(report.checks.map((check) => `${check.name}:${check.passed}`)).toEqual([
      'event_hash:true',
      'leaf:true',
      'proof:true',
      'onchain_published:true',
      'onchain_inclusion:true',
    ])
    // The contract refuses the same proof for another leaf.
    expect(await chain.verifyInclusion(document.inclusion.merkle_root, `0x${'12'.repeat(32)}`, document.inclusion.proof)).toBe(false)

    const verified = await test.request({
      method: 'POST',
      url: '/v1/audit/verify',
      payload: { event_hash: document.event.hash, proof: document.inclusion.proof, merkle_root: document.inclusion.merkle_root, tenant_id: owner.tenantId },
    })
    expect(verified.json()).toMatchObject({ valid: true, anchored: true, onchain_published: true })

    // The publication itself is audited on the tenant's chain.
    await expect
      .poll(async () => (await auditEvents(test, owner.tenantId, { action: 'audit.anchor_published' })).length, {
        timeout: 10_000,
      })
      .toBe(1)
  })

  it('anchors a proof: chain_anchor is the publication the events record, and the verifier asks the contract for each root', async () => {
    const b = await business(test, '100000.00')
    const proposed = await test.request({
      method: 'POST',
      url: '/v1/payment-intents',
      token: b.agent,
      payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '80.00', currency: 'EUR' },
    })
    const id = proposed.json().id as string
    expect((await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/reject`, token: b.admin.token, payload: { reason: 'no' } })).statusCode).toBe(200)
    const proofOf = async () => (await test.request({ method: 'GET', url: `/v1/proof/${id}`, token: b.owner.token })).json()
    await test.runtime.settleAudit({ closeOpenBatch: true })
    await expect.poll(async () => (await proofOf()).chain_anchor, { timeout: 30_000, interval: 250 }).not.toBeNull()
    // The proof is complete once the action's own events are sealed; the publication event waits for a later batch.
    await expect
      .poll(
        async () => {
          await test.runtime.settleAudit({ closeOpenBatch: true })
          return (await proofOf()).partial
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(false)
    const proof = await proofOf()
    const [publication] = await publications([b.owner.tenantId]).then((rows) => rows.filter((row) => row.tx_hash === proof.chain_anchor.tx_hash))
    expect(proof.chain_anchor).toMatchObject({ tx_hash: publication!.tx_hash, block: Number(publication!.block_number), chain_id: anvil.chainId })
    expect(proof.events.at(-1).event).toMatchObject({ action: 'audit.anchor_published', id: proof.chain_anchor.publication_event_id })
    expect(proof.human_explanation).toContain(`published on chain ${anvil.chainId} in transaction ${proof.chain_anchor.tx_hash}`)

    const chain = reader()
    const report = await verifyActionProof(proof, { chain })
    expect(report, JSON.stringify(report.checks.filter((check) => !check.passed))).toMatchObject({ ok: true, complete: true, sealed: true, anchored: true })
    expect(report.checks.filter((check) => check.field === 'chain').every((check) => check.passed)).toBe(true)
    expect(report.checks.find((check) => check.field === 'chain_anchor' && check.detail.startsWith('the contract published'))?.passed).toBe(true)
    // chain_anchor is checked against the chain's own record, not only the publication event's word.
    const elsewhere = await verifyActionProof(proof, { chain: { ...chain, isPublished: chain.isPublished, verifyInclusion: chain.verifyInclusion, findPublication: async () => ({ txHash: `0x${'cd'.repeat(32)}`, blockNumber: 1n }) } })
    expect(elsewhere).toMatchObject({ ok: false, failed_field: 'chain_anchor', anchored: false })
    const moved = await verifyActionProof({ ...proof, chain_anchor: { ...proof.chain_anchor, tx_hash: `0x${'ab'.repeat(32)}` } }, { chain })
    expect(moved).toMatchObject({ ok: false, failed_field: 'chain_anchor' })
  }, 90_000)

  it('publishes at most 50 tenant roots per transaction', async () => {
    const owners = []
    for (let index = 0; index < 55; index += 1) owners.push(await signupOwner(test))
    await test.runtime.settleAudit({ closeOpenBatch: true })
    const tenantIds = owners.map((owner) => owner.tenantId)
    await expect.poll(async () => (await publications(tenantIds)).length, { timeout: 60_000, interval: 250 }).toBe(55)
    const perTransaction = new Map<string, number>()
    for (const row of await publications(tenantIds)) perTransaction.set(row.tx_hash, (perTransaction.get(row.tx_hash) ?? 0) + 1)
    expect(Math.max(...perTransaction.values())).toBeLessThanOrEqual(50)
    expect([...perTransaction.values()].reduce((sum, count) => sum + count, 0)).toBe(55)
    expect(perTransaction.size).toBeGreaterThanOrEqual(2)
    const chain = reader()
    const roots = await queryRows<{ tenant_id: string; merkle_root: string }>(
      test.runtime.db.orm,
      sql`select tenant_id, merkle_root from audit_anchors where tenant_id = any(${sql.param(tenantIds)}::uuid[])`,
    )
    for (const { tenant_id: tenantId, merkle_root: root } of roots) expect(await chain.isPublished(tenantId, root as `0x${string}`)).toBe(true)
  }, 120_000)

  it('records where a root really is when an earlier, unrecorded transaction already published it', async () => {
    // A publisher that crashed after its transaction was mined: no worker runs here yet.
    const paused = await createTestApp({
      env: { CHAIN_RPC_URL: anvil.rpcUrl, ANCHOR_CONTRACT_ADDRESS: contractAddress, ANCHOR_PRIVATE_KEY: anvil.privateKeys[0]!, AUDIT_BATCH_WAIT_SECONDS: '3600' },
    })
    try {
      const first = await signupOwner(paused)
      const second = await signupOwner(paused)
      await paused.runtime.settleAudit({ closeOpenBatch: true })
      const [anchor] = await queryRows<{ merkle_root: `0x${string}` }>(paused.runtime.db.orm, sql`select merkle_root from audit_anchors where tenant_id = ${first.tenantId}`)
      const earlier = await publishRacingTheSharedWorker(() =>
        createAnchorChain({ rpcUrl: anvil.rpcUrl, contractAddress, privateKey: anvil.privateKeys[0]! }).publish([{ tenantId: first.tenantId, root: anchor!.merkle_root }]),
      )

      await paused.runtime.startWorkers()
      const recorded = async () =>
        queryRows<{ tenant_id: string; tx_hash: string; block_number: string | number }>(
          paused.runtime.db.orm,
          sql`select tenant_id, tx_hash, block_number from audit_anchor_publications where tenant_id in (${first.tenantId}, ${second.tenantId})`,
        )
      await expect.poll(async () => (await recorded()).length, { timeout: 30_000, interval: 200 }).toBe(2)
      const byTenant = new Map((await recorded()).map((row) => [row.tenant_id, { tx_hash: row.tx_hash, block_number: Number(row.block_number) }]))
      // Every record names the transaction the contract's own log names for that root…
      const chain = reader()
      for (const owner of [first, second]) {
        const [root] = await queryRows<{ merkle_root: `0x${string}` }>(paused.runtime.db.orm, sql`select merkle_root from audit_anchors where tenant_id = ${owner.tenantId}`)
        const truth = await chain.findPublication(owner.tenantId, root!.merkle_root)
        expect(byTenant.get(owner.tenantId)).toMatchObject({ tx_hash: truth!.txHash, block_number: Number(truth!.blockNumber) })
      }
      // …which, when the earlier transaction did publish (always on PGlite; on PostgreSQL another test
      // app's worker may publish this shared database's anchors first), is that earlier transaction.
      if (earlier.published === 1) {
        expect(byTenant.get(first.tenantId)).toMatchObject({ tx_hash: earlier.txHash, block_number: Number(earlier.blockNumber) })
        expect(byTenant.get(second.tenantId)!.tx_hash).not.toBe(earlier.txHash)
      }
    } finally {
      await paused.close()
    }
  }, 60_000)
})
