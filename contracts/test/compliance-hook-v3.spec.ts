/**
 * ComplianceHookV3 (issue 54) on the devnet (real PoolManager, UniversalRouter, PositionManager):
 * a wallet flagged by the enforcer cannot swap or add liquidity without the service's EIP-712
 * TradeAuthorization for that exact trade in hookData: each named error, the happy paths (one
 * pool, two hops, exact output, mint, increase), single use, exits free, unflagged wallets as v2.
 */
import { Contract, Wallet } from 'ethers';
import { COMPLIANCE_HOOK_V3 } from '../../src/chain/abi/compliance-hook-v3';
import {
  domainSeparatorOf,
  encodeAuthorizationHookData,
  TRADE_KIND,
  tradeAuthorizationDigest,
  tradeAuthorizationDomain,
  ZERO_POOL_ID,
} from '../../src/chain/encoding/trade-authorization';
import type { MarketPool, NetworkDefinition } from '../../src/chain/network/network.types';
import { encodeSwapCalldata } from '../../src/defi-builder/encoding/swap-calldata';
import { useContractFixture } from './contract-fixture';
import { AbiCoder } from 'ethers';
import {
  decreaseAndTake,
  increasePosition,
  keyTuple,
  mintPositionWith,
  POSITION_MANAGER,
  swapExactInSingle,
  UNIVERSAL_ROUTER,
} from './uniswap-actions';

const FAR = 2n ** 40n;

describe('ComplianceHookV3: per-trade authorization', () => {
  const f = useContractFixture();
  let net: NetworkDefinition;
  let hook: Contract;
  let attester: Wallet, alice: Wallet, bob: Wallet, carol: Wallet;
  let domainSeparator: string;
  let usdcEurc: MarketPool;
  let nonce = 0n;

  beforeAll(() => {
    net = f.net;
    [attester, alice, bob, carol] = f.wallets;
    hook = new Contract(net.contracts.complianceHook, COMPLIANCE_HOOK_V3, attester);
    domainSeparator = domainSeparatorOf(
      tradeAuthorizationDomain(net.chainId, net.contracts.complianceHook),
    );
    usdcEurc = net.pools.find(
      (p) =>
        p.fee === 100 &&
        [p.currency0, p.currency1].includes(net.tokens.tEURC.address) &&
        [p.currency0, p.currency1].includes(net.tokens.tUSDC.address),
    )!;
  });

  interface Auth {
    trader: string;
    poolId?: string;
    kind?: number;
    zeroForOne?: boolean;
    amount: bigint;
    deadline?: bigint;
    nonce?: bigint;
    nextPoolId?: string;
    nextAmountMax?: bigint;
    signer?: Wallet;
  }
  /** The service's hookData for `a` (defaults: the WETH/tUSDC pool, a swap WETH -> tUSDC). */
  async function authorize(a: Auth): Promise<string> {
    const m = {
      trader: a.trader,
      poolId: a.poolId ?? net.pool.id,
      kind: a.kind ?? TRADE_KIND.swap,
      zeroForOne: a.zeroForOne ?? true,
      amount: a.amount,
      nonce: a.nonce ?? (nonce += 1n),
      deadline: a.deadline ?? BigInt((await f.now()) + 600),
      nextPoolId: a.nextPoolId ?? ZERO_POOL_ID,
      nextAmountMax: a.nextAmountMax ?? 0n,
    };
    const signature = (a.signer ?? attester).signingKey.sign(
      tradeAuthorizationDigest(domainSeparator, m),
    ).serialized;
    return encodeAuthorizationHookData(m, signature);
  }
  const require_ = async (who: string[], required = true) =>
    (await hook.setRequired(who, required)).wait();
  const swap = (amount: bigint, hookData = '0x') =>
    swapExactInSingle(net.pool, true, amount, hookData);
  const revertName = async (from: Wallet, to: string, data: string) =>
    (await f.revertOf(from, to, data)).name;
  const ready = async (w: Wallet) => {
    await f.approveThroughPermit2(w, net.contracts.universalRouter);
    await f.activate(w.address);
  };

  it('is version 3 with the devnet attester as authorizer and enforcer; only they may change them', async () => {
    expect(await hook.VERSION()).toBe(3n);
    expect(await hook.isAuthorizer(attester.address)).toBe(true);
    expect(await hook.isEnforcer(attester.address)).toBe(true);
    expect(net.authorizers).toEqual([attester.address]);
    expect(await hook.DOMAIN_SEPARATOR()).toBe(domainSeparator);
    const as = (w: Wallet, fn: string, args: unknown[]) =>
      revertName(w, net.contracts.complianceHook, COMPLIANCE_HOOK_V3.encodeFunctionData(fn, args));
    expect(await as(alice, 'setRequired', [[alice.address], false])).toBe('NotEnforcer');
    expect(await as(alice, 'setAuthorizer', [alice.address, true])).toBe('NotOwner');
    expect(await as(alice, 'setEnforcer', [alice.address, true])).toBe('NotOwner');
  });

  it('lets a wallet that is not flagged swap with its session alone, as v2; an authorization it does send is verified and used', async () => {
    await ready(alice);
    expect(await hook.requiresAuthorization(alice.address)).toBe(false);
    expect((await f.send(alice, net.contracts.universalRouter, swap(10n ** 16n)))!.status).toBe(1);
    const hookData = await authorize({ trader: alice.address, amount: -(10n ** 16n), nonce: 7n });
    expect(
      (await f.send(alice, net.contracts.universalRouter, swap(10n ** 16n, hookData)))!.status,
    ).toBe(1);
    // hookData on a v3 pool is an authorization or nothing: verified whoever sends it.
    expect(await hook.isNonceUsed(alice.address, 7n)).toBe(true);
    expect(await revertName(alice, net.contracts.universalRouter, swap(10n ** 16n, '0x01'))).toBe(
      'AuthorizationInvalid',
    );
  });

  it('refuses a flagged wallet without an authorization: AuthorizationRequired(trader); session and sanctions still come first', async () => {
    await require_([alice.address]);
    expect(await hook.requiresAuthorization(alice.address)).toBe(true);
    await f.approveThroughPermit2(alice, net.contracts.universalRouter);
    expect(await revertName(alice, net.contracts.universalRouter, swap(10n ** 16n))).toBe(
      'SessionNotActive',
    );
    await f.activate(alice.address);
    const decoded = await f.revertOf(alice, net.contracts.universalRouter, swap(10n ** 16n));
    expect(decoded).toMatchObject({
      name: 'AuthorizationRequired',
      raisedBy: net.contracts.complianceHook,
    });
    expect(decoded.args.trader).toBe(alice.address);
  });

  it('swaps once with its authorization, emits AuthorizationConsumed, then the same transaction is AuthorizationUsed', async () => {
    await ready(alice);
    await require_([alice.address]);
    const amount = 10n ** 16n;
    const hookData = await authorize({ trader: alice.address, amount: -amount, nonce: 300n });
    const data = swap(amount, hookData);
    const receipt = await (
      await alice.sendTransaction({ to: net.contracts.universalRouter, data })
    ).wait();
    expect(receipt!.status).toBe(1);
    const consumed = receipt!.logs
      .filter((l) => l.address === net.contracts.complianceHook)
      .map((l) => COMPLIANCE_HOOK_V3.parseLog(l)!)
      .find((l) => l.name === 'AuthorizationConsumed')!;
    expect(consumed.args.toObject()).toEqual({ trader: alice.address, nonce: 300n });
    expect(await hook.isNonceUsed(alice.address, 300n)).toBe(true);
    expect(await hook.isNonceUsed(alice.address, 301n)).toBe(false);
    expect(await hook.nonceBitmap(alice.address, 1n)).toBe(1n << 44n);
    expect(await revertName(alice, net.contracts.universalRouter, data)).toBe('AuthorizationUsed');
  });

  it('refuses an authorization past its deadline: AuthorizationExpired', async () => {
    await ready(alice);
    await require_([alice.address]);
    const deadline = BigInt((await f.now()) + 60);
    const hookData = await authorize({ trader: alice.address, amount: -(10n ** 16n), deadline });
    await f.increaseTime(61);
    expect(await revertName(alice, net.contracts.universalRouter, swap(10n ** 16n, hookData))).toBe(
      'AuthorizationExpired',
    );
  });

  it('refuses an authorization for another amount, direction, pool, trader or kind, or by another signer, or malformed: AuthorizationInvalid', async () => {
    await ready(alice);
    await ready(bob);
    await require_([alice.address, bob.address]);
    const amount = 10n ** 16n;
    const cases: Array<[string, Wallet, string]> = [
      [
        'other amount',
        alice,
        swap(amount * 2n, await authorize({ trader: alice.address, amount: -amount })),
      ],
      [
        'exact output instead of input',
        alice,
        swap(amount, await authorize({ trader: alice.address, amount })),
      ],
      [
        'other direction',
        alice,
        swap(
          amount,
          await authorize({ trader: alice.address, amount: -amount, zeroForOne: false }),
        ),
      ],
      [
        'other pool',
        alice,
        swap(
          amount,
          await authorize({ trader: alice.address, amount: -amount, poolId: usdcEurc.id }),
        ),
      ],
      [
        'another wallet',
        bob,
        swap(amount, await authorize({ trader: alice.address, amount: -amount })),
      ],
      [
        'liquidity kind',
        alice,
        swap(
          amount,
          await authorize({ trader: alice.address, amount: -amount, kind: TRADE_KIND.liquidity }),
        ),
      ],
      [
        'not an authorizer',
        alice,
        swap(amount, await authorize({ trader: alice.address, amount: -amount, signer: carol })),
      ],
      ['malformed', alice, swap(amount, '0x01')],
    ];
    for (const [what, from, data] of cases)
      expect([what, await revertName(from, net.contracts.universalRouter, data)]).toEqual([
        what,
        'AuthorizationInvalid',
      ]);
  });

  it('accepts a second authorizer the owner adds, and stops accepting one it removes', async () => {
    await ready(alice);
    await require_([alice.address]);
    const amount = 10n ** 16n;
    await (await hook.setAuthorizer(carol.address, true)).wait();
    const byCarol = await authorize({ trader: alice.address, amount: -amount, signer: carol });
    expect(
      (await f.send(alice, net.contracts.universalRouter, swap(amount, byCarol)))!.status,
    ).toBe(1);
    await (await hook.setAuthorizer(carol.address, false)).wait();
    const again = await authorize({ trader: alice.address, amount: -amount, signer: carol });
    expect(await revertName(alice, net.contracts.universalRouter, swap(amount, again))).toBe(
      'AuthorizationInvalid',
    );
  });

  it('swaps an exact output with the authorization of that output amount', async () => {
    await ready(alice);
    await require_([alice.address]);
    const amountOut = 30n * 10n ** 6n;
    const hookData = await authorize({ trader: alice.address, amount: amountOut });
    const data = encodeSwapCalldata({
      tradeType: 'EXACT_OUTPUT',
      poolKey: net.pool,
      zeroForOne: true,
      amountOut,
      amountInMaximum: 10n ** 17n,
      deadline: FAR,
      hookData: [hookData],
    });
    expect((await f.send(alice, net.contracts.universalRouter, data))!.status).toBe(1);
  });

  describe('two hops (WETH -> tUSDC -> tEURC)', () => {
    const path = () => ({
      currencyIn: net.tokens.WETH.address,
      currencyOut: net.tokens.tEURC.address,
      pools: [net.pool, usdcEurc],
    });
    const exactIn = (amountIn: bigint, hookData: string[]) =>
      encodeSwapCalldata({
        path: path(),
        amountIn,
        amountOutMinimum: 0n,
        deadline: FAR,
        hookData,
      });

    it('swaps over both pools on one authorization of the first hop naming the second', async () => {
      await ready(alice);
      await require_([alice.address]);
      const amountIn = 10n ** 16n;
      const first = await authorize({
        trader: alice.address,
        amount: -amountIn,
        nextPoolId: usdcEurc.id,
        nextAmountMax: 40n * 10n ** 6n,
      });
      const before = await f.balance(net.tokens.tEURC.address, alice.address);
      expect(
        (await f.send(alice, net.contracts.universalRouter, exactIn(amountIn, [first, '0x'])))!
          .status,
      ).toBe(1);
      expect(await f.balance(net.tokens.tEURC.address, alice.address)).toBeGreaterThan(before);
    });

    it('swaps an exact output over both pools (the router swaps the last pool first)', async () => {
      await ready(alice);
      await require_([alice.address]);
      const amountOut = 20n * 10n ** 6n;
      // V4Router walks an exact output backwards: the tEURC pool is met first, bound to amountOut.
      const first = await authorize({
        trader: alice.address,
        poolId: usdcEurc.id,
        zeroForOne: BigInt(net.tokens.tUSDC.address) < BigInt(net.tokens.tEURC.address),
        amount: amountOut,
        nextPoolId: net.pool.id,
        nextAmountMax: 25n * 10n ** 6n,
      });
      const data = encodeSwapCalldata({
        tradeType: 'EXACT_OUTPUT',
        path: path(),
        amountOut,
        amountInMaximum: 10n ** 17n,
        deadline: FAR,
        hookData: ['0x', first],
      });
      expect((await f.send(alice, net.contracts.universalRouter, data))!.status).toBe(1);
    });

    it('refuses the second pool without the first hop (AuthorizationRequired), and a first hop naming another pool (AuthorizationInvalid on the second)', async () => {
      await ready(alice);
      await require_([alice.address]);
      const amountIn = 10n ** 16n;
      const single = await authorize({ trader: alice.address, amount: -amountIn });
      expect(
        await revertName(alice, net.contracts.universalRouter, exactIn(amountIn, [single, '0x'])),
      ).toBe('AuthorizationRequired');
      const wrongNext = await authorize({
        trader: alice.address,
        amount: -amountIn,
        nextPoolId: net.pools.find((p) => p.fee === 500)!.id,
        nextAmountMax: 40n * 10n ** 6n,
      });
      expect(
        await revertName(
          alice,
          net.contracts.universalRouter,
          exactIn(amountIn, [wrongNext, '0x']),
        ),
      ).toBe('AuthorizationInvalid');
    });

    it('does not let the first hop open the second pool to more than its cap (two single swaps in one plan), nor a route whose first hop yields more than the cap', async () => {
      await ready(alice);
      await require_([alice.address]);
      const amountIn = 10n ** 16n;
      const first = await authorize({
        trader: alice.address,
        amount: -amountIn,
        nextPoolId: usdcEurc.id,
        nextAmountMax: 40n * 10n ** 6n,
      });
      const coder = AbiCoder.defaultAbiCoder();
      const single = (
        key: typeof net.pool,
        zeroForOne: boolean,
        amount: bigint,
        hookData: string,
      ) =>
        coder.encode(
          ['tuple(tuple(address,address,uint24,int24,address),bool,uint128,uint128,bytes)'],
          [[keyTuple(key), zeroForOne, amount, 0n, hookData]],
        );
      const usdcIs0 = BigInt(net.tokens.tUSDC.address) < BigInt(net.tokens.tEURC.address);
      // Hop 1 as authorized, then tUSDC -> tEURC for far more than hop 1 produced.
      const plan = coder.encode(
        ['bytes', 'bytes[]'],
        [
          '0x06060c0f',
          [
            single(net.pool, true, amountIn, first),
            single(usdcEurc, usdcIs0, 1_000n * 10n ** 6n, '0x'),
            coder.encode(['address', 'uint256'], [net.tokens.WETH.address, amountIn]),
            coder.encode(['address', 'uint256'], [net.tokens.tEURC.address, 0n]),
          ],
        ],
      );
      const data = UNIVERSAL_ROUTER.encodeFunctionData('execute', ['0x10', [plan], FAR]);
      expect(await revertName(alice, net.contracts.universalRouter, data)).toBe(
        'AuthorizationInvalid',
      );
      // 0.01 WETH yields ~30 tUSDC: a cap of 10 tUSDC refuses the route's second hop.
      const tight = await authorize({
        trader: alice.address,
        amount: -amountIn,
        nextPoolId: usdcEurc.id,
        nextAmountMax: 10n * 10n ** 6n,
      });
      const route = encodeSwapCalldata({
        path: {
          currencyIn: net.tokens.WETH.address,
          currencyOut: net.tokens.tEURC.address,
          pools: [net.pool, usdcEurc],
        },
        amountIn,
        amountOutMinimum: 0n,
        deadline: FAR,
        hookData: [tight, '0x'],
      });
      expect(await revertName(alice, net.contracts.universalRouter, route)).toBe(
        'AuthorizationInvalid',
      );
    });
  });

  it('mints and increases with authorizations bound to the liquidity; without one: AuthorizationRequired; exits need none', async () => {
    await f.approveThroughPermit2(alice, net.contracts.positionManager);
    await f.activate(alice.address);
    await require_([alice.address]);
    const pm = new Contract(net.contracts.positionManager, POSITION_MANAGER, f.provider);
    const liquidity = 10n ** 12n;
    const liq = (amount: bigint) =>
      authorize({ trader: alice.address, kind: TRADE_KIND.liquidity, zeroForOne: false, amount });
    const to = net.contracts.positionManager;
    expect(
      await revertName(alice, to, mintPositionWith(net.pool, liquidity, alice.address, '0x')),
    ).toBe('AuthorizationRequired');
    expect(
      await revertName(
        alice,
        to,
        mintPositionWith(net.pool, liquidity, alice.address, await liq(liquidity + 1n)),
      ),
    ).toBe('AuthorizationInvalid');
    const tokenId = (await pm.nextTokenId()) as bigint;
    expect(
      (await f.send(
        alice,
        to,
        mintPositionWith(net.pool, liquidity, alice.address, await liq(liquidity)),
      ))!.status,
    ).toBe(1);
    expect(
      await revertName(
        alice,
        to,
        increasePosition(net.pool, tokenId, liquidity, 10n ** 18n, 10n ** 10n),
      ),
    ).toBe('AuthorizationRequired');
    expect(
      (await f.send(
        alice,
        to,
        increasePosition(
          net.pool,
          tokenId,
          liquidity,
          10n ** 18n,
          10n ** 10n,
          await liq(liquidity),
        ),
      ))!.status,
    ).toBe(1);
    expect(await pm.getPositionLiquidity(tokenId)).toBe(2n * liquidity);
    // Exits: no authorization, no session.
    await (await f.registry.revoke(alice.address)).wait();
    expect(
      (await f.send(alice, to, decreaseAndTake(net.pool, tokenId, 2n * liquidity, alice.address)))!
        .status,
    ).toBe(1);
    expect(await pm.getPositionLiquidity(tokenId)).toBe(0n);
  });

  it('unflags a wallet: it swaps with its session alone again', async () => {
    await ready(alice);
    await require_([alice.address]);
    expect(await revertName(alice, net.contracts.universalRouter, swap(10n ** 16n))).toBe(
      'AuthorizationRequired',
    );
    await require_([alice.address], false);
    expect((await f.send(alice, net.contracts.universalRouter, swap(10n ** 16n)))!.status).toBe(1);
  });
});
