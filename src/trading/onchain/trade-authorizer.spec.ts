import { withOnlyEnv } from '../../../test/helpers/test-env';
import type { ChainRpcService } from '../../chain/chain-rpc.service';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import type { NetworkService } from '../../chain/network/network.service';
import type { ComplianceConfig } from '../../config/compliance.config';
import devnetFile from '../../config/networks/devnet.json';
import { tradingConfig, TradingConfig } from '../../config/trading.config';
import { TradeAuthorizer } from './trade-authorizer.service';

describe('TradeAuthorizer (issue 54)', () => {
  const configWith = (vars: Record<string, string>) => withOnlyEnv(vars, () => tradingConfig());
  const KEY = `0x${'12'.repeat(32)}`;

  it('production on a v3 network refuses to start without an authorizer key; a v2 network needs none', () => {
    const v3 = resolveNetworkFile(devnetFile as NetworkFile);
    const v2 = { ...v3, hookVersion: 2, authorizers: [] };
    const production = { ...configWith({}), production: true } as TradingConfig;
    const open = (config: TradingConfig, definition: typeof v3) =>
      new TradeAuthorizer(
        config,
        {} as ComplianceConfig,
        { definition, contracts: definition.contracts } as NetworkService,
        {} as ChainRpcService,
      );
    expect(() => open(production, v3)).toThrow(/AUTHORIZER_PRIVATE_KEY is required in production/);
    expect(open(production, v2).addresses()).toEqual([]);
    const withKey = open({ ...production, authorizerPrivateKey: KEY }, v3);
    expect(withKey.enabled).toBe(true);
    expect(withKey.addresses()).toHaveLength(1);
  });

  it('issues an authorization per pool of a route, capped, with a fresh nonce each time; refuses a route without its cap', async () => {
    const net = resolveNetworkFile(devnetFile as NetworkFile);
    const authorizer = new TradeAuthorizer(
      { ...configWith({}), authorizerPrivateKey: KEY } as TradingConfig,
      {} as ComplianceConfig,
      { definition: net, contracts: net.contracts } as NetworkService,
      {} as ChainRpcService,
    );
    const second = net.pools.find((p) => p.fee === 100)!.id;
    const input = {
      trader: '0x1111111111111111111111111111111111111111',
      poolId: net.pool.id,
      route: [net.pool.id, second],
      zeroForOne: true,
      amount: 10n ** 15n,
      kind: 'swap' as const,
      deadline: 1_900_000_000,
    };
    await expect(authorizer.issue(input)).rejects.toThrow(/nextAmountMax is required/);
    const a = await authorizer.issue({ ...input, nextAmountMax: 4n * 10n ** 6n });
    const b = await authorizer.issue({ ...input, nextAmountMax: 4n * 10n ** 6n });
    expect(Object.keys(a.hookDataByPool)).toEqual([net.pool.id.toLowerCase(), second]);
    expect(a.hookDataByPool[second]).toBe('0x');
    expect((a.hookData.length - 2) / 2).toBe(192);
    expect(BigInt(b.nonce)).toBe(BigInt(a.nonce) + 1n);
    expect(a.id).not.toBe(b.id);
    expect(a).toMatchObject({ deadline: 1_900_000_000, signer: authorizer.addresses()[0] });
  });
});
