/**
 * Issue 32 "nothing lost, nothing doubled across replicas": two instances on one PostgreSQL each
 * run a dispatcher; 200 events queued through both are received exactly once each. Then a crash
 * between send and record (rows claimed and sent, never recorded) costs at most a duplicate with
 * the same webhook-id once the lease runs out.
 */
import { Wallet } from 'ethers';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ActivityLog } from '../../src/events/activity-log';
import { DeliveryStore } from '../../src/webhooks/delivery/delivery-store';
import { WebhookDispatcher } from '../../src/webhooks/delivery/webhook-dispatcher';
import { WebhookDelivery } from '../../src/webhooks/outbox/webhook-delivery.entity';
import { signedHeaders } from '../../src/webhooks/delivery/signature';
import { sendWebhook } from '../../src/webhooks/delivery/webhook-sender';
import { WebhookSecrets } from '../../src/webhooks/webhook-secrets';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';
import { pollUntil } from '../helpers/wait';
import { ReceivedWebhook, typeOf, verified, WebhookReceiver } from '../webhooks/receiver';
import { requireEnv } from './reliability-env';

const EVENTS = 200;
const LEASE_MS = 1_000;

describe('Webhooks across two instances on one PostgreSQL', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let c: TestApp | undefined;
  let env: Record<string, string>;
  let receiver: WebhookReceiver;
  let accountId: string;
  let secret: string;

  beforeAll(async () => {
    requireEnv('TEST_DATABASE_URL');
    db = await createTestDatabase('postgres');
    env = {
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_BATCH_SIZE: '10',
      WEBHOOK_LEASE_MS: String(LEASE_MS),
      // The lease must outlast one attempt (timeout + DNS), or the configuration is refused.
      WEBHOOK_TIMEOUT_MS: '500',
      WEBHOOK_DNS_TIMEOUT_MS: '200',
    };
    a = await createTestApp({ db, env });
    b = await createTestApp({ db, env });
    receiver = await WebhookReceiver.start();
    const account = await a.createAccount();
    accountId = account.accountId;
    const created = await request(a.server)
      .post('/api/v1/webhooks')
      .set('Authorization', `Bearer ${await login(a, account)}`)
      .send({ url: receiver.url, events: ['session.activated'] })
      .expect(201);
    secret = created.body.secret;
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await c?.close();
    await receiver?.close();
    await db?.drop();
  });

  /** Records `n` session.activated events, alternating between the two instances. */
  async function recordEvents(n: number, apps: TestApp[]): Promise<Set<string>> {
    const ids = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const wallet = Wallet.createRandom().address;
        const recorded = await apps[i % apps.length].app.get(ActivityLog).record({
          accountId,
          type: 'session.activated',
          actor: { type: 'system', id: null },
          data: { walletAddress: wallet, activeUntilUnix: 4_000_000_000, n: i },
        });
        return `msg_${recorded.id.replace(/-/g, '')}`;
      }),
    );
    return new Set(ids);
  }

  const ofType = () => receiver.received.filter((h) => typeOf(h) === 'session.activated');

  it('delivers 200 events once each: 200 unique webhook-ids, no duplicate', async () => {
    const ids = await recordEvents(EVENTS, [a, b]);
    const hooks = await receiver.waitFor((h) => typeOf(h) === 'session.activated', EVENTS, 60_000);
    const seen = hooks.map((h) => String(h.headers['webhook-id']));
    expect(new Set(seen)).toEqual(ids);
    for (const hook of hooks) verified(secret, hook);
    // Both dispatchers are idle now: still nothing more than one delivery per event.
    const deliveries = a.app.get(DataSource).getRepository(WebhookDelivery);
    await pollUntil(
      'every delivery recorded as delivered',
      () => deliveries.countBy({ status: 'delivered' }),
      (n) => n === EVENTS,
      { timeoutMs: 10_000 },
    );
    expect(await deliveries.countBy({ status: 'pending' })).toBe(0);
    expect(ofType()).toHaveLength(EVENTS);
  }, 120_000);

  it('a crash between send and record gives only duplicates with the same webhook-id', async () => {
    const before = ofType().length;
    await b.close();
    // Instance a stops dispatching, queues 20 events, then "crashes" after claiming 10 of them
    // and sending them, before recording anything.
    await a.app.get(WebhookDispatcher).beforeApplicationShutdown();
    const ids = await recordEvents(20, [a]);
    const claimed = await a.app.get(DeliveryStore).claimDue(Date.now(), 10, LEASE_MS);
    expect(claimed).toHaveLength(10);
    for (const { event, endpoint } of claimed)
      await sendWebhook({
        url: endpoint!.url,
        addresses: [{ address: '127.0.0.1', family: 4 }],
        headers: signedHeaders(
          event.id,
          new Date(),
          event.payload,
          a.app.get(WebhookSecrets).signingSecrets(endpoint!),
        ),
        body: event.payload,
        timeoutMs: 5_000,
      });
    await a.close();
    // A replacement instance sends the 10 never claimed at once and the 10 claimed after the lease.
    c = await createTestApp({ db, env });
    const isOurs = (h: ReceivedWebhook) =>
      typeOf(h) === 'session.activated' && ids.has(String(h.headers['webhook-id']));
    await receiver.waitFor(isOurs, 30, 30_000);
    const counts = new Map<string, number>();
    for (const hook of ofType().slice(before)) {
      const id = String(hook.headers['webhook-id']);
      counts.set(id, (counts.get(id) ?? 0) + 1);
      expect(verified(secret, hook).id).toBe(id);
    }
    expect(new Set(counts.keys())).toEqual(ids);
    const twice = [...counts.entries()].filter(([, n]) => n === 2).map(([id]) => id);
    expect(new Set(twice)).toEqual(new Set(claimed.map((item) => item.event.id)));
    expect([...counts.values()].filter((n) => n === 1)).toHaveLength(10);
    const deliveries = c.app.get(DataSource).getRepository(WebhookDelivery);
    await pollUntil(
      'all 220 deliveries recorded as delivered',
      () => deliveries.countBy({ status: 'delivered' }),
      (n) => n === EVENTS + 20,
    );
  }, 120_000);
});
