/**
 * The Steward console: a single-page app over the public API (the generated SDK), routed by the URL
 * fragment (#/ledger/transactions), rendered with plain DOM calls (dom.ts: text only, never HTML).
 */
import { api, currentSession, describeError, onSessionChange, setSession } from './api.ts'
import { h, replace, type Child } from './dom.ts'
import { homePage } from './pages/home.ts'
import { accountsPage, counterpartiesPage, invoicesPage, obligationsPage, matchesPage, transactionPage, transactionsPage, entityPage } from './pages/ledger.ts'
import { rawPage, importsPage } from './pages/imports.ts'
import { approvalsPage, paymentIntentPage, proposalPage } from './pages/approvals.ts'
import { auditPage, proofPage } from './pages/proofs.ts'
import { agentsPage, membersPage, policyPage, webhooksPage } from './pages/admin.ts'

export type Page = (params: Record<string, string>, query: URLSearchParams) => Promise<Child> | Child

interface Route {
  readonly pattern: RegExp
  readonly names: readonly string[]
  readonly page: Page
  readonly title: string
}

const routes: Route[] = []
function route(path: string, title: string, page: Page) {
  const names: string[] = []
  const pattern = new RegExp(`^${path.replace(/:([a-z_]+)/g, (_match, name: string) => (names.push(name), '([^/]+)'))}$`)
  routes.push({ pattern, names, page, title })
}

route('/home', 'Home', homePage)
route('/ledger/transactions', 'Transactions', transactionsPage)
route('/ledger/transactions/:id', 'Transaction', transactionPage)
route('/ledger/accounts', 'Accounts', accountsPage)
route('/ledger/counterparties', 'Counterparties', counterpartiesPage)
route('/ledger/invoices', 'Invoices', invoicesPage)
route('/ledger/obligations', 'Obligations', obligationsPage)
route('/ledger/matches', 'Reconciliation', matchesPage)
route('/ledger/:kind/:id', 'Record', entityPage)
route('/imports', 'Imports', importsPage)
route('/raw/:id', 'Raw file', rawPage)
route('/approvals', 'Approvals', approvalsPage)
route('/payment-intents/:id', 'Payment', paymentIntentPage)
route('/proposals/:id', 'Proposal', proposalPage)
route('/proofs/:id', 'Proof', proofPage)
route('/proofs', 'Proof', proofPage)
route('/audit', 'Audit', auditPage)
route('/policy', 'Policy', policyPage)
route('/agents', 'Agents', agentsPage)
route('/webhooks', 'Webhooks', webhooksPage)
route('/members', 'Members and API keys', membersPage)

const navigation: ReadonlyArray<readonly [string, string]> = [
  ['#/home', 'Home'],
  ['#/approvals', 'Approvals'],
  ['#/ledger/transactions', 'Transactions'],
  ['#/ledger/accounts', 'Accounts'],
  ['#/ledger/counterparties', 'Counterparties'],
  ['#/ledger/invoices', 'Invoices'],
  ['#/ledger/obligations', 'Obligations'],
  ['#/ledger/matches', 'Reconciliation'],
  ['#/imports', 'Imports'],
  ['#/audit', 'Audit and proofs'],
  ['#/policy', 'Policy'],
  ['#/agents', 'Agents'],
  ['#/webhooks', 'Webhooks'],
  ['#/members', 'Members and API keys'],
]

const root = document.getElementById('app')!

function signInPage(message?: string): HTMLElement {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true })
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true })
  const status = h('p', { role: 'alert', class: 'error' }, message ?? '')
  const submit = h('button', { type: 'submit' }, 'Sign in')
  const form = h(
    'form',
    {
      class: 'signin',
      'aria-labelledby': 'signin-title',
      onsubmit: async (event: Event) => {
        event.preventDefault()
        submit.disabled = true
        replace(status, '')
        try {
          const token = await api.POST('/v1/auth/login', { body: { email: email.value, password: password.value } })
          setSession({ token: token.access_token, principal: token.principal, email: email.value, expiresAt: Date.now() + token.expires_in * 1000 })
          if (location.hash === '' || location.hash === '#/' || location.hash === '#/signin') location.hash = '#/home'
          else void render()
        } catch (error) {
          replace(status, describeError(error))
        } finally {
          submit.disabled = false
        }
      },
    },
    h('h1', { id: 'signin-title' }, 'Sign in to Steward'),
    h('div', { class: 'field' }, h('label', { for: 'signin-email' }, 'Email'), Object.assign(email, { id: 'signin-email' })),
    h('div', { class: 'field' }, h('label', { for: 'signin-password' }, 'Password'), Object.assign(password, { id: 'signin-password' })),
    submit,
    walletButton(status),
    status,
  )
  return h('main', { id: 'main', class: 'signin-page' }, form)
}

interface Eip1193Provider {
  request(arguments_: { method: string; params?: unknown[] }): Promise<unknown>
}

/**
 * Sign-in with a browser wallet (SIWX, EIP-4361) where one is present: the API's challenge message,
 * signed with personal_sign by the wallet linked to a member, exchanged for a token.
 */
function walletButton(status: HTMLElement): HTMLElement | null {
  const provider = (window as unknown as { ethereum?: Eip1193Provider }).ethereum
  if (provider === undefined) return null
  return h('button', {
    type: 'button',
    class: 'secondary',
    onclick: async () => {
      replace(status, '')
      try {
        const [address] = (await provider.request({ method: 'eth_requestAccounts' })) as string[]
        if (address === undefined) throw new Error('The wallet shared no account.')
        const challenge = await api.POST('/v1/auth/siwx/challenge', { body: { address } })
        const hex = `0x${[...new TextEncoder().encode(challenge.message)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`
        const signature = (await provider.request({ method: 'personal_sign', params: [hex, address] })) as string
        const sessionId = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}`
        const token = await api.POST('/v1/auth/siwx', { body: { message: challenge.message, signature, session_id: sessionId } })
        setSession({ token: token.access_token, principal: token.principal, email: challenge.address, expiresAt: Date.now() + token.expires_in * 1000 })
        if (location.hash === '' || location.hash === '#/' || location.hash === '#/signin') location.hash = '#/home'
      } catch (error) {
        replace(status, describeError(error))
      }
    },
  }, 'Sign in with a browser wallet')
}

function shell(current: string, content: HTMLElement): HTMLElement {
  const session = currentSession()!
  return h(
    'div',
    { class: 'shell' },
    h('a', { href: '#main', class: 'skip' }, 'Skip to content'),
    h(
      'header',
      { class: 'top' },
      h('span', { class: 'brand' }, 'Steward'),
      h('span', { class: 'who', 'data-testid': 'who' }, session.email),
      h('button', { type: 'button', onclick: () => signOut() }, 'Sign out'),
    ),
    h(
      'nav',
      { 'aria-label': 'Sections' },
      h('ul', {}, ...navigation.map(([href, label]) => h('li', {}, h('a', { href, 'aria-current': current.startsWith(href.slice(1)) ? 'page' : null }, label)))),
    ),
    content,
  )
}

function signOut(message?: string): void {
  setSession(undefined)
  replace(root, signInPage(message))
  history.replaceState(null, '', '#/signin')
}

let renderCount = 0
export async function render(): Promise<void> {
  const session = currentSession()
  if (session === undefined) {
    replace(root, signInPage())
    return
  }
  if (Date.now() > session.expiresAt) return signOut('Your session has ended: sign in again.')
  const fragment = location.hash.replace(/^#/, '') || '/home'
  const [path = '/home', search = ''] = fragment.split('?')
  const match = routes.map((candidate) => ({ candidate, found: candidate.pattern.exec(path) })).find(({ found }) => found !== null)
  const main = h('main', { id: 'main', tabindex: '-1', 'aria-busy': 'true' }, h('p', { class: 'loading' }, 'Loading…'))
  replace(root, shell(path, main))
  const ticket = ++renderCount
  // A malformed percent-escape in the address (#/raw/%E0%A4%A) is no page either, not an endless "Loading…".
  let params: Record<string, string> | undefined
  try {
    if (match !== undefined) params = Object.fromEntries(match.candidate.names.map((name, index) => [name, decodeURIComponent(match.found![index + 1]!)]))
  } catch {
    params = undefined
  }
  if (match === undefined || params === undefined) {
    document.title = 'Not found · Steward'
    main.removeAttribute('aria-busy')
    replace(main, h('h1', {}, 'Not found'), h('p', {}, 'No page at this address.'))
    window.dispatchEvent(new CustomEvent('console:rendered', { detail: fragment }))
    return
  }
  document.title = `${match.candidate.title} · Steward`
  try {
    const content = await match.candidate.page(params, new URLSearchParams(search))
    if (ticket !== renderCount) return
    replace(main, content)
  } catch (error) {
    if (ticket !== renderCount) return
    if ((error as { status?: number }).status === 401) return signOut('Your session has ended: sign in again.')
    replace(main, h('h1', {}, match.candidate.title), h('p', { role: 'alert', class: 'error' }, describeError(error)))
  }
  main.removeAttribute('aria-busy')
  main.setAttribute('data-ready', 'true')
  window.dispatchEvent(new CustomEvent('console:rendered', { detail: fragment }))
}

window.addEventListener('hashchange', () => void render())
window.addEventListener('console:refresh', () => void render())
onSessionChange(() => {
  if (currentSession() !== undefined) void render()
})
void render()
