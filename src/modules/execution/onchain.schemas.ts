/** Wire schemas of the onchain_base rail's registration routes. */
import Type from 'typebox'
import { named, PathId, Strict, Timestamp } from '../../platform/http/schemas.ts'

const AnyCaseAddress = (description: string) =>
  Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: `${description} 0x and 40 hex digits, any case (mixed case must be a valid EIP-55 checksum); never the zero address.` })
const Address = (description: string) => Type.String({ pattern: '^0x[0-9a-f]{40}$', description: `${description} Lower case.` })

/** Inline: request schemas are not named. */
export const RegisterOnchainAccountBody = Strict(
  {
    account_id: Type.String({
      minLength: 1,
      maxLength: 255,
      description: "The Ledger account the smart account pays for (an intent's source_account_id); it must be the tenant's (404 ledger_account_not_found) and in USD (400 validation_failed).",
    }),
    smart_account: AnyCaseAddress('The SmartAccount contract (contracts/SmartAccount.sol) holding the USDC.'),
    token: AnyCaseAddress('The USDC contract the account pays in: it must answer decimals() = 6 on the rail\'s chain.'),
  },
  { description: 'A Ledger USD account, the smart account that pays for it and the USDC it pays in.' },
)

export const OnchainAccountParams = Strict({ account_id: PathId('onchain_account_not_found', undefined, 'The Ledger account id') })

export const OnchainAccount = named(
  'OnchainAccount',
  Strict({
    account_id: Type.String({ description: 'The Ledger account.' }),
    smart_account: Address('The SmartAccount that pays.'),
    token: Address('The USDC contract (6 decimals).'),
    chain_id: Type.Integer({ minimum: 1, description: 'The chain the rail pays on (EIP-155).' }),
    session_key_address: Address(
      "The session key Steward signs with for this account, derived from its seed (no private key is stored). The account's owner adds it on chain with addSessionKey(key, token, cap, expiry): until then gate check 12 refuses the account's payments.",
    ),
    created_at: Timestamp,
  }),
)
