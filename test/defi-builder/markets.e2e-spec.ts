/**
 * Issue 42, markets: the devnet's market as the network file lists it (four tokens of 18, 6, 8 and
 * 6 decimals, four pools with our hook, each initialized and seeded on the chain), as
 * GET /api/v1/defi/config shows it, and the whitelist it makes.
 */
import { Contract } from 'ethers';
import request from 'supertest';
import devnetFile from '../../src/config/networks/devnet.json';
import { STATE_VIEW } from '../../src/chain/abi/uniswap-v4';
import type { TestApp } from '../helpers/app';
import type { UnsignedTx } from '../../src/defi-builder/encoding/approvals';
import {
  DefiDevnet,
  postLiquidity,
  postSwap,
  relayUntilConfirmed,
  signBuilt,
  useDefiSuite,
} from '../helpers/defi';

describe('Markets on the devnet (issue 42)', () => {
  const suite = useDefiSuite();
  let chain: DefiDevnet;
  let t: TestApp;
  let token: string;
  beforeAll(() => ({ chain, t, token } = suite));

  const config = async () =>
    (
      await request(t.server)
        .get('/api/v1/defi/config')
        .set('Authorization', `Bearer ${token}`)
        .expect(200)
    ).body;

  it('lists the four tokens and four pools; the spec pool is unchanged and first', async () => {
    const body = await config();
    const { tokens } = chain.deployment;
    expect(
      body.tokens.map((x: { symbol: string; decimals: number }) => [x.symbol, x.decimals]),
    ).toEqual([
      ['WETH', 18],
      ['tUSDC', 6],
      ['tWBTC', 8],
      ['tEURC', 6],
      ['ETH', 18],
    ]);
    // The spec's addresses are unchanged by the new tokens.
    expect(tokens.WETH).toBe('0x77139Fa81c4434893f9D7e033C3e3903C46B820D');
    expect(tokens.tUSDC).toBe('0x993706027b3eC9d8b03A962CAaa15C133A52707c');
    expect(body.pool.key).toEqual({
      currency0: tokens.WETH,
      currency1: tokens.tUSDC,
      fee: 3000,
      tickSpacing: 60,
      hooks: chain.deployment.contracts.complianceHook,
    });
    const pools = body.pools as Array<{
      id: string;
      symbols: string[];
      fee: number;
      tickSpacing: number;
      hooks: string;
      currency0: string;
      currency1: string;
      default: boolean;
    }>;
    expect(pools.map((p) => [[...p.symbols].sort().join('/'), p.fee, p.tickSpacing])).toEqual([
      ['WETH/tUSDC', 3000, 60],
      ['WETH/tWBTC', 3000, 60],
      ['tEURC/tUSDC', 100, 1],
      ['tEURC/tUSDC', 500, 10],
    ]);
    expect(pools[0]).toMatchObject({ id: body.pool.poolId, default: true });
    expect(pools.slice(1).every((p) => !p.default)).toBe(true);
    expect(pools.map((p) => p.id)).toEqual(devnetFile.pools.map((p) => p.id));
    for (const p of pools) {
      expect(p.hooks).toBe(chain.deployment.contracts.complianceHook);
      expect(BigInt(p.currency0) < BigInt(p.currency1)).toBe(true);
    }
  });

  it('every pool is initialized and seeded on the chain; funded wallets hold the new tokens', async () => {
    const stateView = new Contract(
      chain.deployment.contracts.stateView,
      STATE_VIEW,
      chain.provider,
    );
    for (const pool of (await config()).pools as Array<{ id: string }>) {
      const [sqrtPriceX96] = (await stateView.getSlot0(pool.id)) as [bigint];
      expect(sqrtPriceX96 > 0n).toBe(true);
      expect(((await stateView.getLiquidity(pool.id)) as bigint) > 0n).toBe(true);
    }
    const user = chain.wallets[3].address;
    expect(await chain.balanceOf(chain.deployment.tokens.tWBTC, user)).toBe(100n * 10n ** 8n);
    expect(await chain.balanceOf(chain.deployment.tokens.tEURC, user)).toBe(1_000_000n * 10n ** 6n);
  });

  it('a token outside the file stays UNSUPPORTED_TOKEN, naming every listed token', async () => {
    const res = await postSwap(t, token, {
      tokenIn: chain.deployment.tokens.tWBTC,
      tokenOut: '0x000000000000000000000000000000000000dEaD',
      amount: '1000',
      userAddress: chain.wallets[3].address,
    }).expect(400);
    expect(res.body.code).toBe('UNSUPPORTED_TOKEN');
    for (const symbol of ['WETH', 'tUSDC', 'tWBTC', 'tEURC'])
      expect(res.body.hint).toContain(symbol);
  });

  it("an 8-decimal token end to end: a mint into WETH/tWBTC (the pair's only pool, no poolId) is signed and mined", async () => {
    const pool = (
      (await config()).pools as Array<{
        symbols: string[];
        currency0: string;
        currency1: string;
        id: string;
      }>
    ).find((p) => p.symbols.includes('tWBTC'))!;
    const user = chain.wallets[5];
    await chain.activate(user.address);
    const wbtcIs0 = pool.currency0 === chain.deployment.tokens.tWBTC;
    // 0.05 tWBTC (8 decimals) against 1 WETH, full range (tick spacing 60).
    const [amount0, amount1] = wbtcIs0 ? [5_000_000n, 10n ** 18n] : [10n ** 18n, 5_000_000n];
    const mintBody = {
      token0: pool.currency0,
      token1: pool.currency1,
      amount0: amount0.toString(),
      amount1: amount1.toString(),
      tickLower: -887220,
      tickUpper: 887220,
      userAddress: user.address,
    };
    const first = await postLiquidity(t, token, mintBody).expect(200);
    for (const approval of first.body.approvals)
      expect((await chain.send(user, approval.transaction)).status).toBe(1);
    const res = await postLiquidity(t, token, mintBody).expect(200);
    expect(res.body.poolKey).toMatchObject({
      currency0: pool.currency0,
      currency1: pool.currency1,
    });
    const tokenId = (await chain.positionManager.nextTokenId()) as bigint;
    const before = await chain.balanceOf(chain.deployment.tokens.tWBTC, user.address);
    expect((await chain.send(user, res.body.transaction)).status).toBe(1);
    expect(await chain.positionManager.ownerOf(tokenId)).toBe(user.address);
    const spent = before - (await chain.balanceOf(chain.deployment.tokens.tWBTC, user.address));
    expect(spent).toBe(BigInt(wbtcIs0 ? res.body.expectedAmount0 : res.body.expectedAmount1));
    // ~0.05 tWBTC per WETH: within the slippage of a full-range mint at the seeded price.
    expect(spent > 4_000_000n && spent <= 5_000_000n).toBe(true);
  });

  describe('a position in a non-default pool (tUSDC/tEURC, fee 500)', () => {
    const api = (path: string) =>
      request(t.server).post(`/api/v1/defi/${path}`).set('Authorization', `Bearer ${token}`);
    const get = (path: string) =>
      request(t.server).get(`/api/v1/defi/${path}`).set('Authorization', `Bearer ${token}`);
    const eurcPools = async () => {
      const pools = (await config()).pools as Array<{
        id: string;
        fee: number;
        currency0: string;
        currency1: string;
      }>;
      return pools.filter((p) => p.fee === 100 || p.fee === 500);
    };
    const body = (pool: { currency0: string; currency1: string }, user: string, over = {}) => ({
      token0: pool.currency0,
      token1: pool.currency1,
      // tEURC (currency0, 6 decimals) and tUSDC (6 decimals) at ~1.08 tUSDC per tEURC.
      amount0: (1000n * 10n ** 6n).toString(),
      amount1: (1080n * 10n ** 6n).toString(),
      tickLower: -887270,
      tickUpper: 887270,
      userAddress: user,
      ...over,
    });

    it('without poolId, the pair with two fee tiers is 400 POOL_AMBIGUOUS naming both', async () => {
      const [p100, p500] = await eurcPools();
      const res = await postLiquidity(t, token, body(p500, chain.wallets[4].address)).expect(400);
      expect(res.body).toMatchObject({ code: 'POOL_AMBIGUOUS', phase: 'validation' });
      for (const p of [p100, p500]) expect(res.body.hint).toContain(p.id);
      expect(res.body.details).toEqual(expect.anything());
    });

    it('is minted, listed with its pool, increased, collected, decreased and burned, each transaction signed, relayed and CONFIRMED (issue 53 item 1)', async () => {
      const [, pool] = await eurcPools();
      const user = chain.wallets[4];
      await chain.activate(user.address);
      /** Signs a built transaction as the wallet, relays it, and waits for CONFIRMED. */
      const relay = async (tx: UnsignedTx, kind: string) => {
        const done = await relayUntilConfirmed(t, token, await signBuilt(user, tx));
        expect(done.kind).toBe(kind);
        return done;
      };
      const mintBody = body(pool, user.address, { poolId: pool.id });
      const first = await postLiquidity(t, token, mintBody).expect(200);
      for (const approval of first.body.approvals)
        await relay(
          approval.transaction,
          approval.kind === 'erc20' ? 'approval' : 'permit2-approval',
        );
      const res = await postLiquidity(t, token, mintBody).expect(200);
      expect(res.body).toMatchObject({
        approvals: [],
        simulation: { ok: true },
        poolKey: {
          currency0: pool.currency0,
          currency1: pool.currency1,
          fee: 500,
          tickSpacing: 10,
        },
      });
      const tokenId = (await chain.positionManager.nextTokenId()) as bigint;
      const before0 = await chain.balanceOf(pool.currency0, user.address);
      const before1 = await chain.balanceOf(pool.currency1, user.address);
      const minted = await relay(res.body.transaction, 'mint');
      expect(minted.tokenId).toBe(tokenId.toString());
      expect(await chain.positionManager.ownerOf(tokenId)).toBe(user.address);
      expect(before0 - (await chain.balanceOf(pool.currency0, user.address))).toBe(
        BigInt(res.body.expectedAmount0),
      );
      expect(before1 - (await chain.balanceOf(pool.currency1, user.address))).toBe(
        BigInt(res.body.expectedAmount1),
      );

      const list = await get(`positions?owner=${user.address}`).expect(200);
      const listed = list.body.positions.find(
        (p: { tokenId: string }) => p.tokenId === tokenId.toString(),
      );
      expect(listed).toMatchObject({
        poolId: pool.id,
        poolKey: { currency0: pool.currency0, currency1: pool.currency1, fee: 500 },
        liquidity: res.body.liquidity,
      });
      expect(listed.deprecated).toBeUndefined();

      // Increased in its own pool (the pool follows from the tokenId).
      const liquidityBefore = (await chain.positionManager.getPositionLiquidity(tokenId)) as bigint;
      const increase = await api('liquidity/increase')
        .send({
          tokenId: tokenId.toString(),
          userAddress: user.address,
          amount0: (100n * 10n ** 6n).toString(),
          amount1: (108n * 10n ** 6n).toString(),
        })
        .expect(200);
      // Every answer's poolKey is the five-field key of the position's pool.
      expect(increase.body.poolKey).toEqual({
        currency0: pool.currency0,
        currency1: pool.currency1,
        fee: 500,
        tickSpacing: 10,
        hooks: chain.deployment.contracts.complianceHook,
      });
      await relay(increase.body.transaction, 'increase');
      expect(
        ((await chain.positionManager.getPositionLiquidity(tokenId)) as bigint) > liquidityBefore,
      ).toBe(true);

      const collect = await api('liquidity/collect')
        .send({ tokenId: tokenId.toString(), userAddress: user.address })
        .expect(200);
      expect(collect.body.poolKey).toEqual(increase.body.poolKey);
      await relay(collect.body.transaction, 'collect');

      const liquidityBeforeDecrease = (await chain.positionManager.getPositionLiquidity(
        tokenId,
      )) as bigint;
      const decrease = await api('liquidity/decrease')
        .send({ tokenId: tokenId.toString(), userAddress: user.address, liquidityBps: 2500 })
        .expect(200);
      expect(decrease.body.poolKey).toEqual(increase.body.poolKey);
      await relay(decrease.body.transaction, 'decrease');
      expect(await chain.positionManager.getPositionLiquidity(tokenId)).toBe(
        liquidityBeforeDecrease - liquidityBeforeDecrease / 4n,
      );

      const held0 = await chain.balanceOf(pool.currency0, user.address);
      const burn = await api('liquidity/decrease')
        .send({
          tokenId: tokenId.toString(),
          userAddress: user.address,
          liquidityBps: 10000,
          burn: true,
        })
        .expect(200);
      await relay(burn.body.transaction, 'decrease');
      expect((await chain.balanceOf(pool.currency0, user.address)) > held0).toBe(true);
      const gone = await get(`positions/${tokenId}`).expect(404);
      expect(gone.body.code).toBe('POSITION_NOT_FOUND');
    });
  });
});
