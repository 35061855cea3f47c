/**
 * `chain_indexer_wallet`: what the chain indexer saw for one of the tenant's wallets, envelope
 * `steward.chain_indexer.v1` (docs/provider-payloads.md): ERC-20 `Transfer` logs to or from the wallet.
 *
 * Yields the wallet as an `account` (type `onchain`) first, then one `wallet_transfer` per transfer,
 * signed from the wallet's point of view (negative when the wallet sent it; zero when it sent to
 * itself). The raw integer value is shifted by the token's decimals with bigint arithmetic, so a USDC
 * value (6 decimals) or an 18-decimal value of any size is exact. Addresses are lower-cased, so one
 * wallet is one key however the indexer checksums it. Confidence 1.
 */
import Type from 'typebox'
import { integerUnitsToDecimal } from '../../../../kernel/money.ts'
import { acceptsJsonOf, envelopeValidator, payloadItemsMax, PayloadProvider, readEnvelope } from './json-payload.ts'
import { isCalendarDate } from './dates.ts'
import { recordOutput } from './output.ts'
import type { AccountRecord, AccountRef, WalletTransferRecord } from '../../domain/extracted.ts'
import { ParseError, type Parser, type ParserInput, type ParserOutput } from '../parser.ts'

export const chainIndexerSchemaName = 'steward.chain_indexer.v1'

/** The largest value a uint256 holds: a Transfer value above it is not a Transfer value. */
const uint256Max = 2n ** 256n - 1n
/** ERC-20 `decimals()` is a uint8; no real token goes beyond this. */
const tokenDecimalsMax = 77

const Address = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' })

export const ChainIndexerPayload = Type.Object(
  {
    schema: Type.Literal(chainIndexerSchemaName),
    indexer: PayloadProvider,
    wallet: Type.Object(
      {
        address: Address,
        chain_id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
        label: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      },
      { additionalProperties: false },
    ),
    transfers: Type.Array(
      Type.Object(
        {
          tx_hash: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' }),
          log_index: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }),
          block_number: Type.Integer({ minimum: 0, maximum: 2 ** 53 - 1 }),
          /** The block's time, ISO 8601 in UTC. */
          timestamp: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z$' }),
          from: Address,
          to: Address,
          token: Type.Object(
            {
              symbol: Type.String({ pattern: '^[A-Za-z0-9.$_-]{1,32}$' }),
              address: Address,
              decimals: Type.Integer({ minimum: 0, maximum: tokenDecimalsMax }),
            },
            { additionalProperties: false },
          ),
          /** The log's raw integer value, as a decimal string (never a JSON number: it does not fit a double). */
          value: Type.String({ pattern: '^(0|[1-9][0-9]{0,77})$' }),
        },
        { additionalProperties: false },
      ),
      { maxItems: payloadItemsMax },
    ),
  },
  { additionalProperties: false },
)

const validator = envelopeValidator(chainIndexerSchemaName, ChainIndexerPayload)

function timeOfDayValid(timestamp: string): boolean {
  const [hours, minutes, seconds] = timestamp.slice(11, 19).split(':').map(Number) as [number, number, number]
  return isCalendarDate(timestamp.slice(0, 10)) && hours <= 23 && minutes <= 59 && seconds <= 59
}

export const chainIndexerParser: Parser = {
  name: 'chain_indexer_wallet',
  version: '1.0.0',
  accepts: acceptsJsonOf('chain_indexer_wallet'),
  async *parse(input: ParserInput): AsyncIterable<ParserOutput> {
    const payload = validator.check(await readEnvelope(input, chainIndexerSchemaName))
    const wallet = payload.wallet.address.toLowerCase()
    const chainId = payload.wallet.chain_id
    const accountRef: AccountRef = { wallet_address: wallet, chain_id: chainId }
    if (payload.wallet.label !== undefined) accountRef.name = payload.wallet.label
    const accountRecord: AccountRecord = { kind: 'account', account: accountRef, account_type: 'onchain' }
    yield recordOutput(accountRecord, 1)

    const seen = new Set<string>()
    for (const [index, transfer] of payload.transfers.entries()) {
      const path = `/transfers/${index}`
      const logKey = `${transfer.tx_hash.toLowerCase()}:${transfer.log_index}`
      if (seen.has(logKey)) throw new ParseError(`${path}: duplicate transfer (tx_hash ${transfer.tx_hash}, log_index ${transfer.log_index})`)
      seen.add(logKey)
      if (!timeOfDayValid(transfer.timestamp)) throw new ParseError(`${path}/timestamp: ${JSON.stringify(transfer.timestamp)} is not a valid time`)
      const value = BigInt(transfer.value)
      if (value > uint256Max) throw new ParseError(`${path}/value: larger than a uint256`)
      const from = transfer.from.toLowerCase()
      const to = transfer.to.toLowerCase()
      const incoming = to === wallet
      const outgoing = from === wallet
      if (!incoming && !outgoing) throw new ParseError(`${path}: the transfer neither comes from nor goes to wallet ${wallet}`)
      const amount = incoming && outgoing ? '0' : integerUnitsToDecimal(outgoing ? -value : value, transfer.token.decimals)
      const record: WalletTransferRecord = {
        kind: 'wallet_transfer',
        account: accountRef,
        chain_id: chainId,
        tx_hash: transfer.tx_hash.toLowerCase(),
        log_index: transfer.log_index,
        block_number: transfer.block_number,
        timestamp: transfer.timestamp,
        from,
        to,
        token: transfer.token.symbol,
        token_address: transfer.token.address.toLowerCase(),
        amount,
      }
      yield recordOutput(record, 1)
    }
  },
}
