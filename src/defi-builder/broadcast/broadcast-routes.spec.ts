/**
 * The relay's shape check on multi-hop swaps (issue 42): exactly the two-hop paths the swap
 * builder writes over listed pools with our hook, and nothing else.
 */
import { AbiCoder } from 'ethers';
import { marketNetwork } from '../../../test/helpers/market';
import { UNIVERSAL_ROUTER, V4_ACTION_PARAMS, V4_ACTION_PLAN } from '../../chain/abi/uniswap-v4';
import { ApiError } from '../../common/errors/api-error';
import type { PoolKey } from '../encoding/pool-key';
import { encodeSwapCalldata, SwapCalldataInput, SwapPath } from '../encoding/swap-calldata';
import { broadcastKind, TargetCall } from './broadcast-targets';

const market = marketNetwork();
const { base, network, TWBTC, TEURC } = market;
const { wethUsdc, wethWbtc, usdcEurc100, usdcEurc500 } = market.keys;
const { WETH, tUSDC } = base.tokens;
const { universalRouter } = base.contracts;

const abi = AbiCoder.defaultAbiCoder();
const WALLET = '0x1111111111111111111111111111111111111111';
const DEADLINE = 2_000_000_000n;
const SIGNATURE = `0x${'11'.repeat(65)}`;

const path = (currencyIn: string, currencyOut: string, ...pools: PoolKey[]): SwapPath => ({
  currencyIn,
  currencyOut,
  pools,
});
const PATHS: Array<[string, SwapPath, 'in' | 'out' | 'none']> = [
  ['tWBTC -> WETH -> tUSDC', path(TWBTC, tUSDC.address, wethWbtc, wethUsdc), 'none'],
  ['tUSDC -> WETH -> tWBTC', path(tUSDC.address, TWBTC, wethUsdc, wethWbtc), 'none'],
  ['ETH -> tUSDC -> tEURC (500)', path(WETH.address, TEURC, wethUsdc, usdcEurc500), 'in'],
  ['tEURC (100) -> tUSDC -> ETH', path(TEURC, WETH.address, usdcEurc100, wethUsdc), 'out'],
];

type Undated<T> = T extends unknown ? Omit<T, 'deadline'> : never;
function call(input: Undated<SwapCalldataInput>, value = 0n): TargetCall {
  return {
    to: universalRouter,
    data: encodeSwapCalldata({ ...input, deadline: DEADLINE } as SwapCalldataInput),
    value,
    from: WALLET,
  };
}

function built(): Array<[string, TargetCall]> {
  const out: Array<[string, TargetCall]> = [];
  for (const [name, swapPath, eth] of PATHS)
    for (const exactOut of [false, true])
      for (const permit of [false, true]) {
        if (permit && eth === 'in') continue;
        const amounts = exactOut
          ? { tradeType: 'EXACT_OUTPUT' as const, amountOut: 1000n, amountInMaximum: 1100n }
          : { amountIn: 1000n, amountOutMinimum: 900n };
        out.push([
          `${name} ${exactOut ? 'EXACT_OUTPUT' : 'EXACT_INPUT'}${permit ? ' + permit' : ''}`,
          call(
            {
              ...amounts,
              path: swapPath,
              ethIn: eth === 'in',
              ethOut: eth === 'out',
              ...(permit && {
                permit: {
                  permit: {
                    details: {
                      token: swapPath.currencyIn,
                      amount: '1000',
                      expiration: '2000000000',
                      nonce: '0',
                    },
                    spender: universalRouter,
                    sigDeadline: '2000000000',
                  },
                  signature: SIGNATURE,
                },
              }),
            },
            eth === 'in' ? (exactOut ? 1100n : 1000n) : 0n,
          ),
        ]);
      }
  return out;
}

function refusal(target: TargetCall): ApiError {
  try {
    broadcastKind(network, target);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('accepted');
}

const pathKey = (intermediate: string, key: PoolKey, hookData = '0x') => [
  intermediate,
  key.fee,
  key.tickSpacing,
  key.hooks,
  hookData,
];
/** execute(V4_SWAP) of a hand-made SWAP_EXACT_IN, settled from the user, taken by the user. */
function exactInCall(
  currencyIn: string,
  keys: unknown[][],
  currencyOut: string,
  hopPrices: bigint[] = [],
): TargetCall {
  const swap = abi.encode(V4_ACTION_PARAMS.SWAP_EXACT_IN, [
    [currencyIn, keys, hopPrices, 1000n, 900n],
  ]);
  const actions = abi.encode(V4_ACTION_PLAN, [
    '0x070c0f',
    [
      swap,
      abi.encode(V4_ACTION_PARAMS.SETTLE_ALL, [currencyIn, 1000n]),
      abi.encode(V4_ACTION_PARAMS.TAKE_ALL, [currencyOut, 900n]),
    ],
  ]);
  return {
    to: universalRouter,
    data: UNIVERSAL_ROUTER.encodeFunctionData('execute', ['0x10', [actions], DEADLINE]),
    value: 0n,
    from: WALLET,
  };
}

describe('broadcastKind: multi-hop swaps', () => {
  it.each(built())('accepts the built two-hop swap %s', (_, target) => {
    expect(broadcastKind(network, target)).toBe('swap');
  });

  it('accepts a single-pool swap in any listed pool', () => {
    const target = call({
      poolKey: usdcEurc100,
      zeroForOne: true,
      amountIn: 1n,
      amountOutMinimum: 0n,
    });
    expect(broadcastKind(network, target)).toBe('swap');
  });

  const refused: Array<[string, () => TargetCall, Record<string, string>]> = [
    [
      'a path through an unlisted fee tier',
      () =>
        call({
          path: path(TWBTC, tUSDC.address, { ...wethWbtc, fee: 500 }, wethUsdc),
          amountIn: 1n,
          amountOutMinimum: 0n,
        }),
      { action: 'SWAP_EXACT_IN', parameter: 'poolKey' },
    ],
    [
      'a path through a pool without the compliance hook',
      () =>
        call({
          path: path(TWBTC, tUSDC.address, wethWbtc, { ...wethUsdc, hooks: WALLET }),
          tradeType: 'EXACT_OUTPUT',
          amountOut: 1n,
          amountInMaximum: 2n,
        }),
      { action: 'SWAP_EXACT_OUT', parameter: 'poolKey' },
    ],
    [
      'a three-hop path',
      () =>
        call({
          path: path(TWBTC, TEURC, wethWbtc, wethUsdc, usdcEurc100),
          amountIn: 1n,
          amountOutMinimum: 0n,
        }),
      { action: 'SWAP_EXACT_IN', parameter: 'path' },
    ],
    [
      'a one-hop path (one pool is the _SINGLE action)',
      () => exactInCall(TWBTC, [pathKey(WETH.address, wethWbtc)], WETH.address),
      { action: 'SWAP_EXACT_IN', parameter: 'path' },
    ],
    [
      'a path key carrying hookData',
      () =>
        exactInCall(
          TWBTC,
          [pathKey(WETH.address, wethWbtc), pathKey(tUSDC.address, wethUsdc, '0x01')],
          tUSDC.address,
        ),
      { action: 'SWAP_EXACT_IN', parameter: 'hookData' },
    ],
    [
      'per-hop price floors (the service sends none)',
      () =>
        exactInCall(
          TWBTC,
          [pathKey(WETH.address, wethWbtc), pathKey(tUSDC.address, wethUsdc)],
          tUSDC.address,
          [1n, 1n],
        ),
      { action: 'SWAP_EXACT_IN', parameter: 'minHopPriceX36' },
    ],
    [
      'a path back to where it starts',
      () =>
        exactInCall(
          TEURC,
          [pathKey(tUSDC.address, usdcEurc100), pathKey(TEURC, usdcEurc500)],
          TEURC,
        ),
      { action: 'SWAP_EXACT_IN', parameter: 'path' },
    ],
    [
      'a TAKE_ALL of another currency than the path ends in',
      () =>
        exactInCall(
          TWBTC,
          [pathKey(WETH.address, wethWbtc), pathKey(tUSDC.address, wethUsdc)],
          WETH.address,
        ),
      { action: 'TAKE_ALL', parameter: 'currency' },
    ],
    [
      'a SETTLE_ALL of another currency than the path starts from',
      () => {
        const target = exactInCall(
          TWBTC,
          [pathKey(WETH.address, wethWbtc), pathKey(tUSDC.address, wethUsdc)],
          tUSDC.address,
        );
        const [, [actions]] = UNIVERSAL_ROUTER.decodeFunctionData('execute', target.data);
        const [codes, params] = abi.decode(V4_ACTION_PLAN, actions as string);
        const edited = [...(params as string[])];
        edited[1] = abi.encode(V4_ACTION_PARAMS.SETTLE_ALL, [WETH.address, 1000n]);
        return {
          ...target,
          data: UNIVERSAL_ROUTER.encodeFunctionData('execute', [
            '0x10',
            [abi.encode(V4_ACTION_PLAN, [codes, edited])],
            DEADLINE,
          ]),
        };
      },
      { action: 'SETTLE_ALL', parameter: 'currency' },
    ],
  ];

  it.each(refused)('refuses %s', (_, target, part) => {
    const error = refusal(target());
    expect(error.code).toBe('BROADCAST_TARGET_NOT_ALLOWED');
    expect(error.options.details?.[0]).toMatchObject(part);
  });

  it('refuses a two-hop path on the network without those pools', () => {
    const [, target] = built()[0];
    expect(() => broadcastKind(base, target)).toThrow(ApiError);
  });
});
