/**
 * The supported-token whitelist of the configured network (spec §1), with the deprecated items
 * (old stablecoin, old hooks) turned into UNSUPPORTED_TOKEN errors whose hint names the
 * replacement. Pure: the network definition comes in.
 */
import { ZeroAddress } from 'ethers';
import type { NetworkDefinition } from '../chain/network/network.types';
import { ApiError } from '../common/errors/api-error';
import type { TokenSymbol } from '../chain/encoding/wallet-reads';
import { checksumAddress } from '../common/address/checksum-address';

/** Native ETH in swap and quote bodies (issue 11 §3): traded through the pool's WETH side. */
export const NATIVE_ETH = ZeroAddress;

export interface ResolvedToken {
  /** The pool currency that carries it: WETH for native ETH. */
  symbol: TokenSymbol;
  /** As the caller named it (the zero address for native ETH), checksummed. */
  address: string;
  decimals: number;
  /** true: native ETH, wrapped/unwrapped by the router; needs no approval. */
  native: boolean;
}

/**
 * Every token field of a request, resolved; `native` says whether native ETH is accepted. Two
 * fields naming the same pool currency (ETH and WETH) are refused: that is a wrap, not a trade.
 */
export function resolveTokens<K extends string>(
  network: NetworkDefinition,
  fields: Record<K, string>,
  opts: { native: boolean },
): Record<K, ResolvedToken> {
  const tokens = {} as Record<K, ResolvedToken>;
  const seen = new Map<TokenSymbol, K>();
  for (const field of Object.keys(fields) as K[]) {
    const token = resolveToken(network, fields[field], field, opts);
    const other = seen.get(token.symbol);
    if (other !== undefined) {
      throw new ApiError(
        'INVALID_PARAMS',
        `${other} and ${field} are ETH and WETH: that is a wrap, not a swap`,
        {
          hint: `Wrap or unwrap 1:1 with WETH.deposit() / WETH.withdraw(amount) on ${network.tokens.WETH.address}; swap ETH or WETH against any other listed token here (GET /api/v1/defi/config).`,
          details: [
            {
              field,
              constraint: 'wrapNotSwap',
              message: `${field} must not be the wrapped form of ${other}`,
            },
          ],
        },
      );
    }
    seen.set(token.symbol, field);
    tokens[field] = token;
  }
  return tokens;
}

export function resolveToken(
  network: NetworkDefinition,
  address: string,
  field: string,
  opts: { native: boolean } = { native: false },
): ResolvedToken {
  const checksummed = checksumAddress(address);
  if (checksummed === NATIVE_ETH) {
    if (opts.native) return { symbol: 'WETH', address: NATIVE_ETH, decimals: 18, native: true };
    throw new ApiError('UNSUPPORTED_TOKEN', `${field}: native ETH is not accepted here`, {
      hint: `Wrap ETH into WETH (${network.tokens.WETH.address}, deposit()) first; native ETH is accepted by swap and quote only.`,
      extra: { field },
    });
  }
  for (const token of Object.values(network.tokens)) {
    if (token.address === checksummed)
      return {
        symbol: token.symbol,
        address: token.address,
        decimals: token.decimals,
        native: false,
      };
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
    .concat(opts.native ? [`ETH ${NATIVE_ETH} (native)`] : [])
    .join(', ');
  throw new ApiError('UNSUPPORTED_TOKEN', `${field} ${checksummed} is not a supported token`, {
    hint: `Supported tokens on chain ${network.chainId}: ${supported} (GET /api/v1/defi/config).`,
    extra: { field },
  });
}

/** A resolved token as the trade rules name it (issue 54): its pool currency (ETH is WETH). */
export function tradeTokenOf(token: ResolvedToken): { symbol: string; decimals: number } {
  return { symbol: token.symbol, decimals: token.decimals };
}
