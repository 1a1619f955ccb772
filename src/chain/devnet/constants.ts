import type { MarketFilePool, TokenAmounts } from '../network/network.types';

/** Fixed facts of the embedded devnet (design §4): same chain id as Base Sepolia. */
export const DEVNET_CHAIN_ID = 84532;
export const DEVNET_HARDFORK = 'cancun';
export const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk';
/** Accounts 0..9 are funded for users/tests; account 0 also deploys and attests (design §4). */
export const FUNDED_ACCOUNT_COUNT = 10;
/** Index of the liquidity seeder: outside the funded range so funded wallets start without a session. */
export const SEEDER_ACCOUNT_INDEX = 10;
export const DEVNET_ACCOUNT_COUNT = 12;
export const GENESIS_BALANCE_WEI = 10_000n * 10n ** 18n;

export const PERMIT2_ADDRESS = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11';
/**
 * The canonical CREATE2 deployer (Arachnid's deterministic-deployment proxy) is installed as on any
 * chain: fund its one-time signer, then broadcast its presigned pre-EIP-155 transaction (gas price
 * 100 gwei x 100,000 gas). Source: github.com/Arachnid/deterministic-deployment-proxy README.
 */
export const CREATE2_DEPLOYER_SIGNER = '0x3fAB184622Dc19b6109349B94811493BF2a45362';
export const CREATE2_DEPLOYER_FUNDING_WEI = 10n ** 16n;
export const CREATE2_DEPLOYER_TRANSACTION =
  '0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222';

/** Pool (spec §1: WETH/tUSDC). 0.30 % fee tier with its usual tick spacing. */
export const POOL_FEE = 3000;
export const POOL_TICK_SPACING = 60;
/** Initial price: 1 WETH = 3000 tUSDC. */
export const INITIAL_TUSDC_PER_WETH = 3000n;

/**
 * The devnet's market beyond the spec's pair (issue 42): a test wrapped BTC (8 decimals) and a test
 * euro stablecoin (6 decimals), deployed by `deploy` as TestToken (CREATE2 salt keccak256(symbol)).
 */
export const MARKET_TOKENS = {
  tWBTC: { symbol: 'tWBTC', name: 'Test Wrapped BTC', decimals: 8 },
  tEURC: { symbol: 'tEURC', name: 'Test Euro Coin', decimals: 6 },
} as const;

/** 1 tEURC = 1.08 tUSDC, in both tUSDC/tEURC fee tiers. */
const EURC_PRICE = { tEURC: '1', tUSDC: '1.08' };

/**
 * The devnet's pools, all with the current ComplianceHook: the spec's WETH/tUSDC (the only one of
 * its pair), WETH/tWBTC, and tUSDC/tEURC in two fee tiers. So tWBTC/tUSDC has no direct pool but a
 * two-hop route through WETH, and tWBTC/tEURC no route within two hops. Prices: 1 WETH = 3000
 * tUSDC = 0.05 tWBTC (BTC at 60,000), 1 tEURC = 1.08 tUSDC; seeds: full-range positions deep
 * enough for tests to trade several units.
 */
export const MARKET_POOLS: MarketFilePool[] = [
  pool('WETH', 'tUSDC', [3000, 60], { WETH: '1', tUSDC: '3000' }),
  pool('WETH', 'tWBTC', [3000, 60], { WETH: '20', tWBTC: '1' }, { WETH: '200', tWBTC: '10' }),
  pool('tUSDC', 'tEURC', [100, 1], EURC_PRICE, { tUSDC: '1080000', tEURC: '1000000' }),
  pool('tUSDC', 'tEURC', [500, 10], EURC_PRICE, { tUSDC: '540000', tEURC: '500000' }),
];

/** A devnet pool of the current hook, by its tokens' symbols, [fee, tick spacing] and prices. */
function pool(
  currency0: string,
  currency1: string,
  [fee, tickSpacing]: [number, number],
  initialPrice: TokenAmounts,
  seed?: TokenAmounts,
): MarketFilePool {
  return {
    id: null,
    currency0,
    currency1,
    fee,
    tickSpacing,
    initialPrice,
    ...(seed ? { seed } : {}),
  };
}

/** Per funded account. */
export const FUND_WETH_WEI = 100n * 10n ** 18n;
export const FUND_TUSDC_UNITS = 1_000_000n * 10n ** 6n;
/** Per funded account, in units: 100 tWBTC, 1,000,000 tEURC. */
export const FUND_MARKET_UNITS: Record<keyof typeof MARKET_TOKENS, bigint> = {
  tWBTC: 100n * 10n ** 8n,
  tEURC: 1_000_000n * 10n ** 6n,
};
/**
 * Seeded full-range liquidity (whole WETH / whole tUSDC): deep enough that multi-WETH swaps stay
 * far from NotEnoughLiquidity. The seeder's session outlives any test run.
 */
export const SEED_WETH = '1000';
export const SEED_TUSDC = '3000000';
export const SEED_SESSION_SECONDS = 2 ** 40;

/** PositionManager constructor argument, as in Uniswap's deploy scripts. */
export const UNSUBSCRIBE_GAS_LIMIT = 300_000n;

/**
 * Ethereum Attestation Service: OP-Stack predeploys (Base, Base Sepolia), placed at the same
 * addresses on the devnet so the twin chain looks like Base to the service. Source: the OP Stack
 * predeploy list (specs.optimism.io, "Predeploys": SchemaRegistry 0x4200...0020, EAS 0x4200...0021).
 */
export const SCHEMA_REGISTRY_PREDEPLOY = '0x4200000000000000000000000000000000000020';
export const EAS_PREDEPLOY = '0x4200000000000000000000000000000000000021';
/**
 * The devnet's test attester (the stand-in for Coinbase's): it deploys the indexer, registers the
 * two schemas and signs `npm run cli -- attest`. Outside the funded range and apart from the
 * deployer, so the deployment's addresses and nonces are unchanged.
 */
export const TEST_ATTESTER_ACCOUNT_INDEX = 11;
/** Shaped like Coinbase Verifications' schemas (coinbase/verifications README). */
export const VERIFIED_ACCOUNT_SCHEMA = 'bool verifiedAccount';
export const VERIFIED_COUNTRY_SCHEMA = 'string verifiedCountry';
/** Storage slots copied with a predeploy's code (EAS keeps its EIP-712 name in a low slot). */
export const PREDEPLOY_STORAGE_SLOTS = 16;
