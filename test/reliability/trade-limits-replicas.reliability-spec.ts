/**
 * Issue 54 "Done when": two replicas on PostgreSQL + Redis, building for one account in parallel,
 * never authorize more than its daily limit. Each replica is a whole app (its own connection
 * pool and in-process state) on one schema and one Redis; only the database can serialize them
 * (TradeLedgerService's advisory lock on the account, in the transaction that sums and inserts).
 * The first test goes through the API; the second drives both replicas' ledgers with a check that
 * takes a database round trip, so that the reads overlap: without the lock (a read-then-write
 * counter) it fails, every reservation reading the same empty window (checked by taking the lock out).
 */
import request from 'supertest';
import { DataSource } from 'typeorm';
import { TradeLedgerService } from '../../src/trading/ledger/trade-ledger.service';
import { TradeReservation } from '../../src/trading/ledger/trade-reservation.entity';
import { createTestApp, TestApp } from '../helpers/app';
import { login, uniqueRedisPrefix } from '../helpers/auth';
import { DefiDevnet, postSwap, startDefiDevnet } from '../helpers/defi';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';
import { requireEnv } from './reliability-env';

const LIMIT_WEI = 10n ** 18n; // 1 WETH a day
const BUILD_WEI = 10n ** 17n; // 0.1 WETH a build: ten fit
const BUILDS_PER_REPLICA = 12;

describe('TradeLedgerService: two replicas, one account, one daily limit (PostgreSQL + Redis)', () => {
  let chain: DefiDevnet;
  let db: TestDatabase;
  let replicas: TestApp[];

  beforeAll(async () => {
    chain = await startDefiDevnet();
    db = await createTestDatabase('postgres');
    const env = {
      CHAIN_RPC_URL: chain.rpcUrl,
      REDIS_URL: requireEnv('TEST_REDIS_URL'),
      REDIS_KEY_PREFIX: uniqueRedisPrefix('trade-limits'),
    };
    // One after the other: the first runs the migrations.
    replicas = [await createTestApp({ db, env }), await createTestApp({ db, env })];
  }, 180_000);
  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.close();
    await db?.drop();
    await chain?.close();
  });

  it('authorizes at most the limit: ten builds of 0.1 WETH pass, every other is 403 TRADE_LIMIT_EXCEEDED', async () => {
    const [a, b] = replicas;
    const account = await a.createAccount();
    const tokens = [await login(a, account), await login(b, account)];
    await request(a.server)
      .put('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${tokens[0]}`)
      .send({
        sources: { mode: 'any', names: [] },
        countries: {},
        minSessionSeconds: 0,
        trading: { enforcement: 'service', limits: [{ token: 'WETH', perDay: '1' }] },
      })
      .expect(200);
    const wallets = [chain.wallets[7], chain.wallets[8]];
    for (const w of wallets) await chain.activate(w.address);
    const { WETH, tUSDC } = chain.deployment.tokens;
    // Both replicas at once, each from its own wallet of the account (the 24 h is the account's).
    const answers = await Promise.all(
      replicas.flatMap((replica, i) =>
        Array.from({ length: BUILDS_PER_REPLICA }, () =>
          postSwap(
            replica,
            tokens[i],
            {
              tokenIn: WETH,
              tokenOut: tUSDC,
              amount: BUILD_WEI.toString(),
              userAddress: wallets[i].address,
            },
            '?buildOnly=true',
          ),
        ),
      ),
    );
    const passed = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status !== 200);
    expect(refused.map((r) => `${r.status} ${r.body.code} ${r.body.message}`)).toEqual(
      Array(refused.length).fill(expect.stringMatching(/^403 TRADE_LIMIT_EXCEEDED /)),
    );
    expect(passed).toHaveLength(Number(LIMIT_WEI / BUILD_WEI));
    // The ledger agrees: what is reserved for the account is exactly the limit, never more.
    const rows = await a.app
      .get(DataSource)
      .getRepository(TradeReservation)
      .findBy({ accountId: account.accountId });
    expect(rows.reduce((sum, r) => sum + BigInt(r.amount), 0n)).toBe(LIMIT_WEI);
  });

  it('the ledger itself: reservations from both replicas at once, each check slowed by a database round trip, never pass the limit', async () => {
    const accountId = (await replicas[0].createAccount()).accountId;
    const wallet = chain.wallets[9].address;
    // A check that takes a round trip (as under load): a read-then-write counter lets every
    // reservation read the same empty window in it and insert; the account's lock does not.
    const reserveOn = (replica: TestApp) => {
      const ledger = replica.app.get(TradeLedgerService);
      const dataSource = replica.app.get(DataSource);
      return ledger
        .reserve(
          accountId,
          [{ wallet, token: 'WETH', raw: BUILD_WEI }],
          { deadline: Math.floor(Date.now() / 1000) + 600 },
          async (used) => {
            await dataSource.query('SELECT pg_sleep(0.05)');
            if ((used.get('WETH') ?? 0n) + BUILD_WEI > LIMIT_WEI) throw new Error('over');
          },
        )
        .then(
          () => 'reserved',
          (error: Error) => error.message,
        );
    };
    const outcomes = await Promise.all(
      Array.from({ length: 2 * BUILDS_PER_REPLICA }, (_, i) => reserveOn(replicas[i % 2])),
    );
    expect(outcomes.filter((o) => o === 'reserved')).toHaveLength(Number(LIMIT_WEI / BUILD_WEI));
    expect(outcomes.filter((o) => o !== 'reserved')).toEqual(
      Array(2 * BUILDS_PER_REPLICA - Number(LIMIT_WEI / BUILD_WEI)).fill('over'),
    );
  });
});
