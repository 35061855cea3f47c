/**
 * The audit module's public face: the recorder every module writes through (as the platform's
 * AuditRecorder sink), and what other modules may ask of it.
 */
export { createAuditRecorder } from './audit.recorder.ts'
export { createAuditBlobReferences, type AuditBlobReferences } from './blob-references.ts'
export { auditQueues } from './audit.jobs.ts'
