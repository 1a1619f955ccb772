/**
 * Issue 31 §3-4 on the devnet: every build carries calls[] (approvals in order, then the
 * transaction: EIP-5792 calls for wallet_sendCalls), and sending them one by one from a plain
 * wallet, which estimates each call's gas when its turn comes, executes the swap or the mint.
 * Each approval says whether the offered permitData replaces it, and the warning says the same.
 */
import request from 'supertest';
import type { TransactionReceipt, Wallet } from 'ethers';
import { DefiSuite, mintBody, postLiquidity, postSwap, useDefiSuite } from '../helpers/defi';

interface Call {
  to: string;
  data: string;
  value: string;
}
interface BuildBody {
  transaction: Call & { gas: string };
  approvals: Array<{ kind: string; replaceableByPermit: boolean; transaction: Call }>;
  calls: Call[];
  warnings: Array<{ code: string; message: string }>;
  [field: string]: unknown;
}

const asCall = ({ to, data, value }: Call): Call => ({ to, data, value });
const flags = (body: BuildBody) => body.approvals.map((a) => [a.kind, a.replaceableByPermit]);
const messages = (body: BuildBody) => body.warnings.map((w) => [w.code, w.message]);

/** What a plain wallet does with calls[]: each in order, gas estimated by the wallet, mined before the next. */
async function sendOneByOne(wallet: Wallet, calls: Call[]): Promise<TransactionReceipt[]> {
  const receipts: TransactionReceipt[] = [];
  for (const call of calls) {
    const sent = await wallet.sendTransaction({ ...call, value: BigInt(call.value) });
    receipts.push((await sent.wait())!);
  }
  return receipts;
}

describe('DeFi builder: calls[] for batch wallets, sent one by one from a plain wallet (devnet)', () => {
  const s: DefiSuite = useDefiSuite();

  it('a tUSDC -> WETH swap of a wallet with no approvals: calls[] = both approvals then the swap, and it executes', async () => {
    const user = s.chain.wallets[1];
    await s.chain.activate(user.address);
    const amount = 300_000_000n; // 300 tUSDC
    const body = {
      tokenIn: s.TUSDC,
      tokenOut: s.WETH,
      amount: amount.toString(),
      userAddress: user.address,
    };
    const res = await postSwap(s.t, s.token, body).expect(200);
    const built = res.body as BuildBody;
    expect(flags(built)).toEqual([
      ['erc20', false],
      ['permit2', true],
    ]);
    expect(built.permitData).toMatchObject({ primaryType: 'PermitSingle' });
    expect(messages(built)).toEqual([
      [
        'ALLOWANCE_INSUFFICIENT',
        'Permit2 allowance too low for tUSDC: send the 2 transactions in approvals[] first, or send the ERC-20 approval and sign permitData instead of the Permit2 approval; calls[] holds the whole sequence for a batch wallet',
      ],
    ]);
    expect(built.simulation).toEqual({ ok: null, skipped: 'ALLOWANCE_INSUFFICIENT' });
    expect(built.calls).toStrictEqual([
      ...built.approvals.map((a) => asCall(a.transaction)),
      asCall(built.transaction),
    ]);
    expect(built.calls.map((c) => c.to)).toEqual([
      s.TUSDC,
      s.chain.deployment.contracts.permit2,
      s.chain.deployment.contracts.universalRouter,
    ]);

    const wethBefore = await s.chain.balanceOf(s.WETH, user.address);
    const usdcBefore = await s.chain.balanceOf(s.TUSDC, user.address);
    const receipts = await sendOneByOne(user, built.calls);
    expect(receipts.map((r) => r.status)).toEqual([1, 1, 1]);
    console.info(`gas used: calls[] of a swap ${receipts.map((r) => r.gasUsed).join(', ')}`);
    expect(usdcBefore - (await s.chain.balanceOf(s.TUSDC, user.address))).toBe(amount);
    const received = (await s.chain.balanceOf(s.WETH, user.address)) - wethBefore;
    expect(received >= BigInt(built.minAmountOut as string)).toBe(true);
    expect(received).toBe(BigInt(built.amountOut as string)); // nothing traded in between
  });

  it('a mint of a wallet with no approvals: calls[] = four approvals then the mint, and it mints; an exit is its transaction alone', async () => {
    const user = s.chain.wallets[2];
    await s.chain.activate(user.address);
    const res = await postLiquidity(s.t, s.token, mintBody(s, user.address)).expect(200);
    const built = res.body as BuildBody;
    expect(flags(built)).toEqual([
      ['erc20', false],
      ['permit2', true],
      ['erc20', false],
      ['permit2', true],
    ]);
    expect(built.permitData).toMatchObject({ primaryType: 'PermitBatch' });
    expect(messages(built)).toEqual([
      [
        'ALLOWANCE_INSUFFICIENT',
        'Permit2 allowance too low for WETH and tUSDC: send the 4 transactions in approvals[] first, or send the 2 ERC-20 approvals and sign permitData instead of the 2 Permit2 approvals; calls[] holds the whole sequence for a batch wallet',
      ],
    ]);
    expect(built.calls).toStrictEqual([
      ...built.approvals.map((a) => asCall(a.transaction)),
      asCall(built.transaction),
    ]);

    const receipts = await sendOneByOne(user, built.calls);
    expect(receipts.map((r) => r.status)).toEqual([1, 1, 1, 1, 1]);
    const tokenId = built.expectedTokenId as string; // nothing else minted in between
    expect(await s.chain.positionManager.ownerOf(BigInt(tokenId))).toBe(user.address);
    expect(await s.chain.positionManager.getPositionLiquidity(BigInt(tokenId))).toBe(
      BigInt(built.liquidity as string),
    );

    const collect = await request(s.t.server)
      .post('/api/v1/defi/liquidity/collect')
      .set('Authorization', `Bearer ${s.token}`)
      .send({ tokenId, userAddress: user.address })
      .expect(200);
    const exit = collect.body as BuildBody;
    expect(exit.approvals).toEqual([]);
    expect(exit.calls).toStrictEqual([asCall(exit.transaction)]);
    expect((await sendOneByOne(user, exit.calls))[0].status).toBe(1);
  });

  it('with a signed permit: calls[] = the ERC-20 approval still needed, then the swap embedding the permit, and it executes', async () => {
    const user = s.chain.wallets[3];
    await s.chain.activate(user.address);
    const body = {
      tokenIn: s.WETH,
      tokenOut: s.TUSDC,
      amount: (5n * 10n ** 16n).toString(),
      userAddress: user.address,
    };
    const offered = (await postSwap(s.t, s.token, body).expect(200)).body as BuildBody;
    const { domain, types, values } = offered.permitData as {
      domain: Record<string, unknown>;
      types: Record<string, Array<{ name: string; type: string }>>;
      values: Record<string, unknown>;
    };
    const permitSignature = await user.signTypedData(domain, types, values);
    const res = await postSwap(s.t, s.token, { ...body, permit: values, permitSignature }).expect(
      200,
    );
    const built = res.body as BuildBody;
    expect(flags(built)).toEqual([['erc20', false]]);
    expect(built.permitData).toBeUndefined();
    expect(messages(built)).toEqual([
      [
        'ALLOWANCE_INSUFFICIENT',
        'Permit2 allowance too low for WETH: send the ERC-20 approval in approvals[] first; calls[] holds the whole sequence for a batch wallet',
      ],
    ]);
    expect(built.calls).toStrictEqual([
      asCall(built.approvals[0].transaction),
      asCall(built.transaction),
    ]);

    const usdcBefore = await s.chain.balanceOf(s.TUSDC, user.address);
    const receipts = await sendOneByOne(user, built.calls);
    expect(receipts.map((r) => r.status)).toEqual([1, 1]);
    const received = (await s.chain.balanceOf(s.TUSDC, user.address)) - usdcBefore;
    expect(received >= BigInt(built.minAmountOut as string)).toBe(true);
  });

  it('calls[] is there with buildOnly and no session; a native-ETH swap is its transaction alone, value included', async () => {
    const user = s.chain.wallets[4];
    const erc20In = await postSwap(
      s.t,
      s.token,
      { tokenIn: s.WETH, tokenOut: s.TUSDC, amount: '1000000000000000', userAddress: user.address },
      '?buildOnly=true',
    ).expect(200);
    const built = erc20In.body as BuildBody;
    expect(built.session).toEqual({ active: false, activeUntil: null });
    expect(built.calls).toStrictEqual([
      ...built.approvals.map((a) => asCall(a.transaction)),
      asCall(built.transaction),
    ]);
    expect(built.calls).toHaveLength(3);

    const amount = '1000000000000000';
    const native = await postSwap(
      s.t,
      s.token,
      {
        tokenIn: '0x0000000000000000000000000000000000000000',
        tokenOut: s.TUSDC,
        amount,
        userAddress: user.address,
      },
      '?buildOnly=true',
    ).expect(200);
    expect(native.body.approvals).toEqual([]);
    expect(native.body.calls).toStrictEqual([asCall(native.body.transaction)]);
    expect(native.body.calls[0].value).toBe(amount);
  });
});
