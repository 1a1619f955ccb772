/**
 * The relay's shape check on liquidity transactions in every pool of the market (issue 53 item 1):
 * the builders' mint, increase, decrease, collect and burn are accepted in any listed pool with
 * the compliance hook (exits in a deprecated pool too), and a pool or currencies outside the
 * market are refused as before.
 */
import { refusalOf } from '../../../test/helpers/api-error';
import { AbiCoder } from 'ethers';
import { marketNetwork } from '../../../test/helpers/market';
import { POSITION_MANAGER, V4_ACTION_PARAMS, V4_ACTION_PLAN } from '../../chain/abi/uniswap-v4';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { encodeMintCalldata } from '../encoding/liquidity-calldata';
import type { PoolKey } from '../encoding/pool-key';
import { poolIdOf } from '../encoding/pool-key';
import {
  encodeCollectCalldata,
  encodeDecreaseCalldata,
  encodeIncreaseCalldata,
} from '../encoding/position-calldata';
import { sdkPosition, sdkPool } from '../positions/position-math';
import { atPool } from '../positions/position-pools';
import { broadcastKind, TxKind } from './broadcast-targets';

const market = marketNetwork();
const { base, network, TWBTC, TEURC } = market;
const { wethUsdc, wethWbtc, usdcEurc100, usdcEurc500 } = market.keys;
const { positionManager } = base.contracts;
const WALLET = '0x1111111111111111111111111111111111111111';
const DEADLINE = 2_000_000_000n;
const abi = AbiCoder.defaultAbiCoder();

const mintData = (poolKey: PoolKey) =>
  encodeMintCalldata({
    poolKey,
    tickLower: -600,
    tickUpper: 600,
    liquidity: 10n ** 12n,
    amount0Max: 10n ** 18n,
    amount1Max: 10n ** 18n,
    owner: WALLET,
    deadline: DEADLINE,
  });

/** The builders' calls for a position in `poolKey`, encoded as the operations do (at its pool). */
function builtIn(on: NetworkDefinition, poolKey: PoolKey): Array<[string, string, TxKind]> {
  const at = atPool(on, { id: poolIdOf(poolKey), ...poolKey });
  const position = sdkPosition(sdkPool(at, { sqrtPriceX96: 2n ** 96n, tick: 0 }), {
    tickLower: -600,
    tickUpper: 600,
    liquidity: 10n ** 18n,
  });
  const deadline = Number(DEADLINE);
  const exit = (liquidity: bigint, burn: boolean) =>
    encodeDecreaseCalldata(position, { tokenId: 7n, deadline, slippageBps: 50, liquidity, burn });
  return [
    ['mint', mintData(poolKey), 'mint'],
    [
      'increase',
      encodeIncreaseCalldata(position, { tokenId: 7n, deadline, slippageBps: 50 }),
      'increase',
    ],
    ['decrease', exit(10n ** 17n, false), 'decrease'],
    ['burn', exit(10n ** 18n, true), 'decrease'],
    [
      'collect',
      encodeCollectCalldata(position, { tokenId: 7n, deadline, recipient: WALLET }),
      'collect',
    ],
  ];
}

const relayed = (on: NetworkDefinition, data: string) =>
  broadcastKind(on, { to: positionManager, data, from: WALLET, value: 0n });

const byte = (n: number) => n.toString(16).padStart(2, '0');
const params = (name: keyof typeof V4_ACTION_PARAMS, values: unknown[]) =>
  abi.encode(V4_ACTION_PARAMS[name], values);
const modifyLiquidities = (actions: number[], values: string[]) =>
  POSITION_MANAGER.encodeFunctionData('modifyLiquidities', [
    abi.encode(V4_ACTION_PLAN, [`0x${actions.map(byte).join('')}`, values]),
    DEADLINE,
  ]);
const sorted = (a: string, b: string) => (BigInt(a) < BigInt(b) ? [a, b] : [b, a]);
const [INCREASE_LIQUIDITY, DECREASE_LIQUIDITY, MINT_POSITION, SETTLE_PAIR, TAKE_PAIR, CLOSE] = [
  0x00, 0x01, 0x02, 0x0d, 0x11, 0x12,
];

describe('broadcastKind: liquidity in every pool of the market', () => {
  for (const [name, key] of Object.entries({ wethUsdc, wethWbtc, usdcEurc100, usdcEurc500 }))
    it.each(builtIn(network, key))(`accepts the built %s in the ${name} pool`, (_, data, kind) => {
      expect(relayed(network, data)).toBe(kind);
    });

  it('refuses a mint into a pool the market does not list, or without the compliance hook', () => {
    for (const key of [
      { ...usdcEurc500, fee: 3000, tickSpacing: 60 }, // the pair, another fee tier
      { ...usdcEurc500, hooks: '0x0000000000000000000000000000000000000000' },
      { ...usdcEurc500, hooks: `0x${'1'.repeat(36)}0A80` }, // a hook with the same flags
    ]) {
      const error = refusalOf(() => relayed(network, mintData(key)));
      expect(error.code).toBe('BROADCAST_TARGET_NOT_ALLOWED');
      expect(error.options.details).toEqual([
        expect.objectContaining({ action: 'MINT_POSITION', parameter: 'poolKey' }),
      ]);
    }
    // The tEURC pools are not on the network without them (the devnet's file before issue 42).
    expect(refusalOf(() => relayed(base, mintData(usdcEurc500))).code).toBe(
      'BROADCAST_TARGET_NOT_ALLOWED',
    );
  });

  it('refuses a mint that settles other currencies than its pool key names', () => {
    const mint = params('MINT_POSITION', [
      [usdcEurc500.currency0, usdcEurc500.currency1, 500, 10, usdcEurc500.hooks],
      -600,
      600,
      10n ** 12n,
      10n ** 18n,
      10n ** 18n,
      WALLET,
      '0x',
    ]);
    const data = modifyLiquidities(
      [MINT_POSITION, SETTLE_PAIR],
      [mint, params('SETTLE_PAIR', [wethUsdc.currency0, wethUsdc.currency1])],
    );
    expect(refusalOf(() => relayed(network, data)).options.details).toEqual([
      expect.objectContaining({ action: 'SETTLE_PAIR', parameter: 'currency0' }),
    ]);
  });

  it("refuses an increase or an exit whose currencies are no listed pool's", () => {
    const increase = (c0: string, c1: string) =>
      modifyLiquidities(
        [INCREASE_LIQUIDITY, CLOSE, CLOSE],
        [
          params('INCREASE_LIQUIDITY', [7n, 10n ** 12n, 10n ** 18n, 10n ** 18n, '0x']),
          params('CLOSE_CURRENCY', [c0]),
          params('CLOSE_CURRENCY', [c1]),
        ],
      );
    const exit = (c0: string, c1: string) =>
      modifyLiquidities(
        [DECREASE_LIQUIDITY, TAKE_PAIR],
        [
          params('DECREASE_LIQUIDITY', [7n, 0n, 0n, 0n, '0x']),
          params('TAKE_PAIR', [c0, c1, WALLET]),
        ],
      );
    const [eurc0, eurc1] = [usdcEurc500.currency0, usdcEurc500.currency1];
    expect(relayed(network, increase(eurc0, eurc1))).toBe('increase');
    expect(relayed(network, exit(eurc0, eurc1))).toBe('collect');
    // No pool of tWBTC and tEURC; the pair's currencies in the wrong order.
    for (const [c0, c1] of [sorted(TWBTC, TEURC), [eurc1, eurc0]]) {
      expect(refusalOf(() => relayed(network, increase(c0, c1))).options.details).toEqual([
        expect.objectContaining({ action: 'CLOSE_CURRENCY', parameter: 'currency' }),
      ]);
      expect(refusalOf(() => relayed(network, exit(c0, c1))).options.details).toEqual([
        expect.objectContaining({ action: 'TAKE_PAIR', parameter: 'currency' }),
      ]);
    }
  });

  it("exits, but does not increase, a position in a deprecated pool's pair", () => {
    const [c0, c1] = sorted(TWBTC, TEURC);
    const old = {
      currency0: c0,
      currency1: c1,
      fee: 3000,
      tickSpacing: 60,
      hooks: `0x${'2'.repeat(36)}0A80`,
    };
    const withDeprecated = Object.assign({}, network, {
      deprecatedPools: [{ id: poolIdOf(old), key: old, reason: 'hook v1' }],
    }) as NetworkDefinition;
    const [, increase, decrease, burn, collect] = builtIn(withDeprecated, old);
    for (const [, data, kind] of [decrease, burn, collect])
      expect(relayed(withDeprecated, data)).toBe(kind);
    expect(refusalOf(() => relayed(withDeprecated, increase[1])).options.details).toEqual([
      expect.objectContaining({ action: 'CLOSE_CURRENCY', parameter: 'currency' }),
    ]);
  });
});
