/**
 * The builders through the shared pipeline (DefiPipelineService + the swap and mint operations)
 * on the real devnet: one batched read, the quote checked against the V4Quoter itself, the
 * session gate, the spend plan and the shared build tail (chain-clock deadline, gas plan).
 */
import { AbiCoder } from 'ethers';
import { quoteExactInputSingle } from '../../contracts/test/uniswap-actions';
import { ERC20 } from '../../src/chain/abi/erc20';
import {
  DefiOperation,
  DefiPipelineService,
  OperationRequest,
} from '../../src/defi-builder/pipeline/defi-pipeline.service';
import { mintOperation } from '../../src/defi-builder/operations/mint.operation';
import { swapOperation } from '../../src/defi-builder/operations/swap.operation';
import { mintBody, useDefiSuite } from '../helpers/defi';

describe(`${DefiPipelineService.name} (devnet)`, () => {
  const suite = useDefiSuite();
  const context = (buildOnly = false) => ({
    buildOnly,
    principal: { method: 'jwt' as const, accountId: 'no-such-account', scopes: [] },
  });
  const pipeline = () => suite.t.app.get(DefiPipelineService);
  const swapBody = (user: string, over: object = {}) => ({
    tokenIn: suite.WETH,
    tokenOut: suite.TUSDC,
    amount: '100000000000000000',
    userAddress: user,
    ...over,
  });

  async function quoterQuote(zeroForOne: boolean, amount: bigint): Promise<bigint> {
    const raw = (await suite.chain.provider.call({
      to: suite.chain.deployment.contracts.v4Quoter,
      data: quoteExactInputSingle(suite.chain.deployment.pool, zeroForOne, amount),
    })) as string;
    return AbiCoder.defaultAbiCoder().decode(['uint256', 'uint256'], raw)[0] as bigint;
  }

  it('swap: derives zeroForOne, applies the default 50 bps to the quote and plans approvals, in one batch read', async () => {
    const user = suite.chain.wallets[1].address;
    await suite.chain.activate(user);
    const expectedQuote = await quoterQuote(true, 10n ** 17n);
    await suite.chain.resetRpcStats();
    const res = await pipeline().run(swapOperation, swapBody(user), context());
    // No estimateGas (approvals pending); the receipt's simulation runs the approvals, then the swap.
    expect(await suite.chain.rpcStats()).toEqual({ eth_call: 2 });
    expect(res).toMatchObject({
      zeroForOne: true,
      amountOut: expectedQuote.toString(),
      quotedAmountOut: expectedQuote.toString(),
      minAmountOut: ((expectedQuote * 9950n) / 10000n).toString(),
      slippageBps: 50,
      walletBound: false,
      gasSource: 'calibrated',
      transaction: { to: suite.chain.deployment.contracts.universalRouter, value: '0' },
    });
    expect(res.approvals.map((a) => a.kind)).toEqual(['erc20', 'permit2']);
    expect(res.simulation).toEqual({ ok: null, skipped: 'ALLOWANCE_INSUFFICIENT' });
    // The shared tail: the default deadline is 20 minutes of chain time.
    expect(res.deadline).toBe((await suite.chain.chainTime()) + 20 * 60);
  });

  it('swap: refuses with SESSION_NOT_ACTIVE unless buildOnly', async () => {
    const user = suite.chain.wallets[2].address;
    await expect(pipeline().run(swapOperation, swapBody(user), context())).rejects.toMatchObject({
      code: 'SESSION_NOT_ACTIVE',
      status: 412,
    });
    const reverse = swapBody(user, {
      tokenIn: suite.TUSDC,
      tokenOut: suite.WETH,
      amount: '1000000',
    });
    await expect(pipeline().run(swapOperation, reverse, context(true))).resolves.toMatchObject({
      zeroForOne: false,
      session: { active: false },
      simulation: { ok: null, skipped: 'SESSION_NOT_ACTIVE' },
    });
  });

  it('swap: a quote the pool cannot serve is BUILD_FAILED with the decoded reason', async () => {
    const user = suite.chain.wallets[2].address;
    const huge = swapBody(user, {
      tokenIn: suite.TUSDC,
      tokenOut: suite.WETH,
      amount: (10n ** 38n).toString(),
    });
    const error = await pipeline()
      .run(swapOperation, huge, context(true))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BUILD_FAILED', status: 400 });
    expect((error as Error).message).toMatch(/Could not quote .*: \w+/);
  });

  it('mint: liquidity at the pool price read in the same batch, expected amounts within the maxima', async () => {
    const user = suite.chain.wallets[3].address;
    await suite.chain.activate(user, 300); // ends before the default 20-minute deadline
    await suite.chain.resetRpcStats();
    const res = await pipeline().run(mintOperation, mintBody(suite, user), context());
    expect(await suite.chain.rpcStats()).toEqual({ eth_call: 2 }); // the batch, the simulation
    expect(res.sqrtPriceX96).toBe(suite.chain.deployment.pool.sqrtPriceX96);
    expect(BigInt(res.liquidity)).toBeGreaterThan(0n);
    expect(BigInt(res.expectedAmount0)).toBeLessThanOrEqual(10n ** 18n);
    expect(BigInt(res.expectedAmount1)).toBeLessThanOrEqual(3000n * 10n ** 6n);
    expect(res).toMatchObject({
      owner: user,
      transaction: { to: suite.chain.deployment.contracts.positionManager },
    });
    expect(res.approvals.map((a) => a.kind)).toEqual(['erc20', 'permit2', 'erc20', 'permit2']);
    expect(res.warnings.map((w) => w.code)).toEqual([
      'ALLOWANCE_INSUFFICIENT',
      'SESSION_EXPIRES_BEFORE_DEADLINE',
    ]);
  });

  it('an operation that declares no session (an exit) is built and simulated for a wallet without one', async () => {
    // The smallest such operation: its transaction needs no session on chain either.
    const exit: DefiOperation<OperationRequest, never, Record<string, never>, { kind: string }> = {
      name: 'collect',
      preflight: () => ({ session: 'none', tokens: {} }),
      build: (_request, pre) => ({
        to: pre.network.tokens.WETH.address,
        data: ERC20.encodeFunctionData('approve', [pre.network.contracts.permit2, 1n]),
        gas: 'swap',
        details: { kind: 'exit' },
      }),
    };
    const user = suite.chain.wallets[5].address;
    await suite.chain.resetRpcStats();
    const res = await pipeline().run(exit, { userAddress: user }, context());
    expect(res).toMatchObject({
      kind: 'exit',
      session: { active: false },
      simulation: { ok: true },
      gasSource: 'eth_estimateGas',
      approvals: [],
      warnings: [],
    });
    // The estimate and the receipt's simulation in one JSON-RPC batch.
    expect(await suite.chain.rpcStats()).toEqual({ eth_call: 2, eth_estimateGas: 1 });
  });
});
