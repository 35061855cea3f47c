/** Wire schemas of the wallet routes (spec, "Tenant, user, wallet"). */
import Type from 'typebox'
import { named, NextCursor, pageQuery, PathId, Strict, TenantId, TenantPathId, Timestamp } from '../../platform/http/schemas.ts'
import { prefixedIdPattern } from '../../kernel/ids.ts'
import { walletPageRows } from './wallets.service.ts'

export const LinkWalletBody = Strict({
  address: Type.String({
    pattern: '^0x[0-9a-fA-F]{40}$',
    description: '0x + 40 hex digits, any case (a mixed-case address must have a valid EIP-55 checksum); stored lower-cased.',
  }),
  principal_type: Type.Enum(['human', 'agent'], { description: 'human: the calling member\'s own wallet (it signs in as them, and is an authorized policy signer while they are active); agent: an agent\'s wallet.' }),
  principal_id: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$',
      description: "agent: the agent id (required). human: omitted, or the caller's own user id (a member links their own wallet; anyone else's is 400).",
    }),
  ),
})

export const Wallet = named('Wallet', Strict({
  id: Type.String({ pattern: prefixedIdPattern('wallet') }),
  tenant_id: TenantId,
  address: Type.String({ pattern: '^0x[0-9a-f]{40}$' }),
  principal_type: Type.Enum(['human', 'agent']),
  principal_id: Type.String(),
  created_by: Type.String(),
  created_at: Timestamp,
}))

export const WalletPathParams = Strict({ tenant_id: TenantPathId, wallet_id: PathId('wallet_not_found', 'wallet', 'The wallet id') })

export const UnlinkedWallet = named('UnlinkedWallet', Strict({
  wallet_id: Type.String({ pattern: prefixedIdPattern('wallet') }),
  address: Type.String({ pattern: '^0x[0-9a-f]{40}$' }),
  deleted: Type.Literal(true),
}))

export const WalletListQuery = Strict(pageQuery(walletPageRows))
export const WalletList = Strict({ wallets: Type.Array(Wallet), next_cursor: NextCursor })
