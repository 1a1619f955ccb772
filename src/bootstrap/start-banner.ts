import { computeAddress } from 'ethers';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { devnetPrivateKeys } from '../chain/devnet/devnet';
import { DEVNET_MNEMONIC, FUNDED_ACCOUNT_COUNT } from '../chain/devnet/constants';
import type { ChainInstanceStatus } from '../chain/instance/chain-instance.service';

export interface StartFacts {
  baseUrl: string;
  startupMs: number;
  docsEnabled: boolean;
  chain: {
    chainId: number;
    name: string;
    rpcUrl?: string;
    embedded: boolean;
    instance?: ChainInstanceStatus;
  };
  dataDir: string;
}

/** The first line every start prints (scripts and tests wait for it). */
export function readyLine(facts: StartFacts): string {
  return `Ready on ${facts.baseUrl} in ${facts.startupMs.toFixed(0)} ms${facts.docsEnabled ? ' (docs: /docs)' : ''}`;
}

/**
 * What a person at a terminal needs to start: where the API, the reference and the chain are,
 * which development wallets hold funds, and how to log in to the demo account.
 */
export function startBanner(facts: StartFacts): string {
  const lines = [
    readyLine(facts),
    '',
    `  API        ${facts.baseUrl}/api/v1   (BASE=${facts.baseUrl})`,
  ];
  if (facts.docsEnabled) lines.push(`  Reference  ${facts.baseUrl}/docs   (OpenAPI: /docs/json)`);
  lines.push(`  Dashboard  ${facts.baseUrl}/dashboard   (keys, usage, wallets)`);
  lines.push(`  Runtime    Node.js ${process.version}`);
  const { chain } = facts;
  if (chain.embedded && chain.rpcUrl) {
    lines.push(
      `  Devnet     ${chain.rpcUrl}   chainId ${chain.chainId}   (ethers: new JsonRpcProvider(url, ${chain.chainId}, { cacheTimeout: -1 }))`,
      `  Wallets    ${FUNDED_ACCOUNT_COUNT} funded with ETH, WETH and tUSDC, from the mnemonic "${DEVNET_MNEMONIC}":`,
      ...fundedWallets().map((w) => `             ${w}`),
    );
  } else {
    lines.push(`  Chain      ${chain.name} (chainId ${chain.chainId})`);
  }
  if (chain.instance?.state === 'new') lines.push(...newInstanceLines(chain.instance));
  const credentials = join(facts.dataDir, 'demo-credentials.json');
  if (existsSync(credentials)) {
    const { email } = JSON.parse(readFileSync(credentials, 'utf8')) as { email: string };
    lines.push(`  Demo login ${email}, password in ${credentials}`);
  }
  return `${lines.join('\n')}\n\n`;
}

/** The database outlived its chain (the embedded devnet starts empty): what changed, once. */
function newInstanceLines(instance: ChainInstanceStatus): string[] {
  const cleared = Object.entries(instance.cleared)
    .map(([kind, count]) => `${count} ${kind}`)
    .join(', ');
  return [
    `  New chain  a new chain instance since the last start (genesis ${instance.genesisHash}): its sessions,`,
    `             positions and transactions start empty; cleared what the database said of the old one`,
    `             (${cleared}); accounts, wallets, keys and webhooks kept`,
  ];
}

function fundedWallets(): string[] {
  return devnetPrivateKeys(FUNDED_ACCOUNT_COUNT).map((key, i) => {
    const role = i === 0 ? '   (deployer and attester)' : '';
    return `#${i} ${computeAddress(key)}${role}`;
  });
}
