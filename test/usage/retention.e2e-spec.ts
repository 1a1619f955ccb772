import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AuthSession } from '../../src/auth/tokens/auth-session.entity';
import { AuthSessionsService } from '../../src/auth/tokens/auth-sessions.service';
import { RefreshToken } from '../../src/auth/tokens/refresh-token.entity';
import { SiweNonce } from '../../src/compliance/onboarding/siwe-nonce.entity';
import { SiweNoncesService } from '../../src/compliance/onboarding/siwe-nonces.service';
import { RetentionScheduler } from '../../src/usage/retention/retention.scheduler';
import { UsageRollup } from '../../src/usage/rollups/usage-rollup.entity';
import { UsageRecord } from '../../src/usage/usage-record.entity';
import { UsageRecorder } from '../../src/usage/usage-recorder.service';
import { createTestApp, TestApp } from '../helpers/app';
import { loginPair } from '../helpers/auth';
import { testEngine } from '../helpers/test-env';
import { pollUntil } from '../helpers/wait';

const DAY = 24 * 60 * 60 * 1000;

/** Old and fresh rows of every pruned table for one account; returns the ids to look for. */
async function seedRows(t: TestApp) {
  const account = await t.createAccount();
  const now = Date.now();
  const recorder = t.app.get(UsageRecorder);
  const usage = (ageMs: number) => {
    const id = randomUUID();
    recorder.record({
      id,
      accountId: account.accountId,
      authMethod: 'jwt',
      apiKeyId: null,
      userId: account.userId,
      method: 'GET',
      route: '/api/v1/usage/stats',
      statusCode: 200,
      code: null,
      latencyMs: 3,
      createdAt: new Date(now - ageMs),
    });
    return id;
  };
  const rawFresh = usage(DAY);
  const rawOld = [usage(8 * DAY), usage(10 * DAY), usage(30 * DAY)];
  const ancient = usage(401 * DAY); // past the roll-up retention too
  await recorder.flush();

  const sessions = t.app.get(AuthSessionsService);
  const live = await loginPair(t, account); // a real login: its session and token stay
  const expiredSession = await sessions.open(account.userId, account.accountId);
  for (let i = 0; i < 3; i++)
    await sessions.storeRefreshToken(expiredSession, randomUUID(), `t${i}`, new Date(now - DAY));
  const emptySession = await sessions.open(account.userId, account.accountId);
  // Both logins began a week ago (their tokens were rotated or expired since).
  await t.app
    .get(DataSource)
    .createQueryBuilder()
    .update(AuthSession)
    .set({ createdAt: new Date(now - 7 * DAY) })
    .whereInIds([expiredSession, emptySession])
    .execute();

  // Expired nonces nobody consumed (written directly: issuing one clears expired ones on the way).
  const freshNonce = await t.app.get(SiweNoncesService).issue(account.accountId);
  for (const age of [DAY, 2 * DAY])
    await t.app
      .get(DataSource)
      .getRepository(SiweNonce)
      .insert({
        nonceHash: randomUUID().replace(/-/g, ''),
        accountId: account.accountId,
        expiresAt: now - age,
      });
  return {
    account,
    live,
    rawFresh,
    rawOld,
    ancient,
    expiredSession,
    emptySession,
    freshNonce,
    now,
  };
}

async function snapshot(t: TestApp, accountId: string) {
  const ds = t.app.get(DataSource);
  const rollups = await ds.getRepository(UsageRollup).findBy({ accountId });
  return {
    raw: (await ds.getRepository(UsageRecord).findBy({ accountId })).map((r) => r.id).sort(),
    rollupMinutes: rollups.map((r) => r.bucketMinute),
    rollupRequests: rollups.reduce((sum, r) => sum + r.requests, 0),
    sessions: (await ds.getRepository(AuthSession).findBy({ accountId })).map((s) => s.id).sort(),
    refreshTokens: await ds.getRepository(RefreshToken).count(),
    nonces: await ds.getRepository(SiweNonce).countBy({ accountId }),
  };
}

describe(RetentionScheduler.name, () => {
  let t: TestApp;

  beforeAll(async () => {
    // Two rows a DELETE: every table is pruned over several bounded batches.
    t = await createTestApp({ env: { RETENTION_BATCH_SIZE: '2' } });
  });
  afterAll(() => t.close());

  it('prunes old usage rows, roll-ups, expired refresh tokens, ended logins and nonces; keeps fresh ones', async () => {
    const seeded = await seedRows(t);
    const before = await snapshot(t, seeded.account.accountId);
    expect(before.raw).toHaveLength(5);
    expect(before.sessions).toHaveLength(3);
    expect(before.nonces).toBe(3);

    const outcome = await t.app.get(RetentionScheduler).runOnce();
    expect(outcome).toEqual({
      ran: true,
      deleted: {
        usageRecords: 4, // 8, 10, 30 and 401 days old (raw retention 7 days)
        usageRollups: 3, // the 401-day-old request's minute, hour and day buckets (400 days)
        refreshTokens: 3,
        authSessions: 2,
        siweNonces: 2,
        auditEvents: 0,
      },
    });
    const after = await snapshot(t, seeded.account.accountId);
    expect(after.raw).toEqual([seeded.rawFresh]);
    // Roll-ups of the 8-30 day old requests stay (stats over the month still count them).
    expect(after.rollupRequests).toBe(before.rollupRequests - 3); // 1 request x 3 spans
    const cutoffMinute = Math.floor((seeded.now - 400 * DAY) / 60_000);
    expect(Math.min(...after.rollupMinutes)).toBeGreaterThanOrEqual(cutoffMinute);
    expect(after.sessions).toHaveLength(1);
    expect(after.sessions).not.toContain(seeded.expiredSession);
    expect(after.sessions).not.toContain(seeded.emptySession);
    expect(after.refreshTokens).toBe(before.refreshTokens - 3);
    expect(after.nonces).toBe(1);

    // Nothing left to prune: a second sweep deletes nothing and the live login still refreshes.
    expect(await t.app.get(RetentionScheduler).runOnce()).toEqual({
      ran: true,
      deleted: {
        usageRecords: 0,
        usageRollups: 0,
        refreshTokens: 0,
        authSessions: 0,
        siweNonces: 0,
        auditEvents: 0,
      },
    });
    expect(
      await t.app.get(SiweNoncesService).consume(seeded.account.accountId, seeded.freshNonce.nonce),
    ).toBe(true);
  });
});

const describePostgres = testEngine() === 'postgres' ? describe : describe.skip;

describePostgres('Retention with several instances (PostgreSQL)', () => {
  it('sweeps under an advisory lock: an instance finding it held skips the round', async () => {
    const t = await createTestApp();
    try {
      const seeded = await seedRows(t);
      const holder = t.app.get(DataSource).createQueryRunner();
      const lock = "hashtext('retention-sweep:' || current_schema())";
      await holder.query(`SELECT pg_advisory_lock(${lock})`);
      try {
        expect(await t.app.get(RetentionScheduler).runOnce()).toEqual({
          ran: false,
          reason: 'locked',
        });
        expect((await snapshot(t, seeded.account.accountId)).raw).toHaveLength(5);
      } finally {
        await holder.query(`SELECT pg_advisory_unlock(${lock})`);
        await holder.release();
      }
      const outcome = await t.app.get(RetentionScheduler).runOnce();
      expect(outcome).toMatchObject({ ran: true, deleted: { usageRecords: 4 } });
    } finally {
      await t.close();
    }
  });
});

describe('Retention on its schedule (RETENTION_INTERVAL_MS)', () => {
  it('runs by itself on the interval', async () => {
    const t = await createTestApp({ env: { RETENTION_INTERVAL_MS: '1000' } });
    try {
      const seeded = await seedRows(t);
      const left = await pollUntil(
        'the scheduled sweep',
        async () => (await snapshot(t, seeded.account.accountId)).raw,
        (raw) => raw.length === 1,
        { timeoutMs: 10_000, intervalMs: 100 },
      );
      expect(left).toEqual([seeded.rawFresh]);
    } finally {
      await t.close();
    }
  });
});
