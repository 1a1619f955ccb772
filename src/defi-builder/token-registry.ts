/**
 * The supported-token whitelist of the configured network (spec §1), with the deprecated items
 * (old stablecoin, old hooks) turned into UNSUPPORTED_TOKEN errors whose hint names the
 * replacement. Pure: the network definition comes in.
 */
import { getAddress } from 'ethers';
import type { NetworkDefinition } from '../chain/network/network.types';
import { ApiError } from '../common/errors/api-error';
import type { TokenSymbol } from '../chain/encoding/wallet-reads';

export interface ResolvedToken {
  symbol: TokenSymbol;
  address: string;
  decimals: number;
}

export function resolveToken(
  network: NetworkDefinition,
  address: string,
  field: string,
): ResolvedToken {
  const checksummed = getAddress(address);
  for (const token of Object.values(network.tokens)) {
    if (token.address === checksummed)
      return { symbol: token.symbol, address: token.address, decimals: token.decimals };
  }
  const deprecated = network.deprecated.find((d) => d.address === checksummed);
  if (deprecated) {
    throw new ApiError(
      'UNSUPPORTED_TOKEN',
      `${field} ${checksummed} is deprecated: ${deprecated.label}. ${deprecated.reason}`,
      {
        hint: `Use ${deprecated.replacedByLabel} at ${deprecated.replacedBy} instead; GET /api/v1/defi/config lists the current configuration.`,
        extra: { field, deprecated: true, replacedBy: deprecated.replacedBy },
      },
    );
  }
  const supported = Object.values(network.tokens)
    .map((t) => `${t.symbol} ${t.address}`)
    .join(', ');
  throw new ApiError('UNSUPPORTED_TOKEN', `${field} ${checksummed} is not a supported token`, {
    hint: `Supported tokens on chain ${network.chainId}: ${supported} (GET /api/v1/defi/config).`,
    extra: { field },
  });
}
