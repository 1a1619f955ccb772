/**
 * Routes across pools on the devnet's market (issue 42, design §9): the devnet lists WETH/tUSDC,
 * WETH/tWBTC and tUSDC/tEURC in two fee tiers. Quotes pick the best of every direct pool and every
 * two-hop route in one eth_call; swaps over two hops are built, signed by a funded development
 * wallet, relayed through POST /api/v1/defi/transactions and CONFIRMED; each hop's hook checks
 * the trader; a pair no route connects is 400 NO_ROUTE.
 */
import { Wallet, ZeroAddress } from 'ethers';
import request from 'supertest';
import { decodeRevert } from '../../src/chain/encoding/revert-decoder';
import type { MarketPool } from '../../src/chain/network/network.types';
import {
  erc20ApproveData,
  MAX_UINT160,
  MAX_UINT256,
  permit2ApproveData,
} from '../../src/defi-builder/encoding/approvals';
import {
  encodeMintCalldata,
  usableMaxTick,
} from '../../src/defi-builder/encoding/liquidity-calldata';
import { poolQuoteRead } from '../../src/defi-builder/encoding/market-reads';
import { resolveNetworkFile, NetworkFile } from '../../src/chain/network/network-definition';
import devnetFile from '../../src/config/networks/devnet.json';
import {
  HOOK_ERRORS,
  postQuote,
  postSwap,
  relayUntilConfirmed,
  signBuilt,
  useDefiSuite,
} from '../helpers/defi';

const ETH = ZeroAddress;
type Hop = {
  poolId: string;
  tokenIn: string;
  tokenOut: string;
  fee: number;
  amountIn: string;
  amountOut: string;
};

describe('DeFi builder: routes across pools (devnet)', () => {
  const s = useDefiSuite();
  let TWBTC: string;
  let TEURC: string;
  /** PoolId by "SYMBOL/SYMBOL/fee" (currency order), from GET /api/v1/defi/config. */
  const pools = new Map<string, string>();

  beforeAll(async () => {
    ({ tWBTC: TWBTC, tEURC: TEURC } = s.chain.deployment.tokens);
    const config = await request(s.t.server)
      .get('/api/v1/defi/config')
      .set('Authorization', `Bearer ${s.token}`)
      .expect(200);
    const symbol = (address: string) =>
      config.body.tokens.find((t: { address: string }) => t.address === address).symbol;
    for (const pool of config.body.pools)
      pools.set(`${symbol(pool.currency0)}/${symbol(pool.currency1)}/${pool.fee}`, pool.id);
  });

  const poolOf = (a: string, b: string, fee: number) =>
    pools.get(`${a}/${b}/${fee}`) ?? pools.get(`${b}/${a}/${fee}`);

  /** Builds; relays the approvals it lists; builds again: the ready response. */
  async function readyBuild(user: Wallet, body: object) {
    const first = await postSwap(s.t, s.token, body).expect(200);
    for (const approval of first.body.approvals)
      await relayUntilConfirmed(s.t, s.token, await signBuilt(user, approval.transaction));
    const res = await postSwap(s.t, s.token, body).expect(200);
    expect(res.body.approvals).toEqual([]);
    expect(res.body.simulation).toEqual({ ok: true });
    return res.body;
  }

  it('quotes tWBTC -> tUSDC (no direct pool) through WETH in one eth_call, each hop with its amounts', async () => {
    await s.chain.resetRpcStats();
    const res = await postQuote(s.t, s.token, {
      tokenIn: TWBTC,
      tokenOut: s.TUSDC,
      amount: '1000000',
    }).expect(200);
    expect(await s.chain.rpcStats()).toEqual({ eth_call: 1 });
    const hops: Hop[] = res.body.route.hops;
    expect(hops.map((h) => [h.poolId, h.tokenIn, h.tokenOut])).toEqual([
      [poolOf('WETH', 'tWBTC', 3000), TWBTC, s.WETH],
      [poolOf('WETH', 'tUSDC', 3000), s.WETH, s.TUSDC],
    ]);
    expect(hops[0].amountIn).toBe('1000000');
    expect(hops[0].amountOut).toBe(hops[1].amountIn);
    expect(hops[1].amountOut).toBe(res.body.amountOut);
    expect(BigInt(res.body.amountOut) > 0n).toBe(true);
    expect(res.body.priceImpactBps).toBeGreaterThanOrEqual(60); // two 0.3 % fees
  });

  it('swaps tWBTC -> tUSDC over two hops: built, signed, relayed, CONFIRMED, paying at least minAmountOut', async () => {
    const user = s.chain.wallets[5];
    await s.chain.activate(user.address);
    const amount = 10n ** 6n; // 0.01 tWBTC
    const body = {
      tokenIn: TWBTC,
      tokenOut: s.TUSDC,
      amount: amount.toString(),
      userAddress: user.address,
    };
    await s.chain.resetRpcStats();
    await postSwap(s.t, s.token, body).expect(200);
    // The preflight's one batch, and the receipt's simulation (issue 56: approvals, then the swap).
    expect((await s.chain.rpcStats()).eth_call).toBe(2);
    const built = await readyBuild(user, body);
    expect(built.route.hops.map((h: Hop) => h.poolId)).toEqual([
      poolOf('WETH', 'tWBTC', 3000),
      poolOf('WETH', 'tUSDC', 3000),
    ]);
    const quoted = BigInt(built.amountOut);
    const minOut = BigInt(built.minAmountOut);
    expect(minOut).toBe((quoted * 9950n) / 10000n);
    expect(built.route.hops[1].amountOut).toBe(built.amountOut);

    const before = await s.chain.balanceOf(s.TUSDC, user.address);
    const wbtcBefore = await s.chain.balanceOf(TWBTC, user.address);
    const done = await relayUntilConfirmed(s.t, s.token, await signBuilt(user, built.transaction));
    const received = (await s.chain.balanceOf(s.TUSDC, user.address)) - before;
    console.info(
      `gas used: two-hop swap ${String(done.gasUsed)} (tx gas limit ${built.transaction.gas})`,
    );
    expect(received >= minOut).toBe(true);
    expect(received).toBe(quoted); // nothing traded in between
    expect(wbtcBefore - (await s.chain.balanceOf(TWBTC, user.address))).toBe(amount);
    expect(done).toMatchObject({
      kind: 'swap',
      swap: {
        tokenIn: TWBTC,
        amountIn: amount.toString(),
        tokenOut: s.TUSDC,
        amountOut: received.toString(),
      },
    });
  });

  it('EXACT_OUTPUT over two hops (tUSDC -> tWBTC): exactly amount received, at most maxAmountIn spent', async () => {
    const user = s.chain.wallets[6];
    await s.chain.activate(user.address);
    const amountOut = 10n ** 5n; // 0.001 tWBTC
    const body = {
      tokenIn: s.TUSDC,
      tokenOut: TWBTC,
      amount: amountOut.toString(),
      tradeType: 'EXACT_OUTPUT',
      userAddress: user.address,
    };
    const built = await readyBuild(user, body);
    expect(built.route.hops.map((h: Hop) => [h.tokenIn, h.tokenOut])).toEqual([
      [s.TUSDC, s.WETH],
      [s.WETH, TWBTC],
    ]);
    expect(built.route.hops[1].amountOut).toBe(amountOut.toString());
    const quotedIn = BigInt(built.amountIn);
    const maxIn = BigInt(built.maxAmountIn);
    expect(maxIn).toBe((quotedIn * 10050n + 9999n) / 10000n);
    expect(built.route.hops[0].amountIn).toBe(built.amountIn);

    const usdcBefore = await s.chain.balanceOf(s.TUSDC, user.address);
    const wbtcBefore = await s.chain.balanceOf(TWBTC, user.address);
    await relayUntilConfirmed(s.t, s.token, await signBuilt(user, built.transaction));
    expect((await s.chain.balanceOf(TWBTC, user.address)) - wbtcBefore).toBe(amountOut);
    const spent = usdcBefore - (await s.chain.balanceOf(s.TUSDC, user.address));
    expect(spent).toBe(quotedIn);
    expect(spent <= maxIn).toBe(true);
  });

  it('takes a signed Permit2 permit on a two-hop route (tEURC -> tUSDC -> WETH) instead of the Permit2 approval', async () => {
    const user = s.chain.wallets[9];
    await s.chain.activate(user.address);
    const body = {
      tokenIn: TEURC,
      tokenOut: s.WETH,
      amount: (1000n * 10n ** 6n).toString(),
      userAddress: user.address,
    };
    const first = await postSwap(s.t, s.token, body).expect(200);
    expect(first.body.approvals.map((a: { kind: string }) => a.kind)).toEqual(['erc20', 'permit2']);
    await relayUntilConfirmed(
      s.t,
      s.token,
      await signBuilt(user, first.body.approvals[0].transaction),
    );
    const { domain, types, values } = first.body.permitData;
    expect(values.details.token).toBe(TEURC);
    const res = await postSwap(s.t, s.token, {
      ...body,
      permit: values,
      permitSignature: await user.signTypedData(domain, types, values),
    }).expect(200);
    expect(res.body).toMatchObject({ approvals: [], simulation: { ok: true } });
    expect(res.body.route.hops.map((h: Hop) => [h.tokenIn, h.tokenOut])).toEqual([
      [TEURC, s.TUSDC],
      [s.TUSDC, s.WETH],
    ]);
    const before = await s.chain.balanceOf(s.WETH, user.address);
    const done = await relayUntilConfirmed(
      s.t,
      s.token,
      await signBuilt(user, res.body.transaction),
    );
    expect(done.kind).toBe('swap');
    const received = (await s.chain.balanceOf(s.WETH, user.address)) - before;
    expect(received >= BigInt(res.body.minAmountOut)).toBe(true);
  });

  it('pays native ETH on a two-hop route (ETH -> tUSDC -> tEURC): no approvals, value = amount', async () => {
    const user = s.chain.wallets[7];
    await s.chain.activate(user.address);
    const amount = 10n ** 16n;
    const body = {
      tokenIn: ETH,
      tokenOut: TEURC,
      amount: amount.toString(),
      userAddress: user.address,
    };
    const res = await postSwap(s.t, s.token, body).expect(200);
    expect(res.body).toMatchObject({
      approvals: [],
      simulation: { ok: true },
      transaction: { value: amount.toString() },
    });
    const hops: Hop[] = res.body.route.hops;
    expect(hops.map((h) => [h.tokenIn, h.tokenOut])).toEqual([
      [s.WETH, s.TUSDC],
      [s.TUSDC, TEURC],
    ]);
    const done = await relayUntilConfirmed(
      s.t,
      s.token,
      await signBuilt(user, res.body.transaction),
    );
    const received = await s.chain.balanceOf(TEURC, user.address);
    expect(received >= BigInt(res.body.minAmountOut)).toBe(true);
    expect(done).toMatchObject({
      swap: { tokenIn: ETH, amountIn: amount.toString(), tokenOut: TEURC },
    });
  });

  /**
   * A full-range position of `liquidity` in `pool`, minted straight through the PositionManager
   * by `user` (session open, Permit2 approved for both tokens): a deeper pool.
   */
  async function deepen(user: Wallet, pool: MarketPool, liquidity: bigint) {
    const { permit2, positionManager } = s.chain.deployment.contracts;
    const send = (to: string, data: string) =>
      s.chain.send(user, { to, data, value: '0', gas: '1000000' });
    for (const token of [pool.currency0, pool.currency1]) {
      await send(token, erc20ApproveData(permit2, MAX_UINT256));
      await send(permit2, permit2ApproveData(token, positionManager, MAX_UINT160, 2 ** 40));
    }
    const max = usableMaxTick(pool.tickSpacing);
    const receipt = await send(
      positionManager,
      encodeMintCalldata({
        poolKey: pool,
        tickLower: -max,
        tickUpper: max,
        liquidity,
        amount0Max: 10n ** 12n,
        amount1Max: 10n ** 12n,
        owner: user.address,
        deadline: 2n ** 40n,
      }),
    );
    expect(receipt.status).toBe(1);
  }

  it('takes the better of two fee tiers, shown by making one tier and then the other the shallower', async () => {
    const network = resolveNetworkFile(devnetFile as NetworkFile);
    const tier = (fee: number) =>
      network.pools.find((p) => p.id === poolOf('tEURC', 'tUSDC', fee))!;
    const [tier100, tier500] = [tier(100), tier(500)];
    // 300,000 tEURC: large against the seeded depth, so depth outweighs the fee difference.
    const amount = 300_000n * 10n ** 6n;
    const body = { tokenIn: TEURC, tokenOut: s.TUSDC, amount: amount.toString() };
    /** The single-pool V4Quoter quote of a tier, read apart from the API. */
    const tierQuote = async (pool: MarketPool) => {
      const read = poolQuoteRead(
        network,
        pool,
        BigInt(TEURC) < BigInt(s.TUSDC),
        'EXACT_INPUT',
        amount,
      );
      const returnData = await s.chain.provider.call({
        to: read.call.target,
        data: read.call.callData,
      });
      const quote = read.decode({ ok: true, returnData });
      return quote.ok ? quote.amount : 0n;
    };
    const chosen = async () => {
      const res = await postQuote(s.t, s.token, body).expect(200);
      expect(res.body.route.hops).toHaveLength(1);
      return { poolId: res.body.route.hops[0].poolId, amountOut: BigInt(res.body.amountOut) };
    };

    // As seeded, the 500 tier holds half the 100 tier's liquidity: the 100 tier wins.
    let best = await chosen();
    expect(best.poolId).toBe(tier100.id);
    expect(best.amountOut).toBe(await tierQuote(tier100));
    expect(best.amountOut > (await tierQuote(tier500))).toBe(true);

    // The 100 tier made the shallower: the 500 tier is deepened past it, and wins.
    const [a, b] = [s.chain.wallets[3], s.chain.wallets[4]];
    await s.chain.activate(a.address);
    await s.chain.activate(b.address);
    await deepen(a, tier500, 9n * 10n ** 11n);
    best = await chosen();
    expect(best.poolId).toBe(tier500.id);
    expect(best.amountOut).toBe(await tierQuote(tier500));
    expect(best.amountOut > (await tierQuote(tier100))).toBe(true);

    // And the other way round: the 100 tier deepened past the 500 tier wins again.
    await deepen(b, tier100, 9n * 10n ** 11n);
    best = await chosen();
    expect(best.poolId).toBe(tier100.id);
    expect(best.amountOut > (await tierQuote(tier500))).toBe(true);
  });

  it('is 400 NO_ROUTE (preflight) for tWBTC/tEURC, naming what tWBTC trades against', async () => {
    for (const res of [
      await postQuote(s.t, s.token, { tokenIn: TWBTC, tokenOut: TEURC, amount: '1000' }),
      await postSwap(s.t, s.token, {
        tokenIn: TWBTC,
        tokenOut: TEURC,
        amount: '1000',
        userAddress: s.chain.wallets[5].address,
      }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'NO_ROUTE', phase: 'preflight' });
      expect(res.body.hint).toMatch(/tWBTC trades against (WETH, tUSDC|tUSDC, WETH)/);
    }
  });

  it('checks the trader on every hop: no session is 412, and the signed two-hop swap reverts at the hook', async () => {
    const user = s.chain.wallets[8];
    const body = {
      tokenIn: ETH,
      tokenOut: TEURC,
      amount: (10n ** 15n).toString(),
      userAddress: user.address,
    };
    const refused = await postSwap(s.t, s.token, body).expect(412);
    expect(refused.body).toMatchObject({ code: 'SESSION_NOT_ACTIVE', phase: 'preflight' });
    const res = await postSwap(s.t, s.token, body, '?buildOnly=true').expect(200);
    expect(res.body.route.hops).toHaveLength(2);
    const failure = await s.chain.sendExpectingRevert(user, res.body.transaction);
    expect(failure.mined).toBe(true);
    const wrapped = HOOK_ERRORS.parseError(failure.revertData)!;
    expect(wrapped.name).toBe('WrappedError');
    expect(wrapped.args.target).toBe(s.chain.deployment.contracts.complianceHook);
    expect(HOOK_ERRORS.parseError(wrapped.args.reason)!.args[0]).toBe(user.address);
    expect(decodeRevert(failure.revertData).code).toBe('SESSION_NOT_ACTIVE');
  });
});
