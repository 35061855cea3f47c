/**
 * Compose and sign with real EIP-712 signatures (viem accounts): quorum 2 of 3, duplicates, strangers,
 * agent wallets, deactivated members, signatures over another policy, replays on an active policy, and
 * the versions list that keeps every version.
 */
import { sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { policyContentHash, recoverPolicySigner, type PolicyContent } from '../../../src/modules/policy/domain/index.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, expectError, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { addSigner, compose, linkWallet, samplePolicy, sign, signatureOf, type Signer } from '../../support/policy.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

const versionsOf = async (owner: TenantOwner) => {
  const response = await test.request({ method: 'GET', url: `/v1/policy/${owner.tenantId}/versions`, token: owner.token })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().versions as Array<{ id: string; version: number; state: string; activated_at: string | null; deactivated_at: string | null; signers: string[]; content_hash: string }>
}

const recordedSignatures = async (policyId: string) =>
  (await queryRows<{ count: number }>(test.runtime.db.orm, sql`select count(*)::int as count from policy_signatures where policy_id = ${policyId}`))[0]!.count

async function tenantWithSigners(count: number): Promise<{ owner: TenantOwner; signers: Signer[] }> {
  const owner = await signupOwner(test)
  const signers: Signer[] = []
  for (let index = 0; index < count; index += 1) signers.push(await addSigner(test, owner, index === 0 ? 'admin' : 'approver'))
  return { owner, signers }
}

describe('POST /v1/policy/{tenant_id}/compose', () => {
  it('stores the next version pending signatures and returns the EIP-712 payload binding tenant, version, hash and quorum', async () => {
    const { owner } = await tenantWithSigners(1)
    const content = samplePolicy()
    const composed = await compose(test, owner, content, 1)
    expect(composed).toMatchObject({
      policy_id: expect.stringMatching(/^pol_[0-9A-Z]{26}$/),
      version: 2, // the default policy is 1
      state: 'pending_signatures',
      quorum_required: 1,
      content_hash: policyContentHash(content as PolicyContent),
    })
    expect(composed.signing_payload).toMatchObject({
      domain: { name: 'Steward Policy', version: '1', chainId: 8453 },
      primaryType: 'Policy',
      message: { tenantId: owner.tenantId, policyId: composed.policy_id, version: 2, contentHash: composed.content_hash, quorumRequired: 1 },
    })
    expect(composed.warnings.filter((warning) => warning.code === 'quorum_exceeds_signers')).toEqual([])

    const versions = await versionsOf(owner)
    expect(versions.map((row) => [row.version, row.state])).toEqual([
      [2, 'pending_signatures'],
      [1, 'active'],
    ])
    // The active policy is still version 1.
    const active = await test.request({ method: 'GET', url: `/v1/policy/${owner.tenantId}`, token: owner.token })
    expect(active.json()).toMatchObject({ version: 1, state: 'active' })
    const audit = await auditEvents(test, owner.tenantId, { entityId: composed.policy_id })
    expect(audit.map(({ action, inputs }) => ({ action, inputs }))).toEqual([{ action: 'policy.composed', inputs: { content_hash: composed.content_hash, quorum_required: 1 } }])
  })

  it('warns when the quorum exceeds the authorized signers, and refuses invalid content and quorum with details.issues', async () => {
    const owner = await signupOwner(test)
    const composed = await compose(test, owner, samplePolicy(), 3)
    expect(composed.warnings).toContainEqual(expect.objectContaining({ code: 'quorum_exceeds_signers', severity: 'warning' }))

    const url = `/v1/policy/${owner.tenantId}/compose`
    const duplicateIds = { version: 1, rules: [samplePolicy().rules[0], samplePolicy().rules[0]] }
    const duplicate = expectError(await test.request({ method: 'POST', url, token: owner.token, payload: { content: duplicateIds } }), 'request_body_invalid')
    expect(duplicate.details?.issues).toContainEqual(expect.objectContaining({ path: '/content/rules/1/id' }))
    const unknownKey = { version: 1, rules: [{ id: 'r', applies_to: ['outbound_payment'], when: { 'amount.lt': { currency: 'EUR', value: '1' } }, execute: 'auto' }] }
    const unknown = expectError(await test.request({ method: 'POST', url, token: owner.token, payload: { content: unknownKey } }), 'request_body_invalid')
    expect(JSON.stringify(unknown.details?.issues)).toMatch(/amount\.lt/)
    const missingList = { version: 1, rules: [{ id: 'r', applies_to: ['any'], when: { 'counterparty.in': 'vendors' }, execute: 'auto' }] }
    const missing = expectError(await test.request({ method: 'POST', url, token: owner.token, payload: { content: missingList } }), 'request_body_invalid')
    expect(missing.details?.issues).toContainEqual(expect.objectContaining({ path: '/content/rules/0/when/counterparty.in' }))
    const capOnConfirm = { version: 1, rules: [{ ...samplePolicy().rules[2]!, autonomous_cap: { currency: 'EUR', value: '50' } }] }
    const misplacedCap = expectError(await test.request({ method: 'POST', url, token: owner.token, payload: { content: capOnConfirm } }), 'request_body_invalid')
    expect(misplacedCap.details?.issues).toContainEqual(expect.objectContaining({ path: '/content/rules/0/autonomous_cap' }))
    const formerCaps = { ...samplePolicy(), autonomous_caps: [{ applies_to: ['outbound_payment'], 'amount.lte': { currency: 'EUR', value: '50' } }] }
    const former = expectError(await test.request({ method: 'POST', url, token: owner.token, payload: { content: formerCaps } }), 'request_body_invalid')
    expect(former.details?.issues).toContainEqual(expect.objectContaining({ path: '/content/autonomous_caps' }))
    for (const payload of [{}, { content: samplePolicy(), quorum_required: 0 }, { content: samplePolicy(), quorum_required: 21 }, { content: { rules: [] } }, { content: samplePolicy(), extra: 1 }]) {
      expectError(await test.request({ method: 'POST', url, token: owner.token, payload }), 'request_body_invalid')
    }
    // Nothing was stored by the refusals.
    expect((await versionsOf(owner)).map((row) => row.version)).toEqual([2, 1])
  })

  it('replays the first response for a repeated Idempotency-Key', async () => {
    const owner = await signupOwner(test)
    const request = { method: 'POST' as const, url: `/v1/policy/${owner.tenantId}/compose`, token: owner.token, headers: { 'idempotency-key': 'compose-1' }, payload: { content: samplePolicy() } }
    const first = await test.request(request)
    const again = await test.request(request)
    expect(first.statusCode, first.body).toBe(201)
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json().policy_id).toBe(first.json().policy_id)
    expectError(await test.request({ ...request, payload: { content: samplePolicy(3) } }), 'idempotency_key_reused')
    expect(await versionsOf(owner)).toHaveLength(2)
  })

  it('needs policy:write: approvers and viewers cannot compose', async () => {
    const owner = await signupOwner(test)
    for (const role of ['approver', 'viewer'] as const) {
      const member = await addMember(test, owner, role)
      expectError(await test.request({ method: 'POST', url: `/v1/policy/${owner.tenantId}/compose`, token: member.token, payload: { content: samplePolicy() } }), 'auth_scope_insufficient')
    }
  })
})

describe('POST /v1/policy/{tenant_id}/sign', () => {
  it('activates at a quorum of 2 of 3 real signatures; the previous version is deactivated and stays in versions', async () => {
    const { owner, signers } = await tenantWithSigners(3)
    const [first, second, third] = signers as [Signer, Signer, Signer]
    const composed = await compose(test, owner, samplePolicy(), 2)
    // The signature the client makes over the payload is the one the service recovers.
    const firstSignature = await signatureOf(first, composed)
    expect(await recoverPolicySigner(
      { tenantId: owner.tenantId, policyId: composed.policy_id, version: composed.version, contentHash: composed.content_hash as `0x${string}`, quorumRequired: 2 },
      firstSignature.signature,
    )).toBe(first.address)

    const one = await sign(test, owner, first.member.token, composed.policy_id, [firstSignature])
    expect(one.statusCode, one.body).toBe(200)
    expect(one.json()).toMatchObject({ activated: false, policy: { id: composed.policy_id, state: 'pending_signatures', signers: [first.address], activated_at: null } })
    expect((await test.request({ method: 'GET', url: `/v1/policy/${owner.tenantId}`, token: owner.token })).json().version).toBe(1)

    // The same signer again, alone or alongside a valid one: 401, and nothing of the call is recorded.
    expectError(await sign(test, owner, second.member.token, composed.policy_id, [firstSignature]), 'policy_signature_invalid')
    const mixed = expectError(await sign(test, owner, second.member.token, composed.policy_id, [await signatureOf(second, composed), firstSignature]), 'policy_signature_invalid')
    expect(mixed.details).toMatchObject({ index: 1, address: first.address, reason: 'already_signed' })
    expect(await recordedSignatures(composed.policy_id)).toBe(1)

    const two = await sign(test, owner, third.member.token, composed.policy_id, [await signatureOf(second, composed)])
    expect(two.statusCode, two.body).toBe(200)
    const body = two.json()
    expect(body.activated).toBe(true)
    expect(body.policy).toMatchObject({ id: composed.policy_id, version: 2, state: 'active', signers: [first.address, second.address], deactivated_at: null, quorum_required: 2 })
    expect(body.policy.activated_at).toEqual(expect.any(String))
    expect(Array.isArray(body.warnings)).toBe(true)

    const active = await test.request({ method: 'GET', url: `/v1/policy/${owner.tenantId}`, token: owner.token })
    expect(active.json()).toMatchObject({ id: composed.policy_id, version: 2, state: 'active', content: samplePolicy() })
    const versions = await versionsOf(owner)
    expect(versions.map((row) => [row.version, row.state])).toEqual([
      [2, 'active'],
      [1, 'superseded'],
    ])
    expect(versions[1]!.deactivated_at).toBe(body.policy.activated_at)
    expect(versions[1]!.activated_at).toEqual(expect.any(String))

    // A replay on the now-active policy, even a valid signature of a third signer, is 409.
    expectError(await sign(test, owner, third.member.token, composed.policy_id, [await signatureOf(third, composed)]), 'policy_quorum_not_met')
    expectError(await sign(test, owner, third.member.token, composed.policy_id, [firstSignature]), 'policy_quorum_not_met')
    expect(await recordedSignatures(composed.policy_id)).toBe(2)

    const audit = await auditEvents(test, owner.tenantId, { entityId: composed.policy_id })
    expect(audit.map((row) => row.action)).toEqual([
      'policy.composed',
      'policy.signed',
      'policy.signature_refused',
      'policy.signature_refused',
      'policy.signed',
      'policy.activated',
      // The two replays are refused before any signature is checked: nothing to record.
    ])
    expect(audit.at(-1)!.outputs).toMatchObject({ version: 2, previous_version: 1, signers: [first.address, second.address] })
  })

  it('refuses a stranger, an agent wallet, a deactivated member, a signature over another policy and a duplicate within the request', async () => {
    const { owner, signers } = await tenantWithSigners(2)
    const [approver, other] = signers as [Signer, Signer]
    const composed = await compose(test, owner, samplePolicy(), 2)
    const sibling = await compose(test, owner, samplePolicy(3), 2)

    const stranger = privateKeyToAccount(generatePrivateKey())
    const strangerSignature = { address: stranger.address, signature: await stranger.signTypedData(composed.signing_payload) }
    expect(expectError(await sign(test, owner, approver.member.token, composed.policy_id, [strangerSignature]), 'policy_signature_invalid').details).toMatchObject({ reason: 'not_authorized' })

    // Another tenant's signer is a stranger here too.
    const elsewhere = await tenantWithSigners(1)
    const foreign = await signatureOf(elsewhere.signers[0]!, composed)
    expect(expectError(await sign(test, owner, approver.member.token, composed.policy_id, [foreign]), 'policy_signature_invalid').details).toMatchObject({ reason: 'not_authorized' })

    const agent = privateKeyToAccount(generatePrivateKey())
    await linkWallet(test, owner, { address: agent.address, principal_type: 'agent', principal_id: 'agt_vendor_risk' })
    const agentSignature = { address: agent.address, signature: await agent.signTypedData(composed.signing_payload) }
    expect(expectError(await sign(test, owner, approver.member.token, composed.policy_id, [agentSignature]), 'policy_signature_invalid').details).toMatchObject({ reason: 'not_authorized' })

    // A valid signature of the sibling version does not sign this one (it recovers another address).
    const overSibling = await signatureOf(approver, sibling)
    expect(expectError(await sign(test, owner, approver.member.token, composed.policy_id, [overSibling]), 'policy_signature_invalid').details).toMatchObject({ reason: 'signer_mismatch' })
    // A signature claimed for another address, and garbage.
    const claimed = { address: other.account.address, signature: (await signatureOf(approver, composed)).signature }
    expect(expectError(await sign(test, owner, approver.member.token, composed.policy_id, [claimed]), 'policy_signature_invalid').details).toMatchObject({ reason: 'signer_mismatch' })
    expect(expectError(await sign(test, owner, approver.member.token, composed.policy_id, [{ address: approver.account.address, signature: '0x1234' }]), 'policy_signature_invalid').details).toMatchObject({ reason: 'malformed_signature' })

    const mine = await signatureOf(approver, composed)
    const twice = expectError(await sign(test, owner, approver.member.token, composed.policy_id, [mine, { ...mine, address: mine.address.toLowerCase() }]), 'policy_signature_invalid')
    expect(twice.details).toMatchObject({ index: 1, reason: 'duplicate_in_request' })
    expect(await recordedSignatures(composed.policy_id)).toBe(0)

    // A deactivated member's wallet stops being a signer.
    const deactivated = await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/members/${other.member.memberId}/deactivate`, token: owner.token })
    expect(deactivated.statusCode, deactivated.body).toBe(200)
    expect(expectError(await sign(test, owner, approver.member.token, composed.policy_id, [await signatureOf(other, composed)]), 'policy_signature_invalid').details).toMatchObject({ reason: 'not_authorized' })

    // The valid one alone is recorded.
    const accepted = await sign(test, owner, approver.member.token, composed.policy_id, [mine])
    expect(accepted.statusCode, accepted.body).toBe(200)
    expect(accepted.json().activated).toBe(false)
    expect(accepted.json().warnings).toContainEqual(expect.objectContaining({ code: 'quorum_exceeds_signers' }))
  })

  it('counts an earlier signature only while its signer is still authorized: a deactivated signer\'s does not complete the quorum', async () => {
    const { owner, signers } = await tenantWithSigners(3)
    const [first, second, third] = signers as [Signer, Signer, Signer]
    const composed = await compose(test, owner, samplePolicy(), 2)
    expect((await sign(test, owner, first.member.token, composed.policy_id, [await signatureOf(first, composed)])).json().activated).toBe(false)
    const deactivated = await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/members/${first.member.memberId}/deactivate`, token: owner.token })
    expect(deactivated.statusCode, deactivated.body).toBe(200)
    // Two recorded signatures, one of them from a signer no longer authorized: not yet a quorum.
    const secondSigned = await sign(test, owner, second.member.token, composed.policy_id, [await signatureOf(second, composed)])
    expect(secondSigned.statusCode, secondSigned.body).toBe(200)
    expect(secondSigned.json()).toMatchObject({ activated: false, policy: { state: 'pending_signatures' } })
    const thirdSigned = await sign(test, owner, third.member.token, composed.policy_id, [await signatureOf(third, composed)])
    expect(thirdSigned.json()).toMatchObject({ activated: true, policy: { state: 'active' } })
    const signedEvents = await auditEvents(test, owner.tenantId, { action: 'policy.signed', entityId: composed.policy_id })
    expect(signedEvents.map((event) => event.outputs)).toEqual([
      expect.objectContaining({ signers: 1, authorized_signers: 1, activated: false }),
      expect.objectContaining({ signers: 2, authorized_signers: 1, activated: false }),
      expect.objectContaining({ signers: 3, authorized_signers: 2, activated: true }),
    ])
  })

  it('counts members, not wallets: one admin\'s two wallets are one signer, and a wallet linked for a member by someone else signs for nobody', async () => {
    const { owner, signers } = await tenantWithSigners(2)
    const [admin, second] = signers as [Signer, Signer]
    // The admin links a second wallet of their own, and (as an earlier version let them) one in the owner's name.
    const spare = privateKeyToAccount(generatePrivateKey())
    await linkWallet(test, { tenantId: owner.tenantId, token: admin.member.token }, { address: spare.address, principal_type: 'human' })
    const inOwnersName = privateKeyToAccount(generatePrivateKey())
    await test.runtime.db.orm.execute(
      sql`insert into tenant_wallets (id, tenant_id, address, principal_type, principal_id, created_by, created_at)
          values (${`wal_legacy${Date.now()}`}, ${owner.tenantId}, ${inOwnersName.address.toLowerCase()}, 'human', ${owner.userId}, ${admin.member.userId}, now())`,
    )
    const composed = await compose(test, owner, samplePolicy(), 2)
    // Two authorized members however many wallets: quorum 3 cannot be reached.
    expect((await compose(test, owner, samplePolicy(3), 3)).warnings).toContainEqual(expect.objectContaining({ code: 'quorum_exceeds_signers', message: expect.stringContaining('has 2 authorized signers') }))
    const forged = { address: inOwnersName.address, signature: await inOwnersName.signTypedData(composed.signing_payload) }
    expect(expectError(await sign(test, owner, admin.member.token, composed.policy_id, [forged]), 'policy_signature_invalid').details).toMatchObject({ reason: 'not_authorized' })

    const both = [await signatureOf(admin, composed), { address: spare.address, signature: await spare.signTypedData(composed.signing_payload) }]
    const alone = await sign(test, owner, admin.member.token, composed.policy_id, both)
    expect(alone.statusCode, alone.body).toBe(200)
    expect(alone.json()).toMatchObject({ activated: false, policy: { state: 'pending_signatures' } })
    const completed = await sign(test, owner, second.member.token, composed.policy_id, [await signatureOf(second, composed)])
    expect(completed.json()).toMatchObject({ activated: true, policy: { state: 'active' } })
    const signedEvents = await auditEvents(test, owner.tenantId, { action: 'policy.signed', entityId: composed.policy_id })
    expect(signedEvents.map((event) => event.outputs)).toEqual([
      expect.objectContaining({ signers: 2, authorized_signers: 1, activated: false }),
      expect.objectContaining({ signers: 3, authorized_signers: 2, activated: true }),
    ])
    // The gate counts so too (check 3.5): two members.
    expect(await test.runtime.policy.integrity.activePolicyIntegrity(test.runtime.db.orm, owner.tenantId)).toMatchObject({ id: composed.policy_id, quorumRequired: 2, validSignatures: 2 })
  })

  it('never activates a version on fewer members than the active version\'s quorum: one admin cannot replace a 2-of-3 policy by composing a quorum of 1', async () => {
    const { owner, signers } = await tenantWithSigners(3)
    const [admin, second, third] = signers as [Signer, Signer, Signer]
    const strict = await compose(test, owner, samplePolicy(), 2)
    await sign(test, owner, admin.member.token, strict.policy_id, [await signatureOf(admin, strict)])
    expect((await sign(test, owner, second.member.token, strict.policy_id, [await signatureOf(second, strict)])).json().activated).toBe(true)

    const lax = await compose(test, owner, samplePolicy(3), 1)
    expect(lax.warnings).toContainEqual(expect.objectContaining({ code: 'quorum_below_active', severity: 'warning' }))
    const alone = await sign(test, owner, admin.member.token, lax.policy_id, [await signatureOf(admin, lax)])
    expect(alone.statusCode, alone.body).toBe(200)
    expect(alone.json()).toMatchObject({ activated: false, policy: { state: 'pending_signatures', quorum_required: 1 } })
    expect(alone.json().warnings).toContainEqual(expect.objectContaining({ code: 'quorum_below_active' }))
    expect((await versionsOf(owner)).find((row) => row.state === 'active')?.id).toBe(strict.policy_id)
    // A second member agrees: the quorum is lowered, and from then on one signature changes it.
    const agreed = await sign(test, owner, third.member.token, lax.policy_id, [await signatureOf(third, lax)])
    expect(agreed.json()).toMatchObject({ activated: true, policy: { state: 'active', quorum_required: 1 } })
    const events = await auditEvents(test, owner.tenantId, { action: 'policy.signed', entityId: lax.policy_id })
    expect(events.map((event) => event.outputs)).toEqual([
      expect.objectContaining({ authorized_signers: 1, quorum_required: 1, quorum_needed: 2, activated: false }),
      expect.objectContaining({ authorized_signers: 2, quorum_required: 1, quorum_needed: 2, activated: true }),
    ])
    const next = await compose(test, owner, samplePolicy(), 1)
    expect(next.warnings.map((warning) => warning.code)).not.toContain('quorum_below_active')
    expect((await sign(test, owner, admin.member.token, next.policy_id, [await signatureOf(admin, next)])).json().activated).toBe(true)
  })

  it('stops counting a signer demoted to viewer, as a deactivated one', async () => {
    const { owner, signers } = await tenantWithSigners(2)
    const [admin, demoted] = signers as [Signer, Signer]
    const composed = await compose(test, owner, samplePolicy(), 2)
    const changed = await test.request({ method: 'PATCH', url: `/v1/tenants/${owner.tenantId}/members/${demoted.member.memberId}`, token: owner.token, payload: { role: 'viewer' } })
    expect(changed.statusCode, changed.body).toBe(200)
    const refused = expectError(await sign(test, owner, admin.member.token, composed.policy_id, [await signatureOf(demoted, composed)]), 'policy_signature_invalid')
    expect(refused.details).toMatchObject({ reason: 'not_authorized' })
    expect((await sign(test, owner, admin.member.token, composed.policy_id, [await signatureOf(admin, composed)])).json()).toMatchObject({
      activated: false,
      warnings: expect.arrayContaining([expect.objectContaining({ code: 'quorum_exceeds_signers', message: expect.stringContaining('has 1 authorized signer ') })]),
    })
  })

  it('counts signers submitted concurrently: both are recorded and exactly one call activates', async () => {
    const { owner, signers } = await tenantWithSigners(3)
    const composed = await compose(test, owner, samplePolicy(), 2)
    const [first, second, third] = signers as [Signer, Signer, Signer]
    const answers = await Promise.all([
      sign(test, owner, first.member.token, composed.policy_id, [await signatureOf(first, composed)]),
      sign(test, owner, second.member.token, composed.policy_id, [await signatureOf(second, composed)]),
    ])
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200])
    expect(answers.map((answer) => answer.json().activated).sort()).toEqual([false, true])
    expect(await recordedSignatures(composed.policy_id)).toBe(2)
    // The same signer twice at once: one is recorded, the other refused.
    const next = await compose(test, owner, samplePolicy(3), 3)
    const signature = await signatureOf(third, next)
    const twice = await Promise.all([sign(test, owner, third.member.token, next.policy_id, [signature]), sign(test, owner, third.member.token, next.policy_id, [signature])])
    expect(twice.map((answer) => answer.statusCode).sort()).toEqual([200, 401])
    expect(await recordedSignatures(next.policy_id)).toBe(1)
  })

  it('activating a version supersedes older pending ones, which can no longer be signed', async () => {
    const { owner, signers } = await tenantWithSigners(1)
    const [signer] = signers as [Signer]
    const older = await compose(test, owner, samplePolicy(2))
    const newer = await compose(test, owner, samplePolicy(3))
    const activated = await sign(test, owner, signer.member.token, newer.policy_id, [await signatureOf(signer, newer)])
    expect(activated.json()).toMatchObject({ activated: true, policy: { version: 3, state: 'active' } })
    expectError(await sign(test, owner, signer.member.token, older.policy_id, [await signatureOf(signer, older)]), 'policy_quorum_not_met')
    const versions = await versionsOf(owner)
    expect(versions.map((row) => [row.version, row.state, row.activated_at === null, row.deactivated_at === null])).toEqual([
      [3, 'active', false, true],
      [2, 'superseded', true, true],
      [1, 'superseded', false, false],
    ])
    // A newer pending version can still be signed afterwards, and supersedes 3.
    const next = await compose(test, owner, samplePolicy(4))
    expect((await sign(test, owner, signer.member.token, next.policy_id, [await signatureOf(signer, next)])).json()).toMatchObject({ activated: true, policy: { version: 4 } })
    expect((await versionsOf(owner)).map((row) => row.state)).toEqual(['active', 'superseded', 'superseded', 'superseded'])
  })

  it('needs policy:sign (owners do not hold it); another tenant\'s policy is 404; pages the versions', async () => {
    const { owner, signers } = await tenantWithSigners(1)
    const composed = await compose(test, owner, samplePolicy())
    const signature = await signatureOf(signers[0]!, composed)
    expectError(await sign(test, owner, owner.token, composed.policy_id, [signature]), 'auth_scope_insufficient')
    const viewer = await addMember(test, owner, 'viewer')
    expectError(await sign(test, owner, viewer.token, composed.policy_id, [signature]), 'auth_scope_insufficient')

    const other = await tenantWithSigners(1)
    // Another tenant's signer, on its own tenant's path, naming this tenant's policy: 404.
    expectError(await sign(test, other.owner, other.signers[0]!.member.token, composed.policy_id, [signature]), 'policy_not_found')
    // On this tenant's path: the guard's 403.
    expectError(await sign(test, owner, other.signers[0]!.member.token, composed.policy_id, [signature]), 'auth_tenant_mismatch')
    expectError(await sign(test, owner, signers[0]!.member.token, 'pol_00000000000000000000000000', [signature]), 'policy_not_found')
    expectError(await sign(test, owner, signers[0]!.member.token, composed.policy_id, []), 'request_body_invalid')
    expectError(await sign(test, owner, signers[0]!.member.token, 'nonsense', [signature]), 'request_body_invalid')

    for (let label = 3; label <= 5; label += 1) await compose(test, owner, samplePolicy(label))
    const page = (await test.request({ method: 'GET', url: `/v1/policy/${owner.tenantId}/versions?limit=2`, token: owner.token })).json()
    expect(page.versions.map((row: { version: number }) => row.version)).toEqual([5, 4])
    const rest = (await test.request({ method: 'GET', url: `/v1/policy/${owner.tenantId}/versions?limit=10&cursor=${encodeURIComponent(page.next_cursor)}`, token: owner.token })).json()
    expect(rest).toEqual({ versions: [expect.objectContaining({ version: 3 }), expect.objectContaining({ version: 2 }), expect.objectContaining({ version: 1 })], next_cursor: null })
    expectError(await test.request({ method: 'GET', url: `/v1/policy/${other.owner.tenantId}/versions?cursor=${encodeURIComponent(page.next_cursor)}`, token: other.owner.token }), 'invalid_cursor')
    expect((await test.request({ method: 'GET', url: `/v1/policy/${other.owner.tenantId}/versions`, token: other.owner.token })).json().versions).toHaveLength(1)
  })
})

describe('tenant deletion', () => {
  it('removes the tenant\'s versions, signatures, verdicts and wallets, and frees its wallet addresses', async () => {
    const { owner, signers } = await tenantWithSigners(1)
    const composed = await compose(test, owner, samplePolicy())
    expect((await sign(test, owner, signers[0]!.member.token, composed.policy_id, [await signatureOf(signers[0]!, composed)])).json().activated).toBe(true)
    await test.runtime.db.transaction(async (tx) => {
      const action = { kind: 'outbound_payment' as const, amount: { currency: 'EUR', value: '10' } }
      const decision = await test.runtime.policy.verdicts.evaluateActive(tx, owner.tenantId, action)
      await test.runtime.policy.verdicts.issueVerdict(tx, owner.tenantId, decision!, action)
    })
    const deleted = await test.request({ method: 'DELETE', url: `/v1/tenants/${owner.tenantId}`, token: owner.token })
    expect(deleted.statusCode, deleted.body).toBe(200)
    expect(deleted.json().deletedRows).toMatchObject({ policies: 2, policy_signatures: 1, policy_verdicts: 1, tenant_wallets: 1 })
    // The address can be linked again, by another tenant.
    const other = await signupOwner(test)
    expect((await linkWallet(test, other, { address: signers[0]!.address, principal_type: 'human' })).address).toBe(signers[0]!.address)
  })
})
