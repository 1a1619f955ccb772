/**
 * POST /api/v1/defi/quote on the devnet: one eth_call, both trade types, native ETH, and a quote
 * that the swap then delivers (signed and broadcast with a development account).
 */
import request from 'supertest';
import { postSwap, useDefiSuite } from '../helpers/defi';

const ETH = '0x0000000000000000000000000000000000000000';

describe('DeFi builder: quote (devnet)', () => {
  const s = useDefiSuite();

  const postQuote = (body: object) =>
    request(s.t.server)
      .post('/api/v1/defi/quote')
      .set('Authorization', `Bearer ${s.token}`)
      .send(body);

  it('quotes an exact input in ONE eth_call, with prices and a numeric price impact; the swap then delivers it', async () => {
    const amount = 10n ** 18n;
    await s.chain.resetRpcStats();
    const res = await postQuote({ tokenIn: s.WETH, tokenOut: s.TUSDC, amount: amount.toString() });
    expect(res.status).toBe(200);
    expect(await s.chain.rpcStats()).toEqual({ eth_call: 1 });
    const q = res.body;
    expect(q).toMatchObject({
      authMethod: 'jwt',
      tradeType: 'EXACT_INPUT',
      tokenIn: s.WETH,
      tokenOut: s.TUSDC,
      amountIn: amount.toString(),
      poolKey: { currency0: s.WETH, currency1: s.TUSDC, fee: 3000, tickSpacing: 60 },
    });
    expect(typeof q.priceImpactBps).toBe('number');
    // 0.30 % LP fee plus the move of 1 WETH in a 1,000 WETH pool (~0.1 %).
    expect(q.priceImpactBps).toBeGreaterThanOrEqual(30);
    expect(q.priceImpactBps).toBeLessThan(50);
    expect(Number(q.midPrice)).toBeCloseTo(3000, 0);
    expect(Number(q.executionPrice)).toBeCloseTo(Number(q.amountOut) / 1e6, 6);
    expect(Number(q.executionPrice)).toBeLessThan(Number(q.midPrice));
    expect(BigInt(q.gasEstimate) > 0n).toBe(true);
    expect(q.blockNumber).toBe(await s.chain.provider.getBlockNumber());

    const user = s.chain.wallets[1];
    await s.chain.activate(user.address);
    const body = {
      tokenIn: s.WETH,
      tokenOut: s.TUSDC,
      amount: amount.toString(),
      userAddress: user.address,
    };
    const first = await postSwap(s.t, s.token, body).expect(200);
    for (const approval of first.body.approvals) await s.chain.send(user, approval.transaction);
    const swap = await postSwap(s.t, s.token, body).expect(200);
    const before = await s.chain.balanceOf(s.TUSDC, user.address);
    expect((await s.chain.send(user, swap.body.transaction)).status).toBe(1);
    const delivered = (await s.chain.balanceOf(s.TUSDC, user.address)) - before;
    const quoted = BigInt(q.amountOut);
    expect(delivered >= (quoted * 9950n) / 10000n && delivered <= quoted).toBe(true);
    expect(delivered).toBe(quoted); // nothing traded in between
  });

  it('quotes an exact output (amountIn is the quote) and native ETH, matching the swap builder', async () => {
    const user = s.chain.wallets[2];
    await s.chain.activate(user.address);
    const res = await postQuote({
      tokenIn: ETH,
      tokenOut: s.TUSDC,
      amount: '500000000',
      tradeType: 'EXACT_OUTPUT',
    }).expect(200);
    expect(res.body).toMatchObject({
      tradeType: 'EXACT_OUTPUT',
      tokenIn: ETH,
      amountOut: '500000000',
    });
    const swap = await postSwap(s.t, s.token, {
      tokenIn: ETH,
      tokenOut: s.TUSDC,
      amount: '500000000',
      tradeType: 'EXACT_OUTPUT',
      userAddress: user.address,
    }).expect(200);
    // One name for one thing (issue 53): the swap answers amountIn/amountOut as the quote does;
    // the old name stays one release as a deprecated alias.
    expect(swap.body).toMatchObject({ amountIn: res.body.amountIn, amountOut: '500000000' });
    expect(swap.body.quotedAmountIn).toBe(res.body.amountIn);
  });

  it('answers envelopes: a wrap is not a swap, an amount the pool cannot fill, a missing field', async () => {
    const wrap = await postQuote({ tokenIn: s.WETH, tokenOut: ETH, amount: '1' }).expect(400);
    expect(wrap.body.code).toBe('INVALID_PARAMS');
    const huge = await postQuote({
      tokenIn: s.TUSDC,
      tokenOut: s.WETH,
      amount: '10000000000000000000000000000',
      tradeType: 'EXACT_OUTPUT',
    }).expect(400);
    expect(huge.body).toMatchObject({ code: 'BUILD_FAILED', phase: 'build' });
    const missing = await postQuote({ tokenIn: s.WETH, tokenOut: s.TUSDC }).expect(400);
    expect(missing.body).toMatchObject({ code: 'INVALID_PARAMS', details: [{ field: 'amount' }] });
    const badType = await postQuote({
      tokenIn: s.WETH,
      tokenOut: s.TUSDC,
      amount: '1',
      tradeType: 'EXACT',
    }).expect(400);
    expect(badType.body.details[0].field).toBe('tradeType');
  });

  it('documents quote and swap in /docs with their response schemas', async () => {
    const doc = (await request(s.t.server).get('/docs/json').expect(200)).body;
    const ok = (path: string) => doc.paths[path].post.responses['200'].content['application/json'];
    expect(ok('/api/v1/defi/quote').schema.$ref).toBe('#/components/schemas/QuoteResponseDto');
    // The whole build, or with callsFormat=eip5792 wallet_sendCalls' parameters (issue 57).
    expect(ok('/api/v1/defi/swap').schema.oneOf).toEqual([
      { $ref: '#/components/schemas/SwapResponseDto' },
      { $ref: '#/components/schemas/WalletSendCallsDto' },
    ]);
    const quote = doc.components.schemas.QuoteResponseDto;
    expect(quote.properties.priceImpactBps.type).toBe('number');
    const swap = doc.components.schemas.SwapResponseDto;
    expect(Object.keys(swap.properties)).toEqual(
      expect.arrayContaining([
        'tradeType',
        'amountIn',
        'amountOut',
        'maxAmountIn',
        'quotedAmountIn',
        'permitData',
        'approvals',
      ]),
    );
    // The quote's names are the swap's; the swap's old names are deprecated aliases.
    expect(swap.required).toEqual(expect.arrayContaining(['amountIn', 'amountOut']));
    for (const alias of ['quotedAmountIn', 'quotedAmountOut'])
      expect(swap.properties[alias]).toMatchObject({ deprecated: true });
    for (const name of ['amountIn', 'amountOut'])
      expect(swap.properties[name].deprecated).toBeUndefined();
    const body = doc.components.schemas.SwapRequestDto;
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(['tradeType', 'amountInMaximum', 'permit', 'permitSignature']),
    );
  });
});
