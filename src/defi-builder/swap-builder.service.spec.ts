import { Test } from '@nestjs/testing';
import { AbiCoder } from 'ethers';
import { resolveNetworkFile } from '../chain/network/network-definition';
import devnet from '../config/networks/devnet.json';
import { WalletsService } from '../compliance/wallets/wallets.service';
import type { NetworkFile } from '../chain/network/network-definition';
import { DEFI_CHAIN, DefiChain } from './chain/defi-chain.port';
import type { Call3, Call3Result } from './encoding/preflight-batch';
import { PERMIT2, V4_QUOTER } from './encoding/abis';
import { GasEstimatorService } from './gas-estimator.service';
import { PreflightService } from './preflight.service';
import { SwapBuilderService } from './swap-builder.service';

const network = resolveNetworkFile(devnet as NetworkFile);
const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const u = (v: bigint): Call3Result => ({
  success: true,
  returnData: AbiCoder.defaultAbiCoder().encode(['uint256'], [v]),
});

/** A chain whose batch says: session `activeUntil`, no allowances, and a fixed quote. */
function fakeChain(activeUntil: bigint): DefiChain & { calls: number } {
  const now = BigInt(Math.floor(Date.now() / 1000));
  const chain = {
    calls: 0,
    network: () => network,
    async aggregate3(calls: Call3[]) {
      chain.calls += 1;
      return calls.map((c, i): Call3Result => {
        if (i === 0) return u(now);
        if (i === 1) return u(activeUntil);
        if (c.target === network.contracts.permit2)
          return {
            success: true,
            returnData: PERMIT2.encodeFunctionResult('allowance', [0n, 0n, 0n]),
          };
        if (c.target === network.contracts.v4Quoter)
          return {
            success: true,
            returnData: V4_QUOTER.encodeFunctionResult('quoteExactInputSingle', [300_000_000n, 1n]),
          };
        return u(0n);
      });
    },
    estimateGas: jest.fn(),
  };
  return chain;
}

async function service(chain: DefiChain) {
  const moduleRef = await Test.createTestingModule({
    providers: [
      SwapBuilderService,
      PreflightService,
      GasEstimatorService,
      { provide: DEFI_CHAIN, useValue: chain },
      { provide: WalletsService, useValue: { findByAddress: async () => null } },
    ],
  }).compile();
  return moduleRef.get(SwapBuilderService);
}

describe(SwapBuilderService.name, () => {
  const body = {
    tokenIn: network.tokens.WETH.address,
    tokenOut: network.tokens.tUSDC.address,
    amount: '100000000000000000',
    userAddress: USER,
  };
  const principal = { method: 'jwt' as const, accountId: 'a1', scopes: [] };

  it('derives zeroForOne, applies the default 50 bps to the quote and plans approvals, in one batch read', async () => {
    const chain = fakeChain(BigInt(Math.floor(Date.now() / 1000)) + 3600n);
    const res = await (await service(chain)).build(body, false, principal);
    expect(chain.calls).toBe(1);
    expect(res).toMatchObject({
      zeroForOne: true,
      quotedAmountOut: '300000000',
      minAmountOut: '298500000',
      slippageBps: 50,
      walletBound: false,
    });
    expect(res.approvals.map((a) => a.kind)).toEqual(['erc20', 'permit2']);
    expect(res.simulation).toEqual({ ok: null, skipped: 'ALLOWANCE_INSUFFICIENT' });
    expect(chain.estimateGas).not.toHaveBeenCalled();
  });

  it('refuses with SESSION_NOT_ACTIVE unless buildOnly', async () => {
    const svc = await service(fakeChain(0n));
    await expect(svc.build(body, false, principal)).rejects.toMatchObject({
      code: 'SESSION_NOT_ACTIVE',
      status: 412,
    });
    await expect(
      svc.build({ ...body, tokenIn: body.tokenOut, tokenOut: body.tokenIn }, true, principal),
    ).resolves.toMatchObject({ zeroForOne: false, session: { active: false } });
  });
});
