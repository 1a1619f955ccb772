import { AbiCoder } from 'ethers';
import { COMPLIANCE_REGISTRY, PERMIT2, STATE_VIEW, V4_QUOTER } from './abis';
import { buildPreflightBatch, Call3Result } from './preflight-batch';

const coder = AbiCoder.defaultAbiCoder();
const target = {
  wallet: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  contracts: {
    multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
    complianceRegistry: '0x2279B7A0a67DB372996a5FaB50D91eAA73d2eBe6',
    permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
    universalRouter: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
    positionManager: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
    stateView: '0x0165878A594ca255338adfa4d48449f69242Eb8F',
    v4Quoter: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853',
  },
  tokens: {
    WETH: '0x77139Fa81c4434893f9D7e033C3e3903C46B820D',
    tUSDC: '0x993706027b3eC9d8b03A962CAaa15C133A52707c',
  },
  poolKey: {
    currency0: '0x77139Fa81c4434893f9D7e033C3e3903C46B820D',
    currency1: '0x993706027b3eC9d8b03A962CAaa15C133A52707c',
    fee: 3000,
    tickSpacing: 60,
    hooks: '0xB0044845d57D1ceEB39F4D851c2B4F9313c7c880',
  },
};

describe('buildPreflightBatch', () => {
  it('reads clock, session, 3 balances, 2 ERC-20 and 4 Permit2 allowances; slot0 and quote on request', () => {
    expect(buildPreflightBatch(target).calls).toHaveLength(11);
    const full = buildPreflightBatch({
      ...target,
      slot0: true,
      quote: { zeroForOne: true, exactAmount: 5n },
    });
    expect(full.calls).toHaveLength(13);
    // Only the quote may fail without failing the whole batch.
    expect(full.calls.filter((c) => c.allowFailure).map((c) => c.target)).toEqual([
      target.contracts.v4Quoter,
    ]);
    expect(full.calls[1].callData).toBe(
      COMPLIANCE_REGISTRY.encodeFunctionData('activeUntil', [
        '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      ]),
    );
  });

  it('decodes each result into its field', () => {
    const batch = buildPreflightBatch({
      ...target,
      slot0: true,
      quote: { zeroForOne: true, exactAmount: 5n },
    });
    const u = (v: bigint) => ({ success: true, returnData: coder.encode(['uint256'], [v]) });
    const results: Call3Result[] = [
      u(1_000n), // timestamp
      u(2_000n), // activeUntil
      u(3n), // ETH
      u(10n),
      u(11n), // WETH balance, ERC20 allowance
      { success: true, returnData: PERMIT2.encodeFunctionResult('allowance', [12n, 5_000n, 0n]) },
      { success: true, returnData: PERMIT2.encodeFunctionResult('allowance', [13n, 5_000n, 0n]) },
      u(20n),
      u(21n),
      { success: true, returnData: PERMIT2.encodeFunctionResult('allowance', [22n, 5_000n, 0n]) },
      { success: true, returnData: PERMIT2.encodeFunctionResult('allowance', [23n, 5_000n, 0n]) },
      {
        success: true,
        returnData: STATE_VIEW.encodeFunctionResult('getSlot0', [
          79228162514264337593543950336n,
          -5n,
          0n,
          3000n,
        ]),
      },
      { success: false, returnData: '0x12345678' },
    ];
    const reads = batch.decode(results);
    expect(reads).toMatchObject({
      blockTimestamp: 1_000n,
      activeUntil: 2_000n,
      balances: { ETH: 3n, WETH: 10n, tUSDC: 20n },
      erc20ToPermit2: { WETH: 11n, tUSDC: 21n },
      permit2: {
        swap: { WETH: { amount: 12n }, tUSDC: { amount: 22n } },
        liquidity: { WETH: { amount: 13n }, tUSDC: { amount: 23n } },
      },
      slot0: { tick: -5 },
      quote: { ok: false, revertData: '0x12345678' },
    });
    results[12] = {
      success: true,
      returnData: V4_QUOTER.encodeFunctionResult('quoteExactInputSingle', [99n, 1n]),
    };
    expect(batch.decode(results).quote).toEqual({ ok: true, amountOut: 99n });
  });
});
