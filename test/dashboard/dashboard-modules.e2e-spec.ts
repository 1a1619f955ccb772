import type { AddressInfo } from 'node:net';
import { createTestApp, TestApp } from '../helpers/app';
import { BrowserSession, openBrowser } from './browser';

/** The page's pure modules, run in Chromium as the page loads them (ES modules of the origin). */
describe('Dashboard modules in Chromium', () => {
  let t: TestApp;
  let browser: BrowserSession;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    const origin = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    browser = await openBrowser(origin);
    await browser.page.goto(`${origin}/dashboard/`);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it("reads the key list and the usage quota in today's shapes and the announced ones (issues 15, 16)", async () => {
    const read = await browser.importInPage('/dashboard/js/read.js', (m) => {
      const key = { id: 'k1' };
      return {
        today: m.readKeyPage({ items: [key] }),
        paginated: m.readKeyPage({ data: [key], nextCursor: 'c2' }),
        bare: m.readKeyPage([key]),
        noQuota: m.readQuota({ totals: {} }) ?? 'absent',
        quota: m.readQuota({ plan: 'pro', quota: { limit: 100000, used: 12, remaining: 99988 } }),
        perMonth: m.readQuota({ plan: { name: 'free' }, quota: 5000 }),
        unlimited: m.readQuota({ plan: 'enterprise', quota: null }),
      };
    });
    expect(read).toEqual({
      today: { keys: [{ id: 'k1' }], nextCursor: null },
      paginated: { keys: [{ id: 'k1' }], nextCursor: 'c2' },
      bare: { keys: [{ id: 'k1' }], nextCursor: null },
      noQuota: 'absent',
      quota: { plan: 'pro', limit: 100000, used: 12, remaining: 99988 },
      perMonth: { plan: 'free', limit: 5000, used: null, remaining: null },
      unlimited: { plan: 'enterprise', limit: null, used: null, remaining: null },
    });
  });

  it('shows token amounts in whole tokens, and max approvals as unlimited', async () => {
    const shown = await browser.importInPage('/dashboard/js/format.js', (m) => [
      m.tokenAmount('1500000', 6),
      m.tokenAmount('123456789012345678901', 18),
      m.tokenAmount('0', 18),
      m.tokenAmount((2n ** 160n - 1n).toString(), 18),
    ]);
    expect(shown).toEqual(['1.5', '123.456789', '0', 'unlimited']);
  });

  it('logged no console error', () => {
    expect(browser.consoleErrors).toEqual([]);
  });
});
