/**
 * `npm run audit:verify-proof -- <file.json | -> [--rpc <url> --contract <address>]`
 *
 * Verifies, with no access to Steward, either
 * - an action's Proof (GET /v1/proof/{action_id}): every event's hash and Merkle path, every field derived
 *   again from the events or checked against the digest an event carries, and the explanation written
 *   again; it names the first field that does not hold (src/modules/proofs/verifier.ts); or
 * - one audit event and its inclusion proof (GET /v1/audit/event/{event_id}).
 * With --rpc and --contract it also asks the AuditAnchor contract, read-only, whether each root is
 * published for the tenant, whether it accepts the proof, and where the last root was published.
 *
 * Exit status:
 * - 0: verifies. Every event of the action is under a Merkle root (offline, the proof is as good as
 *   those roots, which it lists; with a chain, they are the tenant's published roots).
 * - 1: does not verify; the first field that does not hold is named.
 * - 2: usage error (unknown option, unreadable file).
 * - 3: consistent, but not verified: some of the action's events are under no Merkle root yet, so what
 *   they state is bound to nothing (fetch the proof again once its batch closes), or the chain could
 *   not be asked.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { createAnchorChain, verifyEventProof, type ProofDocument } from '../src/modules/audit/index.ts'
import { verifyActionProof } from '../src/modules/proofs/index.ts'

const usage = 'usage: npm run audit:verify-proof -- <proof.json | event.json | -> [--rpc <url> --contract <address>]\n'
function usageError(message: string): never {
  process.stderr.write(`${message}\n${usage}`)
  process.exit(2)
}

let values: { rpc?: string | undefined; contract?: string | undefined }
let positionals: string[]
try {
  ;({ values, positionals } = parseArgs({ options: { rpc: { type: 'string' }, contract: { type: 'string' } }, allowPositionals: true, strict: true }))
} catch (error) {
  usageError((error as Error).message)
}
const source = positionals[0]
if (source === undefined || positionals.length > 1 || (values.rpc === undefined) !== (values.contract === undefined)) usageError('give one file (or -), and --rpc with --contract')
let text: string
try {
  text = readFileSync(source === '-' ? 0 : source, 'utf8')
} catch (error) {
  usageError(`cannot read ${source}: ${(error as Error).message}`)
}
let document: unknown
try {
  document = JSON.parse(text)
} catch (error) {
  process.stdout.write(`FAIL  document: not JSON (${(error as Error).message})\n`)
  process.exit(1)
}
const chain =
  values.rpc === undefined || values.contract === undefined
    ? undefined
    : createAnchorChain({ rpcUrl: values.rpc, contractAddress: values.contract as `0x${string}` })

try {
  if (document !== null && typeof document === 'object' && 'action_id' in document) {
    const report = await verifyActionProof(document, chain === undefined ? {} : { chain })
    for (const check of report.checks) process.stdout.write(`${check.passed ? 'PASS' : 'FAIL'}  ${check.field}: ${check.detail}\n`)
    const subject = `Proof of ${report.action_id ?? '(unknown action)'}`
    if (!report.ok) {
      process.stdout.write(`${subject} does NOT verify: ${report.failed_field} does not hold.\n`)
      process.exitCode = 1
    } else if (!report.sealed) {
      process.stdout.write(
        `${subject} is consistent but NOT verified: some of its events are under no Merkle root yet, so what they state is bound to nothing. ` +
          'Fetch it again once its batch closes.\n',
      )
      process.exitCode = 3
    } else {
      const rests = chain === undefined ? `It rests on these Merkle roots; check them with --rpc and --contract: ${report.roots.join(', ')}.` : 'Its roots are published on chain for the tenant.'
      process.stdout.write(`${subject} verifies${report.complete ? '.' : ', and is partial: fetch it again once the action is final.'} ${rests}\n`)
      process.exitCode = 0
    }
  } else {
    const report = await verifyEventProof(document as ProofDocument, chain === undefined ? {} : { chain })
    for (const check of report.checks) process.stdout.write(`${check.passed ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}\n`)
    process.stdout.write(report.ok ? `Event ${report.event_id} verifies.\n` : `Event ${report.event_id} does NOT verify.\n`)
    process.exitCode = report.ok ? 0 : 1
  }
} catch (error) {
  // The chain could not be asked (an RPC error): nothing is known to fail, nothing more is verified.
  process.stdout.write(`FAIL  chain: could not ask the chain (${(error as Error).message})\n`)
  process.exitCode = 3
}
