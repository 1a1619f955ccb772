/**
 * Issue 12 acceptance on the devnet, signed and broadcast: the whole liquidity lifecycle, and an
 * exit that never needs a session.
 */
import request from 'supertest';
import { POSITION_MANAGER } from '../../src/chain/abi/uniswap-v4';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { DefiDevnet, postLiquidity, postSwap, useDefiSuite } from '../helpers/defi';

type Body = Record<string, unknown>;

/** An envelope's facts (owner, field, ...) wherever the envelope puts them: top level or a details entry. */
const facts = (body: Body): Body =>
  Object.assign(
    {},
    body,
    ...((body.details as unknown[] | undefined) ?? []).filter((d) => typeof d === 'object'),
  );

describe('DeFi builder: positions on the devnet', () => {
  const suite = useDefiSuite();
  let chain: DefiDevnet;
  let t: TestApp;
  let token: string;
  let WETH: string;
  let TUSDC: string;
  beforeAll(() => ({ chain, t, token, WETH, TUSDC } = suite));

  const post = (path: string, body: Body, query = '') =>
    request(t.server)
      .post(`/api/v1/defi/liquidity/${path}${query}`)
      .set('Authorization', `Bearer ${token}`)
      .send(body);
  const get = (path: string, app = t) =>
    request(app.server).get(`/api/v1/defi/${path}`).set('Authorization', `Bearer ${token}`);
  const balances = async (owner: string) => ({
    weth: await chain.balanceOf(WETH, owner),
    usdc: await chain.balanceOf(TUSDC, owner),
  });
  const liquidityOf = (id: string) =>
    chain.positionManager.getPositionLiquidity(BigInt(id)) as Promise<bigint>;

  let tokenId: string;
  let minted: bigint;
  let lp: (typeof suite.chain.wallets)[number];

  it('mint: expectedTokenId predicts the NFT id, and the position is listed with its liquidity', async () => {
    lp = chain.wallets[3];
    await chain.activate(lp.address);
    const body = {
      token0: WETH,
      token1: TUSDC,
      amount0: (10n ** 18n).toString(),
      amount1: (3000n * 10n ** 6n).toString(),
      tickLower: -887220,
      tickUpper: 887220,
      userAddress: lp.address,
    };
    const first = await postLiquidity(t, token, body).expect(200);
    for (const approval of first.body.approvals)
      expect((await chain.send(lp, approval.transaction)).status).toBe(1);
    const tick = first.body.currentTick as number;
    const lower = Math.floor(tick / 60) * 60 - 1200;
    const res = await postLiquidity(t, token, {
      ...body,
      tickLower: lower,
      tickUpper: lower + 2400,
    }).expect(200);
    expect(res.body.simulation).toEqual({ ok: true });
    const receipt = await chain.send(lp, res.body.transaction);
    expect(receipt.status).toBe(1);
    const transfer = receipt.logs
      .filter((log) => log.address === chain.deployment.contracts.positionManager)
      .map((log) => POSITION_MANAGER.parseLog(log))
      .find((parsed) => parsed?.name === 'Transfer')!;
    tokenId = transfer.args.id.toString();
    expect(res.body.expectedTokenId).toBe(tokenId);
    minted = BigInt(res.body.liquidity);

    await chain.resetRpcStats();
    const list = await get(`positions?owner=${lp.address.toLowerCase()}`).expect(200);
    const stats = await chain.rpcStats();
    // First sight of the position: the confirmation batch, then its fee growth (needs its ticks).
    expect(stats).toEqual({ eth_blockNumber: 1, eth_getLogs: 1, eth_call: 2 });
    expect(list.body).toMatchObject({ authMethod: 'jwt', owner: lp.address, chainId: 84532 });
    expect(list.body.positions).toEqual([
      {
        tokenId,
        owner: lp.address,
        poolKey: res.body.poolKey,
        tickLower: lower,
        tickUpper: lower + 2400,
        liquidity: minted.toString(),
        inRange: true,
        amount0: expect.stringMatching(/^[1-9]\d*$/),
        amount1: expect.stringMatching(/^[1-9]\d*$/),
        uncollectedFees: { amount0: '0', amount1: '0' },
      },
    ]);
    // Its range is known now: ONE batch confirms it and prices its fees.
    await chain.resetRpcStats();
    const again = await get(`positions?owner=${lp.address}`).expect(200);
    expect(await chain.rpcStats()).toEqual({ eth_blockNumber: 1, eth_getLogs: 1, eth_call: 1 });
    expect(again.body.positions).toEqual(list.body.positions);
    // Worth what was paid for it, less rounding.
    expect(BigInt(res.body.expectedAmount0) - BigInt(list.body.positions[0].amount0)).toBeLessThan(
      2n,
    );
  });

  it('lists the same positions with 2-block log pages (a long history is paged)', async () => {
    const paged = await createTestApp({
      env: { CHAIN_RPC_URL: chain.rpcUrl, CHAIN_LOGS_PAGE_BLOCKS: '2' },
    });
    try {
      const pagedToken = await login(paged, await paged.createAccount());
      await chain.resetRpcStats();
      const head = await chain.provider.getBlockNumber();
      const res = await request(paged.server)
        .get(`/api/v1/defi/positions?owner=${lp.address}`)
        .set('Authorization', `Bearer ${pagedToken}`)
        .expect(200);
      expect((await chain.rpcStats()).eth_getLogs).toBe(Math.ceil((head + 1) / 2));
      expect(res.body.positions.map((p: Body) => p.tokenId)).toEqual([tokenId]);
    } finally {
      await paged.close();
    }
  });

  it('a swap through the range leaves uncollected fees on the position', async () => {
    const trader = chain.wallets[4];
    await chain.activate(trader.address);
    const body = {
      tokenIn: WETH,
      tokenOut: TUSDC,
      amount: (10n ** 17n).toString(),
      userAddress: trader.address,
    };
    const first = await postSwap(t, token, body).expect(200);
    for (const approval of first.body.approvals) await chain.send(trader, approval.transaction);
    const swap = await postSwap(t, token, body).expect(200);
    expect((await chain.send(trader, swap.body.transaction)).status).toBe(1);

    const res = await get(`positions/${tokenId}`).expect(200);
    expect(res.body).toMatchObject({ tokenId, owner: lp.address, liquidity: minted.toString() });
    // Fees in token0 (WETH was sold): our share of 0.3 % of 0.1 WETH.
    const fee0 = BigInt(res.body.uncollectedFees.amount0);
    expect(fee0 > 0n && fee0 < 3n * 10n ** 14n).toBe(true);
    expect(res.body.uncollectedFees.amount1).toBe('0');
  });

  it('increase grows the position (session active)', async () => {
    const res = await post('increase', {
      tokenId,
      amount0: (10n ** 17n).toString(),
      amount1: (300n * 10n ** 6n).toString(),
      userAddress: lp.address,
    }).expect(200);
    expect(res.body).toMatchObject({
      tokenId,
      owner: lp.address,
      positionLiquidity: minted.toString(),
      simulation: { ok: true },
      approvals: [],
      slippageBps: 50,
    });
    const added = BigInt(res.body.liquidity);
    expect(BigInt(res.body.expectedAmount0) <= BigInt(res.body.amount0Max)).toBe(true);
    const receipt = await chain.send(lp, res.body.transaction);
    expect(receipt.status).toBe(1);
    console.info(
      `gas used: increase ${receipt.gasUsed} (tx gas limit ${res.body.transaction.gas})`,
    );
    expect(await liquidityOf(tokenId)).toBe(minted + added);
    minted += added;
  });

  it('an increase the pool cannot take (maxima beyond uint128) is 400 BUILD_FAILED, not a 500', async () => {
    const huge = ((1n << 128n) - 1n).toString();
    const res = await post('increase', {
      tokenId,
      amount0: huge,
      amount1: huge,
      userAddress: lp.address,
    }).expect(400);
    expect(res.body).toMatchObject({ code: 'BUILD_FAILED', phase: 'build' });
    expect(res.body.message).toContain('uint128');
  });

  it('a position owned by another wallet is 403 POSITION_NOT_OWNED naming the owner; an unknown tokenId is 404', async () => {
    const other = chain.wallets[5].address;
    const res = await post('decrease', { tokenId, userAddress: other, liquidityBps: 5000 }).expect(
      403,
    );
    expect(facts(res.body)).toMatchObject({
      code: 'POSITION_NOT_OWNED',
      phase: 'preflight',
      owner: lp.address,
    });
    expect(res.body.hint).toContain(lp.address);
    for (const r of [
      post('collect', { tokenId: '999999', userAddress: lp.address }),
      post('increase', { tokenId: '999999', userAddress: lp.address, amount0: '1', amount1: '1' }),
      get('positions/999999'),
    ]) {
      const notFound = await r.expect(404);
      expect(notFound.body).toMatchObject({ code: 'POSITION_NOT_FOUND', phase: 'preflight' });
    }
  });

  it('after the attester revokes the session: increase is 412 (buildOnly builds), while collect, a 50 % decrease and a full decrease with burn all execute', async () => {
    await chain.revoke(lp.address);
    const increase = {
      tokenId,
      amount0: (10n ** 16n).toString(),
      amount1: (30n * 10n ** 6n).toString(),
      userAddress: lp.address,
    };
    expect((await post('increase', increase).expect(412)).body.code).toBe('SESSION_NOT_ACTIVE');
    const buildOnly = await post('increase', increase, '?buildOnly=true').expect(200);
    expect(buildOnly.body.simulation).toEqual({ ok: null, skipped: 'SESSION_NOT_ACTIVE' });

    // collect: the fees, exactly as the position view priced them
    const fees = (await get(`positions/${tokenId}`).expect(200)).body.uncollectedFees;
    const collect = await post('collect', { tokenId, userAddress: lp.address }).expect(200);
    expect(collect.body).toMatchObject({
      session: { active: false },
      simulation: { ok: true },
      recipient: lp.address,
    });
    let before = await balances(lp.address);
    const collectReceipt = await chain.send(lp, collect.body.transaction);
    expect(collectReceipt.status).toBe(1);
    console.info(`gas used: collect ${collectReceipt.gasUsed}`);
    let after = await balances(lp.address);
    expect(after.weth - before.weth).toBe(BigInt(fees.amount0));
    expect(after.usdc - before.usdc).toBe(BigInt(fees.amount1));

    // 50 % decrease: half the liquidity back, at least the minimums
    const half = await post('decrease', {
      tokenId,
      userAddress: lp.address,
      liquidityBps: 5000,
    }).expect(200);
    expect(half.body).toMatchObject({
      simulation: { ok: true },
      burn: false,
      liquidity: (minted / 2n).toString(),
    });
    before = after;
    const halfReceipt = await chain.send(lp, half.body.transaction);
    expect(halfReceipt.status).toBe(1);
    console.info(`gas used: decrease ${halfReceipt.gasUsed}`);
    after = await balances(lp.address);
    expect(after.weth - before.weth >= BigInt(half.body.amount0Min)).toBe(true);
    expect(after.usdc - before.usdc >= BigInt(half.body.amount1Min)).toBe(true);
    expect(BigInt(half.body.amount0Min) > 0n && BigInt(half.body.amount1Min) > 0n).toBe(true);
    const remaining = minted - minted / 2n;
    expect(await liquidityOf(tokenId)).toBe(remaining);

    // burn needs the whole liquidity: the field is named
    const partialBurn = await post('decrease', {
      tokenId,
      userAddress: lp.address,
      liquidity: '1',
      burn: true,
    }).expect(400);
    expect(facts(partialBurn.body)).toMatchObject({ code: 'BUILD_FAILED', field: 'burn' });

    // full decrease with burn: the rest back, the NFT gone
    const all = await post('decrease', {
      tokenId,
      userAddress: lp.address,
      liquidityBps: 10000,
      burn: true,
    }).expect(200);
    expect(all.body).toMatchObject({
      simulation: { ok: true },
      burn: true,
      remainingLiquidity: '0',
    });
    before = after;
    const burnReceipt = await chain.send(lp, all.body.transaction);
    expect(burnReceipt.status).toBe(1);
    console.info(
      `gas used: decrease+burn ${burnReceipt.gasUsed}; collect estimate ${collect.body.transaction.gas}`,
    );
    after = await balances(lp.address);
    expect(after.weth - before.weth >= BigInt(all.body.amount0Min)).toBe(true);
    expect(after.usdc - before.usdc >= BigInt(all.body.amount1Min)).toBe(true);
    await expect(chain.positionManager.ownerOf(BigInt(tokenId))).rejects.toThrow();

    expect((await get(`positions/${tokenId}`).expect(404)).body.code).toBe('POSITION_NOT_FOUND');
    expect((await get(`positions?owner=${lp.address}`).expect(200)).body.positions).toEqual([]);
  });

  it('refuses bad bodies with the field named (validation, before auth)', async () => {
    const cases: Array<[Body, string]> = [
      [
        { tokenId: '1', userAddress: chain.wallets[3].address, liquidityBps: 5000, burn: true },
        'burn',
      ],
      [{ tokenId: '1', userAddress: chain.wallets[3].address }, 'liquidityBps'],
      [
        { tokenId: '1', userAddress: chain.wallets[3].address, liquidityBps: 10001 },
        'liquidityBps',
      ],
      [
        { tokenId: '1', userAddress: chain.wallets[3].address, liquidityBps: 5000, liquidity: '5' },
        'liquidity',
      ],
      [{ tokenId: 'abc', userAddress: chain.wallets[3].address, liquidityBps: 5000 }, 'tokenId'],
    ];
    for (const [body, field] of cases) {
      const res = await request(t.server)
        .post('/api/v1/defi/liquidity/decrease')
        .send(body)
        .expect(400);
      expect(res.body.code).toBe('INVALID_PARAMS');
      expect(JSON.stringify(res.body.details)).toContain(field);
    }
  });
});
