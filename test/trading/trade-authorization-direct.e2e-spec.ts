/**
 * Issue 54 "Done when", the chain half: a wallet of an account enforcing its trade policy on chain
 * sends, from the wallet straight to the chain (never through the relay), the swap the service
 * built for it with its authorization removed, with the authorization of another build (another
 * amount), the same built transaction twice, and one after its deadline: each reverts with hook
 * v3's named error, decoded from the revert. A wallet of an account without trade rules swaps with
 * its session alone, sent straight to the chain too.
 */
import { AbiCoder, Contract, Wallet } from 'ethers';
import request from 'supertest';
import { COMPLIANCE_HOOK_V3 } from '../../src/chain/abi/compliance-hook-v3';
import { UNIVERSAL_ROUTER } from '../../src/chain/abi/uniswap-v4';
import { decodeRevert } from '../../src/chain/encoding/revert-decoder';
import type { UnsignedTx } from '../../src/defi-builder/encoding/approvals';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import {
  DefiDevnet,
  postSwap,
  relayUntilConfirmed,
  signBuilt,
  startDefiDevnet,
} from '../helpers/defi';

const coder = AbiCoder.defaultAbiCoder();
const SINGLE = 'tuple(tuple(address,address,uint24,int24,address),bool,uint128,uint128,bytes)';

/** The hookData of a built one-pool swap (UniversalRouter V4_SWAP, SWAP_EXACT_IN_SINGLE). */
function hookDataOf(data: string): string {
  const [, inputs] = UNIVERSAL_ROUTER.decodeFunctionData('execute', data);
  const [, params] = coder.decode(['bytes', 'bytes[]'], (inputs as string[]).at(-1)!);
  return coder.decode([SINGLE], params[0])[0][4] as string;
}

/** The built swap with its hookData replaced and, optionally, another router deadline. */
function withHookData(data: string, hookData: string, deadline?: bigint): string {
  const [commands, inputs, builtDeadline] = UNIVERSAL_ROUTER.decodeFunctionData('execute', data);
  const last = (inputs as string[]).length - 1;
  const [actions, params] = coder.decode(['bytes', 'bytes[]'], (inputs as string[])[last]);
  const [swap] = coder.decode([SINGLE], params[0]);
  const swapParams = coder.encode([SINGLE], [[[...swap[0]], swap[1], swap[2], swap[3], hookData]]);
  const input = coder.encode(['bytes', 'bytes[]'], [actions, [swapParams, ...params.slice(1)]]);
  const newInputs = [...(inputs as string[])];
  newInputs[last] = input;
  return UNIVERSAL_ROUTER.encodeFunctionData('execute', [
    commands,
    newInputs,
    deadline ?? builtDeadline,
  ]);
}

describe('Trade authorizations: the wallet straight to the chain (devnet, hook v3)', () => {
  let chain: DefiDevnet;
  let t: TestApp;
  let enforcing: string;
  let plain: string;
  let user: Wallet;
  let other: Wallet;
  let WETH: string, tUSDC: string;
  let hook: Contract;

  const build = (auth: string, wallet: Wallet, amount: bigint) =>
    postSwap(t, auth, {
      tokenIn: WETH,
      tokenOut: tUSDC,
      amount: amount.toString(),
      userAddress: wallet.address,
    }).expect(200);
  /** What a direct send of `tx` by `wallet` reverts with (it must revert), decoded. */
  const revertOf = async (wallet: Wallet, tx: UnsignedTx) => {
    const { revertData, mined } = await chain.sendExpectingRevert(wallet, tx);
    expect(mined).toBe(true);
    return decodeRevert(revertData);
  };

  beforeAll(async () => {
    chain = await startDefiDevnet();
    t = await createTestApp({ env: { CHAIN_RPC_URL: chain.rpcUrl } });
    enforcing = await login(t, await t.createAccount());
    plain = await login(t, await t.createAccount());
    ({ WETH, tUSDC } = chain.deployment.tokens as Record<string, string>);
    [user, other] = [chain.wallets[4], chain.wallets[5]];
    hook = new Contract(
      chain.deployment.contracts.complianceHook,
      COMPLIANCE_HOOK_V3,
      chain.provider,
    );
    for (const [auth, wallet] of [
      [enforcing, user],
      [plain, other],
    ] as const) {
      await chain.activate(wallet.address);
      for (const approval of (await build(auth, wallet, 10n ** 15n)).body.approvals)
        await relayUntilConfirmed(t, auth, await signBuilt(wallet, approval.transaction));
    }
    await request(t.server)
      .put('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${enforcing}`)
      .send({
        sources: { mode: 'any', names: [] },
        countries: {},
        minSessionSeconds: 0,
        trading: { enforcement: 'onchain' },
      })
      .expect(200);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it("reverts the built swap without its authorization (AuthorizationRequired), with another build's (AuthorizationInvalid), and sent twice (AuthorizationUsed)", async () => {
    const a = (await build(enforcing, user, 10n ** 15n)).body;
    const b = (await build(enforcing, user, 2n * 10n ** 15n)).body;
    expect(a.authorization).toBeDefined();
    expect(await hook.requiresAuthorization(user.address)).toBe(true);
    const tx = a.transaction as UnsignedTx;

    const removed = await revertOf(user, { ...tx, data: withHookData(tx.data, '0x') });
    expect(removed).toMatchObject({ name: 'AuthorizationRequired', raisedBy: hook.target });
    expect(removed.args.trader).toBe(user.address);

    const foreign = withHookData(tx.data, hookDataOf(b.transaction.data));
    expect((await revertOf(user, { ...tx, data: foreign })).name).toBe('AuthorizationInvalid');

    // The built transaction as it is, straight to the chain: mined; then again: used.
    const receipt = await chain.send(user, tx);
    expect(receipt.status).toBe(1);
    expect((await revertOf(user, tx)).name).toBe('AuthorizationUsed');
  });

  it('reverts an authorization after its deadline, even with the router deadline pushed out (AuthorizationExpired)', async () => {
    const built = (await build(enforcing, user, 10n ** 15n)).body;
    const tx = built.transaction as UnsignedTx;
    const late = withHookData(tx.data, hookDataOf(tx.data), 2n ** 40n);
    await chain.provider.send('evm_increaseTime', [built.deadline - (await chain.chainTime()) + 1]);
    await chain.provider.send('evm_mine', []);
    expect((await revertOf(user, { ...tx, data: late })).name).toBe('AuthorizationExpired');
  });

  it('lets a wallet of an account without trade rules swap with its session alone, straight to the chain', async () => {
    const built = (await build(plain, other, 10n ** 15n)).body;
    expect(built.authorization).toBeUndefined();
    expect(hookDataOf(built.transaction.data)).toBe('0x');
    expect(await hook.requiresAuthorization(other.address)).toBe(false);
    expect((await chain.send(other, built.transaction)).status).toBe(1);
  });
});
