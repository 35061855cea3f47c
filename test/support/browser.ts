/**
 * Browser tests: Debian's Chromium (/usr/bin/chromium) driven headless by playwright-core, with a fresh
 * user-data dir per launch, against a listening test app serving a console built for the test file.
 * When Chromium is not installed, `chromiumPath` is undefined: the suites skip, and scripts/test.mjs has
 * printed why (it installs chromium with apt-get when it can).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
// @ts-expect-error plain ESM build script without types
import { buildConsole } from '../../scripts/build-console.mjs'
import { sql } from 'drizzle-orm'
import { createTestApp, type TestApp, type TestAppOptions } from './harness.ts'

/**
 * The page's globals, for callbacks that run in the page (page.evaluate, addInitScript): the test
 * program is typed for Node, without the DOM library. Only types: a callback is serialized, so it
 * reads them as `const { document } = globalThis as unknown as PageGlobals` inside itself.
 */
export type PageGlobals = Record<'window' | 'document' | 'location' | 'localStorage' | 'sessionStorage' | 'DataTransfer' | 'File' | 'DragEvent' | 'Event', any>

export const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path))

export const chromiumFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

export interface ConsoleHarness {
  readonly test: TestApp
  readonly baseUrl: string
  readonly browser: Browser
  /** A fresh context (its own cookies and storage) and page, collecting dialogs and page errors. */
  newPage(options?: { acceptDialogs?: boolean }): Promise<{ context: BrowserContext; page: Page; dialogs: string[]; errors: string[] }>
  close(): Promise<void>
}

/** Builds the console into a temporary folder, starts a test app listening on port 0, launches Chromium. */
export async function startConsole(options: TestAppOptions = {}): Promise<ConsoleHarness> {
  if (chromiumPath === undefined) throw new Error('chromium is not installed')
  const buildDir = mkdtempSync(join(tmpdir(), 'steward-console-'))
  const outdir = join(buildDir, 'console')
  await buildConsole({ outdir, quiet: true })
  // The app serves this build (CONSOLE_DIR, read by loadConfig), never the repository's dist/console,
  // which a fresh checkout does not have.
  const test = await createTestApp({ ...options, env: { ...options.env, CONSOLE_DIR: outdir } })
  const address = await test.app.listen({ port: 0, host: '127.0.0.1' })
  // launch() (not launchPersistentContext) gives Chromium a fresh, empty user-data dir of its own,
  // deleted when the browser closes.
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags, headless: true })
  return {
    test,
    baseUrl: address,
    browser,
    async newPage({ acceptDialogs = false } = {}) {
      const context = await browser.newContext({ baseURL: address, viewport: { width: 1280, height: 860 } })
      const page = await context.newPage()
      // Waits, not timed assertions: generous, because the machine's cores are shared.
      page.setDefaultTimeout(60_000)
      const dialogs: string[] = []
      const errors: string[] = []
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message())
        void (acceptDialogs ? dialog.accept() : dialog.dismiss())
      })
      page.on('pageerror', (error) => errors.push(error.message))
      return { context, page, dialogs, errors }
    },
    async close() {
      await browser.close().catch(() => undefined)
      await test.close()
      rmSync(buildDir, { recursive: true, force: true })
    },
  }
}

/** Signs in through the console's form, by keyboard, and waits for Home. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/console`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByLabel('Password').press('Enter')
  await page.getByTestId('who').waitFor()
}

/** Navigates within the console and waits until the page has rendered. */
export async function open(page: Page, fragment: string): Promise<void> {
  await page.evaluate(
    (hash) =>
      new Promise<void>((resolve) => {
        const { window, location, Event } = globalThis as unknown as PageGlobals
        const rendered = (event: { detail?: unknown }) => {
          if (event.detail !== hash.replace(/^#/, '')) return
          window.removeEventListener('console:rendered', rendered)
          resolve()
        }
        window.addEventListener('console:rendered', rendered)
        if (location.hash === hash) window.dispatchEvent(new Event('console:refresh'))
        else location.hash = hash
      }),
    fragment,
  )
}

/**
 * Puts a tenant on the developer plan (600 requests a minute): a browser test signs in and walks many
 * pages within seconds, past the free plan's burst of 100 — a person clicking through does not.
 */
export async function developerPlan(test: TestApp, tenantId: string): Promise<void> {
  await test.runtime.db.orm.execute(sql`update tenants set rate_limit_tier = 'developer' where id = ${tenantId}`)
}
