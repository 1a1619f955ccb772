/**
 * The preflight phase (PreflightService.run) on the path production uses: the booted app, its
 * database and the real devnet. Rule order (ownership, tokens, one eth_call, session gate, spend
 * plan), the chain clock, and Permit2's exact expiry boundary, checked against Permit2 itself.
 */
import { Contract, MaxUint256 } from 'ethers';
import { ERC20 } from '../../src/chain/abi/erc20';
import { PERMIT2 } from '../../src/chain/abi/permit2';
import { COMPLIANCE_REGISTRY } from '../../src/chain/abi/compliance-registry';
import { ApiError } from '../../src/common/errors/api-error';
import {
  PreflightRequest,
  PreflightService,
} from '../../src/defi-builder/preflight/preflight.service';
import request from 'supertest';
import { sanctionsCommand } from '../../src/cli/sanctions-command';
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

  describe('GET /defi/preflight/:address (issue 53 items 2 and 6)', () => {
    const get = (address: string, query = '') =>
      request(suite.t.server)
        .get(`/api/v1/defi/preflight/${address}${query}`)
        .set('Authorization', `Bearer ${suite.token}`);
    const symbols = () => Object.keys(suite.chain.deployment.tokens);

    it('reads every token of the market by default, or those ?tokens= names, in the same one eth_call', async () => {
      const user = suite.chain.wallets[5].address;
      await suite.chain.resetRpcStats();
      const all = await get(user).expect(200);
      expect(await suite.chain.rpcStats()).toEqual({ eth_call: 1 });
      expect(Object.keys(all.body.balances)).toEqual(['ETH', ...symbols()]);
      expect(symbols()).toEqual(expect.arrayContaining(['WETH', 'tUSDC', 'tWBTC', 'tEURC']));
      for (const [symbol, token] of Object.entries(suite.chain.deployment.tokens))
        expect(all.body.balances[symbol]).toBe(
          (await suite.chain.balanceOf(token, user)).toString(),
        );
      expect(Object.keys(all.body.allowances.swap)).toEqual(symbols());
      expect(Object.keys(all.body.allowances.liquidity)).toEqual(symbols());
      // One ERC-20 -> Permit2 approval and two Permit2 approvals per token it holds.
      const approvals = all.body.nextActions.filter(
        (a: { action: string }) => a.action === 'approve',
      );
      expect(new Set(approvals.map((a: { symbol: string }) => a.symbol))).toEqual(
        new Set(symbols()),
      );

      await suite.chain.resetRpcStats();
      const some = await get(user, '?tokens=teurc,WETH,ETH').expect(200);
      expect(await suite.chain.rpcStats()).toEqual({ eth_call: 1 });
      expect(Object.keys(some.body.balances)).toEqual(['ETH', 'tEURC', 'WETH']);
      expect(some.body.balances.tEURC).toBe(all.body.balances.tEURC);
      expect(Object.keys(some.body.allowances.swap)).toEqual(['tEURC', 'WETH']);
      expect(
        new Set(
          some.body.nextActions
            .filter((a: { action: string }) => a.action === 'approve')
            .map((a: { symbol: string }) => a.symbol),
        ),
      ).toEqual(new Set(['tEURC', 'WETH']));
      const eth = await get(user, '?tokens=ETH').expect(200);
      expect(eth.body.balances).toEqual({ ETH: all.body.balances.ETH });
    });

    it('refuses a symbol the market does not list (naming those it does) and a malformed list, before reading the chain', async () => {
      const user = suite.chain.wallets[5].address;
      await suite.chain.resetRpcStats();
      const unknown = await get(user, '?tokens=WETH,DOGE').expect(400);
      expect(unknown.body).toMatchObject({
        code: 'UNSUPPORTED_TOKEN',
        phase: 'preflight',
        details: [{ field: 'tokens', symbol: 'DOGE', listed: ['ETH', ...symbols()] }],
      });
      expect(unknown.body.message).toContain('DOGE');
      const malformed = await get(user, '?tokens=WETH,,tUSDC').expect(400);
      expect(malformed.body).toMatchObject({
        code: 'INVALID_PARAMS',
        details: [{ field: 'tokens' }],
      });
      expect(await suite.chain.rpcStats()).toEqual({});
    });

    it('says at once that a listed wallet with an open session is sanctioned: session inactive, sanctioned true, no next action', async () => {
      const user = suite.chain.wallets[9].address;
      await suite.chain.activate(user);
      const before = await get(user).expect(200);
      expect(before.body.session).toMatchObject({ active: true, sanctioned: false });
      const sanctions = (verb: 'add' | 'remove') =>
        sanctionsCommand(verb, [user, '--rpc', suite.chain.rpcUrl], {});
      await sanctions('add');
      try {
        await suite.chain.resetRpcStats();
        const listed = await get(user).expect(200);
        expect(await suite.chain.rpcStats()).toEqual({ eth_call: 1 });
        expect(listed.body.session).toEqual({
          active: false,
          activeUntil: before.body.session.activeUntil,
          sanctioned: true,
        });
        expect(listed.body.nextActions).toEqual([]);
        // The watcher has not run: the registry still holds the session the hook now ignores.
        const registry = new Contract(
          suite.chain.deployment.contracts.complianceRegistry,
          COMPLIANCE_REGISTRY,
          suite.chain.provider,
        );
        expect(await registry.isActive(user)).toBe(true);
        // Every build refuses it meanwhile.
        const build = await postSwap(suite.t, suite.token, {
          tokenIn: suite.WETH,
          tokenOut: suite.TUSDC,
          amount: '1000',
          userAddress: user,
        }).expect(403);
        expect(build.body.code).toBe('WALLET_SANCTIONED');
      } finally {
        await sanctions('remove');
      }
      expect((await get(user).expect(200)).body.session).toMatchObject({
        active: true,
        sanctioned: false,
      });
    });
  });
});
