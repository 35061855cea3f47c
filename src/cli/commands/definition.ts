/** The shape of a CLI command: its words, its options (node:util parseArgs), its help, and what it does. */
import type { ParseArgsConfig } from 'node:util'
import type { CommandContext } from '../context.ts'

export interface CommandDefinition {
  /** The words that name it: ['raw', 'upload']. */
  readonly path: readonly string[]
  readonly summary: string
  readonly usage: string
  readonly help?: string
  /** Its own options; --json, --help, --profile and --url are everyone's. */
  readonly options: NonNullable<ParseArgsConfig['options']>
  /** Operator commands use the platform secret, not a profile. */
  readonly operator?: boolean
  /** Returns the exit status. */
  run(context: CommandContext): Promise<number>
}
