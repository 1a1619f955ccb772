/**
 * Contract tests on the local EVM (the embedded devnet, real Uniswap v4 bytecode): every rule of
 * ComplianceRegistry and ComplianceHook. Each test runs between evm_snapshot / evm_revert.
 */
import { AbiCoder, Contract, ContractFactory, InterfaceAbi, JsonRpcProvider, Wallet } from 'ethers';
import { loadOwnArtifact, loadUniswapArtifact } from '../../src/chain/devnet/artifacts';
import { devnetPrivateKeys, RunningDevnet, startDevnet } from '../../src/chain/devnet/devnet';
import { decodeRevert, revertDataOf } from '../../src/chain/encoding/revert-decoder';
import { devnetNetworkDefinition } from '../../src/chain/network/network-definition';
import type { NetworkDefinition } from '../../src/chain/network/network.types';
import {
  decreaseAndTake,
  ERC20,
  mintPosition,
  PERMIT2,
  POSITION_MANAGER,
  quoteExactInputSingle,
  swapExactInSingle,
  V4_QUOTER,
} from './uniswap-actions';

const MAX160 = (1n << 160n) - 1n;
const FAR = 2n ** 40n;

describe('Compliance contracts on the devnet', () => {
  let devnet: RunningDevnet;
  let net: NetworkDefinition;
  let provider: JsonRpcProvider;
  let wallets: Wallet[];
  let registry: Contract;
  let hook: Contract;
  let snapshot: string;
  let deployer: Wallet, alice: Wallet, bob: Wallet, carol: Wallet;

  const now = async () => (await provider.getBlock('latest'))!.timestamp;
  const activate = async (who: string, seconds = 3_600) =>
    (await registry.activate(who, (await now()) + seconds)).wait();

  /** Revert reason of `data` sent by `from` (an eth_call: what a broadcast would do). */
  async function revertOf(from: Wallet, to: string, data: string, value = 0n) {
    try {
      await provider.call({ from: from.address, to, data, value });
    } catch (err) {
      return decodeRevert(revertDataOf(err));
    }
    throw new Error('expected a revert');
  }

  async function send(from: Wallet, to: string, data: string) {
    return (await from.sendTransaction({ to, data })).wait();
  }

  async function approveThroughPermit2(owner: Wallet, spender: string) {
    for (const token of [net.tokens.WETH.address, net.tokens.tUSDC.address]) {
      await send(
        owner,
        token,
        ERC20.encodeFunctionData('approve', [net.contracts.permit2, MAX160]),
      );
      await send(
        owner,
        net.contracts.permit2,
        PERMIT2.encodeFunctionData('approve', [token, spender, MAX160, FAR]),
      );
    }
  }

  const balance = async (token: string, who: string) =>
    BigInt(await provider.call({ to: token, data: ERC20.encodeFunctionData('balanceOf', [who]) }));

  beforeAll(async () => {
    devnet = await startDevnet({ port: 0 });
    net = devnetNetworkDefinition(devnet.deployment);
    provider = new JsonRpcProvider(devnet.rpcUrl, net.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    wallets = devnetPrivateKeys(10).map((k) => new Wallet(k, provider));
    [deployer, alice, bob, carol] = wallets;
    registry = new Contract(
      net.contracts.complianceRegistry,
      loadOwnArtifact('ComplianceRegistry').abi as InterfaceAbi,
      deployer,
    );
    hook = new Contract(
      net.contracts.complianceHook,
      loadOwnArtifact('ComplianceHook').abi as InterfaceAbi,
      deployer,
    );
  }, 60_000);

  afterAll(async () => {
    provider?.destroy();
    await devnet?.close();
  });

  beforeEach(async () => {
    snapshot = (await provider.send('evm_snapshot', [])) as string;
  });
  afterEach(async () => {
    await provider.send('evm_revert', [snapshot]);
  });

  describe('ComplianceRegistry', () => {
    it('is owned by the deployer, who is also the attester; funded wallets start without a session', async () => {
      expect(await registry.owner()).toBe(deployer.address);
      expect(await registry.isAttester(deployer.address)).toBe(true);
      for (const w of wallets) expect(await registry.isActive(w.address)).toBe(false);
    });

    it('lets only attesters activate and revoke', async () => {
      const asAlice = registry.connect(alice) as Contract;
      expect(
        await revertOf(
          alice,
          net.contracts.complianceRegistry,
          asAlice.interface.encodeFunctionData('activate', [alice.address, FAR]),
        ),
      ).toMatchObject({
        name: 'NotAttester',
        code: 'NOT_ATTESTER',
      });
      expect(
        (
          await revertOf(
            alice,
            net.contracts.complianceRegistry,
            asAlice.interface.encodeFunctionData('revoke', [bob.address]),
          )
        ).name,
      ).toBe('NotAttester');
    });

    it('activates until an expiry, which then lapses; refuses an expiry in the past', async () => {
      const receipt = await activate(alice.address, 100);
      expect(
        receipt.logs.map(
          (l: { topics: readonly string[]; data: string }) => registry.interface.parseLog(l)?.name,
        ),
      ).toContain('SessionActivated');
      expect(await registry.isActive(alice.address)).toBe(true);
      await provider.send('evm_increaseTime', [101]);
      await provider.send('evm_mine', []);
      expect(await registry.isActive(alice.address)).toBe(false);
      const past = (await now()) - 1;
      expect(
        (
          await revertOf(
            deployer,
            net.contracts.complianceRegistry,
            registry.interface.encodeFunctionData('activate', [alice.address, past]),
          )
        ).name,
      ).toBe('ExpiryNotInFuture');
    });

    it('revokes a session', async () => {
      await activate(alice.address);
      await (await registry.revoke(alice.address)).wait();
      expect(await registry.isActive(alice.address)).toBe(false);
      expect(await registry.activeUntil(alice.address)).toBe(0n);
    });

    it('lets only the owner manage attesters', async () => {
      const data = registry.interface.encodeFunctionData('setAttester', [alice.address, true]);
      expect((await revertOf(alice, net.contracts.complianceRegistry, data)).name).toBe('NotOwner');
      await (await registry.setAttester(alice.address, true)).wait();
      await (await (registry.connect(alice) as Contract).activate(bob.address, FAR)).wait();
      expect(await registry.isActive(bob.address)).toBe(true);
      await (await registry.setAttester(alice.address, false)).wait();
      expect(
        (
          await revertOf(
            alice,
            net.contracts.complianceRegistry,
            registry.interface.encodeFunctionData('revoke', [bob.address]),
          )
        ).name,
      ).toBe('NotAttester');
    });
  });

  describe('ComplianceHook', () => {
    const swapData = (amount = 10n ** 17n, hookData = '0x') =>
      swapExactInSingle(net.pool, true, amount, hookData);

    it('sits at an address carrying exactly the beforeSwap + beforeAddLiquidity flags, and refuses any other', async () => {
      expect(BigInt(net.contracts.complianceHook) & 0x3fffn).toBe((1n << 11n) | (1n << 7n));
      const artifact = loadOwnArtifact('ComplianceHook');
      const factory = new ContractFactory(
        artifact.abi as InterfaceAbi,
        artifact.bytecode,
        deployer,
      );
      const tx = await factory.getDeployTransaction(
        net.contracts.poolManager,
        net.contracts.complianceRegistry,
        deployer.address,
      );
      expect((await revertOf(deployer, undefined as unknown as string, tx.data)).name).toBe(
        'HookAddressNotValid',
      );
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
      const rogue = await new ContractFactory(ur.abi as InterfaceAbi, ur.bytecode, deployer).deploy(
        [
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
        ],
      );
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
      expect((await revertOf(alice, net.contracts.complianceHook, data)).name).toBe(
        'NotPoolManager',
      );
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
  });
});
