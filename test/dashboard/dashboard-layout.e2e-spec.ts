// The page functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { SCOPES } from '../../src/auth/scopes';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { ComplianceDevnet, postActivateDemo, startComplianceDevnet } from '../helpers/compliance';
import { WebhookReceiver } from '../webhooks/receiver';
import { BrowserSession, openBrowser, openSection, signInThroughPage } from './browser';
import { layoutProblems } from './layout-check';

/**
 * Issue 53 item 4: every page of the dashboard at 1280 and 390 px, with the data a working
 * account has (long key names, bound wallets with and without a session, a webhook, a pending
 * invitation, a compliance policy, an opened preflight and a quote): a screenshot of each in
 * test-output/dashboard/layout-<page>-<width>.png, and the page's own boxes checked: no
 * interactive element sticks out, is cut off, cuts its text off, overlaps another, or has text
 * over it. The check is shown to fail on a page broken on purpose.
 */
describe('Dashboard layout in Chromium: every page at 1280 and 390 px', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let origin: string;
  let owner: TestAccount;
  let token: string;
  let browser: BrowserSession;
  let page: Page;
  let receiver: WebhookReceiver;
  let wallets: string[];

  /** Each page, and how to bring it to its fullest state (a preflight open, a quote shown). */
  const PAGES: Array<{ link: string; id: string; ready: (page: Page) => Promise<unknown> }> = [
    { link: 'API keys', id: 'keys', ready: (p) => p.locator('#keys table').waitFor() },
    { link: 'Usage', id: 'usage', ready: (p) => p.locator('#usage svg.chart').waitFor() },
    {
      link: 'Wallets',
      id: 'wallets',
      ready: async (p) => {
        await p.getByRole('region', { name: 'Compliance policy' }).waitFor();
        await p
          .getByText(/Active until/)
          .first()
          .waitFor();
        await p.getByRole('button', { name: `Show the preflight of ${wallets[0]}` }).click();
        await p.getByRole('region', { name: `Preflight of ${wallets[0]}` }).waitFor();
      },
    },
    {
      link: 'Markets',
      id: 'markets',
      ready: async (p) => {
        await p.getByTestId('pools').locator('tbody tr').nth(3).waitFor();
        const form = p.getByRole('form', { name: 'Quote a swap' });
        await form.getByLabel('Token in').selectOption({ label: 'tWBTC' });
        await form.getByLabel('Token out').selectOption({ label: 'tUSDC' });
        await form.getByLabel('Amount (whole tokens)').fill('0.01');
        await form.getByRole('button', { name: 'Quote' }).click();
        await p.getByTestId('route').locator('li').nth(1).waitFor();
      },
    },
    {
      link: 'Approvals',
      id: 'approvals',
      ready: (p) => p.getByText('No pending approval requests.').waitFor(),
    },
    { link: 'Members', id: 'members', ready: (p) => p.getByText('Pending invitations').waitFor() },
    { link: 'Webhooks', id: 'webhooks', ready: (p) => p.locator('#webhooks article').waitFor() },
    {
      link: 'Audit log',
      id: 'audit',
      ready: (p) => p.locator('#audit tbody tr').first().waitFor(),
    },
    { link: 'Security', id: 'security', ready: (p) => p.getByTestId('mfa-status').waitFor() },
  ];

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env, listen: true });
    origin = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    owner = await t.createAccount({ plan: 'pro' });
    token = await login(t, owner);
    const bearer = { Authorization: `Bearer ${token}` };
    await createApiKey(t, token, ['usage:read', 'defi:swap', 'defi:preflight', 'defi:broadcast'], {
      name: 'a key whose name is long enough to wrap a narrow column twice over',
      expiresAt: '2027-06-30T00:00:00Z',
    });
    await createApiKey(t, token, [...SCOPES], { name: 'all-scopes-reporting-backend' });
    const used = await createApiKey(t, token, ['usage:read'], { name: 'treasury-ops' });
    await request(t.server).get('/api/v1/usage/stats').set('X-API-Key', used.key).expect(200);
    const revoked = await createApiKey(t, token, ['usage:read'], { name: 'settlement-backend' });
    await request(t.server).delete(`/api/v1/api-keys/${revoked.id}`).set(bearer).expect(200);
    wallets = chain.wallets.slice(1, 4).map((w) => w.address);
    for (const walletAddress of wallets)
      await request(t.server)
        .post('/api/v1/onboarding/register')
        .set(bearer)
        .send({ walletAddress })
        .expect(200);
    await postActivateDemo(t, token, wallets[0]).expect(200);
    await request(t.server)
      .put('/api/v1/compliance/policy')
      .set(bearer)
      .send({
        sources: { mode: 'any', names: [] },
        countries: { deny: ['KP', 'IR'] },
        minSessionSeconds: 600,
      })
      .expect(200);
    receiver = await WebhookReceiver.start();
    await request(t.server)
      .post('/api/v1/webhooks')
      .set(bearer)
      .send({
        url: receiver.url,
        events: ['session.activated', 'transaction.confirmed'],
        description: 'risk desk',
      })
      .expect(201);
    await request(t.server)
      .post('/api/v1/account/invitations')
      .set(bearer)
      .send({
        email: 'a.rather.long.name.of.a.treasury.analyst@institution-example.com',
        role: 'developer',
      })
      .expect(201);
    browser = await openBrowser(origin);
    page = browser.page;
    await signInThroughPage(page, origin, owner);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
    await chain?.close();
  });

  const openPage = (link: string, id: string) => openSection(page, link, id);
  const problems = () => page.evaluate(layoutProblems);

  for (const width of [1280, 390])
    for (const { link, id, ready } of PAGES)
      it(`${link} at ${width} px: readable, nothing overlapping or cut off`, async () => {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await openPage(link, id);
        await ready(page);
        await browser.screenshot(`layout-${id}-${width}`);
        expect({ page: id, width, problems: await problems() }).toEqual({
          page: id,
          width,
          problems: [],
        });
      });

  it('finds a button cut off by its card and text over a button on a page broken on purpose', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await openPage('API keys', 'keys');
    await page.locator('#keys table').waitFor();
    expect(await problems()).toEqual([]);
    await page.evaluate(() => {
      const wrap = document.querySelector('#keys .table-wrap') as HTMLElement;
      wrap.style.width = '300px';
      const status = document.createElement('p');
      status.textContent = 'Status text drawn over the buttons';
      status.style.cssText = 'position:absolute;left:0;top:0;margin:0;font-size:24px';
      const button = document.querySelector('#keys form button') as HTMLElement;
      button.style.position = 'relative';
      button.parentElement!.style.position = 'relative';
      button.insertAdjacentElement('afterend', status);
      status.style.top = `${button.offsetTop}px`;
      status.style.left = `${button.offsetLeft}px`;
      // The native file chooser squeezed as it was on a phone's row (issue 53).
      const chooser = document.createElement('input');
      chooser.type = 'file';
      chooser.setAttribute('aria-label', 'a squeezed file chooser');
      chooser.style.cssText = 'width:100%;max-width:6rem';
      button.parentElement!.append(chooser);
    });
    const found = await problems();
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/button "Revoke .*" is cut off by div\.table-wrap/),
        expect.stringMatching(
          /text "Status text drawn over the but" lies over button "Create key"/,
        ),
        expect.stringMatching(
          /input "a squeezed file chooser" cuts its own text off \(\d+ of \d+ px\)/,
        ),
      ]),
    );
    await page.reload();
  });
});
