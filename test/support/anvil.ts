/**
 * A throwaway local chain for tests: anvil on a free port, with its standard funded dev accounts. Start
 * it once per test file; `stop()` (or the test process exiting) kills it.
 *
 * The binary comes from the platform package `@foundry-rs/anvil-linux-amd64` (an optional dependency:
 * the registry these machines use carries no other platform's build, so the `@foundry-rs/anvil` wrapper
 * package cannot be locked for `npm ci`; see docs/decisions.md). Elsewhere, install anvil and put it on
 * PATH. This process is anvil's parent and anvil runs in its own process group, so a SIGKILL at exit
 * reaches it rather than orphaning it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { createRequire } from 'node:module'
import { toHex, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'

const platformArchitectures: Readonly<Record<string, string>> = { x64: 'amd64', arm64: 'arm64' }

/** Anvil's documented dev mnemonic; its accounts are funded with 10,000 ETH each. */
const anvilMnemonic = 'test test test test test test test test test test test junk'
const devAccountsCount = 2

/** Anvil is ready in about 0.15 s; this is generous for a loaded CI machine. */
const readyWaitMsMax = 15_000
const readyPollIntervalMs = 50
const stopWaitMsMax = 5_000
/** Finding a free port and binding it are two steps, so another process can take it in between. */
const startAttemptsMax = 3

export interface Anvil {
  readonly rpcUrl: string
  readonly chainId: number
  /** Funded dev keys, checked against anvil's own `eth_accounts`. */
  readonly privateKeys: Hex[]
  stop(): Promise<void>
}

export async function startAnvil(): Promise<Anvil> {
  let lastError: unknown
  for (let attempt = 1; attempt <= startAttemptsMax; attempt += 1) {
    try {
      return await startOnce(await freePort())
    } catch (error) {
      lastError = error
    }
  }
  throw new Error(`anvil did not start after ${startAttemptsMax} attempts`, { cause: lastError })
}

async function startOnce(port: number): Promise<Anvil> {
  const child = spawn(anvilExecutable(), ['--host', '127.0.0.1', '--port', String(port), '--silent'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  })
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const killOnExit = () => signalGroup(child, 'SIGKILL')
  process.once('exit', killOnExit)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const rpcUrl = `http://127.0.0.1:${port}`

  const stop = async () => {
    process.removeListener('exit', killOnExit)
    await stopChild(child, exited)
  }

  try {
    const chainId = await waitUntilReady(rpcUrl, child, () => stderr)
    const privateKeys = await devPrivateKeys(rpcUrl)
    return { rpcUrl, chainId, privateKeys, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

function anvilExecutable(): string {
  const architecture = platformArchitectures[process.arch]
  const binaryName = process.platform === 'win32' ? 'anvil.exe' : 'anvil'
  try {
    return createRequire(import.meta.url).resolve(`@foundry-rs/anvil-${process.platform}-${architecture}/bin/${binaryName}`)
  } catch {
    // No platform package for this machine: an anvil on PATH (foundryup, or a package manager).
    return 'anvil'
  }
}

/** Signals anvil's process group (the wrapper and the binary it started, when the wrapper is used). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, signal)
    else child.kill(signal)
  } catch {
    // The group is already gone.
  }
}

async function waitUntilReady(rpcUrl: string, child: ChildProcess, stderr: () => string): Promise<number> {
  const deadline = Date.now() + readyWaitMsMax
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`anvil exited (${child.exitCode ?? child.signalCode}) before it was ready: ${stderr()}`)
    }
    try {
      return Number(BigInt(await rpc<string>(rpcUrl, 'eth_chainId')))
    } catch {
      await new Promise((resolve) => setTimeout(resolve, readyPollIntervalMs))
    }
  }
  throw new Error(`anvil at ${rpcUrl} was not ready within ${readyWaitMsMax} ms: ${stderr()}`)
}

/** Derived from the mnemonic rather than pasted, and refused unless anvil funds exactly these accounts. */
async function devPrivateKeys(rpcUrl: string): Promise<Hex[]> {
  const accounts = await rpc<string[]>(rpcUrl, 'eth_accounts')
  const privateKeys: Hex[] = []
  for (let addressIndex = 0; addressIndex < devAccountsCount; addressIndex += 1) {
    const account = mnemonicToAccount(anvilMnemonic, { addressIndex })
    const privateKey = account.getHdKey().privateKey
    if (privateKey === null) throw new Error(`dev account ${addressIndex} has no private key`)
    if (accounts[addressIndex]?.toLowerCase() !== account.address.toLowerCase()) {
      throw new Error(`anvil account ${addressIndex} is ${accounts[addressIndex]}, expected ${account.address} from the dev mnemonic`)
    }
    privateKeys.push(toHex(privateKey))
  }
  return privateKeys
}

async function rpc<T>(rpcUrl: string, method: string): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
    signal: AbortSignal.timeout(readyWaitMsMax),
  })
  const body = (await response.json()) as { result?: T; error?: { message: string } }
  if (body.error !== undefined || body.result === undefined) throw new Error(`${method}: ${body.error?.message ?? 'no result'}`)
  return body.result
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : undefined
      server.close(() => (port === undefined ? reject(new Error('no port assigned')) : resolve(port)))
    })
  })
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  signalGroup(child, 'SIGTERM')
  const timedOut = await Promise.race([
    exited.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), stopWaitMsMax).unref()),
  ])
  if (timedOut) {
    signalGroup(child, 'SIGKILL')
    await exited
  }
}
