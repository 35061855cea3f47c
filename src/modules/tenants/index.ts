/**
 * The tenants module's public face: tenants, their users and members, onboarding and deletion. Other
 * modules read it only through the directory (`TenantDirectory`); composition builds its services.
 */
export { createTenantDirectory, type PrincipalRecord, type TenantDirectory, type TenantStanding } from './directory.ts'
export { normalizeEmail } from './onboarding.service.ts'
export { memberRoles, type MemberRole } from '../../kernel/principal.ts'
export type { MemberRow, TenantRow, UserRow } from './tenants.store.ts'
export { tenantBlobPurgeQueue } from './blob-purge.job.ts'
