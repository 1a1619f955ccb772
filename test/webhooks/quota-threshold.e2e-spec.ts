/** quota.threshold at 80 % and 100 % of the monthly quota, once per month each (issue 32). */
import request from 'supertest';
import { AccountsService } from '../../src/accounts/accounts.service';
import { AccountLimitsService } from '../../src/usage/rate-limit/account-limits.service';
import { AuthProbeController } from '../auth/auth-probe.controller';
import { createTestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { createTestDatabase } from '../helpers/test-env';
import { pollUntil } from '../helpers/wait';
import { typeOf, verified, WebhookReceiver } from './receiver';

const PREFLIGHT = '/api/v1/test-protected/preflight/0x1';
const extra = { controllers: [AuthProbeController] };
const env = { WEBHOOK_POLL_INTERVAL_MS: '100' };

describe('Webhooks: quota.threshold', () => {
  it('sends 80 and 100 once each, not again past the quota nor after a restart', async () => {
    const receiver = await WebhookReceiver.start();
    const db = await createTestDatabase();
    const first = await createTestApp({ db, env, extra });
    const account = await first.createAccount();
    let secret = '';
    let webhookId = '';
    let key = '';
    try {
      const token = await login(first, account);
      const created = await request(first.server)
        .post('/api/v1/webhooks')
        .set('Authorization', `Bearer ${token}`)
        .send({ url: receiver.url, events: ['quota.threshold'] })
        .expect(201); // 1
      ({ secret, id: webhookId } = created.body);
      key = (await createApiKey(first, token, ['defi:preflight'])).key; // 2
      await first.app.get(AccountsService).setMonthlyQuotaOverride(account.accountId, 10);
      first.app.get(AccountLimitsService).invalidate(account.accountId);
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++)
        statuses.push((await request(first.server).get(PREFLIGHT).set('X-API-Key', key)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 402, 402]); // 3..10
      const hooks = await receiver.waitFor((h) => typeOf(h) === 'quota.threshold', 2);
      const events = hooks.map((h) => verified(secret, h));
      expect(events.map((e) => e.data.percent).sort()).toEqual([100, 80]);
      expect(events.find((e) => e.data.percent === 80)?.data).toMatchObject({
        percent: 80,
        used: 8,
        limit: 10,
        month: new Date().toISOString().slice(0, 7),
      });
      expect(events.find((e) => e.data.percent === 100)?.data).toMatchObject({
        used: 10,
        limit: 10,
      });
    } finally {
      await first.close();
    }
    // A restart forgets what the process handled; the marks table keeps it once per month.
    const second = await createTestApp({ db, env, extra });
    try {
      await second.app.get(AccountsService).setMonthlyQuotaOverride(account.accountId, 11);
      await request(second.server).get(PREFLIGHT).set('X-API-Key', key).expect(200);
      const token = await login(second, account);
      const list = await pollUntil(
        'both threshold deliveries delivered',
        () =>
          request(second.server)
            .get(`/api/v1/webhooks/${webhookId}/deliveries`)
            .set('Authorization', `Bearer ${token}`)
            .expect(200),
        (res) =>
          res.body.deliveries.length === 2 &&
          res.body.deliveries.every((d: { status: string }) => d.status === 'delivered'),
      );
      expect(list.body.deliveries.map((d: { eventType: string }) => d.eventType)).toEqual([
        'quota.threshold',
        'quota.threshold',
      ]);
      expect(receiver.received.filter((h) => typeOf(h) === 'quota.threshold')).toHaveLength(2);
    } finally {
      await second.close();
      await receiver.close();
      await db.drop();
    }
  });
});
