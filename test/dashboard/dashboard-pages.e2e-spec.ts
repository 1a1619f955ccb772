// The page functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { ComplianceDevnet, startComplianceDevnet } from '../helpers/compliance';
import { BrowserSession, openBrowser, openSection } from './browser';

/**
 * Issue 47 item 3, the dashboard as a product, in Chromium at 1280 and 390 px: the product name on
 * sign-in, each section on its own page, audit rows on one line with their details expandable,
 * key dates on one line, styled selects, the usage totals explained, a confirmation before the
 * two-factor policy changes; no horizontal scrolling and no console error.
 */
describe('Dashboard pages in Chromium', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let origin: string;
  let owner: TestAccount;
  let token: string;
  let browser: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env, listen: true });
    origin = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    owner = await t.createAccount({ plan: 'pro' });
    token = await login(t, owner);
    const long = 'a key whose name is long enough to wrap a narrow column twice over';
    await createApiKey(t, token, ['usage:read'], { name: long, expiresAt: '2027-06-30T00:00:00Z' });
    browser = await openBrowser(origin);
    page = browser.page;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await chain?.close();
  });

  const openPage = (link: string, id: string) => openSection(page, link, id);
  /** How far the page sticks out to the right of the screen (0 when it fits). */
  const overflow = () =>
    page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
  /** Lines the text of an element takes (the distinct tops of its text's boxes). */
  const lines = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });

  it('names the product on the sign-in page, at both widths', async () => {
    await page.goto(`${origin}/dashboard/`);
    await page.getByText('Compliance-gated DeFi builder', { exact: true }).waitFor();
    await browser.screenshot('product-signin-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot('product-signin-390');
    expect(await overflow()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#keys').waitFor();
  });

  it('shows one section per page, the navigation on each, and fits 390 px', async () => {
    const pages: Array<[string, string]> = [
      ['API keys', 'keys'],
      ['Usage', 'usage'],
      ['Wallets', 'wallets'],
      ['Markets', 'markets'],
      ['Approvals', 'approvals'],
      ['Members', 'members'],
      ['Webhooks', 'webhooks'],
      ['Audit log', 'audit'],
      ['Security', 'security'],
    ];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const [link, id] of pages) {
        await openPage(link, id);
        expect(await page.locator('main section.card').count()).toBe(1);
        await page.waitForFunction((name) => document.title.startsWith(name), link);
        expect({ id, overflow: await overflow() }).toEqual({ id, overflow: 0 });
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('keeps key dates on one line at 1280 px, and wraps nothing out of the screen at 390', async () => {
    await openPage('API keys', 'keys');
    const row = page.locator('#keys').getByRole('row', { name: /long enough/ });
    await row.waitFor();
    expect(await lines('#keys td.when')).toBe(1);
    await browser.screenshot('product-keys-1280', '#keys');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await lines('#keys td.when')).toBeLessThanOrEqual(2);
    await browser.screenshot('product-keys-390', '#keys');
    expect(await overflow()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows audit rows on one line, details expandable, with a styled event select', async () => {
    await openPage('Audit log', 'audit');
    const rows = page.locator('#audit tbody tr');
    await rows.first().waitFor();
    const select = page.locator('#audit-type');
    expect(
      await select.evaluate((el) => {
        const style = getComputedStyle(el);
        return { appearance: style.appearance, radius: style.borderRadius };
      }),
    ).toEqual({ appearance: 'none', radius: '6px' });
    for (const cell of ['td.when', 'td.details summary'])
      expect({ cell, lines: await lines(`#audit ${cell}`) }).toEqual({ cell, lines: 1 });
    await browser.screenshot('product-audit-1280', '#audit');
    const created = page.locator('#audit tr', { hasText: 'api_key.created' }).first();
    await created.locator('summary').click();
    const details = created.locator('details[open] dl');
    await details.waitFor();
    expect(await details.innerText()).toContain('long enough to wrap');
    expect(await details.innerText()).toMatch(/Request/);
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot('product-audit-390', '#audit');
    expect(await overflow()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('explains the two request totals on the usage page', async () => {
    await openPage('Usage', 'usage');
    const note = page.locator('#usage').getByTestId('totals-note');
    await note.waitFor();
    expect(await note.innerText()).toMatch(/period shown.*calendar month/s);
  });

  it('asks before requiring two-factor sign-in of every member; Cancel changes nothing', async () => {
    const policy = async () =>
      (
        await request(t.server)
          .get('/api/v1/auth/mfa')
          .set('Authorization', `Bearer ${token}`)
          .expect(200)
      ).body.requiredByAccount as boolean;
    await openPage('Security', 'security');
    const box = page.getByLabel('Require two-factor sign-in of every member');
    await box.click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('must set one up at their next sign-in');
    // The dialog takes focus once it has rendered: wait for that, then check where it went.
    await page.waitForFunction(() => document.activeElement?.closest('[role=alertdialog]'));
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await browser.screenshot('product-policy-confirm-1280', '#security');
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot('product-policy-confirm-390', '#security');
    expect(await overflow()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await box.isChecked()).toBe(false);
    expect(await policy()).toBe(false);

    await box.click();
    await page.getByRole('button', { name: 'Require it' }).click();
    await page.getByText('Every member now needs two-factor sign-in.').waitFor();
    expect(await policy()).toBe(true);
    expect(await box.isChecked()).toBe(true);
  });

  it('logged no console error', () => {
    expect(browser.consoleErrors).toEqual([]);
  });
});
