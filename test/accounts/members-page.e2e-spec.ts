// The page functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { createTestApp, TEST_PASSWORD, TestAccount, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { joinAs } from '../helpers/members';
import { ComplianceDevnet, startComplianceDevnet } from '../helpers/compliance';
import { BrowserSession, openBrowser } from '../dashboard/browser';

const INVITE_TOKEN = /^inv_[A-Za-z0-9_-]{43}$/;

/**
 * The dashboard's Members section and API key editing in Chromium (issue 33 item 8), against the
 * whole app on a port and the worker's devnet: an owner invites, changes a role, removes a member
 * and edits a key; a viewer sees the same page read-only. At 1280 and 390 px, no console error.
 */
describe('Dashboard members and key editing in Chromium', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let origin: string;
  let owner: TestAccount;
  let ownerToken: string;
  let browser: BrowserSession;
  let page: Page;
  const stamp = Date.now();
  const developerEmail = `dev-${stamp}@example.com`;
  const viewerEmail = `viewer-${stamp}@example.com`;
  let developerId: string;
  const failures: string[] = [];

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env, listen: true });
    origin = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    // pro: the usage section's reads of a few sign-ins stay well within the per-minute limit.
    owner = await t.createAccount({ plan: 'pro' });
    ownerToken = await login(t, owner);
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

  const members = () => page.locator('#members');

  async function signIn(email: string): Promise<void> {
    await page.goto(`${origin}/dashboard/`);
    // A reload resumes the previous member's login (its refresh cookie): end it first.
    const signOut = page.getByRole('button', { name: 'Sign out' });
    await page.getByLabel('Email').or(signOut).waitFor();
    if (await signOut.isVisible()) await signOut.click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  }

  async function accept(token: string): Promise<string> {
    const res = await request(t.server)
      .post('/auth/invitations/accept')
      .send({ token, password: TEST_PASSWORD })
      .expect(201);
    return res.body.email as string;
  }

  it('shows the owner the members, with a link to the section', async () => {
    await signIn(owner.email);
    await page.getByRole('link', { name: 'Members' }).click();
    await members().getByRole('heading', { name: 'Members' }).waitFor();
    const row = members().getByRole('row', { name: new RegExp(owner.email) });
    await row.waitFor();
    expect(await row.innerText()).toContain('owner');
    expect(await members().innerText()).toContain(`signed in as ${owner.email}`);
  });

  it('invites a developer: the link and token are shown once, then accepted', async () => {
    await members().getByLabel('Email').fill(developerEmail);
    await members().getByLabel('Role', { exact: true }).selectOption('developer');
    await members().getByRole('button', { name: 'Send invitation' }).click();

    const link = members().getByLabel('Invitation link');
    await link.waitFor();
    const shownLink = await link.inputValue();
    const token = await members().getByLabel('Token').inputValue();
    expect(token).toMatch(INVITE_TOKEN);
    expect(shownLink).toBe(`${origin}/dashboard/#accept-invitation=${token}`);
    expect(await members().getByRole('note').innerText()).toContain('only time');
    await members().getByRole('button', { name: 'Copy', exact: true }).click();
    await members().getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shownLink);
    await browser.screenshot('members-invited-1280', '#members');

    await members().getByRole('button', { name: 'Done' }).click();
    await link.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(token);
    const pending = members().getByRole('row', { name: new RegExp(developerEmail) });
    expect(await pending.innerText()).toContain('developer');

    await accept(token);
    const joined = await request(t.server)
      .get('/api/v1/account/members')
      .set('Authorization', `Bearer ${ownerToken}`)
      .expect(200);
    developerId = joined.body.items.find((m: { email: string }) => m.email === developerEmail)
      .userId as string;
    await members().getByRole('button', { name: 'Refresh' }).click();
    await members()
      .getByRole('region', { name: 'Pending invitations table' })
      .waitFor({ state: 'detached' });
    await members().getByLabel(`Role of ${developerEmail}`).waitFor();
  });

  it("changes the developer's role, and revokes a pending invitation", async () => {
    await members().getByLabel(`Role of ${developerEmail}`).selectOption('viewer');
    await members().getByText(`${developerEmail} is now viewer.`).waitFor();
    const listed = await request(t.server)
      .get('/api/v1/account/members')
      .set('Authorization', `Bearer ${ownerToken}`)
      .expect(200);
    expect(listed.body.items.find((m: { userId: string }) => m.userId === developerId).role).toBe(
      'viewer',
    );
    await members().getByLabel(`Role of ${developerEmail}`).selectOption('developer');
    await members().getByText(`${developerEmail} is now developer.`).waitFor();

    const other = `later-${stamp}@example.com`;
    await members().getByLabel('Email').fill(other);
    await members().getByRole('button', { name: 'Send invitation' }).click();
    await members().getByRole('button', { name: 'Done' }).click();
    await members()
      .getByRole('button', { name: `Revoke the invitation to ${other}` })
      .click();
    await members().getByText(`The invitation to ${other} was revoked.`).waitFor();
    const pending = await request(t.server)
      .get('/api/v1/account/invitations')
      .set('Authorization', `Bearer ${ownerToken}`)
      .expect(200);
    expect(pending.body.items).toEqual([]);
  });

  it("edits a key's name, scopes and expiry; the secret is not shown again", async () => {
    const key = await createApiKey(t, ownerToken, ['usage:read', 'defi:preflight'], {
      name: 'to edit',
    });
    // The keys list is read at sign-in: sign in again to see the key created here.
    await signIn(owner.email);
    await page.getByRole('button', { name: 'Edit to edit' }).click();
    const form = page.getByRole('form', { name: /Edit “to edit”/ });
    await form.waitFor();
    await form.getByLabel('Name').fill('edited');
    await form.getByLabel('defi:preflight').uncheck();
    const expiry = new Date(Date.now() + 90 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await form.getByLabel('Expires (empty: never)').fill(expiry);
    await browser.screenshot('key-edit-1280', '#keys');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.waitFor({ state: 'detached' });
    const row = page.locator('#keys').getByRole('row', { name: /edited/ });
    await row.waitFor();
    expect(await row.innerText()).not.toContain('defi:preflight');

    const listed = await request(t.server)
      .get('/api/v1/api-keys')
      .set('Authorization', `Bearer ${ownerToken}`)
      .expect(200);
    expect(listed.body.items.find((k: { id: string }) => k.id === key.id)).toMatchObject({
      name: 'edited',
      scopes: ['usage:read'],
      expiresAt: `${expiry}T23:59:59.000Z`,
      createdByUserId: owner.userId,
    });
    expect(await page.content()).not.toContain(key.key);
  });

  it('removes the developer after a confirmation; Cancel keeps them', async () => {
    await page.getByRole('link', { name: 'Members' }).click();
    await members()
      .getByRole('button', { name: `Remove ${developerEmail}` })
      .click();
    await members().getByRole('alertdialog').waitFor();
    await members().getByRole('button', { name: 'Cancel' }).click();
    await members().getByRole('alertdialog').waitFor({ state: 'detached' });

    await members()
      .getByRole('button', { name: `Remove ${developerEmail}` })
      .click();
    await members().getByRole('button', { name: 'Remove member' }).click();
    await members().getByText(`${developerEmail} was removed.`).waitFor();
    expect(await members().innerText()).not.toContain(`Role of ${developerEmail}`);
    const listed = await request(t.server)
      .get('/api/v1/account/members')
      .set('Authorization', `Bearer ${ownerToken}`)
      .expect(200);
    expect(listed.body.items.map((m: { userId: string }) => m.userId)).not.toContain(developerId);
  });

  it('lists the invitations revoked with a removed admin (issue 46), and those revoked by hand', async () => {
    const admin = await joinAs(t, ownerToken, 'admin');
    const planted = `planted-${stamp}@example.com`;
    await request(t.server)
      .post('/api/v1/account/invitations')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ email: planted, role: 'developer' })
      .expect(201);
    await request(t.server)
      .delete(`/api/v1/account/members/${admin.userId}`)
      .set('Authorization', `Bearer ${ownerToken}`)
      .expect(204);
    await members().getByRole('button', { name: 'Refresh' }).click();
    const revoked = members().getByRole('region', { name: 'Revoked invitations table' });
    await revoked.getByRole('row', { name: new RegExp(planted.replace(/[.]/g, '\\.')) }).waitFor();
    const text = await revoked.innerText();
    expect(text).toContain(`its inviter was removed (${admin.email})`);
    expect(text).toContain(`later-${stamp}@example.com`);
    expect(text).toContain('revoked by hand');
  });

  it('fits its sections to a 390 px wide screen without horizontal scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    // This page's sections, each on its own page; the header's navigation is the app shell's.
    for (const [link, id] of [
      ['Members', 'members'],
      ['API keys', 'keys'],
    ]) {
      await page.getByRole('link', { name: link, exact: true }).click();
      await page.locator(`#${id}`).waitFor();
      await browser.screenshot(`${id}-390`, `#${id}`);
      const fits = await page.locator(`#${id}`).evaluate((section) => {
        const box = section.getBoundingClientRect();
        return box.right <= document.documentElement.clientWidth &&
          section.scrollWidth <= section.clientWidth
          ? 'fits'
          : `${Math.round(box.right)} / ${section.scrollWidth} > ${section.clientWidth}`;
      });
      expect({ id, fits }).toEqual({ id, fits: 'fits' });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('opens an invitation link: the invitee sets a password, then signs in', async () => {
    const invited = await request(t.server)
      .post('/api/v1/account/invitations')
      .set('Authorization', `Bearer ${ownerToken}`)
      .send({ email: viewerEmail, role: 'viewer' })
      .expect(201);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto(`${origin}${invited.body.link}`);
    await page.getByRole('heading', { name: 'Accept the invitation' }).waitFor();
    // The page says what the invitation joins: the account, the role and the email.
    const me = await request(t.server)
      .get('/api/v1/auth/me')
      .set('Authorization', `Bearer ${ownerToken}`)
      .expect(200);
    const offer = page.getByTestId('invitation-offer');
    await offer.waitFor();
    expect(await offer.innerText()).toContain(
      `You are invited to join ${me.body.account.name} as viewer, with the email ${viewerEmail}.`,
    );
    await page.getByText('Compliance-gated DeFi builder').waitFor();
    await page.getByLabel('Password (at least 12 characters)').fill(TEST_PASSWORD);
    await browser.screenshot('accept-invitation-1280');
    await page.getByRole('button', { name: 'Join the account' }).click();
    await page
      .getByText(`had no login yet, it now has one, with the viewer role`, { exact: false })
      .waitFor();
    // The spent token left the address bar.
    expect(page.url()).toBe(`${origin}/dashboard/`);
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot('accept-invitation-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('shows a viewer the members and keys read-only', async () => {
    await signIn(viewerEmail);
    await page.locator('#keys').getByText('Your role (viewer) reads the keys').waitFor();
    expect(
      await page
        .locator('#keys')
        .getByRole('button', { name: /Edit|Revoke/ })
        .count(),
    ).toBe(0);
    await page.getByRole('link', { name: 'Members' }).click();
    await members()
      .getByRole('row', { name: new RegExp(viewerEmail) })
      .waitFor();
    expect(await members().locator('select').count()).toBe(0);
    expect(
      await members()
        .getByRole('button', { name: /Remove|Send invitation/ })
        .count(),
    ).toBe(0);
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot('members-viewer-390', '#members');
    await page.setViewportSize({ width: 1280, height: 900 });
    await browser.screenshot('members-viewer-1280', '#members');
  });

  it('made no request outside its own origin, and logged no console error', () => {
    expect(browser.requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    // A viewer's dashboard asks for nothing its role is refused (webhooks are owner/admin only).
    expect(failures).toEqual([]);
    expect(browser.consoleErrors).toEqual([]);
  });
});
