// The page functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { ComplianceDevnet, startComplianceDevnet } from '../helpers/compliance';
import { BrowserSession, openBrowser } from '../dashboard/browser';

/**
 * The dashboard's Audit log section in Chromium (issue 33 item 8): the account's events newest
 * first, filtered by type and by day, a page at a time; at 1280 and 390 px, no console error.
 */
describe('Dashboard audit log in Chromium', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let origin: string;
  let account: TestAccount;
  let browser: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env, listen: true });
    origin = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    account = await t.createAccount({ plan: 'pro' });
    // 27 keys: more api_key.created events than one page (25) of the section holds.
    const token = await login(t, account);
    for (let i = 0; i < 27; i++) await createApiKey(t, token, ['usage:read'], { name: `k${i}` });
    browser = await openBrowser(origin);
    page = browser.page;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await chain?.close();
  });

  const audit = () => page.locator('#audit');
  const rows = () => audit().locator('tbody tr');

  it('lists the newest events first, one page at a time', async () => {
    await page.goto(`${origin}/dashboard/`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Audit log' }).click();
    await audit().getByRole('heading', { name: 'Audit log' }).waitFor();
    await rows().nth(24).waitFor();
    expect(await rows().count()).toBe(25);
    // The sign-in just made is the newest; two logins in all (the setup's and this one).
    expect(await rows().first().innerText()).toContain('auth.login_succeeded');
    await browser.screenshot('audit-1280', '#audit');
    await audit().getByRole('button', { name: 'Load older events' }).click();
    await rows().nth(28).waitFor();
    expect(await rows().count()).toBe(29);
    expect(await audit().getByRole('button', { name: 'Load older events' }).count()).toBe(0);
    expect(await rows().last().innerText()).toContain('auth.login_succeeded');
  });

  it('filters by type and by day', async () => {
    await audit().getByLabel('Event', { exact: true }).selectOption('auth.login_succeeded');
    await audit().getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(() => document.querySelectorAll('#audit tbody tr').length === 2);
    for (const text of await rows().allInnerTexts()) expect(text).toContain('auth.login_succeeded');

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await audit().getByLabel('Event', { exact: true }).selectOption('');
    await audit().getByLabel('From (UTC day)').fill(tomorrow);
    await audit().getByRole('button', { name: 'Apply' }).click();
    await audit().getByText('No events match.').waitFor();

    const today = new Date().toISOString().slice(0, 10);
    await audit().getByLabel('From (UTC day)').fill(today);
    await audit().getByLabel('To (UTC day)').fill(today);
    await audit().getByLabel('Event', { exact: true }).selectOption('api_key.created');
    await audit().getByRole('button', { name: 'Apply' }).click();
    await rows().nth(24).waitFor();
    for (const text of await rows().allInnerTexts()) expect(text).toContain('api_key.created');
  });

  it('fits a 390 px wide screen, with no console error', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot('audit-390', '#audit');
    const overflow = await audit().evaluate((section) => {
      const right = Math.max(
        ...[section, ...section.querySelectorAll('*')]
          .filter((e) => !e.closest('thead'))
          .map((e) => e.getBoundingClientRect().right),
      );
      return Math.max(
        0,
        right - document.documentElement.clientWidth,
        section.scrollWidth - section.clientWidth,
      );
    });
    expect(overflow).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(browser.consoleErrors).toEqual([]);
  });
});
