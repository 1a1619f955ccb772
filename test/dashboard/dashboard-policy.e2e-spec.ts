// The page functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import type { AddressInfo } from 'node:net';
import type { Page, Route } from 'playwright-core';
import request from 'supertest';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { ComplianceDevnet, startComplianceDevnet } from '../helpers/compliance';
import { pollUntil } from '../helpers/wait';
import { BrowserSession, openBrowser, signInThroughPage } from './browser';

/**
 * Issue 53 item 3, the compliance policy form on the Wallets page: what the user types survives
 * the page re-rendering under it (the wallets' preflights arriving), the save reports what the
 * service stored (from its answer, never a blind "saved"), and a refusal keeps the input and
 * shows each detail next to its field. What happens to a wallet whose country cannot be
 * established (countries.unknown) is a control of its own, kept as chosen when the lists are
 * emptied and stated in the summary of each save.
 */
describe('Dashboard compliance policy form in Chromium', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let origin: string;
  let owner: TestAccount;
  let token: string;
  let browser: BrowserSession;
  let page: Page;

  const stored = async () =>
    (
      await request(t.server)
        .get('/api/v1/compliance/policy')
        .set('Authorization', `Bearer ${token}`)
        .expect(200)
    ).body;
  const panel = () => page.getByRole('region', { name: 'Compliance policy' });
  const deny = () => panel().getByLabel('Denied countries');

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env, listen: true });
    origin = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    owner = await t.createAccount();
    token = await login(t, owner);
    // Bound wallets: the page reads each one's preflight, and re-renders when they arrive.
    for (const wallet of chain.wallets.slice(1, 4))
      await request(t.server)
        .post('/api/v1/onboarding/register')
        .set('Authorization', `Bearer ${token}`)
        .send({ walletAddress: wallet.address })
        .expect(200);
    browser = await openBrowser(origin);
    page = browser.page;
    await signInThroughPage(page, origin, owner);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await chain?.close();
  });

  it('keeps a denied country typed right after the form appears, while the wallets load under it, and saves exactly that', async () => {
    // The wallets' preflights are held until the country is typed: their arrival re-renders the
    // page under the form, as on a slow chain or with a fast typist.
    const held: Route[] = [];
    let released = false;
    await page.route('**/api/v1/defi/preflight/**', (route) =>
      released ? route.continue() : void held.push(route),
    );
    await page.getByRole('link', { name: 'Wallets', exact: true }).click();
    await deny().waitFor();
    await deny().pressSequentially('kp');
    await pollUntil(
      'the wallets page to ask for a preflight',
      async () => held.length,
      (n) => n > 0,
    );
    released = true;
    for (const route of held.splice(0)) await route.continue();
    await page.unroute('**/api/v1/defi/preflight/**');
    await page.locator('#wallets [data-testid=session]').nth(2).waitFor();
    await page.getByText('No session').first().waitFor();
    expect(await deny().inputValue()).toBe('kp');

    await panel().getByRole('button', { name: 'Save policy' }).click();
    const saved = panel().getByTestId('policy-saved');
    await saved.waitFor();
    expect(await saved.innerText()).toMatch(/^Policy saved: .*denied countries: KP;/);
    expect(await saved.getAttribute('role')).toBe('status');
    // A deny list writes out the fail-closed default for an unknown country (issue 52).
    expect((await stored()).countries).toEqual({ deny: ['KP'], unknown: 'refuse' });
    // The form shows what was stored.
    expect(await deny().inputValue()).toBe('KP');
  });

  it('keeps the input on a refusal and shows the detail next to the field it is about', async () => {
    await deny().fill('KP, XYZ');
    await panel().getByLabel('Shortest session in seconds').fill('600');
    await panel().getByRole('button', { name: 'Save policy' }).click();
    const problem = panel().locator('#policy-deny-error');
    await problem.waitFor();
    expect(await problem.innerText()).toContain('ISO 3166-1 alpha-2');
    expect(await deny().getAttribute('aria-invalid')).toBe('true');
    expect(await deny().getAttribute('aria-describedby')).toBe('policy-deny-error');
    expect(await deny().inputValue()).toBe('KP, XYZ');
    expect(await panel().getByLabel('Shortest session in seconds').inputValue()).toBe('600');
    const alert = panel().getByRole('alert');
    expect(await alert.innerText()).toContain('INVALID_PARAMS');
    expect(await panel().getByTestId('policy-saved').count()).toBe(0);
    // Nothing changed on the service.
    expect(await stored()).toMatchObject({ countries: { deny: ['KP'] }, minSessionSeconds: 0 });

    // Fixed: saved, the detail and the alert gone.
    await deny().fill('KP, IR');
    await panel().getByRole('button', { name: 'Save policy' }).click();
    await panel().getByTestId('policy-saved').waitFor();
    await problem.waitFor({ state: 'detached' });
    expect(await stored()).toMatchObject({
      countries: { deny: ['KP', 'IR'] },
      minSessionSeconds: 600,
    });
  });

  it('says so when the service stored something other than what was sent, showing what it stored', async () => {
    // The answer rewritten on its way to the page: the service "saved" an empty deny list.
    await page.route('**/api/v1/compliance/policy', async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      const response = await route.fetch();
      const body = (await response.json()) as { countries: Record<string, unknown> };
      await route.fulfill({ response, json: { ...body, countries: {} } });
    });
    try {
      await deny().fill('KP, IR, CU');
      await panel().getByRole('button', { name: 'Save policy' }).click();
      const saved = panel().getByTestId('policy-saved');
      await saved.waitFor();
      expect(await saved.getAttribute('role')).toBe('alert');
      expect(await saved.innerText()).toMatch(
        /^Saved, but not as sent\. The policy now reads: .*denied countries: none;/,
      );
      expect(await deny().inputValue()).toBe('');
    } finally {
      await page.unroute('**/api/v1/compliance/policy');
    }
  });

  it('sets trade rules (issue 54): enforcement, allowed tokens and limits, stored as the market spells them; a refusal shows at the limits field', async () => {
    await deny().fill('');
    await panel().getByLabel('Trade rules').selectOption('service');
    await panel().getByLabel('Tokens allowed').fill('eth, tUSDC');
    const limits = panel().getByLabel('Limits in whole tokens');
    await limits.fill('WETH 2/5.0000000000000000001');
    await panel().getByRole('button', { name: 'Save policy' }).click();
    const problem = panel().locator('#policy-limits-error');
    await problem.waitFor();
    expect(await problem.innerText()).toContain('decimals');
    expect(await limits.getAttribute('aria-invalid')).toBe('true');
    expect((await stored()).trading).toBeUndefined();

    await limits.fill('WETH 2/5, tUSDC -/10000');
    await panel().getByRole('button', { name: 'Save policy' }).click();
    const saved = panel().getByTestId('policy-saved');
    await saved.waitFor();
    expect(await saved.innerText()).toMatch(
      /trade rules \(service\): tokens WETH, tUSDC, limits WETH 2\/5, tUSDC -\/10000\./,
    );
    expect((await stored()).trading).toEqual({
      enforcement: 'service',
      tokens: { allow: ['WETH', 'tUSDC'] },
      limits: [
        { token: 'WETH', perTrade: '2', perDay: '5' },
        { token: 'tUSDC', perDay: '10000' },
      ],
    });
    expect(await panel().getByLabel('Tokens allowed').inputValue()).toBe('WETH, tUSDC');

    // None: the trade rules are removed.
    await panel().getByLabel('Trade rules').selectOption('');
    await panel().getByRole('button', { name: 'Save policy' }).click();
    await pollUntil('the trade rules removed', stored, (policy) => policy.trading === undefined);
  });

  it('sets approvals (issue 55): thresholds, quorum, roles, time open; a refusal shows at its field', async () => {
    await deny().fill('');
    await panel().getByLabel('Trade rules').selectOption('service');
    await panel().getByLabel('Tokens allowed').fill('');
    await panel().getByLabel('Limits in whole tokens').fill('');
    await panel().getByLabel('Approvals above').fill('tUSDC 1000, eth 2.50');
    await panel().getByLabel('Approvals needed').fill('2');
    const roles = panel().getByLabel('Roles that approve');
    await roles.fill('owner, treasurer');
    await panel().getByLabel('Approval requests stay open').fill('3600');
    await panel().getByRole('button', { name: 'Save policy' }).click();
    await panel().locator('#policy-approvalsRoles-error').waitFor();
    expect(await roles.getAttribute('aria-invalid')).toBe('true');
    expect((await stored()).trading).toBeUndefined();

    await roles.fill('owner, admin');
    await panel().getByRole('button', { name: 'Save policy' }).click();
    const saved = panel().getByTestId('policy-saved');
    await saved.waitFor();
    expect(await saved.innerText()).toMatch(
      /approvals: 2 of owner, admin above tUSDC 1000, WETH 2\.5\./,
    );
    expect((await stored()).trading).toEqual({
      enforcement: 'service',
      approvals: {
        above: [
          { token: 'tUSDC', amount: '1000' },
          { token: 'WETH', amount: '2.5' },
        ],
        quorum: 2,
        roles: ['owner', 'admin'],
        ttlSeconds: 3600,
      },
    });
    expect(await panel().getByLabel('Approvals above').inputValue()).toBe('tUSDC 1000, WETH 2.5');

    await panel().getByLabel('Trade rules').selectOption('');
    await panel().getByRole('button', { name: 'Save policy' }).click();
    await pollUntil('the trade rules removed', stored, (policy) => policy.trading === undefined);
  });

  it('sets what happens to a wallet whose country cannot be established, kept when the lists are emptied and said in the summary', async () => {
    const unknown = () => panel().getByLabel('A wallet whose country cannot be established');
    const hint = () => panel().getByTestId('policy-unknown-hint');
    // The message of this save, not the one of the save before it.
    const save = async () => {
      await Promise.all([
        page.waitForResponse(
          (r) => r.url().endsWith('/api/v1/compliance/policy') && r.request().method() === 'PUT',
        ),
        panel().getByRole('button', { name: 'Save policy' }).click(),
      ]);
      const saved = panel().getByTestId('policy-saved');
      await saved.waitFor();
      return saved;
    };
    await panel().getByLabel('Allowed countries').fill('');
    await deny().fill('');
    await save();
    expect((await stored()).countries).toEqual({});
    // Unset, the control shows the service's default for the lists typed: refuse once one is.
    expect(await unknown().inputValue()).toBe('allow');
    await deny().fill('KP');
    expect(await unknown().inputValue()).toBe('refuse');

    await unknown().selectOption('allow');
    expect(await hint().innerText()).toContain('not judged by the country lists');
    let saved = await save();
    expect(await saved.innerText()).toMatch(
      /^Policy saved: .*denied countries: KP; wallets without a country: allowed;/,
    );
    expect((await stored()).countries).toEqual({ deny: ['KP'], unknown: 'allow' });

    await page.reload();
    await unknown().waitFor();
    expect(await unknown().inputValue()).toBe('allow');
    expect(await deny().inputValue()).toBe('KP');

    // Lists emptied: the choice stays as shown, and the summary says what applies.
    await deny().fill('');
    expect(await unknown().inputValue()).toBe('allow');
    saved = await save();
    expect(await saved.innerText()).toMatch(
      /denied countries: none; wallets without a country: allowed;/,
    );
    expect((await stored()).countries).toEqual({ unknown: 'allow' });

    // Refuse with no list: every wallet without a country attestation is refused, visibly.
    await deny().fill('KP');
    await unknown().selectOption('refuse');
    await save();
    await deny().fill('');
    expect(await unknown().inputValue()).toBe('refuse');
    expect(await hint().innerText()).toMatch(/^Refused, though no country is listed/);
    saved = await save();
    expect(await saved.innerText()).toMatch(
      /^Policy saved: .*denied countries: none; wallets without a country: refused;/,
    );
    expect(await saved.getAttribute('role')).toBe('status');
    // The stored policy is what the form says.
    const countries = (await stored()).countries;
    expect(countries).toEqual({ unknown: 'refuse' });
    expect(await unknown().inputValue()).toBe(countries.unknown);
    expect(await deny().inputValue()).toBe('');
    expect(await panel().getByLabel('Allowed countries').inputValue()).toBe('');
  });

  it('shows the details of any refusal, not only the form fields', async () => {
    await page.getByLabel('Wallet address').fill('0x12');
    await page.locator('form.bind').evaluate((form: HTMLFormElement) => (form.noValidate = true));
    await page.getByRole('button', { name: 'Bind wallet' }).click();
    const alert = page.locator('#wallets > .error');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('INVALID_ADDRESS');
    expect(await alert.getByRole('list', { name: 'Details' }).innerText()).toMatch(
      /^walletAddress: walletAddress must be a 0x-prefixed 40-hex-character address/,
    );
  });
});
