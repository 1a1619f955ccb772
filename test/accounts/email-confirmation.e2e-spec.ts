import request from 'supertest';
import { DEVNET_ISSUER_PUBLIC_KEY, formatIssuerPublicKey } from '../../src/compliance/zk';
import { createTestApp, TEST_PASSWORD, TestAccount, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { ComplianceDevnet, startComplianceDevnet } from '../helpers/compliance';
import { startTestSmtp, TestSmtp } from '../helpers/smtp';
import { TEST_RECEIPT_SIGNING_KEY } from '../helpers/receipts';

/**
 * Issue 46 finding 2: an email is taken only by whoever controls it. Sign-ups and invitations are
 * confirmed through a link mailed (nodemailer) to a real SMTP server in this process; until then no
 * login exists and nobody is blocked, and the first confirmation wins. In demo and production mode.
 */
describe.each(['demo', 'production'] as const)('Email that proves control (%s mode)', (mode) => {
  let chain: ComplianceDevnet | undefined;
  let smtp: TestSmtp;
  let t: TestApp;
  let owner: TestAccount;
  let ownerToken: string;
  let n = 0;
  const fresh = (label: string) => `${label}-${mode}-${Date.now()}-${++n}@example.com`;
  const BASE = 'https://api.example.test';

  beforeAll(async () => {
    smtp = await startTestSmtp();
    const env: Record<string, string> = {
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Builder <builder@example.test>',
      SIGNUP_ENABLED: 'true',
      PUBLIC_BASE_URL: BASE,
    };
    if (mode === 'production') {
      chain = await startComplianceDevnet();
      Object.assign(env, chain.env, {
        APP_MODE: 'production',
        JWT_SECRET: 'a-production-like-secret-of-at-least-32-characters',
        MFA_ENCRYPTION_KEY: 'a-production-mfa-key-of-at-least-32-characters',
        WEBHOOK_SECRETS_KEY: 'a-production-webhook-key-of-at-least-32-characters',
        RECEIPT_SIGNING_KEY: TEST_RECEIPT_SIGNING_KEY,
        SIWE_DOMAIN: 'localhost',
        ATTESTER_PRIVATE_KEY: chain.attesterKey,
        // The devnet's hook is v3: production names the key its authorizations are signed with.
        AUTHORIZER_PRIVATE_KEY: chain.attesterKey,
        ZK_ISSUER_PUBLIC_KEY: formatIssuerPublicKey(DEVNET_ISSUER_PUBLIC_KEY),
      });
    }
    t = await createTestApp({ env });
    owner = await t.createAccount();
    ownerToken = await login(t, owner);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await chain?.close();
  });

  const signup = (email: string, password: string) =>
    request(t.server)
      .post('/auth/signup')
      .send({ email, password, accountName: 'Mine' })
      .expect(201);
  const confirm = (token: string) =>
    request(t.server).post('/auth/signup/confirm').send({ token }).expect(201);
  const invite = (bearer: string, email: string) =>
    request(t.server)
      .post('/api/v1/account/invitations')
      .set('Authorization', `Bearer ${bearer}`)
      .send({ email, role: 'developer' })
      .expect(201);
  const accept = (token: string, password: string) =>
    request(t.server).post('/auth/invitations/accept').send({ token, password }).expect(201);
  const canLogin = async (email: string, password: string) =>
    (await request(t.server).post('/auth/login').send({ email, password })).status === 200;
  const accountOf = async (email: string, password: string) =>
    (
      await request(t.server)
        .get('/api/v1/auth/me')
        .set('Authorization', `Bearer ${await login(t, { email, password })}`)
        .expect(200)
    ).body.account.id as string;

  it('opens a signed-up account only when the mailed link is followed', async () => {
    const email = fresh('signup');
    const answer = await signup(email, TEST_PASSWORD);
    expect(answer.body.link).toBeUndefined();
    expect(await canLogin(email, TEST_PASSWORD)).toBe(false);

    const token = await smtp.waitForToken(email, 'confirm-signup');
    const mail = smtp.received.find((m) => m.to.includes(email))!;
    expect(mail.from).toBe('builder@example.test');
    expect(mail.raw).toContain(`${BASE}/dashboard/#confirm-signup=${token}`);
    await confirm(token);
    expect(await canLogin(email, TEST_PASSWORD)).toBe(true);
    await request(t.server).post('/auth/signup/confirm').send({ token }).expect(404);
  });

  it('mails the invitation to the invitee: the inviter never holds the token (no takeover)', async () => {
    const victim = fresh('victim');
    const invited = await invite(ownerToken, victim);
    expect(invited.body).toMatchObject({ email: victim, mailed: true });
    expect(invited.body.token).toBeUndefined();
    expect(invited.body.link).toBeUndefined();

    // The real owner of the address signs up meanwhile: the invitation blocked nothing.
    await signup(victim, 'the real owner of it');
    await confirm(await smtp.waitForToken(victim, 'confirm-signup'));
    expect(await canLogin(victim, 'the real owner of it')).toBe(true);

    // The mailed invitation, accepted later, answers as usual and changes nothing.
    const token = await smtp.waitForToken(victim, 'accept-invitation');
    await accept(token, 'someone else chose it');
    expect(await canLogin(victim, 'someone else chose it')).toBe(false);
    expect(await accountOf(victim, 'the real owner of it')).not.toBe(owner.accountId);
  });

  it('lets the first confirmation win among sign-ups and invitations for one address', async () => {
    const email = fresh('race');
    await signup(email, 'first sign-up password');
    await signup(email, 'second sign-up password');
    const other = await t.createAccount();
    await invite(await login(t, other), email);
    await invite(ownerToken, email);
    const signups = smtp.received.filter(
      (m) => m.to.includes(email) && /confirm-signup/.test(m.raw),
    );
    const invitations = smtp.received.filter(
      (m) => m.to.includes(email) && /accept-invitation/.test(m.raw),
    );
    expect(signups).toHaveLength(2);
    expect(invitations).toHaveLength(2);
    const tokenOf = (raw: string) =>
      /#(?:confirm-signup|accept-invitation)=([\w-]+)/.exec(raw)![1]!;

    // The owner's invitation is accepted first: the address joins the owner's account.
    await accept(tokenOf(invitations[1]!.raw), 'joined by invitation');
    await confirm(tokenOf(signups[1]!.raw));
    await confirm(tokenOf(signups[0]!.raw));
    await accept(tokenOf(invitations[0]!.raw), 'too late to matter');
    expect(await canLogin(email, 'joined by invitation')).toBe(true);
    for (const late of ['first sign-up password', 'second sign-up password', 'too late to matter'])
      expect(await canLogin(email, late)).toBe(false);
    expect(await accountOf(email, 'joined by invitation')).toBe(owner.accountId);
  });
});

describe('Email in demo mode without SMTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SIGNUP_ENABLED: 'true' } });
  });
  afterAll(() => t.close());

  it('shows the sign-up and invitation links instead of mailing them', async () => {
    const email = `demo-${Date.now()}@example.com`;
    const answer = await request(t.server)
      .post('/auth/signup')
      .send({ email, password: TEST_PASSWORD, accountName: 'Demo' })
      .expect(201);
    const token = /#confirm-signup=(.+)$/.exec(answer.body.link as string)![1];
    await request(t.server).post('/auth/signup/confirm').send({ token }).expect(201);
    const bearer = await login(t, { email, password: TEST_PASSWORD });
    const invited = await request(t.server)
      .post('/api/v1/account/invitations')
      .set('Authorization', `Bearer ${bearer}`)
      .send({ email: `invitee-${Date.now()}@example.com`, role: 'viewer' })
      .expect(201);
    expect(invited.body).toMatchObject({ mailed: false, token: expect.stringMatching(/^inv_/) });
  });
});
