/**
 * `npm run audit:verify-proof -- <file.json | -> [--rpc <url> --contract <address>]`
 *
 * Verifies, with no access to Steward, either
 * - an action's Proof (GET /v1/proof/{action_id}): every event's hash and Merkle path, every field derived
 *   again from the events or checked against the digest an event carries, and the explanation written
 *   again; it names the first field that does not hold (src/modules/proofs/verifier.ts); or
 * - one audit event and its inclusion proof (GET /v1/audit/event/{event_id}).
 * With --rpc and --contract it also asks the AuditAnchor contract, read-only, whether each root is
 * published for the tenant and whether it accepts the proof. Exit status: 0 verified (a partial proof
 * verifies what it holds, and says it is partial), 1 does not verify, 2 usage.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { createAnchorChain, verifyEventProof, type ProofDocument } from '../src/modules/audit/index.ts'
import { verifyActionProof } from '../src/modules/proofs/index.ts'

const { values, positionals } = parseArgs({
  options: { rpc: { type: 'string' }, contract: { type: 'string' } },
  allowPositionals: true,
  strict: true,
})
const source = positionals[0]
if (source === undefined || (values.rpc === undefined) !== (values.contract === undefined)) {
  process.stderr.write('usage: npm run audit:verify-proof -- <proof.json | event.json | -> [--rpc <url> --contract <address>]\n')
  process.exit(2)
}
let document: unknown
try {
  document = JSON.parse(readFileSync(source === '-' ? 0 : source, 'utf8'))
} catch (error) {
  process.stdout.write(`FAIL  document: not JSON (${(error as Error).message})\n`)
  process.exit(1)
}
const chain =
  values.rpc === undefined || values.contract === undefined
    ? undefined
    : createAnchorChain({ rpcUrl: values.rpc, contractAddress: values.contract as `0x${string}` })

if (document !== null && typeof document === 'object' && 'action_id' in document) {
  const report = await verifyActionProof(document, chain === undefined ? {} : { chain })
  for (const check of report.checks) process.stdout.write(`${check.passed ? 'PASS' : 'FAIL'}  ${check.field}: ${check.detail}\n`)
  process.stdout.write(
    report.ok
      ? `Proof of ${report.action_id} verifies${report.complete ? '.' : ', and is partial: fetch it again once the action is final and its events are sealed.'}\n`
      : `Proof of ${report.action_id ?? '(unknown action)'} does NOT verify: ${report.failed_field} does not hold.\n`,
  )
  process.exitCode = report.ok ? 0 : 1
} else {
  const report = await verifyEventProof(document as ProofDocument, chain === undefined ? {} : { chain })
  for (const check of report.checks) process.stdout.write(`${check.passed ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}\n`)
  process.stdout.write(report.ok ? `Event ${report.event_id} verifies.\n` : `Event ${report.event_id} does NOT verify.\n`)
  process.exitCode = report.ok ? 0 : 1
}
