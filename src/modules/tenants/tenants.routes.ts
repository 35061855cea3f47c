/**
 * Tenant routes: self-serve onboarding (public, behind the signup flag), platform provisioning, tenant
 * read and deletion, and members.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { contextOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute, platformRoute, publicRoute } from '../../platform/http/route-auth.ts'
import { TenantPathParams, registerNamedSchemas } from '../../platform/http/schemas.ts'
import type { MembersService } from './members.service.ts'
import type { OnboardingService } from './onboarding.service.ts'
import type { TenantsService } from './tenants.service.ts'
import {
  AcceptInvitationBody,
  AcceptInvitationResponse,
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
import * as tenantsSchemas from './tenants.schemas.ts'

export interface TenantRoutesOptions {
  readonly onboarding: OnboardingService
  readonly tenants: TenantsService
  readonly members: MembersService
  readonly selfServeSignup: boolean
}

const tags = { onboarding: ['Onboarding'], tenants: ['Tenants'], members: ['Members'] }

export const tenantRoutes: FastifyPluginAsyncTypebox<TenantRoutesOptions> = async (app, options) => {
  // The named response schemas (Transaction, Member, …): OpenAPI components, referred to by $ref.
  registerNamedSchemas(app, [...Object.values(tenantsSchemas)])
  const { onboarding, tenants, members } = options
  // With the signup flag off, signup and verify-email do not exist: 404 like any unknown route (spec).
  if (options.selfServeSignup) registerSelfServeOnboarding(app, onboarding)

  app.post(
    '/v1/auth/accept-invitation',
    {
      config: { auth: publicRoute('accept-invitation') },
      schema: {
        operationId: 'acceptInvitation',
        tags: tags.onboarding,
        summary: 'Accept a member invitation',
        description:
          'Consumes an invitation token (single use, 7 days, valid only for its tenant), sets the password and activates the member. ' +
          'Optional Idempotency-Key, scoped to the tenant_id of the body: a repeated request gets the first response, where the token would otherwise be spent.',
        headers: IdempotencyKeyHeaders,
        body: AcceptInvitationBody,
        response: { 200: AcceptInvitationResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await onboarding.acceptInvitation(contextOf(request), request.body)
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  const provisionSchema = {
    tags: tags.tenants,
    description:
      'Platform provisioning (X-Platform-Service-Auth). Links the tenant to a platform identity when given: an identity already linked answers 409 tenant_identity_already_linked with details.tenant_id. With owner_email, an owner is invited. ' +
      'Optional Idempotency-Key (the platform\'s keys, shared by both provisioning routes): a repeated request gets the first response, with the tenant as it is now (404 tenant_not_found once it has been deleted).',
    headers: IdempotencyKeyHeaders,
    body: ProvisionBody,
    response: { 201: ProvisionResponse },
    security: [{ platformServiceAuth: [] }],
  }

  app.post(
    '/v1/tenants',
    { config: { auth: platformRoute() }, schema: { operationId: 'provisionTenant', ...provisionSchema, summary: 'Provision a tenant' } },
    async (request, reply) => {
      const { outcome, replayed } = await tenants.provision(contextOf(request), { ...request.body, org_id: null })
      return markReplayed(reply, replayed).code(201).send(outcome)
    },
  )

  app.post(
    '/v1/orgs/:orgId/tenants',
    { config: { auth: platformRoute() }, schema: { operationId: 'provisionOrgTenant', ...provisionSchema, summary: 'Provision a tenant in an org', params: OrgPathParams } },
    async (request, reply) => {
      const { outcome, replayed } = await tenants.provision(contextOf(request), { ...request.body, org_id: request.params.orgId })
      return markReplayed(reply, replayed).code(201).send(outcome)
    },
  )

  app.get(
    '/v1/tenants/:tenant_id',
    {
      config: { auth: bearerRoute([], { tenantParam: 'tenant_id' }) },
      schema: { operationId: 'getTenant', tags: tags.tenants, summary: 'Read your tenant', params: TenantPathParams, response: { 200: Tenant } },
    },
    async (request) => tenants.get(request.params.tenant_id),
  )

  app.delete(
    '/v1/tenants/:tenant_id',
    {
      config: { auth: bearerRoute([], { principalTypes: ['user'], roles: ['owner'], tenantParam: 'tenant_id' }) },
      schema: {
        operationId: 'deleteTenant',
        tags: tags.tenants,
        summary: 'Delete your tenant',
        description:
          'Owner only, own tenant only. Deletes every tenant-scoped row except the audit chain, records tenant.deleted with the per-table counts, and enqueues a durable purge of stored bytes. ' +
          'No Idempotency-Key: once the tenant is deleted its owner\'s token no longer authenticates, so a retry after success is 401 auth_token_invalid.',
        params: TenantPathParams,
        response: { 200: DeletionResponse },
      },
    },
    async (request) => tenants.delete(contextOf(request), { tenant_id: request.params.tenant_id }),
  )

  const memberAdmin = bearerRoute(['surfaces:admin'], { principalTypes: ['user'], tenantParam: 'tenant_id' })
  const memberRead = bearerRoute([], { principalTypes: ['user'], tenantParam: 'tenant_id' })

  app.post(
    '/v1/tenants/:tenant_id/members',
    {
      config: { auth: memberAdmin },
      schema: {
        operationId: 'inviteMember',
        tags: tags.members,
        summary: 'Invite a member',
        description:
          'Creates an invited member with a role, approval domains and an optional per-item approval limit. Emits member.changed. ' +
          'Optional Idempotency-Key: a repeated request gets the first response (outside production, the same invitation token).',
        params: TenantPathParams,
        headers: IdempotencyKeyHeaders,
        body: InviteBody,
        response: { 201: InviteResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await members.invite(contextOf(request), { ...request.params, ...request.body })
      return markReplayed(reply, replayed).code(201).send(outcome)
    },
  )

  app.get(
    '/v1/tenants/:tenant_id/members',
    {
      config: { auth: memberRead },
      schema: { operationId: 'listMembers', tags: tags.members, summary: 'List members', params: TenantPathParams, querystring: MemberListQuery, response: { 200: MemberListResponse } },
    },
    async (request) => members.list(request.params.tenant_id, request.query),
  )

  app.get(
    '/v1/tenants/:tenant_id/members/:member_id',
    {
      config: { auth: memberRead },
      schema: { operationId: 'getMember', tags: tags.members, summary: 'Read a member', params: MemberPathParams, response: { 200: Member } },
    },
    async (request) => members.get(request.params.tenant_id, request.params.member_id),
  )

  app.patch(
    '/v1/tenants/:tenant_id/members/:member_id',
    {
      config: { auth: memberAdmin },
      schema: {
        operationId: 'updateMember',
        tags: tags.members,
        summary: 'Change a member',
        description:
          'Changes role, approval domains or approval limit (null removes the limit). The owner and your own membership cannot be changed here. ' +
          'Optional Idempotency-Key: a repeated request gets the first response.',
        params: MemberPathParams,
        headers: IdempotencyKeyHeaders,
        body: UpdateMemberBody,
        response: { 200: Member },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await members.update(contextOf(request), { ...request.params, ...request.body })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/tenants/:tenant_id/members/:member_id/deactivate',
    {
      config: { auth: memberAdmin },
      schema: {
        operationId: 'deactivateMember',
        tags: tags.members,
        summary: 'Deactivate a member',
        description: 'The member\'s tokens stop working immediately. Idempotent. Optional Idempotency-Key: a repeated request gets the first response.',
        params: MemberPathParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: Member },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await members.deactivate(contextOf(request), request.params)
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/tenants/:tenant_id/members/:member_id/reactivate',
    {
      config: { auth: memberAdmin },
      schema: {
        operationId: 'reactivateMember',
        tags: tags.members,
        summary: 'Reactivate a member',
        description:
          'Undoes a deactivation: back to active, or invited if the invitation was never accepted. Idempotent. Optional Idempotency-Key: a repeated request gets the first response.',
        params: MemberPathParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: Member },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await members.reactivate(contextOf(request), request.params)
      return markReplayed(reply, replayed).send(outcome)
    },
  )
}

function registerSelfServeOnboarding(fastify: FastifyInstance, onboarding: OnboardingService): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  app.post(
    '/v1/signup',
    {
      config: { auth: publicRoute('signup') },
      schema: {
        operationId: 'signUp',
        tags: tags.onboarding,
        summary: 'Sign up a sandbox tenant',
        description:
          'Creates a tenant and its pending owner. Outside production the email-verification token is returned; in production it is mailed. ' +
          'No Idempotency-Key (there is no tenant to scope it yet): a repeated signup is 409 signup_email_taken.',
        body: SignupBody,
        response: { 201: SignupResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await onboarding.signup(contextOf(request), request.body)),
  )

  app.post(
    '/v1/auth/verify-email',
    {
      config: { auth: publicRoute('verify-email') },
      schema: {
        operationId: 'verifyEmail',
        tags: tags.onboarding,
        summary: 'Verify an email address',
        description:
          'Consumes a verification token (single use, 24 hours, valid only for its tenant) and activates the user. ' +
          'Optional Idempotency-Key, scoped to the tenant_id of the body: a repeated request gets the first response, where the token would otherwise be spent.',
        headers: IdempotencyKeyHeaders,
        body: VerifyEmailBody,
        response: { 200: VerifyEmailResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await onboarding.verifyEmail(contextOf(request), request.body)
      return markReplayed(reply, replayed).send(outcome)
    },
  )
}
