/**
 * Policy test helpers: signers (a member with a linked human wallet and a real private key), compose and
 * sign through the routes, and sample policy content.
 */
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { expect } from 'vitest'
import { addMember, login, type JoinedMember, type TenantOwner, type TestApp } from './harness.ts'

export interface Signer {
  readonly member: JoinedMember
  readonly account: PrivateKeyAccount
  /** Lower-cased. */
  readonly address: string
}

/** Links `address` to the caller's tenant through the route, as `caller` (201 expected). A human wallet is the caller's own. */
export async function linkWallet(test: TestApp, caller: Pick<TenantOwner, 'tenantId' | 'token'>, body: { address: string; principal_type: 'human' | 'agent'; principal_id?: string }) {
  const response = await test.request({ method: 'POST', url: `/v1/tenants/${caller.tenantId}/wallets`, token: caller.token, payload: body })
  expect(response.statusCode, response.body).toBe(201)
  return response.json() as { id: string; address: string; principal_type: string; principal_id: string }
}

/**
 * A member (approver by default: policy:sign) with a fresh key, who linked the wallet as human themselves.
 * Linking needs policy:write, so an approver-to-be joins as an admin, links it, and is then made an
 * approver (with an approver's defaults: no approval domains), signed in again.
 */
export async function addSigner(test: TestApp, owner: TenantOwner, role: 'admin' | 'approver' = 'approver'): Promise<Signer> {
  const joined = await addMember(test, owner, 'admin')
  const account = privateKeyToAccount(generatePrivateKey())
  await linkWallet(test, { tenantId: owner.tenantId, token: joined.token }, { address: account.address, principal_type: 'human' })
  let member = joined
  if (role === 'approver') {
    const changed = await test.request({ method: 'PATCH', url: `/v1/tenants/${owner.tenantId}/members/${joined.memberId}`, token: owner.token, payload: { role: 'approver', approval_domains: [] } })
    expect(changed.statusCode, changed.body).toBe(200)
    member = { ...joined, token: await login(test, joined.email) }
  }
  return { member, account, address: account.address.toLowerCase() }
}

export interface Composed {
  readonly policy_id: string
  readonly version: number
  readonly content_hash: string
  readonly quorum_required: number
  // The EIP-712 typed data exactly as the route returned it.
  readonly signing_payload: Parameters<PrivateKeyAccount['signTypedData']>[0]
  readonly warnings: Array<{ code: string; severity: string; rule_id: string | null; message: string }>
}

export async function compose(test: TestApp, owner: TenantOwner, content: unknown, quorumRequired?: number): Promise<Composed> {
  const response = await test.request({
    method: 'POST',
    url: `/v1/policy/${owner.tenantId}/compose`,
    token: owner.token,
    payload: { content, ...(quorumRequired === undefined ? {} : { quorum_required: quorumRequired }) },
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

export async function signatureOf(signer: Signer, composed: Pick<Composed, 'signing_payload'>) {
  return { address: signer.account.address, signature: await signer.account.signTypedData(composed.signing_payload) }
}

/** POST sign with the given signatures, as `token`. */
export function sign(test: TestApp, owner: TenantOwner, token: string, policyId: string, signatures: ReadonlyArray<{ address: string; signature: string }>) {
  return test.request({ method: 'POST', url: `/v1/policy/${owner.tenantId}/sign`, token, payload: { policy_id: policyId, signatures } })
}

/**
 * A candidate policy: small EUR payments are allowed (rule up to 50, with an autonomous cap of 50 so the
 * gate's human-approval floor lets them execute), large ones (over 1,000) are rejected, other payments
 * need a signer, non-money actions are allowed.
 */
export function samplePolicy(label = 2) {
  return {
    version: label,
    rules: [
      {
        id: 'small-payments',
        applies_to: ['outbound_payment'],
        when: { 'amount.lte': { currency: 'EUR', value: '50' } },
        execute: 'auto',
        autonomous_cap: { currency: 'EUR', value: '50' },
      },
      { id: 'large-payments', applies_to: ['outbound_payment'], when: { 'amount.gt': { currency: 'EUR', value: '1000' } }, execute: 'reject' },
      { id: 'other-payments', applies_to: ['outbound_payment', 'onchain_tx'], when: {}, require: 'signer', execute: 'confirm' },
      { id: 'non-money', applies_to: ['inbound_payment', 'ledger_write', 'agent_action'], when: {}, execute: 'auto' },
    ],
  }
}
