/** GET /api/v1/defi/config: everything an integrator needs to call us and to check our calldata. */
import { Inject, Injectable } from '@nestjs/common';
import { ChainConnection } from '../chain/chain-connection';
import type { NetworkDefinition } from '../chain/network/network.types';
import { SerializedJson } from '../common/http/serialized-json';
import { poolKeyOf } from './encoding/pool-key';
import { DEFI_CHAIN, DefiChain } from './chain/defi-chain.port';

import { NATIVE_ETH } from './token-registry';
import { MAX_TICK, MIN_TICK } from './encoding/liquidity-calldata';
import { DEFAULT_DEADLINE_SECONDS } from './pipeline/defi-pipeline.service';
import { CALIBRATED_GAS, CALIBRATED_BUFFER_PERCENT, ESTIMATE_BUFFER_PERCENT } from './pipeline/gas';
import { DEFAULT_SLIPPAGE_BPS } from './operations/swap.operation';

@Injectable()
export class DefiConfigService {
  /**
   * The answer as sent, for the network definition and the authorizers it was made from (both
   * fixed once the app runs; the authorizers are part of the key so that a change to where they
   * come from cannot serve a stale list).
   */
  private serialized?: {
    network: NetworkDefinition;
    authorizers: string[] | undefined;
    json: SerializedJson;
  };

  constructor(
    @Inject(DEFI_CHAIN) private readonly chain: DefiChain,
    private readonly connection: ChainConnection,
  ) {}

  /** config() serialized once: every protected request pays for auth and limits, not for this. */
  configJson(): SerializedJson {
    const network = this.chain.network();
    if (this.serialized?.network !== network || this.serialized.authorizers !== network.authorizers)
      this.serialized = {
        network,
        authorizers: network.authorizers,
        json: SerializedJson.of(this.config()),
      };
    return this.serialized.json;
  }

  config() {
    const n = this.chain.network();
    const symbolAt = (address: string) =>
      Object.values(n.tokens).find((t) => t.address === address)!.symbol;
    return {
      chain: {
        chainId: n.chainId,
        name: n.name,
        // The embedded devnet's RPC is ours to publish; a configured CHAIN_RPC_URL may hold a key.
        ...(this.connection.devnet ? { rpcUrl: this.connection.rpcUrl } : {}),
      },
      tokens: [
        ...Object.values(n.tokens).map((t) => ({
          symbol: t.symbol,
          name: t.name,
          address: t.address,
          decimals: t.decimals,
        })),
        // Swaps and quotes only: traded through the WETH pool (wrapped/unwrapped by the router).
        { symbol: 'ETH', name: 'Ether (native)', address: NATIVE_ETH, decimals: 18, native: true },
      ],
      pool: { key: poolKeyOf(n.pool), poolId: n.pool.id, minTick: MIN_TICK, maxTick: MAX_TICK },
      pools: n.pools.map((p) => ({
        id: p.id,
        currency0: p.currency0,
        currency1: p.currency1,
        fee: p.fee,
        tickSpacing: p.tickSpacing,
        hooks: p.hooks,
        symbols: [symbolAt(p.currency0), symbolAt(p.currency1)],
        default: p === n.pool,
      })),
      contracts: n.contracts,
      deprecated: n.deprecated,
      // Pools of deprecated hook versions: exits only (builds into them are 400 POOL_DEPRECATED).
      deprecatedPools: n.deprecatedPools.map((p) => ({
        poolId: p.id,
        key: p.key,
        reason: p.reason,
      })),
      authorizers: n.authorizers ?? [],
      defaults: { slippageBps: DEFAULT_SLIPPAGE_BPS, deadlineSeconds: DEFAULT_DEADLINE_SECONDS },
      gas: {
        calibrated: Object.fromEntries(
          Object.entries(CALIBRATED_GAS).map(([k, v]) => [k, v.toString()]),
        ),
        calibratedBufferPercent: Number(CALIBRATED_BUFFER_PERCENT),
        estimateBufferPercent: Number(ESTIMATE_BUFFER_PERCENT),
      },
    };
  }
}
