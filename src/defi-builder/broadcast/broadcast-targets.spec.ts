import { refusalOf } from '../../../test/helpers/api-error';
import { AbiCoder, Transaction, Wallet } from 'ethers';
import devnetFile from '../../config/networks/devnet.json';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import { decodeRevert, KNOWN_ERRORS } from '../../chain/encoding/revert-decoder';
import { erc20ApproveData, MAX_UINT256, permit2ApproveData } from '../encoding/approvals';
import { broadcastKind, kindOf, TargetCall, TxKind } from './broadcast-targets';
import { Position } from '@uniswap/v4-sdk';
import {
  POSITION_MANAGER,
  UNIVERSAL_ROUTER,
  V4_ACTION_PARAMS,
  V4_ACTION_PLAN,
} from '../../chain/abi/uniswap-v4';
import { encodeMintCalldata } from '../encoding/liquidity-calldata';
import { withPermitBatch } from '../encoding/permit-batch-calldata';
import {
  encodeCollectCalldata,
  encodeDecreaseCalldata,
  encodeIncreaseCalldata,
} from '../encoding/position-calldata';
import { encodeSwapCalldata } from '../encoding/swap-calldata';
import {
  encodeAuthorizationHookData,
  ZERO_POOL_ID,
} from '../../chain/encoding/trade-authorization';
import { sdkPool, sdkPosition } from '../positions/position-math';
import { classifyRefusal } from './node-refusals';
import { explainRevert, simulationRefusal } from './revert-explanation';
import { decodeSignedTransaction, signedTransactionProblem } from './signed-transaction';

const network = resolveNetworkFile(devnetFile as NetworkFile);
const { WETH, tUSDC } = network.tokens;
const { permit2, universalRouter, positionManager, complianceHook } = network.contracts;
const abi = AbiCoder.defaultAbiCoder();

const ZERO = '0x0000000000000000000000000000000000000000';
const WALLET = '0x1111111111111111111111111111111111111111';
const OTHER = '0x2222222222222222222222222222222222222222';
const ADDRESS_THIS = '0x0000000000000000000000000000000000000002';
const SIGNATURE = `0x${'11'.repeat(65)}`;
const DEADLINE = 2_000_000_000n;
const pool = network.pool;
const wethIs0 = pool.currency0.toLowerCase() === WETH.address.toLowerCase();

const permitSingle = (token: string, spender: string) => ({
  permit: {
    details: { token, amount: '1000', expiration: '2000000000', nonce: '0' },
    spender,
    sigDeadline: '2000000000',
  },
  signature: SIGNATURE,
});
const permitBatch = (spender: string, tokens = [pool.currency0, pool.currency1]) => ({
  details: tokens.map((token) => ({ token, amount: '1000', expiration: '2000000000', nonce: '0' })),
  spender,
  sigDeadline: '2000000000',
});

/** Every swap the builder writes: both trade types, ETH in/out/none, with and without a permit. */
function builtSwaps(): Array<[string, TargetCall]> {
  const out: Array<[string, TargetCall]> = [];
  for (const tradeType of ['EXACT_INPUT', 'EXACT_OUTPUT'] as const)
    for (const eth of ['none', 'in', 'out'] as const)
      for (const permit of [false, true]) {
        const zeroForOne = eth === 'in' ? wethIs0 : eth === 'out' ? !wethIs0 : true;
        const tokenIn = zeroForOne ? pool.currency0 : pool.currency1;
        const amounts =
          tradeType === 'EXACT_INPUT'
            ? { tradeType, amountIn: 1000n, amountOutMinimum: 900n }
            : { tradeType, amountOut: 1000n, amountInMaximum: 1100n };
        const data = encodeSwapCalldata({
          ...amounts,
          poolKey: pool,
          zeroForOne,
          deadline: DEADLINE,
          ethIn: eth === 'in',
          ethOut: eth === 'out',
          ...(permit && eth !== 'in' && { permit: permitSingle(tokenIn, universalRouter) }),
        });
        const value = eth === 'in' ? (tradeType === 'EXACT_INPUT' ? 1000n : 1100n) : 0n;
        out.push([
          `${tradeType} eth ${eth}${permit ? ' + permit' : ''}`,
          { to: universalRouter, data, value, from: WALLET },
        ]);
      }
  return out;
}

function position(): Position {
  const sdk = sdkPool(network, { sqrtPriceX96: 2n ** 96n, tick: 0 });
  return sdkPosition(sdk, { tickLower: -600, tickUpper: 600, liquidity: 10n ** 18n });
}

function mintData(owner = WALLET, poolKey = pool): string {
  return encodeMintCalldata({
    poolKey,
    tickLower: -600,
    tickUpper: 600,
    liquidity: 10n ** 12n,
    amount0Max: 10n ** 18n,
    amount1Max: 10n ** 18n,
    owner,
    deadline: DEADLINE,
  });
}

/** The builders' PositionManager calls, with the kind each must get. */
function builtPositionCalls(): Array<[string, string, TxKind]> {
  const deadline = Number(DEADLINE);
  return [
    ['mint', mintData(), 'mint'],
    [
      'mint with a permitBatch',
      withPermitBatch(mintData(), WALLET, permitBatch(positionManager), SIGNATURE),
      'mint',
    ],
    [
      'increase',
      encodeIncreaseCalldata(position(), { tokenId: 7n, deadline, slippageBps: 50 }),
      'increase',
    ],
    [
      'decrease',
      encodeDecreaseCalldata(position(), {
        tokenId: 7n,
        deadline,
        slippageBps: 50,
        liquidity: 10n ** 17n,
        burn: false,
      }),
      'decrease',
    ],
    [
      'burn',
      encodeDecreaseCalldata(position(), {
        tokenId: 7n,
        deadline,
        slippageBps: 50,
        liquidity: 10n ** 18n,
        burn: true,
      }),
      'decrease',
    ],
    [
      'collect',
      encodeCollectCalldata(position(), { tokenId: 7n, deadline, recipient: OTHER }),
      'collect',
    ],
  ];
}

const byte = (n: number) => n.toString(16).padStart(2, '0');
const plan = (actions: number[], params: string[]) =>
  abi.encode(V4_ACTION_PLAN, [`0x${actions.map(byte).join('')}`, params]);
const execute = (commands: number[], inputs: string[], deadline = DEADLINE) =>
  EXECUTE_IFACE.encodeFunctionData('execute', [
    `0x${commands.map(byte).join('')}`,
    inputs,
    deadline,
  ]);
const modifyLiquidities = (actions: number[], params: string[]) =>
  POSITION_MANAGER.encodeFunctionData('modifyLiquidities', [plan(actions, params), DEADLINE]);
const params = (name: keyof typeof V4_ACTION_PARAMS, values: unknown[]) =>
  abi.encode(V4_ACTION_PARAMS[name], values);
const poolTuple = (key = pool) => [
  key.currency0,
  key.currency1,
  key.fee,
  key.tickSpacing,
  key.hooks,
];
const [tokenIn, tokenOut] = [pool.currency0, pool.currency1];
const swapIn = (key = pool) =>
  params('SWAP_EXACT_IN_SINGLE', [[poolTuple(key), true, 1000n, 900n, '0x']]);

/** The execute calldata `data` with its commands and inputs rewritten by `edit`. */
function editExecute(data: string, edit: (commands: number[], inputs: string[]) => void): string {
  const [commands, inputs, deadline] = EXECUTE_IFACE.decodeFunctionData('execute', data);
  const codes = ((commands as string).slice(2).match(/../g) ?? []).map((b) => parseInt(b, 16));
  const list = [...(inputs as string[])];
  edit(codes, list);
  return execute(codes, list, deadline as bigint);
}
const EXECUTE_IFACE = UNIVERSAL_ROUTER;

describe('broadcastKind: what the builders produce', () => {
  it.each(builtSwaps())('accepts the built swap %s', (_, call) => {
    expect(broadcastKind(network, call)).toBe('swap');
  });

  it.each(builtPositionCalls())('accepts the built %s', (_, data, kind) => {
    expect(broadcastKind(network, { to: positionManager, data, from: WALLET, value: 0n })).toBe(
      kind,
    );
  });

  it('accepts the built approvals', () => {
    expect(
      broadcastKind(network, { to: WETH.address, data: erc20ApproveData(permit2, MAX_UINT256) }),
    ).toBe('approval');
    for (const spender of [universalRouter, positionManager])
      expect(
        broadcastKind(network, {
          to: permit2,
          data: permit2ApproveData(tUSDC.address, spender, 1n, 2),
        }),
      ).toBe('permit2-approval');
  });
});

describe('broadcastKind: hook v3 authorizations in hookData (issue 54)', () => {
  const authorization = encodeAuthorizationHookData(
    { nonce: 5n, deadline: DEADLINE, nextPoolId: ZERO_POOL_ID, nextAmountMax: 0n },
    Wallet.createRandom().signingKey.sign(`0x${'ab'.repeat(32)}`).serialized,
  );
  const swapWith = (hookData: string) => ({
    to: universalRouter,
    from: WALLET,
    value: 0n,
    data: encodeSwapCalldata({
      poolKey: pool,
      zeroForOne: true,
      amountIn: 1000n,
      amountOutMinimum: 900n,
      deadline: DEADLINE,
      hookData: [hookData],
    }),
  });
  const mintWith = (hookData: string) => ({
    to: positionManager,
    from: WALLET,
    value: 0n,
    data: encodeMintCalldata({
      poolKey: pool,
      tickLower: -600,
      tickUpper: 600,
      liquidity: 10n ** 12n,
      amount0Max: 10n ** 18n,
      amount1Max: 10n ** 18n,
      owner: WALLET,
      deadline: DEADLINE,
      hookData,
    }),
  });
  const increaseWith = (hookData: string) => ({
    to: positionManager,
    from: WALLET,
    value: 0n,
    data: encodeIncreaseCalldata(position(), {
      tokenId: 7n,
      deadline: Number(DEADLINE),
      slippageBps: 50,
      hookData,
    }),
  });

  it('accepts a well-formed authorization on a swap, a mint and an increase into a v3 pool', () => {
    expect(network.hookVersion).toBe(3);
    expect(broadcastKind(network, swapWith(authorization))).toBe('swap');
    expect(broadcastKind(network, mintWith(authorization))).toBe('mint');
    expect(broadcastKind(network, increaseWith(authorization))).toBe('increase');
  });

  it('refuses other hookData on v3, and any hookData on a network whose hook is older', () => {
    for (const bad of ['0x01', `${authorization}00`, authorization.slice(0, -2)])
      expect(
        refusalOf(() => broadcastKind(network, swapWith(bad))).options.details?.[0],
      ).toMatchObject({ action: 'SWAP_EXACT_IN_SINGLE', parameter: 'hookData' });
    const v2 = { ...network, hookVersion: 2 };
    expect(
      refusalOf(() => broadcastKind(v2, mintWith(authorization))).options.details?.[0],
    ).toMatchObject({ action: 'MINT_POSITION', parameter: 'hookData' });
  });
});

describe('broadcastKind: no open relay', () => {
  const swap = builtSwaps()[0][1];
  const ethInSwap = builtSwaps().find(([name]) => name === 'EXACT_INPUT eth in')![1];
  const ethInExactOut = builtSwaps().find(([name]) => name === 'EXACT_OUTPUT eth in')![1];
  const refusals: Array<[string, TargetCall, Record<string, unknown>]> = [
    // UniversalRouter
    [
      'a TRANSFER command',
      {
        to: universalRouter,
        data: execute([0x05], [abi.encode(['address', 'address', 'uint256'], [ZERO, OTHER, 1n])]),
        value: 1n,
      },
      { command: 'TRANSFER' },
    ],
    [
      'a SWEEP command after the swap',
      {
        to: universalRouter,
        data: editExecute(swap.data, (c, i) => {
          c.push(0x04);
          i.push(abi.encode(['address', 'address', 'uint256'], [tokenOut, OTHER, 0n]));
        }),
      },
      { command: 'SWEEP' },
    ],
    [
      'the allow-revert flag on V4_SWAP',
      { to: universalRouter, data: editExecute(swap.data, (c) => (c[c.length - 1] |= 0x80)) },
      { command: 'V4_SWAP', parameter: 'commands' },
    ],
    [
      'a V4_SWAP on a pool without the compliance hook',
      {
        to: universalRouter,
        data: encodeSwapCalldata({
          poolKey: { ...pool, hooks: ZERO },
          zeroForOne: true,
          amountIn: 1n,
          amountOutMinimum: 0n,
          deadline: DEADLINE,
        }),
      },
      { action: 'SWAP_EXACT_IN_SINGLE', parameter: 'poolKey' },
    ],
    [
      'a V4_SWAP on another fee tier of the same tokens and hook',
      {
        to: universalRouter,
        data: encodeSwapCalldata({
          poolKey: { ...pool, fee: 500 },
          zeroForOne: true,
          amountIn: 1n,
          amountOutMinimum: 0n,
          deadline: DEADLINE,
        }),
      },
      { action: 'SWAP_EXACT_IN_SINGLE', parameter: 'poolKey' },
    ],
    [
      'a TAKE to another address',
      {
        to: universalRouter,
        data: execute(
          [0x10],
          [
            plan(
              [6, 12, 14],
              [
                swapIn(),
                params('SETTLE_ALL', [tokenIn, 1000n]),
                params('TAKE', [tokenOut, OTHER, 0n]),
              ],
            ),
          ],
        ),
      },
      { action: 'TAKE', parameter: 'recipient' },
    ],
    [
      'a TAKE_PORTION action',
      {
        to: universalRouter,
        data: execute(
          [0x10],
          [
            plan(
              [6, 12, 16],
              [
                swapIn(),
                params('SETTLE_ALL', [tokenIn, 1000n]),
                abi.encode(['address', 'address', 'uint256'], [tokenOut, OTHER, 100n]),
              ],
            ),
          ],
        ),
      },
      { action: 'TAKE_PORTION' },
    ],
    [
      'a PERMIT2_PERMIT naming another spender',
      {
        to: universalRouter,
        data: encodeSwapCalldata({
          poolKey: pool,
          zeroForOne: true,
          amountIn: 1n,
          amountOutMinimum: 0n,
          deadline: DEADLINE,
          permit: permitSingle(tokenIn, OTHER),
        }),
      },
      { command: 'PERMIT2_PERMIT', parameter: 'spender' },
    ],
    [
      'a PERMIT2_PERMIT of an unsupported token',
      {
        to: universalRouter,
        data: encodeSwapCalldata({
          poolKey: pool,
          zeroForOne: true,
          amountIn: 1n,
          amountOutMinimum: 0n,
          deadline: DEADLINE,
          permit: permitSingle(complianceHook, universalRouter),
        }),
      },
      { command: 'PERMIT2_PERMIT', parameter: 'token' },
    ],
    ['ETH sent to a swap without WRAP_ETH', { ...swap, value: 1n }, { parameter: 'value' }],
    [
      'ETH other than the wrapped amount',
      { ...ethInSwap, value: ethInSwap.value! + 1n },
      { command: 'WRAP_ETH', parameter: 'value' },
    ],
    [
      'a WRAP_ETH of more than the swap spends (WETH left in the router)',
      {
        ...ethInSwap,
        value: ethInSwap.value! + 1n,
        data: editExecute(ethInSwap.data, (c, i) => {
          i[c.indexOf(0x0b)] = abi.encode(
            ['address', 'uint256'],
            [ADDRESS_THIS, ethInSwap.value! + 1n],
          );
        }),
      },
      { action: 'SETTLE', parameter: 'amount' },
    ],
    [
      'an ETH exact-output swap without its refund',
      {
        ...ethInExactOut,
        data: editExecute(ethInExactOut.data, (c, i) => {
          i.splice(c.indexOf(0x0c), 1);
          c.splice(c.indexOf(0x0c), 1);
        }),
      },
      { command: 'UNWRAP_WETH' },
    ],
    ['bytes appended to the execute calldata', { ...swap, data: `${swap.data}00` }, {}],
    ['commands with empty inputs', { to: universalRouter, data: execute([0x10], []) }, {}],
    // PositionManager
    [
      'TAKE_PAIR to ADDRESS_THIS (fees left in the PositionManager)',
      {
        to: positionManager,
        data: modifyLiquidities(
          [1, 17],
          [
            params('DECREASE_LIQUIDITY', [7n, 0n, 0n, 0n, '0x']),
            params('TAKE_PAIR', [pool.currency0, pool.currency1, ADDRESS_THIS]),
          ],
        ),
      },
      { action: 'TAKE_PAIR', parameter: 'recipient' },
    ],
    [
      'a SWEEP action',
      {
        to: positionManager,
        data: modifyLiquidities(
          [1, 17, 20],
          [
            params('DECREASE_LIQUIDITY', [7n, 0n, 0n, 0n, '0x']),
            params('TAKE_PAIR', [pool.currency0, pool.currency1, WALLET]),
            abi.encode(['address', 'address'], [pool.currency0, OTHER]),
          ],
        ),
      },
      { action: 'SWEEP' },
    ],
    [
      'a TAKE action to anyone',
      {
        to: positionManager,
        data: modifyLiquidities(
          [1, 14],
          [
            params('DECREASE_LIQUIDITY', [7n, 5n, 0n, 0n, '0x']),
            params('TAKE', [pool.currency0, OTHER, 0n]),
          ],
        ),
      },
      { action: 'TAKE' },
    ],
    [
      'a mint on a pool without the hook',
      { to: positionManager, data: mintData(WALLET, { ...pool, hooks: ZERO }) },
      { action: 'MINT_POSITION', parameter: 'poolKey' },
    ],
    [
      'a mint to the PositionManager',
      { to: positionManager, data: mintData(positionManager) },
      { action: 'MINT_POSITION', parameter: 'owner' },
    ],
    [
      'ETH sent to the PositionManager',
      { to: positionManager, data: mintData(), value: 1n },
      { parameter: 'value' },
    ],
    [
      'a permitBatch for another owner',
      {
        to: positionManager,
        from: WALLET,
        data: withPermitBatch(mintData(), OTHER, permitBatch(positionManager), SIGNATURE),
      },
      { action: 'permitBatch', parameter: 'owner' },
    ],
    [
      'a permitBatch to another spender',
      {
        to: positionManager,
        from: WALLET,
        data: withPermitBatch(mintData(), WALLET, permitBatch(OTHER), SIGNATURE),
      },
      { action: 'permitBatch', parameter: 'spender' },
    ],
    [
      'a permitBatch of an unsupported token',
      {
        to: positionManager,
        from: WALLET,
        data: withPermitBatch(
          mintData(),
          WALLET,
          permitBatch(positionManager, [complianceHook]),
          SIGNATURE,
        ),
      },
      { action: 'permitBatch', parameter: 'token' },
    ],
    [
      'a multicall of two modifyLiquidities',
      {
        to: positionManager,
        data: POSITION_MANAGER.encodeFunctionData('multicall', [[mintData(), mintData()]]),
      },
      { parameter: 'multicall' },
    ],
    [
      'hookData on a decrease',
      {
        to: positionManager,
        data: modifyLiquidities(
          [1, 17],
          [
            params('DECREASE_LIQUIDITY', [7n, 5n, 0n, 0n, '0x01']),
            params('TAKE_PAIR', [pool.currency0, pool.currency1, WALLET]),
          ],
        ),
      },
      { action: 'DECREASE_LIQUIDITY', parameter: 'hookData' },
    ],
    [
      'an action plan with params missing',
      { to: positionManager, data: modifyLiquidities([2, 13], []) },
      {},
    ],
    // Approvals and the rest
    [
      'ETH sent with a token approve',
      { to: WETH.address, data: erc20ApproveData(permit2, 1n), value: 1n },
      { parameter: 'value' },
    ],
    [
      'ETH sent with a Permit2 approve',
      { to: permit2, data: permit2ApproveData(WETH.address, universalRouter, 1n, 2), value: 1n },
      { parameter: 'value' },
    ],
    ['another contract', { to: complianceHook, data: '0x12345678' }, { parameter: 'to' }],
    ['contract creation', { to: null, data: '0x6000' }, {}],
    [
      'approve to another spender',
      { to: WETH.address, data: erc20ApproveData(universalRouter, 1n) },
      { parameter: 'spender' },
    ],
    ['token transfer', { to: WETH.address, data: `0xa9059cbb${'00'.repeat(64)}` }, {}],
    [
      'Permit2 approve of another token',
      { to: permit2, data: permit2ApproveData(complianceHook, universalRouter, 1n, 2) },
      { parameter: 'token' },
    ],
    [
      'Permit2 approve to another spender',
      { to: permit2, data: permit2ApproveData(WETH.address, complianceHook, 1n, 2) },
      { parameter: 'spender' },
    ],
    ['a router call without calldata', { to: universalRouter, data: '0x' }, {}],
    [
      'a dirty address word',
      { to: permit2, data: `0x87517c45${'01'.repeat(32)}${'00'.repeat(96)}` },
      {},
    ],
  ];

  it.each(refusals)('refuses %s with BROADCAST_TARGET_NOT_ALLOWED naming what', (_, call, part) => {
    const error = refusalOf(() => broadcastKind(network, call));
    expect(error.code).toBe('BROADCAST_TARGET_NOT_ALLOWED');
    expect(error.options.details?.[0]).toMatchObject({
      to: call.to,
      field: 'signedTransaction',
      ...part,
    });
    expect(kindOf(network, call)).toBeNull();
  });

  it('refuses a permitBatch when the sender is unknown', () => {
    const data = withPermitBatch(mintData(), WALLET, permitBatch(positionManager), SIGNATURE);
    expect(kindOf(network, { to: positionManager, data })).toBeNull();
  });
});

describe('decodeSignedTransaction', () => {
  const wallet = Wallet.createRandom();
  const base = {
    type: 2,
    chainId: 84532,
    nonce: 3,
    to: WETH.address,
    data: erc20ApproveData(permit2, 1n),
    gasLimit: 60_000n,
    maxFeePerGas: 2n,
    maxPriorityFeePerGas: 1n,
  };

  it('recovers the sender and hashes the bytes as sent', async () => {
    const raw = await wallet.signTransaction(base);
    const tx = decodeSignedTransaction(raw.toUpperCase().replace('0X', '0x'), 84532);
    expect(tx).toMatchObject({
      from: wallet.address,
      to: WETH.address,
      nonce: 3,
      maxFeePerGas: 2n,
    });
    expect(tx.hash).toBe(Transaction.from(raw).hash);
    expect(signedTransactionProblem(raw)).toBeNull();
  });

  it.each([
    ['is not signed', async () => Transaction.from(base).unsignedSerialized, 'is not signed'],
    ['is for another chain', () => wallet.signTransaction({ ...base, chainId: 1 }), 'chain 1'],
    ['does not decode', async () => '0xdeadbeef', 'decode'],
  ])('refuses a transaction that %s', async (_, make, reason) => {
    const raw = await make();
    const error = refusalOf(() => decodeSignedTransaction(raw, 84532));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.message).toContain(reason);
  });
});

describe('node refusals and revert explanations', () => {
  it.each([
    ['nonce too low: next nonce 5, tx nonce 4', 'nonce'],
    ['Nonce too high. Expected nonce to be 2 but got 9.', 'nonce'],
    ['replacement transaction underpriced', 'replacement'],
    ['transaction underpriced', 'fee'],
    [
      'Transaction maxFeePerGas (1) is too low for the next block, which has a baseFeePerGas of 7',
      'fee',
    ],
    ['max fee per gas less than block base fee', 'fee'],
    ['insufficient funds for gas * price + value', 'funds'],
    ['intrinsic gas too low', 'gas-limit'],
    ['something else', 'other'],
  ])('"%s" is a %s refusal', (message, kind) => {
    expect(classifyRefusal(message)).toBe(kind);
  });

  it("reads the hook's session refusal through the PoolManager's WrappedError", () => {
    const trader = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const inner = KNOWN_ERRORS.encodeErrorResult('SessionNotActive', [trader]);
    const wrapped = KNOWN_ERRORS.encodeErrorResult('WrappedError', [
      complianceHook,
      '0x12345678',
      inner,
      KNOWN_ERRORS.encodeErrorResult('HookCallFailed', []),
    ]);
    const explained = explainRevert(decodeRevert(wrapped));
    expect(explained.code).toBe('SESSION_NOT_ACTIVE');
    expect(explained.message).toContain(trader);
    const refusal = simulationRefusal(decodeRevert(wrapped));
    expect(refusal).toMatchObject({ code: 'SESSION_NOT_ACTIVE', phase: 'broadcast', status: 412 });
  });

  it('names slippage and deadlines, and keeps the raw reason of anything else', () => {
    const slippage = KNOWN_ERRORS.encodeErrorResult('V4TooMuchRequested', [1n, 2n]);
    expect(explainRevert(decodeRevert(slippage)).code).toBe('SLIPPAGE_EXCEEDED');
    const deadline = KNOWN_ERRORS.encodeErrorResult('DeadlinePassed', [5n]);
    expect(simulationRefusal(decodeRevert(deadline))).toMatchObject({
      code: 'SIMULATION_REVERTED',
      phase: 'broadcast',
      options: { extra: { revertCode: 'DEADLINE_PASSED' } },
    });
    const other = KNOWN_ERRORS.encodeErrorResult('Error', ['nope']);
    expect(explainRevert(decodeRevert(other))).toMatchObject({ code: 'REVERTED' });
    expect(explainRevert(decodeRevert(other)).message).toContain('nope');
  });
});
