// The page functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import { generate } from '@otplib/totp';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { base32, nodeCrypto } from '../../src/auth/mfa/otp-plugins';
import { createTestApp, TestApp } from '../helpers/app';
import { ComplianceDevnet, startComplianceDevnet } from '../helpers/compliance';
import { BrowserSession, openBrowser } from '../dashboard/browser';

const codeAt = (secret: string, stepsAhead = 0) =>
  generate({
    secret,
    crypto: nodeCrypto,
    base32,
    epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead,
  });

/**
 * Sign-up, the Security section (TOTP enrolment with the QR code, recovery codes shown once) and
 * sign-in with a second factor, in Chromium (issue 33 item 8), at 1280 and 390 px.
 */
describe('Dashboard sign-up and two-factor sign-in in Chromium', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let origin: string;
  let browser: BrowserSession;
  let page: Page;
  const email = `mfa-page-${Date.now()}@example.com`;
  const password = 'a long enough passphrase';
  let secret: string;
  let recoveryCodes: string[];
  const failures: string[] = [];

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: { ...chain.env, SIGNUP_ENABLED: 'true' }, listen: true });
    origin = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    browser = await openBrowser(origin);
    page = browser.page;
    page.on('response', (r) => {
      if (r.status() >= 400) failures.push(`${r.status()} ${r.request().method()} ${r.url()}`);
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await chain?.close();
  });

  const security = () => page.locator('#security');
  const signOut = async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  };
  async function signInWith(otp?: string) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    if (otp === undefined) return;
    const field = page.getByLabel('Authentication code (or a recovery code)');
    await field.waitFor();
    await field.fill(otp);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('signs up from the sign-in page and lands signed in', async () => {
    await page.goto(`${origin}/dashboard/`);
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password (at least 12 characters)').fill(password);
    await page.getByLabel('Organisation name').fill('Browser Treasury');
    await browser.screenshot('signup-1280');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });

  it('enrols an authenticator: QR code, a code from the secret, recovery codes shown once', async () => {
    await page.getByRole('link', { name: 'Security' }).click();
    await security().getByTestId('mfa-status').getByText('off').waitFor();
    await security().getByRole('button', { name: 'Set up an authenticator app' }).click();
    const qr = security().getByTestId('mfa-qr');
    await qr.waitFor();
    expect(await qr.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(50);
    secret = (await security().getByTestId('mfa-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await browser.screenshot('security-setup-1280', '#security');
    await security()
      .getByLabel('The 6-digit code the app shows')
      .fill(await codeAt(secret));
    await security().getByRole('button', { name: 'Turn on' }).click();
    const codes = security().getByTestId('recovery-codes').locator('code');
    await codes.first().waitFor();
    recoveryCodes = await codes.allInnerTexts();
    expect(recoveryCodes).toHaveLength(10);
    await browser.screenshot('security-recovery-1280', '#security');
    await security().getByRole('button', { name: 'I have saved them' }).click();
    await security().getByTestId('mfa-status').getByText('on').waitFor();
    expect(await security().getByTestId('recovery-codes').count()).toBe(0);
  });

  it('asks for the code at sign-in, and takes a recovery code once', async () => {
    await signOut();
    await signInWith(await codeAt(secret, 1));
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await signOut();
    await signInWith(recoveryCodes[0]);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await signOut();
    await signInWith(recoveryCodes[0]);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('MFA_INVALID');
    await browser.screenshot('signin-otp-1280');
    await page.getByLabel('Authentication code (or a recovery code)').fill(recoveryCodes[1]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });

  it('fits a 390 px wide screen, and turns two-factor sign-in off with a recovery code', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Security' }).click();
    await security().getByTestId('mfa-status').getByText('on').waitFor();
    await browser.screenshot('security-390', '#security');
    // The section fits the screen: nothing in it sticks out to the right or scrolls sideways.
    const overflow = await security().evaluate((section) => {
      const right = Math.max(
        ...[section, ...section.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right),
      );
      return Math.max(
        0,
        right - document.documentElement.clientWidth,
        section.scrollWidth - section.clientWidth,
      );
    });
    expect(overflow).toBe(0);
    await security().getByLabel('Current code or a recovery code').fill(recoveryCodes[2]);
    await security().getByRole('button', { name: 'Turn off' }).click();
    await security().getByText('Two-factor sign-in is off.').waitFor();
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('logged no console error but the refusals it provoked', async () => {
    // MFA_REQUIRED three times (each login before its code), MFA_INVALID once (a spent recovery code).
    expect(failures.filter((f) => !f.startsWith('401 POST'))).toEqual([]);
    expect(failures).toHaveLength(4);
    expect(browser.consoleErrors).toEqual(
      failures.map(() => expect.stringMatching(/status of 401/)),
    );
  });
});
