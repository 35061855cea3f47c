/** Wire schemas of the agent routes. */
import Type from 'typebox'
import { named, PathId, Strict } from '../../platform/http/schemas.ts'

const Category = Type.Enum(['business', 'consumer', 'agnostic'])

const catalogFields = {
  agent_key: Type.String({ description: 'The agent\'s id in the catalog (bill_payment, collections, …).' }),
  provenance: Type.Literal('first_party'),
  kind: Type.Enum(['internal', 'external'], { description: 'internal: a first-party agent; external: registered (coming).' }),
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

export const AgentList = named('AgentList', Strict({ agents: Type.Array(AgentCatalogEntry) }))

export const AgentDetail = named(
  'AgentDetail',
  Strict({
    agent_id: Type.String(),
    definition: Strict({ ...catalogFields, shadow_mode: Type.Boolean({ description: 'True while the agent is not promoted for your tenant: its money proposals end shadow_completed.' }) }),
    registration: Type.Null({ description: 'Always null today: first-party agents are not registered on chain.' }),
  }),
)

export const AgentListQuery = Strict({
  kind: Type.Optional(Type.Enum(['internal', 'external'])),
  capability: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  category: Type.Optional(Category),
  state: Type.Optional(Type.Enum(['enabled', 'disabled'], { description: 'enabled: enabled by default; disabled: not.' })),
})

export const AgentParams = Strict({ agent_id: PathId('agent_not_found', undefined, 'The agent (its catalog key)') })
