/**
 * Issue 54's trade rules on the devnet (service enforcement; hook v3's on-chain half is
 * trade-rules-onchain.e2e-spec.ts and trade-authorization-direct.e2e-spec.ts): an account sets an allow-list and WETH limits per trade and
 * per rolling 24 h; builds under them are signed, relayed and CONFIRMED (one pool and two hops)
 * and counted (mined) in the ledger; a build over the per-trade limit, the one that would cross
 * the daily limit (across the account's wallets), and a token outside the allow-list are 403 in
 * the preflight phase with their details; evaluate answers the same with the daily use; parallel
 * builds never reserve past the limit; every malformed trading member is 400, never 500.
 */
import { Wallet } from 'ethers';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { TradeLedgerService } from '../../src/trading/ledger/trade-ledger.service';
import { TradeReservation } from '../../src/trading/ledger/trade-reservation.entity';
import { TradeReservationSweep } from '../../src/trading/ledger/trade-reservation.sweep';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import {
  DefiDevnet,
  postSwap,
  relayUntilConfirmed,
  signBuilt,
  startDefiDevnet,
} from '../helpers/defi';
import { getReceipt } from '../helpers/receipts';
import { pollUntil } from '../helpers/wait';

const WEI = 10n ** 18n;
const weth = (whole: string) => {
  const [int, frac = ''] = whole.split('.');
  return (BigInt(int) * WEI + BigInt(frac.padEnd(18, '0'))).toString();
};
const BASE = { sources: { mode: 'any', names: [] }, countries: {}, minSessionSeconds: 0 };

describe('TradeRulesService: trade rules on builds (devnet, service enforcement)', () => {
  let chain: DefiDevnet;
  let t: TestApp;
  let token: string;
  let T: Record<'WETH' | 'tUSDC' | 'tWBTC' | 'tEURC', string>;
  let userA: Wallet;
  let userB: Wallet;

  const put = (body: object) =>
    request(t.server)
      .put('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${token}`)
      .send(body);
  const evaluate = (body: object) =>
    request(t.server)
      .post('/api/v1/compliance/policy/evaluate')
      .set('Authorization', `Bearer ${token}`)
      .send(body);
  const swap = (user: Wallet, tokenIn: string, tokenOut: string, amount: string) =>
    postSwap(t, token, { tokenIn, tokenOut, amount, userAddress: user.address });
  const reservations = () => t.app.get(DataSource).getRepository(TradeReservation);

  beforeAll(async () => {
    chain = await startDefiDevnet();
    t = await createTestApp({
      env: { CHAIN_RPC_URL: chain.rpcUrl, WEBHOOK_SCAN_INTERVAL_MS: '200' },
    });
    token = await login(t, await t.createAccount());
    T = chain.deployment.tokens as typeof T;
    [userA, userB] = [chain.wallets[3], chain.wallets[4]];
    for (const user of [userA, userB]) {
      await chain.activate(user.address);
      // The WETH approvals (token -> Permit2 -> router), before the account has trade rules.
      const first = await swap(user, T.WETH, T.tUSDC, weth('0.01')).expect(200);
      for (const approval of first.body.approvals)
        await relayUntilConfirmed(t, token, await signBuilt(user, approval.transaction));
    }
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it('stores trading as the market spells it (ETH as WETH, amounts canonical); GET PUTs back unchanged', async () => {
    const body = {
      ...BASE,
      trading: {
        enforcement: 'service',
        tokens: { allow: ['eth', 'tUSDC', 'TEURC'] },
        limits: [{ token: 'ETH', perTrade: '1.0', perDay: '1.50' }],
      },
    };
    const written = (await put(body).expect(200)).body;
    expect(written.trading).toEqual({
      enforcement: 'service',
      tokens: { allow: ['WETH', 'tUSDC', 'tEURC'] },
      limits: [{ token: 'WETH', perTrade: '1', perDay: '1.5' }],
    });
    const read = (
      await request(t.server)
        .get('/api/v1/compliance/policy')
        .set('Authorization', `Bearer ${token}`)
        .expect(200)
    ).body;
    expect(read.trading).toEqual(written.trading);
    const again = (await put(read).expect(200)).body;
    expect(again).toMatchObject({ trading: written.trading, version: written.version + 1 });
  });

  // [what is wrong, trading, the field details must name]
  const malformed: Array<[string, unknown, string]> = [
    ['trading null', null, 'trading'],
    ['trading a string', 'onchain', 'trading'],
    ['enforcement missing', { limits: [] }, 'trading.enforcement'],
    ['enforcement unknown', { enforcement: 'chain' }, 'trading.enforcement'],
    [
      'tokens.allow null',
      { enforcement: 'service', tokens: { allow: null } },
      'trading.tokens.allow',
    ],
    [
      'tokens.allow a symbol not of the market',
      { enforcement: 'service', tokens: { allow: ['DOGE'] } },
      'trading.tokens.allow[0]',
    ],
    ['limits an object', { enforcement: 'service', limits: {} }, 'trading.limits'],
    ['limits [null]', { enforcement: 'service', limits: [null] }, 'trading.limits'],
    [
      'a limit without token',
      { enforcement: 'service', limits: [{ perDay: '1' }] },
      'trading.limits.0.token',
    ],
    [
      'perTrade a number',
      { enforcement: 'service', limits: [{ token: 'WETH', perTrade: 1 }] },
      'trading.limits.0.perTrade',
    ],
    [
      'perTrade negative',
      { enforcement: 'service', limits: [{ token: 'WETH', perTrade: '-1' }] },
      'trading.limits.0.perTrade',
    ],
    [
      'perDay past the decimals',
      { enforcement: 'service', limits: [{ token: 'tUSDC', perDay: '0.0000001' }] },
      'trading.limits[0].perDay',
    ],
    [
      'perDay zero',
      { enforcement: 'service', limits: [{ token: 'WETH', perDay: '0' }] },
      'trading.limits[0].perDay',
    ],
    [
      'a limit with neither',
      { enforcement: 'service', limits: [{ token: 'WETH' }] },
      'trading.limits[0]',
    ],
    [
      'a token limited twice',
      {
        enforcement: 'service',
        limits: [
          { token: 'WETH', perDay: '1' },
          { token: 'ETH', perTrade: '1' },
        ],
      },
      'trading.limits[1].token',
    ],
    [
      'approvals.quorum 0',
      {
        enforcement: 'service',
        approvals: {
          above: [{ token: 'WETH', amount: '1' }],
          quorum: 0,
          roles: ['owner'],
          ttlSeconds: 600,
        },
      },
      'trading.approvals.quorum',
    ],
    [
      'approvals.roles unknown',
      {
        enforcement: 'service',
        approvals: {
          above: [{ token: 'WETH', amount: '1' }],
          quorum: 1,
          roles: ['boss'],
          ttlSeconds: 600,
        },
      },
      'trading.approvals.roles',
    ],
    [
      'approvals.above empty',
      {
        enforcement: 'service',
        approvals: { above: [], quorum: 1, roles: ['owner'], ttlSeconds: 600 },
      },
      'trading.approvals.above',
    ],
    [
      'approvals.above token not of the market',
      {
        enforcement: 'service',
        approvals: {
          above: [{ token: 'X', amount: '1' }],
          quorum: 1,
          roles: ['owner'],
          ttlSeconds: 600,
        },
      },
      'trading.approvals.above[0].token',
    ],
    ['a member nobody knows', { enforcement: 'service', other: 1 }, 'trading.other'],
  ];

  it.each(malformed)('%s: 400 INVALID_PARAMS naming the field', async (_what, trading, field) => {
    const res = await put({ ...BASE, trading }).expect(400);
    expect(res.body).toMatchObject({ code: 'INVALID_PARAMS' });
    expect(res.body.details).toContainEqual(expect.objectContaining({ field }));
  });

  it('builds under the limits: one pool and two hops, signed, relayed, CONFIRMED, counted as mined', async () => {
    const one = (await swap(userA, T.WETH, T.tUSDC, weth('0.5')).expect(200)).body;
    expect(one.route.hops).toHaveLength(1);
    expect(one.authorization).toBeUndefined();
    await relayUntilConfirmed(t, token, await signBuilt(userA, one.transaction));
    // WETH -> tEURC: through tUSDC (no direct pool), from another wallet of the account.
    const two = (await swap(userB, T.WETH, T.tEURC, weth('0.5')).expect(200)).body;
    expect(two.route.hops).toHaveLength(2);
    await relayUntilConfirmed(t, token, await signBuilt(userB, two.transaction));
    // The receipt names the trade rules it passed.
    const { receipt } = await getReceipt(t, token, two.receiptId);
    expect(receipt.policy.rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ rule: 'trading.tokens.allow', result: 'pass' }),
        expect.objectContaining({ rule: 'trading.limits.perTrade', result: 'pass' }),
        expect.objectContaining({ rule: 'trading.limits.perDay', result: 'pass' }),
      ]),
    );
    // The relay watcher saw both mined: their reservations count as mined.
    await pollUntil(
      'both reservations mined',
      () => reservations().findBy({ receiptId: two.receiptId }),
      (rows) => rows.length === 1 && rows[0].status === 'mined',
    );
    expect(await reservations().findBy({ receiptId: one.receiptId })).toEqual([
      expect.objectContaining({ status: 'mined', token: 'WETH', amount: weth('0.5') }),
    ]);
  });

  it('refuses a build over the per-trade limit: 403 TRADE_LIMIT_EXCEEDED, window "trade"', async () => {
    const res = await swap(userA, T.WETH, T.tUSDC, weth('1.2')).expect(403);
    expect(res.body).toMatchObject({ code: 'TRADE_LIMIT_EXCEEDED', phase: 'preflight' });
    expect(res.body.details[0]).toEqual({
      token: 'WETH',
      limit: '1',
      window: 'trade',
      used: '0',
      requested: '1.2',
    });
  });

  it('refuses from the trade that would cross the daily limit (across wallets); evaluate says the same', async () => {
    // 1 WETH mined; 0.4 more is reserved (built, not sent); then 0.2 would make 1.6 > 1.5.
    await swap(userB, T.WETH, T.tUSDC, weth('0.4')).expect(200);
    const res = await swap(userA, T.WETH, T.tUSDC, weth('0.2')).expect(403);
    expect(res.body).toMatchObject({ code: 'TRADE_LIMIT_EXCEEDED', phase: 'preflight' });
    expect(res.body.details[0]).toEqual({
      token: 'WETH',
      limit: '1.5',
      window: '24h',
      used: '1.4',
      requested: '0.2',
    });
    // What is left still builds: 0.1 WETH.
    await swap(userA, T.WETH, T.tUSDC, weth('0.1')).expect(200);
    const judged = (
      await evaluate({
        walletAddress: userA.address,
        trade: { tokenIn: T.WETH, tokenOut: T.tUSDC, amount: weth('0.01') },
      }).expect(200)
    ).body;
    expect(judged.trade).toEqual({
      allowed: false,
      decidingRule: 'trading.limits.perDay',
      code: 'TRADE_LIMIT_EXCEEDED',
      message: expect.any(String),
      details: [{ token: 'WETH', limit: '1.5', window: '24h', used: '1.5', requested: '0.01' }],
      gives: [{ token: 'WETH', amount: '0.01' }],
      dailyLimits: [{ token: 'WETH', perDay: '1.5', used: '1.5', remaining: '0' }],
    });
    // GET preflight reports the rules and the day's use, as it reports the policy.
    const preflight = await request(t.server)
      .get(`/api/v1/defi/preflight/${userB.address}?tokens=WETH`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(preflight.body.trading).toEqual({
      enforcement: 'service',
      tokens: ['WETH', 'tUSDC', 'tEURC'],
      limits: [{ token: 'WETH', perTrade: '1', perDay: '1.5', used: '1.5', remaining: '0' }],
    });
  });

  it('refuses a token outside the allow-list: 403 TOKEN_NOT_ALLOWED; evaluate names the rule', async () => {
    const res = await swap(userA, T.tWBTC, T.tUSDC, '1000000').expect(403);
    expect(res.body).toMatchObject({ code: 'TOKEN_NOT_ALLOWED', phase: 'preflight' });
    expect(res.body.details[0]).toMatchObject({ token: 'tWBTC' });
    const judged = await evaluate({
      walletAddress: userA.address,
      trade: { tokenIn: T.tWBTC, tokenOut: T.tUSDC, amount: '1000000' },
    }).expect(200);
    expect(judged.body.trade).toMatchObject({
      allowed: false,
      decidingRule: 'trading.tokens.allow',
      code: 'TOKEN_NOT_ALLOWED',
    });
  });

  it("evaluates a draft policy's trade rules on a draft trade; a malformed draft is 400 naming the field", async () => {
    const draft = {
      ...BASE,
      trading: { enforcement: 'service', limits: [{ token: 'tUSDC', perTrade: '10' }] },
    };
    const judged = await evaluate({
      walletAddress: userA.address,
      policy: draft,
      trade: {
        tokenIn: T.tUSDC,
        tokenOut: T.WETH,
        amount: '1000',
        tradeType: 'EXACT_OUTPUT',
        amountInMaximum: '10000001',
      },
    }).expect(200);
    expect(judged.body).toMatchObject({ version: null });
    expect(judged.body.trade).toMatchObject({
      allowed: false,
      decidingRule: 'trading.limits.perTrade',
      details: [
        { token: 'tUSDC', limit: '10', window: 'trade', used: '0', requested: '10.000001' },
      ],
      gives: [{ token: 'tUSDC', amount: '10.000001' }],
    });
    const bad = await evaluate({
      walletAddress: userA.address,
      trade: { tokenIn: T.tUSDC, tokenOut: T.WETH, amount: '1000', tradeType: 'EXACT_OUTPUT' },
    }).expect(400);
    expect(bad.body.details).toContainEqual(
      expect.objectContaining({ field: 'trade.amountInMaximum' }),
    );
    const badDraft = await evaluate({
      walletAddress: userA.address,
      policy: {
        ...BASE,
        trading: { enforcement: 'service', limits: [{ token: 'X', perDay: '1' }] },
      },
    }).expect(400);
    expect(badDraft.body.details).toContainEqual(
      expect.objectContaining({
        field: expect.stringMatching(/^(policy\.)?trading\.limits\[0\]\.token$/),
      }),
    );
  });

  it('never reserves past the daily limit when builds race (one process, its one connection)', async () => {
    // A fresh account: 0.3 WETH a day, six builds of 0.1 at once: exactly three pass.
    const racer = await login(t, await t.createAccount());
    await request(t.server)
      .put('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${racer}`)
      .send({
        ...BASE,
        trading: { enforcement: 'service', limits: [{ token: 'WETH', perDay: '0.3' }] },
      })
      .expect(200);
    const user = chain.wallets[6];
    await chain.activate(user.address);
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () =>
        postSwap(
          t,
          racer,
          {
            tokenIn: T.WETH,
            tokenOut: T.tUSDC,
            amount: weth('0.1'),
            userAddress: user.address,
          },
          '?buildOnly=true',
        ).then((r) => r.status),
      ),
    );
    expect(statuses.sort()).toEqual([200, 200, 200, 403, 403, 403]);
  });

  it('a reservation past its deadline stops counting (service mode) and the sweep expires it', async () => {
    const accountId = (await t.createAccount()).accountId;
    const ledger = t.app.get(TradeLedgerService);
    const past = Math.floor(Date.now() / 1000) - 10;
    const wallet = chain.wallets[7].address;
    const buildId = await ledger.reserve(
      accountId,
      [{ wallet, token: 'WETH', raw: 10n ** 17n }],
      { deadline: past },
      () => undefined,
    );
    expect((await ledger.used(accountId, ['WETH'])).get('WETH')).toBeUndefined();
    await t.app.get(TradeReservationSweep).runOnce();
    expect(await reservations().findBy({ buildId })).toEqual([
      expect.objectContaining({ status: 'expired' }),
    ]);
  });
});
