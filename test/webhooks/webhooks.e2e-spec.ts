import request from 'supertest';
import { Wallet } from 'ethers';
import { AttesterService } from '../../src/compliance/sessions/attester.service';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { pollUntil } from '../helpers/wait';
import { postActivateDemo, startComplianceDevnet, ComplianceDevnet } from '../helpers/compliance';
import { typeOf, verified, WebhookReceiver } from './receiver';

describe('Webhooks (issue 32)', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({
      env: {
        ...chain.env,
        WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms',
        WEBHOOK_POLL_INTERVAL_MS: '100',
        WEBHOOK_SCAN_INTERVAL_MS: '200',
        SESSION_TTL_SECONDS: '600',
      },
    });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await chain?.close();
  });

  const register = (token: string, events: string[], url = receiver.url) =>
    request(t.server)
      .post('/api/v1/webhooks')
      .set('Authorization', `Bearer ${token}`)
      .send({ url, events, description: 'e2e' });

  it('delivers session.activated, session.expiring and api_key.created, signed with the secret', async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    const created = await register(token, [
      'session.activated',
      'session.expiring',
      'api_key.created',
    ]).expect(201);
    expect(created.body).toMatchObject({ url: receiver.url, active: true });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const secret = created.body.secret as string;
    const got = await request(t.server)
      .get(`/api/v1/webhooks/${created.body.id}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(got.body.secret).toBeUndefined();

    const wallet = Wallet.createRandom().address;
    await postActivateDemo(t, token, wallet).expect(200);
    const key = await createApiKey(t, token, ['defi:preflight']);

    const [activated] = await receiver.waitFor(
      (h) => typeOf(h) === 'session.activated' && h.body.includes(wallet),
    );
    const event = verified(secret, activated);
    expect(event).toMatchObject({ type: 'session.activated', data: { walletAddress: wallet } });
    expect(activated.headers['webhook-id']).toBe(event.id);

    const [keyEvent] = await receiver.waitFor(
      (h) => typeOf(h) === 'api_key.created' && h.body.includes(key.id),
    );
    expect(verified(secret, keyEvent)).toMatchObject({ type: 'api_key.created' });
    expect(keyEvent.body).not.toContain(key.key);

    // TTL 600 s < the 1 h lead: the scanner sends session.expiring at its next scan, once.
    const [expiring] = await receiver.waitFor(
      (h) => typeOf(h) === 'session.expiring' && h.body.includes(wallet),
    );
    const expiringEvent = verified(secret, expiring);
    expect(expiringEvent.data).toMatchObject({ walletAddress: wallet });
    expect(Number(expiringEvent.data.secondsLeft)).toBeLessThanOrEqual(600);
  });

  it('retries a 500, 500, 200 receiver with the same webhook-id and lists the three attempts', async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    const created = await register(token, ['session.activated']).expect(201);
    receiver.respondWith(500, 500);
    const wallet = Wallet.createRandom().address;
    await postActivateDemo(t, token, wallet).expect(200);
    const hooks = await receiver.waitFor(
      (h) => typeOf(h) === 'session.activated' && h.body.includes(wallet),
      3,
    );
    expect(hooks.map((h) => h.status)).toEqual([500, 500, 200]);
    expect(new Set(hooks.map((h) => h.headers['webhook-id'])).size).toBe(1);
    for (const hook of hooks) verified(created.body.secret, hook);

    // The third answer reached the receiver before the attempt was recorded: poll the list.
    const list = await pollUntil(
      'the delivery recorded as delivered',
      () =>
        request(t.server)
          .get(`/api/v1/webhooks/${created.body.id}/deliveries`)
          .set('Authorization', `Bearer ${token}`)
          .expect(200),
      (res) => res.body.deliveries[0]?.status === 'delivered',
    );
    const [delivery] = list.body.deliveries;
    expect(delivery).toMatchObject({
      eventId: hooks[0].headers['webhook-id'],
      eventType: 'session.activated',
      status: 'delivered',
      attemptCount: 3,
      nextRetryAt: null,
    });
    expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([
      500, 500, 200,
    ]);
    expect(list.body.nextCursor).toBeNull();
  });

  it('tests, rotates (two signatures for 24 h), disables, and hides other accounts (404)', async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    const created = await register(token, ['session.revoked']).expect(201);
    const id = created.body.id as string;
    const oldSecret = created.body.secret as string;

    const rotated = await request(t.server)
      .post(`/api/v1/webhooks/${id}/rotate-secret`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(rotated.body.secret).not.toBe(oldSecret);
    expect(Date.parse(rotated.body.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(
      23 * 3_600_000,
    );
    const test = await request(t.server)
      .post(`/api/v1/webhooks/${id}/test`)
      .set('Authorization', `Bearer ${token}`)
      .expect(202);
    const [hook] = await receiver.waitFor((h) => h.headers['webhook-id'] === test.body.eventId);
    expect(String(hook.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(oldSecret, hook).type).toBe('webhook.test');
    expect(verified(rotated.body.secret, hook).type).toBe('webhook.test');

    await request(t.server)
      .patch(`/api/v1/webhooks/${id}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ active: false })
      .expect(200)
      .expect((res) => expect(res.body.active).toBe(false));

    const other = await t.createAccount();
    const otherToken = await login(t, other);
    for (const [method, path] of [
      ['get', `/api/v1/webhooks/${id}`],
      ['patch', `/api/v1/webhooks/${id}`],
      ['delete', `/api/v1/webhooks/${id}`],
      ['post', `/api/v1/webhooks/${id}/test`],
      ['get', `/api/v1/webhooks/${id}/deliveries`],
    ] as const) {
      const res = await request(t.server)
        [method](path)
        .set('Authorization', `Bearer ${otherToken}`)
        .send(method === 'patch' ? { active: true } : undefined);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    const mine = await request(t.server)
      .get('/api/v1/webhooks')
      .set('Authorization', `Bearer ${otherToken}`)
      .expect(200);
    expect(mine.body.webhooks).toEqual([]);

    await request(t.server)
      .delete(`/api/v1/webhooks/${id}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(204);
  });

  it("delivers session.revoked when the operator revokes the wallet's session (revoke-session)", async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    const created = await register(token, ['session.revoked']).expect(201);
    const wallet = Wallet.createRandom().address;
    await postActivateDemo(t, token, wallet).expect(200);
    // What `npm run cli -- revoke-session --wallet W` calls.
    const mined = await t.app.get(AttesterService).revoke(wallet);
    const [hook] = await receiver.waitFor(
      (h) => typeOf(h) === 'session.revoked' && h.body.includes(wallet),
    );
    expect(verified(created.body.secret, hook).data).toEqual({
      walletAddress: wallet,
      reason: 'operator',
      txHash: mined.txHash,
      blockNumber: mined.blockNumber,
    });
  });

  it('refuses API keys (dashboard login only) and unknown event types', async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    const key = await createApiKey(t, token, ['defi:preflight']);
    const byKey = await request(t.server)
      .get('/api/v1/webhooks')
      .set('X-API-Key', key.key)
      .expect(403);
    expect(byKey.body.code).toBe('API_KEY_SCOPE_MISSING');
    const bad = await register(token, ['session.activated', 'nope']).expect(400);
    expect(bad.body.code).toBe('INVALID_PARAMS');
    const ftp = await register(token, ['session.activated'], 'ftp://127.0.0.1/x').expect(400);
    expect(ftp.body.code).toBe('WEBHOOK_URL_NOT_ALLOWED');
  });
});
