/**
 * callsFormat=eip5792 on every build (issue 57 §4): the answer is the parameter object of EIP-5792
 * wallet_sendCalls, checked against the EIP's schema (test/fixtures/eip5792, written from the
 * EIP's text), and executable as a wallet executes it: each call in order, from `from`.
 */
import Ajv from 'ajv';
import { getAddress, TransactionReceipt, Wallet } from 'ethers';
import request from 'supertest';
import schema from '../fixtures/eip5792/wallet-send-calls.schema.json';
import { mintBody, postLiquidity, postSwap, useDefiSuite } from '../helpers/defi';
import { getReceipt } from '../helpers/receipts';

const validate = new Ajv({ allErrors: true }).compile(schema);

interface SendCalls {
  version: string;
  chainId: string;
  from: string;
  atomicRequired: boolean;
  calls: Array<{ to: string; data: string; value: string }>;
}

function expectWalletSendCalls(body: unknown, from: string): SendCalls {
  expect({ valid: validate(body), errors: validate.errors ?? null }).toEqual({
    valid: true,
    errors: null,
  });
  const params = body as SendCalls;
  expect(params).toMatchObject({ version: '2.0.0', chainId: '0x14a34', from });
  // EIP-55 addresses, as strict wallets require.
  for (const address of [params.from, ...params.calls.map((c) => c.to)])
    expect(address).toBe(getAddress(address));
  expect(params.atomicRequired).toBe(params.calls.length > 1);
  return params;
}

describe('callsFormat=eip5792: wallet_sendCalls parameters from every build', () => {
  const suite = useDefiSuite();
  let user: Wallet;
  let tokenId: string;

  /** A minimal wallet_sendCalls: the calls in order, each sent by `from` and mined. */
  async function sendCalls(wallet: Wallet, params: SendCalls): Promise<TransactionReceipt[]> {
    expect(params.from).toBe(wallet.address);
    expect(Number(params.chainId)).toBe(Number((await wallet.provider!.getNetwork()).chainId));
    const receipts: TransactionReceipt[] = [];
    for (const call of params.calls) {
      const sent = await wallet.sendTransaction({
        to: call.to,
        data: call.data,
        value: BigInt(call.value),
      });
      receipts.push((await sent.wait())!);
    }
    return receipts;
  }

  const post = (path: string, body: object, query = '?callsFormat=eip5792') =>
    request(suite.t.server)
      .post(`/api/v1/defi/${path}${query}`)
      .set('Authorization', `Bearer ${suite.token}`)
      .send(body);

  /** The answer's X-Receipt-Id names a receipt of this build: the wallet's, of `operation`. */
  async function expectReceipt(res: request.Response, operation: string) {
    const id = res.headers['x-receipt-id'];
    expect(await getReceipt(suite.t, suite.token, id)).toMatchObject({
      id,
      receipt: { wallet: user.address, operation },
    });
  }

  beforeAll(async () => {
    user = suite.chain.wallets[4];
    await suite.chain.activate(user.address);
  });

  it('swap: approvals and the swap, atomicRequired, valid against the EIP schema, executable as sent; no authMethod', async () => {
    const body = {
      tokenIn: suite.WETH,
      tokenOut: suite.TUSDC,
      amount: (10n ** 16n).toString(),
      userAddress: user.address,
    };
    const full = await postSwap(suite.t, suite.token, body).expect(200);
    const res = await postSwap(suite.t, suite.token, body, '?callsFormat=eip5792').expect(200);
    expect(res.body).not.toHaveProperty('authMethod');
    const params = expectWalletSendCalls(res.body, user.address);
    // The build's receipt is named in a header (the parameters have no room for it), as on the
    // default answer, where it is the body's receiptId.
    expect(full.headers['x-receipt-id']).toBe(full.body.receiptId);
    await expectReceipt(res, 'swap');
    expect(params.calls).toHaveLength(3);
    expect(params.atomicRequired).toBe(true);
    expect(params.calls).toEqual(
      full.body.calls.map((c: { to: string; data: string; value: string }) => ({
        to: c.to,
        data: c.data,
        value: `0x${BigInt(c.value).toString(16)}`,
      })),
    );
    const before = await suite.chain.balanceOf(suite.TUSDC, user.address);
    const receipts = await sendCalls(user, params);
    expect(receipts.map((r) => r.status)).toEqual([1, 1, 1]);
    expect(await suite.chain.balanceOf(suite.TUSDC, user.address)).toBeGreaterThanOrEqual(
      before + BigInt(full.body.minAmountOut),
    );

    // Approvals in place: one call, no atomicity needed.
    const again = await postSwap(suite.t, suite.token, body, '?callsFormat=eip5792').expect(200);
    expect(expectWalletSendCalls(again.body, user.address)).toMatchObject({
      atomicRequired: false,
      calls: [{ to: suite.chain.deployment.contracts.universalRouter, value: '0x0' }],
    });
  });

  it('native ETH in: the value is a hex quantity', async () => {
    const res = await postSwap(
      suite.t,
      suite.token,
      {
        tokenIn: '0x0000000000000000000000000000000000000000',
        tokenOut: suite.TUSDC,
        amount: (10n ** 15n).toString(),
        userAddress: user.address,
      },
      '?callsFormat=eip5792',
    ).expect(200);
    const params = expectWalletSendCalls(res.body, user.address);
    expect(params.calls.at(-1)!.value).toBe(`0x${(10n ** 15n).toString(16)}`);
  });

  it('liquidity, increase, decrease and collect answer the same format, and each executes', async () => {
    const minted = await postLiquidity(
      suite.t,
      suite.token,
      mintBody(suite, user.address),
      '?callsFormat=eip5792',
    ).expect(200);
    await expectReceipt(minted, 'mint');
    const mintReceipts = await sendCalls(user, expectWalletSendCalls(minted.body, user.address));
    expect(mintReceipts.every((r) => r.status === 1)).toBe(true);
    const positionManager = suite.chain.deployment.contracts.positionManager;
    const transfer = mintReceipts
      .at(-1)!
      .logs.find((log) => log.address === positionManager && log.topics.length === 4)!;
    tokenId = BigInt(transfer.topics[3]).toString();

    for (const [path, body] of [
      [
        'liquidity/increase',
        { tokenId, userAddress: user.address, amount0: '1000000000000000', amount1: '3000000' },
      ],
      ['liquidity/collect', { tokenId, userAddress: user.address }],
      ['liquidity/decrease', { tokenId, userAddress: user.address, liquidityBps: 5000 }],
    ] as const) {
      const res = await post(path, body).expect(200);
      await expectReceipt(res, path.split('/')[1]);
      const receipts = await sendCalls(user, expectWalletSendCalls(res.body, user.address));
      expect({ path, statuses: receipts.map((r) => r.status) }).toEqual({
        path,
        statuses: receipts.map(() => 1),
      });
    }
  });

  it('refuses another callsFormat with 400 INVALID_PARAMS naming it', async () => {
    const res = await post(
      'swap',
      { tokenIn: suite.WETH, tokenOut: suite.TUSDC, amount: '1', userAddress: user.address },
      '?callsFormat=eip-5792',
    ).expect(400);
    expect(res.body).toMatchObject({
      code: 'INVALID_PARAMS',
      details: [expect.objectContaining({ field: 'callsFormat' })],
    });
  });

  it('the fixture schema refuses what a strict wallet refuses', () => {
    const good = {
      version: '2.0.0',
      chainId: '0x14a34',
      from: user.address,
      atomicRequired: false,
      calls: [{ to: user.address, data: '0x', value: '0x0' }],
    };
    expect(validate(good)).toBe(true);
    for (const bad of [
      { ...good, authMethod: 'jwt' },
      { ...good, chainId: 84532 },
      { ...good, chainId: '0x014a34' },
      { ...good, version: '1.0' },
      { ...good, calls: [{ to: user.address, value: '1000' }] },
      { ...good, atomicRequired: undefined },
    ])
      expect(validate(JSON.parse(JSON.stringify(bad)))).toBe(false);
  });
});
