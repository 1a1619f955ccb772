/** Reads src/config/networks/<name>.json (copied to dist/config/networks by nest-cli assets). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChainNetworkName } from '../../config/chain.config';
import { NetworkFile, NetworkOverrides, resolveNetworkFile } from './network-definition';
import type { NetworkDefinition } from './network.types';

export const NETWORKS_DIR = join(__dirname, '..', '..', 'config', 'networks');

export function readNetworkFile(name: ChainNetworkName): NetworkFile {
  return JSON.parse(readFileSync(join(NETWORKS_DIR, `${name}.json`), 'utf8')) as NetworkFile;
}

export function loadNetwork(
  name: ChainNetworkName,
  overrides: NetworkOverrides = {},
): NetworkDefinition {
  return resolveNetworkFile(readNetworkFile(name), overrides);
}
