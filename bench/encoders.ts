/**
 * `npm run bench:encoders`: microseconds per call of the pure encoders on the build hot path,
 * so a regression shows without a full load run.
 */
import { AbiCoder, getAddress } from 'ethers';
import devnetFile from '../src/config/networks/devnet.json';
import { NetworkFile, resolveNetworkFile } from '../src/chain/network/network-definition';
import { encodeAggregate3 } from '../src/chain/encoding/multicall';
import { decodeWalletState, walletReadCalls } from '../src/chain/encoding/wallet-reads';
import { quoteExactInputRead } from '../src/defi-builder/encoding/market-reads';
import { encodeSwapCalldata } from '../src/defi-builder/encoding/swap-calldata';
import { poolIdOf } from '../src/defi-builder/encoding/pool-key';

function time(label: string, n: number, fn: () => unknown): void {
  for (let i = 0; i < Math.min(200, n); i += 1) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i += 1) fn();
  const us = Number(process.hrtime.bigint() - start) / 1e3 / n;
  process.stdout.write(`${label.padEnd(40)} ${us.toFixed(1).padStart(8)} us\n`);
}

const network = resolveNetworkFile(devnetFile as NetworkFile);
const poolKey = network.pool;
const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** The swap's batch: the wallet reads plus the quote, as PreflightService.run sends it. */
const batchCalls = () => [
  ...walletReadCalls(network, wallet),
  quoteExactInputRead(network, true, 10n ** 15n).call,
];
const calls = batchCalls();
const results = calls.map(() => ({
  success: true,
  returnData: AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256', 'uint256'], [1n, 2n, 3n]),
}));

time('getAddress (checksum)', 20_000, () => getAddress(wallet.toLowerCase()));
time('poolIdOf', 5_000, () => poolIdOf(poolKey));
time('wallet reads + quote calls (swap)', 2_000, batchCalls);
time('encodeAggregate3 (that batch)', 5_000, () => encodeAggregate3(calls));
time('decodeWalletState', 5_000, () => decodeWalletState(results));
time('encodeSwapCalldata', 2_000, () =>
  encodeSwapCalldata({
    poolKey,
    zeroForOne: true,
    amountIn: 10n ** 15n,
    amountOutMinimum: 1n,
    deadline: 2_000_000_000n,
  }),
);
