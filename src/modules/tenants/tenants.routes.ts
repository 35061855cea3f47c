/**
 * Tenant routes: self-serve onboarding (public, behind the signup flag), platform provisioning, tenant
 * read and deletion, and members.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { contextOf } from '../../platform/http/context.ts'
import { bearerRoute, platformRoute, publicRoute } from '../../platform/http/route-auth.ts'
import { TenantPathParams } from '../../platform/http/schemas.ts'
import type { MembersService } from './members.service.ts'
import type { OnboardingService } from './onboarding.service.ts'
import type { TenantsService } from './tenants.service.ts'
import {
  AcceptInvitationBody,
  AcceptInvitationResponse,
  DeleteTenantParams,
  DeletionResponse,
  InviteBody,
  InviteResponse,
  Member,
  MemberListQuery,
  MemberListResponse,
  MemberPathParams,
  OrgPathParams,
  ProvisionBody,
  ProvisionResponse,
  SignupBody,
  SignupResponse,
  Tenant,
  UpdateMemberBody,
  VerifyEmailBody,
  VerifyEmailResponse,
} from './tenants.schemas.ts'

export interface TenantRoutesOptions {
  readonly onboarding: OnboardingService
  readonly tenants: TenantsService
  readonly members: MembersService
  readonly selfServeSignup: boolean
}

const tags = { onboarding: ['Onboarding'], tenants: ['Tenants'], members: ['Members'] }

export const tenantRoutes: FastifyPluginAsyncTypebox<TenantRoutesOptions> = async (app, options) => {
  const { onboarding, tenants, members } = options
  // With the signup flag off, signup and verify-email do not exist: 404 like any unknown route (spec).
  if (options.selfServeSignup) registerSelfServeOnboarding(app, onboarding)

  app.post(
    '/v1/auth/accept-invitation',
    {
      config: { auth: publicRoute('accept-invitation') },
      schema: {
        tags: tags.onboarding,
        summary: 'Accept a member invitation',
        description: 'Consumes an invitation token (single use, 7 days, valid only for its tenant), sets the password and activates the member.',
        body: AcceptInvitationBody,
        response: { 200: AcceptInvitationResponse },
      },
    },
    async (request) => onboarding.acceptInvitation(request.body, contextOf(request)),
  )

  const provisionSchema = {
    tags: tags.tenants,
    description:
      'Platform provisioning (X-Platform-Service-Auth). Links the tenant to a platform identity when given: an identity already linked answers 409 tenant_identity_already_linked with details.tenant_id. With owner_email, an owner is invited.',
    body: ProvisionBody,
    response: { 201: ProvisionResponse },
    security: [{ platformServiceAuth: [] }],
  }

  app.post(
    '/v1/tenants',
    { config: { auth: platformRoute() }, schema: { ...provisionSchema, summary: 'Provision a tenant' } },
    async (request, reply) => reply.code(201).send(await tenants.provision(request.body, null, contextOf(request))),
  )

  app.post(
    '/v1/orgs/:orgId/tenants',
    { config: { auth: platformRoute() }, schema: { ...provisionSchema, summary: 'Provision a tenant in an org', params: OrgPathParams } },
    async (request, reply) => reply.code(201).send(await tenants.provision(request.body, request.params.orgId, contextOf(request))),
  )

  app.get(
    '/v1/tenants/:tenant_id',
    {
      config: { auth: bearerRoute([], { tenantParam: 'tenant_id' }) },
      schema: { tags: tags.tenants, summary: 'Read your tenant', params: TenantPathParams, response: { 200: Tenant } },
    },
    async (request) => tenants.get(request.params.tenant_id),
  )

  app.delete(
    '/v1/tenants/:id',
    {
      config: { auth: bearerRoute([], { principalTypes: ['user'], roles: ['owner'], tenantParam: 'id' }) },
      schema: {
        tags: tags.tenants,
        summary: 'Delete your tenant',
        description:
          'Owner only, own tenant only. Deletes every tenant-scoped row except the audit chain, records tenant.deleted with the per-table counts, and enqueues a durable purge of stored bytes.',
        params: DeleteTenantParams,
        response: { 200: DeletionResponse },
      },
    },
    async (request) => tenants.delete(request.params.id, contextOf(request)),
  )

  const memberAdmin = bearerRoute(['surfaces:admin'], { principalTypes: ['user'], tenantParam: 'tenant_id' })
  const memberRead = bearerRoute([], { principalTypes: ['user'], tenantParam: 'tenant_id' })

  app.post(
    '/v1/tenants/:tenant_id/members',
    {
      config: { auth: memberAdmin },
      schema: {
        tags: tags.members,
        summary: 'Invite a member',
        description: 'Creates an invited member with a role, approval domains and an optional per-item approval limit. Emits member.changed.',
        params: TenantPathParams,
        body: InviteBody,
        response: { 201: InviteResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await members.invite(request.params.tenant_id, request.body, contextOf(request))),
  )

  app.get(
    '/v1/tenants/:tenant_id/members',
    {
      config: { auth: memberRead },
      schema: { tags: tags.members, summary: 'List members', params: TenantPathParams, querystring: MemberListQuery, response: { 200: MemberListResponse } },
    },
    async (request) => members.list(request.params.tenant_id, request.query),
  )

  app.get(
    '/v1/tenants/:tenant_id/members/:member_id',
    {
      config: { auth: memberRead },
      schema: { tags: tags.members, summary: 'Read a member', params: MemberPathParams, response: { 200: Member } },
    },
    async (request) => members.get(request.params.tenant_id, request.params.member_id),
  )

  app.patch(
    '/v1/tenants/:tenant_id/members/:member_id',
    {
      config: { auth: memberAdmin },
      schema: {
        tags: tags.members,
        summary: 'Change a member',
        description: 'Changes role, approval domains or approval limit (null removes the limit). The owner and your own membership cannot be changed here.',
        params: MemberPathParams,
        body: UpdateMemberBody,
        response: { 200: Member },
      },
    },
    async (request) => members.update(request.params.tenant_id, request.params.member_id, request.body, contextOf(request)),
  )

  app.post(
    '/v1/tenants/:tenant_id/members/:member_id/deactivate',
    {
      config: { auth: memberAdmin },
      schema: {
        tags: tags.members,
        summary: 'Deactivate a member',
        description: 'The member\'s tokens stop working immediately. Idempotent.',
        params: MemberPathParams,
        response: { 200: Member },
      },
    },
    async (request) => members.deactivate(request.params.tenant_id, request.params.member_id, contextOf(request)),
  )

  app.post(
    '/v1/tenants/:tenant_id/members/:member_id/reactivate',
    {
      config: { auth: memberAdmin },
      schema: {
        tags: tags.members,
        summary: 'Reactivate a member',
        description: 'Undoes a deactivation: back to active, or invited if the invitation was never accepted. Idempotent.',
        params: MemberPathParams,
        response: { 200: Member },
      },
    },
    async (request) => members.reactivate(request.params.tenant_id, request.params.member_id, contextOf(request)),
  )
}

function registerSelfServeOnboarding(fastify: FastifyInstance, onboarding: OnboardingService): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  app.post(
    '/v1/signup',
    {
      config: { auth: publicRoute('signup') },
      schema: {
        tags: tags.onboarding,
        summary: 'Sign up a sandbox tenant',
        description: 'Creates a tenant and its pending owner. Outside production the email-verification token is returned; in production it is mailed.',
        body: SignupBody,
        response: { 201: SignupResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await onboarding.signup(request.body, contextOf(request))),
  )

  app.post(
    '/v1/auth/verify-email',
    {
      config: { auth: publicRoute('verify-email') },
      schema: {
        tags: tags.onboarding,
        summary: 'Verify an email address',
        description: 'Consumes a verification token (single use, 24 hours, valid only for its tenant) and activates the user.',
        body: VerifyEmailBody,
        response: { 200: VerifyEmailResponse },
      },
    },
    async (request) => onboarding.verifyEmail(request.body, contextOf(request)),
  )
}
