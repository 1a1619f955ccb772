/**
 * A made-up market for the routing unit specs: four tokens in ascending address order (so
 * currency0 < currency1 reads at a glance) and a pool builder.
 */
import { getAddress } from 'ethers';
import devnetFile from '../../src/config/networks/devnet.json';
import { NetworkFile, resolveNetworkFile } from '../../src/chain/network/network-definition';
import type { NetworkDefinition } from '../../src/chain/network/network.types';
import { PoolKey, poolIdOf } from '../../src/defi-builder/encoding/pool-key';
import type { RoutablePool } from '../../src/defi-builder/routing/routes';

export const A = '0x1000000000000000000000000000000000000001'; // tUSDC
export const B = '0x2000000000000000000000000000000000000002'; // WETH
export const C = '0x3000000000000000000000000000000000000003'; // tWBTC
export const D = '0x4000000000000000000000000000000000000004'; // tEURC
export const HOOK = '0x0000000000000000000000000000000000000A80';

export const marketPool = (
  id: string,
  currency0: string,
  currency1: string,
  fee: number,
): RoutablePool => ({ id, currency0, currency1, fee, tickSpacing: 60, hooks: HOOK });

/**
 * The devnet network with the devnet's market (design §9): WETH/tUSDC, WETH/tWBTC and tUSDC/tEURC
 * in fee tiers 100 and 500, every pool with the compliance hook; tWBTC and tEURC at made-up
 * addresses.
 */
export function marketNetwork() {
  const base = resolveNetworkFile(devnetFile as NetworkFile);
  const { WETH, tUSDC } = base.tokens;
  const TWBTC = getAddress('0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a');
  const TEURC = getAddress('0xe0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0');
  const keyOf = (a: string, b: string, fee: number, tickSpacing: number): PoolKey => {
    const [currency0, currency1] = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
    return { currency0, currency1, fee, tickSpacing, hooks: base.contracts.complianceHook };
  };
  const keys = {
    wethUsdc: base.pool,
    wethWbtc: keyOf(WETH.address, TWBTC, 3000, 60),
    usdcEurc100: keyOf(tUSDC.address, TEURC, 100, 1),
    usdcEurc500: keyOf(tUSDC.address, TEURC, 500, 10),
  };
  const network = Object.assign({}, base, {
    pools: Object.values(keys).map((key) => Object.assign({ id: poolIdOf(key) }, key)),
    tokens: Object.assign({}, base.tokens, {
      tWBTC: { symbol: 'tWBTC', name: 'Test WBTC', address: TWBTC, decimals: 8 },
      tEURC: { symbol: 'tEURC', name: 'Test EURC', address: TEURC, decimals: 6 },
    }),
  }) as NetworkDefinition;
  return { base, network, keys, WETH: WETH.address, TUSDC: tUSDC.address, TWBTC, TEURC };
}
