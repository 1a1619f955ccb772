/**
 * Swaps as integrators trade them (issue 11), built by the API and signed and broadcast with the
 * development mnemonic's accounts on the devnet: exact output, native ETH in and out, a signed
 * Permit2 permit instead of the Permit2 approval, and the balance rule.
 */
import type { TransactionReceipt, Wallet } from 'ethers';
import { postSwap, useDefiSuite } from '../helpers/defi';

const ETH = '0x0000000000000000000000000000000000000000';
type Body = Record<string, unknown>;

describe('DeFi builder: swap trade types, native ETH, Permit2 signatures, balances (devnet)', () => {
  const s = useDefiSuite();

  const ethBalance = (address: string) => s.chain.provider.getBalance(address);
  const gasPaid = (r: TransactionReceipt) => r.gasUsed * r.gasPrice;

  /** Builds, broadcasts any approvals it lists, builds again and returns the ready response. */
  async function readyBuild(user: Wallet, body: Body) {
    const first = await postSwap(s.t, s.token, body).expect(200);
    for (const approval of first.body.approvals)
      expect((await s.chain.send(user, approval.transaction)).status).toBe(1);
    const res = await postSwap(s.t, s.token, body).expect(200);
    expect(res.body.approvals).toEqual([]);
    expect(res.body.simulation).toEqual({ ok: true });
    return res.body;
  }

  it('EXACT_OUTPUT delivers exactly amount and spends at most maxAmountIn (the quote + slippage)', async () => {
    const user = s.chain.wallets[1];
    await s.chain.activate(user.address);
    const amountOut = 250_000_000n; // 250 tUSDC
    const body = {
      tokenIn: s.WETH,
      tokenOut: s.TUSDC,
      amount: amountOut.toString(),
      tradeType: 'EXACT_OUTPUT',
      userAddress: user.address,
    };
    const built = await readyBuild(user, body);
    expect(built).toMatchObject({
      tradeType: 'EXACT_OUTPUT',
      amountOut: amountOut.toString(),
      slippageBps: 50,
      transaction: { value: '0' },
    });
    // amountIn is the quoted input, as in the quote answer; quotedAmountIn its deprecated alias.
    expect(built.quotedAmountIn).toBe(built.amountIn);
    expect(built.minAmountOut).toBeUndefined();
    const quotedIn = BigInt(built.amountIn);
    const maxIn = BigInt(built.maxAmountIn);
    expect(maxIn).toBe((quotedIn * 10050n + 9999n) / 10000n);

    const wethBefore = await s.chain.balanceOf(s.WETH, user.address);
    const usdcBefore = await s.chain.balanceOf(s.TUSDC, user.address);
    const receipt = await s.chain.send(user, built.transaction);
    expect(receipt.status).toBe(1);
    console.info(`gas used: exact-output swap ${receipt.gasUsed}`);
    expect((await s.chain.balanceOf(s.TUSDC, user.address)) - usdcBefore).toBe(amountOut);
    const spent = wethBefore - (await s.chain.balanceOf(s.WETH, user.address));
    expect(spent).toBe(quotedIn); // nothing traded in between: exactly the quote
    expect(spent <= maxIn).toBe(true);
  });

  it('EXACT_OUTPUT with amountInMaximum below the price is refused (400 SIMULATION_REVERTED), and returned with the warning under buildOnly=true', async () => {
    const user = s.chain.wallets[1]; // session + approvals from the previous test
    const body = {
      tokenIn: s.WETH,
      tokenOut: s.TUSDC,
      amount: '250000000',
      tradeType: 'EXACT_OUTPUT',
      amountInMaximum: '1000',
      userAddress: user.address,
    };
    const refused = await postSwap(s.t, s.token, body).expect(400);
    expect(refused.body).toMatchObject({ code: 'SIMULATION_REVERTED', phase: 'build' });
    const res = await postSwap(s.t, s.token, body, '?buildOnly=true').expect(200);
    expect(res.body).toMatchObject({ maxAmountIn: '1000', slippageBps: null });
    // The same revert either way: refused by default, reported under buildOnly.
    expect(res.body.simulation).toEqual({
      ok: false,
      revertCode: refused.body.details[0].revertCode,
      revertReason: refused.body.details[0].revertReason,
    });
  });

  it('pays native ETH (exact input): no approvals, value = amount, the pool sees WETH', async () => {
    const user = s.chain.wallets[2];
    await s.chain.activate(user.address);
    const amount = 10n ** 17n;
    const body = {
      tokenIn: ETH,
      tokenOut: s.TUSDC,
      amount: amount.toString(),
      userAddress: user.address,
    };
    await s.chain.resetRpcStats();
    const res = await postSwap(s.t, s.token, body).expect(200);
    // The preflight's one batch; the estimate and the receipt's simulation in one more request.
    expect(await s.chain.rpcStats()).toEqual({ eth_call: 2, eth_gasPrice: 1, eth_estimateGas: 1 });
    expect(res.body).toMatchObject({
      tokenIn: ETH,
      zeroForOne: true,
      approvals: [],
      warnings: [],
      simulation: { ok: true },
      transaction: { value: amount.toString() },
    });
    const ethBefore = await ethBalance(user.address);
    const wethBefore = await s.chain.balanceOf(s.WETH, user.address);
    const usdcBefore = await s.chain.balanceOf(s.TUSDC, user.address);
    const receipt = await s.chain.send(user, res.body.transaction);
    expect(receipt.status).toBe(1);
    console.info(`gas used: ETH -> tUSDC swap ${receipt.gasUsed}`);
    expect(ethBefore - (await ethBalance(user.address))).toBe(amount + gasPaid(receipt));
    expect(await s.chain.balanceOf(s.WETH, user.address)).toBe(wethBefore);
    expect((await s.chain.balanceOf(s.TUSDC, user.address)) - usdcBefore).toBe(
      BigInt(res.body.amountOut),
    );
  });

  it('pays native ETH for an exact output: value = maxAmountIn, the unspent ETH comes back', async () => {
    const user = s.chain.wallets[2];
    const amountOut = 100_000_000n;
    const res = await postSwap(s.t, s.token, {
      tokenIn: ETH,
      tokenOut: s.TUSDC,
      amount: amountOut.toString(),
      tradeType: 'EXACT_OUTPUT',
      slippageBps: 300,
      userAddress: user.address,
    }).expect(200);
    expect(res.body.simulation).toEqual({ ok: true });
    expect(res.body.transaction.value).toBe(res.body.maxAmountIn);
    const ethBefore = await ethBalance(user.address);
    const usdcBefore = await s.chain.balanceOf(s.TUSDC, user.address);
    const receipt = await s.chain.send(user, res.body.transaction);
    expect(receipt.status).toBe(1);
    expect((await s.chain.balanceOf(s.TUSDC, user.address)) - usdcBefore).toBe(amountOut);
    const ethSpent = ethBefore - (await ethBalance(user.address)) - gasPaid(receipt);
    expect(ethSpent).toBe(BigInt(res.body.amountIn)); // the refund swept the rest back
    expect(ethSpent < BigInt(res.body.maxAmountIn)).toBe(true);
    expect(await ethBalance(s.chain.deployment.contracts.universalRouter)).toBe(0n);
    expect(await s.chain.balanceOf(s.WETH, s.chain.deployment.contracts.universalRouter)).toBe(0n);
  });

  it('receives native ETH (tUSDC -> ETH): UNWRAP_WETH to the user, at least minAmountOut', async () => {
    const user = s.chain.wallets[3];
    await s.chain.activate(user.address);
    const amount = 300_000_000n;
    const built = await readyBuild(user, {
      tokenIn: s.TUSDC,
      tokenOut: ETH,
      amount: amount.toString(),
      userAddress: user.address,
    });
    expect(built).toMatchObject({ tokenOut: ETH, zeroForOne: false, transaction: { value: '0' } });
    const ethBefore = await ethBalance(user.address);
    const wethBefore = await s.chain.balanceOf(s.WETH, user.address);
    const receipt = await s.chain.send(user, built.transaction);
    expect(receipt.status).toBe(1);
    console.info(`gas used: tUSDC -> ETH swap ${receipt.gasUsed}`);
    const received = (await ethBalance(user.address)) - ethBefore + gasPaid(receipt);
    expect(received).toBe(BigInt(built.amountOut));
    expect(received >= BigInt(built.minAmountOut)).toBe(true);
    expect(await s.chain.balanceOf(s.WETH, user.address)).toBe(wethBefore);
  });

  it('refuses ETH <-> WETH: that is a wrap, not a swap', async () => {
    const res = await postSwap(s.t, s.token, {
      tokenIn: ETH,
      tokenOut: s.WETH,
      amount: '1000',
      userAddress: s.chain.wallets[3].address,
    }).expect(400);
    expect(res.body).toMatchObject({ code: 'INVALID_PARAMS', details: [{ field: 'tokenOut' }] });
    expect(res.body.hint).toContain('deposit()');
  });

  it('names the limit that does not fit the trade type, and a permit without its signature', async () => {
    const base = {
      tokenIn: s.WETH,
      tokenOut: s.TUSDC,
      amount: '1000',
      userAddress: s.chain.wallets[3].address,
    };
    const exactOut = await postSwap(s.t, s.token, {
      ...base,
      tradeType: 'EXACT_OUTPUT',
      amountOutMinimum: '1',
    }).expect(400);
    expect(exactOut.body).toMatchObject({
      code: 'INVALID_PARAMS',
      phase: 'validation',
      details: [{ field: 'amountOutMinimum', constraint: 'onlyWithTradeType' }],
    });
    const exactIn = await postSwap(s.t, s.token, { ...base, amountInMaximum: '1' }).expect(400);
    expect(exactIn.body.details[0].field).toBe('amountInMaximum');
    const unsigned = await postSwap(s.t, s.token, {
      ...base,
      permit: {
        details: { token: s.WETH, amount: '1000', expiration: '1900000000', nonce: '0' },
        spender: s.chain.deployment.contracts.universalRouter,
        sigDeadline: '1900000000',
      },
    }).expect(400);
    const details = unsigned.body.details as Array<{ field: string; constraint: string }>;
    expect(new Set(details.map((d) => d.field))).toEqual(new Set(['permitSignature']));
    expect(details.map((d) => d.constraint)).toContain('isDefined');
  });

  it('a signed Permit2 permit replaces the Permit2 approval transaction, and the swap executes', async () => {
    const user = s.chain.wallets[4];
    await s.chain.activate(user.address);
    const body = {
      tokenIn: s.WETH,
      tokenOut: s.TUSDC,
      amount: (5n * 10n ** 16n).toString(),
      userAddress: user.address,
    };
    const first = await postSwap(s.t, s.token, body).expect(200);
    expect(first.body.approvals.map((a: { kind: string }) => a.kind)).toEqual(['erc20', 'permit2']);
    expect(first.body.approvals[0]).toMatchObject({
      symbol: 'WETH',
      spenderName: 'Permit2',
      description: expect.stringContaining('Permit2'),
    });
    const { domain, types, values } = first.body.permitData;
    expect(values).toMatchObject({
      details: { token: s.WETH, amount: body.amount, nonce: '0' },
      spender: s.chain.deployment.contracts.universalRouter,
    });
    // The ERC-20 -> Permit2 approval stays a transaction (once per token).
    expect((await s.chain.send(user, first.body.approvals[0].transaction)).status).toBe(1);
    const signature = await user.signTypedData(domain, types, values);

    const forged = await s.chain.wallets[5].signTypedData(domain, types, values);
    const wrongSigner = await postSwap(s.t, s.token, {
      ...body,
      permit: values,
      permitSignature: forged,
    }).expect(400);
    expect(wrongSigner.body).toMatchObject({
      code: 'INVALID_PARAMS',
      details: [{ field: 'permitSignature' }],
    });
    const staleValues = { ...values, details: { ...values.details, nonce: '1' } };
    const stale = await postSwap(s.t, s.token, {
      ...body,
      permit: staleValues,
      permitSignature: await user.signTypedData(domain, types, staleValues),
    }).expect(400);
    expect(stale.body.details).toEqual([
      expect.objectContaining({ field: 'permit.details.nonce', constraint: 'permitNonce' }),
    ]);

    const res = await postSwap(s.t, s.token, {
      ...body,
      permit: values,
      permitSignature: signature,
    }).expect(200);
    expect(res.body.approvals).toEqual([]);
    expect(res.body.permitData).toBeUndefined();
    expect(res.body.simulation).toEqual({ ok: true });
    const usdcBefore = await s.chain.balanceOf(s.TUSDC, user.address);
    const receipt = await s.chain.send(user, res.body.transaction);
    expect(receipt.status).toBe(1);
    console.info(`gas used: permit + swap ${receipt.gasUsed}`);
    expect((await s.chain.balanceOf(s.TUSDC, user.address)) - usdcBefore).toBe(
      BigInt(res.body.amountOut),
    );
    // The permit is spent (nonce moved on): the same one is now refused by name.
    const replay = await postSwap(s.t, s.token, {
      ...body,
      permit: values,
      permitSignature: signature,
    }).expect(400);
    expect(replay.body.details[0].field).toBe('permit.details.nonce');
  });

  it('refuses a swap the wallet cannot pay with 400 BALANCE_INSUFFICIENT; buildOnly builds it with a warning', async () => {
    const user = s.chain.wallets[6];
    await s.chain.activate(user.address);
    const body = {
      tokenIn: s.WETH,
      tokenOut: s.TUSDC,
      amount: (1000n * 10n ** 18n).toString(), // the wallet holds 100 WETH
      userAddress: user.address,
      amountOutMinimum: '1',
    };
    const refused = await postSwap(s.t, s.token, body).expect(400);
    expect(refused.body).toMatchObject({
      code: 'BALANCE_INSUFFICIENT',
      phase: 'preflight',
      details: [
        {
          symbol: 'WETH',
          token: s.WETH,
          balance: (100n * 10n ** 18n).toString(),
          required: body.amount,
        },
      ],
    });
    expect(refused.body.hint).toContain('Fund the wallet or lower the amount');
    const built = await postSwap(s.t, s.token, body, '?buildOnly=true').expect(200);
    expect(built.body.warnings.map((w: { code: string }) => w.code)).toContain(
      'BALANCE_INSUFFICIENT',
    );
    expect(built.body.simulation).toEqual({ ok: null, skipped: 'BALANCE_INSUFFICIENT' });

    // ETH: the value plus the transaction's gas must be covered.
    const eth = await ethBalance(user.address);
    const ethRes = await postSwap(s.t, s.token, {
      tokenIn: ETH,
      tokenOut: s.TUSDC,
      amount: eth.toString(),
      userAddress: user.address,
      amountOutMinimum: '1',
    }).expect(400);
    expect(ethRes.body.details[0]).toMatchObject({ symbol: 'ETH', balance: eth.toString() });
    expect(BigInt(ethRes.body.details[0].required) > eth).toBe(true);
  });
});
