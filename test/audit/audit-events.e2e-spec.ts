import { generate } from '@otplib/totp';
import request from 'supertest';
import { base32, nodeCrypto } from '../../src/auth/mfa/otp-plugins';
import { runCommand } from '../../src/cli/cli-commands';
import { RetentionScheduler } from '../../src/usage/retention/retention.scheduler';
import { OPERATOR_ACTOR } from '../../src/events/activity-event';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';

const codeAt = (secret: string, stepsAhead = 0) =>
  generate({
    secret,
    crypto: nodeCrypto,
    base32,
    epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead,
  });

const AGENT = 'audit-e2e/1.0';

describe('AuditEventsService: GET /api/v1/audit-events', () => {
  let t: TestApp;
  const email = `audit-${Date.now()}@example.com`;
  const password = 'a long enough passphrase';
  /** What each step sent as X-Request-Id, in order, with the event it must leave. */
  const steps: Array<{ type: string; requestId: string | null; actor: object }> = [];
  let userId: string;
  let auditKey: { id: string; key: string };

  let n = 0;
  const send = (req: request.Test, type: string, actor: object) => {
    const requestId = `audit-step-${++n}`;
    steps.push({ type, requestId, actor });
    return req.set('X-Request-Id', requestId).set('User-Agent', AGENT);
  };
  const bearer = (token: string) => `Bearer ${token}`;

  beforeAll(async () => {
    t = await createTestApp({
      env: { SIGNUP_ENABLED: 'true', AUTH_REFRESH_REUSE_GRACE_SECONDS: '0' },
    });
    const user = { type: 'user', id: expect.any(String) };
    // The account opens (and auth.signup is recorded) when the sign-up link is followed; without
    // SMTP (demo mode) the link is in the answer.
    const signup = await request(t.server)
      .post('/auth/signup')
      .send({ email, password, accountName: 'Audited' })
      .expect(201);
    const confirmation = /#confirm-signup=(.+)$/.exec(signup.body.link as string)![1];
    await send(
      request(t.server).post('/auth/signup/confirm').send({ token: confirmation }),
      'auth.signup',
      user,
    ).expect(201);
    await send(
      request(t.server).post('/auth/login').send({ email, password: 'wrong password!' }),
      'auth.login_failed',
      { type: 'user', id: null },
    ).expect(401);
    const first = await send(
      request(t.server).post('/auth/login').send({ email, password }),
      'auth.login_succeeded',
      user,
    ).expect(200);
    const token = first.body.accessToken as string;
    const me = await request(t.server).get('/api/v1/auth/me').set('Authorization', bearer(token));
    userId = me.body.user.id;
    const keyRes = await send(
      request(t.server)
        .post('/api/v1/api-keys')
        .set('Authorization', bearer(token))
        .send({ name: 'siem', scopes: ['audit:read'] }),
      'api_key.created',
      user,
    ).expect(201);
    auditKey = { id: keyRes.body.id, key: keyRes.body.key };
    const other = await send(
      request(t.server)
        .post('/api/v1/api-keys')
        .set('Authorization', bearer(token))
        .send({ name: 'other', scopes: ['usage:read'] }),
      'api_key.created',
      user,
    ).expect(201);
    await send(
      request(t.server)
        .delete(`/api/v1/api-keys/${other.body.id}`)
        .set('Authorization', bearer(token)),
      'api_key.revoked',
      user,
    ).expect(200);
    // Refresh, then replay the rotated token: reuse (no retry grace in this app).
    const rotated = await request(t.server)
      .post('/auth/refresh')
      .send({ refreshToken: first.body.refreshToken })
      .expect(200);
    await send(
      request(t.server).post('/auth/refresh').send({ refreshToken: first.body.refreshToken }),
      'auth.refresh_reuse_detected',
      user,
    ).expect(401);
    expect(rotated.body.refreshToken).toBeDefined();
    const second = await send(
      request(t.server).post('/auth/login').send({ email, password }),
      'auth.login_succeeded',
      user,
    ).expect(200);
    const token2 = second.body.accessToken as string;
    const setup = await request(t.server)
      .post('/api/v1/auth/mfa/totp/setup')
      .set('Authorization', bearer(token2))
      .expect(200);
    const enabled = await send(
      request(t.server)
        .post('/api/v1/auth/mfa/totp/enable')
        .set('Authorization', bearer(token2))
        .send({ code: await codeAt(setup.body.secret) }),
      'mfa.enabled',
      user,
    ).expect(200);
    await send(
      request(t.server)
        .patch('/api/v1/account/security')
        .set('Authorization', bearer(token2))
        .send({ mfaRequired: true }),
      'account.settings_changed',
      user,
    ).expect(200);
    await runCommand(t.app, 'set-plan', { email, plan: 'pro' });
    steps.push({
      type: 'account.plan_changed',
      requestId: null,
      actor: OPERATOR_ACTOR,
    });
    await send(
      request(t.server)
        .post('/api/v1/auth/mfa/totp/disable')
        .set('Authorization', bearer(token2))
        .send({ code: enabled.body.recoveryCodes[0] }),
      'mfa.disabled',
      user,
    ).expect(204);
    await send(
      request(t.server).post('/auth/logout').send({ refreshToken: second.body.refreshToken }),
      'auth.logout',
      user,
    ).expect(204);
  }, 60_000);
  afterAll(() => t.close());

  const list = (query = '') =>
    request(t.server).get(`/api/v1/audit-events${query}`).set('X-API-Key', auditKey.key);

  it('lists each action once, newest first, with actor, IP, user agent and request id', async () => {
    const res = await list('?limit=200').expect(200);
    expect(res.body.authMethod).toBe('api_key');
    expect(res.body.nextCursor).toBeNull();
    const events = [...res.body.items].reverse();
    expect(events.map((e: { type: string }) => e.type)).toEqual(steps.map((s) => s.type));
    events.forEach((event: Record<string, unknown>, i: number) => {
      const step = steps[i];
      expect(event.actor).toEqual(step.actor);
      expect(event.requestId).toBe(step.requestId);
      if (step.requestId) {
        expect(event.ip).toMatch(/127\.0\.0\.1|::1/);
        expect(event.userAgent).toBe(AGENT);
      } else {
        expect(event).toMatchObject({ ip: null, userAgent: null });
      }
      expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(String(event.at))).not.toBeNaN();
    });
    const byType = (type: string) => events.find((e: { type: string }) => e.type === type);
    expect(byType('auth.login_failed')).toMatchObject({
      target: { type: 'user', id: userId },
      data: { email, reason: 'invalid_password' },
    });
    expect(byType('auth.login_succeeded').actor.id).toBe(userId);
    expect(byType('api_key.created').target).toEqual({ type: 'api_key', id: auditKey.id });
    expect(byType('account.plan_changed').data).toEqual({ field: 'plan', from: 'free', to: 'pro' });
    expect(byType('account.settings_changed').data).toEqual({
      mfaRequired: { from: false, to: true },
    });
    // No secret anywhere: no password, key or token text.
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(password);
    expect(text).not.toContain(auditKey.key);
  });

  it('pages with a cursor and filters by type, actor and date', async () => {
    const all = (await list('?limit=200').expect(200)).body.items;
    const paged: unknown[] = [];
    let cursor: string | null = null;
    do {
      const res: request.Response = await list(
        `?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      ).expect(200);
      paged.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);

    const created = (await list('?type=api_key.created').expect(200)).body.items;
    expect(created).toHaveLength(2);
    const operator = (await list('?actor=operator').expect(200)).body.items;
    expect(operator.map((e: { type: string }) => e.type)).toEqual(['account.plan_changed']);
    const byUser = (await list(`?actor=${userId}`).expect(200)).body.items;
    expect(byUser.length).toBe(
      steps.filter((s) => {
        const actor = s.actor as { type: string; id?: string | null };
        return actor.type === 'user' && actor.id != null;
      }).length,
    );
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await list(`?from=${future}`).expect(200)).body.items).toEqual([]);
    expect((await list(`?to=${future}`).expect(200)).body.items).toHaveLength(all.length);

    const bad = await list('?type=nope').expect(400);
    expect(bad.body.code).toBe('INVALID_PARAMS');
    expect((await list('?cursor=bm9wZQ').expect(400)).body.code).toBe('INVALID_PARAMS');
  });

  it('needs audit:read of a key (any dashboard user reads), and shows only the own account', async () => {
    const otherAccount = await t.createAccount();
    const otherToken = await login(t, otherAccount);
    const noScope = await createApiKey(t, otherToken, ['usage:read']);
    const refused = await request(t.server)
      .get('/api/v1/audit-events')
      .set('X-API-Key', noScope.key)
      .expect(403);
    expect(refused.body.code).toBe('API_KEY_SCOPE_MISSING');
    const theirs = await request(t.server)
      .get('/api/v1/audit-events?limit=200')
      .set('Authorization', `Bearer ${otherToken}`)
      .expect(200);
    expect(theirs.body.authMethod).toBe('jwt');
    const types = theirs.body.items.map((e: { type: string }) => e.type);
    expect(types).toEqual(['api_key.created', 'auth.login_succeeded']);
    for (const event of theirs.body.items) expect(event.actor.id).not.toBe(userId);
  });

  it('is pruned by the retention sweep after AUDIT_RETENTION_DAYS (400)', async () => {
    const sweep = t.app.get(RetentionScheduler);
    const kept = await sweep.runOnce(Date.now() + 399 * 86_400_000);
    expect(kept).toMatchObject({ ran: true, deleted: { auditEvents: 0 } });
    const pruned = await sweep.runOnce(Date.now() + 401 * 86_400_000);
    expect(pruned.ran && pruned.deleted.auditEvents).toBeGreaterThanOrEqual(steps.length);
  });
});
