import request from 'supertest';
import type { TestApp } from '../helpers/app';
import {
  DefiDevnet,
  mintBody as fullRangeMint,
  postLiquidity,
  useDefiSuite,
} from '../helpers/defi';

describe('DeFi builder: liquidity and preflight on the devnet', () => {
  const suite = useDefiSuite();
  let chain: DefiDevnet;
  let t: TestApp;
  let token: string;
  let WETH: string;
  let TUSDC: string;
  beforeAll(() => ({ chain, t, token, WETH, TUSDC } = suite));

  const mintBody = (user: string, over: object = {}) => fullRangeMint(suite, user, over);

  it('builds a mint that executes; the user owns the position NFT with the computed liquidity', async () => {
    const user = chain.wallets[6];
    await chain.activate(user.address);
    // A range around the current price (tick ~ -196_000 for 3000 tUSDC per WETH).
    const first = await postLiquidity(t, token, mintBody(user.address)).expect(200);
    expect(first.body.warnings.map((w: { code: string }) => w.code)).toEqual([
      'ALLOWANCE_INSUFFICIENT',
    ]);
    expect(first.body.approvals.map((a: { kind: string }) => a.kind)).toEqual([
      'erc20',
      'permit2',
      'erc20',
      'permit2',
    ]);
    for (const approval of first.body.approvals)
      expect((await chain.send(user, approval.transaction)).status).toBe(1);

    const tick = first.body.currentTick as number;
    const lower = Math.floor(tick / 60) * 60 - 600;
    const body = mintBody(user.address, { tickLower: lower, tickUpper: lower + 1800 });
    const res = await postLiquidity(t, token, body).expect(200);
    expect(res.body).toMatchObject({
      approvals: [],
      warnings: [],
      simulation: { ok: true },
      gasSource: 'eth_estimateGas',
      owner: user.address,
      tickLower: lower,
    });
    const liquidity = BigInt(res.body.liquidity);
    expect(liquidity > 0n).toBe(true);

    const tokenId = (await chain.positionManager.nextTokenId()) as bigint;
    const wethBefore = await chain.balanceOf(WETH, user.address);
    const usdcBefore = await chain.balanceOf(TUSDC, user.address);
    const receipt = await chain.send(user, res.body.transaction);
    expect(receipt.status).toBe(1);
    console.info(`gas used: mint ${receipt.gasUsed} (tx gas limit ${res.body.transaction.gas})`);
    expect(await chain.positionManager.ownerOf(tokenId)).toBe(user.address);
    expect(await chain.positionManager.getPositionLiquidity(tokenId)).toBe(liquidity);
    const spent0 = wethBefore - (await chain.balanceOf(WETH, user.address));
    const spent1 = usdcBefore - (await chain.balanceOf(TUSDC, user.address));
    expect(spent0).toBe(BigInt(res.body.expectedAmount0));
    expect(spent1).toBe(BigInt(res.body.expectedAmount1));
    expect(spent0 <= BigInt(body.amount0) && spent1 <= BigInt(body.amount1)).toBe(true);
  });

  it.each([
    ['lower >= upper', { tickLower: 600, tickUpper: -600 }, 'TICK_ORDER', 'tickLower < tickUpper'],
    ['below MIN_TICK', { tickLower: -887280, tickUpper: 600 }, 'TICK_BOUNDS', 'MIN_TICK'],
    ['above MAX_TICK', { tickLower: -600, tickUpper: 887280 }, 'TICK_BOUNDS', 'MAX_TICK'],
    [
      'not a multiple of tickSpacing',
      { tickLower: -601, tickUpper: 600 },
      'TICK_SPACING',
      '-601 -> -600',
    ],
  ])(
    'answers BUILD_FAILED for a bad tick range (%s) with the rule in the hint',
    async (_label, ticks, rule, hint) => {
      const user = chain.wallets[6];
      const res = await postLiquidity(t, token, mintBody(user.address, ticks)).expect(400);
      expect(res.body).toMatchObject({ code: 'BUILD_FAILED', phase: 'build', details: [{ rule }] });
      expect(res.body.hint).toContain(hint);
    },
  );

  it('preflight reads session, balances and allowances in ONE eth_call, with ready next actions', async () => {
    const user = chain.wallets[7];
    await chain.resetRpcStats();
    const res = await request(t.server)
      .get(`/defi/preflight/${user.address.toLowerCase()}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(await chain.rpcStats()).toEqual({ eth_call: 1 });
    expect(res.body).toMatchObject({
      authMethod: 'jwt',
      address: user.address,
      chainId: 84532,
      walletBound: false,
      session: { active: false, activeUntil: null },
      balances: {
        WETH: (100n * 10n ** 18n).toString(),
        tUSDC: (1_000_000n * 10n ** 6n).toString(),
      },
      allowances: { swap: { WETH: '0', tUSDC: '0' }, liquidity: { WETH: '0', tUSDC: '0' } },
    });
    const actions = res.body.nextActions as Array<{
      action: string;
      use?: string;
      transaction?: { to: string; data: string; value: string; gas: string };
    }>;
    expect(actions.filter((a) => a.action === 'activateSession')).toHaveLength(1);
    // token -> Permit2 once per token (shared by both uses), then Permit2 -> router and -> PositionManager,
    // for each of the market's four tokens (the devnet funds every wallet with each).
    const approvals = actions.filter((a) => a.action === 'approve');
    expect(approvals).toHaveLength(12);
    for (const a of approvals.filter(
      (x) => x.use === 'swap' && ['WETH', 'tUSDC'].includes((x as { symbol?: string }).symbol!),
    ))
      expect((await chain.send(user, a.transaction!)).status).toBe(1);
    await chain.activate(user.address);

    const after = await request(t.server)
      .get(`/api/v1/defi/preflight/${user.address}?tokens=WETH,tUSDC`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(after.body.session.active).toBe(true);
    expect(BigInt(after.body.allowances.swap.WETH) > 0n).toBe(true);
    expect(after.body.nextActions.filter((a: { use?: string }) => a.use === 'swap')).toEqual([]);
    expect(
      after.body.nextActions.filter((a: { use?: string }) => a.use === 'liquidity'),
    ).toHaveLength(2); // Permit2 -> PositionManager only
  });

  it('the swap build also makes exactly ONE eth_call before building (plus eth_estimateGas when it can succeed)', async () => {
    const user = chain.wallets[7]; // session + swap approvals from the previous test
    await chain.resetRpcStats();
    const res = await request(t.server)
      .post('/api/v1/defi/swap')
      .set('Authorization', `Bearer ${token}`)
      .send({
        tokenIn: WETH,
        tokenOut: TUSDC,
        amount: '10000000000000000',
        userAddress: user.address,
      })
      .expect(200);
    expect(res.body.simulation.ok).toBe(true);
    // The estimate and the receipt's simulation (issue 56) ride in one JSON-RPC batch.
    expect(await chain.rpcStats()).toEqual({ eth_call: 2, eth_estimateGas: 1 });
    await chain.resetRpcStats();
    await request(t.server)
      .post('/api/v1/defi/swap?buildOnly=true')
      .set('Authorization', `Bearer ${token}`)
      .send({
        tokenIn: WETH,
        tokenOut: TUSDC,
        amount: '10000000000000000',
        userAddress: chain.wallets[8].address,
      })
      .expect(200);
    expect(await chain.rpcStats()).toEqual({ eth_call: 1 });
  });

  it('serves the config: chain, tokens, pool key, contracts and deprecated items', async () => {
    const res = await request(t.server)
      .get('/api/v1/defi/config')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(res.body.chain.chainId).toBe(84532);
    // Issue 11: native ETH is listed for swaps and quotes (the zero address, traded as WETH),
    // after the network file's tokens (issue 42: the devnet's market adds tWBTC and tEURC).
    expect(res.body.tokens.map((x: { symbol: string }) => x.symbol)).toEqual([
      'WETH',
      'tUSDC',
      'tWBTC',
      'tEURC',
      'ETH',
    ]);
    expect(res.body.tokens[4]).toEqual({
      symbol: 'ETH',
      name: 'Ether (native)',
      address: '0x0000000000000000000000000000000000000000',
      decimals: 18,
      native: true,
    });
    expect(res.body.pool.key).toEqual({
      currency0: WETH,
      currency1: TUSDC,
      fee: 3000,
      tickSpacing: 60,
      hooks: chain.deployment.contracts.complianceHook,
    });
    expect(res.body.contracts.universalRouter).toBe(chain.deployment.contracts.universalRouter);
    expect(res.body.deprecated).toHaveLength(3);
  });
});
