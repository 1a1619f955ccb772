/**
 * A made-up market for the routing unit specs: four tokens in ascending address order (so
 * currency0 < currency1 reads at a glance) and a pool builder.
 */
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
