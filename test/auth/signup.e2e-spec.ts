import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';

const SIGNED_UP =
  'Follow the link sent to this address to open the account (POST /auth/signup/confirm with its token), then log in with POST /auth/login.';
const CONFIRMED =
  'If this email had no login yet, its account is open now: log in with POST /auth/login.';
const CONFIRM_LINK = /^\/dashboard\/#confirm-signup=(suc_[A-Za-z0-9_-]{43})$/;

describe('SignupService: POST /auth/signup', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SIGNUP_ENABLED: 'true' } });
  });
  afterAll(() => t.close());

  const password = 'a long enough passphrase';
  let counter = 0;
  const freshEmail = () => `signup-${Date.now()}-${++counter}@example.com`;

  it('hints at sign-up when a login is refused (INVALID_CREDENTIALS)', async () => {
    const res = await request(t.server)
      .post('/auth/login')
      .send({ email: freshEmail(), password: 'not the password' })
      .expect(401);
    expect(res.body.code).toBe('INVALID_CREDENTIALS');
    expect(res.body.hint).toMatch(/Sign up with POST \/auth\/signup/);
    expect(res.body.hint).not.toMatch(/operator/);
  });

  it('says it is open, with the password rule', async () => {
    for (const path of ['/auth/signup', '/api/v1/auth/signup']) {
      const res = await request(t.server).get(path).expect(200);
      expect(res.body).toEqual({ enabled: true, passwordMinLength: 12 });
    }
  });

  it('opens an account whose first user is its owner, on the free plan; login works', async () => {
    const email = freshEmail();
    const res = await request(t.server)
      .post('/auth/signup')
      .send({ email: email.toUpperCase(), password, accountName: 'Acme Treasury' })
      .expect(201);
    expect(res.body).toEqual({
      email,
      message: SIGNED_UP,
      next: '/auth/signup/confirm',
      link: expect.stringMatching(CONFIRM_LINK),
    });
    // Nothing exists until the link is followed (demo mode without SMTP: the link is in the answer).
    await request(t.server).post('/auth/login').send({ email, password }).expect(401);
    const confirmed = await request(t.server)
      .post('/auth/signup/confirm')
      .send({ token: CONFIRM_LINK.exec(res.body.link)![1] })
      .expect(201);
    expect(confirmed.body).toEqual({ email, message: CONFIRMED, next: '/auth/login' });
    const tokens = await request(t.server)
      .post('/auth/login')
      .send({ email, password })
      .expect(200);
    const me = await request(t.server)
      .get('/api/v1/auth/me')
      .set('Authorization', `Bearer ${tokens.body.accessToken}`)
      .expect(200);
    expect(me.body.user).toMatchObject({ email, role: 'owner' });
    expect(me.body.account).toMatchObject({ name: 'Acme Treasury', plan: 'free' });
  });

  it('answers a taken email exactly like a free one, and changes nothing', async () => {
    const existing = await t.createAccount();
    const res = await request(t.server)
      .post('/auth/signup')
      .send({ email: existing.email, password, accountName: 'Squatter' })
      .expect(201);
    expect(res.body).toEqual({
      email: existing.email,
      message: SIGNED_UP,
      next: '/auth/signup/confirm',
      link: expect.stringMatching(CONFIRM_LINK),
    });
    const confirmed = await request(t.server)
      .post('/auth/signup/confirm')
      .send({ token: CONFIRM_LINK.exec(res.body.link)![1] })
      .expect(201);
    expect(confirmed.body).toEqual({
      email: existing.email,
      message: CONFIRMED,
      next: '/auth/login',
    });
    await request(t.server)
      .post('/auth/login')
      .send({ email: existing.email, password: existing.password })
      .expect(200);
    const squat = await request(t.server)
      .post('/auth/login')
      .send({ email: existing.email, password })
      .expect(401);
    expect(squat.body.code).toBe('INVALID_CREDENTIALS');
  });

  it('applies the password rule and validates the body', async () => {
    const res = await request(t.server)
      .post('/auth/signup')
      .send({ email: freshEmail(), password: 'short', accountName: 'A' })
      .expect(400);
    expect(res.body.code).toBe('INVALID_PARAMS');
    expect(res.body.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'password' })]),
    );
    const noName = await request(t.server)
      .post('/auth/signup')
      .send({ email: freshEmail(), password })
      .expect(400);
    expect(noName.body.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'accountName' })]),
    );
  });

  it('counts sign-ups toward the failed-login limit of the client IP', async () => {
    const limited = await createTestApp({
      env: { SIGNUP_ENABLED: 'true', AUTH_FAILED_LOGINS_PER_IP_PER_MINUTE: '2' },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await request(limited.server)
          .post('/auth/signup')
          .send({ email: freshEmail(), password, accountName: `Throttled ${i}` });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([201, 201, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('SignupService: SIGNUP_ENABLED=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SIGNUP_ENABLED: 'false' } });
  });
  afterAll(() => t.close());

  it('hints that an operator creates accounts when a login is refused (INVALID_CREDENTIALS)', async () => {
    const res = await request(t.server)
      .post('/auth/login')
      .send({ email: 'nobody@example.com', password: 'not the password' })
      .expect(401);
    expect(res.body.code).toBe('INVALID_CREDENTIALS');
    expect(res.body.hint).toMatch(/operator/);
    expect(res.body.hint).not.toMatch(/signup|sign up/i);
  });

  it('tells the sign-in page, and answers 404 NOT_FOUND like an unknown route', async () => {
    const offer = await request(t.server).get('/auth/signup').expect(200);
    expect(offer.body).toEqual({ enabled: false, passwordMinLength: 12 });
    const unknown = await request(t.server).post('/auth/no-such-route').send({}).expect(404);
    const probe = await request(t.server).post('/api/v1/auth/signup').send({}).expect(404);
    const signup = await request(t.server)
      .post('/auth/signup')
      .send({ email: 'x@example.com', password: 'a long enough passphrase', accountName: 'X' })
      .expect(404);
    const shape = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });
    expect(shape(probe.body)).toEqual(shape(unknown.body));
    expect(shape(signup.body)).toEqual(shape(unknown.body));
    expect(signup.body.code).toBe('NOT_FOUND');
    const confirm = await request(t.server).post('/auth/signup/confirm').send({}).expect(404);
    expect(shape(confirm.body)).toEqual(shape(unknown.body));
  });
});
