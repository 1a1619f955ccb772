import type { TestApp } from '../helpers/app';
import { DefiDevnet, HOOK_ERRORS, postSwap, useDefiSuite } from '../helpers/defi';
import { decodeRevert } from '../../src/chain/encoding/revert-decoder';

describe('DeFi builder: swap on the devnet', () => {
  const suite = useDefiSuite();
  let chain: DefiDevnet;
  let t: TestApp;
  let token: string;
  let WETH: string;
  let TUSDC: string;
  beforeAll(() => ({ chain, t, token, WETH, TUSDC } = suite));

  it('builds a WETH -> tUSDC swap that executes after its approvals and pays out within slippage', async () => {
    const user = chain.wallets[1];
    await chain.activate(user.address);
    const amount = 10n ** 17n;
    const body = {
      tokenIn: WETH,
      tokenOut: TUSDC,
      amount: amount.toString(),
      userAddress: user.address,
    };

    await chain.resetRpcStats();
    const first = await postSwap(t, token, body).expect(200);
    // The preflight's one batch, and the receipt's simulation (issue 56: approvals, then the swap).
    expect((await chain.rpcStats()).eth_call).toBe(2);
    expect(first.body).toMatchObject({
      authMethod: 'jwt',
      chainId: 84532,
      zeroForOne: true,
      walletBound: false,
      session: { active: true },
    });
    expect(first.body.warnings.map((w: { code: string }) => w.code)).toEqual([
      'ALLOWANCE_INSUFFICIENT',
    ]);
    expect(first.body.approvals).toHaveLength(2);
    expect(first.body.simulation).toEqual({ ok: null, skipped: 'ALLOWANCE_INSUFFICIENT' });
    for (const approval of first.body.approvals) {
      const receipt = await chain.send(user, approval.transaction);
      expect(receipt.status).toBe(1);
      console.info(`gas used: ${approval.kind} approve ${receipt.gasUsed}`);
    }

    const res = await postSwap(t, token, body).expect(200);
    expect(res.body.approvals).toEqual([]);
    expect(res.body.warnings).toEqual([]);
    expect(res.body.simulation).toEqual({ ok: true });
    expect(res.body.gasSource).toBe('eth_estimateGas');
    const quoted = BigInt(res.body.amountOut);
    const minOut = BigInt(res.body.minAmountOut);
    expect(minOut).toBe((quoted * 9950n) / 10000n);

    const wethBefore = await chain.balanceOf(WETH, user.address);
    const usdcBefore = await chain.balanceOf(TUSDC, user.address);
    const receipt = await chain.send(user, res.body.transaction);
    expect(receipt.status).toBe(1);
    console.info(`gas used: swap ${receipt.gasUsed} (tx gas limit ${res.body.transaction.gas})`);
    expect(wethBefore - (await chain.balanceOf(WETH, user.address))).toBe(amount);
    const received = (await chain.balanceOf(TUSDC, user.address)) - usdcBefore;
    expect(received >= minOut && received <= quoted).toBe(true);
    expect(received).toBe(quoted); // nothing else traded in between
  });

  it('with buildOnly=true and no session, returns a transaction whose broadcast reverts with SessionNotActive', async () => {
    const user = chain.wallets[2];
    const body = {
      tokenIn: WETH,
      tokenOut: TUSDC,
      amount: '1000000000000000',
      userAddress: user.address,
    };
    await postSwap(t, token, body).expect(412);
    const res = await postSwap(t, token, body, '?buildOnly=true').expect(200);
    expect(res.body.session).toEqual({ active: false, activeUntil: null });
    for (const approval of res.body.approvals) await chain.send(user, approval.transaction);
    const failure = await chain.sendExpectingRevert(user, res.body.transaction);
    expect(failure.mined).toBe(true); // broadcast and mined with status 0, not refused before
    // Decoded with the hook's own compiled ABI: PoolManager wraps hook reverts in WrappedError.
    const wrapped = HOOK_ERRORS.parseError(failure.revertData)!;
    expect(wrapped.name).toBe('WrappedError');
    expect(wrapped.args.target).toBe(chain.deployment.contracts.complianceHook);
    const inner = HOOK_ERRORS.parseError(wrapped.args.reason)!;
    expect(inner.name).toBe('SessionNotActive');
    expect(inner.args[0]).toBe(user.address);
    expect(decodeRevert(failure.revertData).code).toBe('SESSION_NOT_ACTIVE');
  });

  it('builds the reverse swap (tUSDC -> WETH) with zeroForOne false, and it executes', async () => {
    const user = chain.wallets[3];
    await chain.activate(user.address);
    const body = { tokenIn: TUSDC, tokenOut: WETH, amount: '300000000', userAddress: user.address };
    const first = await postSwap(t, token, body).expect(200);
    expect(first.body.zeroForOne).toBe(false);
    for (const approval of first.body.approvals) await chain.send(user, approval.transaction);
    const res = await postSwap(t, token, { ...body, zeroForOne: false, slippageBps: 100 }).expect(
      200,
    );
    expect(res.body).toMatchObject({
      zeroForOne: false,
      slippageBps: 100,
      simulation: { ok: true },
    });
    const before = await chain.balanceOf(WETH, user.address);
    expect((await chain.send(user, res.body.transaction)).status).toBe(1);
    const received = (await chain.balanceOf(WETH, user.address)) - before;
    expect(received >= BigInt(res.body.minAmountOut)).toBe(true);
    expect(received).toBe(BigInt(res.body.amountOut));
  });

  it('answers 412 SESSION_NOT_ACTIVE to a wallet whose session was revoked', async () => {
    const user = chain.wallets[4];
    const body = {
      tokenIn: WETH,
      tokenOut: TUSDC,
      amount: '1000000000000000',
      userAddress: user.address,
    };
    await chain.activate(user.address);
    await postSwap(t, token, body).expect(200);
    await chain.revoke(user.address);
    const res = await postSwap(t, token, body).expect(412);
    expect(res.body).toMatchObject({
      code: 'SESSION_NOT_ACTIVE',
      phase: 'preflight',
      error: 'Precondition Failed',
    });
    expect(res.body.hint).toContain('/onboarding/activate-session-demo');
  });

  it('refuses a swap that reverts in simulation (amountOutMinimum above the quote): 400 SIMULATION_REVERTED, phase build, the reason decoded; buildOnly=true returns it with the warning', async () => {
    const user = chain.wallets[1]; // session + approvals from the first test
    const body = {
      tokenIn: WETH,
      tokenOut: TUSDC,
      amount: '1000000',
      userAddress: user.address,
      amountOutMinimum: '1000000000000',
    };
    const refused = await postSwap(t, token, body).expect(400);
    expect(refused.body).toMatchObject({
      code: 'SIMULATION_REVERTED',
      phase: 'build',
      error: 'Bad Request',
      details: [{ revertCode: 'SLIPPAGE_EXCEEDED' }],
    });
    expect(refused.body.details[0].revertReason).toMatch(/^V4TooLittleReceived\(/);
    expect(refused.body.hint).toContain('buildOnly=true');
    expect(refused.body.transaction).toBeUndefined();

    const res = await postSwap(t, token, body, '?buildOnly=true').expect(200);
    expect(res.body.simulation).toMatchObject({ ok: false, revertCode: 'SLIPPAGE_EXCEEDED' });
    expect(res.body.gasSource).toBe('calibrated');
    expect(res.body.warnings.map((w: { code: string }) => w.code)).toContain('SIMULATION_REVERTED');
  });

  it('warns SESSION_EXPIRES_BEFORE_DEADLINE with both times when the session ends first', async () => {
    const user = chain.wallets[5];
    await chain.activate(user.address, 300); // 5 min; default deadline is 20 min
    const res = await postSwap(t, token, {
      tokenIn: WETH,
      tokenOut: TUSDC,
      amount: '1000000000000000',
      userAddress: user.address,
    }).expect(200);
    const warning = res.body.warnings.find(
      (w: { code: string }) => w.code === 'SESSION_EXPIRES_BEFORE_DEADLINE',
    );
    expect(warning).toBeDefined();
    expect(warning.activeUntil).toBe(res.body.session.activeUntil);
    expect(Date.parse(warning.deadline) / 1000).toBe(res.body.deadline);
    expect(Date.parse(warning.activeUntil)).toBeLessThan(Date.parse(warning.deadline));
    const later = await postSwap(t, token, {
      tokenIn: WETH,
      tokenOut: TUSDC,
      amount: '1000000000000000',
      userAddress: user.address,
      deadline: Math.floor(Date.parse(warning.activeUntil) / 1000) - 10,
    }).expect(200);
    expect(later.body.warnings.map((w: { code: string }) => w.code)).not.toContain(
      'SESSION_EXPIRES_BEFORE_DEADLINE',
    );
  });
});
