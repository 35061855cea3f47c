/**
 * The console's one way to Steward: the generated SDK (sdk/index.ts) against this origin, with the
 * signed-in member's token held in memory only (never in storage: a reload signs out).
 */
import { createStewardClient, StewardApiError, type Schema } from '../sdk/index.ts'

export type Principal = Schema<'Principal'>

export interface Session {
  readonly token: string
  readonly principal: Principal
  readonly email: string
  readonly expiresAt: number
}

let session: Session | undefined
const listeners = new Set<() => void>()

export const currentSession = () => session
export function setSession(next: Session | undefined): void {
  session = next
  for (const listener of listeners) listener()
}
export const onSessionChange = (listener: () => void) => listeners.add(listener)

export const api = createStewardClient({
  baseUrl: location.origin,
  bearer: () => session?.token,
})

export function can(scope: Principal['scopes'][number]): boolean {
  return session?.principal.scopes.includes(scope) ?? false
}

/** Pages of members read to find the signed-in member: 20 of 500, far more members than a business has. */
const memberPagesMax = 20
const memberPageRows = 500

/** The session's member id, looked up once per session (a user's membership of a tenant keeps its id). */
const memberIds = new WeakMap<Session, Promise<string | undefined>>()

/**
 * The signed-in member's id (`mem_…`), which approvals name (`approvals[].member_id`): the principal is the
 * user (`principal.id` is the user id), so it is the tenant's member whose `user_id` that is, from
 * `GET /v1/tenants/{tenant_id}/members` (readable by every member). Undefined when nobody, or no user, is
 * signed in, or the lookup failed: the console then offers what it would offer anyone, and the API still
 * applies the member rules.
 */
export function signedInMemberId(): Promise<string | undefined> {
  const signedIn = session
  if (signedIn === undefined || signedIn.principal.type !== 'user') return Promise.resolve(undefined)
  const known = memberIds.get(signedIn)
  if (known !== undefined) return known
  const found = findMemberOfUser(signedIn.principal.tenantId, signedIn.principal.id).catch(() => {
    // A failed lookup is not remembered: the next page asks again.
    memberIds.delete(signedIn)
    return undefined
  })
  memberIds.set(signedIn, found)
  return found
}

async function findMemberOfUser(tenantId: string, userId: string): Promise<string | undefined> {
  let cursor: string | undefined
  for (let page = 0; page < memberPagesMax; page += 1) {
    const answer = await api.GET('/v1/tenants/{tenant_id}/members', { params: { path: { tenant_id: tenantId }, query: { limit: memberPageRows, cursor } } })
    const member = answer.members.find((candidate) => candidate.user_id === userId)
    if (member !== undefined) return member.id
    if (!answer.next_cursor) return undefined
    cursor = answer.next_cursor
  }
  return undefined
}

/** Reasons the payments module gives for refusing an approval, in plain words. */
const approvalReasons: Record<string, string> = {
  actor_unresolved: 'You are not a member of this business, so you cannot approve its payments.',
  actor_inactive: 'Your membership is deactivated; an admin can reactivate it.',
  domain_not_authorized: 'Your role does not cover approving payments: an admin can add the payment approval domain to your membership.',
  actor_limit_exceeded: 'The amount is above your approval limit: someone with a higher limit has to approve it.',
  self_approval_blocked: 'You proposed or created this payment yourself: someone else has to approve it.',
  second_approval_required: 'You already approved it: a second, different member has to approve it too.',
}

/** Why a person may not decide a proposal (403 actor_unresolved, details.reason), in plain words. */
const proposalReasons: Record<string, string> = {
  actor_unresolved: 'Only a member of this business, signed in as a person, can decide a proposal: agents, API keys and services cannot.',
  actor_inactive: 'Your membership is deactivated; an admin can reactivate it.',
  domain_not_authorized: 'Your approval domains do not cover this kind of proposal: an admin can add it to your membership.',
}

/** A failure as a person should read it. */
export function describeError(error: unknown): string {
  if (error instanceof StewardApiError) {
    const reason = error.details?.reason
    if (error.code === 'actor_unresolved') return proposalReasons[typeof reason === 'string' ? reason : 'actor_unresolved'] ?? proposalReasons['actor_unresolved']!
    if (error.code === 'proposal_decision_unavailable') {
      const available = Array.isArray(error.details?.available_decisions) ? (error.details.available_decisions as unknown[]).map(String) : []
      return `That decision is not open on this proposal any more (it may have been decided meanwhile): ${available.length === 0 ? 'it takes no decision now' : `it now takes ${available.join(' or ')}`}. Reload to see where it stands.`
    }
    if (typeof reason === 'string' && approvalReasons[reason] !== undefined) return approvalReasons[reason]!
    if (error.status === 401) return 'Your session has ended: sign in again.'
    if (error.status === 429) return 'Too many requests in a short time: wait a few seconds and try again.'
    if (error.status === 403) return `Not allowed: ${error.envelope.error.message}`
    return `${error.envelope.error.message} (${error.code})`
  }
  if (error instanceof Error) return error.message
  return String(error)
}

export { StewardApiError }

/**
 * A fetch for the SDK that reports upload progress: fetch has no upload progress, XMLHttpRequest does. The
 * request is the one the SDK built (URL, headers with the bearer, the encoded body); only the transport
 * differs. `onProgress` receives bytes sent and the total.
 */
export function fetchWithUploadProgress(onProgress: (sent: number, total: number) => void): (request: Request) => Promise<Response> {
  return async (request) => {
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer()
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest()
      xhr.open(request.method, request.url)
      xhr.responseType = 'arraybuffer'
      request.headers.forEach((value, name) => xhr.setRequestHeader(name, value))
      const total = body?.byteLength ?? 0
      xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : total)
      // A small body may leave before any progress event: its upload's load says every byte was sent.
      xhr.upload.onload = () => onProgress(total, total)
      xhr.onerror = () => reject(new TypeError('Network error while uploading'))
      xhr.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'))
      xhr.onload = () => {
        const headers = new Headers()
        for (const line of xhr.getAllResponseHeaders().trim().split(/\r?\n/)) {
          const colon = line.indexOf(':')
          if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
        }
        const noBody = xhr.status === 204 || xhr.status === 304
        resolve(new Response(noBody ? null : (xhr.response as ArrayBuffer), { status: xhr.status, statusText: xhr.statusText, headers }))
      }
      xhr.send(body)
    })
  }
}
