// The page functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { BrowserSession, openBrowser } from '../dashboard/browser';
import { verified, WebhookReceiver } from './receiver';

/** The dashboard's Webhooks section in Chromium (issue 32), at 1280 and 390 px. */
describe('Dashboard webhooks page in Chromium', () => {
  let t: TestApp;
  let origin: string;
  let account: TestAccount;
  let browser: BrowserSession;
  let page: Page;
  let receiver: WebhookReceiver;
  let secret: string;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { WEBHOOK_POLL_INTERVAL_MS: '100' } });
    origin = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    account = await t.createAccount();
    receiver = await WebhookReceiver.start();
    browser = await openBrowser(origin);
    page = browser.page;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
  });

  const section = () => page.locator('#webhooks');

  it('adds a webhook with chosen events; the secret is shown once', async () => {
    await page.goto(`${origin}/dashboard`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 2, name: 'Webhooks' }).waitFor();
    await section().getByText('No webhooks yet.').waitFor();

    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill('risk desk');
    await page.getByLabel('session.activated').check();
    await page.getByLabel('transaction.confirmed').check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const shown = page.getByLabel('Signing secret');
    await shown.waitFor();
    secret = await shown.inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await section().getByRole('note').innerText()).toContain(
      'only time the signing secret is shown',
    );
    await browser.screenshot('webhook-created-1280', '#webhooks');
    await page.getByRole('button', { name: 'I have stored the secret' }).click();
    expect(await page.getByLabel('Signing secret').count()).toBe(0);

    const token = await login(t, account);
    const listed = await request(t.server)
      .get('/api/v1/webhooks')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(listed.body.webhooks).toEqual([
      expect.objectContaining({
        url: receiver.url,
        events: ['session.activated', 'transaction.confirmed'],
        description: 'risk desk',
        active: true,
      }),
    ]);
    expect(await section().innerText()).toContain('session.activated, transaction.confirmed');
  });

  it('sends a test event and shows its delivery with the attempt', async () => {
    await section().getByRole('button', { name: 'Send test' }).click();
    const [hook] = await receiver.waitFor((h) => h.body.includes('webhook.test'));
    expect(verified(secret, hook).type).toBe('webhook.test');
    // The delivery is recorded just after the receiver answered: refresh until it shows.
    const table = section().getByRole('region', { name: 'Deliveries table' });
    await table.waitFor();
    for (;;) {
      if ((await table.innerText()).includes('delivered')) break;
      await Promise.all([
        page.waitForResponse((r) => r.url().includes('/deliveries')),
        section().getByRole('button', { name: 'Refresh' }).click(),
      ]);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    }
    expect(await table.innerText()).toMatch(/webhook\.test[\s\S]*#1 200/);
    await browser.screenshot('webhook-deliveries-1280', '#webhooks');
  });

  it('rotates the secret (shown once) and disables the endpoint', async () => {
    await section().getByRole('button', { name: 'Rotate secret' }).click();
    const shown = page.getByLabel('Signing secret');
    await shown.waitFor();
    expect(await shown.inputValue()).not.toBe(secret);
    expect(await section().innerText()).toContain('the old one signs too for 24 h');
    await page.getByRole('button', { name: 'I have stored the secret' }).click();

    await section().getByRole('button', { name: 'Disable' }).click();
    await section().getByRole('button', { name: 'Enable' }).waitFor();
    expect(await section().locator('.badge').first().innerText()).toBe('off');
  });

  it('fits a 390 px wide screen: nothing in the section is wider than the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot('webhooks-390', '#webhooks');
    // The section's own content (the page's shared header is the dashboard's).
    const wide = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const section = document.getElementById('webhooks')!;
      const inScroller = (el: Element) => el.closest('.table-wrap') !== null;
      return [section, ...section.querySelectorAll('*')]
        .filter((el) => !inScroller(el) && el.getBoundingClientRect().right > width + 0.5)
        .map((el) => `${el.tagName}.${el.className}`);
    });
    expect(wide).toEqual([]);
    const table = await page.evaluate(() => {
      const wrap = document.querySelector('#webhooks .table-wrap')!;
      return wrap.getBoundingClientRect().right <= document.documentElement.clientWidth + 0.5;
    });
    expect(table).toBe(true);
  });

  it('logged no console error', () => {
    expect(browser.consoleErrors).toEqual([]);
  });
});
