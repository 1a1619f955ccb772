/**
 * Debian's Chromium driven by playwright-core (no browser download): headless, a fresh profile
 * per run, every request and console error recorded so a spec can assert on them.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(__dirname, '..', '..', 'test-output', 'dashboard');

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** console.error messages and uncaught page errors. */
  consoleErrors: string[];
  /** Saves the whole page, or one element of it, as test-output/dashboard/<name>.png. */
  screenshot(name: string, selector?: string): Promise<string>;
  /**
   * Runs `use` in the page on one of the page's ES modules (a path of the origin). The import is
   * page-side source text: the test's compiler would turn a dynamic import() into require().
   */
  importInPage<T>(
    path: string,
    use: (m: Record<string, (...args: unknown[]) => unknown>) => T,
  ): Promise<T>;
  close(): Promise<void>;
}

export async function openBrowser(origin: string): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `${CHROMIUM_PATH} is missing: apt-get install -y chromium (.ci/run does it on CI)`,
    );
  const profile = mkdtempSync(join(tmpdir(), 'dashboard-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = context.pages()[0] ?? (await context.newPage());
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return {
    context,
    page,
    requests,
    consoleErrors,
    async screenshot(name, selector) {
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      if (selector) await page.locator(selector).screenshot({ path });
      else await page.screenshot({ path, fullPage: true });
      return path;
    },
    async importInPage(path, use) {
      const url = JSON.stringify(new URL(path, origin).href);
      return (await page.evaluate(`import(${url}).then(${use.toString()})`)) as never;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Signs in through the dashboard's form and waits for its first page (API keys). */
export async function signInThroughPage(
  page: Page,
  origin: string,
  account: { email: string; password: string },
): Promise<void> {
  await page.goto(`${origin}/dashboard/`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#keys').waitFor();
}

/** Follows a section's link in the navigation and waits for its page (`#id`). */
export async function openSection(page: Page, link: string, id: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: link, exact: true })
    .click();
  await page.locator(`#${id}`).waitFor();
}
