/**
 * The proposals module (issue 20): the read model over agent output — every agent proposal as the spec's
 * Proposal with its type, status, risk band, policy decision, presentation and available decisions
 * (GET /v1/proposals, GET /v1/proposals/{id}) — deciding on proposals under the member rules (POST
 * /v1/proposals/{id}/decide; money through the payments module, findings recorded here), and evidence
 * resolve (POST /v1/evidence/resolve), with their agent-protocol tools (docs/proposals.md).
 */
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { RpcContribution } from '../../platform/rpc/contributions.ts'
import { createDecideService, type DecideService } from './decide.service.ts'
import { createEvidenceService, type EvidenceService } from './evidence.service.ts'
import type { ProposalsAgents, ProposalsEvidence, ProposalsMembers, ProposalsPayments, ProposalsPolicy } from './ports.ts'
import { proposalsRpc } from './proposals.rpc.ts'
import { createProposalsStore } from './proposals.store.pg.ts'
import { createReadService, type ReadService } from './read.service.ts'

export { proposalRoutes } from './proposals.routes.ts'
export { proposalsRpc } from './proposals.rpc.ts'
export { proposalsTenantData } from './proposals.tables.ts'
export { resolveProposalType, publicProposalTypes, proposalStatuses, type ProposalType, type ProposalStatus } from './domain/types.ts'
export type { ProposalIntent, ProposalsAgents, ProposalsEvidence, ProposalsMember, ProposalsMembers, ProposalsPayments, ProposalsPolicy } from './ports.ts'
export type { DecideService } from './decide.service.ts'
export type { EvidenceService } from './evidence.service.ts'
export type { ProposalView, ReadService } from './read.service.ts'

export interface Proposals {
  readonly read: ReadService
  readonly decide: DecideService
  readonly evidence: EvidenceService
  /** proposals.list, proposals.get, proposals.decide, evidence.resolve. */
  readonly rpc: RpcContribution
}

export function createProposals(deps: {
  db: Database
  commands: CommandRunner
  cursors: CursorCodec
  ids: IdSource
  clock: Clock
  agents: ProposalsAgents
  payments: ProposalsPayments
  policy: ProposalsPolicy
  members: ProposalsMembers
  evidence: ProposalsEvidence
}): Proposals {
  const store = createProposalsStore()
  const read = createReadService({ db: deps.db, store, cursors: deps.cursors, agents: deps.agents, payments: deps.payments, policy: deps.policy })
  const decide = createDecideService({ commands: deps.commands, store, agents: deps.agents, payments: deps.payments, members: deps.members, read, ids: deps.ids, clock: deps.clock })
  const evidence = createEvidenceService({ evidence: deps.evidence })
  return { read, decide, evidence, rpc: proposalsRpc({ read, decide, evidence }) }
}
