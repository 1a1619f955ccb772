/**
 * The broadcast phase on the devnet (issue 31): relay a signed transaction built by the service,
 * track it to CONFIRMED or REVERTED, and refuse what it must not send.
 */
import { AbiCoder, Transaction, Wallet, ZeroAddress, keccak256 } from 'ethers';
import request from 'supertest';
import { UNIVERSAL_ROUTER } from '../../src/chain/abi/uniswap-v4';
import type { UnsignedTx } from '../../src/defi-builder/encoding/approvals';
import type { TestApp } from '../helpers/app';
import { createApiKey } from '../helpers/auth';
import {
  bindWallet,
  DefiDevnet,
  mintBody,
  postLiquidity,
  postSwap,
  useDefiSuite,
} from '../helpers/defi';
import { devnetRpc } from '../helpers/devnet-mining';
import { pollUntil } from '../helpers/wait';

describe('DeFi broadcast: relay and status on the devnet', () => {
  const suite = useDefiSuite();
  let chain: DefiDevnet;
  let t: TestApp;
  let token: string;
  let WETH: string;
  let TUSDC: string;
  beforeAll(() => ({ chain, t, token, WETH, TUSDC } = suite));

  const relay = (signedTransaction: unknown, auth: Record<string, string> = {}) =>
    request(t.server)
      .post('/api/v1/defi/transactions')
      .set(auth.apiKey ? { 'X-API-Key': auth.apiKey } : { Authorization: `Bearer ${token}` })
      .set(auth.idempotencyKey ? { 'Idempotency-Key': auth.idempotencyKey } : {})
      .send({ signedTransaction });
  const status = (hash: string, apiKey?: string) =>
    request(t.server)
      .get(`/api/v1/defi/transactions/${hash}`)
      .set(apiKey ? { 'X-API-Key': apiKey } : { Authorization: `Bearer ${token}` });

  /** Signs a built transaction as a wallet would: its nonce, the chain's fees, the build's gas. */
  async function sign(wallet: Wallet, tx: UnsignedTx, over: { nonce?: number } = {}) {
    const populated = await wallet.populateTransaction({
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
      gasLimit: BigInt(tx.gas),
      ...(over.nonce !== undefined && { nonce: over.nonce }),
    });
    return wallet.signTransaction(populated);
  }

  /** Relays every approval of a build response; they execute in order. */
  async function relayApprovals(wallet: Wallet, approvals: Array<{ transaction: UnsignedTx }>) {
    const kinds: string[] = [];
    for (const approval of approvals) {
      const res = await relay(await sign(wallet, approval.transaction)).expect(202);
      kinds.push(res.body.kind);
      await pollUntil(
        `approval ${res.body.txHash} confirmed`,
        async () => (await status(res.body.txHash).expect(200)).body.status,
        (s) => s === 'CONFIRMED',
      );
    }
    return kinds;
  }

  const swapBody = (user: string, amount = 10n ** 17n) => ({
    tokenIn: WETH,
    tokenOut: TUSDC,
    amount: amount.toString(),
    userAddress: user,
  });

  it('relays a built swap: 202 PENDING, then CONFIRMED with the amount the wallet received', async () => {
    const user = chain.wallets[1];
    await chain.activate(user.address);
    const first = await postSwap(t, token, swapBody(user.address)).expect(200);
    expect(await relayApprovals(user, first.body.approvals)).toEqual([
      'approval',
      'permit2-approval',
    ]);

    const built = await postSwap(t, token, swapBody(user.address)).expect(200);
    expect(built.body.simulation).toEqual({ ok: true });
    const signed = await sign(user, built.body.transaction);
    const usdcBefore = await chain.balanceOf(TUSDC, user.address);
    const wethBefore = await chain.balanceOf(WETH, user.address);

    const sent = await relay(signed).expect(202);
    expect(sent.body).toEqual({
      authMethod: 'jwt',
      txHash: keccak256(signed),
      status: 'PENDING',
      from: user.address,
      to: chain.deployment.contracts.universalRouter,
      nonce: Transaction.from(signed).nonce,
      kind: 'swap',
    });
    const early = await status(sent.body.txHash).expect(200);
    expect(['PENDING', 'CONFIRMED']).toContain(early.body.status);
    const done = await pollUntil(
      'swap confirmed',
      async () => (await status(sent.body.txHash).expect(200)).body,
      (body) => body.status === 'CONFIRMED',
    );
    const received = (await chain.balanceOf(TUSDC, user.address)) - usdcBefore;
    expect(received > 0n).toBe(true);
    expect(done).toMatchObject({
      txHash: sent.body.txHash,
      status: 'CONFIRMED',
      from: user.address,
      kind: 'swap',
      swap: {
        tokenIn: WETH,
        amountIn: (10n ** 17n).toString(),
        tokenOut: TUSDC,
        amountOut: received.toString(),
      },
    });
    expect(wethBefore - (await chain.balanceOf(WETH, user.address))).toBe(10n ** 17n);
    expect(done.confirmations).toBeGreaterThanOrEqual(1);
    expect(BigInt(done.gasUsed) > 0n).toBe(true);
    expect(BigInt(done.effectiveGasPrice) > 0n).toBe(true);

    // The same bytes again: the same hash and its current status, not NONCE_CONFLICT.
    const again = await relay(signed).expect(202);
    expect(again.body).toMatchObject({ txHash: sent.body.txHash, status: 'CONFIRMED' });
    // Under an Idempotency-Key: the first answer, replayed.
    const keyed = await relay(signed, { idempotencyKey: 'relay-swap-1' }).expect(202);
    const replay = await relay(signed, { idempotencyKey: 'relay-swap-1' }).expect(202);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(keyed.body);
    expect(keyed.body.txHash).toBe(sent.body.txHash);
  });

  it('relays a native ETH swap and a mint: the status shows ETH paid, and the minted tokenId', async () => {
    const user = chain.wallets[4];
    await chain.activate(user.address);
    const amount = 10n ** 16n;
    const eth = await postSwap(t, token, {
      tokenIn: ZeroAddress,
      tokenOut: TUSDC,
      amount: amount.toString(),
      userAddress: user.address,
    }).expect(200);
    expect(eth.body.approvals).toEqual([]);
    const usdcBefore = await chain.balanceOf(TUSDC, user.address);
    const swap = await relay(await sign(user, eth.body.transaction)).expect(202);
    const swapped = await pollUntil(
      'ETH swap confirmed',
      async () => (await status(swap.body.txHash).expect(200)).body,
      (body) => body.status !== 'PENDING',
    );
    expect(swapped.swap).toEqual({
      tokenIn: ZeroAddress,
      amountIn: amount.toString(),
      tokenOut: TUSDC,
      amountOut: ((await chain.balanceOf(TUSDC, user.address)) - usdcBefore).toString(),
    });

    const first = await postLiquidity(t, token, mintBody(suite, user.address)).expect(200);
    await relayApprovals(user, first.body.approvals);
    const built = await postLiquidity(t, token, mintBody(suite, user.address)).expect(200);
    const sent = await relay(await sign(user, built.body.transaction)).expect(202);
    expect(sent.body).toMatchObject({
      kind: 'mint',
      to: chain.deployment.contracts.positionManager,
    });
    const minted = await pollUntil(
      'mint confirmed',
      async () => (await status(sent.body.txHash).expect(200)).body,
      (body) => body.status !== 'PENDING',
    );
    expect(minted).toMatchObject({ status: 'CONFIRMED', kind: 'mint' });
    expect(await chain.positionManager.ownerOf(BigInt(minted.tokenId))).toBe(user.address);
  });

  it('relays a swap paid out in native ETH: the status reports ETH received, equal to the balance change', async () => {
    const user = chain.wallets[4]; // holds tUSDC from the ETH swap above, session active
    const usdc = await chain.balanceOf(TUSDC, user.address);
    expect(usdc > 0n).toBe(true);
    const body = {
      tokenIn: TUSDC,
      tokenOut: ZeroAddress,
      amount: (usdc / 2n).toString(),
      userAddress: user.address,
    };
    const first = await postSwap(t, token, body).expect(200);
    await relayApprovals(user, first.body.approvals);
    const built = await postSwap(t, token, body).expect(200);
    const ethBefore = await chain.provider.getBalance(user.address);
    const sent = await relay(await sign(user, built.body.transaction)).expect(202);
    const done = await pollUntil(
      'ETH-out swap confirmed',
      async () => (await status(sent.body.txHash).expect(200)).body,
      (b) => b.status !== 'PENDING',
    );
    const fee = BigInt(done.gasUsed) * BigInt(done.effectiveGasPrice);
    const ethReceived = (await chain.provider.getBalance(user.address)) - ethBefore + fee;
    expect(done).toMatchObject({ status: 'CONFIRMED', kind: 'swap' });
    expect(done.swap).toEqual({
      tokenIn: TUSDC,
      amountIn: (usdc / 2n).toString(),
      tokenOut: ZeroAddress,
      amountOut: ethReceived.toString(),
    });
  });

  it('shows PENDING while the transaction waits for a block, then CONFIRMED with confirmations', async () => {
    const user = chain.wallets[5];
    const first = await postSwap(t, token, swapBody(user.address), '?buildOnly=true').expect(200);
    const approval = first.body.approvals[0].transaction as UnsignedTx;
    await devnetRpc(chain.rpcUrl, 'evm_setAutomine', [false]);
    try {
      const signed = await sign(user, approval);
      const sent = await relay(signed).expect(202);
      expect(sent.body).toMatchObject({ status: 'PENDING', kind: 'approval', to: WETH });
      expect((await status(sent.body.txHash).expect(200)).body).toMatchObject({
        status: 'PENDING',
        blockNumber: null,
        confirmations: 0,
        kind: 'approval',
      });
      // Sent again while pending: same hash, still PENDING.
      const again = await relay(signed).expect(202);
      expect(again.body).toMatchObject({ txHash: sent.body.txHash, status: 'PENDING' });
      await devnetRpc(chain.rpcUrl, 'evm_mine');
      await devnetRpc(chain.rpcUrl, 'evm_mine');
      expect((await status(sent.body.txHash).expect(200)).body).toMatchObject({
        status: 'CONFIRMED',
        confirmations: 2,
      });
    } finally {
      await devnetRpc(chain.rpcUrl, 'evm_setAutomine', [true]);
    }
  });

  it('refuses a transaction to a contract it does not build for: 400 BROADCAST_TARGET_NOT_ALLOWED, nothing sent', async () => {
    const user = chain.wallets[6];
    await chain.resetRpcStats();
    const toRegistry = await sign(user, {
      to: chain.deployment.contracts.complianceRegistry,
      data: '0xa9059cbb' + '00'.repeat(64),
      value: '0',
      gas: '100000',
    });
    const res = await relay(toRegistry).expect(400);
    expect(res.body).toMatchObject({
      code: 'BROADCAST_TARGET_NOT_ALLOWED',
      phase: 'validation',
      details: [
        {
          field: 'signedTransaction',
          to: chain.deployment.contracts.complianceRegistry,
          selector: '0xa9059cbb',
        },
      ],
    });
    // A plain ETH transfer, an approval to another spender, a contract creation: refused too.
    const transfer = await sign(user, {
      to: chain.wallets[7].address,
      data: '0x',
      value: '1',
      gas: '21000',
    });
    await relay(transfer).expect(400, /BROADCAST_TARGET_NOT_ALLOWED/);
    const badApproval = await sign(user, {
      to: WETH,
      data:
        '0x095ea7b3' +
        chain.wallets[7].address.slice(2).toLowerCase().padStart(64, '0') +
        'f'.repeat(64),
      value: '0',
      gas: '60000',
    });
    await relay(badApproval).expect(400, /BROADCAST_TARGET_NOT_ALLOWED/);
    const creation = await user.signTransaction(
      await user.populateTransaction({ data: '0x6000', gasLimit: 100_000n }),
    );
    await relay(creation).expect(400, /BROADCAST_TARGET_NOT_ALLOWED/);
    expect((await chain.rpcStats()).eth_sendRawTransaction ?? 0).toBe(0);
  });

  it('refuses a swap signed after its session was revoked (SESSION_NOT_ACTIVE, phase broadcast); sent directly it reverts and the status decodes why', async () => {
    const user = chain.wallets[2];
    await chain.activate(user.address);
    const first = await postSwap(t, token, swapBody(user.address)).expect(200);
    await relayApprovals(user, first.body.approvals);
    const built = await postSwap(t, token, swapBody(user.address)).expect(200);
    await chain.revoke(user.address);
    const signed = await sign(user, built.body.transaction);
    const nonceBefore = await user.getNonce();

    const refused = await relay(signed).expect(412);
    expect(refused.body).toMatchObject({
      code: 'SESSION_NOT_ACTIVE',
      phase: 'broadcast',
      details: [{ revertCode: 'SESSION_NOT_ACTIVE' }],
    });
    expect(refused.body.hint).toContain('POST /onboarding/activate-session-demo');
    expect(refused.body.message).toContain(user.address);
    expect(await user.getNonce()).toBe(nonceBefore);

    // Bypassing the relay: the devnet mines it (status 0) and answers the send with the revert.
    await devnetRpc(chain.rpcUrl, 'eth_sendRawTransaction', [signed]).catch(() => undefined);
    const hash = keccak256(signed);
    const reverted = await status(hash).expect(200);
    expect(reverted.body).toMatchObject({
      txHash: hash,
      status: 'REVERTED',
      kind: 'swap',
      from: user.address,
      revert: { code: 'SESSION_NOT_ACTIVE' },
    });
    expect(reverted.body.revert.message).toContain(user.address);
    expect(reverted.body.revert.hint).toContain('POST /onboarding/activate-session-demo');
    expect(reverted.body).not.toHaveProperty('swap');
  });

  it('answers 409 NONCE_CONFLICT to a used nonce and to a nonce gap', async () => {
    const user = chain.wallets[2]; // has sent transactions in the test above
    const next = await user.getNonce();
    expect(next).toBeGreaterThan(0);
    const approval: UnsignedTx = {
      to: WETH,
      data:
        '0x095ea7b3' +
        chain.deployment.contracts.permit2.slice(2).toLowerCase().padStart(64, '0') +
        '0'.repeat(63) +
        '1',
      value: '0',
      gas: '60000',
    };
    const stale = await relay(await sign(user, approval, { nonce: next - 1 })).expect(409);
    expect(stale.body).toMatchObject({
      code: 'NONCE_CONFLICT',
      phase: 'broadcast',
      details: [{ nonce: next - 1, expectedNonce: next, from: user.address }],
    });
    const gap = await relay(await sign(user, approval, { nonce: next + 3 })).expect(409);
    expect(gap.body.details[0]).toMatchObject({ nonce: next + 3, expectedNonce: next });
    expect(await user.getNonce()).toBe(next);
  });

  it('answers 400 FEE_TOO_LOW below the base fee and 400 BALANCE_INSUFFICIENT to a wallet that cannot pay gas, phase broadcast', async () => {
    const user = chain.wallets[8];
    const approval = {
      to: WETH,
      data:
        '0x095ea7b3' +
        chain.deployment.contracts.permit2.slice(2).padStart(64, '0') +
        '0'.repeat(64),
      gasLimit: 60_000n,
      chainId: 84532,
      type: 2,
    };
    const baseFee = (await chain.provider.getBlock('latest'))!.baseFeePerGas!;
    expect(baseFee > 1n).toBe(true);
    const cheap = await user.signTransaction({
      ...approval,
      nonce: await user.getNonce(),
      maxFeePerGas: baseFee / 2n,
      maxPriorityFeePerGas: 0n,
    });
    const low = await relay(cheap).expect(400);
    expect(low.body).toMatchObject({ code: 'FEE_TOO_LOW', phase: 'broadcast' });
    expect(low.body.message).not.toMatch(/baseFeePerGas|too low for the next block/);

    const stranger = Wallet.createRandom();
    const broke = await stranger.signTransaction({
      ...approval,
      nonce: 0,
      maxFeePerGas: baseFee * 2n,
      maxPriorityFeePerGas: 1n,
    });
    const poor = await relay(broke).expect(400);
    expect(poor.body).toMatchObject({
      code: 'BALANCE_INSUFFICIENT',
      phase: 'broadcast',
      details: [
        { from: stranger.address, balance: '0', required: (60_000n * baseFee * 2n).toString() },
      ],
    });
  });

  it('refuses malformed, unsigned and other-chain transactions with 400 INVALID_PARAMS', async () => {
    const user = chain.wallets[8];
    for (const bad of ['', '0x', 'hello', '0x123', 42, null, '0x' + 'ab'.repeat(40)]) {
      const res = await relay(bad).expect(400);
      expect(res.body.code).toBe('INVALID_PARAMS');
    }
    const tx = {
      type: 2,
      chainId: 84532,
      nonce: 0,
      to: WETH,
      data: '0x095ea7b3' + '00'.repeat(64),
      gasLimit: 60_000n,
      maxFeePerGas: 10n ** 9n,
      maxPriorityFeePerGas: 1n,
    };
    const unsigned = Transaction.from(tx).unsignedSerialized;
    const res = await relay(unsigned).expect(400);
    expect(res.body).toMatchObject({
      code: 'INVALID_PARAMS',
      details: [{ field: 'signedTransaction' }],
    });
    expect(res.body.details[0].message).toContain('is not signed');
    const otherChain = await user.signTransaction({ ...tx, chainId: 1 });
    const wrong = await relay(otherChain).expect(400);
    expect(wrong.body).toMatchObject({ code: 'INVALID_PARAMS', phase: 'validation' });
    expect(wrong.body.details[0]).toMatchObject({ field: 'signedTransaction' });
    expect(wrong.body.details[0].message).toContain('chain 1');
  });

  it('answers 403 INSTITUTION_OWNERSHIP_MISMATCH when the sender is bound to another account', async () => {
    const user = chain.wallets[9];
    const other = await t.createAccount();
    await bindWallet(t, user.address, other.accountId);
    const first = await postSwap(t, token, swapBody(chain.wallets[8].address), '?buildOnly=true');
    const res = await relay(await sign(user, first.body.approvals[0].transaction)).expect(403);
    expect(res.body.code).toBe('INSTITUTION_OWNERSHIP_MISMATCH');
  });

  it('status: any hash; unknown is 200 NOT_FOUND, a malformed one 400; scopes defi:preflight or defi:broadcast', async () => {
    const unknown = '0x' + 'ab'.repeat(32);
    expect((await status(unknown).expect(200)).body).toMatchObject({
      txHash: unknown,
      status: 'NOT_FOUND',
      blockNumber: null,
      kind: null,
    });
    for (const bad of ['0x1234', 'ab'.repeat(32), '0x' + 'zz'.repeat(32)])
      expect((await status(bad).expect(400)).body.code).toBe('INVALID_PARAMS');

    const preflightKey = await createApiKey(t, token, ['defi:preflight']);
    const broadcastKey = await createApiKey(t, token, ['defi:broadcast']);
    const swapKey = await createApiKey(t, token, ['defi:swap']);
    await status(unknown, preflightKey.key).expect(200);
    await status(unknown, broadcastKey.key).expect(200);
    expect((await status(unknown, swapKey.key).expect(403)).body.code).toBe(
      'API_KEY_SCOPE_MISSING',
    );
    // Validation comes before auth: bytes that are no signed transaction are 400 whoever sends them.
    await relay('0x' + 'ab'.repeat(40), { apiKey: preflightKey.key }).expect(400);
    await relay('0x' + 'ab'.repeat(40), { apiKey: 'cgk_test_' + '0'.repeat(48) }).expect(400);
    const refused = await relay(
      await sign(chain.wallets[8], {
        to: WETH,
        data: '0x095ea7b3' + '00'.repeat(64),
        value: '0',
        gas: '60000',
      }),
      { apiKey: preflightKey.key },
    ).expect(403);
    expect(refused.body).toMatchObject({
      code: 'API_KEY_SCOPE_MISSING',
      details: [{ requiredScope: 'defi:broadcast' }],
    });
  });
  it('refuses a router execute with a TRANSFER command from a funded wallet: 400 BROADCAST_TARGET_NOT_ALLOWED, nothing sent', async () => {
    const user = chain.wallets[6];
    const nonceBefore = await user.getNonce();
    await chain.resetRpcStats();
    // TRANSFER(ETH, anyone, 1 wei): the router would pay out whatever it holds.
    const transfer = UNIVERSAL_ROUTER.encodeFunctionData('execute', [
      '0x05',
      [
        AbiCoder.defaultAbiCoder().encode(
          ['address', 'address', 'uint256'],
          [ZeroAddress, chain.wallets[7].address, 1n],
        ),
      ],
      2n ** 40n,
    ]);
    const signed = await sign(user, {
      to: chain.deployment.contracts.universalRouter,
      data: transfer,
      value: '1',
      gas: '200000',
    });
    const res = await relay(signed).expect(400);
    expect(res.body).toMatchObject({
      code: 'BROADCAST_TARGET_NOT_ALLOWED',
      details: [
        {
          field: 'signedTransaction',
          to: chain.deployment.contracts.universalRouter,
          command: 'TRANSFER',
        },
      ],
    });
    expect((await chain.rpcStats()).eth_sendRawTransaction ?? 0).toBe(0);
    expect(await user.getNonce()).toBe(nonceBefore);
  });

  it('answers 400, not 503, to a gas limit the chain will not run: below the intrinsic gas, out of gas, above the block limit', async () => {
    const user = chain.wallets[6];
    const approve = (gas: bigint) =>
      sign(user, {
        to: WETH,
        data:
          '0x095ea7b3' +
          chain.deployment.contracts.permit2.slice(2).toLowerCase().padStart(64, '0') +
          '0'.repeat(63) +
          '1',
        value: '0',
        gas: gas.toString(),
      });
    const nonceBefore = await user.getNonce();
    await chain.resetRpcStats();

    const intrinsic = await relay(await approve(21_000n)).expect(400);
    expect(intrinsic.body).toMatchObject({
      code: 'INVALID_PARAMS',
      phase: 'broadcast',
      details: [{ field: 'signedTransaction', constraint: 'gasLimit' }],
    });
    expect(intrinsic.body.hint).toContain('transaction.gas');

    const outOfGas = await relay(await approve(23_000n)).expect(400);
    expect(outOfGas.body).toMatchObject({
      code: 'SIMULATION_REVERTED',
      phase: 'broadcast',
      details: [{ revertCode: 'OUT_OF_GAS' }],
    });
    expect(outOfGas.body.hint).toContain('transaction.gas');

    const blockLimit = (await chain.provider.getBlock('latest'))!.gasLimit;
    const above = await relay(await approve(blockLimit + 1n)).expect(400);
    expect(above.body.code).toBe('INVALID_PARAMS');
    expect(above.body.phase).toBe('broadcast');

    expect((await chain.rpcStats()).eth_sendRawTransaction ?? 0).toBe(0);
    expect(await user.getNonce()).toBe(nonceBefore);
  });

  it('refuses a swap whose deadline passed before it was relayed: 400 SIMULATION_REVERTED, revertCode DEADLINE_PASSED, phase broadcast', async () => {
    const user = chain.wallets[3];
    await chain.activate(user.address);
    const first = await postSwap(t, token, swapBody(user.address)).expect(200);
    await relayApprovals(user, first.body.approvals);
    const built = await postSwap(t, token, swapBody(user.address)).expect(200);
    const signed = await sign(user, built.body.transaction);
    // The chain's clock past the deadline (the session, an hour long, still runs).
    await devnetRpc(chain.rpcUrl, 'evm_setNextBlockTimestamp', [built.body.deadline + 1]);
    await devnetRpc(chain.rpcUrl, 'evm_mine');
    const nonceBefore = await user.getNonce();

    const res = await relay(signed).expect(400);
    expect(res.body).toMatchObject({
      code: 'SIMULATION_REVERTED',
      phase: 'broadcast',
      details: [{ revertCode: 'DEADLINE_PASSED' }],
    });
    expect(res.body.hint).toMatch(/deadline/i);
    expect(await user.getNonce()).toBe(nonceBefore);
  });

  it('meters the relay and the status like every protected endpoint, with the codes they answered', async () => {
    // Counted as deltas of this test's own requests: independent of the tests before it.
    const stats = async () =>
      (
        await request(t.server)
          .get('/api/v1/usage/stats')
          .set('Authorization', `Bearer ${token}`)
          .expect(200)
      ).body;
    const before = (await stats()).byCode as Record<string, number>;
    const user = chain.wallets[6];
    const approval = (nonce: number) =>
      sign(
        user,
        {
          to: WETH,
          data:
            '0x095ea7b3' +
            chain.deployment.contracts.permit2.slice(2).padStart(64, '0') +
            '0'.repeat(64),
          value: '0',
          gas: '60000',
        },
        { nonce },
      );
    await relay(
      await sign(user, {
        to: chain.deployment.contracts.complianceRegistry,
        data: '0x12345678',
        value: '0',
        gas: '60000',
      }),
    ).expect(400);
    await relay(await approval((await user.getNonce()) + 5)).expect(409);
    await status('0x' + 'cd'.repeat(32)).expect(200);

    const after = await pollUntil(
      'usage rows of this test recorded',
      stats,
      (body) =>
        (body.byCode.NONCE_CONFLICT ?? 0) === (before.NONCE_CONFLICT ?? 0) + 1 &&
        (body.byCode.BROADCAST_TARGET_NOT_ALLOWED ?? 0) ===
          (before.BROADCAST_TARGET_NOT_ALLOWED ?? 0) + 1,
    );
    const routes = after.byEndpoint.map(
      (e: { method: string; route: string }) => `${e.method} ${e.route}`,
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/v1/defi/transactions',
        'GET /api/v1/defi/transactions/:txHash',
      ]),
    );
  });
});
