/**
 * The balance rule of the preflight phase (issue 11 §5): the wallet must hold what the
 * transaction will spend (for native ETH: the value plus the transaction's gas at twice the
 * current base fee, as wallets bound their fee). Short: 400 BALANCE_INSUFFICIENT, or with
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

/** The fee per gas a wallet reserves: twice the base fee (ethers' and most wallets' maxFeePerGas). */
export function gasCostWei(gas: bigint, baseFeePerGas: bigint): bigint {
  return gas * baseFeePerGas * 2n;
}

export function balanceShortfalls(
  network: NetworkDefinition,
  state: WalletState,
  request: SpendRequest,
): BalanceShortfall[] {
  return request.needs.flatMap(({ symbol, amount, native }) => {
    const balance = native ? state.balances.ETH : state.balances[symbol];
    const required = native ? amount + gasCostWei(request.gas ?? 0n, state.baseFeePerGas) : amount;
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
  buildOnly: boolean,
): Warning[] {
  const short = balanceShortfalls(network, state, request);
  if (short.length === 0) return [];
  const message = `Wallet balance too low: ${short
    .map((s) => `${s.symbol} ${s.balance} < ${s.required}`)
    .join(', ')}; the transaction would revert`;
  if (!buildOnly) throw new ApiError('BALANCE_INSUFFICIENT', message, { details: short });
  return [
    {
      code: 'BALANCE_INSUFFICIENT',
      message,
      hint: ERROR_CATALOGUE.BALANCE_INSUFFICIENT.hint,
      tokens: short,
    },
  ];
}
