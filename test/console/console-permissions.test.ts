/**
 * The console offers only what the signed-in member's role may do, and keeps what it shows through
 * re-renders: the replay of webhook dead letters only with audit:write (an admin; an owner is told an
 * admin has to), never for a disabled endpoint, with the replay's counts shown after it; the upload area
 * and the tombstone only with raw:write (not to approvers and viewers); Home's dead-letter count only to
 * those who manage webhooks, "100+" when a page of them is full; an upload's refusal shown even though the
 * page was drawn again while it was in flight; and an address with a malformed percent-escape is "Not
 * found", not an endless "Loading…".
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { addMember, signupOwner, testPassword, uniqueEmail, type JoinedMember, type TenantOwner } from '../support/harness.ts'
import { chromiumPath, developerPlan, open, signIn, startConsole, type ConsoleHarness, type PageGlobals } from '../support/browser.ts'
import { multipartBody } from '../fixtures/raw/ingest/raw-test-kit.ts'

const statementCsv = ['Date,Payee,Description,Amount,Currency', '2026-05-05,Harbor Freight Lines,Freight invoice 4412,-1250.00,EUR', '2026-05-09,Acme Customer GmbH,Payment invoice 2026-21,4800.00,EUR'].join('\n')

const poll = { timeout: 60_000, interval: 250 }

/** A webhook receiver whose answer (a status code) the test sets. */
async function startReceiver(): Promise<{ url: (path: string) => string; answer: (status: number) => void; close: () => Promise<void> }> {
  let status = 500
  const server: Server = createServer((request, response) => {
    request.resume()
    request.on('end', () => response.writeHead(status).end())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    answer: (next) => void (status = next),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

describe.skipIf(chromiumPath === undefined)('the console offers what the role may do', () => {
  let harness: ConsoleHarness
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let owner: TenantOwner
  let admin: JoinedMember
  let approver: JoinedMember
  let viewer: JoinedMember
  let rawId: string
  let enabledId: string
  let disabledId: string

  const request = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) => harness.test.request({ method, url, token: owner.token, ...(payload === undefined ? {} : { payload }) })
  const deadLetterCount = async (endpointId: string) => ((await request('GET', `/v1/webhooks/${endpointId}/dead-letters?limit=100`)).json() as { dead_letters: unknown[] }).dead_letters.length

  beforeAll(async () => {
    harness = await startConsole({ workers: true, runtime: { webhooks: { retryBaseSeconds: 0.05, requestTimeoutMs: 2_000 } } })
    receiver = await startReceiver()
    owner = await signupOwner(harness.test)
    await developerPlan(harness.test, owner.tenantId)
    admin = await addMember(harness.test, owner, 'admin')
    approver = await addMember(harness.test, owner, 'approver', { approval_domains: ['payment'] })
    viewer = await addMember(harness.test, owner, 'viewer')
    const uploaded = await harness.test.request({ method: 'POST', url: '/v1/raw/ingest', token: owner.token, ...multipartBody([['source_type', 'csv_upload']], { filename: 'may.csv', contentType: 'text/csv', content: statementCsv }) })
    expect(uploaded.statusCode, uploaded.body).toBe(201)
    rawId = uploaded.json().raw_id as string

    // Two endpoints whose receiver fails: each member invited now is one member.changed event, dead-lettered on both after its attempts.
    const endpointIds: string[] = []
    for (const path of ['/enabled', '/disabled']) {
      const created = await request('POST', '/v1/webhooks', { url: receiver.url(path), event_types: ['member.changed'] })
      expect(created.statusCode, created.body).toBe(201)
      endpointIds.push(created.json().endpoint.id as string)
    }
    ;[enabledId, disabledId] = endpointIds as [string, string]
    for (let index = 0; index < 2; index += 1) expect((await request('POST', `/v1/tenants/${owner.tenantId}/members`, { email: uniqueEmail('hooked'), role: 'viewer' })).statusCode).toBe(201)
    await vi.waitFor(async () => expect([await deadLetterCount(enabledId), await deadLetterCount(disabledId)]).toEqual([2, 2]), poll)
    const disabled = await request('PATCH', `/v1/webhooks/${disabledId}`, { status: 'disabled' })
    expect(disabled.statusCode, disabled.body).toBe(200)
  }, 180_000)
  afterAll(async () => {
    await receiver?.close()
    await harness?.close()
  })

  it('shows Home\'s dead-letter count only to those who manage webhooks, with a "+" ("100+") when a page of them is full', async () => {
    const { context, page, errors } = await harness.newPage()
    await signIn(page, harness.baseUrl, owner.email, testPassword)
    await open(page, '#/home')
    expect(await page.getByTestId('needs-dead-letters').textContent()).toBe('4 dead-lettered webhook deliveries')
    // A full page (next_cursor present) is not the whole count.
    await page.route(`**/v1/webhooks/${enabledId}/dead-letters*`, async (route) => {
      const response = await route.fetch()
      const listing = (await response.json()) as { dead_letters: unknown[]; next_cursor: string | null }
      await route.fulfill({ response, json: { ...listing, dead_letters: Array.from({ length: 100 }, (_, index) => listing.dead_letters[index % listing.dead_letters.length]), next_cursor: 'more' } })
    })
    await open(page, '#/home')
    expect(await page.getByTestId('needs-dead-letters').textContent()).toBe('102+ dead-lettered webhook deliveries')
    await page.unroute(`**/v1/webhooks/${enabledId}/dead-letters*`)
    for (const member of [viewer, approver]) {
      await signIn(page, harness.baseUrl, member.email, testPassword)
      await open(page, '#/home')
      expect(await page.getByTestId('needs-approvals').count(), member.email).toBe(1)
      expect(await page.getByTestId('needs-dead-letters').count(), member.email).toBe(0)
      expect(await page.locator('main').textContent(), member.email).not.toContain('dead-lettered')
    }
    expect(errors).toEqual([])
    await context.close()
  }, 180_000)

  it('offers the replay of dead letters to an admin only, not for a disabled endpoint, and shows what the replay did', async () => {
    const { context, page, errors } = await harness.newPage()
    const section = (endpointId: string) => page.locator(`[data-testid="webhook-endpoint"][data-id="${endpointId}"]`)
    // The owner manages webhooks but has no audit:write: told that an admin has to replay.
    await signIn(page, harness.baseUrl, owner.email, testPassword)
    await open(page, '#/webhooks')
    for (const endpointId of [enabledId, disabledId]) {
      expect(await section(endpointId).getByRole('button', { name: 'Replay dead letters' }).count()).toBe(0)
      expect(await section(endpointId).getByTestId('replay-unavailable').textContent()).toMatch(/^An admin has to replay these dead letters/)
    }
    // The admin: offered it for the enabled endpoint; the disabled one has to be enabled first.
    await signIn(page, harness.baseUrl, admin.email, testPassword)
    await open(page, '#/webhooks')
    expect(await section(disabledId).getByRole('button', { name: 'Replay dead letters' }).count()).toBe(0)
    expect(await section(disabledId).getByTestId('replay-unavailable').textContent()).toBe('This endpoint is disabled: it has to be enabled again before its dead letters can be replayed.')
    expect(await section(enabledId).getByTestId('replay-unavailable').count()).toBe(0)
    receiver.answer(200)
    await section(enabledId).getByRole('button', { name: 'Replay dead letters' }).click()
    await section(enabledId).getByTestId('replay-result').getByText('Replay: 2 attempted, 2 redelivered, 0 still failing, 0 remaining.').waitFor()
    expect(await section(enabledId).textContent()).toContain('Dead letters: none.')
    expect(await section(enabledId).getByRole('button', { name: 'Replay dead letters' }).count()).toBe(0)
    expect(await deadLetterCount(enabledId)).toBe(0)
    expect(await deadLetterCount(disabledId)).toBe(2)
    expect(errors).toEqual([])
    await context.close()
  }, 180_000)

  it('offers uploading and tombstoning to those with raw:write only', async () => {
    const { context, page, errors } = await harness.newPage()
    for (const member of [viewer, approver]) {
      await signIn(page, harness.baseUrl, member.email, testPassword)
      await open(page, '#/imports')
      expect(await page.getByTestId('dropzone').count(), member.email).toBe(0)
      expect(await page.getByTestId('upload-unavailable').textContent(), member.email).toMatch(/^Uploading files needs the raw:write permission/)
      await open(page, `#/raw/${rawId}`)
      expect(await page.getByTestId('raw-sha256').count(), member.email).toBe(1)
      expect(await page.getByRole('button', { name: 'Tombstone this file' }).count(), member.email).toBe(0)
    }
    for (const member of [owner, admin]) {
      await signIn(page, harness.baseUrl, member.email, testPassword)
      await open(page, '#/imports')
      expect(await page.getByTestId('dropzone').count(), member.email).toBe(1)
      expect(await page.getByTestId('upload-unavailable').count(), member.email).toBe(0)
      await open(page, `#/raw/${rawId}`)
      expect(await page.getByRole('button', { name: 'Tombstone this file' }).count(), member.email).toBe(1)
    }
    expect(errors).toEqual([])
    await context.close()
  }, 180_000)

  it('shows an upload\'s refusal although the page was drawn again while it was in flight', async () => {
    const { context, page, errors } = await harness.newPage()
    await signIn(page, harness.baseUrl, owner.email, testPassword)
    await open(page, '#/imports')
    // The upload is held until the page has been drawn again (as after another upload, or by the poll).
    let arrived!: () => void
    const inFlight = new Promise<void>((resolve) => (arrived = resolve))
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/v1/raw/ingest', async (route) => {
      arrived()
      await released
      await route.continue()
    })
    await page.evaluate(() => {
      const { document, DataTransfer, File, DragEvent } = globalThis as unknown as PageGlobals
      const transfer = new DataTransfer()
      transfer.items.add(new File(['not a statement'], 'holiday.png', { type: 'image/png' }))
      document.querySelector('[data-testid="dropzone"]').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }))
    })
    await inFlight
    await page.getByTestId('upload-status').getByText('Uploading holiday.png').waitFor()
    await open(page, '#/imports')
    await open(page, '#/ledger/transactions')
    await open(page, '#/imports')
    // The upload in flight is still shown on the page drawn now.
    await page.getByTestId('upload-status').getByText('Uploading holiday.png').waitFor()
    release()
    // The API's 415 shows on the page as it is now.
    await page.getByTestId('upload-status').getByText('holiday.png: The media type "image/png" is not one Raw accepts.').waitFor()
    expect(await page.getByTestId('upload-status').count()).toBe(1)
    expect(await page.getByTestId('upload-status').locator('.error').count()).toBe(1)
    // Signing out and in again (in this page, without a reload) starts with an empty list.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByLabel('Email').fill(owner.email)
    await page.getByLabel('Password').fill(testPassword)
    await page.getByLabel('Password').press('Enter')
    await page.locator('main[data-ready="true"]').waitFor()
    await open(page, '#/imports')
    expect(await page.getByTestId('upload-status').textContent()).toBe('')
    expect(errors).toEqual([])
    await context.close()
  }, 180_000)

  it('shows "Not found" for an address with a malformed percent-escape', async () => {
    const { context, page, errors } = await harness.newPage()
    await signIn(page, harness.baseUrl, viewer.email, testPassword)
    for (const fragment of ['#/ledger/transactions/%E0%A4%A', '#/raw/%', '#/proofs/%zz']) {
      await open(page, fragment)
      expect(await page.getByRole('heading', { level: 1 }).textContent(), fragment).toBe('Not found')
      expect(await page.locator('main').getAttribute('aria-busy'), fragment).toBeNull()
    }
    // The console still works after it.
    await open(page, '#/home')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Home')
    expect(errors).toEqual([])
    await context.close()
  }, 180_000)
})
