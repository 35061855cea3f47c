/**
 * `npm run audit:verify-proof -- <event.json | -> [--rpc <url> --contract <address>]`
 *
 * Verifies an audit event and its inclusion proof with no access to Steward: the input is the JSON that
 * GET /v1/audit/event/{event_id} returned (a file, or standard input with `-`). With --rpc and
 * --contract it also asks the AuditAnchor contract, read-only, whether the root is published for the
 * tenant and whether it accepts the proof. Prints a report; exit status 0 when every check passes.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { createAnchorChain } from '../src/modules/audit/chain/anchor-contract.ts'
import { verifyEventProof, type ProofDocument } from '../src/modules/audit/verifier.ts'

const { values, positionals } = parseArgs({
  options: { rpc: { type: 'string' }, contract: { type: 'string' } },
  allowPositionals: true,
  strict: true,
})
const source = positionals[0]
if (source === undefined || (values.rpc === undefined) !== (values.contract === undefined)) {
  process.stderr.write('usage: npm run audit:verify-proof -- <event.json | -> [--rpc <url> --contract <address>]\n')
  process.exit(2)
}
const document = JSON.parse(readFileSync(source === '-' ? 0 : source, 'utf8')) as ProofDocument
const chain =
  values.rpc === undefined || values.contract === undefined
    ? undefined
    : createAnchorChain({ rpcUrl: values.rpc, contractAddress: values.contract as `0x${string}` })
const report = await verifyEventProof(document, chain === undefined ? {} : { chain })
for (const check of report.checks) process.stdout.write(`${check.passed ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}\n`)
process.stdout.write(report.ok ? `Event ${report.event_id} verifies.\n` : `Event ${report.event_id} does NOT verify.\n`)
process.exitCode = report.ok ? 0 : 1
