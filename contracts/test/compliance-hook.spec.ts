/**
 * ComplianceHook on the local EVM with the real Uniswap v4 PoolManager, UniversalRouter,
 * PositionManager and V4Quoter: every rule of the hook (v2's rules, on the devnet's hook v3, which
 * keeps them for wallets that need no authorization; v3's own: compliance-hook-v3.spec.ts).
 */
import { AbiCoder, Contract, ContractFactory, InterfaceAbi, JsonRpcProvider, Wallet } from 'ethers';
import { loadOwnArtifact, loadUniswapArtifact } from '../../src/chain/devnet/artifacts';
import type { NetworkDefinition } from '../../src/chain/network/network.types';
import { SANCTIONS_LIST } from '../../src/chain/abi/sanctions-list';
import { useContractFixture } from './contract-fixture';
import {
  decreaseAndTake,
  mintPosition,
  POSITION_MANAGER,
  quoteExactInputSingle,
  swapExactInSingle,
  V4_QUOTER,
} from './uniswap-actions';

describe('ComplianceHook', () => {
  const f = useContractFixture();
  let net: NetworkDefinition;
  let provider: JsonRpcProvider;
  let registry: Contract;
  let hook: Contract;
  let deployer: Wallet, alice: Wallet, bob: Wallet, carol: Wallet;
  const activate = (who: string, seconds?: number) => f.activate(who, seconds);
  const revertOf = (from: Wallet, to: string, data: string) => f.revertOf(from, to, data);
  const send = (from: Wallet, to: string, data: string) => f.send(from, to, data);
  const approveThroughPermit2 = (owner: Wallet, spender: string) =>
    f.approveThroughPermit2(owner, spender);
  const balance = (token: string, who: string) => f.balance(token, who);

  beforeAll(() => {
    ({ net, provider, registry, hook } = f);
    [deployer, alice, bob, carol] = f.wallets;
  });

  const swapData = (amount = 10n ** 17n, hookData = '0x') =>
    swapExactInSingle(net.pool, true, amount, hookData);

  it('sits at an address carrying exactly the beforeSwap + beforeAddLiquidity + beforeRemoveLiquidity flags, and v2 and v3 refuse any other', async () => {
    // The devnet's hook is v3 (issue 54), which keeps every rule of v2 this file tests.
    expect(BigInt(net.contracts.complianceHook) & 0x3fffn).toBe(
      (1n << 11n) | (1n << 9n) | (1n << 7n),
    );
    for (const name of ['ComplianceHook', 'ComplianceHookV3'] as const) {
      const artifact = loadOwnArtifact(name);
      const factory = new ContractFactory(
        artifact.abi as InterfaceAbi,
        artifact.bytecode,
        deployer,
      );
      const tx = await factory.getDeployTransaction(
        net.contracts.poolManager,
        net.contracts.complianceRegistry,
        deployer.address,
        net.compliance.sanctionsOracle,
        true,
      );
      expect((await revertOf(deployer, undefined as unknown as string, tx.data)).name).toBe(
        'HookAddressNotValid',
      );
    }
  });

  it('refuses a swap from a wallet without a session, naming the trader (hook revert unwrapped)', async () => {
    await approveThroughPermit2(alice, net.contracts.universalRouter);
    const decoded = await revertOf(alice, net.contracts.universalRouter, swapData());
    expect(decoded).toMatchObject({
      name: 'SessionNotActive',
      code: 'SESSION_NOT_ACTIVE',
      raisedBy: net.contracts.complianceHook,
    });
    expect(decoded.args.trader).toBe(alice.address);
  });

  it('lets a wallet with a session swap 0.1 WETH for tUSDC through the UniversalRouter', async () => {
    await approveThroughPermit2(alice, net.contracts.universalRouter);
    await activate(alice.address);
    const before = await balance(net.tokens.tUSDC.address, alice.address);
    const receipt = await send(alice, net.contracts.universalRouter, swapData(10n ** 17n));
    expect(receipt!.status).toBe(1);
    const received = (await balance(net.tokens.tUSDC.address, alice.address)) - before;
    // ~300 tUSDC at 1 WETH = 3000 tUSDC, minus the 0.3 % fee and a little price impact.
    expect(received).toBeGreaterThan(290n * 10n ** 6n);
    expect(received).toBeLessThan(300n * 10n ** 6n);
  });

  it("does not let a wallet borrow another wallet's session (hookData is never identity)", async () => {
    await approveThroughPermit2(alice, net.contracts.universalRouter);
    await activate(bob.address);
    const borrowing = swapData(
      10n ** 17n,
      AbiCoder.defaultAbiCoder().encode(['address'], [bob.address]),
    );
    const decoded = await revertOf(alice, net.contracts.universalRouter, borrowing);
    expect(decoded.name).toBe('SessionNotActive');
    expect(decoded.args.trader).toBe(alice.address);
  });

  it('refuses a swap once the session has expired', async () => {
    await approveThroughPermit2(alice, net.contracts.universalRouter);
    await activate(alice.address, 60);
    await provider.send('evm_increaseTime', [61]);
    await provider.send('evm_mine', []);
    expect((await revertOf(alice, net.contracts.universalRouter, swapData())).name).toBe(
      'SessionNotActive',
    );
  });

  it('lets the V4Quoter price a swap for a wallet without a session (it can never trade)', async () => {
    const raw = await provider.call({
      from: carol.address,
      to: net.contracts.v4Quoter,
      data: quoteExactInputSingle(net.pool, true, 10n ** 17n),
    });
    const [amountOut] = V4_QUOTER.decodeFunctionResult('quoteExactInputSingle', raw);
    expect(amountOut).toBeGreaterThan(290n * 10n ** 6n);
  });

  it('refuses a router that is not allowlisted, even for a wallet with a session', async () => {
    const ur = loadUniswapArtifact('UniversalRouter');
    const zero = '0x' + '00'.repeat(20);
    const zero32 = '0x' + '00'.repeat(32);
    const rogue = await new ContractFactory(ur.abi as InterfaceAbi, ur.bytecode, deployer).deploy([
      net.contracts.permit2,
      net.tokens.WETH.address,
      zero,
      zero,
      zero32,
      zero32,
      net.contracts.poolManager,
      zero,
      net.contracts.positionManager,
      zero,
    ]);
    const rogueAddress = await rogue.getAddress();
    await approveThroughPermit2(alice, rogueAddress);
    await activate(alice.address);
    const decoded = await revertOf(alice, rogueAddress, swapData());
    expect(decoded).toMatchObject({ name: 'RouterNotAllowed', code: 'ROUTER_NOT_ALLOWED' });
    expect(decoded.args.router).toBe(rogueAddress);
  });

  it('accepts hook callbacks only from the PoolManager', async () => {
    const key = [
      net.pool.currency0,
      net.pool.currency1,
      net.pool.fee,
      net.pool.tickSpacing,
      net.pool.hooks,
    ];
    const data = hook.interface.encodeFunctionData('beforeSwap', [
      alice.address,
      key,
      [true, -1n, 0n],
      '0x',
    ]);
    expect((await revertOf(alice, net.contracts.complianceHook, data)).name).toBe('NotPoolManager');
  });

  it('lets only the owner change the router and quoter allowlists', async () => {
    for (const fn of ['setRouter', 'setQuoter']) {
      const data = hook.interface.encodeFunctionData(fn, [alice.address, true]);
      expect((await revertOf(alice, net.contracts.complianceHook, data)).name).toBe('NotOwner');
    }
    expect(await hook.isRouter(net.contracts.universalRouter)).toBe(true);
    expect(await hook.isRouter(net.contracts.positionManager)).toBe(true);
    expect(await hook.isQuoter(net.contracts.v4Quoter)).toBe(true);
  });

  it('gates adding liquidity on a session, but removing it stays open after the session ends', async () => {
    await approveThroughPermit2(alice, net.contracts.positionManager);
    const mint = mintPosition(
      net.pool,
      -887220,
      887220,
      10n ** 12n,
      alice.address,
      10n ** 18n,
      10n ** 10n,
    );
    expect(await revertOf(alice, net.contracts.positionManager, mint)).toMatchObject({
      name: 'SessionNotActive',
      raisedBy: net.contracts.complianceHook,
    });

    await activate(alice.address);
    const pm = new Contract(net.contracts.positionManager, POSITION_MANAGER, provider);
    const tokenId = (await pm.nextTokenId()) as bigint;
    expect((await send(alice, net.contracts.positionManager, mint))!.status).toBe(1);
    expect(await pm.ownerOf(tokenId)).toBe(alice.address);
    expect(await pm.getPositionLiquidity(tokenId)).toBe(10n ** 12n);

    await (await registry.revoke(alice.address)).wait();
    const wethBefore = await balance(net.tokens.WETH.address, alice.address);
    expect(
      (await send(
        alice,
        net.contracts.positionManager,
        decreaseAndTake(net.pool, tokenId, 10n ** 12n, alice.address),
      ))!.status,
    ).toBe(1);
    expect(await pm.getPositionLiquidity(tokenId)).toBe(0n);
    expect(await balance(net.tokens.WETH.address, alice.address)).toBeGreaterThan(wethBefore);
  });

  describe('sanctions (hook v2)', () => {
    let oracle: Contract;
    beforeAll(() => {
      oracle = new Contract(net.compliance.sanctionsOracle!, SANCTIONS_LIST, deployer);
    });

    it('refuses swaps and liquidity additions of a listed wallet, even with a session, naming it', async () => {
      await approveThroughPermit2(alice, net.contracts.universalRouter);
      await approveThroughPermit2(alice, net.contracts.positionManager);
      await activate(alice.address);
      expect((await send(alice, net.contracts.universalRouter, swapData()))!.status).toBe(1);
      await (await oracle.addToSanctionsList([alice.address])).wait();
      const swap = await revertOf(alice, net.contracts.universalRouter, swapData());
      expect(swap).toMatchObject({
        name: 'WalletSanctioned',
        code: 'WALLET_SANCTIONED',
        raisedBy: net.contracts.complianceHook,
      });
      expect(swap.args.wallet).toBe(alice.address);
      const mint = mintPosition(
        net.pool,
        -600,
        600,
        10n ** 9n,
        alice.address,
        10n ** 18n,
        10n ** 10n,
      );
      expect((await revertOf(alice, net.contracts.positionManager, mint)).name).toBe(
        'WalletSanctioned',
      );
      await (await oracle.removeFromSanctionsList([alice.address])).wait();
      expect(await oracle.sanctionedAddresses()).toEqual([]);
      expect((await send(alice, net.contracts.universalRouter, swapData()))!.status).toBe(1);
    });

    it('fails closed: an oracle that reverts refuses every trade', async () => {
      await approveThroughPermit2(alice, net.contracts.universalRouter);
      await activate(alice.address);
      // PUSH0 PUSH0 REVERT: the oracle reverts whatever it is asked.
      await provider.send('hardhat_setCode', [net.compliance.sanctionsOracle, '0x5f5ffd']);
      const decoded = await revertOf(alice, net.contracts.universalRouter, swapData());
      expect(decoded).toMatchObject({ name: 'WalletSanctioned', code: 'WALLET_SANCTIONED' });
    });

    it('lets only the oracle owner list addresses', async () => {
      await expect(
        (oracle.connect(alice) as Contract).addToSanctionsList([bob.address]),
      ).rejects.toThrow();
      expect(await oracle.isSanctioned(bob.address)).toBe(false);
    });
  });
});
