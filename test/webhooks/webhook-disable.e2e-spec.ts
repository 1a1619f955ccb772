/**
 * An endpoint failing for WEBHOOK_DISABLE_AFTER_SECONDS is disabled, with a webhook.disabled row
 * in its deliveries; the retry schedule's end marks a delivery failed (issue 32).
 */
import request from 'supertest';
import { WebhookDispatcher } from '../../src/webhooks/delivery/webhook-dispatcher';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { pollUntil } from '../helpers/wait';
import { WebhookReceiver } from './receiver';

describe('Webhooks: failing endpoints', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        WEBHOOK_RETRY_SCHEDULE: '400ms,400ms,400ms,400ms',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        WEBHOOK_DISABLE_AFTER_SECONDS: '1',
      },
    });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('retries with backoff, then fails the delivery and disables the endpoint with a webhook.disabled row', async () => {
    receiver.respondWith(...new Array<number>(20).fill(503));
    const token = await login(t, await t.createAccount());
    const auth = { Authorization: `Bearer ${token}` };
    const created = await request(t.server)
      .post('/api/v1/webhooks')
      .set(auth)
      .send({ url: receiver.url, events: ['session.activated'] })
      .expect(201);
    const id = created.body.id as string;
    const test = await request(t.server).post(`/api/v1/webhooks/${id}/test`).set(auth).expect(202);

    const hook = await pollUntil(
      'the endpoint disabled',
      async () => (await request(t.server).get(`/api/v1/webhooks/${id}`).set(auth)).body,
      (body) => body.active === false,
      { timeoutMs: 15_000 },
    );
    expect(hook.disabledReason).toMatch(/^every delivery failed for/);
    expect(hook.failingSince).not.toBeNull();

    const list = await pollUntil(
      'the test delivery settled',
      async () => (await request(t.server).get(`/api/v1/webhooks/${id}/deliveries`).set(auth)).body,
      (body) =>
        body.deliveries.some(
          (d: { eventId: string; status: string }) =>
            d.eventId === test.body.eventId && d.status !== 'pending',
        ),
      { timeoutMs: 15_000 },
    );
    const [notice, delivery] = list.deliveries;
    expect(notice).toMatchObject({
      eventType: 'webhook.disabled',
      status: 'notice',
      attemptCount: 0,
      attempts: [],
      payload: { type: 'webhook.disabled', data: { webhookId: id, url: receiver.url } },
    });
    expect(delivery).toMatchObject({ eventId: test.body.eventId, eventType: 'webhook.test' });
    // Either the schedule ran out (failed after its attempts) or the disablement stopped it.
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts.length).toBeGreaterThanOrEqual(3);
    expect(delivery.attempts.every((a: { statusCode: number }) => a.statusCode === 503)).toBe(true);
    const sent = receiver.received.filter((h) => h.headers['webhook-id'] === test.body.eventId);
    expect(sent.length).toBe(delivery.attempts.length);

    // A person turns it on again: a fresh start.
    const back = await request(t.server)
      .patch(`/api/v1/webhooks/${id}`)
      .set(auth)
      .send({ active: true })
      .expect(200);
    expect(back.body).toMatchObject({ active: true, disabledReason: null, failingSince: null });

    // Past WEBHOOK_RETENTION_DAYS (30), settled deliveries and their events are swept.
    await t.app.get(WebhookDispatcher).prune(Date.now() + 31 * 86_400_000);
    const swept = await request(t.server).get(`/api/v1/webhooks/${id}/deliveries`).set(auth);
    expect(swept.body.deliveries).toEqual([]);
  });
});
