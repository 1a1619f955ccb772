/** Facts of our deployment that hold on every network (the devnet and a real one alike). */

/**
 * Arachnid's deterministic-deployment proxy, the CREATE2 deployer Foundry uses, present at this
 * address on Base Sepolia and most EVM chains (github.com/Arachnid/deterministic-deployment-proxy).
 * Its calldata is `salt ++ initCode`; it returns the new address and reverts when creation fails.
 */
export const CREATE2_DEPLOYER_ADDRESS = '0x4e59b44847b379578588920cA78FbF26c0B4956C';

/** Permissions the ComplianceHook address must carry (v4-core Hooks.sol flags). */
/** v2: BEFORE_ADD_LIQUIDITY | BEFORE_REMOVE_LIQUIDITY (exits: sanctions "freeze") | BEFORE_SWAP. */
export const HOOK_FLAGS_V2 = (1n << 11n) | (1n << 9n) | (1n << 7n);
/** v3 (issue 54, what `deploy` puts now): the same callbacks as v2 (no afterSwap: see ComplianceHookV3.sol). */
export const HOOK_FLAGS_V3 = HOOK_FLAGS_V2;
/** The flags of the hook version `deploy` deploys. */
export const HOOK_FLAGS = HOOK_FLAGS_V3;
/** The version `deploy` deploys (ComplianceHookV3.sol). */
export const CURRENT_HOOK_VERSION = 3;
export const HOOK_FLAG_MASK = (1n << 14n) - 1n;

/** `--initial-price`: whole tUSDC per WETH. */
export const DEFAULT_INITIAL_PRICE = '3000';
/** `--seed-weth`: the WETH side of the seeded full-range position (the tUSDC side follows the price). */
export const DEFAULT_SEED_WETH = '0.1';
/**
 * How long the seeder's session lasts (the hook gates liquidity additions): long enough for the
 * seeding transactions, short enough that the deployer does not stay a trader.
 */
export const SEED_SESSION_SECONDS = 3_600;

/** The test stablecoin as the network file names it (the file's key is always `tUSDC`). */
export const TEST_TOKEN = { symbol: 'tUSDC', name: 'Test USD Coin', decimals: 6 } as const;
