/**
 * `npm run bench:encoders`: microseconds per call of the pure encoders on the build hot path,
 * so a regression shows without a full load run. Where a hand-written encoder replaced a library
 * (issue 17), the library reference (src/defi-builder/encoding/library-encoders.ts, ethers'
 * getAddress) is timed in the same run, next to it; the specs assert both give the same bytes.
 */
import { AbiCoder, getAddress } from 'ethers';
import devnetFile from '../src/config/networks/devnet.json';
import { MULTICALL3 } from '../src/chain/abi/multicall3';
import { NetworkFile, resolveNetworkFile } from '../src/chain/network/network-definition';
import { encodeAggregate3 } from '../src/chain/encoding/multicall';
import {
  decodeWalletState,
  walletReadCalls,
  WalletState,
} from '../src/chain/encoding/wallet-reads';
import { checksumAddress } from '../src/common/address/checksum-address';
import { isEvmAddress } from '../src/common/validation/is-evm-address';
import { CALIBRATED_GAS } from '../src/defi-builder/pipeline/gas';
import { planApprovals } from '../src/defi-builder/encoding/approvals';
import {
  mintCalldataByPlanner,
  planApprovalsByInterface,
  swapCalldataByPlanner,
  withPermitBatchByLibrary,
} from '../src/defi-builder/encoding/library-encoders';
import {
  encodeMintCalldata,
  MintCalldataInput,
} from '../src/defi-builder/encoding/liquidity-calldata';
import { quoteExactInputRead } from '../src/defi-builder/encoding/market-reads';
import { withPermitBatch } from '../src/defi-builder/encoding/permit-batch-calldata';
import { PermitBatch } from '../src/defi-builder/encoding/permit2-typed-data';
import { poolIdOf } from '../src/defi-builder/encoding/pool-key';
import { quotePrices } from '../src/defi-builder/encoding/price-impact';
import { encodeSwapCalldata, SwapCalldataInput } from '../src/defi-builder/encoding/swap-calldata';
import { planSpend } from '../src/defi-builder/preflight/spend-plan';
import { refusedPayoutReason } from '../src/defi-builder/pipeline/payout-recipients';
import { refusedPayoutReasonByChecksum } from '../src/defi-builder/pipeline/payout-recipients-by-checksum';
import { resolveTokens } from '../src/defi-builder/token-registry';

/** Microseconds per call of `fn` over `n` calls, after a warm-up. */
function measure(n: number, fn: () => unknown): number {
  for (let i = 0; i < Math.min(200, n); i += 1) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i += 1) fn();
  return Number(process.hrtime.bigint() - start) / 1e3 / n;
}

const us = (v: number) => v.toFixed(v < 10 ? 2 : 1).padStart(9);

function time(label: string, n: number, fn: () => unknown): void {
  process.stdout.write(`${label.padEnd(52)} ${''.padStart(9)} ${us(measure(n, fn))} us\n`);
}

/** The library reference and the replacement, same inputs, same run. */
function compare(label: string, n: number, reference: () => unknown, now: () => unknown): void {
  const before = measure(Math.max(200, Math.round(n / 20)), reference);
  const after = measure(n, now);
  process.stdout.write(
    `${label.padEnd(52)} ${us(before)} ${us(after)} us  x${(before / after).toFixed(0)}\n`,
  );
}

const network = resolveNetworkFile(devnetFile as NetworkFile);
const poolKey = network.pool;
const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const WETH = network.tokens.WETH.address;
const TUSDC = network.tokens.tUSDC.address;

/** The swap's batch: the wallet reads plus the quote, as PreflightService.run sends it. */
const batchCalls = () => [
  ...walletReadCalls(network, wallet, ['WETH', 'tUSDC']),
  quoteExactInputRead(network, true, 10n ** 15n).call,
];
const calls = batchCalls();
const results = calls.map(() => ({
  success: true,
  returnData: AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256', 'uint256'], [1n, 2n, 3n]),
}));

const exactIn: SwapCalldataInput = {
  poolKey,
  zeroForOne: true,
  amountIn: 10n ** 15n,
  amountOutMinimum: 2_900_000n,
  deadline: 2_000_000_000n,
};
const swaps: Array<[string, SwapCalldataInput]> = [
  ['exact input, ERC-20 both sides', exactIn],
  [
    'exact output, ERC-20 both sides',
    {
      poolKey,
      zeroForOne: false,
      tradeType: 'EXACT_OUTPUT',
      amountOut: 10n ** 15n,
      amountInMaximum: 3_100_000n,
      deadline: 2_000_000_000n,
    },
  ],
  ['ETH in (wrap)', { ...exactIn, ethIn: true }],
  [
    'ETH out (unwrap), exact input',
    { ...exactIn, zeroForOne: false, amountIn: 3_000_000n, ethOut: true },
  ],
  [
    'exact input + signed permit',
    {
      ...exactIn,
      permit: {
        permit: {
          details: {
            token: WETH,
            amount: '1000000000000000',
            expiration: '2000000000',
            nonce: '0',
          },
          spender: network.contracts.universalRouter,
          sigDeadline: '2000000000',
        },
        signature: `0x${'1b'.repeat(65)}`,
      },
    },
  ],
];

const mint: MintCalldataInput = {
  poolKey,
  tickLower: -600,
  tickUpper: 600,
  liquidity: 123_456_789_000n,
  amount0Max: 10n ** 17n,
  amount1Max: 300_000_000n,
  owner: wallet,
  deadline: 2_000_000_000n,
};
const mintData = encodeMintCalldata(mint);
const batch: PermitBatch = {
  details: [WETH, TUSDC].map((token) => ({
    token,
    amount: '1000000000000000000',
    expiration: '2000000000',
    nonce: '0',
  })),
  spender: network.contracts.positionManager,
  sigDeadline: '2000000000',
};
const signature = `0x${'1b'.repeat(65)}`;

/** A wallet with no approvals at all: both steps of both tokens are planned each time. */
const noApprovals: WalletState = decodeWalletState(
  calls.map((_, i) => ({
    success: true,
    returnData:
      i === 0
        ? AbiCoder.defaultAbiCoder().encode(['uint256'], [1_800_000_000n])
        : AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256', 'uint256'], [0n, 0n, 0n]),
  })),
  ['WETH', 'tUSDC'],
);
const needs = [WETH, TUSDC].map((token) => ({
  token,
  amount: 10n ** 15n,
  erc20ToPermit2: 0n,
  permit2: { amount: 0n, expiration: 0, nonce: 0 },
}));
const approvalContext = {
  permit2: network.contracts.permit2,
  spender: network.contracts.universalRouter,
  now: 1_800_000_000,
  gas: CALIBRATED_GAS,
};

process.stdout.write(`${'µs per call'.padEnd(52)} ${'library'.padStart(9)} ${'now'.padStart(9)}\n`);
compare(
  'checksum (getAddress -> checksumAddress)',
  200_000,
  () => getAddress(wallet),
  () => checksumAddress(wallet),
);
compare(
  'isEvmAddress (mixed case)',
  200_000,
  () => getAddress(wallet) === wallet,
  () => isEvmAddress(wallet),
);
for (const [label, input] of swaps) {
  compare(
    `encodeSwapCalldata: ${label}`,
    50_000,
    () => swapCalldataByPlanner(input),
    () => encodeSwapCalldata(input),
  );
}
compare(
  'encodeMintCalldata',
  50_000,
  () => mintCalldataByPlanner(mint),
  () => encodeMintCalldata(mint),
);
compare(
  'withPermitBatch (mint + 2-token permit)',
  50_000,
  () => withPermitBatchByLibrary(mintData, wallet, batch, signature),
  () => withPermitBatch(mintData, wallet, batch, signature),
);
compare(
  'planApprovals (2 tokens x 2 steps)',
  50_000,
  () => planApprovalsByInterface(needs, approvalContext),
  () => planApprovals(needs, approvalContext),
);
compare(
  'encodeAggregate3 (the swap batch, 13 calls)',
  20_000,
  () =>
    MULTICALL3.encodeFunctionData('aggregate3', [
      calls.map((c) => [c.target, c.allowFailure, c.callData]),
    ]),
  () => encodeAggregate3(calls),
);
compare(
  'payout rule (userAddress, a wallet; issue 44)',
  200_000,
  () => refusedPayoutReasonByChecksum(network, wallet),
  () => refusedPayoutReason(network, wallet),
);

process.stdout.write('\nthe rest of the pure build path (now)\n');
time('poolIdOf', 200_000, () => poolIdOf(poolKey));
time('resolveTokens (tokenIn, tokenOut)', 100_000, () =>
  resolveTokens(network, { tokenIn: WETH, tokenOut: TUSDC }, { native: true }),
);
time('wallet reads + quote calls (swap)', 20_000, batchCalls);
time('decodeWalletState', 50_000, () => decodeWalletState(results, ['WETH', 'tUSDC']));
time('planSpend (swap, no approvals yet)', 5_000, () =>
  planSpend(network, noApprovals, {
    use: 'swap',
    needs: [{ symbol: 'WETH', amount: 10n ** 15n }],
    gas: CALIBRATED_GAS.swap,
    offerPermit: 'single',
  }),
);
time('quotePrices (quote endpoint, sdk-core)', 5_000, () =>
  quotePrices({
    chainId: network.chainId,
    tokenIn: network.tokens.WETH,
    tokenOut: network.tokens.tUSDC,
    zeroForOne: true,
    sqrtPriceX96: 4339505179874779662909440n,
    amountIn: 10n ** 15n,
    amountOut: 2_990_000n,
  }),
);
