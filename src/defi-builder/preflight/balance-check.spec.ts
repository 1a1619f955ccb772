import devnetFile from '../../config/networks/devnet.json';
import type { WalletState } from '../../chain/encoding/wallet-reads';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import { ApiError } from '../../common/errors/api-error';
import { checkBalances, gasCostWei } from './balance-check';

const network = resolveNetworkFile(devnetFile as NetworkFile);
const state = { balances: { ETH: 10n ** 18n, WETH: 5n, tUSDC: 7n } } as unknown as WalletState;

describe('checkBalances', () => {
  it('passes what the wallet holds; ETH must also cover gas at twice the gas price', () => {
    const opts = { buildOnly: false, gasPrice: 10n };
    expect(
      checkBalances(network, state, { use: 'swap', needs: [{ symbol: 'WETH', amount: 5n }] }, opts),
    ).toEqual([]);
    const eth = (amount: bigint) => ({
      use: 'swap' as const,
      needs: [{ symbol: 'WETH' as const, amount, native: true }],
      gas: 1000n,
    });
    expect(gasCostWei(1000n, 10n)).toBe(20_000n);
    expect(checkBalances(network, state, eth(10n ** 18n - 20_000n), opts)).toEqual([]);
    expect(() => checkBalances(network, state, eth(10n ** 18n - 19_999n), opts)).toThrow(ApiError);
  });

  it('refuses with BALANCE_INSUFFICIENT details, or warns with buildOnly', () => {
    const request = {
      use: 'liquidity' as const,
      needs: [{ symbol: 'tUSDC' as const, amount: 8n }],
    };
    let thrown: ApiError | undefined;
    try {
      checkBalances(network, state, request, { buildOnly: false, gasPrice: 0n });
    } catch (err) {
      thrown = err as ApiError;
    }
    expect(thrown?.code).toBe('BALANCE_INSUFFICIENT');
    expect(thrown?.options.details).toEqual([
      { symbol: 'tUSDC', token: network.tokens.tUSDC.address, balance: '7', required: '8' },
    ]);
    const warnings = checkBalances(network, state, request, { buildOnly: true, gasPrice: 0n });
    expect(warnings.map((w) => w.code)).toEqual(['BALANCE_INSUFFICIENT']);
  });
});
