/**
 * `npm run contracts:build`: compiles every contract of `contractNames` (contracts/<Name>.sol) with the
 * pinned solc npm package and writes contracts/artifacts/<Name>.json for each. The artifacts are
 * committed, and the contract tests (test/modules/audit/anchor-contract.test.ts,
 * test/modules/execution/smart-account-contract.test.ts, test/modules/agents/agent-registry-contract.test.ts)
 * check that a fresh compile reproduces them byte for byte, so they are never hand-edited and never drift
 * from the sources. Any compiler error fails the run before any artifact is written; warnings are printed.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import solc from 'solc'

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const nodeModulesRoot = join(repositoryRoot, 'node_modules')

/**
 * The contracts the build compiles. Each is the contract of the same name in contracts/<Name>.sol, and
 * is compiled on its own (one source unit per solc run), so an artifact depends only on its source and
 * what that imports: adding a contract here never changes another's bytecode.
 */
export const contractNames = ['AgentRegistry', 'AuditAnchor', 'SmartAccount', 'TestUSDC'] as const
export type ContractName = (typeof contractNames)[number]

/** The source unit name is repository-relative, so the metadata hash in the bytecode is the same on every machine. */
function sourceUnitNameOf(contractName: ContractName): string {
  return `contracts/${contractName}.sol`
}

export function artifactPathOf(contractName: ContractName): string {
  return join(repositoryRoot, 'contracts', 'artifacts', `${contractName}.json`)
}

/** AuditAnchor's artifact, the one path callers used before the build had more contracts. */
export const artifactPath = artifactPathOf('AuditAnchor')

/**
 * `paris` (the Merge) because it is the newest EVM version every EVM L2 and anvil execute: it leaves out
 * PUSH0 (Shanghai) and MCOPY/transient storage (Cancun), which some rollups adopted late or not at all,
 * and the contracts need none of them. The price is about one gas per zero constant pushed.
 */
const evmVersion = 'paris'

/**
 * Runs are set for contracts that are deployed once and then called for years (AuditAnchor for every
 * batch, a SmartAccount for every payment, AgentRegistry for every agent): runtime gas matters, deployment
 * size does not. All contracts share the settings, so there is one configuration to review; TestUSDC, a
 * test token, simply follows.
 */
const optimizerRuns = 10_000

export const compilerSettings = {
  optimizer: { enabled: true, runs: optimizerRuns },
  evmVersion,
} as const

export interface ContractArtifact {
  contractName: string
  abi: unknown[]
  bytecode: `0x${string}`
  deployedBytecode: `0x${string}`
  compiler: { version: string; settings: typeof compilerSettings }
  sourceSha256: string
}

interface SolcMessage {
  severity: 'error' | 'warning' | 'info'
  formattedMessage: string
}

interface SolcOutput {
  errors?: SolcMessage[]
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>
}

/**
 * Resolves imports for solc: `contracts/…` (a relative import, which solc has already made
 * repository-relative) from the repository, anything else (`@openzeppelin/…`) from node_modules. A path
 * that climbs out of its folder is refused, so a stray import cannot read arbitrary files into the build.
 */
function findImport(importPath: string): { contents: string } | { error: string } {
  const base = importPath.startsWith('contracts/') ? repositoryRoot : nodeModulesRoot
  const candidate = resolve(base, importPath)
  if (!candidate.startsWith(base + sep)) return { error: `import ${importPath} resolves outside ${relative(repositoryRoot, base) || '.'}` }
  try {
    return { contents: readFileSync(candidate, 'utf8') }
  } catch {
    return { error: `import ${importPath} not found at ${relative(repositoryRoot, candidate)}` }
  }
}

/** Compiles one contract and returns its artifact; throws on any compiler error. Prints warnings to stderr. */
export function compileContract(contractName: ContractName): ContractArtifact {
  const sourceUnitName = sourceUnitNameOf(contractName)
  const source = readFileSync(join(repositoryRoot, sourceUnitName), 'utf8')
  const input = {
    language: 'Solidity',
    sources: { [sourceUnitName]: { content: source } },
    settings: {
      ...compilerSettings,
      outputSelection: { [sourceUnitName]: { [contractName]: ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput
  const messages = output.errors ?? []
  const errors = messages.filter((message) => message.severity === 'error')
  for (const message of messages) {
    if (message.severity !== 'error') process.stderr.write(message.formattedMessage)
  }
  if (errors.length > 0) {
    throw new Error(`solc failed to compile ${sourceUnitName}:\n${errors.map((error) => error.formattedMessage).join('\n')}`)
  }
  const compiled = output.contracts?.[sourceUnitName]?.[contractName]
  if (compiled === undefined) throw new Error(`solc produced no output for ${sourceUnitName}:${contractName}`)
  if (compiled.evm.bytecode.object === '' || compiled.evm.deployedBytecode.object === '') {
    throw new Error(`${contractName} compiled to empty bytecode (is it abstract?)`)
  }
  // Keys are written in this fixed order so the committed file diffs well between compiles.
  return {
    contractName,
    abi: compiled.abi,
    bytecode: `0x${compiled.evm.bytecode.object}`,
    deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
    compiler: { version: solc.version() as string, settings: compilerSettings },
    sourceSha256: createHash('sha256').update(source, 'utf8').digest('hex'),
  }
}

export function compileAuditAnchor(): ContractArtifact {
  return compileContract('AuditAnchor')
}

/** The exact bytes of a committed artifact: pretty JSON with a final newline. */
export function renderArtifact(artifact: ContractArtifact): string {
  return `${JSON.stringify(artifact, null, 2)}\n`
}

function main(): void {
  // Every contract compiles before any file is written, so a failing source leaves all artifacts as they were.
  const artifacts = contractNames.map((contractName) => ({ path: artifactPathOf(contractName), artifact: compileContract(contractName) }))
  for (const { path, artifact } of artifacts) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, renderArtifact(artifact))
    console.log(`wrote ${relative(repositoryRoot, path)} (${(artifact.deployedBytecode.length - 2) / 2} bytes deployed, solc ${artifact.compiler.version})`)
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main()
