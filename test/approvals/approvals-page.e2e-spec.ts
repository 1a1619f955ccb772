// The page functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApprovalRequest } from '../../src/approvals/approval-request.entity';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { getApproval } from '../helpers/approvals';
import { login } from '../helpers/auth';
import { joinAs, JoinedMember } from '../helpers/members';
import { codeAt } from '../helpers/totp';
import { BrowserSession, openBrowser, openSection } from '../dashboard/browser';
import { layoutProblems } from '../dashboard/layout-check';

/**
 * The dashboard's Approvals page in Chromium (issue 55), at 1280 and 390 px: an admin with
 * two-factor sign-in sees the pending requests (what, who asked, the daily limit it would use,
 * the approvals so far) and approves one with the code of their authenticator app; at 390 px the
 * page is readable and the owner (no two-factor sign-in) approves another request from it. The requests are seeded as the gate
 * writes them (the build e2e, approvals.e2e-spec.ts, opens them on the devnet).
 */
describe('Dashboard approvals page in Chromium', () => {
  let t: TestApp;
  let origin: string;
  let accountId: string;
  let owner: TestAccount;
  let ownerToken: string;
  let requester: JoinedMember;
  let approver: JoinedMember & { secret: string };
  let browser: BrowserSession;
  let page: Page;
  const ids: string[] = [];

  async function seed(amount: string): Promise<string> {
    const id = randomUUID();
    const now = Date.now();
    await t.app
      .get(DataSource)
      .getRepository(ApprovalRequest)
      .insert({
        id,
        accountId,
        wallet: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
        operation: 'swap',
        requestedByType: 'user',
        requestedById: requester.userId,
        requesterUserId: requester.userId,
        fingerprint: '0'.repeat(64),
        request: '{}',
        gives: JSON.stringify([{ token: 'tUSDC', amount }]),
        status: 'pending',
        quorum: 2,
        roles: JSON.stringify(['owner', 'admin']),
        policyVersion: 1,
        createdMs: now,
        expiresMs: now + 3_600_000,
        decidedMs: null,
        usedMs: null,
      });
    ids.push(id);
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    origin = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    owner = await t.createAccount();
    accountId = owner.accountId;
    ownerToken = await login(t, owner);
    requester = await joinAs(t, ownerToken, 'admin');
    const joined = await joinAs(t, ownerToken, 'admin');
    // Enrolled with the previous step's code, so that the sign-in (this step) and the approval
    // (the next) each have a later code of their own: every code is accepted once, in order.
    const auth = { Authorization: `Bearer ${joined.token}` };
    const setup = await request(t.server).post('/api/v1/auth/mfa/totp/setup').set(auth).expect(200);
    await request(t.server)
      .post('/api/v1/auth/mfa/totp/enable')
      .set(auth)
      .send({ code: await codeAt(setup.body.secret, -1) })
      .expect(200);
    approver = { ...joined, secret: setup.body.secret };
    await request(t.server)
      .put('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${ownerToken}`)
      .send({
        sources: { mode: 'any', names: [] },
        countries: {},
        minSessionSeconds: 0,
        trading: {
          enforcement: 'service',
          limits: [{ token: 'tUSDC', perDay: '5000' }],
          approvals: {
            above: [{ token: 'tUSDC', amount: '1000' }],
            quorum: 2,
            roles: ['owner', 'admin'],
            ttlSeconds: 3600,
          },
        },
      })
      .expect(200);
    await seed('1500');
    await seed('2500');
    browser = await openBrowser(origin);
    page = browser.page;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const section = () => page.locator('#approvals');
  const card = (amount: string) =>
    section().getByRole('article', { name: `swap giving ${amount} tUSDC` });

  it('an admin with two-factor sign-in approves a pending request with a code (1280 px)', async () => {
    await page.goto(`${origin}/dashboard/`);
    await page.getByLabel('Email').fill(approver.email);
    await page.getByLabel('Password').fill(approver.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const otp = page.getByLabel('Authentication code (or a recovery code)');
    await otp.waitFor();
    await otp.fill(await codeAt(approver.secret));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#keys').waitFor();
    await openSection(page, 'Approvals', 'approvals');
    await card('1500').waitFor();
    const text = await card('1500').innerText();
    expect(text).toContain(requester.email);
    expect(text).toMatch(/0 of 2/);
    expect(text).toContain('1500 of 5000');
    expect({ problems: await page.evaluate(layoutProblems) }).toEqual({ problems: [] });
    await browser.screenshot('approvals-1280', '#approvals');

    // The owner approved first: the page shows it after a refresh.
    await request(t.server)
      .post(`/api/v1/approvals/${ids[0]}/approve`)
      .set('Authorization', `Bearer ${ownerToken}`)
      .send({})
      .expect(200);
    await section().getByRole('button', { name: 'Refresh' }).click();
    await card('1500')
      .getByText(/1 of 2/)
      .waitFor();

    // The step after the sign-in's (each code is accepted once).
    await card('1500')
      .getByLabel('Authenticator code')
      .fill(await codeAt(approver.secret, 1));
    await card('1500').getByRole('button', { name: 'Approve' }).click();
    await section()
      .getByRole('status')
      .getByText(/quorum is reached/)
      .waitFor();
    expect(await card('1500').count()).toBe(0);
    const read = await getApproval(t, { token: ownerToken }, ids[0]).expect(200);
    expect(read.body).toMatchObject({ status: 'approved', approvals: 2 });
    expect(read.body.votes[1]).toMatchObject({ userId: approver.userId, secondFactor: 'totp' });
  });

  it('fits 390 px, and the owner (no two-factor sign-in: no code field) approves from there', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The address still names the Approvals page: signed in, it opens there.
    await card('2500').waitFor();
    expect(await card('2500').getByLabel('Authenticator code').count()).toBe(0);
    expect({ problems: await page.evaluate(layoutProblems) }).toEqual({ problems: [] });
    const wide = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const el = document.getElementById('approvals')!;
      return [el, ...el.querySelectorAll('*')]
        .filter((e) => e.getBoundingClientRect().right > width + 0.5)
        .map((e) => `${e.tagName}.${e.className}`);
    });
    expect(wide).toEqual([]);
    await browser.screenshot('approvals-390', '#approvals');
    await card('2500').getByRole('button', { name: 'Approve' }).click();
    await card('2500').getByText('Waiting for the other approvers.').waitFor();
    expect(await card('2500').innerText()).toMatch(/1 of 2/);
    expect({ problems: await page.evaluate(layoutProblems) }).toEqual({ problems: [] });
    expect((await getApproval(t, { token: ownerToken }, ids[1]).expect(200)).body).toMatchObject({
      status: 'pending',
      approvals: 1,
    });
  });
});
