/**
 * The webhook security review's findings: a null in PATCH cannot poison an endpoint (and a row
 * already poisoned does not break the transactions raising events), the audit trail keeps only a
 * URL's origin and hash, and a slow endpoint does not hold the other endpoints' deliveries.
 */
import { createHash } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { WebhookEndpoint } from '../../src/webhooks/webhook-endpoint.entity';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { pollUntil } from '../helpers/wait';
import { typeOf, WebhookReceiver } from './receiver';

/** A receiver that reads each request and never answers (until closed). */
async function startBlackHole(): Promise<{
  url: string;
  hits: () => number;
  close(): Promise<void>;
}> {
  const pending: IncomingMessage[] = [];
  const server: Server = createServer((req) => {
    pending.push(req);
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    hits: () => pending.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('Webhooks: review findings', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        WEBHOOK_POLL_INTERVAL_MS: '50',
        WEBHOOK_TIMEOUT_MS: '6000',
      },
    });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('PATCH refuses null for url, events and active (400 INVALID_PARAMS naming the field); null clears the description', async () => {
    const token = await login(t, await t.createAccount());
    const auth = { Authorization: `Bearer ${token}` };
    const created = await request(t.server)
      .post('/api/v1/webhooks')
      .set(auth)
      .send({ url: receiver.url, events: ['api_key.created'], description: 'label' })
      .expect(201);
    const id = created.body.id as string;
    for (const field of ['url', 'events', 'active']) {
      const res = await request(t.server)
        .patch(`/api/v1/webhooks/${id}`)
        .set(auth)
        .send({ [field]: null })
        .expect(400);
      expect(res.body.code).toBe('INVALID_PARAMS');
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const cleared = await request(t.server)
      .patch(`/api/v1/webhooks/${id}`)
      .set(auth)
      .send({ description: null })
      .expect(200);
    expect(cleared.body).toMatchObject({
      description: null,
      events: ['api_key.created'],
      url: receiver.url,
      active: true,
    });
    // Nothing was stored by the refused requests: an API key still raises the event.
    await createApiKey(t, token, ['defi:preflight']);
    await receiver.waitFor((h) => typeOf(h) === 'api_key.created');
  });

  it('a row whose events are null (written before the fix) does not fail the changes raising events', async () => {
    const account = await t.createAccount();
    const token = await login(t, account);
    const auth = { Authorization: `Bearer ${token}` };
    const poisoned = await request(t.server)
      .post('/api/v1/webhooks')
      .set(auth)
      .send({ url: receiver.url, events: ['api_key.revoked'] })
      .expect(201);
    await request(t.server)
      .post('/api/v1/webhooks')
      .set(auth)
      .send({ url: `${receiver.url}?healthy=${account.accountId}`, events: ['api_key.created'] })
      .expect(201);
    await t.app
      .get(DataSource)
      .query(`UPDATE webhook_endpoints SET events = 'null' WHERE id = '${poisoned.body.id}'`);
    const key = await createApiKey(t, token, ['defi:preflight']);
    await receiver.waitFor(
      (h) => typeOf(h) === 'api_key.created' && h.body.includes(key.id as string),
    );
    const listed = await request(t.server).get('/api/v1/webhooks').set(auth).expect(200);
    const row = listed.body.webhooks.find((w: { id: string }) => w.id === poisoned.body.id);
    expect(row.events).toEqual([]);
    const stored = await t.app
      .get(DataSource)
      .getRepository(WebhookEndpoint)
      .findOneByOrFail({ id: poisoned.body.id });
    expect(stored.events).toBeNull();
  });

  it('the audit trail keeps the URL origin and a SHA-256 prefix, never its path or query', async () => {
    const token = await login(t, await t.createAccount());
    const auth = { Authorization: `Bearer ${token}` };
    const secretUrl = `${receiver.url}/tok_s3cr3t?key=hunter2`;
    const created = await request(t.server)
      .post('/api/v1/webhooks')
      .set(auth)
      .send({ url: secretUrl, events: ['api_key.created'] })
      .expect(201);
    const otherUrl = `${receiver.url}/other?key=swordfish`;
    await request(t.server)
      .patch(`/api/v1/webhooks/${created.body.id}`)
      .set(auth)
      .send({ url: otherUrl })
      .expect(200);
    await request(t.server).delete(`/api/v1/webhooks/${created.body.id}`).set(auth).expect(204);
    const audit = await request(t.server)
      .get('/api/v1/audit-events?limit=200')
      .set(auth)
      .expect(200);
    const text = JSON.stringify(audit.body);
    for (const secret of ['tok_s3cr3t', 'hunter2', 'swordfish', '/hooks'])
      expect(text).not.toContain(secret);
    const hash = (url: string) => createHash('sha256').update(url).digest('hex').slice(0, 16);
    const origin = new URL(receiver.url).origin;
    const byType = (type: string) =>
      audit.body.items.find((e: { type: string }) => e.type === type).data;
    expect(byType('webhook.created')).toMatchObject({
      urlOrigin: origin,
      urlSha256: hash(secretUrl),
    });
    expect(byType('webhook.updated')).toMatchObject({
      urlOrigin: origin,
      urlSha256: hash(otherUrl),
    });
    expect(byType('webhook.deleted')).toMatchObject({
      urlOrigin: origin,
      urlSha256: hash(otherUrl),
    });
    for (const type of ['webhook.created', 'webhook.updated', 'webhook.deleted'])
      expect(byType(type).url).toBeUndefined();
  });

  it('a receiver that never answers does not hold the other endpoints’ deliveries', async () => {
    const blackHole = await startBlackHole();
    try {
      const token = await login(t, await t.createAccount());
      const auth = { Authorization: `Bearer ${token}` };
      for (const url of [blackHole.url, receiver.url])
        await request(t.server)
          .post('/api/v1/webhooks')
          .set(auth)
          .send({ url, events: ['api_key.created'] })
          .expect(201);
      const first = await createApiKey(t, token, ['defi:preflight']);
      await receiver.waitFor((h) => h.body.includes(first.id as string));
      // The black hole holds its delivery for WEBHOOK_TIMEOUT_MS (6 s); the healthy endpoint's
      // next event arrives well within that.
      const second = await createApiKey(t, token, ['defi:preflight']);
      const started = Date.now();
      await receiver.waitFor((h) => h.body.includes(second.id as string), 1, 4_000);
      expect(Date.now() - started).toBeLessThan(4_000);
      // At most 4 deliveries per endpoint are in flight on an instance: the black hole's other
      // deliveries wait their turn instead of taking the others' slots.
      const more = [];
      for (let i = 0; i < 4; i++) more.push(await createApiKey(t, token, ['defi:preflight']));
      for (const key of more) await receiver.waitFor((h) => h.body.includes(key.id), 1, 4_000);
      await pollUntil('4 requests held by the black hole', blackHole.hits, (n) => n >= 4);
      expect(blackHole.hits()).toBe(4);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await blackHole.close();
    }
  });
});
