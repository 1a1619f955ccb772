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
 * Arachnid's deterministic-deployment proxy (the CREATE2 factory Foundry uses): runtime code
 * from github.com/Arachnid/deterministic-deployment-proxy. Hardhat does not predeploy it.
 */
export const CREATE2_FACTORY_ADDRESS = '0x4e59b44847b379578588920cA78FbF26c0B4956C';
export const CREATE2_FACTORY_RUNTIME =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';

/** Pool (spec §1: WETH/tUSDC). 0.30 % fee tier with its usual tick spacing. */
export const POOL_FEE = 3000;
export const POOL_TICK_SPACING = 60;
/** Initial price: 1 WETH = 3000 tUSDC. */
export const INITIAL_TUSDC_PER_WETH = 3000n;

/** Per funded account. */
export const FUND_WETH_WEI = 100n * 10n ** 18n;
export const FUND_TUSDC_UNITS = 1_000_000n * 10n ** 6n;
/** Seeded full-range liquidity: deep enough that multi-WETH swaps stay far from NotEnoughLiquidity. */
export const SEED_WETH_WEI = 1_000n * 10n ** 18n;
export const SEED_TUSDC_UNITS = 3_000_000n * 10n ** 6n;

/** Permissions the ComplianceHook address must carry (v4-core Hooks.sol flags). */
export const HOOK_FLAGS = (1n << 11n) | (1n << 7n); // BEFORE_ADD_LIQUIDITY | BEFORE_SWAP
export const HOOK_FLAG_MASK = (1n << 14n) - 1n;
/** PositionManager constructor argument, as in Uniswap's deploy scripts. */
export const UNSUBSCRIBE_GAS_LIMIT = 300_000n;
