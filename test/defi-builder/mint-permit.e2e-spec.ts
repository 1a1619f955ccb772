/**
 * A mint with a Permit2 batch permit (issue 11 §4): PositionManager.multicall([permitBatch,
 * modifyLiquidities]) signed and broadcast with a development account on the devnet, and the
 * balance rule for liquidity amounts.
 */
import { mintBody as fullRangeMint, postLiquidity, useDefiSuite } from '../helpers/defi';

describe('DeFi builder: mint with a Permit2 batch permit (devnet)', () => {
  const s = useDefiSuite();

  const mintBody = (user: string, over: object = {}) => fullRangeMint(s, user, over);

  it('replaces both Permit2 approvals by one signed batch permit, and the mint executes', async () => {
    const user = s.chain.wallets[7];
    await s.chain.activate(user.address);
    const body = mintBody(user.address);
    const first = await postLiquidity(s.t, s.token, body).expect(200);
    expect(first.body.approvals.map((a: { kind: string }) => a.kind)).toEqual([
      'erc20',
      'permit2',
      'erc20',
      'permit2',
    ]);
    expect(first.body.approvals[1]).toMatchObject({
      symbol: 'WETH',
      spenderName: 'PositionManager',
      spender: s.chain.deployment.contracts.positionManager,
    });
    const { domain, types, values } = first.body.permitData;
    expect(Object.keys(types)).toContain('PermitBatch');
    expect(values).toMatchObject({
      spender: s.chain.deployment.contracts.positionManager,
      details: [
        { token: s.WETH, amount: body.amount0, nonce: '0' },
        { token: s.TUSDC, amount: body.amount1, nonce: '0' },
      ],
    });
    for (const approval of first.body.approvals.filter((a: { kind: string }) => a.kind === 'erc20'))
      expect((await s.chain.send(user, approval.transaction)).status).toBe(1);
    const permitSignature = await user.signTypedData(domain, types, values);

    const wrongSpender = { ...values, spender: s.chain.deployment.contracts.universalRouter };
    const refused = await postLiquidity(s.t, s.token, {
      ...body,
      permitBatch: wrongSpender,
      permitSignature: await user.signTypedData(domain, types, wrongSpender),
    }).expect(400);
    expect(refused.body).toMatchObject({
      code: 'INVALID_PARAMS',
      details: [{ field: 'permitBatch.spender' }],
    });
    const unpaired = await postLiquidity(s.t, s.token, { ...body, permitBatch: values }).expect(
      400,
    );
    expect(unpaired.body.details[0].field).toBe('permitSignature');

    const res = await postLiquidity(s.t, s.token, {
      ...body,
      permitBatch: values,
      permitSignature,
    }).expect(200);
    expect(res.body).toMatchObject({ approvals: [], warnings: [], simulation: { ok: true } });
    expect(res.body.transaction.data.slice(0, 10)).toBe('0xac9650d8'); // multicall(bytes[])

    const tokenId = (await s.chain.positionManager.nextTokenId()) as bigint;
    const wethBefore = await s.chain.balanceOf(s.WETH, user.address);
    const usdcBefore = await s.chain.balanceOf(s.TUSDC, user.address);
    const receipt = await s.chain.send(user, res.body.transaction);
    expect(receipt.status).toBe(1);
    console.info(`gas used: permitBatch + mint ${receipt.gasUsed}`);
    expect(await s.chain.positionManager.ownerOf(tokenId)).toBe(user.address);
    expect(await s.chain.positionManager.getPositionLiquidity(tokenId)).toBe(
      BigInt(res.body.liquidity),
    );
    expect(wethBefore - (await s.chain.balanceOf(s.WETH, user.address))).toBe(
      BigInt(res.body.expectedAmount0),
    );
    expect(usdcBefore - (await s.chain.balanceOf(s.TUSDC, user.address))).toBe(
      BigInt(res.body.expectedAmount1),
    );
  });

  it('refuses liquidity amounts above the balance with 400 BALANCE_INSUFFICIENT; buildOnly warns', async () => {
    const user = s.chain.wallets[8];
    await s.chain.activate(user.address);
    const body = mintBody(user.address, { amount1: (2_000_000n * 10n ** 6n).toString() });
    const res = await postLiquidity(s.t, s.token, body).expect(400);
    expect(res.body).toMatchObject({
      code: 'BALANCE_INSUFFICIENT',
      phase: 'preflight',
      details: [{ symbol: 'tUSDC', token: s.TUSDC, required: body.amount1 }],
    });
    const built = await postLiquidity(s.t, s.token, body, '?buildOnly=true').expect(200);
    expect(built.body.warnings.map((w: { code: string }) => w.code)).toEqual([
      'BALANCE_INSUFFICIENT',
      'ALLOWANCE_INSUFFICIENT',
    ]);
  });
});
