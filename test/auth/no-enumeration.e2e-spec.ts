import request from 'supertest';
import { createTestApp, TEST_PASSWORD, TestAccount, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { startTestSmtp, TestSmtp } from '../helpers/smtp';

/**
 * Issue 46 finding 1 (docs/security.md, "No answer tells whether an email has a login"): sign-up,
 * its confirmation, invitation, acceptance and login answer an email that has a login exactly as
 * one that has none (status and body, the email and ids aside), and count toward the same
 * throttles. Invitation links go through a real SMTP server in this process.
 */
describe('No email enumeration (SignupService, InvitationsService, AuthService)', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let owner: TestAccount;
  let ownerToken: string;
  let taken: TestAccount;
  let n = 0;
  const freeEmail = () => `free-${Date.now()}-${++n}@example.com`;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({ env: { SIGNUP_ENABLED: 'true', SMTP_URL: smtp.url } });
    owner = await t.createAccount();
    ownerToken = await login(t, owner);
    // An email with a login, in another account.
    taken = await t.createAccount();
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** The answer with what legitimately differs (the email, ids, times, request ids) masked. */
  function shape(res: request.Response, email: string) {
    const text = JSON.stringify(res.body)
      .split(email)
      .join('<email>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
      .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, '<time>');
    const body = JSON.parse(text) as Record<string, unknown>;
    delete body.requestId;
    return { status: res.status, body, retryAfter: res.headers['retry-after'] };
  }

  const invite = (email: string) =>
    request(t.server)
      .post('/api/v1/account/invitations')
      .set('Authorization', `Bearer ${ownerToken}`)
      .send({ email, role: 'viewer' });

  it('answers an invitation alike, and its acceptance alike', async () => {
    const free = freeEmail();
    const [toTaken, toFree] = [await invite(taken.email), await invite(free)];
    expect(shape(toTaken, taken.email)).toEqual(shape(toFree, free));
    expect(toTaken.status).toBe(201);
    expect(toTaken.body.token).toBeUndefined();

    const takenToken = await smtp.waitForToken(taken.email, 'accept-invitation');
    const freeToken = await smtp.waitForToken(free, 'accept-invitation');
    const acceptTaken = await request(t.server)
      .post('/auth/invitations/accept')
      .send({ token: takenToken, password: TEST_PASSWORD });
    const acceptFree = await request(t.server)
      .post('/auth/invitations/accept')
      .send({ token: freeToken, password: TEST_PASSWORD });
    expect(shape(acceptTaken, taken.email)).toEqual(shape(acceptFree, free));
    expect(acceptTaken.status).toBe(201);
    // And the email with a login kept its one account.
    const me = await request(t.server)
      .get('/api/v1/auth/me')
      .set('Authorization', `Bearer ${await login(t, taken)}`)
      .expect(200);
    expect(me.body.account.id).toBe(taken.accountId);
  });

  it('answers a sign-up alike, and its confirmation alike', async () => {
    const free = freeEmail();
    const body = (email: string) => ({
      email,
      password: 'another long passphrase',
      accountName: 'X',
    });
    const signTaken = await request(t.server).post('/auth/signup').send(body(taken.email));
    const signFree = await request(t.server).post('/auth/signup').send(body(free));
    expect(shape(signTaken, taken.email)).toEqual(shape(signFree, free));
    expect(signTaken.status).toBe(201);

    const takenToken = await smtp.waitForToken(taken.email, 'confirm-signup');
    const freeToken = await smtp.waitForToken(free, 'confirm-signup');
    const confirmTaken = await request(t.server)
      .post('/auth/signup/confirm')
      .send({ token: takenToken });
    const confirmFree = await request(t.server)
      .post('/auth/signup/confirm')
      .send({ token: freeToken });
    expect(shape(confirmTaken, taken.email)).toEqual(shape(confirmFree, free));
    expect(confirmTaken.status).toBe(201);
    await request(t.server)
      .post('/auth/login')
      .send({ email: taken.email, password: 'another long passphrase' })
      .expect(401);
  });

  it('answers a failed login alike', async () => {
    const free = freeEmail();
    const wrong = (email: string) =>
      request(t.server).post('/auth/login').send({ email, password: 'not the password!' });
    const [a, b] = [await wrong(taken.email), await wrong(free)];
    expect(shape(a, taken.email)).toEqual(shape(b, free));
    expect(a.status).toBe(401);
  });
});

describe('The throttles of sign-up, acceptance and login count every email alike', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let ownerToken: string;
  let taken: TestAccount;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    // Two attempts a minute per IP: the third, whatever its email, is refused.
    t = await createTestApp({
      env: {
        SIGNUP_ENABLED: 'true',
        SMTP_URL: smtp.url,
        AUTH_FAILED_LOGINS_PER_IP_PER_MINUTE: '2',
      },
    });
    ownerToken = await login(t, await t.createAccount());
    taken = await t.createAccount();
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function invitationToken(email: string): Promise<string> {
    await request(t.server)
      .post('/api/v1/account/invitations')
      .set('Authorization', `Bearer ${ownerToken}`)
      .send({ email, role: 'viewer' })
      .expect(201);
    return smtp.waitForToken(email, 'accept-invitation');
  }

  it('counts acceptances per IP, for an email with a login and one without alike', async () => {
    const free = `throttled-${Date.now()}@example.com`;
    const tokens = [await invitationToken(taken.email), await invitationToken(free)];
    const statuses: number[] = [];
    for (const token of [...tokens, tokens[1]!]) {
      const res = await request(t.server)
        .post('/auth/invitations/accept')
        .send({ token, password: TEST_PASSWORD });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body).toMatchObject({
          code: 'RATE_LIMIT_EXCEEDED',
          retryAfter: expect.any(Number),
        });
        expect(res.headers['retry-after']).toBeDefined();
      }
    }
    expect(statuses).toEqual([201, 201, 429]);
    // The sign-up and login of this IP are refused too: one failed-login budget per IP.
    const signup = await request(t.server)
      .post('/auth/signup')
      .send({ email: `x-${Date.now()}@example.com`, password: TEST_PASSWORD, accountName: 'X' });
    expect(signup.status).toBe(429);
  });
});

describe('Acceptance attempts per token', () => {
  let t: TestApp;
  let ownerToken: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { AUTH_FAILED_LOGINS_PER_IP_PER_MINUTE: '1000' } });
    ownerToken = await login(t, await t.createAccount());
  });
  afterAll(() => t.close());

  it('allows 10 attempts a minute with one token; then 429', async () => {
    const invited = await request(t.server)
      .post('/api/v1/account/invitations')
      .set('Authorization', `Bearer ${ownerToken}`)
      .send({ email: `per-token-${Date.now()}@example.com`, role: 'viewer' })
      .expect(201);
    const counted: number[] = [];
    const unknown = `inv_${'B'.repeat(43)}`;
    for (let i = 0; i < 11; i++) {
      const res = await request(t.server)
        .post('/auth/invitations/accept')
        .send({ token: unknown, password: TEST_PASSWORD });
      counted.push(res.status);
    }
    expect(counted).toEqual([...Array(10).fill(404), 429]);
    await request(t.server)
      .post('/auth/invitations/accept')
      .send({ token: invited.body.token, password: TEST_PASSWORD })
      .expect(201);
  });
});
