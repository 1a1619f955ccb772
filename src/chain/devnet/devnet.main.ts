/**
 * Entry point of the devnet process: `npm run devnet` (standalone, prints the addresses) and the
 * child process that `spawnDevnet()` manages for `npm start` and the tests. As a child it reports
 * `{ type: 'ready', ... }` over IPC and exits as soon as its parent goes away, so a crashed API
 * or test worker never leaves an orphan EVM holding a port.
 *
 * `--bare --network-file F`: only the public infrastructure (no contract of ours, no token, no
 * pool), the stand-in for Base Sepolia before `npm run cli -- deploy`; F receives its network file.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeNetworkFileAtomically } from '../deployment/network-file-io';
import { findRepoRoot } from './artifacts';
import { startBareDevnet, startDevnet } from './devnet';
import {
  devnetNetworkDefinition,
  devnetNetworkFile,
  resolveCompliance,
} from '../network/network-definition';
import { easBannerLines } from './devnet-eas';
import type { DevnetReadyMessage } from './devnet-process';
import { safeContractsFor } from '../safe/safe-contracts';

/** Safe's canonical contracts, which both devnets place (`npm run cli -- safe create`). */
function safeBannerLines(chainId: number): string[] {
  const safe = safeContractsFor(chainId);
  if (!safe) return [];
  return [
    `Safe ${safe.version} (canonical addresses; npm run cli -- safe create --owners A,B,C --threshold 2):`,
    `  ${'SafeL2 singleton'.padEnd(20)} ${safe.safeL2Singleton}`,
    `  ${'SafeProxyFactory'.padEnd(20)} ${safe.proxyFactory}`,
    `  ${'MultiSendCallOnly'.padEnd(20)} ${safe.multiSendCallOnly}`,
    `  ${'fallback handler'.padEnd(20)} ${safe.fallbackHandler}`,
  ];
}

function portFromArgs(): number {
  const flag = process.argv.indexOf('--port');
  const text = flag >= 0 ? process.argv[flag + 1] : (process.env.DEVNET_PORT ?? '8545');
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`invalid devnet port: ${text}`);
  return port;
}

function networkFileFromArgs(): string {
  const flag = process.argv.indexOf('--network-file');
  const path = flag >= 0 ? process.argv[flag + 1] : undefined;
  if (!path || path.startsWith('--'))
    throw new Error('--bare needs --network-file F: where to write the network file');
  return resolve(path);
}

/** Lets the parent (a test, a supervisor) stop the devnet with a signal or by going away. */
function stopOnSignals(close: () => Promise<void>): void {
  const shutdown = (): void => void close().finally(() => process.exit(0));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  if (process.send) process.on('disconnect', shutdown);
}

async function bare(): Promise<void> {
  const started = Date.now();
  const path = networkFileFromArgs();
  const devnet = await startBareDevnet({ port: portFromArgs() });
  writeNetworkFileAtomically(path, devnet.networkFile);
  stopOnSignals(devnet.close);
  const { contracts, tokens } = devnet.networkFile;
  const lines = [
    `bare devnet ready in ${Date.now() - started} ms (engine ${devnet.timings.engineMs} ms, infrastructure ${devnet.timings.deployMs} ms)`,
    `JSON-RPC   ${devnet.rpcUrl}   chainId ${devnet.networkFile.chainId}`,
    `network file written: ${path}`,
    ...Object.entries(contracts).map(
      ([name, address]) => `  ${name.padEnd(20)} ${address ?? '(not deployed)'}`,
    ),
    `  ${'WETH'.padEnd(20)} ${tokens.WETH.address}`,
    `  ${'tUSDC'.padEnd(20)} (not deployed)`,
    ...safeBannerLines(devnet.networkFile.chainId),
    ...easBannerLines(resolveCompliance(devnet.networkFile)),
    `funded accounts (ETH, WETH), mnemonic "test test ... junk":`,
    ...devnet.infrastructure.accounts.funded.map((a, i) => `  #${i} ${a}`),
    `next: npm run cli -- deploy --rpc ${devnet.rpcUrl} --network-file ${path} --deployer-key-file <file>`,
  ];
  console.log(lines.join('\n'));
  process.send?.({ type: 'bare-ready', rpcUrl: devnet.rpcUrl, networkFile: path });
}

async function main(): Promise<void> {
  if (process.argv.includes('--bare')) return bare();
  const started = Date.now();
  const devnet = await startDevnet({ port: portFromArgs() });
  const network = devnetNetworkDefinition(devnet.deployment);
  const networkFile = devnetNetworkFile(devnet.deployment);

  if (process.argv.includes('--write-network-file')) {
    const path = join(findRepoRoot(), 'src', 'config', 'networks', 'devnet.json');
    writeFileSync(path, `${JSON.stringify(networkFile, null, 2)}\n`);
  }

  stopOnSignals(devnet.close);

  if (process.send) {
    const message: DevnetReadyMessage = {
      type: 'ready',
      rpcUrl: devnet.rpcUrl,
      deployment: devnet.deployment,
      timings: devnet.timings,
    };
    process.send(message);
    return;
  }

  const lines = [
    `devnet ready in ${Date.now() - started} ms (engine ${devnet.timings.engineMs} ms, deployment ${devnet.timings.deployMs} ms)`,
    `JSON-RPC   ${devnet.rpcUrl}   chainId ${network.chainId}`,
    ...Object.entries(network.contracts).map(
      ([name, address]) => `  ${name.padEnd(20)} ${address}`,
    ),
    ...Object.values(network.tokens).map((t) => `  ${t.symbol.padEnd(20)} ${t.address}`),
    ...network.pools.map((p) => {
      const symbol = (a: string) =>
        Object.values(network.tokens).find((t) => t.address === a)!.symbol;
      const pair = `${symbol(p.currency0)}/${symbol(p.currency1)}`;
      return `  pool ${pair.padEnd(15)} fee ${p.fee}, tickSpacing ${p.tickSpacing}, id ${p.id}`;
    }),
    `  hooks (every pool)   ${network.pool.hooks}`,
    ...safeBannerLines(network.chainId),
    ...easBannerLines(network.compliance),
    `funded accounts (ETH, WETH, tUSDC, tWBTC, tEURC; no compliance session), mnemonic "test test ... junk":`,
    ...devnet.deployment.accounts.funded.map(
      (a, i) => `  #${i} ${a}${i === 0 ? '  (deployer + attester)' : ''}`,
    ),
  ];
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error('devnet failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
