/** Wire schemas of the agent routes. */
import Type from 'typebox'
import { named, PathId, Strict } from '../../platform/http/schemas.ts'

const Category = Type.Enum(['business', 'consumer', 'agnostic'])

const catalogFields = {
  agent_key: Type.String({ description: 'The agent\'s id in the catalog (bill_payment, collections, …).' }),
  provenance: Type.Literal('first_party'),
  kind: Type.Literal('internal', { description: 'internal: a first-party agent.' }),
  role: Type.String({ description: 'The public proposal type it produces.' }),
  display_name: Type.String(),
  description: Type.String(),
  category: Category,
  capabilities: Type.Array(Type.String()),
  enabled_by_default: Type.Boolean(),
  version: Type.String({ description: 'The program version.' }),
  behavior_hash: Type.String({ description: 'SHA-256 (0x hex) of the agent key, program version and configuration; gate check 1.5 pins it.' }),
}

export const AgentCatalogEntry = named('AgentCatalogEntry', Strict(catalogFields))

const AgentStateField = Type.Enum(['pending_onchain', 'active', 'quarantined', 'revoked'], { description: 'The agent\'s state in your tenant (spec, "Agent state").' })

/** The spec's Agent, for an external agent registered by an operator. */
export const RegisteredAgent = named(
  'RegisteredAgent',
  Strict({
    id: Type.String(),
    kind: Type.Literal('external'),
    role: Type.String({ description: 'reader, contributor or proposer: fixes the agent\'s plain scopes and so its scope hash.' }),
    display_name: Type.String(),
    state: AgentStateField,
    scope_hash: Type.String({ description: 'keccak256 (0x hex) of the role\'s plain scopes, sorted and joined by |; the AgentRegistry contract must hold it.' }),
    onchain_address: Type.Union([Type.String(), Type.Null()], { description: 'The agent\'s wallet (lower-case hex).' }),
    registered_tx: Type.Union([Type.String(), Type.Null()], { description: 'The registering transaction: as given, then as confirmed on chain.' }),
    registered_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null until the agent is activated.' }),
    created_at: Type.String({ format: 'date-time' }),
    contribution_hold: Type.Boolean({ description: 'True while the agent\'s Raw contributions wait for a release (set by a halt).' }),
  }),
)

export const AgentList = named('AgentList', Strict({ agents: Type.Array(Type.Union([AgentCatalogEntry, RegisteredAgent])) }))

export const AgentDetail = named(
  'AgentDetail',
  Strict({
    agent_id: Type.String(),
    definition: Type.Union([
      Strict({ ...catalogFields, shadow_mode: Type.Boolean({ description: 'True while the agent is not promoted for your tenant: its money proposals end shadow_completed.' }) }),
      Type.Null(),
    ], { description: 'A first-party agent\'s catalog entry; null for a registered agent.' }),
    registration: Type.Union([RegisteredAgent, Type.Null()], { description: 'A registered agent\'s record; null for first-party agents, which are not registered on chain.' }),
    state: AgentStateField,
    contribution_hold: Type.Boolean(),
  }),
)

export const RegisterAgentBody = Strict({
  agent_id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$' }),
  role: Type.Enum(['reader', 'contributor', 'proposer'], { description: 'reader: ledger:read, wiki:read; contributor: adds raw:write; proposer: adds payment_intent:propose.' }),
  display_name: Type.String({ minLength: 1, maxLength: 200 }),
  scope_hash: Type.Optional(Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'Must equal the role\'s scope hash when given.' })),
  onchain_address: Type.Optional(Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' })),
  registered_tx: Type.Optional(Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'The AgentRegistry transaction that registered the agent, checked at activation.' })),
})

export const AgentStateView = named(
  'AgentStateView',
  Strict({ agent_id: Type.String(), state: AgentStateField, contribution_hold: Type.Boolean() }),
)

export const AgentHalt = named(
  'AgentHalt',
  Strict({ agent_id: Type.String(), state: AgentStateField, contribution_hold: Type.Boolean(), paused_payment_intent_ids: Type.Array(Type.String()) }),
)

export const AgentCategoryHalt = named('AgentCategoryHalt', Strict({ category: Category, halted: Type.Array(AgentHalt) }))

export const HaltCategoryBody = Strict({ category: Category })

export const ContributionHoldRelease = named(
  'ContributionHoldRelease',
  Strict({
    agent_id: Type.String(),
    state: AgentStateField,
    contribution_hold: Type.Boolean(),
    released: Type.Boolean({ description: 'False when there was no hold to release.' }),
    released_raw_ids: Type.Array(Type.String(), { description: 'The Raw artifacts the hold kept from the Ledger, now handed to normalization (at most 1,000 per release; a release with more leaves the rest for the next).' }),
  }),
)

export const AgentListQuery = Strict({
  kind: Type.Optional(Type.Enum(['internal', 'external'])),
  capability: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  category: Type.Optional(Category),
  state: Type.Optional(Type.Enum(['enabled', 'disabled'], { description: 'enabled: enabled by default; disabled: not.' })),
})

export const AgentParams = Strict({ agent_id: PathId('agent_not_found', undefined, 'The agent (its catalog key)') })
