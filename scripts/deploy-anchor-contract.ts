/**
 * `npm run contracts:deploy`: deploys AuditAnchor from contracts/artifacts/AuditAnchor.json to the chain at
 * CHAIN_RPC_URL, signed with ANCHOR_PRIVATE_KEY, which becomes the contract's publisher. Prints the address
 * to put in ANCHOR_CONTRACT_ADDRESS (docs/anchoring.md).
 */
import { deployAnchorContract } from '../src/modules/audit/chain/anchor-contract.ts'

/** Deployment waits for one transaction; a slow public RPC gets more time than the worker's default. */
const deployRequestTimeoutMs = 30_000

async function main(): Promise<void> {
  const rpcUrl = process.env.CHAIN_RPC_URL
  const privateKey = process.env.ANCHOR_PRIVATE_KEY
  const problems: string[] = []
  if (rpcUrl === undefined || !/^https?:\/\//.test(rpcUrl)) problems.push('CHAIN_RPC_URL must be an http(s) URL of the chain RPC')
  if (privateKey === undefined || !/^0x[0-9a-fA-F]{64}$/.test(privateKey)) problems.push('ANCHOR_PRIVATE_KEY must be a 0x-prefixed 32-byte hex private key')
  if (problems.length > 0) {
    console.error(problems.join('\n'))
    process.exit(1)
  }
  const { address, txHash } = await deployAnchorContract({
    rpcUrl: rpcUrl!,
    privateKey: privateKey as `0x${string}`,
    requestTimeoutMs: deployRequestTimeoutMs,
  })
  console.error(`AuditAnchor deployed in transaction ${txHash}; its publisher is the ANCHOR_PRIVATE_KEY account.`)
  // The address alone on stdout, so that `ANCHOR_CONTRACT_ADDRESS=$(npm run -s contracts:deploy)` works.
  console.log(address)
}

await main()
