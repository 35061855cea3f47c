import { hashTypedData, keccak256, stringToBytes } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { canonicalJson } from '../../../kernel/hashing.ts'
import { defaultPolicyContent } from './default.ts'
import { policyContentHash, policySigningPayload, recoverPolicySigner } from './signing.ts'
import type { PolicySigningInput } from './types.ts'

// Well-known test keys (anvil's first two accounts): never hold value.
const signer = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const stranger = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')

const input: PolicySigningInput = {
  tenantId: '7b1f9c2e-3d4a-4b5c-8d6e-0f1a2b3c4d5e',
  policyId: 'pol_01JZ0000000000000000000000',
  version: 2,
  contentHash: policyContentHash(defaultPolicyContent),
  quorumRequired: 2,
}

/** Signs the payload exactly as a client would after receiving it over HTTP (JSON round trip). */
async function sign(account: typeof signer, payload = policySigningPayload(input)) {
  const wire = JSON.parse(JSON.stringify(payload)) as ReturnType<typeof policySigningPayload>
  const { EIP712Domain: _domainTypes, ...types } = wire.types
  // Numbers for uint256, as the JSON payload carries them: viem accepts them (the static types want bigint).
  const typedData = { domain: wire.domain, types, primaryType: 'Policy', message: wire.message }
  return account.signTypedData(typedData as unknown as Parameters<typeof account.signTypedData>[0])
}

describe('policyContentHash', () => {
  it('is keccak256 of the UTF-8 RFC 8785 canonical JSON', () => {
    expect(policyContentHash(defaultPolicyContent)).toBe(keccak256(stringToBytes(canonicalJson(defaultPolicyContent))))
  })

  it('does not depend on key order, and changes with any value', () => {
    const reordered = { rules: defaultPolicyContent.rules, version: 1 }
    expect(policyContentHash(reordered)).toBe(policyContentHash(defaultPolicyContent))
    expect(policyContentHash({ ...defaultPolicyContent, version: 2 })).not.toBe(policyContentHash(defaultPolicyContent))
  })

  it('pins the default policy hash (a change here changes every new tenant\'s stored policy)', () => {
    expect(policyContentHash(defaultPolicyContent)).toBe('0xf2c63d390303edff3058958845dff7df6c512e6b0b8afb4b1f8ae93cd2eb56e8')
  })
})

describe('policySigningPayload', () => {
  it('is JSON-safe EIP-712 typed data binding tenant, policy, version, content hash and quorum', () => {
    const payload = policySigningPayload(input)
    expect(JSON.parse(JSON.stringify(payload))).toEqual(payload)
    expect(payload).toEqual({
      domain: { name: 'Steward Policy', version: '1', chainId: 8453 },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
        ],
        Policy: [
          { name: 'tenantId', type: 'string' },
          { name: 'policyId', type: 'string' },
          { name: 'version', type: 'uint256' },
          { name: 'contentHash', type: 'bytes32' },
          { name: 'quorumRequired', type: 'uint256' },
        ],
      },
      primaryType: 'Policy',
      message: input,
    })
  })

  it('hashes the same with or without EIP712Domain written out (wallets that need it, viem that derives it)', () => {
    const payload = policySigningPayload(input)
    const { EIP712Domain: _domainTypes, ...types } = payload.types
    expect(hashTypedData(payload as never)).toBe(hashTypedData({ ...payload, types } as never))
  })
})

describe('recoverPolicySigner', () => {
  it('recovers the lower-cased address of a real viem signature', async () => {
    const signature = await sign(signer)
    expect(await recoverPolicySigner(input, signature)).toBe(signer.address.toLowerCase())
    expect(await recoverPolicySigner(input, await sign(stranger))).toBe(stranger.address.toLowerCase())
  })

  it.each<[string, Partial<PolicySigningInput>]>([
    ['another tenant', { tenantId: '00000000-0000-4000-8000-000000000000' }],
    ['another policy', { policyId: 'pol_01JZ0000000000000000000001' }],
    ['another version', { version: 3 }],
    ['other content', { contentHash: policyContentHash({ ...defaultPolicyContent, version: 9 }) }],
    ['another quorum', { quorumRequired: 1 }],
  ])('does not recover the signer for a message tampered with: %s', async (_label, change) => {
    const signature = await sign(signer)
    const recovered = await recoverPolicySigner({ ...input, ...change }, signature)
    expect(recovered).not.toBe(signer.address.toLowerCase())
  })

  it('remembers a recovery for exactly the same input and signature, and recovers anything else afresh', async () => {
    const signature = await sign(signer)
    const other = await sign(stranger)
    const tampered: Array<Partial<PolicySigningInput>> = [{ version: 4 }, { quorumRequired: 3 }, { contentHash: policyContentHash({ ...defaultPolicyContent, version: 8 }) }]
    // Twice each, interleaved: the second round answers from what the first remembered, and must answer the same.
    for (let round = 0; round < 2; round += 1) {
      expect(await recoverPolicySigner(input, signature)).toBe(signer.address.toLowerCase())
      expect(await recoverPolicySigner(input, other)).toBe(stranger.address.toLowerCase())
      for (const change of tampered) expect(await recoverPolicySigner({ ...input, ...change }, signature)).not.toBe(signer.address.toLowerCase())
      expect(await recoverPolicySigner(input, `0x${signature.slice(2).toUpperCase()}`)).toBe(signer.address.toLowerCase())
    }
  })

  it.each(['', 'not hex', '0x1234', `0x${'zz'.repeat(65)}`, `0x${'00'.repeat(65)}`])('answers undefined for the malformed signature %j', async (signature) => {
    expect(await recoverPolicySigner(input, signature)).toBeUndefined()
  })

  it('answers undefined, not an exception, for input viem cannot encode', async () => {
    const signature = await sign(signer)
    expect(await recoverPolicySigner({ ...input, contentHash: '0x1234' }, signature)).toBeUndefined()
    expect(await recoverPolicySigner({ ...input, version: 1.5 }, signature)).toBeUndefined()
  })
})
