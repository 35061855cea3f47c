/**
 * A Ledger record's history on its console page (issue 21 item 4), in Debian's Chromium, headless, on this
 * run's engine: a transaction imported from one statement and again from a second file has two Ledger
 * versions; the page lists them (the Wiki's entity history), and selecting either shows that version's
 * fields — the first citing one raw file, the second two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupOwner, testPassword, type TenantOwner } from '../support/harness.ts'
import { chromiumPath, developerPlan, open, signIn, startConsole, type ConsoleHarness } from '../support/browser.ts'
import { bankTransaction, normalize, seedArtifact } from '../support/ledger.ts'

// As test/modules/wiki/entities.test.ts makes a second version: the same bank transaction from a second file.
const freight = bankTransaction({ amount: '-1250.00', transaction_date: '2026-03-05', description: 'Freight invoice 4411' })
const first = [freight, bankTransaction({ amount: '-86.40', transaction_date: '2026-03-12', description: 'Paper and toner' })]
const second = [freight]

describe.skipIf(chromiumPath === undefined)('a Ledger record\'s history in the console', () => {
  let harness: ConsoleHarness
  let owner: TenantOwner

  beforeAll(async () => {
    harness = await startConsole()
    owner = await signupOwner(harness.test)
    await developerPlan(harness.test, owner.tenantId)
  })
  afterAll(async () => harness?.close())

  const ingest = async (records: Parameters<typeof seedArtifact>[2]) => {
    const seeded = await seedArtifact(harness.test, owner.tenantId, records)
    await normalize(harness.test, owner.tenantId, seeded.artifactId)
    return seeded.artifactId
  }

  it('lists the two versions of a transaction imported twice and shows each version\'s fields', async () => {
    const firstRaw = await ingest(first)
    const transactions = (await (await harness.test.request({ method: 'GET', url: '/v1/ledger/transactions?limit=100', token: owner.token })).json()).transactions as Array<{ id: string; description: string }>
    const id = transactions.find((row) => row.description === 'Freight invoice 4411')!.id
    const secondRaw = await ingest(second)
    const history = (await (await harness.test.request({ method: 'GET', url: `/v1/wiki/entity/${id}/history`, token: owner.token })).json()) as { versions: Array<{ wiki_version: number; ledger_version: { version: number; source_ids: string[] } | null }> }
    expect(history.versions.map((entry) => [entry.wiki_version, entry.ledger_version?.version, entry.ledger_version?.source_ids])).toEqual([
      [1, 1, [firstRaw]],
      [2, 2, [firstRaw, secondRaw]],
    ])

    const { context, page, errors } = await harness.newPage()
    await signIn(page, harness.baseUrl, owner.email, testPassword)
    await open(page, `#/ledger/transactions/${id}`)
    const section = page.getByTestId('entity-history')
    expect(await section.getByRole('heading', { level: 2 }).textContent()).toBe('History (2 versions)')
    expect(await section.locator('tbody tr').count()).toBe(2)
    expect(await section.locator('tbody tr').nth(0).textContent()).toContain('Ledger version 1')
    expect(await section.locator('tbody tr').nth(1).textContent()).toContain('Ledger version 2')
    expect(await page.getByTestId('history-selected').count()).toBe(0)

    await section.getByRole('link', { name: 'Show version 1' }).click()
    await page.getByTestId('history-selected').waitFor()
    const one = (await page.getByTestId('history-selected').textContent())!
    expect(one).toContain('Version 1: Ledger version 1')
    expect(one).toContain('Raw files1')
    expect(one).toContain('descriptionFreight invoice 4411')
    expect(one).not.toContain('no: the current version')
    expect(await section.locator('[aria-current="true"]').count()).toBe(1)

    await section.getByRole('link', { name: 'Show version 2' }).click()
    await page.getByTestId('history-selected').getByText('Version 2: Ledger version 2', { exact: false }).waitFor()
    const two = (await page.getByTestId('history-selected').textContent())!
    expect(two).toContain('Raw files2')
    expect(two).toContain('Supersededno: the current version')
    expect(errors).toEqual([])
    await context.close()
  }, 180_000)
})
