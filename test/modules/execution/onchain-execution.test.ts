/**
 * The onchain_base rail wired into the service, end to end on a real local chain (anvil): a Ledger USD
 * account registered through the route to a SmartAccount, its session key (derived by Steward, added on
 * chain by the account's owner) signing the payment the gate dispatched, the worker taking it to the chain
 * and the receipt checked against the chain itself. And gate check 12 read on chain (an expired key, an
 * amount over the cap, an unregistered account), check 11 without a chain, and the directory's refusals.
 *
 * Every claim about money is checked on the chain (balances, the session key's transaction count, the
 * token's Transfer logs), not on what Steward says. Each test makes its own tenant, smart account and
 * recipient; only the chain (and its clock) is shared.
 */
import { readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  keccak256,
  parseAbiItem,
  parseEther,
  type Abi,
  type Address,
  type Chain,
  type Hex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artifactPathOf, type ContractArtifact } from '../../../scripts/compile-contracts.ts'
import { deriveSessionKey } from '../../../src/modules/execution/domain/onchain-accounts.ts'
import { createPgOnchainSubmissions } from '../../../src/modules/execution/onchain.store.pg.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { startAnvil, type Anvil } from '../../support/anvil.ts'
import { auditActions } from '../../support/audit-log.ts'
import { verifyActionProof } from '../../../src/modules/proofs/index.ts'
import { createTestApp, expectError, type TestApp } from '../../support/harness.ts'
import { bankTransaction, getOk, normalize, seedArtifact } from '../../support/ledger.ts'
import { business, promoteAgent, type Business } from '../../support/payments.ts'

const seed = 'test-onchain-session-key-seed-0123456789abcdef'
const day = 86_400n
/** TestUSDC has 6 decimals. */
const usdc = (dollars: bigint): bigint => dollars * 1_000_000n
const marginSeconds = 60

const readArtifact = (name: 'SmartAccount' | 'TestUSDC') => JSON.parse(readFileSync(artifactPathOf(name), 'utf8')) as ContractArtifact
const accountArtifact = readArtifact('SmartAccount')
const usdcArtifact = readArtifact('TestUSDC')
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

let anvil: Anvil
let chain: Chain
let publicClient: ReturnType<typeof createPublicClient>
let testClient: ReturnType<typeof createTestClient>
let ownerKey: Hex
let token: Address
/** The service with the onchain_base rail on anvil. */
let test: TestApp
/** The same service without a chain: the rail is not registered. */
let bare: TestApp

beforeAll(async () => {
  anvil = await startAnvil()
  ownerKey = anvil.privateKeys[0]!
  chain = defineChain({ id: anvil.chainId, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [anvil.rpcUrl] } } })
  publicClient = createPublicClient({ chain, transport: http(anvil.rpcUrl, { retryCount: 0 }) })
  testClient = createTestClient({ chain, mode: 'anvil', transport: http(anvil.rpcUrl, { retryCount: 0 }) })
  token = await deploy(usdcArtifact, [])
  ;[test, bare] = await Promise.all([
    createTestApp({
      env: {
        ONCHAIN_RAIL_RPC_URL: anvil.rpcUrl,
        ONCHAIN_RAIL_CHAIN_ID: String(anvil.chainId),
        ONCHAIN_SESSION_KEY_SEED: seed,
        ONCHAIN_RAIL_EXPIRY_MARGIN_SECONDS: String(marginSeconds),
        ONCHAIN_RAIL_RECEIPT_TIMEOUT_SECONDS: '10',
      },
    }),
    createTestApp(),
  ])
}, 60_000)

afterAll(async () => {
  await Promise.all([test?.close(), bare?.close()])
  await anvil?.stop()
})

const owner = () => createWalletClient({ account: privateKeyToAccount(ownerKey), chain, transport: http(anvil.rpcUrl, { retryCount: 0 }) })

async function deploy(artifact: ContractArtifact, args: readonly unknown[]): Promise<Address> {
  const hash = await owner().deployContract({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success' || receipt.contractAddress == null) throw new Error(`deployment ${hash} failed`)
  return getAddress(receipt.contractAddress)
}

async function ownerSends(address: Address, abi: unknown[], functionName: string, args: readonly unknown[]): Promise<void> {
  const hash = await owner().writeContract({ address, abi: abi as Abi, functionName, args, chain, account: privateKeyToAccount(ownerKey) })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`${functionName} ${hash} reverted`)
}

/**
 * A contract that answers every call with the 32-byte word `value` (so `decimals()` is `value`): init code
 * copying the 10-byte runtime `PUSH1 value PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN` and returning it.
 */
async function deployAnswering(value: number): Promise<Address> {
  const runtime = `60${value.toString(16).padStart(2, '0')}60005260206000f3`
  const hash = await owner().deployContract({ abi: [], bytecode: `0x600a600c600039600a6000f3${runtime}`, chain, account: privateKeyToAccount(ownerKey) })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success' || receipt.contractAddress == null) throw new Error(`deployment ${hash} failed`)
  return getAddress(receipt.contractAddress)
}

/** The address in EIP-55 case with one letter's case flipped: mixed case whose checksum is wrong. */
function withBadChecksum(address: Address): string {
  const checksummed = getAddress(address)
  const flipped = (index: number) => {
    const char = checksummed[index]!
    return `${checksummed.slice(0, index)}${char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()}${checksummed.slice(index + 1)}`
  }
  // A flip that leaves the hex digits mixed case (all one case carries no checksum, and lower case is accepted).
  const candidates = [...checksummed].flatMap((char, index) => (index > 1 && /[a-f]/i.test(char) ? [flipped(index)] : []))
  const mixed = candidates.find((candidate) => /[a-f]/.test(candidate.slice(2)) && /[A-F]/.test(candidate.slice(2)))
  if (mixed === undefined) throw new Error(`${checksummed} has too few letters to break its checksum`)
  return mixed
}

const balanceOf = async (holder: Address): Promise<bigint> => (await publicClient.readContract({ address: token, abi: usdcArtifact.abi as Abi, functionName: 'balanceOf', args: [holder] })) as bigint
const latestTimestamp = async () => (await publicClient.getBlock({ blockTag: 'latest' })).timestamp
/** The token's Transfer logs out of `from`, in every block: how many times money left. */
const transfersFrom = (from: Address) => publicClient.getLogs({ address: token, event: transferEvent, args: { from }, fromBlock: 0n, toBlock: 'latest' })
/** Transactions the key has had mined: the only way it can move money is by sending one. */
const sentBy = (address: Address) => publicClient.getTransactionCount({ address, blockTag: 'latest' })

interface OnchainBusiness extends Business {
  /** The Ledger USD account the smart account pays for. */
  readonly usdAccount: string
  /** A trusted counterparty whose one wallet is `recipient`. */
  readonly walletSupplier: string
  readonly recipient: Address
}

/**
 * A business (its agent promoted in USD) with a Ledger USD account holding 10,000.00 and a trusted
 * counterparty known by a fresh wallet address.
 */
async function onchainBusiness(app: TestApp): Promise<OnchainBusiness> {
  const b = await business(app, '100.00', { promoted: false })
  await promoteAgent(app, b.admin, b.agent, { currency: 'USD' })
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const treasury = { external_account_id: `usd-${recipient.slice(2, 10)}`, name: 'USD treasury', currency: 'USD' } as const
  const seeded = await seedArtifact(app, b.owner.tenantId, [
    bankTransaction({ account: treasury, currency: 'USD', amount: '-1.00', transaction_date: '2026-03-04', description: 'CHAIN SUPPLIER', counterparty: { name: 'Chain Supplier', wallet_address: recipient } }),
    { kind: 'balance', account: treasury, balance_type: 'closing', as_of: '2026-03-31', amount: '10000.00', currency: 'USD' },
  ])
  await normalize(app, b.owner.tenantId, seeded.artifactId)
  const accounts = (await getOk(app, b.owner.token, '/v1/ledger/accounts')).accounts as Array<Record<string, any>>
  const usdAccount = accounts.find((row) => row.currency === 'USD')!.id as string
  const counterparties = (await getOk(app, b.owner.token, '/v1/ledger/counterparties')).counterparties as Array<Record<string, any>>
  const walletSupplier = counterparties.find((row) => row.name === 'Chain Supplier')!.id as string
  const granted = await app.request({ method: 'POST', url: `/v1/ledger/counterparties/${walletSupplier}/trust/grant`, token: b.admin.token })
  expect(granted.statusCode, granted.body).toBe(200)
  return { ...b, usdAccount, walletSupplier, recipient }
}

/** A fresh SmartAccount owned by the dev key, holding `funding` of the token. */
async function smartAccountWith(funding: bigint): Promise<Address> {
  const address = await deploy(accountArtifact, [privateKeyToAccount(ownerKey).address])
  await ownerSends(token, usdcArtifact.abi, 'mint', [address, funding])
  return address
}

const register = (app: TestApp, b: Business, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.request({ method: 'POST', url: '/v1/execution/onchain-accounts', token: b.admin.token, headers, payload: body })

/**
 * The whole setup the owner does: a smart account holding 1,000 USDC, registered for the USD account,
 * its session key added on chain with `cap` until `expiresInSeconds` from the latest block, and a little
 * ether for the key's gas.
 */
async function registeredAccount(b: OnchainBusiness, settings: { cap?: bigint; expiresInSeconds?: bigint } = {}) {
  const smartAccount = await smartAccountWith(usdc(1_000n))
  const registered = await register(test, b, { account_id: b.usdAccount, smart_account: smartAccount, token })
  expect(registered.statusCode, registered.body).toBe(201)
  const sessionKey = getAddress(registered.json().session_key_address)
  const expiry = (await latestTimestamp()) + (settings.expiresInSeconds ?? day)
  await ownerSends(smartAccount, accountArtifact.abi, 'addSessionKey', [sessionKey, token, settings.cap ?? usdc(500n), expiry])
  await testClient.setBalance({ address: sessionKey, value: parseEther('1') })
  return { smartAccount, sessionKey, expiry }
}

/** An onchain_transfer of `amount` USD to `to` (default: the wallet supplier), proposed by the agent and approved by the admin (the hard floor holds every on-chain transfer for a person). */
async function approvedTransfer(app: TestApp, b: OnchainBusiness, amount: string, to = b.walletSupplier): Promise<string> {
  const proposed = await app.request({
    method: 'POST',
    url: '/v1/payment-intents',
    token: b.agent,
    payload: { action_type: 'onchain_transfer', source_account_id: b.usdAccount, destination_counterparty_id: to, amount, currency: 'USD' },
  })
  expect(proposed.statusCode, proposed.body).toBe(201)
  expect(proposed.json().status).toBe('pending_approval')
  const approved = await app.request({ method: 'POST', url: `/v1/payment-intents/${proposed.json().id}/approve`, token: b.admin.token })
  expect(approved.statusCode, approved.body).toBe(200)
  expect(approved.json().status).toBe('approved')
  await app.runtime.settleAudit()
  return proposed.json().id as string
}

const execute = (app: TestApp, b: Business, id: string) => app.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token: b.agent })

async function outboxRows(app: TestApp, b: Business, id: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(app.runtime.db.orm, sql`select count(*)::int as n from payment_outbox where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
  return row!.n
}

/** The execute answers 409 payment_intent_gate_failed with exactly `failed` failing, and nothing was dispatched. */
async function expectGateFailure(app: TestApp, b: Business, id: string, failed: readonly string[]) {
  const details = expectError(await execute(app, b, id), 'payment_intent_gate_failed').details as Record<string, any>
  expect(details.failed_checks.map((check: { name: string }) => check.name)).toEqual(failed)
  expect(details.failed_check.name).toBe(failed[0])
  expect((await getOk(app, b.owner.token, `/v1/payment-intents/${id}`)).status).toBe('approved')
  expect(await outboxRows(app, b, id)).toBe(0)
  return details
}

describe('onchain_base end to end: registered, gated, signed, settled on chain', () => {
  it('pays an approved onchain_transfer once, and the receipt is the chain\'s (tx hash, block, Transfer log index)', async () => {
    const b = await onchainBusiness(test)
    const { smartAccount, sessionKey } = await registeredAccount(b)
    // The session key is the one Steward derives from its seed for this tenant and account: nothing stored.
    expect(sessionKey.toLowerCase()).toBe(privateKeyToAccount(deriveSessionKey(seed, { tenantId: b.owner.tenantId, accountId: b.usdAccount })).address.toLowerCase())
    const id = await approvedTransfer(test, b, '25.00')

    const executed = await execute(test, b, id)
    expect(executed.statusCode, executed.body).toBe(202)
    expect(executed.json()).toMatchObject({ status: 'dispatching', rail: 'onchain_base' })
    const outboxId = executed.json().outbox_id as string
    // Nothing moves before the worker takes the row.
    expect(await sentBy(sessionKey)).toBe(0)

    expect(await test.runtime.execution.dispatcher.dispatch(b.owner.tenantId, outboxId)).toBe('completed')
    const intent = await getOk(test, b.owner.token, `/v1/payment-intents/${id}`)
    expect(intent.status).toBe('executed')
    expect(intent.execution_receipt_ids).toHaveLength(1)

    // On chain: exactly one transaction of the key, exactly one Transfer out of the account, of exactly the amount.
    expect(await sentBy(sessionKey)).toBe(1)
    expect(await balanceOf(b.recipient)).toBe(usdc(25n))
    expect(await balanceOf(smartAccount)).toBe(usdc(1_000n) - usdc(25n))
    const transfers = await transfersFrom(smartAccount)
    expect(transfers).toHaveLength(1)
    const [transfer] = transfers
    expect(transfer!.args).toEqual({ from: smartAccount, to: b.recipient, value: usdc(25n) })

    // The replay investigation's receipt names that very transfer: its transaction, block and log index.
    const replay = await getOk(test, b.owner.token, `/v1/payment-intents/${id}/replay-investigation`)
    expect(replay.executions).toHaveLength(1)
    const receipt = replay.executions[0].rail_receipt
    expect(replay.executions[0]).toMatchObject({ rail: 'onchain_base', status: 'completed' })
    expect(receipt).toEqual({
      type: 'onchain',
      chain_id: anvil.chainId,
      tx_hash: transfer!.transactionHash.toLowerCase(),
      block_number: Number(transfer!.blockNumber),
      block_hash: transfer!.blockHash.toLowerCase(),
      log_index: transfer!.logIndex,
      from: sessionKey.toLowerCase(),
      smart_account: smartAccount.toLowerCase(),
      token: token.toLowerCase(),
      to: b.recipient.toLowerCase(),
      amount_base_units: usdc(25n).toString(),
    })
    const chainReceipt = await publicClient.getTransactionReceipt({ hash: receipt.tx_hash })
    expect(chainReceipt).toMatchObject({ status: 'success', blockNumber: BigInt(receipt.block_number), from: sessionKey.toLowerCase(), to: smartAccount.toLowerCase() })

    // The signed transaction was stored under the outbox row's key before it was broadcast.
    const stored = await queryRows<{ hash: string; from_address: string; nonce: number }>(
      test.runtime.db.orm,
      sql`select s.hash, s.from_address, s.nonce from onchain_submissions s join executions e on e.tenant_id = s.tenant_id and e.idempotency_key = s.idempotency_key where e.tenant_id = ${b.owner.tenantId} and e.outbox_id = ${outboxId}`,
    )
    expect(stored).toEqual([{ hash: receipt.tx_hash, from_address: sessionKey.toLowerCase(), nonce: 0 }])

    // A second dispatch of the row (a duplicate job) moves nothing.
    expect(await test.runtime.execution.dispatcher.dispatch(b.owner.tenantId, outboxId)).toBe('settled')
    expect(await sentBy(sessionKey)).toBe(1)
    expect(await transfersFrom(smartAccount)).toHaveLength(1)
    expect(await auditActions(test, b.owner.tenantId, { entityId: id })).toEqual(expect.arrayContaining(['payment_intent.dispatched', 'payment_intent.executed']))

    // Its proof carries the chain's receipt, typed onchain, and verifies offline.
    await test.runtime.settleAudit({ closeOpenBatch: true })
    const proof = await getOk(test, b.owner.token, `/v1/proof/${id}`)
    expect(proof).toMatchObject({ outcome: 'executed', status: 'executed', partial: false, rail_receipt: receipt })
    expect(proof.human_explanation).toContain(`It was executed on chain ${anvil.chainId}, transaction ${receipt.tx_hash} in block ${receipt.block_number}.`)
    expect(await verifyActionProof(proof)).toMatchObject({ ok: true, complete: true })
  })

  it('passes gate check 12 only after the owner added the key on chain, with the reason the chain gives', async () => {
    const b = await onchainBusiness(test)
    const smartAccount = await smartAccountWith(usdc(1_000n))
    expect((await register(test, b, { account_id: b.usdAccount, smart_account: smartAccount, token })).statusCode).toBe(201)
    const id = await approvedTransfer(test, b, '11.00')
    const details = await expectGateFailure(test, b, id, ['session_key_valid'])
    expect(details.failed_check).toMatchObject({ index: 12, code: 'gate_session_key_invalid', reason: expect.stringMatching(/^onchain_session_key_unknown: /) })
  })
})

describe('gate check 12 reads the session key on chain', () => {
  it('fails an expired key, and nothing moves', async () => {
    const b = await onchainBusiness(test)
    const { smartAccount, sessionKey, expiry } = await registeredAccount(b, { expiresInSeconds: 120n })
    const id = await approvedTransfer(test, b, '12.00')
    // The chain's clock passes the expiry.
    await testClient.setNextBlockTimestamp({ timestamp: expiry + 1n })
    await testClient.mine({ blocks: 1 })
    const details = await expectGateFailure(test, b, id, ['session_key_valid'])
    expect(details.failed_check).toMatchObject({ index: 12, code: 'gate_session_key_invalid', reason: expect.stringMatching(/^onchain_session_key_expired: /) })
    expect(await sentBy(sessionKey)).toBe(0)
    expect(await balanceOf(smartAccount)).toBe(usdc(1_000n))
    expect(await transfersFrom(smartAccount)).toHaveLength(0)
  })

  it('fails a key expiring within the margin (the transfer could land after the expiry)', async () => {
    const b = await onchainBusiness(test)
    const { sessionKey } = await registeredAccount(b, { expiresInSeconds: BigInt(marginSeconds) })
    const id = await approvedTransfer(test, b, '13.00')
    const details = await expectGateFailure(test, b, id, ['session_key_valid'])
    expect(details.failed_check.reason).toMatch(/^onchain_session_key_expiring: /)
    expect(await sentBy(sessionKey)).toBe(0)
  })

  it('fails an amount over the key\'s cap, and passes one within it', async () => {
    const b = await onchainBusiness(test)
    const { smartAccount, sessionKey } = await registeredAccount(b, { cap: usdc(20n) })
    const over = await approvedTransfer(test, b, '20.01')
    const details = await expectGateFailure(test, b, over, ['session_key_valid'])
    expect(details.failed_check.reason).toMatch(/^onchain_spend_cap_exceeded: /)
    expect(await sentBy(sessionKey)).toBe(0)
    expect(await balanceOf(smartAccount)).toBe(usdc(1_000n))
    // Exactly the cap passes the same check.
    const within = await approvedTransfer(test, b, '20.00')
    expect((await execute(test, b, within)).statusCode).toBe(202)
  })

  it('fails an account with no registration ("no session key is registered")', async () => {
    const b = await onchainBusiness(test)
    const id = await approvedTransfer(test, b, '14.00')
    const details = await expectGateFailure(test, b, id, ['session_key_valid'])
    expect(details.failed_check.reason).toBe('no session key is registered for the source wallet')
  })
})

describe('gate check 12 when the chain cannot be asked', () => {
  it('answers 503 service_unavailable and records nothing (no refusal the chain never gave)', async () => {
    // Port 9 (discard) on loopback: nothing answers there.
    const unreachable = await createTestApp({ env: { ONCHAIN_RAIL_RPC_URL: 'http://127.0.0.1:9', ONCHAIN_RAIL_CHAIN_ID: String(anvil.chainId), ONCHAIN_SESSION_KEY_SEED: seed } })
    try {
      const b = await onchainBusiness(unreachable)
      // Registered while the chain answered (the route itself asks the chain for the token's decimals).
      const sessionKeyAddress = privateKeyToAccount(deriveSessionKey(seed, { tenantId: b.owner.tenantId, accountId: b.usdAccount })).address.toLowerCase()
      await unreachable.runtime.db.orm.execute(
        sql`insert into onchain_accounts (tenant_id, account_id, smart_account, token, session_key_address, chain_id, created_by, created_at)
            values (${b.owner.tenantId}, ${b.usdAccount}, ${(await smartAccountWith(1n)).toLowerCase()}, ${token.toLowerCase()}, ${sessionKeyAddress}, ${anvil.chainId}, ${b.admin.userId}, now())`,
      )
      const id = await approvedTransfer(unreachable, b, '17.00')
      expectError(await execute(unreachable, b, id), 'service_unavailable')
      expect((await getOk(unreachable, b.owner.token, `/v1/payment-intents/${id}`)).status).toBe('approved')
      const [runs] = await queryRows<{ n: number }>(unreachable.runtime.db.orm, sql`select count(*)::int as n from payment_gate_runs where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
      expect(runs!.n).toBe(0)
      expect(await outboxRows(unreachable, b, id)).toBe(0)
    } finally {
      await unreachable.close()
    }
  })
})

describe('gate check 11 without a chain', () => {
  it('fails an onchain_transfer as not registered when the rail is not configured (and check 12 with it)', async () => {
    const b = await onchainBusiness(bare)
    const id = await approvedTransfer(bare, b, '15.00')
    const details = await expectGateFailure(bare, b, id, ['rail_available', 'session_key_valid'])
    expect(details.failed_check).toMatchObject({ index: 11, reason: 'rail onchain_base is not registered (fail-closed)' })
    // The bank rail is still there.
    expect(bare.runtime.execution.rails.registered()).toEqual(new Set(['bank_ach', 'erp_writeback']))
    expect(test.runtime.execution.rails.registered()).toEqual(new Set(['bank_ach', 'erp_writeback', 'onchain_base']))
  })

  it('refuses registrations: 409 onchain_rail_not_configured', async () => {
    const b = await onchainBusiness(bare)
    expectError(await register(bare, b, { account_id: b.usdAccount, smart_account: await smartAccountWith(1n), token }), 'onchain_rail_not_configured')
  })
})

describe('the directory refuses what the chain cannot be paid to, before anything is signed', () => {
  it('fails a payment to a counterparty without a wallet (onchain_counterparty_no_wallet): the intent fails, the reservation is released, nothing moves', async () => {
    const b = await onchainBusiness(test)
    const { smartAccount, sessionKey } = await registeredAccount(b)
    // The business's IBAN supplier is trusted but has no wallet: the gate does not look at wallets, the rail does.
    const id = await approvedTransfer(test, b, '16.00', b.supplier)
    const executed = await execute(test, b, id)
    expect(executed.statusCode, executed.body).toBe(202)
    expect(await test.runtime.execution.dispatcher.dispatch(b.owner.tenantId, executed.json().outbox_id)).toBe('failed')
    expect((await getOk(test, b.owner.token, `/v1/payment-intents/${id}`)).status).toBe('failed')
    const [execution] = await queryRows<{ failure_code: string }>(test.runtime.db.orm, sql`select failure_code from executions where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
    expect(execution!.failure_code).toBe('onchain_counterparty_no_wallet')
    const [reservation] = await queryRows<{ status: string }>(test.runtime.db.orm, sql`select status from payment_reservations where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
    expect(reservation!.status).toBe('released')
    expect(await sentBy(sessionKey)).toBe(0)
    expect(await transfersFrom(smartAccount)).toHaveLength(0)
  })
})

describe('POST /v1/execution/onchain-accounts and GET …/{account_id}', () => {
  it('registers once (201, audited), answers the same terms again with 200, replays an Idempotency-Key, and reads back', async () => {
    const b = await onchainBusiness(test)
    const smartAccount = await smartAccountWith(1n)
    // Any case in, lower case out (a checksummed address is accepted).
    const body = { account_id: b.usdAccount, smart_account: smartAccount, token: token.toLowerCase() }
    const first = await register(test, b, body, { 'idempotency-key': 'register-1' })
    expect(first.statusCode, first.body).toBe(201)
    const registration = first.json()
    const sessionKeyAddress = privateKeyToAccount(deriveSessionKey(seed, { tenantId: b.owner.tenantId, accountId: b.usdAccount })).address.toLowerCase()
    expect(registration).toEqual({ account_id: b.usdAccount, smart_account: smartAccount.toLowerCase(), token: token.toLowerCase(), chain_id: anvil.chainId, session_key_address: sessionKeyAddress, created_at: expect.any(String) })

    const replayed = await register(test, b, body, { 'idempotency-key': 'register-1' })
    expect(replayed.statusCode).toBe(201)
    expect(replayed.headers['idempotent-replayed']).toBe('true')
    expect(replayed.json()).toEqual(registration)
    const again = await register(test, b, body)
    expect(again.statusCode, again.body).toBe(200)
    expect(again.json()).toEqual(registration)
    expect(await auditActions(test, b.owner.tenantId, { entityType: 'onchain_account', entityId: b.usdAccount })).toEqual(['execution.onchain_account.registered'])

    expect(await getOk(test, b.owner.token, `/v1/execution/onchain-accounts/${b.usdAccount}`)).toEqual(registration)
    expectError(await test.request({ method: 'GET', url: `/v1/execution/onchain-accounts/${b.account}`, token: b.owner.token }), 'onchain_account_not_found')

    // Other terms for a registered account: refused, the registration unchanged.
    const other = await register(test, b, { ...body, smart_account: await smartAccountWith(1n) })
    expect(expectError(other, 'onchain_account_already_registered').details).toMatchObject({ registered: { smart_account: smartAccount.toLowerCase() } })
    expect(await getOk(test, b.owner.token, `/v1/execution/onchain-accounts/${b.usdAccount}`)).toEqual(registration)
  })

  it('refuses what it cannot pay from, and registers nothing', async () => {
    const b = await onchainBusiness(test)
    const stranger = await onchainBusiness(test)
    const smartAccount = await smartAccountWith(1n)
    const codeless = privateKeyToAccount(generatePrivateKey()).address
    const cases: Array<[string, Record<string, unknown>, Parameters<typeof expectError>[1]]> = [
      ['an account of another tenant', { account_id: stranger.usdAccount }, 'ledger_account_not_found'],
      ['an account that does not exist', { account_id: 'acc_missing' }, 'ledger_account_not_found'],
      ['a EUR account', { account_id: b.account }, 'validation_failed'],
      ['a token that is not a contract', { token: codeless }, 'validation_failed'],
      ['a token that answers no decimals()', { token: await deploy(accountArtifact, [privateKeyToAccount(ownerKey).address]) }, 'validation_failed'],
      ['a token with 18 decimals', { token: await deployAnswering(18) }, 'validation_failed'],
      ['a bad EIP-55 checksum', { smart_account: withBadChecksum(smartAccount) }, 'validation_failed'],
      ['the zero address', { smart_account: `0x${'0'.repeat(40)}` }, 'validation_failed'],
      ['the token as smart account', { smart_account: token }, 'validation_failed'],
    ]
    for (const [label, change, code] of cases) {
      const response = await register(test, b, { account_id: b.usdAccount, smart_account: smartAccount, token, ...change })
      expect(response.json().error?.code, `${label}: ${response.body}`).toBe(code)
      expectError(response, code)
    }
    const malformed = await register(test, b, { account_id: b.usdAccount, smart_account: '0x1234', token })
    expectError(malformed, 'request_body_invalid')
    expectError(await register(test, b, { account_id: b.usdAccount, smart_account: smartAccount, token, extra: true }), 'request_body_invalid')
    const [count] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from onchain_accounts where tenant_id = ${b.owner.tenantId}`)
    expect(count!.n).toBe(0)
    expect(await auditActions(test, b.owner.tenantId, { entityType: 'onchain_account', entityId: b.usdAccount })).toEqual([])
  })

  it('needs execution:admin to register (an owner reads, an admin registers)', async () => {
    const b = await onchainBusiness(test)
    const smartAccount = await smartAccountWith(1n)
    const byOwner = await test.request({ method: 'POST', url: '/v1/execution/onchain-accounts', token: b.owner.token, payload: { account_id: b.usdAccount, smart_account: smartAccount, token } })
    expectError(byOwner, 'auth_scope_insufficient')
    const byAgent = await test.request({ method: 'POST', url: '/v1/execution/onchain-accounts', token: b.agent, payload: { account_id: b.usdAccount, smart_account: smartAccount, token } })
    expectError(byAgent, 'auth_scope_insufficient')
  })
})

describe('the rail\'s submissions on the database (OnchainSubmissions)', () => {
  it('keeps the first transaction stored for a tenant\'s key, and another tenant\'s key apart', async () => {
    const submissions = createPgOnchainSubmissions(test.runtime.db)
    const tenants = [(await business(test)).owner.tenantId, (await business(test)).owner.tenantId]
    const signer = privateKeyToAccount(generatePrivateKey())
    const record = async (tenantId: string, nonce: number) => {
      const rawTransaction = await signer.signTransaction({ type: 'eip1559', chainId: anvil.chainId, nonce, gas: 21_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, to: signer.address, value: 0n })
      return { tenantId, idempotencyKey: 'sha256:same-key', from: signer.address, nonce, hash: keccak256(rawTransaction), rawTransaction, createdAt: new Date() }
    }
    expect(await submissions.find(tenants[0]!, 'sha256:same-key')).toBeUndefined()
    const first = await record(tenants[0]!, 0)
    const stored = await submissions.insert(first)
    expect(stored).toEqual({ ...first, from: signer.address.toLowerCase() })
    // A second writer for the same key gets the first one back; nothing of its own is stored.
    const second = await record(tenants[0]!, 1)
    expect(await submissions.insert(second)).toEqual(stored)
    expect(await submissions.find(tenants[0]!, 'sha256:same-key')).toEqual(stored)
    // The same key under another tenant is another submission.
    expect(await submissions.find(tenants[1]!, 'sha256:same-key')).toBeUndefined()
    const other = await record(tenants[1]!, 1)
    expect((await submissions.insert(other)).hash).toBe(other.hash)
    expect((await submissions.find(tenants[0]!, 'sha256:same-key'))!.hash).toBe(first.hash)
  })
})
