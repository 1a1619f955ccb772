/**
 * The balance rule of the preflight phase (issue 11 §5): the wallet must hold what the
 * transaction will spend (for native ETH: the value plus the transaction's gas at twice the
 * current gas price, which covers the maxFeePerGas wallets send: 2 x base fee + tip). Short: 400 BALANCE_INSUFFICIENT, or with
 * buildOnly a BALANCE_INSUFFICIENT warning. Pure.
 */
import type { WalletState } from '../../chain/encoding/wallet-reads';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ApiError } from '../../common/errors/api-error';
import { ERROR_CATALOGUE } from '../../common/errors/error-catalogue';
import type { Warning } from '../defi-builder.types';
import { NATIVE_ETH } from '../token-registry';
import type { SpendRequest } from './spend-plan';

export interface BalanceShortfall {
  symbol: string;
  token: string;
  balance: string;
  required: string;
}

/** What the node makes the wallet hold for gas: gas limit x maxFeePerGas, bounded by 2 x gas price. */
export function gasCostWei(gas: bigint, gasPrice: bigint): bigint {
  return gas * gasPrice * 2n;
}

export function needsEth(request: SpendRequest): boolean {
  return request.needs.some((n) => n.native === true);
}

export function balanceShortfalls(
  network: NetworkDefinition,
  state: WalletState,
  request: SpendRequest,
  gasPrice: bigint,
): BalanceShortfall[] {
  return request.needs.flatMap(({ symbol, amount, native }) => {
    const balance = native ? state.balances.ETH : state.balances[symbol];
    const required = native ? amount + gasCostWei(request.gas ?? 0n, gasPrice) : amount;
    if (balance >= required) return [];
    return [
      {
        symbol: native ? 'ETH' : symbol,
        token: native ? NATIVE_ETH : network.tokens[symbol].address,
        balance: balance.toString(),
        required: required.toString(),
      },
    ];
  });
}

/** Throws 400 BALANCE_INSUFFICIENT; with buildOnly returns the matching warning instead. */
export function checkBalances(
  network: NetworkDefinition,
  state: WalletState,
  request: SpendRequest,
  opts: { buildOnly: boolean; gasPrice: bigint },
): Warning[] {
  const short = balanceShortfalls(network, state, request, opts.gasPrice);
  if (short.length === 0) return [];
  const message = `Wallet balance too low: ${short
    .map((s) => `${s.symbol} ${s.balance} < ${s.required}`)
    .join(', ')}; the transaction would revert`;
  if (!opts.buildOnly) throw new ApiError('BALANCE_INSUFFICIENT', message, { details: short });
  return [
    {
      code: 'BALANCE_INSUFFICIENT',
      message,
      hint: ERROR_CATALOGUE.BALANCE_INSUFFICIENT.hint,
      tokens: short,
    },
  ];
}
