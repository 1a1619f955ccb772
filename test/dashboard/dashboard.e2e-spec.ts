// The page functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import { formatEther, Wallet } from 'ethers';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { SCOPES } from '../../src/auth/scopes';
import { issueTestAttestation, testAttesterKey } from '../../src/chain/devnet/test-attester';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import {
  ComplianceDevnet,
  CredentialKit,
  openCredentialKit,
  startComplianceDevnet,
} from '../helpers/compliance';
import { pollUntil } from '../helpers/wait';
import { BrowserSession, openBrowser } from './browser';

const API_KEY = /^cgk_test_[0-9a-f]{48}$/;

/**
 * The dashboard in a real browser (Debian's Chromium), against the whole app listening on a port
 * and the jest worker's devnet: one signed-in walk through every section, in order.
 */
describe('Dashboard (/dashboard) in Chromium', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let origin: string;
  let account: TestAccount;
  let token: string;
  let browser: BrowserSession;
  let page: Page;
  let keyId: string;
  let fullKey: string;
  let kit: CredentialKit;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env, listen: true });
    origin = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    account = await t.createAccount();
    token = await login(t, account);
    browser = await openBrowser(origin);
    page = browser.page;
    kit = await openCredentialKit(t, chain);
  }, 120_000);
  afterAll(async () => {
    await kit?.close();
    await browser?.close();
    await t?.close();
    await chain?.close();
  });

  const api = () => request(t.server);
  /** Follows a section's link in the navigation, and waits for its page. */
  const openPage = async (link: string) => {
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: link, exact: true })
      .click();
    await page.locator('main section.card').waitFor();
    await page.waitForFunction(
      (name) => document.querySelector('nav [aria-current=page]')?.textContent === name,
      link,
    );
  };
  const chartBars = (n: number) =>
    page.waitForFunction(
      (count) => document.querySelectorAll('#usage svg.chart rect.ok').length === count,
      n,
    );

  it('serves the page and its modules from the service, under a CSP that allows only its own origin', async () => {
    const res = await api().get('/dashboard/').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    // WebAssembly compiles (proving in the page); eval and new Function stay refused.
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(csp).toContain("connect-src 'self'");
    expect(csp.replace("'wasm-unsafe-eval'", '')).not.toMatch(
      /https:|http:|\*|unsafe-inline|unsafe-eval/,
    );
    const vendor = await api().get('/dashboard/vendor/preact-htm.js').expect(200);
    expect(vendor.headers['content-type']).toMatch(/javascript/);
    const prover = await api().get('/dashboard/vendor/snarkjs.js').expect(200);
    expect(prover.headers['content-type']).toMatch(/javascript/);
    const settings = await api().get('/dashboard/settings.json').expect(200);
    expect(settings.body).toEqual({ scopes: [...SCOPES] });
    await api().get('/dashboard').expect(301).expect('location', '/dashboard/');
    await api().get('/dashboard/nope.js').expect(404);
  });

  it('signs in with the keyboard: labelled fields, visible focus on the Sign in button, envelope errors', async () => {
    // The page's timers run on a clock the test can move (to reach the token refresh).
    await page.clock.install();
    await page.goto(`${origin}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await browser.screenshot('signin-1280');

    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    await page.keyboard.type(account.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('wrong password');
    await page.keyboard.press('Tab');
    const button = page.getByRole('button', { name: 'Sign in' });
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    const focus = await button.evaluate((el) => {
      const style = getComputedStyle(el);
      return {
        visible: el.matches(':focus-visible'),
        outline: style.outlineStyle,
        width: style.outlineWidth,
      };
    });
    expect(focus).toEqual({ visible: true, outline: 'solid', width: '3px' });
    await browser.screenshot('signin-focus-1280');

    await page.keyboard.press('Enter');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('INVALID_CREDENTIALS');

    await page.getByLabel('Password').fill(account.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // Each section is a page of its own, behind its link in the navigation kept on every page.
    const pages: Array<[string, string, string]> = [
      ['API keys', 'keys', 'API keys'],
      ['Usage', 'usage', 'Usage'],
      ['Wallets', 'wallets', 'Wallets and sessions'],
      ['Members', 'members', 'Members'],
      ['Webhooks', 'webhooks', 'Webhooks'],
      ['Audit log', 'audit', 'Audit log'],
      ['Security', 'security', 'Security'],
    ];
    expect(await page.locator('h2').allTextContents()).toEqual(['API keys']);
    for (const [link, id, heading] of pages) {
      await openPage(link);
      expect(page.url()).toBe(`${origin}/dashboard/#${id}`);
      expect(await page.locator('h2').allTextContents()).toEqual([heading]);
      expect(
        await page
          .getByRole('navigation', { name: 'Sections' })
          .locator('[aria-current=page]')
          .innerText(),
      ).toBe(link);
    }
    // Back returns to the page the address names.
    await page.goBack();
    await page.locator('#audit').waitFor();
    await openPage('API keys');
  });

  it('keeps the member signed in across a reload: the refresh token is in an HttpOnly cookie no script reads', async () => {
    const [cookie] = (await page.context().cookies(`${origin}/auth/refresh`)).filter(
      (c) => c.name === 'cgk_refresh',
    );
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/auth/refresh',
      secure: false, // plain HTTP here; Secure over HTTPS (test/auth/refresh-cookie.e2e-spec.ts)
    });
    expect(await page.evaluate(() => document.cookie)).not.toContain('cgk_refresh');
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(cookie.value);
    const resumed = page.waitForResponse(`${origin}/auth/refresh`);
    await page.reload();
    expect((await resumed).status()).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.locator('#keys').waitFor();
    expect(page.url()).toBe(`${origin}/dashboard/#keys`);
  });

  it('creates a key: the full key is shown once, with a warning and a copy button', async () => {
    await page.getByLabel('Name', { exact: true }).fill('dashboard key');
    await page.getByLabel('usage:read').check();
    await page.getByLabel('defi:preflight').check();
    await page.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByLabel('Your new API key');
    await shown.waitFor();
    fullKey = await shown.inputValue();
    expect(fullKey).toMatch(API_KEY);
    expect(await page.getByRole('note').innerText()).toContain(
      'This is the only time the full key is shown',
    );
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(fullKey);
    await browser.screenshot('key-created-1280', '#keys');

    const listed = await api().get('/api/v1/api-keys').set('Authorization', `Bearer ${token}`);
    const key = listed.body.items.find((k: { name: string }) => k.name === 'dashboard key');
    keyId = key.id;
    expect(fullKey.startsWith(key.prefix)).toBe(true);
    expect(key.scopes).toEqual(['defi:preflight', 'usage:read']);
    const row = page.getByRole('row', { name: /dashboard key/ });
    expect(await row.innerText()).toContain(key.prefix);
    expect(await row.innerText()).toContain('active');

    await page.getByRole('button', { name: 'I have stored the key' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(fullKey);
  });

  it('revokes a key after a confirmation; Cancel keeps it', async () => {
    // Three requests with the key before it goes: two answered, one refused for a missing scope.
    for (const path of ['/api/v1/usage/stats', '/api/v1/usage/stats', '/api/v1/onboarding/nonce'])
      await api().get(path).set('X-API-Key', fullKey);

    await page.getByRole('button', { name: 'Revoke dashboard key' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('This cannot be undone');
    await browser.screenshot('revoke-confirm-1280', '#keys');
    // The dialog takes focus once it has rendered: wait for that, then check where it went.
    await page.waitForFunction(() => document.activeElement?.closest('[role=alertdialog]'));
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await api().get('/api/v1/usage/stats').set('X-API-Key', fullKey).expect(200);

    await page.getByRole('button', { name: 'Revoke dashboard key' }).click();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('row', { name: /dashboard key.*revoked/ }).waitFor();
    const refused = await api().get('/api/v1/usage/stats').set('X-API-Key', fullKey).expect(401);
    expect(refused.body.code).toBe('API_KEY_INACTIVE');
  });

  it('shows usage: a chart by hour (and by day), by code, by key, the rate-limit window, the numbers of GET /usage/stats', async () => {
    // The key made 4 requests (one 403); wait until the batched recorder has written them.
    const keyUsage = await pollUntil(
      'the key to show 4 requests in GET /usage/stats',
      async () => {
        const res = await api().get('/api/v1/usage/stats').set('Authorization', `Bearer ${token}`);
        return res.body.byKey.find((k: { keyId: string }) => k.keyId === keyId);
      },
      (row) => row?.requests === 4,
      // Each probe is a request of this account: probe gently, not against its rate limit.
      { intervalMs: 200 },
    );
    expect(keyUsage).toMatchObject({ requests: 4, failed: 1 });

    await openPage('Usage');
    const usage = page.locator('#usage');
    await usage.getByRole('button', { name: 'Refresh' }).click();
    const keyRow = usage.getByRole('row', { name: /key “dashboard key”/ });
    await keyRow.waitFor();
    expect((await keyRow.locator('td').allTextContents()).slice(1, 3)).toEqual(['4', '1']);
    expect(await usage.locator('ul.plain').innerText()).toContain('API_KEY_SCOPE_MISSING');
    expect(await usage.getByTestId('rate-limit').innerText()).toMatch(
      /\d+ of 120 requests left, resets in \d+ s/,
    );
    expect(await usage.locator('svg.chart rect.ok').count()).toBe(24);
    const latestHour = await usage.locator('svg.chart title').last().textContent();
    const [ok, failed] = (latestHour ?? '').match(/\d+/g)!.slice(-2).map(Number);
    expect(ok + failed).toBeGreaterThanOrEqual(4);

    await usage.getByRole('button', { name: 'Last 30 days, by day' }).click();
    await chartBars(30);
    await usage.getByRole('button', { name: 'Last 24 hours, by hour' }).click();
    await chartBars(24);
  });

  it('binds a wallet, activates a demo session on the devnet and shows its preflight in words', async () => {
    const wallet = chain.wallets[1].address;
    await openPage('Wallets');
    const wallets = page.locator('#wallets');
    await wallets.getByText('No wallet is bound to your account yet.').waitFor();

    // A wrong EIP-55 checksum: the envelope's message and hint, nothing bound.
    await wallets.getByLabel('Wallet address').fill(wrongChecksum(wallet));
    await wallets.getByRole('button', { name: 'Bind wallet' }).click();
    const alert = wallets.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('INVALID_ADDRESS');
    expect(await alert.innerText()).toContain(`send ${wallet}`);

    await wallets.getByLabel('Wallet address').fill(wallet);
    await wallets.getByRole('button', { name: 'Bind wallet' }).click();
    const session = wallets.getByTestId('session');
    await session.waitFor();
    expect((await session.innerText())?.trim()).toBe('No session');
    await alert.waitFor({ state: 'detached' });

    await wallets.getByRole('button', { name: `Activate a demo session for ${wallet}` }).click();
    await wallets.getByText(/Active until/).waitFor({ timeout: 30_000 });
    expect(await chain.isActive(wallet)).toBe(true);
    const until = new Date((await chain.activeUntil(wallet)) * 1000);
    const shown = await session.innerText();
    expect(shown).toContain(String(until.getFullYear()));

    await wallets.getByRole('button', { name: `Show the preflight of ${wallet}` }).click();
    const preflight = wallets.getByRole('region', { name: `Preflight of ${wallet}` });
    await preflight.waitFor();
    const balances = await preflight.getByTestId('balances').locator('dd').allTextContents();
    // Devnet funding wrapped 100 of the wallet's 10,000 ETH (gas included): shown to 6 decimals.
    const eth = Number(formatEther(await chain.provider.getBalance(wallet)));
    expect(Math.abs(Number(balances[0].replace(/,/g, '')) - eth)).toBeLessThan(1e-6);
    // Every token of the market (the preflight reads them all), in whole tokens.
    expect(await preflight.getByTestId('balances').locator('dt').allTextContents()).toEqual([
      'ETH',
      ...Object.keys(chain.deployment.tokens),
    ]);
    expect(balances.slice(1, 3)).toEqual(['100', '1,000,000']);
    const actions = await preflight.getByTestId('next-actions').locator('li').allTextContents();
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.join(' ')).toMatch(/Permit2/);
    await browser.screenshot('dashboard-1280');
  });

  it("activates a session from a wallet's attestation with one button", async () => {
    const wallet = chain.wallets[2].address;
    const attester = new Wallet(testAttesterKey(), chain.provider);
    await issueTestAttestation(attester, chain.deployment.compliance, { kind: 'account', wallet });
    const wallets = page.locator('#wallets');
    await wallets.getByLabel('Wallet address').fill(wallet);
    await wallets.getByRole('button', { name: 'Bind wallet' }).click();
    const row = wallets.locator(`li[data-address="${wallet}"]`);
    await row.getByText('No session').waitFor();
    await row
      .getByRole('button', { name: `Activate a session for ${wallet} from its attestation` })
      .click();
    await row.getByText(/Active until/).waitFor({ timeout: 30_000 });
    expect(await chain.isActive(wallet)).toBe(true);
  });

  it('proves a credential file chosen in the page: the session opens, the issuer and its end show', async () => {
    const wallet = Wallet.createRandom().address;
    // The credential file the issuer hands the holder (`credentials issue --out FILE`).
    const credential = await kit.issue(wallet);
    const wallets = page.locator('#wallets');
    await wallets.getByLabel('Wallet address').fill(wallet);
    await wallets.getByRole('button', { name: 'Bind wallet' }).click();
    const row = wallets.locator(`li[data-address="${wallet}"]`);
    await row.getByText('No session').waitFor();
    // A file that is not a credential: said in the page, nothing asked of the service.
    const before = browser.requests.length;
    await row.getByLabel(`Credential file for ${wallet}`).setInputFiles({
      name: 'notes.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"hello":"world"}'),
    });
    const alert = wallets.getByRole('alert');
    await alert.getByText('the file is not a compliance credential (version 2)').waitFor();
    expect(browser.requests.slice(before).filter((url) => url.includes('/verify'))).toEqual([]);
    const downloaded = browser.requests.length;

    await row.getByLabel(`Credential file for ${wallet}`).setInputFiles({
      name: 'credential.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(credential)),
    });
    const result = wallets.getByTestId('proof-result');
    await result.waitFor({ timeout: 120_000 });
    await row.getByText(/Active until/).waitFor({ timeout: 30_000 });
    await alert.waitFor({ state: 'detached' });
    expect(await chain.isActive(wallet)).toBe(true);
    const until = new Date((await chain.activeUntil(wallet)) * 1000);
    const text = await result.innerText();
    expect(text).toContain(`${wallet.slice(0, 6)}…${wallet.slice(-4)}`);
    await result.getByRole('button', { name: `Copy ${wallet}` }).waitFor();
    expect(text).toMatch(/issuer\s+default/);
    expect(text).toContain(String(until.getFullYear()));
    // Proved in the page with the files this service serves, pinned by their SHA-256.
    const fetched = browser.requests.slice(downloaded).map((url) => new URL(url).pathname);
    expect(fetched).toEqual(
      expect.arrayContaining([
        '/api/v1/verify/challenge',
        '/verify/artifacts',
        expect.stringMatching(/^\/zk\/[0-9a-f]{64}\/compliance_credential\.wasm$/),
        expect.stringMatching(/^\/zk\/[0-9a-f]{64}\/compliance_credential\.zkey$/),
        '/dashboard/vendor/snarkjs.js',
        '/api/v1/verify',
      ]),
    );
    // Real Groth16 in the page, on one thread of the shared cores.
  }, 180_000);

  it('sets the compliance policy from the wallets page (owner)', async () => {
    const panel = page.getByRole('region', { name: 'Compliance policy' });
    await panel.getByLabel('Denied countries').fill('xx, yy');
    await panel.getByLabel('Shortest session in seconds').fill('600');
    await panel.getByRole('button', { name: 'Save policy' }).click();
    await panel
      .getByText(
        /^Policy saved: .*denied countries: XX, YY; wallets without a country: refused; shortest session: 600 s/,
      )
      .waitFor();
    const saved = await api()
      .get('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(saved.body).toMatchObject({
      sources: { mode: 'any', names: [] },
      countries: { deny: ['XX', 'YY'] },
      minSessionSeconds: 600,
    });
    // An unknown source is refused with the envelope, shown in the panel; nothing changes.
    await panel.getByLabel('Source names').fill('nobody');
    await panel.getByRole('button', { name: 'Save policy' }).click();
    await panel.getByRole('alert').getByText('INVALID_PARAMS').waitFor();
    await api()
      .put('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${token}`)
      .send({ sources: { mode: 'any', names: [] }, countries: {}, minSessionSeconds: 0 })
      .expect(200);
  });

  it('quotes across the market with a picker: two hops for tWBTC -> tUSDC, NO_ROUTE for tWBTC -> tEURC', async () => {
    await openPage('Markets');
    const markets = page.locator('#markets');
    // The devnet's four pools, by their tokens and fee.
    const rows = markets.getByTestId('pools').locator('tbody tr');
    await rows.nth(3).waitFor();
    const pools = [];
    for (const row of await rows.all())
      pools.push((await row.locator('td').allInnerTexts()).slice(0, 2).join(' · fee '));
    expect(pools).toEqual([
      'WETH / tUSDC · fee 0.3 %',
      'tWBTC / WETH · fee 0.3 %',
      'tEURC / tUSDC · fee 0.01 %',
      'tEURC / tUSDC · fee 0.05 %',
    ]);
    // Each pool id shortened, with a button that copies the whole id.
    const { pools: listed } = (
      await api().get('/api/v1/defi/config').set('Authorization', `Bearer ${token}`).expect(200)
    ).body as { pools: Array<{ id: string }> };
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await markets.getByRole('button', { name: `Copy ${listed[3].id}` }).click();
    await markets
      .getByRole('button', { name: `Copy ${listed[3].id}` })
      .getByText('Copied')
      .waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(listed[3].id);
    const form = markets.getByRole('form', { name: 'Quote a swap' });
    await form.getByLabel('Token in').selectOption({ label: 'tWBTC' });
    await form.getByLabel('Token out').selectOption({ label: 'tUSDC' });
    await form.getByLabel('Amount (whole tokens)').fill('0.01');
    await form.getByRole('button', { name: 'Quote' }).click();
    const route = markets.getByTestId('route').locator('li');
    await route.nth(1).waitFor();
    const hops = await route.allInnerTexts();
    expect(hops[0]).toMatch(/^0\.01 tWBTC → [\d.]+ WETH in the tWBTC\/WETH pool, fee 0\.3 %$/);
    expect(hops[1]).toMatch(/WETH → [\d,.]+ tUSDC in the WETH\/tUSDC pool, fee 0\.3 %$/);
    expect(await markets.getByTestId('quote-summary').innerText()).toMatch(
      /^Pay 0\.01 tWBTC, receive/,
    );

    await form.getByLabel('Token out').selectOption({ label: 'tEURC' });
    await form.getByRole('button', { name: 'Quote' }).click();
    const alert = markets.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('NO_ROUTE');
    expect(await alert.innerText()).toMatch(/tWBTC trades against (WETH, tUSDC|tUSDC, WETH)/);
    await browser.screenshot('dashboard-markets-1280', '#markets');
  });

  it('refreshes the access token a minute before it expires, and keeps working with the new one', async () => {
    const refreshed = page.waitForResponse(`${origin}/auth/refresh`);
    await page.clock.fastForward('14:01'); // access tokens live 15 minutes
    const rotation = await refreshed;
    expect(rotation.status()).toBe(200);
    const { accessToken } = (await rotation.json()) as { accessToken: string };
    await openPage('Usage');
    const next = page.waitForResponse((r) => r.url().startsWith(`${origin}/api/v1/usage/stats`));
    await page.locator('#usage').getByRole('button', { name: 'Refresh' }).click();
    const response = await next;
    expect(response.status()).toBe(200);
    expect(response.request().headers()['authorization']).toBe(`Bearer ${accessToken}`);
  });

  it('fits a 390 px wide screen without horizontal scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot('dashboard-390');
    for (const [link, id] of [
      ['API keys', 'keys'],
      ['Usage', 'usage'],
      ['Wallets', 'wallets'],
    ]) {
      await openPage(link);
      await browser.screenshot(`dashboard-390-${id}`, `#${id}`);
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
      ).toBe(0);
    }
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('signs out: the login ends, the cookie is cleared, and a reload shows the sign-in form', async () => {
    const [cookie] = (await page.context().cookies(`${origin}/auth/refresh`)).filter(
      (c) => c.name === 'cgk_refresh',
    );
    const logout = page.waitForResponse(`${origin}/auth/logout`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    const response = await logout;
    expect(response.status()).toBe(204);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(
      (await page.context().cookies(`${origin}/auth/refresh`)).map((c) => c.name),
    ).not.toContain('cgk_refresh');
    const refused = await api()
      .post('/auth/refresh')
      .set('Cookie', `cgk_refresh=${cookie.value}`)
      .send({})
      .expect(401);
    expect(refused.body.code).toBe('JWT_INVALID');
    // Signed out, a reload asks nothing of the service and shows the sign-in form.
    const before = browser.requests.length;
    // The sign-in form can render before its one request (whether sign-up is open) is sent:
    // wait for that answer, so the list below is complete rather than racing the page.
    const signup = page.waitForResponse(`${origin}/auth/signup`);
    await page.reload();
    await signup;
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(browser.requests.slice(before).filter((url) => url.includes('/auth/'))).toEqual([
      `${origin}/auth/signup`,
    ]);
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot('signin-390');
  });

  it('made no request outside its own origin, and logged no console error', () => {
    expect(browser.requests.length).toBeGreaterThan(10);
    expect(browser.requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    // The four refusals the walk provoked on purpose (wrong password, bad checksum, unknown
    // policy source, a pair with no route) are the only errors: Chromium logs each failed
    // response; the page logs nothing.
    expect(browser.consoleErrors).toEqual([
      expect.stringMatching(/status of 401/),
      expect.stringMatching(/status of 400/),
      expect.stringMatching(/status of 400/),
      expect.stringMatching(/status of 400/),
    ]);
  });
});

/** The address with the case of its first letter flipped: a wrong EIP-55 checksum. */
function wrongChecksum(address: string): string {
  const i = address.slice(2).search(/[a-fA-F]/) + 2;
  const c = address[i];
  return (
    address.slice(0, i) +
    (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) +
    address.slice(i + 1)
  );
}
