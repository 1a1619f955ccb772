import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const ADDRESS = {
  pattern: '^0x[0-9a-fA-F]{40}$',
  example: '0x4200000000000000000000000000000000000006',
};

class ChainInfo {
  @ApiProperty({ type: 'integer', example: 84532 }) chainId: number;
  @ApiProperty({ example: 'devnet' }) name: string;
  @ApiPropertyOptional({
    description:
      'JSON-RPC URL of the embedded devnet (only when the service runs it). With ethers, use new JsonRpcProvider(rpcUrl, chainId, { cacheTimeout: -1 }): the devnet mines every transaction at once.',
    example: 'http://127.0.0.1:8545',
  })
  rpcUrl?: string;
}

class TokenEntry {
  @ApiProperty({
    description:
      "The token's symbol in this network's file (WETH and tUSDC always; the devnet adds tWBTC and tEURC); ETH: native ether",
    example: 'WETH',
  })
  symbol: string;
  @ApiProperty({ example: 'Wrapped Ether' }) name: string;
  @ApiProperty(ADDRESS) address: string;
  @ApiProperty({ type: 'integer', example: 18 }) decimals: number;
  @ApiPropertyOptional({
    description:
      'true for native ETH (the zero address): swaps and quotes only, traded as WETH through the pools that hold WETH',
  })
  native?: boolean;
}

class PoolKey {
  @ApiProperty({ ...ADDRESS, description: 'token0 (the lower address)' }) currency0: string;
  @ApiProperty({ ...ADDRESS, description: 'token1' }) currency1: string;
  @ApiProperty({ type: 'integer', example: 3000, description: 'Fee in hundredths of a bip' })
  fee: number;
  @ApiProperty({ type: 'integer', example: 60 }) tickSpacing: number;
  @ApiProperty({ ...ADDRESS, description: 'The ComplianceHook' }) hooks: string;
}

class PoolInfo {
  @ApiProperty({ type: PoolKey }) key: PoolKey;
  @ApiProperty({ description: 'keccak256 of the ABI-encoded pool key', example: '0x…' })
  poolId: string;
  @ApiProperty({ type: 'integer', example: -887272 }) minTick: number;
  @ApiProperty({ type: 'integer', example: 887272 }) maxTick: number;
}

class MarketPoolEntry extends PoolKey {
  @ApiProperty({
    description: 'The v4 PoolId: keccak256 of the ABI-encoded key',
    example: `0x${'ab'.repeat(32)}`,
  })
  id: string;
  @ApiProperty({
    type: [String],
    description: 'Symbols of currency0 and currency1',
    example: ['WETH', 'tUSDC'],
  })
  symbols: string[];
  @ApiProperty({
    description:
      "true for the spec's WETH/tUSDC pool (the `pool` above); liquidity requests naming a pair with one pool need no poolId",
  })
  default: boolean;
}

class Contracts {
  @ApiProperty(ADDRESS) poolManager: string;
  @ApiProperty(ADDRESS) positionManager: string;
  @ApiPropertyOptional(ADDRESS) positionDescriptor?: string;
  @ApiProperty(ADDRESS) universalRouter: string;
  @ApiProperty(ADDRESS) stateView: string;
  @ApiProperty(ADDRESS) v4Quoter: string;
  @ApiProperty(ADDRESS) permit2: string;
  @ApiProperty(ADDRESS) multicall3: string;
  @ApiProperty(ADDRESS) complianceRegistry: string;
  @ApiProperty(ADDRESS) complianceHook: string;
}

class DeprecatedEntry {
  @ApiProperty({ enum: ['token', 'hook'] }) kind: string;
  @ApiProperty() label: string;
  @ApiProperty(ADDRESS) address: string;
  @ApiProperty({ ...ADDRESS, description: 'What to use instead' }) replacedBy: string;
  @ApiProperty({ example: 'tUSDC' }) replacedByLabel: string;
  @ApiProperty() reason: string;
}

class DeprecatedPoolEntry {
  @ApiProperty({ description: 'The v4 PoolId', example: `0x${'ab'.repeat(32)}` }) poolId: string;
  @ApiProperty({ type: PoolKey }) key: PoolKey;
  @ApiProperty() reason: string;
}

class BuilderDefaults {
  @ApiProperty({ type: 'integer', example: 50 }) slippageBps: number;
  @ApiProperty({ type: 'integer', example: 1200 }) deadlineSeconds: number;
}

class GasInfo {
  @ApiProperty({
    description:
      'Calibrated gas per operation (decimal strings), used when eth_estimateGas cannot run',
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { swap: '210000', mint: '420000' },
  })
  calibrated: Record<string, string>;
  @ApiProperty({ type: 'integer' }) calibratedBufferPercent: number;
  @ApiProperty({ type: 'integer' }) estimateBufferPercent: number;
}

/** GET /api/v1/defi/config. */
export class DefiConfigResponse {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ type: ChainInfo }) chain: ChainInfo;
  @ApiProperty({ type: [TokenEntry], description: 'The supported tokens (whitelist)' })
  tokens: TokenEntry[];
  @ApiProperty({ type: PoolInfo, description: "The spec's default WETH/tUSDC pool" })
  pool: PoolInfo;
  @ApiProperty({
    type: [MarketPoolEntry],
    description:
      'Every pool of the market, the default WETH/tUSDC pool first; all carry the current ComplianceHook',
  })
  pools: MarketPoolEntry[];
  @ApiProperty({ type: Contracts }) contracts: Contracts;
  @ApiProperty({ type: [DeprecatedEntry], description: 'Refused items and their replacements' })
  deprecated: DeprecatedEntry[];
  @ApiProperty({
    type: [DeprecatedPoolEntry],
    description:
      'Pools of deprecated ComplianceHook versions: their positions can be exited (decrease, collect, burn); any other build naming them is 400 POOL_DEPRECATED',
  })
  deprecatedPools: DeprecatedPoolEntry[];
  @ApiProperty({
    type: [String],
    example: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
    description:
      "Issue 54: the keys whose per-trade authorizations the current ComplianceHook (v3) accepts: a build for a wallet of an account enforcing its trade policy on chain carries one in the hook's hookData, signed by one of these (EIP-712 TradeAuthorization, domain ComplianceHook / 3). Empty when the network's hook is older than v3.",
  })
  authorizers: string[];
  @ApiProperty({ type: BuilderDefaults }) defaults: BuilderDefaults;
  @ApiProperty({ type: GasInfo }) gas: GasInfo;
}
