/**
 * The preflight phase (PreflightService.run) on the path production uses: the booted app, its
 * database and the real devnet. Rule order (ownership, tokens, one eth_call, session gate, spend
 * plan), the chain clock, and Permit2's exact expiry boundary, checked against Permit2 itself.
 */
import { Contract, MaxUint256 } from 'ethers';
import { ERC20 } from '../../src/chain/abi/erc20';
import { PERMIT2 } from '../../src/chain/abi/permit2';
import { ApiError } from '../../src/common/errors/api-error';
import {
  PreflightRequest,
  PreflightService,
} from '../../src/defi-builder/preflight/preflight.service';
import { bindWallet, postSwap, useDefiSuite } from '../helpers/defi';

describe(`${PreflightService.name} (devnet)`, () => {
  const suite = useDefiSuite();
  const principal = (accountId: string) => ({ method: 'jwt' as const, accountId, scopes: [] });
  let accountId: string;
  beforeAll(async () => {
    accountId = (await suite.t.createAccount()).accountId;
  });

  const swapPreflight = (
    user: string,
    over: Partial<PreflightRequest<'tokenIn' | 'tokenOut', Record<string, never>>> = {},
  ) =>
    suite.t.app.get(PreflightService).run({
      userAddress: user,
      principal: principal(accountId),
      buildOnly: false,
      session: 'required',
      tokens: { tokenIn: suite.WETH, tokenOut: suite.TUSDC },
      spend: ({ tokenIn }) => ({
        use: 'swap',
        needs: [{ symbol: tokenIn.symbol, amount: 10n ** 17n }],
      }),
      ...over,
    });

  it('refuses without a session (412) and, with buildOnly, answers from exactly one eth_call', async () => {
    const user = suite.chain.wallets[2].address;
    await suite.chain.resetRpcStats();
    await expect(swapPreflight(user)).rejects.toMatchObject({
      code: 'SESSION_NOT_ACTIVE',
      status: 412,
    });
    await suite.chain.resetRpcStats();
    const pre = await swapPreflight(user, { buildOnly: true });
    expect(await suite.chain.rpcStats()).toEqual({ eth_call: 1 });
    expect(pre).toMatchObject({
      user,
      walletBound: false,
      session: { active: false, activeUntil: null },
      tokens: { tokenIn: { symbol: 'WETH' }, tokenOut: { symbol: 'tUSDC' } },
    });
    expect(pre.state.balances.WETH).toBe(100n * 10n ** 18n);
    expect(pre.spend.approvals.map((a) => a.kind)).toEqual(['erc20', 'permit2']);
    expect(pre.spend.warnings.map((w) => w.code)).toEqual(['ALLOWANCE_INSUFFICIENT']);
  });

  it('needs no session for an operation that declares none (an exit)', async () => {
    const pre = await swapPreflight(suite.chain.wallets[2].address, { session: 'none' });
    expect(pre.session.active).toBe(false);
  });

  it('checks ownership first, then the whitelist, both before any chain read', async () => {
    const other = (await suite.t.createAccount()).accountId;
    const user = suite.chain.wallets[8].address;
    await bindWallet(suite.t, user, other);
    await suite.chain.resetRpcStats();
    const unknown = '0x1111111111111111111111111111111111111111';
    await expect(
      swapPreflight(user, { tokens: { tokenIn: suite.WETH, tokenOut: unknown } }),
    ).rejects.toMatchObject({ code: 'INSTITUTION_OWNERSHIP_MISMATCH', status: 403 });
    const unsupported = await swapPreflight(suite.chain.wallets[2].address, {
      tokens: { tokenIn: suite.WETH, tokenOut: unknown },
    }).catch((e: unknown) => e);
    expect(unsupported).toBeInstanceOf(ApiError);
    expect(unsupported).toMatchObject({ code: 'UNSUPPORTED_TOKEN', status: 400 });
    expect((unsupported as ApiError).message).toContain('tokenOut');
    expect(await suite.chain.rpcStats()).toEqual({});
    // Bound to the caller's own account: served, and says so.
    await bindWallet(suite.t, suite.chain.wallets[7].address, accountId);
    const own = await swapPreflight(suite.chain.wallets[7].address, { buildOnly: true });
    expect(own.walletBound).toBe(true);
  });

  it("judges the session on the chain's clock, read in the same batch", async () => {
    const user = suite.chain.wallets[3].address;
    await suite.chain.activate(user, 120);
    const pre = await swapPreflight(user);
    expect(pre.state.blockTimestamp).toBe(await suite.chain.chainTime());
    expect(pre.session.active).toBe(true);
    // Two minutes later on the chain (the server clock has not moved): the session is over.
    const until = pre.state.session.activeUntil!;
    await suite.chain.provider.send('evm_setNextBlockTimestamp', [until]);
    await suite.chain.provider.send('evm_mine', []);
    await expect(swapPreflight(user)).rejects.toMatchObject({ code: 'SESSION_NOT_ACTIVE' });
  });

  it('keeps a Permit2 grant usable until the second it expires, as Permit2 does (block.timestamp > expiration reverts)', async () => {
    const wallet = suite.chain.wallets[4];
    const { permit2, universalRouter } = suite.chain.deployment.contracts;
    const weth = new Contract(suite.WETH, ERC20, wallet);
    await (await weth.approve(permit2, MaxUint256)).wait();
    const expiration = (await suite.chain.chainTime()) + 1_000;
    const grant = 10n ** 18n;
    await (
      await new Contract(permit2, PERMIT2, wallet).approve(
        suite.WETH,
        universalRouter,
        grant,
        expiration,
      )
    ).wait();
    await suite.chain.activate(wallet.address, 7_200);

    // Built before the expiry, the swap is mined in a block whose timestamp IS the expiration:
    // Permit2 lets it through, and the preflight of that block agrees.
    const amount = 10n ** 17n;
    const built = await postSwap(suite.t, suite.token, {
      tokenIn: suite.WETH,
      tokenOut: suite.TUSDC,
      amount: amount.toString(),
      userAddress: wallet.address,
    }).expect(200);
    expect(built.body.approvals).toEqual([]);
    await suite.chain.provider.send('evm_setNextBlockTimestamp', [expiration]);
    expect((await suite.chain.send(wallet, built.body.transaction)).status).toBe(1);
    const atExpiry = await swapPreflight(wallet.address);
    expect(atExpiry.state.blockTimestamp).toBe(expiration);
    expect(atExpiry.state.effective.swap.WETH).toBe(grant - amount);
    expect(atExpiry.spend.approvals).toEqual([]);

    await suite.chain.provider.send('evm_setNextBlockTimestamp', [expiration + 1]);
    await suite.chain.provider.send('evm_mine', []);
    const after = await swapPreflight(wallet.address);
    expect(after.state.blockTimestamp).toBe(expiration + 1);
    expect(after.state.effective.swap.WETH).toBe(0n);
    expect(after.spend.approvals.map((a) => a.kind)).toEqual(['permit2']);
  });
});
