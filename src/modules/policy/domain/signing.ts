/**
 * What a policy signer signs, and checking what they signed.
 *
 * The content hash is keccak256 over the UTF-8 bytes of the content's RFC 8785 canonical JSON, so anyone
 * can recompute it with an off-the-shelf JCS library and a keccak256. Signers sign EIP-712 typed data that
 * binds the tenant, the policy id, the tenant's policy version, that content hash and the quorum: a
 * signature for one tenant, version or document cannot be replayed on another. The domain is fixed
 * (`Steward Policy`, version 1, chain 8453 = Base, as sign-in with a wallet): it separates these
 * signatures from every other typed data a wallet signs; nothing is sent on chain.
 */
import { keccak256, recoverTypedDataAddress, stringToBytes } from 'viem'
import { canonicalJson } from '../../../kernel/hashing.ts'
import type { PolicyContent, PolicySigningInput } from './types.ts'

export const policySigningDomain = Object.freeze({ name: 'Steward Policy', version: '1', chainId: 8453 })

/**
 * The types, EIP712Domain included: viem adds it itself, but a client that hands the payload straight to a
 * wallet's `eth_signTypedData_v4` needs it written out, or the wallet hashes the domain as an empty struct
 * and the signature verifies against nothing.
 */
export const policySigningTypes = Object.freeze({
  EIP712Domain: Object.freeze([
    Object.freeze({ name: 'name', type: 'string' }),
    Object.freeze({ name: 'version', type: 'string' }),
    Object.freeze({ name: 'chainId', type: 'uint256' }),
  ]),
  Policy: Object.freeze([
    Object.freeze({ name: 'tenantId', type: 'string' }),
    Object.freeze({ name: 'policyId', type: 'string' }),
    Object.freeze({ name: 'version', type: 'uint256' }),
    Object.freeze({ name: 'contentHash', type: 'bytes32' }),
    Object.freeze({ name: 'quorumRequired', type: 'uint256' }),
  ]),
})

/** The EIP-712 typed data of a policy version, JSON-safe (numbers, no bigint): it is returned over HTTP. */
export interface PolicySigningPayload {
  readonly domain: { readonly name: string; readonly version: string; readonly chainId: number }
  readonly types: {
    readonly EIP712Domain: readonly { readonly name: string; readonly type: string }[]
    readonly Policy: readonly { readonly name: string; readonly type: string }[]
  }
  readonly primaryType: 'Policy'
  readonly message: {
    readonly tenantId: string
    readonly policyId: string
    readonly version: number
    readonly contentHash: `0x${string}`
    readonly quorumRequired: number
  }
}

/** keccak256 of the UTF-8 of the RFC 8785 canonical JSON of the content, 0x-prefixed. */
export function policyContentHash(content: PolicyContent): `0x${string}` {
  return keccak256(stringToBytes(canonicalJson(content)))
}

/**
 * The typed data for `eth_signTypedData_v4` / viem `signTypedData`. `version` and `quorumRequired` are
 * uint256 in the type and plain numbers here (viem and wallets accept numbers for uint256), so the
 * payload survives JSON unchanged.
 */
export function policySigningPayload(input: PolicySigningInput): PolicySigningPayload {
  return {
    domain: { ...policySigningDomain },
    types: {
      EIP712Domain: policySigningTypes.EIP712Domain.map((field) => ({ ...field })),
      Policy: policySigningTypes.Policy.map((field) => ({ ...field })),
    },
    primaryType: 'Policy',
    message: {
      tenantId: input.tenantId,
      policyId: input.policyId,
      version: input.version,
      contentHash: input.contentHash,
      quorumRequired: input.quorumRequired,
    },
  }
}

const signaturePattern = /^0x[0-9a-fA-F]{128}([0-9a-fA-F]{2})?$/

/**
 * The lower-cased address that signed the policy's typed data, offline (no RPC). Undefined for a
 * malformed signature or input: verification never throws, it answers "no signer". The caller compares
 * the address with the tenant's authorized signers; a signature over other data recovers some other
 * address, which is how a tampered message fails.
 */
export async function recoverPolicySigner(input: PolicySigningInput, signature: string): Promise<`0x${string}` | undefined> {
  if (typeof signature !== 'string' || !signaturePattern.test(signature)) return undefined
  // Recovery is a pure function of the signing input and the signature, and costs about 1.8 ms of CPU
  // (secp256k1 in JavaScript); the gate verifies the active policy's signatures on every execute. So an
  // answer is remembered for exactly these bytes: anything else (another version, content hash, quorum or
  // signature) is a different key and is recovered afresh.
  const key = `${input.tenantId}|${input.policyId}|${input.version}|${input.contentHash}|${input.quorumRequired}|${signature.toLowerCase()}`
  if (recovered.has(key)) {
    const address = recovered.get(key)
    // Least recently used goes first: a hit moves to the end.
    recovered.delete(key)
    recovered.set(key, address)
    return address
  }
  const address = await recoverFresh(input, signature)
  if (recovered.size >= recoveredMax) recovered.delete(recovered.keys().next().value!)
  recovered.set(key, address)
  return address
}

/** Recoveries remembered (recoverPolicySigner), at most this many: a signed policy has a few signatures and a process serves many tenants. */
export const recoveredMax = 4_096
const recovered = new Map<string, `0x${string}` | undefined>()

async function recoverFresh(input: PolicySigningInput, signature: string): Promise<`0x${string}` | undefined> {
  const payload = policySigningPayload(input)
  try {
    const address = await recoverTypedDataAddress({
      domain: payload.domain,
      // viem derives EIP712Domain from the domain itself (the same three fields as the payload's).
      types: { Policy: [...payload.types.Policy] },
      primaryType: 'Policy',
      message: { ...payload.message, version: BigInt(payload.message.version), quorumRequired: BigInt(payload.message.quorumRequired) },
      signature: signature as `0x${string}`,
    })
    return address.toLowerCase() as `0x${string}`
  } catch {
    return undefined
  }
}
